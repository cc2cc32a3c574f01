/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the Maglev consistent-hashing lookup table
 * (Eisenbud et al., "Maglev: A Fast and Reliable Software Network Load Balancer", NSDI 2016).
 */

#ifndef ADC_MAGLEV_TABLE_H
#define ADC_MAGLEV_TABLE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Maglev lookup table: M slots (M prime), each owned by one back-end id.
 *
 * Pure logic, no simulator state. Population follows the paper's Pseudocode 1: back-end i
 * owns the permutation permutation[i][j] = (offset_i + j * skip_i) mod M and, taking turns,
 * each back-end claims the next slot of its permutation that is still free, until all M
 * slots are owned.
 *
 * Weights (an extension; with all weights equal it is exactly the paper's algorithm): each
 * back-end keeps a credit that grows by its weight every round; when the credit reaches the
 * largest weight wmax the back-end takes its turn and the credit drops by wmax. So in round r
 * (from 0) back-end i claims floor((r+1) w_i / wmax) - floor(r w_i / wmax) slots (0 or 1), and
 * over many rounds the shares are proportional to the weights. The back-end with the largest
 * weight claims a slot every round, which guarantees progress.
 */
class AdcMaglevTable
{
  public:
    /// One back-end as the table sees it.
    struct Entry
    {
        uint64_t offset{0}; //!< first slot of its permutation (taken mod M)
        uint64_t skip{1};   //!< permutation step, must not be 0 mod M
        uint32_t weight{1}; //!< relative share, >= 1
        uint32_t id{0};     //!< value stored in the slots it owns
    };

    /**
     * \param size the table size M; must be prime (AdcConfigError otherwise)
     */
    explicit AdcMaglevTable(uint32_t size = 65537);

    /**
     * \brief Deterministic primality test (Miller-Rabin with bases valid for all 64-bit n).
     * \param n the number
     * \return true when n is prime
     */
    static bool IsPrime(uint64_t n);

    /**
     * \brief Populate the table over \p backends (all slots -1 when it is empty).
     * \param backends the back-ends, in turn order; weight 0 or skip 0 mod M is an
     *        AdcConfigError
     */
    void Build(const std::vector<Entry>& backends);

    /**
     * \brief The entry of a named back-end: offset = h1(name) mod M,
     *        skip = h2(name) mod (M - 1) + 1, with two independently seeded string hashes.
     * \param name the back-end's identity
     * \param weight its weight
     * \param id the id stored in its slots
     * \param seed the per-device seed
     * \return the entry
     */
    Entry MakeEntry(const std::string& name, uint32_t weight, uint32_t id, uint64_t seed) const;

    /**
     * \brief Populate the table over named back-ends; back-end i gets id i.
     * \param names identities, one per back-end
     * \param weights weights, same length as \p names (empty means all 1)
     * \param seed the per-device seed
     */
    void BuildFromNames(const std::vector<std::string>& names,
                        const std::vector<uint32_t>& weights,
                        uint64_t seed);

    /**
     * \param hash a flow's hash
     * \return the id owning slot hash mod M, or -1 when the table is empty
     */
    int32_t Lookup(uint64_t hash) const;

    /// \return the slots (id per slot, -1 when empty)
    const std::vector<int32_t>& GetTable() const;

    /// \return the table size M
    uint32_t GetSize() const;

  private:
    uint32_t m_size;              //!< M
    std::vector<int32_t> m_table; //!< slot -> id
};

} // namespace ns3

#endif /* ADC_MAGLEV_TABLE_H */
