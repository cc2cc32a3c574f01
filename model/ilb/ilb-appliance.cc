/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the Solaris-style Integrated Load Balancer (ILB), seed 001.
 */

#include "ilb-appliance.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6-route.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IlbAppliance");

NS_OBJECT_ENSURE_REGISTERED(IlbAppliance);

namespace
{

/// Default per-device seed of the hash algorithms.
constexpr uint64_t DEFAULT_HASH_SEED = 0x11b5eed0adcULL;
/// Default maximum number of connection entries (the table's default).
constexpr uint32_t DEFAULT_MAX_CONNECTIONS = 1000000;
/// Largest NAT source range (addresses); each address has its own port bitmap.
constexpr uint64_t MAX_NAT_ADDRESSES = 256;

/// TCP flags the ILB tracks.
constexpr uint8_t TCP_FIN = 0x01;
constexpr uint8_t TCP_SYN = 0x02;
constexpr uint8_t TCP_RST = 0x04;
constexpr uint8_t TCP_ACK = 0x10;

/// Header sizes.
constexpr uint32_t UDP_HEADER_BYTES = 8;
constexpr uint32_t TCP_MIN_HEADER_BYTES = 20;
constexpr uint32_t TCP_MAX_HEADER_BYTES = 60;
constexpr uint32_t PORT_BYTES = 4;

/// ILB's default NAT timeouts.
const Time kTcpNatTimeout = Seconds(120);
const Time kUdpNatTimeout = Seconds(60);

/// The algorithm names a rule accepts, in the order messages list them.
const std::vector<std::string> kAlgorithms = {"roundrobin",
                                              "hash-ip",
                                              "hash-ip-port",
                                              "hash-ip-vip"};

/// \param s text \return s in lower case
std::string
ToLower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return s;
}

/// \param protocol IP protocol \return true for TCP and UDP
bool
HasPorts(uint8_t protocol)
{
    return protocol == AdcFlowKey::PROTO_TCP || protocol == AdcFlowKey::PROTO_UDP;
}

/// \param a an address \return it as an ns-3 Address (for the transport checksums)
Address
ToAddress(const AdcIpAddress& a)
{
    return a.IsV4() ? Address(a.GetIpv4()) : Address(a.GetIpv6());
}

/// \param family address family \param bytes 16 bytes \return the address
AdcIpAddress
FromBytes(AdcIpAddress::Family family, const std::array<uint8_t, 16>& bytes)
{
    if (family == AdcIpAddress::V4)
    {
        return AdcIpAddress(Ipv4Address((uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) |
                                        (uint32_t{bytes[2]} << 8) | uint32_t{bytes[3]}));
    }
    std::array<uint8_t, 16> copy = bytes;
    return AdcIpAddress(Ipv6Address(copy.data()));
}

/**
 * \param first an address
 * \param last an address of the same family
 * \return last - first as an unsigned number, saturated at UINT64_MAX; 0 when last < first
 * (check that separately)
 */
uint64_t
Span(const AdcIpAddress& first, const AdcIpAddress& last)
{
    const std::size_t len = first.GetLength();
    std::array<uint8_t, 16> diff{};
    int borrow = 0;
    for (std::size_t i = len; i-- > 0;)
    {
        int d = int{last.GetBytes()[i]} - int{first.GetBytes()[i]} - borrow;
        borrow = d < 0 ? 1 : 0;
        diff[i] = static_cast<uint8_t>(d + (borrow ? 256 : 0));
    }
    uint64_t value = 0;
    for (std::size_t i = 0; i < len; ++i)
    {
        if (value > (UINT64_MAX >> 8))
        {
            return UINT64_MAX;
        }
        value = (value << 8) | diff[i];
    }
    return value;
}

/// \param a an address \param b one of the same family \return true when a <= b numerically
bool
LessOrEqual(const AdcIpAddress& a, const AdcIpAddress& b)
{
    const std::size_t len = a.GetLength();
    return !std::lexicographical_compare(b.GetBytes().begin(),
                                         b.GetBytes().begin() + len,
                                         a.GetBytes().begin(),
                                         a.GetBytes().begin() + len);
}

/// \param first an address \param k an offset \return first + k
AdcIpAddress
Offset(const AdcIpAddress& first, uint64_t k)
{
    std::array<uint8_t, 16> bytes = first.GetBytes();
    uint64_t carry = k;
    for (std::size_t i = first.GetLength(); i-- > 0 && carry != 0;)
    {
        const uint64_t sum = bytes[i] + (carry & 0xff);
        bytes[i] = static_cast<uint8_t>(sum);
        carry = (carry >> 8) + (sum >> 8);
    }
    return FromBytes(first.GetFamily(), bytes);
}

/// What the start of a transport header gave (see IlbAppliance::TransportStatus).
struct TransportRead
{
    int status; //!< 0 OK, 1 truncated, 2 malformed
    uint16_t src{0};
    uint16_t dst{0};
    uint8_t flags{0};
    uint32_t seq{0};     //!< TCP sequence number
    uint32_t ack{0};     //!< TCP acknowledgement number
    uint32_t payload{0}; //!< TCP payload bytes
};

/**
 * \brief Check TCP options lie inside the option area, so ns-3's option parsers never read
 * past the header.
 * \param h header bytes \param len header length (data offset * 4)
 * \return true when well formed
 */
bool
TcpOptionsWellFormed(const uint8_t* h, uint32_t len)
{
    uint32_t i = TCP_MIN_HEADER_BYTES;
    while (i < len)
    {
        const uint8_t kind = h[i];
        if (kind == 0) // END: the rest is padding
        {
            return true;
        }
        if (kind == 1) // NOP
        {
            ++i;
            continue;
        }
        if (i + 1 >= len || h[i + 1] < 2 || i + h[i + 1] > len)
        {
            return false;
        }
        i += h[i + 1];
    }
    return true;
}

/**
 * \param p a packet starting with its TCP or UDP header
 * \param protocol 6 or 17
 * \return ports and flags; never reads past the packet's end (at most 60 bytes)
 */
TransportRead
ReadTransport(Ptr<const Packet> p, uint8_t protocol)
{
    TransportRead r{1};
    const uint32_t size = p ? p->GetSize() : 0;
    const uint32_t need =
        protocol == AdcFlowKey::PROTO_TCP ? TCP_MIN_HEADER_BYTES : UDP_HEADER_BYTES;
    if (size < PORT_BYTES || size < need)
    {
        return r;
    }
    uint8_t h[TCP_MAX_HEADER_BYTES];
    const uint32_t n = std::min(size, TCP_MAX_HEADER_BYTES);
    p->CopyData(h, n);
    r.src = static_cast<uint16_t>((h[0] << 8) | h[1]);
    r.dst = static_cast<uint16_t>((h[2] << 8) | h[3]);
    if (protocol == AdcFlowKey::PROTO_TCP)
    {
        const uint32_t len = (h[12] >> 4) * 4u;
        if (len < TCP_MIN_HEADER_BYTES || len > size || !TcpOptionsWellFormed(h, len))
        {
            r.status = len > size ? 1 : 2;
            return r;
        }
        r.flags = h[13];
        auto word = [&h](int i) {
            return (uint32_t{h[i]} << 24) | (uint32_t{h[i + 1]} << 16) | (uint32_t{h[i + 2]} << 8) |
                   uint32_t{h[i + 3]};
        };
        r.seq = word(4);
        r.ack = word(8);
        r.payload = size - len;
    }
    r.status = 0;
    return r;
}

/**
 * \brief Rewrite the ports of a TCP/UDP packet and make its checksum right for the new
 * addresses (when checksums are enabled; the incoming checksum is verified first).
 * \param p the packet, transport header first (validated by ReadTransport)
 * \param before the 5-tuple it arrived with
 * \param after the 5-tuple it leaves with
 * \param[out] reason why it failed
 * \return the rewritten copy, or null
 */
