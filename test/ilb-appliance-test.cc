/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of IlbAppliance (Solaris ILB, seed 001): rule validation, rule matching, server choice
 * (roundrobin, hash-ip) and DSR over IPv4 and IPv6, with and without the ILB as the servers'
 * router. NAT topologies are in ilb-appliance-nat-test.cc, server state (services, health,
 * draining, stickiness) in ilb-appliance-service-test.cc; the fixture is ilb-test-fixture.h.
 * Header fields are checked where the packets are received (the nodes' Ipv4L3Protocol /
 * Ipv6L3Protocol "Rx" traces, parsed) and by the applications.
 */

#include "ilb-test-fixture.h"

namespace
{

// ---------------------------------------------------------------------------------------------
// Configuration

TEST(IlbApplianceConfig, ErrorsNameTheRuleAndTheField)
{
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    const AdcIpAddress s1(Ipv4Address("10.1.0.2"));
    const AdcIpAddress s2(Ipv4Address("10.1.0.3"));
    auto base = [&](const std::string& name) {
        return Rule(name, kVip4, 6, 80, IlbRule::HALF_NAT, {s1, s2});
    };

    IlbRule noServers = base("r-noservers");
    noServers.servers.clear();
    std::string e = ConfigErrorOf([&] { ilb->AddRule(noServers); });
    EXPECT_TRUE(Has(e, "'r-noservers'") && Has(e, "servers")) << e;

    IlbRule vipIsServer = base("r-vipserver");
    vipIsServer.servers[1].address = kVip4;
    e = ConfigErrorOf([&] { ilb->AddRule(vipIsServer); });
    EXPECT_TRUE(Has(e, "'r-vipserver'") && Has(e, "srv2") && Has(e, "overlap")) << e;

    IlbRule badAlg = base("r-alg");
    badAlg.algorithm = "leastconn";
    e = ConfigErrorOf([&] { ilb->AddRule(badAlg); });
    EXPECT_TRUE(Has(e, "'r-alg'") && Has(e, "algorithm") && Has(e, "'leastconn'") &&
                Has(e, "roundrobin, hash-ip, hash-ip-port, hash-ip-vip"))
        << e;

    IlbRule icmp = base("r-proto");
    icmp.protocol = 1;
    e = ConfigErrorOf([&] { ilb->AddRule(icmp); });
    EXPECT_TRUE(Has(e, "'r-proto'") && Has(e, "protocol '1'") && Has(e, "17 (UDP)")) << e;

    IlbRule longPrefix = base("r-prefix");
    longPrefix.stickyPrefix = 33;
    e = ConfigErrorOf([&] { ilb->AddRule(longPrefix); });
    EXPECT_TRUE(Has(e, "'r-prefix'") && Has(e, "stickyPrefix /33") && Has(e, "0..32")) << e;

    IlbRule longPrefix6 =
        Rule("r-prefix6", kVip6, 6, 80, IlbRule::HALF_NAT, {Ipv6Address("2001:2::2")});
    longPrefix6.stickyPrefix = 129;
    e = ConfigErrorOf([&] { ilb->AddRule(longPrefix6); });
    EXPECT_TRUE(Has(e, "'r-prefix6'") && Has(e, "stickyPrefix /129") && Has(e, "0..128")) << e;

    IlbRule family = base("r-family");
    family.servers[0].address = Ipv6Address("2001:2::2");
    e = ConfigErrorOf([&] { ilb->AddRule(family); });
    EXPECT_TRUE(Has(e, "'r-family'") && Has(e, "srv1") && Has(e, "family")) << e;

    IlbRule noNat = base("r-nonat");
    noNat.topology = IlbRule::FULL_NAT;
    e = ConfigErrorOf([&] { ilb->AddRule(noNat); });
    EXPECT_TRUE(Has(e, "'r-nonat'") && Has(e, "natSourceFirst/natSourceLast unset")) << e;

    IlbRule inverted = noNat;
    inverted.name = "r-inverted";
    inverted.natSourceFirst = Ipv4Address("10.20.0.9");
    inverted.natSourceLast = Ipv4Address("10.20.0.1");
    e = ConfigErrorOf([&] { ilb->AddRule(inverted); });
    EXPECT_TRUE(Has(e, "'r-inverted'") && Has(e, "10.20.0.9-10.20.0.1") && Has(e, "empty")) << e;

    IlbRule natFamily = noNat;
    natFamily.name = "r-natfamily";
    natFamily.natSourceFirst = Ipv6Address("2001:99::1");
    natFamily.natSourceLast = Ipv6Address("2001:99::2");
    e = ConfigErrorOf([&] { ilb->AddRule(natFamily); });
    EXPECT_TRUE(Has(e, "'r-natfamily'") && Has(e, "NAT range") && Has(e, "family")) << e;

    EXPECT_EQ(ilb->GetNRules(), 0u); // nothing half-added

    // Across rules: a VIP may not be another rule's server, nor a server another rule's VIP.
    ASSERT_EQ(ilb->AddRule(base("web")), 0u);
    IlbRule vipOnServer =
        Rule("r-cross1", s1, 17, 53, IlbRule::HALF_NAT, {Ipv4Address("10.1.0.9")});
    e = ConfigErrorOf([&] { ilb->AddRule(vipOnServer); });
    EXPECT_TRUE(Has(e, "'r-cross1'") && Has(e, "vip 10.1.0.2") && Has(e, "'web'")) << e;
    IlbRule serverOnVip = Rule("r-cross2",
                               AdcIpAddress(Ipv4Address("10.10.10.11")),
                               6,
                               80,
                               IlbRule::HALF_NAT,
                               {kVip4});
    e = ConfigErrorOf([&] { ilb->AddRule(serverOnVip); });
    EXPECT_TRUE(Has(e, "'r-cross2'") && Has(e, "address 10.10.10.10") && Has(e, "'web'") &&
                Has(e, "overlap"))
        << e;

    IlbRule overlap = base("r-ports");
    overlap.ports = AdcPortRange(70, 90);
    e = ConfigErrorOf([&] { ilb->AddRule(overlap); });
    EXPECT_TRUE(Has(e, "'r-ports'") && Has(e, "70-90") && Has(e, "'web'")) << e;

    e = ConfigErrorOf([&] { ilb->AddRule(base("web")); });
    EXPECT_TRUE(Has(e, "'web'") && Has(e, "already used")) << e;

    e = ConfigErrorOf([&] { ilb->SetServerUp(0, 2, false); });
    EXPECT_TRUE(Has(e, "'web'") && Has(e, "server index 2")) << e;
    EXPECT_EQ(ilb->GetNRules(), 1u);

    // Valid: same VIP, other protocol; and a FULL_NAT rule on another port.
    IlbRule udp = Rule("dns", kVip4, 17, 53, IlbRule::FULL_NAT, {s1, s2});
    udp.natSourceFirst = Ipv4Address("10.20.0.1");
    udp.natSourceLast = Ipv4Address("10.20.0.4");
    EXPECT_EQ(ilb->AddRule(udp), 1u);
    // illumos ilb_create_nat_src: a port space per (NAT source, server) pair, of ports
    // NAT_PORT_START (4096) .. NAT_PORT_START + NAT_PORT_SIZE - 1 = 4096 + 61439 - 1 = 65534.
    const IlbNatSourceTable& nat = ilb->GetNatSources();
    EXPECT_EQ(nat.GetN(), 4u * 2u);
    const IlbNatSourceTable::Entry* entry = nat.Find(Ipv4Address("10.20.0.4"), s2, 0);
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->ports.GetRange(), AdcPortRange(4096, 65534));
    EXPECT_EQ(nat.Find(Ipv4Address("10.20.0.5"), s2, 0), nullptr);
}

