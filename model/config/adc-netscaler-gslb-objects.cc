/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, GSLB: the objects NetScaler's GSLB commands store (sites,
 * GSLB services, GSLB virtual servers, the GSLB parameter).
 */

#include "adc-netscaler-gslb-commands.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-text.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GslbSiteConfig);
NS_OBJECT_ENSURE_REGISTERED(GslbServiceConfig);
NS_OBJECT_ENSURE_REGISTERED(GslbVserverConfig);
NS_OBJECT_ENSURE_REGISTERED(GslbParameterConfig);

// ---- GslbSiteConfig ----------------------------------------------------------------------------

TypeId
GslbSiteConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GslbSiteConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<GslbSiteConfig>();
    return tid;
}

void
GslbSiteConfig::Configure(const std::string& name, const AdcIpAddress& siteIp, bool local)
{
    if (name.empty() || siteIp.IsNone())
    {
        throw AdcConfigError("GslbSiteConfig: a site needs a name and a site IP address");
    }
    m_name = name;
    m_siteIp = siteIp;
    m_local = local;
}

void
GslbSiteConfig::SetPublicIp(const AdcIpAddress& ip)
{
    m_public = ip;
}

const std::string&
GslbSiteConfig::GetName() const
{
    return m_name;
}

const AdcIpAddress&
GslbSiteConfig::GetSiteIp() const
{
    return m_siteIp;
}

AdcIpAddress
GslbSiteConfig::GetPublicIp() const
{
    return m_public.IsNone() ? m_siteIp : m_public;
}

bool
GslbSiteConfig::HasPublicIp() const
{
    return !m_public.IsNone();
}

bool
GslbSiteConfig::IsLocal() const
{
    return m_local;
}

// ---- GslbServiceConfig -------------------------------------------------------------------------

TypeId
GslbServiceConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GslbServiceConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<GslbServiceConfig>();
    return tid;
}

void
GslbServiceConfig::Configure(const std::string& name,
                             const AdcIpAddress& ip,
                             const std::string& serviceType,
                             uint16_t port,
                             const std::string& siteName)
{
    m_serviceType = AdcService::CheckServiceType(serviceType, "GslbServiceConfig " + name);
    if (ip.IsNone() || siteName.empty())
    {
        throw AdcConfigError("GslbServiceConfig " + name +
                             ": a GSLB service needs an IP "
                             "address and a -siteName");
    }
    m_name = name;
    m_ip = ip;
    m_port = port;
    m_site = siteName;
}

void
GslbServiceConfig::SetPublicIp(const AdcIpAddress& ip)
{
    m_publicIp = ip;
}

void
GslbServiceConfig::SetPublicPort(uint16_t port)
{
    m_publicPort = port;
}

const std::string&
GslbServiceConfig::GetName() const
{
    return m_name;
}

const AdcIpAddress&
GslbServiceConfig::GetIp() const
{
    return m_ip;
}

const std::string&
GslbServiceConfig::GetServiceType() const
{
    return m_serviceType;
}

uint16_t
GslbServiceConfig::GetPort() const
{
    return m_port;
}

const std::string&
GslbServiceConfig::GetSiteName() const
{
    return m_site;
}

AdcIpAddress
GslbServiceConfig::GetPublicIp() const
{
    return m_publicIp.IsNone() ? m_ip : m_publicIp;
}

uint16_t
GslbServiceConfig::GetPublicPort() const
{
    return m_publicPort == 0 ? m_port : m_publicPort;
}

bool
GslbServiceConfig::HasPublicIp() const
{
    return !m_publicIp.IsNone();
}

bool
GslbServiceConfig::HasPublicPort() const
{
    return m_publicPort != 0;
}

Ptr<AdcService>
GslbServiceConfig::GetService()
{
    if (!m_service)
    {
        m_service = CreateObject<AdcService>();
        m_service->Configure(m_name, GetPublicIp(), m_serviceType, GetPublicPort());
    }
    return m_service;
}

void
GslbServiceConfig::DoDispose()
{
    m_service = nullptr;
    Object::DoDispose();
}

// ---- GslbVserverConfig -------------------------------------------------------------------------

const std::string GslbVserverConfig::DEFAULT_LB_METHOD = "LEASTCONNECTION";
const std::string GslbVserverConfig::DEFAULT_BACKUP_LB_METHOD = "ROUNDROBIN";

