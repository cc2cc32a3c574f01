/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-ecmp-routing6.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcEcmpRouting6);

AdcEcmpRouting6::AdcEcmpRouting6() = default;

AdcEcmpRouting6::~AdcEcmpRouting6() = default;

void
AdcEcmpRouting6::AddRoute(Ipv6Address network,
                          Ipv6Prefix prefix,
                          Ipv6Address gateway,
                          uint32_t interface,
                          AdcRouteOrigin origin)
{
    AddPath(network, AdcEcmpTable::PrefixLength(network, prefix), gateway, interface, origin);
}

bool
AdcEcmpRouting6::RemoveRoute(Ipv6Address network,
                             Ipv6Prefix prefix,
                             Ipv6Address gateway,
                             AdcRouteOrigin origin)
{
    return RemovePath(network, AdcEcmpTable::PrefixLength(network, prefix), gateway, origin);
}

void
AdcEcmpRouting6::NotifyAddRoute(Ipv6Address, Ipv6Prefix, Ipv6Address, uint32_t, Ipv6Address)
{
    // Routes other protocols install are theirs; this table holds only what is added to it.
}

void
AdcEcmpRouting6::NotifyRemoveRoute(Ipv6Address, Ipv6Prefix, Ipv6Address, uint32_t, Ipv6Address)
{
}

void
AdcEcmpRouting6::SetIpv6(Ptr<Ipv6> ipv6)
{
    SetIp(ipv6);
}

} // namespace ns3
