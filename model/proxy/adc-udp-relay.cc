/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the shared core's UDP relay (UDP virtual servers, LB and CS).
 */

#include "adc-udp-relay.h"

#include "adc-socket-util.h"

#include "ns3/adc-config-error.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcUdpRelay");

NS_OBJECT_ENSURE_REGISTERED(AdcUdpRelay);

TypeId
AdcUdpRelay::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcUdpRelay")
            .SetParent<AdcRelayBase>()
            .SetGroupName("Adc")
            .AddConstructor<AdcUdpRelay>()
            .AddAttribute("Port",
                          "UDP port of the virtual server (listened on for any address); "
                          "0 (the default) is unset: an AdcConfigError at start.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcUdpRelay::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Destination",
                          "The server of every session (InetSocketAddress) when no destination "
                          "chooser is set; unset by default (then a chooser is required).",
                          AddressValue(),
                          MakeAddressAccessor(&AdcUdpRelay::m_destination),
                          MakeAddressChecker())
            .AddAttribute("IdleTimeout",
                          "A session with no datagram either way for this long ends (\"idle\"); "
                          "NetScaler's default client idle timeout of UDP virtual servers, 120 "
                          "s. Must be positive.",
                          TimeValue(Seconds(120)),
                          MakeTimeAccessor(&AdcUdpRelay::m_idleTimeout),
                          MakeTimeChecker())
            .AddAttribute("MaxSessions",
                          "Sessions open at once; a datagram that would open one more is dropped "
                          "(\"session-limit\"). 0: unlimited.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcUdpRelay::m_maxSessions),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Session",
                            "A session opened: client, server.",
                            MakeTraceSourceAccessor(&AdcUdpRelay::m_sessionTrace),
                            "ns3::AdcUdpRelay::SessionTracedCallback")
            .AddTraceSource("Relayed",
                            "A datagram was handed to a socket: direction (true = to the "
                            "server), payload bytes.",
                            MakeTraceSourceAccessor(&AdcUdpRelay::m_relayedTrace),
                            "ns3::AdcUdpRelay::RelayedTracedCallback")
            .AddTraceSource("Dropped",
                            "A client's datagram was not relayed: client, reason.",
                            MakeTraceSourceAccessor(&AdcUdpRelay::m_droppedTrace),
                            "ns3::AdcUdpRelay::DroppedTracedCallback")
            .AddTraceSource("Closed",
                            "A session ended: client, server, datagrams each way, outcome.",
                            MakeTraceSourceAccessor(&AdcUdpRelay::m_closedTrace),
                            "ns3::AdcUdpRelay::ClosedTracedCallback");
    return tid;
}

AdcUdpRelay::AdcUdpRelay()
    : AdcRelayBase(0),
      m_idleTimeout(Seconds(120)),
      m_maxSessions(0),
      m_opened(0),
      m_idleEnded(0),
      m_stopped(0),
      m_dgToServer(0),
      m_dgToClient(0),
      m_dropped(0)
{
    NS_LOG_FUNCTION(this);
}

AdcUdpRelay::~AdcUdpRelay()
{
    NS_LOG_FUNCTION(this);
}

void
AdcUdpRelay::SetDestinationChooser(DestinationChooser chooser)
{
    m_chooser = std::move(chooser);
}

uint64_t
AdcUdpRelay::GetSessions() const
{
    return m_opened;
}

uint32_t
AdcUdpRelay::GetOpenSessions() const
{
    return static_cast<uint32_t>(m_sessions.size());
}

uint64_t
AdcUdpRelay::GetIdleSessions() const
{
    return m_idleEnded;
}

uint64_t
AdcUdpRelay::GetStoppedSessions() const
{
    return m_stopped;
}

uint64_t
AdcUdpRelay::GetDatagramsToServer() const
{
    return m_dgToServer;
}

uint64_t
AdcUdpRelay::GetDatagramsToClient() const
{
    return m_dgToClient;
}

uint64_t
AdcUdpRelay::GetDropped() const
{
    return m_dropped;
}

std::size_t
AdcUdpRelay::GetPerFlowStateBytes() const
{
    return m_sessions.size() *
           (sizeof(std::map<uint64_t, Session>::value_type) + kAdcMapNodeOverhead);
}

