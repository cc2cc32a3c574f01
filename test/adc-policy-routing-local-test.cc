/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcPolicyRouting (continued from adc-policy-routing-test.cc): transparent
 * interception with USIP over TCP, truncated transport headers, the RuleMatch/Drop traces and
 * locally originated traffic (rules, foreign and registered sources, static fallback).
 */

#include "adc-policy-routing-test.h"

using namespace ns3;
using namespace ns3::adcpbrtest;

namespace
{

// ---------------------------------------------------------------------------------------------
// Transparent interception and USIP over TCP

/// P's side of the transparent proxy: relays a client connection to the origin from the
/// client's address.
struct TransparentProxy
{
    Ptr<Node> node;                 //!< P
    Ptr<AdcPolicyRouting> pbr;      //!< P's policy routing
    Ipv4Address originAddress;      //!< where to connect
    uint16_t usipPort{20000};       //!< source port of the origin connection
    Ptr<Socket> listener;           //!< ANY:80
    Ptr<Socket> client;             //!< accepted from C
    Ptr<Socket> origin;             //!< P -> O, from the client's address
    Address clientSockName;         //!< GetSockName of the accepted socket
    Address clientPeerName;         //!< GetPeerName of the accepted socket
    Address originSockName;         //!< GetSockName of the origin socket once connected
    bool originConnected{false};    //!< origin connection established
    std::vector<Ptr<Packet>> queue; //!< client bytes waiting for the origin connection
    uint32_t fromClient{0};         //!< bytes received from C
    uint32_t fromOrigin{0};         //!< bytes received from O

    void Start()
    {
        listener = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        EXPECT_EQ(listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 80)), 0);
        listener->Listen();
        listener->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            Callback<void, Ptr<Socket>, const Address&>(
                [this](Ptr<Socket> s, const Address& from) { Accept(s, from); }));
    }

    void Accept(Ptr<Socket> s, const Address& from)
    {
        client = s;
        s->GetSockName(clientSockName);
        s->GetPeerName(clientPeerName);
        s->SetRecvCallback(
            Callback<void, Ptr<Socket>>([this](Ptr<Socket> sock) { FromClient(sock); }));
        // USIP: connect to the origin from the client's address, registered with the hook.
        const Ipv4Address clientIp = InetSocketAddress::ConvertFrom(from).GetIpv4();
        origin = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        EXPECT_EQ(origin->Bind(InetSocketAddress(clientIp, usipPort)), 0);
        EXPECT_TRUE(pbr->AddOutputSource(
            AdcFlowKey(clientIp, originAddress, usipPort, 80, AdcFlowKey::PROTO_TCP)));
        origin->SetConnectCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> sock) {
                                       originConnected = true;
                                       sock->GetSockName(originSockName);
                                       for (Ptr<Packet> p : queue)
                                       {
                                           sock->Send(p);
                                       }
                                       queue.clear();
                                   }),
                                   MakeNullCallback<void, Ptr<Socket>>());
        origin->SetRecvCallback(
            Callback<void, Ptr<Socket>>([this](Ptr<Socket> sock) { FromOrigin(sock); }));
        EXPECT_EQ(origin->Connect(InetSocketAddress(originAddress, 80)), 0);
    }

    void FromClient(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            fromClient += p->GetSize();
            if (originConnected)
            {
                origin->Send(p);
            }
            else
            {
                queue.push_back(p);
            }
        }
    }

    void FromOrigin(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            fromOrigin += p->GetSize();
            client->Send(p);
        }
    }
};

/// The origin: echoes every byte and remembers whom it accepted.
struct EchoServer
{
    Ptr<Socket> listener;       //!< ANY:80
    std::vector<Address> peers; //!< GetPeerName of each accepted socket
    uint32_t received{0};       //!< bytes received