Ptr<Packet>
RewriteTransport(Ptr<const Packet> p,
                 const AdcFlowKey& before,
                 const AdcFlowKey& after,
                 std::string& reason)
{
    Ptr<Packet> copy = p->Copy();
    const bool checksums = Node::ChecksumEnabled();
    if (after.protocol == AdcFlowKey::PROTO_TCP)
    {
        TcpHeader tcp;
        if (checksums)
        {
            tcp.EnableChecksums();
            tcp.InitializeChecksum(ToAddress(before.src), ToAddress(before.dst), before.protocol);
        }
        copy->RemoveHeader(tcp);
        if (tcp.GetLength() * 4u != tcp.GetSerializedSize())
        {
            reason = "malformed-transport-header";
            return nullptr;
        }
        if (checksums && !tcp.IsChecksumOk())
        {
            reason = "bad-checksum";
            return nullptr;
        }
        tcp.SetSourcePort(after.srcPort);
        tcp.SetDestinationPort(after.dstPort);
        if (checksums)
        {
            tcp.InitializeChecksum(ToAddress(after.src), ToAddress(after.dst), after.protocol);
        }
        copy->AddHeader(tcp);
        return copy;
    }
    UdpHeader in;
    if (checksums)
    {
        in.EnableChecksums();
        in.InitializeChecksum(ToAddress(before.src), ToAddress(before.dst), before.protocol);
    }
    copy->RemoveHeader(in);
    if (checksums && !in.IsChecksumOk())
    {
        reason = "bad-checksum";
        return nullptr;
    }
    // A fresh header: a deserialized UdpHeader would write back its old checksum and a
    // length field without the header (ns-3 3.37 keeps both as read).
    UdpHeader out;
    out.SetSourcePort(after.srcPort);
    out.SetDestinationPort(after.dstPort);
    if (checksums)
    {
        out.EnableChecksums();
        out.InitializeChecksum(ToAddress(after.src), ToAddress(after.dst), after.protocol);
    }
    copy->AddHeader(out);
    return copy;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Datapath adapters: parse the IP header, hand the packet to the engine, carry out its
// decision (rewrite, route, forwarding callback). IlbRoutingHook holds the body both
// families share; a family struct supplies the types and the few steps that differ.

/// The types of one IP family, named alike for IlbRoutingHook.
template <class IpT,
          class ProtocolT,
          class ListRoutingT,
          class HeaderT,
          class RouteT,
          class AddressT,
          class InterfaceAddressT,
          AddressT (AdcIpAddress::*GetT)() const>
struct IlbFamilyTypes
{
    using Ip = IpT;                             //!< the node's IP object
    using Protocol = ProtocolT;                 //!< routing protocol base
    using ListRouting = ListRoutingT;           //!< the node's list routing
    using Header = HeaderT;                     //!< IP header
    using Route = RouteT;                       //!< route
    using Address = AddressT;                   //!< IP address
    using InterfaceAddress = InterfaceAddressT; //!< interface address
    using UnicastForwardCallback = typename ProtocolT::UnicastForwardCallback; //!< forwarding

    /// \param a an address of this family \return it as the family's address type
    static AddressT Get(const AdcIpAddress& a)
    {
        return (a.*GetT)();
    }
};

/// IPv4 types and the IPv4-specific steps of the datapath hook.
struct IlbIpv4Family : IlbFamilyTypes<Ipv4,
                                      Ipv4RoutingProtocol,
                                      Ipv4ListRouting,
                                      Ipv4Header,
                                      Ipv4Route,
                                      Ipv4Address,
                                      Ipv4InterfaceAddress,
                                      &AdcIpAddress::GetIpv4>
{
    static constexpr const char* NAME = "IlbIpv4Routing"; //!< name in PrintRoutingTable

    /// \param ip the node's Ipv4 \param header received header \param idev input device
    /// \return true when the packet is not for the ILB (left to the other protocols)
    static bool Ignore(const Ptr<Ipv4>& ip, const Ipv4Header& header, Ptr<const NetDevice> idev)
    {
        const Ipv4Address dst = header.GetDestination();
        if (dst.IsMulticast() || dst.IsBroadcast())
        {
            return true;
        }
        const int32_t iif = ip->GetInterfaceForDevice(idev);
        // the list delivers the node's own packets
        return iif < 0 || ip->IsDestinationAddress(dst, static_cast<uint32_t>(iif));
    }

    /// \param header received header \return its IP protocol
    static uint8_t NextProtocol(const Ipv4Header& header)
    {
        return header.GetProtocol();
    }

    /// \param header received header \return whether the packet is an IP fragment
    static bool IsFragment(const Ipv4Header& header)
    {
        return header.GetFragmentOffset() != 0 || !header.IsLastFragment();
    }

    /// Hand the packet to the forwarding code (the input device is not passed on in IPv4).
    static void Forward(const UnicastForwardCallback& ucb,
                        Ptr<const NetDevice> idev,
                        Ptr<Route> route,
                        Ptr<const Packet> p,
                        const Header& h)
    {
        ucb(route, p, h);
    }
};

/// IPv6 types and the IPv6-specific steps of the datapath hook.
struct IlbIpv6Family : IlbFamilyTypes<Ipv6,
                                      Ipv6RoutingProtocol,
                                      Ipv6ListRouting,
                                      Ipv6Header,
                                      Ipv6Route,
                                      Ipv6Address,
                                      Ipv6InterfaceAddress,
                                      &AdcIpAddress::GetIpv6>
{
    static constexpr const char* NAME = "IlbIpv6Routing"; //!< name in PrintRoutingTable

    /// \param header received header \return true when the packet is not for the ILB
    static bool Ignore(const Ptr<Ipv6>&, const Ipv6Header& header, Ptr<const NetDevice>)
    {
        const Ipv6Address dst = header.GetDestination();
        return dst.IsMulticast() || dst.IsLinkLocal();
    }

    /// \param header received header \return its next header
    static uint8_t NextProtocol(const Ipv6Header& header)
    {
        return header.GetNextHeader();
    }

    /// Extension headers other than hop-by-hop stay in the packet: a next header other
    /// than TCP/UDP (a fragment header, say) is not ILB traffic. \return false
    static bool IsFragment(const Ipv6Header&)
    {
        return false;
    }

    /// Hand the packet to the forwarding code.
    static void Forward(const UnicastForwardCallback& ucb,
                        Ptr<const NetDevice> idev,
                        Ptr<Route> route,
                        Ptr<const Packet> p,
                        const Header& h)
    {
        ucb(idev, route, p, h);
    }
};

/**
 * \ingroup adc
 * \brief The datapath hook of an IlbAppliance for one IP family: a routing protocol for the
 * node's list routing, above static routing. It originates no routes.
 * \tparam Family IlbIpv4Family or IlbIpv6Family
 * \tparam Self the concrete hook (registered as "ns3::" + Family::NAME)
 */
template <class Family, class Self>
class IlbRoutingHook : public Family::Protocol
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
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId(std::string("ns3::") + Family::NAME)
                                .SetParent<Protocol>()
                                .SetGroupName("Adc")
                                .template AddConstructor<Self>();
        return tid;
    }

    /// \param ilb the appliance whose engine decides (null detaches)
    void Attach(IlbAppliance* ilb)
    {
        m_ilb = ilb;
    }

    Ptr<Route> RouteOutput(Ptr<Packet> p,
                           const Header& header,
                           Ptr<NetDevice> oif,
                           Socket::SocketErrno& sockerr) override
    {
        sockerr = Socket::ERROR_NOROUTETOHOST;
        return nullptr; // the ILB forwards; the node's own traffic uses the other protocols
    }

    bool RouteInput(Ptr<const Packet> p,
                    const Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override
    {
        NS_LOG_FUNCTION(this << p << header << idev);
        if (!m_ilb || !m_ip || ucb.IsNull() || Family::Ignore(m_ip, header, idev))
        {
            return false;
        }
        const IlbAppliance::Ingress in = IlbAppliance::Describe(header.GetSource(),
                                                                header.GetDestination(),
                                                                Family::NextProtocol(header),
                                                                p,
                                                                Family::IsFragment(header),
                                                                header.GetSerializedSize());
        return m_ilb->Process(in, [&](const IlbAppliance::Egress& e) {
            return Send(idev, p, header, ucb, e);
        });
    }

    void NotifyInterfaceUp(uint32_t interface) override
    {
    }

    void NotifyInterfaceDown(uint32_t interface) override
    {
    }

    void NotifyAddAddress(uint32_t interface, typename Family::InterfaceAddress address) override
    {
    }

    void NotifyRemoveAddress(uint32_t interface, typename Family::InterfaceAddress address) override
    {
    }

    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const override
    {
        std::ostream& os = *stream->GetStream();
        os << Family::NAME << ", Time: " << Now().As(unit) << "\n";
        if (m_ilb)
        {
            m_ilb->Print(os);
        }
    }

  protected:
    /// \param ip the node's IP object (SetIpv4 / SetIpv6 of the concrete hook)
    void SetIp(Ptr<typename Family::Ip> ip)
    {
        m_ip = ip;
    }

    void DoDispose() override
    {
        m_ilb = nullptr;
        m_ip = nullptr;
        Protocol::DoDispose();
    }

  private:
    /// \param dst a destination \return a route from the node's other protocols, or null
    Ptr<Route> LookupRoute(typename Family::Address dst) const
    {
        Ptr<typename Family::ListRouting> list =
            DynamicCast<typename Family::ListRouting>(m_ip->GetRoutingProtocol());
        if (!list)
        {
            return nullptr;
        }
        Header lookup;
        lookup.SetDestination(dst);
        for (uint32_t i = 0; i < list->GetNRoutingProtocols(); ++i)
        {
            int16_t priority = 0;
            Ptr<Protocol> other = list->GetRoutingProtocol(i, priority);
            if (PeekPointer(other) == this)
            {
                continue;
            }
            Socket::SocketErrno err = Socket::ERROR_NOTERROR;
            if (Ptr<Route> route = other->RouteOutput(nullptr, lookup, nullptr, err))
            {
                return route;
            }
        }
        return nullptr;
    }

    /// Carry out the engine's decision. \return "" or a drop reason
    std::string Send(Ptr<const NetDevice> idev,
                     Ptr<const Packet> p,
                     const Header& header,
                     const UnicastForwardCallback& ucb,
                     const IlbAppliance::Egress& e) const
    {
        Ptr<const Packet> out = p;
        std::string reason;
        if (e.rewrite && !(out = RewriteTransport(p, e.before, e.after, reason)))
        {
            return reason;
        }
        const bool dsr = !e.gateway.IsNone();
        Ptr<Route> found = LookupRoute(Family::Get(dsr ? e.gateway : e.after.dst));
        if (!found)
        {
            return "no-route";
        }
        Ptr<Route> route = Create<Route>();
        route->SetDestination(Family::Get(e.after.dst));
        route->SetSource(found->GetSource());
        route->SetOutputDevice(found->GetOutputDevice());
        route->SetGateway(found->GetGateway());
        if (dsr)
        {
            if (!found->GetGateway().IsAny())
            {
                return "server-not-on-link"; // DSR only rewrites the MAC: servers are on-link
            }
            route->SetGateway(Family::Get(e.gateway));
        }
        // The IPv4 forwarding code lowers the TTL and, when checksums are enabled (the
        // received header has them on), recomputes the header checksum.
        Header h = header;
        h.SetSource(Family::Get(e.after.src));
        h.SetDestination(Family::Get(e.after.dst));
        Family::Forward(ucb, idev, route, out, h);
        return "";
    }

    IlbAppliance* m_ilb{nullptr};  //!< the engine (not owned: the appliance owns this hook)
    Ptr<typename Family::Ip> m_ip; //!< the node's Ipv4 / Ipv6
};

