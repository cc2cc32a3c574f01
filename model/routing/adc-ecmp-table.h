/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the family-neutral routing table of per-flow ECMP routing (prefixes,
 * their equal-cost next hops and where each came from). The IPv4 and IPv6 routing protocols
 * (AdcEcmpRouting, AdcEcmpRouting6) wrap it.
 */

#ifndef ADC_ECMP_TABLE_H
#define ADC_ECMP_TABLE_H

#include "adc-ecmp-group.h"

#include "ns3/adc-flow-key.h"
#include "ns3/adc-ip-mask.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Where a route came from. A next hop of a prefix may be there for several origins at
 * once (a static route and a BGP path to the same gateway); it stays in the prefix's group
 * while any origin holds it.
 */
enum class AdcRouteOrigin : uint8_t
{
    STATIC = 0, //!< configured (AddRoute without an origin)
    BGP = 1     //!< learnt from a BGP session
};

/// \param o an origin \return "STATIC" or "BGP"
std::string AdcRouteOriginName(AdcRouteOrigin o);

/**
 * \ingroup adc
 * \brief The routing table of per-flow ECMP: per prefix, every next hop added (with its
 * interface, its origins and whether its interface is up) and the AdcEcmpGroup of the usable
 * ones. Pure logic keyed by AdcIpAddress, so one table serves IPv4 and IPv6.
 *
 * Longest prefix match considers only prefixes with a usable next hop, as a router's
 * forwarding table holds only those: when every next hop of a /32 is down, its traffic
 * follows the covering /16. A next hop keeps its id (its index) for the prefix's life, so a
 * next hop that goes and comes back takes its old place in the group (MODULO: the flows of
 * before map back to it). A prefix with no next hop left for any origin is deleted.
 */
class AdcEcmpTable
{
  public:
    /// One next hop of a prefix.
    struct Hop
    {
        AdcIpAddress gateway; //!< its address
        uint32_t interface;   //!< the interface to it
        uint8_t origins;      //!< bit (1 << origin) set for each origin holding it
        bool up;              //!< its interface is up

        /// \return true when some origin holds it
        bool IsPresent() const;
        /// \param o an origin \return true when \p o holds it
        bool Has(AdcRouteOrigin o) const;
    };

    /// One prefix and its group.
    struct Prefix
    {
        AdcIpAddress network;  //!< the network, masked to length
        AdcIpMask mask;        //!< its mask
        uint8_t length;        //!< prefix length
        std::vector<Hop> hops; //!< every next hop added (id = index)
        AdcEcmpGroup group;    //!< the ids of the hops present and up

        /// \return "network/length"
        std::string Text() const;
    };

    /// A route of one origin that left the table (RemoveVia).
    struct Removed
    {
        std::string prefix;   //!< "network/length"
        AdcIpAddress gateway; //!< its next hop
    };

    /**
     * \param family the family of every address of the table
     */
    explicit AdcEcmpTable(AdcIpAddress::Family family);

    /**
     * \brief Add one next hop of a prefix for one origin (joining the prefix's group when its
     * interface is up).
     * \param network the prefix's network (masked here)
     * \param length its length
     * \param gateway the next hop
     * \param interface the interface to it (kept from the first origin that added it)
     * \param origin who adds it
     * \param interfaceUp whether \p interface is up now
     * \param mode the group's mode, for a new prefix
     * \param buckets the group's buckets, for a new prefix
     * \return false when that origin held that next hop already (nothing changed)
     * \throw AdcConfigError for an address of another family or a length above the family's
     */
    bool Add(const AdcIpAddress& network,
             uint8_t length,
             const AdcIpAddress& gateway,
             uint32_t interface,
             AdcRouteOrigin origin,
             bool interfaceUp,
             AdcEcmpGroup::Mode mode,
             uint32_t buckets);

    /**
     * \brief Remove one origin's next hop of a prefix (the next hop leaves the group when no
     * origin holds it any more).
     * \param network the prefix's network
     * \param length its length
     * \param gateway the next hop
     * \param origin whose route
     * \return true when that origin held it
     */
    bool Remove(const AdcIpAddress& network,
                uint8_t length,
                const AdcIpAddress& gateway,
                AdcRouteOrigin origin);

    /**
     * \brief Remove one origin's routes through a next hop, from every prefix.
     * \param gateway the next hop
     * \param origin whose routes
     * \return the routes removed, in table order
     */
    std::vector<Removed> RemoveVia(const AdcIpAddress& gateway, AdcRouteOrigin origin);

    /**
     * \param dst a destination
     * \return the longest prefix matching \p dst with a usable next hop, or nullptr
     */
    const Prefix* Match(const AdcIpAddress& dst) const;

    /**
     * \param prefix a prefix Match returned
     * \param hash the flow's hash
     * \return the next hop of that flow
     */
    static const Hop& Select(const Prefix& prefix, uint64_t hash);

    /**
     * \brief Put the next hops over \p interface in or out of their groups.
     * \param interface the interface
     * \param up its new state
     */
    void SetInterfaceState(uint32_t interface, bool up);

    /// \return the prefixes, by decreasing length
    const std::vector<Prefix>& GetPrefixes() const;

    /**
     * \param network a network
     * \param length a prefix length
     * \return "network/length", the network masked (e.g. "10.9.0.0/16", "2001:db8:9::/48")
     */
    static std::string Text(const AdcIpAddress& network, uint8_t length);

    /// \return the number of routes (next hop and origin pairs) in the table
    uint32_t GetNRoutes() const;

    /// Remove everything.
    void Clear();

    /**
     * \brief The length of a prefix mask (an IPv4 netmask or IPv6 prefix as written).
     * \param network the route's network, for the error
     * \param mask the mask
     * \return the number of leading one bits
     * \throw AdcConfigError when a one bit follows a zero bit
     */
    static uint8_t PrefixLength(const AdcIpAddress& network, const AdcIpMask& mask);

  private:
    /// \return the prefix, or end()
    std::vector<Prefix>::iterator Find(const AdcIpAddress& net, uint8_t length);
    /// Take \p origin off hop \p id of \p p (its group too when no origin is left).
    static void Drop(Prefix& p, uint32_t id, AdcRouteOrigin origin);
    /// Delete the prefixes no origin holds a next hop of.
    void Prune();

    AdcIpAddress::Family m_family;  //!< the table's family
    std::vector<Prefix> m_prefixes; //!< by decreasing length
};

} // namespace ns3

#endif /* ADC_ECMP_TABLE_H */
