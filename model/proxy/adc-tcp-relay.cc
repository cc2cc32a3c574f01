/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: a bare transparent TCP relay (the lower-tier appliance's baseline).
 */

#include "adc-tcp-relay.h"

#include "ns3/adc-config-error.h"
#include "ns3/address.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcTcpRelay");

NS_OBJECT_ENSURE_REGISTERED(AdcTcpRelay);

TypeId
AdcTcpRelay::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcTcpRelay")
            .SetParent<AdcRelayBase>()
            .SetGroupName("Adc")
            .AddConstructor<AdcTcpRelay>()
            .AddAttribute("Port",
                          "TCP port intercepted (listened on for any address).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&AdcTcpRelay::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Destination",
                          "Relay every connection to this fixed address and port "
                          "(InetSocketAddress), also one addressed to this node; unset (the "
                          "default): to the connection's original destination.",
                          AddressValue(),
                          MakeAddressAccessor(&AdcTcpRelay::m_destination),
                          MakeAddressChecker())
            .AddAttribute("UseClientSource",
                          "Connect to the original destination from the client's IP (USIP) and "
                          "a port of PortRange, so replies return by the port-range policy "
                          "routes; false: from this node's address and an ephemeral port.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcTcpRelay::m_useClientSource),
                          MakeBooleanChecker())
            .AddAttribute(
                "PortRange",
                "Source-port range FIRST-LAST of the USIP connections; malformed text "
                "is an AdcConfigError.",
                StringValue("1024-65535"),
                MakeStringAccessor(&AdcTcpRelay::SetPortRange, &AdcTcpRelay::GetPortRange),
                MakeStringChecker())
            .AddAttribute("RelayWindow",
                          "Bytes queued per direction, waiting for the other socket's transmit "
                          "buffer, before the relay stops reading that direction.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&AdcTcpRelay::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("Accept",
                            "A connection was intercepted: client, original destination.",
                            MakeTraceSourceAccessor(&AdcTcpRelay::m_acceptTrace),
                            "ns3::AdcTcpRelay::AcceptTracedCallback")
            .AddTraceSource("Relayed",
                            "Bytes were handed to one side's transmit buffer: direction "
                            "(true = to the server), byte count.",
                            MakeTraceSourceAccessor(&AdcTcpRelay::m_relayedTrace),
                            "ns3::AdcTcpRelay::RelayedTracedCallback")
            .AddTraceSource("Closed",
                            "A relay ended: client, destination, bytes each way, outcome.",
                            MakeTraceSourceAccessor(&AdcTcpRelay::m_closedTrace),
                            "ns3::AdcTcpRelay::ClosedTracedCallback");
    return tid;
}

AdcTcpRelay::AdcTcpRelay()
    : AdcRelayBase(80),
      m_useClientSource(true),
      m_window(65536),
      m_accepted(0),
      m_completed(0),
      m_failed(0)
{
    NS_LOG_FUNCTION(this);
    m_source = CreateObject<AdcSourceAddressPolicy>();
    m_source->SetAttribute("Mode", EnumValue(AdcSourceAddressPolicy::CLIENT_IP));
}

AdcTcpRelay::~AdcTcpRelay()
{
    NS_LOG_FUNCTION(this);
}

// ---- configuration and counters ------------------------------------------------------------

void
AdcTcpRelay::SetPortRange(std::string text)
{
    m_source->SetAttribute("PortRange", StringValue(text));
}

std::string
AdcTcpRelay::GetPortRange() const
{
    return m_source->GetPortAllocator()->GetRange().ToString();
}

void
AdcTcpRelay::SetRouting(Ptr<AdcPolicyRouting> routing)
{
    m_source->SetRouting(routing);
}

Ptr<AdcPolicyRouting>
AdcTcpRelay::GetRouting() const
{
    return m_source->GetRouting();
}

Ptr<AdcPortAllocator>
AdcTcpRelay::GetPortAllocator() const
{
    return m_source->GetPortAllocator();
}

Ptr<AdcSourceAddressPolicy>
AdcTcpRelay::GetSourcePolicy() const
{
    return m_source;
}

