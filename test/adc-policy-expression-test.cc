/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the NetScaler advanced policy expressions that CS policies carry
 * (AdcPolicyExpression): each test against hand-built requests, precedence, the canonical
 * round trip and parse errors with their exact columns.
 *
 * Expected values come from the NetScaler documentation of the prefixes and operations
 * (HTTP.REQ.URL is the URL with its query, URL.PATH without it; text comparisons are
 * case-sensitive unless SET_TEXT_MODE(IGNORECASE); HEADER("h") is the last instance; ! binds
 * tighter than &&, which binds tighter than ||), from RFC 6265 (cookie pairs, case-sensitive
 * names) and from counting characters of the test texts by hand.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-policy-expression.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// \return whether \p text holds for \p req from \p client with random draw \p draw
bool
Holds(const std::string& text,
      const AdcHttpMessage& req,
      AdcIpAddress client = Ipv4Address("192.0.2.10"),
      double draw = 0.5)
{
    AdcPolicyContext ctx;
    ctx.request = &req;
    ctx.clientIp = client;
    ctx.randomDraw = draw;
    return AdcPolicyExpression::Parse(text).Evaluate(ctx);
}

/// \return the column of the parse error of \p text (0 when it parses)
std::size_t
ErrorColumn(const std::string& text, std::string* message = nullptr)
{
    try
    {
        AdcPolicyExpression::Parse(text);
    }
    catch (const AdcPolicyExpressionError& e)
    {
        if (message != nullptr)
        {
            *message = e.what();
        }
        return e.GetColumn();
    }
    return 0;
}

AdcHttpMessage
Get(const std::string& target, const std::string& host = "shop.example.com")
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest("GET", target);
    if (!host.empty())
    {
        m.SetHeader("Host", host);
    }
    return m;
}

} // namespace

// REQ: CS-01 (policies match on the URL)
TEST(AdcPolicyExpression, UrlStartsWithEqContains)
{
    const AdcHttpMessage req = Get("/v2/cart?item=7");
    EXPECT_TRUE(Holds("HTTP.REQ.URL.STARTSWITH(\"/v2\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.URL.STARTSWITH(\"/v1\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.URL.STARTSWITH(\"/v2/cart?item=77\")", req));
    // The URL includes the query string.
    EXPECT_TRUE(Holds("HTTP.REQ.URL.EQ(\"/v2/cart?item=7\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.URL.EQ(\"/v2/cart\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.URL.CONTAINS(\"item=7\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.URL.CONTAINS(\"item=8\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.URL.ENDSWITH(\"=7\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.URL.NE(\"/\")", req));
    // Words are case-insensitive, as on the appliance.
    EXPECT_TRUE(Holds("http.req.url.startswith(\"/v2\")", req));
}

// REQ: CS-01
TEST(AdcPolicyExpression, TextModeIgnoreCase)
{
    const AdcHttpMessage req = Get("/V2/Cart");
    EXPECT_FALSE(Holds("HTTP.REQ.URL.STARTSWITH(\"/v2\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.URL.SET_TEXT_MODE(IGNORECASE).STARTSWITH(\"/v2\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.URL.SET_TEXT_MODE(ignorecase).EQ(\"/v2/CART\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.URL.SET_TEXT_MODE(NOIGNORECASE).STARTSWITH(\"/v2\")", req));
}

// REQ: CS-01 (URL.PATH drops the query; an absolute-form target loses scheme://authority)
TEST(AdcPolicyExpression, UrlPath)
{
    const AdcHttpMessage req = Get("/v2/cart?item=7");
    EXPECT_TRUE(Holds("HTTP.REQ.URL.PATH.EQ(\"/v2/cart\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.URL.PATH.EQ(\"/v2/cart?item=7\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.URL.PATH.STARTSWITH(\"/v2/\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.URL.PATH.CONTAINS(\"item\")", req));

    const AdcHttpMessage proxyForm = Get("http://shop.example.com/v2/cart?item=7", "");
    EXPECT_TRUE(Holds("HTTP.REQ.URL.EQ(\"/v2/cart?item=7\")", proxyForm));
    EXPECT_TRUE(Holds("HTTP.REQ.URL.PATH.EQ(\"/v2/cart\")", proxyForm));
    EXPECT_TRUE(Holds("HTTP.REQ.HOSTNAME.EQ(\"shop.example.com\")", proxyForm));
}

