/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the content-switching virtual server (CsVirtualServer): policies choosing LB
 * virtual servers, the seed's scenarios 1 and 2, persistence across LB virtual servers
 * (SOURCEIP, COOKIEINSERT with its cookie on the wire, backup SOURCEIP), its timeouts and its
 * capacity. Expected cookie names and values are built here from NetScaler's public formats,
 * not by the code under test.
 */

#include "cs-test-fixture.h"

#include "ns3/applications-module.h"

#include <cstdio>
#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::adctest;
using ns3::cstest::CsVirtualServerTest;
using ns3::cstest::NscValue;

using ns3::cstest::Get;

namespace
{

/// NetScaler's vid_str: the name with every letter shifted by one (catalyst256 decoder's
/// inverse), written out here for the names the tests use.
const std::string kCookieLb1 = "NSC_DT-1MC1"; // "CS-1" -> "DT-1", "LB1" -> "MC1"

} // namespace

// REQ: CS-01 CS-09
TEST_F(CsVirtualServerTest, ScenarioOneWithoutPersistenceBreaksTheSession)
{
    // C1 reaches LB1 (v1); LB2 (v2) is bound with a policy; C1's next request goes to LB2.
    Ptr<AdcHttpClient> c1 = Client(0, Seconds(1), 2); // requests at 1+2 = 3 s and 5 s
    RequestRecords rec;
    rec.Attach(c1);
    BindV2At(Seconds(4));
    Run(Seconds(20));
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{"LB1 default", "LB2 policy pol-v2"}));
    ASSERT_EQ(rec.done.size(), 2u);
    EXPECT_EQ(rec.Completed(), 2u);
    EXPECT_EQ(rec.done[0].server, "v1-a");
    EXPECT_EQ(rec.done[1].server, "v2-a"); // the stateful transaction moved versions
    EXPECT_EQ(cs->GetPersistenceHits(), 0u);
    EXPECT_TRUE(events.empty());
}

// REQ: CS-03 CS-10 CS-04
TEST_F(CsVirtualServerTest, ScenarioTwoSourceIpKeepsOldSessionsAndSendsNewClientsToV2)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    cs->SetAttribute("Timeout", UintegerValue(60));
    Ptr<AdcHttpClient> c1 = Client(0, Seconds(1), 2);
    Ptr<AdcHttpClient> c2 = Client(1, Seconds(4), 1); // a new client after the change
    RequestRecords r1;
    RequestRecords r2;
    r1.Attach(c1);
    r2.Attach(c2);
    BindV2At(Seconds(4));
    Run(Seconds(20));
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence SOURCEIP"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB2 policy pol-v2"}));
    ASSERT_EQ(r1.Completed(), 2u);
    ASSERT_EQ(r2.Completed(), 1u);
    EXPECT_EQ(r1.done[1].server, "v1-a");
    EXPECT_EQ(r2.done[0].server, "v2-a");
    // Entries: C1 created then hit; C2 missed then created.
    EXPECT_EQ(Count("create"), 2u);
    EXPECT_EQ(Count("hit"), 1u);
    EXPECT_EQ(Count("miss"), 2u);
    EXPECT_EQ(cs->GetPersistenceTable()->GetSize(Simulator::Now()), 2u);
    EXPECT_EQ(lbs[0]->GetPersistenceHits(), 1u); // counted on the LB vserver that served it
}

namespace
{

} // namespace

