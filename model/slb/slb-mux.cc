/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-mux.h"

#include "slb-vxlan.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-packet-rewrite.h"
#include "ns3/adc-vxlan-header.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlbMux");

NS_OBJECT_ENSURE_REGISTERED(SlbMux);

namespace
{

constexpr uint32_t kMaxVni = 0xffffff; //!< 24 bits

/// \param vip a VIP \param what the problem \return the error naming the VIP
AdcConfigError
VipError(const SlbVip& vip, const std::string& what)
{
    return AdcConfigError("SlbMux: VIP '" + vip.name + "' (" + vip.key.ToString() + "): " + what);
}

} // namespace

TypeId
SlbMux::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SlbMux")
            .SetParent<AdcDatapath>()
            .SetGroupName("Adc")
            .AddConstructor<SlbMux>()
            .AddAttribute("MaglevTableSize",
                          "Slots of each VIP's Maglev table (prime; Maglev's default 65537). "
                          "Larger tables spread DIPs more evenly and cost memory per VIP.",
                          UintegerValue(65537),
                          MakeUintegerAccessor(&SlbMux::m_maglevSize),
                          MakeUintegerChecker<uint32_t>(2))
            .AddAttribute("ProviderMtu",
                          "MTU of the provider (physical) network between the MUXes and the "
                          "hosts, bytes. A packet whose VXLAN packet (outer IP 20 or 40, UDP 8, "
                          "VXLAN 8, inner Ethernet 14, the inner datagram) would exceed it is "
                          "dropped (\"vxlan-mtu-exceeded\"): VTEPs do not fragment (RFC 7348 "
                          "section 4.3). Set it to the links' MTU (1500 by default in ns-3; a data "
                          "centre configures 1550 or more, or jumbo 9000).",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&SlbMux::m_providerMtu),
                          MakeUintegerChecker<uint32_t>(576, 65535))
            .AddAttribute("MaglevSeed",
                          "Seed of the flow hash and of the Maglev permutations. It must be the "
                          "SAME on every MUX of a pool, so that every MUX picks the same DIP "
                          "for a flow (a flow ECMP moves to another MUX keeps its DIP).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SlbMux::m_maglevSeed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Selection",
                          "How a new flow's DIP is chosen: MAGLEV (consistent hashing) or "
                          "MODULO (the naive hash mod the number of healthy DIPs, to compare).",
                          EnumValue(SlbMux::MAGLEV),
                          MakeEnumAccessor(&SlbMux::m_selection),
                          MakeEnumChecker(SlbMux::MAGLEV, "MAGLEV", SlbMux::MODULO, "MODULO"))
            .AddAttribute("FlowTable",
                          "true: a per-MUX flow table pins each flow to its DIP while the DIP "
                          "set changes (Ananta, Maglev); false: every packet is hashed.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SlbMux::m_useFlowTable),
                          MakeBooleanChecker())
            .AddAttribute("FlowIdleTimeout",
                          "A flow-table entry idle this long expires (Azure Load Balancer's "
                          "default TCP idle timeout, 4 minutes).",
                          TimeValue(Minutes(4)),
                          MakeTimeAccessor(&SlbMux::m_idleTimeout),
                          MakeTimeChecker(MilliSeconds(1), Days(24)))
            .AddAttribute("ClosingTimeout",
                          "A flow-table entry idle this long after a FIN expires (the MUX "
                          "sees one direction only, so it cannot see the close complete). A "
                          "RST removes the entry at once.",
                          TimeValue(Seconds(10)),
                          MakeTimeAccessor(&SlbMux::m_closingTimeout),
                          MakeTimeChecker(Time(0), Days(24)))
            .AddAttribute("MaxFlows",
                          "Most flow-table entries; 0 = unbounded. When full, new flows are "
                          "hashed without an entry (counted as flowTableFull).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SlbMux::m_maxFlows),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PacketRate",
                          "Packets per second the MUX forwards to VIPs (its CPU); 0 = "
                          "unlimited. Packets beyond it are dropped (mux-over-capacity).",
                          DoubleValue(0),
                          MakeDoubleAccessor(&SlbMux::m_packetRate),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("BurstPackets",
                          "The token bucket's depth: packets the MUX absorbs above PacketRate "
                          "in a burst.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&SlbMux::m_burst),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Fastpath",
                          "Redirect established internal-VIP TCP flows host to host "
                          "(Ananta's Fastpath).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SlbMux::m_fastpath),
                          MakeBooleanChecker())
            .AddAttribute("RedirectPort",
                          "UDP port the host agents listen on for Fastpath redirects.",
                          UintegerValue(kSlbRedirectPort),
                          MakeUintegerAccessor(&SlbMux::m_redirectPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddTraceSource("DipChoice",
                            "The DIP of a tunnelled packet, and whether the flow table gave it.",
                            MakeTraceSourceAccessor(&SlbMux::m_dipChoiceTrace),
                            "ns3::SlbMux::DipChoiceTracedCallback")
            .AddTraceSource("Encapsulate",
                            "A packet tunnelled in VXLAN: flow, host PA, VNI, outer source port.",
                            MakeTraceSourceAccessor(&SlbMux::m_encapsulateTrace),
                            "ns3::SlbMux::EncapsulateTracedCallback")
            .AddTraceSource("FastpathRedirect",
                            "A Fastpath redirect sent: flow, client host PA, DIP host PA.",
                            MakeTraceSourceAccessor(&SlbMux::m_redirectTrace),
                            "ns3::SlbMux::FastpathRedirectTracedCallback");
    return tid;
}

SlbMux::SlbMux()
    : m_maglevSize(65537),
      m_maglevSeed(0),
      m_selection(MAGLEV),
      m_useFlowTable(true),
      m_maxFlows(0),
      m_packetRate(0),
      m_burst(64),
      m_fastpath(true),
      m_redirectPort(kSlbRedirectPort)
{
}

SlbMux::~SlbMux() = default;

void
SlbMux::DoDispose()
{
    if (m_redirectSocket)
    {
        m_redirectSocket->Close();
        m_redirectSocket = nullptr;
    }
    m_vips.clear();
    AdcDatapath::DoDispose();
}

// ---------------------------------------------------------------------------------------------
// Policy

void
SlbMux::SetVip(const SlbVip& vip)
{
    if (vip.key.vip.IsNone())
    {
        throw VipError(vip, "the VIP address is unset; an IPv4 or IPv6 address is required");
    }
    if (vip.key.protocol != AdcFlowKey::PROTO_TCP && vip.key.protocol != AdcFlowKey::PROTO_UDP)
    {
        throw VipError(vip,
                       "protocol " + std::to_string(vip.key.protocol) +
                           " is not one of 6 (TCP), 17 (UDP)");
    }
    if (vip.key.port == 0)
    {
        throw VipError(vip, "port 0 is not allowed; a port 1..65535 is required");
    }
    if (vip.dips.empty())
    {
        throw VipError(vip, "no DIP; a VIP needs at least one DIP");
    }
    if (!AdcMaglevTable::IsPrime(m_maglevSize))
    {
        throw AdcConfigError("SlbMux: MaglevTableSize " + std::to_string(m_maglevSize) +
                             " is not prime (e.g. 65537, 251, 13)");
    }
    std::set<std::pair<AdcIpAddress, uint16_t>> seen;
    for (const SlbDip& d : vip.dips)
    {
        if (d.address.IsNone() || d.hostPa.IsNone())
        {
            throw VipError(vip,
                           "DIP '" + d.ToString() + "' has no " +
                               (d.address.IsNone() ? "address" : "host PA"));
        }
        if (d.vni > kMaxVni)
        {
            throw VipError(vip,
                           "DIP '" + d.ToString() + "': VNI " + std::to_string(d.vni) +
                               " is above 16777215 (24 bits)");
        }
        if (!seen.insert({d.address, d.port}).second)
        {
            throw VipError(vip, "DIP '" + d.ToString() + "' is listed twice");
        }
    }
    // DIPs that stay (same address and port) keep their ids, so their flows stay pinned.
    auto old = m_vips.find(vip.key);
    VipState s;
    s.vip = vip;
    for (const SlbDip& d : vip.dips)
    {
        uint32_t id = 0;
        if (old != m_vips.end())
        {
            const auto& o = old->second;
            for (std::size_t i = 0; i < o.vip.dips.size(); ++i)
            {
                if (o.vip.dips[i].address == d.address && o.vip.dips[i].port == d.port)
                {
                    id = o.dipIds[i];
                }
            }
        }
        s.dipIds.push_back(id != 0 ? id : m_nextDipId++);
        s.byId[s.dipIds.back()] = static_cast<uint32_t>(s.dipIds.size() - 1);
    }
    if (old == m_vips.end())
    {
        ++m_vipAddresses[vip.key.vip];
    }
    Rebuild(s);
    m_vips[vip.key] = std::move(s);
    NS_LOG_INFO("VIP " << vip.key.ToString() << " with " << vip.dips.size() << " DIPs");
}

void
SlbMux::RemoveVip(const SlbVipKey& key)
{
    auto it = m_vips.find(key);
    if (it == m_vips.end())
    {
        throw AdcConfigError("SlbMux: RemoveVip: no VIP " + key.ToString());
    }
    const auto& ids = it->second.byId;
    m_flows.RemoveIf([&ids](const AdcFlowKey&, uint32_t dipId) { return ids.count(dipId) > 0; });
    m_vips.erase(it);
    if (--m_vipAddresses[key.vip] == 0)
    {
        m_vipAddresses.erase(key.vip);
    }
}

void
SlbMux::SetDipHealth(const SlbVipKey& key, const AdcIpAddress& dip, bool healthy)
{
    auto it = m_vips.find(key);
    if (it == m_vips.end())
    {
        throw AdcConfigError("SlbMux: SetDipHealth: no VIP " + key.ToString());
    }
    bool found = false;
    for (SlbDip& d : it->second.vip.dips)
    {
        if (d.address == dip)
        {
            found = true;
            d.healthy = healthy;
        }
    }
    if (!found)
    {
        throw AdcConfigError("SlbMux: SetDipHealth: VIP " + key.ToString() + " has no DIP " +
                             dip.ToString());
    }
    Rebuild(it->second);
}

void
SlbMux::SetVmHost(const AdcIpAddress& vm, const AdcIpAddress& hostPa)
{
    m_vmHosts[vm] = hostPa;
}

bool
SlbMux::IsVip(const AdcIpAddress& address) const
{
    return m_vipAddresses.count(address) > 0;
}

std::vector<SlbVipKey>
SlbMux::GetVips() const
{
    std::vector<SlbVipKey> keys;
    for (const auto& [key, s] : m_vips)
    {
        keys.push_back(key);
    }
    return keys;
}

const SlbVip&
SlbMux::GetVip(const SlbVipKey& key) const
{
    auto it = m_vips.find(key);
    if (it == m_vips.end())
    {
        throw AdcConfigError("SlbMux: GetVip: no VIP " + key.ToString());
    }
    return it->second.vip;
}

void
SlbMux::Rebuild(VipState& s)
{
    s.healthy.clear();
    std::vector<std::string> names;
    for (uint32_t i = 0; i < s.vip.dips.size(); ++i)
    {
        if (s.vip.dips[i].healthy)
        {
            s.healthy.push_back(i);
            names.push_back(s.vip.dips[i].address.ToString());
        }
    }
    if (m_selection == MAGLEV)
    {
        s.maglev = AdcMaglevTable(m_maglevSize);
        s.maglev.BuildFromNames(names, {}, m_maglevSeed);
    }
    s.builtFor = {m_maglevSize, m_maglevSeed, m_selection};
}

int32_t
SlbMux::Choose(const VipState& s, uint64_t hash) const
{
    if (s.healthy.empty())
    {
        return -1;
    }
    if (m_selection == MODULO)
    {
        return static_cast<int32_t>(s.healthy[hash % s.healthy.size()]);
    }
    const int32_t slot = s.maglev.Lookup(hash);
    return slot < 0 ? -1 : static_cast<int32_t>(s.healthy[static_cast<uint32_t>(slot)]);
}

// ---------------------------------------------------------------------------------------------
// Datapath

uint32_t
SlbMux::NowMs()
{
    return static_cast<uint32_t>(Simulator::Now().GetMilliSeconds());
}

bool
SlbMux::TakeToken()
{
    if (m_packetRate <= 0)
    {
        return true;
    }
    const Time now = Simulator::Now();
    if (!m_tokensStarted)
    {
        m_tokensStarted = true;
        m_tokens = m_burst;
    }
    else
    {
        m_tokens =
            std::min<double>(m_burst, m_tokens + (now - m_tokensAt).GetSeconds() * m_packetRate);
    }
    m_tokensAt = now;
    if (m_tokens < 1)
    {
        return false;
    }
    m_tokens -= 1;
    return true;
}

bool
SlbMux::Drop(const AdcIngress& in, const std::string& reason)
{
    NS_LOG_LOGIC("drop " << in.flow << ": " << reason);
    ++m_counters.drops[reason];
    DropPacket(in.packet, reason);
    return true;
}

bool
SlbMux::Process(const AdcIngress& in, AdcEgress& egress)
{
    if (!IsVip(in.flow.dst))
    {
        return false; // the MUX's own traffic (BGP, redirects), or transit
    }
    ++m_counters.packets;
    m_counters.bytes += in.bytes;
    if (!TakeToken())
    {
        return Drop(in, "mux-over-capacity");
    }
    if (in.status == AdcTransportStatus::FRAGMENT)
    {
        return Drop(in, "vip-fragment");
    }
    if (in.status == AdcTransportStatus::NO_PORTS)
    {
        return Drop(in, "vip-no-port");
    }
    if (in.status != AdcTransportStatus::OK)
    {
        return Drop(in, AdcTransportDropReason(in.status));
    }
    auto it = m_vips.find(SlbVipKey{in.flow.dst, in.flow.protocol, in.flow.dstPort});
    if (it == m_vips.end())
    {
        return Drop(in, "vip-no-port");
    }
    VipState& s = it->second;
    if (s.builtFor != std::make_tuple(m_maglevSize, m_maglevSeed, m_selection))
    {
        Rebuild(s); // the selection's attributes changed since the VIP was set
    }
    const uint64_t hash = AdcHash::Flow(in.flow, m_maglevSeed);
    const uint32_t now = NowMs();
    m_flows.SetTimeouts(static_cast<uint32_t>(m_idleTimeout.GetMilliSeconds()),
                        static_cast<uint32_t>(m_closingTimeout.GetMilliSeconds()));
    m_flows.SetMaxFlows(m_maxFlows);

    int32_t index = -1;
    bool fromTable = false;
    bool redirected = false;
    bool pinned = false;
    if (m_useFlowTable)
    {
        if (const auto e = m_flows.Touch(in.flow, now))
        {
            pinned = true;
            redirected = (e->flags & SlbFlowTable::kRedirected) != 0;
            auto d = s.byId.find(e->dipId);
            if (d != s.byId.end() && s.vip.dips[d->second].healthy)
            {
                index = static_cast<int32_t>(d->second);
                fromTable = true;
                ++m_counters.flowTableHits;
            }
            else
            {
                ++m_counters.flowsRechosen; // its DIP was removed or went down
            }
        }
    }
    if (index < 0)
    {
        index = Choose(s, hash);
        if (index < 0)
        {
            return Drop(in, "vip-no-healthy-dip");
        }
        if (m_useFlowTable)
        {
            if (m_flows.Set(in.flow, s.dipIds[index], now))
            {
                m_counters.flowsCreated += pinned ? 0 : 1;
            }
            else
            {
                ++m_counters.flowTableFull;
            }
        }
    }
    const SlbDip& dip = s.vip.dips[index];
    m_dipChoiceTrace(in.flow, dip, fromTable);

    MaybeRedirect(in, s, dip, redirected);
    if (in.flow.protocol == AdcFlowKey::PROTO_TCP &&
        (in.tcpFlags & (AdcTcpFlag::RST | AdcTcpFlag::FIN)) != 0)
    {
        m_redirectedNoTable.erase(in.flow);
        if (in.tcpFlags & AdcTcpFlag::RST)
        {
            m_flows.Remove(in.flow);
        }
        else
        {
            m_flows.AddFlags(in.flow, SlbFlowTable::kClosing);
        }
    }

    // VTEPs do not fragment VXLAN packets (RFC 7348 section 4.3): one that does not fit the
    // provider network's MTU is dropped, not fragmented.
    const uint32_t outer = (dip.hostPa.IsV6() ? 40U : 20U) + kSlbVxlanHeaderBytes + in.bytes;
    if (outer > m_providerMtu)
    {
        return Drop(in, "vxlan-mtu-exceeded");
    }
    const std::string failure = egress.Send(
        AdcVerdict::Encapsulate(SlbVxlanEncapsulation(dip.hostPa, dip.vni, hash, dip.address)));
    if (!failure.empty())
    {
        return Drop(in, failure);
    }
    ++m_counters.encapsulated;
    m_encapsulateTrace(in.flow, dip.hostPa, dip.vni, AdcVxlanSourcePort(hash));
    return true;
}

// ---------------------------------------------------------------------------------------------
// Fastpath

void
SlbMux::MaybeRedirect(const AdcIngress& in, const VipState& s, const SlbDip& dip, bool redirected)
{
    if (!m_fastpath || s.vip.kind != SlbVipKind::INTERNAL ||
        in.flow.protocol != AdcFlowKey::PROTO_TCP ||
        (in.tcpFlags & (AdcTcpFlag::ACK | AdcTcpFlag::SYN | AdcTcpFlag::RST | AdcTcpFlag::FIN)) !=
            AdcTcpFlag::ACK)
    {
        return;
    }
    auto vm = m_vmHosts.find(in.flow.src);
    if (vm == m_vmHosts.end() || redirected || m_redirectedNoTable.count(in.flow) > 0)
    {
        return;
    }
    // Once per flow: the entry's flag, or (no flow table, or the table full) a set of its own.
    if (!(m_useFlowTable && m_flows.AddFlags(in.flow, SlbFlowTable::kRedirected)))
    {
        m_redirectedNoTable.insert(in.flow);
    }
    SlbRedirectMessage m;
    m.flow = in.flow;
    m.dip = dip.address;
    m.dipPort = dip.port;
    m.dipHostPa = dip.hostPa;
    m.clientHostPa = vm->second;
    m.vni = dip.vni;
    const std::vector<uint8_t> bytes = m.Serialize();
    // Sent once this packet's routing is done: not from inside the node's RouteInput.
    // The events hold the MUX (a Ptr, not a trace binding: no cycle) until they run.
    Ptr<SlbMux> self(this);
    Simulator::ScheduleNow(&SlbMux::SendRedirect, self, bytes, m.clientHostPa);
    Simulator::ScheduleNow(&SlbMux::SendRedirect, self, bytes, m.dipHostPa);
    ++m_counters.fastpathFlows;
    m_redirectTrace(in.flow, m.clientHostPa, m.dipHostPa);
}

void
SlbMux::SendRedirect(std::vector<uint8_t> message, AdcIpAddress to)
{
    if (!GetNode())
    {
        return;
    }
    if (!m_redirectSocket)
    {
        m_redirectSocket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    }
    Ptr<Packet> p = Create<Packet>(message.data(), static_cast<uint32_t>(message.size()));
    const Address remote = to.IsV6() ? Address(Inet6SocketAddress(to.GetIpv6(), m_redirectPort))
                                     : Address(InetSocketAddress(to.GetIpv4(), m_redirectPort));
    if (m_redirectSocket->SendTo(p, 0, remote) < 0)
    {
        ++m_counters.drops["redirect-send-failed"];
        DropPacket(p, "redirect-send-failed");
        return;
    }
    ++m_counters.redirectsSent;
}

// ---------------------------------------------------------------------------------------------
// Introspection

std::size_t
SlbMux::GetFlowCount() const
{
    return m_flows.GetCount();
}

const SlbFlowTable&
SlbMux::GetFlowTable() const
{
    return m_flows;
}

std::size_t
SlbMux::GetFlowEntryBytes()
{
    return SlbFlowTable::GetEntryBytes(AdcIpAddress::V6);
}

const SlbMux::Counters&
SlbMux::GetCounters() const
{
    return m_counters;
}

void
SlbMux::Print(std::ostream& os) const
{
    const Counters& c = m_counters;
    os << "SLB MUX: packets " << c.packets << ", bytes " << c.bytes << ", encapsulated "
       << c.encapsulated << ", flows created " << c.flowsCreated << ", flow-table hits "
       << c.flowTableHits << ", re-chosen " << c.flowsRechosen << ", table full " << c.flowTableFull
       << ", flows " << m_flows.GetCount() << ", Fastpath flows " << c.fastpathFlows
       << ", redirects sent " << c.redirectsSent << '\n';
    for (const auto& [reason, n] : c.drops)
    {
        os << "  drop " << reason << ": " << n << '\n';
    }
    for (const auto& [key, s] : m_vips)
    {
        os << "  VIP " << s.vip.name << ' ' << key.ToString() << " (" << SlbVipKindName(s.vip.kind)
           << "), " << s.healthy.size() << '/' << s.vip.dips.size() << " DIPs healthy\n";
        for (const SlbDip& d : s.vip.dips)
        {
            os << "    " << d.ToString() << (d.healthy ? " up" : " down") << '\n';
        }
    }
}

} // namespace ns3
