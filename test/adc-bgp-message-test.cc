/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the BGP-4 messages (model/wire/adc-bgp-message.h): byte-exact encodings
 * written field by field from the layouts of RFC 4271 (sections 4.1-4.5), RFC 4760 (MP_REACH /
 * MP_UNREACH), RFC 5492 (capabilities) and RFC 6793 (4-octet AS); every error case with the
 * NOTIFICATION code/subcode of RFC 4271 section 6; the stream framer split at every byte; a
 * seeded random round trip; and a pcap of the messages over ns-3 TCP port 179 that tshark must
 * decode as BGP.
 */

// REQ: SLB-04 (each MUX announces each VIP as a route over BGP: the UPDATE of a VIP host route)
// REQ: SLB-10 (BGP keepalives let routers notice a failed MUX: KEEPALIVE, hold time, and the
//              NOTIFICATION a speaker sends on a bad message)
// REQ: SLB-12 (the router receives VIP route updates from MUXes and drops failed ones: the
//              UPDATE that withdraws a VIP)
// REQ: SLB-13 (IPv4 and IPv6: VIPs of both families, IPv6 in MP_REACH_NLRI)

#include "adc-test-fixtures.h"

#include "ns3/adc-bgp-message.h"
#include "ns3/adc-config-error.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

using adctest::Cat;

/// The 16-byte marker: all ones (RFC 4271 section 4.1).
const Bytes kMarker(16, 0xff);

/// \param length the header's length field \param type its type \return marker, length, type
Bytes
BgpHeader(uint16_t length, uint8_t type)
{
    return Cat(
        {kMarker, {static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length)}, {type}});
}

/// \param text e.g. "10.0.0.1" \param len prefix length \return the prefix
AdcBgpIpv4Prefix
P4(const char* text, uint8_t len)
{
    return AdcBgpIpv4Prefix{Ipv4Address(text), len};
}

/// \param text e.g. "2001:db8::1" \param len prefix length \return the prefix
AdcBgpIpv6Prefix
P6(const char* text, uint8_t len)
{
    return AdcBgpIpv6Prefix{Ipv6Address(text), len};
}

/// \param f a callable that must throw AdcConfigError \return its message
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const AdcConfigError& e)
    {
        return e.what();
    }
    return "(no AdcConfigError)";
}

/// \param e text \param part text it must hold \return whether it does
::testing::AssertionResult
Holds(const std::string& e, const std::string& part)
{
    if (e.find(part) != std::string::npos)
    {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "'" << e << "' does not contain '" << part << "'";
}

/**
 * \param bytes a message \param code expected error code \param subcode expected subcode
 * \param four 4-octet ASes \return success when Parse reports exactly that error
 */
::testing::AssertionResult
ParsesTo(const Bytes& bytes, uint8_t code, uint8_t subcode, bool four = false)
{
    const AdcBgpParseResult r = AdcBgpMessage::Parse(bytes, four);
    if (r.Ok())
    {
        return ::testing::AssertionFailure() << "parsed: " << r.message->ToString();
    }
    if (r.error->code != code || r.error->subcode != subcode)
    {
        return ::testing::AssertionFailure() << "got " << r.error->ToString();
    }
    return ::testing::AssertionSuccess() << r.error->ToString();
}

/// \param bytes a message \param four 4-octet ASes \return the parsed message (test fails
/// when it does not parse)
AdcBgpMessage
MustParse(const Bytes& bytes, bool four)
{
    const AdcBgpParseResult r = AdcBgpMessage::Parse(bytes, four);
    EXPECT_TRUE(r.Ok()) << (r.error ? r.error->ToString() : "");
    return r.Ok() ? *r.message : AdcBgpMessage();
}

// ---- golden messages, written from the RFC layouts ----------------------------------------

/// KEEPALIVE: the header only, length 19 (RFC 4271 section 4.4).
const Bytes kKeepalive = Cat({kMarker, {0x00, 0x13}, {0x04}});

/// OPEN of a MUX in AS 65001, hold time 90, identifier 10.255.0.1, with the multiprotocol
/// capability for IPv4 unicast and the 4-octet AS capability (RFC 4271 4.2, RFC 5492 4).
const Bytes kOpen = Cat({
    BgpHeader(43, 1),                     // 29 fixed + 14 of optional parameters = 43 (0x2b)
    {0x04},                               // version 4
    {0xfd, 0xe9},                         // my AS 65001
    {0x00, 0x5a},                         // hold time 90
    {0x0a, 0xff, 0x00, 0x01},             // BGP identifier 10.255.0.1
    {0x0e},                               // optional parameters length 14
    {0x02, 0x0c},                         // parameter type 2 (capabilities), length 12
    {0x01, 0x04, 0x00, 0x01, 0x00, 0x01}, // cap 1 (MP), len 4: AFI 1, reserved, SAFI 1
    {0x41, 0x04, 0x00, 0x00, 0xfd, 0xe9}, // cap 65 (4-octet AS), len 4: AS 65001
});

/// UPDATE announcing the VIP 10.0.0.1/32 with ORIGIN IGP, AS_PATH [65001] (2-octet ASes),
/// NEXT_HOP 10.1.0.2 (the MUX) (RFC 4271 section 4.3).
const Bytes kAnnounce = Cat({
    BgpHeader(46, 2),                           // 19 + 2 + 2 + 18 + 5 = 46 (0x2e)
    {0x00, 0x00},                               // withdrawn routes length 0
    {0x00, 0x12},                               // total path attribute length 18
    {0x40, 0x01, 0x01, 0x00},                   // ORIGIN: well-known transitive, len 1, IGP
    {0x40, 0x02, 0x04, 0x02, 0x01, 0xfd, 0xe9}, // AS_PATH: len 4, AS_SEQUENCE of 1: 65001
    {0x40, 0x03, 0x04, 0x0a, 0x01, 0x00, 0x02}, // NEXT_HOP: len 4, 10.1.0.2
    {0x20, 0x0a, 0x00, 0x00, 0x01},             // NLRI: /32, 10.0.0.1
});

/// The same announcement on a session with 4-octet ASes (RFC 6793 section 3).
const Bytes kAnnounce4 = Cat({
    BgpHeader(48, 2), // two more bytes of AS
    {0x00, 0x00},
    {0x00, 0x14}, // 20
    {0x40, 0x01, 0x01, 0x00},
    {0x40, 0x02, 0x06, 0x02, 0x01, 0x00, 0x00, 0xfd, 0xe9}, // AS 65001 in 4 bytes
    {0x40, 0x03, 0x04, 0x0a, 0x01, 0x00, 0x02},
    {0x20, 0x0a, 0x00, 0x00, 0x01},
});

/// UPDATE withdrawing 10.0.0.1/32: withdrawn routes only (RFC 4271 section 4.3).
const Bytes kWithdraw = Cat({
    BgpHeader(28, 2),               // 19 + 2 + 5 + 2 = 28 (0x1c)
    {0x00, 0x05},                   // withdrawn routes length 5
    {0x20, 0x0a, 0x00, 0x00, 0x01}, // /32 10.0.0.1
    {0x00, 0x00},                   // no path attributes
});

/// 2001:db8::1 and 2001:db8:1::2 as bytes.
const Bytes kV6Vip = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
const Bytes kV6NextHop = {0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02};

/// UPDATE announcing 2001:db8::1/128 in MP_REACH_NLRI (RFC 4760 section 3), 4-octet ASes.
const Bytes kAnnounce6 = Cat({
    BgpHeader(77, 2), // 19 + 2 + 2 + 54 = 77 (0x4d)
    {0x00, 0x00},
    {0x00, 0x36}, // 4 + 9 + 41 = 54
    {0x40, 0x01, 0x01, 0x00},
    {0x40, 0x02, 0x06, 0x02, 0x01, 0x00, 0x00, 0xfd, 0xe9},
    {0x80, 0x0e, 0x26}, // MP_REACH_NLRI: optional non-transitive, len 38
    {0x00, 0x02},       // AFI 2 (IPv6)
    {0x01},             // SAFI 1 (unicast)
    {0x10},             // next hop length 16
    kV6NextHop,
    {0x00}, // reserved
    {0x80}, // /128
    kV6Vip,
});

/// UPDATE withdrawing 2001:db8::1/128 in MP_UNREACH_NLRI (RFC 4760 section 4).
const Bytes kWithdraw6 = Cat({
    BgpHeader(46, 2), // 19 + 2 + 2 + 23
    {0x00, 0x00},
    {0x00, 0x17},             // 23
    {0x80, 0x0f, 0x14},       // MP_UNREACH_NLRI, len 20
    {0x00, 0x02, 0x01, 0x80}, // AFI 2, SAFI 1, /128
    kV6Vip,
});

/// NOTIFICATION Cease / Administrative Shutdown (RFC 4271 section 4.5, RFC 4486).
const Bytes kNotification = Cat({BgpHeader(21, 3), {0x06, 0x02}});

/// \param data bytes \return them with the header's length field set to their size
Bytes
Fix(Bytes data)
{
    data[16] = static_cast<uint8_t>(data.size() >> 8);
    data[17] = static_cast<uint8_t>(data.size());
    return data;
}

/// \param attrs path attributes \param nlri NLRI bytes \return an UPDATE carrying them
Bytes
UpdateWith(const Bytes& attrs, const Bytes& nlri)
{
    return Fix(Cat({BgpHeader(0, 2),
                    {0x00, 0x00},
                    {static_cast<uint8_t>(attrs.size() >> 8), static_cast<uint8_t>(attrs.size())},
                    attrs,
                    nlri}));
}

const Bytes kOrigin = {0x40, 0x01, 0x01, 0x00};
const Bytes kAsPath = {0x40, 0x02, 0x04, 0x02, 0x01, 0xfd, 0xe9};
const Bytes kNextHop = {0x40, 0x03, 0x04, 0x0a, 0x01, 0x00, 0x02};
const Bytes kVipNlri = {0x20, 0x0a, 0x00, 0x00, 0x01};

} // namespace

