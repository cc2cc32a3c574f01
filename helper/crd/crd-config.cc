/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crd-config.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-crd-commands.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{

using NS = AdcNetScalerCommands;
using CRD = AdcNetScalerCrdCommands;

/// The clients' network as a PBR's -destIP range gives it.
const std::string kClientRange = "10.0.0.0-10.255.255.255";

/// A file's configuration: its name and store (whose objects know their lines).
struct Source
{
    std::string file;            //!< the file
    const AdcConfigStore* store; //!< what it defines

    /// \return where the file sets \p kind \p name's \p aspect (the object's line; the file)
    AdcConfigOrigin At(const std::string& kind,
                       const std::string& name,
                       const std::string& aspect = "") const
    {
        AdcConfigOrigin o =
            aspect.empty() ? store->GetOrigin(kind, name) : store->GetOrigin(kind, name, aspect);
        return o.IsKnown() ? o : AdcConfigOrigin{file, 0, ""};
    }
};

/// Fail at \p o (the checks come after reading; each names the line to edit)
[[noreturn]] void
Fail(const AdcConfigOrigin& o,
     const std::string& what,
     const std::string& word,
     const std::vector<std::string>& allowed = {})
{
    AdcConfigFileError::Fail(o, what, word, allowed);
}

/// Fail naming the file alone (something the file lacks)
[[noreturn]] void
Fail(const std::string& file, const std::string& what)
{
    AdcConfigFileError::Fail(AdcConfigOrigin{file, 0, ""}, what);
}

/// \return \p a as text
template <typename A>
std::string
Text(const A& a)
{
    std::ostringstream os;
    os << a;
    return os.str();
}

/// The monitor settings the topology helper takes (one set for both tiers).
struct MonitorSettings
{
    Time interval;      //!< -interval
    Time timeout;       //!< -resptimeout
    uint64_t retries;   //!< -retries
    AdcConfigOrigin at; //!< the monitor's add line
};

/// What an upper appliance's file says.
struct Upper
{
    Source src;                            //!< its file
    std::string host;                      //!< set ns hostName
    std::string method;                    //!< the LB vserver's method (canonical)
    std::string vserver;                   //!< the LB vserver's name
    std::vector<Ptr<AdcService>> services; //!< per lower appliance
    Ptr<AdcHealthMonitor> monitor;         //!< bound to every service, or null
    std::vector<Ptr<AdcNsPbrConfig>> pbrs; //!< per lower appliance (by next hop)
};

/// What a lower appliance's file says.
struct Lower
{
    Source src;                            //!< its file
    std::string host;                      //!< set ns hostName
    AdcPortRange range;                    //!< -crPortRange
    Ipv4Address mip;                       //!< the MIP
    Ptr<AdcCrVserverConfig> cr;            //!< the cr vserver
    std::string method;                    //!< the cache LB vserver's method
    std::string vserver;                   //!< the cache LB vserver's name
    std::vector<Ptr<AdcService>> services; //!< per cache
    std::string header;                    //!< the client-IP header
    Ptr<AdcHealthMonitor> monitor;         //!< bound to every cache service, or null
};

/// \return the host name of \p s (AdcConfigError when not set)
std::string
HostName(const Source& s)
{
    Ptr<AdcNsSettingsConfig> ns = CRD::GetSettings(*s.store);
    if (!ns || ns->hostName.empty())
    {
        Fail(s.file, "no 'set ns hostName': it names the appliance (L1NS1.., L2NS1..)");
    }
    return ns->hostName;
}

/// \return the one object of \p kind in \p s (AdcConfigError for none or several)
template <typename T>
Ptr<T>
TheOne(const Source& s, const std::string& kind)
{
    const std::vector<std::string> names = s.store->GetNames(kind);
    if (names.empty())
    {
        Fail(s.file, "the model's appliance has one " + kind + "; the file defines none");
    }
    if (names.size() > 1)
    {
        Fail(s.At(kind, names[1]),
             "the model's appliance has one " + kind + "; the file defines " +
                 std::to_string(names.size()),
             names[1],
             {"one " + kind + " (" + names[0] + ")"});
    }
    return s.store->Get<T>(kind, names[0]);
}

/// \return the services bound to \p v, in order (groups are not modelled here)
std::vector<Ptr<AdcService>>
BoundServices(const Source& s, Ptr<AdcVirtualServer> v)
{
    std::vector<Ptr<AdcService>> out;
    for (const AdcVirtualServer::ServiceBinding& b : v->GetServiceBindings())
    {
        Ptr<AdcService> svc = s.store->Get<AdcService>(NS::SERVICE, b.name);
        if (b.group || !svc)
        {
            Fail(s.At(NS::LB_VSERVER, v->GetName(), "bind " + b.name),
                 "lb vserver " + v->GetName() + ": a service group is bound",
                 b.name,
                 {"services (the CRD appliances bind services)"});
        }
        out.push_back(svc);
    }
    return out;
}

/// \return the monitor bound to every service of \p services, or null when none has one
Ptr<AdcHealthMonitor>
CommonMonitor(const Source& s, const std::vector<Ptr<AdcService>>& services)
{
    Ptr<AdcHealthMonitor> m;
    for (std::size_t k = 0; k < services.size(); ++k)
    {
        const std::vector<Ptr<AdcHealthMonitor>> bound = services[k]->GetMonitors();
        if (bound.size() > 1 || (k > 0 && (bound.empty() ? nullptr : bound[0]) != m))
        {
            const std::string name = services[k]->GetName();
            const std::string monitor =
                bound.empty() ? "" : NS::GetAttribute<StringValue>(bound.back(), "Name");
            Fail(bound.empty() ? s.At(NS::SERVICE, name)
                               : s.At(NS::SERVICE, name, "monitor " + monitor),
                 "the model's appliance binds one monitor to all its services or none; "
                 "service " +
                     name + " differs",
                 bound.empty() ? name : monitor,
                 {m ? "monitor " + NS::GetAttribute<StringValue>(m, "Name") : "no monitor"});
        }
        m = bound.empty() ? nullptr : bound[0];
    }
    const std::string name = m ? NS::GetAttribute<StringValue>(m, "Name") : "";
    if (m && NS::GetAttribute<EnumValue>(m, "Type") != AdcHealthMonitor::TCP)
    {
        Fail(s.At(NS::LB_MONITOR, name), "the topology's monitors are TCP", name, {"TCP"});
    }
    if (m &&
        NS::GetAttribute<TimeValue>(m, "DownTime") != NS::GetAttribute<TimeValue>(m, "Interval"))
    {
        Fail(s.At(NS::LB_MONITOR, name, "-downTime"),
             "monitor " + name + ": the topology's monitors have -downTime equal to -interval",
             NS::FormatTime(NS::GetAttribute<TimeValue>(m, "DownTime")),
             {NS::FormatTime(NS::GetAttribute<TimeValue>(m, "Interval"))});
    }
    return m;
}

/// \return \p m's settings \param s its file
MonitorSettings
Settings(const Source& s, Ptr<AdcHealthMonitor> m)
{
    return {NS::GetAttribute<TimeValue>(m, "Interval"),
            NS::GetAttribute<TimeValue>(m, "ResponseTimeout"),
            NS::GetAttribute<UintegerValue>(m, "Retries"),
            s.At(NS::LB_MONITOR, NS::GetAttribute<StringValue>(m, "Name"))};
}

Upper
ReadUpper(const Source& s)
{
    Upper u;
    u.src = s;
    u.host = HostName(s);
    if (!CRD::GetSettings(*s.store)->IsModeEnabled("L3"))
    {
        Fail(s.At(CRD::NS, "ns", "mode L3"),
             "the upper tier works in layer-3 mode: L3 is disabled",
             "L3",
             {"enable ns mode L3"});
    }
    Ptr<AdcVirtualServer> v = TheOne<AdcVirtualServer>(s, NS::LB_VSERVER);
    u.vserver = v->GetName();
    Ptr<AdcLbVserverForwarding> fwd = v->GetObject<AdcLbVserverForwarding>();
    if (v->GetServiceType() != "ANY" || !v->GetVip().IsV4() ||
        v->GetVip().GetIpv4() != Ipv4Address::GetAny() || v->GetPort() != 0 || !fwd ||
        fwd->mode != "MAC" || !fwd->sessionless)
    {
        Fail(s.At(NS::LB_VSERVER, v->GetName()),
             "lb vserver " + v->GetName() +
                 ": the model's upper tier forwards all traffic sessionless by MAC",
             v->GetName(),
             {"ANY * * -m MAC -sessionless ENABLED"});
    }
    u.method = v->GetLbMethodName();
    u.services = BoundServices(s, v);
    for (const Ptr<AdcService>& svc : u.services)
    {
        if (svc->GetServiceType() != "ANY" || svc->GetPort() != 0 || !svc->GetAddress().IsV4())
        {
            Fail(s.At(NS::SERVICE, svc->GetName()),
                 "service " + svc->GetName() +
                     ": the lower appliances are 'ANY *' services at an IPv4 address",
                 svc->GetAddress().ToString() + " " + svc->GetServiceType() + " " +
                     std::to_string(svc->GetPort()),
                 {"<IPv4> ANY *"});
        }
        if (svc->GetUseProxyPort())
        {
            // The seed's upper tier leaves the client's source port as it came (MAC-based
            // forwarding changes only the destination MAC), which -useproxyport NO says; a
            // proxy port on the way to the lower tier would break the port-range PBR return.
            Fail(s.At(NS::SERVICE, svc->GetName(), "-useproxyport"),
                 "service " + svc->GetName() +
                     ": -useproxyport YES (the default) is not modelled: the upper tier keeps "
                     "the client's source port",
                 "YES",
                 {"-useproxyport NO"});
        }
    }
    u.monitor = CommonMonitor(s, u.services);
    if (u.monitor && NS::GetAttribute<UintegerValue>(u.monitor, "DestinationPort") != 80)
    {
        const std::string name = NS::GetAttribute<StringValue>(u.monitor, "Name");
        Fail(s.At(NS::LB_MONITOR, name, "-destPort"),
             "monitor " + name + ": it probes port 80 of the lower appliances",
             std::to_string(NS::GetAttribute<UintegerValue>(u.monitor, "DestinationPort")),
             {"-destPort 80"});
    }
    u.pbrs.resize(u.services.size());
    for (const Ptr<AdcNsPbrConfig>& p : s.store->GetAll<AdcNsPbrConfig>(CRD::NS_PBR))
    {
        const AdcConfigOrigin at = s.At(CRD::NS_PBR, p->name);
        const std::string what = "ns pbr " + p->name + ": ";
        if (!p->applied || !p->enabled)
        {
            Fail(at, what + "not applied or disabled", p->name, {"'apply ns pbrs' after it"});
        }
        if (!p->allow || p->srcIp.given || p->srcPort.given || !p->destIp.given ||
            !p->destPort.given || !p->destIp.equal || !p->destPort.equal || p->protocol != "TCP" ||
            AdcNsPbrConfig::ToString(p->destIp) != "= " + kClientRange)
        {
            Fail(at,
                 what + "not of the model's PBRs",
                 p->name,
                 {"ALLOW -destIP = " + kClientRange +
                  " -destPort = <range> -nextHop <lower appliance> -protocol TCP"});
        }
        bool found = false;
        for (std::size_t j = 0; j < u.services.size() && !found; ++j)
        {
            found = u.services[j]->GetAddress().GetIpv4() == p->nextHop && !u.pbrs[j];
            u.pbrs[j] = found ? p : u.pbrs[j];
        }
        if (!found)
        {
            Fail(at,
                 what + "-nextHop is not the address of a lower appliance's service without a PBR",
                 Text(p->nextHop));
        }
    }
    for (std::size_t j = 0; j < u.services.size(); ++j)
    {
        if (!u.pbrs[j])
        {
            Fail(s.At(NS::SERVICE, u.services[j]->GetName()),
                 "no ns pbr has this service's address as -nextHop: the origin's responses "
                 "could not reach it",
                 u.services[j]->GetName());
        }
    }
    return u;
}

Lower
ReadLower(const Source& s)
{
    Lower l;
    l.src = s;
    l.host = HostName(s);
    Ptr<AdcNsSettingsConfig> ns = CRD::GetSettings(*s.store);
    if (!ns->crPortRange)
    {
        Fail(s.file, "no 'set ns param -crPortRange': each lower appliance has its own range");
    }
    l.range = *ns->crPortRange;
    std::vector<Ptr<AdcNsIpConfig>> mips;
    for (const Ptr<AdcNsIpConfig>& ip : s.store->GetAll<AdcNsIpConfig>(CRD::NS_IP))
    {
        if (ip->type == "MIP")
        {
            mips.push_back(ip);
        }
    }
    if (mips.empty())
    {
        Fail(s.file, "the model's lower appliance has one MIP (add ns ip ... -type MIP); none");
    }
    if (mips.size() > 1)
    {
        Fail(s.At(CRD::NS_IP, Text(mips[1]->address)),
             "the model's lower appliance has one MIP; the file has " + std::to_string(mips.size()),
             Text(mips[1]->address),
             {"one MIP (" + Text(mips[0]->address) + ")"});
    }
    l.mip = mips[0]->address;
    l.cr = TheOne<AdcCrVserverConfig>(s, CRD::CR_VSERVER);
    const Ptr<AdcCrVserverConfig>& cr = l.cr;
    if (cr->serviceType != "HTTP" || cr->vip != Ipv4Address::GetAny() || cr->port != 80 ||
        cr->cacheType != "TRANSPARENT" || !cr->originUsip || !cr->usePortRange || !cr->via ||
        !cr->enabled || cr->cacheVserver.empty())
    {
        Fail(s.At(CRD::CR_VSERVER, cr->name),
             "cr vserver " + cr->name +
                 ": the model's lower tier is a transparent cache redirection, enabled, bound "
                 "to the LB vserver of the caches",
             cr->name,
             {"HTTP * 80 -cacheType TRANSPARENT -originUSIP ON -usePortRange ON -via ON"});
    }
    Ptr<AdcVirtualServer> caches = s.store->Get<AdcVirtualServer>(NS::LB_VSERVER, cr->cacheVserver);
    l.vserver = caches->GetName();
    if (caches->GetServiceType() != "HTTP")
    {
        Fail(s.At(NS::LB_VSERVER, l.vserver),
             "lb vserver " + l.vserver + ": the caches are HTTP",
             caches->GetServiceType(),
             {"HTTP"});
    }
    l.method = caches->GetLbMethodName();
    l.services = BoundServices(s, caches);
    l.header = AdcCrVserverConfig::HeaderOfSrcIpExpr(cr->srcIpExpr);
    for (const Ptr<AdcService>& svc : l.services)
    {
        if (svc->GetServiceType() != "HTTP" || svc->GetPort() != 80 || !svc->GetCip() ||
            svc->GetCipHeader() != l.header || l.header.empty())
        {
            Fail(s.At(NS::SERVICE, svc->GetName()),
                 "service " + svc->GetName() +
                     ": the caches are HTTP 80 services with -cip ENABLED and the header "
                     "-srcIPExpr reads",
                 svc->GetName(),
                 {"HTTP 80 -cip ENABLED " + (l.header.empty() ? "<header>" : l.header)});
        }
    }
    l.monitor = CommonMonitor(s, l.services);
    return l;
}

/**
 * \return the value every item gives, or AdcConfigError at the first that differs (\p at: the
 * line of an item's setting)
 */
template <typename T, typename F, typename A>
auto
Same(const std::vector<T>& items, const std::string& what, F get, A at)
{
    for (const T& item : items)
    {
        if (get(item) != get(items.front()))
        {
            Fail(at(item),
                 what + " differs from " + at(items.front()).ToString() +
                     ": the topology has one setting for the tier",
                 Text(get(item)),
                 {Text(get(items.front()))});
        }
    }
    return get(items.front());
}

/// \return the stores of \p readers
std::vector<const AdcConfigStore*>
Stores(const std::vector<std::unique_ptr<AdcConfigReader>>& readers)
{
    std::vector<const AdcConfigStore*> out;
    for (const auto& r : readers)
    {
        out.push_back(&r->GetStore());
    }
    return out;
}

/// \return \p text read and printed back (the form Show gives)
std::string
Normalized(const std::string& text, const std::string& name)
{
    AdcConfigReader reader(AdcNetScalerCommands::GetLanguage());
    reader.ReadString(text, name);
    return reader.Show();
}

/// \return the lines of a TCP monitor named \p name with \p helper's settings
std::string
MonitorLine(Ptr<CrdTopologyHelper> helper, const std::string& name, bool port)
{
    const Time interval = NS::GetAttribute<TimeValue>(helper, "MonitorInterval");
    return "add lb monitor " + name + " TCP -interval " + NS::FormatTime(interval) +
           " -resptimeout " +
           NS::FormatTime(NS::GetAttribute<TimeValue>(helper, "MonitorTimeout")) + " -retries " +
           std::to_string(NS::GetAttribute<UintegerValue>(helper, "MonitorRetries")) +
           " -downTime " + NS::FormatTime(interval) + (port ? " -destPort 80" : "") + "\n";
}

} // namespace

