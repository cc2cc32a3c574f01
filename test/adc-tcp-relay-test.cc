/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcTcpRelay, the bare transparent relay: it copies bytes both ways exactly (every
 * byte, in order, nothing added), from the client's IP and a port of its range, and ends with
 * both directions closed; and of the CRD topology's baseline modes (LowerTierMode RELAY,
 * UpperTierMode ROUTER) that use it.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-request-record.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/adc-tcp-relay.h"
#include "ns3/boolean.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const Ipv4Address kClient("10.1.1.1");
const Ipv4Address kRelayClientSide("10.1.1.2");
const Ipv4Address kRelayServerSide("10.2.2.1");
const Ipv4Address kServer("10.2.2.2");
const AdcPortRange kRange(5000, 5009);

/// Byte \p k of a stream with \p seed: a hash, so a lost, repeated or reordered chunk shows.
uint8_t
StreamByte(uint64_t k, uint8_t seed)
{
    uint32_t x = static_cast<uint32_t>(k) * 2654435761U + seed * 40503U;
    x ^= x >> 15;
    return static_cast<uint8_t>(x & 0xff);
}

/**
 * One end of a test connection: sends a patterned byte stream (then half-closes) and checks
 * the stream it receives byte by byte.
 */
struct Endpoint
{
    uint64_t toSend{0};             //!< bytes to send
    uint8_t sendSeed{0};            //!< pattern of what it sends
    uint8_t recvSeed{0};            //!< pattern of what it must receive
    bool sendAfterPeerClose{false}; //!< start sending only once the peer half-closed

    Ptr<Socket> socket;
    Address peer;
    uint64_t sent{0};
    uint64_t received{0};
    uint64_t mismatches{0};
    bool connected{false};
    bool sending{false};
    bool shut{false};
    bool peerClosed{false};
    bool error{false};

    void Attach(Ptr<Socket> s)
    {
        socket = s;
        s->SetRecvCallback(MakeCallback(&Endpoint::Read, this));
        s->SetSendCallback(MakeCallback(&Endpoint::Room, this));
        s->SetCloseCallbacks(MakeCallback(&Endpoint::PeerClose, this),
                             MakeCallback(&Endpoint::Error, this));
    }

    void StartSending()
    {
        sending = true;
        Fill();
    }

    void Fill()
    {
        while (sending && sent < toSend)
        {
            const uint64_t n64 =
                std::min<uint64_t>({socket->GetTxAvailable(), toSend - sent, 7000});
            if (n64 == 0)
            {
                return;
            }
            std::vector<uint8_t> buf(n64);
            for (uint64_t i = 0; i < n64; ++i)
            {
                buf[i] = StreamByte(sent + i, sendSeed);
            }
            if (socket->Send(Create<Packet>(buf.data(), static_cast<uint32_t>(n64))) < 0)
            {
                return;
            }
            sent += n64;
        }
        if (sending && sent == toSend && !shut)
        {
            shut = true;
            socket->ShutdownSend();
        }
    }

    void Room(Ptr<Socket>, uint32_t)
    {
        Fill();
    }

    void Read(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            if (p->GetSize() == 0)
            {
                break;
            }
            std::vector<uint8_t> buf(p->GetSize());
            p->CopyData(buf.data(), p->GetSize());
            for (std::size_t i = 0; i < buf.size(); ++i)
            {
                mismatches += buf[i] != StreamByte(received + i, recvSeed);
            }
            received += buf.size();
        }
    }

    void PeerClose(Ptr<Socket> s)
    {
        Read(s);
        peerClosed = true;
        if (sendAfterPeerClose && !sending)
        {
            StartSending();
        }
    }

    void Error(Ptr<Socket>)
    {
        error = true;
    }

    void Connected(Ptr<Socket>)
    {
        connected = true;
        if (!sendAfterPeerClose)
        {
            StartSending();
        }
    }

    void Failed(Ptr<Socket>)
    {
        error = true;
    }
};

/// A server accepting any number of connections, each an Endpoint with the same settings.
struct Server
{
    Endpoint settings;
    Ptr<Socket> listen;
    std::vector<std::unique_ptr<Endpoint>> conns;