    void Start(Ptr<Node> node)
    {
        listener = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        EXPECT_EQ(listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 80)), 0);
        listener->Listen();
        listener->SetAcceptCallback(
            MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
            Callback<void, Ptr<Socket>, const Address&>([this](Ptr<Socket> s, const Address&) {
                Address peer;
                s->GetPeerName(peer);
                peers.push_back(peer);
                s->SetRecvCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> sock) {
                    while (Ptr<Packet> p = sock->Recv())
                    {
                        received += p->GetSize();
                        sock->Send(p);
                    }
                }));
            }));
    }
};

TEST_F(AdcPolicyRoutingTest, LocalInterceptionAndUsipCarryATcpConnectionThroughAProxy)
{
    const uint32_t kBytes = 3000;
    Ptr<Node> c = MakeNode();
    Ptr<Node> p = MakeNode();
    Ptr<Node> o = MakeNode();
    const LinkEnds cp = Link(c, p, "10.1.0.0"); // C 10.1.0.1, P 10.1.0.2
    const LinkEnds op = Link(o, p, "10.9.0.0"); // O 10.9.0.1, P 10.9.0.2
    ASSERT_EQ(cp.addrA, Ipv4Address("10.1.0.1"));
    ASSERT_EQ(op.addrA, Ipv4Address("10.9.0.1"));
    StaticOf(c)->SetDefaultRoute(cp.addrB, cp.ifA);
    StaticOf(o)->AddNetworkRouteTo(Ipv4Address("10.1.0.0"),
                                   Ipv4Mask("255.255.0.0"),
                                   op.addrB,
                                   op.ifA);

    Ptr<AdcPolicyRouting> pbr = InstallPbr(p);
    AdcPolicyRule intercept;
    intercept.name = "intercept-http";
    intercept.inInterfaces = {cp.ifB};
    intercept.dstNet = Ipv4Address("10.9.0.0");
    intercept.dstMask = Ipv4Mask("255.255.0.0");
    intercept.protocol = AdcFlowKey::PROTO_TCP;
    intercept.dstPorts = AdcPortRange(80, 80);
    intercept.action = AdcPolicyRule::LOCAL;
    AdcPolicyRule usipReturn;
    usipReturn.name = "usip-return";
    usipReturn.inInterfaces = {op.ifB};
    usipReturn.dstNet = Ipv4Address("10.1.0.0");
    usipReturn.dstMask = Ipv4Mask("255.255.0.0");
    usipReturn.protocol = AdcFlowKey::PROTO_TCP;
    usipReturn.dstPorts = AdcPortRange(20000, 20099);
    usipReturn.action = AdcPolicyRule::LOCAL;
    pbr->AddRule(intercept);
    pbr->AddRule(usipReturn);
    PbrTraces traces;
    traces.Connect(pbr);

    TransparentProxy proxy;
    proxy.node = p;
    proxy.pbr = pbr;
    proxy.originAddress = op.addrA;
    proxy.Start();
    EchoServer origin;
    origin.Start(o);

    uint32_t clientReceived = 0;
    Ptr<Socket> client = Socket::CreateSocket(c, TcpSocketFactory::GetTypeId());
    client->SetConnectCallback(Callback<void, Ptr<Socket>>([kBytes](Ptr<Socket> s) {
                                   EXPECT_EQ(s->Send(Create<Packet>(kBytes)),
                                             static_cast<int>(kBytes));
                               }),
                               MakeNullCallback<void, Ptr<Socket>>());
    client->SetRecvCallback(Callback<void, Ptr<Socket>>([&clientReceived](Ptr<Socket> s) {
        while (Ptr<Packet> pkt = s->Recv())
        {
            clientReceived += pkt->GetSize();
        }
    }));
    Simulator::Schedule(Seconds(1), [client, &op]() {
        EXPECT_EQ(client->Connect(InetSocketAddress(op.addrA, 80)), 0);
    });
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    // P intercepted C's connection to the origin's address.
    ASSERT_TRUE(proxy.client);
    EXPECT_EQ(InetSocketAddress::ConvertFrom(proxy.clientSockName).GetIpv4(), op.addrA);
    EXPECT_EQ(InetSocketAddress::ConvertFrom(proxy.clientSockName).GetPort(), 80);
    EXPECT_EQ(InetSocketAddress::ConvertFrom(proxy.clientPeerName).GetIpv4(), cp.addrA);
    // The origin saw the client's address and P's port as the source.
    ASSERT_TRUE(proxy.originConnected);
    ASSERT_EQ(origin.peers.size(), 1u);
    EXPECT_EQ(InetSocketAddress::ConvertFrom(origin.peers[0]).GetIpv4(), cp.addrA);
    EXPECT_EQ(InetSocketAddress::ConvertFrom(origin.peers[0]).GetPort(), 20000);
    EXPECT_EQ(InetSocketAddress::ConvertFrom(proxy.originSockName).GetIpv4(), cp.addrA);
    EXPECT_FALSE(pbr->GetPendingOutputSource().has_value());
    // Every byte went C -> P -> O and back O -> P -> C.
    EXPECT_EQ(proxy.fromClient, kBytes);
    EXPECT_EQ(origin.received, kBytes);
    EXPECT_EQ(proxy.fromOrigin, kBytes);
    EXPECT_EQ(clientReceived, kBytes);

    // Both LOCAL rules delivered packets addressed elsewhere, each from its own interface.
    EXPECT_GT(traces.CountRule("intercept-http"), 0u);
    EXPECT_GT(traces.CountRule("usip-return"), 0u);
    EXPECT_EQ(traces.CountRule("intercept-http") + traces.CountRule("usip-return"),
              traces.matches.size());
    for (const MatchEvent& m : traces.matches)
    {
        EXPECT_EQ(m.hop, "");
        if (m.rule == "intercept-http")
        {
            EXPECT_EQ(m.ingress, cp.ifB);
            EXPECT_EQ(m.flow.dst, AdcIpAddress(op.addrA));
            EXPECT_EQ(m.flow.dstPort, 80);
        }
        else
        {
            EXPECT_EQ(m.ingress, op.ifB);
            EXPECT_EQ(m.flow.dst, AdcIpAddress(cp.addrA));
            EXPECT_EQ(m.flow.dstPort, 20000);
            EXPECT_EQ(m.flow.srcPort, 80);
        }
    }
    EXPECT_EQ(pbr->GetRuleHits(0), traces.CountRule("intercept-http"));
    EXPECT_EQ(pbr->GetRuleHits(1), traces.CountRule("usip-return"));
}

