/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Per-flow ECMP for both address families (AdcEcmpRouting, AdcEcmpRouting6: one behaviour,
 * AdcEcmpRoutingBase), and routes of two origins side by side (static and BGP). The typed
 * tests run the same checks for IPv4 and IPv6 (SLB-13); the scenario forwards IPv6 packets
 * through a router with link-local next hops, neighbour discovery included.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-ecmp-routing6.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// IPv4: prefix n is 10.n.0.0/16, its host h is 10.n.x.y (h = x * 256 + y).
struct V4
{
    using Routing = AdcEcmpRouting; //!< the protocol
    using Address = Ipv4Address;    //!< its address
    static constexpr uint8_t kLength = 16;

    static AdcIpAddress Host(uint32_t n, uint32_t h)
    {
        return Ipv4Address(0x0a000000u | (n << 16) | (h & 0xffffu));
    }

    static std::string Text(uint32_t n)
    {
        return "10." + std::to_string(n) + ".0.0/16";
    }
};

/// IPv6: prefix n (below 10) is 2001:db8:n::/48, its host h is 2001:db8:n::h.
struct V6
{
    using Routing = AdcEcmpRouting6; //!< the protocol
    using Address = Ipv6Address;     //!< its address
    static constexpr uint8_t kLength = 48;

    static AdcIpAddress Host(uint32_t n, uint32_t h)
    {
        uint8_t b[16] = {0x20, 0x01, 0x0d, 0xb8, 0, static_cast<uint8_t>(n)};
        b[12] = static_cast<uint8_t>(h >> 24);
        b[13] = static_cast<uint8_t>(h >> 16);
        b[14] = static_cast<uint8_t>(h >> 8);
        b[15] = static_cast<uint8_t>(h);
        return Ipv6Address(b);
    }

    static std::string Text(uint32_t n)
    {
        return "2001:db8:" + std::to_string(n) + "::/48";
    }
};

/// One RouteChange.
using Change = std::tuple<std::string, std::string, bool, AdcRouteOrigin>;

template <class F>
class AdcEcmpBothFamilies : public ::testing::Test
{
  public:
    using Routing = typename F::Routing;
    using Address = typename F::Address;

    /// \return a router with next hops 1..n (host h of prefix 1) for prefix 9, seeded
    Ptr<Routing> Make(uint64_t seed, uint32_t n, AdcEcmpGroup::Mode mode = AdcEcmpGroup::MODULO)
    {
        Ptr<Routing> r = CreateObject<Routing>();
        r->SetAttribute("HashSeed", UintegerValue(seed));
        r->SetAttribute("Mode", EnumValue(mode));
        r->TraceConnectWithoutContext("RouteChange",
                                      MakeCallback(&AdcEcmpBothFamilies::OnChange, this));
        for (uint32_t i = 1; i <= n; ++i)
        {
            r->AddPath(F::Host(9, 0), F::kLength, Gw(i), i, AdcRouteOrigin::STATIC);
        }
        return r;
    }

    /// \return next hop i
    static AdcIpAddress Gw(uint32_t i)
    {
        return F::Host(1, i);
    }

    /// \return flow i to host 5 of prefix 9
    static AdcFlowKey Flow(uint32_t i)
    {
        return AdcFlowKey(F::Host(2, i),
                          F::Host(9, 5),
                          static_cast<uint16_t>(1024 + i % 50000),
                          80,
                          AdcFlowKey::PROTO_TCP);
    }

    /// \return the gateway of flows 0..n-1
    static std::vector<AdcIpAddress> Gateways(Ptr<Routing> r, uint32_t n)
    {
        std::vector<AdcIpAddress> out;
        for (uint32_t i = 0; i < n; ++i)
        {
            Address gw;
            EXPECT_TRUE(r->Lookup(Flow(i), gw)) << i;
            out.emplace_back(gw);
        }
        return out;
    }

    void OnChange(const std::string& prefix, Address nextHop, bool added, AdcRouteOrigin origin)
    {
        changes.emplace_back(prefix, AdcIpAddress(nextHop).ToString(), added, origin);
    }

