/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the RTT database (an open-addressing table of LDNS entries).
 */

#include "gslb-rtt-database.h"

#include "ns3/adc-config-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GslbRttDatabase");

NS_OBJECT_ENSURE_REGISTERED(GslbRttDatabase);

namespace
{

/// First size of the hash table (a power of two).
constexpr uint32_t kInitialSlots = 16;
/// The table grows when entries would exceed this share of the slots (numerator / 4).
constexpr uint64_t kMaxLoadQuarters = 3;
/// The longest EntryTimeout: entry times are milliseconds modulo 2^32 and an entry can live up
/// to three timeouts between sweeps, so 3 timeouts must stay below 2^32 ms (49.7 days).
const Time kMaxEntryTimeout = Seconds(10 * 24 * 3600);
/// Hash seed of the table (any constant: the table order is not observable in choices).
constexpr uint64_t kTableSeed = 0x6a09e667f3bcc909ULL;

/// \param t a time \return it as "N ms" for messages
std::string
MsText(Time t)
{
    return std::to_string(t.GetMilliSeconds()) + " ms";
}

} // namespace

TypeId
GslbRttDatabase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GslbRttDatabase")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<GslbRttDatabase>()
            .AddAttribute("Tolerance",
                          "RTT tolerance (set gslb parameter -rttTolerance): a local measurement "
                          "is stored and sent through MEP only when it differs from the stored "
                          "value by more than this (>= 0; NetScaler's default 5 ms; must be the "
                          "same across the GSLB domain).",
                          TimeValue(MilliSeconds(5)),
                          MakeTimeAccessor(&GslbRttDatabase::m_tolerance),
                          MakeTimeChecker())
            .AddAttribute("EntryTimeout",
                          "An LDNS entry neither updated nor touched (queried) for this long is "
                          "gone (NetScaler's ldnsentrytimeout; > 0 and at most 10 days).",
                          TimeValue(Seconds(180)),
                          MakeTimeAccessor(&GslbRttDatabase::m_entryTimeout),
                          MakeTimeChecker())
            .AddTraceSource("Update",
                            "A local measurement or a remote (MEP) value arrived: the LDNS, the "
                            "site, the old and the new RTT (ms, -1: none), the source (\"local\" "
                            "or \"mep\") and whether it was stored.",
                            MakeTraceSourceAccessor(&GslbRttDatabase::m_updateTrace),
                            "ns3::GslbRttDatabase::UpdateTracedCallback")
            .AddTraceSource("Expire",
                            "An LDNS entry expired (EntryTimeout) and was removed.",
                            MakeTraceSourceAccessor(&GslbRttDatabase::m_expireTrace),
                            "ns3::GslbRttDatabase::ExpireTracedCallback");
    return tid;
}

GslbRttDatabase::GslbRttDatabase()
    : m_tolerance(MilliSeconds(5)),
      m_entryTimeout(Seconds(180))
{
    NS_LOG_FUNCTION(this);
}

GslbRttDatabase::~GslbRttDatabase() = default;

void
GslbRttDatabase::DoDispose()
{
    m_slots = {};
    m_address = {};
    m_family = {};
    m_lastActivity = {};
    m_rtt = {};
    Object::DoDispose();
}

// ---- sites ----------------------------------------------------------------------------------

void
GslbRttDatabase::SetSites(const std::vector<std::string>& names, uint32_t localSite)
{
    if (names.empty() || names.size() > kMaxSites)
    {
        throw AdcConfigError("GslbRttDatabase: sites: " + std::to_string(names.size()) +
                             " sites given; allowed 1 to " + std::to_string(kMaxSites));
    }
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        if (names[i].empty())
        {
            throw AdcConfigError("GslbRttDatabase: site #" + std::to_string(i) +
                                 " name '' is empty; names must be non-empty");
        }
        if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i)
        {
            throw AdcConfigError("GslbRttDatabase: site name '" + names[i] +
                                 "' is given twice; names must be unique");
        }
    }
    if (localSite >= names.size())
    {
        throw AdcConfigError("GslbRttDatabase: local site '" + std::to_string(localSite) +
                             "' is not a site index; allowed 0 to " +
                             std::to_string(names.size() - 1));
    }
    m_siteNames = names;
    m_localSite = localSite;
    m_slots = {};
    m_address = {};
    m_family = {};
    m_lastActivity = {};
    m_rtt = {};
}

