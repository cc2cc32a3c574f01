/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ILB: the address plan and the static routes of the test bed IlbHelper builds, and the
 * checks a built test bed must pass (DSR back-ends own the VIP, Half-NAT back-ends route
 * through the ILB).
 */

#ifndef ILB_ADDRESS_PLAN_H
#define ILB_ADDRESS_PLAN_H

#include "ns3/adc-flow-key.h"
#include "ns3/ilb-topology.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Who gets which address on the ILB test bed, and its static routes (the plan is
 * IlbHelper's documentation). Addresses are set directly, not through Ipv4AddressHelper, so
 * that several test beds can be built in one process without tripping the global address
 * generator.
 */
class IlbAddressPlan
{
  public:
    /// The Full-NAT source range as one prefix, routed to the ILB (unset: no such route).
    struct NatRoute
    {
        AdcIpAddress network; //!< the prefix's network (unset: none)
        uint8_t length{0};    //!< its length
    };

    /// \param first first address \param last last address \return the shortest prefix
    /// holding both
    static NatRoute CoveringPrefix(const AdcIpAddress& first, const AdcIpAddress& last);

    /**
     * \brief Give every device of \p t its addresses (IPv4 always, IPv6 too with t.ipv6) and
     * fill clientAddresses, serverAddresses, ilbLanAddress, serverRouterLanAddress,
     * clientSideInterface and serverLanInterface.
     * \param t a test bed with its nodes and links
     */
    static void AssignAddresses(IlbTopology& t);

    /**
     * \brief Add every static route (and fill serverGateways).
     * \param t a test bed with its addresses
     * \param viaIlb the servers' default gateway is the ILB (else the server router)
     * \param nat the NAT range's route on the servers, if any
     */
    static void AddRoutes(IlbTopology& t, bool viaIlb, const NatRoute& nat);

    /// \param t a test bed: put its VIP on the servers' loopbacks (DSR)
    static void ConfigureDsrServers(IlbTopology& t);

    /// \param i server index \param v6 IPv6 \return server i's LAN address
    static AdcIpAddress GetServerAddress(uint32_t i, bool v6);

    /**
     * \brief Throw when the addresses \p first..\p last touch a prefix ns-3 will not forward to
     * or one of the plan's own subnets.
     * \param what the setting and its value, for the message
     * \param first first address
     * \param last last address
     * \param example a good value, for the message
     * \throw AdcConfigError naming the prefix
     */
    static void CheckRoutable(const std::string& what,
                              const AdcIpAddress& first,
                              const AdcIpAddress& last,
                              const std::string& example);

    /**
     * \brief Check a built test bed (possibly changed since): in DSR every server must own the
     * VIP (on any interface, the loopback as built) and serve on the VIP port; in Half-NAT every
     * server's default gateway must be the ILB; no server may have the VIP as its LAN address.
     * \param topo the test bed
     * \throw AdcConfigError naming the server and what is wrong
     */
    static void Validate(const IlbTopology& topo);

  private:
    /// Add the IPv4 routes (parameters as AddRoutes).
    static void AddRoutes4(IlbTopology& t, bool viaIlb, const NatRoute& nat);
    /// Add the IPv6 routes (parameters as AddRoutes).
    static void AddRoutes6(IlbTopology& t, bool viaIlb, const NatRoute& nat);
};

} // namespace ns3

#endif /* ILB_ADDRESS_PLAN_H */
