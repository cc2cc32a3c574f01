/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcHttpServer, AdcHttpClient and their helpers in small simulated scenarios.
 */

#include "adc-test-accounting.h"
#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-request-record.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/point-to-point-module.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using namespace ns3::adctest;

namespace
{

/// A server chooser: odd request ids to one remote, even ones to the other.
struct Alternate
{
    Address odd;
    Address even;

    Address Choose(const std::string& /* url */, uint64_t id)
    {
        return id % 2 == 1 ? odd : even;
    }
};

/// \return the length of "GET <url> HTTP/1.1\r\nHost: www.example.com\r\n\r\n", by hand
uint64_t
PlainRequestBytes(const std::string& url)
{
    return 4 + url.size() + 11 + 23 + 2;
}

/// Shorthand for the expectations below.
using Expect = AdcAccountingExpectation;

class AdcHttpApps : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
    }

    void TearDown() override
    {
        Simulator::Destroy();
        Config::Reset(); // undo SetDefault calls of the test
    }

    /// Install a server on \p node.
    Ptr<AdcHttpServer> Server(Ptr<Node> node,
                              const std::string& name,
                              uint32_t size,
                              Time delay = Seconds(0))
    {
        AdcHttpServerHelper h(80);
        h.SetAttribute("ServerName", StringValue(name));
        h.SetAttribute("ObjectSize", UintegerValue(size));
        h.SetAttribute("ResponseDelay", TimeValue(delay));
        ApplicationContainer a = h.Install(node);
        a.Start(Seconds(0.5));
        return DynamicCast<AdcHttpServer>(a.Get(0));
    }

    /// Install a client on \p node sending \p n requests every \p gap seconds.
    Ptr<AdcHttpClient> Client(Ptr<Node> node, const Address& remote, uint32_t n, double gap)
    {
        AdcHttpClientHelper h(remote);
        h.SetAttribute("MaxRequests", UintegerValue(n));
        std::ostringstream rv;
        rv << "ns3::ConstantRandomVariable[Constant=" << gap << "]";
        h.SetAttribute("InterRequestTime", StringValue(rv.str()));
        ApplicationContainer a = h.Install(node);
        a.Start(Seconds(1));
        return DynamicCast<AdcHttpClient>(a.Get(0));
    }
};

} // namespace

TEST_F(AdcHttpApps, ClientRequestsAreAllServedWithExactByteCounts)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "srv1", 1000);
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 10, 0.1);
    RequestRecords rec;
    rec.Attach(cli);
    cli->SetStopTime(Seconds(4));
    Simulator::Stop(Seconds(5));
    Simulator::Run();

    // "HTTP/1.1 200 OK\r\n" 17 + "Server: srv1\r\n" 14 + "Content-Length: 1000\r\n" 22 + 2
    const uint64_t head = 55;
    EXPECT_EQ(srv->GetRequestsServed(), 10u);
    EXPECT_EQ(cli->GetRequestsSent(), 10u);
    EXPECT_EQ(cli->GetRequestsCompleted(), 10u);
    EXPECT_EQ(cli->GetRequestsFailed(), 0u);
    EXPECT_EQ(cli->GetBytesReceived(), 10 * (1000 + head));
    EXPECT_EQ(srv->GetBytesSent(), 10 * (1000 + head));
    // 10 requests to a server that is up the whole run
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(10)));
    ASSERT_EQ(rec.done.size(), 10u);
    ASSERT_EQ(rec.sent.size(), 10u);
    for (std::size_t i = 0; i < rec.done.size(); ++i)
    {
        const AdcRequestRecord& r = rec.done[i];
        EXPECT_EQ(r.requestId, i + 1);
        EXPECT_EQ(r.clientId, lan.clients.Get(0)->GetId());
        EXPECT_EQ(r.clientIp, AdcIpAddress(Ipv4Address("10.1.1.1")));
        EXPECT_EQ(r.outcome, AdcRequestOutcome::COMPLETED);
        EXPECT_EQ(r.reason, "");
        EXPECT_EQ(r.status, 200);
        EXPECT_EQ(r.server, "srv1");
        EXPECT_EQ(r.path, "");
        EXPECT_EQ(r.responseBytes, 1000 + head);
        EXPECT_EQ(r.requestBytes, PlainRequestBytes(r.url));
        EXPECT_EQ(r.url.rfind("/obj/", 0), 0u);
        // first request one gap after the start at 1 s, then every 0.1 s
        EXPECT_EQ(r.start, MilliSeconds(1100 + 100 * i));
        EXPECT_EQ(rec.sent[i].start, r.start);
        EXPECT_EQ(rec.sent[i].url, r.url);
        // at least one round trip of 2 x 1 ms propagation, well under 100 ms on an idle LAN
        EXPECT_GT(r.GetLatency(), MilliSeconds(2));
        EXPECT_LT(r.GetLatency(), MilliSeconds(100));
    }
}

TEST_F(AdcHttpApps, PersistentClientUsesOneConnectionOneShotUsesOnePerRequest)
{
    for (bool persistent : {true, false})
    {
        Lan lan = MakeLan(1, 1);
        Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 500);
        AdcHttpClientHelper h(InetSocketAddress(lan.ServerIp(0), 80));
        h.SetAttribute("MaxRequests", UintegerValue(5));
        h.SetAttribute("InterRequestTime",
                       StringValue("ns3::ConstantRandomVariable[Constant=0.2]"));
        h.SetAttribute("Persistent", BooleanValue(persistent));
        Ptr<AdcHttpClient> cli = DynamicCast<AdcHttpClient>(h.Install(lan.clients.Get(0)).Get(0));
        cli->SetStartTime(Seconds(1));
        cli->SetStopTime(Seconds(3));
        Simulator::Stop(Seconds(4));
        Simulator::Run();

        EXPECT_EQ(cli->GetRequestsCompleted(), 5u);
        EXPECT_EQ(srv->GetRequestsServed(), 5u);
        EXPECT_EQ(srv->GetConnectionsAccepted(), persistent ? 1u : 5u);
        EXPECT_EQ(cli->GetConnectionsOpened(), persistent ? 1u : 5u);
        // one-shot responses carry "Connection: close\r\n" (19 bytes) after the 54-byte head
        // "HTTP/1.1 200 OK\r\n" 17 + "Server: s\r\n" 11 + "Content-Length: 500\r\n" 21 + 2
        EXPECT_EQ(cli->GetBytesReceived(), 5u * (500 + 51 + (persistent ? 0 : 19)));
        EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(5)));
        Simulator::Destroy();
    }
}

