/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcPolicyRouting as a datapath on the shared hook: IPv6 rules (FORWARD and LOCAL of
 * IPv6 packets, IPv4 rules never matching them), FORWARD through the interface a rule names
 * (on-link, against the static routes), the node's own packets routed through the hooks'
 * RouteOutput in both families (foreign and registered USIP sources kept), the datapath
 * aggregated to its node beside an ILB, and the rule checks for IPv4/IPv6 networks.
 *
 * Topology: S -- R -- {A, Z} (point-to-point, dual stack; IPv6 in fd00::/8, as ns-3 never
 * forwards the documentation prefix 2001:db8::/32). R runs the policy routing under test;
 * its static default routes (IPv4 and IPv6) lead to Z; A and Z accept packets for any address
 * (a LOCAL rule) so a datagram's arrival shows where R sent it.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-ip-mask.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/ilb-appliance.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv6-address-generator.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const Ipv6Address kFar6("fd00:200::1");   // in the IPv6 rules' network; no node owns it
const Ipv6Address kLocal6("fd00:300::1"); // intercepted by R (LOCAL)
const Ipv6Address kOther6("fd00:999::1"); // no rule: R's static default (Z)
const Ipv4Address kFar4("10.200.0.1");

using adctest::ConfigErrorOf;
using adctest::Has;

/// Both ends of a dual-stack link.
struct Ends
{
    uint32_t ifA{0}; //!< interface index on the first node (IPv4 and IPv6 alike)
    uint32_t ifB{0}; //!< interface index on the second node
    Ipv4Address a4;  //!< first node's IPv4 address
    Ipv4Address b4;  //!< second node's IPv4 address
    Ipv6Address a6;  //!< first node's global IPv6 address
    Ipv6Address b6;  //!< second node's global IPv6 address
};

/// One datagram a socket accepted.
struct Rx
{
    std::string at;   //!< node name
    AdcIpAddress src; //!< the sender as the socket saw it
    uint16_t port;    //!< the socket's port
    uint32_t size;    //!< payload bytes
};

/// One "RuleMatch" call.
struct Match
{
    std::string rule; //!< rule name
    AdcFlowKey flow;  //!< flow
    uint32_t ingress; //!< ingress interface
    std::string hop;  //!< hop name
};

/// A datapath whose decisions the test writes (generic hook behaviour).
class ScriptedDatapath : public AdcDatapath
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::AdcPolicyRoutingHookTestDatapath")
                                .SetParent<AdcDatapath>()
                                .SetGroupName("AdcTest")
                                .AddConstructor<ScriptedDatapath>();
        return tid;
    }

    bool Process(const AdcIngress& in, AdcEgress& egress) override
    {
        if (in.flow.protocol != AdcFlowKey::PROTO_UDP || !decide)
        {
            return false;
        }
        failures.push_back(egress.Send(decide(in)));
        return true;
    }

    std::function<AdcVerdict(const AdcIngress&)> decide; //!< null: every packet PASSes
    std::vector<std::string> failures;                   //!< what Send answered
};

NS_OBJECT_ENSURE_REGISTERED(ScriptedDatapath);

