/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of IlbAppliance's server state: sticky prefixes, draining (ilbadm disable-server, the
 * rule's conn-drain), reported health (SetServerUp), and the shared object model under it:
 * each server an AdcService (admin state, health from bound AdcHealthMonitor objects), each
 * rule selecting through an AdcVirtualServer (fixture: ilb-test-fixture.h).
 */

#include "ilb-test-fixture.h"

namespace
{

// ---------------------------------------------------------------------------------------------
// Sticky sessions

TEST_F(IlbScenario, StickyPrefix24KeepsASubnetOnOneServerAndPrefix32DoesNot)
{
    // REQ: ILB-02
    Topo t = Build(false, 2, 2); // both clients in 10.0.0.0/24
    IlbRule by24 = Rule("sticky24", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t));
    by24.sticky = true;
    by24.stickyPrefix = 24;
    IlbRule by32 = Rule("sticky32", kVip4, 17, 54, IlbRule::HALF_NAT, Two(t));
    by32.sticky = true;
    by32.stickyPrefix = 32;
    t.app->AddRule(by24);
    t.app->AddRule(by32);
    WatchAll(t);
    for (uint32_t s = 0; s < 2; ++s)
    {
        EchoServer(t.servers.Get(s), 53);
        EchoServer(t.servers.Get(s), 54);
    }
    for (uint16_t port : {53, 54})
    {
        Echo(t.clients.Get(0), kVip4, port, 1, Seconds(1));
        Echo(t.clients.Get(1), kVip4, port, 1, Seconds(1.1));
        Echo(t.clients.Get(0), kVip4, port, 1, Seconds(1.2));
    }
    Run(Seconds(3));

    // /24: the first client's choice (roundrobin: server 1, the head of ilb_alg_rr.c's list,
    // rr_server_add inserting at the head) holds for its whole /24.
    EXPECT_EQ(m_log.ServersOf("sticky24"), (std::vector<uint32_t>{1, 1, 1}));
    // /32: the second client is another key, so roundrobin gives it the other server; the
    // first client's new flow sticks to its server.
    EXPECT_EQ(m_log.ServersOf("sticky32"), (std::vector<uint32_t>{1, 0, 1}));
    // illumos ilb_check runs the algorithm before ilb_sticky_find_add: /24: the second client
    // and the first client's second flow find the entry; /32: only the latter.
    EXPECT_EQ(t.app->GetStickyTable().GetHits(0), 2u);
    EXPECT_EQ(t.app->GetStickyTable().GetHits(1), 1u);
    for (const EchoStats& e : m_echo)
    {
        EXPECT_EQ(e.replies, 1u);
    }
}

// ---------------------------------------------------------------------------------------------
// Draining and health

TEST_F(IlbScenario, DrainingLetsAConnectionFinishAndSendsNewFlowsElsewhere)
{
    Topo t = Build(false, 1, 2, "5Mbps");
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    const uint32_t activeWhileDraining =
        RunDrain(t, [&t] { t.app->SetServerEnabled(0, 1, false); });

    // The first flow to rr_lb's first server, 1 (ilb_alg_rr.c rr_server_add: list head).
    EXPECT_EQ(m_log.ServersOf("web"), (std::vector<uint32_t>{1, 0, 0}));
    EXPECT_EQ(activeWhileDraining, 1u);
    EXPECT_EQ(m_sinks.Bytes("S2"), 400000u); // the drained transfer ran to its end
    EXPECT_EQ(m_sinks.Bytes("S1"), 20000u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 1), 0u); // then its entry went with its FINs
    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 0u);
    EXPECT_TRUE(m_log.drops.empty())
        << (m_log.drops.empty() ? "" : m_log.drops[0]) << " " << m_log.drops.size();
}

/// \return how many TCP segments with RST set \p where received from \p src port \p port
uint32_t
ResetsFrom(const Wire& wire, const std::string& where, const AdcIpAddress& src, uint16_t port)
{
    uint32_t n = 0;
    for (const Seen& s : wire.At(where, 6))
    {
        n += s.flow.src == src && s.flow.srcPort == port && (s.tcpFlags & 0x04) != 0 ? 1 : 0;
    }
    return n;
}

