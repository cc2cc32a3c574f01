/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The SDN software load balancer end to end (SlbTopologyHelper): the seed's Contoso walk-through,
 * BGP announcements and ECMP spread over the MUX pool, a MUX failing and one added, DIP health,
 * run-time policy, IPv6, VLAN and VNI DIPs, internal VIPs with Fastpath.
 */

#include "adc-test-accounting.h"
#include "slb-test-fixture.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-slb-commands.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

using namespace ns3;

namespace
{

/// \return a topology helper with \p muxes MUXes, 2 routers, 2 hosts and \p clients clients
Ptr<SlbTopologyHelper>
Helper(uint32_t clients, uint32_t muxes, uint32_t hosts = 2)
{
    Ptr<SlbTopologyHelper> h = CreateObject<SlbTopologyHelper>();
    h->SetAttribute("Clients", UintegerValue(clients));
    h->SetAttribute("Muxes", UintegerValue(muxes));
    h->SetAttribute("Hosts", UintegerValue(hosts));
    h->SetAttribute("HoldTime", TimeValue(Seconds(3)));
    return h;
}

/// \param bed a bed \param a an address \return the MUX whose link address \p a is, or -1
int
MuxOfAddress(const SlbBed& bed, const std::string& a)
{
    for (uint32_t i = 0; i < bed.t.muxAddress.size(); ++i)
    {
        for (const auto& m : bed.t.muxAddress[i])
        {
            if (m.ToString() == a)
            {
                return static_cast<int>(i);
            }
        }
    }
    return -1;
}

/// The seed's walk-through with DIPs on a virtual network (VNI) or on a VLAN (0).
class SlbContoso : public ::testing::TestWithParam<uint32_t>
{
};

} // namespace

// REQ: SLB-08, SLB-06, SLB-07, SLB-04, SLB-02
TEST_P(SlbContoso, OneRequestTakesTheSeedsNineStepPath)
{
    Ptr<SlbTopologyHelper> h = Helper(1, 3);
    h->SetAttribute("Vni", UintegerValue(GetParam()));
    SlbBed bed(h);
    bed.AddSeedVip();
    bed.AddServers();
    bed.AddClients(InetSocketAddress(bed.vip.GetIpv4(), 80), 1, Seconds(2), Seconds(1));
    bed.Run(Seconds(5));

    // The request completed, answered by one of the seed's two DIPs.
    EXPECT_TRUE(AdcExpectAccounting(bed.Tally(), AdcAccountingExpectation::Completed(1)));
    ASSERT_EQ(bed.done.size(), 1u);
    const std::string server = bed.done[0].server;
    EXPECT_TRUE(server == "vm1-1" || server == "vm2-1") << server;

    // Step 4: each MUX in service hosts the VIP; the routers learnt it from every MUX (SLB-04).
    for (uint32_t j = 0; j < 2; ++j)
    {
        const std::string router = "router" + std::to_string(j + 1);
        std::set<std::string> expected;
        for (uint32_t i = 0; i < 3; ++i)
        {
            expected.insert(bed.t.muxAddress[i][j].ToString());
        }
        EXPECT_EQ(bed.LearntVia(router, bed.vip), expected) << router;
    }
    EXPECT_EQ(bed.LearntVia("edge", bed.vip).size(), 2u);

    // Step 3: the edge chose a router, that router chose a MUX (per-flow ECMP).
    const SlbHopEvent* edgeHop = nullptr;
    for (const auto& e : bed.hops)
    {
        if (e.router == "edge" && e.flow.dst == bed.vip)
        {
            edgeHop = &e;
            break;
        }
    }
    ASSERT_NE(edgeHop, nullptr);
    int routerIndex = -1;
    for (uint32_t j = 0; j < 2; ++j)
    {
        if (edgeHop->gateway == "10.255." + std::to_string(j + 1) + ".2")
        {
            routerIndex = static_cast<int>(j);
        }
    }
    ASSERT_GE(routerIndex, 0) << edgeHop->gateway;
    int muxIndex = -1;
    for (const auto& e : bed.hops)
    {
        if (e.router == "router" + std::to_string(routerIndex + 1) && e.flow.dst == bed.vip)
        {
            muxIndex = MuxOfAddress(bed, e.gateway);
        }
    }
    ASSERT_GE(muxIndex, 0);

    // Steps 4-5: that MUX saw the two DIPs and chose the one that answered.
    ASSERT_FALSE(bed.dips.empty());
    for (const auto& d : bed.dips)
    {
        EXPECT_EQ(d.mux, static_cast<uint32_t>(muxIndex));
        EXPECT_EQ(d.flow.dst, bed.vip); // the MUX sees only client-to-VIP packets (SLB-07)
        EXPECT_EQ(d.dip.ToString(), server == "vm1-1" ? "10.10.10.5" : "10.10.20.5");
    }
    EXPECT_GT(bed.encapsulated[bed.t.muxNames[muxIndex]], 0u);
    // Steps 6 and 8: the host translated both ways; step 9: the ToR routed the VIP's replies
    // towards the client (DSR: no MUX on the way back).
    EXPECT_GT(bed.natIn, 0u);
    EXPECT_GT(bed.natOut, 0u);
    bool torReturn = false;
    for (const auto& e : bed.hops)
    {
        torReturn = torReturn || (e.router == "tor" && e.flow.src == bed.vip &&
                                  e.flow.dst == bed.t.clientAddress[0]);
    }
    EXPECT_TRUE(torReturn);
}

