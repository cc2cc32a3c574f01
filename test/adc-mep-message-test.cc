/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcMepMessage and AdcMepFramer, NetScaler's metric exchange protocol as Wireshark's
 * packet-ns-mep.c reads it: bytes written by hand from the dissector's layout, errors naming
 * the byte offset, the TCP framer over every split, a seeded round trip, and a pcap that
 * tshark decodes as MEP on port 3011.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-mep-message.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

/// NETWORK METRIC UPDATE, version 2.6, two records (hand-written from packet-ns-mep.c).
const Bytes kNetworkUpdate = {
    0x02, 0x06,             // major 2, minor 6          (nstrace.mep.maj / .min)
    0x07, 0x00,             // type 7, little endian     (nstrace.mep.type)
    0x18, 0x00,             // length 24 = 8 + 2 x 8     (nstrace.mep.len)
    0x00, 0x00,             // status 0 SUCCESS          (nstrace.mep.errcode)
    0x03, 0x02, 0x01, 0x0A, // LDNS 10.1.2.3 as a little-endian u32 (nstrace.mep.ldns.ip)
    0x2C, 0x01,             // RTT 300 ms = 0x012C, little endian
    0x05,                   // hops 5
    0x00,                   // pad
    0x35, 0x02, 0x00, 0xC0, // LDNS 192.0.2.53, little endian
    0x07, 0x00,             // RTT 7 ms
    0x00,                   // hops 0 (unknown)
    0x00,                   // pad
};

/// KEEP ALIVE, version 2.6: the header alone.
const Bytes kKeepAlive = {0x02, 0x06, 0x09, 0x00, 0x08, 0x00, 0x00, 0x00};

/// SITE METRIC UPDATE, version 2.6 (above 2.2: effective state and MEP flags present).
const Bytes kSiteUpdate = {
    0x02, 0x06, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, // v2.6, type 1, length 24, status 0
    0x01, 0x00,                                     // command 1 (skipped by the dissector)
    0x07, 0x00,                                     // state 7 SERVER_STATE_UP, LE
    0xC6, 0x33, 0x64, 0x0A,                         // service 198.51.100.10, network order
    0x01, 0xBB,                                     // port 443, big endian
    0x0E, 0x00,                                     // service type 0x0e NSSVC_SSL, LE
    0x07,                                           // effective state UP
    0x01,                                           // MEP flags 0x01
    0x00, 0x00,                                     // pad
};

/// \return the records of kNetworkUpdate
std::vector<AdcMepNetworkMetric>
NetworkRecords()
{
    return {{Ipv4Address("10.1.2.3"), 300, 5}, {Ipv4Address("192.0.2.53"), 7, 0}};
}

/// \return the record of kSiteUpdate
AdcMepSiteMetric
SiteRecord()
{
    AdcMepSiteMetric r;
    r.command = 1;
    r.state = AdcMepSiteMetric::kStateUp;
    r.ip = Ipv4Address("198.51.100.10");
    r.port = 443;
    r.serviceType = 0x0e;
    r.effectiveState = 7;
    r.mepFlags = 1;
    return r;
}

/// \param bytes a PDU \return Parse's error ("" when it parsed)
std::string
ErrorOf(const Bytes& bytes)
{
    std::string error;
    const auto m = AdcMepMessage::Parse(bytes, &error);
    EXPECT_EQ(m.has_value(), error.empty());
    return error;
}

/// \param f a framer \param b bytes \return the messages Feed gives for them
std::vector<AdcMepMessage>
FeedAll(AdcMepFramer& f, const Bytes& b)
{
    return f.Feed(b.data(), b.size());
}

} // namespace

