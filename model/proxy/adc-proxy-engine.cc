/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the proxy engine's configuration, lifecycle and client side; the server side is in
 * adc-proxy-engine-server.cc.
 */

#include "adc-proxy-engine.h"

#include "ns3/adc-client-ip-header.h"
#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcProxyEngine");

NS_OBJECT_ENSURE_REGISTERED(AdcProxyEngine);

TypeId
AdcProxyEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcProxyEngine")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcProxyEngine>()
            .AddAttribute("Name",
                          "The proxy's name: appended to Via as \"1.1 <Name>\" and the Server "
                          "header of the answers it makes itself.",
                          StringValue("ADC"),
                          MakeStringAccessor(&AdcProxyEngine::m_name),
                          MakeStringChecker())
            .AddAttribute("ResponseVia",
                          "Append \"1.1 <Name>\" to the Via header of the responses it relays "
                          "(RFC 9110 section 7.6.3; NetScaler's -via ON). Off: responses keep "
                          "the Via they came with.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcProxyEngine::m_responseVia),
                          MakeBooleanChecker())
            .AddAttribute("ServicePort",
                          "TCP port listened on for any address (intercepted traffic included).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&AdcProxyEngine::m_servicePort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("MaxPipelined",
                          "Requests of one client parsed and waiting behind the one being "
                          "served; more stop the client's connection from being read.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&AdcProxyEngine::m_maxPipelined),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RelayWindow",
                          "Bytes queued towards one socket before the other side is no longer "
                          "read (flow control reaches the sender).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&AdcProxyEngine::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ConnectTimeout",
                          "A server connection not established after this long fails (502).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&AdcProxyEngine::m_connectTimeout),
                          MakeTimeChecker())
            .AddAttribute("ResponseTimeout",
                          "A server connection that makes no progress this long while the "
                          "response is awaited fails (ResponseTimeoutStatus).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&AdcProxyEngine::m_responseTimeout),
                          MakeTimeChecker())
            .AddAttribute("ResponseTimeoutStatus",
                          "Status answered when a server accepted the request but did not "
                          "answer in time: 504 (Gateway Timeout) or 502 (Bad Gateway).",
                          UintegerValue(504),
                          MakeUintegerAccessor(&AdcProxyEngine::m_timeoutStatus),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("ServerConnectionReuse",
                          "Keep server connections open after a response and reuse them for "
                          "the next request to the same server from the same source "
                          "(NetScaler's -reuse, on by default there); false: one connection "
                          "per request, closed after it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcProxyEngine::m_reuse),
                          MakeBooleanChecker())
            .AddAttribute("ServerIdleTimeout",
                          "An idle pooled server connection is closed after this long "
                          "(NetScaler's default idle timeout of multiplexed server "
                          "connections: 180 s, support article CTX492010).",
                          TimeValue(Seconds(180)),
                          MakeTimeAccessor(&AdcProxyEngine::m_idleTimeout),
                          MakeTimeChecker())
            .AddAttribute("MaxIdlePerServer",
                          "Idle connections pooled per server (all sources together); the "
                          "oldest one is closed to make room.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&AdcProxyEngine::m_maxIdlePerServer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Tls",
                          "Terminate TLS 1.2 on client connections (NetScaler's SSL virtual "
                          "servers): handshake, then HTTP in application_data records.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcProxyEngine::m_tls),
                          MakeBooleanChecker())
            .AddAttribute("TlsSessionTimeout",
                          "How long an issued session ID can be resumed (NetScaler's SSL "
                          "-sessTimeout, 120 s).",
                          TimeValue(Seconds(120)),
                          MakeTimeAccessor(&AdcProxyEngine::m_tlsSessionTimeout),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("TlsSeed",
                          "Seed of the TLS randoms and session IDs (with the node and "
                          "connection ids, so runs repeat).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&AdcProxyEngine::m_tlsSeed),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("TlsHandshake",
                            "A client connection's TLS handshake completed: peer, session ID "
                            "(hex), resumed.",
                            MakeTraceSourceAccessor(&AdcProxyEngine::m_tlsHandshakeTrace),
                            "ns3::AdcProxyEngine::TlsHandshakeTracedCallback")
            .AddTraceSource("Accept",
                            "A client connection was accepted: peer, original destination.",
                            MakeTraceSourceAccessor(&AdcProxyEngine::m_acceptTrace),
                            "ns3::AdcProxyEngine::AcceptTracedCallback")
            .AddTraceSource("ServerConnection",
                            "A request went to a server: target, source, server, whether the "
                            "connection was an idle one reused.",
                            MakeTraceSourceAccessor(&AdcProxyEngine::m_serverConnectionTrace),
                            "ns3::AdcProxyEngine::ServerConnectionTracedCallback")
            .AddTraceSource("ServerFailure",
                            "A server connection failed: target, reason, status answered.",
                            MakeTraceSourceAccessor(&AdcProxyEngine::m_serverFailureTrace),
                            "ns3::AdcProxyEngine::ServerFailureTracedCallback")
            .AddTraceSource("LocalAnswer",
                            "The engine answered a request itself: status, cause.",
                            MakeTraceSourceAccessor(&AdcProxyEngine::m_answerTrace),
                            "ns3::AdcProxyEngine::LocalAnswerTracedCallback")
            .AddTraceSource("Drop",
                            "A request was refused with 4xx, or could not be answered: reason.",
                            MakeTraceSourceAccessor(&AdcProxyEngine::m_dropTrace),
                            "ns3::AdcProxyEngine::DropTracedCallback")
            .AddTraceSource("IdleClosed",
                            "An idle server connection was closed: server, source, reason.",
                            MakeTraceSourceAccessor(&AdcProxyEngine::m_idleClosedTrace),
                            "ns3::AdcProxyEngine::IdleClosedTracedCallback");
    return tid;
}

AdcProxyEngine::AdcProxyEngine()
    : m_name("ADC"),
      m_servicePort(80),
      m_maxPipelined(16),
      m_window(65536),
      m_connectTimeout(Seconds(5)),
      m_responseTimeout(Seconds(5)),
      m_timeoutStatus(504),
      m_reuse(true),
      m_idleTimeout(Seconds(180)),
      m_maxIdlePerServer(256),
      m_tls(false),
      m_tlsSessionTimeout(Seconds(120)),
      m_tlsSeed(1),
      m_policy(nullptr),
      m_nextId(1),
      m_quiet(false),
      m_requests(0),
      m_relayedCount(0),
      m_failures(0),
      m_drops(0),
      m_opened(0),
      m_reused(0),
      m_peakQueue(0),
      m_peakPipelined(0)
{
    NS_LOG_FUNCTION(this);
}

AdcProxyEngine::~AdcProxyEngine()
{
    NS_LOG_FUNCTION(this);
}

void
AdcProxyEngine::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Stop(true);
    m_policy = nullptr;
    m_node = nullptr;
    Object::DoDispose();
}

