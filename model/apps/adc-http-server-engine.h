/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the server side of HTTP/1.1 connections, shared by the serving applications
 * (AdcHttpServer, the CRD cache server).
 */

#ifndef ADC_HTTP_SERVER_ENGINE_H
#define ADC_HTTP_SERVER_ENGINE_H

#include "ns3/adc-http-message.h"
#include "ns3/adc-tls-endpoint.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The server side of HTTP/1.1 connections, shared by the serving applications: listens,
 * accepts, reassembles requests, and writes responses in request order as the socket's transmit
 * buffer frees up. The owner decides each response, now or later.
 *
 * Listens on the IPv4 and (when the node has IPv6) the IPv6 any-address. Each well-formed
 * request gets a slot in its connection's response queue and is handed to the request callback
 * with (connection id, slot sequence number); the owner answers it exactly once with Respond(),
 * immediately or later (a processing delay, an origin fetch). Responses leave in request order:
 * an unanswered slot holds the ones after it on its connection (pipelining).
 *
 * Connection rules: a request that is not keep-alive (or a response that is not) closes the
 * connection once its response is sent, and requests after it are not read; such a response
 * gets "Connection: close" appended when it does not already say so. A HEAD request's response,
 * and any 1xx, 204 or 304 response, is sent without a body (RFC 9112 section 6.3 item 1: the
 * recipient reads none, whatever the head says). When the peer half-closes, responses still due
 * are sent, then the connection closes. A malformed request (AdcHttpStreamParser's rules:
 * chunked request bodies are read, a request whose framing is unclear, e.g. Transfer-Encoding
 * with Content-Length, or a CONNECT, is malformed) gets "400 Bad Request" (with "Server", when
 * a server name is set, "Content-Length: 0" and "Connection: close") after the responses before
 * it, the reject callback gets the parser's reason, and the connection is closed.
 *
 * A body goes out as it is (Content-Length framing) or, when Respond is given a chunk size, in
 * the chunked transfer coding (RFC 9112 section 7.1): chunks of that many bytes ("<hex size>
 * CRLF data CRLF"), then the last chunk and an empty trailer section ("0 CRLF CRLF").
 *
 * Not an Object: the owning Application holds it by value and forwards Start/Stop/Dispose.
 */
class AdcHttpServerEngine
{
  public:
    /// (connection id, slot sequence number, request head, TCP peer) of a well-formed request.
    typedef Callback<void, uint64_t, uint64_t, const AdcHttpMessage&, const Address&>
        RequestCallback;

    AdcHttpServerEngine();
    ~AdcHttpServerEngine();
    AdcHttpServerEngine(const AdcHttpServerEngine&) = delete;
    AdcHttpServerEngine& operator=(const AdcHttpServerEngine&) = delete;

    /// \param cb called for each well-formed request (it must lead to one Respond call)
    void SetRequestCallback(RequestCallback cb);
    /// \param cb called with the reason when a malformed request is rejected with 400
    void SetRejectCallback(Callback<void, const std::string&> cb);
    /// \param cb called with the peer when a connection is accepted
    void SetAcceptCallback(Callback<void, const Address&> cb);
    /// \param cb called for every packet (head or body bytes) handed to TCP
    void SetTxCallback(Callback<void, Ptr<const Packet>> cb);

    /**
     * \brief Speak TLS 1.2 on every connection accepted from now on (an HTTPS server: the
     * server role of AdcTlsEndpoint; sessions it issued are resumable for the server's life).
     * \param on whether to
     */
    void SetTls(bool on);

    /**
     * \brief Start listening (a second call while listening does nothing).
     * \param node the node
     * \param port the TCP port
     * \param owner the owning class, for error messages
     * \param serverName value of the "Server" header of 400 responses (empty: none)
     * \throws AdcConfigError when the port cannot be bound
     */
    void Start(Ptr<Node> node,
               uint16_t port,
               const std::string& owner,
               const std::string& serverName);

    /**
     * \brief Close the listeners and every connection; responses still due are discarded.
     * \param quiet true during disposal: close nothing on the wire (the IP stack may be gone)
     */
    void Stop(bool quiet);

    /// \brief Stop(true) and drop the callbacks.
    void Dispose();

    /**
     * \brief Answer the request in slot \p seq of connection \p conn.
     * \param conn the connection id given to the request callback
     * \param seq the slot sequence number given to the request callback
     * \param head the response head (the body length is \p bodyBytes; the head should carry
     *        the matching Content-Length, or "Transfer-Encoding: chunked" when \p chunkSize
     *        is not 0)
     * \param bodyBytes body length, the payload (not sent for HEAD requests and 1xx, 204 and
     *        304 responses)
     * \param delay processing delay before the response may leave (0: now)
     * \param chunkSize 0: the body follows the head as it is; otherwise it is sent in the
     *        chunked transfer coding, in chunks of at most this many bytes
     * \return false when the connection is gone or the slot was already answered (the
     *         response is then discarded)
     */
    bool Respond(uint64_t conn,
                 uint64_t seq,
                 const AdcHttpMessage& head,
                 uint64_t bodyBytes,
                 Time delay = Seconds(0),
                 uint32_t chunkSize = 0);

    /// \return responses to well-formed requests completely handed to TCP (400s not counted)
    uint64_t GetResponsesSent() const;
    /// \return bytes handed to TCP (heads and bodies, 400s included)
    uint64_t GetBytesSent() const;
    /// \return TCP connections accepted
    uint64_t GetConnectionsAccepted() const;
    /// \return malformed requests rejected with 400
    uint64_t GetRejected() const;
    /// \return connections currently open
    uint32_t GetOpenConnections() const;

  private:
    /// A response slot, in request order.
    struct Response
    {
        std::string text;       //!< head or chunk framing still to hand to TCP, in one piece
        uint64_t dataLeft{0};   //!< body bytes of the current chunk (or whole body) still due
        uint64_t bodyLeft{0};   //!< chunked: body bytes not yet in a chunk
        uint32_t chunkSize{0};  //!< chunk size; 0: the body is not chunked
        bool inChunk{false};    //!< chunked: a chunk's data was started (its CRLF is due)
        bool lastChunk{false};  //!< chunked: the last chunk was queued
        bool answered{false};   //!< Respond was called (or a 400 was queued)
        bool ready{false};      //!< answered and its processing delay is over
        bool closeAfter{false}; //!< close the connection once sent
        bool counted{true};     //!< counts as a served request (not a 400)
        bool headOnly{false};   //!< answer to a HEAD request: no body
        uint64_t seq{0};        //!< sequence number within the connection
        EventId delayEvent;     //!< the processing-delay event
    };

    /// One accepted connection.
    struct Conn
    {
        Ptr<Socket> socket;                  //!< the connection's socket
        Address peer;                        //!< the peer
        AdcHttpStreamParser parser;          //!< request reassembly
        std::deque<Response> responses;      //!< responses in request order
        bool closing{false};                 //!< no more requests are read
        bool peerClosed{false};              //!< the peer sent FIN
        uint64_t nextSeq{0};                 //!< sequence number of the next slot
        std::shared_ptr<AdcTlsEndpoint> tls; //!< TLS server side (SetTls), or null
    };

    /// \param c a connection \param n plaintext bytes \return the bytes they take on the wire
    static uint64_t WireBytes(const Conn& c, uint64_t n);
    /// Send \p p on \p c, in application_data records with TLS. \return Socket::Send's result
    int SendOn(Conn& c, Ptr<Packet> p);
    /**
     * \brief Take \p raw of connection \p id through its TLS endpoint (handshake answered).
     * \return the application data it carried (null when none); the connection may be closed
     */
    Ptr<Packet> TlsReceive(uint64_t id, Ptr<Packet> raw);

    /// Open a listening socket on \p local.
    Ptr<Socket> Listen(const Address& local);
    /// Accept a new connection.
    void HandleAccept(Ptr<Socket> s, const Address& from);
    /// Read and parse bytes of a connection.
    void HandleRead(Ptr<Socket> s);
    /// Transmit buffer space freed.
    void HandleSend(Ptr<Socket> s, uint32_t available);
    /// The peer closed its side.
    void HandlePeerClose(Ptr<Socket> s);
    /// The connection was reset.
    void HandleError(Ptr<Socket> s);
    /// Open a slot for \p request on connection \p id and hand it to the owner.
    void Dispatch(uint64_t id, const AdcHttpMessage& request);
    /// Queue a 400 response and stop reading, after a parse error.
    void Reject(uint64_t id, const std::string& reason);
    /// \return the slot \p seq of \p c, or nullptr
    static Response* FindSlot(Conn& c, uint64_t seq);
    /// The processing delay of slot \p seq on connection \p id is over.
    void ResponseReady(uint64_t id, uint64_t seq);
    /// Push ready responses of connection \p id into TCP; close when due.
    void Pump(uint64_t id);
    /// Push as much of \p r as fits; \return true when it was completely sent.
    bool SendSome(Conn& c, Response& r);
    /// Close connection \p id and forget it.
    void CloseConn(uint64_t id);
    /// \return the id of the connection of socket \p s, 0 if unknown
    uint64_t IdOf(Ptr<Socket> s) const;

    RequestCallback m_onRequest;                   //!< owner: a request arrived
    Callback<void, const std::string&> m_onReject; //!< owner: a request was rejected
    Callback<void, const Address&> m_onAccept;     //!< owner: a connection was accepted
    Callback<void, Ptr<const Packet>> m_onTx;      //!< owner: bytes handed to TCP
    std::string m_serverName;                      //!< "Server" of 400 responses
    Ptr<Socket> m_listen4;                         //!< IPv4 listener
    Ptr<Socket> m_listen6;                         //!< IPv6 listener
    std::map<uint64_t, Conn> m_conns;              //!< open connections by id
    std::map<Ptr<Socket>, uint64_t> m_idOf;        //!< socket -> id (lookup only)
    uint64_t m_nextConnId;                         //!< next connection id (from 1)
    bool m_tls{false};                             //!< SetTls
    std::set<std::vector<uint8_t>> m_tlsSessions;  //!< session IDs issued (resumable)
    Ptr<Node> m_tlsNode;                           //!< the node (TLS seeds)
    uint64_t m_served;                             //!< responses completed
    uint64_t m_bytesSent;                          //!< bytes handed to TCP
    uint64_t m_accepted;                           //!< connections accepted
    uint64_t m_rejected;                           //!< malformed requests
    bool m_quiet;                                  //!< stopping for disposal: send nothing
};

} // namespace ns3

#endif /* ADC_HTTP_SERVER_ENGINE_H */
