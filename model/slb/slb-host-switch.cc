/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-host-switch.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-vxlan-header.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-packet-info-tag.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-packet-info-tag.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-header.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlbHostSwitch");

NS_OBJECT_ENSURE_REGISTERED(SlbHostSwitch);

namespace
{

/// The largest VNI (24 bits).
constexpr uint32_t kMaxVni = (1U << 24) - 1;
/// The largest VLAN id (802.1Q: 4095 is reserved).
constexpr uint16_t kMaxVlan = 4094;
/// IP and TCP header sizes for the MSS arithmetic.
constexpr uint32_t kIpv4HeaderBytes = 20;
constexpr uint32_t kIpv6HeaderBytes = 40;
constexpr uint32_t kTcpHeaderBytes = 20;

const std::string kWho = "SlbHostSwitch: ";

/**
 * \param payload the outer IP payload of a well-formed VXLAN frame
 * \return the inner packet's 5-tuple (ports 0 when it has none or is a later fragment)
 */
AdcFlowKey
InnerFlow(Ptr<const Packet> payload)
{
    // Inner IP header (IPv4 up to 60 bytes, IPv6 40) and the 4 port bytes after it.
    uint8_t b[kSlbVxlanHeaderBytes + 64] = {};
    const uint32_t n = payload->CopyData(b, sizeof(b));
    const uint8_t* ip = b + kSlbVxlanHeaderBytes;
    AdcFlowKey k;
    uint32_t ports = 0;
    if ((ip[0] >> 4) == 6)
    {
        k = AdcFlowKey(Ipv6Address(const_cast<uint8_t*>(ip + 8)),
                       Ipv6Address(const_cast<uint8_t*>(ip + 24)),
                       0,
                       0,
                       ip[6]);
        ports = kSlbVxlanHeaderBytes + kIpv6HeaderBytes;
    }
    else
    {
        k = AdcFlowKey(Ipv4Address::Deserialize(ip + 12),
                       Ipv4Address::Deserialize(ip + 16),
                       0,
                       0,
                       ip[9]);
        const bool laterFragment = ((ip[6] & 0x1f) | ip[7]) != 0;
        ports = laterFragment ? sizeof(b) : kSlbVxlanHeaderBytes + (ip[0] & 0x0f) * 4U;
    }
    if (AdcHasPorts(k.protocol) && ports + 4 <= n)
    {
        k.srcPort = static_cast<uint16_t>((b[ports] << 8) | b[ports + 1]);
        k.dstPort = static_cast<uint16_t>((b[ports + 2] << 8) | b[ports + 3]);
    }
    return k;
}

/// \param key a VIP or DIP key \param address an address \param port a port \return the key
/// with them
SlbVipKey
KeyOf(uint8_t protocol, const AdcIpAddress& address, uint16_t port)
{
    SlbVipKey k;
    k.vip = address;
    k.protocol = protocol;
    k.port = port;
    return k;
}

} // namespace

uint64_t
SlbHostSwitchCounters::TotalDrops() const
{
    uint64_t total = 0;
    for (const auto& [reason, count] : drops)
    {
        total += count;
    }
    return total;
}

