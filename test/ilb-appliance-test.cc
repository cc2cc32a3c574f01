/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of IlbAppliance (Solaris ILB, seed 001): rule validation, rule matching, server choice,
 * DSR / Half-NAT / Full-NAT over TCP and UDP, IPv4 and IPv6, response rewriting, checksums,
 * sticky prefixes, draining, health, NAT port exhaustion, TCP close tracking, NAT timeouts and
 * malformed transport headers. Header fields are checked where the packets are received
 * (the nodes' Ipv4L3Protocol / Ipv6L3Protocol "Rx" traces, parsed) and by the applications.
 */

#include "adc-test-raw-packets.h"

#include "ns3/adc-config-error.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/ilb-appliance.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv6-address-generator.h"
#include "ns3/network-module.h"

#include <deque>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const AdcIpAddress kVip4(Ipv4Address("10.10.10.10"));
const AdcIpAddress kVip6(Ipv6Address("2001:9::9"));

/// \return the AdcConfigError message \p f throws, or "" when it throws none
std::string
ErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const AdcConfigError& e)
    {
        return e.what();
    }
    return "";
}

/// \return true when \p text contains \p part
bool
Has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

/// \return a socket address for \p a and \p port
Address
Sock(const AdcIpAddress& a, uint16_t port)
{
    return a.IsV4() ? Address(InetSocketAddress(a.GetIpv4(), port))
                    : Address(Inet6SocketAddress(a.GetIpv6(), port));
}

/// An address and port taken from a socket address.
struct Endpoint
{
    AdcIpAddress ip;  //!< address
    uint16_t port{0}; //!< port
};

/// \return the address and port of a socket address
Endpoint
Split(const Address& a)
{
    if (InetSocketAddress::IsMatchingType(a))
    {
        const InetSocketAddress s = InetSocketAddress::ConvertFrom(a);
        return {s.GetIpv4(), s.GetPort()};
    }
    if (Inet6SocketAddress::IsMatchingType(a))
    {
        const Inet6SocketAddress s = Inet6SocketAddress::ConvertFrom(a);
        return {s.GetIpv6(), s.GetPort()};
    }
    return {};
}

/// \return \p a as an ns-3 Address (checksum pseudo-header)
Address
PlainAddress(const AdcIpAddress& a)
{
    return a.IsV4() ? Address(a.GetIpv4()) : Address(a.GetIpv6());
}

// ---------------------------------------------------------------------------------------------
// What the wire carried

/// A packet seen by a node's IP layer.
struct Seen
{
    std::string where;     //!< node name (+ "/fwd" for forwarded packets)
    AdcFlowKey flow;       //!< 5-tuple (ports 0 when not TCP/UDP or too short)
    uint8_t ttl{0};        //!< TTL / hop limit
    uint16_t id{0};        //!< IPv4 identification (0 for IPv6)
    uint8_t tcpFlags{0};   //!< TCP flags
    bool checksumOk{true}; //!< transport checksum right (checked when checksums are enabled)
};

/// Records every IP packet some nodes receive or forward, with its parsed headers.
class Wire
{
  public:
    /// Record what \p node's IPv4 and IPv6 layers receive, as \p name.
    void WatchRx(Ptr<Node> node, const std::string& name)
    {
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [this, name](Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) {
                    Ptr<Packet> c = p->Copy();
                    Ipv4Header h;
                    c->RemoveHeader(h);
                    Add(name,
                        h.GetSource(),
                        h.GetDestination(),
                        h.GetProtocol(),
                        h.GetTtl(),
                        h.GetIdentification(),
                        c);
                }));
        node->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv6>, uint32_t>(
                [this, name](Ptr<const Packet> p, Ptr<Ipv6>, uint32_t) {
                    Ptr<Packet> c = p->Copy();
                    Ipv6Header h;
                    c->RemoveHeader(h);
                    Add(name,
                        h.GetSource(),
                        h.GetDestination(),
                        h.GetNextHeader(),
                        h.GetHopLimit(),
                        0,
                        c);
                }));
    }

    /// Record what \p node forwards (after the ILB's rewrite), as name + "/fwd".
    void WatchForward(Ptr<Node> node, const std::string& name)
    {
        const std::string where = name + "/fwd";
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "UnicastForward",
            Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(
                [this, where](const Ipv4Header& h, Ptr<const Packet> p, uint32_t) {
                    Add(where,
                        h.GetSource(),
                        h.GetDestination(),
                        h.GetProtocol(),
                        h.GetTtl(),
                        h.GetIdentification(),
                        p);
                }));
        node->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "UnicastForward",
            Callback<void, const Ipv6Header&, Ptr<const Packet>, uint32_t>(
                [this, where](const Ipv6Header& h, Ptr<const Packet> p, uint32_t) {
                    Add(where,
                        h.GetSource(),
                        h.GetDestination(),
                        h.GetNextHeader(),
                        h.GetHopLimit(),
                        0,
                        p);
                }));
    }

    /// \return the TCP/UDP packets (protocol \p protocol) seen at \p where
    std::vector<Seen> At(const std::string& where, uint8_t protocol) const
    {
        std::vector<Seen> out;
        for (const Seen& s : m_seen)
        {
            if (s.where == where && s.flow.protocol == protocol)
            {
                out.push_back(s);
            }
        }
        return out;
    }

  private:
    void Add(const std::string& where,
             AdcIpAddress src,
             AdcIpAddress dst,
             uint8_t protocol,
             uint8_t ttl,
             uint16_t id,
             Ptr<const Packet> payload)
    {
        Seen s;
        s.where = where;
        s.flow = AdcFlowKey(src, dst, 0, 0, protocol);
        s.ttl = ttl;
        s.id = id;
        const bool ports = protocol == 6 || protocol == 17;
        if (ports && payload->GetSize() >= 4)
        {
            uint8_t b[14] = {};
            payload->CopyData(b, std::min<uint32_t>(payload->GetSize(), 14));
            s.flow.srcPort = static_cast<uint16_t>((b[0] << 8) | b[1]);
            s.flow.dstPort = static_cast<uint16_t>((b[2] << 8) | b[3]);
            s.tcpFlags = protocol == 6 ? b[13] : 0;
        }
        if (ports && Node::ChecksumEnabled())
        {
            s.checksumOk = ChecksumOk(s.flow, payload);
        }
        m_seen.push_back(s);
    }

    /// \return true when the transport checksum is right for the packet's addresses
    static bool ChecksumOk(const AdcFlowKey& k, Ptr<const Packet> payload)
    {
        Ptr<Packet> c = payload->Copy();
        if (k.protocol == 6 && c->GetSize() >= 20)
        {
            TcpHeader h;
            h.EnableChecksums();
            h.InitializeChecksum(PlainAddress(k.src), PlainAddress(k.dst), 6);
            c->RemoveHeader(h);
            return h.IsChecksumOk();
        }
        if (k.protocol == 17 && c->GetSize() >= 8)
        {
            UdpHeader h;
            h.EnableChecksums();
            h.InitializeChecksum(PlainAddress(k.src), PlainAddress(k.dst), 17);
            c->RemoveHeader(h);
            return h.IsChecksumOk();
        }
        return false;
    }

    std::vector<Seen> m_seen; //!< everything, in order
};

// ---------------------------------------------------------------------------------------------
// Applications

/// What a UDP echo client got back.
struct EchoStats
{
    uint32_t replies{0};        //!< replies received
    std::vector<Endpoint> from; //!< their sources
};

/// TCP listeners that count bytes per accepted connection and close when the peer closes.
class TcpSinks
{
  public:
    /// One accepted connection.
    struct Conn
    {
        std::string at;    //!< node name
        Endpoint peer;     //!< the peer as seen by the server
        Endpoint local;    //!< the server's own end (GetSockName)
        uint64_t bytes{0}; //!< bytes received
    };

