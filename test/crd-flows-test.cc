/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD scenarios on the topology CrdTopologyHelper builds: the seed's three flows as hop
 * sequences, transparency, port ranges, policy-based routing, statelessness of the upper tier,
 * failures and configuration errors. Every assertion is on what traces recorded.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-path-tracer.h"
#include "ns3/adc-request-log.h"
#include "ns3/core-module.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What the traces of one scenario recorded.
struct Recorder
{
    struct Access
    {
        std::string where; //!< "origin" or a cache name
        std::string peer;
        std::string headerClientIp;
        std::string url;
    };

    std::vector<Access> access;
    std::vector<std::pair<std::string, std::string>> decisions; //!< (url, decision)
    std::map<std::string, std::vector<uint16_t>> ports;         //!< lower name -> ports
    std::vector<std::string> originResponseFor;                 //!< header client IPs
    std::vector<AdcRequestRecord> done;
    std::vector<std::pair<std::string, AdcFlowKey>> upperMatches; //!< (rule, flow) on L1s
    std::vector<std::string> intercepts;                          //!< kinds
    uint32_t exhausted{0};
    std::vector<Address> originPeers; //!< TCP peers of the origin's connections
};

void
OnOriginConnection(Recorder* r, const Address& from)
{
    r->originPeers.push_back(from);
}

void
OnAccess(Recorder* r,
         std::string where,
         const std::string& peer,
         const std::string& hdr,
         const std::string& url,
         Time)
{
    r->access.push_back({where, peer, hdr, url});
}

void
OnDecision(Recorder* r,
           const std::string&,
           const std::string& url,
           const std::string& decision,
           const std::string&)
{
    r->decisions.emplace_back(url, decision);
}

void
OnPort(Recorder* r, std::string lower, uint16_t port, const std::string&)
{
    r->ports[lower].push_back(port);
}

void
OnResponse(Recorder* r, const std::string& hdr, const std::string&, uint16_t, uint32_t)
{
    r->originResponseFor.push_back(hdr);
}

void
OnDone(Recorder* r, const AdcRequestRecord& rec)
{
    r->done.push_back(rec);
}

void
OnUpperMatch(Recorder* r,
             const std::string& rule,
             const AdcFlowKey& flow,
             uint32_t,
             const std::string&)
{
    r->upperMatches.emplace_back(rule, flow);
}

void
OnIntercept(Recorder* r, const std::string& kind, const std::string&, const std::string&)
{
    r->intercepts.push_back(kind);
}

void
OnExhausted(Recorder* r, const std::string&)
{
    r->exhausted++;
}

/// Shorthand for the accounting expectations.
using Expect = AdcAccountingExpectation;

void
Issue(Ptr<AdcHttpClient> c, std::string url)
{
    c->IssueRequest(url);
}

std::string
IpOf(const std::string& endpoint)
{
    return endpoint.substr(0, endpoint.rfind(':'));
}

/// A is a subsequence of B.
bool
IsSubsequence(const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    std::size_t i = 0;
    for (const auto& x : b)
    {
        if (i < a.size() && a[i] == x)
        {
            ++i;
        }
    }
    return i == a.size();
}

