/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crd-topology-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrdTopologyHelper");

NS_OBJECT_ENSURE_REGISTERED(CrdTopologyHelper);

namespace
{

/// Block of the appliance fabric's /30 links (upper-lower, origin-upper, lower-switch).
const Ipv4Address kFabricBlock("100.64.0.0");
/// Block of the cache network's /30 links (switch-cache): the lower tier's "cache network".
const Ipv4Address kCacheBlock("100.96.0.0");
const Ipv4Mask kCacheMask("255.255.0.0");
/// The origin's network, attached to the router.
const Ipv4Address kOriginNet("203.0.113.0");
const Ipv4Mask kOriginMask("255.255.255.0");
/// Every client address lies in 10.0.0.0/8 (a /16 per access network).
const Ipv4Address kClientNet("10.0.0.0");
const Ipv4Mask kClientMask("255.0.0.0");
/// The service the lower tier intercepts.
const uint16_t kHttpPort = 80;
/// Priority of the policy routes: above static routing (0).
const int16_t kPolicyPriority = 100;

/// \return a new policy-routing protocol at the top of \p node's list
Ptr<AdcPolicyRouting>
AddPolicy(Ptr<Node> node)
{
    Ptr<AdcPolicyRouting> policy = CreateObject<AdcPolicyRouting>();
    AdcAddTopIpv4Routing(node, policy, kPolicyPriority);
    return policy;
}

Ptr<Ipv4StaticRouting>
Static(Ptr<Node> node)
{
    return Ipv4StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv4>());
}

/// Health monitor callback: a next hop of a balancing rule follows its target's state.
void
FollowHop(Ptr<AdcPolicyRouting> policy,
          uint32_t rule,
          uint32_t index,
          AdcHealthMonitor::State,
          AdcHealthMonitor::State now)
{
    policy->SetNextHopUp(rule, index, now != AdcHealthMonitor::State::DOWN);
}

/// Health monitor callback: a cache follows its state in a lower appliance.
void
FollowCache(Ptr<CrdLowerTierAppliance> app,
            uint32_t index,
            AdcHealthMonitor::State,
            AdcHealthMonitor::State now)
{
    app->SetCacheServerUp(index, now != AdcHealthMonitor::State::DOWN);
}

void
NodeDown(Ptr<Node> node)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    for (uint32_t i = 1; i < ipv4->GetNInterfaces(); ++i)
    {
        ipv4->SetDown(i);
    }
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

std::string
Numbered(const std::string& prefix, uint32_t i)
{
    return prefix + std::to_string(i + 1);
}

} // namespace

std::string
CrdTopology::NameOf(Ptr<Node> node) const
{
    auto it = names.find(node->GetId());
    return it == names.end() ? std::string() : it->second;
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
                          "The lower tier's choice of cache server: ROUNDROBIN, "
                          "LEASTCONNECTION, URLHASH or DESTINATIONIPHASH.",
                          StringValue("ROUNDROBIN"),
                          MakeStringAccessor(&CrdTopologyHelper::m_cacheMethod),
                          MakeStringChecker())
            .AddAttribute("CacheableRule",
                          "Which requests go to the caches.",
                          EnumValue(CrdLowerTierAppliance::GET_NO_QUERY),
                          MakeEnumAccessor(&CrdTopologyHelper::m_cacheableRule),
                          CrdLowerTierAppliance::MakeCacheableRuleChecker())
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
                          "Rate of the origin's links to the upper tier.",
                          StringValue("10Gbps"),
                          MakeStringAccessor(&CrdTopologyHelper::m_originRate),
                          MakeStringChecker())
            .AddAttribute("OriginDelay",
                          "Delay of the origin's links to the upper tier.",
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
                          "reuses them (NetScaler's -reuse, on there by default). Off by "
                          "default here: with reuse a request's later legs are no new TCP "
                          "connections (the path tracer sees only first data packets) and "
                          "pooled USIP connections hold their ports.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CrdTopologyHelper::m_serverReuse),
                          MakeBooleanChecker());
    return tid;
}

