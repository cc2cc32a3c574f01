/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CrdTopologyHelper: failing and recovering the appliances of a built topology.
 */

#include "crd-topology-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/simulator.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

namespace
{

/// The static routes a failure removed (ns-3 drops a down interface's routes and, when it
/// comes back, restores only its connected network): what a rebooted appliance's configuration
/// would install again.
using RouteSnapshot = std::vector<Ipv4RoutingTableEntry>;

/// Take every interface of \p node down (\p up false) or up again (a failure, a recovery);
/// \p routes keeps its static routes from the one to the other.
void
SetNodeUp(Ptr<Node> node, bool up, std::shared_ptr<RouteSnapshot> routes)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    Ptr<Ipv4StaticRouting> statics = Ipv4StaticRoutingHelper().GetStaticRouting(ipv4);
    if (!up && statics && routes)
    {
        routes->clear();
        for (uint32_t r = 0; r < statics->GetNRoutes(); ++r)
        {
            routes->push_back(statics->GetRoute(r));
        }
    }
    for (uint32_t i = 1; i < ipv4->GetNInterfaces(); ++i)
    {
        if (up)
        {
            ipv4->SetUp(i);
        }
        else
        {
            ipv4->SetDown(i);
        }
    }
    if (up && statics && routes)
    {
        auto present = [&statics](const Ipv4RoutingTableEntry& e) {
            for (uint32_t r = 0; r < statics->GetNRoutes(); ++r)
            {
                const Ipv4RoutingTableEntry x = statics->GetRoute(r);
                if (x.GetDestNetwork() == e.GetDestNetwork() &&
                    x.GetDestNetworkMask() == e.GetDestNetworkMask() &&
                    x.GetGateway() == e.GetGateway() && x.GetInterface() == e.GetInterface())
                {
                    return true;
                }
            }
            return false;
        };
        for (const Ipv4RoutingTableEntry& e : *routes)
        {
            if (!present(e))
            {
                statics->AddNetworkRouteTo(e.GetDestNetwork(),
                                           e.GetDestNetworkMask(),
                                           e.GetGateway(),
                                           e.GetInterface());
            }
        }
    }
}

void
NodeDown(Ptr<Node> node)
{
    SetNodeUp(node, false, nullptr);
}

/// Take node \p index of \p nodes down at \p at; \p what and \p count name it in errors.
void
ScheduleNodeDown(const NodeContainer& nodes,
                 uint32_t index,
                 Time at,
                 const std::string& what,
                 const std::string& count)
{
    if (index >= nodes.GetN())
    {
        throw AdcConfigError("CrdTopologyHelper: " + what + " " + std::to_string(index) +
                             " does not exist (" + count + " = " + std::to_string(nodes.GetN()) +
                             ")");
    }
    Simulator::Schedule(at, &NodeDown, nodes.Get(index));
}

} // namespace

void
CrdTopologyHelper::ScheduleFailure(const CrdTopology& topo,
                                   const std::string& name,
                                   Time at,
                                   Time recoverAt)
{
    Ptr<Node> node = topo.FindAppliance(name);
    if (recoverAt.IsStrictlyPositive() && recoverAt <= at)
    {
        throw AdcConfigError("CrdTopologyHelper: " + name + " recovers at " +
                             std::to_string(recoverAt.GetSeconds()) + " s, not after it fails (" +
                             std::to_string(at.GetSeconds()) + " s)");
    }
    auto routes = std::make_shared<RouteSnapshot>();
    Simulator::Schedule(at, &SetNodeUp, node, false, routes);
    if (recoverAt.IsStrictlyPositive())
    {
        Simulator::Schedule(recoverAt, &SetNodeUp, node, true, routes);
    }
}

void
CrdTopologyHelper::ScheduleLowerFailure(const CrdTopology& topo, uint32_t index, Time at)
{
    ScheduleNodeDown(topo.lower, index, at, "lower appliance", "NumLower");
}

void
CrdTopologyHelper::ScheduleCacheFailure(const CrdTopology& topo, uint32_t index, Time at)
{
    ScheduleNodeDown(topo.caches, index, at, "cache", "NumCaches");
}

} // namespace ns3
