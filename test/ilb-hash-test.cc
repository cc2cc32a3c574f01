/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of illumos ILB's own hash algorithms (AdcIlbHashLb, uts/common/inet/ilb/ilb_alg_hash.c):
 * golden values computed from ilb_alg_hash.c's formulas and sys/crc32.h's CRC, what happens to
 * the flows when a server is disabled, enabled again or added, IPv6, the ILB vocabulary of the
 * method registry, and the choices an IlbAppliance makes on the wire (fixture:
 * ilb-test-fixture.h).
 */

#include "ilb-test-fixture.h"

#include "ns3/adc-ilb-hash-lb.h"
#include "ns3/adc-lb-method-registry.h"

namespace
{

using Registry = AdcLbMethodRegistry;

/**
 * The reference CRC, written from sys/crc32.h's bitwise definition (not the table the model
 * uses): crc = -1U; for each byte: crc ^= byte, then 8 times crc = (crc >> 1) ^ (-(crc & 1) &
 * 0xEDB88320). No final XOR.
 */
uint32_t
ReferenceCrc(const std::vector<uint8_t>& bytes)
{
    uint32_t crc = 0xFFFFFFFFU;
    for (uint8_t b : bytes)
    {
        crc ^= b;
        for (int i = 0; i < 8; ++i)
        {
            crc = (crc >> 1) ^ ((0U - (crc & 1U)) & 0xEDB88320U);
        }
    }
    return crc;
}

/// \return the 4 key bytes hash-ip-port hashes: addr ^ (port << 16) ^ port
std::vector<uint8_t>
IpPortBytes(const std::array<uint8_t, 4>& a, uint16_t port)
{
    const auto hi = static_cast<uint8_t>(port >> 8);
    const auto lo = static_cast<uint8_t>(port & 0xff);
    return {static_cast<uint8_t>(a[0] ^ hi),
            static_cast<uint8_t>(a[1] ^ lo),
            static_cast<uint8_t>(a[2] ^ hi),
            static_cast<uint8_t>(a[3] ^ lo)};
}

/// \return a method of \p name (ILB vocabulary) with \p n back-ends S0.. at 10.1.0.x
Ptr<AdcLbMethod>
Make(const std::string& name, uint32_t n)
{
    Ptr<AdcLbMethod> m = Registry::Create(name, Registry::ILB);
    for (uint32_t i = 0; i < n; ++i)
    {
        AdcBackend b;
        b.name = "S" + std::to_string(i);
        b.address = Ipv4Address(0x0a010000 + i + 1);
        b.port = 80;
        m->AddBackend(b);
    }
    return m;
}

/// \return a context of \p src:sport -> \p dst:80 (UDP)
AdcLbContext
Ctx(const AdcIpAddress& src, uint16_t sport, const AdcIpAddress& dst = kVip4)
{
    AdcLbContext c;
    c.flow = AdcFlowKey(src, dst, sport, 80, 17);
    return c;
}

/// \return 10.0.x.y for client \p i (1..)
AdcIpAddress
Client(uint32_t i)
{
    return Ipv4Address(0x0a000000 + i);
}

/// \return the bytes of client \p i's address
std::array<uint8_t, 4>
ClientBytes(uint32_t i)
{
    const uint32_t a = 0x0a000000 + i;
    return {static_cast<uint8_t>(a >> 24),
            static_cast<uint8_t>(a >> 16),
            static_cast<uint8_t>(a >> 8),
            static_cast<uint8_t>(a)};
}

/// \return the bytes hash-ip hashes for client \p i
std::vector<uint8_t>
IpBytes(uint32_t i)
{
    const std::array<uint8_t, 4> a = ClientBytes(i);
    return {a.begin(), a.end()};
}

} // namespace