CrdTopologyHelper::CrdTopologyHelper()
    : m_isp(CreateObject<AdcIspTopologyHelper>()),
      m_numUpper(2),
      m_numLower(4),
      m_numCaches(3),
      m_cacheableRule(CrdLowerTierAppliance::GET_NO_QUERY),
      m_cacheCapacity(1ULL << 30),
      m_objectSize(10240),
      m_missGatewayOffset(2),
      m_monitorLower(true),
      m_monitorCaches(true),
      m_monitorRetries(2),
      m_lowerMode(PROXY),
      m_upperMode(APPLIANCE),
      m_serverReuse(false)
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
    if (std::min(m_numUpper, m_numLower) < 2)
    {
        return; // every upper router leads to the same lower appliance
    }
    auto upper = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
            return static_cast<char>(std::toupper(c));
        });
        return s;
    };
    const std::string router = upper(m_routerMethod);
    if ((router != "SOURCEIPHASH" && router != "HASH-IP") ||
        upper(m_originMethod) != "DESTINATIONIPHASH")
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

CrdTopologyHelper::Link
CrdTopologyHelper::Connect(CrdTopology& t, const std::string& name, Ptr<Node> a, Ptr<Node> b)
{
    const bool cacheLink = t.NameOf(b).rfind("CRS", 0) == 0;
    const bool originLink = a == t.origin;
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(originLink ? m_originRate : m_fabricRate));
    p2p.SetChannelAttribute("Delay", TimeValue(originLink ? m_originDelay : m_fabricDelay));
    Link l;
    l.devices = p2p.Install(a, b);
    const uint32_t k = m_nextLink++;
    const Ipv4Address block = cacheLink ? kCacheBlock : kFabricBlock;
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
    CreateNodesAndLinks(t);
    InstallRoutes(t);
    InstallApplications(t);
    InstallMonitors(t);
    return t;
}

void
CrdTopologyHelper::CreateNodesAndLinks(CrdTopology& t)
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
    t.origin = CreateObject<Node>(0);
    NodeContainer all(t.upper, t.lower, t.caches);
    all.Add(t.cacheSwitch);
    all.Add(t.origin);
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
    t.names[t.origin->GetId()] = "origin";
    t.names.erase(t.cacheSwitch->GetId()); // a switch in the seed: not a hop of its flows
}

