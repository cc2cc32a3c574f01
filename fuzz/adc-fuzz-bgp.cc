/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "bgp": AdcBgpFramer, the BGP-4 stream framer, and AdcBgpMessage::Parse, on
 * arbitrary bytes.
 *
 * The input is fed to the framer whole and again in random splits (the cut points drawn from a
 * generator seeded by the input itself), with 2-byte and with 4-byte AS_PATH ASes: the splits
 * give the same messages and error. Every error carries a NOTIFICATION code 1..3 with a subcode
 * RFC 4271 section 6 defines for it and an offset inside the input. Every message the framer
 * yields is the input's bytes parsed whole; it serializes (without AdcConfigError: whatever
 * parses can be sent) and the result parses back to an equal message, which serializes to the
 * same bytes. The input parsed as one message (Parse) never throws; when it parses, the same
 * round trip holds.
 */

// REQ: SLB-04 (the BGP UPDATEs that announce each VIP, read from any byte stream)
// REQ: SLB-10 (KEEPALIVE / NOTIFICATION framing a MUX and router exchange)

#include "adc-fuzz.h"

#include "ns3/adc-bgp-message.h"
#include "ns3/adc-config-error.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What a framer produced from one stream.
struct Outcome
{
    std::vector<AdcBgpMessage> messages; //!< messages
    std::optional<AdcBgpError> error;    //!< error
    uint64_t bytes{0};                   //!< bytes consumed into messages
};

/**
 * \param data stream \param size its length \param seed 0: whole; else the split generator's
 * seed \param four 4-octet ASes \return what came out
 */
Outcome
Run(const uint8_t* data, std::size_t size, uint32_t seed, bool four)
{
    AdcBgpFramer f(four);
    Outcome o;
    AdcFuzzFeedInPieces(data, size, seed, [&](const uint8_t* piece, std::size_t n) {
        for (auto& m : f.Feed(piece, n))
        {
            o.messages.push_back(std::move(m));
        }
    });
    o.error = f.GetError();
    o.bytes = f.GetMessageBytes();
    return o;
}

/// \param e an error \param limit the input's size \brief check it is one RFC 4271 defines
void
CheckError(const AdcBgpError& e, std::size_t limit)
{
    ADC_FUZZ_CHECK(e.code >= 1 && e.code <= 3);
    if (e.code == 1)
    {
        ADC_FUZZ_CHECK(e.subcode >= 1 && e.subcode <= 3);
    }
    else if (e.code == 2)
    {
        ADC_FUZZ_CHECK(e.subcode <= 6 && e.subcode != 5);
    }
    else
    {
        ADC_FUZZ_CHECK(e.subcode >= 1 && e.subcode <= 11 && e.subcode != 7);
    }
    ADC_FUZZ_CHECK(e.offset <= limit);
    ADC_FUZZ_CHECK(!e.what.empty());
    ADC_FUZZ_CHECK(e.ToString().rfind("BGP error ", 0) == 0);
    ADC_FUZZ_CHECK(AdcBgpNotification::SubcodeName(e.code, e.subcode) != "Unknown");
}

/// \param m a parsed message \param wire its bytes \param four 4-octet ASes \brief round trip
void
RoundTrip(const AdcBgpMessage& m, const uint8_t* wire, std::size_t size, bool four)
{
    std::vector<uint8_t> bytes;
    try
    {
        bytes = m.Serialize(four);
    }
    catch (const AdcConfigError& e)
    {
        std::fprintf(stderr, "Serialize refused a parsed message: %s\n", e.what());
        ADC_FUZZ_CHECK(false);
    }
    ADC_FUZZ_CHECK(bytes.size() <= size); // never longer than what was parsed
    const AdcBgpParseResult again = AdcBgpMessage::Parse(bytes, four);
    ADC_FUZZ_CHECK(again.Ok() && !again.error);
    ADC_FUZZ_CHECK(*again.message == m);
    ADC_FUZZ_CHECK(again.message->Serialize(four) == bytes);
    ADC_FUZZ_CHECK(!m.ToString().empty());
    if (m.type == AdcBgpMessage::KEEPALIVE)
    {
        ADC_FUZZ_CHECK(std::equal(bytes.begin(), bytes.end(), wire) && bytes.size() == 19);
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    uint32_t seed = 1;
    for (std::size_t i = 0; i < size && i < 8; ++i)
    {
        seed = seed * 131 + data[i];
    }
    for (bool four : {false, true})
    {
        const Outcome whole = Run(data, size, 0, four);
        const Outcome split = Run(data, size, seed | 1, four);
        ADC_FUZZ_CHECK(split.messages == whole.messages);
        ADC_FUZZ_CHECK(split.bytes == whole.bytes);
        ADC_FUZZ_CHECK(split.error.has_value() == whole.error.has_value());
        if (whole.error)
        {
            CheckError(*whole.error, size);
            ADC_FUZZ_CHECK(split.error->ToString() == whole.error->ToString());
            ADC_FUZZ_CHECK(split.error->data == whole.error->data);
            ADC_FUZZ_CHECK(whole.error->offset >= whole.bytes);
        }
        ADC_FUZZ_CHECK(whole.bytes <= size);

        // Each message is the stream's bytes parsed whole, and round-trips.
        std::size_t at = 0;
        for (const auto& m : whole.messages)
        {
            const std::size_t length = (std::size_t{data[at + 16]} << 8) | data[at + 17];
            const AdcBgpParseResult r = AdcBgpMessage::Parse(data + at, length, four);
            ADC_FUZZ_CHECK(r.Ok() && *r.message == m);
            RoundTrip(m, data + at, length, four);
            at += length;
        }
        ADC_FUZZ_CHECK(at == whole.bytes);

        // The whole input as one message.
        const AdcBgpParseResult one = AdcBgpMessage::Parse(data, size, four);
        ADC_FUZZ_CHECK(one.Ok() != one.error.has_value());
        if (one.Ok())
        {
            RoundTrip(*one.message, data, size, four);
        }
        else
        {
            CheckError(*one.error, size);
        }
    }
    return 0;
}
