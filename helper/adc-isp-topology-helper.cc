/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: an ISP access + core + data-centre topology that scales to 10,000+ clients.
 */

#include "adc-isp-topology-helper.h"

#include "adc-stack-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/csma-helper.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-address-helper.h"
#include "ns3/ipv6-list-routing-helper.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6-static-routing-helper.h"
#include "ns3/ipv6-static-routing.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/string.h"
#include "ns3/trace-helper.h"
#include "ns3/uinteger.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcIspTopologyHelper");

NS_OBJECT_ENSURE_REGISTERED(AdcIspTopologyHelper);

namespace
{

/// Mask of a /16 access network.
const Ipv4Mask ACCESS_MASK("255.255.0.0");
/// Mask of a point-to-point link.
const Ipv4Mask LINK_MASK("255.255.255.252");
/// IPv6 subnet id of the server LAN.
constexpr uint16_t SERVER_SUBNET6 = 0xffff;
/// First IPv6 subnet id of the point-to-point links.
constexpr uint16_t LINK_SUBNET6 = 0x8000;

/// \return a message prefix naming the helper and a setting
std::string
Where(const std::string& setting)
{
    return "AdcIspTopologyHelper: " + setting + " ";
}

/// \param mask a contiguous mask \return its prefix length
uint32_t
PrefixLength(Ipv4Mask mask)
{
    return mask.GetPrefixLength();
}

/// \param mask a mask \return number of addresses in the block
uint64_t
BlockSize(Ipv4Mask mask)
{
    return uint64_t{1} << (32 - PrefixLength(mask));
}

/**
 * \brief Parse "a.b.c.d/len" into network and mask.
 * \param text the prefix text
 * \param setting attribute name for messages
 * \param[out] net network address
 * \param[out] mask mask
 */
void
ParsePrefix(const std::string& text, const std::string& setting, Ipv4Address* net, Ipv4Mask* mask)
{
    const std::string usage = "; expected a network such as 172.16.0.0/24 (prefix length 0..30)";
    const auto slash = text.find('/');
    if (slash == std::string::npos)
    {
        throw AdcConfigError(Where(setting) + "'" + text + "' has no '/length'" + usage);
    }
    const std::string addrText = text.substr(0, slash);
    const std::string lenText = text.substr(slash + 1);
    in_addr parsed{};
    if (inet_pton(AF_INET, addrText.c_str(), &parsed) != 1)
    {
        throw AdcConfigError(Where(setting) + "'" + text + "' is not an IPv4 address" + usage);
    }
    char* end = nullptr;
    errno = 0;
    const unsigned long len = std::strtoul(lenText.c_str(), &end, 10);
    if (lenText.empty() || *end != '\0' || errno != 0 || len > 30)
    {
        throw AdcConfigError(Where(setting) + "'" + text + "' has a bad prefix length" + usage);
    }
    const uint32_t maskBits = len == 0 ? 0 : ~uint32_t{0} << (32 - len);
    const uint32_t addr = ntohl(parsed.s_addr);
    if ((addr & ~maskBits) != 0)
    {
        throw AdcConfigError(Where(setting) + "'" + text + "' has host bits set" + usage);
    }
    *net = Ipv4Address(addr);
    *mask = Ipv4Mask(maskBits);
}

/// An inclusive IPv4 address range, for overlap checks.
struct Range
{
    uint64_t lo;      //!< first address
    uint64_t hi;      //!< last address
    std::string name; //!< setting that defines it
};

/// \param ipv4 a node's IPv4 \return its static routing protocol
Ptr<Ipv4StaticRouting>
StaticRouting(Ptr<Ipv4> ipv4)
{
    Ptr<Ipv4StaticRouting> routing = Ipv4StaticRoutingHelper().GetStaticRouting(ipv4);
    NS_ABORT_MSG_UNLESS(routing, "AdcIspTopologyHelper: node has no IPv4 static routing");
    return routing;
}

/// \param ipv6 a node's IPv6 \return its static routing protocol
Ptr<Ipv6StaticRouting>
StaticRouting6(Ptr<Ipv6> ipv6)
{
    Ptr<Ipv6StaticRouting> routing = Ipv6StaticRoutingHelper().GetStaticRouting(ipv6);
    NS_ABORT_MSG_UNLESS(routing, "AdcIspTopologyHelper: node has no IPv6 static routing");
    return routing;
}

/// \param c interfaces \param i index \return the first global address of interface i
Ipv6Address
GlobalAddress6(const Ipv6InterfaceContainer& c, uint32_t i)
{
    const auto [ipv6, iface] = c.Get(i);
    for (uint32_t j = 0; j < ipv6->GetNAddresses(iface); ++j)
    {
        const Ipv6InterfaceAddress a = ipv6->GetAddress(iface, j);
        if (a.GetScope() == Ipv6InterfaceAddress::GLOBAL)
        {
            return a.GetAddress();
        }
    }
    return Ipv6Address::GetAny();
}

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

// ---------------------------------------------------------------------------------------------
// AdcIspTopologyHelper

TypeId
AdcIspTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcIspTopologyHelper")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcIspTopologyHelper>()
            .AddAttribute("NumAccessNetworks",
                          "Number of access networks (each one CSMA LAN with its access router).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&AdcIspTopologyHelper::m_numAccessNetworks),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ClientsPerAccessNetwork",
                          "Clients in each access network (1..65533: one /16 each).",
                          UintegerValue(100),
                          MakeUintegerAccessor(&AdcIspTopologyHelper::m_clientsPerNet),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NumServers",
                          "Servers on the data-centre LAN; 0 builds no DC gateway and no LAN.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&AdcIspTopologyHelper::m_numServers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NumPartitions",
                          "MPI partitions: access network a is created on system id "
                          "a % NumPartitions; core and DC on 0.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&AdcIspTopologyHelper::m_numPartitions),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AccessLanDataRate",
                          "Data rate of each access LAN.",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&AdcIspTopologyHelper::m_accessLanRate),
                          MakeDataRateChecker())
            .AddAttribute("AccessLanDelay",
                          "Propagation delay of each access LAN.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&AdcIspTopologyHelper::m_accessLanDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AccessUplinkDataRate",
                          "Data rate of each access router's uplink to the core.",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&AdcIspTopologyHelper::m_uplinkRate),
                          MakeDataRateChecker())
            .AddAttribute("AccessUplinkDelay",
                          "Propagation delay of each access uplink.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&AdcIspTopologyHelper::m_uplinkDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CoreDcDataRate",
                          "Data rate of the core <-> DC gateway link (and of AttachToCore links).",
                          DataRateValue(DataRate("40Gbps")),
                          MakeDataRateAccessor(&AdcIspTopologyHelper::m_coreDcRate),
                          MakeDataRateChecker())
            .AddAttribute("CoreDcDelay",
                          "Propagation delay of the core <-> DC link (and of AttachToCore links).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&AdcIspTopologyHelper::m_coreDcDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ServerLanDataRate",
                          "Data rate of the server LAN.",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&AdcIspTopologyHelper::m_serverLanRate),
                          MakeDataRateChecker())
            .AddAttribute("ServerLanDelay",
                          "Propagation delay of the server LAN.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&AdcIspTopologyHelper::m_serverLanDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ClientBase",
                          "Network of access network 0; access network a uses ClientBase + a "
                          "as a /16 (10.0.0.0 gives 10.a.0.0/16).",
                          Ipv4AddressValue(Ipv4Address("10.0.0.0")),
                          MakeIpv4AddressAccessor(&AdcIspTopologyHelper::m_clientBase),
                          MakeIpv4AddressChecker())
            .AddAttribute("ServerBase",
                          "Server LAN prefix 'a.b.c.d/len': gateway first address, then servers.",
                          StringValue("172.16.0.0/24"),
                          MakeStringAccessor(&AdcIspTopologyHelper::m_serverBase),
                          MakeStringChecker())
            .AddAttribute("LinkBase",
                          "Pool 'a.b.c.d/len' of /30 blocks for the point-to-point links.",
                          StringValue("192.168.0.0/16"),
                          MakeStringAccessor(&AdcIspTopologyHelper::m_linkBase),
                          MakeStringChecker())
            .AddAttribute("InstallIpv6",
                          "Also install, address and statically route IPv6 (IPv4 always).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcIspTopologyHelper::m_installIpv6),
                          MakeBooleanChecker())
            .AddAttribute("Ipv6Base",
                          "IPv6 /48 for the whole topology (InstallIpv6 only).",
                          Ipv6AddressValue(Ipv6Address("fd00::")),
                          MakeIpv6AddressAccessor(&AdcIspTopologyHelper::m_ipv6Base),
                          MakeIpv6AddressChecker());
    return tid;
}

