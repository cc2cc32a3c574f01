/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an authoritative DNS server application (RFC 1035) over UDP and TCP, IPv4 and
 * IPv6. The SLB example's first step ("the DNS server returns the VIP to the client") and the
 * base of GSLB's authoritative DNS (ADNS), which overrides Answer() to choose a site.
 */

#ifndef ADC_DNS_SERVER_H
#define ADC_DNS_SERVER_H

#include "ns3/adc-dns-message.h"
#include "ns3/adc-socket-util.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An authoritative DNS server: zones of static data (SOA, NS, A, AAAA, CNAME and any
 * other record added), answered over UDP and TCP on "Port" (53), on IPv4 and, when the node
 * has IPv6, on IPv6.
 *
 * Zones. An SOA record added with AddRecord makes its owner a zone's apex (as in a master
 * file); a name belongs to the zone of the closest apex at or above it (no delegations). What
 * it answers, as an authoritative server does (RFC 1034 section 4.3.2, RFC 1035 sections
 * 4.1.1 and 6.2, RFC 2308, RFC 8020; names compared ignoring case, RFC 4343):
 *  - a name in no zone: REFUSED, AA clear, no records;
 *  - records for the question's name and type (QTYPE ANY takes every type): NOERROR, AA;
 *  - a CNAME at the name, QTYPE not CNAME or ANY: the CNAME, then the answer for its target
 *    when the target is in the same zone, repeated along a chain (RFC 1034 sections 3.6.2 and
 *    4.3.2 step 3a); the RCODE is the last name's (RFC 6604 section 2);
 *  - a name with records of other types only, or with none but names below it (an empty
 *    non-terminal, RFC 8020): NOERROR, AA, no answer (NODATA);
 *  - a name with no records and nothing below: NXDOMAIN, AA;
 *  - NXDOMAIN and NODATA carry the zone's SOA in the authority section, its TTL the smaller of
 *    the SOA's TTL and its MINIMUM (RFC 2308 section 3);
 *  - a query whose header is readable but whose rest is not a valid message, a QDCOUNT other
 *    than 1, or a bad OPT record (two, one outside the additional section, a non-root owner,
 *    options not filling RDATA): FORMERR, with the reason in the "Malformed" trace;
 *  - an Opcode other than QUERY: NOTIMP; a QCLASS other than IN (or ANY): REFUSED.
 * A server with no zone at all (no SOA added) is authoritative for every name, without SOA in
 * negative answers: the zone-less form of a plain list of records.
 * Datagrams shorter than the 12-byte header and messages with QR set (responses) are dropped
 * with a traced reason, as servers do (answering a response could loop).
 *
 * EDNS(0) (RFC 6891): a query with an OPT record gets an OPT record in its response (DO
 * copied, RFC 3225 section 3; UDP payload size "MaxUdpPayload"); a VERSION above 0 gets
 * BADVERS (extended RCODE 16) with an OPT of VERSION 0 and no records (section 6.1.3). UDP
 * responses are limited to 512 bytes without EDNS (RFC 1035 section 4.2.1), and with it to
 * the requester's payload size (at least 512, section 6.2.5) capped by "MaxUdpPayload";
 * longer ones are truncated by AdcDnsMessage::SerializeTruncated, which sets TC when records
 * are cut (never SERVFAIL: RFC 2181 section 9): the client then asks again over TCP. TCP (RFC
 * 1035 section 4.2.2, RFC 7766) frames each message with a two-byte length; several queries
 * may be pipelined on one connection and each is answered in order; a connection with nothing
 * received and nothing left to send for "TcpIdleTimeout" is closed (RFC 7766 section
 * 6.2.3). A TCP stream error (a frame shorter than the header) drops the frame with a reason
 * and closes the connection.
 *
 * Extension: Answer() is the virtual hook that chooses the answer records (GSLB overrides it
 * to pick a site by RTT); HasName() and HasNameBelow() decide NXDOMAIN versus NODATA when it
 * returns nothing.
 */
