/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: reassembles HTTP/1.1 messages (head and framed body) from a TCP byte stream, with
 * the message framing of RFC 9112 section 6 (Content-Length, chunked, close-delimited).
 */

#include "adc-http-stream-parser.h"

#include "ns3/log.h"

#include <algorithm>
#include <boost/algorithm/string/predicate.hpp>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpStreamParser");

namespace
{

/// \return true for SP or HTAB (BWS, OWS)
bool
IsWhitespace(char c)
{
    return c == ' ' || c == '\t';
}

/// \return true for a byte allowed unescaped in a quoted-string (qdtext, RFC 9110 5.6.4)
bool
IsQdtext(uint8_t c)
{
    return c == '\t' || c == ' ' || c == 0x21 || (c >= 0x23 && c <= 0x5b) ||
           (c >= 0x5d && c <= 0x7e) || c >= 0x80;
}

/// \return true for a byte allowed after a backslash in a quoted-string (quoted-pair)
bool
IsQuotedPairChar(uint8_t c)
{
    return c == '\t' || (c >= 0x20 && c != 0x7f);
}

} // namespace

std::string
AdcHttpStreamParser::CheckParameters(const char* p, std::size_t n, bool valueRequired)
{
    std::size_t i = 0;
    auto skipWhitespace = [&]() {
        while (i < n && IsWhitespace(p[i]))
        {
            ++i;
        }
    };
    auto skipToken = [&]() {
        const std::size_t from = i;
        while (i < n && AdcHttpMessage::IsToken(p + i, 1))
        {
            ++i;
        }
        return i > from;
    };
    while (true)
    {
        const std::size_t from = i;
        skipWhitespace();
        if (i == n)
        {
            // BWS belongs before a ";": "5 " is no chunk-size line in the grammar
            return i == from ? "" : "whitespace without a parameter";
        }
        if (p[i] != ';')
        {
            return "expected ';' at '" + std::string(p + i, n - i) + "'";
        }
        ++i;
        skipWhitespace();
        if (!skipToken())
        {
            return "parameter without a name";
        }
        const std::size_t afterName = i;
        skipWhitespace();
        if (i == n || p[i] != '=')
        {
            if (valueRequired)
            {
                return "parameter without a value";
            }
            i = afterName;
            continue;
        }
        ++i;
        skipWhitespace();
        if (i < n && p[i] == '"')
        {
            for (++i;; ++i)
            {
                if (i >= n)
                {
                    return "unterminated quoted-string";
                }
                const auto c = static_cast<uint8_t>(p[i]);
                if (c == '"')
                {
                    ++i;
                    break;
                }
                if (c == '\\' && i + 1 < n && IsQuotedPairChar(static_cast<uint8_t>(p[i + 1])))
                {
                    ++i;
                }
                else if (!IsQdtext(c))
                {
                    return "bad character in quoted-string";
                }
            }
        }
        else if (!skipToken())
        {
            return "parameter without a value";
        }
    }
}

namespace
{

/**
 * The transfer codings of \p head, in the order applied (RFC 9112 section 6.1).
 * \param head a head with at least one Transfer-Encoding field
 * \param chunkedLast [out] true when chunked is the final coding
 * \return an error text, or "" when valid
 */
std::string
CheckTransferCodings(const AdcHttpMessage& head, bool* chunkedLast)
{
    std::string joined;
    for (const std::string& v : head.GetHeaders("Transfer-Encoding"))
    {
        joined += v + ",";
    }
    const std::vector<std::string> codings = AdcHttpMessage::SplitList(joined);
    if (codings.empty())
    {
        return "empty Transfer-Encoding";
    }
    bool chunkedSeen = false;
    for (const std::string& coding : codings)
    {
        std::size_t nameEnd = 0;
        while (nameEnd < coding.size() && AdcHttpMessage::IsToken(coding.data() + nameEnd, 1))
        {
            ++nameEnd;
        }
        const std::string name = coding.substr(0, nameEnd);
        if (name.empty())
        {
            return "bad transfer coding '" + coding + "'";
        }
        const std::string err = AdcHttpStreamParser::CheckParameters(coding.data() + nameEnd,
                                                                     coding.size() - nameEnd,
                                                                     true);
        if (!err.empty())
        {
            return "bad transfer coding '" + coding + "': " + err;
        }
        if (boost::algorithm::iequals(name, "chunked"))
        {
            // "A sender MUST NOT apply the chunked transfer coding more than once" (6.1), and
            // chunked has no parameters: other parsers would not call "chunked;x=1" chunked.
            if (chunkedSeen)
            {
                return "chunked transfer coding applied more than once";
            }
            if (nameEnd != coding.size())
            {
                return "chunked transfer coding with parameters";
            }
            chunkedSeen = true;
        }
        *chunkedLast = boost::algorithm::iequals(name, "chunked");
    }
    return "";
}

} // namespace