    void Start(Ptr<Node> node, uint16_t port)
    {
        listen = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        listen->Listen();
        listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&Server::Accept, this));
    }

    void Accept(Ptr<Socket> s, const Address& from)
    {
        conns.push_back(std::make_unique<Endpoint>(settings));
        Endpoint& e = *conns.back();
        e.peer = from;
        e.connected = true;
        e.Attach(s);
        if (!e.sendAfterPeerClose)
        {
            e.StartSending();
        }
    }
};

/// One "Closed" trace.
struct ClosedRecord
{
    Address client;
    Address destination;
    uint64_t toServer;
    uint64_t toClient;
    std::string outcome;
};

/// C (10.1.1.1) -- R (relay, policy routing) -- S (10.2.2.2).
class AdcTcpRelayTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        clients.clear();
        Simulator::Destroy();
    }

    /// Build nodes, links and routes; install the relay on R (routing set unless told not).
    void Build(const std::string& serverLinkRate = "100Mbps", bool setRouting = true)
    {
        client = CreateObject<Node>();
        relayNode = CreateObject<Node>();
        serverNode = CreateObject<Node>();
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer dc = p2p.Install(client, relayNode);
        p2p.SetDeviceAttribute("DataRate", StringValue(serverLinkRate));
        NetDeviceContainer ds = p2p.Install(relayNode, serverNode);

        Ipv4ListRoutingHelper list;
        list.Add(Ipv4StaticRoutingHelper(), 0);
        InternetStackHelper stack;
        stack.SetRoutingHelper(list);
        stack.SetIpv6StackInstall(false);
        stack.Install(NodeContainer(client, relayNode, serverNode));
        Ipv4AddressHelper addr;
        addr.SetBase("10.1.1.0", "255.255.255.0");
        addr.Assign(dc);
        addr.SetBase("10.2.2.0", "255.255.255.0");
        addr.Assign(ds);

        Ipv4StaticRoutingHelper sr;
        sr.GetStaticRouting(client->GetObject<Ipv4>())->SetDefaultRoute(kRelayClientSide, 1);
        sr.GetStaticRouting(serverNode->GetObject<Ipv4>())->SetDefaultRoute(kRelayServerSide, 1);

        // R intercepts TCP to S:80 from the client side, and S's replies to the range.
        Ptr<Ipv4> rip = relayNode->GetObject<Ipv4>();
        routing = CreateObject<AdcPolicyRouting>();
        AdcAddTopIpv4Routing(rip->GetObject<Node>(), routing, 10);
        AdcPolicyRule intercept;
        intercept.name = "intercept";
        intercept.action = AdcPolicyRule::LOCAL;
        intercept.inInterfaces = {static_cast<uint32_t>(rip->GetInterfaceForDevice(dc.Get(1)))};
        intercept.dstNet = kServer;
        intercept.dstMask = Ipv4Mask("255.255.255.255");
        intercept.protocol = 6;
        intercept.dstPorts = AdcPortRange(80, 80);
        routing->AddRule(intercept);
        AdcPolicyRule back;
        back.name = "return";
        back.action = AdcPolicyRule::LOCAL;
        back.inInterfaces = {static_cast<uint32_t>(rip->GetInterfaceForDevice(ds.Get(0)))};
        back.dstNet = Ipv4Address("10.1.1.0");
        back.dstMask = Ipv4Mask("255.255.255.0");
        back.protocol = 6;
        back.dstPorts = kRange;
        routing->AddRule(back);

        relay = CreateObject<AdcTcpRelay>();
        relay->SetAttribute("PortRange", StringValue(kRange.ToString()));
        if (setRouting)
        {
            relay->SetRouting(routing);
        }
        relayNode->AddApplication(relay);
        relay->TraceConnectWithoutContext(
            "Closed",
            Callback<void, const Address&, const Address&, uint64_t, uint64_t, const std::string&>(
                [this](const Address& c,
                       const Address& d,
                       uint64_t up,
                       uint64_t down,
                       const std::string& outcome) {
                    closed.push_back({c, d, up, down, outcome});
                }));
        relay->TraceConnectWithoutContext(
            "Accept",
            Callback<void, const Address&, const Address&>(
                [this](const Address&, const Address& d) { accepted.push_back(d); }));
        relay->TraceConnectWithoutContext(
            "Relayed",
            Callback<void, bool, uint64_t>(
                [this](bool up, uint64_t n) { (up ? relayedUp : relayedDown) += n; }));
        server.Start(serverNode, 80);
    }

    /// A client connection from C to \p to, opened at \p at.
    Endpoint& Connect(Time at, uint64_t toSend, Ipv4Address to = kServer)
    {
        clients.push_back(std::make_unique<Endpoint>());
        Endpoint* e = clients.back().get();
        e->toSend = toSend;
        e->sendSeed = 1;
        e->recvSeed = 2;
        Ptr<Node> node = client;
        Simulator::Schedule(at, [e, node, to]() {
            Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
            s->Bind();
            e->Attach(s);
            s->SetConnectCallback(MakeCallback(&Endpoint::Connected, e),
                                  MakeCallback(&Endpoint::Failed, e));
            s->Connect(InetSocketAddress(to, 80));
        });
        return *e;
    }

    void Run(Time stop = Seconds(20))
    {
        Simulator::Stop(stop);
        Simulator::Run();
    }

    static Ipv4Address IpOf(const Address& a)
    {
        return InetSocketAddress::ConvertFrom(a).GetIpv4();
    }

    static uint16_t PortOf(const Address& a)
    {
        return InetSocketAddress::ConvertFrom(a).GetPort();
    }

    Ptr<Node> client;
    Ptr<Node> relayNode;
    Ptr<Node> serverNode;
    Ptr<AdcPolicyRouting> routing;
    Ptr<AdcTcpRelay> relay;
    Server server;
    std::vector<std::unique_ptr<Endpoint>> clients;
    std::vector<ClosedRecord> closed;
    std::vector<Address> accepted;
    uint64_t relayedUp{0};
    uint64_t relayedDown{0};
};

} // namespace