    /// Listen on \p node (named \p name) at ANY:\p port.
    void Listen(Ptr<Node> node, const std::string& name, uint16_t port, bool v6)
    {
        Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        s->Bind(v6 ? Address(Inet6SocketAddress(Ipv6Address::GetAny(), port))
                   : Address(InetSocketAddress(Ipv4Address::GetAny(), port)));
        s->Listen();
        s->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            Callback<void, Ptr<Socket>, const Address&>(
                [this, name](Ptr<Socket> c, const Address& from) { Accept(c, from, name); }));
        m_sockets.push_back(s);
    }

    /// \param at node name, or "" for all \return bytes received there
    uint64_t Bytes(const std::string& at = "") const
    {
        uint64_t n = 0;
        for (const Conn& c : m_conns)
        {
            n += (at.empty() || c.at == at) ? c.bytes : 0;
        }
        return n;
    }

    /// \return the accepted connections, in order
    const std::deque<Conn>& Conns() const
    {
        return m_conns;
    }

  private:
    void Accept(Ptr<Socket> c, const Address& from, const std::string& name)
    {
        Conn conn;
        conn.at = name;
        conn.peer = Split(from);
        Address local;
        c->GetSockName(local);
        conn.local = Split(local);
        m_conns.push_back(conn);
        Conn* rec = &m_conns.back(); // deque: stable while we only push_back
        c->SetRecvCallback(Callback<void, Ptr<Socket>>([rec](Ptr<Socket> sock) {
            Address a;
            while (Ptr<Packet> p = sock->RecvFrom(a))
            {
                if (p->GetSize() == 0)
                {
                    break;
                }
                rec->bytes += p->GetSize();
            }
        }));
        // Close when the peer closes, so both FINs cross the ILB.
        c->SetCloseCallbacks(Callback<void, Ptr<Socket>>([](Ptr<Socket> s) { s->ShutdownSend(); }),
                             Callback<void, Ptr<Socket>>([](Ptr<Socket>) {}));
        m_sockets.push_back(c);
    }

    std::deque<Conn> m_conns;           //!< accepted connections
    std::vector<Ptr<Socket>> m_sockets; //!< keep sockets alive
};

/// What the appliance's trace sources reported.
struct IlbLog
{
    /// One "ServerChosen".
    struct Chosen
    {
        std::string rule; //!< rule
        AdcFlowKey flow;  //!< new flow
        uint32_t server;  //!< server index
        std::string name; //!< server name
    };

    /// One "Rewrite".
    struct Rewrite
    {
        std::string rule;      //!< rule
        std::string direction; //!< request / response
        AdcFlowKey before;     //!< as arrived
        AdcFlowKey after;      //!< as sent
    };

    std::vector<std::pair<std::string, AdcFlowKey>> matches; //!< "RuleMatch"
    std::vector<Chosen> chosen;                              //!< "ServerChosen"
    std::vector<Rewrite> rewrites;                           //!< "Rewrite"
    std::vector<std::string> drops;                          //!< "Drop" reasons
    std::vector<std::string> exhausted;                      //!< "NatExhausted"

    /// Connect to every trace source of \p app.
    void Attach(Ptr<IlbAppliance> app)
    {
        app->TraceConnectWithoutContext(
            "RuleMatch",
            Callback<void, const std::string&, const AdcFlowKey&>(
                [this](const std::string& r, const AdcFlowKey& f) { matches.emplace_back(r, f); }));
        app->TraceConnectWithoutContext(
            "ServerChosen",
            Callback<void, const std::string&, const AdcFlowKey&, uint32_t, const std::string&>(
                [this](const std::string& r,
                       const AdcFlowKey& f,
                       uint32_t s,
                       const std::string& n) {
                    chosen.push_back({r, f, s, n});
                }));
        app->TraceConnectWithoutContext("Rewrite",
                                        Callback<void,
                                                 const std::string&,
                                                 const std::string&,
                                                 const AdcFlowKey&,
                                                 const AdcFlowKey&>([this](const std::string& r,
                                                                           const std::string& d,
                                                                           const AdcFlowKey& b,
                                                                           const AdcFlowKey& a) {
                                            rewrites.push_back({r, d, b, a});
                                        }));
        app->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet>, const std::string& reason) { drops.push_back(reason); }));
        app->TraceConnectWithoutContext(
            "NatExhausted",
            Callback<void, const std::string&>(
                [this](const std::string& r) { exhausted.push_back(r); }));
    }

    /// \return how many drops had \p reason
    uint32_t Drops(const std::string& reason) const
    {
        return static_cast<uint32_t>(std::count(drops.begin(), drops.end(), reason));
    }

    /// \return the servers chosen for rule \p rule, in order
    std::vector<uint32_t> ServersOf(const std::string& rule) const
    {
        std::vector<uint32_t> out;
        for (const Chosen& c : chosen)
        {
            if (c.rule == rule)
            {
                out.push_back(c.server);
            }
        }
        return out;
    }
};

// ---------------------------------------------------------------------------------------------
// Topologies

/// Clients, one ILB and servers.
struct Topo
{
    Ptr<Node> ilb;                      //!< the ILB
    NodeContainer clients;              //!< clients
    NodeContainer servers;              //!< servers
    std::vector<AdcIpAddress> clientIp; //!< clients' addresses
    std::vector<AdcIpAddress> serverIp; //!< servers' addresses
    Ptr<IlbAppliance> app;              //!< the ILB's appliance, hooked in at priority 100
    bool v6{false};                     //!< IPv6 addressing
};

/**
 * \brief Build clients -- ILB -- servers: a client LAN and a server LAN (CSMA) with the ILB
 * as the router between them (clients' and servers' default route), or, with \p oneArm, a
 * single LAN where only the VIP is routed through the ILB (IPv4 only).
 * \param v6 IPv6 addressing (2001:1::/64, 2001:2::/64) instead of IPv4 (10.0.0.0/24, 10.1.0.0/24)
 * \param nClients clients
 * \param nServers servers
 * \param rate LAN data rate
 * \param oneArm one LAN
 * \return the topology
 */
