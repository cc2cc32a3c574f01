/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-ilbadm-commands.h"

#include "ns3/adc-health-monitor.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <sstream>

namespace ns3
{

const std::string AdcIlbadmCommands::SERVER_GROUP = "ilb servergroup";
const std::string AdcIlbadmCommands::HEALTH_CHECK = "ilb healthcheck";
const std::string AdcIlbadmCommands::RULE = "ilb rule";

// ---------------------------------------------------------------------------------------------
// The subcommands

namespace
{

using ILB = AdcIlbadmCommands;
using Cmd = AdcConfigCommand;
/// key=value pairs of an option's argument, keys canonical, in the order given
using Pairs = std::vector<std::pair<std::string, std::vector<std::string>>>;

/// ilbd's limits: names (ILB_NAMESZ - 1), server group names (ILB_SGNAME_SZ - 1), and the
/// largest address range a server spec may expand to (MAX_IP_SPREAD + 1 addresses).
constexpr std::size_t kMaxName = 19;
constexpr std::size_t kMaxGroupName = 14;
constexpr uint32_t kMaxSpread = 255;
/// ILB's persistence timeout when none is given (ilbd).
constexpr uint32_t kPersistTimeout = 60;

/// \param cmd the command \param name a new object's name \param max its longest length
/// \param kind the store's kind \param what what it names
void
CheckNewName(const Cmd& cmd,
             const std::string& name,
             std::size_t max,
             const std::string& kind,
             const std::string& what)
{
    if (name.size() > max)
    {
        cmd.Fail(what + " is too long", name, {"at most " + std::to_string(max) + " characters"});
    }
    // Rules name groups and health checks inside "key=value,..." arguments.
    if (name.find_first_of(",=") != std::string::npos)
    {
        cmd.Fail("bad " + what + " name", name, {"a name without ',' and '='"});
    }
    if (cmd.GetStore().Find(kind, name))
    {
        cmd.Fail("a " + what + " of this name exists already", name);
    }
}

/**
 * \param key a key as given
 * \return its long name when it is one of ilbadm's short names (ilbadm_rules.c
 * rl_incoming_keys ... rl_healthchk_keys, ilbadm_hc.c hc_parse_keys: the k_alias column)
 */
std::string
LongKey(const std::string& key)
{
    static const std::vector<std::pair<std::string, std::string>> kShort = {
        {"prot", "protocol"}, {"algo", "lbalg"},   {"topo", "type"},     {"nat-src", "proxy-src"},
        {"persist", "pmask"}, {"sg", "servergroup"}, {"hcn", "hc-name"}, {"hcp", "hc-port"},
        {"hc-tout", "hc-timeout"}, {"hc-intl", "hc-interval"}};
    for (const auto& [shortName, longName] : kShort)
    {
        if (AdcText::EqualsNoCase(key, shortName))
        {
            return longName;
        }
    }
    return key;
}

/**
 * \brief Parse an option's "key=value[,key=value]" argument as ilbadm's i_parse_optstring does
 * (keys in any case, long or short; with \p valueList, items without '=' add values to the key
 * before them).
 */
Pairs
KeyValues(const Cmd& cmd,
          const std::string& option,
          const std::vector<std::string>& keys,
          bool valueList = false)
{
    Pairs out;
    std::string all;
    for (const std::string& v : cmd.Values(option))
    {
        all += (all.empty() ? "" : ",") + v; // a repeated option (-s) adds to the list
    }
    std::istringstream in(all);
    std::string item;
    while (std::getline(in, item, ','))
    {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos && valueList && !out.empty() && !item.empty())
        {
            out.back().second.push_back(item);
            continue;
        }
        if (eq == std::string::npos)
        {
            cmd.Fail("expected key=value in " + option, item, keys);
        }
        const int k = AdcText::Find(LongKey(item.substr(0, eq)), keys, AdcText::INSENSITIVE);
        if (k < 0)
        {
            cmd.Fail("unknown key in " + option, item.substr(0, eq), keys);
        }
        for (const auto& [key, values] : out)
        {
            if (key == keys[k] && !valueList)
            {
                cmd.Fail("key given twice in " + option, key);
            }
        }
        if (eq + 1 == item.size())
        {
            cmd.Fail("missing value of key", keys[k]);
        }
        out.push_back({keys[k], {item.substr(eq + 1)}});
    }
    return out;
}

/// \return the value of \p key in \p pairs, or ""
std::string
Get(const Pairs& pairs, const std::string& key)
{
    for (const auto& [k, values] : pairs)
    {
        if (k == key)
        {
            return values.front();
        }
    }
    return "";
}

/// \return \p a plus \p n, as a 128-bit (IPv6) or 32-bit (IPv4) number
AdcIpAddress
Next(const AdcIpAddress& a, uint32_t n)
{
    std::array<uint8_t, 16> b = a.GetBytes();
    for (int i = static_cast<int>(a.GetLength()) - 1; i >= 0 && n > 0; --i)
    {
        const uint32_t sum = b[i] + (n & 0xff);
        b[i] = static_cast<uint8_t>(sum);
        n = (n >> 8) + (sum >> 8);
    }
    if (a.IsV4())
    {
        return Ipv4Address((uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) |
                           uint32_t{b[3]});
    }
    return Ipv6Address(b.data());
}

/// \return how many addresses lie from \p a to \p b, or 0 when b < a or more than
/// kMaxSpread + 1 (or the families differ)
uint32_t
Spread(const AdcIpAddress& a, const AdcIpAddress& b)
{
    if (a.GetFamily() != b.GetFamily() || b < a)
    {
        return 0;
    }
    for (uint32_t n = 0; n <= kMaxSpread; ++n)
    {
        if (Next(a, n) == b)
        {
            return n + 1;
        }
    }
    return 0;
}

/// \return the addresses and port of a server spec "ip[-ip][:port]" ("[v6][-[v6]][:port]")
std::pair<std::vector<AdcIpAddress>, uint16_t>
ServerSpec(const Cmd& cmd, const std::string& spec)
{
    std::string first;
    std::optional<std::string> last;
    std::string port;
    const std::vector<std::string> forms = {"ip[-ip][:port]", "[ipv6][-[ipv6]][:port]"};
    if (!spec.empty() && spec[0] == '[')
    {
        const std::size_t close = spec.find(']');
        std::size_t rest = close == std::string::npos ? spec.size() : close + 1;
        first = spec.substr(1, close == std::string::npos ? 0 : close - 1);
        if (spec.compare(rest, 2, "-[") == 0)
        {
            const std::size_t close2 = spec.find(']', rest + 2);
            last = close2 == std::string::npos ? "" : spec.substr(rest + 2, close2 - rest - 2);
            // (an unclosed second bracket leaves rest past the end: an error below)
            rest = close2 == std::string::npos ? spec.size() + 1 : close2 + 1;
        }
        if (close == std::string::npos || rest > spec.size() ||
            (rest < spec.size() && spec[rest] != ':'))
        {
            cmd.Fail("bad server", spec, forms);
        }
        port = rest < spec.size() ? spec.substr(rest + 1) : "";
    }
    else
    {
        const std::size_t colon = spec.find(':');
        if (colon != std::string::npos && spec.find(':', colon + 1) != std::string::npos)
        {
            cmd.Fail("an IPv6 server address goes in brackets", spec, forms);
        }
        const std::string host = spec.substr(0, colon);
        port = colon == std::string::npos ? "" : spec.substr(colon + 1);
        const std::size_t dash = host.find('-');
        first = host.substr(0, dash);
        if (dash != std::string::npos)
        {
            last = host.substr(dash + 1);
        }
    }
    const AdcIpAddress a = cmd.Address(first, "server");
    const AdcIpAddress b = last ? cmd.Address(*last, "server") : a;
    const uint32_t n = Spread(a, b);
    if (n == 0)
    {
        cmd.Fail("bad server address range",
                 spec,
                 {"a range of one family, low to high, of "
                  "at most " +
                  std::to_string(kMaxSpread + 1) + " addresses"});
    }
    std::vector<AdcIpAddress> addresses;
    for (uint32_t i = 0; i < n; ++i)
    {
        addresses.push_back(Next(a, i));
    }
    const auto p =
        static_cast<uint16_t>(port.empty() ? 0 : cmd.Number(port, "server port", 1, 65535));
    return {addresses, p};
}

/// Add the servers of the command's "-s server=..." to \p g.
void
AddServers(const Cmd& cmd, Ptr<AdcIlbadmServerGroup> g)
{
    if (!cmd.Has("-s"))
    {
        return;
    }
    for (const auto& [key, specs] : KeyValues(cmd, "-s", {"server"}, true))
    {
        for (const std::string& spec : specs)
        {
            const auto [addresses, port] = ServerSpec(cmd, spec);
            for (const AdcIpAddress& a : addresses)
            {
                for (const IlbServer& s : g->servers)
                {
                    // ilbd_sg.c i_test_and_insert: an address already in the group, whatever
                    // its port, is ILB_STATUS_EEXIST.
                    if (s.address == a)
                    {
                        cmd.Fail("server is in the group already",
                                 spec,
                                 {"an address not in group " + g->name +
                                  " (ilbd i_test_and_insert: EEXIST, whatever the port)"});
                    }
                }
                IlbServer s;
                s.name = "_" + g->name + "." + std::to_string(g->nextId++);
                s.address = a;
                s.port = port;
                g->servers.push_back(s);
                cmd.NoteOrigin(ILB::SERVER_GROUP, g->name, "server " + s.name);
            }
        }
    }
}

/// \return \p a as ilbadm prints a server's address ("[v6]" in brackets)
std::string
ServerAddress(const AdcIpAddress& a)
{
    return a.IsV6() ? "[" + a.ToString() + "]" : a.ToString();
}

void
CreateServerGroup(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    CheckNewName(cmd, name, kMaxGroupName, ILB::SERVER_GROUP, "server group");
    Ptr<AdcIlbadmServerGroup> g = CreateObject<AdcIlbadmServerGroup>();
    g->name = name;
    AddServers(cmd, g);
    cmd.GetStore().Add(ILB::SERVER_GROUP, name, g);
}

void
AddServer(Cmd& cmd)
{
    if (!cmd.Has("-s"))
    {
        cmd.Fail("missing -s server=...");
    }
    AddServers(cmd,
               cmd.Ref<AdcIlbadmServerGroup>(ILB::SERVER_GROUP, cmd.Operand(0), "server group"));
}

/// \return the IDs of \p g's servers
std::vector<std::string>
ServerIds(const AdcIlbadmServerGroup& g)
{
    std::vector<std::string> ids;
    for (const IlbServer& s : g.servers)
    {
        ids.push_back(s.name);
    }
    return ids;
}

/// remove-server -s server=<serverID>[,...] <group>: as ilbadm, by server ID only. Every ID is
/// checked before any server goes.
void
RemoveServer(Cmd& cmd)
{
    Ptr<AdcIlbadmServerGroup> g =
        cmd.Ref<AdcIlbadmServerGroup>(ILB::SERVER_GROUP, cmd.Operand(0), "server group");
    if (!cmd.Has("-s"))
    {
        cmd.Fail("missing -s server=<serverID>");
    }
    const std::vector<std::string> known = ServerIds(*g);
    std::vector<std::string> ids;
    for (const auto& [key, values] : KeyValues(cmd, "-s", {"server"}, true))
    {
        for (const std::string& id : values)
        {
            if (std::find(known.begin(), known.end(), id) == known.end())
            {
                cmd.Fail("server ID is not in server group " + g->name, id, known);
            }
            ids.push_back(id);
        }
    }
    for (const std::string& id : ids)
    {
        g->servers.erase(std::find_if(g->servers.begin(),
                                      g->servers.end(),
                                      [&id](const IlbServer& s) { return s.name == id; }));
        g->disabled.erase(id);
    }
}

/// enable-server / disable-server <serverID> ...: the server of that ID, in whichever group.
/// Every ID is checked before any changes.
void
EnableServers(Cmd& cmd, bool enable)
{
    std::vector<std::string> known;
    std::map<std::string, Ptr<AdcIlbadmServerGroup>> owner;
    for (const Ptr<AdcIlbadmServerGroup>& g :
         cmd.GetStore().GetAll<AdcIlbadmServerGroup>(ILB::SERVER_GROUP))
    {
        for (const std::string& id : ServerIds(*g))
        {
            known.push_back(id);
            owner[id] = g;
        }
    }
    for (const std::string& id : cmd.GetOperands())
    {
        if (id.empty() || id[0] != '_')
        {
            cmd.Fail("not a server ID (ilbd's server IDs start with '_')", id, known);
        }
        if (owner.count(id) == 0)
        {
            cmd.Fail("server ID is not defined", id, known);
        }
    }
    for (const std::string& id : cmd.GetOperands())
    {
        if (enable)
        {
            owner[id]->disabled.erase(id);
        }
        else
        {
            owner[id]->disabled.insert(id);
        }
    }
}

/// \return the rules of the store using \p test (a group or health check), by name
std::vector<std::string>
RulesUsing(const AdcConfigStore& store, const std::function<bool(const AdcIlbadmRule&)>& test)
{
    std::vector<std::string> out;
    for (const Ptr<AdcIlbadmRule>& r : store.GetAll<AdcIlbadmRule>(ILB::RULE))
    {
        if (test(*r))
        {
            out.push_back(r->rule.name);
        }
    }
    return out;
}

void
DeleteServerGroup(Cmd& cmd)
{
    Ptr<AdcIlbadmServerGroup> g =
        cmd.Ref<AdcIlbadmServerGroup>(ILB::SERVER_GROUP, cmd.Operand(0), "server group");
    const auto users =
        RulesUsing(cmd.GetStore(), [&g](const AdcIlbadmRule& r) { return r.group == g; });
    if (!users.empty())
    {
        cmd.Fail("server group is in use by a rule: delete the rule first", users.front(), users);
    }
    cmd.GetStore().Remove(ILB::SERVER_GROUP, cmd.Operand(0));
}

void
ShowServerGroups(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcIlbadmServerGroup>& g : store.GetAll<AdcIlbadmServerGroup>(ILB::SERVER_GROUP))
    {
        os << "create-servergroup " << g->name << "\n";
        for (const IlbServer& s : g->servers)
        {
            os << "add-server -s server=" << ServerAddress(s.address)
               << (s.port != 0 ? ":" + std::to_string(s.port) : "") << " " << g->name << "\n";
        }
    }
}

