/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcHttpServer and AdcHttpClient: response statuses, response hooks, paths, request
 * accounting, and HTTP/1.1 framing (chunked, close-delimited, interim responses).
 */

#include "adc-http-apps-test.h"

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
