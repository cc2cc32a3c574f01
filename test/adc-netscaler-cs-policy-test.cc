/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of NetScaler's CS action, CS policy and binding commands (add/set/rm cs action,
 * add/set/rm cs policy, bind/unbind cs vserver): the canary configuration of seed 002 (two
 * LB vservers v1 and v2 behind a CS vserver, policies on the URL, a cookie and a random
 * percentage), changes at run time as commands, errors naming the file, the line, the word
 * and what is allowed, and printing back as lines that read back to the same objects.
 *
 * Expected values come from REQUIREMENTS.md (CS-01, CS-02, CS-11) and NetScaler's command
 * reference (parameter names -targetLBVserver, -rule, -action, -policyName, -priority,
 * -lbvserver; priority 1..2147483647; policies evaluated by ascending priority, the first
 * match selects its LB vserver, else the default LB vserver), written here independently of
 * the code.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/adc-netscaler-cs-policy-commands.h"
#include "ns3/adc-policy-expression.h"
#include "ns3/ipv4-address.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using adctest::HasAll;

namespace
{

using CS = AdcNetScalerCsCommands;
using Binding = AdcCsVserverConfig::PolicyBinding;

/// The canary of seed 002 in ns.conf lines: v1 serves the old version, v2 the new one; the
/// new version gets /v2 URLs, clients with cookie version=v2 and 10% of the others.
const std::string kCanary =
    "add lb vserver v1 HTTP\n"
    "add lb vserver v2 HTTP\n"
    "add cs vserver cs-app HTTP 192.0.2.20 80 -persistenceType COOKIEINSERT -timeout 0 "
    "-persistenceBackup SOURCEIP\n"
    "add cs action act-v2 -targetLBVserver v2\n"
    "add cs policy pol-path -rule \"HTTP.REQ.URL.STARTSWITH(\\\"/v2\\\")\" -action act-v2\n"
    "add cs policy pol-cookie -rule \"HTTP.REQ.COOKIE.VALUE(\\\"version\\\").EQ(\\\"v2\\\")\" "
    "-action act-v2\n"
    "add cs policy pol-canary -rule SYS.RANDOM.MUL(100).LT(10) -action act-v2\n"
    "bind cs vserver cs-app -policyName pol-canary -priority 300\n"
    "bind cs vserver cs-app -policyName pol-path -priority 100\n"
    "bind cs vserver cs-app -policyName pol-cookie -priority 200\n"
    "bind cs vserver cs-app -lbvserver v1\n";

/// A reader of NetScaler lines with the CS commands.
class AdcNetScalerCsPolicy : public adctest::ConfigReaderTest
{
  protected:
    AdcNetScalerCsPolicy()
        : ConfigReaderTest(CS::GetLanguage(), "ns.conf")
    {
    }

    /// \return the CS vserver \p name (null when none)
    Ptr<AdcCsVserverConfig> Vserver(const std::string& name = "cs-app")
    {
        return m_reader.GetStore().Get<AdcCsVserverConfig>(CS::CS_VSERVER, name);
    }

    /// \return the CS policy \p name (null when none)
    Ptr<AdcCsPolicyConfig> Policy(const std::string& name)
    {
        return m_reader.GetStore().Get<AdcCsPolicyConfig>(CS::CS_POLICY, name);
    }

    /**
     * \brief NetScaler's selection, written from its documentation: the bound policies in
     * ascending priority, the first whose rule holds gives its LB vserver; none: the default.
     * \param path the request's URL \param cookie its Cookie header ("" for none)
     * \param draw the random draw \return the LB vserver chosen
     */
    std::string Select(const std::string& path, const std::string& cookie, double draw)
    {
        AdcHttpMessage req = AdcHttpMessage::MakeRequest("GET", path);
        req.SetHeader("Host", "shop.example.com");
        if (!cookie.empty())
        {
            req.SetHeader("Cookie", cookie);
        }
        AdcPolicyContext ctx;
        ctx.request = &req;
        ctx.clientIp = Ipv4Address("198.51.100.7");
        ctx.randomDraw = draw;
        Ptr<AdcCsVserverConfig> v = Vserver();
        for (const Binding& b : v->GetPolicyBindings())
        {
            if (Policy(b.policy)->GetRule().Evaluate(ctx))
            {
                return b.target;
            }
        }
        return v->GetDefaultLbVserver();
    }