void
CreateHealthCheck(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    CheckNewName(cmd, name, kMaxName, ILB::HEALTH_CHECK, "health check");
    if (!cmd.Has("-h"))
    {
        cmd.Fail("missing -h hc-test=...");
    }
    const Pairs pairs = KeyValues(cmd, "-h", {"hc-test", "hc-timeout", "hc-count", "hc-interval"});
    Ptr<AdcIlbadmHealthCheck> hc = CreateObject<AdcIlbadmHealthCheck>();
    hc->name = name;
    hc->test = Get(pairs, "hc-test");
    const std::vector<std::string> tests = {"PING", "TCP", "UDP", "/path/of/a/method"};
    if (hc->test.empty())
    {
        cmd.Fail("missing key hc-test in -h", cmd.Value("-h"), tests);
    }
    if (hc->test[0] != '/' && AdcText::Find(hc->test, tests, AdcText::INSENSITIVE) < 0)
    {
        cmd.Fail("bad value of hc-test", hc->test, tests);
    }
    auto number = [&](const std::string& key, uint32_t fallback) {
        const std::string v = Get(pairs, key);
        return v.empty() ? fallback : static_cast<uint32_t>(cmd.Number(v, key, 1, 86400));
    };
    hc->timeout = number("hc-timeout", hc->timeout);
    hc->count = number("hc-count", hc->count);
    hc->interval = number("hc-interval", hc->interval);
    hc->defaultPing = !cmd.Has("-n");
    if (!hc->defaultPing && AdcText::Find(hc->test, {"PING", "UDP"}, AdcText::INSENSITIVE) >= 0)
    {
        cmd.Fail("cannot disable the default ping for this test", hc->test, {"TCP", "/path"});
    }
    // One probe in flight per server: the model needs the timeout below the interval.
    if (hc->timeout >= hc->interval)
    {
        cmd.Fail("hc-timeout must be less than hc-interval",
                 std::to_string(hc->timeout),
                 {hc->interval > 1 ? "1.." + std::to_string(hc->interval - 1)
                                   : "none with hc-interval=1 (raise hc-interval)"});
    }
    cmd.GetStore().Add(ILB::HEALTH_CHECK, name, hc);
}

