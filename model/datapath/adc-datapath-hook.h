/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc datapath: the IPv4 and IPv6 hooks that put an AdcDatapath into a node. Each is a
 * routing protocol at the top of the node's list routing: RouteInput describes the packet
 * (AdcIngress), asks the datapath, and carries out its verdicts with the forwarding, local
 * delivery and send functions of the node's IP stack; RouteOutput describes a packet the node
 * sends (AdcLocalOutput) and builds the route the datapath gives, if any. One template holds
 * the body both families share; a family struct supplies the types and the few steps that
 * differ.
 */

#ifndef ADC_DATAPATH_HOOK_H
#define ADC_DATAPATH_HOOK_H

#include "adc-datapath.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface-address.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-interface-address.h"
#include "ns3/ipv6-route.h"
#include "ns3/ipv6-routing-protocol.h"

#include <string>
#include <type_traits>

namespace ns3
{

class Ipv4;
class Ipv6;
class Ipv4ListRouting;
class Ipv6ListRouting;

/**
 * \ingroup adc
 * \brief The types of one IP family and the few steps of the datapath hook that differ.
 * \tparam V6 false: IPv4; true: IPv6
 */
template <bool V6>
struct AdcHookFamily
{
    /// the node's IP object
    using Ip = std::conditional_t<V6, Ipv6, Ipv4>;
    /// the routing protocol base class
    using Protocol = std::conditional_t<V6, Ipv6RoutingProtocol, Ipv4RoutingProtocol>;
    /// the node's list routing
    using ListRouting = std::conditional_t<V6, Ipv6ListRouting, Ipv4ListRouting>;
    /// the IP header
    using Header = std::conditional_t<V6, Ipv6Header, Ipv4Header>;
    /// a route
    using Route = std::conditional_t<V6, Ipv6Route, Ipv4Route>;
    /// an address
    using Address = std::conditional_t<V6, Ipv6Address, Ipv4Address>;
    /// an interface address
    using InterfaceAddress = std::conditional_t<V6, Ipv6InterfaceAddress, Ipv4InterfaceAddress>;
    /// the forwarding callback
    using UnicastForwardCallback = typename Protocol::UnicastForwardCallback;
    /// the hook's TypeId name
    static constexpr const char* NAME = V6 ? "AdcIpv6DatapathHook" : "AdcIpv4DatapathHook";
    /// the family as AdcIpAddress names it
    static constexpr AdcIpAddress::Family FAMILY = V6 ? AdcIpAddress::V6 : AdcIpAddress::V4;

