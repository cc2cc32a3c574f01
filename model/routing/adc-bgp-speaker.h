/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc SLB routing: a BGP-4 speaker (RFC 4271) over ns-3 TCP port 179, with MP-BGP IPv6
 * unicast (RFC 4760) and 4-octet AS numbers (RFC 6793), on the wire format of
 * adc-bgp-message.h.
 */

#ifndef ADC_BGP_SPEAKER_H
#define ADC_BGP_SPEAKER_H

#include "ns3/adc-bgp-message.h"
#include "ns3/adc-flow-key.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A route a speaker learnt from a peer, or the withdrawal of one.
 */
struct AdcBgpRouteChange
{
    AdcIpAddress peer;    //!< the peer the route came from
    AdcIpAddress prefix;  //!< the prefix's network address
    uint8_t length{0};    //!< the prefix's length in bits
    AdcIpAddress nextHop; //!< the path's next hop (NEXT_HOP, or MP_REACH_NLRI's)
    bool announced{true}; //!< true: learnt (or replaced); false: withdrawn
    /// \return e.g. "announce 10.0.0.1/32 via 10.1.1.1 from 10.1.1.1"
    std::string ToString() const;
};

/**
 * \ingroup adc
 * \brief What a speaker counted for one peer.
 */
struct AdcBgpPeerCounters
{
    std::array<uint64_t, 5> sent{};        //!< messages sent, indexed by type (1..4)
    std::array<uint64_t, 5> received{};    //!< messages received, indexed by type (1..4)
    uint64_t notificationsSent{0};         //!< NOTIFICATIONs sent
    uint64_t notificationsReceived{0};     //!< NOTIFICATIONs received
    uint64_t connectAttempts{0};           //!< TCP connections this speaker opened
    uint64_t loopsIgnored{0};              //!< paths ignored: LocalAs in their AS_PATH
    std::map<std::string, uint64_t> drops; //!< sessions dropped, by reason
};

/**
 * \ingroup adc
 * \brief A BGP-4 speaker (RFC 4271) as an ns-3 Application over TCP port 179.
 *
 * Each peer (AddPeer) runs the finite state machine of RFC 4271 section 8: Idle, Connect
 * (active peers: TCP connection under way), Active (waiting for the peer's connection),
 * OpenSent, OpenConfirm, Established. Sessions negotiate IPv4 unicast, IPv6 unicast (MP-BGP)
 * when the peer was added with an IPv6 next hop or over IPv6, and 4-octet AS numbers. The
 * hold time is the smaller of both OPENs'; the hold timer is an exact event reset on every
 * KEEPALIVE and UPDATE received, so it fires at last receipt + hold. Keepalives go out every
 * KeepaliveTime (0: a third of the negotiated hold time). When both sides connect, the
 * collision is resolved as RFC 4271 6.8 says: the connection opened by the speaker with the
 * lower BGP identifier is closed with Cease / Connection Collision Resolution (6/7).
 *
 * Every error answers with its NOTIFICATION (RFC 4271 section 6) and drops the session; a
 * dropped session withdraws every route learnt from its peer at that instant, goes to Idle and
 * starts again after ConnectRetryTime. Announce / Withdraw originate prefixes (one UPDATE per
 * prefix); with Propagate, learnt prefixes are re-advertised to the other peers with
 * next-hop-self while at least one peer offers them.
 */
