/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * gslb-rtt: global server load balancing by dynamic RTT (seed 004), compared with round robin
 * and static proximity by what users experience.
 *
 * Three or more GSLB sites (each an appliance that is the authoritative DNS of the domain, and
 * a web server) and client regions (each with its LDNS and web users) across a WAN; every
 * region has one nearest site. During the run a transit link congests (region 0's link to its
 * nearest site gets slower), then a site fails and recovers. Each method runs the same load
 * with the same seed:
 *  - RTT: the sites probe every LDNS (ldns-ping, ldns-dns, ldns-tcp), exchange the RTTs over
 *    MEP and answer the site with the lowest RTT (round robin while none is known);
 *  - ROUNDROBIN: the sites in turn;
 *  - STATICPROXIMITY: a static table maps each region's LDNS prefix to its nearest site at
 *    the start (it does not see the congestion).
 *
 * Output in --outputDir: answers.csv, rtt.csv, visits.csv, events.csv, summary.csv (see
 * doc/gslb.rst); ./adc plot draws gslb-answers.png, gslb-rtt.png and gslb-latency.png.
 * --config=DIR reads the sites' ns.conf from DIR/gslb-site-a.ns.conf, ... instead of
 * generating them (the method of each run is then set with `set gslb vserver -lbMethod`).
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-mpi.h"
#include "ns3/adc-web-user.h"
#include "ns3/core-module.h"
#include "ns3/gslb-adns.h"
#include "ns3/gslb-helper.h"
#include "ns3/gslb-lb-methods.h"
#include "ns3/gslb-ldns-prober.h"
#include "ns3/gslb-mep-agent.h"
#include "ns3/gslb-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Command-line settings.
struct Settings
{
    uint32_t sites{3};
    uint32_t regions{3};
    uint32_t clientsPerRegion{20};
    double duration{120};
    double interVisit{2};
    std::string methods{"RTT,ROUNDROBIN,STATICPROXIMITY"};
    uint32_t tolerance{5};
    std::string probeOrder{"PING DNS TCP"};
    uint32_t ttl{5};
    double congestAt{40};
    uint32_t congestRegion{0};
    double congestDelay{120};
    double failAt{70};
    uint32_t failSite{1};
    double recoverAt{95};
    std::string config;
    bool pcap{false};
    std::string outputDir{"results/gslb-rtt"};
    uint32_t seed{1};
    uint32_t run{1};
};

/// What one method's run wrote and counted.
struct Outcome
{
    std::string method;
    uint64_t visits{0}, completed{0}, failed{0}, open{0}, nearest{0};
    std::vector<double> totals; //!< completed visits' times, ms
    std::vector<double> dns;    //!< their DNS times, ms
    uint64_t answers{0}, mepMessages{0}, probes{0};
    std::vector<std::string> consistency;
};

/// Everything the trace sinks of one run write to.
struct Sinks
{
    std::string method;
    GslbTopology* t{nullptr};
    AdcCsvWriter* answers{nullptr};
    AdcCsvWriter* rtt{nullptr};
    AdcCsvWriter* visits{nullptr};
    Outcome* out{nullptr};
};

std::string
Ms(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << t.GetSeconds() * 1000;
    return os.str();
}

std::string
Sec(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(6) << t.GetSeconds();
    return os.str();
}

void
OnDecision(Sinks* s,
           uint32_t site,
           const AdcIpAddress& ldns,
           const std::string& /* domain */,
           const std::string& /* service */,
           const AdcIpAddress& address,
           const std::string& /* how */,
           const std::string& reason)
{
    const int32_t region = s->t->RegionOfLdns(ldns);
    const int32_t answer = s->t->SiteOf(address);
    s->answers->WriteRow({s->method,
                          Sec(Simulator::Now()),
                          s->t->siteNames[site],
                          std::to_string(region),
                          answer < 0 ? "" : s->t->siteNames[answer],
                          reason});
    ++s->out->answers;
}

void
OnProbe(Sinks* s,
        uint32_t site,
        const AdcIpAddress& ldns,
        const std::string& kind,
        Time rtt,
        const std::string& /* reason */,
        bool yieldsRtt)
{
    ++s->out->probes;
    const int32_t region = s->t->RegionOfLdns(ldns);
    if (!yieldsRtt || region < 0)
    {
        return;
    }
    s->rtt->WriteRow({s->method,
                      Sec(Simulator::Now()),
                      s->t->siteNames[site],
                      std::to_string(region),
                      kind,
                      Ms(rtt),
                      Ms(s->t->TruePathRtt(region, site))});
}

