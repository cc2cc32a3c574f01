/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of port ranges, exclusive port-range maps and the port allocator.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-port-range.h"
#include "ns3/callback.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::adctest;

namespace
{

/// Records what an allocator's trace sources fire.
struct AllocatorTraces
{
    std::vector<uint16_t> allocated;
    std::vector<uint16_t> released;
    std::vector<uint32_t> exhausted;

    void OnAllocated(uint16_t p)
    {
        allocated.push_back(p);
    }

    void OnReleased(uint16_t p)
    {
        released.push_back(p);
    }

    void OnExhausted(uint32_t size)
    {
        exhausted.push_back(size);
    }

    void Connect(Ptr<AdcPortAllocator> a)
    {
        ASSERT_TRUE(
            a->TraceConnectWithoutContext("Allocated",
                                          MakeCallback(&AllocatorTraces::OnAllocated, this)));
        ASSERT_TRUE(
            a->TraceConnectWithoutContext("Released",
                                          MakeCallback(&AllocatorTraces::OnReleased, this)));
        ASSERT_TRUE(
            a->TraceConnectWithoutContext("Exhausted",
                                          MakeCallback(&AllocatorTraces::OnExhausted, this)));
    }
};

/// \return an allocator over \p range
Ptr<AdcPortAllocator>
MakeAllocator(const std::string& range)
{
    Ptr<AdcPortAllocator> a = CreateObject<AdcPortAllocator>();
    a->SetAttribute("Range", StringValue(range));
    return a;
}

} // namespace

TEST(AdcPortRange, BasicsContainsSizeOverlapsToString)
{
    AdcPortRange r(1024, 16383);
    EXPECT_EQ(r.Size(), 15360u); // 16383 - 1024 + 1
    EXPECT_TRUE(r.Contains(1024));
    EXPECT_TRUE(r.Contains(16383));
    EXPECT_FALSE(r.Contains(1023));
    EXPECT_FALSE(r.Contains(16384));
    EXPECT_EQ(r.ToString(), "1024-16383");
    EXPECT_TRUE(r.Overlaps(AdcPortRange(16383, 20000)));
    EXPECT_TRUE(r.Overlaps(AdcPortRange(1, 1024)));
    EXPECT_TRUE(r.Overlaps(AdcPortRange(2000, 3000)));
    EXPECT_FALSE(r.Overlaps(AdcPortRange(16384, 20000)));
    EXPECT_FALSE(r.Overlaps(AdcPortRange(1, 1023)));
    EXPECT_EQ(AdcPortRange(1, 65535).Size(), 65535u);
}

TEST(AdcPortRange, ParseAcceptsRangesAndSinglePorts)
{
    EXPECT_EQ(AdcPortRange::Parse("1024-65535"), AdcPortRange(1024, 65535));
    EXPECT_EQ(AdcPortRange::Parse(" 80 - 81 "), AdcPortRange(80, 81));
    EXPECT_EQ(AdcPortRange::Parse("443"), AdcPortRange(443, 443));
    EXPECT_EQ(AdcPortRange::Parse("1-1"), AdcPortRange(1, 1));
}

TEST(AdcPortRange, ParseRejectsMalformedText)
{
    for (const char* bad : {"",
                            "-",
                            "1024-",
                            "-2048",
                            "abc",
                            "10a-20",
                            "2048-1024",
                            "0-100",
                            "0",
                            "1024-65536",
                            "100000",
                            "1-2-3",
                            "+5-9"})
    {
        const std::string msg = ConfigErrorOf([&] { AdcPortRange::Parse(bad); });
        EXPECT_NE(msg.find("AdcPortRange"), std::string::npos) << "'" << bad << "': " << msg;
        EXPECT_NE(msg.find(std::string("'") + bad + "'"), std::string::npos) << msg;
    }
}

// REQ: CRD-05
TEST(AdcPortRange, SplitIntoFourExclusiveRangesCoversEveryPort)
{
    // 65535 - 1024 + 1 = 64512 ports; 64512 / 4 = 16128 each.
    auto parts = AdcPortRange::Split(AdcPortRange(1024, 65535), 4);
    ASSERT_EQ(parts.size(), 4u);
    EXPECT_EQ(parts[0], AdcPortRange(1024, 17151));  // 1024 + 16128 - 1
    EXPECT_EQ(parts[1], AdcPortRange(17152, 33279)); // 17152 + 16128 - 1
    EXPECT_EQ(parts[2], AdcPortRange(33280, 49407));
    EXPECT_EQ(parts[3], AdcPortRange(49408, 65535));
    uint32_t total = 0;
    for (std::size_t i = 0; i < parts.size(); ++i)
    {
        EXPECT_EQ(parts[i].Size(), 16128u);
        total += parts[i].Size();
        for (std::size_t j = i + 1; j < parts.size(); ++j)
        {
            EXPECT_FALSE(parts[i].Overlaps(parts[j]));
        }
    }
    EXPECT_EQ(total, 64512u);
}

