/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-netscaler-commands.h"

#include "adc-netscaler-crd-commands.h"
#include "adc-netscaler-cs-commands.h"

#include "ns3/adc-health-monitor.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/adc-service-group.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <tuple>

namespace ns3
{

const std::string AdcNetScalerCommands::SERVICE = "service";
const std::string AdcNetScalerCommands::SERVICE_GROUP = "serviceGroup";
const std::string AdcNetScalerCommands::LB_VSERVER = "lb vserver";
const std::string AdcNetScalerCommands::LB_MONITOR = "lb monitor";

namespace
{

using NS = AdcNetScalerCommands;
using Cmd = AdcConfigCommand;

/// A persistence timeout's largest value, in minutes.
constexpr uint64_t kMaxTimeout = 1440;

/// \return the address \p word means; "*" (a wildcard virtual server) is 0.0.0.0
AdcIpAddress
Address(const Cmd& cmd, const std::string& word, const std::string& what)
{
    return word == "*" ? AdcIpAddress(Ipv4Address::GetAny()) : cmd.Address(word, what);
}

/// \return \p a as the CLI writes it ("*" for 0.0.0.0)
std::string
AddressText(const AdcIpAddress& a)
{
    return a == AdcIpAddress(Ipv4Address::GetAny()) ? "*" : a.ToString();
}

/// \return \p port as the CLI writes it ("*" for 0)
std::string
PortText(uint16_t port)
{
    return port == 0 ? "*" : std::to_string(port);
}

/// The parameters a service and a service group share.
const std::vector<AdcConfigParameter> kServiceParameters = {{"-cip", 1, 2},
                                                            {"-usip"},
                                                            {"-useproxyport"},
                                                            {"-maxClient"},
                                                            {"-healthMonitor"}};

/// \return kServiceParameters and \p more
std::vector<AdcConfigParameter>
ServiceParameters(const std::vector<AdcConfigParameter>& more)
{
    std::vector<AdcConfigParameter> all = kServiceParameters;
    all.insert(all.end(), more.begin(), more.end());
    return all;
}

/// Apply the parameters a service and a service group share to \p object's attributes.
void
ApplyServiceParameters(const Cmd& cmd, Ptr<AdcService> object)
{
    if (cmd.Has("-cip"))
    {
        const std::vector<std::string>& v = cmd.Values("-cip");
        const bool on = NS::ReadEnabled(cmd, v[0], "-cip");
        if (!on && v.size() > 1)
        {
            cmd.Fail("a header name goes with -cip ENABLED only", v[1]);
        }
        object->SetAttribute("Cip", BooleanValue(on));
        object->SetAttribute("CipHeader", StringValue(v.size() > 1 ? v[1] : ""));
    }
    if (cmd.Has("-usip"))
    {
        object->SetAttribute("Usip", BooleanValue(NS::ReadYesNo(cmd, cmd.Value("-usip"), "-usip")));
    }
    if (cmd.Has("-useproxyport"))
    {
        object->SetAttribute(
            "UseProxyPort",
            BooleanValue(NS::ReadYesNo(cmd, cmd.Value("-useproxyport"), "-useproxyport")));
    }
    if (cmd.Has("-maxClient"))
    {
        object->SetAttribute(
            "MaxClient",
            UintegerValue(cmd.Number(cmd.Value("-maxClient"), "-maxClient", 0, 4294967294ULL)));
    }
    if (cmd.Has("-healthMonitor"))
    {
        object->SetAttribute(
            "HealthMonitor",
            BooleanValue(NS::ReadYesNo(cmd, cmd.Value("-healthMonitor"), "-healthMonitor")));
    }
}

/// \return the settings of \p s (a service, or a group's member settings) that differ from
/// the defaults, as CLI text
std::string
ServiceParametersText(Ptr<AdcService> s)
{
    std::string out;
    if (s->GetCip())
    {
        out +=
            " -cip ENABLED" + (s->GetCipHeader().empty() ? "" : " " + NS::Quote(s->GetCipHeader()));
    }
    out += s->GetUsip() ? " -usip YES" : "";
    out += s->GetUseProxyPort() ? "" : " -useproxyport NO";
    out += s->GetMaxClient() != 0 ? " -maxClient " + std::to_string(s->GetMaxClient()) : "";
    out += s->GetHealthMonitor() ? "" : " -healthMonitor NO";
    return out;
}

/// \return the service or group named \p name; services and groups share one namespace
Ptr<Object>
ServiceOrGroup(const Cmd& cmd, const std::string& name)
{
    AdcConfigStore& store = cmd.GetStore();
    Ptr<Object> o = store.Find(NS::SERVICE, name);
    o = o ? o : store.Find(NS::SERVICE_GROUP, name);
    if (!o)
    {
        std::vector<std::string> names = store.GetNames(NS::SERVICE);
        const std::vector<std::string> groups = store.GetNames(NS::SERVICE_GROUP);
        names.insert(names.end(), groups.begin(), groups.end());
        cmd.Fail("service or service group is not defined", name, names);
    }
    return o;
}

/// \param cmd an "add" command \param name the new service's or group's name
void
CheckNewServiceName(const Cmd& cmd, const std::string& name)
{
    NS::CheckName(cmd, name, "name");
    AdcConfigStore& store = cmd.GetStore();
    if (store.Find(NS::SERVICE, name) || store.Find(NS::SERVICE_GROUP, name))
    {
        cmd.Fail("a service or service group has this name already", name);
    }
}

/// Remove \p name from every virtual server's bindings.
void
UnbindEverywhere(AdcConfigStore& store, const std::string& name)
{
    for (const Ptr<AdcVirtualServer>& v : store.GetAll<AdcVirtualServer>(NS::LB_VSERVER))
    {
        v->Unbind(name);
    }
}

// ---- services ---------------------------------------------------------------------------------

void
AddService(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    CheckNewServiceName(cmd, name);
    const AdcIpAddress ip = cmd.Address(cmd.Operand(1), "IP");
    const std::string type =
        cmd.OneOf(cmd.Operand(2), "serviceType", AdcService::GetServiceTypes());
    const uint16_t port = NS::ReadPort(cmd, cmd.Operand(3), type);
    // A service is a server's address and port (NetScaler refuses a second one: "Resource
    // already exists"); two would be one back-end counted twice, and one server in a topology.
    for (const Ptr<AdcService>& other : cmd.GetStore().GetAll<AdcService>(NS::SERVICE))
    {
        if (other->GetAddress() == ip && other->GetPort() == port)
        {
            const AdcConfigOrigin at = cmd.GetStore().GetOrigin(NS::SERVICE, other->GetName());
            cmd.Fail("service " + other->GetName() +
                         (at.IsKnown() ? " (" + at.ToString() + ")" : "") +
                         " has this address and port already",
                     cmd.Operand(1) + " " + cmd.Operand(3),
                     {"one service per address and port"});
        }
    }
    Ptr<AdcService> s = CreateObject<AdcService>();
    s->Configure(name, ip, type, port);
    ApplyServiceParameters(cmd, s);
    if (cmd.Has("-state"))
    {
        s->SetAdminState(NS::ReadEnabled(cmd, cmd.Value("-state"), "-state")
                             ? AdcService::ENABLED
                             : AdcService::DISABLED);
    }
    cmd.GetStore().Add(NS::SERVICE, name, s);
}

void
ShowServices(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcService>& s : store.GetAll<AdcService>(NS::SERVICE))
    {
        os << "add service " << NS::Quote(s->GetName()) << " " << s->GetAddress() << " "
           << s->GetServiceType() << " " << PortText(s->GetPort()) << ServiceParametersText(s)
           << (s->GetAdminState() == AdcService::DISABLED ? " -state DISABLED" : "") << "\n";
    }
}

void
SetService(Cmd& cmd)
{
    ApplyServiceParameters(cmd, cmd.Ref<AdcService>(NS::SERVICE, cmd.Operand(0), "service"));
    cmd.NoteParameters(NS::SERVICE, cmd.Operand(0));
}

void
RemoveService(Cmd& cmd)
{
    cmd.Ref<AdcService>(NS::SERVICE, cmd.Operand(0), "service");
    UnbindEverywhere(cmd.GetStore(), cmd.Operand(0));
    cmd.GetStore().Remove(NS::SERVICE, cmd.Operand(0));
}

void
EnableService(Cmd& cmd)
{
    cmd.Ref<AdcService>(NS::SERVICE, cmd.Operand(0), "service")->Enable();
}

void
DisableService(Cmd& cmd)
{
    cmd.Ref<AdcService>(NS::SERVICE, cmd.Operand(0), "service")->Disable();
}

/// `bind service <name> -monitorName <m>` and `unbind service ...`.
void
BindServiceMonitor(Cmd& cmd, bool bind)
{
    Ptr<AdcService> s = cmd.Ref<AdcService>(NS::SERVICE, cmd.Operand(0), "service");
    if (!cmd.Has("-monitorName"))
    {
        cmd.Fail("missing -monitorName");
    }
    const std::string& m = cmd.Value("-monitorName");
    Ptr<AdcHealthMonitor> monitor = cmd.Ref<AdcHealthMonitor>(NS::LB_MONITOR, m, "monitor");
    if (bind)
    {
        s->BindMonitor(monitor);
        cmd.NoteOrigin(NS::SERVICE, cmd.Operand(0), "monitor " + m);
    }
    else if (!s->UnbindMonitor(monitor))
    {
        cmd.Fail("monitor is not bound to the service", m);
    }
}

void
ShowServiceMonitors(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcService>& s : store.GetAll<AdcService>(NS::SERVICE))
    {
        for (const Ptr<AdcHealthMonitor>& m : s->GetMonitors())
        {
            os << "bind service " << NS::Quote(s->GetName()) << " -monitorName "
               << NS::Quote(NS::GetAttribute<StringValue>(m, "Name")) << "\n";
        }
    }
}