// REQ: CS-04 CS-05 CS-03
TEST_F(CsVirtualServerTest, CookieInsertSetsNscCookieAndTheCookieKeepsTheOldVersion)
{
    cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    cs->SetAttribute("Timeout", UintegerValue(2));
    const std::string value = NscValue(lan.ServerIp(1), 80);
    RawPeer first; // no cookie: gets one
    RawPeer back;  // returns it after v2 went live
    RawPeer fresh; // a new client after v2 went live
    first.Start(lan.clients.Get(0), Vip(), Seconds(1), Get(""), Seconds(1));
    back.Start(lan.clients.Get(0), Vip(), Seconds(5), Get(kCookieLb1 + "=" + value), Seconds(5));
    fresh.Start(lan.clients.Get(1), Vip(), Seconds(5), Get(""), Seconds(5));
    BindV2At(Seconds(3));
    Run(Seconds(10));

    const std::vector<AdcHttpMessage> r1 = first.Responses();
    ASSERT_EQ(r1.size(), 1u);
    ASSERT_EQ(r1[0].GetStatus(), 200);
    const std::optional<std::string> setCookie = r1[0].GetHeader("Set-Cookie");
    ASSERT_TRUE(setCookie.has_value());
    // Version 0 in the appliance's captured spelling (";expires=Fri, 21-Jun-2013 12:46:20
    // GMT;path=/;httponly"): expires 2 minutes after the request (sent at 1 s after the
    // epoch 2026-01-01T00:00:00Z, a Thursday).
    EXPECT_EQ(setCookie->rfind(kCookieLb1 + "=" + value + ";", 0), 0u) << *setCookie;
    EXPECT_TRUE(Has(*setCookie, ";expires=Thu, 01-Jan-2026 00:02:0")) << *setCookie;
    EXPECT_TRUE(Has(*setCookie, "GMT;path=/;httponly")) << *setCookie;
    EXPECT_FALSE(Has(*setCookie, "Max-Age")) << *setCookie;

    const std::vector<AdcHttpMessage> r2 = back.Responses();
    ASSERT_EQ(r2.size(), 1u);
    EXPECT_EQ(r2[0].GetHeader("Server").value_or(""), "v1-a");
    // The session goes on, and its cookie with it: Citrix documents the timeout as "an
    // inactivity period for the session", so a returning request gets the same cookie with a
    // new expiry, 2 minutes after it (sent at 5 s).
    const std::vector<std::string> again = r2[0].GetHeaders("Set-Cookie");
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].rfind(kCookieLb1 + "=" + value + ";", 0), 0u) << again[0];
    EXPECT_TRUE(Has(again[0], ";expires=Thu, 01-Jan-2026 00:02:05 GMT;path=/")) << again[0];

    const std::vector<AdcHttpMessage> r3 = fresh.Responses();
    ASSERT_EQ(r3.size(), 1u);
    EXPECT_EQ(r3[0].GetHeader("Server").value_or(""), "v2-a");
    // Its cookie names LB2 ("LB2" -> "MC2") and v2's server.
    EXPECT_EQ(r3[0]
                  .GetHeader("Set-Cookie")
                  .value_or("")
                  .rfind("NSC_DT-1MC2=" + NscValue(lan.ServerIp(2), 80) + ";", 0),
              0u);
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence COOKIEINSERT"}));
    // COOKIEINSERT keeps no table on the appliance (CS-06: limited by memory only).
    EXPECT_EQ(cs->GetPersistenceTable()->GetSize(Simulator::Now()), 0u);
}

// REQ: CS-05
TEST_F(CsVirtualServerTest, CookieTimeoutZeroIsASessionCookieInBothVersions)
{
    for (uint8_t version : {0, 1})
    {
        SCOPED_TRACE(int(version));
        if (version == 1)
        {
            Simulator::Destroy();
            decisions.clear();
            events.clear();
            lbs.clear();
            SetUp();
        }
        cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
        cs->SetAttribute("Timeout", UintegerValue(0));
        cs->SetAttribute("CookieVersion", UintegerValue(version));
        RawPeer peer;
        peer.Start(lan.clients.Get(0), Vip(), Seconds(1), Get(""), Seconds(1));
        Run(Seconds(5));
        const std::vector<AdcHttpMessage> r = peer.Responses();
        ASSERT_EQ(r.size(), 1u);
        const std::string sc = r[0].GetHeader("Set-Cookie").value_or("");
        EXPECT_EQ(sc.rfind(kCookieLb1 + "=", 0), 0u) << sc;
        EXPECT_FALSE(Has(sc, "xpires")) << sc;
        EXPECT_FALSE(Has(sc, "Max-Age")) << sc;
    }
}

// REQ: CS-05
TEST_F(CsVirtualServerTest, CookieVersionOneCarriesMaxAgeFromTheTimeout)
{
    cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    cs->SetAttribute("Timeout", UintegerValue(3));
    cs->SetAttribute("CookieVersion", UintegerValue(1));
    RawPeer peer;
    peer.Start(lan.clients.Get(0), Vip(), Seconds(1), Get(""), Seconds(1));
    Run(Seconds(5));
    const std::vector<AdcHttpMessage> r = peer.Responses();
    ASSERT_EQ(r.size(), 1u);
    const std::string sc = r[0].GetHeader("Set-Cookie").value_or("");
    EXPECT_TRUE(Has(sc, "Max-Age=180")) << sc; // 3 minutes
    EXPECT_TRUE(Has(sc, "Version=1")) << sc;
    EXPECT_FALSE(Has(sc, "xpires")) << sc;
}