void
DeleteHealthCheck(Cmd& cmd)
{
    cmd.Ref<AdcIlbadmHealthCheck>(ILB::HEALTH_CHECK, cmd.Operand(0), "health check");
    const std::string& name = cmd.Operand(0);
    const auto users = RulesUsing(cmd.GetStore(), [&name](const AdcIlbadmRule& r) {
        return r.healthCheck == name;
    });
    if (!users.empty())
    {
        cmd.Fail("health check is in use by a rule: delete the rule first", users.front(), users);
    }
    cmd.GetStore().Remove(ILB::HEALTH_CHECK, name);
}

void
ShowHealthChecks(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcIlbadmHealthCheck>& hc :
         store.GetAll<AdcIlbadmHealthCheck>(ILB::HEALTH_CHECK))
    {
        // As ilbadm exports: -n only when the test is not PING (PING implies no extra ping).
        const bool n = !hc->defaultPing && !AdcText::EqualsNoCase(hc->test, "PING");
        os << "create-healthcheck " << (n ? "-n " : "") << "-h hc-test=" << hc->test
           << ",hc-timeout=" << hc->timeout << ",hc-count=" << hc->count
           << ",hc-interval=" << hc->interval << " " << hc->name << "\n";
    }
}

/// Read create-rule's "-i vip=,port=,protocol=" into \p r.
void
ReadIncoming(const Cmd& cmd, IlbRule& r)
{
    const Pairs in = KeyValues(cmd, "-i", {"vip", "port", "protocol"});
    if (Get(in, "vip").empty() || Get(in, "port").empty())
    {
        cmd.Fail("-i needs vip= and port=", cmd.Value("-i"), {"vip", "port", "protocol"});
    }
    r.vip = cmd.Address(Get(in, "vip"), "vip");
    const std::string port = Get(in, "port");
    const std::size_t dash = port.find('-');
    const auto low = static_cast<uint16_t>(cmd.Number(port.substr(0, dash), "port", 1, 65535));
    const auto high = static_cast<uint16_t>(
        dash == std::string::npos ? low
                                  : cmd.Number(port.substr(dash + 1), "port", low + 1, 65535));
    r.ports = AdcPortRange(low, high);
    const std::string protocol = Get(in, "protocol");
    r.protocol = protocol.empty() || cmd.OneOf(protocol, "protocol", {"tcp", "udp"}) == "tcp"
                     ? AdcFlowKey::PROTO_TCP
                     : AdcFlowKey::PROTO_UDP;
}

