/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: AdcHealthProbe, the base of the probe kinds health monitors send (PING and UDP in
 * adc-health-probe-icmp-udp.cc, TCP and HTTP in adc-health-probe-tcp-http.cc), so other
 * subjects can build their own monitors or probes on them.
 */

#include "adc-health-probe.h"

#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"

namespace ns3
{

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

Address
AdcHealthProbe::SocketAddressOf(const AdcIpAddress& address, uint16_t port)
{
    if (address.IsV6())
    {
        return Inet6SocketAddress(address.GetIpv6(), port);
    }
    return InetSocketAddress(address.GetIpv4(), port);
}

} // namespace ns3
