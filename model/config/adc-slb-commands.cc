/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-slb-commands.h"

#include "ns3/slb-manager.h"

#include <ostream>

namespace ns3
{

const std::string AdcSlbCommands::MANAGER = "slb-manager";
const std::string AdcSlbCommands::LOAD_BALANCER = "loadBalancer";

namespace
{

using Cmd = AdcConfigCommand;

/**
 * \ingroup adc
 * \brief The store's handle on the manager the lines act on (a plain pointer: the manager owns
 * nothing of the reader).
 */
class AdcSlbManagerRef : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::AdcSlbManagerRef").SetParent<Object>().SetGroupName("Adc");
        return tid;
    }

    SlbManager* manager{nullptr}; //!< the manager
};

/// \param store a reader's store \return its manager (null when the reader has none)
SlbManager*
ManagerOf(const AdcConfigStore& store)
{
    Ptr<AdcSlbManagerRef> ref = store.Get<AdcSlbManagerRef>(AdcSlbCommands::MANAGER, "");
    return ref ? ref->manager : nullptr;
}

/// \param cmd a command \return its manager
SlbManager&
Manager(Cmd& cmd)
{
    SlbManager* m = ManagerOf(cmd.GetStore());
    if (!m)
    {
        cmd.Fail("no SLB manager to act on (read the lines with AdcSlbCommands::MakeReader)");
    }
    return *m;
}

/// \param cmd a command \param parameter a parameter it must have \return its value
std::string
Required(Cmd& cmd, const std::string& parameter)
{
    if (!cmd.Has(parameter))
    {
        cmd.Fail("missing " + parameter);
    }
    return cmd.Value(parameter);
}

void
AddLoadBalancer(Cmd& cmd)
{
    SlbVipKey key;
    key.vip = cmd.Address(cmd.Operand(1), "frontendIP");
    key.protocol = cmd.OneOf(Required(cmd, "-protocol"), "-protocol", {"TCP", "UDP"}) == "UDP"
                       ? AdcFlowKey::PROTO_UDP
                       : AdcFlowKey::PROTO_TCP;
    key.port = static_cast<uint16_t>(
        cmd.Number(Required(cmd, "-frontendPort"), "-frontendPort", 1, 65535));
    const SlbVipKind kind =
        cmd.OneOf(cmd.Value("-type", "PUBLIC"), "-type", {"PUBLIC", "INTERNAL"}) == "INTERNAL"
            ? SlbVipKind::INTERNAL
            : SlbVipKind::PUBLIC;
    SlbManager& m = Manager(cmd);
    cmd.Check([&]() { m.AddVip(cmd.Operand(0), key, kind); });
    cmd.NoteOrigin(AdcSlbCommands::LOAD_BALANCER, cmd.Operand(0), "add");
}

/// \return " (FILE:LINE)" of \p origin, or "" when unknown
std::string
At(const AdcConfigOrigin& origin)
{
    return origin.IsKnown() ? " (" + origin.ToString() + ")" : "";
}

/**
 * \brief Refuse now what the host's virtual switch would refuse when the policy reaches it
 * (SlbHostSwitch::SetNatRule, run after Commit, with no line to name): a DIP of the other
 * address family than the VIP's, and a DIP address and port of the host that already serves
 * another VIP (replies must map back to one VIP).
 */
void
CheckDip(const Cmd& cmd, const SlbManager& m, const SlbDip& dip, const std::string& host)
{
    const std::string& name = cmd.Operand(0);
    const SlbVip& vip = m.GetVip(name);
    const AdcConfigStore& store = cmd.GetStore();
    const std::string word = cmd.Value("-backendIP");
    if (vip.key.vip.GetFamily() != dip.address.GetFamily())
    {
        cmd.Fail("bad value of -backendIP: loadBalancer " + name + "'s frontendIP " +
                     vip.key.vip.ToString() +
                     At(store.GetOrigin(AdcSlbCommands::LOAD_BALANCER, name, "add")) +
                     " is of the other address family",
                 word,
                 {vip.key.vip.IsV4() ? "an IPv4 address (the frontendIP is IPv4)"
                                     : "an IPv6 address (the frontendIP is IPv6)"});
    }
    for (const std::string& other : m.GetVipNames())
    {
        const SlbVip& o = m.GetVip(other);
        if (other == name || o.key.protocol != vip.key.protocol)
        {
            continue;
        }
        for (const SlbDip& d : o.dips)
        {
            if (d.address == dip.address && d.port == dip.port &&
                m.GetDipHost(other, d.address) == host)
            {
                cmd.Fail("-backendIP and -backendPort already serve loadBalancer " + other +
                             At(store.GetOrigin(AdcSlbCommands::LOAD_BALANCER,
                                                other,
                                                "bind " + d.address.ToString())) +
                             " on host " + host + "; replies must map back to one VIP",
                         word + " " + std::to_string(dip.port),
                         {"one loadBalancer per DIP address and port"});
            }
        }
    }
}