/// Read create-rule's "-m lbalg=,type=,proxy-src=,pmask=" (and -p) into \p r.
void
ReadMethod(const Cmd& cmd, IlbRule& r)
{
    const Pairs m = KeyValues(cmd, "-m", {"lbalg", "type", "proxy-src", "pmask"});
    if (Get(m, "lbalg").empty() || Get(m, "type").empty())
    {
        cmd.Fail("-m needs lbalg= and type=",
                 cmd.Value("-m"),
                 {"lbalg", "type", "proxy-src", "pmask"});
    }
    const std::vector<std::string> algs =
        AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::ILBADM);
    // ilbadm_subr.c algo_types and topo_types: each value has a short name (i_val_from_str).
    std::string lbalg = AdcText::ToLower(Get(m, "lbalg"));
    lbalg = lbalg == "rr"     ? "roundrobin"
            : lbalg == "hip"  ? "hash-ip"
            : lbalg == "hipp" ? "hash-ip-port"
            : lbalg == "hipv" ? "hash-ip-vip"
                              : Get(m, "lbalg");
    r.algorithm = AdcText::ToLower(cmd.OneOf(lbalg, "lbalg", algs));
    std::string topo = AdcText::ToLower(Get(m, "type"));
    topo = topo == "d" ? "DSR" : topo == "n" ? "NAT" : topo == "h" ? "HALF-NAT" : Get(m, "type");
    const std::string type = cmd.OneOf(topo, "type", {"DSR", "NAT", "HALF-NAT"});
    r.topology =
        type == "DSR" ? IlbRule::DSR : (type == "NAT" ? IlbRule::FULL_NAT : IlbRule::HALF_NAT);
    const std::string src = Get(m, "proxy-src");
    if (!src.empty() && type != "NAT")
    {
        cmd.Fail("proxy-src is for type NAT only", src);
    }
    if (src.empty() && type == "NAT")
    {
        cmd.Fail("type NAT needs proxy-src", type);
    }
    if (!src.empty())
    {
        const std::size_t dash = src.find('-');
        r.natSourceFirst = cmd.Address(src.substr(0, dash), "proxy-src");
        r.natSourceLast = dash == std::string::npos
                              ? r.natSourceFirst
                              : cmd.Address(src.substr(dash + 1), "proxy-src");
        if (r.natSourceFirst.GetFamily() != r.vip.GetFamily() ||
            Spread(r.natSourceFirst, r.natSourceLast) == 0)
        {
            cmd.Fail("bad proxy-src range", src, {"addresses of the VIP's family, low to high"});
        }
    }
    const std::string pmask = Get(m, "pmask");
    r.sticky = cmd.Has("-p");
    if (!pmask.empty() && !r.sticky)
    {
        cmd.Fail("pmask needs -p", pmask);
    }
    const uint64_t bits = r.vip.GetLength() * 8;
    r.stickyPrefix = static_cast<uint8_t>(
        pmask.empty() ? bits
                      : cmd.Number(pmask[0] == '/' ? pmask.substr(1) : pmask, "pmask", 1, bits));
}

