/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the proxy engine (AdcProxyEngine) under a trivial policy that sends every request
 * to one server, and of its parts: the message cutter, the idle pool, the source policy.
 *
 * Topology: clients A (10.1.0.1) and B (10.1.1.1) -- P (the proxy: 10.1.0.2, 10.1.1.2 and
 * 10.2.0.1 towards the server) -- S (10.2.0.2). The proxy's policy catalogue has no IDs of its
 * own: tests name the CRD requirements whose lower tier runs on this engine where they apply.
 */

#include "adc-test-accounting.h"
#include "adc-test-fixtures.h"

#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-proxy-engine.h"
#include "ns3/adc-proxy-server-pool.h"
#include "ns3/adc-source-address-policy.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-helper.h"

#include <algorithm>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::adctest;

namespace
{

using Expect = AdcAccountingExpectation;

const Ipv4Address kClientA("10.1.0.1");
const Ipv4Address kClientB("10.1.1.1");
const Ipv4Address kProxyForA("10.1.0.2");
const Ipv4Address kProxyMip("10.2.0.1");
const Ipv4Address kServer("10.2.0.2");
const AdcPortRange kUsipRange(30000, 30009);

/// The trivial policy: every request to one server (or to the address the client asked for).
struct OneServerPolicy : public AdcProxyPolicy
{
    Ptr<AdcSourceAddressPolicy> source; //!< where connections come from
    bool toDestination{false};          //!< forward to the original destination
    std::optional<uint16_t> answer;     //!< answer every request with this status
    uint32_t forwarded{0};              //!< FORWARD decisions
    uint32_t released{0};               //!< Released calls

    AdcProxyDecision Decide(const AdcProxyFront& front, const AdcHttpMessage&) override
    {
        if (answer)
        {
            return AdcProxyDecision::Answer(*answer, "Service Unavailable");
        }
        ++forwarded;
        AdcProxyDecision d = AdcProxyDecision::Forward("S1",
                                                       toDestination ? front.localIp : kServer,
                                                       80,
                                                       source,
                                                       front.peerIp);
        std::ostringstream ip;
        front.peerIp.Print(ip);
        d.edits.push_back({"X-Forwarded-For", ip.str()});
        return d;
    }

    void Released(const AdcProxyDecision&) override
    {
        ++released;
    }
};

/// One "ServerConnection" trace.
struct ServerConn
{
    std::string source;
    bool reused;
};

class ProxyEngineTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    void Build(bool reuse)
    {
        a = CreateObject<Node>();
        b = CreateObject<Node>();
        p = CreateObject<Node>();
        s = CreateObject<Node>();
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer dA = p2p.Install(a, p);
        NetDeviceContainer dB = p2p.Install(b, p);
        NetDeviceContainer dS = p2p.Install(p, s);
        Ipv4ListRoutingHelper list;
        list.Add(Ipv4StaticRoutingHelper(), 0);
        InternetStackHelper stack;
        stack.SetRoutingHelper(list);
        stack.SetIpv6StackInstall(false);
        stack.Install(NodeContainer(a, b, p, s));
        Ipv4AddressHelper addr;
        addr.SetBase("10.1.0.0", "255.255.255.0");
        addr.Assign(dA);
        addr.SetBase("10.1.1.0", "255.255.255.0");
        addr.Assign(dB);
        addr.SetBase("10.2.0.0", "255.255.255.0");
        addr.Assign(dS);
        Ptr<Ipv4> pip = p->GetObject<Ipv4>();
        routing = CreateObject<AdcPolicyRouting>();
        AdcAddTopIpv4Routing(pip->GetObject<Node>(), routing, 10);
        ifA = static_cast<uint32_t>(pip->GetInterfaceForDevice(dA.Get(1)));
        ifB = static_cast<uint32_t>(pip->GetInterfaceForDevice(dB.Get(1)));
        ifS = static_cast<uint32_t>(pip->GetInterfaceForDevice(dS.Get(0)));
        Ipv4StaticRoutingHelper sr;
        sr.GetStaticRouting(a->GetObject<Ipv4>())->SetDefaultRoute(kProxyForA, 1);
        sr.GetStaticRouting(b->GetObject<Ipv4>())->SetDefaultRoute("10.1.1.2", 1);
        sr.GetStaticRouting(s->GetObject<Ipv4>())
            ->AddNetworkRouteTo("10.1.0.0", "255.255.0.0", kProxyMip, 1);

