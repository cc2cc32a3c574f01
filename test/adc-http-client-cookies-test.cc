/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Content-switching clients (issue 10): Set-Cookie parsing (RFC 6265 section 5.2), the
 * server's application version and cookie, the client's cookie policies NONE / KEEP / OTHER
 * (the three kinds of client backup persistence tells apart, CS-08) and stateful transactions
 * broken by a response of another application version (CS-09). Client -> server directly over
 * the fixtures' LAN, no CS vserver. Expected values come from RFC 6265 and RFC 7231 examples
 * (dates converted to Unix time by hand / a calendar), not from the code.
 */

#include "adc-http-apps-test.h"

#include "ns3/adc-http-cookie.h"
#include "ns3/enum.h"

namespace
{

/// Unix time of "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 7231 7.1.1.1's example).
constexpr int64_t kNov1994 = 784111777;
/// Unix time of "Wed, 09 Jun 2021 10:18:14 GMT" (RFC 6265 section 3.1's example).
constexpr int64_t kJun2021 = 1623233894;

/// What a server saw of the requests, and what a client traced.
struct Seen
{
    std::vector<std::optional<std::string>> cookies; //!< Cookie header of each request
    std::vector<std::string> set;                    //!< CookieSet: "rid name=value"
    std::vector<Time> setExpiry;                     //!< CookieSet: expiry
    std::vector<std::string> broken;                 //!< TransactionBroken
    std::vector<std::string> done;                   //!< TransactionDone
    std::vector<std::string> heads;                  //!< client Response: the head

    void Response(uint64_t, const AdcHttpStreamParser::Message& m)
    {
        heads.push_back(m.head.ToWireString());
    }

    void Request(const AdcHttpMessage& request, const Address&)
    {
        cookies.push_back(request.GetHeader("Cookie"));
    }

    void CookieSet(uint64_t rid, const std::string& name, const std::string& value, Time expiry)
    {
        set.push_back(std::to_string(rid) + " " + name + "=" + value);
        setExpiry.push_back(expiry);
    }

    void Broken(uint64_t tid, uint64_t rid, const std::string& expected, const std::string& got)
    {
        broken.push_back(std::to_string(tid) + " " + std::to_string(rid) + " " + expected + " " +
                         got);
    }

    void Done(uint64_t tid, uint32_t requests, uint32_t completed, bool isBroken)
    {
        done.push_back(std::to_string(tid) + " " + std::to_string(requests) + " " +
                       std::to_string(completed) + (isBroken ? " broken" : " ok"));
    }

    void Attach(Ptr<AdcHttpServer> server, Ptr<AdcHttpClient> client)
    {
        server->TraceConnectWithoutContext("Request", MakeCallback(&Seen::Request, this));
        client->TraceConnectWithoutContext("CookieSet", MakeCallback(&Seen::CookieSet, this));
        client->TraceConnectWithoutContext("TransactionBroken", MakeCallback(&Seen::Broken, this));
        client->TraceConnectWithoutContext("TransactionDone", MakeCallback(&Seen::Done, this));
    }
};

const std::optional<std::string> kNone;

/// \return the Cookie value \p v as an optional
std::optional<std::string>
C(const std::string& v)
{
    return v;
}

class AdcHttpClientCookies : public AdcHttpApps
{
  protected:
    /// One client (MaxConnections 1, requests every \p gap s from 1 s) and one server.
    void Pair(const std::string& policy, uint32_t n, double gap, const std::string& setCookie)
    {
        lan = MakeLan(1, 1);
        server = Server(lan.servers.Get(0), "srv", 100);
        server->SetAttribute("SetCookie", StringValue(setCookie));
        client = Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), n, gap);
        client->SetAttribute("CookiePolicy", StringValue(policy));
        client->SetAttribute("MaxConnections", UintegerValue(1));
        client->SetStopTime(Seconds(20));
        seen.Attach(server, client);
        records.Attach(client);
    }

    void Run()
    {
        Simulator::Stop(Seconds(30));
        Simulator::Run();
    }

    Lan lan;
    Ptr<AdcHttpServer> server;
    Ptr<AdcHttpClient> client;
    Seen seen;
    RequestRecords records;
};

} // namespace

// ---- Set-Cookie parsing (RFC 6265 section 5.2) ------------------------------------------------

