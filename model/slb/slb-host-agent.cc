/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-host-agent.h"

#include "slb-host-switch.h"
#include "slb-manager.h"
#include "slb-redirect-message.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SlbHostAgent");
NS_OBJECT_ENSURE_REGISTERED(SlbHostAgent);

TypeId
SlbHostAgent::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SlbHostAgent")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<SlbHostAgent>()
            .AddAttribute("RedirectPort",
                          "UDP port the agent takes the MUXes' Fastpath redirects on.",
                          UintegerValue(8572),
                          MakeUintegerAccessor(&SlbHostAgent::m_redirectPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("ProbeProtocol",
                          "How DIPs are probed: TCP (connect) or HTTP (status 200), as the "
                          "network controller's probe resource allows.",
                          StringValue("TCP"),
                          MakeStringAccessor(&SlbHostAgent::m_probeProtocol),
                          MakeStringChecker())
            .AddAttribute("RequestPath",
                          "HTTP probes: the path requested.",
                          StringValue("/"),
                          MakeStringAccessor(&SlbHostAgent::m_probePath),
                          MakeStringChecker())
            .AddAttribute("IntervalInSeconds",
                          "Time between two probes of a DIP (the probe resource's "
                          "intervalInSeconds; Azure's default 15 s, minimum 5 s).",
                          TimeValue(Seconds(15)),
                          MakeTimeAccessor(&SlbHostAgent::m_probeInterval),
                          MakeTimeChecker(Seconds(1)))
            .AddAttribute("NumberOfProbes",
                          "Consecutive failed probes that mark a DIP down (numberOfProbes; "
                          "Azure's default 2).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&SlbHostAgent::m_numberOfProbes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HeartbeatInterval",
                          "Time between two heartbeats to the SLB manager (the manager's "
                          "HostTimeout declares a silent host down).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&SlbHostAgent::m_heartbeatInterval),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("CapSegmentSize",
                          "Model of the VMs honouring the switch's clamped MSS, which ns-3's TCP "
                          "cannot do (it neither sends nor reads the MSS option): when the agent "
                          "is given its switch (SetSwitch) and the switch clamps, ns-3's "
                          "ns3::TcpSocket::SegmentSize default is lowered to the switch's "
                          "GetSegmentSizeCap, so every TCP socket created afterwards (the VMs' and "
                          "their clients', as both ends honour a clamped MSS) sends full segments "
                          "that fit the tunnel. A global default: set it false to keep "
                          "SegmentSize as configured.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SlbHostAgent::m_capSegmentSize),
                          MakeBooleanChecker())
            .AddTraceSource("PolicyUpdate",
                            "Policy from the SLB manager programmed into the switch, a probe "
                            "result changing a DIP's state, or a Fastpath redirect installed.",
                            MakeTraceSourceAccessor(&SlbHostAgent::m_policyTrace),
                            "ns3::SlbHostAgent::PolicyUpdateTracedCallback");
    return tid;
}

SlbHostAgent::SlbHostAgent() = default;

SlbHostAgent::~SlbHostAgent() = default;

void
SlbHostAgent::DoDispose()
{
    m_heartbeat.Cancel();
    m_switch = nullptr;
    m_monitor = nullptr;
    m_manager = nullptr;
    m_redirectSocket = nullptr;
    m_redirectSocket6 = nullptr;
    Application::DoDispose();
}

void
SlbHostAgent::SetSwitch(Ptr<SlbHostSwitch> sw, const AdcIpAddress& providerAddress)
{
    m_switch = sw;
    m_pa = providerAddress;
    BooleanValue clamp;
    if (!m_capSegmentSize || !sw)
    {
        return;
    }
    sw->GetAttribute("ClampMss", clamp);
    TypeId::AttributeInformation info;
    if (!clamp.Get() || !TcpSocket::GetTypeId().LookupAttributeByName("SegmentSize", &info))
    {
        return;
    }
    const auto current = DynamicCast<const UintegerValue>(info.initialValue);
    // The smaller cap when the host has IPv6: one default serves both families.
    Ptr<Node> node = sw->GetNode();
    const uint32_t cap = sw->GetSegmentSizeCap(node && node->GetObject<Ipv6>());
    if (current && current->Get() > cap)
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(cap));
        m_policyTrace(m_name,
                      "cap-segment-size " + std::to_string(current->Get()) + " -> " +
                          std::to_string(cap));
    }
}

