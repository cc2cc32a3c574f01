/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-stack-helper.h"

#include "ns3/abort.h"
#include "ns3/csma-net-device.h"
#include "ns3/integer.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-list-routing-helper.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6-static-routing-helper.h"
#include "ns3/ipv6.h"
#include "ns3/node-list.h"

namespace ns3
{

int64_t
AdcAssignNetworkStreams(int64_t stream)
{
    const int64_t first = stream;
    stream += InternetStackHelper().AssignStreams(NodeContainer::GetGlobal(), stream); // ARP
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            if (Ptr<CsmaNetDevice> csma = DynamicCast<CsmaNetDevice>(node->GetDevice(d)))
            {
                stream += csma->AssignStreams(stream); // backoff
            }
        }
    }
    return stream - first;
}

InternetStackHelper
AdcMakeListStackHelper(bool ipv6)
{
    Ipv4ListRoutingHelper list4;
    list4.Add(Ipv4StaticRoutingHelper(), 0);
    InternetStackHelper stack;
    stack.SetRoutingHelper(list4);
    if (ipv6)
    {
        Ipv6ListRoutingHelper list6;
        list6.Add(Ipv6StaticRoutingHelper(), 0);
        stack.SetRoutingHelper(list6);
    }
    stack.SetIpv6StackInstall(ipv6);
    return stack;
}

namespace
{

/**
 * \brief Add \p protocol to \p node's list routing of one family at \p priority.
 * \tparam Ip Ipv4 or Ipv6
 * \tparam ListRouting Ipv4ListRouting or Ipv6ListRouting
 * \tparam Protocol the family's routing protocol type
 * \param node the node
 * \param protocol the protocol
 * \param priority its priority
 * \param listName "Ipv4ListRouting" or "Ipv6ListRouting", for the message
 */
template <class Ip, class ListRouting, class Protocol>
void
AddTop(Ptr<Node> node, Ptr<Protocol> protocol, int16_t priority, const char* listName)
{
    Ptr<ListRouting> list = DynamicCast<ListRouting>(node->GetObject<Ip>()->GetRoutingProtocol());
    NS_ABORT_MSG_UNLESS(list,
                        "node " << node->GetId() << " has no " << listName
                                << ": install its stack with AdcMakeListStackHelper");
    list->AddRoutingProtocol(protocol, priority);
}

} // namespace

void
AdcAddTopIpv4Routing(Ptr<Node> node, Ptr<Ipv4RoutingProtocol> protocol, int16_t priority)
{
    AddTop<Ipv4, Ipv4ListRouting>(node, protocol, priority, "Ipv4ListRouting");
}

void
AdcAddTopIpv6Routing(Ptr<Node> node, Ptr<Ipv6RoutingProtocol> protocol, int16_t priority)
{
    AddTop<Ipv6, Ipv6ListRouting>(node, protocol, priority, "Ipv6ListRouting");
}

void
AdcInstallDatapath(Ptr<Node> node, Ptr<AdcDatapath> datapath, int16_t priority)
{
    datapath->SetAttribute("HookPriority", IntegerValue(priority));
    datapath->Install(node);
}

} // namespace ns3
