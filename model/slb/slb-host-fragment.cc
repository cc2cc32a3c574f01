/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * SlbHostSwitch and IP fragments: the switch reassembles every fragment it would forward, NATs
 * the whole datagram with the rules NatIn / NatOut use, and sends it again in fragments no
 * larger than the largest it received, as Linux's conntrack does (nf_defrag_ipv4 /
 * nf_defrag_ipv6 before NAT; ip_do_fragment / ip6_fragment at IPCB(skb)->frag_max_size after).
 * So no fragment leaves with a DIP source, whichever fragment carries the ports.
 */

#include "slb-host-switch.h"

#include "ns3/adc-packet-rewrite.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-route.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlbHostFragment");

namespace
{

/// IPv6's fragment extension header (RFC 8200 section 4.5): next header 44, 8 bytes.
constexpr uint8_t kIpv6FragmentHeader = 44;
constexpr uint32_t kIpv6FragmentHeaderBytes = 8;
constexpr uint32_t kIpv4Header = 20;
constexpr uint32_t kIpv6Header = 40;
/// TCP's timestamp option as ns-3 and Linux send it on every segment (RFC 7323: 10 bytes,
/// padded to 12).
constexpr uint32_t kTimestampOptionBytes = 12;

/// \param b bytes \param o offset \return the 32-bit big-endian value at o
uint32_t
Be32(const uint8_t* b, uint32_t o)
{
    return (uint32_t{b[o]} << 24) | (uint32_t{b[o + 1]} << 16) | (uint32_t{b[o + 2]} << 8) |
           b[o + 3];
}

/// \return true when ns-3's TCP sockets send the timestamp option (TcpSocketBase::Timestamp)
bool
TimestampsOn()
{
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByName("ns3::TcpSocketBase").LookupAttributeByName("Timestamp", &info))
    {
        return false;
    }
    return info.initialValue->SerializeToString(info.checker) == "true";
}

} // namespace

uint32_t
SlbHostSwitch::GetSegmentSizeCap(bool innerV6) const
{
    return GetClampedMss(innerV6) - (TimestampsOn() ? kTimestampOptionBytes : 0);
}

void
SlbHostSwitch::RxIpv4(Ptr<const Packet> p, Ptr<Ipv4> /* ip */, uint32_t /* interface */)
{
    uint8_t b[8] = {};
    if (p->CopyData(b, sizeof(b)) < sizeof(b) || (b[0] >> 4) != 4)
    {
        return;
    }
    // More-fragments set or an offset: read the whole header (only fragments pay for it).
    if ((b[6] & 0x20) != 0 || ((b[6] & 0x1f) | b[7]) != 0)
    {
        m_rx4.packet = PeekPointer(p);
        p->PeekHeader(m_rx4.v4);
    }
}

void
SlbHostSwitch::RxIpv6(Ptr<const Packet> p, Ptr<Ipv6> /* ip */, uint32_t /* interface */)
{
    uint8_t b[8] = {};
    if (p->CopyData(b, sizeof(b)) < sizeof(b) || (b[0] >> 4) != 6 || b[6] != kIpv6FragmentHeader)
    {
        return;
    }
    m_rx6.packet = PeekPointer(p);
    p->PeekHeader(m_rx6.v6);
}

bool
SlbHostSwitch::IsFragment(const AdcIngress& in)
{
    return in.flow.dst.IsV6() ? in.flow.protocol == kIpv6FragmentHeader : in.fragment;
}

void
SlbHostSwitch::DropFragments(const std::vector<Ptr<const Packet>>& packets,
                             const std::string& reason)
{
    for (const Ptr<const Packet>& p : packets)
    {
        ++m_counters.drops[reason];
        DropPacket(p, reason);
    }
}

void
SlbHostSwitch::ExpireFragments()
{
    for (const SlbReassembly::Expired& e : m_reasm.Expire(Simulator::Now()))
    {
        NS_LOG_LOGIC("reassembly of " << e.key.src << " -> " << e.key.dst << " id " << e.key.id
                                      << " timed out");
        DropFragments(e.dropped, "frag-timeout");
    }
    const Time next = m_reasm.NextExpiry();
    if (next != Time::Max())
    {
        m_reasmEvent =
            Simulator::Schedule(next - Simulator::Now(), &SlbHostSwitch::ExpireFragments, this);
    }
}

