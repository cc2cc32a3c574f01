/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gslb-topology-helper.h"

#include "gslb-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-ldns-server.h"
#include "ns3/adc-mpi.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/adc-web-user.h"
#include "ns3/config.h"
#include "ns3/csma-helper.h"
#include "ns3/csma-net-device.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GslbTopologyHelper");

NS_OBJECT_ENSURE_REGISTERED(GslbTopologyHelper);

namespace
{

/// Site s's LAN (10.(s+1).0.0/24) and its router's address there (.1).
Ipv4Address
SiteLan(uint32_t s)
{
    return Ipv4Address(("10." + std::to_string(s + 1) + ".0.0").c_str());
}

Ipv4Address
SiteGateway(uint32_t s)
{
    return Ipv4Address(SiteLan(s).Get() + 1);
}

/// Region r's LAN (10.(100+r).0.0/16) and its router's address there (.0.1).
Ipv4Address
RegionLan(uint32_t r)
{
    return Ipv4Address(("10." + std::to_string(100 + r) + ".0.0").c_str());
}

Ipv4Address
RegionGateway(uint32_t r)
{
    return Ipv4Address(RegionLan(r).Get() + 1);
}

/// A static route on one end of a link. Routing is static, one aggregated route per subnet:
/// every path of the topology is a direct link, and ns-3's global routing would run an SPF
/// over a mesh with equal-cost paths (region to site-site link), which a debug build of
/// ns-3 3.37 refuses ("at most one exit from the root to this vertex").
void
AddRoute(const std::pair<Ptr<Ipv4>, uint32_t>& end,
         Ipv4Address net,
         Ipv4Mask mask,
         Ipv4Address nextHop)
{
    Ipv4StaticRoutingHelper helper;
    helper.GetStaticRouting(end.first)->AddNetworkRouteTo(net, mask, nextHop, end.second);
}

/// A host's default route through its LAN (interface 1), unless it has one already.
void
SetDefaultRoute(Ptr<Node> host, Ipv4Address gateway)
{
    Ipv4StaticRoutingHelper helper;
    Ptr<Ipv4StaticRouting> routing = helper.GetStaticRouting(host->GetObject<Ipv4>());
    for (uint32_t i = 0; i < routing->GetNRoutes(); ++i)
    {
        if (routing->GetRoute(i).IsDefault())
        {
            return;
        }
    }
    routing->SetDefaultRoute(gateway, 1);
}

/// Take every interface of \p host up or down; back up, its default route via \p gateway
/// again (ns-3's static routing drops the routes of an interface that goes down).
void
SetHostUp(Ptr<Node> host, bool up, Ipv4Address gateway)
{
    Ptr<Ipv4> ip = host->GetObject<Ipv4>();
    for (uint32_t i = 1; i < ip->GetNInterfaces(); ++i)
    {
        if (up)
        {
            ip->SetUp(i);
        }
        else
        {
            ip->SetDown(i);
        }
    }
    if (up)
    {
        SetDefaultRoute(host, gateway);
    }
}

} // namespace

uint32_t
GslbTopology::GetNSites() const
{
    return appliances.GetN();
}

uint32_t
GslbTopology::GetNRegions() const
{
    return ldnsNodes.GetN();
}

Time
GslbTopology::TruePathRtt(uint32_t region, uint32_t site) const
{
    return 2 * (lanDelay + wanDelay.at(region).at(site) + lanDelay);
}

uint32_t
GslbTopology::NearestSite(uint32_t region) const
{
    uint32_t best = 0;
    for (uint32_t s = 1; s < GetNSites(); ++s)
    {
        if (TruePathRtt(region, s) < TruePathRtt(region, best))
        {
            best = s;
        }
    }
    return best;
}

int32_t
GslbTopology::SiteOf(const AdcIpAddress& address) const
{
    for (uint32_t s = 0; s < GetNSites(); ++s)
    {
        if (siteIp[s] == address || serviceIp[s] == address)
        {
            return static_cast<int32_t>(s);
        }
    }
    return -1;
}