// REQ: CS-08 (a client must read the cookies it returns)
TEST(AdcSetCookieParse, Rfc6265Section3Examples)
{
    auto c = AdcSetCookie::Parse("SID=31d4d96e407aad42; Path=/; Domain=example.com");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->name, "SID");
    EXPECT_EQ(c->value, "31d4d96e407aad42");
    EXPECT_EQ(c->path, "/");
    EXPECT_EQ(c->domain, "example.com");
    EXPECT_FALSE(c->secure || c->httpOnly);
    EXPECT_TRUE(AdcSetCookie::IsSession(*c));

    c = AdcSetCookie::Parse("SID=31d4d96e407aad42; Path=/; Secure; HttpOnly");
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->secure && c->httpOnly);

    c = AdcSetCookie::Parse("lang=en-US; Expires=Wed, 09 Jun 2021 10:18:14 GMT");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->value, "en-US");
    EXPECT_EQ(c->expires, std::optional<int64_t>(kJun2021));
    EXPECT_FALSE(c->maxAge);

    // Deleting a cookie: empty value and a date in the past.
    c = AdcSetCookie::Parse("lang=; Expires=Sun, 06 Nov 1994 08:49:37 GMT");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->value, "");
    EXPECT_EQ(c->expires, std::optional<int64_t>(kNov1994));
    EXPECT_LT(AdcSetCookie::ExpiryAfter(*c, Seconds(0)), 0);
}

// REQ: CS-08
TEST(AdcSetCookieParse, LinesToIgnoreAndTrimming)
{
    EXPECT_FALSE(AdcSetCookie::Parse(""));
    EXPECT_FALSE(AdcSetCookie::Parse("no-equals"));
    EXPECT_FALSE(AdcSetCookie::Parse("noequals; a=b")); // '=' only in an attribute
    EXPECT_FALSE(AdcSetCookie::Parse("=value"));        // step 5: empty name
    EXPECT_FALSE(AdcSetCookie::Parse(" \t=value; Path=/"));
    const auto c = AdcSetCookie::Parse(" a b = c=d ;Path=/x");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->name, "a b"); // 5.2 keeps it; the client's jar refuses non-token names
    EXPECT_EQ(c->value, "c=d");
    EXPECT_EQ(c->path, "/x");
}

// REQ: CS-08
TEST(AdcSetCookieParse, AttributesCaseLastWinsAndUnknown)
{
    auto c = AdcSetCookie::Parse("a=b; SameSite=Lax; PATH=/x; path=/y; pAtH=rel; DOMAIN=.Ex.COM; "
                                 "domain=; secure; Foo");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->path, "/y");       // "rel" does not start with '/': ignored
    EXPECT_EQ(c->domain, "ex.com"); // leading '.' cut, lowercased; empty one ignored
    EXPECT_TRUE(c->secure);
    EXPECT_TRUE(AdcSetCookie::IsSession(*c));

    // Max-Age: '-'? DIGIT+; anything else is ignored (5.2.2); Max-Age wins over Expires.
    c = AdcSetCookie::Parse("a=b; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Max-Age=60");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->maxAge, std::optional<int64_t>(60));
    EXPECT_EQ(AdcSetCookie::ExpiryAfter(*c, Seconds(100)), 60);
    EXPECT_EQ(AdcSetCookie::Parse("a=b; Max-Age=-5")->maxAge, std::optional<int64_t>(-5));
    EXPECT_FALSE(AdcSetCookie::Parse("a=b; Max-Age=+5")->maxAge);
    EXPECT_FALSE(AdcSetCookie::Parse("a=b; Max-Age=1x")->maxAge);
    EXPECT_FALSE(AdcSetCookie::Parse("a=b; Max-Age=-")->maxAge);
    EXPECT_FALSE(AdcSetCookie::Parse("a=b; Max-Age=")->maxAge);
    EXPECT_EQ(AdcSetCookie::Parse("a=b; Max-Age=99999999999999999999999")->maxAge,
              std::optional<int64_t>(AdcSetCookie::kMaxUnixSeconds)); // clamped, no overflow
    EXPECT_FALSE(AdcSetCookie::Parse("a=b; Expires=tomorrow")->expires);

    // Expires relative to the epoch: simulation time 0 is 2026-01-01T00:00:00Z.
    c = AdcSetCookie::Parse("a=b; Expires=Thu, 01 Jan 2026 00:01:40 GMT");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->expires, std::optional<int64_t>(AdcSetCookie::kDefaultEpoch + 100));
    EXPECT_EQ(AdcSetCookie::ExpiryAfter(*c, Seconds(30)), 70);
}

