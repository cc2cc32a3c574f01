/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * crd-compare: the project's main experiment. An ISP with thousands of clients behind N-tier
 * cache redirection (NetScaler appliances in two tiers in front of cache servers and an
 * origin), comparing redirection strategies on the same client load:
 *
 *   two-tier-ROUNDROBIN        the lower tier picks caches round robin
 *   two-tier-LEASTCONNECTION   ... by fewest open connections
 *   two-tier-URLHASH           ... by URL hash (each cache holds a share of the catalogue)
 *   one-tier-URLHASH           no upper tier: the router balances over the lower tier
 *   two-tier-URLHASH-failure   an appliance fails mid-window (--fail: by default CRS1's miss
 *                              gateway, L2NS3; any upper, lower or cache; --recoverAt)
 *
 * Each run warms the caches up first: requests issued before --warmup (9 s: half-way) fill them,
 * and the headline figures count only the requests issued in the measurement window after it (to
 * --duration, 17 s, by default), each as its client saw it: a cache hit or miss by the
 * response's X-Cache, a bypass without one, latency at the client (crd-compare-window.h).
 *
 * Output in --outputDir, per variant V: requests-V.csv (one row per request: client, URL,
 * latency, outcome, the Via path with X-Cache), throughput-V.csv (aggregate client goodput per
 * interval), hitratio-V.csv (per second of issue time, the clients' hits, misses, bypasses and
 * failures: the warm-up shows as the climb), load-V.csv (per lower appliance and per cache, the
 * window's requests it answered and their bytes); then summary.csv (one row per variant, its
 * columns documented in main) and pcap/ (one link of the first variant, --pcapLink). ./adc run
 * draws throughput.png, latency-cdf.png, outcomes.png, hit-ratio.png and load.png from them.
 */

#include "crd-compare-window.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-mpi.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-throughput-sampler.h"
#include "ns3/core-module.h"
#include "ns3/crd-config.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

using namespace ns3;

namespace
{

/// The experiment's settings, all settable from the command line.
struct Settings
{
    uint32_t accessNets{100};
    uint32_t clientsPerNet{20};
    uint32_t upper{2};
    uint32_t lower{4};
    uint32_t caches{3};
    double duration{17};
    double warmup{-1}; //!< the window opens (s); before it requests fill the caches; -1: half-way
    double window{-1}; //!< its length (s); -1: until the duration
    double rate{0.1};
    uint32_t objectSize{50000};
    double zipf{0.8};
    uint32_t catalogue{1000};
    double cacheable{0.9};
    uint64_t cacheCapacity{10000000};
    bool persistent{true};
    bool reuse{true};
    uint32_t origins{1};
    std::string variants{"two-tier-ROUNDROBIN,two-tier-LEASTCONNECTION,two-tier-URLHASH,"
                         "one-tier-URLHASH,two-tier-URLHASH-failure"};
    uint32_t failLower{1};
    std::string fail{"gateway:CRS1"}; //!< what fails in -failure variants (CrdTopology names)
    double failAt{-1};
    double recoverAt{-1}; //!< when it recovers (s); -1: never
    bool missFailover{true}; //!< the cache switch tracks the miss gateways (MonitorMissGateways)
    bool resetOrphans{true}; //!< the lower tier resets unknown connections (ResetOrphans)
    std::string pcapLink{"router-origin"};
    bool pcap{true};
    std::string outputDir{"results/crd-compare"};
    uint32_t seed{1};
    uint32_t run{1};
    std::string configDir;    //!< crd-upper-*.ns.conf and crd-lower-*.ns.conf configure the tiers
    std::string upperConfig;  //!< or: the upper appliances' ns.conf files, comma-separated
    std::string lowerConfig;  //!< and the lower appliances' files
    std::string printConfig;  //!< write the ns.conf files of the first variant here and stop
    bool countHops{false};    //!< count packets received by devices (./adc bench)
    bool accessOffCore{true}; //!< MPI plan: clients only on ranks 1..N-1
};

/// Packets that devices received (MacRx of point-to-point and CSMA devices): packet-hops.
uint64_t g_hops = 0;

void
CountHop(Ptr<const Packet>)
{
    ++g_hops;
}

/// One variant: tiers, the lower tier's cache method, and whether an appliance fails.
struct Variant
{
    std::string name;
    uint32_t upper;
    std::string method;
    bool failure;
};

/// \return every variant name: {two,one}-tier-METHOD[-failure], METHOD any of the registry's
/// cache-selection methods (a method registered with CACHE_SELECTION is a variant with no edit
/// here)
std::vector<std::string>
VariantNames()
{
    std::vector<std::string> names;
    for (const char* tiers : {"two-tier-", "one-tier-"})
    {
        for (const std::string& method :
             AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER,
                                           AdcLbMethodRegistry::CACHE_SELECTION))
        {
            names.push_back(tiers + method);
            names.push_back(tiers + method + "-failure");
        }
    }
    return names;
}

