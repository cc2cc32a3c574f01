/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of CrdLowerTierAppliance: a lower-tier cache-redirection appliance between a client,
 * an origin and a cache, over real ns-3 TCP with transparent interception.
 */

#include "crd-lower-tier-fixture.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::crdtest;

namespace
{

// REQ: CRD-06
TEST_F(CrdLowerTierTest, CacheableRequestGoesToCacheFromMipWithClientIpHeader)
{
    Build();
    app->SetAttribute("CacheLbMethod", StringValue("LEASTCONNECTION"));
    IssueAt(httpClient, Seconds(1), "/obj/1");
    Run(Seconds(5));

    ASSERT_EQ(decisions.size(), 1U);
    EXPECT_EQ(decisions[0].clientIp, "10.1.0.1");
    EXPECT_EQ(decisions[0].url, "/obj/1");
    EXPECT_EQ(decisions[0].decision, "CACHE");
    EXPECT_EQ(decisions[0].target, "CRS1");

    ASSERT_EQ(cacheLog.size(), 1U);
    EXPECT_EQ(cacheLog[0].peer, "10.3.0.1"); // the MIP, so the cache answers this appliance
    EXPECT_EQ(cacheLog[0].headerIp, "10.1.0.1");
    EXPECT_EQ(cacheLog[0].url, "/obj/1");
    EXPECT_TRUE(originLog.empty());

    // The cache's head, with Via appended and its "Connection: close" (an answer to the
    // appliance's request) removed for the persistent client connection.
    const std::string head = "HTTP/1.1 200 OK\r\nServer: CRS1\r\nContent-Length: 5000\r\n"
                             "Via: 1.1 L2NS1\r\n\r\n";
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].outcome, AdcRequestOutcome::COMPLETED);
    EXPECT_EQ(done[0].status, 200);
    EXPECT_EQ(done[0].server, "CRS1");
    EXPECT_EQ(done[0].responseBytes, kCacheObject + head.size());
    EXPECT_EQ(done[0].path, "1.1 L2NS1"); // the client's record of the hops, from Via

    AdcHttpMessage got;
    uint64_t body = 0;
    uint64_t headBytes = 0;
    ASSERT_TRUE(clientRx.Next(&got, &body, &headBytes));
    EXPECT_EQ(got.GetHeader("Via").value_or(""), "1.1 L2NS1");
    EXPECT_EQ(got.ToWireString(), head);
    EXPECT_EQ(body, kCacheObject);

    EXPECT_EQ(app->GetClientRequests(), 1U);
    EXPECT_EQ(app->GetCacheRequests(), 1U);
    EXPECT_EQ(app->GetBypassRequests(), 0U);
    EXPECT_EQ(app->GetResponsesRelayed(), 1U);
    // LEASTCONNECTION bookkeeping: the cache connection was counted and has closed.
    EXPECT_EQ(app->GetCacheLb()->GetMethodName(), "LEASTCONNECTION");
    EXPECT_EQ(app->GetCacheLb()->GetBackend(0).activeConnections, 0U);
    ASSERT_EQ(intercepts.size(), 1U);
    EXPECT_EQ(intercepts[0][0], "CLIENT");
    EXPECT_EQ(intercepts[0][2], "10.2.0.2:80"); // the origin the client addressed
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
}

