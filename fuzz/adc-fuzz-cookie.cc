/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "cookie": AdcHttpCookies::ParseValue (a Cookie header value of any bytes),
 * AdcSetCookie::Build for what was parsed, and AdcNscCookie's name and value decoders.
 *
 * Parsing never crashes; the parsed pairs re-serialize (ToHeaderValue) to text that parses
 * back to the same pairs with nothing skipped; a pair whose value is RFC 6265 cookie-octets
 * builds a Set-Cookie value that starts with "name=value; "; any bytes decode as an NSC_
 * value or name without crashing; EncodeValue(ip, port) decodes back to (ip, port), the
 * input's first 6 bytes giving ip and port; a vserver name either encodes (and decodes back)
 * or is rejected with AdcConfigError only.
 */

// REQ: CS-04 (persistence cookie), CS-05 (Set-Cookie), CS-08 (Cookie parsing)

#include "adc-fuzz.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-cookie.h"

#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string text = AdcFuzzString(data, size);

    // Cookie header value.
    const AdcHttpCookies c = AdcHttpCookies::ParseValue(text);
    ADC_FUZZ_CHECK(c.HasCookieHeader());
    ADC_FUZZ_CHECK(c.HasAnyCookie() == (c.Count() > 0));
    const std::string ser = c.ToHeaderValue();
    ADC_FUZZ_CHECK(ser.size() <= text.size() + 2 * c.Count());
    const AdcHttpCookies back = AdcHttpCookies::ParseValue(ser);
    ADC_FUZZ_CHECK(back.Count() == c.Count());
    ADC_FUZZ_CHECK(back.GetSkipped() == 0);
    ADC_FUZZ_CHECK(back.ToHeaderValue() == ser);
    for (std::size_t i = 0; i < c.Count(); ++i)
    {
        const auto& p = c.GetPairs()[i];
        const auto& q = back.GetPairs()[i];
        ADC_FUZZ_CHECK(p.name == q.name && p.value == q.value && p.quoted == q.quoted);
        ADC_FUZZ_CHECK(AdcHttpCookies::IsCookieName(p.name.data(), p.name.size()));
        ADC_FUZZ_CHECK(c.Get(p.name).has_value());
        bool octets = true;
        for (unsigned char ch : p.value)
        {
            octets = octets && AdcHttpCookies::IsCookieOctet(ch);
        }
        try
        {
            const std::string sc =
                AdcSetCookie::Build(p.name,
                                    p.value,
                                    i % 2 ? AdcSetCookie::Version::V1 : AdcSetCookie::Version::V0,
                                    Seconds(static_cast<double>(i % 3) * 60),
                                    Seconds(static_cast<double>(size)));
            ADC_FUZZ_CHECK(octets);
            ADC_FUZZ_CHECK(sc.rfind(p.name + "=" + p.value + "; ", 0) == 0);
            const AdcHttpCookies sp = AdcHttpCookies::ParseValue(sc);
            ADC_FUZZ_CHECK(sp.Get(p.name) == std::optional<std::string>(p.value));
        }
        catch (const AdcConfigError&)
        {
            ADC_FUZZ_CHECK(!octets);
        }
    }

    // NSC_ value and name decoders: any bytes.
    if (const auto s = AdcNscCookie::DecodeValue(text))
    {
        ADC_FUZZ_CHECK(text.size() >= 20);
    }
    (void)AdcNscCookie::DecodeName(text);
    (void)AdcNscCookie::DecodeLbVserver(text, "cs1");
    ADC_FUZZ_CHECK(AdcNscCookie::DecodeVserverId(text).size() == text.size());

    // Encode/decode round trips.
    if (size >= 6)
    {
        const uint32_t ip = (uint32_t{data[0]} << 24) | (uint32_t{data[1]} << 16) |
                            (uint32_t{data[2]} << 8) | data[3];
        const auto port = static_cast<uint16_t>((data[4] << 8) | data[5]);
        const std::string v = AdcNscCookie::EncodeValue(Ipv4Address(ip), port);
        ADC_FUZZ_CHECK(v.size() == AdcNscCookie::kValueLength);
        const auto s = AdcNscCookie::DecodeValue(v);
        ADC_FUZZ_CHECK(s && s->ip.Get() == ip && s->port == port);
    }
    try
    {
        const std::string id = AdcNscCookie::EncodeVserverId(text);
        ADC_FUZZ_CHECK(AdcNscCookie::DecodeVserverId(id) == text);
        const std::string name = AdcNscCookie::EncodeName("cs1", text);
        ADC_FUZZ_CHECK(AdcHttpCookies::IsCookieName(name.data(), name.size()));
        ADC_FUZZ_CHECK(AdcNscCookie::DecodeLbVserver(name, "cs1") ==
                       std::optional<std::string>(text));
    }
    catch (const AdcConfigError&)
    {
    }
    return 0;
}