/// Parse "two-tier-URLHASH-failure" and friends (a name of VariantNames()).
Variant
ParseVariant(const std::string& text, const Settings& s)
{
    Variant v{text, text.rfind("one-tier-", 0) == 0 ? 0 : s.upper, text.substr(9), false};
    const std::string suffix = "-failure";
    if (v.method.size() > suffix.size() &&
        v.method.compare(v.method.size() - suffix.size(), suffix.size(), suffix) == 0)
    {
        v.failure = true;
        v.method.resize(v.method.size() - suffix.size());
    }
    return v;
}

/**
 * One row of summary.csv (the columns are documented where it is written, in main). sent ..
 * open_at_stop are the whole run's accounting; every other figure counts the requests issued
 * inside the measurement window only, as their clients saw them (CrdCompareWindow).
 */
struct Summary
{
    std::string variant;
    uint64_t sent{0};
    uint64_t completed{0};
    uint64_t failed{0};
    uint64_t openAtStop{0};
    uint64_t windowRequests{0};
    uint64_t hits{0};
    uint64_t misses{0};
    uint64_t bypasses{0};
    uint64_t windowFailed{0};
    double hitRatio{0};
    double byteHitRatio{0};
    uint64_t originRequests{0};
    uint64_t originBytes{0};
    double meanMs{0};
    double p50Ms{0};
    double p95Ms{0};
    double p99Ms{0};
    double goodputMbps{0};
    double maxLowerShare{0};
    std::string failures;
};

/// \return the window's start (s): --warmup, or half-way through the requests (they start at 1 s)
double
WindowStart(const Settings& s)
{
    return s.warmup >= 0 ? s.warmup : (1 + s.duration) / 2;
}

/// \return the window's end (s): --warmup + --window, or --duration
double
WindowEnd(const Settings& s)
{
    return s.window > 0 ? WindowStart(s) + s.window : s.duration;
}

/// The origins' counters (requests received, response bytes sent), summed over every origin.
std::array<uint64_t, 2>
OriginCounters(const CrdTopology& topo)
{
    std::array<uint64_t, 2> c{0, 0};
    for (const auto& app : topo.originApps)
    {
        if (AdcMpi::IsLocal(app->GetNode()))
        {
            c[0] += app->GetRequestsServed();
            c[1] += app->GetBytesSent();
        }
    }
    return c;
}