// REQ: ILB-02
TEST(IlbHash, CrcIsIllumosCrc32WithoutTheFinalComplement)
{
    // sys/crc32.h: CRC32(crc, buf, size, -1U, crc32_table) is the reflected 0xEDB88320 CRC with
    // initial value 0xFFFFFFFF and no final XOR: the complement of the standard CRC-32, whose
    // check value over "123456789" is 0xCBF43926; ~0xCBF43926 = 0x340BC6D9.
    const std::string check = "123456789";
    EXPECT_EQ(AdcIlbHashLb::Crc32(reinterpret_cast<const uint8_t*>(check.data()), check.size()),
              0x340BC6D9u);
    EXPECT_EQ(ReferenceCrc(std::vector<uint8_t>(check.begin(), check.end())), 0x340BC6D9u);
}

// REQ: ILB-02
TEST(IlbHash, GoldenValuesFromIlbAlgHashFormulas)
{
    const AdcIpAddress c1(Ipv4Address("10.0.0.1"));
    const AdcIpAddress vip(Ipv4Address("192.0.2.10"));
    // HASH_IP_V4: CRC over the address as it lies in memory, 0a 00 00 01:
    //   CRC = ~crc32(0a000001) = 0xC601F011 = 3322015761; 3322015761 mod 4 = 1, mod 3 = 0.
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP, AdcFlowKey(c1, vip, 1, 80, 6)), 0xC601F011u);
    // 10.0.0.2 (0a 00 00 02): 0x5F08A1AB = 1594401195; mod 4 = 3.
    EXPECT_EQ(
        AdcIlbHashLb::Hash(AdcIlbHashLb::IP, AdcFlowKey(Ipv4Address("10.0.0.2"), vip, 1, 80, 6)),
        0x5F08A1ABu);
    // HASH_IP_PORT_V4, port 40000 = 0x9C40: val = addr ^ (port << 16) ^ port, bytes
    //   0a^9c 00^40 00^9c 01^40 = 96 40 9c 41 -> 0xEA25A74B = 3928336203; mod 4 = 3.
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP_PORT, AdcFlowKey(c1, vip, 40000, 80, 6)),
              0xEA25A74Bu);
    //   port 40001 = 0x9C41: 96 41 9c 40 -> 0x9CE0FDEA = 2631990762; mod 4 = 2.
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP_PORT, AdcFlowKey(c1, vip, 40001, 80, 6)),
              0x9CE0FDEAu);
    // HASH_IP_VIP_V4: saddr ^ daddr = 0a^c0 00^00 00^02 01^0a = ca 00 02 0b -> 0x62AF958B;
    //   VIP 192.0.2.11: ca 00 02 0a -> 0x15A8A51D = 363373853; mod 3 = 2.
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP_VIP, AdcFlowKey(c1, vip, 1, 80, 6)), 0x62AF958Bu);
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP_VIP,
                                 AdcFlowKey(c1, Ipv4Address("192.0.2.11"), 1, 80, 6)),
              0x15A8A51Du);

    // The server: hash_tbl[crc % servers], the servers in the order added.
    EXPECT_EQ(Make("hash-ip", 4)->Select(Ctx(c1, 1)), 1);                      // mod 4 = 1
    EXPECT_EQ(Make("hash-ip", 3)->Select(Ctx(c1, 1)), 0);                      // mod 3 = 0
    EXPECT_EQ(Make("hash-ip", 4)->Select(Ctx(Ipv4Address("10.0.0.2"), 1)), 3); // mod 4 = 3
    EXPECT_EQ(Make("hash-ip-port", 4)->Select(Ctx(c1, 40000)), 3);             // mod 4 = 3
    EXPECT_EQ(Make("hash-ip-port", 4)->Select(Ctx(c1, 40001)), 2);             // mod 4 = 2
    EXPECT_EQ(Make("hash-ip-vip", 3)->Select(Ctx(c1, 1, Ipv4Address("192.0.2.11"))), 2); // mod 3
    // The source port is not in hash-ip's key, the VIP not in hash-ip-port's.
    EXPECT_EQ(Make("hash-ip", 4)->Select(Ctx(c1, 40000)), 1);
    EXPECT_EQ(Make("hash-ip-port", 4)->Select(Ctx(c1, 40000, Ipv4Address("192.0.2.99"))), 3);
}

