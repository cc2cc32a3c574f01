/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, content switching: NetScaler's CS actions, policies and
 * bindings (add/set/rm cs action, add/set/rm cs policy, bind/unbind cs vserver).
 */

#include "adc-netscaler-cs-policy-commands.h"

#include "adc-netscaler-commands.h"
#include "adc-netscaler-cs-commands.h"

#include "ns3/adc-config-error.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcCsActionConfig);
NS_OBJECT_ENSURE_REGISTERED(AdcCsPolicyConfig);

// ---- AdcCsActionConfig -------------------------------------------------------------------------

TypeId
AdcCsActionConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcCsActionConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcCsActionConfig>()
                            .AddAttribute("Name",
                                          "The CS action's name (set by Configure).",
                                          TypeId::ATTR_GET,
                                          StringValue(""),
                                          MakeStringAccessor(&AdcCsActionConfig::m_name),
                                          MakeStringChecker())
                            .AddAttribute("TargetLBVserver",
                                          "-targetLBVserver: the LB virtual server it selects "
                                          "(set by Configure and SetTargetLbVserver).",
                                          TypeId::ATTR_GET,
                                          StringValue(""),
                                          MakeStringAccessor(&AdcCsActionConfig::m_target),
                                          MakeStringChecker());
    return tid;
}

AdcCsActionConfig::AdcCsActionConfig() = default;

AdcCsActionConfig::~AdcCsActionConfig() = default;

void
AdcCsActionConfig::Configure(const std::string& name, const std::string& targetLbVserver)
{
    if (name.empty())
    {
        throw AdcConfigError("AdcCsActionConfig: empty name; allowed is a NetScaler object name");
    }
    m_name = name;
    SetTargetLbVserver(targetLbVserver);
}

void
AdcCsActionConfig::SetTargetLbVserver(const std::string& targetLbVserver)
{
    if (targetLbVserver.empty())
    {
        throw AdcConfigError("AdcCsActionConfig " + m_name +
                             ": empty -targetLBVserver; allowed is an LB vserver's name");
    }
    m_target = targetLbVserver;
}

const std::string&
AdcCsActionConfig::GetName() const
{
    return m_name;
}

const std::string&
AdcCsActionConfig::GetTargetLbVserver() const
{
    return m_target;
}

// ---- AdcCsPolicyConfig -------------------------------------------------------------------------

TypeId
AdcCsPolicyConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcCsPolicyConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcCsPolicyConfig>()
                            .AddAttribute("Name",
                                          "The CS policy's name (set by Configure).",
                                          TypeId::ATTR_GET,
                                          StringValue(""),
                                          MakeStringAccessor(&AdcCsPolicyConfig::m_name),
                                          MakeStringChecker())
                            .AddAttribute("Rule",
                                          "-rule: the policy expression as written (set by "
                                          "Configure and SetRule).",
                                          TypeId::ATTR_GET,
                                          StringValue("true"),
                                          MakeStringAccessor(&AdcCsPolicyConfig::m_ruleText),
                                          MakeStringChecker())
                            .AddAttribute("Action",
                                          "-action: the CS action's name, or empty.",
                                          TypeId::ATTR_GET,
                                          StringValue(""),
                                          MakeStringAccessor(&AdcCsPolicyConfig::m_action),
                                          MakeStringChecker());
    return tid;
}

AdcCsPolicyConfig::AdcCsPolicyConfig()
    : m_ruleText("true")
{
}

AdcCsPolicyConfig::~AdcCsPolicyConfig() = default;

void
AdcCsPolicyConfig::Configure(const std::string& name,
                             const std::string& ruleText,
                             const std::string& action)
{
    if (name.empty())
    {
        throw AdcConfigError("AdcCsPolicyConfig: empty name; allowed is a NetScaler object name");
    }
    m_name = name;
    SetRule(ruleText);
    m_action = action;
}

void
AdcCsPolicyConfig::SetRule(const std::string& ruleText)
{
    m_rule = AdcPolicyExpression::Parse(ruleText); // throws before anything changes
    m_ruleText = ruleText;
}