        server = CreateObject<AdcHttpServer>();
        server->SetAttribute("ServerName", StringValue("S1"));
        server->SetAttribute("ObjectSize", UintegerValue(3000));
        server->TraceConnectWithoutContext("Connection",
                                           Callback<void, const Address&>([this](const Address& f) {
                                               serverPeers.push_back(
                                                   InetSocketAddress::ConvertFrom(f));
                                           }));
        s->AddApplication(server);

        mapped = CreateObject<AdcSourceAddressPolicy>();
        mapped->SetAttribute("MappedIp", Ipv4AddressValue(kProxyMip));
        mapped->SetAttribute("UsePortRange", BooleanValue(false));
        mapped->SetRouting(routing);
        usip = CreateObject<AdcSourceAddressPolicy>();
        usip->SetAttribute("Mode", StringValue("CLIENT_IP"));
        usip->SetAttribute("PortRange", StringValue(kUsipRange.ToString()));
        usip->SetRouting(routing);
        policy.source = mapped;

        engine = CreateObject<AdcProxyEngine>();
        engine->SetAttribute("Name", StringValue("P1"));
        engine->SetAttribute("ServerConnectionReuse", BooleanValue(reuse));
        engine->SetPolicy(&policy);
        engine->TraceConnectWithoutContext(
            "ServerConnection",
            Callback<void, const std::string&, const std::string&, const std::string&, bool>(
                [this](const std::string&, const std::string& src, const std::string&, bool r) {
                    conns.push_back({src, r});
                }));
        engine->TraceConnectWithoutContext(
            "ServerFailure",
            Callback<void, const std::string&, const std::string&, uint16_t>(
                [this](const std::string&, const std::string& reason, uint16_t status) {
                    failures.push_back(reason + " " + std::to_string(status));
                }));
        engine->TraceConnectWithoutContext("LocalAnswer",
                                           Callback<void, uint16_t, const std::string&>(
                                               [this](uint16_t status, const std::string& cause) {
                                                   answers.push_back(std::to_string(status) + " " +
                                                                     cause);
                                               }));
        engine->TraceConnectWithoutContext(
            "Drop",
            Callback<void, const std::string&>(
                [this](const std::string& r) { drops.push_back(r); }));
        engine->TraceConnectWithoutContext(
            "IdleClosed",
            Callback<void, const std::string&, const std::string&, const std::string&>(
                [this](const std::string&, const std::string&, const std::string& reason) {
                    idleClosed.push_back(reason);
                }));
        engine->TraceConnectWithoutContext(
            "Accept",
            Callback<void, const std::string&, const std::string&>(
                [this](const std::string&, const std::string& dst) { accepted.push_back(dst); }));
        Simulator::Schedule(Seconds(0), [this]() { engine->Start(p); });
    }

    /// Clients address S; P intercepts them and connects from their own IPs (USIP).
    void InterceptWithUsip()
    {
        AdcPolicyRule intercept;
        intercept.name = "intercept";
        intercept.inInterfaces = {ifA, ifB};
        intercept.dstNet = kServer;
        intercept.dstMask = Ipv4Mask("255.255.255.255");
        intercept.protocol = 6;
        intercept.dstPorts = AdcPortRange(80, 80);
        intercept.action = AdcPolicyRule::LOCAL;
        routing->AddRule(intercept);
        AdcPolicyRule back;
        back.name = "usip-return";
        back.inInterfaces = {ifS};
        back.dstNet = Ipv4Address("10.1.0.0");
        back.dstMask = Ipv4Mask("255.255.0.0");
        back.protocol = 6;
        back.dstPorts = kUsipRange;
        back.action = AdcPolicyRule::LOCAL;
        routing->AddRule(back);
        policy.source = usip;
        policy.toDestination = true;
    }