// REQ: ILB-02
TEST(IlbHash, Ipv6HashesTheLow32BitsOfTheAddress)
{
    // HASH_IP_V6 hashes s6_addr32[3]: 2001:db8::1:5 -> 00 01 00 05 -> 0xAF13BE5B = 2937306715;
    // mod 4 = 3, mod 3 = 1.
    const AdcIpAddress c6(Ipv6Address("2001:db8::1:5"));
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP, AdcFlowKey(c6, kVip6, 1, 80, 6)), 0xAF13BE5Bu);
    // Only the low word counts: another /96 with the same low 32 bits hashes alike.
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP,
                                 AdcFlowKey(Ipv6Address("2001:99::1:5"), kVip6, 1, 80, 6)),
              0xAF13BE5Bu);
    // HASH_IP_PORT_V6, port 443 = 0x01BB: 00^01 01^bb 00^01 05^bb = 01 ba 01 be -> 0x9B0C938A
    // = 2601292682; mod 3 = 2.
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP_PORT, AdcFlowKey(c6, kVip6, 443, 80, 6)),
              0x9B0C938Au);
    EXPECT_EQ(Make("hash-ip", 4)->Select(Ctx(c6, 1, kVip6)), 3);
    EXPECT_EQ(Make("hash-ip", 3)->Select(Ctx(c6, 1, kVip6)), 1);
    EXPECT_EQ(Make("hash-ip-port", 3)->Select(Ctx(c6, 443, kVip6)), 2);
    // Disabled: hash_enabled_tbl[crc % 3] of {S0, S2, S3} (S1 off): 2937306715 mod 3 = 1 -> S2.
    Ptr<AdcLbMethod> m = Make("hash-ip", 4);
    m->SetBackendUp(3, false);
    EXPECT_EQ(m->Select(Ctx(c6, 1, kVip6)), 1); // enabled {S0, S1, S2}: index 1
}

// REQ: ILB-02 (a disabled server: the algorithm picks among the others)
TEST(IlbHash, DisabledServersFlowsGoWhereIllumosSendsThemAndNoOtherMoves)
{
    Ptr<AdcLbMethod> m = Make("hash-ip", 4);
    const uint32_t flows = 400;
    std::vector<int32_t> before(flows + 1);
    for (uint32_t i = 1; i <= flows; ++i)
    {
        before[i] = m->Select(Ctx(Client(i), 1));
        const uint32_t crc = ReferenceCrc(IpBytes(i));
        ASSERT_EQ(before[i], static_cast<int32_t>(crc % 4)) << i;
    }
    // ilbadm disable-server S1: hash_enabled_tbl loses S1, keeping the order: {S0, S2, S3}.
    m->SetBackendUp(1, false);
    Ptr<AdcIlbHashLb> ilb = DynamicCast<AdcIlbHashLb>(m);
    ASSERT_TRUE(ilb);
    EXPECT_EQ(ilb->GetEnabledTable(), (std::vector<uint32_t>{0, 2, 3}));
    uint32_t moved = 0;
    for (uint32_t i = 1; i <= flows; ++i)
    {
        const uint32_t crc = ReferenceCrc(IpBytes(i));
        const std::vector<int32_t> enabled = {0, 2, 3};
        const int32_t expected = crc % 4 != 1 ? static_cast<int32_t>(crc % 4) : enabled[crc % 3];
        EXPECT_EQ(m->Select(Ctx(Client(i), 1)), expected) << i;
        if (before[i] != 1)
        {
            EXPECT_EQ(m->Select(Ctx(Client(i), 1)), before[i]) << "flow " << i << " moved";
        }
        moved += expected != before[i] ? 1 : 0;
    }
    // Exactly S1's flows moved (about a quarter).
    EXPECT_EQ(moved, static_cast<uint32_t>(std::count(before.begin() + 1, before.end(), 1)));
    EXPECT_GT(moved, flows / 8);

    // enable-server S1: appended at the end {S0, S2, S3, S1}; everyone is back on hash_tbl.
    // Then disable S2: {S0, S3, S1}: S2's flows go to enabled[crc % 3] of that order.
    m->SetBackendUp(1, true);
    EXPECT_EQ(ilb->GetEnabledTable(), (std::vector<uint32_t>{0, 2, 3, 1}));
    m->SetBackendUp(2, false);
    EXPECT_EQ(ilb->GetEnabledTable(), (std::vector<uint32_t>{0, 3, 1}));
    for (uint32_t i = 1; i <= flows; ++i)
    {
        const uint32_t crc = ReferenceCrc(IpBytes(i));
        const std::vector<int32_t> enabled = {0, 3, 1};
        const int32_t expected = crc % 4 != 2 ? static_cast<int32_t>(crc % 4) : enabled[crc % 3];
        EXPECT_EQ(m->Select(Ctx(Client(i), 1)), expected) << i;
    }
    // Every server disabled: nothing to choose.
    for (uint32_t k = 0; k < 4; ++k)
    {
        m->SetBackendUp(k, false);
    }
    EXPECT_EQ(m->Select(Ctx(Client(1), 1)), -1);
}

