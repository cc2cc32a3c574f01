/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ilb-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-isp-topology-helper.h"
#include "ns3/adc-port-range.h"
#include "ns3/boolean.h"
#include "ns3/csma-helper.h"
#include "ns3/enum.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-list-routing-helper.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6-routing-table-entry.h"
#include "ns3/ipv6-static-routing-helper.h"
#include "ns3/ipv6-static-routing.h"
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

// The address plan (see IlbHelper's documentation).
const Ipv4Address kClientBlock("10.1.0.0");
const Ipv4Mask kClientBlockMask("255.255.0.0");
const Ipv4Address kClientSideNet("10.0.0.0");
const Ipv4Address kReturnNet("10.0.0.4");
const Ipv4Mask kP2pMask("255.255.255.252");
const Ipv4Address kLanNet("192.168.100.0");
const Ipv4Mask kLanMask("255.255.255.0");
const Ipv4Mask kHostMask("255.255.255.255");
constexpr uint32_t kIlbHost = 1;
constexpr uint32_t kServerHost0 = 11;
constexpr uint32_t kServerRouterHost = 254;
constexpr uint16_t kClientGroup6 = 1;      // fd00:0:1:i::/64 per client link
constexpr uint16_t kClientSideSubnet6 = 1; // fd00:0:0:1::/64
constexpr uint16_t kReturnSubnet6 = 2;     // fd00:0:0:2::/64
constexpr uint16_t kLanSubnet6 = 0x100;    // fd00:0:0:100::/64

constexpr uint32_t kMaxClients = 16384; // /30s in the client /16
constexpr uint32_t kMaxServers = 64;
constexpr int16_t kIlbPriority = 100;

/// \return fd00:0:\p group:\p subnet::\p host
Ipv6Address
Addr6(uint16_t group, uint16_t subnet, uint32_t host)
{
    uint8_t b[16] = {0xfd, 0x00, 0x00, 0x00};
    b[4] = static_cast<uint8_t>(group >> 8);
    b[5] = static_cast<uint8_t>(group);
    b[6] = static_cast<uint8_t>(subnet >> 8);
    b[7] = static_cast<uint8_t>(subnet);
    for (int i = 0; i < 4; ++i)
    {
        b[15 - i] = static_cast<uint8_t>(host >> (8 * i));
    }
    return Ipv6Address(b);
}

/// \return \p net + \p offset
Ipv4Address
Plus(Ipv4Address net, uint32_t offset)
{
    return Ipv4Address(net.Get() + offset);
}

Ptr<Ipv4StaticRouting>
Static4(Ptr<Node> node)
{
    return Ipv4StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv4>());
}

Ptr<Ipv6StaticRouting>
Static6(Ptr<Node> node)
{
    return Ipv6StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv6>());
}

/// \brief Give \p dev an IPv4 interface with \p addr and bring it up. \return its index
uint32_t
AddIface4(Ptr<NetDevice> dev, Ipv4Address addr, Ipv4Mask mask)
{
    // Addresses are set directly (not through Ipv4AddressHelper) so that several topologies
    // can be built in one process without tripping the global address generator.
    Ptr<Ipv4> ipv4 = dev->GetNode()->GetObject<Ipv4>();
    int32_t i = ipv4->GetInterfaceForDevice(dev);
    if (i < 0)
    {
        i = ipv4->AddInterface(dev);
    }
    ipv4->AddAddress(i, Ipv4InterfaceAddress(addr, mask));
    ipv4->SetMetric(i, 1);
    ipv4->SetUp(i);
    return static_cast<uint32_t>(i);
}

