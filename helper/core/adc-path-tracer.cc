/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the path tracer (hop sequences of requests through proxies).
 */

#include "adc-path-tracer.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcPathTracer");

NS_OBJECT_ENSURE_REGISTERED(AdcPathTracer);

namespace
{

constexpr uint32_t TCP_MIN_HEADER = 20; //!< TCP header without options
constexpr uint32_t UDP_HEADER = 8;      //!< UDP header

/// \param b two bytes in network order \return their value
uint16_t
ReadU16(const uint8_t* b)
{
    return static_cast<uint16_t>((b[0] << 8) | b[1]);
}

/// \param b four bytes in network order \return their value
uint32_t
ReadU32(const uint8_t* b)
{
    return (static_cast<uint32_t>(ReadU16(b)) << 16) | ReadU16(b + 2);
}

} // namespace

TypeId
AdcPathTracer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcPathTracer")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcPathTracer>()
            .AddAttribute("IncludeUdp",
                          "Also trace UDP legs (UDP packets with payload); TCP legs are always "
                          "traced.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcPathTracer::m_includeUdp),
                          MakeBooleanChecker())
            .AddTraceSource("Leg",
                            "A leg's first data packet reached its destination: its 5-tuple and "
                            "the watched nodes it passed, sender to receiver.",
                            MakeTraceSourceAccessor(&AdcPathTracer::m_legTrace),
                            "ns3::AdcPathTracer::LegTracedCallback")
            .AddTraceSource("Drop",
                            "A packet too short for its transport header (or with a bad TCP "
                            "data offset) was ignored: the packet and the reason.",
                            MakeTraceSourceAccessor(&AdcPathTracer::m_dropTrace),
                            "ns3::AdcPathTracer::DropTracedCallback");
    return tid;
}

AdcPathTracer::AdcPathTracer()
{
    NS_LOG_FUNCTION(this);
}

AdcPathTracer::~AdcPathTracer()
{
    NS_LOG_FUNCTION(this);
}

void
AdcPathTracer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // The callbacks hold a raw pointer to this tracer: they must not outlive it.
    for (const Connection& c : m_connections)
    {
        c.object->TraceDisconnectWithoutContext(c.trace, c.cb);
    }
    m_connections.clear();
    m_filter = Callback<bool, const AdcFlowKey&>();
    Clear();
    Object::DoDispose();
}

void
AdcPathTracer::AddNode(Ptr<Node> node, const std::string& name)
{
    NS_LOG_FUNCTION(this << node << name);
    if (!node)
    {
        throw AdcConfigError("AdcPathTracer::AddNode: node '" + name + "' is null");
    }
    if (name.empty())
    {
        throw AdcConfigError("AdcPathTracer::AddNode: node " + std::to_string(node->GetId()) +
                             " has an empty name (names must be non-empty and unique)");
    }
    if (std::find(m_names.begin(), m_names.end(), name) != m_names.end())
    {
        throw AdcConfigError("AdcPathTracer::AddNode: name '" + name +
                             "' is already used (names must be unique)");
    }
    if (std::find(m_nodeIds.begin(), m_nodeIds.end(), node->GetId()) != m_nodeIds.end())
    {
        throw AdcConfigError("AdcPathTracer::AddNode: node " + std::to_string(node->GetId()) +
                             " ('" + name + "') is already watched");
    }
    Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol>();
    if (!ipv4)
    {
        throw AdcConfigError("AdcPathTracer::AddNode: node " + std::to_string(node->GetId()) +
                             " ('" + name +
                             "') has no Ipv4L3Protocol (install the Internet stack first)");
    }
    const auto index = static_cast<uint32_t>(m_names.size());
    m_names.push_back(name);
    m_nodeIds.push_back(node->GetId());
    const std::pair<const char*, Event> sources[] = {{"SendOutgoing", SEND_OUTGOING},
                                                     {"UnicastForward", UNICAST_FORWARD},
                                                     {"LocalDeliver", LOCAL_DELIVER}};
    for (const auto& [trace, event] : sources)
    {
        Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t> cb =
            MakeCallback(&AdcPathTracer::NotifyPacket, this, index, event);
        // Ipv4L3Protocol always has these sources: a failure is a bug, not a configuration.
        NS_ABORT_MSG_UNLESS(ipv4->TraceConnectWithoutContext(trace, cb),
                            "AdcPathTracer: Ipv4L3Protocol has no trace source " << trace);
        m_connections.push_back({ipv4, trace, cb});
    }
}

