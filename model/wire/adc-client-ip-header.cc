/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-client-ip-header.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ns3
{

std::optional<Ipv4Address>
AdcClientIpHeader::ParseAddress(const std::string& text)
{
    uint32_t value = 0;
    int parts = 0;
    std::size_t i = 0;
    while (parts < 4)
    {
        std::size_t digits = 0;
        uint32_t octet = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits < 3)
        {
            octet = octet * 10 + static_cast<uint32_t>(text[i] - '0');
            ++i;
            ++digits;
        }
        if (digits == 0 || octet > 255)
        {
            return std::nullopt;
        }
        value = (value << 8) | octet;
        ++parts;
        if (parts < 4)
        {
            if (i >= text.size() || text[i] != '.')
            {
                return std::nullopt;
            }
            ++i;
        }
    }
    if (i != text.size())
    {
        return std::nullopt;
    }
    Ipv4Address a(value);
    if (value == 0 || a.IsBroadcast() || a.IsMulticast())
    {
        return std::nullopt;
    }
    return a;
}

std::optional<Ipv4Address>
AdcClientIpHeader::ParseValue(const std::string& value)
{
    return ParseAddress(FirstListItem(value));
}

std::string
AdcClientIpHeader::FirstListItem(const std::string& value)
{
    const std::string item = value.substr(0, value.find(','));
    const auto first = item.find_first_not_of(" \t");
    if (first == std::string::npos)
    {
        return "";
    }
    const auto last = item.find_last_not_of(" \t");
    return item.substr(first, last - first + 1);
}

bool
AdcClientIpHeader::IsToken(const std::string& name)
{
    static const std::string extra = "!#$%&'*+-.^_`|~";
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || extra.find(c) != std::string::npos;
    });
}

std::string
AdcClientIpHeader::Format(Ipv4Address a)
{
    std::ostringstream os;
    a.Print(os);
    return os.str();
}

} // namespace ns3