AdcIspTopologyHelper::AdcIspTopologyHelper()
{
    NS_LOG_FUNCTION(this);
}

AdcIspTopologyHelper::~AdcIspTopologyHelper()
{
    NS_LOG_FUNCTION(this);
}

void
AdcIspTopologyHelper::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_topo = AdcIspTopology();
    m_stage = Stage::NONE;
    Object::DoDispose();
}

void
AdcIspTopologyHelper::Validate() const
{
    const auto range = [](const std::string& setting, uint64_t value, uint64_t lo, uint64_t hi) {
        if (value < lo || value > hi)
        {
            throw AdcConfigError(Where(setting) + std::to_string(value) + " is out of range; " +
                                 "allowed " + std::to_string(lo) + ".." + std::to_string(hi) +
                                 " (maximum " + std::to_string(hi) + ")");
        }
    };
    range("NumAccessNetworks", m_numAccessNetworks, 1, MAX_ACCESS_NETWORKS);
    range("ClientsPerAccessNetwork", m_clientsPerNet, 1, MAX_CLIENTS_PER_ACCESS_NETWORK);
    range("NumPartitions", m_numPartitions, 1, UINT32_MAX);

    const std::pair<const char*, DataRate> rates[] = {{"AccessLanDataRate", m_accessLanRate},
                                                      {"AccessUplinkDataRate", m_uplinkRate},
                                                      {"CoreDcDataRate", m_coreDcRate},
                                                      {"ServerLanDataRate", m_serverLanRate}};
    for (const auto& [name, rate] : rates)
    {
        if (rate.GetBitRate() == 0)
        {
            throw AdcConfigError(Where(name) + "0bps is not allowed; give a positive rate");
        }
    }

    const uint32_t clientBase = m_clientBase.Get();
    if ((clientBase & 0xffff) != 0)
    {
        std::ostringstream os;
        os << Where("ClientBase") << "'" << m_clientBase
           << "' is not /16-aligned; give e.g. 10.0.0.0 (the last two bytes 0)";
        throw AdcConfigError(os.str());
    }
    const uint64_t clientEnd = uint64_t{clientBase} + (uint64_t{m_numAccessNetworks} << 16) - 1;
    if (clientEnd > UINT32_MAX)
    {
        std::ostringstream os;
        os << Where("ClientBase") << "'" << m_clientBase << "' leaves no room for "
           << m_numAccessNetworks << " /16 access networks";
        throw AdcConfigError(os.str());
    }

    Ipv4Address serverNet;
    Ipv4Mask serverMask;
    ParsePrefix(m_serverBase, "ServerBase", &serverNet, &serverMask);
    const uint64_t maxServers = BlockSize(serverMask) - 3; // network, broadcast, gateway
    range("NumServers (for ServerBase " + m_serverBase + ")", m_numServers, 0, maxServers);

    Ipv4Address linkNet;
    Ipv4Mask linkMask;
    ParsePrefix(m_linkBase, "LinkBase", &linkNet, &linkMask);
    const uint64_t links = m_numAccessNetworks + (m_numServers > 0 ? 1 : 0);
    if (BlockSize(linkMask) / 4 < links)
    {
        throw AdcConfigError(Where("LinkBase") + "'" + m_linkBase + "' holds " +
                             std::to_string(BlockSize(linkMask) / 4) + " /30 links; " +
                             std::to_string(links) + " are needed");
    }

    std::vector<Range> ranges{{clientBase, clientEnd, "ClientBase"},
                              {linkNet.Get(), linkNet.Get() + BlockSize(linkMask) - 1, "LinkBase"}};
    if (m_numServers > 0)
    {
        ranges.push_back(
            {serverNet.Get(), serverNet.Get() + BlockSize(serverMask) - 1, "ServerBase"});
    }
    ranges.push_back({0x7f000000, 0x7fffffff, "the loopback block 127.0.0.0/8"});
    for (std::size_t i = 0; i < ranges.size(); ++i)
    {
        for (std::size_t j = i + 1; j < ranges.size(); ++j)
        {
            if (ranges[i].lo <= ranges[j].hi && ranges[j].lo <= ranges[i].hi)
            {
                throw AdcConfigError(Where(ranges[i].name) + "overlaps " + ranges[j].name +
                                     "; the address blocks must be disjoint");
            }
        }
    }

    if (m_installIpv6)
    {
        uint8_t bytes[16];
        m_ipv6Base.GetBytes(bytes);
        for (int i = 6; i < 16; ++i)
        {
            if (bytes[i] != 0)
            {
                std::ostringstream os;
                os << Where("Ipv6Base") << "'" << m_ipv6Base
                   << "' is not a /48 network; give e.g. fd00::";
                throw AdcConfigError(os.str());
            }
        }
    }
}