    std::vector<Change> changes; //!< RouteChange, in order
};

using Families = ::testing::Types<V4, V6>;
TYPED_TEST_SUITE(AdcEcmpBothFamilies, Families);

} // namespace

// REQ: SLB-05, SLB-12, SLB-13 (flows spread evenly over the equal-cost next hops; a flow keeps
// its next hop while the set is unchanged; the same for IPv4 and IPv6)
TYPED_TEST(AdcEcmpBothFamilies, SpreadsFlowsEvenlyAndKeepsEachOnOneNextHop)
{
    for (auto mode : {AdcEcmpGroup::MODULO, AdcEcmpGroup::RESILIENT})
    {
        SCOPED_TRACE(AdcEcmpGroup::ModeName(mode));
        auto r = this->Make(5, 3, mode);
        const auto first = this->Gateways(r, 30000);
        std::map<AdcIpAddress, uint32_t> n;
        for (const auto& gw : first)
        {
            ++n[gw];
        }
        ASSERT_EQ(n.size(), 3u);
        for (const auto& [gw, count] : n)
        {
            EXPECT_NEAR(count, 10000.0, 600.0) << gw; // a third each (256 buckets: 86/85/85)
        }
        // Asked again, and by a second router built alike, every flow gets the same next hop.
        EXPECT_EQ(this->Gateways(r, 30000), first);
        EXPECT_EQ(this->Gateways(this->Make(5, 3, mode), 30000), first);
    }
}

// REQ: SLB-05, SLB-12, SLB-13 (a next hop goes: modulo-N moves (n-1)/n of the flows, RFC 2992
// section 4; resilient moves only the flows of the next hop that went)
TYPED_TEST(AdcEcmpBothFamilies, ModuloMovesThreeQuartersResilientOnlyTheRemovedHopsFlows)
{
    for (auto mode : {AdcEcmpGroup::MODULO, AdcEcmpGroup::RESILIENT})
    {
        SCOPED_TRACE(AdcEcmpGroup::ModeName(mode));
        auto r = this->Make(7, 4, mode);
        const auto before = this->Gateways(r, 40000);
        ASSERT_TRUE(r->RemovePath(TypeParam::Host(9, 0),
                                  TypeParam::kLength,
                                  this->Gw(3),
                                  AdcRouteOrigin::STATIC));
        const auto after = this->Gateways(r, 40000);
        uint32_t moved = 0;
        uint32_t movedOthers = 0;
        for (std::size_t i = 0; i < before.size(); ++i)
        {
            EXPECT_NE(after[i], this->Gw(3));
            moved += before[i] != after[i];
            movedOthers += before[i] != this->Gw(3) && before[i] != after[i];
        }
        if (mode == AdcEcmpGroup::MODULO)
        {
            // 4 -> 3 hops: h mod 4 and h mod 3 name the same hop for 3 residues of 12.
            EXPECT_NEAR(moved / 40000.0, 0.75, 0.02);
        }
        else
        {
            EXPECT_EQ(movedOthers, 0u);
            EXPECT_NEAR(moved / 40000.0, 0.25, 0.02); // the removed hop's 64 of 256 buckets
        }
    }
}