uint64_t
AdcTcpRelay::GetAccepted() const
{
    return m_accepted;
}

uint64_t
AdcTcpRelay::GetCompleted() const
{
    return m_completed;
}

uint64_t
AdcTcpRelay::GetFailed() const
{
    return m_failed;
}

uint32_t
AdcTcpRelay::GetOpenRelays() const
{
    return static_cast<uint32_t>(m_relays.size());
}

uint32_t
AdcTcpRelay::GetOpenSockets() const
{
    return static_cast<uint32_t>(m_idOf.size());
}

std::size_t
AdcTcpRelay::GetPerFlowStateBytes() const
{
    // Queued packets are counted by their payload: the relay holds those bytes.
    std::size_t total =
        m_idOf.size() * (sizeof(std::pair<Ptr<Socket>, uint64_t>) + kAdcMapNodeOverhead);
    for (const auto& kv : m_relays)
    {
        total += sizeof(kv) + kAdcMapNodeOverhead;
        for (const Side* side : {&kv.second.client, &kv.second.server})
        {
            total += side->pending.GetNPackets() * sizeof(Ptr<Packet>) + side->pending.GetBytes();
        }
    }
    return total;
}

void
AdcTcpRelay::CheckConfig() const
{
    if (!m_destination.IsInvalid())
    {
        if (!InetSocketAddress::IsMatchingType(m_destination))
        {
            throw AdcConfigError("AdcTcpRelay on node " + std::to_string(GetNode()->GetId()) +
                                 ": Destination is not an IPv4 address and port; allowed: an "
                                 "InetSocketAddress, or unset for the original destination");
        }
        const InetSocketAddress d = InetSocketAddress::ConvertFrom(m_destination);
        if (IsOwnAddress(d.GetIpv4()))
        {
            std::ostringstream os;
            os << "AdcTcpRelay on node " << GetNode()->GetId() << ": Destination " << d.GetIpv4()
               << ":" << d.GetPort()
               << " is an address of this node (the relay would loop); allowed: another node's "
                  "address";
            throw AdcConfigError(os.str());
        }
    }
    if (m_useClientSource && !m_source->GetRouting())
    {
        throw AdcConfigError("AdcTcpRelay on node " + std::to_string(GetNode()->GetId()) +
                             ": UseClientSource is true but routing is not set; call SetRouting "
                             "with the node's AdcPolicyRouting, or set UseClientSource false");
    }
}

uint64_t
AdcTcpRelay::RelayOf(Ptr<Socket> s) const
{
    auto it = m_idOf.find(s);
    return it == m_idOf.end() ? 0 : it->second;
}

// ---- lifecycle -----------------------------------------------------------------------------

Ptr<Socket>
AdcTcpRelay::Listen()
{
    NS_LOG_FUNCTION(this);
    Ptr<Socket> s = AdcListenTcp(GetNode(), m_port);
    if (!s)
    {
        throw AdcConfigError("AdcTcpRelay: Port " + std::to_string(m_port) +
                             " cannot be bound on node " + std::to_string(GetNode()->GetId()) +
                             " (already in use?)");
    }
    s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                         MakeCallback(&AdcTcpRelay::HandleAccept, this));
    return s;
}

void
AdcTcpRelay::CloseListener(Ptr<Socket> listen)
{
    AdcStopListening(listen, !m_disposing);
}

std::vector<uint64_t>
AdcTcpRelay::OpenKeys() const
{
    return KeysOf(m_relays);
}

void
AdcTcpRelay::DoDispose()
{
    NS_LOG_FUNCTION(this);
    AdcRelayBase::DoDispose(); // ends every relay, which may still release leases to m_source
    m_source = nullptr;
}

// ---- accepting and connecting --------------------------------------------------------------

void
AdcTcpRelay::Watch(Ptr<Socket> s)
{
    s->SetRecvCallback(MakeCallback(&AdcTcpRelay::HandleRead, this));
    s->SetSendCallback(MakeCallback(&AdcTcpRelay::HandleSend, this));
    s->SetCloseCallbacks(MakeCallback(&AdcTcpRelay::HandlePeerClose, this),
                         MakeCallback(&AdcTcpRelay::HandleError, this));
}

