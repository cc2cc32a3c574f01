/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of CrdCacheServer (the seed's CRS1..CRS3) in a small chain:
 *   client 10.1.1.1 -- 10.1.1.2 cache 10.1.2.1 -- 10.1.2.2 origin
 * (point-to-point links, 100 Mbit/s, 1 ms; every peer is directly connected, so the
 * interface routes are all the routing needed).
 */

#include "adc-test-accounting.h"
#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-request-record.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/crd-cache-server.h"
#include "ns3/crd-cache-store.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

const Ipv4Address kClientIp("10.1.1.1");
const Ipv4Address kCacheFront("10.1.1.2"); //!< the cache, toward the client (its "VIP")
const Ipv4Address kCacheBack("10.1.2.1");  //!< the cache, toward the origin
const Ipv4Address kOriginIp("10.1.2.2");

/// The three nodes of the chain.
struct Chain
{
    Ptr<Node> client;
    Ptr<Node> cache;
    Ptr<Node> origin;
};

Chain
MakeChain()
{
    const NodeContainer nodes = adctest::MakeChain(3); // 10.1.1.0/24 and 10.1.2.0/24
    return {nodes.Get(0), nodes.Get(1), nodes.Get(2)};
}

/// One AccessLog line.
struct LogLine
{
    std::string peer;
    std::string headerIp;
    std::string url;
};

/// Everything the cache and the origin report.
struct Traces
{
    std::vector<LogLine> cacheLog;
    std::vector<LogLine> originLog;
    std::vector<std::pair<std::string, std::string>> hits;   //!< (url, client IP)
    std::vector<std::pair<std::string, std::string>> misses; //!< (url, client IP)
    std::vector<std::tuple<std::string, uint16_t, uint64_t>> fetches;
    std::vector<std::string> drops;
    std::vector<AdcHttpMessage> originRequests;
    std::vector<std::tuple<std::string, std::string, uint16_t, uint32_t>> originResponses;
    std::vector<AdcRequestRecord> done;

    void OnCacheLog(const std::string& peer, const std::string& hdr, const std::string& url, Time)
    {
        cacheLog.push_back({peer, hdr, url});
    }

    void OnOriginLog(const std::string& peer, const std::string& hdr, const std::string& url, Time)
    {
        originLog.push_back({peer, hdr, url});
    }

    void OnHit(const std::string& url, const std::string& ip)
    {
        hits.emplace_back(url, ip);
    }

    void OnMiss(const std::string& url, const std::string& ip)
    {
        misses.emplace_back(url, ip);
    }

    void OnFetch(const std::string& url, uint16_t status, uint64_t bytes)
    {
        fetches.emplace_back(url, status, bytes);
    }

    void OnDrop(const std::string& reason)
    {
        drops.push_back(reason);
    }

    void OnOriginRequest(const AdcHttpMessage& m, const Address&)
    {
        originRequests.push_back(m);
    }

    void OnOriginResponse(const std::string& ip, const std::string& url, uint16_t st, uint32_t n)
    {
        originResponses.emplace_back(ip, url, st, n);
    }

    void OnDone(const AdcRequestRecord& r)
    {
        done.push_back(r);
    }

    void AttachCache(Ptr<CrdCacheServer> c)
    {
        c->TraceConnectWithoutContext("AccessLog", MakeCallback(&Traces::OnCacheLog, this));
        c->TraceConnectWithoutContext("Hit", MakeCallback(&Traces::OnHit, this));
        c->TraceConnectWithoutContext("Miss", MakeCallback(&Traces::OnMiss, this));
        c->TraceConnectWithoutContext("OriginFetch", MakeCallback(&Traces::OnFetch, this));
        c->TraceConnectWithoutContext("Drop", MakeCallback(&Traces::OnDrop, this));
    }

    void AttachOrigin(Ptr<AdcHttpServer> o)
    {
        o->TraceConnectWithoutContext("AccessLog", MakeCallback(&Traces::OnOriginLog, this));
        o->TraceConnectWithoutContext("Request", MakeCallback(&Traces::OnOriginRequest, this));
        o->TraceConnectWithoutContext("Response", MakeCallback(&Traces::OnOriginResponse, this));
    }

    void AttachClient(Ptr<AdcHttpClient> c)
    {
        c->TraceConnectWithoutContext("RequestDone", MakeCallback(&Traces::OnDone, this));
    }
};

/// Object sizes of the origin: /m 300 bytes, /h 50 bytes, anything else 100 bytes.
uint32_t
SizeOf(const std::string& url)
{
    return url == "/m" ? 300 : url == "/h" ? 50 : 100;
}

/// Makes the origin answer "503 Service Unavailable" with an empty body.
void
Unavailable(const AdcHttpMessage&, const std::string&, AdcHttpMessage& response, uint32_t& size)
{
    response = AdcHttpMessage::MakeResponse(503, "Service Unavailable");
    size = 0;
}

class CrdCacheServerTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        chain = MakeChain();
    }

    void TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /// An origin ("Server: origin") on the origin node, started at 0.5 s.
    Ptr<AdcHttpServer> Origin(uint32_t size)
    {
        AdcHttpServerHelper h(80);
        h.SetAttribute("ServerName", StringValue("origin"));
        h.SetAttribute("ObjectSize", UintegerValue(size));
        ApplicationContainer a = h.Install(chain.origin);
        a.Start(Seconds(0.5));
        Ptr<AdcHttpServer> o = DynamicCast<AdcHttpServer>(a.Get(0));
        traces.AttachOrigin(o);
        return o;
    }

    /// The cache CRS1 on the cache node, fetching from the origin, started at 0.5 s.
    Ptr<CrdCacheServer> Cache(uint64_t capacity = 1073741824ULL)
    {
        Ptr<CrdCacheServer> c = CreateObject<CrdCacheServer>();
        c->SetAttribute("Name", StringValue("CRS1"));
        c->SetAttribute("OriginAddress", Ipv4AddressValue(kOriginIp));
        c->SetAttribute("Capacity", UintegerValue(capacity));
        chain.cache->AddApplication(c);
        c->SetStartTime(Seconds(0.5));
        traces.AttachCache(c);
        return c;
    }

    /// A persistent client of the cache sending X-Forwarded-For: 10.1.0.5; it generates no
    /// request by itself (the first would come at 1001 s): the test issues them.
    Ptr<AdcHttpClient> Client()
    {
        AdcHttpClientHelper h(InetSocketAddress(kCacheFront, 80));
        h.SetAttribute("InterRequestTime",
                       StringValue("ns3::ConstantRandomVariable[Constant=1000]"));
        ApplicationContainer a = h.Install(chain.client);
        a.Start(Seconds(0.9));
        Ptr<AdcHttpClient> c = DynamicCast<AdcHttpClient>(a.Get(0));
        c->AddRequestHeader("X-Forwarded-For", "10.1.0.5");
        traces.AttachClient(c);
        return c;
    }

    /// Issue a request for \p url at \p t.
    static void At(double t, Ptr<AdcHttpClient> c, const std::string& url)
    {
        Simulator::Schedule(Seconds(t), [c, url]() { c->IssueRequest(url); });
    }

    /// A raw peer on the client node sending \p bytes to the cache at \p t.
    void Raw(adctest::RawPeer& peer, double t, const std::string& bytes)
    {
        peer.toSend = bytes;
        peer.ConnectAt(Seconds(t), chain.client, InetSocketAddress(kCacheFront, 80));
    }

    Chain chain;
    Traces traces;
};

