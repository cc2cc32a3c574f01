/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the hash methods (weighted rendezvous hashing over NetScaler's keys,
 * and Maglev).
 */

#include "adc-lb-method.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHashLbMethods");

NS_OBJECT_ENSURE_REGISTERED(AdcRendezvousHashLb);
NS_OBJECT_ENSURE_REGISTERED(AdcSourceHashLb);
NS_OBJECT_ENSURE_REGISTERED(AdcUrlHashLb);
NS_OBJECT_ENSURE_REGISTERED(AdcDestinationIpHashLb);
NS_OBJECT_ENSURE_REGISTERED(AdcMaglevLb);

namespace
{

/// \return \p v as 16 hexadecimal digits
std::string
Hex(uint64_t v)
{
    std::ostringstream os;
    os << std::hex << std::setw(16) << std::setfill('0') << v;
    return os.str();
}

/// \return the prefix length of a contiguous IPv4 mask (AdcConfigError otherwise)
uint8_t
MaskBits(const Ipv4Mask& mask, const std::string& who)
{
    const uint32_t m = mask.Get();
    if ((~m & (~m + 1)) != 0) // ones, then zeros
    {
        std::ostringstream os;
        mask.Print(os);
        throw AdcConfigError(who + ": Netmask " + os.str() +
                             " is not contiguous; allowed: a mask of leading ones such as "
                             "255.255.255.0");
    }
    return static_cast<uint8_t>(mask.GetPrefixLength());
}

/// \return the mask of \p bits leading ones
Ipv4Mask
MaskOf(uint8_t bits)
{
    return Ipv4Mask(bits == 0 ? 0u : ~uint32_t{0} << (32 - bits));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcRendezvousHashLb

TypeId
AdcRendezvousHashLb::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcRendezvousHashLb").SetParent<AdcLbMethod>().SetGroupName("Adc");
    return tid;
}

void
AdcRendezvousHashLb::BackendsChanged()
{
    m_identityHash.resize(GetNBackends());
    for (uint32_t i = 0; i < GetNBackends(); ++i)
    {
        m_identityHash[i] = AdcHash::String(GetBackendIdentity(i), GetHashSeed());
    }
}

int32_t
AdcRendezvousHashLb::DoSelect(const AdcLbContext& ctx)
{
    const uint64_t key = KeyHash(ctx);
    Because(GetMethodName() + ": highest weighted rendezvous score for key " + Hex(key));
    return PickByKey(key);
}

int32_t
AdcRendezvousHashLb::PickByKey(uint64_t key) const
{
    int32_t best = -1;
    double bestScore = 0.0;
    for (uint32_t i = 0; i < GetNBackends(); ++i)
    {
        const AdcBackend& b = GetBackend(i);
        if (!b.up)
        {
            continue;
        }
        // u uniform in (0,1) from the top 53 bits; never 0 or 1, so ln(u) < 0 is finite.
        uint64_t h = AdcLbKey::Combine(key, m_identityHash[i]);
        double u = (static_cast<double>(h >> 11) + 0.5) * 0x1.0p-53;
        double score = -static_cast<double>(b.weight) / std::log(u);
        if (best < 0 || score > bestScore)
        {
            best = static_cast<int32_t>(i);
            bestScore = score;
        }
    }
    return best;
}

// ---------------------------------------------------------------------------------------------
// AdcSourceHashLb

TypeId
AdcSourceHashLb::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcSourceHashLb")
            .SetParent<AdcRendezvousHashLb>()
            .SetGroupName("Adc")
            .AddConstructor<AdcSourceHashLb>()
            .AddAttribute("Mode",
                          "What is hashed: the source IP (SOURCEIPHASH, ilbadm hash-ip), the "
                          "source IP and port (SRCIPSRCPORTHASH, hash-ip-port), or the source IP "
                          "and the VIP (SRCIPDESTIPHASH, hash-ip-vip).",
                          EnumValue(AdcSourceHashLb::IP),
                          MakeEnumAccessor(&AdcSourceHashLb::m_mode),
                          MakeEnumChecker(AdcSourceHashLb::IP,
                                          "IP",
                                          AdcSourceHashLb::IP_PORT,
                                          "IP_PORT",
                                          AdcSourceHashLb::IP_VIP,
                                          "IP_VIP"))
            .AddAttribute(
                "Netmask",
                "IPv4 mask applied to the source address before SOURCEIPHASH hashes "
                "it (NetScaler's -netmask): clients in one subnet share a back-end.",
                Ipv4MaskValue(Ipv4Mask("255.255.255.255")),
                MakeIpv4MaskAccessor(&AdcSourceHashLb::SetNetmask, &AdcSourceHashLb::GetNetmask),
                MakeIpv4MaskChecker())
            .AddAttribute("V6NetmaskLen",
                          "Bits of an IPv6 source address SOURCEIPHASH hashes (NetScaler's "
                          "-v6netmasklen), 1..128.",
                          UintegerValue(128),
                          MakeUintegerAccessor(&AdcSourceHashLb::m_v6Prefix),
                          MakeUintegerChecker<uint8_t>(1, 128));
    return tid;
}

