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
 *
 * Set-Cookie (AdcSetCookie::Parse, RFC 6265 5.2) of any bytes: a parsed cookie has a
 * non-empty trimmed name without ';' or '=' and a trimmed value without ';'; Max-Age stays
 * within +-kMaxUnixSeconds; a cookie that Build accepts round-trips: Parse(Build(name, value,
 * V1, timeout)) gives the same name and value, Max-Age = timeout and Path "/", and with V0
 * an Expires of epoch + now + timeout. Cookie dates (ParseCookieDate) of any bytes are within
 * years 1601..9999, and FormatImfFixdate(t) parses back to t.
 */

// REQ: CS-04 (persistence cookie), CS-05 (Set-Cookie), CS-08 (Cookie and Set-Cookie parsing)

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

    // Set-Cookie as a user agent reads it.
    if (const auto sc = AdcSetCookie::Parse(text))
    {
        const auto trimmed = [](const std::string& v) {
            return v.empty() ||
                   (v.front() != ' ' && v.front() != '\t' && v.back() != ' ' && v.back() != '\t');
        };
        ADC_FUZZ_CHECK(!sc->name.empty() && trimmed(sc->name) && trimmed(sc->value));
        ADC_FUZZ_CHECK(sc->name.find_first_of(";=") == std::string::npos);
        ADC_FUZZ_CHECK(sc->value.find(';') == std::string::npos);
        ADC_FUZZ_CHECK(text.find(sc->name) != std::string::npos);
        if (sc->maxAge)
        {
            ADC_FUZZ_CHECK(*sc->maxAge <= AdcSetCookie::kMaxUnixSeconds &&
                           *sc->maxAge >= -AdcSetCookie::kMaxUnixSeconds);
        }
        ADC_FUZZ_CHECK(sc->path.empty() || sc->path[0] == '/');
        ADC_FUZZ_CHECK(AdcSetCookie::IsSession(*sc) == (!sc->maxAge && !sc->expires));
        const int64_t timeout = 1 + static_cast<int64_t>(size % 100000);
        for (const auto version : {AdcSetCookie::Version::V0, AdcSetCookie::Version::V1})
        {
            std::string built;
            try
            {
                built = AdcSetCookie::Build(sc->name,
                                            sc->value,
                                            version,
                                            Seconds(static_cast<double>(timeout)),
                                            Seconds(static_cast<double>(size)));
            }
            catch (const AdcConfigError&)
            {
                continue;
            }
            const auto back = AdcSetCookie::Parse(built);
            ADC_FUZZ_CHECK(back && back->name == sc->name && back->value == sc->value);
            ADC_FUZZ_CHECK(back->path == "/" && !back->secure && !back->httpOnly);
            if (version == AdcSetCookie::Version::V1)
            {
                ADC_FUZZ_CHECK(back->maxAge == std::optional<int64_t>(timeout) && !back->expires);
            }
            else
            {
                ADC_FUZZ_CHECK(!back->maxAge);
                ADC_FUZZ_CHECK(back->expires ==
                               std::optional<int64_t>(AdcSetCookie::kDefaultEpoch +
                                                      static_cast<int64_t>(size) + timeout));
                ADC_FUZZ_CHECK(AdcSetCookie::ExpiryAfter(*back, Seconds(0)) ==
                               static_cast<int64_t>(size) + timeout);
            }
        }
    }
    if (const auto d = AdcSetCookie::ParseCookieDate(text))
    {
        ADC_FUZZ_CHECK(*d >= -11644473600 && *d <= AdcSetCookie::kMaxUnixSeconds); // 1601..9999
    }
    if (size >= 5)
    {
        const int64_t t =
            static_cast<int64_t>((uint64_t{data[0]} << 32) | (uint64_t{data[1]} << 24) |
                                 (uint64_t{data[2]} << 16) | (uint64_t{data[3]} << 8) | data[4]) %
            (AdcSetCookie::kMaxUnixSeconds + 1);
        ADC_FUZZ_CHECK(AdcSetCookie::ParseCookieDate(AdcSetCookie::FormatImfFixdate(t)) ==
                       std::optional<int64_t>(t));
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