uint32_t
GslbRttDatabase::GetNSites() const
{
    return static_cast<uint32_t>(m_siteNames.size());
}

uint32_t
GslbRttDatabase::GetLocalSite() const
{
    return m_localSite;
}

const std::string&
GslbRttDatabase::GetSiteName(uint32_t site) const
{
    CheckSite(site, "GetSiteName");
    return m_siteNames[site];
}

void
GslbRttDatabase::CheckSites(const char* what) const
{
    if (m_siteNames.empty())
    {
        throw AdcConfigError(std::string("GslbRttDatabase: ") + what +
                             ": no sites; call SetSites first");
    }
    if (!m_entryTimeout.IsStrictlyPositive() || m_entryTimeout > kMaxEntryTimeout)
    {
        throw AdcConfigError("GslbRttDatabase: EntryTimeout '" + MsText(m_entryTimeout) +
                             "' is out of range; allowed more than 0 and at most 10 days");
    }
    if (m_tolerance.IsStrictlyNegative())
    {
        throw AdcConfigError("GslbRttDatabase: Tolerance '" + MsText(m_tolerance) +
                             "' is negative; allowed 0 or more");
    }
}

void
GslbRttDatabase::CheckSite(uint32_t site, const char* what) const
{
    CheckSites(what);
    if (site >= m_siteNames.size())
    {
        throw AdcConfigError(std::string("GslbRttDatabase: ") + what + ": site '" +
                             std::to_string(site) + "' is not a site index; allowed 0 to " +
                             std::to_string(m_siteNames.size() - 1));
    }
}

uint16_t
GslbRttDatabase::ToMs(Time rtt, const char* what)
{
    if (rtt.IsStrictlyNegative())
    {
        throw AdcConfigError(std::string("GslbRttDatabase: ") + what + ": rtt '" +
                             std::to_string(rtt.GetNanoSeconds()) +
                             " ns' is negative; allowed 0 or more");
    }
    const int64_t ms = (rtt.GetNanoSeconds() + 500000) / 1000000; // nearest millisecond
    return static_cast<uint16_t>(std::min<int64_t>(ms, kMaxRttMs));
}

uint32_t
GslbRttDatabase::NowUnits()
{
    return static_cast<uint32_t>(static_cast<uint64_t>(Simulator::Now().GetMilliSeconds()));
}

// ---- the table ------------------------------------------------------------------------------

bool
GslbRttDatabase::IsExpired(uint32_t e) const
{
    if (Simulator::Now() - m_lastAnyActivity >= m_entryTimeout)
    {
        return true; // every entry is at least this old (and its age may exceed 2^32 ms)
    }
    const uint32_t age = NowUnits() - m_lastActivity[e]; // modulo 2^32
    return static_cast<int64_t>(age) >= m_entryTimeout.GetMilliSeconds();
}

uint32_t
GslbRttDatabase::HomeSlot(const AdcIpAddress& a) const
{
    return static_cast<uint32_t>(AdcHash::Address(a, kTableSeed)) &
           static_cast<uint32_t>(m_slots.size() - 1);
}

AdcIpAddress
GslbRttDatabase::AddressOf(uint32_t e) const
{
    if (m_family[e] == AdcIpAddress::V6)
    {
        std::array<uint8_t, 16> bytes = m_address[e]; // Ipv6Address takes a non-const array
        return AdcIpAddress(Ipv6Address(bytes.data()));
    }
    return AdcIpAddress(Ipv4Address::Deserialize(m_address[e].data()));
}

uint32_t
GslbRttDatabase::Find(const AdcIpAddress& a, uint32_t* slot) const
{
    if (m_slots.empty())
    {
        return kNone;
    }
    const uint32_t mask = static_cast<uint32_t>(m_slots.size() - 1);
    const std::size_t len = a.GetLength();
    for (uint32_t s = HomeSlot(a);; s = (s + 1) & mask)
    {
        const uint32_t e = m_slots[s];
        if (e == kNone)
        {
            return kNone;
        }
        if (m_family[e] == a.GetFamily() &&
            std::memcmp(m_address[e].data(), a.GetBytes().data(), len) == 0)
        {
            if (slot != nullptr)
            {
                *slot = s;
            }
            return e;
        }
    }
}