// ---- service groups ----------------------------------------------------------------------------

void
AddServiceGroup(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    CheckNewServiceName(cmd, name);
    Ptr<AdcServiceGroup> g = CreateObject<AdcServiceGroup>();
    g->Configure(name, cmd.OneOf(cmd.Operand(1), "serviceType", AdcService::GetServiceTypes()));
    ApplyServiceParameters(cmd, g->GetMemberSettings());
    if (cmd.Has("-state") && !NS::ReadEnabled(cmd, cmd.Value("-state"), "-state"))
    {
        g->Disable();
    }
    cmd.GetStore().Add(NS::SERVICE_GROUP, name, g);
}

void
ShowServiceGroups(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcServiceGroup>& g : store.GetAll<AdcServiceGroup>(NS::SERVICE_GROUP))
    {
        os << "add serviceGroup " << NS::Quote(g->GetName()) << " " << g->GetServiceType()
           << ServiceParametersText(g->GetMemberSettings())
           << (g->GetAdminState() == AdcService::DISABLED ? " -state DISABLED" : "") << "\n";
    }
}

/// `bind serviceGroup <name> (<IP> <port> [-weight N] [-state S] | -monitorName <m>)` and
/// `unbind serviceGroup <name> (<IP> <port> | -monitorName <m>)`.
void
BindServiceGroup(Cmd& cmd, bool bind)
{
    Ptr<AdcServiceGroup> g =
        cmd.Ref<AdcServiceGroup>(NS::SERVICE_GROUP, cmd.Operand(0), "service group");
    if (cmd.Has("-monitorName"))
    {
        if (cmd.GetOperands().size() > 1)
        {
            cmd.Fail("give a member or -monitorName, not both", cmd.Operand(1));
        }
        const std::string& m = cmd.Value("-monitorName");
        Ptr<AdcHealthMonitor> monitor = cmd.Ref<AdcHealthMonitor>(NS::LB_MONITOR, m, "monitor");
        if (bind)
        {
            g->BindMonitor(monitor);
        }
        else if (!g->UnbindMonitor(monitor))
        {
            cmd.Fail("monitor is not bound to the service group", m);
        }
        return;
    }
    if (cmd.GetOperands().size() < 3)
    {
        cmd.Fail("missing <IP> <port> or -monitorName");
    }
    const AdcIpAddress ip = cmd.Address(cmd.Operand(1), "IP");
    const uint16_t port = NS::ReadPort(cmd, cmd.Operand(2), g->GetServiceType());
    if (!bind)
    {
        if (!g->RemoveMember(ip, port))
        {
            cmd.Fail("no such member", cmd.Operand(1) + " " + cmd.Operand(2));
        }
        return;
    }
    if (g->FindMember(ip, port))
    {
        cmd.Fail("member is bound already", cmd.Operand(1) + " " + cmd.Operand(2));
    }
    const auto weight = static_cast<uint32_t>(
        cmd.Has("-weight") ? cmd.Number(cmd.Value("-weight"), "-weight", 1, 100) : 1);
    Ptr<AdcService> member = g->AddMember(ip, port, weight);
    if (cmd.Has("-state") && !NS::ReadEnabled(cmd, cmd.Value("-state"), "-state"))
    {
        member->Disable();
    }
}