// ---------------------------------------------------------------------------------------------
// ILB-01: rule matching

TEST_F(IlbScenario, NonMatchingTrafficPassesUnchangedAndFiresNoRuleMatch)
{
    // REQ: ILB-01
    // S3 is not in the rule: the ILB routes the VIP to it as ordinary traffic (it owns the VIP
    // on its loopback), so traffic to the VIP that matches no rule still has a destination.
    Topo t = Build(false, 1, 3);
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    Ipv4StaticRoutingHelper routing;
    routing.GetStaticRouting(t.ilb->GetObject<Ipv4>())
        ->AddHostRouteTo(kVip4.GetIpv4(), t.serverIp[2].GetIpv4(), 2);
    OwnVip(t.servers.Get(2), kVip4);
    WatchAll(t);
    VipEchoServer(t.servers.Get(2), kVip4, 80);        // UDP to VIP:80: other protocol
    m_sinks.Listen(t.servers.Get(2), "S3", 81, false); // TCP to VIP:81: other port
    EchoServer(t.servers.Get(0), 7);                   // UDP to S1:7: other address
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false); // the matching traffic
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    const EchoStats& otherProto = Echo(t.clients.Get(0), kVip4, 80, 2, Seconds(1));
    const EchoStats& otherAddr = Echo(t.clients.Get(0), t.serverIp[0], 7, 2, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 81, 10000, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1.5));
    Run(Seconds(4));

    // Non-matching traffic arrived with the client's headers, unrewritten.
    EXPECT_EQ(otherProto.replies, 2u);
    EXPECT_EQ(otherAddr.replies, 2u);
    EXPECT_EQ(m_sinks.Bytes("S3"), 10000u);
    for (const Seen& s : m_wire.At("S3", 17))
    {
        EXPECT_EQ(s.flow.src, t.clientIp[0]);
        EXPECT_EQ(s.flow.dst, kVip4);
        EXPECT_EQ(s.flow.dstPort, 80);
    }
    for (const Seen& s : m_wire.At("S3", 6))
    {
        EXPECT_EQ(s.flow.dst, kVip4);
        EXPECT_EQ(s.flow.dstPort, 81);
    }
    EXPECT_FALSE(m_wire.At("S3", 6).empty());
    const std::vector<Seen> atS1 = m_wire.At("S1", 17);
    ASSERT_EQ(atS1.size(), 2u);
    for (const Seen& s : atS1)
    {
        EXPECT_EQ(s.flow.src, t.clientIp[0]);
        EXPECT_EQ(s.flow.dst, t.serverIp[0]);
        EXPECT_EQ(s.flow.dstPort, 7);
    }
    // RuleMatch fired for the matching traffic only.
    EXPECT_EQ(m_sinks.Bytes("S1") + m_sinks.Bytes("S2"), 10000u);
    ASSERT_FALSE(m_log.matches.empty());
    for (const auto& [rule, flow] : m_log.matches)
    {
        EXPECT_EQ(rule, "web");
        EXPECT_EQ(flow.dst, kVip4);
        EXPECT_EQ(flow.dstPort, 80);
        EXPECT_EQ(flow.protocol, 6);
    }
    EXPECT_EQ(m_log.chosen.size(), 1u);
    EXPECT_TRUE(m_log.drops.empty());
}