// REQ: CRD-05
TEST(AdcPortRange, SplitUnevenSizesDifferByAtMostOne)
{
    // 10 ports in 3: 4, 3, 3.
    auto parts = AdcPortRange::Split(AdcPortRange(100, 109), 3);
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[0], AdcPortRange(100, 103));
    EXPECT_EQ(parts[1], AdcPortRange(104, 106));
    EXPECT_EQ(parts[2], AdcPortRange(107, 109));
    // As many parts as ports: one port each.
    auto singles = AdcPortRange::Split(AdcPortRange(65534, 65535), 2);
    ASSERT_EQ(singles.size(), 2u);
    EXPECT_EQ(singles[0], AdcPortRange(65534, 65534));
    EXPECT_EQ(singles[1], AdcPortRange(65535, 65535));
    // One part: the whole range.
    auto whole = AdcPortRange::Split(AdcPortRange(1024, 65535), 1);
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_EQ(whole[0], AdcPortRange(1024, 65535));
}

TEST(AdcPortRange, SplitRejectsZeroOrTooManyParts)
{
    EXPECT_THROW(AdcPortRange::Split(AdcPortRange(100, 109), 0), AdcConfigError);
    EXPECT_THROW(AdcPortRange::Split(AdcPortRange(100, 109), 11), AdcConfigError);
    EXPECT_NO_THROW(AdcPortRange::Split(AdcPortRange(100, 109), 10));
    EXPECT_THROW(AdcPortRange::Split(AdcPortRange(200, 100), 1), AdcConfigError);
    EXPECT_THROW(AdcPortRange::Split(AdcPortRange(0, 100), 1), AdcConfigError);
}

// REQ: CRD-05
TEST(AdcPortRangeMap, OverlapRejectedNamingBothRangesAndOwners)
{
    AdcPortRangeMap map;
    map.Add(AdcPortRange(1024, 17151), 1);
    map.Add(AdcPortRange(17152, 33279), 2);
    const std::string msg = ConfigErrorOf([&] { map.Add(AdcPortRange(17000, 18000), 3); });
    EXPECT_NE(msg.find("17000-18000"), std::string::npos) << msg;
    EXPECT_NE(msg.find("owner 3"), std::string::npos) << msg;
    // It overlaps both neighbours; the message names one of them with its owner.
    const bool namesFirst =
        msg.find("1024-17151") != std::string::npos && msg.find("owner 1") != std::string::npos;
    const bool namesSecond =
        msg.find("17152-33279") != std::string::npos && msg.find("owner 2") != std::string::npos;
    EXPECT_TRUE(namesFirst || namesSecond) << msg;
    // A range inside an existing one, one enclosing it, and one touching its last port.
    EXPECT_THROW(map.Add(AdcPortRange(2000, 2001), 4), AdcConfigError);
    EXPECT_THROW(map.Add(AdcPortRange(1, 65535), 4), AdcConfigError);
    EXPECT_THROW(map.Add(AdcPortRange(33279, 40000), 4), AdcConfigError);
    // Nothing was added by the failed calls; an adjacent range is fine.
    EXPECT_EQ(map.GetN(), 2u);
    map.Add(AdcPortRange(33280, 49407), 3);
    EXPECT_EQ(map.GetN(), 3u);
}