void
GslbRttDatabase::GrowTable()
{
    const std::size_t size = m_slots.empty() ? kInitialSlots : 2 * m_slots.size();
    m_slots.assign(size, kNone);
    const uint32_t mask = static_cast<uint32_t>(size - 1);
    for (uint32_t e = 0; e < m_family.size(); ++e)
    {
        uint32_t s = HomeSlot(AddressOf(e));
        while (m_slots[s] != kNone)
        {
            s = (s + 1) & mask;
        }
        m_slots[s] = e;
    }
}

uint32_t
GslbRttDatabase::FindOrCreate(const AdcIpAddress& a)
{
    uint32_t slot = 0;
    uint32_t e = Find(a, &slot);
    if (e != kNone && !IsExpired(e))
    {
        return e;
    }
    if (e != kNone)
    {
        Remove(slot); // expired: the LDNS starts afresh
    }
    const std::size_t n = m_family.size();
    if ((n + 1) * 4 > m_slots.size() * kMaxLoadQuarters)
    {
        GrowTable();
    }
    if (n == m_family.capacity())
    {
        // Grow the entry arrays together by half (not doubling: fewer idle bytes per entry).
        const std::size_t cap = std::max<std::size_t>(kInitialSlots, n + n / 2);
        m_address.reserve(cap);
        m_family.reserve(cap);
        m_lastActivity.reserve(cap);
        m_rtt.reserve(cap * m_siteNames.size());
    }
    e = static_cast<uint32_t>(n);
    std::array<uint8_t, 16> bytes{};
    std::memcpy(bytes.data(), a.GetBytes().data(), a.GetLength());
    m_address.push_back(bytes);
    m_family.push_back(static_cast<uint8_t>(a.GetFamily()));
    m_lastActivity.push_back(NowUnits());
    m_rtt.insert(m_rtt.end(), m_siteNames.size(), kUnknown);
    const uint32_t mask = static_cast<uint32_t>(m_slots.size() - 1);
    uint32_t s = HomeSlot(a);
    while (m_slots[s] != kNone)
    {
        s = (s + 1) & mask;
    }
    m_slots[s] = e;
    return e;
}

void
GslbRttDatabase::Remove(uint32_t slot)
{
    const uint32_t e = m_slots[slot];
    const AdcIpAddress gone = AddressOf(e);
    // Backward-shift deletion: pull later entries of the probe run into the hole unless their
    // home slot lies cyclically in (hole, their slot].
    const uint32_t mask = static_cast<uint32_t>(m_slots.size() - 1);
    uint32_t hole = slot;
    m_slots[hole] = kNone;
    for (uint32_t j = (hole + 1) & mask; m_slots[j] != kNone; j = (j + 1) & mask)
    {
        const uint32_t k = HomeSlot(AddressOf(m_slots[j]));
        const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
        if (!stays)
        {
            m_slots[hole] = m_slots[j];
            m_slots[j] = kNone;
            hole = j;
        }
    }
    // Move the last entry into e's place and repoint its slot.
    const uint32_t last = static_cast<uint32_t>(m_family.size() - 1);
    const std::size_t n = m_siteNames.size();
    if (e != last)
    {
        uint32_t s = HomeSlot(AddressOf(last));
        while (m_slots[s] != last)
        {
            s = (s + 1) & mask;
        }
        m_slots[s] = e;
        m_address[e] = m_address[last];
        m_family[e] = m_family[last];
        m_lastActivity[e] = m_lastActivity[last];
        std::copy(m_rtt.begin() + last * n, m_rtt.begin() + (last + 1) * n, m_rtt.begin() + e * n);
    }
    m_address.pop_back();
    m_family.pop_back();
    m_lastActivity.pop_back();
    m_rtt.resize(m_rtt.size() - n);
    NS_LOG_INFO("LDNS " << gone << " expired");
    m_expireTrace(gone);
}

