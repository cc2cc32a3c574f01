/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ILB: builds the Solaris-style Integrated Load Balancer's test bed (clients, a client-side
 * router, the ILB node, a server LAN with the back-end pool and a server-side router) for the
 * three topologies of the seed: DSR, Half-NAT and Full-NAT.
 */

#ifndef ILB_HELPER_H
#define ILB_HELPER_H

#include "ns3/adc-flow-key.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/data-rate.h"
#include "ns3/ilb-appliance.h"
#include "ns3/ilb-rule.h"
#include "ns3/ilb-topology.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Builds the ILB test bed and configures one load-balancing rule on the ILB.
 *
 * Addressing (IPv4 is always installed; with Ipv6 the rule, the VIP and the client load are
 * IPv6 and every link is dual-stack):
 * - client i's link: 10.1.0.0/16 cut in /30s (router .1, client .2 of the i-th /30);
 *   IPv6 fd00:0:1:i::/64 (router ::1, client ::(4i+2), the IPv4 host number: illumos's hashes
 *   read only the last 32 bits of an IPv6 address);
 * - "client-side": 10.0.0.0/30 (client router .1, ILB .2); fd00:0:0:1::/64 (::1, ::2);
 * - "return-path": 10.0.0.4/30 (client router .5, server router .6); fd00:0:0:2::/64;
 * - "server-lan": 192.168.100.0/24 (ILB .1, server i .(11+i), server router .254);
 *   fd00:0:0:100::/64 (ILB ::1, server i ::(0x11+i), server router ::fe).
 * IPv6 uses unique-local addresses (VIP fd00:100::10, NAT fd00:200::1-4) because ns-3.37's
 * Ipv6L3Protocol refuses to forward packets to the documentation prefix 2001:db8::/32.
 *
 * Routing is static. The client router sends the VIP (and the server LAN, so plain traffic
 * can reach the servers) to the ILB; the ILB's and the server router's default routes point to
 * the client router. Servers' default gateway: the server router in DSR (responses bypass the
 * ILB) and in Full-NAT (with a route for the NAT source range via the ILB, so responses to the
 * NAT addresses go back through it); the ILB in Half-NAT; the ILB in every topology with
 * IlbIsRouter. In DSR every server owns the VIP on its loopback (/32 or /128) and serves on the
 * VIP port, so the ILB only rewrites the destination MAC.
 *
 * The ILB node's routing is an Ipv4ListRouting (Ipv6ListRouting) with static routing at
 * priority 0; IlbAppliance::Install puts the appliance's hooks above it (priority 100) and
 * aggregates the appliance to the node. The address plan and routes are IlbAddressPlan's.
 */
class IlbHelper : public Object
{
  public:
    /// What the servers speak (the rule's protocol).
    enum Protocol
    {
        TCP = 6, //!< TCP
        UDP = 17 //!< UDP
    };

    /// The health check: one AdcHealthMonitor bound to every server's AdcService.
    enum HealthCheck
    {
        HC_NONE, //!< no health check: every server is always up
        HC_PING, //!< ICMP / ICMPv6 echo
        HC_TCP,  //!< TCP connection to the server port
        HC_UDP   //!< UDP datagram to the server port
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    IlbHelper();
    ~IlbHelper() override;

    /**
     * \brief Check the settings without building anything.
     * \throw AdcConfigError naming the first bad setting, its value and what is allowed
     */
    void ValidateSettings() const;

    /**
     * \brief Check a built topology (IlbAddressPlan::Validate): in DSR every server must own
     * the VIP (on any interface, the loopback as built) and serve on the VIP port; in Half-NAT
     * every server's default gateway must be the ILB; no server may have the VIP as its LAN
     * address.
     * \param topo a built topology (possibly changed since)
     * \throw AdcConfigError naming the server and what is wrong
     */
    static void Validate(const IlbTopology& topo);

    /**
     * \brief Build the nodes, links, addresses, routes, the ILB and its rule, and the health
     * check (when HealthCheck is not NONE). Applications are the caller's. With InstallIlb
     * false the ILB node stays a plain router (no appliance, rule or health check): the same
     * topology as a baseline where clients address the servers directly.
     * \return handles on everything built
     * \throw AdcConfigError on bad settings
     */
    IlbTopology Build();

