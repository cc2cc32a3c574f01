/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the authoritative DNS server (ADNS) of a GSLB site.
 */

#include "gslb-adns.h"

#include "gslb-lb-methods.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-netscaler-gslb-commands.h"
#include "ns3/adc-netscaler-gslb-dns.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GslbAdns");

NS_OBJECT_ENSURE_REGISTERED(GslbAdns);

TypeId
GslbAdns::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GslbAdns")
            .SetParent<AdcDnsServer>()
            .SetGroupName("Adc")
            .AddConstructor<GslbAdns>()
            .AddTraceSource("Decision",
                            "A DNS decision about a GSLB domain: the LDNS, the domain, the "
                            "service and address answered, how and why.",
                            MakeTraceSourceAccessor(&GslbAdns::m_decisionTrace),
                            "ns3::GslbAdns::DecisionTracedCallback");
    return tid;
}

GslbAdns::GslbAdns() = default;

GslbAdns::~GslbAdns() = default;

void
GslbAdns::AddDomain(const std::string& domain,
                    Ptr<AdcVirtualServer> vserver,
                    uint32_t ttl,
                    uint16_t recordType)
{
    AdcDnsName::ToLabels(domain); // AdcConfigError naming a malformed name
    if (!vserver)
    {
        throw AdcConfigError("GslbAdns: domain " + domain + " needs a GSLB virtual server");
    }
    if (recordType != AdcDnsMessage::TYPE_A && recordType != AdcDnsMessage::TYPE_AAAA)
    {
        throw AdcConfigError("GslbAdns: domain " + domain + ": record type " +
                             std::to_string(recordType) + " is not one of A (1), AAAA (28)");
    }
    const std::string key = Key(domain);
    if (m_domains.count(key) > 0)
    {
        throw AdcConfigError("GslbAdns: domain " + domain + " is served already (by " +
                             m_domains[key].vserver->GetName() + ")");
    }
    Domain d;
    d.name = domain;
    d.vserver = vserver;
    d.ttl = ttl;
    d.recordType = recordType;
    m_domains[key] = d;
    m_order.push_back(key);
}

void
GslbAdns::AddVserver(Ptr<GslbVserverConfig> vserver)
{
    for (const GslbVserverConfig::Domain& d : vserver->GetDomains())
    {
        AddDomain(d.name, vserver->GetVirtualServer(), d.ttl, vserver->GetDnsRecordType());
        SetBackupIp(d.name, d.backupIp);
        SetEmptyDownResponse(d.name, vserver->GetEmptyDownResponse());
    }
}

GslbAdns::Domain&
GslbAdns::Find(const std::string& domain)
{
    auto it = m_domains.find(Key(domain));
    if (it == m_domains.end())
    {
        throw AdcConfigError("GslbAdns: domain " + domain + " is not served; served are " +
                             AdcConfigError::JoinAllowed(GetDomains()));
    }
    return it->second;
}

void
GslbAdns::SetBackupIp(const std::string& domain, const AdcIpAddress& ip)
{
    Find(domain).backupIp = ip;
}

void
GslbAdns::SetEmptyDownResponse(const std::string& domain, bool on)
{
    Find(domain).emptyDownResponse = on;
}

void
GslbAdns::AddDnsRecords(const AdcConfigStore& store)
{
    for (const AdcDnsResourceRecord& rr : AdcNetScalerGslbDns::GetRecords(store))
    {
        AddRecord(rr);
    }
}

const std::vector<std::string>&
GslbAdns::GetGeneratedZones() const
{
    return m_generated;
}