INSTANTIATE_TEST_SUITE_P(VniAndVlan, SlbContoso, ::testing::Values(5001u, 0u));

// REQ: SLB-05, SLB-12, SLB-14
TEST(SlbScenario, FlowsSpreadOverEveryMuxAndEveryRouterByEcmp)
{
    SlbBed bed(Helper(8, 3));
    bed.AddSeedVip();
    bed.AddServers();
    // 8 clients x 12 requests, each request on its own connection: 96 flows.
    bed.AddClients(InetSocketAddress(bed.vip.GetIpv4(), 80), 12, Seconds(2), Seconds(0.05));
    bed.Run(Seconds(5));
    EXPECT_TRUE(AdcExpectAccounting(bed.Tally(), AdcAccountingExpectation::Completed(96)));
    std::map<uint32_t, std::set<std::string>> flowsPerMux;
    std::map<std::string, uint32_t> dipFlows;
    std::map<std::string, std::string> dipOf;
    for (const auto& d : bed.dips)
    {
        flowsPerMux[d.mux].insert(d.flow.ToString());
        if (dipOf.emplace(d.flow.ToString(), d.dip.ToString()).second)
        {
            ++dipFlows[d.dip.ToString()];
        }
        // A flow keeps its DIP (one MUX, one choice, flow table after the first packet).
        EXPECT_EQ(dipOf[d.flow.ToString()], d.dip.ToString());
    }
    // Every MUX carried flows, every flow one MUX (per-flow ECMP: no flow split over MUXes).
    ASSERT_EQ(flowsPerMux.size(), 3u);
    std::size_t sum = 0;
    for (const auto& [mux, flows] : flowsPerMux)
    {
        EXPECT_GE(flows.size(), 10u) << "MUX" << mux + 1; // 96 / 3 expected, binomial spread
        sum += flows.size();
    }
    EXPECT_EQ(sum, 96u);
    EXPECT_EQ(dipFlows.size(), 2u);
    std::set<std::string> edgeGateways;
    for (const auto& e : bed.hops)
    {
        if (e.router == "edge" && e.flow.dst == bed.vip)
        {
            edgeGateways.insert(e.gateway);
        }
    }
    EXPECT_EQ(edgeGateways.size(), 2u); // both routers
}

// REQ: SLB-09
TEST(SlbManager, RejectsANinthMuxAVipWithoutDipAndUnknownHosts)
{
    SlbBed bed(Helper(1, 8));
    EXPECT_EQ(bed.t.manager->GetMuxes().size(), 8u);
    Ptr<SlbMux> extra = CreateObject<SlbMux>();
    bed.t.manager->DeployMux("MUX9", extra, nullptr);
    try
    {
        bed.t.manager->AddMux("MUX9");
        ADD_FAILURE() << "a ninth MUX was accepted";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("at most 8"), std::string::npos) << e.what();
    }
    bed.t.manager->AddVip("EMPTY", {Ipv4Address("107.105.47.61"), 6, 80}, SlbVipKind::PUBLIC);
    SlbDip d;
    d.address = bed.t.vmAddress[0];
    d.port = 80;
    d.vni = 5001;
    EXPECT_THROW(bed.t.manager->AddDip("EMPTY", d, "HOST9"), AdcConfigError);
    d.vni = 7777; // host 1 carries its VM on VNI 5001 only
    EXPECT_THROW(bed.t.manager->AddDip("EMPTY", d, "HOST1"), AdcConfigError);
    try
    {
        bed.t.manager->Commit();
        ADD_FAILURE() << "a VIP with no DIP was committed";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("EMPTY"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("no DIP"), std::string::npos) << e.what();
    }
}