CrdConfig::CrdConfig(const std::vector<std::string>& upperFiles,
                     const std::vector<std::string>& lowerFiles)
    : m_upperFiles(upperFiles),
      m_lowerFiles(lowerFiles)
{
    for (const auto& [files, readers] :
         {std::make_pair(&upperFiles, &m_upper), std::make_pair(&lowerFiles, &m_lower)})
    {
        for (const std::string& f : *files)
        {
            readers->push_back(
                std::make_unique<AdcConfigReader>(AdcNetScalerCommands::GetLanguage()));
            readers->back()->ReadFile(f);
        }
    }
}

CrdConfig
CrdConfig::FromDirectory(const std::string& dir)
{
    std::vector<std::string> upper;
    std::vector<std::string> lower;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    {
        const std::string name = e.path().filename().string();
        const bool conf = name.size() > 8 && name.substr(name.size() - 8) == ".ns.conf";
        if (conf && name.rfind("crd-upper-", 0) == 0)
        {
            upper.push_back(e.path().string());
        }
        else if (conf && name.rfind("crd-lower-", 0) == 0)
        {
            lower.push_back(e.path().string());
        }
    }
    if (ec || lower.empty())
    {
        throw AdcConfigError("CrdConfig: directory '" + dir + "' has no crd-lower-*.ns.conf" +
                             (ec ? " (" + ec.message() + ")" : ""));
    }
    std::sort(upper.begin(), upper.end());
    std::sort(lower.begin(), lower.end());
    return CrdConfig(upper, lower);
}

