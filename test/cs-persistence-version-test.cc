/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests that a content-switching persistence entry stands for the version (the LB vserver),
 * as the seed says: "LB1 is retrieved from the existing persistent session and the request is
 * forwarded to LB1". When the entry's service is disabled, DOWN or at MaxClient while LB1 is
 * UP, LB1 chooses another of its services and the client stays on v1, with the canary policy
 * sending every new client to LB2; only when LB1 itself is DOWN do the policies run again.
 * Also: the COOKIEINSERT timeout is an inactivity period (Citrix, "HTTP cookie persistence":
 * "an inactivity period for the session"), a fail-over leaves no stale NSC_ cookie that moves
 * the client back, and a name a cookie cannot carry is refused before any request.
 *
 * Expected cookie names and values are written here from NetScaler's public formats (the
 * catalyst256 decoder's inverse), dates from the model's epoch 2026-01-01T00:00:00Z.
 */

#include "cs-test-fixture.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-health-monitor.h"

#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::adctest;
using ns3::cstest::CsVirtualServerTest;
using ns3::cstest::NscValue;

namespace
{

const std::string kCookieLb1 = "NSC_DT-1MC1"; // "CS-1" -> "DT-1", "LB1" -> "MC1"
const std::string kCookieLb2 = "NSC_DT-1MC2"; // "LB2" -> "MC2"
/// RFC 6265 3.1 deletion: an Expires in the past (the Unix epoch) on the same name and path.
const std::string kDeleted = "expires=Thu, 01-Jan-1970 00:00:00 GMT"; // the appliance's spelling

/// \param cookie a Cookie header value ("" for none) \return a GET request
std::string
Get(const std::string& cookie)
{
    std::string r = "GET /obj/1 HTTP/1.1\r\nHost: www.example.com\r\n";
    if (!cookie.empty())
    {
        r += "Cookie: " + cookie + "\r\n";
    }
    return r + "\r\n";
}

/// \return the Set-Cookie fields of \p m
std::vector<std::string>
SetCookies(const AdcHttpMessage& m)
{
    return m.GetHeaders("Set-Cookie");
}

/// The canary at 100 %: cs-canary's rule with p = 100, every new client to LB2.
const std::string kCanary100 = "SYS.RANDOM.MUL(100).LT(100)";

/// The fixture, with a second v1 service "v1-b" (servers[1], port 8080) bound to LB1, the
/// persistence type Type() with a 60-minute timeout, and the canary at 100 % from 4 s.
class CsVersionFixture : public CsVirtualServerTest
{
  protected:
    /// \return the persistence type
    virtual std::string Type() const = 0;

    void SetUp() override
    {
        CsVirtualServerTest::SetUp();
        Ptr<AdcHttpServer> srv = CreateObject<AdcHttpServer>();
        srv->SetAttribute("ServerName", StringValue("v1-b"));
        srv->SetAttribute("Port", UintegerValue(8080));
        srv->SetAttribute("ObjectSize", UintegerValue(500));
        lan.servers.Get(1)->AddApplication(srv);
        v1b = CreateObject<AdcService>();
        v1b->Configure("v1-b", lan.ServerIp(1), "HTTP", 8080);
        lbs[0]->BindService(v1b);
        v1a = lbs[0]->FindBoundService(AdcIpAddress(lan.ServerIp(1)), 80);
        cs->SetAttribute("PersistenceType", StringValue(Type()));
        cs->SetAttribute("Timeout", UintegerValue(60));
        BindV2At(Seconds(4), kCanary100);
    }

    /// \return C1 (client 0): a browser keeping cookies, \p n requests 2 s apart from 1 s
    Ptr<AdcHttpClient> C1(uint32_t n)
    {
        Ptr<AdcHttpClient> c = Client(0, Seconds(1), n);
        c->SetAttribute("CookiePolicy", StringValue("KEEP"));
        c->TraceConnectWithoutContext("CookieSet", MakeCallback(&CsVersionFixture::OnCookie, this));
        return c;
    }

  public:
    /// The jar's "CookieSet".
    void OnCookie(uint64_t /* rid */,
                  const std::string& name,
                  const std::string& value,
                  Time expiry)
    {
        cookiesSet.push_back(name + "=" + value);
        expiries.push_back(expiry);
    }

    /// v1-a's "StateChange".
    void OnState(const std::string& /* name */, AdcService::State, AdcService::State to)
    {
        if (to == AdcService::State::DOWN && down == Time::Max())
        {
            down = Simulator::Now();
        }
    }

