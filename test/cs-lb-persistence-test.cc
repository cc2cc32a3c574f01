/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Content switching (issue 27 items 4, 5, 8, 10): the LB vservers' own persistence behind a
 * CS vserver, persistence changed while running, the cookie as the appliance writes it, and
 * show/clear lb persistentSessions and show cs vserver.
 */

#include "cs-test-fixture.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-http-cookie.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/cs-helper.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::adctest;
using ns3::cstest::CsVirtualServerTest;
using ns3::cstest::NscValue;

using ns3::cstest::Get;

namespace
{

/// The fixture with a second v1 service "v1-b" (servers[1], port 8080) on LB1 (round robin).
class CsLbPersistenceTest : public CsVirtualServerTest
{
  protected:
    void SetUp() override
    {
        CsVirtualServerTest::SetUp();
        Ptr<AdcHttpServer> srv = CreateObject<AdcHttpServer>();
        srv->SetAttribute("ServerName", StringValue("v1-b"));
        srv->SetAttribute("Port", UintegerValue(8080));
        lan.servers.Get(1)->AddApplication(srv);
        Ptr<AdcService> v1b = CreateObject<AdcService>();
        v1b->Configure("v1-b", lan.ServerIp(1), "HTTP", 8080);
        lbs[0]->BindService(v1b);
    }

    /// One request of client \p c at \p at with \p cookie; \return its peer
    std::shared_ptr<RawPeer> Request(uint32_t c, Time at, const std::string& cookie = "")
    {
        auto peer = std::make_shared<RawPeer>();
        peer->Start(lan.clients.Get(c), Vip(), at, Get(cookie), Seconds(1));
        peers.push_back(peer);
        return peer;
    }

    /// \return the server that answered \p peer's one response
    static std::string Server(const std::shared_ptr<RawPeer>& peer)
    {
        const std::vector<AdcHttpMessage> r = peer->Responses();
        return r.size() == 1 ? r[0].GetHeader("Server").value_or("?") : "none";
    }

    std::vector<std::shared_ptr<RawPeer>> peers; //!< keeps the peers alive
};

} // namespace

// REQ: CS-04 CS-03
TEST_F(CsLbPersistenceTest, LbLevelCookieInsertBehindCsInsertsItsOwnCookieAndHonoursIt)
{
    // `add lb vserver LB1 HTTP -persistenceType COOKIEINSERT -timeout 2` behind CS-1 (no CS
    // persistence): LB1 inserts its own cookie, named NSC_ + the vid of "LB1" ("MC1", the
    // seed's letters shifted by one), valued with the service's IP and port (the public
    // decoder's encoding), and a request carrying it goes to that service.
    lbs[0]->SetPersistenceType("COOKIEINSERT");
    const std::string v1b = "NSC_MC1=" + NscValue(lan.ServerIp(1), 8080);
    auto first = Request(0, Seconds(1));
    std::vector<std::shared_ptr<RawPeer>> back;
    for (uint32_t i = 0; i < 3; ++i) // round robin alone would send one of them to v1-a
    {
        back.push_back(Request(0, Seconds(3 + i), v1b));
    }
    Run(Seconds(10));
    const std::vector<AdcHttpMessage> r = first->Responses();
    ASSERT_EQ(r.size(), 1u);
    const std::string server = Server(first);
    const uint16_t port = server == "v1-b" ? 8080 : 80;
    const std::string sc = r[0].GetHeader("Set-Cookie").value_or("");
    EXPECT_EQ(sc.rfind("NSC_MC1=" + NscValue(lan.ServerIp(1), port) + ";", 0), 0u) << sc;
    for (const auto& p : back)
    {
        EXPECT_EQ(Server(p), "v1-b");
    }
    const std::vector<std::string> d = DecisionsOf(0);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[1], "LB1 default, lb-persistence COOKIEINSERT");
}

// REQ: CS-03
TEST_F(CsLbPersistenceTest, LbLevelSourceIpBehindCsIsHonoured)
{
    lbs[0]->SetPersistenceType("SOURCEIP");
    std::vector<std::shared_ptr<RawPeer>> c0;
    for (uint32_t i = 0; i < 4; ++i)
    {
        c0.push_back(Request(0, Seconds(1 + i)));
    }
    auto c1 = Request(1, Seconds(6));
    Run(Seconds(10));
    // Round robin would alternate; LB1's own SOURCEIP keeps client 0 on its first service.
    for (const auto& p : c0)
    {
        EXPECT_EQ(Server(p), Server(c0[0]));
    }
    EXPECT_NE(Server(c1), Server(c0[0])); // the next new client: round robin's next
}