/**
 * \ingroup adc
 * \brief The IPv4 datapath hook of an IlbAppliance (an Ipv4RoutingProtocol for the node's
 * Ipv4ListRouting, above static routing). It originates no routes.
 */
class IlbIpv4Routing : public IlbRoutingHook<IlbIpv4Family, IlbIpv4Routing>
{
  public:
    void SetIpv4(Ptr<Ipv4> ipv4) override
    {
        SetIp(ipv4);
    }
};

/**
 * \ingroup adc
 * \brief The IPv6 datapath hook of an IlbAppliance (an Ipv6RoutingProtocol for the node's
 * Ipv6ListRouting, above static routing). It originates no routes.
 */
class IlbIpv6Routing : public IlbRoutingHook<IlbIpv6Family, IlbIpv6Routing>
{
  public:
    void NotifyAddRoute(Ipv6Address dst,
                        Ipv6Prefix mask,
                        Ipv6Address nextHop,
                        uint32_t interface,
                        Ipv6Address prefixToUse) override
    {
    }

    void NotifyRemoveRoute(Ipv6Address dst,
                           Ipv6Prefix mask,
                           Ipv6Address nextHop,
                           uint32_t interface,
                           Ipv6Address prefixToUse) override
    {
    }

    void SetIpv6(Ptr<Ipv6> ipv6) override
    {
        SetIp(ipv6);
    }
};

NS_OBJECT_ENSURE_REGISTERED(IlbIpv4Routing);
NS_OBJECT_ENSURE_REGISTERED(IlbIpv6Routing);

// ---------------------------------------------------------------------------------------------
// IlbRule

std::string
IlbRule::TopologyToString(Topology t)
{
    switch (t)
    {
    case DSR:
        return "DSR";
    case HALF_NAT:
        return "HALF_NAT";
    case FULL_NAT:
        return "FULL_NAT";
    }
    return "UNKNOWN(" + std::to_string(static_cast<unsigned>(t)) + ")";
}

// ---------------------------------------------------------------------------------------------
// IlbAppliance: object, configuration

TypeId
IlbAppliance::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IlbAppliance")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<IlbAppliance>()
            .AddAttribute(
                "HashSeed",
                "Per-device seed of the hash algorithms (hash-ip, hash-ip-port, "
                "hash-ip-vip): two ILBs with different seeds map clients independently.",
                UintegerValue(DEFAULT_HASH_SEED),
                MakeUintegerAccessor(&IlbAppliance::SetHashSeed, &IlbAppliance::GetHashSeed),
                MakeUintegerChecker<uint64_t>())
            .AddAttribute("MaxConnections",
                          "Maximum number of connection (NAT) entries of all rules; 0 = "
                          "unlimited. New flows beyond it are dropped (connection-table-full).",
                          UintegerValue(DEFAULT_MAX_CONNECTIONS),
                          MakeUintegerAccessor(&IlbAppliance::SetMaxConnections,
                                               &IlbAppliance::GetMaxConnections),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TcpTimeWait",
                          "How long a TCP connection's entry stays after both FINs are "
                          "acknowledged, for segments still in flight (retransmitted FINs); a "
                          "new SYN on the same 5-tuple replaces it. 0 removes it at once. A RST "
                          "always removes it at once.",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&IlbAppliance::m_tcpTimeWait),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CompactIpv4Table",
                          "true: IPv4 connections live in the compact IlbNatTable (GetNatTable; "
                          "about 75 bytes per entry, all per-connection state included, idle "
                          "times at millisecond granularity); false: in the AdcConnectionTable "
                          "with the IPv6 ones (GetConnectionTable; about 300 bytes per entry). "
                          "Set it before the first connection.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&IlbAppliance::SetCompactIpv4Table,
                                              &IlbAppliance::GetCompactIpv4Table),
                          MakeBooleanChecker())
            .AddTraceSource("RuleMatch",
                            "A request packet matched a rule (VIP, protocol, port).",
                            MakeTraceSourceAccessor(&IlbAppliance::m_ruleMatchTrace),
                            "ns3::IlbAppliance::RuleMatchTracedCallback")
            .AddTraceSource("ServerChosen",
                            "A new flow was given a server.",
                            MakeTraceSourceAccessor(&IlbAppliance::m_serverChosenTrace),
                            "ns3::IlbAppliance::ServerChosenTracedCallback")
            .AddTraceSource("Rewrite",
                            "A packet's addresses/ports were rewritten (NAT), per direction.",
                            MakeTraceSourceAccessor(&IlbAppliance::m_rewriteTrace),
                            "ns3::IlbAppliance::RewriteTracedCallback")
            .AddTraceSource("Drop",
                            "The ILB dropped a packet; the reason is given.",
                            MakeTraceSourceAccessor(&IlbAppliance::m_dropTrace),
                            "ns3::IlbAppliance::DropTracedCallback")
            .AddTraceSource("NatExhausted",
                            "A new FULL_NAT flow found every NAT source port in use.",
                            MakeTraceSourceAccessor(&IlbAppliance::m_natExhaustedTrace),
                            "ns3::IlbAppliance::NatExhaustedTracedCallback")
            .AddTraceSource("ConnectionEnded",
                            "A connection's entry went (either table): idle expiry, TCP end "
                            "(RST, or TcpTimeWait after both FINs), server down, drain cut.",
                            MakeTraceSourceAccessor(&IlbAppliance::m_connectionEndedTrace),
                            "ns3::IlbAppliance::ConnectionEndedTracedCallback");
    return tid;
}

IlbAppliance::IlbAppliance()
    : m_hashSeed(DEFAULT_HASH_SEED),
      m_maxConnections(DEFAULT_MAX_CONNECTIONS),
      m_tcpTimeWait(Seconds(2))
{
    NS_LOG_FUNCTION(this);
    m_table = CreateObject<AdcConnectionTable>();
    m_table->SetAttribute("MaxEntries", UintegerValue(m_maxConnections));
    // Whatever removes an entry (idle expiry, close, drain), the flow's NAT port goes back.
    m_table->TraceConnectWithoutContext("EntryExpired",
                                        MakeCallback(&IlbAppliance::ForgetFlow, this));
    m_table->TraceConnectWithoutContext("EntryRemoved",
                                        MakeCallback(&IlbAppliance::ForgetFlow, this));
    m_nat = CreateObject<IlbNatTable>();
    m_nat->SetRemoveCallback(MakeCallback(&IlbAppliance::ForgetNat, this));
}

