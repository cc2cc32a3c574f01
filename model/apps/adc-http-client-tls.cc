/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the HTTP client's TLS ("Tls"): a client-role AdcTlsEndpoint per connection, the
 * session it resumes ("TlsResume"), and requests wrapped in application_data records.
 */

#include "adc-http-client.h"

#include "ns3/log.h"
#include "ns3/node.h"

#include <cstdio>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpClientTls");

namespace
{

/// \param bytes bytes \return them as a packet
Ptr<Packet>
PacketOf(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

} // namespace

bool
AdcHttpClient::IsReady(const Conn& c)
{
    return c.connected && (!c.tls || c.tls->IsEstablished());
}

void
AdcHttpClient::StartTls(uint64_t cid)
{
    Conn& c = m_conns.at(cid);
    AdcTlsEndpoint::Config config;
    config.role = AdcTlsEndpoint::CLIENT;
    config.serverName = GetHost();
    config.resumeSessionId = m_tlsResume ? m_tlsSession : std::vector<uint8_t>{};
    // Different per client and connection, the same in every run.
    config.seed = 0x5eedc11e47ULL ^ (static_cast<uint64_t>(GetNode()->GetId()) << 32) ^ cid;
    c.tls = std::make_shared<AdcTlsEndpoint>(config);
    const std::vector<uint8_t> hello = c.tls->Start();
    if (c.socket->Send(PacketOf(hello)) < 0)
    {
        DropConn(cid, "connection-reset");
    }
}

Ptr<Packet>
AdcHttpClient::TlsReceive(uint64_t cid, Ptr<Packet> raw)
{
    Conn& c = m_conns.at(cid);
    std::vector<uint8_t> bytes(raw->GetSize());
    raw->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    const AdcTlsEndpoint::Result r = c.tls->Receive(bytes);
    if (!r.toPeer.empty())
    {
        c.socket->Send(PacketOf(r.toPeer));
    }
    if (c.tls->HasFailed())
    {
        NS_LOG_INFO("client: TLS failed: " << c.tls->GetError());
        DropConn(cid, "tls-failed");
        return nullptr;
    }
    if (r.justEstablished)
    {
        m_tlsSession = c.tls->GetSessionId();
        ++m_tlsHandshakes;
        m_tlsResumed += c.tls->IsResumed() ? 1 : 0;
        if (!m_disposing)
        {
            std::string hex;
            char buf[3];
            for (uint8_t b : m_tlsSession)
            {
                std::snprintf(buf, sizeof buf, "%02x", b);
                hex += buf;
            }
            m_tlsTrace(hex, c.tls->IsResumed());
        }
        if (c.current != 0)
        {
            SendOn(cid, c.current); // the request that opened the connection
        }
    }
    return r.appData.empty() ? nullptr : PacketOf(r.appData);
}

Ptr<Packet>
AdcHttpClient::TlsWrap(Conn& c, Ptr<Packet> p)
{
    if (!c.tls)
    {
        return p;
    }
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    return PacketOf(c.tls->Send(bytes));
}

uint64_t
AdcHttpClient::GetTlsHandshakes() const
{
    return m_tlsHandshakes;
}

uint64_t
AdcHttpClient::GetTlsResumed() const
{
    return m_tlsResumed;
}

} // namespace ns3
