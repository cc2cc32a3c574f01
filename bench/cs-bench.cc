/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark: what the content-switching virtual server (issue 10, "Performance") costs the
 * simulator, against the shared proxy engine with no policies and against a bare ns-3 socket
 * relay doing the same work, and the memory of one SOURCEIP persistence entry.
 *
 * Forwarding cost. One topology: --clients client hosts, each on its own point-to-point link
 * (1 Gbps, 50 us) to a middle node M, and M on another link to one HTTP server S:80
 * (AdcHttpServer, --objectSize body bytes). Every client is an AdcHttpClient with one-shot
 * connections (Persistent false: one client TCP connection per request) that sends
 * --requests requests, one every --gap seconds (constant), to M's address on its link, port
 * 80; client i starts at 100 ms + i x 37 us. Three variants, each a separate simulation with
 * the same seed and the clients' random streams fixed (the URL draws), so the clients do the
 * same in each:
 *
 *   1. CS:     a CsVirtualServer "CS-bench" on M with three policies bound (URL STARTSWITH
 *              "/cs-bench-none/" and HEADER "X-Cs-Bench" EQ "canary", which no request
 *              matches, and SYS.RANDOM.MUL(100).LT(50), a 50 % split), each targeting an LB
 *              virtual server whose only service is S, and a default LB virtual server with S;
 *              persistence NONE; its engine's ServerConnectionReuse off (one server
 *              connection per request, as the relay); source: MAPPED_IP = M's address on the
 *              server link (SourceIp).
 *   2. ENGINE: the same AdcProxyEngine driven by a trivial policy written here (every request
 *              forwarded to S), the same "Name" (so the same Via bytes), the same source
 *              policy (MAPPED_IP, the same address) and ServerConnectionReuse off.
 *   3. RELAY:  AdcTcpRelay with "Destination" S:80 and UseClientSource false: accepts on M
 *              and copies bytes to a connection of its own to S (from M's address).
 *
 * What is the same: clients, requests, their times and URLs, the server and its objects, one
 * client connection and one server connection per request, TCP segment size (1448) and,
 * with the defaults (requests and responses well under one segment), one data segment per
 * message. What is not: the proxies (1, 2) parse the request, rewrite it for the server
 * (Connection: close) and add "Via: 1.1 CS-bench" to the response, so they carry a few more
 * bytes than the relay; the relay half-closes each side as its peer does, while the engine
 * closes the client side after the response and waits for the server's FIN, so FIN/ACK
 * segments may be combined differently. Bytes are printed for every variant; the packet
 * counts are compared: a pair whose counts differ is printed as "not comparable" with both
 * counts, not as a ratio.
 *
 * For each: wall-clock seconds of Simulator::Run (the median of --repeat runs; the packets
 * are the same in every repetition, which is checked), simulated packets (every packet handed
 * to a device: MacTx of every device of every node, i.e. each hop of each packet), requests
 * sent and completed (all must complete), bytes the clients received, and packets per
 * wall-clock second; also the CPU seconds this thread spent in Simulator::Run and packets per
 * CPU second, a check of the wall-clock figures when other processes share the machine
 * (repetitions interleave the variants for the same reason). Ratios: pps(CS) / pps(ENGINE) (target
 * >= 0.9) and pps(CS) / pps(RELAY) (target >= 0.85). Targets are reported, not enforced.
 *
 * TIME_WAIT: ns-3 keeps a closed connection's endpoint for 2 x MaxSegLifetime (240 s by
 * default) and finds a segment's socket by a linear search of the node's endpoints, so with
 * thousands of one-shot connections that search, not the forwarding, would dominate every
 * variant (cost growing with the square of the requests) and pull every ratio towards 1.
 * --msl (0.05 s by default, the same in every variant: TIME_WAIT 100 ms, still hundreds of
 * round trips of this topology) keeps the endpoints of the last 100 ms of connections only.
 * Wall-clock times are those of a shared machine: run with --repeat 5 or more on a busy one.
 *
 * Persistence entry: --entries IPv4 SOURCEIP entries (distinct client addresses, the key the
 * CS virtual server makes) inserted into an AdcPersistenceTable, the class the CS virtual
 * server keeps them in; then the table's own figure (AdcPersistenceTable::GetBytesPerEntry:
 * record chunks, index slots, timeout classes, key bytes outside the records, each heap
 * block rounded as glibc malloc does, divided by the entries) and everything the process
 * allocated for them (glibc mallinfo2 in-use bytes after minus before, per entry). Target:
 * at most 96 bytes per entry.
 *
 *   cs-bench [--clients=20] [--requests=100] [--gap=0.01] [--objectSize=1000] [--msl=0.05]
 *            [--entries=100000] [--repeat=3] [--runs=123] [--seed=1] [--run=1] [--csv=FILE]
 */