void
GslbAdns::StartApplication()
{
    using D = AdcNetScalerGslbDns;
    for (const std::string& key : m_order)
    {
        const Domain& d = m_domains.at(key);
        if (!FindZone(d.name).empty())
        {
            continue;
        }
        // NetScaler's `add dns soaRec` defaults; the names are the model's (NetScaler makes
        // -originServer and -contact mandatory).
        const std::string apex = AdcDnsName::Canonical(d.name);
        AdcDnsSoa soa;
        soa.mname = "ns1." + apex;
        soa.rname = "hostmaster." + apex;
        soa.serial = D::DEFAULT_SERIAL;
        soa.refresh = D::DEFAULT_REFRESH;
        soa.retry = D::DEFAULT_RETRY;
        soa.expire = D::DEFAULT_EXPIRE;
        soa.minimum = D::DEFAULT_MINIMUM;
        AddRecord(soa.ToRecord(apex, D::DEFAULT_TTL));
        AddRecord(AdcDnsResourceRecord::NameRecord(apex,
                                                   AdcDnsMessage::TYPE_NS,
                                                   soa.mname,
                                                   D::DEFAULT_TTL));
        m_generated.push_back(key);
        NS_LOG_INFO("zone " << apex << " generated for the GSLB domain");
    }
    AdcDnsServer::StartApplication();
}

void
GslbAdns::SetLdnsCallback(LdnsCallback cb)
{
    m_ldnsCallback = cb;
}

void
GslbAdns::SetReasonSource(Callback<std::string> cb)
{
    m_reasonSource = cb;
}

std::vector<std::string>
GslbAdns::GetDomains() const
{
    std::vector<std::string> out;
    for (const std::string& key : m_order)
    {
        out.push_back(m_domains.at(key).name);
    }
    return out;
}

uint64_t
GslbAdns::GetAnswered() const
{
    return m_answered;
}

uint64_t
GslbAdns::GetDownDecisions() const
{
    return m_down;
}

void
GslbAdns::DoDispose()
{
    m_domains.clear();
    m_order.clear();
    m_ldnsCallback = MakeNullCallback<void, const AdcIpAddress&>();
    m_reasonSource = MakeNullCallback<std::string>();
    AdcDnsServer::DoDispose();
}

bool
GslbAdns::HasName(const std::string& name) const
{
    return m_domains.count(Key(name)) > 0 || AdcDnsServer::HasName(name);
}

bool
GslbAdns::HasNameBelow(const std::string& name) const
{
    const std::string key = Key(name);
    for (const auto& [domain, d] : m_domains)
    {
        if (!key.empty() && domain.size() > key.size() + 1 &&
            domain.compare(domain.size() - key.size(), key.size(), key) == 0 &&
            domain[domain.size() - key.size() - 1] == '.')
        {
            return true;
        }
    }
    return AdcDnsServer::HasNameBelow(name);
}

bool
GslbAdns::Record(const Domain& d,
                 const std::string& qname,
                 const AdcIpAddress& address,
                 std::vector<AdcDnsResourceRecord>& out)
{
    if (d.recordType == AdcDnsMessage::TYPE_A && address.IsV4())
    {
        out.push_back(AdcDnsResourceRecord::A(qname, address.GetIpv4(), d.ttl));
        return true;
    }
    if (d.recordType == AdcDnsMessage::TYPE_AAAA && address.IsV6())
    {
        out.push_back(AdcDnsResourceRecord::Aaaa(qname, address.GetIpv6(), d.ttl));
        return true;
    }
    return false;
}