void
CreateRule(Cmd& cmd)
{
    const std::string& name = cmd.Operand(0);
    CheckNewName(cmd, name, kMaxName, ILB::RULE, "rule");
    for (const char* option : {"-i", "-m", "-o"})
    {
        if (!cmd.Has(option))
        {
            cmd.Fail("missing option (usage: create-rule [-e] [-p] -i vip=..,port=.. "
                     "-m lbalg=..,type=.. [-h ..] [-t ..] -o servergroup=.. name)",
                     option);
        }
    }
    Ptr<AdcIlbadmRule> rule = CreateObject<AdcIlbadmRule>();
    IlbRule& r = rule->rule;
    r.name = name;
    ReadIncoming(cmd, r);
    ReadMethod(cmd, r);
    if (cmd.Has("-h"))
    {
        const Pairs h = KeyValues(cmd, "-h", {"hc-name", "hc-port"});
        rule->healthCheck = Get(h, "hc-name");
        if (rule->healthCheck.empty())
        {
            cmd.Fail("-h needs hc-name=", cmd.Value("-h"), {"hc-name", "hc-port"});
        }
        cmd.Ref<AdcIlbadmHealthCheck>(ILB::HEALTH_CHECK, rule->healthCheck, "hc-name");
        const std::string port = Get(h, "hc-port");
        rule->hcPort = port.empty() || AdcText::EqualsNoCase(port, "ANY")
                           ? "ANY"
                           : std::to_string(cmd.Number(port, "hc-port", 1, 65535));
    }
    if (cmd.Has("-t"))
    {
        const Pairs t = KeyValues(cmd, "-t", {"conn-drain", "nat-timeout", "persist-timeout"});
        auto seconds = [&](const std::string& key, uint64_t min) {
            const std::string v = Get(t, key);
            return v.empty() ? 0 : static_cast<uint32_t>(cmd.Number(v, key, min, 4294967295ULL));
        };
        rule->connDrain = seconds("conn-drain", 1);
        rule->natTimeout = seconds("nat-timeout", 0);
        rule->persistTimeout = seconds("persist-timeout", 1);
    }
    r.connDrainTimeout = Seconds(rule->connDrain);
    r.natTimeout = Seconds(rule->natTimeout);
    r.persistTimeout = Seconds(rule->persistTimeout != 0 ? rule->persistTimeout : kPersistTimeout);
    const Pairs o = KeyValues(cmd, "-o", {"servergroup"});
    rule->group =
        cmd.Ref<AdcIlbadmServerGroup>(ILB::SERVER_GROUP, Get(o, "servergroup"), "servergroup");
    rule->enabled = cmd.Has("-e");
    cmd.GetStore().Add(ILB::RULE, name, rule);
}