    /// \return an HTTP client on \p node for \p remote, issuing only what IssueAt schedules
    Ptr<AdcHttpClient> MakeClient(Ptr<Node> node, Ipv4Address remote)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(remote, 80)));
        c->SetAttribute("InterRequestTime",
                        StringValue("ns3::ConstantRandomVariable[Constant=1000]"));
        c->SetAttribute("MaxConnections", UintegerValue(1));
        c->SetStartTime(Seconds(0.5));
        node->AddApplication(c);
        clients.push_back(c);
        return c;
    }

    static void IssueAt(Ptr<AdcHttpClient> c, double at, const std::string& url)
    {
        Simulator::Schedule(Seconds(at), [c, url]() { c->IssueRequest(url); });
    }

    void Run(double stop)
    {
        Simulator::Stop(Seconds(stop));
        Simulator::Run();
    }

    std::size_t Opened() const
    {
        return std::count_if(conns.begin(), conns.end(), [](const auto& c) { return !c.reused; });
    }

    Ptr<Node> a, b, p, s;
    uint32_t ifA{0}, ifB{0}, ifS{0};
    Ptr<AdcPolicyRouting> routing;
    Ptr<AdcHttpServer> server;
    Ptr<AdcSourceAddressPolicy> mapped, usip;
    OneServerPolicy policy;
    Ptr<AdcProxyEngine> engine;
    std::vector<Ptr<AdcHttpClient>> clients;
    std::vector<InetSocketAddress> serverPeers;
    std::vector<ServerConn> conns;
    std::vector<std::string> failures, answers, drops, idleClosed, accepted;
};

} // namespace

// ---- the parts --------------------------------------------------------------------------------

TEST(AdcHttpCutter, CutsPipelinedMessagesExactlyWhateverTheSegments)
{
    const std::string m1 = "POST /1 HTTP/1.1\r\nContent-Length: 5\r\n\r\n" + Pattern(5);
    const std::string m2 = "GET /2 HTTP/1.1\r\n\r\n";
    const std::string m3 = "PUT /3 HTTP/1.1\r\nContent-Length: 300\r\n\r\n" + Pattern(300, 7);
    const std::string stream = m1 + m2 + m3;
    for (std::size_t step : {1, 2, 7, 40, 64, 1000})
    {
        AdcHttpCutter cutter;
        std::vector<std::string> messages(1);
        std::vector<std::string> targets;
        for (std::size_t i = 0; i < stream.size(); i += step)
        {
            cutter.Feed(Bytes(stream.substr(i, step)));
            for (const AdcHttpCutter::Piece& piece : cutter.Take())
            {
                if (piece.kind == AdcHttpCutter::Piece::END)
                {
                    EXPECT_EQ(piece.wireBytes, messages.back().size());
                    messages.emplace_back();
                    continue;
                }
                if (piece.kind == AdcHttpCutter::Piece::HEAD)
                {
                    targets.push_back(piece.head.GetTarget());
                }
                messages.back() += Text(piece.bytes);
            }
        }
        SCOPED_TRACE(step);
        EXPECT_FALSE(cutter.HasError());
        EXPECT_EQ(messages, (std::vector<std::string>{m1, m2, m3, ""}));
        EXPECT_EQ(targets, (std::vector<std::string>{"/1", "/2", "/3"}));
    }
}

TEST(AdcHttpCutter, BytesAfterAResponseStartTheNextMessage)
{
    AdcHttpCutter cutter;
    cutter.Feed(Bytes("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcHTTP/1.1 204"));
    std::string body;
    int ends = 0;
    for (const AdcHttpCutter::Piece& piece : cutter.Take())
    {
        ends += piece.kind == AdcHttpCutter::Piece::END;
        body += piece.kind == AdcHttpCutter::Piece::BODY ? Text(piece.bytes) : "";
    }
    EXPECT_EQ(ends, 1);
    EXPECT_EQ(body, "abc");
    EXPECT_TRUE(cutter.IsMidMessage()); // the extra bytes began another message
    EXPECT_TRUE(cutter.IsInHead());
}

