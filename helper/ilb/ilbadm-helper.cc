/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IlbadmHelper: installing an ilbadm configuration on an IlbAppliance and keeping the two in
 * step (the show-* output is in ilbadm-show.cc).
 */

#include "ilbadm-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-ilbadm-commands.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IlbadmHelper");

NS_OBJECT_ENSURE_REGISTERED(IlbadmHelper);

using ILB = AdcIlbadmCommands;

TypeId
IlbadmHelper::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IlbadmHelper")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<IlbadmHelper>();
    return tid;
}

IlbadmHelper::IlbadmHelper() = default;

IlbadmHelper::~IlbadmHelper() = default;

void
IlbadmHelper::DoDispose()
{
    m_node = nullptr;
    m_appliance = nullptr;
    m_installed.clear();
    m_store = nullptr;
    Object::DoDispose();
}

Ptr<IlbAppliance>
IlbadmHelper::Install(Ptr<Node> node, AdcConfigStore& store)
{
    if (m_appliance)
    {
        throw AdcConfigError("IlbadmHelper: installed already (one helper per ILB node)");
    }
    m_node = node;
    m_store = &store;
    m_appliance = node->GetObject<IlbAppliance>();
    const bool create = !m_appliance;
    if (create)
    {
        m_appliance = CreateObject<IlbAppliance>();
    }
    m_appliance->TraceConnectWithoutContext("Rewrite",
                                            MakeCallback(&IlbadmHelper::OnRewrite, this));
    m_appliance->TraceConnectWithoutContext("ConnectionEnded",
                                            MakeCallback(&IlbadmHelper::OnConnectionEnded, this));
    // As IlbHelper does: the rules first, then the appliance goes on the node, then the
    // health checks' monitors.
    m_deferMonitors = true;
    Sync();
    m_deferMonitors = false;
    if (create)
    {
        m_appliance->Install(node);
    }
    for (const std::string& name : m_order)
    {
        if (m_installed.at(name).monitor)
        {
            m_node->AddApplication(m_installed.at(name).monitor);
        }
    }
    return m_appliance;
}

void
IlbadmHelper::Install(IlbTopology& t, AdcConfigStore& store)
{
    if (t.appliance)
    {
        throw AdcConfigError("IlbadmHelper: the topology has an ILB already; build it with "
                             "IlbHelper's InstallIlb false");
    }
    // The appliance's servers take the topology's names (server1, ...): the hash methods
    // identify back-ends by name, so a rule read from ilbadm lines sends every flow where
    // IlbHelper's rule would. ilbadm's server IDs stay what show-* prints.
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        m_names[t.serverAddresses[i]] = t.serverNames[i];
    }
    Install(t.ilb, store);
    if (m_order.empty())
    {
        throw AdcConfigError("IlbadmHelper: the configuration enables no rule (create-rule -e "
                             "or enable-rule); rules: " +
                             AdcConfigError::JoinAllowed(store.GetNames(ILB::RULE)));
    }
    t.appliance = m_appliance;
    const Installed& first = m_installed.at(m_order.front());
    t.rule = first.index;
    t.ruleConfig = m_appliance->GetRule(first.index);
    t.monitor = first.monitor;
}

Ptr<IlbAppliance>
IlbadmHelper::GetAppliance() const
{
    return m_appliance;
}

Ptr<AdcIlbadmRule>
IlbadmHelper::Configured(const std::string& rule) const
{
    return m_store->Get<AdcIlbadmRule>(ILB::RULE, rule);
}

void
IlbadmHelper::Add(Ptr<AdcIlbadmRule> rule)
{
    // What the appliance refuses (a proxy-src range too wide, a VIP that is a server, ...) is
    // about the rule's create-rule line.
    const AdcConfigOrigin origin = m_store->GetOrigin(ILB::RULE, rule->rule.name);
    try
    {
        AddRule(rule);
    }
    catch (const AdcConfigFileError&)
    {
        throw;
    }
    catch (const AdcConfigError& e)
    {
        const IlbRule& r = rule->rule;
        const std::string what = e.what();
        // The model says "NAT range"; the file says proxy-src.
        const std::string setting =
            r.topology == IlbRule::FULL_NAT && what.find("NAT ") != std::string::npos
                ? "proxy-src=" + r.natSourceFirst.ToString() + "-" + r.natSourceLast.ToString() +
                      ": "
                : "";
        AdcConfigFileError::Fail(origin, "rule " + r.name + ": " + setting + what);
    }
}