    /// \return the bound policies' names, in the order GetPolicyBindings gives them
    std::vector<std::string> BoundNames()
    {
        std::vector<std::string> out;
        for (const Binding& b : Vserver()->GetPolicyBindings())
        {
            out.push_back(b.policy);
        }
        return out;
    }
};

} // namespace

// REQ: CS-01, CS-11 (the canary's lines give its actions, policies and bindings)
TEST_F(AdcNetScalerCsPolicy, CanaryConfigReadsIntoObjects)
{
    m_reader.ReadString(kCanary, "ns.conf");
    Ptr<AdcCsActionConfig> action =
        m_reader.GetStore().Get<AdcCsActionConfig>(CS::CS_ACTION, "act-v2");
    ASSERT_TRUE(action);
    EXPECT_EQ(action->GetName(), "act-v2");
    EXPECT_EQ(action->GetTargetLbVserver(), "v2");

    ASSERT_TRUE(Policy("pol-path"));
    EXPECT_EQ(Policy("pol-path")->GetName(), "pol-path");
    EXPECT_EQ(Policy("pol-path")->GetRuleText(), "HTTP.REQ.URL.STARTSWITH(\"/v2\")");
    EXPECT_EQ(Policy("pol-path")->GetRule(),
              AdcPolicyExpression::Parse("HTTP.REQ.URL.STARTSWITH(\"/v2\")"));
    EXPECT_EQ(Policy("pol-path")->GetAction(), "act-v2");
    EXPECT_EQ(Policy("pol-cookie")->GetRuleText(), "HTTP.REQ.COOKIE.VALUE(\"version\").EQ(\"v2\")");
    EXPECT_EQ(Policy("pol-canary")->GetRuleText(), "SYS.RANDOM.MUL(100).LT(10)");

    // Bound in the order 300, 100, 200: kept by ascending priority, each to v2 (the action's).
    const std::vector<Binding>& b = Vserver()->GetPolicyBindings();
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[0].policy, "pol-path");
    EXPECT_EQ(b[0].priority, 100u);
    EXPECT_EQ(b[1].policy, "pol-cookie");
    EXPECT_EQ(b[1].priority, 200u);
    EXPECT_EQ(b[2].policy, "pol-canary");
    EXPECT_EQ(b[2].priority, 300u);
    for (const Binding& x : b)
    {
        EXPECT_EQ(x.target, "v2") << x.policy;
        EXPECT_TRUE(x.fromAction) << x.policy;
    }
    EXPECT_EQ(Vserver()->GetDefaultLbVserver(), "v1");
    // The cs vserver's own settings are untouched by its bindings.
    EXPECT_EQ(Vserver()->GetPersistenceType(), AdcPersistenceType::COOKIEINSERT);
}

// REQ: CS-01 (requests go to the LB vserver of the first policy that matches, else the default)
TEST_F(AdcNetScalerCsPolicy, CanarySelectsTheLbVserverOfTheFirstMatchingPolicy)
{
    m_reader.ReadString(kCanary, "ns.conf");
    EXPECT_EQ(Select("/v2/cart", "", 0.99), "v2");                 // URL policy
    EXPECT_EQ(Select("/cart", "version=v2", 0.99), "v2");          // cookie policy
    EXPECT_EQ(Select("/cart", "lang=en; version=v2", 0.99), "v2"); // cookie among others
    EXPECT_EQ(Select("/cart", "version=v1", 0.99), "v1");          // other cookie value
    EXPECT_EQ(Select("/cart", "", 0.05), "v2");                    // 5 < 10: the canary 10%
    EXPECT_EQ(Select("/cart", "", 0.09), "v2");                    // 9 < 10
    EXPECT_EQ(Select("/cart", "", 0.10), "v1");                    // 10 is not < 10
    EXPECT_EQ(Select("/cart", "", 0.5), "v1");                     // default
    EXPECT_EQ(Select("/V2/cart", "", 0.5), "v1");                  // STARTSWITH is case-exact
}

