/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of UDP content switching: the CS vserver relays datagrams per client session on the
 * shared AdcUdpRelay and chooses a session's LB vserver at its first datagram (SOURCEIP, then
 * the policies on the client's address, then the default).
 */

#include "cs-test-fixture.h"

#include "ns3/udp-echo-client.h"
#include "ns3/udp-echo-helper.h"

#include <gtest/gtest.h>
#include <map>

using namespace ns3;
using namespace ns3::adctest;
using ns3::cstest::CsVirtualServerTest;

namespace
{

/// The echo port of the UDP services.
constexpr uint16_t kEchoPort = 7;

/// The CS test bed with CS-1 a UDP vserver on port 7, in front of UDP echo services: LB-U1 (the
/// default, server 1) and LB-U2 (server 2).
class CsUdpTest : public CsVirtualServerTest
{
  protected:
    void SetUp() override
    {
        CsVirtualServerTest::SetUp();
        cs->SetAttribute("ServiceType", StringValue("UDP"));
        cs->SetAttribute("Port", UintegerValue(kEchoPort));
        for (uint32_t v = 1; v <= 2; ++v)
        {
            UdpEchoServerHelper echo(kEchoPort);
            ApplicationContainer app = echo.Install(lan.servers.Get(v));
            app.Start(Seconds(0));
            app.Get(0)->TraceConnectWithoutContext(
                "RxWithAddresses",
                MakeBoundCallback(&CsUdpTest::OnServerRx, &serverSources[v]));
            Ptr<AdcService> svc = CreateObject<AdcService>();
            svc->Configure("u" + std::to_string(v), lan.ServerIp(v), "UDP", kEchoPort);
            Ptr<AdcVirtualServer> lb = CreateObject<AdcVirtualServer>();
            lb->Configure("LB-U" + std::to_string(v), "UDP", AdcIpAddress(), 0);
            lb->SetLbMethod("ROUNDROBIN");
            lb->BindService(svc);
            udpLbs.push_back(lb);
        }
        cs->SetDefaultLbVserver(udpLbs[0]);
    }

    /// A server's echo server received a datagram from \p from.
    static void OnServerRx(std::vector<Ipv4Address>* into,
                           Ptr<const Packet> /* p */,
                           const Address& from,
                           const Address& /* local */)
    {
        into->push_back(InetSocketAddress::ConvertFrom(from).GetIpv4());
    }

    /// \param c a client \param start first datagram \param n datagrams \param gap between them
    /// \return its echo client to the VIP, whose "RxWithAddresses" fills replies[c]
    Ptr<UdpEchoClient> EchoClient(uint32_t c, Time start, uint32_t n, Time gap)
    {
        UdpEchoClientHelper helper(InetSocketAddress(lan.ServerIp(0), kEchoPort));
        helper.SetAttribute("MaxPackets", UintegerValue(n));
        helper.SetAttribute("Interval", TimeValue(gap));
        helper.SetAttribute("PacketSize", UintegerValue(100));
        ApplicationContainer app = helper.Install(lan.clients.Get(c));
        app.Start(start);
        Ptr<UdpEchoClient> cli = DynamicCast<UdpEchoClient>(app.Get(0));
        cli->TraceConnectWithoutContext("RxWithAddresses",
                                        MakeBoundCallback(&CsUdpTest::OnClientRx, &replies[c]));
        return cli;
    }

    /// A client got a reply from \p from.
    static void OnClientRx(std::vector<Address>* into,
                           Ptr<const Packet> /* p */,
                           const Address& from,
                           const Address& /* local */)
    {
        into->push_back(from);
    }

    /// \param v 1 or 2 \return datagrams that server's echo server received
    uint64_t ServerReceived(uint32_t v) const
    {
        const auto it = serverSources.find(v);
        return it == serverSources.end() ? 0 : it->second.size();
    }

    std::vector<Ptr<AdcVirtualServer>> udpLbs;                  //!< LB-U1, LB-U2
    std::map<uint32_t, std::vector<Ipv4Address>> serverSources; //!< per server: sources seen
    std::map<uint32_t, std::vector<Address>> replies; //!< replies per client, their sources
};

} // namespace

