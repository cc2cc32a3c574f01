/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the DNS message wire format (model/wire/adc-dns-message.h): golden bytes
 * written field by field from RFC 1035 section 4's layouts, name compression (4.1.4), parsing
 * of hand-made compressed messages, each rejection with its byte offset, random round trips,
 * UDP truncation (4.2.1), TCP framing (4.2.2) split at every byte, and a pcap that tshark
 * (Wireshark) must decode as DNS.
 */

// REQ: GSLB-02 (the appliance is the authoritative DNS: its answers are real DNS on the wire)
// REQ: GSLB-06 (DNS probes: an error response, e.g. NXDOMAIN or REFUSED, is a valid reply)

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

using adctest::Cat;

/// \param text ASCII \return its bytes
Bytes
Ascii(const std::string& text)
{
    return Bytes(text.begin(), text.end());
}

/// "www.example.com" uncompressed: 3www7example3com0 (RFC 1035 section 3.1)
Bytes
WwwExampleCom()
{
    return Cat({{3}, Ascii("www"), {7}, Ascii("example"), {3}, Ascii("com"), {0}});
}

/// The golden query: ID 0x1234, RD, one question www.example.com A IN.
Bytes
GoldenQuery()
{
    return Cat({{0x12, 0x34}, // ID
                {0x01, 0x00}, // QR=0 Opcode=0 AA=0 TC=0 RD=1 | RA=0 Z=0 RCODE=0
                {0x00, 0x01}, // QDCOUNT 1
                {0x00, 0x00}, // ANCOUNT 0
                {0x00, 0x00}, // NSCOUNT 0
                {0x00, 0x00}, // ARCOUNT 0
                WwwExampleCom(),
                {0x00, 0x01},   // QTYPE A
                {0x00, 0x01}}); // QCLASS IN
}

/// \param b bytes \return the parse error ("" when it parses)
std::string
ErrorOf(const Bytes& b)
{
    std::string error;
    const auto m = AdcDnsMessage::Parse(b, &error);
    EXPECT_EQ(m.has_value(), error.empty()) << error;
    return error;
}

/// A header with QDCOUNT 1 and nothing else, for hand-made questions.
Bytes
OneQuestionHeader()
{
    return {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
}

} // namespace

// ------------------------------------------------------------------------- golden bytes

TEST(AdcDnsMessage, GoldenQueryBytes)
{
    const AdcDnsMessage q = AdcDnsMessage::MakeQuery(0x1234, "www.example.com");
    const Bytes wire = q.Serialize();
    EXPECT_EQ(wire, GoldenQuery());
    EXPECT_EQ(wire.size(), 12u + 17u + 4u);
    const auto back = AdcDnsMessage::Parse(wire);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, q);
    EXPECT_FALSE(back->qr);
    EXPECT_TRUE(back->rd);
    ASSERT_EQ(back->questions.size(), 1u);
    EXPECT_EQ(back->questions[0].name, "www.example.com");
    EXPECT_EQ(back->questions[0].qtype, AdcDnsMessage::TYPE_A);
    EXPECT_EQ(back->questions[0].qclass, AdcDnsMessage::CLASS_IN);
}

