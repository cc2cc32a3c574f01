/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcPolicyRouting: rule validation, forwarding by destination-port range and by
 * ingress interface, sessionless hash balancing, transparent interception with USIP over TCP,
 * truncated transport headers, locally originated traffic, and the RuleMatch/Drop traces.
 */

#include "adc-test-raw-packets.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-policy-routing.h"
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

using namespace ns3;

namespace
{

const Ipv4Address kFar("10.200.0.1"); // a destination no node owns

/// \return the error message \p f throws, or "" when it throws none
std::string
ErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const AdcConfigError& e)
    {
        return e.what();
    }
    return "";
}

/// \return true when \p text contains \p part
bool
Has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

/// Both ends of a point-to-point link.
struct LinkEnds
{
    uint32_t ifA;      //!< interface index on the first node
    uint32_t ifB;      //!< interface index on the second node
    Ipv4Address addrA; //!< first node's address (.1)
    Ipv4Address addrB; //!< second node's address (.2)
};

/// \return a node with the internet stack (Ipv4ListRouting: static at 0, global at -10)
Ptr<Node>
MakeNode()
{
    Ptr<Node> node = CreateObject<Node>();
    InternetStackHelper stack;
    stack.Install(node);
    return node;
}

/// Connect \p a and \p b by a 1 Gb/s, 1 ms link in \p base/24 (\p a gets .1, \p b .2).
LinkEnds
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

/// \return a new AdcPolicyRouting added to \p node's list at priority 100 (above static)
Ptr<AdcPolicyRouting>
InstallPbr(Ptr<Node> node)
{
    Ptr<Ipv4ListRouting> list =
        DynamicCast<Ipv4ListRouting>(node->GetObject<Ipv4>()->GetRoutingProtocol());
    Ptr<AdcPolicyRouting> pbr = CreateObject<AdcPolicyRouting>();
    list->AddRoutingProtocol(pbr, 100);
    return pbr;
}

/// \return \p node's static routing
Ptr<Ipv4StaticRouting>
StaticOf(Ptr<Node> node)
{
    Ipv4StaticRoutingHelper helper;
    return helper.GetStaticRouting(node->GetObject<Ipv4>());
}

/// \return a next hop
AdcNextHop
Hop(uint32_t interface, Ipv4Address gateway, const std::string& name)
{
    AdcNextHop hop;
    hop.interface = interface;
    hop.gateway = gateway;
    hop.name = name;
    return hop;
}

/// \return a FORWARD rule for UDP with destination ports \p ports to \p hop
AdcPolicyRule
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
AdcPolicyRule
SinkRule()
{
    AdcPolicyRule rule;
    rule.name = "sink";
    rule.action = AdcPolicyRule::LOCAL;
    return rule;
}

/// Install policy routing with SinkRule on \p node: its sockets see packets for any address.
void
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
Ptr<Socket>
UdpSender(Ptr<Node> node, Ipv4Address local, uint16_t port)
{
    Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    EXPECT_EQ(s->Bind(InetSocketAddress(local, port)), 0);
    return s;
}

/// Send \p size bytes from \p s to \p dst:\p port at \p at.
void
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

// ---------------------------------------------------------------------------------------------
// Validation