// REQ: ILB-02
TEST(IlbHash, AddingAServerMovesMostFlowsUnlikeTheConsistentAlternatives)
{
    // hash_tbl[crc % n]: going from 4 to 5 servers keeps a flow only when crc % 4 == crc % 5.
    const uint32_t flows = 1000;
    uint32_t expectedMoved = 0;
    for (uint32_t i = 1; i <= flows; ++i)
    {
        const uint32_t crc =
            ReferenceCrc(IpPortBytes(ClientBytes(i), static_cast<uint16_t>(40000 + i)));
        expectedMoved += crc % 4 != crc % 5 ? 1 : 0;
    }
    for (const std::string name : {"hash-ip-port", "rendezvous-hash-ip-port", "maglev"})
    {
        Ptr<AdcLbMethod> m = Make(name, 4);
        std::vector<int32_t> before;
        for (uint32_t i = 1; i <= flows; ++i)
        {
            before.push_back(m->Select(Ctx(Client(i), static_cast<uint16_t>(40000 + i))));
        }
        AdcBackend b;
        b.name = "S4";
        b.address = Ipv4Address("10.1.0.5");
        m->AddBackend(b);
        uint32_t moved = 0;
        for (uint32_t i = 1; i <= flows; ++i)
        {
            moved += m->Select(Ctx(Client(i), static_cast<uint16_t>(40000 + i))) != before[i - 1]
                         ? 1
                         : 0;
        }
        if (name == "hash-ip-port")
        {
            EXPECT_EQ(moved, expectedMoved);
            EXPECT_GT(moved, flows * 7 / 10); // about 4/5 of the flows
        }
        else
        {
            EXPECT_LT(moved, flows * 3 / 10) << name; // about 1/5: only the new server's share
        }
    }
}

