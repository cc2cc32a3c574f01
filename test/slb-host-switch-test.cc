/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the SLB host virtual switch (SlbHostSwitch): VXLAN decapsulation, VIP <-> DIP NAT with
 * the reply sent straight to the gateway (DSR), TCP MSS clamping from the MTU arithmetic,
 * malformed VXLAN dropped with each reason, and Fastpath (configuration errors and the MSS
 * arithmetic without a simulation: slb-host-switch-config-test.cc).
 *
 * Topology (point-to-point links, static routes):
 *
 *     C (client) -- R (router, the hosts' gateway) -- H (host, the switch) -- VM1 (VLAN DIP)
 *                    |        |                          \-- VM2 (VNI 5001 DIP)
 *                    X (MUX)  D (another host)
 *
 * The test "MUX" X is a node with a UDP socket that sends VXLAN payloads to H's provider
 * address (PA) on port 4789; D is the DIP host of the Fastpath test and records the VXLAN it
 * gets. The provider network is IPv4; the inner (client, VIP, DIP) family is the parameter, so
 * IPv4 and IPv6 pass the same tests (SLB-13).
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-packet-rewrite.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/adc-vxlan-header.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv6-address-generator.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/slb-host-switch.h"
#include "ns3/tcp-option-rfc793.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;
using adctest::ConfigErrorOf;
using adctest::Has;

namespace
{

constexpr uint16_t kVipPort = 80;
constexpr uint16_t kDipPort = 8080;
constexpr uint16_t kUdpVipPort = 53;
constexpr uint16_t kUdpDipPort = 5353;
constexpr uint16_t kClientPort = 40000;
constexpr uint16_t kMuxPort = 50000;  // the outer UDP source port the test MUX uses
constexpr uint32_t kVni = 5001;       // VM2's virtual network
constexpr uint16_t kClientMss = 1460; // what an Ethernet client offers: 1500 - 20 - 20
// RFC 7348 overhead over an IPv4 provider network: outer IPv4 20 + UDP 8 + VXLAN 8 + inner
// Ethernet 14 = 50; then the inner IP header and the TCP header (20) must fit too.
constexpr uint16_t kMssV4 = 1500 - 50 - 20 - 20; // 1410
constexpr uint16_t kMssV6 = 1500 - 50 - 40 - 20; // 1390

/// One packet as an IP layer received it.
struct Seen
{
    AdcIpAddress src;    //!< IP source
    AdcIpAddress dst;    //!< IP destination
    uint8_t protocol{0}; //!< IP protocol / next header
    uint16_t srcPort{0}; //!< transport source port
    uint16_t dstPort{0}; //!< transport destination port
    uint8_t tcpFlags{0}; //!< TCP flags
    uint16_t mss{0};     //!< TCP MSS option (0: none)
    uint32_t interface {
        0
    };                   //!< the receiving interface
    Ptr<Packet> payload; //!< what follows the IP header
};

/// \param whole a packet, IP header first \param interface where \return its fields
Seen
Read(Ptr<const Packet> whole, uint32_t interface)
{
    Ptr<Packet> p = whole->Copy();
    uint8_t first = 0;
    p->CopyData(&first, 1);
    Seen s;
    s.interface = interface;
    if ((first >> 4) == 4)
    {
        Ipv4Header h;
        p->RemoveHeader(h);
        s.src = h.GetSource();
        s.dst = h.GetDestination();
        s.protocol = h.GetProtocol();
    }
    else
    {
        Ipv6Header h;
        p->RemoveHeader(h);
        s.src = h.GetSource();
        s.dst = h.GetDestination();
        s.protocol = h.GetNextHeader();
    }
    if (AdcHasPorts(s.protocol))
    {
        const AdcTransportInfo t = AdcReadTransport(p, s.protocol);
        s.srcPort = t.srcPort;
        s.dstPort = t.dstPort;
        s.tcpFlags = t.tcpFlags;
        s.mss = s.protocol == AdcFlowKey::PROTO_TCP ? AdcReadTcpMss(p) : 0;
    }
    s.payload = p;
    return s;
}

/**
 * \brief An IP datagram with a TCP or UDP header whose checksum is right.
 * \param flow its 5-tuple \param tcpFlags TCP flags \param mss an MSS option (0: none)
 * \param bytes payload bytes \return the datagram, IP header first
 */
Ptr<Packet>
Datagram(const AdcFlowKey& flow, uint8_t tcpFlags, uint16_t mss, uint32_t bytes)
{
    Ptr<Packet> p = Create<Packet>(bytes);
    const Address src = flow.src.IsV4() ? Address(flow.src.GetIpv4()) : Address(flow.src.GetIpv6());
    const Address dst = flow.dst.IsV4() ? Address(flow.dst.GetIpv4()) : Address(flow.dst.GetIpv6());
    if (flow.protocol == AdcFlowKey::PROTO_TCP)
    {
        TcpHeader tcp;
        tcp.SetSourcePort(flow.srcPort);
        tcp.SetDestinationPort(flow.dstPort);
        tcp.SetFlags(tcpFlags);
        tcp.SetSequenceNumber(SequenceNumber32(1000));
        tcp.SetAckNumber(SequenceNumber32((tcpFlags & TcpHeader::ACK) ? 5001 : 0));
        tcp.SetWindowSize(65535);
        if (mss != 0)
        {
            Ptr<TcpOptionMSS> option = CreateObject<TcpOptionMSS>();
            option->SetMSS(mss);
            tcp.AppendOption(option);
        }
        tcp.EnableChecksums();
        tcp.InitializeChecksum(src, dst, AdcFlowKey::PROTO_TCP);
        p->AddHeader(tcp);
    }
    else
    {
        UdpHeader udp;
        udp.SetSourcePort(flow.srcPort);
        udp.SetDestinationPort(flow.dstPort);
        udp.EnableChecksums();
        udp.InitializeChecksum(src, dst, AdcFlowKey::PROTO_UDP);
        p->AddHeader(udp);
    }
    if (flow.src.IsV4())
    {
        Ipv4Header ip;
        ip.SetSource(flow.src.GetIpv4());
        ip.SetDestination(flow.dst.GetIpv4());
        ip.SetProtocol(flow.protocol);
        ip.SetPayloadSize(p->GetSize());
        ip.SetTtl(64);
        ip.EnableChecksum();
        p->AddHeader(ip);
    }
    else
    {
        Ipv6Header ip;
        ip.SetSource(flow.src.GetIpv6());
        ip.SetDestination(flow.dst.GetIpv6());
        ip.SetNextHeader(flow.protocol);
        ip.SetPayloadLength(p->GetSize());
        ip.SetHopLimit(64);
        p->AddHeader(ip);
    }
    return p;
}

/// \param p a packet \return its bytes
std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/// \param a an address \param port a port \return the socket address
Address
Sock(const AdcIpAddress& a, uint16_t port)
{
    return a.IsV4() ? Address(InetSocketAddress(a.GetIpv4(), port))
                    : Address(Inet6SocketAddress(a.GetIpv6(), port));
}

/// \param a a socket address \return its IP address
AdcIpAddress
IpOf(const Address& a)
{
    if (InetSocketAddress::IsMatchingType(a))
    {
        return InetSocketAddress::ConvertFrom(a).GetIpv4();
    }
    return Inet6SocketAddress::ConvertFrom(a).GetIpv6();
}

/**
 * \brief The topology above with H's switch, for one inner family (the parameter).
 */
class SlbHostSwitchTest : public ::testing::TestWithParam<bool>
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

    /// \param a first node \param b second node \return a point-to-point link between them
    static NetDeviceContainer Link(Ptr<Node> a, Ptr<Node> b)
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(50)));
        return p2p.Install(a, b);
    }

    /**
     * \param devs a link \param v4 its IPv4 network \param first the first host number given
     * \param v6 its IPv6 prefix
     * \return {first's IPv4, second's IPv4, first's IPv6, second's IPv6}
     */
    static std::vector<AdcIpAddress> Assign(const NetDeviceContainer& devs,
                                            const char* v4,
                                            const char* first,
                                            const char* v6)
    {
        Ipv4AddressHelper h4(v4, "255.255.255.0", first);
        Ipv4InterfaceContainer i4 = h4.Assign(devs);
        Ipv6AddressHelper h6;
        h6.SetBase(Ipv6Address(v6), Ipv6Prefix(64));
        Ipv6InterfaceContainer i6 = h6.Assign(devs);
        i6.SetForwarding(0, true);
        i6.SetForwarding(1, true);
        return {i4.GetAddress(0), i4.GetAddress(1), i6.GetAddress(0, 1), i6.GetAddress(1, 1)};
    }

    /// Nodes, links, addresses, routes, the switch on H with its VM ports and NAT rules.
    void Build()
    {
        for (Ptr<Node>* n : {&m_c, &m_r, &m_x, &m_d, &m_h, &m_vm1, &m_vm2})
        {
            *n = CreateObject<Node>();
        }
        NodeContainer all;
        for (Ptr<Node> n : {m_c, m_r, m_x, m_d, m_h, m_vm1, m_vm2})
        {
            all.Add(n);
        }
        AdcMakeListStackHelper(true).Install(all);
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            all.Get(i)->GetObject<Icmpv6L4Protocol>()->SetAttribute("DAD", BooleanValue(false));
        }
        // Interfaces: R 1 C, 2 H, 3 X, 4 D; H 1 R (provider), 2 VM1, 3 VM2.
        const auto rc = Assign(Link(m_r, m_c), "10.0.1.0", "0.0.0.1", "fd00:1::");
        const auto rh = Assign(Link(m_r, m_h), "10.0.2.0", "0.0.0.1", "fd00:2::");
        const auto rx = Assign(Link(m_r, m_x), "10.0.3.0", "0.0.0.1", "fd00:3::");
        const auto rd = Assign(Link(m_r, m_d), "10.0.4.0", "0.0.0.1", "fd00:4::");
        const auto h1 = Assign(Link(m_h, m_vm1), "10.10.10.0", "0.0.0.4", "fd00:10::");
        const auto h2 = Assign(Link(m_h, m_vm2), "10.10.20.0", "0.0.0.4", "fd00:20::");
        m_hostPa = rh[1];
        m_muxPa = rx[1];
        m_dHostPa = rd[1];
        const size_t f = m_v6 ? 3 : 1; // the second node's address of the inner family
        m_client = rc[f];
        m_dip1 = h1[f];
        m_dip2 = h2[f];
        m_vip = m_v6 ? AdcIpAddress(Ipv6Address("fd00:99::60"))
                     : AdcIpAddress(Ipv4Address("107.105.47.60"));

        m_muxInner = rx[f];
        // X and D are endpoints, not routers: what is not theirs goes no further.
        for (Ptr<Node> endpoint : {m_x, m_d})
        {
            endpoint->GetObject<Ipv4>()->SetAttribute("IpForward", BooleanValue(false));
            endpoint->GetObject<Ipv6>()->SetAttribute("IpForward", BooleanValue(false));
        }
        // Every node but R: a default route to the other end of its first link.
        Ipv4StaticRoutingHelper r4;
        Ipv6StaticRoutingHelper r6;
        const std::vector<std::pair<Ptr<Node>, std::vector<AdcIpAddress>>> gateways =
            {{m_c, rc}, {m_x, rx}, {m_d, rd}, {m_h, rh}, {m_vm1, h1}, {m_vm2, h2}};
        for (const auto& [node, link] : gateways)
        {
            r4.GetStaticRouting(node->GetObject<Ipv4>())->SetDefaultRoute(link[0].GetIpv4(), 1);
            r6.GetStaticRouting(node->GetObject<Ipv6>())->SetDefaultRoute(link[2].GetIpv6(), 1);
        }

        m_switch = CreateObject<SlbHostSwitch>();
        m_switch->AddVmPort(2, m_dip1, 0, 10); // VLAN 10
        m_switch->AddVmPort(3, m_dip2, kVni, 0);
        m_switch->Install(m_h);
        m_switch->SetNatRule(Key(AdcFlowKey::PROTO_TCP, kVipPort), Dip(m_dip1, kDipPort, 0));
        m_switch->SetNatRule(Key(AdcFlowKey::PROTO_UDP, kUdpVipPort),
                             Dip(m_dip2, kUdpDipPort, kVni));

        SlbHostSwitch* sw = PeekPointer(m_switch);
        sw->TraceConnectWithoutContext(
            "Decapsulate",
            Callback<void, const AdcIpAddress&, uint32_t, const AdcFlowKey&>(
                [this](const AdcIpAddress& outer, uint32_t vni, const AdcFlowKey& inner) {
                    m_decaps.push_back({outer, vni, inner});
                }));
        sw->TraceConnectWithoutContext(
            "HostNat",
            Callback<void, const std::string&, const AdcFlowKey&, const AdcFlowKey&>(
                [this](const std::string& dir, const AdcFlowKey& before, const AdcFlowKey& after) {
                    m_nats.push_back({dir, before, after});
                }));
        sw->TraceConnectWithoutContext(
            "MssClamp",
            Callback<void, const AdcFlowKey&, uint16_t, uint16_t>(
                [this](const AdcFlowKey& flow, uint16_t oldMss, uint16_t newMss) {
                    m_clamps.push_back({flow, oldMss, newMss});
                }));
        sw->TraceConnectWithoutContext("Fastpath",
                                       Callback<void, const AdcFlowKey&, const AdcIpAddress&>(
                                           [this](const AdcFlowKey& flow, const AdcIpAddress& pa) {
                                               m_fastpaths.emplace_back(flow, pa);
                                           }));
        sw->TraceConnectWithoutContext("Drop",
                                       Callback<void, Ptr<const Packet>, const std::string&>(
                                           [this](Ptr<const Packet>, const std::string& reason) {
                                               m_drops.push_back(reason);
                                           }));
        for (const auto& [node, name] :
             std::vector<std::pair<Ptr<Node>, std::string>>{{m_c, "C"},
                                                            {m_r, "R"},
                                                            {m_x, "X"},
                                                            {m_d, "D"},
                                                            {m_vm1, "VM1"},
                                                            {m_vm2, "VM2"}})
        {
            Watch(node, name);
        }
    }

    /// \param protocol TCP or UDP \param port the VIP's port \return the VIP's key
    SlbVipKey Key(uint8_t protocol, uint16_t port) const
    {
        SlbVipKey k;
        k.vip = m_vip;
        k.protocol = protocol;
        k.port = port;
        return k;
    }

    /// \return a DIP on H
    SlbDip Dip(const AdcIpAddress& address, uint16_t port, uint32_t vni) const
    {
        SlbDip d;
        d.address = address;
        d.port = port;
        d.hostPa = m_hostPa;
        d.vni = vni;
        return d;
    }

    /// Record the IP packets \p node receives (IPv4 and IPv6), as \p name.
    void Watch(Ptr<Node> node, const std::string& name)
    {
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv4>, uint32_t>(
                [this, name](Ptr<const Packet> p, Ptr<Ipv4>, uint32_t i) {
                    m_rx[name].push_back(Read(p, i));
                }));
        node->GetObject<Ipv6L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, Ptr<Ipv6>, uint32_t>(
                [this, name](Ptr<const Packet> p, Ptr<Ipv6>, uint32_t i) {
                    const Seen s = Read(p, i);
                    if (s.protocol != 58) // neighbour discovery is not the test's traffic
                    {
                        m_rx[name].push_back(s);
                    }
                }));
    }

    /// \return what \p name received of protocol \p protocol
    std::vector<Seen> Received(const std::string& name, uint8_t protocol)
    {
        std::vector<Seen> out;
        for (const Seen& s : m_rx[name])
        {
            if (s.protocol == protocol)
            {
                out.push_back(s);
            }
        }
        return out;
    }

    /// The test MUX X sends \p vxlan (VXLAN header onwards) to H's PA:4789 at \p at.
    void MuxSends(const std::vector<uint8_t>& vxlan, Time at)
    {
        if (!m_muxSocket)
        {
            m_muxSocket = Socket::CreateSocket(m_x, UdpSocketFactory::GetTypeId());
            m_muxSocket->Bind(InetSocketAddress(Ipv4Address::GetAny(), kMuxPort));
        }
        Ptr<Socket> s = m_muxSocket;
        const ns3::Address to = InetSocketAddress(m_hostPa.GetIpv4(), kVxlanPort);
        Simulator::Schedule(at, [s, vxlan, to] {
            s->SendTo(Create<Packet>(vxlan.data(), vxlan.size()), 0, to);
        });
    }

    /// \return \p inner in VXLAN (VNI \p vni, inner Ethernet) without the UDP header
    std::vector<uint8_t> Vxlan(Ptr<const Packet> inner, uint32_t vni) const
    {
        Ptr<Packet> p = inner->Copy();
        SlbVxlanAddHeaders(p, vni, kMuxPort, m_muxPa, m_hostPa);
        p->RemoveAtStart(8); // X's socket adds the UDP header
        return Bytes(p);
    }

    /// The router R sends the VIP to the MUX X (its inner interface, R's interface 3).
    void RouteVipToMux()
    {
        if (m_v6)
        {
            Ipv6StaticRoutingHelper()
                .GetStaticRouting(m_r->GetObject<Ipv6>())
                ->AddHostRouteTo(m_vip.GetIpv6(), m_muxInner.GetIpv6(), 3);
        }
        else
        {
            Ipv4StaticRoutingHelper()
                .GetStaticRouting(m_r->GetObject<Ipv4>())
                ->AddHostRouteTo(m_vip.GetIpv4(), m_muxInner.GetIpv4(), 3);
        }
    }

    /// \p vm sends the datagram \p d (IP header included in \p d, removed here) at \p at
    void VmSends(Ptr<Node> vm, Ptr<const Packet> d, Time at)
    {
        Ptr<Packet> p = d->Copy();
        const Seen s = Read(p, 0);
        Ptr<Socket> raw = Socket::CreateSocket(vm,
                                               m_v6 ? Ipv6RawSocketFactory::GetTypeId()
                                                    : Ipv4RawSocketFactory::GetTypeId());
        raw->SetAttribute("Protocol", UintegerValue(s.protocol));
        const ns3::Address to = Sock(s.dst, 0);
        Ptr<Packet> payload = s.payload;
        Simulator::Schedule(at, [raw, payload, to] { raw->SendTo(payload->Copy(), 0, to); });
        m_sockets.push_back(raw);
    }

    /// Run to \p end.
    static void Run(Time end = Seconds(3))
    {
        Simulator::Stop(end);
        Simulator::Run();
    }

    /// A "Decapsulate" record.
    struct Decap
    {
        AdcIpAddress outer; //!< outer source
        uint32_t vni;       //!< VNI
        AdcFlowKey inner;   //!< inner flow
    };

    /// A "HostNat" record.
    struct Nat
    {
        std::string direction; //!< in / out
        AdcFlowKey before;     //!< as received
        AdcFlowKey after;      //!< as sent
    };

    /// A "MssClamp" record.
    struct Clamp
    {
        AdcFlowKey flow; //!< the segment
        uint16_t from;   //!< old MSS
        uint16_t to;     //!< new MSS
    };

    bool m_v6{false};                                //!< inner family
    Ptr<Node> m_c, m_r, m_x, m_d, m_h, m_vm1, m_vm2; //!< the nodes
    AdcIpAddress m_hostPa, m_muxPa, m_dHostPa;       //!< provider addresses (IPv4)
    AdcIpAddress m_client, m_dip1, m_dip2, m_vip;    //!< inner family addresses
    AdcIpAddress m_muxInner;                         //!< X's address of the inner family
    Ptr<SlbHostSwitch> m_switch;                     //!< H's switch
    Ptr<Socket> m_muxSocket;                         //!< X's VXLAN sender
    std::vector<Ptr<Socket>> m_sockets;              //!< keep sockets alive
    std::map<std::string, std::vector<Seen>> m_rx;   //!< IP packets received, by node
    std::vector<Decap> m_decaps;                     //!< "Decapsulate"
    std::vector<Nat> m_nats;                         //!< "HostNat"
    std::vector<Clamp> m_clamps;                     //!< "MssClamp"
    std::vector<std::pair<AdcFlowKey, AdcIpAddress>> m_fastpaths; //!< "Fastpath"
    std::vector<std::string> m_drops;                             //!< "Drop" reasons
};