TEST(AdcHttpClientZipf, RankFrequenciesFollowZipf)
{
    Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
    c->SetAttribute("CatalogueSize", UintegerValue(10));
    c->SetAttribute("ZipfExponent", DoubleValue(0.8));
    c->AssignStreams(11);
    const int draws = 20000;
    std::vector<int> count(11, 0);
    for (int i = 0; i < draws; ++i)
    {
        uint32_t k = c->DrawRank();
        ASSERT_GE(k, 1u);
        ASSERT_LE(k, 10u);
        ++count[k];
    }
    // rank 1 vs rank 2: 2^0.8 = 1.741; the ratio's standard deviation here is about 0.04
    const double ratio = static_cast<double>(count[1]) / count[2];
    EXPECT_NEAR(ratio, std::pow(2.0, 0.8), 0.15);
    // every rank within 5 standard deviations of 20000 * k^-0.8 / H(10, 0.8)
    double h = 0;
    for (int k = 1; k <= 10; ++k)
    {
        h += std::pow(k, -0.8);
    }
    for (int k = 1; k <= 10; ++k)
    {
        const double p = std::pow(k, -0.8) / h;
        EXPECT_NEAR(count[k], draws * p, 5 * std::sqrt(draws * p * (1 - p))) << "rank " << k;
    }
}

TEST(AdcHttpClientZipf, ExponentZeroIsUniformAndCatalogueOfOneAlwaysDrawsOne)
{
    Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
    c->SetAttribute("CatalogueSize", UintegerValue(4));
    c->SetAttribute("ZipfExponent", DoubleValue(0.0));
    std::vector<int> count(5, 0);
    for (int i = 0; i < 8000; ++i)
    {
        ++count[c->DrawRank()];
    }
    for (int k = 1; k <= 4; ++k)
    {
        EXPECT_NEAR(count[k], 2000, 5 * std::sqrt(8000 * 0.25 * 0.75));
    }
    c->SetAttribute("CatalogueSize", UintegerValue(1));
    for (int i = 0; i < 100; ++i)
    {
        EXPECT_EQ(c->DrawRank(), 1u);
    }
}

TEST(AdcHttpClientConfig, BadSettingsThrowConfigErrors)
{
    Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
    EXPECT_THROW(c->SetAttribute("CatalogueSize", UintegerValue(0)), AdcConfigError);
    EXPECT_THROW(c->SetAttribute("ZipfExponent", DoubleValue(-0.1)), AdcConfigError);
    EXPECT_THROW(c->SetAttribute("CacheableFraction", DoubleValue(1.5)), AdcConfigError);
    EXPECT_THROW(c->SetAttribute("MaxConnections", UintegerValue(0)), AdcConfigError);
    EXPECT_THROW(c->SetAttribute("RequestTimeout", TimeValue(Seconds(0))), AdcConfigError);
    EXPECT_THROW(c->SetAttribute("Host", StringValue("a\r\nb")), AdcConfigError);
    EXPECT_THROW(c->AddRequestHeader("Bad Name", "x"), AdcConfigError);
    EXPECT_THROW(c->AddRequestHeader("X-Ok", "line\r\nbreak"), AdcConfigError);
    try
    {
        c->SetAttribute("CacheableFraction", DoubleValue(2.0));
        FAIL() << "no exception";
    }
    catch (const AdcConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("CacheableFraction"), std::string::npos) << what;
        EXPECT_NE(what.find("[0, 1]"), std::string::npos) << what;
    }
    EXPECT_NO_THROW(c->AddRequestHeader("X-Forwarded-For", "10.0.0.1"));
}

TEST_F(AdcHttpApps, CacheableFractionControlsQueryStrings)
{
    Lan lan = MakeLan(1, 1);
    Server(lan.servers.Get(0), "s", 100);
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 1000, 0.01);
    cli->SetAttribute("CacheableFraction", DoubleValue(0.3));
    RequestRecords rec;
    rec.Attach(cli);
    cli->SetStopTime(Seconds(13));
    Simulator::Stop(Seconds(14));
    Simulator::Run();

    ASSERT_EQ(rec.sent.size(), 1000u);
    std::size_t withQuery = 0;
    for (const auto& r : rec.sent)
    {
        auto q = r.url.find('?');
        if (q != std::string::npos)
        {
            ++withQuery;
            EXPECT_EQ(r.url.substr(q), "?nocache=" + std::to_string(r.requestId));
        }
    }
    // expected 700; standard deviation sqrt(1000 * 0.3 * 0.7) = 14.5
    EXPECT_NEAR(static_cast<double>(withQuery), 700.0, 50.0);
    // the last of the 1000 requests is issued at 11 s, well before the stop at 13 s
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(1000)));
}

TEST_F(AdcHttpApps, ServerDownEveryRequestFailsWithAReason)
{
    // No server application: the server's TCP answers each SYN with RST|ACK, which ns-3.37's
    // TCP ignores in SYN_SENT; SYN retries (3 s, 6 s, ...) outlast the 1 s request timeout.
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 5, 0.2);
    cli->SetAttribute("RequestTimeout", TimeValue(Seconds(1)));
    RequestRecords rec;
    rec.Attach(cli);
    cli->SetStopTime(Seconds(4));
    Simulator::Stop(Seconds(5));
    Simulator::Run();

    EXPECT_EQ(cli->GetRequestsSent(), 5u);
    EXPECT_EQ(cli->GetRequestsCompleted(), 0u);
    EXPECT_EQ(cli->GetRequestsFailed(), 5u);
    EXPECT_EQ(rec.Failed("timeout"), 5u);
    EXPECT_EQ(cli->GetConnectionsOpened(), 5u);
    // the last request (2 s) times out at 3 s, before the stop at 4 s
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(0).Failed("timeout", 5)));
}

TEST_F(AdcHttpApps, ExhaustedSynRetriesFailTheConnection)
{
    // SYN at 1.1 s, retries after 0.1 s and 0.2 s more (doubling): failed at 1.4 s
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(MilliSeconds(100)));
    Config::SetDefault("ns3::TcpSocket::ConnCount", UintegerValue(2));
    Lan lan = MakeLan(1, 1);
    Ptr<Ipv4> ip = lan.servers.Get(0)->GetObject<Ipv4>();
    Simulator::Schedule(Seconds(0.9), &Ipv4::SetDown, ip, 1);
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 1, 0.1);
    RequestRecords rec;
    rec.Attach(cli);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    ASSERT_EQ(rec.done.size(), 1u);
    EXPECT_EQ(rec.done[0].reason, "connect-failed");
    EXPECT_GT(rec.done[0].end, MilliSeconds(1200));
    EXPECT_LT(rec.done[0].end, MilliSeconds(2100));
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(0).Failed("connect-failed", 1)));
}

