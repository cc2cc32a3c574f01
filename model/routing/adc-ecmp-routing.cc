/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-ecmp-routing.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-packet-rewrite.h"
#include "ns3/enum.h"
#include "ns3/ipv4-route.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcEcmpRouting");
NS_OBJECT_ENSURE_REGISTERED(AdcEcmpRouting);

namespace
{

/// \return "a.b.c.d/len"
std::string
PrefixText(Ipv4Address network, uint16_t length)
{
    std::ostringstream os;
    os << network << "/" << length;
    return os.str();
}

} // namespace

TypeId
AdcEcmpRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcEcmpRouting")
            .SetParent<Ipv4RoutingProtocol>()
            .SetGroupName("Adc")
            .AddConstructor<AdcEcmpRouting>()
            .AddAttribute("HashSeed",
                          "Seed of the flow hash. 0 (the default): derived from the node's id, "
                          "so that routers of one topology choose independently (no hash "
                          "polarization across tiers); set the same value on two routers to "
                          "make them choose alike.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcEcmpRouting::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Mode",
                          "How flows map to a prefix's next hops: MODULO (hash mod the number "
                          "of next hops: a change moves most flows) or RESILIENT (a fixed "
                          "bucket table: a change moves only the flows of the next hop that "
                          "went or of the buckets the new one takes). Applies to prefixes "
                          "added after it is set.",
                          EnumValue(AdcEcmpGroup::MODULO),
                          MakeEnumAccessor(&AdcEcmpRouting::m_mode),
                          MakeEnumChecker(AdcEcmpGroup::MODULO,
                                          "MODULO",
                                          AdcEcmpGroup::RESILIENT,
                                          "RESILIENT"))
            .AddAttribute("ResilientBuckets",
                          "Buckets of each prefix's table in Mode RESILIENT (at least 1; "
                          "several per next hop keep the shares even).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&AdcEcmpRouting::m_buckets),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("NextHop",
                            "A packet was routed through a prefix's group: its flow, the "
                            "prefix, the gateway chosen and the group's size.",
                            MakeTraceSourceAccessor(&AdcEcmpRouting::m_nextHopTrace),
                            "ns3::AdcEcmpRouting::NextHopTracedCallback");
    return tid;
}

AdcEcmpRouting::AdcEcmpRouting()
    : m_seed(0),
      m_mode(AdcEcmpGroup::MODULO),
      m_buckets(256)
{
}

AdcEcmpRouting::~AdcEcmpRouting() = default;

void
AdcEcmpRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_prefixes.clear();
    Ipv4RoutingProtocol::DoDispose();
}

void
AdcEcmpRouting::AddRoute(Ipv4Address network,
                         Ipv4Mask mask,
                         Ipv4Address gateway,
                         uint32_t interface)
{
    const uint16_t length = mask.GetPrefixLength();
    Ipv4Mask check(length == 0 ? 0u : ~0u << (32 - length));
    if (!(check == mask))
    {
        std::ostringstream os;
        os << "AdcEcmpRouting: route " << network << " mask " << mask
           << ": the mask is not contiguous; allowed: a prefix mask such as 255.255.0.0";
        throw AdcConfigError(os.str());
    }
    const Ipv4Address net = network.CombineMask(mask);
    auto it = std::find_if(m_prefixes.begin(), m_prefixes.end(), [&](const Prefix& p) {
        return p.network == net && p.length == length;
    });
    if (it == m_prefixes.end())
    {
        Prefix p{net, mask, length, {}, AdcEcmpGroup(m_mode, m_buckets)};
        // Keep the prefixes by decreasing length: the first match is the longest.
        auto pos = std::find_if(m_prefixes.begin(), m_prefixes.end(), [&](const Prefix& q) {
            return q.length < length;
        });
        it = m_prefixes.insert(pos, std::move(p));
    }
    for (const Hop& h : it->hops)
    {
        if (h.gateway == gateway)
        {
            return; // already there
        }
    }
    const bool up = IsInterfaceUp(interface);
    it->hops.push_back(Hop{gateway, interface, up});
    if (up)
    {
        it->group.Add(static_cast<uint32_t>(it->hops.size() - 1));
    }
}

bool
AdcEcmpRouting::RemoveRoute(Ipv4Address network, Ipv4Mask mask, Ipv4Address gateway)
{
    const Ipv4Address net = network.CombineMask(mask);
    for (Prefix& p : m_prefixes)
    {
        if (p.network != net || p.length != mask.GetPrefixLength())
        {
            continue;
        }
        for (uint32_t i = 0; i < p.hops.size(); ++i)
        {
            if (p.hops[i].gateway == gateway && p.hops[i].interface != UINT32_MAX)
            {
                // The id stays taken (ids are indexes); the hop is marked gone.
                p.group.Remove(i);
                p.hops[i].up = false;
                p.hops[i].interface = UINT32_MAX;
                p.hops[i].gateway = Ipv4Address::GetAny();
                return true;
            }
        }
    }
    return false;
}

const AdcEcmpRouting::Prefix*
AdcEcmpRouting::Match(Ipv4Address dst) const
{
    for (const Prefix& p : m_prefixes)
    {
        if (p.mask.IsMatch(dst, p.network))
        {
            return &p;
        }
    }
    return nullptr;
}

uint64_t
AdcEcmpRouting::GetEffectiveSeed() const
{
    if (m_seed != 0)
    {
        return m_seed;
    }
    const uint32_t id = m_ipv4 ? m_ipv4->GetObject<Node>()->GetId() : 0;
    return AdcHash::Mix(0xec3b0a5eull ^ id);
}