// REQ: SLB-09
TEST(SlbManager, TextCommandsActOnTheManagerAndNameFileAndLineInErrors)
{
    Ptr<SlbTopologyHelper> h = Helper(1, 3);
    h->SetAttribute("MuxesInService", UintegerValue(0));
    SlbBed bed(h);
    auto reader = AdcSlbCommands::MakeReader(bed.t.manager);
    reader->ReadString("add loadBalancerMux MUX1\n"
                       "add loadBalancerMux MUX2\n"
                       "add loadBalancer WEB 107.105.47.60 -protocol TCP -frontendPort 80\n"
                       "bind loadBalancer WEB -backendIP 10.10.10.5 -backendPort 8080 -host HOST1 "
                       "-vni 5001\n",
                       "contoso.slb");
    EXPECT_EQ(bed.t.manager->GetMuxes(), (std::vector<std::string>{"MUX1", "MUX2"}));
    const SlbVip& vip = bed.t.manager->GetVip("WEB");
    ASSERT_EQ(vip.dips.size(), 1u);
    EXPECT_EQ(vip.dips[0].port, 8080);
    EXPECT_EQ(vip.dips[0].hostPa, bed.t.hostPa[0]);
    // Shown back, the policy reads as the same lines.
    const std::string shown = reader->Show();
    EXPECT_NE(shown.find("add loadBalancer WEB 107.105.47.60 -protocol TCP -frontendPort 80"),
              std::string::npos)
        << shown;
    EXPECT_NE(shown.find("-backendIP 10.10.10.5 -backendPort 8080 -host HOST1 -vni 5001"),
              std::string::npos)
        << shown;
    try
    {
        reader->ReadString("add loadBalancer BAD 107.105.47.62 -protocol SCTP -frontendPort 80\n",
                           "bad.slb");
        ADD_FAILURE() << "SCTP accepted";
    }
    catch (const AdcConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("bad.slb:1"), std::string::npos) << what;
        EXPECT_NE(what.find("SCTP"), std::string::npos) << what;
        EXPECT_NE(what.find("UDP"), std::string::npos) << what; // what is allowed
    }
    EXPECT_THROW(reader->ReadString("add loadBalancerMux MUX9\n", "x.slb"), AdcConfigError);
}

