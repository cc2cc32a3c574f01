/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * crd-flows: the seed's three N-tier cache-redirection flows, one request each, on the seed's
 * topology (2 upper appliances L1NS1-2, 4 lower appliances L2NS1-4, 3 caches CRS1-3, one
 * origin, one router, client A), printing each request's hop sequence next to the seed's
 * numbered steps.
 *
 *  1. cache miss:   GET /obj/1 (first time)  client > router > L1 > L2 > CRS > L2' > router >
 *                   origin > L1' > L2' > CRS > L2 > router > client
 *  2. cache hit:    GET /obj/1 again          client > router > L1 > L2 > CRS > L2 > router >
 * client
 *  3. cache bypass: GET /obj/1?nocache=1      client > router > L1 > L2 > router > origin > L1' >
 *                   L2 > router > client
 *
 * The caches are chosen by URLHASH so that the second request for /obj/1 reaches the cache the
 * first one filled, and the lower tier opens a connection per request (-reuse OFF) so that the
 * path tracer follows every leg. Configuration files (--configDir) must say the same (a hash
 * -lbMethod for the caches, -reuse OFF): files that would turn the hit into a miss or hide a
 * leg are refused, and a run whose hit flow reaches the origin (or whose miss or bypass does
 * not) exits with status 1. Output in --outputDir: legs.csv (every TCP leg's path),
 * requests.csv, flows.csv (one row per flow: name, hop sequence) and, with --pcap, pcap of
 * every link.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-path-tracer.h"
#include "ns3/adc-request-log.h"
#include "ns3/core-module.h"
#include "ns3/crd-config.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

struct Flow
{
    const char* name;
    const char* url;
    double at;
    const char* seedSteps;
    bool origin; //!< the flow reaches the origin
};

const Flow kFlows[] = {
    {"cache miss",
     "/obj/1",
     2.0,
     "1 client>router>L1NS1  2 L1NS1>L2NS2  3 L2NS2>CRS1  4 CRS1>L2NS3 (intercept)  "
     "5 L2NS3>origin (client IP, own port range)  6 origin>L1NS2  7 L1NS2>L2NS3 (PBR)  "
     "8 L2NS3>router  9 router>client",
     true},
    {"cache hit",
     "/obj/1",
     4.0,
     "1 client>router>L1NS1  2 L1NS1>L2NS2  3 L2NS2>CRS1 (client IP in header)  "
     "4 CRS1>L2NS2 (MIP)  5 L2NS2>router  6 router>client",
     false},
    {"cache bypass",
     "/obj/1?nocache=1",
     6.0,
     "1 client>router>L1NS1  2 L1NS1>L2NS2  3 L2NS2>router>origin  4 origin>L1NS2  "
     "5 L1NS2>L2NS2 (PBR)  6 L2NS2>router  7 router>client",
     true},
};

void
Issue(Ptr<AdcHttpClient> client, std::string url)
{
    client->IssueRequest(url);
}

/**
 * \brief Refuse files whose lower tier would turn the hit flow into a miss (a cache method that
 * does not send one URL to one cache) or hide legs from the path tracer (-reuse ON).
 * \param exp the options \param files the files of --configDir, read
 */
void
CheckFiles(const AdcExperiment& exp, const CrdConfig& files)
{
    Ptr<CrdTopologyHelper> helper = CreateObject<CrdTopologyHelper>();
    files.Configure(helper);
    StringValue method;
    BooleanValue reuse;
    helper->GetAttribute("CacheLbMethod", method);
    helper->GetAttribute("ServerConnectionReuse", reuse);
    if (method.Get() != "URLHASH" && method.Get() != "DESTINATIONIPHASH")
    {
        exp.Refuse("configDir",
                   "the lower tier's files balance the caches with -lbMethod " + method.Get() +
                       ": the seed's second GET /obj/1 would reach another cache than the first "
                       "filled, a miss; allowed files whose cache vserver has -lbMethod URLHASH");
    }
    if (reuse.Get())
    {
        exp.Refuse("configDir",
                   "the lower tier's files reuse server connections (-reuse ON, NetScaler's "
                   "default): a flow's legs would ride earlier connections, which the path "
                   "tracer does not follow; allowed files with `set cr vserver ... -reuse OFF`");
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string outputDir = "results/crd-flows";
    bool pcap = false;
    uint32_t upper = 2;
    uint32_t lower = 4;
    uint32_t caches = 3;
    std::string configDir;
    uint32_t seed = 1;
    uint32_t run = 1;
    AdcExperiment exp("crd-flows",
                      "The seed's cache hit, bypass and miss flows with their hop sequences.");
    exp.AddOutputDir("outputDir", "where CSV and pcap files go", outputDir);
    exp.Add("pcap", "write pcap files of every link", pcap);
    exp.Add("upper", "upper-tier appliances", upper).Max(64);
    exp.Add("lower", "lower-tier appliances", lower).Min(1).Max(64);
    exp.Add("caches", "cache servers", caches).Min(1).Max(64);
    exp.Add("configDir",
            "configure the appliances from crd-upper-*.ns.conf and crd-lower-*.ns.conf here; "
            "they set the counts and methods, and must balance the caches by URLHASH with "
            "-reuse OFF, as the seed's flows need",
            configDir,
            AdcExperimentOption::Kind::INPUT_DIR)
        .SampleFiles({"crd-lower-L2NS1.ns.conf"});
    exp.AddSeedAndRun(seed, run);
    return exp.Run(argc, argv, [&]() {
        Ptr<CrdTopologyHelper> helper = CreateObject<CrdTopologyHelper>();
        helper->SetAttribute("NumUpper", UintegerValue(upper));
        helper->SetAttribute("NumLower", UintegerValue(lower));
        helper->SetAttribute("NumCaches", UintegerValue(caches));
        helper->SetAttribute("CacheLbMethod", StringValue("URLHASH"));
        // -reuse OFF: each flow's legs are new TCP connections, which the path tracer follows.
        helper->SetAttribute("ServerConnectionReuse", BooleanValue(false));
        CrdTopology topo;
        if (configDir.empty())
        {
            topo = helper->Build();
        }
        else
        {
            const CrdConfig files = CrdConfig::FromDirectory(configDir);
            CheckFiles(exp, files);
            topo = files.Build(helper);
        }

        Ptr<AdcPathTracer> tracer = CreateObject<AdcPathTracer>();
        topo.TraceNodes(tracer);

        Ptr<AdcHttpClient> client = CreateObject<AdcHttpClient>();
        client->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        client->SetAttribute("Persistent", BooleanValue(false));
        client->SetAttribute("MaxRequests", UintegerValue(0));
        client->SetAttribute("InterRequestTime",
                             StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
        topo.isp.GetClient(0)->AddApplication(client);
        client->SetStartTime(Seconds(1));
        client->SetStopTime(Seconds(10));
        for (const Flow& f : kFlows)
        {
            Simulator::Schedule(Seconds(f.at), &Issue, client, std::string(f.url));
        }
        Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
        log->SetAttribute("FileName", StringValue(outputDir + "/requests.csv"));
        log->Watch(client);
        if (pcap)
        {
            std::filesystem::create_directories(outputDir + "/pcap");
            for (const std::string& link : topo.GetLinkNames())
            {
                topo.EnablePcap(outputDir + "/pcap/crd", link);
            }
        }

        Simulator::Stop(Seconds(11));
        Simulator::Run();

        std::ofstream flows(outputDir + "/flows.csv");
        flows << "flow,hops\n";
        std::cout << "N-tier cache redirection: the seed's flows (client A = "
                  << topo.isp.GetClientAddress(0) << ", origin = " << topo.originAddress << ")\n";
        std::string wrong;
        for (std::size_t i = 0; i < std::size(kFlows); ++i)
        {
            const Flow& f = kFlows[i];
            const Time to = i + 1 < std::size(kFlows) ? Seconds(kFlows[i + 1].at) : Seconds(11);
            const std::string hops =
                AdcPathTracer::ToString(tracer->GetHopSequence(Seconds(f.at), to));
            std::cout << "\n"
                      << f.name << ": GET " << f.url << "\n  seed:  " << f.seedSteps
                      << "\n  model: " << hops << "\n";
            flows << f.name << ',' << hops << '\n';
            if ((hops.find("origin") != std::string::npos) != f.origin)
            {
                wrong += std::string(wrong.empty() ? "" : "; ") + "the " + f.name + " flow " +
                         (f.origin ? "never reaches" : "reaches") + " the origin";
            }
        }
        tracer->WriteCsv(outputDir + "/legs.csv");
        std::cout << "\nrequests: " << log->Summary() << std::endl;
        // Each of the seed's flows is one request over a healthy topology: all complete.
        const std::string mismatch =
            log->CheckExpectation(AdcAccountingExpectation::Completed(std::size(kFlows)));
        Simulator::Destroy();
        if (!mismatch.empty())
        {
            throw AdcExperimentError("request accounting broken: " + mismatch);
        }
        if (!wrong.empty())
        {
            throw AdcExperimentError("not the seed's flows: " + wrong);
        }
        return 0;
    });
}
