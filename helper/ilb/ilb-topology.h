/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ILB: what IlbHelper::Build() returns, the handles on the ILB test bed it built (nodes,
 * links, addresses, the appliance and its rule), and the checks a built test bed must pass.
 */

#ifndef ILB_TOPOLOGY_H
#define ILB_TOPOLOGY_H

#include "ns3/adc-flow-key.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/address.h"
#include "ns3/ilb-appliance.h"
#include "ns3/ilb-rule.h"
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
 * \brief Handles on everything IlbHelper::Build() created.
 *
 * Shape: client i -- p2p "client<i>" -- client router ("client-router") -- p2p "client-side"
 * -- ILB ("ilb") -- CSMA "server-lan" holding the ILB, the servers ("server1".."serverM") and
 * the server-side router ("server-router") -- p2p "return-path" -- client router. Requests to
 * the VIP always enter the ILB on "client-side"; a response leaves the server LAN through the
 * ILB (Half-NAT, Full-NAT, DSR with IlbIsRouter) or through the server-side router (DSR).
 *
 * Device containers: "client<i>" and "client-side" and "return-path" hold {client router side,
 * other side}; "server-lan" holds {ILB, servers..., server router}.
 */
struct IlbTopology
{
    NodeContainer clients;  //!< the clients
    Ptr<Node> clientRouter; //!< the router in front of the clients
    Ptr<Node> ilb;          //!< the node running the ILB
    Ptr<Node> serverRouter; //!< the server LAN's other router (DSR's direct return path)
    NodeContainer servers;  //!< the back-end pool
    /// the ILB datapath (nullptr with InstallIlb false); aggregated to the ILB node, so
    /// ilb->GetObject<IlbAppliance>() finds it and it lives as long as the node
    Ptr<IlbAppliance> appliance;
    uint32_t rule{0};              //!< index of the helper's rule in the appliance
    IlbRule ruleConfig;            //!< the rule as added to the appliance
    Ptr<AdcHealthMonitor> monitor; //!< the health check (nullptr with HealthCheck NONE)

    bool ipv6{false};        //!< the rule and the client load use IPv6
    bool ilbIsRouter{false}; //!< the ILB is the servers' default gateway (in every topology)
    AdcIpAddress vip;        //!< the rule's virtual IP
    uint16_t vipPort{80};    //!< the rule's port
    uint16_t serverPort{80}; //!< the servers' port

    std::vector<AdcIpAddress> clientAddresses; //!< client i's address (rule family)
    std::vector<AdcIpAddress> serverAddresses; //!< server i's LAN address (rule family)
    std::vector<std::string> serverNames;      //!< "server1".. (also the rule's server names)
    AdcIpAddress ilbLanAddress;                //!< the ILB's address on the server LAN
    AdcIpAddress serverRouterLanAddress;       //!< the server router's LAN address
    std::vector<AdcIpAddress> serverGateways;  //!< server i's default gateway as configured

    uint32_t clientSideInterface{0}; //!< the ILB's IPv4/IPv6 interface index on "client-side"
    uint32_t serverLanInterface{0};  //!< the ILB's interface index on "server-lan"

    std::map<std::string, NetDeviceContainer> links; //!< every link by name
    std::map<uint32_t, std::string> names;           //!< node id -> name

    /// \return the number of clients
    uint32_t GetNClients() const;
    /// \return the number of servers
    uint32_t GetNServers() const;
    /// \return the VIP and port as an InetSocketAddress or Inet6SocketAddress
    Address GetVipSocketAddress() const;
    /// \param i server index \return server i's LAN address and port as a socket address
    Address GetServerSocketAddress(uint32_t i) const;
    /// \return the ILB's device on "client-side"
    Ptr<NetDevice> GetIlbClientSideDevice() const;
    /// \return the ILB's device on "server-lan"
    Ptr<NetDevice> GetIlbServerLanDevice() const;
    /// \param i server index \return server i's device on "server-lan"
    Ptr<NetDevice> GetServerDevice(uint32_t i) const;
    /// \return "ilb", "client3", "server2", ... or "" for an unknown node
    std::string NameOf(Ptr<Node> node) const;
    /// \return the names of the links, sorted
    std::vector<std::string> GetLinkNames() const;
    /**
     * \brief Pcap on one named link: both ends of a point-to-point link; the whole server LAN
     * (promiscuous, at the ILB's port, Ethernet framing) for "server-lan".
     * \param prefix file name prefix (may contain a directory); files are named
     *        prefix-LINK-NODE-DEVICE.pcap
     * \param link a name from GetLinkNames()
     * \throw AdcConfigError for an unknown link, listing the known ones
     */
    void EnablePcap(const std::string& prefix, const std::string& link) const;

    /// \param prefix "client", "server" \param i index from 0 \return e.g. "client1"
    static std::string Numbered(const std::string& prefix, uint32_t i);
};

} // namespace ns3

#endif /* ILB_TOPOLOGY_H */
