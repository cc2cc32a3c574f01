/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GSLB LDNS announcement across sites (issue 26 item 1), end to end on GslbTopologyHelper. The
 * LDNS asks only the first site's ADNS (LdnsServerSelection FIRST), as an LDNS that keeps to
 * one authoritative server does. NetScaler then tells the other sites of the LDNS over MEP so
 * that every site probes it (Citrix: "First resolution, the LDNS IP is communicated to the
 * other sites to return a value using one of the available probes"), the RTT method decides
 * once it has every site's RTT (before that, the vserver's -backupLBMethod, ROUNDROBIN unless
 * set), and MEP activity keeps the LDNS alive at the sites it never asks.
 *
 * Expected values come from the WAN delays each test sets (kWan below) and the LAN delay:
 * nearest site = the lowest one-way WAN delay; RTT = 2 x (LAN + WAN + LAN).
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-config-reader.h"
#include "ns3/adc-mep-message.h"
#include "ns3/adc-netscaler-gslb-commands.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/adc-web-user.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/gslb-adns.h"
#include "ns3/gslb-helper.h"
#include "ns3/gslb-lb-methods.h"
#include "ns3/gslb-ldns-prober.h"
#include "ns3/gslb-mep-agent.h"
#include "ns3/gslb-rtt-database.h"
#include "ns3/gslb-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One-way WAN delay (ms) from region r (row) to site s (column): no region's nearest site is
/// its own index, so a result that follows the index alone is caught.
const double kWan[3][3] = {{40, 15, 60}, {20, 50, 35}, {70, 45, 12}};
/// One-way LAN delay (ms) of every region and site LAN.
constexpr double kLan = 0.5;

/// \return the site with the lowest WAN delay from region r (the configured delays)
uint32_t
Nearest(uint32_t r)
{
    uint32_t best = 0;
    for (uint32_t s = 1; s < 3; ++s)
    {
        best = kWan[r][s] < kWan[r][best] ? s : best;
    }
    return best;
}

/// \return the true round trip (ms) of a path whose WAN link has one-way delay \p wan (ms):
/// region LAN, WAN link and site LAN, both ways
double
TrueRttMs(double wan)
{
    return 2 * (kLan + wan + kLan);
}

/// Something a trace recorded, in the order it happened.
struct Event
{
    uint64_t seq;
    Time at;
};

