/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * cs-canary: a canary deployment through a NetScaler content-switching virtual server, the
 * seed's subject (content switching with persistence across LB virtual servers).
 *
 * The configuration is NetScaler's ns.conf (examples/cs-canary.ns.conf, built in; --config
 * reads another): LB virtual servers LB1 (version v1) and LB2 (v2), a CS virtual server CS-1
 * with LB1 as its default and a policy "pol-canary" sending SYS.RANDOM.MUL(100).LT(p) of the
 * requests to LB2. The topology is an ISP (AdcIspTopologyHelper: access networks of clients,
 * a core, a data centre with one server per service) with the appliance attached to the core
 * and holding the CS vserver's VIP.
 *
 * Part 1, the seed's scenarios step by step (scenarios.csv): client C1 reaches LB1; LB2 is
 * bound with a policy; C1 asks again; a new client C2 asks. Scenario 1 has no persistence (C1
 * moves to LB2, its transaction breaks); scenario 2 has SOURCEIP persistence (C1 stays on LB1,
 * C2 reaches LB2).
 *
 * Part 2, a rolling canary with thousands of clients, once per persistence mode (--modes): the
 * canary's share grows by --stepShare percent every --rolloutStep seconds from --rolloutStart
 * (`set cs policy pol-canary -rule ...` read at run time). Clients run stateful transactions of
 * --txnLength requests; a transaction whose responses come from two versions is broken. Each
 * client arrives at a random time (a new session), runs --sessionTxns transactions and leaves.
 * Client kinds (--cookieMix): browsers keeping cookies (KEEP), clients returning no cookie
 * (NONE) and clients returning only their own cookies (OTHER), which backup persistence tells
 * apart. The SSLSESSION mode runs on the configuration's SSL CS vserver (CS-SSL) with TLS 1.2
 * clients that open a connection per request and resume their session on each.
 *
 * Output in --outputDir: scenarios.csv; summary.csv (one row per mode: requests, outcomes,
 * transactions, broken ones, v2 share of new sessions at the end, persistence table peak,
 * overflows); timeseries-MODE.csv (per second: canary percent, new sessions, on v2, broken so
 * far, persistence entries); requests-MODE.csv (one row per request); ns.conf (the
 * configuration used); pcap/ (the appliance's link in the first COOKIEINSERT run, Set-Cookie
 * headers as Wireshark shows them, and in the SSLSESSION run, the TLS handshakes with their
 * session IDs). `./adc plot cs-canary` draws them (utils/cs-plot.py).
 */

#include "ns3/adc-config-reader.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-isp-topology-helper.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-service.h"
#include "ns3/adc-text.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/core-module.h"
#include "ns3/cs-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("CsCanary");

namespace
{

/// examples/cs-canary.ns.conf (a CTest keeps the two the same).
const char* const kDefaultConfig =
    R"NSCONF(# cs-canary: the seed's canary deployment (content switching with persistence across LB
# virtual servers), in NetScaler's ns.conf syntax. cs-canary builds its topology from this
# file: one data-centre server per service (addresses 172.16.0.2 and up, in order), the CS
# vserver's VIP on the appliance. The experiment sets the persistence of each run with
# "set cs vserver CS-1 -persistenceType ..." and rolls the canary forward with
# "set cs policy pol-canary -rule ...". CS-SSL, an SSL vserver with the same policies, serves
# the SSLSESSION run (TLS clients resuming their sessions).
add service v1-s1 172.16.0.2 HTTP 80
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
add cs vserver CS-SSL SSL 198.51.100.11 443
bind cs vserver CS-SSL -lbvserver LB1
bind cs vserver CS-SSL -policyName pol-canary -priority 100
)NSCONF";

/// The experiment's settings, all settable from the command line.
struct Settings
{
    uint32_t accessNets{10};
    uint32_t clientsPerNet{200};
    double duration{80};
    double rate{0.25};
    uint32_t txnLength{5};
    uint32_t sessionTxns{3};
    double rolloutStart{10};
    double rolloutStep{6};
    uint32_t stepShare{10};
    uint32_t timeout{10};
    std::string modes{"NONE,SOURCEIP,COOKIEINSERT,COOKIEINSERT+SOURCEIP,SSLSESSION"};
    std::string cookieMix{"KEEP:0.8,NONE:0.15,OTHER:0.05"};
    uint32_t maxEntries{250000};
    std::string config;
    bool scenarios{true};
    bool pcap{true};
    bool printConfig{false};
    std::string outputDir{"results/cs-canary"};
    uint32_t seed{1};
    uint32_t run{1};
};

