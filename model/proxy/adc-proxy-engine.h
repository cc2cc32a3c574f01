/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: one HTTP proxy engine for every full-proxy appliance (CRD's lower tier, later
 * content switching): client- and server-side TCP connections, streaming with flow control,
 * pipelining, timeouts and server-side connection reuse; a policy decides per request.
 */

#ifndef ADC_PROXY_ENGINE_H
#define ADC_PROXY_ENGINE_H

#include "adc-http-cutter.h"
#include "adc-proxy-policy.h"
#include "adc-proxy-server-pool.h"
#include "adc-socket-util.h"
#include "adc-source-address-policy.h"
#include "adc-tls-termination.h"

#include "ns3/adc-http-message.h"
#include "ns3/adc-tls-endpoint.h"
#include "ns3/address.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A full HTTP/1.1 reverse proxy over real ns-3 TCP, driven by an AdcProxyPolicy.
 *
 * How a request travels: the engine listens on ANY:"ServicePort" of its node (Start), so with
 * transparent interception an accepted socket's local address (GetSockName) is the original
 * destination ("Accept"; the policy's Accepted). Requests are cut from the client's byte
 * stream (AdcHttpCutter over AdcHttpStreamParser) and served one at a time in order: up to
 * "MaxPipelined" further requests wait parsed, and their responses go back in request order.
 * When a request's head is complete the policy's Decide answers it locally, or names a server,
 * header edits and an AdcSourceAddressPolicy. The engine then takes an idle connection to that
 * server from that source ("ServerConnectionReuse"), or opens one (Bind and Connect through the
 * source policy: a mapped IP, or the client's IP and a port of an exclusive range registered
 * with the routing hook), and sends the edited head and the body bytes as received
 * ("ServerConnection"). The response head gets "1.1 <Name>" appended to Via, its
 * hop-by-hop Connection header rewritten for the client and, when final (not 1xx), the
 * decision's responseFields added (a persistence cookie); its body bytes are relayed as
 * received, whatever their framing, up to where the parser ends the message.
 *
 * Flow control, both ways: a side is not read while the queue towards the other side holds
 * "RelayWindow" bytes or more (TCP's window then closes towards the sender): the server while
 * the client is slow, the client (request bodies) while the server is slow; parsed requests
 * waiting beyond MaxPipelined, or RelayWindow bytes of their bodies, stop reading too.
 *
 * Timeouts: a server connection that is not established after "ConnectTimeout", or that makes
 * no progress for "ResponseTimeout" while the engine waits for response bytes, fails.
 *
 * Failures are answered by the engine itself when no response byte was relayed yet, as
 * NetScaler's status codes say (the mapping; "ServerFailure" traces the reason and status):
 * - 503 Service Unavailable: no source for the connection (every port of the source policy's
 *   range in use: "LocalAnswer" cause "no-source"); a policy answers 503 itself when it finds
 *   no server up;
 * - 502 Bad Gateway: "connect-failed" (refused, reset during the handshake, or no route),
 *   "timeout" while connecting, "reset", "closed-before-response-complete",
 *   "bad-response: <parser reason>", "destination-is-this-appliance" (a forward to one of the
 *   node's own addresses, which would come straight back);
 * - "ResponseTimeoutStatus" (504 Gateway Timeout by default, RFC 9110 15.6.5; 502 allowed):
 *   "timeout" after the request was sent.
 * Once response bytes were relayed, a failure closes the client connection instead (only that
 * tells the client the response is cut). A malformed request gets 400 and the connection
 * closes ("Drop" "bad-request: <reason>").
 *
 * Connection reuse ("ServerConnectionReuse", on by default as NetScaler's -reuse): requests are
 * forwarded persistent, and a server connection whose response ended cleanly and whose server
 * kept it open goes idle into a pool keyed by server and source address, for at most
 * "ServerIdleTimeout" and at most "MaxIdlePerServer" per server (the oldest idle one is closed
 * first). The next request to that server from that source takes the most recently idle one;
 * a USIP connection therefore serves only its own client. Off: every request gets a connection
 * of its own with "Connection: close", and the engine waits for the server's FIN before it
 * closes (the server, not the appliance, holds TIME_WAIT).
 *
 * Every request received ends as a relayed response, a local answer with a trace, or a "Drop"
 * when its client connection went away first.
 *
 * TLS ("Tls", NetScaler's SSL virtual servers): every client connection first completes a
 * TLS 1.2 handshake (AdcTlsEndpoint, server role: records and handshake messages as on the
 * wire, payloads not encrypted); the HTTP bytes then travel in application_data records both
 * ways, and the server side stays plain HTTP (SSL offload). A ClientHello offering a session
 * ID the engine issued within "TlsSessionTimeout" is resumed (abbreviated handshake); any
 * other gets a full handshake and a new 32-byte ID. The policy sees the session in
 * AdcProxyFront::tlsSessionId (SSLSESSION persistence); "TlsHandshake" traces each one. A
 * handshake that fails sends the alert, traces "Drop" "tls: <reason>" and closes.
 */
class AdcProxyEngine : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcProxyEngine();
    ~AdcProxyEngine() override;

    /**
     * \brief Signature of "Accept": a client connection was accepted.
     * \param peer the peer as "ip:port"
     * \param destination the address it connected to (the original destination) as "ip:port"
     */
    typedef void (*AcceptTracedCallback)(const std::string& peer, const std::string& destination);

    /**
     * \brief Signature of "ServerConnection": a request went to a server.
     * \param target the server's name (the policy's)
     * \param source the connection's source as "ip:port"
     * \param server the server as "ip:port"
     * \param reused true: an idle connection of the pool; false: a new one
     */
    typedef void (*ServerConnectionTracedCallback)(const std::string& target,
                                                   const std::string& source,
                                                   const std::string& server,
                                                   bool reused);

    /**
     * \brief Signature of "ServerFailure".
     * \param target the server's name
     * \param reason "connect-failed", "timeout", "reset", "closed-before-response-complete",
     *        "bad-response: <parser reason>" or "destination-is-this-appliance"
     * \param status the status answered (0 when response bytes were relayed: the client
     *        connection is closed instead)
     */
    typedef void (*ServerFailureTracedCallback)(const std::string& target,
                                                const std::string& reason,
                                                uint16_t status);

    /**
     * \brief Signature of "LocalAnswer": the engine answered a request itself.
     * \param status the status code
     * \param cause "policy", "no-source", "bad-request" or a ServerFailure reason
     */
    typedef void (*LocalAnswerTracedCallback)(uint16_t status, const std::string& cause);

    /**
     * \brief Signature of "Drop": a request refused with 4xx by a policy or the parser, or one
     * that could not be answered.
     * \param reason the policy's reason, "bad-request: <parser reason>",
     *        "connection-closed-before-response" or "incomplete-request-at-close"
     */
    typedef void (*DropTracedCallback)(const std::string& reason);

    /**
     * \brief Signature of "TlsHandshake": a client connection's TLS handshake completed.
     * \param peer the client as "ip:port"
     * \param sessionId the session's ID in lowercase hex
     * \param resumed true for an abbreviated handshake resuming the session
     */
    typedef void (*TlsHandshakeTracedCallback)(const std::string& peer,
                                               const std::string& sessionId,
                                               bool resumed);

    /**
     * \brief Signature of "IdleClosed": an idle server connection left the pool closed.
     * \param server the server as "ip:port"
     * \param source the connection's source as "ip:port"
     * \param reason "idle-timeout", "pool-full", "closed-by-server" or "unexpected-bytes"
     */
    typedef void (*IdleClosedTracedCallback)(const std::string& server,
                                             const std::string& source,
                                             const std::string& reason);

    /**
     * \brief The policy asked for every request (required before Start; not owned: it must
     * outlive the engine's running).
     * \param policy the policy
     */
    void SetPolicy(AdcProxyPolicy* policy);

    /**
     * \brief Listen on ANY:ServicePort of \p node and serve.
     * \param node the node
     * \throws AdcConfigError when the settings are unusable or the port cannot be listened on
     */
    void Start(Ptr<Node> node);

    /**
     * \brief Stop listening and close every connection (pooled ones too).
     * \param quiet true while disposing: no traces, no packets (the node's stack may be gone)
     */
    void Stop(bool quiet);

    /// \return requests received (parse errors excluded)
    uint64_t GetRequests() const;
    /// \return responses relayed completely
    uint64_t GetResponsesRelayed() const;
    /// \return "ServerFailure" traces
    uint64_t GetServerFailures() const;
    /// \return "Drop" traces
    uint64_t GetDrops() const;
    /// \return server connections opened
    uint64_t GetServerConnectionsOpened() const;
    /// \return requests that went over an idle connection of the pool
    uint64_t GetServerConnectionsReused() const;
    /// \return open client connections
    uint32_t GetOpenFrontConnections() const;
    /// \return open server connections (idle ones included)
    uint32_t GetOpenServerConnections() const;
    /// \return idle server connections in the pool
    uint32_t GetIdleServerConnections() const;
    /**
     * \return bytes the engine holds now for sockets whose transmit buffers are full: towards
     * clients (responses) and towards servers (requests)
     */
    uint64_t GetQueuedBytes() const;
    /**
     * \return the largest queue towards one socket since Start (RelayWindow bounds it, plus
     * what one read of the other side brought)
     */
    uint64_t GetPeakQueuedBytes() const;

    /**
     * \return the most requests of one client parsed and waiting at once since Start
     * (MaxPipelined stops the reading; one read may bring a few more)
     */
    uint32_t GetPeakPipelined() const;

    /// \return TLS handshakes completed (resumed ones included)
    uint64_t GetTlsHandshakes() const;
    /// \return of those, the resumed ones
    uint64_t GetTlsResumed() const;
    /// \return TLS handshakes that failed (an alert sent or received)
    uint64_t GetTlsFailures() const;

    /**
     * \brief The memory of the per-connection state held now: client and server connection
     * records, their queued bytes, requests waiting, lookup entries (map nodes counted as four
     * pointers each) and the pool's index. Per-engine state is not counted.
     * \return bytes
     */
    std::size_t GetPerFlowStateBytes() const;

  protected:
    void DoDispose() override;

  private:
    /// A request cut from a client connection, waiting for its turn.
    struct Request
    {
        AdcHttpMessage head;           //!< its head
        std::vector<Ptr<Packet>> body; //!< body bytes received so far, as received
        uint64_t bodyBytes{0};         //!< their total
        bool complete{false};          //!< its end was received
        std::string error;             //!< non-empty: the stream was malformed (answer 400)
    };

    /// A client connection.
    struct Front
    {
        Ptr<Socket> socket;           //!< the accepted socket
        AdcProxyFront info;           //!< what the policy sees
        AdcHttpCutter requests;       //!< request reassembly
        std::deque<Request> pending;  //!< requests not dispatched yet (the last may be growing)
        uint64_t pendingBody{0};      //!< body bytes held in pending
        uint64_t back{0};             //!< server connection of the current request, 0 if none
        bool bodyOpen{false};         //!< the current request's body is still arriving
        bool currentComplete{false};  //!< the current request was received whole
        bool keepAlive{true};         //!< the current request keeps the connection open
        bool http10{false};           //!< the current request is HTTP/1.0
        AdcTxQueue out;               //!< bytes for the client waiting for buffer room
        bool readStopped{false};      //!< after a parse error: further bytes are discarded
        bool paused{false};           //!< left bytes unread (flow control, pipelining)
        bool closeWhenFlushed{false}; //!< close once the queue is empty
        bool peerClosed{false};       //!< the client sent FIN
        bool abort{false};            //!< close now (a relayed response was cut)
        bool inService{false};        //!< Service is running for it
        bool serviceAgain{false};     //!< Service was requested while running
        std::shared_ptr<AdcTlsEndpoint> tls; //!< TLS termination ("Tls"); null without
    };

    /// A server connection, carrying one request at a time.
    struct Back
    {
        Ptr<Socket> socket;                                 //!< its socket
        uint64_t front{0};                                  //!< client waiting, 0 if none
        AdcProxyDecision decision;                          //!< the request's decision
        std::optional<AdcSourceAddressPolicy::Lease> lease; //!< its source
        Ptr<AdcSourceAddressPolicy> source;                 //!< who gave the lease
        AdcProxyServerPool::Key key;                        //!< its pool key
        AdcTxQueue out;                                     //!< request bytes waiting for room
        AdcHttpCutter responses;                            //!< response reassembly
        bool connected{false};                              //!< handshake done
        bool headDone{false};                               //!< a final response head relayed
        uint64_t relayed{0};                                //!< bytes given to the client
        bool done{false};                                   //!< the whole response relayed
        bool reusable{false};                               //!< may go idle after it
        bool peerClosed{false};                             //!< the server sent FIN
        bool idle{false};                                   //!< in the pool
        bool released{false};                               //!< the policy's Released ran
        bool paused{false}; //!< left bytes unread for the client's sake (flow control)
        EventId timer;      //!< connect/progress/idle timer
    };

    /// Throw AdcConfigError on an unusable configuration.
    void CheckConfig() const;
    /// \param a an address \return true when it belongs to this node
    bool IsOwnAddress(Ipv4Address a) const;

    // client side (adc-proxy-engine.cc)
    void HandleAccept(Ptr<Socket> s, const Address& from);
    void HandleFrontRead(Ptr<Socket> s);
    void HandleFrontSend(Ptr<Socket> s, uint32_t available);
    void HandleFrontPeerClose(Ptr<Socket> s);
    void HandleFrontError(Ptr<Socket> s);
    /// Read, parse, dispatch, relay and flush for client \p fid until nothing moves.
    void Service(uint64_t fid);
    /// \param f a client \return true while its bytes must wait (flow control, pipelining)
    bool IsFrontReadBlocked(const Front& f) const;
    /// Move received bytes of \p f into requests (bounded), and body bytes to its server.
    void ReadFront(Front& f);
    /// Body bytes (or the end) of the request being served on \p f.
    void ForwardBody(Front& f, const AdcHttpCutter::Piece& piece);
    /// Handle the next request of client \p fid.
    void HandleRequest(uint64_t fid, Request& request);
    /**
     * \brief Answer \p f with an empty-bodied \p status from this engine.
     * \param f the client
     * \param status the status code
     * \param reason its reason phrase
     * \param close close the connection after it
     * \param cause the "LocalAnswer" cause
     */
    void AnswerLocally(Front& f,
                       uint16_t status,
                       const std::string& reason,
                       bool close,
                       const std::string& cause);
    /// Close client \p fid, dropping what it still waits for (with traces unless quiet).
    void CloseFront(uint64_t fid);

    // server side (adc-proxy-engine-server.cc)
    /// Send \p request of client \p fid as \p decision says (pooled or new connection).
    void StartBack(uint64_t fid, Request& request, const AdcProxyDecision& decision);
    /// Queue the request head (edited) and the body received so far on \p b.
    void QueueRequest(Back& b, const Front& f, Request& request);
    /// Connect server connection \p bid; fails it on error.
    void ConnectBack(uint64_t bid);
    void HandleBackConnected(Ptr<Socket> s);
    void HandleBackConnectFailed(Ptr<Socket> s);
    /**
     * \param s a server socket
     * \param idleReason why an idle connection that reports something must close
     * \return its connection when it carries a request, else 0 (an idle one is closed)
     */
    uint64_t BusyBackOf(Ptr<Socket> s, const std::string& idleReason);
    void HandleBackRead(Ptr<Socket> s);
    void HandleBackSend(Ptr<Socket> s, uint32_t available);
    void HandleBackPeerClose(Ptr<Socket> s);
    void HandleBackError(Ptr<Socket> s);
    /// Relay what server connection \p bid received (while the client has room); finish or fail.
    void ReadBack(uint64_t bid);
    /// Take one received segment of \p b; \return an error text, empty when fine.
    std::string ConsumeResponse(Back& b, Front& f, Ptr<Packet> p);
    /// Relay the pieces \p b's cutter produced; \return an error text, empty when fine.
    std::string RelayPieces(Back& b, Front& f);
    /// Relay the response head \p head to \p f, rewritten for the client connection.
    void RelayHead(Back& b, Front& f, AdcHttpMessage head);
    /// The whole response of \p bid was relayed: free the client, pool or close the connection.
    void FinishBack(uint64_t bid);
    /// Server connection \p bid failed with \p reason: trace, answer or cut the client, close.
    void FailBack(uint64_t bid, const std::string& reason);
    /// Give \p b's decision back to the policy (once).
    void ReleaseDecision(Back& b);
    /// Close server connection \p bid: out of the pool, source and decision released, closed.
    void CloseBack(uint64_t bid);
    /// Close idle connection \p bid with \p reason ("IdleClosed").
    void CloseIdle(uint64_t bid, const std::string& reason);
    /// (Re)start the timer of server connection \p bid for its state.
    void ArmTimer(uint64_t bid);
    /// The timer of server connection \p bid expired.
    void BackTimer(uint64_t bid);

    // TLS termination (adc-proxy-engine-tls.cc)
    /// Give client \p f its TLS endpoint (server role).
    void StartFrontTls(Front& f);
    /**
     * \brief Take bytes \p raw received from client \p f through its TLS endpoint: handshake
     * records answered, alerts handled.
     * \return the application data they carried (null or empty when none)
     */
    Ptr<Packet> FrontTlsReceive(Front& f, Ptr<Packet> raw);
    /// Queue \p p for client \p f, in application_data records when it speaks TLS.
    void PushToClient(Front& f, Ptr<Packet> p);

    // helpers
    /// \return the client of socket \p s, 0 if unknown
    uint64_t FrontOf(Ptr<Socket> s) const;
    /// \return the server connection of socket \p s, 0 if unknown
    uint64_t BackOf(Ptr<Socket> s) const;
    /// Detach every callback of \p s, discard unread bytes and close it (unless quiet).
    void DetachAndClose(Ptr<Socket> s);
    /// Fire "Drop" with \p reason and count it (not while quiet).
    void Drop(const std::string& reason);
    /// Note a queue's size for GetPeakQueuedBytes.
    void NoteQueue(const AdcTxQueue& q);

    // attributes
    std::string m_name;          //!< Name (Via, Server)
    bool m_responseVia{true};    //!< ResponseVia
    uint16_t m_servicePort;      //!< ServicePort
    uint32_t m_maxPipelined;     //!< MaxPipelined
    uint32_t m_window;           //!< RelayWindow
    Time m_connectTimeout;       //!< ConnectTimeout
    Time m_responseTimeout;      //!< ResponseTimeout
    uint16_t m_timeoutStatus;    //!< ResponseTimeoutStatus
    bool m_reuse;                //!< ServerConnectionReuse
    Time m_idleTimeout;          //!< ServerIdleTimeout
    uint32_t m_maxIdlePerServer; //!< MaxIdlePerServer
    bool m_tls;                  //!< Tls
    Time m_tlsSessionTimeout;    //!< TlsSessionTimeout
    uint64_t m_tlsSeed;          //!< TlsSeed

    AdcProxyPolicy* m_policy;                  //!< the policy (not owned)
    Ptr<Node> m_node;                          //!< the node it serves on
    Ptr<Socket> m_listen;                      //!< listening socket
    std::map<uint64_t, Front> m_fronts;        //!< client connections by id
    std::map<uint64_t, Back> m_backs;          //!< server connections by id
    std::map<Ptr<Socket>, uint64_t> m_frontOf; //!< socket -> client id (lookup only)
    std::map<Ptr<Socket>, uint64_t> m_backOf;  //!< socket -> server id (lookup only)
    AdcProxyServerPool m_pool;                 //!< idle server connections
    uint64_t m_nextId;                         //!< next connection id (from 1)
    bool m_quiet;                              //!< stopping quietly: no traces, no packets

    uint64_t m_requests;           //!< see GetRequests
    uint64_t m_relayedCount;       //!< see GetResponsesRelayed
    uint64_t m_failures;           //!< see GetServerFailures
    uint64_t m_drops;              //!< see GetDrops
    uint64_t m_opened;             //!< see GetServerConnectionsOpened
    uint64_t m_reused;             //!< see GetServerConnectionsReused
    uint64_t m_peakQueue;          //!< see GetPeakQueuedBytes
    uint32_t m_peakPipelined;      //!< see GetPeakPipelined
    uint64_t m_tlsHandshakes{0};   //!< see GetTlsHandshakes
    uint64_t m_tlsResumed{0};      //!< see GetTlsResumed
    uint64_t m_tlsFailures{0};     //!< see GetTlsFailures
    AdcTlsSessionCache m_tlsCache; //!< the session cache (TlsSessionTimeout)

    TracedCallback<const std::string&, const std::string&> m_acceptTrace; //!< "Accept"
    TracedCallback<const std::string&, const std::string&, const std::string&, bool>
        m_serverConnectionTrace; //!< "ServerConnection"
    TracedCallback<const std::string&, const std::string&, uint16_t>
        m_serverFailureTrace;                                   //!< "ServerFailure"
    TracedCallback<uint16_t, const std::string&> m_answerTrace; //!< "LocalAnswer"
    TracedCallback<const std::string&> m_dropTrace;             //!< "Drop"
    TracedCallback<const std::string&, const std::string&, const std::string&>
        m_idleClosedTrace; //!< "IdleClosed"
    TracedCallback<const std::string&, const std::string&, bool>
        m_tlsHandshakeTrace; //!< "TlsHandshake"
};

} // namespace ns3

#endif /* ADC_PROXY_ENGINE_H */