// REQ: SLB-06, SLB-07, SLB-02 (a DIP on a VLAN), SLB-13, SLB-01 (TCP)
TEST_P(SlbHostSwitchTest, VipTrafficReachesTheDipAndTheReplyGoesStraightToTheGatewayAsTheVip)
{
    const uint16_t clamp = m_v6 ? kMssV6 : kMssV4;
    EXPECT_EQ(m_switch->GetClampedMss(m_v6), clamp);
    const AdcFlowKey syn(m_client, m_vip, kClientPort, kVipPort, AdcFlowKey::PROTO_TCP);
    MuxSends(Vxlan(Datagram(syn, TcpHeader::SYN, kClientMss, 0), 0), Seconds(1));
    // The server's SYN-ACK, with the MSS an Ethernet server offers.
    const AdcFlowKey synAck(m_dip1, m_client, kDipPort, kClientPort, AdcFlowKey::PROTO_TCP);
    VmSends(m_vm1, Datagram(synAck, TcpHeader::SYN | TcpHeader::ACK, kClientMss, 0), Seconds(2));
    Run();

    // Inbound: decapsulated (outer source the MUX, VNI 0), translated to DIP:8080, MSS clamped.
    ASSERT_EQ(m_decaps.size(), 1U);
    EXPECT_EQ(m_decaps[0].outer, m_muxPa);
    EXPECT_EQ(m_decaps[0].vni, 0U);
    EXPECT_EQ(m_decaps[0].inner, syn);
    const std::vector<Seen> atVm = Received("VM1", AdcFlowKey::PROTO_TCP);
    ASSERT_GE(atVm.size(), 1U);
    EXPECT_EQ(atVm[0].src, m_client);
    EXPECT_EQ(atVm[0].dst, m_dip1);
    EXPECT_EQ(atVm[0].srcPort, kClientPort);
    EXPECT_EQ(atVm[0].dstPort, kDipPort);
    EXPECT_EQ(atVm[0].tcpFlags, TcpHeader::SYN);
    EXPECT_EQ(atVm[0].mss, clamp);
    EXPECT_TRUE(Received("VM2", AdcFlowKey::PROTO_TCP).empty());

    // Outbound: every TCP segment reaching the client comes from VIP:80, never from the DIP;
    // the SYN-ACK's MSS is clamped too.
    const std::vector<Seen> atC = Received("C", AdcFlowKey::PROTO_TCP);
    ASSERT_FALSE(atC.empty());
    bool sawSynAck = false;
    for (const Seen& s : atC)
    {
        EXPECT_EQ(s.src, m_vip);
        EXPECT_EQ(s.srcPort, kVipPort);
        EXPECT_EQ(s.dst, m_client);
        if (s.tcpFlags == (TcpHeader::SYN | TcpHeader::ACK))
        {
            sawSynAck = true;
            EXPECT_EQ(s.mss, clamp);
        }
    }
    EXPECT_TRUE(sawSynAck);
    // DSR: the reply went H -> R (R's interface 2) -> C; the MUX's IP layer received nothing
    // but the VXLAN socket's own traffic (none: it only sends).
    bool viaR = false;
    for (const Seen& s : Received("R", AdcFlowKey::PROTO_TCP))
    {
        viaR = viaR || (s.src == m_vip && s.interface == 2);
    }
    EXPECT_TRUE(viaR);
    EXPECT_TRUE(m_rx["X"].empty());

    // Traces and counters agree: one clamp each way, from 1460 to the MTU arithmetic's value.
    ASSERT_EQ(m_clamps.size(), 2U);
    EXPECT_EQ(m_clamps[0].flow, syn);
    EXPECT_EQ(m_clamps[0].from, kClientMss);
    EXPECT_EQ(m_clamps[0].to, clamp);
    EXPECT_EQ(m_clamps[1].flow, synAck);
    EXPECT_EQ(m_clamps[1].to, clamp);
    ASSERT_FALSE(m_nats.empty());
    EXPECT_EQ(m_nats[0].direction, "in");
    EXPECT_EQ(m_nats[0].after,
              AdcFlowKey(m_client, m_dip1, kClientPort, kDipPort, AdcFlowKey::PROTO_TCP));
    const SlbHostSwitchCounters& c = m_switch->GetCounters();
    EXPECT_EQ(c.decapsulated, 1U);
    EXPECT_EQ(c.natIn, 1U);
    EXPECT_EQ(c.natOut, m_nats.size() - 1);
    EXPECT_EQ(c.dsrPackets, c.natOut);
    EXPECT_EQ(c.mssClamped, 2U);
    EXPECT_EQ(c.TotalDrops(), 0U);
}