// REQ: SLB-10, SLB-05, SLB-12, SLB-14
TEST(SlbScenario, RoutersDropAFailedMuxExactlyWhenTheirHoldTimerExpiresAndFlowsKeepTheirDip)
{
    // 4 MUXes deployed, 3 in service; MUX1 fails at 4 s; MUX4 is added at 9 s. Clients keep
    // persistent connections and send a request every 100 ms on each.
    Ptr<SlbTopologyHelper> h = Helper(6, 4);
    h->SetAttribute("MuxesInService", UintegerValue(3));
    SlbBed bed(h);
    bed.AddSeedVip();
    bed.AddServers();
    bed.AddClients(InetSocketAddress(bed.vip.GetIpv4(), 80),
                   100,
                   Seconds(2),
                   Seconds(0.1),
                   4,
                   true);
    const Time failAt = Seconds(4);
    Simulator::Schedule(failAt, &SlbTopologyHelper::FailMux, bed.t, 0);
    Simulator::Schedule(Seconds(9), [&bed]() { bed.t.manager->AddMux("MUX4"); });
    bed.Run(Seconds(13));

    // Each router withdraws MUX1's VIP route exactly one hold time (3 s) after the last BGP
    // message it received from MUX1: not before, not later.
    for (uint32_t j = 0; j < 2; ++j)
    {
        const std::string router = "router" + std::to_string(j + 1);
        const std::string mux1 = bed.t.muxAddress[0][j].ToString();
        const auto& rx = bed.received[router + " " + mux1];
        ASSERT_FALSE(rx.empty()) << router;
        Time lastBeforeFailure;
        for (const Time& at : rx)
        {
            if (at <= failAt)
            {
                lastBeforeFailure = at;
            }
        }
        EXPECT_LE(rx.back(), failAt); // nothing from the failed MUX afterwards
        Time withdrawnAt = Time::Max();
        for (const auto& r : bed.routes)
        {
            if (r.router == router && !r.change.announced && r.change.prefix == bed.vip &&
                r.change.nextHop.ToString() == mux1)
            {
                withdrawnAt = std::min(withdrawnAt, r.at);
            }
        }
        EXPECT_EQ(withdrawnAt, lastBeforeFailure + Seconds(3)) << router;
        // MUX4, added at 9 s, is learnt a policy delay and an UPDATE later.
        EXPECT_TRUE(bed.LearntVia(router, bed.vip).count(bed.t.muxAddress[3][j].ToString()))
            << router;
        EXPECT_FALSE(bed.LearntVia(router, bed.vip).count(mux1)) << router;
    }

    // Every flow kept its DIP through the failure and the addition, whichever MUX carried it
    // (Maglev: every MUX computes the same DIP), and MUX4 carried some after 9 s.
    std::map<std::string, std::string> dipOf;
    std::map<std::string, std::set<uint32_t>> muxesOf;
    bool mux4 = false;
    for (const auto& d : bed.dips)
    {
        auto [it, fresh] = dipOf.emplace(d.flow.ToString(), d.dip.ToString());
        EXPECT_EQ(it->second, d.dip.ToString()) << d.flow.ToString();
        muxesOf[d.flow.ToString()].insert(d.mux);
        mux4 = mux4 || d.mux == 3;
        EXPECT_FALSE(d.mux == 0 && d.at > failAt); // the failed MUX forwards nothing
    }
    EXPECT_TRUE(mux4);
    std::size_t moved = 0;
    for (const auto& [flow, muxes] : muxesOf)
    {
        moved += muxes.size() > 1;
    }
    EXPECT_GT(moved, 0u); // flows did change MUX, and kept their DIP
    // Nothing lost silently: every request ended, completed or timed out (those caught on
    // MUX1 before the routers' hold timers expired); none is still open.
    const AdcRequestTally tally = bed.Tally();
    EXPECT_EQ(tally.sent, tally.completed + tally.failed) << tally.ToString();
    EXPECT_GT(tally.completed, 0.8 * tally.sent) << tally.ToString();
}