class CrdFlows : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Build the topology with \p helper, one client per access network, and connect traces.
    void Build(Ptr<CrdTopologyHelper> helper)
    {
        topo = helper->Build();
        tracer = CreateObject<AdcPathTracer>();
        topo.TraceNodes(tracer);
        topo.originApp->TraceConnectWithoutContext(
            "AccessLog",
            MakeBoundCallback(&OnAccess, &rec, std::string("origin")));
        topo.originApp->TraceConnectWithoutContext("Response",
                                                   MakeBoundCallback(&OnResponse, &rec));
        topo.originApp->TraceConnectWithoutContext("Connection",
                                                   MakeBoundCallback(&OnOriginConnection, &rec));
        for (uint32_t c = 0; c < topo.cacheApps.size(); ++c)
        {
            topo.cacheApps[c]->TraceConnectWithoutContext(
                "AccessLog",
                MakeBoundCallback(&OnAccess, &rec, topo.cacheNames[c]));
        }
        for (uint32_t j = 0; j < topo.lowerApps.size(); ++j)
        {
            topo.lowerApps[j]->TraceConnectWithoutContext("Decision",
                                                          MakeBoundCallback(&OnDecision, &rec));
            topo.lowerApps[j]->TraceConnectWithoutContext(
                "PortAllocated",
                MakeBoundCallback(&OnPort, &rec, topo.lowerNames[j]));
            topo.lowerApps[j]->TraceConnectWithoutContext("Intercept",
                                                          MakeBoundCallback(&OnIntercept, &rec));
            topo.lowerApps[j]->TraceConnectWithoutContext("PortExhausted",
                                                          MakeBoundCallback(&OnExhausted, &rec));
        }
        for (const auto& p : topo.upperRouting)
        {
            p->TraceConnectWithoutContext("RuleMatch", MakeBoundCallback(&OnUpperMatch, &rec));
        }
        for (uint32_t i = 0; i < topo.isp.GetNClients(); ++i)
        {
            Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
            c->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
            c->SetAttribute("Persistent", BooleanValue(false));
            c->SetAttribute("InterRequestTime",
                            StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
            c->SetStartTime(Seconds(1));
            c->SetStopTime(Seconds(stopAt));
            topo.isp.GetClient(i)->AddApplication(c);
            c->TraceConnectWithoutContext("RequestDone", MakeBoundCallback(&OnDone, &rec));
            clients.push_back(c);
        }
    }

    /// The seed's topology (2 / 4 / 3, one client) with caches chosen by URLHASH.
    Ptr<CrdTopologyHelper> SeedHelper()
    {
        Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
        h->SetAttribute("CacheLbMethod", StringValue("URLHASH"));
        // One backend connection per request (-reuse OFF; NetScaler's default is ON): the path
        // tracer follows each TCP leg's first data packet, so every request's legs must be new.
        h->SetAttribute("ServerConnectionReuse", BooleanValue(false));
        return h;
    }

    void Run()
    {
        Simulator::Stop(Seconds(stopAt + 1));
        Simulator::Run();
    }

    uint64_t Sent() const
    {
        uint64_t n = 0;
        for (const auto& c : clients)
        {
            n += c->GetRequestsSent();
        }
        return n;
    }

    /// Lower-tier name owning \p port, or "".
    std::string OwnerOf(uint16_t port) const
    {
        for (uint32_t j = 0; j < topo.lowerRanges.size(); ++j)
        {
            if (topo.lowerRanges[j].Contains(port))
            {
                return topo.lowerNames[j];
            }
        }
        return "";
    }

    bool IsUpper(const std::string& n) const
    {
        return n.rfind("L1NS", 0) == 0;
    }

    bool IsLower(const std::string& n) const
    {
        return n.rfind("L2NS", 0) == 0;
    }

    bool IsCache(const std::string& n) const
    {
        return n.rfind("CRS", 0) == 0;
    }

    CrdTopology topo;
    Ptr<AdcPathTracer> tracer;
    std::vector<Ptr<AdcHttpClient>> clients;
    Recorder rec;
    double stopAt{10};
};

} // namespace

// REQ: CRD-09
TEST_F(CrdFlows, CacheHitFollowsTheSeedsSixSteps)
{
    Build(SeedHelper());
    Simulator::Schedule(Seconds(2), &Issue, clients[0], std::string("/obj/7")); // fills a cache
    Simulator::Schedule(Seconds(4), &Issue, clients[0], std::string("/obj/7")); // the hit
    Run();
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(2)));
    ASSERT_EQ(rec.done.size(), 2u);
    EXPECT_EQ(rec.done[1].outcome, AdcRequestOutcome::COMPLETED) << rec.done[1].reason;
    EXPECT_NE(rec.done[1].path.find("X-Cache: HIT"), std::string::npos) << rec.done[1].path;
    const auto hops = tracer->GetHopSequence(Seconds(4), Seconds(6));
    // client > router > L1 > L2 > CRS > L2 (same, thanks to the MIP) > router > client
    ASSERT_EQ(hops.size(), 8u) << AdcPathTracer::ToString(hops);
    EXPECT_EQ(hops[0], "client");
    EXPECT_EQ(hops[1], "router");
    EXPECT_TRUE(IsUpper(hops[2])) << hops[2];
    EXPECT_TRUE(IsLower(hops[3])) << hops[3];
    EXPECT_TRUE(IsCache(hops[4])) << hops[4];
    EXPECT_EQ(hops[5], hops[3]) << "the cache must answer the appliance that used its MIP";
    EXPECT_EQ(hops[6], "router") << "responses leave the lower tier straight to the router";
    EXPECT_EQ(hops[7], "client");
}

