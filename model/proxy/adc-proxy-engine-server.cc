/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the proxy engine's server side: connections (new or pooled), the request sent,
 * the response relayed, failures, timeouts and the idle pool. The rest of AdcProxyEngine is in
 * adc-proxy-engine.cc.
 */

#include "adc-proxy-engine.h"

#include "ns3/adc-client-ip-header.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcProxyEngineServer");

void
AdcProxyEngine::StartBack(uint64_t fid, Request& request, const AdcProxyDecision& d)
{
    Front& f = m_fronts.at(fid);
    const AdcProxyServerPool::Key key{d.serverIp, d.serverPort, d.source->GetSourceFor(d.client)};
    const bool noBody = request.head.GetMethod() == "HEAD";
    if (m_reuse)
    {
        if (const std::optional<uint64_t> id = m_pool.Take(key))
        {
            Back& b = m_backs.at(*id);
            b.idle = false;
            b.front = fid;
            b.decision = d;
            b.released = false;
            b.headDone = false;
            b.relayed = 0;
            b.done = false;
            b.reusable = false;
            b.responses.SetIgnoreBodies(noBody);
            f.back = *id;
            ++m_reused;
            NS_LOG_INFO(m_name << " backend " << *id << " " << d.target << " reused");
            m_serverConnectionTrace(d.target,
                                    AdcEndpointText(b.lease->source, b.lease->port),
                                    AdcEndpointText(d.serverIp, d.serverPort),
                                    true);
            QueueRequest(b, f, request);
            b.out.Flush(b.socket);
            ArmTimer(*id);
            return;
        }
    }
    Ptr<Socket> s = Socket::CreateSocket(m_node, TcpSocketFactory::GetTypeId());
    bool exhausted = false;
    std::optional<AdcSourceAddressPolicy::Lease> lease = d.source->Bind(s, d.client, &exhausted);
    if (!lease && exhausted)
    {
        AnswerLocally(f, 503, "Service Unavailable", !f.keepAlive, "no-source");
        s->Close();
        if (m_policy)
        {
            m_policy->Released(d);
        }
        return;
    }
    const uint64_t bid = m_nextId++;
    Back& b = m_backs[bid];
    b.socket = s;
    b.front = fid;
    b.decision = d;
    b.lease = lease;
    b.source = d.source;
    b.key = key;
    b.responses.SetIgnoreBodies(noBody);
    m_backOf[s] = bid;
    f.back = bid;
    QueueRequest(b, f, request);
    if (!lease)
    {
        FailBack(bid, "connect-failed"); // the mapped IP could not be bound
        return;
    }
    if (IsOwnAddress(d.serverIp))
    {
        // A request addressed to the appliance itself would come straight back to it.
        FailBack(bid, "destination-is-this-appliance");
        return;
    }
    ConnectBack(bid);
}

void
AdcProxyEngine::QueueRequest(Back& b, const Front& f, Request& request)
{
    AdcHttpMessage head = request.head;
    for (const AdcHeaderEdit& edit : b.decision.edits)
    {
        if (edit.value)
        {
            head.SetHeader(edit.name, *edit.value);
        }
        else
        {
            head.RemoveHeader(edit.name);
        }
    }
    // Connection is hop-by-hop: the server-side connection's own, whatever the client said.
    if (!m_reuse)
    {
        head.SetHeader("Connection", "close");
    }
    else if (f.http10)
    {
        head.SetHeader("Connection", "keep-alive");
    }
    else
    {
        head.RemoveHeader("Connection");
    }
    b.out.Push(AdcTextPacket(head.ToWireString()));
    for (const Ptr<Packet>& p : request.body)
    {
        b.out.Push(p);
    }
    request.body.clear();
    NoteQueue(b.out);
}

void
AdcProxyEngine::ConnectBack(uint64_t bid)
{
    Back& b = m_backs.at(bid);
    Ptr<Socket> s = b.socket;
    s->SetConnectCallback(MakeCallback(&AdcProxyEngine::HandleBackConnected, this),
                          MakeCallback(&AdcProxyEngine::HandleBackConnectFailed, this));
    s->SetRecvCallback(MakeCallback(&AdcProxyEngine::HandleBackRead, this));
    s->SetSendCallback(MakeCallback(&AdcProxyEngine::HandleBackSend, this));
    s->SetCloseCallbacks(MakeCallback(&AdcProxyEngine::HandleBackPeerClose, this),
                         MakeCallback(&AdcProxyEngine::HandleBackError, this));
    const InetSocketAddress server(b.decision.serverIp, b.decision.serverPort);
    // Connect takes its local address from the route: the source policy registers it first.
    if (!b.source->Connect(*b.lease, s, server))
    {
        FailBack(bid, "connect-failed");
        return;
    }
    NS_LOG_INFO(m_name << " backend " << bid << " " << b.decision.target << " from "
                       << b.lease->source << " to " << b.decision.serverIp);
    ++m_opened;
    m_serverConnectionTrace(b.decision.target,
                            AdcEndpointText(b.lease->source, b.lease->port),
                            AdcEndpointText(b.decision.serverIp, b.decision.serverPort),
                            false);
    b.out.Flush(s); // TCP keeps the request until the handshake completes
    ArmTimer(bid);
}

