/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Per-flow ECMP: AdcEcmpGroup (modulo and resilient next-hop selection) and AdcEcmpRouting
 * (an IPv4 routing protocol forwarding by it), checked against what the two schemes promise:
 * RFC 2991/2992 for modulo-N hashing, resilient hashing's "only the flows of the changed next
 * hop move", and independent choices of routers in tiers (no hash polarization).
 */

#include "ns3/adc-ecmp-group.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-flow-key.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// \return n flow hashes, reproducible
std::vector<uint64_t>
Hashes(uint32_t n)
{
    std::vector<uint64_t> h;
    for (uint32_t i = 0; i < n; ++i)
    {
        h.push_back(AdcHash::Mix(0x9e3779b97f4a7c15ull * (i + 1)));
    }
    return h;
}

/// \return the next hop of every hash
std::vector<uint32_t>
Choices(const AdcEcmpGroup& g, const std::vector<uint64_t>& hashes)
{
    std::vector<uint32_t> c;
    for (uint64_t h : hashes)
    {
        c.push_back(g.Select(h));
    }
    return c;
}

/// \return the share of flows whose next hop differs between \p before and \p after
double
MovedShare(const std::vector<uint32_t>& before, const std::vector<uint32_t>& after)
{
    uint32_t moved = 0;
    for (std::size_t i = 0; i < before.size(); ++i)
    {
        moved += before[i] != after[i];
    }
    return static_cast<double>(moved) / before.size();
}

/// \return a group of \p mode with next hops 0..n-1
AdcEcmpGroup
Group(AdcEcmpGroup::Mode mode, uint32_t n)
{
    AdcEcmpGroup g(mode, 256);
    for (uint32_t i = 0; i < n; ++i)
    {
        g.Add(i);
    }
    return g;
}

} // namespace

// REQ: SLB-05, SLB-12 (ECMP spreads flows evenly over equal-cost next hops; a flow keeps its next
// hop)
TEST(AdcEcmpGroup, BothModesSpreadFlowsEvenlyAndKeepEachOnOneNextHop)
{
    const auto hashes = Hashes(30000);
    for (auto mode : {AdcEcmpGroup::MODULO, AdcEcmpGroup::RESILIENT, AdcEcmpGroup::HASH_THRESHOLD})
    {
        SCOPED_TRACE(AdcEcmpGroup::ModeName(mode));
        AdcEcmpGroup g = Group(mode, 3);
        std::map<uint32_t, uint32_t> n;
        for (uint32_t hop : Choices(g, hashes))
        {
            ++n[hop];
        }
        ASSERT_EQ(n.size(), 3u);
        for (const auto& [hop, count] : n)
        {
            // 10,000 expected each; 256 buckets over 3 hops give 86/85/85, i.e. within 1 %.
            EXPECT_NEAR(count, 10000.0, 600.0) << "next hop " << hop;
        }
        // The same flow, asked again (and after unrelated work), gets the same next hop.
        EXPECT_EQ(Choices(g, hashes), Choices(Group(mode, 3), hashes));
    }
}

// REQ: SLB-05, SLB-12 (plain mode: modulo-N, RFC 2992 section 4: removing one of N next hops moves
// most flows)
TEST(AdcEcmpGroup, ModuloRemovalMovesThreeQuartersOfTheFlowsOfFourHops)
{
    // Next hops 0..3 and then 0..2: a flow stays only if h mod 4 and h mod 3 name the same
    // hop, i.e. for h mod 12 in {0, 1, 2}: 3 residues of 12, so 75 % of the flows move.
    const auto hashes = Hashes(40000);
    AdcEcmpGroup g = Group(AdcEcmpGroup::MODULO, 4);
    const auto before = Choices(g, hashes);
    g.Remove(3);
    const auto after = Choices(g, hashes);
    for (uint32_t hop : after)
    {
        EXPECT_NE(hop, 3u);
    }
    EXPECT_NEAR(MovedShare(before, after), 0.75, 0.02);
}

/// \return the hash whose top 31 bits (what Linux's multipath compares) are \p top31
static uint64_t
Top31(uint64_t top31)
{
    return top31 << 33;
}