std::vector<const AdcConfigStore*>
CrdConfig::GetUpper() const
{
    return Stores(m_upper);
}

std::vector<const AdcConfigStore*>
CrdConfig::GetLower() const
{
    return Stores(m_lower);
}

void
CrdConfig::Configure(Ptr<CrdTopologyHelper> helper) const
{
    std::vector<Upper> upper;
    std::vector<Lower> lower;
    for (std::size_t i = 0; i < m_upper.size(); ++i)
    {
        upper.push_back(ReadUpper({m_upperFiles[i], &m_upper[i]->GetStore()}));
    }
    for (std::size_t j = 0; j < m_lower.size(); ++j)
    {
        lower.push_back(ReadLower({m_lowerFiles[j], &m_lower[j]->GetStore()}));
    }
    auto monitorText = [](const auto& x) {
        return x.monitor ? "monitor " + NS::GetAttribute<StringValue>(x.monitor, "Name")
                         : std::string("no monitor");
    };
    std::vector<MonitorSettings> monitors;
    if (!upper.empty())
    {
        for (const Upper& u : upper)
        {
            if (u.services.size() != lower.size())
            {
                Fail(u.src.At(NS::LB_VSERVER, u.vserver),
                     "lb vserver " + u.vserver +
                         ": the number of lower appliances bound differs "
                         "from the number of lower files",
                     std::to_string(u.services.size()),
                     {std::to_string(lower.size())});
            }
        }
        helper->SetAttribute(
            "UpperBalanceMethod",
            StringValue(Same(
                upper,
                "-lbMethod",
                [](const Upper& u) { return u.method; },
                [](const Upper& u) { return u.src.At(NS::LB_VSERVER, u.vserver, "-lbMethod"); })));
        const std::string monitored = Same(upper, "the monitor", monitorText, [](const Upper& u) {
            return u.src.At(NS::SERVICE, u.services.empty() ? "" : u.services[0]->GetName());
        });
        helper->SetAttribute("MonitorLowerTier", BooleanValue(monitored != "no monitor"));
        for (const Upper& u : upper)
        {
            if (u.monitor)
            {
                monitors.push_back(Settings(u.src, u.monitor));
            }
        }
    }
    // REQ: CRD-05: each lower appliance has its own source ports; overlaps are refused here,
    // at the -crPortRange line, before the topology helper sees the ranges.
    std::string ranges;
    for (std::size_t j = 0; j < lower.size(); ++j)
    {
        const Lower& l = lower[j];
        for (std::size_t k = 0; k < j; ++k)
        {
            const AdcPortRange& o = lower[k].range;
            if (l.range.first <= o.last && o.first <= l.range.last)
            {
                Fail(l.src.At(CRD::NS, "ns", "-crPortRange"),
                     "-crPortRange overlaps " + lower[k].host + "'s " + o.ToString() + " (" +
                         lower[k].src.At(CRD::NS, "ns", "-crPortRange").ToString() +
                         "): each lower appliance needs its own source ports",
                     l.range.ToString(),
                     {"a range of 1024..65535 no other lower appliance has"});
            }
        }
        ranges += (ranges.empty() ? "" : ",") + l.range.ToString();
        if (l.monitor)
        {
            monitors.push_back(Settings(l.src, l.monitor));
        }
    }
    auto cacheVserver = [](const std::string& aspect) {
        return [aspect](const Lower& l) { return l.src.At(NS::LB_VSERVER, l.vserver, aspect); };
    };
    auto crVserver = [](const std::string& aspect) {
        return [aspect](const Lower& l) { return l.src.At(CRD::CR_VSERVER, l.cr->name, aspect); };
    };
    helper->SetAttribute("NumUpper", UintegerValue(upper.size()));
    helper->SetAttribute("NumLower", UintegerValue(lower.size()));
    helper->SetAttribute("LowerPortRanges", StringValue(ranges));
    helper->SetAttribute("NumCaches",
                         UintegerValue(Same(
                             lower,
                             "the number of caches",
                             [](const Lower& l) { return l.services.size(); },
                             cacheVserver(""))));
    helper->SetAttribute("CacheLbMethod",
                         StringValue(Same(
                             lower,
                             "the caches' -lbMethod",
                             [](const Lower& l) { return l.method; },
                             cacheVserver("-lbMethod"))));
    helper->SetAttribute(
        "ServerConnectionReuse",
        BooleanValue(Same(
                         lower,
                         "-reuse",
                         [](const Lower& l) { return std::string(l.cr->reuse ? "ON" : "OFF"); },
                         crVserver("-reuse")) == std::string("ON")));
    const std::string redirect = Same(
        lower,
        "-redirect",
        [](const Lower& l) { return l.cr->redirect; },
        crVserver("-redirect"));
    if (redirect != "POLICY")
    {
        helper->SetAttribute("CacheableRule",
                             EnumValue(redirect == "CACHE" ? CrdLowerTierAppliance::ALL
                                                           : CrdLowerTierAppliance::NONE));
    }
    const std::string cachesMonitored = Same(lower, "the monitor", monitorText, [](const Lower& l) {
        return l.src.At(NS::SERVICE, l.services.empty() ? "" : l.services[0]->GetName());
    });
    helper->SetAttribute("MonitorCaches", BooleanValue(cachesMonitored != "no monitor"));
    for (const MonitorSettings& m : monitors)
    {
        if (m.interval != monitors[0].interval || m.timeout != monitors[0].timeout ||
            m.retries != monitors[0].retries)
        {
            Fail(m.at,
                 "the monitors' -interval, -resptimeout and -retries differ from those of " +
                     monitors[0].at.ToString() + ": the topology has one set",
                 NS::FormatTime(m.interval) + " " + NS::FormatTime(m.timeout) + " " +
                     std::to_string(m.retries),
                 {NS::FormatTime(monitors[0].interval) + " " + NS::FormatTime(monitors[0].timeout) +
                  " " + std::to_string(monitors[0].retries)});
        }
    }
    if (!monitors.empty())
    {
        helper->SetAttribute("MonitorInterval", TimeValue(monitors[0].interval));
        helper->SetAttribute("MonitorTimeout", TimeValue(monitors[0].timeout));
        helper->SetAttribute("MonitorRetries", UintegerValue(monitors[0].retries));
    }
}

