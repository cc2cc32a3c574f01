/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD: builds the N-tier cache-redirection topology of the seed (NetScaler appliances in two
 * tiers in front of cache servers and an origin) for any number of each part.
 */

#ifndef CRD_TOPOLOGY_HELPER_H
#define CRD_TOPOLOGY_HELPER_H

#include "ns3/adc-isp-topology-helper.h"
#include "ns3/adc-port-range.h"
#include "ns3/crd-lower-tier.h"
#include "ns3/crd-route-plan.h"
#include "ns3/crd-topology.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Builds the N-tier cache-redirection topology.
 *
 * Clients sit in ISP access networks behind the core router (AdcIspTopologyHelper). Client
 * traffic to the origin goes router -> upper tier (sessionless balancing by next hop: IP and
 * ports untouched, no per-flow state) -> a lower-tier appliance, which intercepts HTTP and sends
 * a cacheable request to a cache server (source: its mapped IP; client IP in a header) or a
 * non-cacheable one to the origin through the router (source: the client IP, a port from its
 * exclusive range). The origins ("NumOrigins", each with its own /30 and host name,
 * "OriginHostNames") sit behind the router, the ISP's border, on one link each
 * ("OriginDelay", "OriginDataRate"): their traffic for client addresses goes back to the
 * router, which balances it over the upper tier ("OriginBalanceMethod"), whose policy-based
 * routes pick the lower appliance owning the destination port. Requests and responses cross
 * the same links, so a client's delay to an origin is the same both ways. Which origin serves
 * a request: the one the client connected to (bypass: the lower tier sends it to the original
 * destination); a cache fetches a miss from the origin of the request's Host
 * (CrdCacheServer::AddOrigin) and keys its store by host and URL. Caches reach the
 * origin through a lower appliance (their miss gateway), which intercepts, takes the client IP
 * from the header and connects from its own range; the cache switch tracks the miss gateways
 * ("MonitorMissGateways") and sends a cache's misses to the next lower appliance up while its
 * gateway is DOWN (a tracked static route with floating backups, CrdMissRouteTracker). Responses to clients leave the lower tier
 * straight to the router. The lower appliances know each other as Via peers
 * (CrdLowerTierAppliance::AddViaPeer), so a miss crossing another appliance is recognised.
 *
 * With NumUpper = 0 (one tier), the router balances client traffic over the lower tier and
 * holds the policy-based routes itself. The address plan and every node's rules are
 * CrdRoutePlan's; the handles Build returns are a CrdTopology.
 *
 * Health monitoring binds monitors to services, no adapter in between (TCP probes to port 80,
 * "MonitorInterval", "MonitorTimeout", "MonitorRetries"): each balancer of the lower tier runs
 * one monitor bound to its services of the lower appliances (CrdTopology::lowerTierServices),
 * which the next hops of its BALANCE rule follow ("MonitorLowerTier"); each lower appliance runs
 * one monitor bound to the cache services of its cache vserver ("MonitorCaches"); the cache
 * switch runs one bound to its services of the lower appliances' MIPs
 * (CrdTopology::missGatewayServices, "MonitorMissGateways"); the router pings the upper tier
 * (CrdTopology::upperTierServices, "MonitorUpperTier"). A back-end is out of rotation while its
 * service is DOWN; before the first verdict (UNKNOWN) it is in use. Each lower appliance resets
 * segments of connections it does not have (CrdOrphanReset, "ResetOrphans").
 *
 * Baselines for benchmarks replace a tier by something plainer, with client traffic taking
 * the same links:
 * - "LowerTierMode" RELAY: each lower appliance runs a bare AdcTcpRelay instead of the proxy.
 *   Client traffic is intercepted by the same rules and relayed, unparsed, to the origin from
 *   the client IP (USIP) and a port of that appliance's range, so the origin's responses come
 *   back by the same policy-based routes. The caches are built but get no traffic, and the
 *   lower tier does not monitor them.
 * - "UpperTierMode" ROUTER: the upper appliances are plain ns-3 routers: no policy routing,
 *   no health monitoring, only static routes: upper i sends the origin prefix and the client
 *   prefix to lower appliance i mod NumLower (so only the first min(NumUpper, NumLower) lower
 *   appliances get traffic). With "UpperRouterEcmp" each upper router instead spreads the
 *   flows to the origins over every lower appliance by a per-flow 5-tuple hash
 *   (AdcEcmpRouting, CrdTopology::upperEcmp), as the appliances' sessionless hash balancing
 *   does; it needs LowerTierMode RELAY with "RelayClientSource" false (the relays connect
 *   from their own address, so the origins' responses return to them through the router
 *   and never cross the upper tier). Static routes cannot choose by port, so the origin's response
 *   for a client must cross the upper router its requests crossed: when the upper routers
 *   lead to more than one lower appliance, the router must spread clients by SOURCEIPHASH
 *   (or hash-ip) and the origin by DESTINATIONIPHASH, which pick the same upper for a client
 *   IP. ROUTER needs NumUpper >= 1, and with LowerTierMode PROXY it needs CacheableRule NONE
 *   (a cache miss reaches the origin through a miss gateway that need not be the lower
 *   appliance the upper router leads to). Other combinations are an AdcConfigError.
 */