void
AdcTcpRelay::HandleAccept(Ptr<Socket> s, const Address& from)
{
    NS_LOG_FUNCTION(this << s << from);
    Address local;
    s->GetSockName(local);
    if (!InetSocketAddress::IsMatchingType(from) || !InetSocketAddress::IsMatchingType(local))
    {
        Detach(s, true); // IPv4 only, like the policy routes that intercept
        return;
    }
    ++m_accepted;
    const uint64_t id = m_nextId++;
    Relay& r = m_relays[id];
    r.client.socket = s;
    r.client.connected = true;
    r.clientAddr = from;
    r.destAddr = local;
    r.clientIp = InetSocketAddress::ConvertFrom(from).GetIpv4();
    r.destIp = InetSocketAddress::ConvertFrom(local).GetIpv4();
    r.destPort = InetSocketAddress::ConvertFrom(local).GetPort();
    r.local = IsOwnAddress(r.destIp);
    if (!m_destination.IsInvalid())
    {
        // A fixed destination (checked at start): every connection goes there.
        r.destAddr = m_destination;
        r.destIp = InetSocketAddress::ConvertFrom(m_destination).GetIpv4();
        r.destPort = InetSocketAddress::ConvertFrom(m_destination).GetPort();
        r.local = false;
    }
    m_idOf[s] = id;
    Watch(s);
    if (m_codecFactory)
    {
        r.codec = m_codecFactory(id, InetSocketAddress::ConvertFrom(from));
    }
    m_acceptTrace(from, local);
    NS_LOG_INFO("relay " << id << " " << r.clientIp << " -> " << r.destIp << ":" << r.destPort
                         << (r.local ? " (local)" : ""));
    if (m_chooser)
    {
        // The chooser decides where every connection goes, those addressed to this node (a
        // VIP of its own) included.
        r.local = false;
        r.choosing = true; // the server side opens once the chooser has seen enough
        r.early = Create<Packet>();
        Pump(id); // the chooser may decide before any byte (e.g. by the client's address)
    }
    else if (!r.local)
    {
        OpenServerSide(id);
    }
}

void
AdcTcpRelay::SetDestinationChooser(DestinationChooser chooser)
{
    m_chooser = std::move(chooser);
}

void
AdcTcpRelay::SetByteObserver(ByteObserver observer)
{
    m_byteObserver = std::move(observer);
}

void
AdcTcpRelay::SetClientCodec(CodecFactory factory)
{
    m_codecFactory = std::move(factory);
}

Ptr<Packet>
AdcTcpRelay::Decode(Relay& r, Ptr<Packet> p, bool toServer)
{
    if (!r.codec)
    {
        return p;
    }
    if (!toServer)
    {
        return r.codec->FromServer(p);
    }
    Ptr<Packet> back;
    Ptr<Packet> out = r.codec->FromClient(p, back);
    if (back && back->GetSize() > 0)
    {
        r.client.pending.Push(back);
    }
    return out && out->GetSize() > 0 ? out : nullptr;
}

bool
AdcTcpRelay::CodecFailed(uint64_t id)
{
    const auto it = m_relays.find(id);
    return it != m_relays.end() && it->second.codec && !it->second.codec->GetFailure().empty();
}

void
AdcTcpRelay::Choose(uint64_t id)
{
    Relay& r = m_relays.at(id);
    // Read as Read does (bounded by RelayWindow), keeping a copy of the bytes for the chooser.
    while (r.server.pending.GetBytes() < m_window)
    {
        Ptr<Packet> p = r.client.socket->Recv();
        if (!p || p->GetSize() == 0)
        {
            break;
        }
        if (m_byteObserver)
        {
            m_byteObserver(id, true, p);
        }
        p = Decode(r, p, true);
        if (p)
        {
            r.early->AddAtEnd(p);
            r.server.pending.Push(p);
        }
    }
    if (r.codec)
    {
        Flush(r.client, false); // e.g. the TLS handshake, before any server is chosen
        if (CodecFailed(id))
        {
            End(id, "codec-failed");
            return;
        }
    }
    const Choice c = m_chooser(id, InetSocketAddress::ConvertFrom(r.clientAddr), r.early);
    if (c.action == Choice::REFUSE || (c.action == Choice::WAIT && r.client.peerClosed))
    {
        End(id, "refused");
        return;
    }
    if (c.action == Choice::WAIT)
    {
        return;
    }
    r.choosing = false;
    r.early = nullptr;
    r.destIp = c.destination;
    r.destPort = c.port;
    r.destAddr = InetSocketAddress(c.destination, c.port);
    OpenServerSide(id);
}

