/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: what the proxy engine reports: its counters, queue figures and per-flow memory.
 */

#include "adc-proxy-engine.h"

#include <algorithm>

namespace ns3
{

// ---- counters ------------------------------------------------------------------------------

uint64_t
AdcProxyEngine::GetRequests() const
{
    return m_requests;
}

uint64_t
AdcProxyEngine::GetResponsesRelayed() const
{
    return m_relayedCount;
}

uint64_t
AdcProxyEngine::GetServerFailures() const
{
    return m_failures;
}

uint64_t
AdcProxyEngine::GetDrops() const
{
    return m_drops;
}

uint64_t
AdcProxyEngine::GetServerConnectionsOpened() const
{
    return m_opened;
}

uint64_t
AdcProxyEngine::GetServerConnectionsReused() const
{
    return m_reused;
}

uint32_t
AdcProxyEngine::GetOpenFrontConnections() const
{
    return static_cast<uint32_t>(m_fronts.size());
}

uint32_t
AdcProxyEngine::GetOpenServerConnections() const
{
    return static_cast<uint32_t>(m_backs.size());
}

uint32_t
AdcProxyEngine::GetIdleServerConnections() const
{
    return static_cast<uint32_t>(m_pool.GetSize());
}

uint64_t
AdcProxyEngine::GetQueuedBytes() const
{
    uint64_t total = 0;
    for (const auto& kv : m_fronts)
    {
        total += kv.second.out.GetBytes();
    }
    for (const auto& kv : m_backs)
    {
        total += kv.second.out.GetBytes();
    }
    return total;
}

uint64_t
AdcProxyEngine::GetPeakQueuedBytes() const
{
    return m_peakQueue;
}

uint32_t
AdcProxyEngine::GetPeakPipelined() const
{
    return m_peakPipelined;
}

void
AdcProxyEngine::NoteQueue(const AdcTxQueue& q)
{
    m_peakQueue = std::max(m_peakQueue, q.GetBytes());
}

std::size_t
AdcProxyEngine::GetPerFlowStateBytes() const
{
    // Packets in a queue are counted by their payload: the proxy holds those bytes.
    std::size_t total = 0;
    for (const auto& kv : m_fronts)
    {
        const Front& f = kv.second;
        total += sizeof(kv) + kAdcMapNodeOverhead;                               // m_fronts
        total += sizeof(std::pair<Ptr<Socket>, uint64_t>) + kAdcMapNodeOverhead; // m_frontOf
        total += f.pending.size() * sizeof(Request) + f.pendingBody;
        for (const Request& r : f.pending)
        {
            total += r.head.ToWireString().size() + r.body.size() * sizeof(Ptr<Packet>);
        }
        total += f.out.GetNPackets() * sizeof(Ptr<Packet>) + f.out.GetBytes();
        total += f.requests.GetBufferedBytes();
    }
    for (const auto& kv : m_backs)
    {
        const Back& b = kv.second;
        total += sizeof(kv) + kAdcMapNodeOverhead;
        total += sizeof(std::pair<Ptr<Socket>, uint64_t>) + kAdcMapNodeOverhead;
        total += b.decision.target.capacity();
        total += b.out.GetNPackets() * sizeof(Ptr<Packet>) + b.out.GetBytes();
        total += b.responses.GetBufferedBytes();
    }
    return total + m_pool.GetMemoryBytes();
}

} // namespace ns3
