/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the connection / NAT table of a load balancer or proxy. It maps a
 * connection's client-side key to its server-side (translated) key and back, for Half-NAT and
 * Full-NAT (Solaris ILB) and for proxies that keep per-connection state.
 */

#ifndef ADC_CONNECTION_TABLE_H
#define ADC_CONNECTION_TABLE_H

#include "adc-flow-key.h"
#include "adc-timeout-class.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <list>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Connection / NAT table with per-protocol idle timeouts.
 *
 * Each entry is indexed twice: by its original key (the client's packet as it arrives, e.g.
 * client:port -> VIP:80) and by its reply key (the server's packet as it arrives, i.e.
 * translated.Reversed(), e.g. server:8080 -> NATsrc:port). Entries live in per-protocol LRU
 * lists (TCP, UDP, other) ordered by lastSeen: a touch splices the entry to the back, so a
 * purge only looks at list fronts and costs O(expired). Nothing is ever decided by iterating
 * the hash maps.
 *
 * Idle semantics: an entry last seen at t with protocol idle timeout T is expired for any
 * operation with now - t > T (it is still alive at exactly t + T). Lookups and inserts purge
 * first, so the table never returns an idle entry. Time must not go backwards between calls.
 */
class AdcConnectionTable : public Object
{
  public:
    /// One connection.
    struct Entry
    {
        AdcFlowKey original;   //!< client-side key, as the client's packets arrive
        AdcFlowKey translated; //!< server-side key, as the packets are sent to the server
        uint32_t backend{0};   //!< back-end index
        Time lastSeen;         //!< last time a packet of the connection was seen
    };

    /// \return the TypeId
    static TypeId GetTypeId();

    AdcConnectionTable();
    ~AdcConnectionTable() override;

    /**
     * \brief Signature of "EntryCreated", "EntryExpired" and "EntryRemoved".
     * \param entry the entry
     */
    typedef void (*EntryTracedCallback)(const Entry& entry);

    /**
     * \brief Signature of "Overflow".
     * \param original the key that could not be inserted
     */
    typedef void (*KeyTracedCallback)(const AdcFlowKey& original);

    /**
     * \brief Signature of "Collision".
     * \param original the key that could not be inserted
     * \param translated its translated key, whose reply key another entry already holds
     */
    typedef void (*CollisionTracedCallback)(const AdcFlowKey& original,
                                            const AdcFlowKey& translated);

    /**
     * \brief Insert a connection.
     * \param original client-side key
     * \param translated server-side key
     * \param backend back-end index
     * \param now current time
     * \return the new entry; the existing one (refreshed, otherwise unchanged) when
     * \p original is present; nullptr when the table is full ("Overflow" fires) or when
     * another entry already has the reply key translated.Reversed() ("Collision" fires).
     * The pointer stays valid until the entry is removed or expires.
     */
    Entry* Insert(const AdcFlowKey& original,
                  const AdcFlowKey& translated,
                  uint32_t backend,
                  Time now);

    /**
     * \param k a client-side key, as the packet arrives
     * \param now current time
     * \return the entry (lastSeen refreshed), or nullptr when absent or idle
     */
    Entry* LookupOriginal(const AdcFlowKey& k, Time now);

    /**
     * \param k a server-side key, as the packet arrives from the server (translated.Reversed())
     * \param now current time
     * \return the entry (lastSeen refreshed), or nullptr when absent or idle
     */
    Entry* LookupReply(const AdcFlowKey& k, Time now);

    /// \param original the client-side key of the entry to remove (no effect when absent)
    void Remove(const AdcFlowKey& original);

    /**
     * \brief Remove every entry of \p backend ("EntryRemoved" fires for each, in LRU order,
     * TCP entries first, then UDP, then other protocols).
     * \param backend back-end index
     * \return number of entries removed
     */
    uint32_t RemoveBackend(uint32_t backend);

    /// \param now current time: remove (and trace) every idle entry
    void Purge(Time now);

    /// \return number of entries (idle ones not yet purged included)
    uint32_t GetSize() const;

    /// \param backend back-end index \return its number of entries (kept incrementally)
    uint32_t CountBackend(uint32_t backend) const;

    /// \param protocol IP protocol number \return its idle timeout
    Time GetIdleTimeout(uint8_t protocol) const;

    /**
     * \brief Bytes of memory per entry, estimated honestly for libstdc++ and glibc malloc:
     * the list node, one node in each of the two hash maps (cached hash code included), the
     * bucket pointers at the maps' current load, and malloc's per-chunk header and rounding.
     * \return the estimate
     */
    std::size_t GetBytesPerEntryEstimate() const;

    /// \return entries created
    uint64_t GetCreatedCount() const;
    /// \return entries expired
    uint64_t GetExpiredCount() const;
    /// \return entries removed by Remove or RemoveBackend
    uint64_t GetRemovedCount() const;
    /// \return inserts refused because the table was full
    uint64_t GetOverflowCount() const;
    /// \return inserts refused because the reply key was taken
    uint64_t GetCollisionCount() const;

  private:
    using LruClass = AdcTimeoutClass::Value; //!< LRU list classes

    using List = std::list<Entry>;
    using Index = std::unordered_map<AdcFlowKey, List::iterator, AdcFlowKeyHasher>;

    /// \param c LRU class \return its idle timeout
    Time TimeoutOf(LruClass c) const;
    /// \param index the index to search \param k key \param now time \return entry or nullptr
    Entry* Lookup(const Index& index, const AdcFlowKey& k, Time now);
    /// \param it entry to drop from lists, indexes and counters
    void Erase(List::iterator it);

    Time m_tcpTimeout;     //!< "TcpIdleTimeout"
    Time m_udpTimeout;     //!< "UdpIdleTimeout"
    Time m_otherTimeout;   //!< "OtherIdleTimeout"
    uint32_t m_maxEntries; //!< "MaxEntries"

    std::array<List, AdcTimeoutClass::COUNT> m_lru;        //!< entries, oldest first
    Index m_byOriginal;                                    //!< original key -> entry
    Index m_byReply;                                       //!< reply key -> entry
    std::unordered_map<uint32_t, uint32_t> m_backendCount; //!< entries per back-end

    uint64_t m_created{0};    //!< counter
    uint64_t m_expired{0};    //!< counter
    uint64_t m_removed{0};    //!< counter
    uint64_t m_overflows{0};  //!< counter
    uint64_t m_collisions{0}; //!< counter

    TracedCallback<const Entry&> m_createdTrace;                           //!< "EntryCreated"
    TracedCallback<const Entry&> m_expiredTrace;                           //!< "EntryExpired"
    TracedCallback<const Entry&> m_removedTrace;                           //!< "EntryRemoved"
    TracedCallback<const AdcFlowKey&> m_overflowTrace;                     //!< "Overflow"
    TracedCallback<const AdcFlowKey&, const AdcFlowKey&> m_collisionTrace; //!< "Collision"
};

} // namespace ns3

#endif /* ADC_CONNECTION_TABLE_H */
