/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the Solaris-style Integrated Load Balancer (ILB), seed 001.
 */

#include "ilb-appliance.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IlbAppliance");

NS_OBJECT_ENSURE_REGISTERED(IlbAppliance);

namespace
{

/// Default per-device seed of the hash algorithms.
constexpr uint64_t DEFAULT_HASH_SEED = 0x11b5eed0adcULL;
/// Default maximum number of connection entries (the table's default).
constexpr uint32_t DEFAULT_MAX_CONNECTIONS = 1000000;

} // namespace

// ---------------------------------------------------------------------------------------------
// IlbAppliance: object, configuration

TypeId
IlbAppliance::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IlbAppliance")
            .SetParent<AdcDatapath>()
            .SetGroupName("Adc")
            .AddConstructor<IlbAppliance>()
            .AddAttribute(
                "HashSeed",
                "Per-device seed of the consistent hash algorithms (rendezvous-hash-ip*, "
                "maglev): two ILBs with different seeds map clients independently. illumos's "
                "own hash-ip, hash-ip-port and hash-ip-vip have no seed.",
                UintegerValue(DEFAULT_HASH_SEED),
                MakeUintegerAccessor(&AdcDatapath::SetHashSeed, &AdcDatapath::GetHashSeed),
                MakeUintegerChecker<uint64_t>())
            .AddAttribute("MaxConnections",
                          "Maximum number of connection (NAT) entries of all rules; 0 = "
                          "unlimited. New flows beyond it are dropped (connection-table-full).",
                          UintegerValue(DEFAULT_MAX_CONNECTIONS),
                          MakeUintegerAccessor(&IlbAppliance::SetMaxConnections,
                                               &IlbAppliance::GetMaxConnections),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CleanupInterval",
                          "Period of the cleanup that removes connections idle for longer than "
                          "their rule's NAT timeout, reset (RST seen) or with both FINs "
                          "acknowledged, and sticky entries with no connection "
                          "whose persist-timeout has run out since the last one went (illumos "
                          "ilb_conn.c: ilb_conn_cache_timeout and ilb_sticky_timeout, 15 s). "
                          "Its phase is the first rule's creation.",
                          TimeValue(Seconds(15)),
                          MakeTimeAccessor(&IlbAppliance::m_cleanupInterval),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("IcmpTooBigFromServers",
                          "Beyond illumos: translate a fragmentation-needed / packet-too-big "
                          "error from the server side (about a request as the ILB forwarded "
                          "it) back to the client. false (illumos): IP forwards it unchanged.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IlbAppliance::m_icmpTooBigFromServers),
                          MakeBooleanChecker())
            .AddAttribute("IcmpQuoteChecksums",
                          "Beyond illumos: in a translated too-big error, recompute the quoted "
                          "IPv4 header checksum and adjust the quoted TCP/UDP checksum (RFC "
                          "1624). false (illumos ilb_nat_icmpv4/v6): only the quoted addresses "
                          "and ports change.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IlbAppliance::m_icmpQuoteChecksums),
                          MakeBooleanChecker())
            .AddAttribute("CompactIpv4Table",
                          "true: IPv4 connections live in the compact IlbNatTable (GetNatTable; "
                          "at most 64 bytes per entry, all per-connection state included, idle "
                          "times at millisecond granularity); false: in the AdcConnectionTable "
                          "with the IPv6 ones (GetConnectionTable; about 300 bytes per entry). "
                          "Set it before the first connection.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&IlbAppliance::SetCompactIpv4Table,
                                              &IlbAppliance::GetCompactIpv4Table),
                          MakeBooleanChecker())
            .AddTraceSource("RuleMatch",
                            "A request packet matched a rule (VIP, protocol, port).",
                            MakeTraceSourceAccessor(&IlbAppliance::m_ruleMatchTrace),
                            "ns3::IlbAppliance::RuleMatchTracedCallback")
            .AddTraceSource("ServerChosen",
                            "A new flow was given a server (Half-NAT, Full-NAT: once per "
                            "connection entry; DSR, which keeps no entries: once per packet).",
                            MakeTraceSourceAccessor(&IlbAppliance::m_serverChosenTrace),
                            "ns3::IlbAppliance::ServerChosenTracedCallback")
            .AddTraceSource("Rewrite",
                            "A packet's addresses/ports were rewritten (NAT), per direction.",
                            MakeTraceSourceAccessor(&IlbAppliance::m_rewriteTrace),
                            "ns3::IlbAppliance::RewriteTracedCallback")
            .AddTraceSource("NatExhausted",
                            "A new FULL_NAT flow found every NAT source port in use.",
                            MakeTraceSourceAccessor(&IlbAppliance::m_natExhaustedTrace),
                            "ns3::IlbAppliance::NatExhaustedTracedCallback")
            .AddTraceSource("ConnectionEnded",
                            "A connection's entry went (either table), at the cleanup: idle "
                            "expiry, TCP end (RST seen, or both FINs acknowledged); or a "
                            "conn-drain cut.",
                            MakeTraceSourceAccessor(&IlbAppliance::m_connectionEndedTrace),
                            "ns3::IlbAppliance::ConnectionEndedTracedCallback");
    return tid;
}

