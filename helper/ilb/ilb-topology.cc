/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ilb-topology.h"

#include "ns3/adc-config-error.h"
#include "ns3/csma-helper.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/point-to-point-helper.h"

namespace ns3
{

uint32_t
IlbTopology::GetNClients() const
{
    return clients.GetN();
}

uint32_t
IlbTopology::GetNServers() const
{
    return servers.GetN();
}

Address
IlbTopology::GetVipSocketAddress() const
{
    if (vip.IsV6())
    {
        return Inet6SocketAddress(vip.GetIpv6(), vipPort);
    }
    return InetSocketAddress(vip.GetIpv4(), vipPort);
}

Address
IlbTopology::GetServerSocketAddress(uint32_t i) const
{
    if (i >= serverAddresses.size())
    {
        throw AdcConfigError(
            "IlbTopology: server " + std::to_string(i) +
            " does not exist (NumServers = " + std::to_string(serverAddresses.size()) + ")");
    }
    const AdcIpAddress& a = serverAddresses[i];
    if (a.IsV6())
    {
        return Inet6SocketAddress(a.GetIpv6(), serverPort);
    }
    return InetSocketAddress(a.GetIpv4(), serverPort);
}

Ptr<NetDevice>
IlbTopology::GetIlbClientSideDevice() const
{
    return links.at("client-side").Get(1);
}

Ptr<NetDevice>
IlbTopology::GetIlbServerLanDevice() const
{
    return links.at("server-lan").Get(0);
}

Ptr<NetDevice>
IlbTopology::GetServerDevice(uint32_t i) const
{
    if (i >= servers.GetN())
    {
        throw AdcConfigError("IlbTopology: server " + std::to_string(i) +
                             " does not exist (NumServers = " + std::to_string(servers.GetN()) +
                             ")");
    }
    return links.at("server-lan").Get(1 + i);
}

std::string
IlbTopology::NameOf(Ptr<Node> node) const
{
    auto it = names.find(node->GetId());
    return it == names.end() ? std::string() : it->second;
}

std::vector<std::string>
IlbTopology::GetLinkNames() const
{
    std::vector<std::string> out;
    for (const auto& [name, devs] : links)
    {
        out.push_back(name);
    }
    return out;
}

void
IlbTopology::EnablePcap(const std::string& prefix, const std::string& link) const
{
    auto it = links.find(link);
    if (it == links.end())
    {
        throw AdcConfigError::NotOneOf("IlbTopology", "pcap link", link, GetLinkNames());
    }
    if (link == "server-lan")
    {
        // One promiscuous capture at the ILB's port sees every frame of the shared segment,
        // DSR's rewritten destination MACs and the servers' direct responses included.
        CsmaHelper csma;
        csma.EnablePcap(prefix + "-" + link, it->second.Get(0), true);
        return;
    }
    PointToPointHelper p2p;
    p2p.EnablePcap(prefix + "-" + link, it->second);
}

std::string
IlbTopology::Numbered(const std::string& prefix, uint32_t i)
{
    return prefix + std::to_string(i + 1);
}

} // namespace ns3