class CrdTopologyHelper : public Object
{
  public:
    /// What runs on the lower-tier appliances.
    enum LowerTierMode
    {
        PROXY, //!< CrdLowerTierAppliance, the seed's transparent cache-redirection proxy
        RELAY  //!< AdcTcpRelay: bytes copied to the origin, nothing else (a baseline)
    };

    /// What the upper-tier appliances are.
    enum UpperTierMode
    {
        APPLIANCE, //!< sessionless balancing and PBR (AdcPolicyRouting), the seed's upper tier
        ROUTER     //!< plain routers with static routes (a baseline)
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    CrdTopologyHelper();

    /// \return the ISP helper (set its attributes, e.g. NumAccessNetworks, before Build)
    Ptr<AdcIspTopologyHelper> GetIspHelper() const;

    /**
     * \brief Check the settings without building.
     * \throw AdcConfigError naming the setting, the value and what is allowed
     */
    void Validate() const;

    /**
     * \brief Build everything, install the appliances' applications, routes and monitors.
     * \return handles on every part
     */
    CrdTopology Build();

    /**
     * \brief Take a lower-tier appliance down at \p at (all its interfaces).
     * \param topo the built topology
     * \param index lower appliance index
     * \param at when
     */
    static void ScheduleLowerFailure(const CrdTopology& topo, uint32_t index, Time at);

    /**
     * \brief Fail an appliance at \p at (every interface down: it neither receives nor sends,
     * so its connections end as their peers see fit) and, optionally, recover it (interfaces
     * up again; the node kept its sockets, whose peers have given up by then).
     * \param topo the built topology
     * \param name L1NSi, L2NSj, CRSc, or gateway:CRSc (CrdTopology::FindAppliance)
     * \param at when it fails
     * \param recoverAt when it recovers; zero or negative: never
     * \throw AdcConfigError for an unknown name, or a recovery not after the failure
     */
    static void ScheduleFailure(const CrdTopology& topo,
                                const std::string& name,
                                Time at,
                                Time recoverAt = Seconds(-1));

    /**
     * \brief Take a cache server down at \p at.
     * \param topo the built topology
     * \param index cache index
     * \param at when
     */
    static void ScheduleCacheFailure(const CrdTopology& topo, uint32_t index, Time at);

    /**
     * \param text "a-b,c-d,..." or "" \param n number of lower appliances \param whole bounds
     * \return n exclusive ranges: \p text parsed and checked, or \p whole split evenly
     * \throw AdcConfigError for overlaps, ranges outside \p whole, or a count other than n
     */
    static std::vector<AdcPortRange> MakeLowerRanges(const std::string& text,
                                                     uint32_t n,
                                                     AdcPortRange whole);

  protected:
    void DoDispose() override;