/// Shorthand for the accounting expectations.
using Expect = AdcAccountingExpectation;

} // namespace

// REQ: CRD-02
TEST_F(CrdCacheServerTest, MissThenHitCarryTheClientIpFromTheHeaderToCacheAndOriginLogs)
{
    Ptr<AdcHttpServer> origin = Origin(1000);
    Ptr<CrdCacheServer> cache = Cache();
    Ptr<AdcHttpClient> cli = Client();
    At(1.0, cli, "/obj/1");
    At(2.0, cli, "/obj/1");
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    // the cache logs both requests: TCP peer the client (the appliance in CRD), header IP
    ASSERT_EQ(traces.cacheLog.size(), 2u);
    for (const auto& l : traces.cacheLog)
    {
        EXPECT_EQ(l.peer, "10.1.1.1");
        EXPECT_EQ(l.headerIp, "10.1.0.5");
        EXPECT_EQ(l.url, "/obj/1");
    }
    // first a miss fetched from the origin, then a hit with no new fetch
    using P = std::pair<std::string, std::string>;
    EXPECT_EQ(traces.misses, (std::vector<P>{{"/obj/1", "10.1.0.5"}}));
    EXPECT_EQ(traces.hits, (std::vector<P>{{"/obj/1", "10.1.0.5"}}));
    ASSERT_EQ(traces.fetches.size(), 1u);
    EXPECT_EQ(traces.fetches[0],
              std::make_tuple(std::string("/obj/1"), uint16_t(200), uint64_t(1000)));
    EXPECT_EQ(cache->GetMisses(), 1u);
    EXPECT_EQ(cache->GetHits(), 1u);
    EXPECT_EQ(cache->GetOriginFetches(), 1u);
    EXPECT_EQ(cache->GetRequestsServed(), 2u);
    EXPECT_EQ(cache->GetPendingFetches(), 0u);
    // The store keys by host and URL (the client's Host: www.example.com).
    const std::string key = CrdCacheServer::MakeKey("www.example.com", "/obj/1");
    EXPECT_EQ(key, "www.example.com/obj/1");
    EXPECT_TRUE(cache->GetStore()->Contains(key));
    EXPECT_EQ(cache->GetStore()->GetObjectSize(key), 1000u);
    EXPECT_TRUE(traces.drops.empty());

    // the origin saw one request: from the cache's own address, with the client IP header
    ASSERT_EQ(traces.originLog.size(), 1u);
    EXPECT_EQ(traces.originLog[0].peer, "10.1.2.1");
    EXPECT_EQ(traces.originLog[0].headerIp, "10.1.0.5");
    EXPECT_EQ(traces.originLog[0].url, "/obj/1");
    ASSERT_EQ(traces.originRequests.size(), 1u);
    const AdcHttpMessage& fwd = traces.originRequests[0];
    EXPECT_EQ(fwd.GetMethod(), "GET");
    EXPECT_EQ(fwd.GetHeader("Via").value_or(""), "1.1 CRS1");
    EXPECT_EQ(fwd.GetHeader("Connection").value_or(""), "close");
    EXPECT_EQ(fwd.GetHeader("Host").value_or(""), "www.example.com");
    EXPECT_EQ(origin->GetRequestsServed(), 1u);

    // miss: "HTTP/1.1 200 OK\r\n" 17 + "Server: origin\r\n" 16 + "Via: 1.1 CRS1\r\n" 15 +
    //       "X-Cache: MISS\r\n" 15 + "Content-Length: 1000\r\n" 22 + "\r\n" 2 = 87
    // hit:  17 + 15 + "X-Cache: HIT\r\n" 14 + 22 + 2 = 70
    ASSERT_EQ(traces.done.size(), 2u);
    EXPECT_EQ(traces.done[0].outcome, AdcRequestOutcome::COMPLETED);
    EXPECT_EQ(traces.done[0].responseBytes, 1000u + 87u);
    EXPECT_EQ(traces.done[0].path, "1.1 CRS1; X-Cache: MISS");
    EXPECT_EQ(traces.done[0].server, "origin");
    EXPECT_EQ(traces.done[1].outcome, AdcRequestOutcome::COMPLETED);
    EXPECT_EQ(traces.done[1].responseBytes, 1000u + 70u);
    EXPECT_EQ(traces.done[1].path, "1.1 CRS1; X-Cache: HIT");
    EXPECT_EQ(traces.done[1].server, "10.1.1.2"); // no Server header on a hit
    EXPECT_EQ(cli->GetBytesReceived(), 1087u + 1070u);
    // the miss pays the origin's handshake and round trip on top of the hit's
    EXPECT_GT(traces.done[0].GetLatency(), traces.done[1].GetLatency() + MilliSeconds(4));
    // both requests went over one persistent connection
    EXPECT_EQ(cli->GetConnectionsOpened(), 1u);
    EXPECT_EQ(cache->GetOpenConnections(), 1u);
    // the miss and the hit both complete
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(2)));
}

