/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the Solaris-style Integrated Load Balancer (ILB): its servers as AdcService objects
 * and its rules as AdcVirtualServer objects (made, followed, drained). The rest of
 * IlbAppliance is in ilb-appliance.cc.
 */

#include "ilb-appliance.h"

#include "ns3/adc-config-error.h"
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
    // illumos's own algorithms keep state the shared methods cannot (a back-end deleted, one
    // inserted at the head of round robin's list): the rule runs them itself.
    IlbAlgorithm::Kind kind;
    if (IlbAlgorithm::FromCanonical(method, kind))
    {
        st.alg = std::make_shared<IlbAlgorithm>(kind);
    }
    for (uint32_t k = 0; k < rule.servers.size(); ++k)
    {
        MakeServerService(rule, index, k, st);
        if (st.alg)
        {
            st.alg->AddServer(k, true); // ilbd adds the servers one by one (ILB_ADD_SERVERS)
        }
    }
}

void
IlbAppliance::MakeServerService(const IlbRule& rule, uint32_t index, uint32_t k, RuleState& st)
{
    const IlbServer& s = rule.servers[k];
    const std::string type = rule.protocol == AdcFlowKey::PROTO_TCP ? "TCP" : "UDP";
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

uint32_t
IlbAppliance::AddServer(uint32_t rule, const IlbServer& server)
{
    NS_LOG_FUNCTION(this << rule << server.address);
    GetRule(rule);
    RuleState& r = m_rules[rule];
    std::vector<bool> gone;
    for (const ServerState& s : r.servers)
    {
        gone.push_back(s.removed);
    }
    const uint32_t k = m_ruleSet.AddServer(rule, server, gone);
    const IlbRule& stored = Rule(rule);
    MakeServerService(stored, rule, k, r);
    if (stored.topology == IlbRule::FULL_NAT)
    {
        // ilb_server_add -> ilb_create_nat_src for the new server.
        const IlbServer& s = stored.servers[k];
        m_natSources.Bind(rule,
                          k,
                          m_ruleSet.GetNatAddresses(rule),
                          s.address,
                          s.port,
                          stored.natPorts);
    }
    m_conns->AddServer(rule);
    if (r.alg)
    {
        // rr_server_add inserts at the list's head; hash_server_add appends.
        r.alg->AddServer(k, true);
    }
    return k;
}

void
IlbAppliance::RemoveServer(uint32_t rule, uint32_t server)
{
    NS_LOG_FUNCTION(this << rule << server);
    CheckIndex(rule, server, "RemoveServer");
    RuleState& r = m_rules[rule];
    ServerState& s = r.servers[server];
    if (s.removed)
    {
        return;
    }
    // ilb_server_del: the algorithm first (ilb_alg_server_del), then "Mark the server as
    // disabled so that if there is any sticky cache using this server around, it won't be
    // used", and the die time when conn_drain_timeout != 0: the drain of a disable.
    s.removed = true;
    if (r.alg)
    {
        r.alg->DelServer(server);
    }
    if (s.reportedUp)
    {
        r.vserver->Unbind(s.service->GetName());
    }
    s.service->SetAdminState(AdcService::DISABLED); // StateChange: the drain starts
    ServerStateChanged(rule, server);
}

bool
IlbAppliance::IsServerRemoved(uint32_t rule, uint32_t server) const
{
    CheckIndex(rule, server, "IsServerRemoved");
    return m_rules[rule].servers[server].removed;
}

const IlbAlgorithm*
IlbAppliance::GetAlgorithm(uint32_t rule) const
{
    GetRule(rule);
    return m_rules[rule].alg.get();
}

bool
IlbAppliance::IsAvailable(uint32_t rule, uint32_t server) const
{
    const ServerState& s = m_rules[rule].servers[server];
    // UNKNOWN: in use until a check fails; a removed server is disabled (ilb_server_del).
    return !s.removed && s.reportedUp && s.service->IsUp(true);
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
    if (s.removed)
    {
        return; // not in the rule any more
    }
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
    if (enabled && m_rules[rule].servers[server].removed)
    {
        throw AdcConfigError("IlbAppliance: rule '" + Rule(rule).name + "': SetServerEnabled: "
                             "server '" + Rule(rule).servers[server].name +
                             "' was removed (RemoveServer); allowed: AddServer it again");
    }
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
    // no new connections, existing ones carry on, and when the rule has a conn-drain they are
    // cut by the first cleanup after the die time (ilb.c, ilb_server_toggle: iser_die_time).
    // So both ways out of service start the same drain; back in service cancels the cut.
    ServerState& s = m_rules[rule].servers[server];
    const bool inService = !s.removed && s.service->GetAdminState() == AdcService::ENABLED &&
                           IsServerUp(rule, server);
    if (s.inService == inService)
    {
        return;
    }
    s.inService = inService;
    RuleState& r = m_rules[rule];
    const Time drain = Rule(rule).connDrainTimeout;
    if (inService)
    {
        s.dieTime = Time(0); // ilb_server_toggle, enable: "tmp_server->iser_die_time = 0"
    }
    else if (drain.IsStrictlyPositive())
    {
        // ilb_server_toggle / ilb_server_del / ilb_rule_del_common: die time = now +
        // conn_drain_timeout; ilb_conn_cleanup cuts the server's connections at its first run
        // after it ("iser_die_time < now").
        s.dieTime = Simulator::Now() + drain;
        ScheduleCleanup();
    }
    if (r.alg && !s.removed)
    {
        // ilb_server_toggle -> ilb_alg_server_enable / _disable (ilbd does the same for a
        // health check's verdict).
        if (inService)
        {
            r.alg->EnableServer(server);
        }
        else
        {
            r.alg->DisableServer(server);
        }
    }
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
    // ilb_sticky_cleanup. A server past its die time loses its connections ("die_now").
    for (uint32_t i = 0; i < m_rules.size(); ++i)
    {
        RuleState& r = m_rules[i];
        for (uint32_t k = 0; k < r.servers.size(); ++k)
        {
            ServerState& s = r.servers[k];
            if (!s.dieTime.IsZero() && s.dieTime < now)
            {
                const uint32_t n = m_conns->RemoveServer(i, k);
                s.counters.drained += n;
                r.counters.drained += n;
            }
        }
    }
    m_conns->Cleanup(now);
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
