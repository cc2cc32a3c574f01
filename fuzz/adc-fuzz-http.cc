/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "http": AdcHttpMessage::Parse, the HTTP/1.1 head parser every HTTP model uses
 * (clients, servers, caches and both CRD tiers read the heads they receive with it), and the
 * body framing each accepted head gets (AdcHttpStreamParser::DecideFraming, RFC 9112 section
 * 6.3) for the request methods that change it (none told, GET, HEAD, CONNECT).
 */

// REQ: CRD-02 (the client IP reaches the ends in a request header: heads survive a proxy)
// REQ: CRD-06 (the lower tier parses the request head to insert the client-IP header)

#include "adc-fuzz.h"

#include "ns3/adc-http-message.h"
#include "ns3/adc-http-stream-parser.h"
#include "ns3/buffer.h"

#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using PS = AdcHttpMessage::ParseStatus;
using Framing = AdcHttpStreamParser::Framing;

/// \return true when \p a and \p b hold the same head, field by field
bool
SameHead(const AdcHttpMessage& a, const AdcHttpMessage& b)
{
    return a.GetKind() == b.GetKind() && a.GetMethod() == b.GetMethod() &&
           a.GetTarget() == b.GetTarget() && a.GetStatus() == b.GetStatus() &&
           a.GetReason() == b.GetReason() && a.GetVersion() == b.GetVersion() &&
           a.GetHeaderList() == b.GetHeaderList();
}

/// Parse [data, data+len) into \p m; \return the status and fill \p consumed, \p error
PS
ParseBytes(AdcHttpMessage& m,
           const uint8_t* data,
           std::size_t len,
           std::size_t* consumed,
           std::string* error)
{
    return m.Parse(len == 0 ? nullptr : data, len, consumed, error);
}

