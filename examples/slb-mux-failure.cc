/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * slb-mux-failure: the SDN software load balancer's MUX pool under thousands of persistent
 * connections while one MUX fails and another is added (Ananta, SIGCOMM 2013, section 5;
 * Maglev, NSDI 2016, section 3.4).
 *
 * SlbTopologyHelper's data centre: --clients client nodes, each with --connections persistent
 * HTTP connections to the VIP 107.105.47.60:80 (one request every --interval on each), --muxes
 * MUXes in service (one more deployed), DIPs on the first VM of --hosts hosts (one more host's VM
 * joins the VIP at --dipAddAt: a scale-out, the DIP-set change that tells the MUXes' selections
 * apart). At --failAt MUX --failMux fails (--failure=crash: it stops answering, the routers
 * withdraw its routes when their BGP hold timers, --holdTime, expire; --failure=remove: the SLB
 * manager takes it out of service, RemoveMux, and its speaker withdraws the routes); at --addAt
 * the spare MUX is put in service.
 *
 * Variants, run one after another: the MUXes' selection (Maglev with a flow table, Maglev
 * without, naive hash-modulo without) times the routers' ECMP (plain MODULO, RESILIENT).
 * A flow that changes MUX keeps its connection only when the new MUX picks the same DIP.
 * Broken connections are counted at the client (ClientConn): an established connection the
 * client dropped because a request on it failed (a timeout: a stall; a reset), counted in the
 * window of the change the stall began in. The MUXes' view (flows that changed DIP) is kept
 * for comparison only: it also counts connections the client had already abandoned.
 *
 * Output in --outputDir: load.csv, events.csv, flows.csv, summary.csv (see doc/slb.rst), and
 * requests-VARIANT.csv (one row per request, AdcRequestLog).
 *
 * Under mpirun with several ranks (a build against ./adc setup --mpi's ns-3) one variant is
 * simulated on SlbTopologyHelper's partition plan: the clients on ranks 1..N-1, the data
 * centre (edge, routers, MUXes, ToR, hosts) on rank 0, the clients' access links cut. Each
 * rank writes its clients' requests (requests-VARIANT.rankK.csv); rank 0, which simulates every
 * MUX and router, writes the other files with every rank's request counts;
 * ./adc run slb-mux-failure --ranks N runs the variants one after the other and merges them.
 */

#include "ns3/adc-bgp-speaker.h"
#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-ecmp-routing6.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-mpi.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/slb-host-agent.h"
#include "ns3/slb-host-switch.h"
#include "ns3/slb-manager.h"
#include "ns3/slb-mux.h"
#include "ns3/slb-topology-helper.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The command line.
struct Settings
{
    uint32_t muxes{4};            //!< MUXes in service at the start
    uint32_t clients{200};        //!< client nodes
    uint32_t connections{10};     //!< persistent connections per client
    uint32_t hosts{8};            //!< hosts holding the VIP's DIPs at the start
    double interval{2};           //!< seconds between two requests of a connection
    double start{0.5};            //!< clients start (s)
    double dipAddAt{4.5};         //!< a DIP joins the VIP (s; < 0: never)
    double failAt{8};             //!< a MUX fails (s)
    uint32_t failMux{0};          //!< which
    std::string failure{"crash"}; //!< crash (FailMux) or remove (SlbManager::RemoveMux)
    double holdTime{3};           //!< BGP hold time (s)
    double addAt{13};             //!< the spare MUX is added (s)
    double stop{22};              //!< end (s)
    double timeout{6};            //!< request timeout (s)
    double bin{0.5};              //!< load.csv bin (s)
    std::string variants{"all"};
    std::string outputDir{"results/slb-mux-failure"};
    uint32_t seed{1}; //!< RNG seed
    uint32_t run{1};  //!< RNG run
};

/// One variant: the MUXes' selection and the routers' ECMP.
struct Variant
{
    std::string name;      //!< e.g. "maglev-ft-plain"
    std::string selection; //!< MAGLEV or MODULO
    bool flowTable;        //!< MUX flow table
    std::string ecmp;      //!< MODULO or RESILIENT
};

/// \return every variant, in run order
std::vector<Variant>
AllVariants()
{
    std::vector<Variant> v;
    for (const std::string ecmp : {"MODULO", "RESILIENT"})
    {
        const std::string suffix = ecmp == "MODULO" ? "-plain" : "-resilient";
        v.push_back({"maglev-ft" + suffix, "MAGLEV", true, ecmp});
        v.push_back({"maglev" + suffix, "MAGLEV", false, ecmp});
        v.push_back({"naive" + suffix, "MODULO", false, ecmp});
    }
    return v;
}

/// What one flow (a 5-tuple at the MUXes) went through.
struct FlowState
{
    uint32_t mux{0};        //!< the MUX that carried its last packet
    AdcIpAddress dip;       //!< the DIP of its last packet
    bool muxChanged{false}; //!< carried by more than one MUX
    bool dipChanged{false}; //!< sent to more than one DIP: a broken connection
};

/**
 * One client application's connection as the application's traces show it. With
 * MaxConnections 1 an application has one connection at a time and its oldest open request is
 * the one on that connection (later ones queue): when that request fails (timeout, reset,
 * close) the client drops the connection, and the next request opens a new one (the server
 * chooser is called). A queued request that times out leaves the connection alone.
 */
struct ClientConn
{
    std::map<uint64_t, Time> open; //!< requests issued and not ended: id -> issue time
    Time lastEnd;                  //!< when the connection opened or its last request ended
    bool connected{false};         //!< a connection is open
    bool established{false};       //!< it completed a request (it was established)
    bool current{false};           //!< it is the connection that was open at the failure
    bool usedAfter{false};         //!< that one completed a request sent after the failure
    bool brokenAtFailure{false};   //!< that one broke in the failure's window
};

/// Connection counts (a vector so that MPI ranks sum them).
enum ConnCount
{
    C_OPEN_AT_FAILURE,    //!< live connections open at the failure
    C_STALLED_AT_FAILURE, //!< open at the failure, but already stalled (not the failure's)
    C_SURVIVED,           //!< open at the failure, a request sent after it completed, not broken
    C_BROKEN_BEFORE,      //!< broken, stall began before the failure (the DIP addition)
    C_BROKEN_FAILURE,     //!< broken, stall began from the failure to the MUX addition
    C_BROKEN_AFTER_ADD,   //!< broken, stall began at or after the MUX addition
    C_BROKEN_RESET,       //!< of the broken: by a reset or close, not a stall
    C_COUNTS              //!< how many
};

/// What one variant's run recorded (callbacks hold a raw pointer to it, never the objects).
struct Record
{
    Variant variant;                                       //!< the variant
    std::vector<ClientConn> conns;                         //!< per client application
    std::vector<uint64_t> connCounts;                      //!< ConnCount -> connections
    std::vector<Time> lastHeard;                           //!< per router: last KEEPALIVE or
                                                           //!< UPDATE from the failed MUX
    std::vector<uint8_t> lastHeardType;                    //!< its BGP message type
    std::map<AdcFlowKey, FlowState> flows;                 //!< every flow the MUXes tunnelled
    std::map<uint32_t, std::map<uint64_t, uint64_t>> load; //!< MUX -> bin -> packets
    std::vector<Time> withdrawn;                           //!< per router: failed MUX withdrawn
    std::vector<Time> learnt;                              //!< per router: new MUX learnt
    Time newMuxFirst{Time::Max()};                         //!< the new MUX's first packet
    uint64_t blackholed{0};                                //!< packets the failed MUX dropped
    std::map<std::string, uint64_t> muxDrops;              //!< the MUXes' own drops by reason
    AdcRequestTally tally;                                 //!< every request of every client
};

/// \param s settings \return the variants --variants names
std::vector<Variant>
Selected(const Settings& s)
{
    const std::vector<Variant> all = AllVariants();
    if (s.variants == "all")
    {
        return all;
    }
    std::vector<Variant> out;
    for (const std::string& n : AdcConfigError::SplitList(s.variants)) // names checked
    {
        out.push_back(
            *std::find_if(all.begin(), all.end(), [&n](const Variant& v) { return v.name == n; }));
    }
    return out;
}

/// \param s settings \param t the topology \param r the record: trace what the run does
void
Trace(const Settings& s, const SlbTopology& t, Record* r)
{
    const uint32_t added = s.muxes;
    const AdcIpAddress vip(Ipv4Address("107.105.47.60"));
    r->withdrawn.assign(t.routers.GetN(), Time::Max());
    r->learnt.assign(t.routers.GetN(), Time::Max());
    r->lastHeard.assign(t.routers.GetN(), Time::Max());
    r->lastHeardType.assign(t.routers.GetN(), 0);
    const Time event = Seconds(s.failAt);
    for (uint32_t j = 0; j < t.routers.GetN(); ++j)
    {
        const AdcIpAddress failed = t.muxAddress[s.failMux][j];
        const AdcIpAddress fresh = t.muxAddress[added][j];
        // RFC 4271 6.5: a KEEPALIVE or UPDATE restarts the hold timer. The last one heard
        // up to the failure tells when the timer runs out (events.csv; the CTest checks it).
        t.routerSpeaker[j]->TraceConnectWithoutContext(
            "Message",
            Callback<void, const AdcIpAddress&, const std::string&, const AdcBgpMessage&>(
                [r, j, failed, event](const AdcIpAddress& peer,
                                      const std::string& direction,
                                      const AdcBgpMessage& m) {
                    if (peer == failed && direction == "received" && Simulator::Now() <= event &&
                        (m.type == AdcBgpMessage::KEEPALIVE || m.type == AdcBgpMessage::UPDATE))
                    {
                        r->lastHeard[j] = Simulator::Now();
                        r->lastHeardType[j] = m.type;
                    }
                }));
        t.routerSpeaker[j]->TraceConnectWithoutContext(
            "RouteChange",
            Callback<void, const AdcBgpRouteChange&>(
                [r, j, vip, failed, fresh](const AdcBgpRouteChange& c) {
                    if (!(c.prefix == vip))
                    {
                        return;
                    }
                    if (!c.announced && c.nextHop == failed && r->withdrawn[j] == Time::Max())
                    {
                        r->withdrawn[j] = Simulator::Now();
                    }
                    if (c.announced && c.nextHop == fresh && r->learnt[j] == Time::Max())
                    {
                        r->learnt[j] = Simulator::Now();
                    }
                }));
    }
    const Time bin = Seconds(s.bin);
    for (uint32_t i = 0; i < t.mux.size(); ++i)
    {
        t.mux[i]->TraceConnectWithoutContext(
            "DipChoice",
            Callback<void, const AdcFlowKey&, const SlbDip&, bool>(
                [r, i](const AdcFlowKey& f, const SlbDip& d, bool) {
                    FlowState& st = r->flows.emplace(f, FlowState{i, d.address}).first->second;
                    st.muxChanged = st.muxChanged || st.mux != i;
                    st.dipChanged = st.dipChanged || !(st.dip == d.address);
                    st.mux = i;
                    st.dip = d.address;
                }));
        t.mux[i]->TraceConnectWithoutContext(
            "Encapsulate",
            Callback<void, const AdcFlowKey&, const AdcIpAddress&, uint32_t, uint16_t>(
                [r, i, bin, added](const AdcFlowKey&, const AdcIpAddress&, uint32_t, uint16_t) {
                    ++r->load[i][Simulator::Now().GetInteger() / bin.GetInteger()];
                    if (i == added && r->newMuxFirst == Time::Max())
                    {
                        r->newMuxFirst = Simulator::Now();
                    }
                }));
    }
    // The failed MUX's node drops what still reaches it (its interfaces are down): counted.
    t.muxes.Get(s.failMux)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Drop",
        Callback<void,
                 const Ipv4Header&,
                 Ptr<const Packet>,
                 Ipv4L3Protocol::DropReason,
                 Ptr<Ipv4>,
                 uint32_t>([r](const Ipv4Header&,
                               Ptr<const Packet>,
                               Ipv4L3Protocol::DropReason,
                               Ptr<Ipv4>,
                               uint32_t) { ++r->blackholed; }));
}