// ---------------------------------------------------------------------------------------------
// ILB-02: server choice

TEST_F(IlbScenario, RoundRobinAlternatesServersPerNewFlow)
{
    // REQ: ILB-02
    Topo t = DnsPair();
    for (int i = 0; i < 4; ++i)
    {
        Echo(t.clients.Get(0), kVip4, 53, 2, Seconds(1) + MilliSeconds(10 * i));
    }
    Run(Seconds(3));

    // Four flows of two packets: ServerChosen once per flow, alternating; RuleMatch per packet.
    // illumos ilb_alg_rr.c: rr_server_add inserts each server at the list's head, so the list
    // is srv2, srv1 and rr_lb (starting at the head, rr_next NULL) gives srv2 first.
    EXPECT_EQ(m_log.ServersOf("dns"), (std::vector<uint32_t>{1, 0, 1, 0}));
    ASSERT_EQ(m_log.chosen.size(), 4u);
    EXPECT_EQ(m_log.chosen[0].name, "srv2");
    EXPECT_EQ(m_log.chosen[1].name, "srv1");
    std::set<uint16_t> ports;
    for (const auto& c : m_log.chosen)
    {
        ports.insert(c.flow.srcPort);
    }
    EXPECT_EQ(ports.size(), 4u); // four distinct flows
    EXPECT_EQ(m_log.matches.size(), 8u);
    EXPECT_EQ(t.app->GetServerCounters(0, 0).packetsIn, 4u);
    EXPECT_EQ(t.app->GetServerCounters(0, 1).packetsIn, 4u);
    EXPECT_EQ(t.app->GetRuleCounters(0).connections, 4u);
    EXPECT_EQ(m_wire.At("S1", 17).size(), 4u);
    EXPECT_EQ(m_wire.At("S2", 17).size(), 4u);
    for (const EchoStats& e : m_echo)
    {
        EXPECT_EQ(e.replies, 2u);
    }
}