// REQ: ILB-02
TEST(IlbHash, IlbVocabularyMeansIllumosHashesAndKeepsTheConsistentOnes)
{
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"roundrobin", "ROUNDROBIN"},
        {"hash-ip", "ILBHASHIP"},
        {"hash-ip-port", "ILBHASHIPPORT"},
        {"hash-ip-vip", "ILBHASHIPVIP"},
        {"rendezvous-hash-ip", "SOURCEIPHASH"},
        {"rendezvous-hash-ip-port", "SRCIPSRCPORTHASH"},
        {"rendezvous-hash-ip-vip", "SRCIPDESTIPHASH"},
        {"maglev", "MAGLEV"}};
    std::vector<std::string> names;
    for (const auto& [alias, canonical] : pairs)
    {
        names.push_back(alias);
        EXPECT_EQ(Registry::Create(alias, Registry::ILB)->GetMethodName(), canonical) << alias;
        EXPECT_EQ(Registry::GetAlias(canonical, Registry::ILB), alias);
        EXPECT_TRUE(Registry::GetTraits(canonical) & Registry::FLOW_HASH || alias == "roundrobin");
    }
    EXPECT_EQ(Registry::GetNames(Registry::ILB), names);
    EXPECT_EQ(Registry::Create("HASH-IP-VIP", Registry::ILB)->GetInstanceTypeId().GetName(),
              "ns3::AdcIlbHashLb");
    // The ilbadm vocabulary shared with other subjects (and ANY) keeps its meaning.
    EXPECT_EQ(Registry::Create("hash-ip", Registry::ILBADM)->GetMethodName(), "SOURCEIPHASH");
    EXPECT_EQ(AdcLbMethod::Create("hash-ip-port")->GetMethodName(), "SRCIPSRCPORTHASH");
    // ILB rules take the ILB vocabulary: an unknown name lists it.
    const std::string e = ConfigErrorOf([] { Registry::Create("leastconn", Registry::ILB); });
    EXPECT_TRUE(Has(e, "roundrobin, hash-ip, hash-ip-port, hash-ip-vip, rendezvous-hash-ip")) << e;
    EXPECT_EQ(IlbAppliance::GetAlgorithmNames(), names);
}

// REQ: ILB-02 (a disabled server: the algorithm picks among the others)
TEST_F(IlbScenario, ApplianceHashIpPortChoosesAsIllumosAndDisabledServersFlowsMove)
{
    // One client, three servers, hash-ip-port (Half-NAT, UDP): every new flow's server is
    // crc(client ^ port) % 3, read off the "ServerChosen" trace; srv2 disabled at 2 s: flows
    // that hash to it go to {srv1, srv3}[crc % 2], the others stay where they hashed.
    Topo t = Build(false, 1, 3);
    IlbRule rule = Rule("dns",
                        kVip4,
                        17,
                        53,
                        IlbRule::HALF_NAT,
                        {t.serverIp[0], t.serverIp[1], t.serverIp[2]});
    rule.algorithm = "hash-ip-port";
    t.app->AddRule(rule);
    WatchAll(t);
    for (uint32_t k = 0; k < 3; ++k)
    {
        EchoServer(t.servers.Get(k), 53);
    }
    std::vector<const EchoStats*> echoes;
    for (int i = 0; i < 12; ++i)
    {
        echoes.push_back(&Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(1 + 0.01 * i)));
        echoes.push_back(&Echo(t.clients.Get(0), kVip4, 53, 1, Seconds(3 + 0.01 * i)));
    }
    Simulator::Schedule(Seconds(2), [&t] { t.app->SetServerEnabled(0, 1, false); });
    Run(Seconds(4));

    ASSERT_EQ(m_log.chosen.size(), 24u);
    std::set<uint32_t> used;
    uint32_t fallbacks = 0;
    for (const IlbLog::Chosen& c : m_log.chosen)
    {
        const auto a = c.flow.src.GetBytes();
        const uint32_t crc = ReferenceCrc(IpPortBytes({a[0], a[1], a[2], a[3]}, c.flow.srcPort));
        uint32_t expected = crc % 3;
        if (c.when > Seconds(2) && expected == 1)
        {
            expected = std::vector<uint32_t>{0, 2}[crc % 2];
            ++fallbacks;
        }
        EXPECT_EQ(c.server, expected) << c.flow;
        used.insert(c.server);
    }
    EXPECT_GT(fallbacks, 0u); // the disabled server had flows to hand over
    EXPECT_EQ(used.size(), 3u);
    for (const EchoStats* e : echoes)
    {
        EXPECT_EQ(e->replies, 1u);
    }
    EXPECT_TRUE(m_log.drops.empty());
    EXPECT_EQ(t.app->GetRuleVServer(0)->GetLbMethodName(), "ILBHASHIPPORT");
}