TypeId
GslbVserverConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GslbVserverConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<GslbVserverConfig>();
    return tid;
}

GslbVserverConfig::GslbVserverConfig()
    : m_lbMethod(DEFAULT_LB_METHOD),
      m_backupLbMethod(DEFAULT_BACKUP_LB_METHOD)
{
}

GslbVserverConfig::~GslbVserverConfig() = default;

void
GslbVserverConfig::Configure(const std::string& name, const std::string& serviceType)
{
    m_serviceType = AdcService::CheckServiceType(serviceType, "GslbVserverConfig " + name);
    m_name = name;
}

void
GslbVserverConfig::SetLbMethod(const std::string& method)
{
    m_lbMethod = method;
    if (m_vserver)
    {
        m_vserver->SetLbMethod(method);
    }
}

void
GslbVserverConfig::SetBackupLbMethod(const std::string& method)
{
    m_backupLbMethod = method;
    m_backupLbMethodSet = true;
}

const std::string&
GslbVserverConfig::GetBackupLbMethod() const
{
    return m_backupLbMethod;
}

bool
GslbVserverConfig::IsBackupLbMethodSet() const
{
    return m_backupLbMethodSet;
}

void
GslbVserverConfig::SetToleranceMs(uint32_t ms)
{
    if (ms > MAX_TOLERANCE_MS)
    {
        throw AdcConfigError("GslbVserverConfig " + m_name + ": tolerance " + std::to_string(ms) +
                             " ms is out of range; allowed 0.." + std::to_string(MAX_TOLERANCE_MS));
    }
    m_tolerance = ms;
    m_toleranceSet = true;
}

void
GslbVserverConfig::SetDnsRecordType(uint16_t type)
{
    if (type != AdcDnsMessage::TYPE_A && type != AdcDnsMessage::TYPE_AAAA)
    {
        throw AdcConfigError("GslbVserverConfig " + m_name + ": dnsRecordType " +
                             std::to_string(type) + " is not one of A (1), AAAA (28)");
    }
    m_recordType = type;
}

void
GslbVserverConfig::SetEmptyDownResponse(bool on)
{
    m_edr = on;
}

void
GslbVserverConfig::SetLocation(const std::string& file, uint32_t line)
{
    m_file = file;
    m_line = line;
}

const std::string&
GslbVserverConfig::GetFile() const
{
    return m_file;
}

uint32_t
GslbVserverConfig::GetLine() const
{
    return m_line;
}

const std::string&
GslbVserverConfig::GetName() const
{
    return m_name;
}

const std::string&
GslbVserverConfig::GetServiceType() const
{
    return m_serviceType;
}

const std::string&
GslbVserverConfig::GetLbMethod() const
{
    return m_lbMethod;
}

uint32_t
GslbVserverConfig::GetToleranceMs() const
{
    return m_tolerance;
}

bool
GslbVserverConfig::IsToleranceSet() const
{
    return m_toleranceSet;
}

uint16_t
GslbVserverConfig::GetDnsRecordType() const
{
    return m_recordType;
}

bool
GslbVserverConfig::GetEmptyDownResponse() const
{
    return m_edr;
}

void
GslbVserverConfig::BindService(Ptr<GslbServiceConfig> service)
{
    const std::string owner = "GslbVserverConfig " + m_name + ": ";
    for (const Ptr<GslbServiceConfig>& s : m_services)
    {
        if (s->GetName() == service->GetName())
        {
            throw AdcConfigError(owner + "gslb service " + service->GetName() +
                                 " is bound already");
        }
    }
    if (service->GetServiceType() != m_serviceType)
    {
        throw AdcConfigError(owner + "gslb service " + service->GetName() + " has service type " +
                             service->GetServiceType() + "; the vserver's is " + m_serviceType);
    }
    m_services.push_back(service);
    if (m_vserver)
    {
        m_vserver->BindService(service->GetService());
    }
}

bool
GslbVserverConfig::UnbindService(const std::string& name)
{
    for (auto it = m_services.begin(); it != m_services.end(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            m_services.erase(it);
            if (m_vserver)
            {
                m_vserver->Unbind(name);
            }
            return true;
        }
    }
    return false;
}

std::vector<std::string>
GslbVserverConfig::GetServiceNames() const
{
    std::vector<std::string> names;
    for (const Ptr<GslbServiceConfig>& s : m_services)
    {
        names.push_back(s->GetName());
    }
    return names;
}