// REQ: CS-11 CS-10
TEST_F(CsLbPersistenceTest, SetCsVserverPersistenceDuringTheRunApplies)
{
    // Without persistence at the start; `set cs vserver CS-1 -persistenceType SOURCEIP` at
    // 2 s; LB2 bound at 4 s: the client that began at 3 s stays on LB1 (seed scenario 2).
    Simulator::Schedule(Seconds(2), [this]() { cs->SetPersistence("SOURCEIP", 2, "NONE", 2); });
    BindV2At(Seconds(4));
    auto before = Request(0, Seconds(3));
    auto after = Request(0, Seconds(5));
    auto fresh = Request(1, Seconds(5));
    Run(Seconds(10));
    EXPECT_EQ(Server(after), Server(before));
    EXPECT_EQ(Server(fresh), "v2-a");
    EXPECT_EQ(DecisionsOf(0).at(1), "LB1 persistence SOURCEIP");
}

// REQ: CS-11 CS-05
TEST_F(CsLbPersistenceTest, SetCsVserverTimeoutDuringTheRunRetimesKeptEntries)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    cs->SetAttribute("Timeout", UintegerValue(2));
    // Entry at 1 s (2 min); -timeout 5 at 2 s; a hit at 3 s re-times it to 5 min, so it still
    // holds at 3 s + 4 min, after LB2 took every new client.
    Simulator::Schedule(Seconds(2), [this]() { cs->SetPersistence("SOURCEIP", 5, "NONE", 2); });
    BindV2At(Seconds(10));
    Request(0, Seconds(1));
    Request(0, Seconds(3));
    auto late = Request(0, Seconds(3 + 240));
    Run(Seconds(250));
    EXPECT_EQ(Server(late), "v1-a");
}

// REQ: CS-11
TEST_F(CsLbPersistenceTest, RunTimeSetRefusedAsTheAppliancesCheckAndNothingChanges)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    Simulator::Schedule(Seconds(1), [this]() {
        // CS-07/CS-08: a SOURCEIP backup only backs up COOKIEINSERT.
        EXPECT_THROW(cs->SetPersistence("SOURCEIP", 2, "SOURCEIP", 2), AdcConfigError);
        StringValue t;
        cs->GetAttribute("PersistenceBackup", t);
        EXPECT_EQ(t.Get(), "NONE");
    });
    Run(Seconds(2));
}

// REQ: CS-04 CS-05
TEST_F(CsLbPersistenceTest, CookieIsWrittenInTheAppliancesSpelling)
{
    // Captured NetScaler responses: "NSC_...=ffffffff...;expires=Fri, 21-Jun-2013 12:46:20
    // GMT;path=/;httponly". The request at 1 s after the epoch (2026-01-01, a Thursday) with
    // a 2-minute timeout expires at 00:02:01 (CTX108883: now + timeout).
    const std::string v1a = NscValue(lan.ServerIp(1), 80);
    EXPECT_EQ(CsVirtualServer::BuildNscSetCookie("NSC_DT-1MC1",
                                                 v1a,
                                                 0,
                                                 Minutes(2),
                                                 Seconds(1),
                                                 true,
                                                 AdcSetCookie::kDefaultEpoch),
              "NSC_DT-1MC1=" + v1a + ";expires=Thu, 01-Jan-2026 00:02:01 GMT;path=/;httponly");
    // -httpOnlyCookieFlag DISABLED: no httponly.
    EXPECT_EQ(CsVirtualServer::BuildNscSetCookie("NSC_DT-1MC1",
                                                 v1a,
                                                 0,
                                                 Minutes(2),
                                                 Seconds(1),
                                                 false,
                                                 AdcSetCookie::kDefaultEpoch),
              "NSC_DT-1MC1=" + v1a + ";expires=Thu, 01-Jan-2026 00:02:01 GMT;path=/");
    // Version 1: a relative time (CTX108883), read by a user agent as RFC 6265 says.
    const std::optional<AdcSetCookie::Parsed> p = AdcSetCookie::Parse(
        CsVirtualServer::BuildNscSetCookie("NSC_DT-1MC1", v1a, 1, Minutes(3), Seconds(1), true));
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->maxAge.value_or(-1), 180);
    EXPECT_FALSE(p->expires.has_value());
    EXPECT_TRUE(p->httpOnly);
    EXPECT_EQ(p->path, "/");
    // A user agent reads the version 0 date (RFC 6265 5.1.1 takes '-' as a delimiter).
    const std::optional<AdcSetCookie::Parsed> q =
        AdcSetCookie::Parse(CsVirtualServer::BuildNscSetCookie("NSC_DT-1MC1",
                                                               v1a,
                                                               0,
                                                               Minutes(2),
                                                               Seconds(1),
                                                               true,
                                                               AdcSetCookie::kDefaultEpoch));
    ASSERT_TRUE(q.has_value());
    EXPECT_EQ(q->expires.value_or(0), AdcSetCookie::kDefaultEpoch + 121);
    // The deletion of a stale cookie is in the past for a user agent.
    const std::optional<AdcSetCookie::Parsed> gone =
        AdcSetCookie::Parse(CsVirtualServer::BuildNscExpired("NSC_DT-1MC1", 0, true));
    ASSERT_TRUE(gone.has_value());
    EXPECT_EQ(gone->expires.value_or(-1), 0);
}