void
CrdConfig::Install(const CrdTopology& t) const
{
    auto mismatch = [](const AdcConfigOrigin& at,
                       const std::string& what,
                       const std::string& given,
                       const std::string& built) {
        if (given != built)
        {
            Fail(at, what + " is not the topology's", given, {built});
        }
    };
    for (std::size_t i = 0; i < m_upper.size(); ++i)
    {
        const Upper u = ReadUpper({m_upperFiles[i], &m_upper[i]->GetStore()});
        mismatch(u.src.At(CRD::NS, "ns", "hostName"), "the host name", u.host, t.upperNames[i]);
        for (std::size_t j = 0; j < u.services.size(); ++j)
        {
            const Ptr<AdcService>& built = t.lowerTierServices[i][j];
            const std::string name = u.services[j]->GetName();
            mismatch(u.src.At(NS::LB_VSERVER, u.vserver, "bind " + name),
                     "service #" + std::to_string(j + 1) + "'s name",
                     name,
                     built->GetName());
            mismatch(u.src.At(NS::SERVICE, name),
                     "service " + name + "'s address",
                     u.services[j]->GetAddress().ToString(),
                     built->GetAddress().ToString());
            mismatch(u.src.At(CRD::NS_PBR, u.pbrs[j]->name),
                     "ns pbr " + u.pbrs[j]->name + "'s -destPort",
                     u.pbrs[j]->destPort.range.ToString(),
                     t.lowerRanges[j].ToString());
        }
    }
    for (std::size_t j = 0; j < m_lower.size(); ++j)
    {
        const Lower l = ReadLower({m_lowerFiles[j], &m_lower[j]->GetStore()});
        mismatch(l.src.At(CRD::NS, "ns", "hostName"), "the host name", l.host, t.lowerNames[j]);
        mismatch(l.src.At(CRD::NS_IP, Text(l.mip)), "the MIP", Text(l.mip), Text(t.lowerMips[j]));
        for (std::size_t c = 0; c < l.services.size(); ++c)
        {
            const std::string name = l.services[c]->GetName();
            mismatch(l.src.At(NS::LB_VSERVER, l.vserver, "bind " + name),
                     "cache service #" + std::to_string(c + 1) + "'s name",
                     name,
                     t.cacheNames[c]);
            mismatch(l.src.At(NS::SERVICE, name),
                     "service " + name + "'s address",
                     l.services[c]->GetAddress().ToString(),
                     Text(t.cacheAddresses[c]));
        }
        if (j < t.lowerApps.size())
        {
            t.lowerApps[j]->SetAttribute("ClientIpHeader", StringValue(l.header));
        }
    }
}

