/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "port-range": AdcPortRange::Parse, the parser of port-range settings
 * (AdcPortAllocator's "Range", the lower tier's source-port ranges), and Split, which cuts the
 * range 1024-65535 into one exclusive range per lower-tier appliance.
 *
 * An accepted range prints back (operator<<) to text that parses to the same range; a
 * rejected one throws AdcConfigError and nothing else (any other exception escapes and
 * aborts the run).
 */

// REQ: CRD-05 (source-port ranges, split into exclusive ranges; bad ranges are config errors)

#include "adc-fuzz.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-port-range.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Split \p whole into \p n parts and check the parts tile it, sizes differing by at most one.
void
CheckSplit(AdcPortRange whole, uint32_t n)
{
    std::vector<AdcPortRange> parts;
    try
    {
        parts = AdcPortRange::Split(whole, n);
    }
    catch (const AdcConfigError& e)
    {
        ADC_FUZZ_CHECK(n == 0 || n > whole.Size());
        ADC_FUZZ_CHECK(std::string(e.what()).find(whole.ToString()) != std::string::npos);
        return;
    }
    ADC_FUZZ_CHECK(n >= 1 && n <= whole.Size());
    ADC_FUZZ_CHECK(parts.size() == n);
    uint32_t next = whole.first;
    const uint32_t small = whole.Size() / n;
    for (const auto& p : parts)
    {
        ADC_FUZZ_CHECK(p.IsValid());
        ADC_FUZZ_CHECK(p.first == next);
        ADC_FUZZ_CHECK(p.Size() == small || p.Size() == small + 1);
        next = uint32_t{p.last} + 1;
    }
    ADC_FUZZ_CHECK(next == uint32_t{whole.last} + 1);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text = AdcFuzzString(data, size);
    AdcPortRange r;
    try
    {
        r = AdcPortRange::Parse(text);
    }
    catch (const AdcConfigError& e)
    {
        // The message names the class and the allowed form (what() ends at a NUL the text
        // may hold, so the form is checked only for text without one).
        const std::string what = e.what();
        ADC_FUZZ_CHECK(what.rfind("AdcPortRange: ", 0) == 0);
        ADC_FUZZ_CHECK(text.find('\0') != std::string::npos ||
                       what.find("1 <= FIRST <= LAST <= 65535") != std::string::npos);
        return 0;
    }
    ADC_FUZZ_CHECK(r.IsValid());
    ADC_FUZZ_CHECK(r.first >= 1 && r.first <= r.last);
    r.Check("fuzz"); // throws on an invalid range, which is a crash here

    std::ostringstream os;
    os << r;
    ADC_FUZZ_CHECK(os.str() == r.ToString());
    const AdcPortRange back = AdcPortRange::Parse(os.str());
    ADC_FUZZ_CHECK(back == r);
    ADC_FUZZ_CHECK(back.ToString() == os.str());
    // A single port reads as P-P.
    if (r.first == r.last)
    {
        ADC_FUZZ_CHECK(AdcPortRange::Parse(std::to_string(r.first)) == r);
    }

    // Split it as the CRD helper splits the lower tier's range: the few sizes it uses, the
    // largest allowed (one port each, when cheap) and the first not allowed.
    for (uint32_t n : {0U, 1U, 2U, 3U, 4U, 7U})
    {
        CheckSplit(r, n);
    }
    if (r.Size() <= 4096)
    {
        CheckSplit(r, r.Size());
    }
    CheckSplit(r, r.Size() + 1);
    return 0;
}
