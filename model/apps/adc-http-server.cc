/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an HTTP/1.1 origin server application over TCP, and the server side of HTTP/1.1
 * connections it shares with other serving applications.
 */

#include "adc-http-server.h"

#include "ns3/adc-config-error.h"
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
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpServer");

NS_OBJECT_ENSURE_REGISTERED(AdcHttpServer);

namespace
{

/// Largest body chunk handed to TCP in one Send call.
constexpr uint32_t kMaxChunk = 65536;

} // namespace

// ---- AdcHttpServerEngine -------------------------------------------------------------------

AdcHttpServerEngine::AdcHttpServerEngine()
    : m_nextConnId(1),
      m_served(0),
      m_bytesSent(0),
      m_accepted(0),
      m_rejected(0),
      m_quiet(false)
{
}

AdcHttpServerEngine::~AdcHttpServerEngine() = default;

void
AdcHttpServerEngine::SetRequestCallback(RequestCallback cb)
{
    m_onRequest = cb;
}

void
AdcHttpServerEngine::SetRejectCallback(Callback<void, const std::string&> cb)
{
    m_onReject = cb;
}

void
AdcHttpServerEngine::SetAcceptCallback(Callback<void, const Address&> cb)
{
    m_onAccept = cb;
}

void
AdcHttpServerEngine::SetTxCallback(Callback<void, Ptr<const Packet>> cb)
{
    m_onTx = cb;
}

uint64_t
AdcHttpServerEngine::GetResponsesSent() const
{
    return m_served;
}

uint64_t
AdcHttpServerEngine::GetBytesSent() const
{
    return m_bytesSent;
}

uint64_t
AdcHttpServerEngine::GetConnectionsAccepted() const
{
    return m_accepted;
}

uint64_t
AdcHttpServerEngine::GetRejected() const
{
    return m_rejected;
}

uint32_t
AdcHttpServerEngine::GetOpenConnections() const
{
    return static_cast<uint32_t>(m_conns.size());
}

void
AdcHttpServerEngine::Start(Ptr<Node> node,
                           uint16_t port,
                           const std::string& owner,
                           const std::string& serverName)
{
    m_quiet = false;
    m_serverName = serverName;
    auto listen = [&](const Address& local) {
        Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        if (s->Bind(local) == -1 || s->Listen() == -1)
        {
            throw AdcConfigError(owner + ": Port " + std::to_string(port) + " on node " +
                                 std::to_string(node->GetId()) +
                                 " cannot be bound (already in use?); use a free port 1..65535");
        }
        s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                             MakeCallback(&AdcHttpServerEngine::HandleAccept, this));
        return s;
    };
    if (!m_listen4)
    {
        m_listen4 = listen(InetSocketAddress(Ipv4Address::GetAny(), port));
    }
    if (!m_listen6 && node->GetObject<Ipv6>())
    {
        m_listen6 = listen(Inet6SocketAddress(Ipv6Address::GetAny(), port));
    }
}

void
AdcHttpServerEngine::Stop(bool quiet)
{
    m_quiet = quiet;
    for (Ptr<Socket>* l : {&m_listen4, &m_listen6})
    {
        if (*l)
        {
            (*l)->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeNullCallback<void, Ptr<Socket>, const Address&>());
            if (!m_quiet)
            {
                (*l)->Close();
            }
            *l = nullptr;
        }
    }
    std::vector<uint64_t> ids;
    for (const auto& kv : m_conns) // std::map: ascending id, deterministic
    {
        ids.push_back(kv.first);
    }
    for (uint64_t id : ids)
    {
        CloseConn(id);
    }
}

void
AdcHttpServerEngine::Dispose()
{
    Stop(true);
    m_onRequest = RequestCallback();
    m_onReject = Callback<void, const std::string&>();
    m_onAccept = Callback<void, const Address&>();
    m_onTx = Callback<void, Ptr<const Packet>>();
}

void
AdcHttpServerEngine::HandleAccept(Ptr<Socket> s, const Address& from)
{
    NS_LOG_FUNCTION(this << s << from);
    uint64_t id = m_nextConnId++;
    Conn& c = m_conns[id];
    c.socket = s;
    c.peer = from;
    m_idOf[s] = id;
    ++m_accepted;
    s->SetRecvCallback(MakeCallback(&AdcHttpServerEngine::HandleRead, this));
    s->SetSendCallback(MakeCallback(&AdcHttpServerEngine::HandleSend, this));
    s->SetCloseCallbacks(MakeCallback(&AdcHttpServerEngine::HandlePeerClose, this),
                         MakeCallback(&AdcHttpServerEngine::HandleError, this));
    if (!m_onAccept.IsNull())
    {
        m_onAccept(from);
    }
}

uint64_t
AdcHttpServerEngine::IdOf(Ptr<Socket> s) const
{
    auto it = m_idOf.find(s);
    return it == m_idOf.end() ? 0 : it->second;
}