// REQ: CRD-10
TEST_F(CrdFlows, CacheBypassFollowsTheSeedsSevenSteps)
{
    Build(SeedHelper());
    Simulator::Schedule(Seconds(2), &Issue, clients[0], std::string("/obj/7?nocache=1"));
    Run();
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
    ASSERT_EQ(rec.done.size(), 1u);
    EXPECT_EQ(rec.done[0].outcome, AdcRequestOutcome::COMPLETED) << rec.done[0].reason;
    const auto hops = tracer->GetHopSequence();
    // client > router > L1 (A) > L2 > router > origin > router > L1 (B) > L2 (same, by PBR) >
    // router > client: the origin sits behind the router (the ISP's border), so its response
    // crosses the router before an upper appliance.
    ASSERT_EQ(hops.size(), 11u) << AdcPathTracer::ToString(hops);
    EXPECT_EQ((std::vector<std::string>{hops[0], hops[1]}),
              (std::vector<std::string>{"client", "router"}));
    EXPECT_TRUE(IsUpper(hops[2]));
    EXPECT_TRUE(IsLower(hops[3]));
    EXPECT_EQ(hops[4], "router");
    EXPECT_EQ(hops[5], "origin");
    EXPECT_EQ(hops[6], "router");
    EXPECT_TRUE(IsUpper(hops[7])) << "the origin answers through an upper appliance";
    EXPECT_EQ(hops[8], hops[3]) << "PBR must bring the response back to the same appliance";
    EXPECT_EQ(hops[9], "router");
    EXPECT_EQ(hops[10], "client");
}

// REQ: CRD-11
TEST_F(CrdFlows, CacheMissFollowsTheSeedsNineSteps)
{
    Build(SeedHelper());
    Simulator::Schedule(Seconds(2), &Issue, clients[0], std::string("/obj/7"));
    Run();
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
    ASSERT_EQ(rec.done.size(), 1u);
    EXPECT_EQ(rec.done[0].outcome, AdcRequestOutcome::COMPLETED) << rec.done[0].reason;
    EXPECT_NE(rec.done[0].path.find("X-Cache: MISS"), std::string::npos) << rec.done[0].path;
    const auto hops = tracer->GetHopSequence();
    // client > router > L1 > L2 > CRS > L2' (its miss gateway) > router > origin > router > L1'
    // > L2' (PBR) > CRS > L2 > router > client: the response returns along the TCP connections
    // it belongs to, through the cache that stores it (and through the router, the origin's
    // only neighbour).
    ASSERT_EQ(hops.size(), 15u) << AdcPathTracer::ToString(hops);
    const std::string l2 = hops[3];
    const std::string crs = hops[4];
    const std::string gw = hops[5];
    ASSERT_TRUE(IsCache(crs)) << crs;
    const auto c = static_cast<uint32_t>(
        std::find(topo.cacheNames.begin(), topo.cacheNames.end(), crs) - topo.cacheNames.begin());
    EXPECT_EQ(gw, topo.lowerNames[topo.missGateway[c]]) << "the cache's miss gateway intercepts";
    const std::vector<std::string> expected = {"client",
                                               "router",
                                               hops[2],
                                               l2,
                                               crs,
                                               gw,
                                               "router",
                                               "origin",
                                               "router",
                                               hops[9],
                                               gw,
                                               crs,
                                               l2,
                                               "router",
                                               "client"};
    EXPECT_EQ(hops, expected) << AdcPathTracer::ToString(hops);
    EXPECT_TRUE(IsUpper(hops[9]));
    // The seed's nine steps, in order.
    EXPECT_TRUE(IsSubsequence(
        {"client", "router", hops[2], l2, crs, gw, "origin", hops[9], gw, "router", "client"},
        hops));
    EXPECT_EQ(std::count(rec.intercepts.begin(), rec.intercepts.end(), "CACHE_MISS"), 1);
}