/// \return the topology of variant \p v, configured in C++ or from the ns.conf files given
CrdTopology
BuildTopology(const Settings& s, const Variant& v, Ptr<CrdTopologyHelper>& helper)
{
    helper = CreateObject<CrdTopologyHelper>();
    helper->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(s.accessNets));
    helper->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(s.clientsPerNet));
    // The partition plan under MPI: the core, both tiers, the caches and the origins on rank 0,
    // the access networks spread over ranks 1..N-1 (or over all, --accessOffCore=0); the
    // access uplinks are the cut links.
    helper->GetIspHelper()->SetAttribute("NumPartitions", UintegerValue(AdcMpi::GetSize()));
    helper->GetIspHelper()->SetAttribute("AccessOffCore", BooleanValue(s.accessOffCore));
    helper->SetAttribute("NumUpper", UintegerValue(v.upper));
    helper->SetAttribute("NumLower", UintegerValue(s.lower));
    helper->SetAttribute("NumCaches", UintegerValue(s.caches));
    helper->SetAttribute("CacheLbMethod", StringValue(v.method));
    helper->SetAttribute("CacheCapacity", UintegerValue(s.cacheCapacity));
    helper->SetAttribute("ObjectSize", UintegerValue(s.objectSize));
    helper->SetAttribute("ServerConnectionReuse", BooleanValue(s.reuse));
    helper->SetAttribute("NumOrigins", UintegerValue(s.origins));
    helper->SetAttribute("MonitorMissGateways", BooleanValue(s.missFailover));
    helper->SetAttribute("ResetOrphans", BooleanValue(s.resetOrphans));
    if (!s.configDir.empty())
    {
        return CrdConfig::FromDirectory(s.configDir).Build(helper);
    }
    if (!s.lowerConfig.empty())
    {
        return CrdConfig(AdcConfigError::SplitList(s.upperConfig),
                         AdcConfigError::SplitList(s.lowerConfig))
            .Build(helper);
    }
    return helper->Build();
}

