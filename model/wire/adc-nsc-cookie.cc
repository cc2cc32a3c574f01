/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: NetScaler's persistence cookie (AdcNscCookie, declared in adc-http-cookie.h): its
 * name from the virtual servers' names and its value from the service's address and port, as
 * the public decoder reads them.
 */

#include "adc-http-cookie.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"

#include <cstdio>

namespace ns3
{

namespace
{

/// \return the digit value of a lowercase hex digit, or -1
int
LowerHex(char c)
{
    if (c >= '0' && c <= '9')
    {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f')
    {
        return c - 'a' + 10;
    }
    return -1;
}

/// \return the value of \p n lowercase hex digits at \p p (caller checked them)
uint32_t
HexValue(const std::string& s, std::size_t p, std::size_t n)
{
    uint32_t v = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        v = (v << 4) | static_cast<uint32_t>(LowerHex(s[p + i]));
    }
    return v;
}

const char kNscPrefix[] = "NSC_";
const std::size_t kNscPrefixLen = 4;
/// The fixed fields of the cookie value (see the header).
const char kValueHead[] = "ffffffff";
const char kValueMiddle[] = "45525d5f4f58455e445a4a42";

} // namespace

// ------------------------------------------------------------------ AdcNscCookie

std::string
AdcNscCookie::VserverIdProblem(const std::string& name)
{
    const std::string allowed = "; allowed: 1 to " + std::to_string(kMaxNameLength) +
                                " letters, digits, '_', '-', '.', '#', the first a letter, digit " +
                                "or '_'";
    if (name.empty() || name.size() > kMaxNameLength)
    {
        return "has " + std::to_string(name.size()) + " characters" + allowed;
    }
    for (std::size_t i = 0; i < name.size(); ++i)
    {
        const char c = name[i];
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        const bool digit = c >= '0' && c <= '9';
        if (!(letter || digit || c == '_' || (i > 0 && (c == '-' || c == '.' || c == '#'))))
        {
            return "has " + AdcText::ShowByte(static_cast<unsigned char>(c)) + " at position " +
                   std::to_string(i) + allowed;
        }
    }
    return "";
}

std::string
AdcNscCookie::EncodeVserverId(const std::string& name)
{
    const std::string problem = VserverIdProblem(name);
    if (!problem.empty())
    {
        throw AdcConfigError("AdcNscCookie: vserver name '" + name + "' " + problem);
    }
    std::string id = name;
    for (auto& c : id)
    {
        if (c == 'z')
        {
            c = 'a';
        }
        else if (c == 'Z')
        {
            c = 'A';
        }
        else if ((c >= 'a' && c < 'z') || (c >= 'A' && c < 'Z'))
        {
            c = static_cast<char>(c + 1);
        }
    }
    return id;
}

std::string
AdcNscCookie::DecodeVserverId(const std::string& id)
{
    std::string name = id;
    for (auto& c : name)
    {
        if (c == 'a')
        {
            c = 'z';
        }
        else if (c == 'A')
        {
            c = 'Z';
        }
        else if ((c > 'a' && c <= 'z') || (c > 'A' && c <= 'Z'))
        {
            c = static_cast<char>(c - 1);
        }
    }
    return name;
}

std::string
AdcNscCookie::EncodeName(const std::string& csVserver, const std::string& lbVserver)
{
    std::string out = kNscPrefix;
    if (!csVserver.empty())
    {
        out += EncodeVserverId(csVserver);
    }
    return out + EncodeVserverId(lbVserver);
}

std::optional<std::string>
AdcNscCookie::DecodeName(const std::string& cookieName)
{
    if (cookieName.size() <= kNscPrefixLen || cookieName.compare(0, kNscPrefixLen, kNscPrefix) != 0)
    {
        return std::nullopt;
    }
    return DecodeVserverId(cookieName.substr(kNscPrefixLen));
}

std::optional<std::string>
AdcNscCookie::DecodeLbVserver(const std::string& cookieName, const std::string& csVserver)
{
    const auto all = DecodeName(cookieName);
    if (!all || all->size() <= csVserver.size() ||
        all->compare(0, csVserver.size(), csVserver) != 0)
    {
        return std::nullopt;
    }
    return all->substr(csVserver.size());
}

std::string
AdcNscCookie::EncodeValue(Ipv4Address ip, uint16_t port)
{
    char buf[16];
    std::string out = kValueHead;
    std::snprintf(buf, sizeof(buf), "%08x", static_cast<unsigned>(ip.Get() ^ kIpKey));
    out += buf;
    out += kValueMiddle;
    std::snprintf(buf, sizeof(buf), "%04x", static_cast<unsigned>(port ^ kPortKey));
    out += buf;
    return out;
}

std::optional<AdcNscCookie::Service>
AdcNscCookie::DecodeValue(const std::string& value)
{
    if (value.size() < 20)
    {
        return std::nullopt;
    }
    for (char c : value)
    {
        if (LowerHex(c) < 0)
        {
            return std::nullopt;
        }
    }
    Service s;
    s.ip = Ipv4Address(HexValue(value, 8, 8) ^ kIpKey);
    s.port = static_cast<uint16_t>(HexValue(value, value.size() - 4, 4) ^ kPortKey);
    return s;
}

} // namespace ns3