class GslbLdnsAnnounce : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
        Config::Reset(); // AnnounceLdns set by a test
    }

    /// \return 3 sites, 3 regions with \p clients users each, the LDNS asking the first site
    Ptr<GslbTopologyHelper> Helper(uint32_t clients = 3)
    {
        Ptr<GslbTopologyHelper> h = CreateObject<GslbTopologyHelper>();
        h->SetAttribute("ClientsPerRegion", UintegerValue(clients));
        h->SetAttribute("LbMethod", StringValue("RTT"));
        h->SetAttribute("LanDelay", TimeValue(MicroSeconds(static_cast<int64_t>(kLan * 1000))));
        h->SetAttribute("InterVisitTime", TimeValue(Seconds(1)));
        h->SetAttribute("LdnsServerSelection", StringValue("FIRST"));
        for (uint32_t r = 0; r < 3; ++r)
        {
            for (uint32_t s = 0; s < 3; ++s)
            {
                h->SetWanDelay(r, s, MicroSeconds(static_cast<int64_t>(kWan[r][s] * 1000)));
            }
        }
        return h;
    }

    void Build(Ptr<GslbTopologyHelper> h)
    {
        m_t = h->Build();
        for (uint32_t s = 0; s < 3; ++s)
        {
            Ptr<GslbSiteApps> site = m_t.site[s];
            site->GetAdns()->TraceConnectWithoutContext(
                "Decision",
                MakeBoundCallback(&GslbLdnsAnnounce::OnDecision, this, s));
            site->GetProber()->TraceConnectWithoutContext(
                "Probe",
                MakeBoundCallback(&GslbLdnsAnnounce::OnProbe, this, s));
            site->GetProber()->TraceConnectWithoutContext(
                "Expire",
                MakeBoundCallback(&GslbLdnsAnnounce::OnExpire, this, s));
            site->GetMepAgent()->TraceConnectWithoutContext(
                "Message",
                MakeBoundCallback(&GslbLdnsAnnounce::OnMessage, this, s));
            site->GetDatabase()->TraceConnectWithoutContext(
                "Update",
                MakeBoundCallback(&GslbLdnsAnnounce::OnUpdate, this, s));
        }
        for (std::size_t i = 0; i < m_t.users.size(); ++i)
        {
            m_t.users[i]->TraceConnectWithoutContext(
                "Visit",
                MakeBoundCallback(&GslbLdnsAnnounce::OnVisit, this, m_t.regionOf[i]));
        }
    }

    struct Decision
    {
        Event e;
        uint32_t site;
        int32_t region;
        int32_t answer;
        std::string reason;
    };

    struct Probe
    {
        Event e;
        uint32_t site;
        int32_t region;
        bool yieldsRtt;
    };

    struct Visit
    {
        uint32_t region;
        AdcWebVisit v;
    };

    Event Now()
    {
        return {m_seq++, Simulator::Now()};
    }

    static void OnDecision(GslbLdnsAnnounce* self,
                           uint32_t site,
                           const AdcIpAddress& ldns,
                           const std::string&,
                           const std::string&,
                           const AdcIpAddress& address,
                           const std::string&,
                           const std::string& reason)
    {
        self->m_decisions.push_back(
            {self->Now(), site, self->m_t.RegionOfLdns(ldns), self->m_t.SiteOf(address), reason});
    }

    static void OnProbe(GslbLdnsAnnounce* self,
                        uint32_t site,
                        const AdcIpAddress& ldns,
                        const std::string&,
                        Time,
                        const std::string&,
                        bool yieldsRtt)
    {
        self->m_probes.push_back({self->Now(), site, self->m_t.RegionOfLdns(ldns), yieldsRtt});
    }

    static void OnExpire(GslbLdnsAnnounce* self, uint32_t site, const AdcIpAddress& ldns)
    {
        self->m_expired[site][self->m_t.RegionOfLdns(ldns)].push_back(Simulator::Now());
    }

    /// The first NETWORK METRIC record about each region's LDNS that each site received.
    static void OnMessage(GslbLdnsAnnounce* self,
                          uint32_t site,
                          uint32_t,
                          bool sent,
                          const AdcMepMessage& m)
    {
        if (sent || m.type != AdcMepMessage::NETWORK_METRIC_UPDATE)
        {
            return;
        }
        for (const AdcMepNetworkMetric& r : m.networkMetrics)
        {
            const int32_t region = self->m_t.RegionOfLdns(AdcIpAddress(r.ldns));
            self->m_firstRecord[site].emplace(region, self->Now());
        }
    }

    /// When each site's database first held an RTT from every site to each region's LDNS.
    static void OnUpdate(GslbLdnsAnnounce* self,
                         uint32_t site,
                         const AdcIpAddress& ldns,
                         uint32_t from,
                         int32_t,
                         int32_t,
                         const std::string&,
                         bool stored)
    {
        const int32_t region = self->m_t.RegionOfLdns(ldns);
        if (!stored || region < 0)
        {
            return;
        }
        std::set<uint32_t>& known = self->m_known[site][region];
        known.insert(from);
        if (known.size() == 3)
        {
            self->m_complete[site].emplace(region, self->Now());
        }
    }

    static void OnVisit(GslbLdnsAnnounce* self, uint32_t region, const AdcWebVisit& v)
    {
        self->m_visits.push_back({region, v});
    }

    /// \return the first yielding probe of region r's LDNS by site s (seq max when none)
    Event FirstProbe(uint32_t s, int32_t r) const
    {
        for (const Probe& p : m_probes)
        {
            if (p.site == s && p.region == r && p.yieldsRtt)
            {
                return p.e;
            }
        }
        return {UINT64_MAX, Time::Max()};
    }

    GslbTopology m_t;
    uint64_t m_seq{0};
    std::vector<Decision> m_decisions;
    std::vector<Probe> m_probes;
    std::map<uint32_t, std::map<int32_t, std::vector<Time>>> m_expired;
    std::map<uint32_t, std::map<int32_t, Event>> m_firstRecord;
    std::map<uint32_t, std::map<int32_t, std::set<uint32_t>>> m_known;
    std::map<uint32_t, std::map<int32_t, Event>> m_complete;
    std::vector<Visit> m_visits;
};

} // namespace

