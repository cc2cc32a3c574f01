/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the shared datapath (AdcDatapath, its IPv4 and IPv6 hooks, AdcPacketRewrite): each
 * verdict (PASS, FORWARD, REWRITE, ENCAPSULATE, DECAPSULATE, DELIVER_LOCAL, DROP) carried out on
 * IPv4 and on IPv6 through a tiny topology, with the header fields read where the packet arrives
 * (the far node's IP "Rx" trace, parsed here) and sockets that accept it only with right checksums;
 * truncated, malformed and fragmented transport headers dropped with their reasons; Install's
 * aggregation (GetObject finds the datapath, one of each kind per node, a node without list
 * routing refused). The ILB aggregated to its node and balancing with nothing but its nodes
 * left: ilb-datapath-test.cc.
 *
 * Topology: C -- CSMA "left" -- M -- CSMA "right" -- {A, B}. M runs a test datapath whose
 * verdict each test chooses; its static routing sends the VIP (owned by B's loopback) to A, so
 * a packet reaching B toward the VIP proves a FORWARD's next hop.
 */

#include "adc-test-fixtures.h"
#include "adc-test-raw-packets.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-datapath-hook.h"
#include "ns3/adc-datapath.h"
#include "ns3/adc-packet-rewrite.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/ilb-appliance.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv6-address-generator.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;
using adctest::ConfigErrorOf;
using adctest::Has;

namespace
{

const AdcIpAddress kVip4(Ipv4Address("10.9.9.9"));
const AdcIpAddress kVip6(Ipv6Address("fd00:9::9"));
constexpr uint16_t kClientPort = 40000;
constexpr uint16_t kPort = 7000;
constexpr uint8_t kShimProtocol = 253; // RFC 3692 experimental: the test's own encapsulation
constexpr uint32_t kShimTag = 0xadc0ffee;
constexpr uint32_t kPayload = 100; // UDP payload bytes of every test datagram

/// A 4-byte shim between the outer IP header and the inner datagram (test-only encapsulation).
class TestShimHeader : public Header
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::AdcDatapathTestShimHeader")
                                .SetParent<Header>()
                                .SetGroupName("AdcTest")
                                .AddConstructor<TestShimHeader>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 4;
    }

    void Serialize(Buffer::Iterator i) const override
    {
        i.WriteHtonU32(tag);
    }

    uint32_t Deserialize(Buffer::Iterator i) override
    {
        tag = i.ReadNtohU32();
        return 4;
    }

    void Print(std::ostream& os) const override
    {
        os << "tag=" << tag;
    }

    uint32_t tag{0}; //!< the tag
};

/// A datapath whose verdict the test chooses; it records what it saw and how sending went.
class TestDatapath : public AdcDatapath
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::AdcDatapathTestDatapath")
                                .SetParent<AdcDatapath>()
                                .SetGroupName("AdcTest")
                                .AddConstructor<TestDatapath>();
        return tid;
    }

    bool Process(const AdcIngress& in, AdcEgress& egress) override
    {
        const AdcVerdict v = decide ? decide(in) : AdcVerdict::Pass();
        if (AdcHasPorts(in.flow.protocol))
        {
            seen.push_back(in);
        }
        if (v.action == AdcVerdict::PASS)
        {
            return false;
        }
        const std::string failure = egress.Send(v);
        failures.push_back(failure);
        if (!failure.empty())
        {
            DropPacket(in.packet, failure);
        }
        return true;
    }

    std::function<AdcVerdict(const AdcIngress&)> decide; //!< the verdict (null: PASS)
    std::vector<AdcIngress> seen;                        //!< TCP and UDP packets offered
    std::vector<std::string> failures;                   //!< Send's answers
};

NS_OBJECT_ENSURE_REGISTERED(TestDatapath);

/// One IP header as read off the wire.
struct IpFields
{
    AdcIpAddress src;    //!< source
    AdcIpAddress dst;    //!< destination
    uint8_t protocol{0}; //!< protocol / next header
    uint8_t ttl{0};      //!< TTL / hop limit
};

/// \param p a packet starting with an IPv4 or IPv6 header (removed) \return its fields
IpFields
PopIp(Ptr<Packet> p)
{
    uint8_t first = 0;
    p->CopyData(&first, 1);
    IpFields f;
    if ((first >> 4) == 4)
    {
        Ipv4Header h;
        p->RemoveHeader(h);
        f = {h.GetSource(), h.GetDestination(), h.GetProtocol(), h.GetTtl()};
    }
    else
    {
        Ipv6Header h;
        p->RemoveHeader(h);
        f = {h.GetSource(), h.GetDestination(), h.GetNextHeader(), h.GetHopLimit()};
    }
    return f;
}

/// \return a socket address for \p a and \p port
Address
Sock(const AdcIpAddress& a, uint16_t port)
{
    return a.IsV4() ? Address(InetSocketAddress(a.GetIpv4(), port))
                    : Address(Inet6SocketAddress(a.GetIpv6(), port));
}

/// \return the address and port of a socket address
std::pair<AdcIpAddress, uint16_t>
Split(const Address& a)
{
    if (InetSocketAddress::IsMatchingType(a))
    {
        const InetSocketAddress s = InetSocketAddress::ConvertFrom(a);
        return {s.GetIpv4(), s.GetPort()};
    }
    const Inet6SocketAddress s = Inet6SocketAddress::ConvertFrom(a);
    return {s.GetIpv6(), s.GetPort()};
}

