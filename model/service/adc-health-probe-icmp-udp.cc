/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the PING (ICMP and ICMPv6 echo) and UDP health-probe kinds, which share the
 * reading of ICMP errors.
 */

#include "adc-health-probe-socket.h"
#include "adc-health-probe.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-message.h"
#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/enum.h"
#include "ns3/icmpv4.h"
#include "ns3/icmpv6-header.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-raw-socket-factory.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-raw-socket-factory.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/// Typed null callback used to detach a socket from a probe that is finished.
const Callback<void, Ptr<Socket>> kNoSocketCb = MakeNullCallback<void, Ptr<Socket>>();

// ---------------------------------------------------------------------------------------------
// PING: ICMP / ICMPv6 echo over raw sockets
// ---------------------------------------------------------------------------------------------

/**
 * Echo requests carry the monitor's instance id as identifier and a per-monitor sequence
 * number; a reply counts only when identifier, sequence and source address all match a probe
 * in flight (raw sockets see every ICMP packet the node receives).
 */
class AdcPingProbe : public AdcHealthProbe
{
  public:
    /// \param dataSize echo data bytes after the 8-byte echo header
    explicit AdcPingProbe(uint32_t dataSize)
        : m_dataSize(dataSize)
    {
    }

    void Send(uint32_t index, const Target& target) override
    {
        const bool v6 = target.address.IsV6();
        Ptr<Socket> socket = SocketFor(v6);
        const uint16_t seq = m_nextSeq++;
        m_pending[seq] = Pending{index, target.address};
        const int sent = socket->SendTo(MakeEcho(v6, seq), 0, SocketAddressOf(target.address, 0));
        if (sent <= 0)
        {
            m_pending.erase(seq);
            Report(index, false, "no-route");
        }
    }

    void Cancel(uint32_t index) override
    {
        for (auto it = m_pending.begin(); it != m_pending.end();)
        {
            it = (it->second.index == index) ? m_pending.erase(it) : std::next(it);
        }
    }

  protected:
    void DoStop() override
    {
        for (Ptr<Socket>* s : {&m_socket4, &m_socket6})
        {
            if (*s)
            {
                (*s)->SetRecvCallback(kNoSocketCb);
                (*s)->Close();
                *s = nullptr;
            }
        }
        m_pending.clear();
    }

  private:
    /// A probe in flight.
    struct Pending
    {
        uint32_t index;       //!< target index
        AdcIpAddress address; //!< where the request went
    };

    /// \return the raw socket of the family, opened on first use
    Ptr<Socket> SocketFor(bool v6)
    {
        Ptr<Socket>& s = v6 ? m_socket6 : m_socket4;
        if (!s)
        {
            s = Socket::CreateSocket(GetNode(),
                                     v6 ? Ipv6RawSocketFactory::GetTypeId()
                                        : Ipv4RawSocketFactory::GetTypeId());
            s->SetAttribute("Protocol", UintegerValue(v6 ? 58 : 1));
            s->Bind(SocketAddressOf(v6 ? AdcIpAddress(Ipv6Address::GetAny())
                                       : AdcIpAddress(Ipv4Address::GetAny()),
                                    0));
            s->SetRecvCallback(
                MakeCallback(v6 ? &AdcPingProbe::ReceiveV6 : &AdcPingProbe::ReceiveV4, this));
        }
        return s;
    }

    /// \return an echo request with sequence \p seq
    Ptr<Packet> MakeEcho(bool v6, uint16_t seq) const
    {
        if (v6)
        {
            Ptr<Packet> p = Create<Packet>(m_dataSize);
            Icmpv6Echo echo(true); // the raw socket fills in the checksum
            echo.SetId(GetInstanceId());
            echo.SetSeq(seq);
            p->AddHeader(echo);
            return p;
        }
        Icmpv4Echo echo;
        echo.SetIdentifier(GetInstanceId());
        echo.SetSequenceNumber(seq);
        echo.SetData(Create<Packet>(m_dataSize));
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(echo);
        Icmpv4Header header;
        header.SetType(Icmpv4Header::ICMPV4_ECHO);
        header.SetCode(0);
        if (Node::ChecksumEnabled())
        {
            header.EnableChecksum();
        }
        p->AddHeader(header);
        return p;
    }