// REQ: CS-02 (policies change at run time as commands: re-weight, retarget, unbind, rebind)
TEST_F(AdcNetScalerCsPolicy, RunTimeChangesAreCommands)
{
    m_reader.ReadString(kCanary, "ns.conf");
    ASSERT_EQ(Select("/cart", "", 0.3), "v1"); // 30 is not < 10

    // Re-weight the canary from 10% to 50%: new requests with draw 0.3 now reach v2.
    m_reader.ReadString("set cs policy pol-canary -rule \"SYS.RANDOM.MUL(100).LT(50)\"\n", "rt");
    EXPECT_EQ(Policy("pol-canary")->GetRuleText(), "SYS.RANDOM.MUL(100).LT(50)");
    EXPECT_EQ(Select("/cart", "", 0.3), "v2");
    EXPECT_EQ(Select("/cart", "", 0.6), "v1");

    // A new version v3: retarget the action; every binding through it follows.
    m_reader.ReadString("add lb vserver v3 HTTP\nset cs action act-v2 -targetLBVserver v3\n", "rt");
    for (const Binding& b : Vserver()->GetPolicyBindings())
    {
        EXPECT_EQ(b.target, "v3") << b.policy;
    }
    EXPECT_EQ(Select("/v2/x", "", 0.99), "v3");

    // Unbind the URL policy: /v2 requests are no longer switched by URL.
    m_reader.ReadString("unbind cs vserver cs-app -policyName pol-path\n", "rt");
    EXPECT_EQ(BoundNames(), (std::vector<std::string>{"pol-cookie", "pol-canary"}));
    EXPECT_EQ(Select("/v2/x", "", 0.99), "v1");

    // Bind it again ahead of the others (priority 1), and swap the default to v3.
    m_reader.ReadString("bind cs vserver cs-app -policyName pol-path -priority 1\n"
                        "unbind cs vserver cs-app -lbvserver v1\n"
                        "bind cs vserver cs-app -lbvserver v3\n",
                        "rt");
    EXPECT_EQ(BoundNames(), (std::vector<std::string>{"pol-path", "pol-cookie", "pol-canary"}));
    EXPECT_EQ(Vserver()->GetDefaultLbVserver(), "v3");
    EXPECT_EQ(Select("/cart", "", 0.99), "v3");

    // Done: everything unbound, the policies and the action removed.
    m_reader.ReadString("unbind cs vserver cs-app -policyName pol-path\n"
                        "unbind cs vserver cs-app -policyName pol-cookie\n"
                        "unbind cs vserver cs-app -policyName pol-canary\n"
                        "unbind cs vserver cs-app -lbvserver v3\n"
                        "rm cs policy pol-path\nrm cs policy pol-cookie\nrm cs policy pol-canary\n"
                        "rm cs action act-v2\n",
                        "rt");
    EXPECT_TRUE(Vserver()->GetPolicyBindings().empty());
    EXPECT_EQ(Vserver()->GetDefaultLbVserver(), "");
    EXPECT_TRUE(m_reader.GetStore().GetNames(CS::CS_POLICY).empty());
    EXPECT_TRUE(m_reader.GetStore().GetNames(CS::CS_ACTION).empty());
}

// REQ: CS-01, CS-11 (NetScaler's older form: a policy without action, target on the binding)
TEST_F(AdcNetScalerCsPolicy, TargetLbVserverOnTheBinding)
{
    m_reader.ReadString("add lb vserver v1 HTTP\nadd lb vserver v2 HTTP\n"
                        "add cs vserver cs-app HTTP 192.0.2.20 80\n"
                        "add cs policy pol-path -rule \"HTTP.REQ.URL.STARTSWITH(\\\"/v2\\\")\"\n"
                        "bind cs vserver cs-app -policyName pol-path -priority 10 "
                        "-targetLBVserver v2\n",
                        "ns.conf");
    EXPECT_EQ(Policy("pol-path")->GetAction(), "");
    ASSERT_EQ(Vserver()->GetPolicyBindings().size(), 1u);
    const Binding& b = Vserver()->GetPolicyBindings()[0];
    EXPECT_EQ(b.target, "v2");
    EXPECT_FALSE(b.fromAction);
    EXPECT_EQ(Select("/v2/a", "", 0.5), "v2");
    EXPECT_EQ(Select("/a", "", 0.5), ""); // no default bound
}

