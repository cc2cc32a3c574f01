/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the Internet stack every topology helper installs (static routing inside a
 * list routing) and the way to put a routing protocol on top of it. An AdcDatapath (the ILB's,
 * policy routing, ...) puts itself there with AdcDatapath::Install(node), which also aggregates
 * it to the node; AdcAddTopIpv4Routing does the same for a datapath at a given priority.
 */

#ifndef ADC_STACK_HELPER_H
#define ADC_STACK_HELPER_H

#include "ns3/adc-datapath.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/node.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <type_traits>

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
 * \brief Fixed random streams for what every topology's network has: the ARP request jitter
 * of every node's stack and the backoff of every CSMA device, in node order. Numbers that ns-3
 * assigns automatically depend on what was created before (earlier runs in the process, other
 * ranks' applications); fixed ones do not.
 * \param stream first stream number
 * \return the number of streams used
 */
int64_t AdcAssignNetworkStreams(int64_t stream);

/**
 * \ingroup adc
 * \brief Add \p protocol to \p node's Ipv4ListRouting at \p priority (above static routing, 0).
 * \param node a node whose stack came from AdcMakeListStackHelper
 * \param protocol a plain routing protocol (a datapath takes the overload below)
 * \param priority its priority
 */
void AdcAddTopIpv4Routing(Ptr<Node> node, Ptr<Ipv4RoutingProtocol> protocol, int16_t priority);

/**
 * \ingroup adc
 * \brief Install an AdcDatapath on \p node at \p priority: sets its "HookPriority" and calls
 * AdcDatapath::Install (aggregated to the node; hooks in the IPv4 list, and the IPv6 list
 * when the node has IPv6).
 * \param node a node whose stack came from AdcMakeListStackHelper
 * \param datapath the datapath (e.g. AdcPolicyRouting)
 * \param priority its hooks' priority (above static routing, 0)
 * \throws AdcConfigError as AdcDatapath::Install
 */
void AdcInstallDatapath(Ptr<Node> node, Ptr<AdcDatapath> datapath, int16_t priority);

/**
 * \ingroup adc
 * \brief The same as AdcInstallDatapath, for callers that added a routing protocol before the
 * policy routing became a datapath: `AdcAddTopIpv4Routing(node, policyRouting, 100)`.
 * \tparam T an AdcDatapath subclass (other types take the routing-protocol overload)
 * \param node the node
 * \param datapath the datapath
 * \param priority its hooks' priority
 */
template <class T, std::enable_if_t<std::is_base_of_v<AdcDatapath, T>, int> = 0>
void
AdcAddTopIpv4Routing(Ptr<Node> node, Ptr<T> datapath, int16_t priority)
{
    AdcInstallDatapath(node, datapath, priority);
}

/// \brief The same for IPv6 (the node's Ipv6ListRouting).
void AdcAddTopIpv6Routing(Ptr<Node> node, Ptr<Ipv6RoutingProtocol> protocol, int16_t priority);

} // namespace ns3

#endif /* ADC_STACK_HELPER_H */