void
GslbRttDatabase::Sweep()
{
    m_lastSweep = Simulator::Now();
    std::vector<AdcIpAddress> expired;
    for (uint32_t e = 0; e < m_family.size(); ++e)
    {
        if (IsExpired(e))
        {
            expired.push_back(AddressOf(e));
        }
    }
    for (const AdcIpAddress& a : expired)
    {
        uint32_t slot = 0;
        if (Find(a, &slot) != kNone)
        {
            Remove(slot);
        }
    }
}

void
GslbRttDatabase::MaybeSweep()
{
    if (Simulator::Now() - m_lastSweep >= m_entryTimeout)
    {
        Sweep();
    }
}

// ---- updates and queries --------------------------------------------------------------------

bool
GslbRttDatabase::UpdateLocal(const AdcIpAddress& ldns, Time rtt)
{
    CheckSites("UpdateLocal");
    const uint16_t ms = ToMs(rtt, "UpdateLocal");
    if (ldns.IsNone())
    {
        throw AdcConfigError("GslbRttDatabase: UpdateLocal: ldns is not set; an IPv4 or IPv6 "
                             "address is required");
    }
    MaybeSweep();
    uint32_t slot = 0;
    uint32_t e = Find(ldns, &slot);
    if (e != kNone && IsExpired(e))
    {
        Remove(slot);
        e = kNone;
    }
    const uint16_t old = e == kNone ? kUnknown : m_rtt[e * m_siteNames.size() + m_localSite];
    const int32_t diff = static_cast<int32_t>(ms) - static_cast<int32_t>(old);
    const bool stored = old == kUnknown || MilliSeconds(diff < 0 ? -diff : diff) > m_tolerance;
    if (stored)
    {
        e = FindOrCreate(ldns);
        m_rtt[e * m_siteNames.size() + m_localSite] = ms;
        m_lastActivity[e] = NowUnits();
        m_lastAnyActivity = Simulator::Now();
    }
    NS_LOG_INFO("local RTT to " << ldns << ": " << ms << " ms"
                                << (stored ? " stored" : " within tolerance"));
    m_updateTrace(ldns, m_localSite, old == kUnknown ? -1 : old, ms, "local", stored);
    return stored;
}

void
GslbRttDatabase::UpdateRemote(uint32_t site, const AdcIpAddress& ldns, Time rtt)
{
    CheckSite(site, "UpdateRemote");
    if (site == m_localSite)
    {
        throw AdcConfigError("GslbRttDatabase: UpdateRemote: site '" + std::to_string(site) +
                             "' is the local site; remote values come from the other sites");
    }
    const uint16_t ms = ToMs(rtt, "UpdateRemote");
    if (ldns.IsNone())
    {
        throw AdcConfigError("GslbRttDatabase: UpdateRemote: ldns is not set; an IPv4 or IPv6 "
                             "address is required");
    }
    MaybeSweep();
    const uint32_t e = FindOrCreate(ldns);
    uint16_t& value = m_rtt[e * m_siteNames.size() + site];
    const uint16_t old = value;
    value = ms;
    m_lastActivity[e] = NowUnits();
    m_lastAnyActivity = Simulator::Now();
    m_updateTrace(ldns, site, old == kUnknown ? -1 : old, ms, "mep", true);
}

void
GslbRttDatabase::Touch(const AdcIpAddress& ldns)
{
    CheckSites("Touch");
    if (ldns.IsNone())
    {
        return; // a query without a known source: nothing to keep alive
    }
    MaybeSweep();
    const uint32_t e = FindOrCreate(ldns);
    m_lastActivity[e] = NowUnits();
    m_lastAnyActivity = Simulator::Now();
}

std::optional<Time>
GslbRttDatabase::GetRtt(const AdcIpAddress& ldns, uint32_t site) const
{
    CheckSite(site, "GetRtt");
    const uint32_t e = Find(ldns);
    if (e == kNone || IsExpired(e))
    {
        return std::nullopt;
    }
    const uint16_t v = m_rtt[e * m_siteNames.size() + site];
    if (v == kUnknown)
    {
        return std::nullopt;
    }
    return MilliSeconds(v);
}

