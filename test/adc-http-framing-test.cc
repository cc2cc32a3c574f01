/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HTTP/1.1 message framing (RFC 9112 section 6, chunked coding of section 7.1): one test per
 * rule of AdcHttpStreamParser, each quoting the sentence of the RFC it checks. Every stream is
 * fed whole, byte by byte and in random splits, and the three must agree.
 */

// REQ: CRD-02 (requests and responses cross the proxies whatever their framing and segmentation)
// REQ: CRD-11 (the lower tier and the caches read pipelined messages from TCP streams)

#include "ns3/adc-http-stream-parser.h"

#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Framing = AdcHttpStreamParser::Framing;
using Message = AdcHttpStreamParser::Message;

/// What a parser made of a stream: its messages, its error, whether a message is pending.
struct Outcome
{
    std::vector<Message> messages;
    std::string error;
    bool midMessage{false};

    /// \return every message as one comparable line each, then the error
    std::string Summary() const
    {
        std::ostringstream s;
        for (const Message& m : messages)
        {
            s << m.head.ToWireString().substr(0, m.head.ToWireString().find('\r')) << " | "
              << AdcHttpStreamParser::FramingName(m.framing) << " skipped=" << m.skippedBytes
              << " head=" << m.headBytes << " body=" << m.bodyBytes << " wire=" << m.bodyWireBytes
              << " chunks=" << m.chunks << " answers=" << m.answers;
            for (const auto& t : m.trailers)
            {
                s << " [" << t.first << ": " << t.second << "]";
            }
            s << "\n";
        }
        s << "error=" << error << " mid=" << midMessage;
        return s.str();
    }
};

/**
 * Feeds streams to parsers. Every Run feeds the stream whole, byte by byte and in 50 random
 * splits (popping messages after every segment in half of them) and checks that all agree, so
 * every rule below is also checked for split invariance.
 */
class AdcHttpFraming : public ::testing::Test
{
  protected:
    /**
     * \param stream the bytes
     * \param expect methods announced with ExpectResponseTo before feeding
     * \param endOfStream call EndOfStream after the bytes
     * \return what the whole-stream parser made of it
     */
    Outcome Run(const std::string& stream,
                const std::vector<std::string>& expect = {},
                bool endOfStream = false)
    {
        const Outcome whole = Feed(stream, expect, endOfStream, {stream.size()}, false);
        std::vector<std::size_t> bytes(stream.size(), 1);
        const Outcome byByte = Feed(stream, expect, endOfStream, bytes, true);
        EXPECT_EQ(byByte.Summary(), whole.Summary()) << "byte by byte";
        for (int i = 0; i < 50; ++i)
        {
            std::vector<std::size_t> sizes;
            for (std::size_t left = stream.size(); left > 0;)
            {
                const std::size_t n = std::min<std::size_t>(left, 1 + m_rng() % 9);
                sizes.push_back(n);
                left -= n;
            }
            const Outcome split = Feed(stream, expect, endOfStream, sizes, i % 2 == 0);
            EXPECT_EQ(split.Summary(), whole.Summary()) << "random split " << i;
        }
        return whole;
    }

    /// \return the error a stream gives (empty when none), after checking split invariance
    std::string ErrorOf(const std::string& stream, const std::vector<std::string>& expect = {})
    {
        return Run(stream, expect).error;
    }

  private:
    /// Feed \p stream in segments of \p sizes; pop after each one when \p drainEach.
    static Outcome Feed(const std::string& stream,
                        const std::vector<std::string>& expect,
                        bool endOfStream,
                        const std::vector<std::size_t>& sizes,
                        bool drainEach)
    {
        AdcHttpStreamParser p;
        for (const std::string& m : expect)
        {
            p.ExpectResponseTo(m);
        }
        Outcome o;
        auto drain = [&]() {
            Message m;
            while (p.Next(&m))
            {
                o.messages.push_back(m);
            }
        };
        std::size_t pos = 0;
        for (std::size_t n : sizes)
        {
            p.Feed(reinterpret_cast<const uint8_t*>(stream.data()) + pos, n);
            pos += n;
            if (drainEach)
            {
                drain();
            }
        }
        EXPECT_EQ(p.GetBytesFed(), stream.size());
        if (endOfStream)
        {
            p.EndOfStream();
        }
        drain();
        o.error = p.GetError();
        o.midMessage = p.IsMidMessage();
        return o;
    }