void
AdcProxyEngine::SetPolicy(AdcProxyPolicy* policy)
{
    m_policy = policy;
}

void
AdcProxyEngine::CheckConfig() const
{
    const std::string who = "AdcProxyEngine " + m_name + ": ";
    if (m_name.empty() || std::any_of(m_name.begin(), m_name.end(), [](char c) {
            return static_cast<uint8_t>(c) <= 0x20 || c == 0x7f || c == ',';
        }))
    {
        throw AdcConfigError(who + "Name '" + m_name +
                             "' must be non-empty printable text without spaces or commas "
                             "(it goes into the Via header)");
    }
    if (!m_policy)
    {
        throw AdcConfigError(who + "no policy: call SetPolicy before Start");
    }
    if (!m_connectTimeout.IsStrictlyPositive() || !m_responseTimeout.IsStrictlyPositive() ||
        !m_idleTimeout.IsStrictlyPositive())
    {
        throw AdcConfigError(
            who + "ConnectTimeout " + std::to_string(m_connectTimeout.GetSeconds()) +
            " s, ResponseTimeout " + std::to_string(m_responseTimeout.GetSeconds()) +
            " s and ServerIdleTimeout " + std::to_string(m_idleTimeout.GetSeconds()) +
            " s must all be > 0");
    }
    if (m_timeoutStatus != 502 && m_timeoutStatus != 504)
    {
        throw AdcConfigError::NotOneOf("AdcProxyEngine " + m_name,
                                       "ResponseTimeoutStatus",
                                       std::to_string(m_timeoutStatus),
                                       {"502", "504"});
    }
}

bool
AdcProxyEngine::IsOwnAddress(Ipv4Address a) const
{
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    return ipv4 && ipv4->GetInterfaceForAddress(a) >= 0;
}

// ---- lifecycle -----------------------------------------------------------------------------