/// enable-rule and disable-rule: the rules named, or every rule when none is.
void
EnableRules(Cmd& cmd, bool enable)
{
    std::vector<std::string> names = cmd.GetOperands();
    if (names.empty())
    {
        names = cmd.GetStore().GetNames(ILB::RULE);
    }
    for (const std::string& n : names)
    {
        cmd.Ref<AdcIlbadmRule>(ILB::RULE, n, "rule")->enabled = enable;
        cmd.NoteOrigin(ILB::RULE, n, "enabled");
    }
}

void
ShowRules(const AdcConfigStore& store, std::ostream& os)
{
    for (const Ptr<AdcIlbadmRule>& rule : store.GetAll<AdcIlbadmRule>(ILB::RULE))
    {
        const IlbRule& r = rule->rule;
        os << "create-rule " << (rule->enabled ? "-e " : "") << (r.sticky ? "-p " : "")
           << "-i vip=" << r.vip << ",port=" << r.ports.first
           << (r.ports.last > r.ports.first ? "-" + std::to_string(r.ports.last) : "")
           << ",protocol=" << (r.protocol == AdcFlowKey::PROTO_UDP ? "udp" : "tcp")
           << " -m lbalg=" << r.algorithm << ",type="
           << (r.topology == IlbRule::DSR ? "DSR"
                                          : (r.topology == IlbRule::FULL_NAT ? "NAT" : "HALF-NAT"));
        if (r.topology == IlbRule::FULL_NAT)
        {
            os << ",proxy-src=" << r.natSourceFirst << "-" << r.natSourceLast;
        }
        os << (r.sticky ? ",pmask=/" + std::to_string(r.stickyPrefix) : "") << " ";
        if (!rule->healthCheck.empty())
        {
            os << "-h hc-name=" << rule->healthCheck << ",hc-port=" << rule->hcPort << " ";
        }
        std::string timers;
        for (const auto& [key, value] : {std::make_pair("conn-drain", rule->connDrain),
                                         std::make_pair("nat-timeout", rule->natTimeout),
                                         std::make_pair("persist-timeout", rule->persistTimeout)})
        {
            if (value != 0)
            {
                timers +=
                    (timers.empty() ? "" : ",") + std::string(key) + "=" + std::to_string(value);
            }
        }
        if (!timers.empty())
        {
            os << "-t " << timers << " ";
        }
        os << "-o servergroup=" << rule->group->name << " " << r.name << "\n";
    }
}

