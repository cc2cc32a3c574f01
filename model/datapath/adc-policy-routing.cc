/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc datapath: stateless policy-based routing on the shared datapath hook.
 */

#include "adc-policy-routing.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-lb-method.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcPolicyRouting");

NS_OBJECT_ENSURE_REGISTERED(AdcPolicyRouting);

namespace
{

/// Default seed: appliances keeping it (and the same hop names) balance flows alike.
constexpr uint64_t DEFAULT_HASH_SEED = 0x0adc5eedb1a5ULL;

/// The next-hop name "RuleMatch" reports for LOCAL and PASS.
const std::string NO_HOP;

/// \param a an address \return true for multicast, and for IPv4 the broadcast address
bool
IsGroupAddress(const AdcIpAddress& a)
{
    if (a.IsV4())
    {
        const Ipv4Address v4 = a.GetIpv4();
        return v4.IsMulticast() || v4.IsBroadcast();
    }
    return a.IsV6() && a.GetIpv6().IsMulticast();
}

/// \param family a family \return its unspecified address (what a flow without source hashes)
AdcIpAddress
AnyOf(AdcIpAddress::Family family)
{
    return family == AdcIpAddress::V6 ? AdcIpAddress(Ipv6Address::GetAny())
                                      : AdcIpAddress(Ipv4Address::GetAny());
}

/**
 * \param in a received packet
 * \return its ports as policy routing reads them: the first 4 bytes of a TCP/UDP header
 * (whatever follows), none for other protocols and later fragments
 */
AdcTransportInfo
PortsOf(const AdcIngress& in)
{
    AdcTransportInfo ports;
    switch (in.status)
    {
    case AdcTransportStatus::OK:
        ports.status = AdcTransportStatus::OK;
        ports.srcPort = in.flow.srcPort;
        ports.dstPort = in.flow.dstPort;
        return ports;
    case AdcTransportStatus::NO_PORTS:
        ports.status = AdcTransportStatus::NO_PORTS;
        return ports;
    default: // a short or malformed header, or a fragment: the ports may still be there
        if (in.laterFragment)
        {
            ports.status = AdcTransportStatus::NO_PORTS;
            return ports;
        }
        return AdcPeekPorts(in.packet, in.flow.protocol);
    }
}

} // namespace

TypeId
AdcPolicyRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcPolicyRouting")
            .SetParent<AdcDatapath>()
            .SetGroupName("Adc")
            .AddConstructor<AdcPolicyRouting>()
            .AddAttribute("HashSeed",
                          "Seed of every BALANCE rule's hash. Appliances with the same seed and "
                          "hop names send a flow to the same next hop.",
                          UintegerValue(DEFAULT_HASH_SEED),
                          MakeUintegerAccessor(&AdcPolicyRouting::SetHashSeed,
                                               &AdcPolicyRouting::GetHashSeed),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("RuleMatch",
                            "A rule forwarded, delivered or passed a packet.",
                            MakeTraceSourceAccessor(&AdcPolicyRouting::m_ruleMatchTrace),
                            "ns3::AdcPolicyRouting::RuleMatchTracedCallback");
    return tid;
}

AdcPolicyRouting::AdcPolicyRouting()
{
    NS_LOG_FUNCTION(this);
    SetHashSeed(DEFAULT_HASH_SEED);
}

AdcPolicyRouting::~AdcPolicyRouting()
{
    NS_LOG_FUNCTION(this);
}

void
AdcPolicyRouting::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t r = 0; r < m_rules.size(); ++r)
    {
        for (uint32_t h = 0; h < m_rules[r].rule.nextHops.size(); ++h)
        {
            if (Ptr<AdcService> service = m_rules[r].rule.nextHops[h].service)
            {
                service->TraceDisconnectWithoutContext("StateChange", HopServiceCallback(r, h));
            }
        }
    }
    m_rules.clear();
    m_ipv4 = nullptr;
    m_ipv6 = nullptr;
    m_outputSources.clear();
    m_pendingSources.clear();
    AdcDatapath::DoDispose();
}

// ---------------------------------------------------------------------------------------------
// Configuration

