/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "http-stream": AdcHttpStreamParser, which reassembles HTTP/1.1 messages from a
 * TCP byte stream delivered in segments of any size.
 *
 * Input: byte 0 = flags (low 4 bits: k, the number of segment-size bytes; 0x10: ignore bodies,
 * as after a HEAD request; 0x20: pop messages after every segment instead of at the end),
 * bytes 1..k = segment sizes (each value + 1, used in turn; k = 0 feeds byte by byte), then
 * the stream. Properties:
 * - the stream fed whole and fed in those segments gives the same messages (head fields, head
 *   and body byte counts), the same error, and the same mid-message state;
 * - the messages are those of a reference reader that parses one head after the other with
 *   AdcHttpMessage::Parse and skips Content-Length body bytes, as far as the stream holds only
 *   such messages (other framings, e.g. chunked, are checked by the whole-versus-split
 *   comparison only);
 * - bounds: head bytes <= kMaxHeadBytes, body bytes <= kMaxContentLength, the messages' bytes
 *   add up to at most the bytes fed (exactly, when the reference reader read them all).
 */

// REQ: CRD-02 (requests and responses cross the proxies whatever the TCP segmentation)
// REQ: CRD-11 (the lower tier and the caches read pipelined messages from TCP streams)

#include "adc-fuzz.h"

#include "ns3/adc-http-message.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// One message as the stream parser returned it.
struct Message
{
    AdcHttpMessage::Kind kind;                                //!< request or response
    std::string method;                                       //!< method
    std::string target;                                       //!< target
    uint16_t status;                                          //!< status
    std::string reason;                                       //!< reason phrase
    std::string version;                                      //!< version
    std::vector<std::pair<std::string, std::string>> headers; //!< header fields
    uint64_t headBytes;                                       //!< head length on the wire
    uint64_t bodyBytes;                                       //!< body length

    /// \param m a head \param head its wire length \param body its body length
    Message(const AdcHttpMessage& m, uint64_t head, uint64_t body)
        : kind(m.GetKind()),
          method(m.GetMethod()),
          target(m.GetTarget()),
          status(m.GetStatus()),
          reason(m.GetReason()),
          version(m.GetVersion()),
          headers(m.GetHeaderList()),
          headBytes(head),
          bodyBytes(body)
    {
    }

    /// \param o another message \return true when every field is equal
    bool operator==(const Message& o) const
    {
        return kind == o.kind && method == o.method && target == o.target && status == o.status &&
               reason == o.reason && version == o.version && headers == o.headers &&
               headBytes == o.headBytes && bodyBytes == o.bodyBytes;
    }
};

/// Pop every completed message of \p p into \p out.
void
Drain(AdcHttpStreamParser& p, std::vector<Message>& out)
{
    AdcHttpMessage m;
    uint64_t body = 0;
    uint64_t head = 0;
    while (p.Next(&m, &body, &head))
    {
        out.emplace_back(m, head, body);
    }
}

