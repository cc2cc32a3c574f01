/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD audit checks on the seed's topology: when each interaction happens at the cache and at
 * the origin (CRD-02: "the time of the interaction" is known at the ends, and it must be
 * consistent with the links the request crossed), and a non-GET request that bypasses the
 * caches (CRD-08: the default rule caches only a GET without a query string, as NetScaler's
 * built-in cache-redirection policies send POST to the origin).
 */

#include "adc-test-accounting.h"
#include "adc-test-fixtures.h"

#include "ns3/adc-http-client.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-path-tracer.h"
#include "ns3/core-module.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <queue>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One access-log line, with where it was written.
struct Access
{
    std::string where; //!< "origin" or a cache name
    std::string headerClientIp;
    std::string url;
    Time when; //!< the time the log gives
};

/// What the traces recorded.
struct Recorder
{
    std::vector<Access> access;
    std::vector<Time> originResponses;                          //!< when the origin answered
    std::vector<std::pair<std::string, Time>> cacheFetches;     //!< (cache, fetch done)
    std::vector<std::string> originMethods;                     //!< methods the origin received
    std::vector<std::pair<std::string, std::string>> decisions; //!< (url, decision)
    std::vector<AdcRequestRecord> done;
};

void
OnAccess(Recorder* r,
         std::string where,
         const std::string&,
         const std::string& hdr,
         const std::string& url,
         Time when)
{
    r->access.push_back({where, hdr, url, when});
}

void
OnOriginResponse(Recorder* r, const std::string&, const std::string&, uint16_t, uint32_t)
{
    r->originResponses.push_back(Simulator::Now());
}

void
OnOriginRequest(Recorder* r, const AdcHttpMessage& m, const Address&)
{
    r->originMethods.push_back(m.GetMethod());
}

