/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario pieces the AdcPolicyRouting tests share (adc-policy-routing-test.cc,
 * adc-policy-routing-local-test.cc): point-to-point nodes with list routing, policy routing
 * installed on them, UDP senders and recorders, and the RuleMatch/Drop trace collector.
 */

#ifndef ADC_POLICY_ROUTING_TEST_H
#define ADC_POLICY_ROUTING_TEST_H

#include "adc-test-fixtures.h"
#include "adc-test-raw-packets.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace adcpbrtest
{

const Ipv4Address kFar("10.200.0.1"); // a destination no node owns

using adctest::ConfigErrorOf;
using adctest::Has;

/// Both ends of a point-to-point link.
struct LinkEnds
{
    uint32_t ifA;      //!< interface index on the first node
    uint32_t ifB;      //!< interface index on the second node
    Ipv4Address addrA; //!< first node's address (.1)
    Ipv4Address addrB; //!< second node's address (.2)
};

/// \return a node with the internet stack (Ipv4ListRouting: static at 0, global at -10;
/// Ipv6ListRouting: static at 0, so that a datapath can hook both families)
inline Ptr<Node>
MakeNode()
{
    Ptr<Node> node = CreateObject<Node>();
    InternetStackHelper stack;
    Ipv6ListRoutingHelper list6;
    list6.Add(Ipv6StaticRoutingHelper(), 0);
    stack.SetRoutingHelper(list6);
    stack.Install(node);
    return node;
}

/// Connect \p a and \p b by a 1 Gb/s, 1 ms link in \p base/24 (\p a gets .1, \p b .2).
inline LinkEnds
Link(Ptr<Node> a, Ptr<Node> b, const char* base)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1ms"));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("10000p"));
    NetDeviceContainer devices = p2p.Install(a, b);
    Ipv4AddressHelper address(base, "255.255.255.0");
    Ipv4InterfaceContainer ifs = address.Assign(devices);
    return {ifs.Get(0).second, ifs.Get(1).second, ifs.GetAddress(0), ifs.GetAddress(1)};
}

/// \return a new AdcPolicyRouting installed on \p node at priority 100 (above static)
inline Ptr<AdcPolicyRouting>
InstallPbr(Ptr<Node> node)
{
    Ptr<AdcPolicyRouting> pbr = CreateObject<AdcPolicyRouting>();
    AdcAddTopIpv4Routing(node, pbr, 100);
    return pbr;
}

/// \return \p node's static routing
inline Ptr<Ipv4StaticRouting>
StaticOf(Ptr<Node> node)
{
    Ipv4StaticRoutingHelper helper;
    return helper.GetStaticRouting(node->GetObject<Ipv4>());
}

/// \return a next hop
inline AdcNextHop
Hop(uint32_t interface, Ipv4Address gateway, const std::string& name)
{
    AdcNextHop hop;
    hop.interface = interface;
    hop.gateway = gateway;
    hop.name = name;
    return hop;
}

/// \return a FORWARD rule for UDP with destination ports \p ports to \p hop
inline AdcPolicyRule
UdpPortRule(const std::string& name, AdcPortRange ports, const AdcNextHop& hop)
{
    AdcPolicyRule rule;
    rule.name = name;
    rule.protocol = AdcFlowKey::PROTO_UDP;
    rule.dstPorts = ports;
    rule.action = AdcPolicyRule::FORWARD;
    rule.nextHops = {hop};
    return rule;
}

/// \return a LOCAL rule for everything: a leaf node accepts packets addressed elsewhere
inline AdcPolicyRule
SinkRule()
{
    AdcPolicyRule rule;
    rule.name = "sink";
    rule.action = AdcPolicyRule::LOCAL;
    return rule;
}

/// Install policy routing with SinkRule on \p node: its sockets see packets for any address.
inline void
MakeSink(Ptr<Node> node)
{
    InstallPbr(node)->AddRule(SinkRule());
}

/// One datagram a UdpRecorder socket received.
struct UdpRx
{
    std::string at;   //!< receiving node's name
    Ipv4Address src;  //!< IP source
    uint16_t srcPort; //!< UDP source port
    Ipv4Address dst;  //!< IP destination (from Ipv4PacketInfoTag)
    uint16_t dstPort; //!< UDP destination port (the socket's port)
    uint32_t size;    //!< payload bytes
    Time when;        //!< arrival time
};