std::vector<std::string>
AdcPolicyRouting::GetBalanceMethodNames()
{
    // Both vocabularies, as always; only methods that hash header fields (same hop per flow).
    return AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::ANY, AdcLbMethodRegistry::FLOW_HASH);
}

std::string
AdcPolicyRouting::ActionToString(AdcPolicyRule::Action action)
{
    return AdcPolicyRule::ActionToString(action);
}

void
AdcPolicyRouting::CheckInterfaces(const AdcPolicyRule& rule,
                                  uint32_t index,
                                  const Ptr<Ipv4>& ipv4,
                                  const Ptr<Ipv6>& ipv6)
{
    // Interfaces are the rule's family's; a rule of both families is checked against IPv4.
    if (ipv6 && (!ipv4 || rule.GetFamily() == AdcIpAddress::V6))
    {
        rule.CheckInterfaces(index, ipv6->GetNInterfaces(), "Ipv6");
    }
    else if (ipv4)
    {
        rule.CheckInterfaces(index, ipv4->GetNInterfaces(), "Ipv4");
    }
}

void
AdcPolicyRouting::CheckRuleIndex(uint32_t rule, const char* what) const
{
    if (rule >= m_rules.size())
    {
        throw AdcConfigError(std::string("AdcPolicyRouting: ") + what + ": rule " +
                             std::to_string(rule) + " is out of range (" +
                             std::to_string(m_rules.size()) + " rules)");
    }
}

void
AdcPolicyRouting::CheckNode(Ptr<Node> node) const
{
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        CheckInterfaces(m_rules[i].rule, i, node->GetObject<Ipv4>(), node->GetObject<Ipv6>());
    }
}

void
AdcPolicyRouting::NotifyInstalled(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_ipv4 = node->GetObject<Ipv4>();
    m_ipv6 = node->GetObject<Ipv6>();
    UpdateHopStates();
}

uint32_t
AdcPolicyRouting::AddRule(const AdcPolicyRule& rule)
{
    NS_LOG_FUNCTION(this << rule.name);
    const auto index = static_cast<uint32_t>(m_rules.size());
    rule.Check(index);
    CheckInterfaces(rule, index, m_ipv4, m_ipv6);
    RuleEntry entry;
    entry.rule = rule;
    if (rule.action == AdcPolicyRule::BALANCE)
    {
        entry.lb = AdcLbMethod::Create(rule.balanceMethod);
        AddSeededMethod(entry.lb);
        for (const AdcNextHop& hop : rule.nextHops)
        {
            AdcBackend backend;
            backend.name = hop.name;
            entry.lb->AddBackend(backend);
        }
    }
    entry.adminUp.assign(rule.nextHops.size(), true);
    entry.effectiveUp.assign(rule.nextHops.size(), true);
    for (uint32_t h = 0; h < rule.nextHops.size(); ++h)
    {
        if (Ptr<AdcService> service = rule.nextHops[h].service)
        {
            entry.adminUp[h] = service->IsUp(true);
            service->TraceConnectWithoutContext("StateChange", HopServiceCallback(index, h));
        }
    }
    UpdateHopStates(entry);
    m_rules.push_back(std::move(entry));
    return index;
}

uint32_t
AdcPolicyRouting::GetNRules() const
{
    return static_cast<uint32_t>(m_rules.size());
}

const AdcPolicyRule&
AdcPolicyRouting::GetRule(uint32_t i) const
{
    CheckRuleIndex(i, "GetRule");
    return m_rules[i].rule;
}

uint64_t
AdcPolicyRouting::GetRuleHits(uint32_t rule) const
{
    CheckRuleIndex(rule, "GetRuleHits");
    return m_rules[rule].hits;
}

int64_t
AdcPolicyRouting::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Next-hop states

void
AdcPolicyRouting::SetNextHopUp(uint32_t rule, uint32_t hop, bool up)
{
    NS_LOG_FUNCTION(this << rule << hop << up);
    CheckRuleIndex(rule, "SetNextHopUp");
    RuleEntry& entry = m_rules[rule];
    if (hop >= entry.adminUp.size())
    {
        throw AdcConfigError(entry.rule.Who(rule) + ": SetNextHopUp: hop " + std::to_string(hop) +
                             " is out of range (the rule has " +
                             std::to_string(entry.adminUp.size()) + " next hops)");
    }
    entry.adminUp[hop] = up;
    UpdateHopStates(entry);
}

