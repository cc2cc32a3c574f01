/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: a stub DNS resolver application (RFC 1035 section 7, RFC 1123 6.1.3.3): a client
 * asks its DNS server for a name's addresses over UDP, retrying on timeout and over TCP when
 * the answer is truncated.
 */

#ifndef ADC_DNS_RESOLVER_H
#define ADC_DNS_RESOLVER_H

#include "ns3/adc-dns-message.h"
#include "ns3/adc-flow-key.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A stub resolver: sends one query per Resolve() to "Server" and reports the answer's
 * addresses through a callback.
 *
 * As a stub resolver does (glibc's res_send; RFC 1035 section 7.2, RFC 1536, RFC 5452):
 *  - each query gets a random 16-bit ID from the resolver's random stream (AssignStreams), not
 *    one in use by another outstanding query, and RD set ("RecursionDesired");
 *  - a response is accepted only from the server's address and port, with QR set, the ID of
 *    an outstanding query and the same question (name compared ignoring case, type, class);
 *    anything else is dropped with a traced reason and the query keeps waiting;
 *  - when no answer arrives within "Timeout" (5 s, glibc's RES_TIMEOUT) the query is sent
 *    again with the same ID, up to "Retries" (2) more times; then it fails: the callback gets
 *    no addresses and RCODE kNoAnswer, and "Failure" is traced;
 *  - a response with TC set is not used: the query is asked again over TCP (RFC 1035 4.2.2
 *    framing, RFC 7766 section 5), on a new connection with its own timeout; the TCP attempt
 *    counts as one of the tries, and a connection that fails counts as a timeout.
 * The callback's addresses are those of the answer's A (QTYPE A) or AAAA (QTYPE AAAA)
 * records owned by the question's name or by the end of a CNAME chain starting there. An
 * error response (NXDOMAIN, SERVFAIL, ...) is an answer: its RCODE goes to the callback.
 *
 * Queries made before the application starts are sent when it starts; queries outstanding when
 * it stops fail (kNoAnswer) at once.
 */
class AdcDnsResolver : public Application
{
  public:
    /// RCODE given to the callback when no response came (not a DNS RCODE: those are 0..15).
    static constexpr uint8_t kNoAnswer = 255;

    /// The result callback: (name as asked, addresses, RCODE or kNoAnswer).
    typedef Callback<void, const std::string&, std::vector<AdcIpAddress>, uint8_t> ResultCallback;

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcDnsResolver();
    ~AdcDnsResolver() override;

    /**
     * \brief Signature of the "QuerySent" trace: a query went out.
     * \param name QNAME
     * \param qtype QTYPE
     * \param id the query's ID
     * \param attempt 1 for the first try, 2 for the first retry, ...
     * \param tcp true when sent over TCP
     */
    typedef void (*QuerySentTracedCallback)(const std::string& name,
                                            uint16_t qtype,
                                            uint16_t id,
                                            uint32_t attempt,
                                            bool tcp);

    /**
     * \brief Signature of the "Answer" trace: a matching, complete response arrived.
     * \param response the response
     * \param latency time since the query's first attempt was sent
     */
    typedef void (*AnswerTracedCallback)(const AdcDnsMessage& response, Time latency);

    /**
     * \brief Signature of the "Failure" trace: a query got no answer after every try.
     * \param name QNAME
     * \param qtype QTYPE
     * \param attempts tries made
     */
    typedef void (*FailureTracedCallback)(const std::string& name,
                                          uint16_t qtype,
                                          uint32_t attempts);

    /**
     * \brief Signature of the "Drop" trace: a received message was not used.
     * \param packet its bytes
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

    /**
     * \brief Ask the server for \p name's records of type \p qtype.
     * \param name the name
     * \param qtype QTYPE (AdcDnsMessage::TYPE_A or TYPE_AAAA give addresses)
     * \param cb called once with the result
     * \throws AdcConfigError for a malformed name, or when "Server" is not set
     */
    void Resolve(const std::string& name, uint16_t qtype, ResultCallback cb);

    /**
     * \brief Use fixed random variable streams.
     * \param stream the first stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return queries sent (every attempt, UDP and TCP)
    uint64_t GetQueriesSent() const;
    /// \return retries sent after a timeout
    uint64_t GetRetransmissions() const;
    /// \return queries asked again over TCP after a truncated answer
    uint64_t GetTcpRetries() const;
    /// \return Resolve() calls answered by the server (any RCODE)
    uint64_t GetAnswered() const;
    /// \return Resolve() calls that failed (kNoAnswer)
    uint64_t GetFailed() const;
    /// \return received messages dropped (each with a traced reason)
    uint64_t GetDrops() const;

  protected:
    void DoDispose() override;

  private:
    /// One outstanding query.
    struct Pending
    {
        AdcDnsQuestion question;   //!< what was asked
        ResultCallback cb;         //!< the result callback
        std::vector<uint8_t> wire; //!< the query's bytes
        uint32_t attempts{0};      //!< tries made
        bool tcp{false};           //!< asking over TCP (after TC)
        Time firstSent;            //!< when the first try went out
        EventId timer;             //!< the current try's timeout
        Ptr<Socket> stream;        //!< the TCP connection of the current try
        AdcDnsTcpFramer framer;    //!< its received frames
    };

    void StartApplication() override;
    void StopApplication() override;

    /// Throw AdcConfigError naming the bad setting (Server, Timeout) found \p when.
    void CheckConfig(const std::string& when) const;
    /// Send the next try of query \p id (UDP, or TCP once truncated).
    void Send(uint16_t id);
    /// The current try of query \p id timed out (or its connection failed): retry or fail.
    void TryFailed(uint16_t id);
    /// Query \p id failed: count, trace "Failure", call back with kNoAnswer.
    void Fail(uint16_t id);
    /// Read responses on the UDP socket.
    void HandleUdpRead(Ptr<Socket> s);
    /// A TCP connection was established: send the query.
    void HandleConnected(Ptr<Socket> s);
    /// A TCP connection failed or closed before the answer.
    void HandleStreamError(Ptr<Socket> s);
    /// Read TCP bytes.
    void HandleTcpRead(Ptr<Socket> s);
    /// Match one received message (\p stream: it came over TCP).
    void HandleMessage(const std::vector<uint8_t>& bytes, bool stream);
    /// Finish query \p id with a result (forgets it, then calls back).
    void Finish(uint16_t id, std::vector<AdcIpAddress> addresses, uint8_t rcode);
    /// Close a query's TCP connection, if any.
    void CloseStream(Pending& q);
    /// \return the query whose TCP connection is \p s, or end()
    std::map<uint16_t, Pending>::iterator FindStream(Ptr<Socket> s);
    /// Count and trace a drop.
    void NoteDrop(const std::vector<uint8_t>& bytes, const std::string& reason);
    /// \return the addresses \p response gives for \p q
    static std::vector<AdcIpAddress> Addresses(const AdcDnsQuestion& q,
                                               const AdcDnsMessage& response);

    Address m_server;                      //!< "Server"
    Time m_timeout;                        //!< "Timeout"
    uint32_t m_retries{2};                 //!< "Retries"
    bool m_rd{true};                       //!< "RecursionDesired"
    Ptr<UniformRandomVariable> m_ids;      //!< query IDs
    Ptr<Socket> m_udp;                     //!< the UDP socket (opened at start)
    bool m_running{false};                 //!< between start and stop
    bool m_stopped{false};                 //!< stopped: new queries fail at once
    std::map<uint16_t, Pending> m_pending; //!< outstanding queries by ID
    std::vector<uint16_t> m_waiting;       //!< IDs made before start, to send at start

    uint64_t m_sent{0};            //!< queries sent
    uint64_t m_retransmissions{0}; //!< retries after timeout
    uint64_t m_tcpRetries{0};      //!< TCP retries after TC
    uint64_t m_answered{0};        //!< answered Resolve() calls
    uint64_t m_failed{0};          //!< failed Resolve() calls
    uint64_t m_drops{0};           //!< dropped messages

    /// "QuerySent"
    TracedCallback<const std::string&, uint16_t, uint16_t, uint32_t, bool> m_querySentTrace;
    TracedCallback<const AdcDnsMessage&, Time> m_answerTrace;              //!< "Answer"
    TracedCallback<const std::string&, uint16_t, uint32_t> m_failureTrace; //!< "Failure"
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace;     //!< "Drop"
};

} // namespace ns3

#endif /* ADC_DNS_RESOLVER_H */
