/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of SSL content switching: a CS vserver of service type SSL terminates TLS 1.2 on the
 * shared proxy engine and keeps SSLSESSION persistence across its LB vservers on the clients'
 * TLS session IDs, which resuming clients offer again on new connections.
 */

#include "cs-test-fixture.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::adctest;
using ns3::cstest::CsVirtualServerTest;

namespace
{

/// The CS test bed with CS-1 an SSL vserver on port 443 and TLS clients.
class CsSslTest : public CsVirtualServerTest
{
  protected:
    void SetUp() override
    {
        CsVirtualServerTest::SetUp();
        cs->SetAttribute("ServiceType", StringValue("SSL"));
        cs->SetAttribute("Port", UintegerValue(443));
        cs->GetEngine()->TraceConnectWithoutContext("TlsHandshake",
                                                    MakeCallback(&CsSslTest::OnHandshake, this));
    }

    void OnHandshake(const std::string& peer, const std::string& sessionId, bool resumed)
    {
        handshakes.push_back({peer, sessionId, resumed});
    }

    /// One "TlsHandshake" of the engine.
    struct Handshake
    {
        std::string peer;      //!< client ip:port
        std::string sessionId; //!< hex
        bool resumed;          //!< abbreviated
    };

    std::vector<Handshake> handshakes; //!< the engine's handshakes
};

} // namespace

// REQ: CS-04 CS-03 CS-10
TEST_F(CsSslTest, SslSessionPersistenceKeepsResumedSessionsOnTheOldVersion)
{
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    cs->SetAttribute("Timeout", UintegerValue(10));
    RequestRecords c1;
    RequestRecords c2;
    c1.Attach(TlsClient(0, Seconds(1), 2));   // 3 s, 5 s: the second resumes the first session
    c2.Attach(TlsClient(1, Seconds(3.5), 1)); // 5.5 s: a new client after the change
    BindV2At(Seconds(4));
    Run(Seconds(20));
    ASSERT_EQ(c1.Completed(), 2u);
    ASSERT_EQ(c2.Completed(), 1u);
    EXPECT_EQ(c1.done[1].server, "v1-a");
    EXPECT_EQ(c2.done[0].server, "v2-a");
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence SSLSESSION"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB2 policy pol-v2"}));
    // Three handshakes: C1 full, C1 resumed (same 32-byte session ID), C2 full (another ID).
    ASSERT_EQ(handshakes.size(), 3u);
    EXPECT_FALSE(handshakes[0].resumed);
    EXPECT_TRUE(handshakes[1].resumed);
    EXPECT_EQ(handshakes[1].sessionId, handshakes[0].sessionId);
    EXPECT_EQ(handshakes[0].sessionId.size(), 64u);
    EXPECT_NE(handshakes[2].sessionId, handshakes[0].sessionId);
    EXPECT_EQ(cs->GetEngine()->GetTlsResumed(), 1u);
    EXPECT_EQ(Count("create"), 2u);
    EXPECT_EQ(Count("hit"), 1u);
}

// REQ: CS-04
TEST_F(CsSslTest, AClientThatDoesNotResumeStartsANewSessionAndFollowsThePolicy)
{
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    RequestRecords rec;
    rec.Attach(TlsClient(0, Seconds(1), 2, false));
    BindV2At(Seconds(4));
    Run(Seconds(20));
    ASSERT_EQ(rec.Completed(), 2u);
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{"LB1 default", "LB2 policy pol-v2"}));
    ASSERT_EQ(handshakes.size(), 2u);
    EXPECT_FALSE(handshakes[1].resumed);
    EXPECT_NE(handshakes[1].sessionId, handshakes[0].sessionId);
}

// REQ: CS-04
TEST_F(CsSslTest, ASessionPastTheSessionTimeoutIsNotResumed)
{
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    cs->SetAttribute("Timeout", UintegerValue(30));
    cs->GetEngine()->SetAttribute("TlsSessionTimeout", TimeValue(Seconds(60)));
    Ptr<AdcHttpClient> cli = TlsClient(0, Seconds(1), 0);
    cli->SetAttribute("InterRequestTime",
                      StringValue("ns3::ConstantRandomVariable[Constant=1000]"));
    RequestRecords rec;
    rec.Attach(cli);
    Simulator::Schedule(Seconds(2), [cli]() { cli->IssueRequest("/a"); });
    Simulator::Schedule(Seconds(30), [cli]() { cli->IssueRequest("/b"); });  // resumes
    Simulator::Schedule(Seconds(100), [cli]() { cli->IssueRequest("/c"); }); // too late
    Run(Seconds(110));
    ASSERT_EQ(rec.Completed(), 3u);
    ASSERT_EQ(handshakes.size(), 3u);
    EXPECT_FALSE(handshakes[0].resumed);
    EXPECT_TRUE(handshakes[1].resumed);
    EXPECT_FALSE(handshakes[2].resumed);
}

// REQ: CS-07
TEST_F(CsSslTest, CookieInsertAndSslSessionAreAllowedOnSslButNotOnHttp)
{
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    EXPECT_EQ(ConfigErrorOf([this]() { cs->CheckConfig(); }), "");
    cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    EXPECT_EQ(ConfigErrorOf([this]() { cs->CheckConfig(); }), "");
    cs->SetAttribute("ServiceType", StringValue("HTTP"));
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    EXPECT_NE(ConfigErrorOf([this]() { cs->CheckConfig(); }), "");
    // RTSP is a NetScaler CS type this model has no datapath for.
    cs->SetAttribute("ServiceType", StringValue("RTSP"));
    cs->SetAttribute("PersistenceType", StringValue("NONE"));
    const std::string e = ConfigErrorOf([this]() { cs->CheckConfig(); });
    EXPECT_TRUE(HasAll(e, {"ServiceType", "RTSP", "HTTP, SSL, SSL_BRIDGE, SSL_TCP, TCP, UDP"})) << e;
}

// REQ: CS-04
TEST_F(CsSslTest, CookieInsertWorksInsideTls)
{
    cs->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    Ptr<AdcHttpClient> cli = TlsClient(0, Seconds(1), 2);
    cli->SetAttribute("CookiePolicy", StringValue("KEEP"));
    RequestRecords rec;
    rec.Attach(cli);
    BindV2At(Seconds(4));
    Run(Seconds(20));
    ASSERT_EQ(rec.Completed(), 2u);
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence COOKIEINSERT"}));
}