void
OnFetch(Recorder* r, std::string cache, const std::string&, uint16_t, uint64_t)
{
    r->cacheFetches.emplace_back(cache, Simulator::Now());
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
OnDone(Recorder* r, const AdcRequestRecord& rec)
{
    r->done.push_back(rec);
}

class CrdAudit : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// The seed's topology (2 upper, 4 lower, 3 caches by URLHASH), one client, traces on.
    void Build()
    {
        helper = CreateObject<CrdTopologyHelper>();
        helper->SetAttribute("CacheLbMethod", StringValue("URLHASH"));
        topo = helper->Build();
        tracer = CreateObject<AdcPathTracer>();
        topo.TraceNodes(tracer);
        topo.originApp->TraceConnectWithoutContext(
            "AccessLog",
            MakeBoundCallback(&OnAccess, &rec, std::string("origin")));
        topo.originApp->TraceConnectWithoutContext("Response",
                                                   MakeBoundCallback(&OnOriginResponse, &rec));
        topo.originApp->TraceConnectWithoutContext("Request",
                                                   MakeBoundCallback(&OnOriginRequest, &rec));
        for (uint32_t c = 0; c < topo.cacheApps.size(); ++c)
        {
            topo.cacheApps[c]->TraceConnectWithoutContext(
                "AccessLog",
                MakeBoundCallback(&OnAccess, &rec, topo.cacheNames[c]));
            topo.cacheApps[c]->TraceConnectWithoutContext(
                "OriginFetch",
                MakeBoundCallback(&OnFetch, &rec, topo.cacheNames[c]));
        }
        for (const auto& app : topo.lowerApps)
        {
            app->TraceConnectWithoutContext("Decision", MakeBoundCallback(&OnDecision, &rec));
        }
        client = CreateObject<AdcHttpClient>();
        client->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        client->SetAttribute("Persistent", BooleanValue(false));
        client->SetAttribute("InterRequestTime",
                             StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
        client->SetStartTime(Seconds(1));
        client->SetStopTime(Seconds(kStop));
        client->TraceConnectWithoutContext("RequestDone", MakeBoundCallback(&OnDone, &rec));
        topo.isp.GetClient(0)->AddApplication(client);
    }

    void IssueAt(double at, const std::string& url)
    {
        Ptr<AdcHttpClient> c = client;
        Simulator::Schedule(Seconds(at), [c, url]() { c->IssueRequest(url); });
    }

    void Run()
    {
        Simulator::Stop(Seconds(kStop + 1));
        Simulator::Run();
    }

    /// \return the node the topology names \p name ("client", "router", "L2NS2", ...)
    Ptr<Node> NodeNamed(const std::string& name) const
    {
        for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
        {
            if (topo.NameOf(NodeList::GetNode(n)) == name)
            {
                return NodeList::GetNode(n);
            }
        }
        return nullptr;
    }

    /**
     * \return the least sum of propagation delays ("Delay" of each channel) over the links
     * from \p a to \p b: unnamed nodes between two hops (access router, cache switch) count
     * with their links, so it is the delay the links between two hops of a path add at least
     */
    static Time LinkDelay(Ptr<Node> a, Ptr<Node> b)
    {
        const int64_t inf = std::numeric_limits<int64_t>::max();
        std::map<uint32_t, int64_t> best{{a->GetId(), 0}};
        using Item = std::pair<int64_t, uint32_t>;
        std::priority_queue<Item, std::vector<Item>, std::greater<>> todo;
        todo.emplace(0, a->GetId());
        while (!todo.empty())
        {
            const auto [d, id] = todo.top();
            todo.pop();
            if (id == b->GetId())
            {
                return TimeStep(d);
            }
            if (d > best[id])
            {
                continue;
            }
            Ptr<Node> node = NodeList::GetNode(id);
            for (uint32_t k = 0; k < node->GetNDevices(); ++k)
            {
                Ptr<Channel> ch = node->GetDevice(k)->GetChannel();
                if (!ch)
                {
                    continue;
                }
                TimeValue delay;
                if (!ch->GetAttributeFailSafe("Delay", delay))
                {
                    continue;
                }
                for (std::size_t m = 0; m < ch->GetNDevices(); ++m)
                {
                    const uint32_t next = ch->GetDevice(m)->GetNode()->GetId();
                    const int64_t nd = d + delay.Get().GetTimeStep();
                    auto it = best.find(next);
                    if (it == best.end() || nd < it->second)
                    {
                        best[next] = nd;
                        todo.emplace(nd, next);
                    }
                }
            }
        }
        return TimeStep(inf);
    }

    /// \return the link delay along \p hops[from..to] (names as the path tracer gives them)
    Time PathDelay(const std::vector<std::string>& hops, std::size_t from, std::size_t to) const
    {
        Time sum;
        for (std::size_t i = from; i < to; ++i)
        {
            Ptr<Node> a = NodeNamed(hops[i]);
            Ptr<Node> b = NodeNamed(hops[i + 1]);
            EXPECT_TRUE(a && b) << hops[i] << " > " << hops[i + 1];
            if (a && b)
            {
                sum += LinkDelay(a, b);
            }
        }
        return sum;
    }

    static constexpr double kStop = 10;

    Ptr<CrdTopologyHelper> helper;
    CrdTopology topo;
    Ptr<AdcPathTracer> tracer;
    Ptr<AdcHttpClient> client;
    Recorder rec;
};

/// \return the index of the first of \p hops at or after \p from starting with \p prefix
std::size_t
Find(const std::vector<std::string>& hops, const std::string& prefix, std::size_t from = 0)
{
    for (std::size_t i = from; i < hops.size(); ++i)
    {
        if (hops[i].rfind(prefix, 0) == 0)
        {
            return i;
        }
    }
    return hops.size();
}

} // namespace

