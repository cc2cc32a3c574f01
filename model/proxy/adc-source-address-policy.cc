/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the source address and port of a proxy's server-side connections.
 */

#include "adc-source-address-policy.h"

#include "adc-socket-util.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcSourceAddressPolicy");

NS_OBJECT_ENSURE_REGISTERED(AdcSourceAddressPolicy);

TypeId
AdcSourceAddressPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcSourceAddressPolicy")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcSourceAddressPolicy>()
            .AddAttribute("Mode",
                          "Source of server-side connections: MAPPED_IP (the appliance's "
                          "MappedIp, NetScaler's MIP/SNIP) or CLIENT_IP (the client's address, "
                          "NetScaler's USIP; needs UsePortRange and the node's routing hook).",
                          EnumValue(AdcSourceAddressPolicy::MAPPED_IP),
                          MakeEnumAccessor(&AdcSourceAddressPolicy::m_mode),
                          MakeEnumChecker(AdcSourceAddressPolicy::MAPPED_IP,
                                          "MAPPED_IP",
                                          AdcSourceAddressPolicy::CLIENT_IP,
                                          "CLIENT_IP"))
            .AddAttribute("MappedIp",
                          "The appliance's address used by MAPPED_IP (0.0.0.0: unset).",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&AdcSourceAddressPolicy::m_mappedIp),
                          MakeIpv4AddressChecker())
            .AddAttribute("UsePortRange",
                          "Take source ports from PortRange (NetScaler's \"use port range\"); "
                          "false: an ephemeral port of the stack (MAPPED_IP only).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcSourceAddressPolicy::m_usePortRange),
                          MakeBooleanChecker())
            .AddAttribute("PortRange",
                          "The exclusive source-port range FIRST-LAST of these connections; "
                          "malformed text is an AdcConfigError.",
                          StringValue("1024-65535"),
                          MakeStringAccessor(&AdcSourceAddressPolicy::SetPortRange,
                                             &AdcSourceAddressPolicy::GetPortRange),
                          MakeStringChecker())
            .AddTraceSource("Leased",
                            "A connection took its source: address, port.",
                            MakeTraceSourceAccessor(&AdcSourceAddressPolicy::m_leasedTrace),
                            "ns3::AdcSourceAddressPolicy::LeaseTracedCallback")
            .AddTraceSource("Released",
                            "A connection ended and gave its source back: address, port.",
                            MakeTraceSourceAccessor(&AdcSourceAddressPolicy::m_releasedTrace),
                            "ns3::AdcSourceAddressPolicy::LeaseTracedCallback")
            .AddTraceSource("Exhausted",
                            "No port of the range could be bound for a connection from this "
                            "address.",
                            MakeTraceSourceAccessor(&AdcSourceAddressPolicy::m_exhaustedTrace),
                            "ns3::AdcSourceAddressPolicy::ExhaustedTracedCallback");
    return tid;
}

AdcSourceAddressPolicy::AdcSourceAddressPolicy()
    : m_mode(MAPPED_IP),
      m_mappedIp(Ipv4Address::GetAny()),
      m_usePortRange(true),
      m_open(0)
{
    NS_LOG_FUNCTION(this);
    m_ports = CreateObject<AdcPortAllocator>();
}

AdcSourceAddressPolicy::~AdcSourceAddressPolicy()
{
    NS_LOG_FUNCTION(this);
}

void
AdcSourceAddressPolicy::DoDispose()
{
    m_routing = nullptr;
    m_ports = nullptr;
    Object::DoDispose();
}

void
AdcSourceAddressPolicy::SetPortRange(std::string text)
{
    m_ports->SetRange(AdcPortRange::Parse(text));
}

std::string
AdcSourceAddressPolicy::GetPortRange() const
{
    return m_ports->GetRange().ToString();
}

void
AdcSourceAddressPolicy::SetRouting(Ptr<AdcPolicyRouting> routing)
{
    m_routing = routing;
}

Ptr<AdcPolicyRouting>
AdcSourceAddressPolicy::GetRouting() const
{
    return m_routing;
}

Ptr<AdcPortAllocator>
AdcSourceAddressPolicy::GetPortAllocator() const
{
    return m_ports;
}

AdcSourceAddressPolicy::Mode
AdcSourceAddressPolicy::GetMode() const
{
    return m_mode;
}

Ipv4Address
AdcSourceAddressPolicy::GetSourceFor(Ipv4Address client) const
{
    return m_mode == CLIENT_IP ? client : m_mappedIp;
}

void
AdcSourceAddressPolicy::CheckConfig(const std::string& who) const
{
    if (m_mode == MAPPED_IP && m_mappedIp == Ipv4Address::GetAny())
    {
        throw AdcConfigError(who + ": MappedIp is unset (0.0.0.0) with Mode MAPPED_IP; set it "
                                   "to one of the appliance's addresses");
    }
    if (m_mode == CLIENT_IP && !m_usePortRange)
    {
        throw AdcConfigError(who + ": UsePortRange false with Mode CLIENT_IP: the server's "
                                   "replies to a client's address come back by port, so a "
                                   "range is required (allowed: true)");
    }
    if (m_mode == CLIENT_IP && !m_routing)
    {
        throw AdcConfigError(who + ": Mode CLIENT_IP without the node's AdcPolicyRouting "
                                   "(SetRouting): only it can give a connection an address the "
                                   "node does not own");
    }
}

std::optional<AdcSourceAddressPolicy::Lease>
AdcSourceAddressPolicy::Bind(Ptr<Socket> s, Ipv4Address client, bool* exhausted)
{
    Lease lease;
    lease.source = GetSourceFor(client);
    *exhausted = false;
    if (m_usePortRange)
    {
        const std::optional<uint16_t> port = AdcBindFromRange(s, lease.source, m_ports);
        if (!port)
        {
            *exhausted = true;
            NS_LOG_INFO("port range " << m_ports->GetRange() << " exhausted for " << lease.source);
            m_exhaustedTrace(lease.source);
            return std::nullopt;
        }
        lease.port = *port;
        lease.fromRange = true;
    }
    else
    {
        if (s->Bind(InetSocketAddress(lease.source, 0)) == -1)
        {
            return std::nullopt;
        }
        Address local;
        s->GetSockName(local);
        lease.port = InetSocketAddress::ConvertFrom(local).GetPort();
    }
    ++m_open;
    m_leasedTrace(lease.source, lease.port);
    return lease;
}

bool
AdcSourceAddressPolicy::Connect(Lease& lease, Ptr<Socket> s, const InetSocketAddress& server)
{
    const std::optional<AdcFlowKey> registration =
        AdcConnectFrom(s, m_routing, lease.source, server);
    if (!registration)
    {
        return false;
    }
    if (m_routing)
    {
        lease.registration = registration;
    }
    return true;
}

void
AdcSourceAddressPolicy::Release(Lease& lease, bool quiet)
{
    if (lease.registration && m_routing)
    {
        m_routing->RemoveOutputSource(*lease.registration);
    }
    lease.registration.reset();
    if (lease.port == 0)
    {
        return; // released already
    }
    if (lease.fromRange && m_ports)
    {
        m_ports->Release(lease.port);
    }
    --m_open;
    if (!quiet)
    {
        m_releasedTrace(lease.source, lease.port);
    }
    lease.port = 0;
    lease.fromRange = false;
}

uint32_t
AdcSourceAddressPolicy::GetOpenLeases() const
{
    return m_open;
}

} // namespace ns3
