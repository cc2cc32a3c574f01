/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: Full-NAT source ports as illumos ILB allocates them (uts/common/inet/ilb/ilb_nat.c),
 * and the sticky table (uts/common/inet/ilb/ilb_conn.c).
 */

#include "ilb-nat-source.h"

#include "ns3/adc-config-error.h"
#include "ns3/assert.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

// ---------------------------------------------------------------------------------------------
// IlbNatPortPool

AdcPortRange
IlbNatPortPool::GetDefaultRange()
{
    return AdcPortRange(PORT_START, static_cast<uint16_t>(PORT_START + PORT_SIZE - 1));
}

IlbNatPortPool::IlbNatPortPool(AdcPortRange range)
    : m_range(range)
{
    range.Check("IlbNatPortPool: range");
    m_used.assign(range.Size(), false);
}

std::optional<uint16_t>
IlbNatPortPool::Allocate()
{
    const auto size = static_cast<uint32_t>(m_used.size());
    if (m_inUse == size)
    {
        ++m_exhausted;
        return std::nullopt;
    }
    uint32_t i = m_cursor;
    while (m_used[i])
    {
        i = i + 1 == size ? 0 : i + 1;
    }
    m_used[i] = true;
    ++m_inUse;
    m_cursor = i + 1 == size ? 0 : i + 1;
    return static_cast<uint16_t>(m_range.first + i);
}

bool
IlbNatPortPool::Release(uint16_t port)
{
    if (!IsAllocated(port))
    {
        return false;
    }
    m_used[port - m_range.first] = false;
    --m_inUse;
    return true;
}

bool
IlbNatPortPool::IsAllocated(uint16_t port) const
{
    return m_range.Contains(port) && m_used[port - m_range.first];
}

AdcPortRange
IlbNatPortPool::GetRange() const
{
    return m_range;
}

uint32_t
IlbNatPortPool::GetInUse() const
{
    return m_inUse;
}

uint64_t
IlbNatPortPool::GetExhaustedCount() const
{
    return m_exhausted;
}

// ---------------------------------------------------------------------------------------------
// IlbNatSourceTable

int64_t
IlbNatSourceTable::FindIndex(const AdcIpAddress& source,
                             const AdcIpAddress& server,
                             uint16_t port) const
{
    // ilb_find_nat_src: same source and server address, and the same port or a wild card on
    // either side; the first such entry.
    for (std::size_t i = 0; i < m_entries.size(); ++i)
    {
        const Entry& e = m_entries[i];
        if (e.source == source && e.server == server &&
            (port == e.serverPort || port == 0 || e.serverPort == 0))
        {
            return static_cast<int64_t>(i);
        }
    }
    return -1;
}

void
IlbNatSourceTable::Bind(uint32_t rule,
                        uint32_t server,
                        const std::vector<AdcIpAddress>& sources,
                        const AdcIpAddress& address,
                        uint16_t port,
                        AdcPortRange range)
{
    if (sources.empty() || sources.size() > MAX_SOURCES)
    {
        throw AdcConfigError("IlbNatSourceTable: rule #" + std::to_string(rule) + ": " +
                             std::to_string(sources.size()) + " NAT source addresses; allowed 1.." +
                             std::to_string(MAX_SOURCES));
    }
    Binding b;
    for (const AdcIpAddress& s : sources)
    {
        int64_t i = FindIndex(s, address, port);
        if (i < 0)
        {
            m_entries.push_back(Entry{s, address, port, IlbNatPortPool(range)});
            i = static_cast<int64_t>(m_entries.size() - 1);
        }
        b.entries.push_back(static_cast<uint32_t>(i));
    }
    m_bindings[{rule, server}] = b;
}

std::optional<std::pair<AdcIpAddress, uint16_t>>
IlbNatSourceTable::Allocate(uint32_t rule, uint32_t server)
{
    auto it = m_bindings.find({rule, server});
    if (it == m_bindings.end() || it->second.entries.empty())
    {
        return std::nullopt;
    }
    Binding& b = it->second;
    const auto size = static_cast<uint32_t>(b.entries.size());
    // ilb_alloc_nat_addr: i = (++src->cur) % size, then the next ones in turn.
    uint32_t i = (++b.cur) % size;
    for (uint32_t attempt = 0; attempt < size; ++attempt)
    {
        Entry& e = m_entries[b.entries[i]];
        if (std::optional<uint16_t> port = e.ports.Allocate())
        {
            return std::make_pair(e.source, *port);
        }
        i = (i + 1) % size;
    }
    return std::nullopt;
}

std::optional<std::pair<AdcIpAddress, uint16_t>>
IlbNatSourceTable::AllocateAt(uint32_t rule, uint32_t server, uint32_t index)
{
    auto it = m_bindings.find({rule, server});
    if (it == m_bindings.end() || it->second.entries.empty())
    {
        return std::nullopt;
    }
    const Binding& b = it->second;
    // ilb_alloc_nat_addr with nat_src_idx: "If an index is given and we cannot allocate a port
    // using that entry, return NULL."
    Entry& e = m_entries[b.entries[index % b.entries.size()]];
    if (std::optional<uint16_t> port = e.ports.Allocate())
    {
        return std::make_pair(e.source, *port);
    }
    return std::nullopt;
}