// ---------------------------------------------------------------------- golden bytes

TEST(AdcBgpMessage, KeepaliveGoldenBytes)
{
    // REQ: SLB-10
    EXPECT_EQ(AdcBgpMessage::Keepalive().Serialize(false), kKeepalive);
    const AdcBgpMessage m = MustParse(kKeepalive, false);
    EXPECT_EQ(m.type, AdcBgpMessage::KEEPALIVE);
    EXPECT_EQ(m.ToString(), "KEEPALIVE");
}

TEST(AdcBgpMessage, OpenWithBothCapabilitiesGoldenBytes)
{
    // REQ: SLB-04 (the session a MUX opens to its router)
    // REQ: SLB-10 (the hold time the router uses to detect a failed MUX)
    const AdcBgpOpen o = AdcBgpOpen::Make(65001, 90, Ipv4Address("10.255.0.1"), true, false);
    EXPECT_EQ(AdcBgpMessage::Open(o).Serialize(false), kOpen);
    const AdcBgpMessage m = MustParse(kOpen, false);
    ASSERT_EQ(m.type, AdcBgpMessage::OPEN);
    EXPECT_EQ(m.open.version, 4);
    EXPECT_EQ(m.open.myAs, 65001);
    EXPECT_EQ(m.open.holdTime, 90);
    EXPECT_EQ(m.open.bgpIdentifier, Ipv4Address("10.255.0.1"));
    ASSERT_EQ(m.open.capabilities.size(), 2U);
    EXPECT_EQ(m.open.GetFourOctetAs(), std::optional<uint32_t>(65001));
    EXPECT_TRUE(m.open.HasMultiprotocol(1, 1));
    EXPECT_FALSE(m.open.HasMultiprotocol(2, 1));
    EXPECT_EQ(m.open, o);
}

TEST(AdcBgpMessage, OpenWithFourOctetAsUsesAsTrans)
{
    // REQ: SLB-04
    // RFC 6793 section 4.2.1: my AS carries AS_TRANS (23456 = 0x5ba0) when the AS needs 4
    // bytes; the capability carries the real one (4200000000 = 0xfa56ea00).
    const Bytes expected = Cat({
        BgpHeader(49, 1), // 29 + 20
        {0x04},
        {0x5b, 0xa0}, // AS_TRANS
        {0x00, 0x1e}, // hold time 30 (Ananta's routers)
        {0xc0, 0x00, 0x02, 0x01},
        {0x14},                               // 20
        {0x02, 0x12},                         // capabilities, 18
        {0x01, 0x04, 0x00, 0x01, 0x00, 0x01}, // MP IPv4 unicast
        {0x01, 0x04, 0x00, 0x02, 0x00, 0x01}, // MP IPv6 unicast
        {0x41, 0x04, 0xfa, 0x56, 0xea, 0x00}, // 4-octet AS 4200000000
    });
    const AdcBgpOpen o = AdcBgpOpen::Make(4200000000U, 30, Ipv4Address("192.0.2.1"));
    EXPECT_EQ(AdcBgpMessage::Open(o).Serialize(true), expected);
    const AdcBgpMessage m = MustParse(expected, true);
    EXPECT_EQ(m.open.myAs, AdcBgpOpen::kAsTrans);
    EXPECT_EQ(m.open.GetPeerAs(), 4200000000U);
    EXPECT_TRUE(m.open.HasMultiprotocol(2, 1));
}

