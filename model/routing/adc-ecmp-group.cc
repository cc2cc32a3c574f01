/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-ecmp-group.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <map>

namespace ns3
{

AdcEcmpGroup::AdcEcmpGroup(Mode mode, uint32_t buckets)
    : m_mode(mode)
{
    if (mode == RESILIENT)
    {
        if (buckets == 0)
        {
            throw AdcConfigError("AdcEcmpGroup: ResilientBuckets 0; allowed: 1 or more");
        }
        m_bucket.assign(buckets, kNone);
    }
}

void
AdcEcmpGroup::Add(uint32_t id)
{
    auto it = std::lower_bound(m_hops.begin(), m_hops.end(), id);
    if (it != m_hops.end() && *it == id)
    {
        return;
    }
    m_hops.insert(it, id);
    if (m_mode == RESILIENT)
    {
        if (m_hops.size() == 1)
        {
            std::fill(m_bucket.begin(), m_bucket.end(), id);
        }
        else
        {
            TakeShare(id);
        }
    }
}

void
AdcEcmpGroup::Remove(uint32_t id)
{
    auto it = std::lower_bound(m_hops.begin(), m_hops.end(), id);
    if (it == m_hops.end() || *it != id)
    {
        return;
    }
    m_hops.erase(it);
    if (m_mode == RESILIENT)
    {
        for (uint32_t& b : m_bucket)
        {
            if (b == id)
            {
                b = kNone;
            }
        }
        FillOrphans();
    }
}

bool
AdcEcmpGroup::Contains(uint32_t id) const
{
    return std::binary_search(m_hops.begin(), m_hops.end(), id);
}

const std::vector<uint32_t>&
AdcEcmpGroup::GetHops() const
{
    return m_hops;
}

bool
AdcEcmpGroup::IsEmpty() const
{
    return m_hops.empty();
}

uint32_t
AdcEcmpGroup::Select(uint64_t hash) const
{
    if (m_mode == RESILIENT)
    {
        return m_bucket[hash % m_bucket.size()];
    }
    if (m_mode == HASH_THRESHOLD)
    {
        // fib_select_multipath: the first hop with hash <= its upper bound, where fib_rebalance
        // sets upper_bound = DIV_ROUND_CLOSEST_ULL(w << 31, total) - 1 for the cumulative
        // weight w (all weights 1 here).
        const uint64_t h = hash >> 33;
        const uint64_t n = m_hops.size();
        for (uint64_t i = 0; i < n; ++i)
        {
            const uint64_t upper = (((i + 1) << 31) + n / 2) / n - 1;
            if (h <= upper)
            {
                return m_hops[i];
            }
        }
        return m_hops.back();
    }
    return m_hops[hash % m_hops.size()];
}

AdcEcmpGroup::Mode
AdcEcmpGroup::GetMode() const
{
    return m_mode;
}

std::string
AdcEcmpGroup::ModeName(Mode m)
{
    switch (m)
    {
    case RESILIENT:
        return "RESILIENT";
    case HASH_THRESHOLD:
        return "HASH_THRESHOLD";
    case MODULO:
    default:
        return "MODULO";
    }
}

std::vector<std::pair<uint32_t, uint32_t>>
AdcEcmpGroup::GetBucketCounts() const
{
    std::vector<std::pair<uint32_t, uint32_t>> out;
    if (m_mode != RESILIENT)
    {
        return out;
    }
    std::map<uint32_t, uint32_t> n;
    for (uint32_t b : m_bucket)
    {
        if (b != kNone)
        {
            ++n[b];
        }
    }
    for (uint32_t h : m_hops)
    {
        out.emplace_back(h, n[h]);
    }
    return out;
}

void
AdcEcmpGroup::FillOrphans()
{
    if (m_hops.empty())
    {
        return;
    }
    std::map<uint32_t, uint32_t> count;
    for (uint32_t h : m_hops)
    {
        count[h] = 0;
    }
    for (uint32_t b : m_bucket)
    {
        if (b != kNone)
        {
            ++count[b];
        }
    }
    for (uint32_t& b : m_bucket)
    {
        if (b != kNone)
        {
            continue;
        }
        // The hop with the fewest buckets; the smallest id among equals (map order).
        auto least = count.begin();
        for (auto it = count.begin(); it != count.end(); ++it)
        {
            if (it->second < least->second)
            {
                least = it;
            }
        }
        b = least->first;
        ++least->second;
    }
}

void
AdcEcmpGroup::TakeShare(uint32_t id)
{
    const uint32_t share = static_cast<uint32_t>(m_bucket.size() / m_hops.size());
    std::map<uint32_t, uint32_t> count;
    for (uint32_t h : m_hops)
    {
        count[h] = 0;
    }
    for (uint32_t b : m_bucket)
    {
        ++count[b];
    }
    for (uint32_t taken = 0; taken < share; ++taken)
    {
        // The hop with the most buckets; the smallest id among equals.
        auto most = count.end();
        for (auto it = count.begin(); it != count.end(); ++it)
        {
            if (it->first != id && (most == count.end() || it->second > most->second))
            {
                most = it;
            }
        }
        if (most == count.end() || most->second <= count[id])
        {
            break; // already balanced (fewer buckets than hops)
        }
        // Its last bucket changes owner: the flows of that bucket alone move.
        for (auto b = m_bucket.rbegin(); b != m_bucket.rend(); ++b)
        {
            if (*b == most->first)
            {
                *b = id;
                break;
            }
        }
        --most->second;
        ++count[id];
    }
}

} // namespace ns3
