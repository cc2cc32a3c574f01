/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ILB tests' shared fixture: the clients -- ILB -- servers test bed of the appliance tests
 * (Build) with rule builders and the gtest fixture IlbScenario (UDP echo and TCP bulk load,
 * the recorders of ilb-test-recorders.h), and the HTTP scenario of the IlbHelper tests
 * (AdcIlbHelperTest, MakeHelper, Recorder, RunHttp). Used by test/ilb-appliance-*-test.cc and
 * test/ilb-helper-*-test.cc.
 */

#ifndef ILB_TEST_FIXTURE_H
#define ILB_TEST_FIXTURE_H

#include "ilb-test-recorders.h"

#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-request-log.h"
#include "ns3/csma-module.h"
#include "ns3/ilb-helper.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv6-address-generator.h"

#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace ilbtest
{

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
inline Topo
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
inline void
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
inline IlbRule
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
inline std::vector<AdcIpAddress>
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

    /**
     * \brief The UDP test bed most server-choice tests share: one IPv4 client, two servers with
     * UDP echo servers on port 53, rule "dns" (UDP 53, Half-NAT, roundrobin) over both, all
     * watched (WatchAll).
     * \return the topology
     */
    Topo DnsPair()
    {
        Topo t = Build(false, 1, 2);
        t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t)));
        WatchAll(t);
        EchoServer(t.servers.Get(0), 53);
        EchoServer(t.servers.Get(1), 53);
        return t;
    }

    /// DSR servers of \p t: the VIP on their loopback, a UDP echo socket on VIP:53, TCP sinks
    /// on port 80 (named S1, S2, ...).
    void DsrServers(const Topo& t)
    {
        for (uint32_t s = 0; s < t.servers.GetN(); ++s)
        {
            OwnVip(t.servers.Get(s), kVip4);
            VipEchoServer(t.servers.Get(s), kVip4, 53);
            m_sinks.Listen(t.servers.Get(s), "S" + std::to_string(s + 1), 80, false);
        }
    }

    /**
     * \brief The draining scenario: on \p t (one client, two servers listening as S1 and S2 on
     * TCP 80 at 5 Mb/s, rule 0 over them, roundrobin), a 400 kB transfer from 1 s (~0.7 s) to
     * server 1, S2 (illumos ilb_alg_rr.c: rr_server_add inserts at the list's head, so the
     * server added last is rr_lb's first), \p disable at 1.2 s, two 10 kB transfers at 1.3 s
     * and 1.4 s; run to 16 s, past the first cleanup (15 s), which removes the closed entries
     * (illumos ilb_conn_cleanup).
     * \param t the topology
     * \param disable what takes server 1 out of service
     * \return server 1's active connections at 1.3 s
     */
    uint32_t RunDrain(const Topo& t, const std::function<void()>& disable)
    {
        m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
        m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
        Bulk(t.clients.Get(0), kVip4, 80, 400000, Seconds(1));
        Simulator::Schedule(Seconds(1.2), disable);
        uint32_t active = 0;
        Ptr<IlbAppliance> app = t.app;
        Simulator::Schedule(Seconds(1.3),
                            [&active, app] { active = app->GetActiveConnections(0, 1); });
        Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1.3));
        Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1.4));
        Run(Seconds(16));
        return active;
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
// The IlbHelper tests' HTTP scenario

/// Every test builds its own simulation and tears it down.
class AdcIlbHelperTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/**
 * \return a helper for \p topology with \p clients clients and \p servers servers. DSR
 * keeps no connection state (illumos ilb_check), so a DSR test bed balances with hash-ip-port,
 * which keeps each TCP connection on one server, as illumos's documentation advises; the
 * other topologies keep the helper's default (roundrobin).
 */
