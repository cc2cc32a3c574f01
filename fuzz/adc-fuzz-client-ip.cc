/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "client-ip": AdcClientIpHeader, the parser of the client-IP request header
 * (X-Forwarded-For) and of the header name configured for it.
 *
 * The input is used four ways: as a header value (ParseValue), as an address (ParseAddress),
 * as a header name (IsToken, checked against what the HTTP head parser accepts as a field
 * name), and its first four bytes as an address to Format.
 */

// REQ: CRD-06 (the lower tier inserts the client IP into a request header)
// REQ: CRD-07 (-srcIPExpr reads the client IP back out of that header)
// REQ: CRD-12 (the origin chooses its response from the client IP in the header)

#include "adc-fuzz.h"

#include "ns3/adc-client-ip-header.h"
#include "ns3/adc-http-message.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

using namespace ns3;

namespace
{

/// \return true when \p a can be a client: not 0.0.0.0, not broadcast, not multicast
bool
CanBeClient(Ipv4Address a)
{
    return a.Get() != 0 && !a.IsBroadcast() && !a.IsMulticast();
}

/// Properties of an address ParseAddress or ParseValue returned.
void
CheckParsed(const std::optional<Ipv4Address>& a)
{
    if (!a)
    {
        return;
    }
    ADC_FUZZ_CHECK(CanBeClient(*a));
    const std::string text = AdcClientIpHeader::Format(*a);
    const auto back = AdcClientIpHeader::ParseAddress(text);
    ADC_FUZZ_CHECK(back.has_value() && *back == *a);
    ADC_FUZZ_CHECK(AdcClientIpHeader::Format(*back) == text);
}

/// \return true when \p name is a field the head parser reads the value of (message framing:
/// Content-Length, Transfer-Encoding), in any case
bool
IsFramingField(const std::string& name)
{
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return lower == "content-length" || lower == "transfer-encoding";
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string s = AdcFuzzString(data, size);

    // As an address: accepted text is a dotted quad of at most 3 digits per octet.
    const auto address = AdcClientIpHeader::ParseAddress(s);
    CheckParsed(address);
    if (address)
    {
        ADC_FUZZ_CHECK(s.size() >= 7 && s.size() <= 15);
        ADC_FUZZ_CHECK(s.find_first_not_of("0123456789.") == std::string::npos);
        ADC_FUZZ_CHECK(std::count(s.begin(), s.end(), '.') == 3);
    }

    // As a header value: the client is the first list item, trimmed.
    const std::string first = AdcClientIpHeader::FirstListItem(s);
    ADC_FUZZ_CHECK(first.find(',') == std::string::npos);
    ADC_FUZZ_CHECK(s.find(first) != std::string::npos);
    ADC_FUZZ_CHECK(first.empty() || (first.front() != ' ' && first.front() != '\t' &&
                                     first.back() != ' ' && first.back() != '\t'));
    const auto client = AdcClientIpHeader::ParseValue(s);
    CheckParsed(client);
    ADC_FUZZ_CHECK(client == AdcClientIpHeader::ParseAddress(first));
    ADC_FUZZ_CHECK(s.find(',') != std::string::npos || !address || client == address);

    // As a header name: a name IsToken accepts is one the HTTP parser accepts in a head, and
    // only such a name is (a colon would end the name early, CR or LF the line). Framing fields
    // are tokens too, but the parser reads their values: an address there is an error.
    const bool token = AdcClientIpHeader::IsToken(s);
    if ((token || s.find_first_of(":\r\n") == std::string::npos) && !IsFramingField(s))
    {
        const std::string head = "GET / HTTP/1.1\r\n" + s + ": 10.0.0.2\r\n\r\n";
        AdcHttpMessage m;
        const auto st =
            m.Parse(reinterpret_cast<const uint8_t*>(head.data()), head.size(), nullptr, nullptr);
        if (head.size() <= AdcHttpMessage::kMaxHeadBytes)
        {
            ADC_FUZZ_CHECK((st == AdcHttpMessage::ParseStatus::COMPLETE) == token);
        }
        if (token && st == AdcHttpMessage::ParseStatus::COMPLETE)
        {
            ADC_FUZZ_CHECK(m.GetHeader(s).value_or("") == "10.0.0.2");
        }
    }

    // Format of any address reads back, unless the address cannot be a client.
    if (size >= 4)
    {
        const Ipv4Address a((uint32_t{data[0]} << 24) | (uint32_t{data[1]} << 16) |
                            (uint32_t{data[2]} << 8) | uint32_t{data[3]});
        const auto back = AdcClientIpHeader::ParseAddress(AdcClientIpHeader::Format(a));
        ADC_FUZZ_CHECK(back.has_value() == CanBeClient(a));
        ADC_FUZZ_CHECK(!back || *back == a);
    }
    return 0;
}
