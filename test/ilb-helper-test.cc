/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of IlbHelper: what it builds for each ILB topology (nodes, devices, VIP on the
 * servers' loopbacks, routes), HTTP end to end through DSR, Half-NAT and Full-NAT (IPv4 and
 * IPv6) with what the servers and clients see, configuration errors, a back-end failing under
 * a health check, sticky sessions, ordinary traffic, and pcap output.
 *
 * Expected values come from the seed (what each topology rewrites, which way responses go)
 * and from the address plan documented in ilb-helper.h, worked out by hand.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-request-log.h"
#include "ns3/boolean.h"
#include "ns3/csma-net-device.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/ilb-appliance.h"
#include "ns3/ilb-helper.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node-list.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/udp-echo-helper.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// Every test builds its own simulation and tears it down.
class AdcIlbHelperTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// \return a helper for \p topology with \p clients clients and \p servers servers
Ptr<IlbHelper>
MakeHelper(const std::string& topology, uint32_t clients, uint32_t servers, bool ipv6 = false)
{
    Ptr<IlbHelper> h = CreateObject<IlbHelper>();
    h->SetAttribute("Topology", StringValue(topology));
    h->SetAttribute("NumClients", UintegerValue(clients));
    h->SetAttribute("NumServers", UintegerValue(servers));
    h->SetAttribute("Ipv6", BooleanValue(ipv6));
    return h;
}

/// \param node a node \return its devices other than the loopback
uint32_t
NonLoopbackDevices(Ptr<Node> node)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        n += DynamicCast<LoopbackNetDevice>(node->GetDevice(i)) ? 0 : 1;
    }
    return n;
}

/// \param node a node \return its IPv4 static routing
Ptr<Ipv4StaticRouting>
Static4(Ptr<Node> node)
{
    return Ipv4StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv4>());
}

/// \return the gateway of \p node's IPv4 default route (0.0.0.0 when it has none)
Ipv4Address
DefaultGateway4(Ptr<Node> node)
{
    Ptr<Ipv4StaticRouting> s = Static4(node);
    for (uint32_t i = 0; i < s->GetNRoutes(); ++i)
    {
        const Ipv4RoutingTableEntry r = s->GetRoute(i);
        if (r.GetDest() == Ipv4Address::GetAny() && r.GetDestNetworkMask() == Ipv4Mask::GetZero())
        {
            return r.GetGateway();
        }
    }
    return Ipv4Address::GetAny();
}

/// \return true when \p node has a network route \p dest / \p mask via \p gw
bool
HasRoute(Ptr<Node> node, Ipv4Address dest, Ipv4Mask mask, Ipv4Address gw)
{
    Ptr<Ipv4StaticRouting> s = Static4(node);
    for (uint32_t i = 0; i < s->GetNRoutes(); ++i)
    {
        const Ipv4RoutingTableEntry r = s->GetRoute(i);
        if (r.GetDest() == dest && r.GetDestNetworkMask() == mask && r.GetGateway() == gw)
        {
            return true;
        }
    }
    return false;
}