void
AdcIspTopologyHelper::RequireStage(Stage expected, const char* what) const
{
    if (m_stage != expected)
    {
        throw AdcConfigError(std::string("AdcIspTopologyHelper: ") + what +
                             " called out of order; use Build(), or CreateNodesAndLinks(), "
                             "InstallInternetStack(), AssignAddressesAndRoutes() in this order, "
                             "and AttachToCore() after them");
    }
}

AdcIspTopology
AdcIspTopologyHelper::Build()
{
    NS_LOG_FUNCTION(this);
    CreateNodesAndLinks();
    InstallInternetStack();
    return AssignAddressesAndRoutes();
}

const AdcIspTopology&
AdcIspTopologyHelper::GetTopology() const
{
    return m_topo;
}

std::vector<std::string>
AdcIspTopologyHelper::EnablePcapCoreDc(const std::string& prefix) const
{
    return m_topo.EnablePcap(prefix, AdcTopologyLink::CORE_DC);
}

std::vector<std::string>
AdcIspTopologyHelper::EnablePcapAccessUplink(const std::string& prefix,
                                             uint32_t accessNetwork) const
{
    return m_topo.EnablePcap(prefix, AdcTopologyLink::ACCESS_UPLINK, accessNetwork);
}

std::vector<std::string>
AdcIspTopologyHelper::EnablePcapServerLan(const std::string& prefix) const
{
    return m_topo.EnablePcap(prefix, AdcTopologyLink::SERVER_LAN);
}