TEST_F(AdcPolicyRoutingTest, AddRuleRejectsBadRulesNamingRuleAndField)
{
    Ptr<AdcPolicyRouting> pbr = CreateObject<AdcPolicyRouting>();
    const AdcNextHop h1 = Hop(1, Ipv4Address("10.0.0.2"), "h1");
    const AdcNextHop h2 = Hop(2, Ipv4Address("10.0.1.2"), "h2");

    AdcPolicyRule fwd;
    fwd.name = "fwd-none";
    std::string msg = ErrorOf([&] { pbr->AddRule(fwd); });
    EXPECT_TRUE(Has(msg, "'fwd-none'") && Has(msg, "nextHops") && Has(msg, "exactly 1")) << msg;
    fwd.name = "fwd-two";
    fwd.nextHops = {h1, h2};
    msg = ErrorOf([&] { pbr->AddRule(fwd); });
    EXPECT_TRUE(Has(msg, "'fwd-two'") && Has(msg, "nextHops has 2")) << msg;

    AdcPolicyRule bal;
    bal.name = "bal-empty";
    bal.action = AdcPolicyRule::BALANCE;
    msg = ErrorOf([&] { pbr->AddRule(bal); });
    EXPECT_TRUE(Has(msg, "'bal-empty'") && Has(msg, "nextHops") && Has(msg, "at least 1")) << msg;

    bal.name = "bal-dup";
    bal.nextHops = {h1, Hop(2, Ipv4Address("10.0.1.2"), "h1")};
    msg = ErrorOf([&] { pbr->AddRule(bal); });
    EXPECT_TRUE(Has(msg, "'bal-dup'") && Has(msg, "nextHops[1].name")) << msg;

    bal.name = "bal-local";
    bal.nextHops = {h1};
    bal.action = AdcPolicyRule::LOCAL;
    msg = ErrorOf([&] { pbr->AddRule(bal); });
    EXPECT_TRUE(Has(msg, "'bal-local'") && Has(msg, "nextHops") && Has(msg, "LOCAL takes none"))
        << msg;
    bal.action = AdcPolicyRule::PASS;
    msg = ErrorOf([&] { pbr->AddRule(bal); });
    EXPECT_TRUE(Has(msg, "nextHops") && Has(msg, "PASS takes none")) << msg;

    AdcPolicyRule icmp;
    icmp.name = "icmp-ports";
    icmp.action = AdcPolicyRule::LOCAL;
    icmp.protocol = AdcFlowKey::PROTO_ICMP;
    icmp.dstPorts = AdcPortRange(80, 80);
    msg = ErrorOf([&] { pbr->AddRule(icmp); });
    EXPECT_TRUE(Has(msg, "'icmp-ports'") && Has(msg, "dstPorts") && Has(msg, "protocol is 1"))
        << msg;
    icmp.dstPorts.reset();
    icmp.srcPorts = AdcPortRange(80, 80);
    msg = ErrorOf([&] { pbr->AddRule(icmp); });
    EXPECT_TRUE(Has(msg, "srcPorts") && Has(msg, "protocol is 1")) << msg;

    AdcPolicyRule badRange;
    badRange.name = "bad-range";
    badRange.action = AdcPolicyRule::LOCAL;
    badRange.protocol = AdcFlowKey::PROTO_TCP;
    badRange.srcPorts = AdcPortRange(0, 10);
    msg = ErrorOf([&] { pbr->AddRule(badRange); });
    EXPECT_TRUE(Has(msg, "'bad-range'") && Has(msg, "srcPorts")) << msg;

    AdcPolicyRule badAction;
    badAction.name = "bad-action";
    badAction.action = static_cast<AdcPolicyRule::Action>(9);
    msg = ErrorOf([&] { pbr->AddRule(badAction); });
    EXPECT_TRUE(Has(msg, "'bad-action'") && Has(msg, "action 9")) << msg;

    EXPECT_EQ(pbr->GetNRules(), 0u); // nothing half-added

    fwd.name = "fwd-ok";
    fwd.nextHops = {h1};
    EXPECT_EQ(pbr->AddRule(fwd), 0u);
    EXPECT_EQ(pbr->GetRule(0).name, "fwd-ok");
    EXPECT_TRUE(Has(ErrorOf([&] { pbr->GetRule(1); }), "rule 1 is out of range"));
    EXPECT_TRUE(Has(ErrorOf([&] { pbr->GetRuleHits(5); }), "GetRuleHits"));
    EXPECT_TRUE(Has(ErrorOf([&] { pbr->SetNextHopUp(0, 1, false); }), "hop 1 is out of range"));
    EXPECT_TRUE(Has(ErrorOf([&] { pbr->SetNextHopUp(3, 0, false); }), "SetNextHopUp"));
}

TEST_F(AdcPolicyRoutingTest, BalanceAcceptsOnlyHashMethods)
{
    Ptr<AdcPolicyRouting> pbr = CreateObject<AdcPolicyRouting>();
    AdcPolicyRule bal;
    bal.action = AdcPolicyRule::BALANCE;
    bal.nextHops = {Hop(1, Ipv4Address("10.0.0.2"), "a"), Hop(2, Ipv4Address("10.0.1.2"), "b")};
    // Methods with per-flow or per-request state, or keyed on what a packet does not carry.
    for (const std::string method :
         {"ROUNDROBIN", "LEASTCONNECTION", "WEIGHTEDROUNDROBIN", "URLHASH", "roundrobin", "NOSUCH"})
    {
        bal.name = "bal-" + method;
        bal.balanceMethod = method;
        const std::string msg = ErrorOf([&] { pbr->AddRule(bal); });
        EXPECT_TRUE(Has(msg, "'bal-" + method + "'") && Has(msg, "balanceMethod '" + method) &&
                    Has(msg, "same next hop") && Has(msg, "SOURCEIPHASH") &&
                    Has(msg, "DESTINATIONIPHASH") && Has(msg, "MAGLEV") && Has(msg, "hash-ip-port"))
            << msg;
    }
    EXPECT_EQ(pbr->GetNRules(), 0u);
    const std::vector<std::string> hashes = {"SOURCEIPHASH",
                                             "hash-ip",
                                             "hash-ip-port",
                                             "hash-ip-vip",
                                             "DESTINATIONIPHASH",
                                             "MAGLEV",
                                             "maglev"};
    for (const std::string& method : hashes)
    {
        bal.name = "ok-" + method;
        bal.balanceMethod = method;
        EXPECT_NO_THROW(pbr->AddRule(bal)) << method;
    }
    EXPECT_EQ(pbr->GetNRules(), hashes.size());
}

