/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario tests of the DNS applications (model/apps/adc-dns-server.h, adc-dns-resolver.h):
 * a client node and a server node on one point-to-point link, IPv4 and IPv6. Answers (A,
 * AAAA), NXDOMAIN, NODATA, FORMERR to malformed queries sent from a raw UDP socket, UDP
 * truncation then the TCP retry, timeouts and retries against a stopped server, responses
 * matched by ID, question and source, and a pcap of the exchange that tshark decodes as DNS.
 * Expected values come from RFC 1035's layouts and the resolver's documented defaults.
 */

// REQ: SLB-08 (step 1: the client's DNS server returns the VIP)
// REQ: GSLB-02 (the authoritative DNS answers with the address; the response in a pcap)

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-dns-resolver.h"
#include "ns3/adc-dns-server.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

const std::string kName = "www.contoso.com";
const Ipv4Address kVip4("107.105.47.60"); // the seed's VIP
const Ipv6Address kVip6("2001:db8:ffff::60");
constexpr uint32_t kTtl = 300;

/// Two nodes, client and server, on one 100 Mbit/s, 1 ms point-to-point link, dual stack.
struct Pair
{
    NodeContainer nodes;    //!< client 0, server 1
    PointToPointHelper p2p; //!< the link's helper (for pcaps)
    Ipv4Address client4;    //!< 10.1.1.1
    Ipv4Address server4;    //!< 10.1.1.2
    Ipv6Address server6;    //!< the server's global IPv6 address
    int64_t nextStream{1};  //!< next resolver's random stream

    Pair()
    {
        nodes.Create(2);
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer devs = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper ip;
        ip.SetBase("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ip.Assign(devs);
        client4 = ifs.GetAddress(0);
        server4 = ifs.GetAddress(1);
        Ipv6AddressHelper ip6;
        ip6.SetBase(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer ifs6 = ip6.Assign(devs);
        server6 = ifs6.GetAddress(1, 1);
    }

    /// \return an ADNS on the server node with the seed's records
    Ptr<AdcDnsServer> Server() const
    {
        auto s = CreateObject<AdcDnsServer>();
        s->AddRecord(AdcDnsResourceRecord::A(kName, kVip4, kTtl));
        s->AddRecord(AdcDnsResourceRecord::Aaaa(kName, kVip6, kTtl));
        s->AddRecord(AdcDnsResourceRecord::A("v4only.contoso.com", kVip4, kTtl));
        nodes.Get(1)->AddApplication(s);
        return s;
    }

    /// \param v6 ask over IPv6 \return a resolver on the client node (its own stream)
    Ptr<AdcDnsResolver> Resolver(bool v6)
    {
        auto r = CreateObject<AdcDnsResolver>();
        r->SetAttribute("Server",
                        AddressValue(v6 ? Address(Inet6SocketAddress(server6, 53))
                                        : Address(InetSocketAddress(server4, 53))));
        r->AssignStreams(nextStream++);
        nodes.Get(0)->AddApplication(r);
        return r;
    }
};

/// One result delivered to a Resolve() callback.
struct Result
{
    std::string name;                //!< name as asked
    std::vector<AdcIpAddress> addrs; //!< addresses
    uint8_t rcode{0};                //!< RCODE or kNoAnswer
    Time at;                         //!< when
};

/// A resolver's and a server's traces.
struct Log
{
    std::vector<Result> results;                 //!< callbacks
    std::vector<AdcDnsMessage> responses;        //!< server "Response"
    std::vector<AdcDnsQuestion> queries;         //!< server "Query"
    std::vector<std::string> serverDrops;        //!< server "Drop" reasons
    std::vector<std::string> resolverDrops;      //!< resolver "Drop" reasons
    std::vector<std::pair<uint32_t, bool>> sent; //!< resolver "QuerySent": attempt, tcp
    std::vector<uint16_t> ids;                   //!< resolver "QuerySent": ID
    std::vector<Time> sentAt;                    //!< resolver "QuerySent": when
    std::vector<Time> latencies;                 //!< resolver "Answer"
    std::vector<uint32_t> failures;              //!< resolver "Failure": attempts

    void Attach(Ptr<AdcDnsServer> s)
    {
        s->TraceConnectWithoutContext(
            "Response",
            Callback<void, const Address&, const AdcDnsMessage&>(
                [this](const Address&, const AdcDnsMessage& m) { responses.push_back(m); }));
        s->TraceConnectWithoutContext(
            "Query",
            Callback<void, const Address&, const AdcDnsQuestion&>(
                [this](const Address&, const AdcDnsQuestion& q) { queries.push_back(q); }));
        s->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet>, const std::string& r) { serverDrops.push_back(r); }));
    }

    void Attach(Ptr<AdcDnsResolver> r)
    {
        r->TraceConnectWithoutContext(
            "QuerySent",
            Callback<void, const std::string&, uint16_t, uint16_t, uint32_t, bool>(
                [this](const std::string&, uint16_t, uint16_t id, uint32_t attempt, bool tcp) {
                    sent.emplace_back(attempt, tcp);
                    ids.push_back(id);
                    sentAt.push_back(Simulator::Now());
                }));
        r->TraceConnectWithoutContext(
            "Answer",
            Callback<void, const AdcDnsMessage&, Time>(
                [this](const AdcDnsMessage&, Time t) { latencies.push_back(t); }));
        r->TraceConnectWithoutContext(
            "Failure",
            Callback<void, const std::string&, uint16_t, uint32_t>(
                [this](const std::string&, uint16_t, uint32_t n) { failures.push_back(n); }));
        r->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet>, const std::string& s) { resolverDrops.push_back(s); }));
    }

    /// Ask \p r for \p name at \p when, recording the result.
    void Ask(Ptr<AdcDnsResolver> r, Time when, const std::string& name, uint16_t qtype)
    {
        Simulator::Schedule(when, [this, r, name, qtype]() {
            r->Resolve(name,
                       qtype,
                       AdcDnsResolver::ResultCallback(
                           [this](const std::string& n, std::vector<AdcIpAddress> a, uint8_t c) {
                               results.push_back({n, std::move(a), c, Simulator::Now()});
                           }));
        });
    }
};

