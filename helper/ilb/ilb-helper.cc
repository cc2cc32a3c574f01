/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ilb-helper.h"

#include "ilb-address-plan.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/csma-helper.h"
#include "ns3/enum.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <arpa/inet.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IlbHelper");

NS_OBJECT_ENSURE_REGISTERED(IlbHelper);

namespace
{

constexpr uint32_t kMaxClients = 16384; // /30s in the client /16
constexpr uint32_t kMaxServers = 64;

/// \return \p a as a big-endian byte string compared lexicographically: a <= b
bool
NotAfter(const AdcIpAddress& a, const AdcIpAddress& b)
{
    return !(b < a);
}

/// Take a server down (all interfaces but the loopback, both families).
void
ServerDown(Ptr<Node> node)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    for (uint32_t i = 1; ipv4 && i < ipv4->GetNInterfaces(); ++i)
    {
        ipv4->SetDown(i);
    }
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    for (uint32_t i = 1; ipv6 && i < ipv6->GetNInterfaces(); ++i)
    {
        ipv6->SetDown(i);
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// IlbHelper

TypeId
IlbHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IlbHelper")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<IlbHelper>()
            .AddAttribute("NumClients",
                          "Clients, each on its own point-to-point link to the client router "
                          "(1..16384).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&IlbHelper::m_numClients),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NumServers",
                          "Back-end servers on the server LAN, all in the rule (1..64).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&IlbHelper::m_numServers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Topology",
                          "How the ILB forwards a request: DSR (destination MAC only), "
                          "HALF_NAT (destination IP and port) or FULL_NAT (source and "
                          "destination IP and port).",
                          EnumValue(IlbRule::HALF_NAT),
                          MakeEnumAccessor(&IlbHelper::m_topology),
                          MakeEnumChecker(IlbRule::DSR,
                                          "DSR",
                                          IlbRule::HALF_NAT,
                                          "HALF_NAT",
                                          IlbRule::FULL_NAT,
                                          "FULL_NAT"))
            .AddAttribute("Protocol",
                          "The rule's transport protocol.",
                          EnumValue(IlbHelper::TCP),
                          MakeEnumAccessor(&IlbHelper::m_protocol),
                          MakeEnumChecker(IlbHelper::TCP, "TCP", IlbHelper::UDP, "UDP"))
            .AddAttribute("Ipv6",
                          "The rule, the VIP and the client load are IPv6 (every link is "
                          "dual-stack).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IlbHelper::m_ipv6),
                          MakeBooleanChecker())
            .AddAttribute("Algorithm",
                          "Server selection: roundrobin, hash-ip, hash-ip-port or hash-ip-vip "
                          "(illumos's own hashes), or rendezvous-hash-ip[-port|-vip] or maglev. "
                          "A DSR rule keeps no connection state and balances every packet, as "
                          "illumos does: with roundrobin one connection's packets spread over "
                          "the servers, so pair DSR with a hash algorithm or sticky.",
                          StringValue("roundrobin"),
                          MakeStringAccessor(&IlbHelper::m_algorithm),
                          MakeStringChecker())
            .AddAttribute("RuleName",
                          "The rule's name.",
                          StringValue("rule1"),
                          MakeStringAccessor(&IlbHelper::m_ruleName),
                          MakeStringChecker())
            .AddAttribute("Vip",
                          "The IPv4 virtual IP (Ipv6 false).",
                          StringValue("10.100.0.10"),
                          MakeStringAccessor(&IlbHelper::m_vip),
                          MakeStringChecker())
            .AddAttribute(
                "Vip6",
                "The IPv6 virtual IP (Ipv6 true). Not in 2001:db8::/32: ns-3 routers drop "
                "packets to the documentation prefix.",
                StringValue("fd00:100::10"),
                MakeStringAccessor(&IlbHelper::m_vip6),
                MakeStringChecker())
            .AddAttribute("VipPort",
                          "The rule's port (1..65535).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&IlbHelper::m_vipPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("ServerPort",
                          "The port the servers listen on; 0 = VipPort. Half-NAT and Full-NAT "
                          "rewrite the destination port to it; DSR cannot (it must be 0 or "
                          "VipPort).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IlbHelper::m_serverPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("NatSourceRange",
                          "Full-NAT source addresses (IPv4), \"FIRST-LAST\" or one address. "
                          "Servers route the range to the ILB.",
                          StringValue("10.200.0.1-10.200.0.4"),
                          MakeStringAccessor(&IlbHelper::m_natRange),
                          MakeStringChecker())
            .AddAttribute("NatSourceRange6",
                          "Full-NAT source addresses (IPv6), \"FIRST-LAST\" or one address.",
                          StringValue("fd00:200::1-fd00:200::4"),
                          MakeStringAccessor(&IlbHelper::m_natRange6),
                          MakeStringChecker())
            .AddAttribute("NatPorts",
                          "Full-NAT source ports, \"FIRST-LAST\": each (NAT source, server) pair "
                          "has its own space of them. Default illumos's 4096-65534 "
                          "(ilb_nat.c NAT_PORT_START, NAT_PORT_SIZE).",
                          StringValue("4096-65534"),
                          MakeStringAccessor(&IlbHelper::m_natPorts),
                          MakeStringChecker())
            .AddAttribute("IlbIsRouter",
                          "The ILB is the servers' default gateway in every topology (in DSR "
                          "the responses are then routed through it, unchanged).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IlbHelper::m_ilbIsRouter),
                          MakeBooleanChecker())
            .AddAttribute("Sticky",
                          "Sticky sessions: a client (prefix) keeps its server.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IlbHelper::m_sticky),
                          MakeBooleanChecker())
            .AddAttribute("StickyPrefix",
                          "IPv4 prefix length of the sticky key (0..32).",
                          UintegerValue(32),
                          MakeUintegerAccessor(&IlbHelper::m_stickyPrefix),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("StickyPrefix6",
                          "IPv6 prefix length of the sticky key (0..128).",
                          UintegerValue(128),
                          MakeUintegerAccessor(&IlbHelper::m_stickyPrefix6),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PersistTimeout",
                          "Lifetime of a sticky entry.",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&IlbHelper::m_persistTimeout),
                          MakeTimeChecker())
            .AddAttribute("NatTimeout",
                          "Idle time of a NAT entry (0: the connection table's default).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&IlbHelper::m_natTimeout),
                          MakeTimeChecker())
            .AddAttribute("ConnDrainTimeout",
                          "How long a disabled server keeps its connections (0: none).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&IlbHelper::m_connDrainTimeout),
                          MakeTimeChecker())
            .AddAttribute("ClientDataRate",
                          "Rate of each client's link.",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&IlbHelper::m_clientRate),
                          MakeDataRateChecker())
            .AddAttribute("ClientDelay",
                          "Delay of each client's link.",
                          TimeValue(MilliSeconds(2)),
                          MakeTimeAccessor(&IlbHelper::m_clientDelay),
                          MakeTimeChecker())
            .AddAttribute("Partitions",
                          "MPI partition plan, 1..64 ranks: with more than one, client i runs "
                          "on rank i % (Partitions - 1) + 1 and the routers, the ILB and the "
                          "servers on rank 0; the client links (ClientDelay > 0) are the cut "
                          "links.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&IlbHelper::m_partitions),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CoreDataRate",
                          "Rate of the \"client-side\" and \"return-path\" links.",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&IlbHelper::m_coreRate),
                          MakeDataRateChecker())
            .AddAttribute("CoreDelay",
                          "Delay of the \"client-side\" and \"return-path\" links.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&IlbHelper::m_coreDelay),
                          MakeTimeChecker())
            .AddAttribute("ServerLanDataRate",
                          "Rate of the server LAN (CSMA).",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&IlbHelper::m_lanRate),
                          MakeDataRateChecker())
            .AddAttribute("ServerLanDelay",
                          "Delay of the server LAN.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&IlbHelper::m_lanDelay),
                          MakeTimeChecker())
            .AddAttribute("InstallIlb",
                          "Install the ILB on its node. false keeps the node a plain router: "
                          "the same topology as a baseline in which clients address the "
                          "servers directly (no appliance, rule or health check).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&IlbHelper::m_installIlb),
                          MakeBooleanChecker())
            .AddAttribute("HealthCheck",
                          "The ILB's health check of the servers, bound to each server's "
                          "service (IlbAppliance::GetServerService): NONE, PING, TCP (connect "
                          "to the server port) or UDP (a datagram to it).",
                          EnumValue(IlbHelper::HC_NONE),
                          MakeEnumAccessor(&IlbHelper::m_healthCheck),
                          MakeEnumChecker(IlbHelper::HC_NONE,
                                          "NONE",
                                          IlbHelper::HC_PING,
                                          "PING",
                                          IlbHelper::HC_TCP,
                                          "TCP",
                                          IlbHelper::HC_UDP,
                                          "UDP"))
            .AddAttribute("HealthCheckInterval",
                          "Time between two probes of a server.",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&IlbHelper::m_hcInterval),
                          MakeTimeChecker())
            .AddAttribute("HealthCheckTimeout",
                          "A probe without an answer by then failed (< HealthCheckInterval).",
                          TimeValue(MilliSeconds(500)),
                          MakeTimeAccessor(&IlbHelper::m_hcTimeout),
                          MakeTimeChecker())
            .AddAttribute("HealthCheckRetries",
                          "Failed probes in a row before a server is DOWN (>= 1).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&IlbHelper::m_hcRetries),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

IlbHelper::IlbHelper()
    : m_numClients(10),
      m_numServers(3),
      m_topology(IlbRule::HALF_NAT),
      m_protocol(TCP),
      m_ipv6(false),
      m_vipPort(80),
      m_serverPort(0),
      m_ilbIsRouter(false),
      m_sticky(false),
      m_stickyPrefix(32),
      m_stickyPrefix6(128),
      m_installIlb(true),
      m_healthCheck(HC_NONE),
      m_hcRetries(2)
{
}

IlbHelper::~IlbHelper() = default;

void
IlbHelper::DoDispose()
{
    Object::DoDispose();
}

const std::vector<std::string>&
IlbHelper::GetAlgorithmNames()
{
    // ilbadm's names of the methods, as the registry spells them.
    static const std::vector<std::string> names =
        AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::ILB);
    return names;
}

