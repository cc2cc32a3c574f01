/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ADNS's zones (model/apps/adc-dns-server.h, model/gslb/gslb-adns.h) against the DNS RFCs:
 * a client node sends hand-made queries from a raw UDP socket (or a TCP socket) to a GSLB
 * site's ADNS configured from NetScaler lines (`add dns soaRec`, `add dns nsRec`, `add dns
 * cnameRec`, a bound GSLB domain) and reads the responses' bytes. Expected RCODEs, flags and
 * sections are the RFCs' (each test names its section), the SOA values the configuration's
 * or NetScaler's documented defaults.
 */

// REQ: GSLB-02 (the appliance is the authoritative DNS of the GSLB domain)

#include "adc-test-fixtures.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-ldns-server.h"
#include "ns3/adc-netscaler-gslb-commands.h"
#include "ns3/adc-netscaler-gslb-dns.h"
#include "ns3/core-module.h"
#include "ns3/gslb-adns.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using GS = AdcNetScalerGslbCommands;
using M = AdcDnsMessage;

const Ipv4Address kSvc("192.0.2.10"); //!< the GSLB service's address

/// The site: zone example.com (SOA MINIMUM 30, TTL 600), its NS, two CNAMEs, the GSLB domain
/// www.gslb.example.com below an empty non-terminal, and www.other.test with no soaRec.
const std::string kConfig =
    "add gslb site site-a 10.1.1.2 -siteType LOCAL\n"
    "add gslb service svc-a 192.0.2.10 HTTP 80 -siteName site-a\n"
    "add gslb vserver gslb-vs HTTP -lbMethod ROUNDROBIN\n"
    "bind gslb vserver gslb-vs -serviceName svc-a\n"
    "bind gslb vserver gslb-vs -domainName www.gslb.example.com -TTL 5\n"
    "add gslb vserver gslb-other HTTP -lbMethod ROUNDROBIN\n"
    "bind gslb vserver gslb-other -serviceName svc-a\n"
    "bind gslb vserver gslb-other -domainName www.other.test -TTL 5\n"
    "add dns soaRec example.com -originServer ns1.example.com -contact admin.example.com "
    "-serial 7 -refresh 1200 -retry 60 -expire 86400 -minimum 30 -TTL 600\n"
    "add dns nsRec example.com ns1.example.com -TTL 900\n"
    "add dns cnameRec alias.example.com www.gslb.example.com -TTL 300\n"
    "add dns cnameRec dangling.example.com missing.example.com\n"
    "add dns cnameRec away.example.com www.example.org\n";

/// The client node (0, 10.1.1.1) and the ADNS node (1, 10.1.1.2) on one link.
struct Zone
{
    NodeContainer nodes;
    AdcConfigReader reader{GS::GetLanguage()};
    Ptr<GslbAdns> adns;
    Ptr<Socket> udp;                    //!< the client's raw UDP socket
    std::vector<std::vector<uint8_t>> raw; //!< responses' bytes, in order
    std::vector<std::string> malformed; //!< the "Malformed" trace's reasons

    explicit Zone(uint32_t maxUdpPayload = 1280)
    {
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer devs = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper ip;
        ip.SetBase("10.1.1.0", "255.255.255.0");
        ip.Assign(devs);
        reader.ReadString(kConfig, "site-a.ns.conf");
        GS::Validate(reader.GetStore());
        adns = CreateObject<GslbAdns>();
        adns->SetAttribute("MaxUdpPayload", UintegerValue(maxUdpPayload));
        for (const auto& v : reader.GetStore().GetAll<GslbVserverConfig>(GS::GSLB_VSERVER))
        {
            adns->AddVserver(v);
        }
        adns->AddDnsRecords(reader.GetStore());
        nodes.Get(1)->AddApplication(adns);
        adns->TraceConnectWithoutContext(
            "Malformed",
            Callback<void, const Address&, const std::string&>(
                [this](const Address&, const std::string& why) { malformed.push_back(why); }));
        udp = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        udp->Bind(InetSocketAddress(Ipv4Address::GetAny(), 40000));
        udp->SetRecvCallback(MakeCallback(&Zone::Receive, this));
    }

    void Receive(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            std::vector<uint8_t> b(p->GetSize());
            p->CopyData(b.data(), b.size());
            raw.push_back(b);
        }
    }

    /// Send \p bytes to the ADNS at \p when.
    void Send(Time when, const std::vector<uint8_t>& bytes)
    {
        Ptr<Socket> s = udp;
        Simulator::Schedule(when, [s, bytes]() {
            s->SendTo(Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())),
                      0,
                      InetSocketAddress(Ipv4Address("10.1.1.2"), 53));
        });
    }

    /// Send a query for \p name / \p qtype (RD clear), with an OPT of \p edns when given.
    void Ask(Time when,
             const std::string& name,
             uint16_t qtype,
             std::optional<AdcDnsEdns> edns = std::nullopt)
    {
        M q = M::MakeQuery(static_cast<uint16_t>(raw.size() + 100), name, qtype, false);
        if (edns)
        {
            q.additional.push_back(edns->ToRecord());
        }
        Send(when, q.Serialize());
    }

    /// \return the \p i-th response, parsed (a test failure when it does not parse)
    M Response(std::size_t i) const
    {
        std::string error;
        std::optional<M> m = M::Parse(raw.at(i), &error);
        EXPECT_TRUE(m.has_value()) << error;
        return m.value_or(M());
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

/// \return the OPT records of \p m's additional section
std::vector<AdcDnsEdns>
Opts(const M& m)
{
    std::vector<AdcDnsEdns> out;
    for (const auto& rr : m.additional)
    {
        if (rr.type == M::TYPE_OPT)
        {
            out.push_back(*AdcDnsEdns::FromRecord(rr));
        }
    }
    return out;
}

/// \return an EDNS(0) OPT announcing \p payload bytes, version \p version
AdcDnsEdns
Edns(uint16_t payload, uint8_t version = 0)
{
    AdcDnsEdns e;
    e.udpPayload = payload;
    e.version = version;
    return e;
}

/// Expect \p m to be a negative answer of zone example.com's configured SOA (RFC 2308 3).
void
ExpectSoaAuthority(const M& m, const std::string& apex, uint32_t ttl)
{
    ASSERT_EQ(m.authority.size(), 1U);
    EXPECT_EQ(m.authority[0].type, M::TYPE_SOA);
    EXPECT_TRUE(AdcDnsName::Equal(m.authority[0].name, apex)) << m.authority[0].name;
    EXPECT_EQ(m.authority[0].ttl, ttl);
}

} // namespace

// REQ: GSLB-02. RFC 2308 section 3: NXDOMAIN and NODATA carry the zone's SOA in the authority
// section, TTL = min(SOA TTL, SOA MINIMUM) = min(600, 30) = 30; AA set (RFC 1035 4.1.1).
TEST(GslbDnsZone, NegativeAnswersCarryTheSoa)
{
    Zone z;
    z.Ask(Seconds(1), "nosuch.example.com", M::TYPE_A);
    z.Ask(Seconds(1.1), "www.gslb.example.com", M::TYPE_AAAA); // the domain has A only
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 2U);
    const M nx = z.Response(0);
    EXPECT_EQ(nx.rcode, M::NXDOMAIN);
    EXPECT_TRUE(nx.aa);
    EXPECT_TRUE(nx.answers.empty());
    ExpectSoaAuthority(nx, "example.com", 30);
    const std::optional<AdcDnsSoa> soa = AdcDnsSoa::FromRecord(nx.authority.at(0));
    ASSERT_TRUE(soa.has_value());
    EXPECT_TRUE(AdcDnsName::Equal(soa->mname, "ns1.example.com"));
    EXPECT_TRUE(AdcDnsName::Equal(soa->rname, "admin.example.com"));
    EXPECT_EQ(soa->serial, 7U);
    EXPECT_EQ(soa->refresh, 1200U);
    EXPECT_EQ(soa->retry, 60U);
    EXPECT_EQ(soa->expire, 86400U);
    EXPECT_EQ(soa->minimum, 30U);
    const M nodata = z.Response(1);
    EXPECT_EQ(nodata.rcode, M::NOERROR);
    EXPECT_TRUE(nodata.aa);
    EXPECT_TRUE(nodata.answers.empty());
    ExpectSoaAuthority(nodata, "example.com", 30);
}

// REQ: GSLB-02. RFC 1034 section 4.3.2 step 2: a name in none of the server's zones is not
// answered authoritatively: REFUSED, AA clear, no records (the root included).
TEST(GslbDnsZone, RefusedOutsideTheZones)
{
    Zone z;
    z.Ask(Seconds(1), "www.example.org", M::TYPE_A);
    z.Ask(Seconds(1.1), ".", M::TYPE_NS);
    z.Ask(Seconds(1.2), "other.test", M::TYPE_A); // parent of a generated zone's apex
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i)
    {
        const M r = z.Response(i);
        EXPECT_EQ(r.rcode, M::REFUSED) << i;
        EXPECT_FALSE(r.aa) << i;
        EXPECT_TRUE(r.answers.empty() && r.authority.empty() && r.additional.empty()) << i;
        EXPECT_EQ(r.questions.size(), 1U) << i;
    }
}

// REQ: GSLB-02. RFC 8020 section 2 (and RFC 4592 section 2.2.2): gslb.example.com owns no
// record but www.gslb.example.com exists below it: NOERROR with no answer (NODATA) and the SOA.
TEST(GslbDnsZone, EmptyNonTerminalIsNodata)
{
    Zone z;
    z.Ask(Seconds(1), "gslb.example.com", M::TYPE_A);
    z.Ask(Seconds(1.1), "GSLB.Example.COM", M::TYPE_TXT); // names ignore case (RFC 4343)
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 2U);
    for (std::size_t i = 0; i < 2; ++i)
    {
        const M r = z.Response(i);
        EXPECT_EQ(r.rcode, M::NOERROR) << i;
        EXPECT_TRUE(r.aa) << i;
        EXPECT_TRUE(r.answers.empty()) << i;
        ExpectSoaAuthority(r, "example.com", 30);
    }
}

// REQ: GSLB-02. RFC 1035 sections 3.3.11 and 3.3.13: the apex's SOA and NS are answered with
// the configured values and TTLs.
TEST(GslbDnsZone, SoaAndNsAtTheApex)
{
    Zone z;
    z.Ask(Seconds(1), "example.com", M::TYPE_SOA);
    z.Ask(Seconds(1.1), "example.com", M::TYPE_NS);
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 2U);
    const M soa = z.Response(0);
    EXPECT_EQ(soa.rcode, M::NOERROR);
    EXPECT_TRUE(soa.aa);
    ASSERT_EQ(soa.answers.size(), 1U);
    EXPECT_EQ(soa.answers[0].type, M::TYPE_SOA);
    EXPECT_EQ(soa.answers[0].ttl, 600U);
    EXPECT_EQ(AdcDnsSoa::FromRecord(soa.answers[0])->serial, 7U);
    const M ns = z.Response(1);
    ASSERT_EQ(ns.answers.size(), 1U);
    EXPECT_EQ(ns.answers[0].type, M::TYPE_NS);
    EXPECT_EQ(ns.answers[0].ttl, 900U);
    EXPECT_TRUE(AdcDnsName::Equal(*ns.answers[0].GetTargetName(), "ns1.example.com"));
}

// REQ: GSLB-02. RFC 1034 sections 3.6.2 and 4.3.2 step 3a: a CNAME answers other types and
// the server goes on with the canonical name in its zone; RFC 6604 section 2: the RCODE is
// the last name's (NXDOMAIN for a dangling target, with the SOA, RFC 2308 section 2.1).
TEST(GslbDnsZone, CnameIsChasedWithinTheZone)
{
    Zone z;
    z.Ask(Seconds(1), "alias.example.com", M::TYPE_A);
    z.Ask(Seconds(1.1), "alias.example.com", M::TYPE_CNAME);
    z.Ask(Seconds(1.2), "dangling.example.com", M::TYPE_A);
    z.Ask(Seconds(1.3), "away.example.com", M::TYPE_A);
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 4U);
    const M chased = z.Response(0);
    EXPECT_EQ(chased.rcode, M::NOERROR);
    EXPECT_TRUE(chased.aa);
    ASSERT_EQ(chased.answers.size(), 2U);
    EXPECT_EQ(chased.answers[0].type, M::TYPE_CNAME);
    EXPECT_EQ(chased.answers[0].ttl, 300U);
    EXPECT_TRUE(AdcDnsName::Equal(chased.answers[0].name, "alias.example.com"));
    EXPECT_TRUE(AdcDnsName::Equal(*chased.answers[0].GetTargetName(), "www.gslb.example.com"));
    EXPECT_TRUE(AdcDnsName::Equal(chased.answers[1].name, "www.gslb.example.com"));
    EXPECT_EQ(chased.answers[1].GetA(), std::optional<Ipv4Address>(kSvc));
    EXPECT_EQ(chased.answers[1].ttl, 5U);
    const M cname = z.Response(1); // QTYPE CNAME: the record itself, nothing chased
    ASSERT_EQ(cname.answers.size(), 1U);
    EXPECT_EQ(cname.answers[0].type, M::TYPE_CNAME);
    const M dangling = z.Response(2);
    EXPECT_EQ(dangling.rcode, M::NXDOMAIN);
    ASSERT_EQ(dangling.answers.size(), 1U);
    EXPECT_EQ(dangling.answers[0].type, M::TYPE_CNAME);
    ExpectSoaAuthority(dangling, "example.com", 30);
    const M away = z.Response(3); // target outside the zone: the resolver goes on
    EXPECT_EQ(away.rcode, M::NOERROR);
    ASSERT_EQ(away.answers.size(), 1U);
    EXPECT_EQ(away.answers[0].type, M::TYPE_CNAME);
    EXPECT_TRUE(away.authority.empty());
}

// REQ: GSLB-02. A bound domain no soaRec covers gets a zone of its own with NetScaler's `add
// dns soaRec` defaults (NITRO dnssoarec: serial 100, refresh 3600, retry 3, expire 3600,
// minimum 5) and TTL 3600, so its negative answers carry an SOA of TTL min(3600, 5) = 5.
TEST(GslbDnsZone, GeneratedZoneForAnUncoveredDomain)
{
    Zone z;
    z.Ask(Seconds(1), "x.www.other.test", M::TYPE_A);
    z.Ask(Seconds(1.1), "www.other.test", M::TYPE_NS);
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 2U);
    const M nx = z.Response(0);
    EXPECT_EQ(nx.rcode, M::NXDOMAIN);
    EXPECT_TRUE(nx.aa);
    ExpectSoaAuthority(nx, "www.other.test", 5);
    const std::optional<AdcDnsSoa> soa = AdcDnsSoa::FromRecord(nx.authority.at(0));
    ASSERT_TRUE(soa.has_value());
    EXPECT_EQ(soa->serial, 100U);
    EXPECT_EQ(soa->refresh, 3600U);
    EXPECT_EQ(soa->retry, 3U);
    EXPECT_EQ(soa->expire, 3600U);
    EXPECT_EQ(soa->minimum, 5U);
    const M ns = z.Response(1);
    EXPECT_EQ(ns.rcode, M::NOERROR);
    ASSERT_EQ(ns.answers.size(), 1U);
    EXPECT_EQ(ns.answers[0].ttl, 3600U);
    EXPECT_EQ(z.adns->GetGeneratedZones(), std::vector<std::string>{"www.other.test"});
}

