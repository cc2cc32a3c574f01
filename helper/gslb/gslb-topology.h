/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GSLB_TOPOLOGY_H
#define GSLB_TOPOLOGY_H

#include "gslb-helper.h"

#include "ns3/adc-flow-key.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-ldns-server.h"
#include "ns3/adc-web-user.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief GSLB sites and client regions across a WAN, as GslbTopologyHelper builds them.
 *
 * \verbatim
 *  region r LAN: clients, LDNS --- region router r ---+--- site router s --- site s LAN:
 *                                                     |     (one WAN link      appliance (ADNS,
 *                                 (every region has a |      per region and    probes, MEP),
 *                                  link to every site)|      site pair)        web server
 *  site routers: one link per pair of sites (MEP travels there)
 * \endverbatim
 *
 * Addresses: site s (from 0) has the LAN 10.(s+1).0.0/24 with its router at .1, its appliance
 * (the site IP: ADNS, RTT probes, MEP) at .2 and its web server (the GSLB service's IP) at
 * .10. Region r has the LAN 10.(100+r).0.0/16: router 10.(100+r).0.1, LDNS 10.(100+r).0.2,
 * clients from 10.(100+r).1.1. WAN links are /30s of 172.16.0.0/16 (region-site) and
 * 172.17.0.0/16 (site-site). Routing: static, one route per subnet (every path is direct).
 */
struct GslbTopology
{
    NodeContainer siteRouters;   //!< site s's router
    NodeContainer appliances;    //!< site s's GSLB appliance (site IP)
    NodeContainer servers;       //!< site s's web server (the GSLB service)
    NodeContainer regionRouters; //!< region r's router
    NodeContainer ldnsNodes;     //!< region r's local DNS server
    NodeContainer clients;       //!< client i of region r is clients.Get(r * perRegion + i)
    uint32_t clientsPerRegion{0};

    std::vector<std::string> siteNames;  //!< "site-a", "site-b", ...
    std::vector<AdcIpAddress> siteIp;    //!< site s's appliance address (10.(s+1).0.2)
    std::vector<AdcIpAddress> serviceIp; //!< site s's web server address (10.(s+1).0.10)
    std::vector<AdcIpAddress> ldnsIp;    //!< region r's LDNS address (10.(100+r).0.2)
    std::string domain;                  //!< the GSLB domain the clients resolve

    /// wanChannel[r][s]: the WAN link between region r and site s
    std::vector<std::vector<Ptr<PointToPointChannel>>> wanChannel;
    /// wanDelay[r][s]: its current one-way delay (SetWanDelay keeps it up to date)
    std::vector<std::vector<Time>> wanDelay;
    Time lanDelay;     //!< one-way delay of every LAN
    Time siteWanDelay; //!< one-way delay of the site-site links

    std::vector<Ptr<GslbSiteApps>> site;    //!< site s's GSLB applications
    std::vector<Ptr<AdcHttpServer>> server; //!< site s's web server
    std::vector<Ptr<AdcLdnsServer>> ldns;   //!< region r's LDNS
    std::vector<Ptr<AdcWebUser>> users;     //!< client i's web user (same order as clients)
    std::vector<uint32_t> regionOf;         //!< client i's region
    std::vector<bool> siteUp;               //!< false while SetSiteUp holds the site down
    /// what GslbHelper::CheckConsistency reported (e.g. RTT tolerances that differ by site)
    std::vector<std::string> consistency;

    /// \return the number of sites
    uint32_t GetNSites() const;
    /// \return the number of regions
    uint32_t GetNRegions() const;

    /**
     * \param region a region \param site a site
     * \return the true round trip between region's LDNS and site's appliance now: twice the
     *         one-way delays of the region LAN, the WAN link and the site LAN (transmission
     *         times excluded)
     */
    Time TruePathRtt(uint32_t region, uint32_t site) const;

    /**
     * \param region a region
     * \return the site with the lowest TruePathRtt for the region now (ties: lowest index)
     */
    uint32_t NearestSite(uint32_t region) const;

    /**
     * \param address an address \return the site whose appliance or web server has it, or -1
     */
    int32_t SiteOf(const AdcIpAddress& address) const;

    /// \param address an address \return the region whose LDNS has it, or -1
    int32_t RegionOfLdns(const AdcIpAddress& address) const;

    /**
     * \brief Fixed random streams for the users (visit gaps, and the resolvers and HTTP
     * clients they create when they start), the LDNS servers' query ids, ARP and CSMA
     * backoff: the same numbers whatever else is created, and in what order, before or
     * during the run (as on MPI ranks, where each rank starts its own users only).
     * \param stream first stream number
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream) const;
};

} // namespace ns3

#endif /* GSLB_TOPOLOGY_H */
