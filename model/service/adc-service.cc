/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-service.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcService");

NS_OBJECT_ENSURE_REGISTERED(AdcService);

std::string
AdcService::ToString(State state)
{
    switch (state)
    {
    case State::UP:
        return "UP";
    case State::DOWN:
        return "DOWN";
    case State::UNKNOWN:
        return "UNKNOWN";
    case State::OUT_OF_SERVICE:
        return "OUT OF SERVICE";
    }
    return "state " + std::to_string(static_cast<int>(state));
}

std::ostream&
operator<<(std::ostream& os, AdcService::State state)
{
    return os << AdcService::ToString(state);
}

TypeId
AdcService::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcService")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcService>()
            .AddAttribute("Weight",
                          "Share of this service in weighted methods where a binding gives no "
                          "weight of its own (NetScaler's weights are 1..100).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&AdcService::m_weight),
                          MakeUintegerChecker<uint32_t>(1, 100))
            .AddAttribute(
                "AdminState",
                "ENABLED, or DISABLED (out of service: no new connections).",
                EnumValue(AdcService::ENABLED),
                MakeEnumAccessor(&AdcService::SetAdminState, &AdcService::GetAdminState),
                MakeEnumChecker(AdcService::ENABLED, "ENABLED", AdcService::DISABLED, "DISABLED"))
            .AddAttribute("MaxClient",
                          "Open connections at which the service takes no new one (0: no "
                          "limit, NetScaler's default).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcService::m_maxClient),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Cip",
                          "Insert the client's IP address in a request header (-cip).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcService::m_cip),
                          MakeBooleanChecker())
            .AddAttribute("CipHeader",
                          "Name of the client-IP header; empty: the appliance's default.",
                          StringValue(""),
                          MakeStringAccessor(&AdcService::m_cipHeader),
                          MakeStringChecker())
            .AddAttribute("UseProxyPort",
                          "Connections to the service use a port of the appliance rather than "
                          "the client's (-useproxyport, default YES).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcService::m_useProxyPort),
                          MakeBooleanChecker())
            .AddAttribute("Usip",
                          "Connections to the service carry the client's IP as source (-usip).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcService::m_usip),
                          MakeBooleanChecker())
            .AddAttribute(
                "HealthMonitor",
                "Whether bound monitors decide the state; false: always UP "
                "(-healthMonitor NO).",
                BooleanValue(true),
                MakeBooleanAccessor(&AdcService::SetHealthMonitor, &AdcService::GetHealthMonitor),
                MakeBooleanChecker())
            .AddTraceSource("StateChange",
                            "The service's state (UP, DOWN, UNKNOWN, OUT OF SERVICE) changed.",
                            MakeTraceSourceAccessor(&AdcService::m_stateTrace),
                            "ns3::AdcService::StateChangeTracedCallback");
    return tid;
}

AdcService::AdcService()
{
    NS_LOG_FUNCTION(this);
}

AdcService::~AdcService()
{
    NS_LOG_FUNCTION(this);
}

void
AdcService::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // Monitors may outlive the service: leave none of their callbacks pointing at it.
    for (std::size_t k = 0; k < m_monitors.size(); ++k)
    {
        m_monitors[k].monitor->TraceDisconnect(
            "StateChange",
            std::to_string(k),
            MakeCallback(&AdcService::MonitorStateChanged, this));
    }
    m_monitors.clear();
    Object::DoDispose();
}

