/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-persistence-table.h"

#include "adc-config-error.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcPersistenceTable");

NS_OBJECT_ENSURE_REGISTERED(AdcPersistenceTable);

// ---------------------------------------------------------------------------------------------
// AdcPersistenceTable

TypeId
AdcPersistenceTable::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcPersistenceTable")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcPersistenceTable>()
            .AddAttribute("Timeout",
                          "Default idle time after which an entry expires (NetScaler's default "
                          "persistence timeout is 2 minutes). A hit restarts it.",
                          TimeValue(Minutes(2)),
                          MakeTimeAccessor(&AdcPersistenceTable::m_timeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxEntries",
                          "Maximum number of entries; 0 = unlimited (memory only, as NetScaler's "
                          "COOKIEINSERT). 250000 is NetScaler's limit for SOURCEIP and SSLSESSION.",
                          UintegerValue(250000),
                          MakeUintegerAccessor(&AdcPersistenceTable::m_maxEntries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("OverflowPolicy",
                          "What an insert does on a full table: REJECT (no new entry; the caller "
                          "falls back to its load-balancing decision) or EVICT_OLDEST (evict the "
                          "entry that expires first).",
                          EnumValue(AdcPersistenceTable::REJECT),
                          MakeEnumAccessor(&AdcPersistenceTable::m_policy),
                          MakeEnumChecker(AdcPersistenceTable::REJECT,
                                          "REJECT",
                                          AdcPersistenceTable::EVICT_OLDEST,
                                          "EVICT_OLDEST"))
            .AddTraceSource("Overflow",
                            "An insert met a full table; the policy applied is given.",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_overflowTrace),
                            "ns3::AdcPersistenceTable::OverflowTracedCallback")
            .AddTraceSource("Expired",
                            "An entry expired.",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_expiredTrace),
                            "ns3::AdcPersistenceTable::EntryTracedCallback")
            .AddTraceSource("Evicted",
                            "An entry was evicted to make room (EVICT_OLDEST).",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_evictedTrace),
                            "ns3::AdcPersistenceTable::EntryTracedCallback")
            .AddTraceSource("Hit",
                            "A lookup found an entry.",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_hitTrace),
                            "ns3::AdcPersistenceTable::EntryTracedCallback")
            .AddTraceSource("Miss",
                            "A lookup found no unexpired entry.",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_missTrace),
                            "ns3::AdcPersistenceTable::KeyTracedCallback");
    return tid;
}

/**
 * \brief One persistence entry's record: 64 bytes, trivially copyable (a record moves by copy;
 * a long key's block moves with it).
 */
struct AdcPersistenceTable::Entry
{
    /// The key's bytes: inline up to kInlineKey bytes, else a heap block of len bytes.
    union {
        uint8_t inl[32]; //!< inline bytes (len <= 32)
        uint8_t* heap;   //!< heap block (len > 32), owned by the record
    } key;

    int64_t expiry;          //!< expiry, in time steps
    uint32_t target;         //!< target
    uint32_t hash;           //!< cached hash of the key
    uint32_t prev;           //!< previous record of its class's list, or kNil
    uint32_t next;           //!< next record of its class's list, or kNil
    uint32_t len;            //!< key length, bytes
    uint16_t cls;            //!< timeout class
    AdcPersistenceType type; //!< key type

    /// \return the key's bytes
    const uint8_t* Data() const
    {
        return len <= sizeof(key.inl) ? key.inl : key.heap;
    }
};

namespace
{

/// Keys up to this many bytes are held inside the record.
constexpr std::size_t kInlineKey = 32;

/**
 * \param a time steps \param b non-negative time steps \return a + b, saturated at the largest
 * time
 */
int64_t
AddSaturated(int64_t a, int64_t b)
{
    if (b > 0 && a > std::numeric_limits<int64_t>::max() - b)
    {
        return std::numeric_limits<int64_t>::max();
    }
    return a + b;
}

} // namespace

