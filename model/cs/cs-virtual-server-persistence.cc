/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: what the CS vserver does with the LB vservers' own persistence, run-time
 * persistence changes, the persistence sessions `show/clear lb persistentSessions` see, and
 * the inserted cookie's text as the appliance writes it.
 */

#include "cs-virtual-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// \return an LB vserver's own persistence timeout in minutes (`-timeout`)
uint32_t
LbTimeoutMinutes(const Ptr<AdcVirtualServer>& lb)
{
    UintegerValue v;
    lb->GetAttribute("Timeout", v);
    return static_cast<uint32_t>(v.Get());
}

/// \return the name of an LB vserver's own NSC_ cookie, "" when its name cannot be in one
std::string
LbCookieName(const Ptr<AdcVirtualServer>& lb)
{
    // NetScaler names a plain LB vserver's cookie NSC_<vid of the LB vserver>, its name with
    // every letter shifted by one (the seed's <vid_str>; catalyst256/Netscaler-Cookie-Decryptor).
    if (!AdcNscCookie::VserverIdProblem(lb->GetName()).empty())
    {
        return "";
    }
    return "NSC_" + AdcNscCookie::EncodeVserverId(lb->GetName());
}

} // namespace

bool
CsVirtualServer::AnyLbCookieInsert() const
{
    for (const AdcVirtualServer::VServerBinding& b : m_vserver->GetVServerBindings())
    {
        if (b.vserver->GetPersistenceType() == AdcPersistenceType::COOKIEINSERT)
        {
            return true;
        }
    }
    return false;
}

AdcSelection
CsVirtualServer::SelectInLb(const AdcLbContext& ctx,
                            Ptr<AdcVirtualServer> lb,
                            const AdcHttpCookies& cookies)
{
    // Behind a CS vserver the LB vserver keeps its own persistence, as on the appliance: its
    // COOKIEINSERT cookie sends the request "to the service IP and port in the cookie"
    // (Citrix, "HTTP cookie persistence") while that service can take it; SOURCEIP is
    // AdcVirtualServer::Select's own table, keyed on the client address.
    if (lb->GetPersistenceType() == AdcPersistenceType::COOKIEINSERT)
    {
        const std::string name = LbCookieName(lb);
        const std::optional<std::string> value =
            name.empty() ? std::nullopt : cookies.Get(name);
        const std::optional<AdcNscCookie::Service> named =
            value ? AdcNscCookie::DecodeValue(*value) : std::nullopt;
        Ptr<AdcService> service =
            named ? lb->FindBoundService(AdcIpAddress(named->ip), named->port) : nullptr;
        if (service)
        {
            AdcSelection sel = lb->SelectPersisted(ctx, service);
            if (sel.service)
            {
                sel.how = "lb-persistence COOKIEINSERT";
                return sel;
            }
        }
    }
    AdcSelection sel = lb->Select(ctx, Simulator::Now());
    if (sel.service && sel.how == "persistence")
    {
        sel.how = "lb-persistence " + AdcPersistenceTypeToString(lb->GetPersistenceType());
    }
    return sel;
}

AdcSelection
CsVirtualServer::SelectAnew(const AdcLbContext& ctx, const AdcHttpCookies& cookies)
{
    // The CS vserver's own AdcVirtualServer orders its bindings as AdcVirtualServer::Select
    // walks them (policies by priority, then the default); the walk is done here so that the
    // chosen LB vserver can apply its own cookie persistence, which Select cannot see.
    const std::vector<AdcVirtualServer::VServerBinding> bindings = m_vserver->GetVServerBindings();
    for (const bool withPolicy : {true, false})
    {
        for (const AdcVirtualServer::VServerBinding& b : bindings)
        {
            if (static_cast<bool>(b.policy) != withPolicy ||
                b.vserver->GetState() != AdcVirtualServer::State::UP ||
                (b.policy && !b.policy->Match(ctx)))
            {
                continue;
            }
            AdcSelection sel = SelectInLb(ctx, b.vserver, cookies);
            if (!sel.service)
            {
                continue;
            }
            const std::string lbHow =
                sel.how.rfind("lb-persistence", 0) == 0 ? ", " + sel.how : "";
            if (b.policy)
            {
                ++m_policyHits[b.policy->GetName()];
                sel.how = "policy " + b.policy->GetName() + lbHow;
            }
            else
            {
                ++m_defaultHits;
                sel.how = "default" + lbHow;
            }
            return sel;
        }
    }
    AdcSelection none;
    none.how = "none";
    return none;
}

void
CsVirtualServer::AddLbCookie(AdcProxyDecision& d,
                             const AdcSelection& sel,
                             const AdcHttpCookies& cookies) const
{
    if (sel.vserver->GetPersistenceType() != AdcPersistenceType::COOKIEINSERT)
    {
        return;
    }
    const std::string name = LbCookieName(sel.vserver);
    if (name.empty())
    {
        return; // CheckConfig refuses such a name; one set at run time gets no cookie
    }
    const std::string value =
        AdcNscCookie::EncodeValue(sel.service->GetAddress().GetIpv4(), sel.service->GetPort());
    const uint32_t timeout = LbTimeoutMinutes(sel.vserver);
    // As for the CS vserver's cookie: set on a new choice, and re-sent with a new expiry while
    // the session is active (the timeout is "an inactivity period for the session").
    if (cookies.Get(name) != value || timeout != 0)
    {
        d.responseFields.emplace_back(
            "Set-Cookie",
            BuildNscSetCookie(name, value, m_cookieVersion, Minutes(timeout), Simulator::Now(),
                              m_httpOnly));
    }
}

