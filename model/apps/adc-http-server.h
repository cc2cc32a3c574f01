/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an HTTP/1.1 origin server application over TCP (its connections are
 * AdcHttpServerEngine's, in adc-http-server-engine.h).
 */

#ifndef ADC_HTTP_SERVER_H
#define ADC_HTTP_SERVER_H

#include "adc-http-server-engine.h"

#include "ns3/adc-http-message.h"
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
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An HTTP/1.1 origin server: answers every well-formed request with "200 OK" and a body
 * of the object's size, over persistent or one-shot TCP connections.
 *
 * Connection handling (listening, pipelining, transmit-buffer pacing, 400s for malformed
 * requests, "Connection: close") is AdcHttpServerEngine's. Responses go out in request order
 * after "ResponseDelay". A response carries, in this order, "Server: <ServerName>",
 * "Content-Length: <size>" and, when the connection will close, "Connection: close". HEAD
 * requests get the head only.
 *
 * Choosing the response from the client (CRD-12: the origin chooses its response from the
 * client IP carried in the request header): a response callback (SetResponseCallback) may edit
 * or replace the response head and change the body size; "Content-Length" is then set from the
 * body size. Without a callback, "VaryByClientIp" true applies the default policy: the
 * response gets "X-Client-IP: <the ClientIpHeader value, or the TCP peer's IP when the header
 * is absent>" and "Vary: <ClientIpHeader>" (the latter only when ClientIpHeader is not empty),
 * both between "Server" and "Content-Length". The "Response" trace reports every decision.
 *
 * Framing ("TransferCoding"): CONTENT_LENGTH sends "Content-Length: <size>" and the body as it
 * is; CHUNKED sends "Transfer-Encoding: chunked" instead of Content-Length and the body in
 * chunks of "ChunkSize" bytes, except to HTTP/1.0 requests (RFC 9112 section 6.1: never a
 * Transfer-Encoding for them, so Content-Length) and in 1xx, 204 and 304 responses. Responses
 * to HEAD, 1xx, 204 and 304 carry no body (responses to HEAD keep the fields a GET would get).
 * The "Framing" trace reports each choice.
 *
 * Application identity (issue 10, CS-08/CS-09): "AppVersion" non-empty adds
 * "X-App-Version: <AppVersion>" to every response (set in place when a response callback set
 * one), and "SetCookie" non-empty appends "Set-Cookie: <SetCookie>" (the application's own
 * cookie); both are added after the response callback or VaryByClientIp policy and before
 * "Content-Length". Their empty defaults leave responses unchanged. Values with control
 * characters are rejected with AdcConfigError at start.
 */
class AdcHttpServer : public Application
{
  public:
    /// How response bodies are framed ("TransferCoding").
    enum TransferCoding
    {
        CONTENT_LENGTH, //!< Content-Length and the body as it is
        CHUNKED         //!< Transfer-Encoding: chunked
    };

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
     * \brief Signature of the "Response" trace: the response to a request was decided.
     * \param headerClientIp value of the "ClientIpHeader" request header, empty if absent
     * \param url the request target
     * \param status the response status code
     * \param bodySize the response body size in bytes (as in Content-Length)
     */
    typedef void (*ResponseTracedCallback)(const std::string& headerClientIp,
                                           const std::string& url,
                                           uint16_t status,
                                           uint32_t bodySize);

    /**
     * \brief Signature of the "Framing" trace: the body framing of a response was chosen.
     * \param url the request target
     * \param framing CONTENT_LENGTH, CHUNKED, or NONE (no body: HEAD, 1xx, 204, 304)
     * \param bodyBytes payload bytes sent (0 when NONE)
     * \param wireBytes body bytes on the wire, chunk framing included
     */
    typedef void (*FramingTracedCallback)(const std::string& url,
                                          AdcHttpStreamParser::Framing framing,
                                          uint64_t bodyBytes,
                                          uint64_t wireBytes);

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
     * \brief The response hook: (request head, header client IP (empty if absent), response
     * head to edit or replace, body size in bytes to change).
     */
    typedef Callback<void, const AdcHttpMessage&, const std::string&, AdcHttpMessage&, uint32_t&>
        ResponseCallback;

    /**
     * \brief Give each URL its own object size (overrides "ObjectSize").
     * \param cb returns the body size in bytes for a request target
     */
    void SetObjectSizeCallback(Callback<uint32_t, const std::string&> cb);

    /**
     * \brief Choose each response (e.g. from the client IP in the request header). Called
     * before each response to a well-formed request is queued, with the response head
     * "200 OK" + "Server: <ServerName>" and the object's size; the callback may add headers,
     * replace the head (e.g. with a 404) and change the body size. Afterwards "Content-Length"
     * is set to the body size (in place when the callback set one, else appended) and, when the
     * connection will close, "Connection: close" is appended. It overrides "VaryByClientIp". A
     * null callback restores the default behaviour.
     * \param cb the hook
     */
    void SetResponseCallback(ResponseCallback cb);

    /// \return responses to well-formed requests completely handed to TCP, whatever their
    ///         status (400s to malformed requests are not counted)
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

    /// A well-formed request arrived (engine callback): decide and queue its response.
    void HandleRequest(uint64_t conn,
                       uint64_t seq,
                       const AdcHttpMessage& request,
                       const Address& peer);
    /// Apply the default VaryByClientIp policy to \p response.
    void VaryPolicy(const std::string& headerIp,
                    const Address& peer,
                    AdcHttpMessage& response) const;
    /// Fire "Drop" (engine callback).
    void HandleReject(const std::string& reason);
    /// Fire "Connection" (engine callback).
    void HandleAccepted(const Address& from);
    /// Fire "Tx" (engine callback).
    void HandleTx(Ptr<const Packet> p);
    /// Throw AdcConfigError when \p value (of attribute \p attribute) has a control character.
    static void CheckHeaderValue(const std::string& attribute, const std::string& value);
    /// \return the body size for \p url
    uint32_t ObjectSizeOf(const std::string& url) const;
    /// \param n "ChunkSize"; throws AdcConfigError when 0
    void SetChunkSize(uint32_t n);
    /// \return "ChunkSize"
    uint32_t GetChunkSize() const;

    uint16_t m_port;                                    //!< listening port
    std::string m_serverName;                           //!< "Server:" header value
    bool m_tls{false};                                  //!< "Tls"
    uint32_t m_objectSize;                              //!< default body size
    TransferCoding m_coding;                            //!< "TransferCoding"
    uint32_t m_chunkSize;                               //!< "ChunkSize"
    Time m_responseDelay;                               //!< processing delay
    std::string m_clientIpHeader;                       //!< header carrying the client IP
    bool m_varyByClientIp;                              //!< default per-client policy on
    std::string m_appVersion;                           //!< "AppVersion" ("" = no header)
    std::string m_setCookie;                            //!< "SetCookie" ("" = no header)
    Callback<uint32_t, const std::string&> m_sizeOfUrl; //!< per-URL size, optional
    ResponseCallback m_responseCb;                      //!< response hook, optional
    AdcHttpServerEngine m_engine;                       //!< the connections
    bool m_disposing;                                   //!< in DoDispose: nothing is sent

    TracedCallback<const AdcHttpMessage&, const Address&> m_requestTrace; //!< "Request"
    TracedCallback<const std::string&, const std::string&, const std::string&, Time>
        m_accessLogTrace; //!< "AccessLog"
    TracedCallback<const std::string&, const std::string&, uint16_t, uint32_t>
        m_responseTrace;                         //!< "Response"
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< "Tx"
    TracedCallback<const std::string&, AdcHttpStreamParser::Framing, uint64_t, uint64_t>
        m_framingTrace;                               //!< "Framing"
    TracedCallback<const std::string&> m_dropTrace;   //!< "Drop"
    TracedCallback<const Address&> m_connectionTrace; //!< "Connection"
};

} // namespace ns3

#endif /* ADC_HTTP_SERVER_H */
