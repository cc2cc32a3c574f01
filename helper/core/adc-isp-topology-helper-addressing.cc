/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: AdcIspTopologyHelper's addressing stage: IPv4 and IPv6 addresses of the
 * links and LANs, the aggregated static routes, attachments to the core.
 */

#include "adc-isp-topology-helper.h"
#include "adc-isp-topology-util.h"

#include "ns3/adc-config-error.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv6-address-helper.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcIspTopologyHelperAddressing");

using namespace adcisp;

namespace
{

/// \param c interfaces \param from first index \return a container of the devices from index on
NetDeviceContainer
DevicesFrom(const NetDeviceContainer& c, uint32_t from)
{
    NetDeviceContainer out;
    for (uint32_t i = from; i < c.GetN(); ++i)
    {
        out.Add(c.Get(i));
    }
    return out;
}

/**
 * \brief What Ipv4AddressHelper::Assign does for hosts numbered from .2 of \p net (the router
 * holds .1), without the default root queue disc it installs on each device: an interface,
 * the address (registered with Ipv4AddressGenerator, so a later helper sees it taken), metric
 * 1, up.
 * \param devs the hosts' devices \param net the network \param mask its mask
 * \return the interfaces
 */
Ipv4InterfaceContainer
AssignWithoutQueueDiscs(const NetDeviceContainer& devs, Ipv4Address net, Ipv4Mask mask)
{
    Ipv4InterfaceContainer out;
    for (uint32_t k = 0; k < devs.GetN(); ++k)
    {
        Ptr<NetDevice> dev = devs.Get(k);
        Ptr<Ipv4> ipv4 = dev->GetNode()->GetObject<Ipv4>();
        int32_t i = ipv4->GetInterfaceForDevice(dev);
        if (i == -1)
        {
            i = ipv4->AddInterface(dev);
        }
        const Ipv4Address address(net.Get() + 2 + k);
        Ipv4AddressGenerator::AddAllocated(address);
        ipv4->AddAddress(i, Ipv4InterfaceAddress(address, mask));
        ipv4->SetMetric(i, 1);
        ipv4->SetUp(i);
        out.Add(ipv4, i);
    }
    return out;
}

/// \param hosts host interfaces \param gateway next hop: default route on every host
void
SetDefaultRoutes(const Ipv4InterfaceContainer& hosts, Ipv4Address gateway)
{
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        const auto [ipv4, iface] = hosts.Get(i);
        StaticRouting(ipv4)->SetDefaultRoute(gateway, iface);
    }
}

/// \param hosts host interfaces \param gateway next hop: default route on every host
void
SetDefaultRoutes6(const Ipv6InterfaceContainer& hosts, Ipv6Address gateway)
{
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        const auto [ipv6, iface] = hosts.Get(i);
        StaticRouting6(ipv6)->SetDefaultRoute(gateway, iface);
    }
}

/**
 * \brief Like Ipv6AddressHelper::Assign, but with sequential interface ids: device i gets
 * \p subnet + \p firstHost + i (/64).
 *
 * The addresses are set directly rather than through Ipv6AddressHelper::NewAddress(): the
 * global IPv6 address generator's duplicate check keeps (in ns-3.37) about one block per address
 * and scans them all on every allocation, which is quadratic at 10,000 hosts. The plan itself
 * (distinct /64 per subnet of Ipv6Base) keeps the addresses unique.
 * \param devs devices
 * \param subnet the /64
 * \param firstHost interface id of the first device
 * \return their interfaces
 */
Ipv6InterfaceContainer
AssignSequential6(const NetDeviceContainer& devs, Ipv6Address subnet, uint32_t firstHost)
{
    Ipv6InterfaceContainer ifs = Ipv6AddressHelper().AssignWithoutAddress(devs);
    uint8_t bytes[16];
    subnet.GetBytes(bytes);
    for (uint32_t i = 0; i < ifs.GetN(); ++i)
    {
        const uint32_t host = firstHost + i;
        for (int b = 0; b < 4; ++b)
        {
            bytes[15 - b] = static_cast<uint8_t>(host >> (8 * b));
        }
        const auto [ipv6, iface] = ifs.Get(i);
        ipv6->AddAddress(iface, Ipv6InterfaceAddress(Ipv6Address(bytes), Ipv6Prefix(64)));
    }
    return ifs;
}

/// \param c interfaces: enable IPv6 forwarding on all of them (router interfaces)
void
SetForwarding6(Ipv6InterfaceContainer& c)
{
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        c.SetForwarding(i, true);
    }
}

} // namespace

Ipv4Address
AdcIspTopologyHelper::LinkNetwork(uint32_t k) const
{
    if (uint64_t{k} >= BlockSize(m_linkMask) / 4)
    {
        throw AdcConfigError(Where("LinkBase") + "'" + m_linkBase + "' has no /30 left for link " +
                             std::to_string(k) + "; give a larger pool");
    }
    return Ipv4Address(m_linkNet.Get() + 4 * k);
}

