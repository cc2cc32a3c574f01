/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, content switching: NetScaler's CS actions, CS policies and
 * their bindings to CS virtual servers (add/set/rm cs action, add/set/rm cs policy,
 * bind/unbind cs vserver), and the objects they store.
 */

#ifndef ADC_NETSCALER_CS_POLICY_COMMANDS_H
#define ADC_NETSCALER_CS_POLICY_COMMANDS_H

#include "adc-config-reader.h"
#include "adc-policy-expression.h"

#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A CS action (`add cs action <name> -targetLBVserver <lb>`): the LB virtual server a
 * CS policy with this action selects.
 */
class AdcCsActionConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    AdcCsActionConfig();
    ~AdcCsActionConfig() override;

    /**
     * \param name the action's name
     * \param targetLbVserver the LB virtual server's name
     * \throws AdcConfigError when a name is empty
     */
    void Configure(const std::string& name, const std::string& targetLbVserver);

    /// \param targetLbVserver the new LB virtual server (`set cs action`); not empty
    void SetTargetLbVserver(const std::string& targetLbVserver);

    /// \return the name
    const std::string& GetName() const;
    /// \return the target LB virtual server's name
    const std::string& GetTargetLbVserver() const;

  private:
    std::string m_name;   //!< name
    std::string m_target; //!< target LB vserver
};

/**
 * \ingroup adc
 * \brief A CS policy (`add cs policy <name> -rule <expression> [-action <a>]`): the requests
 * its rule matches go to the action's LB virtual server, or to the -targetLBVserver of its
 * binding when it has no action (CS-01).
 */
class AdcCsPolicyConfig : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    AdcCsPolicyConfig();
    ~AdcCsPolicyConfig() override;

    /**
     * \param name the policy's name
     * \param ruleText the rule, as written
     * \param action the action's name, or "" for none
     * \throws AdcPolicyExpressionError (an AdcConfigError, with the column) for a bad rule
     */
    void Configure(const std::string& name, const std::string& ruleText, const std::string& action);

    /**
     * \brief Replace the rule (`set cs policy <name> -rule <expression>`, CS-02: a canary's
     * split is re-weighted so); a bad rule leaves the old one.
     * \param ruleText the rule, as written
     * \throws AdcPolicyExpressionError for a bad rule
     */
    void SetRule(const std::string& ruleText);

    /// \return the name
    const std::string& GetName() const;
    /// \return the parsed rule
    const AdcPolicyExpression& GetRule() const;
    /// \return the rule as it was written
    const std::string& GetRuleText() const;
    /// \return the action's name, "" when the policy has none
    const std::string& GetAction() const;

  private:
    std::string m_name;         //!< name
    AdcPolicyExpression m_rule; //!< the parsed rule
    std::string m_ruleText;     //!< the rule as written
    std::string m_action;       //!< action, or ""
};

/**
 * \ingroup adc
 * \brief NetScaler's CS action, policy and binding commands (NetScaler command reference),
 * registered by AdcNetScalerCsCommands::Register with the cs vserver commands.
 *
 * - add cs action <name> -targetLBVserver <lb>; the LB vserver must be defined.
 *   set cs action <name> -targetLBVserver <lb> (bindings through the action follow it);
 *   rm cs action <name>, refused while a policy uses it.
 * - add cs policy <name> -rule <expression> [-action <a>]; the rule is an
 *   AdcPolicyExpression (a bad one: the error gives its column), the action must be defined.
 *   set cs policy <name> -rule <expression> (CS-02); rm cs policy <name>, refused while bound.
 * - bind cs vserver <name> -policyName <p> -priority <1..2147483647> [-targetLBVserver <lb>]:
 *   the target is the policy's action's LB vserver or -targetLBVserver, exactly one of them;
 *   priorities are unique per CS vserver, a policy binds once per CS vserver (CS-01).
 *   bind cs vserver <name> -lbvserver <lb>: the default LB vserver, one per CS vserver.
 * - unbind cs vserver <name> -policyName <p> | -lbvserver <lb>.
 * Show prints "add cs action", "add cs policy" (the rule's canonical text, quoted) and
 * "bind cs vserver" lines after "add cs vserver" (ns.conf's order).
 *
 * Objects go to the store under AdcNetScalerCsCommands::CS_ACTION (AdcCsActionConfig) and
 * CS_POLICY (AdcCsPolicyConfig); bindings live in AdcCsVserverConfig.
 */
class AdcNetScalerCsPolicyCommands
{
  public:
    /**
     * \brief Add the commands above to \p language (once: AdcNetScalerCsCommands::Register
     * calls this after the cs vserver commands).
     * \param language NetScaler's language
     */
    static void Register(AdcConfigLanguage& language);

    /**
     * \brief What refers to an LB virtual server, so that removing it can be refused.
     * \param store a store \param lbVserver an LB virtual server's name
     * \return "cs action <a>" and "cs vserver <v>" for each action and CS vserver binding
     * (policy target or default) naming \p lbVserver
     */
    static std::vector<std::string> GetLbVserverUsers(const AdcConfigStore& store,
                                                      const std::string& lbVserver);
};

} // namespace ns3

#endif /* ADC_NETSCALER_CS_POLICY_COMMANDS_H */