  protected:
    /// \return "persistence <TYPE>" for this run's type
    std::string Persistence() const
    {
        return "persistence " + Type();
    }

    Ptr<AdcService> v1a;                 //!< LB1's first service (servers[1]:80)
    Ptr<AdcService> v1b;                 //!< LB1's second service (servers[1]:8080)
    std::vector<std::string> cookiesSet; //!< C1's jar: every cookie stored
    std::vector<Time> expiries;          //!< their expiries
    Time down{Time::Max()};              //!< when v1-a first went DOWN
};

/// Under SOURCEIP and COOKIEINSERT.
class CsPersistenceVersionTest : public CsVersionFixture,
                                 public ::testing::WithParamInterface<std::string>
{
  protected:
    std::string Type() const override
    {
        return GetParam();
    }
};

/// Under COOKIEINSERT only.
class CsCookieVersionTest : public CsVersionFixture
{
  protected:
    std::string Type() const override
    {
        return "COOKIEINSERT";
    }
};

/// \param r a client's records \return the servers of its responses, in order
std::vector<std::string>
Servers(const RequestRecords& r)
{
    std::vector<std::string> out;
    for (const AdcRequestRecord& d : r.done)
    {
        out.push_back(d.server);
    }
    return out;
}

} // namespace

// REQ: CS-03 CS-04 (the entry stands for LB1: a disabled service is replaced within LB1)
TEST_P(CsPersistenceVersionTest, DisabledServiceIsReplacedWithinTheSameLbVserver)
{
    Ptr<AdcHttpClient> c1 = C1(3); // 3, 5, 7 s
    RequestRecords rec;
    rec.Attach(c1);
    Simulator::Schedule(Seconds(4), [this] { v1a->Disable(); });
    Run(Seconds(20));
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default",
                                        "LB1 " + Persistence() + ", service re-chosen",
                                        "LB1 " + Persistence()}));
    EXPECT_EQ(Servers(rec), (std::vector<std::string>{"v1-a", "v1-b", "v1-b"}));
    EXPECT_EQ(Count("update"), 1u);
    EXPECT_EQ(cs->GetRequestsTo("LB2"), 0u);
    if (Type() == "COOKIEINSERT")
    {
        // Issued for v1-a, re-issued naming v1-b, then refreshed (timeout 60 is not 0).
        const std::string a = kCookieLb1 + "=" + NscValue(lan.ServerIp(1), 80);
        const std::string b = kCookieLb1 + "=" + NscValue(lan.ServerIp(1), 8080);
        EXPECT_EQ(cookiesSet, (std::vector<std::string>{a, b, b}));
    }
    else
    {
        EXPECT_EQ(cs->GetPersistenceTable()->GetSize(Simulator::Now()), 1u);
    }
}

// REQ: CS-03 (a service a health monitor marks DOWN is replaced within LB1)
TEST_P(CsPersistenceVersionTest, ServiceDownByMonitorIsReplacedWithinTheSameLbVserver)
{
    // A TCP monitor on the CS node probing a closed port of v1-a's host marks v1-a DOWN.
    Ptr<AdcHealthMonitor> mon = CreateObject<AdcHealthMonitor>();
    mon->SetAttribute("Name", StringValue("tcp-81"));
    mon->SetAttribute("Type", StringValue("TCP"));
    mon->SetAttribute("Interval", StringValue("1s"));
    mon->SetAttribute("ResponseTimeout", StringValue("500ms"));
    mon->SetAttribute("Retries", UintegerValue(1));
    mon->SetAttribute("DestinationPort", UintegerValue(81));
    lan.servers.Get(0)->AddApplication(mon);
    mon->SetStartTime(Seconds(4));
    Simulator::Schedule(Seconds(3.5), [this, mon] { v1a->BindMonitor(mon); });
    v1a->TraceConnectWithoutContext("StateChange", MakeCallback(&CsVersionFixture::OnState, this));
    Ptr<AdcHttpClient> c1 = C1(5); // 3, 5, 7, 9, 11 s
    RequestRecords rec;
    rec.Attach(c1);
    Run(Seconds(20));
    ASSERT_LT(down, Seconds(9)); // the monitor's verdict came before the last two requests
    EXPECT_EQ(v1a->GetState(), AdcService::State::DOWN);
    const std::vector<std::string> d = DecisionsOf(0);
    ASSERT_EQ(d.size(), 5u);
    ASSERT_EQ(rec.done.size(), 5u);
    std::size_t rechosen = 0;
    for (std::size_t i = 0; i < d.size(); ++i)
    {
        EXPECT_EQ(d[i].substr(0, 4), "LB1 ") << i; // never LB2, though the canary is at 100 %
        rechosen += Has(d[i], "service re-chosen") ? 1 : 0;
        const Time at = decisions[i].when;
        EXPECT_EQ(rec.done[i].server, at < down ? "v1-a" : "v1-b") << i;
    }
    EXPECT_EQ(rechosen, 1u);
}

