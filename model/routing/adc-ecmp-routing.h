/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: an IPv4 routing protocol with per-flow equal-cost multipath (ns-3's own
 * routing has only per-packet random ECMP). The behaviour is AdcEcmpRoutingBase's, shared
 * with IPv6 (AdcEcmpRouting6).
 */

#ifndef ADC_ECMP_ROUTING_H
#define ADC_ECMP_ROUTING_H

#include "adc-ecmp-routing-base.h"

#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Per-flow ECMP routing for IPv4 (ns3::AdcEcmpRouting): AdcEcmpRoutingBase with
 * prefixes written as network and mask.
 *
 * Install it in front of the static and global routing of an Ipv4ListRouting
 * (AddRoutingProtocol with a higher priority): packets to a prefix it has no usable route for
 * fall through to them; Ipv4ListRouting delivers local packets itself.
 */
class AdcEcmpRouting : public AdcEcmpRoutingBase<AdcIpv4HookFamily, AdcEcmpRouting>
{
  public:
    AdcEcmpRouting();
    ~AdcEcmpRouting() override;

    /**
     * \brief Add one equal-cost next hop of a prefix (joining the prefix's group).
     * \param network the prefix's network
     * \param mask its mask (contiguous)
     * \param gateway the next hop's address
     * \param interface the interface to it
     * \param origin who adds it (STATIC unless a routing protocol learnt it)
     * \throw AdcConfigError for a mask that is not contiguous
     */
    void AddRoute(Ipv4Address network,
                  Ipv4Mask mask,
                  Ipv4Address gateway,
                  uint32_t interface,
                  AdcRouteOrigin origin = AdcRouteOrigin::STATIC);

    /**
     * \brief Remove one origin's next hop of a prefix (the flows it carried move as Mode
     * says; a route of another origin to the same next hop stays).
     * \param network the prefix's network
     * \param mask its mask
     * \param gateway the next hop
     * \param origin whose route
     * \return true when the route existed
     */
    bool RemoveRoute(Ipv4Address network,
                     Ipv4Mask mask,
                     Ipv4Address gateway,
                     AdcRouteOrigin origin = AdcRouteOrigin::STATIC);

    void SetIpv4(Ptr<Ipv4> ipv4) override;
};

// Defined once, in adc-ecmp-routing-base.cc.
extern template class AdcEcmpRoutingBase<AdcIpv4HookFamily, AdcEcmpRouting>;

} // namespace ns3

#endif /* ADC_ECMP_ROUTING_H */
