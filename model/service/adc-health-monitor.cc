/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: health monitors (PING, TCP, UDP, HTTP probes) that decide whether a back-end is UP.
 */

#include "adc-health-monitor.h"

#include "adc-health-probe.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-message.h"
#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/enum.h"
#include "ns3/icmpv4.h"
#include "ns3/icmpv6-header.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-raw-socket-factory.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-raw-socket-factory.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHealthMonitor");

NS_OBJECT_ENSURE_REGISTERED(AdcHealthMonitor);

namespace
{

/// \return "METHOD" and "path" of "METHOD path"; both empty when malformed
std::pair<std::string, std::string>
SplitRequestLine(const std::string& line)
{
    const std::size_t sp = line.find(' ');
    if (sp == std::string::npos || sp == 0 || sp + 1 >= line.size() ||
        line.find(' ', sp + 1) != std::string::npos)
    {
        return {};
    }
    std::string method = line.substr(0, sp);
    std::string path = line.substr(sp + 1);
    for (char c : method)
    {
        if (c < 'A' || c > 'Z')
        {
            return {};
        }
    }
    if (path[0] != '/' && path != "*")
    {
        return {};
    }
    return {method, path};
}

/// \return the time in seconds with its unit, e.g. "0.5s"
std::string
FormatTime(Time t)
{
    std::ostringstream os;
    os << t.GetSeconds() << "s";
    return os.str();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcHealthMonitor
// ---------------------------------------------------------------------------------------------

TypeId
AdcHealthMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcHealthMonitor")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcHealthMonitor>()
            .AddAttribute("Type",
                          "Probe kind: PING (ICMP echo), TCP (connect), UDP (datagram), HTTP "
                          "(request, status checked).",
                          EnumValue(PING),
                          MakeEnumAccessor(&AdcHealthMonitor::m_type),
                          MakeEnumChecker(PING, "PING", TCP, "TCP", UDP, "UDP", HTTP, "HTTP"))
            .AddAttribute("Name",
                          "The monitor's name, shown in messages.",
                          StringValue("ping-default"),
                          MakeStringAccessor(&AdcHealthMonitor::m_name),
                          MakeStringChecker())
            .AddAttribute("TypeName",
                          "The configuration's name of the monitor's type when it is not the "
                          "probe kind's own, e.g. LDNS-DNS (a UDP kind to port 53 for GSLB); "
                          "empty: the kind's name.",
                          StringValue(""),
                          MakeStringAccessor(&AdcHealthMonitor::m_typeName),
                          MakeStringChecker())
            .AddAttribute("Interval",
                          "Time between the starts of two probes to a target that is not DOWN "
                          "(NetScaler's default monitor interval is 5 s).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&AdcHealthMonitor::m_interval),
                          MakeTimeChecker())
            .AddAttribute("ResponseTimeout",
                          "A probe without an outcome after this long fails (must be less "
                          "than Interval and DownTime).",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&AdcHealthMonitor::m_responseTimeout),
                          MakeTimeChecker())
            .AddAttribute("Retries",
                          "Consecutive failed probes that mark a target DOWN (>= 1).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_retries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SuccessRetries",
                          "Consecutive successful probes that mark a DOWN target UP (>= 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_successRetries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DownTime",
                          "Time between the starts of two probes to a DOWN target.",
                          TimeValue(Seconds(30)),
                          MakeTimeAccessor(&AdcHealthMonitor::m_downTime),
                          MakeTimeChecker())
            .AddAttribute("Jitter",
                          "Each probe start is delayed by a uniform random time in [0, Jitter) "
                          "(0: none, fully deterministic without a random stream).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&AdcHealthMonitor::m_jitter),
                          MakeTimeChecker())
            .AddAttribute("DestinationPort",
                          "Port probed on every target (0: each target's own port).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_destinationPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("HttpRequest",
                          "HTTP probes: the request as \"METHOD /path\".",
                          StringValue("HEAD /"),
                          MakeStringAccessor(&AdcHealthMonitor::m_httpRequest),
                          MakeStringChecker())
            .AddAttribute("HttpExpectedStatus",
                          "HTTP probes: the one status code that means UP.",
                          UintegerValue(200),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_httpExpectedStatus),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("UdpPayload",
                          "UDP probes: the datagram's payload.",
                          StringValue(""),
                          MakeStringAccessor(&AdcHealthMonitor::m_udpPayload),
                          MakeStringChecker())
            .AddAttribute("UdpRequireReply",
                          "UDP probes: false = a target is UP unless an ICMP error comes back; "
                          "true = a reply must come back within ResponseTimeout.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcHealthMonitor::m_udpRequireReply),
                          MakeBooleanChecker())
            .AddAttribute("PingDataSize",
                          "PING probes: echo data bytes after the 8-byte echo header (like "
                          "ping -s; at most 65000).",
                          UintegerValue(56),
                          MakeUintegerAccessor(&AdcHealthMonitor::m_pingDataSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InitialState",
                          "State of every target when the monitor starts (UNKNOWN: the first "
                          "outcome decides).",
                          EnumValue(static_cast<int>(State::UNKNOWN)),
                          MakeEnumAccessor(&AdcHealthMonitor::m_initialState),
                          MakeEnumChecker(static_cast<int>(State::UNKNOWN),
                                          "UNKNOWN",
                                          static_cast<int>(State::UP),
                                          "UP",
                                          static_cast<int>(State::DOWN),
                                          "DOWN"))
            .AddTraceSource("StateChange",
                            "A target's state changed.",
                            MakeTraceSourceAccessor(&AdcHealthMonitor::m_stateChangeTrace),
                            "ns3::AdcHealthMonitor::StateChangeTracedCallback")
            .AddTraceSource("Probe",
                            "A probe finished (success or failure, with its round trip and "
                            "reason).",
                            MakeTraceSourceAccessor(&AdcHealthMonitor::m_probeTrace),
                            "ns3::AdcHealthMonitor::ProbeTracedCallback")
            .AddTraceSource("Drop",
                            "A received packet could not be used (truncated, late reply).",
                            MakeTraceSourceAccessor(&AdcHealthMonitor::m_dropTrace),
                            "ns3::AdcHealthMonitor::DropTracedCallback");
    return tid;
}

AdcHealthMonitor::AdcHealthMonitor()
    : m_type(PING),
      m_retries(3),
      m_successRetries(1),
      m_destinationPort(0),
      m_httpExpectedStatus(200),
      m_udpRequireReply(false),
      m_pingDataSize(56),
      m_initialState(static_cast<int>(State::UNKNOWN)),
      m_running(false)
{
    NS_LOG_FUNCTION(this);
    m_jitterRng = CreateObject<UniformRandomVariable>();
}

AdcHealthMonitor::~AdcHealthMonitor()
{
    NS_LOG_FUNCTION(this);
}

std::string
AdcHealthMonitor::ToString(State state)
{
    switch (state)
    {
    case State::UNKNOWN:
        return "UNKNOWN";
    case State::UP:
        return "UP";
    case State::DOWN:
        return "DOWN";
    }
    return "INVALID";
}

std::string
AdcHealthMonitor::ToString(ProbeType type)
{
    switch (type)
    {
    case PING:
        return "PING";
    case TCP:
        return "TCP";
    case UDP:
        return "UDP";
    case HTTP:
        return "HTTP";
    }
    return "INVALID";
}

std::ostream&
operator<<(std::ostream& os, AdcHealthMonitor::State state)
{
    return os << AdcHealthMonitor::ToString(state);
}

uint32_t
AdcHealthMonitor::AddTarget(const AdcIpAddress& address, uint16_t port, const std::string& name)
{
    NS_LOG_FUNCTION(this << address << port << name);
    if (address.IsNone())
    {
        throw AdcConfigError("AdcHealthMonitor '" + m_name + "': target '" + name +
                             "' has no address (an IPv4 or IPv6 address is required)");
    }
    TargetEntry entry;
    entry.target.address = address;
    entry.target.port = port;
    entry.target.name = name;
    ResetEntry(entry);
    m_targets.push_back(entry);
    const auto index = static_cast<uint32_t>(m_targets.size() - 1);
    if (m_running && entry.enabled)
    {
        ScheduleProbe(index, Seconds(0));
    }
    return index;
}

AdcHealthMonitor::State
AdcHealthMonitor::GetState(uint32_t index) const
{
    return Entry(index).state;
}

uint32_t
AdcHealthMonitor::GetNTargets() const
{
    return static_cast<uint32_t>(m_targets.size());
}

const std::string&
AdcHealthMonitor::GetTargetName(uint32_t index) const
{
    return Entry(index).target.name;
}

void
AdcHealthMonitor::SetTargetEnabled(uint32_t index, bool enabled, Time delay)
{
    Entry(index); // range check
    TargetEntry& e = m_targets[index];
    if (e.enabled == enabled)
    {
        return;
    }
    e.enabled = enabled;
    if (!enabled)
    {
        e.nextEvent.Cancel();
        e.timeoutEvent.Cancel();
        if (e.inFlight && m_probe)
        {
            m_probe->Cancel(index);
        }
        e.inFlight = false;
    }
    else if (m_running)
    {
        ScheduleProbe(index, delay);
    }
}

bool
AdcHealthMonitor::IsTargetEnabled(uint32_t index) const
{
    return Entry(index).enabled;
}

void
AdcHealthMonitor::SetStateChangeCallback(StateChangeCallback cb)
{
    m_stateChangeCallback = cb;
}

void
AdcHealthMonitor::SetProbe(Ptr<AdcHealthProbe> probe)
{
    m_customProbe = probe;
}

int64_t
AdcHealthMonitor::AssignStreams(int64_t stream)
{
    m_jitterRng->SetStream(stream);
    return 1;
}

void
AdcHealthMonitor::Validate() const
{
    const std::string owner = "AdcHealthMonitor '" + m_name + "': ";
    auto fail = [&owner](const std::string& what) { throw AdcConfigError(owner + what); };
    if (!m_interval.IsStrictlyPositive())
    {
        fail("Interval " + FormatTime(m_interval) + " must be greater than 0");
    }
    if (!m_responseTimeout.IsStrictlyPositive() || m_responseTimeout >= m_interval)
    {
        fail("ResponseTimeout " + FormatTime(m_responseTimeout) +
             " must be greater than 0 and less than Interval " + FormatTime(m_interval));
    }
    if (m_downTime <= m_responseTimeout)
    {
        fail("DownTime " + FormatTime(m_downTime) + " must be greater than ResponseTimeout " +
             FormatTime(m_responseTimeout));
    }
    if (m_retries < 1)
    {
        fail("Retries " + std::to_string(m_retries) + " must be at least 1");
    }
    if (m_successRetries < 1)
    {
        fail("SuccessRetries " + std::to_string(m_successRetries) + " must be at least 1");
    }
    if (m_jitter.IsStrictlyNegative())
    {
        fail("Jitter " + FormatTime(m_jitter) + " must not be negative");
    }
    if (m_pingDataSize > 65000)
    {
        fail("PingDataSize " + std::to_string(m_pingDataSize) + " must be at most 65000");
    }
    if (m_type == HTTP && SplitRequestLine(m_httpRequest).first.empty())
    {
        fail("HttpRequest '" + m_httpRequest +
             "' must be \"METHOD /path\" (upper-case method, one space, path starting with /)");
    }
    if (m_type == HTTP && (m_httpExpectedStatus < 100 || m_httpExpectedStatus > 599))
    {
        fail("HttpExpectedStatus " + std::to_string(m_httpExpectedStatus) + " must be in 100..599");
    }
    if (m_type != PING && m_destinationPort == 0)
    {
        for (const TargetEntry& e : m_targets)
        {
            if (e.target.port == 0)
            {
                fail("target '" + e.target.name + "' has port 0 and DestinationPort is 0 (" +
                     ToString(m_type) + " probes need a port)");
            }
        }
    }
}

void
AdcHealthMonitor::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_probe)
    {
        m_probe->Stop();
    }
    for (TargetEntry& e : m_targets)
    {
        e.timeoutEvent.Cancel();
        e.nextEvent.Cancel();
    }
    m_running = false;
    m_targets.clear();
    m_probe = nullptr;
    m_customProbe = nullptr;
    m_jitterRng = nullptr;
    m_stateChangeCallback = StateChangeCallback();
    Application::DoDispose();
}

