/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end, GSLB: NetScaler's GSLB commands (add gslb site, add gslb
 * service, add/set/bind/unbind gslb vserver, set gslb parameter), the built-in LDNS monitors,
 * Validate and CheckDomainConsistency.
 */

#include "adc-netscaler-gslb-commands.h"

#include "adc-netscaler-commands.h"
#include "adc-netscaler-gslb-dns.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/string.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

const std::string AdcNetScalerGslbCommands::GSLB_SITE = "gslb site";
const std::string AdcNetScalerGslbCommands::GSLB_SERVICE = "gslb service";
const std::string AdcNetScalerGslbCommands::GSLB_VSERVER = "gslb vserver";
const std::string AdcNetScalerGslbCommands::GSLB_PARAMETER = "gslb parameter";
const std::string AdcNetScalerGslbCommands::PARAMETER_NAME = "gslb parameter";

namespace
{

using NS = AdcNetScalerCommands;
using GS = AdcNetScalerGslbCommands;
using Cmd = AdcConfigCommand;

/// The built-in monitors' NetScaler types, in GetBuiltinMonitors()'s order.
const std::vector<std::string> kBuiltinTypes = {"LDNS-PING", "LDNS-DNS", "LDNS-TCP"};

/// The name a built-in monitor has while the monitor commands work on it in a scratch reader
/// (the built-ins' own names would select the `set lb monitor ldns-xxx` commands again).
const std::string kScratch = "gslb-builtin-monitor";

/// The largest TTL (RFC 2181 section 8: 2^31 - 1 seconds).
constexpr uint64_t kMaxTtl = 2147483647;

/// \return the file and line of \p cmd
std::pair<std::string, uint32_t>
Where(const Cmd& cmd)
{
    const AdcConfigOrigin o = cmd.GetOrigin();
    return {o.file, o.line};
}

/// Copy every attribute of AdcHealthMonitor but "Name" from \p from to \p to.
void
CopyMonitor(Ptr<AdcHealthMonitor> from, Ptr<AdcHealthMonitor> to)
{
    const TypeId tid = AdcHealthMonitor::GetTypeId();
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        const uint32_t rw = TypeId::ATTR_GET | TypeId::ATTR_SET;
        if (info.name == "Name" || (info.flags & rw) != rw)
        {
            continue;
        }
        Ptr<AttributeValue> v = info.checker->Create();
        from->GetAttribute(info.name, *v);
        to->SetAttribute(info.name, *v);
    }
}

/// \return the NetScaler type of the built-in monitor \p name
const std::string&
BuiltinType(const std::string& name)
{
    const std::vector<std::string>& names = GS::GetBuiltinMonitors();
    const auto it = std::find(names.begin(), names.end(), name);
    return kBuiltinTypes.at(static_cast<std::size_t>(it - names.begin()));
}

/**
 * \brief Run \p lines of the monitor commands on a scratch copy of the monitor \p name of type
 * \p type (the current values of \p current, when given), and return the result: the monitor
 * commands' own parsing, defaults and checks, without a second copy of them here.
 * \param cmd the command (its errors are reported at its line)
 * \param type the monitor's NetScaler type
 * \param current the monitor's current values, or null for a new built-in monitor
 * \param lines monitor command lines naming the monitor kScratch
 * \return the scratch monitor's values, in a new monitor
 */
Ptr<AdcHealthMonitor>
RunMonitorCommands(const Cmd& cmd,
                   const std::string& type,
                   Ptr<AdcHealthMonitor> current,
                   const std::string& lines)
{
    AdcConfigReader scratch(NS::GetLanguage());
    Ptr<AdcHealthMonitor> result = CreateObject<AdcHealthMonitor>();
    try
    {
        scratch.ReadString("add lb monitor " + kScratch + " " + type, "built-in");
        Ptr<AdcHealthMonitor> m =
            scratch.GetStore().Get<AdcHealthMonitor>(NS::LB_MONITOR, kScratch);
        if (current)
        {
            CopyMonitor(current, m);
        }
        scratch.ReadString(lines, "built-in");
        CopyMonitor(m, result);
    }
    catch (const AdcConfigFileError& e)
    {
        // "built-in:1: set lb monitor: <what>": keep <what>, at this command's line.
        std::string what = e.what();
        const std::string path = "set lb monitor: ";
        const std::size_t at = what.find(path);
        what = at == std::string::npos ? what : what.substr(at + path.size());
        cmd.Fail(what);
    }
    return result;
}

