/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-connection-table.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcConnectionTable");

NS_OBJECT_ENSURE_REGISTERED(AdcConnectionTable);

TypeId
AdcConnectionTable::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcConnectionTable")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcConnectionTable>()
            .AddAttribute("TcpIdleTimeout",
                          "Idle time after which a TCP entry expires (ILB's default NAT "
                          "timeout for TCP is 120 s).",
                          TimeValue(Seconds(120)),
                          MakeTimeAccessor(&AdcConnectionTable::m_tcpTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("UdpIdleTimeout",
                          "Idle time after which a UDP entry expires (ILB's default NAT "
                          "timeout for UDP is 60 s).",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&AdcConnectionTable::m_udpTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("OtherIdleTimeout",
                          "Idle time after which an entry of another protocol expires.",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&AdcConnectionTable::m_otherTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxEntries",
                          "Maximum number of entries; 0 = unlimited.",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&AdcConnectionTable::m_maxEntries),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("EntryCreated",
                            "An entry was created.",
                            MakeTraceSourceAccessor(&AdcConnectionTable::m_createdTrace),
                            "ns3::AdcConnectionTable::EntryTracedCallback")
            .AddTraceSource("EntryExpired",
                            "An entry was idle longer than its protocol's timeout and expired.",
                            MakeTraceSourceAccessor(&AdcConnectionTable::m_expiredTrace),
                            "ns3::AdcConnectionTable::EntryTracedCallback")
            .AddTraceSource("EntryRemoved",
                            "An entry was removed (Remove or RemoveBackend).",
                            MakeTraceSourceAccessor(&AdcConnectionTable::m_removedTrace),
                            "ns3::AdcConnectionTable::EntryTracedCallback")
            .AddTraceSource("Overflow",
                            "An insert was refused: the table is full.",
                            MakeTraceSourceAccessor(&AdcConnectionTable::m_overflowTrace),
                            "ns3::AdcConnectionTable::KeyTracedCallback")
            .AddTraceSource("Collision",
                            "An insert was refused: another entry has the same reply key.",
                            MakeTraceSourceAccessor(&AdcConnectionTable::m_collisionTrace),
                            "ns3::AdcConnectionTable::CollisionTracedCallback");
    return tid;
}

AdcConnectionTable::AdcConnectionTable()
    : m_tcpTimeout(Seconds(120)),
      m_udpTimeout(Seconds(60)),
      m_otherTimeout(Seconds(60)),
      m_maxEntries(1000000)
{
    NS_LOG_FUNCTION(this);
}

AdcConnectionTable::~AdcConnectionTable()
{
    NS_LOG_FUNCTION(this);
}

Time
AdcConnectionTable::TimeoutOf(LruClass c) const
{
    switch (c)
    {
    case AdcTimeoutClass::TCP:
        return m_tcpTimeout;
    case AdcTimeoutClass::UDP:
        return m_udpTimeout;
    default:
        return m_otherTimeout;
    }
}

Time
AdcConnectionTable::GetIdleTimeout(uint8_t protocol) const
{
    return TimeoutOf(AdcTimeoutClass::Of(protocol));
}

void
AdcConnectionTable::Erase(List::iterator it)
{
    m_byOriginal.erase(it->original);
    m_byReply.erase(it->translated.Reversed());
    auto count = m_backendCount.find(it->backend);
    if (count != m_backendCount.end() && --count->second == 0)
    {
        m_backendCount.erase(count);
    }
    m_lru[AdcTimeoutClass::Of(it->original.protocol)].erase(it);
}

void
AdcConnectionTable::Purge(Time now)
{
    // Expire in order of expiry time across the three lists (ties: TCP, UDP, other), so the
    // "EntryExpired" trace is chronological and deterministic.
    for (;;)
    {
        int best = -1;
        Time bestExpiry;
        for (int c = 0; c < AdcTimeoutClass::COUNT; ++c)
        {
            if (m_lru[c].empty())
            {
                continue;
            }
            const Time expiry = m_lru[c].front().lastSeen + TimeoutOf(static_cast<LruClass>(c));
            if (now > expiry && (best < 0 || expiry < bestExpiry))
            {
                best = c;
                bestExpiry = expiry;
            }
        }
        if (best < 0)
        {
            return;
        }
        auto it = m_lru[best].begin();
        ++m_expired;
        NS_LOG_LOGIC("AdcConnectionTable: expired " << it->original);
        m_expiredTrace(*it);
        Erase(it);
    }
}

AdcConnectionTable::Entry*
AdcConnectionTable::Lookup(const Index& index, const AdcFlowKey& k, Time now)
{
    Purge(now);
    auto found = index.find(k);
    if (found == index.end())
    {
        return nullptr;
    }
    List::iterator it = found->second;
    it->lastSeen = now;
    List& list = m_lru[AdcTimeoutClass::Of(it->original.protocol)];
    list.splice(list.end(), list, it); // most recently seen goes to the back
    return &*it;
}

AdcConnectionTable::Entry*
AdcConnectionTable::LookupOriginal(const AdcFlowKey& k, Time now)
{
    return Lookup(m_byOriginal, k, now);
}

AdcConnectionTable::Entry*
AdcConnectionTable::LookupReply(const AdcFlowKey& k, Time now)
{
    return Lookup(m_byReply, k, now);
}

AdcConnectionTable::Entry*
AdcConnectionTable::Insert(const AdcFlowKey& original,
                           const AdcFlowKey& translated,
                           uint32_t backend,
                           Time now)
{
    NS_LOG_FUNCTION(this << original << translated << backend << now);
    if (Entry* existing = LookupOriginal(original, now))
    {
        return existing;
    }
    const AdcFlowKey reply = translated.Reversed();
    if (m_byReply.count(reply) != 0)
    {
        ++m_collisions;
        NS_LOG_WARN("AdcConnectionTable: reply key " << reply << " of " << original
                                                     << " is already in use");
        m_collisionTrace(original, translated);
        return nullptr;
    }
    if (m_maxEntries != 0 && m_byOriginal.size() >= m_maxEntries)
    {
        ++m_overflows;
        m_overflowTrace(original);
        return nullptr;
    }
    List& list = m_lru[AdcTimeoutClass::Of(original.protocol)];
    auto it = list.insert(list.end(), Entry{original, translated, backend, now});
    m_byOriginal.emplace(original, it);
    m_byReply.emplace(reply, it);
    ++m_backendCount[backend];
    ++m_created;
    m_createdTrace(*it);
    return &*it;
}

void
AdcConnectionTable::Remove(const AdcFlowKey& original)
{
    auto found = m_byOriginal.find(original);
    if (found == m_byOriginal.end())
    {
        return;
    }
    ++m_removed;
    m_removedTrace(*found->second);
    Erase(found->second);
}

uint32_t
AdcConnectionTable::RemoveBackend(uint32_t backend)
{
    uint32_t removed = 0;
    for (auto& list : m_lru)
    {
        if (CountBackend(backend) == 0)
        {
            break;
        }
        for (auto it = list.begin(); it != list.end();)
        {
            auto cur = it++;
            if (cur->backend == backend)
            {
                ++m_removed;
                ++removed;
                m_removedTrace(*cur);
                Erase(cur);
            }
        }
    }
    return removed;
}

uint32_t
AdcConnectionTable::GetSize() const
{
    return static_cast<uint32_t>(m_byOriginal.size());
}

uint32_t
AdcConnectionTable::CountBackend(uint32_t backend) const
{
    auto it = m_backendCount.find(backend);
    return it == m_backendCount.end() ? 0 : it->second;
}

std::size_t
AdcConnectionTable::GetBytesPerEntryEstimate() const
{
    // glibc malloc: a chunk is the request plus one size_t header, rounded up to 16, min 32.
    auto chunk = [](std::size_t request) {
        return std::max<std::size_t>((request + sizeof(std::size_t) + 15) & ~std::size_t{15},
                                     4 * sizeof(std::size_t));
    };
    // std::list node: two links and the entry.
    const std::size_t listNode = chunk(2 * sizeof(void*) + sizeof(Entry));
    // std::unordered_map node (libstdc++): next pointer, the key/value pair, and the cached hash
    // code (cached because AdcFlowKeyHasher is not noexcept).
    const std::size_t hashNode =
        chunk(sizeof(void*) + sizeof(Index::value_type) + sizeof(std::size_t));
    // Bucket pointers per entry, at the maps' current load (or their maximum load when empty).
    std::size_t bucketBytes = 0;
    for (const Index* index : {&m_byOriginal, &m_byReply})
    {
        const double bucketsPerEntry =
            index->empty() ? 1.0 / index->max_load_factor()
                           : static_cast<double>(index->bucket_count()) / index->size();
        bucketBytes += static_cast<std::size_t>(bucketsPerEntry * sizeof(void*) + 0.999);
    }
    return listNode + 2 * hashNode + bucketBytes;
}

uint64_t
AdcConnectionTable::GetCreatedCount() const
{
    return m_created;
}

uint64_t
AdcConnectionTable::GetExpiredCount() const
{
    return m_expired;
}

uint64_t
AdcConnectionTable::GetRemovedCount() const
{
    return m_removed;
}

uint64_t
AdcConnectionTable::GetOverflowCount() const
{
    return m_overflows;
}

uint64_t
AdcConnectionTable::GetCollisionCount() const
{
    return m_collisions;
}

} // namespace ns3
