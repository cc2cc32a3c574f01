/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-flow-table.h"

#include <cstring>

namespace ns3
{

namespace
{

constexpr std::size_t kMinSlots = 16; //!< the first allocation

/// \param now a time \param then an earlier time \return now - then, modulo 2^32
uint32_t
Elapsed(uint32_t now, uint32_t then)
{
    return now - then; // unsigned: right across the 49.7-day wrap
}

} // namespace

// ---------------------------------------------------------------------------------------------
// SlbFlowSlots

template <std::size_t N>
SlbFlowSlots<N>::SlbFlowSlots(uint64_t seed)
    : m_seed(seed)
{
}

template <std::size_t N>
std::size_t
SlbFlowSlots<N>::Home(const AdcFlowKey& k) const
{
    return static_cast<std::size_t>(AdcHash::Flow(k, m_seed)) & (m_slots.size() - 1);
}

template <std::size_t N>
bool
SlbFlowSlots<N>::Holds(const Slot& s, const AdcFlowKey& k)
{
    return (s.flags & 0x01) != 0 && s.srcPort == k.srcPort && s.dstPort == k.dstPort &&
           s.protocol == k.protocol && std::memcmp(s.src, k.src.GetBytes().data(), N) == 0 &&
           std::memcmp(s.dst, k.dst.GetBytes().data(), N) == 0;
}

template <std::size_t N>
AdcFlowKey
SlbFlowSlots<N>::KeyOf(const Slot& s)
{
    auto address = [](const uint8_t* b) {
        if constexpr (N == 4)
        {
            return AdcIpAddress(Ipv4Address::Deserialize(b));
        }
        else
        {
            return AdcIpAddress(Ipv6Address(const_cast<uint8_t*>(b)));
        }
    };
    return AdcFlowKey(address(s.src), address(s.dst), s.srcPort, s.dstPort, s.protocol);
}

template <std::size_t N>
typename SlbFlowSlots<N>::Slot*
SlbFlowSlots<N>::Find(const AdcFlowKey& k)
{
    if (m_count == 0)
    {
        return nullptr;
    }
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = Home(k);; i = (i + 1) & mask)
    {
        Slot& s = m_slots[i];
        if (s.flags == 0)
        {
            return nullptr;
        }
        if (Holds(s, k))
        {
            return &s;
        }
    }
}

template <std::size_t N>
typename SlbFlowSlots<N>::Slot*
SlbFlowSlots<N>::Add(const AdcFlowKey& k)
{
    if ((m_count + 1) * 4 > m_slots.size() * 3)
    {
        Rehash(m_slots.empty() ? kMinSlots : m_slots.size() * 2);
    }
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = Home(k);
    while (m_slots[i].flags != 0)
    {
        i = (i + 1) & mask;
    }
    Slot& s = m_slots[i];
    std::memcpy(s.src, k.src.GetBytes().data(), N);
    std::memcpy(s.dst, k.dst.GetBytes().data(), N);
    s.srcPort = k.srcPort;
    s.dstPort = k.dstPort;
    s.protocol = k.protocol;
    s.flags = 0x01;
    s.dipId = 0;
    s.lastSeenMs = 0;
    ++m_count;
    return &s;
}

template <std::size_t N>
void
SlbFlowSlots<N>::Erase(Slot* s)
{
    // Backward-shift deletion: slide each later member of the probe run into the hole when
    // its home does not lie cyclically in (hole, its position].
    const std::size_t mask = m_slots.size() - 1;
    std::size_t hole = static_cast<std::size_t>(s - m_slots.data());
    for (std::size_t j = (hole + 1) & mask; m_slots[j].flags != 0; j = (j + 1) & mask)
    {
        const std::size_t home = Home(KeyOf(m_slots[j]));
        const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays)
        {
            m_slots[hole] = m_slots[j];
            hole = j;
        }
    }
    m_slots[hole].flags = 0;
    --m_count;
}

template <std::size_t N>
std::size_t
SlbFlowSlots<N>::EraseIf(const std::function<bool(const Slot&)>& remove)
{
    std::vector<Slot> kept;
    std::size_t removed = 0;
    for (const Slot& s : m_slots)
    {
        if (s.flags == 0)
        {
            continue;
        }
        if (remove(s))
        {
            ++removed;
        }
        else
        {
            kept.push_back(s);
        }
    }
    if (removed > 0)
    {
        for (Slot& s : m_slots)
        {
            s.flags = 0;
        }
        m_count = 0;
        for (const Slot& s : kept)
        {
            Slot* to = Add(KeyOf(s));
            *to = s;
        }
    }
    return removed;
}

template <std::size_t N>
void
SlbFlowSlots<N>::Rehash(std::size_t capacity)
{
    std::vector<Slot> old(capacity, Slot{});
    old.swap(m_slots);
    m_count = 0;
    for (const Slot& s : old)
    {
        if (s.flags != 0)
        {
            Slot* to = Add(KeyOf(s));
            *to = s;
        }
    }
}

template <std::size_t N>
std::size_t
SlbFlowSlots<N>::GetCount() const
{
    return m_count;
}

template <std::size_t N>
std::size_t
SlbFlowSlots<N>::GetMemoryBytes() const
{
    return m_slots.capacity() * sizeof(Slot);
}

template class SlbFlowSlots<4>;
template class SlbFlowSlots<16>;