/// Check the framing of an accepted head \p m for the methods that change it; its
/// re-serialized form \p again (what a proxy forwards) must be framed the same way.
void
CheckFraming(const AdcHttpMessage& m, const AdcHttpMessage& again)
{
    uint64_t length = 0;
    ADC_FUZZ_CHECK(m.CheckContentLength(&length).empty()); // Parse refuses invalid lengths
    ADC_FUZZ_CHECK(length == m.GetContentLength());
    const bool response = m.GetKind() == AdcHttpMessage::RESPONSE;
    const bool hasTe = m.GetHeader("Transfer-Encoding").has_value();
    const bool hasCl = m.GetHeader("Content-Length").has_value();
    Framing first = Framing::INVALID;
    for (const char* method : {"", "GET", "HEAD", "CONNECT"})
    {
        uint64_t n = 99;
        std::string why = "not cleared";
        const Framing f = AdcHttpStreamParser::DecideFraming(m, method, &n, &why);
        ADC_FUZZ_CHECK((f == Framing::INVALID) == !why.empty());
        ADC_FUZZ_CHECK(f == Framing::CONTENT_LENGTH ? n == length && hasCl : n == 0);
        uint64_t n2 = 0;
        ADC_FUZZ_CHECK(AdcHttpStreamParser::DecideFraming(again, method, &n2, nullptr) == f);
        ADC_FUZZ_CHECK(n2 == n);
        if (!response)
        {
            // a request's framing does not depend on a method told for responses
            first = *method == '\0' ? f : first;
            ADC_FUZZ_CHECK(f == first && f != Framing::CLOSE_DELIMITED);
            ADC_FUZZ_CHECK(m.GetMethod() != "CONNECT" || f == Framing::INVALID);
        }
        else if (m.GetStatus() == 101)
        {
            ADC_FUZZ_CHECK(f == Framing::INVALID);
        }
        else if (std::string(method) == "HEAD" || AdcHttpMessage::IsBodilessStatus(m.GetStatus()))
        {
            ADC_FUZZ_CHECK(f == Framing::NONE); // 6.3 item 1, whatever the fields say
            continue;
        }
        if (hasTe && hasCl)
        {
            ADC_FUZZ_CHECK(f == Framing::INVALID); // 6.3 item 3
        }
        ADC_FUZZ_CHECK(f != Framing::CHUNKED || (hasTe && m.GetVersion() != "HTTP/1.0"));
        ADC_FUZZ_CHECK(f != Framing::NONE || (!response && !hasTe && !hasCl));
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    const std::string untouched = AdcHttpMessage().ToWireString();
    AdcHttpMessage m;
    std::size_t consumed = size + 1; // Parse must overwrite both outputs
    std::string error = "not cleared";
    const PS st = ParseBytes(m, data, size, &consumed, &error);
    ADC_FUZZ_CHECK(st == PS::COMPLETE || st == PS::INCOMPLETE || st == PS::ERROR);

    // Deserialize (the Header path, from a Buffer) agrees with Parse.
    Buffer buffer;
    buffer.AddAtStart(static_cast<uint32_t>(size));
    buffer.Begin().Write(data, static_cast<uint32_t>(size));
    AdcHttpMessage viaBuffer;
    const uint32_t deserialized = viaBuffer.Deserialize(buffer.Begin());

    if (st != PS::COMPLETE)
    {
        ADC_FUZZ_CHECK(consumed == 0);
        ADC_FUZZ_CHECK(deserialized == 0);
        ADC_FUZZ_CHECK(m.ToWireString() == untouched); // unchanged unless COMPLETE
        if (st == PS::INCOMPLETE)
        {
            ADC_FUZZ_CHECK(error.empty());
            ADC_FUZZ_CHECK(size < AdcHttpMessage::kMaxHeadBytes);
            return 0;
        }
        ADC_FUZZ_CHECK(!error.empty());
        // An error stays an error whatever follows: the stream parser relies on it to report
        // a bad head as soon as its bytes arrive.
        std::vector<uint8_t> longer(data, data + size);
        for (char c : std::string("\r\n\r\nGET / HTTP/1.1\r\n\r\n"))
        {
            longer.push_back(static_cast<uint8_t>(c));
        }
        AdcHttpMessage m2;
        std::string error2;
        ADC_FUZZ_CHECK(ParseBytes(m2, longer.data(), longer.size(), nullptr, &error2) == PS::ERROR);
        ADC_FUZZ_CHECK(error2 == error);
        return 0;
    }

    // COMPLETE: never consumes more than the length; the head ends with CRLF CRLF.
    ADC_FUZZ_CHECK(error.empty());
    ADC_FUZZ_CHECK(consumed >= 4 && consumed <= size);
    ADC_FUZZ_CHECK(consumed <= AdcHttpMessage::kMaxHeadBytes);
    ADC_FUZZ_CHECK(std::string(reinterpret_cast<const char*>(data) + consumed - 4, 4) ==
                   "\r\n\r\n");
    ADC_FUZZ_CHECK(deserialized == consumed);
    ADC_FUZZ_CHECK(SameHead(viaBuffer, m));
    ADC_FUZZ_CHECK(m.GetHeaderList().size() <= AdcHttpMessage::kMaxHeaders);
    ADC_FUZZ_CHECK(m.GetContentLength() <= AdcHttpMessage::kMaxContentLength);
    if (m.GetKind() == AdcHttpMessage::RESPONSE)
    {
        ADC_FUZZ_CHECK(m.GetStatus() >= 100 && m.GetStatus() <= 599);
        ADC_FUZZ_CHECK(m.GetMethod().empty() && m.GetTarget().empty());
    }
    else
    {
        ADC_FUZZ_CHECK(m.GetStatus() == 0 && !m.GetMethod().empty() && !m.GetTarget().empty());
    }

    // The head alone parses the same (bytes after it do not matter) ...
    AdcHttpMessage alone;
    std::size_t aloneConsumed = 0;
    ADC_FUZZ_CHECK(ParseBytes(alone, data, consumed, &aloneConsumed, nullptr) == PS::COMPLETE);
    ADC_FUZZ_CHECK(aloneConsumed == consumed);
    ADC_FUZZ_CHECK(SameHead(alone, m));
    // ... and a strict prefix of it is INCOMPLETE, never an ERROR (the stream parser feeds
    // heads split at any byte).
    for (std::size_t cut : {consumed - 1, consumed / 2})
    {
        AdcHttpMessage part;
        std::string partError;
        ADC_FUZZ_CHECK(ParseBytes(part, data, cut, nullptr, &partError) == PS::INCOMPLETE);
        ADC_FUZZ_CHECK(partError.empty());
    }

    // Re-serialized (as a proxy forwards it), the head parses back to the same fields. The
    // canonical form may be longer than what was received ("Name:v" becomes "Name: v", a status
    // line without reason gets its SP): past the head limit the next hop must refuse it.
    const std::string wire = m.ToWireString();
    AdcHttpMessage again;
    std::size_t againConsumed = 0;
    std::string againError;
    const PS st2 = ParseBytes(again,
                              reinterpret_cast<const uint8_t*>(wire.data()),
                              wire.size(),
                              &againConsumed,
                              &againError);
    if (wire.size() > AdcHttpMessage::kMaxHeadBytes)
    {
        ADC_FUZZ_CHECK(st2 == PS::ERROR);
        return 0;
    }
    ADC_FUZZ_CHECK(st2 == PS::COMPLETE);
    ADC_FUZZ_CHECK(againConsumed == wire.size());
    ADC_FUZZ_CHECK(SameHead(again, m));
    ADC_FUZZ_CHECK(again.ToWireString() == wire);
    ADC_FUZZ_CHECK(m.GetSerializedSize() == wire.size());
    CheckFraming(m, again);
    return 0;
}
