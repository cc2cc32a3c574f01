/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ilb-address-plan.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-routing-table-entry.h"
#include "ns3/ipv6-static-routing-helper.h"
#include "ns3/ipv6-static-routing.h"
#include "ns3/ipv6.h"

namespace ns3
{

namespace
{

// The address plan (see IlbHelper's documentation).
const Ipv4Address kClientBlock("10.1.0.0");
const Ipv4Mask kClientBlockMask("255.255.0.0");
const Ipv4Address kClientSideNet("10.0.0.0");
const Ipv4Address kReturnNet("10.0.0.4");
const Ipv4Mask kP2pMask("255.255.255.252");
const Ipv4Address kLanNet("192.168.100.0");
const Ipv4Mask kLanMask("255.255.255.0");
const Ipv4Mask kHostMask("255.255.255.255");
constexpr uint32_t kIlbHost = 1;
constexpr uint32_t kServerHost0 = 11;
constexpr uint32_t kServerRouterHost = 254;
constexpr uint16_t kClientGroup6 = 1;      // fd00:0:1:i::/64 per client link
constexpr uint16_t kClientSideSubnet6 = 1; // fd00:0:0:1::/64
constexpr uint16_t kReturnSubnet6 = 2;     // fd00:0:0:2::/64
constexpr uint16_t kLanSubnet6 = 0x100;    // fd00:0:0:100::/64

/// \return fd00:0:\p group:\p subnet::\p host
Ipv6Address
Addr6(uint16_t group, uint16_t subnet, uint32_t host)
{
    uint8_t b[16] = {0xfd, 0x00, 0x00, 0x00};
    b[4] = static_cast<uint8_t>(group >> 8);
    b[5] = static_cast<uint8_t>(group);
    b[6] = static_cast<uint8_t>(subnet >> 8);
    b[7] = static_cast<uint8_t>(subnet);
    for (int i = 0; i < 4; ++i)
    {
        b[15 - i] = static_cast<uint8_t>(host >> (8 * i));
    }
    return Ipv6Address(b);
}

/// \return \p net + \p offset
Ipv4Address
Plus(Ipv4Address net, uint32_t offset)
{
    return Ipv4Address(net.Get() + offset);
}

Ptr<Ipv4StaticRouting>
Static4(Ptr<Node> node)
{
    return Ipv4StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv4>());
}

Ptr<Ipv6StaticRouting>
Static6(Ptr<Node> node)
{
    return Ipv6StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv6>());
}

/// \brief Give \p dev an IPv4 interface with \p addr and bring it up. \return its index
uint32_t
AddIface4(Ptr<NetDevice> dev, Ipv4Address addr, Ipv4Mask mask)
{
    // Addresses are set directly (not through Ipv4AddressHelper) so that several topologies
    // can be built in one process without tripping the global address generator.
    Ptr<Ipv4> ipv4 = dev->GetNode()->GetObject<Ipv4>();
    int32_t i = ipv4->GetInterfaceForDevice(dev);
    if (i < 0)
    {
        i = ipv4->AddInterface(dev);
    }
    ipv4->AddAddress(i, Ipv4InterfaceAddress(addr, mask));
    ipv4->SetMetric(i, 1);
    ipv4->SetUp(i);
    return static_cast<uint32_t>(i);
}

/// \brief Give \p dev an IPv6 interface with \p addr (/64), bring it up. \return its index
uint32_t
AddIface6(Ptr<NetDevice> dev, Ipv6Address addr, bool forwarding)
{
    Ptr<Ipv6> ipv6 = dev->GetNode()->GetObject<Ipv6>();
    int32_t i = ipv6->GetInterfaceForDevice(dev);
    if (i < 0)
    {
        i = ipv6->AddInterface(dev);
    }
    ipv6->SetMetric(i, 1);
    ipv6->SetUp(i);
    ipv6->AddAddress(i, Ipv6InterfaceAddress(addr, Ipv6Prefix(64)));
    ipv6->SetForwarding(i, forwarding);
    return static_cast<uint32_t>(i);
}