// REQ: CS-08
TEST(AdcSetCookieParse, CookieDatesOfRfc6265Section511)
{
    // The three forms of RFC 7231 7.1.1.1 name the same instant.
    EXPECT_EQ(AdcSetCookie::ParseCookieDate("Sun, 06 Nov 1994 08:49:37 GMT"), kNov1994);
    EXPECT_EQ(AdcSetCookie::ParseCookieDate("Sunday, 06-Nov-94 08:49:37 GMT"), kNov1994);
    EXPECT_EQ(AdcSetCookie::ParseCookieDate("Sun Nov  6 08:49:37 1994"), kNov1994);
    EXPECT_EQ(AdcSetCookie::ParseCookieDate("6 november 1994 8:49:37"), kNov1994);
    // 2-digit years: 70-99 are 19xx, 00-69 are 20xx.
    EXPECT_EQ(AdcSetCookie::ParseCookieDate("09 Jun 21 10:18:14"), kJun2021);
    EXPECT_EQ(AdcSetCookie::ParseCookieDate("01 Jan 1970 00:00:00"), 0);
    EXPECT_EQ(AdcSetCookie::ParseCookieDate("Thu, 01 Jan 2026 00:00:00 GMT"),
              AdcSetCookie::kDefaultEpoch);
    EXPECT_EQ(AdcSetCookie::ParseCookieDate("29 Feb 2024 00:00:00"), 1709164800);
    // Failures: a missing part, out of range, a date that does not exist.
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate(""));
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate("Sun, 06 Nov 1994 GMT"));
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate("Sun, 06 Nov 1994 24:00:00 GMT"));
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate("Sun, 06 Nov 1994 08:60:00 GMT"));
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate("06 Nov 1600 08:49:37"));
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate("30 Feb 2020 00:00:00"));
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate("29 Feb 2023 00:00:00"));
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate("32 Jan 2020 00:00:00"));
    EXPECT_FALSE(AdcSetCookie::ParseCookieDate("06 Nov 19945 08:49:37"));
}

// REQ: CS-05, CS-08
TEST(AdcSetCookieParse, ReadsWhatBuildWrites)
{
    const auto v0 = AdcSetCookie::Parse(
        AdcSetCookie::Build("NSC_x", "abc", AdcSetCookie::Version::V0, Seconds(1800), Seconds(0)));
    ASSERT_TRUE(v0);
    EXPECT_EQ(v0->name, "NSC_x");
    EXPECT_EQ(v0->value, "abc");
    // "Thu, 01 Jan 2026 00:30:00 GMT"
    EXPECT_EQ(v0->expires, std::optional<int64_t>(AdcSetCookie::kDefaultEpoch + 1800));
    const auto v1 = AdcSetCookie::Parse(
        AdcSetCookie::Build("NSC_x", "abc", AdcSetCookie::Version::V1, Seconds(90), Seconds(5)));
    ASSERT_TRUE(v1);
    EXPECT_EQ(v1->maxAge, std::optional<int64_t>(90));
    EXPECT_EQ(v1->path, "/");
}

// ---- the server's application identity ------------------------------------------------------

// REQ: CS-09 (the versions a canary test tells apart)
TEST_F(AdcHttpClientCookies, ServerAddsAppVersionAndSetCookieOnlyWhenSet)
{
    lan = MakeLan(1, 2);
    Ptr<AdcHttpServer> plain = Server(lan.servers.Get(0), "plain", 10);
    Ptr<AdcHttpServer> app = Server(lan.servers.Get(1), "app", 10);
    app->SetAttribute("AppVersion", StringValue("v2"));
    app->SetAttribute("SetCookie", StringValue("JSESSIONID=abc; Path=/"));
    Ptr<AdcHttpClient> c1 =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(0), 80), 1, 1);
    Ptr<AdcHttpClient> c2 =
        Client(lan.clients.Get(0), InetSocketAddress(lan.ServerIp(1), 80), 1, 2);
    c1->TraceConnectWithoutContext("Response", MakeCallback(&Seen::Response, &seen));
    c2->TraceConnectWithoutContext("Response", MakeCallback(&Seen::Response, &seen));
    Run();
    const auto& heads = seen.heads;
    ASSERT_EQ(heads.size(), 2u);
    EXPECT_EQ(heads[0], "HTTP/1.1 200 OK\r\nServer: plain\r\nContent-Length: 10\r\n\r\n");
    EXPECT_EQ(heads[1],
              "HTTP/1.1 200 OK\r\nServer: app\r\nX-App-Version: v2\r\n"
              "Set-Cookie: JSESSIONID=abc; Path=/\r\nContent-Length: 10\r\n\r\n");
}