void
AdcProxyEngine::HandleBackConnected(Ptr<Socket> s)
{
    auto it = m_backs.find(BackOf(s));
    if (it != m_backs.end())
    {
        it->second.connected = true;
        it->second.out.Flush(s);
        ArmTimer(it->first);
    }
}

void
AdcProxyEngine::HandleBackConnectFailed(Ptr<Socket> s)
{
    auto it = m_backs.find(BackOf(s));
    if (it == m_backs.end())
    {
        return;
    }
    const uint64_t fid = it->second.front;
    FailBack(it->first, "connect-failed");
    Service(fid);
}

void
AdcProxyEngine::HandleBackSend(Ptr<Socket> s, uint32_t /* available */)
{
    auto it = m_backs.find(BackOf(s));
    if (it == m_backs.end())
    {
        return;
    }
    if (it->second.out.Flush(s) > 0 && it->second.connected)
    {
        ArmTimer(it->first); // a server taking a long upload is making progress
    }
    auto f = m_fronts.find(it->second.front);
    if (f != m_fronts.end() && f->second.bodyOpen && f->second.back == it->first)
    {
        Service(f->first); // the client's body was waiting for this room
    }
}

uint64_t
AdcProxyEngine::BusyBackOf(Ptr<Socket> s, const std::string& idleReason)
{
    const uint64_t bid = BackOf(s);
    auto it = m_backs.find(bid);
    if (it == m_backs.end())
    {
        return 0;
    }
    if (it->second.idle)
    {
        CloseIdle(bid, idleReason); // nothing was asked of it: it cannot be used any more
        return 0;
    }
    return bid;
}

void
AdcProxyEngine::HandleBackRead(Ptr<Socket> s)
{
    if (const uint64_t bid = BusyBackOf(s, "unexpected-bytes"))
    {
        const uint64_t fid = m_backs.at(bid).front;
        ReadBack(bid);
        Service(fid);
    }
}

void
AdcProxyEngine::HandleBackPeerClose(Ptr<Socket> s)
{
    if (const uint64_t bid = BusyBackOf(s, "closed-by-server"))
    {
        Back& b = m_backs.at(bid);
        b.peerClosed = true;
        const uint64_t fid = b.front;
        ReadBack(bid); // decides: complete, cut short, or waiting for room
        Service(fid);
    }
}

void
AdcProxyEngine::HandleBackError(Ptr<Socket> s)
{
    const uint64_t bid = BusyBackOf(s, "closed-by-server");
    if (bid == 0)
    {
        return;
    }
    const uint64_t fid = m_backs.at(bid).front;
    if (m_backs.at(bid).done)
    {
        CloseBack(bid); // a reset after the whole response costs nothing
        return;
    }
    FailBack(bid, "reset");
    Service(fid);
}

void
AdcProxyEngine::ReadBack(uint64_t bid)
{
    auto it = m_backs.find(bid);
    if (it == m_backs.end())
    {
        return;
    }
    Back& b = it->second;
    auto fit = m_fronts.find(b.front);
    Front* f = fit == m_fronts.end() ? nullptr : &fit->second;
    bool progress = false;
    std::string error;
    const bool wasPaused = b.paused;
    b.paused = false;
    while (error.empty())
    {
        if (f && !b.done && f->out.GetBytes() >= m_window)
        {
            NS_LOG_LOGIC(m_name << " backend " << bid << " paused: front queue full");
            b.paused = b.socket->GetRxAvailable() > 0;
            break; // the client is slow: leave the bytes in TCP, whose window then closes
        }
        Ptr<Packet> p = b.socket->Recv();
        if (!p || p->GetSize() == 0)
        {
            break;
        }
        progress = true;
        if (b.done || !f)
        {
            b.reusable = false; // nothing may follow the response we asked for; discard it
            continue;
        }
        error = ConsumeResponse(b, *f, p);
    }
    if (wasPaused && !b.paused)
    {
        AdcAnnounceWindow(b.socket); // all read: the server may send again
    }
    if (!error.empty())
    {
        FailBack(bid, "bad-response: " + error);
        return;
    }
    if (b.done && b.front != 0)
    {
        FinishBack(bid);
        return;
    }
    if (b.done)
    {
        if (b.peerClosed)
        {
            CloseBack(bid);
        }
        return;
    }
    if (b.peerClosed && b.socket->GetRxAvailable() == 0)
    {
        // The server closed and everything it sent was read: that ends a response whose body
        // is delimited by the close (RFC 9112 section 6.3 item 8); any other is short.
        if (f && b.headDone && b.responses.EndOfStream())
        {
            error = RelayPieces(b, *f);
            if (error.empty() && b.done)
            {
                FinishBack(bid);
                return;
            }
        }
        FailBack(bid, "closed-before-response-complete");
        return;
    }
    if (progress)
    {
        ArmTimer(bid);
    }
}

