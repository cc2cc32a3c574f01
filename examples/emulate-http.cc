/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ./adc emulate http: a real HTTP client on the host (curl) reaching a VIP of a simulated
 * appliance through a Linux tap, with the back-end servers simulated:
 *  - DSR, HALF_NAT, FULL_NAT: the integrated load balancer's test bed (IlbHelper: client
 *    router, ILB, server LAN with three web servers, a return router); the tap hangs off the
 *    client router, so the host is one more client;
 *  - CS: a content-switching vserver (NetScaler commands, the canary configuration of
 *    examples/cs-canary.ns.conf) on an appliance whose other side is a LAN of four web servers
 *    (v1 behind LB1, v2 behind LB2), with the persistence and canary share given.
 * Every request the servers receive is written to OUTPUT/access.csv (server, TCP peer
 * address, URL, time), so a test can compare what curl saw with what the servers saw.
 *
 * Run it inside a network namespace of your own (./adc emulate http does): the tap and its
 * addresses then exist only there.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-config-reader.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-emulation-helper.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/core-module.h"
#include "ns3/cs-helper.h"
#include "ns3/csma-module.h"
#include "ns3/ilb-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <arpa/inet.h>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

using namespace ns3;

namespace
{

/// The canary configuration's HTTP part (examples/cs-canary.ns.conf).
const char* const kCsConfig = R"conf(add service v1-s1 172.16.0.2 HTTP 80
add service v1-s2 172.16.0.3 HTTP 80
add service v2-s1 172.16.0.4 HTTP 80
add service v2-s2 172.16.0.5 HTTP 80
add lb vserver LB1 HTTP -lbMethod ROUNDROBIN
add lb vserver LB2 HTTP -lbMethod ROUNDROBIN
bind lb vserver LB1 v1-s1
bind lb vserver LB1 v1-s2
bind lb vserver LB2 v2-s1
bind lb vserver LB2 v2-s2
add cs vserver CS-1 HTTP 198.51.100.10 80
add cs action act-v2 -targetLBVserver LB2
add cs policy pol-canary -rule "SYS.RANDOM.MUL(100).LT(0)" -action act-v2
bind cs vserver CS-1 -lbvserver LB1
bind cs vserver CS-1 -policyName pol-canary -priority 100
)conf";

/// Command-line settings.
struct Settings
{
    std::string target{"HALF_NAT"};          //!< DSR, HALF_NAT, FULL_NAT or CS
    std::string tap{"adc-http0"};            //!< tap name
    std::string hostAddress{"192.0.2.1"};    //!< host side (/24)
    std::string simAddress{"192.0.2.2"};     //!< simulated side (/24)
    std::string persistence{"COOKIEINSERT"}; //!< CS persistence type
    uint32_t timeout{2};             //!< CS persistence timeout (minutes; 0: session cookie)
    uint32_t canary{50};             //!< CS: percent of new sessions sent to v2
    uint32_t objectSize{2000};       //!< response body bytes
    double duration{0};              //!< seconds (0: until Ctrl-C)
    bool allowHostInterfaces{false}; //!< add the tap to a namespace with other interfaces
    std::string outputDir{"results/emulate-http"}; //!< output folder
};

/// The servers' access log, one row per request.
struct AccessLog
{
    std::unique_ptr<AdcCsvWriter> csv; //!< access.csv
};

/// \param log the log \param server the server's name \param peer the TCP peer ...
void
OnAccess(AccessLog* log,
         std::string server,
         const std::string& peer,
         const std::string& headerClientIp,
         const std::string& url,
         Time when)
{
    log->csv->WriteRow({server, peer, url, std::to_string(when.GetSeconds())});
    log->csv->Flush();
}

/// \param s the settings \param log the access log \return the address of the VIP (ILB test bed)
Ipv4Address
BuildIlb(const Settings& s, AccessLog* log, AdcEmulationHelper& emu)
{
    Ptr<IlbHelper> h = CreateObject<IlbHelper>();
    h->SetAttribute("NumClients", UintegerValue(1));
    h->SetAttribute("NumServers", UintegerValue(3));
    h->SetAttribute("Topology", StringValue(s.target));
    // DSR balances every packet (illumos keeps no state for it): a hash keeps a connection on
    // one server; the NAT topologies keep an entry per connection.
    h->SetAttribute("Algorithm", StringValue(s.target == "DSR" ? "hash-ip-port" : "roundrobin"));
    h->SetAttribute("ServerPort", UintegerValue(s.target == "DSR" ? 0 : 8080));
    h->SetAttribute("HealthCheck", StringValue("NONE"));
    IlbTopology t = h->Build();

    AdcHttpServerHelper server(t.serverPort);
    server.SetAttribute("ObjectSize", UintegerValue(s.objectSize));
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        server.SetAttribute("ServerName", StringValue(t.serverNames[i]));
        ApplicationContainer a = server.Install(t.servers.Get(i));
        a.Get(0)->TraceConnectWithoutContext("AccessLog",
                                             MakeBoundCallback(&OnAccess, log, t.serverNames[i]));
    }

    // The host is one more client of the client router, on the tap.
    Ptr<NetDevice> dev = emu.Install(t.clientRouter);
    Ptr<Ipv4> ipv4 = t.clientRouter->GetObject<Ipv4>();
    const int32_t ifIndex = ipv4->AddInterface(dev);
    ipv4->AddAddress(ifIndex, Ipv4InterfaceAddress(Ipv4Address(s.simAddress.c_str()), "/24"));
    ipv4->SetUp(ifIndex);
    return t.vip.GetIpv4();
}

