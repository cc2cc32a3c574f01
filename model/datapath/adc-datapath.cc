/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-datapath.h"

#include "adc-datapath-hook.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method.h"
#include "ns3/integer.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcDatapath");

NS_OBJECT_ENSURE_REGISTERED(AdcDatapath);

namespace
{

/// Default "HookPriority": above static routing (0) and global routing (-10).
constexpr int16_t DEFAULT_HOOK_PRIORITY = 100;

/// \param node a node \return "node <id>" for messages
std::string
NodeName(Ptr<Node> node)
{
    return "node " + std::to_string(node->GetId());
}

/**
 * \param node a node
 * \param family "IPv4" or "IPv6"
 * \param routing the family's routing protocol (null without the family)
 * \param isList whether it is the family's list routing
 * \throws AdcConfigError when the family is there without a list routing
 */
void
CheckList(Ptr<Node> node, const std::string& family, Ptr<Object> routing, bool isList)
{
    if (routing && !isList)
    {
        throw AdcConfigError("AdcDatapath: Install: " + NodeName(node) + "'s " + family +
                             " routing is " + routing->GetInstanceTypeId().GetName() +
                             ", not a list routing; allowed: a stack from AdcMakeListStackHelper "
                             "(static routing inside a list)");
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcIngress, AdcVerdict

AdcIngress
AdcIngress::Describe(const AdcIpAddress& src,
                     const AdcIpAddress& dst,
                     uint8_t protocol,
                     Ptr<const Packet> p,
                     bool fragment,
                     uint32_t ipHeaderBytes)
{
    AdcIngress in;
    in.flow = AdcFlowKey(src, dst, 0, 0, protocol);
    in.packet = p;
    in.bytes = (p ? p->GetSize() : 0) + ipHeaderBytes;
    if (!AdcHasPorts(protocol))
    {
        in.status = AdcTransportStatus::NO_PORTS;
        return in;
    }
    if (fragment)
    {
        in.status = AdcTransportStatus::FRAGMENT;
        return in;
    }
    const AdcTransportInfo r = AdcReadTransport(p, protocol);
    in.status = r.status;
    if (in.status == AdcTransportStatus::OK)
    {
        in.flow.srcPort = r.srcPort;
        in.flow.dstPort = r.dstPort;
        in.tcpFlags = r.tcpFlags;
        in.tcpSeq = r.tcpSeq;
        in.tcpAck = r.tcpAck;
        in.tcpPayload = r.tcpPayload;
    }
    return in;
}

AdcVerdict
AdcVerdict::Of(Action action)
{
    AdcVerdict v;
    v.action = action;
    return v;
}

AdcVerdict
AdcVerdict::Pass()
{
    return Of(PASS);
}

AdcVerdict
AdcVerdict::Forward(const AdcIpAddress& nextHop, uint32_t outInterface)
{
    AdcVerdict v = Of(FORWARD);
    v.nextHop = nextHop;
    v.outInterface = outInterface;
    return v;
}

AdcVerdict
AdcVerdict::Rewrite(const AdcFlowKey& after, const AdcIpAddress& nextHop)
{
    AdcVerdict v = Of(REWRITE);
    v.after = after;
    v.nextHop = nextHop;
    return v;
}

AdcVerdict
AdcVerdict::Encapsulate(AdcEncapsulation encapsulation)
{
    AdcVerdict v = Of(ENCAPSULATE);
    v.encapsulation = std::move(encapsulation);
    return v;
}

AdcVerdict
AdcVerdict::DeliverLocal()
{
    return Of(DELIVER_LOCAL);
}

AdcVerdict
AdcVerdict::Drop(const std::string& reason)
{
    AdcVerdict v = Of(DROP);
    v.reason = reason;
    return v;
}

AdcVerdict
AdcVerdict::Decapsulate(uint32_t bytes)
{
    AdcVerdict v = Of(DECAPSULATE);
    v.decapBytes = bytes;
    return v;
}

std::string
AdcVerdict::ActionToString(Action action)
{
    switch (action)
    {
    case PASS:
        return "PASS";
    case FORWARD:
        return "FORWARD";
    case REWRITE:
        return "REWRITE";
    case ENCAPSULATE:
        return "ENCAPSULATE";
    case DELIVER_LOCAL:
        return "DELIVER_LOCAL";
    case DROP:
        return "DROP";
    case DECAPSULATE:
        return "DECAPSULATE";
    }
    return "UNKNOWN(" + std::to_string(static_cast<unsigned>(action)) + ")";
}

// ---------------------------------------------------------------------------------------------
// AdcDatapath

TypeId
AdcDatapath::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcDatapath")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddAttribute("HookPriority",
                          "Priority of the datapath's hooks in the node's Ipv4ListRouting and "
                          "Ipv6ListRouting (static routing is 0): the highest sees every packet "
                          "first. Read by Install.",
                          IntegerValue(DEFAULT_HOOK_PRIORITY),
                          MakeIntegerAccessor(&AdcDatapath::m_priority),
                          MakeIntegerChecker<int16_t>())
            .AddTraceSource("Drop",
                            "The datapath dropped a packet; the reason is given.",
                            MakeTraceSourceAccessor(&AdcDatapath::m_dropTrace),
                            "ns3::AdcDatapath::DropTracedCallback");
    return tid;
}

AdcDatapath::AdcDatapath()
    : m_priority(DEFAULT_HOOK_PRIORITY)
{
    NS_LOG_FUNCTION(this);
}

AdcDatapath::~AdcDatapath()
{
    NS_LOG_FUNCTION(this);
    // The hooks may outlive the datapath in the node's routing list: never let them call it.
    DetachHooks();
}

void
AdcDatapath::DoDispose()
{
    NS_LOG_FUNCTION(this);
    DetachHooks();
    m_seeded.clear();
    Object::DoDispose();
}

void
AdcDatapath::DetachHooks()
{
    if (m_ipv4Hook)
    {
        m_ipv4Hook->Attach(nullptr);
        m_ipv4Hook = nullptr;
    }
    if (m_ipv6Hook)
    {
        m_ipv6Hook->Attach(nullptr);
        m_ipv6Hook = nullptr;
    }
}

void
AdcDatapath::CheckInstall(Ptr<Node> node) const
{
    const std::string kind = GetInstanceTypeId().GetName();
    if (!node)
    {
        throw AdcConfigError("AdcDatapath: Install: node is null; a " + kind +
                             " needs a node with an Internet stack");
    }
    if (Ptr<Node> current = GetNode())
    {
        throw AdcConfigError("AdcDatapath: Install: this " + kind + " is already installed on " +
                             NodeName(current) + "; allowed: one node per datapath");
    }
    for (Object::AggregateIterator it = node->GetAggregateIterator(); it.HasNext();)
    {
        if (it.Next()->GetInstanceTypeId() == GetInstanceTypeId())
        {
            throw AdcConfigError("AdcDatapath: Install: " + NodeName(node) + " already holds a " +
                                 kind + "; allowed: one datapath of each kind per node");
        }
    }
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    if (!ipv4 && !ipv6)
    {
        throw AdcConfigError("AdcDatapath: Install: " + NodeName(node) +
                             " has no Internet stack; allowed: a stack from "
                             "AdcMakeListStackHelper");
    }
    if (ipv4)
    {
        Ptr<Ipv4RoutingProtocol> r = ipv4->GetRoutingProtocol();
        CheckList(node, "IPv4", r, DynamicCast<Ipv4ListRouting>(r) != nullptr);
    }
    if (ipv6)
    {
        Ptr<Ipv6RoutingProtocol> r = ipv6->GetRoutingProtocol();
        CheckList(node, "IPv6", r, DynamicCast<Ipv6ListRouting>(r) != nullptr);
    }
}

void
AdcDatapath::Install(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    CheckInstall(node); // before any change, so a refused Install leaves the node as it was
    CheckNode(node);
    node->AggregateObject(this);
    if (Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>())
    {
        m_ipv4Hook = CreateObject<AdcIpv4DatapathHook>();
        m_ipv4Hook->Attach(this);
        DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol())
            ->AddRoutingProtocol(m_ipv4Hook, m_priority);
    }
    if (Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>())
    {
        m_ipv6Hook = CreateObject<AdcIpv6DatapathHook>();
        m_ipv6Hook->Attach(this);
        DynamicCast<Ipv6ListRouting>(ipv6->GetRoutingProtocol())
            ->AddRoutingProtocol(m_ipv6Hook, m_priority);
    }
    NotifyInstalled(node);
}

