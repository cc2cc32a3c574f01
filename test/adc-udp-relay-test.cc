/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcUdpRelay, the UDP relay of a UDP virtual server (NetScaler's LB and CS vservers of
 * type UDP): datagrams relayed both ways, replies from the virtual server's address, one server
 * per client session (chosen on its first datagram), refusal, the idle timeout, the session
 * limit, stopping, and configuration errors. Real simulations: a client node, the relay node
 * and two server nodes over point-to-point links.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-udp-relay.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const Ipv4Address kClient("10.1.1.1");
const Ipv4Address kRelayClientSide("10.1.1.2");
const Ipv4Address kRelayServer1Side("10.2.2.1");
const Ipv4Address kRelayServer2Side("10.3.3.1");
const Ipv4Address kServer1("10.2.2.2");
const Ipv4Address kServer2("10.3.3.2");
const uint16_t kVserverPort = 4000;
const uint16_t kServerPort = 7; // echo

/// Payload byte \p k of a datagram of \p size bytes: differs by size, so a swap shows.
uint8_t
PayloadByte(uint32_t k, uint32_t size)
{
    return static_cast<uint8_t>((k * 31U + size * 7U) & 0xff);
}

/// A datagram of \p size patterned bytes.
Ptr<Packet>
Datagram(uint32_t size)
{
    std::vector<uint8_t> buf(size);
    for (uint32_t k = 0; k < size; ++k)
    {
        buf[k] = PayloadByte(k, size);
    }
    return Create<Packet>(buf.data(), size);
}

/// \return true when \p p holds the pattern of Datagram(p->GetSize())
bool
Intact(Ptr<const Packet> p)
{
    std::vector<uint8_t> buf(p->GetSize());
    p->CopyData(buf.data(), p->GetSize());
    for (uint32_t k = 0; k < buf.size(); ++k)
    {
        if (buf[k] != PayloadByte(k, p->GetSize()))
        {
            return false;
        }
    }
    return true;
}

/// \return "a.b.c.d:port"
std::string
Ep(const InetSocketAddress& a)
{
    std::ostringstream os;
    os << a.GetIpv4() << ":" << a.GetPort();
    return os.str();
}

/// A datagram received by a test endpoint.
struct Rx
{
    Time at;
    InetSocketAddress from{Ipv4Address::GetAny(), 0};
    uint32_t size{0};
    bool intact{false};
};

/// A UDP endpoint: records what it receives and, as a server, echoes it to the sender.
struct Endpoint
{
    Ptr<Socket> socket;
    bool echo{false};
    std::vector<Rx> rx;

    void Start(Ptr<Node> node, uint16_t port, bool echoBack)
    {
        echo = echoBack;
        socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        socket->SetRecvCallback(MakeCallback(&Endpoint::Read, this));
    }

    void Read(Ptr<Socket> s)
    {
        Address from;
        while (Ptr<Packet> p = s->RecvFrom(from))
        {
            rx.push_back(
                {Simulator::Now(), InetSocketAddress::ConvertFrom(from), p->GetSize(), Intact(p)});
            if (echo)
            {
                s->SendTo(Datagram(p->GetSize()), 0, from);
            }
        }
    }

    /// Send a datagram of \p size to the virtual server at \p at.
    void SendAt(Time at, uint32_t size)
    {
        Ptr<Socket> s = socket;
        Simulator::Schedule(at, [s, size]() {
            s->SendTo(Datagram(size), 0, InetSocketAddress(kRelayClientSide, kVserverPort));
        });
    }
};

struct SessionRecord
{
    Time at;
    InetSocketAddress client{Ipv4Address::GetAny(), 0};
    InetSocketAddress server{Ipv4Address::GetAny(), 0};
};

struct DroppedRecord
{
    Time at;
    InetSocketAddress client{Ipv4Address::GetAny(), 0};
    std::string reason;
};

struct ClosedRecord
{
    Time at;
    InetSocketAddress client{Ipv4Address::GetAny(), 0};
    InetSocketAddress server{Ipv4Address::GetAny(), 0};
    uint64_t toServer{0};
    uint64_t toClient{0};
    std::string outcome;
};

struct RelayedRecord
{
    Time at;
    bool toServer{false};
    uint32_t bytes{0};
};

