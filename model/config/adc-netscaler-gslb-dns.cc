/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, GSLB: NetScaler's DNS record commands (add dns soaRec,
 * add dns nsRec, add dns cnameRec).
 */

#include "adc-netscaler-gslb-dns.h"

#include "adc-netscaler-commands.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <cctype>
#include <ostream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GslbDnsRecordConfig);

const std::string AdcNetScalerGslbDns::DNS_SOA_REC = "dns soaRec";
const std::string AdcNetScalerGslbDns::DNS_NS_REC = "dns nsRec";
const std::string AdcNetScalerGslbDns::DNS_CNAME_REC = "dns cnameRec";

TypeId
GslbDnsRecordConfig::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GslbDnsRecordConfig")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<GslbDnsRecordConfig>();
    return tid;
}

void
GslbDnsRecordConfig::SetRecord(const AdcDnsResourceRecord& rr)
{
    m_record = rr;
}

const AdcDnsResourceRecord&
GslbDnsRecordConfig::GetRecord() const
{
    return m_record;
}

namespace
{

using D = AdcNetScalerGslbDns;
using NS = AdcNetScalerCommands;
using Cmd = AdcConfigCommand;

constexpr uint64_t kMaxTtl = 2147483647;  //!< RFC 2181 section 8
constexpr uint64_t kMaxSoaField = 0xFFFFFFFEULL; //!< NetScaler's maximum of serial..expire

/// \return \p name's canonical text, lower case (a store key); fails at \p cmd's line
std::string
NameKey(const Cmd& cmd, const std::string& name, const std::string& what)
{
    std::string key;
    try
    {
        key = AdcDnsName::Canonical(name);
    }
    catch (const AdcConfigError& e)
    {
        cmd.Fail(std::string("not a domain name (") + e.what() + ")", name, {"a name of labels of "
                 "1..63 bytes, at most 255 bytes on the wire, e.g. gslb.example.com"});
    }
    if (key == ".")
    {
        cmd.Fail("the root cannot be " + what, name);
    }
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return key;
}

/// \return -TTL, or the default
uint32_t
Ttl(const Cmd& cmd)
{
    return static_cast<uint32_t>(
        cmd.Number(cmd.Value("-TTL", std::to_string(D::DEFAULT_TTL)), "-TTL", 0, kMaxTtl));
}

/// Store \p rr under \p kind and \p key (the key names the record for Show and duplicates).
void
Store(Cmd& cmd, const std::string& kind, const std::string& key, const AdcDnsResourceRecord& rr)
{
    Ptr<GslbDnsRecordConfig> c = CreateObject<GslbDnsRecordConfig>();
    c->SetRecord(rr);
    cmd.GetStore().Add(kind, key, c);
}

/// Fail when \p key has a cnameRec (RFC 1034 3.6.2: a CNAME owner has no other data).
void
CheckNotAlias(const Cmd& cmd, const std::string& key, const std::string& word)
{
    if (cmd.GetStore().Find(D::DNS_CNAME_REC, key))
    {
        cmd.Fail("the name has a dns cnameRec, and a CNAME's owner has no other data (RFC 1034 "
                 "section 3.6.2)",
                 word);
    }
}

void
AddSoaRec(Cmd& cmd)
{
    const std::string key = NameKey(cmd, cmd.Operand(0), "a zone's apex here");
    if (cmd.GetStore().Find(D::DNS_SOA_REC, key))
    {
        cmd.Fail("the domain has a dns soaRec already (a zone has one SOA)", cmd.Operand(0));
    }
    CheckNotAlias(cmd, key, cmd.Operand(0));
    for (const char* p : {"-originServer", "-contact"})
    {
        if (!cmd.Has(p))
        {
            cmd.Fail(std::string("missing ") + p + " (mandatory)", cmd.Operand(0));
        }
    }
    AdcDnsSoa soa;
    soa.mname = cmd.Value("-originServer");
    soa.rname = cmd.Value("-contact");
    NameKey(cmd, soa.mname, "-originServer");
    NameKey(cmd, soa.rname, "-contact");
    const auto field = [&](const char* p, uint32_t def, uint64_t max) {
        return static_cast<uint32_t>(cmd.Number(cmd.Value(p, std::to_string(def)), p, 0, max));
    };
    soa.serial = field("-serial", D::DEFAULT_SERIAL, kMaxSoaField);
    soa.refresh = field("-refresh", D::DEFAULT_REFRESH, kMaxSoaField);
    soa.retry = field("-retry", D::DEFAULT_RETRY, kMaxSoaField);
    soa.expire = field("-expire", D::DEFAULT_EXPIRE, kMaxSoaField);
    soa.minimum = field("-minimum", D::DEFAULT_MINIMUM, kMaxTtl);
    AdcDnsResourceRecord rr;
    cmd.Check([&] { rr = soa.ToRecord(AdcDnsName::Canonical(cmd.Operand(0)), Ttl(cmd)); });
    Store(cmd, D::DNS_SOA_REC, key, rr);
}

void
AddNsRec(Cmd& cmd)
{
    const std::string key = NameKey(cmd, cmd.Operand(0), "an nsRec's domain here");
    const std::string server = NameKey(cmd, cmd.Operand(1), "a name server");
    if (cmd.GetStore().Find(D::DNS_NS_REC, key + " " + server))
    {
        cmd.Fail("the domain has this dns nsRec already", cmd.Operand(1));
    }
    CheckNotAlias(cmd, key, cmd.Operand(0));
    AdcDnsResourceRecord rr;
    cmd.Check([&] {
        rr = AdcDnsResourceRecord::NameRecord(cmd.Operand(0),
                                              AdcDnsMessage::TYPE_NS,
                                              cmd.Operand(1),
                                              Ttl(cmd));
    });
    Store(cmd, D::DNS_NS_REC, key + " " + server, rr);
}

void
AddCnameRec(Cmd& cmd)
{
    const std::string key = NameKey(cmd, cmd.Operand(0), "an alias");
    const std::string target = NameKey(cmd, cmd.Operand(1), "a canonical name");
    if (cmd.GetStore().Find(D::DNS_CNAME_REC, key))
    {
        cmd.Fail("the alias has a dns cnameRec already (one CNAME per name, RFC 2181 section "
                 "10.1)",
                 cmd.Operand(0));
    }
    if (key == target)
    {
        cmd.Fail("an alias cannot be its own canonical name (a CNAME loop)", cmd.Operand(1));
    }
    if (cmd.GetStore().Find(D::DNS_SOA_REC, key))
    {
        cmd.Fail("the name has a dns soaRec, and a CNAME's owner has no other data (RFC 1034 "
                 "section 3.6.2)",
                 cmd.Operand(0));
    }
    for (const std::string& ns : cmd.GetStore().GetNames(D::DNS_NS_REC))
    {
        if (ns.substr(0, ns.find(' ')) == key)
        {
            cmd.Fail("the name has a dns nsRec, and a CNAME's owner has no other data (RFC 1034 "
                     "section 3.6.2)",
                     cmd.Operand(0));
        }
    }
    AdcDnsResourceRecord rr;
    cmd.Check([&] {
        rr = AdcDnsResourceRecord::NameRecord(cmd.Operand(0),
                                              AdcDnsMessage::TYPE_CNAME,
                                              cmd.Operand(1),
                                              Ttl(cmd));
    });
    Store(cmd, D::DNS_CNAME_REC, key, rr);
}

/// \return the records of \p kind in \p store, in the order added
std::vector<AdcDnsResourceRecord>
Records(const AdcConfigStore& store, const std::string& kind)
{
    std::vector<AdcDnsResourceRecord> out;
    for (const Ptr<GslbDnsRecordConfig>& c : store.GetAll<GslbDnsRecordConfig>(kind))
    {
        out.push_back(c->GetRecord());
    }
    return out;
}

/// \return " -TTL n" unless \p ttl is the default
std::string
TtlText(uint32_t ttl)
{
    return ttl == D::DEFAULT_TTL ? "" : " -TTL " + std::to_string(ttl);
}

void
ShowRecords(const AdcConfigStore& store, std::ostream& os)
{
    for (const AdcDnsResourceRecord& rr : Records(store, D::DNS_SOA_REC))
    {
        const AdcDnsSoa soa = *AdcDnsSoa::FromRecord(rr);
        os << "add dns soaRec " << NS::Quote(rr.name) << " -originServer " << NS::Quote(soa.mname)
           << " -contact " << NS::Quote(soa.rname);
        const std::pair<const char*, std::pair<uint32_t, uint32_t>> fields[] = {
            {"-serial", {soa.serial, D::DEFAULT_SERIAL}},
            {"-refresh", {soa.refresh, D::DEFAULT_REFRESH}},
            {"-retry", {soa.retry, D::DEFAULT_RETRY}},
            {"-expire", {soa.expire, D::DEFAULT_EXPIRE}},
            {"-minimum", {soa.minimum, D::DEFAULT_MINIMUM}}};
        for (const auto& [p, v] : fields)
        {
            if (v.first != v.second)
            {
                os << " " << p << " " << v.first;
            }
        }
        os << TtlText(rr.ttl) << "\n";
    }
    for (const char* kind : {"nsRec", "cnameRec"})
    {
        for (const AdcDnsResourceRecord& rr : Records(store, std::string("dns ") + kind))
        {
            os << "add dns " << kind << " " << NS::Quote(rr.name) << " "
               << NS::Quote(*rr.GetTargetName()) << TtlText(rr.ttl) << "\n";
        }
    }
}

} // namespace

