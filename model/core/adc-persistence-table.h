/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the persistence (stickiness) table of a virtual server: NetScaler
 * SOURCEIP, COOKIEINSERT and SSLSESSION persistence, and ILB sticky sessions with a prefix mask.
 */

#ifndef ADC_PERSISTENCE_TABLE_H
#define ADC_PERSISTENCE_TABLE_H

#include "adc-flow-key.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Persistence types (NetScaler names).
 */
enum class AdcPersistenceType : uint8_t
{
    NONE = 0,         //!< no persistence
    SOURCEIP = 1,     //!< by client source address (optionally masked to a prefix)
    COOKIEINSERT = 2, //!< by a cookie the appliance inserts in the first response
    SSLSESSION = 3    //!< by SSL/TLS session id
};

/// \param t a type \return "NONE", "SOURCEIP", "COOKIEINSERT" or "SSLSESSION"
std::string AdcPersistenceTypeToString(AdcPersistenceType t);

/**
 * \param name a type name (case-insensitive)
 * \return the type
 * \throws AdcConfigError listing the allowed names when \p name is not one of them
 */
AdcPersistenceType AdcPersistenceTypeFromString(const std::string& name);

std::ostream& operator<<(std::ostream& os, AdcPersistenceType t);

/**
 * \ingroup adc
 * \brief The key of a persistence entry: its type and the identifying bytes.
 *
 * Build keys with the factories so that equal clients give equal bytes.
 */
struct AdcPersistenceKey
{
    AdcPersistenceType type{AdcPersistenceType::NONE}; //!< persistence type
    std::string bytes; //!< identifying bytes (binary; not necessarily printable)

    /**
     * \brief Key of a client address, masked to \p prefixLength bits (ILB sticky persistence
     * uses a prefix mask so that clients of one network share a back-end).
     * \param addr client address
     * \param prefixLength bits kept; values past the address length (32 or 128) keep all
     * \return the key; it encodes family, effective prefix length and masked address
     */
    static AdcPersistenceKey FromSourceIp(const AdcIpAddress& addr, uint8_t prefixLength = 128);

    /// \param value cookie value \return the COOKIEINSERT key
    static AdcPersistenceKey FromCookie(const std::string& value);

    /// \param id SSL session id bytes \return the SSLSESSION key
    static AdcPersistenceKey FromSslSessionId(const std::vector<uint8_t>& id);

    /// \param id SSL session id bytes held in a string \return the SSLSESSION key
    static AdcPersistenceKey FromSslSessionId(const std::string& id);

    /// \return e.g. "SOURCEIP 10.1.2.0/24", "COOKIEINSERT abc", "SSLSESSION 0a1b..."
    std::string ToString() const;

    friend bool operator==(const AdcPersistenceKey& a, const AdcPersistenceKey& b);
    friend bool operator!=(const AdcPersistenceKey& a, const AdcPersistenceKey& b);
};

std::ostream& operator<<(std::ostream& os, const AdcPersistenceKey& k);

/**
 * \ingroup adc
 * \brief Functor for unordered containers keyed by AdcPersistenceKey, with a per-table seed.
 */
struct AdcPersistenceKeyHasher
{
    uint64_t seed{0x9e3779b97f4a7c15ULL}; //!< the table's seed

    /// \return hash of \p k
    std::size_t operator()(const AdcPersistenceKey& k) const;
};

/**
 * \ingroup adc
 * \brief Persistence table: key -> target (a back-end or virtual-server index) with expiry.
 *
 * Expiry semantics: an entry inserted or refreshed at time t with timeout T expires at t + T
 * and is gone for any operation with now >= t + T (so it is still found at t + T - 1 ns).
 * A hit refreshes the expiry to now + the entry's own timeout.
 *
 * Every operation taking \c now first purges the entries that expired by then. Entries are
 * indexed by a hash map for lookup and by an expiry-ordered multimap, so a purge costs
 * O(expired log n) and never scans the table; entries with equal expiry leave in insertion
 * order, so traces are deterministic.
 *
 * Operations take an explicit time (callers pass Simulator::Now()) so the table is pure and
 * quick to test; time must not go backwards between calls.
 */
class AdcPersistenceTable : public Object
{
  public:
    /// What an insert does when the table is full.
    enum OverflowPolicy
    {
        REJECT = 0,      //!< no new entry; the caller falls back to its LB decision
        EVICT_OLDEST = 1 //!< evict the entry that expires first, then insert
    };

    /// \return the TypeId
    static TypeId GetTypeId();

    AdcPersistenceTable();
    ~AdcPersistenceTable() override;

    /**
     * \brief Signature of "Overflow".
     * \param key the key that could not be inserted as is
     * \param policy the policy applied (REJECT: not inserted; EVICT_OLDEST: inserted after an
     * eviction)
     */
    typedef void (*OverflowTracedCallback)(const AdcPersistenceKey& key, OverflowPolicy policy);

    /**
     * \brief Signature of "Expired", "Evicted" and "Hit".
     * \param key the entry's key
     * \param target the entry's target
     */
    typedef void (*EntryTracedCallback)(const AdcPersistenceKey& key, uint32_t target);

    /**
     * \brief Signature of "Miss".
     * \param key the key looked up
     */
    typedef void (*KeyTracedCallback)(const AdcPersistenceKey& key);

    /**
     * \brief Look \p key up.
     * \param key the key
     * \param now current time
     * \return the target when an unexpired entry exists (its expiry is refreshed), else nullopt
     */
    std::optional<uint32_t> Lookup(const AdcPersistenceKey& key, Time now);

