/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-virtual-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcVirtualServer");

NS_OBJECT_ENSURE_REGISTERED(AdcVirtualServer);

namespace
{

/// AdcLbMethod's default hash seed, so a virtual server hashes as a bare method does.
constexpr uint64_t kDefaultHashSeed = 0x5a17ad0c0ffee123ULL;
/// Persistence timeouts NetScaler allows, in minutes.
constexpr uint32_t kMaxTimeout = 1440;

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcVirtualServer

TypeId
AdcVirtualServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcVirtualServer")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcVirtualServer>()
            .AddAttribute("HashSeed",
                          "Seed of the LB method's hashes (AdcLbMethod's HashSeed).",
                          UintegerValue(kDefaultHashSeed),
                          MakeUintegerAccessor(&AdcVirtualServer::SetHashSeed,
                                               &AdcVirtualServer::GetHashSeed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("UnknownIsUp",
                          "Whether a service whose bound monitors have not all answered yet "
                          "(UNKNOWN) receives traffic, as the appliances that keep a back-end in "
                          "use until a monitor says DOWN (the CRD lower tier, ILB) do.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcVirtualServer::m_unknownIsUp),
                          MakeBooleanChecker())
            .AddAttribute("LbMethod",
                          "The LB method, by NetScaler name (-lbMethod; NetScaler's default is "
                          "LEASTCONNECTION).",
                          StringValue("LEASTCONNECTION"),
                          MakeStringAccessor(&AdcVirtualServer::SetLbMethod,
                                             &AdcVirtualServer::GetLbMethodName),
                          MakeStringChecker())
            .AddAttribute("PersistenceType",
                          "NONE, SOURCEIP, COOKIEINSERT or SSLSESSION (-persistenceType).",
                          StringValue("NONE"),
                          MakeStringAccessor(&AdcVirtualServer::SetPersistenceType),
                          MakeStringChecker())
            .AddAttribute("Timeout",
                          "Persistence timeout in minutes (-timeout, default 2; 2..1440, or "
                          "0..1440 for COOKIEINSERT where 0 is a session cookie).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&AdcVirtualServer::m_timeout),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "AdminState",
                "ENABLED, or DISABLED (traffic goes to the backup virtual server).",
                EnumValue(AdcService::ENABLED),
                MakeEnumAccessor(&AdcVirtualServer::SetAdminState,
                                 &AdcVirtualServer::GetAdminState),
                MakeEnumChecker(AdcService::ENABLED, "ENABLED", AdcService::DISABLED, "DISABLED"))
            .AddTraceSource("Selection",
                            "A request or new flow passed through the virtual server: the "
                            "service chosen and how.",
                            MakeTraceSourceAccessor(&AdcVirtualServer::m_selectionTrace),
                            "ns3::AdcVirtualServer::SelectionTracedCallback")
            .AddTraceSource("StateChange",
                            "The effective state (UP, DOWN, OUT OF SERVICE) changed.",
                            MakeTraceSourceAccessor(&AdcVirtualServer::m_stateTrace),
                            "ns3::AdcVirtualServer::StateChangeTracedCallback");
    return tid;
}

AdcVirtualServer::AdcVirtualServer()
    : m_hashSeed(kDefaultHashSeed),
      m_table(CreateObject<AdcPersistenceTable>())
{
    NS_LOG_FUNCTION(this);
}

AdcVirtualServer::~AdcVirtualServer()
{
    NS_LOG_FUNCTION(this);
}

void
AdcVirtualServer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // What this virtual server listens to may outlive it.
    for (std::size_t i = 0; i < m_members.size(); ++i)
    {
        DropMember(i);
    }
    for (const Binding& b : m_bindings)
    {
        if (b.group)
        {
            b.group->TraceDisconnectWithoutContext(
                "MemberChange",
                MakeCallback(&AdcVirtualServer::GroupMemberChanged, this));
        }
    }
    for (const Child& c : m_children)
    {
        c.binding.vserver->TraceDisconnectWithoutContext(
            "StateChange",
            MakeCallback(&AdcVirtualServer::ChildStateChanged, this));
    }
    m_members.clear();
    m_bindings.clear();
    m_children.clear();
    m_backup = nullptr;
    m_lb = nullptr;
    m_table = nullptr;
    Object::DoDispose();
}

void
AdcVirtualServer::Configure(const std::string& name,
                            const std::string& serviceType,
                            const AdcIpAddress& vip,
                            uint16_t port)
{
    m_serviceType = AdcService::CheckServiceType(serviceType, "AdcVirtualServer '" + name + "'");
    m_name = name;
    m_vip = vip;
    m_port = port;
}

const std::string&
AdcVirtualServer::GetName() const
{
    return m_name;
}

const std::string&
AdcVirtualServer::GetServiceType() const
{
    return m_serviceType;
}

const AdcIpAddress&
AdcVirtualServer::GetVip() const
{
    return m_vip;
}

uint16_t
AdcVirtualServer::GetPort() const
{
    return m_port;
}

void
AdcVirtualServer::SetLbMethod(const std::string& name)
{
    const std::string canonical =
        AdcLbMethodRegistry::Resolve(name,
                                     {AdcLbMethodRegistry::NETSCALER, 0, {}},
                                     "AdcVirtualServer '" + m_name + "'",
                                     "lbMethod");
    Ptr<AdcLbMethod> lb = AdcLbMethodRegistry::Create(canonical, AdcLbMethodRegistry::NETSCALER);
    lb->SetHashSeed(m_hashSeed);
    // Same members in the same order: back-end indices, hence persistence entries, stay valid.
    // A switch at run time keeps the open connections' counts (LEASTCONNECTION and any
    // load-aware method see them; their ConnectionClosed calls come to the new method).
    for (std::size_t i = 0; i < m_members.size(); ++i)
    {
        const auto index = lb->AddBackend(MakeBackend(m_members[i]));
        const uint32_t open = m_lb ? m_lb->GetBackend(index).activeConnections : 0;
        for (uint32_t c = 0; c < open; ++c)
        {
            lb->ConnectionOpened(index);
        }
    }
    for (const auto& [attribute, value] : m_lbParameters)
    {
        ApplyLbParameter(lb, attribute, value);
    }
    m_lb = lb;
    m_lbMethodName = canonical;
}

void
AdcVirtualServer::ApplyLbParameter(Ptr<AdcLbMethod> lb,
                                   const std::string& attribute,
                                   const std::string& value) const
{
    TypeId::AttributeInformation info;
    if (!lb->GetInstanceTypeId().LookupAttributeByName(attribute, &info))
    {
        return; // not this method's parameter: kept for a method that has it
    }
    if (!lb->SetAttributeFailSafe(attribute, StringValue(value)))
    {
        throw AdcConfigError(
            "AdcVirtualServer '" + m_name + "': " + lb->GetMethodName() + " " + attribute + " '" +
            value + "' is refused; allowed: " + info.checker->GetUnderlyingTypeInformation());
    }
}

void
AdcVirtualServer::SetLbMethodParameter(const std::string& attribute, const std::string& value)
{
    if (m_lb)
    {
        ApplyLbParameter(m_lb, attribute, value); // throws before anything is stored
    }
    m_lbParameters[attribute] = value;
}

std::string
AdcVirtualServer::GetLbMethodParameter(const std::string& attribute) const
{
    const auto it = m_lbParameters.find(attribute);
    return it == m_lbParameters.end() ? "" : it->second;
}

void
AdcVirtualServer::SetHashSeed(uint64_t seed)
{
    m_hashSeed = seed;
    if (m_lb)
    {
        m_lb->SetHashSeed(seed);
    }
}

uint64_t
AdcVirtualServer::GetHashSeed() const
{
    return m_hashSeed;
}

std::string
AdcVirtualServer::GetLbMethodName() const
{
    return m_lbMethodName;
}

Ptr<AdcLbMethod>
AdcVirtualServer::GetLbMethod() const
{
    return m_lb;
}

void
AdcVirtualServer::SetPersistenceType(const std::string& type)
{
    m_persistence = AdcPersistenceTypeFromString(type);
}

AdcPersistenceType
AdcVirtualServer::GetPersistenceType() const
{
    return m_persistence;
}

Ptr<AdcPersistenceTable>
AdcVirtualServer::GetPersistenceTable() const
{
    return m_table;
}

void
AdcVirtualServer::SetAdminState(AdminState state)
{
    m_adminState = state;
    UpdateState();
}

AdcVirtualServer::AdminState
AdcVirtualServer::GetAdminState() const
{
    return m_adminState;
}

void
AdcVirtualServer::Validate() const
{
    const std::string who = "AdcVirtualServer '" + m_name + "'";
    if (m_persistence == AdcPersistenceType::NONE)
    {
        return;
    }
    // NetScaler's SSL service type is what the support matrix calls HTTPS.
    AdcPersistenceTable::CheckSupported(m_persistence,
                                        m_serviceType == "SSL" ? "HTTPS" : m_serviceType);
    const uint32_t min = m_persistence == AdcPersistenceType::COOKIEINSERT ? 0 : 2;
    if (m_timeout < min || m_timeout > kMaxTimeout)
    {
        throw AdcConfigError(who + ": timeout " + std::to_string(m_timeout) +
                             " is out of range for persistence type " +
                             AdcPersistenceTypeToString(m_persistence) + "; allowed " +
                             std::to_string(min) + ".." + std::to_string(kMaxTimeout) + " minutes");
    }
}

AdcVirtualServer::State
AdcVirtualServer::GetState() const
{
    if (m_adminState == AdcService::DISABLED)
    {
        return State::OUT_OF_SERVICE;
    }
    for (const Member& m : m_members)
    {
        if (m.bound && m.service->IsUp(m_unknownIsUp))
        {
            return State::UP;
        }
    }
    for (const Child& c : m_children)
    {
        if (c.binding.vserver->GetState() == State::UP)
        {
            return State::UP;
        }
    }
    return State::DOWN;
}

void
AdcVirtualServer::UpdateState()
{
    AdcService::ReportState(m_name, GetState(), m_reported, m_stateTrace);
}

void
AdcVirtualServer::MemberStateChanged(const std::string& /* name */,
                                     AdcService::State /* oldState */,
                                     AdcService::State /* newState */)
{
    UpdateState();
}

void
AdcVirtualServer::ChildStateChanged(const std::string& /* name */,
                                    State /* oldState */,
                                    State /* newState */)
{
    UpdateState();
}

void
AdcVirtualServer::GroupMemberChanged(const std::string& group,
                                     const std::string& member,
                                     bool added)
{
    for (const Binding& b : m_bindings)
    {
        if (b.group && b.name == group && added)
        {
            for (const Ptr<AdcService>& s : b.group->GetMembers())
            {
                if (s->GetName() == member)
                {
                    AddMember(s, 0, group);
                }
            }
        }
    }
    for (std::size_t i = 0; i < m_members.size() && !added; ++i)
    {
        if (m_members[i].group == group && m_members[i].service->GetName() == member)
        {
            DropMember(i);
        }
    }
    UpdateState();
}

void
AdcVirtualServer::SyncBackends()
{
    for (std::size_t i = 0; i < m_members.size(); ++i)
    {
        const Member& m = m_members[i];
        m_lb->SetBackendUp(i,
                           m.bound && m.service->IsUp(m_unknownIsUp) && m.service->HasCapacity());
    }
}

AdcSelection
AdcVirtualServer::Select(const AdcLbContext& ctx, Time now)
{
    if (m_persistence == AdcPersistenceType::SOURCEIP)
    {
        const AdcPersistenceKey key = AdcPersistenceKey::FromSourceIp(ctx.flow.src);
        return DoSelect(ctx, now, &key);
    }
    return DoSelect(ctx, now, nullptr);
}

AdcSelection
AdcVirtualServer::Select(const AdcLbContext& ctx, Time now, const AdcPersistenceKey& key)
{
    return DoSelect(ctx, now, m_persistence == AdcPersistenceType::NONE ? nullptr : &key);
}

AdcSelection
AdcVirtualServer::Done(const AdcLbContext& ctx, AdcSelection sel)
{
    if (!sel.service)
    {
        sel.how = "none";
        ++m_failures;
    }
    m_selectionTrace(ctx.flow, m_name, sel.service ? sel.service->GetName() : "", sel.how);
    return sel;
}

AdcSelection
AdcVirtualServer::DoSelect(const AdcLbContext& ctx, Time now, const AdcPersistenceKey* key)
{
    Validate();
    AdcSelection sel;
    auto viaBackup = [&]() {
        if (m_backup)
        {
            ++m_backupSelections;
            sel = m_backup->Select(ctx, now);
            sel.how = "backup";
        }
        return Done(ctx, sel);
    };
    if (GetState() != State::UP)
    {
        return viaBackup();
    }
    for (const Child& c : m_children)
    {
        const VServerBinding& b = c.binding;
        if (b.policy && b.vserver->GetState() == State::UP && b.policy->Match(ctx))
        {
            sel = b.vserver->Select(ctx, now);
            if (sel.service)
            {
                sel.how = "policy " + b.policy->GetName();
                return Done(ctx, sel);
            }
        }
    }
    SyncBackends();
    std::optional<uint32_t> index;
    if (key)
    {
        index = m_table->Lookup(*key, now);
        if (index && !m_lb->GetBackend(*index).up)
        {
            index.reset(); // its service is down, full or unbound: choose again
        }
        m_persistenceHits += index ? 1 : 0;
        sel.how = "persistence";
    }
    if (!index)
    {
        const int32_t chosen = m_lb->Select(ctx);
        if (chosen >= 0)
        {
            index = static_cast<uint32_t>(chosen);
            sel.how = "method";
            if (key)
            {
                // A session cookie (COOKIEINSERT, timeout 0) has no expiry: a century.
                const Time timeout = m_timeout == 0 ? Hours(24 * 365 * 100) : Minutes(m_timeout);
                m_table->Insert(*key, *index, now, timeout);
            }
        }
    }
    if (index)
    {
        ++m_hits;
        sel.service = m_members[*index].service;
        sel.service->CountSelection();
        sel.vserver = this;
        return Done(ctx, sel);
    }
    for (const Child& c : m_children)
    {
        const VServerBinding& b = c.binding;
        if (!b.policy && b.vserver->GetState() == State::UP)
        {
            sel = b.vserver->Select(ctx, now);
            if (sel.service)
            {
                sel.how = "default";
                return Done(ctx, sel);
            }
        }
    }
    return viaBackup();
}

Ptr<AdcService>
AdcVirtualServer::FindBoundService(const AdcIpAddress& address, uint16_t port) const
{
    for (const Member& m : m_members)
    {
        if (m.bound && m.service->GetPort() == port && m.service->GetAddress() == address)
        {
            return m.service;
        }
    }
    return nullptr;
}

AdcSelection
AdcVirtualServer::SelectPersisted(const AdcLbContext& ctx, Ptr<AdcService> service)
{
    AdcSelection sel;
    const auto member = std::find_if(m_members.begin(), m_members.end(), [&](const Member& m) {
        return m.bound && m.service == service;
    });
    if (member == m_members.end() || GetState() != State::UP)
    {
        return sel;
    }
    SyncBackends();
    if (!m_lb->GetBackend(static_cast<uint32_t>(member - m_members.begin())).up)
    {
        return sel;
    }
    ++m_hits;
    ++m_persistenceHits;
    service->CountSelection();
    sel.service = service;
    sel.vserver = this;
    sel.how = "persistence";
    return Done(ctx, sel);
}

void
AdcVirtualServer::ConnectionOpened(Ptr<AdcService> service)
{
    const int32_t i = FindMember(service);
    if (i >= 0)
    {
        m_lb->ConnectionOpened(i);
        service->ConnectionOpened();
    }
}

void
AdcVirtualServer::ConnectionClosed(Ptr<AdcService> service)
{
    const int32_t i = FindMember(service);
    if (i >= 0)
    {
        m_lb->ConnectionClosed(i);
        service->ConnectionClosed();
    }
}

uint64_t
AdcVirtualServer::GetHits() const
{
    return m_hits;
}

uint64_t
AdcVirtualServer::GetPersistenceHits() const
{
    return m_persistenceHits;
}

uint64_t
AdcVirtualServer::GetBackupSelections() const
{
    return m_backupSelections;
}

uint64_t
AdcVirtualServer::GetFailures() const
{
    return m_failures;
}

} // namespace ns3