// REQ: CRD-07
// REQ: CRD-05
TEST_F(CrdLowerTierTest, NonCacheableRequestGoesToOriginWithClientIpAsSourceAndPortInRange)
{
    Build();
    IssueAt(httpClient, Seconds(1), "/obj/1?x=1");
    Run(Seconds(5));

    ASSERT_EQ(decisions.size(), 1U);
    EXPECT_EQ(decisions[0].decision, "BYPASS");
    EXPECT_EQ(decisions[0].target, "origin");
    EXPECT_TRUE(cacheLog.empty());

    ASSERT_EQ(originLog.size(), 1U);
    EXPECT_EQ(originLog[0].peer, "10.1.0.1"); // USIP: the client IP as source
    EXPECT_EQ(originLog[0].headerIp, "10.1.0.1");
    EXPECT_EQ(originLog[0].url, "/obj/1?x=1");

    ASSERT_EQ(originPeers.size(), 1U);
    EXPECT_EQ(originPeers[0].GetIpv4(), kClient);
    const uint16_t port = originPeers[0].GetPort();
    EXPECT_GE(port, 20000);
    EXPECT_LE(port, 20999);
    ASSERT_EQ(allocated.size(), 1U);
    EXPECT_EQ(allocated[0].first, port);
    EXPECT_EQ(allocated[0].second, "10.1.0.1");
    // -reuse ON (the default): the USIP connection waits idle in the pool for this client's
    // next request to the origin, and keeps its port meanwhile.
    EXPECT_EQ(app->GetPortAllocator()->GetInUse(), 1U);
    EXPECT_EQ(app->GetOpenBackendConnections(), 1U);

    const std::string head = "HTTP/1.1 200 OK\r\nServer: ORIGIN\r\nContent-Length: 3000\r\n"
                             "Via: 1.1 L2NS1\r\n\r\n";
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].outcome, AdcRequestOutcome::COMPLETED);
    EXPECT_EQ(done[0].server, "ORIGIN");
    EXPECT_EQ(done[0].responseBytes, kOriginObject + head.size());
    EXPECT_EQ(app->GetBypassRequests(), 1U);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
}

// REQ: CRD-02
TEST_F(CrdLowerTierTest, ClientIpHeaderFromTheClientIsReplaced)
{
    Build();
    // A client claiming another address: the appliance's value is the one the ISP trusts.
    Ptr<AdcHttpClient> liar = MakeClient(client, {{"X-Forwarded-For", "6.6.6.6"}});
    IssueAt(liar, Seconds(1), "/obj/1");
    IssueAt(liar, Seconds(1.5), "/obj/2?x=1");
    Run(Seconds(5));

    ASSERT_EQ(cacheLog.size(), 1U);
    EXPECT_EQ(cacheLog[0].headerIp, "10.1.0.1");
    ASSERT_EQ(originLog.size(), 1U);
    EXPECT_EQ(originLog[0].headerIp, "10.1.0.1");
    EXPECT_EQ(WithStatus(200), 2U);
    // the liar's two requests complete; the fixture's client sent none
    EXPECT_TRUE(AdcExpectAccounting(*liar, Expect::Completed(2)));
    EXPECT_TRUE(AdcExpectAccounting(*httpClient, Expect::Completed(0)));
}

// REQ: CRD-08
TEST_F(CrdLowerTierTest, CacheableRuleDecidesCacheOrBypass)
{
    const std::vector<std::string> urls = {"/obj/1", "/obj/2?x=1"};
    auto decide = [&](const char* rule) {
        Build();
        if (rule)
        {
            app->SetAttribute("CacheableRule", StringValue(rule));
        }
        IssueAt(httpClient, Seconds(1), urls[0]);
        IssueAt(httpClient, Seconds(1.5), urls[1]);
        Run(Seconds(4));
        std::vector<std::string> out;
        for (const auto& d : decisions)
        {
            out.push_back(d.url + " " + d.decision + " " + d.target);
        }
        EXPECT_EQ(done.size(), 2U);
        EXPECT_EQ(WithStatus(200), 2U);
        EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(2)));
        decisions.clear();
        done.clear();
        Simulator::Destroy();
        return out;
    };
    EXPECT_EQ(decide(nullptr),
              (std::vector<std::string>{"/obj/1 CACHE CRS1", "/obj/2?x=1 BYPASS origin"}));
    EXPECT_EQ(decide("ALL"),
              (std::vector<std::string>{"/obj/1 CACHE CRS1", "/obj/2?x=1 CACHE CRS1"}));
    EXPECT_EQ(decide("NONE"),
              (std::vector<std::string>{"/obj/1 BYPASS origin", "/obj/2?x=1 BYPASS origin"}));
}

