/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the Internet stack every topology helper installs (static routing inside a
 * list routing) and the way to put a routing protocol on top of it. An AdcDatapath (the ILB's,
 * ...) puts itself there with AdcDatapath::Install(node), which also aggregates it to the node.
 */

#ifndef ADC_STACK_HELPER_H
#define ADC_STACK_HELPER_H

#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An Internet stack helper whose routing is static routing inside a list routing
 * (IPv4, and IPv6 when \p ipv6), so that an appliance's datapath can be added above it later
 * (AdcDatapath::Install, or AdcAddTopIpv4Routing / AdcAddTopIpv6Routing for a plain routing
 * protocol). Every topology helper of the module installs stacks with it.
 * \param ipv6 install the IPv6 stack too
 * \return the helper
 */
InternetStackHelper AdcMakeListStackHelper(bool ipv6);

/**
 * \ingroup adc
 * \brief Add \p protocol to \p node's Ipv4ListRouting at \p priority (above static routing, 0).
 * \param node a node whose stack came from AdcMakeListStackHelper
 * \param protocol a routing protocol that is not an AdcDatapath (AdcPolicyRouting); a datapath
 *        installs its own hooks and aggregates itself with AdcDatapath::Install
 * \param priority its priority
 */
void AdcAddTopIpv4Routing(Ptr<Node> node, Ptr<Ipv4RoutingProtocol> protocol, int16_t priority);

/// \brief The same for IPv6 (the node's Ipv6ListRouting).
void AdcAddTopIpv6Routing(Ptr<Node> node, Ptr<Ipv6RoutingProtocol> protocol, int16_t priority);

} // namespace ns3

#endif /* ADC_STACK_HELPER_H */