AdcIpAddress
IlbHelper::ParseAddress(const std::string& text, bool v6, const std::string& setting)
{
    uint8_t buf[16];
    if (inet_pton(v6 ? AF_INET6 : AF_INET, text.c_str(), buf) != 1)
    {
        throw AdcConfigError("IlbHelper: " + setting + " '" + AdcText::Printable(text) +
                             "' is not an " + (v6 ? "IPv6" : "IPv4") + " address");
    }
    if (v6)
    {
        return AdcIpAddress(Ipv6Address(buf));
    }
    return AdcIpAddress(Ipv4Address::Deserialize(buf));
}

std::pair<AdcIpAddress, AdcIpAddress>
IlbHelper::ParseAddressRange(const std::string& text, bool v6, const std::string& setting)
{
    if (text.find_first_not_of(" \t") == std::string::npos)
    {
        throw AdcConfigError("IlbHelper: " + setting +
                             " is empty: Full-NAT needs at least one NAT source address "
                             "(\"FIRST-LAST\" or one address)");
    }
    // IPv6 addresses hold no '-', so the first '-' separates the two ends in both families.
    const std::size_t dash = text.find('-');
    auto trim = [](std::string s) {
        const std::size_t a = s.find_first_not_of(" \t");
        const std::size_t b = s.find_last_not_of(" \t");
        return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
    };
    const std::string firstText = trim(text.substr(0, dash));
    const std::string lastText =
        dash == std::string::npos ? firstText : trim(text.substr(dash + 1));
    const AdcIpAddress first = ParseAddress(firstText, v6, setting);
    const AdcIpAddress last = ParseAddress(lastText, v6, setting);
    if (!NotAfter(first, last))
    {
        throw AdcConfigError("IlbHelper: " + setting + " '" + AdcText::Printable(text) +
                             "' is empty: its first address comes after its last");
    }
    return {first, last};
}

