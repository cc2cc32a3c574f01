/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crd-topology-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/crd-cache-policy.h"
#include "ns3/enum.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrdTopologyHelper");

NS_OBJECT_ENSURE_REGISTERED(CrdTopologyHelper);

namespace
{

std::string
Numbered(const std::string& prefix, uint32_t i)
{
    return prefix + std::to_string(i + 1);
}

} // namespace

TypeId
CrdTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CrdTopologyHelper")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<CrdTopologyHelper>()
            .AddAttribute("NumUpper",
                          "Upper-tier appliances (L1NS1..). 0 = one tier: the router balances "
                          "over the lower tier and holds the policy-based routes.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&CrdTopologyHelper::m_numUpper),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddAttribute("NumLower",
                          "Lower-tier appliances (L2NS1..), each with an exclusive port range.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&CrdTopologyHelper::m_numLower),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NumCaches",
                          "Cache servers (CRS1..).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&CrdTopologyHelper::m_numCaches),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NumOrigins",
                          "Origin servers (1..64), each behind the router on its own /30 of "
                          "203.0.113.0/24 with its own host name (OriginHostNames): caching of "
                          "several sites, chosen by the address and Host clients use.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CrdTopologyHelper::m_numOrigins),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("OriginHostNames",
                          "The origins' host names, comma-separated, one per origin; empty: "
                          "www.example.com for one origin, www1.example.com, "
                          "www2.example.com, ... for several.",
                          StringValue(""),
                          MakeStringAccessor(&CrdTopologyHelper::m_originHostNames),
                          MakeStringChecker())
            .AddAttribute("PortRange",
                          "The source-port space split across the lower tier.",
                          StringValue("1024-65535"),
                          MakeStringAccessor(&CrdTopologyHelper::m_portRange),
                          MakeStringChecker())
            .AddAttribute("LowerPortRanges",
                          "Explicit ranges, one per lower appliance, e.g. "
                          "\"1024-9999,10000-19999\"; empty = split PortRange evenly. "
                          "Overlapping ranges or ranges outside PortRange are errors.",
                          StringValue(""),
                          MakeStringAccessor(&CrdTopologyHelper::m_lowerRanges),
                          MakeStringChecker())
            .AddAttribute("UpperBalanceMethod",
                          "How the upper tier (or the router in one-tier mode) spreads "
                          "client flows over the lower tier: a hash method, since sessionless "
                          "balancing must send every packet of a flow the same way.",
                          StringValue("hash-ip-port"),
                          MakeStringAccessor(&CrdTopologyHelper::m_upperMethod),
                          MakeStringChecker())
            .AddAttribute("RouterBalanceMethod",
                          "How the router spreads client flows over the upper tier (ECMP).",
                          StringValue("hash-ip-port"),
                          MakeStringAccessor(&CrdTopologyHelper::m_routerMethod),
                          MakeStringChecker())
            .AddAttribute("OriginBalanceMethod",
                          "How the origin's return traffic is spread over the upper tier. "
                          "The origin's own address and port are the same in every flow, so "
                          "the method must hash the client side: MAGLEV (the 5-tuple) or "
                          "DESTINATIONIPHASH.",
                          StringValue("MAGLEV"),
                          MakeStringAccessor(&CrdTopologyHelper::m_originMethod),
                          MakeStringChecker())
            .AddAttribute("CacheLbMethod",
                          "The lower tier's choice of cache server: any method of "
                          "AdcLbMethodRegistry with the trait CACHE_SELECTION; built in: "
                          "ROUNDROBIN, LEASTCONNECTION, URLHASH, DESTINATIONIPHASH.",
                          StringValue("ROUNDROBIN"),
                          MakeStringAccessor(&CrdTopologyHelper::m_cacheMethod),
                          MakeStringChecker())
            .AddAttribute("CacheableRule",
                          "Which requests go to the caches (the lower tier's CacheableRule: "
                          "POLICY, GET_NO_QUERY, ALL or NONE).",
                          EnumValue(CrdLowerTierAppliance::POLICY),
                          MakeEnumAccessor(&CrdTopologyHelper::m_cacheableRule),
                          CrdLowerTierAppliance::MakeCacheableRuleChecker())
            .AddAttribute("CachePolicies",
                          "The lower tier's CachePolicies: NetScaler's built-in cache "
                          "redirection policies bound, comma-separated (all five by default).",
                          StringValue(CrdCachePolicies::GetDefaultText()),
                          MakeStringAccessor(&CrdTopologyHelper::m_cachePolicies),
                          MakeStringChecker())
            .AddAttribute("CacheCapacity",
                          "Bytes each cache server holds.",
                          UintegerValue(1ULL << 30),
                          MakeUintegerAccessor(&CrdTopologyHelper::m_cacheCapacity),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ObjectSize",
                          "Body bytes of every object the origin serves.",
                          UintegerValue(10240),
                          MakeUintegerAccessor(&CrdTopologyHelper::m_objectSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MissGatewayOffset",
                          "Cache c's traffic to the origin crosses lower appliance "
                          "(c + offset) mod NumLower (the seed: CRS1's miss crosses L2NS3).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&CrdTopologyHelper::m_missGatewayOffset),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FabricDataRate",
                          "Rate of the appliance links.",
                          StringValue("10Gbps"),
                          MakeStringAccessor(&CrdTopologyHelper::m_fabricRate),
                          MakeStringChecker())
            .AddAttribute("FabricDelay",
                          "Delay of the appliance links.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&CrdTopologyHelper::m_fabricDelay),
                          MakeTimeChecker())
            .AddAttribute("OriginDataRate",
                          "Rate of each origin's link to the router (both ways).",
                          StringValue("10Gbps"),
                          MakeStringAccessor(&CrdTopologyHelper::m_originRate),
                          MakeStringChecker())
            .AddAttribute("OriginDelay",
                          "Delay of each origin's link to the router: requests and responses "
                          "cross it, so client-origin delays are the same both ways.",
                          TimeValue(MilliSeconds(5)),
                          MakeTimeAccessor(&CrdTopologyHelper::m_originDelay),
                          MakeTimeChecker())
            .AddAttribute("MonitorLowerTier",
                          "The upper tier health-monitors the lower tier (TCP to port 80) and "
                          "stops sending to a failed appliance.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_monitorLower),
                          MakeBooleanChecker())
            .AddAttribute("MonitorCaches",
                          "The lower tier health-monitors the caches (TCP to port 80).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_monitorCaches),
                          MakeBooleanChecker())
            .AddAttribute("MonitorMissGateways",
                          "The cache switch probes the lower tier (TCP to each MIP, port 80) and "
                          "sends a cache's misses to the next lower appliance up while its miss "
                          "gateway is DOWN (false: the fixed miss gateway, no failover).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_monitorMissGateways),
                          MakeBooleanChecker())
            .AddAttribute("ResetOrphans",
                          "The lower tier resets segments of connections it does not have (RFC "
                          "793; false: they are dropped silently, ns-3's listening sockets' "
                          "behaviour): CrdOrphanReset.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_orphanReset),
                          MakeBooleanChecker())
            .AddAttribute("MonitorUpperTier",
                          "The router pings the upper tier and stops sending to a failed "
                          "appliance (false: it balances over every upper appliance always).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_monitorUpper),
                          MakeBooleanChecker())
            .AddAttribute("MonitorInterval",
                          "Interval of those monitors.",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&CrdTopologyHelper::m_monitorInterval),
                          MakeTimeChecker())
            .AddAttribute("MonitorTimeout",
                          "Response timeout of those monitors.",
                          TimeValue(MilliSeconds(500)),
                          MakeTimeAccessor(&CrdTopologyHelper::m_monitorTimeout),
                          MakeTimeChecker())
            .AddAttribute("MonitorRetries",
                          "Failed probes before a target is DOWN.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&CrdTopologyHelper::m_monitorRetries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LowerTierMode",
                          "What runs on the lower appliances: PROXY (CrdLowerTierAppliance, the "
                          "seed's cache redirection) or RELAY (a bare AdcTcpRelay to the origin "
                          "with USIP and the appliance's port range; caches unused), a baseline.",
                          EnumValue(CrdTopologyHelper::PROXY),
                          MakeEnumAccessor(&CrdTopologyHelper::m_lowerMode),
                          MakeEnumChecker(CrdTopologyHelper::PROXY,
                                          "PROXY",
                                          CrdTopologyHelper::RELAY,
                                          "RELAY"))
            .AddAttribute("UpperTierMode",
                          "What the upper appliances are: APPLIANCE (sessionless balancing and "
                          "PBR) or ROUTER (plain routers: upper i statically routes the origin "
                          "and client prefixes to lower i mod NumLower), a baseline. ROUTER "
                          "needs NumUpper >= 1; with PROXY, CacheableRule NONE; and, when the "
                          "upper routers lead to several lower appliances, RouterBalanceMethod "
                          "SOURCEIPHASH (or hash-ip) with OriginBalanceMethod DESTINATIONIPHASH.",
                          EnumValue(CrdTopologyHelper::APPLIANCE),
                          MakeEnumAccessor(&CrdTopologyHelper::m_upperMode),
                          MakeEnumChecker(CrdTopologyHelper::APPLIANCE,
                                          "APPLIANCE",
                                          CrdTopologyHelper::ROUTER,
                                          "ROUTER"))
            .AddAttribute("ServerConnectionReuse",
                          "The lower tier pools its connections to caches and the origin and "
                          "reuses them (NetScaler's -reuse, ON by default there and here). "
                          "Pooled USIP connections hold their ports while idle, and a request "
                          "over a pooled connection opens no new TCP connection (a path "
                          "tracer that follows first data packets of new connections needs "
                          "false: one backend connection per request).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_serverReuse),
                          MakeBooleanChecker())
            .AddAttribute("RelayClientSource",
                          "LowerTierMode RELAY: the relays connect from the client's IP (USIP) "
                          "and a port of the appliance's range, so responses return by the "
                          "upper tier's policy-based routes (true), or from the appliance's own "
                          "address, so responses return to it through the router (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_relayClientSource),
                          MakeBooleanChecker())
            .AddAttribute("UpperRouterEcmp",
                          "UpperTierMode ROUTER: each upper router spreads the flows to the "
                          "origins over every lower appliance by a per-flow 5-tuple hash "
                          "(AdcEcmpRouting) instead of a static route to one. Needs "
                          "LowerTierMode RELAY with RelayClientSource false.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_upperRouterEcmp),
                          MakeBooleanChecker());
    return tid;
}

