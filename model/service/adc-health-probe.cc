/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the probe kinds health monitors send (PING, TCP, UDP, HTTP), each behind
 * AdcHealthProbe, so other subjects can build their own monitors or probes on them.
 */

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

NS_LOG_COMPONENT_DEFINE("AdcHealthProbe");

namespace
{

/// Typed null callbacks used to detach a socket from a probe that is finished.
const Callback<void, Ptr<Socket>> kNoSocketCb = MakeNullCallback<void, Ptr<Socket>>();

/// \return the reason string for an ICMPv4 error of \p type / \p code
std::string
Icmpv4Reason(uint8_t type, uint8_t code)
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

/// \return the reason string for an ICMPv6 error of \p type / \p code
std::string
Icmpv6Reason(uint8_t type, uint8_t code)
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

/// \return the socket address of \p address : \p port
Address
SocketAddressOf(const AdcIpAddress& address, uint16_t port)
{
    if (address.IsV6())
    {
        return Inet6SocketAddress(address.GetIpv6(), port);
    }
    return InetSocketAddress(address.GetIpv4(), port);
}

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
              Icmpv4Reason(Icmpv4Header::ICMPV4_DEST_UNREACH, code));
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

// ---------------------------------------------------------------------------------------------
// Kinds that open one socket per probe (TCP, HTTP, UDP)
// ---------------------------------------------------------------------------------------------

/**
 * Bookkeeping shared by the per-probe-socket kinds. Every socket callback is bound to the
 * target index and a serial number; a callback whose serial is no longer in flight (its probe
 * finished or was cancelled) is ignored, and finished sockets are detached before closing so
 * a lingering socket can never call back into a destroyed probe.
 */
class AdcSocketProbe : public AdcHealthProbe
{
  public:
    void Cancel(uint32_t index) override
    {
        Release(index);
    }

  protected:
    /// One probe in flight.
    struct Flight
    {
        Ptr<Socket> socket;    //!< its socket
        Target target;         //!< where it goes
        uint64_t serial{0};    //!< tells this probe from earlier ones to the same target
        uint16_t localPort{0}; //!< the socket's own port
        bool connected{false}; //!< TCP: the connection is established
    };

    /**
     * \brief Open and bind a socket for a probe to \p target.
     * \param index target index
     * \param target where the probe goes
     * \param factory socket factory type
     * \return the probe's serial number
     */
    uint64_t Open(uint32_t index, const Target& target, TypeId factory)
    {
        Release(index); // defensive: the monitor keeps one probe per target in flight
        Flight f;
        f.socket = Socket::CreateSocket(GetNode(), factory);
        f.target = target;
        f.serial = m_nextSerial++;
        if (target.address.IsV6())
        {
            f.socket->Bind6();
        }
        else
        {
            f.socket->Bind();
        }
        Address local;
        f.socket->GetSockName(local);
        f.localPort = target.address.IsV6() ? Inet6SocketAddress::ConvertFrom(local).GetPort()
                                            : InetSocketAddress::ConvertFrom(local).GetPort();
        m_flights[index] = f;
        return f.serial;
    }

    /// \return the probes in flight, by target index
    const std::map<uint32_t, Flight>& GetFlights() const
    {
        return m_flights;
    }

    /// \return the flight of \p index if \p serial is still in flight, else null
    Flight* Find(uint32_t index, uint64_t serial)
    {
        auto it = m_flights.find(index);
        return (it != m_flights.end() && it->second.serial == serial) ? &it->second : nullptr;
    }

    /// Close the probe's socket and report its outcome.
    void Finish(uint32_t index, bool success, const std::string& reason)
    {
        Release(index);
        Report(index, success, reason);
    }

    /// Detach and close the socket of \p index (if any); no report.
    void Release(uint32_t index)
    {
        auto it = m_flights.find(index);
        if (it == m_flights.end())
        {
            return;
        }
        Ptr<Socket> s = it->second.socket;
        m_flights.erase(it);
        OnRelease(index, s);
        s->SetRecvCallback(kNoSocketCb);
        s->SetConnectCallback(kNoSocketCb, kNoSocketCb);
        s->SetCloseCallbacks(kNoSocketCb, kNoSocketCb);
        s->Close();
    }

    /// Kind-specific teardown of a socket about to close.
    virtual void OnRelease(uint32_t /* index */, Ptr<Socket> /* socket */)
    {
    }

    void DoStop() override
    {
        while (!m_flights.empty())
        {
            Release(m_flights.begin()->first);
        }
    }

