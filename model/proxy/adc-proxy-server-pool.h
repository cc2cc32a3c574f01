/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the idle server-side connections a proxy keeps for reuse.
 */

#ifndef ADC_PROXY_SERVER_POOL_H
#define ADC_PROXY_SERVER_POOL_H

#include "ns3/ipv4-address.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Idle server-side connections of a proxy (NetScaler's connection reuse), by
 * connection id: looked up by server and source address (the most recently idle first, so the
 * others age out), bounded per server (the oldest idle one of that server makes room).
 *
 * The source is part of the key because it is part of what the server sees: a connection
 * opened from one client's address (USIP) is reused only for that client, one from a mapped IP
 * for any request to that server.
 */
class AdcProxyServerPool
{
  public:
    /// Which requests an idle connection can carry.
    struct Key
    {
        Ipv4Address server; //!< the server's address
        uint16_t port{0};   //!< its port
        Ipv4Address source; //!< the connection's source address
    };

    AdcProxyServerPool();
    ~AdcProxyServerPool();
    AdcProxyServerPool(const AdcProxyServerPool&) = delete;
    AdcProxyServerPool& operator=(const AdcProxyServerPool&) = delete;

    /**
     * \brief Keep connection \p id idle under \p key.
     * \param id the connection (not in the pool)
     * \param key what it can carry
     * \param maxPerServer idle connections kept per server (>= 1)
     * \return the connection taken out to respect the bound (the caller closes it), if any
     */
    std::optional<uint64_t> Put(uint64_t id, const Key& key, uint32_t maxPerServer);

    /**
     * \param key what the request needs
     * \return the most recently idle connection under \p key, now out of the pool
     */
    std::optional<uint64_t> Take(const Key& key);

    /**
     * \param id a connection
     * \return true when it was idle here and is not any more
     */
    bool Remove(uint64_t id);

    /// \param id a connection \return true when it is idle here
    bool Contains(uint64_t id) const;

    /// \return idle connections
    std::size_t GetSize() const;

    /**
     * \param server a server's address
     * \param port its port
     * \return idle connections to it, whatever their source
     */
    std::size_t CountServer(Ipv4Address server, uint16_t port) const;

    /// \return memory held for the idle connections (entries and index nodes)
    std::size_t GetMemoryBytes() const;

  private:
    struct Table;                   //!< the multi-index table (Boost.MultiIndex, in the .cc)
    std::unique_ptr<Table> m_table; //!< idle connections
    uint64_t m_seq;                 //!< order of Put calls
};

} // namespace ns3

#endif /* ADC_PROXY_SERVER_POOL_H */