// REQ: CRD-11
TEST_F(CrdLowerTierTest, CacheMissTrafficIsInterceptedAndSentWithHeaderClientIp)
{
    Build();
    // A cache forwarding a request this appliance sent it: Via holds the appliance's entry
    // (-via ON), which is how the appliance knows the request comes back from a cache.
    Ptr<AdcHttpClient> missClient =
        MakeClient(cache, {{"X-Forwarded-For", "10.1.0.9"}, {"Via", "1.1 L2NS1, 1.1 CRS1"}});
    IssueAt(missClient, Seconds(1), "/obj/7");
    Run(Seconds(5));

    ASSERT_EQ(intercepts.size(), 1U);
    EXPECT_EQ(intercepts[0][0], "CACHE_MISS");
    EXPECT_EQ(intercepts[0][1].rfind("10.3.0.2:", 0), 0U);
    EXPECT_EQ(intercepts[0][2], "10.2.0.2:80");
    EXPECT_TRUE(decisions.empty()); // no cache decision for miss traffic

    ASSERT_EQ(originLog.size(), 1U);
    EXPECT_EQ(originLog[0].peer, "10.1.0.9");
    EXPECT_EQ(originLog[0].headerIp, "10.1.0.9");
    ASSERT_EQ(originPeers.size(), 1U);
    EXPECT_EQ(originPeers[0].GetIpv4(), Ipv4Address("10.1.0.9"));
    EXPECT_GE(originPeers[0].GetPort(), 20000);
    EXPECT_LE(originPeers[0].GetPort(), 20999);
    ASSERT_EQ(allocated.size(), 1U);
    EXPECT_EQ(allocated[0].second, "10.1.0.9");

    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].outcome, AdcRequestOutcome::COMPLETED);
    EXPECT_EQ(done[0].status, 200);
    EXPECT_EQ(done[0].server, "ORIGIN");
    EXPECT_EQ(app->GetMissIntercepts(), 1U);
    EXPECT_EQ(app->GetClientRequests(), 0U);
    EXPECT_TRUE(AdcExpectAccounting(*missClient, Expect::Completed(1)));
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
}

TEST_F(CrdLowerTierTest, CacheMissWithoutClientIpHeaderGets400AndDrop)
{
    Build();
    Ptr<AdcHttpClient> missClient = MakeClient(cache, {{"Via", "1.1 L2NS1, 1.1 CRS1"}});
    IssueAt(missClient, Seconds(1), "/obj/7");
    Run(Seconds(5));

    EXPECT_TRUE(originLog.empty());
    EXPECT_EQ(drops, std::vector<std::string>{"missing-client-ip-header"});
    ASSERT_EQ(done.size(), 1U);
    EXPECT_EQ(done[0].status, 400);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(0).Failed("http-status-400", 1)));
}

TEST_F(CrdLowerTierTest, PortExhaustionAnswers503AndTracesOnce)
{
    Build();
    app->SetAttribute("PortRange", StringValue("40000-40001"));
    app->SetAttribute("CacheableRule", StringValue("NONE"));
    // -reuse OFF: a port goes back to the range when its connection closes (with reuse, an
    // idle pooled connection would keep it).
    app->SetAttribute("ServerConnectionReuse", BooleanValue(false));
    originServer->SetAttribute("ResponseDelay", TimeValue(Seconds(1)));
    httpClient->SetAttribute("MaxConnections", UintegerValue(3));
    httpClient->SetAttribute("Persistent", BooleanValue(false));
    for (int i = 1; i <= 3; ++i)
    {
        IssueAt(httpClient, Seconds(1), "/obj/" + std::to_string(i) + "?n=1");
    }
    Run(Seconds(6));

    ASSERT_EQ(allocated.size(), 2U);
    std::vector<uint16_t> ports = {allocated[0].first, allocated[1].first};
    std::sort(ports.begin(), ports.end());
    EXPECT_EQ(ports, (std::vector<uint16_t>{40000, 40001}));
    EXPECT_EQ(exhausted, std::vector<std::string>{"10.1.0.1"});
    EXPECT_EQ(app->GetPortExhausted(), 1U);
    EXPECT_EQ(originLog.size(), 2U);

    ASSERT_EQ(done.size(), 3U);
    EXPECT_EQ(WithStatus(503), 1U);
    EXPECT_EQ(WithStatus(200), 2U);
    for (const auto& r : done)
    {
        if (r.status == 503)
        {
            EXPECT_EQ(r.outcome, AdcRequestOutcome::FAILED);
            EXPECT_EQ(r.reason, "http-status-503");
        }
        if (r.status == 200)
        {
            EXPECT_EQ(r.outcome, AdcRequestOutcome::COMPLETED);
        }
    }
    // three concurrent bypasses, two ports: two complete, the third is refused with a 503
    EXPECT_TRUE(
        AdcExpectAccounting(*httpClient, Expect::Completed(2).Failed("http-status-503", 1)));
    EXPECT_EQ(app->GetPortAllocator()->GetInUse(), 0U);
}

} // namespace
