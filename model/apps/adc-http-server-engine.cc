/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the server side of HTTP/1.1 connections, shared by the serving applications.
 */

#include "adc-http-server-engine.h"

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

NS_LOG_COMPONENT_DEFINE("AdcHttpServerEngine");

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
    m_tlsNode = node;
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
    if (m_tls)
    {
        AdcTlsEndpoint::Config config;
        config.role = AdcTlsEndpoint::SERVER;
        config.seed = 0x5e7e7c0de5ULL ^ (static_cast<uint64_t>(m_tlsNode->GetId()) << 40) ^ id;
        config.canResume = [this](const std::vector<uint8_t>& sid) {
            return m_tlsSessions.count(sid) > 0;
        };
        c.tls = std::make_shared<AdcTlsEndpoint>(config);
    }
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
        if (it->second.tls)
        {
            p = TlsReceive(id, p);
            if (!p || (it = m_conns.find(id)) == m_conns.end())
            {
                continue;
            }
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
AdcHttpServerEngine::SetTls(bool on)
{
    m_tls = on;
}

uint64_t
AdcHttpServerEngine::WireBytes(const Conn& c, uint64_t n)
{
    if (!c.tls)
    {
        return n;
    }
    const uint64_t records = (n + AdcTlsRecord::kMaxPlaintext - 1) / AdcTlsRecord::kMaxPlaintext;
    return n + records * AdcTlsRecord::kHeaderBytes;
}

int
AdcHttpServerEngine::SendOn(Conn& c, Ptr<Packet> p)
{
    if (!c.tls)
    {
        return c.socket->Send(p);
    }
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    const std::vector<uint8_t> records = c.tls->Send(bytes);
    if (records.empty())
    {
        return static_cast<int>(p->GetSize()); // queued until the handshake ends, or failed
    }
    return c.socket->Send(Create<Packet>(records.data(), static_cast<uint32_t>(records.size())));
}

Ptr<Packet>
AdcHttpServerEngine::TlsReceive(uint64_t id, Ptr<Packet> raw)
{
    Conn& c = m_conns.at(id);
    std::vector<uint8_t> bytes(raw->GetSize());
    raw->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    const AdcTlsEndpoint::Result r = c.tls->Receive(bytes);
    if (!r.toPeer.empty())
    {
        c.socket->Send(Create<Packet>(r.toPeer.data(), static_cast<uint32_t>(r.toPeer.size())));
    }
    if (r.justEstablished)
    {
        m_tlsSessions.insert(c.tls->GetSessionId());
    }
    if (c.tls->HasFailed())
    {
        Reject(id, "tls: " + c.tls->GetError());
        return nullptr;
    }
    return r.appData.empty()
               ? nullptr
               : Create<Packet>(r.appData.data(), static_cast<uint32_t>(r.appData.size()));
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
            if (c.socket->GetTxAvailable() < WireBytes(c, r.text.size()))
            {
                return false;
            }
            Ptr<Packet> p = Create<Packet>(reinterpret_cast<const uint8_t*>(r.text.data()),
                                           static_cast<uint32_t>(r.text.size()));
            if (SendOn(c, p) < 0)
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
            // With TLS, one record at a time (its 5-byte header takes room too).
            const uint64_t room =
                c.tls ? (c.socket->GetTxAvailable() > AdcTlsRecord::kHeaderBytes
                             ? c.socket->GetTxAvailable() - AdcTlsRecord::kHeaderBytes
                             : 0)
                      : c.socket->GetTxAvailable();
            const uint64_t most = c.tls ? AdcTlsRecord::kMaxPlaintext : kMaxChunk;
            const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>({r.dataLeft, room, most}));
            if (n == 0)
            {
                return false; // HandleSend resumes when the transmit buffer drains
            }
            Ptr<Packet> p = Create<Packet>(n);
            if (SendOn(c, p) < 0)
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
} // namespace ns3