#include "adc-bench-util.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/adc-proxy-engine.h"
#include "ns3/adc-proxy-policy.h"
#include "ns3/adc-service.h"
#include "ns3/adc-source-address-policy.h"
#include "ns3/adc-tcp-relay.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/application.h"
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/cs-policy.h"
#include "ns3/cs-virtual-server.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <iostream>
#include <malloc.h>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// The benchmark's settings, shared by the runs.
struct Settings
{
    uint32_t clients{20};      //!< client hosts
    uint32_t requests{100};    //!< requests per client
    double gap{0.01};          //!< seconds between a client's requests
    uint32_t objectSize{1000}; //!< body bytes per response
    uint32_t entries{100000};  //!< persistence entries
    double msl{0.05};          //!< TCP maximum segment lifetime (TIME_WAIT = 2 x msl)
    uint32_t seed{1};          //!< RNG seed
    uint32_t run{1};           //!< RNG run
};

/// The three variants.
enum Variant
{
    CS = 0,
    ENGINE = 1,
    RELAY = 2
};

/// One variant's results.
struct Result
{
    std::string name;             //!< "CS", "ENGINE" or "RELAY"
    std::vector<double> walls;    //!< wall-clock seconds of each repetition
    double wallS{0};              //!< their median
    uint64_t packets{0};          //!< simulated packets (MacTx)
    bool packetsStable{true};     //!< every repetition had the same packets
    double pps{0};                //!< packets per wall-clock second (median wall)
    std::vector<double> cpus;     //!< CPU seconds of this thread in each Simulator::Run
    double cpuS{0};               //!< their median
    double cpuPps{0};             //!< packets per CPU second (median)
    uint64_t sent{0};             //!< requests sent
    uint64_t completed{0};        //!< requests completed
    uint64_t failed{0};           //!< requests failed
    uint64_t clientBytes{0};      //!< bytes the clients received
    std::vector<std::string> lbs; //!< CS: requests per LB vserver, described
};

/// The CS virtual server's name, also the ENGINE variant's (the same Via bytes).
const std::string kName = "CS-bench";

/**
 * \brief The ENGINE variant: the shared proxy engine with a policy that forwards every
 * request to one server, from one mapped address (what CsVirtualServer does minus the
 * policies and the LB virtual servers).
 */