TEST(AdcBgpMessage, OpenCapabilitiesInSeparateParametersAndUnknownKeptRaw)
{
    // REQ: SLB-04
    // Many routers send one capability per parameter; an unknown capability (here 2, route
    // refresh, and 128) is kept raw.
    const Bytes wire = Cat({
        BgpHeader(29 + 18, 1),
        {0x04, 0xfd, 0xe9, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x01}, // hold time 0: no keepalives
        {0x12},                                                 // 8 + 4 + 6
        {0x02, 0x06, 0x01, 0x04, 0x00, 0x02, 0x00, 0x01},
        {0x02, 0x02, 0x02, 0x00},
        {0x02, 0x04, 0x80, 0x02, 0xab, 0xcd},
    });
    const AdcBgpMessage m = MustParse(wire, false);
    ASSERT_EQ(m.open.capabilities.size(), 3U);
    EXPECT_EQ(m.open.holdTime, 0);
    EXPECT_EQ(m.open.capabilities[1], (AdcBgpCapability{2, {}}));
    EXPECT_EQ(m.open.capabilities[2], (AdcBgpCapability{128, {0xab, 0xcd}}));
    EXPECT_EQ(m.open.GetPeerAs(), 65001U);
    // Serialize packs them into one parameter (RFC 5492 allows both): 2 + 6 + 2 + 4 = 14.
    const Bytes again = m.Serialize(false);
    EXPECT_EQ(again.size(), 29U + 14U);
    EXPECT_EQ(MustParse(again, false), m);
}

TEST(AdcBgpMessage, UpdateAnnouncingVipGoldenBytes)
{
    // REQ: SLB-04 (one UPDATE per VIP per MUX: the VIP as a /32 host route)
    const AdcBgpUpdate u =
        AdcBgpUpdate::Announce({P4("10.0.0.1", 32)}, {65001}, Ipv4Address("10.1.0.2"));
    EXPECT_EQ(AdcBgpMessage::Update(u).Serialize(false), kAnnounce);
    EXPECT_EQ(AdcBgpMessage::Update(u).Serialize(true), kAnnounce4);
    for (bool four : {false, true})
    {
        const AdcBgpMessage m = MustParse(four ? kAnnounce4 : kAnnounce, four);
        ASSERT_EQ(m.type, AdcBgpMessage::UPDATE);
        EXPECT_EQ(m.update.origin, std::optional<uint8_t>(AdcBgpUpdate::IGP));
        ASSERT_TRUE(m.update.asPath);
        ASSERT_EQ(m.update.asPath->size(), 1U);
        EXPECT_EQ((*m.update.asPath)[0].type, AdcBgpAsPathSegment::kAsSequence);
        EXPECT_EQ((*m.update.asPath)[0].ases, std::vector<uint32_t>{65001});
        EXPECT_EQ(m.update.nextHop, std::optional<Ipv4Address>(Ipv4Address("10.1.0.2")));
        ASSERT_EQ(m.update.nlri.size(), 1U);
        EXPECT_EQ(m.update.nlri[0].ToString(), "10.0.0.1/32");
        EXPECT_EQ(m.update, u);
    }
    EXPECT_EQ(MustParse(kAnnounce, false).ToString(),
              "UPDATE origin=0 as_path=[65001] next_hop=10.1.0.2 nlri=10.0.0.1/32");
}

TEST(AdcBgpMessage, UpdateWithdrawingVipGoldenBytes)
{
    // REQ: SLB-12 (a MUX leaving withdraws its VIP routes; the router drops it)
    const AdcBgpUpdate u = AdcBgpUpdate::Withdraw({P4("10.0.0.1", 32)});
    EXPECT_EQ(AdcBgpMessage::Update(u).Serialize(false), kWithdraw);
    const AdcBgpMessage m = MustParse(kWithdraw, false);
    EXPECT_EQ(m.update.withdrawn, std::vector<AdcBgpIpv4Prefix>{P4("10.0.0.1", 32)});
    EXPECT_TRUE(m.update.nlri.empty());
    EXPECT_FALSE(m.update.origin); // a withdrawal needs no attributes
}

TEST(AdcBgpMessage, MpReachIpv6VipGoldenBytes)
{
    // REQ: SLB-13 (an IPv6 VIP travels in MP_REACH_NLRI / MP_UNREACH_NLRI)
    // REQ: SLB-04
    const AdcBgpUpdate u =
        AdcBgpUpdate::Announce6({P6("2001:db8::1", 128)}, {65001}, Ipv6Address("2001:db8:1::2"));
    EXPECT_EQ(AdcBgpMessage::Update(u).Serialize(true), kAnnounce6);
    const AdcBgpMessage m = MustParse(kAnnounce6, true);
    ASSERT_TRUE(m.update.mpReach);
    EXPECT_EQ(m.update.mpReach->nextHop, Ipv6Address("2001:db8:1::2"));
    EXPECT_FALSE(m.update.mpReach->linkLocal);
    ASSERT_EQ(m.update.mpReach->nlri.size(), 1U);
    EXPECT_EQ(m.update.mpReach->nlri[0].ToString(), "2001:db8::1/128");
    EXPECT_FALSE(m.update.nextHop); // no NEXT_HOP needed without IPv4 NLRI (RFC 4760 3)
    EXPECT_EQ(m.update, u);

    const AdcBgpUpdate w = AdcBgpUpdate::Withdraw6({P6("2001:db8::1", 128)});
    EXPECT_EQ(AdcBgpMessage::Update(w).Serialize(true), kWithdraw6);
    EXPECT_EQ(MustParse(kWithdraw6, true).update, w);
}

TEST(AdcBgpMessage, MpReachLinkLocalNextHopAndShortPrefixes)
{
    // REQ: SLB-13
    AdcBgpUpdate u = AdcBgpUpdate::Announce6({P6("2001:db8::", 32), P6("::", 0)},
                                             {},
                                             Ipv6Address("2001:db8:1::2"));
    u.mpReach->linkLocal = Ipv6Address("fe80::1");
    const Bytes wire = AdcBgpMessage::Update(u).Serialize(true);
    // Next hop length 32 (global, then link-local); /32 takes 4 bytes, /0 none.
    const Bytes mp = Cat({{0x80, 0x0e, 0x2b}, // len 43 = 2 + 1 + 1 + 32 + 1 + 5 + 1
                          {0x00, 0x02, 0x01, 0x20},
                          kV6NextHop,
                          {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01},
                          {0x00},
                          {0x20, 0x20, 0x01, 0x0d, 0xb8},
                          {0x00}});
    // ORIGIN (4 bytes), then an empty AS_PATH (40 02 00), then MP_REACH_NLRI.
    EXPECT_EQ(wire, UpdateWith(Cat({kOrigin, {0x40, 0x02, 0x00}, mp}), {}));
    EXPECT_EQ(MustParse(wire, true).update, u);
}