std::string
AdcProxyEngine::ConsumeResponse(Back& b, Front& f, Ptr<Packet> p)
{
    b.responses.Feed(p);
    return RelayPieces(b, f);
}

std::string
AdcProxyEngine::RelayPieces(Back& b, Front& f)
{
    for (const AdcHttpCutter::Piece& piece : b.responses.Take())
    {
        if (b.done)
        {
            b.reusable = false; // bytes past the response are not part of it
            break;
        }
        switch (piece.kind)
        {
        case AdcHttpCutter::Piece::HEAD: {
            if (piece.head.GetKind() != AdcHttpMessage::RESPONSE)
            {
                return "a request where a response was expected";
            }
            const uint16_t status = piece.head.GetStatus();
            // An interim response (100 Continue, ...) is relayed; the final one follows.
            if (status < 100 || status >= 200 || status == 101)
            {
                b.headDone = true;
                b.reusable = m_reuse && piece.head.IsKeepAlive();
                // A body the server's close delimits reaches the client the same way: the
                // client connection closes after it (Connection: close).
                if (AdcHttpStreamParser::DecideFraming(piece.head,
                                                       b.responses.GetIgnoreBodies() ? "HEAD" : "",
                                                       nullptr,
                                                       nullptr) ==
                    AdcHttpStreamParser::Framing::CLOSE_DELIMITED)
                {
                    b.reusable = false;
                    f.keepAlive = false;
                }
            }
            RelayHead(b, f, piece.head);
            break;
        }
        case AdcHttpCutter::Piece::BODY:
            PushToClient(f, piece.bytes);
            b.relayed += piece.bytes->GetSize();
            NoteQueue(f.out);
            break;
        case AdcHttpCutter::Piece::END:
            b.done = b.headDone;
            break;
        }
    }
    if (b.responses.HasError())
    {
        if (!b.done)
        {
            return b.responses.GetError();
        }
        b.reusable = false;
    }
    return "";
}

void
AdcProxyEngine::RelayHead(Back& b, Front& f, AdcHttpMessage head)
{
    // Via: this proxy appends itself after any earlier ones (unless ResponseVia is off).
    if (m_responseVia)
    {
        std::string via;
        for (const std::string& v : head.GetHeaders("Via"))
        {
            via += (via.empty() ? "" : ", ") + v;
        }
        via += (via.empty() ? "" : ", ") + std::string("1.1 ") + m_name;
        head.SetHeader("Via", via);
    }
    // Connection is hop-by-hop: the server's answered our request, not the client's.
    head.RemoveHeader("Keep-Alive");
    if (!f.keepAlive)
    {
        head.SetHeader("Connection", "close");
    }
    else if (f.http10)
    {
        head.SetHeader("Connection", "keep-alive");
    }
    else
    {
        head.RemoveHeader("Connection");
    }
    if (head.GetStatus() >= 200)
    {
        for (const auto& [name, value] : b.decision.responseFields)
        {
            head.AddHeader(name, value);
        }
    }
    Ptr<Packet> p = AdcTextPacket(head.ToWireString());
    b.relayed += p->GetSize();
    PushToClient(f, p);
    NoteQueue(f.out);
}