TEST(AdcProxyServerPool, NewestIdleFirstPerServerAndSourceAndTheBoundEvictsTheOldest)
{
    AdcProxyServerPool pool;
    const AdcProxyServerPool::Key toS{kServer, 80, kClientA};
    const AdcProxyServerPool::Key toSfromB{kServer, 80, kClientB};
    EXPECT_FALSE(pool.Put(1, toS, 3).has_value());
    EXPECT_FALSE(pool.Put(2, toSfromB, 3).has_value());
    EXPECT_FALSE(pool.Put(3, toS, 3).has_value());
    EXPECT_EQ(pool.CountServer(kServer, 80), 3U);
    EXPECT_EQ(pool.Put(4, toSfromB, 3), std::optional<uint64_t>(1)); // bound per server
    EXPECT_EQ(pool.Take(toS), std::optional<uint64_t>(3));
    EXPECT_FALSE(pool.Take(toS).has_value()); // 1 was evicted: B's connections are not A's
    EXPECT_TRUE(pool.Remove(4));
    EXPECT_FALSE(pool.Contains(4));
    EXPECT_EQ(pool.Take(toSfromB), std::optional<uint64_t>(2));
    EXPECT_EQ(pool.GetSize(), 0U);
}

// ---- the engine -------------------------------------------------------------------------------

// REQ: CRD-11 (the full proxy of the lower tier: pipelined requests answered in order)
TEST_F(ProxyEngineTest, PipelinedRequestsAreAnsweredInRequestOrder)
{
    Build(true);
    // 30 requests in three segments (536 bytes each): the engine reads them over several
    // reads, and with at most 2 waiting it must leave bytes in TCP and come back for them.
    engine->SetAttribute("MaxPipelined", UintegerValue(2));
    std::vector<uint32_t> sizes;
    std::string pipeline;
    for (uint32_t k = 0; k < 30; ++k)
    {
        sizes.push_back(1 + (k * 7919) % 5000);
        pipeline += "GET /r" + std::to_string(k) + " HTTP/1.1\r\nHost: s\r\n\r\n";
    }
    server->SetObjectSizeCallback(Callback<uint32_t, const std::string&>(
        [&](const std::string& url) { return sizes[std::stoul(url.substr(2))]; }));
    RawPeer client;
    client.Start(a, InetSocketAddress(kProxyForA, 80), Seconds(1), pipeline, Seconds(1));
    Run(5);

    std::vector<uint64_t> bodies;
    const std::vector<AdcHttpMessage> responses = client.Responses(&bodies);
    ASSERT_EQ(responses.size(), sizes.size());
    EXPECT_EQ(bodies, std::vector<uint64_t>(sizes.begin(), sizes.end())); // in request order
    for (const AdcHttpMessage& r : responses)
    {
        EXPECT_EQ(r.GetStatus(), 200);
        EXPECT_EQ(r.GetHeader("Via").value_or(""), "1.1 P1");
    }
    EXPECT_GE(engine->GetPeakPipelined(), 2U);
    EXPECT_LT(engine->GetPeakPipelined(), 30U); // never all at once: the limit paused reading
    EXPECT_EQ(engine->GetRequests(), 30U);
    EXPECT_EQ(engine->GetResponsesRelayed(), 30U);
    EXPECT_EQ(serverPeers.size(), 1U); // one server connection, reused for all
    EXPECT_EQ(Opened(), 1U);
    EXPECT_EQ(policy.released, policy.forwarded);
}

