/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario tests of the local DNS server (model/apps/adc-ldns-server.h): a star around the
 * LDNS node, a client 1 ms away and two authoritative servers (AdcDnsServer) of the zone
 * contoso.com, ADNS A 10 ms and ADNS B 20 ms away. The client asks through an AdcDnsResolver.
 * Expected values come from the delays and times set here, RFC 1035 / 2181 / 2308 and the
 * LDNS's documented defaults (Timeout 2 s, Retries 2).
 */

// REQ: GSLB-01 (the LDNS is the party whose RTT the sites measure; its queries reach the ADNS)
// REQ: GSLB-02 (the ADNS's answer reaches the client through its LDNS)

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-dns-resolver.h"
#include "ns3/adc-dns-server.h"
#include "ns3/adc-ldns-server.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kZone = "contoso.com";
const Ipv4Address kSiteA("107.105.47.60");
constexpr uint32_t kTtl = 30;
const Time kClientDelay = MilliSeconds(1); // client - LDNS, one way
const Time kADelay = MilliSeconds(10);     // LDNS - ADNS A, one way
const Time kBDelay = MilliSeconds(20);     // LDNS - ADNS B, one way

/// The star: client 0, LDNS 1, ADNS A 2, ADNS B 3.
struct Star
{
    NodeContainer nodes;
    Ipv4Address ldns;  //!< the LDNS's address towards the client
    Ipv4Address adnsA; //!< ADNS A
    Ipv4Address adnsB; //!< ADNS B
    Ptr<AdcLdnsServer> server;
    Ptr<AdcDnsResolver> resolver;

    Star()
    {
        nodes.Create(4);
        InternetStackHelper().Install(nodes);
        ldns = Link(0, 1, kClientDelay, "10.1.1.0").GetAddress(1);
        adnsA = Link(1, 2, kADelay, "10.1.2.0").GetAddress(1);
        adnsB = Link(1, 3, kBDelay, "10.1.3.0").GetAddress(1);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        server = CreateObject<AdcLdnsServer>();
        server->AssignStreams(7);
        server->AddZone(kZone, {adnsA, InetSocketAddress(adnsB, 53)});
        nodes.Get(1)->AddApplication(server);
        resolver = CreateObject<AdcDnsResolver>();
        resolver->SetAttribute("Server", AddressValue(InetSocketAddress(ldns, 53)));
        resolver->SetAttribute("Timeout", TimeValue(Seconds(30))); // longer than the LDNS's
        resolver->AssignStreams(3);
        nodes.Get(0)->AddApplication(resolver);
    }

    Ipv4InterfaceContainer Link(uint32_t a, uint32_t b, Time delay, const char* net)
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(delay));
        Ipv4AddressHelper ip;
        ip.SetBase(net, "255.255.255.0");
        return ip.Assign(p2p.Install(nodes.Get(a), nodes.Get(b)));
    }

    /// An ADNS on node \p i with A records of \p names (TTL kTtl).
    Ptr<AdcDnsServer> Adns(uint32_t i, const std::vector<std::string>& names)
    {
        auto s = CreateObject<AdcDnsServer>();
        for (const auto& n : names)
        {
            s->AddRecord(AdcDnsResourceRecord::A(n, kSiteA, kTtl));
        }
        nodes.Get(i)->AddApplication(s);
        return s;
    }
};

struct Fwd
{
    std::string name;
    Ipv4Address server;
    uint32_t attempt;
    Time at;
};

struct Ans
{
    AdcDnsMessage response;
    Time latency;
    Time at;
};

struct Res
{
    std::vector<AdcIpAddress> addrs;
    uint8_t rcode;
    Time at;
};

/// The LDNS's traces and the client's results.
struct Log
{
    std::vector<bool> hits;   //!< "Query": cacheHit
    std::vector<Fwd> fwds;    //!< "Forward"
    std::vector<Ans> answers; //!< "Answer"
    std::vector<std::string> drops;
    std::vector<Res> results; //!< the resolver's callbacks