/// A datagram a socket accepted (so its transport checksum was right).
struct Accepted
{
    std::string at;   //!< node name
    AdcIpAddress src; //!< the sender as the socket saw it
    uint16_t srcPort; //!< its port
};

/**
 * \brief C -- M -- {A, B} with a test datapath on M, for one family (the test's parameter).
 * Checksums are on, so a datagram with a wrong transport checksum never reaches a socket.
 */
class AdcDatapathTest : public ::testing::TestWithParam<bool>
{
  protected:
    void SetUp() override
    {
        Config::SetGlobal("ChecksumEnabled", BooleanValue(true));
        Ipv4AddressGenerator::Reset();
        Ipv6AddressGenerator::Reset();
        m_v6 = GetParam();
        Build();
    }

    void TearDown() override
    {
        Simulator::Destroy();
        Config::SetGlobal("ChecksumEnabled", BooleanValue(false));
        Ipv4AddressGenerator::Reset();
        Ipv6AddressGenerator::Reset();
    }

    /// Nodes, links, dual-stack addresses, routes, the VIP on B, the datapath on M.
    void Build()
    {
        m_c = CreateObject<Node>();
        m_m = CreateObject<Node>();
        m_a = CreateObject<Node>();
        m_b = CreateObject<Node>();
        NodeContainer all(m_c, m_m, m_a, m_b);
        AdcMakeListStackHelper(true).Install(all);
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            // The addresses are unique by construction: no tentative period.
            all.Get(i)->GetObject<Icmpv6L4Protocol>()->SetAttribute("DAD", BooleanValue(false));
        }
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", StringValue("100Mbps"));
        csma.SetChannelAttribute("Delay", TimeValue(MicroSeconds(20)));
        NetDeviceContainer left = csma.Install(NodeContainer(m_m, m_c));
        NetDeviceContainer right = csma.Install(NodeContainer(m_m, m_a, m_b));