    std::mt19937 m_rng{2024};
};

const std::string kOkHead = "HTTP/1.1 200 OK\r\n";

} // namespace

// RFC 9112 7.1: "The chunked transfer coding wraps content in order to transfer it as a series
// of chunks, each with its own size indicator, followed by an OPTIONAL trailer section
// containing trailer fields." ... "The chunked transfer coding is complete when a chunk with a
// chunk-size of zero is received, possibly followed by a trailer section, and finally
// terminated by an empty line."
TEST_F(AdcHttpFraming, ChunkedBodyIsDecodedWhateverTheSplit)
{
    const std::string head = kOkHead + "Transfer-Encoding: chunked\r\n\r\n";
    const std::string body = "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
    const std::string next = kOkHead + "Content-Length: 2\r\n\r\nok";
    const Outcome o = Run(head + body + next);
    EXPECT_EQ(o.error, "");
    EXPECT_FALSE(o.midMessage);
    ASSERT_EQ(o.messages.size(), 2u);
    const Message& m = o.messages[0];
    EXPECT_EQ(m.framing, Framing::CHUNKED);
    EXPECT_EQ(m.headBytes, head.size());
    EXPECT_EQ(m.bodyBytes, 11u); // "hello" + " world"
    // "5\r\n" 3 + 5 + 2, "6\r\n" 3 + 6 + 2, "0\r\n" 3, "\r\n" 2
    EXPECT_EQ(m.bodyWireBytes, 26u);
    EXPECT_EQ(m.chunks, 2u);
    EXPECT_EQ(m.GetWireBytes(), head.size() + body.size());
    EXPECT_EQ(o.messages[1].framing, Framing::CONTENT_LENGTH);
    EXPECT_EQ(o.messages[1].bodyBytes, 2u);

    // Upper-case hex and a chunk bigger than a segment.
    const Outcome big = Run(head + "1A\r\n" + std::string(26, 'x') + "\r\n0\r\n\r\n");
    ASSERT_EQ(big.messages.size(), 1u);
    EXPECT_EQ(big.messages[0].bodyBytes, 26u);
}

// RFC 9112 7.1.1: "A recipient MUST ignore unrecognized chunk extensions." The syntax is
// checked all the same: chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ).
TEST_F(AdcHttpFraming, ChunkExtensionsAreCheckedAndIgnored)
{
    const std::string head = kOkHead + "Transfer-Encoding: chunked\r\n\r\n";
    const Outcome o =
        Run(head + "3;name=value;flag\r\nabc\r\n2 ; q = \"a;\\\"b\"\r\nde\r\n0;last\r\n\r\n");
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 1u);
    EXPECT_EQ(o.messages[0].bodyBytes, 5u);
    EXPECT_EQ(o.messages[0].chunks, 2u);
    for (const std::string bad : {"3;\r\nabc\r\n",         // no name
                                  "3 x\r\nabc\r\n",        // not an extension
                                  "3 \r\nabc\r\n",         // whitespace without an extension
                                  "3;x=\"open\r\nabc\r\n", // unterminated quoted-string
                                  "3;x=\r\nabc\r\n"})      // no value after "="
    {
        EXPECT_NE(ErrorOf(head + bad + "0\r\n\r\n").find("chunk"), std::string::npos) << bad;
    }
}

// RFC 9112 7.1.2: "A trailer section allows the sender to include additional fields at the
// end of a chunked message"; trailer-section = *( field-line CRLF ), with the rules of header
// field lines (section 5).
TEST_F(AdcHttpFraming, TrailerFieldsAreKeptApartFromTheHeadAndBounded)
{
    const std::string head = kOkHead + "Transfer-Encoding: chunked\r\n\r\n";
    const std::string trailers = "Checksum: abc\r\nX-Done:yes \r\n\r\n";
    const Outcome o = Run(head + "1\r\na\r\n0\r\n" + trailers);
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 1u);
    const Message& m = o.messages[0];
    ASSERT_EQ(m.trailers.size(), 2u);
    EXPECT_EQ(m.trailers[0], std::make_pair(std::string("Checksum"), std::string("abc")));
    EXPECT_EQ(m.trailers[1], std::make_pair(std::string("X-Done"), std::string("yes")));
    EXPECT_FALSE(m.head.GetHeader("Checksum").has_value()); // not merged into the head
    EXPECT_EQ(m.bodyWireBytes, 6u + 3u + trailers.size());  // "1\r\na\r\n" "0\r\n" trailers

    // Bounds: at most 100 fields, at most 16384 bytes with the CRLFs.
    std::string many;
    for (int i = 0; i < 101; ++i)
    {
        many += "T" + std::to_string(i) + ": v\r\n";
    }
    EXPECT_NE(ErrorOf(head + "0\r\n" + many + "\r\n").find("100 trailer"), std::string::npos);
    // "X: " + value + CRLF + the final CRLF: 7 bytes around the value
    const std::string filler(AdcHttpStreamParser::kMaxTrailerBytes - 7, 'a');
    EXPECT_EQ(ErrorOf(head + "0\r\nX: " + filler + "\r\n\r\n"), ""); // exactly 16384
    EXPECT_NE(ErrorOf(head + "0\r\nX: " + filler + "a\r\n\r\n").find("longer than 16384"),
              std::string::npos);
}

