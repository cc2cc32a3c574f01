/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of CrdLowerTierAppliance when things go wrong or run long: no cache up, unreachable,
 * silent and malformed caches, cut responses, persistent and large transfers, per-flow state,
 * configuration errors (test bed: crd-lower-tier-fixture.h).
 */

#include "crd-lower-tier-fixture.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::crdtest;

namespace
{

TEST_F(CrdLowerTierTest, NoCacheUpFallsBackToOrigin)
{
    Build();
    app->GetCacheService(0)->Disable(); // out of service: no cache in rotation
    IssueAt(httpClient, Seconds(1), "/obj/1");
    Run(Seconds(5));

    ASSERT_EQ(decisions.size(), 1U);
    EXPECT_EQ(decisions[0].decision, "BYPASS");
    EXPECT_EQ(decisions[0].target, "origin (no cache up)");
    EXPECT_TRUE(cacheLog.empty());
    ASSERT_EQ(originLog.size(), 1U);
    EXPECT_EQ(originLog[0].peer, "10.1.0.1");
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].status, 200);
    EXPECT_EQ(done[0].server, "ORIGIN");
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
}

TEST_F(CrdLowerTierTest, UnreachableCacheGives502AfterBackendTimeout)
{
    Build();
    app->SetAttribute("BackendTimeout", TimeValue(Seconds(1)));
    // Nothing listens on K. ns-3's TCP answers the SYNs with a RST that carries no timestamp
    // option, which the connecting socket ignores, so only the timeout detects the failure.
    cacheServer->SetStartTime(Seconds(100));
    IssueAt(httpClient, Seconds(1), "/obj/1");
    Run(Seconds(5));

    ASSERT_EQ(failures.size(), 1U);
    EXPECT_EQ(failures[0].target, "CRS1");
    EXPECT_EQ(failures[0].reason, "timeout");
    // The request reaches L2 a few ms after 1 s (handshake over 1 ms links); + 1 s timeout.
    EXPECT_GE(failures[0].when, Seconds(2));
    EXPECT_LE(failures[0].when, Seconds(2.05));
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].status, 502);
    EXPECT_EQ(done[0].server, "L2NS1"); // answered by the appliance itself
    EXPECT_LE(done[0].end, Seconds(2.1));
    EXPECT_EQ(app->GetFailures(), 1U);
    EXPECT_EQ(app->GetCacheLb()->GetBackend(0).activeConnections, 0U);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(0).Failed("http-status-502", 1)));
}

TEST_F(CrdLowerTierTest, SilentCacheTimesOutToo)
{
    Build();
    app->SetAttribute("BackendTimeout", TimeValue(Seconds(1)));
    cache->GetObject<Ipv4>()->SetDown(1); // K drops everything
    IssueAt(httpClient, Seconds(1), "/obj/1");
    Run(Seconds(5));

    ASSERT_EQ(failures.size(), 1U);
    EXPECT_EQ(failures[0].reason, "timeout");
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].status, 502);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(0).Failed("http-status-502", 1)));
}

TEST_F(CrdLowerTierTest, MalformedCacheResponseGives502)
{
    Build();
    cacheServer->SetStartTime(Seconds(100));
    RawServer bad;
    bad.reply = "garbage\r\n\r\n";
    bad.Start(cache, 80);
    IssueAt(httpClient, Seconds(1), "/obj/1");
    Run(Seconds(5));

    ASSERT_EQ(failures.size(), 1U);
    EXPECT_EQ(failures[0].target, "CRS1");
    EXPECT_EQ(failures[0].reason.rfind("bad-response: ", 0), 0U) << failures[0].reason;
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].status, 502);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(0).Failed("http-status-502", 1)));
}