TEST_F(IlbScenario, HashIpKeepsAClientOnOneServer)
{
    // REQ: ILB-02
    Topo t = Build(false, 2, 2);
    IlbRule rule = Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t));
    rule.algorithm = "hash-ip";
    t.app->AddRule(rule);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    for (int i = 0; i < 6; ++i)
    {
        Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1) + MilliSeconds(50 * i));
        Echo(t.clients.Get(1), kVip4, 53, 1, Seconds(1) + MilliSeconds(50 * i + 25));
    }
    Run(Seconds(3));

    ASSERT_EQ(m_log.chosen.size(), 12u);
    std::map<AdcIpAddress, std::set<uint32_t>> serversOf;
    std::map<AdcIpAddress, std::set<uint16_t>> portsOf;
    for (const auto& c : m_log.chosen)
    {
        serversOf[c.flow.src].insert(c.server);
        portsOf[c.flow.src].insert(c.flow.srcPort);
    }
    ASSERT_EQ(serversOf.size(), 2u);
    for (const auto& [client, servers] : serversOf)
    {
        EXPECT_EQ(servers.size(), 1u) << client; // six flows (six ports), one server
        EXPECT_EQ(portsOf[client].size(), 6u);
    }
    for (const EchoStats& e : m_echo)
    {
        EXPECT_EQ(e.replies, 1u);
    }
}

// ---------------------------------------------------------------------------------------------
// ILB-03: DSR

/// \return \p r with algorithm hash-ip: DSR keeps no connection state, so a TCP rule needs
/// an algorithm (or sticky) that keeps a connection's packets on one server (illumos ILB
/// documentation; DsrRoundRobinSpreadsOneConnectionOverTheServers shows why)
IlbRule
HashIp(IlbRule r)
{
    r.algorithm = "hash-ip";
    return r;
}

TEST_F(IlbScenario, DsrRoundRobinSpreadsOneConnectionOverTheServers)
{
    // REQ: ILB-02, ILB-03 (illumos ilb.c, ilb_check: DSR adds no conn, every packet goes
    // through the algorithm). One TCP connection per rule: roundrobin sends its segments to
    // both servers; hash-ip and sticky keep it on one.
    Topo t = Build(false, 1, 2, "100Mbps", true);
    t.app->AddRule(Rule("rr", kVip4, 6, 80, IlbRule::DSR, Two(t)));
    t.app->AddRule(HashIp(Rule("hash", kVip4, 6, 81, IlbRule::DSR, Two(t))));
    IlbRule sticky = Rule("sticky", kVip4, 6, 82, IlbRule::DSR, Two(t));
    sticky.sticky = true;
    t.app->AddRule(sticky);
    WatchAll(t);
    DsrServers(t);
    for (uint32_t s = 0; s < 2; ++s)
    {
        m_sinks.Listen(t.servers.Get(s), "H" + std::to_string(s + 1), 81, false);
        m_sinks.Listen(t.servers.Get(s), "K" + std::to_string(s + 1), 82, false);
    }
    Bulk(t.clients.Get(0), kVip4, 80, 20000, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 81, 20000, Seconds(2));
    Bulk(t.clients.Get(0), kVip4, 82, 20000, Seconds(3));
    Run(Seconds(6));

    // Which servers received segments of each rule's one connection (one client port each).
    for (uint16_t port : {80, 81, 82})
    {
        std::set<uint16_t> clientPorts;
        std::set<std::string> servers;
        for (const char* name : {"S1", "S2"})
        {
            for (const Seen& s : m_wire.At(name, 6))
            {
                if (s.flow.src == t.clientIp[0] && s.flow.dstPort == port)
                {
                    clientPorts.insert(s.flow.srcPort);
                    servers.insert(name);
                }
            }
        }
        EXPECT_EQ(clientPorts.size(), 1u) << port;
        EXPECT_EQ(servers.size(), port == 80 ? 2u : 1u) << port;
    }
    // ServerChosen fires per packet: roundrobin alternates within the connection, from the
    // head of ilb_alg_rr.c's list (rr_server_add inserts at the head: srv2, srv1).
    const std::vector<uint32_t> rr = m_log.ServersOf("rr");
    ASSERT_GE(rr.size(), 2u);
    EXPECT_EQ(rr[0], 1u);
    EXPECT_EQ(rr[1], 0u);
    const std::vector<uint32_t> hash = m_log.ServersOf("hash");
    EXPECT_EQ(std::set<uint32_t>(hash.begin(), hash.end()).size(), 1u);
    EXPECT_EQ(m_log.ServersOf("sticky"),
              std::vector<uint32_t>(m_log.ServersOf("sticky").size(), 1));
    // The hashed and the sticky connections complete, each at one server.
    EXPECT_EQ(m_sinks.Bytes("H1") + m_sinks.Bytes("H2"), 20000u);
    EXPECT_EQ(m_sinks.Bytes("K2"), 20000u);
    for (uint32_t r = 0; r < 3; ++r)
    {
        EXPECT_EQ(t.app->GetRuleCounters(r).connections, 1u) << r; // its one pure SYN
        EXPECT_EQ(t.app->GetActiveConnections(r, 0) + t.app->GetActiveConnections(r, 1), 0u);
    }
}