// REQ: GSLB-02. RFC 6891 sections 6.1.1, 6.1.3, 6.2.3 and 7: an OPT in a query gets one in the
// response (VERSION 0, the responder's payload size); VERSION 1 gets BADVERS (extended RCODE
// 16: header RCODE 0, OPT's upper bits 1) and no answer; two OPTs get FORMERR without an OPT.
TEST(GslbDnsZone, Edns)
{
    Zone z;
    z.Ask(Seconds(1), "www.gslb.example.com", M::TYPE_A, Edns(4096));
    z.Ask(Seconds(1.1), "www.gslb.example.com", M::TYPE_A, Edns(4096, 1));
    M two = M::MakeQuery(9, "www.gslb.example.com", M::TYPE_A, false);
    two.additional.push_back(Edns(4096).ToRecord());
    two.additional.push_back(Edns(1232).ToRecord());
    z.Send(Seconds(1.2), two.Serialize());
    z.Ask(Seconds(1.3), "www.gslb.example.com", M::TYPE_A); // no OPT: none back
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 4U);
    const M ok = z.Response(0);
    EXPECT_EQ(ok.rcode, M::NOERROR);
    ASSERT_EQ(ok.answers.size(), 1U);
    ASSERT_EQ(Opts(ok).size(), 1U);
    EXPECT_EQ(Opts(ok)[0].version, 0);
    EXPECT_EQ(Opts(ok)[0].extendedRcode, 0);
    EXPECT_EQ(Opts(ok)[0].udpPayload, 1280); // MaxUdpPayload
    const M badvers = z.Response(1);
    EXPECT_EQ(badvers.rcode, 0); // the lower 4 bits of 16
    ASSERT_EQ(Opts(badvers).size(), 1U);
    EXPECT_EQ(Opts(badvers)[0].extendedRcode, 1); // the upper 8 bits of 16
    EXPECT_EQ(Opts(badvers)[0].version, 0);
    EXPECT_TRUE(badvers.answers.empty());
    const M formerr = z.Response(2);
    EXPECT_EQ(formerr.rcode, M::FORMERR);
    EXPECT_EQ(formerr.id, 9);
    EXPECT_TRUE(Opts(formerr).empty());
    ASSERT_EQ(z.malformed.size(), 1U);
    EXPECT_TRUE(adctest::Has(z.malformed[0], "more than one OPT"));
    EXPECT_TRUE(Opts(z.Response(3)).empty());
}