AdcPersistenceTable::AdcPersistenceTable()
    : m_timeout(Minutes(2)),
      m_maxEntries(250000),
      m_policy(REJECT)
{
    NS_LOG_FUNCTION(this);
    static_assert(sizeof(Entry) == 64, "a persistence record is 64 bytes");
    static_assert(std::is_trivially_copyable_v<Entry>, "records move by copy");
}

AdcPersistenceTable::~AdcPersistenceTable()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t i = 0; i < m_count; ++i)
    {
        Entry& e = At(i);
        if (e.len > kInlineKey)
        {
            delete[] e.key.heap;
        }
    }
}

AdcPersistenceTable::Entry&
AdcPersistenceTable::At(uint32_t i) const
{
    return m_chunks[i >> kChunkShift][i & (kChunkSize - 1)];
}

uint32_t
AdcPersistenceTable::HashOf(const AdcPersistenceKey& key) const
{
    const uint64_t h = m_hasher(key);
    return static_cast<uint32_t>(h ^ (h >> 32));
}

uint32_t
AdcPersistenceTable::Find(const AdcPersistenceKey& key, uint32_t hash) const
{
    if (m_count == 0)
    {
        return kNil;
    }
    const uint32_t mask = static_cast<uint32_t>(m_slots.size()) - 1;
    const std::size_t len = key.bytes.size();
    for (uint32_t pos = hash & mask;; pos = (pos + 1) & mask)
    {
        const uint32_t slot = m_slots[pos];
        if (slot == 0)
        {
            return kNil;
        }
        const Entry& e = At(slot - 1);
        if (e.hash == hash && e.type == key.type && e.len == len &&
            (len == 0 || std::memcmp(e.Data(), key.bytes.data(), len) == 0))
        {
            return slot - 1;
        }
    }
}

uint32_t
AdcPersistenceTable::SlotOf(uint32_t i) const
{
    const uint32_t mask = static_cast<uint32_t>(m_slots.size()) - 1;
    uint32_t pos = At(i).hash & mask;
    while (m_slots[pos] != i + 1)
    {
        NS_ASSERT_MSG(m_slots[pos] != 0, "AdcPersistenceTable: record " << i << " not indexed");
        pos = (pos + 1) & mask;
    }
    return pos;
}

uint16_t
AdcPersistenceTable::ClassOf(int64_t timeout)
{
    if (m_lastClass < m_classes.size() && m_classes[m_lastClass].timeout == timeout)
    {
        return m_lastClass;
    }
    std::size_t reusable = m_classes.size();
    for (std::size_t c = 0; c < m_classes.size(); ++c)
    {
        if (m_classes[c].timeout == timeout)
        {
            m_lastClass = static_cast<uint16_t>(c);
            return m_lastClass;
        }
        if (reusable == m_classes.size() && m_classes[c].head == kNil)
        {
            reusable = c; // an empty class may take another timeout value
        }
    }
    if (reusable == m_classes.size())
    {
        NS_ABORT_MSG_IF(m_classes.size() > std::numeric_limits<uint16_t>::max(),
                        "AdcPersistenceTable: more than 65536 distinct timeouts in use");
        m_classes.push_back(TimeoutClass{timeout, kNil, kNil});
    }
    m_classes[reusable].timeout = timeout;
    m_lastClass = static_cast<uint16_t>(reusable);
    return m_lastClass;
}

void
AdcPersistenceTable::Unlink(uint32_t i)
{
    Entry& e = At(i);
    TimeoutClass& c = m_classes[e.cls];
    if (e.prev != kNil)
    {
        At(e.prev).next = e.next;
    }
    else
    {
        c.head = e.next;
    }
    if (e.next != kNil)
    {
        At(e.next).prev = e.prev;
    }
    else
    {
        c.tail = e.prev;
    }
    e.prev = kNil;
    e.next = kNil;
}

void
AdcPersistenceTable::LinkTail(uint32_t i)
{
    Entry& e = At(i);
    TimeoutClass& c = m_classes[e.cls];
    e.prev = c.tail;
    e.next = kNil;
    if (c.tail != kNil)
    {
        At(c.tail).next = i;
    }
    else
    {
        c.head = i;
    }
    c.tail = i;
}

