/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SLB_POLICY_H
#define SLB_POLICY_H

#include "ns3/adc-flow-key.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup adc
 * The SDN software load balancer's policy: what the SLB manager pushes to the MUXes and to the
 * host agents (VIPs, their DIPs, and where each DIP lives).
 */

namespace ns3
{

/**
 * \ingroup adc
 * \brief Who may reach a VIP: a public VIP is announced to the internet-facing routers, an
 * internal one serves east-west traffic inside the data centre (and is eligible for Fastpath).
 */
enum class SlbVipKind : uint8_t
{
    PUBLIC,  //!< reached from the internet
    INTERNAL //!< reached from VMs in the data centre (east-west)
};

/**
 * \ingroup adc
 * \brief A load-balanced endpoint: VIP, IP protocol and front-end port.
 */
struct SlbVipKey
{
    AdcIpAddress vip;                        //!< the virtual IP (IPv4 or IPv6)
    uint8_t protocol{AdcFlowKey::PROTO_TCP}; //!< 6 (TCP) or 17 (UDP)
    uint16_t port{0};                        //!< the front-end port
    /// \param o another key \return a strict weak order (map key)
    bool operator<(const SlbVipKey& o) const;
    /// \param o another key \return true when equal
    bool operator==(const SlbVipKey& o) const;
    /// \return "TCP 107.105.47.60:80" ([v6]:port for IPv6)
    std::string ToString() const;
};

/**
 * \ingroup adc
 * \brief One back-end (DIP) of a VIP and where it lives.
 *
 * A DIP sits either on a VLAN (vni == 0: the host delivers to the VM by its address) or on a
 * tenant virtual network (vni != 0: the VXLAN VNI the MUX puts on the wire and the host must
 * carry). The MUX always reaches the host over VXLAN, to the host's provider address (PA).
 */
struct SlbDip
{
    AdcIpAddress address; //!< the DIP (the VM's address)
    uint16_t port{0};     //!< the back-end port (the host rewrites the VIP's port to it)
    AdcIpAddress hostPa;  //!< the provider (physical) address of the host holding the DIP
    uint32_t vni{0};      //!< tenant virtual network (VXLAN VNI), 0: on a VLAN
    uint16_t vlan{0};     //!< the VLAN id when vni == 0 (informational)
    bool healthy{true};   //!< as the manager last aggregated it (probes by the host agent)
    /// \return "10.10.10.5:80@192.168.1.11/vni5001"
    std::string ToString() const;
};

/**
 * \ingroup adc
 * \brief A VIP with its DIPs, as the manager pushes it.
 */
struct SlbVip
{
    std::string name;                    //!< the operator's name for it
    SlbVipKey key;                       //!< VIP, protocol, port
    SlbVipKind kind{SlbVipKind::PUBLIC}; //!< public or internal
    std::vector<SlbDip> dips;            //!< its back-ends (healthy and not)
};

/**
 * \ingroup adc
 * \param kind a VIP kind \return "public" or "internal"
 */
std::string SlbVipKindName(SlbVipKind kind);

} // namespace ns3

#endif /* SLB_POLICY_H */