TEST_F(AdcHttpApps, ServerLinkDownRequestsTimeOut)
{
    Lan lan = MakeLan(1, 1);
    Server(lan.servers.Get(0), "s", 100);
    Ptr<Ipv4> ip = lan.servers.Get(0)->GetObject<Ipv4>();
    Simulator::Schedule(Seconds(0.9), &Ipv4::SetDown, ip, 1); // SYNs are dropped at the server
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 4, 0.1);
    cli->SetAttribute("RequestTimeout", TimeValue(Seconds(1)));
    RequestRecords rec;
    rec.Attach(cli);
    cli->SetStopTime(Seconds(5));
    Simulator::Stop(Seconds(6));
    Simulator::Run();

    EXPECT_EQ(cli->GetRequestsSent(), 4u);
    EXPECT_EQ(rec.Failed("timeout"), 4u);
    for (const auto& r : rec.done)
    {
        EXPECT_EQ(r.GetLatency(), MilliSeconds(1000));
        EXPECT_EQ(r.status, 0);
    }
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(0).Failed("timeout", 4)));
}

TEST_F(AdcHttpApps, SlowServerTimesOutAndStopEndsTheRest)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "slow", 100, Seconds(2));
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 3, 0.5);
    cli->SetAttribute("RequestTimeout", TimeValue(Seconds(1.2)));
    RequestRecords rec;
    rec.Attach(cli);
    // requests at 1.5, 2.0, 2.5 s; stop at 3.0 s: the first timed out at 2.7 s, the others are
    // still open (they would time out at 3.2 and 3.7 s)
    cli->SetStopTime(Seconds(3.0));
    Simulator::Stop(Seconds(6));
    Simulator::Run();

    ASSERT_EQ(rec.done.size(), 3u);
    EXPECT_EQ(rec.done[0].reason, "timeout");
    EXPECT_EQ(rec.done[0].end, MilliSeconds(2700));
    // Changed on purpose: requests still open at the stop used to fail with reason "stopped";
    // they now end OPEN_AT_STOP, without a reason, counted apart from the failures.
    for (std::size_t i : {1, 2})
    {
        EXPECT_EQ(rec.done[i].outcome, AdcRequestOutcome::OPEN_AT_STOP);
        EXPECT_EQ(rec.done[i].reason, "");
        EXPECT_EQ(rec.done[i].end, Seconds(3.0));
    }
    EXPECT_EQ(cli->GetRequestsOpenAtStop(), 2u);
    EXPECT_EQ(cli->GetRequestsFailed(), 1u);
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(0).Failed("timeout", 1).OpenAtStop(2)));
}

TEST_F(AdcHttpApps, RequestsBeyondMaxConnectionsWaitInFifoOrder)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 100, MilliSeconds(300));
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 5, 0.1);
    cli->SetAttribute("MaxConnections", UintegerValue(1));
    RequestRecords rec;
    rec.Attach(cli);
    cli->SetStopTime(Seconds(4));
    Simulator::Stop(Seconds(5));
    Simulator::Run();

    // issued every 0.1 s but served one at a time, each taking the 0.3 s processing delay
    EXPECT_EQ(rec.sent.size(), 5u);
    ASSERT_EQ(rec.done.size(), 5u);
    for (std::size_t i = 0; i < rec.done.size(); ++i)
    {
        EXPECT_EQ(rec.done[i].requestId, i + 1);
        EXPECT_EQ(rec.done[i].outcome, AdcRequestOutcome::COMPLETED);
        EXPECT_EQ(rec.done[i].start, MilliSeconds(1100 + 100 * i));
        if (i > 0)
        {
            EXPECT_GE(rec.done[i].end - rec.done[i - 1].end, MilliSeconds(300));
        }
    }
    EXPECT_GT(rec.done[4].end, MilliSeconds(1100 + 5 * 300));
    EXPECT_EQ(srv->GetConnectionsAccepted(), 1u);
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(5)));
}

TEST_F(AdcHttpApps, AccessLogCarriesTheClientIpHeader)
{
    Lan lan = MakeLan(2, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 100);
    AccessLog log;
    log.Attach(srv);
    Address remote = InetSocketAddress(lan.ServerIp(0), 80);
    Ptr<AdcHttpClient> withHdr = Client(lan.clients.Get(0), remote, 2, 0.1);
    withHdr->AddRequestHeader("X-Forwarded-For", "192.0.2.7");
    Ptr<AdcHttpClient> plain = Client(lan.clients.Get(1), remote, 1, 0.35);
    RequestRecords rec;
    rec.Attach(withHdr);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    ASSERT_EQ(log.lines.size(), 3u);
    // 1.1 s and 1.2 s from client 0, 1.35 s from client 1
    EXPECT_EQ(log.lines[0].peer, "10.1.1.1"); // the hosts' own links: 10.1.1.0 and 10.1.2.0
    EXPECT_EQ(log.lines[0].headerIp, "192.0.2.7");
    EXPECT_EQ(log.lines[0].url, rec.sent[0].url);
    EXPECT_GT(log.lines[0].when, Seconds(1.1));
    EXPECT_LT(log.lines[0].when, Seconds(1.2));
    EXPECT_EQ(log.lines[1].headerIp, "192.0.2.7");
    EXPECT_EQ(log.lines[2].peer, "10.1.2.1");
    EXPECT_EQ(log.lines[2].headerIp, "");
    // the extra header is counted in the request bytes: "X-Forwarded-For: 192.0.2.7\r\n" = 28
    EXPECT_EQ(rec.done[0].requestBytes, PlainRequestBytes(rec.done[0].url) + 28);
    EXPECT_TRUE(log.drops.empty());
    EXPECT_TRUE(AdcExpectAccounting(*withHdr, Expect::Completed(2)));
    EXPECT_TRUE(AdcExpectAccounting(*plain, Expect::Completed(1)));
}

TEST_F(AdcHttpApps, MalformedRequestGets400AndDropTrace)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 100);
    AccessLog log;
    log.Attach(srv);
    RawPeer peer;
    peer.toSend = "GET /x HTTP/1.1\r\nBad Header\r\n\r\n";
    peer.ConnectAt(Seconds(1), lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(peer.rx,
              "HTTP/1.1 400 Bad Request\r\nServer: s\r\nContent-Length: 0\r\nConnection: "
              "close\r\n\r\n");
    EXPECT_TRUE(peer.closed);
    ASSERT_EQ(log.drops.size(), 1u);
    EXPECT_FALSE(log.drops[0].empty());
    EXPECT_TRUE(log.lines.empty());
    EXPECT_EQ(srv->GetRequestsDropped(), 1u);
    EXPECT_EQ(srv->GetRequestsServed(), 0u);
    EXPECT_EQ(srv->GetOpenConnections(), 0u);
}

