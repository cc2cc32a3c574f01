/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: how a proxy picks the source of a server-side connection (NetScaler's mapped IP,
 * or the client's own IP with a port from an exclusive range), as an object the proxy engine
 * asks instead of a side channel.
 */

#ifndef ADC_SOURCE_ADDRESS_POLICY_H
#define ADC_SOURCE_ADDRESS_POLICY_H

#include "ns3/adc-flow-key.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The source address and port of a proxy's server-side connections.
 *
 * - MAPPED_IP: a fixed address of the appliance ("MappedIp": NetScaler's MIP or SNIP), so the
 *   server answers the appliance whatever client the request came from.
 * - CLIENT_IP: the client's own address (NetScaler's USIP), so the server sees the client; the
 *   appliance does not own that address, so its routing hook must give it to the connection
 *   and the server's replies must come back by port: a port from the exclusive range
 *   "PortRange" is required ("UsePortRange", NetScaler's "use port range").
 *
 * A connection takes a lease: Bind binds its socket (a port of the range, skipping one the
 * stack still holds, or an ephemeral port), Connect registers the connection's source with
 * the node's AdcPolicyRouting (AddOutputSource: an explicit mapping, removed when the lease
 * ends) and connects, Release gives the registration and the port back when the connection
 * ends. Every lease taken fires "Leased", every one given back "Released", and a range with no
 * free port fires "Exhausted".
 */
class AdcSourceAddressPolicy : public Object
{
  public:
    /// Where the source address comes from.
    enum Mode
    {
        MAPPED_IP, //!< the appliance's "MappedIp"
        CLIENT_IP  //!< the client's address (USIP)
    };

    /// One connection's source, from Bind to Release.
    struct Lease
    {
        Ipv4Address source;                     //!< the connection's source address
        uint16_t port{0};                       //!< its source port
        bool fromRange{false};                  //!< the port is the range's (released with it)
        std::optional<AdcFlowKey> registration; //!< what Connect registered with the routing
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcSourceAddressPolicy();
    ~AdcSourceAddressPolicy() override;

    /**
     * \brief Signature of "Leased" and "Released".
     * \param source the connection's source address
     * \param port its source port
     */
    typedef void (*LeaseTracedCallback)(Ipv4Address source, uint16_t port);

    /**
     * \brief Signature of "Exhausted": no port of the range could be bound.
     * \param source the address a connection was wanted from
     */
    typedef void (*ExhaustedTracedCallback)(Ipv4Address source);

    /// \param routing the node's AdcPolicyRouting (required for CLIENT_IP)
    void SetRouting(Ptr<AdcPolicyRouting> routing);
    /// \return the routing protocol set by SetRouting
    Ptr<AdcPolicyRouting> GetRouting() const;
    /// \return the allocator of "PortRange"
    Ptr<AdcPortAllocator> GetPortAllocator() const;
    /// \return "Mode"
    Mode GetMode() const;

    /**
     * \param client the client a connection is opened for
     * \return the source address that connection uses: "MappedIp", or \p client
     */
    Ipv4Address GetSourceFor(Ipv4Address client) const;

    /**
     * \brief Throw AdcConfigError when the policy cannot work.
     * \param who how messages name the owner, e.g. "CrdLowerTierAppliance L2NS1"
     */
    void CheckConfig(const std::string& who) const;

    /**
     * \brief Bind \p s for a connection on behalf of \p client.
     * \param s an unbound TCP socket
     * \param client the client
     * \param exhausted [out] true when it failed because no port of the range was free
     * \return the lease, or nothing when it failed
     */
    std::optional<Lease> Bind(Ptr<Socket> s, Ipv4Address client, bool* exhausted);

    /**
     * \brief Register the lease's connection with the routing hook and connect \p s.
     * \param lease from Bind with the same socket
     * \param s the socket
     * \param server where to connect
     * \return false when Connect failed at once (nothing stays registered)
     */
    bool Connect(Lease& lease, Ptr<Socket> s, const InetSocketAddress& server);

    /**
     * \brief The connection ended: remove its registration and free its port.
     * \param lease the lease (emptied; a second call does nothing)
     * \param quiet true while disposing: no "Released" trace (its listeners may be gone)
     */
    void Release(Lease& lease, bool quiet = false);

    /// \return leases taken and not released
    uint32_t GetOpenLeases() const;

  protected:
    void DoDispose() override;

  private:
    /// \param text "FIRST-LAST" for "PortRange"
    void SetPortRange(std::string text);
    /// \return "PortRange" as text
    std::string GetPortRange() const;

    Mode m_mode;                     //!< "Mode"
    Ipv4Address m_mappedIp;          //!< "MappedIp"
    bool m_usePortRange;             //!< "UsePortRange"
    Ptr<AdcPortAllocator> m_ports;   //!< the range's allocator
    Ptr<AdcPolicyRouting> m_routing; //!< the node's routing hook
    uint32_t m_open;                 //!< see GetOpenLeases

    TracedCallback<Ipv4Address, uint16_t> m_leasedTrace;   //!< "Leased"
    TracedCallback<Ipv4Address, uint16_t> m_releasedTrace; //!< "Released"
    TracedCallback<Ipv4Address> m_exhaustedTrace;          //!< "Exhausted"
};

} // namespace ns3

#endif /* ADC_SOURCE_ADDRESS_POLICY_H */
