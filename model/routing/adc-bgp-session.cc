/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc SLB routing: the BGP-4 speaker's sessions: TCP connections, the finite state
 * machine of RFC 4271 section 8, its timers, and connection collisions (section 6.8).
 */

#include "adc-bgp-speaker.h"

#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcBgpSession");

namespace
{

/// Hold timer while waiting for the peer's OPEN (RFC 4271 section 8.2.2: "4 minutes").
const Time kOpenHold = Seconds(240);

/// \param from a socket address \return its IP address (unset for another type)
AdcIpAddress
IpOf(const Address& from)
{
    if (InetSocketAddress::IsMatchingType(from))
    {
        return InetSocketAddress::ConvertFrom(from).GetIpv4();
    }
    if (Inet6SocketAddress::IsMatchingType(from))
    {
        return Inet6SocketAddress::ConvertFrom(from).GetIpv6();
    }
    return AdcIpAddress();
}

/// \param ip an address \param port a port \return the socket address
Address
SocketAddress(const AdcIpAddress& ip, uint16_t port)
{
    if (ip.IsV6())
    {
        return Inet6SocketAddress(ip.GetIpv6(), port);
    }
    return InetSocketAddress(ip.GetIpv4(), port);
}

/// \param n a NOTIFICATION \return "4/0"
std::string
CodeOf(const AdcBgpNotification& n)
{
    return std::to_string(n.code) + "/" + std::to_string(n.subcode);
}

} // namespace

AdcBgpSpeaker::Peer*
AdcBgpSpeaker::FindPeer(const AdcIpAddress& address)
{
    for (auto& p : m_peers)
    {
        if (p->address == address)
        {
            return p.get();
        }
    }
    return nullptr;
}

const AdcBgpSpeaker::Peer*
AdcBgpSpeaker::FindPeer(const AdcIpAddress& address) const
{
    return const_cast<AdcBgpSpeaker*>(this)->FindPeer(address);
}

AdcBgpSpeaker::Peer*
AdcBgpSpeaker::PeerOf(Ptr<Socket> socket, Connection** conn)
{
    for (auto& p : m_peers)
    {
        for (auto& c : p->conns)
        {
            if (c->socket == socket)
            {
                *conn = c.get();
                return p.get();
            }
        }
    }
    return nullptr;
}

Ptr<Socket>
AdcBgpSpeaker::MakeSocket(const AdcIpAddress& family)
{
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    if (family.IsV6())
    {
        s->Bind6();
    }
    else
    {
        s->Bind();
    }
    return s;
}

void
AdcBgpSpeaker::StartPeer(Peer& p)
{
    if (!m_running || m_halted)
    {
        return;
    }
    if (p.passive)
    {
        p.base = ACTIVE;
        UpdateState(p);
        return;
    }
    Connect(p);
}

void
AdcBgpSpeaker::Connect(Peer& p)
{
    p.base = CONNECT;
    UpdateState(p);
    p.connecting = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    p.connecting->Bind(SocketAddress(p.local, 0));
    p.connecting->SetConnectCallback(MakeCallback(&AdcBgpSpeaker::ConnectSucceeded, this),
                                     MakeCallback(&AdcBgpSpeaker::ConnectFailed, this));
    p.counters.connectAttempts++;
    p.connecting->Connect(SocketAddress(p.address, m_port));
    p.connectRetry.Cancel();
    p.connectRetry =
        Simulator::Schedule(m_connectRetryTime, &AdcBgpSpeaker::ConnectRetryExpired, this, &p);
}

void
AdcBgpSpeaker::ConnectRetryExpired(Peer* p)
{
    if (!m_running || m_halted || !p->conns.empty())
    {
        return;
    }
    if (p->connecting)
    {
        p->connecting->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                          MakeNullCallback<void, Ptr<Socket>>());
        p->connecting->Close();
        p->connecting = nullptr;
    }
    StartPeer(*p);
}