  private:
    std::map<uint32_t, Flight> m_flights; //!< probes in flight, by target index
    uint64_t m_nextSerial{1};             //!< next serial number
};

/// TCP: a connection attempt; subclasses (HTTP) continue on the established connection.
class AdcTcpProbe : public AdcSocketProbe
{
  public:
    void Send(uint32_t index, const Target& target) override
    {
        const uint64_t serial = Open(index, target, TcpSocketFactory::GetTypeId());
        Ptr<Socket> s = Find(index, serial)->socket;
        s->SetConnectCallback(MakeCallback(&AdcTcpProbe::Connected, this, index, serial),
                              MakeCallback(&AdcTcpProbe::Refused, this, index, serial));
        s->SetCloseCallbacks(MakeCallback(&AdcTcpProbe::Closed, this, index, serial),
                             MakeCallback(&AdcTcpProbe::Closed, this, index, serial));
        s->SetRecvCallback(MakeCallback(&AdcTcpProbe::Received, this, index, serial));
        if (s->Connect(SocketAddressOf(target.address, target.port)) < 0)
        {
            Finish(index, false, "connect-error");
        }
    }

  protected:
    void DoStart() override
    {
        // ns-3 3.37's TcpSocketBase ignores a RST+ACK in SYN_SENT (and, with timestamps on,
        // drops the option-less RST TcpL4Protocol sends for a closed port even earlier), so a
        // refusal would only show as a timeout. Like a real monitor watching its own socket,
        // the probe looks at the segments delivered to its node for a RST answering its SYN.
        if (Ptr<Ipv4L3Protocol> ipv4 = GetNode()->GetObject<Ipv4L3Protocol>())
        {
            ipv4->TraceConnectWithoutContext("LocalDeliver",
                                             MakeCallback(&AdcTcpProbe::DeliveredV4, this));
        }
        if (Ptr<Ipv6L3Protocol> ipv6 = GetNode()->GetObject<Ipv6L3Protocol>())
        {
            ipv6->TraceConnectWithoutContext("LocalDeliver",
                                             MakeCallback(&AdcTcpProbe::DeliveredV6, this));
        }
    }

    void DoStop() override
    {
        AdcSocketProbe::DoStop();
        if (Ptr<Ipv4L3Protocol> ipv4 = GetNode()->GetObject<Ipv4L3Protocol>())
        {
            ipv4->TraceDisconnectWithoutContext("LocalDeliver",
                                                MakeCallback(&AdcTcpProbe::DeliveredV4, this));
        }
        if (Ptr<Ipv6L3Protocol> ipv6 = GetNode()->GetObject<Ipv6L3Protocol>())
        {
            ipv6->TraceDisconnectWithoutContext("LocalDeliver",
                                                MakeCallback(&AdcTcpProbe::DeliveredV6, this));
        }
    }

    /// The connection is established; the TCP kind is done.
    virtual void OnConnected(uint32_t index, const Flight& /* flight */)
    {
        Finish(index, true, "connected");
    }

    /// Bytes arrived on the connection; the TCP kind ignores them.
    virtual void OnData(uint32_t /* index */, Ptr<Packet> /* data */)
    {
    }

    /// The peer closed an established connection before the probe finished.
    virtual void OnPeerClose(uint32_t index)
    {
        Finish(index, false, "connection-closed");
    }

  private:
    /// Connect callback (success).
    void Connected(uint32_t index, uint64_t serial, Ptr<Socket> /* socket */)
    {
        if (Flight* f = Find(index, serial))
        {
            f->connected = true;
            OnConnected(index, *f);
        }
    }

    /// Connect callback (failure: a RST answered the SYN, or SYN retries ran out).
    void Refused(uint32_t index, uint64_t serial, Ptr<Socket> /* socket */)
    {
        if (Find(index, serial))
        {
            Finish(index, false, "connection-refused");
        }
    }

    /// Close callbacks: before the connection is up this is a refusal too.
    void Closed(uint32_t index, uint64_t serial, Ptr<Socket> /* socket */)
    {
        if (Flight* f = Find(index, serial))
        {
            if (f->connected)
            {
                OnPeerClose(index);
            }
            else
            {
                Finish(index, false, "connection-refused");
            }
        }
    }

    /// IPv4 local delivery: look for a RST answering one of our SYNs.
    void DeliveredV4(const Ipv4Header& ip, Ptr<const Packet> p, uint32_t /* iif */)
    {
        if (ip.GetProtocol() == AdcFlowKey::PROTO_TCP)
        {
            CheckRst(AdcIpAddress(ip.GetSource()), p);
        }
    }

