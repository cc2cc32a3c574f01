/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the RTT and STATICPROXIMITY load-balancing methods.
 */

#include "gslb-lb-methods.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/boolean.h"
#include "ns3/log.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GslbLbMethods");

NS_OBJECT_ENSURE_REGISTERED(GslbLdnsLb);
NS_OBJECT_ENSURE_REGISTERED(GslbRttLb);
NS_OBJECT_ENSURE_REGISTERED(GslbStaticProximityLb);

void
GslbRegisterLbMethods()
{
    using R = AdcLbMethodRegistry;
    const std::vector<std::string> names = R::GetNames(R::NETSCALER);
    if (std::find(names.begin(), names.end(), "RTT") == names.end())
    {
        R::Register(
            "RTT",
            [] { return Ptr<AdcLbMethod>(CreateObject<GslbRttLb>()); },
            R::USES_LDNS);
    }
    if (std::find(names.begin(), names.end(), "STATICPROXIMITY") == names.end())
    {
        R::Register(
            "STATICPROXIMITY",
            [] { return Ptr<AdcLbMethod>(CreateObject<GslbStaticProximityLb>()); },
            R::USES_LDNS);
    }
}

// ---------------------------------------------------------------------------------------------
// GslbLdnsLb

TypeId
GslbLdnsLb::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GslbLdnsLb").SetParent<AdcLbMethod>().SetGroupName("Adc");
    return tid;
}

GslbLdnsLb::GslbLdnsLb() = default;

GslbLdnsLb::~GslbLdnsLb() = default;

std::string
GslbLdnsLb::GetLastReason() const
{
    return m_lastReason;
}

void
GslbLdnsLb::SetBackupMethod(const std::string& name)
{
    const std::string canonical =
        AdcLbMethodRegistry::Resolve(name, {}, "GSLB " + GetMethodName(), "-backupLBMethod");
    m_backup = AdcLbMethodRegistry::Create(canonical, AdcLbMethodRegistry::NETSCALER);
    SyncBackup();
}

std::string
GslbLdnsLb::GetBackupMethodName() const
{
    return m_backup ? m_backup->GetMethodName() : "ROUNDROBIN";
}

Ptr<AdcLbMethod>
GslbLdnsLb::GetBackupMethod()
{
    if (!m_backup)
    {
        m_backup = CreateObject<AdcRoundRobinLb>(); // NetScaler's default -backupLBMethod
        SyncBackup();
    }
    return m_backup;
}

void
GslbLdnsLb::SyncBackup()
{
    if (!m_backup)
    {
        return;
    }
    for (uint32_t i = 0; i < GetNBackends(); ++i)
    {
        const AdcBackend& b = GetBackend(i);
        if (i >= m_backup->GetNBackends())
        {
            m_backup->AddBackend(b);
            continue;
        }
        const AdcBackend& mirror = m_backup->GetBackend(i);
        if (mirror.up != b.up)
        {
            m_backup->SetBackendUp(i, b.up);
        }
        if (mirror.weight != b.weight)
        {
            m_backup->SetBackendWeight(i, b.weight);
        }
    }
}

void
GslbLdnsLb::BackendsChanged()
{
    SyncBackup();
}

int32_t
GslbLdnsLb::Backup(const AdcLbContext& ctx, const std::string& cause)
{
    Ptr<AdcLbMethod> backup = GetBackupMethod();
    std::string name = backup->GetMethodName();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    m_lastReason = "backup-" + name + "-" + cause;
    return backup->Select(ctx);
}

void
GslbLdnsLb::DoDispose()
{
    if (m_backup)
    {
        m_backup->Dispose();
        m_backup = nullptr;
    }
    AdcLbMethod::DoDispose();
}

// ---------------------------------------------------------------------------------------------
// GslbRttLb

