/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: per-flow equal-cost multipath selection (the next-hop group of one
 * prefix), in the two ways routers do it: hash modulo the number of next hops, and resilient
 * hashing over a fixed bucket table.
 */

#ifndef ADC_ECMP_GROUP_H
#define ADC_ECMP_GROUP_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The equal-cost next hops of one prefix and the per-flow choice among them.
 *
 * Pure logic, no simulator state: next hops are ids the caller gives meaning to, and a flow
 * is a 64-bit hash the caller computes (AdcHash::Flow of the 5-tuple with the router's seed).
 * A flow keeps its next hop for as long as the set does not change, in both modes:
 *
 * - MODULO (modulo-N, RFC 2991 section 4.2; RFC 2992's worst case): next hops kept sorted by
 *   id, the flow goes to hop[hash mod n]. When a next hop goes or comes, n changes and about
 *   (n-1)/n of all flows move.
 * - HASH_THRESHOLD (RFC 2992, what Linux's ordinary multipath routes and next-hop groups do:
 *   fib_select_multipath): the 31-bit hash space is cut into n regions of equal size (Linux's
 *   fib_rebalance: the upper bound of hop i is round((i+1) 2^31 / n) - 1, weights equal), the
 *   flow goes to the first hop whose upper bound is at least the top 31 bits of its hash. When
 *   a next hop goes, the regions are recomputed: its own flows move and so do some of its
 *   neighbours' (RFC 2992 section 4 analyses the disruption).
 * - RESILIENT (resilient hashing): a fixed table of B buckets, each owned by one next hop; the
 *   flow goes to the owner of bucket hash mod B. When a next hop goes, only its buckets get
 *   new owners (the hops with the fewest buckets first), so only its flows move; when one
 *   comes, it takes floor(B/n) buckets from the hops with the most at once. That is a Linux
 *   resilient next-hop group with idle_timer 0 (every bucket idle, so a rebalance migrates at
 *   once; Documentation/networking/nexthop-group-resilient.rst), or a switch ASIC's resilient
 *   hashing. Linux's default idle_timer of 120 s, which migrates only buckets idle that long
 *   when a hop comes, is not modelled.
 */
class AdcEcmpGroup
{
  public:
    /// How flows map to next hops.
    enum Mode : uint8_t
    {
        MODULO,        //!< hop[hash mod n]
        RESILIENT,     //!< owner of bucket hash mod B
        HASH_THRESHOLD //!< first hop whose region's upper bound >= hash's top 31 bits
    };

    /**
     * \param mode the mode
     * \param buckets B for RESILIENT (ignored for MODULO); at least 1
     */
    explicit AdcEcmpGroup(Mode mode = MODULO, uint32_t buckets = 256);

    /**
     * \brief Add a next hop (nothing happens when it is in the group already).
     * \param id the next hop's id
     */
    void Add(uint32_t id);

    /**
     * \brief Remove a next hop (nothing happens when it is not in the group).
     * \param id the next hop's id
     */
    void Remove(uint32_t id);

    /// \return true when \p id is in the group
    bool Contains(uint32_t id) const;

    /// \return the next hops' ids, sorted
    const std::vector<uint32_t>& GetHops() const;

    /// \return true when the group has no next hop
    bool IsEmpty() const;

    /**
     * \brief The next hop of a flow.
     * \param hash the flow's hash
     * \return its next hop's id (the group must not be empty)
     */
    uint32_t Select(uint64_t hash) const;

    /// \return the mode
    Mode GetMode() const;

    /// \return "MODULO", "RESILIENT" or "HASH_THRESHOLD"
    static std::string ModeName(Mode m);

    /**
     * \brief Buckets owned per next hop (RESILIENT; empty for MODULO).
     * \return (id, buckets) in the order of GetHops()
     */
    std::vector<std::pair<uint32_t, uint32_t>> GetBucketCounts() const;

  private:
    /// Give the buckets of no owner (kNone) to the hops with the fewest.
    void FillOrphans();
    /// Rebalance after \p id joined: it takes floor(B/n) buckets from the hops with the most.
    void TakeShare(uint32_t id);

    static constexpr uint32_t kNone = 0xffffffffu; //!< a bucket with no owner

    Mode m_mode;                    //!< the mode
    std::vector<uint32_t> m_hops;   //!< next hops, sorted by id
    std::vector<uint32_t> m_bucket; //!< RESILIENT: owner of each bucket
};

} // namespace ns3

#endif /* ADC_ECMP_GROUP_H */
