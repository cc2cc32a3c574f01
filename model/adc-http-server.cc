/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an HTTP/1.1 origin server application over TCP.
 */

#include "adc-http-server.h"

#include "adc-config-error.h"

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
                          "IP; its value goes to the AccessLog trace. Empty: none.",
                          StringValue("X-Forwarded-For"),
                          MakeStringAccessor(&AdcHttpServer::m_clientIpHeader),
                          MakeStringChecker())
            .AddTraceSource("Request",
                            "A request was received.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_requestTrace),
                            "ns3::AdcHttpServer::RequestTracedCallback")
            .AddTraceSource("AccessLog",
                            "Audit log: TCP peer, client IP header value, URL, time.",
                            MakeTraceSourceAccessor(&AdcHttpServer::m_accessLogTrace),
                            "ns3::AdcHttpServer::AccessLogTracedCallback")
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
      m_nextConnId(1),
      m_served(0),
      m_bytesSent(0),
      m_accepted(0),
      m_dropped(0),
      m_disposing(false)
{
    NS_LOG_FUNCTION(this);
}

AdcHttpServer::~AdcHttpServer()
{
    NS_LOG_FUNCTION(this);
}

void
AdcHttpServer::SetObjectSizeCallback(Callback<uint32_t, const std::string&> cb)
{
    m_sizeOfUrl = cb;
}

uint64_t
AdcHttpServer::GetRequestsServed() const
{
    return m_served;
}

uint64_t
AdcHttpServer::GetBytesSent() const
{
    return m_bytesSent;
}

uint64_t
AdcHttpServer::GetConnectionsAccepted() const
{
    return m_accepted;
}

uint64_t
AdcHttpServer::GetRequestsDropped() const
{
    return m_dropped;
}

uint32_t
AdcHttpServer::GetOpenConnections() const
{
    return static_cast<uint32_t>(m_conns.size());
}

void
AdcHttpServer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // During Simulator::Destroy the node's IP stack may already be gone: send nothing.
    m_disposing = true;
    StopApplication();
    m_sizeOfUrl = Callback<uint32_t, const std::string&>();
    Application::DoDispose();
}

Ptr<Socket>
AdcHttpServer::Listen(const Address& local)
{
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    if (s->Bind(local) == -1 || s->Listen() == -1)
    {
        throw AdcConfigError("AdcHttpServer: Port " + std::to_string(m_port) + " on node " +
                             std::to_string(GetNode()->GetId()) +
                             " cannot be bound (already in use?); use a free port 1..65535");
    }
    s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                         MakeCallback(&AdcHttpServer::HandleAccept, this));
    return s;
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
    if (!m_listen4)
    {
        m_listen4 = Listen(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    }
    if (!m_listen6 && GetNode()->GetObject<Ipv6>())
    {
        m_listen6 = Listen(Inet6SocketAddress(Ipv6Address::GetAny(), m_port));
    }
}

void
AdcHttpServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (Ptr<Socket>* l : {&m_listen4, &m_listen6})
    {
        if (*l)
        {
            (*l)->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeNullCallback<void, Ptr<Socket>, const Address&>());
            if (!m_disposing)
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
AdcHttpServer::HandleAccept(Ptr<Socket> s, const Address& from)
{
    NS_LOG_FUNCTION(this << s << from);
    uint64_t id = m_nextConnId++;
    Conn& c = m_conns[id];
    c.socket = s;
    c.peer = from;
    m_idOf[s] = id;
    ++m_accepted;
    s->SetRecvCallback(MakeCallback(&AdcHttpServer::HandleRead, this));
    s->SetSendCallback(MakeCallback(&AdcHttpServer::HandleSend, this));
    s->SetCloseCallbacks(MakeCallback(&AdcHttpServer::HandlePeerClose, this),
                         MakeCallback(&AdcHttpServer::HandleError, this));
    m_connectionTrace(from);
}

uint64_t
AdcHttpServer::IdOf(Ptr<Socket> s) const
{
    auto it = m_idOf.find(s);
    return it == m_idOf.end() ? 0 : it->second;
}

void
AdcHttpServer::HandleRead(Ptr<Socket> s)
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
        // Answer may close and erase the connection, so look it up again each time.
        while ((it = m_conns.find(id)) != m_conns.end() && !it->second.closing &&
               it->second.parser.Next(&req, nullptr))
        {
            Answer(id, req);
        }
        it = m_conns.find(id);
        if (it != m_conns.end() && !it->second.closing && it->second.parser.HasError())
        {
            Reject(id, it->second.parser.GetError());
        }
    }
}

uint32_t
AdcHttpServer::ObjectSizeOf(const std::string& url) const
{
    return m_sizeOfUrl.IsNull() ? m_objectSize : m_sizeOfUrl(url);
}