/// One question asked of the destination chooser.
struct Asked
{
    uint64_t session;
    InetSocketAddress client{Ipv4Address::GetAny(), 0};
    uint32_t size;
};

/// C (10.1.1.1) -- R (relay; 10.1.1.2, 10.2.2.1, 10.3.3.1) -- S1 (10.2.2.2), S2 (10.3.3.2).
class AdcUdpRelayTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Nodes, links, routes, echo servers on S1 and S2, the relay (not yet configured) on R.
    void Build(bool echo = true)
    {
        clientNode = CreateObject<Node>();
        relayNode = CreateObject<Node>();
        server1Node = CreateObject<Node>();
        server2Node = CreateObject<Node>();
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer dc = p2p.Install(clientNode, relayNode);
        NetDeviceContainer d1 = p2p.Install(relayNode, server1Node);
        NetDeviceContainer d2 = p2p.Install(relayNode, server2Node);
        InternetStackHelper stack;
        stack.SetIpv6StackInstall(false);
        stack.Install(NodeContainer(clientNode, relayNode, server1Node, server2Node));
        Ipv4AddressHelper addr;
        addr.SetBase("10.1.1.0", "255.255.255.0");
        addr.Assign(dc);
        addr.SetBase("10.2.2.0", "255.255.255.0");
        addr.Assign(d1);
        addr.SetBase("10.3.3.0", "255.255.255.0");
        addr.Assign(d2);
        Ipv4StaticRoutingHelper sr;
        sr.GetStaticRouting(clientNode->GetObject<Ipv4>())->SetDefaultRoute(kRelayClientSide, 1);
        sr.GetStaticRouting(server1Node->GetObject<Ipv4>())->SetDefaultRoute(kRelayServer1Side, 1);
        sr.GetStaticRouting(server2Node->GetObject<Ipv4>())->SetDefaultRoute(kRelayServer2Side, 1);

        server1.Start(server1Node, kServerPort, echo);
        server2.Start(server2Node, kServerPort, echo);

        relay = CreateObject<AdcUdpRelay>();
        relay->SetAttribute("Port", UintegerValue(kVserverPort));
        relayNode->AddApplication(relay);
        relay->TraceConnectWithoutContext("Session",
                                          Callback<void, const Address&, const Address&>(
                                              [this](const Address& c, const Address& s) {
                                                  sessions.push_back(
                                                      {Simulator::Now(),
                                                       InetSocketAddress::ConvertFrom(c),
                                                       InetSocketAddress::ConvertFrom(s)});
                                              }));
        relay->TraceConnectWithoutContext(
            "Relayed",
            Callback<void, bool, uint32_t>([this](bool up, uint32_t n) {
                relayed.push_back({Simulator::Now(), up, n});
            }));
        relay->TraceConnectWithoutContext(
            "Dropped",
            Callback<void, const Address&, const std::string&>([this](const Address& c,
                                                                      const std::string& reason) {
                dropped.push_back({Simulator::Now(), InetSocketAddress::ConvertFrom(c), reason});
            }));
        relay->TraceConnectWithoutContext(
            "Closed",
            Callback<void, const Address&, const Address&, uint64_t, uint64_t, const std::string&>(
                [this](const Address& c,
                       const Address& s,
                       uint64_t up,
                       uint64_t down,
                       const std::string& outcome) {
                    closed.push_back({Simulator::Now(),
                                      InetSocketAddress::ConvertFrom(c),
                                      InetSocketAddress::ConvertFrom(s),
                                      up,
                                      down,
                                      outcome});
                }));
        relay->SetEndObserver(
            [this](uint64_t id, const std::string& outcome) { ended.emplace_back(id, outcome); });
    }

    /// A client socket on C bound to \p port.
    Endpoint& Client(uint16_t port)
    {
        clients.push_back(std::make_unique<Endpoint>());
        clients.back()->Start(clientNode, port, false);
        return *clients.back();
    }

    /// A chooser that spreads new sessions over S1, S2 in turn and records what it was asked.
    void UseRoundRobinChooser()
    {
        relay->SetDestinationChooser(
            [this](uint64_t id, const InetSocketAddress& c, Ptr<const Packet> first) {
                asked.push_back({id, c, first->GetSize()});
                AdcUdpRelay::Choice choice;
                choice.action = AdcUdpRelay::Choice::CONNECT;
                choice.destination = (asked.size() % 2 == 1) ? kServer1 : kServer2;
                choice.port = kServerPort;
                return choice;
            });
    }

    Ptr<Node> clientNode;
    Ptr<Node> relayNode;
    Ptr<Node> server1Node;
    Ptr<Node> server2Node;
    Ptr<AdcUdpRelay> relay;
    Endpoint server1;
    Endpoint server2;
    std::vector<std::unique_ptr<Endpoint>> clients;
    std::vector<SessionRecord> sessions;
    std::vector<RelayedRecord> relayed;
    std::vector<DroppedRecord> dropped;
    std::vector<ClosedRecord> closed;
    std::vector<std::pair<uint64_t, std::string>> ended;
    std::vector<Asked> asked;
};

} // namespace