// REQ: CS-01, CS-02 (the model's binding calls, as run-time code uses them)
TEST_F(AdcNetScalerCsPolicy, ModelKeepsBindingsByPriority)
{
    Ptr<AdcCsVserverConfig> v = CreateObject<AdcCsVserverConfig>();
    v->Configure("cs", "HTTP", AdcIpAddress(), 0);
    v->BindPolicy({"c", 30, "lb3", true});
    v->BindPolicy({"a", 10, "lb1", false});
    v->BindPolicy({"b", 2147483647, "lb2", true});
    ASSERT_EQ(v->GetPolicyBindings().size(), 3u);
    EXPECT_EQ(v->GetPolicyBindings()[0].policy, "a");
    EXPECT_EQ(v->GetPolicyBindings()[1].policy, "c");
    EXPECT_EQ(v->GetPolicyBindings()[2].policy, "b");
    EXPECT_THROW(v->BindPolicy({"d", 0, "lb1", true}), AdcConfigError);
    try
    {
        v->BindPolicy({"d", 30, "lb1", true});
        ADD_FAILURE() << "duplicate priority accepted";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_TRUE(HasAll(e.what(), {"30", "policy d", "policy c"})) << e.what();
    }
    EXPECT_THROW(v->BindPolicy({"a", 40, "lb1", true}), AdcConfigError);
    EXPECT_THROW(v->BindPolicy({"", 40, "lb1", true}), AdcConfigError);
    EXPECT_THROW(v->BindPolicy({"e", 40, "", true}), AdcConfigError);
    EXPECT_EQ(v->GetPolicyBindings().size(), 3u);

    v->RetargetPolicy("c", "lb9"); // from an action: follows
    v->RetargetPolicy("a", "lb9"); // -targetLBVserver: stays
    EXPECT_EQ(v->GetPolicyBindings()[0].target, "lb1");
    EXPECT_EQ(v->GetPolicyBindings()[1].target, "lb9");

    v->UnbindPolicy("c");
    EXPECT_FALSE(v->IsPolicyBound("c"));
    EXPECT_THROW(v->UnbindPolicy("c"), AdcConfigError);
    v->BindPolicy({"c", 5, "lb3", true});
    EXPECT_EQ(v->GetPolicyBindings()[0].policy, "c");

    v->SetDefaultLbVserver("lb1");
    EXPECT_THROW(v->SetDefaultLbVserver("lb2"), AdcConfigError);
    EXPECT_EQ(v->GetDefaultLbVserver(), "lb1");
    v->SetDefaultLbVserver("");
    v->SetDefaultLbVserver("lb2");
    EXPECT_EQ(v->GetDefaultLbVserver(), "lb2");

    Ptr<AdcCsPolicyConfig> p = CreateObject<AdcCsPolicyConfig>();
    p->Configure("p", "true", "");
    EXPECT_THROW(p->SetRule("HTTP.REQ.URL.NOPE(\"x\")"), AdcPolicyExpressionError);
    EXPECT_EQ(p->GetRuleText(), "true"); // a bad rule leaves the old one
}

