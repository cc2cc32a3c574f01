/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the DNS-over-UDP probe kind of the ldns-dns monitor, which measures the round
 * trip to a local DNS server (LDNS) with a real RFC 1035 query.
 */

#ifndef GSLB_DNS_PROBE_H
#define GSLB_DNS_PROBE_H

#include "ns3/adc-health-probe-socket.h"
#include "ns3/adc-health-probe.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/node.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A health-probe kind that asks a DNS server one question over UDP, as NetScaler's
 * LDNS-DNS monitor does to measure the round trip to a client's local DNS server.
 *
 * Each probe is one datagram from its own ephemeral port to the target's port (the monitor's
 * DestinationPort, 53 for ldns-dns): a standard query (RFC 1035 section 4.1) with one
 * question, QNAME from the constructor, QTYPE A, QCLASS IN, RD = 0 (the LDNS is asked, not
 * asked to recurse) and an ID that differs from probe to probe: a counter seeded with the
 * monitor's instance id at Start, so runs are reproducible.
 *
 * Outcomes (Report):
 * - a DNS response (QR = 1) with the query's ID from the target: success, reason
 *   "dns-rcode-" + AdcDnsMessage::RcodeName(RCODE), e.g. "dns-rcode-NOERROR",
 *   "dns-rcode-NXDOMAIN", "dns-rcode-REFUSED" ("dns-rcode-RCODE9" above 5). Any RCODE counts:
 *   the LDNS answered;
 * - an ICMP or ICMPv6 port unreachable quoting the query (delivered by the node's UDP layer to
 *   the probe's socket, as the UDP kind reads it): failure, "icmp-port-unreachable"; other
 *   ICMP errors: failure, "icmp-host-unreachable", "icmp-net-unreachable", ...;
 * - nothing: the monitor's "timeout" (silence is failure for this kind).
 * Unusable datagrams are dropped with a reason and the probe keeps waiting:
 * "dns-malformed" (not a valid DNS message; shorter than the 12-byte header included),
 * "dns-not-response" (QR = 0) and "dns-wrong-id" (another ID).
 */
class GslbDnsProbe : public AdcUdpSocketProbe
{
  public:
    /// The default QNAME: the root, which any DNS server answers or refuses at once.
    static const std::string kDefaultQname;

    /**
     * \param qname the name asked for (text form; "." or "" is the root)
     * \throws AdcConfigError naming the qname when it is not a valid domain name
     */
    explicit GslbDnsProbe(const std::string& qname = kDefaultQname);

    /// \return the QNAME asked for, canonical text ("." for the root)
    const std::string& GetQname() const;

    /**
     * \brief Send one query to \p target (its address and port).
     * \param index the target's index in the monitor
     * \param target where to send it
     */
    void Send(uint32_t index, const Target& target) override;

    /// \return the ID the next query will carry
    uint16_t GetNextId() const;

  protected:
    /// Seed the ID counter with the instance id.
    void DoStart() override;
    /// Forget the query's ID, then detach the ICMP callbacks (AdcUdpSocketProbe).
    void OnRelease(uint32_t index, Ptr<Socket> socket) override;
    /// Datagrams for the probe (\p index, \p serial): the first usable response ends it.
    void Received(uint32_t index, uint64_t serial, Ptr<Socket> socket) override;

  private:
    /**
     * \brief Judge one datagram.
     * \param index the target's index
     * \param packet the datagram
     * \return true when it was the answer (the probe is finished)
     */
    bool Judge(uint32_t index, Ptr<Packet> packet);

    std::string m_qname;                //!< QNAME
    uint16_t m_nextId{0};               //!< ID of the next query
    std::map<uint32_t, uint16_t> m_ids; //!< ID of the query in flight, by target index
};

/**
 * \ingroup adc
 * \param qname the QNAME the queries ask for ("." for the root)
 * \return a DNS-over-UDP probe kind (for AdcHealthMonitor::SetProbe)
 * \throws AdcConfigError naming the qname when it is not a valid domain name
 */
Ptr<AdcHealthProbe> GslbMakeDnsProbe(const std::string& qname);

} // namespace ns3

#endif /* GSLB_DNS_PROBE_H */