// REQ: CS-01 (host names compare case-insensitively; the port only when the argument has one)
TEST(AdcPolicyExpression, HostnameEq)
{
    const AdcHttpMessage req = Get("/", "Shop.Example.COM:8080");
    EXPECT_TRUE(Holds("HTTP.REQ.HOSTNAME.EQ(\"shop.example.com\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.HOSTNAME.EQ(\"SHOP.example.com:8080\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.HOSTNAME.EQ(\"shop.example.com:80\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.HOSTNAME.EQ(\"example.com\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.HOSTNAME.EQ(\"shop.example.co\")", req));

    const AdcHttpMessage noPort = Get("/", "shop.example.com");
    EXPECT_TRUE(Holds("HTTP.REQ.HOSTNAME.EQ(\"shop.example.com\")", noPort));
    EXPECT_FALSE(Holds("HTTP.REQ.HOSTNAME.EQ(\"shop.example.com:8080\")", noPort));

    const AdcHttpMessage v6 = Get("/", "[2001:db8::1]:443");
    EXPECT_TRUE(Holds("HTTP.REQ.HOSTNAME.EQ(\"[2001:DB8::1]\")", v6));

    const AdcHttpMessage noHost = Get("/", "");
    EXPECT_FALSE(Holds("HTTP.REQ.HOSTNAME.EQ(\"shop.example.com\")", noHost));
}

// REQ: CS-01 (canary by header)
TEST(AdcPolicyExpression, HeaderEqContainsExists)
{
    AdcHttpMessage req = Get("/");
    req.AddHeader("X-Canary", "never");
    req.AddHeader("x-canary", "always");
    // The last instance counts; names are case-insensitive.
    EXPECT_TRUE(Holds("HTTP.REQ.HEADER(\"X-Canary\").EQ(\"always\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.HEADER(\"X-Canary\").EQ(\"never\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.HEADER(\"X-CANARY\").CONTAINS(\"way\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.HEADER(\"x-canary\").EXISTS", req));
    EXPECT_FALSE(Holds("HTTP.REQ.HEADER(\"X-Other\").EXISTS", req));
    EXPECT_TRUE(Holds("!HTTP.REQ.HEADER(\"X-Other\").EXISTS", req));
    // A missing header is the empty text.
    EXPECT_TRUE(Holds("HTTP.REQ.HEADER(\"X-Other\").EQ(\"\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.HEADER(\"X-Other\").CONTAINS(\"a\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.HEADER(\"X-Canary\").EQ(\"ALWAYS\")", req));
    EXPECT_TRUE(
        Holds("HTTP.REQ.HEADER(\"X-Canary\").SET_TEXT_MODE(IGNORECASE).EQ(\"ALWAYS\")", req));
}

// REQ: CS-01 (canary by cookie)
TEST(AdcPolicyExpression, CookieValueContainsExists)
{
    AdcHttpMessage req = Get("/");
    req.AddHeader("Cookie", "session=abc; version=v2");
    req.AddHeader("Cookie", "theme=dark");
    EXPECT_TRUE(Holds("HTTP.REQ.COOKIE.VALUE(\"version\").EQ(\"v2\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.COOKIE.VALUE(\"version\").EQ(\"v1\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.COOKIE.VALUE(\"theme\").EQ(\"dark\")", req));
    // RFC 6265: cookie names are case-sensitive.
    EXPECT_FALSE(Holds("HTTP.REQ.COOKIE.VALUE(\"Version\").EQ(\"v2\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.COOKIE.CONTAINS(\"version=v2\")", req));
    // Several Cookie fields read as one text joined by "; ".
    EXPECT_TRUE(Holds("HTTP.REQ.COOKIE.EQ(\"session=abc; version=v2; theme=dark\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.COOKIE.EXISTS(\"session\")", req));
    EXPECT_FALSE(Holds("HTTP.REQ.COOKIE.EXISTS(\"sess\")", req));
    EXPECT_TRUE(Holds("HTTP.REQ.COOKIE.VALUE(\"missing\").EQ(\"\")", req));

    const AdcHttpMessage none = Get("/");
    EXPECT_FALSE(Holds("HTTP.REQ.COOKIE.EXISTS(\"session\")", none));
    EXPECT_FALSE(Holds("HTTP.REQ.COOKIE.CONTAINS(\"=\")", none));
}