/// \brief Give \p dev an IPv6 interface with \p addr (/64), bring it up. \return its index
uint32_t
AddIface6(Ptr<NetDevice> dev, Ipv6Address addr, bool forwarding)
{
    Ptr<Ipv6> ipv6 = dev->GetNode()->GetObject<Ipv6>();
    int32_t i = ipv6->GetInterfaceForDevice(dev);
    if (i < 0)
    {
        i = ipv6->AddInterface(dev);
    }
    ipv6->SetMetric(i, 1);
    ipv6->SetUp(i);
    ipv6->AddAddress(i, Ipv6InterfaceAddress(addr, Ipv6Prefix(64)));
    ipv6->SetForwarding(i, forwarding);
    return static_cast<uint32_t>(i);
}

/// \return the length of the longest prefix \p a and \p b share
uint8_t
CommonPrefix(const AdcIpAddress& a, const AdcIpAddress& b)
{
    const auto& x = a.GetBytes();
    const auto& y = b.GetBytes();
    uint8_t bits = 0;
    for (std::size_t i = 0; i < a.GetLength(); ++i)
    {
        const uint8_t diff = x[i] ^ y[i];
        if (diff == 0)
        {
            bits += 8;
            continue;
        }
        for (int bit = 7; bit >= 0 && ((diff >> bit) & 1) == 0; --bit)
        {
            ++bits;
        }
        break;
    }
    return bits;
}

/// \return \p a as a big-endian byte string compared lexicographically: a <= b
bool
NotAfter(const AdcIpAddress& a, const AdcIpAddress& b)
{
    return !(b < a);
}

/// \return true when \p a lies in \p net / \p len
bool
InPrefix(const AdcIpAddress& a, const AdcIpAddress& net, uint8_t len)
{
    return a.GetFamily() == net.GetFamily() && a.Masked(len) == net.Masked(len);
}

/// \return true when \p node owns \p a on any interface
bool
OwnsAddress(Ptr<Node> node, const AdcIpAddress& a)
{
    if (a.IsV4())
    {
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        return ipv4 && ipv4->GetInterfaceForAddress(a.GetIpv4()) >= 0;
    }
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    return ipv6 && ipv6->GetInterfaceForAddress(a.GetIpv6()) >= 0;
}

