/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the ILB's ICMP and IP-fragment handling, as illumos does it
 * (illumos-gate usr/src/uts/common/inet/ilb/ilb.c: ilb_icmp_v4, ilb_icmp_v6;
 * ilb_conn.c: ilb_check_icmp_conn; ilb_nat.c: ilb_nat_icmpv4, ilb_nat_icmpv6;
 * usr/src/uts/common/inet/ip/ip_input.c: "We just drop all fragments going to any VIP").
 */

#include "ilb-appliance.h"

#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-route.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IlbApplianceIcmp");

namespace
{

// ICMP types and codes the ILB looks at (RFC 792, RFC 4443).
constexpr uint8_t ICMP4_ECHO_REPLY = 0;
constexpr uint8_t ICMP4_DEST_UNREACH = 3;
constexpr uint8_t ICMP4_FRAG_NEEDED = 4; // code of ICMP4_DEST_UNREACH
constexpr uint8_t ICMP4_ECHO_REQUEST = 8;
constexpr uint8_t ICMP6_PACKET_TOO_BIG = 2;
constexpr uint8_t ICMP6_ECHO_REQUEST = 128;
constexpr uint8_t ICMP6_ECHO_REPLY = 129;
/// An ICMP header as illumos checks its length (icmph_t, icmp6_t): type, code, checksum and
/// the four bytes that follow (id/seq, unused/MTU).
constexpr std::size_t ICMP_HEADER = 8;
/// Transport bytes of the quoted packet ilb_check_icmp_conn needs (ICMP_MIN_TP_HDR_LEN).
constexpr std::size_t QUOTED_TRANSPORT = 8;
constexpr std::size_t IPV6_HEADER = 40;

/// \param p a packet \return its bytes
std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p ? p->GetSize() : 0);
    if (!b.empty())
    {
        p->CopyData(b.data(), static_cast<uint32_t>(b.size()));
    }
    return b;
}

/// \param b bytes \param at offset \return the big-endian 16-bit word there
uint16_t
Get16(const std::vector<uint8_t>& b, std::size_t at)
{
    return static_cast<uint16_t>((b[at] << 8) | b[at + 1]);
}

/// \param b bytes \param at offset \param v the big-endian 16-bit word to write there
void
Put16(std::vector<uint8_t>& b, std::size_t at, uint16_t v)
{
    b[at] = static_cast<uint8_t>(v >> 8);
    b[at + 1] = static_cast<uint8_t>(v & 0xff);
}

/// \param data bytes \param n how many \param sum running sum \return the one's complement sum
/// (RFC 1071) of \p n bytes as 16-bit big-endian words, added to \p sum
uint32_t
Sum(const uint8_t* data, std::size_t n, uint32_t sum)
{
    for (std::size_t i = 0; i + 1 < n; i += 2)
    {
        sum += static_cast<uint32_t>((data[i] << 8) | data[i + 1]);
    }
    if (n % 2 != 0)
    {
        sum += static_cast<uint32_t>(data[n - 1] << 8);
    }
    return sum;
}

/// \param sum a running sum \return it folded to 16 bits (end-around carry)
uint16_t
Fold(uint32_t sum)
{
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(sum);
}

/// \param a an address \param sum running sum \return \p a's bytes added
uint32_t
SumAddress(const AdcIpAddress& a, uint32_t sum)
{
    return Sum(a.GetBytes().data(), a.GetLength(), sum);
}

/**
 * \brief Set the ICMP checksum of a whole ICMP message (bytes 2-3): ICMPv4 over the message
 * (RFC 792), ICMPv6 with the pseudo-header of its outer addresses (RFC 4443 section 2.3).
 * \param icmp the message
 * \param src the outer source (IPv6 only)
 * \param dst the outer destination (IPv6 only)
 */
