/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the SLB MUX's flow table (SlbFlowTable): pinning, lazy idle expiry and the closing
 * timeout, the 32-bit millisecond clock's wrap, MaxFlows, removal in an open-addressing table
 * (checked against std::map through thousands of random operations), the bytes per entry.
 */

#include "ns3/adc-flow-key.h"
#include "ns3/slb-flow-table.h"
#include "ns3/slb-mux.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace ns3;

namespace
{

/// \param i a number \return a distinct IPv4 TCP flow to the VIP 10.0.0.100:80
AdcFlowKey
Flow4(uint32_t i)
{
    return AdcFlowKey(Ipv4Address(0x0b000000 + (i >> 8)),
                      Ipv4Address("10.0.0.100"),
                      static_cast<uint16_t>(1024 + (i & 0xff)),
                      80,
                      AdcFlowKey::PROTO_TCP);
}

/// \param i a number \return a distinct IPv6 UDP flow to the VIP fd00::100:53
AdcFlowKey
Flow6(uint32_t i)
{
    uint8_t src[16] = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    src[12] = static_cast<uint8_t>(i >> 24);
    src[13] = static_cast<uint8_t>(i >> 16);
    src[14] = static_cast<uint8_t>(i >> 8);
    src[15] = static_cast<uint8_t>(i);
    return AdcFlowKey(Ipv6Address(src), Ipv6Address("fd00::100"), 5353, 53, AdcFlowKey::PROTO_UDP);
}

} // namespace

// REQ: SLB-06 (the MUX pins a flow to its DIP), SLB-13
TEST(SlbFlowTable, PinsEachFlowOfEitherFamilyToItsDip)
{
    SlbFlowTable t;
    EXPECT_TRUE(t.Set(Flow4(1), 7, 0));
    EXPECT_TRUE(t.Set(Flow4(2), 8, 0));
    EXPECT_TRUE(t.Set(Flow6(1), 9, 0));
    ASSERT_TRUE(t.Touch(Flow4(1), 5).has_value());
    EXPECT_EQ(t.Touch(Flow4(1), 5)->dipId, 7U);
    EXPECT_EQ(t.Touch(Flow4(2), 5)->dipId, 8U);
    EXPECT_EQ(t.Touch(Flow6(1), 5)->dipId, 9U);
    EXPECT_FALSE(t.Touch(Flow4(3), 5).has_value());
    // The reverse direction is another flow.
    EXPECT_FALSE(t.Touch(Flow4(1).Reversed(), 5).has_value());
    EXPECT_EQ(t.GetCount(), 3U);
    EXPECT_EQ(t.GetCount(AdcIpAddress::V4), 2U);
    EXPECT_EQ(t.GetCount(AdcIpAddress::V6), 1U);
    // Re-pinning keeps one entry.
    EXPECT_TRUE(t.Set(Flow4(1), 11, 6));
    EXPECT_EQ(t.Touch(Flow4(1), 7)->dipId, 11U);
    EXPECT_EQ(t.GetCount(), 3U);
}

// REQ: SLB-06
TEST(SlbFlowTable, IdleEntriesExpireAfterTheTimeoutAndTouchingKeepsThemAlive)
{
    SlbFlowTable t;
    t.SetTimeouts(1000, 100);
    t.Set(Flow4(1), 1, 0);
    t.Set(Flow4(2), 2, 0);
    // Idle exactly the timeout: still alive; touched, its idle time starts again.
    EXPECT_TRUE(t.Touch(Flow4(1), 1000).has_value());
    EXPECT_TRUE(t.Touch(Flow4(1), 2000).has_value());
    // Flow 2 was idle 2000 ms > 1000: gone, and removed by the lookup.
    EXPECT_FALSE(t.Touch(Flow4(2), 2000).has_value());
    EXPECT_EQ(t.GetCount(), 1U);
    // After a FIN the closing timeout (100 ms) applies.
    EXPECT_TRUE(t.AddFlags(Flow4(1), SlbFlowTable::kClosing));
    EXPECT_TRUE(t.Touch(Flow4(1), 2100).has_value());
    EXPECT_FALSE(t.Touch(Flow4(1), 2201).has_value());
    EXPECT_EQ(t.GetCount(), 0U);
}

// REQ: SLB-06 (the millisecond clock wraps after 2^32 ms, 49.7 days, without losing flows)
TEST(SlbFlowTable, TheMillisecondClockWrapsWithoutExpiringLiveFlows)
{
    SlbFlowTable t;
    t.SetTimeouts(1000, 100);
    const uint32_t before = 0xffffff00U; // 256 ms before the wrap
    t.Set(Flow4(1), 1, before);
    EXPECT_TRUE(t.Touch(Flow4(1), 0x10U).has_value()); // 272 ms later, after the wrap
    EXPECT_FALSE(t.Touch(Flow4(1), 0x10U + 1001).has_value());
}