uint16_t
IlbHelper::EffectiveServerPort() const
{
    return m_serverPort == 0 ? m_vipPort : m_serverPort;
}

void
IlbHelper::ValidateSettings() const
{
    CheckCounts();
    const AdcIpAddress vip = CheckVip();
    if (m_topology == IlbRule::FULL_NAT)
    {
        CheckNat(vip);
    }
    const uint8_t maxPrefix = m_ipv6 ? 128 : 32;
    const uint8_t prefix = m_ipv6 ? m_stickyPrefix6 : m_stickyPrefix;
    if (prefix > maxPrefix)
    {
        throw AdcConfigError(
            std::string("IlbHelper: ") + (m_ipv6 ? "StickyPrefix6 " : "StickyPrefix ") +
            std::to_string(prefix) + " is out of range; allowed 0.." + std::to_string(maxPrefix));
    }
    CheckHealthCheck();
}

void
IlbHelper::CheckCounts() const
{
    const std::string who = "IlbHelper: ";
    if (m_numServers == 0 || m_numServers > kMaxServers)
    {
        throw AdcConfigError(who + "NumServers " + std::to_string(m_numServers) +
                             (m_numServers == 0 ? " would give a rule without servers" : "") +
                             "; allowed 1.." + std::to_string(kMaxServers));
    }
    if (m_numClients == 0 || m_numClients > kMaxClients)
    {
        throw AdcConfigError(who + "NumClients " + std::to_string(m_numClients) +
                             " is out of range; allowed 1.." + std::to_string(kMaxClients));
    }
    if (m_partitions == 0 || m_partitions > 64)
    {
        throw AdcConfigError(who + "Partitions " + std::to_string(m_partitions) +
                             " is out of range; allowed 1..64 (MPI ranks)");
    }
    if (m_partitions > 1 && !m_clientDelay.IsStrictlyPositive())
    {
        throw AdcConfigError(who + "ClientDelay 0 with Partitions " + std::to_string(m_partitions) +
                             ": the client links cross ranks and need a delay (the lookahead)");
    }
    const auto& algs = GetAlgorithmNames();
    if (AdcText::Find(m_algorithm, algs, AdcText::INSENSITIVE) < 0)
    {
        throw AdcConfigError::NotOneOf("IlbHelper", "Algorithm", m_algorithm, algs);
    }
    if (m_vipPort == 0)
    {
        throw AdcConfigError(who + "VipPort 0 is not a port; allowed 1..65535");
    }
    if (m_topology == IlbRule::DSR && EffectiveServerPort() != m_vipPort)
    {
        throw AdcConfigError(who + "ServerPort " + std::to_string(m_serverPort) +
                             " differs from VipPort " + std::to_string(m_vipPort) +
                             ": DSR rewrites only the destination MAC, so the servers must "
                             "serve on the VIP port (set ServerPort 0 or " +
                             std::to_string(m_vipPort) + ")");
    }
    for (const auto& [name, rate] : {std::make_pair("ClientDataRate", m_clientRate),
                                     std::make_pair("CoreDataRate", m_coreRate),
                                     std::make_pair("ServerLanDataRate", m_lanRate)})
    {
        if (rate.GetBitRate() == 0)
        {
            throw AdcConfigError(who + name + " 0bps: a link needs a positive rate");
        }
    }
}