/// S -- R -- {A, Z}, dual stack, with policy routing on R and sinks on A and Z.
class AdcPolicyRoutingHookTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Ipv4AddressGenerator::Reset();
        Ipv6AddressGenerator::Reset();
        for (Ptr<Node>* n : {&s, &r, &a, &z})
        {
            *n = CreateObject<Node>();
            AdcMakeListStackHelper(true).Install(*n);
            (*n)->GetObject<Icmpv6L4Protocol>()->SetAttribute("DAD", BooleanValue(false));
        }
        sr = Link(s, r, "10.0.1.0", "fd00:1::");
        ra = Link(r, a, "10.0.2.0", "fd00:2::");
        rz = Link(r, z, "10.0.4.0", "fd00:4::");
        for (Ptr<Node> n : {s, r, a, z})
        {
            Ptr<Ipv6> ip6 = n->GetObject<Ipv6>();
            for (uint32_t i = 0; i < ip6->GetNInterfaces(); ++i)
            {
                ip6->SetForwarding(i, true); // the list gives the hooks forwarded packets only
            }
        }
        Static4(s)->SetDefaultRoute(sr.b4, sr.ifA);
        Static6(s)->SetDefaultRoute(sr.b6, sr.ifA);
        Static4(r)->SetDefaultRoute(rz.b4, rz.ifA);
        Static6(r)->SetDefaultRoute(rz.b6, rz.ifA);
        pbr = CreateObject<AdcPolicyRouting>();
        AdcAddTopIpv4Routing(r, pbr, 100);
        pbr->TraceConnectWithoutContext(
            "RuleMatch",
            Callback<void, const std::string&, const AdcFlowKey&, uint32_t, const std::string&>(
                [this](const std::string& rule,
                       const AdcFlowKey& flow,
                       uint32_t ingress,
                       const std::string& hop) {
                    matches.push_back({rule, flow, ingress, hop});
                }));
        pbr->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet>, const std::string& reason) { drops.push_back(reason); }));
        for (Ptr<Node> leaf : {a, z})
        {
            AdcPolicyRule sink;
            sink.name = "sink";
            sink.action = AdcPolicyRule::LOCAL;
            Ptr<AdcPolicyRouting> p = CreateObject<AdcPolicyRouting>();
            AdcAddTopIpv4Routing(leaf, p, 100);
            p->AddRule(sink);
        }
    }

    void TearDown() override
    {
        Simulator::Destroy();
        Ipv4AddressGenerator::Reset();
        Ipv6AddressGenerator::Reset();
    }

    /// Link \p x and \p y with IPv4 \p base4/24 and IPv6 \p base6/64 (x gets ::1 / .1).
    static Ends Link(Ptr<Node> x, Ptr<Node> y, const char* base4, const char* base6)
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer d = p2p.Install(x, y);
        Ipv4InterfaceContainer i4 = Ipv4AddressHelper(base4, "255.255.255.0").Assign(d);
        Ipv6AddressHelper h6;
        h6.SetBase(Ipv6Address(base6), Ipv6Prefix(64));
        Ipv6InterfaceContainer i6 = h6.Assign(d);
        Ends e;
        e.ifA = i4.Get(0).second;
        e.ifB = i4.Get(1).second;
        e.a4 = i4.GetAddress(0);
        e.b4 = i4.GetAddress(1);
        e.a6 = i6.GetAddress(0, 1);
        e.b6 = i6.GetAddress(1, 1);
        EXPECT_EQ(static_cast<uint32_t>(i6.GetInterfaceIndex(0)), e.ifA); // one index, 2 families
        return e;
    }

    static Ptr<Ipv4StaticRouting> Static4(Ptr<Node> n)
    {
        return Ipv4StaticRoutingHelper().GetStaticRouting(n->GetObject<Ipv4>());
    }

    static Ptr<Ipv6StaticRouting> Static6(Ptr<Node> n)
    {
        return Ipv6StaticRoutingHelper().GetStaticRouting(n->GetObject<Ipv6>());
    }

    /// A UDP socket on \p node at ANY:\p port of the family of \p v6, recording as \p name.
    void Listen(Ptr<Node> node, const std::string& name, uint16_t port, bool v6)
    {
        Ptr<Socket> sock = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        sock->Bind(v6 ? Address(Inet6SocketAddress(Ipv6Address::GetAny(), port))
                      : Address(InetSocketAddress(Ipv4Address::GetAny(), port)));
        sock->SetRecvCallback(Callback<void, Ptr<Socket>>([this, name, port](Ptr<Socket> k) {
            Address from;
            while (Ptr<Packet> p = k->RecvFrom(from))
            {
                const AdcIpAddress src =
                    Inet6SocketAddress::IsMatchingType(from)
                        ? AdcIpAddress(Inet6SocketAddress::ConvertFrom(from).GetIpv6())
                        : AdcIpAddress(InetSocketAddress::ConvertFrom(from).GetIpv4());
                rx.push_back({name, src, port, p->GetSize()});
            }
        }));
        sockets.push_back(sock);
    }

    /// A UDP socket on \p node bound to \p local:\p port (an IPv4 or IPv6 socket address).
    Ptr<Socket> Sender(Ptr<Node> node, const Address& local)
    {
        Ptr<Socket> sock = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        EXPECT_EQ(sock->Bind(local), 0);
        sockets.push_back(sock);
        return sock;
    }

    /// Send \p size bytes from \p sock to \p to at \p at.
    static void SendAt(Time at, Ptr<Socket> sock, const Address& to, uint32_t size)
    {
        Simulator::Schedule(at, [sock, to, size] {
            EXPECT_GE(sock->SendTo(Create<Packet>(size), 0, to), 0);
        });
    }

    /// \return the datagrams accepted at \p name
    std::vector<Rx> At(const std::string& name) const
    {
        std::vector<Rx> out;
        for (const Rx& x : rx)
        {
            if (x.at == name)
            {
                out.push_back(x);
            }
        }
        return out;
    }

    /// \return the datagram of \p size (each test gives each datagram its own size)
    Rx BySize(uint32_t size) const
    {
        for (const Rx& x : rx)
        {
            if (x.size == size)
            {
                return x;
            }
        }
        return {"none", AdcIpAddress(), 0, size};
    }

    Ptr<Node> s, r, a, z;             //!< the nodes
    Ends sr, ra, rz;                  //!< the links
    Ptr<AdcPolicyRouting> pbr;        //!< R's policy routing
    std::vector<Match> matches;       //!< R's "RuleMatch"
    std::vector<std::string> drops;   //!< R's "Drop" reasons
    std::vector<Rx> rx;               //!< what the sockets accepted
    std::vector<Ptr<Socket>> sockets; //!< keep sockets alive
};