// REQ: CRD-02
// REQ: CRD-06
// REQ: CRD-07
// REQ: CRD-12
TEST_F(CrdFlows, ClientIpIsKnownAtCacheAndOrigin)
{
    Build(SeedHelper());
    Simulator::Schedule(Seconds(2), &Issue, clients[0], std::string("/obj/3"));
    Simulator::Schedule(Seconds(4), &Issue, clients[0], std::string("/obj/3?x=1"));
    Run();
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(2)));
    const std::string client = AdcIpAddress(topo.isp.GetClientAddress(0)).ToString();
    std::set<std::string> mips;
    for (const auto& m : topo.lowerMips)
    {
        mips.insert(AdcIpAddress(m).ToString());
    }
    uint32_t atCache = 0;
    uint32_t atOrigin = 0;
    for (const auto& a : rec.access)
    {
        // Every log carries the client IP from the header, and the URL.
        EXPECT_EQ(a.headerClientIp, client) << a.where << " " << a.url;
        EXPECT_EQ(a.url.substr(0, 6), "/obj/3");
        if (a.where == "origin")
        {
            ++atOrigin;
            // USIP: the origin's TCP peer is the client itself.
            EXPECT_EQ(a.peer, client);
        }
        else
        {
            ++atCache;
            EXPECT_EQ(mips.count(IpOf(a.peer)), 1u) << "cache peer " << a.peer << " is not a MIP";
        }
    }
    // ... from a port of a lower appliance's range.
    ASSERT_EQ(rec.originPeers.size(), 2u);
    for (const Address& peer : rec.originPeers)
    {
        const InetSocketAddress inet = InetSocketAddress::ConvertFrom(peer);
        EXPECT_EQ(AdcIpAddress(inet.GetIpv4()).ToString(), client);
        EXPECT_NE(OwnerOf(inet.GetPort()), "") << inet.GetPort();
    }
    EXPECT_EQ(atCache, 1u);  // the cacheable request, at one cache
    EXPECT_EQ(atOrigin, 2u); // its miss fetch and the bypass
    // The origin chose each response for the client IP in the header.
    ASSERT_EQ(rec.originResponseFor.size(), 2u);
    EXPECT_EQ(rec.originResponseFor[0], client);
    EXPECT_EQ(rec.originResponseFor[1], client);
}

// REQ: CRD-08
TEST_F(CrdFlows, CacheableRuleDecidesEveryRequest)
{
    Ptr<CrdTopologyHelper> h = SeedHelper();
    Build(h);
    Simulator::Schedule(Seconds(2), &Issue, clients[0], std::string("/a"));
    Simulator::Schedule(Seconds(3), &Issue, clients[0], std::string("/a?b=1"));
    Run();
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(2)));
    ASSERT_EQ(rec.decisions.size(), 2u);
    EXPECT_EQ(rec.decisions[0], std::make_pair(std::string("/a"), std::string("CACHE")));
    EXPECT_EQ(rec.decisions[1], std::make_pair(std::string("/a?b=1"), std::string("BYPASS")));
}

// REQ: CRD-08
TEST_F(CrdFlows, CacheableRuleNoneBypassesEverything)
{
    Ptr<CrdTopologyHelper> h = SeedHelper();
    h->SetAttribute("CacheableRule", StringValue("NONE"));
    Build(h);
    Simulator::Schedule(Seconds(2), &Issue, clients[0], std::string("/a"));
    Run();
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
    ASSERT_EQ(rec.decisions.size(), 1u);
    EXPECT_EQ(rec.decisions[0].second, "BYPASS");
    for (const auto& a : rec.access)
    {
        EXPECT_EQ(a.where, "origin");
    }
}