uint32_t
IlbNatSourceTable::NextStickySource(uint32_t rule, uint32_t server)
{
    auto it = m_bindings.find({rule, server});
    if (it == m_bindings.end() || it->second.entries.empty())
    {
        return 0;
    }
    Binding& b = it->second;
    // ilb_sticky_find_add: *src_ent_idx = (server->iser_nat_src->cur++ % num_src)
    return b.cur++ % static_cast<uint32_t>(b.entries.size());
}

bool
IlbNatSourceTable::Release(uint32_t rule,
                           uint32_t server,
                           const AdcIpAddress& source,
                           uint16_t port)
{
    auto it = m_bindings.find({rule, server});
    if (it == m_bindings.end())
    {
        return false;
    }
    for (uint32_t i : it->second.entries)
    {
        if (m_entries[i].source == source)
        {
            return m_entries[i].ports.Release(port);
        }
    }
    return false;
}

const IlbNatSourceTable::Entry*
IlbNatSourceTable::Find(const AdcIpAddress& source, const AdcIpAddress& server, uint16_t port) const
{
    const int64_t i = FindIndex(source, server, port);
    return i < 0 ? nullptr : &m_entries[static_cast<std::size_t>(i)];
}

std::vector<uint32_t>
IlbNatSourceTable::GetBinding(uint32_t rule, uint32_t server) const
{
    auto it = m_bindings.find({rule, server});
    return it == m_bindings.end() ? std::vector<uint32_t>() : it->second.entries;
}

const IlbNatSourceTable::Entry&
IlbNatSourceTable::Get(uint32_t i) const
{
    NS_ASSERT(i < m_entries.size());
    return m_entries[i];
}

uint32_t
IlbNatSourceTable::GetN() const
{
    return static_cast<uint32_t>(m_entries.size());
}

uint32_t
IlbNatSourceTable::GetInUse() const
{
    uint32_t n = 0;
    for (const Entry& e : m_entries)
    {
        n += e.ports.GetInUse();
    }
    return n;
}

void
IlbNatSourceTable::Clear()
{
    m_entries.clear();
    m_bindings.clear();
}

// ---------------------------------------------------------------------------------------------
// IlbStickyTable

IlbStickyTable::Entry*
IlbStickyTable::Lookup(uint32_t rule, const AdcIpAddress& prefix)
{
    // ilb_sticky_lookup: the first entry of the bucket list, i.e. the newest.
    auto it = m_entries.find({rule, prefix});
    return it == m_entries.end() || it->second.empty() ? nullptr : &it->second.back();
}

IlbStickyTable::Entry*
IlbStickyTable::Add(uint32_t rule,
                    const AdcIpAddress& prefix,
                    uint32_t server,
                    uint32_t natSource,
                    Time expiry,
                    Time now)
{
    // ilb_sticky_add: refcnt 1, expiry the rule's ir_sticky_expiry, list_insert_head.
    Entry e;
    e.rule = rule;
    e.prefix = prefix;
    e.server = server;
    e.natSource = natSource;
    e.refs = 1;
    e.atime = now;
    e.expiry = expiry;
    e.serial = m_serial++;
    std::vector<Entry>& list = m_entries[{rule, prefix}];
    list.push_back(e);
    return &list.back();
}

void
IlbStickyTable::Hold(Entry* e)
{
    ++e->refs; // ilb_sticky_find_add: s->refcnt++
    ++m_hits[e->rule];
}

void
IlbStickyTable::Release(Entry* e, Time now)
{
    NS_ASSERT(e->refs > 0);
    --e->refs; // ILB_STICKY_REFRELE: refcnt--, atime = now
    e->atime = now;
}

bool
IlbStickyTable::Release(uint32_t rule, const AdcIpAddress& prefix, uint32_t server, Time now)
{
    auto it = m_entries.find({rule, prefix});
    if (it == m_entries.end())
    {
        return false;
    }
    for (auto e = it->second.rbegin(); e != it->second.rend(); ++e)
    {
        if (e->server == server && e->refs > 0)
        {
            Release(&*e, now);
            return true;
        }
    }
    return false;
}

uint32_t
IlbStickyTable::Cleanup(Time now)
{
    // ilb_sticky_cleanup: "if (s->refcnt != 0) continue; expiry = now - s->expiry;
    // if (s->atime < expiry) remove".
    uint32_t removed = 0;
    for (auto it = m_entries.begin(); it != m_entries.end();)
    {
        std::vector<Entry>& list = it->second;
        const std::size_t before = list.size();
        list.erase(std::remove_if(
                       list.begin(),
                       list.end(),
                       [now](const Entry& e) { return e.refs == 0 && e.atime < now - e.expiry; }),
                   list.end());
        removed += static_cast<uint32_t>(before - list.size());
        it = list.empty() ? m_entries.erase(it) : std::next(it);
    }
    return removed;
}

uint32_t
IlbStickyTable::GetSize() const
{
    uint32_t n = 0;
    for (const auto& [key, list] : m_entries)
    {
        n += static_cast<uint32_t>(list.size());
    }
    return n;
}

std::vector<IlbStickyTable::Entry>
IlbStickyTable::GetEntries() const
{
    std::vector<Entry> all;
    for (const auto& [key, list] : m_entries)
    {
        all.insert(all.end(), list.begin(), list.end());
    }
    std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
        return a.serial < b.serial;
    });
    return all;
}

uint64_t
IlbStickyTable::GetHits(uint32_t rule) const
{
    const auto it = m_hits.find(rule);
    return it == m_hits.end() ? 0 : it->second;
}

void
IlbStickyTable::Clear()
{
    m_entries.clear();
}

} // namespace ns3