TEST_F(AdcPolicyRoutingTest, InterfaceIndicesAreCheckedOnceTheIpv4IsKnown)
{
    Ptr<Node> r = MakeNode();
    Ptr<Node> a = MakeNode();
    Link(r, a, "10.0.2.0"); // r: loopback 0 and interface 1
    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);

    AdcPolicyRule rule = UdpPortRule("far-hop", AdcPortRange(1, 9), Hop(5, Ipv4Address(), "x"));
    std::string msg = ErrorOf([&] { pbr->AddRule(rule); });
    EXPECT_TRUE(Has(msg, "'far-hop'") && Has(msg, "nextHops[0].interface 5") &&
                Has(msg, "2 Ipv4 interfaces"))
        << msg;
    rule.name = "far-in";
    rule.nextHops = {Hop(1, Ipv4Address("10.0.2.2"), "a")};
    rule.inInterfaces = {1, 7};
    msg = ErrorOf([&] { pbr->AddRule(rule); });
    EXPECT_TRUE(Has(msg, "'far-in'") && Has(msg, "inInterfaces[1] 7")) << msg;
    rule.inInterfaces = {1};
    EXPECT_EQ(pbr->AddRule(rule), 0u);

    // A rule added before the protocol knows its node is checked when it joins the node.
    Ptr<Node> q = MakeNode();
    Link(q, MakeNode(), "10.0.3.0");
    Ptr<AdcPolicyRouting> early = CreateObject<AdcPolicyRouting>();
    rule.name = "early";
    rule.inInterfaces.clear();
    rule.nextHops = {Hop(4, Ipv4Address(), "y")};
    EXPECT_EQ(early->AddRule(rule), 0u);
    Ptr<Ipv4ListRouting> list =
        DynamicCast<Ipv4ListRouting>(q->GetObject<Ipv4>()->GetRoutingProtocol());
    msg = ErrorOf([&] { list->AddRoutingProtocol(early, 100); });
    EXPECT_TRUE(Has(msg, "'early'") && Has(msg, "nextHops[0].interface 4")) << msg;
}

// ---------------------------------------------------------------------------------------------
// Forwarding