/// Put the built-in monitors ldns-ping, ldns-dns and ldns-tcp (or only \p only, when given)
/// in \p cmd's store, unless there.
void
EnsureBuiltinMonitors(const Cmd& cmd, const std::string& only = "")
{
    AdcConfigStore& store = cmd.GetStore();
    for (const std::string& name : GS::GetBuiltinMonitors())
    {
        if ((only.empty() || name == only) && !store.Find(NS::LB_MONITOR, name))
        {
            Ptr<AdcHealthMonitor> m = RunMonitorCommands(cmd, BuiltinType(name), nullptr, "");
            m->SetAttribute("Name", StringValue(name));
            store.Add(NS::LB_MONITOR, name, m);
        }
    }
}

/// `set lb monitor ldns-xxx <type> ...`: the path names the monitor, operand 0 is its type;
/// \p parameters are `set lb monitor`'s.
void
SetBuiltinMonitor(Cmd& cmd, const std::vector<AdcConfigParameter>& parameters)
{
    const std::string name = cmd.GetPath().substr(cmd.GetPath().rfind(' ') + 1);
    EnsureBuiltinMonitors(cmd, name);
    Ptr<AdcHealthMonitor> m = cmd.GetStore().Get<AdcHealthMonitor>(NS::LB_MONITOR, name);
    const std::string typeName = NS::GetAttribute<StringValue>(m, "TypeName");
    const std::string type = typeName.empty() ? BuiltinType(name) : typeName;
    std::string line = "set lb monitor " + kScratch + " " + NS::Quote(cmd.Operand(0));
    for (const AdcConfigParameter& p : parameters)
    {
        if (cmd.Has(p.name))
        {
            line += " " + p.name;
            for (const std::string& v : cmd.Values(p.name))
            {
                line += " " + NS::Quote(v);
            }
        }
    }
    Ptr<AdcHealthMonitor> result = RunMonitorCommands(cmd, type, m, line);
    CopyMonitor(result, m);
}

/// `rm lb monitor ldns-xxx <type>`: refused, as NetScaler refuses removing a built-in monitor.
void
RemoveBuiltinMonitor(Cmd& cmd)
{
    const std::string name = cmd.GetPath().substr(cmd.GetPath().rfind(' ') + 1);
    cmd.Fail("a built-in monitor cannot be removed", name);
}

// ---- sites and services ------------------------------------------------------------------------

void
AddGslbSite(Cmd& cmd)
{
    EnsureBuiltinMonitors(cmd);
    const std::string& name = cmd.Operand(0);
    NS::CheckNewName(cmd, GS::GSLB_SITE, name, "siteName", "gslb site");
    AdcConfigStore& store = cmd.GetStore();
    const AdcIpAddress ip = cmd.Address(cmd.Operand(1), "siteIPAddress");
    const bool local =
        cmd.OneOf(cmd.Value("-siteType", "REMOTE"), "-siteType", {"LOCAL", "REMOTE"}) == "LOCAL";
    Ptr<GslbSiteConfig> existing = GS::GetLocalSite(store);
    if (local && existing)
    {
        cmd.Fail("a configuration has one LOCAL site; it is '" + existing->GetName() + "'",
                 cmd.Value("-siteType"),
                 {"REMOTE"});
    }
    for (const Ptr<GslbSiteConfig>& s : store.GetAll<GslbSiteConfig>(GS::GSLB_SITE))
    {
        if (s->GetSiteIp() == ip)
        {
            cmd.Fail("gslb site '" + s->GetName() + "' has this site IP already", cmd.Operand(1));
        }
    }
    Ptr<GslbSiteConfig> site = CreateObject<GslbSiteConfig>();
    site->Configure(name, ip, local);
    if (cmd.Has("-publicIP"))
    {
        site->SetPublicIp(cmd.Address(cmd.Value("-publicIP"), "-publicIP"));
    }
    store.Add(GS::GSLB_SITE, name, site);
}