// REQ: CRD-03
// REQ: CRD-04
// REQ: CRD-05
TEST_F(CrdFlows, ManyClientsPortRangesAndPolicyRoutes)
{
    Ptr<CrdTopologyHelper> h = SeedHelper();
    h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(2));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(10));
    Build(h);
    ASSERT_EQ(clients.size(), 20u); // 2 access networks x 10 clients
    for (uint32_t i = 0; i < clients.size(); ++i)
    {
        Simulator::Schedule(Seconds(2 + 0.01 * i),
                            &Issue,
                            clients[i],
                            "/obj/" + std::to_string(i) + "?nocache=1");
    }
    Run();
    EXPECT_EQ(Sent(), 20u);
    // one request per client, every one completes
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(20)));

    // CRD-05: every lower appliance allocated only ports of its own range.
    uint32_t allocations = 0;
    for (const auto& [lower, ports] : rec.ports)
    {
        for (uint16_t p : ports)
        {
            EXPECT_EQ(OwnerOf(p), lower) << "port " << p;
            ++allocations;
        }
    }
    EXPECT_EQ(allocations, clients.size());

    // CRD-04: every origin -> client leg ends at the lower appliance owning its port, whichever
    // upper appliance it crossed.
    std::set<std::string> uppersCrossed;
    uint32_t returns = 0;
    for (const auto& leg : tracer->GetLegs())
    {
        if (leg.nodes.empty() || leg.nodes.front() != "origin")
        {
            continue;
        }
        ++returns;
        ASSERT_EQ(leg.nodes.size(), 4u); // origin > router > upper > owning lower
        EXPECT_EQ(leg.nodes[1], "router");
        EXPECT_TRUE(IsUpper(leg.nodes[2]));
        uppersCrossed.insert(leg.nodes[2]);
        EXPECT_EQ(leg.nodes[3], OwnerOf(leg.flow.dstPort)) << leg.flow;
    }
    EXPECT_EQ(returns, clients.size());
    EXPECT_EQ(uppersCrossed.size(), 2u) << "20 return flows all took one upper appliance";

    // CRD-03: the upper tier forwarded client packets unchanged (the flow it matched is the
    // client's own 5-tuple to the origin) and holds no per-flow state.
    uint32_t vserver = 0;
    for (const auto& [rule, flow] : rec.upperMatches)
    {
        if (rule == "vserver-any")
        {
            ++vserver;
            EXPECT_EQ(flow.dst, AdcIpAddress(topo.originAddress));
            EXPECT_EQ(flow.dstPort, 80);
        }
    }
    EXPECT_GT(vserver, clients.size());
    for (const auto& p : topo.upperRouting)
    {
        EXPECT_EQ(p->GetPerFlowStateBytes(), 0u);
    }
    for (const auto& leg : tracer->GetLegs())
    {
        if (leg.nodes.size() >= 3 && IsUpper(leg.nodes[2]) && leg.nodes[0] == "client1")
        {
            // The leg that crossed an upper appliance kept the client's addresses end to end.
            EXPECT_EQ(leg.flow.dst, AdcIpAddress(topo.originAddress));
            EXPECT_TRUE(IsLower(leg.nodes.back()));
        }
    }
}

// REQ: CRD-01
TEST_F(CrdFlows, AnyTierSizesAndPerApplianceCounters)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->SetAttribute("NumUpper", UintegerValue(3));
    h->SetAttribute("NumLower", UintegerValue(5));
    h->SetAttribute("NumCaches", UintegerValue(2));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(12));
    Build(h);
    ASSERT_EQ(clients.size(), 12u); // one access network (the helper's default) x 12
    EXPECT_EQ(topo.upper.GetN(), 3u);
    EXPECT_EQ(topo.lower.GetN(), 5u);
    EXPECT_EQ(topo.caches.GetN(), 2u);
    EXPECT_EQ(topo.lowerRanges.size(), 5u);
    EXPECT_EQ(topo.upperNames.back(), "L1NS3");
    EXPECT_EQ(topo.lowerNames.back(), "L2NS5");
    EXPECT_EQ(topo.cacheNames.back(), "CRS2");
    // 3 x 5 upper-lower links, 5 lower-switch, 2 switch-cache, router links to the origin, 3
    // upper and 5 lower appliances (the origin has no link of its own to the upper tier).
    EXPECT_EQ(topo.links.size(), 15u + 5 + 2 + 1 + 3 + 5);
    for (uint32_t i = 0; i < clients.size(); ++i)
    {
        Simulator::Schedule(Seconds(2 + 0.05 * i), &Issue, clients[i], "/obj/" + std::to_string(i));
    }
    Run();
    uint64_t handled = 0;
    for (const auto& app : topo.lowerApps)
    {
        handled += app->GetClientRequests();
    }
    EXPECT_EQ(handled, 12u);
    // every client's one request completed, none failed, none open at the stop
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(12)));
}