// ---- cookie policies (CS-08: three client kinds) --------------------------------------------

// REQ: CS-08 (client kind "no cookie at all")
TEST_F(AdcHttpClientCookies, NoneNeverSendsACookie)
{
    Pair("NONE", 3, 1, "JSESSIONID=abc; Path=/");
    Run();
    EXPECT_EQ(seen.cookies, (std::vector<std::optional<std::string>>{kNone, kNone, kNone}));
    EXPECT_TRUE(seen.set.empty());
    ASSERT_EQ(records.done.size(), 3u);
    for (const auto& r : records.done)
    {
        EXPECT_EQ(r.requestBytes, PlainRequestBytes(r.url)); // byte-identical requests
    }
}

// REQ: CS-08 (client kind "returns the persistence cookie": a browser)
TEST_F(AdcHttpClientCookies, KeepReturnsTheServersCookiesOnLaterRequests)
{
    Pair("KEEP", 3, 1, "NSC_xyz=ffffffff0a01010245525d5f4f58455e445a4a423660; Path=/");
    server->SetResponseCallback(
        MakeCallback(+[](const AdcHttpMessage&, const std::string&, AdcHttpMessage& h, uint32_t&) {
            h.AddHeader("Set-Cookie", "JSESSIONID=abc; Path=/; HttpOnly");
        }));
    Run();
    const std::string both = "JSESSIONID=abc; NSC_xyz=ffffffff0a01010245525d5f4f58455e445a4a423660";
    EXPECT_EQ(seen.cookies, (std::vector<std::optional<std::string>>{kNone, C(both), C(both)}));
    ASSERT_EQ(seen.set.size(), 6u);
    EXPECT_EQ(seen.set[0], "1 JSESSIONID=abc");
    EXPECT_EQ(seen.set[1], "1 NSC_xyz=ffffffff0a01010245525d5f4f58455e445a4a423660");
    EXPECT_EQ(seen.setExpiry[0], Time::Max()); // session cookie
    ASSERT_EQ(records.done.size(), 3u);
    // The record counts the Cookie header: "Cookie: " + value + CRLF.
    EXPECT_EQ(records.done[1].requestBytes,
              PlainRequestBytes(records.done[1].url) + 10 + both.size());
}

// REQ: CS-08 (client kind "returns other cookies only": cookie-capable, no backup)
TEST_F(AdcHttpClientCookies, OtherNeverReturnsNscCookiesButReturnsOthers)
{
    Pair("OTHER", 3, 1, "NSC_xyz=ffffffff0a01010245525d5f4f58455e445a4a423660; Path=/");
    server->SetResponseCallback(
        MakeCallback(+[](const AdcHttpMessage&, const std::string&, AdcHttpMessage& h, uint32_t&) {
            h.AddHeader("Set-Cookie", "JSESSIONID=abc");
        }));
    Run();
    EXPECT_EQ(seen.cookies,
              (std::vector<std::optional<std::string>>{C("lang=en"),
                                                       C("lang=en; JSESSIONID=abc"),
                                                       C("lang=en; JSESSIONID=abc")}));
    for (const auto& s : seen.set)
    {
        EXPECT_EQ(s.find("NSC_"), std::string::npos) << s;
    }
    EXPECT_EQ(seen.set.size(), 3u);
}

// REQ: CS-08
TEST_F(AdcHttpClientCookies, OtherWithOwnOtherCookieAndOnlyNscFromServer)
{
    Pair("OTHER", 2, 1, "NSC_abc=1");
    client->SetAttribute("OtherCookie", StringValue("theme=dark"));
    Run();
    EXPECT_EQ(seen.cookies,
              (std::vector<std::optional<std::string>>{C("theme=dark"), C("theme=dark")}));
    EXPECT_TRUE(seen.set.empty());
}

