/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcPathTracer: hop sequences over a routed chain and through a TCP proxy, unwatched
 * nodes, pure ACKs, the flow filter, time windows, UDP, the CSV file, and malformed packets fed
 * straight into the trace sink. Expected sequences are written by hand from the topologies.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-path-tracer.h"
#include "ns3/application.h"
#include "ns3/boolean.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/node-container.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/udp-echo-helper.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace ns3
{

/**
 * \brief A test-only TCP relay: accepts connections on a port and, when an upstream address is
 * set, opens a new connection to it per accepted one and copies bytes both ways (a proxy);
 * without an upstream it echoes the bytes back (a server). Relayed bytes go out in new packets,
 * as a real proxy's would. (Its TypeId deliberately does not start with "ns3::Adc".)
 */
class PathTracerTestRelay : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::PathTracerTestRelay")
                                .SetParent<Application>()
                                .AddConstructor<PathTracerTestRelay>();
        return tid;
    }

    /// \param port listening port \param upstream where to relay (invalid Address: echo)
    void Setup(uint16_t port, Address upstream)
    {
        m_port = port;
        m_upstream = upstream;
    }

    /// \return bytes sent on by this relay
    uint64_t GetRelayed() const
    {
        return m_relayed;
    }

  protected:
    void DoDispose() override
    {
        m_listen = nullptr;
        m_down = nullptr;
        m_up = nullptr;
        Application::DoDispose();
    }

  private:
    void StartApplication() override
    {
        m_listen = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        m_listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
        m_listen->Listen();
        m_listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&PathTracerTestRelay::Accepted, this));
    }

    void StopApplication() override
    {
        for (const Ptr<Socket>& s : {m_listen, m_down, m_up})
        {
            if (s)
            {
                s->Close();
            }
        }
    }

    /// \param s the accepted connection \param from its peer
    void Accepted(Ptr<Socket> s, const Address& /* from */)
    {
        m_down = s;
        s->SetRecvCallback(MakeCallback(&PathTracerTestRelay::FromDown, this));
        if (!m_upstream.IsInvalid())
        {
            m_up = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
            m_up->Bind();
            m_up->Connect(m_upstream);
            m_up->SetRecvCallback(MakeCallback(&PathTracerTestRelay::FromUp, this));
        }
    }

    /// \param s the downstream socket has data
    void FromDown(Ptr<Socket> s)
    {
        Relay(s, m_up ? m_up : s);
    }

    /// \param s the upstream socket has data
    void FromUp(Ptr<Socket> s)
    {
        Relay(s, m_down);
    }

    /// \param from socket to read \param to socket to write the same number of bytes to
    void Relay(Ptr<Socket> from, Ptr<Socket> to)
    {
        while (Ptr<Packet> p = from->Recv())
        {
            if (p->GetSize() == 0)
            {
                break;
            }
            m_relayed += p->GetSize();
            to->Send(Create<Packet>(p->GetSize()));
        }
    }

    uint16_t m_port{0};    //!< listening port
    Address m_upstream;    //!< relay target (invalid: echo)
    Ptr<Socket> m_listen;  //!< listening socket
    Ptr<Socket> m_down;    //!< accepted connection
    Ptr<Socket> m_up;      //!< upstream connection
    uint64_t m_relayed{0}; //!< bytes sent on
};

NS_OBJECT_ENSURE_REGISTERED(PathTracerTestRelay);

} // namespace ns3

namespace
{

/// Every test tears its simulation down.
class AdcPathTracerTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

using Hops = std::vector<std::string>;

/// The chain C - R1 - R2 - S with static routes.
struct Chain
{
    Ptr<Node> c, r1, r2, s;                //!< the nodes
    Ipv4Address cAddr{"10.1.1.1"};         //!< C's address (C-R1 link)
    Ipv4Address sAddr{"10.1.3.2"};         //!< S's address (R2-S link)
    static constexpr uint16_t C_PORT = 10; //!< sink port at C
    static constexpr uint16_t S_PORT = 9;  //!< sink port at S
};

/// \param a node \param b node \param base network, e.g. "10.1.1.0": a /24 point-to-point link
void
Link(Ptr<Node> a, Ptr<Node> b, const char* base)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("2ms"));
    NetDeviceContainer devs = p2p.Install(a, b);
    Ipv4AddressHelper addr(base, "255.255.255.0");
    addr.Assign(devs);
}

