/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-flow-key.h"

#include <cstring>
#include <sstream>
#include <tuple>

namespace ns3
{

AdcIpAddress::AdcIpAddress()
    : m_bytes{},
      m_family(NONE)
{
}

AdcIpAddress::AdcIpAddress(Ipv4Address a)
    : m_bytes{},
      m_family(V4)
{
    a.Serialize(m_bytes.data());
}

AdcIpAddress::AdcIpAddress(Ipv6Address a)
    : m_bytes{},
      m_family(V6)
{
    a.Serialize(m_bytes.data());
}

AdcIpAddress::Family
AdcIpAddress::GetFamily() const
{
    return m_family;
}

bool
AdcIpAddress::IsV4() const
{
    return m_family == V4;
}

bool
AdcIpAddress::IsV6() const
{
    return m_family == V6;
}

bool
AdcIpAddress::IsNone() const
{
    return m_family == NONE;
}

Ipv4Address
AdcIpAddress::GetIpv4() const
{
    return Ipv4Address::Deserialize(m_bytes.data());
}

Ipv6Address
AdcIpAddress::GetIpv6() const
{
    return Ipv6Address::Deserialize(m_bytes.data());
}

const std::array<uint8_t, 16>&
AdcIpAddress::GetBytes() const
{
    return m_bytes;
}

std::size_t
AdcIpAddress::GetLength() const
{
    switch (m_family)
    {
    case V4:
        return 4;
    case V6:
        return 16;
    default:
        return 0;
    }
}

std::string
AdcIpAddress::ToString() const
{
    std::ostringstream os;
    os << *this;
    return os.str();
}

AdcIpAddress
AdcIpAddress::Masked(uint8_t prefixLength) const
{
    AdcIpAddress r = *this;
    const std::size_t bits = GetLength() * 8;
    for (std::size_t bit = prefixLength; bit < bits; ++bit)
    {
        r.m_bytes[bit / 8] &= static_cast<uint8_t>(~(0x80u >> (bit % 8)));
    }
    return r;
}

bool
operator==(const AdcIpAddress& a, const AdcIpAddress& b)
{
    return a.m_family == b.m_family && a.m_bytes == b.m_bytes;
}

bool
operator!=(const AdcIpAddress& a, const AdcIpAddress& b)
{
    return !(a == b);
}

bool
operator<(const AdcIpAddress& a, const AdcIpAddress& b)
{
    return std::tie(a.m_family, a.m_bytes) < std::tie(b.m_family, b.m_bytes);
}

std::ostream&
operator<<(std::ostream& os, const AdcIpAddress& a)
{
    switch (a.GetFamily())
    {
    case AdcIpAddress::V4:
        os << a.GetIpv4();
        break;
    case AdcIpAddress::V6:
        os << a.GetIpv6();
        break;
    default:
        os << "none";
        break;
    }
    return os;
}

AdcFlowKey::AdcFlowKey(AdcIpAddress s, AdcIpAddress d, uint16_t sp, uint16_t dp, uint8_t proto)
    : src(s),
      dst(d),
      srcPort(sp),
      dstPort(dp),
      protocol(proto)
{
}

AdcFlowKey
AdcFlowKey::Reversed() const
{
    return AdcFlowKey(dst, src, dstPort, srcPort, protocol);
}

std::string
AdcFlowKey::ToString() const
{
    std::ostringstream os;
    os << *this;
    return os.str();
}

bool
operator==(const AdcFlowKey& a, const AdcFlowKey& b)
{
    return a.protocol == b.protocol && a.srcPort == b.srcPort && a.dstPort == b.dstPort &&
           a.src == b.src && a.dst == b.dst;
}

bool
operator!=(const AdcFlowKey& a, const AdcFlowKey& b)
{
    return !(a == b);
}

bool
operator<(const AdcFlowKey& a, const AdcFlowKey& b)
{
    return std::tie(a.protocol, a.src, a.dst, a.srcPort, a.dstPort) <
           std::tie(b.protocol, b.src, b.dst, b.srcPort, b.dstPort);
}

namespace
{

const char*
ProtocolName(uint8_t p)
{
    switch (p)
    {
    case AdcFlowKey::PROTO_TCP:
        return "TCP";
    case AdcFlowKey::PROTO_UDP:
        return "UDP";
    case AdcFlowKey::PROTO_ICMP:
        return "ICMP";
    case AdcFlowKey::PROTO_ICMPV6:
        return "ICMPv6";
    default:
        return nullptr;
    }
}

void
PrintEndpoint(std::ostream& os, const AdcIpAddress& a, uint16_t port)
{
    if (a.IsV6())
    {
        os << '[' << a << "]:" << port;
    }
    else
    {
        os << a << ':' << port;
    }
}

constexpr uint64_t kMul = 0x9fb21c651e98df25ULL;

/// Load up to 8 bytes little-endian, independent of the host's byte order.
uint64_t
Load(const uint8_t* p, std::size_t n)
{
    uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
        v |= static_cast<uint64_t>(p[i]) << (8 * i);
    }
    return v;
}

/// Mix one 64-bit word into the running state.
uint64_t
Absorb(uint64_t h, uint64_t w)
{
    h ^= w * kMul;
    h = (h << 27) | (h >> 37);
    return h * 0xff51afd7ed558ccdULL + 0x52dce729ULL;
}

} // namespace