TEST_F(IlbScenario, ConnDrainTimeoutCutsTheConnectionAndTheNextSegmentGetsAReset)
{
    // REQ: ILB-04, ILB-06 (illumos ilb.c, ilb_check: a segment without an entry opens one,
    // "The server should return a RST", and the entry translates the RST back; ilb_conn.c
    // ilb_conn_cleanup cuts a server's connections at its first run after the die time)
    Topo t = Build(false, 1, 2, "150kbps"); // 400 kB take ~21 s
    IlbRule rule = Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t));
    rule.connDrainTimeout = MilliSeconds(200);
    t.app->AddRule(rule);
    WatchAll(t);
    // The first flow goes to server 1 (S2; ilb_alg_rr.c rr_server_add inserts at the list's
    // head). Server 0 (S1) has no socket on port 80, so its TCP answers a segment of an unknown
    // connection with a RST, as a real server does (an ns-3 listening socket ignores a stray
    // ACK instead of resetting it as RFC 793 asks).
    m_sinks.Listen(t.servers.Get(1), "S2", 80, false);
    Bulk(t.clients.Get(0), kVip4, 80, 400000, Seconds(1));
    Simulator::Schedule(Seconds(1.2), &IlbAppliance::SetServerEnabled, t.app, 0, 1, false);
    uint32_t activeAt14 = 0;
    Simulator::Schedule(Seconds(14.9), [&] { activeAt14 = t.app->GetActiveConnections(0, 1); });
    Run(Seconds(25));

    EXPECT_GT(m_sinks.Bytes("S2"), 0u);
    // Its die time is 1.4 s; the cleanup at 15 s (every 15 s from the rule's creation at 0 s)
    // cuts it, before its end (~22 s).
    EXPECT_EQ(activeAt14, 1u);
    EXPECT_LT(m_sinks.Bytes("S2"), 400000u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 1u);
    EXPECT_EQ(t.app->GetServerCounters(0, 1).drained, 1u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 1), 0u);
    // The client's next segment has no entry: it opens one, to the enabled server, which
    // knows no such connection and resets it; the RST reaches the client from VIP:80 and
    // removes the entry. Responses without an entry (S2's answers to what was in flight at the
    // cut) are not the ILB's: illumos ilb_check finds no conn and no rule for them and returns
    // ILB_PASSED ("just let IP decide what to do with it"), so nothing is dropped.
    const std::vector<uint32_t> servers = m_log.ServersOf("web");
    ASSERT_GE(servers.size(), 2u);
    EXPECT_EQ(servers[0], 1u);
    EXPECT_EQ(std::count(servers.begin() + 1, servers.end(), 0u),
              static_cast<std::ptrdiff_t>(servers.size() - 1));
    EXPECT_EQ(t.app->GetRuleCounters(0).connections, servers.size());
    EXPECT_GE(ResetsFrom(m_wire, "C1", kVip4, 80), 1u);
    EXPECT_TRUE(m_log.drops.empty()) << m_log.drops.size();
    EXPECT_EQ(t.app->GetServerCounters(0, 0).drops + t.app->GetServerCounters(0, 1).drops, 0u);
}

TEST_F(IlbScenario, DownServerGetsNoNewFlowsAndItsExistingFlowCarriesOn)
{
    // REQ: ILB-02 (illumos ilbd_hc.c, ilbd_set_fail_state: a failed check disables the server
    // in the kernel, as disable-server does; ilb_check_conn keeps using an existing entry)
    Topo t = DnsPair();
    // Flow A: packets at 1.0 .. 1.4 s, to server 1 (rr_lb's first: ilb_alg_rr.c rr_server_add
    // inserts at the list's head); server 1 goes down at 1.25 s.
    const EchoStats& a = Echo(t.clients.Get(0), kVip4, 53, 5, Seconds(1));
    Simulator::Schedule(Seconds(1.25), &IlbAppliance::SetServerUp, t.app, 0, 1, false);
    const EchoStats& b = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.5));
    const EchoStats& c = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.6));
    Run(Seconds(3));

    // A keeps its entry and its server for all five packets; B and C avoid server 1.
    EXPECT_TRUE(m_log.drops.empty());
    EXPECT_EQ(m_log.ServersOf("dns"), (std::vector<uint32_t>{1, 0, 0}));
    EXPECT_EQ(a.replies, 5u);
    EXPECT_EQ(b.replies, 1u);
    EXPECT_EQ(c.replies, 1u);
    EXPECT_EQ(m_wire.At("S2", 17).size(), 5u);
    EXPECT_EQ(t.app->GetServerCounters(0, 1).packetsIn, 5u);
    EXPECT_EQ(t.app->GetServerCounters(0, 1).drops, 0u);
    EXPECT_EQ(t.app->GetServerCounters(0, 0).packetsIn, 2u);
}