CrdTopologyHelper::CrdTopologyHelper()
    : m_isp(CreateObject<AdcIspTopologyHelper>()),
      m_numUpper(2),
      m_numLower(4),
      m_numCaches(3),
      m_numOrigins(1),
      m_cacheableRule(CrdLowerTierAppliance::POLICY),
      m_cachePolicies(CrdCachePolicies::GetDefaultText()),
      m_cacheCapacity(1ULL << 30),
      m_objectSize(10240),
      m_missGatewayOffset(2),
      m_monitorLower(true),
      m_monitorCaches(true),
      m_monitorMissGateways(true),
      m_monitorUpper(true),
      m_orphanReset(true),
      m_monitorRetries(2),
      m_lowerMode(PROXY),
      m_upperMode(APPLIANCE),
      m_serverReuse(true),
      m_relayClientSource(true),
      m_upperRouterEcmp(false)
{
    // The seed's figures: one client (client A) behind the router.
    m_isp->SetAttribute("NumAccessNetworks", UintegerValue(1));
    m_isp->SetAttribute("ClientsPerAccessNetwork", UintegerValue(1));
    m_isp->SetAttribute("NumServers", UintegerValue(0));
}

void
CrdTopologyHelper::DoDispose()
{
    m_isp = nullptr;
    Object::DoDispose();
}