void
ShowServiceGroupBindings(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcServiceGroup>& g : store.GetAll<AdcServiceGroup>(NS::SERVICE_GROUP))
    {
        for (const Ptr<AdcService>& m : g->GetMembers())
        {
            os << "bind serviceGroup " << NS::Quote(g->GetName()) << " " << m->GetAddress() << " "
               << PortText(m->GetPort())
               << (m->GetWeight() != 1 ? " -weight " + std::to_string(m->GetWeight()) : "")
               << (m->GetAdminState() == AdcService::DISABLED ? " -state DISABLED" : "") << "\n";
        }
        for (const Ptr<AdcHealthMonitor>& mon : g->GetMonitors())
        {
            os << "bind serviceGroup " << NS::Quote(g->GetName()) << " -monitorName "
               << NS::Quote(NS::GetAttribute<StringValue>(mon, "Name")) << "\n";
        }
    }
}

void
RemoveServiceGroup(Cmd& cmd)
{
    cmd.Ref<AdcServiceGroup>(NS::SERVICE_GROUP, cmd.Operand(0), "service group");
    UnbindEverywhere(cmd.GetStore(), cmd.Operand(0));
    cmd.GetStore().Remove(NS::SERVICE_GROUP, cmd.Operand(0));
}

// ---- virtual servers ---------------------------------------------------------------------------