TEST_F(CrdCacheServerTest, CapacityAndPolicyDecideHitsThroughTheServer)
{
    // Three objects of 1000 bytes, room for two. Requests A B A C B, one at a time.
    // LRU:  A miss {A}; B miss {A,B}; A hit (B now least recent); C miss evicts B {A,C};
    //       B miss evicts A {C,B}           -> misses A B C B, one hit (A)
    // FIFO: A miss; B miss; A hit (order stays A,B); C miss evicts A {B,C}; B hit
    //                                        -> misses A B C, hits A B
    struct Case
    {
        std::string policy;
        std::vector<std::string> misses;
        std::vector<std::string> hits;
        std::vector<std::string> stored;
        std::vector<std::string> xcache;
    };

    for (const Case& k : {Case{"LRU",
                               {"/A", "/B", "/C", "/B"},
                               {"/A"},
                               {"/C", "/B"},
                               {"MISS", "MISS", "HIT", "MISS", "MISS"}},
                          Case{"FIFO",
                               {"/A", "/B", "/C"},
                               {"/A", "/B"},
                               {"/B", "/C"},
                               {"MISS", "MISS", "HIT", "MISS", "HIT"}}})
    {
        SCOPED_TRACE(k.policy);
        if (k.policy != "LRU")
        {
            Simulator::Destroy();
            traces = Traces();
            chain = MakeChain();
        }
        Origin(1000);
        Ptr<CrdCacheServer> cache = Cache(2000);
        cache->SetAttribute("Policy", StringValue(k.policy));
        Ptr<AdcHttpClient> cli = Client();
        const std::vector<std::string> seq = {"/A", "/B", "/A", "/C", "/B"};
        for (std::size_t i = 0; i < seq.size(); ++i)
        {
            At(1.0 + 0.2 * i, cli, seq[i]);
        }
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        std::vector<std::string> misses;
        std::vector<std::string> hits;
        for (const auto& m : traces.misses)
        {
            misses.push_back(m.first);
        }
        for (const auto& h : traces.hits)
        {
            hits.push_back(h.first);
        }
        EXPECT_EQ(misses, k.misses);
        EXPECT_EQ(hits, k.hits);
        EXPECT_EQ(cache->GetMisses(), k.misses.size());
        EXPECT_EQ(cache->GetHits(), k.hits.size());
        EXPECT_EQ(cache->GetOriginFetches(), k.misses.size());
        EXPECT_EQ(traces.originLog.size(), k.misses.size());
        EXPECT_EQ(cache->GetStore()->GetNObjects(), 2u);
        for (const auto& s : k.stored)
        {
            EXPECT_TRUE(cache->GetStore()->Contains(CrdCacheServer::MakeKey("www.example.com", s)))
                << s;
        }
        ASSERT_EQ(traces.done.size(), 5u);
        for (std::size_t i = 0; i < 5; ++i)
        {
            EXPECT_EQ(traces.done[i].url, seq[i]);
            EXPECT_EQ(traces.done[i].path, "1.1 CRS1; X-Cache: " + k.xcache[i]);
            EXPECT_EQ(traces.done[i].outcome, AdcRequestOutcome::COMPLETED);
        }
        // five requests, one at a time, to an origin that is up: hit or miss, all complete
        EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(seq.size())));
    }
}