uint64_t
AdcHttpStreamParser::Message::GetWireBytes() const
{
    return skippedBytes + headBytes + bodyWireBytes;
}

AdcHttpStreamParser::AdcHttpStreamParser()
    : m_state(State::HEAD),
      m_left(0),
      m_skipped(0),
      m_trailerBytes(0),
      m_ignoreBodies(false),
      m_endOfStream(false),
      m_fed(0)
{
}

AdcHttpStreamParser::Framing
AdcHttpStreamParser::DecideFraming(const AdcHttpMessage& head,
                                   const std::string& requestMethod,
                                   uint64_t* contentLength,
                                   std::string* error)
{
    uint64_t length = 0;
    std::string why;
    auto decide = [&]() {
        const bool response = head.GetKind() == AdcHttpMessage::RESPONSE;
        const uint16_t status = head.GetStatus();
        // Tunnels: refused, not modelled (see the class documentation).
        if (!response && head.GetMethod() == "CONNECT")
        {
            why = "CONNECT is not supported: this model opens no tunnels";
            return Framing::INVALID;
        }
        if (response && status == 101)
        {
            why = "101 Switching Protocols: protocol upgrades are not supported (no tunnels)";
            return Framing::INVALID;
        }
        // 6.3 item 1: no body whatever the header fields say.
        if (response && (requestMethod == "HEAD" || AdcHttpMessage::IsBodilessStatus(status)))
        {
            return Framing::NONE;
        }
        // 6.3 item 2: a 2xx answer to CONNECT would start a tunnel.
        if (response && requestMethod == "CONNECT" && status < 300)
        {
            why = "a 2xx response to CONNECT opens a tunnel, which is not supported";
            return Framing::INVALID;
        }
        const bool hasTransferEncoding = head.GetHeader("Transfer-Encoding").has_value();
        why = head.CheckContentLength(&length); // 6.3 item 5
        if (!why.empty())
        {
            return Framing::INVALID;
        }
        if (hasTransferEncoding)
        {
            // 6.3 item 3: "ought to be handled as an error" (request smuggling).
            if (head.GetHeader("Content-Length"))
            {
                why = "Transfer-Encoding together with Content-Length (request smuggling)";
                return Framing::INVALID;
            }
            // 6.1: "MUST treat the message as if the framing is faulty".
            if (head.GetVersion() == "HTTP/1.0")
            {
                why = "Transfer-Encoding in an HTTP/1.0 message";
                return Framing::INVALID;
            }
            bool chunkedLast = false;
            why = CheckTransferCodings(head, &chunkedLast);
            if (!why.empty())
            {
                return Framing::INVALID;
            }
            // 6.3 item 4.
            if (chunkedLast)
            {
                return Framing::CHUNKED;
            }
            if (!response)
            {
                why = "the final transfer coding of a request is not chunked: its length cannot "
                      "be determined";
                return Framing::INVALID;
            }
            return Framing::CLOSE_DELIMITED;
        }
        if (head.GetHeader("Content-Length")) // 6.3 item 6
        {
            return Framing::CONTENT_LENGTH;
        }
        // 6.3 item 7 (requests) and item 8 (responses).
        return response ? Framing::CLOSE_DELIMITED : Framing::NONE;
    };
    const Framing f = decide();
    if (contentLength)
    {
        *contentLength = f == Framing::CONTENT_LENGTH ? length : 0;
    }
    if (error)
    {
        *error = f == Framing::INVALID ? why : std::string();
    }
    return f;
}

const char*
AdcHttpStreamParser::FramingName(Framing f)
{
    static const char* const kNames[] = {"NONE",
                                         "CONTENT_LENGTH",
                                         "CHUNKED",
                                         "CLOSE_DELIMITED",
                                         "INVALID"};
    return kNames[static_cast<std::size_t>(f)];
}

