/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcMaglevTable: the paper's worked example, balance, disruption, weights, primes.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-maglev-table.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Entry = AdcMaglevTable::Entry;

/// The example of the Maglev paper (Eisenbud et al., NSDI 2016, Section 3.4), M = 7.
const Entry B0{3, 4, 1, 0}; // permutation 3,0,4,1,5,2,6
const Entry B1{0, 2, 1, 1}; // permutation 0,2,4,6,1,3,5
const Entry B2{3, 1, 1, 2}; // permutation 3,4,5,6,0,1,2

/// \return slots held per id (ids 0..n-1)
std::vector<uint32_t>
CountPerId(const std::vector<int32_t>& table, uint32_t n)
{
    std::vector<uint32_t> count(n, 0);
    for (int32_t id : table)
    {
        EXPECT_GE(id, 0);
        EXPECT_LT(static_cast<uint32_t>(id), n);
        if (id >= 0 && static_cast<uint32_t>(id) < n)
        {
            ++count[id];
        }
    }
    return count;
}

/// \return entries for back-ends "be0".."be<n-1>", id = i, except the one with id \p skipId
std::vector<Entry>
NamedEntries(const AdcMaglevTable& t, uint32_t n, uint64_t seed, int64_t skipId = -1)
{
    std::vector<Entry> entries;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (static_cast<int64_t>(i) != skipId)
        {
            entries.push_back(t.MakeEntry("be" + std::to_string(i), 1, i, seed));
        }
    }
    return entries;
}

/**
 * The paper's population (Eisenbud et al., NSDI 2016, Pseudocode 1), written as plainly as
 * the paper, with the weighted turns AdcMaglevTable documents: next[i] walks back-end i's
 * permutation offset + j * skip mod M; a back-end whose turn it is takes the first slot of
 * its permutation not yet taken.
 */
std::vector<int32_t>
ReferencePopulate(const std::vector<Entry>& backends, uint32_t m)
{
    std::vector<int32_t> table(m, -1);
    std::vector<uint64_t> next(backends.size(), 0);
    std::vector<uint64_t> credit(backends.size(), 0);
    uint32_t wmax = 0;
    for (const auto& b : backends)
    {
        wmax = std::max(wmax, b.weight);
    }
    uint32_t n = 0;
    while (!backends.empty())
    {
        for (std::size_t i = 0; i < backends.size(); ++i)
        {
            credit[i] += backends[i].weight;
            if (credit[i] < wmax)
            {
                continue;
            }
            credit[i] -= wmax;
            uint64_t c = (backends[i].offset + next[i] * backends[i].skip) % m;
            while (table[c] >= 0)
            {
                ++next[i];
                c = (backends[i].offset + next[i] * backends[i].skip) % m;
            }
            table[c] = static_cast<int32_t>(backends[i].id);
            ++next[i];
            if (++n == m)
            {
                return table;
            }
        }
    }
    return table;
}

} // namespace

// REQ: SLB-06 (the MUX picks a DIP): the table Build fills (four probes at a time over a bitmap) is
// the paper's population, slot for slot, for random back-ends, weights and prime sizes.
TEST(AdcMaglevTable, BuildIsThePapersPopulationSlotForSlot)
{
    const uint32_t sizes[] = {7, 13, 251, 4093, 65537};
    uint64_t x = 0x9e3779b97f4a7c15ULL; // xorshift64: a fixed random sequence
    auto rnd = [&x]() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    for (uint32_t m : sizes)
    {
        for (uint32_t n : {1U, 2U, 3U, 10U, 100U, 1000U})
        {
            for (bool weighted : {false, true})
            {
                std::vector<Entry> backends;
                for (uint32_t i = 0; i < n; ++i)
                {
                    // Raw offsets and skips up to 2^64: Build reduces them mod M itself.
                    uint64_t skip = rnd();
                    if (skip % m == 0)
                    {
                        ++skip;
                    }
                    const uint32_t w = weighted ? 1 + static_cast<uint32_t>(rnd() % 5) : 1;
                    backends.push_back({rnd(), skip, w, i * 3 + 1});
                }
                AdcMaglevTable t(m);
                t.Build(backends);
                std::vector<Entry> reduced = backends;
                for (auto& b : reduced)
                {
                    b.offset %= m;
                    b.skip %= m;
                }
                ASSERT_EQ(t.GetTable(), ReferencePopulate(reduced, m))
                    << "M " << m << ", " << n << " back-ends, weighted " << weighted;
            }
        }
    }
}