AdcIpAddress
IlbHelper::CheckVip() const
{
    const std::string setting = m_ipv6 ? "Vip6" : "Vip";
    const AdcIpAddress vip = ParseAddress(m_ipv6 ? m_vip6 : m_vip, m_ipv6, setting);
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        const AdcIpAddress s = IlbAddressPlan::GetServerAddress(i, m_ipv6);
        if (s == vip)
        {
            throw AdcConfigError("IlbHelper: " + setting + " " + vip.ToString() +
                                 " is the address of " + IlbTopology::Numbered("server", i) +
                                 ": the VIP must not be a server's own address");
        }
    }
    // Inside one of the helper's subnets the VIP would be shadowed by a connected route.
    IlbAddressPlan::CheckRoutable(setting + " " + vip.ToString(),
                                  vip,
                                  vip,
                                  m_ipv6 ? "fd00:100::10" : "10.100.0.10");
    return vip;
}

void
IlbHelper::CheckNat(const AdcIpAddress& vip) const
{
    const std::string setting = m_ipv6 ? "NatSourceRange6" : "NatSourceRange";
    const auto [first, last] =
        ParseAddressRange(m_ipv6 ? m_natRange6 : m_natRange, m_ipv6, setting);
    const std::string what = setting + " " + first.ToString() + "-" + last.ToString();
    if (NotAfter(first, vip) && NotAfter(vip, last))
    {
        throw AdcConfigError("IlbHelper: " + what + " holds the VIP " + vip.ToString() +
                             ": NAT source addresses must differ from the VIP");
    }
    IlbAddressPlan::CheckRoutable(what,
                                  first,
                                  last,
                                  m_ipv6 ? "fd00:200::1-fd00:200::4" : "10.200.0.1-10.200.0.4");
    try
    {
        AdcPortRange::Parse(m_natPorts);
    }
    catch (const AdcConfigError& e)
    {
        throw AdcConfigError(std::string("IlbHelper: NatPorts: ") + e.what());
    }
}