// REQ: SLB-05, SLB-12 (hash-threshold as Linux's fib_select_multipath: the first next hop whose
// upper bound, DIV_ROUND_CLOSEST(i+1 << 31, n) - 1 from fib_rebalance, is >= the hash)
TEST(AdcEcmpGroup, HashThresholdRegionsAreLinuxsUpperBounds)
{
    AdcEcmpGroup four = Group(AdcEcmpGroup::HASH_THRESHOLD, 4);
    // n = 4: bounds 2^29 - 1, 2^30 - 1, 3 x 2^29 - 1, 2^31 - 1.
    EXPECT_EQ(four.Select(Top31(0)), 0u);
    EXPECT_EQ(four.Select(Top31((1ull << 29) - 1)), 0u);
    EXPECT_EQ(four.Select(Top31(1ull << 29)), 1u);
    EXPECT_EQ(four.Select(Top31((1ull << 30) - 1)), 1u);
    EXPECT_EQ(four.Select(Top31(1ull << 30)), 2u);
    EXPECT_EQ(four.Select(Top31((1ull << 31) - 1)), 3u);
    // n = 3: 2^31 / 3 = 715827882.67 rounds to 715827883, so the first bound is 715827882.
    AdcEcmpGroup three = Group(AdcEcmpGroup::HASH_THRESHOLD, 3);
    EXPECT_EQ(three.Select(Top31(715827882)), 0u);
    EXPECT_EQ(three.Select(Top31(715827883)), 1u);
    // The low 33 bits of the 64-bit hash are not compared.
    EXPECT_EQ(three.Select(Top31(715827882) | ((1ull << 33) - 1)), 0u);
}

// REQ: SLB-05, SLB-12 (RFC 2992 section 4's figure: deleting next hop 3 of 5 under hash-threshold)
TEST(AdcEcmpGroup, HashThresholdRemovalMovesTheGoneRegionAndItsNeighboursEdges)
{
    // Regions of 1..5 end at 0.2, 0.4, 0.6, 0.8; after deleting 3, those of 1, 2, 4, 5 end at
    // 0.25, 0.5, 0.75. Moved: [0.2, 0.25) from 2 to 1, all of 3's [0.4, 0.6), [0.75, 0.8) from 4
    // to 5: 0.05 + 0.2 + 0.05 = 0.3 of the flows.
    AdcEcmpGroup g(AdcEcmpGroup::HASH_THRESHOLD);
    for (uint32_t id = 1; id <= 5; ++id)
    {
        g.Add(id);
    }
    auto at = [](double x) { return Top31(static_cast<uint64_t>(x * (1ull << 31))); };
    EXPECT_EQ(g.Select(at(0.22)), 2u);
    EXPECT_EQ(g.Select(at(0.78)), 4u);
    const auto hashes = Hashes(40000);
    const auto before = Choices(g, hashes);
    g.Remove(3);
    EXPECT_EQ(g.Select(at(0.22)), 1u); // "next hop 2 gave up part of the hash space [to] 1"
    EXPECT_EQ(g.Select(at(0.78)), 5u); // "and 4 in favor of 5"
    EXPECT_EQ(g.Select(at(0.1)), 1u);
    EXPECT_EQ(g.Select(at(0.3)), 2u);
    EXPECT_NEAR(MovedShare(before, Choices(g, hashes)), 0.3, 0.015);
}

// REQ: SLB-05, SLB-12 (resilient mode: when a next hop goes, only its flows move)
TEST(AdcEcmpGroup, ResilientRemovalMovesOnlyTheFlowsOfTheRemovedHop)
{
    const auto hashes = Hashes(40000);
    AdcEcmpGroup g = Group(AdcEcmpGroup::RESILIENT, 4);
    const auto before = Choices(g, hashes);
    g.Remove(2);
    const auto after = Choices(g, hashes);
    std::map<uint32_t, uint32_t> newHomes;
    for (std::size_t i = 0; i < hashes.size(); ++i)
    {
        if (before[i] == 2)
        {
            EXPECT_NE(after[i], 2u);
            ++newHomes[after[i]];
        }
        else
        {
            EXPECT_EQ(after[i], before[i]) << "flow " << i << " moved off a hop that stayed";
        }
    }
    // The removed hop's flows are shared by the three others, not dumped on one.
    EXPECT_EQ(newHomes.size(), 3u);
    // Buckets stay balanced: 256 over 3 hops is 86/85/85.
    for (const auto& [hop, buckets] : g.GetBucketCounts())
    {
        EXPECT_GE(buckets, 85u) << hop;
        EXPECT_LE(buckets, 86u) << hop;
    }
}

