/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: a client's local DNS server (LDNS), a caching recursive resolver (RFC 1035 section
 * 7, RFC 2181, RFC 2308) that asks the authoritative servers of configured zones. In GSLB it
 * is what the sites see: the ADNS gets its queries, and the sites measure RTTs to it.
 */

#ifndef ADC_LDNS_SERVER_H
#define ADC_LDNS_SERVER_H

#include "ns3/adc-dns-message.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A caching recursive DNS server: answers its clients' queries from its cache, or asks
 * the authoritative server of the name's zone and answers with what it got.
 *
 * Clients: UDP and TCP on "Port" (53), IPv4 and, when the node has IPv6, IPv6. A UDP response
 * above "MaxUdpPayload" is truncated with TC set, as AdcDnsServer does; over TCP (RFC 1035
 * section 4.2.2, RFC 7766: two-byte length framing, pipelined queries answered as their answers
 * come) responses are whole. A TCP stream error (a frame shorter than the header) drops the
 * frame with a reason and closes the connection; a client that closes its side gets no more
 * answers (the connection is closed at once). The TCP listener also lets the ldns-tcp RTT
 * probe of the GSLB sites connect (GSLB-03).
 *
 * What a client gets (RA set unless said otherwise, AA never):
 *  - fewer than 12 bytes, or QR set: dropped with a traced reason ("Drop");
 *  - a header followed by bytes that do not parse, or QDCOUNT other than 1: FORMERR (the
 *    header echoed, as AdcDnsServer answers);
 *  - Opcode other than QUERY: NOTIMP; QCLASS other than IN: REFUSED;
 *  - a name in no zone added with AddZone (this model does not iterate from the root): REFUSED
 *    with RA clear, as BIND answers a query it may not recurse for;
 *  - RD clear: answered from the cache when the answer is there, otherwise REFUSED (the server
 *    does not recurse for it; BIND would return a referral, which this model has no data for);
 *  - otherwise the cached answer (records with their remaining TTL, RFC 1035 section 3.2.1 and
 *    RFC 2181 section 8: whole seconds left, rounded down), or, on a miss, the upstream answer.
 *
 * Cache (key: name ignoring case, QTYPE, QCLASS): a NOERROR answer with records is kept for
 * the smallest TTL of its records (RFC 2181 section 5.2: an RRset has one TTL; a record with
 * TTL 0 makes the answer uncacheable, RFC 1035 section 3.2.1), capped by "MaxCacheTtl";
 * NXDOMAIN and NODATA (NOERROR, no records) are kept, with the SOA of their authority
 * section, for min(SOA TTL, SOA MINIMUM) (RFC 2308 sections 3 and 5), or for "NegativeTtl" when
 * the upstream answer has no SOA (0 disables that); the SOA is passed on to the client, from
 * the cache with its TTL decremented. An entry is used while now is before its expiry, never
 * after.
 *
 * Upstream (on a miss): names at or under a zone's suffix (the longest matching suffix wins)
 * are asked to that zone's servers from the LDNS's own UDP socket (an ephemeral port, the
 * node's address chosen by its routing: that is the address GSLB sites see and probe). Each
 * try has a fresh unpredictable ID (RFC 5452) drawn from a random stream (AssignStreams), RD
 * clear (an authoritative server is asked, not a forwarder). A try gets "Timeout" (2 s); after
 * a timeout the next server of the query's order is tried, up to "Retries" (2) times; an answer
 * to any earlier try of the same query (matching ID, source and question) is still accepted.
 * A SERVFAIL, REFUSED, NOTIMP or FORMERR response is lame: the next server is tried at once
 * (BIND does the same). When every try failed, every client waiting gets SERVFAIL. A truncated
 * upstream answer (TC) is taken as it is (this LDNS does not retry over TCP): its records are
 * relayed without TC and not cached (RFC 2181 section 9: a truncated RRset must not be cached).
 * Identical questions asked while one is in flight wait on that upstream query (asked once).
 *
 * Server order ("ServerSelection"): ROUND_ROBIN (default) starts each new upstream query at
 * the zone's next server; FIRST always starts at the first server added; LOWEST_SRTT is BIND's
 * smoothed RTT: servers never measured come first (in the order added), then the lowest SRTT.
 * Each answer updates its server's SRTT as srtt = 0.7 srtt + 0.3 rtt (BIND's
 * DNS_ADB_RTTADJDEFAULT); a timeout counts as an rtt sample of "Timeout"; each time a query
 * starts, the zone's other known servers decay by 511/512, at most once per second each
 * (BIND's dns_adb_agesrtt), so a slow server is tried again some day.
 */
class AdcLdnsServer : public Application
{
  public:
    /// How the first server of an upstream query is chosen ("ServerSelection").
    enum ServerSelection : uint8_t
    {
        ROUND_ROBIN = 0, //!< rotate over the zone's servers
        FIRST = 1,       //!< always the first server added, the others on timeouts
        LOWEST_SRTT = 2  //!< BIND's smoothed round-trip time
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcLdnsServer();
    ~AdcLdnsServer() override;

    /**
     * \brief Signature of the "Query" trace: a well-formed query of a client was received.
     * \param client the client
     * \param question its question
     * \param cacheHit true when answered from the cache
     */
    typedef void (*QueryTracedCallback)(const Address& client,
                                        const AdcDnsQuestion& question,
                                        bool cacheHit);

    /**
     * \brief Signature of the "Forward" trace: a query try went to an authoritative server.
     * \param question the question asked
     * \param server the server (InetSocketAddress or Inet6SocketAddress)
     * \param attempt 1 for the first try, 2 for the first retry, ...
     */
    typedef void (*ForwardTracedCallback)(const AdcDnsQuestion& question,
                                          const Address& server,
                                          uint32_t attempt);

    /**
     * \brief Signature of the "Answer" trace: a response went to a client.
     * \param client the client
     * \param response the response as sent
     * \param latency time from the query's arrival at the LDNS to the response
     */
    typedef void (*AnswerTracedCallback)(const Address& client,
                                         const AdcDnsMessage& response,
                                         Time latency);

    /**
     * \brief Signature of the "Drop" trace: a received message was not used.
     * \param packet its bytes
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

    /**
     * \brief Delegate a zone: names at or under \p suffix (ignoring case) are asked to
     * \p servers. Adding a suffix again replaces its servers.
     * \param suffix the zone's name ("" or "." for every name)
     * \param servers its authoritative servers: InetSocketAddress, Inet6SocketAddress, or a bare
     *        Ipv4Address / Ipv6Address (port 53)
     * \throws AdcConfigError for a malformed suffix, no servers, or a server that is not an
     *         address
     */
    void AddZone(const std::string& suffix, const std::vector<Address>& servers);

    /**
     * \brief Use fixed random variable streams (query IDs).
     * \param stream the first stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \brief Forget every cached answer.
    void FlushCache()
    {
        m_cache.clear();
    }

    /// \return cached entries (expired ones not yet removed included)
    std::size_t GetCacheSize() const
    {
        return m_cache.size();
    }

    /**
     * \param server a server of a zone (as given to AddZone)
     * \return its smoothed RTT (LOWEST_SRTT keeps it; the others too), nothing when never
     *         measured
     */
    std::optional<Time> GetSrtt(const Address& server) const;

    /// \return client queries answered from the cache
    uint64_t GetHits() const
    {
        return m_hits;
    }

    /// \return client queries that needed an upstream answer (joined ones included)
    uint64_t GetMisses() const
    {
        return m_misses;
    }

    /// \return SERVFAIL responses sent to clients
    uint64_t GetServfails() const
    {
        return m_servfails;
    }

    /// \return upstream tries sent (every attempt)
    uint64_t GetForwards() const
    {
        return m_forwards;
    }

    /// \return truncated upstream answers asked again over TCP (RFC 7766 section 5)
    uint64_t GetTcpRetries() const
    {
        return m_tcpRetries;
    }

    /// \return received messages dropped (each with a traced reason)
    uint64_t GetDrops() const
    {
        return m_drops;
    }

  protected:
    void DoDispose() override;

  private:
    /// The cache key: name in lower case canonical form, QTYPE, QCLASS.
    struct Key
    {
        std::string name; //!< lower-case canonical name
        uint16_t qtype;   //!< QTYPE
        uint16_t qclass;  //!< QCLASS

        /// \param o another key \return strict weak order
        bool operator<(const Key& o) const;
    };

    /// A cached answer.
    struct Entry
    {
        uint8_t rcode{0};                          //!< NOERROR or NXDOMAIN
        std::vector<AdcDnsResourceRecord> answers; //!< records, TTLs as received
        std::vector<AdcDnsResourceRecord> soa;     //!< a negative answer's SOA (RFC 2308 5)
        Time stored;                               //!< when received
        Time expiry;                               //!< usable before this
    };

    /// A client waiting for an upstream answer.
    struct Waiter
    {
        AdcDnsMessage query; //!< its query
        Address client;      //!< where to answer
        Ptr<Socket> socket;  //!< the socket it came on
        bool tcp{false};     //!< it came over TCP (socket is the connection)
        Time arrival;        //!< when it arrived
    };

    /// One upstream query (all its tries).
    struct Upstream
    {
        AdcDnsQuestion question;     //!< as asked by the first client
        std::string zone;            //!< the zone's key
        std::vector<uint32_t> order; //!< server indexes, the order of tries
        uint32_t attempts{0};        //!< tries sent
        std::vector<uint16_t> ids;   //!< ID of each try
        std::vector<Time> sentAt;    //!< when each try went
        EventId timer;               //!< the current try's timeout
        std::vector<Waiter> waiters; //!< clients to answer
        Ptr<Socket> tcp;             //!< the TCP retry of a truncated answer, when open
        Address tcpServer;           //!< the server it asks
        uint16_t tcpId{0};           //!< its query's ID
        AdcDnsTcpFramer framer;      //!< its response stream
    };

    /// A zone's servers and selection state.
    struct Zone
    {
        std::vector<Address> servers; //!< socket addresses
        uint32_t next{0};             //!< ROUND_ROBIN: next first server
    };

    /// A client's TCP connection.
    struct TcpClient
    {
        Address peer;           //!< the client
        AdcDnsTcpFramer framer; //!< reassembles its queries
    };

    /// What is known of one server's round-trip time.
    struct Srtt
    {
        double srtt{0}; //!< seconds
        Time lastAge;   //!< last decay
    };

    void StartApplication() override;
    void StopApplication() override;

    /// Read client datagrams on \p s.
    void HandleClientRead(Ptr<Socket> s);
    /// Accept a client's TCP connection.
    void HandleAccept(Ptr<Socket> s, const Address& from);
    /// Read a client's TCP bytes.
    void HandleTcpRead(Ptr<Socket> s);
    /// A client's TCP connection closed or failed: forget and close it.
    void HandleTcpClose(Ptr<Socket> s);
    /// Forget every socket and query in flight (closing the sockets when \p close).
    void CloseAll(bool close);
    /// Read upstream responses on \p s.
    void HandleUpstreamRead(Ptr<Socket> s);
    /// Handle one client message (\p tcp: \p s is its TCP connection).
    void HandleQuery(const std::vector<uint8_t>& bytes,
                     const Address& from,
                     Ptr<Socket> s,
                     bool tcp);
    /// \return the key of the longest zone holding \p name, nothing when none does
    std::optional<std::string> FindZone(const std::string& name) const;
    /// \return a fresh cached answer to \p q, or nothing
    std::optional<AdcDnsMessage> FromCache(const AdcDnsMessage& query);
    /// Start an upstream query for \p w's question in \p zone (or join one in flight).
    void Forward(const std::string& zone, Waiter w);
    /// \return a random query ID no upstream try in flight uses (callers check one is free)
    uint16_t FreeQueryId() const;
    /// Send the next try of the upstream query \p key.
    void SendTry(const Key& key);
    /// The current try of \p key timed out.
    void TryTimedOut(const Key& key);
    /// The current try of \p key failed (timeout or lame answer): next try, or SERVFAIL.
    void NextTry(const Key& key);
    /**
     * \brief An upstream answer came truncated (TC): ask the same server again over TCP, as a
     * resolver must (RFC 7766 section 5; RFC 1035 section 4.2.2 framing). The try's timeout
     * runs on; when the connection fails or the time is up, the next server is tried.
     * \param key the query \param server the server that truncated
     */
    void RetryOverTcp(const Key& key, const Address& server);
    /// Read the TCP retry's response on \p s.
    void HandleUpstreamTcpRead(Ptr<Socket> s);
    /// The TCP retry of \p s could not connect or closed before its answer: next try.
    void UpstreamTcpFailed(Ptr<Socket> s);
    /// Close \p up's TCP retry, if any.
    void CloseUpstreamTcp(Upstream& up);
    /// Upstream query \p key ended: answer its clients with \p answer (SERVFAIL when null).
    void Complete(const Key& key, const AdcDnsMessage* answer);
    /// Keep \p answer to \p key in the cache when it may be cached.
    void Store(const Key& key, const AdcDnsMessage& answer);
    /// \param answer an upstream answer \return its SOA when it is negative (NXDOMAIN, or
    /// NOERROR without answers) and carries one in its authority section, else nothing
    static std::vector<AdcDnsResourceRecord> NegativeSoa(const AdcDnsMessage& answer);
    /// \param soa an SOA record \return min(its TTL, its MINIMUM): the negative TTL (RFC 2308 3)
    static uint32_t NegativeSoaTtl(const AdcDnsResourceRecord& soa);
    /// Send \p r to a client and trace it (over UDP truncated to "MaxUdpPayload").
    void Reply(const Waiter& w, AdcDnsMessage r);
    /// Update the SRTT of \p server with a sample \p rtt.
    void Sample(const Address& server, Time rtt);
    /// \return the order of servers for a new query of \p zone
    std::vector<uint32_t> Order(Zone& zone);
    /// \return the UDP socket for upstream queries to \p server's family (opened on demand)
    Ptr<Socket> UpstreamSocket(const Address& server);
    /// Count and trace a drop.
    void NoteDrop(const std::vector<uint8_t>& bytes, const std::string& reason);
    /// \return \p name's key (lower-case canonical), "" when malformed
    static std::string NameKey(const std::string& name);
    /// \return \p q's cache key
    static Key KeyOf(const AdcDnsQuestion& q);

    uint16_t m_port{AdcDnsMessage::kDnsPort}; //!< "Port"
    Time m_timeout;                           //!< "Timeout"
    uint32_t m_retries{2};                    //!< "Retries"
    ServerSelection m_selection{ROUND_ROBIN}; //!< "ServerSelection"
    Time m_negativeTtl;                       //!< "NegativeTtl"
    Time m_maxCacheTtl;                       //!< "MaxCacheTtl"
    uint32_t m_maxUdpPayload{512};            //!< "MaxUdpPayload"

    Ptr<UniformRandomVariable> m_ids;       //!< query IDs
    std::map<std::string, Zone> m_zones;    //!< by lower-case suffix key
    std::map<Key, Entry> m_cache;           //!< the cache
    std::map<Key, Upstream> m_inflight;     //!< upstream queries by question
    std::map<uint16_t, Key> m_byId;         //!< every try's ID -> its query
    std::map<Address, Srtt> m_srtt;         //!< per server
    std::vector<Ptr<Socket>> m_listen;      //!< client UDP sockets, one per family
    std::vector<Ptr<Socket>> m_listenTcp;   //!< listening TCP sockets, one per family
    std::map<Ptr<Socket>, TcpClient> m_tcp; //!< client TCP connections
    std::map<Ptr<Socket>, Key> m_upTcp;     //!< TCP retries of truncated answers
    bool m_tcpRetry{true};                  //!< "TcpRetry"
    uint64_t m_tcpRetries{0};               //!< TCP retries opened
    Ptr<Socket> m_up4;                      //!< upstream IPv4 socket
    Ptr<Socket> m_up6;                      //!< upstream IPv6 socket

    uint64_t m_hits{0};      //!< cache hits
    uint64_t m_misses{0};    //!< cache misses
    uint64_t m_servfails{0}; //!< SERVFAIL sent
    uint64_t m_forwards{0};  //!< upstream tries
    uint64_t m_drops{0};     //!< drops

    TracedCallback<const Address&, const AdcDnsQuestion&, bool> m_queryTrace;   //!< "Query"
    TracedCallback<const AdcDnsQuestion&, const Address&, uint32_t> m_fwdTrace; //!< "Forward"
    TracedCallback<const Address&, const AdcDnsMessage&, Time> m_answerTrace;   //!< "Answer"
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace;          //!< "Drop"
};

} // namespace ns3

#endif /* ADC_LDNS_SERVER_H */