// REQ: CS-01 (canary by client address)
TEST(AdcPolicyExpression, ClientIpEqInSubnet)
{
    const AdcHttpMessage req = Get("/");
    const AdcIpAddress c = Ipv4Address("10.20.30.40");
    EXPECT_TRUE(Holds("CLIENT.IP.SRC.EQ(10.20.30.40)", req, c));
    EXPECT_FALSE(Holds("CLIENT.IP.SRC.EQ(10.20.30.41)", req, c));
    EXPECT_TRUE(Holds("CLIENT.IP.SRC.IN_SUBNET(10.20.0.0/16)", req, c));
    EXPECT_TRUE(Holds("CLIENT.IP.SRC.IN_SUBNET(10.20.30.40/32)", req, c));
    EXPECT_TRUE(Holds("CLIENT.IP.SRC.IN_SUBNET(0.0.0.0/0)", req, c));
    EXPECT_FALSE(Holds("CLIENT.IP.SRC.IN_SUBNET(10.21.0.0/16)", req, c));
    EXPECT_TRUE(Holds("CLIENT.IP.SRC.IN_SUBNET(10.20.30.32/28)", req, c)); // .32-.47
    EXPECT_FALSE(Holds("CLIENT.IP.SRC.IN_SUBNET(10.20.30.48/28)", req, c));
    // An IPv6 client matches no IPv4 test.
    const AdcIpAddress v6 = Ipv6Address("2001:db8::1");
    EXPECT_FALSE(Holds("CLIENT.IP.SRC.IN_SUBNET(0.0.0.0/0)", req, v6));
}

// REQ: CS-01, CS-02 (a percentage split: SYS.RANDOM in [0, 1) scaled by MUL)
TEST(AdcPolicyExpression, RandomPercentage)
{
    const AdcHttpMessage req = Get("/");
    const std::string tenPercent = "SYS.RANDOM.MUL(100).LT(10)";
    EXPECT_TRUE(Holds(tenPercent, req, Ipv4Address("10.0.0.1"), 0.0));
    EXPECT_TRUE(Holds(tenPercent, req, Ipv4Address("10.0.0.1"), 0.0999));
    EXPECT_FALSE(Holds(tenPercent, req, Ipv4Address("10.0.0.1"), 0.1));
    EXPECT_FALSE(Holds(tenPercent, req, Ipv4Address("10.0.0.1"), 0.99));
    // Out-of-range draws are clamped into [0, 1).
    EXPECT_TRUE(Holds(tenPercent, req, Ipv4Address("10.0.0.1"), -3.0));
    EXPECT_FALSE(Holds("SYS.RANDOM.GE(1)", req, Ipv4Address("10.0.0.1"), 7.0));
    EXPECT_TRUE(Holds("SYS.RANDOM.LT(0.25)", req, Ipv4Address("10.0.0.1"), 0.2));
    EXPECT_TRUE(Holds("SYS.RANDOM.MUL(100).GE(90)", req, Ipv4Address("10.0.0.1"), 0.9));
    EXPECT_FALSE(Holds("SYS.RANDOM.MUL(100).GT(90)", req, Ipv4Address("10.0.0.1"), 0.9));
    EXPECT_TRUE(Holds("SYS.RANDOM.MUL(100).LE(90)", req, Ipv4Address("10.0.0.1"), 0.9));

    // 10000 evenly spread draws: exactly 1000 take the 10% branch.
    const AdcPolicyExpression e = AdcPolicyExpression::Parse(tenPercent);
    int i = 0;
    AdcPolicyContext ctx;
    ctx.request = &req;
    ctx.randomSource = [&i]() { return (i++) / 10000.0; };
    int hits = 0;
    for (int k = 0; k < 10000; ++k)
    {
        hits += e.Evaluate(ctx) ? 1 : 0;
    }
    EXPECT_EQ(i, 10000);
    EXPECT_EQ(hits, 1000);
}

