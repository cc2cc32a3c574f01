/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the handles on an ISP access + core + data-centre topology that
 * AdcIspTopologyHelper built (nodes, devices, interfaces, routes, pcap).
 */

#ifndef ADC_ISP_TOPOLOGY_H
#define ADC_ISP_TOPOLOGY_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/ipv6-address.h"
#include "ns3/ipv6-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class Ipv4StaticRouting;

/**
 * \ingroup adc
 * \brief The links of an AdcIspTopology on which pcap capture can be enabled.
 */
enum class AdcTopologyLink : uint8_t
{
    CORE_DC = 0,       //!< the core router <-> DC gateway point-to-point link (both ends)
    ACCESS_UPLINK = 1, //!< the uplink of one access network (both ends); index = access network
    SERVER_LAN = 2,    //!< the server LAN, captured promiscuously at the DC gateway
    ACCESS_LAN = 3     //!< one access LAN, captured promiscuously at its access router
};

/**
 * \ingroup adc
 * \brief A point-to-point link from the core router to another node (see
 * AdcIspTopologyHelper::AttachToCore).
 *
 * Index 0 of every container is the core side, index 1 the attached node's side.
 */
struct AdcCoreAttachment
{
    NetDeviceContainer devices;  //!< {core device, node device}
    Ipv4InterfaceContainer ipv4; //!< {core interface, node interface}
    Ipv6InterfaceContainer ipv6; //!< same for IPv6 (empty unless InstallIpv6)
    Ipv4Address network;         //!< the link's network address
    Ipv4Mask mask;               //!< the link's mask

    /// \return the core router's address on the link
    Ipv4Address GetCoreAddress() const;
    /// \return the attached node's address on the link
    Ipv4Address GetNodeAddress() const;
    /// \return the core router's interface index for the link
    uint32_t GetCoreInterface() const;
    /// \return the attached node's interface index for the link
    uint32_t GetNodeInterface() const;
};

/**
 * \ingroup adc
 * \brief Handles on everything AdcIspTopologyHelper::Build() created, as public members and
 * through getters (which check indices).
 *
 * Clients are numbered 0..N-1 across access networks: client i belongs to access network
 * i / ClientsPerAccessNetwork. Device containers of a LAN hold the router's device first; those
 * of a point-to-point link hold the core side first.
 */
class AdcIspTopology
{
  public:
    /// \return all clients, access network by access network
    const NodeContainer& GetClients() const;
    /// \return number of clients
    uint32_t GetNClients() const;
    /// \param i client index \return client i
    Ptr<Node> GetClient(uint32_t i) const;
    /// \param i client index \return client i's IPv4 address
    Ipv4Address GetClientAddress(uint32_t i) const;
    /// \param i client index \return client i's global IPv6 address (InstallIpv6 only)
    Ipv6Address GetClientAddress6(uint32_t i) const;
    /// \param i client index \return the access network client i belongs to
    uint32_t GetAccessNetworkOfClient(uint32_t i) const;
    /// \return IPv4 interfaces of all clients (same order as GetClients())
    const Ipv4InterfaceContainer& GetClientInterfaces() const;
    /// \return IPv6 interfaces of all clients (empty unless InstallIpv6)
    const Ipv6InterfaceContainer& GetClientInterfaces6() const;

    /// \return number of access networks
    uint32_t GetNAccessNetworks() const;
    /// \param a access network index \return its clients
    const NodeContainer& GetAccessNetworkClients(uint32_t a) const;
    /// \return the access routers, one per access network
    const NodeContainer& GetAccessRouters() const;
    /// \param a access network index \return its access router
    Ptr<Node> GetAccessRouter(uint32_t a) const;
    /// \param a access network index \return the LAN devices (router first, then clients)
    const NetDeviceContainer& GetAccessLanDevices(uint32_t a) const;
    /// \param a access network index \return the uplink devices {core, access router}
    const NetDeviceContainer& GetAccessUplinkDevices(uint32_t a) const;
    /// \param a access network index \return the access network's IPv4 prefix (a /16)
    Ipv4Address GetAccessNetworkPrefix(uint32_t a) const;

    /// \return the core router
    Ptr<Node> GetCoreRouter() const;
    /// \return the DC gateway, or nullptr when NumServers was 0
    Ptr<Node> GetDcGateway() const;
    /// \return the core <-> DC gateway devices {core, gateway} (empty without DC)
    const NetDeviceContainer& GetCoreDcDevices() const;
    /// \return the server LAN devices (gateway first, then servers; empty without DC)
    const NetDeviceContainer& GetServerLanDevices() const;
    /// \return the servers
    const NodeContainer& GetServers() const;
    /// \return number of servers
    uint32_t GetNServers() const;
    /// \param i server index \return server i
    Ptr<Node> GetServer(uint32_t i) const;
    /// \param i server index \return server i's IPv4 address
    Ipv4Address GetServerAddress(uint32_t i) const;
    /// \param i server index \return server i's global IPv6 address (InstallIpv6 only)
    Ipv6Address GetServerAddress6(uint32_t i) const;
    /// \return IPv4 interfaces of all servers
    const Ipv4InterfaceContainer& GetServerInterfaces() const;
    /// \return IPv6 interfaces of all servers (empty unless InstallIpv6)
    const Ipv6InterfaceContainer& GetServerInterfaces6() const;

    /// \return the core router's IPv4 static routing protocol
    Ptr<Ipv4StaticRouting> GetCoreStaticRouting() const;
    /// \return number of routes in the core router's IPv4 static routing table
    uint32_t GetNCoreRoutes() const;

    /**
     * \brief Enable pcap capture on one link, with the device helpers' standard file naming
     * (prefix-node-device.pcap).
     * \param prefix file name prefix (may contain a directory)
     * \param which the link
     * \param index access network index for ACCESS_UPLINK and ACCESS_LAN, ignored otherwise
     * \return the names of the files that will be written
     * \throw AdcConfigError when the link does not exist in this topology
     */
    std::vector<std::string> EnablePcap(const std::string& prefix,
                                        AdcTopologyLink which,
                                        uint32_t index = 0) const;

    // The handles, public so a scenario can reach any of them directly.
    uint32_t clientsPerAccessNetwork{0};                 //!< clients per access network
    NodeContainer clients;                               //!< all clients
    std::vector<NodeContainer> accessNetworkClients;     //!< clients per access network
    NodeContainer accessRouters;                         //!< one per access network
    std::vector<NetDeviceContainer> accessLanDevices;    //!< per access network, router first
    std::vector<NetDeviceContainer> accessUplinkDevices; //!< per access network, core first
    std::vector<Ipv4Address> accessPrefixes;             //!< per access network (/16)
    Ptr<Node> coreRouter;                                //!< core router
    Ptr<Node> dcGateway;                                 //!< DC gateway (nullptr without DC)
    NetDeviceContainer coreDcDevices;                    //!< core first
    NetDeviceContainer serverLanDevices;                 //!< gateway first
    NodeContainer servers;                               //!< servers
    Ipv4InterfaceContainer clientInterfaces;             //!< clients' interfaces
    Ipv4InterfaceContainer serverInterfaces;             //!< servers' interfaces
    Ipv6InterfaceContainer clientInterfaces6;            //!< clients' IPv6 interfaces
    Ipv6InterfaceContainer serverInterfaces6;            //!< servers' IPv6 interfaces

  private:
    /// \param a access network index, checked against the number of access networks
    void CheckAccessIndex(uint32_t a) const;
};

} // namespace ns3

#endif /* ADC_ISP_TOPOLOGY_H */