void
AdcProxyEngine::Start(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    CheckConfig();
    if (m_listen)
    {
        return;
    }
    m_node = node;
    m_quiet = false;
    m_listen = AdcListenTcp(node, m_servicePort);
    if (!m_listen)
    {
        throw AdcConfigError("AdcProxyEngine " + m_name + ": ServicePort " +
                             std::to_string(m_servicePort) + " cannot be bound on node " +
                             std::to_string(node->GetId()) + " (already in use?)");
    }
    m_listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                MakeCallback(&AdcProxyEngine::HandleAccept, this));
}

void
AdcProxyEngine::Stop(bool quiet)
{
    NS_LOG_FUNCTION(this << quiet);
    m_quiet = m_quiet || quiet;
    if (m_listen)
    {
        AdcStopListening(m_listen, !m_quiet);
        m_listen = nullptr;
    }
    std::vector<uint64_t> ids;
    for (const auto& kv : m_fronts) // std::map: ascending ids, deterministic
    {
        ids.push_back(kv.first);
    }
    for (uint64_t id : ids)
    {
        CloseFront(id);
    }
    ids.clear();
    for (const auto& kv : m_backs)
    {
        ids.push_back(kv.first);
    }
    for (uint64_t id : ids)
    {
        CloseBack(id);
    }
}

// ---- helpers -------------------------------------------------------------------------------

uint64_t
AdcProxyEngine::FrontOf(Ptr<Socket> s) const
{
    auto it = m_frontOf.find(s);
    return it == m_frontOf.end() ? 0 : it->second;
}

uint64_t
AdcProxyEngine::BackOf(Ptr<Socket> s) const
{
    auto it = m_backOf.find(s);
    return it == m_backOf.end() ? 0 : it->second;
}

void
AdcProxyEngine::DetachAndClose(Ptr<Socket> s)
{
    AdcDetachSocket(s, !m_quiet);
}

void
AdcProxyEngine::Drop(const std::string& reason)
{
    if (m_quiet)
    {
        return;
    }
    ++m_drops;
    NS_LOG_INFO(m_name << " drop: " << reason);
    m_dropTrace(reason);
}

// ---- client connections --------------------------------------------------------------------

void
AdcProxyEngine::HandleAccept(Ptr<Socket> s, const Address& from)
{
    NS_LOG_FUNCTION(this << s << from);
    Address local;
    s->GetSockName(local);
    if (!InetSocketAddress::IsMatchingType(from) || !InetSocketAddress::IsMatchingType(local))
    {
        DetachAndClose(s);
        return;
    }
    const InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
    const InetSocketAddress orig = InetSocketAddress::ConvertFrom(local);
    const uint64_t fid = m_nextId++;
    Front& f = m_fronts[fid];
    f.socket = s;
    f.info.id = fid;
    f.info.peerIp = peer.GetIpv4();
    f.info.peerPort = peer.GetPort();
    f.info.localIp = orig.GetIpv4();
    f.info.localPort = orig.GetPort();
    m_frontOf[s] = fid;
    s->SetRecvCallback(MakeCallback(&AdcProxyEngine::HandleFrontRead, this));
    s->SetSendCallback(MakeCallback(&AdcProxyEngine::HandleFrontSend, this));
    s->SetCloseCallbacks(MakeCallback(&AdcProxyEngine::HandleFrontPeerClose, this),
                         MakeCallback(&AdcProxyEngine::HandleFrontError, this));
    NS_LOG_INFO(m_name << " accepts " << AdcEndpointText(f.info.peerIp, f.info.peerPort) << " -> "
                       << AdcEndpointText(f.info.localIp, f.info.localPort));
    m_acceptTrace(AdcEndpointText(f.info.peerIp, f.info.peerPort),
                  AdcEndpointText(f.info.localIp, f.info.localPort));
    if (m_tls)
    {
        StartFrontTls(f);
    }
    m_policy->Accepted(f.info);
}

void
AdcProxyEngine::HandleFrontRead(Ptr<Socket> s)
{
    Service(FrontOf(s));
}

void
AdcProxyEngine::HandleFrontSend(Ptr<Socket> s, uint32_t /* available */)
{
    Service(FrontOf(s));
}

void
AdcProxyEngine::HandleFrontPeerClose(Ptr<Socket> s)
{
    auto it = m_fronts.find(FrontOf(s));
    if (it == m_fronts.end())
    {
        return;
    }
    it->second.peerClosed = true;
    Service(it->first);
}

void
AdcProxyEngine::HandleFrontError(Ptr<Socket> s)
{
    const uint64_t fid = FrontOf(s);
    NS_LOG_LOGIC(m_name << " front " << fid << " reset");
    CloseFront(fid);
}