void
AdcBgpSpeaker::ConnectSucceeded(Ptr<Socket> socket)
{
    for (auto& p : m_peers)
    {
        if (p->connecting == socket)
        {
            p->connecting = nullptr;
            if (m_halted)
            {
                return;
            }
            p->connectRetry.Cancel();
            AddConnection(*p, socket, true);
            return;
        }
    }
}

void
AdcBgpSpeaker::ConnectFailed(Ptr<Socket> socket)
{
    for (auto& p : m_peers)
    {
        if (p->connecting == socket)
        {
            NS_LOG_INFO("connection to " << p->address << " failed");
            p->connecting = nullptr;
            // RFC 4271 8.2.2, Connect state: TcpConnectionFails -> Active; the ConnectRetry
            // timer (still running) brings it back to Connect.
            if (p->conns.empty())
            {
                p->base = ACTIVE;
                UpdateState(*p);
            }
            return;
        }
    }
}

bool
AdcBgpSpeaker::AcceptRequest(Ptr<Socket> socket, const Address& from)
{
    AdcIpAddress ip = IpOf(from);
    if (m_halted || !m_running)
    {
        Discard(ip, "connection refused: speaker halted");
        return false;
    }
    const Peer* p = FindPeer(ip);
    if (p == nullptr)
    {
        Discard(ip, "connection refused: not a configured peer");
        return false;
    }
    if (p->reported == IDLE)
    {
        // RFC 4271 8.2.2, Idle state: incoming connections are refused.
        Discard(ip, "connection refused: session Idle");
        return false;
    }
    return true;
}

void
AdcBgpSpeaker::Accepted(Ptr<Socket> socket, const Address& from)
{
    Peer* p = FindPeer(IpOf(from));
    if (p == nullptr || m_halted)
    {
        socket->Close();
        return;
    }
    p->connectRetry.Cancel();
    AddConnection(*p, socket, false);
}

AdcBgpSpeaker::Connection&
AdcBgpSpeaker::AddConnection(Peer& p, Ptr<Socket> socket, bool outgoing)
{
    auto c = std::make_unique<Connection>();
    c->socket = socket;
    c->outgoing = outgoing;
    c->state = OPEN_SENT;
    socket->SetRecvCallback(MakeCallback(&AdcBgpSpeaker::Received, this));
    socket->SetCloseCallbacks(MakeCallback(&AdcBgpSpeaker::Closed, this),
                              MakeCallback(&AdcBgpSpeaker::Closed, this));
    Connection& ref = *c;
    p.conns.push_back(std::move(c));
    bool ipv6 = !p.nextHop6.IsNone() || p.address.IsV6();
    uint16_t hold = static_cast<uint16_t>(m_holdTime.GetSeconds());
    Send(p, ref, AdcBgpMessage::Open(AdcBgpOpen::Make(m_localAs, hold, m_identifier, true, ipv6)));
    RestartHold(p, ref);
    UpdateState(p);
    return ref;
}