int32_t
GslbRttDatabase::GetBestSite(const AdcIpAddress& ldns, const std::vector<bool>& candidate) const
{
    CheckSites("GetBestSite");
    if (candidate.size() != m_siteNames.size())
    {
        throw AdcConfigError("GslbRttDatabase: GetBestSite: candidate flags '" +
                             std::to_string(candidate.size()) +
                             "' do not match the sites; one flag per site (" +
                             std::to_string(m_siteNames.size()) + ") is required");
    }
    const uint32_t e = Find(ldns);
    if (e == kNone || IsExpired(e))
    {
        return -1;
    }
    int32_t best = -1;
    uint16_t bestRtt = kUnknown;
    const uint16_t* rtts = &m_rtt[e * m_siteNames.size()];
    for (uint32_t s = 0; s < m_siteNames.size(); ++s)
    {
        if (candidate[s] && rtts[s] != kUnknown && rtts[s] < bestRtt)
        {
            best = static_cast<int32_t>(s);
            bestRtt = rtts[s];
        }
    }
    return best;
}

uint32_t
GslbRttDatabase::CountKnown(const AdcIpAddress& ldns, const std::vector<bool>& candidate) const
{
    CheckSites("CountKnown");
    if (candidate.size() != m_siteNames.size())
    {
        throw AdcConfigError("GslbRttDatabase: CountKnown: candidate flags '" +
                             std::to_string(candidate.size()) +
                             "' do not match the sites; one flag per site (" +
                             std::to_string(m_siteNames.size()) + ") is required");
    }
    const uint32_t e = Find(ldns);
    if (e == kNone || IsExpired(e))
    {
        return 0;
    }
    uint32_t n = 0;
    const uint16_t* rtts = &m_rtt[e * m_siteNames.size()];
    for (uint32_t s = 0; s < m_siteNames.size(); ++s)
    {
        n += candidate[s] && rtts[s] != kUnknown ? 1 : 0;
    }
    return n;
}

std::vector<uint32_t>
GslbRttDatabase::GetSitesWithin(const AdcIpAddress& ldns,
                                const std::vector<bool>& candidate,
                                Time window) const
{
    if (window.IsStrictlyNegative())
    {
        throw AdcConfigError("GslbRttDatabase: GetSitesWithin: window '" + MsText(window) +
                             "' is negative; allowed 0 or more");
    }
    const int32_t best = GetBestSite(ldns, candidate); // checks the arguments
    std::vector<uint32_t> out;
    if (best < 0)
    {
        return out;
    }
    // Values are whole milliseconds: a window of w ms admits lowest + floor(w) ms.
    const uint16_t* rtts = &m_rtt[Find(ldns) * m_siteNames.size()];
    const int64_t limit = int64_t{rtts[best]} + window.GetNanoSeconds() / 1000000;
    for (uint32_t s = 0; s < m_siteNames.size(); ++s)
    {
        if (candidate[s] && rtts[s] != kUnknown && int64_t{rtts[s]} <= limit)
        {
            out.push_back(s);
        }
    }
    return out;
}

uint64_t
GslbRttDatabase::GetNEntries() const
{
    return m_family.size();
}

std::vector<AdcIpAddress>
GslbRttDatabase::GetLdnsAddresses() const
{
    std::vector<AdcIpAddress> out;
    for (uint32_t s : m_slots)
    {
        if (s != kNone && !IsExpired(s))
        {
            out.push_back(AddressOf(s));
        }
    }
    return out;
}

double
GslbRttDatabase::GetBytesPerEntry() const
{
    if (m_family.empty())
    {
        return 0;
    }
    const std::size_t bytes = m_slots.capacity() * sizeof(uint32_t) +
                              m_address.capacity() * sizeof(std::array<uint8_t, 16>) +
                              m_family.capacity() * sizeof(uint8_t) +
                              m_lastActivity.capacity() * sizeof(uint32_t) +
                              m_rtt.capacity() * sizeof(uint16_t);
    return static_cast<double>(bytes) / static_cast<double>(m_family.size());
}

} // namespace ns3
