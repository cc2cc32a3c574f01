/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc datapath: the rules of policy-based routing (AdcPolicyRouting): what a rule matches
 * (ingress interface, source and destination networks of IPv4 or IPv6, protocol, port ranges)
 * and what it does (forward to a next hop, balance over next hops, deliver locally, pass), with
 * their validation and text form.
 */

#ifndef ADC_POLICY_RULE_H
#define ADC_POLICY_RULE_H

#include "adc-ip-mask.h"

#include "ns3/adc-flow-key.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-service.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/ptr.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief One next hop a policy rule can send packets to.
 *
 * The interface index is the packet's family's: ns-3 numbers a node's IPv4 and IPv6 interfaces
 * alike when both stacks are installed together (loopback 0, then the devices in order), so one
 * hop serves both families; each family has its own gateway.
 */
struct AdcNextHop
{
    /// Outgoing interface index; 0 (the loopback) lets the node's routes to the gateway choose.
    uint32_t interface = 0;
    /// IPv4 next hop on that interface; left unset (or 0.0.0.0) the packet goes on-link to its
    /// destination.
    Ipv4Address gateway;
    std::string name; //!< e.g. "L2NS2" (traces, hop names; the identity BALANCE hashes on)
    /// Optional: the hop is down while this service is DOWN or OUT OF SERVICE (health
    /// monitors bind to the service; UNKNOWN, before they answer, keeps the hop in use).
    Ptr<AdcService> service;
    /// IPv6 next hop on that interface; left unset (::) IPv6 packets go on-link.
    Ipv6Address gateway6;

    /**
     * \param family the packet's family
     * \return the gateway of that family, or unset (on-link to the destination)
     */
    AdcIpAddress GetGateway(AdcIpAddress::Family family) const;
};

/**
 * \ingroup adc
 * \brief One policy-based routing rule: a match on the packet and an action.
 *
 * A rule matches when every constraint holds: the ingress interface is listed (or the list is
 * empty), source and destination lie in their networks, the protocol is equal (or the rule's
 * is 0) and the ports lie in their ranges (when set).
 *
 * Networks are IPv4 or IPv6 (srcNet/dstNet take an Ipv4Address or an Ipv6Address, the masks an
 * Ipv4Mask, an Ipv6Prefix or AdcIpMask::FromPrefixLength). A mask left at its default (or
 * without any bit set) matches every address of both families; a rule with a network matches
 * only packets of that network's family, and both networks of a rule are of one family.
 */
struct AdcPolicyRule
{
    /// What a matching packet gets.
    enum Action : uint8_t
    {
        FORWARD, //!< forward to the one next hop, addresses and ports untouched
        BALANCE, //!< forward to the next hop a hash of the flow picks among the up ones
        LOCAL,   //!< deliver to the node's own sockets (transparent interception)
        PASS     //!< stop here and leave the packet to the lower-priority protocols
    };

    std::string name;                          //!< e.g. "pbr-L2NS2", shown in traces
    std::vector<uint32_t> inInterfaces;        //!< empty = any ingress interface
    AdcIpAddress srcNet;                       //!< source network (with srcMask)
    AdcIpMask srcMask;                         //!< source mask (default: any source)
    AdcIpAddress dstNet;                       //!< destination network (with dstMask)
    AdcIpMask dstMask;                         //!< destination mask (default: any)
    uint8_t protocol{0};                       //!< 0 = any; 6 TCP, 17 UDP
    std::optional<AdcPortRange> srcPorts;      //!< unset = any
    std::optional<AdcPortRange> dstPorts;      //!< unset = any
    Action action{FORWARD};                    //!< what a matching packet gets
    std::vector<AdcNextHop> nextHops;          //!< FORWARD: 1; BALANCE: >= 1; else none
    std::string balanceMethod{"hash-ip-port"}; //!< BALANCE only: a hash method name

    /// \return V4 or V6 when a network names the family, NONE when the rule matches both
    AdcIpAddress::Family GetFamily() const;

    /// \param iif ingress interface \return true when the rule accepts it
    bool MatchesIngress(uint32_t iif) const
    {
        return inInterfaces.empty() ||
               std::find(inInterfaces.begin(), inInterfaces.end(), iif) != inInterfaces.end();
    }

    /// \param flow a flow \return true when its addresses and protocol match
    bool MatchesAddresses(const AdcFlowKey& flow) const
    {
        return srcMask.IsMatch(flow.src, srcNet) && dstMask.IsMatch(flow.dst, dstNet) &&
               (protocol == 0 || protocol == flow.protocol);
    }

    /// \return true when the rule has a port range
    bool NeedsPorts() const
    {
        return srcPorts.has_value() || dstPorts.has_value();
    }

    /// \param flow a flow whose ports are known \return true when they match
    bool MatchesPorts(const AdcFlowKey& flow) const
    {
        return (!srcPorts || srcPorts->Contains(flow.srcPort)) &&
               (!dstPorts || dstPorts->Contains(flow.dstPort));
    }

    /// \param action an action \return "FORWARD", "BALANCE", "LOCAL" or "PASS"
    static std::string ActionToString(Action action);

    /**
     * \param index the rule's index
     * \return "AdcPolicyRouting: rule 'name' (#index)", how messages name a rule
     */
    std::string Who(uint32_t index) const;

    /**
     * \brief Check everything about the rule that does not need the node.
     * \param index its index (for messages)
     * \throws AdcConfigError naming the rule and the field: FORWARD without exactly one next
     * hop, BALANCE without next hops, with a non-hash method or with duplicate hop names,
     * LOCAL/PASS with next hops, port ranges on a protocol other than 0, TCP, UDP, an invalid
     * port range, a network of another family than its mask, networks of two families
     */
    void Check(uint32_t index) const;

    /**
     * \brief Check the rule's interface indices against the node's.
     * \param index its index
     * \param nInterfaces the node's number of interfaces of the rule's family
     * \param family "Ipv4" or "Ipv6", for the message
     * \throws AdcConfigError naming the first index out of range
     */
    void CheckInterfaces(uint32_t index, uint32_t nInterfaces, const std::string& family) const;

    /**
     * \brief Print the rule on one line (without hop states and hits).
     * \param os the stream: "name in=any src=10.0.0.0/8 dst=any proto=6 sport=any
     * dport=80-80 FORWARD"
     */
    void Print(std::ostream& os) const;
};

} // namespace ns3

#endif /* ADC_POLICY_RULE_H */