Topo
Build(bool v6,
      uint32_t nClients,
      uint32_t nServers,
      const std::string& rate = "100Mbps",
      bool oneArm = false)
{
    Topo t;
    t.v6 = v6;
    t.ilb = CreateObject<Node>();
    t.clients.Create(nClients);
    t.servers.Create(nServers);
    InternetStackHelper stack;
    Ipv6ListRoutingHelper list6; // IPv6 needs a list for the ILB's hook
    Ipv6StaticRoutingHelper static6;
    list6.Add(static6, 0);
    stack.SetRoutingHelper(list6);
    stack.Install(t.ilb);
    stack.Install(t.clients);
    stack.Install(t.servers);

    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", StringValue(rate));
    csma.SetChannelAttribute("Delay", TimeValue(MicroSeconds(20)));
    NodeContainer lan1(t.ilb);
    lan1.Add(t.clients);
    if (oneArm)
    {
        lan1.Add(t.servers);
    }
    NetDeviceContainer d1 = csma.Install(lan1);
    NetDeviceContainer d2;
    if (!oneArm)
    {
        NodeContainer lan2(t.ilb);
        lan2.Add(t.servers);
        d2 = csma.Install(lan2);
    }
    Ipv4StaticRoutingHelper routing;
    if (!v6)
    {
        Ipv4AddressHelper a1("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer i1 = a1.Assign(d1);
        for (uint32_t c = 0; c < nClients; ++c)
        {
            t.clientIp.emplace_back(i1.GetAddress(1 + c));
            Ptr<Ipv4StaticRouting> r =
                routing.GetStaticRouting(t.clients.Get(c)->GetObject<Ipv4>());
            if (oneArm)
            {
                r->AddHostRouteTo(kVip4.GetIpv4(), i1.GetAddress(0), 1);
            }
            else
            {
                r->SetDefaultRoute(i1.GetAddress(0), 1);
            }
        }
        if (oneArm)
        {
            for (uint32_t s = 0; s < nServers; ++s)
            {
                t.serverIp.emplace_back(i1.GetAddress(1 + nClients + s));
            }
        }
        else
        {
            Ipv4AddressHelper a2("10.1.0.0", "255.255.255.0");
            Ipv4InterfaceContainer i2 = a2.Assign(d2);
            for (uint32_t s = 0; s < nServers; ++s)
            {
                t.serverIp.emplace_back(i2.GetAddress(1 + s));
                routing.GetStaticRouting(t.servers.Get(s)->GetObject<Ipv4>())
                    ->SetDefaultRoute(i2.GetAddress(0), 1);
            }
        }
    }
    else
    {
        Ipv6AddressHelper a1;
        a1.SetBase(Ipv6Address("2001:1::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer i1 = a1.Assign(d1);
        i1.SetForwarding(0, true);
        i1.SetDefaultRouteInAllNodes(0);
        for (uint32_t c = 0; c < nClients; ++c)
        {
            t.clientIp.emplace_back(i1.GetAddress(1 + c, 1));
        }
        Ipv6AddressHelper a2;
        a2.SetBase(Ipv6Address("2001:2::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer i2 = a2.Assign(d2);
        i2.SetForwarding(0, true);
        i2.SetDefaultRouteInAllNodes(0);
        for (uint32_t s = 0; s < nServers; ++s)
        {
            t.serverIp.emplace_back(i2.GetAddress(1 + s, 1));
        }
    }
    t.app = CreateObject<IlbAppliance>();
    t.app->Install(t.ilb); // aggregated, hooked at priority 100 in both list routings
    return t;
}

/// DSR: give \p node the VIP on its loopback, so it accepts and answers for it.
void
OwnVip(Ptr<Node> node, const AdcIpAddress& vip)
{
    if (vip.IsV4())
    {
        node->GetObject<Ipv4>()->AddAddress(0,
                                            Ipv4InterfaceAddress(vip.GetIpv4(), "255.255.255.255"));
        return;
    }
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    ipv6->SetAttribute("StrongEndSystemModel", BooleanValue(false));
    ipv6->AddAddress(0, Ipv6InterfaceAddress(vip.GetIpv6(), Ipv6Prefix(128)));
}

/// \return a rule with servers at \p servers (ports 0, names srv1, srv2, ...)
IlbRule
Rule(const std::string& name,
     const AdcIpAddress& vip,
     uint8_t protocol,
     uint16_t port,
     IlbRule::Topology topology,
     const std::vector<AdcIpAddress>& servers)
{
    IlbRule r;
    r.name = name;
    r.vip = vip;
    r.protocol = protocol;
    r.ports = AdcPortRange(port, port);
    r.topology = topology;
    for (std::size_t i = 0; i < servers.size(); ++i)
    {
        IlbServer s;
        s.name = "srv" + std::to_string(i + 1);
        s.address = servers[i];
        r.servers.push_back(s);
    }
    return r;
}

/// \return \p t's first two servers' addresses
std::vector<AdcIpAddress>
Two(const Topo& t)
{
    return {t.serverIp[0], t.serverIp[1]};
}

/// The scenario fixture: what the applications and traces record outlives Simulator::Destroy.
class IlbScenario : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Ipv4AddressGenerator::Reset();
        Ipv6AddressGenerator::Reset();
    }

    void TearDown() override
    {
        Simulator::Destroy();
        Config::SetGlobal("ChecksumEnabled", BooleanValue(false));
        Ipv4AddressGenerator::Reset();
        Ipv6AddressGenerator::Reset();
    }

    /// Start a UDP echo client on \p client to dst:port: \p n packets every \p interval.
    EchoStats& Echo(Ptr<Node> client,
                    const AdcIpAddress& dst,
                    uint16_t port,
                    uint32_t n,
                    Time start,
                    Time interval = MilliSeconds(100))
    {
        m_echo.emplace_back();
        EchoStats* stats = &m_echo.back();
        UdpEchoClientHelper h(PlainAddress(dst), port);
        h.SetAttribute("MaxPackets", UintegerValue(n));
        h.SetAttribute("Interval", TimeValue(interval));
        h.SetAttribute("PacketSize", UintegerValue(200));
        ApplicationContainer apps = h.Install(client);
        apps.Start(start);
        apps.Get(0)->TraceConnectWithoutContext(
            "RxWithAddresses",
            Callback<void, Ptr<const Packet>, const Address&, const Address&>(
                [stats](Ptr<const Packet>, const Address& from, const Address&) {
                    ++stats->replies;
                    stats->from.push_back(Split(from));
                }));
        return *stats;
    }

    /// UDP echo servers (bound to ANY) on \p node at \p port.
    static void EchoServer(Ptr<Node> node, uint16_t port)
    {
        UdpEchoServerHelper h(port);
        h.Install(node).Start(Seconds(0));
    }

    /// DSR: a UDP echo socket bound to VIP:port, so replies leave from the VIP.
    static void VipEchoServer(Ptr<Node> node, const AdcIpAddress& vip, uint16_t port)
    {
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        ASSERT_EQ(s->Bind(Sock(vip, port)), 0);
        s->SetRecvCallback(Callback<void, Ptr<Socket>>([](Ptr<Socket> sock) {
            Address from;
            while (Ptr<Packet> p = sock->RecvFrom(from))
            {
                sock->SendTo(p, 0, from);
            }
        }));
    }

    /// A TCP bulk transfer of \p bytes from \p client to dst:port starting at \p start.
    static void Bulk(Ptr<Node> client,
                     const AdcIpAddress& dst,
                     uint16_t port,
                     uint64_t bytes,
                     Time start)
    {
        BulkSendHelper h("ns3::TcpSocketFactory", Sock(dst, port));
        h.SetAttribute("MaxBytes", UintegerValue(bytes));
        h.SetAttribute("SendSize", UintegerValue(1000));
        h.Install(client).Start(start);
    }

    /// Watch the clients, servers and the ILB (received and forwarded) of \p t.
    void WatchAll(const Topo& t)
    {
        for (uint32_t c = 0; c < t.clients.GetN(); ++c)
        {
            m_wire.WatchRx(t.clients.Get(c), "C" + std::to_string(c + 1));
        }
        for (uint32_t s = 0; s < t.servers.GetN(); ++s)
        {
            m_wire.WatchRx(t.servers.Get(s), "S" + std::to_string(s + 1));
        }
        m_wire.WatchRx(t.ilb, "ILB");
        m_wire.WatchForward(t.ilb, "ILB");
        m_log.Attach(t.app);
    }

    /// Run until \p stop.
    static void Run(Time stop)
    {
        Simulator::Stop(stop);
        Simulator::Run();
    }

    Wire m_wire;                  //!< packets seen
    TcpSinks m_sinks;             //!< TCP servers
    std::deque<EchoStats> m_echo; //!< UDP clients
    IlbLog m_log;                 //!< appliance traces
};

// ---------------------------------------------------------------------------------------------
// Configuration

TEST(IlbApplianceConfig, ErrorsNameTheRuleAndTheField)
{
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    const AdcIpAddress s1(Ipv4Address("10.1.0.2"));
    const AdcIpAddress s2(Ipv4Address("10.1.0.3"));
    auto base = [&](const std::string& name) {
        return Rule(name, kVip4, 6, 80, IlbRule::HALF_NAT, {s1, s2});
    };

    IlbRule noServers = base("r-noservers");
    noServers.servers.clear();
    std::string e = ErrorOf([&] { ilb->AddRule(noServers); });
    EXPECT_TRUE(Has(e, "'r-noservers'") && Has(e, "servers")) << e;

    IlbRule vipIsServer = base("r-vipserver");
    vipIsServer.servers[1].address = kVip4;
    e = ErrorOf([&] { ilb->AddRule(vipIsServer); });
    EXPECT_TRUE(Has(e, "'r-vipserver'") && Has(e, "srv2") && Has(e, "overlap")) << e;

    IlbRule badAlg = base("r-alg");
    badAlg.algorithm = "leastconn";
    e = ErrorOf([&] { ilb->AddRule(badAlg); });
    EXPECT_TRUE(Has(e, "'r-alg'") && Has(e, "algorithm") && Has(e, "'leastconn'") &&
                Has(e, "roundrobin, hash-ip, hash-ip-port, hash-ip-vip"))
        << e;

    IlbRule icmp = base("r-proto");
    icmp.protocol = 1;
    e = ErrorOf([&] { ilb->AddRule(icmp); });
    EXPECT_TRUE(Has(e, "'r-proto'") && Has(e, "protocol '1'") && Has(e, "17 (UDP)")) << e;

    IlbRule longPrefix = base("r-prefix");
    longPrefix.stickyPrefix = 33;
    e = ErrorOf([&] { ilb->AddRule(longPrefix); });
    EXPECT_TRUE(Has(e, "'r-prefix'") && Has(e, "stickyPrefix /33") && Has(e, "0..32")) << e;

    IlbRule longPrefix6 =
        Rule("r-prefix6", kVip6, 6, 80, IlbRule::HALF_NAT, {Ipv6Address("2001:2::2")});
    longPrefix6.stickyPrefix = 129;
    e = ErrorOf([&] { ilb->AddRule(longPrefix6); });
    EXPECT_TRUE(Has(e, "'r-prefix6'") && Has(e, "stickyPrefix /129") && Has(e, "0..128")) << e;

    IlbRule family = base("r-family");
    family.servers[0].address = Ipv6Address("2001:2::2");
    e = ErrorOf([&] { ilb->AddRule(family); });
    EXPECT_TRUE(Has(e, "'r-family'") && Has(e, "srv1") && Has(e, "family")) << e;

    IlbRule noNat = base("r-nonat");
    noNat.topology = IlbRule::FULL_NAT;
    e = ErrorOf([&] { ilb->AddRule(noNat); });
    EXPECT_TRUE(Has(e, "'r-nonat'") && Has(e, "natSourceFirst/natSourceLast unset")) << e;

    IlbRule inverted = noNat;
    inverted.name = "r-inverted";
    inverted.natSourceFirst = Ipv4Address("10.20.0.9");
    inverted.natSourceLast = Ipv4Address("10.20.0.1");
    e = ErrorOf([&] { ilb->AddRule(inverted); });
    EXPECT_TRUE(Has(e, "'r-inverted'") && Has(e, "10.20.0.9-10.20.0.1") && Has(e, "empty")) << e;

    IlbRule natFamily = noNat;
    natFamily.name = "r-natfamily";
    natFamily.natSourceFirst = Ipv6Address("2001:99::1");
    natFamily.natSourceLast = Ipv6Address("2001:99::2");
    e = ErrorOf([&] { ilb->AddRule(natFamily); });
    EXPECT_TRUE(Has(e, "'r-natfamily'") && Has(e, "NAT range") && Has(e, "family")) << e;

    EXPECT_EQ(ilb->GetNRules(), 0u); // nothing half-added

    // Across rules: a VIP may not be another rule's server, nor a server another rule's VIP.
    ASSERT_EQ(ilb->AddRule(base("web")), 0u);
    IlbRule vipOnServer =
        Rule("r-cross1", s1, 17, 53, IlbRule::HALF_NAT, {Ipv4Address("10.1.0.9")});
    e = ErrorOf([&] { ilb->AddRule(vipOnServer); });
    EXPECT_TRUE(Has(e, "'r-cross1'") && Has(e, "vip 10.1.0.2") && Has(e, "'web'")) << e;
    IlbRule serverOnVip = Rule("r-cross2",
                               AdcIpAddress(Ipv4Address("10.10.10.11")),
                               6,
                               80,
                               IlbRule::HALF_NAT,
                               {kVip4});
    e = ErrorOf([&] { ilb->AddRule(serverOnVip); });
    EXPECT_TRUE(Has(e, "'r-cross2'") && Has(e, "address 10.10.10.10") && Has(e, "'web'") &&
                Has(e, "overlap"))
        << e;

    IlbRule overlap = base("r-ports");
    overlap.ports = AdcPortRange(70, 90);
    e = ErrorOf([&] { ilb->AddRule(overlap); });
    EXPECT_TRUE(Has(e, "'r-ports'") && Has(e, "70-90") && Has(e, "'web'")) << e;

    e = ErrorOf([&] { ilb->AddRule(base("web")); });
    EXPECT_TRUE(Has(e, "'web'") && Has(e, "already used")) << e;

    e = ErrorOf([&] { ilb->SetServerUp(0, 2, false); });
    EXPECT_TRUE(Has(e, "'web'") && Has(e, "server index 2")) << e;
    EXPECT_EQ(ilb->GetNRules(), 1u);

    // Valid: same VIP, other protocol; and a FULL_NAT rule on another port.
    IlbRule udp = Rule("dns", kVip4, 17, 53, IlbRule::FULL_NAT, {s1, s2});
    udp.natSourceFirst = Ipv4Address("10.20.0.1");
    udp.natSourceLast = Ipv4Address("10.20.0.4");
    EXPECT_EQ(ilb->AddRule(udp), 1u);
    EXPECT_EQ(ilb->GetNatPortAllocator(Ipv4Address("10.20.0.4"))->GetSize(), 65535u - 1024u + 1u);
    EXPECT_EQ(ilb->GetNatPortAllocator(Ipv4Address("10.20.0.5")), nullptr);
}

// ---------------------------------------------------------------------------------------------
// ILB-01: rule matching

TEST_F(IlbScenario, NonMatchingTrafficPassesUnchangedAndFiresNoRuleMatch)
{
    // REQ: ILB-01
    // S3 is not in the rule: the ILB routes the VIP to it as ordinary traffic (it owns the VIP
    // on its loopback), so traffic to the VIP that matches no rule still has a destination.
    Topo t = Build(false, 1, 3);
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    Ipv4StaticRoutingHelper routing;
    routing.GetStaticRouting(t.ilb->GetObject<Ipv4>())
        ->AddHostRouteTo(kVip4.GetIpv4(), t.serverIp[2].GetIpv4(), 2);
    OwnVip(t.servers.Get(2), kVip4);
    WatchAll(t);
    VipEchoServer(t.servers.Get(2), kVip4, 80);        // UDP to VIP:80: other protocol
    m_sinks.Listen(t.servers.Get(2), "S3", 81, false); // TCP to VIP:81: other port
    EchoServer(t.servers.Get(0), 7);                   // UDP to S1:7: other address
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false); // the matching traffic
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    const EchoStats& otherProto = Echo(t.clients.Get(0), kVip4, 80, 2, Seconds(1));
    const EchoStats& otherAddr = Echo(t.clients.Get(0), t.serverIp[0], 7, 2, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 81, 10000, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1.5));
    Run(Seconds(4));

    // Non-matching traffic arrived with the client's headers, unrewritten.
    EXPECT_EQ(otherProto.replies, 2u);
    EXPECT_EQ(otherAddr.replies, 2u);
    EXPECT_EQ(m_sinks.Bytes("S3"), 10000u);
    for (const Seen& s : m_wire.At("S3", 17))
    {
        EXPECT_EQ(s.flow.src, t.clientIp[0]);
        EXPECT_EQ(s.flow.dst, kVip4);
        EXPECT_EQ(s.flow.dstPort, 80);
    }
    for (const Seen& s : m_wire.At("S3", 6))
    {
        EXPECT_EQ(s.flow.dst, kVip4);
        EXPECT_EQ(s.flow.dstPort, 81);
    }
    EXPECT_FALSE(m_wire.At("S3", 6).empty());
    const std::vector<Seen> atS1 = m_wire.At("S1", 17);
    ASSERT_EQ(atS1.size(), 2u);
    for (const Seen& s : atS1)
    {
        EXPECT_EQ(s.flow.src, t.clientIp[0]);
        EXPECT_EQ(s.flow.dst, t.serverIp[0]);
        EXPECT_EQ(s.flow.dstPort, 7);
    }
    // RuleMatch fired for the matching traffic only.
    EXPECT_EQ(m_sinks.Bytes("S1") + m_sinks.Bytes("S2"), 10000u);
    ASSERT_FALSE(m_log.matches.empty());
    for (const auto& [rule, flow] : m_log.matches)
    {
        EXPECT_EQ(rule, "web");
        EXPECT_EQ(flow.dst, kVip4);
        EXPECT_EQ(flow.dstPort, 80);
        EXPECT_EQ(flow.protocol, 6);
    }
    EXPECT_EQ(m_log.chosen.size(), 1u);
    EXPECT_TRUE(m_log.drops.empty());
}

// ---------------------------------------------------------------------------------------------
// ILB-02: server choice

TEST_F(IlbScenario, RoundRobinAlternatesServersPerNewFlow)
{
    // REQ: ILB-02
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    for (int i = 0; i < 4; ++i)
    {
        Echo(t.clients.Get(0), kVip4, 53, 2, Seconds(1) + MilliSeconds(10 * i));
    }
    Run(Seconds(3));

    // Four flows of two packets: ServerChosen once per flow, alternating; RuleMatch per packet.
    EXPECT_EQ(m_log.ServersOf("dns"), (std::vector<uint32_t>{0, 1, 0, 1}));
    ASSERT_EQ(m_log.chosen.size(), 4u);
    EXPECT_EQ(m_log.chosen[0].name, "srv1");
    EXPECT_EQ(m_log.chosen[1].name, "srv2");
    std::set<uint16_t> ports;
    for (const auto& c : m_log.chosen)
    {
        ports.insert(c.flow.srcPort);
    }
    EXPECT_EQ(ports.size(), 4u); // four distinct flows
    EXPECT_EQ(m_log.matches.size(), 8u);
    EXPECT_EQ(t.app->GetServerCounters(0, 0).packetsIn, 4u);
    EXPECT_EQ(t.app->GetServerCounters(0, 1).packetsIn, 4u);
    EXPECT_EQ(t.app->GetRuleCounters(0).connections, 4u);
    EXPECT_EQ(m_wire.At("S1", 17).size(), 4u);
    EXPECT_EQ(m_wire.At("S2", 17).size(), 4u);
    for (const EchoStats& e : m_echo)
    {
        EXPECT_EQ(e.replies, 2u);
    }
}

TEST_F(IlbScenario, HashIpKeepsAClientOnOneServer)
{
    // REQ: ILB-02
    Topo t = Build(false, 2, 2);
    IlbRule rule = Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t));
    rule.algorithm = "hash-ip";
    t.app->AddRule(rule);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    for (int i = 0; i < 6; ++i)
    {
        Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1) + MilliSeconds(10 * i));
        Echo(t.clients.Get(1), kVip4, 53, 1, Seconds(1) + MilliSeconds(10 * i + 5));
    }
    Run(Seconds(3));

    ASSERT_EQ(m_log.chosen.size(), 12u);
    std::map<AdcIpAddress, std::set<uint32_t>> serversOf;
    std::map<AdcIpAddress, std::set<uint16_t>> portsOf;
    for (const auto& c : m_log.chosen)
    {
        serversOf[c.flow.src].insert(c.server);
        portsOf[c.flow.src].insert(c.flow.srcPort);
    }
    ASSERT_EQ(serversOf.size(), 2u);
    for (const auto& [client, servers] : serversOf)
    {
        EXPECT_EQ(servers.size(), 1u) << client; // six flows (six ports), one server
        EXPECT_EQ(portsOf[client].size(), 6u);
    }
    for (const EchoStats& e : m_echo)
    {
        EXPECT_EQ(e.replies, 1u);
    }
}