        Ipv4AddressHelper l4("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer il4 = l4.Assign(left);
        Ipv4AddressHelper r4("10.2.2.0", "255.255.255.0");
        Ipv4InterfaceContainer ir4 = r4.Assign(right);
        Ipv4StaticRoutingHelper routing4;
        routing4.GetStaticRouting(m_c->GetObject<Ipv4>())->SetDefaultRoute(il4.GetAddress(0), 1);
        for (Ptr<Node> n : {m_a, m_b})
        {
            routing4.GetStaticRouting(n->GetObject<Ipv4>())->SetDefaultRoute(ir4.GetAddress(0), 1);
        }
        // The VIP's route on M leads to A; only B owns it.
        routing4.GetStaticRouting(m_m->GetObject<Ipv4>())
            ->AddHostRouteTo(kVip4.GetIpv4(), ir4.GetAddress(1), 2);
        m_b->GetObject<Ipv4>()->AddAddress(
            0,
            Ipv4InterfaceAddress(kVip4.GetIpv4(), "255.255.255.255"));

        Ipv6AddressHelper l6;
        l6.SetBase(Ipv6Address("fd00:1::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer il6 = l6.Assign(left);
        il6.SetForwarding(0, true);
        il6.SetDefaultRouteInAllNodes(0);
        Ipv6AddressHelper r6;
        r6.SetBase(Ipv6Address("fd00:2::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer ir6 = r6.Assign(right);
        ir6.SetForwarding(0, true);
        ir6.SetDefaultRouteInAllNodes(0);
        Ipv6StaticRoutingHelper routing6;
        routing6.GetStaticRouting(m_m->GetObject<Ipv6>())
            ->AddHostRouteTo(kVip6.GetIpv6(), ir6.GetAddress(1, 1), 2);
        Ptr<Ipv6> b6 = m_b->GetObject<Ipv6>();
        b6->SetAttribute("StrongEndSystemModel", BooleanValue(false)); // VIP on the loopback
        b6->AddAddress(0, Ipv6InterfaceAddress(kVip6.GetIpv6(), Ipv6Prefix(128)));

        m_addr["C"] = m_v6 ? AdcIpAddress(il6.GetAddress(1, 1)) : AdcIpAddress(il4.GetAddress(1));
        m_addr["M"] = m_v6 ? AdcIpAddress(ir6.GetAddress(0, 1)) : AdcIpAddress(ir4.GetAddress(0));
        m_addr["Mleft"] =
            m_v6 ? AdcIpAddress(il6.GetAddress(0, 1)) : AdcIpAddress(il4.GetAddress(0));
        m_addr["A"] = m_v6 ? AdcIpAddress(ir6.GetAddress(1, 1)) : AdcIpAddress(ir4.GetAddress(1));
        m_addr["B"] = m_v6 ? AdcIpAddress(ir6.GetAddress(2, 1)) : AdcIpAddress(ir4.GetAddress(2));
        m_addr["B4"] = ir4.GetAddress(2); // for encapsulation across families
        m_vip = m_v6 ? kVip6 : kVip4;

        m_dp = CreateObject<TestDatapath>();
        m_dp->Install(m_m);
        m_dp->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet> p, const std::string& reason) {
                    m_drops.emplace_back(p ? p->GetSize() : 0, reason);
                }));
        Watch(m_a, "A");
        Watch(m_b, "B");
    }

    /// Record what \p node's IPv4 and IPv6 layers receive, as \p name.
    void Watch(Ptr<Node> node, const std::string& name)
    {
        auto record = [this, name](Ptr<const Packet> p) {
            m_arrivals.emplace_back(name, p->Copy()); // whole, IP header first
        };
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [record](Ptr<const Packet> p, Ptr<Ipv4>, uint32_t) { record(p); }));
        node->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv6>, uint32_t>(
                [record](Ptr<const Packet> p, Ptr<Ipv6>, uint32_t) { record(p); }));
    }

    /// \return the arrivals at \p at whose outermost IP protocol is \p protocol
    std::vector<Ptr<Packet>> ArrivalsAt(const std::string& at, uint8_t protocol) const
    {
        std::vector<Ptr<Packet>> out;
        for (const auto& [node, whole] : m_arrivals)
        {
            if (node == at && PopIp(whole->Copy()).protocol == protocol)
            {
                out.push_back(whole->Copy());
            }
        }
        return out;
    }

    /// A UDP socket on \p node at ANY:\p port (the test's family) recording what it accepts.
    void Listen(Ptr<Node> node, const std::string& name, uint16_t port)
    {
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        s->Bind(m_v6 ? Address(Inet6SocketAddress(Ipv6Address::GetAny(), port))
                     : Address(InetSocketAddress(Ipv4Address::GetAny(), port)));
        s->SetRecvCallback(Callback<void, Ptr<Socket>>([this, name](Ptr<Socket> sock) {
            Address from;
            while (sock->RecvFrom(from))
            {
                const auto [ip, port] = Split(from);
                m_accepted.push_back({name, ip, port});
            }
        }));
        m_sockets.push_back(s);
    }

    /// Send one datagram of kPayload bytes from C (port kClientPort) to \p dst:\p port at 1 s.
    void SendFromC(const AdcIpAddress& dst, uint16_t port, uint32_t bytes = kPayload)
    {
        Ptr<Socket> s = Socket::CreateSocket(m_c, UdpSocketFactory::GetTypeId());
        s->Bind(m_v6 ? Address(Inet6SocketAddress(Ipv6Address::GetAny(), kClientPort))
                     : Address(InetSocketAddress(Ipv4Address::GetAny(), kClientPort)));
        const Address to = Sock(dst, port);
        Simulator::Schedule(Seconds(1),
                            [s, to, bytes] { s->SendTo(Create<Packet>(bytes), 0, to); });
        m_sockets.push_back(s);
    }

    /**
     * \brief Send \p bytes as the payload of an IP packet of \p protocol from C to \p dst (raw),
     * at \p at (apart from the others: C's ARP / neighbour queue holds only 3 packets).
     */
    void SendRawFromC(uint8_t protocol,
                      const std::vector<uint8_t>& bytes,
                      const AdcIpAddress& dst,
                      Time at)
    {
        Ptr<Socket> s = Socket::CreateSocket(m_c,
                                             m_v6 ? Ipv6RawSocketFactory::GetTypeId()
                                                  : Ipv4RawSocketFactory::GetTypeId());
        s->SetAttribute("Protocol", UintegerValue(protocol));
        const Address to = Sock(dst, 0);
        Simulator::Schedule(at, [s, bytes, to] {
            s->SendTo(Create<Packet>(bytes.data(), bytes.size()), 0, to);
        });
        m_sockets.push_back(s);
    }

    /// Decide \p verdict for the test's datagrams (UDP to kPort), PASS for everything else.
    void DecideForTestTraffic(const AdcVerdict& verdict)
    {
        m_dp->decide = [verdict](const AdcIngress& in) {
            const bool ours = in.flow.protocol == AdcFlowKey::PROTO_UDP &&
                              in.status == AdcTransportStatus::OK && in.flow.dstPort == kPort;
            return ours ? verdict : AdcVerdict::Pass();
        };
    }

    /// Run to 3 s.
    static void Run()
    {
        Simulator::Stop(Seconds(3));
        Simulator::Run();
    }

    bool m_v6{false};                                            //!< the family under test
    Ptr<Node> m_c;                                               //!< client
    Ptr<Node> m_m;                                               //!< the datapath's node
    Ptr<Node> m_a;                                               //!< far node A (the VIP's route)
    Ptr<Node> m_b;                                               //!< far node B (owns the VIP)
    std::map<std::string, AdcIpAddress> m_addr;                  //!< addresses by node name
    AdcIpAddress m_vip;                                          //!< the VIP in the test's family
    Ptr<TestDatapath> m_dp;                                      //!< M's datapath
    std::vector<std::pair<std::string, Ptr<Packet>>> m_arrivals; //!< what A and B received
    std::vector<Accepted> m_accepted;                            //!< what sockets accepted
    std::vector<std::pair<uint32_t, std::string>> m_drops;       //!< "Drop": size, reason
    std::vector<Ptr<Socket>> m_sockets;                          //!< keep sockets alive
};

// ---------------------------------------------------------------------------------------------
// The verdicts

// REQ: ILB-01 (traffic a datapath does not claim is ordinary traffic), SLB-13
TEST_P(AdcDatapathTest, PassLeavesThePacketToStaticRouting)
{
    DecideForTestTraffic(AdcVerdict::Pass());
    Listen(m_a, "A", kPort);
    SendFromC(m_addr["A"], kPort);
    Run();

    // The hook described the datagram: its 5-tuple, and every IP byte.
    const std::vector<AdcIngress>& seen = m_dp->seen; // the only TCP/UDP packet
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].flow,
              AdcFlowKey(m_addr["C"], m_addr["A"], kClientPort, kPort, AdcFlowKey::PROTO_UDP));
    EXPECT_EQ(seen[0].status, AdcTransportStatus::OK);
    EXPECT_EQ(seen[0].bytes, (m_v6 ? 40 : 20) + 8 + kPayload); // IP, UDP, payload
    EXPECT_EQ(seen[0].inInterface, 1U); // M's "left" interface (0 is the loopback)
    // Static routing forwarded it unchanged.
    const std::vector<Ptr<Packet>> atA = ArrivalsAt("A", AdcFlowKey::PROTO_UDP);
    ASSERT_EQ(atA.size(), 1U);
    const IpFields ip = PopIp(atA[0]);
    EXPECT_EQ(ip.src, m_addr["C"]);
    EXPECT_EQ(ip.dst, m_addr["A"]);
    EXPECT_EQ(ip.ttl, 63); // C's 64, less M's hop
    ASSERT_EQ(m_accepted.size(), 1U);
    EXPECT_EQ(m_accepted[0].src, m_addr["C"]);
    EXPECT_TRUE(m_drops.empty());
}