void
AdcHealthMonitor::StartApplication()
{
    NS_LOG_FUNCTION(this);
    Validate();
    m_probe = m_customProbe ? m_customProbe : CreateProbe();
    m_probe->Start(GetNode(),
                   ComputeInstanceId(),
                   MakeCallback(&AdcHealthMonitor::ProbeResult, this),
                   MakeCallback(&AdcHealthMonitor::ProbeDrop, this));
    m_running = true;
    for (uint32_t i = 0; i < m_targets.size(); ++i)
    {
        ResetEntry(m_targets[i]);
        if (m_targets[i].enabled)
        {
            ScheduleProbe(i, Seconds(0));
        }
    }
}

void
AdcHealthMonitor::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    for (TargetEntry& e : m_targets)
    {
        e.timeoutEvent.Cancel();
        e.nextEvent.Cancel();
        e.inFlight = false;
    }
    if (m_probe)
    {
        m_probe->Stop();
    }
}

Ptr<AdcHealthProbe>
AdcHealthMonitor::CreateProbe() const
{
    // The one place that maps a Type to its probe kind.
    switch (m_type)
    {
    case PING:
        return AdcMakePingProbe(m_pingDataSize);
    case TCP:
        return AdcMakeTcpProbe();
    case UDP:
        return AdcMakeUdpProbe(m_udpPayload, m_udpRequireReply);
    case HTTP: {
        const auto request = SplitRequestLine(m_httpRequest);
        return AdcMakeHttpProbe(request.first, request.second, m_httpExpectedStatus);
    }
    }
    throw AdcConfigError("AdcHealthMonitor '" + m_name + "': Type " +
                         std::to_string(static_cast<int>(m_type)) +
                         " is not one of PING, TCP, UDP, HTTP");
}