IlbAppliance::~IlbAppliance()
{
    NS_LOG_FUNCTION(this);
    // The hooks may outlive the appliance in the node's routing list: never let them call it.
    if (m_ipv4Routing)
    {
        m_ipv4Routing->Attach(nullptr);
    }
    if (m_ipv6Routing)
    {
        m_ipv6Routing->Attach(nullptr);
    }
}

void
IlbAppliance::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (RuleState& r : m_rules)
    {
        for (ServerState& s : r.servers)
        {
            s.drainEvent.Cancel();
        }
    }
    if (m_ipv4Routing)
    {
        m_ipv4Routing->Attach(nullptr);
        m_ipv4Routing = nullptr;
    }
    if (m_ipv6Routing)
    {
        m_ipv6Routing->Attach(nullptr);
        m_ipv6Routing = nullptr;
    }
    m_rules.clear();
    m_byVip.clear();
    m_halfNatServers.clear();
    m_natOwner.clear();
    m_natPorts.clear();
    m_flows.clear();
    m_serverOwner.clear();
    m_table = nullptr;
    if (m_nat)
    {
        m_nat->Dispose();
        m_nat = nullptr;
    }
    Object::DoDispose();
}

std::string
IlbAppliance::Who(const IlbRule& rule, uint32_t index)
{
    return "IlbAppliance: rule '" + rule.name + "' (#" + std::to_string(index) + ")";
}

std::vector<std::string>
IlbAppliance::GetAlgorithmNames()
{
    return kAlgorithms;
}

void
IlbAppliance::CheckRule(IlbRule& rule, uint32_t index) const
{
    const std::string who = Who(rule, index);
    if (rule.name.empty())
    {
        throw AdcConfigError(who + ": name is empty; every rule needs a unique name");
    }
    if (FindRule(rule.name) >= 0)
    {
        throw AdcConfigError(who + ": name '" + rule.name + "' is already used by rule #" +
                             std::to_string(FindRule(rule.name)) + "; names must be unique");
    }
    if (rule.vip.IsNone())
    {
        throw AdcConfigError(who + ": vip is unset; a rule needs an IPv4 or IPv6 VIP");
    }
    if (!HasPorts(rule.protocol))
    {
        throw AdcConfigError(who + ": protocol '" + std::to_string(rule.protocol) +
                             "' is not one of 6 (TCP), 17 (UDP)");
    }
    if (rule.topology > IlbRule::FULL_NAT)
    {
        throw AdcConfigError(who + ": topology '" + IlbRule::TopologyToString(rule.topology) +
                             "' is not one of DSR, HALF_NAT, FULL_NAT");
    }
    rule.ports.Check(who + ": ports");
    auto sameVip = m_byVip.find(rule.vip);
    if (sameVip != m_byVip.end())
    {
        for (uint32_t other : sameVip->second)
        {
            const IlbRule& o = m_rules[other].rule;
            if (o.protocol == rule.protocol && o.ports.Overlaps(rule.ports))
            {
                throw AdcConfigError(who + ": ports " + rule.ports.ToString() + " overlap ports " +
                                     o.ports.ToString() + " of rule '" + o.name +
                                     "' on the same vip " + rule.vip.ToString() +
                                     " and protocol; a packet must match one rule");
            }
        }
    }
    auto natOwner = m_natOwner.find(rule.vip);
    if (natOwner != m_natOwner.end())
    {
        throw AdcConfigError(who + ": vip " + rule.vip.ToString() +
                             " is a NAT source address of rule '" +
                             m_rules[natOwner->second].rule.name + "'");
    }
    for (const RuleState& other : m_rules)
    {
        for (const IlbServer& s : other.rule.servers)
        {
            if (s.address == rule.vip)
            {
                throw AdcConfigError(who + ": vip " + rule.vip.ToString() + " is server '" +
                                     s.name + "' of rule '" + other.rule.name +
                                     "'; a VIP must not overlap a server address");
            }
        }
    }
    if (rule.servers.empty())
    {
        throw AdcConfigError(who + ": servers: no servers; a rule needs at least one");
    }
    for (std::size_t i = 0; i < rule.servers.size(); ++i)
    {
        IlbServer& s = rule.servers[i];
        if (s.name.empty())
        {
            s.name = "server" + std::to_string(i);
        }
        const std::string sw = who + ": server '" + s.name + "'";
        if (s.address.GetFamily() != rule.vip.GetFamily())
        {
            throw AdcConfigError(sw + ": address '" + s.address.ToString() +
                                 "' is not of the VIP's family (" + rule.vip.ToString() + ")");
        }
        if (s.weight == 0)
        {
            throw AdcConfigError(sw + ": weight 0; the weight must be >= 1");
        }
        std::string owner;
        if (s.address == rule.vip)
        {
            owner = "this rule's VIP";
        }
        else if (auto v = m_byVip.find(s.address); v != m_byVip.end())
        {
            owner = "the VIP of rule '" + m_rules[v->second.front()].rule.name + "'";
        }
        else if (auto n = m_natOwner.find(s.address); n != m_natOwner.end())
        {
            owner = "a NAT source address of rule '" + m_rules[n->second].rule.name + "'";
        }
        if (!owner.empty())
        {
            throw AdcConfigError(sw + ": address " + s.address.ToString() + " is " + owner +
                                 "; a VIP must not overlap a server address");
        }
        for (std::size_t j = 0; j < i; ++j)
        {
            if (rule.servers[j].name == s.name)
            {
                throw AdcConfigError(sw + ": name is used twice in the rule; names must be "
                                          "unique");
            }
        }
    }
    const std::string alg = ToLower(rule.algorithm);
    if (std::find(kAlgorithms.begin(), kAlgorithms.end(), alg) == kAlgorithms.end())
    {
        throw AdcConfigError::NotOneOf(who, "algorithm", rule.algorithm, kAlgorithms);
    }
    const unsigned maxPrefix = static_cast<unsigned>(rule.vip.GetLength() * 8);
    if (rule.stickyPrefix > maxPrefix)
    {
        throw AdcConfigError(who + ": stickyPrefix /" + std::to_string(rule.stickyPrefix) +
                             " is longer than the VIP's address; allowed 0.." +
                             std::to_string(maxPrefix));
    }
    if (rule.persistTimeout.IsStrictlyNegative() || (rule.sticky && rule.persistTimeout.IsZero()))
    {
        throw AdcConfigError(who + ": persistTimeout " +
                             std::to_string(rule.persistTimeout.GetSeconds()) +
                             " s must be > 0 for a sticky rule (and never negative)");
    }
    if (rule.natTimeout.IsStrictlyNegative() || rule.connDrainTimeout.IsStrictlyNegative())
    {
        throw AdcConfigError(who + ": natTimeout and connDrainTimeout must be >= 0 (0 = "
                                   "default / no cut)");
    }
}