IlbAppliance::IlbAppliance()
    : m_conns(Create<IlbConnectionStore>()),
      m_maxConnections(DEFAULT_MAX_CONNECTIONS),
      m_cleanupInterval(Seconds(15))
{
    NS_LOG_FUNCTION(this);
    m_conns->SetMaxConnections(m_maxConnections);
    // Whatever removes an entry (idle expiry, close, drain), the flow's NAT port and its
    // sticky reference go back.
    m_conns->SetEndedCallback([this](uint32_t rule,
                                     uint32_t server,
                                     const AdcFlowKey& original,
                                     const AdcFlowKey& translated) {
        ConnectionGone(rule, server, original, translated);
    });
}

IlbAppliance::~IlbAppliance()
{
    NS_LOG_FUNCTION(this);
}

void
IlbAppliance::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_cleanupEvent.Cancel();
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        RuleState& r = m_rules[i];
        for (uint32_t k = 0; k < r.servers.size(); ++k)
        {
            ServerState& s = r.servers[k];
            s.service->TraceDisconnect("StateChange",
                                       std::to_string(i) + " " + std::to_string(k),
                                       MakeCallback(&IlbAppliance::ServiceStateChanged, this));
            s.service->Dispose();
        }
        r.vserver->Dispose();
    }
    m_rules.clear();
    m_ruleSet.Clear();
    m_natSources.Clear();
    m_sticky.Clear();
    if (m_conns)
    {
        m_conns->Dispose();
    }
    AdcDatapath::DoDispose();
}

std::vector<std::string>
IlbAppliance::GetAlgorithmNames()
{
    return AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::ILB);
}

uint32_t
IlbAppliance::AddRule(const IlbRule& rule)
{
    NS_LOG_FUNCTION(this << rule.name);
    const uint32_t index = m_ruleSet.Add(rule, GetAlgorithmNames());
    const IlbRule& stored = m_ruleSet.Get(index);
    RuleState st;
    MakeServices(stored, index, st);
    if (m_rules.empty())
    {
        // ilb_rule_add -> ilb_conn_hash_init at the first rule: the cleanup timers start then.
        m_cleanupBase = Simulator::Now();
    }
    st.natTimeout = stored.natTimeout.IsStrictlyPositive()
                        ? stored.natTimeout
                        : IlbConnectionStore::GetDefaultNatTimeout(stored.protocol);
    if (stored.topology == IlbRule::FULL_NAT)
    {
        // illumos ilb_create_nat_src: each server gets a port space per NAT source address.
        for (uint32_t k = 0; k < stored.servers.size(); ++k)
        {
            const IlbServer& s = stored.servers[k];
            m_natSources.Bind(index,
                              k,
                              m_ruleSet.GetNatAddresses(index),
                              s.address,
                              s.port,
                              stored.natPorts);
        }
    }
    m_conns->SetCleanupInterval(m_cleanupInterval);
    m_conns->AddRule(stored.protocol, static_cast<uint32_t>(stored.servers.size()), st.natTimeout);
    m_rules.push_back(std::move(st));
    return index;
}

