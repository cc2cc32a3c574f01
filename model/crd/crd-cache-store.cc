/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crd-cache-store.h"

#include "ns3/adc-config-error.h"
#include "ns3/assert.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrdCacheStore");

NS_OBJECT_ENSURE_REGISTERED(CrdCacheStore);

namespace
{
/// Default capacity: 1 GiB.
constexpr uint64_t DEFAULT_CAPACITY = 1073741824ULL;
} // namespace

TypeId
CrdCacheStore::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CrdCacheStore")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<CrdCacheStore>()
            .AddAttribute(
                "Capacity",
                "Bytes the store holds (> 0; 0 throws AdcConfigError). Lowering it "
                "evicts per policy until the stored objects fit.",
                UintegerValue(DEFAULT_CAPACITY),
                MakeUintegerAccessor(&CrdCacheStore::SetCapacity, &CrdCacheStore::GetCapacity),
                MakeUintegerChecker<uint64_t>())
            .AddAttribute("Policy",
                          "Replacement policy: LRU (least recently used), FIFO (first inserted) "
                          "or LFU (least frequently used, ties by least recently used).",
                          EnumValue(CrdCacheStore::LRU),
                          MakeEnumAccessor(&CrdCacheStore::SetPolicy, &CrdCacheStore::GetPolicy),
                          MakeEnumChecker(CrdCacheStore::LRU,
                                          "LRU",
                                          CrdCacheStore::FIFO,
                                          "FIFO",
                                          CrdCacheStore::LFU,
                                          "LFU"))
            .AddAttribute("MaxObjectSize",
                          "Largest object admitted, in bytes; 0 = no limit but Capacity. "
                          "Lowering it does not evict objects already stored.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CrdCacheStore::SetMaxObjectSize,
                                               &CrdCacheStore::GetMaxObjectSize),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Hit",
                            "A lookup found the object.",
                            MakeTraceSourceAccessor(&CrdCacheStore::m_hitTrace),
                            "ns3::CrdCacheStore::KeyTracedCallback")
            .AddTraceSource("Miss",
                            "A lookup did not find the object.",
                            MakeTraceSourceAccessor(&CrdCacheStore::m_missTrace),
                            "ns3::CrdCacheStore::KeyTracedCallback")
            .AddTraceSource("Evict",
                            "An object was evicted per policy to make room.",
                            MakeTraceSourceAccessor(&CrdCacheStore::m_evictTrace),
                            "ns3::CrdCacheStore::EvictTracedCallback")
            .AddTraceSource("Reject",
                            "An object was not admitted (larger than Capacity or MaxObjectSize).",
                            MakeTraceSourceAccessor(&CrdCacheStore::m_rejectTrace),
                            "ns3::CrdCacheStore::RejectTracedCallback");
    return tid;
}

CrdCacheStore::CrdCacheStore()
    : m_capacity(DEFAULT_CAPACITY),
      m_maxObjectSize(0),
      m_policy(LRU),
      m_usedBytes(0),
      m_tick(0),
      m_hits(0),
      m_misses(0),
      m_evictions(0),
      m_rejects(0)
{
    NS_LOG_FUNCTION(this);
}

CrdCacheStore::~CrdCacheStore()
{
    NS_LOG_FUNCTION(this);
}

void
CrdCacheStore::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Clear();
    Object::DoDispose();
}

std::string
CrdCacheStore::PolicyToString(Policy p)
{
    switch (p)
    {
    case LRU:
        return "LRU";
    case FIFO:
        return "FIFO";
    case LFU:
        return "LFU";
    }
    return "UNKNOWN(" + std::to_string(static_cast<int>(p)) + ")";
}

bool
CrdCacheStore::Lookup(const std::string& key)
{
    NS_LOG_FUNCTION(this << key);
    auto it = m_entries.find(key);
    if (it == m_entries.end())
    {
        ++m_misses;
        m_missTrace(key);
        return false;
    }
    ++m_hits;
    Touch(it);
    m_hitTrace(key);
    return true;
}

bool
CrdCacheStore::Insert(const std::string& key, uint64_t size)
{
    NS_LOG_FUNCTION(this << key << size);
    uint64_t uses = 1;
    auto old = m_entries.find(key);
    if (old != m_entries.end())
    {
        // Release the old copy first, so that only other objects are evicted for the new one
        // (and a rejected new copy does not leave a stale old one behind).
        uses = old->second.uses + 1;
        Remove(old);
    }
    const std::string reason = AdmissionFailure(size);
    if (!reason.empty())
    {
        NS_LOG_LOGIC("reject " << key << ": " << reason);
        ++m_rejects;
        m_rejectTrace(key, size, reason);
        return false;
    }
    MakeRoom(size);
    Entry e;
    e.size = size;
    e.insertTick = ++m_tick;
    e.useTick = e.insertTick;
    e.uses = uses;
    auto it = m_entries.emplace(key, e).first;
    m_usedBytes += size;
    Link(it);
    NS_ASSERT(m_usedBytes <= m_capacity);
    return true;
}

bool
CrdCacheStore::Contains(const std::string& key) const
{
    return m_entries.count(key) != 0;
}

uint64_t
CrdCacheStore::GetObjectSize(const std::string& key) const
{
    auto it = m_entries.find(key);
    return it == m_entries.end() ? 0 : it->second.size;
}

void
CrdCacheStore::Erase(const std::string& key)
{
    NS_LOG_FUNCTION(this << key);
    auto it = m_entries.find(key);
    if (it != m_entries.end())
    {
        Remove(it);
    }
}

void
CrdCacheStore::Clear()
{
    NS_LOG_FUNCTION(this);
    m_queue.clear();
    m_lfu.clear();
    m_entries.clear();
    m_usedBytes = 0;
}

