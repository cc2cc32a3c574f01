/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GSLB end to end: sites configured from their ns.conf (GslbTopologyHelper), LDNS servers and
 * web users across a WAN. The expected values come from the delays the tests set and from the
 * seed's rules (lowest RTT, round robin while none is known, tolerance, MEP keep-alives).
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-netscaler-gslb-commands.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/adc-web-user.h"
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
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One "Decision" of a site's ADNS.
struct Decision
{
    Time at;
    uint32_t adnsSite;
    int32_t region;
    int32_t answer;
    std::string reason;
};

/// A small GSLB deployment and what its traces recorded.
class GslbScenario : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// \return a helper with 3 sites, 3 regions, \p clients users each, method \p method
    Ptr<GslbTopologyHelper> Helper(const std::string& method, uint32_t clients = 2)
    {
        Ptr<GslbTopologyHelper> h = CreateObject<GslbTopologyHelper>();
        h->SetAttribute("ClientsPerRegion", UintegerValue(clients));
        h->SetAttribute("LbMethod", StringValue(method));
        h->SetAttribute("InterVisitTime", TimeValue(Seconds(1)));
        // Every LDNS asks every site's ADNS in turn: every site decides (GSLB-07).
        h->SetAttribute("LdnsServerSelection", StringValue("ROUND_ROBIN"));
        return h;
    }

    void Build(Ptr<GslbTopologyHelper> h)
    {
        m_t = h->Build();
        for (uint32_t s = 0; s < m_t.GetNSites(); ++s)
        {
            m_t.site[s]->GetAdns()->TraceConnectWithoutContext(
                "Decision",
                MakeBoundCallback(&GslbScenario::OnDecision, this, s));
        }
    }

    static void OnDecision(GslbScenario* self,
                           uint32_t site,
                           const AdcIpAddress& ldns,
                           const std::string&,
                           const std::string&,
                           const AdcIpAddress& address,
                           const std::string&,
                           const std::string& reason)
    {
        self->m_decisions.push_back({Simulator::Now(),
                                     site,
                                     self->m_t.RegionOfLdns(ldns),
                                     self->m_t.SiteOf(address),
                                     reason});
    }

    /// Every visit ended or is open at the stop, at most one open per user; none failed.
    void ExpectAllVisitsAccounted(uint64_t allowedFailures = 0)
    {
        uint64_t visits = 0;
        uint64_t completed = 0;
        uint64_t failed = 0;
        uint64_t open = 0;
        for (const Ptr<AdcWebUser>& u : m_t.users)
        {
            visits += u->GetVisits();
            completed += u->GetCompleted();
            failed += u->GetFailedTotal();
            open += u->GetOpen();
            EXPECT_LE(u->GetOpen(), 1u);
        }
        EXPECT_EQ(visits, completed + failed + open);
        EXPECT_LE(failed, allowedFailures);
        EXPECT_GT(completed, m_t.users.size()); // every user completed several visits
    }

    GslbTopology m_t;
    std::vector<Decision> m_decisions;
};

} // namespace

// REQ: GSLB-01 (answers follow the lowest RTT), GSLB-02 (the appliance is the authoritative
// DNS), GSLB-07 (every site makes the same choice from the RTTs exchanged over MEP)
TEST_F(GslbScenario, EverySiteAnswersEachRegionWithItsNearestSite)
{
    Build(Helper("RTT"));
    Simulator::Stop(Seconds(40));
    Simulator::Run();
    // The RTTs are known at every site once each LDNS was probed (its first query, then one
    // probe of 2 x path delay) and MEP carried them (one site-site delay): well within 15 s.
    std::set<uint32_t> adnsSeen;
    uint32_t late = 0;
    for (const Decision& d : m_decisions)
    {
        ASSERT_GE(d.region, 0);
        if (d.at < Seconds(15))
        {
            continue;
        }
        ++late;
        adnsSeen.insert(d.adnsSite);
        EXPECT_EQ(d.reason, "rtt") << "at " << d.at.As(Time::S);
        EXPECT_EQ(d.answer, static_cast<int32_t>(m_t.NearestSite(d.region)))
            << "site " << d.adnsSite << " answered region " << d.region << " at "
            << d.at.As(Time::S);
    }
    EXPECT_GT(late, 3u * 3u);       // every region asked several times (TTL 5 s)
    EXPECT_EQ(adnsSeen.size(), 3u); // the LDNS spread its queries over every site's ADNS
    // Every site's database holds every site's RTT to every LDNS: the true round trip, within
    // the tolerance (5 ms: a later measurement closer than that replaces nothing, GSLB-09;
    // the first probe of an LDNS waits for ARP on both LANs) and 1 ms of transmission times.
    for (uint32_t s = 0; s < 3; ++s)
    {
        for (uint32_t r = 0; r < 3; ++r)
        {
            for (uint32_t from = 0; from < 3; ++from)
            {
                auto rtt = m_t.site[s]->GetDatabase()->GetRtt(m_t.ldnsIp[r], from);
                ASSERT_TRUE(rtt.has_value()) << "site " << s << " region " << r << " from " << from;
                EXPECT_NEAR(rtt->GetMilliSeconds(),
                            m_t.TruePathRtt(r, from).GetMilliSeconds(),
                            5.0 + 1.0);
            }
        }
    }
    ExpectAllVisitsAccounted();
}