std::ostream&
operator<<(std::ostream& os, const AdcFlowKey& k)
{
    const char* name = ProtocolName(k.protocol);
    if (name != nullptr)
    {
        os << name << ' ';
    }
    else
    {
        os << "proto" << static_cast<uint32_t>(k.protocol) << ' ';
    }
    PrintEndpoint(os, k.src, k.srcPort);
    os << " -> ";
    PrintEndpoint(os, k.dst, k.dstPort);
    return os;
}

uint64_t
AdcHash::Mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

uint64_t
AdcHash::Bytes(const void* data, std::size_t len, uint64_t seed)
{
    const auto* p = static_cast<const uint8_t*>(data);
    uint64_t h = Mix(seed ^ (len * kMul));
    std::size_t i = 0;
    for (; i + 8 <= len; i += 8)
    {
        h = Absorb(h, Load(p + i, 8));
    }
    if (i < len)
    {
        h = Absorb(h, Load(p + i, len - i) ^ (static_cast<uint64_t>(len - i) << 59));
    }
    return Mix(h);
}

uint64_t
AdcHash::String(const std::string& s, uint64_t seed)
{
    return Bytes(s.data(), s.size(), seed);
}

uint64_t
AdcHash::Address(const AdcIpAddress& a, uint64_t seed)
{
    const auto& b = a.GetBytes();
    uint64_t h = Mix(seed ^ static_cast<uint64_t>(a.GetFamily()));
    h = Absorb(h, Load(b.data(), 8));
    h = Absorb(h, Load(b.data() + 8, 8));
    return Mix(h);
}

uint64_t
AdcHash::Flow(const AdcFlowKey& k, uint64_t seed)
{
    const uint64_t ports = (static_cast<uint64_t>(k.srcPort) << 24) |
                           (static_cast<uint64_t>(k.dstPort) << 8) | k.protocol;
    uint64_t h = Address(k.src, seed);
    h = Absorb(h, Address(k.dst, seed ^ kMul));
    h = Absorb(h, ports);
    return Mix(h);
}

uint64_t
AdcHash::SymmetricFlow(const AdcFlowKey& k, uint64_t seed)
{
    // Order the two endpoints canonically so both directions hash alike.
    const bool swap = std::tie(k.dst, k.dstPort) < std::tie(k.src, k.srcPort);
    return Flow(swap ? k.Reversed() : k, seed);
}

} // namespace ns3
