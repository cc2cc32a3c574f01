/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark: what the GSLB authoritative DNS (GslbAdns) costs the simulator, and how much
 * memory the RTT database spends per LDNS.
 *
 * a. Queries: --clients client nodes (each stands for an LDNS), each on its own point-to-point
 *    link to a server node S (10 Gbps, 10 us). Every client sends --queries DNS queries (RFC
 *    1035, "www.gslb.example" A, the same bytes each time) to S's UDP port 53, every
 *    --interval, and counts the datagrams it gets back. Two variants in the same run, on the
 *    same topology:
 *
 *      adns  GslbAdns on S: the domain is bound to a GSLB vserver with the RTT method over 3
 *            sites' services; the RTT database knows every client's RTT to every site, so
 *            every query is a full decision (parse, RTT lookup, selection, answer, trace).
 *      echo  ns-3's UdpEchoServer on S's port 53, which sends every datagram back.
 *
 *    Both move the same packets (a query and its reply per query, two hops each way counted
 *    by MacTx on every device); the answer is 16 bytes bigger than the echo (the A record).
 *    The figure is packets per wall-clock second of Simulator::Run (median of --repeat runs,
 *    interleaved), the ratio adns / echo (target >= 0.9). A pair whose counts differ by more
 *    than 1 %, or a variant that lost a reply, fails the bench (exit status 3).
 *
 * b. RTT database memory: --ldns LDNS (IPv4) with every one of 4 sites' RTTs, then the same
 *    number of IPv6 LDNS: GslbRttDatabase::GetBytesPerEntry (allocated table slots and arrays
 *    per entry, target <= 64) and the process's heap growth per entry.
 *
 *   gslb-bench [--clients=8] [--queries=10000] [--interval=20us] [--repeat=3]
 *              [--ldns=100000] [--csv=FILE] [--ratios=FILE]
 */

#include "adc-bench-util.h"

#include "ns3/adc-dns-message.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/command-line.h"
#include "ns3/gslb-adns.h"
#include "ns3/gslb-lb-methods.h"
#include "ns3/gslb-rtt-database.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/udp-echo-server.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <malloc.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kDomain = "www.gslb.example"; //!< the GSLB domain

/// The query measurement's settings.
struct Settings
{
    uint32_t clients{8};             //!< client nodes
    uint32_t queries{10000};         //!< queries per client
    Time interval{MicroSeconds(20)}; //!< gap between a client's queries
};

/// One run's results.
struct Result
{
    double wallS{0};      //!< wall-clock seconds of Simulator::Run
    double cpuS{0};       //!< CPU seconds of Simulator::Run
    uint64_t packets{0};  //!< simulated packets (MacTx on every device)
    uint64_t sent{0};     //!< queries sent
    uint64_t replies{0};  //!< datagrams the clients got back
    uint64_t answered{0}; //!< adns: answered decisions
};

/// \return the query's bytes
std::vector<uint8_t>
QueryBytes()
{
    AdcDnsMessage q;
    q.id = 0x4242;
    q.rd = true;
    q.questions.push_back({kDomain, AdcDnsMessage::TYPE_A, AdcDnsMessage::CLASS_IN});
    return q.Serialize();
}

/// A client's socket: count what comes back.
void
CountReplies(uint64_t* replies, Ptr<Socket> s)
{
    while (s->Recv())
    {
        ++*replies;
    }
}

/// Send one query, then schedule the next.
void
SendQuery(Ptr<Socket> s,
          const std::vector<uint8_t>* bytes,
          uint32_t left,
          Time interval,
          uint64_t* sent)
{
    s->Send(Create<Packet>(bytes->data(), bytes->size()));
    ++*sent;
    if (left > 1)
    {
        Simulator::Schedule(interval, &SendQuery, s, bytes, left - 1, interval, sent);
    }
}