Ptr<AdcIspTopologyHelper>
CrdTopologyHelper::GetIspHelper() const
{
    return m_isp;
}

std::vector<AdcPortRange>
CrdTopologyHelper::MakeLowerRanges(const std::string& text, uint32_t n, AdcPortRange whole)
{
    if (n == 0)
    {
        throw AdcConfigError("CrdTopologyHelper: NumLower is 0: a lower tier needs at least one "
                             "appliance, each with its own port range");
    }
    if (text.empty())
    {
        return AdcPortRange::Split(whole, n);
    }
    std::vector<AdcPortRange> out;
    std::size_t start = 0;
    while (start <= text.size())
    {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        out.push_back(AdcPortRange::Parse(text.substr(start, comma - start)));
        start = comma + 1;
    }
    if (out.size() != n)
    {
        throw AdcConfigError("CrdTopologyHelper: LowerPortRanges '" + text + "' gives " +
                             std::to_string(out.size()) + " ranges for NumLower = " +
                             std::to_string(n) + ": give one range per lower appliance");
    }
    AdcPortRangeMap map;
    map.SetBounds(whole);
    for (uint32_t i = 0; i < n; ++i)
    {
        map.Add(out[i], i); // throws on overlap or outside PortRange
    }
    return out;
}

void
CrdTopologyHelper::Validate() const
{
    const AdcPortRange whole = AdcPortRange::Parse(m_portRange);
    MakeLowerRanges(m_lowerRanges, m_numLower, whole);
    OriginHosts(); // throws on a bad list
    if (m_numCaches == 0 && m_cacheableRule != CrdLowerTierAppliance::NONE && m_lowerMode == PROXY)
    {
        throw AdcConfigError("CrdTopologyHelper: NumCaches is 0 while CacheableRule sends "
                             "requests to caches: add cache servers or set CacheableRule NONE");
    }
    AdcPolicyRule probe;
    probe.name = "UpperBalanceMethod";
    probe.action = AdcPolicyRule::BALANCE;
    probe.nextHops.push_back(AdcNextHop{});
    for (const std::string* method : {&m_upperMethod, &m_routerMethod, &m_originMethod})
    {
        probe.balanceMethod = *method;
        CreateObject<AdcPolicyRouting>()->AddRule(probe); // throws for a non-hash method
    }
    // The lower tier owns the one list of its cache methods: ask it rather than repeat it.
    CreateObject<CrdLowerTierAppliance>()->SetAttribute("CacheLbMethod",
                                                        StringValue(m_cacheMethod));
    if (m_upperMode == ROUTER)
    {
        ValidateRouterMode();
    }
}