// REQ: GSLB-08 (with no RTT known, a site is chosen round robin: first answers rotate)
TEST_F(GslbScenario, FirstAnswersRotateWhileNoRttIsKnown)
{
    Build(Helper("RTT"));
    Simulator::Stop(Seconds(8));
    Simulator::Run();
    // Per ADNS: its answers by the backup method (ROUNDROBIN: no RTT, or not every site's RTT
    // known yet) follow the services' order, a, b, c, a, ... The
    // three LDNS ask first at once; their round robin over the ADNS starts at site a, which
    // answers all three before any RTT is known: a, b, c (in some rotation).
    std::size_t longest = 0;
    for (uint32_t s = 0; s < 3; ++s)
    {
        std::vector<int32_t> rr;
        for (const Decision& d : m_decisions)
        {
            if (d.adnsSite == s && d.reason.rfind("backup-roundrobin-", 0) == 0)
            {
                rr.push_back(d.answer);
            }
        }
        longest = std::max(longest, rr.size());
        for (std::size_t k = 1; k < rr.size(); ++k)
        {
            EXPECT_EQ(rr[k], (rr[k - 1] + 1) % 3) << "site " << s << " answer " << k;
        }
    }
    EXPECT_GE(longest, 3u);
    // The first decision about each LDNS had no RTT.
    std::set<int32_t> seen;
    for (const Decision& d : m_decisions)
    {
        if (seen.insert(d.region).second)
        {
            EXPECT_EQ(d.reason, "backup-roundrobin-no-rtt") << "region " << d.region;
        }
    }
    EXPECT_EQ(seen.size(), 3u);
}

// REQ: GSLB-01, GSLB-09 (a latency change beyond the tolerance is stored, sent over MEP and
// answered from at every site)
TEST_F(GslbScenario, CongestedLinkMovesTheRegionToTheNextNearestSite)
{
    Build(Helper("RTT"));
    const uint32_t before = m_t.NearestSite(0);
    Simulator::Schedule(Seconds(20), [this, before] {
        GslbTopologyHelper::ChangeWanDelay(m_t, 0, before, MilliSeconds(200));
    });
    Simulator::Stop(Seconds(45));
    Simulator::Run();
    const uint32_t after = m_t.NearestSite(0);
    ASSERT_NE(after, before);
    // Probes every 5 s see the change; MEP spreads it; the LDNS's cached answer lives 5 s.
    uint32_t checked = 0;
    for (const Decision& d : m_decisions)
    {
        if (d.region == 0 && d.at > Seconds(15) && d.at < Seconds(20))
        {
            EXPECT_EQ(d.answer, static_cast<int32_t>(before));
        }
        if (d.region == 0 && d.at > Seconds(32))
        {
            ++checked;
            EXPECT_EQ(d.answer, static_cast<int32_t>(after)) << "at " << d.at.As(Time::S);
        }
    }
    EXPECT_GT(checked, 0u);
    ExpectAllVisitsAccounted();
}

// REQ: GSLB-07 (MEP: a site that stops answering is marked down at the others after the
// keep-alive timeout, and answered away from; it is answered again once MEP returns)
TEST_F(GslbScenario, FailedSiteIsAnsweredAwayFromAfterTheMepTimeoutAndReturns)
{
    Build(Helper("ROUNDROBIN"));
    Simulator::Schedule(Seconds(10), [this] { GslbTopologyHelper::SetSiteUp(m_t, 1, false); });
    Simulator::Schedule(Seconds(30), [this] { GslbTopologyHelper::SetSiteUp(m_t, 1, true); });
    Simulator::Stop(Seconds(60));
    Simulator::Run();
    // mepKeepAliveTimeout (10 s) after the last message heard (at most one keep-alive interval,
    // 1 s, before the failure): down by 20 s at the latest. Back within a connect retry (5 s)
    // and a site metric interval (1 s) of the recovery.
    uint32_t down = 0;
    uint32_t back = 0;
    for (const Decision& d : m_decisions)
    {
        if (d.at > Seconds(10) && d.at < Seconds(30))
        {
            EXPECT_NE(d.adnsSite, 1u) << "the failed site's ADNS answered at " << d.at;
        }
        if (d.at > Seconds(20.1) && d.at < Seconds(30))
        {
            ++down;
            EXPECT_NE(d.answer, 1);
        }
        if (d.at > Seconds(37) && d.answer == 1)
        {
            ++back;
        }
    }
    EXPECT_GT(down, 0u);
    EXPECT_GT(back, 0u);
    // Visits answered site 1 before the others knew fail, each with a reason; no more.
    std::map<std::string, uint64_t> reasons;
    for (const Ptr<AdcWebUser>& u : m_t.users)
    {
        for (const auto& [reason, n] : u->GetFailed())
        {
            reasons[reason] += n;
        }
    }
    for (const auto& [reason, n] : reasons)
    {
        EXPECT_TRUE(reason == "http-timeout" || reason == "connection-failed") << reason;
    }
    ExpectAllVisitsAccounted(m_t.users.size() * 12);
}