/// \return a next hop through \p interface, with gateways \p gw4 / \p gw6 (unset: on-link)
AdcNextHop
Hop(const std::string& name, uint32_t interface, Ipv4Address gw4, Ipv6Address gw6)
{
    AdcNextHop h;
    h.name = name;
    h.interface = interface;
    h.gateway = gw4;
    h.gateway6 = gw6;
    return h;
}

} // namespace

// REQ: CRD-04 (PBR by destination and port range), CRD-11 (LOCAL interception), IPv6 packets
TEST_F(AdcPolicyRoutingHookTest, Ipv6RulesForwardAndInterceptAndIpv4RulesLeaveIpv6Alone)
{
    AdcPolicyRule v4;
    v4.name = "v4-to-Z";
    v4.srcNet = Ipv4Address("10.0.0.0");
    v4.srcMask = Ipv4Mask("255.0.0.0"); // every IPv4 source here: IPv6 packets must skip it
    v4.protocol = AdcFlowKey::PROTO_UDP;
    v4.nextHops = {Hop("Z", rz.ifA, rz.b4, Ipv6Address::GetAny())};
    AdcPolicyRule fwd6;
    fwd6.name = "v6-to-A";
    fwd6.dstNet = Ipv6Address("fd00:200::");
    fwd6.dstMask = Ipv6Prefix(48);
    fwd6.protocol = AdcFlowKey::PROTO_UDP;
    fwd6.dstPorts = AdcPortRange(5000, 5099);
    fwd6.nextHops = {Hop("A", ra.ifA, Ipv4Address(), ra.b6)};
    AdcPolicyRule local6;
    local6.name = "v6-local";
    local6.dstNet = Ipv6Address("fd00:300::");
    local6.dstMask = AdcIpMask::FromPrefixLength(AdcIpAddress::V6, 48);
    local6.action = AdcPolicyRule::LOCAL;
    EXPECT_EQ(pbr->AddRule(v4), 0U);
    EXPECT_EQ(pbr->AddRule(fwd6), 1U);
    EXPECT_EQ(pbr->AddRule(local6), 2U);
    EXPECT_EQ(pbr->GetRule(1).GetFamily(), AdcIpAddress::V6);
    for (uint16_t port : {5000, 7000})
    {
        Listen(a, "A", port, true);
        Listen(z, "Z", port, true);
        Listen(z, "Z", port, false);
        Listen(a, "A", port, false);
    }
    Listen(r, "R", 6000, true);

    Ptr<Socket> tx6 = Sender(s, Inet6SocketAddress(Ipv6Address::GetAny(), 40000));
    Ptr<Socket> tx4 = Sender(s, InetSocketAddress(Ipv4Address::GetAny(), 40000));
    SendAt(Seconds(1), tx6, Inet6SocketAddress(kFar6, 5000), 101);     // rule 1: A
    SendAt(Seconds(1.1), tx6, Inet6SocketAddress(kFar6, 7000), 102);   // no rule: static, Z
    SendAt(Seconds(1.2), tx6, Inet6SocketAddress(kLocal6, 6000), 103); // rule 2: R itself
    SendAt(Seconds(1.3), tx4, InetSocketAddress(kFar4, 5000), 104);    // rule 0: Z
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(BySize(101).at, "A");
    EXPECT_EQ(BySize(101).src, AdcIpAddress(sr.a6));
    EXPECT_EQ(BySize(101).port, 5000);
    EXPECT_EQ(BySize(102).at, "Z");
    EXPECT_EQ(BySize(103).at, "R");
    EXPECT_EQ(BySize(103).src, AdcIpAddress(sr.a6));
    EXPECT_EQ(BySize(104).at, "Z");
    EXPECT_EQ(BySize(104).src, AdcIpAddress(sr.a4));
    EXPECT_EQ(rx.size(), 4U);

    // One RuleMatch per rule-handled packet, the IPv6 ones with their IPv6 5-tuples.
    ASSERT_EQ(matches.size(), 3U);
    EXPECT_EQ(matches[0].rule, "v6-to-A");
    EXPECT_EQ(matches[0].hop, "A");
    EXPECT_EQ(matches[0].ingress, sr.ifB);
    EXPECT_EQ(matches[0].flow, AdcFlowKey(sr.a6, kFar6, 40000, 5000, AdcFlowKey::PROTO_UDP));
    EXPECT_EQ(matches[1].rule, "v6-local");
    EXPECT_EQ(matches[1].hop, "");
    EXPECT_EQ(matches[1].flow.dst, AdcIpAddress(kLocal6));
    EXPECT_EQ(matches[2].rule, "v4-to-Z");
    EXPECT_EQ(matches[2].flow.dst, AdcIpAddress(kFar4));
    EXPECT_EQ(pbr->GetRuleHits(0), 1U);
    EXPECT_EQ(pbr->GetRuleHits(1), 1U);
    EXPECT_EQ(pbr->GetRuleHits(2), 1U);
    EXPECT_TRUE(drops.empty());
}