TEST(AdcBgpMessage, NotificationGoldenBytesAndNames)
{
    // REQ: SLB-10
    AdcBgpNotification n;
    n.code = AdcBgpNotification::CEASE;
    n.subcode = 2;
    EXPECT_EQ(AdcBgpMessage::Notification(n).Serialize(false), kNotification);
    EXPECT_EQ(MustParse(kNotification, false).notification, n);
    EXPECT_EQ(MustParse(kNotification, false).ToString(),
              "NOTIFICATION 6/2 (Cease / Administrative Shutdown)");
    // With data: Bad Message Length carries the erroneous length field.
    n = {1, 2, {0x00, 0x12}};
    EXPECT_EQ(AdcBgpMessage::Notification(n).Serialize(false),
              Cat({BgpHeader(23, 3), {0x01, 0x02, 0x00, 0x12}}));
    EXPECT_EQ(AdcBgpNotification::CodeName(3), "UPDATE Message Error");
    EXPECT_EQ(AdcBgpNotification::SubcodeName(3, 10), "Invalid Network Field");
    EXPECT_EQ(AdcBgpNotification::SubcodeName(2, 6), "Unacceptable Hold Time");
    EXPECT_EQ(AdcBgpNotification::SubcodeName(1, 1), "Connection Not Synchronized");
    EXPECT_EQ(AdcBgpNotification::SubcodeName(3, 12), "Unknown");
    EXPECT_EQ(AdcBgpNotification::SubcodeName(4, 0), "Unspecific");
    EXPECT_EQ(AdcBgpMessage::TypeName(2), "UPDATE");
    EXPECT_EQ(AdcBgpMessage::TypeName(9), "Unknown");
    EXPECT_EQ(AdcBgpUpdate::AttributeName(14), "MP_REACH_NLRI");
    EXPECT_EQ(AdcBgpCapability::Name(65), "4-octet AS");
}

TEST(AdcBgpMessage, OtherAttributesKeptAndKnownOnesTyped)
{
    // REQ: SLB-04
    // MED, LOCAL_PREF, ATOMIC_AGGREGATE typed; COMMUNITIES (8, optional transitive) raw; the
    // extended-length bit on ORIGIN accepted (and dropped when re-sent).
    const Bytes attrs = Cat({
        {0x50, 0x01, 0x00, 0x01, 0x02}, // ORIGIN, extended length 1, INCOMPLETE
        kAsPath,
        kNextHop,
        {0x80, 0x04, 0x04, 0x00, 0x00, 0x00, 0x64}, // MED 100
        {0x40, 0x05, 0x04, 0x00, 0x00, 0x00, 0xc8}, // LOCAL_PREF 200
        {0x40, 0x06, 0x00},                         // ATOMIC_AGGREGATE
        {0xc0, 0x08, 0x04, 0xfd, 0xe9, 0x00, 0x01}, // COMMUNITIES 65001:1
    });
    const AdcBgpMessage m = MustParse(UpdateWith(attrs, kVipNlri), false);
    EXPECT_EQ(m.update.origin, std::optional<uint8_t>(2));
    EXPECT_EQ(m.update.med, std::optional<uint32_t>(100));
    EXPECT_EQ(m.update.localPref, std::optional<uint32_t>(200));
    EXPECT_TRUE(m.update.atomicAggregate);
    ASSERT_EQ(m.update.otherAttributes.size(), 1U);
    EXPECT_EQ(m.update.otherAttributes[0], (AdcBgpRawAttribute{0xc0, 8, {0xfd, 0xe9, 0x00, 0x01}}));
    const Bytes again = m.Serialize(false);
    EXPECT_EQ(again.size(), UpdateWith(attrs, kVipNlri).size() - 1); // ORIGIN 1 byte shorter
    EXPECT_EQ(MustParse(again, false), m);
}

// ---------------------------------------------------------------------- errors

TEST(AdcBgpMessage, HeaderErrors)
{
    // REQ: SLB-10 (the NOTIFICATION a speaker sends for a bad header, RFC 4271 6.1)
    Bytes badMarker = kKeepalive;
    badMarker[3] = 0xfe;
    EXPECT_TRUE(ParsesTo(badMarker, 1, 1));
    EXPECT_EQ(AdcBgpMessage::Parse(badMarker, false).error->offset, 3U);

    const Bytes shortLength = Cat({kMarker, {0x00, 0x12}, {0x04}}); // 18
    EXPECT_TRUE(ParsesTo(shortLength, 1, 2));
    EXPECT_EQ(AdcBgpMessage::Parse(shortLength, false).error->data, (Bytes{0x00, 0x12}));
    const Bytes longLength = Cat({kMarker, {0x10, 0x01}, {0x02}}); // 4097
    EXPECT_TRUE(ParsesTo(longLength, 1, 2));
    EXPECT_EQ(AdcBgpMessage::Parse(longLength, false).error->data, (Bytes{0x10, 0x01}));

    const Bytes badType = Cat({kMarker, {0x00, 0x13}, {0x05}});
    EXPECT_TRUE(ParsesTo(badType, 1, 3));
    EXPECT_EQ(AdcBgpMessage::Parse(badType, false).error->data, (Bytes{0x05}));
    EXPECT_EQ(AdcBgpMessage::Parse(badType, false).error->offset, 18U);

    // Lengths wrong for the type (RFC 4271 6.1).
    EXPECT_TRUE(ParsesTo(Cat({BgpHeader(20, 4), {0x00}}), 1, 2));         // KEEPALIVE of 20
    EXPECT_TRUE(ParsesTo(Cat({BgpHeader(28, 1), Bytes(9, 0x01)}), 1, 2)); // OPEN below 29
    EXPECT_TRUE(ParsesTo(Cat({BgpHeader(22, 2), Bytes(3, 0)}), 1, 2));    // UPDATE below 23
    EXPECT_TRUE(ParsesTo(Cat({BgpHeader(20, 3), {0x06}}), 1, 2));         // NOTIFICATION below 21
    // Length field and the bytes given disagree; fewer bytes than a header.
    EXPECT_TRUE(ParsesTo(Cat({kKeepalive, {0x00}}), 1, 2));
    EXPECT_TRUE(ParsesTo(Bytes(kMarker), 1, 2));
    const std::string text = AdcBgpMessage::Parse(badType, false).error->ToString();
    EXPECT_TRUE(Holds(text, "BGP error 1/3 (Message Header Error / Bad Message Type) at byte 18"));
    EXPECT_TRUE(Holds(text, "type 5 is not 1 (OPEN)"));
}