/// \return true when \p m is framed by its Content-Length alone (absent: no body, for a
/// request), the framing the reference reader models
bool
SimplyFramed(const AdcHttpMessage& m)
{
    if (m.GetHeader("Transfer-Encoding").has_value())
    {
        return false;
    }
    if (m.GetKind() == AdcHttpMessage::REQUEST)
    {
        return m.GetMethod() != "CONNECT";
    }
    const uint16_t status = m.GetStatus();
    return status >= 200 && status != 204 && status != 304 &&
           m.GetHeader("Content-Length").has_value();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    const uint8_t flags = data[0];
    const std::size_t k = std::min<std::size_t>(flags & 0x0f, size - 1);
    const bool ignoreBodies = (flags & 0x10) != 0;
    const bool drainEachSegment = (flags & 0x20) != 0;
    const uint8_t* sizes = data + 1;
    const uint8_t* stream = data + 1 + k;
    const std::size_t len = size - 1 - k;

    // Whole.
    AdcHttpStreamParser whole;
    whole.SetIgnoreBodies(ignoreBodies);
    whole.Feed(stream, len);
    std::vector<Message> wholeMessages;
    Drain(whole, wholeMessages);

    // In segments.
    AdcHttpStreamParser split;
    split.SetIgnoreBodies(ignoreBodies);
    std::vector<Message> splitMessages;
    std::size_t pos = 0;
    for (std::size_t i = 0; pos < len; ++i)
    {
        const std::size_t n = std::min<std::size_t>(k == 0 ? 1 : sizes[i % k] + 1u, len - pos);
        split.Feed(stream + pos, n);
        pos += n;
        ADC_FUZZ_CHECK(split.GetBytesFed() == pos);
        if (drainEachSegment)
        {
            Drain(split, splitMessages);
        }
    }
    Drain(split, splitMessages);

    ADC_FUZZ_CHECK(whole.GetBytesFed() == len);
    ADC_FUZZ_CHECK(split.GetBytesFed() == len);
    ADC_FUZZ_CHECK(wholeMessages == splitMessages);
    ADC_FUZZ_CHECK(whole.HasError() == split.HasError());
    ADC_FUZZ_CHECK(whole.GetError() == split.GetError());
    ADC_FUZZ_CHECK(whole.HasError() == !whole.GetError().empty());
    ADC_FUZZ_CHECK(whole.IsMidMessage() == split.IsMidMessage());
    ADC_FUZZ_CHECK(!(whole.HasError() && whole.IsMidMessage())); // an error ends the message

    // Bounds.
    uint64_t total = 0;
    for (const auto& m : wholeMessages)
    {
        ADC_FUZZ_CHECK(m.headBytes >= 4 && m.headBytes <= AdcHttpMessage::kMaxHeadBytes);
        ADC_FUZZ_CHECK(m.bodyBytes <= AdcHttpMessage::kMaxContentLength);
        ADC_FUZZ_CHECK(!ignoreBodies || m.bodyBytes == 0);
        total += m.headBytes + m.bodyBytes;
    }
    ADC_FUZZ_CHECK(total <= len);

    // Reference reader: heads one after the other (AdcHttpMessage::Parse), each followed by its
    // Content-Length body. It models the framing every message of the stream parser shares,
    // and stops, checking nothing further, at the first message with a richer one (RFC 9112
    // section 6.3): Transfer-Encoding, a response without Content-Length (close-delimited), a
    // 1xx, 204 or 304 response (never a body), a tunnel (CONNECT, 101), or empty lines before
    // a start line (skipped before a request line).
    std::size_t off = 0;
    std::size_t index = 0;
    while (true)
    {
        if (off < len && (stream[off] == '\r' || stream[off] == '\n'))
        {
            break;
        }
        AdcHttpMessage head;
        std::size_t consumed = 0;
        const auto st =
            head.Parse(off < len ? stream + off : nullptr, len - off, &consumed, nullptr);
        if (st == AdcHttpMessage::ParseStatus::ERROR)
        {
            ADC_FUZZ_CHECK(whole.HasError());
            ADC_FUZZ_CHECK(index == wholeMessages.size());
            break;
        }
        if (st == AdcHttpMessage::ParseStatus::INCOMPLETE)
        {
            // Every byte up to here belongs to a completed message; the rest is a head.
            ADC_FUZZ_CHECK(!whole.HasError());
            ADC_FUZZ_CHECK(index == wholeMessages.size());
            ADC_FUZZ_CHECK(whole.IsMidMessage() == (off < len));
            ADC_FUZZ_CHECK(off < len || total == len);
            break;
        }
        if (!SimplyFramed(head))
        {
            ADC_FUZZ_CHECK(index <= wholeMessages.size());
            break;
        }
        const uint64_t body = ignoreBodies ? 0 : head.GetContentLength();
        if (body > len - off - consumed)
        {
            // the body is still arriving
            ADC_FUZZ_CHECK(!whole.HasError());
            ADC_FUZZ_CHECK(index == wholeMessages.size());
            ADC_FUZZ_CHECK(whole.IsMidMessage());
            break;
        }
        ADC_FUZZ_CHECK(index < wholeMessages.size());
        ADC_FUZZ_CHECK(wholeMessages[index] == Message(head, consumed, body));
        ++index;
        off += consumed + static_cast<std::size_t>(body);
    }
    return 0;
}