std::vector<AdcIpAddress>
IlbAppliance::CheckNatRange(const IlbRule& rule, uint32_t index) const
{
    const std::string who = Who(rule, index) + ": FULL_NAT";
    const AdcIpAddress& first = rule.natSourceFirst;
    const AdcIpAddress& last = rule.natSourceLast;
    if (first.IsNone() || last.IsNone())
    {
        throw AdcConfigError(who + ": natSourceFirst/natSourceLast unset; FULL_NAT needs a NAT "
                                   "source address range");
    }
    if (first.GetFamily() != rule.vip.GetFamily() || last.GetFamily() != rule.vip.GetFamily())
    {
        throw AdcConfigError(who + ": NAT range " + first.ToString() + "-" + last.ToString() +
                             " is not of the VIP's family (" + rule.vip.ToString() + ")");
    }
    if (!LessOrEqual(first, last))
    {
        throw AdcConfigError(who + ": NAT range " + first.ToString() + "-" + last.ToString() +
                             " is empty (natSourceFirst > natSourceLast)");
    }
    const uint64_t span = Span(first, last);
    if (span >= MAX_NAT_ADDRESSES)
    {
        throw AdcConfigError(who + ": NAT range " + first.ToString() + "-" + last.ToString() +
                             " holds more than " + std::to_string(MAX_NAT_ADDRESSES) +
                             " addresses; allowed 1.." + std::to_string(MAX_NAT_ADDRESSES));
    }
    rule.natPorts.Check(who + ": natPorts");
    std::vector<AdcIpAddress> addresses;
    for (uint64_t k = 0; k <= span; ++k)
    {
        const AdcIpAddress a = Offset(first, k);
        bool clash = a == rule.vip || m_byVip.count(a) != 0 || m_halfNatServers.count(a) != 0;
        for (const IlbServer& s : rule.servers)
        {
            clash = clash || s.address == a;
        }
        for (const RuleState& other : m_rules)
        {
            for (const IlbServer& s : other.rule.servers)
            {
                clash = clash || s.address == a;
            }
        }
        if (clash)
        {
            throw AdcConfigError(who + ": NAT source address " + a.ToString() +
                                 " is a VIP or server address");
        }
        auto shared = m_natPorts.find(a);
        if (shared != m_natPorts.end() && shared->second->GetRange() != rule.natPorts)
        {
            throw AdcConfigError(who + ": NAT source address " + a.ToString() +
                                 " is shared with another rule whose natPorts are " +
                                 shared->second->GetRange().ToString() + ", not " +
                                 rule.natPorts.ToString());
        }
        addresses.push_back(a);
    }
    return addresses;
}

uint32_t
IlbAppliance::AddRule(const IlbRule& rule)
{
    NS_LOG_FUNCTION(this << rule.name);
    const auto index = static_cast<uint32_t>(m_rules.size());
    RuleState st;
    st.rule = rule;
    CheckRule(st.rule, index);
    if (st.rule.topology == IlbRule::FULL_NAT)
    {
        st.natAddresses = CheckNatRange(st.rule, index);
    }
    st.rule.algorithm = ToLower(st.rule.algorithm);
    const bool equalWeights = std::all_of(rule.servers.begin(),
                                          rule.servers.end(),
                                          [](const IlbServer& s) { return s.weight == 1; });
    // roundrobin with weights becomes smooth weighted round robin (plain with equal weights).
    const std::string method = st.rule.algorithm == "roundrobin"
                                   ? (equalWeights ? "ROUNDROBIN" : "WEIGHTEDROUNDROBIN")
                                   : st.rule.algorithm;
    st.lb = AdcLbMethod::Create(method);
    st.lb->SetHashSeed(m_hashSeed);
    for (const IlbServer& s : st.rule.servers)
    {
        AdcBackend b;
        b.name = s.name;
        b.address = s.address;
        b.port = s.port;
        b.weight = s.weight;
        st.lb->AddBackend(b);
    }
    st.sticky = CreateObject<AdcPersistenceTable>();
    if (st.rule.persistTimeout.IsStrictlyPositive())
    {
        st.sticky->SetAttribute("Timeout", TimeValue(st.rule.persistTimeout));
    }
    st.servers.resize(st.rule.servers.size());
    st.serverBase = m_nServers;
    st.natTimeout =
        st.rule.natTimeout.IsStrictlyPositive()
            ? st.rule.natTimeout
            : (st.rule.protocol == AdcFlowKey::PROTO_TCP ? kTcpNatTimeout : kUdpNatTimeout);
    // Commit: indexes for the datapath.
    m_nServers += static_cast<uint32_t>(st.rule.servers.size());
    for (uint32_t s = 0; s < st.rule.servers.size(); ++s)
    {
        m_serverOwner.emplace_back(index, s);
    }
    m_byVip[st.rule.vip].push_back(index);
    if (st.rule.topology == IlbRule::HALF_NAT)
    {
        for (uint32_t s = 0; s < st.rule.servers.size(); ++s)
        {
            m_halfNatServers[st.rule.servers[s].address].emplace_back(index, s);
        }
    }
    for (const AdcIpAddress& a : st.natAddresses)
    {
        m_natOwner.emplace(a, index);
        if (m_natPorts.find(a) == m_natPorts.end())
        {
            Ptr<AdcPortAllocator> ports = CreateObject<AdcPortAllocator>();
            ports->SetRange(st.rule.natPorts);
            m_natPorts.emplace(a, ports);
        }
    }
    m_rules.push_back(std::move(st));
    UpdateTableTimeouts();
    return index;
}

void
IlbAppliance::UpdateTableTimeouts()
{
    // One table for all rules: it keeps entries as long as the longest NAT timeout of their
    // protocol; shorter rule timeouts are enforced at lookup (FindConn).
    Time tcp = kTcpNatTimeout;
    Time udp = kUdpNatTimeout;
    for (const RuleState& r : m_rules)
    {
        Time& t = r.rule.protocol == AdcFlowKey::PROTO_TCP ? tcp : udp;
        t = std::max(t, r.natTimeout);
    }
    m_table->SetAttribute("TcpIdleTimeout", TimeValue(tcp));
    m_table->SetAttribute("UdpIdleTimeout", TimeValue(udp));
    m_nat->SetAttribute("TcpIdleTimeout", TimeValue(tcp));
    m_nat->SetAttribute("UdpIdleTimeout", TimeValue(udp));
}

uint32_t
IlbAppliance::GetNRules() const
{
    return static_cast<uint32_t>(m_rules.size());
}

const IlbRule&
IlbAppliance::GetRule(uint32_t i) const
{
    if (i >= m_rules.size())
    {
        throw AdcConfigError("IlbAppliance: GetRule: rule index " + std::to_string(i) +
                             " is out of range (" + std::to_string(m_rules.size()) + " rules)");
    }
    return m_rules[i].rule;
}

int32_t
IlbAppliance::FindRule(const std::string& name) const
{
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        if (m_rules[i].rule.name == name)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

void
IlbAppliance::CheckIndex(uint32_t rule, uint32_t server, const char* what) const
{
    if (rule >= m_rules.size())
    {
        throw AdcConfigError("IlbAppliance: " + std::string(what) + ": rule index " +
                             std::to_string(rule) + " is out of range (" +
                             std::to_string(m_rules.size()) + " rules)");
    }
    if (server >= m_rules[rule].servers.size())
    {
        throw AdcConfigError(Who(m_rules[rule].rule, rule) + ": " + what + ": server index " +
                             std::to_string(server) + " is out of range (" +
                             std::to_string(m_rules[rule].servers.size()) + " servers)");
    }
}

bool
IlbAppliance::IsAvailable(uint32_t rule, uint32_t server) const
{
    const ServerState& s = m_rules[rule].servers[server];
    return s.up && s.enabled;
}

void
IlbAppliance::UpdateAvailability(uint32_t rule, uint32_t server)
{
    m_rules[rule].lb->SetBackendUp(server, IsAvailable(rule, server));
}

void
IlbAppliance::SetServerUp(uint32_t rule, uint32_t server, bool up)
{
    NS_LOG_FUNCTION(this << rule << server << up);
    CheckIndex(rule, server, "SetServerUp");
    m_rules[rule].servers[server].up = up;
    UpdateAvailability(rule, server);
}

void
IlbAppliance::SetServerEnabled(uint32_t rule, uint32_t server, bool enabled)
{
    NS_LOG_FUNCTION(this << rule << server << enabled);
    CheckIndex(rule, server, "SetServerEnabled");
    RuleState& r = m_rules[rule];
    ServerState& s = r.servers[server];
    if (s.enabled == enabled)
    {
        return;
    }
    s.enabled = enabled;
    ++s.drainGen;
    s.drainEvent.Cancel();
    UpdateAvailability(rule, server);
    if (!enabled && r.rule.connDrainTimeout.IsStrictlyPositive())
    {
        s.drainEvent = Simulator::Schedule(r.rule.connDrainTimeout,
                                           &IlbAppliance::DrainDeadline,
                                           Ptr<IlbAppliance>(this),
                                           rule,
                                           server,
                                           s.drainGen);
    }
}

void
IlbAppliance::DrainDeadline(uint32_t rule, uint32_t server, uint64_t gen)
{
    if (rule >= m_rules.size())
    {
        return; // disposed
    }
    RuleState& r = m_rules[rule];
    ServerState& s = r.servers[server];
    if (s.enabled || s.drainGen != gen)
    {
        return;
    }
    // RemoveBackend walks the table's LRU lists: a deterministic order for the traces.
    const uint32_t n =
        m_nat->RemoveServer(r.serverBase + server) + m_table->RemoveBackend(r.serverBase + server);
    NS_LOG_LOGIC("rule " << r.rule.name << " server " << server << ": drained " << n);
    s.counters.drained += n;
    r.counters.drained += n;
}

bool
IlbAppliance::IsServerUp(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "IsServerUp");
    return m_rules[rule].servers[server].up;
}

