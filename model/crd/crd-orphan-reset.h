/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc cache redirection (CRD): an appliance answers a TCP segment of a connection it does
 * not have with a reset, as RFC 793 requires and ns-3's listening sockets do not.
 */

#ifndef CRD_ORPHAN_RESET_H
#define CRD_ORPHAN_RESET_H

#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Resets the connections an appliance does not know (RFC 793, 3.9: a segment with ACK
 * arriving in LISTEN, or for a connection that does not exist, gets a reset).
 *
 * The lower tier intercepts every HTTP flow with a listening socket, and ns-3 3.37's
 * TcpSocketBase drops every non-SYN segment in LISTEN silently; a real stack (NetScaler's
 * included) resets it. That matters after a failure: the flows of a failed lower appliance
 * rehash to a healthy one once the upper tier has detected it, and a cache's miss connection
 * moves to another lower appliance once the switch has; those segments belong to no connection
 * there, and the reset ends them at once instead of leaving the peer to time out.
 *
 * Install() watches the node's Ipv4L3Protocol "LocalDeliver" trace; a TCP segment without SYN
 * or RST whose four-tuple has no endpoint in the node's TcpL4Protocol (probed by allocating it
 * and freeing it at once) is answered: with ACK set, <SEQ=SEG.ACK><CTL=RST>; without,
 * <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>, from the segment's destination to its source.
 * "Reset" traces each one; GetResetCount() counts them.
 */
class CrdOrphanReset : public Object
{
  public:
    /// \return the type id
    static TypeId GetTypeId();
    CrdOrphanReset();

    /// \brief Watch \p node (it needs an Ipv4 and a TcpL4Protocol). \param node the node
    void Install(Ptr<Node> node);
    /// \return resets sent
    uint64_t GetResetCount() const;

    /**
     * \brief Signature of "Reset".
     * \param flow "src:port > dst:port" of the segment answered
     * \param reason "no-connection"
     */
    typedef void (*ResetTracedCallback)(const std::string& flow, const std::string& reason);

  protected:
    void DoDispose() override;

  private:
    /// \param header the segment's IP header \param packet the segment \param iif ingress
    void LocalDeliver(const Ipv4Header& header, Ptr<const Packet> packet, uint32_t iif);

    Ptr<Node> m_node;      //!< the watched node
    uint64_t m_resets{0};  //!< resets sent
    bool m_enabled{true};  //!< attribute "Enabled"
    TracedCallback<const std::string&, const std::string&> m_resetTrace; //!< "Reset"
};

} // namespace ns3

#endif /* CRD_ORPHAN_RESET_H */
