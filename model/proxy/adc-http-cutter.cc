/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: cuts a TCP byte stream at HTTP message boundaries without changing a byte.
 */

#include "adc-http-cutter.h"

#include <algorithm>

namespace ns3
{

AdcHttpCutter::AdcHttpCutter()
    : m_fedInMessage(0),
      m_headDone(false)
{
}

void
AdcHttpCutter::Feed(Ptr<const Packet> p)
{
    if (!p || p->GetSize() == 0 || m_parser.HasError())
    {
        return;
    }
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    std::size_t off = 0;
    while (off < bytes.size())
    {
        bool ended = false;
        const std::size_t k = Cut(bytes.data() + off, bytes.size() - off, &ended);
        if (m_parser.HasError() && !ended)
        {
            return; // bytes that make no message are not relayed
        }
        Emit(p, bytes.data(), off, k);
        off += k;
        if (!ended)
        {
            continue;
        }
        Piece end;
        end.kind = Piece::END;
        m_parser.Next(&end.head, &end.bodyBytes);
        end.wireBytes = m_fedInMessage;
        if (!m_headDone)
        {
            // The parser took a head this cutter did not recognise (it skips what the cutter
            // does not know): its head, the rest as body.
            Piece head;
            head.kind = Piece::HEAD;
            head.head = end.head;
            const std::size_t headLen =
                m_head.size() -
                static_cast<std::size_t>(std::min<uint64_t>(end.bodyBytes, m_head.size()));
            head.bytes = Create<Packet>(m_head.data(), static_cast<uint32_t>(headLen));
            m_pieces.push_back(head);
            if (headLen < m_head.size())
            {
                Piece body;
                body.bytes = Create<Packet>(m_head.data() + headLen,
                                            static_cast<uint32_t>(m_head.size() - headLen));
                m_pieces.push_back(body);
            }
        }
        m_pieces.push_back(end);
        m_fedInMessage = 0;
        m_headDone = false;
        m_head.clear();
    }
}

std::size_t
AdcHttpCutter::Cut(const uint8_t* data, std::size_t len, bool* ended)
{
    AdcHttpStreamParser trial = m_parser;
    trial.Feed(data, len);
    uint64_t body = 0;
    uint64_t headBytes = 0;
    const bool endedHere = trial.Next(nullptr, &body, &headBytes);
    if (!endedHere && !trial.HasError())
    {
        m_parser = std::move(trial); // no end in these bytes: every one belongs to the message
        m_fedInMessage += len;
        *ended = false;
        return len;
    }
    // The message ended (or the stream broke) within them: find the first byte after which
    // it has. The lengths the parser reports point at it when the body's framing is its
    // length; whatever the framing, the check confirms it, else a binary search finds it.
    std::size_t k = 0;
    const uint64_t wire = headBytes + body;
    if (endedHere && wire > m_fedInMessage && wire - m_fedInMessage <= len)
    {
        const auto hint = static_cast<std::size_t>(wire - m_fedInMessage);
        bool atHint = false;
        bool before = false;
        if (Settles(data, hint, &atHint) && atHint &&
            (hint == 1 || !Settles(data, hint - 1, &before)))
        {
            k = hint;
        }
    }
    if (k == 0)
    {
        std::size_t lo = 1;
        std::size_t hi = len;
        bool unused = false;
        while (lo < hi)
        {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (Settles(data, mid, &unused))
            {
                hi = mid;
            }
            else
            {
                lo = mid + 1;
            }
        }
        k = lo;
    }
    bool endedAtK = false;
    Settles(data, k, &endedAtK);
    if (!endedAtK)
    {
        m_parser = std::move(trial); // broken before any end: the error is the parser's
        m_fedInMessage += len;
        *ended = false;
        return len;
    }
    m_parser.Feed(data, k);
    m_fedInMessage += k;
    *ended = true;
    return k;
}

bool
AdcHttpCutter::Settles(const uint8_t* data, std::size_t k, bool* ended) const
{
    AdcHttpStreamParser trial = m_parser;
    trial.Feed(data, k);
    *ended = trial.Next(nullptr, nullptr);
    return *ended || trial.HasError();
}

void
AdcHttpCutter::Emit(Ptr<const Packet> p, const uint8_t* data, std::size_t off, std::size_t len)
{
    if (len == 0)
    {
        return;
    }
    if (m_headDone)
    {
        Piece body;
        body.bytes = p->CreateFragment(static_cast<uint32_t>(off), static_cast<uint32_t>(len));
        m_pieces.push_back(body);
        return;
    }
    m_head.insert(m_head.end(), data + off, data + off + len);
    // Empty lines before a request line are no part of the head (RFC 9112 section 2.2).
    std::size_t skip = 0;
    while (skip + 1 < m_head.size() && m_head[skip] == '\r' && m_head[skip + 1] == '\n')
    {
        skip += 2;
    }
    AdcHttpMessage head;
    std::size_t consumed = 0;
    if (head.Parse(m_head.data() + skip, m_head.size() - skip, &consumed, nullptr) !=
        AdcHttpMessage::ParseStatus::COMPLETE)
    {
        return; // more bytes needed (an error is the parser's to report)
    }
    m_headDone = true;
    const std::size_t headLen = skip + consumed;
    Piece piece;
    piece.kind = Piece::HEAD;
    piece.head = head;
    piece.bytes = Create<Packet>(m_head.data(), static_cast<uint32_t>(headLen));
    m_pieces.push_back(piece);
    if (headLen < m_head.size())
    {
        Piece body;
        body.bytes =
            Create<Packet>(m_head.data() + headLen, static_cast<uint32_t>(m_head.size() - headLen));
        m_pieces.push_back(body);
    }
    m_head.clear();
    m_head.shrink_to_fit();
}

std::deque<AdcHttpCutter::Piece>
AdcHttpCutter::Take()
{
    std::deque<Piece> out;
    out.swap(m_pieces);
    return out;
}

bool
AdcHttpCutter::HasError() const
{
    return m_parser.HasError();
}

const std::string&
AdcHttpCutter::GetError() const
{
    return m_parser.GetError();
}

bool
AdcHttpCutter::IsInHead() const
{
    return m_parser.IsMidMessage() && !m_headDone;
}

bool
AdcHttpCutter::IsMidMessage() const
{
    return m_parser.IsMidMessage();
}

void
AdcHttpCutter::SetIgnoreBodies(bool skip)
{
    m_parser.SetIgnoreBodies(skip);
    m_ignoreBodies = skip;
}

bool
AdcHttpCutter::GetIgnoreBodies() const
{
    return m_ignoreBodies;
}

bool
AdcHttpCutter::EndOfStream()
{
    if (m_parser.HasError() || m_parser.IsEndOfStream())
    {
        return false;
    }
    m_parser.EndOfStream();
    Piece end;
    end.kind = Piece::END;
    if (!m_headDone || !m_parser.Next(&end.head, &end.bodyBytes))
    {
        return false; // nothing was in progress, or it was cut short (the parser's error)
    }
    end.wireBytes = m_fedInMessage;
    m_pieces.push_back(end);
    m_fedInMessage = 0;
    m_headDone = false;
    return true;
}

std::size_t
AdcHttpCutter::GetBufferedBytes() const
{
    return m_head.capacity();
}

} // namespace ns3