    void Attach(Ptr<AdcLdnsServer> s)
    {
        s->TraceConnectWithoutContext(
            "Query",
            Callback<void, const Address&, const AdcDnsQuestion&, bool>(
                [this](const Address&, const AdcDnsQuestion&, bool hit) { hits.push_back(hit); }));
        s->TraceConnectWithoutContext(
            "Forward",
            Callback<void, const AdcDnsQuestion&, const Address&, uint32_t>(
                [this](const AdcDnsQuestion& q, const Address& a, uint32_t n) {
                    fwds.push_back(
                        {q.name, InetSocketAddress::ConvertFrom(a).GetIpv4(), n, Simulator::Now()});
                }));
        s->TraceConnectWithoutContext("Answer",
                                      Callback<void, const Address&, const AdcDnsMessage&, Time>(
                                          [this](const Address&, const AdcDnsMessage& m, Time t) {
                                              answers.push_back({m, t, Simulator::Now()});
                                          }));
        s->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet>, const std::string& r) { drops.push_back(r); }));
    }

    void Ask(Ptr<AdcDnsResolver> r, Time when, const std::string& name)
    {
        Simulator::Schedule(when, [this, r, name]() {
            r->Resolve(name,
                       AdcDnsMessage::TYPE_A,
                       AdcDnsResolver::ResultCallback(
                           [this](const std::string&, std::vector<AdcIpAddress> a, uint8_t c) {
                               results.push_back({std::move(a), c, Simulator::Now()});
                           }));
        });
    }
};

void
RunUntil(Time end)
{
    Simulator::Stop(end);
    Simulator::Run();
    Simulator::Destroy();
}

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

/// \return the callback name the TypeId \p tid cites for \p source ("" when none)
std::string
CitedTypedef(TypeId tid, const std::string& source)
{
    for (uint32_t i = 0; i < tid.GetTraceSourceN(); ++i)
    {
        if (tid.GetTraceSource(i).name == source)
        {
            return tid.GetTraceSource(i).callback;
        }
    }
    return "";
}

/// Serialization of a DNS message at 100 Mbit/s is tens of microseconds per hop.
const Time kSlack = MicroSeconds(500);

} // namespace

// REQ: GSLB-01, GSLB-02 (first query upstream, cached answer with the TTL left, expiry)
TEST(AdcLdnsServer, CachesForTheTtlWithRemainingTtlThenAsksAgain)
{
    Star net;
    Log log;
    net.server->SetAttribute("ServerSelection", StringValue("FIRST"));
    net.Adns(2, {"www.contoso.com"});
    net.Adns(3, {"www.contoso.com"});
    log.Attach(net.server);
    log.Ask(net.resolver, Seconds(1), "www.contoso.com");
    log.Ask(net.resolver, Seconds(11), "WWW.CONTOSO.COM"); // same key, ignoring case
    log.Ask(net.resolver, Seconds(1 + kTtl + 5), "www.contoso.com");
    RunUntil(Seconds(60));

    EXPECT_EQ(log.hits, (std::vector<bool>{false, true, false}));
    ASSERT_EQ(log.fwds.size(), 2U);
    EXPECT_EQ(log.fwds[0].server, net.adnsA);
    EXPECT_EQ(log.fwds[0].attempt, 1U);
    EXPECT_GE(log.fwds[0].at, Seconds(1) + kClientDelay);
    EXPECT_LT(log.fwds[0].at, Seconds(1) + kClientDelay + kSlack);
    EXPECT_GE(log.fwds[1].at, Seconds(1 + kTtl + 5));
    ASSERT_EQ(log.answers.size(), 3U);
    // Miss: the LDNS waited one round trip to ADNS A.
    EXPECT_GE(log.answers[0].latency, 2 * kADelay);
    EXPECT_LT(log.answers[0].latency, 2 * kADelay + kSlack);
    ASSERT_EQ(log.answers[0].response.answers.size(), 1U);
    EXPECT_EQ(log.answers[0].response.answers[0].ttl, kTtl);
    EXPECT_TRUE(log.answers[0].response.ra);
    EXPECT_FALSE(log.answers[0].response.aa);
    // Hit 10 s later: answered at once, TTL less the 10 whole seconds elapsed.
    EXPECT_EQ(log.answers[1].latency, Seconds(0));
    ASSERT_EQ(log.answers[1].response.answers.size(), 1U);
    EXPECT_EQ(log.answers[1].response.answers[0].ttl, kTtl - 10);
    EXPECT_EQ(log.answers[1].response.answers[0].GetA(), kSiteA);
    // After the TTL: upstream again, full TTL.
    EXPECT_EQ(log.answers[2].response.answers[0].ttl, kTtl);
    // The client: a miss costs both round trips, a hit only its own.
    ASSERT_EQ(log.results.size(), 3U);
    EXPECT_GE(log.results[0].at - Seconds(1), 2 * (kClientDelay + kADelay));
    EXPECT_LT(log.results[0].at - Seconds(1), 2 * (kClientDelay + kADelay) + MilliSeconds(1));
    EXPECT_GE(log.results[1].at - Seconds(11), 2 * kClientDelay);
    EXPECT_LT(log.results[1].at - Seconds(11), 2 * kClientDelay + kSlack);
    for (const auto& r : log.results)
    {
        EXPECT_EQ(r.rcode, AdcDnsMessage::NOERROR);
        EXPECT_EQ(r.addrs, std::vector<AdcIpAddress>{AdcIpAddress(kSiteA)});
    }
    EXPECT_EQ(net.server->GetHits(), 1U);
    EXPECT_EQ(net.server->GetMisses(), 2U);
    EXPECT_EQ(net.server->GetForwards(), 2U);
    EXPECT_EQ(net.server->GetServfails(), 0U);
}