uint64_t
CsVirtualServer::GetPolicyHits(const std::string& policy) const
{
    const auto it = m_policyHits.find(policy);
    return it == m_policyHits.end() ? 0 : it->second;
}

uint64_t
CsVirtualServer::GetDefaultHits() const
{
    return m_defaultHits;
}

void
CsVirtualServer::SetPersistence(const std::string& type,
                                uint32_t timeoutMinutes,
                                const std::string& backup,
                                uint32_t backupTimeoutMinutes)
{
    const std::string oldType = m_persistenceName;
    const uint32_t oldTimeout = m_timeout;
    const std::string oldBackup = m_backupName;
    const uint32_t oldBackupTimeout = m_backupTimeout;
    const AdcPersistenceType wasType = m_persistence;
    const AdcPersistenceType wasBackup = m_backup;
    m_persistenceName = type;
    m_timeout = timeoutMinutes;
    m_backupName = backup;
    m_backupTimeout = backupTimeoutMinutes;
    if (!m_started)
    {
        return; // StartApplication checks it
    }
    try
    {
        CheckConfig();
    }
    catch (const AdcConfigError&)
    {
        m_persistenceName = oldType;
        m_timeout = oldTimeout;
        m_backupName = oldBackup;
        m_backupTimeout = oldBackupTimeout;
        m_persistence = wasType;
        m_backup = wasBackup;
        throw;
    }
    // Citrix documents no fate for the sessions of a replaced type; an entry of the old type
    // (a client address, an SSL session ID) cannot be the new type's, so they go.
    if (m_persistence != wasType)
    {
        m_table->Clear();
    }
    if (m_backup != wasBackup || m_persistence != wasType)
    {
        m_backupTable->Clear();
    }
    m_retime = m_retime || m_timeout != oldTimeout || m_backupTimeout != oldBackupTimeout;
}

std::vector<CsVirtualServer::PersistentSession>
CsVirtualServer::GetPersistentSessions()
{
    std::vector<PersistentSession> out;
    const Time now = Simulator::Now();
    for (const bool backup : {false, true})
    {
        const Ptr<AdcPersistenceTable> table = backup ? m_backupTable : m_table;
        for (const AdcPersistenceTable::EntryView& e : table->GetEntries(now))
        {
            if (e.target >= m_targets.size())
            {
                continue;
            }
            PersistentSession s;
            s.vserver = m_name;
            s.type = AdcPersistenceTypeToString(e.key.type);
            // The key prints as "<TYPE> <text>": a SOURCEIP text is "address/prefix".
            const std::string text = e.key.ToString();
            const std::string what = text.substr(text.find(' ') + 1);
            if (e.key.type == AdcPersistenceType::SOURCEIP)
            {
                s.source = what.substr(0, what.find('/'));
            }
            else
            {
                s.param = what;
            }
            s.destIp = m_targets[e.target].second->GetAddress().GetIpv4();
            s.destPort = m_targets[e.target].second->GetPort();
            s.lbVserver = m_targets[e.target].first->GetName();
            // Whole seconds left, rounded down, as a countdown shows them.
            s.timeoutSeconds = static_cast<uint32_t>((e.expiry - now).GetNanoSeconds() / 1000000000);
            s.backup = backup;
            out.push_back(s);
        }
    }
    return out;
}

uint32_t
CsVirtualServer::ClearPersistentSessions()
{
    const Time now = Simulator::Now();
    const uint32_t n = m_table->GetSize(now) + m_backupTable->GetSize(now);
    m_table->Clear();
    m_backupTable->Clear();
    return n;
}

std::string
CsVirtualServer::BuildNscSetCookie(const std::string& name,
                                   const std::string& value,
                                   uint8_t version,
                                   Time timeout,
                                   Time now,
                                   bool httpOnly,
                                   int64_t epoch)
{
    // The appliance's spelling, from its responses captured in the field (for instance
    // "NSC_...=ffffffff...;expires=Fri, 21-Jun-2013 12:46:20 GMT;path=/;httponly"): no space
    // after ';', lowercase attribute names, the Netscape date with dashes.
    std::string out = name + "=" + value;
    const int64_t timeoutS = (timeout.GetNanoSeconds() + 999999999) / 1000000000;
    if (timeoutS > 0)
    {
        if (version == 0)
        {
            std::string date =
                AdcSetCookie::FormatImfFixdate(epoch + now.GetNanoSeconds() / 1000000000 + timeoutS);
            date[7] = '-'; // "Fri, 21 Jun 2013 ..." -> "Fri, 21-Jun-2013 ..."
            date[11] = '-';
            out += ";expires=" + date;
        }
        else
        {
            out += ";Version=1;Max-Age=" + std::to_string(timeoutS);
        }
    }
    else if (version != 0)
    {
        out += ";Version=1";
    }
    out += ";path=/";
    return httpOnly ? out + ";httponly" : out;
}

std::string
CsVirtualServer::BuildNscExpired(const std::string& name, uint8_t version, bool httpOnly)
{
    std::string out = name + (version == 0 ? "=;expires=Thu, 01-Jan-1970 00:00:00 GMT"
                                           : "=;Version=1;Max-Age=0");
    out += ";path=/";
    return httpOnly ? out + ";httponly" : out;
}

} // namespace ns3