// REQ: GSLB-07 (the sites exchange over MEP what they learn of an LDNS), GSLB-03 (every site
// probes it), GSLB-01 (so every site's RTT to it is known)
TEST_F(GslbLdnsAnnounce, AnnouncementReachesEverySiteAndEachProbes)
{
    Build(Helper());
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    // Only the first site is asked (FIRST) ...
    ASSERT_FALSE(m_decisions.empty());
    for (const Decision& d : m_decisions)
    {
        EXPECT_EQ(d.site, 0U) << "site " << d.site << " was asked at " << d.e.at.As(Time::S);
    }
    for (int32_t r = 0; r < 3; ++r)
    {
        // ... the others hear of each LDNS over MEP, and only then probe it, successfully.
        for (uint32_t s = 1; s < 3; ++s)
        {
            ASSERT_EQ(m_firstRecord[s].count(r), 1U) << "site " << s << " region " << r;
            const Event heard = m_firstRecord[s][r];
            const Event probed = FirstProbe(s, r);
            ASSERT_NE(probed.seq, UINT64_MAX) << "site " << s << " never probed region " << r;
            EXPECT_GT(probed.seq, heard.seq) << "site " << s << " region " << r;
            // Within a probe's round trip of the announcement, not after the first interval
            // of 5 s: the announcement starts the probing at once.
            EXPECT_LT(probed.at - heard.at, Seconds(1)) << "site " << s << " region " << r;
        }
        // Every site holds every site's RTT: the true round trip within the RTT tolerance
        // (5 ms, default -rttTolerance) and 1 ms of transmission times.
        for (uint32_t s = 0; s < 3; ++s)
        {
            for (uint32_t from = 0; from < 3; ++from)
            {
                auto rtt = m_t.site[s]->GetDatabase()->GetRtt(m_t.ldnsIp[r], from);
                ASSERT_TRUE(rtt.has_value()) << "site " << s << " region " << r << " from " << from;
                EXPECT_NEAR(rtt->GetMilliSeconds(), TrueRttMs(kWan[r][from]), 6.0);
            }
        }
    }
}

// REQ: GSLB-07 (control: without the announcement the other sites never probe an LDNS that
// asks only the first site, which is the gap the announcement closes)
TEST_F(GslbLdnsAnnounce, WithoutAnnouncementOnlyTheAskedSiteProbes)
{
    Config::SetDefault("ns3::GslbSiteApps::AnnounceLdns", BooleanValue(false));
    Build(Helper());
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    for (int32_t r = 0; r < 3; ++r)
    {
        EXPECT_NE(FirstProbe(0, r).seq, UINT64_MAX);
        EXPECT_EQ(FirstProbe(1, r).seq, UINT64_MAX);
        EXPECT_EQ(FirstProbe(2, r).seq, UINT64_MAX);
    }
}

// REQ: GSLB-08 (round robin while RTT information is not available: the backup method, and the
// decision is traced as such), GSLB-01 (then the lowest RTT)
TEST_F(GslbLdnsAnnounce, RttUsesTheBackupUntilEveryRttIsKnownThenTheNearest)
{
    Build(Helper());
    Simulator::Stop(Seconds(30));
    Simulator::Run();
    uint32_t backup = 0;
    uint32_t rtt = 0;
    std::vector<int32_t> backupAnswers;
    for (const Decision& d : m_decisions)
    {
        ASSERT_GE(d.region, 0);
        ASSERT_EQ(m_complete[0].count(d.region), 1U) << "region " << d.region;
        const Event complete = m_complete[0][d.region];
        if (d.e.seq < complete.seq)
        {
            ++backup;
            backupAnswers.push_back(d.answer);
            EXPECT_TRUE(d.reason == "backup-roundrobin-no-rtt" ||
                        d.reason == "backup-roundrobin-partial-rtt")
                << d.reason << " at " << d.e.at.As(Time::MS);
        }
        else
        {
            ++rtt;
            EXPECT_EQ(d.reason, "rtt") << "at " << d.e.at.As(Time::MS);
            EXPECT_EQ(d.answer, static_cast<int32_t>(Nearest(d.region)))
                << "region " << d.region << " at " << d.e.at.As(Time::MS);
        }
    }
    EXPECT_GE(backup, 3U); // each LDNS's first query at least
    EXPECT_GT(rtt, 9U);
    // ROUNDROBIN: the backup answers follow the services' order, a, b, c, a, ...
    for (std::size_t k = 1; k < backupAnswers.size(); ++k)
    {
        EXPECT_EQ(backupAnswers[k], (backupAnswers[k - 1] + 1) % 3) << "backup answer " << k;
    }
    // Converged within a few probe intervals (5 s) of the first query.
    for (int32_t r = 0; r < 3; ++r)
    {
        EXPECT_LT(m_complete[0][r].at, Seconds(10)) << "region " << r;
    }
}

