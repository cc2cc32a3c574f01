/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark: what the CRD appliances cost the simulator, each tier against plain ns-3 doing
 * the same work in its place. The main experiment's topology (2 upper, 4 lower, 3 caches, an
 * ISP with 100 access networks x 10 clients = 1,000 clients) carries the same client load in
 * every run (one-shot connections, 100 kB cacheable objects, Poisson requests at 8/s per
 * client for 0.2 s, i.e. 6.4 Gbps offered; the same seed, clients and random streams), and
 * the runs form two pairs that differ only in the component measured:
 *
 *   upper tier: upper-appl   APPLIANCE upper (sessionless hash balancing over the lower tier
 *                            by policy routing, its PBR rules evaluated on every packet)
 *               upper-router ROUTER upper: plain ns-3 routers with per-flow ECMP over every
 *                            lower node (AdcEcmpRouting, 5-tuple hash), static routes behind
 *               both with the same lower tier: a bare relay on each lower node connecting to
 *               the origin from its own address (no USIP), so the origin's responses return
 *               to the relay through the router and the relay sends them to the client: every
 *               packet crosses the same number of nodes in both (the upper tier carries the
 *               client-to-origin direction only; its return-path PBR is not exercised here).
 *   lower tier: lower-proxy  PROXY lower (CrdLowerTierAppliance: HTTP parsed, cache chosen by
 *                            URLHASH, client-IP header, one cache connection per request)
 *               lower-relay  RELAY lower: a bare relay that reads the request line, picks a
 *                            cache by a hash of the URL and copies bytes to it from its own
 *                            address (one cache connection per client connection = request)
 *               both behind the APPLIANCE upper tier; every cache is preloaded with every
 *               object, so every request is a hit in both.
 *
 * Health monitors are off in every run. Every run is repeated --repeat times (default 3),
 * interleaved across the variants (a busy spell of the shared machine falls on all alike);
 * the median wall-clock time counts, min/median/max are printed. Per run: simulated packets
 * (every device hand-off, i.e. each hop of each packet), packets per wall-clock second,
 * simulated throughput (bytes the clients received from 50 ms after the load began to its
 * end, over that time), requests sent/completed/failed/open at stop, cache hits, the lower
 * tier's per-flow state at its peak, and how the flows spread over the lower nodes. A pair
 * whose packet counts differ by more than 1 %, or where a request did not complete (or, in
 * the lower pair, was not a hit), is "not comparable" and fails the bench (exit status 3).
 * Targets: upper tier >= 0.95, lower tier >= 0.85 of the baseline's packets per wall-clock
 * second. lower-proxy's throughput is the CRD-13 figure (target: several Gbps).
 *
 *   crd-bench [--accessNets=100] [--clientsPerNet=10] [--scale=1] [--duration=0.2]
 *             [--rate=8] [--objectSize=100000] [--catalogue=100] [--seed=1] [--run=1]
 *             [--pairs=upper,lower] [--repeat=3] [--nagle=true] [--groups] [--verbose]
 *             [--csv=FILE] [--ratios=FILE]
 *
 * Nagle's algorithm is on for every socket of every run: the proxy appends ", 1.1 L2NSj" to
 * each response's Via, and with ns-3's TcpNoDelay those 11 bytes leave a short segment per
 * response (about 1.5 % more packets than the relay's).
 * --groups counts the packets each group of nodes sends (to find where two variants differ).
 */

#include "adc-bench-util.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/adc-tcp-relay.h"
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/crd-cache-store.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/csma-net-device.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/node-list.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// The benchmark's settings, shared by every run.
struct Settings
{
    uint32_t accessNets{100};    //!< access networks
    uint32_t clientsPerNet{10};  //!< clients per access network
    uint32_t upper{2};           //!< upper-tier appliances
    uint32_t lower{4};           //!< lower-tier appliances
    uint32_t caches{3};          //!< cache servers
    double duration{0.2};        //!< simulated seconds of load
    double rate{8.0};            //!< requests per second per client
    uint32_t objectSize{100000}; //!< body bytes per object
    uint32_t catalogue{100};     //!< objects
    uint32_t seed{1};            //!< RNG seed
    uint32_t run{1};             //!< RNG run
};

/// One variant: what the tiers are.
struct Variant
{
    std::string name;  //!< e.g. "upper-appl"
    std::string upper; //!< UpperTierMode
    std::string lower; //!< LowerTierMode
    bool toCaches;     //!< the lower pair: caches preloaded (and relays choose a cache)
    bool ecmp;         //!< ROUTER upper with per-flow ECMP
};

/// The four variants, in the order they run (pairs adjacent: variant, then its baseline).
const std::vector<Variant> kVariants{{"upper-appl", "APPLIANCE", "RELAY", false, false},
                                     {"upper-router", "ROUTER", "RELAY", false, true},
                                     {"lower-proxy", "APPLIANCE", "PROXY", true, false},
                                     {"lower-relay", "APPLIANCE", "RELAY", true, false}};

/// One run's results.
struct Result
{
    double wallS{0};                //!< wall-clock seconds of Simulator::Run
    double cpuS{0};                 //!< CPU seconds of Simulator::Run
    uint64_t packets{0};            //!< simulated packets
    double gbps{0};                 //!< client bytes received during the load / its duration
    uint64_t sent{0};               //!< requests issued
    uint64_t completed{0};          //!< requests completed
    uint64_t failed{0};             //!< requests failed
    uint64_t openAtStop{0};         //!< requests still open when the clients stopped
    uint64_t cacheHits{0};          //!< requests answered from a cache
    uint64_t cacheMisses{0};        //!< requests a cache fetched from the origin
    std::size_t peakState{0};       //!< lower tier's per-flow bytes at their peak
    uint32_t peakConns{0};          //!< open lower-tier connections at that peak
    std::size_t upperState{0};      //!< upper tier's per-flow bytes (policy routing; 0 = stateless)
    std::vector<uint64_t> perLower; //!< connections each lower node took
    std::map<std::string, uint64_t> byGroup; //!< --groups: packets sent by each group of nodes
    std::map<std::string, uint64_t> reasons; //!< failed requests by reason
    std::vector<std::string> failures;       //!< the first failed requests, described

    /// \param toCaches the lower pair's runs \return true when every request completed (and,
    /// for the lower pair, was a cache hit)
    bool AllDone(bool toCaches) const
    {
        return sent > 0 && completed == sent && failed == 0 && openAtStop == 0 &&
               (!toCaches || (cacheHits == completed && cacheMisses == 0));
    }
};

/// Failed requests described per run (--verbose).
constexpr std::size_t kFailuresShown = 10;

/// "RequestDone": count a failed request by reason, describe the first ones.
void
RecordFailure(Result* r, const AdcRequestRecord& rec)
{
    if (rec.outcome == AdcRequestOutcome::COMPLETED)
    {
        return;
    }
    ++r->reasons[rec.reason];
    if (r->failures.size() < kFailuresShown)
    {
        std::ostringstream os;
        os << rec.clientIp << " #" << rec.requestId << " " << rec.url << " "
           << rec.start.GetSeconds() << "-" << rec.end.GetSeconds() << " s " << rec.reason << ", "
           << rec.responseBytes << " response bytes";
        r->failures.push_back(os.str());
    }
}

/// Samples the lower tier's per-flow state and keeps the peak.
struct StateSampler
{
    const CrdTopology* topo{nullptr}; //!< the topology
    Time interval{MilliSeconds(10)};  //!< sampling interval
    Time until;                       //!< last sample
    Result* result{nullptr};          //!< where the peak goes

    /// Take a sample and schedule the next.
    void Sample()
    {
        std::size_t bytes = 0;
        uint32_t conns = 0;
        for (const auto& app : topo->lowerApps)
        {
            bytes += app->GetPerFlowStateBytes();
            conns += app->GetOpenFrontConnections() + app->GetOpenBackendConnections();
        }
        for (const auto& relay : topo->relayApps)
        {
            bytes += relay->GetPerFlowStateBytes();
            conns += relay->GetOpenSockets();
        }
        if (bytes > result->peakState)
        {
            result->peakState = bytes;
            result->peakConns = conns;
        }
        for (const auto& p : topo->upperRouting)
        {
            result->upperState = std::max(result->upperState, p->GetPerFlowStateBytes());
        }
        if (Simulator::Now() + interval <= until)
        {
            Simulator::Schedule(interval, &StateSampler::Sample, this);
        }
    }
};

/**
 * \brief Give every random variable of the topology a fixed stream: those ns-3 numbers
 * automatically depend on what earlier simulations in this process created, and each run
 * must behave the same whether it runs first or last.
 * \param stream first stream
 */
void
FixStreams(int64_t stream)
{
    AdcAssignNetworkStreams(stream);
}

/// Client bytes received so far.
uint64_t
ClientBytes(const std::vector<Ptr<AdcHttpClient>>& clients)
{
    uint64_t n = 0;
    for (const auto& c : clients)
    {
        n += c->GetBytesReceived();
    }
    return n;
}

/// --groups: count a packet sent by a node of group \p n.
void
CountGroup(uint64_t* n, Ptr<const Packet>)
{
    ++*n;
}

/**
 * \brief --groups: count the packets each group of nodes sends (clients, access, router,
 * upper, lower, caches, switch, origin), to see where two variants' work differs.
 * \param topo the topology
 * \param r where the counts go
 */
void
CountGroups(const CrdTopology& topo, Result& r)
{
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        std::string group = topo.NameOf(node);
        group = group.substr(0, group.find_last_not_of("0123456789") + 1);
        if (node == topo.cacheSwitch)
        {
            group = "switch";
        }
        else if (group.empty())
        {
            group = "access";
        }
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            node->GetDevice(d)->TraceConnectWithoutContext(
                "MacTx",
                MakeBoundCallback(&CountGroup, &r.byGroup[group]));
        }
    }
}