// ---------------------------------------------------------------------------------------------
// ILB-03: DSR

TEST_F(IlbScenario, DsrRewritesOnlyTheMacAndResponsesBypassTheIlb)
{
    // REQ: ILB-03
    // One LAN: only the VIP is routed through the ILB, so servers answer the client directly.
    Topo t = Build(false, 1, 2, "100Mbps", true);
    t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::DSR, Two(t)));
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::DSR, Two(t)));
    WatchAll(t);
    for (uint32_t s = 0; s < 2; ++s)
    {
        OwnVip(t.servers.Get(s), kVip4);
        VipEchoServer(t.servers.Get(s), kVip4, 53);
        m_sinks.Listen(t.servers.Get(s), "S" + std::to_string(s + 1), 80, false);
    }
    const EchoStats& e1 = Echo(t.clients.Get(0), kVip4, 53, 2, Seconds(1));
    const EchoStats& e2 = Echo(t.clients.Get(0), kVip4, 53, 2, Seconds(1.01));
    Bulk(t.clients.Get(0), kVip4, 80, 20000, Seconds(1.5));
    Run(Seconds(4));

    // At the servers: the client's packets with their IP and transport headers untouched
    // (same 5-tuple and identification as when they reached the ILB, TTL one lower).
    const std::vector<Seen> atIlb = m_wire.At("ILB", 17);
    uint32_t udpAtServers = 0;
    for (const char* name : {"S1", "S2"})
    {
        const std::vector<Seen> got = m_wire.At(name, 17);
        EXPECT_EQ(got.size(), 2u) << name; // roundrobin: one flow each
        udpAtServers += got.size();
        for (const Seen& s : got)
        {
            EXPECT_EQ(s.flow.src, t.clientIp[0]);
            EXPECT_EQ(s.flow.dst, kVip4);
            EXPECT_EQ(s.flow.dstPort, 53);
            auto same = std::find_if(atIlb.begin(), atIlb.end(), [&](const Seen& i) {
                return i.flow == s.flow && i.id == s.id;
            });
            ASSERT_NE(same, atIlb.end());
            EXPECT_EQ(s.ttl + 1, same->ttl);
        }
        for (const Seen& s : m_wire.At(name, 6))
        {
            EXPECT_EQ(s.flow.src, t.clientIp[0]);
            EXPECT_EQ(s.flow.dst, kVip4);
            EXPECT_EQ(s.flow.dstPort, 80);
        }
    }
    EXPECT_EQ(udpAtServers, 4u);
    // The responses come from VIP:port straight from the servers: the ILB never sees them.
    EXPECT_EQ(e1.replies + e2.replies, 4u);
    for (const EchoStats* e : {&e1, &e2})
    {
        for (const Endpoint& from : e->from)
        {
            EXPECT_EQ(from.ip, kVip4);
            EXPECT_EQ(from.port, 53);
        }
    }
    ASSERT_EQ(m_sinks.Conns().size(), 1u);
    EXPECT_EQ(m_sinks.Bytes(), 20000u);
    EXPECT_EQ(m_sinks.Conns()[0].local.ip, kVip4); // the server's end of the connection
    for (uint32_t r = 0; r < 2; ++r)
    {
        EXPECT_GT(t.app->GetRuleCounters(r).packetsIn, 0u);
        EXPECT_EQ(t.app->GetRuleCounters(r).packetsOut, 0u);
    }
    for (uint8_t proto : {6, 17})
    {
        for (const Seen& s : m_wire.At("ILB", proto))
        {
            EXPECT_NE(s.flow.src, kVip4);
        }
    }
    EXPECT_TRUE(m_log.rewrites.empty());
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_F(IlbScenario, DsrResponsesCrossTheIlbUnchangedWhenItIsTheRouter)
{
    // REQ: ILB-03
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::DSR, Two(t)));
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::DSR, Two(t)));
    WatchAll(t);
    for (uint32_t s = 0; s < 2; ++s)
    {
        OwnVip(t.servers.Get(s), kVip4);
        VipEchoServer(t.servers.Get(s), kVip4, 53);
        m_sinks.Listen(t.servers.Get(s), "S" + std::to_string(s + 1), 80, false);
    }
    const EchoStats& e1 = Echo(t.clients.Get(0), kVip4, 53, 3, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 80, 20000, Seconds(1.5));
    Run(Seconds(4));

    EXPECT_EQ(e1.replies, 3u);
    EXPECT_EQ(m_sinks.Bytes(), 20000u);
    // Every response the ILB forwarded left exactly as it arrived (TTL aside).
    const std::vector<Seen> in = m_wire.At("ILB", 17);
    uint32_t responses = 0;
    for (uint8_t proto : {6, 17})
    {
        const std::vector<Seen> arrived = m_wire.At("ILB", proto);
        for (const Seen& f : m_wire.At("ILB/fwd", proto))
        {
            if (f.flow.src != kVip4)
            {
                continue;
            }
            ++responses;
            EXPECT_EQ(f.flow.dst, t.clientIp[0]);
            EXPECT_EQ(f.flow.srcPort, proto == 6 ? 80 : 53);
            auto same = std::find_if(arrived.begin(), arrived.end(), [&](const Seen& a) {
                return a.flow == f.flow && a.id == f.id;
            });
            ASSERT_NE(same, arrived.end());
            EXPECT_EQ(f.ttl + 1, same->ttl);
        }
    }
    EXPECT_EQ(responses,
              t.app->GetRuleCounters(0).packetsOut + t.app->GetRuleCounters(1).packetsOut);
    EXPECT_EQ(t.app->GetRuleCounters(0).packetsOut, 3u);
    EXPECT_GT(t.app->GetRuleCounters(1).packetsOut, 0u);
    for (const Seen& s : m_wire.At("C1", 17))
    {
        EXPECT_EQ(s.flow.src, kVip4);
    }
    EXPECT_TRUE(m_log.rewrites.empty());
    // The ILB saw both FINs and the last ACK: the TCP connection entry is gone.
    EXPECT_EQ(t.app->GetActiveConnections(1, 0) + t.app->GetActiveConnections(1, 1), 0u);
}

