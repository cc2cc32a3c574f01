/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-netscaler-crd-commands.h"

#include "adc-netscaler-commands.h"

#include "ns3/adc-virtual-server.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ns3
{

const std::string AdcNetScalerCrdCommands::NS = "ns";
const std::string AdcNetScalerCrdCommands::NS_IP = "ns ip";
const std::string AdcNetScalerCrdCommands::NS_PBR = "ns pbr";
const std::string AdcNetScalerCrdCommands::CR_VSERVER = "cr vserver";

namespace
{

using NSC = AdcNetScalerCommands;
using CRD = AdcNetScalerCrdCommands;
using Cmd = AdcConfigCommand;

/// \return the store's settings, made on first use
Ptr<AdcNsSettingsConfig>
Settings(const Cmd& cmd)
{
    Ptr<AdcNsSettingsConfig> s = CRD::GetSettings(cmd.GetStore());
    if (!s)
    {
        s = CreateObject<AdcNsSettingsConfig>();
        cmd.GetStore().Add(CRD::NS, "ns", s);
    }
    return s;
}

/// \return ON (true) or OFF, as the cr vserver's switches take them
bool
ReadOnOff(const Cmd& cmd, const std::string& parameter)
{
    return cmd.OneOf(cmd.Value(parameter), parameter, {"ON", "OFF"}) == "ON";
}

/// \return a port range "a-b" or one port "a" (1..65535, a <= b)
AdcPortRange
ReadPorts(const Cmd& cmd, const std::string& word, const std::string& what, uint16_t min)
{
    const std::size_t dash = word.find('-');
    const std::string first = word.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : word.substr(dash + 1);
    const std::string allowed = std::to_string(min) + "..65535";
    const auto a = static_cast<uint16_t>(cmd.Number(first, what, min, 65535));
    const auto b = static_cast<uint16_t>(cmd.Number(last, what, min, 65535));
    if (a > b)
    {
        cmd.Fail("bad value of " + what + ": the first port is after the last", word, {allowed});
    }
    return AdcPortRange(a, b);
}

/// \return the operator of a PBR match: "=" / "EQ" is true, "!=" / "NEQ" false
bool
ReadOperator(const Cmd& cmd, const std::vector<std::string>& values, const std::string& what)
{
    if (values.size() < 2)
    {
        return true;
    }
    const std::string op = cmd.OneOf(values[0], what + " operator", {"=", "!=", "EQ", "NEQ"});
    return op == "=" || op == "EQ";
}

/// Read -srcIP / -destIP: [<operator>] <ip>[-<ip>].
AdcNsPbrConfig::IpMatch
ReadIpMatch(const Cmd& cmd, const std::string& parameter)
{
    AdcNsPbrConfig::IpMatch m;
    if (!cmd.Has(parameter))
    {
        return m;
    }
    const std::vector<std::string>& v = cmd.Values(parameter);
    m.given = true;
    m.equal = ReadOperator(cmd, v, parameter);
    const std::string& word = v.back();
    const std::size_t dash = word.find('-');
    const AdcIpAddress a = cmd.Address(word.substr(0, dash), parameter);
    const AdcIpAddress b =
        dash == std::string::npos ? a : cmd.Address(word.substr(dash + 1), parameter);
    if (!a.IsV4() || !b.IsV4())
    {
        cmd.Fail("bad value of " + parameter + ": a PBR matches IPv4 packets", word);
    }
    m.first = a.GetIpv4();
    m.last = b.GetIpv4();
    if (m.first.Get() > m.last.Get())
    {
        cmd.Fail("bad value of " + parameter + ": the first address is after the last", word);
    }
    return m;
}

/// Read -srcPort / -destPort: [<operator>] <port>[-<port>].
AdcNsPbrConfig::PortMatch
ReadPortMatch(const Cmd& cmd, const std::string& parameter)
{
    AdcNsPbrConfig::PortMatch m;
    if (!cmd.Has(parameter))
    {
        return m;
    }
    const std::vector<std::string>& v = cmd.Values(parameter);
    m.given = true;
    m.equal = ReadOperator(cmd, v, parameter);
    m.range = ReadPorts(cmd, v.back(), parameter, 1);
    return m;
}

// ---- system settings --------------------------------------------------------------------------

void
SetHostName(Cmd& cmd)
{
    NSC::CheckName(cmd, cmd.Operand(0), "hostName");
    Settings(cmd)->hostName = cmd.Operand(0);
    cmd.NoteOrigin(CRD::NS, "ns", "hostName");
}

/// `enable ns mode <mode> ...` (\p on) and `disable ns mode ...`.
void
SetModes(Cmd& cmd, bool on)
{
    std::vector<std::string> modes;
    for (const std::string& word : cmd.GetOperands())
    {
        modes.push_back(cmd.OneOf(word, "mode", AdcNsSettingsConfig::GetModes()));
    }
    Ptr<AdcNsSettingsConfig> s = Settings(cmd);
    for (const std::string& m : modes)
    {
        s->modes[m] = on;
        cmd.NoteOrigin(CRD::NS, "ns", "mode " + m);
    }
}

void
SetNsParam(Cmd& cmd)
{
    if (!cmd.Has("-crPortRange"))
    {
        cmd.Fail("missing a parameter (the model's set ns param takes -crPortRange)");
    }
    Settings(cmd)->crPortRange = ReadPorts(cmd, cmd.Value("-crPortRange"), "-crPortRange", 1024);
    cmd.NoteOrigin(CRD::NS, "ns", "-crPortRange");
}

void
ShowSettings(const AdcConfigStore& store, std::ostream& os)
{
    Ptr<AdcNsSettingsConfig> s = CRD::GetSettings(store);
    if (!s)
    {
        return;
    }
    if (!s->hostName.empty())
    {
        os << "set ns hostName " << NSC::Quote(s->hostName) << "\n";
    }
    for (bool on : {true, false})
    {
        std::string list;
        for (const std::string& m : AdcNsSettingsConfig::GetModes())
        {
            const auto it = s->modes.find(m);
            list += it != s->modes.end() && it->second == on ? " " + m : "";
        }
        os << (list.empty() ? ""
                            : (on ? "enable" : "disable") + std::string(" ns mode") + list + "\n");
    }
    if (s->crPortRange)
    {
        os << "set ns param -crPortRange " << s->crPortRange->ToString() << "\n";
    }
}

void
AddNsIp(Cmd& cmd)
{
    const AdcIpAddress a = cmd.Address(cmd.Operand(0), "IPAddress");
    if (!a.IsV4())
    {
        cmd.Fail("bad value of IPAddress: add ns ip takes IPv4 (add ns ip6 IPv6)", cmd.Operand(0));
    }
    const AdcIpAddress m = cmd.Address(cmd.Operand(1), "netmask");
    const uint32_t bits = m.IsV4() ? m.GetIpv4().Get() : 1;
    if (!m.IsV4() || (~bits & (~bits + 1)) != 0) // contiguous ones, then zeros
    {
        cmd.Fail("bad value of netmask", cmd.Operand(1), {"a contiguous IPv4 mask"});
    }
    const std::string key = a.ToString();
    if (cmd.GetStore().Find(CRD::NS_IP, key))
    {
        cmd.Fail("the address is defined already", cmd.Operand(0));
    }
    Ptr<AdcNsIpConfig> ip = CreateObject<AdcNsIpConfig>();
    ip->address = a.GetIpv4();
    ip->mask = Ipv4Mask(bits);
    ip->type = cmd.OneOf(cmd.Value("-type", "SNIP"), "-type", {"SNIP", "VIP", "MIP"});
    cmd.GetStore().Add(CRD::NS_IP, key, ip);
}

void
RemoveNsIp(Cmd& cmd)
{
    const std::string key = cmd.Address(cmd.Operand(0), "IPAddress").ToString();
    cmd.Ref<AdcNsIpConfig>(CRD::NS_IP, key, "IP address");
    cmd.GetStore().Remove(CRD::NS_IP, key);
}

void
ShowNsIps(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcNsIpConfig>& ip : store.GetAll<AdcNsIpConfig>(CRD::NS_IP))
    {
        os << "add ns ip " << ip->address << " " << ip->mask
           << (ip->type != "SNIP" ? " -type " + ip->type : "") << "\n";
    }
}

// ---- policy-based routes ----------------------------------------------------------------------

/// Protocols -protocol takes here (names of the command reference; the model's subset).
const std::vector<std::string> kProtocols =
    {"ICMP", "IGMP", "TCP", "UDP", "GRE", "ESP", "AH", "OSPF"};

void
AddPbr(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    NSC::CheckNewName(cmd, CRD::NS_PBR, name, "name", "PBR");
    Ptr<AdcNsPbrConfig> p = CreateObject<AdcNsPbrConfig>();
    p->name = name;
    p->allow = cmd.OneOf(cmd.Operand(1), "action", {"ALLOW", "DENY"}) == "ALLOW";
    p->srcIp = ReadIpMatch(cmd, "-srcIP");
    p->destIp = ReadIpMatch(cmd, "-destIP");
    p->srcPort = ReadPortMatch(cmd, "-srcPort");
    p->destPort = ReadPortMatch(cmd, "-destPort");
    if (cmd.Has("-protocol"))
    {
        p->protocol = cmd.OneOf(cmd.Value("-protocol"), "-protocol", kProtocols);
    }
    if ((p->srcPort.given || p->destPort.given) && p->protocol != "TCP" && p->protocol != "UDP")
    {
        cmd.Fail("ports can be matched for TCP and UDP only: give -protocol",
                 p->protocol.empty() ? "(none)" : p->protocol,
                 {"TCP", "UDP"});
    }
    if (cmd.Has("-nextHop"))
    {
        if (!p->allow)
        {
            cmd.Fail("-nextHop goes with ALLOW only (DENY routes normally)", cmd.Value("-nextHop"));
        }
        const AdcIpAddress hop = cmd.Address(cmd.Value("-nextHop"), "-nextHop");
        if (!hop.IsV4())
        {
            cmd.Fail("bad value of -nextHop: a PBR routes IPv4", cmd.Value("-nextHop"));
        }
        p->nextHop = hop.GetIpv4();
    }
    else if (p->allow)
    {
        cmd.Fail("missing -nextHop: an ALLOW PBR sends matches to a next hop");
    }
    if (cmd.Has("-priority"))
    {
        p->priority =
            static_cast<uint32_t>(cmd.Number(cmd.Value("-priority"), "-priority", 1, 81920));
    }
    p->enabled = !cmd.Has("-state") || NSC::ReadEnabled(cmd, cmd.Value("-state"), "-state");
    cmd.GetStore().Add(CRD::NS_PBR, name, p);
}

void
RemovePbr(Cmd& cmd)
{
    cmd.Ref<AdcNsPbrConfig>(CRD::NS_PBR, cmd.Operand(0), "PBR");
    cmd.GetStore().Remove(CRD::NS_PBR, cmd.Operand(0));
}

void
ApplyPbrs(Cmd& cmd)
{
    for (const Ptr<AdcNsPbrConfig>& p : cmd.GetStore().GetAll<AdcNsPbrConfig>(CRD::NS_PBR))
    {
        p->applied = true;
    }
}

/// \return \p p as its add line
std::string
PbrText(const Ptr<AdcNsPbrConfig>& p)
{
    std::string out = "add ns pbr " + NSC::Quote(p->name) + (p->allow ? " ALLOW" : " DENY");
    out += p->srcIp.given ? " -srcIP " + AdcNsPbrConfig::ToString(p->srcIp) : "";
    out += p->srcPort.given ? " -srcPort " + AdcNsPbrConfig::ToString(p->srcPort) : "";
    out += p->destIp.given ? " -destIP " + AdcNsPbrConfig::ToString(p->destIp) : "";
    out += p->destPort.given ? " -destPort " + AdcNsPbrConfig::ToString(p->destPort) : "";
    std::ostringstream hop;
    hop << p->nextHop;
    out += p->allow ? " -nextHop " + hop.str() : "";
    out += p->protocol.empty() ? "" : " -protocol " + p->protocol;
    out += p->priority != 0 ? " -priority " + std::to_string(p->priority) : "";
    out += p->enabled ? "" : " -state DISABLED";
    return out + "\n";
}

void
ShowPbrs(const AdcConfigStore& store, std::ostream& os)
{
    // Applied ones, the apply, then those added after it: read back, the same ones act.
    const std::vector<Ptr<AdcNsPbrConfig>> all = store.GetAll<AdcNsPbrConfig>(CRD::NS_PBR);
    bool anyApplied = false;
    for (const Ptr<AdcNsPbrConfig>& p : all)
    {
        os << (p->applied ? PbrText(p) : "");
        anyApplied = anyApplied || p->applied;
    }
    os << (anyApplied ? "apply ns pbrs\n" : "");
    for (const Ptr<AdcNsPbrConfig>& p : all)
    {
        os << (p->applied ? "" : PbrText(p));
    }
}

// ---- cache-redirection virtual servers ------------------------------------------------------

/// The parameters of add and set cr vserver.
const std::vector<AdcConfigParameter> kCrParameters = {{"-cacheType"},
                                                       {"-redirect"},
                                                       {"-originUSIP"},
                                                       {"-usePortRange"},
                                                       {"-via"},
                                                       {"-reuse"},
                                                       {"-srcIPExpr"},
                                                       {"-cacheVserver"},
                                                       {"-state"}};

/// Check \p lb names an LB virtual server of the store; \return it
std::string
CacheVserver(const Cmd& cmd, const std::string& lb, const std::string& what)
{
    cmd.Ref<AdcVirtualServer>(NSC::LB_VSERVER, lb, what);
    return lb;
}

/// Apply add or set cr vserver's parameters to \p v (all read before any is set).
void
ApplyCrParameters(const Cmd& cmd, Ptr<AdcCrVserverConfig> v)
{
    AdcCrVserverConfig n = *v;
    if (cmd.Has("-cacheType"))
    {
        n.cacheType =
            cmd.OneOf(cmd.Value("-cacheType"), "-cacheType", {"TRANSPARENT", "REVERSE", "FORWARD"});
    }
    if (cmd.Has("-redirect"))
    {
        n.redirect = cmd.OneOf(cmd.Value("-redirect"), "-redirect", {"CACHE", "POLICY", "ORIGIN"});
    }
    n.originUsip = cmd.Has("-originUSIP") ? ReadOnOff(cmd, "-originUSIP") : n.originUsip;
    n.usePortRange = cmd.Has("-usePortRange") ? ReadOnOff(cmd, "-usePortRange") : n.usePortRange;
    n.via = cmd.Has("-via") ? ReadOnOff(cmd, "-via") : n.via;
    n.reuse = cmd.Has("-reuse") ? ReadOnOff(cmd, "-reuse") : n.reuse;
    if (cmd.Has("-srcIPExpr"))
    {
        const std::string& e = cmd.Value("-srcIPExpr");
        if (AdcCrVserverConfig::HeaderOfSrcIpExpr(e).empty())
        {
            cmd.Fail("bad value of -srcIPExpr",
                     e,
                     {"a header name", "HTTP.REQ.HEADER(\"<name>\")[.TYPECAST_IP_ADDRESS_AT]"});
        }
        n.srcIpExpr = e;
    }
    if (cmd.Has("-cacheVserver"))
    {
        n.cacheVserver = CacheVserver(cmd, cmd.Value("-cacheVserver"), "-cacheVserver");
    }
    n.enabled =
        cmd.Has("-state") ? NSC::ReadEnabled(cmd, cmd.Value("-state"), "-state") : n.enabled;
    v->cacheType = n.cacheType;
    v->redirect = n.redirect;
    v->originUsip = n.originUsip;
    v->usePortRange = n.usePortRange;
    v->via = n.via;
    v->reuse = n.reuse;
    v->srcIpExpr = n.srcIpExpr;
    v->cacheVserver = n.cacheVserver;
    v->enabled = n.enabled;
}

void
AddCrVserver(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    NSC::CheckNewName(cmd, CRD::CR_VSERVER, name, "name", "cache redirection virtual server");
    Ptr<AdcCrVserverConfig> v = CreateObject<AdcCrVserverConfig>();
    v->name = name;
    v->vip = Ipv4Address::GetAny();
    v->serviceType = cmd.OneOf(cmd.Operand(1), "serviceType", {"HTTP", "SSL"});
    if (cmd.GetOperands().size() == 3)
    {
        cmd.Fail("missing <port> after <IPAddress>");
    }
    if (cmd.GetOperands().size() == 4)
    {
        if (cmd.Operand(2) != "*")
        {
            const AdcIpAddress a = cmd.Address(cmd.Operand(2), "IPAddress");
            if (!a.IsV4())
            {
                cmd.Fail("bad value of IPAddress: the model's CR vservers are IPv4",
                         cmd.Operand(2));
            }
            v->vip = a.GetIpv4();
        }
        v->port = static_cast<uint16_t>(cmd.Number(cmd.Operand(3), "port", 1, 65535));
    }
    ApplyCrParameters(cmd, v);
    cmd.GetStore().Add(CRD::CR_VSERVER, name, v);
}

/// \return the cr vserver the command's first operand names
Ptr<AdcCrVserverConfig>
CrVserver(const Cmd& cmd)
{
    return cmd.Ref<AdcCrVserverConfig>(CRD::CR_VSERVER, cmd.Operand(0), "cr vserver");
}

void
ShowCrVservers(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcCrVserverConfig>& v : store.GetAll<AdcCrVserverConfig>(CRD::CR_VSERVER))
    {
        os << "add cr vserver " << NSC::Quote(v->name) << " " << v->serviceType;
        if (v->port != 0)
        {
            os << " "
               << (v->vip == Ipv4Address::GetAny() ? std::string("*") : [&] {
                      std::ostringstream a;
                      a << v->vip;
                      return a.str();
                  }())
               << " " << v->port;
        }
        os << (v->cacheType != "TRANSPARENT" ? " -cacheType " + v->cacheType : "")
           << (v->redirect != "POLICY" ? " -redirect " + v->redirect : "")
           << (v->originUsip ? " -originUSIP ON" : "")
           << (v->usePortRange ? " -usePortRange ON" : "") << (v->via ? "" : " -via OFF")
           << (v->reuse ? "" : " -reuse OFF")
           << (v->srcIpExpr.empty() ? "" : " -srcIPExpr " + NSC::Quote(v->srcIpExpr))
           << (v->enabled ? "" : " -state DISABLED") << "\n";
    }
}

