/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: health monitors (PING, TCP, UDP, HTTP probes) that decide whether a back-end is UP.
 */

#include "adc-health-monitor.h"

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

NS_LOG_COMPONENT_DEFINE("AdcHealthMonitor");

NS_OBJECT_ENSURE_REGISTERED(AdcHealthMonitor);

namespace
{

/// Typed null callbacks used to detach a socket from a probe that is finished.
const Callback<void, Ptr<Socket>> kNoSocketCb = MakeNullCallback<void, Ptr<Socket>>();

/// \return "METHOD" and "path" of "METHOD path"; both empty when malformed
std::pair<std::string, std::string>
SplitRequestLine(const std::string& line)
{
    const std::size_t sp = line.find(' ');
    if (sp == std::string::npos || sp == 0 || sp + 1 >= line.size() ||
        line.find(' ', sp + 1) != std::string::npos)
    {
        return {};
    }
    std::string method = line.substr(0, sp);
    std::string path = line.substr(sp + 1);
    for (char c : method)
    {
        if (c < 'A' || c > 'Z')
        {
            return {};
        }
    }
    if (path[0] != '/' && path != "*")
    {
        return {};
    }
    return {method, path};
}

/// \return the time in seconds with its unit, e.g. "0.5s"
std::string
FormatTime(Time t)
{
    std::ostringstream os;
    os << t.GetSeconds() << "s";
    return os.str();
}

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

// ---------------------------------------------------------------------------------------------
// AdcHealthMonitor
// ---------------------------------------------------------------------------------------------

TypeId
AdcHealthMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcHealthMonitor")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcHealthMonitor>()
            .AddAttribute("Type",
                          "Probe kind: PING (ICMP echo), TCP (connect), UDP (datagram), HTTP "
                          "(request, status checked).",
                          EnumValue(PING),
                          MakeEnumAccessor(&AdcHealthMonitor::m_type),
                          MakeEnumChecker(PING, "PING", TCP, "TCP", UDP, "UDP", HTTP, "HTTP"))
            .AddAttribute("Name",
                          "The monitor's name, shown in messages.",
                          StringValue("ping-default"),
                          MakeStringAccessor(&AdcHealthMonitor::m_name),
                          MakeStringChecker())
            .AddAttribute("Interval",
                          "Time between the starts of two probes to a target that is not DOWN "
                          "(NetScaler's default monitor interval is 5 s).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&AdcHealthMonitor::m_interval),
                          MakeTimeChecker())
            .AddAttribute("ResponseTimeout",
                          "A probe without an outcome after this long fails (must be less "
                          "than Interval and DownTime).",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&AdcHealthMonitor::m_responseTimeout),
                          MakeTimeChecker())
            .AddAttribute("Retries",
                          "Consecutive failed probes that mark a target DOWN (>= 1).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_retries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SuccessRetries",
                          "Consecutive successful probes that mark a DOWN target UP (>= 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_successRetries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DownTime",
                          "Time between the starts of two probes to a DOWN target.",
                          TimeValue(Seconds(30)),
                          MakeTimeAccessor(&AdcHealthMonitor::m_downTime),
                          MakeTimeChecker())
            .AddAttribute("Jitter",
                          "Each probe start is delayed by a uniform random time in [0, Jitter) "
                          "(0: none, fully deterministic without a random stream).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&AdcHealthMonitor::m_jitter),
                          MakeTimeChecker())
            .AddAttribute("DestinationPort",
                          "Port probed on every target (0: each target's own port).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_destinationPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("HttpRequest",
                          "HTTP probes: the request as \"METHOD /path\".",
                          StringValue("HEAD /"),
                          MakeStringAccessor(&AdcHealthMonitor::m_httpRequest),
                          MakeStringChecker())
            .AddAttribute("HttpExpectedStatus",
                          "HTTP probes: the one status code that means UP.",
                          UintegerValue(200),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_httpExpectedStatus),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("UdpPayload",
                          "UDP probes: the datagram's payload.",
                          StringValue(""),
                          MakeStringAccessor(&AdcHealthMonitor::m_udpPayload),
                          MakeStringChecker())
            .AddAttribute("UdpRequireReply",
                          "UDP probes: false = a target is UP unless an ICMP error comes back; "
                          "true = a reply must come back within ResponseTimeout.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcHealthMonitor::m_udpRequireReply),
                          MakeBooleanChecker())
            .AddAttribute("PingDataSize",
                          "PING probes: echo data bytes after the 8-byte echo header (like "
                          "ping -s; at most 65000).",
                          UintegerValue(56),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_pingDataSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InitialState",
                          "State of every target when the monitor starts (UNKNOWN: the first "
                          "outcome decides).",
                          EnumValue(static_cast<int>(State::UNKNOWN)),
                          MakeEnumAccessor(&AdcHealthMonitor::m_initialState),
                          MakeEnumChecker(static_cast<int>(State::UNKNOWN),
                                          "UNKNOWN",
                                          static_cast<int>(State::UP),
                                          "UP",
                                          static_cast<int>(State::DOWN),
                                          "DOWN"))
            .AddTraceSource("StateChange",
                            "A target's state changed.",
                            MakeTraceSourceAccessor(&AdcHealthMonitor::m_stateChangeTrace),
                            "ns3::AdcHealthMonitor::StateChangeTracedCallback")
            .AddTraceSource("Probe",
                            "A probe finished (success or failure, with its round trip and "
                            "reason).",
                            MakeTraceSourceAccessor(&AdcHealthMonitor::m_probeTrace),
                            "ns3::AdcHealthMonitor::ProbeTracedCallback")
            .AddTraceSource("Drop",
                            "A received packet could not be used (truncated, late reply).",
                            MakeTraceSourceAccessor(&AdcHealthMonitor::m_dropTrace),
                            "ns3::AdcHealthMonitor::DropTracedCallback");
    return tid;
}