// REQ: CRD-04 (a PBR rule names its interface: the packet leaves there, whatever the routes say)
TEST_F(AdcPolicyRoutingHookTest, ForwardLeavesThroughTheRuleInterfaceOnLinkInBothFamilies)
{
    // R's static routes send A's addresses to Z; the rule's hop names A's link, no gateway.
    Static4(r)->AddHostRouteTo(ra.b4, rz.b4, rz.ifA);
    Static6(r)->AddHostRouteTo(ra.b6, rz.b6, rz.ifA);
    for (bool v6 : {false, true})
    {
        AdcPolicyRule rule;
        rule.name = v6 ? "to-A-v6" : "to-A-v4";
        rule.dstNet = v6 ? AdcIpAddress(ra.b6) : AdcIpAddress(ra.b4);
        rule.dstMask =
            AdcIpMask::FromPrefixLength(v6 ? AdcIpAddress::V6 : AdcIpAddress::V4, v6 ? 128 : 32);
        rule.protocol = AdcFlowKey::PROTO_UDP;
        rule.dstPorts = AdcPortRange(9, 9);
        rule.nextHops = {Hop("A-link", ra.ifA, Ipv4Address(), Ipv6Address::GetAny())};
        pbr->AddRule(rule);
        Listen(a, "A", 9, v6);
        Listen(z, "Z", 9, v6);
    }
    Ptr<Socket> tx6 = Sender(s, Inet6SocketAddress(Ipv6Address::GetAny(), 40000));
    Ptr<Socket> tx4 = Sender(s, InetSocketAddress(Ipv4Address::GetAny(), 40000));
    SendAt(Seconds(1), tx4, InetSocketAddress(ra.b4, 9), 201);
    SendAt(Seconds(1.1), tx6, Inet6SocketAddress(ra.b6, 9), 202);
    // Another port: no rule, so the static host route holds: to Z, which accepts anything.
    SendAt(Seconds(1.2), tx4, InetSocketAddress(ra.b4, 10), 203);
    Listen(z, "Z", 10, false);
    Listen(a, "A", 10, false);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(BySize(201).at, "A");
    EXPECT_EQ(BySize(202).at, "A");
    EXPECT_EQ(BySize(203).at, "Z"); // the route the rule overrode
    ASSERT_EQ(matches.size(), 2U);
    EXPECT_EQ(matches[0].rule, "to-A-v4");
    EXPECT_EQ(matches[1].rule, "to-A-v6");
    EXPECT_EQ(matches[0].hop, "A-link");
    EXPECT_EQ(matches[1].hop, "A-link");
    EXPECT_TRUE(drops.empty());
}

