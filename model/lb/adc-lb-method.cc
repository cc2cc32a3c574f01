/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the load-balancing methods every ADC model shares.
 */

#include "adc-lb-method.h"

#include "adc-lb-method-registry.h"

#include "ns3/adc-config-error.h"
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

namespace
{

/// \return \p a keeping \p v4Prefix bits of IPv4 or \p v6Prefix bits of IPv6
AdcIpAddress
KeepPrefix(const AdcIpAddress& a, uint8_t v4Prefix, uint8_t v6Prefix)
{
    const uint8_t bits = a.IsV4() ? v4Prefix : v6Prefix;
    return bits >= a.GetLength() * 8 ? a : a.Masked(bits);
}

} // namespace

uint64_t
AdcLbKey::SourceIp(const AdcLbContext& ctx, uint64_t seed, uint8_t v4Prefix, uint8_t v6Prefix)
{
    return AdcHash::Address(KeepPrefix(ctx.flow.src, v4Prefix, v6Prefix), seed);
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
AdcLbKey::DestinationIp(const AdcLbContext& ctx, uint64_t seed, uint8_t v4Prefix, uint8_t v6Prefix)
{
    return AdcHash::Address(KeepPrefix(ctx.flow.dst, v4Prefix, v6Prefix), seed);
}

uint64_t
AdcLbKey::Flow(const AdcLbContext& ctx, uint64_t seed)
{
    const uint64_t ports =
        (uint64_t{ctx.flow.srcPort} << 24) | (uint64_t{ctx.flow.dstPort} << 8) | ctx.flow.protocol;
    return Combine(SourceIpVip(ctx, seed), ports);
}

uint64_t
AdcLbKey::Url(const AdcLbContext& ctx, uint64_t seed, bool ignoreQuery, std::size_t length)
{
    if (ctx.url.empty())
    {
        // Same key as SOURCEIPHASH, so an L4 flow maps as that method would map it.
        return SourceIp(ctx, seed);
    }
    const std::size_t end = ignoreQuery ? ctx.url.find('?') : std::string::npos;
    return AdcHash::String(ctx.url.substr(0, std::min(end, length)), seed);
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
    m_decision.candidates.clear();
    m_decision.reason.clear();
    int32_t index = m_nUp == 0 ? -1 : DoSelect(ctx);
    NS_ASSERT_MSG(index < 0 ||
                      (static_cast<uint32_t>(index) < m_backends.size() && m_backends[index].up),
                  GetMethodName() << " chose back-end " << index << " that is not up");
    if (m_decision.candidates.empty())
    {
        for (uint32_t i = 0; i < m_backends.size(); ++i)
        {
            if (m_backends[i].up)
            {
                m_decision.candidates.push_back(i);
            }
        }
    }
    else
    {
        std::sort(m_decision.candidates.begin(), m_decision.candidates.end());
        m_decision.candidates.erase(
            std::unique(m_decision.candidates.begin(), m_decision.candidates.end()),
            m_decision.candidates.end());
    }
    if (index < 0)
    {
        m_decision.reason = "no back-end is up";
    }
    else if (m_decision.reason.empty())
    {
        m_decision.reason = GetMethodName();
    }
    NS_LOG_LOGIC(GetMethodName() << " " << ctx.flow << " '" << ctx.url << "' -> " << index << " ("
                                 << m_decision.reason << ")");
    m_selectionTrace(ctx.flow, ctx.url, index, m_decision);
    return index;
}

const AdcLbDecision&
AdcLbMethod::GetLastDecision() const
{
    return m_decision;
}

void
AdcLbMethod::Consider(uint32_t index)
{
    m_decision.candidates.push_back(index);
}

void
AdcLbMethod::Because(std::string reason)
{
    m_decision.reason = std::move(reason);
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
            Because("next up back-end in rotation from #" + std::to_string(m_next));
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
        Because("largest current weight " + std::to_string(m_current[best]) +
                " (smooth weighted round robin)");
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
        const AdcBackend& b = GetBackend(best);
        Because("fewest connections per weight (" + std::to_string(b.activeConnections) + "/" +
                std::to_string(b.weight) + "), ties from #" + std::to_string(m_next));
        m_next = (static_cast<uint32_t>(best) + 1) % n;
    }
    return best;
}

} // namespace ns3