AdcHealthMonitor::AdcHealthMonitor()
    : m_type(PING),
      m_retries(3),
      m_successRetries(1),
      m_destinationPort(0),
      m_httpExpectedStatus(200),
      m_udpRequireReply(false),
      m_pingDataSize(56),
      m_initialState(static_cast<int>(State::UNKNOWN)),
      m_running(false)
{
    NS_LOG_FUNCTION(this);
    m_jitterRng = CreateObject<UniformRandomVariable>();
}

AdcHealthMonitor::~AdcHealthMonitor()
{
    NS_LOG_FUNCTION(this);
}

std::string
AdcHealthMonitor::ToString(State state)
{
    switch (state)
    {
    case State::UNKNOWN:
        return "UNKNOWN";
    case State::UP:
        return "UP";
    case State::DOWN:
        return "DOWN";
    }
    return "INVALID";
}

std::string
AdcHealthMonitor::ToString(ProbeType type)
{
    switch (type)
    {
    case PING:
        return "PING";
    case TCP:
        return "TCP";
    case UDP:
        return "UDP";
    case HTTP:
        return "HTTP";
    }
    return "INVALID";
}

std::ostream&
operator<<(std::ostream& os, AdcHealthMonitor::State state)
{
    return os << AdcHealthMonitor::ToString(state);
}

uint32_t
AdcHealthMonitor::AddTarget(const AdcIpAddress& address, uint16_t port, const std::string& name)
{
    NS_LOG_FUNCTION(this << address << port << name);
    if (address.IsNone())
    {
        throw AdcConfigError("AdcHealthMonitor '" + m_name + "': target '" + name +
                             "' has no address (an IPv4 or IPv6 address is required)");
    }
    TargetEntry entry;
    entry.target.address = address;
    entry.target.port = port;
    entry.target.name = name;
    ResetEntry(entry);
    m_targets.push_back(entry);
    const auto index = static_cast<uint32_t>(m_targets.size() - 1);
    if (m_running)
    {
        ScheduleProbe(index, Seconds(0));
    }
    return index;
}

AdcHealthMonitor::State
AdcHealthMonitor::GetState(uint32_t index) const
{
    return Entry(index).state;
}

uint32_t
AdcHealthMonitor::GetNTargets() const
{
    return static_cast<uint32_t>(m_targets.size());
}

const std::string&
AdcHealthMonitor::GetTargetName(uint32_t index) const
{
    return Entry(index).target.name;
}

void
AdcHealthMonitor::SetStateChangeCallback(StateChangeCallback cb)
{
    m_stateChangeCallback = cb;
}

void
AdcHealthMonitor::SetProbe(Ptr<AdcHealthProbe> probe)
{
    m_customProbe = probe;
}

int64_t
AdcHealthMonitor::AssignStreams(int64_t stream)
{
    m_jitterRng->SetStream(stream);
    return 1;
}