TEST_F(CrdFlows, OneTierModeStillServesAllThreeFlows)
{
    Ptr<CrdTopologyHelper> h = SeedHelper();
    h->SetAttribute("NumUpper", UintegerValue(0));
    Build(h);
    Simulator::Schedule(Seconds(2), &Issue, clients[0], std::string("/obj/1"));
    Simulator::Schedule(Seconds(3), &Issue, clients[0], std::string("/obj/1"));
    Simulator::Schedule(Seconds(4), &Issue, clients[0], std::string("/obj/1?x"));
    Run();
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(3)));
    ASSERT_EQ(rec.done.size(), 3u);
    for (const auto& r : rec.done)
    {
        EXPECT_EQ(r.outcome, AdcRequestOutcome::COMPLETED) << r.url << " " << r.reason;
    }
    const auto bypass = tracer->GetHopSequence(Seconds(4), Seconds(10));
    // No upper tier: the router balances and holds the PBR.
    ASSERT_EQ(bypass.size(), 9u) << AdcPathTracer::ToString(bypass);
    EXPECT_EQ(bypass,
              (std::vector<std::string>{"client",
                                        "router",
                                        bypass[2],
                                        "router",
                                        "origin",
                                        "router",
                                        bypass[2],
                                        "router",
                                        "client"}));
    EXPECT_TRUE(IsLower(bypass[2]));
    EXPECT_EQ(std::count_if(bypass.begin(),
                            bypass.end(),
                            [this](const std::string& n) { return IsUpper(n); }),
              0);
}

TEST_F(CrdFlows, LowerApplianceFailureIsDetectedAndRoutedAround)
{
    Ptr<CrdTopologyHelper> h = SeedHelper();
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(8));
    stopAt = 20;
    Build(h);
    const double failAt = 3;
    const double detectedBy = 7; // 2 failed probes, 1 s apart, and margin
    CrdTopologyHelper::ScheduleLowerFailure(topo, 1, Seconds(failAt));
    // Requests every 0.5 s from every client, before and after the failure.
    uint64_t whileUndetected = 0;
    for (uint32_t i = 0; i < clients.size(); ++i)
    {
        for (uint32_t k = 0; k < 24; ++k)
        {
            const double at = 2 + 0.5 * k + 0.01 * i;
            whileUndetected += at >= failAt && at < detectedBy;
            Simulator::Schedule(Seconds(at),
                                &Issue,
                                clients[i],
                                "/obj/" + std::to_string(k) + "?i=" + std::to_string(i));
        }
    }
    Run();
    // Nothing is lost: every request completed or failed with a reason. Only requests sent
    // while the failure was undetected may fail, and only by the client's own timeout (10 s,
    // over before the stop): the dead appliance swallows their packets, and these bypass
    // requests cross no other proxy that could answer for it.
    EXPECT_EQ(Sent(), 8u * 24u);
    EXPECT_TRUE(AdcExpectAccounting(clients,
                                    Expect::CompletedAtLeast(Sent() - whileUndetected)
                                        .FailedBetween("timeout", 0, whileUndetected)));
    // After detection (2 failed probes at 1 s), no request fails.
    for (const auto& r : rec.done)
    {
        if (r.outcome == AdcRequestOutcome::FAILED)
        {
            EXPECT_FALSE(r.reason.empty());
            EXPECT_LT(r.start.GetSeconds(), detectedBy) << r.url << " " << r.reason;
        }
    }
    // The monitors saw L2NS2 go down; the balancing rule no longer sends to it.
    for (const auto& p : topo.upperRouting)
    {
        EXPECT_FALSE(p->IsNextHopUp(topo.balanceRule, 1));
        EXPECT_TRUE(p->IsNextHopUp(topo.balanceRule, 0));
    }
}

TEST_F(CrdFlows, PortRangeExhaustionIsRefusedAndCounted)
{
    Ptr<CrdTopologyHelper> h = SeedHelper();
    h->SetAttribute("NumLower", UintegerValue(1));
    h->SetAttribute("LowerPortRanges", StringValue("40000-40001"));
    h->SetAttribute("PortRange", StringValue("40000-40001"));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(6));
    Build(h);
    topo.originApp->SetAttribute("ResponseDelay", TimeValue(Seconds(1)));
    for (uint32_t i = 0; i < clients.size(); ++i)
    {
        Simulator::Schedule(Seconds(2), &Issue, clients[i], std::string("/x?nocache"));
    }
    Run();
    EXPECT_EQ(rec.exhausted, 4u); // 6 concurrent bypasses, 2 ports
    uint32_t refused = 0;
    for (const auto& r : rec.done)
    {
        refused += r.reason == "http-status-503";
    }
    EXPECT_EQ(refused, 4u);
    // 2 ports for 6 concurrent bypasses: 2 complete, the other 4 are refused with a 503
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(2).Failed("http-status-503", 4)));
}

