/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of Full-NAT source ports as illumos ILB allocates them (IlbNatPortPool,
 * IlbNatSourceTable; uts/common/inet/ilb/ilb_nat.c): the port range, a port space per (NAT
 * source, server) pair, the choice of the source address, the limit of 10 NAT source addresses
 * per rule, exhaustion of one pair while another works, and ports coming back when their entry
 * expires (fixture: ilb-test-fixture.h).
 */

#include "ilb-test-fixture.h"

#include "ns3/ilb-nat-source.h"

namespace
{

const AdcIpAddress kNat1(Ipv4Address("10.20.0.1"));
const AdcIpAddress kNat2(Ipv4Address("10.20.0.2"));
const AdcIpAddress kSrvA(Ipv4Address("10.1.0.1"));
const AdcIpAddress kSrvB(Ipv4Address("10.1.0.2"));

} // namespace

// REQ: ILB-05
TEST(IlbNatSource, PoolHoldsIllumosPortsFrom4096To65534)
{
    // ilb_nat.c: vmem_create(name, NAT_PORT_START = 4096, NAT_PORT_SIZE = 65535 - 4096 = 61439,
    // quantum 1): ports 4096 .. 4096 + 61439 - 1 = 65534; 65535 is never handed out.
    IlbNatPortPool pool;
    EXPECT_EQ(pool.GetRange(), AdcPortRange(4096, 65534));
    std::vector<bool> seen(65536, false);
    for (uint32_t n = 0; n < 61439; ++n)
    {
        const std::optional<uint16_t> p = pool.Allocate();
        ASSERT_TRUE(p) << n;
        ASSERT_GE(*p, 4096u);
        ASSERT_LE(*p, 65534u);
        ASSERT_FALSE(seen[*p]) << *p << " twice";
        seen[*p] = true;
    }
    EXPECT_EQ(pool.GetInUse(), 61439u);
    EXPECT_FALSE(pool.Allocate());
    EXPECT_EQ(pool.GetExhaustedCount(), 1u);
    // A released port is free again; releasing a free or foreign port changes nothing.
    EXPECT_TRUE(pool.Release(30000));
    EXPECT_FALSE(pool.Release(30000));
    EXPECT_FALSE(pool.Release(65535));
    EXPECT_FALSE(pool.Release(80));
    EXPECT_EQ(pool.Allocate(), std::optional<uint16_t>(30000));
    EXPECT_EQ(pool.GetInUse(), 61439u);
}

// REQ: ILB-05
TEST(IlbNatSource, PoolHandsOutPortsInTurnFromTheFirst)
{
    // A fresh arena counts up from its base (vmem instant fit takes the start of the free
    // segment); a freed port is used again after the ones not used yet (the model's next-fit
    // order, so a server's TIME_WAIT of a just-closed flow is not hit again at once).
    IlbNatPortPool pool(AdcPortRange(4096, 4099));
    EXPECT_EQ(pool.Allocate(), std::optional<uint16_t>(4096));
    EXPECT_EQ(pool.Allocate(), std::optional<uint16_t>(4097));
    EXPECT_EQ(pool.Allocate(), std::optional<uint16_t>(4098));
    EXPECT_TRUE(pool.Release(4097));
    EXPECT_TRUE(pool.IsAllocated(4096));
    EXPECT_FALSE(pool.IsAllocated(4097));
    EXPECT_EQ(pool.Allocate(), std::optional<uint16_t>(4099));
    EXPECT_EQ(pool.Allocate(), std::optional<uint16_t>(4097)); // wrapped
    EXPECT_FALSE(pool.Allocate());
    EXPECT_EQ(pool.GetInUse(), 4u);
    EXPECT_THROW(IlbNatPortPool(AdcPortRange(5, 4)), AdcConfigError);
}