void
CrdTopologyHelper::ValidateRouterMode() const
{
    if (m_numUpper == 0)
    {
        throw AdcConfigError("CrdTopologyHelper: UpperTierMode ROUTER with NumUpper 0: there is "
                             "no upper tier to replace by routers; set NumUpper >= 1 or "
                             "UpperTierMode APPLIANCE");
    }
    if (m_lowerMode == PROXY && m_cacheableRule != CrdLowerTierAppliance::NONE)
    {
        throw AdcConfigError("CrdTopologyHelper: UpperTierMode ROUTER with LowerTierMode PROXY "
                             "needs CacheableRule NONE (given: a rule that sends requests to "
                             "caches): a cache miss reaches the origin through a miss gateway, "
                             "and plain routers cannot route its response back there by port; "
                             "set CacheableRule NONE or LowerTierMode RELAY");
    }
    if (m_upperRouterEcmp)
    {
        if (m_lowerMode != RELAY || m_relayClientSource)
        {
            throw AdcConfigError(
                "CrdTopologyHelper: UpperRouterEcmp true needs LowerTierMode RELAY with "
                "RelayClientSource false (given: LowerTierMode " +
                std::string(m_lowerMode == RELAY ? "RELAY" : "PROXY") + ", RelayClientSource " +
                (m_relayClientSource ? "true" : "false") +
                "): the upper routers spread flows over every lower appliance, and a response "
                "addressed to the client cannot be routed back to the one that holds its "
                "connection by port; relays connecting from their own address get it through "
                "the router");
        }
        return; // no response crosses the upper tier
    }
    if (std::min(m_numUpper, m_numLower) < 2)
    {
        return; // every upper router leads to the same lower appliance
    }
    if (AdcText::Find(m_routerMethod, {"SOURCEIPHASH", "HASH-IP"}, AdcText::INSENSITIVE) < 0 ||
        AdcText::Find(m_originMethod, {"DESTINATIONIPHASH"}, AdcText::INSENSITIVE) < 0)
    {
        throw AdcConfigError(
            "CrdTopologyHelper: UpperTierMode ROUTER with " + std::to_string(m_numUpper) +
            " upper routers leading to different lower appliances needs RouterBalanceMethod "
            "SOURCEIPHASH (or hash-ip) and OriginBalanceMethod DESTINATIONIPHASH (given: '" +
            m_routerMethod + "' and '" + m_originMethod +
            "'): static routes cannot pick the lower appliance by port, so a client's requests "
            "and the origin's responses must cross the same upper router, which hashing the "
            "client IP on both sides guarantees");
    }
}