void
AdcHttpStreamParser::Feed(Ptr<const Packet> p)
{
    if (!p || p->GetSize() == 0)
    {
        return;
    }
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), p->GetSize());
    Feed(bytes.data(), bytes.size());
}

void
AdcHttpStreamParser::Feed(const uint8_t* data, std::size_t len)
{
    if (data == nullptr)
    {
        return;
    }
    m_fed += len;
    if (m_endOfStream && len > 0 && m_error.empty())
    {
        Fail("bytes after the end of the stream");
    }
    std::size_t pos = 0;
    while (pos < len && m_error.empty())
    {
        const uint8_t* p = data + pos;
        const std::size_t n = len - pos;
        switch (m_state)
        {
        case State::HEAD:
            pos += FeedHead(p, n);
            break;
        case State::BODY:
        case State::CHUNK_DATA: {
            const uint64_t take = std::min<uint64_t>(m_left, n);
            m_msg.bodyBytes += take;
            m_msg.bodyWireBytes += take;
            m_left -= take;
            pos += static_cast<std::size_t>(take);
            if (m_left == 0 && m_state == State::BODY)
            {
                Complete();
            }
            else if (m_left == 0)
            {
                m_state = State::CHUNK_CRLF;
                m_left = 2;
            }
            break;
        }
        case State::CHUNK_CRLF:
            if (*p != (m_left == 2 ? '\r' : '\n'))
            {
                Fail("chunk data not followed by CRLF");
                break;
            }
            ++pos;
            ++m_msg.bodyWireBytes;
            if (--m_left == 0)
            {
                m_state = State::CHUNK_LINE;
            }
            break;
        case State::CHUNK_LINE:
        case State::TRAILER:
            pos += FeedLine(p, n);
            break;
        case State::UNTIL_CLOSE:
            m_msg.bodyBytes += n;
            m_msg.bodyWireBytes += n;
            pos = len;
            break;
        }
    }
}

std::size_t
AdcHttpStreamParser::FeedHead(const uint8_t* data, std::size_t len)
{
    // RFC 9112 section 2.2: "a server that is expecting to receive and parse a request-line
    // SHOULD ignore at least one empty line (CRLF) received prior to the request-line".
    if (m_headBuf.empty() && data[0] == '\r' && (len == 1 || data[1] == '\n'))
    {
        if (len == 1)
        {
            m_headBuf.push_back('\r'); // an empty line or an error: the next byte says
            return 1;
        }
        m_skipped += 2;
        return 2;
    }
    if (m_headBuf.size() == 1 && m_headBuf[0] == '\r' && data[0] == '\n')
    {
        m_headBuf.clear();
        m_skipped += 2;
        return 1;
    }
    const std::size_t before = m_headBuf.size();
    // An INCOMPLETE head is shorter than the limit, so at least one byte is always taken.
    const std::size_t room = AdcHttpMessage::kMaxHeadBytes + 1 - before;
    const std::size_t take = std::min(len, room);
    m_headBuf.insert(m_headBuf.end(), data, data + take);
    std::size_t consumed = 0;
    std::string err;
    auto st = m_msg.head.Parse(m_headBuf.data(), m_headBuf.size(), &consumed, &err);
    if (st == AdcHttpMessage::ParseStatus::INCOMPLETE)
    {
        return take;
    }
    if (st == AdcHttpMessage::ParseStatus::ERROR || consumed <= before)
    {
        Fail(err.empty() ? "malformed head" : err);
        return take;
    }
    m_headBuf.clear();
    m_msg.headBytes = consumed;
    StartBody();
    return consumed - before;
}