// REQ: CS-08 (cookie timeouts in simulated time)
TEST_F(AdcHttpClientCookies, MaxAgeAndExpiresDropCookiesInSimulatedTime)
{
    // Requests at 2.25, 3.5, 4.75, 6 s (first one a gap after the start at 1 s). The first
    // response (~2.25 s) sets s (Max-Age 2: gone ~4.25 s), e (Expires 5 s after the epoch)
    // and d; the second deletes d with Max-Age=0.
    Pair("KEEP", 4, 1.25, "");
    server->SetResponseCallback(MakeCallback(
        +[](const AdcHttpMessage& rq, const std::string&, AdcHttpMessage& h, uint32_t&) {
            static uint32_t n = 0;
            n = rq.GetHeader("Cookie") ? n + 1 : 0; // the first request has no cookie
            if (n == 0)
            {
                h.AddHeader("Set-Cookie", "s=1; Max-Age=2");
                h.AddHeader("Set-Cookie", "e=1; Expires=Thu, 01 Jan 2026 00:00:05 GMT");
                h.AddHeader("Set-Cookie", "d=1");
            }
            else if (n == 1)
            {
                h.AddHeader("Set-Cookie", "d=; Max-Age=0");
            }
        }));
    Run();
    EXPECT_EQ(
        seen.cookies,
        (std::vector<std::optional<std::string>>{kNone, C("s=1; e=1; d=1"), C("e=1"), kNone}));
    // The deletion stores nothing; request 4 (no cookie) is answered like the first, but its
    // e has expired at 6 s: not stored.
    EXPECT_EQ(seen.set, (std::vector<std::string>{"1 s=1", "1 e=1", "1 d=1", "4 s=1", "4 d=1"}));
    ASSERT_EQ(seen.setExpiry.size(), 5u);
    EXPECT_EQ(seen.setExpiry[1], Seconds(5));
    EXPECT_GT(seen.setExpiry[0], Seconds(4.25));
    EXPECT_LT(seen.setExpiry[0], Seconds(4.30));
}

// ---- stateful transactions (CS-09) ----------------------------------------------------------

namespace
{

/// A server chooser: request 2 to \c bad, the others to \c ok.
struct FailSecond
{
    Address ok;
    Address bad;

    Address Choose(const std::string& /* url */, uint64_t id)
    {
        return id == 2 ? bad : ok;
    }
};

/// Servers and one client choosing among them per connection.
struct TwoVersions
{
    Lan lan;
    Ptr<AdcHttpServer> a;
    Ptr<AdcHttpServer> b;
    Ptr<AdcHttpClient> client;
    Alternate alt;
    FailSecond fail;
    Seen seen;
};

} // namespace

// REQ: CS-09 (a request sent to another application version breaks the transaction)
TEST_F(AdcHttpClientCookies, TransactionAcrossTwoVersionsIsBroken)
{
    TwoVersions t;
    t.lan = MakeLan(1, 2);
    t.a = Server(t.lan.servers.Get(0), "lb1", 10);
    t.b = Server(t.lan.servers.Get(1), "lb2", 10);
    t.a->SetAttribute("AppVersion", StringValue("v1"));
    t.b->SetAttribute("AppVersion", StringValue("v2"));
    t.alt.odd = InetSocketAddress(t.lan.ServerIp(0), 80);
    t.alt.even = InetSocketAddress(t.lan.ServerIp(1), 80);
    t.client = Client(t.lan.clients.Get(0), t.alt.odd, 5, 1);
    t.client->SetAttribute("Persistent", BooleanValue(false)); // the chooser sees each request
    t.client->SetAttribute("TransactionLength", UintegerValue(2));
    t.client->SetServerChooser(MakeCallback(&Alternate::Choose, &t.alt));
    t.client->SetStopTime(Seconds(20));
    t.seen.Attach(t.a, t.client);
    Run();
    // Requests 1,2 | 3,4 | 5: odd ones reach v1, even ones v2.
    EXPECT_EQ(t.seen.broken, (std::vector<std::string>{"1 2 v1 v2", "2 4 v1 v2"}));
    EXPECT_EQ(t.seen.done, (std::vector<std::string>{"1 2 2 broken", "2 2 2 broken", "3 1 1 ok"}));
    EXPECT_EQ(t.client->GetTransactionsStarted(), 3u);
    EXPECT_EQ(t.client->GetTransactionsBroken(), 2u);
    EXPECT_EQ(t.client->GetTransactionsDone(), 3u);
    EXPECT_EQ(t.client->GetTransactionsOpenAtStop(), 0u);
}