// REQ: CRD-05
TEST(AdcPortRangeMap, OutOfBoundsRejected)
{
    AdcPortRangeMap map;
    map.SetBounds(AdcPortRange(1024, 65535));
    const std::string msg = ConfigErrorOf([&] { map.Add(AdcPortRange(1000, 2000), 7); });
    EXPECT_NE(msg.find("1000-2000"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1024-65535"), std::string::npos) << msg;
    EXPECT_NE(msg.find("owner 7"), std::string::npos) << msg;
    EXPECT_NO_THROW(map.Add(AdcPortRange(1024, 2000), 7));
    EXPECT_NO_THROW(map.Add(AdcPortRange(65535, 65535), 8));
    // Bounds that would exclude an existing range are refused.
    EXPECT_THROW(map.SetBounds(AdcPortRange(2048, 65535)), AdcConfigError);
    EXPECT_THROW(map.Add(AdcPortRange(0, 10), 9), AdcConfigError);
}

// REQ: CRD-05
TEST(AdcPortRangeMap, FindOwnerAtBoundaries)
{
    AdcPortRangeMap map;
    // Added out of order, with a gap 33280-40000 owned by nobody.
    for (const auto& r : AdcPortRange::Split(AdcPortRange(40001, 65535), 2))
    {
        map.Add(r, r.first == 40001 ? 30 : 40);
    }
    map.Add(AdcPortRange(17152, 33279), 20);
    map.Add(AdcPortRange(1024, 17151), 10);
    // 40001-65535 is 25535 ports: 12768 then 12767, so 40001-52768 and 52769-65535.
    EXPECT_EQ(map.FindOwner(1023), std::nullopt);
    EXPECT_EQ(map.FindOwner(1024), 10u);
    EXPECT_EQ(map.FindOwner(17151), 10u);
    EXPECT_EQ(map.FindOwner(17152), 20u);
    EXPECT_EQ(map.FindOwner(33279), 20u);
    EXPECT_EQ(map.FindOwner(33280), std::nullopt);
    EXPECT_EQ(map.FindOwner(40000), std::nullopt);
    EXPECT_EQ(map.FindOwner(40001), 30u);
    EXPECT_EQ(map.FindOwner(52768), 30u);
    EXPECT_EQ(map.FindOwner(52769), 40u);
    EXPECT_EQ(map.FindOwner(65535), 40u);
    EXPECT_EQ(map.FindOwner(0), std::nullopt);
    // GetRanges is sorted by first port.
    const auto& items = map.GetRanges();
    ASSERT_EQ(items.size(), 4u);
    EXPECT_EQ(items[0].owner, 10u);
    EXPECT_EQ(items[1].owner, 20u);
    EXPECT_EQ(items[2].owner, 30u);
    EXPECT_EQ(items[3].owner, 40u);
}

TEST(AdcPortRangeMap, EmptyMapHasNoOwner)
{
    AdcPortRangeMap map;
    EXPECT_EQ(map.FindOwner(80), std::nullopt);
    map.Add(AdcPortRange(80, 80), 1);
    EXPECT_EQ(map.FindOwner(80), 1u);
    EXPECT_EQ(map.FindOwner(79), std::nullopt);
    EXPECT_EQ(map.FindOwner(81), std::nullopt);
    map.Clear();
    EXPECT_EQ(map.FindOwner(80), std::nullopt);
}

// REQ: CRD-05
TEST(AdcPortAllocator, AllocatesEveryPortOnceThenReportsExhaustion)
{
    // 70 ports: more than one bitmap word, last word partly padding.
    Ptr<AdcPortAllocator> a = MakeAllocator("2000-2069");
    AllocatorTraces traces;
    traces.Connect(a);
    EXPECT_EQ(a->GetSize(), 70u);
    std::set<uint16_t> seen;
    for (uint16_t i = 0; i < 70; ++i)
    {
        auto p = a->Allocate();
        ASSERT_TRUE(p.has_value());
        // Sequential order from the first port.
        EXPECT_EQ(*p, 2000 + i);
        EXPECT_TRUE(seen.insert(*p).second) << "port " << *p << " allocated twice";
        EXPECT_TRUE(a->IsAllocated(*p));
    }
    EXPECT_EQ(a->GetInUse(), 70u);
    EXPECT_EQ(traces.allocated.size(), 70u);
    EXPECT_EQ(a->GetExhaustedCount(), 0u);

    EXPECT_EQ(a->Allocate(), std::nullopt);
    EXPECT_EQ(a->Allocate(), std::nullopt);
    EXPECT_EQ(a->GetExhaustedCount(), 2u);
    ASSERT_EQ(traces.exhausted.size(), 2u);
    EXPECT_EQ(traces.exhausted[0], 70u);
    EXPECT_EQ(a->GetInUse(), 70u);

    // Releasing one port makes exactly that one available again.
    a->Release(2033);
    EXPECT_FALSE(a->IsAllocated(2033));
    ASSERT_EQ(traces.released.size(), 1u);
    EXPECT_EQ(traces.released[0], 2033);
    EXPECT_EQ(a->Allocate(), 2033);
    EXPECT_EQ(a->Allocate(), std::nullopt);
    EXPECT_EQ(a->GetExhaustedCount(), 3u);
}

// REQ: CRD-05
TEST(AdcPortAllocator, NextFreeAfterLastAllocatedWrapping)
{
    Ptr<AdcPortAllocator> a = MakeAllocator("100-104");
    EXPECT_EQ(a->Allocate(), 100);
    EXPECT_EQ(a->Allocate(), 101);
    EXPECT_EQ(a->Allocate(), 102);
    a->Release(100);
    // Next after 102 is 103, not the freed 100.
    EXPECT_EQ(a->Allocate(), 103);
    EXPECT_EQ(a->Allocate(), 104);
    // Wraps: 100 is the only free port.
    EXPECT_EQ(a->Allocate(), 100);
    a->Release(102);
    a->Release(101);
    // Last allocated was 100: scan from 101.
    EXPECT_EQ(a->Allocate(), 101);
    EXPECT_EQ(a->Allocate(), 102);
    EXPECT_EQ(a->Allocate(), std::nullopt);
}

TEST(AdcPortAllocator, ScanWrapsAcrossBitmapWords)
{
    // 130 ports = three 64-bit words, the last one mostly padding.
    Ptr<AdcPortAllocator> a = MakeAllocator("1-130");
    for (uint16_t p = 1; p <= 130; ++p)
    {
        ASSERT_EQ(a->Allocate(), p);
    }
    a->Release(70);
    a->Release(5);
    EXPECT_EQ(a->Allocate(), 5);  // scan starts after 130, i.e. wraps to port 1
    EXPECT_EQ(a->Allocate(), 70); // next free after 5
    a->Release(10);
    // From 71 the scan crosses word 2 (ports 129, 130 and padding in use) and wraps to word 0.
    EXPECT_EQ(a->Allocate(), 10);
    EXPECT_EQ(a->Allocate(), std::nullopt);
    EXPECT_EQ(a->GetInUse(), 130u);
}

TEST(AdcPortAllocator, BadReleaseIsIgnoredAndCounted)
{
    Ptr<AdcPortAllocator> a = MakeAllocator("100-104");
    AllocatorTraces traces;
    traces.Connect(a);
    a->Release(101); // never allocated
    a->Release(99);  // outside the range
    EXPECT_EQ(a->GetMisuseCount(), 2u);
    EXPECT_TRUE(traces.released.empty());
    EXPECT_EQ(a->GetInUse(), 0u);
    EXPECT_EQ(a->Allocate(), 100);
    a->Release(100);
    a->Release(100); // double release
    EXPECT_EQ(a->GetMisuseCount(), 3u);
    EXPECT_EQ(traces.released.size(), 1u);
}

TEST(AdcPortAllocator, RangeAttributeDefaultAndBadText)
{
    Ptr<AdcPortAllocator> a = CreateObject<AdcPortAllocator>();
    EXPECT_EQ(a->GetRange(), AdcPortRange(1024, 65535));
    EXPECT_EQ(a->GetSize(), 64512u);
    StringValue v;
    a->GetAttribute("Range", v);
    EXPECT_EQ(v.Get(), "1024-65535");
    EXPECT_THROW(a->SetAttribute("Range", StringValue("5000-4000")), AdcConfigError);
    EXPECT_THROW(a->SetAttribute("Range", StringValue("ports")), AdcConfigError);
    EXPECT_EQ(a->GetRange(), AdcPortRange(1024, 65535)); // unchanged by failed sets
    EXPECT_EQ(a->Allocate(), 1024);
}

TEST(AdcConfigErrorText, SplitListSkipsEmptyItemsAndNotOneOfListsAllowedValues)
{
    EXPECT_EQ(AdcConfigError::SplitList("ROUNDROBIN,,URLHASH,"),
              (std::vector<std::string>{"ROUNDROBIN", "URLHASH"}));
    EXPECT_EQ(AdcConfigError::SplitList("a-b c", ' '), (std::vector<std::string>{"a-b", "c"}));
    EXPECT_TRUE(AdcConfigError::SplitList("").empty());
    const std::string m = AdcConfigError::NotOneOf("X", "Method", "FOO", {"A", "B"}).what();
    EXPECT_EQ(m, "X: Method 'FOO' is not one of A, B");
}