void
AdcSourceHashLb::SetNetmask(Ipv4Mask mask)
{
    m_v4Prefix = MaskBits(mask, "AdcSourceHashLb");
}

Ipv4Mask
AdcSourceHashLb::GetNetmask() const
{
    return MaskOf(m_v4Prefix);
}

std::string
AdcSourceHashLb::GetMethodName() const
{
    switch (m_mode)
    {
    case IP_PORT:
        return "SRCIPSRCPORTHASH";
    case IP_VIP:
        return "SRCIPDESTIPHASH";
    case IP:
    default:
        return "SOURCEIPHASH";
    }
}

void
AdcSourceHashLb::SetMode(Mode mode)
{
    m_mode = mode;
}

AdcSourceHashLb::Mode
AdcSourceHashLb::GetMode() const
{
    return m_mode;
}

uint64_t
AdcSourceHashLb::KeyHash(const AdcLbContext& ctx) const
{
    switch (m_mode)
    {
    case IP_PORT:
        return AdcLbKey::SourceIpPort(ctx, GetHashSeed());
    case IP_VIP:
        return AdcLbKey::SourceIpVip(ctx, GetHashSeed());
    case IP:
    default:
        return AdcLbKey::SourceIp(ctx, GetHashSeed(), m_v4Prefix, m_v6Prefix);
    }
}

// ---------------------------------------------------------------------------------------------
// AdcUrlHashLb

TypeId
AdcUrlHashLb::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcUrlHashLb")
            .SetParent<AdcRendezvousHashLb>()
            .SetGroupName("Adc")
            .AddConstructor<AdcUrlHashLb>()
            .AddAttribute("IgnoreQuery",
                          "Hash only the path, ignoring the query string ('?' onwards).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcUrlHashLb::m_ignoreQuery),
                          MakeBooleanChecker())
            .AddAttribute("HashLength",
                          "Bytes of the URL (path and query) hashed, from its start "
                          "(NetScaler's -hashLength: default 80, 1..4096).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&AdcUrlHashLb::m_hashLength),
                          MakeUintegerChecker<uint32_t>(1, 4096));
    return tid;
}

std::string
AdcUrlHashLb::GetMethodName() const
{
    return "URLHASH";
}

uint64_t
AdcUrlHashLb::KeyHash(const AdcLbContext& ctx) const
{
    return AdcLbKey::Url(ctx, GetHashSeed(), m_ignoreQuery, m_hashLength);
}

// ---------------------------------------------------------------------------------------------
// AdcDestinationIpHashLb