uint64_t
AdcUdpRelay::KeyOf(Ipv4Address ip, uint16_t port)
{
    return (static_cast<uint64_t>(ip.Get()) << 16) | port;
}

void
AdcUdpRelay::CheckConfig() const
{
    const std::string who = "AdcUdpRelay on node " + std::to_string(GetNode()->GetId());
    if (m_port == 0)
    {
        throw AdcConfigError(who + ": Port 0 is not a port to listen on; allowed: 1-65535");
    }
    if (!m_idleTimeout.IsStrictlyPositive())
    {
        std::ostringstream os;
        os << who << ": IdleTimeout " << m_idleTimeout.As(Time::S)
           << " is not positive; allowed: a time > 0 (NetScaler's default: 120 s)";
        throw AdcConfigError(os.str());
    }
    if (!m_destination.IsInvalid())
    {
        if (!InetSocketAddress::IsMatchingType(m_destination))
        {
            throw AdcConfigError(who + ": Destination is not an IPv4 address and port; allowed: "
                                       "an InetSocketAddress, or unset with a destination "
                                       "chooser");
        }
        const InetSocketAddress d = InetSocketAddress::ConvertFrom(m_destination);
        if (IsOwnAddress(d.GetIpv4()) || d.GetIpv4() == Ipv4Address::GetAny() || d.GetPort() == 0)
        {
            std::ostringstream os;
            os << who << ": Destination " << d.GetIpv4() << ":" << d.GetPort()
               << " is not a server's address and port; allowed: another node's address and a "
                  "port 1-65535";
            throw AdcConfigError(os.str());
        }
    }
    else if (!m_chooser)
    {
        throw AdcConfigError(who + ": Destination is unset and no destination chooser is set; "
                                   "allowed: an InetSocketAddress, or SetDestinationChooser");
    }
}

// ---- lifecycle -----------------------------------------------------------------------------

Ptr<Socket>
AdcUdpRelay::Listen()
{
    NS_LOG_FUNCTION(this);
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    if (s->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) == -1)
    {
        s->Close();
        throw AdcConfigError("AdcUdpRelay: Port " + std::to_string(m_port) +
                             " cannot be bound on node " + std::to_string(GetNode()->GetId()) +
                             " (already in use?); allowed: a free UDP port");
    }
    s->SetRecvCallback(MakeCallback(&AdcUdpRelay::HandleClientRead, this));
    return s;
}

void
AdcUdpRelay::CloseListener(Ptr<Socket> listen)
{
    AdcDetachSocket(listen, !m_disposing);
}

std::vector<uint64_t>
AdcUdpRelay::OpenKeys() const
{
    return KeysOf(m_sessions);
}

void
AdcUdpRelay::DoDispose()
{
    NS_LOG_FUNCTION(this);
    AdcRelayBase::DoDispose(); // ends every session
    m_chooser = nullptr;
}

// ---- datagrams -----------------------------------------------------------------------------

void
AdcUdpRelay::HandleClientRead(Ptr<Socket> s)
{
    Address from;
    while (Ptr<Packet> p = s->RecvFrom(from))
    {
        if (!InetSocketAddress::IsMatchingType(from))
        {
            continue; // IPv4 only, like the virtual servers
        }
        FromClient(InetSocketAddress::ConvertFrom(from), p);
        if (!m_listen)
        {
            return; // an observer stopped the application
        }
    }
}

void
AdcUdpRelay::FromClient(const InetSocketAddress& client, Ptr<Packet> p)
{
    const uint64_t key = KeyOf(client.GetIpv4(), client.GetPort());
    auto it = m_sessions.find(key);
    if (it == m_sessions.end())
    {
        if (m_maxSessions != 0 && m_sessions.size() >= m_maxSessions)
        {
            Drop(client, "session-limit");
            return;
        }
        InetSocketAddress server(Ipv4Address::GetAny(), 0);
        if (m_chooser)
        {
            // The id this session gets; a refused datagram leaves it for the next one.
            const Choice c = m_chooser(m_nextId, client, p);
            if (c.action == Choice::REFUSE)
            {
                Drop(client, "refused");
                return;
            }
            server = InetSocketAddress(c.destination, c.port);
        }
        else
        {
            server = InetSocketAddress::ConvertFrom(m_destination);
        }
        if (server.GetIpv4() == Ipv4Address::GetAny() || server.GetPort() == 0)
        {
            Drop(client, "no-destination");
            return;
        }
        if (!Open(key, client, server))
        {
            Drop(client, "send-failed");
            return;
        }
        it = m_sessions.find(key);
    }
    Session& session = it->second;
    session.lastActivity = Simulator::Now();
    const uint32_t size = p->GetSize();
    p->RemoveAllPacketTags(); // a new datagram: the receive side's tags stay behind
    if (session.socket->Send(p) < 0)
    {
        Drop(client, "send-failed");
        return;
    }
    ++session.toServer;
    ++m_dgToServer;
    m_bytesToServer += size;
    m_relayedTrace(true, size);
}

