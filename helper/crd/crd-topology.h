/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD: what CrdTopologyHelper::Build() returns, the handles on every part of the N-tier
 * cache-redirection topology it built (nodes, links, addresses, applications, routing, the
 * services the balancers see and the health monitors bound to them).
 */

#ifndef CRD_TOPOLOGY_H
#define CRD_TOPOLOGY_H

#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-isp-topology-helper.h"
#include "ns3/adc-path-tracer.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-service.h"
#include "ns3/adc-tcp-relay.h"
#include "ns3/crd-cache-server.h"
#include "ns3/crd-lower-tier.h"
#include "ns3/crd-orphan-reset.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"

#include <cstdint>
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
 * the ISP's core router is "router" and the origin server "origin" (with several origins
 * "origin1", "origin2", ...).
 *
 * Back-ends are services (AdcService), one per back-end as one appliance sees it, and health
 * monitors bind to them (AdcService::BindMonitor): each balancer of the lower tier (the upper
 * appliances, or the router in one-tier mode) has one service per lower appliance, which the
 * matching next hop of its BALANCE rule follows (AdcNextHop::service), and its monitor in
 * upperMonitors is bound to those services; each lower appliance has one service per cache on
 * its cache vserver (CrdLowerTierAppliance::GetCacheService), and its monitor in lowerMonitors
 * is bound to those.
 */
struct CrdTopology
{
    AdcIspTopology isp;        //!< clients, access networks and the core router
    Ptr<Node> router;          //!< the seed's router (the ISP core router)
    NodeContainer upper;       //!< upper-tier appliances (may be empty: one-tier mode)
    NodeContainer lower;       //!< lower-tier appliances
    NodeContainer caches;      //!< cache servers
    Ptr<Node> cacheSwitch;     //!< joins the lower tier and the caches (a switch in the seed)
    Ptr<Node> origin;          //!< the (first) origin server
    Ipv4Address originAddress; //!< what clients address (the first origin's IP)
    NodeContainer origins;     //!< every origin server, behind the router (NumOrigins)
    std::vector<std::string> originNames;       //!< "origin", or origin1..
    std::vector<Ipv4Address> originAddresses;   //!< per origin: its address
    std::vector<std::string> originHosts;       //!< per origin: its host name (Host header)
    std::vector<Ptr<AdcHttpServer>> originApps; //!< per origin: its HTTP server

    std::vector<std::string> upperNames;   //!< L1NS1..
    std::vector<std::string> lowerNames;   //!< L2NS1..
    std::vector<std::string> cacheNames;   //!< CRS1..
    std::vector<AdcPortRange> lowerRanges; //!< exclusive source-port range of each lower appliance
    std::vector<Ipv4Address> lowerMips;    //!< mapped IP of each lower appliance (cache side)
    std::vector<Ipv4Address> cacheAddresses; //!< cache servers' addresses
    std::vector<uint32_t> missGateway;       //!< per cache: the lower appliance its misses cross

    std::vector<Ptr<CrdLowerTierAppliance>> lowerApps; //!< the lower tier's proxies (PROXY mode)
    std::vector<Ptr<AdcTcpRelay>> relayApps;           //!< the lower tier's relays (RELAY mode)
    /// Per lower appliance (PROXY mode): resets the segments of connections it does not have
    std::vector<Ptr<CrdOrphanReset>> lowerResets;
    std::vector<Ptr<CrdCacheServer>> cacheApps;        //!< the cache servers
    Ptr<AdcHttpServer> originApp;                      //!< the first origin's HTTP server

