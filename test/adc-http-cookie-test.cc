/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcHttpCookies (Cookie header parsing, RFC 6265), AdcSetCookie (Set-Cookie of an
 * inserted persistence cookie, expiry per cookie version) and AdcNscCookie (NetScaler's NSC_
 * persistence cookie name and value). Expected values come from the RFCs' examples, from the
 * public decoder catalyst256/Netscaler-Cookie-Decryptor (README and nsccookiedecrypt.py) or
 * are computed by hand in the comments.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-cookie.h"
#include "ns3/adc-http-message.h"

#include <gtest/gtest.h>
#include <random>
#include <string>

using namespace ns3;

namespace
{

/// A request carrying the given Cookie field values.
AdcHttpMessage
Request(const std::vector<std::string>& cookieFields)
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest("GET", "/");
    m.AddHeader("Host", "www.example.com");
    for (const auto& v : cookieFields)
    {
        m.AddHeader("Cookie", v);
    }
    return m;
}

/// The message of the AdcConfigError \p f throws ("" when it throws nothing).
template <typename F>
std::string
ConfigError(F f)
{
    try
    {
        f();
    }
    catch (const AdcConfigError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

// ----------------------------------------------------------------- Cookie header parsing

// REQ: CS-04 (the persistence cookie is read back from the request's Cookie header)
TEST(AdcHttpCookie, ParsesRfc6265Examples)
{
    // RFC 6265 section 3.1: "Cookie: SID=31d4d96e407aad42", then with "; lang=en-US".
    auto one = AdcHttpCookies::Parse(Request({"SID=31d4d96e407aad42"}));
    EXPECT_EQ(one.Count(), 1u);
    EXPECT_EQ(one.Get("SID"), std::optional<std::string>("31d4d96e407aad42"));
    EXPECT_FALSE(one.Get("sid")); // names are case-sensitive

    auto two = AdcHttpCookies::Parse(Request({"SID=31d4d96e407aad42; lang=en-US"}));
    ASSERT_EQ(two.Count(), 2u);
    EXPECT_EQ(two.GetPairs()[0].name, "SID");
    EXPECT_EQ(two.GetPairs()[1].name, "lang");
    EXPECT_EQ(two.Get("lang"), std::optional<std::string>("en-US"));
    EXPECT_EQ(two.GetSkipped(), 0u);
    EXPECT_EQ(two.ToHeaderValue(), "SID=31d4d96e407aad42; lang=en-US");
}

// REQ: CS-04
TEST(AdcHttpCookie, ParsesLenientlyAndSkipsMalformedPairs)
{
    // Extra spaces, no space after ';', empty pieces, spaces around '=', a quoted value, an
    // empty value, a '=' inside a value; "junk" (no '=') and "=v" (empty name) and "a b=1"
    // (space in the name) are skipped.
    auto c = AdcHttpCookies::ParseValue("  a=1 ;b= 2;; c = \"x y\" ; junk; =v; d=; e=k=v; a b=1 ;");
    EXPECT_EQ(c.Count(), 5u);
    EXPECT_EQ(c.GetSkipped(), 3u);
    EXPECT_EQ(c.Get("a"), std::optional<std::string>("1"));
    EXPECT_EQ(c.Get("b"), std::optional<std::string>("2"));
    EXPECT_EQ(c.Get("c"), std::optional<std::string>("x y"));
    EXPECT_TRUE(c.GetPairs()[2].quoted);
    EXPECT_EQ(c.Get("d"), std::optional<std::string>(""));
    EXPECT_EQ(c.Get("e"), std::optional<std::string>("k=v"));
    EXPECT_EQ(c.ToHeaderValue(), "a=1; b=2; c=\"x y\"; d=; e=k=v");

    // A control character in a value makes that pair malformed, not the header.
    auto ctl = AdcHttpCookies::ParseValue(std::string("x=1\x01; y=2"));
    EXPECT_EQ(ctl.Count(), 1u);
    EXPECT_EQ(ctl.Get("y"), std::optional<std::string>("2"));
    EXPECT_EQ(ctl.GetSkipped(), 1u);

    // Duplicates are kept; Get returns the first (RFC 6265 5.4: longest path first).
    auto dup = AdcHttpCookies::ParseValue("n=first; n=second");
    EXPECT_EQ(dup.Count(), 2u);
    EXPECT_EQ(dup.Get("n"), std::optional<std::string>("first"));

    // A '"' inside quotes: the value is taken literally.
    auto q = AdcHttpCookies::ParseValue("q=\"a\"b\"; r=\"\"");
    EXPECT_EQ(q.Get("q"), std::optional<std::string>("\"a\"b\""));
    EXPECT_FALSE(q.GetPairs()[0].quoted);
    EXPECT_EQ(q.Get("r"), std::optional<std::string>(""));
    EXPECT_TRUE(q.GetPairs()[1].quoted);
}

// REQ: CS-04
TEST(AdcHttpCookie, ParsesEveryCookieFieldInOrder)
{
    auto c = AdcHttpCookies::Parse(Request({"a=1", "b=2; a=3"}));
    ASSERT_EQ(c.Count(), 3u);
    EXPECT_EQ(c.GetPairs()[1].name, "b");
    EXPECT_EQ(c.Get("a"), std::optional<std::string>("1"));
    // Parsing the head from its wire bytes gives the same.
    const std::string wire = Request({"a=1", "b=2; a=3"}).ToWireString();
    AdcHttpMessage parsed;
    ASSERT_EQ(
        parsed.Parse(reinterpret_cast<const uint8_t*>(wire.data()), wire.size(), nullptr, nullptr),
        AdcHttpMessage::ParseStatus::COMPLETE);
    EXPECT_EQ(AdcHttpCookies::Parse(parsed).ToHeaderValue(), "a=1; b=2; a=3");
}

// REQ: CS-08 (backup persistence only for a client that returns no cookie at all)
TEST(AdcHttpCookie, TellsTheThreeClientKindsApart)
{
    const std::string nsc = AdcNscCookie::EncodeName("cs1", "lb1");

    // 1. No Cookie header at all: backup (SOURCEIP) persistence applies.
    auto none = AdcHttpCookies::Parse(Request({}));
    EXPECT_FALSE(none.HasCookieHeader());
    EXPECT_FALSE(none.HasAnyCookie());
    EXPECT_EQ(none.Classify(nsc), AdcHttpCookies::ClientKind::NO_COOKIE);

    // 2. Only other cookies: cookie-capable, no backup, but no persistence cookie either.
    auto other = AdcHttpCookies::Parse(Request({"JSESSIONID=abc123; lang=en"}));
    EXPECT_TRUE(other.HasAnyCookie());
    EXPECT_FALSE(other.Get(nsc));
    EXPECT_EQ(other.Classify(nsc), AdcHttpCookies::ClientKind::OTHER_COOKIES);

    // 3. The persistence cookie (among others).
    const std::string value = AdcNscCookie::EncodeValue(Ipv4Address("10.0.0.1"), 80);
    auto pers = AdcHttpCookies::Parse(Request({"lang=en; " + nsc + "=" + value}));
    EXPECT_TRUE(pers.HasAnyCookie());
    EXPECT_EQ(pers.Get(nsc), std::optional<std::string>(value));
    EXPECT_EQ(pers.Classify(nsc), AdcHttpCookies::ClientKind::PERSISTENCE_COOKIE);

    // A Cookie header with nothing well-formed in it returns no cookie: no cookie at all.
    auto junk = AdcHttpCookies::Parse(Request({"junk; ;"}));
    EXPECT_TRUE(junk.HasCookieHeader());
    EXPECT_FALSE(junk.HasAnyCookie());
    EXPECT_EQ(junk.Classify(nsc), AdcHttpCookies::ClientKind::NO_COOKIE);
}

// REQ: CS-04
TEST(AdcHttpCookie, ReserializedCookiesParseBackTheSame)
{
    std::mt19937 rng(7);
    const std::string alphabet = "ab=; \t\"x,\\\x01\x7f\xc3";
    for (int i = 0; i < 3000; ++i)
    {
        std::string s;
        const int n = static_cast<int>(rng() % 24);
        for (int k = 0; k < n; ++k)
        {
            s += alphabet[rng() % alphabet.size()];
        }
        auto c = AdcHttpCookies::ParseValue(s);
        auto back = AdcHttpCookies::ParseValue(c.ToHeaderValue());
        ASSERT_EQ(back.Count(), c.Count()) << s;
        EXPECT_EQ(back.GetSkipped(), 0u) << s;
        for (std::size_t k = 0; k < c.Count(); ++k)
        {
            EXPECT_EQ(back.GetPairs()[k].name, c.GetPairs()[k].name);
            EXPECT_EQ(back.GetPairs()[k].value, c.GetPairs()[k].value);
            EXPECT_EQ(back.GetPairs()[k].quoted, c.GetPairs()[k].quoted);
        }
    }
}

// ----------------------------------------------------------------- Set-Cookie

// REQ: CS-05
TEST(AdcHttpCookie, FormatsImfFixdate)
{
    // RFC 7231 7.1.1.1's example. 1994-11-06 08:49:37Z: 8766 days to 1994-01-01 (24 years,
    // 6 leap), + 309 (Jan..Oct = 304, + 5) = 9075 days = 784080000 s, + 31777 s.
    EXPECT_EQ(AdcSetCookie::FormatImfFixdate(784111777), "Sun, 06 Nov 1994 08:49:37 GMT");
    EXPECT_EQ(AdcSetCookie::FormatImfFixdate(0), "Thu, 01 Jan 1970 00:00:00 GMT");
    // 2026-01-01: 56 years, 14 leap days: 20454 days; a Thursday.
    EXPECT_EQ(AdcSetCookie::FormatImfFixdate(AdcSetCookie::kDefaultEpoch),
              "Thu, 01 Jan 2026 00:00:00 GMT");
    EXPECT_EQ(AdcSetCookie::FormatImfFixdate(AdcSetCookie::kMaxUnixSeconds),
              "Fri, 31 Dec 9999 23:59:59 GMT");
    EXPECT_NE(ConfigError([] { AdcSetCookie::FormatImfFixdate(-1); }), "");
    EXPECT_NE(
        ConfigError([] { AdcSetCookie::FormatImfFixdate(AdcSetCookie::kMaxUnixSeconds + 1); }),
        "");
}

// REQ: CS-05 (version 0 cookie: Expires)
TEST(AdcHttpCookie, SetCookieVersion0WritesExpires)
{
    // Default epoch 2026-01-01T00:00:00Z (Thursday); now 1 h, timeout 30 min.
    EXPECT_EQ(
        AdcSetCookie::Build("NSC_dt1mc1", "v", AdcSetCookie::Version::V0, Minutes(30), Hours(1)),
        "NSC_dt1mc1=v; Path=/; Expires=Thu, 01 Jan 2026 01:30:00 GMT");
    // Across a leap day: 2028-02-29 is day 365 + 365 + 31 + 28 = 789 after the epoch, a
    // Tuesday (789 = 7 * 112 + 5 days after a Thursday). now 23:55 that day + 10 min.
    const Time now = Seconds(789 * 86400 + 23 * 3600 + 55 * 60);
    EXPECT_EQ(AdcSetCookie::Build("n", "v", AdcSetCookie::Version::V0, Minutes(10), now),
              "n=v; Path=/; Expires=Wed, 01 Mar 2028 00:05:00 GMT");
    // Another epoch: RFC 7231's date, 784111777 = 784111177 + 600 s.
    EXPECT_EQ(AdcSetCookie::Build("n",
                                  "v",
                                  AdcSetCookie::Version::V0,
                                  Minutes(10),
                                  Seconds(0),
                                  784111177),
              "n=v; Path=/; Expires=Sun, 06 Nov 1994 08:49:37 GMT");
    // Fractions: now rounds down (0.9 s -> 0), timeout rounds up (0.2 s -> 1 s).
    EXPECT_EQ(AdcSetCookie::Build("n",
                                  "v",
                                  AdcSetCookie::Version::V0,
                                  MilliSeconds(200),
                                  MilliSeconds(900)),
              "n=v; Path=/; Expires=Thu, 01 Jan 2026 00:00:01 GMT");
}

// REQ: CS-05 (version 1 cookie: Max-Age)
TEST(AdcHttpCookie, SetCookieVersion1WritesMaxAge)
{
    EXPECT_EQ(AdcSetCookie::Build("n", "v", AdcSetCookie::Version::V1, Minutes(2), Hours(5)),
              "n=v; Version=1; Path=/; Max-Age=120");
    EXPECT_EQ(
        AdcSetCookie::Build("n", "v", AdcSetCookie::Version::V1, MilliSeconds(1500), Seconds(0)),
        "n=v; Version=1; Path=/; Max-Age=2");
}

// REQ: CS-05 (timeout 0: no expiry whatever the version)
TEST(AdcHttpCookie, SetCookieTimeoutZeroIsASessionCookie)
{
    const std::string v0 =
        AdcSetCookie::Build("n", "v", AdcSetCookie::Version::V0, Seconds(0), Hours(3));
    const std::string v1 =
        AdcSetCookie::Build("n", "v", AdcSetCookie::Version::V1, Seconds(0), Hours(3));
    EXPECT_EQ(v0, "n=v; Path=/");
    EXPECT_EQ(v1, "n=v; Version=1; Path=/");
    for (const auto& s : {v0, v1})
    {
        EXPECT_EQ(s.find("Expires"), std::string::npos);
        EXPECT_EQ(s.find("Max-Age"), std::string::npos);
    }
}

// REQ: CS-05
TEST(AdcHttpCookie, SetCookieRejectsBadInput)
{
    using V = AdcSetCookie::Version;
    std::string e =
        ConfigError([] { AdcSetCookie::Build("a b", "v", V::V0, Seconds(1), Seconds(0)); });
    EXPECT_NE(e.find("'a b'"), std::string::npos) << e;
    EXPECT_NE(e.find("position 1"), std::string::npos) << e;
    e = ConfigError([] { AdcSetCookie::Build("", "v", V::V0, Seconds(1), Seconds(0)); });
    EXPECT_NE(e.find("cookie name"), std::string::npos) << e;
    e = ConfigError([] { AdcSetCookie::Build("n", "a;b", V::V1, Seconds(1), Seconds(0)); });
    EXPECT_NE(e.find("'a;b'"), std::string::npos) << e;
    EXPECT_NE(e.find("position 1"), std::string::npos) << e;
    e = ConfigError([] { AdcSetCookie::Build("n", "v", V::V1, Seconds(-1), Seconds(0)); });
    EXPECT_NE(e.find("negative"), std::string::npos) << e;
    e = ConfigError([] { AdcSetCookie::Build("n", "v", V::V0, Seconds(1), Seconds(-1)); });
    EXPECT_NE(e.find("negative"), std::string::npos) << e;
    e = ConfigError([] { AdcSetCookie::Build("n", "v", V::V0, Seconds(1), Seconds(0), -5); });
    EXPECT_NE(e.find("-5"), std::string::npos) << e;
}

// ----------------------------------------------------------------- NSC_ persistence cookie

// REQ: CS-04 (the inserted cookie's value names the service: the public decoder's vector)
TEST(AdcHttpCookie, NscValueDecodesThePublicDecoderExample)
{
    // catalyst256/Netscaler-Cookie-Decryptor README: this value is "Server IP=83.231.227.149",
    // "Server Port=80" (0x50effd84 ^ 0x03081e11 = 0x53e7e395; 0x3660 ^ 0x3630 = 0x50).
    const auto s = AdcNscCookie::DecodeValue("ffffffff50effd8445525d5f4f58455e445a4a423660");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->ip, Ipv4Address("83.231.227.149"));
    EXPECT_EQ(s->port, 80);
    // Encoding that service gives the README's value back.
    EXPECT_EQ(AdcNscCookie::EncodeValue(Ipv4Address("83.231.227.149"), 80),
              "ffffffff50effd8445525d5f4f58455e445a4a423660");
    // By hand: 10.0.0.1 = 0x0a000001 ^ 0x03081e11 = 0x09081e10; 8080 = 0x1f90 ^ 0x3630 =
    // 0x29a0.
    EXPECT_EQ(AdcNscCookie::EncodeValue(Ipv4Address("10.0.0.1"), 8080),
              "ffffffff09081e1045525d5f4f58455e445a4a4229a0");
}

// REQ: CS-04
TEST(AdcHttpCookie, NscValueRoundTripsAndRejectsNonHex)
{
    std::mt19937 rng(11);
    for (int i = 0; i < 2000; ++i)
    {
        const Ipv4Address ip(static_cast<uint32_t>(rng()));
        const auto port = static_cast<uint16_t>(rng());
        const std::string v = AdcNscCookie::EncodeValue(ip, port);
        EXPECT_EQ(v.size(), AdcNscCookie::kValueLength);
        const auto s = AdcNscCookie::DecodeValue(v);
        ASSERT_TRUE(s);
        EXPECT_EQ(s->ip, ip);
        EXPECT_EQ(s->port, port);
    }
    // The decoder's regex: 8 + 8 hex, anything hex, 4 hex at the end; lowercase only.
    EXPECT_TRUE(AdcNscCookie::DecodeValue("ffffffff50effd843660")); // 20: shortest
    EXPECT_FALSE(AdcNscCookie::DecodeValue("ffffffff50effd84366"));
    EXPECT_FALSE(AdcNscCookie::DecodeValue("FFFFFFFF50EFFD8445525D5F4F58455E445A4A423660"));
    EXPECT_FALSE(AdcNscCookie::DecodeValue("ffffffff50effd8445525d5f4f58455e445a4a42366g"));
    EXPECT_FALSE(AdcNscCookie::DecodeValue(""));
}

// REQ: CS-04 (the name: NSC_ + IDs derived from the vserver names, the public decoder's shift)
TEST(AdcHttpCookie, NscNameDecodesThePublicDecoderExample)
{
    // README: "NSC_Qspe-xxx.bwjwb.dp.vl-IUUQ" -> "Server Name=Prod-www.xxxxx.co.uk-HTTP" (the
    // README redacts one label); by the decoder's table (b->a, w->v, j->i) it is "aviva".
    const auto name = AdcNscCookie::DecodeName("NSC_Qspe-xxx.bwjwb.dp.vl-IUUQ");
    ASSERT_TRUE(name);
    EXPECT_EQ(name->size(), std::string("Prod-www.xxxxx.co.uk-HTTP").size());
    EXPECT_EQ(name->substr(0, 9), "Prod-www.");
    EXPECT_EQ(name->substr(14), ".co.uk-HTTP");
    EXPECT_EQ(*name, "Prod-www.aviva.co.uk-HTTP");
    // An LB vserver reached directly: its own ID only, as in that example.
    EXPECT_EQ(AdcNscCookie::EncodeName("", "Prod-www.aviva.co.uk-HTTP"),
              "NSC_Qspe-xxx.bwjwb.dp.vl-IUUQ");
    // Wrap-around at the ends of the alphabet, digits and '_' unchanged.
    EXPECT_EQ(AdcNscCookie::EncodeVserverId("zZaA09_"), "aAbB09_");
    EXPECT_EQ(AdcNscCookie::DecodeVserverId("aAbB09_"), "zZaA09_");
    EXPECT_FALSE(AdcNscCookie::DecodeName("NSC_"));
    EXPECT_FALSE(AdcNscCookie::DecodeName("JSESSIONID"));
}

// REQ: CS-04 (NSC_ + <vid_str of CS vserver><vid_str of LB vserver>)
TEST(AdcHttpCookie, NscNameOfCsAndLbVservers)
{
    // "cs1" -> "dt1", "lb_v1" -> "mc_w1".
    const std::string n = AdcNscCookie::EncodeName("cs1", "lb_v1");
    EXPECT_EQ(n, "NSC_dt1mc_w1");
    EXPECT_TRUE(AdcHttpCookies::IsCookieName(n.data(), n.size()));
    EXPECT_EQ(AdcNscCookie::DecodeName(n), std::optional<std::string>("cs1lb_v1"));
    EXPECT_EQ(AdcNscCookie::DecodeLbVserver(n, "cs1"), std::optional<std::string>("lb_v1"));
    EXPECT_FALSE(AdcNscCookie::DecodeLbVserver(n, "cs2"));
    EXPECT_FALSE(AdcNscCookie::DecodeLbVserver(n, "cs1lb_v1")); // no LB vserver left
    // Two LB vservers of one CS vserver get two names.
    EXPECT_NE(AdcNscCookie::EncodeName("cs1", "lb1"), AdcNscCookie::EncodeName("cs1", "lb2"));

    std::string e = ConfigError([] { AdcNscCookie::EncodeName("cs 1", "lb1"); });
    EXPECT_NE(e.find("'cs 1'"), std::string::npos) << e;
    EXPECT_NE(e.find("position 2"), std::string::npos) << e;
    e = ConfigError([] { AdcNscCookie::EncodeName("cs1", "-lb"); });
    EXPECT_NE(e.find("position 0"), std::string::npos) << e;
    e = ConfigError([] { AdcNscCookie::EncodeName("cs1", ""); });
    EXPECT_NE(e.find("0 characters"), std::string::npos) << e;
    e = ConfigError([] { AdcNscCookie::EncodeVserverId(std::string(128, 'a')); });
    EXPECT_NE(e.find("128 characters"), std::string::npos) << e;
    EXPECT_EQ(AdcNscCookie::EncodeVserverId(std::string(127, 'a')), std::string(127, 'b'));
}

// REQ: CS-04 (a Set-Cookie that deletes a stale NSC_ cookie, as RFC 6265 3.1 lets a server:
// an expiry in the past on the same name and path; a user agent's parse says "expired")
TEST(AdcHttpCookie, SetCookieExpiredDeletesTheCookie)
{
    const std::string v0 = AdcSetCookie::BuildExpired("NSC_DT-1MC1", AdcSetCookie::Version::V0);
    EXPECT_EQ(v0, "NSC_DT-1MC1=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT");
    const std::string v1 = AdcSetCookie::BuildExpired("NSC_DT-1MC1", AdcSetCookie::Version::V1);
    EXPECT_EQ(v1, "NSC_DT-1MC1=; Version=1; Path=/; Max-Age=0");
    for (const std::string& line : {v0, v1})
    {
        const auto c = AdcSetCookie::Parse(line);
        ASSERT_TRUE(c.has_value()) << line;
        EXPECT_EQ(c->path, "/");
        EXPECT_LE(AdcSetCookie::ExpiryAfter(*c, Seconds(5)), 0) << line;
    }
    EXPECT_THROW(AdcSetCookie::BuildExpired("bad name", AdcSetCookie::Version::V0), AdcConfigError);
}

// REQ: CS-04 (the names COOKIEINSERT can write: what EncodeVserverId accepts, no more)
TEST(AdcHttpCookie, NscVserverIdProblemNamesTheCharacter)
{
    EXPECT_EQ(AdcNscCookie::VserverIdProblem("Prod-www.x.co.uk-HTTP"), "");
    EXPECT_EQ(AdcNscCookie::VserverIdProblem("lb#1_a"), "");
    for (const std::string bad : {"cs@1", "cs:1", "cs=1", "cs 1"})
    {
        const std::string p = AdcNscCookie::VserverIdProblem(bad);
        EXPECT_EQ(p.rfind("has '" + bad.substr(2, 1) + "' at position 2; allowed: 1 to 127", 0), 0u)
            << p;
        EXPECT_THROW(AdcNscCookie::EncodeVserverId(bad), AdcConfigError);
    }
    EXPECT_NE(AdcNscCookie::VserverIdProblem("-lb"), ""); // not first
    EXPECT_NE(AdcNscCookie::VserverIdProblem(""), "");
    EXPECT_NE(AdcNscCookie::VserverIdProblem(std::string(128, 'a')), "");
}