TypeId
GslbRttLb::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GslbRttLb")
            .SetParent<GslbLdnsLb>()
            .SetGroupName("Adc")
            .AddConstructor<GslbRttLb>()
            .AddAttribute("Tolerance",
                          "The GSLB vserver's -tolerance: the sites whose RTT is at most the "
                          "lowest RTT plus this answer round robin (>= 0; NetScaler's default "
                          "0, at most 100 ms).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&GslbRttLb::m_window),
                          MakeTimeChecker())
            .AddAttribute("RoundRobinWithinTolerance",
                          "true: NetScaler's selection window (round robin among the sites "
                          "within Tolerance); false: the seed's reading (the lowest RTT, ties "
                          "to the lowest site index; Tolerance ignored).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GslbRttLb::m_windowRoundRobin),
                          MakeBooleanChecker())
            .AddAttribute("RequireEveryRtt",
                          "true: decide only when every candidate site's RTT to the LDNS is "
                          "known, the backup method (-backupLBMethod) until then; false: decide "
                          "among the RTTs known as soon as there is one.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GslbRttLb::m_requireEveryRtt),
                          MakeBooleanChecker());
    return tid;
}

std::string
GslbRttLb::GetMethodName() const
{
    return "RTT";
}

void
GslbRttLb::CheckSite(uint32_t site, const std::string& what) const
{
    if (m_db && site >= m_db->GetNSites())
    {
        const uint32_t n = m_db->GetNSites();
        throw AdcConfigError("GslbRttLb: " + what + " site '" + std::to_string(site) +
                             "' is not a site of the RTT database; " +
                             (n == 0 ? std::string("it has no sites yet (SetSites)")
                                     : "allowed 0 to " + std::to_string(n - 1)));
    }
}

void
GslbRttLb::SetDatabase(Ptr<GslbRttDatabase> db)
{
    m_db = db;
    for (const auto& [name, site] : m_siteOf)
    {
        CheckSite(site, "back-end '" + name + "'");
    }
}

Ptr<GslbRttDatabase>
GslbRttLb::GetDatabase() const
{
    return m_db;
}

void
GslbRttLb::SetBackendSite(const std::string& backendName, uint32_t site)
{
    CheckSite(site, "back-end '" + backendName + "'");
    m_siteOf[backendName] = site;
}

int32_t
GslbRttLb::DoSelect(const AdcLbContext& ctx)
{
    if (ctx.ldns.IsNone())
    {
        return Backup(ctx, "no-ldns");
    }
    if (!m_db || m_db->GetNSites() == 0)
    {
        return Backup(ctx, "no-rtt");
    }
    // The sites that have an up back-end, and the first such back-end of each.
    const uint32_t nSites = m_db->GetNSites();
    std::vector<bool> candidate(nSites, false);
    std::vector<int32_t> firstUp(nSites, -1);
    for (uint32_t i = 0; i < GetNBackends(); ++i)
    {
        const AdcBackend& b = GetBackend(i);
        const auto it = m_siteOf.find(b.name);
        if (!b.up || it == m_siteOf.end() || it->second >= nSites)
        {
            continue;
        }
        if (!candidate[it->second])
        {
            candidate[it->second] = true;
            firstUp[it->second] = static_cast<int32_t>(i);
        }
    }
    const uint32_t nCandidates =
        static_cast<uint32_t>(std::count(candidate.begin(), candidate.end(), true));
    const uint32_t known = m_db->CountKnown(ctx.ldns, candidate);
    if (known == 0)
    {
        return Backup(ctx, "no-rtt");
    }
    if (m_requireEveryRtt && known < nCandidates)
    {
        NS_LOG_INFO("LDNS " << ctx.ldns << ": RTT known from " << known << " of " << nCandidates
                            << " candidate sites; the backup method chooses");
        return Backup(ctx, "partial-rtt");
    }
    if (!m_windowRoundRobin)
    {
        const int32_t best = m_db->GetBestSite(ctx.ldns, candidate);
        m_lastReason = "rtt";
        NS_LOG_INFO("LDNS " << ctx.ldns << ": site " << best << " has the lowest RTT");
        return firstUp[best];
    }
    const std::vector<uint32_t> within = m_db->GetSitesWithin(ctx.ldns, candidate, m_window);
    m_lastReason = "rtt";
    if (within.size() == 1)
    {
        NS_LOG_INFO("LDNS " << ctx.ldns << ": site " << within[0] << " has the lowest RTT");
        return firstUp[within[0]];
    }
    // Round robin among the window's sites: the first of their back-ends at or after the
    // cursor (cyclically, in back-end order).
    const uint32_t n = GetNBackends();
    int32_t chosen = -1;
    uint32_t bestDistance = n;
    for (uint32_t site : within)
    {
        const auto b = static_cast<uint32_t>(firstUp[site]);
        const uint32_t distance = (b + n - m_windowNext % n) % n;
        if (distance < bestDistance)
        {
            bestDistance = distance;
            chosen = firstUp[site];
        }
    }
    m_windowNext = (static_cast<uint32_t>(chosen) + 1) % n;
    NS_LOG_INFO("LDNS " << ctx.ldns << ": " << within.size() << " sites within "
                        << m_window.As(Time::MS) << " of the lowest RTT; back-end " << chosen);
    return chosen;
}

