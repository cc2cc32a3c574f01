/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc, N-tier cache redirection (CRD): a lower-tier appliance's configuration (names,
 * cache servers, LB method, port range, cache policies, Via peers, accessors).
 */

#include "crd-cache-policy.h"
#include "crd-lower-tier.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/log.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrdLowerTierConfig");

namespace
{

/// The cache LB methods a lower-tier appliance offers: the registry's methods with the trait
/// CACHE_SELECTION, in NetScaler's names (a method a researcher registers with that trait is
/// offered here with no other change). A function, not a global, since the registry's
/// vocabulary names are statics of another file.
AdcLbMethodRegistry::Query
CacheMethods()
{
    return {AdcLbMethodRegistry::NETSCALER, AdcLbMethodRegistry::CACHE_SELECTION, {}};
}

} // namespace

// ---- configuration -------------------------------------------------------------------------

void
CrdLowerTierAppliance::SetName(std::string name)
{
    m_name = name;
    m_vserver->Configure(name + "-caches", "HTTP", AdcIpAddress(), 0);
}

std::string
CrdLowerTierAppliance::GetName() const
{
    return m_name;
}

void
CrdLowerTierAppliance::SetCacheLbMethod(std::string name)
{
    // The lower tier offers the registry's cache-selection methods (CacheMethods).
    const std::string upper = AdcLbMethodRegistry::Resolve(name,
                                                           CacheMethods(),
                                                           "CrdLowerTierAppliance",
                                                           "CacheLbMethod");
    m_vserver->SetLbMethod(upper); // the bound caches carry over, in binding order
}

std::string
CrdLowerTierAppliance::GetCacheLbMethod() const
{
    return m_vserver->GetLbMethodName();
}

void
CrdLowerTierAppliance::SetHashSeed(uint64_t seed)
{
    m_hashSeed = seed;
    m_vserver->SetHashSeed(seed); // the current method and those it makes later
}

uint64_t
CrdLowerTierAppliance::GetHashSeed() const
{
    return m_hashSeed;
}

void
CrdLowerTierAppliance::SetPortRange(std::string text)
{
    m_originSource->SetAttribute("PortRange", StringValue(text));
}

std::string
CrdLowerTierAppliance::GetPortRange() const
{
    return m_originSource->GetPortAllocator()->GetRange().ToString();
}

void
CrdLowerTierAppliance::SetCachePolicies(std::string text)
{
    m_policies =
        CrdCachePolicies::Parse(text, "CrdLowerTierAppliance " + m_name + ": CachePolicies");
}

std::string
CrdLowerTierAppliance::GetCachePolicies() const
{
    std::string text;
    for (const std::string& p : m_policies)
    {
        text += (text.empty() ? "" : ",") + p;
    }
    return text;
}

void
CrdLowerTierAppliance::AddViaPeer(const std::string& name)
{
    if (name.empty() || name.find_first_of(" \t,") != std::string::npos)
    {
        throw AdcConfigError("CrdLowerTierAppliance " + m_name + ": Via peer '" + name +
                             "' must be a non-empty name without spaces or commas (a Via "
                             "received-by token)");
    }
    m_viaPeers.push_back(name);
}

uint32_t
CrdLowerTierAppliance::AddCacheServer(const std::string& name, Ipv4Address address, uint16_t port)
{
    NS_LOG_FUNCTION(this << name << address << port);
    if (name.empty() || port == 0)
    {
        throw AdcConfigError("CrdLowerTierAppliance " + m_name + ": cache server '" + name +
                             "' port " + std::to_string(port) +
                             ": give a non-empty name and a port 1..65535");
    }
    Ptr<AdcService> service = CreateObject<AdcService>();
    service->Configure(name, AdcIpAddress(address), "HTTP", port);
    const uint32_t index = AddCacheServer(service);
    m_created[index] = true;
    return index;
}

uint32_t
CrdLowerTierAppliance::AddCacheServer(Ptr<AdcService> service)
{
    const std::string who = "CrdLowerTierAppliance " + m_name + ": cache server ";
    if (!service)
    {
        throw AdcConfigError(who + "service is null: give a configured AdcService");
    }
    NS_LOG_FUNCTION(this << service->GetName());
    if (service->GetName().empty() || !service->GetAddress().IsV4() || service->GetPort() == 0)
    {
        throw AdcConfigError(who + "'" + service->GetName() + "' address " +
                             service->GetAddress().ToString() + " port " +
                             std::to_string(service->GetPort()) +
                             ": give a non-empty name, an IPv4 address and a port 1..65535");
    }
    m_vserver->BindService(service); // throws when a service of that name is bound already
    m_caches.push_back(service);
    m_created.push_back(false);
    return static_cast<uint32_t>(m_caches.size() - 1);
}

uint32_t
CrdLowerTierAppliance::GetNCacheServers() const
{
    return static_cast<uint32_t>(m_caches.size());
}

Ptr<AdcService>
CrdLowerTierAppliance::GetCacheService(uint32_t index) const
{
    if (index >= m_caches.size())
    {
        throw AdcConfigError("CrdLowerTierAppliance " + m_name + ": cache server index " +
                             std::to_string(index) + " is out of range; allowed 0.." +
                             std::to_string(static_cast<int64_t>(m_caches.size()) - 1));
    }
    return m_caches[index];
}

Ptr<AdcVirtualServer>
CrdLowerTierAppliance::GetCacheVServer() const
{
    return m_vserver;
}

void
CrdLowerTierAppliance::SetCacheNetwork(Ipv4Address net, Ipv4Mask mask)
{
    m_cacheNet = std::make_pair(net.CombineMask(mask), mask);
}

void
CrdLowerTierAppliance::SetRouting(Ptr<AdcPolicyRouting> routing)
{
    m_routing = routing;
}

Ptr<AdcPolicyRouting>
CrdLowerTierAppliance::GetRouting() const
{
    return m_routing;
}

Ptr<AdcPortAllocator>
CrdLowerTierAppliance::GetPortAllocator() const
{
    return m_originSource->GetPortAllocator();
}

Ptr<AdcProxyEngine>
CrdLowerTierAppliance::GetProxyEngine() const
{
    return m_engine;
}

Ptr<AdcSourceAddressPolicy>
CrdLowerTierAppliance::GetCacheSource() const
{
    return m_cacheSource;
}

Ptr<AdcSourceAddressPolicy>
CrdLowerTierAppliance::GetOriginSource() const
{
    return m_originSource;
}

Ptr<AdcLbMethod>
CrdLowerTierAppliance::GetCacheLb() const
{
    return m_vserver->GetLbMethod();
}

} // namespace ns3
