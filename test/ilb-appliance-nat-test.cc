/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of IlbAppliance's NAT topologies: Half-NAT and Full-NAT over TCP and UDP, IPv4 and
 * IPv6, response rewriting, checksums, TCP close tracking, Full-NAT port exhaustion, the rule's
 * NAT timeout and malformed transport headers (fixture: ilb-test-fixture.h).
 */

#include "adc-test-raw-packets.h"
#include "ilb-test-fixture.h"

namespace
{

// ---------------------------------------------------------------------------------------------
// ILB-04/05/06: NAT topologies over TCP and UDP, IPv4 and IPv6

/// What one NAT scenario checks, for both families.
struct NatCase
{
    bool v6;                    //!< family
    IlbRule::Topology topology; //!< HALF_NAT or FULL_NAT
};

class IlbNat : public IlbScenario
{
  protected:
    /**
     * \brief TCP rule (VIP:80; srv1 keeps port 80, srv2 listens on 8080) and UDP rule (VIP:53;
     * srv1 on 5353, srv2 keeps 53); two bulk transfers and two echo flows; checks at the
     * servers, at the client and of the ILB's rewrites.
     */
    void RunNat(const NatCase& c)
    {
        Topo t = Build(c.v6, 1, 2);
        const AdcIpAddress vip = c.v6 ? kVip6 : kVip4;
        const AdcIpAddress natFirst =
            c.v6 ? AdcIpAddress(Ipv6Address("2001:99::1")) : AdcIpAddress(Ipv4Address("10.20.0.1"));
        const AdcIpAddress natLast =
            c.v6 ? AdcIpAddress(Ipv6Address("2001:99::2")) : AdcIpAddress(Ipv4Address("10.20.0.2"));
        const AdcPortRange natPorts(20000, 20099);
        IlbRule tcp = Rule("web", vip, 6, 80, c.topology, Two(t));
        tcp.servers[1].port = 8080;
        IlbRule udp = Rule("dns", vip, 17, 53, c.topology, Two(t));
        udp.servers[0].port = 5353;
        for (IlbRule* r : {&tcp, &udp})
        {
            r->natSourceFirst = natFirst;
            r->natSourceLast = natLast;
            r->natPorts = natPorts;
        }
        t.app->AddRule(tcp);
        t.app->AddRule(udp);
        WatchAll(t);
        m_sinks.Listen(t.servers.Get(0), "S1", 80, c.v6);
        m_sinks.Listen(t.servers.Get(1), "S2", 8080, c.v6);
        EchoServer(t.servers.Get(0), 5353);
        EchoServer(t.servers.Get(1), 53);
        const Time start = Seconds(c.v6 ? 3 : 1); // IPv6: after duplicate address detection
        Bulk(t.clients.Get(0), vip, 80, 30000, start);
        Bulk(t.clients.Get(0), vip, 80, 30000, start + MilliSeconds(5));
        // (apart from the transfers' SYNs: a node queues at most 3 packets per unresolved
        // neighbour)
        const EchoStats& e1 = Echo(t.clients.Get(0), vip, 53, 2, start + MilliSeconds(300));
        const EchoStats& e2 = Echo(t.clients.Get(0), vip, 53, 2, start + MilliSeconds(305));
        Run(Seconds(16)); // past the first cleanup (ilb_conn_cleanup at 15 s)

        const bool full = c.topology == IlbRule::FULL_NAT;
        std::set<AdcIpAddress> natSources;
        // Server side (ILB-04 / ILB-05): what each server received.
        const std::map<std::string, std::pair<uint16_t, uint16_t>> servicePorts = {
            {"S1", {80, 5353}},
            {"S2", {8080, 53}}};
        for (const auto& [name, ports] : servicePorts)
        {
            const AdcIpAddress self = t.serverIp[name == "S1" ? 0 : 1];
            for (uint8_t proto : {6, 17})
            {
                const std::vector<Seen> got = m_wire.At(name, proto);
                EXPECT_FALSE(got.empty()) << name << " proto " << int(proto);
                for (const Seen& s : got)
                {
                    EXPECT_EQ(s.flow.dst, self) << name;
                    EXPECT_EQ(s.flow.dstPort, proto == 6 ? ports.first : ports.second) << name;
                    if (full)
                    {
                        EXPECT_TRUE(LessEq(natFirst, s.flow.src) && LessEq(s.flow.src, natLast))
                            << s.flow;
                        EXPECT_TRUE(natPorts.Contains(s.flow.srcPort)) << s.flow;
                        natSources.insert(s.flow.src);
                    }
                    else
                    {
                        EXPECT_EQ(s.flow.src, t.clientIp[0]) << s.flow;
                    }
                }
            }
        }
        if (full)
        {
            // illumos ilb_alloc_nat_addr: each server has its own cursor over the NAT source
            // addresses and increments it first ((++cur) % 2 = 1): every server's first flow
            // (here the only one per rule and server) takes the second address.
            EXPECT_EQ(natSources.size(), 1u);
            EXPECT_EQ(natSources.count(natLast), 1u);
        }
        // Client side (ILB-06): every response comes from VIP:port.
        for (uint8_t proto : {6, 17})
        {
            const std::vector<Seen> got = m_wire.At("C1", proto);
            EXPECT_FALSE(got.empty());
            for (const Seen& s : got)
            {
                EXPECT_EQ(s.flow.src, vip);
                EXPECT_EQ(s.flow.srcPort, proto == 6 ? 80 : 53);
                EXPECT_EQ(s.flow.dst, t.clientIp[0]);
            }
        }
        EXPECT_EQ(e1.replies + e2.replies, 4u);
        for (const EchoStats* e : {&e1, &e2})
        {
            for (const Endpoint& from : e->from)
            {
                EXPECT_EQ(from.ip, vip);
                EXPECT_EQ(from.port, 53);
            }
        }
        // Transfers complete, one per server; the servers saw the client (or NAT) as peer.
        ASSERT_EQ(m_sinks.Conns().size(), 2u);
        EXPECT_EQ(m_sinks.Bytes("S1"), 30000u);
        EXPECT_EQ(m_sinks.Bytes("S2"), 30000u);
        for (const auto& conn : m_sinks.Conns())
        {
            EXPECT_EQ(conn.peer.ip == t.clientIp[0], !full) << conn.peer.ip;
        }
        // Both directions were rewritten.
        uint32_t requests = 0;
        uint32_t responses = 0;
        for (const auto& rw : m_log.rewrites)
        {
            if (rw.direction == "request")
            {
                ++requests;
                EXPECT_EQ(rw.before.dst, vip);
                EXPECT_EQ(rw.after.src == rw.before.src, !full);
            }
            else
            {
                ++responses;
                EXPECT_EQ(rw.direction, "response");
                EXPECT_EQ(rw.after.src, vip);
                EXPECT_EQ(rw.after.dst, t.clientIp[0]);
            }
        }
        EXPECT_EQ(requests,
                  t.app->GetRuleCounters(0).packetsIn + t.app->GetRuleCounters(1).packetsIn);
        EXPECT_EQ(responses,
                  t.app->GetRuleCounters(0).packetsOut + t.app->GetRuleCounters(1).packetsOut);
        EXPECT_TRUE(m_log.drops.empty()) << m_log.drops.size() << " drops";
        // TCP connections ended with FINs both ways: entries gone at the first cleanup (15 s,
        // ilb_conn_cleanup: both FINs acked), long before the 120 s idle timeout; the UDP ones
        // stay (idle timeout 60 s). Full-NAT ports of TCP were released.
        EXPECT_EQ(t.app->GetActiveConnections(0, 0) + t.app->GetActiveConnections(0, 1), 0u);
        EXPECT_EQ(t.app->GetActiveConnections(1, 0) + t.app->GetActiveConnections(1, 1), 2u);
        if (full)
        {
            EXPECT_EQ(t.app->GetNatSources().GetInUse(), 2u);
        }
    }

