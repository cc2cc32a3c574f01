/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the handles on an ISP topology that AdcIspTopologyHelper built.
 */

#include "adc-isp-topology.h"

#include "adc-isp-topology-util.h"

#include "ns3/abort.h"
#include "ns3/adc-config-error.h"
#include "ns3/csma-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/trace-helper.h"

namespace ns3
{

using adcisp::GlobalAddress6;
using adcisp::StaticRouting;

// ---------------------------------------------------------------------------------------------
// AdcCoreAttachment

Ipv4Address
AdcCoreAttachment::GetCoreAddress() const
{
    return ipv4.GetAddress(0);
}

Ipv4Address
AdcCoreAttachment::GetNodeAddress() const
{
    return ipv4.GetAddress(1);
}

uint32_t
AdcCoreAttachment::GetCoreInterface() const
{
    return ipv4.Get(0).second;
}

uint32_t
AdcCoreAttachment::GetNodeInterface() const
{
    return ipv4.Get(1).second;
}

// ---------------------------------------------------------------------------------------------
// AdcIspTopology

const NodeContainer&
AdcIspTopology::GetClients() const
{
    return clients;
}

uint32_t
AdcIspTopology::GetNClients() const
{
    return clients.GetN();
}

Ptr<Node>
AdcIspTopology::GetClient(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < clients.GetN(), "AdcIspTopology: client index " << i);
    return clients.Get(i);
}

Ipv4Address
AdcIspTopology::GetClientAddress(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < clientInterfaces.GetN(), "AdcIspTopology: client index " << i);
    return clientInterfaces.GetAddress(i);
}

Ipv6Address
AdcIspTopology::GetClientAddress6(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < clientInterfaces6.GetN(), "AdcIspTopology: no IPv6 client " << i);
    return GlobalAddress6(clientInterfaces6, i);
}

uint32_t
AdcIspTopology::GetAccessNetworkOfClient(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < clients.GetN(), "AdcIspTopology: client index " << i);
    return i / clientsPerAccessNetwork;
}

const Ipv4InterfaceContainer&
AdcIspTopology::GetClientInterfaces() const
{
    return clientInterfaces;
}

const Ipv6InterfaceContainer&
AdcIspTopology::GetClientInterfaces6() const
{
    return clientInterfaces6;
}

uint32_t
AdcIspTopology::GetNAccessNetworks() const
{
    return accessRouters.GetN();
}

void
AdcIspTopology::CheckAccessIndex(uint32_t a) const
{
    if (a >= accessRouters.GetN())
    {
        throw AdcConfigError("AdcIspTopology: access network " + std::to_string(a) +
                             " does not exist; valid indices are 0.." +
                             std::to_string(static_cast<int64_t>(accessRouters.GetN()) - 1));
    }
}

const NodeContainer&
AdcIspTopology::GetAccessNetworkClients(uint32_t a) const
{
    CheckAccessIndex(a);
    return accessNetworkClients[a];
}

const NodeContainer&
AdcIspTopology::GetAccessRouters() const
{
    return accessRouters;
}

Ptr<Node>
AdcIspTopology::GetAccessRouter(uint32_t a) const
{
    CheckAccessIndex(a);
    return accessRouters.Get(a);
}

const NetDeviceContainer&
AdcIspTopology::GetAccessLanDevices(uint32_t a) const
{
    CheckAccessIndex(a);
    return accessLanDevices[a];
}

const NetDeviceContainer&
AdcIspTopology::GetAccessUplinkDevices(uint32_t a) const
{
    CheckAccessIndex(a);
    return accessUplinkDevices[a];
}

Ipv4Address
AdcIspTopology::GetAccessNetworkPrefix(uint32_t a) const
{
    CheckAccessIndex(a);
    return accessPrefixes[a];
}

Ptr<Node>
AdcIspTopology::GetCoreRouter() const
{
    return coreRouter;
}

Ptr<Node>
AdcIspTopology::GetDcGateway() const
{
    return dcGateway;
}

const NetDeviceContainer&
AdcIspTopology::GetCoreDcDevices() const
{
    return coreDcDevices;
}

const NetDeviceContainer&
AdcIspTopology::GetServerLanDevices() const
{
    return serverLanDevices;
}

const NodeContainer&
AdcIspTopology::GetServers() const
{
    return servers;
}

uint32_t
AdcIspTopology::GetNServers() const
{
    return servers.GetN();
}

Ptr<Node>
AdcIspTopology::GetServer(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < servers.GetN(), "AdcIspTopology: server index " << i);
    return servers.Get(i);
}

Ipv4Address
AdcIspTopology::GetServerAddress(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < serverInterfaces.GetN(), "AdcIspTopology: server index " << i);
    return serverInterfaces.GetAddress(i);
}

Ipv6Address
AdcIspTopology::GetServerAddress6(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < serverInterfaces6.GetN(), "AdcIspTopology: no IPv6 server " << i);
    return GlobalAddress6(serverInterfaces6, i);
}

const Ipv4InterfaceContainer&
AdcIspTopology::GetServerInterfaces() const
{
    return serverInterfaces;
}

const Ipv6InterfaceContainer&
AdcIspTopology::GetServerInterfaces6() const
{
    return serverInterfaces6;
}

Ptr<Ipv4StaticRouting>
AdcIspTopology::GetCoreStaticRouting() const
{
    NS_ABORT_MSG_UNLESS(coreRouter, "AdcIspTopology: not built");
    return StaticRouting(coreRouter->GetObject<Ipv4>());
}

uint32_t
AdcIspTopology::GetNCoreRoutes() const
{
    return GetCoreStaticRouting()->GetNRoutes();
}

std::vector<std::string>
AdcIspTopology::EnablePcap(const std::string& prefix, AdcTopologyLink which, uint32_t index) const
{
    NetDeviceContainer devs;
    bool lan = false;
    switch (which)
    {
    case AdcTopologyLink::CORE_DC:
        devs = coreDcDevices;
        break;
    case AdcTopologyLink::ACCESS_UPLINK:
        CheckAccessIndex(index);
        devs = accessUplinkDevices[index];
        break;
    case AdcTopologyLink::SERVER_LAN:
        lan = true;
        if (serverLanDevices.GetN() > 0)
        {
            devs.Add(serverLanDevices.Get(0));
        }
        break;
    case AdcTopologyLink::ACCESS_LAN:
        lan = true;
        CheckAccessIndex(index);
        devs.Add(accessLanDevices[index].Get(0));
        break;
    }
    if (devs.GetN() == 0)
    {
        throw AdcConfigError("AdcIspTopology: EnablePcap on a link this topology does not have "
                             "(no DC side: NumServers was 0)");
    }
    // A LAN is captured promiscuously at its router: one file shows the whole LAN.
    if (lan)
    {
        CsmaHelper().EnablePcap(prefix, devs, true);
    }
    else
    {
        PointToPointHelper().EnablePcap(prefix, devs, false);
    }
    std::vector<std::string> names;
    PcapHelper pcap;
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        names.push_back(pcap.GetFilenameFromDevice(prefix, devs.Get(i)));
    }
    return names;
}

} // namespace ns3