// REQ: CS-07 (UDP is a virtual-server type: datagrams relayed both ways, nothing lost or added)
TEST_F(AdcUdpRelayTest, RelaysDatagramsBothWaysWithExactCounts)
{
    Build();
    relay->SetAttribute("Destination", AddressValue(InetSocketAddress(kServer1, kServerPort)));
    Endpoint& c = Client(1001);
    c.SendAt(Seconds(1.0), 100);
    c.SendAt(Seconds(1.1), 200);
    c.SendAt(Seconds(1.2), 300);
    Simulator::Stop(Seconds(5));
    Simulator::Run();

    // The server got the three datagrams, whole and in order, from the relay's address (the
    // address of R facing S1) and from one port: one session, one socket.
    ASSERT_EQ(server1.rx.size(), 3u);
    EXPECT_EQ(server2.rx.size(), 0u);
    const uint32_t sizes[] = {100, 200, 300};
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(server1.rx[i].size, sizes[i]);
        EXPECT_TRUE(server1.rx[i].intact);
        EXPECT_EQ(server1.rx[i].from.GetIpv4(), kRelayServer1Side);
        EXPECT_EQ(server1.rx[i].from.GetPort(), server1.rx[0].from.GetPort());
    }
    // The echoes came back to the client, whole and in order.
    ASSERT_EQ(c.rx.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(c.rx[i].size, sizes[i]);
        EXPECT_TRUE(c.rx[i].intact);
    }
    EXPECT_EQ(relay->GetSessions(), 1u);
    EXPECT_EQ(relay->GetOpenSessions(), 1u);
    EXPECT_EQ(relay->GetDatagramsToServer(), 3u);
    EXPECT_EQ(relay->GetDatagramsToClient(), 3u);
    EXPECT_EQ(relay->GetBytesToServer(), 600u);
    EXPECT_EQ(relay->GetBytesToClient(), 600u);
    EXPECT_EQ(relay->GetDropped(), 0u);
    EXPECT_GT(relay->GetPerFlowStateBytes(), 0u);
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(Ep(sessions[0].client), "10.1.1.1:1001");
    EXPECT_EQ(Ep(sessions[0].server), "10.2.2.2:7");
    // "Relayed" says the same as the counters.
    uint64_t up = 0;
    uint64_t down = 0;
    for (const RelayedRecord& r : relayed)
    {
        (r.toServer ? up : down) += r.bytes;
    }
    EXPECT_EQ(relayed.size(), 6u);
    EXPECT_EQ(up, 600u);
    EXPECT_EQ(down, 600u);
    EXPECT_TRUE(closed.empty());
}

// REQ: CS-07 (the client talks to the virtual server only: it never sees the server's address)
TEST_F(AdcUdpRelayTest, RepliesComeFromTheVirtualServerAddressAndPort)
{
    Build();
    relay->SetAttribute("Destination", AddressValue(InetSocketAddress(kServer2, kServerPort)));
    Endpoint& c = Client(1001);
    c.SendAt(Seconds(1.0), 64);
    c.SendAt(Seconds(1.5), 64);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    ASSERT_EQ(server2.rx.size(), 2u);
    for (const Rx& r : server2.rx)
    {
        EXPECT_EQ(r.from.GetIpv4(), kRelayServer2Side); // not the client's 10.1.1.1
    }
    ASSERT_EQ(c.rx.size(), 2u);
    for (const Rx& r : c.rx)
    {
        EXPECT_EQ(Ep(r.from), "10.1.1.2:4000");
        EXPECT_NE(r.from.GetIpv4(), kServer2);
    }
}