// REQ: CRD-07 (USIP: the node's own connections leave with the client's address), both families
TEST_F(AdcPolicyRoutingHookTest, RouteOutputThroughTheHooksKeepsForeignAndRegisteredSources)
{
    AdcPolicyRule out;
    out.name = "out-to-A";
    out.protocol = AdcFlowKey::PROTO_UDP;
    out.dstNet = Ipv6Address("fd00:200::");
    out.dstMask = Ipv6Prefix(48);
    out.nextHops = {Hop("A", ra.ifA, Ipv4Address(), ra.b6)};
    pbr->AddRule(out);
    Listen(a, "A", 5000, true);
    Listen(z, "Z", 5000, true);
    Listen(z, "Z", 5000, false);

    const Ipv6Address foreign("fd00:77::5");
    const Ipv6Address usip("fd00:66::7");
    const Ipv4Address usip4("10.66.0.7");
    Ptr<Socket> own = Sender(r, Inet6SocketAddress(Ipv6Address::GetAny(), 3000));
    Ptr<Socket> spoof = Sender(r, Inet6SocketAddress(foreign, 3333));
    Ptr<Socket> own4 = Sender(r, InetSocketAddress(Ipv4Address::GetAny(), 3000));
    SendAt(Seconds(1.0), own, Inet6SocketAddress(kFar6, 5000), 301);     // (c) rule, own source
    SendAt(Seconds(1.1), spoof, Inet6SocketAddress(kFar6, 5000), 302);   // (a) rule, foreign kept
    SendAt(Seconds(1.2), spoof, Inet6SocketAddress(kOther6, 5000), 303); // (a) static, kept
    Simulator::Schedule(Seconds(1.3), [this, usip, usip4]() {
        EXPECT_TRUE(
            pbr->AddOutputSource(AdcFlowKey(usip, kFar6, 3000, 5000, AdcFlowKey::PROTO_UDP)));
        EXPECT_TRUE(
            pbr->AddOutputSource(AdcFlowKey(usip4, kFar4, 3000, 5000, AdcFlowKey::PROTO_UDP)));
        EXPECT_EQ(pbr->GetPendingOutputSource(), std::optional<AdcIpAddress>(usip4));
    });
    SendAt(Seconds(1.3), own, Inet6SocketAddress(kFar6, 5000), 304);   // (b) registered, taken
    SendAt(Seconds(1.3), own4, InetSocketAddress(kFar4, 5000), 305);   // (b) IPv4, static way
    SendAt(Seconds(1.4), own, Inet6SocketAddress(kFar6, 5000), 306);   // (c) again
    SendAt(Seconds(1.5), own, Inet6SocketAddress(kOther6, 5000), 307); // (d) static, own source
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(BySize(301).at, "A");
    EXPECT_EQ(BySize(301).src, AdcIpAddress(ra.a6)); // the hop interface's own address
    EXPECT_EQ(BySize(302).at, "A");
    EXPECT_EQ(BySize(302).src, AdcIpAddress(foreign));
    EXPECT_EQ(BySize(303).at, "Z");
    EXPECT_EQ(BySize(303).src, AdcIpAddress(foreign));
    EXPECT_EQ(BySize(304).at, "A");
    EXPECT_EQ(BySize(304).src, AdcIpAddress(usip));
    EXPECT_EQ(BySize(305).at, "Z");
    EXPECT_EQ(BySize(305).src, AdcIpAddress(usip4));
    EXPECT_EQ(BySize(306).src, AdcIpAddress(ra.a6));
    EXPECT_EQ(BySize(307).at, "Z");
    EXPECT_EQ(BySize(307).src, AdcIpAddress(rz.a6));
    EXPECT_FALSE(pbr->GetPendingOutputSource().has_value());
    EXPECT_EQ(pbr->GetNOutputSources(), 2U);

    // The rule routed 301, 302, 304 and 306, each counted as locally originated.
    ASSERT_EQ(matches.size(), 4U);
    for (const Match& m : matches)
    {
        EXPECT_EQ(m.rule, "out-to-A");
        EXPECT_EQ(m.ingress, AdcPolicyRouting::LOCAL_ORIGIN);
    }
    EXPECT_EQ(matches[1].flow.src, AdcIpAddress(foreign));
    EXPECT_EQ(matches[2].flow.src, AdcIpAddress(usip));
}