std::vector<std::string>
CrdTopologyHelper::OriginHosts() const
{
    std::vector<std::string> hosts;
    if (m_originHostNames.empty())
    {
        for (uint32_t k = 0; k < m_numOrigins; ++k)
        {
            hosts.push_back(m_numOrigins == 1 ? std::string("www.example.com")
                                              : "www" + std::to_string(k + 1) + ".example.com");
        }
        return hosts;
    }
    std::size_t start = 0;
    while (start <= m_originHostNames.size())
    {
        const std::size_t comma =
            std::min(m_originHostNames.find(',', start), m_originHostNames.size());
        const std::string host =
            AdcText::ToLower(AdcText::Trim(m_originHostNames.substr(start, comma - start)));
        start = comma + 1;
        if (host.empty() || host.find_first_of(" \t/:") != std::string::npos ||
            std::find(hosts.begin(), hosts.end(), host) != hosts.end())
        {
            throw AdcConfigError("CrdTopologyHelper: OriginHostNames '" + m_originHostNames +
                                 "': '" + host +
                                 "' is empty, repeated or not a host name (no spaces, '/' "
                                 "or ':'); give one distinct name per origin");
        }
        hosts.push_back(host);
    }
    if (hosts.size() != m_numOrigins)
    {
        throw AdcConfigError("CrdTopologyHelper: OriginHostNames '" + m_originHostNames +
                             "' gives " + std::to_string(hosts.size()) +
                             " names for NumOrigins = " + std::to_string(m_numOrigins) +
                             ": give one name per origin");
    }
    return hosts;
}

CrdRoutePlan::Link
CrdTopologyHelper::Connect(CrdTopology& t, const std::string& name, Ptr<Node> a, Ptr<Node> b)
{
    const bool cacheLink = t.NameOf(b).rfind("CRS", 0) == 0;
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(m_fabricRate));
    p2p.SetChannelAttribute("Delay", TimeValue(m_fabricDelay));
    CrdRoutePlan::Link l;
    l.devices = p2p.Install(a, b);
    const uint32_t k = m_nextLink++;
    const Ipv4Address block = cacheLink ? CrdRoutePlan::kCacheBlock : CrdRoutePlan::kFabricBlock;
    Ipv4AddressHelper addr;
    addr.SetBase(Ipv4Address(block.Get() + 4 * k), "255.255.255.252");
    Ipv4InterfaceContainer ifs = addr.Assign(l.devices);
    l.addrA = ifs.GetAddress(0);
    l.addrB = ifs.GetAddress(1);
    l.ifA = ifs.Get(0).second;
    l.ifB = ifs.Get(1).second;
    t.links[name] = l.devices;
    return l;
}