// REQ: SLB-01 (UDP), SLB-02 (a DIP on a VNI virtual network), SLB-06, SLB-07, SLB-13
TEST_P(SlbHostSwitchTest, UdpVipOnAVniDipIsTranslatedBothWays)
{
    // VM2 echoes what it gets; C's socket accepts only datagrams with a right checksum.
    Ptr<Socket> echo = Socket::CreateSocket(m_vm2, UdpSocketFactory::GetTypeId());
    echo->Bind(
        Sock(m_v6 ? AdcIpAddress(Ipv6Address::GetAny()) : AdcIpAddress(Ipv4Address::GetAny()),
             kUdpDipPort));
    echo->SetRecvCallback(Callback<void, Ptr<Socket>>([](Ptr<Socket> s) {
        ns3::Address from;
        while (Ptr<Packet> p = s->RecvFrom(from))
        {
            s->SendTo(p, 0, from);
        }
    }));
    Ptr<Socket> client = Socket::CreateSocket(m_c, UdpSocketFactory::GetTypeId());
    client->Bind(Sock(m_client, kClientPort));
    std::vector<std::pair<AdcIpAddress, uint32_t>> accepted;
    client->SetRecvCallback(Callback<void, Ptr<Socket>>([&accepted](Ptr<Socket> s) {
        ns3::Address from;
        while (Ptr<Packet> p = s->RecvFrom(from))
        {
            accepted.emplace_back(IpOf(from), p->GetSize());
        }
    }));
    m_sockets.push_back(echo);
    m_sockets.push_back(client);
    const AdcFlowKey flow(m_client, m_vip, kClientPort, kUdpVipPort, AdcFlowKey::PROTO_UDP);
    MuxSends(Vxlan(Datagram(flow, 0, 0, 120), kVni), Seconds(1));
    Run();

    ASSERT_EQ(m_decaps.size(), 1U);
    EXPECT_EQ(m_decaps[0].vni, kVni);
    const std::vector<Seen> atVm = Received("VM2", AdcFlowKey::PROTO_UDP);
    ASSERT_EQ(atVm.size(), 1U);
    EXPECT_EQ(atVm[0].dst, m_dip2);
    EXPECT_EQ(atVm[0].dstPort, kUdpDipPort);
    ASSERT_EQ(accepted.size(), 1U);
    EXPECT_EQ(accepted[0].first, m_vip); // the client never sees the DIP
    EXPECT_EQ(accepted[0].second, 120U);
    const std::vector<Seen> atC = Received("C", AdcFlowKey::PROTO_UDP);
    ASSERT_EQ(atC.size(), 1U);
    EXPECT_EQ(atC[0].srcPort, kUdpVipPort);
    ASSERT_EQ(m_nats.size(), 2U);
    EXPECT_EQ(m_nats[1].direction, "out");
    EXPECT_EQ(m_nats[1].before,
              AdcFlowKey(m_dip2, m_client, kUdpDipPort, kClientPort, AdcFlowKey::PROTO_UDP));
    EXPECT_TRUE(Received("VM1", AdcFlowKey::PROTO_UDP).empty());
    EXPECT_TRUE(m_rx["X"].empty());
}

