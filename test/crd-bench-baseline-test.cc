/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the CRD topology's benchmark baselines that crd-bench's upper-tier pair uses:
 * plain upper routers spreading flows over every lower node by per-flow ECMP
 * (UpperRouterEcmp), with relays connecting from their own address (RelayClientSource false).
 */

#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-request-record.h"
#include "ns3/boolean.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/inet-socket-address.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// \return a helper for \p accessNets x \p perNet clients, relays without USIP, monitors off
Ptr<CrdTopologyHelper>
EcmpHelper(uint32_t accessNets, uint32_t perNet)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(accessNets));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(perNet));
    h->SetAttribute("UpperTierMode", StringValue("ROUTER"));
    h->SetAttribute("LowerTierMode", StringValue("RELAY"));
    h->SetAttribute("RelayClientSource", BooleanValue(false));
    h->SetAttribute("UpperRouterEcmp", BooleanValue(true));
    h->SetAttribute("MonitorLowerTier", BooleanValue(false));
    h->SetAttribute("MonitorCaches", BooleanValue(false));
    return h;
}

class CrdBenchBaseline : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

// REQ: CRD-13
TEST_F(CrdBenchBaseline, EcmpRoutersSpreadFlowsOverEveryLowerNode)
{
    // 4 access networks x 8 clients x 3 one-shot requests = 96 flows through 2 upper routers.
    CrdTopology topo = EcmpHelper(4, 8)->Build();
    ASSERT_EQ(topo.upperEcmp.size(), 2u);
    EXPECT_TRUE(topo.upperRouting.empty()) << "plain routers hold no policy routing";
    std::vector<Ptr<AdcHttpClient>> clients;
    for (uint32_t i = 0; i < topo.isp.GetNClients(); ++i)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        c->SetAttribute("Persistent", BooleanValue(false));
        c->SetAttribute("MaxRequests", UintegerValue(3));
        c->SetAttribute("InterRequestTime",
                        StringValue("ns3::ConstantRandomVariable[Constant=0.2]"));
        c->SetAttribute("CatalogueSize", UintegerValue(5));
        c->SetStartTime(Seconds(2));
        c->SetStopTime(Seconds(6));
        topo.isp.GetClient(i)->AddApplication(c);
        clients.push_back(c);
    }
    std::set<Ipv4Address> originPeers;
    topo.originApp->TraceConnectWithoutContext(
        "Connection",
        Callback<void, const Address&>([&originPeers](const Address& from) {
            originPeers.insert(InetSocketAddress::ConvertFrom(from).GetIpv4());
        }));
    Simulator::Stop(Seconds(7));
    Simulator::Run();

    EXPECT_TRUE(AdcExpectAccounting(clients, AdcAccountingExpectation::Completed(4 * 8 * 3)));
    // Every lower node relays some of the 96 flows (a static route would use 2 of 4), and
    // they relay them all.
    uint64_t relayed = 0;
    for (uint32_t j = 0; j < topo.relayApps.size(); ++j)
    {
        EXPECT_GT(topo.relayApps[j]->GetCompleted(), 0u) << topo.lowerNames[j];
        relayed += topo.relayApps[j]->GetCompleted();
    }
    EXPECT_EQ(relayed, 96u);
    for (const auto& e : topo.upperEcmp)
    {
        EXPECT_GT(e->GetPacketsRouted(), 0u);
    }
    // Without USIP the origin sees the relays' own addresses, never a client's.
    for (const Ipv4Address& peer : originPeers)
    {
        EXPECT_FALSE(CrdRoutePlan::kClientMask.IsMatch(peer, CrdRoutePlan::kClientNet)) << peer;
    }
    EXPECT_FALSE(originPeers.empty());
}

// REQ: CRD-13
TEST_F(CrdBenchBaseline, EcmpNeedsRelaysWithoutClientSource)
{
    // A response addressed to the client (USIP) cannot be routed to the relay holding its
    // connection by plain routers: the combination is refused, naming the settings.
    Ptr<CrdTopologyHelper> h = EcmpHelper(1, 1);
    h->SetAttribute("RelayClientSource", BooleanValue(true));
    try
    {
        h->Build();
        FAIL() << "UpperRouterEcmp with RelayClientSource true was accepted";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("RelayClientSource"), std::string::npos) << e.what();
    }
    Ptr<CrdTopologyHelper> p = EcmpHelper(1, 1);
    p->SetAttribute("LowerTierMode", StringValue("PROXY"));
    p->SetAttribute("CacheableRule", StringValue("NONE"));
    EXPECT_THROW(p->Validate(), AdcConfigError);
}
