/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: illumos ILB's own hash algorithms (uts/common/inet/ilb/ilb_alg_hash.c),
 * what ilbadm's hash-ip, hash-ip-port and hash-ip-vip compute on an illumos box.
 */

#ifndef ADC_ILB_HASH_LB_H
#define ADC_ILB_HASH_LB_H

#include "adc-lb-method.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief ILBHASHIP, ILBHASHIPPORT, ILBHASHIPVIP: illumos ILB's hash_lb (ilb_alg_hash.c).
 *
 * The key is 32 bits of the packet: the last 32 bits of the source address (an IPv4 address,
 * which illumos keeps v4-mapped, or the low word of an IPv6 one), XORed for IP_PORT with the
 * source port in both halves (val = addr ^ (port << 16) ^ port, both as they lie in the
 * packet) or for IP_VIP with the last 32 bits of the destination (the VIP). Its four bytes, in
 * memory order, go through CRC32(hash, &val, 4, -1U, crc32_table): the reflected polynomial
 * 0xEDB88320, initial value 0xFFFFFFFF and no final XOR (sys/crc32.h), i.e. the bitwise
 * complement of zlib's crc32 of the same bytes.
 *
 * Two tables, as illumos keeps them: every server in the order added (hash_tbl), and the
 * enabled ones (hash_enabled_tbl: a server enabled again goes to its end; a disabled one is
 * removed and the ones after it move up). A flow goes to hash_tbl[crc % servers] when that
 * server is enabled (here: up), otherwise to hash_enabled_tbl[crc % enabled servers]. So
 * while a server is disabled only its own flows move, and adding a server changes the modulus
 * and moves most flows (there is no consistent hashing on an illumos ILB). Weights are
 * ignored; no seed (the same flow maps alike on every ILB with the same server list).
 */
class AdcIlbHashLb : public AdcLbMethod
{
  public:
    /// What the hash covers.
    enum Mode
    {
        IP,      //!< source address (ILB_ALG_IMPL_HASH_IP, ilbadm hash-ip)
        IP_PORT, //!< source address and port (ILB_ALG_IMPL_HASH_IP_SPORT, hash-ip-port)
        IP_VIP   //!< source address and VIP (ILB_ALG_IMPL_HASH_IP_VIP, hash-ip-vip)
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcIlbHashLb();
    std::string GetMethodName() const override;
    /// \param mode what is hashed
    void SetMode(Mode mode);
    /// \return what is hashed
    Mode GetMode() const;

    /**
     * \brief illumos's CRC32 macro with start -1U over \p len bytes (no final XOR).
     * \param data bytes \param len their number \return the CRC
     */
    static uint32_t Crc32(const uint8_t* data, std::size_t len);
    /**
     * \param mode what is hashed \param flow client-side 5-tuple (src = client, dst = VIP)
     * \return the CRC hash_lb takes the modulus of
     */
    static uint32_t Hash(Mode mode, const AdcFlowKey& flow);
    /// \return the enabled servers (back-end indices) in illumos's hash_enabled_tbl order
    const std::vector<uint32_t>& GetEnabledTable() const;

  protected:
    int32_t DoSelect(const AdcLbContext& ctx) override;
    void BackendsChanged() override;

  private:
    Mode m_mode{IP};                 //!< what is hashed
    std::vector<uint32_t> m_enabled; //!< hash_enabled_tbl (back-end indices)
};

} // namespace ns3

#endif /* ADC_ILB_HASH_LB_H */
