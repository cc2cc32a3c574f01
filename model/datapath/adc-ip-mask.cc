/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-ip-mask.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

namespace
{

/// \param bytes mask bytes \param n meaningful bytes \return true when none is set
bool
AllZero(const std::array<uint8_t, 16>& bytes, uint8_t n)
{
    return std::all_of(bytes.begin(), bytes.begin() + n, [](uint8_t b) { return b == 0; });
}

} // namespace

AdcIpMask::AdcIpMask() = default;

AdcIpMask::AdcIpMask(Ipv4Mask mask)
    : m_family(AdcIpAddress::V4),
      m_length(4)
{
    const uint32_t bits = mask.Get();
    for (int i = 0; i < 4; ++i)
    {
        m_bytes[i] = static_cast<uint8_t>(bits >> (24 - 8 * i));
    }
    m_any = AllZero(m_bytes, m_length);
}

AdcIpMask::AdcIpMask(Ipv6Prefix prefix)
    : m_family(AdcIpAddress::V6),
      m_length(16)
{
    prefix.GetBytes(m_bytes.data());
    m_any = AllZero(m_bytes, m_length);
}

AdcIpMask
AdcIpMask::FromPrefixLength(AdcIpAddress::Family family, uint8_t length)
{
    const uint8_t max = family == AdcIpAddress::V4 ? 32 : 128;
    if (family == AdcIpAddress::NONE || length > max)
    {
        throw AdcConfigError("AdcIpMask: prefix length " + std::to_string(length) + " for " +
                             (family == AdcIpAddress::NONE
                                  ? std::string("no family")
                                  : std::string(family == 4 ? "IPv4" : "IPv6")) +
                             "; allowed: 0..32 for IPv4, 0..128 for IPv6");
    }
    AdcIpMask m;
    m.m_family = family;
    m.m_length = family == AdcIpAddress::V4 ? 4 : 16;
    for (uint8_t bit = 0; bit < length; ++bit)
    {
        m.m_bytes[bit / 8] |= static_cast<uint8_t>(0x80u >> (bit % 8));
    }
    m.m_any = length == 0;
    return m;
}

AdcIpAddress::Family
AdcIpMask::GetFamily() const
{
    return m_family;
}

bool
AdcIpMask::IsAny() const
{
    return m_any;
}

uint8_t
AdcIpMask::GetPrefixLength() const
{
    uint8_t n = 0;
    for (uint8_t i = 0; i < m_length; ++i)
    {
        for (int bit = 7; bit >= 0; --bit)
        {
            if (!(m_bytes[i] & (1u << bit)))
            {
                return n;
            }
            ++n;
        }
    }
    return n;
}

std::string
AdcIpMask::Format(const AdcIpAddress& network) const
{
    if (m_any)
    {
        return "any";
    }
    std::ostringstream os;
    os << (network.IsNone() ? std::string("?") : network.ToString()) << "/";
    if (*this == FromPrefixLength(m_family, GetPrefixLength()))
    {
        os << static_cast<unsigned>(GetPrefixLength());
    }
    else if (m_family == AdcIpAddress::V4)
    {
        os << Ipv4Address(static_cast<uint32_t>(m_bytes[0]) << 24 |
                          static_cast<uint32_t>(m_bytes[1]) << 16 |
                          static_cast<uint32_t>(m_bytes[2]) << 8 | m_bytes[3]);
    }
    else
    {
        os << Ipv6Address(const_cast<uint8_t*>(m_bytes.data()));
    }
    return os.str();
}

bool
AdcIpMask::operator==(const AdcIpMask& o) const
{
    return m_family == o.m_family && m_bytes == o.m_bytes;
}

bool
AdcIpMask::operator!=(const AdcIpMask& o) const
{
    return !(*this == o);
}

std::ostream&
operator<<(std::ostream& os, const AdcIpMask& mask)
{
    if (mask.GetFamily() == AdcIpAddress::NONE)
    {
        return os << "any";
    }
    return os << "/" << static_cast<unsigned>(mask.GetPrefixLength());
}

} // namespace ns3