// REQ: SLB-05, SLB-12 (resilient mode: a new next hop takes its share from the others, and only the
// flows of the buckets it takes move, all of them to it)
TEST(AdcEcmpGroup, ResilientAdditionMovesOnlyFlowsToTheNewHop)
{
    const auto hashes = Hashes(40000);
    AdcEcmpGroup g = Group(AdcEcmpGroup::RESILIENT, 3);
    const auto before = Choices(g, hashes);
    g.Add(7);
    const auto after = Choices(g, hashes);
    uint32_t moved = 0;
    for (std::size_t i = 0; i < hashes.size(); ++i)
    {
        if (after[i] != before[i])
        {
            EXPECT_EQ(after[i], 7u);
            ++moved;
        }
    }
    // It takes floor(256 / 4) = 64 buckets: a quarter of the flows, the least that can move.
    EXPECT_NEAR(moved / 40000.0, 0.25, 0.02);
    for (const auto& [hop, buckets] : g.GetBucketCounts())
    {
        EXPECT_EQ(buckets, 64u) << hop;
    }
    // A modulo group in the same change moves far more (3 -> 4 hops: h mod 3 = h mod 4 for
    // 3 residues of 12, so 75 % move).
    AdcEcmpGroup m = Group(AdcEcmpGroup::MODULO, 3);
    const auto mBefore = Choices(m, hashes);
    m.Add(3);
    const auto mAfter = Choices(m, hashes);
    EXPECT_NEAR(MovedShare(mBefore, mAfter), 0.75, 0.02);
}

// REQ: SLB-05, SLB-12 (per-router seeds: no polarization across tiers)
TEST(AdcEcmpRouting, RoutersWithTheirOwnSeedsChooseIndependentlyAcrossTiers)
{
    // Two tiers of two-way ECMP towards one prefix. With one seed everywhere, the flows the
    // first tier sends to its first next hop hash alike at the second tier and all take one
    // of its next hops (polarization); with a seed per router they split about evenly.
    auto make = [](uint64_t seed) {
        Ptr<AdcEcmpRouting> r = CreateObject<AdcEcmpRouting>();
        r->SetAttribute("HashSeed", UintegerValue(seed));
        r->AddRoute("10.9.0.0", "255.255.0.0", "10.1.0.1", 1);
        r->AddRoute("10.9.0.0", "255.255.0.0", "10.1.0.2", 2);
        return r;
    };
    auto share = [](Ptr<AdcEcmpRouting> first, Ptr<AdcEcmpRouting> second) {
        uint32_t onA = 0;
        uint32_t onAthenA = 0;
        for (uint32_t i = 0; i < 20000; ++i)
        {
            const AdcFlowKey f(Ipv4Address(0x0a000000 + i),
                               Ipv4Address("10.9.0.5"),
                               static_cast<uint16_t>(1024 + i % 50000),
                               80,
                               AdcFlowKey::PROTO_TCP);
            Ipv4Address g1;
            Ipv4Address g2;
            EXPECT_TRUE(first->Lookup(f, g1));
            EXPECT_TRUE(second->Lookup(f, g2));
            if (g1 == Ipv4Address("10.1.0.1"))
            {
                ++onA;
                onAthenA += g2 == Ipv4Address("10.1.0.1");
            }
        }
        return static_cast<double>(onAthenA) / onA;
    };
    EXPECT_DOUBLE_EQ(share(make(5), make(5)), 1.0); // polarized: every one on the same side
    EXPECT_NEAR(share(make(5), make(6)), 0.5, 0.03);

    // Without HashSeed, each router's seed comes from its node: two nodes differ.
    NodeContainer nodes(2);
    InternetStackHelper().Install(nodes);
    Ptr<AdcEcmpRouting> a = make(0);
    Ptr<AdcEcmpRouting> b = make(0);
    a->SetIpv4(nodes.Get(0)->GetObject<Ipv4>());
    b->SetIpv4(nodes.Get(1)->GetObject<Ipv4>());
    EXPECT_NE(a->GetEffectiveSeed(), b->GetEffectiveSeed());
    EXPECT_NEAR(share(a, b), 0.5, 0.03);
    Simulator::Destroy();
}

