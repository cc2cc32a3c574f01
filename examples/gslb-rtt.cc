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
 * generating them: each file must define the GSLB vserver gslb-web and bind it the clients'
 * domain (checked before the run); the method of each run is gslb-rtt's own command
 * `set gslb vserver gslb-web -lbMethod M`, read after the file as a source of its own (the
 * file itself is not changed; an error of that command names --methods, not a line).
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-config-reader.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-mpi.h"
#include "ns3/adc-netscaler-gslb-commands.h"
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

/// \param method a GSLB method \return gslb-rtt's own command that sets it
std::string
OwnCommand(const std::string& method)
{
    return "set gslb vserver gslb-web -lbMethod " + method;
}

/// Command-line settings.
struct Settings
{
    uint32_t sites{3};
    uint32_t regions{3};
    uint32_t clientsPerRegion{20};
    double duration{120};
    double interVisit{2};
    std::string methods{"RTT,ROUNDROBIN,STATICPROXIMITY"};
    uint32_t tolerance{0};
    uint32_t rttTolerance{5};
    std::string toleranceSemantics{"NETSCALER"};
    std::string probeOrder{"PING,DNS,TCP"};
    std::string ldnsSelection{"LOWEST_SRTT"};
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
    std::string probeOrder; //!< the order every site's prober uses (RTT only)
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
    h->SetAttribute("RttTolerance", UintegerValue(s.rttTolerance));
    h->SetAttribute("ToleranceSemantics", StringValue(s.toleranceSemantics));
    std::string words = s.probeOrder; // the attribute takes -ldnsprobeOrder's words
    std::replace(words.begin(), words.end(), ',', ' ');
    h->SetAttribute("ProbeOrder", StringValue(words));
    h->SetAttribute("DnsTtl", UintegerValue(s.ttl));
    h->SetAttribute("LdnsServerSelection", StringValue(s.ldnsSelection));
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
        // The method is gslb-rtt's own command, read after each file as a source of its own
        // (the file is not edited; an error in the command names --methods).
        h->SetExtraConfig(OwnCommand(method) + "\n", "--methods=" + method);
    }
    GslbTopology t = h->Build();
    // Fixed streams: the same random numbers whatever is created when (MPI ranks start only
    // their own users, whose resolvers and HTTP clients are created as they start).
    t.AssignStreams(1000000);
    Outcome out;
    out.method = method;
    out.consistency = t.consistency;
    Sinks sinks{method, &t, &answers, &rtt, &visits, &out};
    if (Ptr<GslbLdnsProber> prober = t.site[0]->GetProber())
    {
        // What the sites read from --probeOrder, every word of it (the run prints it).
        out.probeOrder = GslbLdnsProber::FormatProbeOrder(prober->GetProbeOrder());
    }

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

/**
 * \brief Read each site's file alone (its errors name its own lines), and check that it
 * defines the GSLB vserver gslb-rtt sets the method of, bound to the clients' domain: a file
 * for another domain would have every visit fail.
 * \param exp the options \param s the settings
 */