// REQ: CS-01 (a UDP CS vserver spreads clients over its targets), CS-07
TEST_F(AdcUdpRelayTest, ChooserSpreadsClientsAndKeepsEachOnItsServer)
{
    Build();
    UseRoundRobinChooser();
    Endpoint& a = Client(1001);
    Endpoint& b = Client(1002);
    for (int i = 0; i < 3; ++i)
    {
        a.SendAt(Seconds(1.0 + i), 10 + i);
        b.SendAt(Seconds(1.5 + i), 20 + i);
    }
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    // Asked once per session, on its first datagram: A first (session 1), then B (session 2).
    ASSERT_EQ(asked.size(), 2u);
    EXPECT_EQ(asked[0].session, 1u);
    EXPECT_EQ(Ep(asked[0].client), "10.1.1.1:1001");
    EXPECT_EQ(asked[0].size, 10u);
    EXPECT_EQ(asked[1].session, 2u);
    EXPECT_EQ(Ep(asked[1].client), "10.1.1.1:1002");
    EXPECT_EQ(asked[1].size, 20u);
    // A's three datagrams all reached S1, B's all reached S2.
    ASSERT_EQ(server1.rx.size(), 3u);
    ASSERT_EQ(server2.rx.size(), 3u);
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(server1.rx[i].size, static_cast<uint32_t>(10 + i));
        EXPECT_EQ(server2.rx[i].size, static_cast<uint32_t>(20 + i));
    }
    // Each client got its own echoes, from the virtual server.
    ASSERT_EQ(a.rx.size(), 3u);
    ASSERT_EQ(b.rx.size(), 3u);
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(a.rx[i].size, static_cast<uint32_t>(10 + i));
        EXPECT_EQ(b.rx[i].size, static_cast<uint32_t>(20 + i));
        EXPECT_EQ(Ep(b.rx[i].from), "10.1.1.2:4000");
    }
    ASSERT_EQ(sessions.size(), 2u);
    EXPECT_EQ(Ep(sessions[0].server), "10.2.2.2:7");
    EXPECT_EQ(Ep(sessions[1].server), "10.3.3.2:7");
    EXPECT_EQ(relay->GetSessions(), 2u);
    EXPECT_EQ(relay->GetOpenSessions(), 2u);
    EXPECT_EQ(relay->GetDatagramsToServer(), 6u);
    EXPECT_EQ(relay->GetDatagramsToClient(), 6u);
}

// REQ: CS-01 (a refused datagram opens no session; the next one asks again)
TEST_F(AdcUdpRelayTest, RefuseDropsTheDatagramAndTheNextAsksAgain)
{
    Build();
    relay->SetDestinationChooser(
        [this](uint64_t id, const InetSocketAddress& c, Ptr<const Packet> first) {
            asked.push_back({id, c, first->GetSize()});
            AdcUdpRelay::Choice choice;
            choice.action =
                asked.size() == 1 ? AdcUdpRelay::Choice::REFUSE : AdcUdpRelay::Choice::CONNECT;
            choice.destination = kServer1;
            choice.port = kServerPort;
            return choice;
        });
    Endpoint& c = Client(1001);
    c.SendAt(Seconds(1.0), 50);
    c.SendAt(Seconds(2.0), 60);
    Simulator::Stop(Seconds(4));
    Simulator::Run();

    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0].reason, "refused");
    EXPECT_EQ(Ep(dropped[0].client), "10.1.1.1:1001");
    EXPECT_GT(dropped[0].at, Seconds(1.0));
    EXPECT_LT(dropped[0].at, Seconds(2.0));
    EXPECT_EQ(relay->GetDropped(), 1u);
    // Asked twice, both times for the session id the datagram would open.
    ASSERT_EQ(asked.size(), 2u);
    EXPECT_EQ(asked[0].session, 1u);
    EXPECT_EQ(asked[0].size, 50u);
    EXPECT_EQ(asked[1].session, 1u);
    EXPECT_EQ(asked[1].size, 60u);
    // Only the second datagram was relayed.
    ASSERT_EQ(server1.rx.size(), 1u);
    EXPECT_EQ(server1.rx[0].size, 60u);
    ASSERT_EQ(c.rx.size(), 1u);
    EXPECT_EQ(relay->GetSessions(), 1u);
    EXPECT_EQ(relay->GetDatagramsToServer(), 1u);
}