void
AdcIspTopologyHelper::CreateNodesAndLinks()
{
    NS_LOG_FUNCTION(this);
    Validate();
    ParsePrefix(m_serverBase, "ServerBase", &m_serverNet, &m_serverMask);
    ParsePrefix(m_linkBase, "LinkBase", &m_linkNet, &m_linkMask);
    CheckAddressesFree(FirstAddresses());
    m_topo = AdcIspTopology();
    m_topo.clientsPerAccessNetwork = m_clientsPerNet;
    m_nextLink = 0;
    m_nextLink6 = 0;

    NodeContainer core;
    core.Create(1, 0);
    m_topo.coreRouter = core.Get(0);
    CreateAccessNetworks();
    CreateDataCentre();
    m_stage = Stage::LINKED;
}

void
AdcIspTopologyHelper::CreateAccessNetworks()
{
    CsmaHelper lan;
    lan.SetChannelAttribute("DataRate", DataRateValue(m_accessLanRate));
    lan.SetChannelAttribute("Delay", TimeValue(m_accessLanDelay));
    PointToPointHelper uplink;
    uplink.SetDeviceAttribute("DataRate", DataRateValue(m_uplinkRate));
    uplink.SetChannelAttribute("Delay", TimeValue(m_uplinkDelay));

    m_topo.accessNetworkClients.reserve(m_numAccessNetworks);
    m_topo.accessLanDevices.reserve(m_numAccessNetworks);
    m_topo.accessUplinkDevices.reserve(m_numAccessNetworks);
    for (uint32_t a = 0; a < m_numAccessNetworks; ++a)
    {
        const uint32_t systemId = a % m_numPartitions;
        NodeContainer router;
        router.Create(1, systemId);
        NodeContainer clients;
        clients.Create(m_clientsPerNet, systemId);
        m_topo.accessRouters.Add(router);
        m_topo.clients.Add(clients);
        m_topo.accessNetworkClients.push_back(clients);
        m_topo.accessLanDevices.push_back(lan.Install(NodeContainer(router, clients)));
        m_topo.accessUplinkDevices.push_back(uplink.Install(m_topo.coreRouter, router.Get(0)));
        m_topo.accessPrefixes.emplace_back(m_clientBase.Get() + (a << 16));
    }
}