// REQ: GSLB-07 (a site whose service fails its monitor announces it DOWN over MEP: every site
// answers away from it, the site's own ADNS too; back when the monitor sees it again)
TEST_F(GslbScenario, ServiceFailingItsMonitorIsAnsweredAwayFromEverywhere)
{
    Ptr<GslbTopologyHelper> h = Helper("ROUNDROBIN");
    h->SetAttribute("DnsTtl", UintegerValue(2)); // more decisions
    h->SetExtraConfig("add lb monitor web-tcp TCP\n"
                      "bind gslb service svc-a -monitorName web-tcp\n"
                      "bind gslb service svc-b -monitorName web-tcp\n"
                      "bind gslb service svc-c -monitorName web-tcp\n");
    Build(h);
    Simulator::Schedule(Seconds(10), [this] { GslbTopologyHelper::SetServerUp(m_t, 1, false); });
    Simulator::Schedule(Seconds(45), [this] { GslbTopologyHelper::SetServerUp(m_t, 1, true); });
    Simulator::Stop(Seconds(75));
    Simulator::Run();
    // The TCP monitor (interval 5 s, response timeout 2 s, 3 retries) has three failed probes
    // by 10 + 5 + 10 + 2 = 27 s; MEP's site metric update follows within 1 s. DOWN, it probes
    // every DownTime (30 s): the first probe after the recovery at 45 s comes by 25 + 30 = 55 s
    // (+ its round trip), then one update and the LDNS's TTL (2 s): answered again by 60 s.
    uint32_t before = 0;
    uint32_t away = 0;
    uint32_t back = 0;
    std::set<uint32_t> deciding;
    for (const Decision& d : m_decisions)
    {
        before += d.at < Seconds(10) && d.answer == 1;
        if (d.at > Seconds(28) && d.at < Seconds(45))
        {
            ++away;
            deciding.insert(d.adnsSite);
            EXPECT_NE(d.answer, 1) << "site " << d.adnsSite << " at " << d.at;
        }
        back += d.at > Seconds(60) && d.answer == 1;
    }
    EXPECT_GT(before, 0u);
    EXPECT_GT(away, 3u);
    EXPECT_EQ(deciding.size(), 3u); // site b's own ADNS answers away from its service too
    EXPECT_GT(back, 0u);
}