/// \return the length of the longest prefix \p a and \p b share
uint8_t
CommonPrefix(const AdcIpAddress& a, const AdcIpAddress& b)
{
    const auto& x = a.GetBytes();
    const auto& y = b.GetBytes();
    uint8_t bits = 0;
    for (std::size_t i = 0; i < a.GetLength(); ++i)
    {
        const uint8_t diff = x[i] ^ y[i];
        if (diff == 0)
        {
            bits += 8;
            continue;
        }
        for (int bit = 7; bit >= 0 && ((diff >> bit) & 1) == 0; --bit)
        {
            ++bits;
        }
        break;
    }
    return bits;
}

/// \return true when \p a lies in \p net / \p len
bool
InPrefix(const AdcIpAddress& a, const AdcIpAddress& net, uint8_t len)
{
    return a.GetFamily() == net.GetFamily() && a.Masked(len) == net.Masked(len);
}

/// \return true when \p node owns \p a on any interface
bool
OwnsAddress(Ptr<Node> node, const AdcIpAddress& a)
{
    if (a.IsV4())
    {
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        return ipv4 && ipv4->GetInterfaceForAddress(a.GetIpv4()) >= 0;
    }
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    return ipv6 && ipv6->GetInterfaceForAddress(a.GetIpv6()) >= 0;
}

/// \param s a static routing \return the gateway of its default route (unset if none)
template <class StaticRouting>
AdcIpAddress
DefaultGatewayOf(Ptr<StaticRouting> s)
{
    for (uint32_t i = 0; s && i < s->GetNRoutes(); ++i)
    {
        const auto r = s->GetRoute(i);
        if (r.IsDefault()) // destination 0.0.0.0 or ::
        {
            return AdcIpAddress(r.GetGateway());
        }
    }
    return AdcIpAddress();
}

/// \return \p node's default gateway in the family of \p like (the unset address if none)
AdcIpAddress
DefaultGateway(Ptr<Node> node, const AdcIpAddress& like)
{
    return like.IsV4() ? DefaultGatewayOf(Static4(node)) : DefaultGatewayOf(Static6(node));
}

/// What CheckRoutable checks addresses against.
using Prefixes = std::vector<std::pair<AdcIpAddress, uint8_t>>;

/// \param v6 the family \return the helper's own subnets in that family
Prefixes
OwnSubnets(bool v6)
{
    if (v6)
    {
        return {{Addr6(kClientGroup6, 0, 0), 48},
                {Addr6(0, kClientSideSubnet6, 0), 64},
                {Addr6(0, kReturnSubnet6, 0), 64},
                {Addr6(0, kLanSubnet6, 0), 64}};
    }
    return {{kClientBlock, 16}, {kClientSideNet, 29}, {kLanNet, 24}};
}

} // namespace

IlbAddressPlan::NatRoute
IlbAddressPlan::CoveringPrefix(const AdcIpAddress& first, const AdcIpAddress& last)
{
    NatRoute nat;
    nat.length = CommonPrefix(first, last);
    nat.network = first.Masked(nat.length);
    return nat;
}

AdcIpAddress
IlbAddressPlan::GetServerAddress(uint32_t i, bool v6)
{
    return v6 ? AdcIpAddress(Addr6(0, kLanSubnet6, 0x11 + i))
              : AdcIpAddress(Plus(kLanNet, kServerHost0 + i));
}

