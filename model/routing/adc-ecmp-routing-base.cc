/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-ecmp-routing-base.h"

#include "adc-ecmp-routing.h"
#include "adc-ecmp-routing6.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-packet-rewrite.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/uinteger.h"

#include <ostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcEcmpRouting");

template <class Family, class Self>
TypeId
AdcEcmpRoutingBase<Family, Self>::GetTypeId()
{
    const std::string name =
        Family::FAMILY == AdcIpAddress::V6 ? "ns3::AdcEcmpRouting6" : "ns3::AdcEcmpRouting";
    static TypeId tid =
        TypeId(name)
            .template SetParent<Protocol>()
            .SetGroupName("Adc")
            .template AddConstructor<Self>()
            .AddAttribute("HashSeed",
                          "Seed of the flow hash. 0 (the default): derived from the node's id, "
                          "so that routers of one topology choose independently (no hash "
                          "polarization across tiers); set the same value on two routers to "
                          "make them choose alike.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcEcmpRoutingBase::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Mode",
                          "How flows map to a prefix's next hops: MODULO (hash mod the number "
                          "of next hops: a change moves most flows), HASH_THRESHOLD (equal "
                          "regions of the hash space, RFC 2992, as Linux's multipath routes: a "
                          "change moves the gone hop's flows and part of its neighbours') or "
                          "RESILIENT (a fixed bucket table: a change moves only the flows of "
                          "the next hop that went or of the buckets the new one takes). "
                          "Applies to prefixes added after it is set.",
                          EnumValue(AdcEcmpGroup::MODULO),
                          MakeEnumAccessor(&AdcEcmpRoutingBase::m_mode),
                          MakeEnumChecker(AdcEcmpGroup::MODULO,
                                          "MODULO",
                                          AdcEcmpGroup::RESILIENT,
                                          "RESILIENT",
                                          AdcEcmpGroup::HASH_THRESHOLD,
                                          "HASH_THRESHOLD"))
            .AddAttribute("ResilientBuckets",
                          "Buckets of each prefix's table in Mode RESILIENT (at least 1; "
                          "several per next hop keep the shares even).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&AdcEcmpRoutingBase::m_buckets),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("NextHop",
                            "A packet was routed through a prefix's group: its flow, the "
                            "prefix, the gateway chosen and the group's size.",
                            MakeTraceSourceAccessor(&AdcEcmpRoutingBase::m_nextHopTrace),
                            name + "::NextHopTracedCallback")
            .AddTraceSource("RouteChange",
                            "A route was added to or removed from the table: the prefix, the "
                            "next hop, added (true) or removed (false), and its origin.",
                            MakeTraceSourceAccessor(&AdcEcmpRoutingBase::m_routeChangeTrace),
                            name + "::RouteChangeTracedCallback");
    return tid;
}

template <class Family, class Self>
AdcEcmpRoutingBase<Family, Self>::AdcEcmpRoutingBase()
    : m_table(Family::FAMILY)
{
}

template <class Family, class Self>
void
AdcEcmpRoutingBase<Family, Self>::DoDispose()
{
    m_ip = nullptr;
    m_table.Clear();
    Protocol::DoDispose();
}

template <class Family, class Self>
void
AdcEcmpRoutingBase<Family, Self>::SetIp(Ptr<typename Family::Ip> ip)
{
    m_ip = ip;
    // The IP layer sets its routing protocol before handing it the IP object, and a list hands
    // it on to its protocols (when they are added or when it is set).
    m_listDelivers = Family::HasListRouting(ip);
}

template <class Family, class Self>
void
AdcEcmpRoutingBase<Family, Self>::AddPath(const AdcIpAddress& network,
                                          uint8_t length,
                                          const AdcIpAddress& gateway,
                                          uint32_t interface,
                                          AdcRouteOrigin origin)
{
    if (m_ip && interface >= m_ip->GetNInterfaces())
    {
        std::ostringstream os;
        os << "AdcEcmpRouting: route " << network << "/" << static_cast<uint32_t>(length) << " via "
           << gateway << ": interface " << interface << "; allowed: 0 to "
           << m_ip->GetNInterfaces() - 1 << " (the node's interfaces)";
        throw AdcConfigError(os.str());
    }
    if (m_table.Add(network,
                    length,
                    gateway,
                    interface,
                    origin,
                    IsInterfaceUp(interface),
                    m_mode,
                    m_buckets))
    {
        NS_LOG_INFO("route " << network << "/" << +length << " via " << gateway << " "
                             << AdcRouteOriginName(origin) << " added");
        m_routeChangeTrace(AdcEcmpTable::Text(network, length), Family::Get(gateway), true, origin);
    }
}