// REQ: CS-03 (a service at MaxClient is replaced within LB1)
TEST_P(CsPersistenceVersionTest, ServiceAtMaxClientIsReplacedWithinTheSameLbVserver)
{
    v1a->SetAttribute("MaxClient", UintegerValue(1));
    Ptr<AdcHttpClient> c1 = C1(3);
    RequestRecords rec;
    rec.Attach(c1);
    // Another client's connection to v1-a stays open from 4 s: v1-a is full.
    Simulator::Schedule(Seconds(4), [this] { v1a->ConnectionOpened(); });
    Run(Seconds(20));
    EXPECT_FALSE(v1a->HasCapacity());
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default",
                                        "LB1 " + Persistence() + ", service re-chosen",
                                        "LB1 " + Persistence()}));
    EXPECT_EQ(Servers(rec), (std::vector<std::string>{"v1-a", "v1-b", "v1-b"}));
}

// REQ: CS-03 CS-02 (LB1 itself DOWN: the policies run again; after LB1's recovery the client
// stays where it was moved, and its stale LB1 cookie is deleted in the moving response)
TEST_P(CsPersistenceVersionTest, LbVserverDownGoesThroughThePoliciesAndTheMoveSticks)
{
    Ptr<AdcHttpClient> c1 = C1(4); // 3, 5, 7, 9 s
    RequestRecords rec;
    rec.Attach(c1);
    Simulator::Schedule(Seconds(4), [this] {
        v1a->Disable();
        v1b->Disable();
    });
    Simulator::Schedule(Seconds(6), [this] {
        v1a->Enable();
        v1b->Enable();
    });
    Run(Seconds(20));
    EXPECT_EQ(lbs[0]->GetState(), AdcVirtualServer::State::UP); // recovered
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default",
                                        "LB2 policy pol-v2",
                                        "LB2 " + Persistence(),
                                        "LB2 " + Persistence()}));
    EXPECT_EQ(Servers(rec), (std::vector<std::string>{"v1-a", "v2-a", "v2-a", "v2-a"}));
    if (Type() == "COOKIEINSERT")
    {
        // The jar stored LB1's cookie, then LB2's (refreshed twice); the deletion of LB1's
        // removed it, so no request carried two NSC_ cookies.
        const std::string v2 = kCookieLb2 + "=" + NscValue(lan.ServerIp(2), 80);
        EXPECT_EQ(cookiesSet,
                  (std::vector<std::string>{kCookieLb1 + "=" + NscValue(lan.ServerIp(1), 80),
                                            v2,
                                            v2,
                                            v2}));
        EXPECT_EQ(c1->GetCookieHeader(), v2);
    }
}

// REQ: CS-04 (a client that ignores the deletion: its newest NSC_ cookie wins, the other is
// deleted again)
TEST_F(CsCookieVersionTest, StaleCookieOfTheOldLbVserverCannotMoveTheClientBack)
{
    // RFC 6265 5.4 step 2: equal paths, oldest first: LB1's cookie (set first), then LB2's.
    const std::string v1 = kCookieLb1 + "=" + NscValue(lan.ServerIp(1), 80);
    const std::string v2 = kCookieLb2 + "=" + NscValue(lan.ServerIp(2), 80);
    RawPeer both;
    both.Start(lan.clients.Get(0), Vip(), Seconds(5), Get(v1 + "; " + v2), Seconds(5));
    Run(Seconds(10));
    const std::vector<AdcHttpMessage> r = both.Responses();
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].GetHeader("Server").value_or(""), "v2-a");
    const std::vector<std::string> sc = SetCookies(r[0]);
    ASSERT_EQ(sc.size(), 2u);
    EXPECT_EQ(sc[0].rfind(v2 + ";", 0), 0u) << sc[0]; // refreshed
    EXPECT_EQ(sc[1].rfind(kCookieLb1 + "=;", 0), 0u) << sc[1];
    EXPECT_TRUE(Has(sc[1], "path=/")) << sc[1];
    EXPECT_TRUE(Has(sc[1], kDeleted)) << sc[1];
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{"LB2 persistence COOKIEINSERT"}));
}

