/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the proxy engine's TLS termination on client connections ("Tls"): a server-role
 * AdcTlsEndpoint per connection, the session cache that resumption looks up, and the wrapping
 * of what the engine sends to the client in application_data records.
 */

#include "adc-proxy-engine.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcProxyEngineTls");

namespace
{

/// \param bytes bytes \return them as a packet
Ptr<Packet>
PacketOf(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

/// \param id bytes \return them in lowercase hex
std::string
Hex(const std::vector<uint8_t>& id)
{
    std::string out;
    char buf[3];
    for (uint8_t b : id)
    {
        std::snprintf(buf, sizeof buf, "%02x", b);
        out += buf;
    }
    return out;
}

} // namespace

void
AdcProxyEngine::StartFrontTls(Front& f)
{
    m_tlsCache.SetTimeout(m_tlsSessionTimeout);
    // Different per engine (seed, node) and per connection, the same in every run.
    f.tls = m_tlsCache.MakeServerEndpoint(
        m_tlsSeed * 0x9e3779b97f4a7c15ULL ^
        (static_cast<uint64_t>(m_node ? m_node->GetId() : 0) << 40) ^ f.info.id);
}

Ptr<Packet>
AdcProxyEngine::FrontTlsReceive(Front& f, Ptr<Packet> raw)
{
    std::vector<uint8_t> bytes(raw->GetSize());
    raw->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    const AdcTlsEndpoint::Result r = f.tls->Receive(bytes);
    if (!r.toPeer.empty())
    {
        f.out.Push(PacketOf(r.toPeer)); // handshake flights and alerts, as they are
        NoteQueue(f.out);
    }
    if (r.justEstablished)
    {
        const std::vector<uint8_t>& id = f.tls->GetSessionId();
        f.info.tlsSessionId.assign(id.begin(), id.end());
        f.info.tlsResumed = f.tls->IsResumed();
        f.info.tlsServerName = f.tls->GetServerName();
        ++m_tlsHandshakes;
        m_tlsResumed += f.tls->IsResumed() ? 1 : 0;
        if (!f.tls->IsResumed())
        {
            // A new session is resumable for TlsSessionTimeout from its creation.
            m_tlsCache.Remember(id, Simulator::Now());
        }
        if (!m_quiet)
        {
            m_tlsHandshakeTrace(AdcEndpointText(f.info.peerIp, f.info.peerPort),
                                Hex(id),
                                f.tls->IsResumed());
        }
    }
    if (f.tls->HasFailed() && !f.readStopped)
    {
        ++m_tlsFailures;
        Drop("tls: " + f.tls->GetError());
        f.readStopped = true;      // nothing after a fatal alert is read
        f.closeWhenFlushed = true; // the alert goes out, then the connection closes
    }
    return r.appData.empty() ? nullptr : PacketOf(r.appData);
}

void
AdcProxyEngine::PushToClient(Front& f, Ptr<Packet> p)
{
    if (!f.tls)
    {
        f.out.Push(p);
        return;
    }
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    const std::vector<uint8_t> records = f.tls->Send(bytes);
    if (!records.empty())
    {
        f.out.Push(PacketOf(records));
    }
}

uint64_t
AdcProxyEngine::GetTlsHandshakes() const
{
    return m_tlsHandshakes;
}

uint64_t
AdcProxyEngine::GetTlsResumed() const
{
    return m_tlsResumed;
}

uint64_t
AdcProxyEngine::GetTlsFailures() const
{
    return m_tlsFailures;
}

} // namespace ns3
