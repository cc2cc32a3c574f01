/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_REDIRECT_MESSAGE_H
#define SLB_REDIRECT_MESSAGE_H

#include "ns3/adc-flow-key.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup adc
 * The Fastpath redirect a MUX sends to the host agents of both ends of an internal-VIP flow
 * (Ananta's Fastpath): this flow's DIP, DIP port, VNI and the hosts holding each end.
 */

namespace ns3
{

/// \ingroup adc
/// The UDP port host agents listen on for Fastpath redirects (the MUX's "RedirectPort").
constexpr uint16_t kSlbRedirectPort = 8572;

/**
 * \ingroup adc
 * \brief A Fastpath redirect: "flow (client -> VIP) is served by DIP:port on host PA, VNI".
 *
 * Wire format (network byte order; the model's own, as Ananta's is not published):
 * \verbatim
 *  0  version (1)           1  type (1 = redirect)     2-3  total length in bytes
 *  4  families: bit 0 flow (client, VIP) IPv6, bit 1 DIP IPv6, bit 2 DIP host PA IPv6,
 *     bit 3 client host PA IPv6 (other bits zero)
 *  5  IP protocol (6 or 17) 6-7  client port           8-9  VIP port
 * 10-11 DIP port            12-15 VNI (high byte zero)
 * 16-   client, VIP, DIP, DIP host PA, client host PA: 4 or 16 bytes each, by the bits above
 * \endverbatim
 * 36 bytes when everything is IPv4, 96 when everything is IPv6.
 */
struct SlbRedirectMessage
{
    static constexpr uint8_t kVersion = 1;         //!< the version written and accepted
    static constexpr uint8_t kTypeRedirect = 1;    //!< the one message type
    static constexpr std::size_t kFixedBytes = 16; //!< bytes before the addresses

    AdcFlowKey flow;           //!< the client's flow to the VIP, as the MUX saw it
    AdcIpAddress dip;          //!< the DIP serving it
    uint16_t dipPort{0};       //!< the DIP's port
    AdcIpAddress dipHostPa;    //!< the provider address of the host holding the DIP
    AdcIpAddress clientHostPa; //!< the provider address of the host holding the client VM
    uint32_t vni{0};           //!< the DIP's VNI (0: on a VLAN)

    /// \return the wire bytes
    /// \throws AdcConfigError naming the field when an address is unset, the flow's
    /// source and destination families differ, the protocol is not TCP/UDP or the VNI is
    /// above 2^24 - 1
    std::vector<uint8_t> Serialize() const;

    /**
     * \brief Read a redirect; malformed input is reported, never thrown.
     * \param data bytes \param size their number
     * \param error [out, may be null] "slb-redirect: byte N: what" when it fails
     * \return the message, or none
     */
    static std::optional<SlbRedirectMessage> Parse(const uint8_t* data,
                                                   std::size_t size,
                                                   std::string* error = nullptr);
    /// \param bytes the message \param error as above \return as above
    static std::optional<SlbRedirectMessage> Parse(const std::vector<uint8_t>& bytes,
                                                   std::string* error = nullptr);

    /// \return "TCP 10.0.0.5:40000 -> 10.1.0.100:80 => 10.0.2.5:8080@192.168.0.12/vni5001
    ///          (client host 192.168.0.11)"
    std::string ToString() const;

    /// \param o another \return true when every field is equal
    bool operator==(const SlbRedirectMessage& o) const;
};

} // namespace ns3

#endif /* SLB_REDIRECT_MESSAGE_H */