template <class Family, class Self>
bool
AdcEcmpRoutingBase<Family, Self>::RemovePath(const AdcIpAddress& network,
                                             uint8_t length,
                                             const AdcIpAddress& gateway,
                                             AdcRouteOrigin origin)
{
    if (network.GetFamily() != Family::FAMILY || !m_table.Remove(network, length, gateway, origin))
    {
        return false;
    }
    m_routeChangeTrace(AdcEcmpTable::Text(network, length), Family::Get(gateway), false, origin);
    return true;
}

template <class Family, class Self>
uint32_t
AdcEcmpRoutingBase<Family, Self>::RemoveRoutesVia(const AdcIpAddress& gateway,
                                                  AdcRouteOrigin origin)
{
    if (gateway.GetFamily() != Family::FAMILY)
    {
        return 0;
    }
    const auto removed = m_table.RemoveVia(gateway, origin);
    for (const AdcEcmpTable::Removed& r : removed)
    {
        m_routeChangeTrace(r.prefix, Family::Get(r.gateway), false, origin);
    }
    return static_cast<uint32_t>(removed.size());
}

template <class Family, class Self>
uint64_t
AdcEcmpRoutingBase<Family, Self>::GetEffectiveSeed() const
{
    if (m_seed != 0)
    {
        return m_seed;
    }
    const uint32_t id = m_ip ? m_ip->template GetObject<Node>()->GetId() : 0;
    return AdcHash::Mix(0xec3b0a5eull ^ id);
}

template <class Family, class Self>
bool
AdcEcmpRoutingBase<Family, Self>::Lookup(const AdcFlowKey& flow, Address& gateway) const
{
    const AdcEcmpTable::Prefix* p = m_table.Match(flow.dst);
    if (!p)
    {
        return false;
    }
    gateway =
        Family::Get(AdcEcmpTable::Select(*p, AdcHash::Flow(flow, GetEffectiveSeed())).gateway);
    return true;
}

template <class Family, class Self>
uint64_t
AdcEcmpRoutingBase<Family, Self>::GetPacketsRouted() const
{
    return m_routed;
}

template <class Family, class Self>
const AdcEcmpTable&
AdcEcmpRoutingBase<Family, Self>::GetTable() const
{
    return m_table;
}

template <class Family, class Self>
AdcFlowKey
AdcEcmpRoutingBase<Family, Self>::FlowOf(Ptr<const Packet> p, const Header& header, bool input)
{
    const uint8_t protocol = Family::NextProtocol(header);
    AdcFlowKey k(header.GetSource(), header.GetDestination(), 0, 0, protocol);
    // Every fragment of a datagram hashes alike: on addresses and protocol only. A socket's
    // packet carries its transport header when it asks for a route only for TCP.
    const bool peek = input ? AdcHasPorts(protocol) : protocol == AdcFlowKey::PROTO_TCP;
    if (p && peek && !Family::IsFragment(header))
    {
        const AdcTransportInfo t = AdcPeekPorts(p, protocol);
        if (t.status == AdcTransportStatus::OK)
        {
            k.srcPort = t.srcPort;
            k.dstPort = t.dstPort;
        }
    }
    return k;
}

template <class Family, class Self>
Ptr<typename AdcEcmpRoutingBase<Family, Self>::Route>
AdcEcmpRoutingBase<Family, Self>::MakeRoute(const AdcEcmpTable::Prefix& prefix,
                                            const AdcFlowKey& flow)
{
    const AdcEcmpTable::Hop& hop =
        AdcEcmpTable::Select(prefix, AdcHash::Flow(flow, GetEffectiveSeed()));
    const Address dst = Family::Get(flow.dst);
    Ptr<Route> r = Create<Route>();
    r->SetDestination(dst);
    r->SetGateway(Family::Get(hop.gateway));
    r->SetOutputDevice(m_ip->GetNetDevice(hop.interface));
    r->SetSource(Family::InterfaceSource(m_ip, hop.interface, dst));
    ++m_routed;
    if (!m_nextHopTrace.IsEmpty())
    {
        m_nextHopTrace(flow,
                       prefix.Text(),
                       Family::Get(hop.gateway),
                       static_cast<uint32_t>(prefix.group.GetHops().size()));
    }
    return r;
}

