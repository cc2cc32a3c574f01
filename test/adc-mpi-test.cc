/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the project's side of ns-3's MPI engine that hold in every build: AdcMpi as one
 * rank, the clear error when an MPI launcher starts a build without MPI, and the partition
 * plans of the topology helpers (which nodes run on which rank, and that only point-to-point
 * links with a delay, the distributed simulator's lookahead, cross ranks). The 2-rank runs
 * themselves are the CTest tests adc-mpi-* of a build against ./adc setup --mpi's ns-3.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-isp-topology-helper.h"
#include "ns3/adc-mpi.h"
#include "ns3/application.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/gslb-topology-helper.h"
#include "ns3/ilb-helper.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/simulator.h"
#include "ns3/slb-topology-helper.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What crosses ranks in the topology built last.
struct Cuts
{
    uint32_t crossing{0};           //!< channels whose ends are on different ranks
    uint32_t notPointToPoint{0};    //!< of which not point-to-point (cannot be cut)
    uint32_t withoutDelay{0};       //!< of which with a zero delay (no lookahead)
    std::set<uint32_t> systemIds{}; //!< ranks that hold nodes
};

Cuts
FindCuts()
{
    Cuts c;
    std::set<Ptr<Channel>> seen;
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        c.systemIds.insert(node->GetSystemId());
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<Channel> ch = node->GetDevice(d)->GetChannel();
            if (!ch || !seen.insert(ch).second)
            {
                continue;
            }
            std::set<uint32_t> ids;
            for (std::size_t k = 0; k < ch->GetNDevices(); ++k)
            {
                ids.insert(ch->GetDevice(k)->GetNode()->GetSystemId());
            }
            if (ids.size() < 2)
            {
                continue;
            }
            ++c.crossing;
            Ptr<PointToPointChannel> p2p = DynamicCast<PointToPointChannel>(ch);
            if (!p2p)
            {
                ++c.notPointToPoint;
                continue;
            }
            TimeValue delay;
            p2p->GetAttribute("Delay", delay);
            c.withoutDelay += delay.Get().IsStrictlyPositive() ? 0 : 1;
        }
    }
    return c;
}

/// Expect \p crossing channels across ranks, every one point-to-point with a delay.
void
ExpectCuts(uint32_t crossing)
{
    const Cuts c = FindCuts();
    EXPECT_EQ(c.crossing, crossing);
    EXPECT_EQ(c.notPointToPoint, 0u);
    EXPECT_EQ(c.withoutDelay, 0u);
}

/// Expect \p build to throw an AdcConfigError whose text holds \p text.
template <class Build>
void
ExpectConfigError(Build build, const std::string& text)
{
    try
    {
        build();
        ADD_FAILURE() << "no error; expected one saying '" << text << "'";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
}

class AdcMpiTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        unsetenv("OMPI_COMM_WORLD_SIZE");
        Simulator::Destroy();
        m_registry.Restore(); // the GSLB plans register RTT and STATICPROXIMITY
    }

    adctest::LbRegistrySnapshot m_registry; //!< the methods registered before the test
};

// REQ: CORE-01
TEST_F(AdcMpiTest, OneProcessIsRankZeroOfOneAndChangesNothing)
{
    int argc = 1;
    char name[] = "adc-test";
    char* args[] = {name, nullptr};
    char** argv = args;
    unsetenv("OMPI_COMM_WORLD_SIZE");
    AdcMpi::Enable(&argc, &argv); // no launcher: nothing to enable
    EXPECT_FALSE(AdcMpi::IsEnabled());
    EXPECT_EQ(AdcMpi::GetRank(), 0u);
    EXPECT_EQ(AdcMpi::GetSize(), 1u);
    EXPECT_EQ(AdcMpi::RankFileName("out/requests-x.csv"), "out/requests-x.csv");
    std::vector<uint64_t> counts{3, 0, 7};
    AdcMpi::Sum(counts);
    EXPECT_EQ(counts, (std::vector<uint64_t>{3, 0, 7}));
    std::vector<double> values{1.5, 2.5};
    AdcMpi::Gather(values);
    EXPECT_EQ(values, (std::vector<double>{1.5, 2.5}));
    EXPECT_EQ(AdcMpi::GatherText("x"), std::vector<std::string>{"x"});
    // Nodes on "other ranks" are local when no distributed simulator runs.
    Ptr<Node> remote = CreateObject<Node>(1);
    EXPECT_TRUE(AdcMpi::IsLocal(remote));
    EXPECT_EQ(AdcMpi::SilenceRemoteApplications(), 0u);
}