void
CrdTopologyHelper::InstallRoutes(CrdTopology& t)
{
    // The router's links: origin, upper tier, lower tier (responses to clients, requests to
    // the origin "through the router").
    AdcCoreAttachment originAtt = m_isp->AttachToCore(t.origin, kOriginNet, kOriginMask, true);
    t.originAddress = originAtt.GetNodeAddress();
    t.links["router-origin"] = originAtt.devices;
    std::vector<AdcCoreAttachment> upperAtt;
    for (uint32_t i = 0; i < m_numUpper; ++i)
    {
        upperAtt.push_back(m_isp->AttachToCore(t.upper.Get(i), true));
        t.links["router-" + t.upperNames[i]] = upperAtt.back().devices;
    }
    std::vector<AdcCoreAttachment> lowerAtt;
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        lowerAtt.push_back(m_isp->AttachToCore(t.lower.Get(j), true));
        t.links["router-" + t.lowerNames[j]] = lowerAtt.back().devices;
    }

    // Fabric links.
    std::vector<std::vector<Link>> ul(m_numUpper); // upper i - lower j
    std::vector<Link> ou;                          // origin - upper i
    for (uint32_t i = 0; i < m_numUpper; ++i)
    {
        for (uint32_t j = 0; j < m_numLower; ++j)
        {
            ul[i].push_back(Connect(t,
                                    t.upperNames[i] + "-" + t.lowerNames[j],
                                    t.upper.Get(i),
                                    t.lower.Get(j)));
        }
        ou.push_back(Connect(t, "origin-" + t.upperNames[i], t.origin, t.upper.Get(i)));
    }
    std::vector<Link> ls; // lower j - switch
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        ls.push_back(Connect(t, t.lowerNames[j] + "-switch", t.lower.Get(j), t.cacheSwitch));
        t.lowerMips.push_back(ls.back().addrA);
    }
    std::vector<Link> sc; // switch - cache c
    for (uint32_t c = 0; c < m_numCaches; ++c)
    {
        sc.push_back(Connect(t, "switch-" + t.cacheNames[c], t.cacheSwitch, t.caches.Get(c)));
        t.cacheAddresses.push_back(sc.back().addrB);
        Static(t.caches.Get(c))->SetDefaultRoute(sc.back().addrA, sc.back().ifB);
        t.missGateway.push_back((c + m_missGatewayOffset) % m_numLower);
    }

    auto hop = [](uint32_t iface, Ipv4Address gw, const std::string& name) {
        AdcNextHop h;
        h.interface = iface;
        h.gateway = gw;
        h.name = name;
        return h;
    };
    auto rule = [](const std::string& name, AdcPolicyRule::Action action) {
        AdcPolicyRule r;
        r.name = name;
        r.action = action;
        return r;
    };

    // Router: requests from the lower tier go straight to the origin; client requests to the
    // upper tier (ECMP), or in one-tier mode to the lower tier, with PBR for the return.
    t.routerRouting = AddPolicy(t.router);
    {
        AdcPolicyRule r = rule("lower-to-origin", AdcPolicyRule::FORWARD);
        for (const auto& a : lowerAtt)
        {
            r.inInterfaces.push_back(a.GetCoreInterface());
        }
        r.dstNet = kOriginNet;
        r.dstMask = kOriginMask;
        r.nextHops.push_back(hop(originAtt.GetCoreInterface(), t.originAddress, "origin"));
        t.routerRouting->AddRule(r);
    }
    if (m_numUpper > 0)
    {
        AdcPolicyRule r = rule("to-upper-tier", AdcPolicyRule::BALANCE);
        r.dstNet = kOriginNet;
        r.dstMask = kOriginMask;
        r.balanceMethod = m_routerMethod;
        for (uint32_t i = 0; i < m_numUpper; ++i)
        {
            r.nextHops.push_back(
                hop(upperAtt[i].GetCoreInterface(), upperAtt[i].GetNodeAddress(), t.upperNames[i]));
        }
        t.routerRouting->AddRule(r);
    }
    else
    {
        for (uint32_t j = 0; j < m_numLower; ++j)
        {
            AdcPolicyRule r = rule("pbr-" + t.lowerNames[j], AdcPolicyRule::FORWARD);
            r.inInterfaces.push_back(originAtt.GetCoreInterface());
            r.dstNet = kClientNet;
            r.dstMask = kClientMask;
            r.protocol = 6;
            r.dstPorts = t.lowerRanges[j];
            r.nextHops.push_back(
                hop(lowerAtt[j].GetCoreInterface(), lowerAtt[j].GetNodeAddress(), t.lowerNames[j]));
            t.pbrRules.push_back(t.routerRouting->AddRule(r));
        }
        AdcPolicyRule r = rule("vserver-any", AdcPolicyRule::BALANCE);
        r.dstNet = kOriginNet;
        r.dstMask = kOriginMask;
        r.balanceMethod = m_upperMethod;
        for (uint32_t j = 0; j < m_numLower; ++j)
        {
            r.nextHops.push_back(
                hop(lowerAtt[j].GetCoreInterface(), lowerAtt[j].GetNodeAddress(), t.lowerNames[j]));
        }
        t.balanceRule = t.routerRouting->AddRule(r);
    }

    // Upper tier: PBR by destination-port range for the origin's return traffic, then the
    // sessionless virtual server of service type ANY on '*' for everything from the router.
    for (uint32_t i = 0; m_upperMode == APPLIANCE && i < m_numUpper; ++i)
    {
        Ptr<AdcPolicyRouting> p = AddPolicy(t.upper.Get(i));
        t.upperRouting.push_back(p);
        for (uint32_t j = 0; j < m_numLower; ++j)
        {
            AdcPolicyRule r = rule("pbr-" + t.lowerNames[j], AdcPolicyRule::FORWARD);
            r.inInterfaces.push_back(ou[i].ifB);
            r.dstNet = kClientNet;
            r.dstMask = kClientMask;
            r.protocol = 6;
            r.dstPorts = t.lowerRanges[j];
            r.nextHops.push_back(hop(ul[i][j].ifA, ul[i][j].addrB, t.lowerNames[j]));
            const uint32_t index = p->AddRule(r);
            if (i == 0)
            {
                t.pbrRules.push_back(index);
            }
        }
        AdcPolicyRule r = rule("vserver-any", AdcPolicyRule::BALANCE);
        r.inInterfaces.push_back(upperAtt[i].GetNodeInterface());
        r.balanceMethod = m_upperMethod;
        for (uint32_t j = 0; j < m_numLower; ++j)
        {
            r.nextHops.push_back(hop(ul[i][j].ifA, ul[i][j].addrB, t.lowerNames[j]));
        }
        t.balanceRule = p->AddRule(r);
    }
    if (m_upperMode == ROUTER)
    {
        RouteUpperRouters(t, ul);
    }

    // Lower tier: intercept client HTTP from upstream, cache misses from the switch, and the
    // origin's responses to the ports of its own range.
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        Ptr<AdcPolicyRouting> p = AddPolicy(t.lower.Get(j));
        t.lowerRouting.push_back(p);
        std::vector<uint32_t> upstream;
        for (uint32_t i = 0; i < m_numUpper; ++i)
        {
            upstream.push_back(ul[i][j].ifB);
        }
        if (m_numUpper == 0)
        {
            upstream.push_back(lowerAtt[j].GetNodeInterface());
        }
        AdcPolicyRule client = rule("intercept-client", AdcPolicyRule::LOCAL);
        client.inInterfaces = upstream;
        client.dstNet = kOriginNet;
        client.dstMask = kOriginMask;
        client.protocol = 6;
        client.dstPorts = AdcPortRange{kHttpPort, kHttpPort};
        p->AddRule(client);
        AdcPolicyRule miss = client;
        miss.name = "intercept-miss";
        miss.inInterfaces = {ls[j].ifA};
        p->AddRule(miss);
        AdcPolicyRule back = rule("origin-return", AdcPolicyRule::LOCAL);
        back.inInterfaces = upstream;
        back.dstNet = kClientNet;
        back.dstMask = kClientMask;
        back.protocol = 6;
        back.dstPorts = t.lowerRanges[j];
        p->AddRule(back);
        Static(t.lower.Get(j))->AddNetworkRouteTo(kCacheBlock, kCacheMask, ls[j].addrB, ls[j].ifA);
    }

    // Cache switch: each cache's traffic to the origin goes to its miss gateway.
    t.switchRouting = AddPolicy(t.cacheSwitch);
    for (uint32_t c = 0; c < m_numCaches; ++c)
    {
        const uint32_t g = t.missGateway[c];
        AdcPolicyRule r = rule("miss-" + t.cacheNames[c], AdcPolicyRule::FORWARD);
        r.srcNet = t.cacheAddresses[c];
        r.srcMask = Ipv4Mask("255.255.255.255");
        r.dstNet = kOriginNet;
        r.dstMask = kOriginMask;
        r.nextHops.push_back(hop(ls[g].ifB, ls[g].addrA, t.lowerNames[g]));
        t.switchRouting->AddRule(r);
    }

    // Origin: traffic to clients goes back through the upper tier.
    t.originRouting = AddPolicy(t.origin);
    if (m_numUpper > 0)
    {
        AdcPolicyRule r = rule("return-to-upper-tier", AdcPolicyRule::BALANCE);
        r.dstNet = kClientNet;
        r.dstMask = kClientMask;
        r.balanceMethod = m_originMethod;
        for (uint32_t i = 0; i < m_numUpper; ++i)
        {
            r.nextHops.push_back(hop(ou[i].ifA, ou[i].addrB, t.upperNames[i]));
        }
        t.originRouting->AddRule(r);
    }
}