/// The addresses of a name with 40 A records (10.200.0.1 ..), too many for 512 bytes of UDP.
std::vector<AdcIpAddress>
FortyAddresses()
{
    std::vector<AdcIpAddress> a;
    for (uint32_t i = 1; i <= 40; ++i)
    {
        a.emplace_back(Ipv4Address(0x0ac80000 + i));
    }
    return a;
}

/// \return the addresses the resolver got for big.contoso.com through the LDNS, with
/// "TcpRetry" \p retry; \p tcpRetries gets the LDNS's count
std::vector<AdcIpAddress>
AskForFortyRecords(bool retry, uint64_t& tcpRetries)
{
    Star net;
    Log log;
    net.server->SetAttribute("ServerSelection", StringValue("FIRST"));
    net.server->SetAttribute("TcpRetry", BooleanValue(retry));
    Ptr<AdcDnsServer> a = net.Adns(2, {});
    for (const AdcIpAddress& x : FortyAddresses())
    {
        a->AddRecord(AdcDnsResourceRecord::A("big.contoso.com", x.GetIpv4(), kTtl));
    }
    log.Attach(net.server);
    log.Ask(net.resolver, Seconds(1), "big.contoso.com");
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    tcpRetries = net.server->GetTcpRetries();
    Simulator::Destroy();
    EXPECT_EQ(log.results.size(), 1U);
    if (log.results.empty())
    {
        return {};
    }
    EXPECT_EQ(log.results[0].rcode, AdcDnsMessage::NOERROR);
    std::vector<AdcIpAddress> got = log.results[0].addrs;
    std::sort(got.begin(), got.end());
    return got;
}

// REQ: GSLB-02 (RFC 7766 section 5: a resolver that receives a truncated response retries over
// TCP; RFC 1035 section 4.2.1: 512 bytes of UDP without EDNS hold 40 A records of one name no
// more: 12 + 21 (question) + 40 x 31 bytes. The client gets all 40, not the truncated part)
TEST(AdcLdnsServer, TruncatedUpstreamAnswerIsAskedAgainOverTcp)
{
    uint64_t retries = 0;
    EXPECT_EQ(AskForFortyRecords(true, retries), FortyAddresses());
    EXPECT_GE(retries, 1U);
    // The control: relaying the truncated answer gives the client less than the name has.
    const auto relayed = AskForFortyRecords(false, retries);
    EXPECT_LT(relayed.size(), 40U);
    EXPECT_EQ(retries, 0U);
}