void
SetIcmpChecksum(std::vector<uint8_t>& icmp, const AdcIpAddress& src, const AdcIpAddress& dst)
{
    Put16(icmp, 2, 0);
    uint32_t sum = 0;
    if (dst.IsV6())
    {
        sum = SumAddress(dst, SumAddress(src, 0));
        sum += static_cast<uint32_t>(icmp.size() >> 16) + static_cast<uint32_t>(icmp.size());
        sum += AdcFlowKey::PROTO_ICMPV6;
    }
    sum = Sum(icmp.data(), icmp.size(), sum);
    Put16(icmp, 2, static_cast<uint16_t>(~Fold(sum)));
}

/// Where the packet an ICMP error quotes sits in the message, and its 5-tuple.
struct Quoted
{
    std::size_t ip{0};        //!< offset of its IP header
    std::size_t transport{0}; //!< offset of its transport header
    AdcFlowKey key;           //!< its 5-tuple as quoted
};

/**
 * \brief Read the packet an ICMP error quotes, as ilb_check_icmp_conn does: an IP header of
 * the family, at least 8 bytes of a TCP or UDP header (IPv6: directly after the fixed header,
 * "We don't go deep inside an IPv6 packet yet").
 * \param icmp the ICMP message
 * \param v6 IPv6
 * \param[out] q what was found
 * \return false when the quote is unusable
 */
bool
ReadQuote(const std::vector<uint8_t>& icmp, bool v6, Quoted& q)
{
    q.ip = ICMP_HEADER;
    if (icmp.size() < q.ip + 1)
    {
        return false;
    }
    const uint8_t* ip = icmp.data() + q.ip;
    uint8_t protocol = 0;
    AdcIpAddress src;
    AdcIpAddress dst;
    if (!v6)
    {
        const std::size_t ihl = static_cast<std::size_t>(ip[0] & 0x0f) * 4;
        if ((ip[0] >> 4) != 4 || ihl < 20)
        {
            return false;
        }
        q.transport = q.ip + ihl;
        if (icmp.size() < q.transport + QUOTED_TRANSPORT)
        {
            return false;
        }
        protocol = ip[9];
        src = Ipv4Address::Deserialize(ip + 12);
        dst = Ipv4Address::Deserialize(ip + 16);
    }
    else
    {
        q.transport = q.ip + IPV6_HEADER;
        if ((ip[0] >> 4) != 6 || icmp.size() < q.transport + QUOTED_TRANSPORT)
        {
            return false;
        }
        protocol = ip[6];
        src = Ipv6Address::Deserialize(ip + 8);
        dst = Ipv6Address::Deserialize(ip + 24);
    }
    if (!AdcHasPorts(protocol))
    {
        return false;
    }
    q.key = AdcFlowKey(src, dst, Get16(icmp, q.transport), Get16(icmp, q.transport + 2), protocol);
    return true;
}

/**
 * \brief Rewrite the quoted packet's addresses and ports to \p to (ilb_nat_icmpv4 /
 * ilb_nat_icmpv6, which leave the quoted checksums as they were); with \p repair (attribute
 * "IcmpQuoteChecksums", beyond illumos) its IPv4 header checksum is recomputed, and its
 * transport checksum, when the quote holds it (UDP: a non-zero one in the 8 bytes; TCP: when
 * 18 bytes are quoted), is adjusted incrementally (RFC 1624) for the changed addresses and ports.
 * \param icmp the ICMP message
 * \param q the quote as read
 * \param to the 5-tuple the quoted packet gets
 * \param repair whether to make the quoted checksums right
 */