TEST_F(IlbScenario, FailedHealthCheckLetsTheConnectionFinishAndSendsNewFlowsElsewhere)
{
    // REQ: ILB-02 (a failed health check is ilbd's disable-server: draining, as below)
    Topo t = Build(false, 1, 2, "5Mbps");
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    Ptr<IlbAppliance> app = t.app;
    const uint32_t activeWhileDown = RunDrain(t, [app] { app->SetServerUp(0, 1, false); });

    EXPECT_EQ(m_log.ServersOf("web"), (std::vector<uint32_t>{1, 0, 0}));
    EXPECT_EQ(activeWhileDown, 1u);
    EXPECT_EQ(m_sinks.Bytes("S2"), 400000u); // the transfer to the down server ran to its end
    EXPECT_EQ(m_sinks.Bytes("S1"), 20000u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 1), 0u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 0u);
    EXPECT_TRUE(m_log.drops.empty())
        << (m_log.drops.empty() ? "" : m_log.drops[0]) << " " << m_log.drops.size();
}

TEST_F(IlbScenario, FailedHealthCheckIsCutAfterConnDrainUnlessUpBefore)
{
    // REQ: ILB-02 (illumos ilb_server_toggle sets the die time of a disabled server from the
    // rule's conn-drain, whoever disabled it; enabling clears it)
    // 150 kb/s: the two 400 kB transfers together take ~45 s, past the cleanup at 15 s, which
    // cuts a server's connections after its die time (ilb_conn_cleanup: "iser_die_time < now").
    Topo t = Build(false, 1, 2, "150kbps");
    IlbRule rule = Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t));
    rule.connDrainTimeout = MilliSeconds(200);
    t.app->AddRule(rule);
    rule.name = "web2";
    rule.ports = AdcPortRange(81, 81);
    t.app->AddRule(rule);
    WatchAll(t);
    for (uint16_t port : {80, 81})
    {
        m_sinks.Listen(t.servers.Get(1), "S2", port, false);
    }
    // Each rule's first flow goes to server 1 (ilb_alg_rr.c: rr_server_add, list head).
    Bulk(t.clients.Get(0), kVip4, 80, 400000, Seconds(1));   // rule web: to S2
    Bulk(t.clients.Get(0), kVip4, 81, 400000, Seconds(2.5)); // rule web2: to S2
    // web: down at 1.2 s, cut at the cleanup at 15 s (die time 1.4 s). web2: down at 2.7 s,
    // up again at 2.8 s (the die time cleared).
    Simulator::Schedule(Seconds(1.2), &IlbAppliance::SetServerUp, t.app, 0, 1, false);
    Simulator::Schedule(Seconds(2.7), &IlbAppliance::SetServerUp, t.app, 1, 1, false);
    Simulator::Schedule(Seconds(2.8), &IlbAppliance::SetServerUp, t.app, 1, 1, true);
    Run(Seconds(60));

    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 1u);
    EXPECT_EQ(t.app->GetServerCounters(0, 1).drained, 1u);
    EXPECT_EQ(t.app->GetRuleCounters(1).drained, 0u); // up again: the cut was cancelled
    ASSERT_EQ(m_sinks.Conns().size(), 2u);
    EXPECT_LT(m_sinks.Conns()[0].bytes, 400000u);
    EXPECT_EQ(m_sinks.Conns()[1].bytes, 400000u);
}

// ---------------------------------------------------------------------------------------------
// Servers are services, rules select through virtual servers