uint64_t
CrdCacheStore::GetUsedBytes() const
{
    return m_usedBytes;
}

uint64_t
CrdCacheStore::GetCapacity() const
{
    return m_capacity;
}

std::size_t
CrdCacheStore::GetNObjects() const
{
    return m_entries.size();
}

uint64_t
CrdCacheStore::GetHits() const
{
    return m_hits;
}

uint64_t
CrdCacheStore::GetMisses() const
{
    return m_misses;
}

uint64_t
CrdCacheStore::GetEvictions() const
{
    return m_evictions;
}

uint64_t
CrdCacheStore::GetRejects() const
{
    return m_rejects;
}

double
CrdCacheStore::GetHitRatio() const
{
    const uint64_t lookups = m_hits + m_misses;
    return lookups == 0 ? 0.0 : static_cast<double>(m_hits) / static_cast<double>(lookups);
}

void
CrdCacheStore::SetCapacity(uint64_t capacity)
{
    NS_LOG_FUNCTION(this << capacity);
    if (capacity == 0)
    {
        throw AdcConfigError("CrdCacheStore: Capacity '0' is not allowed: it must be > 0 bytes");
    }
    m_capacity = capacity;
    while (m_usedBytes > m_capacity)
    {
        EvictOne();
    }
}

void
CrdCacheStore::SetPolicy(Policy policy)
{
    NS_LOG_FUNCTION(this << PolicyToString(policy));
    if (policy != m_policy)
    {
        m_policy = policy;
        Rebuild();
    }
}

CrdCacheStore::Policy
CrdCacheStore::GetPolicy() const
{
    return m_policy;
}

void
CrdCacheStore::SetMaxObjectSize(uint64_t maxObjectSize)
{
    NS_LOG_FUNCTION(this << maxObjectSize);
    m_maxObjectSize = maxObjectSize;
}

uint64_t
CrdCacheStore::GetMaxObjectSize() const
{
    return m_maxObjectSize;
}

CrdCacheStore::LfuRank
CrdCacheStore::RankOf(const Entry& e)
{
    return LfuRank(e.uses, e.useTick);
}

std::string
CrdCacheStore::AdmissionFailure(uint64_t size) const
{
    if (size > m_capacity)
    {
        return "size " + std::to_string(size) + " exceeds Capacity " + std::to_string(m_capacity);
    }
    if (m_maxObjectSize != 0 && size > m_maxObjectSize)
    {
        return "size " + std::to_string(size) + " exceeds MaxObjectSize " +
               std::to_string(m_maxObjectSize);
    }
    return "";
}

void
CrdCacheStore::Link(EntryMap::iterator it)
{
    const std::string* key = &it->first;
    if (m_policy == LFU)
    {
        m_lfu.emplace(RankOf(it->second), key);
    }
    else
    {
        it->second.queuePos = m_queue.insert(m_queue.end(), key);
    }
}

void
CrdCacheStore::Unlink(EntryMap::iterator it)
{
    if (m_policy == LFU)
    {
        m_lfu.erase(RankOf(it->second));
    }
    else
    {
        m_queue.erase(it->second.queuePos);
    }
}

void
CrdCacheStore::Remove(EntryMap::iterator it)
{
    Unlink(it);
    m_usedBytes -= it->second.size;
    m_entries.erase(it);
}

void
CrdCacheStore::Touch(EntryMap::iterator it)
{
    Entry& e = it->second;
    switch (m_policy)
    {
    case LRU:
        e.useTick = ++m_tick;
        ++e.uses;
        m_queue.splice(m_queue.end(), m_queue, e.queuePos);
        break;
    case FIFO:
        // A hit does not move the object in the queue; the history is kept for a policy change.
        e.useTick = ++m_tick;
        ++e.uses;
        break;
    case LFU:
        // The rank changes, so the index node is re-inserted under the new one.
        m_lfu.erase(RankOf(e));
        e.useTick = ++m_tick;
        ++e.uses;
        m_lfu.emplace(RankOf(e), &it->first);
        break;
    }
}

void
CrdCacheStore::MakeRoom(uint64_t size)
{
    NS_ASSERT(size <= m_capacity);
    while (m_usedBytes + size > m_capacity)
    {
        EvictOne();
    }
}

void
CrdCacheStore::EvictOne()
{
    NS_ASSERT(!m_entries.empty());
    const std::string* victim = m_policy == LFU ? m_lfu.begin()->second : m_queue.front();
    auto it = m_entries.find(*victim);
    NS_ASSERT(it != m_entries.end());
    // Copy what the trace reports: the entry (and its key) is gone before the trace fires, so
    // a sink may safely call back into the store.
    const std::string key = it->first;
    const uint64_t size = it->second.size;
    Remove(it);
    ++m_evictions;
    NS_LOG_LOGIC("evict " << key << " (" << size << " bytes, " << PolicyToString(m_policy) << ")");
    m_evictTrace(key, size);
}

void
CrdCacheStore::Rebuild()
{
    m_queue.clear();
    m_lfu.clear();
    // Sorted by a unique key (ticks are unique), so the hash map's order does not matter.
    std::vector<std::tuple<uint64_t, uint64_t, EntryMap::iterator>> order;
    order.reserve(m_entries.size());
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
    {
        const Entry& e = it->second;
        switch (m_policy)
        {
        case LRU:
            order.emplace_back(e.useTick, 0, it);
            break;
        case FIFO:
            order.emplace_back(e.insertTick, 0, it);
            break;
        case LFU:
            order.emplace_back(e.uses, e.useTick, it);
            break;
        }
    }
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    for (auto& o : order)
    {
        Link(std::get<2>(o));
    }
}

} // namespace ns3