// REQ: CORE-01
TEST_F(AdcMpiTest, LauncherWithSeveralRanksAndNoMpiIsAClearError)
{
    if (AdcMpi::IsAvailable())
    {
        GTEST_SKIP() << "built against ns-3 with MPI: a launcher's ranks are real there";
    }
    int argc = 1;
    char name[] = "adc-test";
    char* args[] = {name, nullptr};
    char** argv = args;
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    try
    {
        AdcMpi::Enable(&argc, &argv);
        FAIL() << "no error for 2 ranks without MPI";
    }
    catch (const AdcConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("2 ranks"), std::string::npos) << what;
        EXPECT_NE(what.find("./adc setup --mpi"), std::string::npos) << what;
    }
    EXPECT_FALSE(AdcMpi::IsEnabled());
}

// REQ: CORE-01, CRD-01: crd-compare's plan: access network a on rank a % P, the core, both
// tiers, the caches and the origin on rank 0; only the access uplinks cross ranks.
TEST_F(AdcMpiTest, CrdPlanCutsOnlyTheAccessUplinks)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(5));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(2));
    h->GetIspHelper()->SetAttribute("NumPartitions", UintegerValue(2));
    const CrdTopology t = h->Build();
    const Cuts c = FindCuts();
    EXPECT_EQ(c.systemIds, (std::set<uint32_t>{0, 1}));
    // Access networks 1 and 3 are on rank 1: their two uplinks to the core (rank 0) cross.
    EXPECT_EQ(c.crossing, 2u);
    EXPECT_EQ(c.notPointToPoint, 0u);
    EXPECT_EQ(c.withoutDelay, 0u);
    for (uint32_t i = 0; i < t.lower.GetN(); ++i)
    {
        EXPECT_EQ(t.lower.Get(i)->GetSystemId(), 0u);
    }
    for (uint32_t i = 0; i < t.caches.GetN(); ++i)
    {
        EXPECT_EQ(t.caches.Get(i)->GetSystemId(), 0u);
    }
}

// REQ: CORE-01, CRD-01: crd-compare's default plan under MPI (AccessOffCore): rank 0 simulates
// the core, tiers, caches and origin only; access network a is on rank a % (P - 1) + 1.
TEST_F(AdcMpiTest, AccessOffCoreLeavesRankZeroToTheDataCentre)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(5));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(2));
    h->GetIspHelper()->SetAttribute("NumPartitions", UintegerValue(3));
    h->GetIspHelper()->SetAttribute("AccessOffCore", BooleanValue(true));
    const CrdTopology t = h->Build();
    const uint32_t expected[] = {1, 2, 1, 2, 1}; // a % 2 + 1
    for (uint32_t a = 0; a < 5; ++a)
    {
        const NodeContainer clients = t.isp.GetAccessNetworkClients(a);
        for (uint32_t j = 0; j < clients.GetN(); ++j)
        {
            EXPECT_EQ(clients.Get(j)->GetSystemId(), expected[a]) << "access network " << a;
        }
        EXPECT_EQ(t.isp.GetAccessRouter(a)->GetSystemId(), expected[a]);
    }
    EXPECT_EQ(t.isp.GetCoreRouter()->GetSystemId(), 0u);
    ExpectCuts(5u); // every access uplink
}

// REQ: CORE-01, GSLB-01: gslb-rtt's plan: site s on rank s % P, region r (router, LDNS,
// clients) on rank r % P; only WAN links cross, and node ids are those of one partition.
TEST_F(AdcMpiTest, GslbPlanPutsSitesAndRegionsOnRanksAndCutsOnlyWanLinks)
{
    const uint32_t sites = 3;
    const uint32_t regions = 3;
    auto build = [&](uint32_t partitions) {
        Ptr<GslbTopologyHelper> h = CreateObject<GslbTopologyHelper>();
        h->SetAttribute("Sites", UintegerValue(sites));
        h->SetAttribute("Regions", UintegerValue(regions));
        h->SetAttribute("ClientsPerRegion", UintegerValue(2));
        h->SetAttribute("Partitions", UintegerValue(partitions));
        return h->Build();
    };
    std::vector<uint32_t> oneIds;
    {
        const GslbTopology one = build(1);
        for (uint32_t s = 0; s < sites; ++s)
        {
            oneIds.push_back(one.appliances.Get(s)->GetId());
        }
        EXPECT_EQ(FindCuts().crossing, 0u);
        Simulator::Destroy();
    }
    const uint32_t first = NodeList::GetNNodes();
    const GslbTopology two = build(2);
    for (uint32_t s = 0; s < sites; ++s)
    {
        EXPECT_EQ(two.siteRouters.Get(s)->GetSystemId(), s % 2);
        EXPECT_EQ(two.appliances.Get(s)->GetSystemId(), s % 2);
        EXPECT_EQ(two.servers.Get(s)->GetSystemId(), s % 2);
        // The same creation order: ids shifted by the first build's nodes only.
        EXPECT_EQ(two.appliances.Get(s)->GetId(), first + oneIds[s]);
    }
    for (uint32_t r = 0; r < regions; ++r)
    {
        EXPECT_EQ(two.regionRouters.Get(r)->GetSystemId(), r % 2);
        EXPECT_EQ(two.ldnsNodes.Get(r)->GetSystemId(), r % 2);
        for (uint32_t i = 0; i < 2; ++i)
        {
            EXPECT_EQ(two.clients.Get(r * 2 + i)->GetSystemId(), r % 2);
        }
    }
    // Region r - site s links with r % 2 != s % 2: (0,1) (1,0) (1,2) (2,1); site-site: a-b, b-c.
    ExpectCuts(6u);
}

