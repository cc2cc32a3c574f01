/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: an IPv6 routing protocol with per-flow equal-cost multipath, the same
 * behaviour as AdcEcmpRouting (both are AdcEcmpRoutingBase).
 */

#ifndef ADC_ECMP_ROUTING6_H
#define ADC_ECMP_ROUTING6_H

#include "adc-ecmp-routing-base.h"

#include "ns3/ipv6-routing-protocol.h"
#include "ns3/ipv6.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Per-flow ECMP routing for IPv6 (ns3::AdcEcmpRouting6): AdcEcmpRoutingBase with
 * prefixes written as address and Ipv6Prefix.
 *
 * Install it in front of the static routing of an Ipv6ListRouting (AddRoutingProtocol with a
 * higher priority). It leaves multicast and link-local destinations (neighbour discovery,
 * router advertisements) to the protocols below it, and the node's own packets are delivered
 * by Ipv6L3Protocol before any protocol is asked. Next hops may be global or link-local
 * addresses: the interface given with each says which link a link-local next hop is on.
 */
class AdcEcmpRouting6 : public AdcEcmpRoutingBase<AdcIpv6HookFamily, AdcEcmpRouting6>
{
  public:
    AdcEcmpRouting6();
    ~AdcEcmpRouting6() override;

    /**
     * \brief Add one equal-cost next hop of a prefix (joining the prefix's group).
     * \param network the prefix's network
     * \param prefix its prefix (contiguous)
     * \param gateway the next hop's address (global or link-local)
     * \param interface the interface to it
     * \param origin who adds it (STATIC unless a routing protocol learnt it)
     * \throw AdcConfigError for a prefix that is not contiguous
     */
    void AddRoute(Ipv6Address network,
                  Ipv6Prefix prefix,
                  Ipv6Address gateway,
                  uint32_t interface,
                  AdcRouteOrigin origin = AdcRouteOrigin::STATIC);

    /**
     * \brief Remove one origin's next hop of a prefix.
     * \param network the prefix's network
     * \param prefix its prefix
     * \param gateway the next hop
     * \param origin whose route
     * \return true when the route existed
     */
    bool RemoveRoute(Ipv6Address network,
                     Ipv6Prefix prefix,
                     Ipv6Address gateway,
                     AdcRouteOrigin origin = AdcRouteOrigin::STATIC);

    void NotifyAddRoute(Ipv6Address dst,
                        Ipv6Prefix mask,
                        Ipv6Address nextHop,
                        uint32_t interface,
                        Ipv6Address prefixToUse) override;
    void NotifyRemoveRoute(Ipv6Address dst,
                           Ipv6Prefix mask,
                           Ipv6Address nextHop,
                           uint32_t interface,
                           Ipv6Address prefixToUse) override;
    void SetIpv6(Ptr<Ipv6> ipv6) override;
};

// Defined once, in adc-ecmp-routing-base.cc.
extern template class AdcEcmpRoutingBase<AdcIpv6HookFamily, AdcEcmpRouting6>;

} // namespace ns3

#endif /* ADC_ECMP_ROUTING6_H */