void
GslbRttLb::DoDispose()
{
    m_db = nullptr;
    GslbLdnsLb::DoDispose();
}

// ---------------------------------------------------------------------------------------------
// GslbStaticProximityLb

TypeId
GslbStaticProximityLb::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GslbStaticProximityLb")
                            .SetParent<GslbLdnsLb>()
                            .SetGroupName("Adc")
                            .AddConstructor<GslbStaticProximityLb>();
    return tid;
}

std::string
GslbStaticProximityLb::GetMethodName() const
{
    return "STATICPROXIMITY";
}

void
GslbStaticProximityLb::AddLocation(const AdcIpAddress& prefix,
                                   uint8_t prefixLength,
                                   const std::string& region)
{
    if (prefix.IsNone())
    {
        throw AdcConfigError("GslbStaticProximityLb: location prefix is not set; an IPv4 or "
                             "IPv6 prefix is required");
    }
    const uint32_t maxLength = prefix.IsV4() ? 32 : 128;
    if (prefixLength > maxLength)
    {
        throw AdcConfigError("GslbStaticProximityLb: location " + prefix.ToString() +
                             " prefix length '" + std::to_string(prefixLength) +
                             "' is out of range; allowed 0 to " + std::to_string(maxLength));
    }
    if (region.empty())
    {
        throw AdcConfigError("GslbStaticProximityLb: location " + prefix.ToString() + "/" +
                             std::to_string(prefixLength) +
                             " region '' is empty; a region name is required");
    }
    const AdcIpAddress masked = prefix.Masked(prefixLength);
    for (const Location& l : m_locations)
    {
        if (l.length == prefixLength && l.prefix == masked)
        {
            throw AdcConfigError("GslbStaticProximityLb: location '" + masked.ToString() + "/" +
                                 std::to_string(prefixLength) + "' is already in region '" +
                                 l.region + "'; each prefix is listed once");
        }
    }
    m_locations.push_back({masked, prefixLength, region});
}

void
GslbStaticProximityLb::SetBackendRegion(const std::string& backendName, const std::string& region)
{
    m_regionOf[backendName] = region;
}

std::string
GslbStaticProximityLb::GetRegion(const AdcIpAddress& ldns) const
{
    const Location* best = nullptr;
    for (const Location& l : m_locations)
    {
        if (l.prefix.GetFamily() == ldns.GetFamily() && ldns.Masked(l.length) == l.prefix &&
            (best == nullptr || l.length > best->length))
        {
            best = &l;
        }
    }
    return best == nullptr ? "" : best->region;
}

int32_t
GslbStaticProximityLb::DoSelect(const AdcLbContext& ctx)
{
    if (ctx.ldns.IsNone())
    {
        return Backup(ctx, "no-ldns");
    }
    const std::string region = GetRegion(ctx.ldns);
    if (region.empty())
    {
        return Backup(ctx, "no-location");
    }
    for (uint32_t i = 0; i < GetNBackends(); ++i)
    {
        const AdcBackend& b = GetBackend(i);
        const auto it = m_regionOf.find(b.name);
        if (b.up && it != m_regionOf.end() && it->second == region)
        {
            m_lastReason = "proximity";
            return static_cast<int32_t>(i);
        }
    }
    return Backup(ctx, "region-down");
}

} // namespace ns3