TEST_F(AdcTcpRelayTest, RequestThenResponseAreCopiedExactlyBothWays)
{
    Build();
    // The server answers once the client half-closed: a request, then a response.
    server.settings.toSend = 500000;
    server.settings.sendSeed = 2;
    server.settings.recvSeed = 1;
    server.settings.sendAfterPeerClose = true;
    const uint64_t up[] = {300000, 1, 77777};
    for (uint32_t i = 0; i < 3; ++i)
    {
        Connect(Seconds(1 + 0.001 * i), up[i]);
    }
    Run();

    ASSERT_EQ(server.conns.size(), 3u);
    std::set<uint16_t> ports;
    uint64_t serverReceived = 0;
    for (const auto& c : server.conns)
    {
        // USIP: the server sees the client's IP and a port of the relay's range.
        EXPECT_EQ(IpOf(c->peer), kClient);
        EXPECT_TRUE(kRange.Contains(PortOf(c->peer))) << PortOf(c->peer);
        ports.insert(PortOf(c->peer));
        EXPECT_EQ(c->mismatches, 0u);
        EXPECT_TRUE(c->peerClosed);
        EXPECT_FALSE(c->error);
        EXPECT_EQ(c->sent, 500000u);
        serverReceived += c->received;
    }
    EXPECT_EQ(ports.size(), 3u) << "each relay takes its own port";
    EXPECT_EQ(serverReceived, up[0] + up[1] + up[2]);
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(clients[i]->received, 500000u) << i;
        EXPECT_EQ(clients[i]->mismatches, 0u) << i;
        EXPECT_TRUE(clients[i]->peerClosed) << i;
        EXPECT_FALSE(clients[i]->error) << i;
    }
    // The server's connection i carries client i's bytes.
    std::vector<uint64_t> got;
    for (const auto& c : server.conns)
    {
        got.push_back(c->received);
    }
    EXPECT_EQ(got, std::vector<uint64_t>(std::begin(up), std::end(up)));

    // Relays end in the order their connections finish, not the order they opened.
    ASSERT_EQ(closed.size(), 3u);
    std::vector<uint64_t> closedUp;
    for (const auto& c : closed)
    {
        closedUp.push_back(c.toServer);
    }
    std::sort(closedUp.begin(), closedUp.end());
    EXPECT_EQ(closedUp, (std::vector<uint64_t>{1, 77777, 300000}));
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(closed[i].outcome, "complete");
        EXPECT_EQ(closed[i].toClient, 500000u);
        EXPECT_EQ(IpOf(closed[i].destination), kServer);
        EXPECT_EQ(PortOf(closed[i].destination), 80);
        EXPECT_EQ(IpOf(closed[i].client), kClient);
    }
    EXPECT_EQ(accepted.size(), 3u);
    EXPECT_EQ(relayedUp, up[0] + up[1] + up[2]);
    EXPECT_EQ(relayedDown, 3 * 500000u);
    EXPECT_EQ(relay->GetBytesToServer(), relayedUp);
    EXPECT_EQ(relay->GetBytesToClient(), relayedDown);
    EXPECT_EQ(relay->GetCompleted(), 3u);
    EXPECT_EQ(relay->GetFailed(), 0u);
    EXPECT_EQ(relay->GetOpenRelays(), 0u);
    EXPECT_EQ(relay->GetPerFlowStateBytes(), 0u);
    EXPECT_EQ(relay->GetPortAllocator()->GetInUse(), 0u) << "ports are released at the end";
}