// REQ: CRD-03 (the upper tier's datapath lives with its node), CRD-01
TEST_F(AdcPolicyRoutingHookTest, InstalledPolicyRoutingIsAggregatedAndSharesTheNodeWithAnIlb)
{
    // R's policy routing was installed by AdcAddTopIpv4Routing; the test drops its handle.
    Ptr<AdcPolicyRouting> installed = pbr;
    pbr = nullptr;
    EXPECT_EQ(r->GetObject<AdcPolicyRouting>(), installed);
    EXPECT_EQ(installed->GetNode(), r);
    IntegerValue priority;
    installed->GetAttribute("HookPriority", priority);
    EXPECT_EQ(priority.Get(), 100);
    int16_t p4 = 0;
    Ptr<Ipv4ListRouting> list4 =
        DynamicCast<Ipv4ListRouting>(r->GetObject<Ipv4>()->GetRoutingProtocol());
    ASSERT_EQ(list4->GetNRoutingProtocols(), 2U); // the hook above static routing
    EXPECT_EQ(list4->GetRoutingProtocol(0, p4), installed->GetIpv4Routing());
    EXPECT_EQ(p4, 100);
    Ptr<Ipv6ListRouting> list6 =
        DynamicCast<Ipv6ListRouting>(r->GetObject<Ipv6>()->GetRoutingProtocol());
    ASSERT_EQ(list6->GetNRoutingProtocols(), 2U);
    EXPECT_EQ(list6->GetRoutingProtocol(0, p4), installed->GetIpv6Routing());

    // Another kind of datapath shares the node; a second policy routing does not.
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    ilb->SetAttribute("HookPriority", IntegerValue(50));
    EXPECT_EQ(ConfigErrorOf([&] { ilb->Install(r); }), "");
    EXPECT_EQ(r->GetObject<IlbAppliance>(), ilb);
    EXPECT_EQ(r->GetObject<AdcPolicyRouting>(), installed);
    EXPECT_EQ(list4->GetNRoutingProtocols(), 3U);
    const std::string twice =
        ConfigErrorOf([&] { AdcAddTopIpv4Routing(r, CreateObject<AdcPolicyRouting>(), 90); });
    EXPECT_TRUE(Has(twice, "already holds a ns3::AdcPolicyRouting")) << twice;
    EXPECT_EQ(list4->GetNRoutingProtocols(), 3U); // refused before any change

    // With only the node holding it, it still routes: the higher priority sees packets first.
    AdcPolicyRule rule;
    rule.name = "to-A";
    rule.protocol = AdcFlowKey::PROTO_UDP;
    rule.nextHops = {Hop("A", ra.ifA, ra.b4, ra.b6)};
    r->GetObject<AdcPolicyRouting>()->AddRule(rule);
    // Aggregated, its traces have Config paths under the node (Drop: AdcDatapath's, by name).
    const std::string path = "/NodeList/" + std::to_string(r->GetId()) + "/$ns3::AdcPolicyRouting/";
    uint32_t viaConfig = 0;
    EXPECT_TRUE(Config::ConnectWithoutContextFailSafe(
        path + "RuleMatch",
        Callback<void, const std::string&, const AdcFlowKey&, uint32_t, const std::string&>(
            [&viaConfig](const std::string&, const AdcFlowKey&, uint32_t, const std::string&) {
                ++viaConfig;
            })));
    EXPECT_TRUE(
        Config::ConnectWithoutContextFailSafe(path + "Drop",
                                              Callback<void, Ptr<const Packet>, const std::string&>(
                                                  [](Ptr<const Packet>, const std::string&) {})));
    Listen(a, "A", 9, false);
    Listen(a, "A", 9, true);
    Ptr<Socket> tx4 = Sender(s, InetSocketAddress(Ipv4Address::GetAny(), 40000));
    Ptr<Socket> tx6 = Sender(s, Inet6SocketAddress(Ipv6Address::GetAny(), 40000));
    SendAt(Seconds(1), tx4, InetSocketAddress(kFar4, 9), 401);
    SendAt(Seconds(1.1), tx6, Inet6SocketAddress(kFar6, 9), 402);
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    EXPECT_EQ(BySize(401).at, "A");
    EXPECT_EQ(BySize(402).at, "A");
    EXPECT_EQ(installed->GetRuleHits(0), 2U);
    EXPECT_EQ(viaConfig, 2U);
}