// ---------------------------------------------------------------------------------------------
// ILB-04/05/06: NAT topologies over TCP and UDP, IPv4 and IPv6

/// What one NAT scenario checks, for both families.
struct NatCase
{
    bool v6;                    //!< family
    IlbRule::Topology topology; //!< HALF_NAT or FULL_NAT
};

class IlbNat : public IlbScenario
{
  protected:
    /**
     * \brief TCP rule (VIP:80; srv1 keeps port 80, srv2 listens on 8080) and UDP rule (VIP:53;
     * srv1 on 5353, srv2 keeps 53); two bulk transfers and two echo flows; checks at the
     * servers, at the client and of the ILB's rewrites.
     */
    void RunNat(const NatCase& c)
    {
        Topo t = Build(c.v6, 1, 2);
        const AdcIpAddress vip = c.v6 ? kVip6 : kVip4;
        const AdcIpAddress natFirst =
            c.v6 ? AdcIpAddress(Ipv6Address("2001:99::1")) : AdcIpAddress(Ipv4Address("10.20.0.1"));
        const AdcIpAddress natLast =
            c.v6 ? AdcIpAddress(Ipv6Address("2001:99::2")) : AdcIpAddress(Ipv4Address("10.20.0.2"));
        const AdcPortRange natPorts(20000, 20099);
        IlbRule tcp = Rule("web", vip, 6, 80, c.topology, Two(t));
        tcp.servers[1].port = 8080;
        IlbRule udp = Rule("dns", vip, 17, 53, c.topology, Two(t));
        udp.servers[0].port = 5353;
        for (IlbRule* r : {&tcp, &udp})
        {
            r->natSourceFirst = natFirst;
            r->natSourceLast = natLast;
            r->natPorts = natPorts;
        }
        t.app->AddRule(tcp);
        t.app->AddRule(udp);
        WatchAll(t);
        m_sinks.Listen(t.servers.Get(0), "S1", 80, c.v6);
        m_sinks.Listen(t.servers.Get(1), "S2", 8080, c.v6);
        EchoServer(t.servers.Get(0), 5353);
        EchoServer(t.servers.Get(1), 53);
        const Time start = Seconds(c.v6 ? 3 : 1); // IPv6: after duplicate address detection
        Bulk(t.clients.Get(0), vip, 80, 30000, start);
        Bulk(t.clients.Get(0), vip, 80, 30000, start + MilliSeconds(5));
        // (apart from the transfers' SYNs: a node queues at most 3 packets per unresolved
        // neighbour)
        const EchoStats& e1 = Echo(t.clients.Get(0), vip, 53, 2, start + MilliSeconds(300));
        const EchoStats& e2 = Echo(t.clients.Get(0), vip, 53, 2, start + MilliSeconds(305));
        Run(start + Seconds(3));

        const bool full = c.topology == IlbRule::FULL_NAT;
        std::set<AdcIpAddress> natSources;
        // Server side (ILB-04 / ILB-05): what each server received.
        const std::map<std::string, std::pair<uint16_t, uint16_t>> servicePorts = {
            {"S1", {80, 5353}},
            {"S2", {8080, 53}}};
        for (const auto& [name, ports] : servicePorts)
        {
            const AdcIpAddress self = t.serverIp[name == "S1" ? 0 : 1];
            for (uint8_t proto : {6, 17})
            {
                const std::vector<Seen> got = m_wire.At(name, proto);
                EXPECT_FALSE(got.empty()) << name << " proto " << int(proto);
                for (const Seen& s : got)
                {
                    EXPECT_EQ(s.flow.dst, self) << name;
                    EXPECT_EQ(s.flow.dstPort, proto == 6 ? ports.first : ports.second) << name;
                    if (full)
                    {
                        EXPECT_TRUE(LessEq(natFirst, s.flow.src) && LessEq(s.flow.src, natLast))
                            << s.flow;
                        EXPECT_TRUE(natPorts.Contains(s.flow.srcPort)) << s.flow;
                        natSources.insert(s.flow.src);
                    }
                    else
                    {
                        EXPECT_EQ(s.flow.src, t.clientIp[0]) << s.flow;
                    }
                }
            }
        }
        if (full)
        {
            EXPECT_EQ(natSources.size(), 2u); // round robin over the NAT source addresses
        }
        // Client side (ILB-06): every response comes from VIP:port.
        for (uint8_t proto : {6, 17})
        {
            const std::vector<Seen> got = m_wire.At("C1", proto);
            EXPECT_FALSE(got.empty());
            for (const Seen& s : got)
            {
                EXPECT_EQ(s.flow.src, vip);
                EXPECT_EQ(s.flow.srcPort, proto == 6 ? 80 : 53);
                EXPECT_EQ(s.flow.dst, t.clientIp[0]);
            }
        }
        EXPECT_EQ(e1.replies + e2.replies, 4u);
        for (const EchoStats* e : {&e1, &e2})
        {
            for (const Endpoint& from : e->from)
            {
                EXPECT_EQ(from.ip, vip);
                EXPECT_EQ(from.port, 53);
            }
        }
        // Transfers complete, one per server; the servers saw the client (or NAT) as peer.
        ASSERT_EQ(m_sinks.Conns().size(), 2u);
        EXPECT_EQ(m_sinks.Bytes("S1"), 30000u);
        EXPECT_EQ(m_sinks.Bytes("S2"), 30000u);
        for (const auto& conn : m_sinks.Conns())
        {
            EXPECT_EQ(conn.peer.ip == t.clientIp[0], !full) << conn.peer.ip;
        }
        // Both directions were rewritten.
        uint32_t requests = 0;
        uint32_t responses = 0;
        for (const auto& rw : m_log.rewrites)
        {
            if (rw.direction == "request")
            {
                ++requests;
                EXPECT_EQ(rw.before.dst, vip);
                EXPECT_EQ(rw.after.src == rw.before.src, !full);
            }
            else
            {
                ++responses;
                EXPECT_EQ(rw.direction, "response");
                EXPECT_EQ(rw.after.src, vip);
                EXPECT_EQ(rw.after.dst, t.clientIp[0]);
            }
        }
        EXPECT_EQ(requests,
                  t.app->GetRuleCounters(0).packetsIn + t.app->GetRuleCounters(1).packetsIn);
        EXPECT_EQ(responses,
                  t.app->GetRuleCounters(0).packetsOut + t.app->GetRuleCounters(1).packetsOut);
        EXPECT_TRUE(m_log.drops.empty()) << m_log.drops.size() << " drops";
        // TCP connections ended with FINs both ways: entries gone long before the 120 s idle
        // timeout; the UDP ones stay (idle timeout 60 s). Full-NAT ports of TCP were released.
        EXPECT_EQ(t.app->GetActiveConnections(0, 0) + t.app->GetActiveConnections(0, 1), 0u);
        EXPECT_EQ(t.app->GetActiveConnections(1, 0) + t.app->GetActiveConnections(1, 1), 2u);
        if (full)
        {
            EXPECT_EQ(t.app->GetNatPortAllocator(natFirst)->GetInUse() +
                          t.app->GetNatPortAllocator(natLast)->GetInUse(),
                      2u);
        }
    }