TEST_F(CrdCacheServerTest, OriginDownGives502AndEveryRequestIsAccountedFor)
{
    // No application on the origin node: its TCP answers the SYN with a RST, which ns-3.37
    // ignores in SYN_SENT, so the fetch ends at OriginTimeout.
    Ptr<CrdCacheServer> cache = Cache();
    cache->SetAttribute("OriginTimeout", TimeValue(Seconds(1)));
    Ptr<AdcHttpClient> cli = Client();
    At(1.0, cli, "/obj/1");
    Simulator::Stop(Seconds(4));
    Simulator::Run();

    ASSERT_EQ(traces.done.size(), 1u);
    const AdcRequestRecord& r = traces.done[0];
    EXPECT_EQ(r.outcome, AdcRequestOutcome::FAILED);
    EXPECT_EQ(r.reason, "http-status-502");
    EXPECT_EQ(r.status, 502);
    // "HTTP/1.1 502 Bad Gateway\r\n" 26 + "Via: 1.1 CRS1\r\n" 15 + "X-Cache: MISS\r\n" 15 +
    // "Content-Length: 0\r\n" 19 + "\r\n" 2 = 77
    EXPECT_EQ(r.responseBytes, 77u);
    EXPECT_EQ(r.path, "1.1 CRS1; X-Cache: MISS");
    // the request reaches the cache after the client's handshake (~6 ms); 1 s later the 502
    EXPECT_GT(r.GetLatency(), Seconds(1));
    EXPECT_LT(r.GetLatency(), Seconds(1.1));
    EXPECT_EQ(traces.drops, std::vector<std::string>{"origin-timeout"});
    ASSERT_EQ(traces.fetches.size(), 1u);
    EXPECT_EQ(traces.fetches[0], std::make_tuple(std::string("/obj/1"), uint16_t(0), uint64_t(0)));
    EXPECT_EQ(cache->GetMisses(), 1u);
    EXPECT_EQ(cache->GetStore()->GetNObjects(), 0u);
    EXPECT_EQ(cache->GetPendingFetches(), 0u);
    EXPECT_EQ(cli->GetRequestsSent(), 1u);
    EXPECT_EQ(cli->GetRequestsFailed(), 1u);
    // the origin is down: the cache answers the one request 502
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(0).Failed("http-status-502", 1)));
}