/// \return the chain; interfaces: C 1, R1 1 (to C) 2 (to R2), R2 1 (to R1) 2 (to S), S 1
Chain
BuildChain()
{
    Chain ch;
    NodeContainer nodes;
    nodes.Create(4);
    ch.c = nodes.Get(0);
    ch.r1 = nodes.Get(1);
    ch.r2 = nodes.Get(2);
    ch.s = nodes.Get(3);
    InternetStackHelper stack;
    stack.Install(nodes);
    Link(ch.c, ch.r1, "10.1.1.0");
    Link(ch.r1, ch.r2, "10.1.2.0");
    Link(ch.r2, ch.s, "10.1.3.0");
    Ipv4StaticRoutingHelper srh;
    srh.GetStaticRouting(ch.c->GetObject<Ipv4>())->SetDefaultRoute(Ipv4Address("10.1.1.2"), 1);
    srh.GetStaticRouting(ch.r1->GetObject<Ipv4>())
        ->AddNetworkRouteTo(Ipv4Address("10.1.3.0"),
                            Ipv4Mask("255.255.255.0"),
                            Ipv4Address("10.1.2.2"),
                            2);
    srh.GetStaticRouting(ch.r2->GetObject<Ipv4>())
        ->AddNetworkRouteTo(Ipv4Address("10.1.1.0"),
                            Ipv4Mask("255.255.255.0"),
                            Ipv4Address("10.1.2.1"),
                            1);
    srh.GetStaticRouting(ch.s->GetObject<Ipv4>())->SetDefaultRoute(Ipv4Address("10.1.3.1"), 1);
    return ch;
}

/// \param from sender \param to receiver node \param toAddr its address \param port sink port
/// \param start when the transfer starts: 1000 bytes over TCP, with a PacketSink at \p to
void
Transfer(Ptr<Node> from, Ptr<Node> to, Ipv4Address toAddr, uint16_t port, double start)
{
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    sink.Install(to).Start(Seconds(0));
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(toAddr, port));
    bulk.SetAttribute("MaxBytes", UintegerValue(1000));
    bulk.Install(from).Start(Seconds(start));
}

/// \param ch chain: a request C->S at 1 s and a response S->C at 2 s
void
RequestAndResponse(const Chain& ch)
{
    Transfer(ch.c, ch.s, ch.sAddr, Chain::S_PORT, 1.0);
    Transfer(ch.s, ch.c, ch.cAddr, Chain::C_PORT, 2.0);
}

/// \param ch chain \return a tracer watching all four nodes
Ptr<AdcPathTracer>
WatchAll(const Chain& ch)
{
    Ptr<AdcPathTracer> t = CreateObject<AdcPathTracer>();
    t->AddNode(ch.c, "C");
    t->AddNode(ch.r1, "R1");
    t->AddNode(ch.r2, "R2");
    t->AddNode(ch.s, "S");
    return t;
}

/// \brief Run the simulation until 5 s (every scenario is over by then).
void
RunFiveSeconds()
{
    Simulator::Stop(Seconds(5));
    Simulator::Run();
}

/// \return the lines of \p path (without their "\n")
std::vector<std::string>
ReadLines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line))
    {
        lines.push_back(line);
    }
    return lines;
}

/// \param src source port \param dst destination port \param seq sequence number
/// \param payload payload bytes \return a TCP segment (header and payload)
Ptr<Packet>
TcpSegment(uint16_t src, uint16_t dst, uint32_t seq, uint32_t payload)
{
    Ptr<Packet> p = Create<Packet>(payload);
    TcpHeader th;
    th.SetSourcePort(src);
    th.SetDestinationPort(dst);
    th.SetSequenceNumber(SequenceNumber32(seq));
    th.SetFlags(TcpHeader::ACK);
    p->AddHeader(th);
    return p;
}