void
AdcPathTracer::SetFlowFilter(Callback<bool, const AdcFlowKey&> filter)
{
    m_filter = filter;
}

void
AdcPathTracer::NotifyPacket(uint32_t watchIndex,
                            Event event,
                            const Ipv4Header& header,
                            Ptr<const Packet> packet,
                            uint32_t /* interface */)
{
    if (watchIndex >= m_names.size())
    {
        throw AdcConfigError("AdcPathTracer::NotifyPacket: watch index " +
                             std::to_string(watchIndex) + " is not one of the " +
                             std::to_string(m_names.size()) + " watched nodes' indexes 0..n-1");
    }
    Parsed p;
    if (!Parse(header, packet, p) || !p.data)
    {
        return;
    }
    const std::string& name = m_names[watchIndex];
    const uint64_t uid = packet->GetUid();
    const std::size_t followed = FindFollowed(uid, p, event);
    if (followed != NOT_FOUND)
    {
        Extend(followed, name, event);
    }
    else if (m_byFlow.find(p.flow) == m_byFlow.end())
    {
        StartLeg(p, uid, name, event);
    }
    // else: a later packet of a known leg
}

bool
AdcPathTracer::Parse(const Ipv4Header& header, Ptr<const Packet> packet, Parsed& out)
{
    const uint8_t proto = header.GetProtocol();
    const bool tcp = proto == AdcFlowKey::PROTO_TCP;
    if (!tcp && !(m_includeUdp && proto == AdcFlowKey::PROTO_UDP))
    {
        return true; // not traced
    }
    if (header.GetFragmentOffset() != 0)
    {
        return true; // later fragments carry no transport header
    }
    if (!packet)
    {
        Malformed(packet, "null-packet");
        return false;
    }
    const uint32_t size = packet->GetSize();
    const uint32_t minHeader = tcp ? TCP_MIN_HEADER : UDP_HEADER;
    if (size < minHeader)
    {
        Malformed(packet, tcp ? "tcp-header-truncated" : "udp-header-truncated");
        return false;
    }
    // Read the fixed header bytes ourselves: TcpHeader::Deserialize trusts the data offset and
    // would read past the end of a short packet.
    uint8_t b[TCP_MIN_HEADER];
    packet->CopyData(b, minHeader);
    uint32_t headerLength = UDP_HEADER;
    if (tcp)
    {
        headerLength = (b[12] >> 4) * 4u;
        if (headerLength < TCP_MIN_HEADER || headerLength > size)
        {
            Malformed(packet, "tcp-data-offset-invalid");
            return false;
        }
        out.seq = ReadU32(b + 4);
    }
    out.flow =
        AdcFlowKey(header.GetSource(), header.GetDestination(), ReadU16(b), ReadU16(b + 2), proto);
    out.data = size > headerLength;
    return true;
}

void
AdcPathTracer::Malformed(Ptr<const Packet> packet, const std::string& reason)
{
    NS_LOG_FUNCTION(this << packet << reason);
    ++m_malformed;
    m_dropTrace(packet, reason);
}

std::size_t
AdcPathTracer::FindFollowed(uint64_t uid, const Parsed& p, Event event) const
{
    const auto it = m_byUid.find(uid);
    if (it == m_byUid.end())
    {
        return NOT_FOUND;
    }
    const LegState& s = m_legs[it->second];
    // Segments cut from one application buffer share a UID: the sequence number tells them
    // apart.
    // Forwarders may rewrite addresses (NAT), so only a sender must match the 5-tuple.
    const bool same = s.following && s.leg.flow.protocol == p.flow.protocol &&
                      (!s.isTcp || s.seq == p.seq) &&
                      (event != SEND_OUTGOING || s.leg.flow == p.flow);
    return same ? it->second : NOT_FOUND;
}