// REQ: SLB-10, SLB-05, SLB-09
TEST(SlbScenario, ARemovedMuxIsWithdrawnByItsOwnUpdateAndNoRequestFails)
{
    // 3 MUXes in service; the SLB manager takes MUX1 out of service at 4 s (an orderly removal,
    // not a crash) and puts it back at 8 s. Clients keep persistent connections and send a
    // request every 100 ms on each.
    SlbBed bed(Helper(6, 3));
    bed.AddSeedVip();
    bed.AddServers();
    bed.AddClients(InetSocketAddress(bed.vip.GetIpv4(), 80), 80, Seconds(2), Seconds(0.1), 4, true);
    TimeValue delay;
    bed.t.manager->GetAttribute("PolicyDelay", delay);
    const Time removeAt = Seconds(4);
    const Time readdAt = Seconds(8);
    Simulator::Schedule(removeAt, [&bed]() {
        bed.t.manager->RemoveMux("MUX1");
        EXPECT_EQ(bed.t.manager->GetMuxes(), (std::vector<std::string>{"MUX2", "MUX3"}));
        try
        {
            bed.t.manager->RemoveMux("MUX1");
            ADD_FAILURE() << "removing MUX1 twice was accepted";
        }
        catch (const AdcConfigError& e)
        {
            EXPECT_NE(std::string(e.what()).find("'MUX1': not in service"), std::string::npos)
                << e.what();
        }
    });
    Simulator::Schedule(readdAt, [&bed]() { bed.t.manager->AddMux("MUX1"); });
    bed.Run(Seconds(12));

    Time lastWithdraw;
    for (uint32_t j = 0; j < 2; ++j)
    {
        const std::string router = "router" + std::to_string(j + 1);
        const std::string mux1 = bed.t.muxAddress[0][j].ToString();
        Time withdrawnAt = Time::Max();
        for (const auto& r : bed.routes)
        {
            if (r.router == router && !r.change.announced && r.change.prefix == bed.vip &&
                r.change.nextHop.ToString() == mux1)
            {
                withdrawnAt = std::min(withdrawnAt, r.at);
            }
        }
        // The withdraw is MUX1's own UPDATE: it arrives with a message from MUX1, at least a
        // policy delay after the removal and before the hold timer (3 s after the last message
        // before the removal) would have run out; the session stays up (keepalives follow).
        const auto& rx = bed.received[router + " " + mux1];
        ASSERT_FALSE(rx.empty()) << router;
        Time lastBefore;
        for (const Time& at : rx)
        {
            lastBefore = at <= removeAt ? at : lastBefore;
        }
        EXPECT_GE(withdrawnAt, removeAt + delay.Get()) << router;
        EXPECT_LT(withdrawnAt, lastBefore + Seconds(3)) << router;
        EXPECT_NE(std::find(rx.begin(), rx.end(), withdrawnAt), rx.end()) << router;
        EXPECT_GT(rx.back(), withdrawnAt + Seconds(3)) << router;
        // Put back, MUX1 is learnt again.
        EXPECT_TRUE(bed.LearntVia(router, bed.vip).count(mux1)) << router;
        lastWithdraw = std::max(lastWithdraw, withdrawnAt);
    }
    // Every flow kept its DIP (the DIP set never changed: every MUX computes the same DIP);
    // MUX1 carried flows before the removal, none while out of service, and some once back.
    std::map<std::string, std::string> dipOf;
    uint32_t before = 0;
    uint32_t out = 0;
    uint32_t back = 0;
    for (const auto& d : bed.dips)
    {
        auto [it, fresh] = dipOf.emplace(d.flow.ToString(), d.dip.ToString());
        EXPECT_EQ(it->second, d.dip.ToString()) << d.flow.ToString();
        if (d.mux == 0)
        {
            before += d.at < removeAt;
            out += d.at > lastWithdraw + MilliSeconds(100) && d.at < readdAt;
            back += d.at > readdAt + delay.Get();
        }
    }
    EXPECT_GT(before, 0u);
    EXPECT_EQ(out, 0u);
    EXPECT_GT(back, 0u);
    // Established connections survive an orderly removal: no request fails (SLB-10).
    const AdcRequestTally tally = bed.Tally();
    EXPECT_EQ(tally.sent, 6u * 80u) << tally.ToString();
    EXPECT_EQ(tally.completed, tally.sent) << tally.ToString();
}

// REQ: SLB-03
TEST(SlbScenario, ADipFailingItsProbeGetsNoNewFlows)
{
    Config::SetDefault("ns3::SlbHostAgent::IntervalInSeconds", TimeValue(Seconds(1)));
    Config::SetDefault("ns3::SlbHostAgent::NumberOfProbes", UintegerValue(2));
    SlbBed bed(Helper(4, 3));
    Config::Reset();
    bed.AddSeedVip();
    bed.AddServers();
    bed.servers[0]->SetStopTime(Seconds(3)); // vm1-1 (10.10.10.5) stops listening
    bed.AddClients(InetSocketAddress(bed.vip.GetIpv4(), 80), 40, Seconds(2), Seconds(0.1), 8);
    bed.Run(Seconds(10));

    ASSERT_FALSE(bed.health.empty());
    EXPECT_EQ(bed.health[0], std::make_pair(std::string("10.10.10.5"), false));
    EXPECT_FALSE(bed.t.manager->IsDipHealthy("SHAREPOINT", Ipv4Address("10.10.10.5")));
    Time down;
    for (const auto& [at, what] : bed.pushes)
    {
        if (what.find("dip-down") != std::string::npos)
        {
            down = at;
        }
    }
    ASSERT_GT(down, Seconds(3));
    // After the MUXes learnt it, no new flow goes to 10.10.10.5.
    for (const auto& d : bed.dips)
    {
        if (d.at > down && !d.fromTable)
        {
            EXPECT_EQ(d.dip.ToString(), "10.10.20.5");
        }
    }
    // Requests sent after the MUXes knew all completed, on vm2-1.
    uint32_t after = 0;
    for (const auto& r : bed.done)
    {
        if (r.start > down)
        {
            ++after;
            EXPECT_EQ(r.outcome, AdcRequestOutcome::COMPLETED) << r.reason << " at " << r.start;
            EXPECT_EQ(r.server, "vm2-1");
        }
    }
    EXPECT_GT(after, 0u);
}