CrdTopology
CrdTopologyHelper::Build()
{
    NS_LOG_FUNCTION(this);
    Validate();
    CrdTopology t;
    m_nextLink = 0;
    t.lowerRanges = MakeLowerRanges(m_lowerRanges, m_numLower, AdcPortRange::Parse(m_portRange));
    CreateNodes(t);
    const CrdRoutePlan::Fabric fabric = CreateLinks(t);
    CrdRoutePlan::Install(t,
                          fabric,
                          {m_routerMethod, m_upperMethod, m_originMethod},
                          m_upperMode == APPLIANCE,
                          m_upperMode == ROUTER && m_upperRouterEcmp);
    InstallApplications(t);
    InstallMonitors(t);
    return t;
}

void
CrdTopologyHelper::CreateNodes(CrdTopology& t)
{
    t.isp = m_isp->Build();
    t.router = t.isp.GetCoreRouter();
    t.names[t.router->GetId()] = "router";
    const uint32_t nClients = t.isp.GetNClients();
    for (uint32_t i = 0; i < nClients; ++i)
    {
        t.names[t.isp.GetClient(i)->GetId()] = nClients == 1 ? "client" : Numbered("client", i);
    }

    t.upper.Create(m_numUpper, 0);
    t.lower.Create(m_numLower, 0);
    t.caches.Create(m_numCaches, 0);
    t.cacheSwitch = CreateObject<Node>(0);
    t.origins.Create(m_numOrigins, 0);
    t.origin = t.origins.Get(0);
    t.originHosts = OriginHosts();
    NodeContainer all(t.upper, t.lower, t.caches);
    all.Add(t.cacheSwitch);
    all.Add(t.origins);
    AdcMakeListStackHelper(false).Install(all);
    for (uint32_t i = 0; i < m_numUpper; ++i)
    {
        t.upperNames.push_back(Numbered("L1NS", i));
        t.names[t.upper.Get(i)->GetId()] = t.upperNames.back();
    }
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        t.lowerNames.push_back(Numbered("L2NS", j));
        t.names[t.lower.Get(j)->GetId()] = t.lowerNames.back();
    }
    for (uint32_t c = 0; c < m_numCaches; ++c)
    {
        t.cacheNames.push_back(Numbered("CRS", c));
        t.names[t.caches.Get(c)->GetId()] = t.cacheNames.back();
    }
    for (uint32_t k = 0; k < m_numOrigins; ++k)
    {
        t.originNames.push_back(m_numOrigins == 1 ? std::string("origin") : Numbered("origin", k));
        t.names[t.origins.Get(k)->GetId()] = t.originNames.back();
    }
    t.names.erase(t.cacheSwitch->GetId()); // a switch in the seed: not a hop of its flows
}