void
AdcHealthMonitor::Validate() const
{
    const std::string owner = "AdcHealthMonitor '" + m_name + "': ";
    auto fail = [&owner](const std::string& what) { throw AdcConfigError(owner + what); };
    if (!m_interval.IsStrictlyPositive())
    {
        fail("Interval " + FormatTime(m_interval) + " must be greater than 0");
    }
    if (!m_responseTimeout.IsStrictlyPositive() || m_responseTimeout >= m_interval)
    {
        fail("ResponseTimeout " + FormatTime(m_responseTimeout) +
             " must be greater than 0 and less than Interval " + FormatTime(m_interval));
    }
    if (m_downTime <= m_responseTimeout)
    {
        fail("DownTime " + FormatTime(m_downTime) + " must be greater than ResponseTimeout " +
             FormatTime(m_responseTimeout));
    }
    if (m_retries < 1)
    {
        fail("Retries " + std::to_string(m_retries) + " must be at least 1");
    }
    if (m_successRetries < 1)
    {
        fail("SuccessRetries " + std::to_string(m_successRetries) + " must be at least 1");
    }
    if (m_jitter.IsStrictlyNegative())
    {
        fail("Jitter " + FormatTime(m_jitter) + " must not be negative");
    }
    if (m_pingDataSize > 65000)
    {
        fail("PingDataSize " + std::to_string(m_pingDataSize) + " must be at most 65000");
    }
    if (m_type == HTTP && SplitRequestLine(m_httpRequest).first.empty())
    {
        fail("HttpRequest '" + m_httpRequest +
             "' must be \"METHOD /path\" (upper-case method, one space, path starting with /)");
    }
    if (m_type == HTTP && (m_httpExpectedStatus < 100 || m_httpExpectedStatus > 599))
    {
        fail("HttpExpectedStatus " + std::to_string(m_httpExpectedStatus) + " must be in 100..599");
    }
    if (m_type != PING && m_destinationPort == 0)
    {
        for (const TargetEntry& e : m_targets)
        {
            if (e.target.port == 0)
            {
                fail("target '" + e.target.name + "' has port 0 and DestinationPort is 0 (" +
                     ToString(m_type) + " probes need a port)");
            }
        }
    }
}

void
AdcHealthMonitor::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_probe)
    {
        m_probe->Stop();
    }
    for (TargetEntry& e : m_targets)
    {
        e.timeoutEvent.Cancel();
        e.nextEvent.Cancel();
    }
    m_running = false;
    m_targets.clear();
    m_probe = nullptr;
    m_customProbe = nullptr;
    m_jitterRng = nullptr;
    m_stateChangeCallback = StateChangeCallback();
    Application::DoDispose();
}

void
AdcHealthMonitor::StartApplication()
{
    NS_LOG_FUNCTION(this);
    Validate();
    m_probe = m_customProbe ? m_customProbe : CreateProbe();
    m_probe->Start(GetNode(),
                   ComputeInstanceId(),
                   MakeCallback(&AdcHealthMonitor::ProbeResult, this),
                   MakeCallback(&AdcHealthMonitor::ProbeDrop, this));
    m_running = true;
    for (uint32_t i = 0; i < m_targets.size(); ++i)
    {
        ResetEntry(m_targets[i]);
        ScheduleProbe(i, Seconds(0));
    }
}

void
AdcHealthMonitor::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    for (TargetEntry& e : m_targets)
    {
        e.timeoutEvent.Cancel();
        e.nextEvent.Cancel();
        e.inFlight = false;
    }
    if (m_probe)
    {
        m_probe->Stop();
    }
}

Ptr<AdcHealthProbe>
AdcHealthMonitor::CreateProbe() const
{
    // The one place that maps a Type to its probe kind.
    switch (m_type)
    {
    case PING:
        return Create<AdcPingProbe>(m_pingDataSize);
    case TCP:
        return Create<AdcTcpProbe>();
    case UDP:
        return Create<AdcUdpProbe>(m_udpPayload, m_udpRequireReply);
    case HTTP: {
        const auto request = SplitRequestLine(m_httpRequest);
        return Create<AdcHttpProbe>(request.first, request.second, m_httpExpectedStatus);
    }
    }
    throw AdcConfigError("AdcHealthMonitor '" + m_name + "': Type " +
                         std::to_string(static_cast<int>(m_type)) +
                         " is not one of PING, TCP, UDP, HTTP");
}