void
AdcIspTopologyHelper::CreateDataCentre()
{
    if (m_numServers == 0)
    {
        return;
    }
    NodeContainer gateway;
    gateway.Create(1, 0);
    m_topo.dcGateway = gateway.Get(0);
    m_topo.servers.Create(m_numServers, 0);

    CsmaHelper lan;
    lan.SetChannelAttribute("DataRate", DataRateValue(m_serverLanRate));
    lan.SetChannelAttribute("Delay", TimeValue(m_serverLanDelay));
    m_topo.serverLanDevices = lan.Install(NodeContainer(gateway, m_topo.servers));

    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(m_coreDcRate));
    link.SetChannelAttribute("Delay", TimeValue(m_coreDcDelay));
    m_topo.coreDcDevices = link.Install(m_topo.coreRouter, m_topo.dcGateway);
}

InternetStackHelper
AdcIspTopologyHelper::MakeStackHelper() const
{
    // Static routing inside a list, so appliances and routers can add a policy-routing
    // protocol above it (AdcPolicyRouting) without a stack of their own.
    return AdcMakeListStackHelper(m_installIpv6);
}

void
AdcIspTopologyHelper::EnsureStack(Ptr<Node> node) const
{
    if (!node->GetObject<Ipv4>())
    {
        MakeStackHelper().Install(node);
    }
}

void
AdcIspTopologyHelper::InstallInternetStack()
{
    NS_LOG_FUNCTION(this);
    RequireStage(Stage::LINKED, "InstallInternetStack()");
    const InternetStackHelper stack = MakeStackHelper();
    stack.Install(m_topo.coreRouter);
    stack.Install(m_topo.accessRouters);
    stack.Install(m_topo.clients);
    if (m_topo.dcGateway)
    {
        stack.Install(m_topo.dcGateway);
        stack.Install(m_topo.servers);
    }
    m_stage = Stage::STACKED;
}

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
                                 uint16_t subnet6)
{
    // Router first, so it always holds the LAN's first address; hosts route via it.
    LanAddresses out;
    const NetDeviceContainer routerDev(devs.Get(0));
    const NetDeviceContainer hostDevs = DevicesFrom(devs, 1);
    Ipv4AddressHelper v4(net, mask);
    out.router = v4.Assign(routerDev);
    out.hosts = v4.Assign(hostDevs);
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
    const LanAddresses lan = AddressLan(m_topo.accessLanDevices[a], prefix, ACCESS_MASK, subnet6);
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
