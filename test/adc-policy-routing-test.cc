/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcPolicyRouting: rule validation, forwarding by destination-port range and by
 * ingress interface, sessionless hash balancing, hops following their interfaces. Interception,
 * USIP, malformed packets and locally originated traffic: adc-policy-routing-local-test.cc;
 * IPv6 rules, named interfaces and the hooks' output side: adc-policy-routing-hook-test.cc.
 */

#include "adc-policy-routing-test.h"

using namespace ns3;
using namespace ns3::adcpbrtest;

namespace
{

// ---------------------------------------------------------------------------------------------
// Validation

TEST_F(AdcPolicyRoutingTest, AddRuleRejectsBadRulesNamingRuleAndField)
{
    Ptr<AdcPolicyRouting> pbr = CreateObject<AdcPolicyRouting>();
    const AdcNextHop h1 = Hop(1, Ipv4Address("10.0.0.2"), "h1");
    const AdcNextHop h2 = Hop(2, Ipv4Address("10.0.1.2"), "h2");

    AdcPolicyRule fwd;
    fwd.name = "fwd-none";
    std::string msg = ConfigErrorOf([&] { pbr->AddRule(fwd); });
    EXPECT_TRUE(Has(msg, "'fwd-none'") && Has(msg, "nextHops") && Has(msg, "exactly 1")) << msg;
    fwd.name = "fwd-two";
    fwd.nextHops = {h1, h2};
    msg = ConfigErrorOf([&] { pbr->AddRule(fwd); });
    EXPECT_TRUE(Has(msg, "'fwd-two'") && Has(msg, "nextHops has 2")) << msg;

    AdcPolicyRule bal;
    bal.name = "bal-empty";
    bal.action = AdcPolicyRule::BALANCE;
    msg = ConfigErrorOf([&] { pbr->AddRule(bal); });
    EXPECT_TRUE(Has(msg, "'bal-empty'") && Has(msg, "nextHops") && Has(msg, "at least 1")) << msg;

    bal.name = "bal-dup";
    bal.nextHops = {h1, Hop(2, Ipv4Address("10.0.1.2"), "h1")};
    msg = ConfigErrorOf([&] { pbr->AddRule(bal); });
    EXPECT_TRUE(Has(msg, "'bal-dup'") && Has(msg, "nextHops[1].name")) << msg;

    bal.name = "bal-local";
    bal.nextHops = {h1};
    bal.action = AdcPolicyRule::LOCAL;
    msg = ConfigErrorOf([&] { pbr->AddRule(bal); });
    EXPECT_TRUE(Has(msg, "'bal-local'") && Has(msg, "nextHops") && Has(msg, "LOCAL takes none"))
        << msg;
    bal.action = AdcPolicyRule::PASS;
    msg = ConfigErrorOf([&] { pbr->AddRule(bal); });
    EXPECT_TRUE(Has(msg, "nextHops") && Has(msg, "PASS takes none")) << msg;

    AdcPolicyRule icmp;
    icmp.name = "icmp-ports";
    icmp.action = AdcPolicyRule::LOCAL;
    icmp.protocol = AdcFlowKey::PROTO_ICMP;
    icmp.dstPorts = AdcPortRange(80, 80);
    msg = ConfigErrorOf([&] { pbr->AddRule(icmp); });
    EXPECT_TRUE(Has(msg, "'icmp-ports'") && Has(msg, "dstPorts") && Has(msg, "protocol is 1"))
        << msg;
    icmp.dstPorts.reset();
    icmp.srcPorts = AdcPortRange(80, 80);
    msg = ConfigErrorOf([&] { pbr->AddRule(icmp); });
    EXPECT_TRUE(Has(msg, "srcPorts") && Has(msg, "protocol is 1")) << msg;

    AdcPolicyRule badRange;
    badRange.name = "bad-range";
    badRange.action = AdcPolicyRule::LOCAL;
    badRange.protocol = AdcFlowKey::PROTO_TCP;
    badRange.srcPorts = AdcPortRange(0, 10);
    msg = ConfigErrorOf([&] { pbr->AddRule(badRange); });
    EXPECT_TRUE(Has(msg, "'bad-range'") && Has(msg, "srcPorts")) << msg;

    AdcPolicyRule badAction;
    badAction.name = "bad-action";
    badAction.action = static_cast<AdcPolicyRule::Action>(9);
    msg = ConfigErrorOf([&] { pbr->AddRule(badAction); });
    EXPECT_TRUE(Has(msg, "'bad-action'") && Has(msg, "action 9")) << msg;

    EXPECT_EQ(pbr->GetNRules(), 0u); // nothing half-added

    fwd.name = "fwd-ok";
    fwd.nextHops = {h1};
    EXPECT_EQ(pbr->AddRule(fwd), 0u);
    EXPECT_EQ(pbr->GetRule(0).name, "fwd-ok");
    EXPECT_TRUE(Has(ConfigErrorOf([&] { pbr->GetRule(1); }), "rule 1 is out of range"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { pbr->GetRuleHits(5); }), "GetRuleHits"));
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { pbr->SetNextHopUp(0, 1, false); }), "hop 1 is out of range"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { pbr->SetNextHopUp(3, 0, false); }), "SetNextHopUp"));
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
        const std::string msg = ConfigErrorOf([&] { pbr->AddRule(bal); });
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
    std::string msg = ConfigErrorOf([&] { pbr->AddRule(rule); });
    EXPECT_TRUE(Has(msg, "'far-hop'") && Has(msg, "nextHops[0].interface 5") &&
                Has(msg, "2 Ipv4 interfaces"))
        << msg;
    rule.name = "far-in";
    rule.nextHops = {Hop(1, Ipv4Address("10.0.2.2"), "a")};
    rule.inInterfaces = {1, 7};
    msg = ConfigErrorOf([&] { pbr->AddRule(rule); });
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
    msg = ConfigErrorOf([&] { AdcAddTopIpv4Routing(q, early, 100); });
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

} // namespace
