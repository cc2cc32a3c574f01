/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an HTTP/1.1 origin server application over TCP.
 */

#include "adc-http-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpServer");

NS_OBJECT_ENSURE_REGISTERED(AdcHttpServer);

// ---- AdcHttpServer -------------------------------------------------------------------------

TypeId
AdcHttpServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcHttpServer")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcHttpServer>()
            .AddAttribute("Port",
                          "TCP port to listen on (IPv4 and IPv6 any-address).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&AdcHttpServer::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Tls",
                          "Serve HTTPS: TLS 1.2 on every connection (AdcTlsEndpoint, server "
                          "role; sessions it issued can be resumed).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcHttpServer::m_tls),
                          MakeBooleanChecker())
            .AddAttribute("ServerName",
                          "Value of the Server response header; identifies the server in client "
                          "request records. Empty: \"server-<node id>\".",
                          StringValue(""),
                          MakeStringAccessor(&AdcHttpServer::m_serverName),
                          MakeStringChecker())
            .AddAttribute("ObjectSize",
                          "Body size in bytes of every object (unless SetObjectSizeCallback "
                          "gives a per-URL size).",
                          UintegerValue(10240),
                          MakeUintegerAccessor(&AdcHttpServer::m_objectSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ResponseDelay",
                          "Processing delay between receiving a request and starting to send "
                          "its response.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&AdcHttpServer::m_responseDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ClientIpHeader",
                          "Request header an appliance inserts carrying the original client "
                          "IP; its value goes to the AccessLog and Response traces. Empty: none.",
                          StringValue("X-Forwarded-For"),
                          MakeStringAccessor(&AdcHttpServer::m_clientIpHeader),
                          MakeStringChecker())
            .AddAttribute("TransferCoding",
                          "How response bodies are framed: CONTENT_LENGTH (a Content-Length "
                          "field, the body as it is) or CHUNKED (Transfer-Encoding: chunked, "
                          "the body in chunks of ChunkSize bytes; requests of HTTP/1.0 clients "
                          "still get Content-Length, RFC 9112 section 6.1).",
                          EnumValue(AdcHttpServer::CONTENT_LENGTH),
                          MakeEnumAccessor(&AdcHttpServer::m_coding),
                          MakeEnumChecker(AdcHttpServer::CONTENT_LENGTH,
                                          "CONTENT_LENGTH",
                                          AdcHttpServer::CHUNKED,
                                          "CHUNKED"))
            .AddAttribute(
                "ChunkSize",
                "With TransferCoding CHUNKED: payload bytes per chunk (>= 1); the "
                "last data chunk may be shorter.",
                UintegerValue(4096),
                MakeUintegerAccessor(&AdcHttpServer::SetChunkSize, &AdcHttpServer::GetChunkSize),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("VaryByClientIp",
                          "Without a response callback: answer per client (CRD-12), with "
                          "\"X-Client-IP: <ClientIpHeader value, or the TCP peer when absent>\" "
                          "and \"Vary: <ClientIpHeader>\" in every response.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcHttpServer::m_varyByClientIp),
                          MakeBooleanChecker())
            .AddAttribute("AppVersion",
                          "The application version this server runs (e.g. v1, v2); when not "
                          "empty every response carries \"X-App-Version: <value>\" (CS-09: a "
                          "client tells the versions of a canary test apart). Empty: no header.",
                          StringValue(""),
                          MakeStringAccessor(&AdcHttpServer::m_appVersion),
                          MakeStringChecker())
            .AddAttribute("SetCookie",
                          "The application's own cookie; when not empty every response carries "
                          "\"Set-Cookie: <value>\" (e.g. \"JSESSIONID=abc; Path=/\"). Empty: "
                          "no header.",
                          StringValue(""),
                          MakeStringAccessor(&AdcHttpServer::m_setCookie),
                          MakeStringChecker())
            .AddTraceSource("Request",
                            "A request was received.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_requestTrace),
                            "ns3::AdcHttpServer::RequestTracedCallback")
            .AddTraceSource("AccessLog",
                            "Audit log: TCP peer, client IP header value, URL, time.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_accessLogTrace),
                            "ns3::AdcHttpServer::AccessLogTracedCallback")
            .AddTraceSource("Response",
                            "The response to a request was decided: client IP header value, "
                            "URL, status, body size.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_responseTrace),
                            "ns3::AdcHttpServer::ResponseTracedCallback")
            .AddTraceSource("Framing",
                            "The body framing of a response was chosen: URL, framing "
                            "(CONTENT_LENGTH, CHUNKED, or NONE for HEAD, 1xx, 204 and 304), "
                            "payload bytes, body bytes on the wire.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_framingTrace),
                            "ns3::AdcHttpServer::FramingTracedCallback")
            .AddTraceSource("Tx",
                            "A packet (head or body bytes) was handed to TCP.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Drop",
                            "A malformed request was rejected with 400; carries the reason.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_dropTrace),
                            "ns3::AdcHttpServer::DropTracedCallback")
            .AddTraceSource("Connection",
                            "A TCP connection was accepted.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_connectionTrace),
                            "ns3::AdcHttpServer::ConnectionTracedCallback");
    return tid;
}

AdcHttpServer::AdcHttpServer()
    : m_port(80),
      m_objectSize(10240),
      m_coding(CONTENT_LENGTH),
      m_chunkSize(4096),
      m_varyByClientIp(false),
      m_disposing(false)
{
    NS_LOG_FUNCTION(this);
}

AdcHttpServer::~AdcHttpServer()
{
    NS_LOG_FUNCTION(this);
}

void
AdcHttpServer::SetChunkSize(uint32_t n)
{
    if (n == 0)
    {
        throw AdcConfigError("AdcHttpServer: ChunkSize 0 is not allowed; use 1 or more bytes");
    }
    m_chunkSize = n;
}

uint32_t
AdcHttpServer::GetChunkSize() const
{
    return m_chunkSize;
}

void
AdcHttpServer::SetObjectSizeCallback(Callback<uint32_t, const std::string&> cb)
{
    m_sizeOfUrl = cb;
}

void
AdcHttpServer::SetResponseCallback(ResponseCallback cb)
{
    m_responseCb = cb;
}

uint64_t
AdcHttpServer::GetRequestsServed() const
{
    return m_engine.GetResponsesSent();
}

uint64_t
AdcHttpServer::GetBytesSent() const
{
    return m_engine.GetBytesSent();
}

uint64_t
AdcHttpServer::GetConnectionsAccepted() const
{
    return m_engine.GetConnectionsAccepted();
}

uint64_t
AdcHttpServer::GetRequestsDropped() const
{
    return m_engine.GetRejected();
}

uint32_t
AdcHttpServer::GetOpenConnections() const
{
    return m_engine.GetOpenConnections();
}

void
AdcHttpServer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // During Simulator::Destroy the node's IP stack may already be gone: send nothing.
    m_disposing = true;
    m_engine.Dispose();
    m_sizeOfUrl = Callback<uint32_t, const std::string&>();
    m_responseCb = ResponseCallback();
    Application::DoDispose();
}