bool
SlbHostSwitch::Defragment(const AdcIngress& in, AdcEgress& egress)
{
    const bool v6 = in.flow.dst.IsV6();
    RxHeader& rx = v6 ? m_rx6 : m_rx4;
    if (rx.packet != PeekPointer(in.packet))
    {
        // Not received through the IP layer (a test's raw hook call): no fragment fields.
        return Drop(in, egress, "frag-no-header");
    }
    rx.packet = nullptr;
    SlbFragmentKey key;
    key.src = in.flow.src;
    key.dst = in.flow.dst;
    uint32_t offset = 0;
    bool more = false;
    Ptr<const Packet> data = in.packet;
    if (v6)
    {
        uint8_t f[kIpv6FragmentHeaderBytes] = {};
        if (in.packet->CopyData(f, sizeof(f)) < sizeof(f))
        {
            return Drop(in, egress, "frag-truncated");
        }
        key.protocol = f[0];
        offset = ((uint32_t{f[2]} << 8) | f[3]) & 0xfff8;
        more = (f[3] & 0x01) != 0;
        key.id = Be32(f, 4);
        data = in.packet->CreateFragment(kIpv6FragmentHeaderBytes,
                                         in.packet->GetSize() - kIpv6FragmentHeaderBytes);
    }
    else
    {
        key.protocol = rx.v4.GetProtocol();
        key.id = rx.v4.GetIdentification();
        offset = rx.v4.GetFragmentOffset();
        more = !rx.v4.IsLastFragment();
    }
    m_reasm.SetLimits(m_reasmTimeout, m_reasmMemory);
    const bool wasIdle = m_reasm.GetQueues() == 0;
    SlbReassembly::Result r =
        m_reasm.Add(key, offset, more, data, in.packet, in.bytes, Simulator::Now());
    ++m_counters.fragmentsIn;
    if (wasIdle && m_reasm.GetQueues() > 0 && !m_reasmEvent.IsRunning())
    {
        m_reasmEvent = Simulator::Schedule(m_reasmTimeout, &SlbHostSwitch::ExpireFragments, this);
    }
    switch (r.kind)
    {
    case SlbReassembly::Result::QUEUED:
        return true; // held: counted as dropped only if the rest never comes
    case SlbReassembly::Result::DROPPED:
        DropFragments(r.dropped, r.reason);
        return true;
    case SlbReassembly::Result::COMPLETE:
        ++m_counters.reassembled;
        SendReassembled(key, r.payload, r.maxFragmentBytes, r.fragments, rx, in.inInterface);
        return true;
    }
    return true;
}

bool
SlbHostSwitch::FindTranslation(const AdcFlowKey& f,
                               uint32_t inInterface,
                               AdcFlowKey& after,
                               std::string& direction) const
{
    after = f;
    if (IsVmInterface(inInterface))
    {
        // As NatOut: only from the DIP's own port.
        SlbVipKey dipKey;
        dipKey.vip = f.src;
        dipKey.protocol = f.protocol;
        dipKey.port = f.srcPort;
        const auto it = m_reverse.find(dipKey);
        const VmPort* port = it == m_reverse.end() ? nullptr : FindPort(f.src);
        if (!port || port->interface != inInterface)
        {
            return false;
        }
        after.src = it->second.vip;
        after.srcPort = it->second.port;
        direction = "out";
        return true;
    }
    SlbVipKey vipKey;
    vipKey.vip = f.dst;
    vipKey.protocol = f.protocol;
    vipKey.port = f.dstPort;
    const auto it = m_rules.find(vipKey);
    if (it == m_rules.end())
    {
        return false;
    }
    const std::vector<SlbDip>& dips = it->second;
    const SlbDip& dip = dips[AdcHash::Flow(f, GetHashSeed()) % dips.size()];
    after.dst = dip.address;
    after.dstPort = dip.port;
    direction = "in";
    return true;
}