TEST_F(AdcTcpRelayTest, SimultaneousBulkBothWaysThroughASlowSideIsExact)
{
    // The server side is 10x slower: the relay's queue towards it fills and must hold back
    // the client (flow control) without losing or reordering a byte.
    Build("10Mbps");
    relay->SetAttribute("RelayWindow", UintegerValue(3000));
    server.settings.toSend = 600000;
    server.settings.sendSeed = 2;
    server.settings.recvSeed = 1;
    Endpoint& c = Connect(Seconds(1), 400000);
    std::size_t peakState = 0;
    for (int i = 1; i < 100; ++i)
    {
        Simulator::Schedule(Seconds(1 + 0.01 * i), [this, &peakState]() {
            peakState = std::max(peakState, relay->GetPerFlowStateBytes());
        });
    }
    Run();

    ASSERT_EQ(server.conns.size(), 1u);
    const Endpoint& s = *server.conns[0];
    EXPECT_EQ(s.received, 400000u);
    EXPECT_EQ(s.mismatches, 0u);
    EXPECT_EQ(c.received, 600000u);
    EXPECT_EQ(c.mismatches, 0u);
    EXPECT_TRUE(s.peerClosed);
    EXPECT_TRUE(c.peerClosed);
    ASSERT_EQ(closed.size(), 1u);
    EXPECT_EQ(closed[0].outcome, "complete");
    EXPECT_EQ(closed[0].toServer, 400000u);
    EXPECT_EQ(closed[0].toClient, 600000u);
    // Queued bytes stay near the window (plus what one read returns), far below 400 kB.
    EXPECT_GT(peakState, 0u);
    EXPECT_LT(peakState, 200000u);
}

TEST_F(AdcTcpRelayTest, WithoutClientSourceTheServerSeesTheRelay)
{
    Build("100Mbps", false);
    relay->SetAttribute("UseClientSource", BooleanValue(false));
    server.settings.toSend = 1000;
    server.settings.sendSeed = 2;
    server.settings.recvSeed = 1;
    server.settings.sendAfterPeerClose = true;
    Endpoint& c = Connect(Seconds(1), 2000);
    Run();
    ASSERT_EQ(server.conns.size(), 1u);
    EXPECT_EQ(IpOf(server.conns[0]->peer), kRelayServerSide);
    EXPECT_FALSE(kRange.Contains(PortOf(server.conns[0]->peer)));
    EXPECT_EQ(server.conns[0]->received, 2000u);
    EXPECT_EQ(c.received, 1000u);
    EXPECT_EQ(c.mismatches + server.conns[0]->mismatches, 0u);
    ASSERT_EQ(closed.size(), 1u);
    EXPECT_EQ(closed[0].outcome, "complete");
}