/// The parameters of add and set lb vserver.
const std::vector<AdcConfigParameter> kVServerParameters = {{"-lbMethod"},
                                                            {"-persistenceType"},
                                                            {"-timeout"},
                                                            {"-backupVServer"}};

/// Apply add or set lb vserver's parameters to \p v.
void
ApplyVServerParameters(const Cmd& cmd, Ptr<AdcVirtualServer> v)
{
    // Read and check every value first: a command that fails changes nothing.
    std::string method = v->GetLbMethodName();
    if (cmd.Has("-lbMethod"))
    {
        method = cmd.OneOf(cmd.Value("-lbMethod"),
                           "-lbMethod",
                           AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER));
    }
    std::string type = AdcPersistenceTypeToString(v->GetPersistenceType());
    if (cmd.Has("-persistenceType"))
    {
        // The types the service type supports (NetScaler's SSL is the matrix's HTTPS).
        const std::string service = v->GetServiceType() == "SSL" ? "HTTPS" : v->GetServiceType();
        std::vector<std::string> allowed;
        for (const char* t : {"NONE", "SOURCEIP", "COOKIEINSERT", "SSLSESSION"})
        {
            try
            {
                AdcPersistenceTable::CheckSupported(AdcPersistenceTypeFromString(t), service);
                allowed.emplace_back(t);
            }
            catch (const AdcConfigError&)
            {
            }
        }
        type = cmd.OneOf(cmd.Value("-persistenceType"), "-persistenceType", allowed);
    }
    // 2..1440 minutes; COOKIEINSERT from 0 (a session cookie); unused without persistence.
    const uint64_t min = type == "COOKIEINSERT" || type == "NONE" ? 0 : 2;
    const std::string timeout =
        cmd.Value("-timeout", std::to_string(NS::GetAttribute<UintegerValue>(v, "Timeout")));
    const uint64_t minutes = cmd.Number(timeout, "-timeout", min, kMaxTimeout);
    if (cmd.Has("-backupVServer"))
    {
        const std::string& name = cmd.Value("-backupVServer");
        Ptr<AdcVirtualServer> backup =
            cmd.Ref<AdcVirtualServer>(NS::LB_VSERVER, name, "-backupVServer");
        try
        {
            v->SetBackupVServer(backup); // changes nothing when it throws
        }
        catch (const AdcConfigError&)
        {
            cmd.Fail("the backup virtual server leads back to this one", name);
        }
    }
    const auto methodParameters = NS::ReadLbMethodParameters(cmd);
    AdcNetScalerCrdCommands::ApplyLbVserverParameters(cmd, v); // -m, -sessionless
    v->SetLbMethod(method);
    for (const auto& [attribute, value] : methodParameters)
    {
        v->SetLbMethodParameter(attribute, value);
    }
    v->SetPersistenceType(type);
    v->SetAttribute("Timeout", UintegerValue(minutes));
}