// REQ: CRD-02
// REQ: CRD-11
TEST_F(CrdAudit, MissInteractionTimesAtCacheAndOriginFollowTheLinks)
{
    Build();
    IssueAt(2, "/obj/7");
    Run();
    EXPECT_TRUE(AdcExpectAccounting(*client, AdcAccountingExpectation::Completed(1)));
    ASSERT_EQ(rec.done.size(), 1u);
    const AdcRequestRecord& r = rec.done[0];

    // The audit trail at the ends: one line at the cache and one at the origin, both naming
    // the client's IP and the URL.
    const std::string clientIp = AdcIpAddress(topo.isp.GetClientAddress(0)).ToString();
    ASSERT_EQ(rec.access.size(), 2u);
    const Access& atCache = rec.access[0];
    const Access& atOrigin = rec.access[1];
    ASSERT_EQ(atCache.where.rfind("CRS", 0), 0u) << atCache.where;
    ASSERT_EQ(atOrigin.where, "origin");
    for (const Access& a : rec.access)
    {
        EXPECT_EQ(a.headerClientIp, clientIp) << a.where;
        EXPECT_EQ(a.url, "/obj/7") << a.where;
    }
    ASSERT_EQ(rec.originResponses.size(), 1u);
    ASSERT_EQ(rec.cacheFetches.size(), 1u);
    EXPECT_EQ(rec.cacheFetches[0].first, atCache.where);

    // The path the request took (checked against the seed's steps in CrdFlows): the links
    // between two of its hops add at least their propagation delays to each gap.
    const std::vector<std::string> hops = tracer->GetHopSequence();
    const std::size_t cache = Find(hops, "CRS");
    const std::size_t origin = Find(hops, "origin", cache);
    const std::size_t cacheBack = Find(hops, atCache.where, origin);
    ASSERT_LT(cacheBack, hops.size()) << AdcPathTracer::ToString(hops);
    ASSERT_EQ(hops[cache], atCache.where);
    ASSERT_EQ(hops.back(), hops.front()) << "the response returns to the client";

    const Time toCache = PathDelay(hops, 0, cache);
    const Time cacheToOrigin = PathDelay(hops, cache, origin);
    const Time originToCache = PathDelay(hops, origin, cacheBack);
    const Time cacheToClient = PathDelay(hops, cacheBack, hops.size() - 1);
    // Sanity of the derivation itself: every leg crosses the ISP's core at least once, and
    // the core links have a delay (CoreDcDelay, 1 ms by default).
    TimeValue core;
    helper->GetIspHelper()->GetAttribute("CoreDcDelay", core);
    for (const Time& d : {toCache, cacheToOrigin, originToCache, cacheToClient})
    {
        EXPECT_GE(d, core.Get());
    }

    // The order of the interactions and the gaps between them.
    EXPECT_GE(atCache.when - r.start, toCache) << "the cache logged the request too early";
    EXPECT_GE(atOrigin.when - atCache.when, cacheToOrigin)
        << "the origin logged the miss fetch too early";
    EXPECT_GE(rec.originResponses[0], atOrigin.when) << "answered before it was asked";
    EXPECT_GE(rec.cacheFetches[0].second - rec.originResponses[0], originToCache)
        << "the cache had the origin's response too early";
    EXPECT_GE(r.end - rec.cacheFetches[0].second, cacheToClient)
        << "the client had the response too early";
    EXPECT_GT(r.end, r.start);
    // And nothing is logged long after the fact: both lines within the request's lifetime.
    EXPECT_LE(atOrigin.when, r.end);
}

// REQ: CRD-02
// REQ: CRD-09
TEST_F(CrdAudit, HitInteractionTimeAtTheCacheFollowsTheLinks)
{
    Build();
    IssueAt(2, "/obj/7"); // fills a cache
    IssueAt(4, "/obj/7"); // the hit
    Run();
    EXPECT_TRUE(AdcExpectAccounting(*client, AdcAccountingExpectation::Completed(2)));
    ASSERT_EQ(rec.done.size(), 2u);
    const AdcRequestRecord& hit = rec.done[1];
    ASSERT_EQ(rec.access.size(), 3u); // cache, origin (the miss), cache (the hit)
    const Access& atCache = rec.access[2];
    ASSERT_EQ(atCache.where, rec.access[0].where) << "URLHASH: the same cache";
    std::vector<std::string> hops = tracer->GetHopSequence(Seconds(4), Seconds(kStop));
    const std::size_t lower = Find(hops, "L2NS");
    ASSERT_LT(lower + 1, hops.size()) << AdcPathTracer::ToString(hops);
    if (hops[lower + 1] != atCache.where)
    {
        // The lower appliance reused its connection to the cache (opened for the miss), so
        // that leg started before the hit: the hit's path still goes L2 > cache > L2.
        hops.insert(hops.begin() + lower + 1, {atCache.where, hops[lower]});
    }
    const std::size_t cache = lower + 1;
    EXPECT_GE(atCache.when - hit.start, PathDelay(hops, 0, cache));
    EXPECT_GE(hit.end - atCache.when, PathDelay(hops, cache, hops.size() - 1));
    EXPECT_EQ(rec.originResponses.size(), 1u) << "a hit does not reach the origin";
}