void
AddGslbService(Cmd& cmd)
{
    EnsureBuiltinMonitors(cmd);
    const std::string& name = cmd.Operand(0);
    NS::CheckNewName(cmd, GS::GSLB_SERVICE, name, "serviceName", "gslb service");
    AdcConfigStore& store = cmd.GetStore();
    const AdcIpAddress ip = cmd.Address(cmd.Operand(1), "IP");
    const std::string type =
        cmd.OneOf(cmd.Operand(2), "serviceType", AdcService::GetServiceTypes());
    const uint16_t port = NS::ReadPort(cmd, cmd.Operand(3), type);
    if (!cmd.Has("-siteName"))
    {
        cmd.Fail("missing -siteName (a gslb service belongs to a gslb site)",
                 name,
                 store.GetNames(GS::GSLB_SITE));
    }
    cmd.Ref<GslbSiteConfig>(GS::GSLB_SITE, cmd.Value("-siteName"), "gslb site");
    Ptr<GslbServiceConfig> s = CreateObject<GslbServiceConfig>();
    cmd.Check([&] { s->Configure(name, ip, type, port, cmd.Value("-siteName")); });
    if (cmd.Has("-publicIP"))
    {
        s->SetPublicIp(cmd.Address(cmd.Value("-publicIP"), "-publicIP"));
    }
    if (cmd.Has("-publicPort"))
    {
        s->SetPublicPort(
            static_cast<uint16_t>(cmd.Number(cmd.Value("-publicPort"), "-publicPort", 1, 65535)));
    }
    store.Add(GS::GSLB_SERVICE, name, s);
}

/// `bind gslb service <name> -monitorName <m>` and `unbind ...`: a monitor of the service's
/// (public) address, run by the appliance (GslbHelper installs it); its state joins MEP's.
void
BindGslbServiceMonitor(Cmd& cmd, bool bind)
{
    Ptr<GslbServiceConfig> s =
        cmd.Ref<GslbServiceConfig>(GS::GSLB_SERVICE, cmd.Operand(0), "gslb service");
    if (!cmd.Has("-monitorName"))
    {
        cmd.Fail("missing -monitorName");
    }
    const std::string& m = cmd.Value("-monitorName");
    Ptr<AdcHealthMonitor> monitor = cmd.Ref<AdcHealthMonitor>(NS::LB_MONITOR, m, "monitor");
    if (bind)
    {
        s->GetService()->BindMonitor(monitor);
    }
    else if (!s->GetService()->UnbindMonitor(monitor))
    {
        cmd.Fail("monitor is not bound to the gslb service", m);
    }
}

void
ShowServiceMonitors(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<GslbServiceConfig>& s : store.GetAll<GslbServiceConfig>(GS::GSLB_SERVICE))
    {
        for (const Ptr<AdcHealthMonitor>& m : s->GetService()->GetMonitors())
        {
            os << "bind gslb service " << NS::Quote(s->GetName()) << " -monitorName "
               << NS::Quote(NS::GetAttribute<StringValue>(m, "Name")) << "\n";
        }
    }
}

// ---- virtual servers ---------------------------------------------------------------------------

