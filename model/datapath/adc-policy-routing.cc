/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: a stateless policy-based routing protocol.
 */

#include "adc-policy-routing.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-lb-method.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <sstream>

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

/// Bytes of a TCP or UDP header that hold the two ports.
constexpr uint32_t PORT_BYTES = 4;

/// What the start of a packet's transport header gave.
struct TransportPorts
{
    /// Whether ports were read.
    enum Status
    {
        NONE,     //!< the protocol has no ports (or this fragment holds no transport header)
        OK,       //!< ports read
        TRUNCATED //!< TCP/UDP shorter than the two ports
    };

    Status status{NONE}; //!< outcome
    uint16_t src{0};     //!< source port (0 unless OK)
    uint16_t dst{0};     //!< destination port (0 unless OK)
};

/// \param protocol an IP protocol number \return true for TCP and UDP
bool
HasPorts(uint8_t protocol)
{
    return protocol == AdcFlowKey::PROTO_TCP || protocol == AdcFlowKey::PROTO_UDP;
}

/**
 * \param p the packet, its transport header first (may be null)
 * \param protocol its IP protocol
 * \return the ports; never reads past the packet's end
 */
TransportPorts
PeekPorts(Ptr<const Packet> p, uint8_t protocol)
{
    TransportPorts ports;
    if (!HasPorts(protocol))
    {
        return ports;
    }
    if (!p || p->GetSize() < PORT_BYTES)
    {
        ports.status = TransportPorts::TRUNCATED;
        return ports;
    }
    uint8_t bytes[PORT_BYTES];
    p->CopyData(bytes, PORT_BYTES);
    ports.status = TransportPorts::OK;
    ports.src = static_cast<uint16_t>((bytes[0] << 8) | bytes[1]);
    ports.dst = static_cast<uint16_t>((bytes[2] << 8) | bytes[3]);
    return ports;
}

/// \param rule a rule \param iif ingress interface \return true when the rule accepts it
bool
MatchesIngress(const AdcPolicyRule& rule, uint32_t iif)
{
    return rule.inInterfaces.empty() ||
           std::find(rule.inInterfaces.begin(), rule.inInterfaces.end(), iif) !=
               rule.inInterfaces.end();
}

/// \param rule a rule \param flow a flow \return true when addresses and protocol match
bool
MatchesAddresses(const AdcPolicyRule& rule, const AdcFlowKey& flow)
{
    return rule.srcMask.IsMatch(flow.src.GetIpv4(), rule.srcNet) &&
           rule.dstMask.IsMatch(flow.dst.GetIpv4(), rule.dstNet) &&
           (rule.protocol == 0 || rule.protocol == flow.protocol);
}

/// \param rule a rule \return true when it has a port range
bool
NeedsPorts(const AdcPolicyRule& rule)
{
    return rule.srcPorts.has_value() || rule.dstPorts.has_value();
}

/// \param rule a rule \param flow a flow whose ports are known \return true when they match
bool
MatchesPorts(const AdcPolicyRule& rule, const AdcFlowKey& flow)
{
    return (!rule.srcPorts || rule.srcPorts->Contains(flow.srcPort)) &&
           (!rule.dstPorts || rule.dstPorts->Contains(flow.dstPort));
}

/// \param address an address \param mask its mask \return "a.b.c.d/len"
std::string
NetToString(Ipv4Address address, Ipv4Mask mask)
{
    std::ostringstream os;
    os << address << "/" << mask.GetPrefixLength();
    return os.str();
}

/// \param range an optional range \return its text, or "any"
std::string
RangeToString(const std::optional<AdcPortRange>& range)
{
    return range ? range->ToString() : "any";
}

} // namespace

TypeId
AdcPolicyRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcPolicyRouting")
            .SetParent<Ipv4RoutingProtocol>()
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
                            "ns3::AdcPolicyRouting::RuleMatchTracedCallback")
            .AddTraceSource("Drop",
                            "A packet was dropped, with the reason.",
                            MakeTraceSourceAccessor(&AdcPolicyRouting::m_dropTrace),
                            "ns3::AdcPolicyRouting::DropTracedCallback");
    return tid;
}

