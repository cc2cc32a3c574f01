/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the Solaris-style Integrated Load Balancer (ILB): its servers as AdcService objects
 * and its rules as AdcVirtualServer objects (made, followed, drained). The rest of
 * IlbAppliance is in ilb-appliance.cc.
 */

#include "ilb-appliance.h"

#include "ns3/adc-lb-method-registry.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IlbApplianceServers");

// ---------------------------------------------------------------------------------------------
// IlbAppliance: servers as services, rules as virtual servers

void
IlbAppliance::MakeServices(const IlbRule& rule, uint32_t index, RuleState& st)
{
    const bool equalWeights = std::all_of(rule.servers.begin(),
                                          rule.servers.end(),
                                          [](const IlbServer& s) { return s.weight == 1; });
    // roundrobin with weights becomes smooth weighted round robin (plain with equal weights).
    const std::string canonical =
        AdcLbMethodRegistry::Resolve(rule.algorithm,
                                     {AdcLbMethodRegistry::ILB},
                                     "IlbAppliance: rule '" + rule.name + "'",
                                     "algorithm");
    const std::string method =
        canonical == "ROUNDROBIN" && !equalWeights ? "WEIGHTEDROUNDROBIN" : canonical;
    const std::string type = rule.protocol == AdcFlowKey::PROTO_TCP ? "TCP" : "UDP";
    st.vserver = CreateObject<AdcVirtualServer>();
    st.vserver->SetAttribute("HashSeed", UintegerValue(GetHashSeed()));
    st.vserver->SetAttribute("UnknownIsUp", BooleanValue(true));
    st.vserver->Configure(rule.name,
                          type,
                          rule.vip,
                          rule.ports.first == rule.ports.last ? rule.ports.first : 0);
    st.vserver->SetLbMethod(method);
    AddSeededMethod(st.vserver->GetLbMethod()); // follows SetHashSeed
    for (uint32_t k = 0; k < rule.servers.size(); ++k)
    {
        const IlbServer& s = rule.servers[k];
        ServerState server;
        server.service = CreateObject<AdcService>();
        // Port 0 (the port the client addressed) is NetScaler's "*", of service type ANY.
        server.service->Configure(s.name, s.address, s.port == 0 ? "ANY" : type, s.port);
        server.service->SetAttribute("Weight", UintegerValue(s.weight));
        server.service->TraceConnect("StateChange",
                                     std::to_string(index) + " " + std::to_string(k),
                                     MakeCallback(&IlbAppliance::ServiceStateChanged, this));
        st.vserver->BindService(server.service);
        st.servers.push_back(std::move(server));
    }
}

bool
IlbAppliance::IsAvailable(uint32_t rule, uint32_t server) const
{
    const ServerState& s = m_rules[rule].servers[server];
    return s.reportedUp && s.service->IsUp(true); // UNKNOWN: in use until a check fails
}

int32_t
IlbAppliance::FindServer(uint32_t rule, const Ptr<AdcService>& service) const
{
    const std::vector<ServerState>& servers = m_rules[rule].servers;
    for (uint32_t k = 0; k < servers.size(); ++k)
    {
        if (servers[k].service == service)
        {
            return static_cast<int32_t>(k);
        }
    }
    return -1;
}

void
IlbAppliance::SetServerUp(uint32_t rule, uint32_t server, bool up)
{
    NS_LOG_FUNCTION(this << rule << server << up);
    CheckIndex(rule, server, "SetServerUp");
    ServerState& s = m_rules[rule].servers[server];
    if (s.reportedUp == up)
    {
        return;
    }
    s.reportedUp = up;
    // Bound again, the service takes its old back-end index: the method's choices stay.
    if (up)
    {
        m_rules[rule].vserver->BindService(s.service);
    }
    else
    {
        m_rules[rule].vserver->Unbind(s.service->GetName());
    }
    ServerStateChanged(rule, server);
}

void
IlbAppliance::SetServerEnabled(uint32_t rule, uint32_t server, bool enabled)
{
    NS_LOG_FUNCTION(this << rule << server << enabled);
    CheckIndex(rule, server, "SetServerEnabled");
    m_rules[rule].servers[server].service->SetAdminState(enabled ? AdcService::ENABLED
                                                                 : AdcService::DISABLED);
}

void
IlbAppliance::ServiceStateChanged(std::string context,
                                  const std::string& name,
                                  AdcService::State oldState,
                                  AdcService::State newState)
{
    const std::size_t blank = context.find(' ');
    const auto rule = static_cast<uint32_t>(std::stoul(context.substr(0, blank)));
    const auto server = static_cast<uint32_t>(std::stoul(context.substr(blank + 1)));
    NS_LOG_FUNCTION(this << rule << server << name << oldState << newState);
    if (rule >= m_rules.size())
    {
        return; // disposed
    }
    ServerStateChanged(rule, server);
}

