/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: Full-NAT source ports as illumos ILB allocates them (uts/common/inet/ilb/ilb_nat.c):
 * one port space per (NAT source address, back-end server address, server port) pair; and the
 * sticky table as ilb_conn.c keeps it (ilb_sticky_find_add pins a NAT source per entry).
 */

#ifndef ILB_NAT_SOURCE_H
#define ILB_NAT_SOURCE_H

#include "ns3/adc-flow-key.h"
#include "ns3/adc-port-range.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The port space of one (NAT source address, server) pair: illumos's
 * ilb_nat_src_entry_t and its vmem arena.
 *
 * illumos creates the arena with base NAT_PORT_START (4096) and size NAT_PORT_SIZE
 * (65535 - 4096 = 61439 ports), so ports 4096..65534 (GetDefaultRange()). A port is in use
 * from Allocate until Release. Allocate returns the next free port after the last one handed
 * out, wrapping at the end (a fresh space counts up from its first port, as vmem's instant
 * fit does). illumos's exact order (the arena has a kmem quantum cache, qcache_max 1: 64-port
 * slabs handed out highest-first, per-CPU magazines that reuse the last freed port first) is
 * not reproduced: ns-3's TCP refuses a SYN for a 4-tuple it holds in TIME_WAIT, which a
 * server would hold for a port the ILB freed and reused at once. Memory: one bit per port.
 */
class IlbNatPortPool
{
  public:
    /// illumos ilb_nat.c NAT_PORT_START
    static constexpr uint16_t PORT_START = 4096;
    /// illumos ilb_nat.c NAT_PORT_SIZE (65535 - NAT_PORT_START): the last port is 65534
    static constexpr uint32_t PORT_SIZE = 65535 - PORT_START;

    /// \return 4096-65534, illumos's range
    static AdcPortRange GetDefaultRange();

    /// \param range the ports (checked: AdcConfigError when invalid)
    explicit IlbNatPortPool(AdcPortRange range = GetDefaultRange());

    /// \return the lowest free port (now in use); nullopt (counted) when every port is in use
    std::optional<uint16_t> Allocate();
    /// \param port a port in use \return false (nothing changes) when it is not in use
    bool Release(uint16_t port);
    /// \param port a port \return whether it is in use
    bool IsAllocated(uint16_t port) const;

    /// \return the range
    AdcPortRange GetRange() const;
    /// \return ports in use
    uint32_t GetInUse() const;
    /// \return how many Allocate calls found every port in use
    uint64_t GetExhaustedCount() const;

  private:
    AdcPortRange m_range;     //!< the ports
    std::vector<bool> m_used; //!< in use, by port - first
    uint32_t m_cursor{0};     //!< where the next search starts (offset into the range)
    uint32_t m_inUse{0};      //!< ports in use
    uint64_t m_exhausted{0};  //!< failed allocations
};

/**
 * \ingroup adc
 * \brief The NAT source table of one ILB (illumos ilbs_nat_src) and each rule server's list of
 * its entries (ilb_server_t::iser_nat_src).
 *
 * An entry is a (NAT source address, server address, server port) port space; port 0 is the
 * wild card (a server given with a port range, or none) and matches any port, as
 * ilb_find_nat_src does. Rules whose servers and NAT source addresses coincide share entries,
 * so their flows never get the same 5-tuple towards the server. Bind gives a rule's server one
 * entry per NAT source address (at most MAX_SOURCES, illumos ILB_MAX_NAT_SRC); Allocate is
 * ilb_alloc_nat_addr: the server's cursor is incremented first and picks the address
 * ((++cur) % n, so a server's first flow takes the second address when there are several),
 * and when that entry's ports are all in use the next addresses are tried in turn; only when
 * all are full does allocation fail.
 */
class IlbNatSourceTable
{
  public:
    /// illumos ilb_nat.h ILB_MAX_NAT_SRC: NAT source addresses of one rule
    static constexpr uint32_t MAX_SOURCES = 10;

    /// One entry (a port space).
    struct Entry
    {
        AdcIpAddress source;  //!< NAT source address
        AdcIpAddress server;  //!< back-end server address
        uint16_t serverPort;  //!< the server's port, 0 = wild card
        IlbNatPortPool ports; //!< its port space
    };

    /**
     * \brief Give a rule's server its entries (ilb_create_nat_src), creating missing ones.
     * \param rule rule index \param server server index in the rule
     * \param sources the rule's NAT source addresses (1..MAX_SOURCES)
     * \param address the server's address \param port its port (0 = wild card)
     * \param range ports of entries created here (an existing entry keeps its own)
     */
    void Bind(uint32_t rule,
              uint32_t server,
              const std::vector<AdcIpAddress>& sources,
              const AdcIpAddress& address,
              uint16_t port,
              AdcPortRange range);

    /**
     * \brief Allocate a NAT source address and port for a new flow to a bound server.
     * \param rule rule index \param server server index
     * \return the address and port, or nullopt when every entry of the server is full
     */
    std::optional<std::pair<AdcIpAddress, uint16_t>> Allocate(uint32_t rule, uint32_t server);

    /**
     * \brief ilb_alloc_nat_addr with an index (a sticky flow): only that NAT source is tried;
     * when its ports are all in use allocation fails, with no fallback to another address.
     * \param rule rule index \param server server index
     * \param index the NAT source index (IlbStickyTable::Entry::natSource)
     * \return the address and port, or nullopt
     */
    std::optional<std::pair<AdcIpAddress, uint16_t>> AllocateAt(uint32_t rule,
                                                                uint32_t server,
                                                                uint32_t index);