TEST_F(CrdCacheServerTest, OriginErrorStatusGives502AndIsNotStored)
{
    Ptr<AdcHttpServer> origin = Origin(1000);
    origin->SetResponseCallback(MakeCallback(&Unavailable));
    Ptr<CrdCacheServer> cache = Cache();
    Ptr<AdcHttpClient> cli = Client();
    At(1.0, cli, "/obj/1");
    At(1.5, cli, "/obj/1");
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    ASSERT_EQ(traces.done.size(), 2u);
    for (const auto& r : traces.done)
    {
        EXPECT_EQ(r.reason, "http-status-502");
    }
    // nothing was stored, so the second request missed and fetched again
    EXPECT_EQ(cache->GetMisses(), 2u);
    EXPECT_EQ(cache->GetHits(), 0u);
    EXPECT_EQ(traces.drops, (std::vector<std::string>{"origin-status-503", "origin-status-503"}));
    ASSERT_EQ(traces.fetches.size(), 2u);
    EXPECT_EQ(traces.fetches[0],
              std::make_tuple(std::string("/obj/1"), uint16_t(503), uint64_t(0)));
    EXPECT_EQ(cli->GetRequestsFailed(), 2u);
    // the origin answers 503 to both fetches, which the cache turns into 502s
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(0).Failed("http-status-502", 2)));
}

namespace
{

/// \return the relayed miss response of the VaryByClientIp origin for \p ip (Connection: close)
std::string
VariedMiss(const std::string& ip)
{
    return "HTTP/1.1 200 OK\r\nServer: origin\r\nX-Client-IP: " + ip +
           "\r\nVary: X-Forwarded-For\r\nVia: 1.1 CRS1\r\nX-Cache: MISS\r\n"
           "Content-Length: 100\r\nConnection: close\r\n\r\n" +
           std::string(100, '\0');
}

/// \return a one-shot request for /obj/7 on behalf of client \p ip
std::string
RequestFor(const std::string& ip)
{
    return "GET /obj/7 HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: " + ip +
           "\r\nConnection: close\r\n\r\n";
}

} // namespace

// REQ: CRD-12
TEST_F(CrdCacheServerTest, OriginChoosesItsResponseFromTheClientIpTheCacheForwards)
{
    Ptr<AdcHttpServer> origin = Origin(100);
    origin->SetAttribute("VaryByClientIp", BooleanValue(true));
    Ptr<CrdCacheServer> cache = Cache();
    cache->SetAttribute("HonourVary", BooleanValue(true));
    adctest::RawPeer a;
    adctest::RawPeer b;
    Raw(a, 1.0, RequestFor("10.1.0.5"));
    Raw(b, 2.0, RequestFor("10.1.0.6"));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    // each client gets the response the origin chose for the IP the cache forwarded
    EXPECT_EQ(a.rx, VariedMiss("10.1.0.5"));
    EXPECT_EQ(b.rx, VariedMiss("10.1.0.6"));
    EXPECT_TRUE(a.closed);
    using R = std::tuple<std::string, std::string, uint16_t, uint32_t>;
    EXPECT_EQ(traces.originResponses,
              (std::vector<R>{{"10.1.0.5", "/obj/7", 200, 100}, {"10.1.0.6", "/obj/7", 200, 100}}));
    // with HonourVary a varying response is not stored: the second client did not get the
    // first client's copy
    EXPECT_EQ(cache->GetMisses(), 2u);
    EXPECT_EQ(cache->GetHits(), 0u);
    EXPECT_FALSE(cache->GetStore()->Contains(CrdCacheServer::MakeKey("www.example.com", "/obj/7")));
    EXPECT_EQ(cache->GetOpenConnections(), 0u);
}