/// \return \p node's default gateway in the family of \p like (the unset address if none)
AdcIpAddress
DefaultGateway(Ptr<Node> node, const AdcIpAddress& like)
{
    if (like.IsV4())
    {
        Ptr<Ipv4StaticRouting> s = Static4(node);
        for (uint32_t i = 0; s && i < s->GetNRoutes(); ++i)
        {
            const Ipv4RoutingTableEntry r = s->GetRoute(i);
            if (r.IsDefault() || (r.GetDest() == Ipv4Address::GetAny() &&
                                  r.GetDestNetworkMask() == Ipv4Mask::GetZero()))
            {
                return r.GetGateway();
            }
        }
        return AdcIpAddress();
    }
    Ptr<Ipv6StaticRouting> s = Static6(node);
    for (uint32_t i = 0; s && i < s->GetNRoutes(); ++i)
    {
        const Ipv6RoutingTableEntry r = s->GetRoute(i);
        if (r.IsDefault() || (r.GetDest() == Ipv6Address::GetAny() &&
                              r.GetDestNetworkPrefix() == Ipv6Prefix::GetZero()))
        {
            return r.GetGateway();
        }
    }
    return AdcIpAddress();
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

/// Health monitor callback: the server follows its state in the rule.
void
FollowServer(Ptr<IlbAppliance> ilb,
             uint32_t rule,
             uint32_t index,
             AdcHealthMonitor::State,
             AdcHealthMonitor::State now)
{
    ilb->SetServerUp(rule, index, now != AdcHealthMonitor::State::DOWN);
}

std::string
Numbered(const std::string& prefix, uint32_t i)
{
    return prefix + std::to_string(i + 1);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// IlbTopology

uint32_t
IlbTopology::GetNClients() const
{
    return clients.GetN();
}

uint32_t
IlbTopology::GetNServers() const
{
    return servers.GetN();
}

Address
IlbTopology::GetVipSocketAddress() const
{
    if (vip.IsV6())
    {
        return Inet6SocketAddress(vip.GetIpv6(), vipPort);
    }
    return InetSocketAddress(vip.GetIpv4(), vipPort);
}

Address
IlbTopology::GetServerSocketAddress(uint32_t i) const
{
    if (i >= serverAddresses.size())
    {
        throw AdcConfigError(
            "IlbTopology: server " + std::to_string(i) +
            " does not exist (NumServers = " + std::to_string(serverAddresses.size()) + ")");
    }
    const AdcIpAddress& a = serverAddresses[i];
    if (a.IsV6())
    {
        return Inet6SocketAddress(a.GetIpv6(), serverPort);
    }
    return InetSocketAddress(a.GetIpv4(), serverPort);
}

Ptr<NetDevice>
IlbTopology::GetIlbClientSideDevice() const
{
    return links.at("client-side").Get(1);
}

Ptr<NetDevice>
IlbTopology::GetIlbServerLanDevice() const
{
    return links.at("server-lan").Get(0);
}

Ptr<NetDevice>
IlbTopology::GetServerDevice(uint32_t i) const
{
    if (i >= servers.GetN())
    {
        throw AdcConfigError("IlbTopology: server " + std::to_string(i) +
                             " does not exist (NumServers = " + std::to_string(servers.GetN()) +
                             ")");
    }
    return links.at("server-lan").Get(1 + i);
}

std::string
IlbTopology::NameOf(Ptr<Node> node) const
{
    auto it = names.find(node->GetId());
    return it == names.end() ? std::string() : it->second;
}

std::vector<std::string>
IlbTopology::GetLinkNames() const
{
    std::vector<std::string> out;
    for (const auto& [name, devs] : links)
    {
        out.push_back(name);
    }
    return out;
}

void
IlbTopology::EnablePcap(const std::string& prefix, const std::string& link) const
{
    auto it = links.find(link);
    if (it == links.end())
    {
        throw AdcConfigError::NotOneOf("IlbTopology", "pcap link", link, GetLinkNames());
    }
    if (link == "server-lan")
    {
        // One promiscuous capture at the ILB's port sees every frame of the shared segment,
        // DSR's rewritten destination MACs and the servers' direct responses included.
        CsmaHelper csma;
        csma.EnablePcap(prefix + "-" + link, it->second.Get(0), true);
        return;
    }
    PointToPointHelper p2p;
    p2p.EnablePcap(prefix + "-" + link, it->second);
}

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
                          "Server selection: roundrobin, hash-ip, hash-ip-port or hash-ip-vip.",
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
                          "Full-NAT source ports, \"FIRST-LAST\".",
                          StringValue("1024-65535"),
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
                          "The ILB's health check of the servers, wired to "
                          "IlbAppliance::SetServerUp: NONE, PING, TCP (connect to the server "
                          "port) or UDP (a datagram to it).",
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
    static const std::vector<std::string> names{"roundrobin",
                                                "hash-ip",
                                                "hash-ip-port",
                                                "hash-ip-vip"};
    return names;
}

AdcIpAddress
IlbHelper::ParseAddress(const std::string& text, bool v6, const std::string& setting)
{
    uint8_t buf[16];
    if (inet_pton(v6 ? AF_INET6 : AF_INET, text.c_str(), buf) != 1)
    {
        throw AdcConfigError("IlbHelper: " + setting + " '" + text + "' is not an " +
                             (v6 ? "IPv6" : "IPv4") + " address");
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
        throw AdcConfigError("IlbHelper: " + setting + " '" + text +
                             "' is empty: its first address comes after its last");
    }
    return {first, last};
}

uint16_t
IlbHelper::EffectiveServerPort() const
{
    return m_serverPort == 0 ? m_vipPort : m_serverPort;
}

namespace
{

/// What ValidateSettings checks addresses against.
using Prefixes = std::vector<std::pair<AdcIpAddress, uint8_t>>;

/// \param v6 the family \return the helper's own subnets in that family
Prefixes
OwnSubnets(bool v6)
{
    if (v6)
    {
        return {{Addr6(kClientGroup6, 0, 0), 48},
                {Addr6(0, kClientSideSubnet6, 0), 64},
                {Addr6(0, kReturnSubnet6, 0), 64},
                {Addr6(0, kLanSubnet6, 0), 64}};
    }
    return {{kClientBlock, 16}, {kClientSideNet, 29}, {kLanNet, 24}};
}

/**
 * \brief Throw when the addresses \p first..\p last touch a prefix ns-3 will not forward to or
 * one of the helper's own subnets.
 * \param what the setting and its value, for the message
 * \param first first address \param last last address
 * \param example a good value, for the message
 */
void
CheckRoutable(const std::string& what,
              const AdcIpAddress& first,
              const AdcIpAddress& last,
              const std::string& example)
{
    const AdcIpAddress documentation(Ipv6Address("2001:db8::"));
    if (InPrefix(first, documentation, 32) || InPrefix(last, documentation, 32))
    {
        throw AdcConfigError("IlbHelper: " + what +
                             " lies in the documentation prefix 2001:db8::/32, which ns-3's "
                             "routers refuse to forward: use e.g. " +
                             example);
    }
    for (const auto& [net, len] : OwnSubnets(first.IsV6()))
    {
        if (InPrefix(first, net, len) || InPrefix(last, net, len))
        {
            throw AdcConfigError("IlbHelper: " + what + " lies inside the helper's " +
                                 net.ToString() + "/" + std::to_string(len) +
                                 " (clients, links or server LAN): use e.g. " + example);
        }
    }
}

} // namespace

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
    const auto& algs = GetAlgorithmNames();
    if (std::find(algs.begin(), algs.end(), m_algorithm) == algs.end())
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
        const AdcIpAddress s = m_ipv6 ? AdcIpAddress(Addr6(0, kLanSubnet6, 0x11 + i))
                                      : AdcIpAddress(Plus(kLanNet, kServerHost0 + i));
        if (s == vip)
        {
            throw AdcConfigError("IlbHelper: " + setting + " " + vip.ToString() +
                                 " is the address of " + Numbered("server", i) +
                                 ": the VIP must not be a server's own address");
        }
    }
    // Inside one of the helper's subnets the VIP would be shadowed by a connected route.
    CheckRoutable(setting + " " + vip.ToString(),
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
    CheckRoutable(what, first, last, m_ipv6 ? "fd00:200::1-fd00:200::4" : "10.200.0.1-10.200.0.4");
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
    AssignAddresses(t);
    AddRoutes(t);
    if (m_topology == IlbRule::DSR)
    {
        ConfigureDsrServers(t);
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
    // Every node gets an MPI system id (0 here), so the topology stays partitionable for an
    // MPI-enabled ns-3 build.
    t.clients.Create(m_numClients, 0);
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
        t.names[t.clients.Get(i)->GetId()] = Numbered("client", i);
    }
    t.names[t.clientRouter->GetId()] = "client-router";
    t.names[t.ilb->GetId()] = "ilb";
    t.names[t.serverRouter->GetId()] = "server-router";
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        t.serverNames.push_back(Numbered("server", i));
        t.names[t.servers.Get(i)->GetId()] = t.serverNames.back();
    }

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", DataRateValue(m_clientRate));
    access.SetChannelAttribute("Delay", TimeValue(m_clientDelay));
    for (uint32_t i = 0; i < m_numClients; ++i)
    {
        t.links[Numbered("client", i)] = access.Install(t.clientRouter, t.clients.Get(i));
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
IlbHelper::AssignAddresses(IlbTopology& t)
{
    for (uint32_t i = 0; i < m_numClients; ++i)
    {
        const NetDeviceContainer& d = t.links[Numbered("client", i)];
        const Ipv4Address net = Plus(kClientBlock, 4 * i);
        AddIface4(d.Get(0), Plus(net, 1), kP2pMask);
        AddIface4(d.Get(1), Plus(net, 2), kP2pMask);
        if (m_ipv6)
        {
            AddIface6(d.Get(0), Addr6(kClientGroup6, i, 1), true);
            AddIface6(d.Get(1), Addr6(kClientGroup6, i, 2), false);
            t.clientAddresses.emplace_back(Addr6(kClientGroup6, i, 2));
        }
        else
        {
            t.clientAddresses.emplace_back(Plus(net, 2));
        }
    }
    const NetDeviceContainer& cs = t.links["client-side"];
    AddIface4(cs.Get(0), Plus(kClientSideNet, 1), kP2pMask);
    t.clientSideInterface = AddIface4(cs.Get(1), Plus(kClientSideNet, 2), kP2pMask);
    const NetDeviceContainer& rp = t.links["return-path"];
    AddIface4(rp.Get(0), Plus(kReturnNet, 1), kP2pMask);
    AddIface4(rp.Get(1), Plus(kReturnNet, 2), kP2pMask);

    const NetDeviceContainer& lan = t.links["server-lan"];
    t.serverLanInterface = AddIface4(lan.Get(0), Plus(kLanNet, kIlbHost), kLanMask);
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        AddIface4(lan.Get(1 + i), Plus(kLanNet, kServerHost0 + i), kLanMask);
    }
    AddIface4(lan.Get(1 + m_numServers), Plus(kLanNet, kServerRouterHost), kLanMask);

    if (!m_ipv6)
    {
        t.ilbLanAddress = Plus(kLanNet, kIlbHost);
        t.serverRouterLanAddress = Plus(kLanNet, kServerRouterHost);
        for (uint32_t i = 0; i < m_numServers; ++i)
        {
            t.serverAddresses.emplace_back(Plus(kLanNet, kServerHost0 + i));
        }
        return;
    }
    AddIface6(cs.Get(0), Addr6(0, kClientSideSubnet6, 1), true);
    AddIface6(cs.Get(1), Addr6(0, kClientSideSubnet6, 2), true);
    AddIface6(rp.Get(0), Addr6(0, kReturnSubnet6, 1), true);
    AddIface6(rp.Get(1), Addr6(0, kReturnSubnet6, 2), true);
    AddIface6(lan.Get(0), Addr6(0, kLanSubnet6, kIlbHost), true);
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        AddIface6(lan.Get(1 + i), Addr6(0, kLanSubnet6, 0x11 + i), false);
        t.serverAddresses.emplace_back(Addr6(0, kLanSubnet6, 0x11 + i));
    }
    AddIface6(lan.Get(1 + m_numServers), Addr6(0, kLanSubnet6, 0xfe), true);
    t.ilbLanAddress = Addr6(0, kLanSubnet6, kIlbHost);
    t.serverRouterLanAddress = Addr6(0, kLanSubnet6, 0xfe);
}

