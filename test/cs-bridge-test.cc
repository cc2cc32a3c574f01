/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of SSL_BRIDGE content switching: TLS passes through the CS vserver (the shared TCP
 * relay) to servers that terminate it; the LB vserver is chosen per connection from the
 * ClientHello, and SSLSESSION persistence keys on the session IDs read from the hellos.
 */

#include "cs-test-fixture.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::adctest;
using ns3::cstest::CsVirtualServerTest;

namespace
{

/// The CS test bed with CS-1 an SSL_BRIDGE vserver on port 443 and HTTPS servers.
class CsBridgeTest : public CsVirtualServerTest
{
  protected:
    void SetUp() override
    {
        CsVirtualServerTest::SetUp();
        cs->SetAttribute("ServiceType", StringValue("SSL_BRIDGE"));
        cs->SetAttribute("Port", UintegerValue(443));
        for (uint32_t v = 1; v <= 2; ++v)
        {
            lan.servers.Get(v)->GetApplication(0)->SetAttribute("Tls", BooleanValue(true));
        }
    }
};

} // namespace

// REQ: CS-04 CS-03 CS-10
TEST_F(CsBridgeTest, SslSessionFromTheHellosKeepsResumedSessionsOnTheOldVersion)
{
    cs->SetAttribute("PersistenceType", StringValue("SSLSESSION"));
    cs->SetAttribute("Timeout", UintegerValue(10));
    RequestRecords c1;
    RequestRecords c2;
    Ptr<AdcHttpClient> first = TlsClient(0, Seconds(1), 2); // 3 s, then 5 s resuming
    c1.Attach(first);
    c2.Attach(TlsClient(1, Seconds(3.5), 1));            // 5.5 s: a new client
    BindV2At(Seconds(4), "SYS.RANDOM.MUL(100).LT(100)"); // an L4 rule: no HTTP on a bridge
    Run(Seconds(20));
    ASSERT_EQ(c1.Completed(), 2u);
    ASSERT_EQ(c2.Completed(), 1u);
    EXPECT_EQ(c1.done[1].server, "v1-a");
    EXPECT_EQ(c2.done[0].server, "v2-a");
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence SSLSESSION"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB2 policy pol-v2"}));
    // The server v1-a resumed the session the bridge kept C1 on; the appliance terminated
    // nothing: the client's handshakes were with the servers.
    EXPECT_EQ(first->GetTlsHandshakes(), 2u);
    EXPECT_EQ(first->GetTlsResumed(), 1u);
    EXPECT_EQ(Count("create"), 2u); // C1's and C2's sessions, from their ServerHellos
    EXPECT_EQ(Count("hit"), 1u);
    EXPECT_EQ(cs->GetEngine()->GetTlsHandshakes(), 0u);
    EXPECT_EQ(cs->GetRelay()->GetCompleted(), 3u);
}

// REQ: CS-01
TEST_F(CsBridgeTest, AConnectionThatIsNotTlsIsRefusedAndCounted)
{
    RawPeer peer;
    peer.Start(lan.clients.Get(0),
               InetSocketAddress(lan.ServerIp(0), 443),
               Seconds(1),
               "GET / HTTP/1.1\r\nHost: a\r\n\r\n" + std::string(20000, 'x'),
               Seconds(1));
    Run(Seconds(5));
    EXPECT_TRUE(peer.closed);
    EXPECT_TRUE(peer.rx.empty());
    EXPECT_EQ(cs->GetUnserved(), 1u);
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{" none"}));
}

// REQ: CS-04
TEST_F(CsBridgeTest, SourceIpOnTheBridgeKeepsAClientsNewSessionsOnItsVersion)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    Ptr<AdcHttpClient> cli = TlsClient(0, Seconds(1), 2);
    cli->SetAttribute("TlsResume", BooleanValue(false)); // a new session each time
    RequestRecords rec;
    rec.Attach(cli);
    BindV2At(Seconds(4), "SYS.RANDOM.MUL(100).LT(100)");
    Run(Seconds(20));
    ASSERT_EQ(rec.Completed(), 2u);
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence SOURCEIP"}));
    EXPECT_EQ(cli->GetTlsResumed(), 0u);
}

