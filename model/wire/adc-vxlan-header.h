/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: the VXLAN header (RFC 7348), real on the wire so that pcaps of
 * the SLB MUX to host tunnel decode as VXLAN in Wireshark.
 */

#ifndef ADC_VXLAN_HEADER_H
#define ADC_VXLAN_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/// \ingroup adc
/// UDP destination port of VXLAN (IANA, RFC 7348 section 5).
constexpr uint16_t kVxlanPort = 4789;

/// \ingroup adc
/// Bytes VXLAN adds over an IPv4 outer network: outer IPv4 (20) + UDP (8) + VXLAN (8) + the
/// inner Ethernet header (14). Clamp the inner TCP MSS by this or raise the provider MTU.
constexpr uint32_t kVxlanOverheadIpv4 = 50;

/**
 * \ingroup adc
 * \brief The outer UDP source port of a VXLAN packet.
 *
 * RFC 7348 section 5 recommends a hash of the inner packet's headers as the outer source port,
 * in the dynamic/private range 49152-65535, so that ECMP and RSS spread the tunnels' flows.
 * Every bit of \p innerFlowHash takes part: its high half is folded into the low half, then a
 * multiplicative (Fibonacci) hash keeps the top 14 bits of the product.
 *
 * \param innerFlowHash a hash of the inner flow (e.g. its 5-tuple hash)
 * \return a port in 49152..65535
 */
uint16_t AdcVxlanSourcePort(uint64_t innerFlowHash);

/**
 * \ingroup adc
 * \brief The 8-byte VXLAN header (RFC 7348 section 5).
 *
 * Wire layout (bytes): 0 flags (0x08, the I flag: the VNI is valid; the other bits are
 * reserved), 1-3 reserved (zero), 4-6 the 24-bit VNI in network order, 7 reserved (zero). The
 * VNI is the high three bytes of the second 32-bit word, not its low 24 bits: a public ns-3
 * VxlanHeader writes it unshifted, which Wireshark reads as another VNI.
 *
 * On receipt the reserved bits and bytes are ignored (RFC 7348 section 5); a header without
 * the I flag is kept but marked invalid (IsVniValid() false), so that the receiver drops it
 * with a traced reason.
 */
class AdcVxlanHeader : public Header
{
  public:
    static constexpr uint32_t kSerializedSize = 8; //!< bytes on the wire
    static constexpr uint8_t kFlagI = 0x08;        //!< flags bit: the VNI is valid
    static constexpr uint32_t kMaxVni = 0xFFFFFF;  //!< 2^24 - 1

    /// A header with VNI 0 and the I flag set.
    AdcVxlanHeader();

    /**
     * \param vni the VXLAN network identifier (I flag set)
     * \throws AdcConfigError when \p vni is above kMaxVni
     */
    explicit AdcVxlanHeader(uint32_t vni);

    /**
     * \brief Register this type.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \brief Set the VNI and mark it valid (I flag).
     * \param vni 0..2^24-1
     * \throws AdcConfigError naming the VNI, its value and the range when \p vni is above
     *         kMaxVni
     */
    void SetVni(uint32_t vni);

    /// \return the VNI (0..2^24-1; meaningful only when IsVniValid())
    uint32_t GetVni() const;

    /// \return true when the I flag is set (a received header without it must be dropped)
    bool IsVniValid() const;

  private:
    uint32_t m_vni{0};     //!< the 24-bit VNI
    bool m_vniValid{true}; //!< the I flag
};

} // namespace ns3

#endif /* ADC_VXLAN_HEADER_H */
