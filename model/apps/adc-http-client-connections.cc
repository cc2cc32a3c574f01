/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: AdcHttpClient's connections: giving queued requests to idle or new TCP connections,
 * reading responses, closing connections. Requests, workload and accounting are in
 * adc-http-client.cc.
 */

#include "adc-http-client.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpClientConnections");

// ---- connections ---------------------------------------------------------------------------

// ---- sites ----------------------------------------------------------------------------------

void
AdcHttpClient::AddSite(const std::string& host, const Address& remote)
{
    if (host.empty() || AdcText::FindControl(host) != std::string::npos)
    {
        throw AdcConfigError("AdcHttpClient: site Host '" + host +
                             "' is not allowed; use a non-empty name without control characters");
    }
    if (!InetSocketAddress::IsMatchingType(remote) && !Inet6SocketAddress::IsMatchingType(remote))
    {
        throw AdcConfigError("AdcHttpClient: site '" + host +
                             "' remote is not an InetSocketAddress / Inet6SocketAddress");
    }
    m_sites.emplace_back(host, remote);
}

uint32_t
AdcHttpClient::GetNSites() const
{
    return static_cast<uint32_t>(m_sites.size());
}

int64_t
AdcHttpClient::SiteOf(uint64_t rid) const
{
    return m_sites.empty() ? -1 : static_cast<int64_t>((rid - 1) % m_sites.size());
}

const std::string&
AdcHttpClient::HostOf(uint64_t rid) const
{
    const int64_t site = SiteOf(rid);
    return site < 0 ? m_host : m_sites[site].first;
}

void
AdcHttpClient::Dispatch()
{
    if (m_dispatching)
    {
        m_dispatchAgain = true; // the running loop picks the change up
        return;
    }
    m_dispatching = true;
    do
    {
        m_dispatchAgain = false;
        while (m_running && !m_queue.empty())
        {
            const uint64_t rid = m_queue.front();
            const int64_t site = SiteOf(rid);
            const uint64_t idle =
                m_persistent ? FindIdle(site < 0 ? nullptr : &m_sites[site].second) : 0;
            if (idle == 0 && m_conns.size() >= m_maxConnections)
            {
                break;
            }
            m_queue.pop_front();
            if (idle != 0)
            {
                SendOn(idle, rid);
            }
            else
            {
                OpenConnection(rid);
            }
        }
    } while (m_dispatchAgain);
    m_dispatching = false;
}

uint64_t
AdcHttpClient::FindIdle(const Address* want) const
{
    for (const auto& kv : m_conns) // std::map: lowest id first, deterministic
    {
        if (IsReady(kv.second) && kv.second.current == 0 && (!want || kv.second.remote == *want))
        {
            return kv.first;
        }
    }
    return 0;
}

void
AdcHttpClient::OpenConnection(uint64_t rid)
{
    Open& o = m_open.at(rid);
    const int64_t site = SiteOf(rid);
    const Address remote = !m_chooser.IsNull() ? m_chooser(o.rec.url, rid)
                           : site >= 0         ? m_sites[site].second
                                               : m_remote;
    const bool v4 = InetSocketAddress::IsMatchingType(remote);
    if (!v4 && !Inet6SocketAddress::IsMatchingType(remote))
    {
        NS_LOG_WARN("client: server chooser returned an unusable address");
        End(rid, "connect-failed");
        return;
    }
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    const int bound = v4 ? s->Bind() : s->Bind6();
    if (bound == -1 || s->Connect(remote) == -1)
    {
        End(rid, "connect-failed");
        s->Close();
        return;
    }
    const uint64_t cid = m_nextConnId++;
    Conn& c = m_conns[cid];
    c.socket = s;
    c.remote = remote;
    m_idOf[s] = cid;
    ++m_connsOpened;
    Attach(cid, rid);
    s->SetConnectCallback(MakeCallback(&AdcHttpClient::HandleConnected, this),
                          MakeCallback(&AdcHttpClient::HandleConnectFailed, this));
    s->SetRecvCallback(MakeCallback(&AdcHttpClient::HandleRead, this));
    s->SetCloseCallbacks(MakeCallback(&AdcHttpClient::HandlePeerClose, this),
                         MakeCallback(&AdcHttpClient::HandleError, this));
}

void
AdcHttpClient::SendOn(uint64_t cid, uint64_t rid)
{
    Attach(cid, rid);
    Conn& c = m_conns.at(cid);
    Open& o = m_open.at(rid);
    const AdcHttpMessage request = BuildRequest(o.rec.url, GetCookieHeader(), HostOf(rid));
    o.rec.requestBytes = request.GetSerializedSize(); // with the Cookie header, if any
    c.parser.ExpectResponseTo(request.GetMethod());   // HEAD answers have no body, for one
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(request);
    if (c.socket->Send(TlsWrap(c, p)) < 0)
    {
        DropConn(cid, "connection-reset");
        Dispatch();
    }
}