// REQ: GSLB-09 (the RTT tolerance must be the same across the GSLB domain: a mismatch is
// reported), GSLB-02 (the sites run from their shipped ns.conf files)
TEST_F(GslbScenario, ShippedFilesAgreeAndAToleranceMismatchIsReported)
{
    const std::filesystem::path examples =
        std::filesystem::path(__FILE__).parent_path().parent_path() / "examples";
    std::vector<std::string> files;
    for (const char* site : {"a", "b", "c"})
    {
        files.push_back((examples / ("gslb-site-" + std::string(site) + ".ns.conf")).string());
    }
    Ptr<GslbTopologyHelper> h = Helper("RTT");
    h->SetConfigFiles(files);
    Build(h);
    EXPECT_TRUE(m_t.consistency.empty());
    for (uint32_t s = 0; s < 3; ++s)
    {
        EXPECT_EQ(m_t.site[s]->GetSite(), s); // each file names its own site LOCAL
        EXPECT_EQ(m_t.site[s]->GetToleranceMs(), 5u);
        EXPECT_TRUE(m_t.site[s]->GetProber());
    }
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    uint32_t byRtt = 0;
    for (const Decision& d : m_decisions)
    {
        byRtt += d.reason == "rtt" && d.answer == static_cast<int32_t>(m_t.NearestSite(d.region));
    }
    EXPECT_GT(byRtt, 0u);
    Simulator::Destroy();
    m_decisions.clear();

    // Site b's copy with another tolerance: reported, naming both values.
    const std::string dir = adctest::FreshTempDir("gslb-tolerance");
    std::vector<std::string> edited = files;
    edited[1] = dir + "/gslb-site-b.ns.conf";
    std::ifstream in(files[1]);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string from = "-lbMethod RTT -tolerance 5";
    ASSERT_NE(text.find(from), std::string::npos);
    text.replace(text.find(from), from.size(), "-lbMethod RTT -tolerance 12");
    std::ofstream(edited[1]) << text;
    Ptr<GslbTopologyHelper> h2 = Helper("RTT");
    h2->SetConfigFiles(edited);
    Build(h2);
    ASSERT_FALSE(m_t.consistency.empty());
    EXPECT_TRUE(adctest::HasAll(m_t.consistency.front(), {"gslb-web", "5", "12"}))
        << m_t.consistency.front();
    // NetScaler's reading (NITRO setgslbvserver_tolerance): the vserver's -tolerance is site
    // b's selection window; the store-and-send gate stays -rttTolerance's default, 5 ms.
    EXPECT_EQ(m_t.site[1]->GetToleranceMs(), 5u);
    Ptr<GslbRttLb> rtt = DynamicCast<GslbRttLb>(
        m_t.site[1]->GetVservers().front()->GetVirtualServer()->GetLbMethod());
    ASSERT_TRUE(rtt);
    TimeValue window;
    rtt->GetAttribute("Tolerance", window);
    EXPECT_EQ(window.Get(), MilliSeconds(12));
}

// REQ: GSLB-04, GSLB-05, GSLB-10 (the configuration reaches the probes: order and monitors)
TEST_F(GslbScenario, ProbeOrderAndMonitorSettingsComeFromTheConfiguration)
{
    Ptr<GslbTopologyHelper> h = Helper("RTT");
    h->SetAttribute("ProbeOrder", StringValue("DNS PING TCP"));
    h->SetExtraConfig("set lb monitor ldns-dns LDNS-DNS -interval 10 sec -resptimeout 3 sec\n");
    Build(h);
    Ptr<GslbLdnsProber> p = m_t.site[0]->GetProber();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->GetProbeOrder(),
              (std::vector<GslbLdnsProber::Kind>{GslbLdnsProber::DNS,
                                                 GslbLdnsProber::PING,
                                                 GslbLdnsProber::TCP}));
    TimeValue interval;
    p->GetMonitor("ldns-dns")->GetAttribute("Interval", interval);
    EXPECT_EQ(interval.Get(), Seconds(10));
    p->GetMonitor("ldns-ping")->GetAttribute("Interval", interval);
    EXPECT_EQ(interval.Get(), Seconds(5));
    // DNS probes (the first kind) every 10 s from the first query of each LDNS, at site a.
    std::map<std::string, std::vector<Time>> sent;
    p->TraceConnectWithoutContext("Probe",
                                  MakeBoundCallback(
                                      +[](std::map<std::string, std::vector<Time>>* out,
                                          const AdcIpAddress& ldns,
                                          const std::string& kind,
                                          Time rtt,
                                          const std::string&,
                                          bool yields) {
                                          EXPECT_EQ(kind,
                                                    "DNS"); // the LDNS answer DNS: no fallback
                                          EXPECT_TRUE(yields);
                                          (*out)[ldns.ToString()].push_back(Simulator::Now() - rtt);
                                      },
                                      &sent));
    Simulator::Stop(Seconds(35));
    Simulator::Run();
    ASSERT_EQ(sent.size(), 3u); // the three regions' LDNS
    for (const auto& [ldns, times] : sent)
    {
        ASSERT_GE(times.size(), 3u) << ldns;
        for (std::size_t k = 1; k < times.size(); ++k)
        {
            EXPECT_EQ(times[k] - times[k - 1], Seconds(10)) << ldns;
        }
    }
}

// REQ: GSLB-02 (bad configuration: a clear error naming the setting)
TEST_F(GslbScenario, BadConfigurationIsAClearError)
{
    Ptr<GslbTopologyHelper> h = Helper("RTT");
    h->SetAttribute("ProbeOrder", StringValue("PING UDP"));
    const std::string e = adctest::ConfigErrorOf([&] { h->Build(); });
    EXPECT_TRUE(adctest::HasAll(e, {"-ldnsprobeOrder", "UDP", "PING", "DNS", "TCP"})) << e;
    Ptr<GslbTopologyHelper> h2 = Helper("RTT");
    h2->SetAttribute("Sites", UintegerValue(9));
    EXPECT_TRUE(
        adctest::HasAll(adctest::ConfigErrorOf([&] { h2->Build(); }), {"Sites", "9", "2..8"}));
}
