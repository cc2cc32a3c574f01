/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc datapath: a network mask of either IP family, so that rules (policy routing) can
 * name IPv4 and IPv6 networks with one field.
 */

#ifndef ADC_IP_MASK_H
#define ADC_IP_MASK_H

#include "ns3/adc-flow-key.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A network mask of IPv4 or IPv6, or "any" (the default): with a network address it
 * says which addresses a rule matches.
 *
 * Built from an Ipv4Mask or an Ipv6Prefix (implicitly, so `rule.dstMask = Ipv4Mask(...)`
 * keeps working) or from a prefix length. A mask without any bit set matches every address of
 * every family; any other mask matches only addresses of its own family whose masked bits
 * equal the network's. Masks need not be contiguous (as Ipv4Mask).
 */
class AdcIpMask
{
  public:
    /// The mask that matches every address of every family.
    AdcIpMask();
    /// \param mask an IPv4 netmask (zero: every address)
    AdcIpMask(Ipv4Mask mask); // NOLINT(google-explicit-constructor): masks convert freely
    /// \param prefix an IPv6 prefix (length 0: every address)
    AdcIpMask(Ipv6Prefix prefix); // NOLINT(google-explicit-constructor)

    /**
     * \param family V4 or V6
     * \param length leading one bits
     * \return the mask
     * \throws AdcConfigError for family NONE or a length over 32 (IPv4) / 128 (IPv6)
     */
    static AdcIpMask FromPrefixLength(AdcIpAddress::Family family, uint8_t length);

    /// \return V4 or V6; NONE for the default mask
    AdcIpAddress::Family GetFamily() const;
    /// \return true when no bit is set: every address of every family matches
    bool IsAny() const;
    /// \return the number of leading one bits
    uint8_t GetPrefixLength() const;

    /**
     * \param address an address
     * \param network the network (of this mask's family unless IsAny())
     * \return true when \p address lies in \p network under this mask
     */
    bool IsMatch(const AdcIpAddress& address, const AdcIpAddress& network) const
    {
        if (m_any)
        {
            return true;
        }
        if (address.GetFamily() != m_family)
        {
            return false;
        }
        const auto& a = address.GetBytes();
        const auto& n = network.GetBytes();
        for (uint8_t i = 0; i < m_length; ++i)
        {
            if (((a[i] ^ n[i]) & m_bytes[i]) != 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * \param network a network
     * \return "any" for a mask without bits set, else "network/length" (e.g. "10.0.0.0/8",
     * "2001:db8::/32"), or "network/mask" for a non-contiguous IPv4 mask
     */
    std::string Format(const AdcIpAddress& network) const;

    /// \param o another mask \return true when both have the same family and bits
    bool operator==(const AdcIpMask& o) const;
    /// \param o another mask \return true when they differ
    bool operator!=(const AdcIpMask& o) const;

  private:
    std::array<uint8_t, 16> m_bytes{};                 //!< mask bits (IPv4 in the first 4)
    AdcIpAddress::Family m_family{AdcIpAddress::NONE}; //!< V4, V6 or NONE (default)
    uint8_t m_length{0};                               //!< meaningful bytes: 4, 16 or 0
    bool m_any{true};                                  //!< no bit set
};

/// \param os a stream \param mask a mask \return \p os, with "/length" or "any"
std::ostream& operator<<(std::ostream& os, const AdcIpMask& mask);

} // namespace ns3

#endif /* ADC_IP_MASK_H */
