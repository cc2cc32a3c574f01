/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ilb-topologies: the same client load through the Integrated Load Balancer in its three
 * topologies (seed 001): DSR, Half-NAT and Full-NAT, one run each with the same seed.
 *
 * Clients fetch 20 kB objects over HTTP/1.1 (one connection per request, Poisson arrivals)
 * from the VIP; the ILB spreads the connections over the back-end pool. What differs between
 * the topologies is what the ILB rewrites and which way the responses go:
 * - DSR: only the destination MAC; servers own the VIP and answer the clients directly, so
 *   no response packet crosses the ILB (unless --ilbIsRouter), and servers see client IPs.
 *   DSR keeps no connection state and balances every packet, so its run uses --dsrAlgorithm
 *   (default hash-ip-port, one server per connection), not --algorithm;
 * - Half-NAT: destination IP and port; responses come back through the ILB, which restores
 *   the VIP as their source; servers see client IPs;
 * - Full-NAT: source too; servers see the NAT source addresses only.
 *
 * Output in --outputDir, per topology TOPO: requests-TOPO.csv (one row per request),
 * throughput-TOPO.csv (clients' received bytes per interval), load-TOPO.csv (requests and bytes
 * per server, adc-plot.py's format), ilb-TOPO.csv (packets and bytes through the ILB per
 * direction, from its client-side port and from the appliance's counters), seen-TOPO.csv (the
 * client addresses each server saw, from its access log); summary.csv (one row per topology);
 * pcap/TOPO-client-side-*.pcap and pcap/TOPO-server-lan-*.pcap (first topology, or all with
 * --pcapAll). Plots: utils/ilb-plot.py and utils/adc-plot.py on the directory.
 *
 * --config=SCRIPT configures the ILB from an ilbadm script instead (examples/ilb-dsr.ilbadm,
 * ilb-halfnat.ilbadm, ilb-fullnat.ilbadm): the run's topology is its first enabled rule's type,
 * the test bed is IlbHelper's (the script's VIP, port, servers and proxy-src must be the test
 * bed's addresses), and IlbadmHelper installs the server group, health check and rule. With
 * --show the run also writes ilbadm-show-TOPO.txt: what ilbadm's show-* subcommands and
 * export-config print about the ILB at the end of the run.
 *
 * Under mpirun with several ranks (a build against ./adc setup --mpi's ns-3) one topology is
 * simulated on IlbHelper's partition plan: the clients on ranks 1..N-1, the routers, the ILB
 * and the servers on rank 0 (the client links are cut). Each rank writes its requests and
 * throughput (NAME.rankK.csv), rank 0 the ILB's, the servers' and the summary files;
 * ./adc run ilb-topologies --ranks N runs the topologies one after the other and merges them.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-config-reader.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-ilbadm-commands.h"
#include "ns3/adc-mpi.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-throughput-sampler.h"
#include "ns3/core-module.h"
#include "ns3/ilb-appliance.h"
#include "ns3/ilb-helper.h"
#include "ns3/ilbadm-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("IlbTopologies");

namespace
{

/// The experiment's settings, all settable from the command line.
struct Settings
{
    uint32_t clients{10};
    uint32_t servers{3};
    double duration{10};
    double rate{2};
    uint32_t objectSize{20000};
    std::string topologies{"DSR,HALF_NAT,FULL_NAT"};
    std::string algorithm{"roundrobin"};
    std::string dsrAlgorithm{"hash-ip-port"};
    bool ipv6{false};
    bool ilbIsRouter{false};
    uint32_t serverPort{0};
    std::string natRange{"10.200.0.1-10.200.0.4"};
    std::string natRange6{"fd00:200::1-fd00:200::4"};
    std::string natPorts{"4096-65534"}; // illumos ilb_nat.c
    bool sticky{false};
    uint32_t stickyPrefix{32};
    std::string healthCheck{"TCP"};
    double hcInterval{1};
    double hcTimeout{0.5};
    uint32_t hcRetries{2};
    std::string config;
    bool show{false};
    int32_t failServer{-1};
    double failAt{5};
    double timeout{4};
    bool pcap{true};
    bool pcapAll{false};
    bool checksums{false};
    std::string outputDir{"results/ilb-topologies"};
    uint32_t seed{1};
    uint32_t run{1};
};

/// What the servers' access logs and the ILB's ports recorded during one run.
struct Observed
{
    std::vector<std::map<std::string, uint64_t>> seen; //!< per server: peer IP -> requests
    uint64_t requestPackets{0};                        //!< frames into the ILB from clients
    uint64_t requestBytes{0};                          //!< their bytes
    uint64_t responsePackets{0};                       //!< frames out of the ILB to clients
    uint64_t responseBytes{0};                         //!< their bytes
};

void
OnAccess(Observed* o,
         uint32_t server,
         const std::string& peerIp,
         const std::string&,
         const std::string&,
         Time)
{
    o->seen[server][peerIp]++;
}

void
OnRequestFrame(Observed* o, Ptr<const Packet> p)
{
    o->requestPackets++;
    o->requestBytes += p->GetSize();
}

void
OnResponseFrame(Observed* o, Ptr<const Packet> p)
{
    o->responsePackets++;
    o->responseBytes += p->GetSize();
}

/// One row of summary.csv.
struct Summary
{
    std::string topology;
    uint64_t sent{0};
    uint64_t completed{0};
    uint64_t failed{0};
    uint64_t openAtStop{0};
    double meanMs{0};
    double p95Ms{0};
    Observed obs;
    IlbAppliance::Counters rule;
    uint64_t natExhausted{0};
    uint64_t distinctSeen{0};
};

Ptr<IlbHelper>
MakeHelper(const Settings& s, const std::string& topology)
{
    Ptr<IlbHelper> h = CreateObject<IlbHelper>();
    h->SetAttribute("NumClients", UintegerValue(s.clients));
    h->SetAttribute("NumServers", UintegerValue(s.servers));
    h->SetAttribute("Topology", StringValue(topology));
    h->SetAttribute("Ipv6", BooleanValue(s.ipv6));
    // DSR keeps no connection state (illumos ilb_check): every packet is balanced, so DSR needs
    // an algorithm that keeps a connection on one server (illumos's documentation: use a hash
    // or sticky with DSR); roundrobin would send one connection's packets to several servers.
    h->SetAttribute("Algorithm", StringValue(topology == "DSR" ? s.dsrAlgorithm : s.algorithm));
    h->SetAttribute("IlbIsRouter", BooleanValue(s.ilbIsRouter));
    // DSR cannot rewrite the port: its servers serve on the VIP port.
    h->SetAttribute("ServerPort", UintegerValue(topology == "DSR" ? 0 : s.serverPort));
    h->SetAttribute("NatSourceRange", StringValue(s.natRange));
    h->SetAttribute("NatSourceRange6", StringValue(s.natRange6));
    h->SetAttribute("NatPorts", StringValue(s.natPorts));
    h->SetAttribute("Sticky", BooleanValue(s.sticky));
    h->SetAttribute(s.ipv6 ? "StickyPrefix6" : "StickyPrefix", UintegerValue(s.stickyPrefix));
    h->SetAttribute("HealthCheck", StringValue(s.healthCheck));
    h->SetAttribute("HealthCheckInterval", TimeValue(Seconds(s.hcInterval)));
    h->SetAttribute("HealthCheckTimeout", TimeValue(Seconds(s.hcTimeout)));
    h->SetAttribute("HealthCheckRetries", UintegerValue(s.hcRetries));
    // Under MPI: the clients on ranks 1..N-1, the routers, the ILB and the servers on rank 0.
    h->SetAttribute("Partitions", UintegerValue(AdcMpi::GetSize()));
    return h;
}

/// \return the first enabled rule of an ilbadm configuration \throw AdcConfigError if none
Ptr<AdcIlbadmRule>
ScriptRule(const AdcConfigStore& store, const std::string& file)
{
    for (const Ptr<AdcIlbadmRule>& r : store.GetAll<AdcIlbadmRule>(AdcIlbadmCommands::RULE))
    {
        if (r->enabled)
        {
            return r;
        }
    }
    throw AdcConfigError("ilb-topologies: --config " + file +
                         " enables no rule; allowed a script with create-rule -e");
}

/// \return the topology an ilbadm rule's type names
std::string
ScriptTopology(const AdcIlbadmRule& rule)
{
    return rule.rule.topology == IlbRule::DSR
               ? "DSR"
               : (rule.rule.topology == IlbRule::HALF_NAT ? "HALF_NAT" : "FULL_NAT");
}

/**
 * \brief The test bed of an ilbadm script's rule: IlbHelper's, with the rule's VIP, port and
 * proxy-src, as many servers as its group and no ILB of its own (IlbadmHelper installs it).
 * \throw AdcConfigError for a rule the test bed cannot carry (port range, UDP, servers on
 * different ports)
 */
Ptr<IlbHelper>
MakeScriptHelper(const Settings& s, const AdcIlbadmRule& rule)
{
    const IlbRule& r = rule.rule;
    const std::string who = "ilb-topologies: --config " + s.config + ": rule '" + r.name + "'";
    if (r.ports.last != r.ports.first || r.protocol != AdcFlowKey::PROTO_TCP)
    {
        throw AdcConfigError(who + ": the clients speak HTTP to one TCP port; allowed "
                                   "-i ...,port=<one port>,protocol=tcp");
    }
    const std::vector<IlbServer>& servers = rule.group->servers;
    for (const IlbServer& sv : servers)
    {
        if (sv.port != servers.front().port)
        {
            throw AdcConfigError(who + ": server " + sv.name + " has port " +
                                 std::to_string(sv.port) +
                                 "; the test bed's servers share one port: allowed " +
                                 std::to_string(servers.front().port));
        }
    }
    Ptr<IlbHelper> h = MakeHelper(s, ScriptTopology(rule));
    h->SetAttribute("InstallIlb", BooleanValue(false));
    h->SetAttribute("HealthCheck", StringValue("NONE")); // the script's create-healthcheck
    h->SetAttribute("NumServers", UintegerValue(servers.size()));
    h->SetAttribute("Ipv6", BooleanValue(r.vip.IsV6()));
    h->SetAttribute(r.vip.IsV6() ? "Vip6" : "Vip", StringValue(r.vip.ToString()));
    h->SetAttribute("VipPort", UintegerValue(r.ports.first));
    h->SetAttribute("ServerPort", UintegerValue(servers.empty() ? 0 : servers.front().port));
    h->SetAttribute("RuleName", StringValue(r.name));
    if (r.topology == IlbRule::FULL_NAT)
    {
        h->SetAttribute(
            r.vip.IsV6() ? "NatSourceRange6" : "NatSourceRange",
            StringValue(r.natSourceFirst.ToString() + "-" + r.natSourceLast.ToString()));
    }
    return h;
}

/// \throw AdcConfigError when the script's servers are not the test bed's, in order
void
CheckScriptServers(const Settings& s, const AdcIlbadmRule& rule, const IlbTopology& t)
{
    std::vector<std::string> allowed;
    for (const AdcIpAddress& a : t.serverAddresses)
    {
        allowed.push_back(a.ToString());
    }
    const std::vector<IlbServer>& servers = rule.group->servers;
    for (std::size_t i = 0; i < servers.size(); ++i)
    {
        if (servers[i].address != t.serverAddresses[i])
        {
            throw AdcConfigError("ilb-topologies: --config " + s.config + ": server " +
                                 servers[i].name + " " + servers[i].address.ToString() +
                                 " is not the test bed's server " + std::to_string(i + 1) +
                                 "; allowed, in order: " + AdcConfigError::JoinAllowed(allowed));
        }
    }
}

/// Write what ilbadm's read side prints about the ILB now, as ilbadm-show-TOPO.txt.
void
WriteShow(const Settings& s, const std::string& topology, const IlbadmHelper& ilbadm)
{
    std::ofstream out(s.outputDir + "/ilbadm-show-" + topology + ".txt");
    for (const char* cmd : {"show-rule",
                            "show-rule -f",
                            "show-server",
                            "show-servergroup",
                            "show-healthcheck",
                            "show-hc-result",
                            "show-statistics -a",
                            "show-nat",
                            "show-persist",
                            "export-config"})
    {
        out << "# ilbadm " << cmd << "\n" << ilbadm.Show(cmd) << "\n";
    }
    if (!out)
    {
        throw AdcConfigError("ilb-topologies: cannot write " + s.outputDir + "/ilbadm-show-" +
                             topology + ".txt");
    }
}

void
WriteFiles(const Settings& s, const IlbTopology& t, const Summary& sum, ApplicationContainer srv)
{
    const std::string& topo = sum.topology;
    {
        AdcCsvWriter ilb(s.outputDir + "/ilb-" + topo + ".csv",
                         {"topology", "source", "direction", "packets", "bytes"});
        ilb.WriteRow({topo,
                      "client-side-port",
                      "request",
                      std::to_string(sum.obs.requestPackets),
                      std::to_string(sum.obs.requestBytes)});
        ilb.WriteRow({topo,
                      "client-side-port",
                      "response",
                      std::to_string(sum.obs.responsePackets),
                      std::to_string(sum.obs.responseBytes)});
        ilb.WriteRow({topo,
                      "rule-counters",
                      "in",
                      std::to_string(sum.rule.packetsIn),
                      std::to_string(sum.rule.bytesIn)});
        ilb.WriteRow({topo,
                      "rule-counters",
                      "out",
                      std::to_string(sum.rule.packetsOut),
                      std::to_string(sum.rule.bytesOut)});
    }
    {
        AdcCsvWriter seen(s.outputDir + "/seen-" + topo + ".csv",
                          {"topology", "server", "peer_ip", "requests"});
        for (uint32_t i = 0; i < t.GetNServers(); ++i)
        {
            for (const auto& [peer, n] : sum.obs.seen[i]) // std::map: sorted by address text
            {
                seen.WriteRow({topo, t.serverNames[i], peer, std::to_string(n)});
            }
        }
    }
    AdcCsvWriter load(s.outputDir + "/load-" + topo + ".csv",
                      {"variant", "target", "requests", "bytes"});
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        uint64_t requests = 0;
        for (const auto& [peer, n] : sum.obs.seen[i])
        {
            requests += n;
        }
        Ptr<AdcHttpServer> app = DynamicCast<AdcHttpServer>(srv.Get(i));
        load.WriteRow({topo,
                       t.serverNames[i],
                       std::to_string(requests),
                       std::to_string(app->GetBytesSent())});
    }
}

Summary
RunOne(const Settings& s, const std::string& topology, bool withPcap)
{
    RngSeedManager::SetSeed(s.seed);
    RngSeedManager::SetRun(s.run);

    // From an ilbadm script (--config): IlbHelper's test bed without its rule, then the
    // script's server group, health check and rule through IlbadmHelper.
    AdcConfigReader reader(AdcIlbadmCommands::GetLanguage());
    Ptr<IlbadmHelper> ilbadm;
    IlbTopology t;
    if (s.config.empty())
    {
        t = MakeHelper(s, topology)->Build();
    }
    else
    {
        reader.ReadFile(s.config);
        Ptr<AdcIlbadmRule> rule = ScriptRule(reader.GetStore(), s.config);
        t = MakeScriptHelper(s, *rule)->Build();
        CheckScriptServers(s, *rule, t);
        ilbadm = CreateObject<IlbadmHelper>();
        ilbadm->Install(t, reader.GetStore());
    }
    Summary sum;
    sum.topology = topology;
    sum.obs.seen.resize(t.GetNServers());

    AdcHttpServerHelper serverHelper(t.serverPort);
    serverHelper.SetAttribute("ObjectSize", UintegerValue(s.objectSize));
    ApplicationContainer srv;
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        serverHelper.SetAttribute("ServerName", StringValue(t.serverNames[i]));
        ApplicationContainer a = serverHelper.Install(t.servers.Get(i));
        a.Get(0)->TraceConnectWithoutContext("AccessLog",
                                             MakeBoundCallback(&OnAccess, &sum.obs, i));
        srv.Add(a);
    }
    srv.Start(Seconds(0));

    // One connection per request, so every request is a new flow for the ILB to balance.
    AdcHttpClientHelper clientHelper(t.GetVipSocketAddress());
    clientHelper.SetAttribute("Persistent", BooleanValue(false));
    std::ostringstream iat;
    iat << "ns3::ExponentialRandomVariable[Mean=" << 1.0 / s.rate << "]";
    clientHelper.SetAttribute("InterRequestTime", StringValue(iat.str()));
    clientHelper.SetAttribute("RequestTimeout", TimeValue(Seconds(s.timeout)));
    clientHelper.SetAttribute("RequestStopTime", TimeValue(Seconds(1 + s.duration)));
    ApplicationContainer clients = clientHelper.Install(t.clients);
    clientHelper.AssignStreams(t.clients, 100);
    clients.Start(Seconds(1));
    const Time end = Seconds(1 + s.duration + s.timeout + 1);
    clients.Stop(end);

    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->SetAttribute("FileName", StringValue(s.outputDir + "/requests-" + topology + ".csv"));
    Ptr<AdcThroughputSampler> sampler = CreateObject<AdcThroughputSampler>();
    sampler->SetAttribute("Interval", TimeValue(MilliSeconds(500)));
    sampler->SetAttribute("FileName",
                          StringValue(s.outputDir + "/throughput-" + topology + ".csv"));
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        log->Watch(clients.Get(i));
        sampler->WatchApplication(clients.Get(i), t.NameOf(t.clients.Get(i)));
    }
    sampler->Start(Seconds(0), end);
    // Under MPI every rank built every application (same random streams as one process);
    // those of other ranks' nodes never start.
    AdcMpi::SilenceRemoteApplications();

    // The ILB's client-side port: requests come in on it, responses (when they cross the
    // ILB at all) go out on it.
    Ptr<NetDevice> port = t.GetIlbClientSideDevice();
    port->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&OnRequestFrame, &sum.obs));
    port->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&OnResponseFrame, &sum.obs));

    if (s.failServer >= 0 && static_cast<uint32_t>(s.failServer) >= t.GetNServers())
    {
        throw AdcConfigError("--failServer=" + std::to_string(s.failServer) + ": allowed -1 " +
                             "(none) or 0.." + std::to_string(t.GetNServers() - 1) + " (the " +
                             std::to_string(t.GetNServers()) + " servers of --config=" + s.config +
                             ")");
    }
    if (s.failServer >= 0)
    {
        IlbHelper::ScheduleServerFailure(t, static_cast<uint32_t>(s.failServer), Seconds(s.failAt));
    }
    if (withPcap)
    {
        std::filesystem::create_directories(s.outputDir + "/pcap");
        t.EnablePcap(s.outputDir + "/pcap/" + topology, "client-side");
        t.EnablePcap(s.outputDir + "/pcap/" + topology, "server-lan");
    }

    Simulator::Stop(end + Seconds(1));
    Simulator::Run();

    // No request is issued after the duration and each ends within its timeout, 1 s before
    // the clients stop: every request ends, none open at the stop (on every rank). How many
    // fail is what the run measures (with --failServer).
    const std::string mismatch =
        log->CheckExpectation(AdcAccountingExpectation::CompletedAtLeast(0).AnyFailures());
    log->GatherRanks(); // every rank's requests (collective; nothing changes on one rank)
    sum.sent = log->GetSent();
    sum.completed = log->GetCompleted();
    sum.failed = log->GetFailed();
    sum.openAtStop = log->GetOpenAtStop();
    sum.meanMs = log->GetMeanLatencyMs();
    sum.p95Ms = log->GetLatencyPercentileMs(0.95);
    sum.rule = t.appliance->GetRuleCounters(t.rule);
    sum.natExhausted = t.appliance->GetNatExhausted(t.rule);
    std::set<std::string> distinct;
    for (const auto& m : sum.obs.seen)
    {
        for (const auto& [peer, n] : m)
        {
            distinct.insert(peer);
        }
    }
    sum.distinctSeen = distinct.size();
    // The ILB, its ports and the servers are rank 0's: it writes the files about them.
    if (AdcMpi::GetRank() == 0)
    {
        WriteFiles(s, t, sum, srv);
        if (s.show)
        {
            WriteShow(s, topology, *ilbadm);
        }
    }
    log->Close();
    sampler->Close();
    const std::string accounting = log->Summary();
    Simulator::Destroy();
    if (!mismatch.empty())
    {
        throw AdcExperimentError("request accounting broken for " + topology + ": " + mismatch +
                                 " (" + accounting + ")");
    }
    if (AdcMpi::GetRank() == 0)
    {
        std::cerr << "ilb-topologies: " << topology << ": " << accounting << std::endl;
    }
    return sum;
}

