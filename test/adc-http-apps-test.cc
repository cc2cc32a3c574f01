/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcHttpServer, AdcHttpClient and their helpers in small simulated scenarios:
 * requests, connections, failures, timeouts, determinism.
 */

#include "adc-http-apps-test.h"

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