    /**
     * \brief Insert or update an entry.
     * \param key the key
     * \param target the target
     * \param now current time
     * \param timeout the entry's timeout; negative means the table's "Timeout"
     * \return false when the table is full and the policy is REJECT
     */
    bool Insert(const AdcPersistenceKey& key, uint32_t target, Time now, Time timeout = Time(-1));

    /// \param key the key to remove (no effect when absent)
    void Remove(const AdcPersistenceKey& key);

    /**
     * \brief Remove every entry pointing at \p target (e.g. a removed back-end).
     * \param target the target
     * \return number of entries removed
     */
    uint32_t RemoveTarget(uint32_t target);

    /// \param now current time \return number of unexpired entries
    uint32_t GetSize(Time now);

    /// \param now current time: remove (and trace) every entry expired by then
    void Purge(Time now);

    /// \return successful lookups
    uint64_t GetHits() const;
    /// \return failed lookups (absent or expired)
    uint64_t GetMisses() const;
    /// \return entries created
    uint64_t GetInserts() const;
    /// \return inserts that updated an existing entry
    uint64_t GetUpdates() const;
    /// \return entries removed by expiry
    uint64_t GetExpirations() const;
    /// \return inserts that met a full table (rejected or evicting)
    uint64_t GetOverflows() const;
    /// \return entries evicted by EVICT_OLDEST
    uint64_t GetEvictions() const;

    /**
     * \brief The heap memory the table's entries and indexes hold now, counted from the
     * containers' actual sizes (a linear pass over the entries for their key bytes):
     * - the hash map's bucket array: bucket_count() pointers, one allocation;
     * - one hash-map node per entry: a next pointer, the (key, record) pair and the cached
     *   hash code (libstdc++ caches it for this hasher, whose call is not noexcept);
     * - one expiry-index node per entry: a red-black tree node (colour and three links, four
     *   pointers' worth) and its (expiry, entry pointer) pair;
     * - a key's bytes when they do not fit in the string object itself (no small-string
     *   optimisation for them: a heap block of capacity + 1);
     * - the two container objects themselves (the fixed table overhead).
     * Every heap block is rounded as 64-bit glibc malloc does: request + 8 bytes of chunk
     * header, up to a multiple of 16, at least 32. Purges nothing (expired entries not yet
     * purged are counted: they hold memory).
     * \return bytes
     */
    std::size_t GetAllocatedBytes() const;

    /**
     * \brief GetAllocatedBytes divided by the entries held, rounded up (the memory of one
     * entry with the table's overhead); with no entries, GetAllocatedBytes.
     * \return bytes per entry
     */
    std::size_t GetBytesPerEntry() const;

    /**
     * \brief Check that persistence \p type may be used on a virtual server of service type
     * \p serviceType (NetScaler's support matrix).
     *
     * Known service types: HTTP HTTPS TCP UDP SSL_BRIDGE SSL_TCP RTSP SIP_UDP ANY ("UDP/IP" is
     * taken as UDP; names are case-insensitive). SOURCEIP: HTTP HTTPS TCP UDP SSL_BRIDGE
     * SSL_TCP; COOKIEINSERT: HTTP HTTPS; SSLSESSION: HTTPS SSL_BRIDGE SSL_TCP; NONE: all.
     * \param type persistence type
     * \param serviceType service type name
     * \throws AdcConfigError naming the type, the service type and the allowed service types,
     * or listing the known service types when \p serviceType is unknown
     */
    static void CheckSupported(AdcPersistenceType type, const std::string& serviceType);

  private:
    struct Record;
    /// a hash-map node's value; its address is stable while the entry exists
    using Node = std::pair<const AdcPersistenceKey, Record>;
    /// expiry-ordered index
    using ExpiryIndex = std::multimap<Time, Node*>;

    /// What the hash map holds for a key.
    struct Record
    {
        uint32_t target;             //!< target
        Time timeout;                //!< this entry's timeout
        ExpiryIndex::iterator where; //!< its place in the expiry index
    };

    using Map = std::unordered_map<AdcPersistenceKey, Record, AdcPersistenceKeyHasher>;

    /// \param node an entry \param expiry its new expiry: (re)file it in the expiry index
    void Schedule(Node* node, Time expiry);
    /// \param it an entry to remove from both indexes
    void Erase(Map::iterator it);

    Time m_timeout;          //!< "Timeout"
    uint32_t m_maxEntries;   //!< "MaxEntries"
    OverflowPolicy m_policy; //!< "OverflowPolicy"
    Map m_map;               //!< key -> record
    ExpiryIndex m_expiry;    //!< expiry -> entry

    uint64_t m_hits{0};        //!< counter
    uint64_t m_misses{0};      //!< counter
    uint64_t m_inserts{0};     //!< counter
    uint64_t m_updates{0};     //!< counter
    uint64_t m_expirations{0}; //!< counter
    uint64_t m_overflows{0};   //!< counter
    uint64_t m_evictions{0};   //!< counter

    TracedCallback<const AdcPersistenceKey&, OverflowPolicy> m_overflowTrace; //!< "Overflow"
    TracedCallback<const AdcPersistenceKey&, uint32_t> m_expiredTrace;        //!< "Expired"
    TracedCallback<const AdcPersistenceKey&, uint32_t> m_evictedTrace;        //!< "Evicted"
    TracedCallback<const AdcPersistenceKey&, uint32_t> m_hitTrace;            //!< "Hit"
    TracedCallback<const AdcPersistenceKey&> m_missTrace;                     //!< "Miss"
};

} // namespace ns3

#endif /* ADC_PERSISTENCE_TABLE_H */