// REQ: GSLB-02. UDP size limits: 512 bytes without EDNS (RFC 1035 4.2.1); with EDNS the
// requester's size, 512 at least (RFC 6891 6.2.5), capped by the server's maximum (6.2.3);
// longer answers are cut with TC set and the OPT kept (RFC 6891 7); an answer above 64 KiB
// is truncated too, never SERVFAIL (RFC 2181 section 9).
TEST(GslbDnsZone, UdpSizeLimitsAndTruncation)
{
    Zone z;
    for (uint32_t i = 0; i < 100; ++i) // 100 x 16 bytes of A records: 1600+ bytes
    {
        z.adns->AddRecord(
            AdcDnsResourceRecord::A("big.example.com", Ipv4Address(0xC6336400 + i), 60));
    }
    for (uint32_t i = 0; i < 5000; ++i) // 80000+ bytes
    {
        z.adns->AddRecord(
            AdcDnsResourceRecord::A("huge.example.com", Ipv4Address(0xCB007100 + i), 60));
    }
    z.Ask(Seconds(1), "big.example.com", M::TYPE_A);
    z.Ask(Seconds(1.1), "big.example.com", M::TYPE_A, Edns(4096));
    z.Ask(Seconds(1.2), "big.example.com", M::TYPE_A, Edns(1000));
    z.Ask(Seconds(1.3), "big.example.com", M::TYPE_A, Edns(100));
    z.Ask(Seconds(1.4), "huge.example.com", M::TYPE_A);
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 5U);
    const std::size_t limits[] = {512, 1280, 1000, 512, 512};
    for (std::size_t i = 0; i < 5; ++i)
    {
        EXPECT_LE(z.raw[i].size(), limits[i]) << i;
        EXPECT_GT(z.raw[i].size(), limits[i] - 16) << i; // as many records as fit
        const M r = z.Response(i);
        EXPECT_TRUE(r.tc) << i;
        EXPECT_EQ(r.rcode, M::NOERROR) << i;
        EXPECT_EQ(Opts(r).size(), (i == 1 || i == 2 || i == 3) ? 1U : 0U) << i;
    }
}