// REQ: GSLB-02
TEST(AdcDnsMessage, GoldenResponseBytesCompressed)
{
    const AdcDnsMessage q = AdcDnsMessage::MakeQuery(0x1234, "www.example.com");
    AdcDnsMessage r = AdcDnsMessage::MakeResponse(q, AdcDnsMessage::NOERROR, true);
    r.answers.push_back(AdcDnsResourceRecord::A("www.example.com", Ipv4Address("192.0.2.1"), 300));
    r.answers.push_back(
        AdcDnsResourceRecord::A("mirror.example.com", Ipv4Address("192.0.2.2"), 60));
    const Bytes expected = Cat({
        {0x12, 0x34},             // ID copied from the query
        {0x85, 0x00},             // QR=1 Opcode=0 AA=1 TC=0 RD=1 (copied) | RA=0 Z=0 RCODE=0
        {0x00, 0x01},             // QDCOUNT 1
        {0x00, 0x02},             // ANCOUNT 2
        {0x00, 0x00},             // NSCOUNT
        {0x00, 0x00},             // ARCOUNT
        WwwExampleCom(),          // QNAME at offset 12
        {0x00, 0x01, 0x00, 0x01}, // QTYPE A, QCLASS IN
        // answer 0: NAME is the whole QNAME: pointer 0xC000 | 12
        {0xC0, 0x0C},
        {0x00, 0x01},             // TYPE A
        {0x00, 0x01},             // CLASS IN
        {0x00, 0x00, 0x01, 0x2C}, // TTL 300
        {0x00, 0x04},             // RDLENGTH
        {192, 0, 2, 1},           // RDATA
        // answer 1: "mirror" then a pointer to the suffix "example.com" at offset 12 + 4
        {6},
        Ascii("mirror"),
        {0xC0, 0x10},
        {0x00, 0x01, 0x00, 0x01},
        {0x00, 0x00, 0x00, 0x3C}, // TTL 60
        {0x00, 0x04},
        {192, 0, 2, 2},
    });
    const Bytes wire = r.Serialize();
    EXPECT_EQ(wire, expected);
    const auto back = AdcDnsMessage::Parse(wire);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, r);
    EXPECT_TRUE(back->qr && back->aa && back->rd && !back->tc && !back->ra);
    ASSERT_EQ(back->answers.size(), 2u);
    EXPECT_EQ(back->answers[0].GetA(), std::optional<Ipv4Address>(Ipv4Address("192.0.2.1")));
    EXPECT_EQ(back->answers[1].name, "mirror.example.com");
    EXPECT_EQ(back->answers[1].ttl, 60u);
    EXPECT_FALSE(back->answers[0].GetAaaa());
}

// REQ: GSLB-06
TEST(AdcDnsMessage, ErrorResponsesKeepIdAndQuestion)
{
    const AdcDnsMessage q = AdcDnsMessage::MakeQuery(0xBEEF, "ldns-probe.example.net", 28, false);
    for (uint8_t rcode = AdcDnsMessage::NOERROR; rcode <= AdcDnsMessage::REFUSED; ++rcode)
    {
        const AdcDnsMessage r = AdcDnsMessage::MakeResponse(q, rcode, false);
        const Bytes wire = r.Serialize();
        ASSERT_GE(wire.size(), 4u);
        EXPECT_EQ(wire[0], 0xBE);
        EXPECT_EQ(wire[1], 0xEF);
        EXPECT_EQ(wire[2], 0x80); // QR=1, RD not set in the query
        EXPECT_EQ(wire[3], rcode);
        const auto back = AdcDnsMessage::Parse(wire);
        ASSERT_TRUE(back);
        EXPECT_EQ(back->rcode, rcode);
        EXPECT_EQ(back->questions, q.questions);
    }
    EXPECT_EQ(AdcDnsMessage::RcodeName(AdcDnsMessage::NXDOMAIN), "NXDOMAIN");
    EXPECT_EQ(AdcDnsMessage::RcodeName(AdcDnsMessage::REFUSED), "REFUSED");
    EXPECT_EQ(AdcDnsMessage::RcodeName(9), "RCODE9");
}