const std::string&
AdcCsPolicyConfig::GetName() const
{
    return m_name;
}

const AdcPolicyExpression&
AdcCsPolicyConfig::GetRule() const
{
    return m_rule;
}

const std::string&
AdcCsPolicyConfig::GetRuleText() const
{
    return m_ruleText;
}

const std::string&
AdcCsPolicyConfig::GetAction() const
{
    return m_action;
}

// ---- commands ----------------------------------------------------------------------------------

namespace
{

using NS = AdcNetScalerCommands;
using CS = AdcNetScalerCsCommands;
using Cmd = AdcConfigCommand;
using Binding = AdcCsVserverConfig::PolicyBinding;

/// \return the value of \p parameter, which the command needs
std::string
Required(const Cmd& cmd, const std::string& parameter)
{
    if (!cmd.Has(parameter))
    {
        cmd.Fail("missing " + parameter);
    }
    return cmd.Value(parameter);
}

/// \return \p name after checking that it names a defined LB virtual server
std::string
LbVserver(const Cmd& cmd, const std::string& name)
{
    if (!cmd.GetStore().Find(NS::LB_VSERVER, name))
    {
        cmd.Fail("lb vserver is not defined", name, cmd.GetStore().GetNames(NS::LB_VSERVER));
    }
    return name;
}

/// \return the CS virtual server the first operand names
Ptr<AdcCsVserverConfig>
CsVserver(const Cmd& cmd)
{
    return cmd.Ref<AdcCsVserverConfig>(CS::CS_VSERVER, cmd.Operand(0), "cs vserver");
}

/// \return the names of the CS virtual servers \p policy is bound to
std::vector<std::string>
BoundTo(const AdcConfigStore& store, const std::string& policy)
{
    std::vector<std::string> out;
    for (const Ptr<AdcCsVserverConfig>& v : store.GetAll<AdcCsVserverConfig>(CS::CS_VSERVER))
    {
        if (v->IsPolicyBound(policy))
        {
            out.push_back(v->GetName());
        }
    }
    return out;
}

void
AddCsAction(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    NS::CheckNewName(cmd, CS::CS_ACTION, name, "name", "cs action");
    const std::string target = LbVserver(cmd, Required(cmd, "-targetLBVserver"));
    Ptr<AdcCsActionConfig> a = CreateObject<AdcCsActionConfig>();
    a->Configure(name, target);
    cmd.GetStore().Add(CS::CS_ACTION, name, a);
}

void
SetCsAction(Cmd& cmd)
{
    Ptr<AdcCsActionConfig> a =
        cmd.Ref<AdcCsActionConfig>(CS::CS_ACTION, cmd.Operand(0), "cs action");
    const std::string target = LbVserver(cmd, Required(cmd, "-targetLBVserver"));
    const AdcConfigStore& store = cmd.GetStore();
    // A COOKIEINSERT cs vserver whose binding follows this action must be able to name the
    // new target in its cookie; checked before anything changes.
    for (const Ptr<AdcCsPolicyConfig>& p : store.GetAll<AdcCsPolicyConfig>(CS::CS_POLICY))
    {
        for (const Ptr<AdcCsVserverConfig>& v : store.GetAll<AdcCsVserverConfig>(CS::CS_VSERVER))
        {
            for (const Binding& b : v->GetPolicyBindings())
            {
                if (b.fromAction && b.policy == p->GetName() && p->GetAction() == a->GetName() &&
                    v->GetPersistenceType() == AdcPersistenceType::COOKIEINSERT)
                {
                    CS::CheckCookieName(cmd, v->GetName(), "lb vserver", target);
                }
            }
        }
    }
    a->SetTargetLbVserver(target);
    // The bindings that take their target from this action follow it.
    for (const Ptr<AdcCsPolicyConfig>& p : store.GetAll<AdcCsPolicyConfig>(CS::CS_POLICY))
    {
        if (p->GetAction() == a->GetName())
        {
            for (const Ptr<AdcCsVserverConfig>& v :
                 store.GetAll<AdcCsVserverConfig>(CS::CS_VSERVER))
            {
                v->RetargetPolicy(p->GetName(), target);
            }
        }
    }
}

void
RemoveCsAction(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    cmd.Ref<AdcCsActionConfig>(CS::CS_ACTION, name, "cs action");
    std::vector<std::string> users;
    for (const Ptr<AdcCsPolicyConfig>& p : cmd.GetStore().GetAll<AdcCsPolicyConfig>(CS::CS_POLICY))
    {
        if (p->GetAction() == name)
        {
            users.push_back(p->GetName());
        }
    }
    if (!users.empty())
    {
        cmd.Fail("cs action is used by cs policy " + AdcConfigError::JoinAllowed(users) +
                     "; remove those policies first",
                 name);
    }
    cmd.GetStore().Remove(CS::CS_ACTION, name);
}

/// Apply \p rule to \p policy with \p apply (Configure or SetRule); a bad rule fails \p cmd
/// naming the policy, the rule and its column.
template <typename F>
void
ApplyRule(const Cmd& cmd, const std::string& policy, const std::string& rule, F apply)
{
    try
    {
        apply(rule);
    }
    catch (const AdcPolicyExpressionError& e)
    {
        cmd.Fail("bad -rule of cs policy '" + policy + "' at column " +
                     std::to_string(e.GetColumn()) + " (" + e.what() + ")",
                 rule);
    }
}

void
AddCsPolicy(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    NS::CheckNewName(cmd, CS::CS_POLICY, name, "name", "cs policy");
    const std::string rule = Required(cmd, "-rule");
    const std::string action = cmd.Value("-action");
    if (cmd.Has("-action"))
    {
        cmd.Ref<AdcCsActionConfig>(CS::CS_ACTION, action, "cs action");
    }
    Ptr<AdcCsPolicyConfig> p = CreateObject<AdcCsPolicyConfig>();
    ApplyRule(cmd, name, rule, [&](const std::string& r) { p->Configure(name, r, action); });
    cmd.GetStore().Add(CS::CS_POLICY, name, p);
}

void
SetCsPolicy(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    Ptr<AdcCsPolicyConfig> p = cmd.Ref<AdcCsPolicyConfig>(CS::CS_POLICY, name, "cs policy");
    const std::string rule = Required(cmd, "-rule");
    ApplyRule(cmd, name, rule, [&](const std::string& r) { p->SetRule(r); });
    cmd.NoteOrigin(CS::CS_POLICY, name, "-rule");
}

void
RemoveCsPolicy(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    cmd.Ref<AdcCsPolicyConfig>(CS::CS_POLICY, name, "cs policy");
    const std::vector<std::string> vservers = BoundTo(cmd.GetStore(), name);
    if (!vservers.empty())
    {
        cmd.Fail("cs policy is bound to cs vserver " + AdcConfigError::JoinAllowed(vservers) +
                     "; unbind it first",
                 name);
    }
    cmd.GetStore().Remove(CS::CS_POLICY, name);
}

/// Check that \p cmd gives -policyName or -lbvserver, not both, and only the parameters that
/// go with it; \return true for -policyName
bool
PolicyForm(const Cmd& cmd, bool bind)
{
    const bool policy = cmd.Has("-policyName");
    if (policy == cmd.Has("-lbvserver"))
    {
        cmd.Fail(
            std::string(policy ? "both" : "neither") + " of -policyName and -lbvserver",
            cmd.Operand(0),
            {"-policyName <p>" + std::string(bind ? " -priority <n>" : ""), "-lbvserver <lb>"});
    }
    if (!policy)
    {
        for (const std::string p : {"-priority", "-targetLBVserver"})
        {
            if (cmd.Has(p))
            {
                cmd.Fail(p + " goes with -policyName, not with -lbvserver", p);
            }
        }
    }
    return policy;
}

void
BindCsVserver(Cmd& cmd)
{
    Ptr<AdcCsVserverConfig> v = CsVserver(cmd);
    if (!PolicyForm(cmd, true))
    {
        const std::string lb = LbVserver(cmd, cmd.Value("-lbvserver"));
        if (!v->GetDefaultLbVserver().empty())
        {
            cmd.Fail("cs vserver '" + v->GetName() + "' has default lb vserver '" +
                         v->GetDefaultLbVserver() + "' bound already; unbind it first",
                     lb);
        }
        if (v->GetPersistenceType() == AdcPersistenceType::COOKIEINSERT)
        {
            CS::CheckCookieName(cmd, v->GetName(), "lb vserver", lb);
        }
        cmd.Check([&] { v->SetDefaultLbVserver(lb); });
        cmd.NoteOrigin(CS::CS_VSERVER, v->GetName(), "-lbvserver");
        return;
    }
    const std::string name = cmd.Value("-policyName");
    Ptr<AdcCsPolicyConfig> p = cmd.Ref<AdcCsPolicyConfig>(CS::CS_POLICY, name, "cs policy");
    const uint64_t priority =
        cmd.Number(Required(cmd, "-priority"), "-priority", 1, AdcCsVserverConfig::MAX_PRIORITY);
    Binding b;
    b.policy = name;
    b.priority = static_cast<uint32_t>(priority);
    b.fromAction = !cmd.Has("-targetLBVserver");
    if (p->GetAction().empty() == b.fromAction)
    {
        cmd.Fail(p->GetAction().empty()
                     ? "cs policy '" + name + "' has no -action; give -targetLBVserver"
                     : "cs policy '" + name + "' has -action " + p->GetAction() +
                           "; give no -targetLBVserver",
                 name,
                 {"a policy with -action, or -targetLBVserver <lb>"});
    }
    if (b.fromAction)
    {
        b.target = cmd.Ref<AdcCsActionConfig>(CS::CS_ACTION, p->GetAction(), "cs action")
                       ->GetTargetLbVserver();
    }
    else
    {
        b.target = LbVserver(cmd, cmd.Value("-targetLBVserver"));
    }
    for (const Binding& o : v->GetPolicyBindings())
    {
        if (o.policy == name)
        {
            cmd.Fail("cs policy is bound to cs vserver '" + v->GetName() + "' already (priority " +
                         std::to_string(o.priority) + ")",
                     name);
        }
        if (o.priority == b.priority)
        {
            cmd.Fail("priority of cs policy '" + name + "' is taken on cs vserver '" +
                         v->GetName() + "' by cs policy '" + o.policy +
                         "'; priorities are unique per cs vserver",
                     std::to_string(b.priority));
        }
    }
    if (v->GetPersistenceType() == AdcPersistenceType::COOKIEINSERT)
    {
        CS::CheckCookieName(cmd, v->GetName(), "lb vserver", b.target);
    }
    cmd.Check([&] { v->BindPolicy(b); });
    cmd.NoteOrigin(CS::CS_VSERVER, v->GetName(), "bind " + name);
}

void
UnbindCsVserver(Cmd& cmd)
{
    Ptr<AdcCsVserverConfig> v = CsVserver(cmd);
    if (!PolicyForm(cmd, false))
    {
        const std::string lb = cmd.Value("-lbvserver");
        if (lb != v->GetDefaultLbVserver())
        {
            cmd.Fail("not the default lb vserver of cs vserver '" + v->GetName() + "'",
                     lb,
                     v->GetDefaultLbVserver().empty()
                         ? std::vector<std::string>{}
                         : std::vector<std::string>{v->GetDefaultLbVserver()});
        }
        v->SetDefaultLbVserver("");
        return;
    }
    const std::string name = cmd.Value("-policyName");
    if (!v->IsPolicyBound(name))
    {
        std::vector<std::string> bound;
        for (const Binding& b : v->GetPolicyBindings())
        {
            bound.push_back(b.policy);
        }
        cmd.Fail("cs policy is not bound to cs vserver '" + v->GetName() + "'", name, bound);
    }
    cmd.Check([&] { v->UnbindPolicy(name); });
}

void
ShowCsActions(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcCsActionConfig>& a : store.GetAll<AdcCsActionConfig>(CS::CS_ACTION))
    {
        os << "add cs action " << NS::Quote(a->GetName()) << " -targetLBVserver "
           << NS::Quote(a->GetTargetLbVserver()) << "\n";
    }
}