/// Seed of the relays' URL hash (any fixed value: the caches hold every object).
constexpr uint64_t kUrlHashSeed = 0x6372642d62656e63;

/**
 * \brief The lower-relay baseline's destination chooser: the request target from the request
 * line of the client's first bytes, hashed onto the caches (the relay does not parse further).
 * \param caches the cache servers' addresses
 * \param bytes what the client sent so far
 * \return WAIT until the request line is complete, then CONNECT to the URL's cache; REFUSE a
 *         request line without a target (or none in the first 8 kB)
 */
AdcTcpRelay::Choice
ChooseCache(const std::vector<Ipv4Address>& caches, Ptr<const Packet> bytes)
{
    AdcTcpRelay::Choice c;
    std::string text(bytes->GetSize(), '\0');
    bytes->CopyData(reinterpret_cast<uint8_t*>(text.data()), text.size());
    const std::size_t eol = text.find("\r\n");
    if (eol == std::string::npos)
    {
        c.action = text.size() > 8192 ? AdcTcpRelay::Choice::REFUSE : AdcTcpRelay::Choice::WAIT;
        return c;
    }
    const std::size_t a = text.find(' ');
    const std::size_t b = a < eol ? text.find(' ', a + 1) : std::string::npos;
    if (b == std::string::npos || b > eol || b == a + 1 || caches.empty())
    {
        c.action = AdcTcpRelay::Choice::REFUSE;
        return c;
    }
    const std::string url = text.substr(a + 1, b - a - 1);
    c.action = AdcTcpRelay::Choice::CONNECT;
    c.destination = caches[AdcHash::String(url, kUrlHashSeed) % caches.size()];
    c.port = CrdRoutePlan::kHttpPort;
    return c;
}