// RFC 9112 7.1: "recipients MUST anticipate potentially large hexadecimal numerals and prevent
// parsing errors due to integer conversion overflows or precision loss due to integer
// representation."
TEST_F(AdcHttpFraming, ChunkSizeOverflowAndBadChunkSizesAreErrors)
{
    const std::string head = kOkHead + "Transfer-Encoding: chunked\r\n\r\n";
    // 16 digits are allowed (leading zeros included), 17 are not, whatever their value.
    const Outcome ok = Run(head + "0000000000000003\r\nabc\r\n0\r\n\r\n");
    ASSERT_EQ(ok.messages.size(), 1u);
    EXPECT_EQ(ok.messages[0].bodyBytes, 3u);
    EXPECT_NE(ErrorOf(head + "00000000000000003\r\n").find("16 digits"), std::string::npos);
    // 2^64 + 1 would wrap a 64-bit counter to 1; 0x10000000001 is 2^40 + 1, over the limit.
    EXPECT_NE(ErrorOf(head + "10000000000000001\r\n").find("chunk-size"), std::string::npos);
    EXPECT_NE(ErrorOf(head + "10000000001\r\n").find("2^40"), std::string::npos);
    EXPECT_EQ(ErrorOf(head + "10000000000\r\n"), ""); // 2^40 itself: waiting for the data
    EXPECT_NE(ErrorOf(head + "-5\r\n").find("not a hexadecimal"), std::string::npos);
    EXPECT_NE(ErrorOf(head + "\r\n").find("not a hexadecimal"), std::string::npos);
    EXPECT_NE(ErrorOf(head + "0x5\r\n").find("chunk"), std::string::npos);
    // chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF: the data is followed by CRLF.
    EXPECT_NE(ErrorOf(head + "3\r\nabcd\r\n").find("not followed by CRLF"), std::string::npos);
    // A chunk-size line is bounded (4096 bytes with extensions and CRLF).
    EXPECT_NE(ErrorOf(head + "1;x=" + std::string(5000, 'y') + "\r\n").find("4096"),
              std::string::npos);
}

// RFC 9112 section 8: "A message body that uses the chunked transfer coding is incomplete if
// the zero-sized chunk that terminates the encoding has not been received."
TEST_F(AdcHttpFraming, ChunkedBodyWithoutItsLastChunkIsIncompleteAtClose)
{
    const std::string stream = kOkHead + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n";
    const Outcome open = Run(stream);
    EXPECT_TRUE(open.midMessage);
    EXPECT_TRUE(open.messages.empty());
    const Outcome closed = Run(stream, {}, true);
    EXPECT_TRUE(closed.messages.empty());
    EXPECT_NE(closed.error.find("chunked body"), std::string::npos);
    EXPECT_FALSE(closed.midMessage);
}

// RFC 9112 6.3 item 3: "If a message is received with both a Transfer-Encoding and a
// Content-Length header field, the Transfer-Encoding overrides the Content-Length. Such a
// message might indicate an attempt to perform request smuggling (Section 11.2) or response
// splitting (Section 11.1) and ought to be handled as an error."
TEST_F(AdcHttpFraming, TransferEncodingWithContentLengthIsAnError)
{
    for (const std::string start : {"POST /a HTTP/1.1\r\n", "HTTP/1.1 200 OK\r\n"})
    {
        for (const std::string fields :
             {"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
              "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
              "Content-Length: 0\r\nTransfer-Encoding: gzip, chunked\r\n"})
        {
            const Outcome o = Run(start + fields + "\r\n0\r\n\r\n");
            EXPECT_TRUE(o.messages.empty()) << start << fields; // never delivered
            EXPECT_NE(o.error.find("smuggling"), std::string::npos) << start << fields;
        }
    }
}