// ---------------------------------------------------------------------------------------------
// Malformed packets, traces, locally originated traffic

TEST_F(AdcPolicyRoutingTest, TruncatedTransportHeaderIsDroppedWithReason)
{
    Ptr<Node> s = MakeNode();
    Ptr<Node> r = MakeNode();
    Ptr<Node> a = MakeNode();
    const LinkEnds sr = Link(s, r, "10.0.1.0");
    const LinkEnds ra = Link(r, a, "10.0.2.0");
    StaticOf(s)->SetDefaultRoute(sr.addrB, sr.ifA);
    // Without the rules R would forward everything to A.
    StaticOf(r)->SetDefaultRoute(ra.addrB, ra.ifA);
    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);
    pbr->AddRule(UdpPortRule("pbr-udp", AdcPortRange(5000, 5099), Hop(ra.ifA, ra.addrB, "A")));
    AdcPolicyRule tcp = UdpPortRule("pbr-tcp", AdcPortRange(80, 80), Hop(ra.ifA, ra.addrB, "A"));
    tcp.protocol = AdcFlowKey::PROTO_TCP;
    pbr->AddRule(tcp);
    PbrTraces traces;
    traces.Connect(pbr);
    uint32_t arrivedAtA = 0;
    a->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
            [&arrivedAtA](Ptr<const Packet>, Ptr<Ipv4>, uint32_t) { ++arrivedAtA; }));

    auto rawSend = [&](Time at, uint8_t protocol, std::vector<uint8_t> bytes) {
        Ptr<Socket> raw = Socket::CreateSocket(s, Ipv4RawSocketFactory::GetTypeId());
        raw->SetAttribute("Protocol", UintegerValue(protocol));
        Simulator::Schedule(at, [raw, bytes]() {
            Ptr<Packet> pkt = Create<Packet>(bytes.data(), bytes.size());
            EXPECT_GE(raw->SendTo(pkt, 0, InetSocketAddress(kFar, 0)), 0);
        });
    };
    rawSend(Seconds(1), AdcFlowKey::PROTO_UDP, {0x12, 0x34});         // 2 bytes: half the ports
    rawSend(Seconds(1.1), AdcFlowKey::PROTO_TCP, {0x12, 0x34, 0x00}); // 3 bytes
    rawSend(Seconds(1.2), AdcFlowKey::PROTO_UDP, {0x12, 0x34, 0x13, 0x88}); // ports 4660 -> 5000
    AdcRemoveQueueDiscsEverywhere(); // truncated headers: see adc-test-raw-packets.h
    Simulator::Run();

    ASSERT_EQ(traces.drops.size(), 2u);
    EXPECT_EQ(traces.drops[0].reason, "truncated-transport-header");
    EXPECT_EQ(traces.drops[0].size, 2u);
    EXPECT_EQ(traces.drops[1].reason, "truncated-transport-header");
    EXPECT_EQ(traces.drops[1].size, 3u);
    // Exactly 4 bytes are enough to read the ports.
    ASSERT_EQ(traces.matches.size(), 1u);
    EXPECT_EQ(traces.matches[0].rule, "pbr-udp");
    EXPECT_EQ(traces.matches[0].flow.srcPort, 0x1234);
    EXPECT_EQ(traces.matches[0].flow.dstPort, 5000);
    EXPECT_EQ(arrivedAtA, 1u); // the dropped ones were not left to static routing
}