CrdRoutePlan::Fabric
CrdTopologyHelper::CreateLinks(CrdTopology& t)
{
    // The router's links: origins, upper tier, lower tier (responses to clients, requests to
    // the origins "through the router"). An origin's only link is to the router (the ISP's
    // border), so its requests and responses cross the same links: equal delays both ways.
    CrdRoutePlan::Fabric f;
    for (uint32_t k = 0; k < m_numOrigins; ++k)
    {
        const Ipv4Address block(CrdRoutePlan::kOriginNet.Get() + 4 * k);
        AdcCoreAttachment o =
            m_isp->AttachToCore(t.origins.Get(k), block, Ipv4Mask("255.255.255.252"), true);
        for (uint32_t d = 0; d < 2; ++d)
        {
            o.devices.Get(d)->SetAttribute("DataRate", StringValue(m_originRate));
        }
        o.devices.Get(0)->GetChannel()->SetAttribute("Delay", TimeValue(m_originDelay));
        f.origins.push_back(o);
        t.originAddresses.push_back(o.GetNodeAddress());
        t.links["router-" + t.originNames[k]] = o.devices;
    }
    t.originAddress = t.originAddresses[0];
    for (uint32_t i = 0; i < m_numUpper; ++i)
    {
        f.upper.push_back(m_isp->AttachToCore(t.upper.Get(i), true));
        t.links["router-" + t.upperNames[i]] = f.upper.back().devices;
    }
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        f.lower.push_back(m_isp->AttachToCore(t.lower.Get(j), true));
        t.links["router-" + t.lowerNames[j]] = f.lower.back().devices;
    }

    // Fabric links.
    f.ul.resize(m_numUpper);
    for (uint32_t i = 0; i < m_numUpper; ++i)
    {
        for (uint32_t j = 0; j < m_numLower; ++j)
        {
            f.ul[i].push_back(Connect(t,
                                      t.upperNames[i] + "-" + t.lowerNames[j],
                                      t.upper.Get(i),
                                      t.lower.Get(j)));
        }
    }
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        f.ls.push_back(Connect(t, t.lowerNames[j] + "-switch", t.lower.Get(j), t.cacheSwitch));
        t.lowerMips.push_back(f.ls.back().addrA);
    }
    for (uint32_t c = 0; c < m_numCaches; ++c)
    {
        f.sc.push_back(Connect(t, "switch-" + t.cacheNames[c], t.cacheSwitch, t.caches.Get(c)));
        t.cacheAddresses.push_back(f.sc.back().addrB);
        t.missGateway.push_back((c + m_missGatewayOffset) % m_numLower);
    }
    return f;
}

void
CrdTopologyHelper::InstallRelays(CrdTopology& t)
{
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        Ptr<AdcTcpRelay> relay = CreateObject<AdcTcpRelay>();
        relay->SetAttribute("Port", UintegerValue(CrdRoutePlan::kHttpPort));
        relay->SetAttribute("PortRange", StringValue(t.lowerRanges[j].ToString()));
        relay->SetAttribute("UseClientSource", BooleanValue(m_relayClientSource));
        relay->SetRouting(t.lowerRouting[j]);
        t.lower.Get(j)->AddApplication(relay);
        t.relayApps.push_back(relay);
    }
}

void
CrdTopologyHelper::InstallApplications(CrdTopology& t)
{
    for (uint32_t k = 0; k < m_numOrigins; ++k)
    {
        Ptr<AdcHttpServer> origin = CreateObject<AdcHttpServer>();
        origin->SetAttribute("ServerName", StringValue(t.originNames[k]));
        origin->SetAttribute("ObjectSize", UintegerValue(m_objectSize));
        origin->SetAttribute("VaryByClientIp", BooleanValue(true));
        t.origins.Get(k)->AddApplication(origin);
        t.originApps.push_back(origin);
    }
    t.originApp = t.originApps[0];

    for (uint32_t c = 0; c < m_numCaches; ++c)
    {
        Ptr<CrdCacheServer> cache = CreateObject<CrdCacheServer>();
        cache->SetAttribute("Name", StringValue(t.cacheNames[c]));
        cache->SetAttribute("OriginAddress", Ipv4AddressValue(t.originAddress));
        cache->SetAttribute("Capacity", UintegerValue(m_cacheCapacity));
        for (uint32_t k = 0; k < m_numOrigins; ++k)
        {
            cache->AddOrigin(t.originHosts[k], t.originAddresses[k]); // misses by Host
        }
        t.caches.Get(c)->AddApplication(cache);
        t.cacheApps.push_back(cache);
    }

    if (m_lowerMode == RELAY)
    {
        InstallRelays(t);
        return;
    }
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        Ptr<CrdLowerTierAppliance> app = CreateObject<CrdLowerTierAppliance>();
        app->SetAttribute("Name", StringValue(t.lowerNames[j]));
        app->SetAttribute("PortRange", StringValue(t.lowerRanges[j].ToString()));
        app->SetAttribute("Mip", Ipv4AddressValue(t.lowerMips[j]));
        app->SetAttribute("CacheLbMethod", StringValue(m_cacheMethod));
        app->SetAttribute("CacheableRule", EnumValue(m_cacheableRule));
        app->SetAttribute("CachePolicies", StringValue(m_cachePolicies));
        for (uint32_t k = 0; k < m_numLower; ++k)
        {
            if (k != j)
            {
                app->AddViaPeer(t.lowerNames[k]); // a miss may cross another lower appliance
            }
        }
        app->SetAttribute("ServerConnectionReuse", BooleanValue(m_serverReuse));
        for (uint32_t c = 0; c < m_numCaches; ++c)
        {
            app->AddCacheServer(t.cacheNames[c], t.cacheAddresses[c], CrdRoutePlan::kHttpPort);
        }
        app->SetCacheNetwork(CrdRoutePlan::kCacheBlock, CrdRoutePlan::kCacheMask);
        app->SetRouting(t.lowerRouting[j]);
        t.lower.Get(j)->AddApplication(app);
        t.lowerApps.push_back(app);
        Ptr<CrdOrphanReset> reset = CreateObject<CrdOrphanReset>();
        reset->SetAttribute("Enabled", BooleanValue(m_orphanReset));
        reset->Install(t.lower.Get(j));
        t.lowerResets.push_back(reset);
    }
}