    /// \return true when a <= b (same family), byte by byte
    static bool LessEq(const AdcIpAddress& a, const AdcIpAddress& b)
    {
        return a == b || a < b;
    }
};

TEST_F(IlbNat, HalfNatIpv4TcpAndUdp)
{
    // REQ: ILB-04
    // REQ: ILB-06
    RunNat({false, IlbRule::HALF_NAT});
}

TEST_F(IlbNat, FullNatIpv4TcpAndUdp)
{
    // REQ: ILB-05
    // REQ: ILB-06
    RunNat({false, IlbRule::FULL_NAT});
}

TEST_F(IlbNat, HalfNatIpv6TcpAndUdp)
{
    // REQ: ILB-04
    // REQ: ILB-06
    RunNat({true, IlbRule::HALF_NAT});
}

TEST_F(IlbNat, FullNatIpv6TcpAndUdp)
{
    // REQ: ILB-05
    // REQ: ILB-06
    RunNat({true, IlbRule::FULL_NAT});
}

// ---------------------------------------------------------------------------------------------
// Checksums

TEST_F(IlbScenario, ChecksumsStayRightThroughHalfNatAndFullNat)
{
    // REQ: ILB-04
    // REQ: ILB-05
    Config::SetGlobal("ChecksumEnabled", BooleanValue(true));
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("half", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    // Half-NAT's one flow goes to server 1, S2 (ilb_alg_rr.c: rr_server_add inserts at the
    // list's head); Full-NAT's only server is S1.
    IlbRule full = Rule("full", kVip4, 6, 81, IlbRule::FULL_NAT, {t.serverIp[0]});
    full.natSourceFirst = Ipv4Address("10.20.0.1");
    full.natSourceLast = Ipv4Address("10.20.0.1");
    full.servers[0].port = 80;
    t.app->AddRule(full);
    WatchAll(t);
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 50000, Seconds(1));
    Bulk(t.clients.Get(0), kVip4, 81, 50000, Seconds(1));
    Run(Seconds(4));

    // The receivers verify checksums and drop bad segments: the bytes arrive only if right.
    EXPECT_EQ(m_sinks.Bytes("S2"), 50000u); // Half-NAT
    EXPECT_EQ(m_sinks.Bytes("S1"), 50000u); // Full-NAT
    for (const char* where : {"S1", "S2", "C1"})
    {
        const std::vector<Seen> got = m_wire.At(where, 6);
        EXPECT_FALSE(got.empty());
        for (const Seen& s : got)
        {
            EXPECT_TRUE(s.checksumOk) << where << " " << s.flow;
        }
    }
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_F(IlbScenario, ChecksumsStayRightThroughFullNatUdpIpv6)
{
    // REQ: ILB-05
    // REQ: ILB-06
    Config::SetGlobal("ChecksumEnabled", BooleanValue(true));
    Topo t = Build(true, 1, 2);
    IlbRule rule = Rule("dns6", kVip6, 17, 53, IlbRule::FULL_NAT, Two(t));
    rule.natSourceFirst = Ipv6Address("2001:99::1");
    rule.natSourceLast = Ipv6Address("2001:99::1");
    t.app->AddRule(rule);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    const EchoStats& e1 = Echo(t.clients.Get(0), kVip6, 53, 3, Seconds(3));
    const EchoStats& e2 = Echo(t.clients.Get(0), kVip6, 53, 3, Seconds(3.01));
    Run(Seconds(5));

    EXPECT_EQ(e1.replies + e2.replies, 6u);
    for (const char* where : {"S1", "S2", "C1"})
    {
        for (const Seen& s : m_wire.At(where, 17))
        {
            EXPECT_TRUE(s.checksumOk) << where << " " << s.flow;
        }
    }
}

TEST_F(IlbScenario, AClosedTcpEntryGoesAtTheNextCleanupWithItsNatPort)
{
    // REQ: ILB-05, ILB-06 (illumos ilb_conn.c: update_conn_tcp only records the FINs and the
    // last ACKs; ilb_conn_cleanup, every 15 s from the first rule, removes the entry once
    // both FINs are acknowledged; there is no TIME_WAIT of the ILB's own)
    Topo t = Build(false, 1, 2);
    IlbRule rule = Rule("web", kVip4, 6, 80, IlbRule::FULL_NAT, Two(t));
    rule.natSourceFirst = Ipv4Address("10.20.0.1");
    rule.natSourceLast = Ipv4Address("10.20.0.1");
    t.app->AddRule(rule); // at 0 s: the cleanups at 15 s, 30 s, ...
    WatchAll(t);
    std::vector<Time> removed;
    t.app->TraceConnectWithoutContext("ConnectionEnded",
                                      Callback<void, const std::string&, const AdcFlowKey&>(
                                          [&removed](const std::string&, const AdcFlowKey&) {
                                              removed.push_back(Simulator::Now());
                                          }));
    uint32_t inUseBefore = 0;
    Simulator::Schedule(Seconds(14.9), [&inUseBefore, &t] {
        inUseBefore = t.app->GetNatSources().GetInUse();
    });
    // The first flow goes to server 1, S2 (ilb_alg_rr.c: rr_server_add inserts at the head).
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1));
    Run(Seconds(16));