/// \return TCP's minimum retransmission timeout (TcpSocketBase::MinRto as configured)
Time
MinRto()
{
    TypeId::AttributeInformation info;
    TcpSocketBase::GetTypeId().LookupAttributeByName("MinRto", &info);
    return DynamicCast<const TimeValue>(info.initialValue)->Get();
}

/**
 * \brief Follow client application \p i's connections through its traces (ClientConn).
 *
 * A broken connection: an established one (it completed a request) that the client dropped
 * because the request on it failed. A timeout is a stall that began when that request went on
 * the connection; a reset or close began when it came. Counted by when it began: before the
 * failure less one minimum RTO (TCP had already retransmitted: the failure did not cause it),
 * up to the MUX addition (the failure's), or after.
 * \param s settings \param c the application \param remote the VIP \param r the record
 * \param i the application's index \param minRto MinRto()
 */
void
WatchClient(const Settings& s,
            Ptr<AdcHttpClient> c,
            const Address& remote,
            Record* r,
            uint32_t i,
            Time minRto)
{
    // The chooser is called exactly when the application opens a connection.
    c->SetServerChooser(Callback<Address, const std::string&, uint64_t>(
        [r, i, remote](const std::string&, uint64_t) {
            ClientConn& k = r->conns[i];
            k.connected = true;
            k.established = false;
            k.current = false;
            k.lastEnd = Simulator::Now();
            return remote;
        }));
    c->TraceConnectWithoutContext(
        "RequestSent",
        Callback<void, const AdcRequestRecord&>(
            [r, i](const AdcRequestRecord& q) { r->conns[i].open[q.requestId] = q.start; }));
    const Time failAt = Seconds(s.failAt);
    const Time addAt = Seconds(s.addAt);
    c->TraceConnectWithoutContext(
        "RequestDone",
        Callback<void, const AdcRequestRecord&>([r, i, failAt, addAt, minRto](
                                                    const AdcRequestRecord& q) {
            ClientConn& k = r->conns[i];
            const auto it = k.open.find(q.requestId);
            if (it == k.open.end())
            {
                return;
            }
            const bool onConn = it == k.open.begin();
            const Time dispatched = std::max(it->second, k.lastEnd);
            k.open.erase(it);
            if (!onConn || !k.connected || q.outcome == AdcRequestOutcome::OPEN_AT_STOP)
            {
                return; // a queued request timed out, or the run ended
            }
            if (q.outcome == AdcRequestOutcome::COMPLETED || q.reason.rfind("http-status-", 0) == 0)
            {
                k.lastEnd = Simulator::Now();
                k.established = true;
                k.usedAfter = k.usedAfter || (k.current && dispatched >= failAt);
                return;
            }
            k.connected = false; // the client drops the connection
            if (k.established)
            {
                const bool stall = q.reason == "timeout";
                const Time began = stall ? dispatched : Simulator::Now();
                const ConnCount w = began < failAt - minRto ? C_BROKEN_BEFORE
                                    : began < addAt         ? C_BROKEN_FAILURE
                                                            : C_BROKEN_AFTER_ADD;
                ++r->connCounts[w];
                r->connCounts[C_BROKEN_RESET] += stall ? 0 : 1;
                k.brokenAtFailure = k.brokenAtFailure || (k.current && w == C_BROKEN_FAILURE);
            }
            k.current = false;
        }));
}