Ptr<AdcHealthMonitor>
CrdTopologyHelper::MakeMonitor(const std::string& name, bool ping) const
{
    Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
    m->SetAttribute("Type", EnumValue(ping ? AdcHealthMonitor::PING : AdcHealthMonitor::TCP));
    m->SetAttribute("Name", StringValue(name));
    m->SetAttribute("Interval", TimeValue(m_monitorInterval));
    m->SetAttribute("ResponseTimeout", TimeValue(m_monitorTimeout));
    m->SetAttribute("Retries", UintegerValue(m_monitorRetries));
    m->SetAttribute("DownTime", TimeValue(m_monitorInterval));
    m->SetStartTime(m_monitorInterval / 2);
    return m;
}

void
CrdTopologyHelper::InstallMonitors(CrdTopology& t)
{
    if (m_monitorLower)
    {
        // Each balancer of the lower tier (the upper appliances, or the router) probes it
        // through the services its BALANCE hops follow.
        const std::vector<Ptr<Node>> balancers = t.GetLowerTierBalancers();
        for (uint32_t b = 0; b < balancers.size(); ++b)
        {
            Ptr<AdcHealthMonitor> m = MakeMonitor("tcp-lower-tier");
            for (const Ptr<AdcService>& service : t.lowerTierServices[b])
            {
                service->BindMonitor(m);
            }
            balancers[b]->AddApplication(m);
            t.upperMonitors.push_back(m);
        }
    }
    if (m_monitorCaches && m_numCaches > 0 && m_lowerMode == PROXY) // relays use no cache
    {
        for (uint32_t j = 0; j < m_numLower; ++j)
        {
            Ptr<AdcHealthMonitor> m = MakeMonitor("tcp-caches");
            for (uint32_t c = 0; c < t.lowerApps[j]->GetNCacheServers(); ++c)
            {
                t.lowerApps[j]->GetCacheService(c)->BindMonitor(m);
            }
            t.lower.Get(j)->AddApplication(m);
            t.lowerMonitors.push_back(m);
        }
    }
    if (m_monitorMissGateways && m_numCaches > 0)
    {
        t.switchMonitor = MakeMonitor("tcp-miss-gateways");
        for (const Ptr<AdcService>& service : t.missGatewayServices)
        {
            service->BindMonitor(t.switchMonitor);
        }
        t.cacheSwitch->AddApplication(t.switchMonitor);
    }
    if (m_monitorUpper && !t.upperTierServices.empty())
    {
        t.routerMonitor = MakeMonitor("ping-upper-tier", true);
        for (const Ptr<AdcService>& service : t.upperTierServices)
        {
            service->BindMonitor(t.routerMonitor);
        }
        t.router->AddApplication(t.routerMonitor);
    }
}

} // namespace ns3