/// Apply add or set gslb vserver's parameters to \p v (all of them or, on an error, none).
void
ApplyVserverParameters(const Cmd& cmd, Ptr<GslbVserverConfig> v)
{
    const std::string method =
        cmd.Has("-lbMethod") ? cmd.OneOf(cmd.Value("-lbMethod"), "-lbMethod", GS::GetLbMethods())
                             : v->GetLbMethod();
    const std::string backup =
        cmd.Has("-backupLBMethod")
            ? cmd.OneOf(cmd.Value("-backupLBMethod"), "-backupLBMethod", GS::GetLbMethods())
            : v->GetBackupLbMethod();
    const uint64_t tolerance = cmd.Has("-tolerance")
                                   ? cmd.Number(cmd.Value("-tolerance"),
                                                "-tolerance",
                                                0,
                                                GslbVserverConfig::MAX_TOLERANCE_MS)
                                   : v->GetToleranceMs();
    uint16_t recordType = v->GetDnsRecordType();
    if (cmd.Has("-dnsRecordType"))
    {
        recordType = cmd.OneOf(cmd.Value("-dnsRecordType"), "-dnsRecordType", {"A", "AAAA"}) == "A"
                         ? AdcDnsMessage::TYPE_A
                         : AdcDnsMessage::TYPE_AAAA;
    }
    const bool edr = cmd.Has("-EDR") ? NS::ReadEnabled(cmd, cmd.Value("-EDR"), "-EDR")
                                     : v->GetEmptyDownResponse();
    cmd.Check([&] {
        v->SetLbMethod(method);
        if (cmd.Has("-backupLBMethod"))
        {
            v->SetBackupLbMethod(backup); // marks it as given
        }
        if (cmd.Has("-tolerance"))
        {
            v->SetToleranceMs(static_cast<uint32_t>(tolerance)); // marks it as given
        }
        v->SetDnsRecordType(recordType);
        v->SetEmptyDownResponse(edr);
    });
}

void
AddGslbVserver(Cmd& cmd)
{
    EnsureBuiltinMonitors(cmd);
    const std::string& name = cmd.Operand(0);
    NS::CheckNewName(cmd, GS::GSLB_VSERVER, name, "name", "gslb vserver");
    const std::string type =
        cmd.OneOf(cmd.Operand(1), "serviceType", AdcService::GetServiceTypes());
    Ptr<GslbVserverConfig> v = CreateObject<GslbVserverConfig>();
    v->Configure(name, type);
    const auto [file, line] = Where(cmd);
    v->SetLocation(file, line);
    ApplyVserverParameters(cmd, v);
    cmd.GetStore().Add(GS::GSLB_VSERVER, name, v);
}

/// \return the GSLB virtual server the command's first operand names
Ptr<GslbVserverConfig>
Vserver(const Cmd& cmd)
{
    return cmd.Ref<GslbVserverConfig>(GS::GSLB_VSERVER, cmd.Operand(0), "gslb vserver");
}

void
SetGslbVserver(Cmd& cmd)
{
    EnsureBuiltinMonitors(cmd);
    ApplyVserverParameters(cmd, Vserver(cmd));
    cmd.NoteParameters(GS::GSLB_VSERVER, cmd.Operand(0));
}

/// Check that exactly one of -serviceName and -domainName is given.
void
CheckBindTarget(const Cmd& cmd)
{
    if (cmd.Has("-serviceName") == cmd.Has("-domainName"))
    {
        cmd.Fail("give one of -serviceName and -domainName",
                 cmd.Operand(0),
                 {"-serviceName <name>", "-domainName <domain>"});
    }
}

void
BindGslbVserver(Cmd& cmd)
{
    EnsureBuiltinMonitors(cmd);
    Ptr<GslbVserverConfig> v = Vserver(cmd);
    CheckBindTarget(cmd);
    if (cmd.Has("-serviceName"))
    {
        if (cmd.Has("-TTL") || cmd.Has("-backupIP"))
        {
            cmd.Fail("-TTL and -backupIP go with -domainName", cmd.Value("-serviceName"));
        }
        Ptr<GslbServiceConfig> s =
            cmd.Ref<GslbServiceConfig>(GS::GSLB_SERVICE, cmd.Value("-serviceName"), "gslb service");
        cmd.Check([&] { v->BindService(s); });
        return;
    }
    GslbVserverConfig::Domain d;
    d.name = cmd.Value("-domainName");
    d.ttl = static_cast<uint32_t>(
        cmd.Number(cmd.Value("-TTL", std::to_string(GslbVserverConfig::DEFAULT_TTL)),
                   "-TTL",
                   0,
                   kMaxTtl));
    if (cmd.Has("-backupIP"))
    {
        d.backupIp = cmd.Address(cmd.Value("-backupIP"), "-backupIP");
    }
    std::tie(d.file, d.line) = Where(cmd);
    for (const Ptr<GslbVserverConfig>& other :
         cmd.GetStore().GetAll<GslbVserverConfig>(GS::GSLB_VSERVER))
    {
        for (const GslbVserverConfig::Domain& b : other->GetDomains())
        {
            if (other != v && AdcDnsName::Equal(b.name, d.name))
            {
                cmd.Fail("the domain is bound to gslb vserver '" + other->GetName() + "' already",
                         d.name);
            }
        }
    }
    cmd.Check([&] { v->BindDomain(d); });
}