/// The content-switching world (kept alive for the run).
struct CsWorld
{
    std::unique_ptr<AdcConfigReader> reader; //!< the configuration
    Ptr<CsVirtualServer> cs;                 //!< the CS vserver
};

/// \param s the settings \param log the access log \param w the world \return the CS VIP
Ipv4Address
BuildCs(const Settings& s, AccessLog* log, AdcEmulationHelper& emu, CsWorld& w)
{
    w.reader = std::make_unique<AdcConfigReader>(AdcNetScalerCsCommands::GetLanguage());
    w.reader->ReadString(kCsConfig, "emulate-http (built-in canary configuration)");
    std::string persistence = "set cs vserver CS-1 -persistenceType " + s.persistence;
    if (s.persistence != "NONE")
    {
        persistence += " -timeout " + std::to_string(s.timeout);
    }
    w.reader->ReadString(persistence, "--persistence");
    w.reader->ReadString("set cs policy pol-canary -rule \"SYS.RANDOM.MUL(100).LT(" +
                             std::to_string(s.canary) + ")\"",
                         "--canary");
    AdcConfigStore& store = w.reader->GetStore();
    Ptr<AdcCsVserverConfig> config =
        store.Get<AdcCsVserverConfig>(AdcNetScalerCsCommands::CS_VSERVER, "CS-1");

    // The appliance: the tap on one side, the server LAN 172.16.0.0/24 on the other.
    NodeContainer servers(4);
    Ptr<Node> appliance = CreateObject<Node>();
    InternetStackHelper stack;
    stack.Install(appliance);
    stack.Install(servers);
    NodeContainer lanNodes(appliance);
    lanNodes.Add(servers);
    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", StringValue("1Gbps"));
    NetDeviceContainer lan = csma.Install(lanNodes);
    Ipv4AddressHelper addr("172.16.0.0", "255.255.255.0");
    addr.Assign(lan);
    Ipv4StaticRoutingHelper routing;
    for (uint32_t i = 0; i < servers.GetN(); ++i)
    {
        routing.GetStaticRouting(servers.Get(i)->GetObject<Ipv4>())
            ->SetDefaultRoute("172.16.0.1", 1);
    }
    Ptr<NetDevice> dev = emu.Install(appliance);
    Ptr<Ipv4> ipv4 = appliance->GetObject<Ipv4>();
    const int32_t ifIndex = ipv4->AddInterface(dev);
    ipv4->AddAddress(ifIndex, Ipv4InterfaceAddress(Ipv4Address(s.simAddress.c_str()), "/24"));
    const Ipv4Address vip = config->GetVip().GetIpv4();
    ipv4->AddAddress(ifIndex, Ipv4InterfaceAddress(vip, "/32"));
    ipv4->SetUp(ifIndex);

    // One web server per service, its version from the LB vserver that binds it.
    std::map<std::string, std::string> version;
    const auto lbs = store.GetAll<AdcVirtualServer>(AdcNetScalerCommands::LB_VSERVER);
    for (std::size_t k = 0; k < lbs.size(); ++k)
    {
        for (const AdcVirtualServer::ServiceBinding& b : lbs[k]->GetServiceBindings())
        {
            version.emplace(b.name, "v" + std::to_string(k + 1));
        }
    }
    const auto services = store.GetAll<AdcService>(AdcNetScalerCommands::SERVICE);
    for (std::size_t j = 0; j < services.size() && j < servers.GetN(); ++j)
    {
        Ptr<AdcHttpServer> srv = CreateObject<AdcHttpServer>();
        srv->SetAttribute("Port", UintegerValue(services[j]->GetPort()));
        srv->SetAttribute("ServerName", StringValue(services[j]->GetName()));
        srv->SetAttribute("AppVersion", StringValue(version[services[j]->GetName()]));
        srv->SetAttribute("ObjectSize", UintegerValue(s.objectSize));
        srv->TraceConnectWithoutContext("AccessLog",
                                        MakeBoundCallback(&OnAccess, log, services[j]->GetName()));
        servers.Get(j)->AddApplication(srv);
    }
    w.cs = CsHelper::Install(appliance, store, "CS-1");
    w.cs->SetAttribute("SourceIp", Ipv4AddressValue("172.16.0.1"));
    return vip;
}