/// \param proto IP protocol \return an IPv4 header 10.0.0.1 -> 10.0.0.2
Ipv4Header
IpHeader(uint8_t proto)
{
    Ipv4Header h;
    h.SetSource(Ipv4Address("10.0.0.1"));
    h.SetDestination(Ipv4Address("10.0.0.2"));
    h.SetProtocol(proto);
    return h;
}

/// \param n number of nodes \return nodes with the Internet stack
NodeContainer
StackNodes(uint32_t n)
{
    NodeContainer nodes;
    nodes.Create(n);
    InternetStackHelper().Install(nodes);
    return nodes;
}

// ---------------------------------------------------------------------------------------------

TEST_F(AdcPathTracerTest, ChainRequestAndResponseMergeIntoOneSequence)
{
    Chain ch = BuildChain();
    RequestAndResponse(ch);
    Ptr<AdcPathTracer> t = WatchAll(ch);
    std::vector<Hops> fired;
    t->TraceConnectWithoutContext(
        "Leg",
        Callback<void, const AdcFlowKey&, const Hops&>(
            [&fired](const AdcFlowKey&, const Hops& nodes) { fired.push_back(nodes); }));
    RunFiveSeconds();

    const std::vector<AdcPathTracer::Leg> legs = t->GetLegs();
    ASSERT_EQ(legs.size(), 2U);
    EXPECT_EQ(legs[0].nodes, (Hops{"C", "R1", "R2", "S"}));
    EXPECT_EQ(legs[1].nodes, (Hops{"S", "R2", "R1", "C"}));
    EXPECT_TRUE(legs[0].complete);
    EXPECT_TRUE(legs[1].complete);
    EXPECT_EQ(legs[0].flow.src, AdcIpAddress(ch.cAddr));
    EXPECT_EQ(legs[0].flow.dst, AdcIpAddress(ch.sAddr));
    EXPECT_EQ(legs[0].flow.dstPort, Chain::S_PORT);
    EXPECT_EQ(legs[0].flow.protocol, AdcFlowKey::PROTO_TCP);
    EXPECT_EQ(legs[1].flow.src, AdcIpAddress(ch.sAddr));
    EXPECT_EQ(legs[1].flow.dstPort, Chain::C_PORT);
    // The request starts after 1 s plus a handshake, the response after 2 s.
    EXPECT_GT(legs[0].start, Seconds(1));
    EXPECT_LT(legs[0].start, Seconds(2));
    EXPECT_GT(legs[1].start, Seconds(2));

    const Hops seq = t->GetHopSequence();
    EXPECT_EQ(seq, (Hops{"C", "R1", "R2", "S", "R2", "R1", "C"}));
    EXPECT_EQ(AdcPathTracer::ToString(seq), "C > R1 > R2 > S > R2 > R1 > C");
    ASSERT_EQ(fired.size(), 2U);
    EXPECT_EQ(fired[0], legs[0].nodes);
    EXPECT_EQ(fired[1], legs[1].nodes);
    EXPECT_EQ(t->GetMalformed(), 0U);
}

TEST_F(AdcPathTracerTest, TimeWindowSelectsLegsByStart)
{
    Chain ch = BuildChain();
    RequestAndResponse(ch);
    Ptr<AdcPathTracer> t = WatchAll(ch);
    RunFiveSeconds();
    EXPECT_EQ(t->GetHopSequence(Seconds(2)), (Hops{"S", "R2", "R1", "C"}));
    EXPECT_EQ(t->GetHopSequence(Seconds(0), Seconds(2)), (Hops{"C", "R1", "R2", "S"}));
    EXPECT_TRUE(t->GetHopSequence(Seconds(3)).empty());
}