void
OnMep(Sinks* s, uint32_t /* site */, bool sent, const AdcMepMessage& /* m */)
{
    s->out->mepMessages += sent ? 1 : 0;
}

void
OnVisit(Sinks* s, uint32_t client, const AdcWebVisit& v)
{
    const uint32_t region = s->t->regionOf[client];
    const int32_t site = s->t->SiteOf(v.server);
    s->visits->WriteRow({s->method,
                         std::to_string(client),
                         std::to_string(region),
                         Sec(v.start),
                         Ms(v.dnsTime),
                         Ms(v.fetchTime),
                         Ms(v.total),
                         site < 0 ? "" : s->t->siteNames[site],
                         v.outcome});
    if (v.outcome == "completed")
    {
        s->out->totals.push_back(v.total.GetSeconds() * 1000);
        s->out->dns.push_back(v.dnsTime.GetSeconds() * 1000);
        // The nearest site when the answer came (after the DNS time).
        if (site >= 0 && static_cast<uint32_t>(site) == s->t->NearestSite(region))
        {
            ++s->out->nearest;
        }
    }
}

double
Percentile(std::vector<double> v, double p)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(k, v.size() - 1)];
}

double
Mean(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v)
    {
        sum += x;
    }
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

Outcome
RunOne(const Settings& s,
       const std::string& method,
       AdcCsvWriter& answers,
       AdcCsvWriter& rtt,
       AdcCsvWriter& visits,
       bool firstRun)
{
    RngSeedManager::SetSeed(s.seed);
    RngSeedManager::SetRun(s.run);
    Ptr<GslbTopologyHelper> h = CreateObject<GslbTopologyHelper>();
    h->SetAttribute("Sites", UintegerValue(s.sites));
    h->SetAttribute("Regions", UintegerValue(s.regions));
    h->SetAttribute("ClientsPerRegion", UintegerValue(s.clientsPerRegion));
    h->SetAttribute("LbMethod", StringValue(method));
    h->SetAttribute("Tolerance", UintegerValue(s.tolerance));
    h->SetAttribute("ProbeOrder", StringValue(s.probeOrder));
    h->SetAttribute("DnsTtl", UintegerValue(s.ttl));
    h->SetAttribute("InterVisitTime", TimeValue(Seconds(s.interVisit)));
    h->SetAttribute("StopVisitsAt", TimeValue(Seconds(s.duration - 5)));
    // Under MPI: site s and region r on rank s % ranks and r % ranks (WAN links cut).
    h->SetAttribute("Partitions", UintegerValue(AdcMpi::GetSize()));
    if (!s.config.empty())
    {
        std::vector<std::string> files;
        for (uint32_t i = 0; i < s.sites; ++i)
        {
            files.push_back(s.config + "/gslb-site-" + static_cast<char>('a' + i) + ".ns.conf");
        }
        h->SetConfigFiles(files);
        h->SetExtraConfig("set gslb vserver gslb-web -lbMethod " + method + "\n");
    }
    GslbTopology t = h->Build();
    // Fixed streams: the same random numbers whatever is created when (MPI ranks start only
    // their own users, whose resolvers and HTTP clients are created as they start).
    t.AssignStreams(1000000);
    Outcome out;
    out.method = method;
    out.consistency = t.consistency;
    Sinks sinks{method, &t, &answers, &rtt, &visits, &out};

    for (uint32_t site = 0; site < t.GetNSites(); ++site)
    {
        Ptr<GslbSiteApps> apps = t.site[site];
        apps->GetAdns()->TraceConnectWithoutContext("Decision",
                                                    MakeBoundCallback(&OnDecision, &sinks, site));
        apps->GetMepAgent()->TraceConnectWithoutContext("Message",
                                                        MakeBoundCallback(&OnMep, &sinks));
        if (apps->GetProber())
        {
            apps->GetProber()->TraceConnectWithoutContext(
                "Probe",
                MakeBoundCallback(&OnProbe, &sinks, site));
        }
        // Static proximity: each region's LDNS prefix is located at its nearest site now.
        if (Ptr<GslbStaticProximityLb> sp = apps->GetStaticProximity("gslb-web"))
        {
            for (uint32_t r = 0; r < t.GetNRegions(); ++r)
            {
                const std::string prefix = "10." + std::to_string(100 + r) + ".0.0";
                sp->AddLocation(AdcIpAddress(Ipv4Address(prefix.c_str())),
                                16,
                                t.siteNames[t.NearestSite(r)]);
            }
        }
    }
    for (uint32_t i = 0; i < t.users.size(); ++i)
    {
        t.users[i]->TraceConnectWithoutContext("Visit", MakeBoundCallback(&OnVisit, &sinks, i));
    }
    // The changes: a congested transit link, a site failing and recovering.
    const uint32_t congestSite = t.NearestSite(s.congestRegion);
    Simulator::Schedule(Seconds(s.congestAt), [&t, &s, congestSite] {
        GslbTopologyHelper::ChangeWanDelay(t,
                                           s.congestRegion,
                                           congestSite,
                                           MilliSeconds(s.congestDelay));
    });
    Simulator::Schedule(Seconds(s.failAt),
                        [&t, &s] { GslbTopologyHelper::SetSiteUp(t, s.failSite, false); });
    Simulator::Schedule(Seconds(s.recoverAt),
                        [&t, &s] { GslbTopologyHelper::SetSiteUp(t, s.failSite, true); });
    if (s.pcap && firstRun)
    {
        GslbTopologyHelper::EnablePcapAll(t, s.outputDir + "/pcap/gslb");
    }
    // Under MPI every rank built every application; other ranks' never start.
    AdcMpi::SilenceRemoteApplications();
    Simulator::Stop(Seconds(s.duration));
    Simulator::Run();
    for (const Ptr<AdcWebUser>& u : t.users)
    {
        out.visits += u->GetVisits();
        out.completed += u->GetCompleted();
        out.failed += u->GetFailedTotal();
        out.open += u->GetOpen();
    }
    // The whole run's counts and times (each rank saw its own users, sites and probes).
    std::vector<uint64_t> counts{out.visits,
                                 out.completed,
                                 out.failed,
                                 out.open,
                                 out.nearest,
                                 out.answers,
                                 out.mepMessages,
                                 out.probes};
    AdcMpi::Sum(counts);
    out.visits = counts[0];
    out.completed = counts[1];
    out.failed = counts[2];
    out.open = counts[3];
    out.nearest = counts[4];
    out.answers = counts[5];
    out.mepMessages = counts[6];
    out.probes = counts[7];
    AdcMpi::Gather(out.totals);
    AdcMpi::Gather(out.dns);
    Simulator::Destroy();
    return out;
}