void
AdcHttpServer::Answer(uint64_t id, const AdcHttpMessage& request)
{
    Conn& c = m_conns.at(id);
    NS_LOG_INFO("server " << m_serverName << " request " << request.GetMethod() << " "
                          << request.GetTarget() << " conn " << id);
    m_requestTrace(request, c.peer);
    std::string headerIp;
    if (!m_clientIpHeader.empty())
    {
        headerIp = request.GetHeader(m_clientIpHeader).value_or("");
    }
    m_accessLogTrace(AdcHttpAddressToIp(c.peer).ToString(),
                     headerIp,
                     request.GetTarget(),
                     Simulator::Now());

    const uint32_t size = ObjectSizeOf(request.GetTarget());
    const bool keep = request.IsKeepAlive();
    AdcHttpMessage head = AdcHttpMessage::MakeResponse(200, "OK");
    head.SetHeader("Server", m_serverName);
    head.SetContentLength(size);
    if (!keep)
    {
        head.SetHeader("Connection", "close");
    }
    Response r;
    r.head = head.ToWireString();
    r.bodyLeft = request.GetMethod() == "HEAD" ? 0 : size;
    r.closeAfter = !keep;
    r.seq = c.nextSeq++;
    c.closing = !keep;
    if (m_responseDelay.IsStrictlyPositive())
    {
        r.delayEvent =
            Simulator::Schedule(m_responseDelay, &AdcHttpServer::ResponseReady, this, id, r.seq);
    }
    else
    {
        r.ready = true;
    }
    c.responses.push_back(std::move(r));
    Pump(id);
}

void
AdcHttpServer::Reject(uint64_t id, const std::string& reason)
{
    Conn& c = m_conns.at(id);
    NS_LOG_INFO("server " << m_serverName << " rejects request on conn " << id << ": " << reason);
    ++m_dropped;
    m_dropTrace(reason);
    AdcHttpMessage head = AdcHttpMessage::MakeResponse(400, "Bad Request");
    head.SetHeader("Server", m_serverName);
    head.SetContentLength(0);
    head.SetHeader("Connection", "close");
    Response r;
    r.head = head.ToWireString();
    r.ready = true; // still sent after the responses before it, in order
    r.closeAfter = true;
    r.counted = false;
    r.seq = c.nextSeq++;
    c.closing = true;
    c.responses.push_back(std::move(r));
    Pump(id);
}

void
AdcHttpServer::ResponseReady(uint64_t id, uint64_t seq)
{
    auto it = m_conns.find(id);
    if (it == m_conns.end())
    {
        return;
    }
    for (auto& r : it->second.responses)
    {
        if (r.seq == seq)
        {
            r.ready = true;
        }
    }
    Pump(id);
}

bool
AdcHttpServer::SendSome(Conn& c, Response& r)
{
    if (!r.headSent)
    {
        if (c.socket->GetTxAvailable() < r.head.size())
        {
            return false;
        }
        Ptr<Packet> p = Create<Packet>(reinterpret_cast<const uint8_t*>(r.head.data()),
                                       static_cast<uint32_t>(r.head.size()));
        if (c.socket->Send(p) < 0)
        {
            return false;
        }
        r.headSent = true;
        m_bytesSent += p->GetSize();
        m_txTrace(p);
    }
    while (r.bodyLeft > 0)
    {
        const uint32_t n = static_cast<uint32_t>(
            std::min<uint64_t>({r.bodyLeft, c.socket->GetTxAvailable(), kMaxChunk}));
        if (n == 0)
        {
            return false; // HandleSend resumes when the transmit buffer drains
        }
        Ptr<Packet> p = Create<Packet>(n);
        if (c.socket->Send(p) < 0)
        {
            return false;
        }
        r.bodyLeft -= n;
        m_bytesSent += n;
        m_txTrace(p);
    }
    return true;
}

void
AdcHttpServer::Pump(uint64_t id)
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
AdcHttpServer::HandleSend(Ptr<Socket> s, uint32_t /* available */)
{
    const uint64_t id = IdOf(s);
    if (id != 0)
    {
        Pump(id);
    }
}

void
AdcHttpServer::HandlePeerClose(Ptr<Socket> s)
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
AdcHttpServer::HandleError(Ptr<Socket> s)
{
    const uint64_t id = IdOf(s);
    NS_LOG_LOGIC("server " << m_serverName << " conn " << id << " reset");
    CloseConn(id);
}

void
AdcHttpServer::CloseConn(uint64_t id)
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
    if (!m_disposing)
    {
        s->Close();
    }
}

} // namespace ns3