/// UDP sockets bound to ANY:port that record every datagram with its original destination.
class UdpRecorder
{
  public:
    /// Open a socket on \p node (named \p name) bound to ANY:\p port.
    void Listen(Ptr<Node> node, const std::string& name, uint16_t port)
    {
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        EXPECT_EQ(s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)), 0);
        s->SetRecvPktInfo(true);
        s->SetRecvCallback(Callback<void, Ptr<Socket>>(
            [this, name, port](Ptr<Socket> sock) { Drain(sock, name, port); }));
        m_sockets.push_back(s);
    }

    /// \return every datagram, in arrival order
    const std::vector<UdpRx>& All() const
    {
        return m_rx;
    }

    /// \return the datagrams received at \p name
    std::vector<UdpRx> At(const std::string& name) const
    {
        std::vector<UdpRx> out;
        for (const UdpRx& rx : m_rx)
        {
            if (rx.at == name)
            {
                out.push_back(rx);
            }
        }
        return out;
    }

  private:
    void Drain(Ptr<Socket> sock, const std::string& name, uint16_t port)
    {
        Address from;
        while (Ptr<Packet> p = sock->RecvFrom(from))
        {
            Ipv4PacketInfoTag info;
            const bool hasInfo = p->RemovePacketTag(info);
            const InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
            m_rx.push_back({name,
                            peer.GetIpv4(),
                            peer.GetPort(),
                            hasInfo ? info.GetAddress() : Ipv4Address(),
                            port,
                            p->GetSize(),
                            Simulator::Now()});
        }
    }

    std::vector<Ptr<Socket>> m_sockets; //!< open sockets
    std::vector<UdpRx> m_rx;            //!< what they received
};

/// \return a UDP socket on \p node bound to \p local:\p port
inline Ptr<Socket>
UdpSender(Ptr<Node> node, Ipv4Address local, uint16_t port)
{
    Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    EXPECT_EQ(s->Bind(InetSocketAddress(local, port)), 0);
    return s;
}

/// Send \p size bytes from \p s to \p dst:\p port at \p at.
inline void
SendAt(Time at, Ptr<Socket> s, Ipv4Address dst, uint16_t port, uint32_t size = 100)
{
    Simulator::Schedule(at, [s, dst, port, size]() {
        EXPECT_GE(s->SendTo(Create<Packet>(size), 0, InetSocketAddress(dst, port)), 0);
    });
}

/// One "RuleMatch" trace call.
struct MatchEvent
{
    std::string rule; //!< rule name
    AdcFlowKey flow;  //!< flow
    uint32_t ingress; //!< ingress interface
    std::string hop;  //!< next-hop name
};

/// One "Drop" trace call.
struct DropEvent
{
    uint32_t size;      //!< packet size (no IP header)
    std::string reason; //!< reason
};

/// Records the "RuleMatch" and "Drop" traces of one AdcPolicyRouting.
struct PbrTraces
{
    std::vector<MatchEvent> matches; //!< RuleMatch calls
    std::vector<DropEvent> drops;    //!< Drop calls

    /// Connect to \p pbr's trace sources.
    void Connect(Ptr<AdcPolicyRouting> pbr)
    {
        EXPECT_TRUE(pbr->TraceConnectWithoutContext(
            "RuleMatch",
            Callback<void, const std::string&, const AdcFlowKey&, uint32_t, const std::string&>(
                [this](const std::string& rule,
                       const AdcFlowKey& flow,
                       uint32_t ingress,
                       const std::string& hop) {
                    matches.push_back({rule, flow, ingress, hop});
                })));
        EXPECT_TRUE(pbr->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet> p, const std::string& reason) {
                    drops.push_back({p->GetSize(), reason});
                })));
    }

    /// \return how many matches named \p rule
    std::size_t CountRule(const std::string& rule) const
    {
        std::size_t n = 0;
        for (const MatchEvent& m : matches)
        {
            n += m.rule == rule ? 1 : 0;
        }
        return n;
    }
};

/// Fixture: every scenario's simulator and global address allocator are reset.
class AdcPolicyRoutingTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Ipv4AddressGenerator::Reset();
    }

    void TearDown() override
    {
        Simulator::Destroy();
        Ipv4AddressGenerator::Reset();
    }
};

} // namespace adcpbrtest
} // namespace ns3

#endif /* ADC_POLICY_ROUTING_TEST_H */