Summary
RunOne(const Settings& s, const Variant& v, bool withPcap)
{
    RngSeedManager::SetSeed(s.seed);
    RngSeedManager::SetRun(s.run);

    Ptr<CrdTopologyHelper> helper;
    CrdTopology topo = BuildTopology(s, v, helper);

    AdcHttpClientHelper clientHelper(InetSocketAddress(topo.originAddress, 80));
    clientHelper.SetAttribute("Persistent", BooleanValue(s.persistent));
    clientHelper.SetAttribute("ZipfExponent", DoubleValue(s.zipf));
    clientHelper.SetAttribute("CatalogueSize", UintegerValue(s.catalogue));
    clientHelper.SetAttribute("CacheableFraction", DoubleValue(s.cacheable));
    std::ostringstream iat;
    iat << "ns3::ExponentialRandomVariable[Mean=" << 1.0 / s.rate << "]";
    clientHelper.SetAttribute("InterRequestTime", StringValue(iat.str()));
    clientHelper.SetAttribute("RequestTimeout", TimeValue(Seconds(8)));
    clientHelper.SetAttribute("RequestStopTime", TimeValue(Seconds(s.duration)));
    ApplicationContainer clients = clientHelper.Install(topo.isp.GetClients());
    clientHelper.AssignStreams(topo.isp.GetClients(), 100);
    // Fixed streams for the topology's random variables: a run configured from ns.conf files
    // creates its objects in another order than the C++ one, and must draw the same numbers.
    topo.AssignStreams(1000000);
    clients.Start(Seconds(1));
    clients.Stop(Seconds(s.duration + 9));
    for (uint32_t i = 0; s.origins > 1 && i < clients.GetN(); ++i)
    {
        for (uint32_t k = 0; k < s.origins; ++k) // requests cycle over the sites
        {
            DynamicCast<AdcHttpClient>(clients.Get(i))
                ->AddSite(topo.originHosts[k], InetSocketAddress(topo.originAddresses[k], 80));
        }
    }

    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->SetAttribute("FileName", StringValue(s.outputDir + "/requests-" + v.name + ".csv"));
    Ptr<AdcThroughputSampler> sampler = CreateObject<AdcThroughputSampler>();
    sampler->SetAttribute("Interval", TimeValue(MilliSeconds(500)));
    sampler->SetAttribute("FileName", StringValue(s.outputDir + "/throughput-" + v.name + ".csv"));
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        log->Watch(clients.Get(i));
        sampler->WatchApplication(clients.Get(i), "client" + std::to_string(i));
    }
    sampler->Start(Seconds(0), Seconds(s.duration + 9));
    // Under MPI every rank built every application (same random streams as one process);
    // those of other ranks' nodes never start.
    AdcMpi::SilenceRemoteApplications();
    // The headline figures: each request as its client saw it, those issued in the window.
    const double windowEnd = WindowEnd(s);
    Ptr<CrdCompareWindow> window =
        Create<CrdCompareWindow>(WindowStart(s), windowEnd, topo.lowerNames, topo.cacheNames);
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        clients.Get(i)->TraceConnectWithoutContext("RequestDone",
                                                   MakeCallback(&CrdCompareWindow::Record, window));
    }
    // What the origins answered in the window (their counters at its start and at its end).
    std::array<uint64_t, 2> originAtStart{0, 0};
    std::array<uint64_t, 2> originAtEnd{0, 0};
    Simulator::Schedule(Seconds(WindowStart(s)), [&]() { originAtStart = OriginCounters(topo); });
    Simulator::Schedule(Seconds(windowEnd), [&]() { originAtEnd = OriginCounters(topo); });
    if (v.failure)
    {
        const double at = s.failAt > 0 ? s.failAt : (WindowStart(s) + windowEnd) / 2;
        CrdTopologyHelper::ScheduleFailure(topo, s.fail, Seconds(at), Seconds(s.recoverAt));
    }
    if (withPcap)
    {
        std::filesystem::create_directories(s.outputDir + "/pcap");
        try
        {
            topo.EnablePcap(s.outputDir + "/pcap/crd",
                            s.pcapLink == "router-origin" && s.origins > 1 ? "router-origin1"
                                                                           : s.pcapLink);
        }
        catch (const AdcConfigError& e)
        {
            throw AdcConfigError("--pcapLink=" + AdcExperiment::Show(s.pcapLink) + ": " + e.what());
        }
    }

    g_hops = 0;
    if (s.countHops)
    {
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::PointToPointNetDevice/MacRx",
                                      MakeCallback(&CountHop));
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::CsmaNetDevice/MacRx",
                                      MakeCallback(&CountHop));
    }
    Simulator::Stop(Seconds(s.duration + 10));
    Simulator::Run();

    // Each rank's requests and traces are its own; the summary is the whole run's.
    const std::string mismatch =
        log->CheckExpectation(AdcAccountingExpectation::CompletedAtLeast(0).AnyFailures());
    log->GatherRanks();
    Summary sum;
    sum.variant = v.name;
    sum.sent = log->GetSent();
    sum.completed = log->GetCompleted();
    sum.failed = log->GetFailed();
    sum.openAtStop = log->GetOpenAtStop();
    window->GatherRanks(static_cast<uint32_t>(s.duration + 10));
    std::vector<uint64_t> origin{originAtEnd[0] - originAtStart[0],
                                 originAtEnd[1] - originAtStart[1]};
    AdcMpi::Sum(origin);
    sum.windowRequests = window->Requests();
    sum.hits = window->Count(CrdClientView::HIT);
    sum.misses = window->Count(CrdClientView::MISS);
    sum.bypasses = window->Count(CrdClientView::BYPASS);
    sum.windowFailed = window->Count(CrdClientView::FAILED);
    sum.hitRatio = window->HitRatio();
    sum.byteHitRatio = window->ByteHitRatio();
    sum.originRequests = origin[0];
    sum.originBytes = origin[1];
    sum.meanMs = window->MeanMs();
    sum.p50Ms = window->PercentileMs(0.50);
    sum.p95Ms = window->PercentileMs(0.95);
    sum.p99Ms = window->PercentileMs(0.99);
    sum.goodputMbps = window->CompletedBytes() * 8.0 / (windowEnd - WindowStart(s)) / 1e6;
    sum.maxLowerShare = window->MaxLowerShare();
    sum.failures = window->Failures();
    if (AdcMpi::GetRank() == 0) // whole-run files: one writer
    {
        window->WriteLoad(s.outputDir + "/load-" + v.name + ".csv", v.name);
        window->WritePerSecond(s.outputDir + "/hitratio-" + v.name + ".csv",
                               static_cast<uint32_t>(s.duration + 10));
    }

    // No request is issued after the duration and each ends within its 8 s timeout, 1 s
    // before the clients stop: every request ends, none open at the stop. How many fail is
    // what the run measures (a lower appliance fails in the -failure variants).
    const std::string accounting = log->Summary();
    // Events executed (every rank's): what ./adc bench divides by the wall-clock time.
    std::vector<uint64_t> events{Simulator::GetEventCount(), g_hops};
    AdcMpi::Sum(events);
    if (AdcMpi::GetRank() == 0)
    {
        std::cout << "crd-compare: " << v.name << ": " << events[0] << " events";
        if (s.countHops)
        {
            std::cout << ", " << events[1] << " packet-hops";
        }
        std::cout << " on " << AdcMpi::GetSize() << (AdcMpi::GetSize() == 1 ? " rank" : " ranks")
                  << std::endl;
    }
    Simulator::Destroy();
    if (!mismatch.empty())
    {
        throw AdcExperimentError("request accounting broken in " + v.name + ": " + mismatch + " (" +
                                 accounting + ")");
    }
    return sum;
}