    /**
     * \brief Take server \p index down at \p at (every interface but the loopback).
     * \param topo the built topology
     * \param index server index
     * \param at when
     * \throw AdcConfigError for an index out of range
     */
    static void ScheduleServerFailure(const IlbTopology& topo, uint32_t index, Time at);

    /**
     * \brief Parse an address in the family \p v6 says.
     * \param text "10.0.0.1" or "2001:db8::1"
     * \param v6 IPv6 wanted
     * \param setting the setting's name for the error message
     * \return the address
     * \throw AdcConfigError when \p text is not an address of that family
     */
    static AdcIpAddress ParseAddress(const std::string& text, bool v6, const std::string& setting);

    /**
     * \brief Parse "FIRST-LAST" or "ADDR" (a single address).
     * \param text the range
     * \param v6 IPv6 wanted
     * \param setting the setting's name for the error message
     * \return {first, last}
     * \throw AdcConfigError when empty, malformed, of the other family or first > last
     */
    static std::pair<AdcIpAddress, AdcIpAddress> ParseAddressRange(const std::string& text,
                                                                   bool v6,
                                                                   const std::string& setting);

    /// \return the names Algorithm accepts
    static const std::vector<std::string>& GetAlgorithmNames();

  protected:
    void DoDispose() override;

  private:
    /// Create the nodes and links, install the stacks.
    void CreateNodesAndLinks(IlbTopology& t) const;
    /// Add every static route (the servers' gateway and NAT route follow the settings).
    void AddRoutes(IlbTopology& t) const;
    /// Create the appliance, add the rule, install it on the ILB node.
    void InstallIlb(IlbTopology& t) const;
    /// Create the health check on the ILB node.
    void InstallHealthCheck(IlbTopology& t) const;
    /// Check counts, algorithm, ports and link rates.
    void CheckCounts() const;
    /// Check the VIP. \return the VIP
    AdcIpAddress CheckVip() const;
    /// Check the Full-NAT settings against \p vip.
    void CheckNat(const AdcIpAddress& vip) const;
    /// Check the health check settings.
    void CheckHealthCheck() const;
    /// \return the rule the settings describe (addresses of \p t filled)
    IlbRule MakeRule(const IlbTopology& t) const;
    /// \return the port the servers listen on
    uint16_t EffectiveServerPort() const;

    // Attributes
    uint32_t m_numClients;        //!< clients
    uint32_t m_partitions{1};     //!< "Partitions": MPI ranks of the plan
    uint32_t m_numServers;        //!< servers
    IlbRule::Topology m_topology; //!< DSR, HALF_NAT or FULL_NAT
    Protocol m_protocol;          //!< TCP or UDP
    bool m_ipv6;                  //!< IPv6 rule and load
    std::string m_algorithm;      //!< server selection
    std::string m_ruleName;       //!< the rule's name
    std::string m_vip;            //!< IPv4 VIP
    std::string m_vip6;           //!< IPv6 VIP
    uint16_t m_vipPort;           //!< the rule's port
    uint16_t m_serverPort;        //!< 0: the VIP port
    std::string m_natRange;       //!< IPv4 NAT source range
    std::string m_natRange6;      //!< IPv6 NAT source range
    std::string m_natPorts;       //!< NAT source ports
    bool m_ilbIsRouter;           //!< the ILB is the servers' gateway
    bool m_sticky;                //!< sticky sessions
    uint8_t m_stickyPrefix;       //!< IPv4 sticky prefix length
    uint8_t m_stickyPrefix6;      //!< IPv6 sticky prefix length
    Time m_persistTimeout;        //!< sticky entry lifetime
    Time m_natTimeout;            //!< NAT entry idle time (0: the table's default)
    Time m_connDrainTimeout;      //!< drain time of a disabled server (0: none)
    DataRate m_clientRate;        //!< client links' rate
    Time m_clientDelay;           //!< client links' delay
    DataRate m_coreRate;          //!< "client-side" and "return-path" rate
    Time m_coreDelay;             //!< their delay
    DataRate m_lanRate;           //!< server LAN rate
    Time m_lanDelay;              //!< server LAN delay
    bool m_installIlb;            //!< false: the ILB node is a plain router (baseline)
    HealthCheck m_healthCheck;    //!< health check kind
    Time m_hcInterval;            //!< probe interval
    Time m_hcTimeout;             //!< probe timeout
    uint32_t m_hcRetries;         //!< failures before DOWN
};

} // namespace ns3

#endif /* ILB_HELPER_H */