TEST(IlbApplianceServices, RuleServersAreServicesAndTheRuleIsAVirtualServer)
{
    // REQ: ILB-02
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    ilb->SetHashSeed(1234);
    IlbRule rule =
        Rule("web",
             kVip4,
             6,
             80,
             IlbRule::HALF_NAT,
             {AdcIpAddress(Ipv4Address("10.1.0.2")), AdcIpAddress(Ipv4Address("10.1.0.3"))});
    rule.ports = AdcPortRange(80, 81);
    rule.servers[1].port = 8080;
    rule.servers[1].weight = 3;
    ilb->AddRule(rule);
    ilb->AddRule(Rule("dns", kVip4, 17, 53, IlbRule::DSR, {AdcIpAddress(Ipv4Address("10.1.0.4"))}));
    IlbRule hashed =
        Rule("hashed", kVip4, 17, 54, IlbRule::HALF_NAT, {AdcIpAddress(Ipv4Address("10.1.0.5"))});
    hashed.algorithm = "HASH-IP";
    ilb->AddRule(hashed);

    Ptr<AdcService> s1 = ilb->GetServerService(0, 0);
    Ptr<AdcService> s2 = ilb->GetServerService(0, 1);
    EXPECT_EQ(s1->GetName(), "srv1");
    EXPECT_EQ(s1->GetAddress(), AdcIpAddress(Ipv4Address("10.1.0.2")));
    EXPECT_EQ(s1->GetServiceType(), "ANY"); // port 0: the port the client addressed
    EXPECT_EQ(s1->GetPort(), 0);
    EXPECT_EQ(s2->GetServiceType(), "TCP");
    EXPECT_EQ(s2->GetPort(), 8080);
    EXPECT_EQ(s2->GetWeight(), 3u);
    EXPECT_EQ(ilb->GetServerService(1, 0)->GetServiceType(), "ANY");

    Ptr<AdcVirtualServer> vs = ilb->GetRuleVServer(0);
    EXPECT_EQ(vs->GetName(), "web");
    EXPECT_EQ(vs->GetVip(), kVip4);
    EXPECT_EQ(vs->GetServiceType(), "TCP");
    EXPECT_EQ(vs->GetPort(), 0); // a port range is "*"; IlbRuleSet matches the range
    EXPECT_EQ(vs->GetLbMethodName(), "WEIGHTEDROUNDROBIN"); // roundrobin with unequal weights
    EXPECT_EQ(vs->GetLbMethod()->GetHashSeed(), 1234u);
    BooleanValue unknownIsUp;
    vs->GetAttribute("UnknownIsUp", unknownIsUp);
    EXPECT_TRUE(unknownIsUp.Get());
    const auto bindings = vs->GetServiceBindings();
    ASSERT_EQ(bindings.size(), 2u);
    EXPECT_EQ(bindings[0].name, "srv1");
    EXPECT_EQ(bindings[1].name, "srv2");
    EXPECT_EQ(ilb->GetRuleVServer(1)->GetLbMethodName(), "ROUNDROBIN");
    EXPECT_EQ(ilb->GetRuleVServer(1)->GetPort(), 53);
    EXPECT_EQ(ilb->GetRuleVServer(1)->GetServiceType(), "UDP");
    // hash-ip on an ILB is illumos's own hash (ilb_alg_hash.c); the seed still reaches it
    // (it ignores it: illumos's hashes have none).
    EXPECT_EQ(ilb->GetRuleVServer(2)->GetLbMethodName(), "ILBHASHIP");
    ilb->SetHashSeed(99);
    EXPECT_EQ(ilb->GetRuleVServer(2)->GetLbMethod()->GetHashSeed(), 99u);

    // enable-server / disable-server is the service's admin state, both ways.
    ilb->SetServerEnabled(0, 0, false);
    EXPECT_EQ(s1->GetAdminState(), AdcService::DISABLED);
    EXPECT_EQ(s1->GetState(), AdcService::State::OUT_OF_SERVICE);
    s1->Enable();
    EXPECT_TRUE(ilb->IsServerEnabled(0, 0));
    s2->Disable();
    EXPECT_FALSE(ilb->IsServerEnabled(0, 1));
    // A reported health check result takes the service out of its virtual server and back.
    ilb->SetServerUp(0, 0, false);
    EXPECT_FALSE(ilb->IsServerUp(0, 0));
    EXPECT_EQ(vs->GetServiceBindings().size(), 1u);
    EXPECT_EQ(vs->GetState(), AdcService::State::DOWN); // srv2 is disabled, srv1 reported down
    ilb->SetServerUp(0, 0, true);
    EXPECT_TRUE(ilb->IsServerUp(0, 0));
    EXPECT_EQ(vs->GetServiceBindings().size(), 2u);
    EXPECT_EQ(vs->GetState(), AdcService::State::UP);

    EXPECT_TRUE(Has(ConfigErrorOf([&] { ilb->GetServerService(0, 2); }),
                    "GetServerService: server index 2 is out of range (2 servers)"));
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { ilb->GetRuleVServer(3); }), "rule index 3 is out of range"));
    IlbRule heavy =
        Rule("heavy", kVip6, 6, 80, IlbRule::HALF_NAT, {AdcIpAddress(Ipv6Address("2001:2::5"))});
    heavy.servers[0].weight = 101;
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { ilb->AddRule(heavy); }),
            "rule 'heavy' (#3): server 'srv1': weight 101 is out of range; allowed 1..100"));
}