Callback<void, const std::string&, AdcService::State, AdcService::State>
AdcPolicyRouting::HopServiceCallback(uint32_t rule, uint32_t hop)
{
    return MakeCallback(&AdcPolicyRouting::HopServiceChanged, this).Bind(rule, hop);
}

void
AdcPolicyRouting::HopServiceChanged(uint32_t rule,
                                    uint32_t hop,
                                    const std::string& /* name */,
                                    AdcService::State /* oldState */,
                                    AdcService::State newState)
{
    SetNextHopUp(rule, hop, AdcService::IsUp(newState, true)); // UNKNOWN keeps the hop in use
}

bool
AdcPolicyRouting::IsNextHopUp(uint32_t rule, uint32_t hop) const
{
    CheckRuleIndex(rule, "IsNextHopUp");
    const RuleEntry& entry = m_rules[rule];
    return hop < entry.effectiveUp.size() && entry.effectiveUp[hop];
}

bool
AdcPolicyRouting::IsInterfaceUp(uint32_t interface) const
{
    if (m_ipv4)
    {
        return interface < m_ipv4->GetNInterfaces() && m_ipv4->IsUp(interface);
    }
    if (m_ipv6)
    {
        return interface < m_ipv6->GetNInterfaces() && m_ipv6->IsUp(interface);
    }
    return true;
}

void
AdcPolicyRouting::UpdateHopStates(RuleEntry& entry)
{
    for (std::size_t h = 0; h < entry.rule.nextHops.size(); ++h)
    {
        const bool up = entry.adminUp[h] && IsInterfaceUp(entry.rule.nextHops[h].interface);
        if (up == entry.effectiveUp[h])
        {
            continue;
        }
        NS_LOG_LOGIC("rule " << entry.rule.name << " hop " << entry.rule.nextHops[h].name
                             << (up ? " up" : " down"));
        entry.effectiveUp[h] = up;
        if (entry.lb)
        {
            entry.lb->SetBackendUp(static_cast<uint32_t>(h), up);
        }
    }
}

void
AdcPolicyRouting::UpdateHopStates()
{
    for (RuleEntry& entry : m_rules)
    {
        UpdateHopStates(entry);
    }
}

void
AdcPolicyRouting::NotifyInterfaceChange(AdcIpAddress::Family family, uint32_t interface, bool up)
{
    NS_LOG_FUNCTION(this << static_cast<int>(family) << interface << up);
    UpdateHopStates();
}

int32_t
AdcPolicyRouting::ChooseHop(RuleEntry& entry, const AdcFlowKey& flow)
{
    if (entry.lb)
    {
        AdcLbContext ctx;
        ctx.flow = flow;
        return entry.lb->Select(ctx);
    }
    return entry.effectiveUp[0] ? 0 : -1;
}

Ptr<NetDevice>
AdcPolicyRouting::GetDevice(AdcIpAddress::Family family, uint32_t interface) const
{
    if (family == AdcIpAddress::V6)
    {
        return m_ipv6 ? m_ipv6->GetNetDevice(interface) : nullptr;
    }
    return m_ipv4 ? m_ipv4->GetNetDevice(interface) : nullptr;
}

// ---------------------------------------------------------------------------------------------
// Received packets

void
AdcPolicyRouting::RecordMatch(uint32_t index,
                              const AdcFlowKey& flow,
                              uint32_t ingress,
                              const std::string& hopName)
{
    RuleEntry& entry = m_rules[index];
    ++entry.hits;
    NS_LOG_LOGIC("rule " << entry.rule.name << " " << flow << " in " << ingress << " -> '"
                         << hopName << "'");
    m_ruleMatchTrace(entry.rule.name, flow, ingress, hopName);
}