/// Expect \p h's Build to throw an AdcConfigError whose message holds every one of \p words.
void
ExpectConfigError(Ptr<IlbHelper> h, const std::vector<std::string>& words)
{
    try
    {
        h->Build();
        ADD_FAILURE() << "no AdcConfigError; expected one mentioning " << words.front();
    }
    catch (const AdcConfigError& e)
    {
        const std::string msg = e.what();
        for (const auto& w : words)
        {
            EXPECT_NE(msg.find(w), std::string::npos) << "'" << w << "' not in: " << msg;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What a scenario recorded.

struct Recorder
{
    std::vector<AdcRequestRecord> done;                 //!< every RequestDone
    std::vector<std::map<std::string, uint32_t>> peers; //!< per server: AccessLog peer -> count
    std::vector<std::vector<Time>> accessTimes;         //!< per server: request times
    std::vector<std::pair<Time, uint32_t>> chosen;      //!< (time, server) per ServerChosen
    uint32_t ruleMatches{0};                            //!< RuleMatch events
    /// TCP segments delivered to clients, by (source address, source port)
    std::map<std::pair<std::string, uint16_t>, uint32_t> clientRxFrom;
    /// TCP segments delivered to servers: (src, dst, dst port) -> count
    std::map<std::tuple<std::string, std::string, uint16_t>, uint32_t> serverRx;
    uint32_t ilbClientSideTx{0};    //!< frames the ILB sent towards the client router
    uint32_t serverRouterUpTx{0};   //!< frames the server router sent on "return-path"
    std::vector<std::string> downs; //!< health check: targets that went DOWN
};

void
OnDone(Recorder* r, const AdcRequestRecord& rec)
{
    r->done.push_back(rec);
}

void
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

void
OnChosen(Recorder* r, const std::string&, const AdcFlowKey&, uint32_t server, const std::string&)
{
    r->chosen.emplace_back(Simulator::Now(), server);
}

void
OnRuleMatch(Recorder* r, const std::string&, const AdcFlowKey&)
{
    r->ruleMatches++;
}

void
OnCount(uint32_t* n, Ptr<const Packet>)
{
    ++*n;
}

/// \return the TCP source port of a transport-level packet
uint16_t
TcpSourcePort(Ptr<const Packet> p)
{
    TcpHeader th;
    p->Copy()->PeekHeader(th);
    return th.GetSourcePort();
}

/// \return the TCP destination port of a transport-level packet
uint16_t
TcpDestinationPort(Ptr<const Packet> p)
{
    TcpHeader th;
    p->Copy()->PeekHeader(th);
    return th.GetDestinationPort();
}

void
OnClientRx4(Recorder* r, const Ipv4Header& h, Ptr<const Packet> p, uint32_t)
{
    if (h.GetProtocol() == 6)
    {
        std::ostringstream src;
        src << h.GetSource();
        r->clientRxFrom[{src.str(), TcpSourcePort(p)}]++;
    }
}

void
OnClientRx6(Recorder* r, const Ipv6Header& h, Ptr<const Packet> p, uint32_t)
{
    if (h.GetNextHeader() == 6)
    {
        std::ostringstream src;
        src << h.GetSource();
        r->clientRxFrom[{src.str(), TcpSourcePort(p)}]++;
    }
}

void
OnServerRx4(Recorder* r, const Ipv4Header& h, Ptr<const Packet> p, uint32_t)
{
    if (h.GetProtocol() == 6)
    {
        std::ostringstream src;
        std::ostringstream dst;
        src << h.GetSource();
        dst << h.GetDestination();
        r->serverRx[{src.str(), dst.str(), TcpDestinationPort(p)}]++;
    }
}

void
OnServerRx6(Recorder* r, const Ipv6Header& h, Ptr<const Packet> p, uint32_t)
{
    if (h.GetNextHeader() == 6)
    {
        std::ostringstream src;
        std::ostringstream dst;
        src << h.GetSource();
        dst << h.GetDestination();
        r->serverRx[{src.str(), dst.str(), TcpDestinationPort(p)}]++;
    }
}

void
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
void
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
                MakeBoundCallback(&OnServerRx6, &r));
        }
        else
        {
            t.servers.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "LocalDeliver",
                MakeBoundCallback(&OnServerRx4, &r));
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
                MakeBoundCallback(&OnClientRx6, &r));
        }
        else
        {
            t.clients.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "LocalDeliver",
                MakeBoundCallback(&OnClientRx4, &r));
        }
    }
    if (t.appliance)
    {
        t.appliance->TraceConnectWithoutContext("ServerChosen", MakeBoundCallback(&OnChosen, &r));
        t.appliance->TraceConnectWithoutContext("RuleMatch", MakeBoundCallback(&OnRuleMatch, &r));
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
std::set<std::string>
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
std::set<std::string>
ClientAddresses(const IlbTopology& t)
{
    std::set<std::string> out;
    for (const auto& a : t.clientAddresses)
    {
        out.insert(a.ToString());
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Builds

TEST_F(AdcIlbHelperTest, BuildsDsrTopologyWithVipOnServerLoopbacks)
{
    const uint32_t before = NodeList::GetNNodes();
    IlbTopology t = MakeHelper("DSR", 4, 3)->Build();
    // 4 clients + client router + ILB + server router + 3 servers.
    EXPECT_EQ(NodeList::GetNNodes() - before, 10u);
    EXPECT_EQ(t.GetNClients(), 4u);
    EXPECT_EQ(t.GetNServers(), 3u);
    // Client router: 4 client links, "client-side", "return-path".
    EXPECT_EQ(NonLoopbackDevices(t.clientRouter), 6u);
    EXPECT_EQ(NonLoopbackDevices(t.ilb), 2u);
    EXPECT_EQ(NonLoopbackDevices(t.serverRouter), 2u);
    EXPECT_EQ(t.links.at("server-lan").GetN(), 5u); // ILB, 3 servers, server router
    EXPECT_EQ(t.GetLinkNames(),
              (std::vector<std::string>{"client-side",
                                        "client1",
                                        "client2",
                                        "client3",
                                        "client4",
                                        "return-path",
                                        "server-lan"}));
    const Ipv4Address vip("10.100.0.10");
    EXPECT_EQ(t.vip, AdcIpAddress(vip));
    for (uint32_t i = 0; i < 3; ++i)
    {
        Ptr<Node> s = t.servers.Get(i);
        // REQ: ILB-03 (the back-ends own the VIP, so only the MAC needs to change)
        EXPECT_EQ(s->GetObject<Ipv4>()->GetInterfaceForAddress(vip), 0) << "server " << i;
        EXPECT_EQ(t.serverAddresses[i], AdcIpAddress(Ipv4Address(0xc0a8640b + i))); // .11+i
        // Responses bypass the ILB: the servers' gateway is the server router.
        EXPECT_EQ(DefaultGateway4(s), Ipv4Address("192.168.100.254"));
    }
    EXPECT_TRUE(
        HasRoute(t.clientRouter, vip, Ipv4Mask("255.255.255.255"), Ipv4Address("10.0.0.2")));
    EXPECT_EQ(DefaultGateway4(t.ilb), Ipv4Address("10.0.0.1"));
    EXPECT_EQ(DefaultGateway4(t.serverRouter), Ipv4Address("10.0.0.5"));
    EXPECT_EQ(DefaultGateway4(t.clients.Get(2)), Ipv4Address("10.1.0.9")); // 3rd /30, .1
    // The ILB's list routing holds static routing and the appliance's protocol.
    Ptr<Ipv4ListRouting> list =
        DynamicCast<Ipv4ListRouting>(t.ilb->GetObject<Ipv4>()->GetRoutingProtocol());
    ASSERT_TRUE(list);
    EXPECT_EQ(list->GetNRoutingProtocols(), 2u);
    int16_t priority = 0;
    EXPECT_EQ(list->GetRoutingProtocol(0, priority), t.appliance->GetIpv4Routing());
    EXPECT_EQ(priority, 100);
    EXPECT_EQ(t.appliance->GetNRules(), 1u);
    EXPECT_EQ(t.appliance->GetRule(t.rule).topology, IlbRule::DSR);
    EXPECT_NO_THROW(IlbHelper::Validate(t));
}

TEST_F(AdcIlbHelperTest, BuildsHalfNatTopologyWithIlbAsGateway)
{
    Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 2, 2);
    h->SetAttribute("ServerPort", UintegerValue(8080));
    IlbTopology t = h->Build();
    const Ipv4Address vip("10.100.0.10");
    for (uint32_t i = 0; i < 2; ++i)
    {
        EXPECT_EQ(t.servers.Get(i)->GetObject<Ipv4>()->GetInterfaceForAddress(vip), -1);
        EXPECT_EQ(DefaultGateway4(t.servers.Get(i)), Ipv4Address("192.168.100.1"));
        EXPECT_EQ(t.appliance->GetRule(t.rule).servers[i].port, 8080);
    }
    EXPECT_EQ(t.serverPort, 8080);
    EXPECT_EQ(t.vipPort, 80);
    EXPECT_FALSE(t.monitor); // HealthCheck NONE
}

TEST_F(AdcIlbHelperTest, BuildsFullNatTopologyWithNatRangeRoutedToIlb)
{
    IlbTopology t = MakeHelper("FULL_NAT", 2, 2)->Build();
    // 10.200.0.1-10.200.0.4 share 29 leading bits: 10.200.0.0/29 via the ILB.
    for (uint32_t i = 0; i < 2; ++i)
    {
        EXPECT_EQ(DefaultGateway4(t.servers.Get(i)), Ipv4Address("192.168.100.254"));
        EXPECT_TRUE(HasRoute(t.servers.Get(i),
                             Ipv4Address("10.200.0.0"),
                             Ipv4Mask("255.255.255.248"),
                             Ipv4Address("192.168.100.1")));
    }
    const IlbRule& rule = t.appliance->GetRule(t.rule);
    EXPECT_EQ(rule.natSourceFirst, AdcIpAddress(Ipv4Address("10.200.0.1")));
    EXPECT_EQ(rule.natSourceLast, AdcIpAddress(Ipv4Address("10.200.0.4")));
    EXPECT_EQ(rule.natPorts, AdcPortRange(1024, 65535));
}

TEST_F(AdcIlbHelperTest, IlbIsRouterMakesIlbTheGatewayInDsr)
{
    Ptr<IlbHelper> h = MakeHelper("DSR", 1, 2);
    h->SetAttribute("IlbIsRouter", BooleanValue(true));
    IlbTopology t = h->Build();
    for (uint32_t i = 0; i < 2; ++i)
    {
        EXPECT_EQ(DefaultGateway4(t.servers.Get(i)), Ipv4Address("192.168.100.1"));
    }
}

TEST_F(AdcIlbHelperTest, InstallIlbFalseLeavesAPlainRouter)
{
    Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 2);
    h->SetAttribute("InstallIlb", BooleanValue(false));
    IlbTopology t = h->Build();
    EXPECT_FALSE(t.appliance);
    Ptr<Ipv4ListRouting> list =
        DynamicCast<Ipv4ListRouting>(t.ilb->GetObject<Ipv4>()->GetRoutingProtocol());
    EXPECT_EQ(list->GetNRoutingProtocols(), 1u);
}

// ---------------------------------------------------------------------------------------------
// Configuration errors

TEST_F(AdcIlbHelperTest, ConfigErrorsNameTheSetting)
{
    ExpectConfigError(MakeHelper("HALF_NAT", 1, 0), {"NumServers", "without servers"});
    ExpectConfigError(MakeHelper("HALF_NAT", 0, 1), {"NumClients"});
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 3);
        h->SetAttribute("Vip", StringValue("192.168.100.12")); // server2's address
        ExpectConfigError(h, {"Vip", "192.168.100.12", "server2"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("FULL_NAT", 1, 1);
        h->SetAttribute("NatSourceRange", StringValue(""));
        ExpectConfigError(h, {"NatSourceRange", "empty"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("FULL_NAT", 1, 1);
        h->SetAttribute("NatSourceRange", StringValue("10.200.0.9-10.200.0.1"));
        ExpectConfigError(h, {"NatSourceRange", "10.200.0.9-10.200.0.1"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("FULL_NAT", 1, 1);
        h->SetAttribute("NatPorts", StringValue("70000-80000"));
        ExpectConfigError(h, {"NatPorts"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 1);
        h->SetAttribute("Algorithm", StringValue("leastconn"));
        ExpectConfigError(h, {"Algorithm", "leastconn", "roundrobin", "hash-ip-vip"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("DSR", 1, 1);
        h->SetAttribute("ServerPort", UintegerValue(8080));
        ExpectConfigError(h, {"ServerPort", "8080", "DSR"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 1);
        h->SetAttribute("Vip", StringValue("10.100.0"));
        ExpectConfigError(h, {"Vip", "10.100.0", "IPv4"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 1, true);
        h->SetAttribute("Vip6", StringValue("10.100.0.10"));
        ExpectConfigError(h, {"Vip6", "IPv6"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 1, true);
        h->SetAttribute("Vip6", StringValue("2001:db8:100::10"));
        ExpectConfigError(h, {"Vip6", "2001:db8::/32"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 1);
        h->SetAttribute("StickyPrefix", UintegerValue(33));
        ExpectConfigError(h, {"StickyPrefix", "33"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 1);
        h->SetAttribute("HealthCheck", StringValue("TCP"));
        h->SetAttribute("HealthCheckTimeout", TimeValue(Seconds(2)));
        ExpectConfigError(h, {"HealthCheckTimeout", "HealthCheckInterval"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 1);
        h->SetAttribute("HealthCheck", StringValue("UDP")); // the servers speak TCP
        ExpectConfigError(h, {"HealthCheck UDP", "Protocol is TCP"});
    }
    {
        Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 1);
        h->SetAttribute("Vip", StringValue("192.168.100.77")); // inside the server LAN
        ExpectConfigError(h, {"Vip", "192.168.100.0/24"});
    }
}

TEST_F(AdcIlbHelperTest, ValidateRejectsDsrBackendWithoutVip)
{
    IlbTopology t = MakeHelper("DSR", 1, 3)->Build();
    Ptr<Ipv4> ipv4 = t.servers.Get(1)->GetObject<Ipv4>();
    for (uint32_t a = 0; a < ipv4->GetNAddresses(0); ++a)
    {
        if (ipv4->GetAddress(0, a).GetLocal() == Ipv4Address("10.100.0.10"))
        {
            ipv4->RemoveAddress(0, a);
            break;
        }
    }
    try
    {
        IlbHelper::Validate(t);
        ADD_FAILURE() << "a DSR back-end without the VIP passed Validate";
    }
    catch (const AdcConfigError& e)
    {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("server2"), std::string::npos) << msg;
        EXPECT_NE(msg.find("10.100.0.10"), std::string::npos) << msg;
        EXPECT_NE(msg.find("DSR"), std::string::npos) << msg;
    }
}

TEST_F(AdcIlbHelperTest, ValidateRejectsHalfNatBackendBypassingIlb)
{
    IlbTopology t = MakeHelper("HALF_NAT", 1, 2)->Build();
    Ptr<Ipv4StaticRouting> s = Static4(t.servers.Get(0));
    for (uint32_t i = 0; i < s->GetNRoutes(); ++i)
    {
        if (s->GetRoute(i).GetDest() == Ipv4Address::GetAny() &&
            s->GetRoute(i).GetDestNetworkMask() == Ipv4Mask::GetZero())
        {
            s->RemoveRoute(i);
            break;
        }
    }
    s->SetDefaultRoute(Ipv4Address("192.168.100.254"), 1);
    try
    {
        IlbHelper::Validate(t);
        ADD_FAILURE() << "a Half-NAT back-end routing around the ILB passed Validate";
    }
    catch (const AdcConfigError& e)
    {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("server1"), std::string::npos) << msg;
        EXPECT_NE(msg.find("192.168.100.254"), std::string::npos) << msg;
    }
}

TEST_F(AdcIlbHelperTest, EnablePcapRejectsUnknownLink)
{
    IlbTopology t = MakeHelper("HALF_NAT", 1, 1)->Build();
    try
    {
        t.EnablePcap("/tmp/x", "no-such-link");
        ADD_FAILURE() << "no error";
    }
    catch (const AdcConfigError& e)
    {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("no-such-link"), std::string::npos) << msg;
        EXPECT_NE(msg.find("server-lan"), std::string::npos) << msg;
    }
}

// ---------------------------------------------------------------------------------------------
// End to end, per topology and family

/// (topology, IPv6)
class AdcIlbEndToEnd : public ::testing::TestWithParam<std::tuple<std::string, bool>>
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

TEST_P(AdcIlbEndToEnd, HttpCompletesAndEachSideSeesWhatTheTopologyPromises)
{
    const auto& [topo, ipv6] = GetParam();
    const uint32_t nClients = 4;
    const uint32_t nServers = 3;
    Ptr<IlbHelper> h = MakeHelper(topo, nClients, nServers, ipv6);
    if (topo != "DSR")
    {
        h->SetAttribute("ServerPort", UintegerValue(8080)); // the NAT topologies rewrite it
    }
    IlbTopology t = h->Build();
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    RunHttp(t, load, r, log);

    const uint32_t total = nClients * load.requestsPerClient;
    EXPECT_EQ(log->GetSent(), total);
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(total)));

    // REQ: ILB-01 (each request to the VIP matched the rule) REQ: ILB-02 (one choice per new
    // connection; round robin spreads 20 connections over 3 servers as 7/7/6)
    EXPECT_GE(r.ruleMatches, total);
    ASSERT_EQ(r.chosen.size(), total);
    std::vector<uint32_t> perServer(nServers, 0);
    for (const auto& [when, server] : r.chosen)
    {
        ASSERT_LT(server, nServers);
        perServer[server]++;
    }
    for (uint32_t i = 0; i < nServers; ++i)
    {
        EXPECT_GE(perServer[i], total / nServers) << "server " << i;
        EXPECT_LE(perServer[i], total / nServers + 1) << "server " << i;
    }

    // What the servers saw as the client.
    const std::set<std::string> peers = AllPeers(r);
    if (topo == "FULL_NAT")
    {
        // REQ: ILB-05 (the source is a NAT source address, never the client's)
        const std::set<std::string> nat =
            ipv6 ? std::set<std::string>{"fd00:200::1", "fd00:200::2", "fd00:200::3", "fd00:200::4"}
                 : std::set<std::string>{"10.200.0.1", "10.200.0.2", "10.200.0.3", "10.200.0.4"};
        ASSERT_FALSE(peers.empty());
        for (const auto& p : peers)
        {
            EXPECT_EQ(nat.count(p), 1u) << "server saw " << p;
        }
    }
    else
    {
        // REQ: ILB-04 (Half-NAT keeps the client IP as source) REQ: ILB-03 (DSR changes no IP)
        EXPECT_EQ(peers, ClientAddresses(t));
    }

    // What arrived at the servers' IP layer: destination VIP:80 in DSR, server:8080 in NAT.
    std::set<std::string> serverAddrs;
    for (const auto& a : t.serverAddresses)
    {
        serverAddrs.insert(a.ToString());
    }
    ASSERT_FALSE(r.serverRx.empty());
    for (const auto& [key, n] : r.serverRx)
    {
        const auto& [src, dst, dport] = key;
        if (topo == "DSR")
        {
            EXPECT_EQ(dst, t.vip.ToString());
            EXPECT_EQ(dport, 80);
            EXPECT_EQ(ClientAddresses(t).count(src), 1u) << src;
        }
        else
        {
            EXPECT_EQ(serverAddrs.count(dst), 1u) << dst;
            EXPECT_EQ(dport, 8080);
        }
    }

    // REQ: ILB-06 (clients only ever hear from VIP:80: the NAT is undone on the way back)
    ASSERT_FALSE(r.clientRxFrom.empty());
    for (const auto& [from, n] : r.clientRxFrom)
    {
        EXPECT_EQ(from.first, t.vip.ToString());
        EXPECT_EQ(from.second, 80);
    }

    // Which way the responses went.
    if (topo == "DSR")
    {
        // REQ: ILB-03 (responses bypass the ILB and reach the clients through the server
        // router; the ILB's client-side port never transmits)
        EXPECT_EQ(r.ilbClientSideTx, 0u);
        EXPECT_GT(r.serverRouterUpTx, 0u);
    }
    else
    {
        EXPECT_GT(r.ilbClientSideTx, 0u);
        EXPECT_EQ(r.serverRouterUpTx, 0u);
        const IlbAppliance::Counters c = t.appliance->GetRuleCounters(t.rule);
        EXPECT_GT(c.packetsOut, 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(AllTopologies,
                         AdcIlbEndToEnd,
                         ::testing::Combine(::testing::Values("DSR", "HALF_NAT", "FULL_NAT"),
                                            ::testing::Bool()),
                         [](const auto& info) {
                             return std::get<0>(info.param) +
                                    (std::get<1>(info.param) ? "_IPv6" : "_IPv4");
                         });

TEST_F(AdcIlbHelperTest, DsrRewritesOnlyTheDestinationMac)
{
    // REQ: ILB-03
    IlbTopology t = MakeHelper("DSR", 2, 2)->Build();

    struct Frames
    {
        Mac48Address ilbMac;
        std::set<Mac48Address> serverMacs;
        std::set<std::string> clients;
        std::string vip;
        uint32_t toVip{0};
        uint32_t bad{0};
    } f;

    f.ilbMac = Mac48Address::ConvertFrom(t.GetIlbServerLanDevice()->GetAddress());
    for (uint32_t i = 0; i < 2; ++i)
    {
        f.serverMacs.insert(Mac48Address::ConvertFrom(t.GetServerDevice(i)->GetAddress()));
    }
    f.clients = ClientAddresses(t);
    f.vip = t.vip.ToString();
    // Every frame the ILB puts on the LAN towards the VIP: from the ILB's MAC to a server's
    // MAC, with the client's IP header untouched (source client, destination VIP).
    auto sniff = [](Frames* fr, Ptr<const Packet> p) {
        Ptr<Packet> c = p->Copy();
        EthernetHeader eth;
        c->RemoveHeader(eth);
        if (eth.GetLengthType() != 0x0800 || eth.GetSource() != fr->ilbMac)
        {
            return;
        }
        Ipv4Header ip;
        c->RemoveHeader(ip);
        std::ostringstream src;
        std::ostringstream dst;
        src << ip.GetSource();
        dst << ip.GetDestination();
        if (dst.str() != fr->vip)
        {
            return;
        }
        fr->toVip++;
        if (fr->serverMacs.count(eth.GetDestination()) == 0 || fr->clients.count(src.str()) == 0)
        {
            fr->bad++;
        }
    };
    t.GetIlbServerLanDevice()->TraceConnectWithoutContext(
        "PromiscSniffer",
        Callback<void, Ptr<const Packet>>([&f, sniff](Ptr<const Packet> p) { sniff(&f, p); }));
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 3;
    RunHttp(t, load, r, log);
    // 2 clients x 3 requests
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(2 * 3)));
    EXPECT_GT(f.toVip, 6u); // at least the SYN, request and ACKs of every connection
    EXPECT_EQ(f.bad, 0u);
}

TEST_F(AdcIlbHelperTest, DsrResponsesCrossTheIlbWhenItIsTheRouter)
{
    // REQ: ILB-03 (the exception: the ILB is also the router)
    Ptr<IlbHelper> h = MakeHelper("DSR", 2, 2);
    h->SetAttribute("IlbIsRouter", BooleanValue(true));
    IlbTopology t = h->Build();
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 3;
    RunHttp(t, load, r, log);
    // 2 clients x 3 requests
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(2 * 3)));
    EXPECT_GT(r.ilbClientSideTx, 0u);
    EXPECT_EQ(r.serverRouterUpTx, 0u);
    // Unchanged: the clients hear from VIP:80, as the servers sent it.
    for (const auto& [from, n] : r.clientRxFrom)
    {
        EXPECT_EQ(from.first, "10.100.0.10");
        EXPECT_EQ(from.second, 80);
    }
    // The servers saw the clients' own addresses (no NAT on the way in either).
    EXPECT_EQ(AllPeers(r), ClientAddresses(t));
}

TEST_F(AdcIlbHelperTest, TrafficMatchingNoRuleIsOrdinary)
{
    // REQ: ILB-01 (no rule matches: the ILB routes the packets like any router)
    IlbTopology t = MakeHelper("HALF_NAT", 1, 2)->Build();
    uint32_t matches = 0;
    t.appliance->TraceConnectWithoutContext(
        "RuleMatch",
        Callback<void, const std::string&, const AdcFlowKey&>(
            [&matches](const std::string&, const AdcFlowKey&) { ++matches; }));
    UdpEchoServerHelper echoServer(9);
    echoServer.Install(t.servers.Get(1)).Start(Seconds(0));
    UdpEchoClientHelper echoClient(t.serverAddresses[1].GetIpv4(), 9);
    echoClient.SetAttribute("MaxPackets", UintegerValue(3));
    echoClient.SetAttribute("Interval", TimeValue(MilliSeconds(100)));
    ApplicationContainer c = echoClient.Install(t.clients.Get(0));
    c.Start(Seconds(1));
    uint32_t replies = 0;
    c.Get(0)->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>>([&replies](Ptr<const Packet>) { ++replies; }));
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    EXPECT_EQ(replies, 3u);
    EXPECT_EQ(matches, 0u);
}

TEST_F(AdcIlbHelperTest, StickySessionsKeepAClientOnOneServer)
{
    Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 2, 3);
    h->SetAttribute("Sticky", BooleanValue(true));
    IlbTopology t = h->Build();
    EXPECT_TRUE(t.appliance->GetRule(t.rule).sticky);
    EXPECT_EQ(t.appliance->GetRule(t.rule).stickyPrefix, 32);
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 4;
    RunHttp(t, load, r, log);
    // 2 clients x 4 requests
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(2 * 4)));
    // Each server that answered saw one client only, all of its requests.
    uint32_t used = 0;
    for (const auto& m : r.peers)
    {
        if (m.empty())
        {
            continue;
        }
        ++used;
        ASSERT_EQ(m.size(), 1u);
        EXPECT_EQ(m.begin()->second, 4u);
    }
    EXPECT_EQ(used, 2u);
}

TEST_F(AdcIlbHelperTest, FailedBackendUnderHealthCheckGetsNoNewRequests)
{
    Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 4, 3);
    h->SetAttribute("HealthCheck", StringValue("TCP"));
    h->SetAttribute("HealthCheckInterval", TimeValue(MilliSeconds(500)));
    h->SetAttribute("HealthCheckTimeout", TimeValue(MilliSeconds(200)));
    h->SetAttribute("HealthCheckRetries", UintegerValue(2));
    IlbTopology t = h->Build();
    ASSERT_TRUE(t.monitor);
    const Time failAt = Seconds(2.5);
    // Detection: at most two probe intervals plus one timeout after the failure.
    const Time detected = failAt + MilliSeconds(2 * 500 + 200);
    IlbHelper::ScheduleServerFailure(t, 1, failAt);
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 40;
    load.interval = 0.1;
    load.stop = Seconds(8);
    load.timeout = 1;
    RunHttp(t, load, r, log);

    // Nothing counted twice, nothing lost.
    EXPECT_TRUE(log->CheckAccounting()) << log->Summary();
    EXPECT_EQ(log->GetSent(), 4u * 40u);
    std::set<std::pair<uint32_t, uint64_t>> ids;
    for (const auto& rec : r.done)
    {
        EXPECT_TRUE(ids.insert({rec.clientId, rec.requestId}).second)
            << "request " << rec.requestId << " of client " << rec.clientId << " ended twice";
    }
    EXPECT_EQ(ids.size(), 160u);

    // The monitor saw server2 (index 1) go down, and nothing else.
    EXPECT_EQ(r.downs, std::vector<std::string>{"server2"});
    // After detection the ILB sends new connections elsewhere.
    uint32_t chosenAfter[3] = {0, 0, 0};
    uint32_t chosenToFailedWhileUndetected = 0;
    for (const auto& [when, server] : r.chosen)
    {
        if (when > detected)
        {
            chosenAfter[server]++;
        }
        else if (when >= failAt - MilliSeconds(100) && server == 1)
        {
            chosenToFailedWhileUndetected++;
        }
    }
    EXPECT_EQ(chosenAfter[1], 0u);
    EXPECT_GT(chosenAfter[0], 0u);
    EXPECT_GT(chosenAfter[2], 0u);
    // The failed server served nothing after its failure.
    for (const Time& when : r.accessTimes[1])
    {
        EXPECT_LT(when, failAt);
    }
    // Only requests sent to it around the failure failed; they failed rather than vanished:
    // the dead server swallows them, so each ends at the client's 1 s timeout, well before
    // the clients stop (the last request leaves at 4.5 s, they stop at 7.9 s).
    EXPECT_TRUE(AdcExpectAccounting(
        *log,
        AdcAccountingExpectation::CompletedAtLeast(4 * 40 - chosenToFailedWhileUndetected)
            .FailedBetween("timeout", 1, chosenToFailedWhileUndetected)));
}

TEST_F(AdcIlbHelperTest, PcapOfServerLanIsEthernetAndClientSideIsPpp)
{
    const std::string dir = "/tmp/ilb-helper-test-pcap";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    IlbTopology t = MakeHelper("DSR", 1, 2)->Build();
    t.EnablePcap(dir + "/dsr", "server-lan");
    t.EnablePcap(dir + "/dsr", "client-side");
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 2;
    RunHttp(t, load, r, log);
    // 1 client x 2 requests
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(1 * 2)));
    auto linkType = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        unsigned char hdr[24] = {};
        in.read(reinterpret_cast<char*>(hdr), 24);
        return in ? static_cast<uint32_t>(hdr[20] | hdr[21] << 8 | hdr[22] << 16 | hdr[23] << 24)
                  : 0xffffffffu;
    };
    const std::string lan = dir + "/dsr-server-lan-" + std::to_string(t.ilb->GetId()) + "-" +
                            std::to_string(t.GetIlbServerLanDevice()->GetIfIndex()) + ".pcap";
    const std::string cs = dir + "/dsr-client-side-" + std::to_string(t.ilb->GetId()) + "-" +
                           std::to_string(t.GetIlbClientSideDevice()->GetIfIndex()) + ".pcap";
    // The files close when the last reference to their devices goes.
    Simulator::Destroy();
    t = IlbTopology();
    EXPECT_EQ(linkType(lan), 1u); // DLT_EN10MB
    EXPECT_EQ(linkType(cs), 9u);  // DLT_PPP
    EXPECT_GT(std::filesystem::file_size(lan), 24u);
}

} // namespace