void
IlbHelper::AddRoutes(IlbTopology& t) const
{
    const bool viaIlb = m_ilbIsRouter || m_topology == IlbRule::HALF_NAT;
    // Full-NAT with the server router as gateway: the NAT range goes back through the ILB.
    NatRoute nat;
    if (m_topology == IlbRule::FULL_NAT && !viaIlb)
    {
        const auto [first, last] = ParseAddressRange(m_ipv6 ? m_natRange6 : m_natRange,
                                                     m_ipv6,
                                                     m_ipv6 ? "NatSourceRange6" : "NatSourceRange");
        nat.length = CommonPrefix(first, last);
        nat.network = first.Masked(nat.length);
    }
    AddRoutes4(t, viaIlb, nat);
    if (m_ipv6)
    {
        AddRoutes6(t, viaIlb, nat);
    }
}

void
IlbHelper::AddRoutes4(IlbTopology& t, bool viaIlb, const NatRoute& nat) const
{
    // Clients -> client router; client router -> VIP and server LAN via the ILB; ILB and
    // server router -> client router; servers -> their gateway.
    auto ifOf = [](Ptr<NetDevice> d) {
        return static_cast<uint32_t>(d->GetNode()->GetObject<Ipv4>()->GetInterfaceForDevice(d));
    };
    for (uint32_t i = 0; i < m_numClients; ++i)
    {
        const NetDeviceContainer& d = t.links.at(Numbered("client", i));
        Static4(t.clients.Get(i))->SetDefaultRoute(Plus(kClientBlock, 4 * i + 1), ifOf(d.Get(1)));
    }
    const NetDeviceContainer& cs = t.links.at("client-side");
    const NetDeviceContainer& lan = t.links.at("server-lan");
    Ptr<Ipv4StaticRouting> cr = Static4(t.clientRouter);
    const Ipv4Address ilbAddr = Plus(kClientSideNet, 2);
    if (t.vip.IsV4())
    {
        cr->AddHostRouteTo(t.vip.GetIpv4(), ilbAddr, ifOf(cs.Get(0)));
    }
    cr->AddNetworkRouteTo(kLanNet, kLanMask, ilbAddr, ifOf(cs.Get(0)));
    Static4(t.ilb)->SetDefaultRoute(Plus(kClientSideNet, 1), ifOf(cs.Get(1)));
    Static4(t.serverRouter)
        ->SetDefaultRoute(Plus(kReturnNet, 1), ifOf(t.links.at("return-path").Get(1)));
    const Ipv4Address gw = Plus(kLanNet, viaIlb ? kIlbHost : kServerRouterHost);
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        Ptr<Ipv4StaticRouting> s = Static4(t.servers.Get(i));
        const uint32_t iface = ifOf(lan.Get(1 + i));
        s->SetDefaultRoute(gw, iface);
        if (nat.network.IsV4())
        {
            s->AddNetworkRouteTo(nat.network.GetIpv4(),
                                 Ipv4Mask(nat.length == 0 ? 0 : ~0U << (32 - nat.length)),
                                 Plus(kLanNet, kIlbHost),
                                 iface);
        }
        if (!m_ipv6)
        {
            t.serverGateways.emplace_back(gw);
        }
    }
}