// RFC 9112 6.3 item 5: "If a message is received without Transfer-Encoding and with an invalid
// Content-Length header field, then the message framing is invalid and the recipient MUST treat
// it as an unrecoverable error, unless the field value can be successfully parsed as a
// comma-separated list (Section 5.6.1 of [HTTP]), all values in the list are valid, and all
// values in the list are the same (in which case, the message is processed with that single
// value used as the Content-Length field value)."
TEST_F(AdcHttpFraming, IdenticalContentLengthsCountOnceDifferingOnesAreErrors)
{
    for (const std::string fields : {"Content-Length: 3, 3\r\n",
                                     "Content-Length: 3\r\nContent-Length: 3\r\n",
                                     "Content-Length: 3,3\r\ncontent-length: 03\r\n"})
    {
        const Outcome o = Run("POST / HTTP/1.1\r\n" + fields + "\r\nabcGET / HTTP/1.1\r\n\r\n");
        EXPECT_EQ(o.error, "") << fields;
        ASSERT_EQ(o.messages.size(), 2u) << fields;
        EXPECT_EQ(o.messages[0].bodyBytes, 3u) << fields;
        EXPECT_EQ(o.messages[0].framing, Framing::CONTENT_LENGTH);
    }
    for (const std::string fields : {"Content-Length: 3, 4\r\n",
                                     "Content-Length: 3\r\nContent-Length: 4\r\n",
                                     "Content-Length: 3, x\r\n",
                                     "Content-Length: ,\r\n"})
    {
        const Outcome o = Run("POST / HTTP/1.1\r\n" + fields + "\r\nabcd");
        EXPECT_TRUE(o.messages.empty()) << fields;
        EXPECT_NE(o.error.find("Content-Length"), std::string::npos) << fields;
    }
}

// RFC 9112 6.3 item 6: "If a valid Content-Length header field is present without
// Transfer-Encoding, its decimal value defines the expected message body length in octets. If
// the sender closes the connection or the recipient times out before the indicated number of
// octets are received, the recipient MUST consider the message to be incomplete and close the
// connection."
TEST_F(AdcHttpFraming, ContentLengthBodyCutByTheCloseIsIncomplete)
{
    const std::string stream = kOkHead + "Content-Length: 10\r\n\r\n0123";
    EXPECT_TRUE(Run(stream).midMessage);
    const Outcome closed = Run(stream, {}, true);
    EXPECT_TRUE(closed.messages.empty());
    EXPECT_NE(closed.error.find("6 bytes before the end"), std::string::npos);
}

// RFC 9112 6.3 item 1: "Any response to a HEAD request and any response with a 1xx
// (Informational), 204 (No Content), or 304 (Not Modified) status code is always terminated by
// the first empty line after the header fields, regardless of the header fields present in the
// message, and thus cannot contain a message body or trailer section."
TEST_F(AdcHttpFraming, ResponseToHeadHasNoBodyWhateverItsFields)
{
    const std::string stream = kOkHead + "Content-Length: 500\r\n\r\n" + kOkHead +
                               "Transfer-Encoding: chunked\r\n\r\n" + kOkHead +
                               "Content-Length: 3\r\n\r\nabc";
    const Outcome o = Run(stream, {"HEAD", "HEAD", "GET"});
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 3u);
    EXPECT_EQ(o.messages[0].framing, Framing::NONE);
    EXPECT_EQ(o.messages[0].bodyBytes, 0u);
    EXPECT_EQ(o.messages[0].answers, "HEAD");
    EXPECT_EQ(o.messages[1].framing, Framing::NONE);
    EXPECT_EQ(o.messages[2].bodyBytes, 3u);
    EXPECT_EQ(o.messages[2].answers, "GET");
    // Without being told, the parser takes the first response for a GET's: 500 bytes to come.
    EXPECT_TRUE(Run(stream).midMessage);
}