void
RewriteQuote(std::vector<uint8_t>& icmp, const Quoted& q, const AdcFlowKey& to, bool repair)
{
    const std::size_t len = to.src.GetLength();
    const std::size_t srcAt = q.ip + (to.src.IsV6() ? 8 : 12);
    const std::size_t dstAt = q.ip + (to.src.IsV6() ? 24 : 16);
    const uint32_t oldSum = Sum(icmp.data() + srcAt, len, Sum(icmp.data() + dstAt, len, 0)) +
                            Get16(icmp, q.transport) + Get16(icmp, q.transport + 2);
    std::memcpy(icmp.data() + srcAt, to.src.GetBytes().data(), len);
    std::memcpy(icmp.data() + dstAt, to.dst.GetBytes().data(), len);
    Put16(icmp, q.transport, to.srcPort);
    Put16(icmp, q.transport + 2, to.dstPort);
    const uint32_t newSum = SumAddress(to.dst, SumAddress(to.src, 0)) + to.srcPort + to.dstPort;
    if (!repair)
    {
        return;
    }
    if (to.src.IsV4())
    {
        const std::size_t ihl = q.transport - q.ip;
        Put16(icmp, q.ip + 10, 0);
        Put16(icmp, q.ip + 10, static_cast<uint16_t>(~Fold(Sum(icmp.data() + q.ip, ihl, 0))));
    }
    const bool udp = to.protocol == AdcFlowKey::PROTO_UDP;
    const std::size_t at = q.transport + (udp ? 6 : 16);
    if (icmp.size() < at + 2 || (udp && Get16(icmp, at) == 0))
    {
        return; // not quoted, or a UDP datagram without a checksum
    }
    // RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m')
    const uint32_t sum = static_cast<uint16_t>(~Get16(icmp, at)) +
                         static_cast<uint16_t>(~Fold(oldSum)) + Fold(newSum);
    uint16_t checksum = static_cast<uint16_t>(~Fold(sum));
    if (udp && checksum == 0)
    {
        checksum = 0xffff; // RFC 768: a computed zero is sent as all ones
    }
    Put16(icmp, at, checksum);
}

} // namespace

int32_t
IlbAppliance::FindVipRule(const AdcIpAddress& address) const
{
    // ilb_rule_match_vip_v4/v6: any rule whose VIP it is, whatever its protocol.
    for (uint8_t protocol : {AdcFlowKey::PROTO_TCP, AdcFlowKey::PROTO_UDP})
    {
        const int32_t rule =
            m_ruleSet.MatchVip(AdcFlowKey(AdcIpAddress(), address, 0, 0, protocol));
        if (rule >= 0)
        {
            return rule;
        }
    }
    return -1;
}

bool
IlbAppliance::ProcessNoPorts(const AdcIngress& in, AdcEgress& /* egress */)
{
    const bool v6 = in.flow.dst.IsV6();
    const uint8_t icmpProtocol = v6 ? AdcFlowKey::PROTO_ICMPV6 : AdcFlowKey::PROTO_ICMP;
    const int32_t vipRule = FindVipRule(in.flow.dst);
    // IPv4 (ip_input.c): a fragment (MF or an offset) of TCP, UDP or ICMP to any VIP is dropped
    // and counted (ip_frag_in, ip_frag_dropped), never reassembled. IPv6: ip_input_v6 gives
    // ILB only packets whose first next header is TCP, UDP or ICMPv6 (ILB_SUPP_L4), so a packet
    // with a Fragment header (44) is handed to IP like any other: the model passes it.
    const bool fragment = !v6 && (in.status == AdcTransportStatus::FRAGMENT ||
                                  (in.fragment && in.flow.protocol == icmpProtocol));
    if (fragment)
    {
        if (vipRule >= 0)
        {
            ++m_rules[vipRule].counters.fragmentsDropped;
            Drop(vipRule, -1, in.packet, AdcTransportDropReason(AdcTransportStatus::FRAGMENT));
            return true;
        }
        // ip_input.c: "if (!ilb_rule_match_vip_v4(ilbs, nexthop, NULL)) goto after_ilb;" --
        // any other fragment (a server's reply included) is ordinary traffic.
        return false;
    }
    if (in.flow.protocol != icmpProtocol)
    {
        return false;
    }
    if (vipRule >= 0)
    {
        return ProcessIcmpToVip(static_cast<uint32_t>(vipRule), in);
    }
    // ilb_icmp_v4/v6: "If it does not [match a VIP], just return ILB_PASSED"; the translation
    // of server-side errors is the model's extension, off unless asked for.
    return m_icmpTooBigFromServers && ProcessIcmpTooBigToClient(in);
}