void
BindCrVserver(Cmd& cmd, bool bind)
{
    Ptr<AdcCrVserverConfig> v = CrVserver(cmd);
    if (!cmd.Has("-lbvserver"))
    {
        cmd.Fail("missing -lbvserver");
    }
    const std::string& lb = cmd.Value("-lbvserver");
    if (bind)
    {
        v->cacheVserver = CacheVserver(cmd, lb, "-lbvserver");
        cmd.NoteOrigin(CRD::CR_VSERVER, v->name, "-cacheVserver");
    }
    else if (v->cacheVserver != lb)
    {
        cmd.Fail("not bound to the cr vserver",
                 lb,
                 v->cacheVserver.empty() ? std::vector<std::string>{}
                                         : std::vector<std::string>{v->cacheVserver});
    }
    else
    {
        v->cacheVserver.clear();
    }
}

void
ShowCrBindings(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcCrVserverConfig>& v : store.GetAll<AdcCrVserverConfig>(CRD::CR_VSERVER))
    {
        if (!v->cacheVserver.empty())
        {
            os << "bind cr vserver " << NSC::Quote(v->name) << " -lbvserver "
               << NSC::Quote(v->cacheVserver) << "\n";
        }
    }
}

/// \return "cr vserver X" for every cr vserver whose caches are the LB vserver \p lb
std::vector<std::string>
CrUsers(const AdcConfigStore& store, const std::string& lb)
{
    std::vector<std::string> users;
    for (const Ptr<AdcCrVserverConfig>& v : store.GetAll<AdcCrVserverConfig>(CRD::CR_VSERVER))
    {
        if (v->cacheVserver == lb)
        {
            users.push_back("cr vserver " + v->name);
        }
    }
    return users;
}

} // namespace