void
IlbHelper::CheckHealthCheck() const
{
    if (m_healthCheck == HC_NONE)
    {
        return;
    }
    const std::string who = "IlbHelper: ";
    if (!m_hcInterval.IsStrictlyPositive() || !m_hcTimeout.IsStrictlyPositive() ||
        m_hcTimeout >= m_hcInterval)
    {
        throw AdcConfigError(
            who + "HealthCheckTimeout " + std::to_string(m_hcTimeout.GetSeconds()) +
            " s and HealthCheckInterval " + std::to_string(m_hcInterval.GetSeconds()) +
            " s: need 0 < timeout < interval");
    }
    if ((m_healthCheck == HC_TCP && m_protocol != TCP) ||
        (m_healthCheck == HC_UDP && m_protocol != UDP))
    {
        const bool tcp = m_healthCheck == HC_TCP;
        throw AdcConfigError(who + "HealthCheck " + (tcp ? "TCP" : "UDP") +
                             " probes the servers' port " + std::to_string(EffectiveServerPort()) +
                             " over " + (tcp ? "TCP" : "UDP") + ", but Protocol is " +
                             (tcp ? "UDP" : "TCP") + ": allowed " + (tcp ? "UDP" : "TCP") +
                             ", PING or NONE");
    }
    if (m_hcRetries == 0)
    {
        throw AdcConfigError(who + "HealthCheckRetries 0: allowed >= 1");
    }
}