TEST(AdcBgpMessage, OpenErrors)
{
    // REQ: SLB-10 (hold time 0 or >= 3: the router's failure detection, RFC 4271 6.2)
    auto open = [](uint8_t version, uint16_t as, uint16_t hold, Bytes id, Bytes params) {
        return Fix(Cat({BgpHeader(0, 1),
                        {version},
                        {static_cast<uint8_t>(as >> 8), static_cast<uint8_t>(as)},
                        {static_cast<uint8_t>(hold >> 8), static_cast<uint8_t>(hold)},
                        id,
                        {static_cast<uint8_t>(params.size())},
                        params}));
    };
    const Bytes id = {0x0a, 0x00, 0x00, 0x01};
    EXPECT_TRUE(AdcBgpMessage::Parse(open(4, 65001, 3, id, {}), false).Ok());
    EXPECT_TRUE(ParsesTo(open(3, 65001, 90, id, {}), 2, 1));
    EXPECT_EQ(AdcBgpMessage::Parse(open(3, 65001, 90, id, {}), false).error->data,
              (Bytes{0x00, 0x04})); // the version supported
    EXPECT_TRUE(ParsesTo(open(4, 0, 90, id, {}), 2, 2));
    EXPECT_TRUE(ParsesTo(open(4, 65001, 1, id, {}), 2, 6));
    EXPECT_TRUE(ParsesTo(open(4, 65001, 2, id, {}), 2, 6));
    EXPECT_EQ(AdcBgpMessage::Parse(open(4, 65001, 2, id, {}), false).error->offset, 22U);
    EXPECT_TRUE(ParsesTo(open(4, 65001, 90, {0, 0, 0, 0}, {}), 2, 3));
    // Optional parameter type 1 (authentication, deprecated): unsupported.
    EXPECT_TRUE(ParsesTo(open(4, 65001, 90, id, {0x01, 0x01, 0x00}), 2, 4));
    // Parameter or capability lengths running past the end; a 4-octet AS capability of 2.
    EXPECT_TRUE(ParsesTo(open(4, 65001, 90, id, {0x02, 0x05, 0x41, 0x04}), 2, 0));
    EXPECT_TRUE(ParsesTo(open(4, 65001, 90, id, {0x02, 0x02, 0x41, 0x04}), 2, 0));
    EXPECT_TRUE(ParsesTo(open(4, 65001, 90, id, {0x02, 0x04, 0x41, 0x02, 0x00, 0x01}), 2, 0));
    // Optional parameters length disagreeing with the message length.
    Bytes wrong = open(4, 65001, 90, id, {0x02, 0x02, 0x02, 0x00});
    wrong[28] = 3;
    EXPECT_TRUE(ParsesTo(wrong, 2, 0));
}

TEST(AdcBgpMessage, UpdateErrors)
{
    // REQ: SLB-12 (a router rejects a malformed VIP route with the RFC 4271 6.3 NOTIFICATION)
    // 3/1: withdrawn routes length past the end; attribute length past the end; total
    // attribute length past the end; an attribute twice.
    EXPECT_TRUE(ParsesTo(Fix(Cat({BgpHeader(0, 2), {0x00, 0x09}, kVipNlri, {0x00, 0x00}})), 3, 1));
    EXPECT_TRUE(ParsesTo(UpdateWith({0x40, 0x01, 0x05, 0x00}, {}), 3, 1));
    EXPECT_TRUE(ParsesTo(Fix(Cat({BgpHeader(0, 2), {0x00, 0x00, 0x00, 0x05}, kOrigin})), 3, 1));
    EXPECT_TRUE(ParsesTo(UpdateWith(Cat({kOrigin, kOrigin}), {}), 3, 1));
    // 3/2: an unrecognized well-known attribute (type 99 without the optional bit).
    const Bytes unknown = {0x40, 0x63, 0x01, 0x07};
    EXPECT_TRUE(ParsesTo(UpdateWith(unknown, {}), 3, 2));
    EXPECT_EQ(AdcBgpMessage::Parse(UpdateWith(unknown, {}), false).error->data, unknown);
    // 3/3: NLRI without ORIGIN, AS_PATH or NEXT_HOP; data: the missing type code.
    for (const auto& [attrs, missing] :
         std::vector<std::pair<Bytes, uint8_t>>{{Cat({kAsPath, kNextHop}), 1},
                                                {Cat({kOrigin, kNextHop}), 2},
                                                {Cat({kOrigin, kAsPath}), 3}})
    {
        const Bytes b = UpdateWith(attrs, kVipNlri);
        EXPECT_TRUE(ParsesTo(b, 3, 3));
        EXPECT_EQ(AdcBgpMessage::Parse(b, false).error->data, Bytes{missing});
    }
    // 3/4: ORIGIN flagged optional; MED flagged transitive; ORIGIN partial.
    EXPECT_TRUE(ParsesTo(UpdateWith({0x80, 0x01, 0x01, 0x00}, {}), 3, 4));
    EXPECT_TRUE(ParsesTo(UpdateWith({0xc0, 0x04, 0x04, 0, 0, 0, 1}, {}), 3, 4));
    EXPECT_TRUE(ParsesTo(UpdateWith({0x60, 0x01, 0x01, 0x00}, {}), 3, 4));
    // 3/5: ORIGIN of 2 bytes, NEXT_HOP of 3, ATOMIC_AGGREGATE of 1; data: the attribute.
    const Bytes longOrigin = {0x40, 0x01, 0x02, 0x00, 0x00};
    EXPECT_TRUE(ParsesTo(UpdateWith(longOrigin, {}), 3, 5));
    EXPECT_EQ(AdcBgpMessage::Parse(UpdateWith(longOrigin, {}), false).error->data, longOrigin);
    EXPECT_TRUE(ParsesTo(UpdateWith({0x40, 0x03, 0x03, 10, 1, 0}, {}), 3, 5));
    EXPECT_TRUE(ParsesTo(UpdateWith({0x40, 0x06, 0x01, 0x00}, {}), 3, 5));
    // 3/6: ORIGIN 3.
    EXPECT_TRUE(ParsesTo(UpdateWith({0x40, 0x01, 0x01, 0x03}, {}), 3, 6));
    // 3/8: NEXT_HOP multicast or 0.0.0.0.
    EXPECT_TRUE(
        ParsesTo(UpdateWith(Cat({kOrigin, kAsPath, {0x40, 0x03, 0x04, 224, 0, 0, 1}}), kVipNlri),
                 3,
                 8));
    EXPECT_TRUE(ParsesTo(UpdateWith({0x40, 0x03, 0x04, 0, 0, 0, 0}, {}), 3, 8));
    // 3/9: MP_REACH_NLRI with a 4-byte next hop; with an IPv6 prefix of 129 bits.
    EXPECT_TRUE(
        ParsesTo(UpdateWith({0x80, 0x0e, 0x0a, 0x00, 0x02, 0x01, 0x04, 1, 2, 3, 4, 0, 0}, {}),
                 3,
                 9));
    EXPECT_TRUE(ParsesTo(UpdateWith({0x80, 0x0f, 0x04, 0x00, 0x02, 0x01, 0x81}, {}), 3, 9));
    // 3/10: an NLRI prefix of 33 bits; a prefix cut short; a withdrawn prefix of 40 bits.
    const Bytes good = Cat({kOrigin, kAsPath, kNextHop});
    EXPECT_TRUE(ParsesTo(UpdateWith(good, {0x21, 10, 0, 0, 1, 0}), 3, 10));
    EXPECT_TRUE(ParsesTo(UpdateWith(good, {0x20, 10, 0, 0}), 3, 10));
    EXPECT_TRUE(ParsesTo(Fix(Cat({BgpHeader(0, 2), {0x00, 0x01, 0x28}, {0x00, 0x00}})), 3, 10));
    const AdcBgpParseResult cut = AdcBgpMessage::Parse(UpdateWith(good, {0x20, 10, 0, 0}), false);
    EXPECT_EQ(cut.error->offset, 23U + good.size()); // the prefix's length byte
    EXPECT_TRUE(Holds(cut.error->what, "NLRI prefix /32 needs 4 bytes but 3 remain"));
    // 3/11: AS_PATH segment type 3; a segment of 0 ASes; 4-octet ASes read on a 2-octet
    // session (the speaker must be told which the session negotiated).
    EXPECT_TRUE(ParsesTo(UpdateWith({0x40, 0x02, 0x04, 0x03, 0x01, 0xfd, 0xe9}, {}), 3, 11));
    EXPECT_TRUE(ParsesTo(UpdateWith({0x40, 0x02, 0x02, 0x02, 0x00}, {}), 3, 11));
    EXPECT_TRUE(ParsesTo(kAnnounce4, 3, 11, false));
    EXPECT_TRUE(ParsesTo(kAnnounce, 3, 11, true));
}