// REQ: SLB-13
TEST(SlbScenario, AnIpv6VipWorksEndToEnd)
{
    Ptr<SlbTopologyHelper> h = Helper(2, 3);
    h->SetAttribute("Ipv6", BooleanValue(true));
    SlbBed bed(h);
    bed.AddSeedVip();
    bed.AddServers();
    bed.AddClients(Inet6SocketAddress(bed.vip6.GetIpv6(), 80), 5, Seconds(2), Seconds(0.1));
    bed.Run(Seconds(5));
    EXPECT_TRUE(AdcExpectAccounting(bed.Tally(), AdcAccountingExpectation::Completed(10)));
    // Learnt over MP-BGP from every MUX by both routers.
    EXPECT_EQ(bed.LearntVia("router1", bed.vip6).size(), 3u);
    ASSERT_FALSE(bed.dips.empty());
    for (const auto& d : bed.dips)
    {
        EXPECT_TRUE(d.dip.IsV6());
        EXPECT_EQ(d.flow.dst, bed.vip6);
    }
    EXPECT_GT(bed.natOut, 0u);
}

// REQ: SLB-01, SLB-06
TEST(SlbScenario, InternalVipTrafficTakesFastpathAfterTheHandshake)
{
    // vm1-2 (10.10.11.5, itself a DIP of VIP APP) talks to the internal VIP 10.1.0.100 whose
    // DIP is vm2-1: after the handshake the MUX redirects, and later packets go host to host.
    Ptr<SlbTopologyHelper> h = Helper(1, 2);
    h->SetAttribute("VmsPerHost", UintegerValue(2));
    SlbBed bed(h);
    Ptr<SlbManager> m = bed.t.manager;
    const Ipv4Address internalVip("10.1.0.100");
    m->AddVip("INTERNAL", {internalVip, AdcFlowKey::PROTO_TCP, 80}, SlbVipKind::INTERNAL);
    m->AddVip("APP", {Ipv4Address("10.1.0.50"), AdcFlowKey::PROTO_TCP, 80}, SlbVipKind::PUBLIC);
    SlbDip d;
    d.port = 80;
    d.vni = 5001;
    d.address = bed.t.vmAddress[bed.t.Vm(1, 0)];
    m->AddDip("INTERNAL", d, "HOST2");
    d.address = bed.t.vmAddress[bed.t.Vm(0, 1)];
    m->AddDip("APP", d, "HOST1");
    m->Commit();
    bed.AddServers();
    Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
    c->SetAttribute("Remote", AddressValue(InetSocketAddress(internalVip, 80)));
    c->SetAttribute("MaxRequests", UintegerValue(10));
    c->SetAttribute("Persistent", BooleanValue(true));
    c->SetAttribute("InterRequestTime", StringValue("ns3::ConstantRandomVariable[Constant=0.05]"));
    bed.t.vms.Get(bed.t.Vm(0, 1))->AddApplication(c);
    c->SetStartTime(Seconds(2));
    bed.clients.push_back(c);
    uint32_t redirects = 0;
    for (const auto& mux : bed.t.mux)
    {
        mux->TraceConnectWithoutContext(
            "FastpathRedirect",
            Callback<void, const AdcFlowKey&, const AdcIpAddress&, const AdcIpAddress&>(
                [&redirects, &bed](const AdcFlowKey& f,
                                   const AdcIpAddress& clientHost,
                                   const AdcIpAddress& dipHost) {
                    ++redirects;
                    EXPECT_EQ(clientHost, bed.t.hostPa[0]);
                    EXPECT_EQ(dipHost, bed.t.hostPa[1]);
                    EXPECT_EQ(f.dst, AdcIpAddress(Ipv4Address("10.1.0.100")));
                }));
    }
    uint32_t fastpath = 0;
    bed.t.hostSwitch[0]->TraceConnectWithoutContext(
        "Fastpath",
        Callback<void, const AdcFlowKey&, const AdcIpAddress&>(
            [&fastpath](const AdcFlowKey&, const AdcIpAddress&) { ++fastpath; }));
    bed.Run(Seconds(4));

    EXPECT_TRUE(AdcExpectAccounting(bed.Tally(), AdcAccountingExpectation::Completed(10)));
    EXPECT_EQ(redirects, 1u); // one connection, one redirect
    EXPECT_EQ(bed.t.hostAgent[0]->GetRedirectsInstalled(), 1u);
    EXPECT_GT(fastpath, 0u);
    // The MUXes carried only the first packets: far fewer than the client sent.
    uint32_t viaMux = 0;
    for (const auto& [mux, n] : bed.encapsulated)
    {
        viaMux += n;
    }
    EXPECT_GT(viaMux, 0u);
    EXPECT_LT(viaMux, fastpath);
}