uint16_t
AdcHealthMonitor::ComputeInstanceId() const
{
    // Application index in the high byte, node id in the low byte: monitors on one node differ.
    Ptr<Node> node = GetNode();
    uint32_t appIndex = 0;
    for (uint32_t i = 0; i < node->GetNApplications(); ++i)
    {
        if (node->GetApplication(i) == this)
        {
            appIndex = i;
            break;
        }
    }
    return static_cast<uint16_t>(((appIndex & 0xff) << 8) | (node->GetId() & 0xff));
}

const AdcHealthMonitor::TargetEntry&
AdcHealthMonitor::Entry(uint32_t index) const
{
    if (index >= m_targets.size())
    {
        throw AdcConfigError("AdcHealthMonitor '" + m_name + "': target index " +
                             std::to_string(index) + " is out of range (" +
                             std::to_string(m_targets.size()) + " targets)");
    }
    return m_targets[index];
}

void
AdcHealthMonitor::ResetEntry(TargetEntry& entry) const
{
    entry.state = static_cast<State>(m_initialState);
    entry.failures = 0;
    entry.successes = 0;
    entry.inFlight = false;
}

void
AdcHealthMonitor::ScheduleProbe(uint32_t index, Time delay)
{
    if (m_jitter.IsStrictlyPositive())
    {
        delay += Seconds(m_jitterRng->GetValue(0, m_jitter.GetSeconds()));
    }
    m_targets[index].nextEvent =
        Simulator::Schedule(delay, &AdcHealthMonitor::SendProbe, this, index);
}