/// \param r the record \param failAt the failure \param minRto MinRto(): at the failure, count
/// the live connections, and those already stalled (their request out for a minimum RTO)
void
SnapshotAtFailure(Record* r, Time failAt, Time minRto)
{
    for (ClientConn& k : r->conns)
    {
        if (!k.connected || !k.established)
        {
            continue; // none, or still connecting
        }
        if (!k.open.empty() && std::max(k.open.begin()->second, k.lastEnd) < failAt - minRto)
        {
            ++r->connCounts[C_STALLED_AT_FAILURE];
            continue;
        }
        ++r->connCounts[C_OPEN_AT_FAILURE];
        k.current = true;
    }
}

/// \param s settings \param v the variant \return what its run recorded
Record
RunOne(const Settings& s, const Variant& v)
{
    Record r;
    r.variant = v;
    Ptr<SlbTopologyHelper> h = CreateObject<SlbTopologyHelper>();
    h->SetAttribute("Clients", UintegerValue(s.clients));
    h->SetAttribute("Muxes", UintegerValue(s.muxes + 1));
    h->SetAttribute("MuxesInService", UintegerValue(s.muxes));
    h->SetAttribute("Hosts", UintegerValue(s.hosts + 1));
    h->SetAttribute("HoldTime", TimeValue(Seconds(s.holdTime)));
    h->SetAttribute("EcmpMode", StringValue(v.ecmp));
    h->SetAttribute("MuxSelection", StringValue(v.selection));
    h->SetAttribute("MuxFlowTable", BooleanValue(v.flowTable));
    h->SetAttribute("Partitions", UintegerValue(AdcMpi::GetSize())); // one rank: no MPI
    SlbTopology t = h->Build();
    Trace(s, t, &r);

    // The seed's VIP with the first VM of every host but the last as DIPs.
    const AdcIpAddress vip(Ipv4Address("107.105.47.60"));
    t.manager->AddVip("SHAREPOINT", {vip, AdcFlowKey::PROTO_TCP, 80}, SlbVipKind::PUBLIC);
    auto dipOf = [&t](uint32_t host) {
        SlbDip d;
        d.address = t.vmAddress[t.Vm(host, 0)];
        d.port = 80;
        d.vni = t.vmVni[t.Vm(host, 0)];
        return d;
    };
    for (uint32_t host = 0; host < s.hosts; ++host)
    {
        t.manager->AddDip("SHAREPOINT", dipOf(host), t.hostNames[host]);
    }
    t.manager->Commit();
    for (uint32_t k = 0; k < t.vms.GetN(); ++k)
    {
        Ptr<AdcHttpServer> server = CreateObject<AdcHttpServer>();
        server->SetAttribute("Port", UintegerValue(80));
        server->SetAttribute("ServerName", StringValue(t.NameOf(t.vms.Get(k))));
        t.vms.Get(k)->AddApplication(server);
    }

    // One application per persistent connection, started spread over one interval.
    std::vector<Ptr<AdcHttpClient>> apps;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->SetAttribute("FileName", StringValue(s.outputDir + "/requests-" + v.name + ".csv"));
    const uint32_t total = s.clients * s.connections;
    const std::string gap =
        "ns3::ConstantRandomVariable[Constant=" + AdcCsvWriter::FormatFixed(s.interval, 6) + "]";
    for (uint32_t i = 0; i < total; ++i)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(vip.GetIpv4(), 80)));
        c->SetAttribute("InterRequestTime", StringValue(gap));
        c->SetAttribute("Persistent", BooleanValue(true));
        c->SetAttribute("MaxConnections", UintegerValue(1));
        c->SetAttribute("RequestTimeout", TimeValue(Seconds(s.timeout)));
        // No new request in the last timeout: every request ends before the stop.
        c->SetAttribute("RequestStopTime", TimeValue(Seconds(s.stop - s.timeout - 0.5)));
        t.clients.Get(i % s.clients)->AddApplication(c);
        c->SetStartTime(Seconds(s.start + s.interval * i / total));
        c->SetStopTime(Seconds(s.stop));
        log->Watch(c);
        apps.push_back(c);
    }
    r.conns.resize(total);
    r.connCounts.assign(C_COUNTS, 0);
    const Time minRto = MinRto();
    for (uint32_t i = 0; i < total; ++i)
    {
        WatchClient(s, apps[i], InetSocketAddress(vip.GetIpv4(), 80), &r, i, minRto);
    }
    // Fixed random streams (ARP jitter, the agents' probe jitter, the clients' draws): ns-3
    // numbers the others as they are created, so a variant's run would depend on the variants
    // run before it in the process and, under MPI, on what each rank starts.
    int64_t stream = 1000;
    stream += AdcAssignNetworkStreams(stream);
    for (const auto& agent : t.hostAgent)
    {
        stream += agent->AssignStreams(stream);
    }
    for (const auto& c : apps)
    {
        stream += c->AssignStreams(stream);
    }
    // Under MPI every rank built every application (same random streams as one process);
    // those of other ranks' nodes never start.
    AdcMpi::SilenceRemoteApplications();

    if (s.dipAddAt >= 0)
    {
        Simulator::Schedule(Seconds(s.dipAddAt), [&t, &s, dipOf]() {
            t.manager->AddDip("SHAREPOINT", dipOf(s.hosts), t.hostNames[s.hosts]);
        });
    }
    // The snapshot first: the connections as they were when the MUX failed.
    Simulator::Schedule(Seconds(s.failAt),
                        [&r, &s, minRto]() { SnapshotAtFailure(&r, Seconds(s.failAt), minRto); });
    Simulator::Schedule(Seconds(s.failAt), [&t, &s]() {
        if (s.failure == "crash")
        {
            SlbTopologyHelper::FailMux(t, s.failMux);
        }
        else // an orderly removal: the manager withdraws its routes, it keeps forwarding
        {
            t.manager->RemoveMux(t.muxNames[s.failMux]);
        }
    });
    Simulator::Schedule(Seconds(s.addAt), [&t, &s]() { t.manager->AddMux(t.muxNames[s.muxes]); });
    Simulator::Stop(Seconds(s.stop));
    Simulator::Run();

    log->GatherRanks(); // every rank's requests (collective; nothing changes on one rank)
    r.tally = log->GetTally();
    for (const ClientConn& k : r.conns)
    {
        r.connCounts[C_SURVIVED] += k.usedAfter && !k.brokenAtFailure ? 1 : 0;
    }
    AdcMpi::Sum(r.connCounts); // the clients' ranks' counts (collective)
    log->Close();
    for (const auto& m : t.mux)
    {
        for (const auto& [reason, n] : m->GetCounters().drops)
        {
            r.muxDrops[reason] += n;
        }
    }
    Simulator::Destroy();
    return r;
}

