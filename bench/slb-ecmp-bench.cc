/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark: what per-flow ECMP routing (AdcEcmpRouting, the SLB's routers spreading a VIP's
 * flows over the MUXes) costs the simulator, against ns-3's own Ipv4GlobalRouting carrying the
 * same packets over the same equal-cost paths.
 *
 * Topology: --clients client nodes, each on its own link to an edge router E; E has --paths
 * equal-cost paths to a far router F, each through its own middle router M_i; F is linked to
 * the server S (the VIP's prefix stands for the MUX pool). Every link is point-to-point,
 * 10 Gbps, 10 us. Every client runs --flows UDP flows (distinct source ports) of
 * --size-byte packets every --interval for --duration, one way to S. Both variants compute
 * their routes with Ipv4GlobalRoutingHelper; they differ only on E:
 *
 *   ecmp    AdcEcmpRouting in front of global routing on E: the server's prefix over the
 *           --paths next hops, each packet's by the hash of its 5-tuple (per flow).
 *   global  ns-3 global routing alone with RandomEcmpRouting: each packet's next hop drawn at
 *           random among the equal-cost ones (per packet: ns-3 has no per-flow ECMP).
 *
 * Both take one of the equal paths per packet, all of the same length, so both move exactly
 * the same packets and bytes: every hop of every packet is counted (MacTx on every device) and
 * both counts are printed; a pair whose counts differ by more than 1 % is "not comparable" and
 * fails the bench (exit status 3). Every run is repeated --repeat times, interleaved; the
 * figure is packets per wall-clock second of Simulator::Run (median), the ratio ecmp / global
 * (target >= 0.95: a hash and a short prefix scan per packet against global routing's table
 * walk and random draw). Also shown: the packets each path carried, and for ecmp whether each
 * path carried exactly the packets of the flows AdcEcmpRouting::Lookup assigns to it (per-flow
 * forwarding: a flow that strayed to another path would break the equality; the pair counts
 * only when it holds).
 *
 *   slb-ecmp-bench [--clients=20] [--flows=10] [--paths=4] [--duration=0.5]
 *                  [--interval=1ms] [--size=100] [--repeat=3] [--csv=FILE] [--ratios=FILE]
 */

#include "adc-bench-util.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"

#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The benchmark's settings, shared by every run.
struct Settings
{
    uint32_t clients{20};           //!< client nodes
    uint32_t flows{10};             //!< UDP flows per client
    uint32_t paths{4};              //!< equal-cost paths from E to F
    double duration{0.5};           //!< seconds of load
    Time interval{MilliSeconds(1)}; //!< gap between a flow's packets
    uint32_t size{100};             //!< UDP payload bytes
};

/// One run's results.
struct Result
{
    double wallS{0};                //!< wall-clock seconds of Simulator::Run
    double cpuS{0};                 //!< CPU seconds of Simulator::Run
    uint64_t packets{0};            //!< simulated packets (hops)
    uint64_t sent{0};               //!< packets the clients sent
    uint64_t received{0};           //!< packets S received
    uint64_t bytes{0};              //!< payload bytes S received
    std::vector<uint64_t> perPath;  //!< packets each middle router forwarded
    std::vector<uint64_t> expected; //!< ecmp: packets Lookup assigns to each path
    std::vector<uint64_t> perFlow;  //!< packets each flow sent
};

/// Counts packets (MacTx of one device).
void
CountPacket(uint64_t* n, Ptr<const Packet>)
{
    ++*n;
}

/// The sink: counts S's packets and bytes.
void
Receive(Result* r, Ptr<Socket> socket)
{
    while (Ptr<Packet> p = socket->Recv())
    {
        ++r->received;
        r->bytes += p->GetSize();
    }
}

/// Send one packet of a flow and schedule its next until \p end.
void
SendPacket(Ptr<Socket> socket, uint32_t size, Time interval, Time end, uint64_t* sent)
{
    socket->Send(Create<Packet>(size));
    ++*sent;
    if (Simulator::Now() + interval < end)
    {
        Simulator::Schedule(interval, &SendPacket, socket, size, interval, end, sent);
    }
}

/**
 * \brief One simulation.
 * \param s the settings
 * \param ecmp true: AdcEcmpRouting on E; false: ns-3 global routing's random ECMP
 * \return its results
 */
Result
RunOnce(const Settings& s, bool ecmp)
{
    Result r;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    NodeContainer clients(s.clients);
    NodeContainer middles(s.paths);
    Ptr<Node> edge = CreateObject<Node>();
    Ptr<Node> far = CreateObject<Node>();
    Ptr<Node> server = CreateObject<Node>();
    NodeContainer all(clients, middles);
    all.Add(edge);
    all.Add(far);
    all.Add(server);
    InternetStackHelper stack;
    stack.Install(all);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    p2p.SetChannelAttribute("Delay", StringValue("10us"));
    Ipv4AddressHelper ip("10.0.0.0", "255.255.255.252");
    for (uint32_t c = 0; c < s.clients; ++c)
    {
        ip.Assign(p2p.Install(clients.Get(c), edge));
        ip.NewNetwork();
    }
    std::vector<Ipv4Address> middleAddr;
    std::vector<uint32_t> edgeIf;
    r.perPath.assign(s.paths, 0);
    for (uint32_t m = 0; m < s.paths; ++m)
    {
        NetDeviceContainer d = p2p.Install(edge, middles.Get(m));
        Ipv4InterfaceContainer a = ip.Assign(d);
        ip.NewNetwork();
        middleAddr.push_back(a.GetAddress(1));
        edgeIf.push_back(a.Get(0).second);
        NetDeviceContainer out = p2p.Install(middles.Get(m), far);
        ip.Assign(out);
        ip.NewNetwork();
        out.Get(0)->TraceConnectWithoutContext("MacTx",
                                               MakeBoundCallback(&CountPacket, &r.perPath[m]));
    }
    ip.SetBase("10.200.0.0", "255.255.255.0");
    const Ipv4Address serverAddr = ip.Assign(p2p.Install(far, server)).GetAddress(1);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    stack.AssignStreams(all, 1000); // global routing's random ECMP draws

    Ptr<AdcEcmpRouting> e;
    if (ecmp)
    {
        Ptr<Ipv4> eIp = edge->GetObject<Ipv4>();
        e = CreateObject<AdcEcmpRouting>();
        DynamicCast<Ipv4ListRouting>(eIp->GetRoutingProtocol())->AddRoutingProtocol(e, 100);
        for (uint32_t m = 0; m < s.paths; ++m)
        {
            e->AddRoute("10.200.0.0", "255.255.255.0", middleAddr[m], edgeIf[m]);
        }
    }

    Ptr<Socket> sink = Socket::CreateSocket(server, UdpSocketFactory::GetTypeId());
    sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    sink->SetRecvCallback(MakeBoundCallback(&Receive, &r));
    const Time start = MilliSeconds(10);
    const Time end = start + Seconds(s.duration);
    std::vector<AdcFlowKey> flows;
    r.perFlow.assign(s.clients * s.flows, 0);
    for (uint32_t c = 0; c < s.clients; ++c)
    {
        const Ipv4Address src = clients.Get(c)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
        for (uint32_t f = 0; f < s.flows; ++f)
        {
            const auto port = static_cast<uint16_t>(10000 + f);
            Ptr<Socket> so = Socket::CreateSocket(clients.Get(c), UdpSocketFactory::GetTypeId());
            so->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
            so->Connect(InetSocketAddress(serverAddr, 9));
            // Flows start spread over one interval, so the load is smooth.
            const Time offset = s.interval * (c * s.flows + f) / (s.clients * s.flows);
            Simulator::Schedule(start + offset,
                                &SendPacket,
                                so,
                                s.size,
                                s.interval,
                                end,
                                &r.perFlow[flows.size()]);
            flows.emplace_back(src, serverAddr, port, 9, AdcFlowKey::PROTO_UDP);
        }
    }
    AdcBenchPacketCounter counter;
    counter.ConnectEveryDevice();
    Simulator::Stop(end + MilliSeconds(10));

    const double cpu0 = AdcBenchThreadCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    r.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpuS = AdcBenchThreadCpuSeconds() - cpu0;
    r.packets = counter.Get();
    for (uint64_t n : r.perFlow)
    {
        r.sent += n;
    }

    if (e)
    {
        // Per flow: every packet of a flow on the path Lookup gives it, so each path carried
        // exactly the packets of its flows.
        r.expected.assign(s.paths, 0);
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            Ipv4Address gw;
            if (e->Lookup(flows[i], gw))
            {
                for (uint32_t m = 0; m < s.paths; ++m)
                {
                    r.expected[m] += gw == middleAddr[m] ? r.perFlow[i] : 0;
                }
            }
        }
    }
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
    return out.empty() ? "-" : out;
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    uint32_t repeat = 3;
    std::string csv;
    std::string ratiosCsv;
    CommandLine cmd(__FILE__);
    cmd.Usage("Per-flow ECMP routing (AdcEcmpRouting) against ns-3 global routing's per-packet "
              "random ECMP over the same equal-cost paths: packets per wall-clock second.");
    cmd.AddValue("clients", "Client nodes", s.clients);
    cmd.AddValue("flows", "UDP flows per client", s.flows);
    cmd.AddValue("paths", "Equal-cost paths (middle routers)", s.paths);
    cmd.AddValue("duration", "Seconds of load", s.duration);
    cmd.AddValue("interval", "Gap between a flow's packets", s.interval);
    cmd.AddValue("size", "UDP payload bytes", s.size);
    cmd.AddValue("repeat", "Runs per variant, interleaved (the median counts; >= 1)", repeat);
    cmd.AddValue("csv", "Also write the results as metric,value CSV to this file", csv);
    cmd.AddValue("ratios",
                 "Also write the measured pair as bench,variant,baseline,ratio,target,packets,"
                 "baseline_packets CSV to this file",
                 ratiosCsv);
    cmd.Parse(argc, argv);
    if (repeat == 0 || s.clients == 0 || s.flows == 0 || s.paths < 2 || s.paths > 60 ||
        s.clients > 10000 || !s.interval.IsStrictlyPositive())
    {
        std::cerr << "configuration error: slb-ecmp-bench: --repeat " << repeat << ", --clients "
                  << s.clients << ", --flows " << s.flows << ", --paths " << s.paths
                  << ", --interval " << s.interval.As(Time::US)
                  << "; allowed: --repeat >= 1, --clients 1 to 10000, --flows >= 1, --paths 2 "
                     "to 60, --interval > 0"
                  << std::endl;
        return 2;
    }
    Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", BooleanValue(true));

    const std::vector<std::string> names{"ecmp", "global"};
    std::vector<Result> last;
    std::vector<AdcBenchSeries> series = AdcBenchInterleave(
        names,
        repeat,
        [&s](std::size_t v) { return RunOnce(s, v == 0); },
        last);

    std::cout << fmt::format("SLB ECMP benchmark: {} clients x {} UDP flows, {} equal-cost paths, "
                             "{} B every {} us for {} s; median of {}\n",
                             s.clients,
                             s.flows,
                             s.paths,
                             s.size,
                             s.interval.GetMicroSeconds(),
                             s.duration,
                             repeat);
    std::cout << fmt::format("{:<8} {:>23} {:>10} {:>10} {:>9} {:>9} {:>10} {:<28} {:<28}\n",
                             "variant",
                             "wall_s min/med/max",
                             "packets",
                             "pps",
                             "sent",
                             "received",
                             "bytes",
                             "packets per path",
                             "expected per path (flows)");
    AdcBenchRows rows;
    bool workDone = true;
    for (std::size_t v = 0; v < 2; ++v)
    {
        const Result& r = last[v];
        const AdcBenchSeries& sr = series[v];
        std::cout << fmt::format("{:<8} {:>23} {:>10} {:>10.0f} {:>9} {:>9} {:>10} {:<28} {:<28}\n",
                                 sr.name,
                                 sr.WallSpread(),
                                 sr.packets,
                                 sr.Pps(),
                                 r.sent,
                                 r.received,
                                 r.bytes,
                                 Spread(r.perPath),
                                 Spread(r.expected));
        workDone = workDone && r.sent > 0 && r.received == r.sent;
        const std::string p = sr.name + "_";
        rows.emplace_back(p + "wall_s_median",
                          AdcCsvWriter::FormatFixed(AdcBenchSeries::Median(sr.walls), 3));
        rows.emplace_back(p + "packets", std::to_string(sr.packets));
        rows.emplace_back(p + "packets_per_wall_s", AdcCsvWriter::FormatFixed(sr.Pps(), 0));
        rows.emplace_back(p + "sent", std::to_string(r.sent));
        rows.emplace_back(p + "received", std::to_string(r.received));
        rows.emplace_back(p + "bytes", std::to_string(r.bytes));
        rows.emplace_back(p + "packets_per_path", Spread(r.perPath));
    }
    const bool perFlow = last[0].perPath == last[0].expected;
    std::cout << fmt::format("ecmp: every path carried exactly the packets of the flows Lookup "
                             "assigns to it (per flow): {}\n",
                             perFlow ? "yes" : "NO");
    rows.emplace_back("ecmp_per_flow", perFlow ? "true" : "false");
    if (last[0].received != last[1].received || last[0].bytes != last[1].bytes)
    {
        workDone = false;
        std::cout << "the variants delivered different packets or bytes: not comparable\n";
    }

    AdcBenchRatios ratios("slb-ecmp-bench");
    ratios.Add(series[0], series[1], 0.95, workDone && perFlow);
    ratios.Print(std::cout);
    ratios.AppendRows(rows);
    const int csvStatus = AdcBenchWriteCsv(csv, rows);
    const int ratiosStatus = ratios.WriteCsv(ratiosCsv);
    return AdcBenchExitStatus(ratios, csvStatus, ratiosStatus);
}