    /// IPv6 local delivery: look for a RST answering one of our SYNs.
    void DeliveredV6(const Ipv6Header& ip, Ptr<const Packet> p, uint32_t /* iif */)
    {
        if (ip.GetNextHeader() == AdcFlowKey::PROTO_TCP)
        {
            CheckRst(AdcIpAddress(ip.GetSource()), p);
        }
    }

    /// A TCP segment from \p from: a RST to a probe still connecting refuses it.
    void CheckRst(const AdcIpAddress& from, Ptr<const Packet> p)
    {
        // Ports and flags sit in the first 14 bytes; read them raw (no option parsing).
        uint8_t b[14];
        if (GetFlights().empty() || p->GetSize() < sizeof(b))
        {
            return;
        }
        p->CopyData(b, sizeof(b));
        const uint8_t kRst = 0x04;
        if (!(b[13] & kRst))
        {
            return;
        }
        const auto srcPort = static_cast<uint16_t>((b[0] << 8) | b[1]);
        const auto dstPort = static_cast<uint16_t>((b[2] << 8) | b[3]);
        for (const auto& [index, f] : GetFlights())
        {
            if (!f.connected && f.localPort == dstPort && f.target.port == srcPort &&
                f.target.address == from)
            {
                Finish(index, false, "connection-refused");
                return;
            }
        }
    }

    /// Receive callback.
    void Received(uint32_t index, uint64_t serial, Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            if (!Find(index, serial))
            {
                return; // finished by an earlier segment: drain no more
            }
            OnData(index, p);
        }
    }
};

/// HTTP: request on an established connection, then the response head's status code.
class AdcHttpProbe : public AdcTcpProbe
{
  public:
    /**
     * \param method request method
     * \param path request target
     * \param expectedStatus the status that means UP
     */
    AdcHttpProbe(const std::string& method, const std::string& path, uint16_t expectedStatus)
        : m_method(method),
          m_path(path),
          m_expectedStatus(expectedStatus)
    {
    }

  protected:
    void OnConnected(uint32_t index, const Flight& flight) override
    {
        AdcHttpMessage request = AdcHttpMessage::MakeRequest(m_method, m_path);
        request.SetHeader("Host", HostOf(flight.target));
        request.SetHeader("Connection", "close");
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(request);
        m_heads[index].clear();
        if (flight.socket->Send(p) < 0)
        {
            Finish(index, false, "send-error");
        }
    }

    void OnData(uint32_t index, Ptr<Packet> data) override
    {
        // Only the head matters: accumulate until it parses (the parser bounds its size).
        std::vector<uint8_t>& head = m_heads[index];
        const std::size_t old = head.size();
        head.resize(old + data->GetSize());
        data->CopyData(head.data() + old, data->GetSize());
        AdcHttpMessage response;
        std::string error;
        switch (response.Parse(head.data(), head.size(), nullptr, &error))
        {
        case AdcHttpMessage::ParseStatus::INCOMPLETE:
            return;
        case AdcHttpMessage::ParseStatus::ERROR:
            NS_LOG_LOGIC("HTTP probe parse error: " << error);
            Finish(index, false, "http-parse-error");
            return;
        case AdcHttpMessage::ParseStatus::COMPLETE:
            if (response.GetKind() != AdcHttpMessage::RESPONSE)
            {
                Finish(index, false, "http-parse-error");
                return;
            }
            Finish(index,
                   response.GetStatus() == m_expectedStatus,
                   "http-status-" + std::to_string(response.GetStatus()));
            return;
        }
    }

    void OnPeerClose(uint32_t index) override
    {
        Finish(index, false, "http-connection-closed");
    }

    void OnRelease(uint32_t index, Ptr<Socket> /* socket */) override
    {
        m_heads.erase(index);
    }

  private:
    /// \return the Host header value: the address, bracketed for IPv6, ":port" unless 80
    static std::string HostOf(const Target& target)
    {
        std::string host = target.address.IsV6() ? "[" + target.address.ToString() + "]"
                                                 : target.address.ToString();
        if (target.port != 80)
        {
            host += ":" + std::to_string(target.port);
        }
        return host;
    }

    std::string m_method;                             //!< request method
    std::string m_path;                               //!< request target
    uint16_t m_expectedStatus;                        //!< the status that means UP
    std::map<uint32_t, std::vector<uint8_t>> m_heads; //!< response bytes so far, by target
};