void
AdcHttpServerEngine::HandleRead(Ptr<Socket> s)
{
    const uint64_t id = IdOf(s);
    Ptr<Packet> p;
    Address from;
    while (id != 0 && (p = s->RecvFrom(from)))
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        auto it = m_conns.find(id);
        if (it == m_conns.end())
        {
            return; // closed while handling an earlier segment
        }
        if (it->second.closing)
        {
            continue; // after Connection: close or an error, further bytes are ignored
        }
        it->second.parser.Feed(p);
        AdcHttpMessage req;
        // The owner may answer at once, which may close and erase the connection: look it up
        // again each time.
        while ((it = m_conns.find(id)) != m_conns.end() && !it->second.closing &&
               it->second.parser.Next(&req, nullptr))
        {
            Dispatch(id, req);
        }
        it = m_conns.find(id);
        if (it != m_conns.end() && !it->second.closing && it->second.parser.HasError())
        {
            Reject(id, it->second.parser.GetError());
        }
    }
}

void
AdcHttpServerEngine::Dispatch(uint64_t id, const AdcHttpMessage& request)
{
    if (m_onRequest.IsNull())
    {
        Reject(id, "no request handler");
        return;
    }
    Conn& c = m_conns.at(id);
    Response r;
    r.seq = c.nextSeq++;
    r.closeAfter = !request.IsKeepAlive();
    r.headOnly = request.GetMethod() == "HEAD";
    c.closing = r.closeAfter;
    c.responses.push_back(std::move(r));
    const uint64_t seq = c.responses.back().seq;
    const Address peer = c.peer; // the owner may close the connection: copy what it needs
    m_onRequest(id, seq, request, peer);
}

AdcHttpServerEngine::Response*
AdcHttpServerEngine::FindSlot(Conn& c, uint64_t seq)
{
    for (auto& r : c.responses)
    {
        if (r.seq == seq)
        {
            return &r;
        }
    }
    return nullptr;
}

bool
AdcHttpServerEngine::Respond(uint64_t conn,
                             uint64_t seq,
                             const AdcHttpMessage& head,
                             uint64_t bodyBytes,
                             Time delay,
                             uint32_t chunkSize)
{
    auto it = m_conns.find(conn);
    if (it == m_conns.end())
    {
        return false;
    }
    Conn& c = it->second;
    Response* r = FindSlot(c, seq);
    if (r == nullptr || r->answered)
    {
        return false;
    }
    AdcHttpMessage h = head;
    r->closeAfter = r->closeAfter || !head.IsKeepAlive();
    if (r->closeAfter)
    {
        c.closing = true;
        if (h.IsKeepAlive())
        {
            h.SetHeader("Connection", "close");
        }
    }
    const bool bodiless = r->headOnly || AdcHttpMessage::IsBodilessStatus(head.GetStatus());
    r->text = h.ToWireString();
    r->chunkSize = bodiless ? 0 : chunkSize;
    r->dataLeft = bodiless || chunkSize > 0 ? 0 : bodyBytes;
    r->bodyLeft = bodiless || chunkSize == 0 ? 0 : bodyBytes;
    r->answered = true;
    if (delay.IsStrictlyPositive())
    {
        r->delayEvent =
            Simulator::Schedule(delay, &AdcHttpServerEngine::ResponseReady, this, conn, seq);
    }
    else
    {
        r->ready = true;
    }
    Pump(conn);
    return true;
}

void
AdcHttpServerEngine::Reject(uint64_t id, const std::string& reason)
{
    Conn& c = m_conns.at(id);
    NS_LOG_INFO("server " << m_serverName << " rejects request on conn " << id << ": " << reason);
    ++m_rejected;
    if (!m_onReject.IsNull())
    {
        m_onReject(reason);
    }
    AdcHttpMessage head = AdcHttpMessage::MakeResponse(400, "Bad Request");
    if (!m_serverName.empty())
    {
        head.SetHeader("Server", m_serverName);
    }
    head.SetContentLength(0);
    head.SetHeader("Connection", "close");
    Response r;
    r.text = head.ToWireString();
    r.answered = true;
    r.ready = true; // still sent after the responses before it, in order
    r.closeAfter = true;
    r.counted = false;
    r.seq = c.nextSeq++;
    c.closing = true;
    c.responses.push_back(std::move(r));
    Pump(id);
}

void
AdcHttpServerEngine::ResponseReady(uint64_t id, uint64_t seq)
{
    auto it = m_conns.find(id);
    if (it == m_conns.end())
    {
        return;
    }
    Response* r = FindSlot(it->second, seq);
    if (r != nullptr)
    {
        r->ready = true;
    }
    Pump(id);
}