// REQ: ILB-03 (only the next hop changes: DSR, MAC-based redirection), CRD-03, SLB-13
TEST_P(AdcDatapathTest, ForwardChangesOnlyTheNextHop)
{
    DecideForTestTraffic(AdcVerdict::Forward(m_addr["B"]));
    Listen(m_a, "A", kPort);
    Listen(m_b, "B", kPort);
    SendFromC(m_vip, kPort); // static routing would send it to A
    Run();

    EXPECT_TRUE(ArrivalsAt("A", AdcFlowKey::PROTO_UDP).empty());
    const std::vector<Ptr<Packet>> atB = ArrivalsAt("B", AdcFlowKey::PROTO_UDP);
    ASSERT_EQ(atB.size(), 1U); // B's stack took the frame: it carried B's MAC
    Ptr<Packet> p = atB[0];
    const IpFields ip = PopIp(p);
    EXPECT_EQ(ip.src, m_addr["C"]);
    EXPECT_EQ(ip.dst, m_vip);
    EXPECT_EQ(ip.ttl, 63);
    UdpHeader udp;
    p->RemoveHeader(udp);
    EXPECT_EQ(udp.GetSourcePort(), kClientPort);
    EXPECT_EQ(udp.GetDestinationPort(), kPort);
    ASSERT_EQ(m_accepted.size(), 1U); // the untouched checksum is still right
    EXPECT_EQ(m_accepted[0].at, "B");
    EXPECT_EQ(m_dp->failures, std::vector<std::string>{""});
}

// REQ: ILB-04, ILB-05 (addresses and ports rewritten, checksums right), SLB-13
TEST_P(AdcDatapathTest, RewriteChangesTheFiveTupleWithRightChecksums)
{
    // Full-NAT style: both ends change, ports too.
    const AdcFlowKey after(m_addr["M"], m_addr["A"], 50000, 8080, AdcFlowKey::PROTO_UDP);
    DecideForTestTraffic(AdcVerdict::Rewrite(after));
    Listen(m_a, "A", 8080);
    SendFromC(m_vip, kPort);
    Run();

    const std::vector<Ptr<Packet>> atA = ArrivalsAt("A", AdcFlowKey::PROTO_UDP);
    ASSERT_EQ(atA.size(), 1U);
    Ptr<Packet> p = atA[0];
    const IpFields ip = PopIp(p);
    EXPECT_EQ(ip.src, after.src);
    EXPECT_EQ(ip.dst, after.dst);
    UdpHeader udp;
    p->RemoveHeader(udp);
    EXPECT_EQ(udp.GetSourcePort(), after.srcPort);
    EXPECT_EQ(udp.GetDestinationPort(), after.dstPort);
    EXPECT_EQ(p->GetSize(), kPayload);
    // A's UDP checks the checksum against the new addresses before its socket sees it.
    ASSERT_EQ(m_accepted.size(), 1U);
    EXPECT_EQ(m_accepted[0].src, after.src);
    EXPECT_EQ(m_accepted[0].srcPort, after.srcPort);
    EXPECT_TRUE(ArrivalsAt("B", AdcFlowKey::PROTO_UDP).empty());
}

// REQ: SLB-06 (the MUX encapsulates to the host holding the back-end), SLB-13
TEST_P(AdcDatapathTest, EncapsulateWrapsTheDatagramForTheOuterDestination)
{
    AdcEncapsulation e;
    e.protocol = kShimProtocol;
    e.destination = m_addr["B"];
    std::vector<std::pair<AdcIpAddress, AdcIpAddress>> outer;
    e.addHeaders = [&outer](Ptr<Packet> datagram, const AdcIpAddress& s, const AdcIpAddress& d) {
        TestShimHeader shim;
        shim.tag = kShimTag;
        datagram->AddHeader(shim);
        outer.emplace_back(s, d);
    };
    DecideForTestTraffic(AdcVerdict::Encapsulate(e));
    SendFromC(m_vip, kPort);
    Run();

    // The outer addresses were known when the shim was added (a UDP checksum could cover them).
    ASSERT_EQ(outer.size(), 1U);
    EXPECT_EQ(outer[0].first, m_addr["M"]);
    EXPECT_EQ(outer[0].second, m_addr["B"]);
    EXPECT_TRUE(ArrivalsAt("A", AdcFlowKey::PROTO_UDP).empty());
    const std::vector<Ptr<Packet>> atB = ArrivalsAt("B", kShimProtocol);
    ASSERT_EQ(atB.size(), 1U);
    Ptr<Packet> p = atB[0];
    const IpFields out = PopIp(p);
    EXPECT_EQ(out.src, m_addr["M"]);
    EXPECT_EQ(out.dst, m_addr["B"]);
    EXPECT_EQ(out.ttl, 64); // M originates the outer packet
    TestShimHeader shim;
    p->RemoveHeader(shim);
    EXPECT_EQ(shim.tag, kShimTag);
    const IpFields in = PopIp(p); // the datagram as M received it
    EXPECT_EQ(in.src, m_addr["C"]);
    EXPECT_EQ(in.dst, m_vip);
    EXPECT_EQ(in.protocol, AdcFlowKey::PROTO_UDP);
    EXPECT_EQ(in.ttl, 64);
    UdpHeader udp;
    p->RemoveHeader(udp);
    EXPECT_EQ(udp.GetSourcePort(), kClientPort);
    EXPECT_EQ(udp.GetDestinationPort(), kPort);
    EXPECT_EQ(p->GetSize(), kPayload);
}