TEST_F(IlbScenario, DisabledServiceTakesNoNewFlowsAndDrainsAsDisableServer)
{
    // REQ: ILB-02
    Topo t = Build(false, 1, 2, "5Mbps");
    t.app->AddRule(Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t)));
    WatchAll(t);
    m_log.AttachServices(t.app);
    Ptr<AdcService> srv2 = t.app->GetServerService(0, 1);
    const uint32_t activeWhileDraining = RunDrain(t, [srv2] { srv2->Disable(); });

    // As IlbAppliance::SetServerEnabled(0, 1, false): new flows elsewhere, the old one drains.
    EXPECT_EQ(m_log.ServersOf("web"), (std::vector<uint32_t>{1, 0, 0}));
    EXPECT_FALSE(t.app->IsServerEnabled(0, 1));
    EXPECT_EQ(activeWhileDraining, 1u);
    EXPECT_EQ(m_sinks.Bytes("S2"), 400000u); // the drained transfer ran to its end
    EXPECT_EQ(m_sinks.Bytes("S1"), 20000u);
    EXPECT_EQ(t.app->GetActiveConnections(0, 1), 0u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 0u);
    EXPECT_TRUE(m_log.drops.empty());
    ASSERT_EQ(m_log.states.size(), 1u);
    EXPECT_EQ(m_log.states[0].service, "srv2");
    EXPECT_EQ(m_log.states[0].now, AdcService::State::OUT_OF_SERVICE);
    EXPECT_EQ(m_log.states[0].when, Seconds(1.2));
}

TEST_F(IlbScenario, DisabledServiceIsCutAfterConnDrainUnlessEnabledBeforeAndThenReset)
{
    // REQ: ILB-02
    // 150 kb/s: the two 400 kB transfers together take ~45 s, past the cleanup at 15 s, which
    // cuts a server's connections after its die time (ilb_conn_cleanup: "iser_die_time < now").
    Topo t = Build(false, 1, 2, "150kbps");
    IlbRule rule = Rule("web", kVip4, 6, 80, IlbRule::HALF_NAT, Two(t));
    rule.connDrainTimeout = MilliSeconds(200);
    t.app->AddRule(rule);
    rule.name = "web2";
    rule.ports = AdcPortRange(81, 81);
    t.app->AddRule(rule);
    WatchAll(t);
    for (uint16_t port : {80, 81})
    {
        m_sinks.Listen(t.servers.Get(1), "S2", port, false);
    }
    // Each rule's first flow goes to server 1 (ilb_alg_rr.c: rr_server_add, list head).
    Bulk(t.clients.Get(0), kVip4, 80, 400000, Seconds(1));   // rule web: to S2
    Bulk(t.clients.Get(0), kVip4, 81, 400000, Seconds(2.5)); // rule web2: to S2
    // web: disabled at 1.2 s, cut at the cleanup at 15 s (die time 1.4 s). web2: disabled at
    // 2.7 s, enabled at 2.8 s (the die time cleared).
    Simulator::Schedule(Seconds(1.2), &AdcService::Disable, t.app->GetServerService(0, 1));
    Simulator::Schedule(Seconds(2.7), &AdcService::Disable, t.app->GetServerService(1, 1));
    Simulator::Schedule(Seconds(2.8), &AdcService::Enable, t.app->GetServerService(1, 1));
    Run(Seconds(60));

    EXPECT_EQ(t.app->GetRuleCounters(0).drained, 1u);
    EXPECT_EQ(t.app->GetServerCounters(0, 1).drained, 1u);
    EXPECT_EQ(t.app->GetRuleCounters(1).drained, 0u); // enabled again: the cut was cancelled
    EXPECT_LT(m_sinks.Bytes("S2"), 800000u);
    EXPECT_EQ(m_sinks.Conns().size(), 2u);
    EXPECT_EQ(m_sinks.Conns()[1].bytes, 400000u);
    // web's client after the cut: its next segment opens an entry to server 0, which does
    // not listen on 80 and resets it (illumos ilb_check: "The server should return a RST").
    // Responses without an entry (S2's answers to what was in flight at the cut) pass as
    // ordinary traffic (illumos ilb_check: no conn, no rule: ILB_PASSED): nothing is dropped.
    EXPECT_TRUE(m_log.drops.empty()) << m_log.drops.size();
    EXPECT_EQ(t.app->GetServerCounters(0, 0).drops + t.app->GetServerCounters(0, 1).drops, 0u);
    EXPECT_GE(ResetsFrom(m_wire, "C1", kVip4, 80), 1u);
    EXPECT_EQ(m_log.ServersOf("web").back(), 0u);
}