TypeId
SlbHostSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SlbHostSwitch")
            .SetParent<AdcDatapath>()
            .SetGroupName("Adc")
            .AddConstructor<SlbHostSwitch>()
            .AddAttribute("ProviderMtu",
                          "MTU of the provider (physical) network, bytes: a SYN's MSS is clamped "
                          "to it minus the VXLAN overhead and the inner IP and TCP headers, and a "
                          "Fastpath packet whose VXLAN packet would exceed it is dropped "
                          "(\"vxlan-mtu-exceeded\": VTEPs do not fragment, RFC 7348 4.3).",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&SlbHostSwitch::m_providerMtu),
                          MakeUintegerChecker<uint32_t>(576, 65535))
            .AddAttribute("ClampMss",
                          "Lower the MSS option of SYN and SYN-ACK segments the switch translates "
                          "so that full segments fit the provider MTU inside VXLAN.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SlbHostSwitch::m_clampMss),
                          MakeBooleanChecker())
            .AddAttribute("FastpathIdleTimeout",
                          "A Fastpath entry unused for longer than this is removed: the flow's "
                          "next packet goes to the VIP through a MUX again. 0: never.",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&SlbHostSwitch::m_fastpathIdle),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MuxChoiceIdleTimeout",
                          "How long the switch remembers the VM a MUX named for a flow (the "
                          "inner Ethernet destination) after the flow's last VXLAN frame.",
                          TimeValue(Seconds(300)),
                          MakeTimeAccessor(&SlbHostSwitch::m_muxChoiceIdle),
                          MakeTimeChecker(Seconds(1)))
            .AddAttribute("VxlanPort",
                          "UDP port the switch receives VXLAN on (RFC 7348: 4789). Read by "
                          "Install.",
                          UintegerValue(kVxlanPort),
                          MakeUintegerAccessor(&SlbHostSwitch::m_vxlanPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("ReassemblyTimeout",
                          "How long the fragments of a datagram wait for the rest, from the first "
                          "(Linux's net.ipv4.ipfrag_time, 30 s); then all are dropped "
                          "(\"frag-timeout\").",
                          TimeValue(Seconds(30)),
                          MakeTimeAccessor(&SlbHostSwitch::m_reasmTimeout),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("ReassemblyMemory",
                          "Payload bytes the fragments being reassembled may hold (Linux's "
                          "net.ipv4.ipfrag_high_thresh, 4 MiB); a fragment beyond it is dropped "
                          "(\"frag-memory\").",
                          UintegerValue(4u << 20),
                          MakeUintegerAccessor(&SlbHostSwitch::m_reasmMemory),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("Reassembly",
                            "A fragmented datagram was reassembled, translated when a rule "
                            "matched, and sent in fragments again: 5-tuple before and after, "
                            "fragments in and out.",
                            MakeTraceSourceAccessor(&SlbHostSwitch::m_reasmTrace),
                            "ns3::SlbHostSwitch::ReassemblyTracedCallback")
            .AddTraceSource("Decapsulate",
                            "A VXLAN frame was decapsulated: outer source, VNI, inner 5-tuple.",
                            MakeTraceSourceAccessor(&SlbHostSwitch::m_decapTrace),
                            "ns3::SlbHostSwitch::DecapsulateTracedCallback")
            .AddTraceSource("HostNat",
                            "A packet was translated: \"in\" VIP -> DIP or \"out\" DIP -> VIP, "
                            "the 5-tuple before and after.",
                            MakeTraceSourceAccessor(&SlbHostSwitch::m_natTrace),
                            "ns3::SlbHostSwitch::HostNatTracedCallback")
            .AddTraceSource("Fastpath",
                            "A VM's packet was tunnelled straight to the DIP's host.",
                            MakeTraceSourceAccessor(&SlbHostSwitch::m_fastpathTrace),
                            "ns3::SlbHostSwitch::FastpathTracedCallback")
            .AddTraceSource("MssClamp",
                            "The MSS option of a SYN or SYN-ACK was lowered: flow, old, new.",
                            MakeTraceSourceAccessor(&SlbHostSwitch::m_mssTrace),
                            "ns3::SlbHostSwitch::MssClampTracedCallback");
    return tid;
}

SlbHostSwitch::SlbHostSwitch()
    : m_providerMtu(1500),
      m_clampMss(true),
      m_vxlanPort(kVxlanPort),
      m_reasmTimeout(Seconds(30)),
      m_reasmMemory(4u << 20)
{
    NS_LOG_FUNCTION(this);
}

SlbHostSwitch::~SlbHostSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
SlbHostSwitch::DoDispose()
{
    m_reasmEvent.Cancel();
    // The node's UDP layer owns and disposes of the sockets (it may already have).
    for (Ptr<Socket>* s : {&m_socket4, &m_socket6})
    {
        if (*s)
        {
            (*s)->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            *s = nullptr;
        }
    }
    AdcDatapath::DoDispose();
}

Ptr<Socket>
SlbHostSwitch::OpenVxlanSocket(AdcIpAddress::Family family)
{
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    const int bound = family == AdcIpAddress::V4
                          ? s->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_vxlanPort))
                          : s->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), m_vxlanPort));
    if (bound != 0)
    {
        throw AdcConfigError(kWho + "Install: VxlanPort " + std::to_string(m_vxlanPort) +
                             " is already bound on node " + std::to_string(GetNode()->GetId()) +
                             "; allowed: a UDP port no other socket of the host uses");
    }
    s->SetRecvPktInfo(true);
    s->SetRecvCallback(MakeCallback(&SlbHostSwitch::ReceiveVxlan, this));
    return s;
}

