/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IlbadmHelper's read side: what illumos ilbadm's show-rule, show-server, show-servergroup,
 * show-healthcheck, show-statistics, show-nat, show-persist, show-hc-result and export-config
 * print (usr/src/cmd/cmd-inet/usr.sbin/ilbadm/ilbadm_{rules,sg,hc,stats,nat}.c), laid out as
 * libofmt does (usr/src/lib/libofmt/common/ofmt.c).
 */

#include "ilbadm-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-ilbadm-commands.h"
#include "ns3/adc-text.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>

namespace ns3
{

namespace
{

using ILB = AdcIlbadmCommands;

/// illumos's ILB_NAMESZ (names) and ILB_SGNAME_SZ (server group names), the field widths.
constexpr uint32_t kNameSz = 20;
constexpr uint32_t kSgNameSz = 15;
/// ofmt without a terminal: 24 rows per page, a header at the top of each.
constexpr uint32_t kRowsPerPage = 24;

/**
 * \brief libofmt's human-readable output: each field left-justified in its width, a field
 * that does not fit pushes the next ones right and later ones give the room back ("overflow"),
 * the last field unpadded; "--" for an empty value, "?" for one the callback could not give;
 * the header again every 24 rows. Multi-line mode (-f): "NAME: value" per field, names
 * right-justified to the longest, a blank line between records.
 */
class Ofmt
{
  public:
    /// One column: its name and width.
    struct Field
    {
        std::string name; //!< header
        uint32_t width;   //!< width
    };

    /// \param fields the columns \param multiline ofmt's OFMT_MULTILINE
    Ofmt(std::vector<Field> fields, bool multiline = false)
        : m_fields(std::move(fields)),
          m_multiline(multiline)
    {
        for (const Field& f : m_fields)
        {
            m_maxName = std::max<uint32_t>(m_maxName, f.name.size());
        }
    }

    /// \param values one per column (nullopt: "?")
    void Row(const std::vector<std::optional<std::string>>& values)
    {
        if ((m_rows++ % kRowsPerPage) == 0 && !m_multiline)
        {
            for (std::size_t i = 0; i < m_fields.size(); ++i)
            {
                Print(i, m_fields[i].name);
            }
            m_os << "\n";
            m_rows++;
        }
        if (m_multiline && m_rows > 1)
        {
            m_os << "\n";
        }
        for (std::size_t i = 0; i < m_fields.size(); ++i)
        {
            const std::string v = !values[i] ? "?" : (values[i]->empty() ? "--" : *values[i]);
            Print(i, v);
        }
        m_os << "\n";
    }

    /// \return the text so far
    std::string Str() const
    {
        return m_os.str();
    }

  private:
    /// ofmt_print_field. \param i column \param value text
    void Print(std::size_t i, const std::string& value)
    {
        const bool last = i + 1 == m_fields.size();
        if (m_multiline)
        {
            const std::string& name = m_fields[i].name;
            m_os << std::string(m_maxName - name.size(), ' ') << name << ": " << value;
            m_os << (last ? "" : "\n");
            return;
        }
        if (last)
        {
            m_os << value;
            m_overflow = 0;
            return;
        }
        uint32_t width = m_fields[i].width;
        const auto valwidth = static_cast<uint32_t>(value.size());
        if (valwidth + m_overflow >= width)
        {
            m_overflow += valwidth - width + 1;
            m_os << value << " ";
            return;
        }
        if (m_overflow > 0)
        {
            const uint32_t compress = std::min(m_overflow, width - valwidth);
            m_overflow -= compress;
            width -= compress;
        }
        m_os << value << std::string(width - valwidth, ' ');
    }