bool
AdcPolicyRouting::Process(const AdcIngress& in, AdcEgress& egress)
{
    if (m_rules.empty())
    {
        return false;
    }
    const AdcTransportInfo ports = PortsOf(in);
    AdcFlowKey flow = in.flow;
    flow.srcPort = ports.srcPort;
    flow.dstPort = ports.dstPort;
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        const AdcPolicyRule& rule = m_rules[i].rule;
        if (!rule.MatchesIngress(in.inInterface) || !rule.MatchesAddresses(flow))
        {
            continue;
        }
        if (rule.NeedsPorts())
        {
            if (ports.status == AdcTransportStatus::TRUNCATED)
            {
                // Claim the packet so no other protocol forwards what the rules cannot judge.
                DropPacket(in.packet, "truncated-transport-header");
                return true;
            }
            if (ports.status != AdcTransportStatus::OK || !rule.MatchesPorts(flow))
            {
                continue;
            }
        }
        return ApplyInputRule(i, in, flow, egress);
    }
    return false;
}

bool
AdcPolicyRouting::ApplyInputRule(uint32_t index,
                                 const AdcIngress& in,
                                 const AdcFlowKey& flow,
                                 AdcEgress& egress)
{
    RuleEntry& entry = m_rules[index];
    switch (entry.rule.action)
    {
    case AdcPolicyRule::LOCAL:
        RecordMatch(index, flow, in.inInterface, NO_HOP);
        return egress.Send(AdcVerdict::DeliverLocal()).empty();
    case AdcPolicyRule::PASS:
        RecordMatch(index, flow, in.inInterface, NO_HOP);
        return false;
    default:
        break;
    }
    const int32_t hop = ChooseHop(entry, flow);
    if (hop < 0)
    {
        DropPacket(in.packet, "no-next-hop-up");
        return true;
    }
    const AdcNextHop& nextHop = entry.rule.nextHops[hop];
    RecordMatch(index, flow, in.inInterface, nextHop.name);
    // The header goes out as it came: a BALANCE rule is a MAC-mode virtual server (NetScaler's
    // -m MAC: only the destination MAC changes, the TTL too stays); a FORWARD rule is
    // policy-based routing, which routes (the TTL drops by one).
    AdcVerdict v = AdcVerdict::Forward(nextHop.GetGateway(flow.dst.GetFamily()), nextHop.interface);
    v.keepTtl = entry.rule.action == AdcPolicyRule::BALANCE;
    const std::string failed = egress.Send(v);
    if (!failed.empty())
    {
        DropPacket(in.packet, failed);
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// Locally originated packets

bool
AdcPolicyRouting::ProcessOutput(const AdcLocalOutput& out, AdcOutputRoute& route)
{
    NS_LOG_FUNCTION(this << out.flow << out.packet);
    const bool srcSet = !out.flow.src.IsNone();
    std::optional<AdcIpAddress> forcedSource; // a source the node does not own, kept as is
    if (srcSet && !out.ownSource)
    {
        forcedSource = out.flow.src;
    }
    else if (!srcSet)
    {
        forcedSource = TakePendingOutputSource(out.flow.dst, out.flow.protocol);
    }
    if (IsGroupAddress(out.flow.dst))
    {
        return false;
    }
    const AdcIpAddress routeSource = forcedSource.value_or(out.flow.src);
    AdcFlowKey flow = out.flow;
    flow.src = routeSource.IsNone() ? AnyOf(out.flow.dst.GetFamily()) : routeSource;
    if (RouteOutputByRules(out, flow, route))
    {
        route.source = routeSource; // unset: the hop interface's own address
        return true;
    }
    if (forcedSource)
    {
        route = AdcOutputRoute();
        route.source = *forcedSource; // the other protocols' way, the foreign source kept
        return true;
    }
    return false;
}

bool
AdcPolicyRouting::RouteOutputByRules(const AdcLocalOutput& out,
                                     const AdcFlowKey& flow,
                                     AdcOutputRoute& route)
{
    const AdcIpAddress::Family family = flow.dst.GetFamily();
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        RuleEntry& entry = m_rules[i];
        const AdcPolicyRule& rule = entry.rule;
        if (!rule.inInterfaces.empty() || rule.action == AdcPolicyRule::LOCAL ||
            rule.NeedsPorts() || !rule.MatchesAddresses(flow))
        {
            continue;
        }
        if (rule.action == AdcPolicyRule::PASS)
        {
            if (out.packet)
            {
                RecordMatch(i, flow, LOCAL_ORIGIN, NO_HOP);
            }
            return false;
        }
        const int32_t hop = ChooseHop(entry, flow);
        if (hop < 0 ||
            (out.boundDevice && GetDevice(family, rule.nextHops[hop].interface) != out.boundDevice))
        {
            continue;
        }
        const AdcNextHop& nextHop = rule.nextHops[hop];
        if (out.packet)
        {
            RecordMatch(i, flow, LOCAL_ORIGIN, nextHop.name);
        }
        route.outInterface = nextHop.interface;
        route.nextHop = nextHop.GetGateway(family);
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Output sources (USIP)

bool
AdcPolicyRouting::AddOutputSource(const AdcFlowKey& connection)
{
    NS_LOG_FUNCTION(this << connection);
    if (!m_outputSources.insert(connection).second)
    {
        return false; // one registration per connection
    }
    m_pendingSources.push_back(connection);
    return true;
}

bool
AdcPolicyRouting::RemoveOutputSource(const AdcFlowKey& connection)
{
    NS_LOG_FUNCTION(this << connection);
    auto pending = std::find(m_pendingSources.begin(), m_pendingSources.end(), connection);
    if (pending != m_pendingSources.end())
    {
        m_pendingSources.erase(pending);
    }
    return m_outputSources.erase(connection) > 0;
}

std::size_t
AdcPolicyRouting::GetNOutputSources() const
{
    return m_outputSources.size();
}

std::optional<AdcIpAddress>
AdcPolicyRouting::GetPendingOutputSource() const
{
    if (m_pendingSources.empty())
    {
        return std::nullopt;
    }
    return m_pendingSources.back().src;
}

std::optional<AdcIpAddress>
AdcPolicyRouting::TakePendingOutputSource(const AdcIpAddress& destination, uint8_t protocol)
{
    // Newest first: the connection being set up registered itself just before its Connect.
    for (auto it = m_pendingSources.rbegin(); it != m_pendingSources.rend(); ++it)
    {
        const bool sameProtocol = protocol == 0 || it->protocol == 0 || it->protocol == protocol;
        if (sameProtocol && it->dst == destination)
        {
            const AdcIpAddress source = it->src;
            m_pendingSources.erase(std::next(it).base());
            return source;
        }
    }
    return std::nullopt;
}

std::size_t
AdcPolicyRouting::GetPerFlowStateBytes() const
{
    // Decisions depend only on the packet, the rules and the hops' states; only the sources
    // registered by this node's own proxies (never a forwarding node's) grow with connections.
    constexpr std::size_t kHashNodeOverhead = 2 * sizeof(void*); // bucket link and next pointer
    return m_outputSources.size() * (sizeof(AdcFlowKey) + kHashNodeOverhead) +
           m_pendingSources.size() * sizeof(AdcFlowKey);
}

// ---------------------------------------------------------------------------------------------
// Printing

void
AdcPolicyRouting::PrintRules(std::ostream& os) const
{
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        const RuleEntry& entry = m_rules[i];
        const AdcPolicyRule& r = entry.rule;
        os << "#" << i << " ";
        r.Print(os);
        for (std::size_t h = 0; h < r.nextHops.size(); ++h)
        {
            const AdcNextHop& hop = r.nextHops[h];
            os << (h ? ", " : " -> ") << hop.name << "[if " << hop.interface << " via "
               << (hop.gateway.IsInitialized() ? hop.gateway : Ipv4Address::GetAny());
            if (!hop.gateway6.IsAny())
            {
                os << " " << hop.gateway6;
            }
            os << " " << (entry.effectiveUp[h] ? "up" : "down") << "]";
        }
        os << " hits=" << entry.hits << "\n";
    }
}

void
AdcPolicyRouting::Print(std::ostream& os) const
{
    os << m_rules.size() << " rules, first match wins\n";
    PrintRules(os);
}

void
AdcPolicyRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "Node: ";
    if (Ptr<Node> node = GetNode())
    {
        os << node->GetId();
    }
    else
    {
        os << "?";
    }
    os << ", Time: " << Now().As(unit) << ", AdcPolicyRouting table (" << m_rules.size()
       << " rules, first match wins)\n";
    PrintRules(os);
}

} // namespace ns3
