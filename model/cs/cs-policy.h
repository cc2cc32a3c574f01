/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: a content-switching policy (`add cs policy <name> -rule <expression>`) as the
 * binding policy of an LB virtual server bound under a CS virtual server.
 */

#ifndef CS_POLICY_H
#define CS_POLICY_H

#include "ns3/adc-binding-policy.h"
#include "ns3/adc-policy-expression.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A NetScaler content-switching policy: an advanced policy expression
 * (AdcPolicyExpression) evaluated against each request; when it holds, the LB virtual server
 * the policy is bound with takes the request.
 *
 * SYS.RANDOM draws come from the policy's random stream (a UniformRandomVariable; the CS
 * virtual server shares one stream among its policies, see SetRandom), one draw per SYS.RANDOM
 * evaluated, so a split such as SYS.RANDOM.MUL(100).LT(10) sends 10% of the requests that
 * reach it and runs repeat with the same seed and run number.
 *
 * The rule can change at run time (SetRule: `set cs policy <name> -rule <expression>`), which is
 * how a canary's share grows; every evaluation fires "Evaluation".
 */
class CsPolicy : public AdcBindingPolicy
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    CsPolicy();
    ~CsPolicy() override;

    /**
     * \brief Signature of "Evaluation".
     * \param policy the policy's name
     * \param url the request's URL ("" at L4)
     * \param matched whether the rule held
     */
    typedef void (*EvaluationTracedCallback)(const std::string& policy,
                                             const std::string& url,
                                             bool matched);

    /**
     * \param rule the expression text
     * \throws AdcConfigError (AdcPolicyExpressionError) naming the column of the error
     */
    void SetRule(const std::string& rule);
    /// \param rule a parsed expression
    void SetRule(const AdcPolicyExpression& rule);
    /// \return the rule
    const AdcPolicyExpression& GetRule() const;

    /// \param random the stream of SYS.RANDOM draws (shared with other policies)
    void SetRandom(Ptr<UniformRandomVariable> random);

    /**
     * \param ctx the request (ctx.request, the client ctx.flow.src)
     * \return whether the rule holds (fires "Evaluation")
     */
    bool Match(const AdcLbContext& ctx) const override;

    /// \return evaluations so far
    uint64_t GetEvaluations() const;
    /// \return of those, the ones that held
    uint64_t GetMatches() const;

  protected:
    void DoDispose() override;

  private:
    /// \return the Rule attribute (canonical text)
    std::string GetRuleText() const;
    /// \param text the Rule attribute
    void SetRuleText(std::string text);

    AdcPolicyExpression m_rule;          //!< "Rule"
    Ptr<UniformRandomVariable> m_random; //!< SYS.RANDOM draws
    mutable uint64_t m_evaluations{0};   //!< counter
    mutable uint64_t m_matches{0};       //!< counter
    TracedCallback<const std::string&, const std::string&, bool> m_evaluationTrace; //!< trace
};

} // namespace ns3

#endif /* CS_POLICY_H */