    std::vector<Field> m_fields; //!< columns
    bool m_multiline;            //!< -f
    uint32_t m_maxName{0};       //!< longest column name
    uint32_t m_rows{0};          //!< ofmt's os_nrow
    uint32_t m_overflow{0};      //!< ofmt's os_overflow
    std::ostringstream m_os;     //!< output
};

/// \return ilbadm's port column: "80", "80-90", or nullopt for port 0 ("all ports": "?")
std::optional<std::string>
Port(uint16_t first, uint16_t last)
{
    if (first == 0)
    {
        return std::nullopt;
    }
    return std::to_string(first) + (last > first ? "-" + std::to_string(last) : "");
}

/// \return ilbadm's names of the topologies (topo_types)
std::string
Type(IlbRule::Topology t)
{
    return t == IlbRule::DSR ? "DSR" : (t == IlbRule::FULL_NAT ? "NAT" : "HALF-NAT");
}

/// \return "HH:MM:SS" of a simulated time (the day starting at the simulation's start)
std::string
Clock(Time t)
{
    const int64_t s = t.GetSeconds() < 0 ? 0 : static_cast<int64_t>(t.GetSeconds());
    char buf[16];
    std::snprintf(buf,
                  sizeof(buf),
                  "%02d:%02d:%02d",
                  static_cast<int>(s / 3600 % 24),
                  static_cast<int>(s / 60 % 60),
                  static_cast<int>(s % 60));
    return buf;
}

/// \return "address.port" as show-nat prints it
std::string
Dotted(const AdcIpAddress& a, uint16_t port)
{
    return a.ToString() + "." + std::to_string(port);
}

/// \return the operands of \p words after the options in \p flags (no value) and \p valued
std::vector<std::string>
Operands(const std::vector<std::string>& words,
         const std::vector<std::string>& flags,
         const std::vector<std::string>& valued,
         std::map<std::string, std::string>& options)
{
    std::vector<std::string> out;
    for (std::size_t i = 1; i < words.size(); ++i)
    {
        const std::string& w = words[i];
        if (w.size() > 1 && w[0] == '-' && out.empty())
        {
            if (std::find(flags.begin(), flags.end(), w) != flags.end())
            {
                options[w] = "";
                continue;
            }
            if (std::find(valued.begin(), valued.end(), w) != valued.end() && i + 1 < words.size())
            {
                options[w] = words[++i];
                continue;
            }
            std::vector<std::string> allowed = flags;
            allowed.insert(allowed.end(), valued.begin(), valued.end());
            throw AdcConfigError("ilbadm " + words[0] + ": unknown option or missing value '" + w +
                                 "'; allowed " + AdcConfigError::JoinAllowed(allowed));
        }
        out.push_back(w);
    }
    return out;
}

/// \return \p text as a count (show-nat, show-persist), 0 when empty
uint32_t
Count(const std::string& command, const std::vector<std::string>& operands)
{
    if (operands.empty())
    {
        return 0;
    }
    const std::string& t = operands.front();
    if (operands.size() > 1 || t.empty() || t.size() > 9 ||
        t.find_first_not_of("0123456789") != std::string::npos || std::stoul(t) < 1)
    {
        throw AdcConfigError("ilbadm " + command + ": count '" + t +
                             "' is not valid; allowed one number >= 1");
    }
    return static_cast<uint32_t>(std::stoul(t));
}

} // namespace

std::string
IlbadmHelper::Show(const std::string& commandLine) const
{
    std::istringstream in(commandLine);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
    {
        words.push_back(w);
    }
    const std::vector<std::string> commands = {"show-rule",
                                               "show-server",
                                               "show-servergroup",
                                               "show-healthcheck",
                                               "show-statistics",
                                               "show-nat",
                                               "show-persist",
                                               "show-hc-result",
                                               "export-config"};
    const std::string cmd = words.empty() ? "" : words.front();
    std::map<std::string, std::string> o;
    if (cmd == "show-rule")
    {
        const auto rules = Operands(words, {"-f"}, {}, o);
        return ShowRule(o.count("-f") != 0, rules);
    }
    if (cmd == "show-server")
    {
        return ShowServer(Operands(words, {}, {}, o));
    }
    if (cmd == "show-servergroup")
    {
        return ShowServerGroup(Operands(words, {}, {}, o));
    }
    if (cmd == "show-healthcheck")
    {
        return ShowHealthCheck(Operands(words, {}, {}, o));
    }
    if (cmd == "show-statistics")
    {
        const auto rest = Operands(words, {"-a"}, {"-r", "-s"}, o);
        if (!rest.empty())
        {
            throw AdcConfigError("ilbadm show-statistics: the model prints one snapshot; "
                                 "interval and count '" +
                                 rest.front() + "' are not allowed; allowed -a, -r, -s");
        }
        return ShowStatistics(o.count("-r") ? o["-r"] : "", o.count("-s") ? o["-s"] : "");
    }
    if (cmd == "show-nat" || cmd == "show-persist")
    {
        const uint32_t n = Count(cmd, Operands(words, {}, {}, o));
        return cmd == "show-nat" ? ShowNat(n) : ShowPersist(n);
    }
    if (cmd == "show-hc-result")
    {
        return ShowHcResult(Operands(words, {}, {}, o));
    }
    if (cmd == "export-config" && words.size() == 1)
    {
        return ExportConfig();
    }
    throw AdcConfigError("ilbadm: '" + commandLine + "' is not a read command the model " +
                         "prints; allowed " + AdcConfigError::JoinAllowed(commands));
}

std::string
IlbadmHelper::ShowRule(bool full, const std::vector<std::string>& rules) const
{
    const std::vector<std::string> names = RuleNames(rules);
    bool v6 = false;
    if (!names.empty())
    {
        v6 = Configured(names.front())->rule.vip.IsV6(); // ofmt opens with the first rule's
    }
    const uint32_t ip = v6 ? 39 : 16;
    const std::vector<Ofmt::Field> fields =
        full ? std::vector<Ofmt::Field>{{"RULENAME", kNameSz},
                                        {"STATUS", 7},
                                        {"PORT", 10},
                                        {"PROTOCOL", 5},
                                        {"LBALG", 12},
                                        {"TYPE", 8},
                                        {"PROXY-SRC", v6 ? 39u : 2 * 16 + 1},
                                        {"PMASK", 6},
                                        {"HC-NAME", kNameSz},
                                        {"HC-PORT", 8},
                                        {"CONN-DRAIN", 11},
                                        {"NAT-TIMEOUT", 12},
                                        {"PERSIST-TIMEOUT", 16},
                                        {"SERVERGROUP", kSgNameSz},
                                        {"VIP", ip},
                                        {"SERVERS", 20}}
             : std::vector<Ofmt::Field>{{"RULENAME", kNameSz},
                                        {"STATUS", 7},
                                        {"LBALG", 12},
                                        {"TYPE", 8},
                                        {"PROTOCOL", 5},
                                        {"VIP", ip},
                                        {"PORT", 10}};
    Ofmt out(fields, full);
    for (const std::string& name : names)
    {
        Ptr<AdcIlbadmRule> rule = Configured(name);
        const IlbRule& r = rule->rule;
        const std::string status = rule->enabled ? "E" : "D";
        const std::string proto = r.protocol == AdcFlowKey::PROTO_UDP ? "UDP" : "TCP";
        const auto port = Port(r.ports.first, r.ports.last);
        if (!full)
        {
            out.Row({name, status, r.algorithm, Type(r.topology), proto, r.vip.ToString(), port});
            continue;
        }
        std::string servers;
        for (const IlbServer& s : rule->group->servers)
        {
            servers += (servers.empty() ? "" : ",") + s.name;
        }
        const std::string src = r.topology == IlbRule::FULL_NAT
                                    ? r.natSourceFirst.ToString() + "-" + r.natSourceLast.ToString()
                                    : "";
        out.Row({name,
                 status,
                 port,
                 proto,
                 r.algorithm,
                 Type(r.topology),
                 src,
                 r.sticky ? "/" + std::to_string(r.stickyPrefix) : "",
                 rule->healthCheck,
                 rule->healthCheck.empty() ? "" : rule->hcPort,
                 std::to_string(rule->connDrain),
                 std::to_string(rule->natTimeout),
                 std::to_string(rule->persistTimeout),
                 rule->group->name,
                 r.vip.ToString(),
                 servers});
    }
    return out.Str();
}

std::string
IlbadmHelper::ShowServer(const std::vector<std::string>& rules) const
{
    const std::vector<std::string> names = RuleNames(rules);
    const bool v6 = !names.empty() && Configured(names.front())->rule.vip.IsV6();
    Ofmt out({{"SERVERID", kNameSz},
              {"ADDRESS", v6 ? 39u : 16u},
              {"PORT", 5},
              {"RULENAME", kNameSz},
              {"STATUS", 7},
              {"SERVERGROUP", kSgNameSz}});
    for (const std::string& name : names)
    {
        Ptr<AdcIlbadmRule> rule = Configured(name);
        for (const IlbServer& s : rule->group->servers)
        {
            out.Row({s.name,
                     s.address.ToString(),
                     Port(s.port, s.port),
                     name,
                     rule->group->IsEnabled(s.name) ? "E" : "D",
                     rule->group->name});
        }
    }
    return out.Str();
}

std::string
IlbadmHelper::ShowServerGroup(const std::vector<std::string>& groups) const
{
    std::vector<std::string> names = m_store->GetNames(ILB::SERVER_GROUP);
    for (const std::string& g : groups)
    {
        if (std::find(names.begin(), names.end(), g) == names.end())
        {
            throw AdcConfigError("ilbadm show-servergroup: server group '" + g +
                                 "' does not exist; allowed " + AdcConfigError::JoinAllowed(names));
        }
    }
    names = groups.empty() ? names : groups;
    Ofmt out({{"SGNAME", kSgNameSz},
              {"SERVERID", kNameSz},
              {"MINPORT", 8},
              {"MAXPORT", 8},
              {"IP_ADDRESS", 39}});
    for (const std::string& name : names)
    {
        Ptr<AdcIlbadmServerGroup> g = m_store->Get<AdcIlbadmServerGroup>(ILB::SERVER_GROUP, name);
        if (g->servers.empty())
        {
            out.Row({name, "", "", "", ""}); // ilbadm prints an empty group as one line
        }
        for (const IlbServer& s : g->servers)
        {
            const std::string port = s.port == 0 ? "" : std::to_string(s.port);
            out.Row({name, s.name, port, port, s.address.ToString()});
        }
    }
    return out.Str();
}

std::string
IlbadmHelper::ShowHealthCheck(const std::vector<std::string>& checks) const
{
    const std::vector<std::string> all = m_store->GetNames(ILB::HEALTH_CHECK);
    Ofmt out({{"HCNAME", 14},
              {"TIMEOUT", 8},
              {"COUNT", 8},
              {"INTERVAL", 9},
              {"DEF_PING", 9},
              {"TEST", 32}});
    for (const std::string& name : checks.empty() ? all : checks)
    {
        Ptr<AdcIlbadmHealthCheck> hc = m_store->Get<AdcIlbadmHealthCheck>(ILB::HEALTH_CHECK, name);
        if (!hc)
        {
            throw AdcConfigError("ilbadm show-healthcheck: health check '" + name +
                                 "' does not exist; allowed " + AdcConfigError::JoinAllowed(all));
        }
        out.Row({hc->name,
                 std::to_string(hc->timeout),
                 std::to_string(hc->count),
                 std::to_string(hc->interval),
                 hc->defaultPing ? "Y" : "N",
                 hc->test});
    }
    return out.Str();
}

std::string
IlbadmHelper::ShowStatistics(const std::string& rule, const std::string& server) const
{
    if (!rule.empty())
    {
        RuleNames({rule}); // throws for an unknown rule
    }
    uint64_t pktP = 0;
    uint64_t bytesP = 0;
    uint64_t pktD = 0;
    uint64_t bytesD = 0;
    uint64_t pktU = 0;
    uint64_t bytesU = 0;
    bool serverFound = server.empty();
    for (const std::string& name : m_order)
    {
        if (!rule.empty() && name != rule)
        {
            continue;
        }
        const Installed& in = m_installed.at(name);
        bool ruleHasServer = server.empty();
        for (uint32_t i = 0; i < in.serverIds.size(); ++i)
        {
            if (!server.empty() && in.serverIds[i] != server)
            {
                continue;
            }
            ruleHasServer = serverFound = true;
            const IlbAppliance::Counters c = m_appliance->GetServerCounters(in.index, i);
            pktP += c.packetsIn + c.packetsOut;
            bytesP += c.bytesIn + c.bytesOut;
        }
        if (ruleHasServer)
        {
            const IlbAppliance::Counters c = m_appliance->GetRuleCounters(in.index);
            // ilbadm_stats.c of_rule_stats: the rules' pkt_dropped and bytes_dropped kstats,
            // which ilb_check counts for no server, no NAT port and no memory only (ICMP,
            // fragments and malformed headers have counters of their own, or none).
            pktD += c.pktDropped;
            bytesD += c.bytesDropped;
            // ilb_rule_hash: a disabled rule's packets, passed (pkt_not_processed)
            pktU += c.packetsNotProcessed;
            bytesU += c.bytesNotProcessed;
        }
    }
    if (!serverFound)
    {
        throw AdcConfigError("ilbadm show-statistics: server ID '" + server +
                             "' is on no installed rule");
    }
    Ofmt out({{"PKT_P", 8},
              {"BYTES_P", 10},
              {"PKT_U", 8},
              {"BYTES_U", 10},
              {"PKT_D", 8},
              {"BYTES_D", 10}});
    // PKT_U/BYTES_U: a disabled rule's packets (ilb_rule_hash).
    out.Row({std::to_string(pktP),
             std::to_string(bytesP),
             std::to_string(pktU),
             std::to_string(bytesU),
             std::to_string(pktD),
             std::to_string(bytesD)});
    return out.Str();
}

std::string
IlbadmHelper::ShowNat(uint32_t count) const
{
    std::ostringstream os;
    uint32_t n = 0;
    for (const auto& [serial, e] : m_nat)
    {
        if (count != 0 && n++ == count)
        {
            break;
        }
        const char* proto =
            e.original.protocol == AdcFlowKey::PROTO_TCP
                ? "TCP"
                : (e.original.protocol == AdcFlowKey::PROTO_UDP ? "UDP" : "Unknown");
        char head[16];
        std::snprintf(head, sizeof(head), "%4s: ", proto);
        os << head << Dotted(e.original.src, e.original.srcPort) << " > "
           << Dotted(e.original.dst, e.original.dstPort) << " >>> "
           << Dotted(e.translated.src, e.translated.srcPort) << " > "
           << Dotted(e.translated.dst, e.translated.dstPort) << "\n";
    }
    return os.str();
}

std::string
IlbadmHelper::ShowPersist(uint32_t count) const
{
    // ilb_list_sticky: every entry of the kernel's table (expired ones until the cleanup
    // removes them), here in creation order.
    std::ostringstream os;
    uint32_t n = 0;
    for (const IlbStickyTable::Entry& e : m_appliance->GetStickyTable().GetEntries())
    {
        if (count != 0 && n++ == count)
        {
            break;
        }
        const IlbRule& r = m_appliance->GetRule(e.rule);
        os << r.name << ": " << e.prefix << " --> " << r.servers[e.server].address << "\n";
    }
    return os.str();
}

std::string
IlbadmHelper::ShowHcResult(const std::vector<std::string>& rules) const
{
    const std::vector<std::string> names = RuleNames(rules);
    Ofmt out({{"RULENAME", 14},
              {"HCNAME", 14},
              {"SERVERID", 14},
              {"STATUS", 9},
              {"FAIL", 5},
              {"LAST", 9},
              {"NEXT", 9},
              {"RTT", 6}});
    for (const std::string& name : names)
    {
        const auto it = m_installed.find(name);
        if (it == m_installed.end() || !it->second.monitor)
        {
            continue; // ilbd checks the servers of rules on the ILB with a health check
        }
        const Installed& in = it->second;
        for (uint32_t i = 0; i < in.serverIds.size(); ++i)
        {
            std::string status;
            if (!m_appliance->IsServerEnabled(in.index, i))
            {
                status = "disabled";
            }
            else
            {
                // ilbd_hc.c ilbd_set_fail_state: "If this is a ping test, mark the server as
                // unreachable instead of dead" (ILB_HCS_UNREACH, printed "unreach").
                const AdcHealthMonitor::State s = in.monitor->GetState(i);
                const bool ping = AdcText::EqualsNoCase(in.hcTest, "PING");
                status = s == AdcHealthMonitor::State::UP     ? "alive"
                         : s == AdcHealthMonitor::State::DOWN ? (ping ? "unreach" : "dead")
                                                              : "un-init";
            }
            // The next probe starts an interval after the last one started (it ended rtt
            // after it started); before any probe ended, the first is due at the start.
            const Time last = in.probed[i] ? in.lastProbe[i] : Time();
            const Time next =
                in.probed[i] ? in.lastProbe[i] - in.rtt[i] + Seconds(in.hcInterval) : Time();
            out.Row({name,
                     in.hcName,
                     in.serverIds[i],
                     status,
                     std::to_string(in.fails[i]),
                     Clock(last),
                     status == "disabled" ? "" : Clock(next),
                     std::to_string(in.rtt[i].GetMicroSeconds())});
        }
    }
    return out.Str();
}

std::string
IlbadmHelper::ExportConfig() const
{
    std::vector<const AdcConfigCommandSpec*> sections;
    for (const AdcConfigCommandSpec& c : ILB::GetLanguage().GetCommands())
    {
        if (c.show)
        {
            sections.push_back(&c);
        }
    }
    std::stable_sort(sections.begin(), sections.end(), [](const auto* a, const auto* b) {
        return a->showOrder < b->showOrder;
    });
    std::ostringstream os;
    for (const AdcConfigCommandSpec* c : sections)
    {
        c->show(*m_store, os);
    }
    return os.str();
}

} // namespace ns3