TypeId
AdcDestinationIpHashLb::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcDestinationIpHashLb")
            .SetParent<AdcRendezvousHashLb>()
            .SetGroupName("Adc")
            .AddConstructor<AdcDestinationIpHashLb>()
            .AddAttribute("Netmask",
                          "IPv4 mask applied to the destination address before it is hashed "
                          "(NetScaler's -netmask).",
                          Ipv4MaskValue(Ipv4Mask("255.255.255.255")),
                          MakeIpv4MaskAccessor(&AdcDestinationIpHashLb::SetNetmask,
                                               &AdcDestinationIpHashLb::GetNetmask),
                          MakeIpv4MaskChecker())
            .AddAttribute("V6NetmaskLen",
                          "Bits of an IPv6 destination address hashed (NetScaler's "
                          "-v6netmasklen), 1..128.",
                          UintegerValue(128),
                          MakeUintegerAccessor(&AdcDestinationIpHashLb::m_v6Prefix),
                          MakeUintegerChecker<uint8_t>(1, 128));
    return tid;
}

void
AdcDestinationIpHashLb::SetNetmask(Ipv4Mask mask)
{
    m_v4Prefix = MaskBits(mask, "AdcDestinationIpHashLb");
}

Ipv4Mask
AdcDestinationIpHashLb::GetNetmask() const
{
    return MaskOf(m_v4Prefix);
}

std::string
AdcDestinationIpHashLb::GetMethodName() const
{
    return "DESTINATIONIPHASH";
}

uint64_t
AdcDestinationIpHashLb::KeyHash(const AdcLbContext& ctx) const
{
    return AdcLbKey::DestinationIp(ctx, GetHashSeed(), m_v4Prefix, m_v6Prefix);
}

// ---------------------------------------------------------------------------------------------
// AdcMaglevLb

TypeId
AdcMaglevLb::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcMaglevLb")
            .SetParent<AdcLbMethod>()
            .SetGroupName("Adc")
            .AddConstructor<AdcMaglevLb>()
            .AddAttribute(
                "TableSize",
                "Maglev lookup table size M; must be prime and should be well above "
                "100 x the number of back-ends for even shares.",
                UintegerValue(65537),
                MakeUintegerAccessor(&AdcMaglevLb::SetTableSize, &AdcMaglevLb::GetTableSize),
                MakeUintegerChecker<uint32_t>());
    return tid;
}

AdcMaglevLb::AdcMaglevLb()
    : m_table(65537)
{
}

std::string
AdcMaglevLb::GetMethodName() const
{
    return "MAGLEV";
}

void
AdcMaglevLb::SetTableSize(uint32_t size)
{
    if (size == m_table.GetSize())
    {
        return;
    }
    if (!AdcMaglevTable::IsPrime(size))
    {
        throw AdcConfigError("AdcMaglevLb: TableSize " + std::to_string(size) +
                             " is not prime; use a prime such as 251, 4093, 65537 or 655373");
    }
    m_table = AdcMaglevTable(size);
    BackendsChanged();
}

uint32_t
AdcMaglevLb::GetTableSize() const
{
    return m_table.GetSize();
}

const AdcMaglevTable&
AdcMaglevLb::GetTable() const
{
    return m_table;
}

void
AdcMaglevLb::BackendsChanged()
{
    std::vector<AdcMaglevTable::Entry> entries;
    for (uint32_t i = 0; i < GetNBackends(); ++i)
    {
        const AdcBackend& b = GetBackend(i);
        if (b.up)
        {
            entries.push_back(m_table.MakeEntry(GetBackendIdentity(i), b.weight, i, GetHashSeed()));
        }
    }
    m_table.Build(entries);
}

int32_t
AdcMaglevLb::DoSelect(const AdcLbContext& ctx)
{
    const uint64_t h = AdcHash::Flow(ctx.flow, GetHashSeed());
    const int32_t index = m_table.Lookup(h);
    if (index >= 0)
    {
        Consider(static_cast<uint32_t>(index));
        Because("Maglev table entry " + std::to_string(h % m_table.GetSize()) + " of " +
                std::to_string(m_table.GetSize()));
    }
    return index;
}

} // namespace ns3