class FixedProxy : public Application, public AdcProxyPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::CsBenchFixedProxy").SetParent<Application>().SetGroupName("Adc");
        return tid;
    }

    FixedProxy()
    {
        m_engine = CreateObject<AdcProxyEngine>();
        m_engine->SetPolicy(this);
        m_source = CreateObject<AdcSourceAddressPolicy>();
        m_source->SetAttribute("Mode", EnumValue(AdcSourceAddressPolicy::MAPPED_IP));
        m_source->SetAttribute("UsePortRange", BooleanValue(false));
    }

    /// \param server where every request goes (port 80) \param source the mapped address
    void Setup(Ipv4Address server, Ipv4Address source)
    {
        m_server = server;
        m_source->SetAttribute("MappedIp", Ipv4AddressValue(source));
    }

    /// \return the engine
    Ptr<AdcProxyEngine> GetEngine() const
    {
        return m_engine;
    }

    /// \return requests decided
    uint64_t GetRequests() const
    {
        return m_requests;
    }

  protected:
    void DoDispose() override
    {
        m_disposing = true;
        StopApplication();
        m_engine->Dispose();
        m_engine = nullptr;
        m_source = nullptr;
        Application::DoDispose();
    }

  private:
    void StartApplication() override
    {
        m_source->CheckConfig("cs-bench ENGINE");
        m_engine->SetAttribute("Name", StringValue(kName));
        m_engine->SetAttribute("ServicePort", UintegerValue(80));
        m_engine->Start(GetNode());
    }

    void StopApplication() override
    {
        if (m_engine)
        {
            m_engine->Stop(m_disposing);
        }
    }

    AdcProxyDecision Decide(const AdcProxyFront& front, const AdcHttpMessage&) override
    {
        ++m_requests;
        return AdcProxyDecision::Forward("S", m_server, 80, m_source, front.peerIp);
    }

    Ptr<AdcProxyEngine> m_engine;         //!< the proxy
    Ptr<AdcSourceAddressPolicy> m_source; //!< MAPPED_IP source
    Ipv4Address m_server;                 //!< S
    uint64_t m_requests{0};               //!< counter
    bool m_disposing{false};              //!< stopping quietly
};

/// \param name a policy \param rule its rule \param priority its priority \return it
Ptr<CsPolicy>
Policy(const std::string& name, const std::string& rule, uint32_t priority)
{
    Ptr<CsPolicy> p = CreateObject<CsPolicy>();
    p->SetAttribute("Name", StringValue(name));
    p->SetAttribute("Priority", UintegerValue(priority));
    p->SetRule(rule);
    return p;
}

/// \param name the LB vserver \param server S \return an LB vserver whose only service is S
Ptr<AdcVirtualServer>
LbVserver(const std::string& name, Ipv4Address server)
{
    Ptr<AdcService> svc = CreateObject<AdcService>();
    svc->Configure("S-" + name, AdcIpAddress(server), "HTTP", 80);
    Ptr<AdcVirtualServer> lb = CreateObject<AdcVirtualServer>();
    lb->Configure(name, "HTTP", AdcIpAddress(), 0);
    lb->SetLbMethod("ROUNDROBIN");
    lb->BindService(svc);
    return lb;
}

/**
 * \brief One simulation of variant \p v.
 * \param s the settings
 * \param v the variant
 * \param r results out (appended to)
 * \param wall the wall-clock seconds of Simulator::Run out
 * \param cpu the CPU seconds this thread spent in Simulator::Run out
 * \return the simulated packets
 */