TEST(AdcMaglevTable, PaperExampleBeforeRemoval)
{
    // Round 1: B0 takes 3; B1 takes 0; B2 wants 3 (taken) then takes 4.
    // Round 2: B0 wants 0 (taken), 4 (taken), takes 1; B1 takes 2; B2 takes 5.
    // Round 3: B0 wants 5 (taken), 2 (taken), takes 6. Table full (7 slots).
    AdcMaglevTable t(7);
    t.Build({B0, B1, B2});
    const std::vector<int32_t> expected = {1, 0, 1, 0, 2, 2, 0};
    EXPECT_EQ(t.GetTable(), expected);
}

TEST(AdcMaglevTable, PaperExampleAfterB1Removed)
{
    // Worked by hand with B0 (3,0,4,1,5,2,6) and B2 (3,4,5,6,0,1,2) taking turns:
    // Round 1: B0 takes 3; B2 wants 3 (taken), takes 4.
    // Round 2: B0 takes 0; B2 takes 5.
    // Round 3: B0 wants 4 (taken), takes 1; B2 takes 6.
    // Round 4: B0 wants 5 (taken), takes 2. Table full.
    // => [B0, B0, B0, B0, B2, B2, B2]. B1's slots 0 and 2 went to B0; slot 6 moved B0 -> B2
    // (the "extra" disruption the paper accepts). Note: the paper's printed "after" row
    // (B0 B0 B2 B0 B2 B2 B0) does not follow from its own Pseudocode 1: it would give B0
    // slot 6 before slot 1, but slot 1 precedes slot 6 in B0's permutation and is free.
    AdcMaglevTable t(7);
    t.Build({B0, B2});
    const std::vector<int32_t> expected = {0, 0, 0, 0, 2, 2, 2};
    EXPECT_EQ(t.GetTable(), expected);
}

TEST(AdcMaglevTable, LookupIsTableAtHashModSize)
{
    AdcMaglevTable t(7);
    t.Build({B0, B1, B2});
    // Table [1,0,1,0,2,2,0]: 7 -> slot 0 (B1), 11 -> slot 4 (B2), 13 -> slot 6 (B0).
    EXPECT_EQ(t.Lookup(7), 1);
    EXPECT_EQ(t.Lookup(11), 2);
    EXPECT_EQ(t.Lookup(13), 0);
    EXPECT_EQ(t.GetSize(), 7u);
}

TEST(AdcMaglevTable, EmptyBuildLooksUpMinusOne)
{
    AdcMaglevTable t(7);
    t.Build({B0, B1, B2});
    t.Build({});
    EXPECT_EQ(t.Lookup(3), -1);
    EXPECT_TRUE(
        std::all_of(t.GetTable().begin(), t.GetTable().end(), [](int32_t v) { return v == -1; }));
}

TEST(AdcMaglevTable, EqualWeightsGiveFloorOrCeilShares)
{
    // Pseudocode 1 gives each of N back-ends floor(M/N) or ceil(M/N) slots: every back-end
    // takes one slot per round until the table is full.
    const uint32_t m = 65537;
    const uint32_t n = 1000;
    AdcMaglevTable t(m);
    std::vector<std::string> names;
    for (uint32_t i = 0; i < n; ++i)
    {
        names.push_back("be" + std::to_string(i));
    }
    t.BuildFromNames(names, {}, 42);
    auto count = CountPerId(t.GetTable(), n);
    uint32_t sum = 0;
    for (uint32_t c : count)
    {
        sum += c;
    }
    EXPECT_EQ(sum, m);
    auto [mn, mx] = std::minmax_element(count.begin(), count.end());
    EXPECT_LE(*mx - *mn, 1u);
    EXPECT_EQ(*mn, m / n);     // 65
    EXPECT_EQ(*mx, m / n + 1); // 66
}

TEST(AdcMaglevTable, RemovingOneOfThousandMovesLittle)
{
    const uint32_t m = 65537;
    const uint32_t n = 1000;
    const uint32_t removed = 437;
    AdcMaglevTable before(m);
    before.Build(NamedEntries(before, n, 7));
    AdcMaglevTable after(m);
    after.Build(NamedEntries(after, n, 7, removed));

    uint32_t moved = 0;
    uint32_t heldByRemoved = 0;
    for (uint32_t s = 0; s < m; ++s)
    {
        if (before.GetTable()[s] == static_cast<int32_t>(removed))
        {
            ++heldByRemoved;
            EXPECT_NE(after.GetTable()[s], static_cast<int32_t>(removed)) << "slot " << s;
        }
        moved += before.GetTable()[s] != after.GetTable()[s] ? 1 : 0;
    }
    EXPECT_GE(heldByRemoved, m / n);
    EXPECT_GE(moved, heldByRemoved); // every slot of the removed back-end moved
    EXPECT_LT(static_cast<double>(moved) / m, 0.02);
}

