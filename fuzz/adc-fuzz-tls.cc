/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "tls": AdcTlsRecordParser, the TLS 1.2 record and handshake reassembler, and
 * the ClientHello / ServerHello parsers it runs on completed hellos.
 *
 * The input is fed whole and again in random splits (the cut points drawn from a generator
 * seeded by the input itself): both runs give the same records, handshake messages and
 * error. Every record re-encodes to the stream's bytes (their concatenation is the stream's
 * prefix the parser consumed), every handshake message re-encodes to the bytes its records
 * carried, and every hello parses and re-encodes to its body. Any other exception than
 * AdcConfigError escapes and aborts the run.
 */

// REQ: CS-04 (the session ID of a ClientHello / ServerHello, read from any byte stream)

#include "adc-fuzz.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-tls-record.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What a parser produced from one stream.
struct Outcome
{
    std::vector<AdcTlsRecord> records;     //!< records
    std::vector<AdcTlsHandshake> messages; //!< handshake messages
    std::string error;                     //!< error
    uint64_t recordBytes{0};               //!< bytes consumed into records
};

/**
 * \param data stream \param size its length \param seed 0: whole; else the split generator's
 * seed \return what came out
 */
Outcome
Run(const uint8_t* data, std::size_t size, uint32_t seed)
{
    AdcTlsRecordParser p;
    Outcome o;
    AdcFuzzFeedInPieces(data, size, seed, [&](const uint8_t* piece, std::size_t n) {
        for (auto& r : p.Feed(piece, n))
        {
            o.records.push_back(std::move(r));
        }
        for (auto& m : p.TakeHandshakes())
        {
            o.messages.push_back(std::move(m));
        }
    });
    o.error = p.GetError();
    o.recordBytes = p.GetRecordBytes();
    ADC_FUZZ_CHECK(p.HasError() == !o.error.empty());
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
    ADC_FUZZ_CHECK(split.records == whole.records);
    ADC_FUZZ_CHECK(split.messages == whole.messages);
    ADC_FUZZ_CHECK(split.error == whole.error);
    ADC_FUZZ_CHECK(split.recordBytes == whole.recordBytes);
    if (!whole.error.empty())
    {
        ADC_FUZZ_CHECK(whole.error.rfind("AdcTlsRecordParser: record at stream byte ", 0) == 0);
    }

    // Records re-encode to exactly the bytes consumed.
    std::vector<uint8_t> again;
    std::vector<uint8_t> handshakeStream;
    bool afterCcs = false;
    for (const auto& r : whole.records)
    {
        const auto w = r.Encode(); // a record the parser accepted always encodes
        again.insert(again.end(), w.begin(), w.end());
        ADC_FUZZ_CHECK(r.fragment.size() <= AdcTlsRecord::kMaxFragment);
        if (r.type == AdcTlsRecord::CHANGE_CIPHER_SPEC)
        {
            afterCcs = true;
        }
        else if (r.type == AdcTlsRecord::HANDSHAKE && !afterCcs)
        {
            handshakeStream.insert(handshakeStream.end(), r.fragment.begin(), r.fragment.end());
        }
    }
    ADC_FUZZ_CHECK(again.size() == whole.recordBytes);
    ADC_FUZZ_CHECK(again.size() <= size);
    ADC_FUZZ_CHECK(std::equal(again.begin(), again.end(), data));

    // Handshake messages re-encode to the handshake bytes, in order (a prefix: a message may
    // still be incomplete).
    std::vector<uint8_t> messages;
    for (const auto& m : whole.messages)
    {
        const auto w = m.Encode();
        messages.insert(messages.end(), w.begin(), w.end());
        if (m.type == AdcTlsHandshake::CLIENT_HELLO)
        {
            const AdcTlsClientHello h = AdcTlsClientHello::Parse(m.body); // validated already
            ADC_FUZZ_CHECK(h.Encode() == m.body);
            ADC_FUZZ_CHECK(h.GetSessionId().size() <= AdcTlsClientHello::kMaxSessionId);
            ADC_FUZZ_CHECK(AdcTlsToHex(h.GetSessionId()).size() == 2 * h.GetSessionId().size());
            const std::string sni = h.GetServerName();
            if (!sni.empty())
            {
                AdcTlsClientHello copy = h;
                copy.SetServerName(sni);
                ADC_FUZZ_CHECK(copy.GetServerName() == sni);
            }
        }
        else if (m.type == AdcTlsHandshake::SERVER_HELLO)
        {
            const AdcTlsServerHello h = AdcTlsServerHello::Parse(m.body);
            ADC_FUZZ_CHECK(h.Encode() == m.body);
            ADC_FUZZ_CHECK(AdcTlsServerHello::Parse(h.Encode()) == h);
        }
    }
    ADC_FUZZ_CHECK(messages.size() <= handshakeStream.size());
    ADC_FUZZ_CHECK(std::equal(messages.begin(), messages.end(), handshakeStream.begin()));

    // The body alone, as a hello: either an AdcConfigError or a round trip.
    const std::vector<uint8_t> body(data, data + size);
    try
    {
        const AdcTlsClientHello h = AdcTlsClientHello::Parse(body);
        ADC_FUZZ_CHECK(h.Encode() == body);
    }
    catch (const AdcConfigError& e)
    {
        ADC_FUZZ_CHECK(std::string(e.what()).rfind("AdcTlsClientHello", 0) == 0);
    }
    try
    {
        const AdcTlsServerHello h = AdcTlsServerHello::Parse(body);
        ADC_FUZZ_CHECK(h.Encode() == body);
    }
    catch (const AdcConfigError& e)
    {
        ADC_FUZZ_CHECK(std::string(e.what()).rfind("AdcTlsServerHello", 0) == 0);
    }
    return 0;
}