uint32_t
AdcPersistenceTable::FirstToExpire() const
{
    uint32_t best = kNil;
    int64_t bestExpiry = 0;
    for (const auto& c : m_classes)
    {
        if (c.head != kNil && (best == kNil || At(c.head).expiry < bestExpiry))
        {
            best = c.head;
            bestExpiry = At(c.head).expiry;
        }
    }
    return best;
}

void
AdcPersistenceTable::Rehash(uint32_t capacity)
{
    std::vector<uint32_t> slots(capacity, 0);
    const uint32_t mask = capacity - 1;
    for (uint32_t i = 0; i < m_count; ++i)
    {
        uint32_t pos = At(i).hash & mask;
        while (slots[pos] != 0)
        {
            pos = (pos + 1) & mask;
        }
        slots[pos] = i + 1;
    }
    m_slots.swap(slots);
}

uint32_t
AdcPersistenceTable::Append()
{
    NS_ABORT_MSG_IF(m_count >= kNil - 1, "AdcPersistenceTable: too many entries");
    const uint32_t capacity = m_chunks.size() <= 1
                                  ? m_firstChunkSize
                                  : static_cast<uint32_t>(m_chunks.size()) * kChunkSize;
    if (m_count == capacity)
    {
        if (m_chunks.empty() || m_firstChunkSize < kChunkSize)
        {
            // The first chunk grows by doubling (records move by copy: they hold indexes only).
            const uint32_t size = m_chunks.empty() ? kFirstChunkSize : 2 * m_firstChunkSize;
            std::unique_ptr<Entry[]> chunk(new Entry[size]);
            if (!m_chunks.empty())
            {
                std::memcpy(static_cast<void*>(chunk.get()),
                            m_chunks[0].get(),
                            sizeof(Entry) * m_count);
                m_chunks[0] = std::move(chunk);
            }
            else
            {
                m_chunks.push_back(std::move(chunk));
            }
            m_firstChunkSize = size;
        }
        else
        {
            m_chunks.emplace_back(new Entry[kChunkSize]);
        }
    }
    return m_count++;
}

void
AdcPersistenceTable::Erase(uint32_t i)
{
    Unlink(i);
    Entry& e = At(i);
    if (e.len > kInlineKey)
    {
        delete[] e.key.heap;
    }
    // Backward-shift deletion: pull later members of the probe run into the hole.
    const uint32_t mask = static_cast<uint32_t>(m_slots.size()) - 1;
    uint32_t hole = SlotOf(i);
    for (uint32_t j = (hole + 1) & mask; m_slots[j] != 0; j = (j + 1) & mask)
    {
        const uint32_t home = At(m_slots[j] - 1).hash & mask;
        // The member at j may move to the hole unless its home lies cyclically in (hole, j].
        const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays)
        {
            m_slots[hole] = m_slots[j];
            hole = j;
        }
    }
    m_slots[hole] = 0;
    // Keep storage dense: the last record moves into the freed one.
    const uint32_t last = m_count - 1;
    if (i != last)
    {
        m_slots[SlotOf(last)] = i + 1;
        Entry& moved = At(last);
        e = moved;
        if (e.prev != kNil)
        {
            At(e.prev).next = i;
        }
        else
        {
            m_classes[e.cls].head = i;
        }
        if (e.next != kNil)
        {
            At(e.next).prev = i;
        }
        else
        {
            m_classes[e.cls].tail = i;
        }
    }
    --m_count;
    // Release the last full chunk once half of the one before it is free too (hysteresis:
    // an insert and a remove at a chunk boundary do not allocate and free a chunk each).
    if (m_chunks.size() > 1 &&
        m_count + kChunkSize / 2 <= static_cast<uint32_t>(m_chunks.size() - 1) * kChunkSize)
    {
        m_chunks.pop_back();
    }
    // The first chunk, alone, halves once a quarter of it is in use (records move by copy).
    if (m_chunks.size() == 1 && m_firstChunkSize > kFirstChunkSize &&
        m_count <= m_firstChunkSize / 4)
    {
        const uint32_t size = m_firstChunkSize / 2;
        std::unique_ptr<Entry[]> chunk(new Entry[size]);
        std::memcpy(static_cast<void*>(chunk.get()), m_chunks[0].get(), sizeof(Entry) * m_count);
        m_chunks[0] = std::move(chunk);
        m_firstChunkSize = size;
    }
    // Shrink a sparse index (load under 0.2) to half, never below 16 slots.
    if (m_slots.size() > 16 && static_cast<std::size_t>(m_count) * 5 < m_slots.size())
    {
        Rehash(static_cast<uint32_t>(m_slots.size() / 2));
    }
}