// Same sentence (6.3 item 1), for 1xx, 204 and 304; and RFC 9110 15.2: "A client MUST be able
// to parse one or more 1xx responses received prior to a final response": an interim response
// does not answer the request, so the final one still answers the HEAD.
TEST_F(AdcHttpFraming, InformationalNoContentAndNotModifiedHaveNoBody)
{
    const std::string stream = "HTTP/1.1 100 Continue\r\n\r\n"
                               "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n"
                               "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n"
                               "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                               "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";
    const Outcome o = Run(stream, {"HEAD", "GET", "GET", "GET"});
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 6u);
    const std::vector<uint16_t> status = {100, 200, 204, 304, 103, 200};
    const std::vector<uint64_t> body = {0, 0, 0, 0, 0, 2};
    const std::vector<std::string> answers = {"HEAD", "HEAD", "GET", "GET", "GET", "GET"};
    for (std::size_t i = 0; i < 6; ++i)
    {
        EXPECT_EQ(o.messages[i].head.GetStatus(), status[i]);
        EXPECT_EQ(o.messages[i].bodyBytes, body[i]) << i;
        EXPECT_EQ(o.messages[i].answers, answers[i]) << i;
    }
}

// RFC 9112 6.3 item 8: "Otherwise, this is a response message without a declared message body
// length, so the message body length is determined by the number of octets received prior to
// the server closing the connection." And item 4: "If a Transfer-Encoding header field is
// present in a response and the chunked transfer coding is not the final encoding, the message
// body length is determined by reading the connection until it is closed by the server."
TEST_F(AdcHttpFraming, ResponseWithoutLengthEndsWithTheClose)
{
    for (const std::string fields :
         {"", "Transfer-Encoding: gzip\r\n", "Transfer-Encoding: chunked, gzip\r\n"})
    {
        const std::string head = kOkHead + fields + "\r\n";
        const std::string stream = head + "0\r\n\r\nHTTP/1.1 200 OK\r\n";
        const Outcome open = Run(stream);
        EXPECT_TRUE(open.messages.empty()) << fields;
        EXPECT_TRUE(open.midMessage) << fields;
        const Outcome closed = Run(stream, {}, true);
        EXPECT_EQ(closed.error, "") << fields;
        ASSERT_EQ(closed.messages.size(), 1u) << fields;
        EXPECT_EQ(closed.messages[0].framing, Framing::CLOSE_DELIMITED);
        EXPECT_EQ(closed.messages[0].bodyBytes, stream.size() - head.size()); // all of it
        EXPECT_FALSE(closed.midMessage);
    }
    // Nothing can follow the close.
    AdcHttpStreamParser p;
    p.EndOfStream();
    const std::string late = "GET / HTTP/1.1\r\n\r\n";
    p.Feed(reinterpret_cast<const uint8_t*>(late.data()), late.size());
    EXPECT_NE(p.GetError().find("after the end"), std::string::npos);
    EXPECT_FALSE(p.Next(nullptr));
}

// RFC 9112 6.3 item 7: "If this is a request message and none of the above are true, then the
// message body length is zero (no message body is present)."
TEST_F(AdcHttpFraming, RequestWithoutLengthHasNoBody)
{
    const Outcome o = Run("POST /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\n\r\n");
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 2u);
    EXPECT_EQ(o.messages[0].framing, Framing::NONE);
    EXPECT_EQ(o.messages[0].bodyBytes, 0u);
    EXPECT_EQ(o.messages[1].head.GetTarget(), "/b");
    EXPECT_FALSE(o.midMessage);
}

// RFC 9112 6.3 item 4: "If a Transfer-Encoding header field is present in a request and the
// chunked transfer coding is not the final encoding, the message body length cannot be
// determined reliably; the server MUST respond with the 400 (Bad Request) status code and then
// close the connection."
TEST_F(AdcHttpFraming, RequestWhoseFinalCodingIsNotChunkedIsAnError)
{
    for (const std::string te : {"gzip", "chunked, gzip", "chunked,identity"})
    {
        EXPECT_NE(
            ErrorOf("POST / HTTP/1.1\r\nTransfer-Encoding: " + te + "\r\n\r\n").find("not chunked"),
            std::string::npos)
            << te;
    }
    // Several fields are one list: the last coding of the last field is the final one.
    const Outcome o = Run("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: "
                          "Chunked\r\n\r\n2\r\nzz\r\n0\r\n\r\n");
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 1u);
    EXPECT_EQ(o.messages[0].framing, Framing::CHUNKED);
    EXPECT_EQ(o.messages[0].bodyBytes, 2u);
}

