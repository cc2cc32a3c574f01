/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "http-stream": AdcHttpStreamParser, which reassembles HTTP/1.1 messages from a
 * TCP byte stream delivered in segments of any size, with RFC 9112's message framing
 * (Content-Length, chunked, close-delimited, none).
 *
 * Input: byte 0 = flags (low 4 bits: k, the number of segment-size bytes; 0x10: ignore bodies,
 * as after a HEAD request; 0x20: pop messages after every segment instead of at the end; 0x40:
 * the peer closes after the stream (EndOfStream); 0x80: announce 16 requests with
 * ExpectResponseTo, their methods GET, HEAD, POST or CONNECT chosen by the segment-size bytes),
 * bytes 1..k = segment sizes (each value + 1, used in turn; k = 0 feeds byte by byte), then
 * the stream. Properties:
 * - the stream fed whole and fed in those segments gives the same messages (head, framing,
 *   skipped, head, payload and wire byte counts, chunks, trailers, the method answered), the
 *   same error, the same mid-message state and the same requests still expected;
 * - the messages are those of a reference reader written apart from the parser: it skips empty
 *   lines, parses each head with AdcHttpMessage::Parse, takes the framing from DecideFraming,
 *   and skips Content-Length bodies, decodes chunked bodies (chunk lines without extensions;
 *   it stops checking at the first chunk extension) and takes the rest of a closed stream;
 * - bounds: head bytes <= kMaxHeadBytes, payload <= wire bytes <= the bytes fed, payload
 *   <= kMaxContentLength; the messages' bytes add up to the bytes fed, except for empty lines
 *   still waiting for a request line, when the stream ended between messages.
 */

// REQ: CRD-02 (requests and responses cross the proxies whatever the TCP segmentation)
// REQ: CRD-11 (the lower tier and the caches read pipelined messages from TCP streams)

#include "adc-fuzz.h"

#include "ns3/adc-http-stream-parser.h"

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Framing = AdcHttpStreamParser::Framing;
using Message = AdcHttpStreamParser::Message;

/// \return true when \p a and \p b are the same message, field by field
bool
Same(const Message& a, const Message& b)
{
    return a.head.ToWireString() == b.head.ToWireString() &&
           a.head.GetHeaderList() == b.head.GetHeaderList() && a.skippedBytes == b.skippedBytes &&
           a.headBytes == b.headBytes && a.bodyBytes == b.bodyBytes &&
           a.bodyWireBytes == b.bodyWireBytes && a.framing == b.framing && a.chunks == b.chunks &&
           a.trailers == b.trailers && a.answers == b.answers;
}

/// Pop every completed message of \p p into \p out.
void
Drain(AdcHttpStreamParser& p, std::vector<Message>& out)
{
    Message m;
    while (p.Next(&m))
    {
        out.push_back(m);
    }
}

/// What the reference reader found at some point of the stream.
enum class Ref
{
    COMPLETE,   //!< a whole element
    INCOMPLETE, //!< more bytes needed
    ERROR,      //!< invalid
    UNMODELLED  //!< outside what the reference reader checks
};

/**
 * One line ending in CRLF, at most \p limit bytes with its CRLF.
 * \param p bytes \param n their number \param limit the bound
 * \param content [out] the line without CRLF \param used [out] its length with CRLF
 * \return COMPLETE, INCOMPLETE or ERROR
 */
Ref
Line(const uint8_t* p, std::size_t n, std::size_t limit, std::string* content, std::size_t* used)
{
    std::size_t j = 0;
    while (j < n && p[j] != '\r' && p[j] != '\n')
    {
        ++j;
    }
    if (j >= limit || (j < n && p[j] == '\n'))
    {
        return Ref::ERROR; // too long, or a bare LF
    }
    if (j == n)
    {
        return Ref::INCOMPLETE;
    }
    if (j + 1 >= limit)
    {
        return Ref::ERROR;
    }
    if (j + 1 == n)
    {
        return Ref::INCOMPLETE;
    }
    if (p[j + 1] != '\n')
    {
        return Ref::ERROR; // a bare CR
    }
    content->assign(reinterpret_cast<const char*>(p), j);
    *used = j + 2;
    return Ref::COMPLETE;
}

/**
 * A chunked body (RFC 9112 section 7.1) at [p, p+n), decoded by the reference reader.
 * \param body [out] payload bytes \param wire [out] bytes used
 * \return COMPLETE, INCOMPLETE, ERROR, or UNMODELLED at a chunk extension
 */