uint32_t
SlbHostSwitch::CountInterfaces(Ptr<Node> node, const AdcIpAddress& address)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    if (address.IsV4())
    {
        return ipv4 ? ipv4->GetNInterfaces() : 0;
    }
    return ipv6 ? ipv6->GetNInterfaces() : 0;
}

void
SlbHostSwitch::CheckNode(Ptr<Node> node) const
{
    for (const VmPort& port : m_ports)
    {
        if (port.interface >= CountInterfaces(node, port.address))
        {
            throw AdcConfigError(kWho + "Install: the port of VM " + port.address.ToString() +
                                 " is interface " + std::to_string(port.interface) +
                                 ", which node " + std::to_string(node->GetId()) +
                                 " lacks; allowed: an interface of the host towards the VM");
        }
    }
}

void
SlbHostSwitch::NotifyInstalled(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    // The IP layers' "Rx" traces show each received packet with its header, just before the
    // header is removed and the same packet is routed (and so reaches Process): the fragment
    // fields (identification, offset, flags) come from there.
    if (Ptr<Ipv4> ip = node->GetObject<Ipv4>())
    {
        m_socket4 = OpenVxlanSocket(AdcIpAddress::V4);
        ip->TraceConnectWithoutContext("Rx", MakeCallback(&SlbHostSwitch::RxIpv4, this));
    }
    if (Ptr<Ipv6> ip = node->GetObject<Ipv6>())
    {
        m_socket6 = OpenVxlanSocket(AdcIpAddress::V6);
        ip->TraceConnectWithoutContext("Rx", MakeCallback(&SlbHostSwitch::RxIpv6, this));
    }
}

