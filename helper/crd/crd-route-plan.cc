/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crd-route-plan.h"

#include "ns3/adc-stack-helper.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"

namespace ns3
{

namespace
{

/// Priority of the policy routes: above static routing (0).
const int16_t kPolicyPriority = 100;

/// \param node a node \return a new policy-routing protocol at the top of its list
Ptr<AdcPolicyRouting>
AddPolicy(Ptr<Node> node)
{
    Ptr<AdcPolicyRouting> policy = CreateObject<AdcPolicyRouting>();
    AdcAddTopIpv4Routing(node, policy, kPolicyPriority);
    return policy;
}

/// \param node a node \return its static routing
Ptr<Ipv4StaticRouting>
Static(Ptr<Node> node)
{
    return Ipv4StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv4>());
}

/// \param iface outgoing interface \param gw gateway \param name hop name \return the hop
AdcNextHop
Hop(uint32_t iface, Ipv4Address gw, const std::string& name)
{
    AdcNextHop h;
    h.interface = iface;
    h.gateway = gw;
    h.name = name;
    return h;
}

/// \param name rule name \param action its action \return a rule matching everything
AdcPolicyRule
Rule(const std::string& name, AdcPolicyRule::Action action)
{
    AdcPolicyRule r;
    r.name = name;
    r.action = action;
    return r;
}

/// \param name rule name \param method its method \param hops its hops \return a BALANCE rule
AdcPolicyRule
Balance(const std::string& name, const std::string& method, std::vector<AdcNextHop> hops)
{
    AdcPolicyRule r = Rule(name, AdcPolicyRule::BALANCE);
    r.balanceMethod = method;
    r.nextHops = std::move(hops);
    return r;
}

} // namespace

void
CrdRoutePlan::Install(CrdTopology& t,
                      const Fabric& f,
                      const Methods& methods,
                      bool upperAppliances,
                      bool upperEcmp)
{
    InstallRouter(t, f, methods);
    if (upperAppliances)
    {
        InstallUpperTier(t, f, methods.upper);
    }
    else
    {
        RouteUpperRouters(t, f, upperEcmp);
    }
    InstallLowerTier(t, f);
    InstallCacheSwitch(t, f);
    InstallOrigin(t, f, methods.origin);
}

std::vector<AdcNextHop>
CrdRoutePlan::HopsToLowerTier(const CrdTopology& t, const Fabric& f, int32_t upper)
{
    std::vector<AdcNextHop> hops;
    for (uint32_t j = 0; j < t.lower.GetN(); ++j)
    {
        if (upper >= 0)
        {
            const Link& l = f.ul[upper][j];
            hops.push_back(Hop(l.ifA, l.addrB, t.lowerNames[j]));
        }
        else
        {
            const AdcCoreAttachment& a = f.lower[j];
            hops.push_back(Hop(a.GetCoreInterface(), a.GetNodeAddress(), t.lowerNames[j]));
        }
    }
    return hops;
}

AdcPolicyRule
CrdRoutePlan::PbrRule(const CrdTopology& t,
                      uint32_t lower,
                      const std::vector<uint32_t>& inInterfaces,
                      const AdcNextHop& hop)
{
    AdcPolicyRule r = Rule("pbr-" + t.lowerNames[lower], AdcPolicyRule::FORWARD);
    r.inInterfaces = inInterfaces;
    r.dstNet = kClientNet;
    r.dstMask = kClientMask;
    r.protocol = 6;
    r.dstPorts = t.lowerRanges[lower];
    r.nextHops.push_back(hop);
    return r;
}

AdcPolicyRule
CrdRoutePlan::BalanceOverLowerTier(CrdTopology& t,
                                   std::vector<AdcNextHop> hops,
                                   const std::string& method)
{
    // One service per back-end as this balancer sees it; monitors bind to it, the hop follows.
    std::vector<Ptr<AdcService>> services;
    for (AdcNextHop& hop : hops)
    {
        hop.service = CreateObject<AdcService>();
        hop.service->Configure(hop.name, hop.gateway, "HTTP", kHttpPort);
        // The seed's 'add service L2NS1 ... ANY * -useproxyport NO': MAC-based forwarding
        // keeps the client's source port (the lower tier's port-range PBR depends on it).
        hop.service->SetAttribute("UseProxyPort", BooleanValue(false));
        services.push_back(hop.service);
    }
    t.lowerTierServices.push_back(services);
    return Balance("vserver-any", method, std::move(hops));
}