bool
IlbAppliance::IsServerEnabled(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "IsServerEnabled");
    return m_rules[rule].servers[server].enabled;
}

IlbAppliance::Counters
IlbAppliance::GetRuleCounters(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].counters;
}

IlbAppliance::Counters
IlbAppliance::GetServerCounters(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "GetServerCounters");
    return m_rules[rule].servers[server].counters;
}

uint64_t
IlbAppliance::GetNatExhausted(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].natExhausted;
}

uint32_t
IlbAppliance::GetActiveConnections(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "GetActiveConnections");
    const uint32_t id = m_rules[rule].serverBase + server;
    return m_nat->CountServer(id) + m_table->CountBackend(id);
}

Ptr<AdcConnectionTable>
IlbAppliance::GetConnectionTable() const
{
    return m_table;
}

Ptr<IlbNatTable>
IlbAppliance::GetNatTable() const
{
    return m_nat;
}

void
IlbAppliance::SetCompactIpv4Table(bool compact)
{
    if (compact != m_compactIpv4 && GetConnectionCount() != 0)
    {
        throw AdcConfigError("IlbAppliance: CompactIpv4Table '" +
                             std::string(compact ? "true" : "false") + "' cannot change while " +
                             std::to_string(GetConnectionCount()) +
                             " connections exist; allowed only before the first connection");
    }
    m_compactIpv4 = compact;
}

bool
IlbAppliance::GetCompactIpv4Table() const
{
    return m_compactIpv4;
}

bool
IlbAppliance::UsesNat(const AdcFlowKey& k) const
{
    return m_compactIpv4 && k.src.IsV4();
}

uint32_t
IlbAppliance::GetConnectionCount() const
{
    return (m_nat ? m_nat->GetSize() : 0) + (m_table ? m_table->GetSize() : 0);
}

Ptr<AdcPersistenceTable>
IlbAppliance::GetPersistenceTable(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].sticky;
}

Ptr<AdcPortAllocator>
IlbAppliance::GetNatPortAllocator(const AdcIpAddress& address) const
{
    auto it = m_natPorts.find(address);
    return it == m_natPorts.end() ? nullptr : it->second;
}

Ptr<Ipv4RoutingProtocol>
IlbAppliance::GetIpv4Routing()
{
    if (!m_ipv4Routing)
    {
        m_ipv4Routing = CreateObject<IlbIpv4Routing>();
        m_ipv4Routing->Attach(this);
    }
    return m_ipv4Routing;
}

Ptr<Ipv6RoutingProtocol>
IlbAppliance::GetIpv6Routing()
{
    if (!m_ipv6Routing)
    {
        m_ipv6Routing = CreateObject<IlbIpv6Routing>();
        m_ipv6Routing->Attach(this);
    }
    return m_ipv6Routing;
}

void
IlbAppliance::SetHashSeed(uint64_t seed)
{
    m_hashSeed = seed;
    for (RuleState& r : m_rules)
    {
        r.lb->SetHashSeed(seed);
    }
}

uint64_t
IlbAppliance::GetHashSeed() const
{
    return m_hashSeed;
}

void
IlbAppliance::SetMaxConnections(uint32_t n)
{
    m_maxConnections = n;
    m_table->SetAttribute("MaxEntries", UintegerValue(n));
}

uint32_t
IlbAppliance::GetMaxConnections() const
{
    return m_maxConnections;
}

int64_t
IlbAppliance::AssignStreams(int64_t /* stream */)
{
    return 0;
}

void
IlbAppliance::Print(std::ostream& os) const
{
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        const RuleState& r = m_rules[i];
        const IlbRule& rule = r.rule;
        os << "#" << i << " " << rule.name << " " << rule.vip << ":" << rule.ports
           << (rule.protocol == AdcFlowKey::PROTO_TCP ? " tcp " : " udp ")
           << IlbRule::TopologyToString(rule.topology) << " " << rule.algorithm
           << (rule.sticky ? " sticky/" + std::to_string(rule.stickyPrefix) : "");
        if (rule.topology == IlbRule::FULL_NAT)
        {
            os << " nat " << rule.natSourceFirst << "-" << rule.natSourceLast << ":"
               << rule.natPorts;
        }
        os << " in=" << r.counters.packetsIn << " out=" << r.counters.packetsOut
           << " conns=" << r.counters.connections << " drops=" << r.counters.drops << "\n";
        for (uint32_t s = 0; s < rule.servers.size(); ++s)
        {
            const IlbServer& srv = rule.servers[s];
            os << "   " << srv.name << " " << srv.address << ":" << srv.port
               << (r.servers[s].up ? " up" : " down") << (r.servers[s].enabled ? "" : " disabled")
               << " active=" << GetActiveConnections(i, s) << "\n";
        }
    }
}

// ---------------------------------------------------------------------------------------------
// IlbAppliance: the engine

IlbAppliance::Ingress
IlbAppliance::Describe(const AdcIpAddress& src,
                       const AdcIpAddress& dst,
                       uint8_t protocol,
                       Ptr<const Packet> p,
                       bool fragment,
                       uint32_t ipHeaderBytes)
{
    Ingress in;
    in.flow = AdcFlowKey(src, dst, 0, 0, protocol);
    in.packet = p;
    in.bytes = (p ? p->GetSize() : 0) + ipHeaderBytes;
    if (!HasPorts(protocol))
    {
        in.status = TransportStatus::NO_PORTS;
        return in;
    }
    if (fragment)
    {
        in.status = TransportStatus::FRAGMENT;
        return in;
    }
    const TransportRead r = ReadTransport(p, protocol);
    static const TransportStatus kStatus[] = {TransportStatus::OK,
                                              TransportStatus::TRUNCATED,
                                              TransportStatus::MALFORMED};
    in.status = kStatus[r.status];
    if (in.status == TransportStatus::OK)
    {
        in.flow.srcPort = r.src;
        in.flow.dstPort = r.dst;
        in.tcpFlags = r.flags;
        in.tcpSeq = r.seq;
        in.tcpAck = r.ack;
        in.tcpPayload = r.payload;
    }
    return in;
}

bool
IlbAppliance::Process(const Ingress& in, const SendFn& send)
{
    if (in.status == TransportStatus::NO_PORTS || m_rules.empty())
    {
        return false;
    }
    if (in.status != TransportStatus::OK)
    {
        // Claim only what would be ILB traffic: a rule's VIP or a NAT rule's response.
        int32_t server = -1;
        int32_t rule = MatchVip(in.flow);
        if (rule < 0)
        {
            rule = MatchOrphan(in.flow, false, server);
        }
        if (rule < 0)
        {
            return false;
        }
        Drop(rule,
             server,
             in.packet,
             in.status == TransportStatus::FRAGMENT    ? "fragment-unsupported"
             : in.status == TransportStatus::MALFORMED ? "malformed-transport-header"
                                                       : "truncated-transport-header");
        return true;
    }
    const Time now = Simulator::Now();
    Conn c;
    if (FindConn(in.flow, false, now, c))
    {
        if ((*c.tcp & IlbNatTable::CLOSED) && in.flow.protocol == AdcFlowKey::PROTO_TCP &&
            (in.tcpFlags & (TCP_SYN | TCP_ACK)) == TCP_SYN)
        {
            RemoveConn(in.flow); // a new connection reuses a closed 5-tuple
        }
        else
        {
            return ProcessRequest(c, in, send);
        }
    }
    if (FindConn(in.flow, true, now, c))
    {
        return ProcessResponse(c, in, send);
    }
    const int32_t rule = MatchRule(in.flow);
    if (rule >= 0)
    {
        return ProcessNewFlow(static_cast<uint32_t>(rule), in, send);
    }
    int32_t server = -1;
    const int32_t orphan = MatchOrphan(in.flow, true, server);
    if (orphan >= 0)
    {
        // A NAT rule's response without a connection must not leak the server's address.
        Drop(orphan, server, in.packet, "no-connection");
        return true;
    }
    return false;
}