void
Check(const Settings& s)
{
    auto fail = [](const std::string& option, const std::string& value, const std::string& ok) {
        throw AdcConfigError("gslb-rtt: --" + option + "=" + value + ": allowed " + ok);
    };
    if (s.duration < 20)
    {
        fail("duration", std::to_string(s.duration), "at least 20 (s)");
    }
    if (s.congestRegion >= s.regions)
    {
        fail("congestRegion", std::to_string(s.congestRegion), "0..regions-1");
    }
    if (s.failSite >= s.sites)
    {
        fail("failSite", std::to_string(s.failSite), "0..sites-1");
    }
    if (!(s.congestAt < s.duration && s.failAt < s.recoverAt))
    {
        fail("failAt", std::to_string(s.failAt), "before --recoverAt, events before --duration");
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    try
    {
        AdcMpi::Enable(&argc, &argv); // under mpirun with several ranks: ns-3's MPI engine
    }
    catch (const AdcConfigError& e)
    {
        std::cerr << "gslb-rtt: " << e.what() << std::endl;
        return 2;
    }
    Settings s;
    CommandLine cmd(__FILE__);
    cmd.AddValue("sites", "GSLB sites (2..8)", s.sites);
    cmd.AddValue("regions", "client regions, each with an LDNS (1..50)", s.regions);
    cmd.AddValue("clientsPerRegion", "web users per region", s.clientsPerRegion);
    cmd.AddValue("duration", "length of each run (s)", s.duration);
    cmd.AddValue("interVisit", "mean time between a user's visits (s, exponential)", s.interVisit);
    cmd.AddValue("methods", "GSLB methods compared, comma-separated", s.methods);
    cmd.AddValue("tolerance", "RTT tolerance, ms (set gslb vserver -tolerance)", s.tolerance);
    cmd.AddValue("probeOrder", "set gslb parameter -ldnsprobeOrder (words)", s.probeOrder);
    cmd.AddValue("ttl", "TTL of the DNS answers (s)", s.ttl);
    cmd.AddValue("congestAt", "the transit link congests (s)", s.congestAt);
    cmd.AddValue("congestRegion",
                 "region whose link to its nearest site congests",
                 s.congestRegion);
    cmd.AddValue("congestDelay", "one-way delay of the congested link (ms)", s.congestDelay);
    cmd.AddValue("failAt", "a site fails (s)", s.failAt);
    cmd.AddValue("failSite", "index of the site that fails", s.failSite);
    cmd.AddValue("recoverAt", "it recovers (s)", s.recoverAt);
    cmd.AddValue("config", "directory of gslb-site-a.ns.conf, ... (empty: generated)", s.config);
    cmd.AddValue("pcap", "write pcaps of the first method's run", s.pcap);
    cmd.AddValue("outputDir", "where the CSV files go", s.outputDir);
    cmd.AddValue("seed", "RNG seed", s.seed);
    cmd.AddValue("run", "RNG run number", s.run);
    cmd.Parse(argc, argv);
    try
    {
        Check(s);
        AdcMpi::CheckOneSimulation("gslb-rtt",
                                   "--methods=" + s.methods,
                                   AdcConfigError::SplitList(s.methods).size(),
                                   "methods");
        const bool writer = AdcMpi::GetRank() == 0; // of the whole-run files
        std::filesystem::create_directories(s.outputDir);
        AdcCsvWriter answers(s.outputDir + "/answers.csv",
                             {"method", "time_s", "adns_site", "region", "answer_site", "reason"});
        AdcCsvWriter rtt(s.outputDir + "/rtt.csv",
                         {"method", "time_s", "site", "region", "kind", "measured_ms", "true_ms"});
        AdcCsvWriter visits(s.outputDir + "/visits.csv",
                            {"method",
                             "client",
                             "region",
                             "start_s",
                             "dns_ms",
                             "fetch_ms",
                             "total_ms",
                             "site",
                             "outcome"});
        if (writer)
        {
            AdcCsvWriter events(s.outputDir + "/events.csv", {"time_s", "event"});
            events.WriteRow({std::to_string(s.congestAt), "congestion"});
            events.WriteRow(
                {std::to_string(s.failAt), "site " + std::to_string(s.failSite) + " fails"});
            events.WriteRow({std::to_string(s.recoverAt), "recovers"});
        }
        std::vector<Outcome> outcomes;
        std::stringstream list(s.methods);
        std::string method;
        bool first = true;
        while (std::getline(list, method, ','))
        {
            std::cerr << "gslb-rtt: " << method << " ..." << std::endl;
            outcomes.push_back(RunOne(s, method, answers, rtt, visits, first));
            first = false;
        }
        if (!writer)
        {
            AdcMpi::Disable();
            return 0;
        }
        AdcCsvWriter summary(s.outputDir + "/summary.csv",
                             {"method",
                              "visits",
                              "completed",
                              "failed",
                              "open",
                              "nearest_share",
                              "mean_ms",
                              "p50_ms",
                              "p95_ms",
                              "dns_mean_ms",
                              "answers",
                              "mep_sent",
                              "probes"});
        std::cout << "gslb-rtt: " << s.sites << " sites, " << s.regions << " regions, "
                  << s.clientsPerRegion << " users each, " << s.duration << " s per method\n";
        for (const std::string& m : outcomes.front().consistency)
        {
            std::cout << "  configuration: " << m << "\n";
        }
        for (const Outcome& o : outcomes)
        {
            const double share = o.completed == 0 ? 0
                                                  : static_cast<double>(o.nearest) /
                                                        static_cast<double>(o.completed);
            std::ostringstream sh;
            sh << std::fixed << std::setprecision(4) << share;
            auto f = [](double x) {
                std::ostringstream os;
                os << std::fixed << std::setprecision(2) << x;
                return os.str();
            };
            summary.WriteRow({o.method,
                              std::to_string(o.visits),
                              std::to_string(o.completed),
                              std::to_string(o.failed),
                              std::to_string(o.open),
                              sh.str(),
                              f(Mean(o.totals)),
                              f(Percentile(o.totals, 0.5)),
                              f(Percentile(o.totals, 0.95)),
                              f(Mean(o.dns)),
                              std::to_string(o.answers),
                              std::to_string(o.mepMessages),
                              std::to_string(o.probes)});
            std::cout << "  " << std::left << std::setw(16) << o.method << " visits " << o.visits
                      << " (completed " << o.completed << ", failed " << o.failed << ", open "
                      << o.open << "), nearest site " << sh.str() << ", mean " << f(Mean(o.totals))
                      << " ms, p95 " << f(Percentile(o.totals, 0.95)) << " ms\n";
        }
    }
    catch (const AdcConfigError& e)
    {
        std::cerr << "gslb-rtt: " << e.what() << std::endl;
        AdcMpi::Disable();
        return 2;
    }
    AdcMpi::Disable();
    return 0;
}