// REQ: CS-08
TEST_F(CsVirtualServerTest, BackupSourceIpOnlyForClientsThatReturnNoCookieAtAll)
{
    cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    cs->SetAttribute("Timeout", UintegerValue(10));
    cs->SetAttribute("PersistenceBackup", StringValue("SOURCEIP"));
    cs->SetAttribute("BackupPersistenceTimeout", UintegerValue(2));
    // Client 0 never returns cookies; client 1 returns only its own; client 2 returns NSC_.
    const std::string value = NscValue(lan.ServerIp(1), 80);
    std::vector<RawPeer> peers(7);
    peers[0].Start(lan.clients.Get(0), Vip(), Seconds(1), Get(""), Seconds(1));
    // Client 1's first request carries no cookie (a backup entry is made), its later one only
    // its own cookie: it is cookie-capable, so the backup entry must not be used.
    peers[1].Start(lan.clients.Get(1), Vip(), Seconds(1), Get(""), Seconds(1));
    peers[2].Start(lan.clients.Get(2), Vip(), Seconds(1), Get(""), Seconds(1));
    BindV2At(Seconds(3));
    peers[3].Start(lan.clients.Get(0), Vip(), Seconds(5), Get(""), Seconds(5));
    peers[4].Start(lan.clients.Get(1), Vip(), Seconds(5), Get("lang=en"), Seconds(5));
    peers[5].Start(lan.clients.Get(2),
                   Vip(),
                   Seconds(5),
                   Get("lang=en; " + kCookieLb1 + "=" + value),
                   Seconds(5));
    // The backup entry has its own timeout: 2 minutes after its last use it is gone.
    peers[6].Start(lan.clients.Get(0), Vip(), Seconds(5 + 121), Get(""), Seconds(5 + 121));
    Run(Seconds(140));
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default",
                                        "LB1 backup-persistence SOURCEIP",
                                        "LB2 policy pol-v2"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB1 default", "LB2 policy pol-v2"}));
    EXPECT_EQ(DecisionsOf(2),
              (std::vector<std::string>{"LB1 default", "LB1 persistence COOKIEINSERT"}));
    // Backup entries: made for new sessions without any cookie: client 0 twice (the second
    // after its first entry expired), clients 1 and 2 once.
    EXPECT_EQ(cs->GetBackupPersistenceTable()->GetInserts(), 4u);
    EXPECT_GE(Count("expire"), 1u);
    for (std::size_t i = 0; i < peers.size(); ++i)
    {
        EXPECT_EQ(peers[i].Responses().size(), 1u) << "peer " << i;
    }
}

// REQ: CS-06
TEST_F(CsVirtualServerTest, FullSourceIpTableLetsTheMethodDecideAndCountsTheOverflow)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    cs->SetAttribute("MaxPersistenceEntries", UintegerValue(2));
    std::vector<RequestRecords> rec(3);
    for (uint32_t c = 0; c < 3; ++c)
    {
        rec[c].Attach(Client(c, Seconds(1 + 0.1 * c), 1));
    }
    Run(Seconds(10));
    EXPECT_EQ(cs->GetPersistenceOverflows(), 1u);
    EXPECT_EQ(Count("overflow"), 1u);
    EXPECT_EQ(Count("create"), 2u);
    EXPECT_EQ(cs->GetPersistenceTable()->GetSize(Simulator::Now()), 2u);
    for (uint32_t c = 0; c < 3; ++c)
    {
        EXPECT_EQ(rec[c].Completed(), 1u) << "client " << c; // served all the same
    }
    EXPECT_EQ(DecisionsOf(2), (std::vector<std::string>{"LB1 default"}));
}