void
CrdTopologyHelper::RouteUpperRouters(CrdTopology& t, const std::vector<std::vector<Link>>& ul)
{
    // Plain forwarding: requests to the origin and the origin's responses to clients both go
    // to one lower appliance; the default route (to the router) stays for everything else.
    for (uint32_t i = 0; i < m_numUpper; ++i)
    {
        const Link& l = ul[i][i % m_numLower];
        Ptr<Ipv4StaticRouting> routes = Static(t.upper.Get(i));
        routes->AddNetworkRouteTo(kOriginNet, kOriginMask, l.addrB, l.ifA);
        routes->AddNetworkRouteTo(kClientNet, kClientMask, l.addrB, l.ifA);
    }
}

void
CrdTopologyHelper::InstallRelays(CrdTopology& t)
{
    for (uint32_t j = 0; j < m_numLower; ++j)
    {
        Ptr<AdcTcpRelay> relay = CreateObject<AdcTcpRelay>();
        relay->SetAttribute("Port", UintegerValue(kHttpPort));
        relay->SetAttribute("PortRange", StringValue(t.lowerRanges[j].ToString()));
        relay->SetRouting(t.lowerRouting[j]);
        t.lower.Get(j)->AddApplication(relay);
        t.relayApps.push_back(relay);
    }
}

