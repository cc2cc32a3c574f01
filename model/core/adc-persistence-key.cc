/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: persistence types, keys and NetScaler's persistence support matrix
 * (adc-persistence-table.h); the table itself is in adc-persistence-table.cc.
 */

#include "adc-config-error.h"
#include "adc-persistence-table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

namespace ns3
{

namespace
{

/// Type names, indexed by the enum value.
const std::array<const char*, 4> kTypeNames = {"NONE", "SOURCEIP", "COOKIEINSERT", "SSLSESSION"};

/// Known service types, in the order messages list them.
const std::vector<std::string> kServiceTypes =
    {"HTTP", "HTTPS", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP", "RTSP", "SIP_UDP", "ANY"};

/// \param t a type \return the service types it is allowed on (NetScaler's support matrix)
const std::vector<std::string>&
AllowedServiceTypes(AdcPersistenceType t)
{
    static const std::vector<std::string> sourceIp =
        {"HTTP", "HTTPS", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP"};
    static const std::vector<std::string> cookieInsert = {"HTTP", "HTTPS"};
    static const std::vector<std::string> sslSession = {"HTTPS", "SSL_BRIDGE", "SSL_TCP"};
    switch (t)
    {
    case AdcPersistenceType::SOURCEIP:
        return sourceIp;
    case AdcPersistenceType::COOKIEINSERT:
        return cookieInsert;
    case AdcPersistenceType::SSLSESSION:
        return sslSession;
    case AdcPersistenceType::NONE:
    default:
        return kServiceTypes;
    }
}

/// \param s text \return s in upper case
std::string
Upper(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::toupper(c));
    });
    return s;
}

/// \param items names \return "A, B, C"
std::string
Join(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& s : items)
    {
        out += (out.empty() ? "" : ", ") + s;
    }
    return out;
}

/// \param bytes binary bytes \return lower-case hex
std::string
Hex(const std::string& bytes)
{
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes)
    {
        out += digits[c >> 4];
        out += digits[c & 0xf];
    }
    return out;
}

/// \param bytes SOURCEIP key bytes \return "addr/prefix", or hex when the bytes are malformed
std::string
SourceIpText(const std::string& bytes)
{
    const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
    if (bytes.size() == 2 + 4 && b[0] == AdcIpAddress::V4)
    {
        const uint32_t v = (uint32_t{b[2]} << 24) | (uint32_t{b[3]} << 16) | (uint32_t{b[4]} << 8) |
                           uint32_t{b[5]};
        return AdcIpAddress(Ipv4Address(v)).ToString() + "/" + std::to_string(b[1]);
    }
    if (bytes.size() == 2 + 16 && b[0] == AdcIpAddress::V6)
    {
        uint8_t a[16];
        std::copy(b + 2, b + 18, a);
        return AdcIpAddress(Ipv6Address(a)).ToString() + "/" + std::to_string(b[1]);
    }
    return Hex(bytes);
}

/// \return a key of \p type holding \p bytes as they are (cookie values, SSL session ids)
AdcPersistenceKey
MakeKey(AdcPersistenceType type, const std::string& bytes)
{
    AdcPersistenceKey k;
    k.type = type;
    k.bytes = bytes;
    return k;
}

} // namespace

std::string
AdcPersistenceTypeToString(AdcPersistenceType t)
{
    const auto i = static_cast<std::size_t>(t);
    return i < kTypeNames.size() ? kTypeNames[i] : "UNKNOWN(" + std::to_string(i) + ")";
}

AdcPersistenceType
AdcPersistenceTypeFromString(const std::string& name)
{
    const std::string u = Upper(name);
    for (std::size_t i = 0; i < kTypeNames.size(); ++i)
    {
        if (u == kTypeNames[i])
        {
            return static_cast<AdcPersistenceType>(i);
        }
    }
    throw AdcConfigError("AdcPersistenceType: type '" + name +
                         "' is not one of NONE, SOURCEIP, COOKIEINSERT, SSLSESSION");
}

std::ostream&
operator<<(std::ostream& os, AdcPersistenceType t)
{
    return os << AdcPersistenceTypeToString(t);
}

// ---------------------------------------------------------------------------------------------
// AdcPersistenceKey

AdcPersistenceKey
AdcPersistenceKey::FromSourceIp(const AdcIpAddress& addr, uint8_t prefixLength)
{
    const std::size_t len = addr.GetLength();
    const auto prefix = static_cast<uint8_t>(std::min<std::size_t>(prefixLength, len * 8));
    const AdcIpAddress masked = addr.Masked(prefix);
    AdcPersistenceKey k;
    k.type = AdcPersistenceType::SOURCEIP;
    // Family and prefix are part of the key: 10.0.0.0/24 and 10.0.0.0/32 are different keys.
    k.bytes.reserve(2 + len);
    k.bytes += static_cast<char>(addr.GetFamily());
    k.bytes += static_cast<char>(prefix);
    k.bytes.append(reinterpret_cast<const char*>(masked.GetBytes().data()), len);
    return k;
}

AdcPersistenceKey
AdcPersistenceKey::FromCookie(const std::string& value)
{
    return MakeKey(AdcPersistenceType::COOKIEINSERT, value);
}

AdcPersistenceKey
AdcPersistenceKey::FromSslSessionId(const std::vector<uint8_t>& id)
{
    return FromSslSessionId(std::string(id.begin(), id.end()));
}

AdcPersistenceKey
AdcPersistenceKey::FromSslSessionId(const std::string& id)
{
    return MakeKey(AdcPersistenceType::SSLSESSION, id);
}

std::string
AdcPersistenceKey::ToString() const
{
    std::string value;
    switch (type)
    {
    case AdcPersistenceType::SOURCEIP:
        value = SourceIpText(bytes);
        break;
    case AdcPersistenceType::COOKIEINSERT:
        value = bytes;
        break;
    default:
        value = Hex(bytes);
        break;
    }
    return AdcPersistenceTypeToString(type) + " " + value;
}

bool
operator==(const AdcPersistenceKey& a, const AdcPersistenceKey& b)
{
    return a.type == b.type && a.bytes == b.bytes;
}

bool
operator!=(const AdcPersistenceKey& a, const AdcPersistenceKey& b)
{
    return !(a == b);
}

std::ostream&
operator<<(std::ostream& os, const AdcPersistenceKey& k)
{
    return os << k.ToString();
}

std::size_t
AdcPersistenceKeyHasher::operator()(const AdcPersistenceKey& k) const
{
    return static_cast<std::size_t>(
        AdcHash::String(k.bytes, AdcHash::Mix(seed + static_cast<uint64_t>(k.type))));
}

void
AdcPersistenceTable::CheckSupported(AdcPersistenceType type, const std::string& serviceType)
{
    std::string service = Upper(serviceType);
    if (service == "UDP/IP")
    {
        service = "UDP";
    }
    if (std::find(kServiceTypes.begin(), kServiceTypes.end(), service) == kServiceTypes.end())
    {
        throw AdcConfigError("AdcPersistenceTable: service type '" + serviceType +
                             "' is not one of " + Join(kServiceTypes));
    }
    const auto& allowed = AllowedServiceTypes(type);
    if (std::find(allowed.begin(), allowed.end(), service) == allowed.end())
    {
        throw AdcConfigError("AdcPersistenceTable: persistence type " +
                             AdcPersistenceTypeToString(type) +
                             " is not supported on service type " + service + "; " +
                             AdcPersistenceTypeToString(type) + " is allowed on " + Join(allowed));
    }
}

} // namespace ns3
