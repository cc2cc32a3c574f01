/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the idle server-side connections a proxy keeps for reuse.
 */

#include "adc-proxy-server-pool.h"

#include <boost/multi_index/composite_key.hpp>
#include <boost/multi_index/hashed_index.hpp>
#include <boost/multi_index/member.hpp>
#include <boost/multi_index/ordered_index.hpp>
#include <boost/multi_index_container.hpp>
#include <tuple>

namespace ns3
{

namespace
{

/// One idle connection.
struct Entry
{
    uint64_t id;     //!< the connection
    uint32_t server; //!< server address (host order)
    uint16_t port;   //!< server port
    uint32_t source; //!< source address (host order)
    uint64_t seq;    //!< when it became idle (Put order)
};

namespace bmi = boost::multi_index;

struct ById
{
};

struct ByKey
{
};

struct ByServer
{
};

/// Three views of one set: by id (removal when a connection closes), by server and source in
/// idle order (reuse, newest first), by server in idle order (the bound, oldest first).
using EntrySet = bmi::multi_index_container<
    Entry,
    bmi::indexed_by<
        bmi::hashed_unique<bmi::tag<ById>, bmi::member<Entry, uint64_t, &Entry::id>>,
        bmi::ordered_non_unique<bmi::tag<ByKey>,
                                bmi::composite_key<Entry,
                                                   bmi::member<Entry, uint32_t, &Entry::server>,
                                                   bmi::member<Entry, uint16_t, &Entry::port>,
                                                   bmi::member<Entry, uint32_t, &Entry::source>,
                                                   bmi::member<Entry, uint64_t, &Entry::seq>>>,
        bmi::ordered_non_unique<bmi::tag<ByServer>,
                                bmi::composite_key<Entry,
                                                   bmi::member<Entry, uint32_t, &Entry::server>,
                                                   bmi::member<Entry, uint16_t, &Entry::port>,
                                                   bmi::member<Entry, uint64_t, &Entry::seq>>>>>;

/// Bytes per entry besides the entry: a hash link and two red-black nodes (colour, 3 links).
constexpr std::size_t kIndexOverhead = sizeof(void*) + 2 * 4 * sizeof(void*);

} // namespace

struct AdcProxyServerPool::Table
{
    EntrySet set; //!< the idle connections
};

AdcProxyServerPool::AdcProxyServerPool()
    : m_table(std::make_unique<Table>()),
      m_seq(0)
{
}

AdcProxyServerPool::~AdcProxyServerPool() = default;

std::optional<uint64_t>
AdcProxyServerPool::Put(uint64_t id, const Key& key, uint32_t maxPerServer)
{
    std::optional<uint64_t> evicted;
    auto& byServer = m_table->set.get<ByServer>();
    const auto server = std::make_tuple(key.server.Get(), key.port);
    if (byServer.count(server) >= maxPerServer)
    {
        auto oldest = byServer.lower_bound(server);
        evicted = oldest->id;
        byServer.erase(oldest);
    }
    m_table->set.insert(Entry{id, key.server.Get(), key.port, key.source.Get(), m_seq++});
    return evicted;
}

std::optional<uint64_t>
AdcProxyServerPool::Take(const Key& key)
{
    auto& byKey = m_table->set.get<ByKey>();
    const auto range =
        byKey.equal_range(std::make_tuple(key.server.Get(), key.port, key.source.Get()));
    if (range.first == range.second)
    {
        return std::nullopt;
    }
    auto newest = std::prev(range.second);
    const uint64_t id = newest->id;
    byKey.erase(newest);
    return id;
}

bool
AdcProxyServerPool::Remove(uint64_t id)
{
    return m_table->set.get<ById>().erase(id) > 0;
}

bool
AdcProxyServerPool::Contains(uint64_t id) const
{
    return m_table->set.get<ById>().count(id) > 0;
}

std::size_t
AdcProxyServerPool::GetSize() const
{
    return m_table->set.size();
}

std::size_t
AdcProxyServerPool::CountServer(Ipv4Address server, uint16_t port) const
{
    return m_table->set.get<ByServer>().count(std::make_tuple(server.Get(), port));
}

std::size_t
AdcProxyServerPool::GetMemoryBytes() const
{
    return m_table->set.size() * (sizeof(Entry) + kIndexOverhead);
}

} // namespace ns3