bool
AdcEcmpRouting::Lookup(const AdcFlowKey& flow, Ipv4Address& gateway) const
{
    const Prefix* p = Match(flow.dst.GetIpv4());
    if (!p || p->group.IsEmpty())
    {
        return false;
    }
    gateway = p->hops[p->group.Select(AdcHash::Flow(flow, GetEffectiveSeed()))].gateway;
    return true;
}

uint64_t
AdcEcmpRouting::GetPacketsRouted() const
{
    return m_routed;
}

AdcFlowKey
AdcEcmpRouting::FlowOf(Ptr<const Packet> p, const Ipv4Header& header)
{
    AdcFlowKey k(header.GetSource(), header.GetDestination(), 0, 0, header.GetProtocol());
    // Every fragment of a datagram hashes alike: on addresses and protocol only.
    const bool fragment = header.GetFragmentOffset() != 0 || !header.IsLastFragment();
    if (p && !fragment && AdcHasPorts(header.GetProtocol()))
    {
        const AdcTransportInfo t = AdcPeekPorts(p, header.GetProtocol());
        if (t.status == AdcTransportStatus::OK)
        {
            k.srcPort = t.srcPort;
            k.dstPort = t.dstPort;
        }
    }
    return k;
}

Ptr<Ipv4Route>
AdcEcmpRouting::Route(const Prefix& prefix, const AdcFlowKey& flow)
{
    if (prefix.group.IsEmpty())
    {
        return nullptr;
    }
    const Hop& hop = prefix.hops[prefix.group.Select(AdcHash::Flow(flow, GetEffectiveSeed()))];
    Ptr<Ipv4Route> r = Create<Ipv4Route>();
    r->SetDestination(flow.dst.GetIpv4());
    r->SetGateway(hop.gateway);
    r->SetOutputDevice(m_ipv4->GetNetDevice(hop.interface));
    r->SetSource(m_ipv4->GetAddress(hop.interface, 0).GetLocal());
    ++m_routed;
    if (!m_nextHopTrace.IsEmpty())
    {
        m_nextHopTrace(flow,
                       PrefixText(prefix.network, prefix.length),
                       hop.gateway,
                       static_cast<uint32_t>(prefix.group.GetHops().size()));
    }
    return r;
}

Ptr<Ipv4Route>
AdcEcmpRouting::RouteOutput(Ptr<Packet> p,
                            const Ipv4Header& header,
                            Ptr<NetDevice> oif,
                            Socket::SocketErrno& sockerr)
{
    const Prefix* prefix = Match(header.GetDestination());
    Ptr<Ipv4Route> r = prefix ? Route(*prefix, FlowOf(p, header)) : nullptr;
    if (r && oif && r->GetOutputDevice() != oif)
    {
        r = nullptr; // the socket is bound to another device: leave it to other protocols
    }
    sockerr = r ? Socket::ERROR_NOTERROR : Socket::ERROR_NOROUTETOHOST;
    return r;
}

bool
AdcEcmpRouting::RouteInput(Ptr<const Packet> p,
                           const Ipv4Header& header,
                           Ptr<const NetDevice> idev,
                           UnicastForwardCallback ucb,
                           MulticastForwardCallback mcb,
                           LocalDeliverCallback lcb,
                           ErrorCallback ecb)
{
    const Ipv4Address dst = header.GetDestination();
    if (dst.IsMulticast() || dst.IsBroadcast())
    {
        return false;
    }
    const Prefix* prefix = Match(dst);
    if (!prefix)
    {
        return false;
    }
    if (m_ipv4->IsForwarding(m_ipv4->GetInterfaceForDevice(idev)) == false)
    {
        return false;
    }
    Ptr<Ipv4Route> r = Route(*prefix, FlowOf(p, header));
    if (!r)
    {
        return false; // no next hop up: other protocols may have a route
    }
    ucb(r, p, header);
    return true;
}

bool
AdcEcmpRouting::IsInterfaceUp(uint32_t interface) const
{
    return !m_ipv4 || interface >= m_ipv4->GetNInterfaces() || m_ipv4->IsUp(interface);
}

void
AdcEcmpRouting::SetInterfaceState(uint32_t interface, bool up)
{
    for (Prefix& p : m_prefixes)
    {
        for (uint32_t i = 0; i < p.hops.size(); ++i)
        {
            Hop& h = p.hops[i];
            if (h.interface != interface || h.up == up)
            {
                continue;
            }
            h.up = up;
            if (up)
            {
                p.group.Add(i);
            }
            else
            {
                p.group.Remove(i);
            }
        }
    }
}

void
AdcEcmpRouting::NotifyInterfaceUp(uint32_t interface)
{
    SetInterfaceState(interface, true);
}

void
AdcEcmpRouting::NotifyInterfaceDown(uint32_t interface)
{
    SetInterfaceState(interface, false);
}

void
AdcEcmpRouting::NotifyAddAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
AdcEcmpRouting::NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
AdcEcmpRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
AdcEcmpRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "AdcEcmpRouting (seed " << GetEffectiveSeed() << ")\n";
    for (const Prefix& p : m_prefixes)
    {
        os << PrefixText(p.network, p.length) << " " << AdcEcmpGroup::ModeName(p.group.GetMode())
           << ":";
        for (uint32_t id : p.group.GetHops())
        {
            os << " " << p.hops[id].gateway << " if " << p.hops[id].interface;
        }
        os << "\n";
    }
}

} // namespace ns3