void
UnbindGslbVserver(Cmd& cmd)
{
    EnsureBuiltinMonitors(cmd);
    Ptr<GslbVserverConfig> v = Vserver(cmd);
    CheckBindTarget(cmd);
    if (cmd.Has("-serviceName"))
    {
        if (!v->UnbindService(cmd.Value("-serviceName")))
        {
            cmd.Fail("the gslb service is not bound",
                     cmd.Value("-serviceName"),
                     v->GetServiceNames());
        }
        return;
    }
    if (!v->UnbindDomain(cmd.Value("-domainName")))
    {
        std::vector<std::string> bound;
        for (const GslbVserverConfig::Domain& d : v->GetDomains())
        {
            bound.push_back(d.name);
        }
        cmd.Fail("the domain is not bound", cmd.Value("-domainName"), bound);
    }
}

// ---- the GSLB parameter ------------------------------------------------------------------------

void
SetGslbParameter(Cmd& cmd)
{
    EnsureBuiltinMonitors(cmd);
    AdcConfigStore& store = cmd.GetStore();
    Ptr<GslbParameterConfig> current = GS::GetParameter(store);
    std::vector<std::string> order = current->GetProbeOrder();
    if (cmd.Has("-ldnsprobeOrder"))
    {
        const std::vector<std::string>& kinds = GslbParameterConfig::GetProbeKinds();
        const std::vector<std::string>& words = cmd.Values("-ldnsprobeOrder");
        order.clear();
        for (const std::string& w : words)
        {
            const std::string kind = cmd.OneOf(w, "-ldnsprobeOrder", kinds);
            if (std::find(order.begin(), order.end(), kind) != order.end())
            {
                cmd.Fail("a probe kind is given twice in -ldnsprobeOrder", w, kinds);
            }
            order.push_back(kind);
        }
    }
    auto number = [&](const std::string& param, uint64_t min, uint64_t max, uint32_t now) {
        return cmd.Has(param) ? static_cast<uint32_t>(cmd.Number(cmd.Value(param), param, min, max))
                              : now;
    };
    const uint32_t entry = number("-ldnsEntryTimeout",
                                  GslbParameterConfig::MIN_LDNS_ENTRY_TIMEOUT,
                                  GslbParameterConfig::MAX_LDNS_ENTRY_TIMEOUT,
                                  current->GetLdnsEntryTimeout());
    const uint32_t mep = number("-mepKeepAliveTimeout",
                                1,
                                GslbParameterConfig::MAX_MEP_KEEPALIVE_TIMEOUT,
                                current->GetMepKeepAliveTimeout());
    const uint32_t tolerance = number("-rttTolerance",
                                      1,
                                      GslbParameterConfig::MAX_RTT_TOLERANCE,
                                      current->GetRttTolerance());
    cmd.Check([&] {
        current->SetProbeOrder(order);
        current->SetLdnsEntryTimeout(entry);
        current->SetMepKeepAliveTimeout(mep);
        current->SetRttTolerance(tolerance);
    });
    if (!store.Find(GS::GSLB_PARAMETER, GS::PARAMETER_NAME))
    {
        store.Add(GS::GSLB_PARAMETER, GS::PARAMETER_NAME, current);
    }
    cmd.NoteParameters(GS::GSLB_PARAMETER, GS::PARAMETER_NAME);
}

// ---- show --------------------------------------------------------------------------------------

void
ShowSites(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<GslbSiteConfig>& s : store.GetAll<GslbSiteConfig>(GS::GSLB_SITE))
    {
        os << "add gslb site " << NS::Quote(s->GetName()) << " " << s->GetSiteIp().ToString()
           << (s->IsLocal() ? " -siteType LOCAL" : "");
        if (s->HasPublicIp())
        {
            os << " -publicIP " << s->GetPublicIp().ToString();
        }
        os << "\n";
    }
}