    EXPECT_EQ(m_sinks.Bytes("S2"), 10000u);
    // Closed at ~1.1 s, the entry and its NAT port stay until the cleanup at 15 s.
    EXPECT_EQ(inUseBefore, 1u);
    ASSERT_EQ(removed.size(), 1u);
    EXPECT_EQ(removed[0], Seconds(15));
    EXPECT_EQ(t.app->GetNatSources().GetInUse(), 0u);
    EXPECT_TRUE(m_log.drops.empty());
}

// ---------------------------------------------------------------------------------------------
// Full-NAT port exhaustion, NAT timeout

TEST_F(IlbScenario, FullNatPortExhaustionDropsTheFifthFlow)
{
    // REQ: ILB-05
    // illumos ilb_nat.c: a port space per (NAT source, server) pair. Two ports per pair, two
    // servers in round robin: flows 1-4 take ports 5000 and 5001 towards each server (the
    // same ports towards both); flow 5 goes to srv2 (rr_lb starts at the head of ilb_alg_rr.c's
    // list, the server added last), whose pair has no port left: dropped.
    Topo t = Build(false, 1, 2);
    IlbRule rule = Rule("dns", kVip4, 17, 53, IlbRule::FULL_NAT, Two(t));
    rule.natSourceFirst = Ipv4Address("10.20.0.1");
    rule.natSourceLast = Ipv4Address("10.20.0.1");
    rule.natPorts = AdcPortRange(5000, 5001);
    t.app->AddRule(rule);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    std::vector<const EchoStats*> flows;
    for (int i = 0; i < 5; ++i)
    {
        flows.push_back(&Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1 + 0.1 * i)));
    }
    Run(Seconds(2));

    for (int i = 0; i < 4; ++i)
    {
        EXPECT_EQ(flows[i]->replies, 1u) << "flow " << i + 1;
    }
    EXPECT_EQ(flows[4]->replies, 0u);
    EXPECT_EQ(m_log.ServersOf("dns"), (std::vector<uint32_t>{1, 0, 1, 0}));
    EXPECT_EQ(m_log.Drops("nat-ports-exhausted"), 1u);
    EXPECT_EQ(m_log.drops.size(), 1u);
    EXPECT_EQ(m_log.exhausted, (std::vector<std::string>{"dns"}));
    EXPECT_EQ(t.app->GetNatExhausted(0), 1u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drops, 1u);
    for (const char* s : {"S1", "S2"})
    {
        std::vector<uint16_t> ports;
        for (const Seen& seen : m_wire.At(s, 17))
        {
            EXPECT_EQ(seen.flow.src, AdcIpAddress(Ipv4Address("10.20.0.1")));
            ports.push_back(seen.flow.srcPort);
        }
        EXPECT_EQ(ports, (std::vector<uint16_t>{5000, 5001})) << s;
    }
}