// REQ: SLB-06, SLB-13 (an IPv6 VIP's traffic over an IPv4 provider network, and IPv4 in IPv4)
TEST_P(AdcDatapathTest, EncapsulateCrossesToTheOuterDestinationsFamily)
{
    AdcEncapsulation e;
    e.protocol = m_v6 ? 41 : 4; // IPv6-in-IPv4, IPv4-in-IPv4: nothing between the headers
    e.destination = m_addr["B4"];
    DecideForTestTraffic(AdcVerdict::Encapsulate(e));
    SendFromC(m_vip, kPort);
    Run();

    const std::vector<Ptr<Packet>> atB = ArrivalsAt("B", e.protocol);
    ASSERT_EQ(atB.size(), 1U);
    Ptr<Packet> p = atB[0];
    const IpFields out = PopIp(p);
    EXPECT_TRUE(out.dst.IsV4());
    EXPECT_EQ(out.dst, m_addr["B4"]);
    const IpFields in = PopIp(p);
    EXPECT_EQ(in.src, m_addr["C"]);
    EXPECT_EQ(in.dst, m_vip);
}

/**
 * \brief A UDP datagram C -> B (the test's family, checksums right) of kPayload bytes behind a
 * kShimTag shim, as the bytes of an outer IP payload.
 * \param src the inner source \param dst the inner destination
 * \return the shim and the inner datagram
 */
