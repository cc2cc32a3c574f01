/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an HTTP/1.1 origin server application over TCP.
 */

#ifndef ADC_HTTP_SERVER_H
#define ADC_HTTP_SERVER_H

#include "adc-http-message.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An HTTP/1.1 origin server: answers every well-formed request with "200 OK" and a body
 * of the object's size, over persistent or one-shot TCP connections.
 *
 * Listens on the IPv4 and (when the node has IPv6) the IPv6 any-address. Requests are parsed
 * with AdcHttpStreamParser, so pipelined requests and requests split across segments work;
 * responses go out in request order after "ResponseDelay", bodies are pushed as the socket's
 * transmit buffer frees up. A response carries, in this order, "Server: <ServerName>",
 * "Content-Length: <size>" and, when the connection will close, "Connection: close". HEAD
 * requests get the head only. A malformed request gets "400 Bad Request" (with
 * "Content-Length: 0" and "Connection: close"), fires "Drop" with the parser's reason, and the
 * connection is closed.
 */
class AdcHttpServer : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcHttpServer();
    ~AdcHttpServer() override;

    /**
     * \brief Signature of the "Request" trace: a request was received.
     * \param request the request head
     * \param from the TCP peer (InetSocketAddress or Inet6SocketAddress)
     */
    typedef void (*RequestTracedCallback)(const AdcHttpMessage& request, const Address& from);

    /**
     * \brief Signature of the "AccessLog" trace: one line of the audit log per request.
     * \param peerIp the TCP peer's address (an appliance when one proxies the connection)
     * \param headerClientIp value of the "ClientIpHeader" request header, empty if absent
     * \param url the request target
     * \param when the time the request was received
     */
    typedef void (*AccessLogTracedCallback)(const std::string& peerIp,
                                            const std::string& headerClientIp,
                                            const std::string& url,
                                            Time when);

    /**
     * \brief Signature of the "Drop" trace: a malformed request was rejected.
     * \param reason why
     */
    typedef void (*DropTracedCallback)(const std::string& reason);

    /**
     * \brief Signature of the "Connection" trace: a TCP connection was accepted.
     * \param from the peer
     */
    typedef void (*ConnectionTracedCallback)(const Address& from);

    /**
     * \brief Give each URL its own object size (overrides "ObjectSize").
     * \param cb returns the body size in bytes for a request target
     */
    void SetObjectSizeCallback(Callback<uint32_t, const std::string&> cb);

    /// \return responses completely handed to TCP (200 responses; 400s are not counted)
    uint64_t GetRequestsServed() const;
    /// \return bytes handed to TCP (heads and bodies)
    uint64_t GetBytesSent() const;
    /// \return TCP connections accepted
    uint64_t GetConnectionsAccepted() const;
    /// \return malformed requests rejected
    uint64_t GetRequestsDropped() const;
    /// \return connections currently open
    uint32_t GetOpenConnections() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// A response waiting to be sent, in request order.
    struct Response
    {
        std::string head;       //!< head bytes
        bool headSent{false};   //!< head handed to TCP
        uint64_t bodyLeft{0};   //!< body bytes still to hand to TCP
        bool ready{false};      //!< processing delay over
        bool closeAfter{false}; //!< close the connection once sent
        bool counted{true};     //!< counts as a served request (not a 400)
        uint64_t seq{0};        //!< sequence number within the connection
        EventId delayEvent;     //!< the processing-delay event
    };

    /// One accepted connection.
    struct Conn
    {
        Ptr<Socket> socket;             //!< the connection's socket
        Address peer;                   //!< the peer
        AdcHttpStreamParser parser;     //!< request reassembly
        std::deque<Response> responses; //!< responses in request order
        bool closing{false};            //!< no more requests are read
        bool peerClosed{false};         //!< the peer sent FIN
        uint64_t nextSeq{0};            //!< sequence number of the next response
    };

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
    /// Queue the response to \p request on connection \p id.
    void Answer(uint64_t id, const AdcHttpMessage& request);
    /// Queue a 400 response and stop reading, after a parse error.
    void Reject(uint64_t id, const std::string& reason);
    /// The processing delay of the response \p seq on connection \p id is over.
    void ResponseReady(uint64_t id, uint64_t seq);
    /// Push ready responses of connection \p id into TCP; close when due.
    void Pump(uint64_t id);
    /// Push as much of \p r as fits; \return true when it was completely sent.
    bool SendSome(Conn& c, Response& r);
    /// Close connection \p id and forget it.
    void CloseConn(uint64_t id);
    /// \return the id of the connection of socket \p s, 0 if unknown
    uint64_t IdOf(Ptr<Socket> s) const;
    /// \return the body size for \p url
    uint32_t ObjectSizeOf(const std::string& url) const;

    uint16_t m_port;                                    //!< listening port
    std::string m_serverName;                           //!< "Server:" header value
    uint32_t m_objectSize;                              //!< default body size
    Time m_responseDelay;                               //!< processing delay
    std::string m_clientIpHeader;                       //!< header carrying the client IP
    Callback<uint32_t, const std::string&> m_sizeOfUrl; //!< per-URL size, optional
    Ptr<Socket> m_listen4;                              //!< IPv4 listener
    Ptr<Socket> m_listen6;                              //!< IPv6 listener
    std::map<uint64_t, Conn> m_conns;                   //!< open connections by id
    std::map<Ptr<Socket>, uint64_t> m_idOf;             //!< socket -> id (lookup only)
    uint64_t m_nextConnId;                              //!< next connection id (from 1)
    uint64_t m_served;                                  //!< responses completed
    uint64_t m_bytesSent;                               //!< bytes handed to TCP
    uint64_t m_accepted;                                //!< connections accepted
    uint64_t m_dropped;                                 //!< malformed requests
    bool m_disposing;                                   //!< in DoDispose: nothing is sent

    TracedCallback<const AdcHttpMessage&, const Address&> m_requestTrace; //!< "Request"
    TracedCallback<const std::string&, const std::string&, const std::string&, Time>
        m_accessLogTrace;                             //!< "AccessLog"
    TracedCallback<Ptr<const Packet>> m_txTrace;      //!< "Tx"
    TracedCallback<const std::string&> m_dropTrace;   //!< "Drop"
    TracedCallback<const Address&> m_connectionTrace; //!< "Connection"
};

} // namespace ns3

#endif /* ADC_HTTP_SERVER_H */