TEST_F(IlbScenario, DsrRewritesOnlyTheMacAndResponsesBypassTheIlb)
{
    // REQ: ILB-03
    // One LAN: only the VIP is routed through the ILB, so servers answer the client directly.
    Topo t = Build(false, 1, 2, "100Mbps", true);
    t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::DSR, Two(t)));
    t.app->AddRule(HashIp(Rule("web", kVip4, 6, 80, IlbRule::DSR, Two(t))));
    WatchAll(t);
    DsrServers(t);
    const EchoStats& e1 = Echo(t.clients.Get(0), kVip4, 53, 2, Seconds(1));
    const EchoStats& e2 = Echo(t.clients.Get(0), kVip4, 53, 2, Seconds(1.01));
    Bulk(t.clients.Get(0), kVip4, 80, 20000, Seconds(1.5));
    Run(Seconds(4));

    // At the servers: the client's packets with their IP and transport headers untouched
    // (same 5-tuple and identification as when they reached the ILB, TTL one lower).
    const std::vector<Seen> atIlb = m_wire.At("ILB", 17);
    uint32_t udpAtServers = 0;
    for (const char* name : {"S1", "S2"})
    {
        const std::vector<Seen> got = m_wire.At(name, 17);
        EXPECT_EQ(got.size(), 2u) << name; // roundrobin per packet: e1, e2, e1, e2
        udpAtServers += got.size();
        for (const Seen& s : got)
        {
            EXPECT_EQ(s.flow.src, t.clientIp[0]);
            EXPECT_EQ(s.flow.dst, kVip4);
            EXPECT_EQ(s.flow.dstPort, 53);
            auto same = std::find_if(atIlb.begin(), atIlb.end(), [&](const Seen& i) {
                return i.flow == s.flow && i.id == s.id;
            });
            ASSERT_NE(same, atIlb.end());
            EXPECT_EQ(s.ttl + 1, same->ttl);
        }
        for (const Seen& s : m_wire.At(name, 6))
        {
            EXPECT_EQ(s.flow.src, t.clientIp[0]);
            EXPECT_EQ(s.flow.dst, kVip4);
            EXPECT_EQ(s.flow.dstPort, 80);
        }
    }
    EXPECT_EQ(udpAtServers, 4u);
    // The responses come from VIP:port straight from the servers: the ILB never sees them.
    EXPECT_EQ(e1.replies + e2.replies, 4u);
    for (const EchoStats* e : {&e1, &e2})
    {
        for (const Endpoint& from : e->from)
        {
            EXPECT_EQ(from.ip, kVip4);
            EXPECT_EQ(from.port, 53);
        }
    }
    ASSERT_EQ(m_sinks.Conns().size(), 1u);
    EXPECT_EQ(m_sinks.Bytes(), 20000u);
    EXPECT_EQ(m_sinks.Conns()[0].local.ip, kVip4); // the server's end of the connection
    for (uint32_t r = 0; r < 2; ++r)
    {
        EXPECT_GT(t.app->GetRuleCounters(r).packetsIn, 0u);
        EXPECT_EQ(t.app->GetRuleCounters(r).packetsOut, 0u);
    }
    for (uint8_t proto : {6, 17})
    {
        for (const Seen& s : m_wire.At("ILB", proto))
        {
            EXPECT_NE(s.flow.src, kVip4);
        }
    }
    EXPECT_TRUE(m_log.rewrites.empty());
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_F(IlbScenario, DsrResponsesCrossTheIlbUnchangedWhenItIsTheRouter)
{
    // REQ: ILB-03
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::DSR, Two(t)));
    t.app->AddRule(HashIp(Rule("web", kVip4, 6, 80, IlbRule::DSR, Two(t))));
    WatchAll(t);
    DsrServers(t);
    const EchoStats& e1 = Echo(t.clients.Get(0), kVip4, 53, 3, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 80, 20000, Seconds(1.5));
    Run(Seconds(4));

    EXPECT_EQ(e1.replies, 3u);
    EXPECT_EQ(m_sinks.Bytes(), 20000u);
    // Every response the ILB forwarded left exactly as it arrived (TTL aside).
    const std::vector<Seen> in = m_wire.At("ILB", 17);
    uint32_t responses = 0;
    for (uint8_t proto : {6, 17})
    {
        const std::vector<Seen> arrived = m_wire.At("ILB", proto);
        for (const Seen& f : m_wire.At("ILB/fwd", proto))
        {
            if (f.flow.src != kVip4)
            {
                continue;
            }
            ++responses;
            EXPECT_EQ(f.flow.dst, t.clientIp[0]);
            EXPECT_EQ(f.flow.srcPort, proto == 6 ? 80 : 53);
            auto same = std::find_if(arrived.begin(), arrived.end(), [&](const Seen& a) {
                return a.flow == f.flow && a.id == f.id;
            });
            ASSERT_NE(same, arrived.end());
            EXPECT_EQ(f.ttl + 1, same->ttl);
        }
    }
    // DSR keeps no entries, so a response matches neither an entry nor a rule and goes on by
    // ordinary routing, uncounted (illumos ilb_check returns ILB_PASSED for it).
    EXPECT_GT(responses, 3u); // the three echo replies and the TCP responses
    EXPECT_EQ(t.app->GetRuleCounters(0).packetsOut, 0u);
    EXPECT_EQ(t.app->GetRuleCounters(1).packetsOut, 0u);
    for (const Seen& s : m_wire.At("C1", 17))
    {
        EXPECT_EQ(s.flow.src, kVip4);
    }
    EXPECT_TRUE(m_log.rewrites.empty());
    EXPECT_EQ(t.app->GetActiveConnections(1, 0) + t.app->GetActiveConnections(1, 1), 0u);
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_F(IlbScenario, DsrIpv6Udp)
{
    // REQ: ILB-03
    Topo t = Build(true, 1, 2);
    t.app->AddRule(Rule("dns6", kVip6, 17, 53, IlbRule::DSR, Two(t)));
    WatchAll(t);
    for (uint32_t s = 0; s < 2; ++s)
    {
        OwnVip(t.servers.Get(s), kVip6);
        VipEchoServer(t.servers.Get(s), kVip6, 53);
    }
    const EchoStats& e1 = Echo(t.clients.Get(0), kVip6, 53, 2, Seconds(3));
    const EchoStats& e2 = Echo(t.clients.Get(0), kVip6, 53, 2, Seconds(3.01));
    Run(Seconds(5));

    for (const char* name : {"S1", "S2"})
    {
        const std::vector<Seen> got = m_wire.At(name, 17);
        EXPECT_EQ(got.size(), 2u) << name;
        for (const Seen& s : got)
        {
            EXPECT_EQ(s.flow.src, t.clientIp[0]);
            EXPECT_EQ(s.flow.dst, kVip6);
            EXPECT_EQ(s.flow.dstPort, 53);
        }
    }
    EXPECT_EQ(e1.replies + e2.replies, 4u);
    for (const Endpoint& from : e1.from)
    {
        EXPECT_EQ(from.ip, kVip6);
    }
    EXPECT_TRUE(m_log.rewrites.empty());
}

} // namespace