/// UDP: one datagram; a reply or silence is success, an ICMP error is failure.
class AdcUdpProbe : public AdcSocketProbe
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
        const uint64_t serial = Open(index, target, UdpSocketFactory::GetTypeId());
        Ptr<Socket> s = Find(index, serial)->socket;
        s->SetRecvCallback(MakeCallback(&AdcUdpProbe::Received, this, index, serial));
        if (target.address.IsV6())
        {
            s->SetAttribute("IcmpCallback6",
                            CallbackValue(MakeCallback(&AdcUdpProbe::Icmp6, this, index, serial)));
        }
        else
        {
            s->SetAttribute("IcmpCallback",
                            CallbackValue(MakeCallback(&AdcUdpProbe::Icmp4, this, index, serial)));
        }
        const auto* bytes = reinterpret_cast<const uint8_t*>(m_payload.data());
        Ptr<Packet> p = Create<Packet>(bytes, static_cast<uint32_t>(m_payload.size()));
        if (s->Connect(SocketAddressOf(target.address, target.port)) < 0 || s->Send(p) < 0)
        {
            Finish(index, false, "send-error");
        }
    }

    bool IsSilenceSuccess() const override
    {
        return !m_requireReply;
    }

  protected:
    void OnRelease(uint32_t /* index */, Ptr<Socket> socket) override
    {
        socket->SetAttribute(
            "IcmpCallback",
            CallbackValue(
                MakeNullCallback<void, Ipv4Address, uint8_t, uint8_t, uint8_t, uint32_t>()));
        socket->SetAttribute(
            "IcmpCallback6",
            CallbackValue(
                MakeNullCallback<void, Ipv6Address, uint8_t, uint8_t, uint8_t, uint32_t>()));
    }

  private:
    /// Any datagram back is a reply.
    void Received(uint32_t index, uint64_t serial, Ptr<Socket> socket)
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

    /// ICMPv4 error about our datagram.
    void Icmp4(uint32_t index,
               uint64_t serial,
               Ipv4Address /* from */,
               uint8_t /* ttl */,
               uint8_t type,
               uint8_t code,
               uint32_t /* info */)
    {
        if (Find(index, serial))
        {
            Finish(index, false, Icmpv4Reason(type, code));
        }
    }

    /// ICMPv6 error about our datagram.
    void Icmp6(uint32_t index,
               uint64_t serial,
               Ipv6Address /* from */,
               uint8_t /* ttl */,
               uint8_t type,
               uint8_t code,
               uint32_t /* info */)
    {
        if (Find(index, serial))
        {
            Finish(index, false, Icmpv6Reason(type, code));
        }
    }

    std::string m_payload; //!< datagram payload
    bool m_requireReply;   //!< silence is failure
};

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcHealthProbe
// ---------------------------------------------------------------------------------------------

AdcHealthProbe::AdcHealthProbe()
    : m_instanceId(0)
{
}

AdcHealthProbe::~AdcHealthProbe() = default;

void
AdcHealthProbe::Start(Ptr<Node> node, uint16_t instanceId, ResultCallback result, DropCallback drop)
{
    m_node = node;
    m_instanceId = instanceId;
    m_result = result;
    m_drop = drop;
    DoStart();
}

void
AdcHealthProbe::Stop()
{
    DoStop();
    m_result = ResultCallback();
    m_drop = DropCallback();
}

bool
AdcHealthProbe::IsSilenceSuccess() const
{
    return false;
}

void
AdcHealthProbe::DoStart()
{
}

void
AdcHealthProbe::Report(uint32_t index, bool success, const std::string& reason)
{
    if (!m_result.IsNull())
    {
        m_result(index, success, reason);
    }
}

void
AdcHealthProbe::Drop(Ptr<const Packet> packet, const std::string& reason)
{
    if (!m_drop.IsNull())
    {
        m_drop(packet, reason);
    }
}

Ptr<Node>
AdcHealthProbe::GetNode() const
{
    return m_node;
}

uint16_t
AdcHealthProbe::GetInstanceId() const
{
    return m_instanceId;
}

Ptr<AdcHealthProbe>
AdcMakePingProbe(uint32_t dataSize)
{
    return Create<AdcPingProbe>(dataSize);
}

Ptr<AdcHealthProbe>
AdcMakeTcpProbe()
{
    return Create<AdcTcpProbe>();
}

Ptr<AdcHealthProbe>
AdcMakeUdpProbe(const std::string& payload, bool requireReply)
{
    return Create<AdcUdpProbe>(payload, requireReply);
}

Ptr<AdcHealthProbe>
AdcMakeHttpProbe(const std::string& method, const std::string& path, uint16_t expectedStatus)
{
    return Create<AdcHttpProbe>(method, path, expectedStatus);
}

} // namespace ns3
