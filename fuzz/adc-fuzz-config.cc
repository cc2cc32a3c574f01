/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "config": any text read as configuration lines, in NetScaler's language and in
 * ilbadm's (AdcConfigReader with AdcNetScalerCommands and AdcIlbadmCommands).
 * Properties:
 * - reading may fail only with an AdcConfigError (any other exception aborts the run);
 * - whatever was read before an error shows as lines that read back without an error and show
 *   as the same text (parse, show, parse, show: identical).
 */

// REQ: CS-11 (configuration in NetScaler's own commands), ILB-01 (rules from ilbadm's)

#include "adc-fuzz.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-ilbadm-commands.h"
#include "ns3/adc-netscaler-commands.h"

#include <string>

using namespace ns3;

namespace
{

/// Read \p text in \p language and check that what was read round-trips.
void
Check(const AdcConfigLanguage& language, const std::string& text)
{
    AdcConfigReader reader(language);
    try
    {
        reader.ReadString(text, "fuzz");
    }
    catch (const AdcConfigError&)
    {
        // A rejected line; the lines before it stay read.
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
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text = AdcFuzzString(data, size);
    Check(AdcNetScalerCommands::GetLanguage(), text);
    Check(AdcIlbadmCommands::GetLanguage(), text);
    return 0;
}