// REQ: GSLB-08 (the backup method is the vserver's -backupLBMethod, here STATICPROXIMITY)
TEST_F(GslbLdnsAnnounce, BackupLbMethodFromTheConfigurationChoosesUntilRttsAreKnown)
{
    Ptr<GslbTopologyHelper> h = Helper();
    h->SetExtraConfig("set gslb vserver gslb-web -backupLBMethod STATICPROXIMITY\n");
    Build(h);
    // The backup's location table sends every LDNS to site c (10.100.0.0/14 holds the three
    // regions' LANs): a choice RTT would never make for regions 0 and 1.
    Ptr<GslbLdnsLb> rttLb =
        DynamicCast<GslbLdnsLb>(m_t.site[0]->GetVservers()[0]->GetVirtualServer()->GetLbMethod());
    ASSERT_TRUE(rttLb);
    EXPECT_EQ(rttLb->GetBackupMethodName(), "STATICPROXIMITY");
    Ptr<GslbStaticProximityLb> sp = DynamicCast<GslbStaticProximityLb>(rttLb->GetBackupMethod());
    ASSERT_TRUE(sp);
    sp->AddLocation(Ipv4Address("10.100.0.0"), 14, m_t.siteNames[2]);
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    uint32_t backup = 0;
    for (const Decision& d : m_decisions)
    {
        if (d.e.seq < m_complete[0][d.region].seq)
        {
            ++backup;
            EXPECT_TRUE(d.reason == "backup-staticproximity-no-rtt" ||
                        d.reason == "backup-staticproximity-partial-rtt")
                << d.reason;
            EXPECT_EQ(d.answer, 2);
        }
        else
        {
            EXPECT_EQ(d.answer, static_cast<int32_t>(Nearest(d.region)));
        }
    }
    EXPECT_GE(backup, 3U);
}

// REQ: GSLB-01 (with LdnsServerSelection FIRST, RTT still sends every region to its nearest
// site once every site measured its LDNS: nearest share 1.0 after convergence)
TEST_F(GslbLdnsAnnounce, FirstSelectionReachesNearestShareOneAfterConvergence)
{
    Build(Helper(5));
    Simulator::Stop(Seconds(40));
    Simulator::Run();
    Time converged;
    for (int32_t r = 0; r < 3; ++r)
    {
        ASSERT_EQ(m_complete[0].count(r), 1U);
        converged = std::max(converged, m_complete[0][r].at);
    }
    // Within two ping intervals (5 s) of the start.
    EXPECT_LT(converged, Seconds(10));
    // An answer given before convergence lives in the LDNS's cache for the TTL (5 s).
    const Time from = converged + Seconds(5);
    uint32_t counted = 0;
    uint32_t nearest = 0;
    for (const Visit& v : m_visits)
    {
        if (v.v.start <= from || v.v.outcome != "completed")
        {
            continue;
        }
        ++counted;
        const int32_t site = m_t.SiteOf(v.v.server);
        nearest += site == static_cast<int32_t>(Nearest(v.region)) ? 1 : 0;
    }
    ASSERT_GT(counted, 100U);
    EXPECT_EQ(nearest, counted) << "nearest share " << double(nearest) / counted;
}