AdcPersistenceKey
AdcPersistenceTable::KeyOf(uint32_t i) const
{
    const Entry& e = At(i);
    AdcPersistenceKey k;
    k.type = e.type;
    k.bytes.assign(reinterpret_cast<const char*>(e.Data()), e.len);
    return k;
}

void
AdcPersistenceTable::Purge(Time now)
{
    const int64_t t = now.GetTimeStep();
    while (m_count != 0)
    {
        const uint32_t i = FirstToExpire();
        if (At(i).expiry > t)
        {
            break;
        }
        ++m_expirations;
        const AdcPersistenceKey key = KeyOf(i);
        NS_LOG_LOGIC("AdcPersistenceTable: expired " << key);
        m_expiredTrace(key, At(i).target);
        Erase(i);
    }
}

std::optional<uint32_t>
AdcPersistenceTable::Lookup(const AdcPersistenceKey& key, Time now)
{
    Purge(now);
    const uint32_t i = Find(key, HashOf(key));
    if (i == kNil)
    {
        ++m_misses;
        m_missTrace(key);
        return std::nullopt;
    }
    Entry& e = At(i);
    e.expiry = AddSaturated(now.GetTimeStep(), m_classes[e.cls].timeout);
    Unlink(i);
    LinkTail(i);
    ++m_hits;
    const uint32_t target = At(i).target;
    m_hitTrace(key, target);
    return target;
}

bool
AdcPersistenceTable::Insert(const AdcPersistenceKey& key, uint32_t target, Time now, Time timeout)
{
    NS_LOG_FUNCTION(this << key << target << now << timeout);
    Purge(now);
    if (timeout.IsStrictlyNegative())
    {
        timeout = m_timeout;
    }
    const int64_t steps = timeout.GetTimeStep();
    const int64_t expiry = AddSaturated(now.GetTimeStep(), steps);
    const uint32_t hash = HashOf(key);
    const uint32_t found = Find(key, hash);
    if (found != kNil)
    {
        Unlink(found);
        const uint16_t cls = ClassOf(steps); // after Unlink: its old class may be empty now
        Entry& e = At(found);
        e.target = target;
        e.cls = cls;
        e.expiry = expiry;
        LinkTail(found);
        ++m_updates;
        return true;
    }
    if (m_maxEntries != 0 && m_count >= m_maxEntries)
    {
        ++m_overflows;
        m_overflowTrace(key, m_policy);
        if (m_policy == REJECT)
        {
            return false;
        }
        // MaxEntries may have been lowered below the current size: evict down to room for one.
        while (m_count != 0 && m_count >= m_maxEntries)
        {
            const uint32_t victim = FirstToExpire();
            ++m_evictions;
            m_evictedTrace(KeyOf(victim), At(victim).target);
            Erase(victim);
        }
    }
    // Keep the index load at most 0.8.
    if (m_slots.empty() || (static_cast<std::size_t>(m_count) + 1) * 5 > m_slots.size() * 4)
    {
        Rehash(m_slots.empty() ? 16 : static_cast<uint32_t>(m_slots.size() * 2));
    }
    const uint16_t cls = ClassOf(steps);
    const uint32_t i = Append();
    Entry& e = At(i);
    e.len = static_cast<uint32_t>(key.bytes.size());
    if (e.len > kInlineKey)
    {
        e.key.heap = new uint8_t[e.len];
    }
    if (e.len != 0)
    {
        std::memcpy(const_cast<uint8_t*>(e.Data()), key.bytes.data(), e.len);
    }
    e.type = key.type;
    e.hash = hash;
    e.target = target;
    e.expiry = expiry;
    e.cls = cls;
    LinkTail(i);
    const uint32_t mask = static_cast<uint32_t>(m_slots.size()) - 1;
    uint32_t pos = hash & mask;
    while (m_slots[pos] != 0)
    {
        pos = (pos + 1) & mask;
    }
    m_slots[pos] = i + 1;
    ++m_inserts;
    return true;
}