void
IlbHelper::AddRoutes6(IlbTopology& t, bool viaIlb, const NatRoute& nat) const
{
    auto ifOf = [](Ptr<NetDevice> d) {
        return static_cast<uint32_t>(d->GetNode()->GetObject<Ipv6>()->GetInterfaceForDevice(d));
    };
    for (uint32_t i = 0; i < m_numClients; ++i)
    {
        const NetDeviceContainer& d = t.links.at(Numbered("client", i));
        Static6(t.clients.Get(i))->SetDefaultRoute(Addr6(kClientGroup6, i, 1), ifOf(d.Get(1)));
    }
    const NetDeviceContainer& cs = t.links.at("client-side");
    const NetDeviceContainer& lan = t.links.at("server-lan");
    Ptr<Ipv6StaticRouting> cr = Static6(t.clientRouter);
    const Ipv6Address ilbAddr = Addr6(0, kClientSideSubnet6, 2);
    cr->AddHostRouteTo(t.vip.GetIpv6(), ilbAddr, ifOf(cs.Get(0)));
    cr->AddNetworkRouteTo(Addr6(0, kLanSubnet6, 0), Ipv6Prefix(64), ilbAddr, ifOf(cs.Get(0)));
    Static6(t.ilb)->SetDefaultRoute(Addr6(0, kClientSideSubnet6, 1), ifOf(cs.Get(1)));
    Static6(t.serverRouter)
        ->SetDefaultRoute(Addr6(0, kReturnSubnet6, 1), ifOf(t.links.at("return-path").Get(1)));
    const Ipv6Address gw = Addr6(0, kLanSubnet6, viaIlb ? kIlbHost : 0xfe);
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        Ptr<Ipv6StaticRouting> s = Static6(t.servers.Get(i));
        const uint32_t iface = ifOf(lan.Get(1 + i));
        s->SetDefaultRoute(gw, iface);
        if (nat.network.IsV6())
        {
            s->AddNetworkRouteTo(nat.network.GetIpv6(),
                                 Ipv6Prefix(nat.length),
                                 Addr6(0, kLanSubnet6, kIlbHost),
                                 iface);
        }
        t.serverGateways.emplace_back(gw);
    }
}