// REQ: CS-11 (mistakes name the file, the line, the word and what is allowed)
TEST_F(AdcNetScalerCsPolicy, ErrorsNameFileLineWordAndAllowedValues)
{
    m_reader.ReadString(kCanary + "add lb vserver v3 HTTP\n"
                                  "add cs vserver cs-two HTTP\n"
                                  "add cs policy pol-free -rule true\n",
                        "ns.conf");

    struct Case
    {
        std::string line;                //!< the bad line
        std::vector<std::string> expect; //!< what the message must say
    };

    const std::vector<Case> cases = {
        // add/set/rm cs action
        {"add cs action a1 -targetLBVserver nope",
         {"add cs action: lb vserver is not defined: word 'nope'",
          "allowed values are v1, v2, v3"}},
        {"add cs action a1", {"add cs action: missing -targetLBVserver"}},
        {"add cs action act-v2 -targetLBVserver v1",
         {"a cs action has this name already: word 'act-v2'"}},
        {"add cs action 'a!' -targetLBVserver v1", {"bad name: word 'a!'"}},
        {"add cs action a1 -targetLBVserver v1 -foo x",
         {"unknown parameter: word '-foo'", "-targetLBVserver"}},
        {"set cs action nope -targetLBVserver v1",
         {"set cs action: cs action is not defined: word 'nope'", "allowed values are act-v2"}},
        {"set cs action act-v2 -targetLBVserver nope", {"lb vserver is not defined: word 'nope'"}},
        {"rm cs action act-v2",
         {"rm cs action: cs action is used by cs policy",
          "pol-path, pol-cookie, pol-canary",
          "word 'act-v2'"}},
        // add/set/rm cs policy
        {"add cs policy p1 -rule \"HTTP.REQ.URL.STARTSWITH(\\\"/v2\\\"\" -action act-v2",
         {"add cs policy: bad -rule of cs policy 'p1' at column 30",
          "word 'HTTP.REQ.URL.STARTSWITH(\"/v2\"'"}},
        {"add cs policy p1 -rule \"HTTP.REQ.URL.FROB(\\\"x\\\")\"",
         {"bad -rule of cs policy 'p1' at column 14", "expected"}},
        {"add cs policy p1 -rule true -action nope",
         {"add cs policy: cs action is not defined: word 'nope'", "allowed values are act-v2"}},
        {"add cs policy p1 -action act-v2", {"add cs policy: missing -rule"}},
        {"add cs policy pol-path -rule true", {"a cs policy has this name already"}},
        {"set cs policy pol-canary -rule \"SYS.RANDOM.MUL(100).LT(\"",
         {"set cs policy: bad -rule of cs policy 'pol-canary' at column 24"}},
        {"set cs policy nope -rule true",
         {"set cs policy: cs policy is not defined: word 'nope'", "pol-path"}},
        {"set cs policy pol-canary -action act-v2", {"unknown parameter: word '-action'", "-rule"}},
        {"rm cs policy pol-path",
         {"rm cs policy: cs policy is bound to cs vserver cs-app; unbind it first",
          "word 'pol-path'"}},
        {"rm cs policy nope", {"cs policy is not defined: word 'nope'"}},
        // bind cs vserver
        {"bind cs vserver nope -policyName pol-path -priority 1",
         {"bind cs vserver: cs vserver is not defined: word 'nope'", "cs-app, cs-two"}},
        {"bind cs vserver cs-app -policyName pol-path -priority 400",
         {"cs policy is bound to cs vserver 'cs-app' already (priority 100)", "word 'pol-path'"}},
        {"bind cs vserver cs-app -policyName pol-free -priority 200 -targetLBVserver v3",
         {"priority of cs policy 'pol-free' is taken on cs vserver 'cs-app' by cs policy "
          "'pol-cookie'",
          "word '200'"}},
        {"bind cs vserver cs-two -policyName pol-path -priority 0",
         {"bad value of -priority: word '0'", "1..2147483647"}},
        {"bind cs vserver cs-two -policyName pol-path -priority 2147483648",
         {"bad value of -priority: word '2147483648'", "1..2147483647"}},
        {"bind cs vserver cs-two -policyName pol-path -priority high",
         {"-priority: word 'high'", "1..2147483647"}},
        {"bind cs vserver cs-two -policyName pol-path", {"bind cs vserver: missing -priority"}},
        {"bind cs vserver cs-two -policyName nope -priority 1",
         {"cs policy is not defined: word 'nope'", "pol-path, pol-cookie, pol-canary, pol-free"}},
        {"bind cs vserver cs-two -policyName pol-path -priority 1 -targetLBVserver v3",
         {"cs policy 'pol-path' has -action act-v2; give no -targetLBVserver"}},
        {"bind cs vserver cs-two -policyName pol-free -priority 1",
         {"cs policy 'pol-free' has no -action; give -targetLBVserver"}},
        {"bind cs vserver cs-two -policyName pol-free -priority 1 -targetLBVserver nope",
         {"lb vserver is not defined: word 'nope'", "v1, v2, v3"}},
        {"bind cs vserver cs-two", {"neither of -policyName and -lbvserver"}},
        {"bind cs vserver cs-two -policyName pol-path -priority 1 -lbvserver v1",
         {"both of -policyName and -lbvserver"}},
        {"bind cs vserver cs-two -lbvserver v1 -priority 3",
         {"-priority goes with -policyName, not with -lbvserver"}},
        {"bind cs vserver cs-app -lbvserver v2",
         {"cs vserver 'cs-app' has default lb vserver 'v1' bound already; unbind it first",
          "word 'v2'"}},
        {"bind cs vserver cs-two -lbvserver nope", {"lb vserver is not defined: word 'nope'"}},
        {"bind cs vserver cs-two -policyName pol-path -priority 1 -weight 3",
         {"unknown parameter: word '-weight'",
          "-policyName, -priority, -targetLBVserver, -lbvserver"}},
        // unbind cs vserver
        {"unbind cs vserver cs-app -policyName pol-free",
         {"unbind cs vserver: cs policy is not bound to cs vserver 'cs-app': word 'pol-free'",
          "pol-path, pol-cookie, pol-canary"}},
        {"unbind cs vserver cs-app -lbvserver v2",
         {"not the default lb vserver of cs vserver 'cs-app': word 'v2'", "allowed values are v1"}},
        {"unbind cs vserver cs-two -lbvserver v2", {"not the default lb vserver"}},
        {"unbind cs vserver cs-app", {"neither of -policyName and -lbvserver"}},
        {"unbind cs vserver nope -lbvserver v1", {"cs vserver is not defined: word 'nope'"}},
        // An LB vserver a CS action or binding names cannot go (Show could not read it back).
        {"rm lb vserver v2", {"in use by", "cs action act-v2", "word 'v2'"}},
        {"rm lb vserver v1", {"in use by", "cs vserver cs-app", "word 'v1'"}},
    };
    const std::string before = m_reader.Show();
    for (const Case& c : cases)
    {
        // The bad line is line 3 of its text: errors give the line of the file.
        const std::string error = ErrorOf("# ns.conf\n\n" + c.line + "\n");
        std::vector<std::string> expect = c.expect;
        expect.insert(expect.begin(), "ns.conf:3: ");
        EXPECT_TRUE(HasAll(error, expect)) << c.line << "\n  gave: " << error;
        EXPECT_EQ(m_line, 3u) << c.line;
    }
    // Nothing a refused line named was added or changed.
    EXPECT_EQ(m_reader.Show(), before);
}