// REQ: CS-01 (each SYS.RANDOM evaluated draws once; && and || short-circuit)
TEST(AdcPolicyExpression, RandomDrawsAndShortCircuit)
{
    const AdcHttpMessage req = Get("/");
    const AdcPolicyExpression e =
        AdcPolicyExpression::Parse("SYS.RANDOM.MUL(100).LT(50) || SYS.RANDOM.MUL(100).LT(50)");
    std::vector<double> draws{0.7, 0.2};
    std::size_t next = 0;
    AdcPolicyContext ctx;
    ctx.request = &req;
    ctx.randomSource = [&]() { return draws[next++ % draws.size()]; };
    EXPECT_TRUE(e.Evaluate(ctx)); // 70 fails, 20 holds
    EXPECT_EQ(next, 2U);
    draws = {0.1};
    next = 0;
    EXPECT_TRUE(e.Evaluate(ctx)); // the first holds; the second is not drawn
    EXPECT_EQ(next, 1U);
}

// REQ: CS-01 (! before && before ||, left to right)
TEST(AdcPolicyExpression, Precedence)
{
    const AdcHttpMessage req = Get("/");
    // && binds tighter than ||: (false && false) || true.
    EXPECT_TRUE(Holds("false && false || true", req));
    // ... so true || (true && false), not (true || true) && false.
    EXPECT_TRUE(Holds("true || true && false", req));
    // ! binds tighter than &&: (!false) && false.
    EXPECT_FALSE(Holds("!false && false", req));
    EXPECT_TRUE(Holds("!(false && false)", req));
    EXPECT_FALSE(Holds("(true || true) && false", req));
    EXPECT_TRUE(Holds("!!true", req));
    EXPECT_TRUE(Holds("TRUE", req));
    EXPECT_FALSE(Holds("False", req));

    using E = AdcPolicyExpression;
    EXPECT_EQ(E::Parse("true || false && false"), E::Parse("true || (false && false)"));
    EXPECT_NE(E::Parse("true || false && false"), E::Parse("(true || false) && false"));
    EXPECT_EQ(E::Parse("!true && false"), E::Parse("(!true) && false"));
    EXPECT_NE(E::Parse("!true && false"), E::Parse("!(true && false)"));
    // Left-associative: a && b && c is (a && b) && c.
    EXPECT_EQ(E::Parse("true && false && true"), E::Parse("(true && false) && true"));
    EXPECT_NE(E::Parse("true && false && true"), E::Parse("true && (false && true)"));
}