TEST_F(AdcPathTracerTest, ProxyLegsMergeThroughTheProxy)
{
    // C - P - S: the relay on P terminates C's connection and opens one to S, which echoes.
    NodeContainer nodes = StackNodes(3);
    Ptr<Node> c = nodes.Get(0);
    Ptr<Node> p = nodes.Get(1);
    Ptr<Node> s = nodes.Get(2);
    Link(c, p, "10.2.1.0"); // C 10.2.1.1, P 10.2.1.2
    Link(p, s, "10.2.2.0"); // P 10.2.2.1, S 10.2.2.2
    Ptr<PathTracerTestRelay> server = CreateObject<PathTracerTestRelay>();
    server->Setup(80, Address());
    s->AddApplication(server);
    Ptr<PathTracerTestRelay> proxy = CreateObject<PathTracerTestRelay>();
    proxy->Setup(8080, InetSocketAddress(Ipv4Address("10.2.2.2"), 80));
    p->AddApplication(proxy);
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address("10.2.1.2"), 8080));
    bulk.SetAttribute("MaxBytes", UintegerValue(1000));
    bulk.Install(c).Start(Seconds(1));

    Ptr<AdcPathTracer> t = CreateObject<AdcPathTracer>();
    t->AddNode(c, "C");
    t->AddNode(p, "P");
    t->AddNode(s, "S");
    RunFiveSeconds();

    // The proxy relayed the 1000 request bytes up and the 1000 echoed bytes down.
    EXPECT_EQ(proxy->GetRelayed(), 2000U);
    const std::vector<AdcPathTracer::Leg> legs = t->GetLegs();
    ASSERT_EQ(legs.size(), 4U);
    EXPECT_EQ(legs[0].nodes, (Hops{"C", "P"}));
    EXPECT_EQ(legs[0].flow.dstPort, 8080);
    EXPECT_EQ(legs[1].nodes, (Hops{"P", "S"}));
    EXPECT_EQ(legs[1].flow.dstPort, 80);
    EXPECT_EQ(legs[2].nodes, (Hops{"S", "P"}));
    EXPECT_EQ(legs[2].flow.srcPort, 80);
    EXPECT_EQ(legs[3].nodes, (Hops{"P", "C"}));
    EXPECT_EQ(legs[3].flow.srcPort, 8080);
    EXPECT_EQ(AdcPathTracer::ToString(t->GetHopSequence()), "C > P > S > P > C");
}

TEST_F(AdcPathTracerTest, UnwatchedNodesDoNotAppear)
{
    Chain ch = BuildChain();
    RequestAndResponse(ch);
    Ptr<AdcPathTracer> t = CreateObject<AdcPathTracer>();
    t->AddNode(ch.c, "C");
    t->AddNode(ch.r1, "R1");
    t->AddNode(ch.s, "S");
    RunFiveSeconds();
    EXPECT_EQ(t->GetHopSequence(), (Hops{"C", "R1", "S", "R1", "C"}));
}

TEST_F(AdcPathTracerTest, LegOfAnUnwatchedSenderStartsAtTheFirstWatchedNode)
{
    Chain ch = BuildChain();
    RequestAndResponse(ch);
    Ptr<AdcPathTracer> t = CreateObject<AdcPathTracer>();
    t->AddNode(ch.r1, "R1");
    t->AddNode(ch.r2, "R2");
    t->AddNode(ch.s, "S");
    RunFiveSeconds();
    const std::vector<AdcPathTracer::Leg> legs = t->GetLegs();
    ASSERT_EQ(legs.size(), 2U);
    EXPECT_EQ(legs[0].nodes, (Hops{"R1", "R2", "S"}));
    EXPECT_TRUE(legs[0].complete);
    // C is not watched, so nothing delivers the response at a watched node.
    EXPECT_EQ(legs[1].nodes, (Hops{"S", "R2", "R1"}));
    EXPECT_FALSE(legs[1].complete);
}

TEST_F(AdcPathTracerTest, PureAcksAreIgnored)
{
    Chain ch = BuildChain();
    Transfer(ch.c, ch.s, ch.sAddr, Chain::S_PORT, 1.0); // S only answers with SYN-ACK and ACKs
    uint32_t tcpSentByS = 0;
    ch.s->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "SendOutgoing",
        Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(
            [&tcpSentByS](const Ipv4Header& h, Ptr<const Packet>, uint32_t) {
                tcpSentByS += h.GetProtocol() == AdcFlowKey::PROTO_TCP ? 1 : 0;
            }));
    Ptr<AdcPathTracer> t = WatchAll(ch);
    RunFiveSeconds();
    EXPECT_GT(tcpSentByS, 1U); // S did send TCP packets, all without payload
    ASSERT_EQ(t->GetNLegs(), 1U);
    EXPECT_EQ(t->GetLegs()[0].nodes, (Hops{"C", "R1", "R2", "S"}));
}