// REQ: CS-11 (what was read prints as ns.conf lines, in its order, and reads back the same)
TEST_F(AdcNetScalerCsPolicy, ShowRoundTrips)
{
    m_reader.ReadString(kCanary + "add lb vserver \"v 3\" HTTP\n"
                                  "add cs policy \"pol quote\" -rule \"http.req.header(\\\"X-A\\\")"
                                  ".contains(\\\"say \\\\\\\"hi\\\\\\\"\\\") && true\"\n"
                                  "bind cs vserver cs-app -policyName \"pol quote\" -priority 7 "
                                  "-targetLBVserver v2\n",
                        "ns.conf");
    // The rule is the expression's canonical text; quoted with \" and \\ as NetScaler's CLI.
    // "v 3" is not bound under cs-app: its COOKIEINSERT cookie could not carry the blank.
    const std::string expected =
        "add lb vserver v1 HTTP\n"
        "add lb vserver v2 HTTP\n"
        "add lb vserver \"v 3\" HTTP\n"
        "add cs vserver cs-app HTTP 192.0.2.20 80 -persistenceType COOKIEINSERT -timeout 0 "
        "-persistenceBackup SOURCEIP\n"
        "add cs action act-v2 -targetLBVserver v2\n"
        "add cs policy pol-path -rule \"HTTP.REQ.URL.STARTSWITH(\\\"/v2\\\")\" -action act-v2\n"
        "add cs policy pol-cookie -rule \"HTTP.REQ.COOKIE.VALUE(\\\"version\\\").EQ(\\\"v2\\\")\" "
        "-action act-v2\n"
        "add cs policy pol-canary -rule SYS.RANDOM.MUL(100).LT(10) -action act-v2\n"
        "add cs policy \"pol quote\" -rule \"HTTP.REQ.HEADER(\\\"X-A\\\").CONTAINS(\\\"say "
        "\\\\\\\"hi\\\\\\\"\\\")&&true\"\n"
        "bind cs vserver cs-app -policyName \"pol quote\" -priority 7 -targetLBVserver v2\n"
        "bind cs vserver cs-app -policyName pol-path -priority 100\n"
        "bind cs vserver cs-app -policyName pol-cookie -priority 200\n"
        "bind cs vserver cs-app -policyName pol-canary -priority 300\n"
        "bind cs vserver cs-app -lbvserver v1\n";
    const std::string shown = m_reader.Show();
    EXPECT_EQ(shown, expected);

    AdcConfigReader again(CS::GetLanguage());
    again.ReadString(shown, "shown");
    EXPECT_EQ(again.Show(), shown);
    // The same objects: names, rules (as trees), actions, bindings and targets.
    const AdcConfigStore& a = m_reader.GetStore();
    const AdcConfigStore& b = again.GetStore();
    EXPECT_EQ(a.GetNames(CS::CS_POLICY), b.GetNames(CS::CS_POLICY));
    for (const std::string& n : a.GetNames(CS::CS_POLICY))
    {
        Ptr<AdcCsPolicyConfig> p = a.Get<AdcCsPolicyConfig>(CS::CS_POLICY, n);
        Ptr<AdcCsPolicyConfig> q = b.Get<AdcCsPolicyConfig>(CS::CS_POLICY, n);
        ASSERT_TRUE(q) << n;
        EXPECT_EQ(p->GetRule(), q->GetRule()) << n;
        EXPECT_EQ(p->GetAction(), q->GetAction()) << n;
    }
    EXPECT_EQ(a.GetNames(CS::CS_ACTION), b.GetNames(CS::CS_ACTION));
    EXPECT_EQ(b.Get<AdcCsActionConfig>(CS::CS_ACTION, "act-v2")->GetTargetLbVserver(), "v2");
    Ptr<AdcCsVserverConfig> v = b.Get<AdcCsVserverConfig>(CS::CS_VSERVER, "cs-app");
    ASSERT_TRUE(v);
    const std::vector<Binding>& x = Vserver()->GetPolicyBindings();
    const std::vector<Binding>& y = v->GetPolicyBindings();
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        EXPECT_EQ(x[i].policy, y[i].policy);
        EXPECT_EQ(x[i].priority, y[i].priority);
        EXPECT_EQ(x[i].target, y[i].target);
        EXPECT_EQ(x[i].fromAction, y[i].fromAction);
    }
    EXPECT_EQ(v->GetDefaultLbVserver(), "v1");
    // The quoted rule kept its inner quotes and backslash: say \"hi\" after unquoting.
    EXPECT_EQ(b.Get<AdcCsPolicyConfig>(CS::CS_POLICY, "pol quote")->GetRule(),
              AdcPolicyExpression::Parse("HTTP.REQ.HEADER(\"X-A\").CONTAINS(\"say \\\"hi\\\"\")"
                                         "&&true"));
}

// REQ: CS-11 (the commands join NetScaler's language, with the command reference's words)
TEST_F(AdcNetScalerCsPolicy, RegistersTheCommandReferenceCommands)
{
    std::vector<std::string> paths;
    for (const AdcConfigCommandSpec& c : CS::GetLanguage().GetCommands())
    {
        paths.push_back(c.path);
    }
    for (const char* p : {"add cs action",
                          "set cs action",
                          "rm cs action",
                          "add cs policy",
                          "set cs policy",
                          "rm cs policy",
                          "bind cs vserver",
                          "unbind cs vserver"})
    {
        EXPECT_NE(std::find(paths.begin(), paths.end(), p), paths.end()) << p;
    }
}