void
CheckSiteFiles(const AdcExperiment& exp, const Settings& s)
{
    StringValue domain;
    CreateObject<GslbTopologyHelper>()->GetAttribute("Domain", domain);
    for (uint32_t i = 0; i < s.sites; ++i)
    {
        const std::string file = s.config + "/gslb-site-" + static_cast<char>('a' + i) + ".ns.conf";
        if (!std::ifstream(file))
        {
            exp.Refuse("config",
                       "cannot read " + file +
                           "; allowed a folder with one file per site (--sites=" +
                           std::to_string(s.sites) + "): gslb-site-a.ns.conf, ...");
        }
        AdcConfigReader reader(AdcNetScalerGslbCommands::GetLanguage());
        AdcNetScalerGslbCommands::ReadFile(reader, file);
        Ptr<GslbVserverConfig> v =
            reader.GetStore().Get<GslbVserverConfig>(AdcNetScalerGslbCommands::GSLB_VSERVER,
                                                     "gslb-web");
        if (!v)
        {
            exp.Refuse("config",
                       file + " defines no GSLB vserver gslb-web, whose -lbMethod gslb-rtt "
                              "sets for each method: allowed a file with `add gslb vserver "
                              "gslb-web HTTP ...`");
        }
        bool bound = false;
        std::string where = file;
        std::vector<std::string> domains;
        for (const GslbVserverConfig::Domain& d : v->GetDomains())
        {
            bound = bound || AdcText::EqualsNoCase(d.name, domain.Get());
            domains.push_back(d.name);
            where = d.file.empty() ? file : d.file + ":" + std::to_string(d.line);
        }
        if (!bound)
        {
            exp.Refuse("config",
                       where + ": gslb vserver gslb-web is bound to " +
                           (domains.empty() ? std::string("no domain")
                                            : AdcConfigError::JoinAllowed(domains)) +
                           ", but the clients resolve " + domain.Get() +
                           ": allowed a file with `bind gslb vserver gslb-web -domainName " +
                           domain.Get() + "`");
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    AdcExperiment exp("gslb-rtt",
                      "GSLB by dynamic RTT against round robin and static proximity: a transit "
                      "link congests, a site fails and recovers.");
    exp.Add("sites", "GSLB sites", s.sites).Min(2).Max(8);
    exp.Add("regions", "client regions, each with an LDNS", s.regions).Min(1).Max(50);
    exp.Add("clientsPerRegion", "web users per region", s.clientsPerRegion).Min(1).Max(5000);
    exp.Add("duration", "length of each run (s)", s.duration).Min(20).Max(86400);
    exp.Add("interVisit", "mean time between a user's visits (s, exponential)", s.interVisit)
        .Above(0)
        .Max(86400);
    exp.AddList("methods", "GSLB methods compared, comma-separated", s.methods)
        .OneOf(AdcNetScalerGslbCommands::GetLbMethods());
    exp.Add("tolerance",
            "set gslb vserver -tolerance, ms: sites within lowest RTT + this answer round robin "
            "(NETSCALER); the store-and-send gate (SEED)",
            s.tolerance)
        .Max(GslbVserverConfig::MAX_TOLERANCE_MS);
    exp.Add("rttTolerance",
            "set gslb parameter -rttTolerance, ms: RTT changes up to this are not stored nor "
            "sent over MEP (NETSCALER; ignored under SEED)",
            s.rttTolerance)
        .Min(1)
        .Max(GslbParameterConfig::MAX_RTT_TOLERANCE);
    exp.Add("toleranceSemantics",
            "how the two tolerances are read: NETSCALER (NetScaler's documentation) or SEED "
            "(the seed's wording: the vserver's -tolerance, default 5 ms, is the gate)",
            s.toleranceSemantics)
        .OneOf({"NETSCALER", "SEED"});
    exp.AddList("probeOrder",
                "set gslb parameter -ldnsprobeOrder: probe kinds, comma-separated",
                s.probeOrder)
        .OneOf(GslbParameterConfig::GetProbeKinds());
    exp.Add("ldnsSelection",
            "how each LDNS picks among the sites' ADNS: LOWEST_SRTT (BIND, mostly the nearest), "
            "ROUND_ROBIN, or FIRST (every LDNS asks only the first site)",
            s.ldnsSelection)
        .OneOf({"LOWEST_SRTT", "ROUND_ROBIN", "FIRST"});
    exp.Add("ttl", "TTL of the DNS answers (s)", s.ttl).Max(86400);
    exp.Add("congestAt", "the transit link congests (s)", s.congestAt).Min(0);
    exp.Less("congestAt", "duration");
    exp.Add("congestRegion", "region whose link to its nearest site congests", s.congestRegion);
    exp.Index("congestRegion", "regions");
    exp.Add("congestDelay", "one-way delay of the congested link (ms)", s.congestDelay)
        .Min(0)
        .Max(60000);
    exp.Add("failAt", "a site fails (s)", s.failAt).Min(0);
    exp.Less("failAt", "recoverAt");
    exp.Add("failSite", "index of the site that fails", s.failSite);
    exp.Index("failSite", "sites");
    exp.Add("recoverAt", "it recovers (s)", s.recoverAt).Min(0);
    exp.Less("recoverAt", "duration");
    exp.Add("config",
            "directory of gslb-site-a.ns.conf, ... (one per site, each defining the GSLB "
            "vserver gslb-web bound to www.gslb.example; empty: generated)",
            s.config,
            AdcExperimentOption::Kind::INPUT_DIR)
        .SampleFiles({"gslb-site-a.ns.conf"});
    exp.Add("pcap", "write pcaps of the first method's run", s.pcap);
    exp.AddOutputDir("outputDir", "where the CSV files go", s.outputDir);
    exp.AddSeedAndRun(s.seed, s.run);
    exp.AddLoadLimits([&s]() {
        const double users = double(s.regions) * s.clientsPerRegion;
        const double visits =
            users * s.duration / s.interVisit * AdcConfigError::SplitList(s.methods).size();
        return AdcExperiment::Load{users, visits, 0, 0};
    });
    exp.UseMpi(); // under mpirun with several ranks: ns-3's MPI engine
    return exp.Run(argc, argv, [&s, &exp]() {
        if (s.pcap)
        {
            // A pcap shows real IPv4, UDP and TCP checksums (ns-3 writes zeros without this),
            // as Wireshark validates them; nothing the simulation decides depends on them.
            GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
        }
        if (!s.config.empty())
        {
            CheckSiteFiles(exp, s);
        }
        AdcMpi::CheckOneSimulation("gslb-rtt",
                                   "--methods=" + s.methods,
                                   AdcConfigError::SplitList(s.methods).size(),
                                   "methods");
        const bool writer = AdcMpi::GetRank() == 0; // of the whole-run files
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
        bool first = true;
        for (const std::string& method : AdcConfigError::SplitList(s.methods))
        {
            std::cerr << "gslb-rtt: " << method << " ..." << std::endl;
            outcomes.push_back(RunOne(s, method, answers, rtt, visits, first));
            first = false;
        }
        if (!writer)
        {
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
            if (!o.probeOrder.empty())
            {
                std::cout << "  probe order: " << o.probeOrder << ", tolerance semantics "
                          << s.toleranceSemantics << "\n";
                break;
            }
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
        return 0;
    });
}