void
AdcHttpServer::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (AdcText::FindControl(m_serverName) != std::string::npos)
    {
        throw AdcConfigError("AdcHttpServer: ServerName '" + m_serverName +
                             "' contains a control character; use printable text");
    }
    CheckHeaderValue("AppVersion", m_appVersion);
    CheckHeaderValue("SetCookie", m_setCookie);
    if (m_serverName.empty())
    {
        m_serverName = "server-" + std::to_string(GetNode()->GetId());
    }
    m_engine.SetRequestCallback(MakeCallback(&AdcHttpServer::HandleRequest, this));
    m_engine.SetRejectCallback(MakeCallback(&AdcHttpServer::HandleReject, this));
    m_engine.SetAcceptCallback(MakeCallback(&AdcHttpServer::HandleAccepted, this));
    m_engine.SetTxCallback(MakeCallback(&AdcHttpServer::HandleTx, this));
    m_engine.SetTls(m_tls);
    m_engine.Start(GetNode(), m_port, "AdcHttpServer", m_serverName);
}

void
AdcHttpServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_engine.Stop(m_disposing);
}

void
AdcHttpServer::CheckHeaderValue(const std::string& attribute, const std::string& value)
{
    const std::size_t i = AdcText::FindControl(value);
    if (i != std::string::npos)
    {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "0x%02x", static_cast<uint8_t>(value[i]));
        throw AdcConfigError("AdcHttpServer: " + attribute + " '" + value + "' has " + buf +
                             " at position " + std::to_string(i) +
                             "; allowed: printable text (a header field value)");
    }
}