/// Run until \p end, then destroy the simulation.
void
RunUntil(Time end)
{
    Simulator::Stop(end);
    Simulator::Run();
    Simulator::Destroy();
}

} // namespace

// REQ: SLB-08, GSLB-02
TEST(AdcDnsApps, AnswersAAndAaaaOverIpv4AndIpv6)
{
    Pair net;
    Log log;
    Ptr<AdcDnsServer> server = net.Server();
    Ptr<AdcDnsResolver> r4 = net.Resolver(false);
    Ptr<AdcDnsResolver> r6 = net.Resolver(true);
    log.Attach(server);
    log.Attach(r4);
    log.Attach(r6);
    log.Ask(r4, Seconds(2), kName, AdcDnsMessage::TYPE_A);
    log.Ask(r6, Seconds(3), kName, AdcDnsMessage::TYPE_AAAA);
    log.Ask(r4, Seconds(4), "WWW.Contoso.COM", AdcDnsMessage::TYPE_A); // RFC 4343
    RunUntil(Seconds(5));

    ASSERT_EQ(log.results.size(), 3U);
    EXPECT_EQ(log.results[0].rcode, AdcDnsMessage::NOERROR);
    EXPECT_EQ(log.results[0].addrs, std::vector<AdcIpAddress>{AdcIpAddress(kVip4)});
    EXPECT_EQ(log.results[1].rcode, AdcDnsMessage::NOERROR);
    EXPECT_EQ(log.results[1].addrs, std::vector<AdcIpAddress>{AdcIpAddress(kVip6)});
    EXPECT_EQ(log.results[2].name, "WWW.Contoso.COM");
    EXPECT_EQ(log.results[2].addrs, std::vector<AdcIpAddress>{AdcIpAddress(kVip4)});
    // One round trip over a 1 ms link: a little over 2 ms (serialization at 100 Mbit/s).
    ASSERT_EQ(log.latencies.size(), 3U);
    for (const Time& t : log.latencies)
    {
        EXPECT_GT(t, MilliSeconds(2));
        EXPECT_LT(t, MilliSeconds(3));
    }
    // The server's responses: authoritative, one record each with the zone's TTL.
    ASSERT_EQ(log.responses.size(), 3U);
    for (const auto& m : log.responses)
    {
        EXPECT_TRUE(m.qr);
        EXPECT_TRUE(m.aa);
        EXPECT_TRUE(m.rd); // copied from the stub's query
        EXPECT_FALSE(m.tc);
        ASSERT_EQ(m.answers.size(), 1U);
        EXPECT_EQ(m.answers[0].ttl, kTtl);
    }
    EXPECT_EQ(log.responses[1].answers[0].type, AdcDnsMessage::TYPE_AAAA);
    EXPECT_EQ(log.queries.size(), 3U);
    EXPECT_EQ(server->GetQueries(), 3U);
    EXPECT_EQ(server->GetResponses(AdcDnsMessage::NOERROR), 3U);
    EXPECT_EQ(r4->GetQueriesSent(), 2U);
    EXPECT_EQ(r4->GetAnswered(), 2U);
    EXPECT_EQ(r6->GetAnswered(), 1U);
    EXPECT_EQ(r4->GetRetransmissions() + r4->GetFailed() + r4->GetDrops(), 0U);
}

