/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: the appliance's operational commands about content switching at run time
 * (show cs vserver, show lb persistentSessions, clear lb persistentSessions).
 */

#include "cs-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

/// \return the words of \p line (spaces and tabs separate them)
std::vector<std::string>
Words(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
    {
        out.push_back(w);
    }
    return out;
}

/// \return \p cs's attribute \p name as text
std::string
Attr(const Ptr<CsVirtualServer>& cs, const std::string& name)
{
    StringValue v;
    cs->GetAttribute(name, v);
    return v.Get();
}

/// \return \p cs's unsigned attribute \p name
uint64_t
Number(const Ptr<CsVirtualServer>& cs, const std::string& name)
{
    UintegerValue v;
    cs->GetAttribute(name, v);
    return v.Get();
}

/// `show cs vserver [<name>]`.
std::string
ShowCsVserver(const std::vector<Ptr<CsVirtualServer>>& appliance, const std::string& only)
{
    // Citrix's public documentation gives no sample of this command's output; the layout is
    // the model's: the fields the command reference lists (state, persistence, the bound
    // policies with their priority, target and hits), one vserver after another.
    std::ostringstream os;
    uint32_t n = 0;
    for (const Ptr<CsVirtualServer>& cs : appliance)
    {
        const std::string name = Attr(cs, "Name");
        if (!only.empty() && name != only)
        {
            continue;
        }
        os << ++n << ")\t" << name << " (port " << Number(cs, "Port") << ") - "
           << Attr(cs, "ServiceType") << "\tType: CONTENT\n";
        os << "\tState: " << AdcService::ToString(cs->GetVirtualServer()->GetState()) << "\n";
        const std::string type = AdcText::ToUpper(Attr(cs, "PersistenceType"));
        os << "\tPersistence: " << type;
        if (type != "NONE")
        {
            os << "\tPersistence Timeout: " << Number(cs, "Timeout") << " min";
        }
        os << "\n";
        if (AdcText::ToUpper(Attr(cs, "PersistenceBackup")) != "NONE")
        {
            os << "\tBackup Persistence: " << AdcText::ToUpper(Attr(cs, "PersistenceBackup"))
               << "\tBackup Persistence Timeout: " << Number(cs, "BackupPersistenceTimeout")
               << " min\n";
        }
        os << "\tRequests: " << cs->GetRequests() << "\tPersistence Hits: "
           << cs->GetPersistenceHits() << "\tUnserved: " << cs->GetUnserved() << "\n";
        uint32_t p = 0;
        for (const AdcVirtualServer::VServerBinding& b :
             cs->GetVirtualServer()->GetVServerBindings())
        {
            Ptr<CsPolicy> policy = DynamicCast<CsPolicy>(b.policy);
            if (policy)
            {
                UintegerValue priority;
                policy->GetAttribute("Priority", priority);
                os << ++p << ")\tPolicy: " << policy->GetName()
                   << "\tPriority: " << priority.Get() << "\tTarget: " << b.vserver->GetName()
                   << "\tHits: " << cs->GetPolicyHits(policy->GetName()) << "\n";
            }
        }
        if (cs->GetDefaultLbVserver())
        {
            os << "\tDefault Target LB: " << cs->GetDefaultLbVserver()->GetName()
               << "\tHits: " << cs->GetDefaultHits() << "\n";
        }
    }
    if (!only.empty() && n == 0)
    {
        throw AdcConfigError("show cs vserver: no CS vserver is named '" +
                             AdcText::Printable(only) + "'");
    }
    os << " Done\n";
    return os.str();
}

/// A row of `show lb persistentSessions`.
struct Row
{
    std::string type;    //!< typestring
    std::string srcIp;   //!< srcip
    std::string destIp;  //!< destip
    uint16_t destPort;   //!< destport
    std::string vserver; //!< vservername
    uint32_t timeout;    //!< timeout (seconds left)
    std::string param;   //!< persistenceparam
};

/// \return the rows of \p appliance: CS vservers' entries, then their LB vservers' own
std::vector<Row>
Sessions(const std::vector<Ptr<CsVirtualServer>>& appliance)
{
    std::vector<Row> rows;
    const Time now = Simulator::Now();
    std::vector<Ptr<AdcVirtualServer>> seen;
    for (const Ptr<CsVirtualServer>& cs : appliance)
    {
        for (const CsVirtualServer::PersistentSession& s : cs->GetPersistentSessions())
        {
            std::ostringstream ip;
            ip << s.destIp;
            rows.push_back({s.type, s.source, ip.str(), s.destPort, s.vserver, s.timeoutSeconds,
                            s.param});
        }
        for (const AdcVirtualServer::VServerBinding& b :
             cs->GetVirtualServer()->GetVServerBindings())
        {
            if (std::find(seen.begin(), seen.end(), b.vserver) != seen.end())
            {
                continue;
            }
            seen.push_back(b.vserver);
            for (const AdcPersistenceTable::EntryView& e :
                 b.vserver->GetPersistenceTable()->GetEntries(now))
            {
                const AdcBackend& backend = b.vserver->GetLbMethod()->GetBackend(e.target);
                const std::string text = e.key.ToString();
                const std::string what = text.substr(text.find(' ') + 1);
                const int64_t ns = (e.expiry - now).GetNanoSeconds();
                const bool sourceIp = e.key.type == AdcPersistenceType::SOURCEIP;
                rows.push_back({AdcPersistenceTypeToString(e.key.type),
                                sourceIp ? what.substr(0, what.find('/')) : "",
                                backend.address.ToString(),
                                backend.port,
                                b.vserver->GetName(),
                                static_cast<uint32_t>(ns / 1000000000), // whole seconds left
                                sourceIp ? "" : what});
            }
        }
    }
    return rows;
}

