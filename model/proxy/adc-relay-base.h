/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: what the TCP and UDP relays share: the listening socket and its lifecycle, the
 * fixed destination, relay ids, the "Closed" trace, the end observer and the byte counters.
 */

#ifndef ADC_RELAY_BASE_H
#define ADC_RELAY_BASE_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief What AdcTcpRelay and AdcUdpRelay share: a socket listening on ANY:"Port", opened at
 * start after the relay's configuration check and closed at stop; the fixed "Destination";
 * relay (or session) ids from 1; the "Closed" trace and the end observer; the byte counters.
 *
 * StopApplication closes the listening socket the way the relay needs (CloseListener), then
 * ends every open relay or session with outcome "stopped" in ascending key order, so a stop is
 * deterministic. DoDispose does the same with no packet sent and no trace fired (the node's
 * stack and the trace listeners may be gone).
 *
 * The attributes and trace sources on these members are registered by each relay's own TypeId
 * ("ns3::AdcTcpRelay::Port", "ns3::AdcUdpRelay::Closed", ...), because their defaults and help
 * differ; this TypeId declares none.
 */
class AdcRelayBase : public Application
{
  public:
    /// Told when a relay (or session) ends: its id, its "Closed" outcome.
    using EndObserver = std::function<void(uint64_t, const std::string&)>;

    /// \return the TypeId
    static TypeId GetTypeId();
    ~AdcRelayBase() override;

    /**
     * \brief Signature of "Closed": a relay (or session) ended.
     * \param client the client's address and port (InetSocketAddress)
     * \param destination the server's address and port (InetSocketAddress)
     * \param toServer what was handed on from the client to the server: bytes (AdcTcpRelay)
     *        or datagrams (AdcUdpRelay)
     * \param toClient what was handed on from the server to the client, likewise
     * \param outcome why it ended; each relay's class documentation lists its outcomes
     */
    typedef void (*ClosedTracedCallback)(const Address& client,
                                         const Address& destination,
                                         uint64_t toServer,
                                         uint64_t toClient,
                                         const std::string& outcome);

    /// \param observer told when each relay (or session) ends (empty: none)
    void SetEndObserver(EndObserver observer);

    /// \return payload bytes handed on from clients to servers
    uint64_t GetBytesToServer() const;
    /// \return payload bytes handed on from servers to clients
    uint64_t GetBytesToClient() const;

    /**
     * \brief The relay uses no random variables.
     * \param stream first stream index
     * \return 0, the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    /// \param port the relay's "Port" default
    explicit AdcRelayBase(uint16_t port);

    void DoDispose() override;

    /// \param a an address \return true when it belongs to this node
    bool IsOwnAddress(Ipv4Address a) const;

    /// Fire "Closed" and tell the end observer about relay \p id, unless disposing.
    void ReportEnd(uint64_t id,
                   const Address& client,
                   const Address& destination,
                   uint64_t toServer,
                   uint64_t toClient,
                   const std::string& outcome);

    /// \param m a map keyed by uint64_t \return its keys, ascending
    template <class Map>
    static std::vector<uint64_t> KeysOf(const Map& m)
    {
        std::vector<uint64_t> keys;
        keys.reserve(m.size());
        for (const auto& kv : m)
        {
            keys.push_back(kv.first);
        }
        return keys;
    }

    uint16_t m_port;           //!< "Port": listened on for any address
    Address m_destination;     //!< "Destination": the fixed server (empty: none)
    Ptr<Socket> m_listen;      //!< listening socket (null while stopped)
    uint64_t m_nextId;         //!< next relay (or session) id (from 1)
    bool m_disposing;          //!< in DoDispose: no traces, no packets
    uint64_t m_bytesToServer;  //!< see GetBytesToServer
    uint64_t m_bytesToClient;  //!< see GetBytesToClient
    EndObserver m_endObserver; //!< SetEndObserver
    TracedCallback<const Address&, const Address&, uint64_t, uint64_t, const std::string&>
        m_closedTrace; //!< "Closed"

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Throw AdcConfigError on an unusable configuration (checked at every start).
    virtual void CheckConfig() const = 0;
    /**
     * \brief Open the listening socket on ANY:"Port", its callbacks set.
     * \return the socket
     * \throws AdcConfigError when the port cannot be bound
     */
    virtual Ptr<Socket> Listen() = 0;
    /// Stop \p listen, the listening socket, at stop; while disposing, without sending.
    virtual void CloseListener(Ptr<Socket> listen) = 0;
    /// \return the keys of the open relays (or sessions), ascending
    virtual std::vector<uint64_t> OpenKeys() const = 0;
    /// End the relay (or session) \p key with \p outcome.
    virtual void End(uint64_t key, const std::string& outcome) = 0;
};

} // namespace ns3

#endif /* ADC_RELAY_BASE_H */