// REQ: SLB-05, SLB-12, SLB-13 (per-router seeds: two tiers choose independently)
TYPED_TEST(AdcEcmpBothFamilies, RoutersWithTheirOwnSeedsDoNotPolarizeAcrossTiers)
{
    auto share = [this](auto first, auto second) {
        const auto g1 = this->Gateways(first, 20000);
        const auto g2 = this->Gateways(second, 20000);
        uint32_t onA = 0;
        uint32_t onAthenA = 0;
        for (std::size_t i = 0; i < g1.size(); ++i)
        {
            if (g1[i] == this->Gw(1))
            {
                ++onA;
                onAthenA += g2[i] == this->Gw(1);
            }
        }
        return static_cast<double>(onAthenA) / onA;
    };
    EXPECT_DOUBLE_EQ(share(this->Make(5, 2), this->Make(5, 2)), 1.0); // one seed: polarized
    EXPECT_NEAR(share(this->Make(5, 2), this->Make(6, 2)), 0.5, 0.03);
    // HashSeed 0: each router's seed comes from its node.
    NodeContainer nodes(2);
    InternetStackHelper().Install(nodes);
    auto a = this->Make(0, 2);
    auto b = this->Make(0, 2);
    if constexpr (std::is_same_v<TypeParam, V4>)
    {
        a->SetIpv4(nodes.Get(0)->GetObject<Ipv4>());
        b->SetIpv4(nodes.Get(1)->GetObject<Ipv4>());
    }
    else
    {
        a->SetIpv6(nodes.Get(0)->GetObject<Ipv6>());
        b->SetIpv6(nodes.Get(1)->GetObject<Ipv6>());
    }
    EXPECT_NE(a->GetEffectiveSeed(), b->GetEffectiveSeed());
    EXPECT_NEAR(share(a, b), 0.5, 0.03);
    Simulator::Destroy();
}

// REQ: SLB-12, SLB-13 (routes of two origins side by side: withdrawing a BGP path leaves the
// static route to the same next hop; the routing table trace shows every change)
TYPED_TEST(AdcEcmpBothFamilies, RemovingABgpPathKeepsTheStaticRouteToTheSameNextHop)
{
    auto r = this->Make(5, 2); // prefix 9: next hops 1 and 2, static
    const AdcIpAddress net = TypeParam::Host(9, 0);
    const uint8_t len = TypeParam::kLength;
    r->AddPath(net, len, this->Gw(2), 2, AdcRouteOrigin::BGP); // also learnt over BGP
    r->AddPath(net, len, this->Gw(3), 3, AdcRouteOrigin::BGP); // learnt only
    // The same route again changes nothing (no trace).
    r->AddPath(net, len, this->Gw(3), 3, AdcRouteOrigin::BGP);
    std::set<AdcIpAddress> used;
    for (const auto& gw : this->Gateways(r, 3000))
    {
        used.insert(gw);
    }
    // Next hop 2 is one member of the group, not two: three next hops, each about a third.
    EXPECT_EQ(used, (std::set<AdcIpAddress>{this->Gw(1), this->Gw(2), this->Gw(3)}));
    EXPECT_EQ(r->GetTable().GetNRoutes(), 4u);

    // BGP withdraws its path via 2: the static route via 2 stays, so no flow moves.
    const auto before = this->Gateways(r, 3000);
    EXPECT_TRUE(r->RemovePath(net, len, this->Gw(2), AdcRouteOrigin::BGP));
    EXPECT_EQ(this->Gateways(r, 3000), before);
    // A BGP path that is not there (via 1 is static only) is not removed.
    EXPECT_FALSE(r->RemovePath(net, len, this->Gw(1), AdcRouteOrigin::BGP));
    // Removing the static route via 2 now takes next hop 2 out.
    EXPECT_TRUE(r->RemovePath(net, len, this->Gw(2), AdcRouteOrigin::STATIC));
    for (const auto& gw : this->Gateways(r, 3000))
    {
        EXPECT_NE(gw, this->Gw(2));
    }
    const std::string p = TypeParam::Text(9);
    const std::string g1 = this->Gw(1).ToString();
    const std::string g2 = this->Gw(2).ToString();
    const std::string g3 = this->Gw(3).ToString();
    const std::vector<Change> expected{{p, g1, true, AdcRouteOrigin::STATIC},
                                       {p, g2, true, AdcRouteOrigin::STATIC},
                                       {p, g2, true, AdcRouteOrigin::BGP},
                                       {p, g3, true, AdcRouteOrigin::BGP},
                                       {p, g2, false, AdcRouteOrigin::BGP},
                                       {p, g2, false, AdcRouteOrigin::STATIC}};
    EXPECT_EQ(this->changes, expected);
}