TEST_F(AdcPolicyRoutingTest, RuleMatchFiresOncePerPacketAndPassLeavesPacketsToStaticRouting)
{
    Ptr<Node> s = MakeNode();
    Ptr<Node> r = MakeNode();
    Ptr<Node> a = MakeNode();
    Ptr<Node> z = MakeNode();
    const LinkEnds sr = Link(s, r, "10.0.1.0");
    const LinkEnds ra = Link(r, a, "10.0.2.0");
    const LinkEnds rz = Link(r, z, "10.0.4.0");
    StaticOf(s)->SetDefaultRoute(sr.addrB, sr.ifA);
    StaticOf(r)->SetDefaultRoute(rz.addrB, rz.ifA);
    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);
    AdcPolicyRule pass;
    pass.name = "pass-7000";
    pass.protocol = AdcFlowKey::PROTO_UDP;
    pass.dstPorts = AdcPortRange(7000, 7000);
    pass.action = AdcPolicyRule::PASS;
    AdcPolicyRule toA;
    toA.name = "to-A";
    toA.protocol = AdcFlowKey::PROTO_UDP;
    toA.nextHops = {Hop(ra.ifA, ra.addrB, "hopA")};
    pbr->AddRule(pass);
    pbr->AddRule(toA);
    PbrTraces traces;
    traces.Connect(pbr);
    UdpRecorder rec;
    MakeSink(a);
    MakeSink(z);
    for (uint16_t port : {5000, 7000})
    {
        rec.Listen(a, "A", port);
        rec.Listen(z, "Z", port);
    }
    Ptr<Socket> tx = UdpSender(s, Ipv4Address::GetAny(), 40000);
    for (int k = 0; k < 5; ++k)
    {
        SendAt(Seconds(1) + MilliSeconds(k), tx, kFar, k % 2 ? 7000 : 5000);
    }
    Simulator::Run();

    ASSERT_EQ(traces.matches.size(), 5u);
    for (std::size_t k = 0; k < 5; ++k)
    {
        const MatchEvent& m = traces.matches[k];
        const bool passed = k % 2 == 1;
        EXPECT_EQ(m.rule, passed ? "pass-7000" : "to-A");
        EXPECT_EQ(m.hop, passed ? "" : "hopA");
        EXPECT_EQ(m.ingress, sr.ifB);
        EXPECT_EQ(m.flow, AdcFlowKey(sr.addrA, kFar, 40000, passed ? 7000 : 5000, 17));
    }
    EXPECT_EQ(pbr->GetRuleHits(0), 2u);
    EXPECT_EQ(pbr->GetRuleHits(1), 3u);
    ASSERT_EQ(rec.At("A").size(), 3u);
    ASSERT_EQ(rec.At("Z").size(), 2u);
    for (const UdpRx& rx : rec.At("Z"))
    {
        EXPECT_EQ(rx.dstPort, 7000);
    }

    std::ostringstream table;
    pbr->PrintRoutingTable(Create<OutputStreamWrapper>(&table));
    EXPECT_TRUE(Has(table.str(), "#0 pass-7000") && Has(table.str(), "dport=7000-7000 PASS") &&
                Has(table.str(), "hits=2") && Has(table.str(), "#1 to-A") &&
                Has(table.str(), "hopA[if " + std::to_string(ra.ifA)) && Has(table.str(), "hits=3"))
        << table.str();
}