TEST(AdcMepMessage, GoldenBytesFromTheDissectorLayout)
{
    // REQ: GSLB-07 (sites exchange RTTs with MEP: the NETWORK METRIC UPDATE on the wire)
    EXPECT_EQ(AdcMepMessage::NetworkMetricUpdate(NetworkRecords()).Serialize(), kNetworkUpdate);
    EXPECT_EQ(AdcMepMessage::KeepAlive().Serialize(), kKeepAlive);
    EXPECT_EQ(AdcMepMessage::SiteMetricUpdate({SiteRecord()}).Serialize(), kSiteUpdate);
    EXPECT_EQ(AdcMepMessage::NetworkMetricUpdate(NetworkRecords()).GetSerializedSize(), 24U);
    // An opaque type: SITE ADV IP ADDR carries one address.
    AdcMepMessage adv;
    adv.type = AdcMepMessage::SITE_ADV_IP_ADDR;
    adv.status = 0x0161; // INVALID ARG
    adv.body = {192, 0, 2, 1};
    EXPECT_EQ(adv.Serialize(),
              (Bytes{0x02, 0x06, 0x03, 0x00, 0x0C, 0x00, 0x61, 0x01, 0xC0, 0x00, 0x02, 0x01}));
    // Version 2.2: bytes 12..15 of a site record are pad.
    AdcMepSiteMetric old = SiteRecord();
    old.effectiveState = 0;
    old.mepFlags = 0;
    AdcMepMessage v22 = AdcMepMessage::SiteMetricUpdate({old});
    v22.minor = 2;
    const Bytes v22Bytes = {0x02, 0x02, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x01, 0x00, 0x07, 0x00,
                            0xC6, 0x33, 0x64, 0x0A, 0x01, 0xBB, 0x0E, 0x00, 0x00, 0x00, 0x00, 0x00};
    EXPECT_EQ(v22.Serialize(), v22Bytes);
    EXPECT_EQ(AdcMepMessage::Parse(v22Bytes), v22);
    EXPECT_EQ(AdcMepMessage::kPort, 3011);
    EXPECT_EQ(AdcMepMessage::TypeName(7), "NETWORK METRIC UPDATE");
    EXPECT_EQ(AdcMepMessage::TypeName(9), "KEEP ALIVE");
    EXPECT_EQ(AdcMepMessage::TypeName(17), "");
}

TEST(AdcMepMessage, ServiceTypeCodesAreTheDissectors)
{
    // REQ: GSLB-07 (a SITE METRIC record announces the service's configured type; the codes
    // are packet-ns-mep.c's ns_svc_type_vals: NSSVC_HTTP 0x00, NSSVC_TCP 0x02, NSSVC_UDP 0x03,
    // NSSVC_SSL_BRIDGE 0x04, NSSVC_ANY 0x0d, NSSVC_SSL 0x0e, NSSVC_SSL_TCP 0x14, NSSVC_SIP_UDP
    // 0x24, NSSVC_RTSP 0x28)
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("HTTP"), 0x00);
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("TCP"), 0x02);
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("UDP"), 0x03);
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("SSL_BRIDGE"), 0x04);
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("ANY"), 0x0d);
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("ssl"), 0x0e);
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("SSL_TCP"), 0x14);
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("SIP_UDP"), 0x24);
    EXPECT_EQ(AdcMepSiteMetric::ServiceTypeCode("RTSP"), 0x28);
    const std::string e = adctest::ConfigErrorOf([] { AdcMepSiteMetric::ServiceTypeCode("FOO"); });
    EXPECT_TRUE(adctest::HasAll(e, {"'FOO'", "HTTP", "RTSP"})) << e;
}

TEST(AdcMepMessage, ParseReadsTheFields)
{
    // REQ: GSLB-07 (a site reads the RTTs the others sent)
    std::string error;
    const auto n = AdcMepMessage::Parse(kNetworkUpdate, &error);
    ASSERT_TRUE(n.has_value()) << error;
    EXPECT_EQ(n->major, 2);
    EXPECT_EQ(n->minor, 6);
    EXPECT_EQ(n->type, AdcMepMessage::NETWORK_METRIC_UPDATE);
    EXPECT_EQ(n->status, 0);
    ASSERT_EQ(n->networkMetrics.size(), 2U);
    EXPECT_EQ(n->networkMetrics[0].ldns, Ipv4Address("10.1.2.3"));
    EXPECT_EQ(n->networkMetrics[0].rttMs, 300);
    EXPECT_EQ(n->networkMetrics[0].hops, 5);
    EXPECT_EQ(n->networkMetrics[1].ldns, Ipv4Address("192.0.2.53"));
    EXPECT_EQ(n->networkMetrics[1].rttMs, 7);
    const auto s = AdcMepMessage::Parse(kSiteUpdate);
    ASSERT_TRUE(s.has_value());
    ASSERT_EQ(s->siteMetrics.size(), 1U);
    EXPECT_EQ(s->siteMetrics[0], SiteRecord());
    EXPECT_EQ(s->siteMetrics[0].port, 443);
    const auto k = AdcMepMessage::Parse(kKeepAlive);
    ASSERT_TRUE(k.has_value());
    EXPECT_EQ(*k, AdcMepMessage::KeepAlive());
    // Version 1.0 is one the dissector decodes too.
    EXPECT_TRUE(AdcMepMessage::Parse(Bytes{0x01, 0x00, 0x09, 0x00, 0x08, 0x00, 0x00, 0x00}));
}