void
ShowServices(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<GslbServiceConfig>& s : store.GetAll<GslbServiceConfig>(GS::GSLB_SERVICE))
    {
        os << "add gslb service " << NS::Quote(s->GetName()) << " " << s->GetIp().ToString() << " "
           << s->GetServiceType() << " " << (s->GetPort() == 0 ? "*" : std::to_string(s->GetPort()))
           << " -siteName " << NS::Quote(s->GetSiteName());
        if (s->HasPublicIp())
        {
            os << " -publicIP " << s->GetPublicIp().ToString();
        }
        if (s->HasPublicPort())
        {
            os << " -publicPort " << s->GetPublicPort();
        }
        os << "\n";
    }
}

void
ShowVservers(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<GslbVserverConfig>& v : store.GetAll<GslbVserverConfig>(GS::GSLB_VSERVER))
    {
        os << "add gslb vserver " << NS::Quote(v->GetName()) << " " << v->GetServiceType();
        if (v->GetLbMethod() != GslbVserverConfig::DEFAULT_LB_METHOD)
        {
            os << " -lbMethod " << v->GetLbMethod();
        }
        if (v->IsBackupLbMethodSet())
        {
            os << " -backupLBMethod " << v->GetBackupLbMethod();
        }
        if (v->IsToleranceSet()) // given, even as 0: the seed's reading defaults it to 5
        {
            os << " -tolerance " << v->GetToleranceMs();
        }
        if (v->GetDnsRecordType() == AdcDnsMessage::TYPE_AAAA)
        {
            os << " -dnsRecordType AAAA";
        }
        os << (v->GetEmptyDownResponse() ? " -EDR ENABLED" : "") << "\n";
    }
}

void
ShowBindings(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<GslbVserverConfig>& v : store.GetAll<GslbVserverConfig>(GS::GSLB_VSERVER))
    {
        const std::string bind = "bind gslb vserver " + NS::Quote(v->GetName());
        for (const std::string& s : v->GetServiceNames())
        {
            os << bind << " -serviceName " << NS::Quote(s) << "\n";
        }
        for (const GslbVserverConfig::Domain& d : v->GetDomains())
        {
            os << bind << " -domainName " << NS::Quote(d.name);
            if (d.ttl != GslbVserverConfig::DEFAULT_TTL)
            {
                os << " -TTL " << d.ttl;
            }
            if (!d.backupIp.IsNone())
            {
                os << " -backupIP " << d.backupIp.ToString();
            }
            os << "\n";
        }
    }
}

void
ShowParameter(const AdcConfigStore& store, std::ostream& os)
{
    if (!store.Find(GS::GSLB_PARAMETER, GS::PARAMETER_NAME))
    {
        return;
    }
    Ptr<GslbParameterConfig> p = GS::GetParameter(store);
    std::ostringstream line;
    if (p->GetProbeOrder() != GslbParameterConfig::GetProbeKinds())
    {
        line << " -ldnsprobeOrder";
        for (const std::string& k : p->GetProbeOrder())
        {
            line << " " << k;
        }
    }
    if (p->GetLdnsEntryTimeout() != GslbParameterConfig::DEFAULT_LDNS_ENTRY_TIMEOUT)
    {
        line << " -ldnsEntryTimeout " << p->GetLdnsEntryTimeout();
    }
    if (p->GetMepKeepAliveTimeout() != GslbParameterConfig::DEFAULT_MEP_KEEPALIVE_TIMEOUT)
    {
        line << " -mepKeepAliveTimeout " << p->GetMepKeepAliveTimeout();
    }
    if (p->GetRttTolerance() != GslbParameterConfig::DEFAULT_RTT_TOLERANCE)
    {
        line << " -rttTolerance " << p->GetRttTolerance();
    }
    if (!line.str().empty())
    {
        os << "set gslb parameter" << line.str() << "\n";
    }
}

} // namespace

// ---- AdcNetScalerGslbCommands ------------------------------------------------------------------

