/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Several origins on the CRD topology (CrdTopologyHelper "NumOrigins"): each site has its own
 * address and host name, requests reach the origin of their site (a bypass by the address the
 * client connected to, a cache miss by its Host), caches key by host and URL, and the origins
 * sit behind the router with the same delay both ways.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Expect = AdcAccountingExpectation;

class CrdOrigins : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// The seed's topology with \p n origins; one client with a site per origin.
    void Build(uint32_t n)
    {
        Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
        h->SetAttribute("NumOrigins", UintegerValue(n));
        h->SetAttribute("CacheLbMethod", StringValue("URLHASH")); // one cache per URL
        topo = h->Build();
        requests.assign(n, {});
        for (uint32_t k = 0; k < n; ++k)
        {
            topo.originApps[k]->TraceConnectWithoutContext(
                "Request",
                Callback<void, const AdcHttpMessage&, const Address&>(
                    [this, k](const AdcHttpMessage& m, const Address&) {
                        requests[k].push_back(m.GetHeader("Host").value_or("") + " " +
                                              m.GetTarget());
                    }));
        }
        client = CreateObject<AdcHttpClient>();
        client->SetAttribute("Persistent", BooleanValue(false));
        client->SetAttribute("InterRequestTime",
                             StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
        for (uint32_t k = 0; k < n; ++k)
        {
            client->AddSite(topo.originHosts[k], InetSocketAddress(topo.originAddresses[k], 80));
        }
        client->SetStartTime(Seconds(1));
        client->SetStopTime(Seconds(9));
        client->TraceConnectWithoutContext(
            "RequestDone",
            Callback<void, const AdcRequestRecord&>(
                [this](const AdcRequestRecord& r) { done.push_back(r); }));
        topo.isp.GetClient(0)->AddApplication(client);
    }

    /// Request \p url at \p t (request k goes to site (k - 1) mod n).
    void IssueAt(double t, const std::string& url)
    {
        Ptr<AdcHttpClient> c = client;
        Simulator::Schedule(Seconds(t), [c, url]() { c->IssueRequest(url); });
    }

    void Run()
    {
        Simulator::Stop(Seconds(10));
        Simulator::Run();
    }

    CrdTopology topo;
    Ptr<AdcHttpClient> client;
    std::vector<std::vector<std::string>> requests; //!< per origin: "Host URL" received
    std::vector<AdcRequestRecord> done;
};

} // namespace

TEST_F(CrdOrigins, OriginsGetTheirOwnAddressesAndHostNames)
{
    Build(3);
    ASSERT_EQ(topo.origins.GetN(), 3U);
    EXPECT_EQ(topo.originNames, (std::vector<std::string>{"origin1", "origin2", "origin3"}));
    EXPECT_EQ(
        topo.originHosts,
        (std::vector<std::string>{"www1.example.com", "www2.example.com", "www3.example.com"}));
    // Each origin on its own /30 of 203.0.113.0/24, behind the router.
    EXPECT_EQ(topo.originAddresses,
              (std::vector<Ipv4Address>{Ipv4Address("203.0.113.2"),
                                        Ipv4Address("203.0.113.6"),
                                        Ipv4Address("203.0.113.10")}));
    EXPECT_EQ(topo.originAddress, topo.originAddresses[0]);
    EXPECT_EQ(topo.links.count("router-origin2"), 1U);
    EXPECT_EQ(topo.links.count("origin-L1NS1"), 0U); // no dedicated links to the upper tier
}

TEST_F(CrdOrigins, OriginHostNamesAreCheckedAgainstNumOrigins)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->SetAttribute("NumOrigins", UintegerValue(2));
    h->SetAttribute("OriginHostNames", StringValue("a.example"));
    try
    {
        h->Build();
        FAIL() << "one name for two origins was accepted";
    }
    catch (const AdcConfigError& e)
    {
        const std::string m = e.what();
        EXPECT_NE(m.find("OriginHostNames"), std::string::npos) << m;
        EXPECT_NE(m.find("NumOrigins = 2"), std::string::npos) << m;
    }
    h->SetAttribute("OriginHostNames", StringValue("a.example,a.example"));
    EXPECT_THROW(h->Build(), AdcConfigError);
}