// RFC 9112 6.1: "A sender MUST NOT apply the chunked transfer coding more than once to a
// message body (i.e., chunking an already chunked message is not allowed)." The chunked coding
// has no parameters; "chunked;x=1" is refused rather than guessed at.
TEST_F(AdcHttpFraming, ChunkedTwiceOrWithParametersIsAnError)
{
    EXPECT_NE(
        ErrorOf(kOkHead + "Transfer-Encoding: chunked, chunked\r\n\r\n").find("more than once"),
        std::string::npos);
    EXPECT_NE(ErrorOf(kOkHead + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n")
                  .find("more than once"),
              std::string::npos);
    EXPECT_NE(ErrorOf(kOkHead + "Transfer-Encoding: chunked;x=1\r\n\r\n").find("parameters"),
              std::string::npos);
    EXPECT_NE(ErrorOf(kOkHead + "Transfer-Encoding: ,\r\n\r\n").find("empty"), std::string::npos);
    EXPECT_NE(ErrorOf(kOkHead + "Transfer-Encoding: g(zip, chunked\r\n\r\n").find("bad transfer"),
              std::string::npos);
    // Parameters of other codings are checked, then ignored.
    const Outcome o = Run(kOkHead + "Transfer-Encoding: gzip;level=9 , chunked\r\n\r\n0\r\n\r\n");
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 1u);
}

// RFC 9112 6.1: "A server or client that receives an HTTP/1.0 message containing a
// Transfer-Encoding header field MUST treat the message as if the framing is faulty, even if a
// Content-Length is present, and close the connection after processing the message."
TEST_F(AdcHttpFraming, TransferEncodingInHttp10IsFaultyFraming)
{
    EXPECT_NE(
        ErrorOf("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").find("HTTP/1.0"),
        std::string::npos);
    EXPECT_NE(
        ErrorOf("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").find("HTTP/1.0"),
        std::string::npos);
}

// RFC 9112 2.2: "In the interest of robustness, a server that is expecting to receive and parse
// a request-line SHOULD ignore at least one empty line (CRLF) received prior to the
// request-line." Only a request line: before a status line they are an error.
TEST_F(AdcHttpFraming, EmptyLinesBeforeARequestLineAreSkipped)
{
    const std::string first = "GET /a HTTP/1.1\r\n\r\n";
    const std::string second = "GET /b HTTP/1.1\r\n\r\n";
    const Outcome o = Run("\r\n\r\n" + first + "\r\n" + second + "\r\n");
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 2u);
    EXPECT_EQ(o.messages[0].skippedBytes, 4u);
    EXPECT_EQ(o.messages[0].headBytes, first.size());
    EXPECT_EQ(o.messages[1].skippedBytes, 2u);
    EXPECT_FALSE(o.midMessage); // a trailing empty line starts no message
    EXPECT_NE(ErrorOf("\r\n" + kOkHead + "\r\n").find("before a status line"), std::string::npos);
    // Half an empty line waits for its LF; anything else after the CR is a bare CR.
    EXPECT_TRUE(Run("\r").midMessage);
    EXPECT_NE(ErrorOf("\rGET / HTTP/1.1\r\n\r\n").find("CR not followed by LF"), std::string::npos);
    EXPECT_NE(ErrorOf("\nGET / HTTP/1.1\r\n\r\n").find("bare LF"), std::string::npos);
}

// Tunnels are refused, not modelled. RFC 9112 6.3 item 2: "Any 2xx (Successful) response to a
// CONNECT request implies that the connection will become a tunnel immediately after the empty
// line that concludes the header fields." RFC 9110 15.2.2 (101): "The server understands and is
// willing to comply with the client's request, via the Upgrade header field, for a change in
// the application protocol being used on this connection." RFC 9110 7.8: "A server MAY ignore
// a received Upgrade header field if it wishes to continue using the current protocol on that
// connection", so a request with Upgrade is an ordinary request.
TEST_F(AdcHttpFraming, ConnectAndProtocolUpgradesAreRefusedExplicitly)
{
    EXPECT_NE(ErrorOf("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n")
                  .find("CONNECT is not supported"),
              std::string::npos);
    EXPECT_NE(ErrorOf(kOkHead + "\r\n", {"CONNECT"}).find("tunnel"), std::string::npos);
    EXPECT_NE(ErrorOf("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n")
                  .find("upgrades are not supported"),
              std::string::npos);
    // A refused CONNECT is an ordinary response with a body.
    const Outcome refused =
        Run("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 1\r\n\r\nx",
            {"CONNECT"});
    ASSERT_EQ(refused.messages.size(), 1u);
    EXPECT_EQ(refused.messages[0].bodyBytes, 1u);
    const Outcome upgrade = Run("GET /chat HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: "
                                "websocket\r\n\r\nGET /next HTTP/1.1\r\n\r\n");
    EXPECT_EQ(upgrade.error, "");
    EXPECT_EQ(upgrade.messages.size(), 2u);
}