Result
Run(const Settings& s, bool adns)
{
    Result r;
    NodeContainer clients;
    clients.Create(s.clients);
    Ptr<Node> server = CreateObject<Node>();
    InternetStackHelper stack;
    stack.Install(clients);
    stack.Install(server);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    p2p.SetChannelAttribute("Delay", StringValue("10us"));
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    std::vector<Ipv4Address> clientIp;
    std::vector<Ipv4Address> serverIp; // S's end of each client's link (no routing needed)
    for (uint32_t c = 0; c < s.clients; ++c)
    {
        Ipv4InterfaceContainer ifs = addresses.Assign(p2p.Install(clients.Get(c), server));
        clientIp.push_back(ifs.GetAddress(0));
        serverIp.push_back(ifs.GetAddress(1));
        addresses.NewNetwork();
    }
    Ptr<GslbAdns> dns;
    if (adns)
    {
        GslbRegisterLbMethods();
        Ptr<GslbRttDatabase> db = CreateObject<GslbRttDatabase>();
        db->SetSites({"site-a", "site-b", "site-c"}, 0);
        Ptr<AdcVirtualServer> vs = CreateObject<AdcVirtualServer>();
        vs->Configure("gslb-web", "HTTP", AdcIpAddress(), 80);
        vs->SetLbMethod("RTT");
        for (uint32_t site = 0; site < 3; ++site)
        {
            Ptr<AdcService> svc = CreateObject<AdcService>();
            const std::string ip = "192.0.2." + std::to_string(10 + site);
            svc->Configure("svc-" + std::to_string(site),
                           AdcIpAddress(Ipv4Address(ip.c_str())),
                           "HTTP",
                           80);
            vs->BindService(svc);
        }
        Ptr<GslbRttLb> rtt = DynamicCast<GslbRttLb>(vs->GetLbMethod());
        rtt->SetDatabase(db);
        for (uint32_t site = 0; site < 3; ++site)
        {
            rtt->SetBackendSite("svc-" + std::to_string(site), site);
            for (uint32_t c = 0; c < s.clients; ++c)
            {
                const AdcIpAddress ldns(clientIp[c]);
                const Time rttMs = MilliSeconds(10 + 7 * site + c);
                if (site == 0)
                {
                    db->UpdateLocal(ldns, rttMs); // site 0 is this one
                }
                else
                {
                    db->UpdateRemote(site, ldns, rttMs);
                }
            }
        }
        dns = CreateObject<GslbAdns>();
        dns->AddDomain(kDomain, vs, 5, AdcDnsMessage::TYPE_A);
        server->AddApplication(dns);
    }
    else
    {
        Ptr<UdpEchoServer> echo = CreateObject<UdpEchoServer>();
        echo->SetAttribute("Port", UintegerValue(53));
        server->AddApplication(echo);
    }
    static const std::vector<uint8_t> query = QueryBytes();
    // One socket per client, the same in both variants.
    for (uint32_t c = 0; c < s.clients; ++c)
    {
        Ptr<Socket> sock = Socket::CreateSocket(clients.Get(c), UdpSocketFactory::GetTypeId());
        sock->Bind();
        sock->Connect(InetSocketAddress(serverIp[c], 53));
        sock->SetRecvCallback(MakeBoundCallback(&CountReplies, &r.replies));
        Simulator::Schedule(MilliSeconds(1) + NanoSeconds(37 * c),
                            &SendQuery,
                            sock,
                            &query,
                            s.queries,
                            s.interval,
                            &r.sent);
    }
    AdcBenchPacketCounter counter;
    counter.ConnectEveryDevice();
    Simulator::Stop(MilliSeconds(2) + s.interval * (s.queries + 1));
    const double cpu0 = AdcBenchThreadCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    r.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpuS = AdcBenchThreadCpuSeconds() - cpu0;
    r.packets = counter.Get();
    r.answered = dns ? dns->GetAnswered() : 0;
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    uint32_t repeat = 3;
    uint32_t ldns = 100000;
    std::string csv;
    std::string ratiosCsv;
    CommandLine cmd(__FILE__);
    cmd.Usage("The GSLB authoritative DNS (GslbAdns, RTT method) against ns-3's UDP echo server "
              "answering the same queries; and the RTT database's bytes per LDNS.");
    cmd.AddValue("clients", "Client nodes (LDNS)", s.clients);
    cmd.AddValue("queries", "DNS queries per client", s.queries);
    cmd.AddValue("interval", "Gap between a client's queries", s.interval);
    cmd.AddValue("repeat", "Runs per variant, interleaved (the median counts; >= 1)", repeat);
    cmd.AddValue("ldns", "LDNS entries for the memory measurement", ldns);
    cmd.AddValue("csv", "Also write the results as metric,value CSV to this file", csv);
    cmd.AddValue("ratios",
                 "Write the ratio rows (results/bench/ratios.csv format) here",
                 ratiosCsv);
    cmd.Parse(argc, argv);
    if (repeat == 0 || s.clients == 0 || s.clients > 16000 || s.queries == 0 ||
        !s.interval.IsStrictlyPositive() || ldns == 0 || ldns > 10000000)
    {
        std::cerr << "configuration error: gslb-bench: --repeat " << repeat << ", --clients "
                  << s.clients << ", --queries " << s.queries << ", --ldns " << ldns
                  << "; allowed: --repeat >= 1, --clients 1 to 16000, --queries >= 1, "
                     "--interval > 0, --ldns 1 to 10000000"
                  << std::endl;
        return 2;
    }

    // a. Queries: adns against echo, interleaved.
    const std::vector<std::string> names{"adns", "echo"};
    std::vector<Result> last;
    std::vector<AdcBenchSeries> series = AdcBenchInterleave(
        names,
        repeat,
        [&s](std::size_t v) { return Run(s, v == 0); },
        last);
    std::cout << fmt::format("GSLB ADNS (RTT method) vs ns-3's UDP echo server: {} clients x {} "
                             "DNS queries, every {} ns; median of {}\n",
                             s.clients,
                             s.queries,
                             s.interval.GetNanoSeconds(),
                             repeat);
    std::cout << fmt::format("{:<7} {:>23} {:>9} {:>10} {:>9} {:>9} {:>9}\n",
                             "variant",
                             "wall_s min/med/max",
                             "packets",
                             "pps",
                             "sent",
                             "replies",
                             "answered");
    AdcBenchRows rows;
    const uint64_t offered = static_cast<uint64_t>(s.clients) * s.queries;
    bool workDone = true;
    for (std::size_t v = 0; v < 2; ++v)
    {
        const Result& r = last[v];
        const AdcBenchSeries& sr = series[v];
        std::cout << fmt::format("{:<7} {:>23} {:>9} {:>10.0f} {:>9} {:>9} {:>9}\n",
                                 sr.name,
                                 sr.WallSpread(),
                                 sr.packets,
                                 sr.Pps(),
                                 r.sent,
                                 r.replies,
                                 v == 0 ? std::to_string(r.answered) : "-");
        workDone = workDone && r.sent == offered && r.replies == offered &&
                   (v != 0 || r.answered == offered);
        const std::string p = sr.name + "_";
        rows.emplace_back(p + "wall_s_median",
                          AdcCsvWriter::FormatFixed(AdcBenchSeries::Median(sr.walls), 3));
        rows.emplace_back(p + "packets", std::to_string(sr.packets));
        rows.emplace_back(p + "packets_per_wall_s", AdcCsvWriter::FormatFixed(sr.Pps(), 0));
        rows.emplace_back(
            p + "queries_per_wall_s",
            AdcCsvWriter::FormatFixed(r.replies / std::max(1e-9, AdcBenchSeries::Median(sr.walls)),
                                      0));
        rows.emplace_back(p + "sent", std::to_string(r.sent));
        rows.emplace_back(p + "replies", std::to_string(r.replies));
    }
    if (!workDone)
    {
        std::cout << "a variant lost a reply (sent, replies or answered differs from the offered "
                     "load): not comparable\n";
    }
    AdcBenchRatios ratios("gslb-bench");
    ratios.Add(series[0], series[1], 0.9, workDone);
    ratios.Print(std::cout);
    ratios.AppendRows(rows);

    // b. RTT database memory, IPv4 then IPv6 LDNS, 4 sites.
    for (const bool v6 : {false, true})
    {
        Ptr<GslbRttDatabase> db = CreateObject<GslbRttDatabase>();
        db->SetSites({"a", "b", "c", "d"}, 3); // the LDNS's RTTs come from sites a, b, c
        const std::size_t heap0 = mallinfo2().uordblks;
        for (uint32_t i = 0; i < ldns; ++i)
        {
            AdcIpAddress a;
            if (v6)
            {
                uint8_t b[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
                b[12] = static_cast<uint8_t>(i >> 24);
                b[13] = static_cast<uint8_t>(i >> 16);
                b[14] = static_cast<uint8_t>(i >> 8);
                b[15] = static_cast<uint8_t>(i);
                a = AdcIpAddress(Ipv6Address(b));
            }
            else
            {
                a = AdcIpAddress(Ipv4Address(0x0a000000U + i));
            }
            for (uint32_t site = 0; site < 3; ++site)
            {
                db->UpdateRemote(site, a, MilliSeconds(5 + site));
            }
            db->UpdateLocal(a, MilliSeconds(9));
        }
        const double heapPer =
            (static_cast<double>(mallinfo2().uordblks) - static_cast<double>(heap0)) / ldns;
        const double per = db->GetBytesPerEntry();
        const std::string fam = v6 ? "v6" : "v4";
        std::cout << fmt::format("RTT database, {} LDNS ({}), 4 sites: {:.1f} bytes per entry "
                                 "(table; target <= 64: {}), heap growth {:.1f} bytes per entry\n",
                                 db->GetNEntries(),
                                 fam,
                                 per,
                                 per <= 64 ? "met" : "NOT met",
                                 heapPer);
        rows.emplace_back("rtt_db_" + fam + "_entries", std::to_string(db->GetNEntries()));
        rows.emplace_back("rtt_db_" + fam + "_bytes_per_entry", AdcCsvWriter::FormatFixed(per, 1));
        rows.emplace_back("rtt_db_" + fam + "_target_met", per <= 64 ? "yes" : "no");
        rows.emplace_back("rtt_db_" + fam + "_heap_bytes_per_entry",
                          AdcCsvWriter::FormatFixed(heapPer, 1));
    }
    const int csvStatus = AdcBenchWriteCsv(csv, rows);
    const int ratiosStatus = ratios.WriteCsv(ratiosCsv);
    return AdcBenchExitStatus(ratios, csvStatus, ratiosStatus);
}