template <class Family, class Self>
Ptr<typename AdcEcmpRoutingBase<Family, Self>::Route>
AdcEcmpRoutingBase<Family, Self>::RouteOutput(Ptr<Packet> p,
                                              const Header& header,
                                              Ptr<NetDevice> oif,
                                              Socket::SocketErrno& sockerr)
{
    const AdcEcmpTable::Prefix* prefix = nullptr;
    if (m_ip && !Family::IgnoreOutput(header.GetDestination()))
    {
        prefix = m_table.Match(header.GetDestination());
    }
    Ptr<Route> r = prefix ? MakeRoute(*prefix, FlowOf(p, header, false)) : nullptr;
    if (r && oif && r->GetOutputDevice() != oif)
    {
        r = nullptr; // the socket is bound to another device: leave it to other protocols
    }
    sockerr = r ? Socket::ERROR_NOTERROR : Socket::ERROR_NOROUTETOHOST;
    return r;
}

template <class Family, class Self>
bool
AdcEcmpRoutingBase<Family, Self>::RouteInput(Ptr<const Packet> p,
                                             const Header& header,
                                             Ptr<const NetDevice> idev,
                                             UnicastForwardCallback ucb,
                                             MulticastForwardCallback,
                                             LocalDeliverCallback,
                                             ErrorCallback)
{
    // Multicast, IPv4 broadcast and the node's own, IPv6 link-local (neighbour discovery):
    // the list and the protocols below handle them.
    if (!m_ip || ucb.IsNull() || Family::Ignore(m_ip, header, idev, m_listDelivers))
    {
        return false;
    }
    const AdcEcmpTable::Prefix* prefix = m_table.Match(header.GetDestination());
    const int32_t iif = m_ip->GetInterfaceForDevice(idev);
    if (!prefix || iif < 0 || !m_ip->IsForwarding(static_cast<uint32_t>(iif)))
    {
        return false;
    }
    Family::Forward(ucb, idev, MakeRoute(*prefix, FlowOf(p, header, true)), p, header);
    return true;
}

template <class Family, class Self>
bool
AdcEcmpRoutingBase<Family, Self>::IsInterfaceUp(uint32_t interface) const
{
    return !m_ip || interface >= m_ip->GetNInterfaces() || m_ip->IsUp(interface);
}

template <class Family, class Self>
void
AdcEcmpRoutingBase<Family, Self>::NotifyInterfaceUp(uint32_t interface)
{
    m_table.SetInterfaceState(interface, true);
}

template <class Family, class Self>
void
AdcEcmpRoutingBase<Family, Self>::NotifyInterfaceDown(uint32_t interface)
{
    m_table.SetInterfaceState(interface, false);
}

template <class Family, class Self>
void
AdcEcmpRoutingBase<Family, Self>::NotifyAddAddress(uint32_t, typename Family::InterfaceAddress)
{
}

template <class Family, class Self>
void
AdcEcmpRoutingBase<Family, Self>::NotifyRemoveAddress(uint32_t, typename Family::InterfaceAddress)
{
}

template <class Family, class Self>
void
AdcEcmpRoutingBase<Family, Self>::PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                                                    Time::Unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "AdcEcmpRouting (seed " << GetEffectiveSeed() << ")\n";
    for (const AdcEcmpTable::Prefix& p : m_table.GetPrefixes())
    {
        os << p.Text() << " " << AdcEcmpGroup::ModeName(p.group.GetMode()) << ":";
        for (uint32_t id : p.group.GetHops())
        {
            const AdcEcmpTable::Hop& h = p.hops[id];
            os << " " << h.gateway << " if " << h.interface;
            for (AdcRouteOrigin o : {AdcRouteOrigin::STATIC, AdcRouteOrigin::BGP})
            {
                os << (h.Has(o) ? " " + AdcRouteOriginName(o) : "");
            }
        }
        os << "\n";
    }
}

template class AdcEcmpRoutingBase<AdcIpv4HookFamily, AdcEcmpRouting>;
template class AdcEcmpRoutingBase<AdcIpv6HookFamily, AdcEcmpRouting6>;

} // namespace ns3