// REQ: GSLB-02. With a larger server maximum the whole 100-record answer fits (RFC 6891 6.2.5).
TEST(GslbDnsZone, EdnsPayloadUpToTheConfiguredMaximum)
{
    Zone z(4096);
    for (uint32_t i = 0; i < 100; ++i)
    {
        z.adns->AddRecord(
            AdcDnsResourceRecord::A("big.example.com", Ipv4Address(0xC6336400 + i), 60));
    }
    z.Ask(Seconds(1), "big.example.com", M::TYPE_A, Edns(4096));
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 1U);
    const M r = z.Response(0);
    EXPECT_FALSE(r.tc);
    EXPECT_EQ(r.answers.size(), 100U);
}

// REQ: GSLB-02. RFC 1035 4.1.1: a query that does not parse is answered FORMERR (header echoed,
// no question), and the model traces why.
TEST(GslbDnsZone, MalformedQueryIsFormerrWithAReason)
{
    Zone z;
    std::vector<uint8_t> q = M::MakeQuery(0x4242, "www.gslb.example.com").Serialize();
    q.push_back(0xAB); // a trailing byte
    z.Send(Seconds(1), q);
    RunUntil(Seconds(2));
    ASSERT_EQ(z.raw.size(), 1U);
    const M r = z.Response(0);
    EXPECT_EQ(r.rcode, M::FORMERR);
    EXPECT_EQ(r.id, 0x4242);
    EXPECT_TRUE(r.questions.empty());
    ASSERT_EQ(z.malformed.size(), 1U);
    EXPECT_TRUE(adctest::Has(z.malformed[0], "trailing"));
    EXPECT_EQ(z.adns->GetMalformed(), 1U);
}