// REQ: CS-01
TEST_F(CsBridgeTest, HttpRulesSeeNoRequestOnABridgeAndClientIpRulesDo)
{
    // The bridge never decrypts: a URL rule cannot match, a client-address rule can.
    cs->BindPolicy(Policy("by-url", "HTTP.REQ.URL.STARTSWITH(\"/\")", 10), lbs[1]);
    std::ostringstream rule;
    rule << "CLIENT.IP.SRC.EQ(" << lan.ClientIp(1) << ")";
    cs->BindPolicy(Policy("by-ip", rule.str(), 20), lbs[1]);
    RequestRecords a;
    RequestRecords b;
    a.Attach(TlsClient(0, Seconds(1), 1));
    b.Attach(TlsClient(1, Seconds(1), 1));
    Run(Seconds(10));
    ASSERT_EQ(a.Completed(), 1u);
    ASSERT_EQ(b.Completed(), 1u);
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{"LB1 default"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB2 policy by-ip"}));
}

// REQ: CS-01 CS-04
TEST_F(CsVirtualServerTest, TcpVserverRelaysConnectionsChosenAtTheAcceptWithSourceIp)
{
    cs->SetAttribute("ServiceType", StringValue("TCP"));
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    // The HTTP clients speak plain HTTP through the TCP relay; the choice is per connection.
    Ptr<AdcHttpClient> c1 = Client(0, Seconds(1), 2);
    c1->SetAttribute("Persistent", BooleanValue(false));
    Ptr<AdcHttpClient> c2 = Client(1, Seconds(3.5), 1);
    c2->SetAttribute("Persistent", BooleanValue(false));
    RequestRecords r1;
    RequestRecords r2;
    r1.Attach(c1);
    r2.Attach(c2);
    BindV2At(Seconds(4), "SYS.RANDOM.MUL(100).LT(100)");
    Run(Seconds(20));
    ASSERT_EQ(r1.Completed(), 2u);
    ASSERT_EQ(r2.Completed(), 1u);
    EXPECT_EQ(r1.done[1].server, "v1-a");
    EXPECT_EQ(r2.done[0].server, "v2-a");
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB1 default", "LB1 persistence SOURCEIP"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB2 policy pol-v2"}));
    EXPECT_EQ(cs->GetRelay()->GetCompleted(), 3u);
}

// REQ: CS-07
TEST_F(CsVirtualServerTest, EveryDatapathTypeTakesExactlyThePersistenceTypesOfTheMatrix)
{
    // CS-07: SOURCEIP on HTTP, HTTPS (NetScaler's SSL), TCP, UDP, SSL_BRIDGE, SSL_TCP;
    // COOKIEINSERT on HTTP and HTTPS only; SSLSESSION on HTTPS, SSL_BRIDGE and SSL_TCP only.
    const std::map<std::string, std::set<std::string>> allowed = {
        {"HTTP", {"SOURCEIP", "COOKIEINSERT"}},
        {"SSL", {"SOURCEIP", "COOKIEINSERT", "SSLSESSION"}},
        {"SSL_BRIDGE", {"SOURCEIP", "SSLSESSION"}},
        {"SSL_TCP", {"SOURCEIP", "SSLSESSION"}},
        {"TCP", {"SOURCEIP"}},
        {"UDP", {"SOURCEIP"}},
    };
    for (const auto& [type, ok] : allowed)
    {
        cs->SetAttribute("ServiceType", StringValue(type));
        for (const char* persistence : {"NONE", "SOURCEIP", "COOKIEINSERT", "SSLSESSION"})
        {
            cs->SetAttribute("PersistenceType", StringValue(persistence));
            const std::string e = ConfigErrorOf([this]() { cs->CheckConfig(); });
            if (std::string(persistence) == "NONE" || ok.count(persistence) == 1)
            {
                EXPECT_EQ(e, "") << type << " " << persistence;
            }
            else
            {
                // The message names the persistence type and the service type (SSL as HTTPS).
                EXPECT_TRUE(HasAll(e, {persistence, type == "SSL" ? "HTTPS" : type}))
                    << type << " " << persistence << ": " << e;
            }
        }
    }
}