TEST(AdcDnsMessage, HeaderFlagsEachBit)
{
    AdcDnsMessage m;
    m.id = 0xFFFF;
    m.qr = true;
    m.opcode = AdcDnsMessage::STATUS;
    m.tc = true;
    m.ra = true;
    m.z = 5;
    m.rcode = 15;
    const Bytes wire = m.Serialize();
    // 1 0010 0 1 0 | 1 101 1111
    EXPECT_EQ(wire, (Bytes{0xFF, 0xFF, 0x92, 0xDF, 0, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(AdcDnsMessage::Parse(wire), std::optional<AdcDnsMessage>(m));
    m.opcode = 16;
    EXPECT_TRUE(adctest::Has(adctest::ConfigErrorOf([&] { m.Serialize(); }), "Opcode 16"));
}

TEST(AdcDnsMessage, AaaaAndNameRecords)
{
    const auto q = AdcDnsMessage::MakeQuery(7, "www.example.com", AdcDnsMessage::TYPE_AAAA);
    AdcDnsMessage r = AdcDnsMessage::MakeResponse(q, AdcDnsMessage::NOERROR, true);
    r.answers.push_back(AdcDnsResourceRecord::NameRecord("www.example.com",
                                                         AdcDnsMessage::TYPE_CNAME,
                                                         "site2.gslb.example.com",
                                                         30));
    r.answers.push_back(
        AdcDnsResourceRecord::Aaaa("site2.gslb.example.com", Ipv6Address("2001:db8::7"), 30));
    const auto back = AdcDnsMessage::Parse(r.Serialize());
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, r);
    EXPECT_EQ(back->answers[0].GetTargetName(),
              std::optional<std::string>("site2.gslb.example.com"));
    EXPECT_EQ(back->answers[1].GetAaaa(), std::optional<Ipv6Address>(Ipv6Address("2001:db8::7")));
    EXPECT_FALSE(back->answers[1].GetA());
    EXPECT_TRUE(adctest::Has(
        adctest::ConfigErrorOf([] { AdcDnsResourceRecord::NameRecord("a", 1, "b", 0); }),
        "type 1"));
}

// ------------------------------------------------------------------------- names

TEST(AdcDnsName, CaseInsensitiveEqualAndCanonical)
{
    EXPECT_TRUE(AdcDnsName::Equal("WWW.Example.COM", "www.example.com."));
    EXPECT_FALSE(AdcDnsName::Equal("www.example.co", "www.example.com"));
    EXPECT_FALSE(AdcDnsName::Equal("www.example.com", "example.com"));
    EXPECT_FALSE(AdcDnsName::Equal("a..b", "a..b")); // malformed: never equal
    EXPECT_TRUE(AdcDnsName::Equal("", "."));
    EXPECT_EQ(AdcDnsName::Canonical("www.example.com."), "www.example.com");
    EXPECT_EQ(AdcDnsName::Canonical(""), ".");
    // Escapes: a dot inside a label, a backslash, a byte outside printable ASCII.
    EXPECT_EQ(AdcDnsName::ToLabels("a\\.b.c"), (std::vector<std::string>{"a.b", "c"}));
    EXPECT_EQ(AdcDnsName::FromLabels({std::string("x\0y", 3), "a.b", "\\"}), "x\\000y.a\\.b.\\\\");
    EXPECT_EQ(AdcDnsName::ToLabels("x\\000y.a\\.b.\\\\"),
              (std::vector<std::string>{std::string("x\0y", 3), "a.b", "\\"}));
    EXPECT_EQ(AdcDnsName::ToWire("ab.c"), (Bytes{2, 'a', 'b', 1, 'c', 0}));
}

TEST(AdcDnsName, BadNamesAreConfigErrors)
{
    const std::string l63(63, 'a');
    const std::string l64(64, 'a');
    EXPECT_NO_THROW(AdcDnsMessage::MakeQuery(1, l63 + ".com"));
    std::string e = adctest::ConfigErrorOf([&] { AdcDnsMessage::MakeQuery(1, l64 + ".com"); });
    EXPECT_TRUE(adctest::HasAll(e, {l64 + ".com", "64 bytes", "63"})) << e;
    // 4 labels of 63 bytes: 4 * 64 + 1 = 257 wire bytes; 3 of 63 and one of 61: 255 exactly.
    const std::string n257 = l63 + "." + l63 + "." + l63 + "." + l63;
    const std::string n255 = l63 + "." + l63 + "." + l63 + "." + std::string(61, 'b');
    e = adctest::ConfigErrorOf([&] { AdcDnsMessage::MakeQuery(1, n257); });
    EXPECT_TRUE(adctest::HasAll(e, {n257, "257", "255"})) << e;
    const auto m = AdcDnsMessage::MakeQuery(1, n255);
    EXPECT_EQ(m.Serialize().size(), 12u + 255u + 4u);
    EXPECT_EQ(AdcDnsMessage::Parse(m.Serialize()), std::optional<AdcDnsMessage>(m));
    e = adctest::ConfigErrorOf([] { AdcDnsMessage::MakeQuery(1, "www..example.com"); });
    EXPECT_TRUE(adctest::HasAll(e, {"www..example.com", "empty label"})) << e;
    e = adctest::ConfigErrorOf([] { AdcDnsMessage::MakeQuery(1, ".com"); });
    EXPECT_TRUE(adctest::Has(e, "empty label")) << e;
    e = adctest::ConfigErrorOf([] { AdcDnsMessage::MakeQuery(1, "a\\300"); });
    EXPECT_TRUE(adctest::Has(e, "above 255")) << e;
    // Serialize checks names set directly as well.
    AdcDnsMessage bad;
    bad.questions.push_back(AdcDnsQuestion{l64, 1, 1});
    e = adctest::ConfigErrorOf([&] { bad.Serialize(); });
    EXPECT_TRUE(adctest::HasAll(e, {l64, "63"})) << e;
}

// ------------------------------------------------------------------------- parsing

TEST(AdcDnsMessage, ParsesHandMadeCompression)
{
    // Question "example.com" at 12; answer NAME "www" + pointer to 12; CNAME RDATA "cdn" +
    // pointer to the answer's own name at 29 (a pointer to a name that itself ends in a
    // pointer).
    Bytes b = {0xAB, 0xCD, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0};
    b = Cat({b, {7}, Ascii("example"), {3}, Ascii("com"), {0}, {0, 5, 0, 1}}); // 12..28
    ASSERT_EQ(b.size(), 29u);
    b = Cat({b, {3}, Ascii("www"), {0xC0, 12}});       // answer NAME at 29
    b = Cat({b, {0, 5, 0, 1}, {0, 0, 0, 10}, {0, 6}}); // CNAME IN TTL 10, RDLENGTH 6
    b = Cat({b, {3}, Ascii("cdn"), {0xC0, 29}});       // RDATA: cdn.www.example.com
    const auto m = AdcDnsMessage::Parse(b);
    ASSERT_TRUE(m) << ErrorOf(b);
    EXPECT_EQ(m->id, 0xABCD);
    EXPECT_TRUE(m->qr && m->rd && m->ra);
    EXPECT_EQ(m->questions[0].name, "example.com");
    EXPECT_EQ(m->questions[0].qtype, AdcDnsMessage::TYPE_CNAME);
    ASSERT_EQ(m->answers.size(), 1u);
    EXPECT_EQ(m->answers[0].name, "www.example.com");
    EXPECT_EQ(m->answers[0].GetTargetName(), std::optional<std::string>("cdn.www.example.com"));
    // The RDATA is stored expanded, so it is valid wherever it is written again.
    EXPECT_EQ(m->answers[0].rdata, AdcDnsName::ToWire("cdn.www.example.com"));
    EXPECT_EQ(AdcDnsMessage::Parse(m->Serialize()), m);
}

TEST(AdcDnsMessage, RejectionsNameTheOffset)
{
    const Bytes h = OneQuestionHeader();
    const Bytes qtail = {0, 1, 0, 1};

    struct Case
    {
        const char* what;
        Bytes bytes;
        std::vector<std::string> words;
    };

    std::vector<Case> cases = {
        {"short header", {0, 1, 2, 3, 4}, {"byte 0:", "12-byte header"}},
        {"self pointer", Cat({h, {0xC0, 12}, qtail}), {"byte 12:", "forward"}},
        {"forward pointer", Cat({h, {0xC0, 17}, qtail, {0}}), {"byte 12:", "forward", "17"}},
        {"pointer out of range",
         Cat({h, {0xC0, 0xFF}, qtail}),
         {"byte 12:", "out of range", "255"}},
        {"pointer loop", Cat({h, {1, 'a', 0xC0, 12}, qtail}), {"byte 14:", "loop", "12"}},
        {"label type 0x40",
         Cat({h, {0x40}, Bytes(64, 'a'), {0}, qtail}),
         {"byte 12:", "0x40", "63"}},
        {"label type 0x80", Cat({h, {0x80, 0}, qtail}), {"byte 12:", "0x80", "reserved"}},
        {"truncated label", Cat({h, {5, 'a', 'b'}}), {"byte 12:", "truncated"}},
        {"truncated QCLASS", Cat({h, {3, 'w', 'w', 'w', 0, 0, 1}}), {"byte 19:", "QCLASS"}},
        {"no question", Bytes(h), {"byte 12:", "truncated", "QNAME"}},
        {"trailing bytes", Cat({GoldenQuery(), {0xFF}}), {"byte 33:", "1 trailing"}},
    };
    // A name of 4 labels of 63 bytes: the 4th label (at 12 + 3 * 64) makes 257 wire bytes.
    Bytes longName = h;
    for (int i = 0; i < 4; ++i)
    {
        longName.push_back(63);
        longName.insert(longName.end(), 63, 'x');
    }
    longName = Cat({longName, {0}, qtail});
    cases.push_back({"name above 255", longName, {"byte 204:", "255"}});
    // A loop in a later name: question 0 is "a" at 12; question 1 at 19 is "b" then a
    // pointer (at 21) back to its own start 19, which is earlier than the pointer but not
    // earlier than the part of the name it continues.
    Bytes two = {0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0};
    two = Cat({two, {1, 'a', 0}, qtail, {1, 'b', 0xC0, 19}, qtail});
    cases.push_back({"loop in question 1", two, {"byte 21:", "loop"}});
    // A record with a 5-byte A RDATA.
    Bytes a5 = {0, 0, 0x80, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
                1, 0, 1,    0, 0, 0, 1, 0, 5, 1, 2, 3, 4, 5};
    cases.push_back({"A RDATA length 5", a5, {"byte 23:", "A RDATA length 5 is not 4"}});
    // CNAME RDATA whose name is shorter than RDLENGTH.
    Bytes cname = {0, 0, 0x80, 0, 0, 0, 0, 1, 0, 0, 0, 0,   0,
                   0, 5, 0,    1, 0, 0, 0, 1, 0, 3, 1, 'a', 0};
    cases.push_back({"CNAME RDATA length",
                     Cat({Bytes(cname.begin(), cname.end() - 5), {0, 4, 1, 'a', 0, 9}}),
                     {"byte 26:", "1 bytes left inside RDLENGTH 4"}});
    // The same record with RDLENGTH 3 is fine.
    EXPECT_EQ(ErrorOf(cname), "");
    // RDLENGTH past the end.
    cases.push_back({"RDATA past the end",
                     Bytes(cname.begin(), cname.end() - 1),
                     {"byte 23:", "truncated", "RDATA"}});
    for (const auto& c : cases)
    {
        const std::string e = ErrorOf(c.bytes);
        EXPECT_TRUE(adctest::HasAll(e, c.words)) << c.what << ": " << e;
        EXPECT_EQ(e.rfind("AdcDnsMessage: byte ", 0), 0u) << c.what << ": " << e;
    }
}

// ------------------------------------------------------------------------- round trips

TEST(AdcDnsMessage, RandomRoundTrips)
{
    std::mt19937 rng(20261202);
    const std::vector<std::string> pool = {"www",
                                           "example",
                                           "com",
                                           "gslb",
                                           "site1",
                                           "SITE1",
                                           "a",
                                           std::string(63, 'z'),
                                           "x.y",
                                           "b\\s",
                                           std::string("\0\xff", 2),
                                           "net"};
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    const auto name = [&] {
        std::vector<std::string> labels;
        const std::size_t n = pick(4);
        for (std::size_t i = 0; i < n; ++i)
        {
            labels.push_back(pool[pick(pool.size())]);
        }
        return AdcDnsName::FromLabels(labels);
    };
    const auto record = [&] {
        switch (pick(4))
        {
        case 0:
            return AdcDnsResourceRecord::A(name(),
                                           Ipv4Address(static_cast<uint32_t>(rng())),
                                           static_cast<uint32_t>(rng()));
        case 1: {
            uint8_t a[16];
            for (auto& x : a)
            {
                x = static_cast<uint8_t>(rng());
            }
            return AdcDnsResourceRecord::Aaaa(name(), Ipv6Address(a), 5);
        }
        case 2:
            return AdcDnsResourceRecord::NameRecord(name(), AdcDnsMessage::TYPE_CNAME, name(), 1);
        default: {
            AdcDnsResourceRecord rr;
            rr.name = name();
            rr.type = AdcDnsMessage::TYPE_TXT;
            rr.rrclass = static_cast<uint16_t>(pick(5));
            rr.rdata.resize(pick(40));
            for (auto& x : rr.rdata)
            {
                x = static_cast<uint8_t>(rng());
            }
            return rr;
        }
        }
    };
    std::size_t compressedTotal = 0;
    std::size_t uncompressedTotal = 0;
    for (int iter = 0; iter < 500; ++iter)
    {
        AdcDnsMessage m;
        m.id = static_cast<uint16_t>(rng());
        m.qr = rng() & 1;
        m.opcode = static_cast<uint8_t>(pick(16));
        m.aa = rng() & 1;
        m.tc = rng() & 1;
        m.rd = rng() & 1;
        m.ra = rng() & 1;
        m.z = static_cast<uint8_t>(pick(8));
        m.rcode = static_cast<uint8_t>(pick(16));
        for (std::size_t i = pick(3); i > 0; --i)
        {
            m.questions.push_back(AdcDnsQuestion{name(), static_cast<uint16_t>(rng()), 1});
        }
        for (auto* section : {&m.answers, &m.authority, &m.additional})
        {
            for (std::size_t i = pick(5); i > 0; --i)
            {
                section->push_back(record());
            }
        }
        const Bytes wire = m.Serialize();
        std::string error;
        const auto back = AdcDnsMessage::Parse(wire, &error);
        ASSERT_TRUE(back) << "iteration " << iter << ": " << error;
        ASSERT_EQ(*back, m) << "iteration " << iter;
        ASSERT_EQ(back->Serialize(), wire) << "iteration " << iter;
        compressedTotal += wire.size();
        uncompressedTotal += 12;
        for (const auto& q : m.questions)
        {
            uncompressedTotal += AdcDnsName::ToWire(q.name).size() + 4;
        }
        for (const auto* section : {&m.answers, &m.authority, &m.additional})
        {
            for (const auto& rr : *section)
            {
                uncompressedTotal += AdcDnsName::ToWire(rr.name).size() + 10 + rr.rdata.size();
            }
        }
    }
    EXPECT_LT(compressedTotal, uncompressedTotal); // compression took effect
}

// ------------------------------------------------------------------------- UDP truncation

// REQ: GSLB-02
TEST(AdcDnsMessage, TruncationSetsTcAndKeepsQuestion)
{
    const auto q = AdcDnsMessage::MakeQuery(42, "app.gslb.example.com");
    AdcDnsMessage r = AdcDnsMessage::MakeResponse(q, AdcDnsMessage::NOERROR, true);
    for (uint32_t i = 0; i < 60; ++i)
    {
        r.answers.push_back(
            AdcDnsResourceRecord::A("app.gslb.example.com", Ipv4Address(0x0A000001 + i), 5));
    }
    // 12 + 26 + 60 * 16 = 998 bytes: too big for 512.
    ASSERT_EQ(r.Serialize().size(), 998u);
    const Bytes udp = r.SerializeTruncated();
    EXPECT_LE(udp.size(), 512u);
    const auto t = AdcDnsMessage::Parse(udp);
    ASSERT_TRUE(t);
    EXPECT_TRUE(t->tc);
    EXPECT_EQ(t->questions, q.questions);
    EXPECT_EQ(t->id, 42);
    // As many answers as fit, the first ones: (512 - 38) / 16 = 29.
    ASSERT_EQ(t->answers.size(), 29u);
    for (std::size_t i = 0; i < t->answers.size(); ++i)
    {
        EXPECT_EQ(t->answers[i], r.answers[i]);
    }
    // A message that fits is unchanged, TC clear.
    AdcDnsMessage small = AdcDnsMessage::MakeResponse(q, AdcDnsMessage::NOERROR, true);
    small.answers.push_back(r.answers[0]);
    EXPECT_EQ(small.SerializeTruncated(), small.Serialize());
    // Only additional records dropped: no TC (RFC 2181 section 9).
    AdcDnsMessage extra = small;
    for (int i = 0; i < 40; ++i)
    {
        extra.additional.push_back(r.answers[1]);
    }
    const auto e = AdcDnsMessage::Parse(extra.SerializeTruncated());
    ASSERT_TRUE(e);
    EXPECT_FALSE(e->tc);
    EXPECT_EQ(e->answers, small.answers);
    EXPECT_LT(e->additional.size(), 40u);
    // Even the question does not fit.
    EXPECT_TRUE(adctest::Has(adctest::ConfigErrorOf([&] { r.SerializeTruncated(20); }),
                             "above the limit of 20"));
}

// ------------------------------------------------------------------------- TCP framing

TEST(AdcDnsTcp, FramerSplitAtEveryByte)
{
    const auto q = AdcDnsMessage::MakeQuery(1, "www.example.com");
    AdcDnsMessage r = AdcDnsMessage::MakeResponse(q, AdcDnsMessage::NXDOMAIN, true);
    const Bytes m1 = q.Serialize();
    const Bytes m2 = r.Serialize();
    const Bytes f1 = AdcDnsTcpFrame(m1);
    ASSERT_EQ(f1.size(), m1.size() + 2);
    EXPECT_EQ(f1[0], 0);
    EXPECT_EQ(f1[1], m1.size());
    const Bytes stream = Cat({f1, AdcDnsTcpFrame(m2), AdcDnsTcpFrame(m1)});
    const std::vector<Bytes> expected = {m1, m2, m1};
    // Two pieces, split at every position.
    for (std::size_t cut = 0; cut <= stream.size(); ++cut)
    {
        AdcDnsTcpFramer framer;
        auto got = framer.Feed(stream.data(), cut);
        const auto rest = framer.Feed(stream.data() + cut, stream.size() - cut);
        got.insert(got.end(), rest.begin(), rest.end());
        EXPECT_EQ(got, expected) << "cut at " << cut;
        EXPECT_FALSE(framer.HasPartial());
        EXPECT_FALSE(framer.HasError());
    }
    // One byte at a time.
    AdcDnsTcpFramer framer;
    std::vector<Bytes> got;
    for (std::size_t i = 0; i < stream.size(); ++i)
    {
        for (auto& m : framer.Feed(&stream[i], 1))
        {
            got.push_back(m);
        }
        // Nothing is held right after a frame's last byte.
        const std::size_t end1 = m1.size() + 2;
        const std::size_t end2 = end1 + m2.size() + 2;
        const bool boundary = i + 1 == end1 || i + 1 == end2 || i + 1 == stream.size();
        EXPECT_EQ(framer.HasPartial(), !boundary) << i;
        EXPECT_EQ(got.size(), (i + 1 >= end1) + (i + 1 >= end2) + (i + 1 == stream.size())) << i;
    }
    EXPECT_EQ(got, expected);
    EXPECT_EQ(AdcDnsMessage::Parse(got[1])->rcode, AdcDnsMessage::NXDOMAIN);
}

TEST(AdcDnsTcp, FramerErrorsAndLimits)
{
    AdcDnsTcpFramer framer;
    const Bytes good = AdcDnsTcpFrame(AdcDnsMessage::MakeQuery(1, "a").Serialize());
    const Bytes stream = Cat({good, {0, 3, 1, 2, 3}, good});
    const auto got = framer.Feed(stream);
    EXPECT_EQ(got.size(), 1u);
    EXPECT_TRUE(framer.HasError());
    EXPECT_TRUE(adctest::HasAll(framer.GetError(),
                                {"stream byte " + std::to_string(good.size()), "length 3"}))
        << framer.GetError();
    EXPECT_TRUE(framer.Feed(good).empty()); // poisoned
    // The largest frame: 65535 bytes of message.
    Bytes big(65535, 0);
    const Bytes fb = AdcDnsTcpFrame(big);
    EXPECT_EQ(fb[0], 0xFF);
    EXPECT_EQ(fb[1], 0xFF);
    AdcDnsTcpFramer f2;
    EXPECT_EQ(f2.Feed(fb), std::vector<Bytes>{big});
    big.push_back(0);
    EXPECT_TRUE(adctest::Has(adctest::ConfigErrorOf([&] { AdcDnsTcpFrame(big); }), "65535"));
}

// ------------------------------------------------------------------------- Wireshark

namespace
{

/// \param out file \param v a little-endian uint32
void
PutLe32(std::ofstream& out, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
    {
        out.put(static_cast<char>(v >> (8 * i)));
    }
}

/**
 * \brief Write DNS messages as UDP payloads in a pcap (link type 101, raw IPv4).
 * \param path file \param packets (from client: true for client to server, payload)
 */
void
WriteDnsPcap(const std::string& path, const std::vector<std::pair<bool, Bytes>>& packets)
{
    std::ofstream out(path, std::ios::binary);
    PutLe32(out, 0xa1b2c3d4);
    PutLe32(out, 0x00040002); // version 2.4 (minor, major as little-endian u16s)
    PutLe32(out, 0);
    PutLe32(out, 0);
    PutLe32(out, 65535);
    PutLe32(out, 101); // LINKTYPE_RAW
    uint32_t t = 0;
    for (const auto& [fromClient, payload] : packets)
    {
        const uint8_t client[4] = {10, 0, 0, 1};
        const uint8_t server[4] = {10, 0, 0, 2};
        const uint16_t total = static_cast<uint16_t>(20 + 8 + payload.size());
        Bytes ip = {0x45,
                    0,
                    static_cast<uint8_t>(total >> 8),
                    static_cast<uint8_t>(total),
                    0,
                    1,
                    0,
                    0,
                    64,
                    17,
                    0,
                    0};
        const uint8_t* src = fromClient ? client : server;
        const uint8_t* dst = fromClient ? server : client;
        ip.insert(ip.end(), src, src + 4);
        ip.insert(ip.end(), dst, dst + 4);
        uint32_t sum = 0;
        for (std::size_t i = 0; i < 20; i += 2)
        {
            sum += (ip[i] << 8) | ip[i + 1];
        }
        while (sum >> 16)
        {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        ip[10] = static_cast<uint8_t>(~sum >> 8);
        ip[11] = static_cast<uint8_t>(~sum);
        const uint16_t sport = fromClient ? 49152 : 53;
        const uint16_t dport = fromClient ? 53 : 49152;
        const uint16_t ulen = static_cast<uint16_t>(8 + payload.size());
        const Bytes udp = {static_cast<uint8_t>(sport >> 8),
                           static_cast<uint8_t>(sport),
                           static_cast<uint8_t>(dport >> 8),
                           static_cast<uint8_t>(dport),
                           static_cast<uint8_t>(ulen >> 8),
                           static_cast<uint8_t>(ulen),
                           0,
                           0}; // no UDP checksum (IPv4)
        const Bytes frame = Cat({ip, udp, payload});
        PutLe32(out, ++t);
        PutLe32(out, 0);
        PutLe32(out, static_cast<uint32_t>(frame.size()));
        PutLe32(out, static_cast<uint32_t>(frame.size()));
        out.write(reinterpret_cast<const char*>(frame.data()),
                  static_cast<std::streamsize>(frame.size()));
    }
}

} // namespace

// REQ: GSLB-02, GSLB-06
TEST(AdcDnsMessage, TsharkDecodesQueryAndCompressedResponse)
{
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const auto q = AdcDnsMessage::MakeQuery(0x1234, "www.example.com");
    AdcDnsMessage r = AdcDnsMessage::MakeResponse(q, AdcDnsMessage::NOERROR, true);
    r.answers.push_back(AdcDnsResourceRecord::A("www.example.com", Ipv4Address("192.0.2.1"), 300));
    r.answers.push_back(
        AdcDnsResourceRecord::A("mirror.example.com", Ipv4Address("192.0.2.2"), 60));
    r.authority.push_back(AdcDnsResourceRecord::NameRecord("example.com",
                                                           AdcDnsMessage::TYPE_NS,
                                                           "ns1.example.com",
                                                           3600));
    const auto q2 = AdcDnsMessage::MakeQuery(0x5678, "nosuch.example.com");
    const auto nx = AdcDnsMessage::MakeResponse(q2, AdcDnsMessage::NXDOMAIN, true);
    const std::string dir =
        std::filesystem::temp_directory_path().string() + "/adc-dns-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    const std::string pcap = dir + "/dns.pcap";
    WriteDnsPcap(pcap,
                 {{true, q.Serialize()},
                  {false, r.Serialize()},
                  {true, q2.Serialize()},
                  {false, nx.Serialize()}});
    const std::string out = adctest::RunCommand(
        "tshark -n -r '" + pcap +
        "' -T fields -E 'separator=|' -e dns.qry.name -e dns.a -e dns.flags.rcode "
        "-e dns.ns 2>/dev/null");
    const auto lines = adctest::OutputLines(out);
    ASSERT_EQ(lines.size(), 4u) << out;
    EXPECT_EQ(lines[0], "www.example.com|||"); // a query shows no rcode
    EXPECT_EQ(lines[1], "www.example.com|192.0.2.1,192.0.2.2|0|ns1.example.com");
    EXPECT_EQ(lines[2], "nosuch.example.com|||");
    EXPECT_EQ(lines[3], "nosuch.example.com||3|");
    // Nothing malformed, no expert warnings or errors.
    const std::string bad = adctest::RunCommand(
        "tshark -n -r '" + pcap +
        "' -Y '_ws.malformed || _ws.expert.severity >= warning' -T fields -e frame.number "
        "2>/dev/null");
    EXPECT_TRUE(adctest::OutputLines(bad).empty()) << bad;
    const std::string names =
        adctest::RunCommand("tshark -n -r '" + pcap +
                            "' -Y 'dns.flags.response == 1' -T fields -e dns.resp.name "
                            "2>/dev/null");
    EXPECT_TRUE(adctest::Has(names, "mirror.example.com")) << names;
    std::filesystem::remove_all(dir);
}