// REQ: SLB-11, SLB-09
TEST(SlbScenario, ADipAddedAtRunTimeReachesItsHostAgentAndTheMuxesAPolicyDelayLater)
{
    SlbBed bed(Helper(4, 2, 3));
    Ptr<SlbManager> m = bed.t.manager;
    const Ipv4Address vip("107.105.47.60");
    m->AddVip("WEB", {vip, AdcFlowKey::PROTO_TCP, 80}, SlbVipKind::PUBLIC);
    SlbDip d;
    d.port = 80;
    d.vni = 5001;
    for (uint32_t h = 0; h < 2; ++h)
    {
        d.address = bed.t.vmAddress[bed.t.Vm(h, 0)];
        m->AddDip("WEB", d, bed.t.hostNames[h]);
    }
    m->Commit();
    bed.AddServers();
    std::vector<std::pair<Time, std::string>> host3;
    bed.t.hostAgent[2]->TraceConnectWithoutContext(
        "PolicyUpdate",
        Callback<void, const std::string&, const std::string&>(
            [&host3](const std::string&, const std::string& what) {
                host3.emplace_back(Simulator::Now(), what);
            }));
    const Time addAt = Seconds(3);
    Simulator::Schedule(addAt, [&bed, d]() mutable {
        d.address = bed.t.vmAddress[bed.t.Vm(2, 0)];
        bed.t.manager->AddDip("WEB", d, "HOST3");
    });
    bed.AddClients(InetSocketAddress(vip, 80), 30, Seconds(2), Seconds(0.1), 4);
    bed.Run(Seconds(8));

    // The host agent programmed its switch exactly PolicyDelay (50 ms by default) after the call.
    ASSERT_FALSE(host3.empty());
    EXPECT_EQ(host3[0].first, addAt + MilliSeconds(50));
    EXPECT_EQ(host3[0].second, "set-nat TCP 107.105.47.60:80 -> 10.10.30.5:80@10.200.3.2/vni5001");
    // Each MUX got the VIP with three DIPs at the same time.
    uint32_t muxPushes = 0;
    for (const auto& [at, what] : bed.pushes)
    {
        if (what.find("set-vip TCP 107.105.47.60:80 dips=3") != std::string::npos)
        {
            ++muxPushes;
            EXPECT_EQ(at, addAt + MilliSeconds(50));
        }
    }
    EXPECT_EQ(muxPushes, 2u);
    // New flows reach the new DIP, and nothing was lost.
    EXPECT_TRUE(AdcExpectAccounting(bed.Tally(), AdcAccountingExpectation::Completed(120)));
    uint32_t onVm3 = 0;
    for (const auto& r : bed.done)
    {
        onVm3 += r.server == "vm3-1";
        EXPECT_FALSE(r.server == "vm3-1" && r.start < addAt);
    }
    EXPECT_GT(onVm3, 0u);
}