TEST_F(AdcTcpRelayTest, AnExhaustedRangeClosesTheExtraConnection)
{
    Build();
    relay->SetAttribute("PortRange", StringValue("5000-5000"));
    server.settings.toSend = 200000;
    server.settings.sendSeed = 2;
    server.settings.recvSeed = 1;
    server.settings.sendAfterPeerClose = true;
    Endpoint& first = Connect(Seconds(1), 300000);
    Endpoint& second = Connect(Seconds(1.005), 10); // while the only port is in use
    Run();
    ASSERT_EQ(server.conns.size(), 1u);
    EXPECT_EQ(PortOf(server.conns[0]->peer), 5000);
    EXPECT_EQ(first.received, 200000u);
    EXPECT_EQ(second.received, 0u);
    EXPECT_TRUE(second.peerClosed || second.error);
    ASSERT_EQ(closed.size(), 2u);
    EXPECT_EQ(closed[0].outcome, "port-exhausted");
    EXPECT_EQ(closed[1].outcome, "complete");
    EXPECT_EQ(relay->GetFailed(), 1u);
    EXPECT_EQ(relay->GetCompleted(), 1u);
}

TEST_F(AdcTcpRelayTest, AConnectionToTheRelayNodeItselfIsNotRelayed)
{
    Build();
    Endpoint& c = Connect(Seconds(1), 5000, kRelayClientSide); // e.g. a health probe
    Run();
    EXPECT_TRUE(server.conns.empty());
    ASSERT_EQ(accepted.size(), 1u);
    EXPECT_EQ(IpOf(accepted[0]), kRelayClientSide);
    ASSERT_EQ(closed.size(), 1u);
    EXPECT_EQ(closed[0].outcome, "local");
    EXPECT_EQ(closed[0].toServer, 0u);
    EXPECT_TRUE(c.peerClosed) << "the relay closes once the peer did";
    EXPECT_EQ(relay->GetOpenRelays(), 0u);
}

TEST_F(AdcTcpRelayTest, ClientSourceWithoutRoutingIsAConfigError)
{
    Build("100Mbps", false);
    std::string msg;
    try
    {
        Run();
    }
    catch (const AdcConfigError& e)
    {
        msg = e.what();
    }
    EXPECT_NE(msg.find("UseClientSource"), std::string::npos) << msg;
    EXPECT_NE(msg.find("SetRouting"), std::string::npos) << msg;
}

TEST(AdcTcpRelayConfig, MalformedPortRangeIsAConfigError)
{
    Ptr<AdcTcpRelay> r = CreateObject<AdcTcpRelay>();
    EXPECT_THROW(r->SetAttribute("PortRange", StringValue("6000-5000")), AdcConfigError);
    EXPECT_THROW(r->SetAttribute("PortRange", StringValue("x")), AdcConfigError);
    r->SetAttribute("PortRange", StringValue("7000-7099"));
    EXPECT_EQ(r->GetPortAllocator()->GetSize(), 100u);
}

// ---- the CRD topology's baseline modes --------------------------------------------------------

namespace
{

/// A CRD topology with HTTP clients, and what its traces recorded.
class AdcTcpRelayCrd : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Build with \p h; every client requests \p perClient cacheable objects, one-shot.
    void BuildAndRun(Ptr<CrdTopologyHelper> h, uint32_t perClient)
    {
        topo = h->Build();
        topo.originApp->TraceConnectWithoutContext(
            "AccessLog",
            Callback<void, const std::string&, const std::string&, const std::string&, Time>(
                [this](const std::string& peer, const std::string& hdr, const std::string&, Time) {
                    originPeerIps.push_back(peer);
                    originHeaders.push_back(hdr);
                }));
        topo.originApp->TraceConnectWithoutContext(
            "Connection",
            Callback<void, const Address&>([this](const Address& from) {
                originPeers.push_back(InetSocketAddress::ConvertFrom(from));
            }));
        for (const auto& c : topo.cacheApps)
        {
            c->TraceConnectWithoutContext(
                "AccessLog",
                Callback<void, const std::string&, const std::string&, const std::string&, Time>(
                    [this](const std::string&, const std::string&, const std::string&, Time) {
                        ++cacheRequests;
                    }));
        }
        for (uint32_t i = 0; i < topo.isp.GetNClients(); ++i)
        {
            Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
            c->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
            c->SetAttribute("Persistent", BooleanValue(false));
            c->SetAttribute("MaxRequests", UintegerValue(perClient));
            c->SetAttribute("InterRequestTime",
                            StringValue("ns3::ConstantRandomVariable[Constant=0.2]"));
            c->SetAttribute("CatalogueSize", UintegerValue(5));
            c->SetStartTime(Seconds(2));
            c->SetStopTime(Seconds(6));
            topo.isp.GetClient(i)->AddApplication(c);
            c->TraceConnectWithoutContext(
                "RequestDone",
                Callback<void, const AdcRequestRecord&>(
                    [this](const AdcRequestRecord& r) { done.push_back(r); }));
            clients.push_back(c);
        }
        Simulator::Stop(Seconds(7));
        Simulator::Run();
    }

