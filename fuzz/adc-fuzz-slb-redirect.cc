/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "slb-redirect": SlbRedirectMessage::Parse (the MUX's Fastpath redirect) of any
 * bytes. Parsing never crashes and reports a failure only as a result with a reason naming a
 * byte offset; a message that parses serializes to the same bytes (the format has no slack:
 * every byte is a field, reserved bits are refused) and parses back equal.
 */

// REQ: SLB-01 (internal VIPs' Fastpath), SLB-11 (host agents read the MUX's redirects)

#include "adc-fuzz.h"

#include "ns3/slb-redirect-message.h"

#include <string>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    std::string error;
    const auto m = SlbRedirectMessage::Parse(data, size, &error);
    ADC_FUZZ_CHECK(m.has_value() == error.empty());
    if (!m)
    {
        ADC_FUZZ_CHECK(error.rfind("slb-redirect: byte ", 0) == 0);
        return 0;
    }
    const std::vector<uint8_t> wire = m->Serialize(); // a parsed message is always valid
    ADC_FUZZ_CHECK(wire == std::vector<uint8_t>(data, data + size));
    const auto back = SlbRedirectMessage::Parse(wire);
    ADC_FUZZ_CHECK(back.has_value());
    ADC_FUZZ_CHECK(*back == *m);
    ADC_FUZZ_CHECK(!m->ToString().empty());
    return 0;
}