// REQ: GSLB-07, GSLB-09 (an LDNS that asks only the first site stays probed at the others while
// it keeps asking: MEP keeps it alive, and a later change of a path is measured and sent, not
// frozen), GSLB-01 (once it stops asking, it expires at every site)
TEST_F(GslbLdnsAnnounce, EntryKeptAliveByMepDoesNotExpireOrFreeze)
{
    Ptr<GslbTopologyHelper> h = Helper(2);
    // NetScaler's smallest -ldnsEntryTimeout (30 s): the run outlives it several times.
    h->SetExtraConfig("set gslb parameter -ldnsEntryTimeout 30\n");
    h->SetAttribute("StopVisitsAt", TimeValue(Seconds(100)));
    Build(h);
    // At 60 s, twice the entry timeout after region 0's LDNS first asked, its path to site b
    // grows from 15 to 80 ms: site a must hear site b's new RTT, and answer site a (40 ms).
    const double changed = 80;
    Simulator::Schedule(Seconds(60), [this, changed] {
        GslbTopologyHelper::ChangeWanDelay(m_t, 0, 1, MicroSeconds(int64_t(changed * 1000)));
    });
    Time sampleAt = Seconds(80);
    std::optional<Time> siteBSeenByA;
    Simulator::Schedule(sampleAt, [this, &siteBSeenByA] {
        siteBSeenByA = m_t.site[0]->GetDatabase()->GetRtt(m_t.ldnsIp[0], 1);
    });
    Simulator::Stop(Seconds(160));
    Simulator::Run();
    // While the users visit (until 100 s, answers cached 5 s), no site lets an LDNS expire, and
    // the sites that are never asked keep probing it to the end.
    for (uint32_t s = 0; s < 3; ++s)
    {
        for (int32_t r = 0; r < 3; ++r)
        {
            for (Time t : m_expired[s][r])
            {
                EXPECT_GT(t, Seconds(105)) << "site " << s << " region " << r;
            }
            bool lateProbe = false;
            for (const Probe& p : m_probes)
            {
                lateProbe = lateProbe || (p.site == s && p.region == r && p.yieldsRtt &&
                                          p.e.at > Seconds(95) && p.e.at < Seconds(105));
            }
            EXPECT_TRUE(lateProbe) << "site " << s << " stopped probing region " << r;
        }
    }
    // Not frozen: site a holds site b's new RTT to region 0's LDNS.
    ASSERT_TRUE(siteBSeenByA.has_value());
    EXPECT_NEAR(siteBSeenByA->GetMilliSeconds(), TrueRttMs(changed), 1.0);
    for (const Decision& d : m_decisions)
    {
        if (d.region == 0 && d.e.at > Seconds(75))
        {
            EXPECT_EQ(d.answer, 0) << "at " << d.e.at.As(Time::S);
        }
    }
    // Once nobody asks, every site lets every LDNS expire: within the entry timeout (30 s)
    // after the last refresh (a third of it, 10 s) that followed the last query (<= 100 s),
    // plus a probe interval. Nothing stays frozen in a table.
    for (uint32_t s = 0; s < 3; ++s)
    {
        for (int32_t r = 0; r < 3; ++r)
        {
            ASSERT_FALSE(m_expired[s][r].empty()) << "site " << s << " region " << r;
            EXPECT_LT(m_expired[s][r].back(), Seconds(100 + 10 + 30 + 5))
                << "site " << s << " region " << r;
            for (uint32_t from = 0; from < 3; ++from)
            {
                EXPECT_FALSE(m_t.site[s]->GetDatabase()->GetRtt(m_t.ldnsIp[r], from).has_value())
                    << "site " << s << " region " << r << " from " << from;
            }
        }
    }
}

