/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an HTTP/1.1 client application issuing Zipf-distributed object requests.
 */

#ifndef ADC_HTTP_CLIENT_H
#define ADC_HTTP_CLIENT_H

#include "adc-zipf-url-generator.h"

#include "ns3/adc-http-message.h"
#include "ns3/adc-request-record.h"
#include "ns3/adc-tls-endpoint.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An HTTP/1.1 client: issues GET requests for objects "/obj/<k>" of a catalogue with
 * Zipf popularity, at random intervals, over persistent or one-shot TCP connections, and keeps
 * a record of every request's life.
 *
 * Requests are issued at intervals drawn from "InterRequestTime" (the first one draw after
 * start). A request is sent on an idle persistent connection when there is one, otherwise on a
 * new connection while fewer than "MaxConnections" are open, otherwise it waits in a FIFO queue.
 * A connection carries one request at a time (no pipelining).
 *
 * Accounting: every issued request fires "RequestSent" once and later "RequestDone" once, as
 * COMPLETED, as FAILED with a reason: "connect-failed", "connection-reset",
 * "connection-closed", "timeout", "parse-error", "http-status-<code>" (a complete response
 * with status >= 400, e.g. "http-status-502"), or as OPEN_AT_STOP (still open at
 * StopApplication; no reason). A complete response with a 2xx or 3xx status is COMPLETED.
 * Requests open at the stop are counted apart from failures because the path did not fail
 * them: a path that stalls shows up there, and a check expecting none fails.
 * After StopApplication, GetRequestsSent() == GetRequestsCompleted() + GetRequestsFailed() +
 * GetRequestsOpenAtStop(); GetTally() holds the same counts for AdcAccountingMismatch.
 *
 * The record's \c path is filled from the response as ResponsePath() describes (the proxies
 * and caches it passed, from its Via and X-Cache headers).
 *
 * Responses are framed as RFC 9112 section 6 says (AdcHttpStreamParser, told the method of
 * each request sent): by Content-Length, by the chunked transfer coding, or, without either,
 * by the server's close (the request completes when the connection closes after the body).
 * Interim 1xx responses are skipped (RFC 9110 section 15.2). The record's \c responseBytes
 * counts the response's bytes on the wire: heads (interim ones included) and body, chunk
 * framing included; the "Response" trace gives the final response's payload bytes and framing.
 *
 * A request is "<Method> <url> HTTP/1.1" ("Method", GET by default) with "Host", the headers added
 * by AddRequestHeader (in the order added), "Cookie" (below) and, for one-shot connections,
 * "Connection: close".
 *
 * Cookies ("CookiePolicy", issue 10, CS-08: the three kinds of client backup persistence tells
 * apart):
 * - NONE (default): Set-Cookie is ignored and no Cookie header is sent (requests as before);
 * - KEEP (a browser): every Set-Cookie field of a final response is read with
 *   AdcSetCookie::Parse and kept in a jar by name (a later one of the same name replaces the
 *   value and expiry, keeping its place). Expiry: Max-Age seconds from the response's arrival
 *   (Max-Age wins over Expires); else Expires, a Unix time, where simulation time 0 is
 *   AdcSetCookie::kDefaultEpoch; without either a session cookie, kept for the client's life.
 *   Max-Age <= 0 or an Expires not after now deletes the cookie of that name. A cookie whose
 *   name is not an RFC 6265 token or whose value has a control character is not kept (it
 *   could not be sent back). Each request sent later carries the unexpired cookies in one
 *   "Cookie" header, "name=value" joined by "; ", in creation order (RFC 6265 5.4);
 * - OTHER: like KEEP, but cookies whose name starts with "NSC_" (NetScaler's persistence
 *   cookie) are never kept nor sent, and the cookie "OtherCookie" (default "lang=en"; "" for
 *   none) is always sent first, unless the jar holds a cookie of the same name: a client that
 *   returns cookies, but never the persistence one.
 * The "CookieSet" trace reports each cookie the jar stores. The Cookie header is built when the
 * request is sent, so the record's \c requestBytes at "RequestDone" counts it.
 *
 * Stateful transactions ("TransactionLength" L, default 1 = off; CS-09): requests 1..L form
 * transaction 1, L+1..2L transaction 2, and so on (by request id, IssueRequest's included).
 * The first final response of a transaction pins its application version: its
 * "X-App-Version" header, or its "Server" header when absent ("" when neither). A later final
 * response of the same transaction with another version breaks the transaction: counted once
 * per transaction (GetTransactionsBroken), "TransactionBroken" fired at the first such
 * response. Requests ending without a response (failed) do not break it by themselves. When
 * all L requests have ended (or, at StopApplication, all it issued when the client issued
 * fewer), "TransactionDone" fires and GetTransactionsDone counts it; a transaction with
 * requests still open at StopApplication counts in GetTransactionsOpenAtStop instead. After
 * StopApplication, GetTransactionsStarted() == GetTransactionsDone() +
 * GetTransactionsOpenAtStop().
 */
class AdcHttpClient : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcHttpClient();
    ~AdcHttpClient() override;

    /**
     * \brief Signature of the "RequestSent" and "RequestDone" traces.
     * \param record the request (RequestSent: start filled, end zero; RequestDone: complete)
     */
    typedef void (*RequestTracedCallback)(const AdcRequestRecord& record);

    /**
     * \brief Signature of the "Response" trace: the final response to a request was read.
     * \param requestId the request it answers
     * \param response its head, framing, payload and wire byte counts, trailer fields
     */
    typedef void (*ResponseTracedCallback)(uint64_t requestId,
                                           const AdcHttpStreamParser::Message& response);

    /// What the client does with cookies ("CookiePolicy").
    enum CookiePolicy
    {
        COOKIES_NONE, //!< "NONE": ignore Set-Cookie, send no Cookie
        COOKIES_KEEP, //!< "KEEP": a browser's jar
        COOKIES_OTHER //!< "OTHER": a jar without NSC_ cookies, plus "OtherCookie"
    };

    /**
     * \brief Signature of the "CookieSet" trace: the jar stored a cookie.
     * \param requestId the request whose response set it
     * \param name the cookie name
     * \param value the cookie value
     * \param expiry the simulation time it expires at; Time::Max() for a session cookie
     */
    typedef void (*CookieSetTracedCallback)(uint64_t requestId,
                                            const std::string& name,
                                            const std::string& value,
                                            Time expiry);

    /**
     * \brief Signature of the "TransactionBroken" trace: a response of a transaction came from
     * another application version than its first response.
     * \param transactionId the transaction (from 1)
     * \param requestId the request whose response broke it
     * \param expected the version the first response pinned
     * \param received the version of this response
     */
    typedef void (*TransactionBrokenTracedCallback)(uint64_t transactionId,
                                                    uint64_t requestId,
                                                    const std::string& expected,
                                                    const std::string& received);

    /**
     * \brief Signature of the "TransactionDone" trace: every request of a transaction ended.
     * \param transactionId the transaction (from 1)
     * \param requests its requests
     * \param completed those that ended COMPLETED
     * \param broken whether a response of another version broke it
     */
    typedef void (*TransactionDoneTracedCallback)(uint64_t transactionId,
                                                  uint32_t requests,
                                                  uint32_t completed,
                                                  bool broken);

    /**
     * \brief Choose the server per new connection (e.g. a load-balancing method under test).
     * \param chooser returns the remote (InetSocketAddress or Inet6SocketAddress) for the URL
     *        and request id of the connection's first request; when null "Remote" is used
     */
    void SetServerChooser(Callback<Address, const std::string&, uint64_t> chooser);

    /**
     * \brief Add a site: with sites, request k (by request id, from 1) goes to site
     * (k - 1) mod N in the order added, with its Host and to its remote (instead of "Host" and
     * "Remote"); a persistent connection carries only requests for its own site. Transparent
     * caching of several origins: each site is an origin's host name and address.
     * \param host the Host header value (non-empty, no control characters)
     * \param remote the site's server (InetSocketAddress or Inet6SocketAddress)
     * \throws AdcConfigError for a bad host or remote
     */
    void AddSite(const std::string& host, const Address& remote);

    /// \return the number of sites added (0: "Host" and "Remote" serve every request)
    uint32_t GetNSites() const;

    /**
     * \brief Add a header to every request (e.g. X-Forwarded-For), after Host.
     * \param name a token; throws AdcConfigError otherwise
     * \param value the value; throws AdcConfigError on control characters
     */
    void AddRequestHeader(const std::string& name, const std::string& value);

    /**
     * \brief Issue one request for \p url now (besides the generated ones; it does not count
     * against MaxRequests). Only while the application runs.
     * \param url the request target
     * \return the request id, or 0 when the application is not running
     */
    uint64_t IssueRequest(const std::string& url);

    /**
     * \brief The path a response took, from its headers, as recorded in AdcRequestRecord::path.
     *
     * Format: V, then "; " when both parts are non-empty, then "X-Cache: " X, where
     * - V is the entries of every "Via" field in wire order, each trimmed of spaces and
     *   joined with ", " (AdcHttpJoinedField; proxies append "1.1 <name>" entries as the
     *   response passes them, RFC 9110 section 7.6.3, so the first entry is the hop nearest
     *   the origin);
     * - X is the entries of every "X-Cache" field, combined the same way (empty when there
     *   is none).
     * Example: "1.1 L2NS3, 1.1 CRS1, 1.1 L2NS2; X-Cache: MISS"; "X-Cache: HIT" without Via;
     * "" when the response has neither header.
     * \param response a response head
     * \return the path string
     */
    static std::string ResponsePath(const AdcHttpMessage& response);

    /**
     * \brief Draw an object rank from the Zipf distribution over the catalogue:
     * P(k) = k^-s / sum_{j=1..N} j^-s; O(log N) by binary search over the CDF.
     * \return a rank in 1..CatalogueSize
     */
    uint32_t DrawRank();

    /**
     * \brief Assign fixed random variable streams.
     * \param stream first stream index
     * \return number of streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return requests issued
    uint64_t GetRequestsSent() const;
    /// \return requests completed
    uint64_t GetRequestsCompleted() const;
    /// \return requests failed
    uint64_t GetRequestsFailed() const;
    /// \return requests still open when the application stopped
    uint64_t GetRequestsOpenAtStop() const;
    /// \return failed requests by reason (sorted by reason)
    const std::map<std::string, uint64_t>& GetFailureReasons() const;
    /// \return every count above in one tally (requests still open are sent but not ended)
    const AdcRequestTally& GetTally() const;
    /// \return bytes received on all connections
    uint64_t GetBytesReceived() const;
    /// \return TCP connections opened
    uint64_t GetConnectionsOpened() const;
    /// \return requests issued and not yet ended
    uint32_t GetOpenRequests() const;
    /**
     * \brief Signature of the "TlsHandshake" trace: a connection's TLS handshake completed.
     * \param sessionId the session's ID in lowercase hex
     * \param resumed true when the server resumed the offered session
     */
    typedef void (*TlsHandshakeTracedCallback)(const std::string& sessionId, bool resumed);

    /// \return TLS handshakes completed ("Tls")
    uint64_t GetTlsHandshakes() const;
    /// \return of those, the ones that resumed the offered session
    uint64_t GetTlsResumed() const;

    /// \return transactions begun (TransactionLength > 1)
    uint64_t GetTransactionsStarted() const;
    /// \return transactions whose requests all ended
    uint64_t GetTransactionsDone() const;
    /// \return transactions broken by a response of another version
    uint64_t GetTransactionsBroken() const;
    /// \return transactions with requests still open at StopApplication
    uint64_t GetTransactionsOpenAtStop() const;
    /**
     * \brief The Cookie header value the next request would carry now ("" when none).
     * \return the value
     */
    std::string GetCookieHeader();

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// A request between RequestSent and RequestDone.
    struct Open
    {
        AdcRequestRecord rec; //!< the record being filled
        EventId timeout;      //!< the timeout event
        uint64_t conn{0};     //!< connection carrying it, 0 while queued
    };

    /// A cookie of the jar.
    struct JarCookie
    {
        std::string name;  //!< cookie-name
        std::string value; //!< cookie-value
        Time expiry;       //!< expires at (Time::Max(): session cookie)
    };

    /// A transaction (TransactionLength > 1).
    struct Transaction
    {
        uint32_t issued{0};                 //!< requests issued
        uint32_t ended{0};                  //!< requests ended
        uint32_t completed{0};              //!< requests ended COMPLETED
        std::optional<std::string> version; //!< pinned by the first response
        bool broken{false};                 //!< a response of another version came
        bool openAtStop{false};             //!< a request was open at StopApplication
    };

    /// One TCP connection.
    struct Conn
    {
        Ptr<Socket> socket;                  //!< its socket
        Address remote;                      //!< where it goes
        bool connected{false};               //!< handshake done
        uint64_t current{0};                 //!< request in flight, 0 when idle
        AdcHttpStreamParser parser;          //!< response reassembly
        std::shared_ptr<AdcTlsEndpoint> tls; //!< "Tls": the connection's TLS client, or null
    };

    // attribute accessors; the setters throw AdcConfigError on values out of range
    void SetCatalogueSize(uint32_t n);
    uint32_t GetCatalogueSize() const;
    void SetZipfExponent(double s);
    double GetZipfExponent() const;
    void SetCacheableFraction(double f);
    double GetCacheableFraction() const;
    void SetMaxConnections(uint32_t n);
    uint32_t GetMaxConnections() const;
    void SetRequestTimeout(Time t);
    Time GetRequestTimeout() const;
    void SetHost(std::string host);
    std::string GetHost() const;
    void SetCookiePolicyName(std::string name);
    std::string GetCookiePolicyName() const;
    void SetOtherCookie(std::string cookie);
    std::string GetOtherCookie() const;
    void SetTransactionLength(uint32_t n);
    uint32_t GetTransactionLength() const;

    // TLS (adc-http-client-tls.cc)
    /// Start connection \p cid's TLS handshake (its ClientHello goes out).
    void StartTls(uint64_t cid);
    /**
     * \brief Take bytes \p raw of connection \p cid through its TLS client: handshake answered,
     * a request waiting for the handshake sent once it completes.
     * \return the application data they carried (null when none); the connection may be gone
     */
    Ptr<Packet> TlsReceive(uint64_t cid, Ptr<Packet> raw);
    /// \param c a connection \param p bytes of a request \return what goes on the wire
    Ptr<Packet> TlsWrap(Conn& c, Ptr<Packet> p);
    /// \param c a connection \return whether requests can go on it (connected, TLS done)
    static bool IsReady(const Conn& c);

    /// Keep the cookies of Set-Cookie fields of \p response to request \p rid (KEEP, OTHER).
    void StoreCookies(uint64_t rid, const AdcHttpMessage& response);
    /// \return whether the policy lets the jar hold a cookie named \p name
    bool MayKeep(const std::string& name) const;
    /// \return the transaction of request \p rid (0 when transactions are off)
    uint64_t TransactionOf(uint64_t rid) const;
    /// Pin or check the version of transaction of request \p rid from \p response.
    void CheckVersion(uint64_t rid, const AdcHttpMessage& response);
    /// Request \p rid ended with \p outcome: count it in its transaction.
    void TransactionEnd(uint64_t rid, AdcRequestOutcome outcome);
    /// Transaction \p tid ended: count and trace it, forget it.
    void FinishTransaction(uint64_t tid);

    /// Issue the next generated request and schedule the one after.
    void IssueNext();
    /// Schedule the next generated request.
    void ScheduleNext();
    /// \return the request head for \p url to \p host ("" = "Host")
    AdcHttpMessage BuildRequest(const std::string& url,
                                const std::string& cookie = "",
                                const std::string& host = "") const;
    /// \param rid a request id \return its site's index (sites given), else -1
    int64_t SiteOf(uint64_t rid) const;
    /// \param rid a request id \return the Host it carries
    const std::string& HostOf(uint64_t rid) const;
    /// Give queued requests to idle or new connections.
    void Dispatch();
    /// \param want the remote needed (nullptr: any)
    /// \return id of the lowest-numbered idle connected connection to it, 0 if none
    uint64_t FindIdle(const Address* want = nullptr) const;
    /// Open a connection for request \p rid; fails the request when that is impossible.
    void OpenConnection(uint64_t rid);
    /// Put request \p rid on connection \p cid and send it.
    void SendOn(uint64_t cid, uint64_t rid);
    /// Make request \p rid connection \p cid's current one; its record learns the server and
    /// the local address.
    void Attach(uint64_t cid, uint64_t rid);
    /// \return the failure reason a complete message \p head gives its request ("" if none)
    static std::string ResponseFailure(const AdcHttpMessage& head);
    /// End request \p rid: COMPLETED when \p reason is empty, else FAILED with it.
    void End(uint64_t rid, const std::string& reason);
    /// End request \p rid with \p outcome (\p reason only for FAILED): count, trace.
    void EndAs(uint64_t rid, AdcRequestOutcome outcome, const std::string& reason);
    /// Close connection \p cid (ending its request with \p reason when non-empty).
    void DropConn(uint64_t cid, const std::string& reason);
    /// \return the connection id of socket \p s, 0 if unknown
    uint64_t IdOf(Ptr<Socket> s) const;
    /// \return the address the node would use, before any connection tells us better
    AdcIpAddress DefaultLocalIp() const;

    /// The handshake of \p s completed: send its request.
    void HandleConnected(Ptr<Socket> s);
    /// The handshake of \p s failed: "connect-failed".
    void HandleConnectFailed(Ptr<Socket> s);
    /// Bytes arrived on \p s: feed the parser, end completed requests.
    void HandleRead(Ptr<Socket> s);
    /// Read what \p s holds for connection \p cid and end its request when the response is in.
    void ReadResponses(uint64_t cid, Ptr<Socket> s);
    /// End the request of connection \p cid when its parser holds the final response (or an
    /// error); interim 1xx responses are skipped.
    void TakeResponse(uint64_t cid);
    /// The server closed \p s: a close-delimited response completes, otherwise its request (if
    /// any) fails "connection-closed".
    void HandlePeerClose(Ptr<Socket> s);
    /// \p s was reset: its request (if any) fails "connection-reset".
    void HandleError(Ptr<Socket> s);
    /// Request \p rid reached RequestTimeout: "timeout".
    void Timeout(uint64_t rid);

    // attributes
    Address m_remote;                                     //!< server or VIP
    Ptr<RandomVariableStream> m_interRequest;             //!< seconds between generated requests
    uint32_t m_maxRequests;                               //!< 0 = unlimited
    Time m_requestStopTime;                               //!< no new request after this (0 = never)
    bool m_persistent;                                    //!< keep-alive connections
    uint32_t m_maxConnections;                            //!< parallel connections
    Time m_requestTimeout;                                //!< per-request deadline
    std::string m_method;                                 //!< "Method"
    std::string m_host;                                   //!< Host header
    std::vector<std::pair<std::string, Address>> m_sites; //!< AddSite: (Host, remote)
    CookiePolicy m_cookiePolicy;                          //!< "CookiePolicy"
    std::string m_otherCookie;                            //!< "OtherCookie"
    uint32_t m_transactionLength;                         //!< "TransactionLength"

    AdcZipfUrlGenerator m_workload;                            //!< URLs: Zipf ranks, cacheability
    Callback<Address, const std::string&, uint64_t> m_chooser; //!< server selection hook
    std::vector<std::pair<std::string, std::string>> m_extraHdrs; //!< extra request headers

    bool m_running;                         //!< between Start and Stop
    EventId m_issueEvent;                   //!< next generated request
    uint32_t m_generated;                   //!< generated requests so far
    uint64_t m_lastId;                      //!< last request id
    std::map<uint64_t, Open> m_open;        //!< open requests by id
    std::deque<uint64_t> m_queue;           //!< requests waiting for a connection
    std::map<uint64_t, Conn> m_conns;       //!< connections by id
    std::map<Ptr<Socket>, uint64_t> m_idOf; //!< socket -> connection id (lookup only)
    uint64_t m_nextConnId;                  //!< next connection id (from 1)
    bool m_dispatching;                     //!< Dispatch is running
    bool m_dispatchAgain;                   //!< Dispatch was requested while running
    bool m_disposing;                       //!< in DoDispose: traces are not fired

    AdcRequestTally m_tally;           //!< requests issued and how they ended
    uint64_t m_bytesRx;                //!< bytes received
    bool m_tls{false};                 //!< "Tls"
    bool m_tlsResume{true};            //!< "TlsResume"
    std::vector<uint8_t> m_tlsSession; //!< the last session established (offered when resuming)
    uint64_t m_tlsHandshakes{0};       //!< see GetTlsHandshakes
    uint64_t m_tlsResumed{0};          //!< see GetTlsResumed
    TracedCallback<const std::string&, bool> m_tlsTrace; //!< "TlsHandshake"
    uint64_t m_connsOpened;                              //!< connections opened

    std::vector<JarCookie> m_jar;          //!< cookies, in creation order
    std::map<uint64_t, Transaction> m_txs; //!< open transactions by id
    uint64_t m_txStarted;                  //!< transactions begun
    uint64_t m_txDone;                     //!< transactions done
    uint64_t m_txBroken;                   //!< transactions broken
    uint64_t m_txOpenAtStop;               //!< transactions open at the stop

    TracedCallback<const AdcRequestRecord&> m_sentTrace; //!< "RequestSent"
    TracedCallback<const AdcRequestRecord&> m_doneTrace; //!< "RequestDone"
    TracedCallback<uint64_t, const AdcHttpStreamParser::Message&> m_responseTrace; //!< "Response"
    TracedCallback<Ptr<const Packet>, const Address&> m_rxTrace;                   //!< "Rx"
    TracedCallback<uint64_t, const std::string&, const std::string&, Time>
        m_cookieSetTrace; //!< "CookieSet"
    TracedCallback<uint64_t, uint64_t, const std::string&, const std::string&>
        m_txBrokenTrace;                                              //!< "TransactionBroken"
    TracedCallback<uint64_t, uint32_t, uint32_t, bool> m_txDoneTrace; //!< "TransactionDone"
};

} // namespace ns3

#endif /* ADC_HTTP_CLIENT_H */
