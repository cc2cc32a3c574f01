/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-policy.h"

#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// \param a an address \param port a port \return "a:port", "[a]:port" for IPv6
std::string
Endpoint(const AdcIpAddress& a, uint16_t port)
{
    std::ostringstream os;
    if (a.IsV6())
    {
        os << '[' << a.ToString() << "]:" << port;
    }
    else
    {
        os << a.ToString() << ':' << port;
    }
    return os.str();
}

} // namespace

bool
SlbVipKey::operator<(const SlbVipKey& o) const
{
    if (!(vip == o.vip))
    {
        return vip < o.vip;
    }
    return std::tie(protocol, port) < std::tie(o.protocol, o.port);
}

bool
SlbVipKey::operator==(const SlbVipKey& o) const
{
    return vip == o.vip && protocol == o.protocol && port == o.port;
}

std::string
SlbVipKey::ToString() const
{
    return std::string(protocol == AdcFlowKey::PROTO_UDP ? "UDP " : "TCP ") + Endpoint(vip, port);
}

std::string
SlbDip::ToString() const
{
    std::ostringstream os;
    os << Endpoint(address, port) << '@' << hostPa.ToString();
    if (vni != 0)
    {
        os << "/vni" << vni;
    }
    else
    {
        os << "/vlan" << vlan;
    }
    return os.str();
}

std::string
SlbVipKindName(SlbVipKind kind)
{
    return kind == SlbVipKind::INTERNAL ? "internal" : "public";
}

} // namespace ns3
