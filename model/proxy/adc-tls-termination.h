/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: TLS termination shared by the proxy engine (SSL virtual servers) and the TCP relay
 * (SSL_TCP virtual servers): the session cache that resumption looks up, server-role endpoints
 * made from it, and the relay codec that terminates TLS on a relayed connection's client side.
 */

#ifndef ADC_TLS_TERMINATION_H
#define ADC_TLS_TERMINATION_H

#include "adc-tcp-relay.h"

#include "ns3/adc-tls-endpoint.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The session cache of a TLS-terminating virtual server (NetScaler's SSL session
 * reuse): a session ID issued at time t can be resumed until t + the timeout (the SSL profile's
 * -sessTimeout, 120 s by default), not later; a resumption does not extend it.
 *
 * Expired IDs are pruned every 1,024 new sessions, so the cache stays bounded by the sessions
 * of one timeout without a scan per handshake.
 */
class AdcTlsSessionCache
{
  public:
    /// \param timeout how long an issued ID can be resumed
    void SetTimeout(Time timeout);
    /// \return the timeout
    Time GetTimeout() const;

    /**
     * \param id a session ID
     * \param now the current time
     * \return true when \p id was issued less than the timeout before \p now
     */
    bool CanResume(const std::vector<uint8_t>& id, Time now) const;

    /**
     * \brief Note a new session.
     * \param id its ID
     * \param now when it was issued
     */
    void Remember(const std::vector<uint8_t>& id, Time now);

    /// \return IDs held (expired ones not yet pruned included)
    std::size_t GetSize() const;

    /**
     * \brief A server-role endpoint whose resumption asks this cache (which must outlive it).
     * \param seed the endpoint's seed (AdcTlsEndpoint::Config::seed)
     * \return the endpoint
     */
    std::shared_ptr<AdcTlsEndpoint> MakeServerEndpoint(uint64_t seed) const;

  private:
    Time m_timeout{Seconds(120)};                  //!< resumable for this long
    std::map<std::vector<uint8_t>, Time> m_expiry; //!< ID -> when it stops being resumable
};

/**
 * \ingroup adc
 * \brief Terminates TLS on the client side of one AdcTcpRelay connection (NetScaler's SSL_TCP:
 * TLS offload for any TCP protocol): the client's records go into a server-role AdcTlsEndpoint,
 * its handshake flights and alerts go back to the client, the application data it carries goes
 * to the server in clear, and the server's bytes go to the client in application_data records.
 * The relay's server side opens when its destination chooser decides, which for SSL_TCP is once
 * the handshake completed (IsEstablished), so the decision can use the session ID.
 */
class AdcTlsRelayCodec : public AdcTcpRelay::Codec
{
  public:
    /// Told once when the handshake completes: this codec's endpoint.
    using EstablishedObserver = std::function<void(const AdcTlsEndpoint&)>;

    /**
     * \param cache the session cache (must outlive the codec)
     * \param seed the endpoint's seed
     * \param established told when the handshake completes (may be empty)
     */
    AdcTlsRelayCodec(AdcTlsSessionCache& cache, uint64_t seed, EstablishedObserver established);

    Ptr<Packet> FromClient(Ptr<Packet> bytes, Ptr<Packet>& toClient) override;
    Ptr<Packet> FromServer(Ptr<Packet> bytes) override;
    Ptr<Packet> Closing() override;
    std::string GetFailure() const override;

    /// \return the endpoint
    const AdcTlsEndpoint& GetEndpoint() const;

  private:
    AdcTlsSessionCache& m_cache;           //!< the session cache
    std::shared_ptr<AdcTlsEndpoint> m_tls; //!< the server-role endpoint
    EstablishedObserver m_established;     //!< told at the handshake's end
};

} // namespace ns3

#endif /* ADC_TLS_TERMINATION_H */