// REQ: SLB-06 (a malformed VXLAN packet is dropped with a traced reason), CORE-02
TEST_P(SlbHostSwitchTest, MalformedVxlanIsDroppedWithEachReasonAndCounted)
{
    const AdcFlowKey flow(m_client, m_vip, kClientPort, kVipPort, AdcFlowKey::PROTO_TCP);
    const std::vector<uint8_t> good = Vxlan(Datagram(flow, TcpHeader::SYN, 0, 0), 0);
    // Offsets in what X sends (after the UDP header): VXLAN flags 0, VNI 4..6, inner type 20,
    // inner IP 22.
    std::vector<std::pair<std::string, std::vector<uint8_t>>> cases;
    cases.emplace_back("vxlan-truncated", std::vector<uint8_t>(good.begin(), good.begin() + 16));
    auto noVni = good;
    noVni[0] = 0x00; // I flag clear
    cases.emplace_back("vxlan-no-vni", noVni);
    auto arp = good;
    arp[20] = 0x08;
    arp[21] = 0x06; // ARP
    cases.emplace_back("vxlan-inner-ethertype", arp);
    auto version = good;
    version[22] = static_cast<uint8_t>((m_v6 ? 0x40 : 0x60) | (version[22] & 0x0f));
    cases.emplace_back("vxlan-inner-ip", version);
    auto length = good;
    length[22 + (m_v6 ? 5 : 3)] += 100; // the inner IP length runs past the frame
    cases.emplace_back("vxlan-inner-length", length);
    auto unknown = good;
    unknown[6] = 7; // VNI 7: no VM port carries it
    cases.emplace_back("vxlan-unknown-vni", unknown);
    for (size_t i = 0; i < cases.size(); ++i)
    {
        MuxSends(cases[i].second, Seconds(1) + MilliSeconds(100) * i);
    }
    Run();

    std::vector<std::string> expected;
    for (const auto& [reason, bytes] : cases)
    {
        expected.push_back(reason);
        EXPECT_EQ(m_switch->GetDropCount(reason), 1U) << reason;
    }
    EXPECT_EQ(m_drops, expected);
    EXPECT_EQ(m_switch->GetCounters().TotalDrops(), cases.size());
    EXPECT_EQ(m_switch->GetCounters().decapsulated, 0U);
    EXPECT_TRUE(m_decaps.empty());
    EXPECT_TRUE(m_rx["VM1"].empty());
    EXPECT_TRUE(m_rx["VM2"].empty());
}