bool
IlbAppliance::FindConn(const AdcFlowKey& k, bool reply, Time now, Conn& c)
{
    if (UsesNat(k))
    {
        Time idle;
        const uint32_t i =
            reply ? m_nat->LookupReply(k, now, &idle) : m_nat->LookupOriginal(k, now, &idle);
        if (i == IlbNatTable::NONE)
        {
            return false;
        }
        IlbNatTable::Record& r = m_nat->GetMutable(i);
        std::tie(c.rule, c.server) = m_serverOwner[r.server];
        if (idle > m_rules[c.rule].natTimeout)
        {
            m_nat->Remove(i);
            return false;
        }
        c.nat = i;
        c.original = m_nat->GetOriginal(i);
        c.translated = m_nat->GetTranslated(i);
        c.tcp = &r.flags;
        c.finAck = r.finAck;
        return true;
    }
    AdcConnectionTable::Entry* e =
        reply ? m_table->LookupReply(k, now) : m_table->LookupOriginal(k, now);
    if (!e)
    {
        return false;
    }
    auto it = m_flows.find(e->original);
    if (it == m_flows.end())
    {
        return false;
    }
    Flow& f = it->second;
    if (now - f.lastSeen > m_rules[f.rule].natTimeout)
    {
        const AdcFlowKey key = e->original; // Remove invalidates the entry
        m_table->Remove(key);
        return false;
    }
    f.lastSeen = now;
    c.nat = IlbNatTable::NONE;
    c.original = e->original;
    c.translated = e->translated;
    c.rule = f.rule;
    c.server = f.server;
    c.tcp = &f.tcp;
    c.finAck = f.finAck;
    return true;
}

bool
IlbAppliance::FindTcpState(const AdcFlowKey& original, uint8_t*& tcp, uint64_t& id)
{
    if (UsesNat(original))
    {
        const uint32_t i = m_nat ? m_nat->Find(original) : IlbNatTable::NONE;
        if (i == IlbNatTable::NONE)
        {
            return false;
        }
        IlbNatTable::Record& r = m_nat->GetMutable(i);
        tcp = &r.flags;
        id = r.serial;
        return true;
    }
    auto it = m_flows.find(original);
    if (!m_table || it == m_flows.end())
    {
        return false;
    }
    tcp = &it->second.tcp;
    id = it->second.id;
    return true;
}

void
IlbAppliance::RemoveConn(const AdcFlowKey& original)
{
    if (UsesNat(original))
    {
        m_nat->Remove(original);
    }
    else
    {
        m_table->Remove(original);
    }
}

int32_t
IlbAppliance::MatchVip(const AdcFlowKey& flow) const
{
    auto it = m_byVip.find(flow.dst);
    if (it == m_byVip.end())
    {
        return -1;
    }
    for (uint32_t r : it->second)
    {
        if (m_rules[r].rule.protocol == flow.protocol)
        {
            return static_cast<int32_t>(r);
        }
    }
    return -1;
}

int32_t
IlbAppliance::MatchRule(const AdcFlowKey& flow) const
{
    auto it = m_byVip.find(flow.dst);
    if (it == m_byVip.end())
    {
        return -1;
    }
    for (uint32_t r : it->second)
    {
        const IlbRule& rule = m_rules[r].rule;
        if (rule.protocol == flow.protocol && rule.ports.Contains(flow.dstPort))
        {
            return static_cast<int32_t>(r);
        }
    }
    return -1;
}

int32_t
IlbAppliance::MatchOrphan(const AdcFlowKey& flow, bool portsKnown, int32_t& server) const
{
    server = -1;
    auto nat = m_natOwner.find(flow.dst);
    if (nat != m_natOwner.end())
    {
        const IlbRule& rule = m_rules[nat->second].rule;
        if (rule.protocol == flow.protocol && (!portsKnown || rule.natPorts.Contains(flow.dstPort)))
        {
            return static_cast<int32_t>(nat->second);
        }
    }
    auto half = m_halfNatServers.find(flow.src);
    if (half == m_halfNatServers.end())
    {
        return -1;
    }
    for (const auto& [r, s] : half->second)
    {
        const IlbRule& rule = m_rules[r].rule;
        const uint16_t port = rule.servers[s].port;
        const bool servicePort =
            port != 0 ? flow.srcPort == port : rule.ports.Contains(flow.srcPort);
        if (rule.protocol == flow.protocol && (!portsKnown || servicePort))
        {
            server = static_cast<int32_t>(s);
            return static_cast<int32_t>(r);
        }
    }
    return -1;
}

IlbAppliance::TcpEnd
IlbAppliance::TrackTcp(const Conn& c, Direction dir, const Ingress& in)
{
    if (in.tcpFlags & TCP_RST)
    {
        return TcpEnd::RESET;
    }
    const Direction other = dir == FROM_CLIENT ? FROM_SERVER : FROM_CLIENT;
    uint8_t& tcp = *c.tcp;
    if (in.tcpFlags & TCP_FIN)
    {
        tcp |= static_cast<uint8_t>(IlbNatTable::FIN_CLIENT << dir);
        // The FIN takes the sequence number after the segment's data.
        c.finAck[dir] = in.tcpSeq + in.tcpPayload + 1;
    }
    if ((in.tcpFlags & TCP_ACK) && (tcp & (IlbNatTable::FIN_CLIENT << other)) &&
        static_cast<int32_t>(in.tcpAck - c.finAck[other]) >= 0)
    {
        tcp |= static_cast<uint8_t>(IlbNatTable::FIN_CLIENT_ACKED << other);
    }
    constexpr uint8_t kBoth = IlbNatTable::FIN_CLIENT | IlbNatTable::FIN_SERVER |
                              IlbNatTable::FIN_CLIENT_ACKED | IlbNatTable::FIN_SERVER_ACKED;
    return (tcp & kBoth) == kBoth ? TcpEnd::CLOSED : TcpEnd::OPEN;
}

void
IlbAppliance::EndConnection(const AdcFlowKey& original, TcpEnd end)
{
    uint8_t* tcp = nullptr;
    uint64_t id = 0;
    if (end == TcpEnd::OPEN || !FindTcpState(original, tcp, id) || (*tcp & IlbNatTable::CLOSED))
    {
        return;
    }
    if (end == TcpEnd::RESET || !m_tcpTimeWait.IsStrictlyPositive())
    {
        RemoveConn(original);
        return;
    }
    *tcp |= IlbNatTable::CLOSED;
    Simulator::Schedule(m_tcpTimeWait,
                        &IlbAppliance::TimeWaitOver,
                        Ptr<IlbAppliance>(this),
                        original,
                        id);
}

void
IlbAppliance::TimeWaitOver(AdcFlowKey original, uint64_t id)
{
    uint8_t* tcp = nullptr;
    uint64_t now = 0;
    if (FindTcpState(original, tcp, now) && now == id)
    {
        RemoveConn(original);
    }
}

bool
IlbAppliance::Forward(uint32_t rule,
                      uint32_t server,
                      const Egress& e,
                      const Ingress& in,
                      bool request,
                      const SendFn& send)
{
    const std::string reason = send(e);
    if (!reason.empty())
    {
        Drop(static_cast<int32_t>(rule), static_cast<int32_t>(server), in.packet, reason);
        return false;
    }
    Count(rule, server, in.bytes, request);
    if (e.rewrite)
    {
        m_rewriteTrace(m_rules[rule].rule.name,
                       request ? "request" : "response",
                       e.before,
                       e.after);
    }
    return true;
}

bool
IlbAppliance::ProcessRequest(const Conn& c, const Ingress& in, const SendFn& send)
{
    const uint32_t rule = c.rule;
    const uint32_t server = c.server;
    const RuleState& r = m_rules[rule];
    m_ruleMatchTrace(r.rule.name, in.flow);
    if (!r.servers[server].up)
    {
        RemoveConn(c.original);
        Drop(static_cast<int32_t>(rule), static_cast<int32_t>(server), in.packet, "server-down");
        return true;
    }
    const TcpEnd end =
        c.original.protocol == AdcFlowKey::PROTO_TCP ? TrackTcp(c, FROM_CLIENT, in) : TcpEnd::OPEN;
    const bool dsr = r.rule.topology == IlbRule::DSR;
    Egress e;
    e.before = in.flow;
    e.after = c.translated;
    e.gateway = dsr ? r.rule.servers[server].address : AdcIpAddress();
    e.rewrite = !dsr;
    Forward(rule, server, e, in, true, send);
    EndConnection(c.original, end);
    return true;
}

