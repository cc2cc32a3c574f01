/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc ILB (seed 001): illumos's own load-balancing algorithms with their server-set
 * state, as usr/src/uts/common/inet/ilb/ilb_alg_rr.c and ilb_alg_hash.c keep it: a server
 * added, deleted, enabled or disabled changes that state exactly as there.
 */

#ifndef ILB_ALGORITHM_H
#define ILB_ALGORITHM_H

#include "ns3/adc-flow-key.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief One rule's illumos algorithm (ilb_alg_data_t): roundrobin, hash-ip, hash-ip-port or
 * hash-ip-vip, over server indices of the rule.
 *
 * Round robin (ilb_alg_rr.c): a list, rr_server_add inserting at its head, so servers added
 * 0, 1, 2 are listed 2, 1, 0 and the first flow goes to the last one added; rr_lb starts at
 * rr_next (the head when NULL), skips disabled servers, returns the first enabled one and
 * sets rr_next to the one after it (NULL after the tail); rr_server_del moves rr_next on when
 * it pointed at the server deleted. Enable and disable only flip the server's flag.
 *
 * Hash (ilb_alg_hash.c): hash_tbl, every server in the order added, and hash_enabled_tbl, the
 * enabled ones; hash_lb takes hash_tbl[crc % servers] when enabled, else
 * hash_enabled_tbl[crc % enabled]. del_server shifts the servers after the deleted one down, in
 * both tables, so the modulus shrinks and most flows move; hash_server_add appends (to both
 * tables when enabled); hash_server_enable appends to the enabled table; hash_server_disable
 * deletes from it. Weights are ignored, as illumos has none.
 */
class IlbAlgorithm
{
  public:
    /// illumos's ilb_algo_impl_t values.
    enum Kind : uint8_t
    {
        ROUNDROBIN,   //!< ILB_ALG_IMPL_ROUNDROBIN
        HASH_IP,      //!< ILB_ALG_IMPL_HASH_IP
        HASH_IP_PORT, //!< ILB_ALG_IMPL_HASH_IP_SPORT
        HASH_IP_VIP   //!< ILB_ALG_IMPL_HASH_IP_VIP
    };

    /**
     * \param canonical a method's canonical name (ROUNDROBIN, ILBHASHIP, ILBHASHIPPORT,
     *        ILBHASHIPVIP)
     * \param[out] kind the algorithm
     * \return false when the method is not one of illumos's (the model's own alternatives)
     */
    static bool FromCanonical(const std::string& canonical, Kind& kind);

    /// \param kind the algorithm
    explicit IlbAlgorithm(Kind kind);

    /// \return the algorithm
    Kind GetKind() const;
    /// rr_server_add / hash_server_add. \param server index \param enabled iser_enabled
    void AddServer(uint32_t server, bool enabled);
    /// rr_server_del / hash_server_del. \param server index \return false (EINVAL) if unknown
    bool DelServer(uint32_t server);
    /// rr_server_enable / hash_server_enable. \param server index \return false if unknown
    bool EnableServer(uint32_t server);
    /// rr_server_disable / hash_server_disable. \param server index \return false if unknown
    bool DisableServer(uint32_t server);
    /// rr_lb / hash_lb. \param flow client -> VIP 5-tuple \return server index, or -1 (B_FALSE)
    int32_t Select(const AdcFlowKey& flow);

    /// \return the servers in list order (rr: head first) or hash_tbl order
    std::vector<uint32_t> GetOrder() const;
    /// \return hash_enabled_tbl (hash), or the enabled servers in list order (rr)
    std::vector<uint32_t> GetEnabled() const;
    /// \return rr_next's server, or -1 when NULL (round robin only)
    int32_t GetRrNext() const;

  private:
    /// A server in the list or hash_tbl (rr_server_t, hash_server_t).
    struct Slot
    {
        uint32_t server; //!< server index
        bool enabled;    //!< enabled flag
    };

    /// \param server index \return its position in m_slots, or -1
    int32_t Find(uint32_t server) const;

    Kind m_kind;                     //!< the algorithm
    std::vector<Slot> m_slots;       //!< rr_servers (head first) or hash_tbl
    std::vector<uint32_t> m_enabled; //!< hash_enabled_tbl
    int32_t m_rrNext{-1};            //!< rr_next's server, -1 = NULL
};

} // namespace ns3

#endif /* ILB_ALGORITHM_H */