// REQ: SLB-05
TEST(AdcEcmpRouting, ANonContiguousMaskIsAConfigurationError)
{
    Ptr<AdcEcmpRouting> r = CreateObject<AdcEcmpRouting>();
    try
    {
        r->AddRoute("10.0.0.0", "255.0.255.0", "10.1.0.1", 1);
        FAIL() << "no error";
    }
    catch (const std::exception& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("255.0.255.0"), std::string::npos) << what;
        EXPECT_NE(what.find("not contiguous"), std::string::npos) << what;
    }
}

namespace
{

/**
 * A source S, a router R with three next hops N0..N2, each linked to a destination D (which
 * routes back through N0). R routes D's prefix by AdcEcmpRouting over N0..N2; S sends 60 UDP
 * flows (distinct source ports) of a packet every 10 ms for 2 s. What each next hop forwarded
 * is recorded per flow from the NextHop trace.
 */
struct EcmpBed
{
    NodeContainer s, r, n, d;
    Ptr<AdcEcmpRouting> ecmp;
    Ipv4Address dAddr;
    uint32_t rIfToN[3]{};
    std::map<uint16_t, std::vector<std::pair<double, Ipv4Address>>> path; //!< per source port
    uint32_t received{0};

    explicit EcmpBed(AdcEcmpGroup::Mode mode)
    {
        s.Create(1);
        r.Create(1);
        n.Create(3);
        d.Create(1);
        InternetStackHelper().Install(NodeContainer(s, r, n, d));
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        Ipv4AddressHelper ip("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer sr = ip.Assign(p2p.Install(s.Get(0), r.Get(0)));
        std::vector<Ipv4InterfaceContainer> rn;
        std::vector<Ipv4InterfaceContainer> nd;
        for (uint32_t i = 0; i < 3; ++i)
        {
            ip.NewNetwork();
            rn.push_back(ip.Assign(p2p.Install(r.Get(0), n.Get(i))));
        }
        ip.SetBase("10.9.0.0", "255.255.255.0");
        for (uint32_t i = 0; i < 3; ++i)
        {
            nd.push_back(ip.Assign(p2p.Install(n.Get(i), d.Get(0))));
            ip.NewNetwork();
        }
        dAddr = nd[0].GetAddress(1);
        Ipv4StaticRoutingHelper sh;
        // S: default via R. N_i: D's first address via its own link (D answers nothing).
        sh.GetStaticRouting(s.Get(0)->GetObject<Ipv4>())->SetDefaultRoute(sr.GetAddress(1), 1);
        for (uint32_t i = 0; i < 3; ++i)
        {
            sh.GetStaticRouting(n.Get(i)->GetObject<Ipv4>())
                ->AddHostRouteTo(dAddr, nd[i].GetAddress(1), 2);
        }
        // R: per-flow ECMP for D's prefix, in front of static routing.
        Ptr<Ipv4> rIp = r.Get(0)->GetObject<Ipv4>();
        ecmp = CreateObject<AdcEcmpRouting>();
        ecmp->SetAttribute("Mode", EnumValue(mode));
        Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(rIp->GetRoutingProtocol());
        list->AddRoutingProtocol(ecmp, 100);
        for (uint32_t i = 0; i < 3; ++i)
        {
            rIfToN[i] =
                rIp->GetInterfaceForDevice(rn[i].Get(0).first->GetNetDevice(rn[i].Get(0).second));
            ecmp->AddRoute("10.9.0.0", "255.255.0.0", rn[i].GetAddress(1), rIfToN[i]);
        }
        ecmp->TraceConnectWithoutContext("NextHop", MakeCallback(&EcmpBed::OnNextHop, this));
        Ptr<Socket> sink = Socket::CreateSocket(d.Get(0), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink->SetRecvCallback(MakeCallback(&EcmpBed::OnReceive, this));
        for (uint16_t f = 0; f < 60; ++f)
        {
            Ptr<Socket> src = Socket::CreateSocket(s.Get(0), UdpSocketFactory::GetTypeId());
            src->Bind(InetSocketAddress(Ipv4Address::GetAny(), 20000 + f));
            src->Connect(InetSocketAddress(dAddr, 9));
            for (uint32_t k = 0; k < 200; ++k)
            {
                Simulator::Schedule(MilliSeconds(10 * k) + MicroSeconds(f),
                                    [src]() { src->Send(Create<Packet>(100)); });
            }
        }
    }

    void OnNextHop(const AdcFlowKey& flow, const std::string&, Ipv4Address gw, uint32_t)
    {
        path[flow.srcPort].emplace_back(Simulator::Now().GetSeconds(), gw);
    }

    void OnReceive(Ptr<Socket> sock)
    {
        while (sock->Recv())
        {
            ++received;
        }
    }

    /// \return the next hops flow \p port used in [from, to)
    std::set<Ipv4Address> HopsOf(uint16_t port, double from, double to) const
    {
        std::set<Ipv4Address> hops;
        for (const auto& [t, gw] : path.at(port))
        {
            if (t >= from && t < to)
            {
                hops.insert(gw);
            }
        }
        return hops;
    }
};

} // namespace

// REQ: SLB-05, SLB-12 (per-flow ECMP in a router: a flow's packets take one next hop, flows use
// all; when a next hop's link goes down, resilient mode moves only that next hop's flows)
TEST(AdcEcmpRouting, ForwardsPerFlowAndMovesOnlyTheFailedHopsFlowsInResilientMode)
{
    for (auto mode : {AdcEcmpGroup::MODULO, AdcEcmpGroup::RESILIENT})
    {
        SCOPED_TRACE(AdcEcmpGroup::ModeName(mode));
        EcmpBed bed(mode);
        // At 1 s, R's interface to N1 goes down: its flows must move (both modes).
        Ptr<Ipv4> rIp = bed.r.Get(0)->GetObject<Ipv4>();
        const uint32_t down = bed.rIfToN[1];
        Simulator::Schedule(Seconds(1), [rIp, down]() { rIp->SetDown(down); });
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        // Every packet arrived: 60 flows x 200 (packets in flight at 1 s were already sent
        // on the wire before the interface went down, or routed after it).
        EXPECT_EQ(bed.received, 60u * 200u);
        ASSERT_EQ(bed.path.size(), 60u);
        std::set<Ipv4Address> usedBefore;
        uint32_t onFailed = 0;
        uint32_t movedOthers = 0;
        const Ipv4Address failedGw = [&]() {
            std::set<Ipv4Address> all;
            for (const auto& [port, p] : bed.path)
            {
                for (const auto& [t, gw] : p)
                {
                    all.insert(gw);
                }
            }
            EXPECT_EQ(all.size(), 3u);
            // N1's address on R's link: the gateway no flow uses after 1 s.
            for (const auto& gw : all)
            {
                bool after = false;
                for (const auto& [port, p] : bed.path)
                {
                    after = after || bed.HopsOf(port, 1.0, 3.0).count(gw);
                }
                if (!after)
                {
                    return gw;
                }
            }
            return Ipv4Address();
        }();
        ASSERT_NE(failedGw, Ipv4Address());
        for (const auto& [port, p] : bed.path)
        {
            const auto before = bed.HopsOf(port, 0.0, 1.0);
            const auto after = bed.HopsOf(port, 1.0, 3.0);
            ASSERT_EQ(before.size(), 1u) << "flow " << port << " used several next hops";
            ASSERT_EQ(after.size(), 1u) << "flow " << port << " used several next hops";
            usedBefore.insert(*before.begin());
            if (*before.begin() == failedGw)
            {
                ++onFailed;
            }
            else if (*before.begin() != *after.begin())
            {
                ++movedOthers;
            }
        }
        EXPECT_EQ(usedBefore.size(), 3u);
        EXPECT_GT(onFailed, 0u);
        if (mode == AdcEcmpGroup::RESILIENT)
        {
            EXPECT_EQ(movedOthers, 0u);
        }
        else
        {
            // Modulo 3 -> 2: a flow of a surviving hop stays only when h mod 3 and h mod 2
            // agree on it; with 40 such flows some move.
            EXPECT_GT(movedOthers, 0u);
        }
        Simulator::Destroy();
    }
}