TEST(AdcMaglevTable, WeightsTwoToOneGiveTwoToOneShares)
{
    const uint32_t m = 65537;
    const uint32_t n = 100; // ids < 50 weight 2, others weight 1
    AdcMaglevTable t(m);
    std::vector<std::string> names;
    std::vector<uint32_t> weights;
    for (uint32_t i = 0; i < n; ++i)
    {
        names.push_back("w" + std::to_string(i));
        weights.push_back(i < n / 2 ? 2 : 1);
    }
    t.BuildFromNames(names, weights, 99);
    auto count = CountPerId(t.GetTable(), n);
    double heavy = 0;
    for (uint32_t i = 0; i < n / 2; ++i)
    {
        heavy += count[i];
        // Each heavy back-end: 2/150 of the table.
        EXPECT_NEAR(count[i] / static_cast<double>(m), 2.0 / 150, 0.02 * 2.0 / 150) << i;
    }
    for (uint32_t i = n / 2; i < n; ++i)
    {
        EXPECT_NEAR(count[i] / static_cast<double>(m), 1.0 / 150, 0.02 * 2.0 / 150) << i;
    }
    EXPECT_NEAR(heavy / m, 2.0 / 3, 0.02);
}

TEST(AdcMaglevTable, IsPrime)
{
    for (uint64_t p : {2ULL,
                       3ULL,
                       5ULL,
                       7ULL,
                       13ULL,
                       251ULL,
                       4093ULL,
                       65537ULL,
                       1000003ULL,
                       4294967291ULL /* largest 32-bit prime */,
                       18446744073709551557ULL /* largest 64-bit prime */})
    {
        EXPECT_TRUE(AdcMaglevTable::IsPrime(p)) << p;
    }
    for (uint64_t c : {0ULL,
                       1ULL,
                       4ULL,
                       9ULL,
                       561ULL /* Carmichael */,
                       65535ULL,
                       1000001ULL /* 101 * 9901 */,
                       4294967297ULL /* 641 * 6700417 */,
                       3215031751ULL /* strong pseudoprime to bases 2,3,5,7 */,
                       18446744073709551615ULL /* 2^64 - 1 */})
    {
        EXPECT_FALSE(AdcMaglevTable::IsPrime(c)) << c;
    }
}

TEST(AdcMaglevTable, NonPrimeSizeIsConfigError)
{
    EXPECT_THROW(AdcMaglevTable(65536), AdcConfigError);
    try
    {
        AdcMaglevTable t(100);
        FAIL() << "no AdcConfigError";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("TableSize"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("100"), std::string::npos) << e.what();
    }
}

TEST(AdcMaglevTable, ZeroWeightOrSkipIsConfigError)
{
    AdcMaglevTable t(7);
    EXPECT_THROW(t.Build({Entry{0, 1, 0, 0}}), AdcConfigError);
    EXPECT_THROW(t.Build({Entry{0, 7, 1, 0}}), AdcConfigError);
}

TEST(AdcMaglevTable, BuildFromNamesMatchesSpecifiedHashDerivation)
{
    // offset in [0, M), skip in [1, M-1]; same names and seed -> same table; other seed -> other.
    AdcMaglevTable a(251);
    AdcMaglevTable b(251);
    AdcMaglevTable c(251);
    std::vector<std::string> names = {"CRS1", "CRS2", "CRS3"};
    for (const auto& nm : names)
    {
        auto e = a.MakeEntry(nm, 1, 0, 5);
        EXPECT_LT(e.offset, 251u);
        EXPECT_GE(e.skip, 1u);
        EXPECT_LE(e.skip, 250u);
    }
    a.BuildFromNames(names, {}, 5);
    b.BuildFromNames(names, {}, 5);
    c.BuildFromNames(names, {}, 6);
    EXPECT_EQ(a.GetTable(), b.GetTable());
    EXPECT_NE(a.GetTable(), c.GetTable());
}