void
SlbHostSwitch::SendReassembled(const SlbFragmentKey& key,
                               Ptr<Packet> payload,
                               uint32_t maxFragment,
                               uint32_t fragments,
                               const RxHeader& rx,
                               uint32_t inInterface)
{
    const bool v6 = key.dst.IsV6();
    AdcFlowKey before(key.src, key.dst, 0, 0, key.protocol);
    const AdcTransportInfo t = AdcReadTransport(payload, key.protocol);
    if (t.status == AdcTransportStatus::OK)
    {
        before.srcPort = t.srcPort;
        before.dstPort = t.dstPort;
    }
    AdcFlowKey after = before;
    std::string direction;
    const bool translate = t.status == AdcTransportStatus::OK &&
                           FindTranslation(before, inInterface, after, direction);
    Ptr<Packet> out = payload;
    if (translate)
    {
        std::string reason;
        uint16_t clamp = 0;
        if (m_clampMss && key.protocol == AdcFlowKey::PROTO_TCP &&
            (t.tcpFlags & AdcTcpFlag::SYN) != 0)
        {
            clamp = GetClampedMss(v6);
        }
        out = AdcRewriteTransport(payload, before, after, reason, clamp);
        if (!out)
        {
            DropFragments({payload}, reason);
            return;
        }
    }
    Ptr<Node> node = GetNode();
    const uint8_t hopsIn = v6 ? rx.v6.GetHopLimit() : rx.v4.GetTtl();
    if (hopsIn <= 1)
    {
        DropFragments({out}, "frag-ttl-expired"); // a router's forwarding would drop it too
        return;
    }
    // The route: the node's routes to the (new) destination, as forwarding would find them.
    Ptr<NetDevice> device;
    uint32_t mtu = 0;
    Ptr<Ipv4Route> route4;
    Ptr<Ipv6Route> route6;
    Socket::SocketErrno err = Socket::ERROR_NOTERROR;
    if (v6)
    {
        Ptr<Ipv6> ip = node->GetObject<Ipv6>();
        Ipv6Header h;
        h.SetDestination(after.dst.GetIpv6());
        route6 = ip->GetRoutingProtocol()->RouteOutput(nullptr, h, nullptr, err);
        if (route6)
        {
            if (route6->GetGateway().IsAny())
            {
                route6->SetGateway(after.dst.GetIpv6()); // on-link
            }
            device = route6->GetOutputDevice();
        }
    }
    else
    {
        Ptr<Ipv4> ip = node->GetObject<Ipv4>();
        Ipv4Header h;
        h.SetDestination(after.dst.GetIpv4());
        route4 = ip->GetRoutingProtocol()->RouteOutput(nullptr, h, nullptr, err);
        device = route4 ? route4->GetOutputDevice() : nullptr;
    }
    if (!device)
    {
        DropFragments({out}, "no-route");
        return;
    }
    mtu = device->GetMtu();
    // Linux: ip_do_fragment / ip6_fragment cut at the largest fragment received when it is
    // below the MTU; a datagram whose fragments were larger than the MTU and may not be
    // fragmented (IPv4 DF, or any IPv6 datagram at a router) is dropped (ICMP not modelled).
    const bool df = !v6 && rx.v4.IsDontFragment();
    if (maxFragment > mtu && (df || v6))
    {
        DropFragments({out}, "frag-mtu-exceeded");
        return;
    }
    const uint32_t limit = std::min(maxFragment, mtu);
    const uint32_t headerBytes = v6 ? kIpv6Header + kIpv6FragmentHeaderBytes : kIpv4Header;
    const uint32_t step = (limit - headerBytes) & ~7U; // all but the last: a multiple of 8
    const uint32_t total = out->GetSize();
    uint32_t sent = 0;
    for (uint32_t offset = 0; offset < total; offset += step)
    {
        const uint32_t length = std::min(step, total - offset);
        const bool more = offset + length < total;
        Ptr<Packet> piece = out->CreateFragment(offset, length);
        if (v6)
        {
            uint8_t f[kIpv6FragmentHeaderBytes] = {key.protocol,
                                                   0,
                                                   static_cast<uint8_t>(offset >> 8),
                                                   static_cast<uint8_t>((offset & 0xf8) | more),
                                                   static_cast<uint8_t>(key.id >> 24),
                                                   static_cast<uint8_t>(key.id >> 16),
                                                   static_cast<uint8_t>(key.id >> 8),
                                                   static_cast<uint8_t>(key.id)};
            Ptr<Packet> frag = Create<Packet>(f, sizeof(f));
            frag->AddAtEnd(piece);
            SocketIpv6HopLimitTag hop;
            hop.SetHopLimit(hopsIn - 1);
            frag->AddPacketTag(hop);
            node->GetObject<Ipv6>()->Send(frag,
                                          after.src.GetIpv6(),
                                          after.dst.GetIpv6(),
                                          kIpv6FragmentHeader,
                                          route6);
        }
        else
        {
            Ipv4Header h = rx.v4;
            h.SetSource(after.src.GetIpv4());
            h.SetDestination(after.dst.GetIpv4());
            h.SetTtl(hopsIn - 1);
            h.SetPayloadSize(length);
            h.SetFragmentOffset(offset);
            if (more)
            {
                h.SetMoreFragments();
            }
            else
            {
                h.SetLastFragment();
            }
            if (Node::ChecksumEnabled())
            {
                h.EnableChecksum();
            }
            node->GetObject<Ipv4>()->SendWithHeader(piece, h, route4);
        }
        ++sent;
    }
    m_counters.fragmentsOut += sent;
    if (translate)
    {
        if (direction == "in")
        {
            ++m_counters.natIn;
        }
        else
        {
            ++m_counters.natOut;
            ++m_counters.dsrPackets;
        }
        m_natTrace(direction, before, after);
    }
    m_reasmTrace(before, after, fragments, sent);
}

} // namespace ns3