// REQ: CS-09 (same version: no break, even from servers of different names)
TEST_F(AdcHttpClientCookies, TransactionOnOneVersionIsNotBroken)
{
    TwoVersions t;
    t.lan = MakeLan(1, 2);
    t.a = Server(t.lan.servers.Get(0), "lb1", 10);
    t.b = Server(t.lan.servers.Get(1), "lb2", 10);
    t.a->SetAttribute("AppVersion", StringValue("v1"));
    t.b->SetAttribute("AppVersion", StringValue("v1"));
    t.alt.odd = InetSocketAddress(t.lan.ServerIp(0), 80);
    t.alt.even = InetSocketAddress(t.lan.ServerIp(1), 80);
    t.client = Client(t.lan.clients.Get(0), t.alt.odd, 4, 1);
    t.client->SetAttribute("Persistent", BooleanValue(false));
    t.client->SetAttribute("TransactionLength", UintegerValue(2));
    t.client->SetServerChooser(MakeCallback(&Alternate::Choose, &t.alt));
    t.client->SetStopTime(Seconds(20));
    t.seen.Attach(t.a, t.client);
    Run();
    EXPECT_TRUE(t.seen.broken.empty());
    EXPECT_EQ(t.seen.done, (std::vector<std::string>{"1 2 2 ok", "2 2 2 ok"}));
    EXPECT_EQ(t.client->GetTransactionsBroken(), 0u);
}

// REQ: CS-09 (without X-App-Version the Server header is the version: lb1 != lb2 breaks)
TEST_F(AdcHttpClientCookies, TransactionVersionFallsBackToServerHeader)
{
    TwoVersions u;
    u.lan = MakeLan(1, 2);
    u.a = Server(u.lan.servers.Get(0), "lb1", 10);
    u.b = Server(u.lan.servers.Get(1), "lb2", 10);
    u.alt.odd = InetSocketAddress(u.lan.ServerIp(0), 80);
    u.alt.even = InetSocketAddress(u.lan.ServerIp(1), 80);
    u.client = Client(u.lan.clients.Get(0), u.alt.odd, 2, 1);
    u.client->SetAttribute("Persistent", BooleanValue(false));
    u.client->SetAttribute("TransactionLength", UintegerValue(2));
    u.client->SetServerChooser(MakeCallback(&Alternate::Choose, &u.alt));
    u.seen.Attach(u.a, u.client);
    Run();
    EXPECT_EQ(u.seen.broken, (std::vector<std::string>{"1 2 lb1 lb2"}));
}

// REQ: CS-09 (a failed request does not break a transaction by itself)
TEST_F(AdcHttpClientCookies, FailedRequestDoesNotBreakAndOpenAtStopIsCounted)
{
    TwoVersions t;
    t.lan = MakeLan(1, 1);
    t.a = Server(t.lan.servers.Get(0), "lb1", 10);
    t.a->SetAttribute("AppVersion", StringValue("v1"));
    t.fail.ok = InetSocketAddress(t.lan.ServerIp(0), 80);
    t.fail.bad = InetSocketAddress(t.lan.ServerIp(0), 81); // nobody answers: "timeout"
    // Requests 1-3 at 2, 3, 4 s; request 2 fails (timeout at 3.5 s); request 4 (at 5 s) is never
    // issued...
    t.client = Client(t.lan.clients.Get(0), t.fail.ok, 4, 1);
    t.client->SetAttribute("Persistent", BooleanValue(false));
    t.client->SetAttribute("TransactionLength", UintegerValue(3));
    t.client->SetAttribute("RequestTimeout", TimeValue(Seconds(0.5)));
    t.client->SetServerChooser(MakeCallback(&FailSecond::Choose, &t.fail));
    t.client->SetStopTime(Seconds(4.5));
    t.seen.Attach(t.a, t.client);
    records.Attach(t.client); // its Failed("timeout") is checked below
    // ... but one issued at 4.45 s (request 4, transaction 2) is still open at 4.5 s: the
    // server answers it 0.3 s after it arrives (the others arrive before 4.1 s: done by 4.4 s).
    t.a->SetAttribute("ResponseDelay", TimeValue(Seconds(0.3)));
    Simulator::Schedule(Seconds(4.45), [&t]() { t.client->IssueRequest("/late"); });
    Run();
    EXPECT_EQ(t.client->GetRequestsFailed(), 1u);
    EXPECT_EQ(t.client->GetFailureReasons().count("timeout"), 1u);
    EXPECT_EQ(records.Failed("timeout"), 1u);
    EXPECT_EQ(t.client->GetRequestsOpenAtStop(), 1u);
    EXPECT_TRUE(t.seen.broken.empty());
    EXPECT_EQ(t.seen.done, (std::vector<std::string>{"1 3 2 ok"}));
    EXPECT_EQ(t.client->GetTransactionsStarted(), 2u);
    EXPECT_EQ(t.client->GetTransactionsDone(), 1u);
    EXPECT_EQ(t.client->GetTransactionsOpenAtStop(), 1u);
}