CrdTopology
CrdConfig::Build(Ptr<CrdTopologyHelper> helper) const
{
    Configure(helper);
    CrdTopology t = helper->Build();
    Install(t);
    return t;
}

std::string
CrdConfig::PrintUpper(Ptr<CrdTopologyHelper> helper, const CrdTopology& t, uint32_t i)
{
    const bool monitored = NS::GetAttribute<BooleanValue>(helper, "MonitorLowerTier");
    const std::string method =
        AdcLbMethodRegistry::Resolve(NS::GetAttribute<StringValue>(helper, "UpperBalanceMethod"),
                                     {AdcLbMethodRegistry::ANY, 0, {}},
                                     "CrdConfig",
                                     "UpperBalanceMethod");
    std::ostringstream os;
    os << "set ns hostName " << t.upperNames[i] << "\nenable ns mode L3\n";
    os << (monitored ? MonitorLine(helper, "tcp-lower-tier", true) : "");
    os << "add lb vserver LB-MAC ANY * * -m MAC -sessionless ENABLED -lbMethod " << method << "\n";
    for (std::size_t j = 0; j < t.lowerTierServices[i].size(); ++j)
    {
        const Ptr<AdcService>& s = t.lowerTierServices[i][j];
        os << "add service " << s->GetName() << " " << s->GetAddress() << " ANY *"
           << (s->GetUseProxyPort() ? "" : " -useproxyport NO") << "\n"
           << "bind lb vserver LB-MAC " << s->GetName() << "\n"
           << (monitored ? "bind service " + s->GetName() + " -monitorName tcp-lower-tier\n" : "")
           << "add ns pbr PBR-" << s->GetName() << " ALLOW -destIP = " << kClientRange
           << " -destPort = " << t.lowerRanges[j].ToString() << " -nextHop " << s->GetAddress()
           << " -protocol TCP\n";
    }
    os << "apply ns pbrs\n";
    return Normalized(os.str(), "crd-upper-" + t.upperNames[i]);
}