// REQ: CRD-04
TEST_F(AdcPolicyRoutingTest, ForwardByDestinationPortRangePicksTheDownstreamNode)
{
    // S -> R -> {A, B, Z}; R's static default route goes to Z.
    Ptr<Node> s = MakeNode();
    Ptr<Node> r = MakeNode();
    std::map<std::string, Ptr<Node>> leaves = {{"A", MakeNode()},
                                               {"B", MakeNode()},
                                               {"Z", MakeNode()}};
    const LinkEnds sr = Link(s, r, "10.0.1.0");
    const LinkEnds ra = Link(r, leaves["A"], "10.0.2.0");
    const LinkEnds rb = Link(r, leaves["B"], "10.0.3.0");
    const LinkEnds rz = Link(r, leaves["Z"], "10.0.4.0");
    StaticOf(s)->SetDefaultRoute(sr.addrB, sr.ifA);
    StaticOf(r)->SetDefaultRoute(rz.addrB, rz.ifA);

    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);
    pbr->AddRule(UdpPortRule("pbr-A", AdcPortRange(5000, 5099), Hop(ra.ifA, ra.addrB, "A")));
    pbr->AddRule(UdpPortRule("pbr-B", AdcPortRange(6000, 6099), Hop(rb.ifA, rb.addrB, "B")));
    PbrTraces traces;
    traces.Connect(pbr);

    const std::vector<uint16_t> ports = {4999, 5000, 5099, 5100, 6000, 6050, 6099, 7000};
    UdpRecorder rec;
    for (auto& [name, node] : leaves)
    {
        MakeSink(node);
        for (uint16_t port : ports)
        {
            rec.Listen(node, name, port);
        }
    }
    Ptr<Socket> tx = UdpSender(s, Ipv4Address::GetAny(), 40000);
    for (std::size_t k = 0; k < ports.size(); ++k)
    {
        SendAt(Seconds(1) + MilliSeconds(k), tx, kFar, ports[k], 100 + k);
    }
    Simulator::Run();

    // Where each port must go, by the ranges above and the static default.
    const std::map<std::string, std::set<uint16_t>> expected = {{"A", {5000, 5099}},
                                                                {"B", {6000, 6050, 6099}},
                                                                {"Z", {4999, 5100, 7000}}};
    for (const auto& [name, want] : expected)
    {
        std::set<uint16_t> got;
        for (const UdpRx& rx : rec.At(name))
        {
            got.insert(rx.dstPort);
        }
        EXPECT_EQ(got, want) << name;
        EXPECT_EQ(rec.At(name).size(), want.size()) << name;
    }

    // REQ: CRD-03 (sessionless MAC-based redirection: header unchanged, nothing kept per flow)
    ASSERT_EQ(rec.All().size(), ports.size());
    for (const UdpRx& rx : rec.All())
    {
        EXPECT_EQ(rx.src, sr.addrA);
        EXPECT_EQ(rx.srcPort, 40000);
        EXPECT_EQ(rx.dst, kFar);
        const auto k = std::find(ports.begin(), ports.end(), rx.dstPort) - ports.begin();
        EXPECT_EQ(rx.size, 100u + k) << rx.dstPort;
    }
    EXPECT_EQ(pbr->GetPerFlowStateBytes(), 0u);

    // One RuleMatch per policy-routed packet, naming rule and hop.
    ASSERT_EQ(traces.matches.size(), 5u);
    for (const MatchEvent& m : traces.matches)
    {
        const bool toA = m.flow.dstPort >= 5000 && m.flow.dstPort <= 5099;
        EXPECT_EQ(m.rule, toA ? "pbr-A" : "pbr-B");
        EXPECT_EQ(m.hop, toA ? "A" : "B");
        EXPECT_EQ(m.ingress, sr.ifB);
        EXPECT_EQ(m.flow.src, AdcIpAddress(sr.addrA));
        EXPECT_EQ(m.flow.dst, AdcIpAddress(kFar));
        EXPECT_EQ(m.flow.srcPort, 40000);
        EXPECT_EQ(m.flow.protocol, AdcFlowKey::PROTO_UDP);
    }
    EXPECT_EQ(pbr->GetRuleHits(0), 2u);
    EXPECT_EQ(pbr->GetRuleHits(1), 3u);
    EXPECT_TRUE(traces.drops.empty());
}

TEST_F(AdcPolicyRoutingTest, IngressInterfaceRulesSendTheSameDestinationDifferentWays)
{
    Ptr<Node> x = MakeNode();
    Ptr<Node> y = MakeNode();
    Ptr<Node> r = MakeNode();
    Ptr<Node> a = MakeNode();
    Ptr<Node> b = MakeNode();
    const LinkEnds xr = Link(x, r, "10.0.1.0");
    const LinkEnds yr = Link(y, r, "10.0.5.0");
    const LinkEnds ra = Link(r, a, "10.0.2.0");
    const LinkEnds rb = Link(r, b, "10.0.3.0");
    StaticOf(x)->SetDefaultRoute(xr.addrB, xr.ifA);
    StaticOf(y)->SetDefaultRoute(yr.addrB, yr.ifA);

    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);
    AdcPolicyRule fromX;
    fromX.name = "from-X";
    fromX.inInterfaces = {xr.ifB};
    fromX.nextHops = {Hop(ra.ifA, ra.addrB, "A")};
    AdcPolicyRule fromY = fromX;
    fromY.name = "from-Y";
    fromY.inInterfaces = {yr.ifB};
    fromY.nextHops = {Hop(rb.ifA, rb.addrB, "B")};
    pbr->AddRule(fromX);
    pbr->AddRule(fromY);
    PbrTraces traces;
    traces.Connect(pbr);

    UdpRecorder rec;
    MakeSink(a);
    MakeSink(b);
    rec.Listen(a, "A", 9);
    rec.Listen(b, "B", 9);
    Ptr<Socket> tx = UdpSender(x, Ipv4Address::GetAny(), 1111);
    Ptr<Socket> ty = UdpSender(y, Ipv4Address::GetAny(), 2222);
    for (int k = 0; k < 4; ++k)
    {
        if (k < 3)
        {
            SendAt(Seconds(1) + MilliSeconds(k), tx, kFar, 9);
        }
        SendAt(Seconds(1) + MilliSeconds(k) + MicroSeconds(500), ty, kFar, 9);
    }
    Simulator::Run();

    ASSERT_EQ(rec.At("A").size(), 3u);
    ASSERT_EQ(rec.At("B").size(), 4u);
    for (const UdpRx& rx : rec.At("A"))
    {
        EXPECT_EQ(rx.src, xr.addrA);
        EXPECT_EQ(rx.dst, kFar);
    }
    for (const UdpRx& rx : rec.At("B"))
    {
        EXPECT_EQ(rx.src, yr.addrA);
        EXPECT_EQ(rx.dst, kFar);
    }
    EXPECT_EQ(traces.CountRule("from-X"), 3u);
    EXPECT_EQ(traces.CountRule("from-Y"), 4u);
    for (const MatchEvent& m : traces.matches)
    {
        EXPECT_EQ(m.ingress, m.rule == "from-X" ? xr.ifB : yr.ifB);
        EXPECT_EQ(m.hop, m.rule == "from-X" ? "A" : "B");
    }
}