// REQ: SLB-03, SLB-09
TEST(SlbScenario, AFailedHostsDipsGetNoNewFlowsOnceItsHeartbeatsStop)
{
    SlbBed bed(Helper(4, 2));
    bed.AddSeedVip();
    bed.AddServers();
    const Time failAt = Seconds(3.5);
    Simulator::Schedule(failAt, &SlbTopologyHelper::FailHost, bed.t, 1); // host2, 10.10.20.5
    bed.AddClients(InetSocketAddress(bed.vip.GetIpv4(), 80), 60, Seconds(2), Seconds(0.1), 8);
    bed.Run(Seconds(12));

    // The manager hears the last heartbeat sent before the failure (every 1 s from 0 s, each
    // ReportDelay = 50 ms later) and declares the host down HostTimeout (3 s) after it.
    EXPECT_FALSE(bed.t.manager->IsHostUp("HOST2"));
    ASSERT_FALSE(bed.health.empty());
    EXPECT_EQ(bed.health[0], std::make_pair(std::string("10.10.20.5"), false));
    Time down;
    for (const auto& [at, what] : bed.pushes)
    {
        if (what.find("dip-down") != std::string::npos && down.IsZero())
        {
            down = at;
        }
    }
    // last heartbeat sent at 3 s, heard at 3.05 s, timed out at 6.05 s, pushed 50 ms later
    EXPECT_EQ(down, Seconds(3) + MilliSeconds(50) + Seconds(3) + MilliSeconds(50));
    for (const auto& d : bed.dips)
    {
        if (d.at > down && !d.fromTable)
        {
            EXPECT_EQ(d.dip.ToString(), "10.10.10.5");
        }
    }
    // Requests sent once the MUXes knew completed on vm1-1; those caught on the dead host
    // failed with a reason; none is left open.
    const AdcRequestTally tally = bed.Tally();
    EXPECT_EQ(tally.sent, tally.completed + tally.failed) << tally.ToString();
    uint32_t after = 0;
    for (const auto& r : bed.done)
    {
        if (r.start > down)
        {
            ++after;
            EXPECT_EQ(r.outcome, AdcRequestOutcome::COMPLETED) << r.reason;
            EXPECT_EQ(r.server, "vm1-1");
        }
        if (r.outcome == AdcRequestOutcome::FAILED)
        {
            EXPECT_FALSE(r.reason.empty());
        }
    }
    EXPECT_GT(after, 0u);
}

// REQ: SLB-05, SLB-12
TEST(SlbScenario, ARouterLinkFlappingMovesFlowsToTheOtherRouterAndBack)
{
    SlbBed bed(Helper(6, 2));
    bed.AddSeedVip();
    bed.AddServers();
    const Time downAt = Seconds(3);
    const Time upAt = Seconds(4);
    Simulator::Schedule(downAt, &SlbTopologyHelper::SetLinkUp, bed.t, "edge-router1", false);
    Simulator::Schedule(upAt, &SlbTopologyHelper::SetLinkUp, bed.t, "edge-router1", true);
    bed.AddClients(InetSocketAddress(bed.vip.GetIpv4(), 80), 40, Seconds(2), Seconds(0.1), 4);
    bed.Run(Seconds(10));

    // While the link is down the edge sends no new flow to router1 (10.255.1.2); before and
    // after it does.
    uint32_t before = 0;
    uint32_t during = 0;
    uint32_t after = 0;
    for (const auto& e : bed.hops)
    {
        if (e.router != "edge" || !(e.flow.dst == bed.vip) || e.gateway != "10.255.1.2")
        {
            continue;
        }
        if (e.at < downAt)
        {
            ++before;
        }
        else if (e.at < upAt)
        {
            ++during;
        }
        else
        {
            ++after;
        }
    }
    EXPECT_GT(before, 0u);
    EXPECT_EQ(during, 0u);
    EXPECT_GT(after, 0u);
    // Every request ended. The ToR's default routes to the routers are static (no routing
    // protocol withdraws router1's while its uplink is down), so responses the ToR hands to
    // router1 during the outage are lost: only requests in flight around it may time out; every
    // request sent after the link is back completes.
    const AdcRequestTally tally = bed.Tally();
    EXPECT_EQ(tally.sent, 240u);
    EXPECT_EQ(tally.sent, tally.completed + tally.failed) << tally.ToString();
    for (const auto& r : bed.done)
    {
        if (r.outcome != AdcRequestOutcome::COMPLETED)
        {
            EXPECT_EQ(r.reason, "timeout");
            EXPECT_GT(r.start, downAt - Seconds(3)); // RequestTimeout before the outage
            EXPECT_LT(r.start, upAt);
        }
    }
}
