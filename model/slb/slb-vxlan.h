/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_VXLAN_H
#define SLB_VXLAN_H

#include "ns3/adc-datapath.h"
#include "ns3/adc-flow-key.h"
#include "ns3/packet.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

/**
 * \file
 * \ingroup adc
 * VXLAN as the SLB puts it on the wire (RFC 7348 section 5): outer IP, UDP to port 4789, the
 * 8-byte VXLAN header, an inner Ethernet header, the inner IP datagram. The MUX and a host's
 * Fastpath encapsulate with SlbVxlanEncapsulation; the host's virtual switch reads what it
 * receives with SlbVxlanParse.
 */

namespace ns3
{

/// \ingroup adc
/// Bytes between the outer IP header and the inner IP header: UDP (8), VXLAN (8), Ethernet (14).
constexpr uint32_t kSlbVxlanHeaderBytes = 30;

/// \ingroup adc
/// The OUI of the inner Ethernet addresses (Hyper-V's, 00:15:5D).
constexpr uint8_t kSlbInnerMacOui[3] = {0x00, 0x15, 0x5d};

/**
 * \ingroup adc
 * \brief Adds UDP (destination 4789), VXLAN and the inner Ethernet header in front of an inner
 * IP datagram.
 *
 * The inner Ethernet destination is the chosen VM's MAC, SlbVmMac(dip): 00:15:5D followed by
 * the low three bytes of the DIP the MUX chose (of the inner destination when no DIP is given),
 * so the host's virtual switch knows which of its VMs the MUX chose; the source 00:15:5D:FF:FF:FE
 * (the SLB's own), the type 0x0800 or 0x86DD from the inner IP version. The UDP checksum is zero
 * over an IPv4 outer network (RFC 7348 section 5: SHOULD be zero) unless ns-3's checksums are on
 * (ChecksumEnabled: ns-3's UDP would drop a zero one), and computed over an IPv6 one (RFC 8200
 * requires it).
 *
 * \param datagram the inner IP datagram, IP header first (headers are added to it)
 * \param vni the VXLAN network identifier (0..2^24-1)
 * \param srcPort the outer UDP source port (AdcVxlanSourcePort of the inner flow's hash)
 * \param outerSrc the outer source address
 * \param outerDst the outer destination address (same family as \p outerSrc)
 * \param dip the DIP chosen for the packet (none: the inner destination)
 */
void SlbVxlanAddHeaders(Ptr<Packet> datagram,
                        uint32_t vni,
                        uint16_t srcPort,
                        const AdcIpAddress& outerSrc,
                        const AdcIpAddress& outerDst,
                        const AdcIpAddress& dip = AdcIpAddress());

/**
 * \ingroup adc
 * \brief A VM's MAC in the model: the Hyper-V OUI 00:15:5D and the low three bytes of its
 * address (a modelling choice: real VMs' MACs are assigned by the fabric, and the host knows
 * them; what matters is that the MUX names the VM it chose, and the host can tell).
 * \param address the VM's (DIP's) address
 * \return its MAC bytes
 */
std::array<uint8_t, 6> SlbVmMac(const AdcIpAddress& address);

/**
 * \ingroup adc
 * \brief The ENCAPSULATE outer header of a packet the SLB tunnels to a host.
 * \param hostPa the provider address of the host (IPv4 or IPv6: the outer family)
 * \param vni the VXLAN network identifier
 * \param innerFlowHash a hash of the inner flow: the outer source port is derived from it
 *        (AdcVxlanSourcePort), so that the routers' ECMP spreads the tunnel's flows
 * \param dip the DIP chosen (none: the inner destination names the VM), carried as the inner
 *        Ethernet destination
 * \return the encapsulation (UDP, protocol 17)
 */
AdcEncapsulation SlbVxlanEncapsulation(const AdcIpAddress& hostPa,
                                       uint32_t vni,
                                       uint64_t innerFlowHash,
                                       const AdcIpAddress& dip = AdcIpAddress());

/**
 * \ingroup adc
 * \brief What SlbVxlanParse found in an outer IP payload.
 */
struct SlbVxlanFrame
{
    bool ok{false};          //!< true when the packet is a well-formed VXLAN frame
    std::string reason;      //!< when !ok: why it must be dropped (a "vxlan-..." reason)
    uint16_t srcPort{0};     //!< the outer UDP source port
    uint16_t dstPort{0};     //!< the outer UDP destination port
    uint32_t vni{0};         //!< the VNI
    uint16_t etherType{0};   //!< the inner Ethernet type (0x0800 or 0x86DD)
    uint8_t ipVersion{0};    //!< the inner IP version (4 or 6)
    uint32_t innerLength{0}; //!< the inner IP datagram's length (header and payload)
    std::array<uint8_t, 6> innerDestination{}; //!< the inner Ethernet destination (the VM)
};

/**
 * \ingroup adc
 * \brief Reads UDP, VXLAN and the inner Ethernet and IP headers from an outer IP payload.
 *
 * Malformed frames are reported, never thrown: a UDP length that is not the payload's size
 * ("vxlan-udp-length"), a frame shorter than the headers ("vxlan-truncated"), the I flag clear
 * ("vxlan-no-vni", RFC 7348: the VNI is not valid), an inner type that is not IPv4 or IPv6
 * ("vxlan-inner-ethertype"), an inner IP header whose version does not match its type or that
 * is cut short, or an IPv4 header length below 20 ("vxlan-inner-ip"), an inner IP length beyond
 * the frame ("vxlan-inner-length"). Reserved bits are ignored (RFC 7348 section 5).
 *
 * \param data the outer IP payload (from the UDP header on)
 * \param size its length
 * \return the frame
 */
SlbVxlanFrame SlbVxlanParse(const uint8_t* data, std::size_t size);

/**
 * \ingroup adc
 * \brief SlbVxlanParse over a packet (outer IP header already removed).
 * \param payload the outer IP payload
 * \return the frame
 */
SlbVxlanFrame SlbVxlanParse(Ptr<const Packet> payload);

} // namespace ns3

#endif /* SLB_VXLAN_H */