inline Ptr<IlbHelper>
MakeHelper(const std::string& topology, uint32_t clients, uint32_t servers, bool ipv6 = false)
{
    Ptr<IlbHelper> h = CreateObject<IlbHelper>();
    if (topology == "DSR")
    {
        h->SetAttribute("Algorithm", StringValue("hash-ip-port"));
    }
    h->SetAttribute("Topology", StringValue(topology));
    h->SetAttribute("NumClients", UintegerValue(clients));
    h->SetAttribute("NumServers", UintegerValue(servers));
    h->SetAttribute("Ipv6", BooleanValue(ipv6));
    return h;
}

// ---------------------------------------------------------------------------------------------
// What a scenario recorded.

struct Recorder
{
    std::vector<AdcRequestRecord> done;                 //!< every RequestDone
    std::vector<std::map<std::string, uint32_t>> peers; //!< per server: AccessLog peer -> count
    std::vector<std::vector<Time>> accessTimes;         //!< per server: request times
    IlbLog ilb; //!< the appliance's traces (ilb-test-fixture.h)
    /// TCP segments delivered to clients, by (source address, source port)
    std::map<std::pair<std::string, uint16_t>, uint32_t> clientRxFrom;
    /// TCP segments delivered to servers: (src, dst, dst port) -> count
    std::map<std::tuple<std::string, std::string, uint16_t>, uint32_t> serverRx;
    uint32_t ilbClientSideTx{0};    //!< frames the ILB sent towards the client router
    uint32_t serverRouterUpTx{0};   //!< frames the server router sent on "return-path"
    std::vector<std::string> downs; //!< health check: targets that went DOWN
};

inline void
OnDone(Recorder* r, const AdcRequestRecord& rec)
{
    r->done.push_back(rec);
}

inline void
OnAccess(Recorder* r,
         uint32_t server,
         const std::string& peer,
         const std::string&,
         const std::string&,
         Time when)
{
    r->peers[server][peer]++;
    r->accessTimes[server].push_back(when);
}

inline void
OnCount(uint32_t* n, Ptr<const Packet>)
{
    ++*n;
}

/// \return the TCP source port of a transport-level packet
inline uint16_t
TcpSourcePort(Ptr<const Packet> p)
{
    TcpHeader th;
    p->Copy()->PeekHeader(th);
    return th.GetSourcePort();
}

/// \return the TCP destination port of a transport-level packet
inline uint16_t
TcpDestinationPort(Ptr<const Packet> p)
{
    TcpHeader th;
    p->Copy()->PeekHeader(th);
    return th.GetDestinationPort();
}

/// \return the transport protocol of an IPv4 header
inline uint8_t
ProtocolOf(const Ipv4Header& h)
{
    return h.GetProtocol();
}

/// \return the transport protocol of an IPv6 header
inline uint8_t
ProtocolOf(const Ipv6Header& h)
{
    return h.GetNextHeader();
}

/// \return \p a as text
template <typename A>
std::string
Text(const A& a)
{
    std::ostringstream os;
    os << a;
    return os.str();
}

/// A client's IP layer delivered \p p (IPv4 or IPv6 header \p h): count TCP by source.
template <typename Header>
void
OnClientRx(Recorder* r, const Header& h, Ptr<const Packet> p, uint32_t)
{
    if (ProtocolOf(h) == 6)
    {
        r->clientRxFrom[{Text(h.GetSource()), TcpSourcePort(p)}]++;
    }
}

/// A server's IP layer delivered \p p: count TCP by source, destination and port.
template <typename Header>
void
OnServerRx(Recorder* r, const Header& h, Ptr<const Packet> p, uint32_t)
{
    if (ProtocolOf(h) == 6)
    {
        r->serverRx[{Text(h.GetSource()), Text(h.GetDestination()), TcpDestinationPort(p)}]++;
    }
}

inline void
OnStateChange(Recorder* r,
              uint32_t,
              const std::string& name,
              AdcHealthMonitor::State,
              AdcHealthMonitor::State now)
{
    if (now == AdcHealthMonitor::State::DOWN)
    {
        r->downs.push_back(name);
    }
}

