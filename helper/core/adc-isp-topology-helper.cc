/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: an ISP access + core + data-centre topology that scales to 10,000+ clients.
 */

#include "adc-isp-topology-helper.h"

#include "adc-isp-topology-util.h"
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

using namespace adcisp;

namespace
{

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

} // namespace

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
            .AddAttribute("ClientQueueDisc",
                          "Give every client's device ns-3's default root queue disc "
                          "(FqCoDel, as Ipv4AddressHelper does). Off by default: a client's "
                          "upstream carries requests and ACKs, which never queue, and the queue "
                          "disc is a seventh of the build time at 100,000 clients. The access "
                          "routers, links and servers keep theirs.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcIspTopologyHelper::m_clientQueueDisc),
                          MakeBooleanChecker())
            .AddAttribute("AccessOffCore",
                          "MPI partition plan with NumPartitions > 1: access networks only on "
                          "system ids 1..NumPartitions-1 (a % (NumPartitions - 1) + 1), leaving "
                          "rank 0 to the core and DC (and what is attached there, such as "
                          "appliances).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcIspTopologyHelper::m_accessOffCore),
                          MakeBooleanChecker())
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
        const uint32_t systemId = m_accessOffCore && m_numPartitions > 1
                                      ? a % (m_numPartitions - 1) + 1
                                      : a % m_numPartitions;
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

} // namespace ns3
