/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "cs-config": any text read as configuration lines in NetScaler's language with
 * the content-switching commands (AdcNetScalerCsCommands: add, set, rm cs vserver;
 * AdcNetScalerCsPolicyCommands: add, set, rm cs action and cs policy, bind, unbind cs vserver).
 * Properties:
 * - reading may fail only with an AdcConfigError (any other exception aborts the run);
 * - every CS virtual server read keeps a persistence the support matrix allows (CS-07) and a
 *   backup only with COOKIEINSERT (CS-08);
 * - every CS vserver's policy bindings name defined policies, have priorities in
 *   1..2147483647 in strictly ascending order, and a binding through a policy's action has
 *   that action's target; every policy's action is defined; a policy's canonical rule parses
 *   back to the same expression (CS-01, CS-02);
 * - whatever was read before an error shows as lines that read back without an error and show
 *   as the same text (parse, show, parse, show: identical); every LB vserver a CS action or
 *   binding names is defined ("rm lb vserver" refuses one in use).
 */

// REQ: CS-01, CS-02, CS-07, CS-08, CS-11

#include "adc-fuzz.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/adc-netscaler-cs-policy-commands.h"

#include <algorithm>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text = AdcFuzzString(data, size);
    const AdcConfigLanguage& language = AdcNetScalerCsCommands::GetLanguage();
    AdcConfigReader reader(language);
    try
    {
        reader.ReadString(text, "fuzz");
    }
    catch (const AdcConfigError&)
    {
        // A rejected line; the lines before it stay read.
    }
    for (const Ptr<AdcCsVserverConfig>& v :
         reader.GetStore().GetAll<AdcCsVserverConfig>(AdcNetScalerCsCommands::CS_VSERVER))
    {
        const std::vector<std::string> allowed =
            AdcCsVserverConfig::GetAllowedPersistenceTypes(v->GetServiceType());
        ADC_FUZZ_CHECK(std::find(allowed.begin(),
                                 allowed.end(),
                                 AdcPersistenceTypeToString(v->GetPersistenceType())) !=
                       allowed.end());
        ADC_FUZZ_CHECK(v->GetPersistenceBackup() == AdcPersistenceType::NONE ||
                       v->GetPersistenceType() == AdcPersistenceType::COOKIEINSERT);
        ADC_FUZZ_CHECK(v->GetTimeoutMinutes() <= AdcCsVserverConfig::MAX_TIMEOUT);
    }
    using CS = AdcNetScalerCsCommands;
    const AdcConfigStore& store = reader.GetStore();
    bool dangling = false;
    auto resolves = [&](const std::string& lb) {
        dangling = dangling || !store.Find(AdcNetScalerCommands::LB_VSERVER, lb);
    };
    for (const Ptr<AdcCsActionConfig>& a : store.GetAll<AdcCsActionConfig>(CS::CS_ACTION))
    {
        ADC_FUZZ_CHECK(!a->GetTargetLbVserver().empty());
        resolves(a->GetTargetLbVserver());
    }
    for (const Ptr<AdcCsPolicyConfig>& p : store.GetAll<AdcCsPolicyConfig>(CS::CS_POLICY))
    {
        ADC_FUZZ_CHECK(p->GetAction().empty() || store.Find(CS::CS_ACTION, p->GetAction()));
        const std::string canonical = p->GetRule().ToString();
        ADC_FUZZ_CHECK(AdcPolicyExpression::Parse(canonical) == p->GetRule());
    }
    for (const Ptr<AdcCsVserverConfig>& v : store.GetAll<AdcCsVserverConfig>(CS::CS_VSERVER))
    {
        uint32_t last = 0;
        for (const AdcCsVserverConfig::PolicyBinding& b : v->GetPolicyBindings())
        {
            ADC_FUZZ_CHECK(b.priority > last && b.priority <= AdcCsVserverConfig::MAX_PRIORITY);
            last = b.priority;
            Ptr<AdcCsPolicyConfig> p = store.Get<AdcCsPolicyConfig>(CS::CS_POLICY, b.policy);
            ADC_FUZZ_CHECK(p);
            ADC_FUZZ_CHECK(b.fromAction != p->GetAction().empty());
            if (b.fromAction)
            {
                Ptr<AdcCsActionConfig> a =
                    store.Get<AdcCsActionConfig>(CS::CS_ACTION, p->GetAction());
                ADC_FUZZ_CHECK(a && a->GetTargetLbVserver() == b.target);
            }
            resolves(b.target);
        }
        if (!v->GetDefaultLbVserver().empty())
        {
            resolves(v->GetDefaultLbVserver());
        }
    }
    ADC_FUZZ_CHECK(!dangling); // rm lb vserver refuses an LB vserver in use
    const std::string shown = reader.Show();
    AdcConfigReader again(language);
    try
    {
        again.ReadString(shown, "shown");
    }
    catch (const AdcConfigError& e)
    {
        std::fprintf(stderr, "shown text does not read back: %s\n%s", e.what(), shown.c_str());
        ADC_FUZZ_CHECK(false);
    }
    ADC_FUZZ_CHECK(again.Show() == shown);
    return 0;
}
