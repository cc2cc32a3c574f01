/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "cs-expression": AdcPolicyExpression::Parse, the parser of the NetScaler
 * advanced policy expressions that CS policies carry.
 *
 * Any bytes either parse or throw AdcPolicyExpressionError (an AdcConfigError) with a column
 * inside the text (or just past its end); nothing else escapes. A parsed expression prints
 * back to canonical text that is no longer than the input and parses to an equal tree with the
 * same canonical text. Evaluating it on a fixed request, with fixed draws and with a draw
 * callback, never crashes and gives the same result as the reparsed tree.
 */

// REQ: CS-01 (policy expressions pick the LB vserver), CS-11 (configuration text round-trips)

#include "adc-fuzz.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-policy-expression.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <string>

using namespace ns3;

namespace
{

/// The request every input is evaluated on.
AdcHttpMessage
FixedRequest()
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest("GET", "/v2/cart?item=7");
    m.SetHeader("Host", "Shop.Example.com:8080");
    m.AddHeader("X-Canary", "1");
    m.AddHeader("Cookie", "session=abc; version=v2");
    m.AddHeader("Cookie", "=odd; novalue; theme=dark");
    return m;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text = AdcFuzzString(data, size);
    AdcPolicyExpression e;
    try
    {
        e = AdcPolicyExpression::Parse(text);
    }
    catch (const AdcPolicyExpressionError& err)
    {
        ADC_FUZZ_CHECK(err.GetColumn() >= 1 && err.GetColumn() <= text.size() + 1);
        const std::string what = err.what();
        ADC_FUZZ_CHECK(what.rfind("AdcPolicyExpression: ", 0) == 0);
        return 0;
    }
    ADC_FUZZ_CHECK(text.size() <= AdcPolicyExpression::kMaxLength);

    const std::string canonical = e.ToString();
    ADC_FUZZ_CHECK(canonical.size() <= text.size());
    const AdcPolicyExpression back = AdcPolicyExpression::Parse(canonical); // must not throw
    ADC_FUZZ_CHECK(back == e);
    ADC_FUZZ_CHECK(back.ToString() == canonical);

    static const AdcHttpMessage req = FixedRequest();
    AdcPolicyContext ctx;
    ctx.request = &req;
    for (double draw : {0.0, 0.0999, 0.5, 0.999999, -1.0, 2.0})
    {
        for (AdcIpAddress client : {AdcIpAddress(Ipv4Address("10.20.30.40")),
                                    AdcIpAddress(Ipv6Address("2001:db8::1")),
                                    AdcIpAddress()})
        {
            ctx.clientIp = client;
            ctx.randomDraw = draw;
            ADC_FUZZ_CHECK(e.Evaluate(ctx) == back.Evaluate(ctx));
        }
    }
    ctx.request = nullptr;
    (void)e.Evaluate(ctx);
    ctx.request = &req;
    unsigned calls = 0;
    ctx.randomSource = [&calls]() { return (calls++ % 7) / 7.0; };
    (void)e.Evaluate(ctx);
    return 0;
}