// REQ: GSLB-02 (error responses are authoritative answers too)
TEST(AdcDnsApps, NxdomainAndEmptyAnswer)
{
    Pair net;
    Log log;
    Ptr<AdcDnsServer> server = net.Server();
    Ptr<AdcDnsResolver> r = net.Resolver(false);
    log.Attach(server);
    log.Attach(r);
    log.Ask(r, Seconds(2), "nosuch.contoso.com", AdcDnsMessage::TYPE_A);
    log.Ask(r, Seconds(2.1), "v4only.contoso.com", AdcDnsMessage::TYPE_AAAA);
    RunUntil(Seconds(3));

    ASSERT_EQ(log.results.size(), 2U);
    EXPECT_EQ(log.results[0].rcode, AdcDnsMessage::NXDOMAIN); // RCODE 3
    EXPECT_TRUE(log.results[0].addrs.empty());
    EXPECT_EQ(log.results[1].rcode, AdcDnsMessage::NOERROR); // NODATA (RFC 2308 2.2)
    EXPECT_TRUE(log.results[1].addrs.empty());
    ASSERT_EQ(log.responses.size(), 2U);
    EXPECT_EQ(log.responses[0].rcode, 3);
    EXPECT_TRUE(log.responses[0].aa);
    EXPECT_TRUE(log.responses[0].answers.empty());
    EXPECT_EQ(log.responses[1].rcode, 0);
    EXPECT_TRUE(log.responses[1].aa);
    EXPECT_TRUE(log.responses[1].answers.empty());
    EXPECT_EQ(server->GetResponses(AdcDnsMessage::NXDOMAIN), 1U);
    EXPECT_EQ(server->GetResponses(AdcDnsMessage::NOERROR), 1U);
    EXPECT_EQ(r->GetAnswered(), 2U); // an error response is an answer, not a failure
    EXPECT_EQ(r->GetFailed(), 0U);
}

namespace
{

/// A UDP socket of the test's own on \p node bound to \p local, keeping what it receives.
struct RawUdp
{
    Ptr<Socket> socket;                         //!< the socket
    std::vector<std::vector<uint8_t>> received; //!< datagrams, in order
    std::function<void(const std::vector<uint8_t>&, const Address&)> onReceive; //!< optional