    /// \return true when a <= b (same family), byte by byte
    static bool LessEq(const AdcIpAddress& a, const AdcIpAddress& b)
    {
        return a == b || a < b;
    }
};

TEST_F(IlbNat, HalfNatIpv4TcpAndUdp)
{
    // REQ: ILB-04
    // REQ: ILB-06
    RunNat({false, IlbRule::HALF_NAT});
}

TEST_F(IlbNat, FullNatIpv4TcpAndUdp)
{
    // REQ: ILB-05
    // REQ: ILB-06
    RunNat({false, IlbRule::FULL_NAT});
}

TEST_F(IlbNat, HalfNatIpv6TcpAndUdp)
{
    // REQ: ILB-04
    // REQ: ILB-06
    RunNat({true, IlbRule::HALF_NAT});
}

TEST_F(IlbNat, FullNatIpv6TcpAndUdp)
{
    // REQ: ILB-05
    // REQ: ILB-06
    RunNat({true, IlbRule::FULL_NAT});
}

TEST_F(IlbScenario, DsrIpv6Udp)
{
    // REQ: ILB-03
    Topo t = Build(true, 1, 2);
    t.app->AddRule(Rule("dns6", kVip6, 17, 53, IlbRule::DSR, Two(t)));
    WatchAll(t);
    for (uint32_t s = 0; s < 2; ++s)
    {
        OwnVip(t.servers.Get(s), kVip6);
        VipEchoServer(t.servers.Get(s), kVip6, 53);
    }
    const EchoStats& e1 = Echo(t.clients.Get(0), kVip6, 53, 2, Seconds(3));
    const EchoStats& e2 = Echo(t.clients.Get(0), kVip6, 53, 2, Seconds(3.01));
    Run(Seconds(5));

    for (const char* name : {"S1", "S2"})
    {
        const std::vector<Seen> got = m_wire.At(name, 17);
        EXPECT_EQ(got.size(), 2u) << name;
        for (const Seen& s : got)
        {
            EXPECT_EQ(s.flow.src, t.clientIp[0]);
            EXPECT_EQ(s.flow.dst, kVip6);
            EXPECT_EQ(s.flow.dstPort, 53);
        }
    }
    EXPECT_EQ(e1.replies + e2.replies, 4u);
    for (const Endpoint& from : e1.from)
    {
        EXPECT_EQ(from.ip, kVip6);
    }
    EXPECT_TRUE(m_log.rewrites.empty());
}

