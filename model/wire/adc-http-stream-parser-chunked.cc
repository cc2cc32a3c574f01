/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: AdcHttpStreamParser's chunked transfer coding (RFC 9112 section 7.1): the
 * chunk-size lines, chunk extensions and trailer section a chunked body is read from, and the
 * sizes a sender writes.
 */

#include "adc-http-stream-parser.h"

#include <sstream>

namespace ns3
{

namespace
{

/// \return the value of hex digit \p c, or -1
int
HexValue(char c)
{
    if (c >= '0' && c <= '9')
    {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f')
    {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F')
    {
        return c - 'A' + 10;
    }
    return -1;
}

} // namespace

std::string
AdcHttpStreamParser::ChunkHeader(uint64_t size)
{
    std::ostringstream s;
    s << std::hex << std::uppercase << size << (size > 0 ? "\r\n" : "\r\n\r\n");
    return s.str();
}

uint64_t
AdcHttpStreamParser::ChunkedLength(uint64_t payload, uint64_t chunkSize)
{
    const uint64_t full = payload / chunkSize;
    const uint64_t rest = payload % chunkSize;
    // each data chunk: its header, its data and the CRLF after the data
    return full * (ChunkHeader(chunkSize).size() + chunkSize + 2) +
           (rest > 0 ? ChunkHeader(rest).size() + rest + 2 : 0) + ChunkHeader(0).size();
}

std::size_t
AdcHttpStreamParser::FeedLine(const uint8_t* data, std::size_t len)
{
    const bool chunkLine = m_state == State::CHUNK_LINE;
    const std::size_t limit = chunkLine ? kMaxChunkLineBytes : kMaxTrailerBytes - m_trailerBytes;
    const char* what = chunkLine ? "chunk-size line" : "trailer section";
    for (std::size_t i = 0; i < len; ++i)
    {
        const char c = static_cast<char>(data[i]);
        const bool afterCr = !m_line.empty() && m_line.back() == '\r';
        if (afterCr != (c == '\n'))
        {
            Fail(std::string(what) + (afterCr ? ": CR not followed by LF" : ": bare LF"));
            return i + 1;
        }
        ++m_msg.bodyWireBytes;
        if (c == '\n')
        {
            const std::string line = m_line.substr(0, m_line.size() - 1);
            m_trailerBytes += chunkLine ? 0 : m_line.size() + 1;
            m_line.clear();
            if (chunkLine)
            {
                ChunkLine(line);
            }
            else
            {
                TrailerLine(line);
            }
            return i + 1;
        }
        m_line.push_back(c);
        if (m_line.size() >= limit)
        {
            Fail(std::string(what) + " longer than " +
                 std::to_string(chunkLine ? kMaxChunkLineBytes : kMaxTrailerBytes) + " bytes");
            return i + 1;
        }
    }
    return len;
}

void
AdcHttpStreamParser::ChunkLine(const std::string& line)
{
    // chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF (RFC 9112 section 7.1)
    uint64_t size = 0;
    std::size_t digits = 0;
    for (; digits < line.size() && HexValue(line[digits]) >= 0; ++digits)
    {
        // "Recipients MUST anticipate potentially large hexadecimal numerals and prevent
        // parsing errors due to integer conversion overflows" (7.1).
        if (digits == kMaxChunkSizeDigits)
        {
            Fail("chunk-size longer than " + std::to_string(kMaxChunkSizeDigits) + " digits");
            return;
        }
        size = size * 16 + static_cast<uint64_t>(HexValue(line[digits]));
        if (size > AdcHttpMessage::kMaxContentLength)
        {
            Fail("chunk-size exceeds 2^40");
            return;
        }
    }
    if (digits == 0)
    {
        Fail("chunk-size is not a hexadecimal number: '" + line + "'");
        return;
    }
    // "A recipient MUST ignore unrecognized chunk extensions" (7.1.1): checked, then ignored.
    const std::string err = CheckParameters(line.data() + digits, line.size() - digits, false);
    if (!err.empty())
    {
        Fail("bad chunk extension: " + err);
        return;
    }
    if (size == 0)
    {
        m_state = State::TRAILER; // last-chunk
        return;
    }
    if (m_msg.bodyBytes + size > AdcHttpMessage::kMaxContentLength)
    {
        Fail("chunked body exceeds 2^40 bytes");
        return;
    }
    ++m_msg.chunks;
    m_left = size;
    m_state = State::CHUNK_DATA;
}

void
AdcHttpStreamParser::TrailerLine(const std::string& line)
{
    if (line.empty())
    {
        Complete(); // the CRLF that ends the chunked body
        return;
    }
    if (m_msg.trailers.size() >= AdcHttpMessage::kMaxHeaders)
    {
        Fail("more than " + std::to_string(AdcHttpMessage::kMaxHeaders) + " trailer fields");
        return;
    }
    std::string name;
    std::string value;
    const std::string err = AdcHttpMessage::ParseFieldLine(line.data(), line.size(), &name, &value);
    if (!err.empty())
    {
        Fail("bad trailer field: " + err);
        return;
    }
    m_msg.trailers.emplace_back(std::move(name), std::move(value));
}

} // namespace ns3
