/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc cache redirection (CRD): the object store of a cache server, a byte-capacity cache
 * of objects keyed by URL with an LRU, FIFO or LFU replacement policy.
 */

#ifndef CRD_CACHE_STORE_H
#define CRD_CACHE_STORE_H

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The object store of a cache server: objects (keyed by URL) with their sizes in bytes,
 * under a byte capacity, with a replacement policy.
 *
 * Pure logic: no sockets, no events, no time. Every insert and every hit takes a fresh value
 * of an internal use counter (a "tick"), so recency ties never happen and every decision is
 * deterministic (the hash map is never iterated to decide anything).
 *
 * Policies:
 * - LRU evicts the object used least recently (an insert or a hit is a use).
 * - FIFO evicts the object inserted first; hits do not move it. A re-insert of a key stores
 *   a new copy, which goes to the back of the queue.
 * - LFU evicts the object with the fewest uses (its insert counts as one, each hit and
 *   re-insert adds one); ties go to the one used least recently.
 *
 * Admission: an object larger than Capacity, or than MaxObjectSize when that is not 0, is not
 * admitted (the "Reject" trace gives the reason) and nothing is evicted for it. Otherwise the
 * store evicts per policy until the object fits. Re-inserting a key replaces its size; its old
 * bytes are released first, so only other objects are evicted to make room. A rejected
 * re-insert removes the old copy, which is stale.
 *
 * Invariant: GetUsedBytes() <= GetCapacity() after every operation (lowering Capacity evicts).
 * LRU and FIFO cost O(1) amortised per operation, LFU O(log n).
 */
class CrdCacheStore : public Object
{
  public:
    /// Replacement policy.
    enum Policy
    {
        LRU = 0,  //!< least recently used
        FIFO = 1, //!< first in, first out
        LFU = 2   //!< least frequently used, ties by least recently used
    };

    /// \return the TypeId
    static TypeId GetTypeId();

    CrdCacheStore();
    ~CrdCacheStore() override;

    /**
     * \brief Signature of "Hit" and "Miss".
     * \param key the key looked up
     */
    typedef void (*KeyTracedCallback)(const std::string& key);

    /**
     * \brief Signature of "Evict".
     * \param key the evicted object's key
     * \param size its size in bytes
     */
    typedef void (*EvictTracedCallback)(const std::string& key, uint64_t size);

    /**
     * \brief Signature of "Reject".
     * \param key the key of the object not admitted
     * \param size its size in bytes
     * \param reason why it was not admitted
     */
    typedef void (*RejectTracedCallback)(const std::string& key,
                                         uint64_t size,
                                         const std::string& reason);

    /// \param p a policy \return "LRU", "FIFO" or "LFU"
    static std::string PolicyToString(Policy p);

    /**
     * \brief Look an object up; a hit counts as a use (recency and frequency).
     * \param key the URL
     * \return true on a hit
     */
    bool Lookup(const std::string& key);

    /**
     * \brief Store an object, evicting per policy until it fits.
     * \param key the URL
     * \param size its size in bytes
     * \return true when admitted; false when too large (the "Reject" trace says why)
     */
    bool Insert(const std::string& key, uint64_t size);

    /// \param key the URL \return true when stored (no side effects: no counters, no use)
    bool Contains(const std::string& key) const;

    /// \param key the URL \return its stored size in bytes, or 0 when not stored
    uint64_t GetObjectSize(const std::string& key) const;

    /// \brief Remove an object if stored (not an eviction: no trace, no counter).
    /// \param key the URL
    void Erase(const std::string& key);

    /// \brief Remove every object; the hit, miss, eviction and reject counters are kept.
    void Clear();

    /// \return bytes held by the stored objects
    uint64_t GetUsedBytes() const;
    /// \return the capacity in bytes
    uint64_t GetCapacity() const;
    /// \return the number of stored objects
    std::size_t GetNObjects() const;
    /// \return lookups that hit
    uint64_t GetHits() const;
    /// \return lookups that missed
    uint64_t GetMisses() const;
    /// \return objects evicted to make room
    uint64_t GetEvictions() const;
    /// \return inserts not admitted
    uint64_t GetRejects() const;
    /// \return hits / (hits + misses), or 0 before any lookup
    double GetHitRatio() const;