// REQ: CRD-10
// REQ: CRD-11
TEST_F(CrdOrigins, RequestsForTwoHostsReachTheirOwnOrigin)
{
    Build(2);
    IssueAt(2.0, "/list.html?page=1"); // bypass, site 1
    IssueAt(2.5, "/list.html?page=1"); // bypass, site 2
    IssueAt(3.0, "/obj/3");            // miss via a cache, site 1
    IssueAt(3.5, "/obj/4");            // miss via a cache, site 2
    Run();
    EXPECT_EQ(requests[0],
              (std::vector<std::string>{"www1.example.com /list.html?page=1",
                                        "www1.example.com /obj/3"}));
    EXPECT_EQ(requests[1],
              (std::vector<std::string>{"www2.example.com /list.html?page=1",
                                        "www2.example.com /obj/4"}));
    ASSERT_EQ(done.size(), 4U);
    EXPECT_EQ(done[0].server, "origin1");
    EXPECT_EQ(done[1].server, "origin2");
    EXPECT_EQ(done[2].server, "origin1");
    EXPECT_EQ(done[3].server, "origin2");
    EXPECT_TRUE(AdcExpectAccounting(*client, Expect::Completed(4)));
}

// REQ: CRD-09
TEST_F(CrdOrigins, ACachedObjectOfOneHostIsNotServedForAnotherHostsSamePath)
{
    Build(2);
    IssueAt(2.0, "/obj/5"); // www1: miss, stored under www1.example.com/obj/5
    IssueAt(3.0, "/obj/5"); // www2: the same path, another site: a miss too
    IssueAt(4.0, "/obj/5"); // www1: hit
    IssueAt(5.0, "/obj/5"); // www2: hit
    Run();
    EXPECT_EQ(requests[0], (std::vector<std::string>{"www1.example.com /obj/5"}));
    EXPECT_EQ(requests[1], (std::vector<std::string>{"www2.example.com /obj/5"}));
    ASSERT_EQ(done.size(), 4U);
    EXPECT_NE(done[0].path.find("X-Cache: MISS"), std::string::npos) << done[0].path;
    EXPECT_NE(done[1].path.find("X-Cache: MISS"), std::string::npos) << done[1].path;
    EXPECT_EQ(done[1].server, "origin2");
    EXPECT_NE(done[2].path.find("X-Cache: HIT"), std::string::npos) << done[2].path;
    EXPECT_NE(done[3].path.find("X-Cache: HIT"), std::string::npos) << done[3].path;
    uint32_t stored = 0;
    for (const auto& cache : topo.cacheApps)
    {
        stored += cache->GetStore()->Contains("www1.example.com/obj/5");
        stored += cache->GetStore()->Contains("www2.example.com/obj/5");
    }
    EXPECT_EQ(stored, 2U);
    EXPECT_TRUE(AdcExpectAccounting(*client, Expect::Completed(4)));
}

TEST_F(CrdOrigins, ClientToOriginDelayEqualsOriginToClientDelay)
{
    // A UDP echo between the client and an origin crosses the CRD path both ways (router,
    // upper tier, lower tier, router); with the origins behind the router the links are the
    // same, so the one-way delays are equal and at least the origin link's delay. The first
    // echo resolves addresses on the access LAN (ARP): the second one is measured.
    Build(2);
    UdpEchoServerHelper server(9);
    ApplicationContainer s = server.Install(topo.origins.Get(1));
    s.Start(Seconds(1));
    UdpEchoClientHelper echo(topo.originAddresses[1], 9);
    echo.SetAttribute("MaxPackets", UintegerValue(2));
    echo.SetAttribute("Interval", TimeValue(Seconds(1)));
    echo.SetAttribute("PacketSize", UintegerValue(200));
    ApplicationContainer c = echo.Install(topo.isp.GetClient(0));
    c.Start(Seconds(2));
    std::vector<Time> sent;
    std::vector<Time> atOrigin;
    std::vector<Time> back;
    auto note = [](std::vector<Time>* v) {
        return Callback<void, Ptr<const Packet>>(
            [v](Ptr<const Packet>) { v->push_back(Simulator::Now()); });
    };
    c.Get(0)->TraceConnectWithoutContext("Tx", note(&sent));
    s.Get(0)->TraceConnectWithoutContext("Rx", note(&atOrigin));
    c.Get(0)->TraceConnectWithoutContext("Rx", note(&back));
    Run();
    ASSERT_EQ(sent.size(), 2U);
    ASSERT_EQ(atOrigin.size(), 2U);
    ASSERT_EQ(back.size(), 2U) << "an echo did not come back";
    const Time there = atOrigin[1] - sent[1];
    const Time returned = back[1] - atOrigin[1];
    EXPECT_EQ(there, returned) << there.As(Time::US) << " vs " << returned.As(Time::US);
    EXPECT_GE(there, MilliSeconds(5)); // OriginDelay, crossed once each way
}