TEST(AdcMepMessage, ParseErrorsNameTheOffset)
{
    // REQ: GSLB-07 (a malformed message from a peer is refused, with where and why)
    using adctest::HasAll;
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x06, 0x09, 0x00, 0x08}),
                       {"AdcMepMessage: byte 5:", "header", "expected 8 bytes"}));
    EXPECT_TRUE(HasAll(ErrorOf({}), {"byte 0:", "expected 8 bytes, got 0"}));
    EXPECT_TRUE(HasAll(ErrorOf({0x03, 0x00, 0x09, 0x00, 0x08, 0x00, 0x00, 0x00}),
                       {"byte 0:", "version 3.0", "2.1 .. 2.6"}));
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x07, 0x09, 0x00, 0x08, 0x00, 0x00, 0x00}),
                       {"byte 0:", "version 2.7"}));
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x06, 0x11, 0x00, 0x08, 0x00, 0x00, 0x00}),
                       {"byte 2:", "message type 17", "expected 0..16"}));
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x06, 0x09, 0x00, 0x07, 0x00, 0x00, 0x00}),
                       {"byte 4:", "length 7", "at least 8"}));
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x06, 0x09, 0x00, 0xA5, 0xA5, 0x00, 0x00}),
                       {"byte 4:", "0xA5A5", "RPC"}));
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x06, 0x09, 0x00, 0x10, 0x00, 0x00, 0x00}),
                       {"byte 4:", "length 16", "size 8"}));
    // Network update of 20 bytes: one record, then 4 bytes of a cut one (starting at byte 16).
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x06, 0x07, 0x00, 0x14, 0x00, 0x00, 0x00, 10, 1,
                                2,    3,    1,    0,    1,    0,    10,   1,    2,  4}),
                       {"byte 16:", "12 body bytes", "whole 8-byte"}));
    // Pad of the first record (byte 15) not zero.
    EXPECT_TRUE(HasAll(
        ErrorOf({0x02, 0x06, 0x07, 0x00, 0x10, 0x00, 0x00, 0x00, 10, 1, 2, 3, 1, 0, 1, 0x01}),
        {"byte 15:", "pad byte 0x1", "expected 0"}));
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x06, 0x09, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00}),
                       {"byte 8:", "keep-alive carries 1 body bytes", "expected none"}));
    // Site update of 2.2 with a non-zero byte 12 of its record (stream byte 20).
    Bytes v22 = {0x02, 0x02, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x01, 0x00, 0x07, 0x00,
                 0xC6, 0x33, 0x64, 0x0A, 0x01, 0xBB, 0x0E, 0x00, 0x07, 0x00, 0x00, 0x00};
    EXPECT_TRUE(HasAll(ErrorOf(v22), {"byte 20:", "pad byte 0x7"}));
    v22[1] = 0x03; // in 2.3 that byte is the effective state, and 22..23 are pad
    EXPECT_EQ(ErrorOf(v22), "");
    v22[23] = 0xFF;
    EXPECT_TRUE(HasAll(ErrorOf(v22), {"byte 23:", "pad byte 0xff"}));
    // Site update cut inside its record.
    EXPECT_TRUE(HasAll(ErrorOf({0x02, 0x06, 0x01, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x01, 0x00}),
                       {"byte 8:", "whole 16-byte"}));
}

