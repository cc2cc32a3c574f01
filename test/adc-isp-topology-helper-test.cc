/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcIspTopologyHelper: node and device counts, aggregated static routes, the address
 * plan, end-to-end reachability (IPv4 and IPv6), MPI system ids, configuration errors, pcap
 * output, the AttachToCore hook and build time at 10,000 clients.
 *
 * Expected values are worked out by hand from the shape described in the helper's
 * documentation: A access networks of C clients, S servers.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-isp-topology-helper.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/loopback-net-device.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-echo-helper.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Every test builds its own simulation and tears it down.
class AdcTopologyHelperTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// \return a helper for A access networks of C clients and S servers
Ptr<AdcIspTopologyHelper>
MakeHelper(uint32_t accessNets, uint32_t clientsPerNet, uint32_t servers)
{
    Ptr<AdcIspTopologyHelper> h = CreateObject<AdcIspTopologyHelper>();
    h->SetAttribute("NumAccessNetworks", UintegerValue(accessNets));
    h->SetAttribute("ClientsPerAccessNetwork", UintegerValue(clientsPerNet));
    h->SetAttribute("NumServers", UintegerValue(servers));
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

/// \param node a node \return its IPv4 static routing table
Ptr<Ipv4StaticRouting>
Routing(Ptr<Node> node)
{
    return Ipv4StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv4>());
}

/// Counts the packets a trace source reports.
struct PacketCounter
{
    uint32_t n{0}; //!< packets seen

    /// \param p a packet
    void Count(Ptr<const Packet> /* p */)
    {
        ++n;
    }
};

/**
 * \brief Install a UDP echo server on \p server and a client on \p client sending \p count
 * packets from \p start, every 100 ms; counts what each side receives.
 */
void
InstallEcho(Ptr<Node> client,
            Ptr<Node> server,
            const Address& serverAddress,
            uint32_t count,
            Time start,
            PacketCounter* replies,
            PacketCounter* requests)
{
    UdpEchoServerHelper echoServer(9);
    ApplicationContainer s = echoServer.Install(server);
    s.Start(Seconds(0));
    UdpEchoClientHelper echoClient(serverAddress);
    echoClient.SetAttribute("MaxPackets", UintegerValue(count));
    echoClient.SetAttribute("Interval", TimeValue(MilliSeconds(100)));
    echoClient.SetAttribute("PacketSize", UintegerValue(200));
    ApplicationContainer c = echoClient.Install(client);
    c.Start(start);
    c.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&PacketCounter::Count, replies));
    s.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&PacketCounter::Count, requests));
}

/// \return true when \p route is a network route to \p dest / \p mask via \p gateway
bool
HasRoute(Ptr<Ipv4StaticRouting> routing,
         const std::string& dest,
         const std::string& mask,
         const std::string& gateway)
{
    for (uint32_t i = 0; i < routing->GetNRoutes(); ++i)
    {
        const Ipv4RoutingTableEntry r = routing->GetRoute(i);
        if (r.GetDestNetwork() == Ipv4Address(dest.c_str()) &&
            r.GetDestNetworkMask() == Ipv4Mask(mask.c_str()) &&
            r.GetGateway() == Ipv4Address(gateway.c_str()))
        {
            return true;
        }
    }
    return false;
}

/// \return the size of \p path in bytes, or -1 when it does not exist
int64_t
FileSize(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    return in ? static_cast<int64_t>(in.tellg()) : -1;
}

