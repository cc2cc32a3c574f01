/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark: what the SDN software load balancer's MUX (SlbMux) costs the simulator and how
 * much memory its flow table spends.
 *
 * a. Forwarding: --clients client nodes, each on its own point-to-point link to a middle node
 *    M, which is linked to a host H (10 Gbps, 10 us everywhere). Every client sends --packets
 *    UDP datagrams of --size bytes to the VIP 203.0.113.10:80, every --interval, round robin
 *    over --flows source ports. Two variants, in the same run, on the same topology:
 *
 *      mux     SlbMux on M (Maglev, flow table) with one DIP behind H: it encapsulates each
 *              datagram in VXLAN (RFC 7348: outer IP, UDP 4789, VXLAN, inner Ethernet) to
 *              H's provider address; a UDP sink on H's port 4789 counts the VXLAN datagrams
 *              (and checks the I flag and the VNI of each).
 *      router  M a plain ns-3 router (the same list-routing stack, no datapath) with a static
 *              host route for the VIP to H; H holds the VIP as a second address and a UDP sink
 *              on port 80 counts the datagrams.
 *
 *    Both move exactly the same packets (one hop client -> M, one M -> H per datagram): every
 *    hop is counted (MacTx on every device), and the packets H's device received, for both;
 *    the bytes on H's link differ by the tunnel's 50 bytes per packet (that is the MUX's work).
 *    Runs are repeated --repeat times, interleaved; the figure is packets per wall-clock second
 *    of Simulator::Run (median), the ratio mux / router (target >= 0.9). A pair whose counts
 *    differ by more than 1 % fails the bench (exit status 3).
 *
 * b. DIP choice: SlbMux::Process called directly (no simulator events), with an egress that
 *    accepts every verdict, for --flows-table distinct UDP flows to a VIP with 1,000 DIPs (and,
 *    for comparison, 2 DIPs; and IPv6 flows with 1,000 DIPs): the first packet of every flow
 *    (a new flow: hash, Maglev lookup, flow-table insert, VXLAN encapsulation verdict) and a
 *    second packet of every flow (a flow-table hit), in CPU ns per packet (the thread's CPU
 *    time, which a busy machine does not inflate); also the flow hash and Maglev lookup alone.
 *
 * c. Flow-table memory after those --flows-table flows (IPv4 and IPv6): SlbFlowTable's own
 *    figure (GetEntryBytes: the slot's size at the highest load, target <= 64), the slots
 *    allocated now per entry (GetMemoryBytes / GetCount: between the slot's size / (3/4) and
 *    twice that, by where the count falls between two doublings of the table), and the
 *    process's growth per entry (glibc's in-use bytes and the resident set, before and after
 *    the first packets; the resident set also keeps heap pages freed by the table's growth).
 *
 *   slb-bench [--clients=8] [--flows=8] [--packets=10000] [--interval=20us] [--size=64]
 *             [--repeat=3] [--flows-table=1000000] [--csv=FILE] [--ratios=FILE]
 */

#include "adc-bench-util.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-datapath.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-maglev-table.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/command-line.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/slb-flow-table.h"
#include "ns3/slb-mux.h"
#include "ns3/slb-policy.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"

#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <malloc.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

const Ipv4Address kVip("203.0.113.10"); //!< the VIP (RFC 5737 documentation range)
constexpr uint16_t kVipPort = 80;       //!< its UDP port
constexpr uint16_t kVxlanPort = 4789;   //!< RFC 7348's UDP port
constexpr uint32_t kVni = 5001;         //!< the DIP's VNI
constexpr uint32_t kVxlanOverhead = 50; //!< outer IPv4 (20) + UDP, VXLAN, Ethernet (30)

/// The forwarding measurement's settings.
struct Settings
{
    uint32_t clients{8};             //!< client nodes
    uint32_t flows{8};               //!< UDP flows (source ports) per client
    uint32_t packets{10000};         //!< datagrams per client
    Time interval{MicroSeconds(20)}; //!< gap between a client's datagrams
    uint32_t size{64};               //!< UDP payload bytes
};

/// One forwarding run's results.
struct Result
{
    double wallS{0};          //!< wall-clock seconds of Simulator::Run
    double cpuS{0};           //!< CPU seconds of Simulator::Run
    uint64_t packets{0};      //!< simulated packets (MacTx on every device)
    uint64_t sent{0};         //!< datagrams the clients sent
    uint64_t hostRx{0};       //!< packets H's device received
    uint64_t hostRxBytes{0};  //!< their bytes
    uint64_t received{0};     //!< datagrams H's sink received
    uint64_t wellFormed{0};   //!< mux: VXLAN datagrams with the I flag and the DIP's VNI
    uint64_t encapsulated{0}; //!< mux: the MUX's "encapsulated" counter
    uint64_t muxFlows{0};     //!< mux: flow-table entries
};

/// MacRx of H's device: count packets and bytes.
void
CountRx(Result* r, Ptr<const Packet> p)
{
    ++r->hostRx;
    r->hostRxBytes += p->GetSize();
}

/// H's sink: count datagrams; over VXLAN, check the I flag and the VNI (RFC 7348 section 5).
void
Receive(Result* r, bool vxlan, Ptr<Socket> socket)
{
    while (Ptr<Packet> p = socket->Recv())
    {
        ++r->received;
        uint8_t h[8];
        if (vxlan && p->GetSize() >= 8 && p->CopyData(h, 8) == 8 && (h[0] & 0x08) != 0 &&
            ((uint32_t(h[4]) << 16) | (uint32_t(h[5]) << 8) | h[6]) == kVni)
        {
            ++r->wellFormed;
        }
    }
}

/// Send one datagram from a client's next flow and schedule the next until \p left is 0.
void
SendNext(std::vector<Ptr<Socket>>* sockets,
         uint32_t next,
         uint32_t left,
         uint32_t size,
         Time interval,
         uint64_t* sent)
{
    (*sockets)[next]->Send(Create<Packet>(size));
    ++*sent;
    if (left > 1)
    {
        Simulator::Schedule(interval,
                            &SendNext,
                            sockets,
                            (next + 1) % static_cast<uint32_t>(sockets->size()),
                            left - 1,
                            size,
                            interval,
                            sent);
    }
}

/**
 * \brief One forwarding simulation.
 * \param s the settings
 * \param mux true: SlbMux on M; false: M a plain router
 * \return its results
 */
Result
RunForwarding(const Settings& s, bool mux)
{
    Result r;
    NodeContainer clients(s.clients);
    Ptr<Node> middle = CreateObject<Node>();
    Ptr<Node> host = CreateObject<Node>();
    NodeContainer all(clients);
    all.Add(middle);
    all.Add(host);
    AdcMakeListStackHelper(false).Install(all);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    p2p.SetChannelAttribute("Delay", StringValue("10us"));
    Ipv4AddressHelper ip("10.0.0.0", "255.255.255.252");
    Ipv4StaticRoutingHelper routing;
    for (uint32_t c = 0; c < s.clients; ++c)
    {
        Ipv4InterfaceContainer a = ip.Assign(p2p.Install(clients.Get(c), middle));
        ip.NewNetwork();
        routing.GetStaticRouting(clients.Get(c)->GetObject<Ipv4>())
            ->SetDefaultRoute(a.GetAddress(1), 1);
    }
    ip.SetBase("10.200.1.0", "255.255.255.252");
    NetDeviceContainer mh = p2p.Install(middle, host);
    Ipv4InterfaceContainer amh = ip.Assign(mh);
    const Ipv4Address hostPa = amh.GetAddress(1);
    Ptr<Ipv4> hostIp = host->GetObject<Ipv4>();
    routing.GetStaticRouting(hostIp)->SetDefaultRoute(amh.GetAddress(0), 1);
    mh.Get(1)->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&CountRx, &r));

    Ptr<SlbMux> m;
    if (mux)
    {
        m = CreateObject<SlbMux>();
        m->Install(middle);
        SlbVip vip;
        vip.name = "bench";
        vip.key = SlbVipKey{kVip, AdcFlowKey::PROTO_UDP, kVipPort};
        SlbDip dip;
        dip.address = Ipv4Address("10.10.10.5");
        dip.port = kVipPort;
        dip.hostPa = hostPa;
        dip.vni = kVni;
        vip.dips.push_back(dip);
        m->SetVip(vip);
    }
    else
    {
        // The VIP is H's second address; M routes it to H.
        hostIp->AddAddress(1, Ipv4InterfaceAddress(kVip, Ipv4Mask("255.255.255.255")));
        routing.GetStaticRouting(middle->GetObject<Ipv4>())
            ->AddHostRouteTo(kVip,
                             hostPa,
                             middle->GetObject<Ipv4>()->GetInterfaceForDevice(mh.Get(0)));
    }
    Ptr<Socket> sink = Socket::CreateSocket(host, UdpSocketFactory::GetTypeId());
    sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), mux ? kVxlanPort : kVipPort));
    sink->SetRecvCallback(MakeBoundCallback(&Receive, &r, mux));

    std::vector<std::vector<Ptr<Socket>>> sockets(s.clients);
    const Time start = MilliSeconds(1);
    for (uint32_t c = 0; c < s.clients; ++c)
    {
        for (uint32_t f = 0; f < s.flows; ++f)
        {
            Ptr<Socket> so = Socket::CreateSocket(clients.Get(c), UdpSocketFactory::GetTypeId());
            so->Bind(InetSocketAddress(Ipv4Address::GetAny(), static_cast<uint16_t>(10000 + f)));
            so->Connect(InetSocketAddress(kVip, kVipPort));
            sockets[c].push_back(so);
        }
        // Clients start spread over one interval, so the load is smooth.
        Simulator::Schedule(start + s.interval * c / s.clients,
                            &SendNext,
                            &sockets[c],
                            0u,
                            s.packets,
                            s.size,
                            s.interval,
                            &r.sent);
    }
    AdcBenchPacketCounter counter;
    counter.ConnectEveryDevice();
    Simulator::Stop(start + s.interval * (s.packets + 1) + MilliSeconds(1));

    const double cpu0 = AdcBenchThreadCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    r.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpuS = AdcBenchThreadCpuSeconds() - cpu0;
    r.packets = counter.Get();
    if (m)
    {
        r.encapsulated = m->GetCounters().encapsulated;
        r.muxFlows = m->GetFlowCount();
    }
    sink->Close();
    Simulator::Destroy();
    return r;
}