void
ShowCsPolicies(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcCsPolicyConfig>& p : store.GetAll<AdcCsPolicyConfig>(CS::CS_POLICY))
    {
        os << "add cs policy " << NS::Quote(p->GetName()) << " -rule "
           << NS::Quote(p->GetRule().ToString());
        if (!p->GetAction().empty())
        {
            os << " -action " << NS::Quote(p->GetAction());
        }
        os << "\n";
    }
}

void
ShowCsBindings(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcCsVserverConfig>& v : store.GetAll<AdcCsVserverConfig>(CS::CS_VSERVER))
    {
        const std::string head = "bind cs vserver " + NS::Quote(v->GetName());
        for (const Binding& b : v->GetPolicyBindings())
        {
            os << head << " -policyName " << NS::Quote(b.policy) << " -priority " << b.priority;
            if (!b.fromAction)
            {
                os << " -targetLBVserver " << NS::Quote(b.target);
            }
            os << "\n";
        }
        if (!v->GetDefaultLbVserver().empty())
        {
            os << head << " -lbvserver " << NS::Quote(v->GetDefaultLbVserver()) << "\n";
        }
    }
}

} // namespace

void
AdcNetScalerCsPolicyCommands::Register(AdcConfigLanguage& language)
{
    const std::vector<std::string> name{"<name>"};
    // After "add cs vserver" (55) and before the service monitors (60): ns.conf's order.
    // clang-format off
    const std::vector<AdcConfigCommandSpec> commands = {
        {"add cs action", name, 1, false, {{"-targetLBVserver"}}, AddCsAction, ShowCsActions, 56},
        {"set cs action", name, 1, false, {{"-targetLBVserver"}}, SetCsAction, {}, 0},
        {"rm cs action", name, 1, false, {}, RemoveCsAction, {}, 0},
        {"add cs policy", {"<policyName>"}, 1, false, {{"-rule"}, {"-action"}}, AddCsPolicy,
         ShowCsPolicies, 57},
        {"set cs policy", {"<policyName>"}, 1, false, {{"-rule"}}, SetCsPolicy, {}, 0},
        {"rm cs policy", {"<policyName>"}, 1, false, {}, RemoveCsPolicy, {}, 0},
        {"bind cs vserver", name, 1, false,
         {{"-policyName"}, {"-priority"}, {"-targetLBVserver"}, {"-lbvserver"}}, BindCsVserver,
         ShowCsBindings, 58},
        {"unbind cs vserver", name, 1, false, {{"-policyName"}, {"-lbvserver"}}, UnbindCsVserver,
         {}, 0},
    };
    // clang-format on
    for (const AdcConfigCommandSpec& c : commands)
    {
        language.RegisterCommand(c);
    }
}

std::vector<std::string>
AdcNetScalerCsPolicyCommands::GetLbVserverUsers(const AdcConfigStore& store,
                                                const std::string& lbVserver)
{
    std::vector<std::string> out;
    for (const Ptr<AdcCsActionConfig>& a : store.GetAll<AdcCsActionConfig>(CS::CS_ACTION))
    {
        if (a->GetTargetLbVserver() == lbVserver)
        {
            out.push_back(CS::CS_ACTION + " " + a->GetName());
        }
    }
    for (const Ptr<AdcCsVserverConfig>& v : store.GetAll<AdcCsVserverConfig>(CS::CS_VSERVER))
    {
        bool uses = v->GetDefaultLbVserver() == lbVserver;
        for (const Binding& b : v->GetPolicyBindings())
        {
            uses = uses || b.target == lbVserver;
        }
        if (uses)
        {
            out.push_back(CS::CS_VSERVER + " " + v->GetName());
        }
    }
    return out;
}

} // namespace ns3