TEST_F(IlbScenario, MonitorBoundToAServerServiceTakesItOutOfRotationAndBack)
{
    // REQ: ILB-02
    Topo t = DnsPair();
    // A ping monitor on the ILB node, bound to both servers' services.
    Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
    m->SetAttribute("Type", EnumValue(AdcHealthMonitor::PING));
    m->SetAttribute("Interval", TimeValue(MilliSeconds(200)));
    m->SetAttribute("ResponseTimeout", TimeValue(MilliSeconds(100)));
    m->SetAttribute("Retries", UintegerValue(2));
    m->SetAttribute("DownTime", TimeValue(MilliSeconds(200)));
    for (uint32_t s = 0; s < 2; ++s)
    {
        t.app->GetServerService(0, s)->BindMonitor(m);
    }
    m_log.AttachServices(t.app); // from UNKNOWN on (bound, not probed yet)
    m->SetStartTime(Seconds(0));
    t.ilb->AddApplication(m);
    // Server 1 (srv1) hears nothing from 2.05 s to 4.05 s.
    Ptr<RateErrorModel> deaf = CreateObject<RateErrorModel>();
    deaf->SetAttribute("ErrorRate", DoubleValue(1.0));
    deaf->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
    deaf->Disable();
    t.servers.Get(0)->GetDevice(1)->SetAttribute("ReceiveErrorModel", PointerValue(deaf));
    Simulator::Schedule(Seconds(2.05), &ErrorModel::Enable, deaf);
    Simulator::Schedule(Seconds(4.05), &ErrorModel::Disable, deaf);
    bool upWhileDeaf = true;
    Simulator::Schedule(Seconds(3.5), [&] { upWhileDeaf = t.app->IsServerUp(0, 0); });
    // New flows (one datagram each) in three phases: before, during and after.
    for (double phase : {1.0, 3.0, 5.0})
    {
        for (uint32_t k = 0; k < 8; ++k)
        {
            Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(phase + 0.1 * k));
        }
    }
    Run(Seconds(6.5));

    // srv1's service: UP at its first probe, DOWN two failed probes into the silence, UP at
    // the first answer after it.
    std::vector<std::pair<AdcService::State, Time>> srv1;
    for (const IlbLog::StateChange& c : m_log.states)
    {
        if (c.service == "srv1")
        {
            srv1.emplace_back(c.now, c.when);
        }
    }
    ASSERT_EQ(srv1.size(), 3u);
    EXPECT_EQ(srv1[0].first, AdcService::State::UP);
    EXPECT_EQ(srv1[1].first, AdcService::State::DOWN);
    EXPECT_GT(srv1[1].second, Seconds(2.05));
    EXPECT_LT(srv1[1].second, Seconds(3));
    EXPECT_EQ(srv1[2].first, AdcService::State::UP);
    EXPECT_GT(srv1[2].second, Seconds(4.05));
    EXPECT_LT(srv1[2].second, Seconds(5));
    EXPECT_FALSE(upWhileDeaf);
    // Which server each new flow reached: alternating from server 1 (ilb_alg_rr.c: rr_server_add
    // inserts at the list's head, so rr_lb's list is srv2, srv1), then only server 2, then
    // alternating.
    const std::vector<uint32_t> alternating{1, 0, 1, 0, 1, 0, 1, 0};
    EXPECT_EQ(m_log.ServersBetween(Seconds(1), Seconds(2)), alternating);
    EXPECT_EQ(m_log.ServersBetween(Seconds(3), Seconds(4)), std::vector<uint32_t>(8, 1));
    const std::vector<uint32_t> after = m_log.ServersBetween(Seconds(5), Seconds(6));
    ASSERT_EQ(after.size(), 8u);
    EXPECT_EQ(std::count(after.begin(), after.end(), 0u), 4);
    for (const EchoStats& e : m_echo)
    {
        EXPECT_EQ(e.replies, 1u);
    }
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_F(IlbScenario, RuleVServerSelectsForTheModelsOwnMethodsAndIllumosAlgorithmsRunInTheRule)
{
    // REQ: ILB-02
    Topo t = Build(false, 1, 2);
    // roundrobin over unequal weights is the model's smooth weighted round robin, which the
    // rule's virtual server runs; plain roundrobin is illumos's rr_lb (ilb_alg_rr.c), whose
    // list (rr_server_add inserts at the head) the shared method cannot keep: the rule runs it.
    IlbRule weighted = Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t));
    weighted.servers[0].weight = 2;
    t.app->AddRule(weighted);
    IlbRule sticky = Rule("sticky", kVip4, 17, 54, IlbRule::HALF_NAT, Two(t));
    sticky.sticky = true;
    t.app->AddRule(sticky);
    WatchAll(t);
    m_log.AttachServices(t.app);
    for (uint32_t s = 0; s < 2; ++s)
    {
        EchoServer(t.servers.Get(s), 53);
        EchoServer(t.servers.Get(s), 54);
    }
    for (uint32_t k = 0; k < 4; ++k)
    {
        // Three datagrams per flow: only the first is a new flow.
        Echo(t.clients.Get(0), kVip4, 53, 3, Seconds(1 + 0.5 * k), MilliSeconds(50));
    }
    Echo(t.clients.Get(0), kVip4, 54, 1, Seconds(4));
    Echo(t.clients.Get(0), kVip4, 54, 1, Seconds(4.2)); // sticky hit
    Run(Seconds(5));

    ASSERT_EQ(m_log.chosen.size(), 6u);
    // The weighted rule: one "Selection" per new flow, by the method, naming the server the
    // flow went to. Smooth weighted round robin over weights 2, 1 (AdcWeightedRoundRobinLb):
    // srv1, srv2, srv1, srv1.
    ASSERT_EQ(m_log.selections.size(), 4u);
    for (uint32_t k = 0; k < 4; ++k)
    {
        const IlbLog::Selection& sel = m_log.selections[k];
        const IlbLog::Chosen& c = m_log.chosen[k];
        EXPECT_EQ(sel.vserver, c.rule);
        EXPECT_EQ(sel.service, c.name);
        EXPECT_EQ(sel.flow, c.flow);
        EXPECT_EQ(sel.how, "method");
    }
    EXPECT_EQ(m_log.ServersOf("dns"), (std::vector<uint32_t>{0, 1, 0, 0}));
    EXPECT_EQ(t.app->GetRuleVServer(0)->GetHits(), 4u);
    EXPECT_EQ(t.app->GetServerService(0, 0)->GetSelections(), 3u);
    EXPECT_EQ(t.app->GetAlgorithm(0), nullptr);
    // The roundrobin rule: no "Selection"; illumos's rr_lb chose srv2 (the list's head), and
    // the sticky hit keeps it.
    ASSERT_NE(t.app->GetAlgorithm(1), nullptr);
    EXPECT_EQ(t.app->GetRuleVServer(1)->GetHits(), 0u);
    EXPECT_EQ(m_log.ServersOf("sticky"), (std::vector<uint32_t>{1, 1}));
    EXPECT_EQ(t.app->GetStickyTable().GetHits(1), 1u);
    // rr_lb ran for the hit too (ilb_check calls ilb_alg_lb before ilb_sticky_find_add): it
    // chose srv2 then srv1, so rr_next is NULL again (ilb_alg_rr.c: list_next of the tail).
    EXPECT_EQ(t.app->GetAlgorithm(1)->GetRrNext(), -1);
}

} // namespace