std::string
CrdConfig::PrintLower(Ptr<CrdTopologyHelper> helper, const CrdTopology& t, uint32_t j)
{
    const bool monitored = NS::GetAttribute<BooleanValue>(helper, "MonitorCaches");
    Ptr<CrdLowerTierAppliance> app = t.lowerApps.at(j);
    const std::string header = NS::GetAttribute<StringValue>(app, "ClientIpHeader");
    const std::string method =
        AdcLbMethodRegistry::Resolve(NS::GetAttribute<StringValue>(helper, "CacheLbMethod"),
                                     {AdcLbMethodRegistry::ANY, 0, {}},
                                     "CrdConfig",
                                     "CacheLbMethod");
    const auto rule = static_cast<CrdLowerTierAppliance::CacheableRule>(
        NS::GetAttribute<EnumValue>(helper, "CacheableRule"));
    std::ostringstream os;
    os << "set ns hostName " << t.lowerNames[j] << "\n"
       << "set ns param -crPortRange " << t.lowerRanges[j].ToString() << "\n"
       << "add ns ip " << t.lowerMips[j] << " 255.255.255.252 -type MIP\n"
       << (monitored ? MonitorLine(helper, "tcp-caches", false) : "")
       << "add lb vserver LB-CACHES HTTP -m MAC -lbMethod " << method << "\n";
    for (uint32_t c = 0; c < t.cacheNames.size(); ++c)
    {
        os << "add service " << t.cacheNames[c] << " " << t.cacheAddresses[c]
           << " HTTP 80 -cip ENABLED " << header << "\n"
           << "bind lb vserver LB-CACHES " << t.cacheNames[c] << "\n"
           << (monitored ? "bind service " + t.cacheNames[c] + " -monitorName tcp-caches\n" : "");
    }
    os << "add cr vserver CR-1 HTTP * 80 -cacheType TRANSPARENT -originUSIP ON -usePortRange ON "
          "-via ON -srcIPExpr 'HTTP.REQ.HEADER(\""
       << header << "\").TYPECAST_IP_ADDRESS_AT'"
       << (rule == CrdLowerTierAppliance::ALL    ? " -redirect CACHE"
           : rule == CrdLowerTierAppliance::NONE ? " -redirect ORIGIN"
                                                 : "")
       << (NS::GetAttribute<BooleanValue>(helper, "ServerConnectionReuse") ? "" : " -reuse OFF")
       << "\nbind cr vserver CR-1 -lbvserver LB-CACHES\n";
    return Normalized(os.str(), "crd-lower-" + t.lowerNames[j]);
}

void
CrdConfig::WriteFiles(Ptr<CrdTopologyHelper> helper, const CrdTopology& t, const std::string& dir)
{
    std::filesystem::create_directories(dir);
    for (uint32_t i = 0; i < t.upperNames.size(); ++i)
    {
        std::ofstream(dir + "/crd-upper-" + t.upperNames[i] + ".ns.conf")
            << PrintUpper(helper, t, i);
    }
    for (uint32_t j = 0; j < t.lowerNames.size(); ++j)
    {
        std::ofstream(dir + "/crd-lower-" + t.lowerNames[j] + ".ns.conf")
            << PrintLower(helper, t, j);
    }
}

} // namespace ns3
