/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test support for scenarios that put malformed packets on the wire.
 */

#ifndef ADC_TEST_RAW_PACKETS_H
#define ADC_TEST_RAW_PACKETS_H

#include "ns3/net-device.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

/**
 * \ingroup adc-tests
 * \brief Remove the root queue disc of every device of every node.
 *
 * ns-3's default queue disc (FqCoDel) hashes each packet's transport header
 * (Ipv4QueueDiscItem::Hash peeks a TcpHeader or UdpHeader). A test that sends truncated
 * transport headers on purpose, to see the appliance drop them, would make an ns-3 built with
 * its own asserts (an in-tree debug build) abort in that hash, on the sender or on a router,
 * before the appliance is reached; Debian's optimized ns-3 reads past the packet instead. With
 * no queue disc, devices queue packets without looking into them. Call before Simulator::Run.
 */
inline void
AdcRemoveQueueDiscsEverywhere()
{
    TrafficControlHelper tch;
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
        if (!tc)
        {
            continue;
        }
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            if (tc->GetRootQueueDiscOnDevice(node->GetDevice(d)))
            {
                tch.Uninstall(node->GetDevice(d));
            }
        }
    }
}

} // namespace ns3

#endif /* ADC_TEST_RAW_PACKETS_H */