std::vector<uint8_t>
ShimmedDatagram(const AdcIpAddress& src, const AdcIpAddress& dst)
{
    Ptr<Packet> p = Create<Packet>(kPayload);
    UdpHeader udp;
    udp.SetSourcePort(kClientPort);
    udp.SetDestinationPort(kPort);
    udp.EnableChecksums();
    if (src.IsV4())
    {
        udp.InitializeChecksum(src.GetIpv4(), dst.GetIpv4(), AdcFlowKey::PROTO_UDP);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(src.GetIpv4());
        ip.SetDestination(dst.GetIpv4());
        ip.SetProtocol(AdcFlowKey::PROTO_UDP);
        ip.SetPayloadSize(p->GetSize());
        ip.SetTtl(64);
        ip.EnableChecksum();
        p->AddHeader(ip);
    }
    else
    {
        udp.InitializeChecksum(src.GetIpv6(), dst.GetIpv6(), AdcFlowKey::PROTO_UDP);
        p->AddHeader(udp);
        Ipv6Header ip;
        ip.SetSource(src.GetIpv6());
        ip.SetDestination(dst.GetIpv6());
        ip.SetNextHeader(AdcFlowKey::PROTO_UDP);
        ip.SetPayloadLength(p->GetSize());
        ip.SetHopLimit(64);
        p->AddHeader(ip);
    }
    TestShimHeader shim;
    shim.tag = kShimTag;
    p->AddHeader(shim);
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/**
 * \brief Send \p bytes from C to the IPv4 VIP (routed through M) as an IPv4 packet of the
 * test's shim protocol, at \p at.
 * \param c the client \param bytes the payload \param at when \param keep keeps the socket
 */
void
SendShimFromC(Ptr<Node> c,
              const std::vector<uint8_t>& bytes,
              Time at,
              std::vector<Ptr<Socket>>& keep)
{
    Ptr<Socket> s = Socket::CreateSocket(c, Ipv4RawSocketFactory::GetTypeId());
    s->SetAttribute("Protocol", UintegerValue(kShimProtocol));
    const Address to = InetSocketAddress(kVip4.GetIpv4(), 0);
    Simulator::Schedule(at, [s, bytes, to] {
        s->SendTo(Create<Packet>(bytes.data(), bytes.size()), 0, to);
    });
    keep.push_back(s);
}

// REQ: SLB-06 (the host decapsulates), SLB-13 (IPv4 in IPv4 and IPv6 in IPv4)
TEST_P(AdcDatapathTest, DecapsulateHandsTheInnerDatagramBackToTheNodeOnTheSameDevice)
{
    // The outer packet (IPv4, to the VIP that M routes elsewhere) is stripped of its header and
    // the 4-byte shim; the inner datagram to B re-enters M and meets the datapath again.
    m_dp->decide = [](const AdcIngress& in) {
        return in.flow.protocol == kShimProtocol ? AdcVerdict::Decapsulate(4) : AdcVerdict::Pass();
    };
    Listen(m_b, "B", kPort);
    SendShimFromC(m_c, ShimmedDatagram(m_addr["C"], m_addr["B"]), Seconds(1), m_sockets);
    Run();

    EXPECT_EQ(m_dp->failures, std::vector<std::string>{""});
    // Seen again as the inner UDP datagram, on the interface the outer packet came in on (1:
    // the left link), and then routed by M's static routes to B, where the checksums were right.
    ASSERT_EQ(m_dp->seen.size(), 1U);
    EXPECT_EQ(m_dp->seen[0].flow,
              AdcFlowKey(m_addr["C"], m_addr["B"], kClientPort, kPort, AdcFlowKey::PROTO_UDP));
    EXPECT_EQ(m_dp->seen[0].inInterface, 1U);
    ASSERT_EQ(m_accepted.size(), 1U);
    EXPECT_EQ(m_accepted[0].at, "B");
    EXPECT_EQ(m_accepted[0].src, m_addr["C"]);
    EXPECT_EQ(m_accepted[0].srcPort, kClientPort);
    const std::vector<Ptr<Packet>> atB = ArrivalsAt("B", AdcFlowKey::PROTO_UDP);
    ASSERT_EQ(atB.size(), 1U);
    Ptr<Packet> p = atB[0];
    const IpFields in = PopIp(p);
    EXPECT_EQ(in.ttl, 63); // M forwarded the inner datagram once
    EXPECT_EQ(p->GetSize(), 8 + kPayload);
    EXPECT_TRUE(ArrivalsAt("A", kShimProtocol).empty());
    EXPECT_TRUE(ArrivalsAt("B", kShimProtocol).empty());
}

// REQ: CORE-02 (nothing lost silently), SLB-06
TEST_P(AdcDatapathTest, DecapsulateRefusesWhatHasNoInnerDatagram)
{
    // Stripping the whole payload leaves nothing; stripping 2 bytes leaves a "version" of 0xa.
    m_dp->decide = [](const AdcIngress& in) {
        if (in.flow.protocol != kShimProtocol)
        {
            return AdcVerdict::Pass();
        }
        return AdcVerdict::Decapsulate(in.packet->GetSize() == 10 ? 10 : 2);
    };
    SendShimFromC(m_c, std::vector<uint8_t>(10, 0x00), Seconds(1), m_sockets);
    SendShimFromC(m_c,
                  std::vector<uint8_t>{0xad, 0xc0, 0xaa, 0xbb, 0, 0, 0, 0},
                  Seconds(2),
                  m_sockets);
    Run();

    EXPECT_EQ(m_dp->failures,
              (std::vector<std::string>{"decapsulate-truncated", "decapsulate-inner-version"}));
    EXPECT_EQ(m_drops.size(), 2U);
    EXPECT_TRUE(m_dp->seen.empty());
    EXPECT_TRUE(ArrivalsAt("B", AdcFlowKey::PROTO_UDP).empty());
}

// REQ: CRD-11 (an appliance intercepts traffic addressed elsewhere), SLB-13
TEST_P(AdcDatapathTest, DeliverLocalHandsAForeignDestinationToTheNodesOwnSocket)
{
    DecideForTestTraffic(AdcVerdict::DeliverLocal());
    Listen(m_m, "M", kPort);
    std::vector<AdcIpAddress> deliveredTo;
    m_m->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "LocalDeliver",
        Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t>(
            [&deliveredTo](const Ipv4Header& h, Ptr<const Packet>, uint32_t) {
                if (h.GetProtocol() == AdcFlowKey::PROTO_UDP)
                {
                    deliveredTo.emplace_back(h.GetDestination());
                }
            }));
    m_m->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
        "LocalDeliver",
        Callback<void, const Ipv6Header&, Ptr<const Packet>, uint32_t>(
            [&deliveredTo](const Ipv6Header& h, Ptr<const Packet>, uint32_t) {
                if (h.GetNextHeader() == AdcFlowKey::PROTO_UDP)
                {
                    deliveredTo.emplace_back(h.GetDestination());
                }
            }));
    SendFromC(m_vip, kPort);
    Run();

    ASSERT_EQ(deliveredTo.size(), 1U);
    EXPECT_EQ(deliveredTo[0], m_vip); // not one of M's addresses
    ASSERT_EQ(m_accepted.size(), 1U);
    EXPECT_EQ(m_accepted[0].at, "M");
    EXPECT_EQ(m_accepted[0].src, m_addr["C"]);
    EXPECT_EQ(m_accepted[0].srcPort, kClientPort);
    EXPECT_TRUE(ArrivalsAt("A", AdcFlowKey::PROTO_UDP).empty());
}

// REQ: ILB-01 (the appliance's own traffic is ordinary traffic), SLB-13
TEST_P(AdcDatapathTest, PacketsForTheNodesOwnAddressesNeverReachTheDatapath)
{
    // The datapath would drop them; the IP layer (IPv6) or the list routing (IPv4) delivers
    // them first: M's address on the interface they come in on, and its address on the far
    // ("right") one under the weak end-system model (IPv4's default; IPv6's strong default
    // would route it like any other destination).
    if (m_v6)
    {
        m_m->GetObject<Ipv6>()->SetAttribute("StrongEndSystemModel", BooleanValue(false));
    }
    DecideForTestTraffic(AdcVerdict::Drop("test-drop"));
    Listen(m_m, "M", kPort);
    for (const char* name : {"Mleft", "M"})
    {
        Ptr<Socket> so = Socket::CreateSocket(m_c, UdpSocketFactory::GetTypeId());
        so->Bind(); // an ephemeral port each
        const Address to = Sock(m_addr[name], kPort);
        Simulator::Schedule(Seconds(1), [so, to] { so->SendTo(Create<Packet>(kPayload), 0, to); });
        m_sockets.push_back(so);
    }
    Run();

    EXPECT_TRUE(m_dp->seen.empty());
    EXPECT_TRUE(m_drops.empty());
    ASSERT_EQ(m_accepted.size(), 2U);
    for (const auto& a : m_accepted)
    {
        EXPECT_EQ(a.at, "M");
        EXPECT_EQ(a.src, m_addr["C"]);
    }
}