/**
 * \brief What the configuration files say (--configDir, --lowerConfig): the files set the
 * tiers' sizes and the cache method, so a run from them is named from them. Without
 * --variants the run is the files' variant; a variant the files contradict is refused, and so
 * is a size option given with another value than the files'.
 * \param exp the options \param s the settings \param variants the variants to run
 */
void
CheckFiles(const AdcExperiment& exp, const Settings& s, std::vector<Variant>& variants)
{
    if (s.configDir.empty() && s.lowerConfig.empty())
    {
        return;
    }
    const std::string source =
        s.configDir.empty() ? "--lowerConfig" : "--configDir=" + AdcExperiment::Show(s.configDir);
    const CrdConfig files = s.configDir.empty()
                                ? CrdConfig(AdcConfigError::SplitList(s.upperConfig),
                                            AdcConfigError::SplitList(s.lowerConfig))
                                : CrdConfig::FromDirectory(s.configDir);
    Ptr<CrdTopologyHelper> helper = CreateObject<CrdTopologyHelper>();
    files.Configure(helper);
    UintegerValue upper;
    UintegerValue lower;
    UintegerValue caches;
    StringValue method;
    BooleanValue reuse;
    helper->GetAttribute("NumUpper", upper);
    helper->GetAttribute("NumLower", lower);
    helper->GetAttribute("NumCaches", caches);
    helper->GetAttribute("CacheLbMethod", method);
    helper->GetAttribute("ServerConnectionReuse", reuse);
    const std::string name = (upper.Get() > 0 ? "two-tier-" : "one-tier-") + method.Get();
    const std::vector<std::pair<const char*, double>> sizes{{"upper", upper.Get()},
                                                            {"lower", lower.Get()},
                                                            {"caches", caches.Get()},
                                                            {"reuse", reuse.Get() ? 1 : 0}};
    for (const auto& [option, value] : sizes)
    {
        const AdcExperimentOption& o = exp.Get(option);
        const bool oneTier = std::string(option) == "upper" && value == 0; // --upper unused
        if (o.IsGiven() && o.GetNumber() != value && !oneTier)
        {
            const std::string files = std::string(option) == "reuse"
                                          ? (value ? "true" : "false")
                                          : std::to_string(static_cast<uint64_t>(value));
            exp.Refuse(option,
                       "the files of " + source + " set it to " + files +
                           ": leave it out or give the same");
        }
    }
    if (!exp.Get("variants").IsGiven())
    {
        variants = {ParseVariant(name, s)};
        return;
    }
    for (const Variant& v : variants)
    {
        if ((v.upper > 0) != (upper.Get() > 0) || v.method != method.Get())
        {
            exp.Refuse("variants",
                       "the files of " + source + " configure " + name + " (" +
                           std::to_string(upper.Get()) + " upper appliances, the lower tier's " +
                           "-lbMethod " + method.Get() + "), not " + v.name +
                           "; allowed with these files " + name + ", " + name + "-failure");
        }
        if (v.failure && exp.Get("failLower").IsGiven() && s.failLower >= lower.Get())
        {
            exp.Refuse("failLower",
                       "allowed 0.." + std::to_string(lower.Get() - 1) + " (the files of " +
                           source + " configure " + std::to_string(lower.Get()) +
                           " lower appliances)");
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    AdcExperiment exp("crd-compare",
                      "N-tier cache redirection at ISP scale: cache methods, one vs two tiers, "
                      "and an appliance failing mid-run.");
    exp.Add("accessNets", "access networks", s.accessNets)
        .Min(1)
        .Max(AdcIspTopologyHelper::MAX_ACCESS_NETWORKS);
    exp.Add("clientsPerNet", "clients per access network", s.clientsPerNet)
        .Min(1)
        .Max(AdcIspTopologyHelper::MAX_CLIENTS_PER_ACCESS_NETWORK);
    exp.Add("upper", "upper-tier appliances in two-tier variants", s.upper).Min(1).Max(64);
    exp.Add("lower", "lower-tier appliances", s.lower).Min(1).Max(64);
    exp.Add("caches", "cache servers", s.caches).Min(1).Max(64);
    exp.Add("duration",
            "simulated time (s) until which clients issue requests (they start at 1 s)",
            s.duration)
        .Above(0)
        .Max(86400);
    exp.Add("warmup",
            "simulated time (s) at which the measurement window opens: requests issued before "
            "it only fill the caches (the hit ratio per second climbs, hitratio-V.csv) and count "
            "in no figure of summary.csv or load-V.csv (0 or below 1: no warm-up)",
            s.warmup)
        .Min(0)
        .Special(-1, "half-way through the requests, (1 + --duration) / 2: 9 s by default");
    exp.Less("warmup", "duration");
    exp.Add("window",
            "length (s) of the measurement window from --warmup: summary.csv and load-V.csv "
            "count the requests issued in [warmup, warmup + window), as their clients saw "
            "them; it must end by --duration",
            s.window)
        .Above(0)
        .Special(-1, "until --duration");
    exp.AddCheck([&s, &exp]() {
        if (s.window > 0 && WindowStart(s) + s.window > s.duration + 1e-9)
        {
            std::ostringstream end;
            end << WindowStart(s) + s.window;
            exp.Refuse("window",
                       "the window [--warmup, --warmup + --window) must end by --duration (" +
                           exp.Get("duration").GetText() + "); it ends at " + end.str());
        }
    });
    exp.Add("rate", "requests per second per client (Poisson)", s.rate).Above(0).Max(1000);
    exp.Add("objectSize", "object size in bytes", s.objectSize).Max(1e8);
    exp.Add("zipf", "Zipf exponent of object popularity (0: uniform)", s.zipf).Min(0).Max(10);
    exp.Add("catalogue", "distinct objects", s.catalogue).Min(1).Max(1e6);
    exp.Add("cacheable", "fraction of cacheable requests", s.cacheable).Min(0).Max(1);
    exp.Add("cacheCapacity", "bytes per cache server", s.cacheCapacity).Min(1);
    exp.Add("persistent", "persistent client connections", s.persistent);
    exp.Add("reuse",
            "the lower tier reuses its connections to caches and the origin "
            "(NetScaler's -reuse, ON by default; 0: one connection per request)",
            s.reuse);
    exp.Add("origins",
            "origin servers (sites), each with its own address and host name; clients' "
            "requests cycle over them",
            s.origins)
        .Min(1)
        .Max(64);
    exp.AddList("variants",
                "comma-separated: {two,one}-tier-METHOD[-failure], METHOD a cache-selection "
                "method of the registry (built in: ROUNDROBIN, LEASTCONNECTION, URLHASH, "
                "DESTINATIONIPHASH) (with --configDir or --lowerConfig: by default "
                "the one variant the files configure, named from them; a variant they "
                "contradict is refused)",
                s.variants)
        .OneOf(VariantNames());
    exp.Add("fail",
            "the appliance that fails in -failure variants: L1NSi (upper), L2NSj (lower), CRSc "
            "(cache), or gateway:CRSc (the lower appliance cache c's misses cross, its miss "
            "gateway; the default is the seed's, L2NS3)",
            s.fail);
    exp.Add("failLower",
            "or: index of the lower appliance that fails in -failure variants (below --lower; "
            "the same as --fail=L2NS<index + 1>)",
            s.failLower);
    exp.Excludes("fail", "failLower");
    exp.AddCheck([&s, &exp]() {
        if (exp.Get("failLower").IsGiven())
        {
            if (s.failLower >= s.lower && s.variants.find("-failure") != std::string::npos)
            {
                exp.Refuse("failLower",
                           "allowed 0.." + std::to_string(s.lower - 1) +
                               " (an index below --lower=" + exp.Get("lower").GetText() + ")");
            }
            s.fail = "L2NS" + std::to_string(s.failLower + 1);
        }
        const std::string gw = "gateway:";
        const std::string target = s.fail.rfind(gw, 0) == 0 ? s.fail.substr(gw.size()) : s.fail;
        const bool gateway = target.size() < s.fail.size();
        for (const auto& [prefix, count] :
             std::vector<std::pair<std::string, uint32_t>>{{"L1NS", gateway ? 0 : s.upper},
                                                           {"L2NS", gateway ? 0 : s.lower},
                                                           {"CRS", s.caches}})
        {
            for (uint32_t i = 1; i <= count; ++i)
            {
                if (target == prefix + std::to_string(i))
                {
                    return;
                }
            }
        }
        exp.Refuse("fail",
                   "allowed L1NS1..L1NS" + std::to_string(s.upper) + ", L2NS1..L2NS" +
                       std::to_string(s.lower) + ", CRS1..CRS" + std::to_string(s.caches) +
                       ", gateway:CRS1..gateway:CRS" + std::to_string(s.caches));
    });
    exp.Add("failAt", "when it fails (s)", s.failAt)
        .Above(0)
        .Special(-1, "the middle of the measurement window");
    exp.Less("failAt", "duration");
    exp.Add("recoverAt",
            "when the failed appliance recovers (s; after --failAt): its interfaces come back "
            "and the monitors bring it back into use",
            s.recoverAt)
        .Above(0)
        .Special(-1, "never");
    exp.AddCheck([&s, &exp]() {
        const double failAt = s.failAt > 0 ? s.failAt : (WindowStart(s) + WindowEnd(s)) / 2;
        if (s.recoverAt > 0 && s.recoverAt <= failAt)
        {
            exp.Refuse("recoverAt",
                       "allowed after the failure (--failAt: " + std::to_string(failAt) + " s)");
        }
    });
    exp.Add("missFailover",
            "the cache switch probes the lower tier and moves a cache's misses off a failed "
            "miss gateway to the next lower appliance up (0: the fixed miss gateway of earlier "
            "releases, a single point of failure)",
            s.missFailover);
    exp.Add("resetOrphans",
            "a lower appliance resets a segment of a connection it does not have, as TCP "
            "does (0: drops it silently, ns-3's listening sockets' behaviour; the peer times out)",
            s.resetOrphans);
    exp.Add("pcapLink",
            "link to capture in the first variant (e.g. router-origin, switch-CRS1, "
            "L1NS1-L2NS2)",
            s.pcapLink);
    exp.Add("pcap", "write the pcap", s.pcap);
    exp.AddOutputDir("outputDir", "where CSV and pcap files go", s.outputDir);
    exp.AddSeedAndRun(s.seed, s.run);
    exp.Add("configDir",
            "configure the tiers from crd-upper-*.ns.conf and crd-lower-*.ns.conf here "
            "(NetScaler ns.conf, one per appliance; the files set the tiers' sizes and methods)",
            s.configDir,
            AdcExperimentOption::Kind::INPUT_DIR)
        .SampleFiles({"crd-lower-L2NS1.ns.conf"});
    exp.Add("upperConfig",
            "or: the upper appliances' ns.conf, comma-separated",
            s.upperConfig,
            AdcExperimentOption::Kind::INPUT_FILES);
    exp.Add("lowerConfig",
            "and the lower appliances' ns.conf, comma-separated",
            s.lowerConfig,
            AdcExperimentOption::Kind::INPUT_FILES);
    exp.Requires("upperConfig", "lowerConfig");
    exp.Excludes("configDir", "lowerConfig");
    exp.Excludes("configDir", "upperConfig");
    exp.Add("accessOffCore",
            "MPI partition plan: the access networks on ranks 1..N-1 only, rank 0 "
            "simulating the core, tiers, caches and origins (0: access network a on rank "
            "a % N, the data centre sharing rank 0 with some of them)",
            s.accessOffCore);
    exp.Add("countHops",
            "count the packets devices receive (packet-hops; printed with the events)",
            s.countHops);
    exp.AddOutputDir("printConfig",
                     "write the ns.conf files the first variant's configuration amounts to "
                     "into this directory, and stop",
                     s.printConfig)
        .Optional();
    exp.AddLoadLimits([&s]() {
        return AdcExperiment::Load::OfClients(double(s.accessNets) * s.clientsPerNet,
                                              s.rate,
                                              s.duration,
                                              AdcConfigError::SplitList(s.variants).size(),
                                              s.objectSize,
                                              s.catalogue);
    });
    // Full-size segments on 1500-byte links (ns-3's default is 536 bytes).
    exp.SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    exp.UseMpi(); // under mpirun with several ranks: ns-3's MPI engine
    return exp.Run(argc, argv, [&s, &exp]() {
        std::vector<Variant> variants;
        for (const auto& text : AdcConfigError::SplitList(s.variants))
        {
            variants.push_back(ParseVariant(text, s));
        }
        CheckFiles(exp, s, variants);
        AdcMpi::CheckOneSimulation("crd-compare",
                                   "--variants='" + s.variants + "'",
                                   variants.size(),
                                   "variants");
        if (!s.printConfig.empty())
        {
            Ptr<CrdTopologyHelper> helper;
            const CrdTopology topo = BuildTopology(s, variants.at(0), helper);
            CrdConfig::WriteFiles(helper, topo, s.printConfig);
            Simulator::Destroy();
            return 0;
        }
        std::vector<Summary> rows;
        for (std::size_t i = 0; i < variants.size(); ++i)
        {
            std::cerr << "crd-compare: " << variants[i].name << " ..." << std::endl;
            // The captured links are the data centre's, simulated by rank 0.
            rows.push_back(RunOne(s, variants[i], s.pcap && i == 0 && AdcMpi::GetRank() == 0));
        }
        if (AdcMpi::GetRank() != 0)
        {
            return 0;
        }
        // summary.csv, one row per variant. sent, completed, failed, open_at_stop: the whole
        // run's request accounting (every request issued ends once). The others count only the
        // requests issued in the measurement window [--warmup, window end), each as its client
        // saw it (the response it received):
        //   window_requests  requests issued in the window (= hits + misses + bypasses +
        //                    window_failed)
        //   hits, misses     completed with X-Cache HIT / MISS (a cache answered)
        //   bypasses         completed without X-Cache (the lower tier sent it past the caches)
        //   window_failed    no complete response (failed, or open when the clients stopped)
        //   hit_ratio        hits / (hits + misses): the request hit ratio of the caches
        //   byte_hit_ratio   response bytes of hits / response bytes of hits and misses
        //   origin_requests  requests the origin servers answered during the window, and
        //   origin_bytes     the response bytes they sent (their counters at its start and end)
        //   mean_ms, p50_ms, p95_ms, p99_ms  latency at the client (request issued to response
        //                    complete) of the window's completed requests; nearest rank
        //   goodput_mbps     response bytes of the window's completed requests x 8 / its length
        //   max_lower_share  the largest share of those requests one lower appliance answered
        //   failures         the window's failures by reason, "reason:n;..." ("none")
        std::ofstream out(s.outputDir + "/summary.csv");
        out << "variant,sent,completed,failed,open_at_stop,window_requests,hits,misses,"
               "bypasses,window_failed,hit_ratio,byte_hit_ratio,origin_requests,origin_bytes,"
               "mean_ms,p50_ms,p95_ms,p99_ms,goodput_mbps,max_lower_share,failures\n"
            << std::fixed << std::setprecision(3);
        for (const auto& r : rows)
        {
            out << r.variant << ',' << r.sent << ',' << r.completed << ',' << r.failed << ','
                << r.openAtStop << ',' << r.windowRequests << ',' << r.hits << ',' << r.misses
                << ',' << r.bypasses << ',' << r.windowFailed << ',' << r.hitRatio << ','
                << r.byteHitRatio << ',' << r.originRequests << ',' << r.originBytes << ','
                << r.meanMs << ',' << r.p50Ms << ',' << r.p95Ms << ',' << r.p99Ms << ','
                << r.goodputMbps << ',' << r.maxLowerShare << ',' << r.failures << '\n';
        }
        return 0;
    });
}
