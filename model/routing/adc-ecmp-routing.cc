/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-ecmp-routing.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcEcmpRouting);

AdcEcmpRouting::AdcEcmpRouting() = default;

AdcEcmpRouting::~AdcEcmpRouting() = default;

void
AdcEcmpRouting::AddRoute(Ipv4Address network,
                         Ipv4Mask mask,
                         Ipv4Address gateway,
                         uint32_t interface,
                         AdcRouteOrigin origin)
{
    AddPath(network, AdcEcmpTable::PrefixLength(network, mask), gateway, interface, origin);
}

bool
AdcEcmpRouting::RemoveRoute(Ipv4Address network,
                            Ipv4Mask mask,
                            Ipv4Address gateway,
                            AdcRouteOrigin origin)
{
    return RemovePath(network, AdcEcmpTable::PrefixLength(network, mask), gateway, origin);
}

void
AdcEcmpRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    SetIp(ipv4);
}

} // namespace ns3