void
AdcTcpRelay::OpenServerSide(uint64_t id)
{
    Relay& r = m_relays.at(id);
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    r.server.socket = s;
    m_idOf[s] = id;
    if (m_useClientSource)
    {
        bool exhausted = false;
        r.lease = m_source->Bind(s, r.clientIp, &exhausted);
        if (!r.lease)
        {
            End(id, exhausted ? "port-exhausted" : "connect-failed");
            return;
        }
    }
    else if (s->Bind() == -1)
    {
        End(id, "connect-failed");
        return;
    }
    s->SetConnectCallback(MakeCallback(&AdcTcpRelay::HandleConnected, this),
                          MakeCallback(&AdcTcpRelay::HandleConnectFailed, this));
    Watch(s);
    // Without USIP nothing is registered: the connection uses the node's own address.
    const InetSocketAddress to(r.destIp, r.destPort);
    if (r.lease ? !m_source->Connect(*r.lease, s, to) : !AdcConnectFrom(s, nullptr, r.clientIp, to))
    {
        End(id, "connect-failed");
    }
}

void
AdcTcpRelay::HandleConnected(Ptr<Socket> s)
{
    const uint64_t id = RelayOf(s);
    if (id != 0)
    {
        m_relays.at(id).server.connected = true;
        Pump(id);
    }
}

void
AdcTcpRelay::HandleConnectFailed(Ptr<Socket> s)
{
    const uint64_t id = RelayOf(s);
    if (id != 0)
    {
        End(id, "connect-failed");
    }
}

// ---- data ----------------------------------------------------------------------------------

void
AdcTcpRelay::HandleRead(Ptr<Socket> s)
{
    Pump(RelayOf(s));
}

void
AdcTcpRelay::HandleSend(Ptr<Socket> s, uint32_t /* available */)
{
    Pump(RelayOf(s));
}

void
AdcTcpRelay::HandlePeerClose(Ptr<Socket> s)
{
    const uint64_t id = RelayOf(s);
    auto it = m_relays.find(id);
    if (it == m_relays.end())
    {
        return;
    }
    Relay& r = it->second;
    (s == r.client.socket ? r.client : r.server).peerClosed = true;
    Pump(id);
}

void
AdcTcpRelay::HandleError(Ptr<Socket> s)
{
    const uint64_t id = RelayOf(s);
    auto it = m_relays.find(id);
    if (it == m_relays.end())
    {
        return;
    }
    const Relay& r = it->second;
    if (r.local)
    {
        End(id, "local");
        return;
    }
    if (s == r.server.socket && !r.server.connected)
    {
        End(id, "connect-failed"); // a reset answered the SYN
        return;
    }
    End(id, s == r.client.socket ? "reset-by-client" : "reset-by-server");
}

void
AdcTcpRelay::Pump(uint64_t id)
{
    auto it = m_relays.find(id);
    if (it == m_relays.end())
    {
        return;
    }
    Relay& r = it->second;
    if (r.local)
    {
        Discard(id);
        return;
    }
    if (r.choosing)
    {
        Choose(id);
        if (m_relays.count(id) == 0 || m_relays.at(id).choosing)
        {
            return; // refused, or still waiting for bytes
        }
        return; // the server side is connecting: HandleConnected pumps
    }
    if (r.inPump)
    {
        r.pumpAgain = true; // the running loop goes round once more
        return;
    }
    r.inPump = true;
    do
    {
        r.pumpAgain = false;
        r.pumpAgain |= Move(id, r.client, r.server, true);
        r.pumpAgain |= Move(id, r.server, r.client, false);
    } while (r.pumpAgain);
    r.inPump = false;
    if (CodecFailed(id))
    {
        End(id, "codec-failed"); // its alert was handed to the client's socket
        return;
    }
    if (r.client.shutdown && r.server.shutdown)
    {
        End(id, "complete"); // both peers closed and everything was handed on
    }
}