void
AddVServer(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    NS::CheckNewName(cmd, NS::LB_VSERVER, name, "name", "virtual server");
    const std::string type =
        cmd.OneOf(cmd.Operand(1), "serviceType", AdcService::GetServiceTypes());
    if (cmd.GetOperands().size() == 3)
    {
        cmd.Fail("missing <port> after <IPAddress>");
    }
    const bool addressed = cmd.GetOperands().size() == 4;
    Ptr<AdcVirtualServer> v = CreateObject<AdcVirtualServer>();
    v->Configure(name,
                 type,
                 addressed ? Address(cmd, cmd.Operand(2), "IPAddress") : AdcIpAddress(),
                 addressed ? NS::ReadPort(cmd, cmd.Operand(3), type) : 0);
    ApplyVServerParameters(cmd, v);
    if (cmd.Has("-state") && !NS::ReadEnabled(cmd, cmd.Value("-state"), "-state"))
    {
        v->SetAdminState(AdcService::DISABLED);
    }
    cmd.GetStore().Add(NS::LB_VSERVER, name, v);
}

void
ShowVServers(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcVirtualServer>& v : store.GetAll<AdcVirtualServer>(NS::LB_VSERVER))
    {
        os << "add lb vserver " << NS::Quote(v->GetName()) << " " << v->GetServiceType();
        if (!v->GetVip().IsNone())
        {
            os << " " << AddressText(v->GetVip()) << " " << PortText(v->GetPort());
        }
        os << (v->GetLbMethodName() != "LEASTCONNECTION" ? " -lbMethod " + v->GetLbMethodName()
                                                         : "");
        if (v->GetPersistenceType() != AdcPersistenceType::NONE)
        {
            os << " -persistenceType " << v->GetPersistenceType();
        }
        const uint64_t timeout = NS::GetAttribute<UintegerValue>(v, "Timeout");
        os << (timeout != 2 ? " -timeout " + std::to_string(timeout) : "");
        os << NS::LbMethodParametersText(v);
        os << AdcNetScalerCrdCommands::LbVserverParametersText(v);
        os << (v->GetAdminState() == AdcService::DISABLED ? " -state DISABLED" : "") << "\n";
    }
}