TEST_F(AdcPolicyRoutingTest, RouteOutputUsesRulesForeignSourcesAndFallsBackToStatic)
{
    // R sends itself: to 10.200/16 a rule picks A; anything else follows R's default to Z.
    Ptr<Node> r = MakeNode();
    Ptr<Node> a = MakeNode();
    Ptr<Node> z = MakeNode();
    const LinkEnds ra = Link(r, a, "10.0.2.0");
    const LinkEnds rz = Link(r, z, "10.0.4.0");
    StaticOf(r)->SetDefaultRoute(rz.addrB, rz.ifA);
    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);
    AdcPolicyRule out;
    out.name = "out-A";
    out.protocol = AdcFlowKey::PROTO_UDP;
    out.dstNet = Ipv4Address("10.200.0.0");
    out.dstMask = Ipv4Mask("255.255.0.0");
    out.nextHops = {Hop(ra.ifA, ra.addrB, "A")};
    pbr->AddRule(out);
    PbrTraces traces;
    traces.Connect(pbr);
    UdpRecorder rec;
    MakeSink(a);
    MakeSink(z);
    rec.Listen(a, "A", 5000);
    rec.Listen(z, "Z", 5000);

    const Ipv4Address other("10.201.0.1");
    const Ipv4Address foreign("10.77.0.5");
    const Ipv4Address usip("10.66.0.7");
    Ptr<Socket> own = UdpSender(r, Ipv4Address::GetAny(), 3000);
    Ptr<Socket> spoof = UdpSender(r, foreign, 3333);
    SendAt(Seconds(1.0), own, kFar, 5000, 101);    // (c) rule, own source
    SendAt(Seconds(1.1), spoof, kFar, 5000, 102);  // (a) rule, foreign source kept
    SendAt(Seconds(1.2), own, other, 5000, 103);   // (d) static, own source
    SendAt(Seconds(1.3), spoof, other, 5000, 104); // (a) static next hop, foreign source kept
    Simulator::Schedule(Seconds(1.4), [pbr, usip]() {
        pbr->AddOutputSource(AdcFlowKey(usip, kFar, 3000, 5000, AdcFlowKey::PROTO_UDP));
    });
    SendAt(Seconds(1.4), own, kFar, 5000, 105); // (b) rule, registered source taken once
    SendAt(Seconds(1.5), own, kFar, 5000, 106); // (c) again: the registration was taken
    Simulator::Run();

    std::map<uint32_t, UdpRx> bySize;
    for (const UdpRx& rx : rec.All())
    {
        bySize[rx.size] = rx;
    }
    ASSERT_EQ(bySize.size(), 6u);
    auto expect = [&](uint32_t size, const std::string& at, Ipv4Address src, Ipv4Address dst) {
        EXPECT_EQ(bySize[size].at, at) << size;
        EXPECT_EQ(bySize[size].src, src) << size;
        EXPECT_EQ(bySize[size].dst, dst) << size;
    };
    expect(101, "A", ra.addrA, kFar);
    expect(102, "A", foreign, kFar);
    expect(103, "Z", rz.addrA, other);
    expect(104, "Z", foreign, other);
    expect(105, "A", usip, kFar);
    expect(106, "A", ra.addrA, kFar);
    EXPECT_EQ(bySize[102].srcPort, 3333);
    EXPECT_FALSE(pbr->GetPendingOutputSource().has_value());

    // The four packets the rule routed, marked as locally originated.
    ASSERT_EQ(traces.matches.size(), 4u);
    for (const MatchEvent& m : traces.matches)
    {
        EXPECT_EQ(m.rule, "out-A");
        EXPECT_EQ(m.hop, "A");
        EXPECT_EQ(m.ingress, AdcPolicyRouting::LOCAL_ORIGIN);
    }
    EXPECT_EQ(traces.matches[1].flow.src, AdcIpAddress(foreign));
    EXPECT_EQ(traces.matches[2].flow.src, AdcIpAddress(usip));
}