void
WriteSummary(const Settings& s, const std::vector<Summary>& rows)
{
    AdcCsvWriter out(s.outputDir + "/summary.csv",
                     {"topology",
                      "sent",
                      "completed",
                      "failed",
                      "open_at_stop",
                      "mean_ms",
                      "p95_ms",
                      "ilb_request_packets",
                      "ilb_response_packets",
                      "ilb_request_bytes",
                      "ilb_response_bytes",
                      "rule_packets_in",
                      "rule_packets_out",
                      "rule_connections",
                      "rule_drops",
                      "nat_exhausted",
                      "distinct_client_addresses_seen"});
    for (const auto& r : rows)
    {
        out.WriteRow({r.topology,
                      std::to_string(r.sent),
                      std::to_string(r.completed),
                      std::to_string(r.failed),
                      std::to_string(r.openAtStop),
                      AdcCsvWriter::FormatFixed(r.meanMs, 3),
                      AdcCsvWriter::FormatFixed(r.p95Ms, 3),
                      std::to_string(r.obs.requestPackets),
                      std::to_string(r.obs.responsePackets),
                      std::to_string(r.obs.requestBytes),
                      std::to_string(r.obs.responseBytes),
                      std::to_string(r.rule.packetsIn),
                      std::to_string(r.rule.packetsOut),
                      std::to_string(r.rule.connections),
                      std::to_string(r.rule.drops),
                      std::to_string(r.natExhausted),
                      std::to_string(r.distinctSeen)});
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    AdcExperiment exp("ilb-topologies",
                      "The same HTTP client load through the Integrated Load Balancer in DSR, "
                      "Half-NAT and Full-NAT: packets through the ILB, what the servers see, "
                      "latency.");
    exp.Add("clients", "clients (one point-to-point link each)", s.clients).Min(1).Max(16384);
    exp.Add("servers", "back-end servers on the server LAN", s.servers).Min(1).Max(64);
    exp.Add("duration", "seconds during which clients issue requests", s.duration)
        .Above(0)
        .Max(86400);
    exp.Add("rate", "requests per second per client (Poisson)", s.rate).Above(0).Max(1000);
    exp.Add("objectSize", "response body bytes", s.objectSize).Max(1e8);
    exp.AddList("topologies", "comma-separated", s.topologies)
        .OneOf({"DSR", "HALF_NAT", "FULL_NAT"});
    exp.Add("algorithm", "server selection", s.algorithm).OneOf(IlbHelper::GetAlgorithmNames());
    exp.Add("dsrAlgorithm",
            "server selection of the DSR run (DSR balances every packet: roundrobin spreads a "
            "connection over the servers)",
            s.dsrAlgorithm)
        .OneOf(IlbHelper::GetAlgorithmNames());
    exp.Add("ipv6", "IPv6 VIP and clients", s.ipv6);
    exp.Add("ilbIsRouter",
            "the ILB is the servers' gateway (DSR responses cross it)",
            s.ilbIsRouter);
    exp.Add("serverPort", "servers' port in the NAT topologies (0: the VIP port)", s.serverPort)
        .Max(65535);
    exp.Add("natRange", "Full-NAT IPv4 source range", s.natRange).Check([](const std::string& v) {
        IlbHelper::ParseAddressRange(v, false, "natRange");
    });
    exp.Add("natRange6", "Full-NAT IPv6 source range", s.natRange6).Check([](const std::string& v) {
        IlbHelper::ParseAddressRange(v, true, "natRange6");
    });
    exp.Add("natPorts", "Full-NAT source ports", s.natPorts).Check([](const std::string& v) {
        AdcPortRange::Parse(v);
    });
    exp.Add("sticky", "sticky sessions", s.sticky);
    exp.Add("stickyPrefix", "sticky prefix length (0..32 IPv4, 0..128 IPv6)", s.stickyPrefix)
        .Max(128);
    exp.Add("healthCheck", "health check of the servers", s.healthCheck)
        .OneOf({"NONE", "PING", "TCP", "UDP"});
    exp.Add("hcInterval", "health check: seconds between probes", s.hcInterval).Min(0.01).Max(3600);
    exp.Add("hcTimeout", "health check: probe timeout (s)", s.hcTimeout).Above(0);
    exp.Less("hcTimeout", "hcInterval");
    exp.Add("hcRetries", "health check: failed probes before a server is down", s.hcRetries)
        .Min(1)
        .Max(100);
    exp.Add("config",
            "an ilbadm script configuring the ILB (one run, of its first enabled rule's type; "
            "replaces --topologies, --algorithm, --healthCheck, ...)",
            s.config,
            AdcExperimentOption::Kind::INPUT_FILE);
    exp.Add("show",
            "with --config: write ilbadm-show-TOPO.txt (show-* and export-config at the end)",
            s.show);
    exp.Add("failServer", "index of a server that fails", s.failServer).Special(-1, "none");
    exp.Index("failServer", "servers");
    exp.Add("failAt", "when it fails (s; before the requests end, --duration + 1)", s.failAt)
        .Min(0);
    exp.Add("timeout", "client request timeout (s)", s.timeout).Above(0).Max(3600);
    exp.Add("pcap", "write pcaps of the client side and the server LAN", s.pcap);
    exp.Add("pcapAll", "pcaps for every topology (default: the first only)", s.pcapAll);
    exp.Add("checksums",
            "compute and check IPv4/TCP/UDP checksums (every rewrite must keep them right)",
            s.checksums);
    exp.AddOutputDir("outputDir", "where CSV and pcap files go", s.outputDir);
    exp.AddSeedAndRun(s.seed, s.run);
    exp.AddCheck([&s, &exp]() {
        if (s.stickyPrefix > (s.ipv6 ? 128u : 32u))
        {
            exp.Refuse("stickyPrefix", s.ipv6 ? "allowed 0..128 (IPv6)" : "allowed 0..32 (IPv4)");
        }
        if (s.failServer >= 0 && s.failAt >= s.duration + 1)
        {
            exp.Refuse("failAt", "allowed < --duration + 1 (when the clients' requests end)");
        }
        if (s.show && s.config.empty())
        {
            exp.Refuse("show", "prints ilbadm's view of a configuration: allowed with --config");
        }
    });
    exp.AddLoadLimits([&s]() {
        const double requests =
            s.clients * s.rate * s.duration * AdcConfigError::SplitList(s.topologies).size();
        return AdcExperiment::Load{double(s.clients), requests, requests * s.objectSize, 0};
    });
    exp.UseMpi(); // under mpirun with several ranks: ns-3's MPI engine
    return exp.Run(argc, argv, [&s, &exp]() {
        if (s.checksums)
        {
            GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
        }
        if (!s.config.empty())
        {
            // The run's topology is the script's rule's type.
            AdcConfigReader reader(AdcIlbadmCommands::GetLanguage());
            reader.ReadFile(s.config);
            const std::string topology = ScriptTopology(*ScriptRule(reader.GetStore(), s.config));
            if (exp.Get("topologies").IsGiven() && s.topologies != topology)
            {
                exp.Refuse("topologies",
                           "the script of --config=" + s.config + " configures " + topology +
                               ": leave it out or give the same");
            }
            s.topologies = topology;
        }
        const std::vector<std::string> topologies = AdcConfigError::SplitList(s.topologies);
        AdcMpi::CheckOneSimulation("ilb-topologies",
                                   "--topologies='" + s.topologies + "'",
                                   topologies.size(),
                                   "topologies");
        std::vector<Summary> rows;
        for (std::size_t i = 0; i < topologies.size(); ++i)
        {
            std::cerr << "ilb-topologies: " << topologies[i] << " ..." << std::endl;
            // The captured links (client side, server LAN) are rank 0's.
            rows.push_back(RunOne(s,
                                  topologies[i],
                                  s.pcap && (i == 0 || s.pcapAll) && AdcMpi::GetRank() == 0));
        }
        if (AdcMpi::GetRank() == 0)
        {
            WriteSummary(s, rows);
        }
        return 0;
    });
}
