/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-ecmp-table.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

namespace
{

/// \return the origin's bit
uint8_t
Bit(AdcRouteOrigin o)
{
    return static_cast<uint8_t>(1u << static_cast<uint8_t>(o));
}

} // namespace

std::string
AdcRouteOriginName(AdcRouteOrigin o)
{
    return o == AdcRouteOrigin::BGP ? "BGP" : "STATIC";
}

bool
AdcEcmpTable::Hop::IsPresent() const
{
    return origins != 0;
}

bool
AdcEcmpTable::Hop::Has(AdcRouteOrigin o) const
{
    return (origins & Bit(o)) != 0;
}

std::string
AdcEcmpTable::Prefix::Text() const
{
    return AdcEcmpTable::Text(network, length);
}

std::string
AdcEcmpTable::Text(const AdcIpAddress& network, uint8_t length)
{
    return network.Masked(length).ToString() + "/" + std::to_string(length);
}

AdcEcmpTable::AdcEcmpTable(AdcIpAddress::Family family)
    : m_family(family)
{
}

std::vector<AdcEcmpTable::Prefix>::iterator
AdcEcmpTable::Find(const AdcIpAddress& net, uint8_t length)
{
    return std::find_if(m_prefixes.begin(), m_prefixes.end(), [&](const Prefix& p) {
        return p.length == length && p.network == net;
    });
}

bool
AdcEcmpTable::Add(const AdcIpAddress& network,
                  uint8_t length,
                  const AdcIpAddress& gateway,
                  uint32_t interface,
                  AdcRouteOrigin origin,
                  bool interfaceUp,
                  AdcEcmpGroup::Mode mode,
                  uint32_t buckets)
{
    const uint32_t maxLength = m_family == AdcIpAddress::V6 ? 128 : 32;
    const char* familyName = m_family == AdcIpAddress::V6 ? "IPv6" : "IPv4";
    if (network.GetFamily() != m_family || gateway.GetFamily() != m_family)
    {
        std::ostringstream os;
        os << "AdcEcmpRouting: route " << network << " via " << gateway
           << ": an address of another family; allowed: " << familyName << " addresses";
        throw AdcConfigError(os.str());
    }
    if (length > maxLength)
    {
        std::ostringstream os;
        os << "AdcEcmpRouting: route " << network << " prefix length "
           << static_cast<uint32_t>(length) << "; allowed: 0 to " << maxLength;
        throw AdcConfigError(os.str());
    }
    const AdcIpAddress net = network.Masked(length);
    auto it = Find(net, length);
    if (it == m_prefixes.end())
    {
        // Keep the prefixes by decreasing length: the first match is the longest.
        auto pos = std::find_if(m_prefixes.begin(), m_prefixes.end(), [&](const Prefix& q) {
            return q.length < length;
        });
        it = m_prefixes.insert(pos,
                               Prefix{net,
                                      AdcIpMask::FromPrefixLength(m_family, length),
                                      length,
                                      {},
                                      AdcEcmpGroup(mode, buckets)});
    }
    auto hop = std::find_if(it->hops.begin(), it->hops.end(), [&](const Hop& h) {
        return h.gateway == gateway;
    });
    if (hop == it->hops.end())
    {
        hop = it->hops.insert(it->hops.end(), Hop{gateway, interface, 0, interfaceUp});
    }
    else if (hop->Has(origin))
    {
        return false;
    }
    else if (!hop->IsPresent())
    {
        // A next hop coming back (same id): through the interface given now.
        hop->interface = interface;
        hop->up = interfaceUp;
    }
    hop->origins |= Bit(origin);
    if (hop->up)
    {
        it->group.Add(static_cast<uint32_t>(hop - it->hops.begin()));
    }
    return true;
}

void
AdcEcmpTable::Drop(Prefix& p, uint32_t id, AdcRouteOrigin origin)
{
    Hop& h = p.hops[id];
    h.origins &= static_cast<uint8_t>(~Bit(origin));
    if (!h.IsPresent())
    {
        p.group.Remove(id);
    }
}

void
AdcEcmpTable::Prune()
{
    m_prefixes.erase(
        std::remove_if(m_prefixes.begin(),
                       m_prefixes.end(),
                       [](const Prefix& p) {
                           return std::none_of(p.hops.begin(), p.hops.end(), [](const Hop& h) {
                               return h.IsPresent();
                           });
                       }),
        m_prefixes.end());
}

bool
AdcEcmpTable::Remove(const AdcIpAddress& network,
                     uint8_t length,
                     const AdcIpAddress& gateway,
                     AdcRouteOrigin origin)
{
    auto it = Find(network.Masked(length), length);
    if (it == m_prefixes.end())
    {
        return false;
    }
    for (uint32_t i = 0; i < it->hops.size(); ++i)
    {
        if (it->hops[i].gateway == gateway && it->hops[i].Has(origin))
        {
            Drop(*it, i, origin);
            Prune();
            return true;
        }
    }
    return false;
}

std::vector<AdcEcmpTable::Removed>
AdcEcmpTable::RemoveVia(const AdcIpAddress& gateway, AdcRouteOrigin origin)
{
    std::vector<Removed> out;
    for (Prefix& p : m_prefixes)
    {
        for (uint32_t i = 0; i < p.hops.size(); ++i)
        {
            if (p.hops[i].gateway == gateway && p.hops[i].Has(origin))
            {
                Drop(p, i, origin);
                out.push_back(Removed{p.Text(), gateway});
            }
        }
    }
    Prune();
    return out;
}

const AdcEcmpTable::Prefix*
AdcEcmpTable::Match(const AdcIpAddress& dst) const
{
    for (const Prefix& p : m_prefixes)
    {
        if (!p.group.IsEmpty() && p.mask.IsMatch(dst, p.network))
        {
            return &p;
        }
    }
    return nullptr;
}

const AdcEcmpTable::Hop&
AdcEcmpTable::Select(const Prefix& prefix, uint64_t hash)
{
    return prefix.hops[prefix.group.Select(hash)];
}

void
AdcEcmpTable::SetInterfaceState(uint32_t interface, bool up)
{
    for (Prefix& p : m_prefixes)
    {
        for (uint32_t i = 0; i < p.hops.size(); ++i)
        {
            Hop& h = p.hops[i];
            if (h.interface != interface || h.up == up)
            {
                continue;
            }
            h.up = up;
            if (up && h.IsPresent())
            {
                p.group.Add(i);
            }
            else if (!up)
            {
                p.group.Remove(i);
            }
        }
    }
}

const std::vector<AdcEcmpTable::Prefix>&
AdcEcmpTable::GetPrefixes() const
{
    return m_prefixes;
}

uint32_t
AdcEcmpTable::GetNRoutes() const
{
    uint32_t n = 0;
    for (const Prefix& p : m_prefixes)
    {
        for (const Hop& h : p.hops)
        {
            n += static_cast<uint32_t>(__builtin_popcount(h.origins));
        }
    }
    return n;
}

uint8_t
AdcEcmpTable::PrefixLength(const AdcIpAddress& network, const AdcIpMask& mask)
{
    const uint8_t length = mask.GetPrefixLength();
    if (mask != AdcIpMask::FromPrefixLength(mask.GetFamily(), length))
    {
        throw AdcConfigError("AdcEcmpRouting: route " + mask.Format(network) +
                             ": the mask is not contiguous; allowed: a prefix mask (leading one "
                             "bits only), such as 255.255.0.0 or an IPv6 prefix length");
    }
    return length;
}

void
AdcEcmpTable::Clear()
{
    m_prefixes.clear();
}

} // namespace ns3