// REQ: SLB-05, SLB-12, SLB-13 (a BGP session to a next hop drops: every prefix's path through it
// goes at once, static routes stay; a prefix left without next hop yields to the covering one)
TYPED_TEST(AdcEcmpBothFamilies, RemoveRoutesViaDropsEveryBgpPathThroughOneNextHop)
{
    auto r = this->Make(5, 0);
    const uint8_t len = TypeParam::kLength;
    const uint8_t host = TypeParam::kLength == 16 ? 32 : 128;
    // VIPs 9::5 and 9::6 (host routes) at MUXes 1 and 2 over BGP; prefix 9 static via 4;
    // prefix 8 via 1 both static and BGP.
    for (uint32_t vip : {5u, 6u})
    {
        for (uint32_t mux : {1u, 2u})
        {
            r->AddPath(TypeParam::Host(9, vip), host, this->Gw(mux), mux, AdcRouteOrigin::BGP);
        }
    }
    r->AddPath(TypeParam::Host(9, 0), len, this->Gw(4), 4, AdcRouteOrigin::STATIC);
    r->AddPath(TypeParam::Host(8, 0), len, this->Gw(1), 1, AdcRouteOrigin::STATIC);
    r->AddPath(TypeParam::Host(8, 0), len, this->Gw(1), 1, AdcRouteOrigin::BGP);
    this->changes.clear();

    // MUX 1's session drops: its three BGP paths go, one trace each.
    EXPECT_EQ(r->RemoveRoutesVia(this->Gw(1), AdcRouteOrigin::BGP), 3u);
    ASSERT_EQ(this->changes.size(), 3u);
    std::multiset<std::string> removed;
    for (const auto& [prefix, gw, added, origin] : this->changes)
    {
        EXPECT_EQ(gw, this->Gw(1).ToString());
        EXPECT_FALSE(added);
        EXPECT_EQ(origin, AdcRouteOrigin::BGP);
        removed.insert(prefix);
    }
    const std::string vip5 = TypeParam::Host(9, 5).ToString() + "/" + std::to_string(host);
    const std::string vip6 = TypeParam::Host(9, 6).ToString() + "/" + std::to_string(host);
    EXPECT_EQ(removed, (std::multiset<std::string>{vip5, vip6, TypeParam::Text(8)}));
    // Again: nothing left to remove.
    EXPECT_EQ(r->RemoveRoutesVia(this->Gw(1), AdcRouteOrigin::BGP), 0u);

    // Every flow to a VIP now takes MUX 2; prefix 8 keeps its static route via 1.
    typename TypeParam::Address gw;
    for (uint32_t i = 0; i < 200; ++i)
    {
        AdcFlowKey f = this->Flow(i);
        ASSERT_TRUE(r->Lookup(f, gw));
        EXPECT_EQ(AdcIpAddress(gw), this->Gw(2));
        f.dst = TypeParam::Host(8, 7);
        ASSERT_TRUE(r->Lookup(f, gw));
        EXPECT_EQ(AdcIpAddress(gw), this->Gw(1));
    }
    // MUX 2 goes too: the VIPs' host routes have no next hop left and are deleted, so the
    // VIPs follow the covering static prefix 9 (via 4).
    EXPECT_EQ(r->RemoveRoutesVia(this->Gw(2), AdcRouteOrigin::BGP), 2u);
    ASSERT_TRUE(r->Lookup(this->Flow(0), gw));
    EXPECT_EQ(AdcIpAddress(gw), this->Gw(4));
    EXPECT_EQ(r->GetTable().GetPrefixes().size(), 2u); // prefixes 9 and 8
}

