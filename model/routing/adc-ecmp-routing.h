/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: an IPv4 routing protocol with per-flow equal-cost multipath (ns-3's own
 * routing has only per-packet random ECMP).
 */

#ifndef ADC_ECMP_ROUTING_H
#define ADC_ECMP_ROUTING_H

#include "adc-ecmp-group.h"

#include "ns3/adc-flow-key.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Per-flow ECMP routing for IPv4: per prefix, a group of equal-cost next hops
 * (AdcEcmpGroup), and each packet's next hop chosen by the hash of its 5-tuple.
 *
 * Routes are added per next hop (AddRoute: prefix, gateway, interface); routes of one prefix
 * form its group. Lookup is by longest prefix (few, aggregated prefixes: a linear scan in
 * decreasing prefix length). The flow hash is AdcHash::Flow of (source, destination, protocol,
 * ports) with the router's seed, so all packets of a flow take one next hop while the group is
 * unchanged, and two routers with different seeds choose independently: with one seed
 * everywhere, the flows a first tier sends to one next hop all hash alike at the second tier
 * and use one of its next hops only ("hash polarization"). The seed is the HashSeed attribute,
 * or, when it is 0 (the default), a mix of the node's id, so that routers differ without
 * configuration. Fragments and protocols without ports hash on addresses and protocol.
 *
 * A next hop whose interface goes down leaves its groups (and rejoins when it comes up): with
 * Mode MODULO the flows re-spread by modulo, with RESILIENT only the flows of that next hop
 * move (AdcEcmpGroup). Install it in front of the static and global routing of an
 * Ipv4ListRouting (AddRoutingProtocol with a higher priority): packets to a prefix it has no
 * route for fall through to them; Ipv4ListRouting delivers local packets itself.
 *
 * Trace "NextHop" fires for every packet routed: the flow, the prefix matched, the gateway
 * chosen and the group's size. Counters: packets routed, packets with no route.
 */
class AdcEcmpRouting : public Ipv4RoutingProtocol
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcEcmpRouting();
    ~AdcEcmpRouting() override;

    /**
     * \brief Signature of "NextHop".
     * \param flow the packet's flow (ports 0 for fragments and protocols without ports)
     * \param prefix the route's prefix, "a.b.c.d/len"
     * \param gateway the next hop chosen
     * \param groupSize the equal-cost next hops of that prefix now
     */
    typedef void (*NextHopTracedCallback)(const AdcFlowKey& flow,
                                          const std::string& prefix,
                                          Ipv4Address gateway,
                                          uint32_t groupSize);

    /**
     * \brief Add one equal-cost next hop of a prefix (joining the prefix's group).
     * \param network the prefix's network
     * \param mask its mask (contiguous)
     * \param gateway the next hop's address
     * \param interface the interface to it
     * \throw AdcConfigError for a mask that is not contiguous
     */
    void AddRoute(Ipv4Address network, Ipv4Mask mask, Ipv4Address gateway, uint32_t interface);

    /**
     * \brief Remove one next hop of a prefix (the flows it carried move as Mode says).
     * \param network the prefix's network
     * \param mask its mask
     * \param gateway the next hop
     * \return true when the route existed
     */
    bool RemoveRoute(Ipv4Address network, Ipv4Mask mask, Ipv4Address gateway);

    /**
     * \brief The gateway a flow takes now (what RouteInput would choose), for tests and tools.
     * \param flow the flow
     * \param gateway out: the gateway
     * \return false when no route matches or its group is empty
     */
    bool Lookup(const AdcFlowKey& flow, Ipv4Address& gateway) const;

    /// \return the seed the flow hash uses (HashSeed, or the node's when HashSeed is 0)
    uint64_t GetEffectiveSeed() const;

    /// \return packets routed through a group
    uint64_t GetPacketsRouted() const;

    // Ipv4RoutingProtocol
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    /// One next hop of a prefix.
    struct Hop
    {
        Ipv4Address gateway; //!< its address
        uint32_t interface;  //!< the interface to it
        bool up;             //!< in the group (its interface is up)
    };

    /// One prefix and its group.
    struct Prefix
    {
        Ipv4Address network;   //!< masked network
        Ipv4Mask mask;         //!< mask
        uint16_t length;       //!< prefix length
        std::vector<Hop> hops; //!< every next hop added, up or not (id = index)
        AdcEcmpGroup group;    //!< the hops that are up
    };

    /// \return the prefix \p dst matches longest, or nullptr
    const Prefix* Match(Ipv4Address dst) const;
    /// \return the flow of a packet (ports read from its transport header when it has one)
    static AdcFlowKey FlowOf(Ptr<const Packet> p, const Ipv4Header& header);
    /// \return the route for \p flow through \p prefix (nullptr when its group is empty)
    Ptr<Ipv4Route> Route(const Prefix& prefix, const AdcFlowKey& flow);
    /// Put the hops over \p interface in or out of their groups.
    void SetInterfaceState(uint32_t interface, bool up);
    /// \return the interface's state (true when there is no Ipv4 yet)
    bool IsInterfaceUp(uint32_t interface) const;

    Ptr<Ipv4> m_ipv4;               //!< the node's IPv4
    std::vector<Prefix> m_prefixes; //!< by decreasing prefix length
    uint64_t m_seed;                //!< HashSeed attribute
    AdcEcmpGroup::Mode m_mode;      //!< Mode attribute
    uint32_t m_buckets;             //!< ResilientBuckets attribute
    uint64_t m_routed{0};           //!< packets routed
    TracedCallback<const AdcFlowKey&, const std::string&, Ipv4Address, uint32_t> m_nextHopTrace;
};

} // namespace ns3

#endif /* ADC_ECMP_ROUTING_H */