Ptr<AdcNsSettingsConfig>
AdcNetScalerCrdCommands::GetSettings(const AdcConfigStore& store)
{
    return store.Get<AdcNsSettingsConfig>(NS, "ns");
}

const std::vector<AdcConfigParameter>&
AdcNetScalerCrdCommands::GetLbVserverParameters()
{
    static const std::vector<AdcConfigParameter> p = {{"-m"}, {"-sessionless"}};
    return p;
}

void
AdcNetScalerCrdCommands::ApplyLbVserverParameters(const AdcConfigCommand& cmd, Ptr<Object> vserver)
{
    Ptr<AdcLbVserverForwarding> f = vserver->GetObject<AdcLbVserverForwarding>();
    const std::string mode =
        cmd.Has("-m") ? cmd.OneOf(cmd.Value("-m"), "-m", {"IP", "MAC", "IPTUNNEL", "TOS"})
                      : (f ? f->mode : "IP");
    const bool sessionless = cmd.Has("-sessionless")
                                 ? NSC::ReadEnabled(cmd, cmd.Value("-sessionless"), "-sessionless")
                                 : (f && f->sessionless);
    if (sessionless && mode != "MAC")
    {
        cmd.Fail("-sessionless ENABLED needs MAC-based forwarding (-m MAC)", mode, {"MAC"});
    }
    if (!f && (cmd.Has("-m") || cmd.Has("-sessionless")))
    {
        f = CreateObject<AdcLbVserverForwarding>();
        vserver->AggregateObject(f);
    }
    if (f)
    {
        f->mode = mode;
        f->sessionless = sessionless;
    }
}