// ---------------------------------------------------------------------------------------------
// SlbFlowTable

SlbFlowTable::SlbFlowTable(uint64_t seed)
    : m_v4(seed),
      m_v6(AdcHash::Mix(seed))
{
}

void
SlbFlowTable::SetTimeouts(uint32_t idleMs, uint32_t closingMs)
{
    m_idleMs = idleMs;
    m_closingMs = closingMs;
}

void
SlbFlowTable::SetMaxFlows(uint32_t maxFlows)
{
    m_maxFlows = maxFlows;
}

template <class S>
bool
SlbFlowTable::Expired(const S& s, uint32_t nowMs) const
{
    const uint32_t timeout = (s.flags & kClosing) != 0 ? m_closingMs : m_idleMs;
    return Elapsed(nowMs, s.lastSeenMs) > timeout;
}

template <class T>
typename T::Slot*
SlbFlowTable::Live(T& t, const AdcFlowKey& k, uint32_t nowMs)
{
    typename T::Slot* s = t.Find(k);
    if (s != nullptr && Expired(*s, nowMs))
    {
        t.Erase(s);
        return nullptr;
    }
    return s;
}

std::optional<SlbFlowTable::Entry>
SlbFlowTable::Touch(const AdcFlowKey& k, uint32_t nowMs)
{
    auto touch = [nowMs](auto* s) -> std::optional<Entry> {
        if (s == nullptr)
        {
            return std::nullopt;
        }
        s->lastSeenMs = nowMs;
        return Entry{s->dipId, s->flags};
    };
    return k.dst.IsV6() ? touch(Live(m_v6, k, nowMs)) : touch(Live(m_v4, k, nowMs));
}

template <class T>
bool
SlbFlowTable::SetIn(T& t, const AdcFlowKey& k, uint32_t dipId, uint32_t nowMs)
{
    typename T::Slot* s = Live(t, k, nowMs);
    if (s == nullptr)
    {
        if (m_maxFlows != 0 && GetCount() >= m_maxFlows)
        {
            // Sweep at most once a second while full: a full table of live flows must not
            // cost a whole sweep per packet.
            if (!m_swept || Elapsed(nowMs, m_lastSweepMs) >= 1000)
            {
                m_swept = true;
                m_lastSweepMs = nowMs;
                Expire(nowMs);
            }
            if (GetCount() >= m_maxFlows)
            {
                return false;
            }
        }
        s = t.Add(k);
    }
    s->dipId = dipId;
    s->lastSeenMs = nowMs;
    return true;
}

bool
SlbFlowTable::Set(const AdcFlowKey& k, uint32_t dipId, uint32_t nowMs)
{
    return k.dst.IsV6() ? SetIn(m_v6, k, dipId, nowMs) : SetIn(m_v4, k, dipId, nowMs);
}

bool
SlbFlowTable::AddFlags(const AdcFlowKey& k, uint8_t flags)
{
    auto add = [flags](auto* s) {
        if (s != nullptr)
        {
            s->flags |= flags;
        }
        return s != nullptr;
    };
    return k.dst.IsV6() ? add(m_v6.Find(k)) : add(m_v4.Find(k));
}

bool
SlbFlowTable::Remove(const AdcFlowKey& k)
{
    auto remove = [](auto& t, const AdcFlowKey& key) {
        auto* s = t.Find(key);
        if (s != nullptr)
        {
            t.Erase(s);
        }
        return s != nullptr;
    };
    return k.dst.IsV6() ? remove(m_v6, k) : remove(m_v4, k);
}

std::size_t
SlbFlowTable::RemoveIf(const std::function<bool(const AdcFlowKey&, uint32_t)>& remove)
{
    return m_v4.EraseIf([&remove](const SlbFlowSlots<4>::Slot& s) {
        return remove(SlbFlowSlots<4>::KeyOf(s), s.dipId);
    }) + m_v6.EraseIf([&remove](const SlbFlowSlots<16>::Slot& s) {
        return remove(SlbFlowSlots<16>::KeyOf(s), s.dipId);
    });
}

std::size_t
SlbFlowTable::Expire(uint32_t nowMs)
{
    return m_v4.EraseIf([this, nowMs](const SlbFlowSlots<4>::Slot& s) {
        return Expired(s, nowMs);
    }) + m_v6.EraseIf([this, nowMs](const SlbFlowSlots<16>::Slot& s) { return Expired(s, nowMs); });
}

std::size_t
SlbFlowTable::GetCount() const
{
    return m_v4.GetCount() + m_v6.GetCount();
}

std::size_t
SlbFlowTable::GetCount(AdcIpAddress::Family family) const
{
    return family == AdcIpAddress::V6 ? m_v6.GetCount() : m_v4.GetCount();
}

std::size_t
SlbFlowTable::GetMemoryBytes() const
{
    return m_v4.GetMemoryBytes() + m_v6.GetMemoryBytes();
}

std::size_t
SlbFlowTable::GetEntryBytes(AdcIpAddress::Family family)
{
    const std::size_t slot =
        family == AdcIpAddress::V6 ? sizeof(SlbFlowSlots<16>::Slot) : sizeof(SlbFlowSlots<4>::Slot);
    return (slot * 4 + 2) / 3; // at a load of 3/4, rounded to the nearest byte
}

} // namespace ns3