// REQ: CS-07 (NetScaler's client idle timeout of a UDP vserver ends its session)
TEST_F(AdcUdpRelayTest, IdleTimeoutEndsTheSessionAtLastActivityPlusTimeout)
{
    Build();
    UseRoundRobinChooser();
    const Time timeout = Seconds(5);
    relay->SetAttribute("IdleTimeout", TimeValue(timeout));
    Endpoint& c = Client(1001);
    // Busy for 2 s: the first check (5 s after the first datagram) comes too early.
    c.SendAt(Seconds(1.0), 10);
    c.SendAt(Seconds(2.0), 11);
    c.SendAt(Seconds(3.0), 12);
    c.SendAt(Seconds(20.0), 13); // long after the timeout: a new session
    Simulator::Stop(Seconds(22));
    Simulator::Run();

    ASSERT_FALSE(closed.empty());
    const ClosedRecord& first = closed[0];
    EXPECT_EQ(first.outcome, "idle");
    EXPECT_EQ(Ep(first.client), "10.1.1.1:1001");
    EXPECT_EQ(Ep(first.server), "10.2.2.2:7");
    EXPECT_EQ(first.toServer, 3u);
    EXPECT_EQ(first.toClient, 3u);
    // Last activity: the echo of the third datagram relayed to the client (the 6th "Relayed").
    ASSERT_GE(relayed.size(), 6u);
    EXPECT_FALSE(relayed[5].toServer);
    EXPECT_GT(relayed[5].at, Seconds(3.0));
    EXPECT_LT(relayed[5].at, Seconds(3.1));
    EXPECT_EQ(first.at, relayed[5].at + timeout);
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(ended[0], std::make_pair(uint64_t{1}, std::string("idle")));

    // The datagram at 20 s opened a new session: the chooser was asked again (now S2).
    EXPECT_EQ(closed.size(), 1u); // the second session is not idle yet at 22 s
    ASSERT_EQ(asked.size(), 2u);
    EXPECT_EQ(asked[1].session, 2u);
    EXPECT_EQ(asked[1].size, 13u);
    ASSERT_EQ(sessions.size(), 2u);
    EXPECT_GE(sessions[1].at, Seconds(20.0));
    ASSERT_EQ(server2.rx.size(), 1u);
    EXPECT_EQ(server2.rx[0].size, 13u);
    EXPECT_EQ(relay->GetSessions(), 2u);
    EXPECT_EQ(relay->GetOpenSessions(), 1u);
    EXPECT_EQ(relay->GetIdleSessions(), 1u);
    EXPECT_EQ(relay->GetStoppedSessions(), 0u);
}

// REQ: CS-07 (a session whose server never answers idles out from the client's last datagram)
TEST_F(AdcUdpRelayTest, IdleTimeoutCountsClientDatagramsAlone)
{
    Build(false); // the servers do not answer
    relay->SetAttribute("Destination", AddressValue(InetSocketAddress(kServer1, kServerPort)));
    relay->SetAttribute("IdleTimeout", TimeValue(Seconds(2)));
    Endpoint& c = Client(1001);
    c.SendAt(Seconds(1.0), 10);
    c.SendAt(Seconds(2.5), 10);
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    ASSERT_EQ(relayed.size(), 2u);
    ASSERT_EQ(closed.size(), 1u);
    EXPECT_EQ(closed[0].outcome, "idle");
    EXPECT_EQ(closed[0].at, relayed[1].at + Seconds(2));
    EXPECT_EQ(closed[0].toServer, 2u);
    EXPECT_EQ(closed[0].toClient, 0u);
    EXPECT_EQ(relay->GetOpenSessions(), 0u);
    EXPECT_EQ(relay->GetPerFlowStateBytes(), 0u);
}