/// Register the subcommands on \p language.
void
RegisterCommands(AdcConfigLanguage& language)
{
    using P = std::vector<AdcConfigParameter>;
    auto add = [&language](const std::string& path,
                           std::vector<std::string> operands,
                           std::size_t minOperands,
                           P parameters,
                           std::function<void(Cmd&)> handler,
                           std::function<void(const AdcConfigStore&, std::ostream&)> show = {},
                           int showOrder = 0) {
        const bool repeat = minOperands == 0 || operands.back() == "...";
        language.RegisterCommand({path,
                                  std::move(operands),
                                  minOperands,
                                  repeat,
                                  std::move(parameters),
                                  std::move(handler),
                                  std::move(show),
                                  showOrder});
    };
    const P servers{{"-s", 1, 1, true}};
    add("create-servergroup", {"<groupname>"}, 1, servers, CreateServerGroup, ShowServerGroups, 10);
    add("add-server", {"<servergroup>"}, 1, servers, AddServer);
    add("delete-servergroup", {"<groupname>"}, 1, {}, DeleteServerGroup);
    add("remove-server", {"<servergroup>"}, 1, servers, RemoveServer);
    add("enable-server", {"<serverID>", "..."}, 1, {}, [](Cmd& c) { EnableServers(c, true); });
    add("disable-server", {"<serverID>", "..."}, 1, {}, [](Cmd& c) { EnableServers(c, false); });
    add("create-healthcheck",
        {"<hcname>"},
        1,
        {{"-n", 0, 0}, {"-h"}},
        CreateHealthCheck,
        ShowHealthChecks,
        20);
    add("delete-healthcheck", {"<hcname>"}, 1, {}, DeleteHealthCheck);
    add("create-rule",
        {"<name>"},
        1,
        {{"-e", 0, 0}, {"-p", 0, 0}, {"-i"}, {"-m"}, {"-h"}, {"-t"}, {"-o"}},
        CreateRule,
        ShowRules,
        30);
    add("delete-rule", {"<name>"}, 1, {}, [](Cmd& c) {
        c.Ref<AdcIlbadmRule>(ILB::RULE, c.Operand(0), "rule");
        c.GetStore().Remove(ILB::RULE, c.Operand(0));
    });
    add("enable-rule", {"[<name>", "...]"}, 0, {}, [](Cmd& c) { EnableRules(c, true); });
    add("disable-rule", {"[<name>", "...]"}, 0, {}, [](Cmd& c) { EnableRules(c, false); });
    // ilbadm_import.c ilbadm_cmds: every subcommand has a short name (c_alias), which
    // match_cmd accepts as the long one.
    const std::vector<std::pair<std::string, std::string>> aliases = {
        {"create-rule", "create-rl"},          {"delete-rule", "delete-rl"},
        {"enable-rule", "enable-rl"},          {"disable-rule", "disable-rl"},
        {"create-servergroup", "create-sg"},   {"delete-servergroup", "delete-sg"},
        {"add-server", "add-srv"},             {"remove-server", "remove-srv"},
        {"disable-server", "disable-srv"},     {"enable-server", "enable-srv"},
        {"create-healthcheck", "create-hc"},   {"delete-healthcheck", "delete-hc"}};
    const std::vector<AdcConfigCommandSpec> registered = language.GetCommands();
    for (const auto& [longName, shortName] : aliases)
    {
        for (const AdcConfigCommandSpec& c : registered)
        {
            if (c.path == longName)
            {
                AdcConfigCommandSpec alias = c;
                alias.path = shortName;
                alias.show = {}; // export-config prints the long names once
                language.RegisterCommand(std::move(alias));
            }
        }
    }
}

} // namespace

AdcConfigLanguage&
AdcIlbadmCommands::GetLanguage()
{
    static AdcConfigLanguage language = [] {
        AdcConfigLanguage::Syntax syntax;
        syntax.name = "ilbadm";
        syntax.continuation = true;
        syntax.parameterCase = AdcText::EXACT; // getopt(3) options: "-e" is not "-E"
        AdcConfigLanguage l(syntax);
        RegisterCommands(l);
        return l;
    }();
    return language;
}

} // namespace ns3