TEST(AdcMepMessage, SerializeRefusesBadValues)
{
    // REQ: GSLB-07
    using adctest::ConfigErrorOf;
    using adctest::HasAll;
    AdcMepMessage v = AdcMepMessage::KeepAlive();
    v.major = 3;
    EXPECT_TRUE(HasAll(ConfigErrorOf([&] { v.Serialize(); }), {"version 3.6", "2.6"}));
    AdcMepMessage t;
    t.type = 20;
    EXPECT_TRUE(HasAll(ConfigErrorOf([&] { t.Serialize(); }), {"message type 20", "0..16"}));
    AdcMepMessage k = AdcMepMessage::KeepAlive();
    k.networkMetrics = NetworkRecords();
    EXPECT_TRUE(HasAll(ConfigErrorOf([&] { k.Serialize(); }),
                       {"networkMetrics", "2 records", "NETWORK METRIC UPDATE (7)"}));
    AdcMepMessage n = AdcMepMessage::NetworkMetricUpdate({});
    n.siteMetrics = {SiteRecord()};
    EXPECT_TRUE(HasAll(ConfigErrorOf([&] { n.Serialize(); }), {"siteMetrics", "1 records"}));
    AdcMepMessage b = AdcMepMessage::KeepAlive();
    b.body = {1};
    EXPECT_TRUE(HasAll(ConfigErrorOf([&] { b.Serialize(); }), {"body holds 1 bytes", "type 9"}));
    AdcMepMessage s = AdcMepMessage::SiteMetricUpdate({SiteRecord()});
    s.minor = 2;
    EXPECT_TRUE(HasAll(ConfigErrorOf([&] { s.Serialize(); }),
                       {"effectiveState 7", "mepFlags 1", "version 2.2", "only 0"}));
    // 8 + 8192 x 8 = 65544 bytes: above the u16 length.
    AdcMepMessage big = AdcMepMessage::NetworkMetricUpdate(
        std::vector<AdcMepNetworkMetric>(8192, AdcMepNetworkMetric{}));
    EXPECT_TRUE(HasAll(ConfigErrorOf([&] { big.Serialize(); }), {"length 65544", "65535"}));
    big.networkMetrics.resize(8190); // 65528 bytes: allowed
    EXPECT_EQ(big.Serialize().size(), 65528U);
    AdcMepMessage rpc;
    rpc.type = AdcMepMessage::PERSIST_RECORD;
    rpc.body.assign(0xA5A5 - 8, 0);
    EXPECT_TRUE(HasAll(ConfigErrorOf([&] { rpc.Serialize(); }), {"length 42405", "0xA5A5"}));
}

TEST(AdcMepFramer, SplitsTheStreamByTheLengthField)
{
    // REQ: GSLB-07 (MEP runs over TCP: messages cut from a byte stream in any pieces)
    Bytes stream = kNetworkUpdate;
    stream.insert(stream.end(), kKeepAlive.begin(), kKeepAlive.end());
    stream.insert(stream.end(), kSiteUpdate.begin(), kSiteUpdate.end());
    const std::vector<AdcMepMessage> expected = {
        AdcMepMessage::NetworkMetricUpdate(NetworkRecords()),
        AdcMepMessage::KeepAlive(),
        AdcMepMessage::SiteMetricUpdate({SiteRecord()})};
    for (std::size_t cut = 0; cut <= stream.size(); ++cut)
    {
        AdcMepFramer f;
        auto got = f.Feed(stream.data(), cut);
        EXPECT_EQ(f.GetBufferedBytes() + f.GetMessageBytes(), cut);
        for (auto& m : f.Feed(stream.data() + cut, stream.size() - cut))
        {
            got.push_back(m);
        }
        EXPECT_EQ(got, expected) << "cut at " << cut;
        EXPECT_FALSE(f.HasError()) << f.GetError();
        EXPECT_EQ(f.GetMessageBytes(), 56U);
        EXPECT_EQ(f.GetBufferedBytes(), 0U);
    }
    // Byte by byte: each message completes at its last byte (24, 32, 56).
    AdcMepFramer f;
    std::vector<std::size_t> completedAt;
    for (std::size_t i = 0; i < stream.size(); ++i)
    {
        if (!f.Feed(&stream[i], 1).empty())
        {
            completedAt.push_back(i + 1);
        }
    }
    EXPECT_EQ(completedAt, (std::vector<std::size_t>{24, 32, 56}));
}

TEST(AdcMepFramer, StreamErrorsNameTheStreamOffset)
{
    // REQ: GSLB-07
    AdcMepFramer f;
    Bytes stream = kKeepAlive;
    // At stream byte 8: a header with length 3.
    stream.insert(stream.end(), {0x02, 0x06, 0x09, 0x00, 0x03, 0x00});
    EXPECT_EQ(FeedAll(f, stream).size(), 1U);
    ASSERT_TRUE(f.HasError());
    EXPECT_TRUE(adctest::HasAll(f.GetError(),
                                {"AdcMepFramer: message at stream byte 8:",
                                 "AdcMepMessage: byte 4: length 3",
                                 "at least 8"}))
        << f.GetError();
    // Nothing more after an error.
    EXPECT_TRUE(FeedAll(f, kKeepAlive).empty());
    EXPECT_EQ(f.GetMessageBytes(), 8U);

    // A complete PDU that Parse refuses (version 9.9), after two keep-alives.
    AdcMepFramer g;
    Bytes two = kKeepAlive;
    two.insert(two.end(), kKeepAlive.begin(), kKeepAlive.end());
    two.insert(two.end(), {0x09, 0x09, 0x09, 0x00, 0x08, 0x00, 0x00, 0x00});
    EXPECT_EQ(FeedAll(g, two).size(), 2U);
    EXPECT_TRUE(adctest::HasAll(g.GetError(), {"stream byte 16:", "byte 0: version 9.9"}))
        << g.GetError();
    // The RPC signature where the length goes.
    AdcMepFramer h;
    EXPECT_TRUE(FeedAll(h, {0x02, 0x06, 0x09, 0x00, 0xA5, 0xA5}).empty());
    EXPECT_TRUE(adctest::HasAll(h.GetError(), {"stream byte 0:", "0xA5A5"})) << h.GetError();
    // A partial header is only waiting.
    AdcMepFramer w;
    EXPECT_TRUE(FeedAll(w, {0x02, 0x06, 0x09, 0x00, 0x08}).empty());
    EXPECT_FALSE(w.HasError());
    EXPECT_EQ(w.GetBufferedBytes(), 5U);
}

