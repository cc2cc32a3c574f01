/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_TOPOLOGY_H
#define SLB_TOPOLOGY_H

#include "ns3/adc-bgp-speaker.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-ecmp-routing6.h"
#include "ns3/adc-flow-key.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/ptr.h"
#include "ns3/slb-host-agent.h"
#include "ns3/slb-host-switch.h"
#include "ns3/slb-manager.h"
#include "ns3/slb-mux.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A data centre with an SDN software load balancer, as SlbTopologyHelper builds it.
 *
 * \verbatim
 * clients --- edge --+-- router1 --+-- mux1 .. muxN (one link to every router)
 *                    +-- router2 --+
 *                    |             +-- tor --- host1 --- vm(1,1) ..
 *                                          +-- host2 --- vm(2,1) ..
 * \endverbatim
 *
 * The edge router peers over BGP with every data-centre router, and each of those with every
 * MUX: the VIP routes the MUXes announce reach the edge through both routers, so that each
 * router on the way chooses among equal-cost paths (per-flow ECMP, its own hash seed). MUXes
 * tunnel to the hosts' provider addresses through the routers and the ToR; hosts send their
 * responses straight to the ToR, their default gateway (DSR).
 */
struct SlbTopology
{
    NodeContainer clients;  //!< the clients
    Ptr<Node> edge;         //!< the edge (border) router
    Ptr<Node> dns;          //!< a DNS server's node on the internet side (172.16.255.2)
    NodeContainer routers;  //!< the data-centre routers
    NodeContainer muxes;    //!< the MUX VMs
    Ptr<Node> tor;          //!< the hosts' top-of-rack router (their default gateway)
    NodeContainer hosts;    //!< the Hyper-V hosts
    NodeContainer vms;      //!< the VMs (vm i of host h is vms.Get(h * vmsPerHost + i))
    uint32_t vmsPerHost{1}; //!< VMs per host

    Ptr<SlbManager> manager;                       //!< the network controller's SLB manager
    std::vector<Ptr<SlbMux>> mux;                  //!< MUX i's datapath
    std::vector<Ptr<AdcBgpSpeaker>> muxSpeaker;    //!< MUX i's BGP speaker
    std::vector<Ptr<AdcBgpSpeaker>> routerSpeaker; //!< router j's BGP speaker
    Ptr<AdcBgpSpeaker> edgeSpeaker;                //!< the edge router's BGP speaker
    std::vector<Ptr<AdcEcmpRouting>> routerEcmp;   //!< router j's per-flow ECMP
    Ptr<AdcEcmpRouting> edgeEcmp;                  //!< the edge router's per-flow ECMP
    std::vector<Ptr<AdcEcmpRouting>> muxEcmp; //!< MUX i's routes to the hosts (over all routers)
    Ptr<AdcEcmpRouting6> torEcmp6;            //!< the ToR's IPv6 ECMP (with IPv6)
    Ptr<AdcEcmpRouting> torEcmp;              //!< the ToR's per-flow ECMP (default route)
    std::vector<Ptr<AdcEcmpRouting6>> routerEcmp6; //!< router j's IPv6 ECMP (with IPv6)
    Ptr<AdcEcmpRouting6> edgeEcmp6;                //!< the edge's IPv6 ECMP (with IPv6)
    std::vector<Ptr<SlbHostSwitch>> hostSwitch;    //!< host h's virtual switch
    std::vector<Ptr<SlbHostAgent>> hostAgent;      //!< host h's SLB host agent
    std::vector<std::string> muxNames;             //!< "MUX1".. (names at the manager)
    std::vector<std::string> hostNames;            //!< "HOST1".. (names at the manager)

    bool ipv6{false};                         //!< dual stack (IPv6 addresses on every link)
    std::vector<AdcIpAddress> clientAddress;  //!< client i's IPv4 address
    std::vector<AdcIpAddress> clientAddress6; //!< client i's IPv6 address (with IPv6)
    AdcIpAddress dnsAddress;                  //!< the DNS node's IPv4 address
    AdcIpAddress dnsAddress6;                 //!< its IPv6 address (with IPv6)
    std::vector<AdcIpAddress> hostPa;         //!< host h's provider address (IPv4)
    std::vector<AdcIpAddress> vmAddress;      //!< VM k's IPv4 address (a DIP)
    std::vector<AdcIpAddress> vmAddress6;     //!< VM k's IPv6 address (with IPv6)
    std::vector<uint32_t> vmVni;              //!< VM k's VNI (0: on a VLAN)
    std::vector<std::vector<AdcIpAddress>> muxAddress; //!< MUX i's address on its link to router j

    std::map<std::string, NetDeviceContainer> links; //!< every link by name ("edge-router1", ..)
    std::map<uint32_t, std::string> names;           //!< node id -> name

    /// \param h a host \param v one of its VMs \return the VM's index in vms
    uint32_t Vm(uint32_t h, uint32_t v) const;
    /// \param node a node \return its name ("node<id>" when it has none)
    std::string NameOf(Ptr<const Node> node) const;
};

} // namespace ns3

#endif /* SLB_TOPOLOGY_H */