TEST(AdcBgpMessage, ErrorBecomesTheNotificationToSend)
{
    // REQ: SLB-10
    const AdcBgpParseResult r = AdcBgpMessage::Parse(Cat({kMarker, {0x00, 0x12}, {0x04}}), false);
    ASSERT_FALSE(r.Ok());
    const Bytes sent = AdcBgpMessage::Notification(r.error->ToNotification()).Serialize(false);
    EXPECT_EQ(sent, Cat({BgpHeader(23, 3), {0x01, 0x02, 0x00, 0x12}}));
}

TEST(AdcBgpMessage, SerializeRefusesBadValues)
{
    // REQ: SLB-04
    AdcBgpOpen o = AdcBgpOpen::Make(65001, 90, Ipv4Address("10.0.0.9"));
    o.holdTime = 2;
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcBgpMessage::Open(o).Serialize(false); }),
                      "OPEN hold time 2 is not allowed: 0 or at least 3 seconds"));
    EXPECT_TRUE(
        Holds(ErrorOf([] { AdcBgpOpen::Make(65001, 1, Ipv4Address("10.0.0.9")); }), "hold time 1"));
    EXPECT_TRUE(Holds(ErrorOf([] { AdcBgpOpen::Make(0, 90, Ipv4Address("10.0.0.9")); }), "AS 0"));
    o = AdcBgpOpen::Make(65001, 90, Ipv4Address("0.0.0.0"));
    EXPECT_TRUE(
        Holds(ErrorOf([&] { AdcBgpMessage::Open(o).Serialize(false); }), "BGP identifier 0.0.0.0"));
    AdcBgpUpdate u = AdcBgpUpdate::Announce({P4("10.0.0.1", 24)}, {65001}, Ipv4Address("10.1.0.2"));
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcBgpMessage::Update(u).Serialize(false); }),
                      "NLRI prefix 10.0.0.1/24 is not allowed: host bits"));
    u = AdcBgpUpdate::Announce({P4("10.0.0.0", 33)}, {65001}, Ipv4Address("10.1.0.2"));
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcBgpMessage::Update(u).Serialize(false); }),
                      "NLRI prefix length 33 is not allowed: 0..32"));
    u = AdcBgpUpdate::Announce({P4("10.0.0.1", 32)}, {4200000000U}, Ipv4Address("10.1.0.2"));
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcBgpMessage::Update(u).Serialize(false); }),
                      "AS_PATH AS 4200000000 is not allowed"));
    EXPECT_NO_THROW(AdcBgpMessage::Update(u).Serialize(true));
    u.origin = 3;
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcBgpMessage::Update(u).Serialize(true); }), "ORIGIN 3"));
    u = AdcBgpUpdate::Announce({P4("10.0.0.1", 32)}, {65001}, Ipv4Address("224.0.0.5"));
    EXPECT_TRUE(
        Holds(ErrorOf([&] { AdcBgpMessage::Update(u).Serialize(true); }), "NEXT_HOP 224.0.0.5"));
    u = AdcBgpUpdate::Withdraw({});
    u.otherAttributes.push_back({0x40, 99, {}}); // not optional
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcBgpMessage::Update(u).Serialize(true); }), "optional"));
    // More than 4096 bytes: 1,000 /32 routes take 5,000.
    std::vector<AdcBgpIpv4Prefix> many;
    for (uint32_t i = 0; i < 1000; ++i)
    {
        many.push_back({Ipv4Address(0x0a000000 + i), 32});
    }
    EXPECT_TRUE(
        Holds(ErrorOf([&] { AdcBgpMessage::Update(AdcBgpUpdate::Withdraw(many)).Serialize(true); }),
              "at most 4096 bytes"));
}

// ---------------------------------------------------------------------- framer

TEST(AdcBgpFramer, SplitAtEveryByteAndManyInOneBuffer)
{
    // REQ: SLB-04 (a router reads the MUX's messages from its TCP stream, however cut)
    // REQ: SLB-10
    const Bytes stream = Cat({kOpen, kKeepalive, kAnnounce, kWithdraw, kNotification});
    const std::vector<uint8_t> types = {1, 4, 2, 2, 3};
    auto check = [&](const std::vector<AdcBgpMessage>& got, const std::string& how) {
        ASSERT_EQ(got.size(), types.size()) << how;
        for (std::size_t i = 0; i < types.size(); ++i)
        {
            EXPECT_EQ(got[i].type, types[i]) << how;
        }
        EXPECT_EQ(got[2].update.nlri, std::vector<AdcBgpIpv4Prefix>{P4("10.0.0.1", 32)}) << how;
        EXPECT_EQ(got[3].update.withdrawn, std::vector<AdcBgpIpv4Prefix>{P4("10.0.0.1", 32)})
            << how;
    };
    {
        AdcBgpFramer f;
        check(f.Feed(stream), "one buffer");
        EXPECT_EQ(f.GetMessageBytes(), stream.size());
        EXPECT_EQ(f.GetBuffered(), 0U);
        EXPECT_FALSE(f.GetError());
    }
    for (std::size_t cut = 0; cut <= stream.size(); ++cut)
    {
        AdcBgpFramer f;
        auto got = f.Feed(stream.data(), cut);
        const auto rest = f.Feed(stream.data() + cut, stream.size() - cut);
        got.insert(got.end(), rest.begin(), rest.end());
        check(got, "cut at " + std::to_string(cut));
        EXPECT_FALSE(f.GetError());
    }
    AdcBgpFramer f;
    std::vector<AdcBgpMessage> got;
    for (uint8_t b : stream)
    {
        for (auto& m : f.Feed(&b, 1))
        {
            got.push_back(m);
        }
        EXPECT_LT(f.GetBuffered(), 78U); // never more than one message held
    }
    check(got, "byte by byte");
}

