/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * custom-lb-method: a researcher's extension in one file (doc/extending.rst). A new cache-
 * selection method, P2CHASH (power of two choices over URL hashes: two candidate caches from
 * two independently seeded URL hashes, the one with fewer open connections wins), is written
 * from the core's public pieces (AdcRendezvousHashLb::PickByKey, AdcLbKey::Url), registered
 * from this file with the trait CACHE_SELECTION, and so offered by the CRD lower tier with no
 * other change. It is then compared with built-in methods on the seed's N-tier topology.
 *
 * Printed per method: requests completed, the caches' hit ratio (hits / (hits + misses), as the
 * caches count them) and the busiest cache's share of the requests they served (even: 1/caches).
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-lb-method.h"
#include "ns3/core-module.h"
#include "ns3/crd-topology-helper.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// P2CHASH: the less loaded of two rendezvous candidates drawn with two URL keys.
class P2cHashLb : public AdcRendezvousHashLb
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::P2cHashLb")
                                .SetParent<AdcRendezvousHashLb>()
                                .SetGroupName("Adc")
                                .AddConstructor<P2cHashLb>();
        return tid;
    }

    std::string GetMethodName() const override
    {
        return "P2CHASH";
    }

  protected:
    uint64_t KeyHash(const AdcLbContext& ctx) const override
    {
        return AdcLbKey::Url(ctx, GetHashSeed());
    }

    int32_t DoSelect(const AdcLbContext& ctx) override
    {
        const int32_t a = PickByKey(AdcLbKey::Url(ctx, GetHashSeed()));
        const int32_t b = PickByKey(AdcLbKey::Url(ctx, ~GetHashSeed()));
        return GetBackend(b).activeConnections < GetBackend(a).activeConnections ? b : a;
    }
};

/// One run of the CRD topology with \p method choosing the caches.
void
RunOne(const std::string& method, uint32_t clientsPerNet, double duration, double zipf)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(4));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(clientsPerNet));
    h->SetAttribute("CacheLbMethod", StringValue(method));
    h->SetAttribute("CacheCapacity", UintegerValue(100 * 10240)); // 100 objects of 10 kB
    CrdTopology topo = h->Build();
    std::vector<Ptr<AdcHttpClient>> clients;
    for (uint32_t i = 0; i < topo.isp.GetNClients(); ++i)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        c->SetAttribute("CatalogueSize", UintegerValue(1000));
        c->SetAttribute("ZipfExponent", DoubleValue(zipf));
        c->SetAttribute("CacheableFraction", DoubleValue(1.0));
        c->SetAttribute("RequestStopTime", TimeValue(Seconds(duration)));
        c->SetStartTime(Seconds(0.5));
        c->SetStopTime(Seconds(duration + 8));
        c->AssignStreams(10 + 2 * i);
        topo.isp.GetClient(i)->AddApplication(c);
        clients.push_back(c);
    }
    topo.AssignStreams(100000);
    Simulator::Stop(Seconds(duration + 9));
    Simulator::Run();
    uint64_t completed = 0, hits = 0, misses = 0, served = 0, busiest = 0;
    for (const auto& c : clients)
    {
        completed += c->GetRequestsCompleted();
    }
    for (const auto& cache : topo.cacheApps)
    {
        hits += cache->GetHits();
        misses += cache->GetMisses();
        served += cache->GetRequestsServed();
        busiest = std::max(busiest, cache->GetRequestsServed());
    }
    std::printf("%-16s completed=%-6llu hit_ratio=%.3f busiest_cache_share=%.3f (even: %.3f)\n",
                method.c_str(),
                static_cast<unsigned long long>(completed),
                hits + misses ? static_cast<double>(hits) / (hits + misses) : 0.0,
                served ? static_cast<double>(busiest) / served : 0.0,
                1.0 / topo.cacheApps.size());
    Simulator::Destroy();
}

} // namespace

int
main(int argc, char* argv[])
{
    // The one registration line: the method joins NetScaler's names, and CACHE_SELECTION
    // offers it wherever a cache is chosen (the CRD lower tier, its checks and messages).
    AdcLbMethodRegistry::Register(
        "P2CHASH",
        [] { return Ptr<AdcLbMethod>(CreateObject<P2cHashLb>()); },
        AdcLbMethodRegistry::USES_REQUEST | AdcLbMethodRegistry::CACHE_SELECTION);

    std::string methods = "URLHASH,P2CHASH,LEASTCONNECTION";
    uint32_t clientsPerNet = 10;
    double duration = 10;
    double zipf = 0.8;
    AdcExperiment exp("custom-lb-method", "Compare a method registered here with built-in ones.");
    exp.AddList("methods", "cache-selection methods compared, comma-separated", methods)
        .OneOf(AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER,
                                             AdcLbMethodRegistry::CACHE_SELECTION));
    exp.Add("clientsPerNet", "clients in each of the 4 access networks", clientsPerNet)
        .Min(1)
        .Max(500);
    exp.Add("duration", "seconds of requests", duration).Above(0).Max(600);
    exp.Add("zipf", "Zipf exponent of the URLs' popularity", zipf).Min(0).Max(3);
    return exp.Run(argc, argv, [&]() {
        for (const std::string& m : AdcConfigError::SplitList(methods))
        {
            RunOne(m, clientsPerNet, duration, zipf);
        }
        return 0;
    });
}