void
AdcBgpSpeaker::Received(Ptr<Socket> socket)
{
    Connection* c = nullptr;
    Peer* p = m_halted ? nullptr : PeerOf(socket, &c);
    Ptr<Packet> packet;
    Address from;
    while ((packet = socket->RecvFrom(from)))
    {
        if (p == nullptr)
        {
            Discard(IpOf(from),
                    m_halted ? "input ignored: speaker halted"
                             : "input on a closed "
                               "connection");
            continue;
        }
        std::vector<uint8_t> bytes(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        c->pending.insert(c->pending.end(), bytes.begin(), bytes.end());
    }
    // Feed whole messages one at a time, so that the AS size negotiated by an OPEN applies
    // to the messages after it; a bad header goes in at once (the framer reports it).
    while (p != nullptr && c->state != IDLE && c->pending.size() >= AdcBgpMessage::kHeaderBytes)
    {
        std::size_t take = c->pending.size();
        if (!AdcBgpMessage::CheckHeader(c->pending.data()))
        {
            take = (std::size_t(c->pending[16]) << 8) | c->pending[17];
            if (c->pending.size() < take)
            {
                return;
            }
        }
        std::vector<AdcBgpMessage> messages = c->framer.Feed(c->pending.data(), take);
        c->pending.erase(c->pending.begin(), c->pending.begin() + take);
        for (const AdcBgpMessage& m : messages)
        {
            Deliver(*p, *c, m);
            if (c->state == IDLE)
            {
                return;
            }
        }
        if (c->framer.GetError())
        {
            const AdcBgpError& e = *c->framer.GetError();
            NS_LOG_INFO("from " << p->address << ": " << e.ToString());
            SendNotification(*p, *c, e.ToNotification());
            CloseConnection(*p, *c, "malformed message " + CodeOf(e.ToNotification()));
            return;
        }
    }
}

void
AdcBgpSpeaker::Closed(Ptr<Socket> socket)
{
    Connection* c = nullptr;
    Peer* p = PeerOf(socket, &c);
    if (p != nullptr && !m_halted)
    {
        CloseConnection(*p, *c, "connection closed by peer");
    }
}

void
AdcBgpSpeaker::Deliver(Peer& p, Connection& c, const AdcBgpMessage& m)
{
    p.counters.received[m.type]++;
    m_messageTrace(p.address, "received", m);
    if (m.type == AdcBgpMessage::NOTIFICATION)
    {
        p.counters.notificationsReceived++;
        m_notificationTrace(p.address, "received", m.notification);
        CloseConnection(p, c, "notification received " + CodeOf(m.notification));
        return;
    }
    bool expected = (m.type == AdcBgpMessage::OPEN && c.state == OPEN_SENT) ||
                    (m.type == AdcBgpMessage::KEEPALIVE && c.state != OPEN_SENT) ||
                    (m.type == AdcBgpMessage::UPDATE && c.state == ESTABLISHED);
    if (!expected)
    {
        // RFC 6608: Finite State Machine Error, subcode by the state the message came in.
        AdcBgpNotification n;
        n.code = AdcBgpNotification::FSM_ERROR;
        n.subcode = c.state == OPEN_SENT ? 1 : (c.state == OPEN_CONFIRM ? 2 : 3);
        SendNotification(p, c, n);
        CloseConnection(p, c, "unexpected " + AdcBgpMessage::TypeName(m.type));
        return;
    }
    if (m.type == AdcBgpMessage::OPEN)
    {
        ReceiveOpen(p, c, m.open);
        return;
    }
    RestartHold(p, c);
    if (m.type == AdcBgpMessage::UPDATE)
    {
        ReceiveUpdate(p, c, m.update);
    }
    else if (c.state == OPEN_CONFIRM)
    {
        c.state = ESTABLISHED;
        UpdateState(p);
        SyncPeer(p);
    }
}

void
AdcBgpSpeaker::ReceiveOpen(Peer& p, Connection& c, const AdcBgpOpen& open)
{
    AdcBgpNotification n;
    n.code = AdcBgpNotification::OPEN_MESSAGE_ERROR;
    if (open.GetPeerAs() != p.as)
    {
        n.subcode = 2; // Bad Peer AS (RFC 4271 6.2)
        SendNotification(p, c, n);
        CloseConnection(p, c, "bad peer AS " + std::to_string(open.GetPeerAs()));
        return;
    }
    if (open.bgpIdentifier == m_identifier)
    {
        n.subcode = 3; // Bad BGP Identifier: the peer uses ours
        SendNotification(p, c, n);
        CloseConnection(p, c, "bad BGP identifier");
        return;
    }
    c.peerId = open.bgpIdentifier;
    c.fourOctetAs = open.GetFourOctetAs().has_value();
    c.framer.SetFourOctetAs(c.fourOctetAs);
    bool anyMp = std::any_of(
        open.capabilities.begin(),
        open.capabilities.end(),
        [](const AdcBgpCapability& cap) { return cap.code == AdcBgpCapability::kMultiprotocol; });
    // RFC 4760 8: without multiprotocol capabilities, IPv4 unicast is implied.
    c.ipv4 = !anyMp || open.HasMultiprotocol(1, 1);
    c.ipv6 = (!p.nextHop6.IsNone() || p.address.IsV6()) && open.HasMultiprotocol(2, 1);
    uint16_t hold = std::min(open.holdTime, static_cast<uint16_t>(m_holdTime.GetSeconds()));
    c.hold = Seconds(hold);
    if (hold == 0)
    {
        c.keepalive = Time();
    }
    else if (!m_keepaliveTime.IsZero())
    {
        c.keepalive = m_keepaliveTime;
    }
    else
    {
        c.keepalive = Seconds(std::max(1, hold / 3));
    }
    if (!ResolveCollision(p, c))
    {
        return;
    }
    c.state = OPEN_CONFIRM;
    Send(p, c, AdcBgpMessage::Keepalive());
    RestartHold(p, c);
    UpdateState(p);
}

bool
AdcBgpSpeaker::ResolveCollision(Peer& p, Connection& c)
{
    for (auto& other : p.conns)
    {
        Connection& o = *other;
        if (&o == &c || (o.state != OPEN_CONFIRM && o.state != ESTABLISHED))
        {
            continue;
        }
        // RFC 4271 6.8: with an Established session the new connection goes; otherwise the
        // connection opened by the speaker with the lower BGP identifier goes.
        Connection* loser = &c;
        if (o.state == OPEN_CONFIRM)
        {
            bool localLower = m_identifier.Get() < c.peerId.Get();
            loser = (o.outgoing == localLower) ? &o : &c;
        }
        AdcBgpNotification n;
        n.code = AdcBgpNotification::CEASE;
        n.subcode = 7; // Connection Collision Resolution (RFC 4486)
        SendNotification(p, *loser, n);
        CloseConnection(p, *loser, "connection collision");
        return loser != &c;
    }
    return true;
}

void
AdcBgpSpeaker::HoldExpired(Peer* p, Connection* c)
{
    AdcBgpNotification n;
    n.code = AdcBgpNotification::HOLD_TIMER_EXPIRED;
    SendNotification(*p, *c, n);
    CloseConnection(*p, *c, "hold timer expired");
}

void
AdcBgpSpeaker::KeepaliveExpired(Peer* p, Connection* c)
{
    Send(*p, *c, AdcBgpMessage::Keepalive());
}

void
AdcBgpSpeaker::RestartHold(Peer& p, Connection& c)
{
    c.holdTimer.Cancel();
    Time hold = c.state == OPEN_SENT ? kOpenHold : c.hold;
    if (!hold.IsZero())
    {
        c.holdTimer = Simulator::Schedule(hold, &AdcBgpSpeaker::HoldExpired, this, &p, &c);
    }
}

void
AdcBgpSpeaker::Send(Peer& p, Connection& c, const AdcBgpMessage& m)
{
    if (m_halted || c.state == IDLE)
    {
        return;
    }
    std::vector<uint8_t> bytes = m.Serialize(c.fourOctetAs);
    c.socket->Send(Create<Packet>(bytes.data(), bytes.size()));
    p.counters.sent[m.type]++;
    m_messageTrace(p.address, "sent", m);
    // RFC 4271 4.4: the keepalive timer restarts with every KEEPALIVE or UPDATE sent.
    if ((m.type == AdcBgpMessage::KEEPALIVE || m.type == AdcBgpMessage::UPDATE) &&
        !c.keepalive.IsZero())
    {
        c.keepaliveTimer.Cancel();
        c.keepaliveTimer =
            Simulator::Schedule(c.keepalive, &AdcBgpSpeaker::KeepaliveExpired, this, &p, &c);
    }
}

void
AdcBgpSpeaker::SendNotification(Peer& p, Connection& c, const AdcBgpNotification& n)
{
    if (m_halted)
    {
        return;
    }
    Send(p, c, AdcBgpMessage::Notification(n));
    p.counters.notificationsSent++;
    m_notificationTrace(p.address, "sent", n);
}

void
AdcBgpSpeaker::CloseConnection(Peer& p, Connection& c, const std::string& reason)
{
    if (c.state == IDLE)
    {
        return;
    }
    NS_LOG_INFO("session with " << p.address << " closed: " << reason);
    bool wasEstablished = c.state == ESTABLISHED;
    c.state = IDLE;
    c.holdTimer.Cancel();
    c.keepaliveTimer.Cancel();
    c.socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    c.socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                MakeNullCallback<void, Ptr<Socket>>());
    c.socket->Close();
    p.counters.drops[reason]++;
    auto it =
        std::find_if(p.conns.begin(), p.conns.end(), [&c](const auto& x) { return x.get() == &c; });
    m_closed.push_back(std::move(*it));
    p.conns.erase(it);
    if (wasEstablished)
    {
        ForgetAll(p);
    }
    if (p.conns.empty() && !p.connecting)
    {
        // RFC 4271 8.2.2: back to Idle; an automatic start follows after ConnectRetryTime.
        p.base = IDLE;
        p.connectRetry.Cancel();
        if (m_running && !m_halted)
        {
            p.connectRetry = Simulator::Schedule(m_connectRetryTime,
                                                 &AdcBgpSpeaker::ConnectRetryExpired,
                                                 this,
                                                 &p);
        }
    }
    UpdateState(p);
}