// ---------------------------------------------------------------------------------------------
// Checksums

TEST_F(IlbScenario, ChecksumsStayRightThroughHalfNatAndFullNat)
{
    // REQ: ILB-04
    // REQ: ILB-05
    Config::SetGlobal("ChecksumEnabled", BooleanValue(true));
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("half", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    IlbRule full = Rule("full", kVip4, 6, 81, IlbRule::FULL_NAT, {t.serverIp[1]});
    full.natSourceFirst = Ipv4Address("10.20.0.1");
    full.natSourceLast = Ipv4Address("10.20.0.1");
    full.servers[0].port = 80;
    t.app->AddRule(full);
    WatchAll(t);
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 50000, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 81, 50000, Seconds(1));
    Run(Seconds(4));

    // The receivers verify checksums and drop bad segments: the bytes arrive only if right.
    EXPECT_EQ(m_sinks.Bytes("S1"), 50000u); // Half-NAT
    EXPECT_EQ(m_sinks.Bytes("S2"), 50000u); // Full-NAT
    for (const char* where : {"S1", "S2", "C1"})
    {
        const std::vector<Seen> got = m_wire.At(where, 6);
        EXPECT_FALSE(got.empty());
        for (const Seen& s : got)
        {
            EXPECT_TRUE(s.checksumOk) << where << " " << s.flow;
        }
    }
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_F(IlbScenario, ChecksumsStayRightThroughFullNatUdpIpv6)
{
    // REQ: ILB-05
    // REQ: ILB-06
    Config::SetGlobal("ChecksumEnabled", BooleanValue(true));
    Topo t = Build(true, 1, 2);
    IlbRule rule = Rule("dns6", kVip6, 17, 53, IlbRule::FULL_NAT, Two(t));
    rule.natSourceFirst = Ipv6Address("2001:99::1");
    rule.natSourceLast = Ipv6Address("2001:99::1");
    t.app->AddRule(rule);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    const EchoStats& e1 = Echo(t.clients.Get(0), kVip6, 53, 3, Seconds(3));
    const EchoStats& e2 = Echo(t.clients.Get(0), kVip6, 53, 3, Seconds(3.01));
    Run(Seconds(5));

    EXPECT_EQ(e1.replies + e2.replies, 6u);
    for (const char* where : {"S1", "S2", "C1"})
    {
        for (const Seen& s : m_wire.At(where, 17))
        {
            EXPECT_TRUE(s.checksumOk) << where << " " << s.flow;
        }
    }
}

TEST_F(IlbScenario, ClosedTcpEntryLingersTcpTimeWaitThenGoes)
{
    Topo t = Build(false, 1, 2);
    t.app->SetAttribute("TcpTimeWait", TimeValue(MilliSeconds(700)));
    IlbRule rule = Rule("web", kVip4, 6, 80, IlbRule::FULL_NAT, Two(t));
    rule.natSourceFirst = Ipv4Address("10.20.0.1");
    rule.natSourceLast = Ipv4Address("10.20.0.1");
    t.app->AddRule(rule);
    WatchAll(t);
    std::vector<Time> removed;
    t.app->TraceConnectWithoutContext("ConnectionEnded",
                                      Callback<void, const std::string&, const AdcFlowKey&>(
                                          [&removed](const std::string&, const AdcFlowKey&) {
                                              removed.push_back(Simulator::Now());
                                          }));
    std::vector<Time> seenAtIlb;
    t.ilb->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
            [&seenAtIlb](Ptr<const Packet>, Ptr<Ipv4>, uint32_t) {
                seenAtIlb.push_back(Simulator::Now());
            }));
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1));
    Run(Seconds(3));

    EXPECT_EQ(m_sinks.Bytes("S1"), 10000u);
    // The last packet through the ILB is the ACK of the second FIN; the entry goes exactly
    // TcpTimeWait later (not at the 120 s idle timeout), releasing its NAT port.
    ASSERT_EQ(removed.size(), 1u);
    ASSERT_FALSE(seenAtIlb.empty());
    EXPECT_EQ(removed[0], seenAtIlb.back() + MilliSeconds(700));
    EXPECT_EQ(t.app->GetNatPortAllocator(t.app->GetRule(0).natSourceFirst)->GetInUse(), 0u);
    EXPECT_TRUE(m_log.drops.empty());
}

// ---------------------------------------------------------------------------------------------
// Sticky sessions

TEST_F(IlbScenario, StickyPrefix24KeepsASubnetOnOneServerAndPrefix32DoesNot)
{
    // REQ: ILB-02
    Topo t = Build(false, 2, 2); // both clients in 10.0.0.0/24
    IlbRule by24 = Rule("sticky24", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t));
    by24.sticky = true;
    by24.stickyPrefix = 24;
    IlbRule by32 = Rule("sticky32", kVip4, 17, 54, IlbRule::HALF_NAT, Two(t));
    by32.sticky = true;
    by32.stickyPrefix = 32;
    t.app->AddRule(by24);
    t.app->AddRule(by32);
    WatchAll(t);
    for (uint32_t s = 0; s < 2; ++s)
    {
        EchoServer(t.servers.Get(s), 53);
        EchoServer(t.servers.Get(s), 54);
    }
    for (uint16_t port : {53, 54})
    {
        Echo(t.clients.Get(0), kVip4, port, 1, Seconds(1));
        Echo(t.clients.Get(1), kVip4, port, 1, Seconds(1.1));
        Echo(t.clients.Get(0), kVip4, port, 1, Seconds(1.2));
    }
    Run(Seconds(3));

    // /24: the first client's choice (roundrobin: server 0) holds for its whole /24.
    EXPECT_EQ(m_log.ServersOf("sticky24"), (std::vector<uint32_t>{0, 0, 0}));
    // /32: the second client is another key, so roundrobin gives it the other server; the
    // first client's new flow sticks to its server.
    EXPECT_EQ(m_log.ServersOf("sticky32"), (std::vector<uint32_t>{0, 1, 0}));
    EXPECT_EQ(t.app->GetPersistenceTable(0)->GetHits(), 2u);
    EXPECT_EQ(t.app->GetPersistenceTable(1)->GetHits(), 1u);
    for (const EchoStats& e : m_echo)
    {
        EXPECT_EQ(e.replies, 1u);
    }
}

// ---------------------------------------------------------------------------------------------
// Draining and health

TEST_F(IlbScenario, DrainingLetsAConnectionFinishAndSendsNewFlowsElsewhere)
{
    Topo t = Build(false, 1, 2, "5Mbps");
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 400000, Seconds(1)); // ~0.7 s at 5 Mb/s: to S1
    Simulator::Schedule(Seconds(1.2), &IlbAppliance::SetServerEnabled, t.app, 0, 0, false);
    uint32_t activeWhileDraining = 0;
    Simulator::Schedule(Seconds(1.3),
                        [&] { activeWhileDraining = t.app->GetActiveConnections(0, 0); });
    Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1.3));
    Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1.4));
    Run(Seconds(4));

    EXPECT_EQ(m_log.ServersOf("web"), (std::vector<uint32_t>{0, 1, 1}));
    EXPECT_EQ(activeWhileDraining, 1u);
    EXPECT_EQ(m_sinks.Bytes("S1"), 400000u); // the drained transfer ran to its end
    EXPECT_EQ(m_sinks.Bytes("S2"), 20000u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 0), 0u); // then its entry went with its FINs
    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 0u);
    EXPECT_TRUE(m_log.drops.empty())
        << (m_log.drops.empty() ? "" : m_log.drops[0]) << " " << m_log.drops.size();
}

TEST_F(IlbScenario, ConnDrainTimeoutCutsTheConnectionAndCountsIt)
{
    Topo t = Build(false, 1, 2, "5Mbps");
    IlbRule rule = Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t));
    rule.connDrainTimeout = MilliSeconds(200);
    t.app->AddRule(rule);
    WatchAll(t);
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 400000, Seconds(1));
    Simulator::Schedule(Seconds(1.2), &IlbAppliance::SetServerEnabled, t.app, 0, 0, false);
    Run(Seconds(3));

    EXPECT_GT(m_sinks.Bytes("S1"), 0u);
    EXPECT_LT(m_sinks.Bytes("S1"), 400000u); // cut at 1.4 s, before its end (~1.7 s)
    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 1u);
    EXPECT_EQ(t.app->GetServerCounters(0, 0).drained, 1u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 0), 0u);
    // The client's next segments have no connection and only a SYN opens one.
    EXPECT_GT(m_log.Drops("no-connection"), 0u);
    EXPECT_EQ(m_log.drops.size(), m_log.Drops("no-connection"));
}

