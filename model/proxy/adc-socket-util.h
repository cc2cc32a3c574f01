/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: socket pieces shared by the applications that open connections from a client's IP
 * (USIP) and relay bytes: binding to a port of a range, connecting from a chosen source (an
 * explicit registration with the routing hook), and a queue of bytes waiting for room in a
 * socket's transmit buffer.
 */

#ifndef ADC_SOCKET_UTIL_H
#define ADC_SOCKET_UTIL_H

#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/address.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/// Memory of one std::map node besides its value (three links and the colour, rounded), as
/// the per-flow memory figures of the proxy engine and the relay count it.
constexpr std::size_t kAdcMapNodeOverhead = 4 * sizeof(void*);

/// Ports tried by AdcBindFromRange when the stack still holds a just-released port.
constexpr uint32_t kAdcBindAttempts = 8;

/**
 * \ingroup adc
 * \brief Bind \p s to \p source and a port allocated from \p ports. A port the stack still
 * holds (a closing connection of the same client, in TIME_WAIT) is skipped: up to \p attempts
 * ports are tried, and the skipped ones are released again.
 * \param s an unbound socket
 * \param source the local address to bind (the client's IP for USIP)
 * \param ports the allocator of the port range
 * \param attempts how many ports to try at most
 * \return the bound port (allocated: the caller releases it), or nothing when the range is
 *         exhausted or every port tried was held
 */
std::optional<uint16_t> AdcBindFromRange(Ptr<Socket> s,
                                         Ipv4Address source,
                                         Ptr<AdcPortAllocator> ports,
                                         uint32_t attempts = kAdcBindAttempts);

/**
 * \ingroup adc
 * \brief Connect \p s to \p to from \p source. Connect takes its local address from the
 * route, so with \p routing the connection is first registered there with its source
 * (AdcPolicyRouting::AddOutputSource: the socket's bound port, the destination), and the
 * registration is removed again when Connect fails at once; without routing the stack's
 * choice stands.
 * \param s a bound socket
 * \param routing the node's AdcPolicyRouting, or null for a plain Connect
 * \param source the local address the connection must use
 * \param to the destination (an InetSocketAddress)
 * \return the registered connection (the caller removes it with
 *         AdcPolicyRouting::RemoveOutputSource when the connection ends; a flow with port 0
 *         when nothing was registered), or nothing when Connect failed at once
 */
std::optional<AdcFlowKey> AdcConnectFrom(Ptr<Socket> s,
                                         Ptr<AdcPolicyRouting> routing,
                                         Ipv4Address source,
                                         const Address& to);

/**
 * \ingroup adc
 * \brief Open a TCP socket on \p node listening on ANY:\p port.
 * \param node the node
 * \param port the port
 * \return the socket, or null when the port cannot be bound or listened on
 */
Ptr<Socket> AdcListenTcp(Ptr<Node> node, uint16_t port);

/**
 * \ingroup adc
 * \brief Stop accepting on a listening socket: drop its accept callbacks and, when \p close,
 * close it.
 * \param s the listening socket
 * \param close false while disposing (the node's stack may be gone)
 */
void AdcStopListening(Ptr<Socket> s, bool close);

/**
 * \ingroup adc
 * \brief Detach every callback of \p s (Close() can notify synchronously, and the socket
 * outlives the caller's records) and, when \p close, discard its unread bytes (they would
 * turn the close into a reset) and close it.
 * \param s the socket
 * \param close whether to close it
 */
void AdcDetachSocket(Ptr<Socket> s, bool close);

/**
 * \ingroup adc
 * \param a an address
 * \param port a port
 * \return "a.b.c.d:port", as the proxies' traces write endpoints
 */
std::string AdcEndpointText(Ipv4Address a, uint16_t port);

/**
 * \ingroup adc
 * \param text bytes, e.g. an HTTP head from AdcHttpMessage::ToWireString
 * \return a packet holding them
 */
Ptr<Packet> AdcTextPacket(const std::string& text);

/**
 * \ingroup adc
 * \brief Make a TCP socket tell its peer its receive window now, after its application read
 * bytes it had left waiting. ns-3's TCP sends no window update when the application reads (a
 * real stack does), so a peer whose window closed to less than a segment waits for ever (its
 * persist timer probes only a window of exactly zero). Raising the receive buffer makes ns-3
 * send one: the size is lowered by one byte and raised back.
 * \param s the socket (anything but a connected TCP socket is left alone)
 */
void AdcAnnounceWindow(Ptr<Socket> s);

/**
 * \ingroup adc
 * \param a an address \param defaultPort the port a bare address gets
 * \return \p a as a socket address: an InetSocketAddress or Inet6SocketAddress as it is, a bare
 *         Ipv4Address or Ipv6Address with \p defaultPort; an invalid Address for anything else
 */
Address AdcSocketEndpoint(const Address& a, uint16_t defaultPort);

/**
 * \ingroup adc
 * \param a a socket address \param b another
 * \return true when both are InetSocketAddress (or both Inet6SocketAddress) with the same IP
 *         address and port
 */
bool AdcSameEndpoint(const Address& a, const Address& b);

/// \ingroup adc \param bytes bytes \return a packet of them
Ptr<Packet> AdcBytesPacket(const std::vector<uint8_t>& bytes);

/// \ingroup adc \param p a packet \return its bytes
std::vector<uint8_t> AdcPacketBytes(Ptr<const Packet> p);

/**
 * \ingroup adc
 * \brief Bytes waiting for room in one socket's transmit buffer, in order. Flush hands the
 * socket as much as its buffer takes (splitting a packet when only part fits); call it again
 * from the socket's send callback to resume.
 */
class AdcTxQueue
{
  public:
    /// Called with the size of every chunk the socket accepted, after the queue was updated.
    using SentCallback = std::function<void(uint32_t bytes)>;

    /// \param p bytes to queue at the end (an empty packet is ignored)
    void Push(Ptr<Packet> p);
    /**
     * \brief Hand as much of the queue to \p s as its transmit buffer takes.
     * \param s the socket
     * \param onSent called for every chunk sent (may be empty)
     * \return bytes handed to \p s
     */
    uint64_t Flush(Ptr<Socket> s, const SentCallback& onSent = SentCallback());
    /// \return true when nothing is queued
    bool IsEmpty() const;
    /// \return bytes queued
    uint64_t GetBytes() const;
    /// \return packets queued
    std::size_t GetNPackets() const;

  private:
    std::deque<Ptr<Packet>> m_packets; //!< in order
    uint64_t m_bytes{0};               //!< their total size
};

} // namespace ns3

#endif /* ADC_SOCKET_UTIL_H */