uint32_t
IlbAppliance::GetNRules() const
{
    return m_ruleSet.GetN();
}

const IlbRule&
IlbAppliance::Rule(uint32_t i) const
{
    return m_ruleSet.Get(i);
}

const IlbRule&
IlbAppliance::GetRule(uint32_t i) const
{
    if (i >= m_rules.size())
    {
        throw AdcConfigError("IlbAppliance: GetRule: rule index " + std::to_string(i) +
                             " is out of range (" + std::to_string(m_rules.size()) + " rules)");
    }
    return Rule(i);
}

int32_t
IlbAppliance::FindRule(const std::string& name) const
{
    return m_ruleSet.Find(name);
}

void
IlbAppliance::CheckIndex(uint32_t rule, uint32_t server, const char* what) const
{
    if (rule >= m_rules.size())
    {
        throw AdcConfigError("IlbAppliance: " + std::string(what) + ": rule index " +
                             std::to_string(rule) + " is out of range (" +
                             std::to_string(m_rules.size()) + " rules)");
    }
    if (server >= m_rules[rule].servers.size())
    {
        throw AdcConfigError("IlbAppliance: rule '" + Rule(rule).name + "' (#" +
                             std::to_string(rule) + "): " + what + ": server index " +
                             std::to_string(server) + " is out of range (" +
                             std::to_string(m_rules[rule].servers.size()) + " servers)");
    }
}

IlbAppliance::Counters
IlbAppliance::GetRuleCounters(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].counters;
}

IlbAppliance::Counters
IlbAppliance::GetServerCounters(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "GetServerCounters");
    return m_rules[rule].servers[server].counters;
}

uint64_t
IlbAppliance::GetNatExhausted(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].natExhausted;
}

uint32_t
IlbAppliance::GetActiveConnections(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "GetActiveConnections");
    return m_conns->CountServer(rule, server);
}

Ptr<AdcConnectionTable>
IlbAppliance::GetConnectionTable() const
{
    return m_conns->GetConnectionTable();
}

Ptr<IlbNatTable>
IlbAppliance::GetNatTable() const
{
    return m_conns->GetNatTable();
}

void
IlbAppliance::SetCompactIpv4Table(bool compact)
{
    const uint32_t n = m_conns->GetCount();
    if (compact != m_conns->GetCompactIpv4() && n != 0)
    {
        throw AdcConfigError("IlbAppliance: CompactIpv4Table '" +
                             std::string(compact ? "true" : "false") + "' cannot change while " +
                             std::to_string(n) +
                             " connections exist; allowed only before the first connection");
    }
    m_conns->SetCompactIpv4(compact);
}

bool
IlbAppliance::GetCompactIpv4Table() const
{
    return m_conns->GetCompactIpv4();
}

const IlbStickyTable&
IlbAppliance::GetStickyTable() const
{
    return m_sticky;
}

void
IlbAppliance::SetMaxConnections(uint32_t n)
{
    m_maxConnections = n;
    m_conns->SetMaxConnections(n);
}

uint32_t
IlbAppliance::GetMaxConnections() const
{
    return m_maxConnections;
}

int64_t
IlbAppliance::AssignStreams(int64_t /* stream */)
{
    return 0;
}