// REQ: CRD-04 (hooks carry out FORWARD as a datapath asks: a named interface, checked)
TEST_F(AdcPolicyRoutingHookTest, ForwardVerdictWithAnInterfaceTheNodeLacksFailsWithItsReason)
{
    Ptr<ScriptedDatapath> dp = CreateObject<ScriptedDatapath>();
    dp->SetAttribute("HookPriority", IntegerValue(200)); // above R's policy routing
    dp->Install(r);
    dp->decide = [this](const AdcIngress& in) {
        // Port 1: an interface R lacks; port 2: A's link, on-link to the destination.
        return AdcVerdict::Forward(AdcIpAddress(), in.flow.dstPort == 1 ? 42 : ra.ifA);
    };
    Listen(a, "A", 2, false);
    Ptr<Socket> tx4 = Sender(s, InetSocketAddress(Ipv4Address::GetAny(), 40000));
    SendAt(Seconds(1), tx4, InetSocketAddress(ra.b4, 1), 501);
    SendAt(Seconds(1.1), tx4, InetSocketAddress(ra.b4, 2), 502);
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    ASSERT_EQ(dp->failures.size(), 2U);
    EXPECT_EQ(dp->failures[0], "bad-out-interface");
    EXPECT_EQ(dp->failures[1], "");
    EXPECT_EQ(BySize(502).at, "A");
    EXPECT_EQ(rx.size(), 1U);
    // A datapath without an output side gives the node's own packets no route: static does.
    AdcOutputRoute unused;
    EXPECT_FALSE(dp->ProcessOutput(AdcLocalOutput(), unused));
}

