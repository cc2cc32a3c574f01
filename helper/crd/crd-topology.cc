/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crd-topology.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/csma-net-device.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-helper.h"

namespace ns3
{

std::vector<Ptr<Node>>
CrdTopology::GetLowerTierBalancers() const
{
    std::vector<Ptr<Node>> out;
    for (uint32_t b = 0; b < lowerTierServices.size(); ++b)
    {
        out.push_back(upper.GetN() > 0 ? upper.Get(b) : router);
    }
    return out;
}

int32_t
CrdTopology::GetMissGatewayInUse(uint32_t cache) const
{
    if (cache >= missRules.size())
    {
        throw AdcConfigError("CrdTopology: cache " + std::to_string(cache) + " does not exist (" +
                             std::to_string(missRules.size()) + " caches)");
    }
    for (uint32_t h = 0; h < missPreference[cache].size(); ++h)
    {
        if (switchRouting->IsNextHopUp(missRules[cache], h))
        {
            return static_cast<int32_t>(missPreference[cache][h]);
        }
    }
    return -1;
}

Ptr<Node>
CrdTopology::FindAppliance(const std::string& name) const
{
    const std::string gw = "gateway:";
    const bool gateway = name.rfind(gw, 0) == 0;
    const std::string target = gateway ? name.substr(gw.size()) : name;
    std::string allowed;
    const std::vector<std::pair<const std::vector<std::string>*, const NodeContainer*>> groups{
        {&upperNames, &upper},
        {&lowerNames, &lower},
        {&cacheNames, &caches}};
    for (const auto& [names, nodes] : groups)
    {
        for (uint32_t i = 0; i < names->size(); ++i)
        {
            if ((*names)[i] == target && (!gateway || nodes == &caches))
            {
                return gateway ? lower.Get(missGateway[i]) : nodes->Get(i);
            }
        }
        if (!names->empty())
        {
            allowed += (allowed.empty() ? "" : ", ") + names->front() + ".." + names->back();
        }
    }
    throw AdcConfigError("'" + name + "' is no appliance of this topology; allowed: " + allowed +
                         (caches.GetN() > 0 ? ", or gateway:" + cacheNames.front() + ".." +
                                                  cacheNames.back() + " (a cache's miss gateway)"
                                            : std::string()));
}

std::string
CrdTopology::NameOf(Ptr<Node> node) const
{
    auto it = names.find(node->GetId());
    return it == names.end() ? std::string() : it->second;
}

int64_t
CrdTopology::AssignStreams(int64_t stream) const
{
    const int64_t first = stream;
    stream += AdcAssignNetworkStreams(stream);
    for (const auto* monitors : {&upperMonitors, &lowerMonitors})
    {
        for (const auto& m : *monitors)
        {
            stream += m->AssignStreams(stream);
        }
    }
    for (const Ptr<AdcHealthMonitor>& m : {switchMonitor, routerMonitor})
    {
        if (m)
        {
            stream += m->AssignStreams(stream);
        }
    }
    return stream - first;
}

void
CrdTopology::TraceNodes(Ptr<AdcPathTracer> tracer) const
{
    // Ordered by node id, so the tracer's order does not depend on the map's hashing.
    for (const auto& [id, name] : names)
    {
        tracer->AddNode(NodeList::GetNode(id), name);
    }
}

std::vector<std::string>
CrdTopology::GetLinkNames() const
{
    std::vector<std::string> out;
    for (const auto& [name, devs] : links)
    {
        out.push_back(name);
    }
    return out;
}

void
CrdTopology::EnablePcap(const std::string& prefix, const std::string& link) const
{
    auto it = links.find(link);
    if (it == links.end())
    {
        throw AdcConfigError::NotOneOf("CrdTopology", "pcap link", link, GetLinkNames());
    }
    PointToPointHelper p2p;
    p2p.EnablePcap(prefix + "-" + link, it->second);
}

} // namespace ns3
