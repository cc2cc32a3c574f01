/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the shared core's UDP relay, the datapath of a UDP virtual server (LB or CS): a
 * session per client address and port, a server chosen on the session's first datagram and
 * kept for the session, replies sent back from the virtual server's address.
 */

#ifndef ADC_UDP_RELAY_H
#define ADC_UDP_RELAY_H

#include "adc-relay-base.h"

#include "ns3/address.h"
#include "ns3/event-id.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The UDP relay of a UDP virtual server (NetScaler's LB and CS vservers of type UDP):
 * it listens on ANY:"Port" and relays datagrams per session.
 *
 * A session is keyed by the client's address and port. Its first datagram chooses the server
 * (the destination chooser, or the fixed "Destination" without one); the session then keeps
 * that server. Each session has one UDP socket of its own, bound to an ephemeral port of this
 * node and connected to the server: the client's datagrams leave through it (the server sees
 * this node's address, never the client's), and the server's datagrams come back through it
 * and are sent to the client from the listening socket, so the client sees replies from the
 * address and port it sent to and never the server's address. (The listening socket is bound
 * to ANY: the reply's source address is the node's address on the route back to the client,
 * which is the address the client sent to when it sent to the interface facing it.)
 *
 * A session with no datagram either way for "IdleTimeout" ends ("Closed" with "idle"): one
 * event per session, which, when it fires early, checks the last activity and is scheduled
 * again for the remaining time, so a busy session costs no event per datagram. The next
 * datagram of that client opens a new session (and asks the chooser again).
 *
 * A datagram is dropped ("Dropped" with its reason, counted by GetDropped) when the chooser
 * refuses it ("refused"; the client's next datagram asks again), when "MaxSessions" sessions
 * are open and it would open one more ("session-limit"), when the chooser answers CONNECT
 * without an address or port ("no-destination"), or when its socket cannot send it
 * ("send-failed").
 *
 * StopApplication ends every open session ("Closed" with "stopped") and closes the sockets.
 *
 * "Closed" (AdcRelayBase::ClosedTracedCallback) counts datagrams each way; its outcome is
 * "idle" or "stopped".
 */
class AdcUdpRelay : public AdcRelayBase
{
  public:
    /// What a destination chooser decides for a session's first datagram.
    struct Choice
    {
        /// The decisions (no WAIT: a datagram is whole).
        enum Action
        {
            CONNECT, //!< open the session towards \c destination : \c port
            REFUSE   //!< drop this datagram ("Dropped" with "refused"); no session opens
        };

        Action action{CONNECT};  //!< the decision
        Ipv4Address destination; //!< CONNECT: the server
        uint16_t port{0};        //!< CONNECT: its port
    };

    /**
     * \brief Chooses a session's server from its first datagram: the id the session gets
     * (a refused datagram's id is offered again with the client's next datagram), the client's
     * address and port, the datagram.
     */
    using DestinationChooser =
        std::function<Choice(uint64_t, const InetSocketAddress&, Ptr<const Packet>)>;

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcUdpRelay();
    ~AdcUdpRelay() override;

    /**
     * \brief Signature of "Session": a session opened.
     * \param client the client's address and port (InetSocketAddress)
     * \param server the chosen server's address and port (InetSocketAddress)
     */
    typedef void (*SessionTracedCallback)(const Address& client, const Address& server);

    /**
     * \brief Signature of "Relayed": a datagram was handed to a socket.
     * \param toServer true: client to server; false: server to client
     * \param bytes its payload size
     */
    typedef void (*RelayedTracedCallback)(bool toServer, uint32_t bytes);

    /**
     * \brief Signature of "Dropped": a client's datagram was not relayed.
     * \param client the client's address and port (InetSocketAddress)
     * \param reason "refused", "session-limit", "no-destination" or "send-failed"
     */
    typedef void (*DroppedTracedCallback)(const Address& client, const std::string& reason);

    /**
     * \brief Choose each session's server from its first datagram instead of "Destination".
     * \param chooser the chooser (empty: none)
     */
    void SetDestinationChooser(DestinationChooser chooser);

    /// \return sessions opened
    uint64_t GetSessions() const;
    /// \return sessions open now
    uint32_t GetOpenSessions() const;
    /// \return sessions ended by the idle timeout
    uint64_t GetIdleSessions() const;
    /// \return sessions ended by StopApplication (counted apart from the idle ones)
    uint64_t GetStoppedSessions() const;
    /// \return datagrams relayed from clients to servers
    uint64_t GetDatagramsToServer() const;
    /// \return datagrams relayed from servers to clients
    uint64_t GetDatagramsToClient() const;
    /// \return client datagrams dropped (every "Dropped" trace)
    uint64_t GetDropped() const;

    /**
     * \brief The memory of the per-session state held now: one session record per open
     * session with its lookup entry (the map node counted as four pointers besides the
     * record). No datagram is queued (each is handed on at once); the sockets themselves
     * belong to the node's UDP stack and are not counted.
     * \return bytes
     */
    std::size_t GetPerFlowStateBytes() const;

  protected:
    void DoDispose() override;

  private:
    /// One client's session.
    struct Session
    {
        uint64_t id{0};       //!< session id (from 1)
        Ptr<Socket> socket;   //!< connected to the server
        Address client;       //!< client address and port
        Address server;       //!< server address and port
        Time lastActivity;    //!< the last datagram either way
        EventId idle;         //!< the idle check
        uint64_t toServer{0}; //!< datagrams relayed to the server
        uint64_t toClient{0}; //!< datagrams relayed to the client
    };

    // AdcRelayBase's hooks
    void CheckConfig() const override;
    Ptr<Socket> Listen() override;
    void CloseListener(Ptr<Socket> listen) override;
    std::vector<uint64_t> OpenKeys() const override;
    /// End session \p key with \p outcome: trace, count, close its socket.
    void End(uint64_t key, const std::string& outcome) override;

    /// \param ip address \param port port \return the compact key (ip << 16 | port)
    static uint64_t KeyOf(Ipv4Address ip, uint16_t port);

    /// Read the listening socket: relay every client datagram.
    void HandleClientRead(Ptr<Socket> s);
    /// Read session \p key's socket: relay every server datagram to the client.
    void HandleServerRead(uint64_t key, Ptr<Socket> s);
    /// Relay \p p from \p client: into its session, opening one when there is none.
    void FromClient(const InetSocketAddress& client, Ptr<Packet> p);
    /// Open a session for \p client towards \p server. \return false when its socket failed
    bool Open(uint64_t key, const InetSocketAddress& client, const InetSocketAddress& server);
    /// The idle check of session \p key fired: end it, or check again later.
    void IdleCheck(uint64_t key);
    /// Trace and count a dropped client datagram.
    void Drop(const Address& client, const std::string& reason);

    // attributes (besides AdcRelayBase's "Port", 0 unset here, and "Destination")
    Time m_idleTimeout;     //!< "IdleTimeout"
    uint32_t m_maxSessions; //!< "MaxSessions" (0: unlimited)

    DestinationChooser m_chooser;           //!< SetDestinationChooser
    std::map<uint64_t, Session> m_sessions; //!< sessions by client key (ascending: deterministic)

    uint64_t m_opened;     //!< see GetSessions
    uint64_t m_idleEnded;  //!< see GetIdleSessions
    uint64_t m_stopped;    //!< see GetStoppedSessions
    uint64_t m_dgToServer; //!< see GetDatagramsToServer
    uint64_t m_dgToClient; //!< see GetDatagramsToClient
    uint64_t m_dropped;    //!< see GetDropped

    TracedCallback<const Address&, const Address&> m_sessionTrace;     //!< "Session"
    TracedCallback<bool, uint32_t> m_relayedTrace;                     //!< "Relayed"
    TracedCallback<const Address&, const std::string&> m_droppedTrace; //!< "Dropped"
};

} // namespace ns3

#endif /* ADC_UDP_RELAY_H */