/// An egress that accepts every verdict (the choice measurement runs without a node).
class AcceptEgress : public AdcEgress
{
  public:
    /// \param verdict the MUX's verdict (counted) \return "" (done)
    std::string Send(const AdcVerdict& verdict) override
    {
        m_encapsulations += verdict.action == AdcVerdict::ENCAPSULATE ? 1 : 0;
        return "";
    }

    uint64_t m_encapsulations{0}; //!< ENCAPSULATE verdicts
};

/// The DIP-choice and flow-table measurement of one configuration.
struct Choice
{
    std::string name;         //!< e.g. "v4_1000dips"
    uint32_t dips{0};         //!< DIPs of the VIP
    bool v6{false};           //!< IPv6 flows
    double newNs{0};          //!< ns per packet of a new flow (median)
    double hitNs{0};          //!< ns per packet of a flow in the table (median)
    double lookupNs{0};       //!< ns per flow hash + Maglev lookup alone (median)
    uint64_t created{0};      //!< flows the MUX created (first run)
    uint64_t hits{0};         //!< flow-table hits (first run)
    uint64_t encapsulated{0}; //!< ENCAPSULATE verdicts (first run)
    std::size_t entries{0};   //!< flow-table entries after the first packets
    std::size_t slotBytes{0}; //!< the table's slot memory (GetMemoryBytes)
    double heapPerEntry{0};   //!< glibc in-use growth per entry
    double rssPerEntry{0};    //!< resident-set growth per entry
};