void
IlbHelper::ConfigureDsrServers(IlbTopology& t) const
{
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        Ptr<Node> s = t.servers.Get(i);
        if (t.vip.IsV4())
        {
            s->GetObject<Ipv4>()->AddAddress(0, Ipv4InterfaceAddress(t.vip.GetIpv4(), kHostMask));
        }
        else
        {
            Ptr<Ipv6> ipv6 = s->GetObject<Ipv6>();
            ipv6->AddAddress(0, Ipv6InterfaceAddress(t.vip.GetIpv6(), Ipv6Prefix(128)));
            // Accept the VIP on the LAN interface although it lives on the loopback (the
            // weak end-system model, as Linux and Solaris hosts use for DSR).
            ipv6->SetAttribute("StrongEndSystemModel", BooleanValue(false));
        }
    }
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
    AdcAddTopIpv4Routing(t.ilb, t.appliance->GetIpv4Routing(), kIlbPriority);
    if (m_ipv6)
    {
        AdcAddTopIpv6Routing(t.ilb, t.appliance->GetIpv6Routing(), kIlbPriority);
    }
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
    for (uint32_t i = 0; i < m_numServers; ++i)
    {
        m->AddTarget(t.serverAddresses[i], t.serverPort, t.serverNames[i]);
    }
    m->Validate();
    m->SetStateChangeCallback(MakeBoundCallback(&FollowServer, t.appliance, t.rule));
    m->SetStartTime(Seconds(0));
    t.ilb->AddApplication(m);
    t.monitor = m;
}

