/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD: builds the N-tier cache-redirection topology of the seed (NetScaler appliances in two
 * tiers in front of cache servers and an origin) for any number of each part.
 */

#ifndef CRD_TOPOLOGY_HELPER_H
#define CRD_TOPOLOGY_HELPER_H

#include "ns3/adc-health-monitor.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-isp-topology-helper.h"
#include "ns3/adc-path-tracer.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-tcp-relay.h"
#include "ns3/crd-cache-server.h"
#include "ns3/crd-lower-tier.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Handles on every part of a built CRD topology.
 *
 * Names follow the seed: the upper tier is L1NS1.., the lower tier L2NS1.., the caches CRS1..,
 * the ISP's core router is "router" and the origin server "origin".
 */
struct CrdTopology
{
    AdcIspTopology isp;        //!< clients, access networks and the core router
    Ptr<Node> router;          //!< the seed's router (the ISP core router)
    NodeContainer upper;       //!< upper-tier appliances (may be empty: one-tier mode)
    NodeContainer lower;       //!< lower-tier appliances
    NodeContainer caches;      //!< cache servers
    Ptr<Node> cacheSwitch;     //!< joins the lower tier and the caches (a switch in the seed)
    Ptr<Node> origin;          //!< the origin server
    Ipv4Address originAddress; //!< what clients address (the origin's IP)

    std::vector<std::string> upperNames;   //!< L1NS1..
    std::vector<std::string> lowerNames;   //!< L2NS1..
    std::vector<std::string> cacheNames;   //!< CRS1..
    std::vector<AdcPortRange> lowerRanges; //!< exclusive source-port range of each lower appliance
    std::vector<Ipv4Address> lowerMips;    //!< mapped IP of each lower appliance (cache side)
    std::vector<Ipv4Address> cacheAddresses; //!< cache servers' addresses
    std::vector<uint32_t> missGateway;       //!< per cache: the lower appliance its misses cross

    std::vector<Ptr<CrdLowerTierAppliance>> lowerApps; //!< the lower tier's proxies (PROXY mode)
    std::vector<Ptr<AdcTcpRelay>> relayApps;           //!< the lower tier's relays (RELAY mode)
    std::vector<Ptr<CrdCacheServer>> cacheApps;        //!< the cache servers
    Ptr<AdcHttpServer> originApp;                      //!< the origin's HTTP server

    Ptr<AdcPolicyRouting> routerRouting;             //!< policy routes on the router
    std::vector<Ptr<AdcPolicyRouting>> upperRouting; //!< per upper appliance (none: ROUTER)
    std::vector<Ptr<AdcPolicyRouting>> lowerRouting; //!< per lower appliance
    Ptr<AdcPolicyRouting> switchRouting;             //!< cache switch (miss gateways)
    Ptr<AdcPolicyRouting> originRouting;             //!< origin (return traffic to the tier)
    /// Index of the rule that balances client traffic: on each upper appliance, or on the
    /// router in one-tier mode (unused in UpperTierMode ROUTER).
    uint32_t balanceRule{0};
    /// Per lower appliance: its PBR rule (upper tier or router); empty in UpperTierMode ROUTER.
    std::vector<uint32_t> pbrRules;

    std::vector<Ptr<AdcHealthMonitor>> upperMonitors; //!< per upper: probes the lower tier
    std::vector<Ptr<AdcHealthMonitor>> lowerMonitors; //!< per lower: probes the caches

    std::map<std::string, NetDeviceContainer> links; //!< every link by name, e.g. "L1NS1-L2NS2"
    std::map<uint32_t, std::string> names;           //!< node id -> name

    /// \return "L2NS2", "CRS1", "router", "client3", ... or "" for an unnamed node
    std::string NameOf(Ptr<Node> node) const;
    /// \brief Watch every named node (clients, router, tiers, caches, origin) in \p tracer.
    void TraceNodes(Ptr<AdcPathTracer> tracer) const;
    /// \return the names of the links, sorted
    std::vector<std::string> GetLinkNames() const;
    /**
     * \brief Pcap on one named link (both ends).
     * \param prefix file name prefix (may contain a directory)
     * \param link a name from GetLinkNames()
     * \throw AdcConfigError for an unknown link, listing the known ones
     */
    void EnablePcap(const std::string& prefix, const std::string& link) const;
};