TEST_F(AdcHttpApps, ServerAnswersPipelinedRequestsInOrder)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 100);
    srv->SetObjectSizeCallback(
        MakeCallback(+[](const std::string& url) -> uint32_t { return url == "/a" ? 10 : 20; }));
    RawPeer peer;
    peer.toSend = "GET /a HTTP/1.1\r\nHost: x\r\n\r\nHEAD /b HTTP/1.1\r\n\r\n"
                  "GET /b HTTP/1.1\r\nConnection: close\r\n\r\n";
    peer.ConnectAt(Seconds(1), lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    const std::string expected = "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 10\r\n\r\n" +
                                 std::string(10, '\0') +
                                 "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 20\r\n\r\n" +
                                 "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 20\r\n"
                                 "Connection: close\r\n\r\n" +
                                 std::string(20, '\0');
    EXPECT_EQ(peer.rx, expected);
    EXPECT_TRUE(peer.closed);
    EXPECT_EQ(srv->GetRequestsServed(), 3u);
}

TEST_F(AdcHttpApps, LargeBodiesFlowThroughTheSendBuffer)
{
    Lan lan = MakeLan(1, 1);
    // 1 MB is larger than TCP's 128 KiB send buffer: the server must wait for buffer space
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "big", 1000000);
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 2, 0.1);
    RequestRecords rec;
    rec.Attach(cli);
    Simulator::Stop(Seconds(5));
    Simulator::Run();

    // "HTTP/1.1 200 OK\r\n" 17 + "Server: big\r\n" 13 + "Content-Length: 1000000\r\n" 25 + 2
    ASSERT_EQ(rec.done.size(), 2u);
    for (const auto& r : rec.done)
    {
        EXPECT_EQ(r.outcome, AdcRequestOutcome::COMPLETED);
        EXPECT_EQ(r.responseBytes, 1000000u + 57u);
        // 8 Mbit at 100 Mbit/s is at least 80 ms
        EXPECT_GT(r.GetLatency(), MilliSeconds(80));
    }
    EXPECT_EQ(srv->GetBytesSent(), 2u * 1000057u);
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(2)));
}

TEST_F(AdcHttpApps, ServerChooserPicksTheRemotePerConnection)
{
    Lan lan = MakeLan(1, 2);
    Ptr<AdcHttpServer> a = Server(lan.servers.Get(0), "A", 100);
    Ptr<AdcHttpServer> b = Server(lan.servers.Get(1), "B", 200);
    Ptr<AdcHttpClient> cli = Client(lan.clients.Get(0), Address(), 6, 0.1);
    cli->SetAttribute("Persistent", BooleanValue(false));
    Address ra = InetSocketAddress(lan.ServerIp(0), 80);
    Address rb = InetSocketAddress(lan.ServerIp(1), 80);
    Alternate alt{ra, rb};
    cli->SetServerChooser(MakeCallback(&Alternate::Choose, &alt));
    RequestRecords rec;
    rec.Attach(cli);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(a->GetRequestsServed(), 3u);
    EXPECT_EQ(b->GetRequestsServed(), 3u);
    ASSERT_EQ(rec.done.size(), 6u);
    for (const auto& r : rec.done)
    {
        EXPECT_EQ(r.server, r.requestId % 2 == 1 ? "A" : "B");
    }
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(6)));
}

TEST_F(AdcHttpApps, WorksOverIpv6)
{
    Lan lan = MakeLan(1, 1, true);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "v6", 300);
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), Inet6SocketAddress(lan.ifs6.GetAddress(1, 1), 80), 3, 0.1);
    cli->SetStartTime(Seconds(2)); // after duplicate address detection
    RequestRecords rec;
    rec.Attach(cli);
    Simulator::Stop(Seconds(4));
    Simulator::Run();

    EXPECT_EQ(cli->GetRequestsCompleted(), 3u);
    ASSERT_EQ(rec.done.size(), 3u);
    EXPECT_TRUE(rec.done[0].clientIp.IsV6());
    EXPECT_EQ(rec.done[0].clientIp, AdcIpAddress(lan.ifs6.GetAddress(0, 1)));
    EXPECT_EQ(rec.done[0].server, "v6");
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(3)));
}

namespace
{

/// Run a two-client scenario with exponential arrivals; return its RequestDone records.
std::vector<std::string>
RunScenario(uint32_t run)
{
    RngSeedManager::SetSeed(7);
    RngSeedManager::SetRun(run);
    Lan lan = MakeLan(2, 1);
    AdcHttpServerHelper sh(80);
    sh.SetAttribute("ObjectSize", UintegerValue(20000));
    sh.Install(lan.servers).Start(Seconds(0.5));
    AdcHttpClientHelper ch(InetSocketAddress(lan.ServerIp(0), 80));
    ch.SetAttribute("InterRequestTime", StringValue("ns3::ExponentialRandomVariable[Mean=0.05]"));
    ch.SetAttribute("CacheableFraction", DoubleValue(0.5));
    ch.SetAttribute("MaxConnections", UintegerValue(2));
    // No request is issued in the last 0.1 s, so none is open when the clients stop at 3 s.
    ch.SetAttribute("RequestStopTime", TimeValue(Seconds(2.9)));
    ApplicationContainer apps = ch.Install(lan.clients);
    ch.AssignStreams(lan.clients, 100);
    apps.Start(Seconds(1));
    apps.Stop(Seconds(3));
    std::vector<std::string> out;
    RequestRecords rec;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        rec.Attach(apps.Get(i));
    }
    Simulator::Stop(Seconds(4));
    Simulator::Run();
    // about 2 x 1.9 s / 0.05 s = 76 requests to a server that is up: every one completes
    EXPECT_TRUE(AdcExpectAccounting(apps, Expect::CompletedAtLeast(41)));
    for (const auto& r : rec.done)
    {
        std::ostringstream os;
        os << r.clientId << " " << r.clientIp << " " << r.requestId << " " << r.url << " "
           << r.server << " " << r.start.GetTimeStep() << " " << r.end.GetTimeStep() << " "
           << r.requestBytes << " " << r.responseBytes << " " << r.status << " "
           << AdcRequestOutcomeToString(r.outcome) << " " << r.reason;
        out.push_back(os.str());
    }
    Simulator::Destroy();
    return out;
}

} // namespace

