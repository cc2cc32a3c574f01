/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the routing protocol of per-flow ECMP, once for both IP families. A
 * template over the family (AdcHookFamily, as the datapath hook uses) holds all the behaviour;
 * AdcEcmpRouting (IPv4) and AdcEcmpRouting6 (IPv6) add only the family's way of writing a
 * prefix.
 */

#ifndef ADC_ECMP_ROUTING_BASE_H
#define ADC_ECMP_ROUTING_BASE_H

#include "adc-ecmp-table.h"

#include "ns3/adc-datapath-hook.h"
#include "ns3/adc-flow-key.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Per-flow ECMP routing for one IP family: per prefix, a group of equal-cost next hops
 * (AdcEcmpTable, AdcEcmpGroup), and each packet's next hop chosen by the hash of its 5-tuple.
 *
 * Routes are added per next hop and origin (AddPath, or the family's AddRoute); routes of one
 * prefix form its group; a next hop held by a static route and a BGP path at once is one
 * member of the group, and leaves it only when both are removed. Lookup is by longest prefix
 * among the prefixes with a usable next hop. The flow hash is AdcHash::Flow of (source,
 * destination, protocol, ports) with the router's seed, so all packets of a flow take one next
 * hop while the group is unchanged, and two routers with different seeds choose independently
 * (with one seed everywhere, the flows a first tier sends to one next hop all hash alike at the
 * second tier: "hash polarization"). The seed is the HashSeed attribute or, when it is 0 (the
 * default), a mix of the node's id. Fragments and protocols without ports hash on addresses and
 * protocol; the node's own packets hash on ports only for TCP (UDP has no header yet when a
 * socket asks for its route).
 *
 * A next hop whose interface goes down leaves its groups (and rejoins when it comes up). Install
 * it in front of the static and global routing of the node's list routing: packets it has no
 * route for, multicast, IPv4 broadcast and IPv6 link-local (neighbour discovery) packets go to
 * the next protocol.
 *
 * Traces: "NextHop" for every packet routed (flow, prefix, gateway, group size), "RouteChange"
 * for every route added or removed (prefix, next hop, added, origin).
 *
 * \tparam Family AdcIpv4HookFamily or AdcIpv6HookFamily
 * \tparam Self the concrete protocol (registered as ns3::AdcEcmpRouting or ns3::AdcEcmpRouting6)
 */
template <class Family, class Self>
class AdcEcmpRoutingBase : public Family::Protocol
{
  public:
    using Protocol = typename Family::Protocol;                                   //!< base class
    using Address = typename Family::Address;                                     //!< address
    using Header = typename Family::Header;                                       //!< IP header
    using Route = typename Family::Route;                                         //!< route
    using UnicastForwardCallback = typename Protocol::UnicastForwardCallback;     //!< ucb
    using MulticastForwardCallback = typename Protocol::MulticastForwardCallback; //!< mcb
    using LocalDeliverCallback = typename Protocol::LocalDeliverCallback;         //!< lcb
    using ErrorCallback = typename Protocol::ErrorCallback;                       //!< ecb

    /// \return the TypeId
    static TypeId GetTypeId();
    /// An empty table of the family.
    AdcEcmpRoutingBase();

    /**
     * \brief Signature of "NextHop".
     * \param flow the packet's flow (ports 0 for fragments and protocols without ports)
     * \param prefix the route's prefix, "network/length"
     * \param gateway the next hop chosen
     * \param groupSize the equal-cost next hops of that prefix now
     */
    typedef void (*NextHopTracedCallback)(const AdcFlowKey& flow,
                                          const std::string& prefix,
                                          Address gateway,
                                          uint32_t groupSize);

    /**
     * \brief Signature of "RouteChange".
     * \param prefix the prefix, "network/length"
     * \param nextHop the next hop
     * \param added true: added; false: removed
     * \param origin whose route
     */
    typedef void (*RouteChangeTracedCallback)(const std::string& prefix,
                                              Address nextHop,
                                              bool added,
                                              AdcRouteOrigin origin);

    /**
     * \brief Add one equal-cost next hop of a prefix for one origin (what a BGP speaker's
     * learnt route gives: AdcIpAddress prefix, length and next hop).
     * \param network the prefix's network
     * \param length its length
     * \param gateway the next hop (an IPv6 link-local next hop is reached through
     * \p interface)
     * \param interface the interface to it
     * \param origin who adds it
     * \throw AdcConfigError for addresses of another family, a length beyond the family's or
     * an interface the node does not have
     */
    void AddPath(const AdcIpAddress& network,
                 uint8_t length,
                 const AdcIpAddress& gateway,
                 uint32_t interface,
                 AdcRouteOrigin origin);

    /**
     * \brief Remove one origin's next hop of a prefix (the flows it carried move as Mode says;
     * another origin's route to the same next hop stays).
     * \param network the prefix's network
     * \param length its length
     * \param gateway the next hop
     * \param origin whose route
     * \return true when that route existed
     */
    bool RemovePath(const AdcIpAddress& network,
                    uint8_t length,
                    const AdcIpAddress& gateway,
                    AdcRouteOrigin origin);

    /**
     * \brief Remove every prefix's route of one origin through one next hop (a BGP session
     * to that next hop dropped).
     * \param gateway the next hop
     * \param origin whose routes
     * \return the number of routes removed
     */
    uint32_t RemoveRoutesVia(const AdcIpAddress& gateway, AdcRouteOrigin origin);

    /**
     * \brief The gateway a flow takes now (what RouteInput would choose), for tests and tools.
     * \param flow the flow
     * \param gateway out: the gateway
     * \return false when no route matches
     */
    bool Lookup(const AdcFlowKey& flow, Address& gateway) const;

    /// \return the seed the flow hash uses (HashSeed, or the node's when HashSeed is 0)
    uint64_t GetEffectiveSeed() const;

    /// \return packets routed through a group
    uint64_t GetPacketsRouted() const;

    /// \return the table
    const AdcEcmpTable& GetTable() const;

    // The family's routing protocol
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
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    /// \param ip the node's Ipv4 / Ipv6 (SetIpv4 / SetIpv6 of the concrete protocol)
    void SetIp(Ptr<typename Family::Ip> ip);
    void DoDispose() override;

  private:
    /// \return the flow of a packet (ports from its transport header when \p input, or TCP)
    static AdcFlowKey FlowOf(Ptr<const Packet> p, const Header& header, bool input);
    /// \return the route for \p flow through \p prefix, counted and traced
    Ptr<Route> MakeRoute(const AdcEcmpTable::Prefix& prefix, const AdcFlowKey& flow);
    /// \return the interface's state (true when there is no IP object yet)
    bool IsInterfaceUp(uint32_t interface) const;

    Ptr<typename Family::Ip> m_ip; //!< the node's Ipv4 / Ipv6
    bool m_listDelivers{false};    //!< the node's routing is a list (Family::Ignore)
    AdcEcmpTable m_table;          //!< the routes
    uint64_t m_seed{0};            //!< HashSeed attribute
    AdcEcmpGroup::Mode m_mode{AdcEcmpGroup::MODULO}; //!< Mode attribute
    uint32_t m_buckets{256};                         //!< ResilientBuckets attribute
    uint64_t m_routed{0};                            //!< packets routed
    TracedCallback<const AdcFlowKey&, const std::string&, Address, uint32_t>
        m_nextHopTrace; //!< NextHop
    TracedCallback<const std::string&, Address, bool, AdcRouteOrigin>
        m_routeChangeTrace; //!< RouteChange
};

} // namespace ns3

#endif /* ADC_ECMP_ROUTING_BASE_H */
