/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the metric exchange protocol (MEP) agent of a GSLB site, NetScaler's
 * site-to-site exchange of LDNS round-trip times and service states over TCP port 3011
 * (GSLB-07, GSLB-09).
 */

#ifndef GSLB_MEP_AGENT_H
#define GSLB_MEP_AGENT_H

#include "gslb-rtt-database.h"

#include "ns3/adc-mep-message.h"
#include "ns3/adc-socket-util.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A GSLB site's MEP agent: one TCP connection to every other site, over which it sends
 * its LDNS RTTs (NETWORK METRIC UPDATE, type 7) and its services' states (SITE METRIC
 * UPDATE, type 1), and receives theirs (into the RTT database and a callback).
 *
 * Connections: one per pair of sites. The site with the lower site IP connects (from its
 * site IP to the peer's port "Port"); the other listens and accepts only the configured
 * peers' addresses (anything else is refused and traced as "Drop"). A connection that is not
 * up within "ConnectRetryInterval" is abandoned and tried again; a closed one is retried after
 * that interval.
 *
 * Liveness (NetScaler's `mepkeepalivetimeout`): a connection on which nothing was sent for
 * "KeepAliveInterval" carries a KEEP ALIVE (type 9). A peer is up while its connection is
 * established and a message (or the establishment itself) was heard from it within
 * "KeepAliveTimeout"; at that timeout the connection is closed, the peer reported down and
 * the connection retried. A peer that closes the connection (its agent stopped) is down when
 * the close arrives.
 *
 * Sent: SendRtt (called by the owner when GslbRttDatabase::UpdateLocal stored a value) sends
 * one record to every connected peer; a newly established connection first gets every local
 * IPv4 RTT the database holds (so values measured before it came up are not lost), then the
 * services' states. Every "SiteMetricInterval" the local services callback is asked for the
 * states to announce (nothing is sent when it is unset or returns none). MEP records carry
 * IPv4 LDNS only: IPv6 LDNS RTTs stay local.
 *
 * LDNS announcement and activity (NetScaler: "First resolution, the LDNS IP is communicated to
 * the other sites to return a value using one of the available probes"): the first RTT a site
 * stores for an LDNS is sent like every stored value, and that record tells the peers of the
 * LDNS (the owner's remote RTT callback starts probing it there). The owner reports every local
 * query with NoteQuery; every "LdnsRefreshInterval" the local RTTs of the IPv4 LDNS queried
 * since the last round are sent again, so that the other sites, which see no query from an
 * LDNS that asks only this site, keep probing it and keep its entry alive.
 *
 * Received: every message counts as heard; NETWORK METRIC UPDATE records go to
 * GslbRttDatabase::UpdateRemote for the peer's site, then to the remote RTT callback; SITE
 * METRIC UPDATE records to the site metric callback; KEEP ALIVE and the other types only refresh liveness. Bytes that are not
 * MEP (AdcMepFramer's stream error) are dropped with the framer's reason and the connection is
 * closed.
 *
 * Simplified: no MEP version negotiation, secure RPC (port 3009), persistence records or
 * SITE ADV IP exchanges; every message is 2.6 (AdcMepMessage's default).
 */
class GslbMepAgent : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    GslbMepAgent();
    ~GslbMepAgent() override;

    /// \param db the site's RTT database (required before start); the local site is
    /// db->GetLocalSite()
    void SetDatabase(Ptr<GslbRttDatabase> db);

    /**
     * \brief Add another site of the domain.
     * \param site its index (as in the database's site list; not the local site)
     * \param siteIp its site IP (where its agent listens or connects from)
     * \throws AdcConfigError for a site or address given twice
     */
    void AddPeer(uint32_t site, const Ipv4Address& siteIp);

    /**
     * \param address this site's IP (attribute "LocalAddress"; unset: the node's first
     *        non-loopback IPv4 address)
     */
    void SetLocalAddress(Ipv4Address address);

    /**
     * \brief Send a local RTT to every connected peer (one NETWORK METRIC UPDATE record). IPv6
     * LDNS are local only and not sent.
     * \param ldns the LDNS
     * \param rtt the RTT (rounded to the millisecond, capped at 65534 ms)
     */
    void SendRtt(const AdcIpAddress& ldns, Time rtt);

    /**
     * \brief A query from \p ldns reached this site: its local RTT is sent again at the next
     * refresh ("LdnsRefreshInterval"), which keeps the LDNS alive at the other sites.
     * \param ldns the LDNS (IPv6 ones are ignored: MEP carries IPv4 LDNS only)
     */
    void NoteQuery(const AdcIpAddress& ldns);

    /// Told of every NETWORK METRIC record received: (peer site, LDNS, RTT).
    typedef Callback<void, uint32_t, const AdcIpAddress&, Time> RemoteRttCallback;
    /// \param cb called after each received record was given to the database
    void SetRemoteRttCallback(RemoteRttCallback cb);

    /// Gives the local services' states to announce.
    typedef Callback<std::vector<AdcMepSiteMetric>> LocalServicesCallback;
    /// \param cb asked every SiteMetricInterval (and on each new connection)
    void SetLocalServicesCallback(LocalServicesCallback cb);

    /// Receives a peer's services' states: (peer site, records).
    typedef Callback<void, uint32_t, const std::vector<AdcMepSiteMetric>&> SiteMetricCallback;
    /// \param cb called for every SITE METRIC UPDATE received
    void SetSiteMetricCallback(SiteMetricCallback cb);

    /// Told when a peer goes up or down: (peer site, up).
    typedef Callback<void, uint32_t, bool> PeerStateCallback;
    /// \param cb called with every PeerState change
    void SetPeerStateCallback(PeerStateCallback cb);

    /// \param site a peer's site index \return true while the peer is up
    bool IsPeerUp(uint32_t site) const;

    /**
     * \brief Signature of trace source "Message".
     * \param site the peer's site index
     * \param sent true when sent to it, false when received from it
     * \param message the message
     */
    typedef void (*MessageTracedCallback)(uint32_t site, bool sent, const AdcMepMessage& message);

    /**
     * \brief Signature of trace source "PeerState".
     * \param site the peer's site index
     * \param up its new state
     */
    typedef void (*PeerStateTracedCallback)(uint32_t site, bool up);

    /**
     * \brief Signature of trace source "Drop".
     * \param packet the bytes dropped (empty for a refused connection)
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

  protected:
    void DoDispose() override;

  private:
    /// One other site.
    struct Peer
    {
        uint32_t site{0};       //!< its site index
        Ipv4Address ip;         //!< its site IP
        bool connector{false};  //!< true when this side connects (the lower site IP)
        Ptr<Socket> connecting; //!< the connection being opened (connector only)
        Ptr<Socket> socket;     //!< the established connection, or null
        AdcMepFramer framer;    //!< cuts the received stream
        AdcTxQueue tx;          //!< bytes waiting for room
        Time lastHeard;         //!< last message (or establishment) heard
        Time lastSent;          //!< last message sent
        bool up{false};         //!< reported state
        EventId retryEvent;     //!< next connect attempt (connector only)
        EventId keepAliveEvent; //!< next keep-alive check
        EventId timeoutEvent;   //!< next liveness check
    };

    void StartApplication() override;
    void StopApplication() override;

    /// \param p start (or restart) connecting to \p p
    void Connect(Peer* p);
    /// \param p the peer whose attempt ran out of time or whose retry is due
    void RetryConnect(Peer* p);
    /// \param s the connecting socket, now established
    void ConnectSucceeded(Ptr<Socket> s);
    /// \param s the connecting socket, refused
    void ConnectFailed(Ptr<Socket> s);
    /// \param s the listener \param from who \return true for a known peer
    bool AcceptRequest(Ptr<Socket> s, const Address& from);
    /// \param s the new connection \param from who
    void Accepted(Ptr<Socket> s, const Address& from);
    /// \param p the peer \param s its newly established connection
    void Established(Peer* p, Ptr<Socket> s);
    /// \param s a connection with bytes to read
    void Received(Ptr<Socket> s);
    /// \param s a connection the peer closed or reset
    void Closed(Ptr<Socket> s);
    /// \param s a connection with room to send \param room bytes free
    void SendRoom(Ptr<Socket> s, uint32_t room);
    /// \param p a peer \param m a message it sent
    void Deliver(Peer* p, const AdcMepMessage& m);
    /// \param p a connected peer \param m the message to send
    void Send(Peer* p, const AdcMepMessage& m);
    /// \param p the peer whose keep-alive check is due
    void KeepAliveCheck(Peer* p);
    /// \param p the peer whose liveness check is due
    void TimeoutCheck(Peer* p);
    /// \brief Send the local services' states to every connected peer, then again later.
    void SiteMetricTick();
    /// \brief Check the attributes and the peers before start (AdcConfigError when wrong).
    void CheckConfig();
    /// \param p a connected peer: send it the local services' states
    void SendSiteMetrics(Peer* p);
    /// \param p a connected peer: send it every local IPv4 RTT of the database
    void SendAllRtts(Peer* p);
    /**
     * \param p a connected peer
     * \param ldns LDNS whose local RTT (when known, IPv4) to send, batched
     */
    void SendLocalRtts(Peer* p, const std::vector<AdcIpAddress>& ldns);
    /// \brief Send the local RTTs of the LDNS queried since the last round, then again later.
    void RefreshTick();
    /**
     * \brief Close \p p's connection (if any), report it down and schedule a new attempt.
     * \param p the peer
     * \param reason why, for the log
     */
    void CloseAndRetry(Peer* p, const std::string& reason);
    /// \param p a peer \param up its state (reported when it changes)
    void SetUp(Peer* p, bool up);
    /// \param s a socket \return the peer it belongs to (established), or null
    Peer* PeerOfSocket(Ptr<Socket> s);
    /// \param ip an address \return the peer with that site IP, or null
    Peer* PeerOfIp(Ipv4Address ip);

    uint16_t m_port;             //!< MEP port
    Time m_keepAliveInterval;    //!< idle time before a keep-alive
    Time m_keepAliveTimeout;     //!< silence after which a peer is down
    Time m_connectRetryInterval; //!< time between connect attempts
    Time m_siteMetricInterval;   //!< time between site metric updates
    Time m_refreshInterval;      //!< "LdnsRefreshInterval"
    Ipv4Address m_localAddress;  //!< this site's IP (0.0.0.0: the node's first address)

    Ptr<GslbRttDatabase> m_db;                  //!< the RTT database
    std::vector<std::unique_ptr<Peer>> m_peers; //!< the other sites
    Ptr<Socket> m_listener;                     //!< listening socket
    bool m_running{false};                      //!< between start and stop
    EventId m_siteMetricEvent;                  //!< next site metric update
    EventId m_refreshEvent;                     //!< next LDNS refresh
    std::vector<AdcIpAddress> m_queried;        //!< LDNS queried since the last refresh
    std::set<AdcIpAddress> m_queriedSet;        //!< the same, for look-up

    LocalServicesCallback m_localServices; //!< local services' states
    SiteMetricCallback m_siteMetric;       //!< peers' services' states
    PeerStateCallback m_peerState;         //!< peer up/down
    RemoteRttCallback m_remoteRtt;         //!< every received NETWORK METRIC record

    /// Every message sent or received.
    TracedCallback<uint32_t, bool, const AdcMepMessage&> m_messageTrace;
    /// Peer state changes.
    TracedCallback<uint32_t, bool> m_peerStateTrace;
    /// Malformed input and refused connections.
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace;
};

} // namespace ns3

#endif /* GSLB_MEP_AGENT_H */