// REQ: CS-11 (a configured rule prints back in canonical form and reads back the same)
TEST(AdcPolicyExpression, CanonicalRoundTrip)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"http.req.url.startswith(\"/v2\")", "HTTP.REQ.URL.STARTSWITH(\"/v2\")"},
        {"HTTP.REQ.URL.SET_TEXT_MODE( IGNORECASE ).CONTAINS( \"/Api\" )",
         "HTTP.REQ.URL.SET_TEXT_MODE(IGNORECASE).CONTAINS(\"/Api\")"},
        {"HTTP.REQ.URL.SET_TEXT_MODE(NOIGNORECASE).EQ(\"/\")", "HTTP.REQ.URL.EQ(\"/\")"},
        {"HTTP.REQ.HEADER(\"X-Canary\").EXISTS && HTTP.REQ.COOKIE.VALUE(\"v\").EQ(\"2\")",
         "HTTP.REQ.HEADER(\"X-Canary\").EXISTS&&HTTP.REQ.COOKIE.VALUE(\"v\").EQ(\"2\")"},
        {"((true))", "true"},
        {"! ( TRUE || false ) && true", "!(true||false)&&true"},
        {"true && (false || true)", "true&&(false||true)"},
        {"true && (false && true)", "true&&(false&&true)"},
        {"(true && false) && true", "true&&false&&true"},
        {"(true || false) || (true || false)", "true||false||(true||false)"},
        {"CLIENT.IP.SRC.IN_SUBNET( 10.0.0.0/8 ) || client.ip.src.eq(192.0.2.1)",
         "CLIENT.IP.SRC.IN_SUBNET(10.0.0.0/8)||CLIENT.IP.SRC.EQ(192.0.2.1)"},
        {"SYS.RANDOM.MUL(0100).LT(010.50)", "SYS.RANDOM.MUL(100).LT(10.5)"},
        {"sys.random.ge(0.000)", "SYS.RANDOM.GE(0)"},
        {"HTTP.REQ.URL.EQ(\"a\\\"b\\\\c\")", "HTTP.REQ.URL.EQ(\"a\\\"b\\\\c\")"},
        {"HTTP.REQ.HOSTNAME.EQ(\"Shop.Example.com:8080\")",
         "HTTP.REQ.HOSTNAME.EQ(\"Shop.Example.com:8080\")"},
        {"HTTP.REQ.COOKIE.EXISTS(\"NSC_x\") || HTTP.REQ.COOKIE.CONTAINS(\"a\")",
         "HTTP.REQ.COOKIE.EXISTS(\"NSC_x\")||HTTP.REQ.COOKIE.CONTAINS(\"a\")"},
        {"HTTP.REQ.URL.PATH.ENDSWITH(\".js\")", "HTTP.REQ.URL.PATH.ENDSWITH(\".js\")"},
    };
    for (const auto& [in, canonical] : cases)
    {
        const AdcPolicyExpression e = AdcPolicyExpression::Parse(in);
        EXPECT_EQ(e.ToString(), canonical) << in;
        const AdcPolicyExpression back = AdcPolicyExpression::Parse(e.ToString());
        EXPECT_EQ(back, e) << in;
        EXPECT_EQ(back.ToString(), canonical) << in;
    }
    // The escaped string holds a quote and a backslash.
    AdcHttpMessage req = Get("a\"b\\c");
    EXPECT_TRUE(Holds("HTTP.REQ.URL.EQ(\"a\\\"b\\\\c\")", req));
    // Different arguments make different trees.
    EXPECT_NE(AdcPolicyExpression::Parse("HTTP.REQ.URL.EQ(\"/a\")"),
              AdcPolicyExpression::Parse("HTTP.REQ.URL.EQ(\"/b\")"));
    EXPECT_NE(AdcPolicyExpression::Parse("HTTP.REQ.URL.EQ(\"/a\")"),
              AdcPolicyExpression::Parse("HTTP.REQ.URL.SET_TEXT_MODE(IGNORECASE).EQ(\"/a\")"));
    // The default expression is "true".
    EXPECT_EQ(AdcPolicyExpression().ToString(), "true");
}