// REQ: SLB-11 (the host agent programs the switch), Ananta's Fastpath, SLB-13
TEST_P(SlbHostSwitchTest, FastpathSendsLaterPacketsStraightToTheDipHost)
{
    // R sends the VIP to the MUX X; D is another host.
    RouteVipToMux();
    // VM1, as a client VM, sends to an internal VIP: first through the MUX, then (once the
    // host agent installed the entry at 1.5 s) straight to the DIP's host D.
    const AdcFlowKey flow(m_dip1, m_vip, kClientPort, kUdpVipPort, AdcFlowKey::PROTO_UDP);
    VmSends(m_vm1, Datagram(flow, 0, 0, 50), Seconds(1));
    Simulator::Schedule(Seconds(1.5),
                        [this, flow] { m_switch->AddFastpath(flow, m_dHostPa, kVni); });
    VmSends(m_vm1, Datagram(flow, 0, 0, 50), Seconds(2));
    Run();

    // What D's IP layer received (an outer IPv4 UDP checksum of zero, as RFC 7348 says to send,
    // fails ns-3's UDP check when checksums are on, so D's own UDP would not take it).
    std::vector<SlbVxlanFrame> frames;
    std::vector<AdcIpAddress> outerSources;
    std::vector<Seen> innerAtD;
    for (const Seen& s : Received("D", AdcFlowKey::PROTO_UDP))
    {
        frames.push_back(SlbVxlanParse(s.payload));
        outerSources.push_back(s.src);
        EXPECT_EQ(s.dstPort, kVxlanPort);
        innerAtD.push_back(
            Read(s.payload->CreateFragment(kSlbVxlanHeaderBytes,
                                           s.payload->GetSize() - kSlbVxlanHeaderBytes),
                 0));
    }
    const std::vector<Seen> atMux = Received("X", AdcFlowKey::PROTO_UDP);
    ASSERT_EQ(atMux.size(), 1U); // only the packet before the entry
    EXPECT_EQ(atMux[0].dst, m_vip);
    ASSERT_EQ(frames.size(), 1U);
    EXPECT_TRUE(frames[0].ok) << frames[0].reason;
    EXPECT_EQ(frames[0].vni, kVni);
    EXPECT_GE(frames[0].srcPort, 49152); // RFC 7348: from the inner flow's hash, dynamic range
    EXPECT_EQ(outerSources[0], m_hostPa);
    ASSERT_EQ(innerAtD.size(), 1U);
    EXPECT_EQ(innerAtD[0].src, m_dip1);
    EXPECT_EQ(innerAtD[0].dst, m_vip); // the DIP's host NATs
    EXPECT_EQ(innerAtD[0].dstPort, kUdpVipPort);
    ASSERT_EQ(m_fastpaths.size(), 1U);
    EXPECT_EQ(m_fastpaths[0].first, flow);
    EXPECT_EQ(m_fastpaths[0].second, m_dHostPa);
    EXPECT_EQ(m_switch->GetCounters().fastpath, 1U);
}