/// `show lb persistentSessions [<vServer>]`.
std::string
ShowPersistentSessions(const std::vector<Ptr<CsVirtualServer>>& appliance,
                       const std::string& only)
{
    // The columns are NITRO's lbpersistentsessions fields (typestring, srcip, destip,
    // destport, vservername, timeout, persistenceparam); the CLI's own header text is not
    // in Citrix's public documentation. TIMEOUT is the seconds left, as the appliance's
    // "timeout values ... might diminish to 0" (Citrix, "View persistence sessions") says.
    std::ostringstream os;
    os << std::left << std::setw(12) << "TYPE" << std::setw(18) << "SRC-IP" << std::setw(18)
       << "DST-IP" << std::setw(7) << "PORT" << std::setw(16) << "VSNAME" << std::setw(9)
       << "TIMEOUT"
       << "PERSISTENCE-PARAM\n";
    for (const Row& r : Sessions(appliance))
    {
        if (!only.empty() && r.vserver != only)
        {
            continue;
        }
        os << std::left << std::setw(12) << r.type << std::setw(18)
           << (r.srcIp.empty() ? "-" : r.srcIp) << std::setw(18) << r.destIp << std::setw(7)
           << r.destPort << std::setw(16) << r.vserver << std::setw(9) << r.timeout
           << (r.param.empty() ? "-" : r.param) << "\n";
    }
    os << " Done\n";
    return os.str();
}

/// `clear lb persistentSessions [<vServer>]`.
std::string
ClearPersistentSessions(const std::vector<Ptr<CsVirtualServer>>& appliance,
                        const std::string& only)
{
    bool known = only.empty();
    for (const Ptr<CsVirtualServer>& cs : appliance)
    {
        if (only.empty() || Attr(cs, "Name") == only)
        {
            cs->ClearPersistentSessions();
            known = true;
        }
        for (const AdcVirtualServer::VServerBinding& b :
             cs->GetVirtualServer()->GetVServerBindings())
        {
            if (only.empty() || b.vserver->GetName() == only)
            {
                b.vserver->GetPersistenceTable()->Clear();
                known = true;
            }
        }
    }
    if (!known)
    {
        throw AdcConfigError("clear lb persistentSessions: no CS vserver or LB vserver bound "
                             "under one is named '" +
                             AdcText::Printable(only) + "'");
    }
    return " Done\n";
}

} // namespace

std::string
CsHelper::Command(const std::vector<Ptr<CsVirtualServer>>& appliance,
                  const std::string& commandLine)
{
    const std::vector<std::string> w = Words(commandLine);
    const auto is = [&w](const std::string& a, const std::string& b, const std::string& c) {
        return w.size() >= 3 && AdcText::ToLower(w[0]) == a && AdcText::ToLower(w[1]) == b &&
               AdcText::ToLower(w[2]) == c;
    };
    if (w.size() > 4)
    {
        throw AdcConfigError("'" + AdcText::Printable(commandLine) +
                             "': too many words; the commands take at most one vserver name");
    }
    const std::string name = w.size() == 4 ? w[3] : "";
    if (is("show", "cs", "vserver"))
    {
        return ShowCsVserver(appliance, name);
    }
    if (is("show", "lb", "persistentsessions"))
    {
        return ShowPersistentSessions(appliance, name);
    }
    if (is("clear", "lb", "persistentsessions"))
    {
        return ClearPersistentSessions(appliance, name);
    }
    if (is("flush", "lb", "persistentsessions"))
    {
        throw AdcConfigError("'" + AdcText::Printable(commandLine) +
                             "': NetScaler's command is 'clear lb persistentSessions "
                             "[<vServer>]' (it flushes them)");
    }
    throw AdcConfigError("'" + AdcText::Printable(commandLine) +
                         "' is not a command this model runs; allowed are 'show cs vserver "
                         "[<name>]', 'show lb persistentSessions [<vServer>]', 'clear lb "
                         "persistentSessions [<vServer>]'");
}

} // namespace ns3