// REQ: CS-11 (bad rules are configuration errors at the first unsupported word)
TEST(AdcPolicyExpression, ErrorColumns)
{
    std::string msg;
    // "HTTP." is 5 characters: RES starts at column 6.
    EXPECT_EQ(ErrorColumn("HTTP.RES.HEADER(\"a\").EXISTS", &msg), 6U);
    EXPECT_NE(msg.find("column 6"), std::string::npos) << msg;
    EXPECT_NE(msg.find("expected REQ"), std::string::npos) << msg;
    EXPECT_NE(msg.find("found 'RES'"), std::string::npos) << msg;
    EXPECT_EQ(msg.rfind("AdcPolicyExpression: expression \"HTTP.RES", 0), 0U) << msg;
    // "HTTP.REQ.URL." is 13: the unsupported operation starts at 14.
    EXPECT_EQ(ErrorColumn("HTTP.REQ.URL.REGEX_MATCH(re/x/)", &msg), 14U);
    EXPECT_NE(msg.find("STARTSWITH"), std::string::npos) << msg;
    EXPECT_EQ(ErrorColumn("HTTP.REQ.BODY(100).CONTAINS(\"x\")"), 10U);
    EXPECT_EQ(ErrorColumn("CLIENT.IP.DST.EQ(10.0.0.1)"), 11U);
    EXPECT_EQ(ErrorColumn("SYS.TIME.WEEKDAY.EQ(0)"), 5U);
    EXPECT_EQ(ErrorColumn("CLIENT.TCP.SRCPORT.EQ(80)"), 8U);
    EXPECT_EQ(ErrorColumn("REQ.HTTP.URL.EQ(\"/\")"), 1U);
    // Nothing may follow a complete test: "SYS.RANDOM.MUL(100).LT(10)." is 27 characters.
    EXPECT_EQ(ErrorColumn("SYS.RANDOM.MUL(100).LT(10).AND(true)"), 28U);
    // Unterminated string: 19 characters, the error is at the end (column 20).
    EXPECT_EQ(ErrorColumn("HTTP.REQ.URL.EQ(\"x)", &msg), 20U);
    EXPECT_NE(msg.find("opened at column 17"), std::string::npos) << msg;
    // Only \" and \\ are escapes: the backslash is at column 19.
    EXPECT_EQ(ErrorColumn("HTTP.REQ.URL.EQ(\"a\\n\")"), 19U);
    // An unquoted argument: column 17.
    EXPECT_EQ(ErrorColumn("http.req.url.eq(x)", &msg), 17U);
    EXPECT_NE(msg.find("double-quoted string"), std::string::npos) << msg;
    // A header name must be a token: the string starts at column 17.
    EXPECT_EQ(ErrorColumn("HTTP.REQ.HEADER(\"Bad Name\").EXISTS"), 17U);
    EXPECT_EQ(ErrorColumn("HTTP.REQ.HEADER(\"\").EXISTS"), 17U);
    // Address errors: "CLIENT.IP.SRC.EQ(" is 17, "10.0.0." 7 more.
    EXPECT_EQ(ErrorColumn("CLIENT.IP.SRC.EQ(10.0.0.256)"), 25U);
    EXPECT_EQ(ErrorColumn("CLIENT.IP.SRC.EQ(10.0.0.01)"), 25U);
    EXPECT_EQ(ErrorColumn("CLIENT.IP.SRC.EQ(10.0.0)"), 24U);
    // Host bits set: the address starts at column 25 ("CLIENT.IP.SRC.IN_SUBNET(" is 24).
    EXPECT_EQ(ErrorColumn("CLIENT.IP.SRC.IN_SUBNET(10.1.0.0/8)", &msg), 25U);
    EXPECT_NE(msg.find("10.0.0.0/8"), std::string::npos) << msg;
    EXPECT_EQ(ErrorColumn("CLIENT.IP.SRC.IN_SUBNET(10.0.0.0/33)"), 34U);
    EXPECT_EQ(ErrorColumn("CLIENT.IP.SRC.IN_SUBNET(10.0.0.0)"), 33U);
    // Hostname argument: the string starts at column 22.
    EXPECT_EQ(ErrorColumn("HTTP.REQ.HOSTNAME.EQ(\"a b\")"), 22U);
    EXPECT_EQ(ErrorColumn("HTTP.REQ.HOSTNAME.EQ(\"a:99999\")"), 22U);
    EXPECT_EQ(ErrorColumn("HTTP.REQ.HOSTNAME.CONTAINS(\"a\")"), 19U);
    // Operators and parentheses.
    EXPECT_EQ(ErrorColumn("true &&"), 8U);
    EXPECT_EQ(ErrorColumn("(true"), 6U);
    EXPECT_EQ(ErrorColumn("true)", &msg), 5U);
    EXPECT_NE(msg.find("found ')'"), std::string::npos) << msg;
    EXPECT_EQ(ErrorColumn("true & false"), 6U);
    EXPECT_EQ(ErrorColumn("true and false"), 6U);
    EXPECT_EQ(ErrorColumn(""), 1U);
    EXPECT_EQ(ErrorColumn("   "), 4U);
    EXPECT_EQ(ErrorColumn("HTTP.REQ.URL"), 13U);
    EXPECT_EQ(ErrorColumn("HTTP.REQ.URL.SET_TEXT_MODE(URLENCODED).EQ(\"/\")"), 28U);
    EXPECT_EQ(ErrorColumn("SYS.RANDOM.MUL(-1).LT(10)"), 16U);
    EXPECT_EQ(ErrorColumn("SYS.RANDOM.MUL(100).EQ(10)"), 21U);
    // NetScaler's length limit: 1499 characters; the 1500th is the error.
    const std::string longest = "HTTP.REQ.URL.EQ(\"" + std::string(1499 - 19, 'a') + "\")";
    ASSERT_EQ(longest.size(), 1499U);
    EXPECT_EQ(ErrorColumn(longest), 0U);
    EXPECT_EQ(ErrorColumn(longest + " "), 1500U);
    // Nesting limit: 64 '!' parse, the 65th (column 65) is refused.
    EXPECT_EQ(ErrorColumn(std::string(64, '!') + "true"), 0U);
    EXPECT_EQ(ErrorColumn(std::string(65, '!') + "true"), 65U);
    EXPECT_EQ(ErrorColumn(std::string(65, '(') + "true" + std::string(65, ')')), 65U);
    // Every error is an AdcConfigError.
    EXPECT_THROW(AdcPolicyExpression::Parse("HTTP.RES"), AdcConfigError);
}

