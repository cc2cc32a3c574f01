/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: an ISP access + core + data-centre topology that scales to 10,000+ clients,
 * with aggregated static routes (no global routing).
 */

#ifndef ADC_ISP_TOPOLOGY_HELPER_H
#define ADC_ISP_TOPOLOGY_HELPER_H

#include "adc-isp-topology.h"
#include "adc-stack-helper.h"

#include "ns3/data-rate.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv6-address.h"
#include "ns3/ipv6-interface-container.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Builds an ISP + data-centre topology with thousands of clients in seconds.
 *
 * Shape: NumAccessNetworks access networks, each one CSMA LAN holding its clients and its
 * access router (one router interface per access network); each access router has a
 * point-to-point uplink to the core router; the core router has a point-to-point link to a
 * data-centre gateway, behind which a CSMA server LAN holds the servers. NumServers = 0 builds
 * no DC side, so appliances can be attached to the core with AttachToCore() instead.
 *
 * Addressing (IPv4 always): access network a uses ClientBase + a/16 (router .0.1, clients from
 * .0.2 on); the server LAN uses ServerBase (gateway first address, servers next); every
 * point-to-point link takes the next /30 of LinkBase (uplink a is link a, core<->DC is link
 * NumAccessNetworks, attachments without their own block follow). With InstallIpv6, Ipv6Base
 * is a /48: access network a uses subnet a, the server LAN subnet 0xffff and the k-th link
 * built subnet 0x8000 + k (all /64); interface ids are sequential like the IPv4 host parts
 * (router ::1, hosts from ::2), and IPv6 next hops are the routers' global addresses.
 *
 * Routing is static and aggregated: the core holds one route per access network plus one for
 * the server prefix; every other node has a default route towards the core. No global routing
 * is installed or computed (it is far too slow at this scale).
 *
 * Every node gets an MPI system id: access network a (router and clients) uses
 * a % NumPartitions (with AccessOffCore, a % (NumPartitions - 1) + 1, leaving rank 0 to the
 * core and DC), core and DC use 0, so large topologies stay partitionable in MPI builds (the
 * uplinks are the only links crossing partitions; see AdcMpi).
 */
class AdcIspTopologyHelper : public Object
{
  public:
    /// Most clients in one access network: a /16 minus network, broadcast and router addresses.
    static constexpr uint32_t MAX_CLIENTS_PER_ACCESS_NETWORK = 65533;
    /// Most access networks.
    static constexpr uint32_t MAX_ACCESS_NETWORKS = 255;

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcIspTopologyHelper();
    ~AdcIspTopologyHelper() override;

    /**
     * \brief Check the settings without building anything.
     * \throw AdcConfigError naming the first bad setting, its value and the allowed range
     */
    void Validate() const;

    /**
     * \brief Build the whole topology: the three stages below, in order.
     * \return handles on what was built
     * \throw AdcConfigError on bad settings or when the addresses are already in use
     */
    AdcIspTopology Build();

    /**
     * \brief Stage 1 of Build(): validate, create nodes, devices and channels.
     * The staged form exists so benchmarks can time each stage.
     */
    void CreateNodesAndLinks();
    /// \brief Stage 2 of Build(): install the Internet stack (static routing only) on all nodes.
    void InstallInternetStack();
    /**
     * \brief Stage 3 of Build(): assign addresses and add the static routes.
     * \return handles on what was built
     */
    AdcIspTopology AssignAddressesAndRoutes();

