/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD: the address plan of the topology CrdTopologyHelper builds and the policy routes of
 * every node in it (router, upper tier, lower tier, cache switch, origin), with the services
 * the balancers of the lower tier follow.
 */

#ifndef CRD_ROUTE_PLAN_H
#define CRD_ROUTE_PLAN_H

#include "ns3/adc-isp-topology-helper.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/crd-topology.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The cache switch's miss routes follow the switch's services of the lower tier: for
 * each cache, the first lower appliance in its order of preference whose service is not DOWN
 * is the one hop up of its rule (a tracked static route with floating backups).
 */
struct CrdMissRouteTracker : public SimpleRefCount<CrdMissRouteTracker>
{
    // Plain pointers: the services hold the tracker (their "StateChange" callbacks), and the
    // switch's node holds its routing; Ptr here would make a cycle that is never freed.
    AdcPolicyRouting* routing{nullptr};            //!< the switch's
    std::vector<uint32_t> rules;                   //!< per cache: its miss rule
    std::vector<std::vector<uint32_t>> preference; //!< per cache: lower appliances, in order
    std::vector<AdcService*> services;             //!< per lower appliance: the switch's

    /// \brief Put exactly one hop of each rule up: the first whose service is not DOWN.
    void Update();
    /// \brief A service's "StateChange": Update().
    void Changed(const std::string& name, AdcService::State before, AdcService::State now);
};

/**
 * \ingroup adc
 * \brief Who lives in which prefix on the CRD topology, and the policy routes that carry the
 * seed's three flows (the traffic is described at CrdTopologyHelper).
 *
 * Prefixes: appliance fabric /30s in kFabricBlock (upper-lower, lower-switch), cache links /30s
 * in kCacheBlock/kCacheMask (the lower tier's cache network), the origins in kOriginNet/
 * kOriginMask behind the router (origin k on the k-th /30 of it: 203.0.113.4k + 2), every client
 * in kClientNet/kClientMask. The origins have no other link: requests reach them and their
 * responses leave them through the router, over the same links both ways.
 *
 * Rules, in the order each node evaluates them:
 * - router: "lower-to-<origin>" (FORWARD) per origin, then "to-upper-tier" (BALANCE over the
 *   upper tier) and "origin-return" (the origins' traffic to clients, BALANCE over the upper
 *   tier by the origin method) or, in one-tier mode, "pbr-<L2NSj>" per lower appliance (from
 *   the origins) then "vserver-any" (BALANCE over the lower tier);
 * - upper appliance (UpperTierMode APPLIANCE): "pbr-<L2NSj>" per lower appliance (traffic from
 *   the router to clients), then "vserver-any" (BALANCE over the lower tier); as plain routers,
 *   static routes instead;
 * - lower appliance: "intercept-client", "intercept-miss", "origin-return" (LOCAL);
 * - cache switch: "miss-<CRSc>" (BALANCE over every lower appliance with one hop up: the
 *   cache's miss gateway, or while it is DOWN the next one up; CrdMissRouteTracker);
 * - origin: no rule (its default route leads to the router).
 *
 * Each "vserver-any" hop follows a service (AdcNextHop::service) made for it: one per balancer
 * and lower appliance, named after the appliance, addressed as the balancer reaches it, port
 * 80, kept in CrdTopology::lowerTierServices; monitors bind to those services.
 */
class CrdRoutePlan
{
  public:
    /// A point-to-point link between two nodes with its /30.
    struct Link
    {
        NetDeviceContainer devices; //!< {a, b}
        Ipv4Address addrA;          //!< a's address
        Ipv4Address addrB;          //!< b's address
        uint32_t ifA{0};            //!< a's interface index
        uint32_t ifB{0};            //!< b's interface index
    };

    /// The links the routes use.
    struct Fabric
    {
        std::vector<AdcCoreAttachment> origins; //!< router - origin k
        std::vector<AdcCoreAttachment> upper;   //!< router - upper i
        std::vector<AdcCoreAttachment> lower;   //!< router - lower j
        std::vector<std::vector<Link>> ul;      //!< upper i - lower j
        std::vector<Link> ls;                   //!< lower j - cache switch
        std::vector<Link> sc;                   //!< cache switch - cache c
    };