void
BindLoadBalancer(Cmd& cmd)
{
    SlbDip dip;
    dip.address = cmd.Address(Required(cmd, "-backendIP"), "-backendIP");
    dip.port =
        static_cast<uint16_t>(cmd.Number(Required(cmd, "-backendPort"), "-backendPort", 1, 65535));
    if (cmd.Has("-vni") && cmd.Has("-vlan"))
    {
        cmd.Fail("a DIP is on a virtual network (-vni) or on a VLAN (-vlan), not both");
    }
    if (cmd.Has("-vni"))
    {
        dip.vni = static_cast<uint32_t>(cmd.Number(cmd.Value("-vni"), "-vni", 1, 0xFFFFFF));
    }
    if (cmd.Has("-vlan"))
    {
        dip.vlan = static_cast<uint16_t>(cmd.Number(cmd.Value("-vlan"), "-vlan", 0, 4094));
    }
    const std::string host = Required(cmd, "-host");
    SlbManager& m = Manager(cmd);
    cmd.Check([&]() {
        m.GetVip(cmd.Operand(0)); // an unknown VIP: the manager's own error
        CheckDip(cmd, m, dip, host);
        m.AddDip(cmd.Operand(0), dip, host);
    });
    cmd.NoteOrigin(AdcSlbCommands::LOAD_BALANCER, cmd.Operand(0), "bind " + dip.address.ToString());
}

void
UnbindLoadBalancer(Cmd& cmd)
{
    const AdcIpAddress dip = cmd.Address(Required(cmd, "-backendIP"), "-backendIP");
    SlbManager& m = Manager(cmd);
    cmd.Check([&]() { m.RemoveDip(cmd.Operand(0), dip); });
}

/// Prints the MUXes in service as lines.
void
ShowMuxes(const AdcConfigStore& store, std::ostream& os)
{
    if (SlbManager* m = ManagerOf(store))
    {
        for (const auto& name : m->GetMuxes())
        {
            os << "add loadBalancerMux " << name << '\n';
        }
    }
}

/// \param a an address \return it as a word
std::string
Word(const AdcIpAddress& a)
{
    return a.ToString();
}

/// Prints the VIPs and their DIPs as lines.
void
ShowLoadBalancers(const AdcConfigStore& store, std::ostream& os)
{
    SlbManager* m = ManagerOf(store);
    if (!m)
    {
        return;
    }
    for (const auto& name : m->GetVipNames())
    {
        const SlbVip& vip = m->GetVip(name);
        os << "add loadBalancer " << name << ' ' << Word(vip.key.vip) << " -protocol "
           << (vip.key.protocol == AdcFlowKey::PROTO_UDP ? "UDP" : "TCP") << " -frontendPort "
           << vip.key.port << " -type "
           << (vip.kind == SlbVipKind::INTERNAL ? "INTERNAL" : "PUBLIC") << '\n';
    }
    for (const auto& name : m->GetVipNames())
    {
        for (const auto& dip : m->GetVip(name).dips)
        {
            os << "bind loadBalancer " << name << " -backendIP " << Word(dip.address)
               << " -backendPort " << dip.port << " -host " << m->GetDipHost(name, dip.address);
            if (dip.vni != 0)
            {
                os << " -vni " << dip.vni;
            }
            else
            {
                os << " -vlan " << dip.vlan;
            }
            os << '\n';
        }
    }
}

