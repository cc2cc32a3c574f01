/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of traffic through IlbHelper's test beds: HTTP end to end through DSR, Half-NAT and
 * Full-NAT (IPv4 and IPv6) with what the servers and clients see, DSR's MAC-only rewrite,
 * ordinary traffic, sticky sessions, a back-end failing under a health check, and pcap output
 * (scenario: ilb-test-fixture.h).
 *
 * Expected values come from the seed (what each topology rewrites, which way responses go)
 * and from the address plan documented in ilb-helper.h, worked out by hand.
 */

#include "adc-test-accounting.h"
#include "adc-test-fixtures.h"
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

    // REQ: ILB-01 (each request to the VIP matched the rule)
    EXPECT_GE(r.ilb.matches.size(), total);
    if (topo == "DSR")
    {
        // REQ: ILB-02, ILB-03 (DSR keeps no entries: a choice per packet; hash-ip-port keeps
        // each of the 20 connections on one server)
        std::map<std::pair<AdcIpAddress, uint16_t>, std::set<uint32_t>> serversOf;
        for (const IlbLog::Chosen& c : r.ilb.chosen)
        {
            ASSERT_LT(c.server, nServers);
            serversOf[{c.flow.src, c.flow.srcPort}].insert(c.server);
        }
        EXPECT_GT(r.ilb.chosen.size(), total);
        EXPECT_EQ(serversOf.size(), total);
        for (const auto& [conn, servers] : serversOf)
        {
            EXPECT_EQ(servers.size(), 1u) << conn.first << ":" << conn.second;
        }
    }
    else
    {
        // REQ: ILB-02 (one choice per new connection; round robin spreads 20 connections over
        // 3 servers as 7/7/6)
        ASSERT_EQ(r.ilb.chosen.size(), total);
        std::vector<uint32_t> perServer(nServers, 0);
        for (const IlbLog::Chosen& c : r.ilb.chosen)
        {
            ASSERT_LT(c.server, nServers);
            perServer[c.server]++;
        }
        for (uint32_t i = 0; i < nServers; ++i)
        {
            EXPECT_GE(perServer[i], total / nServers) << "server " << i;
            EXPECT_LE(perServer[i], total / nServers + 1) << "server " << i;
        }
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
    // REQ: ILB-02 The monitor is bound to the servers' services: server2's service went DOWN
    // (the others stayed as they were), and that took it out of rotation.
    std::vector<IlbLog::StateChange> downs;
    std::copy_if(r.ilb.states.begin(),
                 r.ilb.states.end(),
                 std::back_inserter(downs),
                 [](const IlbLog::StateChange& c) { return c.now == AdcService::State::DOWN; });
    ASSERT_EQ(downs.size(), 1u);
    EXPECT_EQ(downs[0].service, "server2");
    EXPECT_GT(downs[0].when, failAt);
    EXPECT_LE(downs[0].when, detected);
    EXPECT_FALSE(t.appliance->IsServerUp(t.rule, 1));
    // After detection the ILB sends new connections elsewhere.
    uint32_t chosenAfter[3] = {0, 0, 0};
    uint32_t chosenToFailedWhileUndetected = 0;
    for (const IlbLog::Chosen& c : r.ilb.chosen)
    {
        if (c.when > detected)
        {
            chosenAfter[c.server]++;
        }
        else if (c.when >= failAt - MilliSeconds(100) && c.server == 1)
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
    const std::string dir = adctest::FreshTempDir("ilb-helper-test-pcap");
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