// REQ: CORE-02 (at scale the tracer follows only chosen clients, through the filter)
TEST_F(AdcPathTracerTest, FlowFilterKeepsOnlyChosenLegs)
{
    Chain ch = BuildChain();
    RequestAndResponse(ch);
    Ptr<AdcPathTracer> t = WatchAll(ch);
    const AdcIpAddress client(ch.cAddr);
    t->SetFlowFilter(Callback<bool, const AdcFlowKey&>(
        [client](const AdcFlowKey& k) { return k.src == client; }));
    Ptr<AdcPathTracer> none = WatchAll(ch);
    none->SetFlowFilter(Callback<bool, const AdcFlowKey&>([](const AdcFlowKey&) { return false; }));
    RunFiveSeconds();
    ASSERT_EQ(t->GetNLegs(), 1U);
    EXPECT_EQ(t->GetLegs()[0].flow.src, client);
    EXPECT_EQ(t->GetHopSequence(), (Hops{"C", "R1", "R2", "S"}));
    EXPECT_EQ(none->GetNLegs(), 0U);
}

TEST_F(AdcPathTracerTest, UdpLegsOnlyWhenIncludeUdp)
{
    Chain ch = BuildChain();
    UdpEchoServerHelper echo(7);
    echo.Install(ch.s).Start(Seconds(0));
    UdpEchoClientHelper client(ch.sAddr, 7);
    client.SetAttribute("MaxPackets", UintegerValue(1));
    client.SetAttribute("PacketSize", UintegerValue(100));
    client.Install(ch.c).Start(Seconds(1));
    Ptr<AdcPathTracer> udp = WatchAll(ch);
    udp->SetAttribute("IncludeUdp", BooleanValue(true));
    Ptr<AdcPathTracer> tcpOnly = WatchAll(ch);
    RunFiveSeconds();
    EXPECT_EQ(AdcPathTracer::ToString(udp->GetHopSequence()), "C > R1 > R2 > S > R2 > R1 > C");
    ASSERT_EQ(udp->GetNLegs(), 2U);
    EXPECT_EQ(udp->GetLegs()[0].flow.protocol, AdcFlowKey::PROTO_UDP);
    EXPECT_EQ(udp->GetLegs()[0].flow.dstPort, 7);
    EXPECT_EQ(tcpOnly->GetNLegs(), 0U);
}

TEST_F(AdcPathTracerTest, CsvHeaderAndRowsAreExact)
{
    Chain ch = BuildChain();
    RequestAndResponse(ch);
    Ptr<AdcPathTracer> t = WatchAll(ch);
    RunFiveSeconds();
    const std::string file = testing::TempDir() + "adc-path-tracer-test.csv";
    t->WriteCsv(file);
    const std::vector<std::string> lines = ReadLines(file);
    const std::vector<AdcPathTracer::Leg> legs = t->GetLegs();
    ASSERT_EQ(lines.size(), 3U);
    ASSERT_EQ(legs.size(), 2U);
    EXPECT_EQ(lines[0], "leg,start_s,flow,hops");
    EXPECT_EQ(lines[1],
              "0," + AdcCsvWriter::FormatSeconds(legs[0].start) + ",TCP 10.1.1.1:" +
                  std::to_string(legs[0].flow.srcPort) + " -> 10.1.3.2:9,C > R1 > R2 > S");
    EXPECT_EQ(lines[2],
              "1," + AdcCsvWriter::FormatSeconds(legs[1].start) + ",TCP 10.1.3.2:" +
                  std::to_string(legs[1].flow.srcPort) + " -> 10.1.1.1:10,S > R2 > R1 > C");
    EXPECT_THROW(t->WriteCsv("/nonexistent-dir/x.csv"), AdcConfigError);
}

