/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD at scale: the seed's ISPs serve gigabytes per second of cached data. A scaled-down
 * scenario (200 clients, a small catalogue of large cacheable objects, persistent connections)
 * on the full N-tier topology must carry more than 1 Gbps of simulated throughput to the
 * clients, with every request accounted for.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-http-client.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-throughput-sampler.h"
#include "ns3/core-module.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/csma-net-device.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Give the topology's random variables (ARP jitter, CSMA backoff, monitors) fixed streams:
 * ns-3 numbers the others in creation order across the process, so the result would depend on
 * which tests ran before.
 */
void
FixStreams(const CrdTopology& topo)
{
    int64_t stream = 1000000;
    stream += InternetStackHelper().AssignStreams(NodeContainer::GetGlobal(), stream);
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            if (Ptr<CsmaNetDevice> csma = DynamicCast<CsmaNetDevice>(node->GetDevice(d)))
            {
                stream += csma->AssignStreams(stream);
            }
        }
    }
    for (const auto* monitors : {&topo.upperMonitors, &topo.lowerMonitors})
    {
        for (const auto& m : *monitors)
        {
            stream += m->AssignStreams(stream);
        }
    }
}

class CrdScale : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
        // The test uses full-size segments; later tests in this process get ns-3's default.
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(536));
    }
};

} // namespace

// REQ: CRD-13
TEST_F(CrdScale, CachedObjectsReachTheClientsAtMoreThanOneGbps)
{
    // Offered load: 200 clients x 4 requests/s x 250 kB = 1.6 Gbps, inside the access LANs
    // (40 x 1 Gbps CSMA, 5 clients each) and the appliance links (10 Gbps and more).
    const uint32_t accessNets = 40;
    const uint32_t perNet = 5;
    const uint32_t objectSize = 250000;
    const uint32_t catalogue = 10;
    const Time warmAt = Seconds(0.1);
    const Time start = Seconds(0.5);
    const Time windowStart = Seconds(0.55);
    const Time windowEnd = Seconds(0.85);
    const Time stopRequests = Seconds(0.85);
    const Time stopClients = Seconds(1.6);

    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(accessNets));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(perNet));
    h->SetAttribute("ObjectSize", UintegerValue(objectSize));
    // URLHASH: every lower appliance sends an object to the same cache, which holds its copy.
    h->SetAttribute("CacheLbMethod", StringValue("URLHASH"));
    CrdTopology topo = h->Build();

    auto makeClient = [&](uint32_t i) {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        c->SetAttribute("Persistent", BooleanValue(true));
        c->SetAttribute("CatalogueSize", UintegerValue(catalogue));
        c->SetAttribute("CacheableFraction", DoubleValue(1.0));
        c->SetStopTime(stopClients);
        topo.isp.GetClient(i)->AddApplication(c);
        return c;
    };
    // Warm-up: one request per object fills the caches (one miss each) before the load. The
    // first goes alone: a fresh node queues only 3 packets while it resolves its gateway's MAC
    // address (ArpCache PendingQueueSize, with up to 10 ms of request jitter) and drops the
    // rest, so the others follow once the addresses are known.
    Ptr<AdcHttpClient> warm = makeClient(0);
    warm->SetAttribute("MaxConnections", UintegerValue(catalogue));
    warm->SetAttribute("InterRequestTime",
                       StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
    warm->SetStartTime(warmAt);
    for (uint32_t k = 1; k <= catalogue; ++k)
    {
        Simulator::Schedule(warmAt + MilliSeconds(k == 1 ? 1 : 50 + 2 * k),
                            [warm, k]() { warm->IssueRequest("/obj/" + std::to_string(k)); });
    }

    Ptr<AdcThroughputSampler> sampler = CreateObject<AdcThroughputSampler>();
    std::vector<Ptr<AdcHttpClient>> clients;
    for (uint32_t i = 0; i < topo.isp.GetNClients(); ++i)
    {
        Ptr<AdcHttpClient> c = makeClient(i);
        c->SetAttribute("MaxConnections", UintegerValue(2));
        c->SetAttribute("InterRequestTime",
                        StringValue("ns3::ExponentialRandomVariable[Mean=0.25]"));
        c->SetAttribute("RequestStopTime", TimeValue(stopRequests));
        c->SetStartTime(start);
        c->AssignStreams(100 + 2 * i);
        sampler->WatchApplication(c, "client" + std::to_string(i));
        clients.push_back(c);
    }
    uint64_t windowBytes = 0;
    sampler->TraceConnectWithoutContext(
        "Sample",
        Callback<void, Time, const std::string&, const std::string&, uint64_t, double>(
            [&windowBytes](Time, const std::string& name, const std::string&, uint64_t b, double) {
                if (name == AdcThroughputSampler::AGGREGATE_NAME)
                {
                    windowBytes += b;
                }
            }));
    sampler->Start(windowStart, windowEnd);
    FixStreams(topo);

    // After the clients' stop, so that StopApplication ends whatever is still open.
    Simulator::Stop(stopClients + MilliSeconds(1));
    Simulator::Run();

    uint64_t completed = 0;
    for (const auto& c : clients)
    {
        completed += c->GetRequestsCompleted();
    }
    uint64_t hits = 0;
    uint64_t misses = 0;
    for (const auto& cache : topo.cacheApps)
    {
        hits += cache->GetHits();
        misses += cache->GetMisses();
    }
    const double gbps = windowBytes * 8.0 / (windowEnd - windowStart).GetSeconds() / 1e9;
    RecordProperty("aggregate_gbps", std::to_string(gbps));

    EXPECT_GT(gbps, 1.0) << "bytes in the window: " << windowBytes;
    // About 200 x 4/s x 0.35 s = 280 requests; every one completes at this load, none is
    // still open when the clients stop 0.75 s after the last is issued.
    EXPECT_TRUE(AdcExpectAccounting(clients, AdcAccountingExpectation::CompletedAtLeast(201)));
    EXPECT_TRUE(AdcExpectAccounting(*warm, AdcAccountingExpectation::Completed(catalogue)));
    // Served from the caches: the warm-up missed each object once, the load only hit.
    EXPECT_EQ(misses, catalogue);
    EXPECT_EQ(hits, completed);
}
