/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the Maglev consistent-hashing lookup table.
 */

#include "adc-maglev-table.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-flow-key.h"

#include <algorithm>
#include <limits>

namespace ns3
{

namespace
{

/// Salt that derives the skip hash's seed from the device seed (independent of the offset hash).
constexpr uint64_t SKIP_SEED_SALT = 0xc2b2ae3d27d4eb4fULL;

/// \return (a + b) mod m for a, b < m, without overflow
uint64_t
AddMod(uint64_t a, uint64_t b, uint64_t m)
{
    return a >= m - b ? a - (m - b) : a + b;
}

/**
 * \brief The binary method shared by MulMod (double-and-add) and PowMod (square-and-multiply):
 * combines \p x with itself \p n times under \p op, starting from \p identity.
 * \param identity the neutral element of \p op (0 for addition, 1 for multiplication)
 * \param x the operand (reduced mod \p m first)
 * \param n how many times
 * \param m the modulus
 * \param op (a, b, m) -> a op b mod m
 * \return x op x op ... op x (n times) mod m
 */
template <typename Op>
uint64_t
BinaryMethod(uint64_t identity, uint64_t x, uint64_t n, uint64_t m, Op op)
{
    uint64_t r = identity;
    x %= m;
    while (n > 0)
    {
        if (n & 1)
        {
            r = op(r, x, m);
        }
        x = op(x, x, m);
        n >>= 1;
    }
    return r;
}

/// \return a * b mod m without overflow (double-and-add: portable, no 128-bit type; primality
/// tests are rare, so speed does not matter)
uint64_t
MulMod(uint64_t a, uint64_t b, uint64_t m)
{
    return BinaryMethod(0, a, b % m, m, AddMod);
}

/// \return b^e mod m
uint64_t
PowMod(uint64_t b, uint64_t e, uint64_t m)
{
    return BinaryMethod(1, b, e, m, MulMod);
}

/// \return true when \p n (odd, > 2, n - 1 = d * 2^s) passes the strong test to base \p a
bool
StrongProbablePrime(uint64_t n, uint64_t d, uint32_t s, uint64_t a)
{
    uint64_t x = PowMod(a, d, n);
    if (x == 1 || x == n - 1)
    {
        return true;
    }
    for (uint32_t r = 1; r < s; ++r)
    {
        x = MulMod(x, x, n);
        if (x == n - 1)
        {
            return true;
        }
    }
    return false;
}

} // namespace

AdcMaglevTable::AdcMaglevTable(uint32_t size)
    : m_size(size)
{
    if (!IsPrime(size))
    {
        throw AdcConfigError("AdcMaglevTable: TableSize " + std::to_string(size) +
                             " is not prime; use a prime such as 251, 4093, 65537 or 655373");
    }
    m_table.assign(m_size, -1);
}

bool
AdcMaglevTable::IsPrime(uint64_t n)
{
    if (n < 2)
    {
        return false;
    }
    // These bases make Miller-Rabin deterministic for every n < 3.3e24, so all 64-bit n.
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    for (uint64_t p : bases)
    {
        if (n % p == 0)
        {
            return n == p;
        }
    }
    uint64_t d = n - 1;
    uint32_t s = 0;
    while ((d & 1) == 0)
    {
        d >>= 1;
        ++s;
    }
    return std::all_of(std::begin(bases), std::end(bases), [&](uint64_t a) {
        return StrongProbablePrime(n, d, s, a);
    });
}

void
AdcMaglevTable::Build(const std::vector<Entry>& backends)
{
    std::fill(m_table.begin(), m_table.end(), -1);
    if (backends.empty())
    {
        return;
    }

    // Per back-end state: the next slot of its permutation, its step (and 2, 3 and 4 steps)
    // and its turn credit. Slots are below M < 2^32, so a sum of two slots is below 2^33 and
    // one subtraction reduces it mod M (no division in the probe loop).
    struct State
    {
        uint64_t pos;
        uint64_t skip[4]; // k * skip mod M, k = 1..4
        uint64_t credit;
    };

    const uint64_t m = m_size;
    auto addMod = [m](uint64_t a, uint64_t b) {
        const uint64_t r = a + b;
        return r >= m ? r - m : r;
    };

    std::vector<State> state;
    state.reserve(backends.size());
    uint32_t wmax = 0;
    for (const auto& b : backends)
    {
        if (b.weight == 0 || b.skip % m_size == 0 ||
            b.id > static_cast<uint32_t>(std::numeric_limits<int32_t>::max()))
        {
            throw AdcConfigError("AdcMaglevTable: back-end id " + std::to_string(b.id) +
                                 " has weight " + std::to_string(b.weight) + ", skip " +
                                 std::to_string(b.skip) +
                                 "; weight must be >= 1, skip not a multiple of TableSize " +
                                 std::to_string(m_size) + ", id <= 2^31-1");
        }
        wmax = std::max(wmax, b.weight);
        State st{b.offset % m, {b.skip % m, 0, 0, 0}, 0};
        for (int k = 1; k < 4; ++k)
        {
            st.skip[k] = addMod(st.skip[k - 1], st.skip[0]);
        }
        state.push_back(st);
    }

    // Probes read a bitmap of taken slots (M / 8 bytes: 8 KiB for M = 65537, in L1 cache), not
    // the table itself (4 bytes per slot), four slots of the permutation at a time: the four
    // positions do not depend on each other, and the first free one is found without a branch
    // (a set bit per free slot, then its lowest). One branch per four probes; 2.5 to 3 times
    // faster than one probe at a time with a division each (bench/adc-bench-maglev.cc).
    std::vector<uint64_t> taken((m_size + 63) / 64, 0);
    auto isTaken = [&taken](uint64_t p) { return (taken[p >> 6] >> (p & 63)) & 1; };
    uint32_t filled = 0;
    while (true)
    {
        for (std::size_t i = 0; i < backends.size(); ++i)
        {
            State& st = state[i];
            st.credit += backends[i].weight;
            if (st.credit < wmax)
            {
                continue; // not this back-end's turn in this round
            }
            st.credit -= wmax;
            // The table is not full, and the permutation visits every slot: this ends. The
            // slot taken is the first free one in permutation order, as in the paper.
            uint64_t pos = st.pos;
            while (true)
            {
                const uint64_t p[4] = {pos,
                                       addMod(pos, st.skip[0]),
                                       addMod(pos, st.skip[1]),
                                       addMod(pos, st.skip[2])};
                const uint64_t free =
                    (isTaken(p[0]) | isTaken(p[1]) << 1 | isTaken(p[2]) << 2 | isTaken(p[3]) << 3) ^
                    0xf; // bit k set: p[k] is free
                if (free != 0)
                {
                    pos = p[__builtin_ctzll(free)];
                    break;
                }
                pos = addMod(pos, st.skip[3]);
            }
            taken[pos >> 6] |= uint64_t{1} << (pos & 63);
            m_table[pos] = static_cast<int32_t>(backends[i].id);
            st.pos = addMod(pos, st.skip[0]);
            if (++filled == m_size)
            {
                return;
            }
        }
    }
}

AdcMaglevTable::Entry
AdcMaglevTable::MakeEntry(const std::string& name,
                          uint32_t weight,
                          uint32_t id,
                          uint64_t seed) const
{
    Entry e;
    e.offset = AdcHash::String(name, seed) % m_size;
    e.skip = AdcHash::String(name, AdcHash::Mix(seed ^ SKIP_SEED_SALT)) % (m_size - 1) + 1;
    e.weight = weight;
    e.id = id;
    return e;
}

void
AdcMaglevTable::BuildFromNames(const std::vector<std::string>& names,
                               const std::vector<uint32_t>& weights,
                               uint64_t seed)
{
    if (!weights.empty() && weights.size() != names.size())
    {
        throw AdcConfigError("AdcMaglevTable: " + std::to_string(weights.size()) +
                             " weights given for " + std::to_string(names.size()) +
                             " back-ends; give one weight per back-end or none");
    }
    std::vector<Entry> entries;
    entries.reserve(names.size());
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        uint32_t w = weights.empty() ? 1 : weights[i];
        entries.push_back(MakeEntry(names[i], w, static_cast<uint32_t>(i), seed));
    }
    Build(entries);
}

int32_t
AdcMaglevTable::Lookup(uint64_t hash) const
{
    return m_table[hash % m_size];
}

const std::vector<int32_t>&
AdcMaglevTable::GetTable() const
{
    return m_table;
}

uint32_t
AdcMaglevTable::GetSize() const
{
    return m_size;
}

} // namespace ns3
