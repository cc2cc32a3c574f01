/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of CrdLowerTierAppliance: a lower-tier cache-redirection appliance between a client,
 * an origin and a cache, over real ns-3 TCP with transparent interception.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-request-record.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/boolean.h"
#include "ns3/crd-lower-tier.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Shorthand for the accounting expectations.
using Expect = AdcAccountingExpectation;

const Ipv4Address kClient("10.1.0.1");
const Ipv4Address kL2OnClientSide("10.1.0.2");
const Ipv4Address kL2OnOriginSide("10.2.0.1");
const Ipv4Address kOrigin("10.2.0.2");
const Ipv4Address kMip("10.3.0.1"); // L2's address on the cache link
const Ipv4Address kCache("10.3.0.2");
constexpr uint32_t kOriginObject = 3000;
constexpr uint32_t kCacheObject = 5000;

/// One "Decision" trace.
struct Decision
{
    std::string clientIp;
    std::string url;
    std::string decision;
    std::string target;
};

/// One AdcHttpServer "AccessLog" line.
struct AccessLine
{
    std::string peer;
    std::string headerIp;
    std::string url;
};

/// One "BackendFailure" trace.
struct Failure
{
    std::string target;
    std::string reason;
    Time when;
};

/// A TCP server that answers the first bytes of each connection with fixed bytes and closes.
struct RawServer
{
    Ptr<Socket> listen;
    std::string reply;

    void Start(Ptr<Node> node, uint16_t port)
    {
        listen = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        listen->Listen();
        listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&RawServer::Accept, this));
    }

    void Accept(Ptr<Socket> s, const Address& /* from */)
    {
        s->SetRecvCallback(MakeCallback(&RawServer::Read, this));
    }

    void Read(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            if (p->GetSize() == 0)
            {
                break;
            }
        }
        s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        s->Send(Create<Packet>(reinterpret_cast<const uint8_t*>(reply.data()),
                               static_cast<uint32_t>(reply.size())));
        s->Close();
    }
};