bool
IlbAppliance::ProcessIcmpToVip(uint32_t rule, const AdcIngress& in)
{
    Counters& counters = m_rules[rule].counters;
    const auto irule = static_cast<int32_t>(rule);
    const bool v6 = in.flow.dst.IsV6();
    std::vector<uint8_t> icmp = Bytes(in.packet);
    if (icmp.size() < ICMP_HEADER)
    {
        ++counters.icmpDropped;
        Drop(irule, -1, in.packet, "icmp-truncated");
        return true;
    }
    const uint8_t type = icmp[0];
    if (type == (v6 ? ICMP6_ECHO_REQUEST : ICMP4_ECHO_REQUEST))
    {
        // ilb_icmp_v4/v6, ICMP_ECHO_REQUEST: answered on behalf of the servers, from the VIP,
        // with the request's identifier, sequence number and data, the default TTL/hop limit.
        ++counters.icmpEchoProcessed;
        icmp[0] = v6 ? ICMP6_ECHO_REPLY : ICMP4_ECHO_REPLY;
        SetIcmpChecksum(icmp, in.flow.dst, in.flow.src);
        const std::string refused =
            SendIcmp(Create<Packet>(icmp.data(), icmp.size()), in.flow.dst, in.flow.src);
        if (!refused.empty())
        {
            Drop(irule, -1, in.packet, refused);
        }
        return true;
    }
    const bool tooBig = v6 ? type == ICMP6_PACKET_TOO_BIG
                           : type == ICMP4_DEST_UNREACH && icmp[1] == ICMP4_FRAG_NEEDED;
    if (!tooBig)
    {
        ++counters.icmpDropped; // ilb_icmp_v4/v6: "For other ICMP messages, drop them."
        Drop(irule, -1, in.packet, "icmp-type-unsupported");
        return true;
    }
    // ilb_check_icmp_conn: the error quotes a response the ILB sent (VIP:port -> client:port),
    // the reverse of a connection's client-side key. The error goes to that connection's server,
    // quoting the packet as the server sent it (ilb_nat_icmpv4/v6): outer destination and inner
    // source = the server (and its port); Full-NAT also outer source and inner destination = the
    // NAT source address (and port).
    Quoted q;
    Conn c;
    if (!ReadQuote(icmp, v6, q) || !m_conns->Find(q.key.Reversed(), false, Simulator::Now(), c) ||
        Rule(c.rule).topology == IlbRule::DSR)
    {
        ++counters.icmpTooBigDropped;
        Drop(irule, -1, in.packet, "icmp-no-connection");
        return true;
    }
    Counters& ruleCounters = m_rules[c.rule].counters;
    const bool full = Rule(c.rule).topology == IlbRule::FULL_NAT;
    const AdcIpAddress outerSrc = full ? c.translated.src : in.flow.src;
    const AdcIpAddress outerDst = c.translated.dst;
    RewriteQuote(icmp, q, c.translated.Reversed(), m_icmpQuoteChecksums);
    SetIcmpChecksum(icmp, outerSrc, outerDst);
    const std::string refused =
        SendIcmp(Create<Packet>(icmp.data(), icmp.size()), outerSrc, outerDst);
    if (!refused.empty())
    {
        ++ruleCounters.icmpTooBigDropped;
        Drop(static_cast<int32_t>(c.rule), static_cast<int32_t>(c.server), in.packet, refused);
        return true;
    }
    ++ruleCounters.icmpTooBigProcessed;
    return true;
}