/// A topology with the appliance, servers and CS vserver of a configuration.
struct World
{
    std::unique_ptr<AdcConfigReader> reader; //!< the configuration (kept for run-time lines)
    Ptr<AdcIspTopologyHelper> topo;          //!< the topology's builder
    AdcIspTopology net;                      //!< the topology
    Ptr<Node> appliance;                     //!< the CS appliance
    AdcCoreAttachment link;                  //!< its link to the core
    Ptr<CsVirtualServer> cs;                 //!< the CS vserver
    Ipv4Address vip;                         //!< its VIP
    uint16_t port{80};                       //!< its port
    std::string policy;                      //!< the canary's policy (the first bound)
    bool ssl{false};                         //!< an SSL CS vserver: clients speak TLS
};

/// \return the configuration text of \p s
std::string
ConfigText(const Settings& s)
{
    if (s.config.empty())
    {
        return kDefaultConfig;
    }
    std::ifstream in(s.config);
    if (!in)
    {
        throw AdcConfigError("--config: cannot read '" + s.config + "'");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// \param mode "NONE", "SOURCEIP", "COOKIEINSERT" or "COOKIEINSERT+SOURCEIP"
/// \return the `set cs vserver` line for it
std::string
PersistenceLine(const std::string& cs, const std::string& mode, uint32_t timeout)
{
    std::ostringstream os;
    const std::size_t plus = mode.find('+');
    const std::string type = mode.substr(0, plus);
    os << "set cs vserver " << cs << " -persistenceType " << type;
    if (type != "NONE")
    {
        os << " -timeout " << timeout;
    }
    if (plus != std::string::npos)
    {
        os << " -persistenceBackup " << mode.substr(plus + 1) << " -backupPersistenceTimeout "
           << timeout;
    }
    return os.str();
}

/**
 * \brief Build the topology and the appliance from the configuration.
 * \param s the settings \param accessNets access networks \param clientsPerNet clients in each
 * \param mode the persistence mode
 * \return the world
 */
World
Build(const Settings& s, uint32_t accessNets, uint32_t clientsPerNet, const std::string& mode)
{
    World w;
    w.reader = std::make_unique<AdcConfigReader>(AdcNetScalerCsCommands::GetLanguage());
    w.reader->ReadString(ConfigText(s), s.config.empty() ? "cs-canary.ns.conf" : s.config);
    AdcConfigStore& store = w.reader->GetStore();
    // The first CS vserver of the mode's service type: SSL for SSLSESSION, else HTTP.
    const std::string wantType = mode == "SSLSESSION" ? "SSL" : "HTTP";
    std::string csName;
    for (const auto& v : store.GetAll<AdcCsVserverConfig>(AdcNetScalerCsCommands::CS_VSERVER))
    {
        if (csName.empty() && v->GetServiceType() == wantType)
        {
            csName = v->GetName();
        }
    }
    if (csName.empty())
    {
        throw AdcConfigError("--modes " + mode + ": the configuration defines no " + wantType +
                             " CS vserver (add cs vserver <name> " + wantType + " <VIP> <port>)");
    }
    w.ssl = wantType == "SSL";
    // The program's own command (not the user's file): its errors name the option.
    w.reader->ReadCommands(PersistenceLine(csName, mode, s.timeout), "--modes=" + mode);
    Ptr<AdcCsVserverConfig> csConfig =
        store.Get<AdcCsVserverConfig>(AdcNetScalerCsCommands::CS_VSERVER, csName);
    if (csConfig->GetVip().IsNone() || !csConfig->GetVip().IsV4())
    {
        throw AdcConfigError("CS vserver '" + csName + "' needs an IPv4 VIP and port");
    }
    w.vip = csConfig->GetVip().GetIpv4();
    w.port = csConfig->GetPort();
    if (csConfig->GetPolicyBindings().empty())
    {
        // The rollout changes this policy's rule: without it the canary never gets a request.
        throw AdcConfigError(
            (s.config.empty() ? "the built-in configuration" : "--config=" + s.config) +
            ": CS vserver '" + csName +
            "' binds no policy; the rollout changes the rule of the first "
            "policy bound to it: allowed a configuration with `bind cs vserver " +
            csName + " -policyName <policy> -priority <n>`");
    }
    w.policy = csConfig->GetPolicyBindings().front().policy;

    // One data-centre server per service, at the service's address.
    const auto services = store.GetAll<AdcService>(AdcNetScalerCommands::SERVICE);
    w.topo = CreateObject<AdcIspTopologyHelper>();
    w.topo->SetAttribute("NumAccessNetworks", UintegerValue(accessNets));
    w.topo->SetAttribute("ClientsPerAccessNetwork", UintegerValue(clientsPerNet));
    w.topo->SetAttribute("NumServers", UintegerValue(services.size()));
    w.net = w.topo->Build();
    // Application version of a service: v<k> for the k-th LB vserver binding it.
    std::map<std::string, std::string> version;
    const auto lbs = store.GetAll<AdcVirtualServer>(AdcNetScalerCommands::LB_VSERVER);
    for (std::size_t k = 0; k < lbs.size(); ++k)
    {
        for (const AdcVirtualServer::ServiceBinding& b : lbs[k]->GetServiceBindings())
        {
            version.emplace(b.name, "v" + std::to_string(k + 1));
        }
    }
    for (const Ptr<AdcService>& svc : services)
    {
        uint32_t j = 0;
        while (j < services.size() && AdcIpAddress(w.net.GetServerAddress(j)) != svc->GetAddress())
        {
            ++j;
        }
        if (j == services.size())
        {
            std::ostringstream os;
            os << "service '" << svc->GetName() << "': address " << svc->GetAddress()
               << " is not a data-centre server; the servers are " << w.net.GetServerAddress(0)
               << ".." << w.net.GetServerAddress(services.size() - 1)
               << " (one per service, in order)";
            throw AdcConfigError(os.str());
        }
        Ptr<AdcHttpServer> srv = CreateObject<AdcHttpServer>();
        srv->SetAttribute("Port", UintegerValue(svc->GetPort()));
        srv->SetAttribute("ServerName", StringValue(svc->GetName()));
        srv->SetAttribute("AppVersion", StringValue(version[svc->GetName()]));
        srv->SetAttribute("ObjectSize", UintegerValue(4000));
        w.net.servers.Get(j)->AddApplication(srv);
    }

    // The appliance: attached to the core, the VIP an extra /32 routed to it.
    w.appliance = CreateObject<Node>();
    w.link = w.topo->AttachToCore(w.appliance);
    Ptr<Ipv4> ipv4 = w.appliance->GetObject<Ipv4>();
    const int32_t ifIndex = ipv4->GetInterfaceForDevice(w.link.devices.Get(1));
    ipv4->AddAddress(ifIndex, Ipv4InterfaceAddress(w.vip, Ipv4Mask("255.255.255.255")));
    w.topo->AddCoreRoute(w.vip, Ipv4Mask("255.255.255.255"), w.link);
    w.cs = CsHelper::Install(w.appliance, store, csName);
    w.cs->SetAttribute("SourceIp", Ipv4AddressValue(w.link.GetNodeAddress()));
    w.cs->SetAttribute("MaxPersistenceEntries", UintegerValue(s.maxEntries));
    w.cs->AssignStreams(7);
    return w;
}

/// \param w the world \param percent the canary's share: read `set cs policy` and apply it
void
SetCanary(World* w, uint32_t percent)
{
    w->reader->ReadCommands("set cs policy " + w->policy + " -rule \"SYS.RANDOM.MUL(100).LT(" +
                                std::to_string(percent) + ")\"",
                            "--stepShare (the rollout)");
    CsHelper::Sync(w->cs, w->reader->GetStore());
}

/// A client that records which LB vserver each of its requests reached (from "Decision").
struct ScenarioRow
{
    std::string client;  //!< C1 or C2
    std::string lb;      //!< LB vserver
    std::string version; //!< X-App-Version of the response
    std::string how;     //!< the CS vserver's reason
};
} // namespace

namespace
{

/**
 * \brief The seed's scenario 1 (mode NONE) or 2 (SOURCEIP), step by step.
 * \param s the settings \param mode the persistence mode \param csv where rows go
 * \return the LB vservers C1, C1, C2 reached (for the check against the seed)
 */
std::vector<std::string>
RunScenario(const Settings& s, const std::string& mode, std::ostream& csv)
{
    World w = Build(s, 1, 2, mode);
    SetCanary(&w, 0); // LB2 not reachable yet: the canary's policy matches nothing
    std::vector<ScenarioRow> rows;
    w.cs->TraceConnectWithoutContext(
        "Decision",
        Callback<void,
                 const std::string&,
                 const std::string&,
                 const std::string&,
                 const std::string&,
                 const std::string&>([&rows, &w](const std::string& client,
                                                 const std::string&,
                                                 const std::string& lb,
                                                 const std::string&,
                                                 const std::string& how) {
            std::ostringstream c1;
            c1 << w.net.GetClientAddress(0) << ":";
            rows.push_back({client.rfind(c1.str(), 0) == 0 ? "C1" : "C2", lb, "", how});
        }));
    std::vector<Ptr<AdcHttpClient>> clients;
    for (uint32_t c = 0; c < 2; ++c)
    {
        Ptr<AdcHttpClient> cli = CreateObject<AdcHttpClient>();
        cli->SetAttribute("Remote", AddressValue(InetSocketAddress(w.vip, w.port)));
        cli->SetAttribute("MaxRequests", UintegerValue(0));
        cli->SetAttribute("InterRequestTime",
                          StringValue("ns3::ConstantRandomVariable[Constant=1000]"));
        w.net.clients.Get(c)->AddApplication(cli);
        clients.push_back(cli);
    }
    // Steps: 1 s C1 asks; 2 s LB2 bound with a policy (the canary at 100%); 3 s C1 asks
    // again; 4 s the new client C2 asks.
    Simulator::Schedule(Seconds(1), [&clients]() { clients[0]->IssueRequest("/app"); });
    Simulator::Schedule(Seconds(2), [&w]() { SetCanary(&w, 100); });
    Simulator::Schedule(Seconds(3), [&clients]() { clients[0]->IssueRequest("/app"); });
    Simulator::Schedule(Seconds(4), [&clients]() { clients[1]->IssueRequest("/app"); });
    Simulator::Stop(Seconds(6));
    Simulator::Run();
    std::vector<std::string> reached;
    const char* steps[] = {"C1 requests", "C1 requests after LB2 is bound", "new client C2"};
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        csv << (mode == "NONE" ? 1 : 2) << ',' << mode << ',' << i + 1 << ','
            << (i < 3 ? steps[i] : "") << ',' << rows[i].client << ',' << rows[i].lb << ','
            << rows[i].how << '\n';
        reached.push_back(rows[i].lb);
    }
    Simulator::Destroy();
    return reached;
}

/// One mode's results.
struct Summary
{
    std::string mode;
    uint64_t sent{0};
    uint64_t completed{0};
    uint64_t failed{0};
    uint64_t openAtStop{0};
    uint64_t transactions{0};
    uint64_t broken{0};
    double v2ShareEnd{0};
    uint32_t tablePeak{0};
    uint64_t overflows{0};
    uint64_t persistenceHits{0};
};

/// Per-second counters of a run.
struct Series
{
    std::map<int64_t, uint64_t> newSessions;   //!< second -> first responses of visits
    std::map<int64_t, uint64_t> newSessionsV2; //!< of those, from v2
    uint64_t broken{0};                        //!< broken so far
};

/**
 * \param spec "KIND:share,...", checked by --cookieMix's check
 * \return the kinds and cumulative shares
 * \throws AdcConfigError saying what is wrong (the scaffold names the option)
 */
std::vector<std::pair<std::string, double>>
ParseMix(const std::string& spec)
{
    std::vector<std::pair<std::string, double>> out;
    double total = 0;
    for (const std::string& item : AdcConfigError::SplitList(spec))
    {
        const std::size_t colon = item.find(':');
        const std::string kind = item.substr(0, colon);
        char* end = nullptr;
        const double share =
            colon == std::string::npos ? -1 : std::strtod(item.c_str() + colon + 1, &end);
        if (colon == std::string::npos || (kind != "KEEP" && kind != "NONE" && kind != "OTHER") ||
            end == item.c_str() + colon + 1 || *end != '\0' || !(share >= 0 && share <= 1e6))
        {
            throw AdcConfigError(AdcExperiment::Show(item) +
                                 " is not KIND:share; allowed KIND one of KEEP, NONE, OTHER and "
                                 "a share, a number >= 0");
        }
        total += share;
        out.emplace_back(kind, total);
    }
    if (out.empty() || total <= 0)
    {
        throw AdcConfigError("gives no client kind a share; allowed KIND:share,... with a "
                             "share > 0");
    }
    for (auto& [kind, cum] : out)
    {
        cum /= total;
    }
    return out;
}

/// Run the rolling canary once with persistence \p mode.
Summary
RunRollout(const Settings& s, const std::string& mode, bool withPcap)
{
    World w = Build(s, s.accessNets, s.clientsPerNet, mode);
    SetCanary(&w, 0);
    const uint32_t steps = (100 + s.stepShare - 1) / s.stepShare;
    uint32_t percentNow = 0;
    for (uint32_t k = 1; k <= steps; ++k)
    {
        const uint32_t percent = std::min(100u, k * s.stepShare);
        Simulator::Schedule(Seconds(s.rolloutStart + (k - 1) * s.rolloutStep),
                            [&w, percent, &percentNow]() {
                                SetCanary(&w, percent);
                                percentNow = percent;
                            });
    }

    AdcHttpClientHelper clientHelper(InetSocketAddress(w.vip, w.port));
    std::ostringstream iat;
    iat << "ns3::ExponentialRandomVariable[Mean=" << 1.0 / s.rate << "]";
    clientHelper.SetAttribute("InterRequestTime", StringValue(iat.str()));
    clientHelper.SetAttribute("TransactionLength", UintegerValue(s.txnLength));
    clientHelper.SetAttribute("MaxRequests", UintegerValue(s.txnLength * s.sessionTxns));
    clientHelper.SetAttribute("CatalogueSize", UintegerValue(100));
    clientHelper.SetAttribute("Tls", BooleanValue(w.ssl));
    // TLS clients open a connection per request and resume their session on each.
    clientHelper.SetAttribute("Persistent", BooleanValue(!w.ssl));
    clientHelper.SetAttribute("RequestTimeout", TimeValue(Seconds(4)));
    clientHelper.SetAttribute("RequestStopTime", TimeValue(Seconds(s.duration)));
    ApplicationContainer clients = clientHelper.Install(w.net.clients);
    clientHelper.AssignStreams(w.net.clients, 100);
    clients.Stop(Seconds(s.duration + 6));

    // Visits: each client arrives at a uniform time of the run (a new session), runs
    // sessionTxns transactions and leaves. Kinds and arrivals come from their own streams.
    Ptr<UniformRandomVariable> arrival = CreateObject<UniformRandomVariable>();
    arrival->SetStream(6);
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        clients.Get(i)->SetStartTime(Seconds(arrival->GetValue(0.5, s.duration - 10)));
    }
    const auto mix = ParseMix(s.cookieMix);
    Ptr<UniformRandomVariable> kindDraw = CreateObject<UniformRandomVariable>();
    kindDraw->SetStream(5);
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->SetAttribute("FileName", StringValue(s.outputDir + "/requests-" + mode + ".csv"));
    Series series;
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        Ptr<AdcHttpClient> c = DynamicCast<AdcHttpClient>(clients.Get(i));
        const double u = kindDraw->GetValue();
        std::string kind = mix.back().first;
        for (const auto& [k, cum] : mix)
        {
            if (u < cum)
            {
                kind = k;
                break;
            }
        }
        c->SetAttribute("CookiePolicy", StringValue(kind));
        log->Watch(c);
        c->TraceConnectWithoutContext(
            "Response",
            Callback<void, uint64_t, const AdcHttpStreamParser::Message&>(
                [&series](uint64_t rid, const AdcHttpStreamParser::Message& m) {
                    if (rid != 1)
                    {
                        return; // not the first request of a visit
                    }
                    const int64_t second = Simulator::Now().GetSeconds();
                    ++series.newSessions[second];
                    series.newSessionsV2[second] +=
                        m.head.GetHeader("X-App-Version").value_or("") == "v2" ? 1 : 0;
                }));
        c->TraceConnectWithoutContext(
            "TransactionBroken",
            Callback<void, uint64_t, uint64_t, const std::string&, const std::string&>(
                [&series](uint64_t, uint64_t, const std::string&, const std::string&) {
                    ++series.broken;
                }));
    }

    std::ofstream ts(s.outputDir + "/timeseries-" + mode + ".csv");
    ts << "time_s,canary_percent,new_sessions,new_sessions_v2,broken_total,persistence_entries\n";
    uint32_t tablePeak = 0;
    for (int64_t t = 1; t <= static_cast<int64_t>(s.duration); ++t)
    {
        Simulator::Schedule(Seconds(t), [&, t]() {
            const Time now = Simulator::Now();
            const uint32_t entries = w.cs->GetPersistenceTable()->GetSize(now) +
                                     w.cs->GetBackupPersistenceTable()->GetSize(now);
            tablePeak = std::max(tablePeak, entries);
            ts << t << ',' << percentNow << ',' << series.newSessions[t - 1] << ','
               << series.newSessionsV2[t - 1] << ',' << series.broken << ',' << entries << '\n';
        });
    }
    if (withPcap)
    {
        std::filesystem::create_directories(s.outputDir + "/pcap");
        PointToPointHelper p2p;
        p2p.EnablePcap(s.outputDir + "/pcap/appliance-" + mode + ".pcap",
                       w.link.devices.Get(1),
                       false,
                       true);
    }
    Simulator::Stop(Seconds(s.duration + 7));
    Simulator::Run();

    Summary sum;
    sum.mode = mode;
    sum.sent = log->GetSent();
    sum.completed = log->GetCompleted();
    sum.failed = log->GetFailed();
    sum.openAtStop = log->GetOpenAtStop();
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        Ptr<AdcHttpClient> c = DynamicCast<AdcHttpClient>(clients.Get(i));
        sum.transactions += c->GetTransactionsStarted();
        sum.broken += c->GetTransactionsBroken();
    }
    // The v2 share of new sessions over the last 10 s of arrivals.
    uint64_t lastNew = 0;
    uint64_t lastV2 = 0;
    for (int64_t t = static_cast<int64_t>(s.duration) - 20; t < s.duration - 10; ++t)
    {
        lastNew += series.newSessions[t];
        lastV2 += series.newSessionsV2[t];
    }
    sum.v2ShareEnd = lastNew > 0 ? static_cast<double>(lastV2) / lastNew : 0;
    sum.tablePeak = tablePeak;
    sum.overflows = w.cs->GetPersistenceOverflows();
    sum.persistenceHits = w.cs->GetPersistenceHits();
    const std::string mismatch =
        log->CheckExpectation(AdcAccountingExpectation::CompletedAtLeast(1).AnyFailures());
    log->Close();
    Simulator::Destroy();
    if (!mismatch.empty())
    {
        throw AdcExperimentError("request accounting broken for " + mode + ": " + mismatch + " (" +
                                 log->Summary() + ")");
    }
    return sum;
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    AdcExperiment exp("cs-canary",
                      "A canary rollout through a NetScaler content-switching vserver, once per "
                      "persistence mode: transactions broken, v2 share, persistence table.");
    exp.Add("accessNets", "access networks of clients", s.accessNets)
        .Min(1)
        .Max(AdcIspTopologyHelper::MAX_ACCESS_NETWORKS);
    exp.Add("clientsPerNet", "clients in each access network", s.clientsPerNet)
        .Min(1)
        .Max(AdcIspTopologyHelper::MAX_CLIENTS_PER_ACCESS_NETWORK);
    exp.Add("duration", "seconds during which clients issue requests", s.duration)
        .Min(20)
        .Max(86400);
    exp.Add("rate", "requests per second of each client (exponential gaps)", s.rate)
        .Above(0)
        .Max(1000);
    exp.Add("txnLength", "requests per stateful transaction", s.txnLength).Min(1).Max(1000);
    exp.Add("sessionTxns", "transactions of each client's visit", s.sessionTxns).Min(1).Max(1000);
    exp.Add("rolloutStart", "when the canary's first step goes live (s)", s.rolloutStart).Min(0);
    exp.Less("rolloutStart", "duration");
    exp.Add("rolloutStep", "seconds between canary steps", s.rolloutStep).Above(0).Max(86400);
    exp.Add("stepShare", "percent of requests the canary gains at each step", s.stepShare)
        .Min(1)
        .Max(100);
    exp.Add("timeout", "persistence timeout of every mode (minutes)", s.timeout).Min(2).Max(1440);
    exp.AddList("modes",
                "persistence modes, comma-separated: NONE, SOURCEIP, COOKIEINSERT, "
                "COOKIEINSERT+SOURCEIP (backup), SSLSESSION (TLS clients on the SSL vserver)",
                s.modes)
        .OneOf({"NONE", "SOURCEIP", "COOKIEINSERT", "COOKIEINSERT+SOURCEIP", "SSLSESSION"});
    exp.Add("cookieMix",
            "client kinds and shares: KEEP (browser), NONE (no cookies), OTHER (only other "
            "cookies)",
            s.cookieMix)
        .Check([](const std::string& v) { ParseMix(v); });
    exp.Add("maxEntries", "persistence sessions the CS vserver keeps", s.maxEntries)
        .Min(1)
        .Max(1e8);
    exp.Add("config",
            "ns.conf to read instead of the built-in one",
            s.config,
            AdcExperimentOption::Kind::INPUT_FILE);
    exp.Add("scenarios", "run the seed's scenarios 1 and 2 first", s.scenarios);
    exp.Add("pcap", "write a pcap of the appliance's link (first COOKIEINSERT run)", s.pcap);
    exp.Add("printConfig", "print the built-in ns.conf and exit", s.printConfig);
    exp.AddOutputDir("outputDir", "where CSV and pcap files go", s.outputDir);
    exp.AddSeedAndRun(s.seed, s.run);
    exp.AddLoadLimits([&s]() {
        const double clients = double(s.accessNets) * s.clientsPerNet;
        // A visit ends after its transactions: no client asks more than that.
        const double perClient =
            std::min(double(s.txnLength) * s.sessionTxns, s.rate * s.duration + 1);
        const double requests = clients * perClient * AdcConfigError::SplitList(s.modes).size();
        return AdcExperiment::Load{clients, requests, requests * 4000, clients * 100};
    });
    return exp.Run(argc, argv, [&s]() {
        if (s.printConfig)
        {
            std::cout << kDefaultConfig;
            return 0;
        }
        std::ofstream(s.outputDir + "/ns.conf") << ConfigText(s);
        if (s.scenarios)
        {
            std::ofstream csv(s.outputDir + "/scenarios.csv");
            csv << "scenario,persistence,step,what,client,lb_vserver,how\n";
            const auto one = RunScenario(s, "NONE", csv);
            const auto two = RunScenario(s, "SOURCEIP", csv);
            std::cout << "scenario 1 (no persistence): C1 " << one.at(0) << ", then C1 "
                      << one.at(1) << ", new client C2 " << one.at(2) << "\n"
                      << "scenario 2 (SOURCEIP):       C1 " << two.at(0) << ", then C1 "
                      << two.at(1) << ", new client C2 " << two.at(2) << "\n";
        }
        std::ofstream summary(s.outputDir + "/summary.csv");
        summary << "mode,sent,completed,failed,open_at_stop,transactions,broken,broken_share,"
                   "v2_share_new_sessions_end,persistence_peak,overflows,persistence_hits\n";
        bool pcapDone = !s.pcap;
        for (const std::string& mode : AdcConfigError::SplitList(s.modes))
        {
            // The first COOKIEINSERT run and the SSLSESSION run write the appliance's pcap.
            const bool pcap = s.pcap && ((!pcapDone && mode.rfind("COOKIEINSERT", 0) == 0) ||
                                         mode == "SSLSESSION");
            pcapDone = pcapDone || (pcap && mode != "SSLSESSION");
            const Summary r = RunRollout(s, mode, pcap);
            summary << r.mode << ',' << r.sent << ',' << r.completed << ',' << r.failed << ','
                    << r.openAtStop << ',' << r.transactions << ',' << r.broken << ',' << std::fixed
                    << std::setprecision(4)
                    << (r.transactions ? static_cast<double>(r.broken) / r.transactions : 0.0)
                    << ',' << r.v2ShareEnd << std::defaultfloat << ',' << r.tablePeak << ','
                    << r.overflows << ',' << r.persistenceHits << '\n';
            std::cout << mode << ": " << r.sent << " requests, " << r.completed << " completed, "
                      << r.transactions << " transactions, " << r.broken << " broken\n";
        }
        return 0;
    });
}
