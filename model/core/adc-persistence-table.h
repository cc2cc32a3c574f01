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
#include <memory>
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
 * Every operation taking \c now first purges the entries that expired by then. Storage is
 * flat (issue 13 memory target: at most 96 bytes per IPv4 SOURCEIP entry with the table's
 * overhead; about 72 at 100,000 entries):
 * - entries live densely in 64-byte records, in chunks of 4096 records (the first chunk grows
 *   from 8 records by doubling and, alone, halves when a quarter full, so small tables stay
 *   small; a full chunk is released once half the one before it is free); a record holds
 *   its key's bytes inline up to 32 bytes (SOURCEIP keys are at most 18, SSL session ids at
 *   most 32), longer keys (cookies) in their own heap block; removing an entry moves the last
 *   record into the hole, so storage stays dense;
 * - a hash index of 4-byte slots (open addressing, linear probing, backward-shift deletion,
 *   power-of-two size, load at most 0.8) maps keys to records; the record caches its hash;
 * - expiry: one FIFO list per distinct timeout value (a "timeout class"; classes are made on
 *   demand and expected to be few). Time never goes backwards and an entry expires at its
 *   refresh time plus its class's timeout, so each list is ordered by expiry: an insert or a
 *   hit moves the entry to its list's tail, and a purge repeatedly takes the list head that
 *   expires first (ties: the lower class slot). A purge costs O(expired x classes) and never
 *   scans the entries; with one timeout, entries with equal expiry leave in insertion (refresh)
 *   order, so traces are deterministic.
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

    /// One live entry, as a `show ... persistentSessions` lists it.
    struct EntryView
    {
        AdcPersistenceKey key; //!< the key
        uint32_t target;       //!< the target
        Time expiry;           //!< when it expires unless refreshed
        Time timeout;          //!< its timeout
    };

    /**
     * \brief The live entries (expired ones purged first), in storage order.
     * \param now current time
     * \return the entries
     */
    std::vector<EntryView> GetEntries(Time now);

    /// \brief Remove every entry (`clear lb persistentSessions`); nothing is traced.
    void Clear();

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
     * containers' actual sizes (a linear pass over the entries for their long keys):
     * - the record chunks: each one heap block of its records (64 bytes each; 4096 per full
     *   chunk, the first chunk from 8 up to 4096), plus the array of chunk pointers;
     * - the hash index: one block of 4-byte slots;
     * - the keys longer than 32 bytes: one block of their length each;
     * - the timeout-class array: one block of its capacity;
     * - the three container objects themselves (the fixed table overhead).
     * Every heap block is rounded as 64-bit glibc malloc does: request + 8 bytes of chunk
     * header, up to a multiple of 16, at least 32; blocks of 128 KiB or more (glibc's default
     * mmap threshold; full chunks are 256 KiB) are mapped: that size plus the header, up to a
     * multiple of 4096. Purges nothing (expired entries not yet purged are counted: they hold
     * memory).
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
    /// One entry's record (64 bytes; defined in the .cc file).
    struct Entry;

    /// The entries of one timeout value, in expiry order (a FIFO list through the records).
    struct TimeoutClass
    {
        int64_t timeout; //!< the timeout, in time steps
        uint32_t head;   //!< first record to expire, or kNil
        uint32_t tail;   //!< last record to expire, or kNil
    };

    static constexpr uint32_t kNil = 0xffffffffU;    //!< no record
    static constexpr uint32_t kChunkShift = 12;      //!< log2 of records per full chunk
    static constexpr uint32_t kChunkSize = 1U << 12; //!< records per full chunk
    static constexpr uint32_t kFirstChunkSize = 8;   //!< records of the first chunk at first

    /// \param i record index \return the record
    Entry& At(uint32_t i) const;
    /// \param key a key \return its 32-bit hash (the table's seed)
    uint32_t HashOf(const AdcPersistenceKey& key) const;
    /// \param key a key \param hash its hash \return its record index, or kNil
    uint32_t Find(const AdcPersistenceKey& key, uint32_t hash) const;
    /// \param i a record index \return the index slot that points at it
    uint32_t SlotOf(uint32_t i) const;
    /// \param timeout a timeout in time steps \return its class (made on demand)
    uint16_t ClassOf(int64_t timeout);
    /// \param i a record: unlink it from its class's list
    void Unlink(uint32_t i);
    /// \param i a record: append it to its class's list
    void LinkTail(uint32_t i);
    /// \return the record that expires first (ties: lower class), or kNil when empty
    uint32_t FirstToExpire() const;
    /// \param capacity new number of index slots (a power of two): rebuild the index
    void Rehash(uint32_t capacity);
    /// \return a new record at index m_count (storage grown as needed; m_count incremented)
    uint32_t Append();
    /// \param i a record to remove from the index, its list and storage
    void Erase(uint32_t i);
    /// \param i a record \return its key
    AdcPersistenceKey KeyOf(uint32_t i) const;
    /// \param request bytes asked of malloc \return the bytes glibc takes for them
    static std::size_t MallocBlock(std::size_t request);

    Time m_timeout;          //!< "Timeout"
    uint32_t m_maxEntries;   //!< "MaxEntries"
    OverflowPolicy m_policy; //!< "OverflowPolicy"

    AdcPersistenceKeyHasher m_hasher;               //!< key hashing (default seed)
    std::vector<std::unique_ptr<Entry[]>> m_chunks; //!< record storage
    uint32_t m_firstChunkSize{0};                   //!< records the first chunk holds
    uint32_t m_count{0};                            //!< records in use (indexes 0..m_count-1)
    std::vector<uint32_t> m_slots;                  //!< hash index: record index + 1, 0 = empty
    std::vector<TimeoutClass> m_classes;            //!< timeout classes
    uint16_t m_lastClass{0}; //!< class of the last insert (a lookup shortcut)

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
