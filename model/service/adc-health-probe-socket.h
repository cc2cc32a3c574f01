/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the base of the health-probe kinds that open one socket per probe (TCP, HTTP,
 * UDP), for the kinds in adc-health-probe-tcp-http.cc and adc-health-probe-icmp-udp.cc and for
 * other subjects' kinds.
 */

#ifndef ADC_HEALTH_PROBE_SOCKET_H
#define ADC_HEALTH_PROBE_SOCKET_H

#include "adc-health-probe.h"

#include "ns3/callback.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \param type an ICMPv4 error's type \param code its code
 * \return the reason the probe kinds give it: "icmp-port-unreachable", "icmp-host-unreachable",
 *         "icmp-net-unreachable", "icmp-dest-unreachable", "icmp-time-exceeded" or
 *         "icmp-error-<type>"
 */
std::string AdcIcmpv4ErrorReason(uint8_t type, uint8_t code);

/**
 * \ingroup adc
 * \param type an ICMPv6 error's type \param code its code
 * \return the reason, named as AdcIcmpv4ErrorReason names the ICMPv4 ones
 */
std::string AdcIcmpv6ErrorReason(uint8_t type, uint8_t code);

/**
 * \ingroup adc
 * \brief Bookkeeping shared by the per-probe-socket kinds. Every socket callback is bound to the
 * target index and a serial number; a callback whose serial is no longer in flight (its probe
 * finished or was cancelled) is ignored, and finished sockets are detached before closing so
 * a lingering socket can never call back into a destroyed probe.
 */
class AdcSocketProbe : public AdcHealthProbe
{
  public:
    /// \param index the target whose probe is abandoned: its socket is released, no report
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
        s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        s->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                              MakeNullCallback<void, Ptr<Socket>>());
        s->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                             MakeNullCallback<void, Ptr<Socket>>());
        s->Close();
    }

    /// Kind-specific teardown of a socket about to close.
    virtual void OnRelease(uint32_t /* index */, Ptr<Socket> /* socket */)
    {
    }

    /// Release every probe in flight.
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

/**
 * \ingroup adc
 * \brief The kinds that send one UDP datagram per probe (the UDP monitor, GSLB's DNS probe):
 * the socket, the send, and ICMP errors about the datagram, which fail the probe with their
 * reason (AdcIcmpv4ErrorReason, AdcIcmpv6ErrorReason). A kind reads the replies.
 */
class AdcUdpSocketProbe : public AdcSocketProbe
{
  protected:
    /**
     * \brief Open a UDP socket for the probe of \p index, connect it to \p target and send
     * \p payload; a send error fails the probe ("send-error").
     * \param index the target's index \param target the target \param payload the datagram
     */
    void SendDatagram(uint32_t index, const Target& target, Ptr<Packet> payload);

    /**
     * \brief Datagrams are readable on the probe's socket.
     * \param index the target's index
     * \param serial the probe's serial (Find(index, serial) is null once it has ended)
     * \param socket the socket
     */
    virtual void Received(uint32_t index, uint64_t serial, Ptr<Socket> socket) = 0;

    /// Detach the ICMP callbacks (a kind that overrides this calls it too).
    void OnRelease(uint32_t index, Ptr<Socket> socket) override;

  private:
    /// Callback target of the socket: calls Received.
    void DoReceived(uint32_t index, uint64_t serial, Ptr<Socket> socket);
    /// ICMPv4 error about the probe's datagram.
    void Icmp4(uint32_t index,
               uint64_t serial,
               Ipv4Address from,
               uint8_t ttl,
               uint8_t type,
               uint8_t code,
               uint32_t info);
    /// ICMPv6 error about the probe's datagram.
    void Icmp6(uint32_t index,
               uint64_t serial,
               Ipv6Address from,
               uint8_t ttl,
               uint8_t type,
               uint8_t code,
               uint32_t info);
};

} // namespace ns3

#endif /* ADC_HEALTH_PROBE_SOCKET_H */