IlbTopology
IlbHelper::Build()
{
    NS_LOG_FUNCTION(this);
    ValidateSettings();
    IlbTopology t;
    t.ipv6 = m_ipv6;
    t.ilbIsRouter = m_ilbIsRouter;
    t.vip = ParseAddress(m_ipv6 ? m_vip6 : m_vip, m_ipv6, m_ipv6 ? "Vip6" : "Vip");
    t.vipPort = m_vipPort;
    t.serverPort = EffectiveServerPort();
    CreateNodesAndLinks(t);
    IlbAddressPlan::AssignAddresses(t);
    AddRoutes(t);
    if (m_topology == IlbRule::DSR)
    {
        IlbAddressPlan::ConfigureDsrServers(t);
    }
    t.ruleConfig = MakeRule(t);
    if (m_installIlb)
    {
        InstallIlb(t);
        InstallHealthCheck(t);
    }
    Validate(t);
    return t;
}

void
IlbHelper::CreateNodesAndLinks(IlbTopology& t) const
{
    // The MPI partition plan ("Partitions"): clients off rank 0, the rest on it.
    for (uint32_t i = 0; i < m_numClients; ++i)
    {
        t.clients.Create(1, m_partitions > 1 ? i % (m_partitions - 1) + 1 : 0);
    }
    t.clientRouter = CreateObject<Node>(0);
    t.ilb = CreateObject<Node>(0);
    t.serverRouter = CreateObject<Node>(0);
    t.servers.Create(m_numServers, 0);

    NodeContainer all(t.clients);
    all.Add(t.clientRouter);
    all.Add(t.ilb);
    all.Add(t.serverRouter);
    all.Add(t.servers);
    // Static routing inside a list on every node, so the ILB's protocol can sit above it.
    AdcMakeListStackHelper(m_ipv6).Install(all);
    if (m_ipv6)
    {
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            // The address plan is unique by construction: skip duplicate address detection,
            // which would leave every address tentative for the first second.
            all.Get(i)->GetObject<Icmpv6L4Protocol>()->SetAttribute("DAD", BooleanValue(false));
        }
    }

    for (uint32_t i = 0; i < m_numClients; ++i)
    {
        t.names[t.clients.Get(i)->GetId()] = IlbTopology::Numbered("client", i);
    }
    t.names[t.clientRouter->GetId()] = "client-router";
    t.names[t.ilb->GetId()] = "ilb";
    t.names[t.serverRouter->GetId()] = "server-router";
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        t.serverNames.push_back(IlbTopology::Numbered("server", i));
        t.names[t.servers.Get(i)->GetId()] = t.serverNames.back();
    }

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", DataRateValue(m_clientRate));
    access.SetChannelAttribute("Delay", TimeValue(m_clientDelay));
    for (uint32_t i = 0; i < m_numClients; ++i)
    {
        t.links[IlbTopology::Numbered("client", i)] =
            access.Install(t.clientRouter, t.clients.Get(i));
    }
    PointToPointHelper core;
    core.SetDeviceAttribute("DataRate", DataRateValue(m_coreRate));
    core.SetChannelAttribute("Delay", TimeValue(m_coreDelay));
    t.links["client-side"] = core.Install(t.clientRouter, t.ilb);
    t.links["return-path"] = core.Install(t.clientRouter, t.serverRouter);

    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", DataRateValue(m_lanRate));
    csma.SetChannelAttribute("Delay", TimeValue(m_lanDelay));
    NodeContainer lan(t.ilb);
    lan.Add(t.servers);
    lan.Add(t.serverRouter);
    t.links["server-lan"] = csma.Install(lan);
}

void
IlbHelper::AddRoutes(IlbTopology& t) const
{
    const bool viaIlb = m_ilbIsRouter || m_topology == IlbRule::HALF_NAT;
    // Full-NAT with the server router as gateway: the NAT range goes back through the ILB.
    IlbAddressPlan::NatRoute nat;
    if (m_topology == IlbRule::FULL_NAT && !viaIlb)
    {
        const auto [first, last] = ParseAddressRange(m_ipv6 ? m_natRange6 : m_natRange,
                                                     m_ipv6,
                                                     m_ipv6 ? "NatSourceRange6" : "NatSourceRange");
        nat = IlbAddressPlan::CoveringPrefix(first, last);
    }
    IlbAddressPlan::AddRoutes(t, viaIlb, nat);
}