TEST_F(IlbScenario, ARuleNatTimeoutIsEnforcedByTheCleanupNotTheNextPacket)
{
    // REQ: ILB-05 (illumos ilb_conn.c: ilb_find_conn uses an entry whatever its idle time;
    // ilb_conn_cleanup, every 15 s, removes those with "conn_c2s_atime < expiry &&
    // conn_s2c_atime < expiry", expiry = now - the rule's nat-timeout)
    Topo t = Build(false, 1, 2);
    for (uint16_t port : {53, 54})
    {
        IlbRule rule =
            Rule(port == 53 ? "short" : "long", kVip4, 17, port, IlbRule::FULL_NAT, Two(t));
        rule.natSourceFirst = Ipv4Address(port == 53 ? "10.20.0.1" : "10.20.0.2");
        rule.natSourceLast = rule.natSourceFirst;
        rule.natTimeout = port == 53 ? Seconds(5) : Seconds(20); // both below UDP's 60 s
        t.app->AddRule(rule);
        EchoServer(t.servers.Get(0), port);
        EchoServer(t.servers.Get(1), port);
    }
    WatchAll(t);
    // One flow per rule (one socket each): packets at 1 s, 8.5 s and 16 s.
    const EchoStats& shortFlow = Echo(t.clients.Get(0), kVip4, 53, 3, Seconds(1), Seconds(7.5));
    const EchoStats& longFlow = Echo(t.clients.Get(0), kVip4, 54, 3, Seconds(1), Seconds(7.5));
    Run(Seconds(17));

    // short: at 8.5 s the entry has been idle 7.5 s, past its 5 s, but no cleanup has run:
    // the same flow. The cleanup at 15 s finds it idle 6.5 s: removed; at 16 s a new flow, round
    // robin's next server. long (20 s): one flow throughout. Round robin starts at server 1
    // (ilb_alg_rr.c: rr_server_add inserts at the list's head).
    EXPECT_EQ(m_log.ServersOf("short"), (std::vector<uint32_t>{1, 0}));
    EXPECT_EQ(m_log.ServersOf("long"), (std::vector<uint32_t>{1}));
    EXPECT_EQ(shortFlow.replies, 3u);
    EXPECT_EQ(longFlow.replies, 3u);
    // The idle entries' NAT ports went back: one port in use per rule.
    uint32_t inUse1 = 0;
    uint32_t inUse2 = 0;
    const IlbNatSourceTable& nat = t.app->GetNatSources();
    for (uint32_t i = 0; i < nat.GetN(); ++i)
    {
        const IlbNatSourceTable::Entry& e = nat.Get(i);
        (e.source == AdcIpAddress(Ipv4Address("10.20.0.1")) ? inUse1 : inUse2) +=
            e.ports.GetInUse();
    }
    EXPECT_EQ(inUse1, 1u);
    EXPECT_EQ(inUse2, 1u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 0), 1u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 1), 0u);
}

