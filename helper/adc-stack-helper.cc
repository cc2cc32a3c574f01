/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-stack-helper.h"

#include "ns3/abort.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-list-routing-helper.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6-static-routing-helper.h"
#include "ns3/ipv6.h"

namespace ns3
{

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

void
AdcAddTopIpv4Routing(Ptr<Node> node, Ptr<Ipv4RoutingProtocol> protocol, int16_t priority)
{
    Ptr<Ipv4ListRouting> list =
        DynamicCast<Ipv4ListRouting>(node->GetObject<Ipv4>()->GetRoutingProtocol());
    NS_ABORT_MSG_UNLESS(list,
                        "node " << node->GetId()
                                << " has no Ipv4ListRouting: install its stack with "
                                   "AdcMakeListStackHelper");
    list->AddRoutingProtocol(protocol, priority);
}

void
AdcAddTopIpv6Routing(Ptr<Node> node, Ptr<Ipv6RoutingProtocol> protocol, int16_t priority)
{
    Ptr<Ipv6ListRouting> list =
        DynamicCast<Ipv6ListRouting>(node->GetObject<Ipv6>()->GetRoutingProtocol());
    NS_ABORT_MSG_UNLESS(list,
                        "node " << node->GetId()
                                << " has no Ipv6ListRouting: install its stack with "
                                   "AdcMakeListStackHelper");
    list->AddRoutingProtocol(protocol, priority);
}

} // namespace ns3