AdcPolicyRouting::AdcPolicyRouting()
    : m_hashSeed(DEFAULT_HASH_SEED)
{
    NS_LOG_FUNCTION(this);
}

AdcPolicyRouting::~AdcPolicyRouting()
{
    NS_LOG_FUNCTION(this);
}

void
AdcPolicyRouting::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rules.clear();
    m_ipv4 = nullptr;
    m_outputSources.clear();
    m_pendingSources.clear();
    Ipv4RoutingProtocol::DoDispose();
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
    switch (action)
    {
    case AdcPolicyRule::FORWARD:
        return "FORWARD";
    case AdcPolicyRule::BALANCE:
        return "BALANCE";
    case AdcPolicyRule::LOCAL:
        return "LOCAL";
    case AdcPolicyRule::PASS:
        return "PASS";
    }
    return "action " + std::to_string(static_cast<unsigned>(action));
}

std::string
AdcPolicyRouting::Who(const std::string& name, uint32_t index)
{
    return "AdcPolicyRouting: rule '" + name + "' (#" + std::to_string(index) + ")";
}

void
AdcPolicyRouting::CheckRule(const AdcPolicyRule& rule, uint32_t index)
{
    const std::string who = Who(rule.name, index);
    const std::size_t nHops = rule.nextHops.size();
    const std::string hopsGiven = "nextHops has " + std::to_string(nHops) + " entries";
    switch (rule.action)
    {
    case AdcPolicyRule::FORWARD:
        if (nHops != 1)
        {
            throw AdcConfigError(who + ": " + hopsGiven + "; action FORWARD needs exactly 1");
        }
        break;
    case AdcPolicyRule::BALANCE: {
        if (nHops == 0)
        {
            throw AdcConfigError(who + ": " + hopsGiven + "; action BALANCE needs at least 1");
        }
        AdcLbMethodRegistry::Resolve(
            rule.balanceMethod,
            {AdcLbMethodRegistry::ANY, AdcLbMethodRegistry::FLOW_HASH},
            who,
            "balanceMethod",
            "sessionless balancing keeps no per-flow state, so it must give every packet of a "
            "flow the same next hop, which only a hash of the packet's fields does");
        for (std::size_t j = 0; j < nHops; ++j)
        {
            for (std::size_t i = 0; i < j; ++i)
            {
                const std::string& name = rule.nextHops[j].name;
                if (!name.empty() && name == rule.nextHops[i].name)
                {
                    throw AdcConfigError(who + ": nextHops[" + std::to_string(j) + "].name '" +
                                         name + "' repeats nextHops[" + std::to_string(i) +
                                         "].name; BALANCE hashes on hop names, so they must "
                                         "differ");
                }
            }
        }
        break;
    }
    case AdcPolicyRule::LOCAL:
    case AdcPolicyRule::PASS:
        if (nHops != 0)
        {
            throw AdcConfigError(who + ": " + hopsGiven + "; action " +
                                 ActionToString(rule.action) + " takes none");
        }
        break;
    default:
        throw AdcConfigError(who + ": action " +
                             std::to_string(static_cast<unsigned>(rule.action)) +
                             " is not one of FORWARD, BALANCE, LOCAL, PASS");
    }
    if (NeedsPorts(rule) && rule.protocol != 0 && !HasPorts(rule.protocol))
    {
        throw AdcConfigError(who + ": " + (rule.srcPorts ? "srcPorts" : "dstPorts") +
                             " is set but protocol is " + std::to_string(rule.protocol) +
                             "; port ranges need protocol 0 (any), 6 (TCP) or 17 (UDP)");
    }
    if (rule.srcPorts)
    {
        rule.srcPorts->Check(who + ": srcPorts");
    }
    if (rule.dstPorts)
    {
        rule.dstPorts->Check(who + ": dstPorts");
    }
}