void
SlbHostSwitch::ReceiveVxlan(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> p = socket->RecvFrom(from))
    {
        AdcIpAddress src;
        AdcIpAddress dst;
        uint16_t srcPort = 0;
        uint32_t ifIndex = 0;
        if (InetSocketAddress::IsMatchingType(from))
        {
            const InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
            Ipv4PacketInfoTag tag;
            p->RemovePacketTag(tag);
            src = a.GetIpv4();
            srcPort = a.GetPort();
            dst = tag.GetAddress();
            ifIndex = tag.GetRecvIf();
        }
        else
        {
            const Inet6SocketAddress a = Inet6SocketAddress::ConvertFrom(from);
            Ipv6PacketInfoTag tag;
            p->RemovePacketTag(tag);
            src = a.GetIpv6();
            srcPort = a.GetPort();
            dst = tag.GetAddress();
            ifIndex = tag.GetRecvIf();
        }
        Ptr<Node> node = GetNode();
        Ptr<NetDevice> device = node->GetDevice(ifIndex);
        const int32_t interface = src.IsV4()
                                      ? node->GetObject<Ipv4>()->GetInterfaceForDevice(device)
                                      : node->GetObject<Ipv6>()->GetInterfaceForDevice(device);
        // The UDP layer took its header off: put it back, so the datapath sees the IP payload
        // as it came (the checksum was checked by the UDP layer; a length field disagreeing
        // with the datagram is not kept by ns-3's UDP, so the rebuilt one is the datagram's).
        UdpHeader udp;
        udp.SetSourcePort(srcPort);
        udp.SetDestinationPort(m_vxlanPort);
        p->AddHeader(udp);
        if (interface < 0 ||
            !ProcessLocal(p, src, dst, AdcFlowKey::PROTO_UDP, static_cast<uint32_t>(interface)))
        {
            ++m_counters.drops["vxlan-no-interface"]; // not from an interface of the family
            DropPacket(p, "vxlan-no-interface");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Configuration

void
SlbHostSwitch::AddVmPort(uint32_t interface,
                         const AdcIpAddress& vmAddress,
                         uint32_t vni,
                         uint16_t vlan)
{
    NS_LOG_FUNCTION(this << interface << vmAddress << vni << vlan);
    const std::string who = kWho + "AddVmPort: ";
    if (vmAddress.IsNone())
    {
        throw AdcConfigError(who + "VM address is unset; allowed: the VM's IPv4 or IPv6 address");
    }
    if (vni > kMaxVni)
    {
        throw AdcConfigError(who + "vni " + std::to_string(vni) +
                             " is out of range; allowed: 0 (a VLAN) or 1.." +
                             std::to_string(kMaxVni) + " (RFC 7348: 24 bits)");
    }
    if (vlan > kMaxVlan)
    {
        throw AdcConfigError(who + "vlan " + std::to_string(vlan) +
                             " is out of range; allowed: 0..4094 (IEEE 802.1Q)");
    }
    Ptr<Node> node = GetNode();
    const uint32_t interfaces = node ? CountInterfaces(node, vmAddress) : UINT32_MAX;
    if (interface == 0 || interface >= interfaces)
    {
        throw AdcConfigError(who + "interface " + std::to_string(interface) +
                             " is not a port of the host; allowed: the index of the host's "
                             "interface towards the VM (not the loopback 0)");
    }
    if (FindPort(vmAddress))
    {
        throw AdcConfigError(who + "VM " + vmAddress.ToString() +
                             " already has a port; allowed: one port per VM address");
    }
    m_ports.push_back(VmPort{interface, vmAddress, vni, vlan});
}

void
SlbHostSwitch::SetNatRule(const SlbVipKey& vip, const SlbDip& dip)
{
    NS_LOG_FUNCTION(this << vip.ToString() << dip.ToString());
    const std::string who = kWho + "SetNatRule " + vip.ToString() + ": ";
    if (!AdcHasPorts(vip.protocol))
    {
        throw AdcConfigError(who + "protocol " + std::to_string(vip.protocol) +
                             " is not supported; allowed: 6 (TCP) or 17 (UDP)");
    }
    if (vip.vip.IsNone() || dip.address.IsNone() || vip.vip.GetFamily() != dip.address.GetFamily())
    {
        throw AdcConfigError(who + "DIP " + dip.address.ToString() +
                             " is not of the VIP's family; allowed: an IPv4 DIP for an IPv4 VIP, "
                             "an IPv6 DIP for an IPv6 VIP");
    }
    CheckDip(who, dip);
    const DipKey dipKey = KeyOf(vip.protocol, dip.address, dip.port);
    const auto rev = m_reverse.find(dipKey);
    if (rev != m_reverse.end() && !(rev->second == vip))
    {
        throw AdcConfigError(who + "DIP " + dip.address.ToString() + " port " +
                             std::to_string(dip.port) + " already serves " +
                             rev->second.ToString() +
                             "; allowed: one VIP per DIP address and port (replies must map "
                             "back to one VIP)");
    }
    std::vector<SlbDip>& dips = m_rules[vip];
    auto same = std::find_if(dips.begin(), dips.end(), [&dip](const SlbDip& d) {
        return d.address == dip.address;
    });
    if (same != dips.end())
    {
        m_reverse.erase(KeyOf(vip.protocol, same->address, same->port));
        *same = dip;
    }
    else
    {
        dips.push_back(dip);
    }
    m_reverse[dipKey] = vip;
}

void
SlbHostSwitch::ValidateDip(const SlbDip& dip) const
{
    CheckDip(kWho + "ValidateDip: ", dip);
}

void
SlbHostSwitch::CheckDip(const std::string& who, const SlbDip& dip) const
{
    const VmPort* port = FindPort(dip.address);
    if (!port)
    {
        throw AdcConfigError(who + "DIP " + dip.address.ToString() +
                             " is on no VM port of this host; allowed: a VM address given to "
                             "AddVmPort");
    }
    if (port->vni != dip.vni)
    {
        throw AdcConfigError(who + "DIP " + dip.address.ToString() + " on vni " +
                             std::to_string(dip.vni) +
                             ": a DIP on a VNI the host does not carry; allowed: vni " +
                             std::to_string(port->vni) + " (the VNI of its VM port)");
    }
}

void
SlbHostSwitch::RemoveNatRule(const SlbVipKey& vip, const AdcIpAddress& dip)
{
    NS_LOG_FUNCTION(this << vip.ToString() << dip);
    auto it = m_rules.find(vip);
    auto same = it == m_rules.end()
                    ? std::vector<SlbDip>::iterator()
                    : std::find_if(it->second.begin(), it->second.end(), [&dip](const SlbDip& d) {
                          return d.address == dip;
                      });
    if (it == m_rules.end() || same == it->second.end())
    {
        throw AdcConfigError(kWho + "RemoveNatRule " + vip.ToString() + ": DIP " + dip.ToString() +
                             " has no rule; allowed: a DIP given to SetNatRule");
    }
    m_reverse.erase(KeyOf(vip.protocol, same->address, same->port));
    it->second.erase(same);
    if (it->second.empty())
    {
        m_rules.erase(it);
    }
}

void
SlbHostSwitch::AddFastpath(const AdcFlowKey& flow, const AdcIpAddress& dipHostPa, uint32_t vni)
{
    NS_LOG_FUNCTION(this << flow << dipHostPa << vni);
    const std::string who = kWho + "AddFastpath: ";
    if (dipHostPa.IsNone())
    {
        throw AdcConfigError(who + "DIP host PA is unset; allowed: the provider address of the "
                                   "host holding the DIP");
    }
    if (vni > kMaxVni)
    {
        throw AdcConfigError(who + "vni " + std::to_string(vni) + " is out of range; allowed: 0.." +
                             std::to_string(kMaxVni));
    }
    if (!FindPort(flow.src))
    {
        throw AdcConfigError(who + "flow source " + flow.src.ToString() +
                             " is on no VM port of this host; allowed: a local VM's flow");
    }
    const Time now = Simulator::Now();
    // Sweep idle entries here too, so flows that never send again do not stay forever.
    for (auto it = m_fastpath.begin(); it != m_fastpath.end();)
    {
        if (IsIdle(it->second, now))
        {
            it = m_fastpath.erase(it);
            ++m_counters.fastpathExpired;
        }
        else
        {
            ++it;
        }
    }
    m_fastpath[flow] = FastpathEntry{dipHostPa, vni, now};
}

bool
SlbHostSwitch::IsIdle(const FastpathEntry& e, Time now) const
{
    return m_fastpathIdle.IsStrictlyPositive() && now - e.lastUsed > m_fastpathIdle;
}

bool
SlbHostSwitch::RemoveFastpath(const AdcFlowKey& flow)
{
    return m_fastpath.erase(flow) > 0;
}

const SlbReassembly&
SlbHostSwitch::GetReassembly() const
{
    return m_reasm;
}

uint16_t
SlbHostSwitch::GetClampedMss(bool innerV6) const
{
    const uint32_t outer =
        (ProviderIsV6() ? kIpv6HeaderBytes : kIpv4HeaderBytes) + kSlbVxlanHeaderBytes;
    const uint32_t inner = (innerV6 ? kIpv6HeaderBytes : kIpv4HeaderBytes) + kTcpHeaderBytes;
    return static_cast<uint16_t>(m_providerMtu - outer - inner);
}

const SlbHostSwitchCounters&
SlbHostSwitch::GetCounters() const
{
    return m_counters;
}

uint64_t
SlbHostSwitch::GetDropCount(const std::string& reason) const
{
    const auto it = m_counters.drops.find(reason);
    return it == m_counters.drops.end() ? 0 : it->second;
}

// ---------------------------------------------------------------------------------------------
// The datapath

bool
SlbHostSwitch::Process(const AdcIngress& in, AdcEgress& egress)
{
    if (in.flow.protocol == AdcFlowKey::PROTO_UDP && in.status == AdcTransportStatus::OK &&
        in.flow.dstPort == m_vxlanPort && IsOwnAddress(in.flow.dst))
    {
        return Decapsulate(in, egress);
    }
    if (IsFragment(in))
    {
        return Defragment(in, egress);
    }
    if (IsVmInterface(in.inInterface))
    {
        return NatOut(in, egress) || Fastpath(in, egress);
    }
    return NatIn(in, egress);
}

bool
SlbHostSwitch::Decapsulate(const AdcIngress& in, AdcEgress& egress)
{
    const SlbVxlanFrame frame = SlbVxlanParse(in.packet);
    if (!frame.ok)
    {
        return Drop(in, egress, frame.reason);
    }
    const bool carried = std::any_of(m_ports.begin(), m_ports.end(), [&frame](const VmPort& p) {
        return p.vni == frame.vni;
    });
    if (!carried)
    {
        return Drop(in, egress, "vxlan-unknown-vni");
    }
    const AdcFlowKey inner = InnerFlow(in.packet);
    RecordMuxChoice(frame, inner);
    m_decapTrace(in.flow.src, frame.vni, inner);
    const std::string failed = egress.Send(AdcVerdict::Decapsulate(kSlbVxlanHeaderBytes));
    if (!failed.empty())
    {
        return Drop(in, egress, failed);
    }
    ++m_counters.decapsulated;
    return true;
}

bool
SlbHostSwitch::NatIn(const AdcIngress& in, AdcEgress& egress)
{
    if (in.status != AdcTransportStatus::OK)
    {
        return false;
    }
    const auto it = m_rules.find(KeyOf(in.flow.protocol, in.flow.dst, in.flow.dstPort));
    if (it == m_rules.end())
    {
        return false;
    }
    // The VM the MUX named; without one (Fastpath, or a frame that named none of them), a flow
    // keeps the one its hash picks among the VIP's DIPs on this host.
    const std::vector<SlbDip>& dips = it->second;
    const SlbDip* named = FindMuxChoice(in.flow, dips);
    const SlbDip& dip = named ? *named : dips[AdcHash::Flow(in.flow, GetHashSeed()) % dips.size()];
    AdcFlowKey after = in.flow;
    after.dst = dip.address;
    after.dstPort = dip.port;
    return Translate(in, egress, after, "in");
}

bool
SlbHostSwitch::NatOut(const AdcIngress& in, AdcEgress& egress)
{
    if (in.status != AdcTransportStatus::OK)
    {
        return false;
    }
    const auto it = m_reverse.find(KeyOf(in.flow.protocol, in.flow.src, in.flow.srcPort));
    // Only from the DIP's own port: a VM cannot send as another VM's VIP.
    const VmPort* port = it == m_reverse.end() ? nullptr : FindPort(in.flow.src);
    if (!port || port->interface != in.inInterface)
    {
        return false;
    }
    AdcFlowKey after = in.flow;
    after.src = it->second.vip;
    after.srcPort = it->second.port;
    // Routed by the host's own routes: to the gateway, not back through a MUX (DSR).
    return Translate(in, egress, after, "out");
}

bool
SlbHostSwitch::Fastpath(const AdcIngress& in, AdcEgress& egress)
{
    const auto it = m_fastpath.find(in.flow);
    if (it == m_fastpath.end() || in.status != AdcTransportStatus::OK)
    {
        return false;
    }
    if (IsIdle(it->second, Simulator::Now()))
    {
        m_fastpath.erase(it); // expired: this packet takes the MUX's path
        ++m_counters.fastpathExpired;
        return false;
    }
    FastpathEntry& e = it->second;
    e.lastUsed = Simulator::Now();
    const uint32_t outer =
        (e.hostPa.IsV6() ? kIpv6HeaderBytes : kIpv4HeaderBytes) + kSlbVxlanHeaderBytes + in.bytes;
    if (outer > m_providerMtu)
    {
        return Drop(in, egress, "vxlan-mtu-exceeded"); // VTEPs do not fragment (RFC 7348 4.3)
    }
    const std::string failed = egress.Send(AdcVerdict::Encapsulate(
        SlbVxlanEncapsulation(e.hostPa, e.vni, AdcHash::Flow(in.flow, GetHashSeed()))));
    if (!failed.empty())
    {
        return Drop(in, egress, failed);
    }
    ++m_counters.fastpath;
    m_fastpathTrace(in.flow, e.hostPa);
    return true;
}

bool
SlbHostSwitch::Translate(const AdcIngress& in,
                         AdcEgress& egress,
                         const AdcFlowKey& after,
                         const std::string& direction)
{
    AdcVerdict v = AdcVerdict::Rewrite(after);
    uint16_t oldMss = 0;
    if (m_clampMss && in.flow.protocol == AdcFlowKey::PROTO_TCP &&
        (in.tcpFlags & AdcTcpFlag::SYN) != 0)
    {
        oldMss = AdcReadTcpMss(in.packet);
        const uint16_t clamp = GetClampedMss(in.flow.dst.IsV6());
        v.clampMss = oldMss > clamp ? clamp : 0;
    }
    const std::string failed = egress.Send(v);
    if (!failed.empty())
    {
        return Drop(in, egress, failed);
    }
    if (direction == "in")
    {
        ++m_counters.natIn;
    }
    else
    {
        ++m_counters.natOut;
        ++m_counters.dsrPackets;
    }
    m_natTrace(direction, in.flow, after);
    if (v.clampMss != 0)
    {
        ++m_counters.mssClamped;
        m_mssTrace(in.flow, oldMss, v.clampMss);
    }
    return true;
}

bool
SlbHostSwitch::Drop(const AdcIngress& in, AdcEgress& egress, const std::string& reason)
{
    ++m_counters.drops[reason];
    egress.Send(AdcVerdict::Drop(reason));
    return true;
}

bool
SlbHostSwitch::IsOwnAddress(const AdcIpAddress& address) const
{
    Ptr<Node> node = GetNode();
    if (!node)
    {
        return false;
    }
    if (address.IsV4())
    {
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        return ipv4 && ipv4->GetInterfaceForAddress(address.GetIpv4()) >= 0;
    }
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    return ipv6 && ipv6->GetInterfaceForAddress(address.GetIpv6()) >= 0;
}

const SlbHostSwitch::VmPort*
SlbHostSwitch::FindPort(const AdcIpAddress& address) const
{
    const auto it = std::find_if(m_ports.begin(), m_ports.end(), [&address](const VmPort& p) {
        return p.address == address;
    });
    return it == m_ports.end() ? nullptr : &*it;
}

bool
SlbHostSwitch::IsVmInterface(uint32_t interface) const
{
    return std::any_of(m_ports.begin(), m_ports.end(), [interface](const VmPort& p) {
        return p.interface == interface;
    });
}

bool
SlbHostSwitch::ProviderIsV6() const
{
    Ptr<Node> node = GetNode();
    Ptr<Ipv4> ipv4 = node ? node->GetObject<Ipv4>() : nullptr;
    if (!ipv4)
    {
        return node != nullptr;
    }
    for (uint32_t i = 1; i < ipv4->GetNInterfaces(); ++i)
    {
        if (!IsVmInterface(i) && ipv4->GetNAddresses(i) > 0)
        {
            return false;
        }
    }
    return true;
}

void
SlbHostSwitch::Print(std::ostream& os) const
{
    os << "SlbHostSwitch: " << m_ports.size() << " VM ports, " << m_rules.size() << " VIP rules, "
       << m_fastpath.size() << " Fastpath flows\n";
    for (const VmPort& p : m_ports)
    {
        os << "  port " << p.interface << " VM " << p.address << " vni " << p.vni << " vlan "
           << p.vlan << "\n";
    }
    for (const auto& [vip, dips] : m_rules)
    {
        for (const SlbDip& d : dips)
        {
            os << "  nat " << vip.ToString() << " <-> " << d.address << ":" << d.port << "\n";
        }
    }
    const SlbHostSwitchCounters& c = m_counters;
    os << "  decapsulated " << c.decapsulated << " nat-in " << c.natIn << " nat-out " << c.natOut
       << " dsr " << c.dsrPackets << " mss-clamped " << c.mssClamped << " fastpath " << c.fastpath
       << " dropped " << c.TotalDrops() << "\n";
    os << "  fragments-in " << c.fragmentsIn << " reassembled " << c.reassembled
       << " fragments-out " << c.fragmentsOut << " reassembling " << m_reasm.GetQueues() << "\n";
    for (const auto& [reason, count] : c.drops)
    {
        os << "  drop " << reason << " " << count << "\n";
    }
}

} // namespace ns3