TEST(AdcBgpFramer, ErrorsCarryStreamOffsetAndStopTheStream)
{
    // REQ: SLB-10
    Bytes stream = Cat({kKeepalive, kKeepalive, kKeepalive});
    stream[19 + 5] = 0x00; // the second message's marker
    for (std::size_t cut = 0; cut <= stream.size(); ++cut)
    {
        AdcBgpFramer f;
        auto got = f.Feed(stream.data(), cut);
        const auto rest = f.Feed(stream.data() + cut, stream.size() - cut);
        EXPECT_EQ(got.size() + rest.size(), 1U) << cut;
        ASSERT_TRUE(f.GetError()) << cut;
        EXPECT_EQ(f.GetError()->code, 1);
        EXPECT_EQ(f.GetError()->subcode, 1);
        EXPECT_EQ(f.GetError()->offset, 24U);
        EXPECT_TRUE(f.Feed(kKeepalive).empty()); // poisoned
    }
    // An UPDATE error inside the second message: the offset counts from the stream's start.
    AdcBgpFramer f;
    EXPECT_EQ(f.Feed(Cat({kKeepalive, UpdateWith(Cat({kOrigin, kAsPath}), kVipNlri)})).size(), 1U);
    ASSERT_TRUE(f.GetError());
    EXPECT_EQ(f.GetError()->subcode, 3);
    EXPECT_EQ(f.GetError()->offset, 19U + 21U); // the total path attribute length field
    // The 4-octet flag applies to messages after it is set.
    AdcBgpFramer g;
    EXPECT_EQ(g.Feed(kAnnounce).size(), 1U);
    g.SetFourOctetAs(true);
    EXPECT_EQ(g.Feed(kAnnounce4).size(), 1U);
    EXPECT_FALSE(g.GetError());
}

// ---------------------------------------------------------------------- random round trip

namespace
{

/// \param rng generator \return a random valid message
AdcBgpMessage
RandomMessage(std::mt19937& rng, bool four)
{
    auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
    auto prefix4 = [&]() {
        const uint8_t len = static_cast<uint8_t>(pick(33));
        const uint32_t mask = len == 0 ? 0 : 0xffffffffU << (32 - len);
        return AdcBgpIpv4Prefix{Ipv4Address(static_cast<uint32_t>(rng()) & mask), len};
    };
    auto prefix6 = [&]() {
        const uint8_t len = static_cast<uint8_t>(pick(129));
        uint8_t a[16];
        for (int i = 0; i < 16; ++i)
        {
            const int bits = std::clamp(static_cast<int>(len) - 8 * i, 0, 8);
            a[i] = static_cast<uint8_t>(pick(256) & (0xff00 >> bits));
        }
        return AdcBgpIpv6Prefix{Ipv6Address(a), len};
    };
    switch (pick(4))
    {
    case 0: {
        AdcBgpOpen o = AdcBgpOpen::Make(1 + pick(four ? 0xfffffffe : 0xffff),
                                        static_cast<uint16_t>(pick(2) ? 0 : 3 + pick(65000)),
                                        Ipv4Address(1 + pick(0x7fffffff)),
                                        pick(2),
                                        pick(2));
        if (pick(2))
        {
            o.capabilities.push_back({static_cast<uint8_t>(128 + pick(100)), Bytes(pick(20), 7)});
        }
        return AdcBgpMessage::Open(o);
    }
    case 1: {
        AdcBgpUpdate u;
        for (uint32_t i = pick(4); i > 0; --i)
        {
            u.withdrawn.push_back(prefix4());
        }
        for (uint32_t i = pick(5); i > 0; --i)
        {
            u.nlri.push_back(prefix4());
        }
        const bool v6 = pick(2);
        if (!u.nlri.empty() || v6 || pick(2))
        {
            u.origin = static_cast<uint8_t>(pick(3));
            u.asPath = std::vector<AdcBgpAsPathSegment>{};
            for (uint32_t s = pick(3); s > 0; --s)
            {
                AdcBgpAsPathSegment seg;
                seg.type = static_cast<uint8_t>(1 + pick(2));
                for (uint32_t i = 1 + pick(5); i > 0; --i)
                {
                    seg.ases.push_back(four ? static_cast<uint32_t>(rng()) : pick(65536));
                }
                u.asPath->push_back(seg);
            }
            u.nextHop = Ipv4Address(0x0a000000 + pick(0xffffff));
        }
        if (pick(2))
        {
            u.med = static_cast<uint32_t>(rng());
        }
        if (pick(2))
        {
            u.localPref = static_cast<uint32_t>(rng());
        }
        u.atomicAggregate = pick(4) == 0;
        if (v6)
        {
            AdcBgpMpReach mp;
            mp.nextHop = Ipv6Address("2001:db8:1::2");
            if (pick(2))
            {
                mp.linkLocal = Ipv6Address("fe80::2");
            }
            for (uint32_t i = pick(5); i > 0; --i)
            {
                mp.nlri.push_back(prefix6());
            }
            u.mpReach = mp;
        }
        if (pick(2))
        {
            u.mpUnreach = std::vector<AdcBgpIpv6Prefix>{};
            for (uint32_t i = pick(4); i > 0; --i)
            {
                u.mpUnreach->push_back(prefix6());
            }
        }
        if (pick(2))
        {
            u.otherAttributes.push_back(
                {static_cast<uint8_t>(0x80 | (pick(2) << 6) | (pick(2) << 5)),
                 static_cast<uint8_t>(16 + pick(200)),
                 Bytes(pick(2) ? pick(10) : 256 + pick(300), 0x5a)}); // also extended length
        }
        return AdcBgpMessage::Update(u);
    }
    case 2:
        return AdcBgpMessage::Notification({static_cast<uint8_t>(1 + pick(6)),
                                            static_cast<uint8_t>(pick(12)),
                                            Bytes(pick(8), 0x33)});
    default:
        return AdcBgpMessage::Keepalive();
    }
}

} // namespace

TEST(AdcBgpMessage, RandomRoundTripFixedSeed)
{
    // REQ: SLB-04
    // REQ: SLB-13
    std::mt19937 rng(20260);
    int counts[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 2000; ++i)
    {
        const bool four = i % 2 == 0;
        const AdcBgpMessage m = RandomMessage(rng, four);
        const Bytes wire = m.Serialize(four);
        const AdcBgpParseResult r = AdcBgpMessage::Parse(wire, four);
        ASSERT_TRUE(r.Ok()) << r.error->ToString() << " for " << m.ToString();
        ASSERT_EQ(*r.message, m) << m.ToString();
        ASSERT_EQ(r.message->Serialize(four), wire);
        ++counts[m.type];
    }
    for (int t = 1; t <= 4; ++t)
    {
        EXPECT_GT(counts[t], 300) << AdcBgpMessage::TypeName(static_cast<uint8_t>(t));
    }
}

// ---------------------------------------------------------------------- pcap / Wireshark

