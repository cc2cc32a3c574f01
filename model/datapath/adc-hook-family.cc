/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: AdcHookFamily, what the datapath hook and the ECMP routing need to know of IPv4 and
 * IPv6 (addresses, headers, forwarding), one template for both.
 */

#include "adc-datapath-hook.h"

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-list-routing.h"
#include "ns3/ipv6.h"

namespace ns3
{

template <bool V6>
typename AdcHookFamily<V6>::Address
AdcHookFamily<V6>::Get(const AdcIpAddress& a)
{
    if constexpr (V6)
    {
        return a.GetIpv6();
    }
    else
    {
        return a.GetIpv4();
    }
}

template <bool V6>
bool
AdcHookFamily<V6>::IsSet(const Address& a)
{
    if constexpr (V6)
    {
        return !a.IsAny();
    }
    else
    {
        return a.IsInitialized() && !a.IsAny();
    }
}

template <bool V6>
typename AdcHookFamily<V6>::Address
AdcHookFamily<V6>::InterfaceSource(const Ptr<Ip>& ip, uint32_t interface, const Address& dst)
{
    if constexpr (V6)
    {
        return ip->SourceAddressSelection(interface, dst);
    }
    else
    {
        return ip->GetNAddresses(interface) > 0 ? ip->GetAddress(interface, 0).GetLocal()
                                                : Ipv4Address::GetAny();
    }
}

template <bool V6>
bool
AdcHookFamily<V6>::IsLaterFragment(const Header& header)
{
    if constexpr (V6)
    {
        return false;
    }
    else
    {
        return header.GetFragmentOffset() != 0;
    }
}

template <bool V6>
bool
AdcHookFamily<V6>::IgnoreOutput(const Address& dst)
{
    if constexpr (V6)
    {
        return dst.IsMulticast() || dst.IsLinkLocal();
    }
    else
    {
        return false;
    }
}

template <bool V6>
bool
AdcHookFamily<V6>::Ignore(const Ptr<Ip>& ip,
                          const Header& header,
                          Ptr<const NetDevice> idev,
                          bool listDelivers)
{
    const Address dst = header.GetDestination();
    if constexpr (V6)
    {
        return dst.IsMulticast() || dst.IsLinkLocal();
    }
    else
    {
        if (dst.IsMulticast() || dst.IsBroadcast())
        {
            return true;
        }
        if (listDelivers)
        {
            // Ipv4ListRouting::RouteInput delivered the node's own (IsDestinationAddress, which
            // scans every address of the node under the weak ES model) before asking us.
            return false;
        }
        const int32_t iif = ip->GetInterfaceForDevice(idev);
        return iif < 0 || ip->IsDestinationAddress(dst, static_cast<uint32_t>(iif));
    }
}

template <bool V6>
bool
AdcHookFamily<V6>::HasListRouting(const Ptr<Ip>& ip)
{
    return ip && DynamicCast<ListRouting>(ip->GetRoutingProtocol()) != nullptr;
}

template <bool V6>
uint8_t
AdcHookFamily<V6>::NextProtocol(const Header& header)
{
    if constexpr (V6)
    {
        return header.GetNextHeader();
    }
    else
    {
        return header.GetProtocol();
    }
}

template <bool V6>
bool
AdcHookFamily<V6>::IsFragment(const Header& header)
{
    if constexpr (V6)
    {
        return false;
    }
    else
    {
        return header.GetFragmentOffset() != 0 || !header.IsLastFragment();
    }
}

template <bool V6>
void
AdcHookFamily<V6>::RaiseTtl(Header& header)
{
    if constexpr (V6)
    {
        if (header.GetHopLimit() < 255)
        {
            header.SetHopLimit(header.GetHopLimit() + 1);
        }
    }
    else
    {
        if (header.GetTtl() < 255)
        {
            header.SetTtl(header.GetTtl() + 1);
        }
    }
}

template <bool V6>
typename AdcHookFamily<V6>::Header
AdcHookFamily<V6>::MakeHeader(const AdcIpAddress& src,
                              const AdcIpAddress& dst,
                              uint8_t protocol,
                              uint32_t payloadBytes)
{
    Header h;
    h.SetSource(Get(src));
    h.SetDestination(Get(dst));
    if constexpr (V6)
    {
        h.SetNextHeader(protocol);
        h.SetPayloadLength(static_cast<uint16_t>(payloadBytes));
        h.SetHopLimit(64);
    }
    else
    {
        h.SetProtocol(protocol);
        h.SetPayloadSize(static_cast<uint16_t>(payloadBytes));
        h.SetTtl(64);
    }
    return h;
}

template <bool V6>
void
AdcHookFamily<V6>::Forward(const UnicastForwardCallback& ucb,
                           Ptr<const NetDevice> idev,
                           Ptr<Route> route,
                           Ptr<const Packet> p,
                           const Header& h)
{
    if constexpr (V6)
    {
        ucb(idev, route, p, h);
    }
    else
    {
        ucb(route, p, h);
    }
}

template struct AdcHookFamily<false>;
template struct AdcHookFamily<true>;

} // namespace ns3