// REQ: CRD-13 (throughput through the lower tier needs flow control, not unbounded queues)
TEST_F(ProxyEngineTest, SlowClientPausesTheServerAndQueuesStayBounded)
{
    Build(false);
    // P -> A at 2 Mbit/s, P <- S at 100: the client drains 50 times slower than the server
    // sends. (A client application that stops reading would stall ns-3's TCP instead: it
    // sends no window update when the application reads again.)
    p->GetDevice(0)->SetAttribute("DataRate", StringValue("2Mbps"));
    const uint32_t size = 4000000;
    server->SetAttribute("ObjectSize", UintegerValue(size));
    uint64_t serverTx = 0;
    uint64_t serverTxAt3 = 0;
    server->TraceConnectWithoutContext(
        "Tx",
        Callback<void, Ptr<const Packet>>(
            [&](Ptr<const Packet> pkt) { serverTx += pkt->GetSize(); }));
    Simulator::Schedule(Seconds(3), [&]() { serverTxAt3 = serverTx; });
    RawPeer client;
    client.Start(a,
                 InetSocketAddress(kProxyForA, 80),
                 Seconds(1),
                 "GET /big HTTP/1.1\r\n\r\n",
                 Seconds(1));
    Run(25);

    std::vector<uint64_t> bodies;
    ASSERT_EQ(client.Responses(&bodies).size(), 1U);
    EXPECT_EQ(bodies[0], size);
    // The engine held at most its window plus one read of the server socket (its receive
    // buffer, 128 KiB by default) towards the client...
    EXPECT_LE(engine->GetPeakQueuedBytes(), 65536 + 131072);
    EXPECT_GE(engine->GetPeakQueuedBytes(), 65536U);
    // ...so after 2 s, when the client had got at most 500 kB, the server, paused by TCP, had
    // sent under half of the body (without flow control it sends it all in 0.4 s).
    EXPECT_GT(serverTxAt3, 0U);
    EXPECT_LT(serverTxAt3, size / 2);
    EXPECT_GT(serverTx, static_cast<uint64_t>(size)); // the head and every body byte, later
}

