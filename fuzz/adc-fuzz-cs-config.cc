/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "cs-config": any text read as configuration lines in NetScaler's language with
 * the content-switching commands (AdcNetScalerCsCommands: add, set, rm cs vserver).
 * Properties:
 * - reading may fail only with an AdcConfigError (any other exception aborts the run);
 * - every CS virtual server read keeps a persistence the support matrix allows (CS-07) and a
 *   backup only with COOKIEINSERT (CS-08);
 * - whatever was read before an error shows as lines that read back without an error and show
 *   as the same text (parse, show, parse, show: identical).
 */

// REQ: CS-07, CS-08, CS-11

#include "adc-fuzz.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-netscaler-cs-commands.h"

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