// REQ: CS-06 CS-04
TEST_F(CsVirtualServerTest, SourceIpEntryExpiresAfterItsTimeout)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    cs->SetAttribute("Timeout", UintegerValue(2));
    RawPeer a;
    RawPeer b;
    a.Start(lan.clients.Get(0), Vip(), Seconds(1), Get(""), Seconds(1));
    BindV2At(Seconds(3));
    b.Start(lan.clients.Get(0), Vip(), Seconds(1 + 125), Get(""), Seconds(1 + 125));
    Run(Seconds(140));
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{"LB1 default", "LB2 policy pol-v2"}));
    EXPECT_EQ(Count("expire"), 1u);
}

// REQ: CS-02
TEST_F(CsVirtualServerTest, RuleChangesAndUnbindingMoveNewRequests)
{
    // A canary at 0%, raised to 100% at 4 s, unbound at 8 s.
    BindV2At(Seconds(0.5), "SYS.RANDOM.MUL(100).LT(0)");
    Simulator::Schedule(Seconds(4), [this]() {
        cs->GetPolicies().at(0)->SetRule("SYS.RANDOM.MUL(100).LT(100)");
    });
    Simulator::Schedule(Seconds(8), [this]() { EXPECT_TRUE(cs->UnbindPolicy("pol-v2")); });
    Ptr<AdcHttpClient> c = Client(0, Seconds(1), 5); // 3, 5, 7, 9, 11 s
    RequestRecords rec;
    rec.Attach(c);
    Run(Seconds(20));
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default",
                                        "LB2 policy pol-v2",
                                        "LB2 policy pol-v2",
                                        "LB1 default",
                                        "LB1 default"}));
    EXPECT_EQ(rec.Completed(), 5u);
    EXPECT_FALSE(cs->UnbindPolicy("pol-v2"));
}

// REQ: CS-01
TEST_F(CsVirtualServerTest, PoliciesAreEvaluatedByPriorityAndMatchOnTheRequest)
{
    cs->BindPolicy(Policy("to-v2", "HTTP.REQ.URL.STARTSWITH(\"/obj\")", 20), lbs[1]);
    cs->BindPolicy(Policy("to-v1", "HTTP.REQ.HEADER(\"X-Canary\").EQ(\"no\")", 10), lbs[0]);
    EXPECT_NE(ConfigErrorOf([this]() { cs->BindPolicy(Policy("dup", "true", 10), lbs[1]); }), "");
    RawPeer plain;
    RawPeer optOut;
    plain.Start(lan.clients.Get(0), Vip(), Seconds(1), Get(""), Seconds(1));
    optOut.Start(lan.clients.Get(1),
                 Vip(),
                 Seconds(1),
                 "GET /obj/1 HTTP/1.1\r\nHost: a\r\nX-Canary: no\r\n\r\n",
                 Seconds(1));
    Run(Seconds(5));
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{"LB2 policy to-v2"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB1 policy to-v1"}));
    EXPECT_EQ(cs->GetRequestsTo("LB1"), 1u);
    EXPECT_EQ(cs->GetRequestsTo("LB2"), 1u);
}

// REQ: CS-07 CS-11
TEST_F(CsVirtualServerTest, PersistenceSettingsAreCheckedAsTheApplianceDoes)
{
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    const std::string e = ConfigErrorOf([this]() { cs->CheckConfig(); });
    EXPECT_TRUE(HasAll(e, {"CS-1", "SSLSESSION", "HTTP"})) << e;
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    cs->SetAttribute("PersistenceBackup", StringValue("SOURCEIP"));
    EXPECT_NE(ConfigErrorOf([this]() { cs->CheckConfig(); }), ""); // backup needs COOKIEINSERT
    cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    EXPECT_EQ(ConfigErrorOf([this]() { cs->CheckConfig(); }), "");
    cs->SetAttribute("Timeout", UintegerValue(1441));
    EXPECT_TRUE(Has(ConfigErrorOf([this]() { cs->CheckConfig(); }), "1441"));
}

// REQ: CS-01
TEST_F(CsVirtualServerTest, NoLbVserverUpIsAnswered503AndCounted)
{
    cs->SetDefaultLbVserver(nullptr);
    RawPeer peer;
    peer.Start(lan.clients.Get(0), Vip(), Seconds(1), Get(""), Seconds(1));
    Run(Seconds(5));
    const std::vector<AdcHttpMessage> r = peer.Responses();
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].GetStatus(), 503);
    EXPECT_EQ(cs->GetUnserved(), 1u);
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{" none"}));
}