// REQ: CRD-13
TEST_F(ProxyEngineTest, SlowServerPausesTheClientsUploadWhoseBytesArriveAsSent)
{
    Build(false);
    server->SetStartTime(Seconds(100)); // the scripted server takes port 80
    RawServer slow;
    slow.readFrom = Seconds(3);
    slow.reply = [](const AdcHttpMessage&) {
        return std::string("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
    };
    slow.Listen(s);
    const uint64_t size = 2000000;
    const std::string head =
        "POST /up HTTP/1.1\r\nContent-Length: " + std::to_string(size) + "\r\n\r\n";
    RawPeer client;
    client.Start(a,
                 InetSocketAddress(kProxyForA, 80),
                 Seconds(1),
                 head + Pattern(size),
                 Seconds(1));
    uint64_t handedWhileUnread = 0;
    Simulator::Schedule(Seconds(3), [&]() { handedWhileUnread = client.handed; });
    Run(20);

    const std::vector<AdcHttpMessage> responses = client.Responses();
    ASSERT_EQ(responses.size(), 1U);
    EXPECT_EQ(responses[0].GetStatus(), 201);
    // The server got the body byte for byte, after the head the proxy rewrote.
    const std::size_t bodyAt = slow.received.find("\r\n\r\n");
    ASSERT_NE(bodyAt, std::string::npos);
    EXPECT_TRUE(slow.received.substr(bodyAt + 4) == Pattern(size)); // (no dump of 2 MB)
    EXPECT_NE(slow.received.find("X-Forwarded-For: 10.1.0.1\r\n"), std::string::npos);
    EXPECT_LT(handedWhileUnread, size / 2); // the client was paused too
    EXPECT_LE(engine->GetPeakQueuedBytes(), 65536 + 131072);
}

// REQ: CRD-02 (objects reach the clients whatever framing the origin uses: RFC 9112 sec. 6.3
// item 8, a response body delimited by the server's close)
TEST_F(ProxyEngineTest, ACloseDelimitedResponseEndsAtTheServersCloseAndClosesTheClient)
{
    for (bool complete : {true, false})
    {
        SCOPED_TRACE(complete ? "whole head" : "server closes inside the head");
        failures.clear();
        clients.clear();
        policy = OneServerPolicy();
        Build(false);
        server->SetStartTime(Seconds(100));
        const std::string body = Pattern(2500);
        RawServer raw;
        raw.answers = {complete ? "HTTP/1.1 200 OK\r\nContent-Type: x\r\n\r\n" + body
                                : std::string("HTTP/1.1 200 OK\r\nContent-Ty")};
        raw.closeAfterAnswer = true;
        raw.Listen(s);
        RawPeer client;
        client.Start(a,
                     InetSocketAddress(kProxyForA, 80),
                     Seconds(1),
                     complete ? "GET /c HTTP/1.1\r\n\r\nGET /d HTTP/1.1\r\n\r\n"
                              : "GET /c HTTP/1.1\r\n\r\n",
                     Seconds(1));
        Run(4);

        // One request reached the server: the client connection closes after the response,
        // so the one pipelined behind it is never forwarded (the client must retry it).
        EXPECT_EQ(raw.requests.size(), 1U);
        std::vector<uint64_t> bodies;
        const std::vector<AdcHttpMessage> got = client.Responses(&bodies);
        ASSERT_EQ(got.size(), 1U);
        if (complete)
        {
            // The body is the server's, byte for byte; without a length the client can only
            // tell its end by the proxy's close, so the proxy says so and closes.
            EXPECT_EQ(got[0].GetStatus(), 200);
            EXPECT_EQ(bodies, std::vector<uint64_t>{body.size()});
            EXPECT_TRUE(client.rx.substr(client.rx.find("\r\n\r\n") + 4) == body);
            EXPECT_EQ(got[0].GetHeader("Connection"), "close");
            EXPECT_TRUE(client.closed);
            EXPECT_EQ(engine->GetResponsesRelayed(), 1U);
            EXPECT_TRUE(failures.empty());
        }
        else
        {
            // A head cut short by the close is no response: 502, counted as a failure.
            EXPECT_EQ(got[0].GetStatus(), 502);
            EXPECT_EQ(engine->GetResponsesRelayed(), 0U);
            EXPECT_EQ(failures, std::vector<std::string>{"closed-before-response-complete 502"});
        }
        EXPECT_EQ(engine->GetOpenServerConnections(), 0U);
        EXPECT_EQ(policy.released, policy.forwarded);
        Simulator::Destroy();
    }
}

TEST_F(ProxyEngineTest, ResponseBytesPassThroughWhateverTheServersFraming)
{
    Build(false);
    server->SetStartTime(Seconds(100));
    const std::string chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                "5\r\n" +
                                Pattern(5) + "\r\n1f4;ext=1\r\n" + Pattern(500, 5) +
                                "\r\n0\r\nX-Trailer: t\r\n\r\n";
    RawServer raw;
    raw.reply = [&](const AdcHttpMessage&) { return chunked; };
    raw.Listen(s);
    RawPeer client;
    client.Start(a,
                 InetSocketAddress(kProxyForA, 80),
                 Seconds(1),
                 "GET /c HTTP/1.1\r\n\r\n",
                 Seconds(1));
    Run(4);

    const std::size_t at = client.rx.find("\r\n\r\n");
    ASSERT_NE(at, std::string::npos);
    EXPECT_TRUE(client.rx.substr(at + 4) == chunked.substr(chunked.find("\r\n\r\n") + 4));
    EXPECT_NE(client.rx.find("Via: 1.1 P1\r\n"), std::string::npos);
    EXPECT_EQ(engine->GetResponsesRelayed(), 1U);
    EXPECT_TRUE(failures.empty());
}

TEST_F(ProxyEngineTest, ASilentServerTimesOutWith504AndAnUnreachableOneWith502)
{
    for (bool reachable : {true, false})
    {
        SCOPED_TRACE(reachable ? "silent server" : "unreachable server");
        failures.clear();
        answers.clear();
        clients.clear();
        policy = OneServerPolicy();
        Build(false);
        engine->SetAttribute("ResponseTimeout", TimeValue(Seconds(1)));
        engine->SetAttribute("ConnectTimeout", TimeValue(Seconds(1)));
        server->SetStartTime(Seconds(100));
        RawServer silent; // reads the request, never answers
        silent.Listen(s);
        if (!reachable)
        {
            s->GetObject<Ipv4>()->SetDown(1);
        }
        Ptr<AdcHttpClient> c = MakeClient(a, kProxyForA);
        IssueAt(c, 1, "/x");
        Run(5);

        const std::string status = reachable ? "504" : "502";
        EXPECT_EQ(failures, std::vector<std::string>{"timeout " + status});
        EXPECT_EQ(answers, std::vector<std::string>{status + " timeout"});
        EXPECT_TRUE(
            AdcExpectAccounting(*c, Expect::Completed(0).Failed("http-status-" + status, 1)));
        EXPECT_EQ(engine->GetOpenServerConnections(), 0U);
        EXPECT_EQ(policy.released, policy.forwarded);
        Simulator::Destroy();
    }
}

// REQ: CRD-06 (connections to a server from the mapped IP)
TEST_F(ProxyEngineTest, ReuseCarriesSequentialRequestsOverOneConnectionAndOffOpensOneEach)
{
    for (bool reuse : {true, false})
    {
        SCOPED_TRACE(reuse ? "reuse" : "no reuse");
        conns.clear();
        serverPeers.clear();
        clients.clear();
        policy = OneServerPolicy();
        Build(reuse);
        Ptr<AdcHttpClient> c = MakeClient(a, kProxyForA);
        const uint32_t n = 5;
        for (uint32_t i = 0; i < n; ++i)
        {
            IssueAt(c, 1 + 0.2 * i, "/obj/" + std::to_string(i));
        }
        Run(4);

        EXPECT_TRUE(AdcExpectAccounting(*c, Expect::Completed(n)));
        ASSERT_EQ(conns.size(), n);
        EXPECT_EQ(Opened(), reuse ? 1U : n);
        EXPECT_EQ(serverPeers.size(), reuse ? 1U : n);
        EXPECT_EQ(engine->GetServerConnectionsReused(), reuse ? n - 1 : 0U);
        for (const InetSocketAddress& peer : serverPeers)
        {
            EXPECT_EQ(peer.GetIpv4(), kProxyMip);
        }
        EXPECT_EQ(engine->GetIdleServerConnections(), reuse ? 1U : 0U);
        EXPECT_EQ(policy.released, n);
        Simulator::Destroy();
    }
}

TEST_F(ProxyEngineTest, IdleConnectionsAreBoundedPerServerAndExpire)
{
    Build(true);
    engine->SetAttribute("MaxIdlePerServer", UintegerValue(1));
    engine->SetAttribute("ServerIdleTimeout", TimeValue(Seconds(2)));
    Ptr<AdcHttpClient> ca = MakeClient(a, kProxyForA);
    Ptr<AdcHttpClient> cb = MakeClient(b, Ipv4Address("10.1.1.2"));
    for (const Ptr<AdcHttpClient>& c : clients)
    {
        c->SetAttribute("Persistent", BooleanValue(false)); // nothing of theirs stays open
    }
    IssueAt(ca, 1, "/a");
    IssueAt(cb, 1, "/b"); // concurrent: two server connections
    uint32_t idleAt2 = 0;
    Simulator::Schedule(Seconds(2), [&]() { idleAt2 = engine->GetIdleServerConnections(); });
    Run(5);

    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(2)));
    EXPECT_EQ(Opened(), 2U);
    EXPECT_EQ(idleAt2, 1U); // the second one to go idle pushed the first out
    EXPECT_EQ(idleClosed, (std::vector<std::string>{"pool-full", "idle-timeout"}));
    EXPECT_EQ(engine->GetOpenServerConnections(), 0U);
    EXPECT_EQ(engine->GetPerFlowStateBytes(), 0U);
}