/// \return the virtual server the command's first operand names
Ptr<AdcVirtualServer>
VServer(const Cmd& cmd)
{
    return cmd.Ref<AdcVirtualServer>(NS::LB_VSERVER, cmd.Operand(0), "virtual server");
}

void
SetVServer(Cmd& cmd)
{
    ApplyVServerParameters(cmd, VServer(cmd));
    cmd.NoteParameters(NS::LB_VSERVER, cmd.Operand(0));
}

void
ShowBackups(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcVirtualServer>& v : store.GetAll<AdcVirtualServer>(NS::LB_VSERVER))
    {
        if (v->GetBackupVServer())
        {
            os << "set lb vserver " << NS::Quote(v->GetName()) << " -backupVServer "
               << NS::Quote(v->GetBackupVServer()->GetName()) << "\n";
        }
    }
}

void
RemoveVServer(Cmd& cmd)
{
    Ptr<AdcVirtualServer> gone = VServer(cmd);
    const std::vector<std::string> users = cmd.GetUsers(NS::LB_VSERVER, cmd.Operand(0));
    if (!users.empty())
    {
        std::string list;
        for (const std::string& u : users)
        {
            list += (list.empty() ? "" : ", ") + u;
        }
        cmd.Fail("the LB vserver is in use by " + list + "; unbind or remove them first",
                 cmd.Operand(0));
    }
    for (const Ptr<AdcVirtualServer>& v : cmd.GetStore().GetAll<AdcVirtualServer>(NS::LB_VSERVER))
    {
        if (v->GetBackupVServer() == gone)
        {
            v->SetBackupVServer(nullptr);
        }
    }
    cmd.GetStore().Remove(NS::LB_VSERVER, cmd.Operand(0));
}

void
BindVServer(Cmd& cmd)
{
    Ptr<AdcVirtualServer> v = VServer(cmd);
    const std::string& name = cmd.Operand(1);
    Ptr<Object> target = ServiceOrGroup(cmd, name);
    if (Ptr<AdcServiceGroup> g = DynamicCast<AdcServiceGroup>(target))
    {
        if (cmd.Has("-weight"))
        {
            cmd.Fail("-weight is for services; a group's members have their own", "-weight");
        }
        cmd.Check([&] { v->BindServiceGroup(g); });
        cmd.NoteOrigin(NS::LB_VSERVER, v->GetName(), "bind " + name);
        return;
    }
    const auto weight = static_cast<uint32_t>(
        cmd.Has("-weight") ? cmd.Number(cmd.Value("-weight"), "-weight", 1, 100) : 0);
    cmd.Check([&] { v->BindService(DynamicCast<AdcService>(target), weight); });
    cmd.NoteOrigin(NS::LB_VSERVER, v->GetName(), "bind " + name);
}

void
UnbindVServer(Cmd& cmd)
{
    Ptr<AdcVirtualServer> v = VServer(cmd);
    if (!v->Unbind(cmd.Operand(1)))
    {
        std::vector<std::string> bound;
        for (const AdcVirtualServer::ServiceBinding& b : v->GetServiceBindings())
        {
            bound.push_back(b.name);
        }
        cmd.Fail("not bound to the virtual server", cmd.Operand(1), bound);
    }
}

void
ShowVServerBindings(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcVirtualServer>& v : store.GetAll<AdcVirtualServer>(NS::LB_VSERVER))
    {
        for (const AdcVirtualServer::ServiceBinding& b : v->GetServiceBindings())
        {
            os << "bind lb vserver " << NS::Quote(v->GetName()) << " " << NS::Quote(b.name)
               << (b.weight != 0 ? " -weight " + std::to_string(b.weight) : "") << "\n";
        }
    }
}

} // namespace