const std::vector<std::string>&
AdcNetScalerGslbCommands::GetBuiltinMonitors()
{
    static const std::vector<std::string> names = {"ldns-ping", "ldns-dns", "ldns-tcp"};
    return names;
}

std::vector<std::string>
AdcNetScalerGslbCommands::GetLbMethods()
{
    // RTT and STATICPROXIMITY are registered by the GSLB LB methods (gslb-lb-methods.cc): the
    // configuration accepts them by name even where that code is not linked, and
    // GslbVserverConfig::GetVirtualServer then says the method is missing. Keep in sync.
    std::vector<std::string> methods = {"ROUNDROBIN", "LEASTCONNECTION", "RTT", "STATICPROXIMITY"};
    for (const std::string& m : AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER,
                                                              AdcLbMethodRegistry::USES_LDNS))
    {
        if (AdcText::Find(m, methods, AdcText::INSENSITIVE) < 0)
        {
            methods.push_back(m);
        }
    }
    return methods;
}

Ptr<GslbParameterConfig>
AdcNetScalerGslbCommands::GetParameter(const AdcConfigStore& store)
{
    Ptr<GslbParameterConfig> p = store.Get<GslbParameterConfig>(GSLB_PARAMETER, PARAMETER_NAME);
    return p ? p : CreateObject<GslbParameterConfig>();
}

Ptr<GslbSiteConfig>
AdcNetScalerGslbCommands::GetLocalSite(const AdcConfigStore& store)
{
    for (const Ptr<GslbSiteConfig>& s : store.GetAll<GslbSiteConfig>(GSLB_SITE))
    {
        if (s->IsLocal())
        {
            return s;
        }
    }
    return nullptr;
}

void
AdcNetScalerGslbCommands::Validate(const AdcConfigStore& store)
{
    const std::vector<Ptr<GslbVserverConfig>> vservers =
        store.GetAll<GslbVserverConfig>(GSLB_VSERVER);
    for (const Ptr<GslbVserverConfig>& v : vservers)
    {
        if (v->GetServices().empty() && !v->GetDomains().empty())
        {
            const GslbVserverConfig::Domain& d = v->GetDomains().front();
            AdcConfigFileError::Fail(
                AdcConfigOrigin{d.file, d.line, "bind gslb vserver"},
                "domain '" + d.name + "' is bound to gslb vserver '" + v->GetName() +
                    "', which has no gslb service bound (a DNS query could get no answer)",
                v->GetName(),
                {"gslb vservers with `bind gslb vserver " + v->GetName() +
                 " -serviceName <s>` of " +
                 AdcConfigError::JoinAllowed(store.GetNames(GSLB_SERVICE))});
        }
        // NITRO gslbvserver backuplbmethod: "Valid only if the primary method is based on
        // either round-trip time (RTT) or static proximity".
        if (v->IsBackupLbMethodSet() && v->GetLbMethod() != "RTT" &&
            v->GetLbMethod() != "STATICPROXIMITY")
        {
            AdcConfigFileError::Fail(
                store.GetOrigin(GSLB_VSERVER, v->GetName(), "-backupLBMethod"),
                "gslb vserver '" + v->GetName() + "' has -backupLBMethod " +
                    v->GetBackupLbMethod() + " but -lbMethod " + v->GetLbMethod() +
                    "; a backup method applies only to the RTT and STATICPROXIMITY methods",
                v->GetLbMethod(),
                {"-lbMethod RTT", "-lbMethod STATICPROXIMITY"});
        }
    }
    if (!vservers.empty() && !GetLocalSite(store))
    {
        const Ptr<GslbVserverConfig>& v = vservers.front();
        AdcConfigFileError::Fail(
            AdcConfigOrigin{v->GetFile(), v->GetLine(), "add gslb vserver"},
            "a configuration with a gslb vserver needs one gslb site with -siteType LOCAL",
            v->GetName(),
            {"the sites " + AdcConfigError::JoinAllowed(store.GetNames(GSLB_SITE)) +
             " with one of them LOCAL"});
    }
}