// REQ: CORE-02 (every drop traced with its reason), SLB-13
TEST_P(AdcDatapathTest, DropFiresDropWithThePacketAndTheReason)
{
    DecideForTestTraffic(AdcVerdict::Drop("test-reason"));
    Listen(m_a, "A", kPort);
    SendFromC(m_addr["A"], kPort);
    Run();

    ASSERT_EQ(m_drops.size(), 1U);
    EXPECT_EQ(m_drops[0].first, 8 + kPayload); // the packet without its IP header
    EXPECT_EQ(m_drops[0].second, "test-reason");
    EXPECT_TRUE(ArrivalsAt("A", AdcFlowKey::PROTO_UDP).empty());
    EXPECT_TRUE(m_accepted.empty());
}

// REQ: CORE-02, SLB-13
TEST_P(AdcDatapathTest, SendFailuresComeBackToTheDatapath)
{
    // M routes fd00:88::/64 (10.88.0.0/16) through A, and knows nothing of fd00:77:: (10.77/16).
    const AdcIpAddress routed =
        m_v6 ? AdcIpAddress(Ipv6Address("fd00:88::1")) : AdcIpAddress(Ipv4Address("10.88.0.1"));
    const AdcIpAddress unknown =
        m_v6 ? AdcIpAddress(Ipv6Address("fd00:77::1")) : AdcIpAddress(Ipv4Address("10.77.0.1"));
    if (m_v6)
    {
        Ipv6StaticRoutingHelper()
            .GetStaticRouting(m_m->GetObject<Ipv6>())
            ->AddNetworkRouteTo(Ipv6Address("fd00:88::"), Ipv6Prefix(64), m_addr["A"].GetIpv6(), 2);
    }
    else
    {
        Ipv4StaticRoutingHelper()
            .GetStaticRouting(m_m->GetObject<Ipv4>())
            ->AddNetworkRouteTo(Ipv4Address("10.88.0.0"),
                                Ipv4Mask("255.255.0.0"),
                                m_addr["A"].GetIpv4(),
                                2);
    }
    // To the VIP: FORWARD to a next hop that is not on-link; to A: REWRITE to nowhere.
    m_dp->decide = [&](const AdcIngress& in) {
        if (in.flow.protocol != AdcFlowKey::PROTO_UDP || in.flow.dstPort != kPort)
        {
            return AdcVerdict::Pass();
        }
        AdcFlowKey after = in.flow;
        after.dst = unknown;
        return in.flow.dst == m_vip ? AdcVerdict::Forward(routed) : AdcVerdict::Rewrite(after);
    };
    SendFromC(m_vip, kPort);
    SendFromC(m_addr["A"], kPort);
    Run();

    // Nothing was sent; the datapath heard why (and dropped with that reason).
    std::vector<std::string> failures = m_dp->failures;
    std::sort(failures.begin(), failures.end());
    EXPECT_EQ(failures, (std::vector<std::string>{"next-hop-not-on-link", "no-route"}));
    ASSERT_EQ(m_drops.size(), 2U);
    EXPECT_TRUE(ArrivalsAt("A", AdcFlowKey::PROTO_UDP).empty());
    EXPECT_TRUE(ArrivalsAt("B", AdcFlowKey::PROTO_UDP).empty());
}

// REQ: CORE-02 (malformed packets dropped with a traced reason), SLB-13
TEST_P(AdcDatapathTest, TruncatedAndMalformedTransportHeadersAreDroppedWithTheirReasons)
{
    m_dp->decide = [](const AdcIngress& in) {
        const std::string reason = AdcTransportDropReason(in.status);
        return reason.empty() ? AdcVerdict::Pass() : AdcVerdict::Drop(reason);
    };
    std::vector<uint8_t> tcpBadOffset(20, 0);
    tcpBadOffset[3] = 80;
    tcpBadOffset[12] = 0x20; // data offset 2 words: less than a TCP header
    std::vector<uint8_t> tcpLongOffset = tcpBadOffset;
    tcpLongOffset[12] = 0xf0; // 60 bytes of header claimed, 20 present
    std::vector<uint8_t> tcpBadOption(24, 0);
    tcpBadOption[3] = 80;
    tcpBadOption[12] = 0x60; // 24 bytes: 4 bytes of options
    tcpBadOption[20] = 8;    // a timestamp option (10 bytes) that does not fit
    tcpBadOption[21] = 10;
    SendRawFromC(AdcFlowKey::PROTO_TCP, {0x30, 0x39}, m_addr["A"], Seconds(1));
    SendRawFromC(AdcFlowKey::PROTO_TCP, tcpBadOffset, m_addr["A"], Seconds(1.1));
    SendRawFromC(AdcFlowKey::PROTO_TCP, tcpLongOffset, m_addr["A"], Seconds(1.2));
    SendRawFromC(AdcFlowKey::PROTO_TCP, tcpBadOption, m_addr["A"], Seconds(1.3));
    SendRawFromC(AdcFlowKey::PROTO_UDP, {0x30, 0x39, 0x00}, m_addr["A"], Seconds(1.4));
    AdcRemoveQueueDiscsEverywhere(); // truncated headers: see adc-test-raw-packets.h
    Run();

    std::map<std::string, uint32_t> reasons;
    for (const auto& [size, reason] : m_drops)
    {
        ++reasons[reason];
    }
    EXPECT_EQ(reasons,
              (std::map<std::string, uint32_t>{{"truncated-transport-header", 3},
                                               {"malformed-transport-header", 2}}));
    EXPECT_TRUE(ArrivalsAt("A", AdcFlowKey::PROTO_TCP).empty());
    EXPECT_TRUE(ArrivalsAt("A", AdcFlowKey::PROTO_UDP).empty());
}