void
AdcHttpStreamParser::StartBody()
{
    m_msg.skippedBytes = m_skipped;
    m_skipped = 0;
    if (m_msg.head.GetKind() == AdcHttpMessage::RESPONSE)
    {
        if (m_msg.skippedBytes > 0)
        {
            Fail("empty line before a status line (RFC 9112 section 2.2 allows them only before "
                 "a request line)");
            return;
        }
        if (!m_expected.empty())
        {
            m_msg.answers = m_expected.front();
            if (m_msg.head.GetStatus() >= 200) // interim responses precede the final one
            {
                m_expected.pop_front();
            }
        }
    }
    uint64_t length = 0;
    std::string err;
    Framing f = DecideFraming(m_msg.head, m_ignoreBodies ? "HEAD" : m_msg.answers, &length, &err);
    if (f == Framing::INVALID)
    {
        Fail(err);
        return;
    }
    m_msg.framing = m_ignoreBodies ? Framing::NONE : f;
    switch (m_msg.framing)
    {
    case Framing::CONTENT_LENGTH:
        m_left = length;
        m_state = State::BODY;
        break;
    case Framing::CHUNKED:
        m_state = State::CHUNK_LINE;
        break;
    case Framing::CLOSE_DELIMITED:
        m_state = State::UNTIL_CLOSE;
        break;
    default:
        break;
    }
    if (m_state == State::HEAD || (m_state == State::BODY && m_left == 0))
    {
        Complete();
    }
}

void
AdcHttpStreamParser::Complete()
{
    m_done.push_back(std::move(m_msg));
    ClearMessage();
}

void
AdcHttpStreamParser::Fail(const std::string& reason)
{
    NS_LOG_LOGIC("HTTP stream error: " << reason);
    m_error = reason;
    ClearMessage();
}

void
AdcHttpStreamParser::ClearMessage()
{
    m_headBuf.clear();
    m_line.clear();
    m_msg = Message();
    m_state = State::HEAD;
    m_left = 0;
    m_skipped = 0;
    m_trailerBytes = 0;
}

void
AdcHttpStreamParser::EndOfStream()
{
    if (m_endOfStream)
    {
        return;
    }
    m_endOfStream = true;
    if (!m_error.empty())
    {
        return;
    }
    switch (m_state)
    {
    case State::UNTIL_CLOSE:
        Complete();
        break;
    case State::HEAD:
        if (!m_headBuf.empty())
        {
            Fail("connection closed in the middle of a message head");
        }
        break;
    case State::BODY:
        Fail("connection closed " + std::to_string(m_left) +
             " bytes before the end of a Content-Length body");
        break;
    default:
        Fail("connection closed before the end of a chunked body");
        break;
    }
}

void
AdcHttpStreamParser::ExpectResponseTo(const std::string& method)
{
    m_expected.push_back(method);
}

std::size_t
AdcHttpStreamParser::GetExpectedResponses() const
{
    return m_expected.size();
}

bool
AdcHttpStreamParser::Next(Message* message)
{
    if (m_done.empty())
    {
        return false;
    }
    if (message)
    {
        *message = std::move(m_done.front());
    }
    m_done.pop_front();
    return true;
}

bool
AdcHttpStreamParser::Next(AdcHttpMessage* head, uint64_t* bodyBytes)
{
    return Next(head, bodyBytes, nullptr);
}

bool
AdcHttpStreamParser::Next(AdcHttpMessage* head, uint64_t* bodyBytes, uint64_t* headBytes)
{
    Message m;
    if (!Next(&m))
    {
        return false;
    }
    if (head)
    {
        *head = std::move(m.head);
    }
    if (bodyBytes)
    {
        *bodyBytes = m.bodyBytes;
    }
    if (headBytes)
    {
        *headBytes = m.headBytes;
    }
    return true;
}

bool
AdcHttpStreamParser::HasError() const
{
    return !m_error.empty();
}

const std::string&
AdcHttpStreamParser::GetError() const
{
    return m_error;
}

void
AdcHttpStreamParser::SetIgnoreBodies(bool skip)
{
    m_ignoreBodies = skip;
}

bool
AdcHttpStreamParser::IsMidMessage() const
{
    return m_state != State::HEAD || !m_headBuf.empty();
}

AdcHttpStreamParser::Framing
AdcHttpStreamParser::GetCurrentFraming() const
{
    return m_state == State::HEAD ? Framing::NONE : m_msg.framing;
}

bool
AdcHttpStreamParser::IsEndOfStream() const
{
    return m_endOfStream;
}

uint64_t
AdcHttpStreamParser::GetBytesFed() const
{
    return m_fed;
}

void
AdcHttpStreamParser::Reset()
{
    ClearMessage();
    m_error.clear();
    m_done.clear();
    m_expected.clear();
    m_endOfStream = false;
}

} // namespace ns3
