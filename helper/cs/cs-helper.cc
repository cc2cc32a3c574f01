/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cs-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-config-reader.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/adc-netscaler-cs-policy-commands.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

namespace
{

using CS = AdcNetScalerCsCommands;

/**
 * \return the LB virtual server \p name of \p store
 * \throws AdcConfigError at \p origin (the binding that names it) when absent
 */
Ptr<AdcVirtualServer>
LbVserver(const AdcConfigStore& store, const std::string& name, const AdcConfigOrigin& origin)
{
    Ptr<AdcVirtualServer> lb = store.Get<AdcVirtualServer>(AdcNetScalerCommands::LB_VSERVER, name);
    if (!lb)
    {
        AdcConfigFileError::Fail(origin,
                                 "lb vserver is not in the configuration (removed since?)",
                                 name,
                                 store.GetNames(AdcNetScalerCommands::LB_VSERVER));
    }
    return lb;
}

} // namespace

Ptr<CsVirtualServer>
CsHelper::Install(Ptr<Node> node, const AdcConfigStore& store, const std::string& csVserver)
{
    Ptr<AdcCsVserverConfig> config =
        store.Get<AdcCsVserverConfig>(AdcNetScalerCsCommands::CS_VSERVER, csVserver);
    if (!config)
    {
        std::string known;
        for (const std::string& n : store.GetNames(AdcNetScalerCsCommands::CS_VSERVER))
        {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw AdcConfigError("CS vserver '" + AdcText::Printable(csVserver) +
                             "' is not in the configuration; " +
                             (known.empty() ? "it defines none" : "it defines " + known));
    }
    Ptr<CsVirtualServer> cs = CreateObject<CsVirtualServer>();
    cs->Configure(config);
    Sync(cs, store);
    node->AddApplication(cs);
    return cs;
}

void
CsHelper::Sync(Ptr<CsVirtualServer> cs, const AdcConfigStore& store)
{
    StringValue csName;
    cs->GetAttribute("Name", csName);
    const std::string name = csName.Get();
    Ptr<AdcCsVserverConfig> config =
        store.Get<AdcCsVserverConfig>(AdcNetScalerCsCommands::CS_VSERVER, name);
    if (!config)
    {
        throw AdcConfigError("CS vserver '" + AdcText::Printable(name) +
                             "' is not in the configuration");
    }
    const std::vector<AdcCsVserverConfig::PolicyBinding>& wanted = config->GetPolicyBindings();
    // Policies bound with the same priority and target stay (their trace sinks with them) and
    // take the configuration's rule; the others go.
    std::vector<std::string> kept;
    for (const AdcVirtualServer::VServerBinding& b : cs->GetVirtualServer()->GetVServerBindings())
    {
        Ptr<CsPolicy> policy = DynamicCast<CsPolicy>(b.policy);
        if (!policy)
        {
            continue;
        }
        const auto same = std::find_if(wanted.begin(), wanted.end(), [&](const auto& w) {
            return w.policy == policy->GetName() && w.priority == policy->GetPriority() &&
                   w.target == b.vserver->GetName();
        });
        Ptr<AdcCsPolicyConfig> pc =
            store.Get<AdcCsPolicyConfig>(AdcNetScalerCsCommands::CS_POLICY, policy->GetName());
        if (same != wanted.end() && pc)
        {
            policy->SetRule(pc->GetRule());
            kept.push_back(policy->GetName());
        }
        else
        {
            cs->UnbindPolicy(policy->GetName());
        }
    }
    for (const AdcCsVserverConfig::PolicyBinding& b : wanted)
    {
        if (std::find(kept.begin(), kept.end(), b.policy) != kept.end())
        {
            continue;
        }
        // The binding's line: what a refusal of it (a priority taken, a target gone) is about.
        const AdcConfigOrigin at = store.GetOrigin(CS::CS_VSERVER, name, "bind " + b.policy);
        Ptr<AdcCsPolicyConfig> pc =
            store.Get<AdcCsPolicyConfig>(AdcNetScalerCsCommands::CS_POLICY, b.policy);
        if (!pc)
        {
            AdcConfigFileError::Fail(at,
                                     "cs vserver " + name +
                                         ": the bound cs policy is not in the configuration",
                                     b.policy,
                                     store.GetNames(CS::CS_POLICY));
        }
        Ptr<CsPolicy> policy = CreateObject<CsPolicy>();
        policy->SetAttribute("Name", StringValue(b.policy));
        policy->SetAttribute("Priority", UintegerValue(b.priority));
        policy->SetRule(pc->GetRule());
        Ptr<AdcVirtualServer> target = LbVserver(store, b.target, at);
        AdcConfigFileError::At(at, [&] { cs->BindPolicy(policy, target); });
    }
    // `set cs vserver` persistence and `set lb parameter`: at once, also while running.
    AdcConfigFileError::At(store.GetOrigin(CS::CS_VSERVER, name, "-persistenceType"), [&] {
        cs->SetPersistence(AdcPersistenceTypeToString(config->GetPersistenceType()),
                           config->GetTimeoutMinutes(),
                           AdcPersistenceTypeToString(config->GetPersistenceBackup()),
                           config->GetBackupTimeoutMinutes());
    });
    const Ptr<const AdcLbParameterConfig> lbParameter = AdcNetScalerCsCommands::GetLbParameter(store);
    cs->SetAttribute("CookieVersion", UintegerValue(lbParameter->GetCookieVersion()));
    cs->SetAttribute("HttpOnlyCookie", BooleanValue(lbParameter->GetHttpOnlyCookie()));
    const std::string& def = config->GetDefaultLbVserver();
    Ptr<AdcVirtualServer> current = cs->GetDefaultLbVserver();
    if (!current || current->GetName() != def)
    {
        const AdcConfigOrigin at = store.GetOrigin(CS::CS_VSERVER, name, "-lbvserver");
        cs->SetDefaultLbVserver(def.empty() ? nullptr : LbVserver(store, def, at));
    }
}

void
CsHelper::ScheduleLines(Time at,
                        Ptr<CsVirtualServer> cs,
                        AdcConfigReader& reader,
                        const std::string& lines,
                        const std::string& name)
{
    Simulator::Schedule(at - Simulator::Now(), [cs, &reader, lines, name]() {
        reader.ReadString(lines, name);
        Sync(cs, reader.GetStore());
    });
}

} // namespace ns3