    /// \return the lower appliance whose range holds \p peer's port, or -1
    int32_t OwnerOf(const InetSocketAddress& peer) const
    {
        const uint16_t port = peer.GetPort();
        for (uint32_t j = 0; j < topo.lowerRanges.size(); ++j)
        {
            if (topo.lowerRanges[j].Contains(port))
            {
                return static_cast<int32_t>(j);
            }
        }
        return -1;
    }

    static Ptr<CrdTopologyHelper> Helper(uint32_t accessNets, uint32_t perNet)
    {
        Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
        h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(accessNets));
        h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(perNet));
        return h;
    }

    CrdTopology topo;
    std::vector<Ptr<AdcHttpClient>> clients;
    std::vector<AdcRequestRecord> done;
    std::vector<InetSocketAddress> originPeers; //!< TCP peers of the origin's connections
    std::vector<std::string> originPeerIps;     //!< AccessLog peers
    std::vector<std::string> originHeaders;     //!< AccessLog client IP header values
    uint64_t cacheRequests{0};
};

} // namespace

TEST_F(AdcTcpRelayCrd, RelayLowerTierSendsEveryRequestToTheOriginByUsip)
{
    Ptr<CrdTopologyHelper> h = Helper(2, 3);
    h->SetAttribute("LowerTierMode", StringValue("RELAY"));
    BuildAndRun(h, 3);
    EXPECT_TRUE(topo.lowerApps.empty());
    ASSERT_EQ(topo.relayApps.size(), 4u);
    ASSERT_EQ(done.size(), 18u);
    // 2 access networks x 3 clients x 3 requests, all carried to the origin
    EXPECT_TRUE(AdcExpectAccounting(clients, AdcAccountingExpectation::Completed(2 * 3 * 3)));
    EXPECT_EQ(cacheRequests, 0u) << "the relay never redirects to a cache";
    ASSERT_EQ(originPeers.size(), 18u);
    ASSERT_EQ(originPeerIps.size(), 18u);
    uint64_t relayed = 0;
    for (uint32_t j = 0; j < 4; ++j)
    {
        relayed += topo.relayApps[j]->GetCompleted();
    }
    EXPECT_EQ(relayed, 18u);
    std::set<std::string> clientIps;
    for (uint32_t i = 0; i < topo.isp.GetNClients(); ++i)
    {
        std::ostringstream os;
        topo.isp.GetClientAddress(i).Print(os);
        clientIps.insert(os.str());
    }
    for (std::size_t k = 0; k < originPeers.size(); ++k)
    {
        EXPECT_EQ(clientIps.count(originPeerIps[k]), 1u) << originPeerIps[k];
        EXPECT_GE(OwnerOf(originPeers[k]), 0) << originPeers[k].GetPort();
        EXPECT_EQ(originHeaders[k], "") << "a bare relay inserts no header";
    }
}