TEST_F(CrdCacheServerTest, ByDefaultAVaryingResponseIsStoredAndServedToEveryone)
{
    Ptr<AdcHttpServer> origin = Origin(100);
    origin->SetAttribute("VaryByClientIp", BooleanValue(true));
    Ptr<CrdCacheServer> cache = Cache();
    adctest::RawPeer a;
    adctest::RawPeer b;
    Raw(a, 1.0, RequestFor("10.1.0.5"));
    Raw(b, 2.0, RequestFor("10.1.0.6"));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(a.rx, VariedMiss("10.1.0.5"));
    // the hit carries only the cache's own fields: the store keeps sizes, not headers
    EXPECT_EQ(b.rx,
              "HTTP/1.1 200 OK\r\nVia: 1.1 CRS1\r\nX-Cache: HIT\r\nContent-Length: 100\r\n"
              "Connection: close\r\n\r\n" +
                  std::string(100, '\0'));
    EXPECT_EQ(cache->GetMisses(), 1u);
    EXPECT_EQ(cache->GetHits(), 1u);
    EXPECT_EQ(traces.originResponses.size(), 1u);
}

TEST_F(CrdCacheServerTest, PipelinedRequestsAreAnsweredInOrderBehindAPendingMiss)
{
    Ptr<AdcHttpServer> origin = Origin(100);
    origin->SetObjectSizeCallback(MakeCallback(&SizeOf));
    Ptr<CrdCacheServer> cache = Cache();
    adctest::RawPeer warm;
    Raw(warm, 1.0, "GET /h HTTP/1.1\r\nConnection: close\r\n\r\n");
    // two misses for /m (fetched twice: no request collapsing), then two hits for /h that are
    // ready at once but must wait for the misses before them
    adctest::RawPeer pipe;
    Raw(pipe,
        2.0,
        "GET /m HTTP/1.1\r\n\r\nGET /m HTTP/1.1\r\n\r\nHEAD /h HTTP/1.1\r\n\r\n"
        "GET /h HTTP/1.1\r\nConnection: close\r\n\r\n");
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    const std::string miss = "HTTP/1.1 200 OK\r\nServer: origin\r\nVia: 1.1 CRS1\r\n"
                             "X-Cache: MISS\r\nContent-Length: 300\r\n\r\n" +
                             std::string(300, '\0');
    const std::string hitHead = "HTTP/1.1 200 OK\r\nVia: 1.1 CRS1\r\nX-Cache: HIT\r\n"
                                "Content-Length: 50\r\n\r\n";
    const std::string hitClose = "HTTP/1.1 200 OK\r\nVia: 1.1 CRS1\r\nX-Cache: HIT\r\n"
                                 "Content-Length: 50\r\nConnection: close\r\n\r\n" +
                                 std::string(50, '\0');
    EXPECT_EQ(pipe.rx, miss + miss + hitHead + hitClose);
    EXPECT_TRUE(pipe.closed);
    EXPECT_TRUE(warm.closed);
    EXPECT_EQ(cache->GetMisses(), 3u); // /h (warm-up), /m, /m
    EXPECT_EQ(cache->GetHits(), 2u);
    EXPECT_EQ(cache->GetOriginFetches(), 3u);
    EXPECT_EQ(cache->GetRequestsServed(), 5u);
    EXPECT_EQ(cache->GetOpenConnections(), 0u);
    EXPECT_EQ(cache->GetStore()->GetObjectSize("/m"), 300u);
    EXPECT_EQ(cache->GetStore()->GetObjectSize("/h"), 50u);
}

TEST_F(CrdCacheServerTest, MalformedRequestGets400AndDrop)
{
    Origin(100);
    Ptr<CrdCacheServer> cache = Cache();
    adctest::RawPeer peer;
    Raw(peer, 1.0, "GET /x HTTP/1.1\r\nBad Header\r\n\r\n");
    Simulator::Stop(Seconds(2));
    Simulator::Run();

    EXPECT_EQ(peer.rx,
              "HTTP/1.1 400 Bad Request\r\nServer: CRS1\r\nContent-Length: 0\r\n"
              "Connection: close\r\n\r\n");
    EXPECT_TRUE(peer.closed);
    ASSERT_EQ(traces.drops.size(), 1u);
    EXPECT_FALSE(traces.drops[0].empty());
    EXPECT_NE(traces.drops[0].rfind("origin-", 0), 0u); // a client-side reason
    EXPECT_TRUE(traces.cacheLog.empty());
    EXPECT_TRUE(traces.fetches.empty());
    EXPECT_EQ(cache->GetRequestsServed(), 0u);
    EXPECT_EQ(cache->GetOpenConnections(), 0u);
}