// REQ: GSLB-01 (ROUND_ROBIN: each new upstream query starts at the zone's next server)
TEST(AdcLdnsServer, RoundRobinAlternatesTheZoneServers)
{
    Star net;
    Log log;
    const std::vector<std::string> names{"a.contoso.com", "b.contoso.com", "c.contoso.com"};
    net.Adns(2, names);
    net.Adns(3, names);
    log.Attach(net.server);
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        log.Ask(net.resolver, Seconds(1 + i), names[i]);
    }
    RunUntil(Seconds(10));

    ASSERT_EQ(log.fwds.size(), 3U);
    EXPECT_EQ(log.fwds[0].server, net.adnsA);
    EXPECT_EQ(log.fwds[1].server, net.adnsB);
    EXPECT_EQ(log.fwds[2].server, net.adnsA);
    ASSERT_EQ(log.answers.size(), 3U);
    // The LDNS latency tells which server answered: 2 x 10 ms, 2 x 20 ms, 2 x 10 ms.
    const std::vector<Time> rtt{2 * kADelay, 2 * kBDelay, 2 * kADelay};
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_GE(log.answers[i].latency, rtt[i]) << i;
        EXPECT_LT(log.answers[i].latency, rtt[i] + kSlack) << i;
        EXPECT_EQ(log.results[i].rcode, AdcDnsMessage::NOERROR);
    }
}

// REQ: GSLB-01 (LOWEST_SRTT: unknown servers first, then the lowest smoothed RTT)
TEST(AdcLdnsServer, LowestSrttTriesUnknownServersThenTheFastest)
{
    Star net;
    Log log;
    net.server->SetAttribute("ServerSelection", StringValue("LOWEST_SRTT"));
    const std::vector<std::string> names{"a.contoso.com",
                                         "b.contoso.com",
                                         "c.contoso.com",
                                         "d.contoso.com"};
    net.Adns(2, names);
    net.Adns(3, names);
    log.Attach(net.server);
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        log.Ask(net.resolver, Seconds(1 + i), names[i]);
    }
    RunUntil(Seconds(10));

    ASSERT_EQ(log.fwds.size(), 4U);
    EXPECT_EQ(log.fwds[0].server, net.adnsA); // unknown, first added
    EXPECT_EQ(log.fwds[1].server, net.adnsB); // still unknown
    EXPECT_EQ(log.fwds[2].server, net.adnsA); // 20 ms < 40 ms
    EXPECT_EQ(log.fwds[3].server, net.adnsA);
    auto a = net.server->GetSrtt(net.adnsA);
    auto b = net.server->GetSrtt(InetSocketAddress(net.adnsB, 53));
    ASSERT_TRUE(a && b);
    EXPECT_GE(*a, 2 * kADelay * (511.0 / 512.0));
    EXPECT_LT(*a, 2 * kADelay + kSlack);
    // B measured once (40 ms), then aged by 511/512 at most once per second when not chosen.
    EXPECT_LT(*b, 2 * kBDelay + kSlack);
    EXPECT_GT(*b, 2 * kBDelay * (511.0 / 512.0) * (511.0 / 512.0));
    EXPECT_FALSE(net.server->GetSrtt(Ipv4Address("10.9.9.9")));
}

// REQ: GSLB-01 (an ADNS that does not answer: the next server after Timeout)
TEST(AdcLdnsServer, SilentServerMovesToTheNextAfterTimeout)
{
    Star net;
    Log log;
    net.server->SetAttribute("ServerSelection", StringValue("FIRST"));
    net.Adns(3, {"www.contoso.com"}); // only B answers
    log.Attach(net.server);
    log.Ask(net.resolver, Seconds(1), "www.contoso.com");
    RunUntil(Seconds(10));

    const Time arrival = Seconds(1) + kClientDelay;
    ASSERT_EQ(log.fwds.size(), 2U);
    EXPECT_EQ(log.fwds[0].server, net.adnsA);
    EXPECT_EQ(log.fwds[1].server, net.adnsB);
    EXPECT_EQ(log.fwds[1].attempt, 2U);
    EXPECT_EQ(log.fwds[1].at - log.fwds[0].at, Seconds(2)); // the default Timeout
    ASSERT_EQ(log.answers.size(), 1U);
    EXPECT_EQ(log.answers[0].response.rcode, AdcDnsMessage::NOERROR);
    EXPECT_GE(log.answers[0].latency, Seconds(2) + 2 * kBDelay);
    EXPECT_LT(log.answers[0].latency, Seconds(2) + 2 * kBDelay + kSlack);
    EXPECT_GE(log.answers[0].at, arrival);
    ASSERT_EQ(log.results.size(), 1U);
    EXPECT_EQ(log.results[0].addrs, std::vector<AdcIpAddress>{AdcIpAddress(kSiteA)});
    EXPECT_EQ(*net.server->GetSrtt(net.adnsA), Seconds(2)); // a timeout is a 2 s sample
}