TEST_F(AdcTcpRelayCrd, RouterUpperTierWithRelaysCarriesEveryRequest)
{
    Ptr<CrdTopologyHelper> h = Helper(3, 4);
    h->SetAttribute("LowerTierMode", StringValue("RELAY"));
    h->SetAttribute("UpperTierMode", StringValue("ROUTER"));
    h->SetAttribute("RouterBalanceMethod", StringValue("SOURCEIPHASH"));
    h->SetAttribute("OriginBalanceMethod", StringValue("DESTINATIONIPHASH"));
    BuildAndRun(h, 2);
    EXPECT_TRUE(topo.upperRouting.empty());
    EXPECT_TRUE(topo.upperMonitors.empty());
    EXPECT_TRUE(topo.pbrRules.empty());
    ASSERT_EQ(done.size(), 24u);
    // 3 access networks x 4 clients x 2 requests
    EXPECT_TRUE(AdcExpectAccounting(clients, AdcAccountingExpectation::Completed(3 * 4 * 2)));
    // Upper router i leads to lower i mod 4: with 2 routers, only L2NS1 and L2NS2 relay. (L2NS3
    // and L2NS4 still accept the cache switch's TCP monitor probes of the miss path, which
    // relay nothing.)
    EXPECT_GT(topo.relayApps[0]->GetCompleted() + topo.relayApps[1]->GetCompleted(), 0u);
    EXPECT_EQ(topo.relayApps[2]->GetCompleted(), 0u);
    EXPECT_EQ(topo.relayApps[3]->GetCompleted(), 0u);
    ASSERT_EQ(originPeers.size(), 24u);
    for (const InetSocketAddress& peer : originPeers)
    {
        const int32_t owner = OwnerOf(peer);
        EXPECT_TRUE(owner == 0 || owner == 1) << peer.GetPort();
    }
}

TEST_F(AdcTcpRelayCrd, RouterUpperTierWithOneBypassingProxy)
{
    Ptr<CrdTopologyHelper> h = Helper(1, 3);
    h->SetAttribute("NumLower", UintegerValue(1));
    h->SetAttribute("UpperTierMode", StringValue("ROUTER"));
    h->SetAttribute("CacheableRule", StringValue("NONE"));
    BuildAndRun(h, 2);
    ASSERT_EQ(topo.lowerApps.size(), 1u);
    EXPECT_TRUE(topo.relayApps.empty());
    // 1 access network x 3 clients x 2 requests
    EXPECT_TRUE(AdcExpectAccounting(clients, AdcAccountingExpectation::Completed(1 * 3 * 2)));
    EXPECT_EQ(topo.lowerApps[0]->GetBypassRequests(), 6u);
    EXPECT_EQ(cacheRequests, 0u);
}

TEST(AdcTcpRelayCrdConfig, NonsensicalBaselineCombinationsAreConfigErrors)
{
    auto errorOf = [](auto configure) {
        Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
        configure(h);
        try
        {
            h->Validate();
        }
        catch (const AdcConfigError& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    // No upper tier to replace.
    std::string m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("NumUpper", UintegerValue(0));
        h->SetAttribute("UpperTierMode", StringValue("ROUTER"));
        h->SetAttribute("LowerTierMode", StringValue("RELAY"));
    });
    EXPECT_NE(m.find("NumUpper"), std::string::npos) << m;
    // Routers in front of caching proxies: a miss's response cannot find its way back.
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("NumLower", UintegerValue(1));
        h->SetAttribute("UpperTierMode", StringValue("ROUTER"));
    });
    EXPECT_NE(m.find("CacheableRule NONE"), std::string::npos) << m;
    // Several lower appliances behind routers need client-IP hashing on both sides.
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("UpperTierMode", StringValue("ROUTER"));
        h->SetAttribute("LowerTierMode", StringValue("RELAY"));
    });
    EXPECT_NE(m.find("SOURCEIPHASH"), std::string::npos) << m;
    EXPECT_NE(m.find("hash-ip-port"), std::string::npos) << m;
    EXPECT_NE(m.find("MAGLEV"), std::string::npos) << m;
    // Accepted: the same with the hashes, one lower appliance with defaults, and RELAY alone
    // even without caches.
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("UpperTierMode", StringValue("ROUTER"));
        h->SetAttribute("LowerTierMode", StringValue("RELAY"));
        h->SetAttribute("RouterBalanceMethod", StringValue("hash-ip"));
        h->SetAttribute("OriginBalanceMethod", StringValue("DESTINATIONIPHASH"));
    });
    EXPECT_EQ(m, "");
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("NumLower", UintegerValue(1));
        h->SetAttribute("UpperTierMode", StringValue("ROUTER"));
        h->SetAttribute("LowerTierMode", StringValue("RELAY"));
    });
    EXPECT_EQ(m, "");
    m = errorOf([](Ptr<CrdTopologyHelper> h) {
        h->SetAttribute("NumCaches", UintegerValue(0));
        h->SetAttribute("LowerTierMode", StringValue("RELAY"));
    });
    EXPECT_EQ(m, "");
}