void
AdcHealthMonitor::SendProbe(uint32_t index)
{
    TargetEntry& e = m_targets[index];
    NS_LOG_FUNCTION(this << index << e.target.name);
    e.inFlight = true;
    e.sentAt = Simulator::Now();
    e.timeoutEvent =
        Simulator::Schedule(m_responseTimeout, &AdcHealthMonitor::ProbeTimeout, this, index);
    AdcHealthProbe::Target target = e.target;
    if (m_destinationPort != 0)
    {
        target.port = m_destinationPort;
    }
    m_probe->Send(index, target); // may report synchronously (e.g. no route)
}

void
AdcHealthMonitor::ProbeTimeout(uint32_t index)
{
    if (!m_targets[index].inFlight)
    {
        return;
    }
    m_probe->Cancel(index);
    const bool success = m_probe->IsSilenceSuccess();
    ProbeResult(index, success, success ? "no-reply" : "timeout");
}

void
AdcHealthMonitor::ProbeResult(uint32_t index, bool success, const std::string& reason)
{
    if (!m_running || index >= m_targets.size() || !m_targets[index].inFlight)
    {
        return;
    }
    TargetEntry& e = m_targets[index];
    e.inFlight = false;
    e.timeoutEvent.Cancel();
    const Time sentAt = e.sentAt;
    const std::string name = e.target.name; // copy: an owner's callback may add targets
    NS_LOG_LOGIC(m_name << " probe to " << name << ": " << (success ? "success" : "failure") << " ("
                        << reason << ")");
    m_probeTrace(index, name, success, Simulator::Now() - sentAt, reason);
    UpdateState(index, success);
    if (!m_running || !m_targets[index].enabled || m_targets[index].nextEvent.IsRunning())
    {
        return; // an owner's callback stopped the monitor, or disabled or re-enabled the target
    }
    const Time spacing = (m_targets[index].state == State::DOWN) ? m_downTime : m_interval;
    const Time delay = sentAt + spacing - Simulator::Now();
    ScheduleProbe(index, delay.IsStrictlyPositive() ? delay : Seconds(0));
}

void
AdcHealthMonitor::ProbeDrop(Ptr<const Packet> packet, const std::string& reason)
{
    NS_LOG_LOGIC(m_name << " dropped a packet: " << reason);
    m_dropTrace(packet, reason);
}

void
AdcHealthMonitor::UpdateState(uint32_t index, bool success)
{
    TargetEntry& e = m_targets[index];
    const State old = e.state;
    State next = old;
    if (success)
    {
        e.failures = 0;
        ++e.successes;
        if (old == State::UNKNOWN || (old == State::DOWN && e.successes >= m_successRetries))
        {
            next = State::UP;
        }
    }
    else
    {
        e.successes = 0;
        ++e.failures;
        if (old != State::DOWN && e.failures >= m_retries)
        {
            next = State::DOWN;
        }
    }
    if (next == old)
    {
        return;
    }
    e.state = next;
    const std::string name = e.target.name;
    NS_LOG_INFO(m_name << ": " << name << " " << old << " -> " << next);
    m_stateChangeTrace(index, name, old, next);
    if (!m_stateChangeCallback.IsNull())
    {
        m_stateChangeCallback(index, old, next);
    }
}

} // namespace ns3
