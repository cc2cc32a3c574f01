/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD on the shared services and virtual servers: the lower tier's caches are services bound
 * to its cache vserver, health monitors bind to those services (and to the services the upper
 * tier's balancing hops follow), and an administrator can take a cache out of service. Each
 * test runs the topology CrdTopologyHelper builds and asserts on what the traces recorded.
 */

#include "adc-test-accounting.h"
#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/core-module.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using adctest::ConfigErrorOf;
using adctest::Has;

namespace
{

/// Shorthand for the accounting expectations.
using Expect = AdcAccountingExpectation;

/// One "Selection" of a cache vserver.
struct Selection
{
    Time when;
    std::string vserver;
    std::string service;
    std::string how;
};

/// One "StateChange" of a service.
struct StateChange
{
    Time when;
    std::string service;
    AdcService::State state;
};

/// One "Decision" of a lower appliance.
struct Decision
{
    Time when;
    std::string url;
    std::string decision;
    std::string target;
};

/// One tier above one lower appliance with two caches (CRS1, CRS2) chosen by ROUNDROBIN, one
/// client; requests are issued explicitly.
class CrdCacheServices : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// \param monitorCaches whether the lower tier monitors its caches
    void Build(bool monitorCaches)
    {
        Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
        h->SetAttribute("NumUpper", UintegerValue(1));
        h->SetAttribute("NumLower", UintegerValue(1));
        h->SetAttribute("NumCaches", UintegerValue(2));
        h->SetAttribute("CacheLbMethod", StringValue("ROUNDROBIN"));
        h->SetAttribute("MonitorCaches", BooleanValue(monitorCaches));
        topo = h->Build();
        lower = topo.lowerApps.at(0);
        lower->GetCacheVServer()->TraceConnectWithoutContext(
            "Selection",
            Callback<void,
                     const AdcFlowKey&,
                     const std::string&,
                     const std::string&,
                     const std::string&>([this](const AdcFlowKey&,
                                                const std::string& vserver,
                                                const std::string& service,
                                                const std::string& how) {
                selections.push_back({Simulator::Now(), vserver, service, how});
            }));
        for (uint32_t c = 0; c < lower->GetNCacheServers(); ++c)
        {
            lower->GetCacheService(c)->TraceConnectWithoutContext(
                "StateChange",
                Callback<void, const std::string&, AdcService::State, AdcService::State>(
                    [this](const std::string& name, AdcService::State, AdcService::State now) {
                        states.push_back({Simulator::Now(), name, now});
                    }));
        }
        lower->TraceConnectWithoutContext(
            "Decision",
            Callback<void,
                     const std::string&,
                     const std::string&,
                     const std::string&,
                     const std::string&>([this](const std::string&,
                                                const std::string& url,
                                                const std::string& decision,
                                                const std::string& target) {
                decisions.push_back({Simulator::Now(), url, decision, target});
            }));
        client = CreateObject<AdcHttpClient>();
        client->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        client->SetAttribute("Persistent", BooleanValue(false));
        client->SetAttribute("InterRequestTime",
                             StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
        client->SetStartTime(Seconds(1));
        client->SetStopTime(Seconds(kStop));
        topo.isp.GetClient(0)->AddApplication(client);
    }

    /// Issue \p url at \p at.
    void IssueAt(double at, const std::string& url)
    {
        Ptr<AdcHttpClient> c = client;
        Simulator::Schedule(Seconds(at), [c, url]() { c->IssueRequest(url); });
    }

    /// Take the cache switch's link to cache \p c down at \p down and up again at \p up.
    void CutCacheLink(uint32_t c, double down, double up)
    {
        Ptr<Ipv4> ipv4 = topo.cacheSwitch->GetObject<Ipv4>();
        const Ptr<NetDevice> dev = topo.links.at("switch-" + topo.cacheNames[c]).Get(0);
        const auto iface = static_cast<uint32_t>(ipv4->GetInterfaceForDevice(dev));
        Simulator::Schedule(Seconds(down), [ipv4, iface]() { ipv4->SetDown(iface); });
        Simulator::Schedule(Seconds(up), [ipv4, iface]() { ipv4->SetUp(iface); });
    }

    void Run()
    {
        Simulator::Stop(Seconds(kStop + 1));
        Simulator::Run();
    }

    /// \return the selections of \p service in [from, to)
    std::size_t SelectedBetween(const std::string& service, double from, double to) const
    {
        std::size_t n = 0;
        for (const Selection& s : selections)
        {
            n += s.service == service && s.when >= Seconds(from) && s.when < Seconds(to);
        }
        return n;
    }

    /// \return when \p service first entered \p state at or after \p from, or -1 s
    Time FirstState(const std::string& service, AdcService::State state, Time from) const
    {
        for (const StateChange& s : states)
        {
            if (s.service == service && s.state == state && s.when >= from)
            {
                return s.when;
            }
        }
        return Seconds(-1);
    }

    static constexpr double kStop = 20;

    CrdTopology topo;
    Ptr<CrdLowerTierAppliance> lower;
    Ptr<AdcHttpClient> client;
    std::vector<Selection> selections;
    std::vector<StateChange> states;
    std::vector<Decision> decisions;
};

// REQ: CRD-06
// REQ: CRD-01
TEST_F(CrdCacheServices, MonitorDownTakesTheCacheServiceOutOfRotationAndUpBringsItBack)
{
    Build(true);
    // The helper bound the lower tier's monitor to both cache services (the monitor probes
    // each service's address and port), with no adapter in between.
    ASSERT_EQ(topo.lowerMonitors.size(), 1U);
    ASSERT_EQ(topo.lowerMonitors[0]->GetNTargets(), 2U);
    for (uint32_t c = 0; c < 2; ++c)
    {
        const std::vector<Ptr<AdcHealthMonitor>> bound = lower->GetCacheService(c)->GetMonitors();
        ASSERT_EQ(bound.size(), 1U);
        EXPECT_EQ(bound[0], topo.lowerMonitors[0]);
        EXPECT_EQ(topo.lowerMonitors[0]->GetTargetName(c), topo.cacheNames[c]);
    }
    const double cutAt = 4;
    const double healAt = 10;
    CutCacheLink(0, cutAt, healAt);
    uint32_t sent = 0;
    for (double at = 2; at < 16; at += 0.25, ++sent)
    {
        IssueAt(at, "/obj/" + std::to_string(sent));
    }
    Run();

    // CRS1 went DOWN after its link was cut (2 failed probes, 1 s apart) and UP after it healed.
    const Time down = FirstState("CRS1", AdcService::State::DOWN, Seconds(0));
    const Time up = FirstState("CRS1", AdcService::State::UP, down);
    ASSERT_GT(down, Seconds(cutAt));
    ASSERT_LT(down, Seconds(cutAt + 3.5));
    ASSERT_GT(up, Seconds(healAt));
    ASSERT_LT(up, Seconds(healAt + 2.5));
    EXPECT_EQ(FirstState("CRS2", AdcService::State::DOWN, Seconds(0)), Seconds(-1));
    // In rotation before, out of it while DOWN (every request then goes to CRS2), back after.
    EXPECT_GT(SelectedBetween("CRS1", 0, down.GetSeconds()), 0U);
    EXPECT_EQ(SelectedBetween("CRS1", down.GetSeconds(), up.GetSeconds()), 0U);
    EXPECT_GT(SelectedBetween("CRS2", down.GetSeconds(), up.GetSeconds()), 4U);
    EXPECT_GT(SelectedBetween("CRS1", up.GetSeconds(), kStop), 0U);
    EXPECT_EQ(lower->GetCacheService(0)->GetState(), AdcService::State::UP);
    // Only requests sent to CRS1 between the cut and the DOWN verdict (or just before the cut,
    // their response still on the way) may fail: the lower appliance answers them 502 after
    // its BackendTimeout.
    const std::size_t undetected = SelectedBetween("CRS1", cutAt - 0.5, down.GetSeconds());
    EXPECT_TRUE(AdcExpectAccounting(*client,
                                    Expect::CompletedAtLeast(sent - undetected)
                                        .FailedBetween("http-status-502", 0, undetected)));
}

// REQ: CRD-06
TEST_F(CrdCacheServices, DisabledCacheServiceReceivesNoNewRequests)
{
    Build(true);
    Ptr<AdcService> crs1 = lower->GetCacheService(0);
    const double disableAt = 5;
    const double enableAt = 9;
    Simulator::Schedule(Seconds(disableAt), [crs1]() { crs1->Disable(); });
    Simulator::Schedule(Seconds(enableAt), [crs1]() { crs1->Enable(); });
    uint32_t sent = 0;
    for (double at = 2; at < 13; at += 0.25, ++sent)
    {
        IssueAt(at, "/obj/" + std::to_string(sent));
    }
    Run();

    // OUT OF SERVICE while disabled: the administrator's state, not a monitor's verdict.
    EXPECT_EQ(FirstState("CRS1", AdcService::State::OUT_OF_SERVICE, Seconds(0)),
              Seconds(disableAt));
    EXPECT_GT(SelectedBetween("CRS1", 0, disableAt), 0U);
    EXPECT_EQ(SelectedBetween("CRS1", disableAt, enableAt), 0U);
    EXPECT_EQ(SelectedBetween("CRS2", disableAt, enableAt), 16U); // every request meanwhile
    EXPECT_GT(SelectedBetween("CRS1", enableAt, kStop), 0U);
    for (const Decision& d : decisions)
    {
        if (d.when >= Seconds(disableAt) && d.when < Seconds(enableAt))
        {
            EXPECT_EQ(d.target, "CRS2") << d.url;
        }
    }
    EXPECT_TRUE(AdcExpectAccounting(*client, Expect::Completed(sent)));
}

// REQ: CRD-06
// REQ: CRD-08
TEST_F(CrdCacheServices, CacheVServerSelectsOncePerCacheableRequest)
{
    Build(false);
    uint32_t sent = 0;
    for (double at = 2; at < 6; at += 0.5, ++sent)
    {
        // Every other request has a query string: not cacheable, so no selection.
        IssueAt(at,
                sent % 2 == 0 ? "/obj/" + std::to_string(sent) : "/q?x=" + std::to_string(sent));
    }
    Run();

    ASSERT_EQ(decisions.size(), sent);
    std::vector<std::string> cacheTargets;
    for (const Decision& d : decisions)
    {
        if (d.decision == "CACHE")
        {
            cacheTargets.push_back(d.target);
        }
    }
    EXPECT_EQ(cacheTargets.size(), sent / 2);
    // One Selection per cacheable request, by the lower appliance's own vserver, naming the
    // cache the request was sent to; ROUNDROBIN alternates over the two services.
    ASSERT_EQ(selections.size(), cacheTargets.size());
    for (std::size_t i = 0; i < selections.size(); ++i)
    {
        EXPECT_EQ(selections[i].vserver, "L2NS1-caches");
        EXPECT_EQ(selections[i].how, "method");
        EXPECT_EQ(selections[i].service, cacheTargets[i]);
        EXPECT_EQ(selections[i].service, i % 2 == 0 ? "CRS1" : "CRS2");
    }
    EXPECT_EQ(lower->GetCacheVServer()->GetHits(), cacheTargets.size());
    EXPECT_EQ(lower->GetCacheService(0)->GetSelections() +
                  lower->GetCacheService(1)->GetSelections(),
              lower->GetCacheRequests());
    // Every cache connection was counted on its service and has been released.
    EXPECT_EQ(lower->GetCacheService(0)->GetTotalConnections(), sent / 4);
    EXPECT_EQ(lower->GetCacheService(0)->GetCurrentConnections(), 0U);
    EXPECT_EQ(lower->GetCacheService(1)->GetCurrentConnections(), 0U);
    EXPECT_TRUE(AdcExpectAccounting(*client, Expect::Completed(sent)));
}

// REQ: CRD-03
TEST_F(CrdCacheServices, UpperTierHopsFollowTheServicesTheirMonitorIsBoundTo)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->SetAttribute("NumUpper", UintegerValue(2));
    h->SetAttribute("NumLower", UintegerValue(2));
    h->SetAttribute("NumCaches", UintegerValue(1));
    topo = h->Build();
    // One service per balancer and lower appliance, each hop of the BALANCE rule following its
    // own, and each balancer's monitor bound to that balancer's services.
    ASSERT_EQ(topo.lowerTierServices.size(), 2U);
    ASSERT_EQ(topo.upperMonitors.size(), 2U);
    for (uint32_t b = 0; b < 2; ++b)
    {
        const AdcPolicyRule& rule = topo.upperRouting[b]->GetRule(topo.balanceRule);
        ASSERT_EQ(topo.lowerTierServices[b].size(), 2U);
        for (uint32_t j = 0; j < 2; ++j)
        {
            const Ptr<AdcService> s = topo.lowerTierServices[b][j];
            EXPECT_EQ(rule.nextHops[j].service, s);
            EXPECT_EQ(s->GetName(), topo.lowerNames[j]);
            EXPECT_EQ(s->GetAddress(), AdcIpAddress(rule.nextHops[j].gateway));
            ASSERT_EQ(s->GetMonitors().size(), 1U);
            EXPECT_EQ(s->GetMonitors()[0], topo.upperMonitors[b]);
        }
    }
    CrdTopologyHelper::ScheduleLowerFailure(topo, 1, Seconds(3));
    Simulator::Stop(Seconds(8));
    Simulator::Run();
    for (uint32_t b = 0; b < 2; ++b)
    {
        EXPECT_EQ(topo.lowerTierServices[b][1]->GetState(), AdcService::State::DOWN);
        EXPECT_EQ(topo.lowerTierServices[b][0]->GetState(), AdcService::State::UP);
        EXPECT_FALSE(topo.upperRouting[b]->IsNextHopUp(topo.balanceRule, 1));
        EXPECT_TRUE(topo.upperRouting[b]->IsNextHopUp(topo.balanceRule, 0));
    }
}

} // namespace