bool
IlbAppliance::ProcessIcmpTooBigToClient(const AdcIngress& in)
{
    // The other direction, which illumos leaves to IP (an error not addressed to a VIP passes
    // unchanged): a router on the server side reports that a request as the ILB forwarded it
    // (client or NAT source -> server) was too big. Translated back to the client's view
    // (inner: client:port -> VIP:port; outer destination: the client; Full-NAT outer source:
    // the VIP, as the client's peer), so the client's path-MTU discovery works too.
    const bool v6 = in.flow.dst.IsV6();
    if (in.status != AdcTransportStatus::NO_PORTS || (!v6 && in.laterFragment))
    {
        return false;
    }
    std::vector<uint8_t> icmp = Bytes(in.packet);
    if (icmp.size() < ICMP_HEADER)
    {
        return false;
    }
    const bool tooBig = v6 ? icmp[0] == ICMP6_PACKET_TOO_BIG
                           : icmp[0] == ICMP4_DEST_UNREACH && icmp[1] == ICMP4_FRAG_NEEDED;
    Quoted q;
    Conn c;
    if (!tooBig || !ReadQuote(icmp, v6, q) ||
        !m_conns->Find(q.key.Reversed(), true, Simulator::Now(), c) || c.translated != q.key ||
        Rule(c.rule).topology == IlbRule::DSR)
    {
        return false; // not about a NAT connection: ordinary traffic
    }
    const bool full = Rule(c.rule).topology == IlbRule::FULL_NAT;
    const AdcIpAddress outerSrc = full ? c.original.dst : in.flow.src;
    const AdcIpAddress outerDst = c.original.src;
    RewriteQuote(icmp, q, c.original, m_icmpQuoteChecksums);
    SetIcmpChecksum(icmp, outerSrc, outerDst);
    const std::string refused =
        SendIcmp(Create<Packet>(icmp.data(), icmp.size()), outerSrc, outerDst);
    if (!refused.empty())
    {
        ++m_rules[c.rule].counters.icmpTooBigDropped;
        Drop(static_cast<int32_t>(c.rule), static_cast<int32_t>(c.server), in.packet, refused);
        return true;
    }
    ++m_rules[c.rule].counters.icmpTooBigProcessed;
    return true;
}

std::string
IlbAppliance::SendIcmp(Ptr<Packet> icmp, const AdcIpAddress& src, const AdcIpAddress& dst)
{
    // The ILB originates the message from its node (a source it does not own is kept, as
    // ILB's ip_input rewrites and sends on): the node's routes, default TTL / hop limit.
    Ptr<Node> node = GetNode();
    if (!node)
    {
        return "no-route";
    }
    Socket::SocketErrno err = Socket::ERROR_NOTERROR;
    if (dst.IsV4())
    {
        Ptr<Ipv4> ip = node->GetObject<Ipv4>();
        if (!ip || !ip->GetRoutingProtocol())
        {
            return "no-route";
        }
        Ipv4Header lookup;
        lookup.SetDestination(dst.GetIpv4());
        lookup.SetProtocol(AdcFlowKey::PROTO_ICMP);
        Ptr<Ipv4Route> route = ip->GetRoutingProtocol()->RouteOutput(icmp, lookup, nullptr, err);
        if (!route)
        {
            return "no-route";
        }
        ip->Send(icmp, src.GetIpv4(), dst.GetIpv4(), AdcFlowKey::PROTO_ICMP, route);
        return "";
    }
    Ptr<Ipv6> ip = node->GetObject<Ipv6>();
    if (!ip || !ip->GetRoutingProtocol())
    {
        return "no-route";
    }
    Ipv6Header lookup;
    lookup.SetDestination(dst.GetIpv6());
    lookup.SetNextHeader(AdcFlowKey::PROTO_ICMPV6);
    Ptr<Ipv6Route> route = ip->GetRoutingProtocol()->RouteOutput(icmp, lookup, nullptr, err);
    if (!route)
    {
        return "no-route";
    }
    ip->Send(icmp, src.GetIpv6(), dst.GetIpv6(), AdcFlowKey::PROTO_ICMPV6, route);
    return "";
}

} // namespace ns3