void
IlbAppliance::Print(std::ostream& os) const
{
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        const RuleState& r = m_rules[i];
        const IlbRule& rule = Rule(i);
        os << "#" << i << " " << rule.name << " " << rule.vip << ":" << rule.ports
           << (rule.protocol == AdcFlowKey::PROTO_TCP ? " tcp " : " udp ")
           << IlbRule::TopologyToString(rule.topology) << " " << rule.algorithm
           << (rule.sticky ? " sticky/" + std::to_string(rule.stickyPrefix) : "");
        if (rule.topology == IlbRule::FULL_NAT)
        {
            os << " nat " << rule.natSourceFirst << "-" << rule.natSourceLast << ":"
               << rule.natPorts;
        }
        os << " in=" << r.counters.packetsIn << " out=" << r.counters.packetsOut
           << " conns=" << r.counters.connections << " drops=" << r.counters.drops << "\n";
        for (uint32_t s = 0; s < rule.servers.size(); ++s)
        {
            const IlbServer& srv = rule.servers[s];
            os << "   " << srv.name << " " << srv.address << ":" << srv.port
               << (IsServerUp(i, s) ? " up" : " down") << (IsServerEnabled(i, s) ? "" : " disabled")
               << " active=" << GetActiveConnections(i, s) << "\n";
        }
    }
}

// ---------------------------------------------------------------------------------------------
// IlbAppliance: the engine

bool
IlbAppliance::Process(const AdcIngress& in, AdcEgress& egress)
{
    if (m_rules.empty())
    {
        return false;
    }
    if (in.status == AdcTransportStatus::NO_PORTS || in.status == AdcTransportStatus::FRAGMENT)
    {
        return ProcessNoPorts(in, egress); // ICMP and fragments: ilb-appliance-icmp.cc
    }
    if (in.status != AdcTransportStatus::OK)
    {
        // ilb_check returns ILB_DROPPED for a TCP/UDP header shorter than its minimum,
        // whatever the addresses; the model claims only what would be ILB traffic: a rule's
        // VIP or a NAT rule's response.
        int32_t server = -1;
        int32_t rule = m_ruleSet.MatchVip(in.flow);
        if (rule < 0)
        {
            rule = m_ruleSet.MatchOrphan(in.flow, false, server);
        }
        if (rule < 0)
        {
            return false;
        }
        Drop(rule, server, in.packet, AdcTransportDropReason(in.status));
        return true;
    }
    const Time now = Simulator::Now();
    Conn c;
    if (m_conns->Find(in.flow, false, now, c))
    {
        // ilb_check_conn, "Fast path": any entry, closing, reset or idle, until the cleanup
        // removes it; a new SYN on the same 5-tuple is port reuse (update_conn_tcp).
        return ProcessRequest(c, in, egress);
    }
    if (m_conns->Find(in.flow, true, now, c))
    {
        return ProcessResponse(c, in, egress);
    }
    // ilb_check: no connection, so the rule hash decides; "If not, just let IP decide what to
    // do with it" -- a server's packet without a connection (a direct client <-> server
    // connection through the ILB) is ordinary traffic too.
    const int32_t rule = m_ruleSet.Match(in.flow);
    if (rule < 0 || m_rules[rule].deleted)
    {
        return false; // ilb_rule_del took it out of the rule hash
    }
    RuleState& r = m_rules[rule];
    if (!r.enabled)
    {
        // ilb_rule_hash: "Just update the stats if the rule is disabled." ILB_PASSED.
        ++r.counters.packetsNotProcessed;
        r.counters.bytesNotProcessed += in.bytes;
        return false;
    }
    return ProcessNewFlow(static_cast<uint32_t>(rule), in, egress);
}

bool
IlbAppliance::Forward(uint32_t rule,
                      uint32_t server,
                      const AdcVerdict& v,
                      const AdcIngress& in,
                      bool request,
                      AdcEgress& egress)
{
    std::string reason = egress.Send(v);
    if (!reason.empty())
    {
        if (reason == "next-hop-not-on-link")
        {
            reason = "server-not-on-link"; // DSR only rewrites the MAC: servers are on-link
        }
        Drop(static_cast<int32_t>(rule), static_cast<int32_t>(server), in.packet, reason);
        return false;
    }
    Count(rule, server, in.bytes, request);
    if (v.action == AdcVerdict::REWRITE)
    {
        m_rewriteTrace(Rule(rule).name, request ? "request" : "response", in.flow, v.after);
    }
    return true;
}