TEST_F(AdcHttpApps, SameSeedAndRunGiveIdenticalRecords)
{
    std::vector<std::string> a = RunScenario(3);
    std::vector<std::string> b = RunScenario(3);
    std::vector<std::string> c = RunScenario(4);
    ASSERT_GT(a.size(), 40u); // about 2 x 1.9 s / 0.05 s = 76 requests
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

namespace
{

/// A response hook answering the n-th request with statuses[n] and an empty body (200: the
/// object as usual).
struct StatusScript
{
    std::vector<uint16_t> statuses;
    std::size_t next{0};

    void Choose(const AdcHttpMessage& /* request */,
                const std::string& /* headerIp */,
                AdcHttpMessage& response,
                uint32_t& size)
    {
        const uint16_t st = next < statuses.size() ? statuses[next] : 200;
        ++next;
        if (st != 200)
        {
            response = AdcHttpMessage::MakeResponse(st, "Scripted");
            size = 0;
        }
    }
};

/// A response hook acting as if the response had passed three proxies, the middle one a cache.
void
ViaChain(const AdcHttpMessage&, const std::string&, AdcHttpMessage& response, uint32_t&)
{
    response.AddHeader("Via", "1.1 L2NS3");
    response.AddHeader("Via", " 1.1 CRS1,  1.1 L2NS2 ");
    response.AddHeader("X-Cache", "MISS");
}

/// Collects the server's Response trace.
struct ResponseLog
{
    std::vector<std::tuple<std::string, std::string, uint16_t, uint32_t>> lines;

    void On(const std::string& ip, const std::string& url, uint16_t status, uint32_t size)
    {
        lines.emplace_back(ip, url, status, size);
    }
};

} // namespace

TEST_F(AdcHttpApps, ErrorStatusesFailTheRequestWithTheStatusAsReason)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 100);
    StatusScript script{{404, 503, 301, 200}};
    srv->SetResponseCallback(MakeCallback(&StatusScript::Choose, &script));
    ResponseLog resp;
    srv->TraceConnectWithoutContext("Response", MakeCallback(&ResponseLog::On, &resp));
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 4, 0.1);
    RequestRecords rec;
    rec.Attach(cli);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    ASSERT_EQ(rec.done.size(), 4u);
    EXPECT_EQ(rec.done[0].outcome, AdcRequestOutcome::FAILED);
    EXPECT_EQ(rec.done[0].reason, "http-status-404");
    EXPECT_EQ(rec.done[0].status, 404);
    EXPECT_EQ(rec.done[1].reason, "http-status-503");
    EXPECT_EQ(rec.done[1].status, 503);
    // a 3xx ends the request COMPLETED, like a 2xx
    EXPECT_EQ(rec.done[2].outcome, AdcRequestOutcome::COMPLETED);
    EXPECT_EQ(rec.done[2].reason, "");
    EXPECT_EQ(rec.done[2].status, 301);
    EXPECT_EQ(rec.done[3].outcome, AdcRequestOutcome::COMPLETED);
    // the script replaced the whole head, Server included:
    // "HTTP/1.1 404 Scripted\r\n" 23 + "Content-Length: 0\r\n" 19 + 2
    EXPECT_EQ(rec.done[0].responseBytes, 44u);
    // "HTTP/1.1 200 OK\r\n" 17 + 11 + "Content-Length: 100\r\n" 21 + 2, and the body
    EXPECT_EQ(rec.done[3].responseBytes, 51u + 100u);
    EXPECT_EQ(cli->GetRequestsFailed(), 2u);
    EXPECT_EQ(cli->GetRequestsCompleted(), 2u);
    // error statuses do not close a persistent connection; every answer counts as served
    EXPECT_EQ(cli->GetConnectionsOpened(), 1u);
    EXPECT_EQ(srv->GetRequestsServed(), 4u);
    ASSERT_EQ(resp.lines.size(), 4u);
    const std::vector<uint16_t> statuses = {404, 503, 301, 200};
    const std::vector<uint32_t> sizes = {0, 0, 0, 100};
    for (std::size_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(std::get<0>(resp.lines[i]), "");
        EXPECT_EQ(std::get<1>(resp.lines[i]), rec.done[i].url);
        EXPECT_EQ(std::get<2>(resp.lines[i]), statuses[i]);
        EXPECT_EQ(std::get<3>(resp.lines[i]), sizes[i]);
    }
    // the script's two error statuses fail, the 301 and the 200 complete
    EXPECT_TRUE(AdcExpectAccounting(
        *cli,
        Expect::Completed(2).Failed("http-status-404", 1).Failed("http-status-503", 1)));
}

// REQ: CRD-12
TEST_F(AdcHttpApps, VaryByClientIpAnswersForTheHeaderClientOrThePeer)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 10);
    srv->SetAttribute("VaryByClientIp", BooleanValue(true));
    ResponseLog resp;
    srv->TraceConnectWithoutContext("Response", MakeCallback(&ResponseLog::On, &resp));
    RawPeer peer;
    peer.toSend = "GET /a HTTP/1.1\r\nX-Forwarded-For: 10.1.0.5\r\n\r\n"
                  "GET /b HTTP/1.1\r\nConnection: close\r\n\r\n";
    peer.ConnectAt(Seconds(1), lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    // the first for the client named by the header, the second (no header) for the TCP peer
    const std::string expected = "HTTP/1.1 200 OK\r\nServer: s\r\nX-Client-IP: 10.1.0.5\r\n"
                                 "Vary: X-Forwarded-For\r\nContent-Length: 10\r\n\r\n" +
                                 std::string(10, '\0') +
                                 "HTTP/1.1 200 OK\r\nServer: s\r\nX-Client-IP: 10.1.1.1\r\n"
                                 "Vary: X-Forwarded-For\r\nContent-Length: 10\r\n"
                                 "Connection: close\r\n\r\n" +
                                 std::string(10, '\0');
    EXPECT_EQ(peer.rx, expected);
    using R = std::tuple<std::string, std::string, uint16_t, uint32_t>;
    EXPECT_EQ(resp.lines, (std::vector<R>{{"10.1.0.5", "/a", 200, 10}, {"", "/b", 200, 10}}));
}