// REQ: SLB-13 (bad input names the setting, the value and what is allowed)
TEST(AdcEcmpRouting6, BadPrefixesAndAddressesAreConfigurationErrors)
{
    Ptr<AdcEcmpRouting6> r = CreateObject<AdcEcmpRouting6>();
    auto what = [](const std::function<void()>& f) -> std::string {
        try
        {
            f();
        }
        catch (const AdcConfigError& e)
        {
            return e.what();
        }
        return "no error";
    };
    const std::string holes =
        what([&]() { r->AddRoute("2001:db8::", Ipv6Prefix("ffff:0:ffff::"), "fe80::1", 1); });
    EXPECT_NE(holes.find("ffff:0:ffff::"), std::string::npos) << holes;
    EXPECT_NE(holes.find("not contiguous"), std::string::npos) << holes;
    const std::string v4 = what([&]() {
        r->AddPath(Ipv4Address("10.0.0.0"), 8, Ipv4Address("10.1.0.1"), 1, AdcRouteOrigin::BGP);
    });
    EXPECT_NE(v4.find("10.0.0.0"), std::string::npos) << v4;
    EXPECT_NE(v4.find("IPv6"), std::string::npos) << v4;
    const std::string len = what([&]() {
        r->AddPath(Ipv6Address("2001:db8::"), 129, Ipv6Address("fe80::1"), 1, AdcRouteOrigin::BGP);
    });
    EXPECT_NE(len.find("129"), std::string::npos) << len;
    EXPECT_NE(len.find("0 to 128"), std::string::npos) << len;
    EXPECT_EQ(r->GetTable().GetNRoutes(), 0u);
}

namespace
{

/**
 * IPv6: a source S, a router R with three next hops N0..N2 (R's group names their link-local
 * addresses, so each needs its interface), each linked to a destination D. S sends 60 UDP flows
 * (distinct source ports) of a packet every 10 ms for 2 s to D's address on N0's link; each N
 * has a host route to it over its own link. Neighbour discovery runs on every link (R's and S's
 * link-local and multicast packets pass through AdcEcmpRouting6 to static routing). What each
 * flow took is recorded from the NextHop trace. Unique local addresses (fd00::/8): ns-3 does not
 * forward the documentation prefix 2001:db8::/32.
 */
struct EcmpBed6
{
    NodeContainer s, r, n, d;
    Ptr<AdcEcmpRouting6> ecmp;
    Ipv6Address dAddr;
    uint32_t rIfToN[3]{};
    Ipv6Address hop[3];
    std::map<uint16_t, std::vector<std::pair<double, Ipv6Address>>> path; //!< per source port
    uint32_t received{0};