void
IlbAppliance::ServerStateChanged(uint32_t rule, uint32_t server)
{
    // illumos ilbd, on a failed health check (ilbd_hc.c, ilbd_set_fail_state), disables the
    // server in the kernel as disable-server does (ilbd_k_Xable_server, stat_declare_srv_dead):
    // no new connections, existing ones carry on, and are cut conn-drain seconds after the
    // disable when the rule has one (ilb.c, ilb_server_toggle: iser_die_time). So both ways out
    // of service start the same drain; back in service (enabled and up) cancels the cut.
    ServerState& s = m_rules[rule].servers[server];
    const bool inService =
        s.service->GetAdminState() == AdcService::ENABLED && IsServerUp(rule, server);
    if (s.inService == inService)
    {
        return;
    }
    s.inService = inService;
    ++s.drainGen;
    s.drainEvent.Cancel();
    const Time drain = Rule(rule).connDrainTimeout;
    if (!inService && drain.IsStrictlyPositive())
    {
        s.drainEvent = Simulator::Schedule(drain,
                                           &IlbAppliance::DrainDeadline,
                                           Ptr<IlbAppliance>(this),
                                           rule,
                                           server,
                                           s.drainGen);
    }
}

void
IlbAppliance::DrainDeadline(uint32_t rule, uint32_t server, uint64_t gen)
{
    if (rule >= m_rules.size())
    {
        return; // disposed
    }
    RuleState& r = m_rules[rule];
    ServerState& s = r.servers[server];
    if (s.inService || s.drainGen != gen)
    {
        return;
    }
    const uint32_t n = m_conns->RemoveServer(rule, server);
    NS_LOG_LOGIC("rule " << Rule(rule).name << " server " << server << ": drained " << n);
    s.counters.drained += n;
    r.counters.drained += n;
}

bool
IlbAppliance::IsServerUp(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "IsServerUp");
    const ServerState& s = m_rules[rule].servers[server];
    return s.reportedUp && s.service->GetHealth() != AdcService::State::DOWN;
}

bool
IlbAppliance::IsServerEnabled(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "IsServerEnabled");
    return m_rules[rule].servers[server].service->GetAdminState() == AdcService::ENABLED;
}

Ptr<AdcService>
IlbAppliance::GetServerService(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "GetServerService");
    return m_rules[rule].servers[server].service;
}

Ptr<AdcVirtualServer>
IlbAppliance::GetRuleVServer(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].vserver;
}

// ---------------------------------------------------------------------------------------------
// Rule state and the periodic cleanup (illumos ilb.c ilb_rule_disable / ilb_rule_del;
// ilb_conn.c ilb_conn_cleanup / ilb_sticky_cleanup)

void
IlbAppliance::SetRuleEnabled(uint32_t rule, bool enabled)
{
    GetRule(rule);
    // ilb_rule_enable / ilb_rule_disable only flip ILB_RULE_ENABLED: no die time, no cut.
    m_rules[rule].enabled = enabled;
}

bool
IlbAppliance::IsRuleEnabled(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].enabled && !m_rules[rule].deleted;
}

void
IlbAppliance::DeleteRule(uint32_t rule)
{
    GetRule(rule);
    RuleState& r = m_rules[rule];
    if (r.deleted)
    {
        return;
    }
    // ilb_rule_del: out of the rule hash (nothing matches it any more); ilb_rule_del_common
    // sets each server's die time when conn_drain_timeout != 0, and the conns go then.
    r.deleted = true;
    for (uint32_t k = 0; k < r.servers.size(); ++k)
    {
        SetServerEnabled(rule, k, false);
    }
}

bool
IlbAppliance::IsRuleDeleted(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].deleted;
}

void
IlbAppliance::ScheduleCleanup()
{
    if (m_cleanupEvent.IsRunning())
    {
        return;
    }
    // The timers run from the first rule on (ilb_conn_timer, ilb_sticky_timer re-arm every
    // 15 s); the model only keeps its next event while there is something to clean, on the
    // same grid, so an idle ILB does not keep the simulation alive.
    const Time now = Simulator::Now();
    const int64_t k = (now - m_cleanupBase).GetTimeStep() / m_cleanupInterval.GetTimeStep() + 1;
    const Time next = m_cleanupBase + m_cleanupInterval * k;
    m_cleanupEvent = Simulator::Schedule(next - now, &IlbAppliance::Cleanup, this);
}

void
IlbAppliance::Cleanup()
{
    const Time now = Simulator::Now();
    // ilb_conn_cleanup first (its removals drop sticky references: ILB_STICKY_REFRELE), then
    // ilb_sticky_cleanup.
    m_conns->ExpireIdle(now);
    m_sticky.Cleanup(now);
    if (m_conns->GetCount() != 0 || m_sticky.GetSize() != 0)
    {
        ScheduleCleanup();
    }
}

const IlbNatSourceTable&
IlbAppliance::GetNatSources() const
{
    return m_natSources;
}

} // namespace ns3