// REQ: GSLB-01 (every server silent: SERVFAIL after (Retries + 1) x Timeout)
TEST(AdcLdnsServer, AllSilentGivesServfailAfterEveryTry)
{
    Star net;
    Log log;
    net.server->SetAttribute("Timeout", TimeValue(MilliSeconds(300)));
    net.server->SetAttribute("Retries", UintegerValue(3));
    log.Attach(net.server);
    log.Ask(net.resolver, Seconds(1), "www.contoso.com");
    RunUntil(Seconds(5));

    ASSERT_EQ(log.fwds.size(), 4U);
    const std::vector<Ipv4Address> order{net.adnsA, net.adnsB, net.adnsA, net.adnsB};
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(log.fwds[i].server, order[i]) << i;
        EXPECT_EQ(log.fwds[i].attempt, i + 1);
        EXPECT_EQ(log.fwds[i].at - log.fwds[0].at, MilliSeconds(300) * i);
    }
    ASSERT_EQ(log.answers.size(), 1U);
    EXPECT_EQ(log.answers[0].response.rcode, AdcDnsMessage::SERVFAIL);
    EXPECT_EQ(log.answers[0].latency, MilliSeconds(300) * 4);
    ASSERT_EQ(log.results.size(), 1U);
    EXPECT_EQ(log.results[0].rcode, AdcDnsMessage::SERVFAIL);
    EXPECT_EQ(net.server->GetServfails(), 1U);
    EXPECT_EQ(net.server->GetForwards(), 4U);
    EXPECT_EQ(net.server->GetCacheSize(), 0U); // a failure is not cached
}

// REQ: GSLB-01 (identical questions in flight: one upstream query)
TEST(AdcLdnsServer, DuplicateQuestionsInFlightAreForwardedOnce)
{
    Star net;
    Log log;
    net.Adns(2, {"www.contoso.com"});
    net.Adns(3, {"www.contoso.com"});
    log.Attach(net.server);
    log.Ask(net.resolver, Seconds(1), "www.contoso.com");
    log.Ask(net.resolver, Seconds(1) + MilliSeconds(5), "www.contoso.com"); // before the answer
    RunUntil(Seconds(3));

    EXPECT_EQ(log.fwds.size(), 1U);
    EXPECT_EQ(log.hits, (std::vector<bool>{false, false}));
    ASSERT_EQ(log.answers.size(), 2U);
    EXPECT_EQ(log.answers[0].at, log.answers[1].at); // both answered by the one response
    EXPECT_EQ(log.answers[0].latency - log.answers[1].latency, MilliSeconds(5));
    ASSERT_EQ(log.results.size(), 2U);
    for (const auto& r : log.results)
    {
        EXPECT_EQ(r.addrs, std::vector<AdcIpAddress>{AdcIpAddress(kSiteA)});
    }
    EXPECT_EQ(net.server->GetMisses(), 2U);
    EXPECT_EQ(net.server->GetForwards(), 1U);
}