// REQ: CRD-04 (rules name IPv4 or IPv6 networks; a wrong mix is a configuration error)
TEST(AdcPolicyRuleTest, NetworksOfEitherFamilyMatchTheirFamilyAndMixesAreRefused)
{
    AdcIpMask any;
    EXPECT_TRUE(any.IsAny());
    EXPECT_TRUE(any.IsMatch(Ipv4Address("1.2.3.4"), AdcIpAddress()));
    EXPECT_TRUE(any.IsMatch(Ipv6Address("2001:db8::1"), AdcIpAddress()));
    EXPECT_TRUE(AdcIpMask(Ipv4Mask::GetZero()).IsMatch(Ipv6Address("::1"), Ipv4Address()));
    const AdcIpMask m16(Ipv4Mask("255.255.0.0"));
    EXPECT_EQ(m16.GetPrefixLength(), 16);
    EXPECT_TRUE(m16.IsMatch(Ipv4Address("10.1.200.3"), Ipv4Address("10.1.0.0")));
    EXPECT_FALSE(m16.IsMatch(Ipv4Address("10.2.0.3"), Ipv4Address("10.1.0.0")));
    EXPECT_FALSE(m16.IsMatch(Ipv6Address("::a01:1"), Ipv4Address("10.1.0.0"))); // other family
    const AdcIpMask p48(Ipv6Prefix(48));
    EXPECT_EQ(p48, AdcIpMask::FromPrefixLength(AdcIpAddress::V6, 48));
    EXPECT_TRUE(p48.IsMatch(Ipv6Address("2001:db8:200:ffff::9"), Ipv6Address("2001:db8:200::")));
    EXPECT_FALSE(p48.IsMatch(Ipv6Address("2001:db8:201::9"), Ipv6Address("2001:db8:200::")));
    EXPECT_FALSE(p48.IsMatch(Ipv4Address("32.1.13.184"), Ipv6Address("2001:db8:200::")));
    const AdcIpMask odd(Ipv4Mask("255.0.255.0")); // Ipv4Mask allows it, and so does the rule
    EXPECT_TRUE(odd.IsMatch(Ipv4Address("10.7.3.9"), Ipv4Address("10.0.3.0")));
    EXPECT_EQ(odd.Format(Ipv4Address("10.0.3.0")), "10.0.3.0/255.0.255.0");
    EXPECT_EQ(p48.Format(Ipv6Address("2001:db8:200::")), "2001:db8:200::/48");
    EXPECT_EQ(any.Format(AdcIpAddress()), "any");
    std::string msg = ConfigErrorOf([] { AdcIpMask::FromPrefixLength(AdcIpAddress::V4, 33); });
    EXPECT_TRUE(Has(msg, "prefix length 33") && Has(msg, "0..32 for IPv4")) << msg;

    Ptr<AdcPolicyRouting> pbr = CreateObject<AdcPolicyRouting>();
    AdcPolicyRule rule;
    rule.name = "mixed";
    rule.action = AdcPolicyRule::LOCAL;
    rule.srcNet = Ipv4Address("10.0.0.0");
    rule.srcMask = Ipv4Mask("255.0.0.0");
    rule.dstNet = Ipv6Address("2001:db8::");
    rule.dstMask = Ipv6Prefix(32);
    msg = ConfigErrorOf([&] { pbr->AddRule(rule); });
    EXPECT_TRUE(Has(msg, "'mixed'") && Has(msg, "srcNet 10.0.0.0/8 is IPv4") &&
                Has(msg, "dstNet 2001:db8::/32 is IPv6"))
        << msg;
    rule.name = "net-of-other-family";
    rule.srcNet = Ipv6Address("2001:db8::");
    msg = ConfigErrorOf([&] { pbr->AddRule(rule); });
    EXPECT_TRUE(Has(msg, "'net-of-other-family'") && Has(msg, "srcNet 2001:db8::") &&
                Has(msg, "srcMask") && Has(msg, "(IPv4)"))
        << msg;
    rule.name = "mask-without-net";
    rule.srcNet = AdcIpAddress();
    rule.srcMask = AdcIpMask();
    rule.dstNet = AdcIpAddress();
    msg = ConfigErrorOf([&] { pbr->AddRule(rule); });
    EXPECT_TRUE(Has(msg, "dstNet is unset") && Has(msg, "dstMask")) << msg;
    EXPECT_EQ(pbr->GetNRules(), 0U);
    rule.name = "v6";
    rule.dstNet = Ipv6Address("2001:db8::");
    EXPECT_EQ(pbr->AddRule(rule), 0U);
    EXPECT_EQ(pbr->GetRule(0).GetFamily(), AdcIpAddress::V6);
}
