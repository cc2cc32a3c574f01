/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the probe kinds of the health monitors, behind one interface.
 */

#ifndef ADC_HEALTH_PROBE_H
#define ADC_HEALTH_PROBE_H

#include "ns3/adc-flow-key.h"
#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <string>

namespace ns3
{

class Node;
class Packet;

/**
 * \ingroup adc
 * \brief One kind of probe (PING, TCP, UDP, HTTP, later DNS): sends one probe to one target
 * and reports its outcome.
 *
 * The owning AdcHealthMonitor keeps everything that is common to all kinds: the schedule, the
 * response timeout, the one-probe-in-flight rule and the UP/DOWN state machine. A kind only
 * speaks its protocol, so a new kind (e.g. the GSLB's DNS probe) is one subclass plus one line
 * in AdcHealthMonitor's factory, or is handed over with AdcHealthMonitor::SetProbe.
 *
 * Contract: after Send(index, ...) the kind calls Report(index, ...) at most once, unless
 * Cancel(index) comes first; after Cancel or Stop it never reports that probe.
 */
class AdcHealthProbe : public SimpleRefCount<AdcHealthProbe>
{
  public:
    /// Where one probe goes.
    struct Target
    {
        AdcIpAddress address; //!< the target's address
        uint16_t port{0};     //!< destination port (already resolved; unused by PING)
        std::string name;     //!< the target's name (for logs)
    };

    /// Receives an outcome: target index, success, reason (e.g. "echo-reply", "timeout").
    typedef Callback<void, uint32_t, bool, const std::string&> ResultCallback;
    /// Receives a packet the kind could not use, with the reason.
    typedef Callback<void, Ptr<const Packet>, const std::string&> DropCallback;

    AdcHealthProbe();
    virtual ~AdcHealthProbe();

    /**
     * \brief Attach to a node and open long-lived sockets (called from StartApplication).
     * \param node the node the monitor runs on
     * \param instanceId a number that tells this monitor from others on the same node
     * \param result where outcomes go
     * \param drop where unusable packets go
     */
    void Start(Ptr<Node> node, uint16_t instanceId, ResultCallback result, DropCallback drop);

    /// Abandon every probe in flight and close every socket (called from StopApplication).
    void Stop();

    /**
     * \brief Send one probe.
     * \param index the target's index in the monitor
     * \param target where to send it
     */
    virtual void Send(uint32_t index, const Target& target) = 0;

    /**
     * \brief Abandon the probe in flight for \p index (its timeout passed): no report follows.
     * \param index the target's index
     */
    virtual void Cancel(uint32_t index) = 0;

    /**
     * \brief What silence means for this kind.
     * \return true when a probe that got no answer by the timeout succeeded (a UDP service
     *         that does not answer is alive unless an ICMP error says otherwise)
     */
    virtual bool IsSilenceSuccess() const;

  protected:
    /// Open long-lived sockets; the default opens none.
    virtual void DoStart();
    /// Abandon every probe and close every socket.
    virtual void DoStop() = 0;

    /**
     * \brief Deliver an outcome to the monitor.
     * \param index the target's index
     * \param success whether the probe succeeded
     * \param reason a short reason, e.g. "connection-refused"
     */
    void Report(uint32_t index, bool success, const std::string& reason);

    /**
     * \brief Report a received packet the kind cannot use.
     * \param packet the packet
     * \param reason why, e.g. "icmp-truncated"
     */
    void Drop(Ptr<const Packet> packet, const std::string& reason);

    /// \return the node (null before Start)
    Ptr<Node> GetNode() const;
    /// \return the instance id given to Start
    uint16_t GetInstanceId() const;

    /**
     * \param address an IPv4 or IPv6 address
     * \param port a port (0 for raw sockets)
     * \return the socket address of \p address : \p port (InetSocketAddress or
     *         Inet6SocketAddress)
     */
    static Address SocketAddressOf(const AdcIpAddress& address, uint16_t port);

  private:
    Ptr<Node> m_node;        //!< the monitor's node
    uint16_t m_instanceId;   //!< tells monitors on one node apart
    ResultCallback m_result; //!< outcome sink
    DropCallback m_drop;     //!< drop sink
};

/**
 * \ingroup adc
 * \param dataSize ICMP echo payload bytes
 * \return a PING probe (ICMP or ICMPv6 echo over a raw socket)
 */
Ptr<AdcHealthProbe> AdcMakePingProbe(uint32_t dataSize);
/// \ingroup adc \return a TCP probe (a connection that opens is success)
Ptr<AdcHealthProbe> AdcMakeTcpProbe();
/**
 * \ingroup adc
 * \param payload the datagram sent
 * \param requireReply when true silence is failure, otherwise only an ICMP error is
 * \return a UDP probe
 */
Ptr<AdcHealthProbe> AdcMakeUdpProbe(const std::string& payload, bool requireReply);
/**
 * \ingroup adc
 * \param method request method
 * \param path request target
 * \param expectedStatus the status that means success
 * \return an HTTP probe (a request over TCP, the response's status checked)
 */
Ptr<AdcHealthProbe> AdcMakeHttpProbe(const std::string& method,
                                     const std::string& path,
                                     uint16_t expectedStatus);

} // namespace ns3

#endif /* ADC_HEALTH_PROBE_H */