// REQ: CS-01 CS-07
TEST_F(CsUdpTest, SessionsAreSwitchedByClientAddressAndRepliesComeFromTheVip)
{
    std::ostringstream rule;
    rule << "CLIENT.IP.SRC.EQ(" << lan.ClientIp(1) << ")";
    cs->BindPolicy(Policy("by-ip", rule.str(), 10), udpLbs[1]);
    EchoClient(0, Seconds(1), 3, Seconds(1));
    EchoClient(1, Seconds(1.5), 3, Seconds(1));
    Run(Seconds(10));
    // Every datagram went to its client's version and came back, from the VIP and port the
    // client sent to; the servers saw the appliance, never a client.
    EXPECT_EQ(ServerReceived(1), 3u);
    EXPECT_EQ(ServerReceived(2), 3u);
    for (uint32_t c = 0; c < 2; ++c)
    {
        ASSERT_EQ(replies[c].size(), 3u) << c;
        for (const Address& from : replies[c])
        {
            EXPECT_EQ(InetSocketAddress::ConvertFrom(from).GetIpv4(), lan.ServerIp(0));
            EXPECT_EQ(InetSocketAddress::ConvertFrom(from).GetPort(), kEchoPort);
        }
    }
    for (uint32_t v = 1; v <= 2; ++v)
    {
        for (const Ipv4Address& a : serverSources[v])
        {
            EXPECT_EQ(a, lan.ServerIp(0));
        }
    }
    // One decision per session (its first datagram), not per datagram.
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{"LB-U1 default"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB-U2 policy by-ip"}));
    EXPECT_EQ(cs->GetRequests(), 2u);
    EXPECT_EQ(cs->GetUdpRelay()->GetSessions(), 2u);
    EXPECT_EQ(cs->GetUdpRelay()->GetDatagramsToServer(), 6u);
    EXPECT_EQ(cs->GetUdpRelay()->GetDatagramsToClient(), 6u);
}

// REQ: CS-03 CS-04 CS-10
TEST_F(CsUdpTest, SourceIpKeepsAClientsNewSessionOnTheOldVersion)
{
    cs->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    // Sessions end 1 s after their last datagram, so each datagram 3 s apart opens one.
    Simulator::Schedule(Seconds(0.5), [this]() {
        cs->GetUdpRelay()->SetAttribute("IdleTimeout", TimeValue(Seconds(1)));
    });
    EchoClient(0, Seconds(1), 2, Seconds(3)); // 1 s (before v2) and 4 s (after)
    EchoClient(1, Seconds(4), 1, Seconds(1)); // 4 s: a new client
    Simulator::Schedule(Seconds(3), [this]() {
        cs->BindPolicy(Policy("pol-v2", "CLIENT.IP.SRC.IN_SUBNET(0.0.0.0/0)", 10), udpLbs[1]);
    });
    Run(Seconds(10));
    ASSERT_EQ(replies[0].size(), 2u);
    ASSERT_EQ(replies[1].size(), 1u);
    EXPECT_EQ(DecisionsOf(0),
              (std::vector<std::string>{"LB-U1 default", "LB-U1 persistence SOURCEIP"}));
    EXPECT_EQ(DecisionsOf(1), (std::vector<std::string>{"LB-U2 policy pol-v2"}));
    EXPECT_EQ(ServerReceived(1), 2u);
    EXPECT_EQ(ServerReceived(2), 1u);
    EXPECT_EQ(cs->GetUdpRelay()->GetSessions(), 3u);
    EXPECT_EQ(cs->GetUdpRelay()->GetIdleSessions(), 3u);
}

// REQ: CS-01
TEST_F(CsUdpTest, WithNoLbVserverUpTheDatagramIsDroppedAndCounted)
{
    cs->SetDefaultLbVserver(nullptr);
    EchoClient(0, Seconds(1), 2, Seconds(1));
    Run(Seconds(5));
    EXPECT_TRUE(replies[0].empty());
    EXPECT_EQ(cs->GetUnserved(), 2u); // each datagram asked, each refused
    EXPECT_EQ(cs->GetUdpRelay()->GetDropped(), 2u);
    EXPECT_EQ(cs->GetUdpRelay()->GetSessions(), 0u);
    EXPECT_EQ(DecisionsOf(0), (std::vector<std::string>{" none", " none"}));
}
