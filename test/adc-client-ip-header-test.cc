/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of AdcClientIpHeader: the strict client-address parser of the client-IP request
 * header (X-Forwarded-For), its list handling, the header-name check and the formatter.
 */

// REQ: CRD-06 (the lower tier inserts the client IP into a request header)
// REQ: CRD-07 (-srcIPExpr reads the client IP back out of that header)
// REQ: CRD-12 (the origin chooses its response from the client IP in the header)

#include "ns3/adc-client-ip-header.h"
#include "ns3/adc-http-message.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

TEST(AdcClientIpHeader, ParseAddressAcceptsDottedQuads)
{
    EXPECT_EQ(AdcClientIpHeader::ParseAddress("10.1.0.9"), Ipv4Address("10.1.0.9"));
    EXPECT_EQ(AdcClientIpHeader::ParseAddress("192.0.2.7"), Ipv4Address("192.0.2.7"));
    EXPECT_EQ(AdcClientIpHeader::ParseAddress("1.2.3.4"), Ipv4Address("1.2.3.4"));
    // The highest address below the multicast block.
    EXPECT_EQ(AdcClientIpHeader::ParseAddress("223.255.255.255"), Ipv4Address("223.255.255.255"));
    // Octets of up to three digits are read as decimal, leading zeros included.
    EXPECT_EQ(AdcClientIpHeader::ParseAddress("010.001.000.009"), Ipv4Address("10.1.0.9"));
}

TEST(AdcClientIpHeader, ParseAddressRefusesMalformedText)
{
    for (const std::string bad : {"",
                                  "10.1.0",
                                  "10.1.0.9.1",
                                  "10.1.0.",
                                  ".10.1.0.9",
                                  "10..0.9",
                                  "10.1.0.256",
                                  "10.1.0.0009",
                                  "1000.1.0.9",
                                  " 10.1.0.9",
                                  "10.1.0.9 ",
                                  "10.1.0.9,",
                                  "10.1.0.9:80",
                                  "+10.1.0.9",
                                  "10.1.0.x",
                                  "0x0a.1.0.9",
                                  "2001:db8::1",
                                  "[2001:db8::1]",
                                  "unknown"})
    {
        EXPECT_FALSE(AdcClientIpHeader::ParseAddress(bad).has_value()) << "'" << bad << "'";
    }
    EXPECT_FALSE(AdcClientIpHeader::ParseAddress(std::string("10.1.0.9\0", 9)).has_value());
}

TEST(AdcClientIpHeader, ParseAddressRefusesAddressesThatCannotBeAClient)
{
    for (const std::string notClient :
         {"0.0.0.0", "000.000.000.000", "255.255.255.255", "224.0.0.1", "239.255.255.255"})
    {
        EXPECT_FALSE(AdcClientIpHeader::ParseAddress(notClient).has_value()) << notClient;
    }
}

TEST(AdcClientIpHeader, FirstListItemIsTheOriginalClientTrimmed)
{
    // A proxy appends its own address: the client is the first item.
    EXPECT_EQ(AdcClientIpHeader::FirstListItem("10.1.0.9, 192.0.2.7, 192.0.2.8"), "10.1.0.9");
    EXPECT_EQ(AdcClientIpHeader::FirstListItem(" \t10.1.0.9 \t"), "10.1.0.9");
    EXPECT_EQ(AdcClientIpHeader::FirstListItem("10.1.0.9"), "10.1.0.9");
    EXPECT_EQ(AdcClientIpHeader::FirstListItem(",10.1.0.9"), "");
    EXPECT_EQ(AdcClientIpHeader::FirstListItem(" \t "), "");
    EXPECT_EQ(AdcClientIpHeader::FirstListItem(""), "");
    EXPECT_EQ(AdcClientIpHeader::FirstListItem("a b , c"), "a b");
}

TEST(AdcClientIpHeader, ParseValueReadsTheFirstItemOnly)
{
    EXPECT_EQ(AdcClientIpHeader::ParseValue("10.1.0.9"), Ipv4Address("10.1.0.9"));
    EXPECT_EQ(AdcClientIpHeader::ParseValue("  10.1.0.9\t, 192.0.2.7"), Ipv4Address("10.1.0.9"));
    EXPECT_EQ(AdcClientIpHeader::ParseValue("10.1.0.9,garbage"), Ipv4Address("10.1.0.9"));
    // The first item decides: a valid address later in the list is not taken instead.
    EXPECT_FALSE(AdcClientIpHeader::ParseValue("unknown, 10.1.0.9").has_value());
    EXPECT_FALSE(AdcClientIpHeader::ParseValue(", 10.1.0.9").has_value());
    EXPECT_FALSE(AdcClientIpHeader::ParseValue("0.0.0.0, 10.1.0.9").has_value());
    EXPECT_FALSE(AdcClientIpHeader::ParseValue("").has_value());
}

TEST(AdcClientIpHeader, FormatIsWhatParseAddressReadsBack)
{
    EXPECT_EQ(AdcClientIpHeader::Format(Ipv4Address("10.1.0.9")), "10.1.0.9");
    for (uint32_t v : {0x0a010009U, 0x01020304U, 0xc0000207U, 0xdfffffffU})
    {
        const Ipv4Address a(v);
        const std::string text = AdcClientIpHeader::Format(a);
        EXPECT_EQ(AdcClientIpHeader::ParseAddress(text), a) << text;
        EXPECT_EQ(AdcClientIpHeader::ParseValue(text + ", 192.0.2.7"), a) << text;
    }
    // Addresses that are no client format fine but are refused when read back.
    EXPECT_EQ(AdcClientIpHeader::Format(Ipv4Address("224.0.0.1")), "224.0.0.1");
    EXPECT_FALSE(
        AdcClientIpHeader::ParseAddress(AdcClientIpHeader::Format(Ipv4Address("224.0.0.1"))));
}

TEST(AdcClientIpHeader, IsTokenMatchesTheHttpFieldNamesTheHeadParserAccepts)
{
    const std::vector<std::string> tokens = {"X-Forwarded-For",
                                             "Client-IP",
                                             "x",
                                             "X_Client_Ip",
                                             "!#$%&'*+-.^_`|~09azAZ"};
    const std::vector<std::string> notTokens =
        {"", "X Forwarded", "X-Forwarded-For:", "X(For)", "X\tF", "X\"F", "\xc3\xa9", "X/F"};
    auto parses = [](const std::string& name) {
        const std::string head = "GET / HTTP/1.1\r\n" + name + ": 10.1.0.9\r\n\r\n";
        AdcHttpMessage m;
        return m.Parse(reinterpret_cast<const uint8_t*>(head.data()),
                       head.size(),
                       nullptr,
                       nullptr) == AdcHttpMessage::ParseStatus::COMPLETE &&
               m.GetHeader(name).value_or("") == "10.1.0.9";
    };
    for (const auto& t : tokens)
    {
        EXPECT_TRUE(AdcClientIpHeader::IsToken(t)) << t;
        EXPECT_TRUE(parses(t)) << t;
    }
    for (const auto& t : notTokens)
    {
        EXPECT_FALSE(AdcClientIpHeader::IsToken(t)) << t;
        EXPECT_FALSE(parses(t)) << t;
    }
}