TEST_F(AdcHttpApps, ResponseCallbackOverridesVaryAndCanChangeTheSize)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 10);
    srv->SetAttribute("VaryByClientIp", BooleanValue(true));
    srv->SetResponseCallback(MakeCallback(
        +[](const AdcHttpMessage& req, const std::string& ip, AdcHttpMessage& resp, uint32_t& n) {
            resp.SetHeader("X-Seen", ip + " " + req.GetTarget());
            n = 3;
        }));
    RawPeer peer;
    peer.toSend = "GET /a HTTP/1.1\r\nX-Forwarded-For: 192.0.2.1\r\nConnection: close\r\n\r\n";
    peer.ConnectAt(Seconds(1), lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(peer.rx,
              "HTTP/1.1 200 OK\r\nServer: s\r\nX-Seen: 192.0.2.1 /a\r\nContent-Length: 3\r\n"
              "Connection: close\r\n\r\n" +
                  std::string(3, '\0'));
}

TEST_F(AdcHttpApps, RecordPathComesFromViaAndXCache)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 100);
    srv->SetResponseCallback(MakeCallback(&ViaChain));
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 1, 0.1);
    RequestRecords rec;
    rec.Attach(cli);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    ASSERT_EQ(rec.done.size(), 1u);
    EXPECT_EQ(rec.done[0].path, "1.1 L2NS3, 1.1 CRS1, 1.1 L2NS2; X-Cache: MISS");
    EXPECT_EQ(rec.done[0].outcome, AdcRequestOutcome::COMPLETED);
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(1)));
}

TEST(AdcHttpClientPath, FormatOfResponsePath)
{
    AdcHttpMessage m = AdcHttpMessage::MakeResponse(200, "OK");
    EXPECT_EQ(AdcHttpClient::ResponsePath(m), "");
    m.SetHeader("X-Cache", "HIT");
    EXPECT_EQ(AdcHttpClient::ResponsePath(m), "X-Cache: HIT");
    m.AddHeader("X-Cache", "MISS");
    EXPECT_EQ(AdcHttpClient::ResponsePath(m), "X-Cache: HIT, MISS");
    AdcHttpMessage v = AdcHttpMessage::MakeResponse(200, "OK");
    v.AddHeader("Via", "1.1 a");
    v.AddHeader("Via", "");
    v.AddHeader("Via", "1.0 b, 1.1 c");
    EXPECT_EQ(AdcHttpClient::ResponsePath(v), "1.1 a, 1.0 b, 1.1 c");
    v.AddHeader("x-cache", "MISS");
    EXPECT_EQ(AdcHttpClient::ResponsePath(v), "1.1 a, 1.0 b, 1.1 c; X-Cache: MISS");
}

// REQ: CORE-02
TEST_F(AdcHttpApps, StalledPathFailsTheAccountingCheck)
{
    // A server that accepts connections and reads the requests but never answers (a TCP
    // packet sink on port 80), and a request timeout longer than the run: nothing on the path
    // ever fails the requests, so only the client's stop ends them.
    Lan lan = MakeLan(1, 1);
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 80));
    sink.Install(lan.servers.Get(0)).Start(Seconds(0.5));
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 3, 0.2);
    cli->SetAttribute("RequestTimeout", TimeValue(Seconds(100)));
    RequestRecords rec;
    rec.Attach(cli);
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->Watch(cli);
    cli->SetStopTime(Seconds(4));
    Simulator::Stop(Seconds(5));
    Simulator::Run();

    // Every request ended exactly once, so the balance alone would call this run fine...
    EXPECT_TRUE(log->CheckAccounting()) << log->Summary();
    // ...but the scenario expects its 3 requests to complete, and the check says why not.
    const Expect working = Expect::Completed(3);
    EXPECT_EQ(log->CheckExpectation(working),
              "completed 0 < expected 3; open at stop 3 > expected 0");
    EXPECT_FALSE(AdcExpectAccounting(*log, working));
    EXPECT_FALSE(AdcExpectAccounting(*cli, working));
    // The counts are exactly the stall's: nothing completed or failed, everything open.
    EXPECT_TRUE(AdcExpectAccounting(*log, Expect::Completed(0).OpenAtStop(3)));
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(0).OpenAtStop(3)));
    // The path really stalled after the server: it received every request in full.
    uint64_t requestBytes = 0;
    for (const auto& r : rec.done)
    {
        requestBytes += r.requestBytes;
    }
    EXPECT_EQ(DynamicCast<PacketSink>(lan.servers.Get(0)->GetApplication(0))->GetTotalRx(),
              requestBytes);
    EXPECT_EQ(rec.done.size(), 3u);
}

// REQ: CORE-02
TEST_F(AdcHttpApps, RequestsOfAClientNeverStoppedFailTheCheckAsNeverEnded)
{
    // The server's link is down, so every SYN is lost; the request timeout outlasts the run
    // and the client has no stop time: the run ends with its requests neither answered,
    // failed nor ended by a stop.
    Lan lan = MakeLan(1, 1);
    Server(lan.servers.Get(0), "s", 100);
    Simulator::Schedule(Seconds(0.9), &Ipv4::SetDown, lan.servers.Get(0)->GetObject<Ipv4>(), 1);
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 2, 0.1);
    cli->SetAttribute("RequestTimeout", TimeValue(Seconds(100)));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(cli->GetOpenRequests(), 2u);
    // Not even "nothing completes" is met: requests that never ended are lost, whatever the
    // expectation.
    EXPECT_EQ(AdcAccountingMismatch(cli->GetTally(), Expect::Completed(0)),
              "sent 2 but 0 ended (2 still open, never ended)");
    EXPECT_FALSE(AdcExpectAccounting(*cli, Expect::Completed(0).OpenAtStop(2)));
}