// REQ: CS-11 CS-05
TEST_F(CsLbPersistenceTest, SetLbParameterReachesTheCookieThroughTheHelper)
{
    AdcConfigReader reader(AdcNetScalerCsCommands::GetLanguage());
    std::ostringstream os;
    os << "add service v1-a " << lan.ServerIp(1) << " HTTP 80\n"
       << "add lb vserver LB1 HTTP\nbind lb vserver LB1 v1-a\n"
       << "add cs vserver CS-9 HTTP " << lan.ServerIp(0) << " 8000 -persistenceType COOKIEINSERT\n"
       << "bind cs vserver CS-9 -lbvserver LB1\n"
       << "set lb parameter -cookieVersion 1 -httpOnlyCookieFlag DISABLED\n";
    reader.ReadString(os.str(), "ns.conf");
    Ptr<CsVirtualServer> cs9 = CsHelper::Install(lan.servers.Get(0), reader.GetStore(), "CS-9");
    UintegerValue version;
    BooleanValue httpOnly;
    cs9->GetAttribute("CookieVersion", version);
    cs9->GetAttribute("HttpOnlyCookie", httpOnly);
    EXPECT_EQ(version.Get(), 1u);
    EXPECT_FALSE(httpOnly.Get());
    // Encrypted persistence cookies are refused, saying why, with file and line.
    try
    {
        reader.ReadString("set lb parameter -useEncryptedPersistenceCookie ENABLED", "x.conf");
        ADD_FAILURE() << "accepted";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("x.conf:1"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("-useEncryptedPersistenceCookie"), std::string::npos)
            << e.what();
    }
    // lbparameter: "a maximum of 31 characters".
    EXPECT_THROW(
        reader.ReadString("set lb parameter -cookiePassphrase " + std::string(32, 'p'), "y.conf"),
        AdcConfigError);
    reader.GetStore().Clear();
}

// REQ: CS-06 CS-11
TEST_F(CsLbPersistenceTest, ShowAndClearLbPersistentSessionsAtRunTime)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    cs->SetAttribute("Timeout", UintegerValue(2));
    Request(0, Seconds(1));
    std::string shown;
    std::string cleared;
    Simulator::Schedule(Seconds(2), [&]() {
        shown = CsHelper::Command({cs}, "show lb persistentSessions");
        CsHelper::Command({cs}, "clear lb persistentSessions CS-1");
        cleared = CsHelper::Command({cs}, "show lb persistentSessions CS-1");
    });
    BindV2At(Seconds(3));
    auto after = Request(0, Seconds(4));
    Run(Seconds(10));
    // The entry made at 1 s with a 2-minute timeout: client, service, owner, 119 s left.
    std::ostringstream client;
    client << lan.ClientIp(0);
    std::ostringstream service;
    service << lan.ServerIp(1);
    std::istringstream rows(shown);
    std::string header;
    std::string row;
    std::getline(rows, header);
    std::getline(rows, row);
    std::istringstream fields(row);
    std::vector<std::string> f;
    for (std::string w; fields >> w;)
    {
        f.push_back(w);
    }
    ASSERT_EQ(f.size(), 7u) << shown;
    EXPECT_EQ(f[0], "SOURCEIP");
    EXPECT_EQ(f[1], client.str());
    EXPECT_EQ(f[2], service.str());
    EXPECT_EQ(f[3], "80");
    EXPECT_EQ(f[4], "CS-1");
    EXPECT_EQ(f[5], "119");
    // Cleared: none left, and the client is balanced anew (to LB2, bound since).
    EXPECT_EQ(std::count(cleared.begin(), cleared.end(), '\n'), 2) << cleared;
    EXPECT_EQ(Server(after), "v2-a");
    // NetScaler's verb is clear; flush is refused naming it.
    EXPECT_THROW(CsHelper::Command({cs}, "flush lb persistentSessions"), AdcConfigError);
}

// REQ: CS-01
TEST_F(CsLbPersistenceTest, ShowCsVserverGivesStateAndHitsPerPolicy)
{
    Simulator::Schedule(Seconds(0), [this]() {
        cs->BindPolicy(Policy("pol-v2", "HTTP.REQ.URL.STARTSWITH(\"/v2\")", 10), lbs[1]);
    });
    Request(0, Seconds(1));
    Request(1, Seconds(2));
    std::string shown;
    Simulator::Schedule(Seconds(5), [&]() { shown = CsHelper::Command({cs}, "show cs vserver"); });
    Run(Seconds(6));
    // Two requests for /obj/1: pol-v2 matched none, the default took both.
    EXPECT_NE(shown.find("State: UP"), std::string::npos) << shown;
    EXPECT_NE(shown.find("Policy: pol-v2\tPriority: 10\tTarget: LB2\tHits: 0"), std::string::npos)
        << shown;
    EXPECT_NE(shown.find("Default Target LB: LB1\tHits: 2"), std::string::npos) << shown;
    EXPECT_THROW(CsHelper::Command({cs}, "show cs vserver CS-9"), AdcConfigError);
}