void
CrdTopologyHelper::InstallApplications(CrdTopology& t)
{
    t.originApp = CreateObject<AdcHttpServer>();
    t.originApp->SetAttribute("ServerName", StringValue("origin"));
    t.originApp->SetAttribute("ObjectSize", UintegerValue(m_objectSize));
    t.originApp->SetAttribute("VaryByClientIp", BooleanValue(true));
    t.origin->AddApplication(t.originApp);

    for (uint32_t c = 0; c < m_numCaches; ++c)
    {
        Ptr<CrdCacheServer> cache = CreateObject<CrdCacheServer>();
        cache->SetAttribute("Name", StringValue(t.cacheNames[c]));
        cache->SetAttribute("OriginAddress", Ipv4AddressValue(t.originAddress));
        cache->SetAttribute("Capacity", UintegerValue(m_cacheCapacity));
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
        app->SetAttribute("ServerConnectionReuse", BooleanValue(m_serverReuse));
        for (uint32_t c = 0; c < m_numCaches; ++c)
        {
            app->AddCacheServer(t.cacheNames[c], t.cacheAddresses[c], kHttpPort);
        }
        app->SetCacheNetwork(kCacheBlock, kCacheMask);
        app->SetRouting(t.lowerRouting[j]);
        t.lower.Get(j)->AddApplication(app);
        t.lowerApps.push_back(app);
    }
}

void
CrdTopologyHelper::InstallMonitors(CrdTopology& t)
{
    auto makeMonitor = [this](const std::string& name) {
        Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
        m->SetAttribute("Type", EnumValue(AdcHealthMonitor::TCP));
        m->SetAttribute("Name", StringValue(name));
        m->SetAttribute("Interval", TimeValue(m_monitorInterval));
        m->SetAttribute("ResponseTimeout", TimeValue(m_monitorTimeout));
        m->SetAttribute("Retries", UintegerValue(m_monitorRetries));
        m->SetAttribute("DownTime", TimeValue(m_monitorInterval));
        m->SetStartTime(m_monitorInterval / 2);
        return m;
    };
    if (m_monitorLower)
    {
        // Each balancer of the lower tier (the upper appliances, or the router) probes it.
        std::vector<std::pair<Ptr<Node>, Ptr<AdcPolicyRouting>>> balancers;
        for (uint32_t i = 0; i < t.upperRouting.size(); ++i) // none when they are routers
        {
            balancers.emplace_back(t.upper.Get(i), t.upperRouting[i]);
        }
        if (m_numUpper == 0)
        {
            balancers.emplace_back(t.router, t.routerRouting);
        }
        for (const auto& [node, policy] : balancers)
        {
            Ptr<AdcHealthMonitor> m = makeMonitor("tcp-lower-tier");
            const AdcPolicyRule& r = policy->GetRule(t.balanceRule);
            for (uint32_t j = 0; j < m_numLower; ++j)
            {
                m->AddTarget(r.nextHops[j].gateway, kHttpPort, t.lowerNames[j]);
            }
            m->SetStateChangeCallback(MakeBoundCallback(&FollowHop, policy, t.balanceRule));
            node->AddApplication(m);
            t.upperMonitors.push_back(m);
        }
    }
    if (m_monitorCaches && m_numCaches > 0 && m_lowerMode == PROXY) // relays use no cache
    {
        for (uint32_t j = 0; j < m_numLower; ++j)
        {
            Ptr<AdcHealthMonitor> m = makeMonitor("tcp-caches");
            for (uint32_t c = 0; c < m_numCaches; ++c)
            {
                m->AddTarget(t.cacheAddresses[c], kHttpPort, t.cacheNames[c]);
            }
            m->SetStateChangeCallback(MakeBoundCallback(&FollowCache, t.lowerApps[j]));
            t.lower.Get(j)->AddApplication(m);
            t.lowerMonitors.push_back(m);
        }
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