void
AdcNetScalerGslbCommands::ReadFile(AdcConfigReader& reader, const std::string& path)
{
    reader.ReadFile(path);
    Validate(reader.GetStore());
}

void
AdcNetScalerGslbCommands::Register(AdcConfigLanguage& language)
{
    const AdcConfigCommandSpec* setMonitor = nullptr;
    for (const AdcConfigCommandSpec& c : language.GetCommands())
    {
        if (c.path == "add gslb site")
        {
            return;
        }
        setMonitor = c.path == "set lb monitor" ? &c : setMonitor;
    }
    const std::vector<AdcConfigParameter> monitorParameters =
        setMonitor ? setMonitor->parameters : std::vector<AdcConfigParameter>{};
    const std::vector<AdcConfigParameter> vserverParameters = {{"-lbMethod"},
                                                               {"-backupLBMethod"},
                                                               {"-tolerance"},
                                                               {"-dnsRecordType"},
                                                               {"-EDR"}};
    const std::vector<AdcConfigParameter> bindParameters = {{"-serviceName"},
                                                            {"-domainName"},
                                                            {"-TTL"},
                                                            {"-backupIP"}};
    const std::vector<std::string> name{"<name>"};
    // After every other subject's lines (ns.conf puts GSLB near its end).
    // clang-format off
    std::vector<AdcConfigCommandSpec> commands = {
        {"add gslb site", {"<siteName>", "<siteIPAddress>"}, 2, false,
         {{"-siteType"}, {"-publicIP"}}, AddGslbSite, ShowSites, 90},
        {"add gslb service", {"<serviceName>", "<IP>", "<serviceType>", "<port>"}, 4, false,
         {{"-siteName"}, {"-publicIP"}, {"-publicPort"}}, AddGslbService, ShowServices, 91},
        {"bind gslb service", name, 1, false, {{"-monitorName"}},
         [](Cmd& cmd) { BindGslbServiceMonitor(cmd, true); }, ShowServiceMonitors, 92},
        {"unbind gslb service", name, 1, false, {{"-monitorName"}},
         [](Cmd& cmd) { BindGslbServiceMonitor(cmd, false); }, {}, 0},
        {"add gslb vserver", {"<name>", "<serviceType>"}, 2, false, vserverParameters,
         AddGslbVserver, ShowVservers, 92},
        {"set gslb vserver", name, 1, false,
         {{"-lbMethod"}, {"-backupLBMethod"}, {"-tolerance"}, {"-EDR"}},
         SetGslbVserver, {}, 0},
        {"bind gslb vserver", name, 1, false, bindParameters, BindGslbVserver, ShowBindings, 93},
        {"unbind gslb vserver", name, 1, false, {{"-serviceName"}, {"-domainName"}},
         UnbindGslbVserver, {}, 0},
        {"set gslb parameter", {}, 0, false,
         {{"-ldnsprobeOrder", 1, 8}, {"-ldnsEntryTimeout"}, {"-mepKeepAliveTimeout"},
          {"-rttTolerance"}}, SetGslbParameter, ShowParameter, 94},
    };
    // clang-format on
    for (const std::string& monitor : GetBuiltinMonitors())
    {
        commands.push_back(
            {"set lb monitor " + monitor,
             {"<type>"},
             1,
             false,
             monitorParameters,
             [monitorParameters](Cmd& cmd) { SetBuiltinMonitor(cmd, monitorParameters); },
             {},
             0});
        commands.push_back(
            {"rm lb monitor " + monitor, {"<type>"}, 1, false, {}, RemoveBuiltinMonitor, {}, 0});
    }
    for (const AdcConfigCommandSpec& c : commands)
    {
        language.RegisterCommand(c);
    }
    AdcNetScalerGslbDns::Register(language); // the ADNS's zones: add dns soaRec, nsRec, cnameRec
}

AdcConfigLanguage&
AdcNetScalerGslbCommands::GetLanguage()
{
    static AdcConfigLanguage& language = []() -> AdcConfigLanguage& {
        AdcConfigLanguage& l = AdcNetScalerCommands::GetLanguage();
        Register(l);
        return l;
    }();
    return language;
}

} // namespace ns3
