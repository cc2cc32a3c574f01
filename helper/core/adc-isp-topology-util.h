/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the address plan constants and routing utilities AdcIspTopologyHelper's
 * files (building, addressing) and AdcIspTopology share. Internal to the helpers.
 */

#ifndef ADC_ISP_TOPOLOGY_UTIL_H
#define ADC_ISP_TOPOLOGY_UTIL_H

#include "ns3/abort.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-address.h"
#include "ns3/ipv6-interface-container.h"
#include "ns3/ipv6-static-routing-helper.h"
#include "ns3/ipv6-static-routing.h"
#include "ns3/ipv6.h"

#include <cstdint>
#include <string>

namespace ns3
{

/// Address plan constants and routing utilities of AdcIspTopologyHelper (internal).
namespace adcisp
{

/// Mask of a /16 access network.
const Ipv4Mask ACCESS_MASK("255.255.0.0");
/// Mask of a point-to-point link.
const Ipv4Mask LINK_MASK("255.255.255.252");
/// IPv6 subnet id of the server LAN.
constexpr uint16_t SERVER_SUBNET6 = 0xffff;
/// First IPv6 subnet id of the point-to-point links.
constexpr uint16_t LINK_SUBNET6 = 0x8000;

/// \return a message prefix naming the helper and a setting
inline std::string
Where(const std::string& setting)
{
    return "AdcIspTopologyHelper: " + setting + " ";
}

/// \param mask a contiguous mask \return its prefix length
inline uint32_t
PrefixLength(Ipv4Mask mask)
{
    return mask.GetPrefixLength();
}

/// \param mask a mask \return number of addresses in the block
inline uint64_t
BlockSize(Ipv4Mask mask)
{
    return uint64_t{1} << (32 - PrefixLength(mask));
}

/// \param ipv4 a node's IPv4 \return its static routing protocol
inline Ptr<Ipv4StaticRouting>
StaticRouting(Ptr<Ipv4> ipv4)
{
    Ptr<Ipv4StaticRouting> routing = Ipv4StaticRoutingHelper().GetStaticRouting(ipv4);
    NS_ABORT_MSG_UNLESS(routing, "AdcIspTopologyHelper: node has no IPv4 static routing");
    return routing;
}

/// \param ipv6 a node's IPv6 \return its static routing protocol
inline Ptr<Ipv6StaticRouting>
StaticRouting6(Ptr<Ipv6> ipv6)
{
    Ptr<Ipv6StaticRouting> routing = Ipv6StaticRoutingHelper().GetStaticRouting(ipv6);
    NS_ABORT_MSG_UNLESS(routing, "AdcIspTopologyHelper: node has no IPv6 static routing");
    return routing;
}

/// \param c interfaces \param i index \return the first global address of interface i
inline Ipv6Address
GlobalAddress6(const Ipv6InterfaceContainer& c, uint32_t i)
{
    const auto [ipv6, iface] = c.Get(i);
    for (uint32_t j = 0; j < ipv6->GetNAddresses(iface); ++j)
    {
        const Ipv6InterfaceAddress a = ipv6->GetAddress(iface, j);
        if (a.GetScope() == Ipv6InterfaceAddress::GLOBAL)
        {
            return a.GetAddress();
        }
    }
    return Ipv6Address::GetAny();
}

} // namespace adcisp
} // namespace ns3

#endif /* ADC_ISP_TOPOLOGY_UTIL_H */