bool
IlbAppliance::ProcessRequest(const Conn& c, const AdcIngress& in, AdcEgress& egress)
{
    // A server that failed its health check or was disabled keeps its connections (illumos:
    // ilb_check_conn does not look at the server's state); only conn-drain cuts them.
    const uint32_t rule = c.rule;
    m_ruleMatchTrace(Rule(rule).name, in.flow);
    if (c.original.protocol == AdcFlowKey::PROTO_TCP)
    {
        IlbConnectionStore::TrackTcp(c, IlbConnectionStore::FROM_CLIENT, in);
    }
    Forward(rule, c.server, AdcVerdict::Rewrite(c.translated), in, true, egress);
    return true;
}

bool
IlbAppliance::ProcessResponse(const Conn& c, const AdcIngress& in, AdcEgress& egress)
{
    if (c.original.protocol == AdcFlowKey::PROTO_TCP)
    {
        IlbConnectionStore::TrackTcp(c, IlbConnectionStore::FROM_SERVER, in);
    }
    // VIP:port -> client:port, for both NAT topologies (DSR keeps no entries)
    Forward(c.rule, c.server, AdcVerdict::Rewrite(c.original.Reversed()), in, false, egress);
    return true;
}

int32_t
IlbAppliance::ChooseServer(uint32_t rule,
                           const AdcFlowKey& flow,
                           Time now,
                           IlbStickyTable::Entry*& sticky)
{
    sticky = nullptr;
    RuleState& r = m_rules[rule];
    const IlbRule& config = Rule(rule);
    // ilb_check: "The packet matches a rule, use the rule load balance algorithm to find a
    // server" -- first, for every new flow, so round robin advances on sticky hits too.
    int32_t server = -1;
    if (r.alg)
    {
        server = r.alg->Select(flow); // rr_lb / hash_lb (ilb_alg_rr.c, ilb_alg_hash.c)
    }
    else
    {
        AdcLbContext ctx;
        ctx.flow = flow;
        const AdcSelection sel = r.vserver->Select(ctx, now);
        server = sel.service ? FindServer(rule, sel.service) : -1;
    }
    if (server < 0 || !config.sticky)
    {
        return server; // "!balanced: goto no_server"
    }
    // ilb_sticky_find_add, with the masked source (V6_MASK_COPY with ir_sticky_mask).
    const AdcIpAddress prefix = flow.src.Masked(config.stickyPrefix);
    IlbStickyTable::Entry* s = m_sticky.Lookup(rule, prefix);
    if (s && !IsAvailable(rule, s->server))
    {
        if (s->server == static_cast<uint32_t>(server))
        {
            return -1; // "just drop the packet" (the algorithm returned a disabled server)
        }
        s = nullptr; // "The old server is disabled ... use the new one": a new entry at the head
    }
    if (!s)
    {
        const bool fullNat = config.topology == IlbRule::FULL_NAT;
        const uint32_t natSource =
            fullNat ? m_natSources.NextStickySource(rule, static_cast<uint32_t>(server)) : 0;
        sticky = m_sticky.Add(rule,
                              prefix,
                              static_cast<uint32_t>(server),
                              natSource,
                              config.persistTimeout,
                              now);
        ScheduleCleanup();
        return server;
    }
    m_sticky.Hold(s); // s->refcnt++: the previous server wins over the algorithm's
    sticky = s;
    return static_cast<int32_t>(s->server);
}

