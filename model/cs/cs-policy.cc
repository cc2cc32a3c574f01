/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cs-policy.h"

#include "ns3/adc-http-message.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CsPolicy);

TypeId
CsPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CsPolicy")
            .SetParent<AdcBindingPolicy>()
            .SetGroupName("Adc")
            .AddConstructor<CsPolicy>()
            .AddAttribute("Rule",
                          "The policy expression (`add cs policy <name> -rule <expression>`), "
                          "e.g. HTTP.REQ.URL.STARTSWITH(\"/v2\") or SYS.RANDOM.MUL(100).LT(10); "
                          "read back in canonical form.",
                          StringValue("true"),
                          MakeStringAccessor(&CsPolicy::SetRuleText, &CsPolicy::GetRuleText),
                          MakeStringChecker())
            .AddTraceSource("Evaluation",
                            "The rule was evaluated for a request: policy, URL, whether it held.",
                            MakeTraceSourceAccessor(&CsPolicy::m_evaluationTrace),
                            "ns3::CsPolicy::EvaluationTracedCallback");
    return tid;
}

CsPolicy::CsPolicy()
    : m_random(CreateObject<UniformRandomVariable>())
{
}

CsPolicy::~CsPolicy() = default;

void
CsPolicy::DoDispose()
{
    m_random = nullptr;
    AdcBindingPolicy::DoDispose();
}

void
CsPolicy::SetRule(const std::string& rule)
{
    m_rule = AdcPolicyExpression::Parse(rule);
}

void
CsPolicy::SetRule(const AdcPolicyExpression& rule)
{
    m_rule = rule;
}

const AdcPolicyExpression&
CsPolicy::GetRule() const
{
    return m_rule;
}

std::string
CsPolicy::GetRuleText() const
{
    return m_rule.ToString();
}

void
CsPolicy::SetRuleText(std::string text)
{
    SetRule(text);
}

void
CsPolicy::SetRandom(Ptr<UniformRandomVariable> random)
{
    m_random = random;
}

bool
CsPolicy::Match(const AdcLbContext& ctx) const
{
    AdcPolicyContext pc;
    pc.request = ctx.request;
    pc.clientIp = ctx.flow.src;
    Ptr<UniformRandomVariable> random = m_random;
    pc.randomSource = [random]() { return random->GetValue(0.0, 1.0); };
    const bool matched = m_rule.Evaluate(pc);
    ++m_evaluations;
    m_matches += matched ? 1 : 0;
    m_evaluationTrace(GetName(), ctx.request ? ctx.request->GetTarget() : ctx.url, matched);
    return matched;
}

uint64_t
CsPolicy::GetEvaluations() const
{
    return m_evaluations;
}

uint64_t
CsPolicy::GetMatches() const
{
    return m_matches;
}

} // namespace ns3