Ipv6Address
AdcIspTopologyHelper::Ipv6Subnet(uint16_t subnet) const
{
    uint8_t bytes[16];
    m_ipv6Base.GetBytes(bytes);
    bytes[6] = static_cast<uint8_t>(subnet >> 8);
    bytes[7] = static_cast<uint8_t>(subnet & 0xff);
    return Ipv6Address(bytes);
}

void
AdcIspTopologyHelper::CheckAddressesFree(const std::vector<Ipv4Address>& addrs) const
{
    // Ipv4AddressHelper aborts the process on a collision; a clear exception is kinder.
    // ns-3.37's IsAddressAllocated() answers inverted (later releases fix it): calibrate it on
    // the limited-broadcast address, which no address helper ever allocates.
    const bool unallocatedAnswer =
        Ipv4AddressGenerator::IsAddressAllocated(Ipv4Address::GetBroadcast());
    for (const Ipv4Address& addr : addrs)
    {
        if (Ipv4AddressGenerator::IsAddressAllocated(addr) != unallocatedAnswer)
        {
            std::ostringstream os;
            os << "AdcIspTopologyHelper: address " << addr
               << " is already allocated in this simulation (a second Build() with the same "
                  "ClientBase/ServerBase/LinkBase, or an overlapping block); use other bases "
                  "or call Simulator::Destroy() between builds";
            throw AdcConfigError(os.str());
        }
    }
}

std::vector<Ipv4Address>
AdcIspTopologyHelper::FirstAddresses() const
{
    std::vector<Ipv4Address> firsts;
    for (uint32_t a = 0; a < m_numAccessNetworks; ++a)
    {
        firsts.emplace_back(m_clientBase.Get() + (a << 16) + 1);
    }
    const uint32_t nLinks = m_numAccessNetworks + (m_numServers > 0 ? 1 : 0);
    for (uint32_t k = 0; k < nLinks; ++k)
    {
        firsts.emplace_back(LinkNetwork(k).Get() + 1);
    }
    if (m_numServers > 0)
    {
        firsts.emplace_back(m_serverNet.Get() + 1);
    }
    return firsts;
}

AdcIspTopology
AdcIspTopologyHelper::AssignAddressesAndRoutes()
{
    NS_LOG_FUNCTION(this);
    RequireStage(Stage::STACKED, "AssignAddressesAndRoutes()");

    for (uint32_t a = 0; a < m_numAccessNetworks; ++a)
    {
        AddressAccessNetwork(a);
    }
    AddressDataCentre();
    m_nextLink = m_numAccessNetworks + (m_topo.dcGateway ? 1 : 0);
    m_nextLink6 = m_nextLink;
    m_stage = Stage::BUILT;
    return m_topo;
}

Ipv4InterfaceContainer
AdcIspTopologyHelper::AddressLink(const NetDeviceContainer& devs,
                                  Ipv4Address net,
                                  Ipv4Mask mask,
                                  uint32_t k,
                                  Ipv6InterfaceContainer* v6)
{
    Ipv4AddressHelper v4(net, mask);
    const Ipv4InterfaceContainer ifs = v4.Assign(devs);
    if (m_installIpv6 && v6 != nullptr)
    {
        *v6 = AssignSequential6(devs, Ipv6Subnet(LINK_SUBNET6 + k), 1);
        SetForwarding6(*v6);
    }
    return ifs;
}

AdcIspTopologyHelper::LanAddresses
AdcIspTopologyHelper::AddressLan(const NetDeviceContainer& devs,
                                 Ipv4Address net,
                                 Ipv4Mask mask,
                                 uint16_t subnet6,
                                 bool hostQueueDiscs)
{
    // Router first, so it always holds the LAN's first address; hosts route via it.
    LanAddresses out;
    const NetDeviceContainer routerDev(devs.Get(0));
    const NetDeviceContainer hostDevs = DevicesFrom(devs, 1);
    Ipv4AddressHelper v4(net, mask);
    out.router = v4.Assign(routerDev);
    out.hosts = hostQueueDiscs ? v4.Assign(hostDevs) : AssignWithoutQueueDiscs(hostDevs, net, mask);
    SetDefaultRoutes(out.hosts, out.router.GetAddress(0));
    if (m_installIpv6)
    {
        out.router6 = AssignSequential6(routerDev, Ipv6Subnet(subnet6), 1);
        SetForwarding6(out.router6);
        out.hosts6 = AssignSequential6(hostDevs, Ipv6Subnet(subnet6), 2);
        SetDefaultRoutes6(out.hosts6, GlobalAddress6(out.router6, 0));
    }
    return out;
}

void
AdcIspTopologyHelper::RouteLanViaLink(const Ipv4InterfaceContainer& link,
                                      const Ipv6InterfaceContainer& link6,
                                      Ipv4Address net,
                                      Ipv4Mask mask,
                                      uint16_t subnet6)
{
    // The core holds one aggregated route per LAN; the LAN's router defaults to the core.
    StaticRouting(link.Get(0).first)
        ->AddNetworkRouteTo(net, mask, link.GetAddress(1), link.Get(0).second);
    StaticRouting(link.Get(1).first)->SetDefaultRoute(link.GetAddress(0), link.Get(1).second);
    if (m_installIpv6)
    {
        StaticRouting6(link6.Get(0).first)
            ->AddNetworkRouteTo(Ipv6Subnet(subnet6),
                                Ipv6Prefix(64),
                                GlobalAddress6(link6, 1),
                                link6.Get(0).second);
        StaticRouting6(link6.Get(1).first)
            ->SetDefaultRoute(GlobalAddress6(link6, 0), link6.Get(1).second);
    }
}