bool
IlbAppliance::AllocateNat(uint32_t rule, const IlbStickyTable::Entry* sticky, Flow& flow)
{
    // illumos ilb_alloc_nat_addr over the chosen server's port spaces; a sticky flow passes
    // its entry's nat_src_idx: that address only ("If stickiness is enabled, use the same
    // source address").
    const auto nat = sticky ? m_natSources.AllocateAt(rule, flow.server, sticky->natSource)
                            : m_natSources.Allocate(rule, flow.server);
    if (!nat)
    {
        return false;
    }
    flow.natAddress = nat->first;
    flow.natPort = nat->second;
    return true;
}

AdcFlowKey
IlbAppliance::Translate(uint32_t rule,
                        uint32_t server,
                        const AdcFlowKey& flow,
                        const Flow& nat) const
{
    const IlbRule& r = Rule(rule);
    const IlbServer& s = r.servers[server];
    const uint16_t port = s.port != 0 ? s.port : flow.dstPort;
    switch (r.topology)
    {
    case IlbRule::DSR:
        return flow;
    case IlbRule::HALF_NAT:
        return AdcFlowKey(flow.src, s.address, flow.srcPort, port, flow.protocol);
    case IlbRule::FULL_NAT:
    default:
        return AdcFlowKey(nat.natAddress, s.address, nat.natPort, port, flow.protocol);
    }
}

bool
IlbAppliance::ProcessDsr(uint32_t rule, const AdcIngress& in, AdcEgress& egress)
{
    // illumos ilb_check: a DSR rule adds no connection entry, so every packet is balanced by
    // the rule's algorithm (and its sticky table) and forwarded to the server chosen.
    RuleState& r = m_rules[rule];
    const IlbRule& config = Rule(rule);
    const Time now = Simulator::Now();
    IlbStickyTable::Entry* sticky = nullptr;
    const int32_t server = ChooseServer(rule, in.flow, now, sticky);
    if (server < 0)
    {
        CountDropped(rule, in.bytes); // ilb_check, no_server
        Drop(static_cast<int32_t>(rule), -1, in.packet, "no-server-up");
        return true;
    }
    if (sticky)
    {
        // ilb_check, DSR: "By decrementing the sticky refcnt, the period of stickiness ...
        // will be from now to (now + default expiry time)."
        m_sticky.Release(sticky, now);
    }
    const auto userver = static_cast<uint32_t>(server);
    constexpr uint8_t kOpening =
        AdcTcpFlag::SYN | AdcTcpFlag::ACK | AdcTcpFlag::RST | AdcTcpFlag::FIN;
    if (in.flow.protocol == AdcFlowKey::PROTO_TCP && (in.tcpFlags & kOpening) == AdcTcpFlag::SYN)
    {
        ++r.counters.connections; // a connection is a pure SYN balanced (UDP: none)
        ++r.servers[userver].counters.connections;
    }
    m_serverChosenTrace(config.name, in.flow, userver, config.servers[userver].name);
    Forward(rule, userver, AdcVerdict::Forward(config.servers[userver].address), in, true, egress);
    return true;
}