// REQ: GSLB-02. RFC 7766 section 6.2.3: the server closes a TCP connection idle for its
// timeout ("TcpIdleTimeout", 10 s by default), counted from the last data received.
TEST(GslbDnsZone, TcpIdleTimeout)
{
    Zone z;
    Ptr<Socket> tcp = Socket::CreateSocket(z.nodes.Get(0), TcpSocketFactory::GetTypeId());
    Time closedAt;
    std::string got;
    tcp->SetCloseCallbacks(Callback<void, Ptr<Socket>>([&closedAt](Ptr<Socket>) {
                               closedAt = Simulator::Now();
                           }),
                           Callback<void, Ptr<Socket>>([](Ptr<Socket>) {}));
    tcp->SetRecvCallback(Callback<void, Ptr<Socket>>([&got](Ptr<Socket> s) {
        while (Ptr<Packet> p = s->Recv())
        {
            got += std::to_string(p->GetSize()) + " ";
        }
    }));
    Simulator::Schedule(Seconds(1), [tcp]() {
        tcp->Bind();
        tcp->Connect(InetSocketAddress(Ipv4Address("10.1.1.2"), 53));
    });
    Simulator::Schedule(Seconds(2), [tcp]() {
        const auto frame = AdcDnsTcpFrame(M::MakeQuery(1, "www.gslb.example.com").Serialize());
        tcp->Send(Create<Packet>(frame.data(), static_cast<uint32_t>(frame.size())));
    });
    RunUntil(Seconds(20));
    EXPECT_FALSE(got.empty()); // the query was answered
    // Last data received at 2 s + one-way delay: closed 10 s later (the FIN's flight added).
    EXPECT_GE(closedAt, Seconds(12));
    EXPECT_LT(closedAt, Seconds(12.1));
}

