/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of IlbHelper: what it builds for each ILB topology (nodes, devices, VIP on the
 * servers' loopbacks, routes), configuration errors, validation of built topologies, and the
 * health check bound to the servers' services. Traffic through the built topologies is in
 * ilb-helper-traffic-test.cc; the shared scenario is ilb-test-fixture.h.
 *
 * Expected values come from the seed (what each topology rewrites, which way responses go)
 * and from the address plan documented in ilb-helper.h, worked out by hand.
 */

#include "adc-test-accounting.h"
#include "ilb-test-fixture.h"

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
    // illumos's Full-NAT port space: NAT_PORT_START 4096, NAT_PORT_SIZE 65535 - 4096 (ilb_nat.c).
    EXPECT_EQ(rule.natPorts, AdcPortRange(4096, 65534));
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

TEST_F(AdcIlbHelperTest, HealthCheckIsBoundToEveryServersServiceInServerOrder)
{
    // REQ: ILB-02 The health check is a monitor bound to each server's service: its targets
    // are the servers, in order, under the servers' names; no adapter sits between them.
    Ptr<IlbHelper> h = MakeHelper("FULL_NAT", 1, 3);
    h->SetAttribute("HealthCheck", StringValue("PING"));
    IlbTopology t = h->Build();
    ASSERT_TRUE(t.monitor);
    ASSERT_EQ(t.monitor->GetNTargets(), 3u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        Ptr<AdcService> service = t.appliance->GetServerService(t.rule, i);
        EXPECT_EQ(service->GetName(), t.serverNames[i]);
        EXPECT_EQ(service->GetAddress(), t.serverAddresses[i]);
        EXPECT_EQ(service->GetMonitors(), std::vector<Ptr<AdcHealthMonitor>>{t.monitor});
        EXPECT_EQ(t.monitor->GetTargetName(i), t.serverNames[i]);
        // Not probed yet: UNKNOWN, which ILB treats as up.
        EXPECT_EQ(service->GetState(), AdcService::State::UNKNOWN);
        EXPECT_TRUE(t.appliance->IsServerUp(t.rule, i));
    }
    // The rule's virtual server holds the three services and is UP (UnknownIsUp).
    Ptr<AdcVirtualServer> vs = t.appliance->GetRuleVServer(t.rule);
    EXPECT_EQ(vs->GetName(), "rule1");
    EXPECT_EQ(vs->GetServiceBindings().size(), 3u);
    EXPECT_EQ(vs->GetState(), AdcService::State::UP);
}

} // namespace
