/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: socket pieces shared by the USIP connectors and relays.
 */

#include "adc-socket-util.h"

#include "ns3/adc-client-ip-header.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/log.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-socket.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcSocketUtil");

std::optional<uint16_t>
AdcBindFromRange(Ptr<Socket> s, Ipv4Address source, Ptr<AdcPortAllocator> ports, uint32_t attempts)
{
    std::vector<uint16_t> held;
    std::optional<uint16_t> port;
    for (uint32_t attempt = 0; attempt < attempts && !port; ++attempt)
    {
        port = ports->Allocate();
        if (!port)
        {
            break;
        }
        if (s->Bind(InetSocketAddress(source, *port)) == -1)
        {
            NS_LOG_LOGIC("port " << *port << " of " << source << " still held by the stack");
            held.push_back(*port);
            port.reset();
        }
    }
    // Released only now, so the loop does not get the same port back.
    for (uint16_t p : held)
    {
        ports->Release(p);
    }
    return port;
}

std::optional<AdcFlowKey>
AdcConnectFrom(Ptr<Socket> s, Ptr<AdcPolicyRouting> routing, Ipv4Address source, const Address& to)
{
    AdcFlowKey connection;
    if (routing)
    {
        Address local;
        s->GetSockName(local);
        const InetSocketAddress server = InetSocketAddress::ConvertFrom(to);
        connection = AdcFlowKey(source,
                                server.GetIpv4(),
                                InetSocketAddress::ConvertFrom(local).GetPort(),
                                server.GetPort(),
                                AdcFlowKey::PROTO_TCP);
        routing->AddOutputSource(connection);
    }
    if (s->Connect(to) == -1)
    {
        if (routing)
        {
            routing->RemoveOutputSource(connection);
        }
        return std::nullopt;
    }
    return connection;
}

Ptr<Socket>
AdcListenTcp(Ptr<Node> node, uint16_t port)
{
    Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    if (s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) == -1 || s->Listen() == -1)
    {
        return nullptr;
    }
    return s;
}

void
AdcStopListening(Ptr<Socket> s, bool close)
{
    s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                         MakeNullCallback<void, Ptr<Socket>, const Address&>());
    if (close)
    {
        s->Close();
    }
}

void
AdcDetachSocket(Ptr<Socket> s, bool close)
{
    s->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                          MakeNullCallback<void, Ptr<Socket>>());
    s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    s->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    s->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                         MakeNullCallback<void, Ptr<Socket>>());
    if (!close)
    {
        return;
    }
    while (Ptr<Packet> p = s->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
    }
    s->Close();
}

std::string
AdcEndpointText(Ipv4Address a, uint16_t port)
{
    return AdcClientIpHeader::Format(a) + ":" + std::to_string(port);
}

Ptr<Packet>
AdcTextPacket(const std::string& text)
{
    return Create<Packet>(reinterpret_cast<const uint8_t*>(text.data()),
                          static_cast<uint32_t>(text.size()));
}

void
AdcAnnounceWindow(Ptr<Socket> s)
{
    Ptr<TcpSocket> tcp = DynamicCast<TcpSocket>(s);
    if (!tcp)
    {
        return;
    }
    UintegerValue size;
    tcp->GetAttribute("RcvBufSize", size);
    if (size.Get() < 2)
    {
        return;
    }
    // TcpSocketBase::SetRcvBufSize sends an ACK (with the window) when the size grows.
    tcp->SetAttribute("RcvBufSize", UintegerValue(size.Get() - 1));
    tcp->SetAttribute("RcvBufSize", size);
}

void
AdcTxQueue::Push(Ptr<Packet> p)
{
    if (p->GetSize() > 0)
    {
        m_bytes += p->GetSize();
        m_packets.push_back(p);
    }
}

uint64_t
AdcTxQueue::Flush(Ptr<Socket> s, const SentCallback& onSent)
{
    uint64_t total = 0;
    while (!m_packets.empty())
    {
        Ptr<Packet> p = m_packets.front();
        const uint32_t room = s->GetTxAvailable();
        if (room == 0)
        {
            break; // the send callback resumes when the transmit buffer drains
        }
        const uint32_t n = std::min(room, p->GetSize());
        if (s->Send(n == p->GetSize() ? p : p->CreateFragment(0, n)) < 0)
        {
            break;
        }
        m_bytes -= n;
        if (n == p->GetSize())
        {
            m_packets.pop_front();
        }
        else
        {
            m_packets.front() = p->CreateFragment(n, p->GetSize() - n);
        }
        total += n;
        if (onSent)
        {
            onSent(n);
        }
    }
    return total;
}

bool
AdcTxQueue::IsEmpty() const
{
    return m_packets.empty();
}

uint64_t
AdcTxQueue::GetBytes() const
{
    return m_bytes;
}

std::size_t
AdcTxQueue::GetNPackets() const
{
    return m_packets.size();
}

Address
AdcSocketEndpoint(const Address& a, uint16_t defaultPort)
{
    if (InetSocketAddress::IsMatchingType(a) || Inet6SocketAddress::IsMatchingType(a))
    {
        return a;
    }
    if (Ipv4Address::IsMatchingType(a))
    {
        return InetSocketAddress(Ipv4Address::ConvertFrom(a), defaultPort);
    }
    if (Ipv6Address::IsMatchingType(a))
    {
        return Inet6SocketAddress(Ipv6Address::ConvertFrom(a), defaultPort);
    }
    return Address();
}

bool
AdcSameEndpoint(const Address& a, const Address& b)
{
    if (InetSocketAddress::IsMatchingType(a) && InetSocketAddress::IsMatchingType(b))
    {
        const auto x = InetSocketAddress::ConvertFrom(a);
        const auto y = InetSocketAddress::ConvertFrom(b);
        return x.GetIpv4() == y.GetIpv4() && x.GetPort() == y.GetPort();
    }
    if (Inet6SocketAddress::IsMatchingType(a) && Inet6SocketAddress::IsMatchingType(b))
    {
        const auto x = Inet6SocketAddress::ConvertFrom(a);
        const auto y = Inet6SocketAddress::ConvertFrom(b);
        return x.GetIpv6() == y.GetIpv6() && x.GetPort() == y.GetPort();
    }
    return false;
}

Ptr<Packet>
AdcBytesPacket(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

std::vector<uint8_t>
AdcPacketBytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

} // namespace ns3