// REQ: GSLB-02. NetScaler's `add dns soaRec` without optional parameters takes the documented
// defaults (NITRO dnssoarec: serial 100, refresh 3600, retry 3, expire 3600, minimum 5); the
// checks name the line, and Show reads back.
TEST(GslbDnsZone, SoaRecCommandDefaultsAndErrors)
{
    AdcConfigReader r(GS::GetLanguage());
    r.ReadString("add dns soaRec gslb.example -originServer ns.gslb.example -contact "
                 "admin.gslb.example\n"
                 "add dns nsRec gslb.example ns.gslb.example\n",
                 "a.conf");
    const std::vector<AdcDnsResourceRecord> rrs = AdcNetScalerGslbDns::GetRecords(r.GetStore());
    ASSERT_EQ(rrs.size(), 2U);
    const AdcDnsSoa soa = *AdcDnsSoa::FromRecord(rrs[0]);
    EXPECT_EQ(soa.serial, 100U);
    EXPECT_EQ(soa.refresh, 3600U);
    EXPECT_EQ(soa.retry, 3U);
    EXPECT_EQ(soa.expire, 3600U);
    EXPECT_EQ(soa.minimum, 5U);
    EXPECT_EQ(rrs[1].type, M::TYPE_NS);
    AdcConfigReader again(GS::GetLanguage());
    again.ReadString(r.Show(), "shown.conf");
    EXPECT_EQ(AdcNetScalerGslbDns::GetRecords(again.GetStore()), rrs);

    const auto error = [](const std::string& text) {
        try
        {
            AdcConfigReader e(GS::GetLanguage());
            e.ReadString(text, "bad.conf");
        }
        catch (const AdcConfigFileError& x)
        {
            return std::string(x.what());
        }
        return std::string();
    };
    EXPECT_TRUE(adctest::HasAll(error("add dns soaRec gslb.example -originServer ns.x\n"),
                                {"bad.conf:1", "-contact"}));
    EXPECT_TRUE(adctest::HasAll(error("add dns nsRec a.example ns.example\n"
                                      "add dns cnameRec a.example b.example\n"),
                                {"bad.conf:2", "a.example", "3.6.2"}));
    EXPECT_TRUE(adctest::HasAll(error("add dns soaRec g.example -originServer n -contact c "
                                      "-minimum 2147483648\n"),
                                {"bad.conf:1", "-minimum", "2147483648"}));
    EXPECT_TRUE(adctest::HasAll(error("add dns cnameRec bad..name b.example\n"),
                                {"bad.conf:1", "bad..name"}));
}