    /**
     * \brief Connect \p node to the core router by a new point-to-point link (CoreDcDataRate,
     * CoreDcDelay) addressed from the given block: the core takes the first host address and
     * the node the second. Installs the Internet stack on \p node when it has none.
     * Call after Build().
     * \param node the node to attach (e.g. an ADC appliance)
     * \param network the link's network address
     * \param mask the link's mask (at least two host addresses)
     * \param setDefaultRoute add a default route on \p node via the core router
     * \return the link's devices and interfaces
     * \throw AdcConfigError when called before Build() or with a bad block
     */
    AdcCoreAttachment AttachToCore(Ptr<Node> node,
                                   Ipv4Address network,
                                   Ipv4Mask mask,
                                   bool setDefaultRoute = true);
    /**
     * \brief As above, addressed with the next free /30 of LinkBase.
     * \param node the node to attach
     * \param setDefaultRoute add a default route on \p node via the core router
     * \return the link's devices and interfaces
     */
    AdcCoreAttachment AttachToCore(Ptr<Node> node, bool setDefaultRoute = true);

    /**
     * \brief Add a route on the core router towards a prefix reachable through an attachment
     * (e.g. an appliance's virtual-IP prefix).
     * \param network destination network
     * \param mask destination mask
     * \param via the attachment whose node is the next hop
     */
    void AddCoreRoute(Ipv4Address network, Ipv4Mask mask, const AdcCoreAttachment& via);

    /// \return the topology of the last Build() (empty handles before)
    const AdcIspTopology& GetTopology() const;

    /**
     * \brief Pcap on both ends of the core <-> DC link of the last Build().
     * \param prefix file name prefix
     * \return the files that will be written
     */
    std::vector<std::string> EnablePcapCoreDc(const std::string& prefix) const;
    /**
     * \brief Pcap on both ends of one access uplink of the last Build().
     * \param prefix file name prefix
     * \param accessNetwork the access network
     * \return the files that will be written
     */
    std::vector<std::string> EnablePcapAccessUplink(const std::string& prefix,
                                                    uint32_t accessNetwork) const;
    /**
     * \brief Pcap of the whole server LAN of the last Build() (promiscuous, at the gateway).
     * \param prefix file name prefix
     * \return the files that will be written
     */
    std::vector<std::string> EnablePcapServerLan(const std::string& prefix) const;

  protected:
    void DoDispose() override;

  private:
    /// Build stages, to enforce their order.
    enum class Stage : uint8_t
    {
        NONE,
        LINKED,
        STACKED,
        BUILT
    };

    /// \param expected the stage required \param what method name for the message
    void RequireStage(Stage expected, const char* what) const;
    /// \return an InternetStackHelper configured with static routing only
    InternetStackHelper MakeStackHelper() const;
    /// \param node install the stack on it unless it has IPv4 already
    void EnsureStack(Ptr<Node> node) const;
    /// \param k link index \return the network address of LinkBase's k-th /30
    Ipv4Address LinkNetwork(uint32_t k) const;
    /// \param subnet 16-bit subnet id \return Ipv6Base with that /64 subnet
    Ipv6Address Ipv6Subnet(uint16_t subnet) const;
    /// \return the first host address of every subnet the build will use
    std::vector<Ipv4Address> FirstAddresses() const;
    /// \brief Check that none of \p addrs is already allocated in this simulation.
    void CheckAddressesFree(const std::vector<Ipv4Address>& addrs) const;
    /// \brief Create the access networks' nodes, LANs and uplinks.
    void CreateAccessNetworks();
    /// \brief Create the DC gateway, the server LAN and the core <-> DC link.
    void CreateDataCentre();
    /// \brief Address access network \p a and route it (core, router, clients).
    void AddressAccessNetwork(uint32_t a);
    /// \brief Address and route the DC side.
    void AddressDataCentre();

    /// IPv4 (and IPv6) interfaces of one addressed LAN.
    struct LanAddresses
    {
        Ipv4InterfaceContainer router;  //!< the router's LAN interface
        Ipv4InterfaceContainer hosts;   //!< the hosts' interfaces
        Ipv6InterfaceContainer router6; //!< the router's IPv6 LAN interface
        Ipv6InterfaceContainer hosts6;  //!< the hosts' IPv6 interfaces
    };