// REQ: GSLB-02 (a name outside every zone: REFUSED, RA clear, nothing forwarded)
TEST(AdcLdnsServer, NameOutsideEveryZoneIsRefused)
{
    Star net;
    Log log;
    net.Adns(2, {"www.contoso.com"});
    log.Attach(net.server);
    log.Ask(net.resolver, Seconds(1), "www.fabrikam.com");
    log.Ask(net.resolver, Seconds(2), "contoso.com.evil.org"); // a suffix match is by labels
    RunUntil(Seconds(3));

    EXPECT_TRUE(log.fwds.empty());
    ASSERT_EQ(log.answers.size(), 2U);
    for (const auto& a : log.answers)
    {
        EXPECT_EQ(a.response.rcode, AdcDnsMessage::REFUSED);
        EXPECT_FALSE(a.response.ra);
    }
    ASSERT_EQ(log.results.size(), 2U);
    EXPECT_EQ(log.results[0].rcode, AdcDnsMessage::REFUSED);
}

// REQ: GSLB-02 (RFC 2308: NXDOMAIN cached for NegativeTtl)
TEST(AdcLdnsServer, NxdomainIsCachedForNegativeTtl)
{
    Star net;
    Log log;
    net.server->SetAttribute("ServerSelection", StringValue("FIRST"));
    net.server->SetAttribute("NegativeTtl", TimeValue(Seconds(5)));
    net.Adns(2, {"www.contoso.com"});
    log.Attach(net.server);
    log.Ask(net.resolver, Seconds(1), "nowhere.contoso.com");
    log.Ask(net.resolver, Seconds(3), "nowhere.contoso.com"); // within 5 s
    log.Ask(net.resolver, Seconds(8), "nowhere.contoso.com"); // after
    RunUntil(Seconds(10));

    EXPECT_EQ(log.hits, (std::vector<bool>{false, true, false}));
    EXPECT_EQ(log.fwds.size(), 2U);
    ASSERT_EQ(log.results.size(), 3U);
    for (const auto& r : log.results)
    {
        EXPECT_EQ(r.rcode, AdcDnsMessage::NXDOMAIN);
    }
}

// REQ: GSLB-02 (malformed client messages: dropped with a reason, or FORMERR)
TEST(AdcLdnsServer, MalformedClientMessagesDroppedOrFormerr)
{
    Star net;
    Log log;
    log.Attach(net.server);
    Ptr<Socket> raw = Socket::CreateSocket(net.nodes.Get(0), UdpSocketFactory::GetTypeId());
    raw->Bind();
    std::vector<std::vector<uint8_t>> got;
    raw->SetRecvCallback(Callback<void, Ptr<Socket>>([&got](Ptr<Socket> s) {
        while (Ptr<Packet> p = s->Recv())
        {
            std::vector<uint8_t> b(p->GetSize());
            p->CopyData(b.data(), b.size());
            got.push_back(b);
        }
    }));
    const Address to = InetSocketAddress(net.ldns, 53);
    Simulator::Schedule(Seconds(1), [raw, to]() {
        const uint8_t shortBytes[5] = {1, 2, 3, 4, 5};
        raw->SendTo(Create<Packet>(shortBytes, 5), 0, to);
        // A header announcing one question, then a truncated name: not a valid message.
        const uint8_t bad[16] = {0xAB, 0xCD, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 5, 'w', 'w', 'w'};
        raw->SendTo(Create<Packet>(bad, 16), 0, to);
    });
    RunUntil(Seconds(2));

    ASSERT_EQ(log.drops.size(), 1U);
    EXPECT_NE(log.drops[0].find("12-byte"), std::string::npos);
    ASSERT_EQ(got.size(), 1U);
    auto r = AdcDnsMessage::Parse(got[0]);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->id, 0xABCD);
    EXPECT_TRUE(r->qr);
    EXPECT_EQ(r->rcode, AdcDnsMessage::FORMERR);
    EXPECT_EQ(net.server->GetDrops(), 1U);
}