// RFC 9112 2.2: "A recipient of such a bare CR MUST consider that element to be invalid or
// replace each bare CR with SP before processing the element or forwarding the message." The
// parser treats it, and a bare LF, as invalid in heads, chunk lines and trailers alike.
TEST_F(AdcHttpFraming, BareCrAndBareLfAreErrorsInEveryLine)
{
    const std::string chunked = kOkHead + "Transfer-Encoding: chunked\r\n\r\n";
    EXPECT_NE(ErrorOf(kOkHead + "X: a\rb\r\n\r\n").find("CR not followed by LF"),
              std::string::npos);
    EXPECT_NE(ErrorOf(kOkHead + "X: a\n\r\n").find("bare LF"), std::string::npos);
    EXPECT_NE(ErrorOf(chunked + "5\nhello\r\n").find("bare LF"), std::string::npos);
    EXPECT_NE(ErrorOf(chunked + "5\rhello\r\n").find("CR not followed by LF"), std::string::npos);
    EXPECT_NE(ErrorOf(chunked + "5\r\nhello\n0\r\n\r\n").find("not followed by CRLF"),
              std::string::npos);
    EXPECT_NE(ErrorOf(chunked + "0\r\nX: y\n\r\n").find("bare LF"), std::string::npos);
    EXPECT_NE(ErrorOf(chunked + "0\r\n\n").find("bare LF"), std::string::npos);
}

// RFC 9112 5.1: "No whitespace is allowed between the field name and colon." 5.2: "A server
// that receives an obs-fold in a request message ... MUST either reject the message by sending
// a 400 (Bad Request) ... or replace each received obs-fold with one or more SP octets". Both
// are errors here, in the head and in the trailer section.
TEST_F(AdcHttpFraming, WhitespaceBeforeColonAndObsFoldAreErrorsInHeadsAndTrailers)
{
    const std::string chunked = kOkHead + "Transfer-Encoding: chunked\r\n\r\n";
    EXPECT_NE(ErrorOf("GET / HTTP/1.1\r\nHost : a\r\n\r\n").find("bad header name"),
              std::string::npos);
    EXPECT_NE(ErrorOf("GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n").find("obsolete line folding"),
              std::string::npos);
    EXPECT_NE(ErrorOf(chunked + "0\r\nX : a\r\n\r\n").find("bad trailer field"), std::string::npos);
    EXPECT_NE(ErrorOf(chunked + "0\r\nX: a\r\n\tb\r\n\r\n").find("obsolete line folding"),
              std::string::npos);
}

// Every byte of a stream belongs to a message: skipped empty lines, head, body with its
// framing. A relay forwarding exact byte counts relies on it.
TEST_F(AdcHttpFraming, WireBytesOfTheMessagesAddUpToTheStream)
{
    const std::string stream = "\r\nPOST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "4;e=1\r\nabcd\r\n0\r\nT: 1\r\n\r\n"
                               "POST /b HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\nxyz"
                               "\r\n\r\nGET /c HTTP/1.1\r\n\r\n";
    const Outcome o = Run(stream);
    EXPECT_EQ(o.error, "");
    ASSERT_EQ(o.messages.size(), 3u);
    uint64_t wire = 0;
    uint64_t payload = 0;
    for (const Message& m : o.messages)
    {
        wire += m.GetWireBytes();
        payload += m.bodyBytes;
    }
    EXPECT_EQ(wire, stream.size());
    EXPECT_EQ(payload, 7u); // "abcd" + "xyz"
}