const std::vector<Ptr<GslbServiceConfig>>&
GslbVserverConfig::GetServices() const
{
    return m_services;
}

void
GslbVserverConfig::BindDomain(const Domain& domain)
{
    AdcDnsName::ToLabels(domain.name); // AdcConfigError naming a malformed name
    for (const Domain& d : m_domains)
    {
        if (AdcDnsName::Equal(d.name, domain.name))
        {
            throw AdcConfigError("GslbVserverConfig " + m_name + ": domain " + domain.name +
                                 " is bound already");
        }
    }
    m_domains.push_back(domain);
}

bool
GslbVserverConfig::UnbindDomain(const std::string& name)
{
    for (auto it = m_domains.begin(); it != m_domains.end(); ++it)
    {
        if (AdcDnsName::Equal(it->name, name))
        {
            m_domains.erase(it);
            return true;
        }
    }
    return false;
}

const std::vector<GslbVserverConfig::Domain>&
GslbVserverConfig::GetDomains() const
{
    return m_domains;
}

Ptr<AdcVirtualServer>
GslbVserverConfig::GetVirtualServer()
{
    if (!m_vserver)
    {
        Ptr<AdcVirtualServer> v = CreateObject<AdcVirtualServer>();
        v->Configure(m_name, m_serviceType, AdcIpAddress(), 0);
        try
        {
            v->SetLbMethod(m_lbMethod);
        }
        catch (const AdcConfigError& e)
        {
            throw AdcConfigError("GslbVserverConfig " + m_name + ": lbMethod " + m_lbMethod +
                                 " is not registered (RTT and STATICPROXIMITY are registered "
                                 "by the GSLB LB methods, GslbRegisterLbMethods): " +
                                 e.what());
        }
        for (const Ptr<GslbServiceConfig>& s : m_services)
        {
            v->BindService(s->GetService());
        }
        m_vserver = v;
    }
    return m_vserver;
}

void
GslbVserverConfig::DoDispose()
{
    m_services.clear();
    m_vserver = nullptr;
    Object::DoDispose();
}

// ---- GslbParameterConfig -----------------------------------------------------------------------

TypeId
GslbParameterConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GslbParameterConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<GslbParameterConfig>();
    return tid;
}

GslbParameterConfig::GslbParameterConfig()
    : m_order(GetProbeKinds())
{
}

GslbParameterConfig::~GslbParameterConfig() = default;

const std::vector<std::string>&
GslbParameterConfig::GetProbeKinds()
{
    static const std::vector<std::string> kinds = {"PING", "DNS", "TCP"};
    return kinds;
}

void
GslbParameterConfig::SetProbeOrder(const std::vector<std::string>& words)
{
    const std::vector<std::string>& kinds = GetProbeKinds();
    const std::string allowed =
        "; allowed are 1 to 3 distinct kinds of " + AdcConfigError::JoinAllowed(kinds);
    if (words.empty() || words.size() > kinds.size())
    {
        throw AdcConfigError("GslbParameterConfig: -ldnsprobeOrder has " +
                             std::to_string(words.size()) + " kinds" + allowed);
    }
    std::vector<std::string> order;
    for (const std::string& w : words)
    {
        const int i = AdcText::Find(w, kinds, AdcText::INSENSITIVE);
        if (i < 0)
        {
            throw AdcConfigError("GslbParameterConfig: -ldnsprobeOrder: word '" + w +
                                 "' is not a probe kind" + allowed);
        }
        if (std::find(order.begin(), order.end(), kinds[i]) != order.end())
        {
            throw AdcConfigError("GslbParameterConfig: -ldnsprobeOrder: word '" + w +
                                 "' is given twice" + allowed);
        }
        order.push_back(kinds[i]);
    }
    m_order = order;
}

void
GslbParameterConfig::SetLdnsEntryTimeout(uint32_t s)
{
    if (s < MIN_LDNS_ENTRY_TIMEOUT || s > MAX_LDNS_ENTRY_TIMEOUT)
    {
        throw AdcConfigError("GslbParameterConfig: -ldnsEntryTimeout " + std::to_string(s) +
                             " is out of range; allowed " + std::to_string(MIN_LDNS_ENTRY_TIMEOUT) +
                             ".." + std::to_string(MAX_LDNS_ENTRY_TIMEOUT));
    }
    m_ldnsEntryTimeout = s;
}