// REQ: GSLB-02. RFC 2308 section 5: the LDNS passes on the SOA of a negative answer and caches
// the answer for min(SOA TTL, SOA MINIMUM) = min(600, 30) = 30 s, not its fixed NegativeTtl
// (60 s); from the cache the SOA's TTL is decremented (RFC 1035 3.2.1: whole seconds left).
TEST(GslbDnsZone, LdnsCachesNegativeAnswersForTheSoaMinimum)
{
    Zone z;
    Ptr<AdcLdnsServer> ldns = CreateObject<AdcLdnsServer>();
    ldns->AddZone("example.com", {InetSocketAddress(Ipv4Address("10.1.1.2"), 53)});
    ldns->AssignStreams(1);
    z.nodes.Get(0)->AddApplication(ldns);
    const auto ask = [&z](Time when) {
        Ptr<Socket> s = z.udp;
        const auto q = M::MakeQuery(7, "nosuch.example.com", M::TYPE_A, true).Serialize();
        Simulator::Schedule(when, [s, q]() {
            s->SendTo(Create<Packet>(q.data(), static_cast<uint32_t>(q.size())),
                      0,
                      InetSocketAddress(Ipv4Address("10.1.1.1"), 53));
        });
    };
    ask(Seconds(1));    // a miss: asked upstream
    ask(Seconds(11.5)); // a hit, 10.5 s later
    ask(Seconds(31.5)); // 30.5 s after the answer: expired, asked again
    RunUntil(Seconds(33));
    ASSERT_EQ(z.raw.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i)
    {
        const M r = z.Response(i);
        EXPECT_EQ(r.rcode, M::NXDOMAIN) << i;
        EXPECT_FALSE(r.aa) << i; // the LDNS is not authoritative
        ASSERT_EQ(r.authority.size(), 1U) << i;
        EXPECT_EQ(r.authority[0].type, M::TYPE_SOA) << i;
    }
    EXPECT_EQ(z.Response(0).authority[0].ttl, 30U);
    EXPECT_EQ(z.Response(1).authority[0].ttl, 19U); // 30 - 10.5 s, rounded down
    EXPECT_EQ(z.Response(2).authority[0].ttl, 30U);
    EXPECT_EQ(ldns->GetForwards(), 2U);
    EXPECT_EQ(ldns->GetHits(), 1U);
}