    explicit EcmpBed6(AdcEcmpGroup::Mode mode)
    {
        s.Create(1);
        r.Create(1);
        n.Create(3);
        d.Create(1);
        // IPv6 list routing (ns-3's stack helper gives IPv6 static routing alone).
        AdcMakeListStackHelper(true).Install(NodeContainer(s, r, n, d));
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        Ipv6AddressHelper ip;
        ip.SetBase("fd00:1::", Ipv6Prefix(64));
        Ipv6InterfaceContainer sr = ip.Assign(p2p.Install(s.Get(0), r.Get(0)));
        std::vector<Ipv6InterfaceContainer> rn;
        std::vector<Ipv6InterfaceContainer> nd;
        for (uint32_t i = 0; i < 3; ++i)
        {
            ip.NewNetwork();
            rn.push_back(ip.Assign(p2p.Install(r.Get(0), n.Get(i))));
            rn.back().SetForwarding(0, true);
            rn.back().SetForwarding(1, true);
        }
        sr.SetForwarding(1, true);
        ip.SetBase("fd00:9::", Ipv6Prefix(64));
        for (uint32_t i = 0; i < 3; ++i)
        {
            nd.push_back(ip.Assign(p2p.Install(n.Get(i), d.Get(0))));
            ip.NewNetwork();
        }
        dAddr = nd[0].GetAddress(1, 1);
        // D takes packets for its address on N0's link from all three links.
        d.Get(0)->GetObject<Ipv6L3Protocol>()->SetAttribute("StrongEndSystemModel",
                                                            BooleanValue(false));
        // 60 flows start together: let neighbour discovery hold all their first packets.
        const NodeContainer senders(s, r);
        for (auto it = senders.Begin(); it != senders.End(); ++it)
        {
            Ptr<Ipv6L3Protocol> l3 = (*it)->GetObject<Ipv6L3Protocol>();
            for (uint32_t i = 0; i < l3->GetNInterfaces(); ++i)
            {
                if (Ptr<NdiscCache> cache = l3->GetInterface(i)->GetNdiscCache())
                {
                    cache->SetUnresQlen(100); // the loopback has none
                }
            }
        }
        Ipv6StaticRoutingHelper sh;
        sh.GetStaticRouting(s.Get(0)->GetObject<Ipv6>())
            ->SetDefaultRoute(sr.GetAddress(1, 1), sr.GetInterfaceIndex(0));
        for (uint32_t i = 0; i < 3; ++i)
        {
            sh.GetStaticRouting(n.Get(i)->GetObject<Ipv6>())
                ->AddHostRouteTo(dAddr, nd[i].GetAddress(1, 1), nd[i].GetInterfaceIndex(0));
        }
        // R: per-flow ECMP for D's prefix over link-local next hops, in front of static routing.
        ecmp = CreateObject<AdcEcmpRouting6>();
        ecmp->SetAttribute("Mode", EnumValue(mode));
        AdcAddTopIpv6Routing(r.Get(0), ecmp, 100);
        for (uint32_t i = 0; i < 3; ++i)
        {
            rIfToN[i] = rn[i].GetInterfaceIndex(0);
            hop[i] = rn[i].GetLinkLocalAddress(1);
            ecmp->AddRoute("fd00:9::", Ipv6Prefix(48), hop[i], rIfToN[i]);
        }
        ecmp->TraceConnectWithoutContext("NextHop", MakeCallback(&EcmpBed6::OnNextHop, this));
        Ptr<Socket> sink = Socket::CreateSocket(d.Get(0), UdpSocketFactory::GetTypeId());
        sink->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 9));
        sink->SetRecvCallback(MakeCallback(&EcmpBed6::OnReceive, this));
        for (uint16_t f = 0; f < 60; ++f)
        {
            Ptr<Socket> src = Socket::CreateSocket(s.Get(0), UdpSocketFactory::GetTypeId());
            src->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), 20000 + f));
            src->Connect(Inet6SocketAddress(dAddr, 9));
            for (uint32_t k = 0; k < 200; ++k)
            {
                Simulator::Schedule(MilliSeconds(10 * k) + MicroSeconds(f),
                                    [src]() { src->Send(Create<Packet>(100)); });
            }
        }
    }

    void OnNextHop(const AdcFlowKey& flow, const std::string& prefix, Ipv6Address gw, uint32_t)
    {
        EXPECT_EQ(prefix, "fd00:9::/48");
        path[flow.srcPort].emplace_back(Simulator::Now().GetSeconds(), gw);
    }

    void OnReceive(Ptr<Socket> sock)
    {
        while (sock->Recv())
        {
            ++received;
        }
    }

    /// \return the next hop flow \p port used in [from, to) (checks that it used one only)
    Ipv6Address HopOf(uint16_t port, double from, double to) const
    {
        std::set<Ipv6Address> hops;
        for (const auto& [t, gw] : path.at(port))
        {
            if (t >= from && t < to)
            {
                hops.insert(gw);
            }
        }
        EXPECT_EQ(hops.size(), 1u) << "flow " << port << " in [" << from << ", " << to << ")";
        return hops.empty() ? Ipv6Address() : *hops.begin();
    }
};

} // namespace

