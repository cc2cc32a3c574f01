/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc datapath: reading the start of a TCP/UDP header safely (ports, TCP flags and sequence
 * numbers of any packet, however short or malformed) and rewriting a packet's ports with a
 * transport checksum right for its new addresses. Family independent: IPv4 and IPv6 share it.
 */

#ifndef ADC_PACKET_REWRITE_H
#define ADC_PACKET_REWRITE_H

#include "ns3/adc-flow-key.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief What the start of a packet's transport header gave.
 */
enum class AdcTransportStatus : uint8_t
{
    NO_PORTS,  //!< not TCP/UDP
    OK,        //!< ports (and TCP flags) read
    TRUNCATED, //!< shorter than its transport header
    MALFORMED, //!< TCP data offset impossible, or TCP options overrunning the header
    FRAGMENT   //!< an IP fragment: no whole transport header
};

/**
 * \ingroup adc
 * \brief The drop reason a datapath gives a packet whose transport header it cannot use.
 * \param status a transport status
 * \return "truncated-transport-header", "malformed-transport-header", "fragment-unsupported",
 * or "" for OK and NO_PORTS
 */
std::string AdcTransportDropReason(AdcTransportStatus status);

/**
 * \ingroup adc
 * \brief TCP flags the datapaths track.
 */
struct AdcTcpFlag
{
    static constexpr uint8_t FIN = 0x01; //!< FIN
    static constexpr uint8_t SYN = 0x02; //!< SYN
    static constexpr uint8_t RST = 0x04; //!< RST
    static constexpr uint8_t ACK = 0x10; //!< ACK
};

/**
 * \ingroup adc
 * \param protocol an IP protocol number
 * \return true for TCP (6) and UDP (17), the protocols with ports
 */
bool AdcHasPorts(uint8_t protocol);

/**
 * \ingroup adc
 * \brief The start of a TCP or UDP header as AdcReadTransport found it.
 */
struct AdcTransportInfo
{
    AdcTransportStatus status{AdcTransportStatus::TRUNCATED}; //!< OK, TRUNCATED or MALFORMED
    uint16_t srcPort{0};                                      //!< source port (OK only)
    uint16_t dstPort{0};                                      //!< destination port (OK only)
    uint8_t tcpFlags{0};                                      //!< TCP flags
    uint32_t tcpSeq{0};                                       //!< TCP sequence number
    uint32_t tcpAck{0};                                       //!< TCP acknowledgement number
    uint32_t tcpPayload{0}; //!< TCP payload bytes (after the header and its options)
};

/**
 * \ingroup adc
 * \brief Read ports and TCP fields without ever reading past the packet's end (at most 60
 * bytes are copied), and check that TCP options lie inside the header, so ns-3's own option
 * parsers never run past it later.
 * \param p a packet starting with its TCP or UDP header (no IP header)
 * \param protocol 6 or 17
 * \return the fields, with status OK, TRUNCATED or MALFORMED
 */
AdcTransportInfo AdcReadTransport(Ptr<const Packet> p, uint8_t protocol);

/**
 * \ingroup adc
 * \brief Read only the two ports at the front of a TCP or UDP header (4 bytes), whatever
 * follows them: what a datapath that matches port ranges needs (policy routing).
 * \param p a packet starting with its transport header (no IP header; may be null)
 * \param protocol its IP protocol
 * \return status NO_PORTS (not TCP/UDP), TRUNCATED (fewer than 4 bytes) or OK with srcPort
 * and dstPort (the TCP fields stay 0)
 */
AdcTransportInfo AdcPeekPorts(Ptr<const Packet> p, uint8_t protocol);

/**
 * \ingroup adc
 * \brief Read the MSS option (RFC 9293 section 3.2, kind 2, length 4) of a TCP segment.
 * \param p a packet starting with its TCP header (no IP header; may be null)
 * \return the MSS, or 0 when the header is short or malformed or carries no MSS option
 */
uint16_t AdcReadTcpMss(Ptr<const Packet> p);

/**
 * \ingroup adc
 * \brief Rewrite the ports of a TCP/UDP packet and make its checksum right for the new
 * addresses (when Node::ChecksumEnabled(); the incoming checksum is verified first).
 * \param p the packet, transport header first (AdcReadTransport said OK)
 * \param before the 5-tuple it arrived with
 * \param after the 5-tuple it leaves with
 * \param[out] reason why it failed: "malformed-transport-header" or "bad-checksum"
 * \param clampMss TCP: when non-zero, an MSS option above it is lowered to it (MSS clamping);
 *        a segment without the option keeps none
 * \return the rewritten copy, or null
 */
Ptr<Packet> AdcRewriteTransport(Ptr<const Packet> p,
                                const AdcFlowKey& before,
                                const AdcFlowKey& after,
                                std::string& reason,
                                uint16_t clampMss = 0);

} // namespace ns3

#endif /* ADC_PACKET_REWRITE_H */
