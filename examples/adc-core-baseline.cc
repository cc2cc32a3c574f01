/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * core-baseline: the shared load-balancing methods on an ISP topology, before any appliance.
 *
 * Clients in access networks fetch objects (Zipf popularity) over HTTP/1.1 from a pool of
 * servers in a data centre. Each new connection picks its server with one of the shared-core
 * methods (ROUNDROBIN, LEASTCONNECTION, SOURCEIPHASH, URLHASH, MAGLEV by default), as an ideal
 * front end would, and an HTTP health monitor on the data-centre gateway takes a failed server
 * out of rotation. One server is slower than the others, and one fails mid-run, so the methods
 * differ in balance, latency and the requests lost to the failure. The later subject
 * experiments (CRD, ILB, ...) put real appliances where this baseline has an oracle.
 *
 * Output in --outputDir: requests-METHOD.csv (one row per request), throughput-METHOD.csv
 * (per-interval aggregate goodput), load-METHOD.csv (requests per server), summary.csv (one
 * row per method) and pcap/ (access network 0's uplink, at the core router, in the first
 * method's run).
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-isp-topology-helper.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-request-record.h"
#include "ns3/adc-throughput-sampler.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("AdcCoreBaseline");

namespace
{

/// The experiment's settings, all settable from the command line.
struct Settings
{
    uint32_t accessNets{10};
    uint32_t clientsPerNet{40};
    uint32_t servers{4};
    double duration{20};
    double rate{0.5};
    uint32_t objectSize{20000};
    double zipf{0.8};
    uint32_t catalogue{1000};
    std::string methods{"ROUNDROBIN,LEASTCONNECTION,SOURCEIPHASH,URLHASH,MAGLEV"};
    int32_t slowServer{0};
    double slowDelayMs{20};
    int32_t failServer{1};
    double failAt{10};
    bool pcap{true};
    std::string outputDir{"results/core-baseline"};
    uint32_t seed{1};
    uint32_t run{1};
};

/**
 * Picks a server for each new client connection with one LB method and keeps the method's
 * connection counts and the per-server load.
 */
class ServerChooser : public SimpleRefCount<ServerChooser>
{
  public:
    ServerChooser(Ptr<AdcLbMethod> lb, std::vector<Ipv4Address> servers)
        : m_lb(lb),
          m_servers(std::move(servers)),
          m_requests(m_servers.size(), 0),
          m_bytes(m_servers.size(), 0)
    {
    }

    Address Choose(Ipv4Address client, const std::string& url, uint64_t requestId)
    {
        AdcLbContext ctx;
        // The service the clients address: the server prefix, port 80 (no VIP in the baseline).
        ctx.flow = AdcFlowKey(client, Ipv4Address("172.16.0.0"), 0, 80, AdcFlowKey::PROTO_TCP);
        ctx.url = url;
        int32_t index = m_lb->Select(ctx);
        if (index < 0)
        {
            // Every server is down: aim at the first; the request fails and is counted.
            index = 0;
        }
        else
        {
            m_lb->ConnectionOpened(index);
        }
        m_open[{client.Get(), requestId}] = index;
        return InetSocketAddress(m_servers[index], 80);
    }

    void Done(const AdcRequestRecord& r)
    {
        auto it = m_open.find({r.clientIp.GetIpv4().Get(), r.requestId});
        if (it == m_open.end())
        {
            return;
        }
        const uint32_t index = it->second;
        m_open.erase(it);
        if (m_lb->GetBackend(index).activeConnections > 0)
        {
            m_lb->ConnectionClosed(index);
        }
        if (r.outcome == AdcRequestOutcome::COMPLETED)
        {
            m_requests[index]++;
            m_bytes[index] += r.responseBytes;
        }
    }

    void HealthChanged(uint32_t index, AdcHealthMonitor::State, AdcHealthMonitor::State now)
    {
        m_lb->SetBackendUp(index, now != AdcHealthMonitor::State::DOWN);
    }

    const std::vector<uint64_t>& GetRequests() const
    {
        return m_requests;
    }

    const std::vector<uint64_t>& GetBytes() const
    {
        return m_bytes;
    }

  private:
    Ptr<AdcLbMethod> m_lb;
    std::vector<Ipv4Address> m_servers;
    std::map<std::pair<uint32_t, uint64_t>, uint32_t> m_open; // (client, request) -> server
    std::vector<uint64_t> m_requests;
    std::vector<uint64_t> m_bytes;
};

Address
ChooseFor(Ptr<ServerChooser> chooser, Ipv4Address client, const std::string& url, uint64_t id)
{
    return chooser->Choose(client, url, id);
}

void
RequestDone(Ptr<ServerChooser> chooser, const AdcRequestRecord& r)
{
    chooser->Done(r);
}

void
FailServer(Ptr<Node> server)
{
    Ptr<Ipv4> ipv4 = server->GetObject<Ipv4>();
    for (uint32_t i = 1; i < ipv4->GetNInterfaces(); ++i)
    {
        ipv4->SetDown(i);
    }
}

/// One row of summary.csv.
struct Summary
{
    std::string method;
    uint64_t sent{0};
    uint64_t completed{0};
    uint64_t failed{0};
    uint64_t openAtStop{0};
    double meanMs{0};
    double p50Ms{0};
    double p95Ms{0};
    double p99Ms{0};
    double goodputMbps{0};
    double jain{0};
    double maxShare{0};
};

Summary
RunOne(const Settings& s, const std::string& method, bool withPcap)
{
    RngSeedManager::SetSeed(s.seed);
    RngSeedManager::SetRun(s.run);

    Ptr<AdcIspTopologyHelper> topo = CreateObject<AdcIspTopologyHelper>();
    topo->SetAttribute("NumAccessNetworks", UintegerValue(s.accessNets));
    topo->SetAttribute("ClientsPerAccessNetwork", UintegerValue(s.clientsPerNet));
    topo->SetAttribute("NumServers", UintegerValue(s.servers));
    AdcIspTopology net = topo->Build();

    // Servers: one slower than the others.
    std::vector<Ipv4Address> serverAddrs;
    AdcHttpServerHelper serverHelper(80);
    serverHelper.SetAttribute("ObjectSize", UintegerValue(s.objectSize));
    for (uint32_t i = 0; i < s.servers; ++i)
    {
        serverAddrs.push_back(net.GetServerAddress(i));
        serverHelper.SetAttribute("ServerName", StringValue("S" + std::to_string(i)));
        const double delay = (static_cast<int32_t>(i) == s.slowServer) ? s.slowDelayMs : 0.0;
        serverHelper.SetAttribute("ResponseDelay", TimeValue(MilliSeconds(delay)));
        ApplicationContainer apps = serverHelper.Install(net.servers.Get(i));
        apps.Start(Seconds(0));
    }

    Ptr<AdcLbMethod> lb = AdcLbMethod::Create(method);
    for (uint32_t i = 0; i < s.servers; ++i)
    {
        AdcBackend b;
        b.name = "S" + std::to_string(i);
        b.address = serverAddrs[i];
        b.port = 80;
        lb->AddBackend(b);
    }
    Ptr<ServerChooser> chooser = Create<ServerChooser>(lb, serverAddrs);

    // An HTTP health monitor on the data-centre gateway takes failed servers out of rotation.
    Ptr<AdcHealthMonitor> monitor = CreateObject<AdcHealthMonitor>();
    monitor->SetAttribute("Type", EnumValue(AdcHealthMonitor::HTTP));
    monitor->SetAttribute("Name", StringValue("http-servers"));
    monitor->SetAttribute("Interval", TimeValue(Seconds(1)));
    monitor->SetAttribute("ResponseTimeout", TimeValue(MilliSeconds(500)));
    monitor->SetAttribute("Retries", UintegerValue(2));
    for (uint32_t i = 0; i < s.servers; ++i)
    {
        monitor->AddTarget(serverAddrs[i], 80, "S" + std::to_string(i));
    }
    monitor->SetStateChangeCallback(MakeCallback(&ServerChooser::HealthChanged, chooser));
    net.dcGateway->AddApplication(monitor);
    monitor->SetStartTime(Seconds(0.1));

    // Clients: one-shot connections, so every request is a fresh balancing decision.
    AdcHttpClientHelper clientHelper(InetSocketAddress(serverAddrs[0], 80));
    clientHelper.SetAttribute("Persistent", BooleanValue(false));
    clientHelper.SetAttribute("ZipfExponent", DoubleValue(s.zipf));
    clientHelper.SetAttribute("CatalogueSize", UintegerValue(s.catalogue));
    std::ostringstream iat;
    iat << "ns3::ExponentialRandomVariable[Mean=" << 1.0 / s.rate << "]";
    clientHelper.SetAttribute("InterRequestTime", StringValue(iat.str()));
    clientHelper.SetAttribute("RequestTimeout", TimeValue(Seconds(4)));
    clientHelper.SetAttribute("RequestStopTime", TimeValue(Seconds(s.duration)));
    ApplicationContainer clients = clientHelper.Install(net.clients);
    clientHelper.AssignStreams(net.clients, 100);
    clients.Start(Seconds(0.5));
    clients.Stop(Seconds(s.duration + 6));

    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->SetAttribute("FileName", StringValue(s.outputDir + "/requests-" + method + ".csv"));
    Ptr<AdcThroughputSampler> sampler = CreateObject<AdcThroughputSampler>();
    sampler->SetAttribute("Interval", TimeValue(MilliSeconds(500)));
    sampler->SetAttribute("FileName", StringValue(s.outputDir + "/throughput-" + method + ".csv"));
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        Ptr<AdcHttpClient> c = DynamicCast<AdcHttpClient>(clients.Get(i));
        const Ipv4Address clientIp = net.GetClientAddress(i);
        c->SetServerChooser(MakeBoundCallback(&ChooseFor, chooser, clientIp));
        c->TraceConnectWithoutContext("RequestDone", MakeBoundCallback(&RequestDone, chooser));
        log->Watch(c);
        sampler->WatchApplication(c, "client" + std::to_string(i));
    }
    sampler->Start(Seconds(0), Seconds(s.duration + 6));

    if (s.failServer >= 0 && static_cast<uint32_t>(s.failServer) < s.servers)
    {
        Simulator::Schedule(Seconds(s.failAt), &FailServer, net.servers.Get(s.failServer));
    }
    if (withPcap)
    {
        // The core router's end of access network 0's uplink: all of its clients' traffic.
        std::filesystem::create_directories(s.outputDir + "/pcap");
        PointToPointHelper p2p;
        p2p.EnablePcap(s.outputDir + "/pcap/access0-uplink.pcap",
                       net.GetAccessUplinkDevices(0).Get(0),
                       false,
                       true);
    }

    Simulator::Stop(Seconds(s.duration + 7));
    Simulator::Run();

    Summary sum;
    sum.method = method;
    sum.sent = log->GetSent();
    sum.completed = log->GetCompleted();
    sum.failed = log->GetFailed();
    sum.openAtStop = log->GetOpenAtStop();
    sum.meanMs = log->GetMeanLatencyMs();
    sum.p50Ms = log->GetLatencyPercentileMs(0.50);
    sum.p95Ms = log->GetLatencyPercentileMs(0.95);
    sum.p99Ms = log->GetLatencyPercentileMs(0.99);
    const auto& req = chooser->GetRequests();
    const auto& bytes = chooser->GetBytes();
    const double total = std::accumulate(req.begin(), req.end(), 0.0);
    double sq = 0;
    for (uint64_t r : req)
    {
        sq += static_cast<double>(r) * r;
    }
    sum.jain = sq > 0 ? total * total / (req.size() * sq) : 0;
    sum.maxShare = total > 0 ? *std::max_element(req.begin(), req.end()) / total : 0;
    const double allBytes = std::accumulate(bytes.begin(), bytes.end(), 0.0);
    sum.goodputMbps = allBytes * 8 / s.duration / 1e6;

    std::ofstream load(s.outputDir + "/load-" + method + ".csv");
    load << "variant,target,requests,bytes\n";
    for (uint32_t i = 0; i < s.servers; ++i)
    {
        load << method << ",S" << i << ',' << req[i] << ',' << bytes[i] << '\n';
    }

    // No request is issued after the duration and each ends within its 4 s timeout, 2 s
    // before the clients stop: every request ends, none open at the stop. How many fail is
    // what the run measures (one server fails mid-run).
    const std::string mismatch =
        log->CheckExpectation(AdcAccountingExpectation::CompletedAtLeast(0).AnyFailures());
    Simulator::Destroy();
    if (!mismatch.empty())
    {
        throw AdcExperimentError("request accounting broken for " + method + ": " + mismatch +
                                 " (" + log->Summary() + ")");
    }
    return sum;
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    AdcExperiment exp("adc-core-baseline",
                      "Shared-core LB methods on an ISP topology: clients pick servers directly, "
                      "one server is slow, one fails mid-run.");
    exp.Add("accessNets", "access networks (one CSMA LAN each)", s.accessNets)
        .Min(1)
        .Max(AdcIspTopologyHelper::MAX_ACCESS_NETWORKS);
    exp.Add("clientsPerNet", "clients per access network", s.clientsPerNet)
        .Min(1)
        .Max(AdcIspTopologyHelper::MAX_CLIENTS_PER_ACCESS_NETWORK);
    exp.Add("servers", "servers in the data centre (172.16.0.0/24)", s.servers).Min(1).Max(253);
    exp.Add("duration", "seconds during which clients issue requests", s.duration)
        .Above(0)
        .Max(86400);
    exp.Add("rate", "requests per second per client (Poisson)", s.rate).Above(0).Max(1000);
    exp.Add("objectSize", "response body bytes", s.objectSize).Max(1e8);
    exp.Add("zipf", "Zipf exponent of object popularity (0: uniform)", s.zipf).Min(0).Max(10);
    exp.Add("catalogue", "number of distinct objects", s.catalogue).Min(1).Max(1e6);
    exp.AddList("methods", "comma-separated LB methods", s.methods)
        .OneOf(AdcLbMethod::GetMethodNames());
    exp.Add("slowServer", "index of the slow server", s.slowServer).Special(-1, "none");
    exp.Index("slowServer", "servers");
    exp.Add("slowDelayMs", "extra response delay of the slow server (ms)", s.slowDelayMs)
        .Min(0)
        .Max(60000);
    exp.Add("failServer", "index of the server that fails", s.failServer).Special(-1, "none");
    exp.Index("failServer", "servers");
    exp.Add("failAt", "when it fails (s; before the run's end, --duration + 7)", s.failAt).Min(0);
    exp.AddCheck([&s, &exp]() {
        if (s.failAt >= s.duration + 7)
        {
            exp.Refuse("failAt", "allowed < --duration + 7 (the run's end)");
        }
    });
    exp.Add("pcap", "write a pcap of access network 0's uplink (first method)", s.pcap);
    exp.AddOutputDir("outputDir", "where CSV, pcap files go", s.outputDir);
    exp.AddSeedAndRun(s.seed, s.run);
    exp.AddLoadLimits([&s]() {
        return AdcExperiment::Load::OfClients(double(s.accessNets) * s.clientsPerNet,
                                              s.rate,
                                              s.duration,
                                              AdcConfigError::SplitList(s.methods).size(),
                                              s.objectSize,
                                              s.catalogue);
    });
    // Full-size segments on 1500-byte links (ns-3's default is 536 bytes).
    exp.SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    return exp.Run(argc, argv, [&s]() {
        const std::vector<std::string> methods = AdcConfigError::SplitList(s.methods);
        std::vector<Summary> rows;
        for (std::size_t i = 0; i < methods.size(); ++i)
        {
            std::cerr << "core-baseline: " << methods[i] << " ..." << std::endl;
            rows.push_back(RunOne(s, methods[i], s.pcap && i == 0));
        }
        std::ofstream out(s.outputDir + "/summary.csv");
        out << "method,sent,completed,failed,open_at_stop,mean_ms,p50_ms,p95_ms,p99_ms,"
               "goodput_mbps,jain_fairness,max_server_share\n";
        out << std::fixed << std::setprecision(3);
        for (const auto& r : rows)
        {
            out << r.method << ',' << r.sent << ',' << r.completed << ',' << r.failed << ','
                << r.openAtStop << ',' << r.meanMs << ',' << r.p50Ms << ',' << r.p95Ms << ','
                << r.p99Ms << ',' << r.goodputMbps << ',' << r.jain << ',' << r.maxShare << '\n';
        }
        return 0;
    });
}