    /// Raw IPv4 socket: the packet starts with the IPv4 header.
    void ReceiveV4(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            HandleV4(p);
        }
    }

    /// Parse one ICMPv4 packet, checking every length before reading.
    void HandleV4(Ptr<Packet> p)
    {
        Ptr<Packet> copy = p->Copy();
        Ipv4Header ip;
        Icmpv4Header icmp;
        if (copy->GetSize() < ip.GetSerializedSize() || copy->RemoveHeader(ip) == 0 ||
            copy->GetSize() < icmp.GetSerializedSize())
        {
            Drop(p, "icmp-truncated");
            return;
        }
        copy->RemoveHeader(icmp);
        if (icmp.GetType() == Icmpv4Header::ICMPV4_ECHO_REPLY)
        {
            if (copy->GetSize() < 4)
            {
                Drop(p, "icmp-truncated");
                return;
            }
            Icmpv4Echo echo;
            copy->RemoveHeader(echo);
            Match(p,
                  echo.GetIdentifier(),
                  echo.GetSequenceNumber(),
                  AdcIpAddress(ip.GetSource()),
                  true,
                  "echo-reply");
        }
        else if (icmp.GetType() == Icmpv4Header::ICMPV4_DEST_UNREACH)
        {
            HandleV4Unreachable(p, copy, icmp.GetCode());
        }
    }

    /// An ICMPv4 destination-unreachable: fails the probe whose echo it quotes.
    void HandleV4Unreachable(Ptr<const Packet> p, Ptr<Packet> body, uint8_t code)
    {
        // 4 bytes unused/MTU, the quoted IPv4 header, the first 8 bytes of the quoted ICMP
        Ipv4Header quotedHeader;
        if (body->GetSize() < 4 + quotedHeader.GetSerializedSize() + 8)
        {
            Drop(p, "icmp-truncated");
            return;
        }
        Icmpv4DestinationUnreachable unreach;
        body->RemoveHeader(unreach);
        quotedHeader = unreach.GetHeader();
        uint8_t quoted[8];
        unreach.GetData(quoted);
        if (quotedHeader.GetProtocol() != 1 || quoted[0] != Icmpv4Header::ICMPV4_ECHO)
        {
            return; // an error about someone else's traffic
        }
        const auto id = static_cast<uint16_t>((quoted[4] << 8) | quoted[5]);
        const auto seq = static_cast<uint16_t>((quoted[6] << 8) | quoted[7]);
        Match(p,
              id,
              seq,
              AdcIpAddress(quotedHeader.GetDestination()),
              false,
              AdcIcmpv4ErrorReason(Icmpv4Header::ICMPV4_DEST_UNREACH, code));
    }

    /// Raw IPv6 socket: the packet starts with the IPv6 header.
    void ReceiveV6(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            HandleV6(p);
        }
    }

    /// Parse one ICMPv6 packet, checking every length before reading.
    void HandleV6(Ptr<Packet> p)
    {
        Ptr<Packet> copy = p->Copy();
        Ipv6Header ip;
        if (copy->GetSize() < ip.GetSerializedSize() + 1)
        {
            Drop(p, "icmp-truncated");
            return;
        }
        copy->RemoveHeader(ip);
        uint8_t type = 0;
        copy->CopyData(&type, 1);
        if (type != Icmpv6Header::ICMPV6_ECHO_REPLY)
        {
            return; // neighbour discovery and the like: not ours
        }
        Icmpv6Echo echo;
        if (copy->GetSize() < echo.GetSerializedSize())
        {
            Drop(p, "icmp-truncated");
            return;
        }
        copy->RemoveHeader(echo);
        Match(p, echo.GetId(), echo.GetSeq(), AdcIpAddress(ip.GetSource()), true, "echo-reply");
    }

    /// Report the probe (identifier, sequence, target) if it is in flight.
    void Match(Ptr<const Packet> p,
               uint16_t id,
               uint16_t seq,
               const AdcIpAddress& target,
               bool success,
               const std::string& reason)
    {
        if (id != GetInstanceId())
        {
            return; // another monitor's or application's echo
        }
        auto it = m_pending.find(seq);
        if (it == m_pending.end() || it->second.address != target)
        {
            Drop(p, "icmp-late-reply");
            return;
        }
        const uint32_t index = it->second.index;
        m_pending.erase(it);
        Report(index, success, reason);
    }

    uint32_t m_dataSize;                   //!< echo data bytes
    uint16_t m_nextSeq{0};                 //!< next echo sequence number
    Ptr<Socket> m_socket4;                 //!< raw ICMP socket
    Ptr<Socket> m_socket6;                 //!< raw ICMPv6 socket
    std::map<uint16_t, Pending> m_pending; //!< probes in flight, by sequence number
};

class AdcUdpProbe : public AdcUdpSocketProbe
{
  public:
    /**
     * \param payload datagram payload
     * \param requireReply whether silence is failure
     */
    AdcUdpProbe(const std::string& payload, bool requireReply)
        : m_payload(payload),
          m_requireReply(requireReply)
    {
    }

    void Send(uint32_t index, const Target& target) override
    {
        const auto* bytes = reinterpret_cast<const uint8_t*>(m_payload.data());
        SendDatagram(index, target, Create<Packet>(bytes, static_cast<uint32_t>(m_payload.size())));
    }

    bool IsSilenceSuccess() const override
    {
        return !m_requireReply;
    }