// REQ: CRD-08
// REQ: CRD-10
TEST_F(CrdAudit, PostBypassesTheCachesAndReachesTheOrigin)
{
    Build();
    // A POST with a body, on its own connection, as a browser's form submission.
    adctest::RawPeer post;
    post.toSend = "POST /form HTTP/1.1\r\nHost: origin\r\nContent-Type: "
                  "application/x-www-form-urlencoded\r\nContent-Length: 11\r\n"
                  "Connection: close\r\n\r\nname=value1";
    post.ConnectAt(Seconds(2), topo.isp.GetClient(0), InetSocketAddress(topo.originAddress, 80));
    // A GET of the same path afterwards: cacheable, so a cache is in service for it.
    IssueAt(5, "/form");
    Run();

    // The POST's response reached the client.
    const std::vector<AdcHttpMessage> responses = post.Responses();
    ASSERT_EQ(responses.size(), 1u) << post.rx;
    EXPECT_EQ(responses[0].GetStatus(), 200) << post.rx;
    EXPECT_TRUE(post.closed);
    EXPECT_TRUE(AdcExpectAccounting(*client, AdcAccountingExpectation::Completed(1)));

    // The lower appliance decided BYPASS for it, and CACHE for the GET.
    ASSERT_EQ(rec.decisions.size(), 2u);
    EXPECT_EQ(rec.decisions[0], std::make_pair(std::string("/form"), std::string("BYPASS")));
    EXPECT_EQ(rec.decisions[1], std::make_pair(std::string("/form"), std::string("CACHE")));
    // The origin received the POST itself (from the client's IP, named in the header), and no
    // cache logged anything before the GET.
    ASSERT_GE(rec.originMethods.size(), 1u);
    EXPECT_EQ(rec.originMethods[0], "POST");
    ASSERT_GE(rec.access.size(), 1u);
    EXPECT_EQ(rec.access[0].where, "origin");
    EXPECT_EQ(rec.access[0].headerClientIp, AdcIpAddress(topo.isp.GetClientAddress(0)).ToString());
    for (const Access& a : rec.access)
    {
        if (a.where != "origin")
        {
            EXPECT_GE(a.when, Seconds(5)) << a.where << " saw the POST";
        }
    }

    // Its path: lower tier -> router -> origin, and back by PBR to the same lower appliance;
    // no cache on it.
    const std::vector<std::string> hops = tracer->GetHopSequence(Seconds(2), Seconds(5));
    // client > router > L1 > L2 > router > origin > (the origin's routers) > L1' > L2 (same,
    // by PBR) > router > client
    const std::size_t n = hops.size();
    ASSERT_GE(n, 10u) << AdcPathTracer::ToString(hops);
    EXPECT_EQ(hops[0], "client");
    EXPECT_EQ(hops[1], "router");
    EXPECT_EQ(hops[2].rfind("L1NS", 0), 0u) << hops[2];
    EXPECT_EQ(hops[3].rfind("L2NS", 0), 0u) << hops[3];
    EXPECT_EQ(hops[4], "router");
    EXPECT_LT(Find(hops, "origin", 5), n - 4) << AdcPathTracer::ToString(hops);
    EXPECT_EQ(hops[n - 4].rfind("L1NS", 0), 0u) << hops[n - 4];
    EXPECT_EQ(hops[n - 3], hops[3]) << "PBR brings the response to the same lower appliance";
    EXPECT_EQ(hops[n - 2], "router");
    EXPECT_EQ(hops[n - 1], "client");
    EXPECT_EQ(std::count_if(hops.begin(),
                            hops.end(),
                            [](const std::string& n) { return n.rfind("CRS", 0) == 0; }),
              0);
}