int32_t
GslbTopology::RegionOfLdns(const AdcIpAddress& address) const
{
    for (uint32_t r = 0; r < ldnsIp.size(); ++r)
    {
        if (ldnsIp[r] == address)
        {
            return static_cast<int32_t>(r);
        }
    }
    return -1;
}

int64_t
GslbTopology::AssignStreams(int64_t stream) const
{
    const int64_t first = stream;
    stream += AdcAssignNetworkStreams(stream);
    for (const Ptr<AdcLdnsServer>& l : ldns)
    {
        stream += l->AssignStreams(stream);
    }
    for (const Ptr<AdcWebUser>& u : users)
    {
        stream += u->AssignStreams(stream);
    }
    return stream - first;
}

TypeId
GslbTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GslbTopologyHelper")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<GslbTopologyHelper>()
            .AddAttribute("Sites",
                          "GSLB sites (data centres), 2..8; site s is named site-a, site-b, ...",
                          UintegerValue(3),
                          MakeUintegerAccessor(&GslbTopologyHelper::m_sites),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Regions",
                          "Client regions, 1..50, each with its LDNS and clients.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&GslbTopologyHelper::m_regions),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ClientsPerRegion",
                          "Clients (web users) per region, 1..5000.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&GslbTopologyHelper::m_clientsPerRegion),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NearDelay",
                          "One-way WAN delay between region r and its own site (r mod Sites).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&GslbTopologyHelper::m_nearDelay),
                          MakeTimeChecker())
            .AddAttribute("DelayStep",
                          "Extra one-way WAN delay per site index of distance |r - s|.",
                          TimeValue(MilliSeconds(25)),
                          MakeTimeAccessor(&GslbTopologyHelper::m_delayStep),
                          MakeTimeChecker())
            .AddAttribute("LanDelay",
                          "One-way delay of the site and region LANs (CSMA: a frame also waits "
                          "for the channel to be idle that long after the previous one).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&GslbTopologyHelper::m_lanDelay),
                          MakeTimeChecker())
            .AddAttribute("SiteWanDelay",
                          "One-way delay of the site-to-site links (MEP).",
                          TimeValue(MilliSeconds(30)),
                          MakeTimeAccessor(&GslbTopologyHelper::m_siteWanDelay),
                          MakeTimeChecker())
            .AddAttribute("DataRate",
                          "Data rate of every link.",
                          StringValue("1Gbps"),
                          MakeStringAccessor(&GslbTopologyHelper::m_dataRate),
                          MakeStringChecker())
            .AddAttribute("Domain",
                          "The GSLB domain (bind gslb vserver -domainName).",
                          StringValue("www.gslb.example"),
                          MakeStringAccessor(&GslbTopologyHelper::m_domain),
                          MakeStringChecker())
            .AddAttribute("LbMethod",
                          "The GSLB vserver's method in generated configurations: RTT, "
                          "ROUNDROBIN, LEASTCONNECTION or STATICPROXIMITY.",
                          StringValue("RTT"),
                          MakeStringAccessor(&GslbTopologyHelper::m_lbMethod),
                          MakeStringChecker())
            .AddAttribute("Tolerance",
                          "set gslb vserver -tolerance in generated configurations, ms, 0..100: "
                          "NetScaler's RTT selection window (NETSCALER semantics) or the seed's "
                          "store-and-send gate (SEED).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&GslbTopologyHelper::m_toleranceMs),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RttTolerance",
                          "set gslb parameter -rttTolerance in generated configurations, ms, "
                          "1..100: the store-and-send gate of RTT changes (NETSCALER semantics).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&GslbTopologyHelper::m_rttToleranceMs),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "ToleranceSemantics",
                "How every site reads the two tolerances (GslbSiteApps): NETSCALER "
                "or SEED.",
                EnumValue(GslbSiteApps::NETSCALER),
                MakeEnumAccessor(&GslbTopologyHelper::m_semantics),
                MakeEnumChecker(GslbSiteApps::NETSCALER, "NETSCALER", GslbSiteApps::SEED, "SEED"))
            .AddAttribute("ProbeOrder",
                          "set gslb parameter -ldnsprobeOrder, words separated by blanks.",
                          StringValue("PING DNS TCP"),
                          MakeStringAccessor(&GslbTopologyHelper::m_probeOrder),
                          MakeStringChecker())
            .AddAttribute("DnsTtl",
                          "TTL in seconds of the answers (bind gslb vserver -TTL).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&GslbTopologyHelper::m_dnsTtl),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "LdnsServerSelection",
                "How each LDNS picks among the sites' ADNS (its ServerSelection): LOWEST_SRTT "
                "as BIND does (mostly the nearest ADNS), ROUND_ROBIN or FIRST.",
                StringValue("LOWEST_SRTT"),
                MakeStringAccessor(&GslbTopologyHelper::m_ldnsSelection),
                MakeStringChecker())
            .AddAttribute("InterVisitTime",
                          "Mean of the exponential time between a user's visits.",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&GslbTopologyHelper::m_interVisit),
                          MakeTimeChecker())
            .AddAttribute("StopVisitsAt",
                          "No visit starts after this time (0: never).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&GslbTopologyHelper::m_visitsUntil),
                          MakeTimeChecker())
            .AddAttribute("Partitions",
                          "MPI partition plan, 1..64 ranks: site s (router, appliance, server) "
                          "runs on rank s % Partitions, region r (router, LDNS, clients) on rank "
                          "r % Partitions; only WAN point-to-point links cross ranks.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&GslbTopologyHelper::m_partitions),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

GslbTopologyHelper::GslbTopologyHelper() = default;

GslbTopologyHelper::~GslbTopologyHelper() = default;

void
GslbTopologyHelper::SetWanDelay(uint32_t region, uint32_t site, Time delay)
{
    if (m_set.size() <= region)
    {
        m_set.resize(region + 1);
    }
    if (m_set[region].size() <= site)
    {
        m_set[region].resize(site + 1, {false, Time()});
    }
    m_set[region][site] = {true, delay};
}

void
GslbTopologyHelper::SetConfigFiles(const std::vector<std::string>& files)
{
    m_files = files;
}

void
GslbTopologyHelper::SetExtraConfig(const std::string& text, const std::string& source)
{
    m_extra = text;
    m_extraSource = source;
}

Time
GslbTopologyHelper::DefaultDelay(uint32_t region, uint32_t site) const
{
    if (region < m_set.size() && site < m_set[region].size() && m_set[region][site].first)
    {
        return m_set[region][site].second;
    }
    const uint32_t home = region % m_sites;
    const uint32_t distance = home > site ? home - site : site - home;
    return m_nearDelay + m_delayStep * static_cast<int64_t>(distance);
}

void
GslbTopologyHelper::Validate() const
{
    auto fail = [](const std::string& attribute, const std::string& value, const std::string& ok) {
        throw AdcConfigError("GslbTopologyHelper: attribute " + attribute + " = " + value +
                             ": allowed " + ok);
    };
    if (m_sites < 2 || m_sites > 8)
    {
        fail("Sites", std::to_string(m_sites), "2..8");
    }
    if (m_regions < 1 || m_regions > 50)
    {
        fail("Regions", std::to_string(m_regions), "1..50");
    }
    if (m_clientsPerRegion < 1 || m_clientsPerRegion > 5000)
    {
        fail("ClientsPerRegion", std::to_string(m_clientsPerRegion), "1..5000");
    }
    if (m_partitions < 1 || m_partitions > 64)
    {
        fail("Partitions", std::to_string(m_partitions), "1..64 (MPI ranks)");
    }
    if (m_toleranceMs > 100)
    {
        fail("Tolerance", std::to_string(m_toleranceMs), "0..100 (ms)");
    }
    if (m_rttToleranceMs < 1 || m_rttToleranceMs > 100)
    {
        fail("RttTolerance", std::to_string(m_rttToleranceMs), "1..100 (ms)");
    }
    if (!m_interVisit.IsStrictlyPositive())
    {
        fail("InterVisitTime", std::to_string(m_interVisit.GetSeconds()) + " s", "> 0");
    }
    if (!m_files.empty() && m_files.size() != m_sites)
    {
        fail("config files",
             std::to_string(m_files.size()) + " files",
             "one per site (" + std::to_string(m_sites) + ")");
    }
    for (uint32_t r = 0; r < m_set.size(); ++r)
    {
        for (uint32_t s = 0; s < m_set[r].size(); ++s)
        {
            if (m_set[r][s].first && (r >= m_regions || s >= m_sites))
            {
                fail("SetWanDelay",
                     "region " + std::to_string(r) + " site " + std::to_string(s),
                     "regions 0.." + std::to_string(m_regions - 1) + ", sites 0.." +
                         std::to_string(m_sites - 1));
            }
        }
    }
}

std::string
GslbTopologyHelper::GenerateConfig(uint32_t site) const
{
    std::ostringstream os;
    os << "# GSLB configuration of site-" << static_cast<char>('a' + site)
       << " (generated by GslbTopologyHelper; the same at every site but for -siteType)\n";
    for (uint32_t s = 0; s < m_sites; ++s)
    {
        os << "add gslb site site-" << static_cast<char>('a' + s) << " 10." << (s + 1)
           << ".0.2 -siteType " << (s == site ? "LOCAL" : "REMOTE") << "\n";
    }
    for (uint32_t s = 0; s < m_sites; ++s)
    {
        os << "add gslb service svc-" << static_cast<char>('a' + s) << " 10." << (s + 1)
           << ".0.10 HTTP 80 -siteName site-" << static_cast<char>('a' + s) << "\n";
    }
    os << "add gslb vserver gslb-web HTTP -lbMethod " << m_lbMethod << " -tolerance "
       << m_toleranceMs << "\n";
    for (uint32_t s = 0; s < m_sites; ++s)
    {
        os << "bind gslb vserver gslb-web -serviceName svc-" << static_cast<char>('a' + s) << "\n";
    }
    os << "bind gslb vserver gslb-web -domainName " << m_domain << " -TTL " << m_dnsTtl << "\n";
    os << "set gslb parameter -ldnsprobeOrder " << m_probeOrder << " -rttTolerance "
       << m_rttToleranceMs << "\n";
    return os.str();
}

GslbTopology
GslbTopologyHelper::Build()
{
    Validate();
    // ns-3 3.37's TcpSocketBase::PersistTimeout dereferences an empty transmit buffer when the
    // zero-window persist timer fires with nothing to send (a crash seen after a failed site
    // returns and stale connections exchange segments). Zero-window probing plays no part in
    // these short DNS, HTTP and MEP exchanges: keep the timer beyond any run (a process-wide
    // default, set before any socket of the topology exists).
    Config::SetDefault("ns3::TcpSocket::PersistTimeout", TimeValue(Seconds(1e6)));
    GslbTopology t;
    t.lanDelay = m_lanDelay;
    t.siteWanDelay = m_siteWanDelay;
    t.domain = m_domain;
    t.clientsPerRegion = m_clientsPerRegion;
    // The partition plan: each site's and each region's nodes on one rank (node ids as with
    // one partition: the same creation order).
    for (NodeContainer* c : {&t.siteRouters, &t.appliances, &t.servers})
    {
        for (uint32_t s = 0; s < m_sites; ++s)
        {
            c->Create(1, s % m_partitions);
        }
    }
    for (NodeContainer* c : {&t.regionRouters, &t.ldnsNodes})
    {
        for (uint32_t r = 0; r < m_regions; ++r)
        {
            c->Create(1, r % m_partitions);
        }
    }
    for (uint32_t r = 0; r < m_regions; ++r)
    {
        t.clients.Create(m_clientsPerRegion, r % m_partitions);
    }

    InternetStackHelper stack;
    stack.Install(t.siteRouters);
    stack.Install(t.appliances);
    stack.Install(t.servers);
    stack.Install(t.regionRouters);
    stack.Install(t.ldnsNodes);
    stack.Install(t.clients);

    CsmaHelper lan;
    lan.SetChannelAttribute("DataRate", StringValue(m_dataRate));
    lan.SetChannelAttribute("Delay", TimeValue(m_lanDelay));
    PointToPointHelper wan;
    wan.SetDeviceAttribute("DataRate", StringValue(m_dataRate));

    Ipv4AddressHelper v4;
    for (uint32_t s = 0; s < m_sites; ++s)
    {
        const std::string net = "10." + std::to_string(s + 1) + ".0.0";
        v4.SetBase(net.c_str(), "255.255.255.0");
        NetDeviceContainer d =
            lan.Install(NodeContainer(t.siteRouters.Get(s), t.appliances.Get(s), t.servers.Get(s)));
        v4.Assign(NetDeviceContainer(d.Get(0), d.Get(1))); // .1 router, .2 appliance
        v4.SetBase(net.c_str(), "255.255.255.0", "0.0.0.10");
        v4.Assign(NetDeviceContainer(d.Get(2))); // .10 web server
        t.siteNames.push_back(std::string("site-") + static_cast<char>('a' + s));
        t.siteIp.emplace_back(Ipv4Address(("10." + std::to_string(s + 1) + ".0.2").c_str()));
        t.serviceIp.emplace_back(Ipv4Address(("10." + std::to_string(s + 1) + ".0.10").c_str()));
    }
    for (uint32_t r = 0; r < m_regions; ++r)
    {
        const std::string net = "10." + std::to_string(100 + r) + ".0.0";
        NodeContainer members(t.regionRouters.Get(r), t.ldnsNodes.Get(r));
        for (uint32_t i = 0; i < m_clientsPerRegion; ++i)
        {
            members.Add(t.clients.Get(r * m_clientsPerRegion + i));
            t.regionOf.push_back(r);
        }
        NetDeviceContainer d = lan.Install(members);
        v4.SetBase(net.c_str(), "255.255.0.0");
        v4.Assign(NetDeviceContainer(d.Get(0), d.Get(1))); // .0.1 router, .0.2 LDNS
        v4.SetBase(net.c_str(), "255.255.0.0", "0.0.1.1");
        NetDeviceContainer clientDevs;
        for (uint32_t k = 2; k < d.GetN(); ++k)
        {
            clientDevs.Add(d.Get(k));
        }
        v4.Assign(clientDevs);
        t.ldnsIp.emplace_back(Ipv4Address(("10." + std::to_string(100 + r) + ".0.2").c_str()));
    }
    v4.SetBase("172.16.0.0", "255.255.255.252");
    t.wanChannel.assign(m_regions, std::vector<Ptr<PointToPointChannel>>(m_sites));
    t.wanDelay.assign(m_regions, std::vector<Time>(m_sites));
    for (uint32_t r = 0; r < m_regions; ++r)
    {
        for (uint32_t s = 0; s < m_sites; ++s)
        {
            t.wanDelay[r][s] = DefaultDelay(r, s);
            wan.SetChannelAttribute("Delay", TimeValue(t.wanDelay[r][s]));
            NetDeviceContainer d = wan.Install(t.regionRouters.Get(r), t.siteRouters.Get(s));
            t.wanChannel[r][s] = DynamicCast<PointToPointChannel>(d.Get(0)->GetChannel());
            const Ipv4InterfaceContainer ends = v4.Assign(d);
            v4.NewNetwork();
            // region r -> site s's LAN, site s -> region r's LAN: the direct link
            AddRoute(ends.Get(0), SiteLan(s), Ipv4Mask("255.255.255.0"), ends.GetAddress(1));
            AddRoute(ends.Get(1), RegionLan(r), Ipv4Mask("255.255.0.0"), ends.GetAddress(0));
        }
    }
    v4.SetBase("172.17.0.0", "255.255.255.252");
    wan.SetChannelAttribute("Delay", TimeValue(m_siteWanDelay));
    for (uint32_t a = 0; a < m_sites; ++a)
    {
        for (uint32_t b = a + 1; b < m_sites; ++b)
        {
            const Ipv4InterfaceContainer ends =
                v4.Assign(wan.Install(t.siteRouters.Get(a), t.siteRouters.Get(b)));
            v4.NewNetwork();
            AddRoute(ends.Get(0), SiteLan(b), Ipv4Mask("255.255.255.0"), ends.GetAddress(1));
            AddRoute(ends.Get(1), SiteLan(a), Ipv4Mask("255.255.255.0"), ends.GetAddress(0));
        }
    }
    // Every host's default route: its LAN's router (.1).
    for (uint32_t s = 0; s < m_sites; ++s)
    {
        SetDefaultRoute(t.appliances.Get(s), SiteGateway(s));
        SetDefaultRoute(t.servers.Get(s), SiteGateway(s));
    }
    for (uint32_t r = 0; r < m_regions; ++r)
    {
        SetDefaultRoute(t.ldnsNodes.Get(r), RegionGateway(r));
    }
    for (uint32_t i = 0; i < t.clients.GetN(); ++i)
    {
        SetDefaultRoute(t.clients.Get(i), RegionGateway(t.regionOf[i]));
    }

    // Web servers: the GSLB services.
    for (uint32_t s = 0; s < m_sites; ++s)
    {
        Ptr<AdcHttpServer> server = CreateObject<AdcHttpServer>();
        server->SetAttribute("ServerName", StringValue(t.siteNames[s]));
        t.servers.Get(s)->AddApplication(server);
        t.server.push_back(server);
        t.siteUp.push_back(true);
    }
    // Every site's appliance, configured from its ns.conf.
    for (uint32_t s = 0; s < m_sites; ++s)
    {
        GslbHelper gslb;
        gslb.SetToleranceSemantics(static_cast<GslbSiteApps::ToleranceSemantics>(m_semantics));
        if (m_files.empty())
        {
            t.site.push_back(gslb.InstallFromText(t.appliances.Get(s),
                                                  GenerateConfig(s) + m_extra,
                                                  t.siteNames[s] + ".ns.conf"));
        }
        else if (m_extra.empty())
        {
            t.site.push_back(gslb.InstallFromFile(t.appliances.Get(s), m_files[s]));
        }
        else
        {
            // The user's file as it is, then the program's own commands as their own source:
            // an error in either names the right origin.
            t.site.push_back(
                gslb.InstallFromFile(t.appliances.Get(s), m_files[s], m_extra, m_extraSource));
        }
    }
    // The seed: the RTT tolerance must be the same across the GSLB domain; report mismatches.
    t.consistency = GslbHelper::CheckConsistency(t.site);
    for (const std::string& m : t.consistency)
    {
        NS_LOG_WARN("GSLB configuration: " << m);
    }
    // LDNS per region: the GSLB domain is delegated to every site's ADNS.
    std::vector<Address> adns;
    for (uint32_t s = 0; s < m_sites; ++s)
    {
        adns.push_back(InetSocketAddress(t.siteIp[s].GetIpv4(), 53));
    }
    for (uint32_t r = 0; r < m_regions; ++r)
    {
        Ptr<AdcLdnsServer> ldns = CreateObject<AdcLdnsServer>();
        ldns->SetAttribute("ServerSelection", StringValue(m_ldnsSelection));
        ldns->AddZone(m_domain, adns);
        t.ldnsNodes.Get(r)->AddApplication(ldns);
        t.ldns.push_back(ldns);
    }
    // Web users.
    for (uint32_t i = 0; i < t.clients.GetN(); ++i)
    {
        Ptr<AdcWebUser> user = CreateObject<AdcWebUser>();
        Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
        gap->SetAttribute("Mean", DoubleValue(m_interVisit.GetSeconds()));
        user->SetAttribute("InterVisitTime", PointerValue(gap));
        user->SetAttribute("Ldns",
                           AddressValue(InetSocketAddress(t.ldnsIp[t.regionOf[i]].GetIpv4(), 53)));
        user->SetAttribute("HostName", StringValue(m_domain));
        user->SetAttribute("StopVisitsAt", TimeValue(m_visitsUntil));
        // Users start spread evenly over one mean visit gap (no burst of every user at 0 s).
        user->SetStartTime(m_interVisit * static_cast<int64_t>(i) /
                           static_cast<int64_t>(t.clients.GetN()));
        t.clients.Get(i)->AddApplication(user);
        t.users.push_back(user);
    }
    return t;
}

void
GslbTopologyHelper::ChangeWanDelay(GslbTopology& t, uint32_t region, uint32_t site, Time delay)
{
    t.wanChannel.at(region).at(site)->SetAttribute("Delay", TimeValue(delay));
    t.wanDelay[region][site] = delay;
}

void
GslbTopologyHelper::SetSiteUp(GslbTopology& t, uint32_t site, bool up)
{
    SetHostUp(t.appliances.Get(site), up, SiteGateway(site));
    SetHostUp(t.servers.Get(site), up, SiteGateway(site));
    t.siteUp.at(site) = up;
}

void
GslbTopologyHelper::SetServerUp(GslbTopology& t, uint32_t site, bool up)
{
    SetHostUp(t.servers.Get(site), up, SiteGateway(site));
}

void
GslbTopologyHelper::EnablePcapAll(const GslbTopology& t, const std::string& prefix)
{
    const std::filesystem::path folder = std::filesystem::path(prefix).parent_path();
    if (!folder.empty())
    {
        std::filesystem::create_directories(folder);
    }
    PointToPointHelper p2p;
    for (uint32_t r = 0; r < t.GetNRegions(); ++r)
    {
        for (uint32_t s = 0; s < t.GetNSites(); ++s)
        {
            Ptr<NetDevice> d = t.wanChannel[r][s]->GetDevice(1); // the site router's end
            if (!AdcMpi::IsLocal(d->GetNode()))
            {
                continue; // under MPI each rank captures its own nodes' devices
            }
            p2p.EnablePcap(prefix + "-wan-r" + std::to_string(r) + "-" + t.siteNames[s] + ".pcap",
                           d,
                           false,
                           true);
        }
    }
    for (uint32_t a = 0; a < t.GetNSites(); ++a)
    {
        Ptr<Node> router = t.siteRouters.Get(a);
        for (uint32_t k = 0; AdcMpi::IsLocal(router) && k < router->GetNDevices(); ++k)
        {
            Ptr<PointToPointChannel> ch =
                DynamicCast<PointToPointChannel>(router->GetDevice(k)->GetChannel());
            if (!ch)
            {
                continue;
            }
            Ptr<Node> other = ch->GetDevice(0)->GetNode() == router ? ch->GetDevice(1)->GetNode()
                                                                    : ch->GetDevice(0)->GetNode();
            for (uint32_t b = a + 1; b < t.GetNSites(); ++b)
            {
                if (other == t.siteRouters.Get(b))
                {
                    p2p.EnablePcap(prefix + "-mep-" + t.siteNames[a] + "-" + t.siteNames[b] +
                                       ".pcap",
                                   router->GetDevice(k),
                                   false,
                                   true);
                }
            }
        }
    }
    CsmaHelper lan;
    for (uint32_t r = 0; r < t.GetNRegions(); ++r)
    {
        if (!AdcMpi::IsLocal(t.regionRouters.Get(r)))
        {
            continue;
        }
        lan.EnablePcap(prefix + "-region" + std::to_string(r) + ".pcap",
                       t.regionRouters.Get(r)->GetDevice(1),
                       false,
                       true);
    }
}

} // namespace ns3