bool
AdcProxyEngine::IsFrontReadBlocked(const Front& f) const
{
    if (f.pending.size() >= m_maxPipelined || f.pendingBody >= m_window)
    {
        return true; // enough waits already
    }
    if (f.bodyOpen && f.back != 0)
    {
        auto b = m_backs.find(f.back);
        return b != m_backs.end() && b->second.out.GetBytes() >= m_window; // the server is slow
    }
    return false;
}

void
AdcProxyEngine::ReadFront(Front& f)
{
    for (;;)
    {
        if (IsFrontReadBlocked(f))
        {
            f.paused = f.paused || f.socket->GetRxAvailable() > 0;
            return;
        }
        Ptr<Packet> p = f.socket->Recv();
        if (!p || p->GetSize() == 0)
        {
            if (f.paused)
            {
                f.paused = false;
                AdcAnnounceWindow(f.socket); // all read: the client may send again
            }
            return;
        }
        if (f.readStopped)
        {
            continue; // after a malformed request nothing more is understood
        }
        if (f.tls)
        {
            p = FrontTlsReceive(f, p);
            if (!p || p->GetSize() == 0)
            {
                continue;
            }
        }
        f.requests.Feed(p);
        for (const AdcHttpCutter::Piece& piece : f.requests.Take())
        {
            const bool toPending = !f.pending.empty() && !f.pending.back().complete;
            if (piece.kind == AdcHttpCutter::Piece::HEAD)
            {
                Request r;
                r.head = piece.head;
                f.pending.push_back(r);
                m_peakPipelined =
                    std::max(m_peakPipelined, static_cast<uint32_t>(f.pending.size()));
            }
            else if (!toPending)
            {
                ForwardBody(f, piece); // the request being served is still arriving
            }
            else if (piece.kind == AdcHttpCutter::Piece::BODY)
            {
                Request& r = f.pending.back();
                r.body.push_back(piece.bytes);
                r.bodyBytes += piece.bytes->GetSize();
                f.pendingBody += piece.bytes->GetSize();
            }
            else
            {
                f.pending.back().complete = true;
            }
        }
        if (f.requests.HasError() && f.bodyOpen && f.pending.empty())
        {
            // The request being served broke in its body: its server got part of it, so
            // the exchange cannot go on; the connection closes with one trace.
            Drop("bad-request: " + f.requests.GetError());
            auto b = m_backs.find(f.back);
            if (b != m_backs.end())
            {
                b->second.front = 0;
                CloseBack(f.back);
            }
            f.back = 0;
            f.bodyOpen = false;
            f.abort = true;
            f.readStopped = true;
        }
        else if (f.requests.HasError())
        {
            Request bad;
            bad.error = f.requests.GetError();
            bad.complete = true;
            f.pending.push_back(bad);
            f.readStopped = true;
        }
    }
}

void
AdcProxyEngine::ForwardBody(Front& f, const AdcHttpCutter::Piece& piece)
{
    if (!f.bodyOpen)
    {
        return;
    }
    if (piece.kind == AdcHttpCutter::Piece::END)
    {
        f.bodyOpen = false;
        f.currentComplete = true;
        return;
    }
    auto b = m_backs.find(f.back);
    if (b == m_backs.end())
    {
        return; // the request was answered without its server: its body goes nowhere
    }
    b->second.out.Push(piece.bytes);
    NoteQueue(b->second.out);
    b->second.out.Flush(b->second.socket);
}

void
AdcProxyEngine::Service(uint64_t fid)
{
    auto it = m_fronts.find(fid);
    if (it == m_fronts.end())
    {
        return;
    }
    if (it->second.inService)
    {
        it->second.serviceAgain = true; // the running loop goes round once more
        return;
    }
    it->second.inService = true;
    do
    {
        Front& f = m_fronts.at(fid); // handlers below never erase a front in service
        f.serviceAgain = false;
        if (f.abort)
        {
            break;
        }
        ReadFront(f);
        // A request whose end can no longer arrive is not served.
        const bool starved = f.peerClosed && f.socket->GetRxAvailable() == 0;
        while (f.back == 0 && !f.bodyOpen && !f.pending.empty() && !f.closeWhenFlushed &&
               !f.abort && (f.pending.front().complete || !starved))
        {
            Request request = std::move(f.pending.front());
            f.pending.pop_front();
            f.pendingBody -= request.bodyBytes;
            HandleRequest(fid, request);
        }
        if (f.back != 0 && f.out.GetBytes() < m_window)
        {
            ReadBack(f.back); // resume a relay paused for room; may finish the request
        }
        f.out.Flush(f.socket);
        if (f.back == 0 && !f.closeWhenFlushed && !f.abort &&
            (!f.pending.empty() || f.socket->GetRxAvailable() > 0) && !f.bodyOpen)
        {
            f.serviceAgain = true; // the next request can go now
        }
        if (f.bodyOpen && starved && f.back != 0)
        {
            f.abort = true; // the request being served can never be complete
        }
    } while (m_fronts.at(fid).serviceAgain);

    Front& f = m_fronts.at(fid);
    f.inService = false;
    const bool starved = f.peerClosed && f.socket->GetRxAvailable() == 0;
    // A body still open after the request was answered is only discarded.
    const bool idle =
        f.back == 0 && (!f.bodyOpen || starved) &&
        (f.pending.empty() || (starved && f.pending.size() == 1 && !f.pending.front().complete));
    if (f.abort || (f.out.IsEmpty() && (f.closeWhenFlushed || (f.peerClosed && idle))))
    {
        CloseFront(fid);
    }
}