void
AdcNetScalerGslbDns::Register(AdcConfigLanguage& language)
{
    for (const AdcConfigCommandSpec& c : language.GetCommands())
    {
        if (c.path == "add dns soaRec")
        {
            return;
        }
    }
    // clang-format off
    language.RegisterCommand({"add dns soaRec", {"<domainName>"}, 1, false,
        {{"-originServer"}, {"-contact"}, {"-serial"}, {"-refresh"}, {"-retry"}, {"-expire"},
         {"-minimum"}, {"-TTL"}}, AddSoaRec, ShowRecords, 89});
    language.RegisterCommand({"add dns nsRec", {"<domain>", "<nameServer>"}, 2, false,
        {{"-TTL"}}, AddNsRec, {}, 0});
    language.RegisterCommand({"add dns cnameRec", {"<aliasName>", "<canonicalName>"}, 2, false,
        {{"-TTL"}}, AddCnameRec, {}, 0});
    // clang-format on
}

std::vector<AdcDnsResourceRecord>
AdcNetScalerGslbDns::GetRecords(const AdcConfigStore& store)
{
    std::vector<AdcDnsResourceRecord> out = Records(store, DNS_SOA_REC);
    for (const std::string& kind : {DNS_NS_REC, DNS_CNAME_REC})
    {
        const std::vector<AdcDnsResourceRecord> more = Records(store, kind);
        out.insert(out.end(), more.begin(), more.end());
    }
    return out;
}

} // namespace ns3