// REQ: SLB-05, SLB-12, SLB-13 (IPv6 per-flow ECMP in a router, link-local next hops and neighbour
// discovery included: a flow's packets take one next hop, flows use all three; when a next hop's
// link goes down its flows move, and in resilient mode only its flows)
TEST(AdcEcmpRouting6, ForwardsPerFlowAndMovesOnlyTheFailedHopsFlowsInResilientMode)
{
    for (auto mode : {AdcEcmpGroup::MODULO, AdcEcmpGroup::RESILIENT})
    {
        SCOPED_TRACE(AdcEcmpGroup::ModeName(mode));
        EcmpBed6 bed(mode);
        Ptr<Ipv6> rIp = bed.r.Get(0)->GetObject<Ipv6>();
        const uint32_t down = bed.rIfToN[1];
        Simulator::Schedule(Seconds(1), [rIp, down]() { rIp->SetDown(down); });
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        EXPECT_EQ(bed.received, 60u * 200u); // nothing lost, neighbour discovery included
        ASSERT_EQ(bed.path.size(), 60u);
        std::map<Ipv6Address, uint32_t> flowsBefore;
        uint32_t movedOthers = 0;
        for (const auto& [port, p] : bed.path)
        {
            EXPECT_EQ(p.size(), 200u) << "flow " << port; // each packet routed once, by R
            const Ipv6Address before = bed.HopOf(port, 0.0, 1.0);
            const Ipv6Address after = bed.HopOf(port, 1.0, 3.0);
            ++flowsBefore[before];
            EXPECT_NE(after, bed.hop[1]) << "flow " << port << " still on the failed next hop";
            movedOthers += before != bed.hop[1] && before != after;
        }
        ASSERT_EQ(flowsBefore.size(), 3u); // all three next hops carried flows
        EXPECT_GT(flowsBefore[bed.hop[1]], 0u);
        if (mode == AdcEcmpGroup::RESILIENT)
        {
            EXPECT_EQ(movedOthers, 0u);
        }
        else
        {
            EXPECT_GT(movedOthers, 0u); // modulo 3 -> 2 moves flows of surviving hops too
        }
        Simulator::Destroy();
    }
}

// REQ: SLB-13 (neighbour discovery and link-local traffic stay with the protocols below: a
// default route in AdcEcmpRouting6 takes neither multicast nor link-local destinations)
TEST(AdcEcmpRouting6, LeavesMulticastAndLinkLocalDestinationsToOtherProtocols)
{
    NodeContainer nodes(2);
    InternetStackHelper stack;
    stack.SetIpv4StackInstall(false);
    stack.Install(nodes);
    Ipv6AddressHelper ip;
    ip.SetBase("2001:db8:1::", Ipv6Prefix(64));
    Ipv6InterfaceContainer ifs = ip.Assign(PointToPointHelper().Install(nodes));
    Ptr<AdcEcmpRouting6> ecmp = CreateObject<AdcEcmpRouting6>();
    ecmp->SetIpv6(nodes.Get(0)->GetObject<Ipv6>());
    const uint32_t iface = ifs.GetInterfaceIndex(0);
    ecmp->AddRoute("::", Ipv6Prefix::GetZero(), ifs.GetLinkLocalAddress(1), iface);
    auto route = [&](const char* dst) {
        Ipv6Header h;
        h.SetSource(ifs.GetAddress(0, 1));
        h.SetDestination(Ipv6Address(dst));
        h.SetNextHeader(AdcFlowKey::PROTO_UDP);
        Socket::SocketErrno err;
        return ecmp->RouteOutput(Create<Packet>(10), h, nullptr, err);
    };
    EXPECT_EQ(route("ff02::1:ff00:2"), nullptr); // solicited-node multicast (NS)
    EXPECT_EQ(route("ff02::2"), nullptr);        // all routers (RS)
    EXPECT_EQ(route("fe80::200:ff:fe00:2"), nullptr);
    Ptr<Ipv6Route> r = route("2001:db8:77::1");
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->GetGateway(), ifs.GetLinkLocalAddress(1));
    EXPECT_EQ(r->GetOutputDevice(), nodes.Get(0)->GetObject<Ipv6>()->GetNetDevice(iface));
    EXPECT_EQ(r->GetSource(), ifs.GetAddress(0, 1)); // source address selection: the global one
    EXPECT_EQ(ecmp->GetPacketsRouted(), 1u);
    Simulator::Destroy();
}