/// \param t a time (Time::Max: never) \return seconds, or "never"
std::string
Sec(Time t)
{
    return t == Time::Max() ? "never" : AdcCsvWriter::FormatFixed(t.GetSeconds(), 6);
}

/// \param times per router \return the latest (Time::Max when one never happened)
Time
Latest(const std::vector<Time>& times)
{
    return times.empty() ? Time::Max() : *std::max_element(times.begin(), times.end());
}

/// \param s settings \param rows every variant's record: write the CSV files and the summary
/// \return true when every request ended accounted for
bool
Write(const Settings& s, const std::vector<Record>& rows)
{
    const std::string dir = s.outputDir;
    AdcCsvWriter load(dir + "/load.csv", {"time_s", "variant", "mux", "packets"});
    AdcCsvWriter events(dir + "/events.csv", {"variant", "event", "router", "time_s"});
    AdcCsvWriter flows(dir + "/flows.csv",
                       {"variant",
                        "flows",
                        "changed_mux",
                        "changed_dip",
                        "sent",
                        "completed",
                        "failed",
                        "failed_reasons",
                        "open_at_stop",
                        "blackholed_packets",
                        "mux_drops",
                        "open_at_failure",
                        "stalled_at_failure",
                        "survived",
                        "broken",
                        "broken_before_failure",
                        "broken_at_failure",
                        "broken_after_add",
                        "broken_by_reset"});
    AdcCsvWriter summary(dir + "/summary.csv",
                         {"variant",
                          "detect_s",
                          "respread_s",
                          "new_mux_first_packet_s",
                          "flows",
                          "changed_mux",
                          "changed_dip",
                          "open_at_failure",
                          "survived",
                          "broken",
                          "broken_at_failure",
                          "completed",
                          "failed",
                          "open"});
    const uint64_t bins = static_cast<uint64_t>(s.stop / s.bin);
    bool balanced = true;
    for (const Record& r : rows)
    {
        const std::string& name = r.variant.name;
        for (uint32_t m = 0; m <= s.muxes; ++m)
        {
            const auto it = r.load.find(m);
            for (uint64_t b = 0; b < bins; ++b)
            {
                uint64_t n = 0;
                if (it != r.load.end() && it->second.count(b))
                {
                    n = it->second.at(b);
                }
                load.WriteRow({AdcCsvWriter::FormatFixed(b * s.bin, 3),
                               name,
                               "MUX" + std::to_string(m + 1),
                               std::to_string(n)});
            }
        }
        const std::string failed = "MUX" + std::to_string(s.failMux + 1);
        events.WriteRow({name,
                         (s.failure == "crash" ? "fail " : "remove ") + failed,
                         "",
                         Sec(Seconds(s.failAt))});
        events.WriteRow({name, "add MUX" + std::to_string(s.muxes + 1), "", Sec(Seconds(s.addAt))});
        if (s.dipAddAt >= 0)
        {
            events.WriteRow({name, "add DIP", "", Sec(Seconds(s.dipAddAt))});
        }
        for (std::size_t j = 0; j < r.withdrawn.size(); ++j)
        {
            const std::string router = "router" + std::to_string(j + 1);
            // The hold timer's last restart before the failure (its expiry is the withdraw).
            const std::string what =
                r.lastHeardType[j] == AdcBgpMessage::UPDATE ? "UPDATE" : "KEEPALIVE";
            events.WriteRow(
                {name, "last " + what + " from " + failed, router, Sec(r.lastHeard[j])});
            events.WriteRow({name, "withdraw", router, Sec(r.withdrawn[j])});
            events.WriteRow({name, "learn", router, Sec(r.learnt[j])});
        }
        events.WriteRow({name, "new MUX first packet", "", Sec(r.newMuxFirst)});

        uint64_t changedMux = 0;
        uint64_t changedDip = 0;
        for (const auto& [flow, st] : r.flows)
        {
            changedMux += st.muxChanged;
            changedDip += st.dipChanged;
        }
        // Broken connections, as the clients saw them (WatchClient): every change's.
        const std::vector<uint64_t>& c = r.connCounts;
        const uint64_t broken = c[C_BROKEN_BEFORE] + c[C_BROKEN_FAILURE] + c[C_BROKEN_AFTER_ADD];
        std::string reasons;
        for (const auto& [reason, n] : r.tally.failureReasons)
        {
            reasons += (reasons.empty() ? "" : ";") + reason + "=" + std::to_string(n);
        }
        std::string drops;
        for (const auto& [reason, n] : r.muxDrops)
        {
            drops += (drops.empty() ? "" : ";") + reason + "=" + std::to_string(n);
        }
        flows.WriteRow({name,
                        std::to_string(r.flows.size()),
                        std::to_string(changedMux),
                        std::to_string(changedDip),
                        std::to_string(r.tally.sent),
                        std::to_string(r.tally.completed),
                        std::to_string(r.tally.failed),
                        reasons,
                        std::to_string(r.tally.openAtStop),
                        std::to_string(r.blackholed),
                        drops,
                        std::to_string(c[C_OPEN_AT_FAILURE]),
                        std::to_string(c[C_STALLED_AT_FAILURE]),
                        std::to_string(c[C_SURVIVED]),
                        std::to_string(broken),
                        std::to_string(c[C_BROKEN_BEFORE]),
                        std::to_string(c[C_BROKEN_FAILURE]),
                        std::to_string(c[C_BROKEN_AFTER_ADD]),
                        std::to_string(c[C_BROKEN_RESET])});
        const Time withdrawn = Latest(r.withdrawn);
        const Time learnt = Latest(r.learnt);
        const std::string detect =
            withdrawn == Time::Max() ? "never" : Sec(withdrawn - Seconds(s.failAt));
        const std::string respread =
            learnt == Time::Max() ? "never" : Sec(learnt - Seconds(s.addAt));
        const std::string first =
            r.newMuxFirst == Time::Max() ? "never" : Sec(r.newMuxFirst - Seconds(s.addAt));
        summary.WriteRow({name,
                          detect,
                          respread,
                          first,
                          std::to_string(r.flows.size()),
                          std::to_string(changedMux),
                          std::to_string(changedDip),
                          std::to_string(c[C_OPEN_AT_FAILURE]),
                          std::to_string(c[C_SURVIVED]),
                          std::to_string(broken),
                          std::to_string(c[C_BROKEN_FAILURE]),
                          std::to_string(r.tally.completed),
                          std::to_string(r.tally.failed),
                          std::to_string(r.tally.openAtStop)});
        std::cout << name << ": detect " << detect << " s, new MUX learnt after " << respread
                  << " s (first packet after " << first << " s), flows " << r.flows.size()
                  << ", changed MUX " << changedMux << ", changed DIP " << changedDip
                  << "; connections open at the failure " << c[C_OPEN_AT_FAILURE]
                  << ", survived it " << c[C_SURVIVED] << ", broken " << broken
                  << " (before the failure " << c[C_BROKEN_BEFORE] << ", at it "
                  << c[C_BROKEN_FAILURE] << ", after the addition " << c[C_BROKEN_AFTER_ADD]
                  << "); requests " << r.tally.ToString() << "; blackholed at the failed MUX "
                  << r.blackholed << std::endl;
        if (!r.tally.IsBalanced())
        {
            std::cerr << "slb-mux-failure: " << name
                      << ": requests not all accounted for: " << r.tally.ToString() << std::endl;
            balanced = false;
        }
    }
    return balanced;
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    AdcExperiment exp("slb-mux-failure",
                      "The SLB's MUX pool under thousands of persistent connections: a DIP "
                      "joins, a MUX fails, a MUX is added; Maglev with and without a flow table "
                      "and naive modulo, each behind plain and resilient ECMP: detection time, "
                      "load per MUX, broken connections.");
    exp.Add("muxes",
            "MUXes in service at the start (one more is deployed, and one SLB manager supports " +
                std::to_string(SlbManager::kMaxMuxes) + ")",
            s.muxes)
        .Min(3)
        .Max(SlbManager::kMaxMuxes - 1);
    exp.Add("clients", "client nodes", s.clients).Min(1).Max(250);
    exp.Add("connections", "persistent connections per client", s.connections).Min(1).Max(100);
    exp.Add("hosts", "hosts whose first VM is a DIP at the start (one more joins)", s.hosts)
        .Min(2)
        .Max(249);
    exp.Add("interval", "seconds between two requests on a connection", s.interval)
        .Min(0.001)
        .Max(60);
    exp.Add("start", "clients start (s)", s.start).Min(0);
    exp.Add("dipAddAt",
            "a DIP (the last host's VM) joins the VIP (s; < 0: never); a connection opens "
            "with its first request, one interval after its start",
            s.dipAddAt);
    exp.Add("failAt", "a MUX fails (s; from --start to --stop)", s.failAt).Min(0);
    exp.LessOrEqual("start", "failAt");
    exp.LessOrEqual("failAt", "stop");
    exp.Add("failMux", "index of the MUX that fails", s.failMux);
    exp.Index("failMux", "muxes");
    exp.Add("failure",
            "how it leaves: crash (it stops answering; the routers notice when their BGP hold "
            "timers expire) or remove (SlbManager::RemoveMux: its routes are withdrawn)",
            s.failure)
        .OneOf({"crash", "remove"});
    exp.Add("holdTime",
            "BGP hold time (s; RFC 4271 4.2: at least 3; keepalives every third)",
            s.holdTime)
        .Min(3)
        .Max(65535);
    exp.Add("addAt", "the spare MUX is put in service (s; from --start to --stop)", s.addAt).Min(0);
    exp.LessOrEqual("start", "addAt");
    exp.LessOrEqual("addAt", "stop");
    exp.Add("stop", "end of each run (s; at least --start + 1)", s.stop).Min(1).Max(3600);
    exp.Add("timeout",
            "client request timeout (s); above the detection time a connection can outlive "
            "the failure",
            s.timeout)
        .Min(0.01)
        .Max(60);
    exp.Add("bin", "load.csv time bin (s)", s.bin).Min(0.01).Max(60);
    std::vector<std::string> names{"all"};
    for (const auto& v : AllVariants())
    {
        names.push_back(v.name);
    }
    exp.AddList("variants", "all, or comma-separated variants", s.variants).OneOf(names);
    exp.AddOutputDir("outputDir", "where the CSV files go", s.outputDir);
    exp.AddSeedAndRun(s.seed, s.run);
    exp.AddCheck([&s, &exp]() {
        if (s.stop < s.start + 1)
        {
            exp.Refuse("stop", "allowed >= --start + 1 (" + exp.Get("start").GetText() + " + 1)");
        }
        if (s.dipAddAt > s.stop)
        {
            exp.Refuse("dipAddAt",
                       "allowed < 0 (never) or <= --stop (" + exp.Get("stop").GetText() + ")");
        }
        const std::vector<std::string> items = AdcConfigError::SplitList(s.variants);
        if (items.size() > 1 && std::find(items.begin(), items.end(), "all") != items.end())
        {
            exp.Refuse("variants", "allowed all alone, or a list of variants");
        }
    });
    exp.AddLoadLimits([&s]() {
        const double runs = s.variants == "all" ? AllVariants().size()
                                                : AdcConfigError::SplitList(s.variants).size();
        const double connections = double(s.clients) * s.connections;
        return AdcExperiment::Load{double(s.clients),
                                   connections * (s.stop - s.start) / s.interval * runs,
                                   0,
                                   0};
    });
    exp.UseMpi(); // under mpirun with several ranks: ns-3's MPI engine
    return exp.Run(argc, argv, [&s]() {
        const std::vector<Variant> variants = Selected(s);
        AdcMpi::CheckOneSimulation("slb-mux-failure",
                                   "--variants=" + s.variants,
                                   variants.size(),
                                   "variants");
        std::vector<Record> rows;
        for (const Variant& v : variants)
        {
            std::cerr << "slb-mux-failure: " << v.name << " ..." << std::endl;
            rows.push_back(RunOne(s, v));
        }
        // The MUXes and routers are rank 0's: it writes the files (with every rank's requests).
        return AdcMpi::GetRank() != 0 || Write(s, rows) ? 0 : 1;
    });
}