    /**
     * \brief Set the capacity; a lower capacity evicts per policy until the objects fit.
     * \param capacity bytes, > 0
     * \throws AdcConfigError when \p capacity is 0 (the capacity is then unchanged)
     */
    void SetCapacity(uint64_t capacity);

    /// \param policy the replacement policy (the eviction order is rebuilt from use history)
    void SetPolicy(Policy policy);
    /// \return the replacement policy
    Policy GetPolicy() const;

    /// \param maxObjectSize largest admitted object in bytes; 0 = no limit but Capacity
    void SetMaxObjectSize(uint64_t maxObjectSize);
    /// \return the largest admitted object in bytes (0 = no limit but Capacity)
    uint64_t GetMaxObjectSize() const;

  protected:
    void DoDispose() override;

  private:
    /// Eviction rank under LFU: (uses, tick of last use); unique because ticks are.
    typedef std::pair<uint64_t, uint64_t> LfuRank;

    /// A stored object.
    struct Entry
    {
        uint64_t size{0};       //!< bytes
        uint64_t insertTick{0}; //!< tick of the insert that stored this copy
        uint64_t useTick{0};    //!< tick of the last use (insert or hit)
        uint64_t uses{0};       //!< uses: the first insert, then every hit and re-insert
        std::list<const std::string*>::iterator queuePos; //!< place in m_queue (LRU, FIFO)
    };

    /// Objects by key. Node-based: the key addresses held by the indexes stay valid.
    typedef std::unordered_map<std::string, Entry> EntryMap;

    /// \param e an entry \return its LFU rank
    static LfuRank RankOf(const Entry& e);

    /// \param size object size \return why it cannot be admitted, or "" when it can
    std::string AdmissionFailure(uint64_t size) const;

    /// \brief Add a stored entry to the eviction index of the current policy.
    /// \param it the entry
    void Link(EntryMap::iterator it);
    /// \brief Remove an entry from the eviction index of the current policy.
    /// \param it the entry
    void Unlink(EntryMap::iterator it);
    /// \brief Unlink and erase an entry, releasing its bytes.
    /// \param it the entry
    void Remove(EntryMap::iterator it);
    /// \brief Record a use of an entry and move it in the eviction index.
    /// \param it the entry
    void Touch(EntryMap::iterator it);
    /// \brief Evict per policy until \p size more bytes fit (size <= capacity).
    /// \param size bytes to make room for
    void MakeRoom(uint64_t size);
    /// \brief Evict the policy's victim (the store must not be empty).
    void EvictOne();
    /// \brief Rebuild the eviction index for the current policy from the entries' history.
    void Rebuild();

    uint64_t m_capacity;      //!< capacity in bytes
    uint64_t m_maxObjectSize; //!< largest admitted object; 0 = no limit but capacity
    Policy m_policy;          //!< replacement policy

    EntryMap m_entries;                          //!< stored objects
    std::list<const std::string*> m_queue;       //!< LRU/FIFO order; front is the next victim
    std::map<LfuRank, const std::string*> m_lfu; //!< LFU order; begin is the next victim
    uint64_t m_usedBytes;                        //!< sum of the stored sizes
    uint64_t m_tick;                             //!< last tick handed out

    uint64_t m_hits;      //!< lookups that hit
    uint64_t m_misses;    //!< lookups that missed
    uint64_t m_evictions; //!< evictions
    uint64_t m_rejects;   //!< inserts not admitted

    TracedCallback<const std::string&> m_hitTrace;                                  //!< "Hit"
    TracedCallback<const std::string&> m_missTrace;                                 //!< "Miss"
    TracedCallback<const std::string&, uint64_t> m_evictTrace;                      //!< "Evict"
    TracedCallback<const std::string&, uint64_t, const std::string&> m_rejectTrace; //!< "Reject"
};

} // namespace ns3

#endif /* CRD_CACHE_STORE_H */