void
CrdRoutePlan::InstallRouter(CrdTopology& t, const Fabric& f, const Methods& methods)
{
    // Requests from the lower tier go straight to their origin; client requests to the upper
    // tier (ECMP), or in one-tier mode to the lower tier, with PBR for the return; the
    // origins' responses to the upper tier (balanced), or in one-tier mode by PBR.
    t.routerRouting = AddPolicy(t.router);
    std::vector<uint32_t> fromOrigins;
    for (uint32_t k = 0; k < f.origins.size(); ++k)
    {
        const AdcCoreAttachment& o = f.origins[k];
        fromOrigins.push_back(o.GetCoreInterface());
        AdcPolicyRule toOrigin = Rule(f.origins.size() == 1 ? std::string("lower-to-origin")
                                                            : "lower-to-" + t.originNames[k],
                                      AdcPolicyRule::FORWARD);
        for (const AdcCoreAttachment& a : f.lower)
        {
            toOrigin.inInterfaces.push_back(a.GetCoreInterface());
        }
        toOrigin.dstNet = o.network;
        toOrigin.dstMask = o.mask;
        toOrigin.nextHops.push_back(
            Hop(o.GetCoreInterface(), o.GetNodeAddress(), t.originNames[k]));
        t.routerRouting->AddRule(toOrigin);
    }
    if (t.upper.GetN() > 0)
    {
        std::vector<AdcNextHop> hops;
        for (uint32_t i = 0; i < t.upper.GetN(); ++i)
        {
            const AdcCoreAttachment& a = f.upper[i];
            hops.push_back(Hop(a.GetCoreInterface(), a.GetNodeAddress(), t.upperNames[i]));
            // The router tracks each upper appliance (routerMonitor pings it): a failed one
            // leaves both rules, and its flows rehash to the others (sessionless, so they
            // keep their lower appliance).
            hops.back().service = CreateObject<AdcService>();
            hops.back().service->Configure(t.upperNames[i], a.GetNodeAddress(), "ANY", 0);
            t.upperTierServices.push_back(hops.back().service);
        }
        AdcPolicyRule r = Balance("to-upper-tier", methods.router, hops);
        r.dstNet = kOriginNet;
        r.dstMask = kOriginMask;
        t.routerRouting->AddRule(r);
        AdcPolicyRule back = Balance("origin-return", methods.origin, hops);
        back.inInterfaces = fromOrigins;
        back.dstNet = kClientNet;
        back.dstMask = kClientMask;
        t.routerRouting->AddRule(back);
        return;
    }
    const std::vector<AdcNextHop> hops = HopsToLowerTier(t, f, -1);
    for (uint32_t j = 0; j < hops.size(); ++j)
    {
        t.pbrRules.push_back(t.routerRouting->AddRule(PbrRule(t, j, fromOrigins, hops[j])));
    }
    AdcPolicyRule r = BalanceOverLowerTier(t, hops, methods.upper);
    r.dstNet = kOriginNet;
    r.dstMask = kOriginMask;
    t.balanceRule = t.routerRouting->AddRule(r);
}

void
CrdRoutePlan::InstallUpperTier(CrdTopology& t, const Fabric& f, const std::string& method)
{
    // PBR by destination-port range for the origin's return traffic, then the sessionless
    // virtual server of service type ANY on '*' for everything from the router.
    for (uint32_t i = 0; i < t.upper.GetN(); ++i)
    {
        Ptr<AdcPolicyRouting> p = AddPolicy(t.upper.Get(i));
        t.upperRouting.push_back(p);
        const std::vector<AdcNextHop> hops = HopsToLowerTier(t, f, static_cast<int32_t>(i));
        for (uint32_t j = 0; j < hops.size(); ++j)
        {
            const uint32_t index =
                p->AddRule(PbrRule(t, j, {f.upper[i].GetNodeInterface()}, hops[j]));
            if (i == 0)
            {
                t.pbrRules.push_back(index);
            }
        }
        AdcPolicyRule r = BalanceOverLowerTier(t, hops, method);
        r.inInterfaces.push_back(f.upper[i].GetNodeInterface());
        t.balanceRule = p->AddRule(r);
    }
}

void
CrdRoutePlan::RouteUpperRouters(CrdTopology& t, const Fabric& f, bool ecmp)
{
    // Plain forwarding: requests to the origin and the origin's responses to clients both go
    // to one lower appliance; the default route (to the router) stays for everything else.
    for (uint32_t i = 0; i < t.upper.GetN(); ++i)
    {
        const Link& l = f.ul[i][i % t.lower.GetN()];
        Ptr<Ipv4StaticRouting> routes = Static(t.upper.Get(i));
        routes->AddNetworkRouteTo(kOriginNet, kOriginMask, l.addrB, l.ifA);
        routes->AddNetworkRouteTo(kClientNet, kClientMask, l.addrB, l.ifA);
        if (ecmp)
        {
            // In front of the static routes: one equal-cost next hop per lower appliance,
            // chosen per flow by the 5-tuple hash with this router's seed.
            Ptr<AdcEcmpRouting> e = CreateObject<AdcEcmpRouting>();
            AdcAddTopIpv4Routing(t.upper.Get(i), e, kPolicyPriority);
            for (uint32_t j = 0; j < t.lower.GetN(); ++j)
            {
                e->AddRoute(kOriginNet, kOriginMask, f.ul[i][j].addrB, f.ul[i][j].ifA);
            }
            t.upperEcmp.push_back(e);
        }
    }
}