/**
 * \brief One simulation of the benchmark's topology and load.
 * \param s the settings
 * \param v the variant
 * \param groups also count the packets each group of nodes sends (Result::byGroup)
 * \return its results
 */
Result
RunOnce(const Settings& s, const Variant& v, bool groups)
{
    Result r;
    RngSeedManager::SetSeed(s.seed);
    RngSeedManager::SetRun(s.run);
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(s.accessNets));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(s.clientsPerNet));
    h->SetAttribute("NumUpper", UintegerValue(s.upper));
    h->SetAttribute("NumLower", UintegerValue(s.lower));
    h->SetAttribute("NumCaches", UintegerValue(s.caches));
    h->SetAttribute("ObjectSize", UintegerValue(s.objectSize));
    h->SetAttribute("CacheLbMethod", StringValue("URLHASH"));
    h->SetAttribute("RouterBalanceMethod", StringValue("SOURCEIPHASH"));
    h->SetAttribute("OriginBalanceMethod", StringValue("DESTINATIONIPHASH"));
    // Monitors off in every run; one back-end connection per request in both lower variants.
    h->SetAttribute("MonitorLowerTier", BooleanValue(false));
    h->SetAttribute("MonitorCaches", BooleanValue(false));
    h->SetAttribute("ServerConnectionReuse", BooleanValue(false));
    // The relays connect from their own address: responses return to them by plain routing.
    h->SetAttribute("RelayClientSource", BooleanValue(false));
    h->SetAttribute("UpperTierMode", StringValue(v.upper));
    h->SetAttribute("LowerTierMode", StringValue(v.lower));
    h->SetAttribute("UpperRouterEcmp", BooleanValue(v.ecmp));
    CrdTopology topo = h->Build();
    if (v.toCaches)
    {
        // Every object in every cache: every request is a hit, whichever cache it reaches.
        for (const auto& cache : topo.cacheApps)
        {
            for (uint32_t k = 1; k <= s.catalogue; ++k)
            {
                cache->GetStore()->Insert(
                    CrdCacheServer::MakeKey(topo.originHosts[0], "/obj/" + std::to_string(k)),
                    s.objectSize);
            }
        }
        const std::vector<Ipv4Address> caches = topo.cacheAddresses;
        for (const auto& relay : topo.relayApps)
        {
            relay->SetDestinationChooser(
                [caches](uint64_t, const InetSocketAddress&, Ptr<const Packet> bytes) {
                    return ChooseCache(caches, bytes);
                });
        }
    }

    const Time start = Seconds(0.5);
    const Time loadEnd = start + Seconds(s.duration);
    // Requests in flight finish, even after a lost segment's retransmission timeout (1 s at
    // least) or a lost SYN's retry (3 s; a fresh client's ARP queue holds only 3 packets).
    const Time stop = loadEnd + Seconds(3);
    std::vector<Ptr<AdcHttpClient>> clients;
    for (uint32_t i = 0; i < topo.isp.GetNClients(); ++i)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        c->SetAttribute("Persistent", BooleanValue(false));
        c->SetAttribute(
            "InterRequestTime",
            StringValue(fmt::format("ns3::ExponentialRandomVariable[Mean={}]", 1.0 / s.rate)));
        c->SetAttribute("CatalogueSize", UintegerValue(s.catalogue));
        c->SetAttribute("CacheableFraction", DoubleValue(1.0));
        c->SetAttribute("RequestStopTime", TimeValue(loadEnd));
        c->SetStartTime(start);
        c->SetStopTime(stop);
        c->AssignStreams(1000 + 2 * static_cast<int64_t>(i));
        topo.isp.GetClient(i)->AddApplication(c);
        c->TraceConnectWithoutContext("RequestDone", MakeBoundCallback(&RecordFailure, &r));
        clients.push_back(c);
    }
    FixStreams(1000000);
    AdcBenchPacketCounter counter;
    counter.ConnectEveryDevice();
    if (groups)
    {
        CountGroups(topo, r);
    }
    StateSampler sampler;
    sampler.topo = &topo;
    sampler.until = stop;
    sampler.result = &r;
    Simulator::Schedule(start, &StateSampler::Sample, &sampler);
    // Throughput in the steady part of the load: from when the first responses are in.
    const Time windowStart = start + Seconds(std::min(0.05, s.duration / 4));
    uint64_t bytesAtStart = 0;
    uint64_t bytesAtEnd = 0;
    Simulator::Schedule(windowStart, [&]() { bytesAtStart = ClientBytes(clients); });
    Simulator::Schedule(loadEnd, [&]() { bytesAtEnd = ClientBytes(clients); });
    Simulator::Stop(stop + MilliSeconds(1)); // after the clients' StopApplication

    const double cpu0 = AdcBenchThreadCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    r.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpuS = AdcBenchThreadCpuSeconds() - cpu0;

    r.packets = counter.Get();
    r.gbps = (bytesAtEnd - bytesAtStart) * 8.0 / (loadEnd - windowStart).GetSeconds() / 1e9;
    for (const auto& c : clients)
    {
        r.sent += c->GetRequestsSent();
        r.completed += c->GetRequestsCompleted();
        r.failed += c->GetRequestsFailed();
        r.openAtStop += c->GetRequestsOpenAtStop();
    }
    for (const auto& cache : topo.cacheApps)
    {
        r.cacheHits += cache->GetHits();
        r.cacheMisses += cache->GetMisses();
    }
    for (const auto& app : topo.lowerApps)
    {
        r.perLower.push_back(app->GetClientRequests());
    }
    for (const auto& relay : topo.relayApps)
    {
        r.perLower.push_back(relay->GetAccepted());
    }
    clients.clear();
    topo = CrdTopology();
    Simulator::Destroy();
    return r;
}