// REQ: GSLB-07, GSLB-09 (control: without the refresh of the asked site's RTTs, the sites that
// are never asked stop probing the LDNS one entry timeout after they heard of it, although it
// keeps asking the first site; their last values then stay frozen in its table)
TEST_F(GslbLdnsAnnounce, WithoutRefreshTheUnaskedSitesLetTheLdnsExpire)
{
    Ptr<GslbTopologyHelper> h = Helper(2);
    h->SetExtraConfig("set gslb parameter -ldnsEntryTimeout 30\n");
    Build(h);
    for (uint32_t s = 0; s < 3; ++s)
    {
        m_t.site[s]->GetMepAgent()->SetAttribute("LdnsRefreshInterval", TimeValue(Time(0)));
    }
    Simulator::Stop(Seconds(60));
    Simulator::Run();
    for (int32_t r = 0; r < 3; ++r)
    {
        EXPECT_TRUE(m_expired[0][r].empty()) << "region " << r; // asked all along
        for (uint32_t s = 1; s < 3; ++s)
        {
            ASSERT_FALSE(m_expired[s][r].empty()) << "site " << s << " region " << r;
            // The entry timeout after the last record heard (within the first seconds), found
            // at the next probe (ping interval 5 s).
            EXPECT_LT(m_expired[s][r].front(), Seconds(30 + 5 + 5))
                << "site " << s << " region " << r;
        }
        // The first site still holds the others' values, no longer measured.
        EXPECT_TRUE(m_t.site[0]->GetDatabase()->GetRtt(m_t.ldnsIp[r], 1).has_value());
    }
}

// REQ: GSLB-08, GSLB-01 (the RTT method decides only with the RTT of every candidate site:
// the lowest known RTT is not the lowest RTT while a site's is unknown)
TEST(GslbRttRule, DecidesOnlyWithEveryCandidateSitesRtt)
{
    Ptr<GslbRttDatabase> db = CreateObject<GslbRttDatabase>();
    db->SetSites({"site-a", "site-b", "site-c"}, 0);
    Ptr<GslbRttLb> m = CreateObject<GslbRttLb>();
    m->SetDatabase(db);
    for (const char* name : {"svc-a", "svc-b", "svc-c"})
    {
        AdcBackend b;
        b.name = name;
        m->AddBackend(b);
    }
    for (uint32_t s = 0; s < 3; ++s)
    {
        m->SetBackendSite(std::string("svc-") + char('a' + s), s);
    }
    AdcLbContext ctx;
    ctx.ldns = Ipv4Address("198.51.100.7");
    // Only site a's RTT (50 ms) known: site b (20 ms) is still probing. Backup, round robin.
    db->UpdateLocal(ctx.ldns, MilliSeconds(50));
    std::vector<int32_t> answers;
    for (int k = 0; k < 3; ++k)
    {
        answers.push_back(m->Select(ctx));
        EXPECT_EQ(m->GetLastReason(), "backup-roundrobin-partial-rtt");
    }
    EXPECT_EQ(answers, (std::vector<int32_t>{0, 1, 2}));
    // Site b's RTT known, site c's not: still the backup.
    db->UpdateRemote(1, ctx.ldns, MilliSeconds(20));
    EXPECT_EQ(m->Select(ctx), 0);
    EXPECT_EQ(m->GetLastReason(), "backup-roundrobin-partial-rtt");
    // Site c down: the candidates a and b are both known, the lowest (b) wins.
    m->SetBackendUp(2, false);
    EXPECT_EQ(m->Select(ctx), 1);
    EXPECT_EQ(m->GetLastReason(), "rtt");
    // Site c up and known (35 ms): b still.
    m->SetBackendUp(2, true);
    db->UpdateRemote(2, ctx.ldns, MilliSeconds(35));
    EXPECT_EQ(m->Select(ctx), 1);
    EXPECT_EQ(m->GetLastReason(), "rtt");
    // RequireEveryRtt false (the model before issue 26): the lowest known RTT decides.
    Ptr<GslbRttDatabase> db2 = CreateObject<GslbRttDatabase>();
    db2->SetSites({"site-a", "site-b", "site-c"}, 0);
    m->SetDatabase(db2);
    m->SetAttribute("RequireEveryRtt", BooleanValue(false));
    db2->UpdateLocal(ctx.ldns, MilliSeconds(50));
    EXPECT_EQ(m->Select(ctx), 0);
    EXPECT_EQ(m->GetLastReason(), "rtt");
    // A bad -backupLBMethod names the setting and the allowed names.
    try
    {
        m->SetBackupMethod("FASTEST");
        ADD_FAILURE() << "FASTEST accepted";
    }
    catch (const AdcConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("-backupLBMethod"), std::string::npos) << what;
        EXPECT_NE(what.find("FASTEST"), std::string::npos) << what;
        EXPECT_NE(what.find("ROUNDROBIN"), std::string::npos) << what;
    }
    m->SetBackupMethod("leastconnection");
    EXPECT_EQ(m->GetBackupMethodName(), "LEASTCONNECTION");
}

