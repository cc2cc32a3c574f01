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