TEST_F(CrdLowerTierTest, ResponseCutShortClosesTheClientConnection)
{
    Build();
    cacheServer->SetStartTime(Seconds(100));
    RawServer cut;
    cut.reply = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789";
    cut.Start(cache, 80);
    IssueAt(httpClient, Seconds(1), "/obj/1");
    Run(Seconds(5));

    ASSERT_EQ(failures.size(), 1U);
    EXPECT_EQ(failures[0].reason, "closed-before-response-complete");
    // Part of the response was relayed, so no 502 can follow: the client sees the close.
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].outcome, AdcRequestOutcome::FAILED);
    EXPECT_EQ(done[0].reason, "connection-closed");
    EXPECT_EQ(app->GetOpenFrontConnections(), 0U);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(0).Failed("connection-closed", 1)));
}

TEST_F(CrdLowerTierTest, PersistentClientConnectionServesRequestsInOrder)
{
    Build();
    httpClient->SetAttribute("MaxConnections", UintegerValue(1));
    IssueAt(httpClient, Seconds(1), "/obj/1");
    IssueAt(httpClient, Seconds(1), "/obj/2?q=1");
    IssueAt(httpClient, Seconds(1), "/obj/3");
    Run(Seconds(5));

    ASSERT_EQ(done.size(), 3U);
    EXPECT_EQ(WithStatus(200), 3U);
    EXPECT_EQ(done[0].server, "CRS1");
    EXPECT_EQ(done[1].server, "ORIGIN");
    EXPECT_EQ(done[2].server, "CRS1");
    EXPECT_EQ(httpClient->GetConnectionsOpened(), 1U);
    EXPECT_EQ(intercepts.size(), 1U); // one client connection
    EXPECT_EQ(app->GetResponsesRelayed(), 3U);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(3)));
}

TEST_F(CrdLowerTierTest, LargeBodyIsRelayedWhole)
{
    Build();
    const uint32_t size = 600000; // several transmit buffers: the relay must pause and resume
    cacheServer->SetAttribute("ObjectSize", UintegerValue(size));
    // L2 -> C at a tenth of K -> L2: the relay queue fills and the cache must be paused.
    l2->GetDevice(0)->SetAttribute("DataRate", StringValue("10Mbps"));
    IssueAt(httpClient, Seconds(1), "/obj/1");
    Run(Seconds(8));

    const std::string head = "HTTP/1.1 200 OK\r\nServer: CRS1\r\nContent-Length: 600000\r\n"
                             "Via: 1.1 L2NS1\r\n\r\n";
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].outcome, AdcRequestOutcome::COMPLETED);
    EXPECT_EQ(done[0].responseBytes, size + head.size());
    // 600 kB over 10 Mbit/s take 0.48 s; a relay that stalled TCP (zero window, persist
    // timer) would take seconds more.
    EXPECT_GE(done[0].GetLatency(), Seconds(0.48));
    EXPECT_LE(done[0].GetLatency(), Seconds(0.8));
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
}

TEST_F(CrdLowerTierTest, PerFlowStateIsHeldOnlyWhileConnectionsAreOpen)
{
    Build();
    // -reuse OFF: no idle pooled connection outlives the request.
    app->SetAttribute("ServerConnectionReuse", BooleanValue(false));
    originServer->SetAttribute("ResponseDelay", TimeValue(Seconds(0.5)));
    httpClient->SetAttribute("Persistent", BooleanValue(false));
    IssueAt(httpClient, Seconds(1), "/obj/1?x=1");
    std::size_t inFlight = 0;
    uint32_t frontsInFlight = 0;
    uint32_t backendsInFlight = 0;
    Simulator::Schedule(Seconds(1.3), [&]() {
        inFlight = app->GetPerFlowStateBytes();
        frontsInFlight = app->GetOpenFrontConnections();
        backendsInFlight = app->GetOpenBackendConnections();
    });
    Run(Seconds(5));

    EXPECT_GT(inFlight, 0U);
    EXPECT_EQ(frontsInFlight, 1U);
    EXPECT_EQ(backendsInFlight, 1U);
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].status, 200);
    EXPECT_EQ(app->GetOpenFrontConnections(), 0U);
    EXPECT_EQ(app->GetOpenBackendConnections(), 0U);
    EXPECT_EQ(app->GetPerFlowStateBytes(), 0U);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
}