/// \return "a/b/c/d"
std::string
Spread(const std::vector<uint64_t>& v)
{
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i)
    {
        out += (i ? "/" : "") + std::to_string(v[i]);
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    uint32_t scale = 1;
    uint32_t repeat = 3;
    bool verbose = false;
    bool groups = false;
    bool nagle = true;
    std::string pairs = "upper,lower";
    std::string csv;
    std::string ratiosCsv;

    CommandLine cmd(__FILE__);
    cmd.Usage("CRD tiers against plain ns-3 doing the same work (routers with per-flow ECMP, a "
              "bare relay to the same caches): packets per wall-clock second, throughput, "
              "per-flow state.");
    cmd.AddValue("accessNets", "Access networks (before --scale)", s.accessNets);
    cmd.AddValue("clientsPerNet", "Clients per access network", s.clientsPerNet);
    cmd.AddValue("scale", "Multiply the clients by this (access networks first)", scale);
    cmd.AddValue("upper", "Upper-tier appliances", s.upper);
    cmd.AddValue("lower", "Lower-tier appliances", s.lower);
    cmd.AddValue("caches", "Cache servers", s.caches);
    cmd.AddValue("duration", "Simulated seconds of load", s.duration);
    cmd.AddValue("rate", "Requests per second per client (exponential gaps)", s.rate);
    cmd.AddValue("objectSize", "Body bytes of every object", s.objectSize);
    cmd.AddValue("catalogue",
                 "Objects in the catalogue (all cacheable, all preloaded)",
                 s.catalogue);
    cmd.AddValue("seed", "RNG seed (the same for every run)", s.seed);
    cmd.AddValue("run", "RNG run number (the same for every run)", s.run);
    cmd.AddValue("pairs", "Which pairs: upper, lower or upper,lower", pairs);
    cmd.AddValue("repeat", "Runs per variant, interleaved (the median counts; >= 1)", repeat);
    cmd.AddValue("verbose", "Describe the first failed requests of each variant", verbose);
    cmd.AddValue("nagle",
                 "Nagle's algorithm on every TCP socket (false: ns-3's TcpNoDelay default; the "
                 "lower pair's counts then differ by ~1.5 %)",
                 nagle);
    cmd.AddValue("groups",
                 "Also count the packets each group of nodes sends (one more trace callback "
                 "per packet: for finding where two variants differ, not for timing)",
                 groups);
    cmd.AddValue("csv", "Also write the results as metric,value CSV to this file", csv);
    cmd.AddValue("ratios",
                 "Also write the measured pairs as bench,variant,baseline,ratio,target,packets,"
                 "baseline_packets CSV to this file",
                 ratiosCsv);
    cmd.Parse(argc, argv);
    // --scale multiplies the clients: more access networks first (up to the ISP helper's
    // limit), then more clients in each.
    scale = std::max<uint32_t>(scale, 1);
    const uint64_t wanted = uint64_t{s.accessNets} * s.clientsPerNet * scale;
    s.accessNets =
        std::min<uint32_t>(s.accessNets * scale, AdcIspTopologyHelper::MAX_ACCESS_NETWORKS);
    s.clientsPerNet = static_cast<uint32_t>((wanted + s.accessNets - 1) / s.accessNets);

    // Full-size segments, as the main experiment uses.
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    // Nagle's algorithm on every socket of every run (real stacks' default): a proxy's few
    // added header bytes then do not split a segment (with TcpNoDelay, ns-3's default, the
    // ", 1.1 L2NSj" each lower proxy appends to a response's Via leaves a short segment per
    // response, about 1.5 % more packets than the relay's).
    Config::SetDefault("ns3::TcpSocket::TcpNoDelay", BooleanValue(!nagle));

    const bool upperPair = pairs.find("upper") != std::string::npos;
    const bool lowerPair = pairs.find("lower") != std::string::npos;
    std::vector<std::size_t> chosen;
    for (std::size_t v = 0; v < kVariants.size(); ++v)
    {
        if (kVariants[v].toCaches ? lowerPair : upperPair)
        {
            chosen.push_back(v);
        }
    }
    std::vector<AdcBenchSeries> series(kVariants.size());
    std::vector<Result> last(kVariants.size());
    std::vector<bool> allDone(kVariants.size(), true);
    try
    {
        if (repeat == 0 || chosen.empty())
        {
            throw AdcConfigError("crd-bench: --repeat " + std::to_string(repeat) +
                                 " and --pairs '" + pairs +
                                 "': allowed --repeat >= 1 and --pairs upper, lower or "
                                 "upper,lower");
        }
        // Interleaved (u-a u-r l-p l-r u-a ...): a busy spell falls on every variant alike.
        for (uint32_t k = 0; k < repeat; ++k)
        {
            for (std::size_t v : chosen)
            {
                std::cerr << "run " << kVariants[v].name << " " << k + 1 << "/" << repeat << " ..."
                          << std::endl;
                last[v] = RunOnce(s, kVariants[v], groups);
                series[v].name = kVariants[v].name;
                series[v].Add(last[v].wallS, last[v].cpuS, last[v].packets);
                allDone[v] = allDone[v] && last[v].AllDone(kVariants[v].toCaches);
            }
        }
    }
    catch (const AdcConfigError& e)
    {
        std::cerr << "configuration error: " << e.what() << std::endl;
        return 2;
    }

    const uint32_t nClients = s.accessNets * s.clientsPerNet;
    std::cout << fmt::format("CRD benchmark: {} clients ({} x {}), {} upper, {} lower, {} caches; "
                             "{} s of load at {}/s per client, {} B objects, catalogue {}, "
                             "one-shot connections, Nagle {}, monitors off; seed {} run {}; "
                             "median of {}\n",
                             nClients,
                             s.accessNets,
                             s.clientsPerNet,
                             s.upper,
                             s.lower,
                             s.caches,
                             s.duration,
                             s.rate,
                             s.objectSize,
                             s.catalogue,
                             nagle ? "on" : "off",
                             s.seed,
                             s.run,
                             repeat);
    std::cout << fmt::format("{:<12} {:<9} {:<5} {:>23} {:>10} {:>10} {:>6} {:>6} {:>6} {:>6} "
                             "{:>5} {:>6} {:>9} {:>6} {:>6} {:<20}\n",
                             "variant",
                             "upper",
                             "lower",
                             "wall_s min/med/max",
                             "packets",
                             "pps",
                             "Gbps",
                             "sent",
                             "done",
                             "failed",
                             "open",
                             "hits",
                             "state_B",
                             "conns",
                             "B/conn",
                             "conns per lower node");
    AdcBenchRows rows;
    rows.emplace_back("clients", std::to_string(nClients));
    for (std::size_t v : chosen)
    {
        const Result& r = last[v];
        const AdcBenchSeries& sr = series[v];
        const double perConn = r.peakConns ? static_cast<double>(r.peakState) / r.peakConns : 0;
        std::cout << fmt::format("{:<12} {:<9} {:<5} {:>23} {:>10} {:>10.0f} {:>6.2f} {:>6} {:>6} "
                                 "{:>6} {:>5} {:>6} {:>9} {:>6} {:>6.0f} {:<20}\n",
                                 sr.name,
                                 kVariants[v].upper + (kVariants[v].ecmp ? "+E" : ""),
                                 kVariants[v].lower,
                                 sr.WallSpread(),
                                 sr.packets,
                                 sr.Pps(),
                                 r.gbps,
                                 r.sent,
                                 r.completed,
                                 r.failed,
                                 r.openAtStop,
                                 r.cacheHits,
                                 r.peakState,
                                 r.peakConns,
                                 perConn,
                                 Spread(r.perLower));
        const std::string p = sr.name + "_";
        rows.emplace_back(p + "upper_mode", kVariants[v].upper);
        rows.emplace_back(p + "lower_mode", kVariants[v].lower);
        rows.emplace_back(p + "wall_s_median",
                          AdcCsvWriter::FormatFixed(AdcBenchSeries::Median(sr.walls), 3));
        rows.emplace_back(p + "wall_s_min_med_max", sr.WallSpread());
        rows.emplace_back(p + "packets", std::to_string(sr.packets));
        rows.emplace_back(p + "packets_stable", sr.packetsStable ? "true" : "false");
        rows.emplace_back(p + "packets_per_wall_s", AdcCsvWriter::FormatFixed(sr.Pps(), 0));
        rows.emplace_back(p + "throughput_gbps", AdcCsvWriter::FormatFixed(r.gbps, 3));
        rows.emplace_back(p + "requests_sent", std::to_string(r.sent));
        rows.emplace_back(p + "requests_completed", std::to_string(r.completed));
        rows.emplace_back(p + "requests_failed", std::to_string(r.failed));
        rows.emplace_back(p + "requests_open_at_stop", std::to_string(r.openAtStop));
        rows.emplace_back(p + "cache_hits", std::to_string(r.cacheHits));
        rows.emplace_back(p + "cache_misses", std::to_string(r.cacheMisses));
        rows.emplace_back(p + "lower_peak_state_bytes", std::to_string(r.peakState));
        rows.emplace_back(p + "lower_peak_connections", std::to_string(r.peakConns));
        rows.emplace_back(p + "lower_state_bytes_per_connection",
                          AdcCsvWriter::FormatFixed(perConn, 1));
        rows.emplace_back(p + "upper_state_bytes", std::to_string(r.upperState));
        rows.emplace_back(p + "connections_per_lower_node", Spread(r.perLower));
    }
    for (std::size_t v : chosen)
    {
        for (const auto& [reason, n] : last[v].reasons)
        {
            std::cout << fmt::format("{} failures: {} x {}\n", kVariants[v].name, n, reason);
        }
        for (const std::string& f : verbose ? last[v].failures : std::vector<std::string>{})
        {
            std::cout << fmt::format("{} failed request: {}\n", kVariants[v].name, f);
        }
        for (const auto& [group, n] : last[v].byGroup)
        {
            std::cout << fmt::format("{} packets sent by {}: {}\n", kVariants[v].name, group, n);
        }
        if (!allDone[v])
        {
            std::cout << fmt::format("{}: work left undone (a request failed or was open at "
                                     "stop{}): its pair is not comparable\n",
                                     kVariants[v].name,
                                     kVariants[v].toCaches ? ", or was not a cache hit" : "");
        }
    }

    // Pairs: the variant against the baseline doing the same work (issue 9's targets).
    AdcBenchRatios ratios("crd-bench");
    if (upperPair)
    {
        ratios.Add(series[0], series[1], 0.95, allDone[0] && allDone[1]);
    }
    if (lowerPair)
    {
        ratios.Add(series[2], series[3], 0.85, allDone[2] && allDone[3]);
    }
    ratios.Print(std::cout);
    ratios.AppendRows(rows);
    if (lowerPair)
    {
        const double target = 2.0; // "several Gbps"
        const double gbps = last[2].gbps;
        std::cout << fmt::format("\nCRD-13: lower-proxy (the appliances in both tiers) delivered "
                                 "{:.3f} Gbps (target >= {:.0f}: {})\n",
                                 gbps,
                                 target,
                                 gbps >= target ? "met" : "NOT met");
        rows.emplace_back("crd13_throughput_gbps", AdcCsvWriter::FormatFixed(gbps, 3));
        rows.emplace_back("crd13_throughput_target_gbps", AdcCsvWriter::FormatFixed(target, 1));
        rows.emplace_back("crd13_throughput_met", gbps >= target ? "true" : "false");
    }
    const int csvStatus = AdcBenchWriteCsv(csv, rows);
    const int ratiosStatus = ratios.WriteCsv(ratiosCsv);
    return AdcBenchExitStatus(ratios, csvStatus, ratiosStatus);
}