/// \param h helper \param setting expected in the message \param limit expected too (may be "")
void
ExpectConfigError(Ptr<AdcIspTopologyHelper> h, const std::string& setting, const std::string& limit)
{
    try
    {
        h->Build();
        ADD_FAILURE() << "no AdcConfigError for " << setting;
    }
    catch (const AdcConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find(setting), std::string::npos) << what;
        EXPECT_NE(what.find(limit), std::string::npos) << what;
    }
}

} // namespace

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, SmallBuildHasHandCountedNodesAndDevices)
{
    // 3 access networks x 5 clients, 2 servers.
    const AdcIspTopology t = MakeHelper(3, 5, 2)->Build();

    // Nodes: 15 clients + 3 access routers + core + DC gateway + 2 servers = 22.
    EXPECT_EQ(NodeList::GetNNodes(), 22u);
    EXPECT_EQ(t.GetNClients(), 15u);
    EXPECT_EQ(t.GetNAccessNetworks(), 3u);
    EXPECT_EQ(t.GetAccessNetworkClients(1).GetN(), 5u);
    EXPECT_EQ(t.GetAccessRouters().GetN(), 3u);
    EXPECT_EQ(t.GetNServers(), 2u);
    ASSERT_TRUE(t.GetDcGateway());

    // Devices (loopbacks aside): a client 1, an access router 2 (LAN + uplink), the core 4
    // (3 uplinks + DC link), the gateway 2, a server 1: 15 + 6 + 4 + 2 + 2 = 29.
    uint32_t devices = 0;
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        devices += NonLoopbackDevices(NodeList::GetNode(i));
    }
    EXPECT_EQ(devices, 29u);
    EXPECT_EQ(NonLoopbackDevices(t.GetClient(14)), 1u);
    EXPECT_EQ(NonLoopbackDevices(t.GetAccessRouter(2)), 2u);
    EXPECT_EQ(NonLoopbackDevices(t.GetCoreRouter()), 4u);
    EXPECT_EQ(NonLoopbackDevices(t.GetDcGateway()), 2u);
    EXPECT_EQ(NonLoopbackDevices(t.GetServer(1)), 1u);

    // One LAN per access network: router + 5 clients share one channel.
    EXPECT_EQ(t.GetAccessLanDevices(0).GetN(), 6u);
    EXPECT_EQ(t.GetAccessLanDevices(0).Get(0)->GetChannel()->GetNDevices(), 6u);
    EXPECT_EQ(t.GetAccessUplinkDevices(2).Get(0)->GetNode(), t.GetCoreRouter());
    EXPECT_EQ(t.GetAccessUplinkDevices(2).Get(1)->GetNode(), t.GetAccessRouter(2));
    EXPECT_EQ(t.GetServerLanDevices().GetN(), 3u);
    EXPECT_EQ(t.GetCoreDcDevices().Get(1)->GetNode(), t.GetDcGateway());
    // The public handles are the same objects.
    EXPECT_EQ(t.clients.GetN(), 15u);
    EXPECT_EQ(t.servers.Get(1), t.GetServer(1));
    EXPECT_EQ(t.dcGateway, t.GetDcGateway());
    EXPECT_EQ(t.coreRouter, t.GetCoreRouter());
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, CoreHoldsOneRoutePerAccessNetworkNotPerClient)
{
    const AdcIspTopology t = MakeHelper(3, 5, 2)->Build();

    // Core: 127/8 (loopback) + 3 uplink /30s + the DC link /30 (directly connected) + 3
    // access /16s + the server /24 = 9.
    EXPECT_EQ(t.GetNCoreRoutes(), 9u);
    // Link a is 192.168.0.4a/30, its far (router) end .4a+2; the DC link is link 3.
    Ptr<Ipv4StaticRouting> core = t.GetCoreStaticRouting();
    EXPECT_TRUE(HasRoute(core, "10.0.0.0", "255.255.0.0", "192.168.0.2"));
    EXPECT_TRUE(HasRoute(core, "10.1.0.0", "255.255.0.0", "192.168.0.6"));
    EXPECT_TRUE(HasRoute(core, "10.2.0.0", "255.255.0.0", "192.168.0.10"));
    EXPECT_TRUE(HasRoute(core, "172.16.0.0", "255.255.255.0", "192.168.0.14"));
    for (uint32_t i = 0; i < core->GetNRoutes(); ++i)
    {
        EXPECT_FALSE(core->GetRoute(i).IsHost()) << core->GetRoute(i);
    }

    // Access router: loopback, LAN /16, uplink /30, default via the core (192.168.0.4a+1).
    Ptr<Ipv4StaticRouting> router = Routing(t.GetAccessRouter(1));
    EXPECT_EQ(router->GetNRoutes(), 4u);
    EXPECT_TRUE(HasRoute(router, "0.0.0.0", "0.0.0.0", "192.168.0.5"));
    // Client: loopback, LAN, default via its router (10.a.0.1).
    Ptr<Ipv4StaticRouting> client = Routing(t.GetClient(7));
    EXPECT_EQ(client->GetNRoutes(), 3u);
    EXPECT_TRUE(HasRoute(client, "0.0.0.0", "0.0.0.0", "10.1.0.1"));
    // Server: loopback, LAN, default via the gateway 172.16.0.1.
    EXPECT_EQ(Routing(t.GetServer(0))->GetNRoutes(), 3u);
    EXPECT_TRUE(HasRoute(Routing(t.GetServer(0)), "0.0.0.0", "0.0.0.0", "172.16.0.1"));
    // DC gateway: loopback, link, LAN, default via the core end of link 3 (192.168.0.13).
    EXPECT_EQ(Routing(t.GetDcGateway())->GetNRoutes(), 4u);
    EXPECT_TRUE(HasRoute(Routing(t.GetDcGateway()), "0.0.0.0", "0.0.0.0", "192.168.0.13"));
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, CoreRouteCountDoesNotGrowWithClients)
{
    // 2 access networks x 50 clients: 1 + 2 + 1 + 2 + 1 = 7 routes, as for 2 x 1.
    const AdcIspTopology t = MakeHelper(2, 50, 1)->Build();
    EXPECT_EQ(t.GetNCoreRoutes(), 7u);
    EXPECT_EQ(t.GetNClients(), 100u);
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, AddressPlanFollowsAccessNetworkIndex)
{
    const AdcIspTopology t = MakeHelper(3, 5, 2)->Build();
    // Client 7 is client 2 of access network 1: router 10.1.0.1, clients from 10.1.0.2.
    EXPECT_EQ(t.GetAccessNetworkOfClient(7), 1u);
    EXPECT_EQ(t.GetClientAddress(7), Ipv4Address("10.1.0.4"));
    EXPECT_EQ(t.GetClientAddress(0), Ipv4Address("10.0.0.2"));
    EXPECT_EQ(t.GetClientAddress(14), Ipv4Address("10.2.0.6"));
    EXPECT_EQ(t.GetAccessNetworkPrefix(2), Ipv4Address("10.2.0.0"));
    // Servers after the gateway's 172.16.0.1.
    EXPECT_EQ(t.GetServerAddress(0), Ipv4Address("172.16.0.2"));
    EXPECT_EQ(t.GetServerAddress(1), Ipv4Address("172.16.0.3"));
    EXPECT_EQ(t.GetClients().Get(7), t.GetAccessNetworkClients(1).Get(2));
    EXPECT_THROW(t.GetAccessNetworkClients(3), AdcConfigError);
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, UdpEchoFromLastAccessNetworkReachesServer)
{
    const AdcIspTopology t = MakeHelper(3, 5, 2)->Build();
    PacketCounter replies;
    PacketCounter requests;
    InstallEcho(t.GetClient(14),
                t.GetServer(1),
                InetSocketAddress(t.GetServerAddress(1), 9),
                3,
                Seconds(1),
                &replies,
                &requests);
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    EXPECT_EQ(requests.n, 3u);
    EXPECT_EQ(replies.n, 3u);
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, UdpEchoOverIpv6ReachesServer)
{
    Ptr<AdcIspTopologyHelper> h = MakeHelper(2, 3, 1);
    h->SetAttribute("InstallIpv6", BooleanValue(true));
    const AdcIspTopology t = h->Build();
    ASSERT_EQ(t.GetClientInterfaces6().GetN(), 6u);
    // Client 5 is client 2 of access network 1: subnet 1 of fd00::/48, router ::1, clients
    // from ::2. Servers are in subnet 0xffff after the gateway's ::1.
    EXPECT_EQ(t.GetClientAddress6(5), Ipv6Address("fd00:0:0:1::4"));
    EXPECT_EQ(t.GetServerAddress6(0), Ipv6Address("fd00:0:0:ffff::2"));
    PacketCounter replies;
    PacketCounter requests;
    // Start after duplicate address detection has finished.
    InstallEcho(t.GetClient(5),
                t.GetServer(0),
                Inet6SocketAddress(t.GetServerAddress6(0), 9),
                2,
                Seconds(3),
                &replies,
                &requests);
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    EXPECT_EQ(requests.n, 2u);
    EXPECT_EQ(replies.n, 2u);
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, SystemIdsFollowAccessNetworkModuloPartitions)
{
    Ptr<AdcIspTopologyHelper> h = MakeHelper(3, 4, 2);
    h->SetAttribute("NumPartitions", UintegerValue(2));
    const AdcIspTopology t = h->Build();
    const uint32_t expected[] = {0, 1, 0}; // a % 2
    for (uint32_t a = 0; a < 3; ++a)
    {
        EXPECT_EQ(t.GetAccessRouter(a)->GetSystemId(), expected[a]);
        for (uint32_t j = 0; j < 4; ++j)
        {
            EXPECT_EQ(t.GetAccessNetworkClients(a).Get(j)->GetSystemId(), expected[a]);
        }
    }
    EXPECT_EQ(t.GetCoreRouter()->GetSystemId(), 0u);
    EXPECT_EQ(t.GetDcGateway()->GetSystemId(), 0u);
    EXPECT_EQ(t.GetServer(1)->GetSystemId(), 0u);
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, BadSettingsThrowNamingTheSettingAndLimit)
{
    Ptr<AdcIspTopologyHelper> h = MakeHelper(3, 65534, 2);
    ExpectConfigError(h, "ClientsPerAccessNetwork", "65533");
    ExpectConfigError(MakeHelper(256, 1, 2), "NumAccessNetworks", "255");
    ExpectConfigError(MakeHelper(0, 1, 2), "NumAccessNetworks", "255");
    ExpectConfigError(MakeHelper(1, 0, 2), "ClientsPerAccessNetwork", "65533");
    ExpectConfigError(MakeHelper(1, 1, 254), "NumServers", "253"); // a /24 holds 253 servers

    h = MakeHelper(1, 1, 1);
    h->SetAttribute("NumPartitions", UintegerValue(0));
    ExpectConfigError(h, "NumPartitions", "");
    h = MakeHelper(1, 1, 1);
    h->SetAttribute("ServerBase", StringValue("172.16.0.0"));
    ExpectConfigError(h, "ServerBase", "172.16.0.0");
    h = MakeHelper(1, 1, 1);
    h->SetAttribute("ServerBase", StringValue("172.16.0.1/24"));
    ExpectConfigError(h, "ServerBase", "host bits");
    h = MakeHelper(1, 1, 1);
    h->SetAttribute("ServerBase", StringValue("172.16.0.300/24"));
    ExpectConfigError(h, "ServerBase", "172.16.0.300/24");
    h = MakeHelper(1, 1, 1);
    h->SetAttribute("ClientBase", Ipv4AddressValue(Ipv4Address("10.0.1.0")));
    ExpectConfigError(h, "ClientBase", "10.0.1.0");
    h = MakeHelper(2, 1, 1);
    h->SetAttribute("ClientBase", Ipv4AddressValue(Ipv4Address("255.255.0.0")));
    ExpectConfigError(h, "ClientBase", "no room for 2");
    h = MakeHelper(2, 1, 1);
    h->SetAttribute("ClientBase", Ipv4AddressValue(Ipv4Address("127.0.0.0")));
    ExpectConfigError(h, "ClientBase overlaps", "127.0.0.0/8");
    h = MakeHelper(2, 1, 1);
    h->SetAttribute("LinkBase", StringValue("10.1.0.0/24")); // inside access network 1
    ExpectConfigError(h, "overlaps", "LinkBase");
    h = MakeHelper(3, 1, 1);
    h->SetAttribute("LinkBase", StringValue("192.168.0.0/28")); // 4 links, 4 needed: fine
    EXPECT_NO_THROW(h->Validate());
    h->SetAttribute("NumAccessNetworks", UintegerValue(4)); // 5 needed
    ExpectConfigError(h, "LinkBase", "5 are needed");

    // Nothing was created by the failed builds.
    EXPECT_EQ(NodeList::GetNNodes(), 0u);
    // The limits themselves are accepted.
    EXPECT_NO_THROW(MakeHelper(255, 65533, 253)->Validate());
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, SecondBuildWithSameAddressesThrowsBeforeCreatingNodes)
{
    Ptr<AdcIspTopologyHelper> h = MakeHelper(2, 2, 1);
    h->Build();
    const uint32_t nodes = NodeList::GetNNodes();
    EXPECT_EQ(nodes, 2u * 2 + 2 + 1 + 1 + 1);
    ExpectConfigError(h, "already allocated", "10.0.0.1");
    EXPECT_EQ(NodeList::GetNNodes(), nodes);
    // With other blocks, a second topology fits in the same simulation.
    h->SetAttribute("ClientBase", Ipv4AddressValue(Ipv4Address("10.100.0.0")));
    h->SetAttribute("ServerBase", StringValue("172.17.0.0/24"));
    h->SetAttribute("LinkBase", StringValue("192.169.0.0/16"));
    EXPECT_EQ(h->Build().GetClientAddress(0), Ipv4Address("10.100.0.2"));
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, PcapFilesAreWrittenWhereAsked)
{
    const std::string prefix = ::testing::TempDir() + "adc-topology-pcap";
    std::vector<std::string> files;
    PacketCounter replies;
    PacketCounter requests;
    {
        // Scoped: the files close when the last handle on their devices goes.
        Ptr<AdcIspTopologyHelper> h = MakeHelper(3, 5, 2);
        const AdcIspTopology t = h->Build();
        files = h->EnablePcapCoreDc(prefix);
        ASSERT_EQ(files.size(), 2u); // both ends
        for (const std::string& f : t.EnablePcap(prefix, AdcTopologyLink::ACCESS_UPLINK, 2))
        {
            files.push_back(f);
        }
        const std::vector<std::string> lan = t.EnablePcap(prefix, AdcTopologyLink::SERVER_LAN);
        ASSERT_EQ(lan.size(), 1u); // promiscuous at the gateway
        files.push_back(lan[0]);
        ASSERT_EQ(files.size(), 5u);
        EXPECT_THROW(t.EnablePcap(prefix, AdcTopologyLink::ACCESS_UPLINK, 3), AdcConfigError);

        InstallEcho(t.GetClient(14),
                    t.GetServer(0),
                    InetSocketAddress(t.GetServerAddress(0), 9),
                    2,
                    Seconds(1),
                    &replies,
                    &requests);
        Simulator::Stop(Seconds(3));
        Simulator::Run();
    }
    Simulator::Destroy();
    EXPECT_EQ(replies.n, 2u);
    for (const std::string& f : files)
    {
        // A pcap file is a 24-byte header, then records: every capture point saw the echo.
        EXPECT_GT(FileSize(f), 24) << f;
    }
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, NoServersMeansNoDcSideAndAttachToCoreWorks)
{
    Ptr<AdcIspTopologyHelper> h = MakeHelper(2, 3, 0);
    const AdcIspTopology t = h->Build();
    EXPECT_FALSE(t.GetDcGateway());
    EXPECT_EQ(NodeList::GetNNodes(), 6u + 2 + 1);
    EXPECT_EQ(t.GetNCoreRoutes(), 1u + 2 + 2); // loopback, 2 uplinks, 2 access /16s
    EXPECT_THROW(t.EnablePcap("x", AdcTopologyLink::CORE_DC), AdcConfigError);

    // An appliance on its own block; the core routes a virtual-IP prefix through it.
    Ptr<Node> appliance = CreateObject<Node>();
    const AdcCoreAttachment att =
        h->AttachToCore(appliance, Ipv4Address("10.200.0.0"), Ipv4Mask("255.255.255.252"));
    EXPECT_EQ(att.GetCoreAddress(), Ipv4Address("10.200.0.1"));
    EXPECT_EQ(att.GetNodeAddress(), Ipv4Address("10.200.0.2"));
    EXPECT_EQ(att.devices.Get(0)->GetNode(), t.GetCoreRouter());
    h->AddCoreRoute(Ipv4Address("198.51.100.0"), Ipv4Mask("255.255.255.0"), att);
    EXPECT_EQ(t.GetNCoreRoutes(), 5u + 1 + 1); // + the link /30 + the VIP /24
    EXPECT_TRUE(HasRoute(t.GetCoreStaticRouting(), "198.51.100.0", "255.255.255.0", "10.200.0.2"));

    // The next automatic attachment takes link 2 of LinkBase (links 0 and 1 are the uplinks).
    const AdcCoreAttachment att2 = h->AttachToCore(CreateObject<Node>());
    EXPECT_EQ(att2.GetCoreAddress(), Ipv4Address("192.168.0.9"));
    EXPECT_EQ(att2.GetNodeAddress(), Ipv4Address("192.168.0.10"));

    PacketCounter replies;
    PacketCounter requests;
    InstallEcho(t.GetClient(5),
                appliance,
                InetSocketAddress(att.GetNodeAddress(), 9),
                2,
                Seconds(1),
                &replies,
                &requests);
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    EXPECT_EQ(requests.n, 2u);
    EXPECT_EQ(replies.n, 2u);
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, StagesMustRunInOrder)
{
    Ptr<AdcIspTopologyHelper> h = MakeHelper(1, 1, 1);
    EXPECT_THROW(h->InstallInternetStack(), AdcConfigError);
    EXPECT_THROW(h->AttachToCore(CreateObject<Node>()), AdcConfigError);
    h->CreateNodesAndLinks();
    EXPECT_THROW(h->AssignAddressesAndRoutes(), AdcConfigError);
    h->InstallInternetStack();
    EXPECT_EQ(h->AssignAddressesAndRoutes().GetNClients(), 1u);
}

// REQ: CORE-01
TEST_F(AdcTopologyHelperTest, TenThousandClientsBuildInSeconds)
{
    const auto t0 = std::chrono::steady_clock::now();
    const AdcIspTopology t = MakeHelper(100, 100, 4)->Build();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(t.GetNClients(), 10000u);
    EXPECT_EQ(NodeList::GetNNodes(), 10000u + 100 + 1 + 1 + 4);
    // 1 loopback + 100 uplinks + DC link + 100 access /16s + server /24.
    EXPECT_EQ(t.GetNCoreRoutes(), 203u);
    EXPECT_EQ(t.GetClientAddress(9999), Ipv4Address("10.99.0.101"));
    // A generous bound: a quadratic step would take minutes at this size.
    EXPECT_LT(seconds, 30.0);
}