/**
 * \ingroup adc
 * \brief Builds the N-tier cache-redirection topology.
 *
 * Clients sit in ISP access networks behind the core router (AdcIspTopologyHelper). Client
 * traffic to the origin goes router -> upper tier (sessionless balancing by next hop: IP and
 * ports untouched, no per-flow state) -> a lower-tier appliance, which intercepts HTTP and sends
 * a cacheable request to a cache server (source: its mapped IP; client IP in a header) or a
 * non-cacheable one to the origin through the router (source: the client IP, a port from its
 * exclusive range). The origin returns traffic for client addresses to the upper tier, whose
 * policy-based routes pick the lower appliance owning the destination port. Caches reach the
 * origin through a lower appliance (their miss gateway), which intercepts, takes the client IP
 * from the header and connects from its own range. Responses to clients leave the lower tier
 * straight to the router.
 *
 * With NumUpper = 0 (one tier), the router balances client traffic over the lower tier and
 * holds the policy-based routes itself.
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
 *   appliances get traffic). Static routes cannot choose by port, so the origin's response
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
    /// Create nodes and links, with addresses.
    void CreateNodesAndLinks(CrdTopology& t);
    /// Install the policy routes of every node.
    void InstallRoutes(CrdTopology& t);
    /// Install the lower tier, caches and origin applications.
    void InstallApplications(CrdTopology& t);
    /// Install the health monitors.
    void InstallMonitors(CrdTopology& t);
    /// Check the settings of UpperTierMode ROUTER (AdcConfigError on a combination that fails).
    void ValidateRouterMode() const;

    /// A point-to-point link between two nodes with the next /30 of the fabric block.
    struct Link
    {
        NetDeviceContainer devices; //!< {a, b}
        Ipv4Address addrA;          //!< a's address
        Ipv4Address addrB;          //!< b's address
        uint32_t ifA{0};            //!< a's interface index
        uint32_t ifB{0};            //!< b's interface index
    };

    /// \return a new link named \p name between \p a and \p b
    Link Connect(CrdTopology& t, const std::string& name, Ptr<Node> a, Ptr<Node> b);
    /// UpperTierMode ROUTER: static routes of upper i to lower i mod NumLower over \p ul.
    void RouteUpperRouters(CrdTopology& t, const std::vector<std::vector<Link>>& ul);
    /// LowerTierMode RELAY: a relay on every lower appliance.
    void InstallRelays(CrdTopology& t);

    Ptr<AdcIspTopologyHelper> m_isp; //!< the ISP part
    uint32_t m_numUpper;             //!< upper-tier appliances
    uint32_t m_numLower;             //!< lower-tier appliances
    uint32_t m_numCaches;            //!< cache servers
    std::string m_portRange;         //!< the port space split across the lower tier
    std::string m_lowerRanges;       //!< explicit ranges, or "" to split evenly
    std::string m_upperMethod;       //!< upper tier's sessionless method
    std::string m_routerMethod;      //!< router's balancing over the upper tier
    std::string m_originMethod;      //!< origin's spread of return traffic
    std::string m_cacheMethod;       //!< lower tier's cache choice
    CrdLowerTierAppliance::CacheableRule m_cacheableRule; //!< cacheable or not
    uint64_t m_cacheCapacity;                             //!< bytes per cache
    uint32_t m_objectSize;                                //!< origin's object size
    uint32_t m_missGatewayOffset; //!< cache c's misses cross lower (c + offset) % n
    std::string m_fabricRate;     //!< appliance links' rate
    Time m_fabricDelay;           //!< appliance links' delay
    std::string m_originRate;     //!< origin links' rate
    Time m_originDelay;           //!< origin links' delay
    bool m_monitorLower;          //!< upper tier probes the lower tier
    bool m_monitorCaches;         //!< lower tier probes the caches
    Time m_monitorInterval;       //!< probe interval
    Time m_monitorTimeout;        //!< probe timeout
    uint32_t m_monitorRetries;    //!< failures before DOWN
    uint32_t m_nextLink{0};       //!< next /30 of the fabric block
    LowerTierMode m_lowerMode;    //!< proxy or bare relay
    UpperTierMode m_upperMode;    //!< appliances or plain routers
    bool m_serverReuse;           //!< the lower tier's ServerConnectionReuse
};

} // namespace ns3

#endif /* CRD_TOPOLOGY_HELPER_H */