// REQ: CRD-07
// REQ: CRD-05
TEST_F(ProxyEngineTest, UsipConnectsFromTheClientWithAPortOfTheRangeReleasedAfter)
{
    Build(false);
    InterceptWithUsip();
    std::vector<std::pair<Ipv4Address, uint16_t>> leased;
    std::vector<uint16_t> released;
    usip->TraceConnectWithoutContext(
        "Leased",
        Callback<void, Ipv4Address, uint16_t>(
            [&](Ipv4Address ip, uint16_t port) { leased.emplace_back(ip, port); }));
    usip->TraceConnectWithoutContext(
        "Released",
        Callback<void, Ipv4Address, uint16_t>(
            [&](Ipv4Address, uint16_t port) { released.push_back(port); }));
    Ptr<AdcHttpClient> c = MakeClient(a, kServer); // A addresses S; P intercepts
    IssueAt(c, 1, "/1");
    IssueAt(c, 1.5, "/2");
    std::vector<std::size_t> registered; // while each server connection is open
    engine->TraceConnectWithoutContext(
        "ServerConnection",
        Callback<void, const std::string&, const std::string&, const std::string&, bool>(
            [&](const std::string&, const std::string&, const std::string&, bool) {
                registered.push_back(routing->GetNOutputSources());
            }));
    Run(4);

    EXPECT_TRUE(AdcExpectAccounting(*c, Expect::Completed(2)));
    EXPECT_EQ(accepted, std::vector<std::string>{"10.2.0.2:80"}); // the original destination
    ASSERT_EQ(serverPeers.size(), 2U);
    ASSERT_EQ(leased.size(), 2U);
    for (std::size_t i = 0; i < 2; ++i)
    {
        EXPECT_EQ(serverPeers[i].GetIpv4(), kClientA);
        EXPECT_TRUE(kUsipRange.Contains(serverPeers[i].GetPort()));
        EXPECT_EQ(leased[i], std::make_pair(kClientA, serverPeers[i].GetPort()));
    }
    EXPECT_EQ(released, (std::vector<uint16_t>{leased[0].second, leased[1].second}));
    EXPECT_EQ(registered, (std::vector<std::size_t>{1, 1})); // its source, while it is open
    EXPECT_EQ(routing->GetNOutputSources(), 0U);
    EXPECT_EQ(usip->GetOpenLeases(), 0U);
    EXPECT_EQ(usip->GetPortAllocator()->GetInUse(), 0U);
}

