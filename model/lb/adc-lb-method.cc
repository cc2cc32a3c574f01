/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the load-balancing methods every ADC model shares.
 */

#include "adc-lb-method.h"

#include "adc-lb-method-registry.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcLbMethod");

NS_OBJECT_ENSURE_REGISTERED(AdcLbMethod);
NS_OBJECT_ENSURE_REGISTERED(AdcRoundRobinLb);
NS_OBJECT_ENSURE_REGISTERED(AdcWeightedRoundRobinLb);
NS_OBJECT_ENSURE_REGISTERED(AdcLeastConnectionLb);
NS_OBJECT_ENSURE_REGISTERED(AdcRendezvousHashLb);
NS_OBJECT_ENSURE_REGISTERED(AdcSourceHashLb);
NS_OBJECT_ENSURE_REGISTERED(AdcUrlHashLb);
NS_OBJECT_ENSURE_REGISTERED(AdcDestinationIpHashLb);
NS_OBJECT_ENSURE_REGISTERED(AdcMaglevLb);

namespace
{

/// Default per-device seed (any fixed constant; devices should set their own).
constexpr uint64_t DEFAULT_HASH_SEED = 0x5a17ad0c0ffee123ULL;

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcLbKey

uint64_t
AdcLbKey::Combine(uint64_t h, uint64_t v)
{
    return AdcHash::Mix(h ^ AdcHash::Mix(v + 0x9e3779b97f4a7c15ULL));
}

uint64_t
AdcLbKey::SourceIp(const AdcLbContext& ctx, uint64_t seed)
{
    return AdcHash::Address(ctx.flow.src, seed);
}

uint64_t
AdcLbKey::SourceIpPort(const AdcLbContext& ctx, uint64_t seed)
{
    return Combine(SourceIp(ctx, seed), ctx.flow.srcPort);
}

uint64_t
AdcLbKey::SourceIpVip(const AdcLbContext& ctx, uint64_t seed)
{
    return Combine(SourceIp(ctx, seed), AdcHash::Address(ctx.flow.dst, seed));
}

uint64_t
AdcLbKey::DestinationIp(const AdcLbContext& ctx, uint64_t seed)
{
    return AdcHash::Address(ctx.flow.dst, seed);
}

uint64_t
AdcLbKey::Flow(const AdcLbContext& ctx, uint64_t seed)
{
    const uint64_t ports =
        (uint64_t{ctx.flow.srcPort} << 24) | (uint64_t{ctx.flow.dstPort} << 8) | ctx.flow.protocol;
    return Combine(SourceIpVip(ctx, seed), ports);
}

uint64_t
AdcLbKey::Url(const AdcLbContext& ctx, uint64_t seed, bool ignoreQuery)
{
    if (ctx.url.empty())
    {
        // Same key as SOURCEIPHASH, so an L4 flow maps as that method would map it.
        return SourceIp(ctx, seed);
    }
    if (ignoreQuery)
    {
        return AdcHash::String(ctx.url.substr(0, ctx.url.find('?')), seed);
    }
    return AdcHash::String(ctx.url, seed);
}

// ---------------------------------------------------------------------------------------------
// AdcLbMethod

TypeId
AdcLbMethod::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcLbMethod")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddAttribute(
                "HashSeed",
                "Per-device seed of every hash-based method: two devices with "
                "different seeds map the same flow independently.",
                UintegerValue(DEFAULT_HASH_SEED),
                MakeUintegerAccessor(&AdcLbMethod::SetHashSeed, &AdcLbMethod::GetHashSeed),
                MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Selection",
                            "A back-end was chosen for a flow (index -1 when none was up).",
                            MakeTraceSourceAccessor(&AdcLbMethod::m_selectionTrace),
                            "ns3::AdcLbMethod::SelectionTracedCallback");
    return tid;
}

AdcLbMethod::AdcLbMethod()
    : m_hashSeed(DEFAULT_HASH_SEED)
{
    NS_LOG_FUNCTION(this);
}

AdcLbMethod::~AdcLbMethod()
{
    NS_LOG_FUNCTION(this);
}

void
AdcLbMethod::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_backends.clear();
    m_nUp = 0;
    Object::DoDispose();
}

void
AdcLbMethod::CheckIndex(uint32_t index, const char* what) const
{
    if (index >= m_backends.size())
    {
        throw AdcConfigError("AdcLbMethod: " + std::string(what) + ": back-end index " +
                             std::to_string(index) + " is not one of 0.." +
                             std::to_string(static_cast<int64_t>(m_backends.size()) - 1));
    }
}