void
AdcPathTracer::StartLeg(const Parsed& p, uint64_t uid, const std::string& name, Event event)
{
    if (!m_filter.IsNull() && !m_filter(p.flow))
    {
        return;
    }
    NS_LOG_LOGIC("new leg " << p.flow << " at " << name);
    const std::size_t index = m_legs.size();
    LegState s;
    s.leg.flow = p.flow;
    s.leg.start = Simulator::Now();
    s.leg.nodes.push_back(name);
    s.uid = uid;
    s.seq = p.seq;
    s.isTcp = p.flow.protocol == AdcFlowKey::PROTO_TCP;
    s.following = true;
    m_legs.push_back(std::move(s));
    m_byFlow.emplace(p.flow, index);
    m_byUid[uid] = index; // a stale entry with the same UID belongs to a lost packet
    if (event == LOCAL_DELIVER)
    {
        Complete(index);
    }
}

void
AdcPathTracer::Extend(std::size_t index, const std::string& name, Event event)
{
    std::vector<std::string>& nodes = m_legs[index].leg.nodes;
    if (event != LOCAL_DELIVER && nodes.front() == name)
    {
        // The followed packet is back where its path began: it was lost and is being
        // retransmitted (same UID and sequence number), so follow the new copy from here.
        NS_LOG_LOGIC("retransmission of the followed packet of " << m_legs[index].leg.flow);
        nodes.assign(1, name);
        return;
    }
    nodes.push_back(name);
    if (event == LOCAL_DELIVER)
    {
        Complete(index);
    }
}

void
AdcPathTracer::Complete(std::size_t index)
{
    LegState& s = m_legs[index];
    s.following = false;
    s.leg.complete = true;
    const auto it = m_byUid.find(s.uid);
    if (it != m_byUid.end() && it->second == index)
    {
        m_byUid.erase(it);
    }
    NS_LOG_LOGIC("leg " << s.leg.flow << ": " << ToString(s.leg.nodes));
    m_legTrace(s.leg.flow, s.leg.nodes);
}

std::vector<AdcPathTracer::Leg>
AdcPathTracer::GetLegs() const
{
    std::vector<Leg> legs;
    legs.reserve(m_legs.size());
    for (const LegState& s : m_legs)
    {
        legs.push_back(s.leg);
    }
    return legs;
}

std::size_t
AdcPathTracer::GetNLegs() const
{
    return m_legs.size();
}

uint64_t
AdcPathTracer::GetMalformed() const
{
    return m_malformed;
}

std::vector<std::string>
AdcPathTracer::GetHopSequence(Time from, Time to) const
{
    std::vector<std::string> hops;
    // m_legs is in start order: legs are appended when first seen, and time never goes back.
    for (const LegState& s : m_legs)
    {
        const Leg& leg = s.leg;
        if (leg.start < from || leg.start > to || leg.nodes.empty())
        {
            continue;
        }
        const bool joins = !hops.empty() && hops.back() == leg.nodes.front();
        hops.insert(hops.end(), leg.nodes.begin() + (joins ? 1 : 0), leg.nodes.end());
    }
    return hops;
}

std::string
AdcPathTracer::ToString(const std::vector<std::string>& nodes)
{
    std::string out;
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        if (i > 0)
        {
            out += " > ";
        }
        out += nodes[i];
    }
    return out;
}

void
AdcPathTracer::Clear()
{
    NS_LOG_FUNCTION(this);
    m_legs.clear();
    m_byFlow.clear();
    m_byUid.clear();
    m_malformed = 0;
}

const std::vector<std::string>&
AdcPathTracer::Header()
{
    static const std::vector<std::string> header{"leg", "start_s", "flow", "hops"};
    return header;
}

void
AdcPathTracer::WriteCsv(const std::string& file) const
{
    NS_LOG_FUNCTION(this << file);
    AdcCsvWriter csv(file, Header());
    for (std::size_t i = 0; i < m_legs.size(); ++i)
    {
        const Leg& leg = m_legs[i].leg;
        csv.WriteRow({std::to_string(i),
                      AdcCsvWriter::FormatSeconds(leg.start),
                      leg.flow.ToString(),
                      ToString(leg.nodes)});
    }
    csv.Close();
}

} // namespace ns3