bool
IlbAppliance::ProcessResponse(const Conn& c, const Ingress& in, const SendFn& send)
{
    const uint32_t rule = c.rule;
    const uint32_t server = c.server;
    const RuleState& r = m_rules[rule];
    if (!r.servers[server].up)
    {
        RemoveConn(c.original);
        Drop(static_cast<int32_t>(rule), static_cast<int32_t>(server), in.packet, "server-down");
        return true;
    }
    const TcpEnd end =
        c.original.protocol == AdcFlowKey::PROTO_TCP ? TrackTcp(c, FROM_SERVER, in) : TcpEnd::OPEN;
    bool claimed = true;
    if (r.rule.topology == IlbRule::DSR)
    {
        // The ILB is also the router: the response goes on unchanged by ordinary routing.
        Count(rule, server, in.bytes, false);
        claimed = false;
    }
    else
    {
        Egress e;
        e.before = in.flow;
        e.after = c.original.Reversed(); // VIP:port -> client:port, for both NAT topologies
        e.rewrite = true;
        Forward(rule, server, e, in, false, send);
    }
    EndConnection(c.original, end);
    return claimed;
}

int32_t
IlbAppliance::ChooseServer(uint32_t rule, const AdcFlowKey& flow, Time now)
{
    RuleState& r = m_rules[rule];
    std::optional<AdcPersistenceKey> key;
    if (r.rule.sticky)
    {
        key = AdcPersistenceKey::FromSourceIp(flow.src, r.rule.stickyPrefix);
        const std::optional<uint32_t> target = r.sticky->Lookup(*key, now);
        if (target && *target < r.servers.size() && IsAvailable(rule, *target))
        {
            return static_cast<int32_t>(*target);
        }
    }
    AdcLbContext ctx;
    ctx.flow = flow;
    const int32_t server = r.lb->Select(ctx);
    if (server >= 0 && key)
    {
        r.sticky->Insert(*key, static_cast<uint32_t>(server), now, r.rule.persistTimeout);
    }
    return server;
}

bool
IlbAppliance::AllocateNat(uint32_t rule, Flow& flow)
{
    RuleState& r = m_rules[rule];
    const auto n = static_cast<uint32_t>(r.natAddresses.size());
    for (uint32_t k = 0; k < n; ++k)
    {
        const uint32_t i = (r.natCursor + k) % n;
        const AdcIpAddress& a = r.natAddresses[i];
        if (std::optional<uint16_t> port = m_natPorts.at(a)->Allocate())
        {
            flow.natAddress = a;
            flow.natPort = *port;
            r.natCursor = (i + 1) % n; // round robin over the NAT source addresses
            return true;
        }
    }
    return false;
}

AdcFlowKey
IlbAppliance::Translate(uint32_t rule,
                        uint32_t server,
                        const AdcFlowKey& flow,
                        const Flow& nat) const
{
    const IlbRule& r = m_rules[rule].rule;
    const IlbServer& s = r.servers[server];
    const uint16_t port = s.port != 0 ? s.port : flow.dstPort;
    switch (r.topology)
    {
    case IlbRule::DSR:
        return flow;
    case IlbRule::HALF_NAT:
        return AdcFlowKey(flow.src, s.address, flow.srcPort, port, flow.protocol);
    case IlbRule::FULL_NAT:
    default:
        return AdcFlowKey(nat.natAddress, s.address, nat.natPort, port, flow.protocol);
    }
}

bool
IlbAppliance::ProcessNewFlow(uint32_t rule, const Ingress& in, const SendFn& send)
{
    RuleState& r = m_rules[rule];
    const auto irule = static_cast<int32_t>(rule);
    m_ruleMatchTrace(r.rule.name, in.flow);
    if (in.flow.protocol == AdcFlowKey::PROTO_TCP &&
        (in.tcpFlags & (TCP_SYN | TCP_ACK | TCP_RST | TCP_FIN)) != TCP_SYN)
    {
        Drop(irule, -1, in.packet, "no-connection"); // only a SYN opens a TCP connection
        return true;
    }
    const Time now = Simulator::Now();
    const int32_t server = ChooseServer(rule, in.flow, now);
    if (server < 0)
    {
        Drop(irule, -1, in.packet, "no-server-up");
        return true;
    }
    const auto userver = static_cast<uint32_t>(server);
    Flow f;
    f.rule = rule;
    f.server = userver;
    f.lastSeen = now;
    f.id = m_nextFlowId++;
    if (r.rule.topology == IlbRule::FULL_NAT && !AllocateNat(rule, f))
    {
        ++r.natExhausted;
        m_natExhaustedTrace(r.rule.name);
        Drop(irule, server, in.packet, "nat-ports-exhausted");
        return true;
    }
    const AdcFlowKey translated = Translate(rule, userver, in.flow, f);
    const std::string refused = InsertConn(in.flow, translated, f, now);
    if (!refused.empty())
    {
        if (f.natPort != 0)
        {
            m_natPorts.at(f.natAddress)->Release(f.natPort);
        }
        Drop(irule, server, in.packet, refused);
        return true;
    }
    ++r.counters.connections;
    ++r.servers[userver].counters.connections;
    m_serverChosenTrace(r.rule.name, in.flow, userver, r.rule.servers[userver].name);
    const bool dsr = r.rule.topology == IlbRule::DSR;
    Egress e;
    e.before = in.flow;
    e.after = translated;
    e.gateway = dsr ? r.rule.servers[userver].address : AdcIpAddress();
    e.rewrite = !dsr;
    if (!Forward(rule, userver, e, in, true, send))
    {
        RemoveConn(in.flow);
    }
    return true;
}

std::string
IlbAppliance::InsertConn(const AdcFlowKey& original,
                         const AdcFlowKey& translated,
                         const Flow& f,
                         Time now)
{
    // MaxConnections bounds both tables together.
    const uint32_t id = m_rules[f.rule].serverBase + f.server;
    if (m_maxConnections != 0 && GetConnectionCount() >= m_maxConnections)
    {
        m_nat->Purge(now); // idle entries do not count
        m_table->Purge(now);
        if (GetConnectionCount() >= m_maxConnections)
        {
            return "connection-table-full";
        }
    }
    if (UsesNat(original))
    {
        IlbNatTable::InsertError err = IlbNatTable::InsertError::NONE;
        if (m_nat->Insert(original, translated, id, now, &err) == IlbNatTable::NONE)
        {
            return err == IlbNatTable::InsertError::FULL ? "connection-table-full"
                                                         : "reply-key-collision";
        }
        return "";
    }
    const uint64_t overflows = m_table->GetOverflowCount();
    if (!m_table->Insert(original, translated, id, now))
    {
        return m_table->GetOverflowCount() != overflows ? "connection-table-full"
                                                        : "reply-key-collision";
    }
    m_flows[original] = f;
    return "";
}

void
IlbAppliance::ForgetNat(uint32_t index, bool)
{
    const IlbNatTable::Record& r = m_nat->Get(index);
    if (r.server >= m_serverOwner.size())
    {
        return; // disposed
    }
    const uint32_t rule = m_serverOwner[r.server].first;
    m_connectionEndedTrace(m_rules[rule].rule.name, m_nat->GetOriginal(index));
    if (m_rules[rule].rule.topology != IlbRule::FULL_NAT)
    {
        return;
    }
    // Full-NAT: the translated source is the NAT address and port the flow held.
    auto ports = m_natPorts.find(AdcIpAddress(Ipv4Address(r.xlatSrc)));
    if (ports != m_natPorts.end())
    {
        ports->second->Release(r.xlatSport);
    }
}

void
IlbAppliance::ForgetFlow(const AdcConnectionTable::Entry& entry)
{
    auto it = m_flows.find(entry.original);
    if (it == m_flows.end())
    {
        return;
    }
    const Flow& f = it->second;
    if (f.rule < m_rules.size())
    {
        m_connectionEndedTrace(m_rules[f.rule].rule.name, entry.original);
    }
    if (f.natPort != 0)
    {
        auto ports = m_natPorts.find(f.natAddress);
        if (ports != m_natPorts.end())
        {
            ports->second->Release(f.natPort);
        }
    }
    m_flows.erase(it);
}

void
IlbAppliance::Count(uint32_t rule, uint32_t server, uint32_t bytes, bool in)
{
    for (Counters* c : {&m_rules[rule].counters, &m_rules[rule].servers[server].counters})
    {
        if (in)
        {
            ++c->packetsIn;
            c->bytesIn += bytes;
        }
        else
        {
            ++c->packetsOut;
            c->bytesOut += bytes;
        }
    }
}

void
IlbAppliance::Drop(int32_t rule,
                   int32_t server,
                   Ptr<const Packet> packet,
                   const std::string& reason)
{
    NS_LOG_LOGIC("drop (rule " << rule << ", server " << server << "): " << reason);
    if (rule >= 0)
    {
        RuleState& r = m_rules[rule];
        ++r.counters.drops;
        if (server >= 0)
        {
            ++r.servers[server].counters.drops;
        }
    }
    m_dropTrace(packet, reason);
}

} // namespace ns3