// REQ: CS-01, CS-02 (policies bound in priority order pick the LB vserver; changing a policy
// at run time moves new requests)
TEST(AdcPolicyExpression, CanaryPoliciesPickLbVserver)
{
    struct Binding
    {
        AdcPolicyExpression rule;
        std::string lb;
    };

    auto pick = [](const std::vector<Binding>& bindings, const AdcPolicyContext& ctx) {
        for (const auto& b : bindings)
        {
            if (b.rule.Evaluate(ctx))
            {
                return b.lb;
            }
        }
        return std::string("lb-v1"); // the default LB vserver
    };

    std::vector<Binding> bindings = {
        {AdcPolicyExpression::Parse("HTTP.REQ.HEADER(\"X-Canary\").EQ(\"1\") || "
                                    "HTTP.REQ.COOKIE.VALUE(\"version\").EQ(\"v2\")"),
         "lb-v2"},
        {AdcPolicyExpression::Parse("CLIENT.IP.SRC.IN_SUBNET(198.51.100.0/24)"), "lb-v2"},
        {AdcPolicyExpression::Parse("SYS.RANDOM.MUL(100).LT(10)"), "lb-v2"},
    };

    AdcHttpMessage plain = Get("/app");
    AdcHttpMessage tagged = Get("/app");
    tagged.SetHeader("X-Canary", "1");
    AdcHttpMessage cookied = Get("/app");
    cookied.SetHeader("Cookie", "version=v2");

    AdcPolicyContext ctx;
    ctx.clientIp = Ipv4Address("203.0.113.5");
    ctx.randomDraw = 0.5;
    ctx.request = &plain;
    EXPECT_EQ(pick(bindings, ctx), "lb-v1");
    ctx.request = &tagged;
    EXPECT_EQ(pick(bindings, ctx), "lb-v2");
    ctx.request = &cookied;
    EXPECT_EQ(pick(bindings, ctx), "lb-v2");
    ctx.request = &plain;
    ctx.clientIp = Ipv4Address("198.51.100.77");
    EXPECT_EQ(pick(bindings, ctx), "lb-v2");
    ctx.clientIp = Ipv4Address("203.0.113.5");
    ctx.randomDraw = 0.05;
    EXPECT_EQ(pick(bindings, ctx), "lb-v2");

    // CS-02: the rollout widens the random split to 50%; a new request with draw 0.3 moves.
    ctx.randomDraw = 0.3;
    EXPECT_EQ(pick(bindings, ctx), "lb-v1");
    bindings[2].rule = AdcPolicyExpression::Parse("SYS.RANDOM.MUL(100).LT(50)");
    EXPECT_EQ(pick(bindings, ctx), "lb-v2");
}