void
CrdRoutePlan::InstallLowerTier(CrdTopology& t, const Fabric& f)
{
    // Intercept client HTTP from upstream, cache misses from the switch, and the origin's
    // responses to the ports of its own range.
    for (uint32_t j = 0; j < t.lower.GetN(); ++j)
    {
        Ptr<AdcPolicyRouting> p = AddPolicy(t.lower.Get(j));
        t.lowerRouting.push_back(p);
        std::vector<uint32_t> upstream;
        for (uint32_t i = 0; i < t.upper.GetN(); ++i)
        {
            upstream.push_back(f.ul[i][j].ifB);
        }
        if (t.upper.GetN() == 0)
        {
            upstream.push_back(f.lower[j].GetNodeInterface());
        }
        AdcPolicyRule client = Rule("intercept-client", AdcPolicyRule::LOCAL);
        client.inInterfaces = upstream;
        client.dstNet = kOriginNet;
        client.dstMask = kOriginMask;
        client.protocol = 6;
        client.dstPorts = AdcPortRange{kHttpPort, kHttpPort};
        p->AddRule(client);
        AdcPolicyRule miss = client;
        miss.name = "intercept-miss";
        miss.inInterfaces = {f.ls[j].ifA};
        p->AddRule(miss);
        AdcPolicyRule back = Rule("origin-return", AdcPolicyRule::LOCAL);
        back.inInterfaces = upstream;
        back.dstNet = kClientNet;
        back.dstMask = kClientMask;
        back.protocol = 6;
        back.dstPorts = t.lowerRanges[j];
        p->AddRule(back);
        Static(t.lower.Get(j))
            ->AddNetworkRouteTo(kCacheBlock, kCacheMask, f.ls[j].addrB, f.ls[j].ifA);
    }
}

void
CrdRoutePlan::InstallCacheSwitch(CrdTopology& t, const Fabric& f)
{
    // Each cache's traffic to the origin goes to its miss gateway, or, while the switch's
    // monitor says that appliance is DOWN, to the next lower appliance that is not: a tracked
    // static route with floating backups, as an L3 switch tracks its next hops with probes. A
    // BALANCE rule with exactly one hop up forwards without changing the TTL, as the seed's
    // layer-2 switch does. The caches route through the switch.
    for (uint32_t c = 0; c < t.caches.GetN(); ++c)
    {
        Static(t.caches.Get(c))->SetDefaultRoute(f.sc[c].addrA, f.sc[c].ifB);
    }
    t.switchRouting = AddPolicy(t.cacheSwitch);
    const uint32_t n = t.lower.GetN();
    for (uint32_t j = 0; j < n; ++j)
    {
        Ptr<AdcService> service = CreateObject<AdcService>();
        service->Configure(t.lowerNames[j], f.ls[j].addrA, "HTTP", kHttpPort);
        t.missGatewayServices.push_back(service);
    }
    Ptr<CrdMissRouteTracker> tracker = Create<CrdMissRouteTracker>();
    tracker->routing = PeekPointer(t.switchRouting);
    for (const Ptr<AdcService>& service : t.missGatewayServices)
    {
        tracker->services.push_back(PeekPointer(service));
    }
    for (uint32_t c = 0; c < t.caches.GetN(); ++c)
    {
        AdcPolicyRule r = Balance("miss-" + t.cacheNames[c], "hash-ip-port", {});
        r.srcNet = t.cacheAddresses[c];
        r.srcMask = Ipv4Mask("255.255.255.255");
        r.dstNet = kOriginNet;
        r.dstMask = kOriginMask;
        std::vector<uint32_t> order;
        for (uint32_t k = 0; k < n; ++k)
        {
            const uint32_t g = (t.missGateway[c] + k) % n;
            order.push_back(g);
            r.nextHops.push_back(Hop(f.ls[g].ifB, f.ls[g].addrA, t.lowerNames[g]));
        }
        t.missRules.push_back(t.switchRouting->AddRule(r));
        t.missPreference.push_back(order);
    }
    tracker->rules = t.missRules;
    tracker->preference = t.missPreference;
    for (const Ptr<AdcService>& service : t.missGatewayServices)
    {
        service->TraceConnectWithoutContext("StateChange",
                                            MakeCallback(&CrdMissRouteTracker::Changed, tracker));
    }
    tracker->Update();
}

void
CrdMissRouteTracker::Update()
{
    for (uint32_t c = 0; c < rules.size(); ++c)
    {
        bool chosen = false;
        for (uint32_t h = 0; h < preference[c].size(); ++h)
        {
            // UNKNOWN (before the first probe, or no monitor) keeps the hop, as services do.
            const bool up = !chosen && services[preference[c][h]]->IsUp(true);
            routing->SetNextHopUp(rules[c], h, up);
            chosen = chosen || up;
        }
    }
}

void
CrdMissRouteTracker::Changed(const std::string& /* name */,
                             AdcService::State /* before */,
                             AdcService::State /* now */)
{
    Update();
}

void
CrdRoutePlan::InstallOrigin(CrdTopology& t, const Fabric& /* f */, const std::string& /* method */)
{
    // The origins route by default to the router, which balances their traffic to clients over
    // the upper tier ("origin-return"): no rule here.
    t.originRouting = AddPolicy(t.origin);
}

} // namespace ns3