uint64_t
RunOnce(const Settings& s, Variant v, Result& r, double& wall, double& cpu)
{
    RngSeedManager::SetSeed(s.seed);
    RngSeedManager::SetRun(s.run);
    NodeContainer clients;
    clients.Create(s.clients);
    Ptr<Node> middle = CreateObject<Node>();
    Ptr<Node> server = CreateObject<Node>();
    InternetStackHelper().InstallAll();
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    p2p.SetChannelAttribute("Delay", StringValue("50us"));
    Ipv4AddressHelper ip;
    std::vector<Ipv4Address> vips; // M's address on client i's link
    for (uint32_t i = 0; i < s.clients; ++i)
    {
        NetDeviceContainer d = p2p.Install(clients.Get(i), middle);
        ip.SetBase(Ipv4Address(0x0a000000u + ((i + 1) << 8)), "255.255.255.0"); // 10.0.i+1.0
        vips.push_back(ip.Assign(d).GetAddress(1));
    }
    NetDeviceContainer sd = p2p.Install(middle, server);
    ip.SetBase("10.255.0.0", "255.255.255.0");
    Ipv4InterfaceContainer sIf = ip.Assign(sd);
    const Ipv4Address snip = sIf.GetAddress(0);
    const Ipv4Address sIp = sIf.GetAddress(1);

    Ptr<AdcHttpServer> http = CreateObject<AdcHttpServer>();
    http->SetAttribute("ObjectSize", UintegerValue(s.objectSize));
    server->AddApplication(http);

    Ptr<CsVirtualServer> cs;
    Ptr<FixedProxy> fixed;
    Ptr<AdcTcpRelay> relay;
    if (v == CS)
    {
        cs = CreateObject<CsVirtualServer>();
        cs->SetAttribute("Name", StringValue(kName));
        cs->SetAttribute("PersistenceType", StringValue("NONE"));
        cs->SetAttribute("SourceIp", Ipv4AddressValue(snip));
        cs->GetEngine()->SetAttribute("ServerConnectionReuse", BooleanValue(false));
        middle->AddApplication(cs);
        cs->BindPolicy(Policy("pol-url", "HTTP.REQ.URL.STARTSWITH(\"/cs-bench-none/\")", 10),
                       LbVserver("LB-url", sIp));
        cs->BindPolicy(Policy("pol-hdr", "HTTP.REQ.HEADER(\"X-Cs-Bench\").EQ(\"canary\")", 20),
                       LbVserver("LB-hdr", sIp));
        cs->BindPolicy(Policy("pol-split", "SYS.RANDOM.MUL(100).LT(50)", 30),
                       LbVserver("LB-split", sIp));
        cs->SetDefaultLbVserver(LbVserver("LB-default", sIp));
        cs->AssignStreams(500000);
    }
    else if (v == ENGINE)
    {
        fixed = CreateObject<FixedProxy>();
        fixed->Setup(sIp, snip);
        fixed->GetEngine()->SetAttribute("ServerConnectionReuse", BooleanValue(false));
        middle->AddApplication(fixed);
    }
    else
    {
        relay = CreateObject<AdcTcpRelay>();
        relay->SetAttribute("UseClientSource", BooleanValue(false));
        relay->SetAttribute("Destination", AddressValue(InetSocketAddress(sIp, 80)));
        middle->AddApplication(relay);
    }

    const Time start = MilliSeconds(100);
    const Time stop = start + Seconds(s.gap * s.requests) + Seconds(5);
    std::vector<Ptr<AdcHttpClient>> apps;
    for (uint32_t i = 0; i < s.clients; ++i)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(vips[i], 80)));
        c->SetAttribute("Persistent", BooleanValue(false));
        c->SetAttribute("MaxRequests", UintegerValue(s.requests));
        c->SetAttribute(
            "InterRequestTime",
            StringValue(fmt::format("ns3::ConstantRandomVariable[Constant={}]", s.gap)));
        c->SetAttribute("CatalogueSize", UintegerValue(100));
        c->SetStartTime(start + MicroSeconds(37 * i));
        c->SetStopTime(stop);
        c->AssignStreams(1000 + 4 * static_cast<int64_t>(i));
        clients.Get(i)->AddApplication(c);
        apps.push_back(c);
    }
    AdcBenchPacketCounter counter;
    counter.ConnectEveryDevice();
    Simulator::Stop(stop + MilliSeconds(1));
    const double c0 = AdcBenchThreadCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cpu = AdcBenchThreadCpuSeconds() - c0;

    r.sent = r.completed = r.failed = r.clientBytes = 0;
    for (const auto& c : apps)
    {
        r.sent += c->GetRequestsSent();
        r.completed += c->GetRequestsCompleted();
        r.failed += c->GetRequestsFailed();
        r.clientBytes += c->GetBytesReceived();
    }
    if (cs)
    {
        r.lbs.clear();
        for (const char* lb : {"LB-url", "LB-hdr", "LB-split", "LB-default"})
        {
            r.lbs.push_back(fmt::format("{} {}", lb, cs->GetRequestsTo(lb)));
        }
    }
    const uint64_t packets = counter.Get();
    apps.clear();
    Simulator::Destroy();
    return packets;
}