TEST_F(AdcPathTracerTest, ClearForgetsLegs)
{
    Chain ch = BuildChain();
    RequestAndResponse(ch);
    Ptr<AdcPathTracer> t = WatchAll(ch);
    Simulator::Stop(Seconds(1.9)); // the request only
    Simulator::Run();
    EXPECT_EQ(t->GetNLegs(), 1U);
    t->Clear();
    EXPECT_EQ(t->GetNLegs(), 0U);
    RunFiveSeconds(); // the response still gets recorded: the nodes stay watched
    EXPECT_EQ(t->GetHopSequence(), (Hops{"S", "R2", "R1", "C"}));
}

TEST_F(AdcPathTracerTest, UnrelatedLegsAreAppendedWithTheRepetitionKept)
{
    NodeContainer nodes = StackNodes(3);
    Ptr<AdcPathTracer> t = CreateObject<AdcPathTracer>();
    t->AddNode(nodes.Get(0), "A");
    t->AddNode(nodes.Get(1), "B");
    t->AddNode(nodes.Get(2), "X");
    const Ipv4Header h = IpHeader(AdcFlowKey::PROTO_TCP);
    Ptr<Packet> first = TcpSegment(1000, 80, 1, 10);
    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, h, first, 1);
    t->NotifyPacket(1, AdcPathTracer::LOCAL_DELIVER, h, first, 1);
    // A second flow from X to B: does not begin where the first ended (B), so kept whole.
    Ptr<Packet> second = TcpSegment(2000, 80, 1, 10);
    t->NotifyPacket(2, AdcPathTracer::SEND_OUTGOING, h, second, 1);
    t->NotifyPacket(1, AdcPathTracer::LOCAL_DELIVER, h, second, 1);
    EXPECT_EQ(t->GetHopSequence(), (Hops{"A", "B", "X", "B"}));
}

TEST_F(AdcPathTracerTest, FollowsOnePacketBySequenceAndRestartsOnRetransmission)
{
    NodeContainer nodes = StackNodes(3);
    Ptr<AdcPathTracer> t = CreateObject<AdcPathTracer>();
    t->AddNode(nodes.Get(0), "C");
    t->AddNode(nodes.Get(1), "R");
    t->AddNode(nodes.Get(2), "S");
    uint32_t fired = 0;
    t->TraceConnectWithoutContext("Leg",
                                  Callback<void, const AdcFlowKey&, const Hops&>(
                                      [&fired](const AdcFlowKey&, const Hops&) { ++fired; }));
    const Ipv4Header h = IpHeader(AdcFlowKey::PROTO_TCP);
    Ptr<Packet> seg1 = TcpSegment(1234, 80, 1, 536);
    // A second segment cut from the same buffer: same UID, next sequence number.
    Ptr<Packet> seg2 = seg1->Copy();
    TcpHeader th;
    seg2->RemoveHeader(th);
    th.SetSequenceNumber(SequenceNumber32(537));
    seg2->AddHeader(th);
    ASSERT_EQ(seg1->GetUid(), seg2->GetUid());
    Ptr<Packet> ack = TcpSegment(1234, 80, 1, 0);

    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, h, seg1, 1);
    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, h, seg2, 1);
    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, h, ack, 1);
    t->NotifyPacket(1, AdcPathTracer::UNICAST_FORWARD, h, seg1, 1);
    // seg1 is lost after R and retransmitted (same UID and sequence number).
    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, h, seg1->Copy(), 1);
    t->NotifyPacket(1, AdcPathTracer::UNICAST_FORWARD, h, seg2, 1);
    t->NotifyPacket(1, AdcPathTracer::UNICAST_FORWARD, h, seg1, 1);
    t->NotifyPacket(2, AdcPathTracer::LOCAL_DELIVER, h, seg2, 1);
    EXPECT_EQ(fired, 0U); // seg2 is not the followed packet
    t->NotifyPacket(2, AdcPathTracer::LOCAL_DELIVER, h, seg1, 1);

    const std::vector<AdcPathTracer::Leg> legs = t->GetLegs();
    ASSERT_EQ(legs.size(), 1U);
    EXPECT_EQ(legs[0].nodes, (Hops{"C", "R", "S"}));
    EXPECT_TRUE(legs[0].complete);
    EXPECT_EQ(legs[0].flow.srcPort, 1234);
    EXPECT_EQ(legs[0].flow.dstPort, 80);
    EXPECT_EQ(legs[0].flow.src, AdcIpAddress(Ipv4Address("10.0.0.1")));
    EXPECT_EQ(fired, 1U);
}

