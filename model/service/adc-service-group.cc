/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-service-group.h"

#include "ns3/adc-config-error.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcServiceGroup");

NS_OBJECT_ENSURE_REGISTERED(AdcServiceGroup);

TypeId
AdcServiceGroup::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcServiceGroup")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcServiceGroup>()
            .AddTraceSource("MemberChange",
                            "A member was added or removed.",
                            MakeTraceSourceAccessor(&AdcServiceGroup::m_memberTrace),
                            "ns3::AdcServiceGroup::MemberTracedCallback");
    return tid;
}

AdcServiceGroup::AdcServiceGroup()
    : m_settings(CreateObject<AdcService>())
{
    NS_LOG_FUNCTION(this);
}

AdcServiceGroup::~AdcServiceGroup()
{
    NS_LOG_FUNCTION(this);
}

void
AdcServiceGroup::DoDispose()
{
    for (const Ptr<AdcService>& m : m_members)
    {
        m->Dispose();
    }
    m_members.clear();
    m_monitors.clear();
    m_settings = nullptr;
    Object::DoDispose();
}

void
AdcServiceGroup::Configure(const std::string& name, const std::string& serviceType)
{
    m_serviceType = AdcService::CheckServiceType(serviceType, "AdcServiceGroup '" + name + "'");
    m_name = name;
}

const std::string&
AdcServiceGroup::GetName() const
{
    return m_name;
}

const std::string&
AdcServiceGroup::GetServiceType() const
{
    return m_serviceType;
}

Ptr<AdcService>
AdcServiceGroup::GetMemberSettings() const
{
    return m_settings;
}

std::string
AdcServiceGroup::MemberName(const std::string& group, const AdcIpAddress& address, uint16_t port)
{
    const std::string a = address.IsV6() ? "[" + address.ToString() + "]" : address.ToString();
    return group + "(" + a + ":" + (port == 0 ? std::string("*") : std::to_string(port)) + ")";
}

Ptr<AdcService>
AdcServiceGroup::AddMember(const AdcIpAddress& address, uint16_t port, uint32_t weight)
{
    NS_LOG_FUNCTION(this << address << port << weight);
    const std::string name = MemberName(m_name, address, port);
    if (FindMember(address, port))
    {
        throw AdcConfigError("AdcServiceGroup '" + m_name + "': member " + name +
                             " is bound already; a member is one address and port");
    }
    AdcService::CheckWeight(weight, "AdcServiceGroup '" + m_name + "': member " + name);
    Ptr<AdcService> s = CreateObject<AdcService>();
    s->Configure(name, address, m_serviceType, port);
    // Every setting of the group's, but the member's own weight and the group's admin state.
    const TypeId tid = AdcService::GetTypeId();
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        if (info.name != "Weight" && info.name != "AdminState")
        {
            const Ptr<AttributeValue> value = info.checker->Create();
            m_settings->GetAttribute(info.name, *value);
            s->SetAttribute(info.name, *value);
        }
    }
    s->SetAttribute("Weight", UintegerValue(weight));
    s->SetAdminState(m_adminState);
    for (const Ptr<AdcHealthMonitor>& m : m_monitors)
    {
        s->BindMonitor(m);
    }
    m_members.push_back(s);
    m_memberTrace(m_name, name, true);
    return s;
}

bool
AdcServiceGroup::RemoveMember(const AdcIpAddress& address, uint16_t port)
{
    for (auto it = m_members.begin(); it != m_members.end(); ++it)
    {
        if ((*it)->GetAddress() == address && (*it)->GetPort() == port)
        {
            Ptr<AdcService> gone = *it;
            m_members.erase(it);
            m_memberTrace(m_name, gone->GetName(), false);
            gone->Dispose();
            return true;
        }
    }
    return false;
}

Ptr<AdcService>
AdcServiceGroup::FindMember(const AdcIpAddress& address, uint16_t port) const
{
    for (const Ptr<AdcService>& s : m_members)
    {
        if (s->GetAddress() == address && s->GetPort() == port)
        {
            return s;
        }
    }
    return nullptr;
}

const std::vector<Ptr<AdcService>>&
AdcServiceGroup::GetMembers() const
{
    return m_members;
}

void
AdcServiceGroup::BindMonitor(Ptr<AdcHealthMonitor> monitor)
{
    if (std::find(m_monitors.begin(), m_monitors.end(), monitor) != m_monitors.end())
    {
        return;
    }
    m_monitors.push_back(monitor);
    for (const Ptr<AdcService>& s : m_members)
    {
        s->BindMonitor(monitor);
    }
}

bool
AdcServiceGroup::UnbindMonitor(Ptr<AdcHealthMonitor> monitor)
{
    auto it = std::find(m_monitors.begin(), m_monitors.end(), monitor);
    if (it == m_monitors.end())
    {
        return false;
    }
    m_monitors.erase(it);
    for (const Ptr<AdcService>& s : m_members)
    {
        s->UnbindMonitor(monitor);
    }
    return true;
}

const std::vector<Ptr<AdcHealthMonitor>>&
AdcServiceGroup::GetMonitors() const
{
    return m_monitors;
}

void
AdcServiceGroup::Enable()
{
    m_adminState = AdcService::ENABLED;
    for (const Ptr<AdcService>& s : m_members)
    {
        s->Enable();
    }
}

void
AdcServiceGroup::Disable()
{
    m_adminState = AdcService::DISABLED;
    for (const Ptr<AdcService>& s : m_members)
    {
        s->Disable();
    }
}

AdcService::AdminState
AdcServiceGroup::GetAdminState() const
{
    return m_adminState;
}

} // namespace ns3