/// \param value an option's text \throws AdcConfigError unless it is an IPv4 address
void
CheckIpv4(const std::string& value)
{
    in_addr a{};
    if (inet_pton(AF_INET, value.c_str(), &a) != 1)
    {
        throw AdcConfigError("'" + value + "' is not an IPv4 address");
    }
}

/// \param s the settings \return 0 (the run's body)
int
RunEmulation(const Settings& s)
{
    AccessLog log;
    log.csv = std::make_unique<AdcCsvWriter>(
        s.outputDir + "/access.csv",
        std::vector<std::string>{"server", "peer_ip", "url", "time_s"});
    AdcEmulationHelper emu;
    emu.SetTapName(s.tap);
    emu.SetAllowHostInterfaces(s.allowHostInterfaces);
    emu.SetHostAddress(Ipv4Address(s.hostAddress.c_str()), Ipv4Mask("/24"));
    // The host reaches the VIP through the simulated node.
    const bool isCs = s.target == "CS";
    const Ipv4Address csVip("198.51.100.10");
    const Ipv4Address ilbVip("10.100.0.10");
    emu.AddHostRoute(isCs ? csVip : ilbVip, Ipv4Mask("/32"), Ipv4Address(s.simAddress.c_str()));
    CsWorld cs;
    const Ipv4Address vip = isCs ? BuildCs(s, &log, emu, cs) : BuildIlb(s, &log, emu);
    if (vip != (isCs ? csVip : ilbVip))
    {
        throw AdcConfigError("the VIP is " + AdcIpAddress(vip).ToString() +
                             ", the host route was made for another address");
    }
    AdcEmulationHelper::StopOnSignal();
    if (s.duration > 0)
    {
        Simulator::Stop(Seconds(s.duration));
    }
    std::cout << "emulate-http: " << s.target << " VIP " << vip << ":80 through tap " << s.tap
              << " (host " << s.hostAddress << ", simulated router " << s.simAddress << ")\n"
              << "  try:  curl -v http://" << vip << "/index.html"
              << (isCs ? "   (add -c jar -b jar to keep the NSC_ cookie)" : "") << "\n"
              << "  stop: Ctrl-C";
    if (s.duration > 0)
    {
        std::cout << " (or after " << s.duration << " s)";
    }
    std::cout << std::endl;
    Simulator::Run();
    Simulator::Destroy();
    std::cout << "emulate-http: stopped; requests the servers saw: " << s.outputDir << "/access.csv"
              << std::endl;
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    AdcEmulationHelper::EnableRealtime(); // before any other ns-3 call
    Settings s;
    AdcExperiment exp("emulate-http",
                      "A real HTTP client (curl) on the host reaching a simulated ILB (DSR, "
                      "HALF_NAT, FULL_NAT) or CS vserver through a Linux tap. Needs root; run "
                      "it in a network namespace of its own (./adc emulate http).");
    exp.Add("target", "DSR, HALF_NAT, FULL_NAT (the ILB) or CS (content switching)", s.target)
        .OneOf({"DSR", "HALF_NAT", "FULL_NAT", "CS"});
    exp.Add("tap", "the tap's interface name", s.tap).Check([](const std::string& t) {
        AdcEmulationHelper().SetTapName(t);
    });
    exp.Add("hostAddress", "the host side's IPv4 address on the tap (/24)", s.hostAddress)
        .Check(&CheckIpv4);
    exp.Add("simAddress", "the simulated router's IPv4 address on the tap (/24)", s.simAddress)
        .Check(&CheckIpv4);
    exp.Add("persistence", "CS persistence type", s.persistence)
        .OneOf({"NONE", "SOURCEIP", "COOKIEINSERT"});
    exp.Add("timeout", "CS persistence timeout in minutes (0: a session cookie)", s.timeout)
        .Max(1440);
    exp.Add("canary", "CS: percent of new sessions the canary policy sends to v2", s.canary)
        .Max(100);
    exp.Add("objectSize", "response body bytes", s.objectSize).Min(1).Max(10000000);
    exp.Add("duration", "seconds to run (0: until Ctrl-C or SIGTERM)", s.duration)
        .Min(0)
        .Max(86400);
    exp.AddOutputDir("outputDir", "where access.csv goes", s.outputDir);
    exp.Add("allowHostInterfaces",
            "add the tap even to a network namespace with interfaces other than lo (default: "
            "refuse; run it in a namespace of its own)",
            s.allowHostInterfaces);
    exp.AddCheck([&s, &exp]() {
        if (s.hostAddress == s.simAddress)
        {
            exp.Refuse("simAddress",
                       "an address other than --hostAddress: the two sides of the tap need two");
        }
    });
    // Full-size segments on the 1500-byte tap (ns-3's default is 536 bytes).
    exp.SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    return exp.Run(argc, argv, [&s]() { return RunEmulation(s); });
}
