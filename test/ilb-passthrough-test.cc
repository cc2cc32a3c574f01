/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What the ILB passes as ordinary traffic and how it counts it, as illumos-gate does
 * (usr/src/uts/common/inet/ilb/ilb.c: ilb_check, ilb_rule_hash, ilb_rule_disable,
 * ilb_rule_del, ilb_rule_del_common): a server's packet with no connection and no rule, a
 * disabled rule's packets (pkt_not_processed), a deleted rule's. Fixture: ilb-test-fixture.h.
 */

#include "ilb-test-fixture.h"

namespace
{

TEST_F(IlbScenario, ADirectClientServerConnectionThroughAHalfNatIlbCompletes)
{
    // REQ: ILB-01 (traffic that matches no rule is ordinary traffic)
    Topo t = Build(false, 1, 2);
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    // The client talks to server 1's own address, port 80, through the ILB (its router). The
    // server's replies (from server:80, the port of the rule's servers) have no connection
    // entry and match no rule (their destination is no VIP): illumos ilb_check returns
    // ILB_PASSED ("If not, just let IP decide what to do with it"), so IP forwards them.
    Bulk(t.clients.Get(0), t.serverIp[0], 80, 20000, Seconds(1));
    Run(Seconds(3));

    EXPECT_EQ(m_sinks.Bytes("S1"), 20000u);
    ASSERT_EQ(m_sinks.Conns().size(), 1u);
    EXPECT_EQ(m_sinks.Conns()[0].peer.ip, t.clientIp[0]);
    EXPECT_TRUE(m_log.drops.empty()) << (m_log.drops.empty() ? "" : m_log.drops[0]);
    EXPECT_TRUE(m_log.chosen.empty());
    const IlbAppliance::Counters c = t.app->GetRuleCounters(0);
    EXPECT_EQ(c.packetsIn + c.packetsOut + c.drops + c.packetsNotProcessed, 0u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 0), 0u);
}

TEST_F(IlbScenario, ADirectConnectionAndAVipConnectionToTheSameServerBothComplete)
{
    // REQ: ILB-01, ILB-04, ILB-06
    Topo t = Build(false, 1, 1);
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, {t.serverIp[0]}));
    WatchAll(t);
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 30000, Seconds(1));         // balanced (ilb_check_conn)
    Bulk(t.clients.Get(0), t.serverIp[0], 80, 20000, Seconds(1)); // passed (ILB_PASSED)
    Run(Seconds(3));

    EXPECT_EQ(m_sinks.Bytes("S1"), 50000u);
    EXPECT_EQ(m_log.chosen.size(), 1u);
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_F(IlbScenario, ADisabledRulePassesItsPacketsCountsThemAndKeepsItsConnections)
{
    // REQ: ILB-01 (a disabled rule balances nothing; its packets are ordinary traffic)
    Topo t = Build(false, 1, 2, "5Mbps");
    IlbRule r = Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t));
    r.connDrainTimeout = MilliSeconds(200); // not applied: disable-rule sets no die time
    t.app->AddRule(r);
    WatchAll(t);
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 400000, Seconds(1)); // ~0.7 s at 5 Mb/s
    Simulator::Schedule(Seconds(1.2), &IlbAppliance::SetRuleEnabled, t.app, 0, false);
    Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1.3));
    Run(Seconds(4));

    // ilb_check looks the connection up before the rule (ilb_check_conn "Fast path"), and
    // ilb_rule_disable only clears ILB_RULE_ENABLED: the first transfer (to server 1, S2: the
    // head of ilb_alg_rr.c's list, rr_server_add inserting at the head) runs to its end.
    EXPECT_EQ(m_sinks.Bytes("S2"), 400000u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 0u);
    // The second transfer's SYNs match the disabled rule: ilb_rule_hash "Just update the
    // stats if the rule is disabled" (pkt_not_processed, bytes_not_processed) and returns no
    // rule: ILB_PASSED, not dropped, not balanced. IP has no route to the VIP beyond the ILB.
    EXPECT_EQ(m_log.chosen.size(), 1u);
    EXPECT_EQ(m_sinks.Conns().size(), 1u);
    const IlbAppliance::Counters c = t.app->GetRuleCounters(0);
    EXPECT_GE(c.packetsNotProcessed, 1u);
    // bytes_not_processed adds each packet's IP length: at least 20 (IP, RFC 791) + 20 (TCP,
    // RFC 793) per SYN
    EXPECT_GE(c.bytesNotProcessed, 40 * c.packetsNotProcessed);
    EXPECT_EQ(c.drops, 0u);
    EXPECT_TRUE(m_log.drops.empty());
    EXPECT_FALSE(t.app->IsRuleEnabled(0));
}

TEST_F(IlbScenario, AReEnabledRuleBalancesAgain)
{
    // REQ: ILB-01, ILB-02 (ilb_rule_enable sets ILB_RULE_ENABLED again)
    Topo t = DnsPair();
    t.app->SetRuleEnabled(0, false);
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1));
    Simulator::Schedule(Seconds(2), &IlbAppliance::SetRuleEnabled, t.app, 0, true);
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(3));
    Run(Seconds(4));

    EXPECT_EQ(m_echo[0].replies, 0u);
    EXPECT_EQ(m_echo[1].replies, 1u);
    EXPECT_EQ(t.app->GetRuleCounters(0).packetsNotProcessed, 1u);
    // one 200-byte datagram: 20 IP + 8 UDP + 200 (ilb_rule_hash counts ipha_length)
    EXPECT_EQ(t.app->GetRuleCounters(0).bytesNotProcessed, 228u);
    EXPECT_EQ(m_log.chosen.size(), 1u);
}

TEST_F(IlbScenario, ADeletedRulePassesUncountedAndItsConnectionsAreCutAtTheDrainTimeout)
{
    // REQ: ILB-01
    Topo t = Build(false, 1, 2, "150kbps"); // 400 kB take ~21 s
    IlbRule r = Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t));
    r.connDrainTimeout = MilliSeconds(200);
    t.app->AddRule(r);
    WatchAll(t);
    m_sinks.Listen(t.servers.Get(0), "S1", 80, false);
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 400000, Seconds(1));
    Simulator::Schedule(Seconds(1.2), &IlbAppliance::DeleteRule, t.app, 0);
    Bulk(t.clients.Get(0), kVip4, 80, 10000, Seconds(1.3));
    Run(Seconds(20));

    // ilb_rule_del_common: "if (tmp_rule->ir_conn_drain_timeout != 0)" every server's
    // iser_die_time is set (1.4 s), and the connection (to S2, rr_lb's first) goes at the
    // next cleanup, 15 s (ilb_conn_cleanup: "iser_die_time < now"): cut before its end (~22 s).
    EXPECT_GT(m_sinks.Bytes("S2"), 0u);
    EXPECT_LT(m_sinks.Bytes("S2"), 400000u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 1u);
    // ilb_rule_del took the rule out of the rule hash: the new flow matches nothing, so it
    // is neither balanced nor counted (no rule to count it on).
    EXPECT_EQ(m_log.chosen.size(), 1u);
    EXPECT_EQ(t.app->GetRuleCounters(0).packetsNotProcessed, 0u);
    EXPECT_TRUE(t.app->IsRuleDeleted(0));
    EXPECT_FALSE(t.app->IsRuleEnabled(0));
}

} // namespace