void
AdcLbMethod::CheckWeight(uint32_t weight, const std::string& who)
{
    if (weight == 0)
    {
        throw AdcConfigError("AdcLbMethod: back-end '" + who +
                             "' has Weight 0; the weight must be >= 1");
    }
}

uint32_t
AdcLbMethod::AddBackend(const AdcBackend& b)
{
    NS_LOG_FUNCTION(this << b.name << b.weight << b.up);
    CheckWeight(b.weight, b.name);
    if (!b.name.empty())
    {
        for (uint32_t i = 0; i < m_backends.size(); ++i)
        {
            if (m_backends[i].name == b.name)
            {
                throw AdcConfigError("AdcLbMethod: back-end name '" + b.name +
                                     "' is already used by index " + std::to_string(i) +
                                     "; names identify back-ends and must be unique");
            }
        }
    }
    m_backends.push_back(b);
    m_nUp += b.up ? 1 : 0;
    BackendsChanged();
    return static_cast<uint32_t>(m_backends.size() - 1);
}

void
AdcLbMethod::SetBackendUp(uint32_t index, bool up)
{
    NS_LOG_FUNCTION(this << index << up);
    CheckIndex(index, "SetBackendUp");
    AdcBackend& b = m_backends[index];
    if (b.up == up)
    {
        return;
    }
    b.up = up;
    m_nUp = up ? m_nUp + 1 : m_nUp - 1;
    BackendsChanged();
}

void
AdcLbMethod::SetBackendWeight(uint32_t index, uint32_t weight)
{
    NS_LOG_FUNCTION(this << index << weight);
    CheckIndex(index, "SetBackendWeight");
    CheckWeight(weight, m_backends[index].name);
    if (m_backends[index].weight == weight)
    {
        return;
    }
    m_backends[index].weight = weight;
    BackendsChanged();
}

const AdcBackend&
AdcLbMethod::GetBackend(uint32_t index) const
{
    CheckIndex(index, "GetBackend");
    return m_backends[index];
}

uint32_t
AdcLbMethod::GetNBackends() const
{
    return static_cast<uint32_t>(m_backends.size());
}

uint32_t
AdcLbMethod::GetNUpBackends() const
{
    return m_nUp;
}

void
AdcLbMethod::ConnectionOpened(uint32_t index)
{
    CheckIndex(index, "ConnectionOpened");
    ++m_backends[index].activeConnections;
}

void
AdcLbMethod::ConnectionClosed(uint32_t index)
{
    CheckIndex(index, "ConnectionClosed");
    uint32_t& n = m_backends[index].activeConnections;
    n = n > 0 ? n - 1 : 0;
}

int32_t
AdcLbMethod::Select(const AdcLbContext& ctx)
{
    int32_t index = m_nUp == 0 ? -1 : DoSelect(ctx);
    NS_ASSERT_MSG(index < 0 ||
                      (static_cast<uint32_t>(index) < m_backends.size() && m_backends[index].up),
                  GetMethodName() << " chose back-end " << index << " that is not up");
    NS_LOG_LOGIC(GetMethodName() << " " << ctx.flow << " '" << ctx.url << "' -> " << index);
    m_selectionTrace(ctx.flow, ctx.url, index);
    return index;
}

void
AdcLbMethod::SetHashSeed(uint64_t seed)
{
    m_hashSeed = seed;
    BackendsChanged(); // seeded structures (identity hashes, Maglev table) depend on it
}

uint64_t
AdcLbMethod::GetHashSeed() const
{
    return m_hashSeed;
}

int64_t
AdcLbMethod::AssignStreams(int64_t /* stream */)
{
    return 0;
}

void
AdcLbMethod::BackendsChanged()
{
}

std::string
AdcLbMethod::GetBackendIdentity(uint32_t index) const
{
    const std::string& name = m_backends[index].name;
    return name.empty() ? "#" + std::to_string(index) : name;
}

std::vector<std::string>
AdcLbMethod::GetMethodNames()
{
    return AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::ANY);
}

Ptr<AdcLbMethod>
AdcLbMethod::Create(const std::string& name)
{
    const std::string canonical = AdcLbMethodRegistry::Resolve(name,
                                                               {AdcLbMethodRegistry::ANY, 0, {}},
                                                               "AdcLbMethod",
                                                               "method");
    return AdcLbMethodRegistry::Create(canonical, AdcLbMethodRegistry::NETSCALER);
}