void
IlbAddressPlan::CheckRoutable(const std::string& what,
                              const AdcIpAddress& first,
                              const AdcIpAddress& last,
                              const std::string& example)
{
    const AdcIpAddress documentation(Ipv6Address("2001:db8::"));
    if (InPrefix(first, documentation, 32) || InPrefix(last, documentation, 32))
    {
        throw AdcConfigError("IlbHelper: " + what +
                             " lies in the documentation prefix 2001:db8::/32, which ns-3's "
                             "routers refuse to forward: use e.g. " +
                             example);
    }
    for (const auto& [net, len] : OwnSubnets(first.IsV6()))
    {
        if (InPrefix(first, net, len) || InPrefix(last, net, len))
        {
            throw AdcConfigError("IlbHelper: " + what + " lies inside the helper's " +
                                 net.ToString() + "/" + std::to_string(len) +
                                 " (clients, links or server LAN): use e.g. " + example);
        }
    }
}

void
IlbAddressPlan::AssignAddresses(IlbTopology& t)
{
    for (uint32_t i = 0; i < t.GetNClients(); ++i)
    {
        const NetDeviceContainer& d = t.links[IlbTopology::Numbered("client", i)];
        const Ipv4Address net = Plus(kClientBlock, 4 * i);
        AddIface4(d.Get(0), Plus(net, 1), kP2pMask);
        AddIface4(d.Get(1), Plus(net, 2), kP2pMask);
        if (t.ipv6)
        {
            AddIface6(d.Get(0), Addr6(kClientGroup6, i, 1), true);
            // The client's interface ID is its IPv4 host number (4i + 2): illumos's hashes read
            // only an IPv6 address's last 32 bits, so clients numbered ::2 in every prefix would
            // all hash alike.
            AddIface6(d.Get(1), Addr6(kClientGroup6, i, 4 * i + 2), false);
            t.clientAddresses.emplace_back(Addr6(kClientGroup6, i, 4 * i + 2));
        }
        else
        {
            t.clientAddresses.emplace_back(Plus(net, 2));
        }
    }
    const NetDeviceContainer& cs = t.links["client-side"];
    AddIface4(cs.Get(0), Plus(kClientSideNet, 1), kP2pMask);
    t.clientSideInterface = AddIface4(cs.Get(1), Plus(kClientSideNet, 2), kP2pMask);
    const NetDeviceContainer& rp = t.links["return-path"];
    AddIface4(rp.Get(0), Plus(kReturnNet, 1), kP2pMask);
    AddIface4(rp.Get(1), Plus(kReturnNet, 2), kP2pMask);

    const NetDeviceContainer& lan = t.links["server-lan"];
    t.serverLanInterface = AddIface4(lan.Get(0), Plus(kLanNet, kIlbHost), kLanMask);
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        AddIface4(lan.Get(1 + i), Plus(kLanNet, kServerHost0 + i), kLanMask);
    }
    AddIface4(lan.Get(1 + t.GetNServers()), Plus(kLanNet, kServerRouterHost), kLanMask);

    if (!t.ipv6)
    {
        t.ilbLanAddress = Plus(kLanNet, kIlbHost);
        t.serverRouterLanAddress = Plus(kLanNet, kServerRouterHost);
        for (uint32_t i = 0; i < t.GetNServers(); ++i)
        {
            t.serverAddresses.emplace_back(Plus(kLanNet, kServerHost0 + i));
        }
        return;
    }
    AddIface6(cs.Get(0), Addr6(0, kClientSideSubnet6, 1), true);
    AddIface6(cs.Get(1), Addr6(0, kClientSideSubnet6, 2), true);
    AddIface6(rp.Get(0), Addr6(0, kReturnSubnet6, 1), true);
    AddIface6(rp.Get(1), Addr6(0, kReturnSubnet6, 2), true);
    AddIface6(lan.Get(0), Addr6(0, kLanSubnet6, kIlbHost), true);
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        AddIface6(lan.Get(1 + i), Addr6(0, kLanSubnet6, 0x11 + i), false);
        t.serverAddresses.emplace_back(Addr6(0, kLanSubnet6, 0x11 + i));
    }
    AddIface6(lan.Get(1 + t.GetNServers()), Addr6(0, kLanSubnet6, 0xfe), true);
    t.ilbLanAddress = Addr6(0, kLanSubnet6, kIlbHost);
    t.serverRouterLanAddress = Addr6(0, kLanSubnet6, 0xfe);
}

