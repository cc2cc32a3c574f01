/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark: how long AdcIspTopologyHelper takes to build a large ISP topology (default
 * 100 access networks x 100 clients = 10,000 clients), stage by stage, and how much memory it
 * uses. Optionally checks the result end to end with one UDP echo from the last client.
 *
 *   adc-bench-topology [--accessNets=100] [--clientsPerNet=100] [--servers=4]
 *                      [--partitions=1] [--ipv6=false] [--verify=true] [--csv=FILE]
 */

#include "adc-bench-util.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-isp-topology-helper.h"
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/inet-socket-address.h"
#include "ns3/node-list.h"
#include "ns3/simulator.h"
#include "ns3/udp-echo-helper.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Wall-clock stopwatch.
class Stopwatch
{
  public:
    /// \return seconds since the last Lap() (or construction), and restart
    double Lap()
    {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - m_last).count();
        m_last = now;
        return s;
    }

  private:
    std::chrono::steady_clock::time_point m_last{std::chrono::steady_clock::now()}; //!< start
};

/// \return peak resident set size in MiB (VmHWM of /proc/self/status), or -1 if unknown
double
PeakRssMiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            return std::stod(line.substr(6)) / 1024.0; // the value is in kB
        }
    }
    return -1;
}

/// Counts echo replies.
uint32_t g_replies = 0;

/// \param p a reply
void
CountReply(Ptr<const Packet> /* p */)
{
    ++g_replies;
}

/**
 * \brief One UDP echo from the last client (last access network) to the last server: proves
 * the static routes work across the whole topology.
 * \param t the topology
 * \return replies received (1 when the topology works)
 */
uint32_t
VerifyEndToEnd(const AdcIspTopology& t)
{
    const uint32_t server = t.GetNServers() - 1;
    UdpEchoServerHelper echoServer(9);
    echoServer.Install(t.GetServer(server)).Start(Seconds(0));
    UdpEchoClientHelper echoClient(InetSocketAddress(t.GetServerAddress(server), 9));
    echoClient.SetAttribute("MaxPackets", UintegerValue(1));
    ApplicationContainer c = echoClient.Install(t.GetClient(t.GetNClients() - 1));
    c.Start(Seconds(1));
    c.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&CountReply));
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    return g_replies;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t accessNets = 100;
    uint32_t clientsPerNet = 100;
    uint32_t servers = 4;
    uint32_t partitions = 1;
    bool ipv6 = false;
    bool verify = true;
    bool fixResolution = true;
    std::string csv;

    CommandLine cmd(__FILE__);
    cmd.AddValue("accessNets", "Number of access networks", accessNets);
    cmd.AddValue("clientsPerNet", "Clients per access network", clientsPerNet);
    cmd.AddValue("servers", "Servers on the DC LAN (0: no DC side)", servers);
    cmd.AddValue("partitions", "MPI partitions for system ids", partitions);
    cmd.AddValue("ipv6", "Also install and route IPv6", ipv6);
    cmd.AddValue("verify", "Run one UDP echo from the last client to the last server", verify);
    cmd.AddValue("csv", "Also write the results as metric,value CSV to this file", csv);
    cmd.AddValue("fixResolution",
                 "Call Time::SetResolution(NS) first, as a program that builds a large topology "
                 "should: until then ns-3 records every Time object created (dozens per node) "
                 "for a later change of resolution",
                 fixResolution);
    cmd.Parse(argc, argv);
    if (fixResolution)
    {
        Time::SetResolution(Time::NS); // ns-3's default resolution: only the recording stops
    }

    AdcBenchRows rows;
    try
    {
        Ptr<AdcIspTopologyHelper> helper = CreateObject<AdcIspTopologyHelper>();
        helper->SetAttribute("NumAccessNetworks", UintegerValue(accessNets));
        helper->SetAttribute("ClientsPerAccessNetwork", UintegerValue(clientsPerNet));
        helper->SetAttribute("NumServers", UintegerValue(servers));
        helper->SetAttribute("NumPartitions", UintegerValue(partitions));
        helper->SetAttribute("InstallIpv6", BooleanValue(ipv6));

        Stopwatch total;
        Stopwatch lap;
        helper->CreateNodesAndLinks();
        const double tNodes = lap.Lap();
        helper->InstallInternetStack();
        const double tStack = lap.Lap();
        const AdcIspTopology topo = helper->AssignAddressesAndRoutes();
        const double tAddr = lap.Lap();
        const double tBuild = total.Lap();
        const double rssBuilt = PeakRssMiB();

        rows.emplace_back("access_networks", std::to_string(accessNets));
        rows.emplace_back("clients", std::to_string(topo.GetNClients()));
        rows.emplace_back("servers", std::to_string(topo.GetNServers()));
        rows.emplace_back("ipv6", ipv6 ? "true" : "false");
        rows.emplace_back("nodes", std::to_string(NodeList::GetNNodes()));
        rows.emplace_back("core_routes", std::to_string(topo.GetNCoreRoutes()));
        rows.emplace_back("create_nodes_links_s", AdcCsvWriter::FormatFixed(tNodes, 3));
        rows.emplace_back("install_stack_s", AdcCsvWriter::FormatFixed(tStack, 3));
        rows.emplace_back("addressing_routing_s", AdcCsvWriter::FormatFixed(tAddr, 3));
        rows.emplace_back("build_total_s", AdcCsvWriter::FormatFixed(tBuild, 3));
        rows.emplace_back("peak_rss_after_build_mib", AdcCsvWriter::FormatFixed(rssBuilt, 1));
        if (verify && servers > 0)
        {
            lap.Lap();
            const uint32_t replies = VerifyEndToEnd(topo);
            rows.emplace_back("verify_run_s", AdcCsvWriter::FormatFixed(lap.Lap(), 3));
            rows.emplace_back("verify_echo_replies", fmt::format("{}/1", replies));
        }
        lap.Lap();
        Simulator::Destroy();
        rows.emplace_back("destroy_s", AdcCsvWriter::FormatFixed(lap.Lap(), 3));
        rows.emplace_back("peak_rss_mib", AdcCsvWriter::FormatFixed(PeakRssMiB(), 1));
    }
    catch (const AdcConfigError& e)
    {
        std::cerr << "configuration error: " << e.what() << std::endl;
        return 2;
    }

    std::cout << fmt::format("{:<28} {:>12}\n", "metric", "value");
    for (const auto& [metric, value] : rows)
    {
        std::cout << fmt::format("{:<28} {:>12}\n", metric, value);
    }
    return AdcBenchWriteCsv(csv, rows);
}