void
AdcPersistenceTable::Remove(const AdcPersistenceKey& key)
{
    const uint32_t i = Find(key, HashOf(key));
    if (i != kNil)
    {
        Erase(i);
    }
}

uint32_t
AdcPersistenceTable::RemoveTarget(uint32_t target)
{
    uint32_t removed = 0;
    // From the end: Erase moves the last record (already checked) into the hole.
    for (uint32_t i = m_count; i-- > 0;)
    {
        if (At(i).target == target)
        {
            Erase(i);
            ++removed;
        }
    }
    return removed;
}

std::vector<AdcPersistenceTable::EntryView>
AdcPersistenceTable::GetEntries(Time now)
{
    Purge(now);
    std::vector<EntryView> out;
    out.reserve(m_count);
    for (uint32_t i = 0; i < m_count; ++i)
    {
        const Entry& e = At(i);
        out.push_back(EntryView{KeyOf(i),
                                e.target,
                                TimeStep(e.expiry),
                                TimeStep(m_classes[e.cls].timeout)});
    }
    return out;
}

void
AdcPersistenceTable::Clear()
{
    for (uint32_t i = m_count; i-- > 0;)
    {
        Erase(i);
    }
}

std::size_t
AdcPersistenceTable::MallocBlock(std::size_t request)
{
    constexpr std::size_t mmapThreshold = 128 * 1024;
    if (request >= mmapThreshold)
    {
        return (request + 8 + 4095) & ~std::size_t{4095};
    }
    const std::size_t chunk = (request + 8 + 15) & ~std::size_t{15};
    return chunk < 32 ? 32 : chunk;
}

std::size_t
AdcPersistenceTable::GetAllocatedBytes() const
{
    std::size_t total = sizeof(m_chunks) + sizeof(m_slots) + sizeof(m_classes);
    if (m_chunks.capacity() != 0)
    {
        total += MallocBlock(m_chunks.capacity() * sizeof(m_chunks[0]));
    }
    for (std::size_t c = 0; c < m_chunks.size(); ++c)
    {
        total += MallocBlock((c == 0 ? m_firstChunkSize : kChunkSize) * sizeof(Entry));
    }
    if (!m_slots.empty())
    {
        total += MallocBlock(m_slots.capacity() * sizeof(uint32_t));
    }
    if (m_classes.capacity() != 0)
    {
        total += MallocBlock(m_classes.capacity() * sizeof(TimeoutClass));
    }
    for (uint32_t i = 0; i < m_count; ++i)
    {
        if (At(i).len > kInlineKey)
        {
            total += MallocBlock(At(i).len);
        }
    }
    return total;
}

std::size_t
AdcPersistenceTable::GetBytesPerEntry() const
{
    const std::size_t total = GetAllocatedBytes();
    const std::size_t n = m_count;
    return n == 0 ? total : (total + n - 1) / n;
}

uint32_t
AdcPersistenceTable::GetSize(Time now)
{
    Purge(now);
    return m_count;
}

uint64_t
AdcPersistenceTable::GetHits() const
{
    return m_hits;
}

uint64_t
AdcPersistenceTable::GetMisses() const
{
    return m_misses;
}

uint64_t
AdcPersistenceTable::GetInserts() const
{
    return m_inserts;
}

uint64_t
AdcPersistenceTable::GetUpdates() const
{
    return m_updates;
}

uint64_t
AdcPersistenceTable::GetExpirations() const
{
    return m_expirations;
}

uint64_t
AdcPersistenceTable::GetOverflows() const
{
    return m_overflows;
}

uint64_t
AdcPersistenceTable::GetEvictions() const
{
    return m_evictions;
}


} // namespace ns3