class AdcDnsServer : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcDnsServer();
    ~AdcDnsServer() override;

    /**
     * \brief Signature of the "Query" trace: a well-formed query was received.
     * \param from the client (InetSocketAddress or Inet6SocketAddress)
     * \param question its question
     */
    typedef void (*QueryTracedCallback)(const Address& from, const AdcDnsQuestion& question);

    /**
     * \brief Signature of the "Response" trace: a response was sent.
     * \param to the client
     * \param response the message as sent (after truncation, for UDP)
     */
    typedef void (*ResponseTracedCallback)(const Address& to, const AdcDnsMessage& response);

    /**
     * \brief Signature of the "Drop" trace: bytes were discarded unanswered.
     * \param packet the datagram, or one TCP frame's message
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

    /**
     * \brief Signature of the "Malformed" trace: a query was answered FORMERR.
     * \param from the client
     * \param reason why (the parser's error, or the rule broken)
     */
    typedef void (*MalformedTracedCallback)(const Address& from, const std::string& reason);

    /**
     * \brief Add a record to the static zone data; an SOA record makes its owner a zone apex.
     * \param rr the record (A and AAAA are what clients ask for; any type is served)
     * \throws AdcConfigError when its owner name is not a valid domain name, or for a second
     *         SOA at one apex or an SOA whose RDATA does not read as one
     */
    void AddRecord(const AdcDnsResourceRecord& rr);

    /// \return the zones' apexes (lookup keys: canonical, lower case), in the order added
    std::vector<std::string> GetZones() const;

    /// \param name a name \return the apex key of the zone holding it, "" when none does
    std::string FindZone(const std::string& name) const;

    /// \return the records of the static zone, in the order added
    const std::vector<AdcDnsResourceRecord>& GetRecords() const;

    /// \return well-formed queries received (UDP and TCP)
    uint64_t GetQueries() const;
    /// \param rcode an RCODE (0..15) \return responses sent with it
    uint64_t GetResponses(uint8_t rcode) const;
    /// \return responses sent over UDP with TC set
    uint64_t GetTruncated() const;
    /// \return messages dropped unanswered (each with a traced reason)
    uint64_t GetDrops() const;
    /// \return TCP connections accepted
    uint64_t GetTcpConnections() const;
    /// \return TCP connections closed for idleness ("TcpIdleTimeout")
    uint64_t GetTcpIdleCloses() const;
    /// \return queries answered FORMERR
    uint64_t GetMalformed() const;

  protected:
    /// \param name a name \return its lookup key (canonical, lower case), or "" when it is
    /// malformed (also the GSLB ADNS's key for its bound domains)
    static std::string Key(const std::string& name);
    void DoDispose() override;

    /**
     * \brief Choose the answer records for a question (the GSLB extension point).
     *
     * Called for every well-formed QUERY of class IN (or ANY). The default looks up the static
     * records: those whose owner is \p q's name (ignoring case) and whose type is QTYPE (every
     * type for ANY), each returned with the question's name as owner.
     * \param q the question
     * \param from the client (the LDNS, for an ADNS)
     * \return the answer section (empty: NODATA or NXDOMAIN, as HasName() says)
     */
    virtual std::vector<AdcDnsResourceRecord> Answer(const AdcDnsQuestion& q, const Address& from);

    /**
     * \param name a name in text form
     * \return true when the zone has records of some type for \p name (an empty answer is then
     *         NODATA rather than NXDOMAIN)
     */
    virtual bool HasName(const std::string& name) const;

    /**
     * \param name a name in text form
     * \return true when some record's owner is strictly below \p name (an empty non-terminal
     *         answers NODATA, RFC 8020)
     */
    virtual bool HasNameBelow(const std::string& name) const;

    void StartApplication() override;

  private:
    /// One accepted TCP connection.
    struct TcpConnection
    {
        Address peer;           //!< the client
        AdcDnsTcpFramer framer; //!< reassembles its queries
        AdcTxQueue tx;          //!< responses waiting for room
        bool peerClosed{false}; //!< the client sent FIN: close once tx is empty
        EventId idle;           //!< the idle timer (RFC 7766 section 6.2.3)
    };

    void StopApplication() override;

    /// \param bytes "MaxUdpPayload"; throws AdcConfigError outside 512..65535
    void SetMaxUdpPayload(uint32_t bytes);
    /// \return "MaxUdpPayload"
    uint32_t GetMaxUdpPayload() const;
    /// Open a UDP socket and a listening TCP socket on \p local (ANY address of one family).
    void OpenSockets(const Address& local);
    /// Read every datagram waiting on \p s.
    void HandleUdpRead(Ptr<Socket> s);
    /// Accept a TCP connection.
    void HandleAccept(Ptr<Socket> s, const Address& from);
    /// Read TCP bytes of a connection.
    void HandleTcpRead(Ptr<Socket> s);
    /// Room in a connection's transmit buffer.
    void HandleTcpSend(Ptr<Socket> s, uint32_t available);
    /// The client closed its side: close ours once the responses are handed to TCP.
    void HandleTcpPeerClose(Ptr<Socket> s);
    /// A connection was reset: forget it.
    void HandleTcpError(Ptr<Socket> s);
    /// (Re)start \p s's idle timer.
    void ArmIdle(Ptr<Socket> s);
    /// The idle timer of \p s expired: close it unless responses are still waiting.
    void HandleIdle(Ptr<Socket> s);
    /// Forget \p s and close it (\p close) or only detach it.
    void DropTcp(Ptr<Socket> s, bool close);
    /// Hand queued responses of \p s to TCP; close after the client's FIN once all are out.
    void FlushTcp(Ptr<Socket> s);

    /**
     * \brief Decide the response to one message.
     * \param bytes the message
     * \param from the client
     * \param tcp whether it came over TCP
     * \param udpLimit [out] the UDP payload limit of the response (512, or per EDNS)
     * \return the response, or nothing when the message is dropped
     */
    std::optional<AdcDnsMessage> Respond(const std::vector<uint8_t>& bytes,
                                         const Address& from,
                                         bool tcp,
                                         std::size_t& udpLimit);
    /**
     * \param query a parsed query \param from the client
     * \param udpLimit [out] the UDP payload limit (512, or per the query's OPT record)
     * \return the response
     */
    AdcDnsMessage Decide(const AdcDnsMessage& query, const Address& from, std::size_t& udpLimit);
    /// \return the response to a well-formed QUERY with one question of class IN or ANY
    AdcDnsMessage Lookup(const AdcDnsMessage& query, const Address& from);
    /// \return a FORMERR response to \p query, counted and traced with \p reason
    AdcDnsMessage Formerr(const AdcDnsMessage& query, const Address& from, const std::string& reason);
    /**
     * \brief Write a response, truncated for UDP (counted); a response that cannot be written
     * (over TCP: above 65535 bytes) becomes SERVFAIL. \p response is updated to what is sent.
     * \param response the response
     * \param udpLimit the UDP payload limit, or 0 for TCP
     * \return its bytes (no TCP length prefix)
     */
    std::vector<uint8_t> Encode(AdcDnsMessage& response, std::size_t udpLimit);
    /// Count and trace a response being sent.
    void NoteResponse(const Address& to, const AdcDnsMessage& response);
    /// Count and trace a drop.
    void NoteDrop(const std::vector<uint8_t>& bytes, const std::string& reason);

    uint16_t m_port{AdcDnsMessage::kDnsPort};                                     //!< "Port"
    uint32_t m_maxUdpPayload{1280}; //!< "MaxUdpPayload" (NetScaler's -maxUDPPacketSize)
    Time m_tcpIdleTimeout;          //!< "TcpIdleTimeout"

    std::vector<AdcDnsResourceRecord> m_records;      //!< static zone, in order added
    std::multimap<std::string, std::size_t> m_byName; //!< lookup key -> m_records index
    std::map<std::string, std::size_t> m_zones;       //!< apex key -> its SOA's index
    std::vector<std::string> m_zoneOrder;             //!< apex keys, in the order added
    std::vector<Ptr<Socket>> m_udp;                   //!< one per family
    std::vector<Ptr<Socket>> m_listen;                //!< one per family
    std::map<Ptr<Socket>, TcpConnection> m_tcp;       //!< open connections

    uint64_t m_queries{0};               //!< well-formed queries
    std::array<uint64_t, 16> m_rcodes{}; //!< responses per RCODE
    uint64_t m_truncated{0};             //!< UDP responses with TC
    uint64_t m_drops{0};                 //!< dropped messages
    uint64_t m_tcpConnections{0};        //!< accepted connections
    uint64_t m_tcpIdleCloses{0};         //!< connections closed for idleness
    uint64_t m_malformed{0};             //!< FORMERR responses

    TracedCallback<const Address&, const AdcDnsQuestion&> m_queryTrace;   //!< "Query"
    TracedCallback<const Address&, const AdcDnsMessage&> m_responseTrace; //!< "Response"
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace;    //!< "Drop"
    TracedCallback<const Address&, const std::string&> m_malformedTrace;  //!< "Malformed"
};

} // namespace ns3

#endif /* ADC_DNS_SERVER_H */