// REQ: CORE-02
TEST_F(AdcHttpApps, OpenAtStopIsCountedApartTracedAndLogged)
{
    // Three requests at 1.1, 1.2 and 1.3 s on one connection: the first waits for a server
    // that answers 5 s late, the other two wait in the queue; the client stops at 2 s.
    Lan lan = MakeLan(1, 1);
    Server(lan.servers.Get(0), "late", 100, Seconds(5));
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 3, 0.1);
    cli->SetAttribute("MaxConnections", UintegerValue(1));
    RequestRecords rec;
    rec.Attach(cli);
    const std::string csv = ::testing::TempDir() + "adc-http-apps-open-at-stop.csv";
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->SetAttribute("FileName", StringValue(csv));
    log->Watch(cli);
    cli->SetStopTime(Seconds(2));
    Simulator::Stop(Seconds(8));
    Simulator::Run();
    log->Close();

    // The trace: one record each, OPEN_AT_STOP at the stop, no reason, no response.
    ASSERT_EQ(rec.done.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
    {
        const AdcRequestRecord& r = rec.done[i];
        EXPECT_EQ(r.requestId, i + 1);
        EXPECT_EQ(r.outcome, AdcRequestOutcome::OPEN_AT_STOP);
        EXPECT_EQ(r.reason, "");
        EXPECT_EQ(r.status, 0);
        EXPECT_EQ(r.responseBytes, 0u);
        EXPECT_EQ(r.start, MilliSeconds(1100 + 100 * i));
        EXPECT_EQ(r.end, Seconds(2));
    }
    EXPECT_EQ(rec.done[0].server, "10.1.1.2"); // on the wire
    EXPECT_EQ(rec.done[1].server, "");         // still queued
    // The client's counters: apart from the failures.
    EXPECT_EQ(cli->GetRequestsSent(), 3u);
    EXPECT_EQ(cli->GetRequestsOpenAtStop(), 3u);
    EXPECT_EQ(cli->GetRequestsFailed(), 0u);
    EXPECT_EQ(cli->GetRequestsCompleted(), 0u);
    EXPECT_TRUE(cli->GetFailureReasons().empty());
    EXPECT_EQ(cli->GetOpenRequests(), 0u);
    EXPECT_EQ(cli->GetTally().openAtStop, 3u);
    EXPECT_TRUE(cli->GetTally().IsBalanced());
    // The log's: the same, in its summary and in the CSV outcome column.
    EXPECT_EQ(log->GetOpenAtStop(), 3u);
    EXPECT_EQ(log->GetFailed(), 0u);
    EXPECT_EQ(log->Summary(), "sent=3 completed=0 failed=0 open-at-stop=3");
    std::ifstream in(csv);
    std::string line;
    std::vector<std::string> rows;
    while (std::getline(in, line))
    {
        rows.push_back(line);
    }
    ASSERT_EQ(rows.size(), 4u); // header and three requests
    for (std::size_t i = 1; i < rows.size(); ++i)
    {
        const std::string tail = ",OPEN_AT_STOP,";
        EXPECT_EQ(rows[i].substr(rows[i].size() - tail.size()), tail) << rows[i];
    }
}

// ---- message framing (RFC 9112 section 6) ------------------------------------------------

namespace
{

/// Collects a client's "Response" trace and a server's "Framing" trace.
struct FramingLog
{
    std::vector<AdcHttpStreamParser::Message> responses;
    std::vector<std::tuple<std::string, AdcHttpStreamParser::Framing, uint64_t, uint64_t>> chosen;

    void OnResponse(uint64_t /* requestId */, const AdcHttpStreamParser::Message& m)
    {
        responses.push_back(m);
    }

    void OnFraming(const std::string& url,
                   AdcHttpStreamParser::Framing f,
                   uint64_t body,
                   uint64_t wire)
    {
        chosen.emplace_back(url, f, body, wire);
    }
};

/// A client against a RawServer: the LAN, the client's records and Response trace.
class AdcHttpAppsRawServer : public AdcHttpApps
{
  protected:
    /// Run \p n requests, 0.2 s apart from 1.2 s, against \p raw until the client stops at 3 s.
    Ptr<AdcHttpClient> RunClient(RawServer& raw, uint32_t n)
    {
        m_lan = MakeLan(1, 1); // after SetUp seeded the run
        raw.Listen(m_lan.servers.Get(0));
        Ptr<AdcHttpClient> cli =
            Client(m_lan.clients.Get(0), InetSocketAddress(m_lan.ServerIp(0), 80), n, 0.2);
        m_rec.Attach(cli);
        cli->TraceConnectWithoutContext("Response", MakeCallback(&FramingLog::OnResponse, &m_log));
        cli->SetStopTime(Seconds(3));
        Simulator::Stop(Seconds(4));
        Simulator::Run();
        return cli;
    }

    Lan m_lan;            //!< one client, one server node
    RequestRecords m_rec; //!< the client's records
    FramingLog m_log;     //!< the client's Response trace
};

} // namespace

// REQ: CRD-02 (objects reach the clients whatever framing the origin uses)
TEST_F(AdcHttpApps, ChunkedServerAndClientCompleteEveryRequestWithExactByteCounts)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "srv1", 10000);
    srv->SetAttribute("TransferCoding", StringValue("CHUNKED"));
    srv->SetAttribute("ChunkSize", UintegerValue(4096));
    Ptr<AdcHttpClient> cli =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 8, 0.1);
    cli->SetStopTime(Seconds(4));
    RequestRecords rec;
    rec.Attach(cli);
    FramingLog log;
    cli->TraceConnectWithoutContext("Response", MakeCallback(&FramingLog::OnResponse, &log));
    srv->TraceConnectWithoutContext("Framing", MakeCallback(&FramingLog::OnFraming, &log));
    Simulator::Stop(Seconds(5));
    Simulator::Run();

    // "HTTP/1.1 200 OK\r\n" 17 + "Server: srv1\r\n" 14 + "Transfer-Encoding: chunked\r\n" 28 + 2
    const uint64_t head = 61;
    // 10000 = 2 x 4096 + 1808 (0x710): "1000\r\n" 6 + 4096 + 2, twice; "710\r\n" 5 + 1808 + 2;
    // the last chunk "0\r\n\r\n" 5
    const uint64_t wire = 2 * (6 + 4096 + 2) + (5 + 1808 + 2) + 5;
    // 8 requests to a server that is up the whole run: all complete
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(8)));
    ASSERT_EQ(log.responses.size(), 8u);
    ASSERT_EQ(log.chosen.size(), 8u);
    for (std::size_t i = 0; i < 8; ++i)
    {
        const AdcHttpStreamParser::Message& m = log.responses[i];
        EXPECT_EQ(m.framing, AdcHttpStreamParser::Framing::CHUNKED);
        EXPECT_EQ(m.bodyBytes, 10000u);
        EXPECT_EQ(m.bodyWireBytes, wire);
        EXPECT_EQ(m.chunks, 3u);
        EXPECT_EQ(m.headBytes, head);
        EXPECT_EQ(m.answers, "GET");
        EXPECT_EQ(rec.done[i].responseBytes, head + wire);
        EXPECT_EQ(std::get<1>(log.chosen[i]), AdcHttpStreamParser::Framing::CHUNKED);
        EXPECT_EQ(std::get<2>(log.chosen[i]), 10000u);
        EXPECT_EQ(std::get<3>(log.chosen[i]), wire);
    }
    EXPECT_EQ(cli->GetConnectionsOpened(), 1u); // chunked responses keep the connection
    EXPECT_EQ(srv->GetBytesSent(), 8 * (head + wire));
    EXPECT_EQ(cli->GetBytesReceived(), 8 * (head + wire));
}