// ---- configuration and traces ---------------------------------------------------------------

// REQ: CS-08, CS-09
TEST_F(AdcHttpClientCookies, BadSettingsAreConfigErrors)
{
    Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
    EXPECT_TRUE(
        HasAll(ConfigErrorOf([&]() { c->SetAttribute("TransactionLength", UintegerValue(0)); }),
               {"TransactionLength", "0", "1"}));
    EXPECT_TRUE(
        HasAll(ConfigErrorOf([&]() { c->SetAttribute("OtherCookie", StringValue("a b=c")); }),
               {"OtherCookie", "'a b=c'", "cookie-name"}));
    EXPECT_TRUE(
        HasAll(ConfigErrorOf([&]() { c->SetAttribute("OtherCookie", StringValue("a=1; b=2")); }),
               {"OtherCookie", "a=1; b=2"}));
    EXPECT_EQ(ConfigErrorOf([&]() { c->SetAttribute("OtherCookie", StringValue("")); }), "");
    EXPECT_TRUE(
        HasAll(ConfigErrorOf([&]() { c->SetAttribute("CookiePolicy", StringValue("SOME")); }),
               {"CookiePolicy", "SOME", "NONE, KEEP, OTHER"}));

    lan = MakeLan(1, 1);
    server = Server(lan.servers.Get(0), "srv", 10);
    server->SetAttribute("AppVersion", StringValue(std::string("v\n1")));
    Simulator::Stop(Seconds(1));
    EXPECT_TRUE(
        HasAll(ConfigErrorOf([&]() { Simulator::Run(); }), {"AppVersion", "0x0a", "position 1"}));
}

namespace
{
void
CookieSetSink(uint64_t, const std::string&, const std::string&, Time)
{
}

void
BrokenSink(uint64_t, uint64_t, const std::string&, const std::string&)
{
}

void
DoneSink(uint64_t, uint32_t, uint32_t, bool)
{
}
} // namespace

// REQ: CORE-02 (each new trace cites its typedef; the signatures match the sinks)
TEST_F(AdcHttpClientCookies, NewTracesCiteTheirTypedefs)
{
    static_assert(std::is_same_v<decltype(&CookieSetSink), AdcHttpClient::CookieSetTracedCallback>);
    static_assert(
        std::is_same_v<decltype(&BrokenSink), AdcHttpClient::TransactionBrokenTracedCallback>);
    static_assert(
        std::is_same_v<decltype(&DoneSink), AdcHttpClient::TransactionDoneTracedCallback>);
    const TypeId tid = AdcHttpClient::GetTypeId();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"CookieSet", "ns3::AdcHttpClient::CookieSetTracedCallback"},
        {"TransactionBroken", "ns3::AdcHttpClient::TransactionBrokenTracedCallback"},
        {"TransactionDone", "ns3::AdcHttpClient::TransactionDoneTracedCallback"}};
    for (const auto& [source, typedefName] : cases)
    {
        TypeId::TraceSourceInformation info;
        ASSERT_TRUE(tid.LookupTraceSourceByName(source, &info)) << source;
        EXPECT_EQ(info.callback, typedefName);
    }
    Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
    EXPECT_TRUE(c->TraceConnectWithoutContext("CookieSet", MakeCallback(&CookieSetSink)));
    EXPECT_TRUE(c->TraceConnectWithoutContext("TransactionBroken", MakeCallback(&BrokenSink)));
    EXPECT_TRUE(c->TraceConnectWithoutContext("TransactionDone", MakeCallback(&DoneSink)));
}
