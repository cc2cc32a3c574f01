/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ILB sticky sessions as illumos-gate keeps them (usr/src/uts/common/inet/ilb/ilb.c ilb_check;
 * ilb_conn.c ilb_sticky_find_add, ILB_STICKY_REFRELE, ilb_sticky_cleanup, ilb_conn_cleanup;
 * ilb_nat.c ilb_alloc_nat_addr): the algorithm first, then the sticky lookup; a reference per
 * connection; the persist-timeout from the last reference; the 15 s cleanup; the NAT source
 * pinned per entry. Fixture: ilb-test-fixture.h.
 */

#include "ilb-test-fixture.h"

namespace
{

/// Client 0's UDP sticky rule "dns" (Half-NAT, roundrobin, pmask /32) over two servers.
IlbRule
StickyDns(const Topo& t, Time persist)
{
    IlbRule r = Rule("dns", kVip4, 17, 53, IlbRule::HALF_NAT, Two(t));
    r.sticky = true;
    r.stickyPrefix = 32;
    r.persistTimeout = persist;
    return r;
}

TEST_F(IlbScenario, AnOpenConnectionKeepsItsStickyEntryPastThePersistTimeout)
{
    // REQ: ILB-02
    Topo t = Build(false, 2, 2);
    t.app->AddRule(StickyDns(t, Seconds(2)));
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    Echo(t.clients.Get(0), kVip4, 53, 20, Seconds(1), Seconds(1)); // flow A: 1 s .. 20 s
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(10));             // flow B: same client
    Echo(t.clients.Get(1), kVip4, 53, 1, Seconds(11));             // flow C: other client
    std::vector<IlbStickyTable::Entry> at12;
    Simulator::Schedule(Seconds(12), [&at12, &t] { at12 = t.app->GetStickyTable().GetEntries(); });
    Run(Seconds(21));

    const std::vector<uint32_t> servers = m_log.ServersOf("dns");
    ASSERT_EQ(servers.size(), 3u);
    // B, 9 s after A's entry was made and 7 s past a 2 s persist-timeout, still finds it: A's
    // connection holds a reference (ilb_conn_add keeps conn_sticky; ilb_sticky_cleanup skips
    // "if (s->refcnt != 0)"), so B goes where A went.
    EXPECT_EQ(servers[1], servers[0]);
    // Round robin ran for B as well (ilb_check calls ilb_alg_lb before ilb_sticky_find_add),
    // so with two servers C, the third selection, gets the first's server (ilb_alg_rr.c
    // rr_lb: rr_next moves on at every call).
    EXPECT_EQ(servers[2], servers[0]);
    // At 12 s: C's entry and A's, held by A and B (ilb_sticky_add: refcnt 1; found: refcnt++).
    ASSERT_EQ(at12.size(), 2u);
    EXPECT_EQ(at12[0].prefix, t.clientIp[0]);
    EXPECT_EQ(at12[0].refs, 2u);
    EXPECT_EQ(at12[0].server, servers[0]);
    EXPECT_EQ(at12[1].prefix, t.clientIp[1]);
    EXPECT_EQ(at12[1].refs, 1u);
    EXPECT_EQ(t.app->GetStickyTable().GetHits(0), 1u);
    for (const EchoStats& e : m_echo)
    {
        EXPECT_GT(e.replies, 0u);
    }
    EXPECT_TRUE(m_log.drops.empty());
}

TEST_F(IlbScenario, TheStickyExpiryRunsFromTheLastReferenceAndTheCleanupRemovesTheEntry)
{
    // REQ: ILB-02
    Topo t = Build(false, 1, 2);
    IlbRule r = StickyDns(t, Seconds(5));
    r.natTimeout = Seconds(10);
    t.app->AddRule(r); // at 0 s: the cleanup runs at 15 s, 30 s, ... (ILB_CONN/STICKY timers)
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1)); // one request, one reply, ~1 s

    struct Seen
    {
        uint32_t entries{0};
        uint32_t refs{0};
        uint32_t conns{0};
    };

    std::map<double, Seen> seen;
    for (double at : {14.9, 15.1, 29.9, 30.1})
    {
        Simulator::Schedule(Seconds(at), [&seen, &t, at] {
            const auto e = t.app->GetStickyTable().GetEntries();
            seen[at] = Seen{static_cast<uint32_t>(e.size()),
                            e.empty() ? 0 : e[0].refs,
                            t.app->GetActiveConnections(0, 0) + t.app->GetActiveConnections(0, 1)};
        });
    }
    Run(Seconds(31));

    // 14.9 s: the connection, idle since ~1 s, outlived its 10 s nat-timeout but stays until
    // ilb_conn_cleanup looks ("conn_c2s_atime < expiry && conn_s2c_atime < expiry"); it holds
    // the entry.
    EXPECT_EQ(seen[14.9].conns, 1u);
    EXPECT_EQ(seen[14.9].entries, 1u);
    EXPECT_EQ(seen[14.9].refs, 1u);
    // 15 s: the cleanup removes the connection (ilb_conn_remove: ILB_STICKY_REFRELE sets the
    // entry's atime to 15 s); the entry stays: 15 s is not before now - 5 s.
    EXPECT_EQ(seen[15.1].conns, 0u);
    EXPECT_EQ(seen[15.1].entries, 1u);
    EXPECT_EQ(seen[15.1].refs, 0u);
    // 29.9 s: 14.9 s past its last reference, 5 s persist-timeout, but the next cleanup is at
    // 30 s (ilb_sticky_timeout 15); 30 s: "s->atime < now - s->expiry": removed.
    EXPECT_EQ(seen[29.9].entries, 1u);
    EXPECT_EQ(seen[30.1].entries, 0u);
    EXPECT_EQ(m_echo.front().replies, 1u);
}