// REQ: CRD-07
TEST_F(ProxyEngineTest, APooledUsipConnectionServesOnlyItsOwnClient)
{
    Build(true);
    InterceptWithUsip();
    std::vector<std::pair<std::string, std::string>> log; // TCP peer, X-Forwarded-For
    server->TraceConnectWithoutContext(
        "AccessLog",
        Callback<void, const std::string&, const std::string&, const std::string&, Time>(
            [&](const std::string& peer, const std::string& hdr, const std::string&, Time) {
                log.emplace_back(peer, hdr);
            }));
    Ptr<AdcHttpClient> ca = MakeClient(a, kServer);
    Ptr<AdcHttpClient> cb = MakeClient(b, kServer);
    IssueAt(ca, 1, "/a1");
    IssueAt(cb, 1.2, "/b1");
    IssueAt(ca, 1.4, "/a2");
    IssueAt(cb, 1.6, "/b2");
    Run(4);

    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(4)));
    EXPECT_EQ(Opened(), 2U);
    EXPECT_EQ(engine->GetServerConnectionsReused(), 2U);
    ASSERT_EQ(log.size(), 4U);
    for (const auto& [peer, hdr] : log)
    {
        EXPECT_EQ(peer, hdr); // each request reached the server from its own client's address
    }
    EXPECT_EQ(usip->GetOpenLeases(), 2U); // both idle in the pool, their ports held
}

TEST_F(ProxyEngineTest, MalformedRequestsAndPolicyAnswersAreAnsweredLocally)
{
    Build(true);
    RawPeer bad;
    bad.Start(a,
              InetSocketAddress(kProxyForA, 80),
              Seconds(1),
              "BAD REQUEST LINE\r\n\r\n",
              Seconds(1));
    Run(3);
    ASSERT_EQ(bad.Responses().size(), 1U);
    EXPECT_EQ(bad.Responses()[0].GetStatus(), 400);
    EXPECT_EQ(bad.Responses()[0].GetHeader("Server").value_or(""), "P1");
    EXPECT_TRUE(bad.closed);
    ASSERT_EQ(drops.size(), 1U);
    EXPECT_EQ(drops[0].rfind("bad-request: ", 0), 0U) << drops[0];
    EXPECT_EQ(answers, std::vector<std::string>{"400 bad-request"});
    Simulator::Destroy();

    answers.clear();
    clients.clear();
    Build(true);
    policy.answer = 503;
    Ptr<AdcHttpClient> c = MakeClient(a, kProxyForA);
    IssueAt(c, 1, "/x");
    Run(3);
    EXPECT_TRUE(AdcExpectAccounting(*c, Expect::Completed(0).Failed("http-status-503", 1)));
    EXPECT_EQ(answers, std::vector<std::string>{"503 policy"});
    EXPECT_TRUE(conns.empty());
}