void
AdcNetScalerCommands::RegisterLoadBalancing(AdcConfigLanguage& language)
{
    using P = std::vector<AdcConfigParameter>;
    using O = std::vector<std::string>;
    const O name{"<name>"};
    const O group{"<serviceGroupName>"};
    const O member{"<serviceGroupName>", "[<IP>", "<port>]"};
    P vserverSet = kVServerParameters;
    const P& forwarding = AdcNetScalerCrdCommands::GetLbVserverParameters();
    vserverSet.insert(vserverSet.end(), forwarding.begin(), forwarding.end());
    const P methodParameters = GetLbMethodParameters();
    vserverSet.insert(vserverSet.end(), methodParameters.begin(), methodParameters.end());
    P vserverAdd = vserverSet;
    vserverAdd.push_back({"-state"});
    auto bindGroup = [](Cmd& c) { BindServiceGroup(c, true); };
    auto unbindGroup = [](Cmd& c) { BindServiceGroup(c, false); };
    auto enableGroup = [](Cmd& c) {
        c.Ref<AdcServiceGroup>(NS::SERVICE_GROUP, c.Operand(0), "service group")->Enable();
    };
    auto disableGroup = [](Cmd& c) {
        c.Ref<AdcServiceGroup>(NS::SERVICE_GROUP, c.Operand(0), "service group")->Disable();
    };
    auto enableVServer = [](Cmd& c) { VServer(c)->SetAdminState(AdcService::ENABLED); };
    auto disableVServer = [](Cmd& c) { VServer(c)->SetAdminState(AdcService::DISABLED); };
    // A table, one command a row: path, operands, required, repeat, parameters, handler, show.
    // clang-format off
    const std::vector<AdcConfigCommandSpec> commands = {
        {"add service", {"<name>", "<IP>", "<serviceType>", "<port>"}, 4, false,
         ServiceParameters({{"-state"}}), AddService, ShowServices, 20},
        {"set service", name, 1, false, kServiceParameters, SetService, {}, 0},
        {"rm service", name, 1, false, {}, RemoveService, {}, 0},
        {"enable service", name, 1, false, {}, EnableService, {}, 0},
        {"disable service", name, 1, false, {}, DisableService, {}, 0},
        {"bind service", name, 1, false, {{"-monitorName"}},
         [](Cmd& c) { BindServiceMonitor(c, true); }, ShowServiceMonitors, 60},
        {"unbind service", name, 1, false, {{"-monitorName"}},
         [](Cmd& c) { BindServiceMonitor(c, false); }, {}, 0},
        {"add serviceGroup", {"<serviceGroupName>", "<serviceType>"}, 2, false,
         ServiceParameters({{"-state"}}), AddServiceGroup, ShowServiceGroups, 30},
        {"bind serviceGroup", member, 1, false, {{"-weight"}, {"-state"}, {"-monitorName"}},
         bindGroup, ShowServiceGroupBindings, 35},
        {"unbind serviceGroup", member, 1, false, {{"-monitorName"}}, unbindGroup, {}, 0},
        {"rm serviceGroup", group, 1, false, {}, RemoveServiceGroup, {}, 0},
        {"enable serviceGroup", group, 1, false, {}, enableGroup, {}, 0},
        {"disable serviceGroup", group, 1, false, {}, disableGroup, {}, 0},
        {"add lb vserver", {"<name>", "<serviceType>", "[<IPAddress>", "<port>]"}, 2, false,
         vserverAdd, AddVServer, ShowVServers, 40},
        {"set lb vserver", name, 1, false, vserverSet, SetVServer, ShowBackups, 45},
        {"rm lb vserver", name, 1, false, {}, RemoveVServer, {}, 0},
        {"enable lb vserver", name, 1, false, {}, enableVServer, {}, 0},
        {"disable lb vserver", name, 1, false, {}, disableVServer, {}, 0},
        {"bind lb vserver", {"<name>", "<serviceName>"}, 2, false, {{"-weight"}}, BindVServer,
         ShowVServerBindings, 50},
        {"unbind lb vserver", {"<name>", "<serviceName>"}, 2, false, {}, UnbindVServer, {}, 0},
    };
    // clang-format on
    for (const AdcConfigCommandSpec& c : commands)
    {
        language.RegisterCommand(c);
    }
}