void
AdcHttpClient::Attach(uint64_t cid, uint64_t rid)
{
    Conn& c = m_conns.at(cid);
    Open& o = m_open.at(rid);
    c.current = rid;
    o.conn = cid;
    o.rec.server = AdcHttpAddressToIp(c.remote).ToString();
    Address local;
    if (c.socket->GetSockName(local) == 0 && !AdcHttpAddressToIp(local).IsNone())
    {
        o.rec.clientIp = AdcHttpAddressToIp(local);
    }
}

uint64_t
AdcHttpClient::IdOf(Ptr<Socket> s) const
{
    auto it = m_idOf.find(s);
    return it == m_idOf.end() ? 0 : it->second;
}

void
AdcHttpClient::HandleConnected(Ptr<Socket> s)
{
    const uint64_t cid = IdOf(s);
    auto it = m_conns.find(cid);
    if (it == m_conns.end())
    {
        return;
    }
    it->second.connected = true;
    if (m_tls)
    {
        StartTls(cid); // requests go once the handshake completes
    }
    else if (it->second.current != 0)
    {
        SendOn(cid, it->second.current);
    }
    else
    {
        Dispatch();
    }
}

void
AdcHttpClient::HandleConnectFailed(Ptr<Socket> s)
{
    DropConn(IdOf(s), "connect-failed");
    Dispatch();
}

void
AdcHttpClient::HandlePeerClose(Ptr<Socket> s)
{
    const uint64_t cid = IdOf(s);
    ReadResponses(cid, s);
    auto it = m_conns.find(cid);
    if (it != m_conns.end() && it->second.current != 0)
    {
        // The close ends a close-delimited body (RFC 9112 section 6.3 item 8); any other
        // message still incomplete fails below as before.
        it->second.parser.EndOfStream();
        if (!it->second.parser.HasError())
        {
            TakeResponse(cid);
        }
    }
    DropConn(cid, "connection-closed");
    Dispatch();
}

void
AdcHttpClient::HandleError(Ptr<Socket> s)
{
    DropConn(IdOf(s), "connection-reset");
    Dispatch();
}

void
AdcHttpClient::HandleRead(Ptr<Socket> s)
{
    ReadResponses(IdOf(s), s);
    Dispatch();
}

void
AdcHttpClient::ReadResponses(uint64_t cid, Ptr<Socket> s)
{
    Ptr<Packet> p;
    Address from;
    while (cid != 0 && (p = s->RecvFrom(from)))
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        m_bytesRx += p->GetSize();
        m_rxTrace(p, from);
        auto it = m_conns.find(cid);
        if (it == m_conns.end())
        {
            continue; // already dropped: drain the socket so Close sends no RST
        }
        if (it->second.tls)
        {
            p = TlsReceive(cid, p);
            it = m_conns.find(cid);
            if (!p || it == m_conns.end())
            {
                continue; // handshake bytes only, or the connection failed
            }
        }
        it->second.parser.Feed(p);
        if (it->second.current == 0)
        {
            DropConn(cid, ""); // bytes nobody asked for: the connection is out of step
            continue;
        }
        TakeResponse(cid);
    }
}

void
AdcHttpClient::TakeResponse(uint64_t cid)
{
    Conn& c = m_conns.at(cid);
    if (c.parser.HasError())
    {
        DropConn(cid, "parse-error");
        return;
    }
    const uint64_t rid = c.current;
    Open& o = m_open.at(rid);
    AdcHttpStreamParser::Message m;
    do
    {
        if (!c.parser.Next(&m))
        {
            return;
        }
        o.rec.responseBytes += m.GetWireBytes(); // interim 1xx responses count as received
    } while (m.head.GetKind() == AdcHttpMessage::RESPONSE && m.head.GetStatus() < 200);
    o.rec.status = m.head.GetStatus();
    o.rec.server = m.head.GetHeader("Server").value_or(o.rec.server);
    o.rec.path = ResponsePath(m.head);
    c.current = 0;
    StoreCookies(rid, m.head);
    CheckVersion(rid, m.head);
    if (!m_disposing)
    {
        m_responseTrace(rid, m);
    }
    const bool reuse = m_persistent && m.head.IsKeepAlive() && !c.parser.IsMidMessage() &&
                       !c.parser.Next(nullptr, nullptr);
    End(rid, ResponseFailure(m.head));
    if (!reuse)
    {
        DropConn(cid, "");
    }
}

void
AdcHttpClient::DropConn(uint64_t cid, const std::string& reason)
{
    auto it = m_conns.find(cid);
    if (it == m_conns.end())
    {
        return;
    }
    const uint64_t rid = it->second.current;
    Ptr<Socket> s = it->second.socket;
    m_idOf.erase(s);
    m_conns.erase(it);
    // Detach first: Close() can notify synchronously (e.g. while still connecting).
    s->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                          MakeNullCallback<void, Ptr<Socket>>());
    s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    s->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                         MakeNullCallback<void, Ptr<Socket>>());
    if (!m_disposing) // during Simulator::Destroy the IP stack may already be gone
    {
        s->Close();
    }
    if (rid != 0)
    {
        End(rid, reason.empty() ? "connection-closed" : reason);
    }
}

} // namespace ns3
