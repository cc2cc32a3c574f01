/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: TLS termination shared by the proxy engine and the TCP relay (adc-tls-termination.h).
 */

#include "adc-tls-termination.h"

#include "ns3/simulator.h"

namespace ns3
{

namespace
{

/// \param bytes bytes \return them as a packet, null when empty
Ptr<Packet>
PacketOrNull(const std::vector<uint8_t>& bytes)
{
    return bytes.empty() ? nullptr
                         : Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

/// \param p a packet \return its bytes
std::vector<uint8_t>
BytesOf(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    return bytes;
}

} // namespace

// ---- AdcTlsSessionCache ----------------------------------------------------------------------

void
AdcTlsSessionCache::SetTimeout(Time timeout)
{
    m_timeout = timeout;
}

Time
AdcTlsSessionCache::GetTimeout() const
{
    return m_timeout;
}

bool
AdcTlsSessionCache::CanResume(const std::vector<uint8_t>& id, Time now) const
{
    const auto it = m_expiry.find(id);
    return it != m_expiry.end() && now < it->second;
}

void
AdcTlsSessionCache::Remember(const std::vector<uint8_t>& id, Time now)
{
    if (m_expiry.size() % 1024 == 1023)
    {
        for (auto it = m_expiry.begin(); it != m_expiry.end();)
        {
            it = now >= it->second ? m_expiry.erase(it) : std::next(it);
        }
    }
    m_expiry[id] = now + m_timeout;
}

std::size_t
AdcTlsSessionCache::GetSize() const
{
    return m_expiry.size();
}

std::shared_ptr<AdcTlsEndpoint>
AdcTlsSessionCache::MakeServerEndpoint(uint64_t seed) const
{
    AdcTlsEndpoint::Config config;
    config.role = AdcTlsEndpoint::SERVER;
    config.seed = seed;
    config.canResume = [this](const std::vector<uint8_t>& id) {
        return CanResume(id, Simulator::Now());
    };
    return std::make_shared<AdcTlsEndpoint>(config);
}

// ---- AdcTlsRelayCodec ------------------------------------------------------------------------

AdcTlsRelayCodec::AdcTlsRelayCodec(AdcTlsSessionCache& cache,
                                   uint64_t seed,
                                   EstablishedObserver established)
    : m_cache(cache),
      m_tls(cache.MakeServerEndpoint(seed)),
      m_established(std::move(established))
{
}

Ptr<Packet>
AdcTlsRelayCodec::FromClient(Ptr<Packet> bytes, Ptr<Packet>& toClient)
{
    const AdcTlsEndpoint::Result r = m_tls->Receive(BytesOf(bytes));
    toClient = PacketOrNull(r.toPeer);
    if (r.justEstablished)
    {
        if (!m_tls->IsResumed())
        {
            m_cache.Remember(m_tls->GetSessionId(), Simulator::Now());
        }
        if (m_established)
        {
            m_established(*m_tls);
        }
    }
    return PacketOrNull(r.appData);
}

Ptr<Packet>
AdcTlsRelayCodec::FromServer(Ptr<Packet> bytes)
{
    return PacketOrNull(m_tls->Send(BytesOf(bytes)));
}

Ptr<Packet>
AdcTlsRelayCodec::Closing()
{
    // Empty when an alert or the answer to the client's close_notify went already.
    return PacketOrNull(m_tls->Close());
}

std::string
AdcTlsRelayCodec::GetFailure() const
{
    return m_tls->HasFailed() ? m_tls->GetError() : "";
}

const AdcTlsEndpoint&
AdcTlsRelayCodec::GetEndpoint() const
{
    return *m_tls;
}

} // namespace ns3