IlbRule
IlbHelper::MakeRule(const IlbTopology& t) const
{
    IlbRule r;
    r.name = m_ruleName;
    r.vip = t.vip;
    r.protocol = static_cast<uint8_t>(m_protocol);
    r.ports = AdcPortRange(m_vipPort, m_vipPort);
    r.topology = m_topology;
    r.algorithm = m_algorithm;
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        IlbServer s;
        s.name = t.serverNames[i];
        s.address = t.serverAddresses[i];
        s.port = t.serverPort;
        s.weight = 1;
        r.servers.push_back(s);
    }
    if (m_topology == IlbRule::FULL_NAT)
    {
        const auto [first, last] = ParseAddressRange(m_ipv6 ? m_natRange6 : m_natRange,
                                                     m_ipv6,
                                                     m_ipv6 ? "NatSourceRange6" : "NatSourceRange");
        r.natSourceFirst = first;
        r.natSourceLast = last;
        r.natPorts = AdcPortRange::Parse(m_natPorts);
    }
    r.sticky = m_sticky;
    r.stickyPrefix = m_ipv6 ? m_stickyPrefix6 : m_stickyPrefix;
    r.persistTimeout = m_persistTimeout;
    r.natTimeout = m_natTimeout;
    r.connDrainTimeout = m_connDrainTimeout;
    return r;
}

void
IlbHelper::InstallIlb(IlbTopology& t) const
{
    t.appliance = CreateObject<IlbAppliance>();
    t.rule = t.appliance->AddRule(t.ruleConfig);
    // Aggregated to the ILB node: the appliance lives as long as the node, whatever becomes of
    // the returned IlbTopology.
    t.appliance->Install(t.ilb);
}

void
IlbHelper::InstallHealthCheck(IlbTopology& t) const
{
    if (m_healthCheck == HC_NONE)
    {
        return;
    }
    static const std::map<HealthCheck, std::pair<AdcHealthMonitor::ProbeType, std::string>> kinds{
        {HC_PING, {AdcHealthMonitor::PING, "ping"}},
        {HC_TCP, {AdcHealthMonitor::TCP, "tcp"}},
        {HC_UDP, {AdcHealthMonitor::UDP, "udp"}}};
    const auto& [type, name] = kinds.at(m_healthCheck);
    Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
    m->SetAttribute("Type", EnumValue(type));
    m->SetAttribute("Name", StringValue("ilb-" + name + "-" + m_ruleName));
    m->SetAttribute("Interval", TimeValue(m_hcInterval));
    m->SetAttribute("ResponseTimeout", TimeValue(m_hcTimeout));
    m->SetAttribute("Retries", UintegerValue(m_hcRetries));
    m->SetAttribute("DownTime", TimeValue(m_hcInterval));
    // Each server's service binds the monitor, which makes the server a target of it (in
    // server order, named after the server): the service's health is the monitor's verdict.
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        t.appliance->GetServerService(t.rule, i)->BindMonitor(m);
    }
    m->Validate();
    m->SetStartTime(Seconds(0));
    t.ilb->AddApplication(m);
    t.monitor = m;
}

void
IlbHelper::Validate(const IlbTopology& topo)
{
    IlbAddressPlan::Validate(topo);
}

void
IlbHelper::ScheduleServerFailure(const IlbTopology& topo, uint32_t index, Time at)
{
    if (index >= topo.servers.GetN())
    {
        throw AdcConfigError(
            "IlbHelper: server " + std::to_string(index) +
            " does not exist (NumServers = " + std::to_string(topo.servers.GetN()) + ")");
    }
    Simulator::Schedule(at, &ServerDown, topo.servers.Get(index));
}

} // namespace ns3