Ref
Chunked(const uint8_t* p, std::size_t n, uint64_t* body, std::size_t* wire)
{
    std::size_t i = 0;
    std::string line;
    std::size_t used = 0;
    *body = 0;
    while (true)
    {
        const Ref r = Line(p + i, n - i, AdcHttpStreamParser::kMaxChunkLineBytes, &line, &used);
        if (r != Ref::COMPLETE)
        {
            return r;
        }
        if (line.find_first_of("; \t") != std::string::npos)
        {
            return Ref::UNMODELLED;
        }
        if (line.empty() || line.size() > AdcHttpStreamParser::kMaxChunkSizeDigits ||
            line.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        {
            return Ref::ERROR;
        }
        const uint64_t size = std::stoull(line, nullptr, 16); // 16 hex digits fit in 64 bits
        if (size > AdcHttpMessage::kMaxContentLength ||
            *body + size > AdcHttpMessage::kMaxContentLength)
        {
            return Ref::ERROR;
        }
        i += used;
        if (size == 0)
        {
            break;
        }
        if (n - i < size)
        {
            return Ref::INCOMPLETE;
        }
        i += size;
        *body += size;
        if (n - i < 2)
        {
            return n - i == 1 && p[i] != '\r' ? Ref::ERROR : Ref::INCOMPLETE;
        }
        if (p[i] != '\r' || p[i + 1] != '\n')
        {
            return Ref::ERROR;
        }
        i += 2;
    }
    std::size_t trailerBytes = 0;
    for (std::size_t fields = 0;; ++fields)
    {
        const Ref r =
            Line(p + i, n - i, AdcHttpStreamParser::kMaxTrailerBytes - trailerBytes, &line, &used);
        if (r != Ref::COMPLETE)
        {
            return r;
        }
        i += used;
        trailerBytes += used;
        if (line.empty())
        {
            *wire = i;
            return Ref::COMPLETE;
        }
        std::string name;
        std::string value;
        if (fields == AdcHttpMessage::kMaxHeaders ||
            !AdcHttpMessage::ParseFieldLine(line.data(), line.size(), &name, &value).empty())
        {
            return Ref::ERROR;
        }
    }
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
    const bool endOfStream = (flags & 0x40) != 0;
    const uint8_t* sizes = data + 1;
    const uint8_t* stream = data + 1 + k;
    const std::size_t len = size - 1 - k;
    std::deque<std::string> methods;
    if (flags & 0x80)
    {
        static const char* const kMethods[] = {"GET", "HEAD", "POST", "CONNECT"};
        for (std::size_t i = 0; i < 16; ++i)
        {
            methods.emplace_back(kMethods[(k == 0 ? 1 : sizes[i % k]) & 3]);
        }
    }
    auto make = [&]() {
        AdcHttpStreamParser p;
        p.SetIgnoreBodies(ignoreBodies);
        for (const std::string& m : methods)
        {
            p.ExpectResponseTo(m);
        }
        return p;
    };

    // Whole.
    AdcHttpStreamParser whole = make();
    whole.Feed(stream, len);
    if (endOfStream)
    {
        whole.EndOfStream();
    }
    std::vector<Message> got;
    Drain(whole, got);

    // In segments.
    AdcHttpStreamParser split = make();
    std::vector<Message> splitGot;
    std::size_t pos = 0;
    for (std::size_t i = 0; pos < len; ++i)
    {
        const std::size_t n = std::min<std::size_t>(k == 0 ? 1 : sizes[i % k] + 1u, len - pos);
        split.Feed(stream + pos, n);
        pos += n;
        ADC_FUZZ_CHECK(split.GetBytesFed() == pos);
        if (drainEachSegment)
        {
            Drain(split, splitGot);
        }
    }
    if (endOfStream)
    {
        split.EndOfStream();
    }
    Drain(split, splitGot);

    ADC_FUZZ_CHECK(whole.GetBytesFed() == len);
    ADC_FUZZ_CHECK(split.GetBytesFed() == len);
    ADC_FUZZ_CHECK(got.size() == splitGot.size());
    for (std::size_t i = 0; i < got.size(); ++i)
    {
        ADC_FUZZ_CHECK(Same(got[i], splitGot[i]));
    }
    ADC_FUZZ_CHECK(whole.GetError() == split.GetError());
    ADC_FUZZ_CHECK(whole.HasError() == !whole.GetError().empty());
    ADC_FUZZ_CHECK(whole.IsMidMessage() == split.IsMidMessage());
    ADC_FUZZ_CHECK(whole.GetExpectedResponses() == split.GetExpectedResponses());
    ADC_FUZZ_CHECK(!(whole.HasError() && whole.IsMidMessage())); // an error ends the message
    ADC_FUZZ_CHECK(!(endOfStream && whole.IsMidMessage()));      // so does the close

    // Bounds.
    uint64_t total = 0;
    for (const Message& m : got)
    {
        const bool response = m.head.GetKind() == AdcHttpMessage::RESPONSE;
        ADC_FUZZ_CHECK(m.headBytes >= 4 && m.headBytes <= AdcHttpMessage::kMaxHeadBytes);
        ADC_FUZZ_CHECK(m.bodyBytes <= m.bodyWireBytes);
        ADC_FUZZ_CHECK(m.bodyBytes <= AdcHttpMessage::kMaxContentLength);
        ADC_FUZZ_CHECK(m.skippedBytes % 2 == 0 && (m.skippedBytes == 0 || !response));
        ADC_FUZZ_CHECK(!ignoreBodies || m.framing == Framing::NONE);
        ADC_FUZZ_CHECK(m.framing != Framing::INVALID);
        ADC_FUZZ_CHECK(m.framing != Framing::CLOSE_DELIMITED || (response && endOfStream));
        if (m.framing == Framing::CHUNKED)
        {
            ADC_FUZZ_CHECK(m.bodyWireBytes >= m.bodyBytes + 5); // "0" CRLF CRLF at least
            ADC_FUZZ_CHECK(m.trailers.size() <= AdcHttpMessage::kMaxHeaders);
        }
        else
        {
            ADC_FUZZ_CHECK(m.bodyBytes == m.bodyWireBytes && m.chunks == 0 && m.trailers.empty());
        }
        total += m.GetWireBytes();
    }
    ADC_FUZZ_CHECK(total <= len);
    if (!whole.HasError() && !whole.IsMidMessage())
    {
        // what no message used can only be empty lines before a request line still to come
        for (std::size_t i = total; i < len; ++i)
        {
            ADC_FUZZ_CHECK(stream[i] == ((i - total) % 2 == 0 ? '\r' : '\n'));
        }
        ADC_FUZZ_CHECK((len - total) % 2 == 0);
    }

    // Reference reader.
    std::size_t off = 0;
    std::size_t index = 0;
    auto pending = [&]() {
        // the stream stops inside a message: an error at the close, else mid-message
        ADC_FUZZ_CHECK(index == got.size());
        ADC_FUZZ_CHECK(endOfStream ? whole.HasError()
                                   : (!whole.HasError() && whole.IsMidMessage()));
    };
    while (true)
    {
        std::size_t skipped = 0;
        while (len - off >= 2 && stream[off] == '\r' && stream[off + 1] == '\n')
        {
            off += 2;
            skipped += 2;
        }
        if (off == len)
        {
            ADC_FUZZ_CHECK(!whole.HasError() && !whole.IsMidMessage() && index == got.size());
            break;
        }
        AdcHttpMessage head;
        std::size_t consumed = 0;
        std::string error;
        const auto st = head.Parse(stream + off, len - off, &consumed, &error);
        if (st == AdcHttpMessage::ParseStatus::ERROR)
        {
            ADC_FUZZ_CHECK(whole.GetError() == error);
            ADC_FUZZ_CHECK(index == got.size());
            break;
        }
        if (st == AdcHttpMessage::ParseStatus::INCOMPLETE)
        {
            pending();
            break;
        }
        const bool response = head.GetKind() == AdcHttpMessage::RESPONSE;
        if (response && skipped > 0)
        {
            ADC_FUZZ_CHECK(whole.GetError().find("before a status line") != std::string::npos);
            ADC_FUZZ_CHECK(index == got.size());
            break;
        }
        std::string answers;
        if (response && !methods.empty())
        {
            answers = methods.front();
            if (head.GetStatus() >= 200)
            {
                methods.pop_front();
            }
        }
        uint64_t length = 0;
        Framing f = AdcHttpStreamParser::DecideFraming(head,
                                                       ignoreBodies ? "HEAD" : answers,
                                                       &length,
                                                       &error);
        if (f == Framing::INVALID)
        {
            ADC_FUZZ_CHECK(whole.GetError() == error);
            ADC_FUZZ_CHECK(index == got.size());
            break;
        }
        f = ignoreBodies ? Framing::NONE : f;
        const std::size_t rest = len - off - consumed;
        uint64_t body = 0;
        std::size_t wire = 0;
        if (f == Framing::CONTENT_LENGTH)
        {
            if (length > rest)
            {
                pending();
                break;
            }
            body = length;
            wire = static_cast<std::size_t>(length);
        }
        else if (f == Framing::CLOSE_DELIMITED)
        {
            if (!endOfStream)
            {
                pending();
                break;
            }
            body = rest;
            wire = rest;
        }
        else if (f == Framing::CHUNKED)
        {
            const Ref r = Chunked(stream + off + consumed, rest, &body, &wire);
            if (r == Ref::UNMODELLED)
            {
                ADC_FUZZ_CHECK(index <= got.size());
                break;
            }
            if (r == Ref::ERROR)
            {
                ADC_FUZZ_CHECK(whole.HasError() && index == got.size());
                break;
            }
            if (r == Ref::INCOMPLETE)
            {
                pending();
                break;
            }
        }
        ADC_FUZZ_CHECK(index < got.size());
        const Message& m = got[index];
        ADC_FUZZ_CHECK(m.head.ToWireString() == head.ToWireString());
        ADC_FUZZ_CHECK(m.skippedBytes == skipped && m.headBytes == consumed);
        ADC_FUZZ_CHECK(m.framing == f && m.bodyBytes == body && m.bodyWireBytes == wire);
        ADC_FUZZ_CHECK(m.answers == answers);
        ++index;
        off += consumed + wire;
    }
    return 0;
}