uint16_t
AdcHealthMonitor::ComputeInstanceId() const
{
    // Application index in the high byte, node id in the low byte: monitors on one node differ.
    Ptr<Node> node = GetNode();
    uint32_t appIndex = 0;
    for (uint32_t i = 0; i < node->GetNApplications(); ++i)
    {
        if (node->GetApplication(i) == this)
        {
            appIndex = i;
            break;
        }
    }
    return static_cast<uint16_t>(((appIndex & 0xff) << 8) | (node->GetId() & 0xff));
}

const AdcHealthMonitor::TargetEntry&
AdcHealthMonitor::Entry(uint32_t index) const
{
    if (index >= m_targets.size())
    {
        throw AdcConfigError("AdcHealthMonitor '" + m_name + "': target index " +
                             std::to_string(index) + " is out of range (" +
                             std::to_string(m_targets.size()) + " targets)");
    }
    return m_targets[index];
}

void
AdcHealthMonitor::ResetEntry(TargetEntry& entry) const
{
    entry.state = static_cast<State>(m_initialState);
    entry.failures = 0;
    entry.successes = 0;
    entry.inFlight = false;
}

void
AdcHealthMonitor::ScheduleProbe(uint32_t index, Time delay)
{
    if (m_jitter.IsStrictlyPositive())
    {
        delay += Seconds(m_jitterRng->GetValue(0, m_jitter.GetSeconds()));
    }
    m_targets[index].nextEvent =
        Simulator::Schedule(delay, &AdcHealthMonitor::SendProbe, this, index);
}

void
AdcHealthMonitor::SendProbe(uint32_t index)
{
    TargetEntry& e = m_targets[index];
    NS_LOG_FUNCTION(this << index << e.target.name);
    e.inFlight = true;
    e.sentAt = Simulator::Now();
    e.timeoutEvent =
        Simulator::Schedule(m_responseTimeout, &AdcHealthMonitor::ProbeTimeout, this, index);
    AdcHealthProbe::Target target = e.target;
    if (m_destinationPort != 0)
    {
        target.port = m_destinationPort;
    }
    m_probe->Send(index, target); // may report synchronously (e.g. no route)
}

void
AdcHealthMonitor::ProbeTimeout(uint32_t index)
{
    if (!m_targets[index].inFlight)
    {
        return;
    }
    m_probe->Cancel(index);
    const bool success = m_probe->IsSilenceSuccess();
    ProbeResult(index, success, success ? "no-reply" : "timeout");
}

void
AdcHealthMonitor::ProbeResult(uint32_t index, bool success, const std::string& reason)
{
    if (!m_running || index >= m_targets.size() || !m_targets[index].inFlight)
    {
        return;
    }
    TargetEntry& e = m_targets[index];
    e.inFlight = false;
    e.timeoutEvent.Cancel();
    const Time sentAt = e.sentAt;
    const std::string name = e.target.name; // copy: an owner's callback may add targets
    NS_LOG_LOGIC(m_name << " probe to " << name << ": " << (success ? "success" : "failure") << " ("
                        << reason << ")");
    m_probeTrace(index, name, success, Simulator::Now() - sentAt, reason);
    UpdateState(index, success);
    if (!m_running)
    {
        return; // an owner's callback stopped the monitor
    }
    const Time spacing = (m_targets[index].state == State::DOWN) ? m_downTime : m_interval;
    const Time delay = sentAt + spacing - Simulator::Now();
    ScheduleProbe(index, delay.IsStrictlyPositive() ? delay : Seconds(0));
}

void
AdcHealthMonitor::ProbeDrop(Ptr<const Packet> packet, const std::string& reason)
{
    NS_LOG_LOGIC(m_name << " dropped a packet: " << reason);
    m_dropTrace(packet, reason);
}

void
AdcHealthMonitor::UpdateState(uint32_t index, bool success)
{
    TargetEntry& e = m_targets[index];
    const State old = e.state;
    State next = old;
    if (success)
    {
        e.failures = 0;
        ++e.successes;
        if (old == State::UNKNOWN || (old == State::DOWN && e.successes >= m_successRetries))
        {
            next = State::UP;
        }
    }
    else
    {
        e.successes = 0;
        ++e.failures;
        if (old != State::DOWN && e.failures >= m_retries)
        {
            next = State::DOWN;
        }
    }
    if (next == old)
    {
        return;
    }
    e.state = next;
    const std::string name = e.target.name;
    NS_LOG_INFO(m_name << ": " << name << " " << old << " -> " << next);
    m_stateChangeTrace(index, name, old, next);
    if (!m_stateChangeCallback.IsNull())
    {
        m_stateChangeCallback(index, old, next);
    }
}

} // namespace ns3