    Ptr<AdcPolicyRouting> routerRouting;             //!< policy routes on the router
    std::vector<Ptr<AdcPolicyRouting>> upperRouting; //!< per upper appliance (none: ROUTER)
    std::vector<Ptr<AdcEcmpRouting>> upperEcmp;      //!< per upper router (ROUTER, UpperRouterEcmp)
    std::vector<Ptr<AdcPolicyRouting>> lowerRouting; //!< per lower appliance
    Ptr<AdcPolicyRouting> switchRouting;             //!< cache switch (miss gateways)
    Ptr<AdcPolicyRouting> originRouting; //!< the first origin's (no rules: it routes by default
                                         //!< to the router, which balances over the upper tier)
    /// Index of the rule that balances client traffic: on each upper appliance, or on the
    /// router in one-tier mode (unused in UpperTierMode ROUTER).
    uint32_t balanceRule{0};
    /// Per lower appliance: its PBR rule (upper tier or router); empty in UpperTierMode ROUTER.
    std::vector<uint32_t> pbrRules;

    /// Per balancer of the lower tier (upper appliance i, or the router alone in one-tier
    /// mode; none in UpperTierMode ROUTER), per lower appliance j: the service hop j of its
    /// balanceRule follows (named after the lower appliance, its address on the balancer's
    /// side, port 80).
    std::vector<std::vector<Ptr<AdcService>>> lowerTierServices;

    std::vector<Ptr<AdcHealthMonitor>> upperMonitors; //!< per balancer: bound to its services
    std::vector<Ptr<AdcHealthMonitor>> lowerMonitors; //!< per lower: bound to its cache services

    /// The caches' miss path (a tracked route with floating backups on the cache network's
    /// switch): per cache, the switch's rule "miss-<CRSc>", whose hops are every lower
    /// appliance in the cache's order of preference (its miss gateway first, then the next
    /// ones); exactly one hop is up, the first whose service is not DOWN.
    std::vector<uint32_t> missRules;
    /// Per cache: its hops' lower appliances, in order of preference (missGateway first).
    std::vector<std::vector<uint32_t>> missPreference;
    /// Per lower appliance: the switch's service for it (its MIP, port 80), which the miss
    /// routes track; switchMonitor probes them (MonitorMissGateways).
    std::vector<Ptr<AdcService>> missGatewayServices;
    Ptr<AdcHealthMonitor> switchMonitor; //!< the switch's monitor of the lower tier (or null)
    /// Per upper appliance: the router's service for it, which the router's "to-upper-tier"
    /// and "origin-return" hops follow; routerMonitor pings them (MonitorUpperTier).
    std::vector<Ptr<AdcService>> upperTierServices;
    Ptr<AdcHealthMonitor> routerMonitor; //!< the router's monitor of the upper tier (or null)

    /// \param cache a cache index \return the lower appliance its misses cross now (the first
    /// hop of its miss rule that is up), or -1 when none is up
    int32_t GetMissGatewayInUse(uint32_t cache) const;
    /**
     * \param name an appliance's name (L1NSi, L2NSj, CRSc) or "gateway:CRSc" (the miss
     * gateway of that cache, missGateway)
     * \return its node
     * \throw AdcConfigError naming \p name and the names allowed
     */
    Ptr<Node> FindAppliance(const std::string& name) const;

    std::map<std::string, NetDeviceContainer> links; //!< every link by name, e.g. "L1NS1-L2NS2"
    std::map<uint32_t, std::string> names;           //!< node id -> name

    /// \return the balancers of the lower tier, in the order of lowerTierServices
    std::vector<Ptr<Node>> GetLowerTierBalancers() const;
    /// \param node a node \return "L2NS2", "CRS1", "router", "client3", ... or "" for an
    /// unnamed node
    std::string NameOf(Ptr<Node> node) const;
    /// \brief Watch every named node (clients, router, tiers, caches, origin) in \p tracer.
    /// \param tracer the tracer
    void TraceNodes(Ptr<AdcPathTracer> tracer) const;
    /**
     * \brief Give the random variables of every node (ARP jitter, CSMA backoff) and of the
     * tiers' health monitors fixed streams. ns-3 numbers the others in creation order across
     * the process, so without this a run would depend on what was created before it: other
     * simulations in the same process, or a configuration read from files that creates its
     * objects in another order than the C++ one.
     * \param stream the first stream
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream) const;
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

} // namespace ns3

#endif /* CRD_TOPOLOGY_H */