// REQ: ILB-05
TEST(IlbNatSource, PortSpacesArePerSourceAndServerPairAndShared)
{
    IlbNatSourceTable table;
    const AdcPortRange two(5000, 5001);
    table.Bind(0, 0, {kNat1}, kSrvA, 80, two);
    table.Bind(0, 1, {kNat1}, kSrvB, 80, two);
    EXPECT_EQ(table.GetN(), 2u);
    // Two flows to two servers from one NAT source may hold the same port.
    EXPECT_EQ(table.Allocate(0, 0), std::make_optional(std::make_pair(kNat1, uint16_t(5000))));
    EXPECT_EQ(table.Allocate(0, 1), std::make_optional(std::make_pair(kNat1, uint16_t(5000))));
    EXPECT_EQ(table.Allocate(0, 0), std::make_optional(std::make_pair(kNat1, uint16_t(5001))));
    // srv A's pair is full: its next flow fails, srv B's pair still has a port.
    EXPECT_FALSE(table.Allocate(0, 0));
    EXPECT_EQ(table.Find(kNat1, kSrvA, 80)->ports.GetExhaustedCount(), 1u);
    EXPECT_EQ(table.Allocate(0, 1), std::make_optional(std::make_pair(kNat1, uint16_t(5001))));
    // Freed when the flow goes.
    EXPECT_TRUE(table.Release(0, 0, kNat1, 5000));
    EXPECT_FALSE(table.Release(0, 0, kNat2, 5001)); // not a source of that server
    EXPECT_EQ(table.Allocate(0, 0), std::make_optional(std::make_pair(kNat1, uint16_t(5000))));

    // ilb_find_nat_src: another rule with the same NAT source and server:port shares the
    // entry (so the two rules never give one 5-tuple twice); port 0 (a wild card) matches any
    // port; another server port is another entry.
    table.Bind(1, 0, {kNat1}, kSrvA, 80, two);
    table.Bind(2, 0, {kNat1}, kSrvA, 0, two);
    table.Bind(3, 0, {kNat1}, kSrvA, 8080, AdcPortRange(6000, 6000));
    EXPECT_EQ(table.GetBinding(1, 0), table.GetBinding(0, 0));
    EXPECT_EQ(table.GetBinding(2, 0), table.GetBinding(0, 0));
    EXPECT_NE(table.GetBinding(3, 0), table.GetBinding(0, 0));
    EXPECT_EQ(table.GetN(), 3u);
    EXPECT_FALSE(table.Allocate(1, 0)); // shares srv A's full pair
    EXPECT_EQ(table.Allocate(3, 0), std::make_optional(std::make_pair(kNat1, uint16_t(6000))));
    EXPECT_EQ(table.GetInUse(), 5u);
}

// REQ: ILB-05
TEST(IlbNatSource, SourceAddressIsTheServersNextThenAnyWithAFreePort)
{
    // ilb_alloc_nat_addr: i = (++src->cur) % num_src, so a server's first flow takes the
    // second address; then round robin; a full entry is skipped for the next one.
    IlbNatSourceTable table;
    table.Bind(0, 0, {kNat1, kNat2}, kSrvA, 80, AdcPortRange(5000, 5001));
    EXPECT_EQ(table.Allocate(0, 0), std::make_optional(std::make_pair(kNat2, uint16_t(5000))));
    EXPECT_EQ(table.Allocate(0, 0), std::make_optional(std::make_pair(kNat1, uint16_t(5000))));
    EXPECT_EQ(table.Allocate(0, 0), std::make_optional(std::make_pair(kNat2, uint16_t(5001))));
    EXPECT_EQ(table.Allocate(0, 0), std::make_optional(std::make_pair(kNat1, uint16_t(5001))));
    EXPECT_FALSE(table.Allocate(0, 0)); // every entry of the server is full
    EXPECT_TRUE(table.Release(0, 0, kNat2, 5000));
    // ++cur = 6: 6 % 2 = 0 is kNat1 (full), so the next one, kNat2, with its freed port.
    EXPECT_EQ(table.Allocate(0, 0), std::make_optional(std::make_pair(kNat2, uint16_t(5000))));
    // Eleven sources are more than ILB_MAX_NAT_SRC.
    std::vector<AdcIpAddress> eleven;
    for (uint32_t i = 0; i < 11; ++i)
    {
        eleven.push_back(Ipv4Address(0x0a140001 + i));
    }
    EXPECT_THROW(table.Bind(1, 0, eleven, kSrvA, 80, AdcPortRange(5000, 5001)), AdcConfigError);
}

// REQ: ILB-05
TEST(IlbNatSource, RuleWithMoreThanTenNatSourcesIsAConfigError)
{
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    IlbRule r = Rule("big", kVip4, 17, 53, IlbRule::FULL_NAT, {kSrvA, kSrvB});
    r.natSourceFirst = Ipv4Address("10.20.0.1");
    r.natSourceLast = Ipv4Address("10.20.0.11"); // 11 addresses
    const std::string e = ConfigErrorOf([&] { ilb->AddRule(r); });
    EXPECT_TRUE(Has(e, "'big'") && Has(e, "10.20.0.1-10.20.0.11") && Has(e, "1..10")) << e;
    r.natSourceLast = Ipv4Address("10.20.0.10"); // 10: the limit
    EXPECT_EQ(ilb->AddRule(r), 0u);
    EXPECT_EQ(ilb->GetNatSources().GetN(), 10u * 2u);
    EXPECT_EQ(ilb->GetNatSources().GetBinding(0, 1).size(), 10u);
    ilb->Dispose();
}