// ---------------------------------------------------------------------------------------------
// Malformed transport headers

TEST_F(IlbScenario, TruncatedAndMalformedTransportHeadersToAVipAreDropped)
{
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    t.app->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    auto sendRaw = [&](uint8_t protocol, std::vector<uint8_t> bytes, AdcIpAddress dst, Time at) {
        Ptr<Socket> s = Socket::CreateSocket(t.clients.Get(0), Ipv4RawSocketFactory::GetTypeId());
        s->SetAttribute("Protocol", UintegerValue(protocol));
        Simulator::Schedule(at, [s, bytes, dst] {
            s->SendTo(Create<Packet>(bytes.data(), bytes.size()),
                      0,
                      InetSocketAddress(dst.GetIpv4(), 0));
        });
    };
    std::vector<uint8_t> tcpShort = {0x30, 0x39};
    std::vector<uint8_t> tcpBadOffset(20, 0);
    tcpBadOffset[2] = 0;
    tcpBadOffset[3] = 80;
    tcpBadOffset[12] = 0x20; // data offset 2 words: less than a TCP header
    std::vector<uint8_t> tcpLongOffset = tcpBadOffset;
    tcpLongOffset[12] = 0xf0; // 60 bytes of header claimed, 20 present
    std::vector<uint8_t> tcpBadOption(24, 0);
    tcpBadOption[3] = 80;
    tcpBadOption[12] = 0x60; // 24 bytes: 4 bytes of options
    tcpBadOption[20] = 8;    // a timestamp option (10 bytes) that does not fit
    tcpBadOption[21] = 10;
    std::vector<uint8_t> udpShort = {0x30, 0x39, 0x00};
    AdcRemoveQueueDiscsEverywhere(); // truncated headers: see adc-test-raw-packets.h
    sendRaw(6, tcpShort, kVip4, Seconds(1));
    sendRaw(6, tcpBadOffset, kVip4, Seconds(1.1));
    sendRaw(6, tcpLongOffset, kVip4, Seconds(1.2));
    sendRaw(6, tcpBadOption, kVip4, Seconds(1.3));
    sendRaw(17, udpShort, kVip4, Seconds(1.4));
#ifndef NS3_BUILD_PROFILE_DEBUG
    // Not to a VIP: ordinary traffic, forwarded untouched however short. (An ns-3 built with its
    // own asserts aborts when its UDP layer at S1 reads the 3-byte datagram, so an in-tree debug
    // build leaves this case out.)
    sendRaw(17, udpShort, t.serverIp[0], Seconds(1.5));
#endif
    Run(Seconds(2));

    EXPECT_EQ(m_log.Drops("truncated-transport-header"), 3u);
    EXPECT_EQ(m_log.Drops("malformed-transport-header"), 2u);
    EXPECT_EQ(m_log.drops.size(), 5u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drops, 4u);
    EXPECT_EQ(t.app->GetRuleCounters(1).drops, 1u);
    EXPECT_TRUE(m_log.matches.empty());
#ifndef NS3_BUILD_PROFILE_DEBUG
    const std::vector<Seen> atS1 = m_wire.At("S1", 17);
    ASSERT_EQ(atS1.size(), 1u); // the short datagram to S1 was forwarded untouched
    EXPECT_EQ(atS1[0].flow.src, t.clientIp[0]);
#endif
}

} // namespace