namespace
{

/**
 * libilb's ilb_cmp_in6_addr as ilbd's i_test_and_insert uses it: 1 when \p a > \p b. IPv4:
 * the sign of the 32-bit difference (i_cmp_addr_impl: sign32((int32_t)(l1 - l2))), so two
 * addresses 2^31 or more apart compare the other way round; IPv6: as 128-bit numbers.
 * \param a an address \param b another \return -1, 0 or 1
 */
int
IlbdCompare(const AdcIpAddress& a, const AdcIpAddress& b)
{
    if (a == b)
    {
        return 0;
    }
    if (a.IsV4() && b.IsV4())
    {
        const uint32_t d = a.GetIpv4().Get() - b.GetIpv4().Get();
        return static_cast<int32_t>(d) >= 0 ? 1 : -1;
    }
    return b < a ? 1 : -1;
}

/**
 * The order ilbd keeps a server group in and hands the servers to the kernel in at
 * create-rule (ilbd_sg.c i_add_srv2sg: each server inserted before the first one it does not
 * compare greater than; ilbd_rules.c i_update_ksrv_rules walks that list).
 * \param servers the group's servers in the order added \return them in ilbd's order
 */
std::vector<IlbServer>
IlbdGroupOrder(const std::vector<IlbServer>& servers)
{
    std::vector<IlbServer> list;
    for (const IlbServer& s : servers)
    {
        auto it = list.begin();
        while (it != list.end() && IlbdCompare(s.address, it->address) == 1)
        {
            ++it;
        }
        list.insert(it, s);
    }
    return list;
}

} // namespace

void
IlbadmHelper::AddRule(Ptr<AdcIlbadmRule> rule)
{
    IlbRule r = rule->GetRule();
    r.servers = IlbdGroupOrder(r.servers);
    Installed in;
    for (IlbServer& s : r.servers)
    {
        in.serverIds.push_back(s.name);
        const auto name = m_names.find(s.address);
        if (name != m_names.end())
        {
            s.name = name->second;
        }
    }
    in.index = m_appliance->AddRule(r);
    const std::size_t n = r.servers.size();
    in.fails.assign(n, 0);
    in.lastProbe.assign(n, Time());
    in.rtt.assign(n, Time());
    in.probed.assign(n, false);
    if (!rule->healthCheck.empty())
    {
        Ptr<AdcIlbadmHealthCheck> hc =
            m_store->Get<AdcIlbadmHealthCheck>(ILB::HEALTH_CHECK, rule->healthCheck);
        if (!hc)
        {
            throw AdcConfigError("the health check (-h hc-name=) is not in the configuration "
                                 "(deleted since?): '" +
                                 rule->healthCheck + "'");
        }
        Ptr<AdcHealthMonitor> m = hc->CreateMonitor();
        if (rule->hcPort != "ANY")
        {
            m->SetAttribute("DestinationPort",
                            UintegerValue(static_cast<uint16_t>(std::stoul(rule->hcPort))));
        }
        // Each server's service binds the monitor, which makes it a target (server order).
        for (uint32_t i = 0; i < n; ++i)
        {
            m_appliance->GetServerService(in.index, i)->BindMonitor(m);
        }
        m->Validate();
        m->SetStartTime(Seconds(0));
        m->TraceConnectWithoutContext("Probe",
                                      MakeCallback(&IlbadmHelper::OnProbe, this).Bind(r.name));
        if (!m_deferMonitors)
        {
            m_node->AddApplication(m);
        }
        in.monitor = m;
        in.hcName = hc->name;
        in.hcTest = hc->test;
        in.hcInterval = hc->interval;
    }
    m_installed[r.name] = in;
    m_order.push_back(r.name);
}

void
IlbadmHelper::Sync()
{
    NS_LOG_FUNCTION(this);
    for (const Ptr<AdcIlbadmRule>& rule : m_store->GetAll<AdcIlbadmRule>(ILB::RULE))
    {
        const auto it = m_installed.find(rule->rule.name);
        if (it == m_installed.end())
        {
            if (rule->enabled)
            {
                Add(rule);
            }
            continue;
        }
        // add-server on a rule already on the ILB: ilbd's i_add_srv2krules adds the server to
        // every rule of the group (ILB_ADD_SERVERS), and to its health check.
        for (const IlbServer& s : rule->group->servers)
        {
            if (FindServer(it->second, s.name) < 0)
            {
                AddLiveServer(rule, it->second, s);
            }
        }
    }
    // Rules: disable-rule and enable-rule flip the rule's state only (illumos ilb_rule_disable:
    // its connections carry on, new packets pass counted "not processed"); delete-rule takes
    // it out of the rule hash (ilb_rule_del). Servers: enabled when still in the rule's group
    // and not disabled (disable-server).
    for (const std::string& name : m_order)
    {
        const Installed& in = m_installed.at(name);
        Ptr<AdcIlbadmRule> rule = Configured(name);
        if (!rule)
        {
            m_appliance->DeleteRule(in.index);
            continue;
        }
        if (m_appliance->IsRuleEnabled(in.index) != rule->enabled)
        {
            m_appliance->SetRuleEnabled(in.index, rule->enabled);
        }
        for (uint32_t i = 0; i < in.serverIds.size(); ++i)
        {
            const std::string& id = in.serverIds[i];
            if (m_appliance->IsServerRemoved(in.index, i))
            {
                continue;
            }
            const bool inGroup = std::any_of(rule->group->servers.begin(),
                                             rule->group->servers.end(),
                                             [&id](const IlbServer& s) { return s.name == id; });
            if (!inGroup)
            {
                // remove-server: i_rem_srv_frm_krules -> ilb_server_del.
                m_appliance->RemoveServer(in.index, i);
                continue;
            }
            const bool want = rule->group->IsEnabled(id);
            if (m_appliance->IsServerEnabled(in.index, i) != want)
            {
                m_appliance->SetServerEnabled(in.index, i, want);
            }
        }
    }
}