TEST_F(CrdLowerTierTest, UnknownCacheLbMethodListsTheFourAllowed)
{
    Ptr<CrdLowerTierAppliance> a = CreateObject<CrdLowerTierAppliance>();
    try
    {
        a->SetAttribute("CacheLbMethod", StringValue("MAGLEV"));
        FAIL() << "MAGLEV is not a lower-tier cache LB method";
    }
    catch (const AdcConfigError& e)
    {
        const std::string msg = e.what();
        for (const char* want : {"CacheLbMethod",
                                 "MAGLEV",
                                 "ROUNDROBIN",
                                 "LEASTCONNECTION",
                                 "URLHASH",
                                 "DESTINATIONIPHASH"})
        {
            EXPECT_NE(msg.find(want), std::string::npos) << want << " missing in: " << msg;
        }
    }
    a->SetAttribute("CacheLbMethod", StringValue("urlhash"));
    EXPECT_EQ(a->GetCacheLb()->GetMethodName(), "URLHASH");
}

TEST_F(CrdLowerTierTest, StartRejectsMissingRoutingMipOrCaches)
{
    // Each case: an appliance on a node of its own; StartApplication throws before any socket.
    auto startError = [](const std::function<void(Ptr<CrdLowerTierAppliance>)>& configure) {
        Ptr<Node> n = CreateObject<Node>();
        InternetStackHelper stack;
        stack.SetIpv6StackInstall(false);
        stack.Install(n);
        Ptr<CrdLowerTierAppliance> a = CreateObject<CrdLowerTierAppliance>();
        configure(a);
        n->AddApplication(a);
        std::string msg;
        try
        {
            Simulator::Run();
        }
        catch (const AdcConfigError& e)
        {
            msg = e.what();
        }
        Simulator::Destroy();
        return msg;
    };
    const std::string noRouting = startError([](Ptr<CrdLowerTierAppliance> a) {
        a->SetAttribute("Mip", Ipv4AddressValue(kMip));
        a->AddCacheServer("CRS1", kCache);
    });
    EXPECT_NE(noRouting.find("routing is not set"), std::string::npos) << noRouting;

    const std::string noCaches = startError([](Ptr<CrdLowerTierAppliance> a) {
        a->SetRouting(CreateObject<AdcPolicyRouting>());
        a->SetAttribute("Mip", Ipv4AddressValue(kMip));
    });
    EXPECT_NE(
        noCaches.find("zero cache servers: add one with AddCacheServer or set CacheableRule NONE"),
        std::string::npos)
        << noCaches;

    const std::string noMip = startError([](Ptr<CrdLowerTierAppliance> a) {
        a->SetRouting(CreateObject<AdcPolicyRouting>());
        a->AddCacheServer("CRS1", kCache);
    });
    EXPECT_NE(noMip.find("Mip is unset"), std::string::npos) << noMip;

    // REQ: CRD-02: the client IP goes into a header of its own, never into one HTTP frames by
    // (a Content-Length of "10.0.0.2" would break every forwarded request).
    for (const char* reserved : {"Content-Length", "transfer-encoding", "Host"})
    {
        const std::string framing = startError([reserved](Ptr<CrdLowerTierAppliance> a) {
            a->SetRouting(CreateObject<AdcPolicyRouting>());
            a->SetAttribute("Mip", Ipv4AddressValue(kMip));
            a->AddCacheServer("CRS1", kCache);
            a->SetAttribute("ClientIpHeader", StringValue(reserved));
        });
        EXPECT_NE(framing.find(std::string("ClientIpHeader '") + reserved +
                               "' is a field HTTP interprets"),
                  std::string::npos)
            << framing;
    }

    // CacheableRule NONE needs neither a MIP nor caches.
    const std::string fine = startError([](Ptr<CrdLowerTierAppliance> a) {
        a->SetRouting(CreateObject<AdcPolicyRouting>());
        a->SetAttribute("CacheableRule", StringValue("NONE"));
        a->SetAttribute("ServicePort", UintegerValue(8080));
    });
    EXPECT_EQ(fine.find("CrdLowerTierAppliance"), std::string::npos) << fine;
}

} // namespace