TEST(AdcMepMessage, SeededRoundTripThroughTheFramer)
{
    // REQ: GSLB-07 (what one site sends, another reads back unchanged)
    std::mt19937 rng(20261202);
    auto u = [&rng](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
    const std::vector<std::pair<uint8_t, uint8_t>> versions =
        {{1, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 4}, {2, 5}, {2, 6}};
    std::vector<AdcMepMessage> sent;
    Bytes stream;
    for (int i = 0; i < 300; ++i)
    {
        AdcMepMessage m;
        const auto v = versions[u(versions.size())];
        m.major = v.first;
        m.minor = v.second;
        m.type = static_cast<uint16_t>(u(AdcMepMessage::kMaxType + 1));
        m.status = static_cast<uint16_t>(u(3) == 0 ? rng() : 0);
        const uint32_t n = u(6);
        for (uint32_t k = 0; k < n; ++k)
        {
            if (m.type == AdcMepMessage::NETWORK_METRIC_UPDATE)
            {
                m.networkMetrics.push_back({Ipv4Address(static_cast<uint32_t>(rng())),
                                            static_cast<uint16_t>(rng()),
                                            static_cast<uint8_t>(rng())});
            }
            else if (m.type == AdcMepMessage::SITE_METRIC_UPDATE)
            {
                AdcMepSiteMetric r;
                r.command = static_cast<uint16_t>(rng());
                r.state = static_cast<uint16_t>(u(9));
                r.ip = Ipv4Address(static_cast<uint32_t>(rng()));
                r.port = static_cast<uint16_t>(rng());
                r.serviceType = static_cast<uint16_t>(u(0x29));
                const bool extended = m.major == 2 && m.minor > 2;
                r.effectiveState = extended ? static_cast<uint8_t>(rng()) : 0;
                r.mepFlags = extended ? static_cast<uint8_t>(rng()) : 0;
                m.siteMetrics.push_back(r);
            }
            else if (m.type != AdcMepMessage::KEEP_ALIVE)
            {
                for (uint32_t j = 0; j < 5; ++j)
                {
                    m.body.push_back(static_cast<uint8_t>(rng()));
                }
            }
        }
        const Bytes w = m.Serialize();
        ASSERT_EQ(w.size(), m.GetSerializedSize());
        ASSERT_EQ(AdcMepMessage::Parse(w), m) << "message " << i;
        stream.insert(stream.end(), w.begin(), w.end());
        sent.push_back(m);
    }
    AdcMepFramer f;
    std::vector<AdcMepMessage> got;
    for (std::size_t at = 0; at < stream.size();)
    {
        const std::size_t n = std::min<std::size_t>(stream.size() - at, 1 + u(60));
        for (auto& m : f.Feed(stream.data() + at, n))
        {
            got.push_back(m);
        }
        at += n;
    }
    EXPECT_FALSE(f.HasError()) << f.GetError();
    EXPECT_EQ(f.GetMessageBytes(), stream.size());
    ASSERT_EQ(got.size(), sent.size());
    EXPECT_TRUE(got == sent);
}

namespace
{

/**
 * \param payload TCP payload \param seq its first sequence number
 * \return an Ethernet frame: site A 10.0.1.1:40001 -> site B 10.0.2.1:3011, TCP ACK|PSH
 */
Ptr<Packet>
MepFrame(const Bytes& payload, uint32_t seq)
{
    Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
    TcpHeader tcp;
    tcp.SetSourcePort(40001);
    tcp.SetDestinationPort(AdcMepMessage::kPort);
    tcp.SetSequenceNumber(SequenceNumber32(seq));
    tcp.SetAckNumber(SequenceNumber32(1));
    tcp.SetFlags(TcpHeader::ACK | TcpHeader::PSH);
    tcp.SetWindowSize(65535);
    p->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.1.1"));
    ip.SetDestination(Ipv4Address("10.0.2.1"));
    ip.SetProtocol(6);
    ip.SetTtl(64);
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("02:00:00:00:00:01"));
    eth.SetDestination(Mac48Address("02:00:00:00:00:02"));
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);
    return p;
}

} // namespace

