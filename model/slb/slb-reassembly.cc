/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-reassembly.h"

#include <tuple>

namespace ns3
{

namespace
{

/// The largest IP datagram (the IPv4 total length and the IPv6 payload length are 16 bits).
constexpr uint32_t kMaxDatagramBytes = 65535;

} // namespace

bool
SlbFragmentKey::operator<(const SlbFragmentKey& o) const
{
    return std::tie(src, dst, protocol, id) < std::tie(o.src, o.dst, o.protocol, o.id);
}

void
SlbReassembly::SetLimits(Time timeout, uint64_t memoryLimit)
{
    m_timeout = timeout;
    m_memoryLimit = memoryLimit;
}

void
SlbReassembly::DropQueue(std::map<SlbFragmentKey, Queue>::iterator it,
                         const std::string& reason,
                         Result& r)
{
    r.kind = Result::DROPPED;
    r.reason = reason;
    for (const auto& [offset, piece] : it->second.pieces)
    {
        r.dropped.push_back(piece.original);
    }
    m_memory -= it->second.bytes;
    m_queues.erase(it);
}

SlbReassembly::Result
SlbReassembly::Add(const SlbFragmentKey& key,
                   uint32_t offset,
                   bool more,
                   Ptr<const Packet> data,
                   Ptr<const Packet> original,
                   uint32_t wireBytes,
                   Time now)
{
    Result r;
    const uint32_t length = data->GetSize();
    const uint32_t end = offset + length;
    auto dropThis = [&r, &original](const std::string& reason) {
        r.kind = Result::DROPPED;
        r.reason = reason;
        r.dropped.push_back(original);
        return r;
    };
    if (length == 0 || (more && length % 8 != 0) || offset % 8 != 0)
    {
        return dropThis("frag-bad-length");
    }
    if (end > kMaxDatagramBytes)
    {
        return dropThis("frag-too-big");
    }
    auto it = m_queues.find(key);
    if (it == m_queues.end())
    {
        if (m_memory + length > m_memoryLimit)
        {
            return dropThis("frag-memory");
        }
        it = m_queues.emplace(key, Queue{}).first;
        it->second.created = now;
    }
    Queue& q = it->second;
    // The end of the datagram: fixed by the last fragment; nothing may pass it.
    if ((!more && q.haveLast && end != q.end) || (q.haveLast && end > q.end) ||
        (!more && !q.pieces.empty() &&
         q.pieces.rbegin()->first + q.pieces.rbegin()->second.length > end))
    {
        r.dropped.push_back(original);
        DropQueue(it, "frag-inconsistent", r);
        return r;
    }
    const auto same = q.pieces.find(offset);
    if (same != q.pieces.end() && same->second.length == length)
    {
        return dropThis("frag-duplicate");
    }
    // Overlap with the piece before (it ends past our offset) or the one after (it starts
    // before our end).
    auto next = q.pieces.lower_bound(offset);
    const bool overlapsNext = next != q.pieces.end() && next->first < end;
    const bool overlapsPrev = next != q.pieces.begin() &&
                              std::prev(next)->first + std::prev(next)->second.length > offset;
    if (overlapsNext || overlapsPrev)
    {
        r.dropped.push_back(original);
        DropQueue(it, "frag-overlap", r);
        return r;
    }
    if (m_memory + length > m_memoryLimit)
    {
        return dropThis("frag-memory");
    }
    q.pieces.emplace(offset, Piece{length, data, original});
    q.bytes += length;
    m_memory += length;
    q.maxWire = std::max(q.maxWire, wireBytes);
    if (!more)
    {
        q.haveLast = true;
        q.end = end;
    }
    // Whole when the pieces run from 0 to the last fragment's end without a hole.
    uint32_t covered = 0;
    for (const auto& [o, p] : q.pieces)
    {
        if (o != covered)
        {
            return r; // a hole: QUEUED
        }
        covered += p.length;
    }
    if (!q.haveLast || covered != q.end)
    {
        return r;
    }
    r.kind = Result::COMPLETE;
    r.payload = Create<Packet>();
    for (const auto& [o, p] : q.pieces)
    {
        r.payload->AddAtEnd(p.data);
    }
    r.maxFragmentBytes = q.maxWire;
    r.fragments = static_cast<uint32_t>(q.pieces.size());
    m_memory -= q.bytes;
    m_queues.erase(it);
    return r;
}

std::vector<SlbReassembly::Expired>
SlbReassembly::Expire(Time now)
{
    std::vector<Expired> out;
    for (auto it = m_queues.begin(); it != m_queues.end();)
    {
        if (now - it->second.created >= m_timeout)
        {
            Expired e;
            e.key = it->first;
            for (const auto& [o, p] : it->second.pieces)
            {
                e.dropped.push_back(p.original);
            }
            m_memory -= it->second.bytes;
            out.push_back(std::move(e));
            it = m_queues.erase(it);
        }
        else
        {
            ++it;
        }
    }
    return out;
}

Time
SlbReassembly::NextExpiry() const
{
    Time next = Time::Max();
    for (const auto& [k, q] : m_queues)
    {
        next = std::min(next, q.created + m_timeout);
    }
    return next;
}

std::size_t
SlbReassembly::GetQueues() const
{
    return m_queues.size();
}

uint64_t
SlbReassembly::GetMemory() const
{
    return m_memory;
}

} // namespace ns3