// REQ: CS-07 (a session limit with a defined, traced behaviour)
TEST_F(AdcUdpRelayTest, MaxSessionsDropsDatagramsBeyondTheLimit)
{
    Build();
    relay->SetAttribute("Destination", AddressValue(InetSocketAddress(kServer1, kServerPort)));
    relay->SetAttribute("MaxSessions", UintegerValue(1));
    relay->SetAttribute("IdleTimeout", TimeValue(Seconds(2)));
    Endpoint& a = Client(1001);
    Endpoint& b = Client(1002);
    a.SendAt(Seconds(1.0), 10);
    b.SendAt(Seconds(1.5), 20); // A's session is open: over the limit
    a.SendAt(Seconds(1.6), 11); // A's own session goes on
    b.SendAt(Seconds(5.0), 21); // A's session idled out at about 3.6 s: room again
    Simulator::Stop(Seconds(6));
    Simulator::Run();

    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0].reason, "session-limit");
    EXPECT_EQ(Ep(dropped[0].client), "10.1.1.1:1002");
    EXPECT_EQ(relay->GetDropped(), 1u);
    ASSERT_EQ(server1.rx.size(), 3u);
    EXPECT_EQ(server1.rx[0].size, 10u);
    EXPECT_EQ(server1.rx[1].size, 11u);
    EXPECT_EQ(server1.rx[2].size, 21u);
    ASSERT_EQ(b.rx.size(), 1u);
    EXPECT_EQ(b.rx[0].size, 21u);
    EXPECT_EQ(relay->GetSessions(), 2u);
    ASSERT_EQ(closed.size(), 1u);
    EXPECT_EQ(Ep(closed[0].client), "10.1.1.1:1001");
    EXPECT_EQ(closed[0].outcome, "idle");
}

// REQ: CS-07 (stopping the vserver ends its open sessions, counted apart)
TEST_F(AdcUdpRelayTest, StopEndsOpenSessionsAsStopped)
{
    Build();
    UseRoundRobinChooser();
    relay->SetStopTime(Seconds(3));
    Endpoint& a = Client(1001);
    Endpoint& b = Client(1002);
    a.SendAt(Seconds(1.0), 10);
    b.SendAt(Seconds(1.0), 20);
    a.SendAt(Seconds(4.0), 30); // after the stop: not relayed
    Simulator::Stop(Seconds(6));
    Simulator::Run();

    ASSERT_EQ(closed.size(), 2u);
    for (const ClosedRecord& r : closed)
    {
        EXPECT_EQ(r.outcome, "stopped");
        EXPECT_EQ(r.at, Seconds(3));
        EXPECT_EQ(r.toServer, 1u);
        EXPECT_EQ(r.toClient, 1u);
    }
    ASSERT_EQ(ended.size(), 2u);
    EXPECT_EQ(ended[0].second, "stopped");
    EXPECT_EQ(ended[1].second, "stopped");
    EXPECT_NE(ended[0].first, ended[1].first);
    EXPECT_EQ(relay->GetStoppedSessions(), 2u);
    EXPECT_EQ(relay->GetIdleSessions(), 0u);
    EXPECT_EQ(relay->GetOpenSessions(), 0u);
    EXPECT_EQ(relay->GetPerFlowStateBytes(), 0u);
    EXPECT_EQ(relay->GetDatagramsToServer(), 2u);
    EXPECT_EQ(server1.rx.size() + server2.rx.size(), 2u);
    EXPECT_EQ(a.rx.size(), 1u);
}

// REQ: CS-07 (a UDP vserver needs a port and a target: a clear configuration error)
TEST_F(AdcUdpRelayTest, BadPortIsAConfigErrorAtStart)
{
    Build();
    relay->SetAttribute("Port", UintegerValue(0));
    relay->SetAttribute("Destination", AddressValue(InetSocketAddress(kServer1, kServerPort)));
    try
    {
        Simulator::Run();
        FAIL() << "no AdcConfigError";
    }
    catch (const AdcConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("Port 0"), std::string::npos) << what;
        EXPECT_NE(what.find("1-65535"), std::string::npos) << what;
    }
}

// REQ: CS-07
TEST_F(AdcUdpRelayTest, MissingDestinationIsAConfigErrorAtStart)
{
    Build();
    try
    {
        Simulator::Run();
        FAIL() << "no AdcConfigError";
    }
    catch (const AdcConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("Destination"), std::string::npos) << what;
    }
}

// REQ: CS-07
TEST_F(AdcUdpRelayTest, ZeroIdleTimeoutIsAConfigErrorAtStart)
{
    Build();
    relay->SetAttribute("Destination", AddressValue(InetSocketAddress(kServer1, kServerPort)));
    relay->SetAttribute("IdleTimeout", TimeValue(Seconds(0)));
    EXPECT_THROW(Simulator::Run(), AdcConfigError);
}