TEST(CrdTopologyConfig, BadSettingsAreClearErrors)
{
    auto errorOf = [](auto configure) {
        Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
        configure(h);
        try
        {
            h->Validate();
        }
        catch (const AdcConfigError& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    // Overlapping ranges.
    std::string m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("NumLower", UintegerValue(2));
        h->SetAttribute("LowerPortRanges", StringValue("1024-3000,2000-4000"));
    });
    EXPECT_NE(m.find("1024-3000"), std::string::npos) << m;
    EXPECT_NE(m.find("2000-4000"), std::string::npos) << m;
    // Outside the port space.
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("NumLower", UintegerValue(1));
        h->SetAttribute("LowerPortRanges", StringValue("80-2000"));
    });
    EXPECT_NE(m.find("80-2000"), std::string::npos) << m;
    // A range count that does not match the lower tier.
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("LowerPortRanges", StringValue("1024-2000"));
    });
    EXPECT_NE(m.find("LowerPortRanges"), std::string::npos) << m;
    // A lower tier with no appliance, hence no range.
    m = errorOf([](Ptr<CrdTopologyHelper> h) { h->SetAttribute("NumLower", UintegerValue(0)); });
    EXPECT_NE(m.find("NumLower"), std::string::npos) << m;
    // Zero cache servers while requests are cacheable.
    m = errorOf([](Ptr<CrdTopologyHelper> h) { h->SetAttribute("NumCaches", UintegerValue(0)); });
    EXPECT_NE(m.find("NumCaches"), std::string::npos) << m;
    // A sessionful method on the sessionless upper tier.
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("UpperBalanceMethod", StringValue("ROUNDROBIN"));
    });
    EXPECT_NE(m.find("ROUNDROBIN"), std::string::npos) << m;
    // An unknown cache method names the allowed ones.
    m = errorOf(
        [](Ptr<CrdTopologyHelper> h) { h->SetAttribute("CacheLbMethod", StringValue("MAGLEV")); });
    EXPECT_NE(m.find("DESTINATIONIPHASH"), std::string::npos) << m;
    // Zero caches is fine when nothing is cacheable.
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("NumCaches", UintegerValue(0));
        h->SetAttribute("CacheableRule", StringValue("NONE"));
    });
    EXPECT_EQ(m, "");
}

TEST_F(CrdFlows, CacheFailureIsDetectedAndRoutedAround)
{
    Ptr<CrdTopologyHelper> h = SeedHelper();
    h->SetAttribute("CacheLbMethod", StringValue("ROUNDROBIN"));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(6));
    stopAt = 20;
    Build(h);
    const double failAt = 3;
    const double detectedBy = 7; // 2 failed probes, 1 s apart, and margin
    CrdTopologyHelper::ScheduleCacheFailure(topo, 0, Seconds(failAt));
    uint64_t whileUndetected = 0;
    for (uint32_t i = 0; i < clients.size(); ++i)
    {
        for (uint32_t k = 0; k < 20; ++k)
        {
            const double at = 2 + 0.5 * k + 0.01 * i;
            whileUndetected += at >= failAt && at < detectedBy;
            Simulator::Schedule(Seconds(at), &Issue, clients[i], "/obj/" + std::to_string(k));
        }
    }
    Run();
    EXPECT_EQ(Sent(), 6u * 20u);
    // Only requests sent to CRS1 while its failure was undetected may fail: the lower
    // appliance waits BackendTimeout (5 s, under the client's 10 s) and answers them 502.
    EXPECT_TRUE(AdcExpectAccounting(clients,
                                    Expect::CompletedAtLeast(Sent() - whileUndetected)
                                        .FailedBetween("http-status-502", 0, whileUndetected)));
    // Once every lower appliance's monitor marked CRS1 down (2 failed probes, 1 s apart), no
    // request is sent to it and none fails.
    uint32_t failedLate = 0;
    for (const auto& r : rec.done)
    {
        if (r.outcome == AdcRequestOutcome::FAILED)
        {
            EXPECT_FALSE(r.reason.empty());
            failedLate += r.start.GetSeconds() > detectedBy;
        }
    }
    EXPECT_EQ(failedLate, 0u);
    for (const auto& app : topo.lowerApps)
    {
        EXPECT_EQ(app->GetCacheService(0)->GetState(), AdcService::State::DOWN);
        EXPECT_EQ(app->GetCacheService(1)->GetState(), AdcService::State::UP);
    }
}
