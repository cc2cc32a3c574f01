/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the TCP (connection attempt) and HTTP (request, then the response's status)
 * health-probe kinds.
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

NS_LOG_COMPONENT_DEFINE("AdcHealthProbe");

namespace
{

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

} // namespace

Ptr<AdcHealthProbe>
AdcMakeTcpProbe()
{
    return Create<AdcTcpProbe>();
}

Ptr<AdcHealthProbe>
AdcMakeHttpProbe(const std::string& method, const std::string& path, uint16_t expectedStatus)
{
    return Create<AdcHttpProbe>(method, path, expectedStatus);
}

} // namespace ns3