/// C (10.1.0.1) -- L2 -- O (10.2.0.2), and K (10.3.0.2) -- L2; L2 runs the appliance.
class CrdLowerTierTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Build nodes, links, addresses, routes, servers, the appliance and the client.
    void Build()
    {
        clients.clear();
        client = CreateObject<Node>();
        l2 = CreateObject<Node>();
        origin = CreateObject<Node>();
        cache = CreateObject<Node>();
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer dc = p2p.Install(client, l2);
        NetDeviceContainer dO = p2p.Install(l2, origin);
        NetDeviceContainer dK = p2p.Install(l2, cache);

        Ipv4ListRoutingHelper list;
        list.Add(Ipv4StaticRoutingHelper(), 0);
        InternetStackHelper stack;
        stack.SetRoutingHelper(list);
        stack.SetIpv6StackInstall(false);
        stack.Install(NodeContainer(client, l2, origin, cache));
        Ipv4AddressHelper addr;
        addr.SetBase("10.1.0.0", "255.255.255.0");
        addr.Assign(dc);
        addr.SetBase("10.2.0.0", "255.255.255.0");
        addr.Assign(dO);
        addr.SetBase("10.3.0.0", "255.255.255.0");
        addr.Assign(dK);

        Ptr<Ipv4> l2ip = l2->GetObject<Ipv4>();
        routing = CreateObject<AdcPolicyRouting>();
        AdcAddTopIpv4Routing(l2, routing, 10);
        ifC = static_cast<uint32_t>(l2ip->GetInterfaceForDevice(dc.Get(1)));
        ifO = static_cast<uint32_t>(l2ip->GetInterfaceForDevice(dO.Get(0)));
        ifK = static_cast<uint32_t>(l2ip->GetInterfaceForDevice(dK.Get(0)));

        Ipv4StaticRoutingHelper sr;
        sr.GetStaticRouting(client->GetObject<Ipv4>())->SetDefaultRoute(kL2OnClientSide, 1);
        sr.GetStaticRouting(cache->GetObject<Ipv4>())->SetDefaultRoute(kMip, 1);
        sr.GetStaticRouting(origin->GetObject<Ipv4>())
            ->AddNetworkRouteTo("10.1.0.0", "255.255.0.0", kL2OnOriginSide, 1);

        originServer = CreateObject<AdcHttpServer>();
        originServer->SetAttribute("ServerName", StringValue("ORIGIN"));
        originServer->SetAttribute("ObjectSize", UintegerValue(kOriginObject));
        origin->AddApplication(originServer);
        cacheServer = CreateObject<AdcHttpServer>();
        cacheServer->SetAttribute("ServerName", StringValue("CRS1"));
        cacheServer->SetAttribute("ObjectSize", UintegerValue(kCacheObject));
        cache->AddApplication(cacheServer);

        app = CreateObject<CrdLowerTierAppliance>();
        app->SetAttribute("Name", StringValue("L2NS1"));
        app->SetAttribute("Mip", Ipv4AddressValue(kMip));
        app->SetAttribute("PortRange", StringValue("20000-20999"));
        app->SetRouting(routing);
        app->AddCacheServer("CRS1", kCache, 80);
        app->SetCacheNetwork("10.3.0.0", "255.255.255.0");
        l2->AddApplication(app);

        httpClient = MakeClient(client, {});
        ConnectTraces();
    }

    /// \return an HTTP client on \p node addressed to O:80 that only sends IssueRequest's
    Ptr<AdcHttpClient> MakeClient(Ptr<Node> node,
                                  const std::vector<std::pair<std::string, std::string>>& hdrs)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(kOrigin, 80)));
        c->SetAttribute("InterRequestTime",
                        StringValue("ns3::ConstantRandomVariable[Constant=1000]"));
        for (const auto& h : hdrs)
        {
            c->AddRequestHeader(h.first, h.second);
        }
        c->SetStartTime(Seconds(0.5));
        node->AddApplication(c);
        c->TraceConnectWithoutContext(
            "RequestDone",
            Callback<void, const AdcRequestRecord&>(
                [this](const AdcRequestRecord& r) { done.push_back(r); }));
        clients.push_back(c);
        return c;
    }

    void ConnectTraces()
    {
        app->TraceConnectWithoutContext("Decision",
                                        Callback<void,
                                                 const std::string&,
                                                 const std::string&,
                                                 const std::string&,
                                                 const std::string&>([this](const std::string& ip,
                                                                            const std::string& url,
                                                                            const std::string& d,
                                                                            const std::string& t) {
                                            decisions.push_back({ip, url, d, t});
                                        }));
        app->TraceConnectWithoutContext(
            "Intercept",
            Callback<void, const std::string&, const std::string&, const std::string&>(
                [this](const std::string& kind, const std::string& peer, const std::string& orig) {
                    intercepts.push_back({kind, peer, orig});
                }));
        app->TraceConnectWithoutContext("PortAllocated",
                                        Callback<void, uint16_t, const std::string&>(
                                            [this](uint16_t port, const std::string& ip) {
                                                allocated.emplace_back(port, ip);
                                            }));
        app->TraceConnectWithoutContext(
            "PortExhausted",
            Callback<void, const std::string&>(
                [this](const std::string& ip) { exhausted.push_back(ip); }));
        app->TraceConnectWithoutContext(
            "BackendFailure",
            Callback<void, const std::string&, const std::string&>(
                [this](const std::string& target, const std::string& reason) {
                    failures.push_back({target, reason, Simulator::Now()});
                }));
        app->TraceConnectWithoutContext(
            "Drop",
            Callback<void, const std::string&>(
                [this](const std::string& reason) { drops.push_back(reason); }));
        auto accessTo = [](std::vector<AccessLine>* log) {
            return Callback<void, const std::string&, const std::string&, const std::string&, Time>(
                [log](const std::string& peer,
                      const std::string& hdr,
                      const std::string& url,
                      Time) {
                    log->push_back({peer, hdr, url});
                });
        };
        originServer->TraceConnectWithoutContext("AccessLog", accessTo(&originLog));
        cacheServer->TraceConnectWithoutContext("AccessLog", accessTo(&cacheLog));
        originServer->TraceConnectWithoutContext(
            "Connection",
            Callback<void, const Address&>([this](const Address& from) {
                originPeers.push_back(InetSocketAddress::ConvertFrom(from));
            }));
        httpClient->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, const Address&>(
                [this](Ptr<const Packet> p, const Address&) { clientRx.Feed(p); }));
    }

    /// The LOCAL rules of the brief, then run until \p stop.
    void Run(Time stop)
    {
        const AdcPortRange range = app->GetPortAllocator()->GetRange();
        AdcPolicyRule toOrigin;
        toOrigin.dstNet = Ipv4Address("10.2.0.0");
        toOrigin.dstMask = Ipv4Mask("255.255.255.0");
        toOrigin.protocol = 6;
        toOrigin.dstPorts = AdcPortRange(80, 80);
        toOrigin.action = AdcPolicyRule::LOCAL;
        toOrigin.name = "client-to-origin";
        toOrigin.inInterfaces = {ifC};
        routing->AddRule(toOrigin);
        toOrigin.name = "miss-to-origin";
        toOrigin.inInterfaces = {ifK};
        routing->AddRule(toOrigin);
        AdcPolicyRule replies;
        replies.name = "origin-replies";
        replies.inInterfaces = {ifO};
        replies.dstNet = Ipv4Address("10.1.0.0");
        replies.dstMask = Ipv4Mask("255.255.0.0");
        replies.protocol = 6;
        replies.dstPorts = range;
        replies.action = AdcPolicyRule::LOCAL;
        routing->AddRule(replies);
        Simulator::Stop(stop);
        Simulator::Run();
    }

    /// Have \p c request \p url at \p t.
    static void IssueAt(Ptr<AdcHttpClient> c, Time t, const std::string& url)
    {
        Simulator::Schedule(t, [c, url]() { c->IssueRequest(url); });
    }

    /// \return how many client records have status \p status
    std::size_t WithStatus(uint16_t status) const
    {
        return static_cast<std::size_t>(std::count_if(done.begin(), done.end(), [&](const auto& r) {
            return r.status == status;
        }));
    }

    Ptr<Node> client;
    Ptr<Node> l2;
    Ptr<Node> origin;
    Ptr<Node> cache;
    uint32_t ifC{0};
    uint32_t ifO{0};
    uint32_t ifK{0};
    Ptr<AdcPolicyRouting> routing;
    Ptr<AdcHttpServer> originServer;
    Ptr<AdcHttpServer> cacheServer;
    Ptr<CrdLowerTierAppliance> app;
    Ptr<AdcHttpClient> httpClient;
    std::vector<Ptr<AdcHttpClient>> clients; //!< every client MakeClient made, httpClient first

    std::vector<AdcRequestRecord> done;
    std::vector<Decision> decisions;
    std::vector<std::vector<std::string>> intercepts;
    std::vector<std::pair<uint16_t, std::string>> allocated;
    std::vector<std::string> exhausted;
    std::vector<Failure> failures;
    std::vector<std::string> drops;
    std::vector<AccessLine> originLog;
    std::vector<AccessLine> cacheLog;
    std::vector<InetSocketAddress> originPeers;
    AdcHttpStreamParser clientRx;
};

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