// RFC 9112 6.1: "A server MUST NOT send a response containing Transfer-Encoding unless the
// corresponding request indicates HTTP/1.1"; 6.3 item 1: no body after HEAD.
TEST_F(AdcHttpApps, ChunkedServerSendsExactChunksHeadWithoutBodyAndContentLengthToHttp10)
{
    Lan lan = MakeLan(1, 1);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 5);
    srv->SetAttribute("TransferCoding", StringValue("CHUNKED"));
    srv->SetAttribute("ChunkSize", UintegerValue(2));
    FramingLog log;
    srv->TraceConnectWithoutContext("Framing", MakeCallback(&FramingLog::OnFraming, &log));
    RawPeer peer;
    peer.toSend = "GET /c HTTP/1.1\r\n\r\nHEAD /a HTTP/1.1\r\n\r\nGET /b HTTP/1.0\r\n\r\n";
    peer.ConnectAt(Seconds(1), lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    const std::string zero2(2, '\0');
    const std::string expected =
        "HTTP/1.1 200 OK\r\nServer: s\r\nTransfer-Encoding: chunked\r\n\r\n"
        "2\r\n" +
        zero2 + "\r\n2\r\n" + zero2 + "\r\n1\r\n" + std::string(1, '\0') + "\r\n0\r\n\r\n" +
        "HTTP/1.1 200 OK\r\nServer: s\r\nTransfer-Encoding: chunked\r\n\r\n" +
        "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 5\r\nConnection: close\r\n\r\n" +
        std::string(5, '\0');
    EXPECT_EQ(peer.rx, expected);
    EXPECT_TRUE(peer.closed);
    using F = AdcHttpStreamParser::Framing;
    using Row = std::tuple<std::string, F, uint64_t, uint64_t>;
    EXPECT_EQ(log.chosen,
              (std::vector<Row>{{"/c", F::CHUNKED, 5, 7 + 7 + 6 + 5},
                                {"/a", F::NONE, 0, 0},
                                {"/b", F::CONTENT_LENGTH, 5, 5}}));
}

// RFC 9112 6.3 item 4 (chunked request bodies are read) and item 3 (Transfer-Encoding with
// Content-Length "ought to be handled as an error": 400, and the Drop trace says why).
TEST_F(AdcHttpApps, ServerReadsChunkedRequestBodiesAndRejectsSmuggling)
{
    Lan lan = MakeLan(1, 2);
    Ptr<AdcHttpServer> srv = Server(lan.servers.Get(0), "s", 1);
    Ptr<AdcHttpServer> strict = Server(lan.servers.Get(1), "t", 1);
    AccessLog log;
    log.Attach(srv);
    AccessLog rejected;
    rejected.Attach(strict);
    RawPeer peer;
    peer.toSend = "POST /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\n"
                  "T: 1\r\n\r\nGET /x HTTP/1.1\r\nConnection: close\r\n\r\n";
    RawPeer smuggler;
    smuggler.toSend = "POST /s HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n"
                      "0\r\n\r\nGET /hidden HTTP/1.1\r\n\r\n";
    peer.ConnectAt(Seconds(1), lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80));
    smuggler.ConnectAt(Seconds(1), lan.clients.Get(0), InetSocketAddress(lan.ServerIp(1), 80));
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    ASSERT_EQ(log.lines.size(), 2u); // both requests, the chunked body skipped exactly
    EXPECT_EQ(log.lines[0].url, "/up");
    EXPECT_EQ(log.lines[1].url, "/x");
    EXPECT_TRUE(log.drops.empty());
    EXPECT_EQ(srv->GetRequestsServed(), 2u);
    EXPECT_TRUE(rejected.lines.empty()); // neither /s nor /hidden was served
    ASSERT_EQ(rejected.drops.size(), 1u);
    EXPECT_NE(rejected.drops[0].find("smuggling"), std::string::npos) << rejected.drops[0];
    EXPECT_EQ(smuggler.rx.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u);
}

// RFC 9112 6.3 item 8 (a response without length ends with the server's close) and RFC 9110
// 15.2 ("A client MUST be able to parse one or more 1xx responses received prior to a final
// response"): the client completes such requests.
TEST_F(AdcHttpAppsRawServer, ClientCompletesCloseDelimitedResponsesAfterInterimOnes)
{
    RawServer raw;
    raw.answers = {"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nServer: raw\r\n\r\n" +
                   std::string(700, 'b')};
    raw.closeAfterAnswer = true;
    Ptr<AdcHttpClient> cli = RunClient(raw, 3);
    const FramingLog& log = m_log;
    const RequestRecords& rec = m_rec;

    // three requests, each answered and closed by a server that is up: all complete
    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(3)));
    ASSERT_EQ(log.responses.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(log.responses[i].framing, AdcHttpStreamParser::Framing::CLOSE_DELIMITED);
        EXPECT_EQ(log.responses[i].bodyBytes, 700u);
        EXPECT_EQ(log.responses[i].head.GetStatus(), 200);
        // "HTTP/1.1 100 Continue\r\n\r\n" 25, "HTTP/1.1 200 OK\r\nServer: raw\r\n\r\n" 32, body
        EXPECT_EQ(rec.done[i].responseBytes, 25u + 32u + 700u);
        EXPECT_EQ(rec.done[i].server, "raw");
    }
    EXPECT_EQ(cli->GetConnectionsOpened(), 3u);
}

// A chunked response with a trailer section keeps the connection: RFC 9112 9.3, "In order to
// remain persistent, all messages on a connection need to have a self-defined message length".
TEST_F(AdcHttpAppsRawServer, ClientReusesTheConnectionAfterChunkedResponsesWithTrailers)
{
    RawServer raw;
    raw.answers = {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                   "4\r\nabcd\r\n0\r\nChecksum: 1\r\n\r\n"};
    Ptr<AdcHttpClient> cli = RunClient(raw, 2);
    const FramingLog& log = m_log;

    EXPECT_TRUE(AdcExpectAccounting(*cli, Expect::Completed(2)));
    EXPECT_EQ(cli->GetConnectionsOpened(), 1u);
    ASSERT_EQ(log.responses.size(), 2u);
    EXPECT_EQ(log.responses[1].bodyBytes, 4u);
    ASSERT_EQ(log.responses[1].trailers.size(), 1u);
    EXPECT_EQ(log.responses[1].trailers[0].first, "Checksum");
}

TEST(AdcHttpServerConfig, ChunkSizeZeroIsAConfigError)
{
    Ptr<AdcHttpServer> s = CreateObject<AdcHttpServer>();
    EXPECT_THROW(s->SetAttribute("ChunkSize", UintegerValue(0)), AdcConfigError);
    EXPECT_NO_THROW(s->SetAttribute("ChunkSize", UintegerValue(1)));
}