void
AdcPolicyRouting::CheckInterfaces(const AdcPolicyRule& rule, uint32_t index, uint32_t nInterfaces)
{
    auto check = [&](uint32_t interface, const std::string& field) {
        if (interface >= nInterfaces)
        {
            throw AdcConfigError(Who(rule.name, index) + ": " + field + " " +
                                 std::to_string(interface) + " is out of range (the node has " +
                                 std::to_string(nInterfaces) + " Ipv4 interfaces, 0.." +
                                 std::to_string(nInterfaces - 1) + ")");
        }
    };
    for (std::size_t i = 0; i < rule.inInterfaces.size(); ++i)
    {
        check(rule.inInterfaces[i], "inInterfaces[" + std::to_string(i) + "]");
    }
    for (std::size_t i = 0; i < rule.nextHops.size(); ++i)
    {
        check(rule.nextHops[i].interface, "nextHops[" + std::to_string(i) + "].interface");
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

uint32_t
AdcPolicyRouting::AddRule(const AdcPolicyRule& rule)
{
    NS_LOG_FUNCTION(this << rule.name);
    const auto index = static_cast<uint32_t>(m_rules.size());
    CheckRule(rule, index);
    if (m_ipv4)
    {
        CheckInterfaces(rule, index, m_ipv4->GetNInterfaces());
    }
    RuleEntry entry;
    entry.rule = rule;
    if (rule.action == AdcPolicyRule::BALANCE)
    {
        entry.lb = AdcLbMethod::Create(rule.balanceMethod);
        entry.lb->SetHashSeed(m_hashSeed);
        for (const AdcNextHop& hop : rule.nextHops)
        {
            AdcBackend backend;
            backend.name = hop.name;
            entry.lb->AddBackend(backend);
        }
    }
    entry.adminUp.assign(rule.nextHops.size(), true);
    entry.effectiveUp.assign(rule.nextHops.size(), true);
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

void
AdcPolicyRouting::SetNextHopUp(uint32_t rule, uint32_t hop, bool up)
{
    NS_LOG_FUNCTION(this << rule << hop << up);
    CheckRuleIndex(rule, "SetNextHopUp");
    RuleEntry& entry = m_rules[rule];
    if (hop >= entry.adminUp.size())
    {
        throw AdcConfigError(Who(entry.rule.name, rule) + ": SetNextHopUp: hop " +
                             std::to_string(hop) + " is out of range (the rule has " +
                             std::to_string(entry.adminUp.size()) + " next hops)");
    }
    entry.adminUp[hop] = up;
    UpdateHopStates(entry);
}

bool
AdcPolicyRouting::IsNextHopUp(uint32_t rule, uint32_t hop) const
{
    CheckRuleIndex(rule, "IsNextHopUp");
    const RuleEntry& entry = m_rules[rule];
    return hop < entry.effectiveUp.size() && entry.effectiveUp[hop];
}

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

std::optional<Ipv4Address>
AdcPolicyRouting::GetPendingOutputSource() const
{
    if (m_pendingSources.empty())
    {
        return std::nullopt;
    }
    return m_pendingSources.back().src.GetIpv4();
}

std::optional<Ipv4Address>
AdcPolicyRouting::TakePendingOutputSource(Ipv4Address destination, uint8_t protocol)
{
    // Newest first: the connection being set up registered itself just before its Connect.
    for (auto it = m_pendingSources.rbegin(); it != m_pendingSources.rend(); ++it)
    {
        const bool sameProtocol = protocol == 0 || it->protocol == 0 || it->protocol == protocol;
        if (sameProtocol && it->dst == AdcIpAddress(destination))
        {
            const Ipv4Address source = it->src.GetIpv4();
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

void
AdcPolicyRouting::SetHashSeed(uint64_t seed)
{
    NS_LOG_FUNCTION(this << seed);
    m_hashSeed = seed;
    for (RuleEntry& entry : m_rules)
    {
        if (entry.lb)
        {
            entry.lb->SetHashSeed(seed);
        }
    }
}

uint64_t
AdcPolicyRouting::GetHashSeed() const
{
    return m_hashSeed;
}

int64_t
AdcPolicyRouting::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Next-hop states

bool
AdcPolicyRouting::IsInterfaceUp(uint32_t interface) const
{
    if (!m_ipv4)
    {
        return true;
    }
    return interface < m_ipv4->GetNInterfaces() && m_ipv4->IsUp(interface);
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

// ---------------------------------------------------------------------------------------------
// Routing

bool
AdcPolicyRouting::IsOwnAddress(Ipv4Address address) const
{
    return m_ipv4 && m_ipv4->GetInterfaceForAddress(address) >= 0;
}

Ptr<Ipv4Route>
AdcPolicyRouting::MakeRoute(const AdcNextHop& hop,
                            Ipv4Address destination,
                            std::optional<Ipv4Address> source) const
{
    Ptr<Ipv4Route> route = Create<Ipv4Route>();
    route->SetDestination(destination);
    // An unset gateway means on-link: Ipv4L3Protocol sends to the destination itself.
    route->SetGateway(hop.gateway.IsInitialized() ? hop.gateway : Ipv4Address::GetAny());
    if (!source)
    {
        source = m_ipv4->GetNAddresses(hop.interface) > 0
                     ? m_ipv4->GetAddress(hop.interface, 0).GetLocal()
                     : Ipv4Address::GetAny();
    }
    route->SetSource(*source);
    route->SetOutputDevice(m_ipv4->GetNetDevice(hop.interface));
    return route;
}

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
AdcPolicyRouting::RouteInput(Ptr<const Packet> p,
                             const Ipv4Header& header,
                             Ptr<const NetDevice> idev,
                             UnicastForwardCallback ucb,
                             MulticastForwardCallback mcb,
                             LocalDeliverCallback lcb,
                             ErrorCallback ecb)
{
    NS_LOG_FUNCTION(this << p << header << idev);
    const Ipv4Address dst = header.GetDestination();
    if (!m_ipv4 || m_rules.empty() || dst.IsMulticast() || dst.IsBroadcast())
    {
        return false;
    }
    const int32_t ingress = m_ipv4->GetInterfaceForDevice(idev);
    if (ingress < 0)
    {
        return false;
    }
    const auto iif = static_cast<uint32_t>(ingress);
    if (m_ipv4->IsDestinationAddress(dst, iif))
    {
        return false; // the list delivers the node's own packets
    }
    // Only a first fragment starts with the transport header.
    const TransportPorts ports =
        header.GetFragmentOffset() == 0 ? PeekPorts(p, header.GetProtocol()) : TransportPorts{};
    const AdcFlowKey flow(header.GetSource(), dst, ports.src, ports.dst, header.GetProtocol());
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        const AdcPolicyRule& rule = m_rules[i].rule;
        if (!MatchesIngress(rule, iif) || !MatchesAddresses(rule, flow))
        {
            continue;
        }
        if (NeedsPorts(rule))
        {
            if (ports.status == TransportPorts::TRUNCATED)
            {
                // Claim the packet so no other protocol forwards what the rules cannot judge.
                NS_LOG_LOGIC("drop " << flow << ": truncated transport header");
                m_dropTrace(p, "truncated-transport-header");
                return true;
            }
            if (ports.status != TransportPorts::OK || !MatchesPorts(rule, flow))
            {
                continue;
            }
        }
        return ApplyInputRule(i, p, header, iif, flow, ucb, lcb);
    }
    return false;
}

bool
AdcPolicyRouting::ApplyInputRule(uint32_t index,
                                 Ptr<const Packet> p,
                                 const Ipv4Header& header,
                                 uint32_t iif,
                                 const AdcFlowKey& flow,
                                 const UnicastForwardCallback& ucb,
                                 const LocalDeliverCallback& lcb)
{
    RuleEntry& entry = m_rules[index];
    switch (entry.rule.action)
    {
    case AdcPolicyRule::LOCAL:
        if (lcb.IsNull())
        {
            return false; // the list already delivered it locally (multicast)
        }
        RecordMatch(index, flow, iif, NO_HOP);
        lcb(p, header, iif);
        return true;
    case AdcPolicyRule::PASS:
        RecordMatch(index, flow, iif, NO_HOP);
        return false;
    default:
        break;
    }
    if (ucb.IsNull())
    {
        return false;
    }
    const int32_t hop = ChooseHop(entry, flow);
    if (hop < 0)
    {
        NS_LOG_LOGIC("drop " << flow << ": rule " << entry.rule.name << " has no hop up");
        m_dropTrace(p, "no-next-hop-up");
        return true;
    }
    const AdcNextHop& nextHop = entry.rule.nextHops[hop];
    RecordMatch(index, flow, iif, nextHop.name);
    // The header goes out as it came (IpForward only lowers the TTL): MAC-based redirection.
    ucb(MakeRoute(nextHop, header.GetDestination(), std::nullopt), p, header);
    return true;
}

Ptr<Ipv4Route>
AdcPolicyRouting::RouteOutput(Ptr<Packet> p,
                              const Ipv4Header& header,
                              Ptr<NetDevice> oif,
                              Socket::SocketErrno& sockerr)
{
    NS_LOG_FUNCTION(this << p << header.GetDestination() << header.GetSource() << oif);
    sockerr = Socket::ERROR_NOROUTETOHOST;
    const Ipv4Address dst = header.GetDestination();
    const Ipv4Address src = header.GetSource();
    const bool srcSet = src.IsInitialized() && !src.IsAny();
    std::optional<Ipv4Address> forcedSource; // a source the node does not own, kept as is
    if (srcSet && !IsOwnAddress(src))
    {
        forcedSource = src;
    }
    else if (!srcSet)
    {
        forcedSource = TakePendingOutputSource(dst, header.GetProtocol());
    }
    if (!m_ipv4 || dst.IsMulticast() || dst.IsBroadcast())
    {
        return nullptr;
    }
    // Only TCP hands its packet over with the transport header in front; the ports help
    // BALANCE spread flows but are never matched here (SetupEndpoint asks without a packet).
    const TransportPorts ports = header.GetProtocol() == AdcFlowKey::PROTO_TCP
                                     ? PeekPorts(p, AdcFlowKey::PROTO_TCP)
                                     : TransportPorts{};
    const std::optional<Ipv4Address> routeSource =
        forcedSource ? forcedSource : (srcSet ? std::optional<Ipv4Address>(src) : std::nullopt);
    const AdcFlowKey flow(routeSource.value_or(Ipv4Address::GetAny()),
                          dst,
                          ports.src,
                          ports.dst,
                          header.GetProtocol());
    Ptr<Ipv4Route> route = RouteOutputByRules(p, flow, oif, routeSource);
    if (!route && forcedSource)
    {
        route = RouteOutputByOthers(p, header, oif, *forcedSource);
    }
    if (route)
    {
        NS_LOG_LOGIC("route " << route->GetSource() << " -> " << dst << " via "
                              << route->GetGateway());
        sockerr = Socket::ERROR_NOTERROR;
    }
    return route;
}

Ptr<Ipv4Route>
AdcPolicyRouting::RouteOutputByRules(Ptr<const Packet> p,
                                     const AdcFlowKey& flow,
                                     Ptr<NetDevice> oif,
                                     std::optional<Ipv4Address> source)
{
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        RuleEntry& entry = m_rules[i];
        const AdcPolicyRule& rule = entry.rule;
        if (!rule.inInterfaces.empty() || rule.action == AdcPolicyRule::LOCAL || NeedsPorts(rule) ||
            !MatchesAddresses(rule, flow))
        {
            continue;
        }
        if (rule.action == AdcPolicyRule::PASS)
        {
            if (p)
            {
                RecordMatch(i, flow, LOCAL_ORIGIN, NO_HOP);
            }
            return nullptr;
        }
        const int32_t hop = ChooseHop(entry, flow);
        if (hop < 0 || (oif && m_ipv4->GetNetDevice(rule.nextHops[hop].interface) != oif))
        {
            continue;
        }
        const AdcNextHop& nextHop = rule.nextHops[hop];
        if (p)
        {
            RecordMatch(i, flow, LOCAL_ORIGIN, nextHop.name);
        }
        return MakeRoute(nextHop, flow.dst.GetIpv4(), source);
    }
    return nullptr;
}

Ptr<Ipv4Route>
AdcPolicyRouting::RouteOutputByOthers(Ptr<Packet> p,
                                      const Ipv4Header& header,
                                      Ptr<NetDevice> oif,
                                      Ipv4Address source)
{
    Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(m_ipv4->GetRoutingProtocol());
    if (!list)
    {
        return nullptr;
    }
    // The others choose a next hop for the destination; they must not see a foreign source.
    Ipv4Header lookup = header;
    lookup.SetSource(Ipv4Address::GetAny());
    for (uint32_t i = 0; i < list->GetNRoutingProtocols(); ++i)
    {
        int16_t priority = 0;
        Ptr<Ipv4RoutingProtocol> other = list->GetRoutingProtocol(i, priority);
        if (PeekPointer(other) == this)
        {
            continue;
        }
        Socket::SocketErrno err = Socket::ERROR_NOTERROR;
        Ptr<Ipv4Route> found = other->RouteOutput(p, lookup, oif, err);
        if (found)
        {
            Ptr<Ipv4Route> route = Create<Ipv4Route>();
            route->SetDestination(found->GetDestination());
            route->SetGateway(found->GetGateway());
            route->SetOutputDevice(found->GetOutputDevice());
            route->SetSource(source);
            return route;
        }
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Interface notifications and printing

void
AdcPolicyRouting::NotifyInterfaceUp(uint32_t interface)
{
    NS_LOG_FUNCTION(this << interface);
    UpdateHopStates();
}

void
AdcPolicyRouting::NotifyInterfaceDown(uint32_t interface)
{
    NS_LOG_FUNCTION(this << interface);
    UpdateHopStates();
}

void
AdcPolicyRouting::NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    NS_LOG_FUNCTION(this << interface << address);
}

void
AdcPolicyRouting::NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    NS_LOG_FUNCTION(this << interface << address);
}

void
AdcPolicyRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    NS_LOG_FUNCTION(this << ipv4);
    NS_ASSERT(ipv4);
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        CheckInterfaces(m_rules[i].rule, i, ipv4->GetNInterfaces());
    }
    m_ipv4 = ipv4;
    UpdateHopStates();
}

void
AdcPolicyRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "Node: ";
    Ptr<Node> node = m_ipv4 ? m_ipv4->GetObject<Node>() : nullptr;
    if (node)
    {
        os << node->GetId();
    }
    else
    {
        os << "?";
    }
    os << ", Time: " << Now().As(unit) << ", AdcPolicyRouting table (" << m_rules.size()
       << " rules, first match wins)\n";
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        const RuleEntry& entry = m_rules[i];
        const AdcPolicyRule& r = entry.rule;
        os << "#" << i << " " << r.name << " in=";
        if (r.inInterfaces.empty())
        {
            os << "any";
        }
        for (std::size_t k = 0; k < r.inInterfaces.size(); ++k)
        {
            os << (k ? "," : "") << r.inInterfaces[k];
        }
        os << " src=" << NetToString(r.srcNet, r.srcMask)
           << " dst=" << NetToString(r.dstNet, r.dstMask)
           << " proto=" << static_cast<unsigned>(r.protocol)
           << " sport=" << RangeToString(r.srcPorts) << " dport=" << RangeToString(r.dstPorts)
           << " " << ActionToString(r.action);
        if (r.action == AdcPolicyRule::BALANCE)
        {
            os << "(" << r.balanceMethod << ")";
        }
        for (std::size_t h = 0; h < r.nextHops.size(); ++h)
        {
            const AdcNextHop& hop = r.nextHops[h];
            os << (h ? ", " : " -> ") << hop.name << "[if " << hop.interface << " via "
               << (hop.gateway.IsInitialized() ? hop.gateway : Ipv4Address::GetAny()) << " "
               << (entry.effectiveUp[h] ? "up" : "down") << "]";
        }
        os << " hits=" << entry.hits << "\n";
    }
}

} // namespace ns3
