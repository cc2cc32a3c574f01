/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The SLB host switch delivers a flow to the VM its MUX chose: the MUX names the VM in the
 * inner Ethernet destination of the VXLAN frame (SlbVmMac), the switch remembers it per inner
 * flow and NATs the VIP to that VM's DIP.
 */

#include "slb-host-switch.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

void
SlbHostSwitch::RecordMuxChoice(const SlbVxlanFrame& frame, const AdcFlowKey& inner)
{
    const auto port = std::find_if(m_ports.begin(), m_ports.end(), [&frame](const VmPort& p) {
        return p.vni == frame.vni && SlbVmMac(p.address) == frame.innerDestination;
    });
    if (port == m_ports.end() || inner.srcPort == 0)
    {
        return; // a MAC of no VM here (the VIP's own, an old MUX), or a later fragment
    }
    const Time now = Simulator::Now();
    m_muxChoice[inner] = MuxChoice{port->address, now};
    if (m_muxChoice.size() >= m_muxChoiceSweepAt)
    {
        for (auto it = m_muxChoice.begin(); it != m_muxChoice.end();)
        {
            it =
                now - it->second.lastUsed > m_muxChoiceIdle ? m_muxChoice.erase(it) : std::next(it);
        }
        m_muxChoiceSweepAt = std::max<std::size_t>(1024, 2 * m_muxChoice.size());
    }
}

const SlbDip*
SlbHostSwitch::FindMuxChoice(const AdcFlowKey& flow, const std::vector<SlbDip>& dips)
{
    const auto it = m_muxChoice.find(flow);
    if (it == m_muxChoice.end())
    {
        return nullptr;
    }
    if (Simulator::Now() - it->second.lastUsed > m_muxChoiceIdle)
    {
        m_muxChoice.erase(it);
        return nullptr;
    }
    const auto dip = std::find_if(dips.begin(), dips.end(), [&it](const SlbDip& d) {
        return d.address == it->second.dip;
    });
    if (dip == dips.end())
    {
        return nullptr;
    }
    ++m_counters.muxChoices;
    return &*dip;
}

} // namespace ns3