void
AdcTcpRelay::Read(uint64_t id, Side& from, AdcTxQueue& into, bool all, bool toServer)
{
    while (all || into.GetBytes() < m_window)
    {
        Ptr<Packet> p = from.socket->Recv();
        if (!p || p->GetSize() == 0)
        {
            return;
        }
        if (m_byteObserver)
        {
            m_byteObserver(id, toServer, p);
        }
        if (Ptr<Packet> out = Decode(m_relays.at(id), p, toServer))
        {
            into.Push(out);
        }
    }
}

bool
AdcTcpRelay::Move(uint64_t id, Side& from, Side& to, bool toServer)
{
    // Once the relay closed "from", nothing limits its peer but TCP's own window: read it all.
    Read(id, from, to.pending, from.shutdown, toServer);
    Flush(to, toServer);
    // A close before the handshake completed would reset the connection: wait for it.
    if (to.shutdown || !to.connected || !from.peerClosed || !to.pending.IsEmpty() ||
        from.socket->GetRxAvailable() > 0)
    {
        return false;
    }
    Relay& r = m_relays.at(id);
    if (!toServer && r.codec && !r.codecClosed)
    {
        // The codec's last words (a TLS close_notify) go before the FIN.
        r.codecClosed = true;
        if (Ptr<Packet> last = r.codec->Closing())
        {
            to.pending.Push(last);
            Flush(to, toServer);
            if (!to.pending.IsEmpty())
            {
                return false; // HandleSend pumps again
            }
        }
    }
    // Half-close "to" with Close(), which sends the FIN even while the last bytes are still
    // unacknowledged (ns-3.37's ShutdownSend then waits for an empty buffer and never sends
    // it). Close() resets a connection with unread bytes, so read them first.
    const uint64_t before = from.pending.GetBytes();
    Read(id, to, from.pending, true, !toServer);
    to.shutdown = true;
    to.socket->Close();
    return from.pending.GetBytes() > before;
}

void
AdcTcpRelay::Flush(Side& side, bool toServer)
{
    side.pending.Flush(side.socket, [this, &side, toServer](uint32_t n) {
        side.sent += n;
        (toServer ? m_bytesToServer : m_bytesToClient) += n;
        m_relayedTrace(toServer, n);
    });
}

void
AdcTcpRelay::Discard(uint64_t id)
{
    Relay& r = m_relays.at(id);
    while (Ptr<Packet> p = r.client.socket->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
    }
    if (r.client.peerClosed)
    {
        End(id, "local");
    }
}

void
AdcTcpRelay::End(uint64_t id, const std::string& outcome)
{
    auto it = m_relays.find(id);
    if (it == m_relays.end())
    {
        return;
    }
    Relay& r = it->second;
    if (outcome == "complete")
    {
        ++m_completed;
    }
    else if (outcome != "local" && outcome != "stopped")
    {
        ++m_failed;
    }
    NS_LOG_INFO("relay " << id << " ends " << outcome << " (" << r.client.sent << " bytes to the "
                         << "client, " << r.server.sent << " to the server)");
    ReportEnd(id, r.clientAddr, r.destAddr, r.server.sent, r.client.sent, outcome);
    if (r.lease && m_source)
    {
        m_source->Release(*r.lease, m_disposing);
    }
    // A side the relay already closed (both, when complete) is finished by TCP on its own; a
    // second Close() could even reset it (in CLOSING).
    for (Side* side : {&r.client, &r.server})
    {
        if (side->socket)
        {
            m_idOf.erase(side->socket);
            Detach(side->socket, !side->shutdown);
        }
    }
    m_relays.erase(it);
}

void
AdcTcpRelay::Detach(Ptr<Socket> s, bool close)
{
    AdcDetachSocket(s, close && !m_disposing);
}

} // namespace ns3