TEST_F(AdcPathTracerTest, MalformedPacketsAreCountedNotFatal)
{
    NodeContainer nodes = StackNodes(1);
    Ptr<AdcPathTracer> t = CreateObject<AdcPathTracer>();
    t->AddNode(nodes.Get(0), "C");
    std::vector<std::string> reasons;
    t->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>, const std::string&>(
            [&reasons](Ptr<const Packet>, const std::string& r) { reasons.push_back(r); }));
    const Ipv4Header tcp = IpHeader(AdcFlowKey::PROTO_TCP);
    const Ipv4Header udp = IpHeader(AdcFlowKey::PROTO_UDP);

    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, tcp, Create<Packet>(3), 1);
    EXPECT_EQ(t->GetMalformed(), 1U);
    // 20 bytes whose data offset claims a 60-byte header, then one claiming 0 bytes.
    uint8_t bytes[20] = {};
    bytes[12] = 0xF0;
    t->NotifyPacket(0, AdcPathTracer::LOCAL_DELIVER, tcp, Create<Packet>(bytes, 20), 1);
    bytes[12] = 0x00;
    t->NotifyPacket(0, AdcPathTracer::UNICAST_FORWARD, tcp, Create<Packet>(bytes, 20), 1);
    // Short UDP is ignored while UDP is not traced, malformed once it is.
    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, udp, Create<Packet>(3), 1);
    EXPECT_EQ(t->GetMalformed(), 3U);
    t->SetAttribute("IncludeUdp", BooleanValue(true));
    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, udp, Create<Packet>(3), 1);

    EXPECT_EQ(t->GetMalformed(), 4U);
    EXPECT_EQ(reasons,
              (std::vector<std::string>{"tcp-header-truncated",
                                        "tcp-data-offset-invalid",
                                        "tcp-data-offset-invalid",
                                        "udp-header-truncated"}));
    EXPECT_EQ(t->GetNLegs(), 0U);
    // A well-formed segment still starts a leg afterwards.
    t->NotifyPacket(0, AdcPathTracer::SEND_OUTGOING, tcp, TcpSegment(1, 2, 1, 5), 1);
    EXPECT_EQ(t->GetNLegs(), 1U);
    t->Clear();
    EXPECT_EQ(t->GetMalformed(), 0U);
}

TEST_F(AdcPathTracerTest, RejectsBadNodesAndIndexes)
{
    NodeContainer nodes = StackNodes(2);
    Ptr<Node> bare = CreateObject<Node>();
    Ptr<AdcPathTracer> t = CreateObject<AdcPathTracer>();
    t->AddNode(nodes.Get(0), "A");
    EXPECT_THROW(t->AddNode(nodes.Get(1), "A"), AdcConfigError); // name taken
    EXPECT_THROW(t->AddNode(nodes.Get(0), "B"), AdcConfigError); // node already watched
    EXPECT_THROW(t->AddNode(nodes.Get(1), ""), AdcConfigError);  // empty name
    EXPECT_THROW(t->AddNode(bare, "bare"), AdcConfigError);      // no Internet stack
    EXPECT_THROW(t->AddNode(nullptr, "null"), AdcConfigError);
    EXPECT_NO_THROW(t->AddNode(nodes.Get(1), "B"));
    EXPECT_THROW(t->NotifyPacket(2,
                                 AdcPathTracer::SEND_OUTGOING,
                                 IpHeader(AdcFlowKey::PROTO_TCP),
                                 TcpSegment(1, 2, 1, 5),
                                 1),
                 AdcConfigError);
}

} // namespace