uint32_t
AdcHttpServer::ObjectSizeOf(const std::string& url) const
{
    return m_sizeOfUrl.IsNull() ? m_objectSize : m_sizeOfUrl(url);
}

void
AdcHttpServer::VaryPolicy(const std::string& headerIp,
                          const Address& peer,
                          AdcHttpMessage& response) const
{
    response.SetHeader("X-Client-IP",
                       headerIp.empty() ? AdcHttpAddressToIp(peer).ToString() : headerIp);
    if (!m_clientIpHeader.empty())
    {
        response.SetHeader("Vary", m_clientIpHeader);
    }
}

void
AdcHttpServer::HandleRequest(uint64_t conn,
                             uint64_t seq,
                             const AdcHttpMessage& request,
                             const Address& peer)
{
    NS_LOG_INFO("server " << m_serverName << " request " << request.GetMethod() << " "
                          << request.GetTarget() << " conn " << conn);
    m_requestTrace(request, peer);
    std::string headerIp;
    if (!m_clientIpHeader.empty())
    {
        headerIp = request.GetHeader(m_clientIpHeader).value_or("");
    }
    m_accessLogTrace(AdcHttpAddressToIp(peer).ToString(),
                     headerIp,
                     request.GetTarget(),
                     Simulator::Now());

    uint32_t size = ObjectSizeOf(request.GetTarget());
    AdcHttpMessage head = AdcHttpMessage::MakeResponse(200, "OK");
    head.SetHeader("Server", m_serverName);
    if (!m_responseCb.IsNull())
    {
        m_responseCb(request, headerIp, head, size);
    }
    else if (m_varyByClientIp)
    {
        VaryPolicy(headerIp, peer, head);
    }
    // The application's own headers, whatever the callback chose (every response has them).
    if (!m_appVersion.empty())
    {
        head.SetHeader("X-App-Version", m_appVersion);
    }
    if (!m_setCookie.empty())
    {
        head.AddHeader("Set-Cookie", m_setCookie);
    }
    // RFC 9112 section 6.1: no Transfer-Encoding for an HTTP/1.0 client; section 6.3 item 1:
    // the recipient reads no body after a HEAD request or a 1xx/204/304 status.
    const uint16_t status = head.GetStatus();
    const bool noContent = AdcHttpMessage::IsBodilessStatus(status);
    const bool bodiless = request.GetMethod() == "HEAD" || noContent;
    const bool chunked = m_coding == CHUNKED && request.GetVersion() != "HTTP/1.0" && !noContent;
    if (chunked)
    {
        head.RemoveHeader("Content-Length");
        head.SetHeader("Transfer-Encoding", "chunked");
    }
    else
    {
        head.SetContentLength(size);
    }
    using Framing = AdcHttpStreamParser::Framing;
    const Framing framing =
        bodiless ? Framing::NONE : (chunked ? Framing::CHUNKED : Framing::CONTENT_LENGTH);
    const uint64_t wire =
        bodiless ? 0 : (chunked ? AdcHttpStreamParser::ChunkedLength(size, m_chunkSize) : size);
    m_responseTrace(headerIp, request.GetTarget(), status, size);
    m_framingTrace(request.GetTarget(), framing, bodiless ? 0 : size, wire);
    m_engine.Respond(conn, seq, head, size, m_responseDelay, chunked ? m_chunkSize : 0);
}

void
AdcHttpServer::HandleReject(const std::string& reason)
{
    m_dropTrace(reason);
}

void
AdcHttpServer::HandleAccepted(const Address& from)
{
    m_connectionTrace(from);
}

void
AdcHttpServer::HandleTx(Ptr<const Packet> p)
{
    m_txTrace(p);
}

} // namespace ns3