/// \return bytes the process has allocated and not freed (heap chunks and mmapped ones)
std::size_t
InUseBytes()
{
    const struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

/// The persistence-entry measurement.
struct EntryMemory
{
    uint32_t entries{0};      //!< entries held
    std::size_t table{0};     //!< GetBytesPerEntry
    std::size_t allocated{0}; //!< GetAllocatedBytes
    double allIn{0};          //!< mallinfo2 delta per entry
};

/// \param n entries \return the measurement of \p n IPv4 SOURCEIP entries
EntryMemory
MeasureEntries(uint32_t n)
{
    Ptr<AdcPersistenceTable> table = CreateObject<AdcPersistenceTable>();
    table->SetAttribute("MaxEntries", UintegerValue(n));
    const std::size_t before = InUseBytes();
    for (uint32_t i = 0; i < n; ++i)
    {
        // 10.0.0.0 + i: the key CsVirtualServer makes of a client address
        const AdcPersistenceKey key =
            AdcPersistenceKey::FromSourceIp(AdcIpAddress(Ipv4Address(0x0a000000u + i)));
        table->Insert(key, i % 4, Seconds(0), Minutes(2));
    }
    const std::size_t after = InUseBytes();
    EntryMemory m;
    m.entries = table->GetSize(Seconds(0));
    m.table = table->GetBytesPerEntry();
    m.allocated = table->GetAllocatedBytes();
    m.allIn = m.entries ? (static_cast<double>(after) - before) / m.entries : 0;
    return m;
}

/// \return "yes" or "NO"
std::string
Met(bool ok)
{
    return ok ? "yes" : "NO";
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    uint32_t repeat = 3;
    std::string runs = "123";
    std::string csv;
    std::string ratiosCsv;
    CommandLine cmd(__FILE__);
    cmd.Usage("CS virtual server against the bare proxy engine and a bare socket relay: packets "
              "per wall-clock second; bytes per SOURCEIP persistence entry.");
    cmd.AddValue("clients", "Client hosts, one link each to the middle node", s.clients);
    cmd.AddValue("requests", "Requests per client (one connection each)", s.requests);
    cmd.AddValue("gap", "Seconds between a client's requests", s.gap);
    cmd.AddValue("objectSize", "Body bytes of every response", s.objectSize);
    cmd.AddValue("msl",
                 "TCP maximum segment lifetime, seconds (TIME_WAIT lasts twice this)",
                 s.msl);
    cmd.AddValue("entries", "SOURCEIP persistence entries measured (0: skip)", s.entries);
    cmd.AddValue("repeat", "Repeat each run, report the median wall-clock time", repeat);
    cmd.AddValue("runs", "Which variants: 1 CS, 2 ENGINE, 3 RELAY", runs);
    cmd.AddValue("seed", "RNG seed (the same for every run)", s.seed);
    cmd.AddValue("run", "RNG run number (the same for every run)", s.run);
    cmd.AddValue("csv", "Also write the results as metric,value CSV to this file", csv);
    cmd.AddValue("ratios",
                 "Also write the measured pairs as bench,variant,baseline,ratio,target,packets,"
                 "baseline_packets CSV to this file",
                 ratiosCsv);
    cmd.Parse(argc, argv);
    if (repeat == 0 || s.clients == 0 || s.clients > 254 || s.requests == 0 || s.gap <= 0)
    {
        std::cerr << "cs-bench: --repeat " << repeat << ", --clients " << s.clients
                  << ", --requests " << s.requests << ", --gap " << s.gap
                  << ": allowed --repeat >= 1, --clients 1..254, --requests >= 1, --gap > 0"
                  << std::endl;
        return 2;
    }
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocketBase::MaxSegLifetime", DoubleValue(s.msl));

    std::vector<Result> results(3);
    results[CS].name = "CS";
    results[ENGINE].name = "ENGINE";
    results[RELAY].name = "RELAY";
    std::vector<bool> done(3, false);
    // Repetitions interleave the variants (1 2 3 1 2 3 ...), so a busy spell of the machine
    // falls on all of them alike.
    auto median = [](std::vector<double> w) {
        std::sort(w.begin(), w.end());
        return w.size() % 2 ? w[w.size() / 2] : (w[w.size() / 2 - 1] + w[w.size() / 2]) / 2;
    };
    try
    {
        for (uint32_t k = 0; k < repeat; ++k)
        {
            for (int v = 0; v < 3; ++v)
            {
                if (runs.find(static_cast<char>('1' + v)) == std::string::npos)
                {
                    continue;
                }
                Result& r = results[v];
                std::cerr << "run " << v + 1 << " (" << r.name << ") " << k + 1 << "/" << repeat
                          << " ..." << std::endl;
                double wall = 0;
                double cpu = 0;
                const uint64_t packets = RunOnce(s, static_cast<Variant>(v), r, wall, cpu);
                if (k > 0 && packets != r.packets)
                {
                    r.packetsStable = false;
                }
                r.packets = packets;
                r.walls.push_back(wall);
                r.cpus.push_back(cpu);
                done[v] = true;
            }
        }
        for (int v = 0; v < 3; ++v)
        {
            Result& r = results[v];
            if (done[v])
            {
                r.wallS = median(r.walls);
                r.cpuS = median(r.cpus);
                r.pps = r.wallS > 0 ? r.packets / r.wallS : 0;
                r.cpuPps = r.cpuS > 0 ? r.packets / r.cpuS : 0;
            }
        }
    }
    catch (const AdcConfigError& e)
    {
        std::cerr << "configuration error: " << e.what() << std::endl;
        return 2;
    }

    const uint64_t expected = uint64_t{s.clients} * s.requests;
    std::cout << fmt::format("CS benchmark: {} clients x {} one-shot requests ({} in all), one "
                             "every {} s, {} B objects, 1 server; median of {} runs; seed {} "
                             "run {}\n",
                             s.clients,
                             s.requests,
                             expected,
                             s.gap,
                             s.objectSize,
                             repeat,
                             s.seed,
                             s.run);
    std::cout << fmt::format("{:<3} {:<7} {:>8} {:>8} {:>10} {:>11} {:>11} {:>7} {:>7} {:>6} "
                             "{:>12} {:>7}\n",
                             "run",
                             "variant",
                             "wall_s",
                             "cpu_s",
                             "packets",
                             "pps",
                             "pps_cpu",
                             "sent",
                             "done",
                             "failed",
                             "client_bytes",
                             "all_ok");
    AdcBenchRows rows;
    rows.emplace_back("clients", std::to_string(s.clients));
    rows.emplace_back("requests", std::to_string(expected));
    rows.emplace_back("repeat", std::to_string(repeat));
    std::vector<bool> ok(3, false);
    for (int v = 0; v < 3; ++v)
    {
        if (!done[v])
        {
            continue;
        }
        const Result& r = results[v];
        ok[v] = r.sent == expected && r.completed == expected && r.failed == 0 && r.packetsStable;
        std::cout << fmt::format(
            "{:<3} {:<7} {:>8.3f} {:>8.3f} {:>10} {:>11.0f} {:>11.0f} {:>7} {:>7} {:>6} {:>12} "
            "{:>7}\n",
            v + 1,
            r.name,
            r.wallS,
            r.cpuS,
            r.packets,
            r.pps,
            r.cpuPps,
            r.sent,
            r.completed,
            r.failed,
            r.clientBytes,
            Met(ok[v]));
        const std::string p = fmt::format("run{}_", v + 1);
        rows.emplace_back(p + "variant", r.name);
        rows.emplace_back(p + "wall_s", AdcCsvWriter::FormatFixed(r.wallS, 3));
        rows.emplace_back(p + "packets", std::to_string(r.packets));
        rows.emplace_back(p + "packets_per_wall_s", AdcCsvWriter::FormatFixed(r.pps, 0));
        rows.emplace_back(p + "cpu_s", AdcCsvWriter::FormatFixed(r.cpuS, 3));
        rows.emplace_back(p + "packets_per_cpu_s", AdcCsvWriter::FormatFixed(r.cpuPps, 0));
        rows.emplace_back(p + "requests_sent", std::to_string(r.sent));
        rows.emplace_back(p + "requests_completed", std::to_string(r.completed));
        rows.emplace_back(p + "requests_failed", std::to_string(r.failed));
        rows.emplace_back(p + "client_bytes", std::to_string(r.clientBytes));
        rows.emplace_back(p + "all_completed", ok[v] ? "true" : "false");
    }
    if (done[CS])
    {
        std::string lbs;
        for (const std::string& l : results[CS].lbs)
        {
            lbs += (lbs.empty() ? "" : ", ") + l;
        }
        std::cout << "CS requests per LB vserver: " << lbs << "\n";
    }
    for (int v = 0; v < 3; ++v)
    {
        if (done[v] && !results[v].packetsStable)
        {
            std::cout << "run " << v + 1 << ": packet counts differ between repetitions\n";
        }
    }

    AdcBenchRatios ratios("cs-bench");
    auto series = [&](int v) {
        AdcBenchSeries sr;
        sr.name = results[v].name;
        for (std::size_t k = 0; k < results[v].walls.size(); ++k)
        {
            sr.Add(results[v].walls[k], results[v].cpus[k], results[v].packets);
        }
        sr.packetsStable = results[v].packetsStable;
        return sr;
    };
    // Targets of issue 10: the CS vserver at least 0.9 of the bare engine, 0.85 of the relay.
    if (done[CS] && done[ENGINE])
    {
        ratios.Add(series(CS), series(ENGINE), 0.9, ok[CS] && ok[ENGINE]);
    }
    if (done[CS] && done[RELAY])
    {
        ratios.Add(series(CS), series(RELAY), 0.85, ok[CS] && ok[RELAY]);
    }
    ratios.Print(std::cout);
    ratios.AppendRows(rows);

    if (s.entries > 0)
    {
        const EntryMemory m = MeasureEntries(s.entries);
        const double target = 96;
        std::cout << fmt::format("\nSOURCEIP persistence entries (IPv4): {}; table {} B total\n",
                                 m.entries,
                                 m.allocated);
        std::cout << fmt::format("{:<44} {:>8} {:>8} {:>4}\n",
                                 "bytes per entry",
                                 "value",
                                 "target",
                                 "met");
        std::cout << fmt::format("{:<44} {:>8} {:>8} {:>4}\n",
                                 "table figure (GetBytesPerEntry)",
                                 m.table,
                                 "<= 96",
                                 Met(m.table <= target));
        std::cout << fmt::format("{:<44} {:>8.1f} {:>8} {:>4}\n",
                                 "allocated per entry (mallinfo2 delta)",
                                 m.allIn,
                                 "<= 96",
                                 Met(m.allIn <= target));
        rows.emplace_back("persistence_entries", std::to_string(m.entries));
        rows.emplace_back("persistence_table_bytes", std::to_string(m.allocated));
        rows.emplace_back("persistence_bytes_per_entry", std::to_string(m.table));
        rows.emplace_back("persistence_bytes_per_entry_mallinfo",
                          AdcCsvWriter::FormatFixed(m.allIn, 1));
        rows.emplace_back("persistence_bytes_per_entry_target", "96");
        rows.emplace_back("persistence_bytes_per_entry_met",
                          m.table <= target && m.allIn <= target ? "true" : "false");
    }
    const int csvStatus = AdcBenchWriteCsv(csv, rows);
    return AdcBenchExitStatus(ratios, csvStatus, ratios.WriteCsv(ratiosCsv));
}