AdcConfigLanguage&
AdcNetScalerCommands::GetLanguage()
{
    static AdcConfigLanguage language = [] {
        AdcConfigLanguage::Syntax syntax;
        syntax.name = "NetScaler";
        syntax.quotes = true;
        AdcConfigLanguage l(syntax);
        RegisterMonitors(l);
        RegisterLoadBalancing(l);
        AdcNetScalerCsCommands::Register(l);  // add/set/rm cs vserver
        AdcNetScalerCrdCommands::Register(l); // ns settings, ns pbr, cr vserver
        return l;
    }();
    return language;
}

const std::vector<std::string>&
AdcNetScalerCommands::GetMonitorTypes()
{
    static const std::vector<std::string> types =
        {"PING", "TCP", "HTTP", "UDP-ECV", "LDNS-PING", "LDNS-DNS", "LDNS-TCP"};
    return types;
}

std::string
AdcNetScalerCommands::FormatTime(Time t)
{
    const int64_t ms = t.GetMilliSeconds();
    return ms % 1000 == 0 ? std::to_string(ms / 1000) : std::to_string(ms) + " MSEC";
}

std::string
AdcNetScalerCommands::Quote(const std::string& word)
{
    return GetLanguage().Quote(word);
}

void
AdcNetScalerCommands::CheckName(const AdcConfigCommand& cmd,
                                const std::string& name,
                                const std::string& what)
{
    if (!IsValidName(name))
    {
        cmd.Fail("bad " + what,
                 name,
                 {"1..127 letters, digits and _#. :@=- starting with a letter, digit or _"});
    }
}

void
AdcNetScalerCommands::CheckNewName(const AdcConfigCommand& cmd,
                                   const std::string& kind,
                                   const std::string& name,
                                   const std::string& what,
                                   const std::string& noun)
{
    CheckName(cmd, name, what);
    if (cmd.GetStore().Find(kind, name))
    {
        cmd.Fail("a " + noun + " has this name already", name);
    }
}

bool
AdcNetScalerCommands::ReadYesNo(const AdcConfigCommand& cmd,
                                const std::string& word,
                                const std::string& what)
{
    return cmd.OneOf(word, what, {"YES", "NO"}) == "YES";
}

bool
AdcNetScalerCommands::ReadEnabled(const AdcConfigCommand& cmd,
                                  const std::string& word,
                                  const std::string& what)
{
    return cmd.OneOf(word, what, {"ENABLED", "DISABLED"}) == "ENABLED";
}

uint16_t
AdcNetScalerCommands::ReadPort(const AdcConfigCommand& cmd,
                               const std::string& word,
                               const std::string& serviceType)
{
    if (word == "*" && serviceType != "ANY")
    {
        cmd.Fail("port * needs service type ANY, not " + serviceType, word, {"1..65535"});
    }
    return word == "*" ? 0 : static_cast<uint16_t>(cmd.Number(word, "port", 1, 65535));
}

bool
AdcNetScalerCommands::IsValidName(const std::string& name)
{
    auto alnum = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    if (name.empty() || name.size() > 127 || !(alnum(name[0]) || name[0] == '_'))
    {
        return false;
    }
    for (char c : name)
    {
        if (!alnum(c) && std::string("_#. :@=-").find(c) == std::string::npos)
        {
            return false;
        }
    }
    return true;
}

} // namespace ns3