bool
AdcUdpRelay::Open(uint64_t key, const InetSocketAddress& client, const InetSocketAddress& server)
{
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    if (s->Bind() == -1 || s->Connect(server) == -1)
    {
        s->Close();
        return false;
    }
    s->SetRecvCallback(Callback<void, Ptr<Socket>>(
        [this, key](Ptr<Socket> sock) { HandleServerRead(key, sock); }));
    Session& session = m_sessions[key];
    session.id = m_nextId++;
    session.socket = s;
    session.client = client;
    session.server = server;
    session.lastActivity = Simulator::Now();
    session.idle = Simulator::Schedule(m_idleTimeout, &AdcUdpRelay::IdleCheck, this, key);
    ++m_opened;
    NS_LOG_INFO("session " << session.id << " " << client.GetIpv4() << ":" << client.GetPort()
                           << " -> " << server.GetIpv4() << ":" << server.GetPort());
    m_sessionTrace(session.client, session.server);
    return true;
}

void
AdcUdpRelay::HandleServerRead(uint64_t key, Ptr<Socket> s)
{
    auto it = m_sessions.find(key);
    if (it == m_sessions.end() || it->second.socket != s)
    {
        return; // a socket of an ended session (its callbacks are detached, so not expected)
    }
    Session& session = it->second;
    while (Ptr<Packet> p = s->Recv())
    {
        if (!m_listen)
        {
            break; // stopped: nothing leaves
        }
        session.lastActivity = Simulator::Now();
        const uint32_t size = p->GetSize();
        p->RemoveAllPacketTags();
        // From the listening socket: the client sees the address and port it sent to.
        if (m_listen->SendTo(p, 0, session.client) < 0)
        {
            continue; // no route back to the client: nothing a client datagram could be blamed for
        }
        ++session.toClient;
        ++m_dgToClient;
        m_bytesToClient += size;
        m_relayedTrace(false, size);
    }
}

void
AdcUdpRelay::IdleCheck(uint64_t key)
{
    auto it = m_sessions.find(key);
    if (it == m_sessions.end())
    {
        return;
    }
    Session& session = it->second;
    const Time due = session.lastActivity + m_idleTimeout;
    if (Simulator::Now() < due)
    {
        // Datagrams came since the check was scheduled: check again when the rest has passed.
        session.idle =
            Simulator::Schedule(due - Simulator::Now(), &AdcUdpRelay::IdleCheck, this, key);
        return;
    }
    End(key, "idle");
}

void
AdcUdpRelay::Drop(const Address& client, const std::string& reason)
{
    ++m_dropped;
    NS_LOG_INFO("drop from " << InetSocketAddress::ConvertFrom(client).GetIpv4() << ": " << reason);
    m_droppedTrace(client, reason);
}

void
AdcUdpRelay::End(uint64_t key, const std::string& outcome)
{
    auto it = m_sessions.find(key);
    if (it == m_sessions.end())
    {
        return;
    }
    Session session = it->second;
    m_sessions.erase(it);
    session.idle.Cancel();
    (outcome == "idle" ? m_idleEnded : m_stopped) += 1;
    AdcDetachSocket(session.socket, !m_disposing);
    NS_LOG_INFO("session " << session.id << " ends " << outcome << " (" << session.toServer
                           << " datagrams to the server, " << session.toClient
                           << " to the client)");
    ReportEnd(session.id,
              session.client,
              session.server,
              session.toServer,
              session.toClient,
              outcome);
}

} // namespace ns3
