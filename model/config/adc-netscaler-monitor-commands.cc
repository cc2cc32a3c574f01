/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end: NetScaler's monitor commands (add, set, rm lb monitor).
 */

#include "adc-netscaler-commands.h"

#include "ns3/adc-health-monitor.h"
#include "ns3/adc-service-group.h"
#include "ns3/adc-service.h"
#include "ns3/enum.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <tuple>

namespace ns3
{

namespace
{

using NS = AdcNetScalerCommands;
using Cmd = AdcConfigCommand;

/// NetScaler's monitor defaults (the command reference's).
const Time kInterval = Seconds(5);
const Time kRespTimeout = Seconds(2);
const Time kDownTime = Seconds(30);
constexpr uint32_t kRetries = 3;
constexpr uint32_t kSuccessRetries = 1;
const std::string kHttpRequest = "HEAD /";
constexpr uint32_t kRespCode = 200;

/// \return the time parameter \p param's "N [SEC|MSEC|MIN]", or \p fallback when absent
Time
TimeParameter(const Cmd& cmd, const std::string& param, Time fallback)
{
    const std::vector<std::string>& v = cmd.Values(param);
    if (v.empty())
    {
        return fallback;
    }
    const uint64_t n = cmd.Number(v[0], param, 1, 86400000);
    const std::string unit = v.size() > 1 ? cmd.OneOf(v[1], param, {"SEC", "MSEC", "MIN"}) : "SEC";
    return unit == "MSEC" ? MilliSeconds(n) : (unit == "MIN" ? Minutes(n) : Seconds(n));
}

// ---- monitors ----------------------------------------------------------------------------------

/// \return the monitor type \p word names (canonical)
std::string
MonitorType(const Cmd& cmd, const std::string& word)
{
    return cmd.OneOf(word, "type", NS::GetMonitorTypes());
}

/// \return the NetScaler type of \p m
std::string
MonitorTypeOf(Ptr<AdcHealthMonitor> m)
{
    const std::string typeName = NS::GetAttribute<StringValue>(m, "TypeName");
    if (!typeName.empty())
    {
        return typeName;
    }
    EnumValue v;
    m->GetAttribute("Type", v);
    switch (v.Get())
    {
    case AdcHealthMonitor::TCP:
        return "TCP";
    case AdcHealthMonitor::HTTP:
        return "HTTP";
    case AdcHealthMonitor::UDP:
        return "UDP-ECV";
    default:
        return "PING";
    }
}

/// The parameters of add and set lb monitor.
const std::vector<AdcConfigParameter> kMonitorParameters = {{"-interval", 1, 2},
                                                            {"-resptimeout", 1, 2},
                                                            {"-retries"},
                                                            {"-successRetries"},
                                                            {"-downTime", 1, 2},
                                                            {"-destPort"},
                                                            {"-httpRequest"},
                                                            {"-respCode", 1, 16},
                                                            {"-send"}};

/// Apply add or set lb monitor's parameters to \p m, of NetScaler type \p type.
void
ApplyMonitorParameters(const Cmd& cmd, Ptr<AdcHealthMonitor> m, const std::string& type)
{
    const std::vector<std::pair<std::string, std::string>> only = {{"-httpRequest", "HTTP"},
                                                                   {"-respCode", "HTTP"},
                                                                   {"-send", "UDP-ECV"}};
    for (const auto& [param, forType] : only)
    {
        if (cmd.Has(param) && type != forType)
        {
            cmd.Fail("parameter is for monitors of type " + forType + ", not " + type, param);
        }
    }
    const Time interval =
        TimeParameter(cmd, "-interval", NS::GetAttribute<TimeValue>(m, "Interval"));
    const Time resp =
        TimeParameter(cmd, "-resptimeout", NS::GetAttribute<TimeValue>(m, "ResponseTimeout"));
    const Time down = TimeParameter(cmd, "-downTime", NS::GetAttribute<TimeValue>(m, "DownTime"));
    // The model keeps one probe in flight per target, as NetScaler requires of these values.
    if (resp >= interval || resp >= down)
    {
        cmd.Fail("-resptimeout must be less than -interval and -downTime",
                 NS::FormatTime(resp),
                 {"less than " + NS::FormatTime(std::min(interval, down))});
    }
    auto number = [&](const std::string& param, const std::string& attribute, uint64_t max) {
        return cmd.Has(param) ? cmd.Number(cmd.Value(param), param, 1, max)
                              : NS::GetAttribute<UintegerValue>(m, attribute);
    };
    const uint64_t retries = number("-retries", "Retries", 127);
    const uint64_t successRetries = number("-successRetries", "SuccessRetries", 32);
    const uint64_t destPort = number("-destPort", "DestinationPort", 65535);
    const std::vector<std::string>& codes = cmd.Values("-respCode");
    if (codes.size() > 1)
    {
        cmd.Fail("the model checks one response code", codes[1], {"one code 100..599"});
    }
    const uint64_t code = codes.empty() ? NS::GetAttribute<UintegerValue>(m, "HttpExpectedStatus")
                                        : cmd.Number(codes[0], "-respCode", 100, 599);
    const std::string request =
        cmd.Value("-httpRequest", NS::GetAttribute<StringValue>(m, "HttpRequest"));
    const std::size_t blank = request.find(' ');
    if (blank == std::string::npos || blank == 0 || request[blank + 1] != '/' ||
        request.find(' ', blank + 1) != std::string::npos)
    {
        cmd.Fail("bad value of -httpRequest", request, {"\"METHOD /path\", e.g. \"HEAD /\""});
    }
    // Every value is good: apply them all (a command that fails changes nothing).
    m->SetAttribute("Interval", TimeValue(interval));
    m->SetAttribute("ResponseTimeout", TimeValue(resp));
    m->SetAttribute("DownTime", TimeValue(down));
    m->SetAttribute("Retries", UintegerValue(retries));
    m->SetAttribute("SuccessRetries", UintegerValue(successRetries));
    m->SetAttribute("DestinationPort", UintegerValue(destPort));
    m->SetAttribute("HttpExpectedStatus", UintegerValue(code));
    m->SetAttribute("HttpRequest", StringValue(request));
    m->SetAttribute(
        "UdpPayload",
        StringValue(cmd.Value("-send", NS::GetAttribute<StringValue>(m, "UdpPayload"))));
}

/// Set \p m's probe kind for NetScaler type \p type. The LDNS types are GSLB's RTT probes
/// (ICMP echo, DNS over UDP, a TCP connection) of local DNS servers, on port 53.
void
ConfigureKind(Ptr<AdcHealthMonitor> m, const std::string& type)
{
    if (type.rfind("LDNS-", 0) == 0)
    {
        const std::string kind = type.substr(5);
        m->SetAttribute("Type", StringValue(kind == "DNS" ? "UDP" : kind));
        m->SetAttribute("TypeName", StringValue(type));
        m->SetAttribute("DestinationPort", UintegerValue(kind == "PING" ? 0 : 53));
        return;
    }
    m->SetAttribute("Type", StringValue(type == "UDP-ECV" ? "UDP" : type));
}

void
AddMonitor(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    NS::CheckName(cmd, name, "monitor name");
    if (cmd.GetStore().Find(NS::LB_MONITOR, name))
    {
        cmd.Fail("a monitor has this name already", name);
    }
    const std::string type = MonitorType(cmd, cmd.Operand(1));
    Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
    m->SetAttribute("Name", StringValue(name));
    ConfigureKind(m, type);
    ApplyMonitorParameters(cmd, m, type);
    cmd.GetStore().Add(NS::LB_MONITOR, name, m);
}

/// \return the monitor `set/rm lb monitor <name> <type>` names, of that type
Ptr<AdcHealthMonitor>
MonitorOfType(const Cmd& cmd)
{
    Ptr<AdcHealthMonitor> m = cmd.Ref<AdcHealthMonitor>(NS::LB_MONITOR, cmd.Operand(0), "monitor");
    const std::string type = MonitorType(cmd, cmd.Operand(1));
    if (type != MonitorTypeOf(m))
    {
        cmd.Fail("the monitor has another type", cmd.Operand(1), {MonitorTypeOf(m)});
    }
    return m;
}

void
SetMonitor(Cmd& cmd)
{
    Ptr<AdcHealthMonitor> m = MonitorOfType(cmd);
    ApplyMonitorParameters(cmd, m, MonitorTypeOf(m));
    cmd.NoteParameters(AdcNetScalerCommands::LB_MONITOR, cmd.Operand(0));
}

void
RemoveMonitor(Cmd& cmd)
{
    Ptr<AdcHealthMonitor> m = MonitorOfType(cmd);
    AdcConfigStore& store = cmd.GetStore();
    for (const Ptr<AdcService>& s : store.GetAll<AdcService>(NS::SERVICE))
    {
        s->UnbindMonitor(m);
    }
    for (const Ptr<AdcServiceGroup>& g : store.GetAll<AdcServiceGroup>(NS::SERVICE_GROUP))
    {
        g->UnbindMonitor(m);
    }
    store.Remove(NS::LB_MONITOR, cmd.Operand(0));
}

void
ShowMonitors(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcHealthMonitor>& m : store.GetAll<AdcHealthMonitor>(NS::LB_MONITOR))
    {
        const std::string type = MonitorTypeOf(m);
        os << "add lb monitor " << NS::Quote(NS::GetAttribute<StringValue>(m, "Name")) << " "
           << type;
        if (type == "HTTP" && NS::GetAttribute<StringValue>(m, "HttpRequest") != kHttpRequest)
        {
            os << " -httpRequest " << NS::Quote(NS::GetAttribute<StringValue>(m, "HttpRequest"));
        }
        if (type == "HTTP" && NS::GetAttribute<UintegerValue>(m, "HttpExpectedStatus") != kRespCode)
        {
            os << " -respCode " << NS::GetAttribute<UintegerValue>(m, "HttpExpectedStatus");
        }
        if (type == "UDP-ECV" && !NS::GetAttribute<StringValue>(m, "UdpPayload").empty())
        {
            os << " -send " << NS::Quote(NS::GetAttribute<StringValue>(m, "UdpPayload"));
        }
        const uint64_t defaultPort = (type == "LDNS-DNS" || type == "LDNS-TCP") ? 53 : 0;
        if (NS::GetAttribute<UintegerValue>(m, "DestinationPort") != defaultPort)
        {
            os << " -destPort " << NS::GetAttribute<UintegerValue>(m, "DestinationPort");
        }
        const std::vector<std::tuple<std::string, std::string, Time>> times = {
            {"-interval", "Interval", kInterval},
            {"-resptimeout", "ResponseTimeout", kRespTimeout},
            {"-downTime", "DownTime", kDownTime}};
        for (const auto& [param, attribute, fallback] : times)
        {
            const Time t = NS::GetAttribute<TimeValue>(m, attribute);
            os << (t != fallback ? " " + param + " " + NS::FormatTime(t) : "");
        }
        os << (NS::GetAttribute<UintegerValue>(m, "Retries") != kRetries
                   ? " -retries " + std::to_string(NS::GetAttribute<UintegerValue>(m, "Retries"))
                   : "");
        os << (NS::GetAttribute<UintegerValue>(m, "SuccessRetries") != kSuccessRetries
                   ? " -successRetries " +
                         std::to_string(NS::GetAttribute<UintegerValue>(m, "SuccessRetries"))
                   : "");
        os << "\n";
    }
}

} // namespace

void
AdcNetScalerCommands::RegisterMonitors(AdcConfigLanguage& language)
{
    const std::vector<std::string> operands{"<monitorName>", "<type>"};
    language.RegisterCommand(
        {"add lb monitor", operands, 2, false, kMonitorParameters, AddMonitor, ShowMonitors, 10});
    language.RegisterCommand(
        {"set lb monitor", operands, 2, false, kMonitorParameters, SetMonitor, {}, 0});
    language.RegisterCommand({"rm lb monitor", operands, 2, false, {}, RemoveMonitor, {}, 0});
}

} // namespace ns3
