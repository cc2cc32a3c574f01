/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_FLOW_TABLE_H
#define SLB_FLOW_TABLE_H

#include "ns3/adc-flow-key.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

/**
 * \file
 * \ingroup adc
 * The SLB MUX's per-MUX flow table: 5-tuple -> DIP, compact, open addressing.
 */

namespace ns3
{

/**
 * \ingroup adc
 * \brief Fixed-size slots of one address family: open addressing with linear probing and
 * backward-shift deletion (no tombstones), so a probe never walks over dead slots.
 * \tparam N address bytes (4 for IPv4, 16 for IPv6)
 */
template <std::size_t N>
class SlbFlowSlots
{
  public:
    /// One slot: the 5-tuple stored in its own bytes, the DIP id, the last-seen time and state.
    struct Slot
    {
        uint8_t src[N];      //!< source address
        uint8_t dst[N];      //!< destination address (the VIP)
        uint32_t dipId;      //!< the MUX's id of the DIP the flow is pinned to
        uint32_t lastSeenMs; //!< when it was last seen (milliseconds, wraps: compared modulo)
        uint16_t srcPort;    //!< source port
        uint16_t dstPort;    //!< destination port
        uint8_t protocol;    //!< IP protocol
        uint8_t flags;       //!< SlbFlowTable::kUsed | kClosing | kRedirected
    };

    /// \param seed the slot hash's seed
    explicit SlbFlowSlots(uint64_t seed);
    /// \param k a flow of this family \return its slot, or null
    Slot* Find(const AdcFlowKey& k);
    /// \param k a flow not in the table \return a new slot holding its key (flags kUsed)
    Slot* Add(const AdcFlowKey& k);
    /// \param s a slot of this table: removes it
    void Erase(Slot* s);
    /// \param remove says which entries go \return how many went
    std::size_t EraseIf(const std::function<bool(const Slot&)>& remove);
    /// \return entries
    std::size_t GetCount() const;
    /// \return bytes of the slot array
    std::size_t GetMemoryBytes() const;
    /// \param s a slot \return its key
    static AdcFlowKey KeyOf(const Slot& s);

  private:
    /// \param k a key \return its home slot index
    std::size_t Home(const AdcFlowKey& k) const;
    /// \param s a slot \param k a key \return true when \p s holds \p k
    static bool Holds(const Slot& s, const AdcFlowKey& k);
    /// \param capacity new slot count (a power of two): rehash everything into it
    void Rehash(std::size_t capacity);

    uint64_t m_seed;           //!< hash seed
    std::vector<Slot> m_slots; //!< the slots (size a power of two, or empty)
    std::size_t m_count{0};    //!< used slots
};

/**
 * \ingroup adc
 * \brief The MUX's flow table: pins each flow (its 5-tuple) to the DIP chosen for it, so the
 * flow keeps that DIP while the VIP's DIP set changes (Ananta's Mux flow state; Maglev section 3.3,
 * connection tracking).
 *
 * Pure logic, no simulator state: times are milliseconds given by the caller. IPv4 and IPv6
 * flows live in two open-addressing tables with fixed-size slots (24 and 48 bytes), grown by
 * doubling at a load of 3/4, so at most 32 (IPv4) or 64 (IPv6) bytes of memory per entry at
 * the highest load; GetMemoryBytes() says what is allocated now.
 *
 * Entries expire lazily: a lookup of an idle entry (older than the idle timeout, or the closing
 * timeout once a FIN was seen) removes it and reports none; Expire() sweeps the whole table.
 */
class SlbFlowTable
{
  public:
    static constexpr uint8_t kUsed = 0x01;       //!< slot in use
    static constexpr uint8_t kClosing = 0x02;    //!< a FIN was seen: shorter timeout
    static constexpr uint8_t kRedirected = 0x04; //!< the Fastpath redirect was sent

    /// A live entry as a lookup returns it.
    struct Entry
    {
        uint32_t dipId{0}; //!< the DIP it is pinned to
        uint8_t flags{0};  //!< kUsed | kClosing | kRedirected
    };

    /// \param seed the slots' hash seed (the table's own; not the DIP choice's)
    explicit SlbFlowTable(uint64_t seed = 0x5eed5eed5eedULL);

    /**
     * \param idleMs an entry idle for longer expires
     * \param closingMs an entry that saw a FIN and is idle for longer expires
     */
    void SetTimeouts(uint32_t idleMs, uint32_t closingMs);
    /// \param maxFlows the most entries (both families together); 0 = unbounded
    void SetMaxFlows(uint32_t maxFlows);

    /**
     * \brief Look a flow up; a live entry's last-seen time becomes \p nowMs, an expired one
     * is removed.
     * \param k the flow \param nowMs the time
     * \return the entry, or none
     */
    std::optional<Entry> Touch(const AdcFlowKey& k, uint32_t nowMs);

    /**
     * \brief Pin \p k to \p dipId (a new entry, or the existing one re-pinned; its flags kept).
     * \param k the flow \param dipId the DIP \param nowMs the time
     * \return false when the flow is new and the table holds MaxFlows live entries (expired
     *         ones are swept out first, at most once a second while full): nothing is stored
     */
    bool Set(const AdcFlowKey& k, uint32_t dipId, uint32_t nowMs);

    /// \param k a flow \param flags flags to add to its entry \return false without an entry
    bool AddFlags(const AdcFlowKey& k, uint8_t flags);
    /// \param k a flow \return true when it had an entry (now removed)
    bool Remove(const AdcFlowKey& k);
    /// \param remove says which entries go (by key and DIP id) \return how many went
    std::size_t RemoveIf(const std::function<bool(const AdcFlowKey&, uint32_t)>& remove);
    /// \param nowMs the time \return how many expired entries were removed
    std::size_t Expire(uint32_t nowMs);

    /// \return entries (expired ones not yet removed included)
    std::size_t GetCount() const;
    /// \param family V4 or V6 \return that family's entries
    std::size_t GetCount(AdcIpAddress::Family family) const;
    /// \return bytes allocated for the slots now (both families)
    std::size_t GetMemoryBytes() const;
    /**
     * \param family V4 or V6
     * \return bytes of memory per entry at the highest load: the slot's size / (3/4)
     */
    static std::size_t GetEntryBytes(AdcIpAddress::Family family);

  private:
    /// \param s a slot \param nowMs the time \return true when it expired
    template <class S>
    bool Expired(const S& s, uint32_t nowMs) const;
    /// \param k a flow \param nowMs the time \return its live slot (expired removed) in \p t
    template <class T>
    typename T::Slot* Live(T& t, const AdcFlowKey& k, uint32_t nowMs);
    /// \param k a flow \param dipId DIP \param nowMs time \return Set for the family's table
    template <class T>
    bool SetIn(T& t, const AdcFlowKey& k, uint32_t dipId, uint32_t nowMs);

    SlbFlowSlots<4> m_v4;        //!< IPv4 flows
    SlbFlowSlots<16> m_v6;       //!< IPv6 flows
    uint32_t m_idleMs{240000};   //!< idle timeout
    uint32_t m_closingMs{10000}; //!< idle timeout after a FIN
    uint32_t m_maxFlows{0};      //!< 0 = unbounded
    uint32_t m_lastSweepMs{0};   //!< when a full table was last swept
    bool m_swept{false};         //!< m_lastSweepMs is set
};

} // namespace ns3

#endif /* SLB_FLOW_TABLE_H */
