/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_TOPOLOGY_HELPER_H
#define SLB_TOPOLOGY_HELPER_H

#include "slb-topology.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Builds an SlbTopology: clients, an edge router, data-centre routers peering over BGP
 * with a pool of MUXes, a ToR and Hyper-V hosts with VMs, the SLB manager and host agents.
 *
 * Addresses (IPv4; with Ipv6 true, IPv6 mirrors them in unique local addresses under fd00::/16,
 * as ns-3 does not forward the documentation prefix 2001:db8::/32):
 * - client i (0..249): 172.16.i.2/24, the edge 172.16.i.1; a DNS server's node 172.16.255.2;
 * - edge - router j (1..): 10.255.j.0/30 (edge .1, router .2);
 * - router j - MUX i (1..8): 10.(20+j).i.0/24 (router .1, MUX .2): each MUX sits in a
 *   different subnet on each router, as the seed allows;
 * - router j - ToR: 10.254.j.0/30 (router .1, ToR .2);
 * - ToR - host h (1..): 10.200.h.0/30 (ToR .1, host .2: the provider address);
 * - host h - VM v (0..): 10.10.(10h+v).0/24 (host .1, VM .5): host 1's first VM is the seed's
 *   10.10.10.5, host 2's 10.10.20.5.
 *
 * Routing: every router runs AdcEcmpRouting in front of static routing. BGP (AdcBgpSpeaker):
 * the edge (AS 65000) peers with each router j (AS 65000+j, re-advertising with next-hop-self),
 * and each router with every MUX (AS 65100, the MUXes' common AS); what a speaker learns goes
 * into its router's ECMP routes. Static: routers reach the hosts and VMs through the ToR and the
 * clients through the edge; the ToR's default route spreads over the routers; MUXes reach the
 * hosts over all routers; hosts and VMs have default routes to the ToR and their host.
 */
class SlbTopologyHelper : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    SlbTopologyHelper();
    ~SlbTopologyHelper() override;

    /**
     * \brief Create the nodes, links, addresses, routes, BGP speakers, MUXes, switches, agents
     * and the SLB manager (MUXes deployed; the first MuxesInService of them in service). The
     * caller adds VIPs and DIPs to the manager and commits.
     * \return the topology
     * \throws AdcConfigError for counts out of range
     */
    SlbTopology Build();

    /**
     * \brief A MUX fails: its BGP speaker halts (no NOTIFICATION: the routers notice when their
     * hold timers expire) and it stops forwarding (its interfaces go down).
     * \param topology the topology
     * \param mux the MUX's index
     */
    static void FailMux(const SlbTopology& topology, uint32_t mux);

    /**
     * \brief A host fails: its agent falls silent (the manager's HostTimeout declares it down)
     * and its interfaces go down.
     * \param topology the topology
     * \param host the host's index
     */
    static void FailHost(const SlbTopology& topology, uint32_t host);

    /**
     * \brief Take one link down or up at both ends (IPv4 and IPv6): a router link flapping.
     * \param topology the topology
     * \param link the link's name (a key of SlbTopology::links, e.g. "edge-router1")
     * \param up true: up, false: down
     */
    static void SetLinkUp(const SlbTopology& topology, const std::string& link, bool up);

    /**
     * \brief Write pcaps of every link ("<prefix>-<link>-<node>.pcap").
     * \param topology the topology
     * \param prefix the file prefix (a directory and a stem)
     */
    static void EnablePcapAll(const SlbTopology& topology, const std::string& prefix);

  private:
    /// \param t the topology: check the counts
    void Validate() const;

    uint32_t m_clients;         //!< attribute Clients
    uint32_t m_partitions{1};   //!< attribute Partitions
    uint32_t m_routers;         //!< attribute Routers
    uint32_t m_muxes;           //!< attribute Muxes
    uint32_t m_muxesInService;  //!< attribute MuxesInService
    uint32_t m_hosts;           //!< attribute Hosts
    uint32_t m_vmsPerHost;      //!< attribute VmsPerHost
    uint32_t m_vni;             //!< attribute Vni
    bool m_ipv6;                //!< attribute Ipv6
    DataRate m_rate;            //!< attribute LinkRate
    Time m_accessDelay;         //!< attribute AccessDelay
    Time m_dcDelay;             //!< attribute DcDelay
    Time m_holdTime;            //!< attribute HoldTime
    Time m_connectRetry;        //!< attribute ConnectRetryTime
    std::string m_ecmpMode;     //!< attribute EcmpMode
    std::string m_muxSelection; //!< attribute MuxSelection
    bool m_flowTable;           //!< attribute MuxFlowTable
};

} // namespace ns3

#endif /* SLB_TOPOLOGY_HELPER_H */