void
AdcIspTopologyHelper::AddressAccessNetwork(uint32_t a)
{
    Ipv6InterfaceContainer up6;
    const Ipv4InterfaceContainer up =
        AddressLink(m_topo.accessUplinkDevices[a], LinkNetwork(a), LINK_MASK, a, &up6);
    const Ipv4Address prefix = m_topo.accessPrefixes[a];
    const auto subnet6 = static_cast<uint16_t>(a);
    const LanAddresses lan =
        AddressLan(m_topo.accessLanDevices[a], prefix, ACCESS_MASK, subnet6, m_clientQueueDisc);
    m_topo.clientInterfaces.Add(lan.hosts);
    m_topo.clientInterfaces6.Add(lan.hosts6);
    RouteLanViaLink(up, up6, prefix, ACCESS_MASK, subnet6);
}

void
AdcIspTopologyHelper::AddressDataCentre()
{
    if (!m_topo.dcGateway)
    {
        return;
    }
    Ipv6InterfaceContainer up6;
    const Ipv4InterfaceContainer up = AddressLink(m_topo.coreDcDevices,
                                                  LinkNetwork(m_numAccessNetworks),
                                                  LINK_MASK,
                                                  m_numAccessNetworks,
                                                  &up6);
    const LanAddresses lan =
        AddressLan(m_topo.serverLanDevices, m_serverNet, m_serverMask, SERVER_SUBNET6);
    m_topo.serverInterfaces = lan.hosts;
    m_topo.serverInterfaces6 = lan.hosts6;
    RouteLanViaLink(up, up6, m_serverNet, m_serverMask, SERVER_SUBNET6);
}

AdcCoreAttachment
AdcIspTopologyHelper::AttachToCore(Ptr<Node> node, bool setDefaultRoute)
{
    RequireStage(Stage::BUILT, "AttachToCore()");
    const AdcCoreAttachment out =
        AttachToCore(node, LinkNetwork(m_nextLink), LINK_MASK, setDefaultRoute);
    ++m_nextLink; // only now: a failed attachment leaves the pool as it was
    return out;
}

AdcCoreAttachment
AdcIspTopologyHelper::AttachToCore(Ptr<Node> node,
                                   Ipv4Address network,
                                   Ipv4Mask mask,
                                   bool setDefaultRoute)
{
    NS_LOG_FUNCTION(this << node << network << mask);
    RequireStage(Stage::BUILT, "AttachToCore()");
    if (!node || node == m_topo.coreRouter)
    {
        throw AdcConfigError("AdcIspTopologyHelper: AttachToCore needs a node other than the core");
    }
    std::ostringstream block;
    block << network << "/" << PrefixLength(mask);
    if (PrefixLength(mask) > 30 || (network.Get() & ~mask.Get()) != 0)
    {
        throw AdcConfigError("AdcIspTopologyHelper: AttachToCore block " + block.str() +
                             " is not a network of at least two hosts (prefix length <= 30)");
    }
    CheckAddressesFree({Ipv4Address(network.Get() + 1), Ipv4Address(network.Get() + 2)});

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(m_coreDcRate));
    p2p.SetChannelAttribute("Delay", TimeValue(m_coreDcDelay));
    AdcCoreAttachment out;
    out.devices = p2p.Install(m_topo.coreRouter, node);
    out.network = network;
    out.mask = mask;
    EnsureStack(node);
    // An attached node without IPv6 (stack installed by the caller) gets an IPv4-only link.
    const bool withIpv6 = m_installIpv6 && node->GetObject<Ipv6>();
    const uint32_t k = m_nextLink6++;
    out.ipv4 = AddressLink(out.devices, network, mask, k, withIpv6 ? &out.ipv6 : nullptr);
    if (setDefaultRoute)
    {
        StaticRouting(node->GetObject<Ipv4>())
            ->SetDefaultRoute(out.GetCoreAddress(), out.GetNodeInterface());
        if (out.ipv6.GetN() == 2)
        {
            StaticRouting6(node->GetObject<Ipv6>())
                ->SetDefaultRoute(GlobalAddress6(out.ipv6, 0), out.ipv6.Get(1).second);
        }
    }
    return out;
}

void
AdcIspTopologyHelper::AddCoreRoute(Ipv4Address network, Ipv4Mask mask, const AdcCoreAttachment& via)
{
    NS_LOG_FUNCTION(this << network << mask);
    RequireStage(Stage::BUILT, "AddCoreRoute()");
    StaticRouting(m_topo.coreRouter->GetObject<Ipv4>())
        ->AddNetworkRouteTo(network, mask, via.GetNodeAddress(), via.GetCoreInterface());
}

} // namespace ns3