INSTANTIATE_TEST_SUITE_P(Families,
                         AdcDatapathTest,
                         ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return std::string(info.param ? "Ipv6" : "Ipv4");
                         });

/// The IPv4-only cases of the same topology.
class AdcDatapathIpv4Test : public AdcDatapathTest
{
};

// REQ: CORE-02
TEST_P(AdcDatapathIpv4Test, FragmentsAreDroppedAsUnsupported)
{
    m_dp->decide = [](const AdcIngress& in) {
        const std::string reason = AdcTransportDropReason(in.status);
        return reason.empty() ? AdcVerdict::Pass() : AdcVerdict::Drop(reason);
    };
    // 3,000 bytes + 8 of UDP header over a 1,500-byte MTU: fragments of 1,480 payload bytes.
    SendFromC(m_addr["A"], kPort, 3000);
    Run();

    const uint32_t fragments = (3000 + 8 + 1479) / 1480;
    ASSERT_EQ(m_drops.size(), fragments);
    for (const auto& [size, reason] : m_drops)
    {
        EXPECT_EQ(reason, "fragment-unsupported");
    }
    EXPECT_TRUE(ArrivalsAt("A", AdcFlowKey::PROTO_UDP).empty());
}

INSTANTIATE_TEST_SUITE_P(Ipv4, AdcDatapathIpv4Test, ::testing::Values(false));

// ---------------------------------------------------------------------------------------------
// Install: aggregation, one of each kind

// REQ: CORE-01
TEST_P(AdcDatapathIpv4Test, InstallAggregatesTheDatapathAboveStaticRouting)
{
    EXPECT_EQ(m_m->GetObject<TestDatapath>(), m_dp);
    EXPECT_EQ(m_m->GetObject<AdcDatapath>(), m_dp);
    EXPECT_EQ(m_dp->GetNode(), m_m);
    Ptr<Ipv4ListRouting> list4 =
        DynamicCast<Ipv4ListRouting>(m_m->GetObject<Ipv4>()->GetRoutingProtocol());
    Ptr<Ipv6ListRouting> list6 =
        DynamicCast<Ipv6ListRouting>(m_m->GetObject<Ipv6>()->GetRoutingProtocol());
    int16_t priority = 0;
    ASSERT_EQ(list4->GetNRoutingProtocols(), 2U);
    EXPECT_EQ(list4->GetRoutingProtocol(0, priority), m_dp->GetIpv4Routing());
    EXPECT_EQ(priority, 100);
    ASSERT_EQ(list6->GetNRoutingProtocols(), 2U);
    EXPECT_EQ(list6->GetRoutingProtocol(0, priority), m_dp->GetIpv6Routing());
    EXPECT_EQ(priority, 100);

    // "HookPriority" decides where the hooks go.
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    ilb->SetAttribute("HookPriority", IntegerValue(50));
    ilb->Install(m_m); // another kind: welcome
    EXPECT_EQ(m_m->GetObject<IlbAppliance>(), ilb);
    EXPECT_EQ(m_m->GetObject<TestDatapath>(), m_dp);
    ASSERT_EQ(list4->GetNRoutingProtocols(), 3U);
    EXPECT_EQ(list4->GetRoutingProtocol(1, priority), ilb->GetIpv4Routing());
    EXPECT_EQ(priority, 50);
}

// REQ: CORE-01
TEST_P(AdcDatapathIpv4Test, ASecondDatapathOfTheSameKindIsRefused)
{
    Ptr<Ipv4ListRouting> list4 =
        DynamicCast<Ipv4ListRouting>(m_m->GetObject<Ipv4>()->GetRoutingProtocol());
    const uint32_t protocols = list4->GetNRoutingProtocols();

    Ptr<TestDatapath> second = CreateObject<TestDatapath>();
    std::string e = ConfigErrorOf([&] { second->Install(m_m); });
    EXPECT_TRUE(Has(e, "node " + std::to_string(m_m->GetId())) && Has(e, "already holds") &&
                Has(e, "ns3::AdcDatapathTestDatapath") && Has(e, "one datapath of each kind"))
        << e;
    EXPECT_FALSE(second->GetNode());
    EXPECT_EQ(list4->GetNRoutingProtocols(), protocols);
    EXPECT_EQ(m_m->GetObject<TestDatapath>(), m_dp);

    e = ConfigErrorOf([&] { m_dp->Install(m_a); });
    EXPECT_TRUE(Has(e, "already installed on node " + std::to_string(m_m->GetId()))) << e;
    EXPECT_FALSE(m_a->GetObject<TestDatapath>());

    // A node whose IPv6 routing is not a list (InternetStackHelper's default) is refused
    // whole: nothing aggregated, nothing hooked.
    Ptr<Node> plain = CreateObject<Node>();
    InternetStackHelper().Install(plain);
    Ptr<TestDatapath> third = CreateObject<TestDatapath>();
    e = ConfigErrorOf([&] { third->Install(plain); });
    EXPECT_TRUE(Has(e, "IPv6 routing is ns3::Ipv6StaticRouting") && Has(e, "list routing")) << e;
    EXPECT_FALSE(plain->GetObject<TestDatapath>());
    EXPECT_FALSE(third->GetIpv4Routing());
}

} // namespace