std::vector<AdcDnsResourceRecord>
GslbAdns::Answer(const AdcDnsQuestion& q, const Address& from)
{
    auto it = m_domains.find(Key(q.name));
    if (it == m_domains.end())
    {
        return AdcDnsServer::Answer(q, from);
    }
    Domain& d = it->second;
    AdcIpAddress ldns;
    if (InetSocketAddress::IsMatchingType(from))
    {
        ldns = InetSocketAddress::ConvertFrom(from).GetIpv4();
    }
    else if (Inet6SocketAddress::IsMatchingType(from))
    {
        ldns = Inet6SocketAddress::ConvertFrom(from).GetIpv6();
    }
    if (!m_ldnsCallback.IsNull() && !ldns.IsNone())
    {
        m_ldnsCallback(ldns);
    }
    std::vector<AdcDnsResourceRecord> answers;
    if (q.qtype != d.recordType && q.qtype != AdcDnsMessage::TYPE_ANY)
    {
        m_decisionTrace(ldns,
                        q.name,
                        "",
                        AdcIpAddress(),
                        "no-record",
                        "qtype " + std::to_string(q.qtype) + " not served; the domain has " +
                            (d.recordType == AdcDnsMessage::TYPE_A ? "A" : "AAAA") + " records");
        // The static records of that type (the SOA and NS of a zone whose apex is the domain);
        // none: NODATA.
        return AdcDnsServer::Answer(q, from);
    }
    AdcLbContext ctx;
    ctx.ldns = ldns;
    ctx.flow = AdcFlowKey(ldns, AdcIpAddress(), 0, AdcDnsMessage::kDnsPort, AdcFlowKey::PROTO_UDP);
    const AdcSelection sel = d.vserver->Select(ctx, Simulator::Now());
    if (sel.service)
    {
        const AdcIpAddress address = sel.service->GetAddress();
        // The GSLB methods say why (rtt, backup-roundrobin-partial-rtt, proximity, ...); others:
        // the name.
        Ptr<GslbLdnsLb> ldnsLb = DynamicCast<GslbLdnsLb>(d.vserver->GetLbMethod());
        std::string reason = !m_reasonSource.IsNull() ? m_reasonSource()
                             : ldnsLb                 ? ldnsLb->GetLastReason()
                                                      : d.vserver->GetLbMethodName();
        if (sel.how != "method")
        {
            reason = sel.how == "backup" ? "vserver-down-backup-vserver" : sel.how;
        }
        if (!Record(d, q.name, address, answers))
        {
            m_decisionTrace(ldns,
                            q.name,
                            sel.service->GetName(),
                            AdcIpAddress(),
                            "no-record",
                            "the service's address " + address.ToString() +
                                " is not of the domain's record type");
            return answers;
        }
        ++m_answered;
        m_decisionTrace(ldns, q.name, sel.service->GetName(), address, sel.how, reason);
        return answers;
    }
    // Nothing UP in the virtual server or its backup chain.
    ++m_down;
    if (!d.backupIp.IsNone())
    {
        Record(d, q.name, d.backupIp, answers);
        m_decisionTrace(ldns,
                        q.name,
                        "",
                        d.backupIp,
                        "backup-ip",
                        "no service up: the domain's -backupIP");
        return answers;
    }
    if (d.emptyDownResponse)
    {
        m_decisionTrace(ldns,
                        q.name,
                        "",
                        AdcIpAddress(),
                        "empty-down",
                        "no service up: -EDR ENABLED, an empty response");
        return answers;
    }
    // EDR disabled: answer with a bound service although it is not UP, round robin.
    Ptr<AdcLbMethod> lb = d.vserver->GetLbMethod();
    std::vector<std::string> bound;
    for (const AdcVirtualServer::ServiceBinding& b : d.vserver->GetServiceBindings())
    {
        bound.push_back(b.name);
    }
    std::vector<uint32_t> candidates;
    for (uint32_t i = 0; lb && i < lb->GetNBackends(); ++i)
    {
        if (std::find(bound.begin(), bound.end(), lb->GetBackend(i).name) != bound.end())
        {
            candidates.push_back(i);
        }
    }
    if (candidates.empty())
    {
        m_decisionTrace(ldns, q.name, "", AdcIpAddress(), "all-down", "no service bound");
        return answers;
    }
    const AdcBackend& b = lb->GetBackend(candidates[d.nextDown++ % candidates.size()]);
    Record(d, q.name, b.address, answers);
    m_decisionTrace(ldns,
                    q.name,
                    b.name,
                    answers.empty() ? AdcIpAddress() : b.address,
                    "all-down",
                    "no service up and -EDR DISABLED: a DOWN service, round robin");
    return answers;
}

} // namespace ns3
