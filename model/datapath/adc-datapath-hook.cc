/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-datapath-hook.h"

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcDatapathHook");

NS_OBJECT_ENSURE_REGISTERED(AdcIpv4DatapathHook);
NS_OBJECT_ENSURE_REGISTERED(AdcIpv6DatapathHook);

namespace
{

/**
 * \param ip the node's Ipv4 or Ipv6
 * \param lookup the header to route (its destination; the source cleared)
 * \param oif the bound device, or null
 * \param p the packet, or null
 * \param skip a protocol not to ask (the hook asking), or null
 * \return a route from the protocols of the node's list routing, or null
 */
template <class Family>
Ptr<typename Family::Route>
FindRoute(const Ptr<typename Family::Ip>& ip,
          const typename Family::Header& lookup,
          Ptr<NetDevice> oif,
          Ptr<Packet> p,
          const typename Family::Protocol* skip)
{
    Ptr<typename Family::ListRouting> list =
        DynamicCast<typename Family::ListRouting>(ip->GetRoutingProtocol());
    if (!list)
    {
        return nullptr;
    }
    for (uint32_t i = 0; i < list->GetNRoutingProtocols(); ++i)
    {
        int16_t priority = 0;
        Ptr<typename Family::Protocol> other = list->GetRoutingProtocol(i, priority);
        if (PeekPointer(other) == skip)
        {
            continue;
        }
        Socket::SocketErrno err = Socket::ERROR_NOTERROR;
        if (Ptr<typename Family::Route> route = other->RouteOutput(p, lookup, oif, err))
        {
            return route;
        }
    }
    return nullptr;
}

/**
 * \param ip the node's Ipv4 or Ipv6
 * \param dst a destination
 * \param skip a protocol not to ask (the hook asking), or null
 * \return a route to \p dst from the protocols of the node's list routing, or null
 */
template <class Family>
Ptr<typename Family::Route>
FindRouteTo(const Ptr<typename Family::Ip>& ip,
            typename Family::Address dst,
            const typename Family::Protocol* skip)
{
    typename Family::Header lookup;
    lookup.SetDestination(dst);
    return FindRoute<Family>(ip, lookup, nullptr, nullptr, skip);
}

/**
 * \brief Send \p datagram from the node inside an outer IP header of \p Family.
 * \param ip the node's Ipv4 or Ipv6 (null: the node lacks the outer family)
 * \param datagram the inner datagram
 * \param e the outer header
 * \return "" or why not
 */
template <class Family>
std::string
SendOuter(const Ptr<typename Family::Ip>& ip, Ptr<Packet> datagram, const AdcEncapsulation& e)
{
    if (!ip)
    {
        return "no-outer-family";
    }
    const typename Family::Address dst = Family::Get(e.destination);
    Ptr<typename Family::Route> route = FindRouteTo<Family>(ip, dst, nullptr);
    if (!route)
    {
        return "no-route";
    }
    if (e.addHeaders)
    {
        e.addHeaders(datagram, AdcIpAddress(route->GetSource()), e.destination);
    }
    // The appliance originates the outer packet: its IP layer builds the header (default TTL,
    // checksum, identification) and sends it along the route.
    ip->Send(datagram, route->GetSource(), dst, e.protocol, route);
    return "";
}

/**
 * \brief Hand an IP datagram to the node's layer of its family, as received on \p device.
 * \tparam L3 Ipv4L3Protocol or Ipv6L3Protocol
 * \param node the node
 * \param device the input device
 * \param datagram the datagram, IP header first
 * \param ethertype 0x0800 or 0x86DD
 * \return "" or "decapsulate-inner-version" (the node lacks the family on \p device)
 */
template <class L3>
std::string
Reenter(Ptr<Node> node, Ptr<NetDevice> device, Ptr<Packet> datagram, uint16_t ethertype)
{
    Ptr<L3> l3 = node->GetObject<L3>();
    if (!l3 || l3->GetInterfaceForDevice(device) < 0)
    {
        return "decapsulate-inner-version";
    }
    l3->Receive(device,
                datagram,
                ethertype,
                device->GetAddress(),
                device->GetAddress(),
                NetDevice::PACKET_HOST);
    return "";
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The hook

/// Carries out the verdicts of one received packet (lives on RouteInput's stack).
template <class Family, class Self>
class AdcDatapathHook<Family, Self>::Egress : public AdcEgress
{
  public:
    /// \param hook the hook \param in the packet \param idev input device \param header its
    /// IP header \param ucb forwarding \param lcb local delivery
    Egress(const AdcDatapathHook& hook,
           const AdcIngress& in,
           Ptr<const NetDevice> idev,
           const Header& header,
           const UnicastForwardCallback& ucb,
           const LocalDeliverCallback& lcb)
        : m_hook(hook),
          m_in(in),
          m_idev(idev),
          m_header(header),
          m_ucb(ucb),
          m_lcb(lcb)
    {
    }

    std::string Send(const AdcVerdict& v) override
    {
        switch (v.action)
        {
        case AdcVerdict::PASS:
            return "";
        case AdcVerdict::FORWARD:
        case AdcVerdict::REWRITE:
            if (m_ucb.IsNull())
            {
                return "no-forwarding";
            }
            return m_hook.SendOn(m_in, m_idev, m_header, m_ucb, v);
        case AdcVerdict::DECAPSULATE:
            return m_hook.Decapsulate(m_in, m_idev, v.decapBytes);
        case AdcVerdict::ENCAPSULATE:
            return m_hook.SendEncapsulated(m_in, m_header, v.encapsulation);
        case AdcVerdict::DELIVER_LOCAL:
            if (m_lcb.IsNull())
            {
                return "no-local-delivery";
            }
            m_lcb(m_in.packet, m_header, m_in.inInterface);
            return "";
        case AdcVerdict::DROP:
            m_hook.m_datapath->DropPacket(m_in.packet, v.reason);
            return "";
        }
        return "unknown-action";
    }

  private:
    const AdcDatapathHook& m_hook;       //!< the hook
    const AdcIngress& m_in;              //!< the packet
    Ptr<const NetDevice> m_idev;         //!< input device
    const Header& m_header;              //!< its IP header
    const UnicastForwardCallback& m_ucb; //!< forwarding
    const LocalDeliverCallback& m_lcb;   //!< local delivery
};

template <class Family, class Self>
TypeId
AdcDatapathHook<Family, Self>::GetTypeId()
{
    static TypeId tid = TypeId(std::string("ns3::") + Family::NAME)
                            .SetParent<Protocol>()
                            .SetGroupName("Adc")
                            .template AddConstructor<Self>();
    return tid;
}

template <class Family, class Self>
void
AdcDatapathHook<Family, Self>::Attach(AdcDatapath* datapath)
{
    m_datapath = datapath;
}

template <class Family, class Self>
Ptr<typename AdcDatapathHook<Family, Self>::Route>
AdcDatapathHook<Family, Self>::RouteOutput(Ptr<Packet> p,
                                           const Header& header,
                                           Ptr<NetDevice> oif,
                                           Socket::SocketErrno& sockerr)
{
    NS_LOG_FUNCTION(this << p << header.GetDestination() << header.GetSource() << oif);
    sockerr = Socket::ERROR_NOROUTETOHOST;
    if (!m_datapath || !m_ip || Family::IgnoreOutput(header.GetDestination()))
    {
        return nullptr;
    }
    const typename Family::Address src = header.GetSource();
    const bool srcSet = Family::IsSet(src);
    const uint8_t protocol = Family::NextProtocol(header);
    // Only TCP hands its packet down with the transport header in front.
    const AdcTransportInfo ports = protocol == AdcFlowKey::PROTO_TCP
                                       ? AdcPeekPorts(p, AdcFlowKey::PROTO_TCP)
                                       : AdcTransportInfo{};
    AdcLocalOutput out;
    out.flow = AdcFlowKey(srcSet ? AdcIpAddress(src) : AdcIpAddress(),
                          header.GetDestination(),
                          ports.srcPort,
                          ports.dstPort,
                          protocol);
    out.ownSource = srcSet && m_ip->GetInterfaceForAddress(src) >= 0;
    out.packet = p;
    out.boundDevice = oif;
    AdcOutputRoute given;
    if (!m_datapath->ProcessOutput(out, given))
    {
        return nullptr; // the list asks its next protocol
    }
    Ptr<Route> route = MakeOutputRoute(p, header, oif, given);
    if (route)
    {
        NS_LOG_LOGIC("route " << route->GetSource() << " -> " << header.GetDestination() << " via "
                              << route->GetGateway());
        sockerr = Socket::ERROR_NOTERROR;
    }
    return route;
}

template <class Family, class Self>
Ptr<typename AdcDatapathHook<Family, Self>::Route>
AdcDatapathHook<Family, Self>::MakeOutputRoute(Ptr<Packet> p,
                                               const Header& header,
                                               Ptr<NetDevice> oif,
                                               const AdcOutputRoute& r) const
{
    const auto ofFamily = [](const AdcIpAddress& a) {
        return a.IsNone() || a.GetFamily() == Family::FAMILY;
    };
    if (!ofFamily(r.source) || !ofFamily(r.nextHop))
    {
        return nullptr;
    }
    const typename Family::Address dst = header.GetDestination();
    Ptr<Route> route = Create<Route>();
    if (r.outInterface != 0)
    {
        if (r.outInterface >= m_ip->GetNInterfaces())
        {
            return nullptr;
        }
        route->SetDestination(dst);
        // An unset gateway means on-link: the IP layer sends to the destination itself.
        route->SetGateway(r.nextHop.IsNone() ? Family::Address::GetAny() : Family::Get(r.nextHop));
        route->SetSource(r.source.IsNone() ? Family::InterfaceSource(m_ip, r.outInterface, dst)
                                           : Family::Get(r.source));
        route->SetOutputDevice(m_ip->GetNetDevice(r.outInterface));
        return route;
    }
    // The others choose the way; they must not see a foreign source.
    Header lookup = header;
    lookup.SetSource(Family::Address::GetAny());
    if (!r.nextHop.IsNone())
    {
        lookup.SetDestination(Family::Get(r.nextHop));
    }
    Ptr<Route> found = FindRoute<Family>(m_ip, lookup, oif, p, this);
    if (!found)
    {
        return nullptr;
    }
    route->SetDestination(r.nextHop.IsNone() ? found->GetDestination() : dst);
    route->SetGateway(r.nextHop.IsNone() ? found->GetGateway() : Family::Get(r.nextHop));
    route->SetOutputDevice(found->GetOutputDevice());
    route->SetSource(r.source.IsNone() ? found->GetSource() : Family::Get(r.source));
    return route;
}

template <class Family, class Self>
bool
AdcDatapathHook<Family, Self>::RouteInput(Ptr<const Packet> p,
                                          const Header& header,
                                          Ptr<const NetDevice> idev,
                                          UnicastForwardCallback ucb,
                                          MulticastForwardCallback mcb,
                                          LocalDeliverCallback lcb,
                                          ErrorCallback ecb)
{
    NS_LOG_FUNCTION(this << p << header << idev);
    if (!m_datapath || !m_ip || ucb.IsNull() || Family::Ignore(m_ip, header, idev, m_listDelivers))
    {
        return false;
    }
    return Run(p, header, idev, ucb, lcb);
}

template <class Family, class Self>
bool
AdcDatapathHook<Family, Self>::ProcessLocal(Ptr<const Packet> p,
                                            const AdcIpAddress& src,
                                            const AdcIpAddress& dst,
                                            uint8_t protocol,
                                            uint32_t interface)
{
    NS_LOG_FUNCTION(this << p << src << dst << +protocol << interface);
    if (!m_datapath || !m_ip || interface >= m_ip->GetNInterfaces() ||
        src.GetFamily() != Family::FAMILY || dst.GetFamily() != Family::FAMILY)
    {
        return false;
    }
    const Header header = Family::MakeHeader(src, dst, protocol, p->GetSize());
    return Run(p, header, m_ip->GetNetDevice(interface), UnicastForwardCallback(), {});
}

template <class Family, class Self>
bool
AdcDatapathHook<Family, Self>::Run(Ptr<const Packet> p,
                                   const Header& header,
                                   Ptr<const NetDevice> idev,
                                   const UnicastForwardCallback& ucb,
                                   const LocalDeliverCallback& lcb)
{
    const int32_t iif = m_ip->GetInterfaceForDevice(idev);
    if (iif < 0)
    {
        return false; // not an interface of this family
    }
    AdcIngress in = AdcIngress::Describe(header.GetSource(),
                                         header.GetDestination(),
                                         Family::NextProtocol(header),
                                         p,
                                         Family::IsFragment(header),
                                         header.GetSerializedSize());
    in.inInterface = static_cast<uint32_t>(iif);
    in.laterFragment = Family::IsLaterFragment(header);
    in.fragment = Family::IsFragment(header);
    Egress egress(*this, in, idev, header, ucb, lcb);
    return m_datapath->Process(in, egress);
}

template <class Family, class Self>
void
AdcDatapathHook<Family, Self>::NotifyInterfaceUp(uint32_t interface)
{
    if (m_datapath)
    {
        m_datapath->NotifyInterfaceChange(Family::FAMILY, interface, true);
    }
}

template <class Family, class Self>
void
AdcDatapathHook<Family, Self>::NotifyInterfaceDown(uint32_t interface)
{
    if (m_datapath)
    {
        m_datapath->NotifyInterfaceChange(Family::FAMILY, interface, false);
    }
}

template <class Family, class Self>
void
AdcDatapathHook<Family, Self>::NotifyAddAddress(uint32_t interface,
                                                typename Family::InterfaceAddress address)
{
}

template <class Family, class Self>
void
AdcDatapathHook<Family, Self>::NotifyRemoveAddress(uint32_t interface,
                                                   typename Family::InterfaceAddress address)
{
}

template <class Family, class Self>
void
AdcDatapathHook<Family, Self>::PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                                                 Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    os << Family::NAME << ", Time: " << Now().As(unit) << "\n";
    if (m_datapath)
    {
        os << m_datapath->GetInstanceTypeId().GetName() << "\n";
        m_datapath->Print(os);
    }
}

template <class Family, class Self>
void
AdcDatapathHook<Family, Self>::SetIp(Ptr<typename Family::Ip> ip)
{
    m_ip = ip;
    // The IP layer sets its routing protocol before handing it the IP object, and a list hands
    // it on to its protocols (when they are added or when it is set).
    m_listDelivers = Family::HasListRouting(ip);
}

template <class Family, class Self>
void
AdcDatapathHook<Family, Self>::DoDispose()
{
    m_datapath = nullptr;
    m_ip = nullptr;
    Protocol::DoDispose();
}

template <class Family, class Self>
Ptr<typename AdcDatapathHook<Family, Self>::Route>
AdcDatapathHook<Family, Self>::LookupRoute(typename Family::Address dst) const
{
    return FindRouteTo<Family>(m_ip, dst, this);
}

template <class Family, class Self>
std::string
AdcDatapathHook<Family, Self>::SendOn(const AdcIngress& in,
                                      Ptr<const NetDevice> idev,
                                      const Header& header,
                                      const UnicastForwardCallback& ucb,
                                      const AdcVerdict& v) const
{
    const bool rewrite = v.action == AdcVerdict::REWRITE;
    const AdcFlowKey& after = rewrite ? v.after : in.flow;
    const bool viaNextHop = !v.nextHop.IsNone();
    const bool viaInterface = !rewrite && v.outInterface != 0;
    const auto family = in.flow.dst.GetFamily();
    if ((!rewrite && !viaNextHop && !viaInterface) ||
        (viaNextHop && v.nextHop.GetFamily() != family))
    {
        return "bad-next-hop"; // FORWARD needs a next hop of the packet's family or an interface
    }
    if (rewrite && (in.status != AdcTransportStatus::OK || after.protocol != in.flow.protocol ||
                    after.src.GetFamily() != family || after.dst.GetFamily() != family))
    {
        return "bad-rewrite"; // ports of a whole TCP/UDP header, within the family
    }
    Ptr<const Packet> out = in.packet;
    std::string reason;
    if (rewrite && !(out = AdcRewriteTransport(in.packet, in.flow, after, reason, v.clampMss)))
    {
        return reason;
    }
    Ptr<Route> route = Create<Route>();
    route->SetDestination(Family::Get(after.dst));
    if (viaInterface)
    {
        // As the datapath's rule names it (policy routing): no lookup; the route's source is
        // not used for forwarding.
        if (v.outInterface >= m_ip->GetNInterfaces())
        {
            return "bad-out-interface";
        }
        route->SetOutputDevice(m_ip->GetNetDevice(v.outInterface));
        route->SetGateway(viaNextHop ? Family::Get(v.nextHop)
                                     : Family::Address::GetAny()); // any: on-link
    }
    else
    {
        Ptr<Route> found = LookupRoute(Family::Get(viaNextHop ? v.nextHop : after.dst));
        if (!found)
        {
            return "no-route";
        }
        route->SetSource(found->GetSource());
        route->SetOutputDevice(found->GetOutputDevice());
        route->SetGateway(found->GetGateway());
        if (viaNextHop)
        {
            if (!found->GetGateway().IsAny())
            {
                return "next-hop-not-on-link"; // only the MAC changes: the next hop is on-link
            }
            route->SetGateway(Family::Get(v.nextHop));
        }
    }
    // The IPv4 forwarding code lowers the TTL and, when checksums are enabled (the received
    // header has them on), recomputes the header checksum; a MAC-mode forward (keepTtl) raises
    // it first, so it leaves as it came.
    Header h = header;
    h.SetSource(Family::Get(after.src));
    h.SetDestination(Family::Get(after.dst));
    if (v.keepTtl && v.action == AdcVerdict::FORWARD)
    {
        Family::RaiseTtl(h);
    }
    Family::Forward(ucb, idev, route, out, h);
    return "";
}

template <class Family, class Self>
std::string
AdcDatapathHook<Family, Self>::SendEncapsulated(const AdcIngress& in,
                                                const Header& header,
                                                const AdcEncapsulation& e) const
{
    Ptr<Packet> datagram = in.packet->Copy();
    datagram->AddHeader(header);
    Ptr<Node> node = m_ip->template GetObject<Node>();
    if (e.destination.IsV4())
    {
        return SendOuter<AdcIpv4HookFamily>(node->GetObject<Ipv4>(), datagram, e);
    }
    if (e.destination.IsV6())
    {
        return SendOuter<AdcIpv6HookFamily>(node->GetObject<Ipv6>(), datagram, e);
    }
    return "no-outer-destination";
}

template <class Family, class Self>
std::string
AdcDatapathHook<Family, Self>::Decapsulate(const AdcIngress& in,
                                           Ptr<const NetDevice> idev,
                                           uint32_t bytes) const
{
    const uint32_t size = in.packet ? in.packet->GetSize() : 0;
    if (size <= bytes)
    {
        return "decapsulate-truncated";
    }
    Ptr<Packet> inner = in.packet->CreateFragment(bytes, size - bytes);
    uint8_t first = 0;
    inner->CopyData(&first, 1);
    const uint8_t version = first >> 4;
    // The IP layers read the whole header without checking its length: never hand them less.
    const uint32_t headerBytes = version == 4 ? (first & 0x0f) * 4U : 40;
    if ((version == 4 || version == 6) && (inner->GetSize() < headerBytes || headerBytes < 20))
    {
        return "decapsulate-truncated";
    }
    Ptr<Node> node = m_ip->template GetObject<Node>();
    // The non-const device the node's IP layers know (the one the packet came in on).
    Ptr<NetDevice> device = m_ip->GetNetDevice(in.inInterface);
    NS_ASSERT(PeekPointer(device) == PeekPointer(idev));
    switch (version)
    {
    case 4:
        return Reenter<Ipv4L3Protocol>(node, device, inner, Ipv4L3Protocol::PROT_NUMBER);
    case 6:
        return Reenter<Ipv6L3Protocol>(node, device, inner, Ipv6L3Protocol::PROT_NUMBER);
    default:
        return "decapsulate-inner-version";
    }
}

template class AdcDatapathHook<AdcIpv4HookFamily, AdcIpv4DatapathHook>;
template class AdcDatapathHook<AdcIpv6HookFamily, AdcIpv6DatapathHook>;

// ---------------------------------------------------------------------------------------------
// The concrete hooks

void
AdcIpv4DatapathHook::SetIpv4(Ptr<Ipv4> ipv4)
{
    SetIp(ipv4);
}

void
AdcIpv6DatapathHook::NotifyAddRoute(Ipv6Address dst,
                                    Ipv6Prefix mask,
                                    Ipv6Address nextHop,
                                    uint32_t interface,
                                    Ipv6Address prefixToUse)
{
}

void
AdcIpv6DatapathHook::NotifyRemoveRoute(Ipv6Address dst,
                                       Ipv6Prefix mask,
                                       Ipv6Address nextHop,
                                       uint32_t interface,
                                       Ipv6Address prefixToUse)
{
}

void
AdcIpv6DatapathHook::SetIpv6(Ptr<Ipv6> ipv6)
{
    SetIp(ipv6);
}

} // namespace ns3