TEST_F(IlbScenario, ACleanupIntervalAttributeSetsTheCleanupPeriod)
{
    // REQ: ILB-02 (the period is illumos's ilb_sticky_timeout, 15 s, by default)
    Topo t = Build(false, 1, 2);
    TimeValue interval;
    t.app->GetAttribute("CleanupInterval", interval);
    EXPECT_EQ(interval.Get(), Seconds(15));
    t.app->SetAttribute("CleanupInterval", TimeValue(Seconds(4)));
    IlbRule r = StickyDns(t, Seconds(1));
    r.natTimeout = Seconds(1);
    t.app->AddRule(r);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1));
    uint32_t at7 = 0;
    uint32_t at9 = 0;
    Simulator::Schedule(Seconds(7), [&at7, &t] { at7 = t.app->GetStickyTable().GetSize(); });
    Simulator::Schedule(Seconds(9), [&at9, &t] { at9 = t.app->GetStickyTable().GetSize(); });
    Run(Seconds(10));
    // Cleanups at 4 s (connection idle ~3 s > 1 s: removed, entry released at 4 s) and 8 s
    // (4 s < 8 s - 1 s: entry removed).
    EXPECT_EQ(at7, 1u);
    EXPECT_EQ(at9, 0u);
}

TEST_F(IlbScenario, FullNatStickyEntriesPinTheirNatSourceWithNoFallback)
{
    // REQ: ILB-05, ILB-02
    Topo t = Build(false, 2, 1);
    const AdcIpAddress nat0(Ipv4Address("10.1.0.200"));
    const AdcIpAddress nat1(Ipv4Address("10.1.0.201"));
    IlbRule r = Rule("dns", kVip4, 17, 53, IlbRule::FULL_NAT, {t.serverIp[0]});
    r.natSourceFirst = nat0;
    r.natSourceLast = nat1;
    r.natPorts = AdcPortRange(5000, 5001); // two ports per (NAT source, server)
    r.sticky = true;
    r.stickyPrefix = 32;
    t.app->AddRule(r);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1));   // client 0, flow 1
    Echo(t.clients.Get(1), kVip4, 53, 1, Seconds(1.1)); // client 1, flow 1
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.2)); // client 0, flow 2
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.3)); // client 0, flow 3: its source full
    Run(Seconds(3));

    std::vector<std::pair<AdcIpAddress, AdcIpAddress>> requests; // client, NAT source
    for (const IlbLog::Rewrite& w : m_log.rewrites)
    {
        if (w.direction == "request")
        {
            requests.emplace_back(w.before.src, w.after.src);
        }
    }
    ASSERT_EQ(requests.size(), 3u);
    // ilb_sticky_find_add, new entry: nat_src_idx = iser_nat_src->cur++ % num_src: client 0's
    // entry takes index 0 (10.1.0.200), client 1's index 1 (10.1.0.201). Found entry: its
    // nat_src_idx, so client 0's second flow uses 10.1.0.200 again (without sticky,
    // ilb_alloc_nat_addr's (++cur) % 2 would alternate).
    EXPECT_EQ(requests[0], std::make_pair(t.clientIp[0], nat0));
    EXPECT_EQ(requests[1], std::make_pair(t.clientIp[1], nat1));
    EXPECT_EQ(requests[2], std::make_pair(t.clientIp[0], nat0));
    // Client 0's third flow: 10.1.0.200's two ports are held, and ilb_alloc_nat_addr with an
    // index "cannot allocate a port using that entry, return NULL": dropped (noport), though
    // 10.1.0.201 has a free port; the sticky reference is released ("ilb_sticky_refrele").
    EXPECT_EQ(m_log.Drops("nat-ports-exhausted"), 1u);
    EXPECT_EQ(t.app->GetNatExhausted(0), 1u);
    const auto entries = t.app->GetStickyTable().GetEntries();
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].natSource, 0u);
    EXPECT_EQ(entries[0].refs, 2u);
    EXPECT_EQ(entries[1].natSource, 1u);
}

TEST_F(IlbScenario, AStickyEntryOfADisabledServerGivesWayToANewOne)
{
    // REQ: ILB-02
    Topo t = Build(false, 1, 2);
    t.app->AddRule(StickyDns(t, Seconds(60)));
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 53);
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1));
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(3));
    Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(5));
    uint32_t first = 0;
    Simulator::Schedule(Seconds(2), [&first, &t, this] {
        first = m_log.chosen.at(0).server;
        t.app->SetServerEnabled(0, first, false);
    });
    Simulator::Schedule(Seconds(4), [&first, &t] { t.app->SetServerEnabled(0, first, true); });
    Run(Seconds(6));

    const std::vector<uint32_t> servers = m_log.ServersOf("dns");
    ASSERT_EQ(servers.size(), 3u);
    // 3 s: the entry's server is disabled and the algorithm gave the other one: "use the new
    // one to create a sticky entry ... add the entry at the beginning" (ilb_sticky_find_add).
    EXPECT_NE(servers[1], servers[0]);
    // 5 s: the first server is enabled again, but the lookup finds the newer entry first.
    EXPECT_EQ(servers[2], servers[1]);
    const auto entries = t.app->GetStickyTable().GetEntries();
    ASSERT_EQ(entries.size(), 2u); // the old entry stays, held by its connection
    EXPECT_EQ(entries[0].server, servers[0]);
    EXPECT_EQ(entries[0].refs, 1u);
    EXPECT_EQ(entries[1].server, servers[1]);
    EXPECT_EQ(entries[1].refs, 2u);
}

} // namespace