// REQ: ILB-05
TEST_F(IlbScenario, FullNatPairExhaustedDropsWhileAnotherPairWorksAndPortsComeBack)
{
    // Rule "a" (UDP 53) to srv1 and rule "b" (UDP 54) to srv2 share NAT source 10.20.0.1 with
    // two ports each pair. a1, a2 fill (10.20.0.1, srv1); a3 is dropped; b1 still gets port
    // 5000 towards srv2 (a single pool per NAT address would have had none left). a1 and a2
    // outlive UDP's 60 s of idleness (ILB's default NAT timeout) at ~61 s and go at the next
    // cleanup, 75 s (ilb_conn_cleanup every 15 s); a4 at 76 s finds their ports free again and
    // gets the next in turn: 5000 (after 5001, wrapping).
    Topo t = Build(false, 1, 2);
    IlbRule a = Rule("a", kVip4, 17, 53, IlbRule::FULL_NAT, {t.serverIp[0]});
    IlbRule b = Rule("b", kVip4, 17, 54, IlbRule::FULL_NAT, {t.serverIp[1]});
    for (IlbRule* r : {&a, &b})
    {
        r->natSourceFirst = kNat1;
        r->natSourceLast = kNat1;
        r->natPorts = AdcPortRange(5000, 5001);
    }
    t.app->AddRule(a);
    t.app->AddRule(b);
    WatchAll(t);
    EchoServer(t.servers.Get(0), 53);
    EchoServer(t.servers.Get(1), 54);
    const EchoStats& a1 = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1));
    const EchoStats& a2 = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.1));
    const EchoStats& a3 = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1.2));
    const EchoStats& b1 = Echo(t.clients.Get(0), kVip4, 54, 1, Seconds(1.3));
    const EchoStats& a4 = Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(76));
    Run(Seconds(77));

    EXPECT_EQ(a1.replies, 1u);
    EXPECT_EQ(a2.replies, 1u);
    EXPECT_EQ(a3.replies, 0u);
    EXPECT_EQ(b1.replies, 1u);
    EXPECT_EQ(a4.replies, 1u);
    EXPECT_EQ(m_log.Drops("nat-ports-exhausted"), 1u);
    EXPECT_EQ(m_log.drops.size(), 1u);
    EXPECT_EQ(m_log.exhausted, (std::vector<std::string>{"a"}));
    EXPECT_EQ(t.app->GetNatExhausted(0), 1u);
    EXPECT_EQ(t.app->GetNatExhausted(1), 0u);
    EXPECT_EQ(t.app->GetRuleCounters(0).drops, 1u);
    EXPECT_EQ(m_log.ServersOf("a"), (std::vector<uint32_t>{0, 0, 0}));
    EXPECT_EQ(m_log.ServersOf("b"), (std::vector<uint32_t>{0}));
    auto portsAt = [this](const char* s) {
        std::vector<uint16_t> ports;
        for (const Seen& seen : m_wire.At(s, 17))
        {
            EXPECT_EQ(seen.flow.src, kNat1);
            ports.push_back(seen.flow.srcPort);
        }
        return ports;
    };
    EXPECT_EQ(portsAt("S1"), (std::vector<uint16_t>{5000, 5001, 5000}));
    EXPECT_EQ(portsAt("S2"), (std::vector<uint16_t>{5000}));
    // Now: a4 holds 5000 towards srv1; a1, a2 and b1 expired and gave their ports back.
    const IlbNatSourceTable& nat = t.app->GetNatSources();
    EXPECT_EQ(nat.GetN(), 2u);
    EXPECT_EQ(nat.Find(kNat1, t.serverIp[0], 0)->ports.GetInUse(), 1u);
    EXPECT_EQ(nat.Find(kNat1, t.serverIp[1], 0)->ports.GetInUse(), 0u);
    EXPECT_EQ(nat.Find(kNat1, t.serverIp[0], 0)->ports.GetExhaustedCount(), 1u);
}