// REQ: CRD-07 (USIP: each connection to the origin gets its own client's address)
TEST_F(AdcPolicyRoutingTest, RegisteredOutputSourcesGoToTheirOwnConnectionsUntilRemoved)
{
    Ptr<Node> r = MakeNode();
    Ptr<Node> z = MakeNode();
    const LinkEnds rz = Link(r, z, "10.0.4.0");
    StaticOf(r)->SetDefaultRoute(rz.addrB, rz.ifA);
    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);
    const Ipv4Address other("10.201.0.1");
    const AdcFlowKey first(Ipv4Address("10.77.0.1"), kFar, 30000, 80, AdcFlowKey::PROTO_TCP);
    const AdcFlowKey second(Ipv4Address("10.77.0.2"), kFar, 30001, 80, AdcFlowKey::PROTO_TCP);
    const AdcFlowKey third(Ipv4Address("10.77.0.3"), other, 30002, 80, AdcFlowKey::PROTO_TCP);
    EXPECT_TRUE(pbr->AddOutputSource(first));
    EXPECT_TRUE(pbr->AddOutputSource(second));
    EXPECT_TRUE(pbr->AddOutputSource(third));
    EXPECT_FALSE(pbr->AddOutputSource(second)); // one registration per connection
    EXPECT_EQ(pbr->GetNOutputSources(), 3U);
    EXPECT_GT(pbr->GetPerFlowStateBytes(), 0U);

    // What TCP's Connect asks (SetupEndpoint): a destination, no source, no packet.
    auto sourceTowards = [&](Ipv4Address dst) {
        Ipv4Header header;
        header.SetDestination(dst);
        Socket::SocketErrno err = Socket::ERROR_NOTERROR;
        Ptr<Ipv4Route> route =
            r->GetObject<Ipv4>()->GetRoutingProtocol()->RouteOutput(nullptr, header, nullptr, err);
        return route ? route->GetSource() : Ipv4Address::GetAny();
    };
    EXPECT_EQ(sourceTowards(kFar), second.src.GetIpv4()); // the newest: the one connecting
    EXPECT_EQ(sourceTowards(other), third.src.GetIpv4()); // by destination
    EXPECT_EQ(sourceTowards(kFar), first.src.GetIpv4());
    EXPECT_EQ(sourceTowards(kFar), rz.addrA); // none pending: the node's own address
    EXPECT_FALSE(pbr->GetPendingOutputSource().has_value());
    EXPECT_EQ(pbr->GetNOutputSources(), 3U); // taken, still registered while they are open

    EXPECT_TRUE(pbr->RemoveOutputSource(first));
    EXPECT_FALSE(pbr->RemoveOutputSource(first));
    EXPECT_TRUE(pbr->RemoveOutputSource(second));
    EXPECT_TRUE(pbr->RemoveOutputSource(third));
    EXPECT_EQ(pbr->GetNOutputSources(), 0U);
    EXPECT_EQ(pbr->GetPerFlowStateBytes(), 0U);
}

} // namespace