TEST_F(AdcPolicyRoutingTest, BalanceSpreadsFlowsKeepsEachFlowOnOneHopAndMovesOnlyDownHopFlows)
{
    const uint32_t kFlows = 1000;
    const uint32_t kPackets = 3; // per flow and round
    const uint16_t kFirstPort = 20000;
    Ptr<Node> s = MakeNode();
    Ptr<Node> r = MakeNode();
    const LinkEnds sr = Link(s, r, "10.0.1.0");
    StaticOf(s)->SetDefaultRoute(sr.addrB, sr.ifA);
    AdcPolicyRule ecmp;
    ecmp.name = "ecmp";
    ecmp.protocol = AdcFlowKey::PROTO_UDP;
    ecmp.dstNet = Ipv4Address("10.200.0.0");
    ecmp.dstMask = Ipv4Mask("255.255.0.0");
    ecmp.action = AdcPolicyRule::BALANCE; // hash-ip-port by default
    UdpRecorder rec;
    const std::vector<std::string> names = {"H0", "H1", "H2"};
    const char* subnets[] = {"10.0.2.0", "10.0.3.0", "10.0.4.0"};
    for (std::size_t h = 0; h < names.size(); ++h)
    {
        Ptr<Node> leaf = MakeNode();
        const LinkEnds rh = Link(r, leaf, subnets[h]);
        ecmp.nextHops.push_back(Hop(rh.ifA, rh.addrB, names[h]));
        MakeSink(leaf);
        rec.Listen(leaf, names[h], 9);
    }
    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);
    pbr->AddRule(ecmp);
    PbrTraces traces;
    traces.Connect(pbr);

    std::vector<Ptr<Socket>> senders;
    for (uint32_t i = 0; i < kFlows; ++i)
    {
        senders.push_back(UdpSender(s, Ipv4Address::GetAny(), kFirstPort + i));
    }
    auto sendRound = [&](Time start) {
        for (uint32_t i = 0; i < kFlows; ++i)
        {
            for (uint32_t j = 0; j < kPackets; ++j)
            {
                SendAt(start + MicroSeconds(10 * (i * kPackets + j)), senders[i], kFar, 9);
            }
        }
    };
    sendRound(Seconds(1));
    Simulator::Schedule(Seconds(1.5), [pbr]() { pbr->SetNextHopUp(0, 1, false); });
    sendRound(Seconds(2));
    // Every hop down: packets are dropped, not left to static routing.
    Simulator::Schedule(Seconds(2.5), [pbr]() {
        pbr->SetNextHopUp(0, 0, false);
        pbr->SetNextHopUp(0, 2, false);
    });
    SendAt(Seconds(3), senders[0], kFar, 9);
    Simulator::Run();

    // hop of each flow (by source port) in each round
    std::map<uint16_t, std::multiset<std::string>> round1;
    std::map<uint16_t, std::multiset<std::string>> round2;
    for (const UdpRx& rx : rec.All())
    {
        EXPECT_EQ(rx.src, sr.addrA);
        EXPECT_LT(rx.when, Seconds(2.5));
        (rx.when < Seconds(1.5) ? round1 : round2)[rx.srcPort].insert(rx.at);
    }
    ASSERT_EQ(round1.size(), kFlows);
    ASSERT_EQ(round2.size(), kFlows);
    std::map<std::string, uint32_t> flowsPerHop;
    std::map<uint16_t, std::string> hopOf;
    for (const auto& [port, hops] : round1)
    {
        ASSERT_EQ(hops.size(), kPackets) << port;
        EXPECT_EQ(hops.count(*hops.begin()), kPackets) << "flow " << port << " was split";
        hopOf[port] = *hops.begin();
        ++flowsPerHop[*hops.begin()];
    }
    for (const std::string& name : names)
    {
        // each hop within 20% of a third of the flows
        EXPECT_NEAR(flowsPerHop[name], kFlows / 3.0, 0.2 * kFlows / 3.0) << name;
    }
    uint32_t moved = 0;
    for (const auto& [port, hops] : round2)
    {
        ASSERT_EQ(hops.size(), kPackets) << port;
        EXPECT_EQ(hops.count(*hops.begin()), kPackets) << "flow " << port << " was split";
        const std::string& now = *hops.begin();
        EXPECT_NE(now, "H1");
        if (hopOf[port] != "H1")
        {
            EXPECT_EQ(now, hopOf[port]) << "flow " << port << " moved off an up hop";
        }
        else
        {
            ++moved;
        }
    }
    EXPECT_EQ(moved, flowsPerHop["H1"]);
    EXPECT_FALSE(pbr->IsNextHopUp(0, 1));
    EXPECT_EQ(pbr->GetPerFlowStateBytes(), 0u);

    // The protocol's choice is exactly that of a hash-ip-port AdcLbMethod over the hop names
    // with the protocol's seed.
    Ptr<AdcLbMethod> reference = AdcLbMethod::Create("hash-ip-port");
    reference->SetHashSeed(pbr->GetHashSeed());
    for (const std::string& name : names)
    {
        AdcBackend backend;
        backend.name = name;
        reference->AddBackend(backend);
    }
    for (const auto& [port, hop] : hopOf)
    {
        AdcLbContext ctx;
        ctx.flow = AdcFlowKey(sr.addrA, kFar, port, 9, AdcFlowKey::PROTO_UDP);
        EXPECT_EQ(names[reference->Select(ctx)], hop) << port;
    }

    ASSERT_EQ(traces.matches.size(), 2u * kFlows * kPackets);
    for (std::size_t k = 0; k < traces.matches.size(); ++k)
    {
        const MatchEvent& m = traces.matches[k];
        EXPECT_EQ(m.rule, "ecmp");
        if (k < kFlows * kPackets)
        {
            EXPECT_EQ(m.hop, hopOf[m.flow.srcPort]);
        }
    }
    ASSERT_EQ(traces.drops.size(), 1u);
    EXPECT_EQ(traces.drops[0].reason, "no-next-hop-up");
    EXPECT_EQ(pbr->GetRuleHits(0), 2u * kFlows * kPackets);
}

