/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the shared flow keys and seeded hashing.
 */

#include "ns3/adc-flow-key.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <unordered_set>

using namespace ns3;

namespace
{

AdcFlowKey
V4Flow(const char* s, uint16_t sp, const char* d, uint16_t dp)
{
    return AdcFlowKey(Ipv4Address(s), Ipv4Address(d), sp, dp, AdcFlowKey::PROTO_TCP);
}

} // namespace

TEST(AdcIpAddress, V4RoundTripAndFamily)
{
    AdcIpAddress a(Ipv4Address("10.1.2.3"));
    EXPECT_TRUE(a.IsV4());
    EXPECT_EQ(a.GetLength(), 4u);
    EXPECT_EQ(a.GetIpv4(), Ipv4Address("10.1.2.3"));
    EXPECT_EQ(a.ToString(), "10.1.2.3");
    // Network byte order in the first four bytes.
    EXPECT_EQ(a.GetBytes()[0], 10);
    EXPECT_EQ(a.GetBytes()[3], 3);
}

TEST(AdcIpAddress, V6RoundTrip)
{
    AdcIpAddress a(Ipv6Address("2001:db8::1"));
    EXPECT_TRUE(a.IsV6());
    EXPECT_EQ(a.GetLength(), 16u);
    EXPECT_EQ(a.GetIpv6(), Ipv6Address("2001:db8::1"));
    EXPECT_EQ(a.GetBytes()[0], 0x20);
    EXPECT_EQ(a.GetBytes()[15], 1);
}

TEST(AdcIpAddress, FamiliesNeverCompareEqual)
{
    // The IPv6 address whose first four bytes spell 10.0.0.1 is not the IPv4 address 10.0.0.1.
    AdcIpAddress v4(Ipv4Address("10.0.0.1"));
    AdcIpAddress v6(Ipv6Address("a00:1::"));
    EXPECT_EQ(v4.GetBytes()[0], v6.GetBytes()[0]);
    EXPECT_NE(v4, v6);
    EXPECT_NE(AdcHash::Address(v4, 1), AdcHash::Address(v6, 1));
}

TEST(AdcIpAddress, MaskedKeepsPrefixBits)
{
    AdcIpAddress a(Ipv4Address("192.168.37.201"));
    EXPECT_EQ(a.Masked(24).GetIpv4(), Ipv4Address("192.168.37.0"));
    EXPECT_EQ(a.Masked(20).GetIpv4(), Ipv4Address("192.168.32.0"));
    EXPECT_EQ(a.Masked(0).GetIpv4(), Ipv4Address("0.0.0.0"));
    EXPECT_EQ(a.Masked(32), a);
    AdcIpAddress b(Ipv6Address("2001:db8:aaaa:bbbb::1"));
    EXPECT_EQ(b.Masked(48).GetIpv6(), Ipv6Address("2001:db8:aaaa::"));
}

TEST(AdcFlowKey, ReversedSwapsEndpoints)
{
    AdcFlowKey k = V4Flow("10.0.0.1", 1234, "10.0.0.2", 80);
    AdcFlowKey r = k.Reversed();
    EXPECT_EQ(r.src, k.dst);
    EXPECT_EQ(r.dst, k.src);
    EXPECT_EQ(r.srcPort, 80);
    EXPECT_EQ(r.dstPort, 1234);
    EXPECT_EQ(r.Reversed(), k);
    EXPECT_NE(r, k);
    EXPECT_EQ(k.ToString(), "TCP 10.0.0.1:1234 -> 10.0.0.2:80");
}

TEST(AdcFlowKey, V6ToStringBracketsAddresses)
{
    AdcFlowKey k(Ipv6Address("2001:db8::1"), Ipv6Address("2001:db8::2"), 5, 53, 17);
    EXPECT_EQ(k.ToString(), "UDP [2001:db8::1]:5 -> [2001:db8::2]:53");
}

TEST(AdcHash, DeterministicAndSeedDependent)
{
    AdcFlowKey k = V4Flow("10.0.0.1", 1234, "10.0.0.2", 80);
    EXPECT_EQ(AdcHash::Flow(k, 7), AdcHash::Flow(k, 7));
    EXPECT_NE(AdcHash::Flow(k, 7), AdcHash::Flow(k, 8));
    EXPECT_NE(AdcHash::Flow(k, 7), AdcHash::Flow(k.Reversed(), 7));
    EXPECT_EQ(AdcHash::SymmetricFlow(k, 7), AdcHash::SymmetricFlow(k.Reversed(), 7));
}

TEST(AdcHash, EveryFieldMatters)
{
    AdcFlowKey k = V4Flow("10.0.0.1", 1234, "10.0.0.2", 80);
    std::set<uint64_t> hashes;
    hashes.insert(AdcHash::Flow(k, 3));
    AdcFlowKey m = k;
    m.srcPort++;
    hashes.insert(AdcHash::Flow(m, 3));
    m = k;
    m.dstPort++;
    hashes.insert(AdcHash::Flow(m, 3));
    m = k;
    m.protocol = AdcFlowKey::PROTO_UDP;
    hashes.insert(AdcHash::Flow(m, 3));
    m = k;
    m.src = Ipv4Address("10.0.0.3");
    hashes.insert(AdcHash::Flow(m, 3));
    m = k;
    m.dst = Ipv4Address("10.0.0.3");
    hashes.insert(AdcHash::Flow(m, 3));
    EXPECT_EQ(hashes.size(), 6u);
}

TEST(AdcHash, BytesDependsOnLengthAndContent)
{
    const char zeros[16] = {};
    std::set<uint64_t> hashes;
    for (std::size_t n = 0; n <= 16; ++n)
    {
        hashes.insert(AdcHash::Bytes(zeros, n, 11));
    }
    EXPECT_EQ(hashes.size(), 17u);
    EXPECT_NE(AdcHash::String("/obj/1", 0), AdcHash::String("/obj/2", 0));
}

TEST(AdcHash, SpreadsSequentialClientsEvenly)
{
    // 40,000 sequential client addresses into 16 buckets: a good hash puts 2,500 in each;
    // with a binomial spread the standard deviation is ~48, so 10% is a loose bound.
    std::map<uint64_t, uint32_t> buckets;
    for (uint32_t i = 0; i < 40000; ++i)
    {
        AdcFlowKey k(Ipv4Address(0x0a000000 + i), Ipv4Address("10.255.0.1"), 40000, 80, 6);
        buckets[AdcHash::Flow(k, 99) % 16]++;
    }
    ASSERT_EQ(buckets.size(), 16u);
    for (const auto& [bucket, count] : buckets)
    {
        EXPECT_NEAR(count, 2500, 250) << "bucket " << bucket;
    }
}

TEST(AdcHash, UsableInUnorderedContainers)
{
    std::unordered_set<AdcFlowKey, AdcFlowKeyHasher> set;
    for (uint16_t p = 1; p <= 1000; ++p)
    {
        set.insert(V4Flow("10.0.0.1", p, "10.0.0.2", 80));
        set.insert(V4Flow("10.0.0.1", p, "10.0.0.2", 80));
    }
    EXPECT_EQ(set.size(), 1000u);
    EXPECT_EQ(set.count(V4Flow("10.0.0.1", 77, "10.0.0.2", 80)), 1u);
    EXPECT_EQ(set.count(V4Flow("10.0.0.1", 1001, "10.0.0.2", 80)), 0u);
}