// The body length algorithm as a pure function, in the order of RFC 9112 6.3: "The length of a
// message body is determined by one of the following (in order of precedence)".
TEST(AdcHttpFramingDecision, FollowsTheOrderOfSection63)
{
    auto decide = [](const std::string& head, const std::string& method, uint64_t* length) {
        AdcHttpMessage m;
        EXPECT_EQ(
            m.Parse(reinterpret_cast<const uint8_t*>(head.data()), head.size(), nullptr, nullptr),
            AdcHttpMessage::ParseStatus::COMPLETE)
            << head;
        return AdcHttpStreamParser::DecideFraming(m, method, length, nullptr);
    };
    uint64_t n = 99;
    const std::string both = "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n";
    // item 1 comes before item 3: a HEAD or 304 response with both fields has no body
    EXPECT_EQ(decide(kOkHead + both, "HEAD", &n), Framing::NONE);
    EXPECT_EQ(decide("HTTP/1.1 304 Not Modified\r\n" + both, "GET", &n), Framing::NONE);
    EXPECT_EQ(decide(kOkHead + both, "GET", &n), Framing::INVALID);
    EXPECT_EQ(decide(kOkHead + "Content-Length: 4\r\n\r\n", "", &n), Framing::CONTENT_LENGTH);
    EXPECT_EQ(n, 4u);
    EXPECT_EQ(decide(kOkHead + "Content-Length: 4\r\n\r\n", "HEAD", &n), Framing::NONE);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(decide("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", "", &n),
              Framing::CONTENT_LENGTH);
    EXPECT_EQ(decide("GET / HTTP/1.1\r\n\r\n", "HEAD", &n), Framing::NONE); // requests: no method
    EXPECT_EQ(decide(kOkHead + "\r\n", "GET", &n), Framing::CLOSE_DELIMITED);
    EXPECT_EQ(decide(kOkHead + "\r\n", "CONNECT", &n), Framing::INVALID);
    EXPECT_EQ(decide("HTTP/1.1 404 Not Found\r\n\r\n", "CONNECT", &n), Framing::CLOSE_DELIMITED);
    // A head built in code is checked too (the parser refuses these on the wire already).
    AdcHttpMessage built = AdcHttpMessage::MakeResponse(200, "OK");
    built.AddHeader("Content-Length", "4");
    built.AddHeader("Content-Length", "5");
    std::string why;
    EXPECT_EQ(AdcHttpStreamParser::DecideFraming(built, "", &n, &why), Framing::INVALID);
    EXPECT_NE(why.find("conflicting"), std::string::npos);
}

// What a sender writes (the origin server uses these): RFC 9112 7.1, "chunk = chunk-size
// [ chunk-ext ] CRLF chunk-data CRLF", "last-chunk = 1*("0") [ chunk-ext ] CRLF".
TEST(AdcHttpFramingSender, ChunkHeadersAndLengthsParseBack)
{
    EXPECT_EQ(AdcHttpStreamParser::ChunkHeader(10), "A\r\n");
    EXPECT_EQ(AdcHttpStreamParser::ChunkHeader(4096), "1000\r\n");
    EXPECT_EQ(AdcHttpStreamParser::ChunkHeader(0), "0\r\n\r\n");
    // 10 bytes in chunks of 4: "4\r\n" + 4 + "\r\n" twice (18), "2\r\n" + 2 + "\r\n" (7),
    // "0\r\n\r\n"
    EXPECT_EQ(AdcHttpStreamParser::ChunkedLength(10, 4), 30u);
    EXPECT_EQ(AdcHttpStreamParser::ChunkedLength(0, 4), 5u);
    // 4096 in chunks of 4096: "1000\r\n" + 4096 + "\r\n" + "0\r\n\r\n"
    EXPECT_EQ(AdcHttpStreamParser::ChunkedLength(4096, 4096), 6u + 4096u + 2u + 5u);

    std::string body;
    for (uint64_t left = 1000; left > 0;)
    {
        const uint64_t n = std::min<uint64_t>(left, 300);
        body += AdcHttpStreamParser::ChunkHeader(n) + std::string(n, 'z') + "\r\n";
        left -= n;
    }
    body += AdcHttpStreamParser::ChunkHeader(0);
    AdcHttpStreamParser p;
    const std::string stream = kOkHead + "Transfer-Encoding: chunked\r\n\r\n" + body;
    p.Feed(reinterpret_cast<const uint8_t*>(stream.data()), stream.size());
    Message m;
    ASSERT_TRUE(p.Next(&m)) << p.GetError();
    EXPECT_EQ(m.bodyBytes, 1000u);
    EXPECT_EQ(m.chunks, 4u);
    EXPECT_EQ(m.bodyWireBytes, body.size());
    EXPECT_EQ(AdcHttpStreamParser::ChunkedLength(1000, 300), body.size());
}