// REQ: SLB-11, SLB-01
TEST_P(SlbHostSwitchTest, AFastpathEntryIdleLongerThanItsTimeoutExpires)
{
    // R sends the VIP to the MUX X. The entry (installed at 1.5 s) expires once unused for more
    // than 1 s: the packets at 2 s and 2.9 s use it (each restarts its idle time), the one at
    // 4 s (1.1 s idle) finds it expired and goes to the MUX, as does the one at 4.5 s.
    RouteVipToMux();
    m_switch->SetAttribute("FastpathIdleTimeout", TimeValue(Seconds(1)));
    const AdcFlowKey flow(m_dip1, m_vip, kClientPort, kUdpVipPort, AdcFlowKey::PROTO_UDP);
    Simulator::Schedule(Seconds(1.5),
                        [this, flow] { m_switch->AddFastpath(flow, m_dHostPa, kVni); });
    for (double at : {2.0, 2.9, 4.0, 4.5})
    {
        VmSends(m_vm1, Datagram(flow, 0, 0, 50), Seconds(at));
    }
    Run(Seconds(6));

    EXPECT_EQ(Received("D", AdcFlowKey::PROTO_UDP).size(), 2U);
    const std::vector<Seen> atMux = Received("X", AdcFlowKey::PROTO_UDP);
    ASSERT_EQ(atMux.size(), 2U);
    EXPECT_EQ(atMux[0].dst, m_vip);
    EXPECT_EQ(m_switch->GetCounters().fastpath, 2U);
    EXPECT_EQ(m_switch->GetCounters().fastpathExpired, 1U);
    EXPECT_FALSE(m_switch->RemoveFastpath(flow)); // already gone
}

INSTANTIATE_TEST_SUITE_P(InnerFamilies,
                         SlbHostSwitchTest,
                         ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return info.param ? "Ipv6" : "Ipv4";
                         });

} // namespace