namespace
{

/// \param text command output \return its non-empty lines (IPv6 colons kept)
std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream is(text);
    std::string line;
    while (std::getline(is, line))
    {
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        if (!line.empty())
        {
            out.push_back(line);
        }
    }
    return out;
}

/// A MUX (client) opens TCP to its router on port 179 and sends the messages of a session
/// one by one, each in its own Send; the router reads them with an AdcBgpFramer.
class BgpScenario
{
  public:
    /// \param router router node \param mux MUX node \param address router address
    /// \param messages the MUX's messages, already serialized
    BgpScenario(Ptr<Node> router, Ptr<Node> mux, Ipv4Address address, std::vector<Bytes> messages)
        : m_messages(std::move(messages))
    {
        m_listener = Socket::CreateSocket(router, TcpSocketFactory::GetTypeId());
        m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), AdcBgpMessage::kPort));
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&BgpScenario::Accepted, this));
        m_mux = Socket::CreateSocket(mux, TcpSocketFactory::GetTypeId());
        m_mux->SetConnectCallback(MakeCallback(&BgpScenario::Connected, this),
                                  MakeNullCallback<void, Ptr<Socket>>());
        m_address = address;
    }

    /// \brief Connect the MUX.
    void Start()
    {
        m_mux->Connect(InetSocketAddress(m_address, AdcBgpMessage::kPort));
    }

    std::vector<AdcBgpMessage> received; //!< what the router parsed
    std::string error;                   //!< the router's framer error

  private:
    /// \param s the MUX socket
    void Connected(Ptr<Socket> s)
    {
        for (std::size_t i = 0; i < m_messages.size(); ++i)
        {
            // One message a 10 ms, so each is its own TCP segment.
            Simulator::Schedule(MilliSeconds(10 * i),
                                [s, b = m_messages[i]]() { s->Send(b.data(), b.size(), 0); });
        }
    }

    /// \param s accepted socket \param from peer
    void Accepted(Ptr<Socket> s, const Address& from)
    {
        s->SetRecvCallback(MakeCallback(&BgpScenario::Recv, this));
        m_accepted = s;
    }

    /// \param s the router's socket
    void Recv(Ptr<Socket> s)
    {
        Ptr<Packet> p;
        while ((p = s->Recv()))
        {
            Bytes b(p->GetSize());
            p->CopyData(b.data(), b.size());
            for (auto& m : m_framer.Feed(b))
            {
                if (m.type == AdcBgpMessage::OPEN)
                {
                    m_framer.SetFourOctetAs(m.open.GetFourOctetAs().has_value());
                }
                received.push_back(std::move(m));
            }
            if (m_framer.GetError())
            {
                error = m_framer.GetError()->ToString();
            }
        }
    }

    std::vector<Bytes> m_messages; //!< to send
    Ptr<Socket> m_listener;        //!< router's listening socket
    Ptr<Socket> m_accepted;        //!< router's connection
    Ptr<Socket> m_mux;             //!< MUX socket
    Ipv4Address m_address;         //!< router address
    AdcBgpFramer m_framer;         //!< router's framer
};

} // namespace

TEST(AdcBgpMessage, PcapDecodesAsBgpInWireshark)
{
    // REQ: SLB-04 (the VIP UPDATE on the wire, as Wireshark reads it)
    // REQ: SLB-10 (OPEN hold time and KEEPALIVE on the wire)
    // REQ: SLB-13 (the IPv6 VIP in MP_REACH_NLRI)
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("adc-bgp-message-test-" + std::to_string(getpid())))
                                .string();
    std::filesystem::create_directories(dir);
    std::vector<AdcBgpMessage> received;
    std::string error;
    {
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer devices = p2p.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper ip;
        ip.SetBase("10.1.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ip.Assign(devices);
        p2p.EnablePcapAll(dir + "/bgp");
        // Hand-written bytes (the golden messages) on a 4-octet AS session: kOpen carries the
        // 4-octet AS capability, so the UPDATEs after it use 4-byte ASes.
        BgpScenario sc(nodes.Get(0),
                       nodes.Get(1),
                       ifs.GetAddress(0),
                       {kOpen, kKeepalive, kAnnounce4, kAnnounce6, kWithdraw, kNotification});
        Simulator::Schedule(Seconds(1), &BgpScenario::Start, &sc);
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        Simulator::Destroy();
        received = sc.received;
        error = sc.error;
    }
    ASSERT_EQ(error, "");
    ASSERT_EQ(received.size(), 6U);

    const std::string pcap = dir + "/bgp-1-0.pcap"; // the MUX's point-to-point device
    ASSERT_TRUE(std::filesystem::exists(pcap)) << pcap;
    auto fields = [&](const std::string& filter, const std::string& field) {
        return Lines(adctest::RunCommand("tshark -n -r '" + pcap + "' -Y '" + filter +
                                         "' -T fields -E occurrence=a -E separator=, -e " + field +
                                         " 2>/dev/null"));
    };
    EXPECT_EQ(fields("bgp", "bgp.type"), (std::vector<std::string>{"1", "4", "2", "2", "2", "3"}));
    EXPECT_EQ(fields("bgp.type == 1", "bgp.open.myas"), (std::vector<std::string>{"65001"}));
    EXPECT_EQ(fields("bgp.type == 1", "bgp.open.holdtime"), (std::vector<std::string>{"90"}));
    EXPECT_EQ(fields("bgp.type == 1", "bgp.cap.4as"), (std::vector<std::string>{"65001"}));
    EXPECT_EQ(fields("bgp.nlri_prefix", "bgp.nlri_prefix"), (std::vector<std::string>{"10.0.0.1"}));
    EXPECT_EQ(fields("bgp.update.path_attribute.as_path_segment.as4",
                     "bgp.update.path_attribute.as_path_segment.as4"),
              (std::vector<std::string>{"65001", "65001"}));
    EXPECT_EQ(fields("bgp.update.path_attribute.next_hop", "bgp.update.path_attribute.next_hop"),
              (std::vector<std::string>{"10.1.0.2"}));
    EXPECT_EQ(fields("bgp.mp_reach_nlri_ipv6_prefix", "bgp.mp_reach_nlri_ipv6_prefix"),
              (std::vector<std::string>{"2001:db8::1"}));
    EXPECT_EQ(fields("bgp.update.withdrawn_routes", "bgp.update.withdrawn_routes.length"),
              (std::vector<std::string>{"5"}));
    EXPECT_EQ(fields("bgp.type == 3", "bgp.notify.major_error"), (std::vector<std::string>{"6"}));
    EXPECT_EQ(fields("bgp.update.nlri", "frame.number").size(), 1U);
    EXPECT_EQ(fields("tcp.dstport == 179 && bgp", "frame.number").size(), 6U);
    EXPECT_TRUE(fields("_ws.malformed || _ws.expert.severity == error", "frame.number").empty());
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir); // kept for inspection when the test fails
    }
}