TEST_F(AdcPolicyRoutingTest, InterfaceDownTakesItsHopsDown)
{
    Ptr<Node> r = MakeNode();
    const LinkEnds ra = Link(r, MakeNode(), "10.0.2.0");
    const LinkEnds rb = Link(r, MakeNode(), "10.0.3.0");
    Ptr<AdcPolicyRouting> pbr = InstallPbr(r);
    AdcPolicyRule bal;
    bal.name = "bal";
    bal.action = AdcPolicyRule::BALANCE;
    bal.nextHops = {Hop(ra.ifA, ra.addrB, "A"), Hop(rb.ifA, rb.addrB, "B")};
    pbr->AddRule(bal);
    EXPECT_TRUE(pbr->IsNextHopUp(0, 0));
    EXPECT_TRUE(pbr->IsNextHopUp(0, 1));
    Ptr<Ipv4> ipv4 = r->GetObject<Ipv4>();
    ipv4->SetDown(rb.ifA);
    EXPECT_TRUE(pbr->IsNextHopUp(0, 0));
    EXPECT_FALSE(pbr->IsNextHopUp(0, 1));
    pbr->SetNextHopUp(0, 1, true); // administratively up, but its interface is still down
    EXPECT_FALSE(pbr->IsNextHopUp(0, 1));
    ipv4->SetUp(rb.ifA);
    EXPECT_TRUE(pbr->IsNextHopUp(0, 1));
}

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