TEST_F(IlbScenario, DownServerGetsNoNewFlowsAndItsFlowIsDroppedOnce)
{
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    // Flow A: packets at 1.0 .. 1.4 s; server 0 goes down at 1.25 s.
    const EchoStats& a = Echo(t.clients.Get(0), kVip4, 53, 5, Seconds(1));
    Simulator::Schedule(Seconds(1.25), &IlbAppliance::SetServerUp, t.app, 0, 0, false);
    const EchoStats& b = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.5));
    const EchoStats& c = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.6));
    Run(Seconds(3));

    // A's packet at 1.3 s hits the down server's entry: dropped ("server-down") and the entry
    // removed; its packet at 1.4 s is a new flow, to server 1. B and C avoid server 0.
    EXPECT_EQ(m_log.Drops("server-down"), 1u);
    EXPECT_EQ(m_log.drops.size(), 1u);
    EXPECT_EQ(m_log.ServersOf("dns"), (std::vector<uint32_t>{0, 1, 1, 1}));
    EXPECT_EQ(a.replies, 4u);
    EXPECT_EQ(b.replies, 1u);
    EXPECT_EQ(c.replies, 1u);
    EXPECT_EQ(m_wire.At("S1", 17).size(), 3u);
    EXPECT_EQ(t.app->GetServerCounters(0, 0).drops, 1u);
    EXPECT_EQ(t.app->GetServerCounters(0, 1).packetsIn, 3u);
}

// ---------------------------------------------------------------------------------------------
// Full-NAT port exhaustion, NAT timeout

TEST_F(IlbScenario, FullNatPortExhaustionDropsTheThirdFlow)
{
    // REQ: ILB-05
    Topo t = Build(false, 1, 2);
    IlbRule rule = Rule("dns", kVip4, 17, 53, IlbRule::FULL_NAT, Two(t));
    rule.natSourceFirst = Ipv4Address("10.20.0.1");
    rule.natSourceLast = Ipv4Address("10.20.0.1");
    rule.natPorts = AdcPortRange(5000, 5001);
    t.app->AddRule(rule);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    const EchoStats& a = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1));
    const EchoStats& b = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.1));
    const EchoStats& c = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.2));
    Run(Seconds(2));

    EXPECT_EQ(a.replies, 1u);
    EXPECT_EQ(b.replies, 1u);
    EXPECT_EQ(c.replies, 0u);
    EXPECT_EQ(m_log.Drops("nat-ports-exhausted"), 1u);
    EXPECT_EQ(m_log.exhausted, (std::vector<std::string>{"dns"}));
    EXPECT_EQ(t.app->GetNatExhausted(0), 1u);
    std::set<uint16_t> ports;
    for (const char* s : {"S1", "S2"})
    {
        for (const Seen& seen : m_wire.At(s, 17))
        {
            EXPECT_EQ(seen.flow.src, AdcIpAddress(Ipv4Address("10.20.0.1")));
            ports.insert(seen.flow.srcPort);
        }
    }
    EXPECT_EQ(ports, (std::set<uint16_t>{5000, 5001}));
}

TEST_F(IlbScenario, RuleNatTimeoutEndsAnIdleFlow)
{
    Topo t = Build(false, 1, 2);
    for (uint16_t port : {53, 54})
    {
        IlbRule rule =
            Rule(port == 53 ? "short" : "long", kVip4, 17, port, IlbRule::FULL_NAT, Two(t));
        rule.natSourceFirst = Ipv4Address(port == 53 ? "10.20.0.1" : "10.20.0.2");
        rule.natSourceLast = rule.natSourceFirst;
        rule.natTimeout = port == 53 ? MilliSeconds(800) : Seconds(2); // both below UDP's 60 s
        t.app->AddRule(rule);
        EchoServer(t.servers.Get(0), port);
        EchoServer(t.servers.Get(1), port);
    }
    WatchAll(t);
    // One flow per rule (one socket each): a packet every second, idle ~1 s in between.
    const EchoStats& shortFlow = Echo(t.clients.Get(0), kVip4, 53, 3, Seconds(1), Seconds(1));
    const EchoStats& longFlow = Echo(t.clients.Get(0), kVip4, 54, 3, Seconds(1), Seconds(1));
    Run(Seconds(4));

    // 0.8 s: each packet finds its entry idle too long, so it is a new flow (roundrobin);
    // 2 s: one flow throughout.
    EXPECT_EQ(m_log.ServersOf("short"), (std::vector<uint32_t>{0, 1, 0}));
    EXPECT_EQ(m_log.ServersOf("long"), (std::vector<uint32_t>{0}));
    EXPECT_EQ(shortFlow.replies, 3u);
    EXPECT_EQ(longFlow.replies, 3u);
    // The idle entries' NAT ports went back: one port in use per rule.
    EXPECT_EQ(t.app->GetNatPortAllocator(Ipv4Address("10.20.0.1"))->GetInUse(), 1u);
    EXPECT_EQ(t.app->GetNatPortAllocator(Ipv4Address("10.20.0.2"))->GetInUse(), 1u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 0) + t.app->GetActiveConnections(0, 1), 1u);
}

// ---------------------------------------------------------------------------------------------
// Malformed transport headers

TEST_F(IlbScenario, TruncatedAndMalformedTransportHeadersToAVipAreDropped)
{
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    auto sendRaw = [&](uint8_t protocol, std::vector<uint8_t> bytes, AdcIpAddress dst, Time at) {
        Ptr<Socket> s = Socket::CreateSocket(t.clients.Get(0), Ipv4RawSocketFactory::GetTypeId());
        s->SetAttribute("Protocol", UintegerValue(protocol));
        Simulator::Schedule(at, [s, bytes, dst] {
            s->SendTo(Create<Packet>(bytes.data(), bytes.size()),
                      0,
                      InetSocketAddress(dst.GetIpv4(), 0));
        });
    };
    std::vector<uint8_t> tcpShort = {0x30, 0x39};
    std::vector<uint8_t> tcpBadOffset(20, 0);
    tcpBadOffset[2] = 0;
    tcpBadOffset[3] = 80;
    tcpBadOffset[12] = 0x20; // data offset 2 words: less than a TCP header
    std::vector<uint8_t> tcpLongOffset = tcpBadOffset;
    tcpLongOffset[12] = 0xf0; // 60 bytes of header claimed, 20 present
    std::vector<uint8_t> tcpBadOption(24, 0);
    tcpBadOption[3] = 80;
    tcpBadOption[12] = 0x60; // 24 bytes: 4 bytes of options
    tcpBadOption[20] = 8;    // a timestamp option (10 bytes) that does not fit
    tcpBadOption[21] = 10;
    std::vector<uint8_t> udpShort = {0x30, 0x39, 0x00};
    AdcRemoveQueueDiscsEverywhere(); // truncated headers: see adc-test-raw-packets.h
    sendRaw(6, tcpShort, kVip4, Seconds(1));
    sendRaw(6, tcpBadOffset, kVip4, Seconds(1.1));
    sendRaw(6, tcpLongOffset, kVip4, Seconds(1.2));
    sendRaw(6, tcpBadOption, kVip4, Seconds(1.3));
    sendRaw(17, udpShort, kVip4, Seconds(1.4));
#ifndef NS3_BUILD_PROFILE_DEBUG
    // Not to a VIP: ordinary traffic, forwarded untouched however short. (An ns-3 built with its
    // own asserts aborts when its UDP layer at S1 reads the 3-byte datagram, so an in-tree debug
    // build leaves this case out.)
    sendRaw(17, udpShort, t.serverIp[0], Seconds(1.5));
#endif
    Run(Seconds(2));

    EXPECT_EQ(m_log.Drops("truncated-transport-header"), 3u);
    EXPECT_EQ(m_log.Drops("malformed-transport-header"), 2u);
    EXPECT_EQ(m_log.drops.size(), 5u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drops, 4u);
    EXPECT_EQ(t.app->GetRuleCounters(1).drops, 1u);
    EXPECT_TRUE(m_log.matches.empty());
#ifndef NS3_BUILD_PROFILE_DEBUG
    const std::vector<Seen> atS1 = m_wire.At("S1", 17);
    ASSERT_EQ(atS1.size(), 1u); // the short datagram to S1 was forwarded untouched
    EXPECT_EQ(atS1[0].flow.src, t.clientIp[0]);
#endif
}

} // namespace