TEST_F(CrdCacheServerTest, BadSettingsThrowConfigErrors)
{
    Ptr<CrdCacheServer> c = CreateObject<CrdCacheServer>();
    EXPECT_THROW(c->SetAttribute("Capacity", UintegerValue(0)), AdcConfigError);
    c->SetAttribute("Capacity", UintegerValue(5000));
    EXPECT_EQ(c->GetStore()->GetCapacity(), 5000u);
    c->SetAttribute("Policy", StringValue("LFU"));
    EXPECT_EQ(c->GetStore()->GetPolicy(), CrdCacheStore::LFU);

    // OriginAddress left unset: refused when the application starts
    chain.cache->AddApplication(c);
    c->SetStartTime(Seconds(0.5));
    try
    {
        Simulator::Run();
        FAIL() << "no exception";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("OriginAddress"), std::string::npos) << e.what();
    }
}

TEST_F(CrdCacheServerTest, BadNameIsRefusedAtStart)
{
    Ptr<CrdCacheServer> c = Cache();
    c->SetAttribute("Name", StringValue("CRS 1"));
    try
    {
        Simulator::Run();
        FAIL() << "no exception";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("'CRS 1'"), std::string::npos) << e.what();
    }
}

namespace
{

/// A sink with exactly the signature of the function-pointer typedef T.
template <typename T>
struct SinkOf;

template <typename... Args>
struct SinkOf<void (*)(Args...)>
{
    static void Fn(Args...)
    {
    }
};

/// \return the typedef name TypeId \p tid cites for its trace source \p source
std::string
CitedTypedef(TypeId tid, const std::string& source)
{
    TypeId::TraceSourceInformation info;
    return tid.LookupTraceSourceByName(source, &info) ? info.callback : "(no such source)";
}

} // namespace

TEST(CrdCacheServerTraces, EachSourceCitesItsTypedefAndConnectsWithIt)
{
    Ptr<CrdCacheServer> c = CreateObject<CrdCacheServer>();
    const TypeId tid = CrdCacheServer::GetTypeId();
    EXPECT_EQ(CitedTypedef(tid, "AccessLog"), "ns3::CrdCacheServer::AccessLogTracedCallback");
    EXPECT_EQ(CitedTypedef(tid, "Hit"), "ns3::CrdCacheServer::LookupTracedCallback");
    EXPECT_EQ(CitedTypedef(tid, "Miss"), "ns3::CrdCacheServer::LookupTracedCallback");
    EXPECT_EQ(CitedTypedef(tid, "OriginFetch"), "ns3::CrdCacheServer::OriginFetchTracedCallback");
    EXPECT_EQ(CitedTypedef(tid, "Drop"), "ns3::CrdCacheServer::DropTracedCallback");
    EXPECT_EQ(tid.GetTraceSourceN(), 5u);
    EXPECT_TRUE(c->TraceConnectWithoutContext(
        "AccessLog",
        MakeCallback(&SinkOf<CrdCacheServer::AccessLogTracedCallback>::Fn)));
    EXPECT_TRUE(c->TraceConnectWithoutContext(
        "Hit",
        MakeCallback(&SinkOf<CrdCacheServer::LookupTracedCallback>::Fn)));
    EXPECT_TRUE(c->TraceConnectWithoutContext(
        "Miss",
        MakeCallback(&SinkOf<CrdCacheServer::LookupTracedCallback>::Fn)));
    EXPECT_TRUE(c->TraceConnectWithoutContext(
        "OriginFetch",
        MakeCallback(&SinkOf<CrdCacheServer::OriginFetchTracedCallback>::Fn)));
    EXPECT_TRUE(c->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(&SinkOf<CrdCacheServer::DropTracedCallback>::Fn)));

    Ptr<AdcHttpServer> s = CreateObject<AdcHttpServer>();
    EXPECT_EQ(CitedTypedef(AdcHttpServer::GetTypeId(), "Response"),
              "ns3::AdcHttpServer::ResponseTracedCallback");
    EXPECT_TRUE(s->TraceConnectWithoutContext(
        "Response",
        MakeCallback(&SinkOf<AdcHttpServer::ResponseTracedCallback>::Fn)));
    Simulator::Destroy();
}