// REQ: GSLB-03 (the LDNS answers DNS over TCP too: what the ldns-tcp probe connects to)
TEST(AdcLdnsServer, AnswersPipelinedQueriesOverTcp)
{
    Star net;
    Log log;
    net.Adns(2, {"www.contoso.com"});
    net.Adns(3, {"www.contoso.com"});
    log.Attach(net.server);
    // Two queries in one segment (RFC 7766 pipelining), the same question in two cases.
    std::string bytes;
    for (auto [id, name] :
         {std::make_pair(0x1234, "www.contoso.com"), std::make_pair(0x5678, "WWW.contoso.com")})
    {
        const auto frame = AdcDnsTcpFrame(
            AdcDnsMessage::MakeQuery(static_cast<uint16_t>(id), name, AdcDnsMessage::TYPE_A)
                .Serialize());
        bytes.append(frame.begin(), frame.end());
    }
    adctest::RawPeer peer;
    peer.toSend = bytes;
    peer.ConnectAt(Seconds(1), net.nodes.Get(0), InetSocketAddress(net.ldns, 53));
    RunUntil(Seconds(3));

    EXPECT_EQ(log.fwds.size(), 1U); // the second joined the first
    AdcDnsTcpFramer framer;
    const auto frames = framer.Feed(std::vector<uint8_t>(peer.rx.begin(), peer.rx.end()));
    ASSERT_EQ(frames.size(), 2U);
    std::vector<uint16_t> ids;
    for (const auto& f : frames)
    {
        auto r = AdcDnsMessage::Parse(f);
        ASSERT_TRUE(r);
        ids.push_back(r->id);
        EXPECT_EQ(r->rcode, AdcDnsMessage::NOERROR);
        ASSERT_EQ(r->answers.size(), 1U);
        EXPECT_EQ(r->answers[0].GetA(), kSiteA);
    }
    EXPECT_EQ(ids, (std::vector<uint16_t>{0x1234, 0x5678}));
}

// Every trace source cites its typedef, and a sink of that signature connects.
TEST(AdcLdnsServer, TraceSourcesMatchTheirTypedefs)
{
    auto s = CreateObject<AdcLdnsServer>();
    const TypeId tid = AdcLdnsServer::GetTypeId();
    EXPECT_EQ(tid.GetTraceSourceN(), 4U);
    EXPECT_EQ(CitedTypedef(tid, "Query"), "ns3::AdcLdnsServer::QueryTracedCallback");
    EXPECT_EQ(CitedTypedef(tid, "Forward"), "ns3::AdcLdnsServer::ForwardTracedCallback");
    EXPECT_EQ(CitedTypedef(tid, "Answer"), "ns3::AdcLdnsServer::AnswerTracedCallback");
    EXPECT_EQ(CitedTypedef(tid, "Drop"), "ns3::AdcLdnsServer::DropTracedCallback");
    using L = AdcLdnsServer;
    EXPECT_TRUE(
        s->TraceConnectWithoutContext("Query", MakeCallback(&SinkOf<L::QueryTracedCallback>::Fn)));
    EXPECT_TRUE(s->TraceConnectWithoutContext("Forward",
                                              MakeCallback(&SinkOf<L::ForwardTracedCallback>::Fn)));
    EXPECT_TRUE(s->TraceConnectWithoutContext("Answer",
                                              MakeCallback(&SinkOf<L::AnswerTracedCallback>::Fn)));
    EXPECT_TRUE(
        s->TraceConnectWithoutContext("Drop", MakeCallback(&SinkOf<L::DropTracedCallback>::Fn)));
}

// Bad zone settings are configuration errors naming the setting.
TEST(AdcLdnsServer, BadZonesAreConfigErrors)
{
    auto s = CreateObject<AdcLdnsServer>();
    EXPECT_TRUE(adctest::HasAll(adctest::ConfigErrorOf([&]() { s->AddZone(kZone, {}); }),
                                {"AddZone", kZone, "no servers"}));
    EXPECT_TRUE(adctest::HasAll(adctest::ConfigErrorOf([&]() { s->AddZone(kZone, {Address()}); }),
                                {"AddZone", "server 0", "InetSocketAddress"}));
    EXPECT_NE(adctest::ConfigErrorOf(
                  [&]() { s->AddZone(std::string(64, 'x') + ".com", {Ipv4Address("10.0.0.1")}); }),
              "");
    EXPECT_EQ(adctest::ConfigErrorOf([&]() { s->AddZone(".", {Ipv4Address("10.0.0.1")}); }), "");
}