void
AdcDatapath::CheckNode(Ptr<Node> node) const
{
}

void
AdcDatapath::NotifyInstalled(Ptr<Node> node)
{
}

bool
AdcDatapath::ProcessOutput(const AdcLocalOutput& out, AdcOutputRoute& route)
{
    return false;
}

void
AdcDatapath::NotifyInterfaceChange(AdcIpAddress::Family family, uint32_t interface, bool up)
{
}

Ptr<Node>
AdcDatapath::GetNode() const
{
    return GetObject<Node>();
}

Ptr<Ipv4RoutingProtocol>
AdcDatapath::GetIpv4Routing() const
{
    return m_ipv4Hook;
}

Ptr<Ipv6RoutingProtocol>
AdcDatapath::GetIpv6Routing() const
{
    return m_ipv6Hook;
}

bool
AdcDatapath::ProcessLocal(Ptr<const Packet> payload,
                          const AdcIpAddress& src,
                          const AdcIpAddress& dst,
                          uint8_t protocol,
                          uint32_t interface)
{
    if (dst.IsV4() && m_ipv4Hook)
    {
        return m_ipv4Hook->ProcessLocal(payload, src, dst, protocol, interface);
    }
    if (dst.IsV6() && m_ipv6Hook)
    {
        return m_ipv6Hook->ProcessLocal(payload, src, dst, protocol, interface);
    }
    return false;
}

void
AdcDatapath::DropPacket(Ptr<const Packet> packet, const std::string& reason)
{
    NS_LOG_LOGIC("drop: " << reason);
    m_dropTrace(packet, reason);
}

void
AdcDatapath::Print(std::ostream& os) const
{
}

void
AdcDatapath::SetHashSeed(uint64_t seed)
{
    NS_LOG_FUNCTION(this << seed);
    m_hashSeed = seed;
    for (const Ptr<AdcLbMethod>& lb : m_seeded)
    {
        lb->SetHashSeed(seed);
    }
}

uint64_t
AdcDatapath::GetHashSeed() const
{
    return m_hashSeed;
}

void
AdcDatapath::AddSeededMethod(Ptr<AdcLbMethod> lb)
{
    lb->SetHashSeed(m_hashSeed);
    m_seeded.push_back(lb);
}

void
AdcDatapath::RemoveSeededMethod(Ptr<AdcLbMethod> lb)
{
    m_seeded.erase(std::remove(m_seeded.begin(), m_seeded.end(), lb), m_seeded.end());
}

} // namespace ns3