TEST(AdcMepMessage, PcapDecodesAsMepInWireshark)
{
    // REQ: GSLB-07 (MEP messages in a pcap, as Wireshark reads them)
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("adc-mep-message-test-" + std::to_string(getpid())))
                                .string();
    std::filesystem::create_directories(dir);
    const std::string pcap = dir + "/mep.pcap";

    // Frame 1: the network update; 2: keep-alive and site update in one segment; 3 and 4: a
    // one-record network update (LDNS 198.51.100.77, 42 ms, 3 hops) cut after 10 bytes.
    Bytes both = kKeepAlive;
    both.insert(both.end(), kSiteUpdate.begin(), kSiteUpdate.end());
    const Bytes cut =
        AdcMepMessage::NetworkMetricUpdate({{Ipv4Address("198.51.100.77"), 42, 3}}).Serialize();
    ASSERT_EQ(cut.size(), 16U);
    {
        Ptr<PcapFileWrapper> file = CreateObject<PcapFileWrapper>();
        file->Open(pcap, std::ios::out);
        file->Init(PcapHelper::DLT_EN10MB);
        file->Write(Seconds(1), MepFrame(kNetworkUpdate, 1));
        file->Write(Seconds(2), MepFrame(both, 25));
        file->Write(Seconds(3), MepFrame(Bytes(cut.begin(), cut.begin() + 10), 57));
        file->Write(Seconds(4), MepFrame(Bytes(cut.begin() + 10, cut.end()), 67));
        file->Close();
    }
    const std::string tshark = "tshark -n -r '" + pcap + "' -d tcp.port==3011,nstrace.mep ";
    const std::string out = adctest::RunCommand(
        tshark + "-Y nstrace.mep -T fields -E 'separator=;' -e frame.number -e nstrace.mep.maj " +
        "-e nstrace.mep.min -e nstrace.mep.type -e nstrace.mep.len " +
        "-e nstrace.mep.ldns.ip -e nstrace.mep.mfu.roundTripTime -e nstrace.mep.mfu.hops " +
        "2>/dev/null");
    // packet-ns-mep.c adds nstrace.mep.ldns.ip (FT_IPv4) with ENC_LITTLE_ENDIAN: the LDNS
    // addresses, sent as little-endian integers, show as they are, and a display filter on
    // an LDNS address matches its record.
    EXPECT_EQ(adctest::OutputLines(out),
              (std::vector<std::string>{
                  "1;2;6;0x0007;24;10.1.2.3,192.0.2.53;300,7;5,0",
                  "2;2,2;6,6;0x0009,0x0001;8,24;;;",
                  "4;2;6;0x0007;16;198.51.100.77;42;3",
              }))
        << out;
    const std::string match = adctest::RunCommand(
        tshark + "-Y 'nstrace.mep.ldns.ip == 198.51.100.77' -T fields -e frame.number " +
        "2>/dev/null");
    EXPECT_EQ(adctest::OutputLines(match), (std::vector<std::string>{"4"})) << match;
    // The record's label prints the same 4 bytes in network order (tvb_address_to_str, the
    // one place the dissector does so), and service addresses are ENC_BIG_ENDIAN.
    const std::string tree = adctest::RunCommand(tshark + "-V 2>/dev/null");
    EXPECT_TRUE(adctest::HasAll(tree,
                                {"LDNS IP Address: 10.1.2.3",
                                 "Network Metrics of 3.2.1.10",
                                 "Network Metrics of 53.2.0.192",
                                 "Network Metrics of 77.100.51.198",
                                 "Service IP Address: "
                                 "198.51.100.10"}));
    const std::string bad = adctest::RunCommand(
        tshark + "-Y '_ws.malformed || _ws.expert.severity == error' -T fields -e frame.number " +
        "2>/dev/null");
    EXPECT_TRUE(adctest::OutputLines(bad).empty()) << bad;
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir);
    }
}