bool
IlbAppliance::ProcessNewFlow(uint32_t rule, const AdcIngress& in, AdcEgress& egress)
{
    RuleState& r = m_rules[rule];
    const IlbRule& config = Rule(rule);
    const auto irule = static_cast<int32_t>(rule);
    m_ruleMatchTrace(config.name, in.flow);
    if (config.topology == IlbRule::DSR)
    {
        return ProcessDsr(rule, in, egress);
    }
    // Half-NAT and Full-NAT: any packet without an entry opens one, a TCP segment that is not
    // a SYN too (illumos ilb_check: "We create a cache even if it is not a SYN segment. The
    // server should return a RST."), so the server's RST is translated back to the client.
    const Time now = Simulator::Now();
    IlbStickyTable::Entry* sticky = nullptr;
    const int32_t server = ChooseServer(rule, in.flow, now, sticky);
    if (server < 0)
    {
        CountDropped(rule, in.bytes); // ilb_check, no_server
        Drop(irule, -1, in.packet, "no-server-up");
        return true;
    }
    const auto userver = static_cast<uint32_t>(server);
    Flow f;
    f.rule = rule;
    f.server = userver;
    f.lastSeen = now;
    if (config.topology == IlbRule::FULL_NAT && !AllocateNat(rule, sticky, f))
    {
        if (sticky)
        {
            m_sticky.Release(sticky, now); // "if (s != NULL) ilb_sticky_refrele(s)"
        }
        ++r.natExhausted;
        m_natExhaustedTrace(config.name);
        CountDropped(rule, in.bytes); // pkt_dropped and noport_pkt_dropped
        Drop(irule, server, in.packet, "nat-ports-exhausted");
        return true;
    }
    const AdcFlowKey translated = Translate(rule, userver, in.flow, f);
    const std::string refused = m_conns->Insert(in.flow, translated, f, now);
    if (!refused.empty())
    {
        if (f.natPort != 0)
        {
            m_natSources.Release(rule, userver, f.natAddress, f.natPort);
        }
        if (sticky)
        {
            m_sticky.Release(sticky, now); // ilb_conn_add's failure path refreles it
        }
        CountDropped(rule, in.bytes); // ilb_conn_add failed: pkt_dropped, nomem_pkt_dropped
        Drop(irule, server, in.packet, refused);
        return true;
    }
    ScheduleCleanup();
    ++r.counters.connections;
    ++r.servers[userver].counters.connections;
    m_serverChosenTrace(config.name, in.flow, userver, config.servers[userver].name);
    if (!Forward(rule, userver, AdcVerdict::Rewrite(translated), in, true, egress))
    {
        m_conns->Remove(in.flow);
    }
    return true;
}

void
IlbAppliance::ConnectionGone(uint32_t rule,
                             uint32_t server,
                             const AdcFlowKey& original,
                             const AdcFlowKey& translated)
{
    if (rule >= m_rules.size())
    {
        return; // disposed
    }
    m_connectionEndedTrace(Rule(rule).name, original);
    if (Rule(rule).sticky)
    {
        // ilb_conn_remove: "if (connp->conn_sticky != NULL) ILB_STICKY_REFRELE"
        m_sticky.Release(rule,
                         original.src.Masked(Rule(rule).stickyPrefix),
                         server,
                         Simulator::Now());
    }
    if (Rule(rule).topology != IlbRule::FULL_NAT)
    {
        return;
    }
    // Full-NAT: the translated source is the NAT address and port the flow held, the
    // destination its server.
    const std::vector<IlbServer>& servers = Rule(rule).servers;
    for (uint32_t k = 0; k < servers.size(); ++k)
    {
        if (servers[k].address == translated.dst &&
            (servers[k].port == 0 || servers[k].port == translated.dstPort) &&
            m_natSources.Release(rule, k, translated.src, translated.srcPort))
        {
            return;
        }
    }
}

void
IlbAppliance::CountDropped(uint32_t rule, uint32_t bytes)
{
    ++m_rules[rule].counters.pktDropped;
    m_rules[rule].counters.bytesDropped += bytes;
}

void
IlbAppliance::Count(uint32_t rule, uint32_t server, uint32_t bytes, bool in)
{
    for (Counters* c : {&m_rules[rule].counters, &m_rules[rule].servers[server].counters})
    {
        if (in)
        {
            ++c->packetsIn;
            c->bytesIn += bytes;
        }
        else
        {
            ++c->packetsOut;
            c->bytesOut += bytes;
        }
    }
}

void
IlbAppliance::Drop(int32_t rule,
                   int32_t server,
                   Ptr<const Packet> packet,
                   const std::string& reason)
{
    NS_LOG_LOGIC("drop (rule " << rule << ", server " << server << "): " << reason);
    if (rule >= 0)
    {
        RuleState& r = m_rules[rule];
        ++r.counters.drops;
        if (server >= 0)
        {
            ++r.servers[server].counters.drops;
        }
    }
    DropPacket(packet, reason);
}

} // namespace ns3