/// Client load of a scenario.
struct Load
{
    uint32_t requestsPerClient{5}; //!< MaxRequests of each client
    double interval{0.2};          //!< seconds between a client's requests
    Time stop{Seconds(6)};         //!< simulation end
    double timeout{2};             //!< request timeout (s)
};

/**
 * \brief Install HTTP servers on every back-end and a client on every client node, wire the
 * recorder to every trace, and run.
 */
inline void
RunHttp(const IlbTopology& t, const Load& load, Recorder& r, Ptr<AdcRequestLog> log)
{
    r.peers.resize(t.GetNServers());
    r.accessTimes.resize(t.GetNServers());
    AdcHttpServerHelper serverHelper(t.serverPort);
    serverHelper.SetAttribute("ObjectSize", UintegerValue(4000));
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        ApplicationContainer a = serverHelper.Install(t.servers.Get(i));
        a.Start(Seconds(0));
        a.Get(0)->TraceConnectWithoutContext("AccessLog", MakeBoundCallback(&OnAccess, &r, i));
        if (t.ipv6)
        {
            t.servers.Get(i)->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
                "LocalDeliver",
                MakeBoundCallback(&OnServerRx<Ipv6Header>, &r));
        }
        else
        {
            t.servers.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "LocalDeliver",
                MakeBoundCallback(&OnServerRx<Ipv4Header>, &r));
        }
    }
    AdcHttpClientHelper clientHelper(t.GetVipSocketAddress());
    clientHelper.SetAttribute("Persistent", BooleanValue(false));
    clientHelper.SetAttribute("MaxRequests", UintegerValue(load.requestsPerClient));
    std::ostringstream iat;
    iat << "ns3::ConstantRandomVariable[Constant=" << load.interval << "]";
    clientHelper.SetAttribute("InterRequestTime", StringValue(iat.str()));
    clientHelper.SetAttribute("RequestTimeout", TimeValue(Seconds(load.timeout)));
    ApplicationContainer clients = clientHelper.Install(t.clients);
    clients.Start(Seconds(0.5));
    clients.Stop(load.stop - Seconds(0.1));
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        clients.Get(i)->TraceConnectWithoutContext("RequestDone", MakeBoundCallback(&OnDone, &r));
        log->Watch(clients.Get(i));
        if (t.ipv6)
        {
            t.clients.Get(i)->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
                "LocalDeliver",
                MakeBoundCallback(&OnClientRx<Ipv6Header>, &r));
        }
        else
        {
            t.clients.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "LocalDeliver",
                MakeBoundCallback(&OnClientRx<Ipv4Header>, &r));
        }
    }
    if (t.appliance)
    {
        r.ilb.Attach(t.appliance);
        r.ilb.AttachServices(t.appliance);
    }
    if (t.monitor)
    {
        t.monitor->TraceConnectWithoutContext("StateChange", MakeBoundCallback(&OnStateChange, &r));
    }
    t.GetIlbClientSideDevice()->TraceConnectWithoutContext(
        "MacTx",
        MakeBoundCallback(&OnCount, &r.ilbClientSideTx));
    t.links.at("return-path")
        .Get(1)
        ->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&OnCount, &r.serverRouterUpTx));
    Simulator::Stop(load.stop);
    Simulator::Run();
}

/// \return the distinct peers the servers saw
inline std::set<std::string>
AllPeers(const Recorder& r)
{
    std::set<std::string> out;
    for (const auto& m : r.peers)
    {
        for (const auto& [peer, n] : m)
        {
            out.insert(peer);
        }
    }
    return out;
}

/// \return the clients' addresses as text
inline std::set<std::string>
ClientAddresses(const IlbTopology& t)
{
    std::set<std::string> out;
    for (const auto& a : t.clientAddresses)
    {
        out.insert(a.ToString());
    }
    return out;
}

} // namespace ilbtest

using namespace ilbtest;

#endif /* ILB_TEST_FIXTURE_H */