// REQ: CS-05 CS-03 (the cookie timeout is an inactivity period: an active session outlasts it)
TEST_F(CsCookieVersionTest, ActiveSessionKeepsItsCookieBeyondTheTimeout)
{
    cs->SetAttribute("Timeout", UintegerValue(1)); // 1 minute
    // One request every 40 s for over 5 minutes: 41, 81, ..., 361 s (9 requests, the first
    // InterRequestTime after the start at 1 s); never idle for the 60 s timeout. The canary
    // at 100 % goes live after the first request: any re-balanced request would go to LB2.
    Simulator::Schedule(Seconds(5), [this] { cs->UnbindPolicy("pol-v2"); });
    BindV2At(Seconds(42), kCanary100);
    Ptr<AdcHttpClient> c1 = C1(9);
    c1->SetAttribute("InterRequestTime", StringValue("ns3::ConstantRandomVariable[Constant=40]"));
    RequestRecords rec;
    rec.Attach(c1);
    Run(Seconds(400));
    ASSERT_EQ(rec.Completed(), 9u);
    const std::vector<std::string> d = DecisionsOf(0);
    ASSERT_EQ(d.size(), 9u);
    EXPECT_EQ(d[0], "LB1 default");
    for (std::size_t i = 1; i < d.size(); ++i)
    {
        EXPECT_EQ(d[i], "LB1 persistence COOKIEINSERT") << i; // none re-balanced to LB2
    }
    EXPECT_GT(decisions.back().when - decisions.front().when, Minutes(5));
    EXPECT_EQ(cs->GetRequestsTo("LB2"), 0u);
    // Every response carried the cookie with expiry = its time (whole seconds) + 60 s.
    const std::string v1 = kCookieLb1 + "=" + NscValue(lan.ServerIp(1), 80);
    EXPECT_EQ(cookiesSet, std::vector<std::string>(9, v1));
    ASSERT_EQ(expiries.size(), 9u);
    for (std::size_t i = 0; i < expiries.size(); ++i)
    {
        const double at = std::floor(decisions[i].when.GetSeconds());
        EXPECT_EQ(expiries[i], Seconds(at + 60)) << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Types,
                         CsPersistenceVersionTest,
                         ::testing::Values("SOURCEIP", "COOKIEINSERT"));

// REQ: CS-04 CS-11 (a name the NSC_ cookie cannot carry is refused before any request)
TEST_F(CsVirtualServerTest, CookieInsertRefusesNamesTheCookieCannotCarry)
{
    cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    cs->SetAttribute("Name", StringValue("cs@1"));
    try
    {
        cs->CheckConfig();
        ADD_FAILURE() << "accepted";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_TRUE(HasAll(e.what(),
                           {"CsVirtualServer 'cs@1'",
                            "COOKIEINSERT",
                            "'@' at position 2",
                            "letters, digits, '_', '-', '.', '#'"}))
            << e.what();
    }
    cs->SetAttribute("Name", StringValue("CS-1"));
    EXPECT_NO_THROW(cs->CheckConfig());
    // An LB vserver bound later, by policy or as the default.
    Ptr<AdcVirtualServer> bad = CreateObject<AdcVirtualServer>();
    bad->Configure("lb v3", "HTTP", AdcIpAddress(), 0);
    try
    {
        cs->BindPolicy(Policy("pol-v3", "HTTP.REQ.URL.STARTSWITH(\"/v3\")", 20), bad);
        ADD_FAILURE() << "accepted";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_TRUE(HasAll(e.what(), {"'lb v3'", "' ' at position 2", "allowed"})) << e.what();
    }
    EXPECT_TRUE(cs->GetPolicies().empty());
    EXPECT_THROW(cs->SetDefaultLbVserver(bad), AdcConfigError);
    EXPECT_EQ(cs->GetDefaultLbVserver(), lbs[0]);
    // Without COOKIEINSERT the same names are fine (no cookie is written).
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    EXPECT_NO_THROW(cs->BindPolicy(Policy("pol-v3", "HTTP.REQ.URL.STARTSWITH(\"/v3\")", 20), bad));
    cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    EXPECT_THROW(cs->CheckConfig(), AdcConfigError); // the bound one is checked at the start
}
