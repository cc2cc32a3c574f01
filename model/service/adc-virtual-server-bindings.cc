/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: what is bound to a virtual server: its services and service groups (the LB
 * method's back-ends), the virtual servers bound under it with or without a policy, and its
 * backup virtual server.
 */

#include "adc-virtual-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcVirtualServerBindings");

AdcBackend
AdcVirtualServer::MakeBackend(const Member& member) const
{
    AdcBackend b;
    b.name = member.service->GetName();
    b.address = member.service->GetAddress();
    b.port = member.service->GetPort();
    b.weight = member.weight != 0 ? member.weight : member.service->GetWeight();
    b.up = false; // SyncBackends decides, from the service's state
    return b;
}

int32_t
AdcVirtualServer::FindMember(const Ptr<AdcService>& service) const
{
    for (std::size_t i = 0; i < m_members.size(); ++i)
    {
        if (m_members[i].service == service)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

void
AdcVirtualServer::AddMember(Ptr<AdcService> service, uint32_t weight, const std::string& group)
{
    // A back-end is its name to the LB method (hashes key on it), and the method cannot drop
    // one: a service bound again, or another one of the same name, takes the same index.
    int32_t known = -1;
    for (std::size_t i = 0; i < m_members.size(); ++i)
    {
        const Member& m = m_members[i];
        if (m.service == service || m.service->GetName() == service->GetName())
        {
            known = static_cast<int32_t>(i);
        }
    }
    if (known >= 0 && m_members[known].bound)
    {
        throw AdcConfigError("AdcVirtualServer '" + m_name + "': service '" + service->GetName() +
                             "' is bound already");
    }
    const Member member{service, weight, group, true};
    if (known >= 0)
    {
        m_lb->SetBackendWeight(known, weight != 0 ? weight : service->GetWeight());
        m_members[known] = member;
    }
    else
    {
        m_lb->AddBackend(MakeBackend(member)); // may throw: nothing changed yet
        m_members.push_back(member);
    }
    service->TraceConnectWithoutContext("StateChange",
                                        MakeCallback(&AdcVirtualServer::MemberStateChanged, this));
    UpdateState();
}

void
AdcVirtualServer::DropMember(std::size_t index)
{
    Member& m = m_members[index];
    if (!m.bound)
    {
        return;
    }
    m.bound = false;
    m.service->TraceDisconnectWithoutContext(
        "StateChange",
        MakeCallback(&AdcVirtualServer::MemberStateChanged, this));
    if (m_lb)
    {
        m_lb->SetBackendUp(index, false);
    }
    if (m_table)
    {
        m_table->RemoveTarget(index);
    }
}

void
AdcVirtualServer::BindService(Ptr<AdcService> service, uint32_t weight)
{
    NS_LOG_FUNCTION(this << service->GetName() << weight);
    if (weight != 0)
    {
        AdcService::CheckWeight(weight,
                                "AdcVirtualServer '" + m_name + "': bind " + service->GetName());
    }
    AddMember(service, weight, "");
    m_bindings.push_back({service->GetName(), weight, nullptr});
}

void
AdcVirtualServer::BindServiceGroup(Ptr<AdcServiceGroup> group)
{
    NS_LOG_FUNCTION(this << group->GetName());
    for (const Binding& b : m_bindings)
    {
        if (b.name == group->GetName())
        {
            throw AdcConfigError("AdcVirtualServer '" + m_name + "': service group '" + b.name +
                                 "' is bound already");
        }
    }
    for (const Ptr<AdcService>& s : group->GetMembers())
    {
        AddMember(s, 0, group->GetName());
    }
    group->TraceConnectWithoutContext("MemberChange",
                                      MakeCallback(&AdcVirtualServer::GroupMemberChanged, this));
    m_bindings.push_back({group->GetName(), 0, group});
}

bool
AdcVirtualServer::Unbind(const std::string& name)
{
    for (auto it = m_bindings.begin(); it != m_bindings.end(); ++it)
    {
        if (it->name != name)
        {
            continue;
        }
        for (std::size_t i = 0; i < m_members.size(); ++i)
        {
            const Member& m = m_members[i];
            if (m.bound &&
                (it->group ? m.group == name : m.group.empty() && m.service->GetName() == name))
            {
                DropMember(i);
            }
        }
        if (it->group)
        {
            it->group->TraceDisconnectWithoutContext(
                "MemberChange",
                MakeCallback(&AdcVirtualServer::GroupMemberChanged, this));
        }
        m_bindings.erase(it);
        UpdateState();
        return true;
    }
    return false;
}

std::vector<AdcVirtualServer::ServiceBinding>
AdcVirtualServer::GetServiceBindings() const
{
    std::vector<ServiceBinding> out;
    for (const Binding& b : m_bindings)
    {
        out.push_back({b.name, b.weight, b.group != nullptr});
    }
    return out;
}

bool
AdcVirtualServer::Reaches(const AdcVirtualServer* target) const
{
    if (this == target)
    {
        return true;
    }
    for (const Child& c : m_children)
    {
        if (c.binding.vserver->Reaches(target))
        {
            return true;
        }
    }
    return m_backup && m_backup->Reaches(target);
}

void
AdcVirtualServer::BindVServer(Ptr<AdcVirtualServer> vserver, Ptr<AdcBindingPolicy> policy)
{
    NS_LOG_FUNCTION(this << vserver->GetName());
    if (vserver->Reaches(this))
    {
        throw AdcConfigError("AdcVirtualServer '" + m_name + "': binding '" + vserver->GetName() +
                             "' under it would make a cycle");
    }
    m_children.push_back({{vserver, policy}, m_childOrder++});
    // Policies by priority, ties in binding order; default targets (no policy) last.
    std::stable_sort(m_children.begin(), m_children.end(), [](const Child& a, const Child& b) {
        const Ptr<AdcBindingPolicy>& pa = a.binding.policy;
        const Ptr<AdcBindingPolicy>& pb = b.binding.policy;
        if (!pa || !pb)
        {
            return pa && !pb;
        }
        return pa->GetPriority() < pb->GetPriority();
    });
    vserver->TraceConnectWithoutContext("StateChange",
                                        MakeCallback(&AdcVirtualServer::ChildStateChanged, this));
    UpdateState();
}

bool
AdcVirtualServer::UnbindVServer(const std::string& name)
{
    const auto gone =
        std::stable_partition(m_children.begin(), m_children.end(), [&name](const Child& c) {
            return c.binding.vserver->GetName() != name;
        });
    if (gone == m_children.end())
    {
        return false;
    }
    // Every binding of that virtual server goes, so one disconnection (of all) is right.
    gone->binding.vserver->TraceDisconnectWithoutContext(
        "StateChange",
        MakeCallback(&AdcVirtualServer::ChildStateChanged, this));
    m_children.erase(gone, m_children.end());
    UpdateState();
    return true;
}

void
AdcVirtualServer::EraseChild(std::vector<Child>::iterator it)
{
    const Ptr<AdcVirtualServer> vserver = it->binding.vserver;
    m_children.erase(it);
    const bool stillBound =
        std::any_of(m_children.begin(), m_children.end(), [&vserver](const Child& c) {
            return c.binding.vserver == vserver;
        });
    if (!stillBound)
    {
        // Disconnecting removes every connection of the callback: only when none is left.
        vserver->TraceDisconnectWithoutContext(
            "StateChange",
            MakeCallback(&AdcVirtualServer::ChildStateChanged, this));
    }
    UpdateState();
}

bool
AdcVirtualServer::UnbindPolicy(const std::string& policyName)
{
    const auto it = std::find_if(m_children.begin(), m_children.end(), [&](const Child& c) {
        return c.binding.policy && c.binding.policy->GetName() == policyName;
    });
    if (it == m_children.end())
    {
        return false;
    }
    EraseChild(it);
    return true;
}

bool
AdcVirtualServer::UnbindDefault(const std::string& name)
{
    const auto it = std::find_if(m_children.begin(), m_children.end(), [&](const Child& c) {
        return !c.binding.policy && c.binding.vserver->GetName() == name;
    });
    if (it == m_children.end())
    {
        return false;
    }
    EraseChild(it);
    return true;
}

std::vector<AdcVirtualServer::VServerBinding>
AdcVirtualServer::GetVServerBindings() const
{
    std::vector<VServerBinding> out;
    for (const Child& c : m_children)
    {
        out.push_back(c.binding);
    }
    return out;
}

void
AdcVirtualServer::SetBackupVServer(Ptr<AdcVirtualServer> backup)
{
    if (backup && backup->Reaches(this))
    {
        throw AdcConfigError("AdcVirtualServer '" + m_name + "': backup virtual server '" +
                             backup->GetName() +
                             "' leads back to it; backups must not chain "
                             "into a cycle");
    }
    m_backup = backup;
}

Ptr<AdcVirtualServer>
AdcVirtualServer::GetBackupVServer() const
{
    return m_backup;
}

} // namespace ns3