void
GslbParameterConfig::SetMepKeepAliveTimeout(uint32_t s)
{
    if (s < 1 || s > MAX_MEP_KEEPALIVE_TIMEOUT)
    {
        throw AdcConfigError("GslbParameterConfig: -mepKeepAliveTimeout " + std::to_string(s) +
                             " is out of range; allowed 1.." +
                             std::to_string(MAX_MEP_KEEPALIVE_TIMEOUT));
    }
    m_mepKeepAlive = s;
}

void
GslbParameterConfig::SetRttTolerance(uint32_t ms)
{
    if (ms < 1 || ms > MAX_RTT_TOLERANCE)
    {
        throw AdcConfigError("GslbParameterConfig: -rttTolerance " + std::to_string(ms) +
                             " is out of range; allowed 1.." + std::to_string(MAX_RTT_TOLERANCE));
    }
    m_rttTolerance = ms;
}

const std::vector<std::string>&
GslbParameterConfig::GetProbeOrder() const
{
    return m_order;
}

uint32_t
GslbParameterConfig::GetLdnsEntryTimeout() const
{
    return m_ldnsEntryTimeout;
}

uint32_t
GslbParameterConfig::GetMepKeepAliveTimeout() const
{
    return m_mepKeepAlive;
}

uint32_t
GslbParameterConfig::GetRttTolerance() const
{
    return m_rttTolerance;
}

// ---- the GSLB domain across sites ------------------------------------------------------------

std::vector<std::string>
AdcNetScalerGslbCommands::CheckDomainConsistency(const std::vector<const AdcConfigStore*>& stores,
                                                 const std::vector<std::string>& names)
{
    if (stores.size() != names.size())
    {
        throw AdcConfigError(
            "AdcNetScalerGslbCommands::CheckDomainConsistency: " + std::to_string(stores.size()) +
            " configurations but " + std::to_string(names.size()) + " names; give one name each");
    }
    std::vector<std::string> messages;
    // "NAME:LINE" of the command that set \p aspect of (kind, name) in configuration i.
    auto at = [&](std::size_t i,
                  const std::string& kind,
                  const std::string& name,
                  const std::string& aspect) {
        const AdcConfigOrigin o = stores[i]->GetOrigin(kind, name, aspect);
        return AdcText::Escape(names[i]) + (o.line > 0 ? ":" + std::to_string(o.line) : "");
    };
    // vserver name -> (first configuration that has it, its tolerance)
    std::vector<std::pair<std::string, std::pair<std::size_t, uint32_t>>> first;
    for (std::size_t i = 0; i < stores.size(); ++i)
    {
        for (const Ptr<GslbVserverConfig>& v : stores[i]->GetAll<GslbVserverConfig>(GSLB_VSERVER))
        {
            auto it = std::find_if(first.begin(), first.end(), [&](const auto& f) {
                return f.first == v->GetName();
            });
            if (it == first.end())
            {
                first.push_back({v->GetName(), {i, v->GetToleranceMs()}});
            }
            else if (it->second.second != v->GetToleranceMs())
            {
                const std::string here = at(i, GSLB_VSERVER, v->GetName(), "-tolerance");
                messages.push_back(
                    here + ": GSLB-09: gslb vserver '" + v->GetName() + "' has -tolerance " +
                    std::to_string(it->second.second) + " ms in " +
                    at(it->second.first, GSLB_VSERVER, v->GetName(), "-tolerance") + " but " +
                    std::to_string(v->GetToleranceMs()) + " ms in " + here +
                    "; every site must choose alike (the same selection window across the "
                    "GSLB domain)");
            }
        }
        const uint32_t rtt = GetParameter(*stores[i])->GetRttTolerance();
        const uint32_t rtt0 = GetParameter(*stores[0])->GetRttTolerance();
        if (rtt != rtt0)
        {
            const std::string here = at(i, GSLB_PARAMETER, PARAMETER_NAME, "-rttTolerance");
            messages.push_back(here + ": GSLB-09: set gslb parameter -rttTolerance is " +
                               std::to_string(rtt0) + " ms in " +
                               at(0, GSLB_PARAMETER, PARAMETER_NAME, "-rttTolerance") + " but " +
                               std::to_string(rtt) + " ms in " + here +
                               "; the RTT tolerance must be the same across the GSLB domain");
        }
    }
    return messages;
}

} // namespace ns3