    RawUdp(Ptr<Node> node, const Address& local)
    {
        socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        EXPECT_EQ(socket->Bind(local), 0);
        socket->SetRecvCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> s) {
            Address from;
            while (Ptr<Packet> p = s->RecvFrom(from))
            {
                std::vector<uint8_t> bytes(p->GetSize());
                p->CopyData(bytes.data(), bytes.size());
                received.push_back(bytes);
                if (onReceive)
                {
                    onReceive(bytes, from);
                }
            }
        }));
    }

    /// Send \p bytes to \p to at \p when.
    void SendAt(Time when, std::vector<uint8_t> bytes, const Address& to)
    {
        Ptr<Socket> s = socket;
        Simulator::Schedule(when, [s, bytes, to]() {
            s->SendTo(Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())), 0, to);
        });
    }
};

/// Add \p n A records 10.0.0.1.. for "many.contoso.com" to \p server.
void
AddMany(Ptr<AdcDnsServer> server, uint32_t n)
{
    for (uint32_t i = 1; i <= n; ++i)
    {
        server->AddRecord(
            AdcDnsResourceRecord::A("many.contoso.com", Ipv4Address(0x0A000000 + i), 60));
    }
}

} // namespace

// REQ: GSLB-02 (RFC 1035 4.1.1: FORMERR; unreadable messages dropped with a reason)
TEST(AdcDnsApps, FormerrOnMalformedQueryFromRawSocket)
{
    Pair net;
    Log log;
    Ptr<AdcDnsServer> server = net.Server();
    log.Attach(server);
    RawUdp client(net.nodes.Get(0), InetSocketAddress(Ipv4Address::GetAny(), 40000));
    const Address to = InetSocketAddress(net.server4, 53);
    // A header announcing one question, and no question: the header is readable.
    client.SendAt(Seconds(2), {0xBE, 0xEF, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0}, to);
    // 5 bytes: not even a header; dropped.
    client.SendAt(Seconds(2.1), {0x12, 0x34, 0x01, 0x00, 0}, to);
    // A response (QR set) sent to the server: dropped, never answered.
    AdcDnsMessage response = AdcDnsMessage::MakeResponse(AdcDnsMessage::MakeQuery(7, kName),
                                                         AdcDnsMessage::NOERROR,
                                                         true);
    client.SendAt(Seconds(2.2), response.Serialize(), to);
    // Two questions in one query: FORMERR.
    AdcDnsMessage two = AdcDnsMessage::MakeQuery(8, kName);
    two.questions.push_back(two.questions.front());
    client.SendAt(Seconds(2.3), two.Serialize(), to);
    // Opcode STATUS (2): NOTIMP (4).
    AdcDnsMessage status = AdcDnsMessage::MakeQuery(9, kName);
    status.opcode = AdcDnsMessage::STATUS;
    client.SendAt(Seconds(2.4), status.Serialize(), to);
    RunUntil(Seconds(3));

    ASSERT_EQ(client.received.size(), 3U);
    // ID echoed; QR=1 Opcode=0 AA=0 TC=0 RD=1 (0x81); RA=0 Z=0 RCODE=1 (0x01); no sections.
    const std::vector<uint8_t> formerr{0xBE, 0xEF, 0x81, 0x01, 0, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_EQ(client.received[0], formerr);
    auto second = AdcDnsMessage::Parse(client.received[1]);
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(second->id, 8);
    EXPECT_EQ(second->rcode, AdcDnsMessage::FORMERR);
    auto third = AdcDnsMessage::Parse(client.received[2]);
    ASSERT_TRUE(third.has_value());
    EXPECT_EQ(third->id, 9);
    EXPECT_EQ(third->rcode, AdcDnsMessage::NOTIMP);
    EXPECT_EQ(third->opcode, AdcDnsMessage::STATUS);

    ASSERT_EQ(log.serverDrops.size(), 2U);
    EXPECT_TRUE(adctest::Has(log.serverDrops[0], "shorter than the 12-byte DNS header"));
    EXPECT_TRUE(adctest::Has(log.serverDrops[1], "QR set"));
    EXPECT_EQ(server->GetDrops(), 2U);
    EXPECT_EQ(server->GetResponses(AdcDnsMessage::FORMERR), 2U);
    EXPECT_EQ(server->GetResponses(AdcDnsMessage::NOTIMP), 1U);
    EXPECT_EQ(log.responses.size(), 3U); // every answer sent is traced
}

// REQ: GSLB-02 (RFC 1035 4.2.1: TC over UDP, then the same query over TCP, 4.2.2)
TEST(AdcDnsApps, TruncatedOverUdpThenRetriedOverTcp)
{
    for (bool v6 : {false, true})
    {
        SCOPED_TRACE(v6 ? "IPv6" : "IPv4");
        Pair net;
        Log log;
        Ptr<AdcDnsServer> server = net.Server();
        AddMany(server, 40);
        Ptr<AdcDnsResolver> r = net.Resolver(v6);
        log.Attach(server);
        log.Attach(r);
        log.Ask(r, Seconds(2), "many.contoso.com", AdcDnsMessage::TYPE_A);
        RunUntil(Seconds(4));

        // Sizes from RFC 1035 4.1: header 12, question 18 (1+4+1+7+1+3+1) + 4 = 34 bytes; each
        // answer a 2-byte name pointer + 10 + 4 bytes of RDATA = 16: (512 - 34) / 16 = 29 fit.
        ASSERT_EQ(log.responses.size(), 2U);
        EXPECT_TRUE(log.responses[0].tc);
        EXPECT_EQ(log.responses[0].answers.size(), 29U);
        EXPECT_FALSE(log.responses[1].tc);
        EXPECT_EQ(log.responses[1].answers.size(), 40U);
        const std::vector<std::pair<uint32_t, bool>> tries{{1, false}, {2, true}};
        EXPECT_EQ(log.sent, tries);
        ASSERT_EQ(log.ids.size(), 2U);
        EXPECT_EQ(log.ids[0], log.ids[1]); // the same query, asked again
        ASSERT_EQ(log.results.size(), 1U);
        EXPECT_EQ(log.results[0].rcode, AdcDnsMessage::NOERROR);
        ASSERT_EQ(log.results[0].addrs.size(), 40U);
        EXPECT_EQ(log.results[0].addrs.front(), AdcIpAddress(Ipv4Address("10.0.0.1")));
        EXPECT_EQ(log.results[0].addrs.back(), AdcIpAddress(Ipv4Address("10.0.0.40")));
        EXPECT_EQ(server->GetTruncated(), 1U);
        EXPECT_EQ(server->GetTcpConnections(), 1U);
        EXPECT_EQ(r->GetTcpRetries(), 1U);
        EXPECT_EQ(r->GetQueriesSent(), 2U);
        EXPECT_EQ(r->GetRetransmissions(), 0U);
        // UDP round trip, then TCP handshake and query/answer: about three round trips.
        ASSERT_EQ(log.latencies.size(), 1U);
        EXPECT_GT(log.latencies[0], MilliSeconds(6));
        EXPECT_LT(log.latencies[0], MilliSeconds(10));
    }
}

// REQ: GSLB-02 (a client whose DNS server does not answer)
TEST(AdcDnsApps, TimeoutAndRetriesWhenServerStopped)
{
    Pair net;
    Log log;
    Ptr<AdcDnsServer> server = net.Server();
    server->SetStopTime(Seconds(1));
    Ptr<AdcDnsResolver> r = net.Resolver(false);
    Ptr<AdcDnsResolver> r6 = net.Resolver(true);
    r6->SetAttribute("Retries", UintegerValue(0));
    r6->SetAttribute("Timeout", TimeValue(MilliSeconds(500)));
    log.Attach(r);
    log.Attach(r6);
    log.Ask(r, Seconds(2), kName, AdcDnsMessage::TYPE_A);
    log.Ask(r6, Seconds(30), kName, AdcDnsMessage::TYPE_AAAA);
    RunUntil(Seconds(40));

    // Defaults: Timeout 5 s, Retries 2: tries at 2, 7 and 12 s; failure at 17 s.
    ASSERT_EQ(log.sentAt.size(), 4U);
    EXPECT_EQ(log.sentAt[0], Seconds(2));
    EXPECT_EQ(log.sentAt[1], Seconds(7));
    EXPECT_EQ(log.sentAt[2], Seconds(12));
    EXPECT_EQ(log.ids[0], log.ids[1]);
    EXPECT_EQ(log.ids[1], log.ids[2]);
    EXPECT_EQ(log.sent[2], std::make_pair(3U, false));
    // Retries 0, Timeout 0.5 s: one try at 30 s, failure at 30.5 s.
    EXPECT_EQ(log.sentAt[3], Seconds(30));
    ASSERT_EQ(log.results.size(), 2U);
    EXPECT_EQ(log.results[0].at, Seconds(17));
    EXPECT_EQ(log.results[0].rcode, AdcDnsResolver::kNoAnswer);
    EXPECT_TRUE(log.results[0].addrs.empty());
    EXPECT_EQ(log.results[1].at, Seconds(30.5));
    EXPECT_EQ(log.results[1].rcode, AdcDnsResolver::kNoAnswer);
    EXPECT_EQ(log.failures, (std::vector<uint32_t>{3, 1}));
    EXPECT_EQ(r->GetQueriesSent(), 3U);
    EXPECT_EQ(r->GetRetransmissions(), 2U);
    EXPECT_EQ(r->GetFailed(), 1U);
    EXPECT_EQ(r->GetAnswered(), 0U);
    EXPECT_EQ(r6->GetFailed(), 1U);
}

// REQ: GSLB-02 (RFC 5452 section 9.1: only the matching response is accepted)
TEST(AdcDnsApps, ResponseMatchedByIdQuestionAndSource)
{
    Pair net;
    Log log;
    Ptr<AdcDnsResolver> r = net.Resolver(false);
    log.Attach(r);
    RawUdp fake(net.nodes.Get(1), InetSocketAddress(Ipv4Address::GetAny(), 53));
    RawUdp other(net.nodes.Get(1), InetSocketAddress(Ipv4Address::GetAny(), 5353));
    fake.onReceive = [&](const std::vector<uint8_t>& bytes, const Address& from) {
        auto query = AdcDnsMessage::Parse(bytes);
        ASSERT_TRUE(query.has_value());
        auto answer = [&](uint16_t id, const std::string& name, uint16_t qtype) {
            AdcDnsMessage q = AdcDnsMessage::MakeQuery(id, name, qtype);
            AdcDnsMessage m = AdcDnsMessage::MakeResponse(q, AdcDnsMessage::NOERROR, true);
            m.answers.push_back(AdcDnsResourceRecord::A(name, kVip4, kTtl));
            return m.Serialize();
        };
        const uint16_t id = query->id;
        fake.SendAt(MilliSeconds(1), answer(id ^ 0x0101, kName, 1), from);      // wrong ID
        fake.SendAt(MilliSeconds(2), answer(id, "other.contoso.com", 1), from); // other name
        fake.SendAt(MilliSeconds(3), answer(id, kName, 28), from);              // other type
        other.SendAt(MilliSeconds(4), answer(id, kName, 1), from);              // other port
        fake.SendAt(MilliSeconds(5), answer(id, kName, 1), from);               // the answer
        fake.SendAt(MilliSeconds(6), answer(id, kName, 1), from); // a duplicate, now unknown
    };
    log.Ask(r, Seconds(2), kName, AdcDnsMessage::TYPE_A);
    RunUntil(Seconds(3));

    ASSERT_EQ(fake.received.size(), 1U); // one query, no retry
    ASSERT_EQ(log.results.size(), 1U);
    EXPECT_EQ(log.results[0].addrs, std::vector<AdcIpAddress>{AdcIpAddress(kVip4)});
    ASSERT_EQ(log.resolverDrops.size(), 5U);
    EXPECT_TRUE(adctest::Has(log.resolverDrops[0], "matches no outstanding query"));
    EXPECT_TRUE(adctest::Has(log.resolverDrops[1], "question does not match"));
    EXPECT_TRUE(adctest::Has(log.resolverDrops[2], "question does not match"));
    EXPECT_TRUE(adctest::Has(log.resolverDrops[3], "not from the server's address and port"));
    EXPECT_TRUE(adctest::Has(log.resolverDrops[4], "matches no outstanding query"));
    EXPECT_EQ(r->GetDrops(), 5U);
    EXPECT_EQ(r->GetAnswered(), 1U);
}

// Query IDs come from the resolver's own random stream: reproducible, and not predictable
// from one query to the next (RFC 5452 section 9.2).
TEST(AdcDnsApps, QueryIdsRandomFromAssignedStream)
{
    auto idsOf = [](int64_t stream) {
        Pair net;
        Log log;
        Ptr<AdcDnsResolver> r = net.Resolver(false);
        r->AssignStreams(stream);
        r->SetAttribute("Retries", UintegerValue(0));
        r->SetAttribute("Timeout", TimeValue(MilliSeconds(10)));
        log.Attach(r);
        for (int i = 0; i < 8; ++i)
        {
            log.Ask(r, Seconds(1) + MilliSeconds(i), kName, AdcDnsMessage::TYPE_A);
        }
        RunUntil(Seconds(2));
        EXPECT_EQ(log.results.size(), 8U);
        return log.ids;
    };
    const std::vector<uint16_t> a = idsOf(7);
    ASSERT_EQ(a.size(), 8U);
    EXPECT_EQ(idsOf(7), a);
    EXPECT_NE(idsOf(8), a);
    EXPECT_EQ(std::set<uint16_t>(a.begin(), a.end()).size(), 8U); // 8 different IDs
    bool sequential = true;
    for (std::size_t i = 1; i < a.size(); ++i)
    {
        sequential = sequential && a[i] == static_cast<uint16_t>(a[i - 1] + 1);
    }
    EXPECT_FALSE(sequential);
}

TEST(AdcDnsApps, BadSettingsAreConfigErrors)
{
    auto server = CreateObject<AdcDnsServer>();
    EXPECT_TRUE(adctest::Has(
        adctest::ConfigErrorOf([&] { server->SetAttribute("MaxUdpPayload", UintegerValue(100)); }),
        "MaxUdpPayload 100"));
    AdcDnsResourceRecord bad = AdcDnsResourceRecord::A(kName, kVip4, 1);
    bad.name = std::string(64, 'a') + ".example";
    EXPECT_TRUE(adctest::Has(adctest::ConfigErrorOf([&] { server->AddRecord(bad); }), "63"));
    auto resolver = CreateObject<AdcDnsResolver>();
    auto cb = MakeNullCallback<void, const std::string&, std::vector<AdcIpAddress>, uint8_t>();
    EXPECT_TRUE(adctest::Has(
        adctest::ConfigErrorOf([&] { resolver->Resolve(kName, AdcDnsMessage::TYPE_A, cb); }),
        "Server is not set"));
    resolver->SetAttribute("Server", AddressValue(Ipv4Address("10.1.1.2")));
    resolver->SetAttribute("Timeout", TimeValue(Seconds(0)));
    EXPECT_TRUE(adctest::Has(
        adctest::ConfigErrorOf([&] { resolver->Resolve(kName, AdcDnsMessage::TYPE_A, cb); }),
        "Timeout 0"));
    resolver->SetAttribute("Timeout", TimeValue(Seconds(5)));
    EXPECT_TRUE(adctest::Has(
        adctest::ConfigErrorOf([&] { resolver->Resolve(bad.name, AdcDnsMessage::TYPE_A, cb); }),
        "63"));
    Simulator::Destroy();
}

// REQ: GSLB-02 ("DNS response in pcap"), SLB-08
TEST(AdcDnsApps, PcapDecodesAsDnsInWireshark)
{
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir =
        (std::filesystem::temp_directory_path() / ("adc-dns-apps-test-" + std::to_string(getpid())))
            .string();
    std::filesystem::create_directories(dir);
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true)); // real UDP/TCP checksums
    {
        Pair net;
        Log log;
        Ptr<AdcDnsServer> server = net.Server();
        AddMany(server, 40);
        Ptr<AdcDnsResolver> r4 = net.Resolver(false);
        Ptr<AdcDnsResolver> r6 = net.Resolver(true);
        log.Ask(r4, Seconds(2), kName, AdcDnsMessage::TYPE_A);
        log.Ask(r6, Seconds(2.1), kName, AdcDnsMessage::TYPE_AAAA);
        log.Ask(r4, Seconds(2.2), "nosuch.contoso.com", AdcDnsMessage::TYPE_A);
        log.Ask(r4, Seconds(2.3), "many.contoso.com", AdcDnsMessage::TYPE_A);
        net.p2p.EnablePcap(dir + "/dns", net.nodes.Get(1)->GetDevice(0)); // p2p before loopback
        RunUntil(Seconds(3));
        EXPECT_EQ(log.results.size(), 4U);
    }
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    const std::string pcap = dir + "/dns-1-0.pcap";
    ASSERT_TRUE(std::filesystem::exists(pcap)) << pcap;
    // One row per DNS message: response flag, QNAME, RCODE, AA, TC, ANCOUNT, first A, first
    // AAAA, TCP stream (empty over UDP).
    const std::string out = adctest::RunCommand(
        "tshark -n -r '" + pcap +
        "' -Y dns -T fields -E occurrence=f -E separator='|' -e dns.flags.response "
        "-e dns.qry.name -e dns.flags.rcode -e dns.flags.authoritative -e dns.flags.truncated "
        "-e dns.count.answers -e dns.a -e dns.aaaa -e tcp.stream 2>/dev/null");
    std::vector<std::string> rows;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
    {
        rows.push_back(line);
    }
    auto query = [](const std::string& name, const std::string& tcpStream) {
        // Wireshark shows RCODE and AA in responses only; a query has TC 0 and no answers.
        return "0|" + name + "|||0|0|||" + tcpStream;
    };
    const std::vector<std::string> expected{
        query(kName, ""),
        "1|www.contoso.com|0|1|0|1|107.105.47.60||",
        query(kName, ""),
        "1|www.contoso.com|0|1|0|1||2001:db8:ffff::60|",
        query("nosuch.contoso.com", ""),
        "1|nosuch.contoso.com|3|1|0|0|||",
        query("many.contoso.com", ""),
        "1|many.contoso.com|0|1|1|29|10.0.0.1||", // 29 of 40 fit in 512 bytes
        query("many.contoso.com", "0"),
        "1|many.contoso.com|0|1|0|40|10.0.0.1||0", // all 40 over TCP
    };
    EXPECT_EQ(rows, expected) << out;
    // Nothing malformed, no checksum or other expert error (IPv6 UDP needs its checksum).
    EXPECT_TRUE(adctest::OutputLines(
                    adctest::RunCommand("tshark -n -r '" + pcap +
                                        "' -Y '_ws.malformed || _ws.expert.severity == error' "
                                        "-T fields -e frame.number 2>/dev/null"))
                    .empty());
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir); // kept for inspection when the test fails
    }
}