namespace
{

// REQ: CRD-06
TEST(CrdCacheServiceBinding, CallerMadeServicesBindAndBadOnesAreClearErrors)
{
    Ptr<CrdLowerTierAppliance> app = CreateObject<CrdLowerTierAppliance>();
    app->SetAttribute("Name", StringValue("L2NS7"));
    app->SetAttribute("CacheLbMethod", StringValue("urlhash"));
    app->SetAttribute("HashSeed", UintegerValue(42));
    Ptr<AdcService> mine = CreateObject<AdcService>();
    mine->Configure("CRS9", Ipv4Address("100.96.0.2"), "HTTP", 8080);
    EXPECT_EQ(app->AddCacheServer(mine), 0U);
    EXPECT_EQ(app->AddCacheServer("CRS1", Ipv4Address("100.96.0.6")), 1U);
    // The cache vserver: named after the appliance, the method and seed of its attributes,
    // the services bound in order.
    Ptr<AdcVirtualServer> vs = app->GetCacheVServer();
    EXPECT_EQ(vs->GetName(), "L2NS7-caches");
    EXPECT_EQ(vs->GetServiceType(), "HTTP");
    EXPECT_EQ(vs->GetLbMethodName(), "URLHASH");
    EXPECT_EQ(vs->GetLbMethod()->GetHashSeed(), 42U);
    const auto bindings = vs->GetServiceBindings();
    ASSERT_EQ(bindings.size(), 2U);
    EXPECT_EQ(bindings[0].name, "CRS9");
    EXPECT_EQ(bindings[1].name, "CRS1");
    EXPECT_EQ(app->GetNCacheServers(), 2U);
    EXPECT_EQ(app->GetCacheService(0), mine);
    EXPECT_EQ(app->GetCacheService(1)->GetPort(), 80);
    EXPECT_EQ(app->GetCacheService(1)->GetServiceType(), "HTTP");
    // Changing the method keeps the caches, in order, and the seed.
    app->SetAttribute("CacheLbMethod", StringValue("LEASTCONNECTION"));
    EXPECT_EQ(vs->GetLbMethod()->GetNBackends(), 2U);
    EXPECT_EQ(vs->GetLbMethod()->GetBackend(0).name, "CRS9");
    EXPECT_EQ(vs->GetLbMethod()->GetHashSeed(), 42U);

    auto has = [](const std::string& text, const std::string& part) {
        return text.find(part) != std::string::npos;
    };
    std::string e = ConfigErrorOf([&] { app->AddCacheServer(Ptr<AdcService>()); });
    EXPECT_TRUE(has(e, "L2NS7") && has(e, "null")) << e;
    Ptr<AdcService> v6 = CreateObject<AdcService>();
    v6->Configure("CRS6", Ipv6Address("2001:db8::6"), "HTTP", 80);
    e = ConfigErrorOf([&] { app->AddCacheServer(v6); });
    EXPECT_TRUE(has(e, "'CRS6'") && has(e, "2001:db8::6") && has(e, "IPv4")) << e;
    e = ConfigErrorOf([&] { app->AddCacheServer("CRS1", Ipv4Address("100.96.0.10")); });
    EXPECT_TRUE(has(e, "'CRS1'") && has(e, "bound already")) << e;
    e = ConfigErrorOf([&] { app->AddCacheServer("CRS2", Ipv4Address("100.96.0.10"), 0); });
    EXPECT_TRUE(has(e, "'CRS2'") && has(e, "1..65535")) << e;
    e = ConfigErrorOf([&] { app->GetCacheService(2); });
    EXPECT_TRUE(has(e, "index 2") && has(e, "0..1")) << e;
    EXPECT_EQ(app->GetNCacheServers(), 2U); // nothing was added by the failed calls
    app->Dispose();
}

} // namespace