    /// The balancing methods of the rules that balance.
    struct Methods
    {
        std::string router; //!< router over the upper tier
        std::string upper;  //!< upper tier (or router in one-tier mode) over the lower tier
        std::string origin; //!< origin's return traffic over the upper tier
    };

    /// The block of the appliance fabric's /30 links.
    inline static const Ipv4Address kFabricBlock{"100.64.0.0"};
    /// The block of the cache links' /30s: the lower tier's cache network.
    inline static const Ipv4Address kCacheBlock{"100.96.0.0"};
    /// The cache network's mask.
    inline static const Ipv4Mask kCacheMask{"255.255.0.0"};
    /// The origin's network, attached to the router.
    inline static const Ipv4Address kOriginNet{"203.0.113.0"};
    /// The origin network's mask.
    inline static const Ipv4Mask kOriginMask{"255.255.255.0"};
    /// The clients' network (a /16 per access network inside it).
    inline static const Ipv4Address kClientNet{"10.0.0.0"};
    /// The clients' network mask.
    inline static const Ipv4Mask kClientMask{"255.0.0.0"};
    /// The port the lower tier intercepts (HTTP), also the one monitors probe.
    static constexpr uint16_t kHttpPort = 80;

    /**
     * \brief Install every node's policy routes (and the static routes that go with them);
     * fills routerRouting, upperRouting, lowerRouting, switchRouting, originRouting,
     * balanceRule, pbrRules and lowerTierServices.
     * \param t the topology, with its nodes, names, ranges and miss gateways
     * \param f its links
     * \param methods the balancing methods
     * \param upperAppliances true for UpperTierMode APPLIANCE, false for plain upper routers
     * \param upperEcmp plain upper routers: spread the origins' prefix over every lower
     *        appliance by per-flow ECMP (AdcEcmpRouting, filling upperEcmp)
     */
    static void Install(CrdTopology& t,
                        const Fabric& f,
                        const Methods& methods,
                        bool upperAppliances,
                        bool upperEcmp = false);

  private:
    /// \param t the topology \param f its links \param methods the methods: the router's rules
    static void InstallRouter(CrdTopology& t, const Fabric& f, const Methods& methods);
    /// \param t the topology \param f its links \param method the balancing: upper appliances
    static void InstallUpperTier(CrdTopology& t, const Fabric& f, const std::string& method);
    /// \param t the topology \param f its links: upper i statically routes to lower i mod n
    /// \param ecmp also route the origins' prefix over every lower appliance by per-flow ECMP
    static void RouteUpperRouters(CrdTopology& t, const Fabric& f, bool ecmp);
    /// \param t the topology \param f its links: interception on the lower tier
    static void InstallLowerTier(CrdTopology& t, const Fabric& f);
    /// \param t the topology \param f its links: the caches' routes to their miss gateways
    static void InstallCacheSwitch(CrdTopology& t, const Fabric& f);
    /// \param t the topology \param f its links \param method unused (the router balances the
    /// origins' return traffic): the first origin's policy routing, without rules
    static void InstallOrigin(CrdTopology& t, const Fabric& f, const std::string& method);

    /**
     * \param t the topology
     * \param f its links
     * \param upper the upper appliance whose hops, or -1 for the router's (one-tier mode)
     * \return one next hop per lower appliance, named after it
     */
    static std::vector<AdcNextHop> HopsToLowerTier(const CrdTopology& t,
                                                   const Fabric& f,
                                                   int32_t upper);
    /**
     * \param t the topology
     * \param lower the lower appliance
     * \param inInterfaces where the origins' return traffic enters
     * \param hop the way to the lower appliance
     * \return the FORWARD rule "pbr-<name>": client-bound TCP to ports of its range goes there
     */
    static AdcPolicyRule PbrRule(const CrdTopology& t,
                                 uint32_t lower,
                                 const std::vector<uint32_t>& inInterfaces,
                                 const AdcNextHop& hop);
    /**
     * \brief The BALANCE rule "vserver-any" over the lower tier; each hop follows a new
     * service (appended to t.lowerTierServices as one balancer's row).
     * \param t the topology
     * \param hops the hops, one per lower appliance
     * \param method the balancing method
     * \return the rule (the caller adds what it matches)
     */
    static AdcPolicyRule BalanceOverLowerTier(CrdTopology& t,
                                              std::vector<AdcNextHop> hops,
                                              const std::string& method);
};

} // namespace ns3

#endif /* CRD_ROUTE_PLAN_H */