/// \return bytes glibc has allocated and not freed
double
InUseBytes()
{
    const struct mallinfo2 mi = mallinfo2();
    return static_cast<double>(mi.uordblks + mi.hblkhd);
}

/// \return the resident set in bytes (/proc/self/statm)
double
RssBytes()
{
    std::ifstream f("/proc/self/statm");
    double size = 0;
    double resident = 0;
    f >> size >> resident;
    return resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

/// \param k a flow number \param v6 family \return the flow's client address
AdcIpAddress
ClientOf(uint32_t k, bool v6)
{
    const uint32_t n = k / 60000; // 60000 source ports per client address
    if (v6)
    {
        uint8_t b[16] = {0xfd, 0x00, 0x00, 0x0c};
        b[12] = static_cast<uint8_t>(n >> 24);
        b[13] = static_cast<uint8_t>(n >> 16);
        b[14] = static_cast<uint8_t>(n >> 8);
        b[15] = static_cast<uint8_t>(n);
        return Ipv6Address(b);
    }
    return Ipv4Address(Ipv4Address("100.64.0.0").Get() + n);
}

/// \param i a DIP number \param v6 family \return its address
AdcIpAddress
DipOf(uint32_t i, bool v6)
{
    if (v6)
    {
        uint8_t b[16] = {0xfd, 0x00, 0x00, 0x10};
        b[14] = static_cast<uint8_t>(i >> 8);
        b[15] = static_cast<uint8_t>(i);
        return Ipv6Address(b);
    }
    return Ipv4Address(Ipv4Address("10.10.0.0").Get() + i + 1);
}

/// \param cpu0 the thread's CPU seconds at the start \param n packets
/// \return CPU ns per packet since then (CPU time: a busy machine does not inflate it)
double
NsPer(double cpu0, std::size_t n)
{
    return (AdcBenchThreadCpuSeconds() - cpu0) * 1e9 / static_cast<double>(n);
}

/**
 * \brief Measure one configuration once: a fresh MUX, the first packet of every flow, then a
 * second packet of every flow.
 * \param c the configuration (results filled in; memory and counters only when \p first)
 * \param keys the flows
 * \param first the first repetition
 * \param[out] newNs ns per new-flow packet \param[out] hitNs ns per table-hit packet
 * \param[out] lookupNs ns per hash + Maglev lookup
 */
void
RunChoiceOnce(Choice& c,
              const std::vector<AdcFlowKey>& keys,
              bool first,
              double& newNs,
              double& hitNs,
              double& lookupNs)
{
    Ptr<SlbMux> m = CreateObject<SlbMux>();
    SlbVip vip;
    vip.name = c.name;
    vip.key = SlbVipKey{keys.front().dst, AdcFlowKey::PROTO_UDP, kVipPort};
    std::vector<std::string> names;
    for (uint32_t i = 0; i < c.dips; ++i)
    {
        SlbDip d;
        d.address = DipOf(i, c.v6);
        d.port = kVipPort;
        d.hostPa = Ipv4Address(Ipv4Address("10.200.0.2").Get() + (i / 16) * 4);
        d.vni = kVni;
        vip.dips.push_back(d);
        names.push_back(d.address.ToString());
    }
    m->SetVip(vip);
    AcceptEgress egress;
    AdcIngress in;
    in.status = AdcTransportStatus::OK;
    in.bytes = (c.v6 ? 48 : 28) + 64;
    in.packet = Create<Packet>(64);

    const double heap0 = InUseBytes();
    const double rss0 = RssBytes();
    double t0 = AdcBenchThreadCpuSeconds();
    for (const AdcFlowKey& k : keys)
    {
        in.flow = k;
        m->Process(in, egress);
    }
    newNs = NsPer(t0, keys.size());
    const double heap1 = InUseBytes();
    const double rss1 = RssBytes();
    t0 = AdcBenchThreadCpuSeconds();
    for (const AdcFlowKey& k : keys)
    {
        in.flow = k;
        m->Process(in, egress);
    }
    hitNs = NsPer(t0, keys.size());

    // The same hash and Maglev lookup the MUX does, alone (its default size and seed).
    AdcMaglevTable table(65537);
    table.BuildFromNames(names, {}, 0);
    int64_t sum = 0;
    t0 = AdcBenchThreadCpuSeconds();
    for (const AdcFlowKey& k : keys)
    {
        sum += table.Lookup(AdcHash::Flow(k, 0));
    }
    lookupNs = NsPer(t0, keys.size());
    if (sum < 0)
    {
        std::cerr << "maglev lookup failed\n";
    }
    if (first)
    {
        c.created = m->GetCounters().flowsCreated;
        c.hits = m->GetCounters().flowTableHits;
        c.encapsulated = egress.m_encapsulations;
        c.entries = m->GetFlowTable().GetCount(c.v6 ? AdcIpAddress::V6 : AdcIpAddress::V4);
        c.slotBytes = m->GetFlowTable().GetMemoryBytes();
        c.heapPerEntry = c.entries ? (heap1 - heap0) / c.entries : 0;
        c.rssPerEntry = c.entries ? (rss1 - rss0) / c.entries : 0;
    }
    m->Dispose();
}

/**
 * \brief Measure a configuration --repeat times (the medians count).
 * \param c the configuration \param flows distinct flows \param repeat repetitions
 */
void
RunChoice(Choice& c, uint32_t flows, uint32_t repeat)
{
    std::vector<AdcFlowKey> keys;
    keys.reserve(flows);
    const AdcIpAddress vip = c.v6 ? AdcIpAddress(Ipv6Address("fd00:ffff::10")) : AdcIpAddress(kVip);
    for (uint32_t k = 0; k < flows; ++k)
    {
        keys.emplace_back(ClientOf(k, c.v6),
                          vip,
                          static_cast<uint16_t>(1024 + k % 60000),
                          kVipPort,
                          AdcFlowKey::PROTO_UDP);
    }
    std::vector<double> newNs(repeat);
    std::vector<double> hitNs(repeat);
    std::vector<double> lookupNs(repeat);
    for (uint32_t i = 0; i < repeat; ++i)
    {
        std::cerr << "choice " << c.name << " " << i + 1 << "/" << repeat << " ..." << std::endl;
        RunChoiceOnce(c, keys, i == 0, newNs[i], hitNs[i], lookupNs[i]);
    }
    c.newNs = AdcBenchSeries::Median(newNs);
    c.hitNs = AdcBenchSeries::Median(hitNs);
    c.lookupNs = AdcBenchSeries::Median(lookupNs);
    Simulator::Destroy();
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    uint32_t repeat = 3;
    uint32_t tableFlows = 1000000;
    std::string csv;
    std::string ratiosCsv;
    CommandLine cmd(__FILE__);
    cmd.Usage("The SLB MUX (SlbMux, VXLAN) against a plain ns-3 router forwarding the same "
              "packets; the MUX's per-packet DIP choice; bytes per flow-table entry.");
    cmd.AddValue("clients", "Client nodes", s.clients);
    cmd.AddValue("flows", "UDP flows (source ports) per client", s.flows);
    cmd.AddValue("packets", "UDP datagrams per client", s.packets);
    cmd.AddValue("interval", "Gap between a client's datagrams", s.interval);
    cmd.AddValue("size", "UDP payload bytes", s.size);
    cmd.AddValue("repeat", "Runs per variant, interleaved (the median counts; >= 1)", repeat);
    cmd.AddValue("flows-table",
                 "Distinct flows for the DIP-choice and flow-table measurements",
                 tableFlows);
    cmd.AddValue("csv", "Also write the results as metric,value CSV to this file", csv);
    cmd.AddValue("ratios",
                 "Also write the measured pair as bench,variant,baseline,ratio,target,packets,"
                 "baseline_packets CSV to this file",
                 ratiosCsv);
    cmd.Parse(argc, argv);
    if (repeat == 0 || s.clients == 0 || s.clients > 16000 || s.flows == 0 || s.flows > 50000 ||
        s.packets == 0 || !s.interval.IsStrictlyPositive() || tableFlows == 0 ||
        tableFlows > 100000000)
    {
        std::cerr << "configuration error: slb-bench: --repeat " << repeat << ", --clients "
                  << s.clients << ", --flows " << s.flows << ", --packets " << s.packets
                  << ", --interval " << s.interval.As(Time::US) << ", --flows-table " << tableFlows
                  << "; allowed: --repeat >= 1, --clients 1 to 16000, --flows 1 to 50000, "
                     "--packets >= 1, --interval > 0, --flows-table 1 to 100000000"
                  << std::endl;
        return 2;
    }

    // a. Forwarding: mux against router, interleaved.
    const std::vector<std::string> names{"mux", "router"};
    std::vector<Result> last;
    std::vector<AdcBenchSeries> series = AdcBenchInterleave(
        names,
        repeat,
        [&s](std::size_t v) { return RunForwarding(s, v == 0); },
        last);
    std::cout << fmt::format("SLB MUX forwarding (VXLAN) vs a plain ns-3 router: {} clients x {} "
                             "UDP datagrams of {} B over {} flows each, every {} ns; median of "
                             "{}\n",
                             s.clients,
                             s.packets,
                             s.size,
                             s.flows,
                             s.interval.GetNanoSeconds(),
                             repeat);
    std::cout << fmt::format("{:<7} {:>23} {:>9} {:>10} {:>9} {:>9} {:>11} {:>9} {:>9} {:>9}\n",
                             "variant",
                             "wall_s min/med/max",
                             "packets",
                             "pps",
                             "sent",
                             "host_rx",
                             "host_bytes",
                             "received",
                             "vxlan_ok",
                             "mux_flows");
    AdcBenchRows rows;
    const uint64_t offered = static_cast<uint64_t>(s.clients) * s.packets;
    bool workDone = true;
    for (std::size_t v = 0; v < 2; ++v)
    {
        const Result& r = last[v];
        const AdcBenchSeries& sr = series[v];
        std::cout << fmt::format(
            "{:<7} {:>23} {:>9} {:>10.0f} {:>9} {:>9} {:>11} {:>9} {:>9} {:>9}\n",
            sr.name,
            sr.WallSpread(),
            sr.packets,
            sr.Pps(),
            r.sent,
            r.hostRx,
            r.hostRxBytes,
            r.received,
            v == 0 ? std::to_string(r.wellFormed) : "-",
            v == 0 ? std::to_string(r.muxFlows) : "-");
        workDone = workDone && r.sent == offered && r.received == offered && r.hostRx == offered &&
                   (v != 0 || (r.wellFormed == offered && r.encapsulated == offered));
        const std::string p = sr.name + "_";
        rows.emplace_back(p + "wall_s_median",
                          AdcCsvWriter::FormatFixed(AdcBenchSeries::Median(sr.walls), 3));
        rows.emplace_back(p + "packets", std::to_string(sr.packets));
        rows.emplace_back(p + "packets_per_wall_s", AdcCsvWriter::FormatFixed(sr.Pps(), 0));
        rows.emplace_back(p + "sent", std::to_string(r.sent));
        rows.emplace_back(p + "host_rx_packets", std::to_string(r.hostRx));
        rows.emplace_back(p + "host_rx_bytes", std::to_string(r.hostRxBytes));
        rows.emplace_back(p + "received", std::to_string(r.received));
    }
    rows.emplace_back("mux_vxlan_well_formed", std::to_string(last[0].wellFormed));
    rows.emplace_back("mux_flows", std::to_string(last[0].muxFlows));
    // Per packet the mux's packets are bigger by the tunnel's headers (same packet counts).
    const double perPacket = [&last]() {
        const double mux = last[0].hostRx ? double(last[0].hostRxBytes) / last[0].hostRx : 0;
        const double router = last[1].hostRx ? double(last[1].hostRxBytes) / last[1].hostRx : 0;
        return mux - router;
    }();
    std::cout << fmt::format("host link: a mux packet is {:.1f} bytes bigger than a router "
                             "packet on average (VXLAN adds {})\n",
                             perPacket,
                             kVxlanOverhead);
    rows.emplace_back("mux_extra_bytes_per_packet", AdcCsvWriter::FormatFixed(perPacket, 1));
    if (!workDone)
    {
        std::cout << "a variant lost or mangled datagrams (sent, host_rx, received or vxlan_ok "
                     "differs from the offered load): not comparable\n";
    }
    AdcBenchRatios ratios("slb-bench");
    ratios.Add(series[0], series[1], 0.9, workDone);
    ratios.Print(std::cout);
    ratios.AppendRows(rows);

    // b and c. DIP choice and flow-table memory.
    std::vector<Choice> choices{{"v4_1000dips", 1000, false},
                                {"v4_2dips", 2, false},
                                {"v6_1000dips", 1000, true}};
    for (Choice& c : choices)
    {
        RunChoice(c, tableFlows, repeat);
    }
    std::cout << fmt::format("\nSlbMux::Process per packet, {} distinct UDP flows, median of {} "
                             "(CPU ns/packet)\n",
                             tableFlows,
                             repeat);
    std::cout << fmt::format("{:<12} {:>9} {:>9} {:>13} {:>10} {:>10} {:>12}\n",
                             "config",
                             "new_flow",
                             "in_table",
                             "hash+maglev",
                             "created",
                             "hits",
                             "encapsulated");
    for (const Choice& c : choices)
    {
        std::cout << fmt::format("{:<12} {:>9.1f} {:>9.1f} {:>13.1f} {:>10} {:>10} {:>12}\n",
                                 c.name,
                                 c.newNs,
                                 c.hitNs,
                                 c.lookupNs,
                                 c.created,
                                 c.hits,
                                 c.encapsulated);
        const std::string p = "choice_" + c.name + "_";
        rows.emplace_back(p + "new_flow_ns", AdcCsvWriter::FormatFixed(c.newNs, 1));
        rows.emplace_back(p + "in_table_ns", AdcCsvWriter::FormatFixed(c.hitNs, 1));
        rows.emplace_back(p + "hash_maglev_ns", AdcCsvWriter::FormatFixed(c.lookupNs, 1));
    }

    const std::size_t target = 64;
    std::cout << fmt::format("\nMUX flow-table memory after {} flows (target <= {} bytes per "
                             "entry)\n",
                             tableFlows,
                             target);
    std::cout << fmt::format("{:<6} {:>9} {:>11} {:>10} {:>14} {:>14} {:>13}\n",
                             "family",
                             "entries",
                             "entry_bytes",
                             "target",
                             "slots/entry",
                             "heap/entry",
                             "rss/entry");
    for (std::size_t i : {std::size_t(0), std::size_t(2)})
    {
        const Choice& c = choices[i];
        const AdcIpAddress::Family f = c.v6 ? AdcIpAddress::V6 : AdcIpAddress::V4;
        const std::size_t entryBytes = SlbFlowTable::GetEntryBytes(f);
        const double slotsPer = c.entries ? static_cast<double>(c.slotBytes) / c.entries : 0;
        const std::string fam = c.v6 ? "ipv6" : "ipv4";
        std::cout << fmt::format("{:<6} {:>9} {:>11} {:>10} {:>14.1f} {:>14.1f} {:>13.1f}\n",
                                 fam,
                                 c.entries,
                                 entryBytes,
                                 entryBytes <= target ? "met" : "NOT met",
                                 slotsPer,
                                 c.heapPerEntry,
                                 c.rssPerEntry);
        const std::string p = "flow_table_" + fam + "_";
        rows.emplace_back(p + "entries", std::to_string(c.entries));
        rows.emplace_back(p + "entry_bytes", std::to_string(entryBytes));
        rows.emplace_back(p + "entry_bytes_target", std::to_string(target));
        rows.emplace_back(p + "entry_bytes_target_met", entryBytes <= target ? "yes" : "no");
        rows.emplace_back(p + "slot_bytes_per_entry", AdcCsvWriter::FormatFixed(slotsPer, 1));
        rows.emplace_back(p + "slot_bytes_per_entry_target_met", slotsPer <= target ? "yes" : "no");
        rows.emplace_back(p + "heap_bytes_per_entry", AdcCsvWriter::FormatFixed(c.heapPerEntry, 1));
        rows.emplace_back(p + "rss_bytes_per_entry", AdcCsvWriter::FormatFixed(c.rssPerEntry, 1));
    }
    std::cout << fmt::format("entry_bytes: SlbFlowTable::GetEntryBytes, the slot at the table's "
                             "highest load (3/4); slots/entry: allocated now, up to twice that "
                             "just after the table doubled; SlbMux::GetFlowEntryBytes(): {}\n",
                             SlbMux::GetFlowEntryBytes());
    rows.emplace_back("mux_flow_entry_bytes", std::to_string(SlbMux::GetFlowEntryBytes()));

    const int csvStatus = AdcBenchWriteCsv(csv, rows);
    const int ratiosStatus = ratios.WriteCsv(ratiosCsv);
    return AdcBenchExitStatus(ratios, csvStatus, ratiosStatus);
}