// REQ: CORE-01, ILB-01: the ILB helper's plan: clients off rank 0 (client i on rank
// i % (P - 1) + 1), routers, ILB and servers on rank 0; only the client links cross.
TEST_F(AdcMpiTest, IlbPlanPutsClientsOffRankZeroAndCutsOnlyTheirLinks)
{
    Ptr<IlbHelper> h = CreateObject<IlbHelper>();
    h->SetAttribute("Topology", StringValue("HALF_NAT"));
    h->SetAttribute("NumClients", UintegerValue(4));
    h->SetAttribute("Partitions", UintegerValue(3));
    const IlbTopology t = h->Build();
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(t.clients.Get(i)->GetSystemId(), i % 2 + 1) << "client " << i;
    }
    EXPECT_EQ(t.ilb->GetSystemId(), 0u);
    EXPECT_EQ(t.servers.Get(0)->GetSystemId(), 0u);
    ExpectCuts(4u);
}

// REQ: CORE-01, SLB-01: the SLB helper's plan: clients off rank 0, the data centre (edge,
// routers, MUXes, ToR, hosts, VMs) on rank 0; only the client links cross.
TEST_F(AdcMpiTest, SlbPlanPutsClientsOffRankZeroAndCutsOnlyTheirLinks)
{
    Ptr<SlbTopologyHelper> h = CreateObject<SlbTopologyHelper>();
    h->SetAttribute("Clients", UintegerValue(3));
    h->SetAttribute("Muxes", UintegerValue(2));
    h->SetAttribute("Hosts", UintegerValue(2));
    h->SetAttribute("Partitions", UintegerValue(2));
    const SlbTopology t = h->Build();
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(t.clients.Get(i)->GetSystemId(), 1u) << "client " << i;
    }
    EXPECT_EQ(t.edge->GetSystemId(), 0u);
    EXPECT_EQ(t.muxes.Get(1)->GetSystemId(), 0u);
    EXPECT_EQ(t.hosts.Get(1)->GetSystemId(), 0u);
    ExpectCuts(3u);
}

// REQ: CORE-01: a cut link needs a delay (the distributed engine's lookahead).
TEST_F(AdcMpiTest, PlansRefuseCutLinksWithoutDelay)
{
    Ptr<IlbHelper> ilb = CreateObject<IlbHelper>();
    ilb->SetAttribute("Partitions", UintegerValue(2));
    ilb->SetAttribute("ClientDelay", TimeValue(Seconds(0)));
    ExpectConfigError([&] { ilb->Build(); }, "ClientDelay 0 with Partitions 2");
    Ptr<SlbTopologyHelper> slb = CreateObject<SlbTopologyHelper>();
    slb->SetAttribute("Partitions", UintegerValue(2));
    slb->SetAttribute("AccessDelay", TimeValue(Seconds(0)));
    ExpectConfigError([&] { slb->Build(); }, "AccessDelay 0 with Partitions 2");
}

// REQ: CORE-01
TEST_F(AdcMpiTest, GslbPartitionsOutOfRangeIsAnErrorNamingTheAttribute)
{
    Ptr<GslbTopologyHelper> h = CreateObject<GslbTopologyHelper>();
    h->SetAttribute("Partitions", UintegerValue(0));
    ExpectConfigError([&] { h->Validate(); }, "Partitions = 0: allowed 1..64");
}

} // namespace