    /**
     * \brief The NAT source a new sticky entry pins (ilb_sticky_find_add:
     * "iser_nat_src->cur++ % num_src", the cursor Allocate also advances).
     * \param rule rule index \param server server index
     * \return the index, 0 when the server has no binding
     */
    uint32_t NextStickySource(uint32_t rule, uint32_t server);

    /**
     * \brief Free a flow's port.
     * \param rule rule index \param server server index \param source the NAT source address
     * \param port the port \return false when the server has no entry of \p source or the
     * port was not in use
     */
    bool Release(uint32_t rule, uint32_t server, const AdcIpAddress& source, uint16_t port);

    /**
     * \param source NAT source address \param server server address \param port server port
     * (0 = wild card) \return the entry ilb_find_nat_src would return (the first created
     * that matches), or null
     */
    const Entry* Find(const AdcIpAddress& source, const AdcIpAddress& server, uint16_t port) const;
    /// \param rule rule index \param server server index \return its entries (indices), in
    /// NAT source address order; empty when not bound
    std::vector<uint32_t> GetBinding(uint32_t rule, uint32_t server) const;
    /// \param i entry index \return the entry
    const Entry& Get(uint32_t i) const;
    /// \return number of entries
    uint32_t GetN() const;
    /// \return ports in use over every entry
    uint32_t GetInUse() const;
    /// Remove every entry and binding.
    void Clear();

  private:
    /// A rule server's entries and cursor (ilb_nat_src_t).
    struct Binding
    {
        std::vector<uint32_t> entries; //!< one per NAT source address
        uint32_t cur{0};               //!< the round-robin hint
    };

    /// \return the index of the matching entry, or -1
    int64_t FindIndex(const AdcIpAddress& source, const AdcIpAddress& server, uint16_t port) const;

    std::vector<Entry> m_entries;                                //!< in creation order
    std::map<std::pair<uint32_t, uint32_t>, Binding> m_bindings; //!< (rule, server) -> entries
};

/**
 * \ingroup adc
 * \brief The sticky table of one ILB, as illumos ilb_conn.c keeps it (ilb_sticky_t).
 *
 * An entry maps (rule, masked client source) to a server, with the NAT source index its
 * Full-NAT flows use. Entries of one key form a list, newest first (ilb_sticky_add inserts at
 * the head, ilb_sticky_lookup returns the first). Every connection made through an entry holds
 * a reference on it (ilb_sticky_find_add: refcnt 1 when added, ++ when found); releasing one
 * sets its access time (ILB_STICKY_REFRELE). Cleanup (ilb_sticky_cleanup, every 15 s) removes
 * only the entries with no reference whose access time is older than their expiry (the rule's
 * persist-timeout): the expiry clock starts when the last reference is dropped.
 * Which entry a connection releases is found from its rule, client prefix and server (a
 * connection keeps no pointer; the newest referenced entry of that server is released).
 */
class IlbStickyTable
{
  public:
    /// One entry.
    struct Entry
    {
        uint32_t rule{0};      //!< rule index (ilb_sticky_t rule_instance)
        AdcIpAddress prefix;   //!< the client's masked source address
        uint32_t server{0};    //!< server index in the rule
        uint32_t natSource{0}; //!< Full-NAT: the pinned NAT source index (nat_src_idx)
        uint32_t refs{0};      //!< connections holding it (refcnt)
        Time atime;            //!< when the last reference was dropped (or the entry made)
        Time expiry;           //!< the rule's persist-timeout
        uint64_t serial{0};    //!< creation order
    };

    /// \param rule rule index \param prefix masked source \return the newest entry, or null
    Entry* Lookup(uint32_t rule, const AdcIpAddress& prefix);
    /**
     * \brief ilb_sticky_add: a new entry at the head of its key's list, one reference held.
     * \return the entry
     */
    Entry* Add(uint32_t rule,
               const AdcIpAddress& prefix,
               uint32_t server,
               uint32_t natSource,
               Time expiry,
               Time now);
    /// \param e an entry: one more reference (a found entry), counted as a hit
    void Hold(Entry* e);
    /**
     * \brief ILB_STICKY_REFRELE of the newest entry of (rule, prefix) for \p server that has a
     * reference: one reference less, access time \p now.
     * \return false when there is none
     */
    bool Release(uint32_t rule, const AdcIpAddress& prefix, uint32_t server, Time now);
    /// \param e an entry just held or added: ILB_STICKY_REFRELE of it
    void Release(Entry* e, Time now);
    /**
     * \brief ilb_sticky_cleanup: remove every entry with no reference whose access time is
     * older than now - expiry.
     * \param now the time \return entries removed
     */
    uint32_t Cleanup(Time now);

    /// \return entries (expired ones not yet cleaned up included)
    uint32_t GetSize() const;
    /// \return entries in creation order
    std::vector<Entry> GetEntries() const;
    /// \param rule rule index \return how many of its new flows found an entry (Hold)
    uint64_t GetHits(uint32_t rule) const;
    /// Remove every entry.
    void Clear();

  private:
    using Key = std::pair<uint32_t, AdcIpAddress>; //!< rule, prefix
    std::map<Key, std::vector<Entry>> m_entries;   //!< per key, newest last
    uint64_t m_serial{0};                          //!< next serial
    std::map<uint32_t, uint64_t> m_hits;           //!< Hold calls per rule
};

} // namespace ns3

#endif /* ILB_NAT_SOURCE_H */