void
AdcBgpSpeaker::UpdateState(Peer& p)
{
    State s = p.base;
    if (!p.conns.empty())
    {
        s = OPEN_SENT;
        for (const auto& c : p.conns)
        {
            s = std::max(s, c->state);
        }
    }
    if (s != p.reported)
    {
        State old = p.reported;
        p.reported = s;
        m_stateTrace(p.address, StateName(old), StateName(s));
    }
}

AdcBgpSpeaker::Connection*
AdcBgpSpeaker::EstablishedConnection(const Peer& p) const
{
    for (auto& c : p.conns)
    {
        if (c->state == ESTABLISHED)
        {
            return c.get();
        }
    }
    return nullptr;
}

void
AdcBgpSpeaker::Discard(const AdcIpAddress& from, const std::string& reason)
{
    m_drops[reason]++;
    m_dropTrace(from, reason);
}

void
AdcBgpSpeaker::CloseListeners()
{
    for (auto& l : m_listeners)
    {
        l->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                             MakeNullCallback<void, Ptr<Socket>, const Address&>());
        l->Close();
    }
    m_listeners.clear();
}

void
AdcBgpSpeaker::Halt()
{
    m_halted = true;
    CloseListeners();
    for (auto& p : m_peers)
    {
        p->connectRetry.Cancel();
        for (auto& c : p->conns)
        {
            c->holdTimer.Cancel();
            c->keepaliveTimer.Cancel();
        }
    }
}

void
AdcBgpSpeaker::StopApplication()
{
    if (!m_running)
    {
        return;
    }
    m_running = false;
    CloseListeners();
    for (auto& p : m_peers)
    {
        p->connectRetry.Cancel();
        if (p->connecting)
        {
            p->connecting->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                              MakeNullCallback<void, Ptr<Socket>>());
            p->connecting->Close();
            p->connecting = nullptr;
        }
        while (!p->conns.empty())
        {
            Connection& c = *p->conns.front();
            AdcBgpNotification n; // Cease, unspecific (RFC 4271 6.7)
            SendNotification(*p, c, n);
            CloseConnection(*p, c, "stopped");
        }
    }
}

} // namespace ns3