// REQ: SLB-06
TEST(SlbFlowTable, ExpireSweepsEveryIdleEntry)
{
    SlbFlowTable t;
    t.SetTimeouts(1000, 100);
    for (uint32_t i = 0; i < 100; ++i)
    {
        t.Set(Flow4(i), i, i < 60 ? 0 : 900);
    }
    EXPECT_EQ(t.Expire(1500), 60U); // idle 1500 > 1000; the others 600
    EXPECT_EQ(t.GetCount(), 40U);
    EXPECT_EQ(t.Touch(Flow4(99), 1500)->dipId, 99U);
}

// REQ: SLB-06 (MaxFlows bounds the table; expired entries make room)
TEST(SlbFlowTable, MaxFlowsRefusesNewFlowsUntilEntriesExpire)
{
    SlbFlowTable t;
    t.SetTimeouts(5000, 100);
    t.SetMaxFlows(3);
    EXPECT_TRUE(t.Set(Flow4(1), 1, 0));
    EXPECT_TRUE(t.Set(Flow4(2), 2, 0));
    EXPECT_TRUE(t.Set(Flow6(3), 3, 3000));
    EXPECT_FALSE(t.Set(Flow4(4), 4, 3000)); // both families count; nothing has expired
    EXPECT_EQ(t.GetCount(), 3U);
    EXPECT_TRUE(t.Set(Flow4(1), 5, 3500)); // an existing flow may be re-pinned
    // At 5001 flow 2 (last seen at 0) is idle 5001 ms > 5000: swept out, room for flow 4.
    EXPECT_TRUE(t.Set(Flow4(4), 4, 5001));
    EXPECT_EQ(t.GetCount(), 3U);
    EXPECT_FALSE(t.Touch(Flow4(2), 5001).has_value());
    EXPECT_EQ(t.Touch(Flow4(1), 5001)->dipId, 5U);
    EXPECT_EQ(t.Touch(Flow6(3), 5001)->dipId, 3U);
}

// REQ: SLB-06 (removal in open addressing keeps every other entry reachable)
TEST(SlbFlowTable, RandomInsertsAndRemovalsAgreeWithAReferenceMap)
{
    SlbFlowTable t;
    t.SetTimeouts(0xffffff, 0xffffff);
    std::map<AdcFlowKey, uint32_t> ref;
    std::mt19937 rng(12345);
    for (uint32_t step = 0; step < 20000; ++step)
    {
        const uint32_t i = rng() % 3000;
        const AdcFlowKey k = (i % 2) ? Flow4(i) : Flow6(i);
        switch (rng() % 3)
        {
        case 0:
        case 1:
            ASSERT_TRUE(t.Set(k, step, 0));
            ref[k] = step;
            break;
        default:
            EXPECT_EQ(t.Remove(k), ref.erase(k) == 1);
        }
    }
    EXPECT_EQ(t.GetCount(), ref.size());
    for (uint32_t i = 0; i < 3000; ++i)
    {
        const AdcFlowKey k = (i % 2) ? Flow4(i) : Flow6(i);
        const auto e = t.Touch(k, 1);
        auto r = ref.find(k);
        ASSERT_EQ(e.has_value(), r != ref.end()) << k;
        if (e)
        {
            EXPECT_EQ(e->dipId, r->second);
        }
    }
    // RemoveIf by DIP id: the odd ids go.
    std::size_t odd = 0;
    for (const auto& [k, id] : ref)
    {
        odd += id % 2;
    }
    EXPECT_EQ(t.RemoveIf([](const AdcFlowKey&, uint32_t id) { return id % 2 == 1; }), odd);
    EXPECT_EQ(t.GetCount(), ref.size() - odd);
}

// REQ: SLB-06 (issue 11 performance target: at most 64 bytes per MUX flow-table entry)
TEST(SlbFlowTable, BytesPerEntryAreMeasuredAndAtMost64)
{
    // IPv4 slot: 2 x 4 address bytes + 2 ports (4) + DIP id (4) + last seen (4) + protocol and
    // flags (2) = 22, padded to 24 (4-byte alignment). IPv6: 2 x 16 + 14 = 46, padded to 48.
    // At the highest load (3/4) that is 24 / 0.75 = 32 and 48 / 0.75 = 64 bytes per entry.
    EXPECT_EQ(SlbFlowTable::GetEntryBytes(AdcIpAddress::V4), 32U);
    EXPECT_EQ(SlbFlowTable::GetEntryBytes(AdcIpAddress::V6), 64U);
    EXPECT_LE(SlbMux::GetFlowEntryBytes(), 64U);
    // What is allocated: between the slot size (full) and twice the per-entry bound (just
    // after doubling, load 3/8).
    SlbFlowTable t;
    for (uint32_t i = 0; i < 10000; ++i)
    {
        t.Set(Flow4(i), i, 0);
    }
    const double perEntry = static_cast<double>(t.GetMemoryBytes()) / t.GetCount();
    EXPECT_GE(perEntry, 24.0);
    EXPECT_LE(perEntry, 64.0);
    SlbFlowTable t6;
    for (uint32_t i = 0; i < 10000; ++i)
    {
        t6.Set(Flow6(i), i, 0);
    }
    const double perEntry6 = static_cast<double>(t6.GetMemoryBytes()) / t6.GetCount();
    EXPECT_GE(perEntry6, 48.0);
    EXPECT_LE(perEntry6, 128.0);
}