    /// \param a an address of this family \return it as the family's address type
    static Address Get(const AdcIpAddress& a);
    /// \param a a header's source \return true when set (IPv4: initialized and not 0.0.0.0;
    /// IPv6: not ::)
    static bool IsSet(const Address& a);
    /**
     * \param ip the node's IP object
     * \param interface one of its interfaces
     * \param dst the destination
     * \return the source a route through \p interface carries: IPv4 its first address (or
     * 0.0.0.0), IPv6 the one source address selection picks for \p dst
     */
    static Address InterfaceSource(const Ptr<Ip>& ip, uint32_t interface, const Address& dst);
    /// \param header received header \return true for an IPv4 fragment after the first
    static bool IsLaterFragment(const Header& header);
    /**
     * \param dst a locally originated packet's destination
     * \return true when no datapath routes it: IPv6 multicast and link-local (neighbour
     * discovery); IPv4 never (a datapath sees all, as policy routing always did)
     */
    static bool IgnoreOutput(const Address& dst);
    /**
     * \param ip the node's IP object
     * \param header received header
     * \param idev input device
     * \param listDelivers true when the node's routing protocol is a list routing, which
     * delivers the node's own packets before it asks its protocols (so they never see them)
     * \return true when the packet is not for the protocol: multicast, and for IPv4 broadcast
     * and the node's own (checked here only without a list), for IPv6 link-local
     */
    static bool Ignore(const Ptr<Ip>& ip,
                       const Header& header,
                       Ptr<const NetDevice> idev,
                       bool listDelivers);
    /**
     * \param ip the node's IP object
     * \return whether its routing protocol is a list routing (see Ignore)
     */
    static bool HasListRouting(const Ptr<Ip>& ip);
    /// \param header received header \return its IP protocol / next header
    static uint8_t NextProtocol(const Header& header);
    /**
     * \param header received header
     * \return whether the packet is an IPv4 fragment; IPv6 extension headers other than
     * hop-by-hop stay in the packet, so a fragment header is a next header other than TCP/UDP:
     * not datapath traffic (false)
     */
    static bool IsFragment(const Header& header);
    /// Raise the TTL (hop limit) by one below 255, so that forwarding's decrement keeps it.
    static void RaiseTtl(Header& header);
    /**
     * \param src source \param dst destination \param protocol IP protocol / next header
     * \param payloadBytes the payload's length
     * \return an IP header for a packet the node received for itself (ProcessLocal), TTL 64
     */
    static Header MakeHeader(const AdcIpAddress& src,
                             const AdcIpAddress& dst,
                             uint8_t protocol,
                             uint32_t payloadBytes);
    /// Hand a packet to the forwarding code (IPv4's does not take the input device).
    static void Forward(const UnicastForwardCallback& ucb,
                        Ptr<const NetDevice> idev,
                        Ptr<Route> route,
                        Ptr<const Packet> p,
                        const Header& h);
};

using AdcIpv4HookFamily = AdcHookFamily<false>; //!< IPv4
using AdcIpv6HookFamily = AdcHookFamily<true>;  //!< IPv6

/**
 * \ingroup adc
 * \brief The hook of an AdcDatapath for one IP family: a routing protocol for the node's list
 * routing, above static routing.
 *
 * RouteInput: leaves the node's own, multicast, IPv4 broadcast and IPv6 link-local packets to
 * the list; gives every other packet to AdcDatapath::Process and carries out its verdicts
 * (FORWARD through the interface it names or the one the routes to the next hop give; REWRITE
 * and ENCAPSULATE along the routes of the other protocols; DELIVER_LOCAL through the list's
 * local delivery; DROP through AdcDatapath::DropPacket).
 *
 * RouteOutput (the node's own packets, and sockets choosing their source; IPv6 multicast and
 * link-local destinations excepted): asks AdcDatapath::ProcessOutput; without an answer it
 * finds no route, so the list asks the next protocol. With one, it builds the route: through the
 * interface and next hop given, or along the other protocols' route to the destination, carrying
 * the source given (kept even when the node does not own it: USIP). \tparam Family
 * AdcIpv4HookFamily or AdcIpv6HookFamily \tparam Self the concrete hook (registered as "ns3::" +
 * Family::NAME)
 */
template <class Family, class Self>
class AdcDatapathHook : public Family::Protocol
{
  public:
    using Protocol = typename Family::Protocol;                                   //!< base class
    using Header = typename Family::Header;                                       //!< IP header
    using Route = typename Family::Route;                                         //!< route
    using UnicastForwardCallback = typename Protocol::UnicastForwardCallback;     //!< ucb
    using MulticastForwardCallback = typename Protocol::MulticastForwardCallback; //!< mcb
    using LocalDeliverCallback = typename Protocol::LocalDeliverCallback;         //!< lcb
    using ErrorCallback = typename Protocol::ErrorCallback;                       //!< ecb

    /// \return the TypeId
    static TypeId GetTypeId();

    /// \param datapath the datapath that decides (not owned: it owns this hook; null detaches)
    void Attach(AdcDatapath* datapath);

    Ptr<Route> RouteOutput(Ptr<Packet> p,
                           const Header& header,
                           Ptr<NetDevice> oif,
                           Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, typename Family::InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface,
                             typename Family::InterfaceAddress address) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const override;

    /**
     * \brief Give the datapath a packet the node received for one of its own addresses
     * (AdcDatapath::ProcessLocal): no forwarding, no local delivery.
     * \param p the IP payload
     * \param src the IP source
     * \param dst the IP destination
     * \param protocol the IP protocol
     * \param interface the node's interface it arrived on
     * \return what the datapath's Process returned (false for an unknown interface)
     */
    bool ProcessLocal(Ptr<const Packet> p,
                      const AdcIpAddress& src,
                      const AdcIpAddress& dst,
                      uint8_t protocol,
                      uint32_t interface);

  protected:
    /// \param ip the node's IP object (SetIpv4 / SetIpv6 of the concrete hook)
    void SetIp(Ptr<typename Family::Ip> ip);
    void DoDispose() override;

  private:
    class Egress;