  private:
    /// \param t the topology: create its nodes, with their names and stacks
    void CreateNodes(CrdTopology& t);
    /// \param t the topology: attach to the router and link the parts \return the links
    CrdRoutePlan::Fabric CreateLinks(CrdTopology& t);
    /// \param t the topology: install the lower tier, caches and origin applications
    void InstallApplications(CrdTopology& t);
    /// \param t the topology: install the health monitors, bound to the services
    void InstallMonitors(CrdTopology& t);
    /// \return a TCP monitor named \p name with the helper's monitor settings
    /// \param ping a PING monitor rather than TCP
    Ptr<AdcHealthMonitor> MakeMonitor(const std::string& name, bool ping = false) const;
    /// Check the settings of UpperTierMode ROUTER (AdcConfigError on a combination that fails).
    void ValidateRouterMode() const;

    /// \return the origins' host names (OriginHostNames or the defaults)
    /// \throws AdcConfigError for a bad list
    std::vector<std::string> OriginHosts() const;
    /// \param t the topology \param name the link's name \param a one end \param b the other
    /// \return a new link between \p a and \p b with the next /30 of its block
    CrdRoutePlan::Link Connect(CrdTopology& t, const std::string& name, Ptr<Node> a, Ptr<Node> b);
    /// \param t the topology: LowerTierMode RELAY, a relay on every lower appliance
    void InstallRelays(CrdTopology& t);

    Ptr<AdcIspTopologyHelper> m_isp; //!< the ISP part
    uint32_t m_numUpper;             //!< upper-tier appliances
    uint32_t m_numLower;             //!< lower-tier appliances
    uint32_t m_numCaches;            //!< cache servers
    uint32_t m_numOrigins;           //!< origin servers
    std::string m_originHostNames;   //!< OriginHostNames
    std::string m_portRange;         //!< the port space split across the lower tier
    std::string m_lowerRanges;       //!< explicit ranges, or "" to split evenly
    std::string m_upperMethod;       //!< upper tier's sessionless method
    std::string m_routerMethod;      //!< router's balancing over the upper tier
    std::string m_originMethod;      //!< origin's spread of return traffic
    std::string m_cacheMethod;       //!< lower tier's cache choice
    CrdLowerTierAppliance::CacheableRule m_cacheableRule; //!< cacheable or not
    std::string m_cachePolicies;                          //!< the lower tier's CachePolicies
    uint64_t m_cacheCapacity;                             //!< bytes per cache
    uint32_t m_objectSize;                                //!< origin's object size
    uint32_t m_missGatewayOffset; //!< cache c's misses cross lower (c + offset) % n
    std::string m_fabricRate;     //!< appliance links' rate
    Time m_fabricDelay;           //!< appliance links' delay
    std::string m_originRate;     //!< origin links' rate
    Time m_originDelay;           //!< origin links' delay
    bool m_monitorLower;          //!< upper tier probes the lower tier
    bool m_monitorCaches;         //!< lower tier probes the caches
    bool m_monitorMissGateways;   //!< the cache switch tracks the caches' miss gateways
    bool m_monitorUpper;          //!< the router pings the upper tier
    bool m_orphanReset;           //!< the lower tier resets unknown connections' segments
    Time m_monitorInterval;       //!< probe interval
    Time m_monitorTimeout;        //!< probe timeout
    uint32_t m_monitorRetries;    //!< failures before DOWN
    uint32_t m_nextLink{0};       //!< next /30 of the fabric block
    LowerTierMode m_lowerMode;    //!< proxy or bare relay
    UpperTierMode m_upperMode;    //!< appliances or plain routers
    bool m_serverReuse;           //!< the lower tier's ServerConnectionReuse
    bool m_relayClientSource;     //!< RELAY: the relays connect from the client IP (USIP)
    bool m_upperRouterEcmp;       //!< ROUTER: per-flow ECMP over every lower appliance
};

} // namespace ns3

#endif /* CRD_TOPOLOGY_HELPER_H */