const std::vector<std::string>&
AdcService::GetServiceTypes()
{
    static const std::vector<std::string> types =
        {"HTTP", "SSL", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP", "RTSP", "SIP_UDP", "ANY"};
    return types;
}

std::string
AdcService::CheckServiceType(const std::string& type, const std::string& owner)
{
    const int i = AdcText::Find(type, GetServiceTypes(), AdcText::INSENSITIVE);
    if (i < 0)
    {
        throw AdcConfigError::NotOneOf(owner, "serviceType", type, GetServiceTypes());
    }
    return GetServiceTypes()[i];
}

void
AdcService::CheckWeight(uint32_t weight, const std::string& owner)
{
    if (weight < 1 || weight > 100)
    {
        throw AdcConfigError(owner + ": weight " + std::to_string(weight) +
                             " is out of range; allowed 1..100");
    }
}

void
AdcService::Configure(const std::string& name,
                      const AdcIpAddress& address,
                      const std::string& serviceType,
                      uint16_t port)
{
    NS_LOG_FUNCTION(this << name << address << serviceType << port);
    m_serviceType = CheckServiceType(serviceType, "AdcService '" + name + "'");
    if (port == 0 && m_serviceType != "ANY")
    {
        throw AdcConfigError("AdcService '" + name +
                             "': port * (0) needs service type ANY, "
                             "not " +
                             m_serviceType + "; allowed ports 1..65535");
    }
    m_name = name;
    m_address = address;
    m_port = port;
}

const std::string&
AdcService::GetName() const
{
    return m_name;
}

const AdcIpAddress&
AdcService::GetAddress() const
{
    return m_address;
}

const std::string&
AdcService::GetServiceType() const
{
    return m_serviceType;
}

uint16_t
AdcService::GetPort() const
{
    return m_port;
}

uint32_t
AdcService::GetWeight() const
{
    return m_weight;
}

AdcService::AdminState
AdcService::GetAdminState() const
{
    return m_adminState;
}

uint32_t
AdcService::GetMaxClient() const
{
    return m_maxClient;
}

bool
AdcService::GetCip() const
{
    return m_cip;
}

const std::string&
AdcService::GetCipHeader() const
{
    return m_cipHeader;
}

bool
AdcService::GetUseProxyPort() const
{
    return m_useProxyPort;
}

bool
AdcService::GetUsip() const
{
    return m_usip;
}

bool
AdcService::GetHealthMonitor() const
{
    return m_healthMonitor;
}

void
AdcService::SetAdminState(AdminState state)
{
    m_adminState = state;
    Update();
}

void
AdcService::SetHealthMonitor(bool on)
{
    m_healthMonitor = on;
    Update();
}

void
AdcService::Enable()
{
    SetAdminState(ENABLED);
}

void
AdcService::Disable()
{
    SetAdminState(DISABLED);
}

void
AdcService::BindMonitor(Ptr<AdcHealthMonitor> monitor)
{
    NS_LOG_FUNCTION(this << monitor);
    for (MonitorBinding& b : m_monitors)
    {
        if (b.monitor == monitor)
        {
            if (!b.bound)
            {
                b.bound = true;
                b.state = monitor->GetState(b.target);
                Update();
            }
            return;
        }
    }
    MonitorBinding b;
    b.monitor = monitor;
    b.target = monitor->AddTarget(m_address, m_port, m_name);
    b.state = monitor->GetState(b.target);
    b.bound = true;
    // The context names the binding, so one callback serves every monitor.
    monitor->TraceConnect("StateChange",
                          std::to_string(m_monitors.size()),
                          MakeCallback(&AdcService::MonitorStateChanged, this));
    m_monitors.push_back(b);
    Update();
}

bool
AdcService::UnbindMonitor(Ptr<AdcHealthMonitor> monitor)
{
    NS_LOG_FUNCTION(this << monitor);
    for (std::size_t k = 0; k < m_monitors.size(); ++k)
    {
        MonitorBinding& b = m_monitors[k];
        if (b.monitor == monitor && b.bound)
        {
            b.bound = false;
            Update();
            return true;
        }
    }
    return false;
}

std::vector<Ptr<AdcHealthMonitor>>
AdcService::GetMonitors() const
{
    std::vector<Ptr<AdcHealthMonitor>> out;
    for (const MonitorBinding& b : m_monitors)
    {
        if (b.bound)
        {
            out.push_back(b.monitor);
        }
    }
    return out;
}

void
AdcService::MonitorStateChanged(std::string context,
                                uint32_t target,
                                const std::string& /* targetName */,
                                AdcHealthMonitor::State /* oldState */,
                                AdcHealthMonitor::State newState)
{
    MonitorBinding& b = m_monitors.at(std::stoul(context));
    if (target != b.target)
    {
        return; // another service's target of the same monitor
    }
    b.state = newState;
    Update();
}

void
AdcService::SetExternalHealth(State state)
{
    if (state == State::OUT_OF_SERVICE)
    {
        throw AdcConfigError("AdcService '" + m_name +
                             "': external health OUT_OF_SERVICE: allowed UP, DOWN, UNKNOWN "
                             "(out of service is the admin state)");
    }
    m_hasExternal = true;
    m_external = state;
    Update();
}

void
AdcService::ClearExternalHealth()
{
    m_hasExternal = false;
    Update();
}

bool
AdcService::HasExternalHealth() const
{
    return m_hasExternal;
}

AdcService::State
AdcService::GetHealth() const
{
    if (!m_healthMonitor)
    {
        return State::UP;
    }
    if (m_hasExternal && m_external == State::DOWN)
    {
        return State::DOWN;
    }
    bool allUp = !m_hasExternal || m_external == State::UP;
    for (const MonitorBinding& b : m_monitors)
    {
        if (!b.bound)
        {
            continue;
        }
        if (b.state == AdcHealthMonitor::State::DOWN)
        {
            return State::DOWN; // threshold 0, weights 1: one DOWN monitor is enough
        }
        allUp = allUp && b.state == AdcHealthMonitor::State::UP;
    }
    return allUp ? State::UP : State::UNKNOWN;
}

AdcService::State
AdcService::GetState() const
{
    return m_adminState == DISABLED ? State::OUT_OF_SERVICE : GetHealth();
}

bool
AdcService::IsUp() const
{
    return GetState() == State::UP;
}

bool
AdcService::IsUp(bool unknownIsUp) const
{
    return IsUp(GetState(), unknownIsUp);
}

bool
AdcService::IsUp(State state, bool unknownIsUp)
{
    return state == State::UP || (unknownIsUp && state == State::UNKNOWN);
}

bool
AdcService::HasCapacity() const
{
    return m_maxClient == 0 || m_currentConnections < m_maxClient;
}

void
AdcService::ReportState(const std::string& name, State now, State& last, const StateTrace& trace)
{
    if (now != last)
    {
        NS_LOG_LOGIC(name << " " << last << " -> " << now);
        const State old = last;
        last = now;
        trace(name, old, now);
    }
}

void
AdcService::Update()
{
    ReportState(m_name, GetState(), m_reported, m_stateTrace);
}

void
AdcService::CountSelection()
{
    ++m_selections;
}

void
AdcService::ConnectionOpened()
{
    ++m_currentConnections;
    ++m_totalConnections;
}

void
AdcService::ConnectionClosed()
{
    m_currentConnections = m_currentConnections > 0 ? m_currentConnections - 1 : 0;
}

uint64_t
AdcService::GetSelections() const
{
    return m_selections;
}

uint32_t
AdcService::GetCurrentConnections() const
{
    return m_currentConnections;
}

uint64_t
AdcService::GetTotalConnections() const
{
    return m_totalConnections;
}

} // namespace ns3