bool
AdcHttpServerEngine::SendSome(Conn& c, Response& r)
{
    while (true)
    {
        if (!r.text.empty())
        {
            if (c.socket->GetTxAvailable() < r.text.size())
            {
                return false;
            }
            Ptr<Packet> p = Create<Packet>(reinterpret_cast<const uint8_t*>(r.text.data()),
                                           static_cast<uint32_t>(r.text.size()));
            if (c.socket->Send(p) < 0)
            {
                return false;
            }
            r.text.clear();
            m_bytesSent += p->GetSize();
            if (!m_onTx.IsNull())
            {
                m_onTx(p);
            }
        }
        while (r.dataLeft > 0)
        {
            const uint32_t n = static_cast<uint32_t>(
                std::min<uint64_t>({r.dataLeft, c.socket->GetTxAvailable(), kMaxChunk}));
            if (n == 0)
            {
                return false; // HandleSend resumes when the transmit buffer drains
            }
            Ptr<Packet> p = Create<Packet>(n);
            if (c.socket->Send(p) < 0)
            {
                return false;
            }
            r.dataLeft -= n;
            m_bytesSent += n;
            if (!m_onTx.IsNull())
            {
                m_onTx(p);
            }
        }
        if (r.chunkSize == 0 || r.lastChunk)
        {
            return true;
        }
        // The CRLF after the chunk just sent, then the next chunk's header or the last chunk.
        const uint64_t n = std::min<uint64_t>(r.bodyLeft, r.chunkSize);
        r.text = (r.inChunk ? "\r\n" : "") + AdcHttpStreamParser::ChunkHeader(n);
        r.bodyLeft -= n;
        r.dataLeft = n;
        r.inChunk = n > 0;
        r.lastChunk = n == 0;
    }
}

void
AdcHttpServerEngine::Pump(uint64_t id)
{
    auto it = m_conns.find(id);
    if (it == m_conns.end())
    {
        return;
    }
    Conn& c = it->second;
    while (!c.responses.empty() && c.responses.front().ready)
    {
        Response& r = c.responses.front();
        if (!SendSome(c, r))
        {
            return;
        }
        const bool close = r.closeAfter;
        m_served += r.counted ? 1 : 0;
        c.responses.pop_front();
        if (close)
        {
            CloseConn(id);
            return;
        }
    }
    if (c.responses.empty() && c.peerClosed)
    {
        CloseConn(id);
    }
}

void
AdcHttpServerEngine::HandleSend(Ptr<Socket> s, uint32_t /* available */)
{
    const uint64_t id = IdOf(s);
    if (id != 0)
    {
        Pump(id);
    }
}

void
AdcHttpServerEngine::HandlePeerClose(Ptr<Socket> s)
{
    const uint64_t id = IdOf(s);
    auto it = m_conns.find(id);
    if (it == m_conns.end())
    {
        return;
    }
    NS_LOG_LOGIC("server " << m_serverName << " peer closed conn " << id);
    it->second.peerClosed = true;
    it->second.closing = true;
    Pump(id); // sends what is ready, closes once nothing is left
}

void
AdcHttpServerEngine::HandleError(Ptr<Socket> s)
{
    const uint64_t id = IdOf(s);
    NS_LOG_LOGIC("server " << m_serverName << " conn " << id << " reset");
    CloseConn(id);
}

void
AdcHttpServerEngine::CloseConn(uint64_t id)
{
    auto it = m_conns.find(id);
    if (it == m_conns.end())
    {
        return;
    }
    for (auto& r : it->second.responses)
    {
        r.delayEvent.Cancel();
    }
    Ptr<Socket> s = it->second.socket;
    m_idOf.erase(s);
    m_conns.erase(it);
    // Detach first: Close() can notify synchronously, and the socket outlives this entry.
    s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    s->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    s->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                         MakeNullCallback<void, Ptr<Socket>>());
    if (!m_quiet)
    {
        s->Close();
    }
}

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
    for (char c : m_serverName)
    {
        if (static_cast<uint8_t>(c) < 0x20 || c == 0x7f)
        {
            throw AdcConfigError("AdcHttpServer: ServerName '" + m_serverName +
                                 "' contains a control character; use printable text");
        }
    }
    if (m_serverName.empty())
    {
        m_serverName = "server-" + std::to_string(GetNode()->GetId());
    }
    m_engine.SetRequestCallback(MakeCallback(&AdcHttpServer::HandleRequest, this));
    m_engine.SetRejectCallback(MakeCallback(&AdcHttpServer::HandleReject, this));
    m_engine.SetAcceptCallback(MakeCallback(&AdcHttpServer::HandleAccepted, this));
    m_engine.SetTxCallback(MakeCallback(&AdcHttpServer::HandleTx, this));
    m_engine.Start(GetNode(), m_port, "AdcHttpServer", m_serverName);
}

void
AdcHttpServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_engine.Stop(m_disposing);
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
