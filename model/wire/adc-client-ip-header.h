/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the client-IP request header (X-Forwarded-For and the like).
 */

#ifndef ADC_CLIENT_IP_HEADER_H
#define ADC_CLIENT_IP_HEADER_H

#include "ns3/ipv4-address.h"

#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Reads and writes the header that carries a client's IP address across a proxy.
 *
 * NetScaler's "-cip ENABLED <header>" inserts the client IP into a named request header
 * (X-Forwarded-For by default in this model). A proxy that appends to an existing
 * X-Forwarded-For list puts the original client first ("client, proxy1, proxy2"), so the
 * client is the first list item. Parsing is strict: four decimal octets of at most three
 * digits each, nothing else (Ipv4Address's own parser accepts anything), and an address that
 * cannot be a client (0.0.0.0, the broadcast address, multicast) is refused.
 */
class AdcClientIpHeader
{
  public:
    /**
     * \brief Strict dotted-quad parser.
     * \param text e.g. "10.1.0.9"
     * \return the address, or nullopt when \p text is not exactly four decimal octets or is
     * 0.0.0.0, 255.255.255.255 or multicast
     */
    static std::optional<Ipv4Address> ParseAddress(const std::string& text);

    /**
     * \brief The client address of a header value: its first list item, trimmed of spaces
     * and tabs, parsed with ParseAddress.
     * \param value e.g. "10.1.0.9, 192.0.2.7"
     * \return the client address, or nullopt when the first item is not one
     */
    static std::optional<Ipv4Address> ParseValue(const std::string& value);

    /**
     * \param value a comma-separated header value
     * \return its first item without leading and trailing spaces and tabs
     */
    static std::string FirstListItem(const std::string& value);

    /**
     * \param name a header name
     * \return true when \p name is an HTTP token (RFC 9110 section 5.6.2), so it can name a
     * header
     */
    static bool IsToken(const std::string& name);

    /**
     * \param a an address
     * \return its dotted-quad text, the form ParseAddress reads back
     */
    static std::string Format(Ipv4Address a);
};

} // namespace ns3

#endif /* ADC_CLIENT_IP_HEADER_H */