Ptr<SlbHostSwitch>
SlbHostAgent::GetSwitch() const
{
    return m_switch;
}

AdcIpAddress
SlbHostAgent::GetProviderAddress() const
{
    return m_pa;
}

void
SlbHostAgent::SetManager(SlbManager* manager, const std::string& name)
{
    m_manager = manager;
    m_name = name;
}

const std::string&
SlbHostAgent::GetHostName() const
{
    return m_name;
}

void
SlbHostAgent::ValidateDip(const SlbDip& dip) const
{
    if (!m_switch)
    {
        throw AdcConfigError("SLB host '" + m_name + "': has no virtual switch (SetSwitch)");
    }
    m_switch->ValidateDip(dip);
}

Ptr<AdcHealthMonitor>
SlbHostAgent::GetMonitor() const
{
    return m_monitor;
}

int64_t
SlbHostAgent::AssignStreams(int64_t stream)
{
    m_stream = stream;
    if (m_monitor)
    {
        m_monitor->AssignStreams(stream);
    }
    return 1;
}

uint64_t
SlbHostAgent::GetRedirectsInstalled() const
{
    return m_redirects;
}

const std::map<std::string, uint64_t>&
SlbHostAgent::GetRedirectDrops() const
{
    return m_redirectDrops;
}

void
SlbHostAgent::ApplyNatRule(const SlbVipKey& vip, const SlbDip& dip)
{
    m_switch->SetNatRule(vip, dip);
    m_policyTrace(m_name, "set-nat " + vip.ToString() + " -> " + dip.ToString());
    EnsureMonitor();
    if (m_ruleCount[dip.address]++ == 0 && !m_probeIndex.count(dip.address))
    {
        const uint32_t index = m_monitor->AddTarget(dip.address, dip.port, dip.address.ToString());
        m_probeIndex[dip.address] = index;
        m_probeDip[index] = dip.address;
    }
}

void
SlbHostAgent::RemoveNatRule(const SlbVipKey& vip, const AdcIpAddress& dip)
{
    m_switch->RemoveNatRule(vip, dip);
    m_policyTrace(m_name, "remove-nat " + vip.ToString() + " -> " + dip.ToString());
    auto it = m_ruleCount.find(dip);
    if (it != m_ruleCount.end() && --it->second == 0)
    {
        m_ruleCount.erase(it);
    }
}

void
SlbHostAgent::EnsureMonitor()
{
    if (m_monitor)
    {
        return;
    }
    if (m_probeProtocol != "TCP" && m_probeProtocol != "HTTP")
    {
        throw AdcConfigError("SLB host agent ProbeProtocol '" + m_probeProtocol +
                             "': allowed are TCP and HTTP");
    }
    m_monitor = CreateObject<AdcHealthMonitor>();
    if (m_stream >= 0)
    {
        m_monitor->AssignStreams(m_stream);
    }
    m_monitor->SetAttribute("Name", StringValue("slb-probe-" + m_name));
    m_monitor->SetAttribute("Type", StringValue(m_probeProtocol));
    m_monitor->SetAttribute("Interval", TimeValue(m_probeInterval));
    m_monitor->SetAttribute("DownTime", TimeValue(m_probeInterval));
    m_monitor->SetAttribute("Retries", UintegerValue(m_numberOfProbes));
    // A probe without an answer fails after half the interval (at most 2 s, the monitor's
    // default), so that it ends before the next one starts.
    m_monitor->SetAttribute("ResponseTimeout",
                            TimeValue(std::min(Seconds(2), m_probeInterval / 2)));
    // The manager counts a new DIP healthy until a probe says otherwise.
    m_monitor->SetAttribute("InitialState",
                            EnumValue(static_cast<int>(AdcHealthMonitor::State::UP)));
    if (m_probeProtocol == "HTTP")
    {
        m_monitor->SetAttribute("HttpRequest", StringValue("GET " + m_probePath));
    }
    m_monitor->SetStateChangeCallback(MakeCallback(&SlbHostAgent::HealthChanged, this));
    m_monitor->SetStartTime(Seconds(0));
    GetNode()->AddApplication(m_monitor);
}