    /**
     * \brief Address one point-to-point link {core, other} and, with IPv6, give it link
     * subnet \p k.
     * \param devs {core device, other device}
     * \param net the link's IPv4 network
     * \param mask the link's IPv4 mask
     * \param k link index (IPv6 subnet LINK_SUBNET6 + k)
     * \param[out] v6 its IPv6 interfaces when InstallIpv6
     * \return the IPv4 interfaces {core, other}
     */
    Ipv4InterfaceContainer AddressLink(const NetDeviceContainer& devs,
                                       Ipv4Address net,
                                       Ipv4Mask mask,
                                       uint32_t k,
                                       Ipv6InterfaceContainer* v6);
    /**
     * \brief Address a LAN (router device first) and give every host a default route via the
     * router.
     * \param devs the LAN's devices, router first
     * \param net IPv4 network
     * \param mask IPv4 mask
     * \param subnet6 IPv6 subnet id
     * \param hostQueueDiscs give the hosts' devices ns-3's default root queue disc (as
     *        Ipv4AddressHelper does) or none
     * \return the interfaces
     */
    LanAddresses AddressLan(const NetDeviceContainer& devs,
                            Ipv4Address net,
                            Ipv4Mask mask,
                            uint16_t subnet6,
                            bool hostQueueDiscs = true);
    /**
     * \brief Route a LAN behind a link {core, router}: one aggregated route on the core, a
     * default route to the core on the router.
     * \param link IPv4 interfaces {core, router}
     * \param link6 IPv6 interfaces {core, router} (ignored without IPv6)
     * \param net the LAN's IPv4 network
     * \param mask the LAN's IPv4 mask
     * \param subnet6 the LAN's IPv6 subnet id
     */
    void RouteLanViaLink(const Ipv4InterfaceContainer& link,
                         const Ipv6InterfaceContainer& link6,
                         Ipv4Address net,
                         Ipv4Mask mask,
                         uint16_t subnet6);

    // Attributes
    uint32_t m_numAccessNetworks;  //!< number of access networks
    uint32_t m_clientsPerNet;      //!< clients per access network
    uint32_t m_numServers;         //!< servers on the DC LAN (0: no DC side)
    uint32_t m_numPartitions;      //!< MPI partitions for system ids
    bool m_accessOffCore{false};   //!< "AccessOffCore"
    bool m_clientQueueDisc{false}; //!< "ClientQueueDisc"
    DataRate m_accessLanRate;      //!< access LAN data rate
    Time m_accessLanDelay;         //!< access LAN delay
    DataRate m_uplinkRate;         //!< access uplink data rate
    Time m_uplinkDelay;            //!< access uplink delay
    DataRate m_coreDcRate;         //!< core <-> DC data rate
    Time m_coreDcDelay;            //!< core <-> DC delay
    DataRate m_serverLanRate;      //!< server LAN data rate
    Time m_serverLanDelay;         //!< server LAN delay
    Ipv4Address m_clientBase;      //!< first access network's /16
    std::string m_serverBase;      //!< server prefix "a.b.c.d/len"
    std::string m_linkBase;        //!< point-to-point link pool "a.b.c.d/len"
    bool m_installIpv6;            //!< also install and address IPv6
    Ipv6Address m_ipv6Base;        //!< IPv6 /48

    // Build state
    Stage m_stage{Stage::NONE}; //!< how far the build got
    AdcIspTopology m_topo;      //!< what was built
    Ipv4Address m_serverNet;    //!< parsed ServerBase network
    Ipv4Mask m_serverMask;      //!< parsed ServerBase mask
    Ipv4Address m_linkNet;      //!< parsed LinkBase network
    Ipv4Mask m_linkMask;        //!< parsed LinkBase mask
    uint32_t m_nextLink{0};     //!< next free /30 of LinkBase
    uint32_t m_nextLink6{0};    //!< next free IPv6 link subnet (every link takes one)
};

} // namespace ns3

#endif /* ADC_ISP_TOPOLOGY_HELPER_H */