  protected:
    /// Any datagram back is a reply.
    void Received(uint32_t index, uint64_t serial, Ptr<Socket> socket) override
    {
        Address from;
        while (socket->RecvFrom(from))
        {
        }
        if (Find(index, serial))
        {
            Finish(index, true, "udp-reply");
        }
    }

  private:
    std::string m_payload; //!< datagram payload
    bool m_requireReply;   //!< silence is failure
};

} // namespace

void
AdcUdpSocketProbe::SendDatagram(uint32_t index, const Target& target, Ptr<Packet> payload)
{
    const uint64_t serial = Open(index, target, UdpSocketFactory::GetTypeId());
    Ptr<Socket> s = Find(index, serial)->socket;
    s->SetRecvCallback(MakeCallback(&AdcUdpSocketProbe::DoReceived, this, index, serial));
    if (target.address.IsV6())
    {
        s->SetAttribute(
            "IcmpCallback6",
            CallbackValue(MakeCallback(&AdcUdpSocketProbe::Icmp6, this, index, serial)));
    }
    else
    {
        s->SetAttribute(
            "IcmpCallback",
            CallbackValue(MakeCallback(&AdcUdpSocketProbe::Icmp4, this, index, serial)));
    }
    if (s->Connect(SocketAddressOf(target.address, target.port)) < 0 || s->Send(payload) < 0)
    {
        Finish(index, false, "send-error");
    }
}

void
AdcUdpSocketProbe::OnRelease(uint32_t /* index */, Ptr<Socket> socket)
{
    socket->SetAttribute(
        "IcmpCallback",
        CallbackValue(MakeNullCallback<void, Ipv4Address, uint8_t, uint8_t, uint8_t, uint32_t>()));
    socket->SetAttribute(
        "IcmpCallback6",
        CallbackValue(MakeNullCallback<void, Ipv6Address, uint8_t, uint8_t, uint8_t, uint32_t>()));
}

void
AdcUdpSocketProbe::DoReceived(uint32_t index, uint64_t serial, Ptr<Socket> socket)
{
    Received(index, serial, socket);
}

void
AdcUdpSocketProbe::Icmp4(uint32_t index,
                         uint64_t serial,
                         Ipv4Address /* from */,
                         uint8_t /* ttl */,
                         uint8_t type,
                         uint8_t code,
                         uint32_t /* info */)
{
    if (Find(index, serial))
    {
        Finish(index, false, AdcIcmpv4ErrorReason(type, code));
    }
}

void
AdcUdpSocketProbe::Icmp6(uint32_t index,
                         uint64_t serial,
                         Ipv6Address /* from */,
                         uint8_t /* ttl */,
                         uint8_t type,
                         uint8_t code,
                         uint32_t /* info */)
{
    if (Find(index, serial))
    {
        Finish(index, false, AdcIcmpv6ErrorReason(type, code));
    }
}

std::string
AdcIcmpv4ErrorReason(uint8_t type, uint8_t code)
{
    if (type == Icmpv4Header::ICMPV4_DEST_UNREACH)
    {
        switch (code)
        {
        case Icmpv4DestinationUnreachable::ICMPV4_NET_UNREACHABLE:
            return "icmp-net-unreachable";
        case Icmpv4DestinationUnreachable::ICMPV4_HOST_UNREACHABLE:
            return "icmp-host-unreachable";
        case Icmpv4DestinationUnreachable::ICMPV4_PORT_UNREACHABLE:
            return "icmp-port-unreachable";
        default:
            return "icmp-dest-unreachable";
        }
    }
    if (type == Icmpv4Header::ICMPV4_TIME_EXCEEDED)
    {
        return "icmp-time-exceeded";
    }
    return "icmp-error-" + std::to_string(type);
}

std::string
AdcIcmpv6ErrorReason(uint8_t type, uint8_t code)
{
    if (type == Icmpv6Header::ICMPV6_ERROR_DESTINATION_UNREACHABLE)
    {
        switch (code)
        {
        case Icmpv6Header::ICMPV6_PORT_UNREACHABLE:
            return "icmp-port-unreachable";
        case Icmpv6Header::ICMPV6_ADDR_UNREACHABLE:
            return "icmp-host-unreachable";
        case Icmpv6Header::ICMPV6_NO_ROUTE:
            return "icmp-net-unreachable";
        default:
            return "icmp-dest-unreachable";
        }
    }
    if (type == Icmpv6Header::ICMPV6_ERROR_TIME_EXCEEDED)
    {
        return "icmp-time-exceeded";
    }
    return "icmp-error-" + std::to_string(type);
}

Ptr<AdcHealthProbe>
AdcMakePingProbe(uint32_t dataSize)
{
    return Create<AdcPingProbe>(dataSize);
}

Ptr<AdcHealthProbe>
AdcMakeUdpProbe(const std::string& payload, bool requireReply)
{
    return Create<AdcUdpProbe>(payload, requireReply);
}

} // namespace ns3