void
SlbHostAgent::StartApplication()
{
    Ptr<Node> node = GetNode();
    EnsureMonitor();
    SendHeartbeat();
    auto open = [this, node](bool v6) {
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        const int rc = v6 ? s->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), m_redirectPort))
                          : s->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_redirectPort));
        if (rc != 0)
        {
            throw AdcConfigError("SLB host agent RedirectPort " + std::to_string(m_redirectPort) +
                                 ": cannot bind it on host '" + m_name + "'");
        }
        s->SetRecvCallback(MakeCallback(&SlbHostAgent::HandleRedirect, this));
        return s;
    };
    m_redirectSocket = open(false);
    if (node->GetObject<Ipv6>())
    {
        m_redirectSocket6 = open(true);
    }
}

void
SlbHostAgent::Halt()
{
    m_heartbeat.Cancel();
    m_manager = nullptr;
    if (m_monitor)
    {
        m_monitor->SetStateChangeCallback(AdcHealthMonitor::StateChangeCallback());
    }
}

void
SlbHostAgent::SendHeartbeat()
{
    if (m_manager)
    {
        m_manager->Heartbeat(m_name);
    }
    m_heartbeat = Simulator::Schedule(m_heartbeatInterval, &SlbHostAgent::SendHeartbeat, this);
}

void
SlbHostAgent::StopApplication()
{
    m_heartbeat.Cancel();
    for (auto& s : {m_redirectSocket, m_redirectSocket6})
    {
        if (s)
        {
            s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            s->Close();
        }
    }
}

void
SlbHostAgent::HealthChanged(uint32_t index,
                            AdcHealthMonitor::State from,
                            AdcHealthMonitor::State to)
{
    auto it = m_probeDip.find(index);
    if (it == m_probeDip.end() || to == AdcHealthMonitor::State::UNKNOWN)
    {
        return;
    }
    const bool healthy = to == AdcHealthMonitor::State::UP;
    m_policyTrace(m_name,
                  std::string(healthy ? "dip-up " : "dip-down ") + it->second.ToString() +
                      " (was " + AdcHealthMonitor::ToString(from) + ")");
    if (m_manager)
    {
        m_manager->ReportDipHealth(m_name, it->second, healthy);
    }
}

void
SlbHostAgent::DropRedirect(const std::string& reason)
{
    ++m_redirectDrops[reason];
}

void
SlbHostAgent::HandleRedirect(Ptr<Socket> socket)
{
    Ptr<Packet> p;
    while ((p = socket->Recv()))
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        std::string error;
        std::optional<SlbRedirectMessage> m = SlbRedirectMessage::Parse(bytes, &error);
        if (!m)
        {
            DropRedirect("redirect-malformed");
            continue;
        }
        if (m->clientHostPa != m_pa)
        {
            if (m->dipHostPa == m_pa)
            {
                // The DIP's own host learns of the flow; it already translates it.
                m_policyTrace(m_name, "fastpath-peer " + m->flow.ToString());
                continue;
            }
            DropRedirect("redirect-not-this-host");
            continue;
        }
        m_switch->AddFastpath(m->flow, m->dipHostPa, m->vni);
        ++m_redirects;
        m_policyTrace(m_name, "fastpath " + m->flow.ToString() + " -> " + m->dipHostPa.ToString());
    }
}

} // namespace ns3
