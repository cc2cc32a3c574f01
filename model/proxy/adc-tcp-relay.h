/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: a bare transparent TCP relay, the baseline the lower-tier appliance is measured
 * against (it copies bytes and does nothing else).
 */

#ifndef ADC_TCP_RELAY_H
#define ADC_TCP_RELAY_H

#include "adc-relay-base.h"
#include "adc-socket-util.h"
#include "adc-source-address-policy.h"

#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/address.h"
#include "ns3/ipv4-address.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A bare transparent TCP relay on an intercepting node: for every accepted connection
 * it opens one to the original destination and copies bytes both ways, nothing else (no
 * parsing, no header insertion). It is the baseline against which a proxy appliance's cost is
 * measured.
 *
 * The node hands intercepted connections to this application's sockets (e.g. AdcPolicyRouting
 * LOCAL rules); the relay listens on ANY:"Port", so an accepted socket's local address
 * (GetSockName) is the destination the client addressed. With "UseClientSource" (default) the
 * connection to that destination is made from the client's IP (USIP: registered with
 * AdcPolicyRouting::AddOutputSource for its lifetime; SetRouting is then required) and a
 * source port from "PortRange", so the server's replies come back by the same port-range
 * policy routes as a real lower-tier appliance's; otherwise it is made from the node's own
 * address and an ephemeral port.
 *
 * Copying respects both sockets' transmit buffers: bytes read from one side wait in a queue
 * of at most "RelayWindow" bytes until the other side's buffer has room, and the side is not
 * read while its queue is full, so TCP flow control reaches the sender. When one side's peer
 * closes (FIN) and everything it sent was handed on, the relay half-closes the other side
 * (a FIN); the relay ends when both directions are closed ("Closed" with "complete").
 * A side that is reset, a connect that fails or an exhausted port range ends the relay at
 * once ("Closed" with the reason) and closes the other side.
 *
 * A connection addressed to the node itself (e.g. a health monitor's probe) is not relayed:
 * its bytes are read and discarded until the peer closes ("Closed" with "local").
 *
 * With "Destination" set (an InetSocketAddress; unset by default), every accepted connection
 * is relayed to that fixed address instead of its original destination, including one
 * addressed to the node itself (the relay is then a plain reverse relay: clients connect to
 * the node's address, as to a proxy's VIP); "Closed" then reports that address as the
 * destination.
 *
 * "Closed" (AdcRelayBase::ClosedTracedCallback) counts bytes each way; its outcome is
 * "complete", "local", "connect-failed", "port-exhausted", "reset-by-client",
 * "reset-by-server", "refused" (by the destination chooser), "codec-failed" (the client
 * side's codec failed, e.g. a TLS alert) or "stopped".
 */
class AdcTcpRelay : public AdcRelayBase
{
  public:
    /// What a destination chooser decides for a connection from the client's first bytes.
    struct Choice
    {
        /// The decisions.
        enum Action
        {
            WAIT,    //!< not enough bytes yet: ask again when more arrive
            CONNECT, //!< relay to \c destination
            REFUSE   //!< close the connection ("Closed" outcome "refused")
        };

        Action action{WAIT};     //!< the decision
        Ipv4Address destination; //!< CONNECT: the server
        uint16_t port{0};        //!< CONNECT: its port
    };

    /**
     * \brief Chooses the server of a connection from what its client sent first (e.g. an
     * SSL_BRIDGE reading the TLS ClientHello): relay id, client address and port, every byte the
     * client sent so far. Asked again as more bytes arrive while it answers WAIT.
     */
    using DestinationChooser =
        std::function<Choice(uint64_t, const InetSocketAddress&, Ptr<const Packet>)>;
    /// Sees every byte read from either side: relay id, true for client-to-server, the bytes.
    using ByteObserver = std::function<void(uint64_t, bool, Ptr<const Packet>)>;

    /**
     * \brief Terminates a protocol on the client side of one relay (e.g. TLS for SSL_TCP,
     * AdcTlsRelayCodec): what the client sends is decoded before it goes to the server (and
     * to the destination chooser), what the server sends is encoded before it goes to the
     * client. The byte observer still sees the bytes as they were read.
     */
    class Codec
    {
      public:
        virtual ~Codec() = default;
        /**
         * \param bytes bytes read from the client
         * \param toClient set to bytes to send back to the client (e.g. a handshake flight or
         * an alert), or left null
         * \return the bytes for the server (null or empty: none)
         */
        virtual Ptr<Packet> FromClient(Ptr<Packet> bytes, Ptr<Packet>& toClient) = 0;
        /// \param bytes bytes read from the server \return what the client gets (null: none)
        virtual Ptr<Packet> FromServer(Ptr<Packet> bytes) = 0;
        /// \return bytes the client gets before the relay closes its side (null: none)
        virtual Ptr<Packet> Closing() = 0;
        /// \return why the client's side failed ("" while it has not): the relay then sends
        /// what the codec gave back (an alert), closes and ends with outcome "codec-failed"
        virtual std::string GetFailure() const = 0;
    };

    /// Makes the codec of each relay: relay id, the client's address and port.
    using CodecFactory = std::function<std::shared_ptr<Codec>(uint64_t, const InetSocketAddress&)>;

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcTcpRelay();
    ~AdcTcpRelay() override;

    /**
     * \brief Signature of "Accept": a connection was intercepted.
     * \param client the client's address and port (an InetSocketAddress)
     * \param destination the address and port the client connected to (InetSocketAddress)
     */
    typedef void (*AcceptTracedCallback)(const Address& client, const Address& destination);

    /**
     * \brief Signature of "Relayed": bytes were handed to one side's transmit buffer.
     * \param toServer true: client to server; false: server to client
     * \param bytes how many
     */
    typedef void (*RelayedTracedCallback)(bool toServer, uint64_t bytes);

    /**
     * \brief Choose each connection's server from the client's first bytes instead of the
     * original destination or "Destination": the server side opens once the chooser says
     * CONNECT; the bytes read until then are sent first.
     * \param chooser the chooser (empty: none)
     */
    void SetDestinationChooser(DestinationChooser chooser);
    /// \param observer sees the bytes of every relay (empty: none)
    void SetByteObserver(ByteObserver observer);
    /**
     * \brief Terminate a protocol on the client side of every relay: each accepted connection
     * gets a codec from \p factory (see Codec).
     * \param factory the factory (empty: none, bytes are copied as they are)
     */
    void SetClientCodec(CodecFactory factory);

    /// \param routing the node's AdcPolicyRouting (required with UseClientSource)
    void SetRouting(Ptr<AdcPolicyRouting> routing);
    /// \return the routing protocol set by SetRouting
    Ptr<AdcPolicyRouting> GetRouting() const;
    /// \return the allocator of "PortRange"
    Ptr<AdcPortAllocator> GetPortAllocator() const;
    /// \return the source-address policy that gives USIP connections their source (the same
    /// AdcSourceAddressPolicy the proxy engine asks; its "Leased"/"Released" traces fire)
    Ptr<AdcSourceAddressPolicy> GetSourcePolicy() const;

    /// \return connections accepted (relayed and local)
    uint64_t GetAccepted() const;
    /// \return relays that ended "complete"
    uint64_t GetCompleted() const;
    /// \return relays that ended with a failure (connect, ports, reset)
    uint64_t GetFailed() const;
    /// \return relays open now (local connections included)
    uint32_t GetOpenRelays() const;
    /// \return sockets open now: two per relay, one per local connection
    uint32_t GetOpenSockets() const;

    /**
     * \brief The memory of the per-connection state held now: relay records, their lookup
     * entries (map nodes counted as four pointers each) and queued bytes. The port bitmap is
     * per relay application, not per flow, and is not counted.
     * \return bytes
     */
    std::size_t GetPerFlowStateBytes() const;

  protected:
    void DoDispose() override;

  private:
    /// One side of a relay: the accepted socket (client) or the one it opened (server).
    struct Side
    {
        Ptr<Socket> socket;     //!< its socket (null until created)
        bool connected{false};  //!< handshake done
        bool peerClosed{false}; //!< its peer sent FIN (normal close notified)
        bool shutdown{false};   //!< the relay sent (or queued) its FIN
        AdcTxQueue pending;     //!< bytes for this side's peer
        uint64_t sent{0};       //!< bytes handed to this side's socket
    };

    /// An intercepted connection and the one opened for it.
    struct Relay
    {
        Side client;          //!< the accepted side
        Side server;          //!< the side towards the original destination
        Address clientAddr;   //!< client address and port
        Address destAddr;     //!< original destination address and port
        Ipv4Address clientIp; //!< client address
        Ipv4Address destIp;   //!< original destination address
        uint16_t destPort{0}; //!< original destination port
        /// The USIP connection's source (client IP, port of the range), given back at the end.
        std::optional<AdcSourceAddressPolicy::Lease> lease;
        bool local{false};            //!< addressed to this node: discard, do not relay
        bool choosing{false};         //!< waiting for the chooser's decision
        Ptr<Packet> early;            //!< the client's bytes before the decision (for the chooser)
        std::shared_ptr<Codec> codec; //!< the client side's codec (SetClientCodec), or null
        bool codecClosed{false};      //!< the codec's Closing bytes were queued
        bool inPump{false};           //!< Pump is running for it
        bool pumpAgain{false};        //!< Pump was requested while running
    };

    // attribute accessors
    void SetPortRange(std::string text);
    std::string GetPortRange() const;

    // AdcRelayBase's hooks
    void CheckConfig() const override;
    Ptr<Socket> Listen() override;
    void CloseListener(Ptr<Socket> listen) override;
    std::vector<uint64_t> OpenKeys() const override;
    /// End relay \p id with \p outcome: trace, count, release its port, close what is open.
    void End(uint64_t id, const std::string& outcome) override;

    /// \param s a socket \return the relay id it belongs to, 0 if unknown
    uint64_t RelayOf(Ptr<Socket> s) const;
    /// Set the data and close callbacks of \p s.
    void Watch(Ptr<Socket> s);

    void HandleAccept(Ptr<Socket> s, const Address& from);
    void HandleRead(Ptr<Socket> s);
    void HandleSend(Ptr<Socket> s, uint32_t available);
    void HandlePeerClose(Ptr<Socket> s);
    void HandleError(Ptr<Socket> s);
    void HandleConnected(Ptr<Socket> s);
    void HandleConnectFailed(Ptr<Socket> s);

    /// Open the server side of relay \p id; ends the relay on failure.
    void OpenServerSide(uint64_t id);
    /// Move bytes both ways for relay \p id until nothing moves; ends it when both are closed.
    void Pump(uint64_t id);
    /**
     * \brief Move what \p from received towards \p to; half-close \p to once \p from is
     * finished.
     * \param from the side read
     * \param to the side written
     * \param toServer the direction, for the counters and traces
     * \return true when bytes were queued the other way (the caller goes round again)
     */
    bool Move(uint64_t id, Side& from, Side& to, bool toServer);
    /**
     * \brief Queue what \p from received on \p into: up to RelayWindow bytes, or all when
     * \p all; the byte observer sees them (\p toServer: their direction in relay \p id).
     */
    void Read(uint64_t id, Side& from, AdcTxQueue& into, bool all, bool toServer);
    /**
     * \brief Pass \p p, read from relay \p r's \p toServer side, through its codec; bytes it
     * answers the client with are queued for the client.
     * \return what goes on (null: nothing)
     */
    Ptr<Packet> Decode(Relay& r, Ptr<Packet> p, bool toServer);
    /// \return true when relay \p id's codec failed (its alert queued for the client): the
    /// caller ends the relay once that is flushed
    bool CodecFailed(uint64_t id);
    /// Ask the chooser about relay \p id with what its client sent; open, wait or refuse.
    void Choose(uint64_t id);
    /// Hand as much of \p side's queue to its socket as its transmit buffer takes.
    void Flush(Side& side, bool toServer);
    /// Discard what a local connection received; close it once its peer closed.
    void Discard(uint64_t id);
    /// Detach every callback of \p s and, when \p close, discard unread bytes and close it.
    void Detach(Ptr<Socket> s, bool close);

    // attributes (besides AdcRelayBase's "Port" and "Destination")
    bool m_useClientSource; //!< USIP towards the server
    uint32_t m_window;      //!< RelayWindow: queued bytes per direction before reading stops

    /// USIP sources (Mode CLIENT_IP over "PortRange"), the proxy engine's source policy
    Ptr<AdcSourceAddressPolicy> m_source;

    DestinationChooser m_chooser;           //!< SetDestinationChooser
    ByteObserver m_byteObserver;            //!< SetByteObserver
    CodecFactory m_codecFactory;            //!< SetClientCodec
    std::map<uint64_t, Relay> m_relays;     //!< relays by id (ascending: deterministic)
    std::map<Ptr<Socket>, uint64_t> m_idOf; //!< socket -> relay id (lookup only)

    uint64_t m_accepted;  //!< see GetAccepted
    uint64_t m_completed; //!< see GetCompleted
    uint64_t m_failed;    //!< see GetFailed

    TracedCallback<const Address&, const Address&> m_acceptTrace; //!< "Accept"
    TracedCallback<bool, uint64_t> m_relayedTrace;                //!< "Relayed"
};

} // namespace ns3

#endif /* ADC_TCP_RELAY_H */