std::string
AdcNetScalerCrdCommands::LbVserverParametersText(Ptr<Object> vserver)
{
    Ptr<AdcLbVserverForwarding> f = vserver->GetObject<AdcLbVserverForwarding>();
    if (!f)
    {
        return "";
    }
    return (f->mode != "IP" ? " -m " + f->mode : "") +
           std::string(f->sessionless ? " -sessionless ENABLED" : "");
}

void
AdcNetScalerCrdCommands::Register(AdcConfigLanguage& language)
{
    for (const AdcConfigCommandSpec& c : language.GetCommands())
    {
        if (c.path == "add cr vserver")
        {
            return;
        }
    }
    using O = std::vector<std::string>;
    const O name{"<name>"};
    const O cr{"<name>", "<serviceType>", "[<IPAddress>", "<port>]"};
    auto bind = [](Cmd& c) { BindCrVserver(c, true); };
    auto unbind = [](Cmd& c) { BindCrVserver(c, false); };
    auto enable = [](Cmd& c) { SetModes(c, true); };
    auto disable = [](Cmd& c) { SetModes(c, false); };
    auto setCr = [](Cmd& c) {
        ApplyCrParameters(c, CrVserver(c));
        c.NoteParameters(CR_VSERVER, c.Operand(0));
    };
    auto rmCr = [](Cmd& c) {
        CrVserver(c);
        c.GetStore().Remove(CR_VSERVER, c.Operand(0));
    };
    // System settings first, as in ns.conf; PBRs and CR vservers after the LB lines (50) and
    // the service monitors (60), which they may name.
    // clang-format off
    const std::vector<AdcConfigCommandSpec> commands = {
        {"set ns hostName", {"<hostName>"}, 1, false, {}, SetHostName, ShowSettings, 1},
        {"enable ns mode", {"<mode>"}, 1, true, {}, enable, {}, 0},
        {"disable ns mode", {"<mode>"}, 1, true, {}, disable, {}, 0},
        {"set ns param", {}, 0, false, {{"-crPortRange"}}, SetNsParam, {}, 0},
        {"add ns ip", {"<IPAddress>", "<netmask>"}, 2, false, {{"-type"}}, AddNsIp, ShowNsIps, 2},
        {"rm ns ip", {"<IPAddress>"}, 1, false, {}, RemoveNsIp, {}, 0},
        {"add ns pbr", {"<name>", "<action>"}, 2, false,
         {{"-srcIP", 1, 2}, {"-srcPort", 1, 2}, {"-destIP", 1, 2}, {"-destPort", 1, 2},
          {"-nextHop"}, {"-protocol"}, {"-priority"}, {"-state"}},
         AddPbr, ShowPbrs, 70},
        {"rm ns pbr", name, 1, false, {}, RemovePbr, {}, 0},
        {"apply ns pbrs", {}, 0, false, {}, ApplyPbrs, {}, 0},
        {"add cr vserver", cr, 2, false, kCrParameters, AddCrVserver, ShowCrVservers, 80},
        {"set cr vserver", name, 1, false, kCrParameters, setCr, {}, 0},
        {"rm cr vserver", name, 1, false, {}, rmCr, {}, 0},
        {"bind cr vserver", name, 1, false, {{"-lbvserver"}}, bind, ShowCrBindings, 85},
        {"unbind cr vserver", name, 1, false, {{"-lbvserver"}}, unbind, {}, 0},
    };
    // clang-format on
    for (const AdcConfigCommandSpec& c : commands)
    {
        language.RegisterCommand(c);
    }
    // `rm lb vserver` is refused while a cr vserver sends its cacheable requests there.
    language.AddUserFinder(NSC::LB_VSERVER, &CrUsers);
}

AdcConfigLanguage&
AdcNetScalerCrdCommands::GetLanguage()
{
    return AdcNetScalerCommands::GetLanguage();
}

} // namespace ns3