void
AdcProxyEngine::HandleRequest(uint64_t fid, Request& request)
{
    Front& f = m_fronts.at(fid);
    if (!request.error.empty())
    {
        Drop("bad-request: " + request.error);
        AnswerLocally(f, 400, "Bad Request", true, "bad-request");
        return;
    }
    ++m_requests;
    f.keepAlive = request.head.IsKeepAlive();
    f.http10 = request.head.GetVersion() == "HTTP/1.0";
    f.bodyOpen = !request.complete; // its further body bytes go straight to its server
    f.currentComplete = request.complete;
    NS_LOG_INFO(m_name << " front " << fid << " request " << request.head.GetMethod() << " "
                       << request.head.GetTarget());
    const AdcProxyDecision d = m_policy->Decide(f.info, request.head);
    if (d.action == AdcProxyDecision::ANSWER)
    {
        if (!d.drop.empty())
        {
            Drop(d.drop);
        }
        AnswerLocally(f, d.status, d.reason, d.close || !f.keepAlive, "policy");
        return;
    }
    if (!d.source)
    {
        throw AdcConfigError("AdcProxyEngine " + m_name + ": the policy forwarded a request to '" +
                             d.target +
                             "' without a source-address policy (AdcProxyDecision::"
                             "source); give it one, e.g. MAPPED_IP or CLIENT_IP");
    }
    StartBack(fid, request, d);
}

void
AdcProxyEngine::AnswerLocally(Front& f,
                              uint16_t status,
                              const std::string& reason,
                              bool close,
                              const std::string& cause)
{
    AdcHttpMessage head = AdcHttpMessage::MakeResponse(status, reason);
    head.SetHeader("Server", m_name);
    head.SetContentLength(0);
    if (close)
    {
        head.SetHeader("Connection", "close");
        f.closeWhenFlushed = true;
    }
    NS_LOG_INFO(m_name << " answers " << status << " " << reason);
    if (!m_quiet)
    {
        m_answerTrace(status, cause);
    }
    PushToClient(f, AdcTextPacket(head.ToWireString()));
}

void
AdcProxyEngine::CloseFront(uint64_t fid)
{
    auto it = m_fronts.find(fid);
    if (it == m_fronts.end())
    {
        return;
    }
    Front& f = it->second;
    // What the client still waited for can no longer be answered.
    std::size_t lost = 0;
    std::size_t incomplete = 0;
    if (f.back != 0)
    {
        auto b = m_backs.find(f.back);
        if (b != m_backs.end() && !b->second.done)
        {
            (f.currentComplete ? lost : incomplete) += 1;
            b->second.front = 0;
            CloseBack(f.back);
        }
    }
    for (const Request& r : f.pending)
    {
        if (r.error.empty()) // a parse error is no request; it was traced
        {
            (r.complete ? lost : incomplete) += 1;
        }
    }
    for (std::size_t i = 0; i < lost; ++i)
    {
        Drop("connection-closed-before-response");
    }
    if (f.requests.IsInHead() && !f.readStopped)
    {
        ++incomplete;
    }
    for (std::size_t i = 0; i < incomplete; ++i)
    {
        Drop("incomplete-request-at-close");
    }
    Ptr<Socket> s = f.socket;
    if (!m_quiet)
    {
        f.out.Flush(s); // what fits still goes out before the FIN (a cut response's start)
    }
    m_frontOf.erase(s);
    m_fronts.erase(it);
    DetachAndClose(s);
}

} // namespace ns3
