/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of SSL_TCP content switching: the CS vserver terminates TLS 1.2 on the shared TCP relay
 * (AdcTlsRelayCodec) and relays the clear bytes to plain TCP services; the LB vserver is chosen
 * once the handshake completed, so SSLSESSION persistence keys on the session the CS vserver
 * itself issued or resumed.
 */

#include "cs-test-fixture.h"

#include "ns3/adc-tls-record.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::adctest;
using ns3::cstest::CsVirtualServerTest;

namespace
{

/// The CS test bed with CS-1 an SSL_TCP vserver on port 443; the servers speak clear HTTP.
class CsSslTcpTest : public CsVirtualServerTest
{
  protected:
    void SetUp() override
    {
        CsVirtualServerTest::SetUp();
        cs->SetAttribute("ServiceType", StringValue("SSL_TCP"));
        cs->SetAttribute("Port", UintegerValue(443));
    }
};

} // namespace

// REQ: CS-04 CS-03 CS-10
TEST_F(CsSslTcpTest, TerminatesTlsAndKeepsResumedSessionsOnTheOldVersion)
{
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    cs->SetAttribute("Timeout", UintegerValue(10));
    RequestRecords c1;
    RequestRecords c2;
    Ptr<AdcHttpClient> first = TlsClient(0, Seconds(1), 2); // 3 s, then 5 s resuming
    c1.Attach(first);
    Ptr<AdcHttpClient> second = TlsClient(1, Seconds(3.5), 1); // 5.5 s: a new session
    c2.Attach(second);
    BindV2At(Seconds(4), "SYS.RANDOM.MUL(100).LT(100)"); // an L4 rule: SSL_TCP has no HTTP
    Run(Seconds(20));
    ASSERT_EQ(c1.Completed(), 2u);
    ASSERT_EQ(c2.Completed(), 1u);
    EXPECT_EQ(c1.done[1].server, "v1-a");
    EXPECT_EQ(c2.done[0].server, "v2-a");
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence SSLSESSION"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB2 policy pol-v2"}));
    // The CS vserver resumed C1's session itself (the servers speak no TLS at all); the
    // proxy engine took no part.
    EXPECT_EQ(first->GetTlsHandshakes(), 2u);
    EXPECT_EQ(first->GetTlsResumed(), 1u);
    EXPECT_EQ(second->GetTlsResumed(), 0u);
    EXPECT_EQ(Count("create"), 2u); // C1's and C2's new sessions, at the choice
    EXPECT_EQ(Count("hit"), 1u);
    EXPECT_EQ(cs->GetEngine()->GetTlsHandshakes(), 0u);
    EXPECT_EQ(cs->GetRelay()->GetCompleted(), 3u);
    EXPECT_EQ(cs->GetRelay()->GetFailed(), 0u);
}

// REQ: CS-04
TEST_F(CsSslTcpTest, AnExpiredSessionIsNotResumedAndIsBalancedAnew)
{
    // The session cache keeps an ID for the engine's TlsSessionTimeout (NetScaler's
    // -sessTimeout): 1 s here, so C1's second connection (5 s) 2 s after its first gets a new
    // session, whose ID has no persistence entry.
    cs->GetEngine()->SetAttribute("TlsSessionTimeout", TimeValue(Seconds(1)));
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    cs->SetAttribute("Timeout", UintegerValue(10));
    RequestRecords c1;
    Ptr<AdcHttpClient> first = TlsClient(0, Seconds(1), 2);
    c1.Attach(first);
    BindV2At(Seconds(4), "SYS.RANDOM.MUL(100).LT(100)");
    Run(Seconds(20));
    ASSERT_EQ(c1.Completed(), 2u);
    EXPECT_EQ(first->GetTlsResumed(), 0u);
    EXPECT_EQ(c1.done[1].server, "v2-a");
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{"LB1 default", "LB2 policy pol-v2"}));
}

// REQ: CS-04
TEST_F(CsSslTcpTest, SourceIpKeepsAClientsNewSessionsOnItsVersion)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    Ptr<AdcHttpClient> cli = TlsClient(0, Seconds(1), 2, false); // a new session each time
    RequestRecords rec;
    rec.Attach(cli);
    BindV2At(Seconds(4), "SYS.RANDOM.MUL(100).LT(100)");
    Run(Seconds(20));
    ASSERT_EQ(rec.Completed(), 2u);
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence SOURCEIP"}));
    EXPECT_EQ(cli->GetTlsHandshakes(), 2u);
    EXPECT_EQ(cli->GetTlsResumed(), 0u);
}

// REQ: CS-01
TEST_F(CsSslTcpTest, AClientThatSpeaksNoTlsGetsAnAlertAndIsCountedUnserved)
{
    // RFC 5246 section 6: a record of an unknown content type ('G' = 71 here) is answered by a
    // fatal unexpected_message alert: record header 21 (alert), version 3.3, length 2, then
    // level 2 (fatal), description 10.
    RawPeer peer;
    peer.Start(lan.clients.Get(0),
               InetSocketAddress(lan.ServerIp(0), 443),
               Seconds(1),
               "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
               Seconds(1));
    Run(Seconds(5));
    const std::string alert{'\x15', '\x03', '\x03', '\x00', '\x02', '\x02', '\x0a'};
    EXPECT_EQ(peer.rx, alert);
    EXPECT_TRUE(peer.closed);
    EXPECT_EQ(cs->GetUnserved(), 1u);
    EXPECT_EQ(cs->GetRequests(), 0u);
    EXPECT_EQ(cs->GetRelay()->GetFailed(), 1u);
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{" none"}));
}