void
AdcProxyEngine::FinishBack(uint64_t bid)
{
    Back& b = m_backs.at(bid);
    auto fit = m_fronts.find(b.front);
    if (fit != m_fronts.end())
    {
        Front& f = fit->second;
        f.back = 0;
        if (!f.keepAlive)
        {
            f.closeWhenFlushed = true;
        }
        if (f.bodyOpen)
        {
            b.reusable = false; // answered early: the rest of the request body will not follow
        }
    }
    b.front = 0;
    ++m_relayedCount;
    NS_LOG_INFO(m_name << " backend " << bid << " " << b.decision.target << " response relayed");
    const bool clean = !b.peerClosed && b.out.IsEmpty() && b.socket->GetRxAvailable() == 0 &&
                       !b.responses.IsMidMessage() && !b.responses.HasError();
    if (m_reuse && b.reusable && clean)
    {
        ReleaseDecision(b);
        b.idle = true;
        const std::optional<uint64_t> evicted = m_pool.Put(bid, b.key, m_maxIdlePerServer);
        ArmTimer(bid);
        if (evicted)
        {
            CloseIdle(*evicted, "pool-full");
        }
        return;
    }
    if (b.peerClosed)
    {
        CloseBack(bid);
    }
    else
    {
        ArmTimer(bid); // wait for its FIN (it holds TIME_WAIT, not us), but not for ever
    }
}

void
AdcProxyEngine::FailBack(uint64_t bid, const std::string& reason)
{
    Back& b = m_backs.at(bid);
    ++m_failures;
    auto fit = m_fronts.find(b.front);
    Front* f = fit == m_fronts.end() ? nullptr : &fit->second;
    // A server that took the request and stayed silent is late, not unreachable.
    const uint16_t status =
        !f || b.relayed > 0 ? 0 : (reason == "timeout" && b.connected ? m_timeoutStatus : 502);
    NS_LOG_INFO(m_name << " backend " << bid << " " << b.decision.target << " failed: " << reason);
    if (!m_quiet)
    {
        m_serverFailureTrace(b.decision.target, reason, status);
    }
    if (f)
    {
        f->back = 0;
        if (status != 0)
        {
            AnswerLocally(*f,
                          status,
                          status == 504 ? "Gateway Timeout" : "Bad Gateway",
                          !f->keepAlive,
                          reason);
        }
        else
        {
            f->abort = true; // part of the response is out: only closing tells the client
        }
    }
    b.front = 0;
    CloseBack(bid);
}

void
AdcProxyEngine::ReleaseDecision(Back& b)
{
    if (!b.released && m_policy)
    {
        b.released = true;
        m_policy->Released(b.decision);
    }
}

void
AdcProxyEngine::CloseBack(uint64_t bid)
{
    auto it = m_backs.find(bid);
    if (it == m_backs.end())
    {
        return;
    }
    Back& b = it->second;
    b.timer.Cancel();
    auto fit = m_fronts.find(b.front);
    if (fit != m_fronts.end() && fit->second.back == bid)
    {
        fit->second.back = 0;
    }
    if (b.idle)
    {
        m_pool.Remove(bid);
    }
    ReleaseDecision(b);
    if (b.lease && b.source)
    {
        b.source->Release(*b.lease, m_quiet);
    }
    Ptr<Socket> s = b.socket;
    m_backOf.erase(s);
    m_backs.erase(it);
    DetachAndClose(s);
}

void
AdcProxyEngine::CloseIdle(uint64_t bid, const std::string& reason)
{
    auto it = m_backs.find(bid);
    if (it == m_backs.end())
    {
        return;
    }
    const Back& b = it->second;
    NS_LOG_INFO(m_name << " idle backend " << bid << " closed: " << reason);
    if (!m_quiet)
    {
        m_idleClosedTrace(AdcEndpointText(b.decision.serverIp, b.decision.serverPort),
                          AdcEndpointText(b.lease->source, b.lease->port),
                          reason);
    }
    CloseBack(bid);
}

void
AdcProxyEngine::ArmTimer(uint64_t bid)
{
    Back& b = m_backs.at(bid);
    b.timer.Cancel();
    const Time wait = b.idle ? m_idleTimeout : (b.connected ? m_responseTimeout : m_connectTimeout);
    b.timer = Simulator::Schedule(wait, &AdcProxyEngine::BackTimer, this, bid);
}

void
AdcProxyEngine::BackTimer(uint64_t bid)
{
    auto it = m_backs.find(bid);
    if (it == m_backs.end())
    {
        return;
    }
    Back& b = it->second;
    if (b.idle)
    {
        CloseIdle(bid, "idle-timeout");
        return;
    }
    if (b.done)
    {
        CloseBack(bid); // its FIN never came
        return;
    }
    const uint64_t fid = b.front;
    auto fit = m_fronts.find(fid);
    if (fit != m_fronts.end() && fit->second.out.GetBytes() >= m_window)
    {
        ArmTimer(bid); // waiting for the client, not for the server
        return;
    }
    FailBack(bid, "timeout");
    Service(fid);
}

} // namespace ns3