// REQ: GSLB-08 (-backupLBMethod through NetScaler's commands: read, shown, checked)
TEST(GslbBackupLbMethodConfig, ReadShownAndChecked)
{
    const std::string sites = "add gslb site site-a 10.1.0.2 -siteType LOCAL\n"
                              "add gslb service svc-a 10.1.0.10 HTTP 80 -siteName site-a\n";
    {
        AdcConfigReader reader(AdcNetScalerGslbCommands::GetLanguage());
        reader.ReadString(sites + "add gslb vserver v HTTP -lbMethod RTT\n"
                                  "set gslb vserver v -backupLBMethod staticproximity\n"
                                  "bind gslb vserver v -serviceName svc-a\n",
                          "a.conf");
        AdcNetScalerGslbCommands::Validate(reader.GetStore());
        Ptr<GslbVserverConfig> v = reader.GetStore().Get<GslbVserverConfig>(
            AdcNetScalerGslbCommands::GSLB_VSERVER,
            "v");
        ASSERT_TRUE(v);
        EXPECT_TRUE(v->IsBackupLbMethodSet());
        EXPECT_EQ(v->GetBackupLbMethod(), "STATICPROXIMITY");
        const std::string shown = reader.Show();
        EXPECT_NE(shown.find("add gslb vserver v HTTP -lbMethod RTT -backupLBMethod "
                             "STATICPROXIMITY"),
                  std::string::npos)
            << shown;
        AdcConfigReader again(AdcNetScalerGslbCommands::GetLanguage());
        again.ReadString(shown, "shown");
        EXPECT_EQ(again.Show(), shown);
    }
    {
        // Not given: ROUNDROBIN (the seed's round robin), and Show leaves it out.
        AdcConfigReader reader(AdcNetScalerGslbCommands::GetLanguage());
        reader.ReadString(sites + "add gslb vserver v HTTP -lbMethod RTT\n", "b.conf");
        Ptr<GslbVserverConfig> v = reader.GetStore().Get<GslbVserverConfig>(
            AdcNetScalerGslbCommands::GSLB_VSERVER,
            "v");
        EXPECT_FALSE(v->IsBackupLbMethodSet());
        EXPECT_EQ(v->GetBackupLbMethod(), "ROUNDROBIN");
        EXPECT_EQ(reader.Show().find("-backupLBMethod"), std::string::npos);
    }
    // An unknown name: the setting, the word and the allowed names.
    {
        AdcConfigReader reader(AdcNetScalerGslbCommands::GetLanguage());
        try
        {
            reader.ReadString(sites + "add gslb vserver v HTTP -lbMethod RTT -backupLBMethod "
                                      "FASTEST\n",
                              "c.conf");
            ADD_FAILURE() << "FASTEST accepted";
        }
        catch (const AdcConfigError& e)
        {
            const std::string what = e.what();
            for (const char* part : {"c.conf", ":3", "-backupLBMethod", "FASTEST", "ROUNDROBIN"})
            {
                EXPECT_NE(what.find(part), std::string::npos) << part << " in " << what;
            }
        }
    }
    // NITRO: "Valid only if the primary method is based on either RTT or static proximity".
    {
        AdcConfigReader reader(AdcNetScalerGslbCommands::GetLanguage());
        reader.ReadString(sites + "add gslb vserver v HTTP -backupLBMethod ROUNDROBIN\n",
                          "d.conf");
        try
        {
            AdcNetScalerGslbCommands::Validate(reader.GetStore());
            ADD_FAILURE() << "a backup method of LEASTCONNECTION accepted";
        }
        catch (const AdcConfigError& e)
        {
            const std::string what = e.what();
            for (const char* part : {"d.conf", ":3", "-backupLBMethod", "LEASTCONNECTION", "RTT"})
            {
                EXPECT_NE(what.find(part), std::string::npos) << part << " in " << what;
            }
        }
    }
}