void
IlbHelper::Validate(const IlbTopology& topo)
{
    for (uint32_t i = 0; i < topo.servers.GetN(); ++i)
    {
        Ptr<Node> s = topo.servers.Get(i);
        const std::string name =
            i < topo.serverNames.size() ? topo.serverNames[i] : Numbered("server", i);
        const std::string where = name + " (" + topo.serverAddresses.at(i).ToString() + ")";
        if (topo.serverAddresses[i] == topo.vip)
        {
            throw AdcConfigError("IlbHelper: VIP " + topo.vip.ToString() + " is the address of " +
                                 where + ": the VIP must not be a server's own address");
        }
        if (topo.ruleConfig.topology == IlbRule::DSR)
        {
            if (!OwnsAddress(s, topo.vip))
            {
                throw AdcConfigError("IlbHelper: DSR back-end " + where + " does not own the VIP " +
                                     topo.vip.ToString() +
                                     ": in DSR only the destination MAC is rewritten, so every "
                                     "back-end must hold the VIP on its loopback");
            }
            if (topo.serverPort != topo.vipPort)
            {
                throw AdcConfigError("IlbHelper: DSR back-end " + where + " serves on port " +
                                     std::to_string(topo.serverPort) + ", not the VIP port " +
                                     std::to_string(topo.vipPort));
            }
        }
        if (topo.ruleConfig.topology == IlbRule::HALF_NAT)
        {
            const AdcIpAddress gw = DefaultGateway(s, topo.vip);
            if (gw != topo.ilbLanAddress)
            {
                throw AdcConfigError("IlbHelper: Half-NAT back-end " + where +
                                     " has default gateway '" +
                                     (gw.IsNone() ? std::string("none") : gw.ToString()) +
                                     "', not the ILB " + topo.ilbLanAddress.ToString() +
                                     ": its responses would bypass the ILB and never be "
                                     "translated back");
            }
        }
    }
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