int32_t
IlbadmHelper::FindServer(const Installed& in, const std::string& id) const
{
    for (uint32_t i = 0; i < in.serverIds.size(); ++i)
    {
        if (in.serverIds[i] == id && !m_appliance->IsServerRemoved(in.index, i))
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

void
IlbadmHelper::AddLiveServer(Ptr<AdcIlbadmRule> rule, Installed& in, const IlbServer& server)
{
    IlbServer s = server;
    const auto name = m_names.find(s.address);
    if (name != m_names.end())
    {
        s.name = name->second;
    }
    uint32_t k = 0;
    try
    {
        k = m_appliance->AddServer(in.index, s);
    }
    catch (const AdcConfigFileError&)
    {
        throw;
    }
    catch (const AdcConfigError& e)
    {
        // What the kernel refuses is about the add-server line.
        AdcConfigFileError::Fail(
            m_store->GetOrigin(ILB::SERVER_GROUP, rule->group->name, "server " + server.name),
            "add-server " + server.name + " to rule " + rule->rule.name + ": " + e.what());
    }
    in.serverIds.push_back(server.name);
    in.fails.push_back(0);
    in.lastProbe.emplace_back();
    in.rtt.emplace_back();
    in.probed.push_back(false);
    if (in.monitor)
    {
        // ilbd_hc_add_server: the new server is probed too (the monitor's next target).
        m_appliance->GetServerService(in.index, k)->BindMonitor(in.monitor);
    }
}

void
IlbadmHelper::ScheduleLines(Time at,
                            AdcConfigReader& reader,
                            const std::string& lines,
                            const std::string& name)
{
    if (&reader.GetStore() != m_store)
    {
        throw AdcConfigError("IlbadmHelper::ScheduleLines: the reader's store is not the one "
                             "installed");
    }
    // An error leaves Simulator::Run as the reader's AdcConfigFileError (file, line, word),
    // which the program reports like any configuration error (no abort).
    Simulator::Schedule(at - Simulator::Now(), [this, &reader, lines, name]() {
        reader.ReadString(lines, name);
        Sync();
    });
}

void
IlbadmHelper::OnRewrite(const std::string& rule,
                        const std::string& direction,
                        const AdcFlowKey& before,
                        const AdcFlowKey& after)
{
    if (direction != "request" || m_natIndex.count(before) != 0)
    {
        return;
    }
    m_natIndex[before] = m_natSerial;
    m_nat[m_natSerial++] = NatEntry{rule, before, after};
}

void
IlbadmHelper::OnConnectionEnded(const std::string& /* rule */, const AdcFlowKey& original)
{
    const auto it = m_natIndex.find(original);
    if (it != m_natIndex.end())
    {
        m_nat.erase(it->second);
        m_natIndex.erase(it);
    }
}

void
IlbadmHelper::OnProbe(std::string rule,
                      uint32_t index,
                      const std::string& /* name */,
                      bool ok,
                      Time rtt,
                      const std::string& /* reason */)
{
    Installed& in = m_installed.at(rule);
    if (index >= in.fails.size())
    {
        return;
    }
    in.fails[index] = ok ? 0 : in.fails[index] + 1;
    in.lastProbe[index] = Simulator::Now();
    in.rtt[index] = rtt;
    in.probed[index] = true;
}

std::vector<std::string>
IlbadmHelper::RuleNames(const std::vector<std::string>& rules) const
{
    const std::vector<std::string> all = m_store->GetNames(ILB::RULE);
    if (rules.empty())
    {
        return all;
    }
    for (const std::string& r : rules)
    {
        if (std::find(all.begin(), all.end(), r) == all.end())
        {
            throw AdcConfigError("ilbadm: rule '" + r + "' does not exist; allowed " +
                                 AdcConfigError::JoinAllowed(all));
        }
    }
    return rules;
}

} // namespace ns3
