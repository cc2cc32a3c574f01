/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "mep": AdcMepFramer, the NetScaler MEP stream framer, and AdcMepMessage::Parse.
 *
 * The input is fed to the framer whole and again in random splits (the cut points drawn from
 * a generator seeded by the input itself): both runs give the same messages, bytes consumed
 * and error. Every message serializes back to exactly the stream bytes it came from and parses
 * back equal; errors name a byte offset. The whole input is also parsed as one PDU: nullopt
 * with an offset-naming error, or a message that serializes back to the input. Parse never
 * throws; an AdcConfigError from Serialize of a parsed message is a failure.
 */

// REQ: GSLB-07 (MEP messages read from any byte stream)

#include "adc-fuzz.h"

#include "ns3/adc-mep-message.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What the framer produced from one stream.
struct Outcome
{
    std::vector<AdcMepMessage> messages; //!< messages
    std::string error;                   //!< error
    uint64_t messageBytes{0};            //!< bytes consumed into messages
};

/**
 * \param data stream \param size its length \param seed 0: whole; else the split generator's
 * seed \return what came out
 */
Outcome
Run(const uint8_t* data, std::size_t size, uint32_t seed)
{
    AdcMepFramer f;
    Outcome o;
    AdcFuzzFeedInPieces(data, size, seed, [&](const uint8_t* piece, std::size_t n) {
        for (auto& m : f.Feed(piece, n))
        {
            o.messages.push_back(std::move(m));
        }
    });
    o.error = f.GetError();
    o.messageBytes = f.GetMessageBytes();
    ADC_FUZZ_CHECK(f.HasError() == !o.error.empty());
    ADC_FUZZ_CHECK(o.messageBytes + f.GetBufferedBytes() <= size);
    return o;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const Outcome whole = Run(data, size, 0);
    uint32_t seed = 1;
    for (std::size_t i = 0; i < size && i < 8; ++i)
    {
        seed = seed * 131 + data[i];
    }
    const Outcome split = Run(data, size, seed | 1);
    ADC_FUZZ_CHECK(split.messages == whole.messages);
    ADC_FUZZ_CHECK(split.error == whole.error);
    ADC_FUZZ_CHECK(split.messageBytes == whole.messageBytes);
    if (!whole.error.empty())
    {
        ADC_FUZZ_CHECK(whole.error.rfind("AdcMepFramer: message at stream byte ", 0) == 0);
        ADC_FUZZ_CHECK(whole.error.find("AdcMepMessage: byte ") != std::string::npos);
    }

    // Messages serialize back to exactly the bytes consumed, and parse back equal.
    std::vector<uint8_t> again;
    for (const auto& m : whole.messages)
    {
        const auto w = m.Serialize(); // a message the parser accepted always serializes
        ADC_FUZZ_CHECK(w.size() == m.GetSerializedSize());
        std::string error;
        const auto back = AdcMepMessage::Parse(w, &error);
        ADC_FUZZ_CHECK(back.has_value() && error.empty());
        ADC_FUZZ_CHECK(*back == m);
        again.insert(again.end(), w.begin(), w.end());
    }
    ADC_FUZZ_CHECK(again.size() == whole.messageBytes);
    ADC_FUZZ_CHECK(std::equal(again.begin(), again.end(), data));

    // The input as one PDU.
    std::string error;
    const auto one = AdcMepMessage::Parse(data, size, &error);
    if (one)
    {
        ADC_FUZZ_CHECK(error.empty());
        const auto w = one->Serialize();
        ADC_FUZZ_CHECK(w.size() == size && std::equal(w.begin(), w.end(), data));
        ADC_FUZZ_CHECK(AdcMepMessage::Parse(w) == one);
        ADC_FUZZ_CHECK(!AdcMepMessage::TypeName(one->type).empty());
    }
    else
    {
        ADC_FUZZ_CHECK(error.rfind("AdcMepMessage: byte ", 0) == 0);
    }
    return 0;
}