/// \param language the language: register the commands
void
RegisterCommands(AdcConfigLanguage& language)
{
    using P = std::vector<AdcConfigParameter>;
    auto add = [&language](const std::string& path,
                           std::vector<std::string> operands,
                           P parameters,
                           std::function<void(Cmd&)> handler,
                           std::function<void(const AdcConfigStore&, std::ostream&)> show = {},
                           int showOrder = 0) {
        const std::size_t n = operands.size();
        language.RegisterCommand({path,
                                  std::move(operands),
                                  n,
                                  false,
                                  std::move(parameters),
                                  std::move(handler),
                                  std::move(show),
                                  showOrder});
    };
    add(
        "add loadBalancerMux",
        {"<name>"},
        {},
        [](Cmd& c) {
            SlbManager& m = Manager(c);
            c.Check([&]() { m.AddMux(c.Operand(0)); });
        },
        ShowMuxes,
        10);
    add("rm loadBalancerMux", {"<name>"}, {}, [](Cmd& c) {
        SlbManager& m = Manager(c);
        c.Check([&]() { m.RemoveMux(c.Operand(0)); });
    });
    add("add loadBalancer",
        {"<name>", "<frontendIP>"},
        {{"-protocol"}, {"-frontendPort"}, {"-type"}},
        AddLoadBalancer,
        ShowLoadBalancers,
        20);
    add("rm loadBalancer", {"<name>"}, {}, [](Cmd& c) {
        SlbManager& m = Manager(c);
        c.Check([&]() { m.RemoveVip(c.Operand(0)); });
    });
    add("bind loadBalancer",
        {"<name>"},
        {{"-backendIP"}, {"-backendPort"}, {"-host"}, {"-vni"}, {"-vlan"}},
        BindLoadBalancer);
    add("unbind loadBalancer", {"<name>"}, {{"-backendIP"}}, UnbindLoadBalancer);
}

} // namespace

AdcConfigLanguage&
AdcSlbCommands::GetLanguage()
{
    static AdcConfigLanguage language = [] {
        AdcConfigLanguage::Syntax syntax;
        syntax.name = "SLB northbound";
        syntax.quotes = true;
        AdcConfigLanguage l(syntax);
        RegisterCommands(l);
        return l;
    }();
    return language;
}

void
AdcSlbCommands::Commit(const AdcConfigStore& store)
{
    SlbManager* m = ManagerOf(store);
    if (!m)
    {
        throw AdcConfigError("AdcSlbCommands::Commit: the store has no SLB manager (read the "
                             "lines with AdcSlbCommands::MakeReader)");
    }
    try
    {
        m->Commit();
    }
    catch (const AdcConfigFileError&)
    {
        throw;
    }
    catch (const AdcConfigError& e)
    {
        // Commit refuses a VIP without DIP, or VIPs without a MUX to announce them: name the
        // add loadBalancer line they are about.
        const std::vector<std::string> names = m->GetVipNames();
        for (const std::string& name : names)
        {
            if (m->GetVip(name).dips.empty())
            {
                AdcConfigFileError::Fail(
                    store.GetOrigin(LOAD_BALANCER, name, "add"),
                    e.what(),
                    name,
                    {"a loadBalancer with a DIP (bind loadBalancer " + name + " -backendIP ...)"});
            }
        }
        if (m->GetMuxes().empty() && !names.empty())
        {
            AdcConfigFileError::Fail(store.GetOrigin(LOAD_BALANCER, names.front(), "add"),
                                     e.what(),
                                     names.front(),
                                     {"a policy with add loadBalancerMux <name>"});
        }
        throw;
    }
}

std::unique_ptr<AdcConfigReader>
AdcSlbCommands::MakeReader(Ptr<SlbManager> manager)
{
    auto reader = std::make_unique<AdcConfigReader>(GetLanguage());
    Ptr<AdcSlbManagerRef> ref = CreateObject<AdcSlbManagerRef>();
    ref->manager = PeekPointer(manager);
    reader->GetStore().Add(MANAGER, "", ref);
    return reader;
}

} // namespace ns3