class AdcBgpSpeaker : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcBgpSpeaker();
    ~AdcBgpSpeaker() override;

    /// FSM states of RFC 4271 section 8.
    enum State : uint8_t
    {
        IDLE = 0,         //!< Idle
        CONNECT = 1,      //!< Connect
        ACTIVE = 2,       //!< Active
        OPEN_SENT = 3,    //!< OpenSent
        OPEN_CONFIRM = 4, //!< OpenConfirm
        ESTABLISHED = 5   //!< Established
    };

    /// \param s a state \return its RFC name ("OpenSent")
    static std::string StateName(State s);

    /**
     * \brief Signature of "SessionState".
     * \param peer the peer \param oldState RFC name \param newState RFC name
     */
    typedef void (*SessionStateTracedCallback)(const AdcIpAddress& peer,
                                               const std::string& oldState,
                                               const std::string& newState);
    /**
     * \brief Signature of "Message".
     * \param peer the peer \param direction "sent" or "received" \param message the message
     */
    typedef void (*MessageTracedCallback)(const AdcIpAddress& peer,
                                          const std::string& direction,
                                          const AdcBgpMessage& message);
    /// \brief Signature of "RouteChange". \param change the route learnt or withdrawn
    typedef void (*RouteChangeTracedCallback)(const AdcBgpRouteChange& change);
    /**
     * \brief Signature of "Notification".
     * \param peer the peer \param direction "sent" or "received" \param notification it
     */
    typedef void (*NotificationTracedCallback)(const AdcIpAddress& peer,
                                               const std::string& direction,
                                               const AdcBgpNotification& notification);
    /**
     * \brief Signature of "Drop": input the speaker discarded.
     * \param from the address it came from \param reason why
     */
    typedef void (*DropTracedCallback)(const AdcIpAddress& from, const std::string& reason);

    /**
     * \brief Add a peer (before or after start).
     * \param peer the peer's address (IPv4 or IPv6: the session's transport)
     * \param peerAs the peer's AS (1..4294967295): equal to LocalAs makes it iBGP
     * \param local this node's address the session uses (same family as \p peer)
     * \param passive wait for the peer's connection instead of connecting
     * \param nextHop6 the IPv6 next hop to put in MP_REACH_NLRI; when set (or the transport
     *        is IPv6) the session negotiates IPv6 unicast
     * \throws AdcConfigError for an unset or mixed-family address, an AS of 0, a duplicate
     *         peer, or a \p nextHop6 that is not IPv6
     */
    void AddPeer(const AdcIpAddress& peer,
                 uint32_t peerAs,
                 const AdcIpAddress& local,
                 bool passive,
                 const AdcIpAddress& nextHop6 = AdcIpAddress());

    /**
     * \brief Originate a prefix: sent at once to every Established peer, and to later ones.
     * \param prefix the network (host bits must be zero) \param length its length
     * \throws AdcConfigError for a length past the family's or host bits set
     */
    void Announce(const AdcIpAddress& prefix, uint8_t length);
    /**
     * \brief Stop originating a prefix (withdrawn from every peer it was sent to).
     * \param prefix the network \param length its length
     */
    void Withdraw(const AdcIpAddress& prefix, uint8_t length);

    /// \param cb called on every route learnt or withdrawn (also when a session drops)
    void SetRouteCallback(Callback<void, const AdcBgpRouteChange&> cb);

    /// \brief Stop dead (a failed router): no message, no NOTIFICATION, input ignored.
    void Halt();

    /// \param peer a peer \return its session's state (IDLE for an unknown peer)
    State GetState(const AdcIpAddress& peer) const;
    /// \param peer a peer \return the hold time negotiated (zero when not negotiated)
    Time GetNegotiatedHoldTime(const AdcIpAddress& peer) const;
    /// \param peer a peer \return the keepalive interval in use (zero when none)
    Time GetKeepaliveInterval(const AdcIpAddress& peer) const;
    /// \param peer a peer \return its counters (all zero for an unknown peer)
    AdcBgpPeerCounters GetCounters(const AdcIpAddress& peer) const;
    /// \param peer a peer \return its Adj-RIB-In: prefix "a/len" to next hop
    std::map<std::string, AdcIpAddress> GetAdjRibIn(const AdcIpAddress& peer) const;
    /// \return input discarded that belonged to no session, by reason
    const std::map<std::string, uint64_t>& GetDrops() const;
    /// \return the BGP identifier in use (RouterId, or the node's first IPv4 address)
    Ipv4Address GetRouterId() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// Stop accepting connections: close the listening sockets.
    void CloseListeners();

    /// A prefix: network and length.
    using Prefix = std::pair<AdcIpAddress, uint8_t>;

    /// A path learnt from a peer.
    struct Path
    {
        AdcIpAddress nextHop;       //!< its next hop
        std::vector<uint32_t> ases; //!< its AS_PATH, flattened
    };

    /// One TCP connection of a session, past the TCP handshake.
    struct Connection
    {
        Ptr<Socket> socket;           //!< the socket
        bool outgoing{false};         //!< this speaker opened it
        State state{OPEN_SENT};       //!< OPEN_SENT, OPEN_CONFIRM or ESTABLISHED
        AdcBgpFramer framer;          //!< the byte stream's parser
        std::vector<uint8_t> pending; //!< bytes not yet cut into messages
        Ipv4Address peerId;           //!< the peer's BGP identifier (after its OPEN)
        bool ipv4{true};              //!< IPv4 unicast negotiated
        bool ipv6{false};             //!< IPv6 unicast negotiated
        bool fourOctetAs{false};      //!< 4-octet ASes negotiated
        Time hold;                    //!< negotiated hold time
        Time keepalive;               //!< keepalive interval
        EventId holdTimer;            //!< hold timer
        EventId keepaliveTimer;       //!< keepalive timer
    };

    /// One configured peer.
    struct Peer
    {
        AdcIpAddress address;   //!< the peer
        uint32_t as{0};         //!< its AS
        AdcIpAddress local;     //!< local transport address
        bool passive{false};    //!< waits for the peer's connection
        AdcIpAddress nextHop6;  //!< IPv6 next hop to announce
        State base{IDLE};       //!< IDLE, CONNECT or ACTIVE when no connection is past TCP
        Ptr<Socket> connecting; //!< TCP connection under way
        std::vector<std::unique_ptr<Connection>> conns; //!< connections past TCP
        EventId connectRetry;                           //!< ConnectRetry timer
        State reported{IDLE};                           //!< last state traced
        std::map<Prefix, Path> ribIn;                   //!< Adj-RIB-In
        std::set<Prefix> ribOut;                        //!< prefixes advertised to it
        AdcBgpPeerCounters counters;                    //!< counters
    };

    // ---- session (adc-bgp-session.cc) ----
    Peer* FindPeer(const AdcIpAddress& address);
    const Peer* FindPeer(const AdcIpAddress& address) const;
    Peer* PeerOf(Ptr<Socket> socket, Connection** conn);
    Ptr<Socket> MakeSocket(const AdcIpAddress& family);
    void StartPeer(Peer& p);
    void Connect(Peer& p);
    void ConnectRetryExpired(Peer* p);
    void ConnectSucceeded(Ptr<Socket> socket);
    void ConnectFailed(Ptr<Socket> socket);
    bool AcceptRequest(Ptr<Socket> socket, const Address& from);
    void Accepted(Ptr<Socket> socket, const Address& from);
    Connection& AddConnection(Peer& p, Ptr<Socket> socket, bool outgoing);
    void Received(Ptr<Socket> socket);
    void Closed(Ptr<Socket> socket);
    void Deliver(Peer& p, Connection& c, const AdcBgpMessage& m);
    void ReceiveOpen(Peer& p, Connection& c, const AdcBgpOpen& open);
    bool ResolveCollision(Peer& p, Connection& c);
    void HoldExpired(Peer* p, Connection* c);
    void KeepaliveExpired(Peer* p, Connection* c);
    void RestartHold(Peer& p, Connection& c);
    void Send(Peer& p, Connection& c, const AdcBgpMessage& m);
    void SendNotification(Peer& p, Connection& c, const AdcBgpNotification& n);
    void CloseConnection(Peer& p, Connection& c, const std::string& reason);
    void UpdateState(Peer& p);
    Connection* EstablishedConnection(const Peer& p) const;
    void Discard(const AdcIpAddress& from, const std::string& reason);

    // ---- routes (adc-bgp-speaker.cc) ----
    void ReceiveUpdate(Peer& p, Connection& c, const AdcBgpUpdate& u);
    void Learn(Peer& p, const Prefix& prefix, const Path& path);
    void Forget(Peer& p, const Prefix& prefix);
    void ForgetAll(Peer& p);
    void Reconcile(const Prefix& prefix);
    void SyncPeer(Peer& p);
    const Path* BestOffer(const Prefix& prefix, const Peer* except) const;
    void Advertise(Peer& p, Connection& c, const Prefix& prefix, const Path* learnt);
    void Unadvertise(Peer& p, Connection& c, const Prefix& prefix);
    void Report(const AdcBgpRouteChange& change);

    // ---- attribute accessors ----
    void SetLocalAs(uint32_t as);
    uint32_t GetLocalAs() const;
    void SetHoldTime(Time hold);
    Time GetHoldTime() const;

    uint32_t m_localAs;       //!< LocalAs
    Ipv4Address m_routerId;   //!< RouterId (0.0.0.0: the node's first IPv4 address)
    Ipv4Address m_identifier; //!< the identifier in use
    Time m_holdTime;          //!< HoldTime
    Time m_keepaliveTime;     //!< KeepaliveTime (0: hold / 3)
    Time m_connectRetryTime;  //!< ConnectRetryTime
    uint16_t m_port;          //!< Port
    bool m_propagate;         //!< Propagate
    bool m_running{false};    //!< started and not stopped
    bool m_halted{false};     //!< Halt() called

    std::vector<std::unique_ptr<Peer>> m_peers;        //!< peers, in the order added
    std::vector<Ptr<Socket>> m_listeners;              //!< listening sockets (IPv4, IPv6)
    std::set<Prefix> m_originated;                     //!< prefixes Announce()d
    std::vector<std::unique_ptr<Connection>> m_closed; //!< closed connections (kept until dispose)
    std::map<std::string, uint64_t> m_drops;           //!< input discarded, by reason
    Callback<void, const AdcBgpRouteChange&> m_routeCallback; //!< the route callback

    TracedCallback<const AdcIpAddress&, const std::string&, const std::string&>
        m_stateTrace; //!< SessionState
    TracedCallback<const AdcIpAddress&, const std::string&, const AdcBgpMessage&>
        m_messageTrace;                                    //!< Message
    TracedCallback<const AdcBgpRouteChange&> m_routeTrace; //!< RouteChange
    TracedCallback<const AdcIpAddress&, const std::string&, const AdcBgpNotification&>
        m_notificationTrace;                                             //!< Notification
    TracedCallback<const AdcIpAddress&, const std::string&> m_dropTrace; //!< Drop
};

} // namespace ns3

#endif /* ADC_BGP_SPEAKER_H */