void
IlbAddressPlan::AddRoutes(IlbTopology& t, bool viaIlb, const NatRoute& nat)
{
    AddRoutes4(t, viaIlb, nat);
    if (t.ipv6)
    {
        AddRoutes6(t, viaIlb, nat);
    }
}

void
IlbAddressPlan::AddRoutes4(IlbTopology& t, bool viaIlb, const NatRoute& nat)
{
    // Clients -> client router; client router -> VIP and server LAN via the ILB; ILB and
    // server router -> client router; servers -> their gateway.
    auto ifOf = [](Ptr<NetDevice> d) {
        return static_cast<uint32_t>(d->GetNode()->GetObject<Ipv4>()->GetInterfaceForDevice(d));
    };
    for (uint32_t i = 0; i < t.GetNClients(); ++i)
    {
        const NetDeviceContainer& d = t.links.at(IlbTopology::Numbered("client", i));
        Static4(t.clients.Get(i))->SetDefaultRoute(Plus(kClientBlock, 4 * i + 1), ifOf(d.Get(1)));
    }
    const NetDeviceContainer& cs = t.links.at("client-side");
    const NetDeviceContainer& lan = t.links.at("server-lan");
    Ptr<Ipv4StaticRouting> cr = Static4(t.clientRouter);
    const Ipv4Address ilbAddr = Plus(kClientSideNet, 2);
    if (t.vip.IsV4())
    {
        cr->AddHostRouteTo(t.vip.GetIpv4(), ilbAddr, ifOf(cs.Get(0)));
    }
    cr->AddNetworkRouteTo(kLanNet, kLanMask, ilbAddr, ifOf(cs.Get(0)));
    Static4(t.ilb)->SetDefaultRoute(Plus(kClientSideNet, 1), ifOf(cs.Get(1)));
    Static4(t.serverRouter)
        ->SetDefaultRoute(Plus(kReturnNet, 1), ifOf(t.links.at("return-path").Get(1)));
    const Ipv4Address gw = Plus(kLanNet, viaIlb ? kIlbHost : kServerRouterHost);
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        Ptr<Ipv4StaticRouting> s = Static4(t.servers.Get(i));
        const uint32_t iface = ifOf(lan.Get(1 + i));
        s->SetDefaultRoute(gw, iface);
        if (nat.network.IsV4())
        {
            s->AddNetworkRouteTo(nat.network.GetIpv4(),
                                 Ipv4Mask(nat.length == 0 ? 0 : ~0U << (32 - nat.length)),
                                 Plus(kLanNet, kIlbHost),
                                 iface);
        }
        if (!t.ipv6)
        {
            t.serverGateways.emplace_back(gw);
        }
    }
}

void
IlbAddressPlan::AddRoutes6(IlbTopology& t, bool viaIlb, const NatRoute& nat)
{
    auto ifOf = [](Ptr<NetDevice> d) {
        return static_cast<uint32_t>(d->GetNode()->GetObject<Ipv6>()->GetInterfaceForDevice(d));
    };
    for (uint32_t i = 0; i < t.GetNClients(); ++i)
    {
        const NetDeviceContainer& d = t.links.at(IlbTopology::Numbered("client", i));
        Static6(t.clients.Get(i))->SetDefaultRoute(Addr6(kClientGroup6, i, 1), ifOf(d.Get(1)));
    }
    const NetDeviceContainer& cs = t.links.at("client-side");
    const NetDeviceContainer& lan = t.links.at("server-lan");
    Ptr<Ipv6StaticRouting> cr = Static6(t.clientRouter);
    const Ipv6Address ilbAddr = Addr6(0, kClientSideSubnet6, 2);
    cr->AddHostRouteTo(t.vip.GetIpv6(), ilbAddr, ifOf(cs.Get(0)));
    cr->AddNetworkRouteTo(Addr6(0, kLanSubnet6, 0), Ipv6Prefix(64), ilbAddr, ifOf(cs.Get(0)));
    Static6(t.ilb)->SetDefaultRoute(Addr6(0, kClientSideSubnet6, 1), ifOf(cs.Get(1)));
    Static6(t.serverRouter)
        ->SetDefaultRoute(Addr6(0, kReturnSubnet6, 1), ifOf(t.links.at("return-path").Get(1)));
    const Ipv6Address gw = Addr6(0, kLanSubnet6, viaIlb ? kIlbHost : 0xfe);
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        Ptr<Ipv6StaticRouting> s = Static6(t.servers.Get(i));
        const uint32_t iface = ifOf(lan.Get(1 + i));
        s->SetDefaultRoute(gw, iface);
        if (nat.network.IsV6())
        {
            s->AddNetworkRouteTo(nat.network.GetIpv6(),
                                 Ipv6Prefix(nat.length),
                                 Addr6(0, kLanSubnet6, kIlbHost),
                                 iface);
        }
        t.serverGateways.emplace_back(gw);
    }
}