// ---------------------------------------------------------------------------------------------
// AdcRoundRobinLb

TypeId
AdcRoundRobinLb::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcRoundRobinLb")
                            .SetParent<AdcLbMethod>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcRoundRobinLb>();
    return tid;
}

std::string
AdcRoundRobinLb::GetMethodName() const
{
    return "ROUNDROBIN";
}

int32_t
AdcRoundRobinLb::DoSelect(const AdcLbContext& /* ctx */)
{
    const uint32_t n = GetNBackends();
    for (uint32_t k = 0; k < n; ++k)
    {
        uint32_t i = (m_next + k) % n;
        if (GetBackend(i).up)
        {
            m_next = (i + 1) % n;
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

// ---------------------------------------------------------------------------------------------
// AdcWeightedRoundRobinLb

TypeId
AdcWeightedRoundRobinLb::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcWeightedRoundRobinLb")
                            .SetParent<AdcLbMethod>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcWeightedRoundRobinLb>();
    return tid;
}

std::string
AdcWeightedRoundRobinLb::GetMethodName() const
{
    return "WEIGHTEDROUNDROBIN";
}

void
AdcWeightedRoundRobinLb::BackendsChanged()
{
    m_current.assign(GetNBackends(), 0);
}

int32_t
AdcWeightedRoundRobinLb::DoSelect(const AdcLbContext& /* ctx */)
{
    int64_t total = 0;
    int32_t best = -1;
    for (uint32_t i = 0; i < GetNBackends(); ++i)
    {
        const AdcBackend& b = GetBackend(i);
        if (!b.up)
        {
            continue;
        }
        m_current[i] += b.weight;
        total += b.weight;
        if (best < 0 || m_current[i] > m_current[best])
        {
            best = static_cast<int32_t>(i);
        }
    }
    if (best >= 0)
    {
        m_current[best] -= total;
    }
    return best;
}

// ---------------------------------------------------------------------------------------------
// AdcLeastConnectionLb

TypeId
AdcLeastConnectionLb::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcLeastConnectionLb")
                            .SetParent<AdcLbMethod>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcLeastConnectionLb>();
    return tid;
}

std::string
AdcLeastConnectionLb::GetMethodName() const
{
    return "LEASTCONNECTION";
}

int32_t
AdcLeastConnectionLb::DoSelect(const AdcLbContext& /* ctx */)
{
    const uint32_t n = GetNBackends();
    int32_t best = -1;
    // Visit from the cursor so the first tied back-end after it wins: ties rotate.
    for (uint32_t k = 0; k < n; ++k)
    {
        uint32_t i = (m_next + k) % n;
        const AdcBackend& b = GetBackend(i);
        if (!b.up)
        {
            continue;
        }
        if (best < 0)
        {
            best = static_cast<int32_t>(i);
            continue;
        }
        const AdcBackend& c = GetBackend(best);
        // conn_b / w_b < conn_c / w_c, compared exactly by cross-multiplying.
        if (static_cast<uint64_t>(b.activeConnections) * c.weight <
            static_cast<uint64_t>(c.activeConnections) * b.weight)
        {
            best = static_cast<int32_t>(i);
        }
    }
    if (best >= 0)
    {
        m_next = (static_cast<uint32_t>(best) + 1) % n;
    }
    return best;
}

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
    return PickByKey(KeyHash(ctx));
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
                                          "IP_VIP"));
    return tid;
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
        return AdcLbKey::SourceIp(ctx, GetHashSeed());
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
                          MakeBooleanChecker());
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
    return AdcLbKey::Url(ctx, GetHashSeed(), m_ignoreQuery);
}

// ---------------------------------------------------------------------------------------------
// AdcDestinationIpHashLb

TypeId
AdcDestinationIpHashLb::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcDestinationIpHashLb")
                            .SetParent<AdcRendezvousHashLb>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcDestinationIpHashLb>();
    return tid;
}

std::string
AdcDestinationIpHashLb::GetMethodName() const
{
    return "DESTINATIONIPHASH";
}

uint64_t
AdcDestinationIpHashLb::KeyHash(const AdcLbContext& ctx) const
{
    return AdcLbKey::DestinationIp(ctx, GetHashSeed());
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
    return m_table.Lookup(AdcHash::Flow(ctx.flow, GetHashSeed()));
}

} // namespace ns3