    /**
     * \param dst a destination
     * \return a route to it from the node's other protocols, or null
     */
    Ptr<Route> LookupRoute(typename Family::Address dst) const;

    /**
     * \brief Build the route a datapath gave a locally originated packet.
     * \param p the packet (may be null)
     * \param header its header
     * \param oif the bound device, if any
     * \param r what the datapath gave
     * \return the route, or null when the node has none to what \p r names
     */
    Ptr<Route> MakeOutputRoute(Ptr<Packet> p,
                               const Header& header,
                               Ptr<NetDevice> oif,
                               const AdcOutputRoute& r) const;

    /**
     * \brief Send a packet, unchanged or rewritten, along a route the other protocols give.
     * \param in the packet as described
     * \param idev input device
     * \param header received IP header
     * \param ucb forwarding callback
     * \param v a FORWARD or REWRITE verdict
     * \return "" or why not
     */
    std::string SendOn(const AdcIngress& in,
                       Ptr<const NetDevice> idev,
                       const Header& header,
                       const UnicastForwardCallback& ucb,
                       const AdcVerdict& v) const;

    /**
     * \brief Describe a received packet and have the datapath decide on it.
     * \param p the packet (no IP header) \param header its IP header \param idev input device
     * \param ucb forwarding (null: FORWARD and REWRITE refused) \param lcb local delivery
     * \return what the datapath's Process returned
     */
    bool Run(Ptr<const Packet> p,
             const Header& header,
             Ptr<const NetDevice> idev,
             const UnicastForwardCallback& ucb,
             const LocalDeliverCallback& lcb);

    /**
     * \brief Strip the outer header and \p bytes, and hand the inner IP datagram to the node's
     * IPv4 or IPv6 layer as if received on \p idev.
     * \param in the packet as described (its payload follows the outer IP header)
     * \param idev the device it arrived on
     * \param bytes what to strip after the outer IP header
     * \return "" or why not
     */
    std::string Decapsulate(const AdcIngress& in, Ptr<const NetDevice> idev, uint32_t bytes) const;

    /**
     * \brief Send the received datagram inside an outer header, from this node.
     * \param in the packet as described
     * \param header received IP header (becomes the inner header, as received)
     * \param e the outer header
     * \return "" or why not
     */
    std::string SendEncapsulated(const AdcIngress& in,
                                 const Header& header,
                                 const AdcEncapsulation& e) const;

    AdcDatapath* m_datapath{nullptr}; //!< decides (not owned)
    Ptr<typename Family::Ip> m_ip;    //!< the node's Ipv4 / Ipv6
    bool m_listDelivers{false};       //!< the node's routing is a list (Family::Ignore)
};

/**
 * \ingroup adc
 * \brief The IPv4 hook of an AdcDatapath (an Ipv4RoutingProtocol for the node's
 * Ipv4ListRouting, above static routing).
 */
class AdcIpv4DatapathHook : public AdcDatapathHook<AdcIpv4HookFamily, AdcIpv4DatapathHook>
{
  public:
    void SetIpv4(Ptr<Ipv4> ipv4) override;
};

/**
 * \ingroup adc
 * \brief The IPv6 hook of an AdcDatapath (an Ipv6RoutingProtocol for the node's
 * Ipv6ListRouting, above static routing).
 */
class AdcIpv6DatapathHook : public AdcDatapathHook<AdcIpv6HookFamily, AdcIpv6DatapathHook>
{
  public:
    void NotifyAddRoute(Ipv6Address dst,
                        Ipv6Prefix mask,
                        Ipv6Address nextHop,
                        uint32_t interface,
                        Ipv6Address prefixToUse) override;
    void NotifyRemoveRoute(Ipv6Address dst,
                           Ipv6Prefix mask,
                           Ipv6Address nextHop,
                           uint32_t interface,
                           Ipv6Address prefixToUse) override;
    void SetIpv6(Ptr<Ipv6> ipv6) override;
};

// Defined once, in adc-datapath-hook.cc.
extern template struct AdcHookFamily<false>;
extern template struct AdcHookFamily<true>;
extern template class AdcDatapathHook<AdcIpv4HookFamily, AdcIpv4DatapathHook>;
extern template class AdcDatapathHook<AdcIpv6HookFamily, AdcIpv6DatapathHook>;

} // namespace ns3

#endif /* ADC_DATAPATH_HOOK_H */