void
IlbAddressPlan::ConfigureDsrServers(IlbTopology& t)
{
    for (uint32_t i = 0; i < t.GetNServers(); ++i)
    {
        Ptr<Node> s = t.servers.Get(i);
        if (t.vip.IsV4())
        {
            s->GetObject<Ipv4>()->AddAddress(0, Ipv4InterfaceAddress(t.vip.GetIpv4(), kHostMask));
        }
        else
        {
            Ptr<Ipv6> ipv6 = s->GetObject<Ipv6>();
            ipv6->AddAddress(0, Ipv6InterfaceAddress(t.vip.GetIpv6(), Ipv6Prefix(128)));
            // Accept the VIP on the LAN interface although it lives on the loopback (the
            // weak end-system model, as Linux and Solaris hosts use for DSR).
            ipv6->SetAttribute("StrongEndSystemModel", BooleanValue(false));
        }
    }
}

void
IlbAddressPlan::Validate(const IlbTopology& topo)
{
    for (uint32_t i = 0; i < topo.servers.GetN(); ++i)
    {
        Ptr<Node> s = topo.servers.Get(i);
        const std::string name =
            i < topo.serverNames.size() ? topo.serverNames[i] : IlbTopology::Numbered("server", i);
        const std::string where = name + " (" + topo.serverAddresses.at(i).ToString() + ")";
        if (topo.serverAddresses[i] == topo.vip)
        {
            throw AdcConfigError("IlbHelper: VIP " + topo.vip.ToString() + " is the address of " +
                                 where + ": the VIP must not be a server's own address");
        }
        if (topo.ruleConfig.topology == IlbRule::DSR)
        {
            if (!OwnsAddress(s, topo.vip))
            {
                throw AdcConfigError("IlbHelper: DSR back-end " + where + " does not own the VIP " +
                                     topo.vip.ToString() +
                                     ": in DSR only the destination MAC is rewritten, so every "
                                     "back-end must hold the VIP on its loopback");
            }
            if (topo.serverPort != topo.vipPort)
            {
                throw AdcConfigError("IlbHelper: DSR back-end " + where + " serves on port " +
                                     std::to_string(topo.serverPort) + ", not the VIP port " +
                                     std::to_string(topo.vipPort));
            }
        }
        if (topo.ruleConfig.topology == IlbRule::HALF_NAT)
        {
            const AdcIpAddress gw = DefaultGateway(s, topo.vip);
            if (gw != topo.ilbLanAddress)
            {
                throw AdcConfigError("IlbHelper: Half-NAT back-end " + where +
                                     " has default gateway '" +
                                     (gw.IsNone() ? std::string("none") : gw.ToString()) +
                                     "', not the ILB " + topo.ilbLanAddress.ToString() +
                                     ": its responses would bypass the ILB and never be "
                                     "translated back");
            }
        }
    }
}

} // namespace ns3
