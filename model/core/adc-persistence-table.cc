/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-persistence-table.h"

#include "adc-config-error.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcPersistenceTable");

NS_OBJECT_ENSURE_REGISTERED(AdcPersistenceTable);

namespace
{

/// Type names, indexed by the enum value.
const std::array<const char*, 4> kTypeNames = {"NONE", "SOURCEIP", "COOKIEINSERT", "SSLSESSION"};

/// Known service types, in the order messages list them.
const std::vector<std::string> kServiceTypes =
    {"HTTP", "HTTPS", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP", "RTSP", "SIP_UDP", "ANY"};

/// \param t a type \return the service types it is allowed on (NetScaler's support matrix)
const std::vector<std::string>&
AllowedServiceTypes(AdcPersistenceType t)
{
    static const std::vector<std::string> sourceIp =
        {"HTTP", "HTTPS", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP"};
    static const std::vector<std::string> cookieInsert = {"HTTP", "HTTPS"};
    static const std::vector<std::string> sslSession = {"HTTPS", "SSL_BRIDGE", "SSL_TCP"};
    switch (t)
    {
    case AdcPersistenceType::SOURCEIP:
        return sourceIp;
    case AdcPersistenceType::COOKIEINSERT:
        return cookieInsert;
    case AdcPersistenceType::SSLSESSION:
        return sslSession;
    case AdcPersistenceType::NONE:
    default:
        return kServiceTypes;
    }
}

/// \param s text \return s in upper case
std::string
Upper(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::toupper(c));
    });
    return s;
}

/// \param items names \return "A, B, C"
std::string
Join(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& s : items)
    {
        out += (out.empty() ? "" : ", ") + s;
    }
    return out;
}

/// \param bytes binary bytes \return lower-case hex
std::string
Hex(const std::string& bytes)
{
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes)
    {
        out += digits[c >> 4];
        out += digits[c & 0xf];
    }
    return out;
}

/// \param bytes SOURCEIP key bytes \return "addr/prefix", or hex when the bytes are malformed
std::string
SourceIpText(const std::string& bytes)
{
    const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
    if (bytes.size() == 2 + 4 && b[0] == AdcIpAddress::V4)
    {
        const uint32_t v = (uint32_t{b[2]} << 24) | (uint32_t{b[3]} << 16) | (uint32_t{b[4]} << 8) |
                           uint32_t{b[5]};
        return AdcIpAddress(Ipv4Address(v)).ToString() + "/" + std::to_string(b[1]);
    }
    if (bytes.size() == 2 + 16 && b[0] == AdcIpAddress::V6)
    {
        uint8_t a[16];
        std::copy(b + 2, b + 18, a);
        return AdcIpAddress(Ipv6Address(a)).ToString() + "/" + std::to_string(b[1]);
    }
    return Hex(bytes);
}

/// \return a key of \p type holding \p bytes as they are (cookie values, SSL session ids)
AdcPersistenceKey
MakeKey(AdcPersistenceType type, const std::string& bytes)
{
    AdcPersistenceKey k;
    k.type = type;
    k.bytes = bytes;
    return k;
}

} // namespace

std::string
AdcPersistenceTypeToString(AdcPersistenceType t)
{
    const auto i = static_cast<std::size_t>(t);
    return i < kTypeNames.size() ? kTypeNames[i] : "UNKNOWN(" + std::to_string(i) + ")";
}

AdcPersistenceType
AdcPersistenceTypeFromString(const std::string& name)
{
    const std::string u = Upper(name);
    for (std::size_t i = 0; i < kTypeNames.size(); ++i)
    {
        if (u == kTypeNames[i])
        {
            return static_cast<AdcPersistenceType>(i);
        }
    }
    throw AdcConfigError("AdcPersistenceType: type '" + name +
                         "' is not one of NONE, SOURCEIP, COOKIEINSERT, SSLSESSION");
}

std::ostream&
operator<<(std::ostream& os, AdcPersistenceType t)
{
    return os << AdcPersistenceTypeToString(t);
}

// ---------------------------------------------------------------------------------------------
// AdcPersistenceKey

AdcPersistenceKey
AdcPersistenceKey::FromSourceIp(const AdcIpAddress& addr, uint8_t prefixLength)
{
    const std::size_t len = addr.GetLength();
    const auto prefix = static_cast<uint8_t>(std::min<std::size_t>(prefixLength, len * 8));
    const AdcIpAddress masked = addr.Masked(prefix);
    AdcPersistenceKey k;
    k.type = AdcPersistenceType::SOURCEIP;
    // Family and prefix are part of the key: 10.0.0.0/24 and 10.0.0.0/32 are different keys.
    k.bytes.reserve(2 + len);
    k.bytes += static_cast<char>(addr.GetFamily());
    k.bytes += static_cast<char>(prefix);
    k.bytes.append(reinterpret_cast<const char*>(masked.GetBytes().data()), len);
    return k;
}

AdcPersistenceKey
AdcPersistenceKey::FromCookie(const std::string& value)
{
    return MakeKey(AdcPersistenceType::COOKIEINSERT, value);
}

AdcPersistenceKey
AdcPersistenceKey::FromSslSessionId(const std::vector<uint8_t>& id)
{
    return FromSslSessionId(std::string(id.begin(), id.end()));
}

AdcPersistenceKey
AdcPersistenceKey::FromSslSessionId(const std::string& id)
{
    return MakeKey(AdcPersistenceType::SSLSESSION, id);
}

std::string
AdcPersistenceKey::ToString() const
{
    std::string value;
    switch (type)
    {
    case AdcPersistenceType::SOURCEIP:
        value = SourceIpText(bytes);
        break;
    case AdcPersistenceType::COOKIEINSERT:
        value = bytes;
        break;
    default:
        value = Hex(bytes);
        break;
    }
    return AdcPersistenceTypeToString(type) + " " + value;
}

bool
operator==(const AdcPersistenceKey& a, const AdcPersistenceKey& b)
{
    return a.type == b.type && a.bytes == b.bytes;
}

bool
operator!=(const AdcPersistenceKey& a, const AdcPersistenceKey& b)
{
    return !(a == b);
}

std::ostream&
operator<<(std::ostream& os, const AdcPersistenceKey& k)
{
    return os << k.ToString();
}

std::size_t
AdcPersistenceKeyHasher::operator()(const AdcPersistenceKey& k) const
{
    return static_cast<std::size_t>(
        AdcHash::String(k.bytes, AdcHash::Mix(seed + static_cast<uint64_t>(k.type))));
}

// ---------------------------------------------------------------------------------------------
// AdcPersistenceTable

TypeId
AdcPersistenceTable::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcPersistenceTable")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcPersistenceTable>()
            .AddAttribute("Timeout",
                          "Default idle time after which an entry expires (NetScaler's default "
                          "persistence timeout is 2 minutes). A hit restarts it.",
                          TimeValue(Minutes(2)),
                          MakeTimeAccessor(&AdcPersistenceTable::m_timeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxEntries",
                          "Maximum number of entries; 0 = unlimited (memory only, as NetScaler's "
                          "COOKIEINSERT). 250000 is NetScaler's limit for SOURCEIP and SSLSESSION.",
                          UintegerValue(250000),
                          MakeUintegerAccessor(&AdcPersistenceTable::m_maxEntries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("OverflowPolicy",
                          "What an insert does on a full table: REJECT (no new entry; the caller "
                          "falls back to its load-balancing decision) or EVICT_OLDEST (evict the "
                          "entry that expires first).",
                          EnumValue(AdcPersistenceTable::REJECT),
                          MakeEnumAccessor(&AdcPersistenceTable::m_policy),
                          MakeEnumChecker(AdcPersistenceTable::REJECT,
                                          "REJECT",
                                          AdcPersistenceTable::EVICT_OLDEST,
                                          "EVICT_OLDEST"))
            .AddTraceSource("Overflow",
                            "An insert met a full table; the policy applied is given.",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_overflowTrace),
                            "ns3::AdcPersistenceTable::OverflowTracedCallback")
            .AddTraceSource("Expired",
                            "An entry expired.",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_expiredTrace),
                            "ns3::AdcPersistenceTable::EntryTracedCallback")
            .AddTraceSource("Evicted",
                            "An entry was evicted to make room (EVICT_OLDEST).",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_evictedTrace),
                            "ns3::AdcPersistenceTable::EntryTracedCallback")
            .AddTraceSource("Hit",
                            "A lookup found an entry.",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_hitTrace),
                            "ns3::AdcPersistenceTable::EntryTracedCallback")
            .AddTraceSource("Miss",
                            "A lookup found no unexpired entry.",
                            MakeTraceSourceAccessor(&AdcPersistenceTable::m_missTrace),
                            "ns3::AdcPersistenceTable::KeyTracedCallback");
    return tid;
}

AdcPersistenceTable::AdcPersistenceTable()
    : m_timeout(Minutes(2)),
      m_maxEntries(250000),
      m_policy(REJECT)
{
    NS_LOG_FUNCTION(this);
}

AdcPersistenceTable::~AdcPersistenceTable()
{
    NS_LOG_FUNCTION(this);
}

void
AdcPersistenceTable::Schedule(Node* node, Time expiry)
{
    auto& where = node->second.where;
    if (where != m_expiry.end())
    {
        m_expiry.erase(where);
    }
    // Expiries mostly grow, so the end is the right hint; equal expiries keep insertion order.
    where = m_expiry.emplace_hint(m_expiry.end(), expiry, node);
}

void
AdcPersistenceTable::Erase(Map::iterator it)
{
    m_expiry.erase(it->second.where);
    m_map.erase(it);
}

void
AdcPersistenceTable::Purge(Time now)
{
    while (!m_expiry.empty() && m_expiry.begin()->first <= now)
    {
        Node* node = m_expiry.begin()->second;
        ++m_expirations;
        NS_LOG_LOGIC("AdcPersistenceTable: expired " << node->first);
        m_expiredTrace(node->first, node->second.target);
        Erase(m_map.find(node->first));
    }
}

std::optional<uint32_t>
AdcPersistenceTable::Lookup(const AdcPersistenceKey& key, Time now)
{
    Purge(now);
    auto it = m_map.find(key);
    if (it == m_map.end())
    {
        ++m_misses;
        m_missTrace(key);
        return std::nullopt;
    }
    Schedule(&*it, now + it->second.timeout);
    ++m_hits;
    m_hitTrace(key, it->second.target);
    return it->second.target;
}

bool
AdcPersistenceTable::Insert(const AdcPersistenceKey& key, uint32_t target, Time now, Time timeout)
{
    NS_LOG_FUNCTION(this << key << target << now << timeout);
    Purge(now);
    if (timeout.IsStrictlyNegative())
    {
        timeout = m_timeout;
    }
    auto it = m_map.find(key);
    if (it != m_map.end())
    {
        it->second.target = target;
        it->second.timeout = timeout;
        Schedule(&*it, now + timeout);
        ++m_updates;
        return true;
    }
    if (m_maxEntries != 0 && m_map.size() >= m_maxEntries)
    {
        ++m_overflows;
        m_overflowTrace(key, m_policy);
        if (m_policy == REJECT)
        {
            return false;
        }
        // MaxEntries may have been lowered below the current size: evict down to room for one.
        while (!m_expiry.empty() && m_map.size() >= m_maxEntries)
        {
            Node* victim = m_expiry.begin()->second;
            ++m_evictions;
            m_evictedTrace(victim->first, victim->second.target);
            Erase(m_map.find(victim->first));
        }
    }
    auto inserted = m_map.emplace(key, Record{target, timeout, m_expiry.end()}).first;
    Schedule(&*inserted, now + timeout);
    ++m_inserts;
    return true;
}

void
AdcPersistenceTable::Remove(const AdcPersistenceKey& key)
{
    auto it = m_map.find(key);
    if (it != m_map.end())
    {
        Erase(it);
    }
}

uint32_t
AdcPersistenceTable::RemoveTarget(uint32_t target)
{
    uint32_t removed = 0;
    // Walk the expiry index (deterministic order), never the hash map.
    for (auto e = m_expiry.begin(); e != m_expiry.end();)
    {
        Node* node = e->second;
        ++e; // advance first: Erase removes the current index entry
        if (node->second.target == target)
        {
            Erase(m_map.find(node->first));
            ++removed;
        }
    }
    return removed;
}

namespace
{

/**
 * \param request bytes asked of malloc \return the bytes 64-bit glibc malloc takes for them:
 * the request plus its 8-byte chunk header, rounded up to 16, at least 32
 */
constexpr std::size_t
MallocChunk(std::size_t request)
{
    const std::size_t chunk = (request + 8 + 15) & ~std::size_t{15};
    return chunk < 32 ? 32 : chunk;
}

} // namespace

std::size_t
AdcPersistenceTable::GetAllocatedBytes() const
{
    // libstdc++'s _Hash_node: next pointer, value, cached hash code.
    constexpr std::size_t hashNode = sizeof(void*) + sizeof(Node) + sizeof(std::size_t);
    // libstdc++'s _Rb_tree_node: colour + parent, left, right (4 pointers' worth), value.
    constexpr std::size_t treeNode = 4 * sizeof(void*) + sizeof(ExpiryIndex::value_type);
    std::size_t total = sizeof(m_map) + sizeof(m_expiry);
    if (m_map.bucket_count() > 1) // one bucket is the map's own single-bucket member
    {
        total += MallocChunk(m_map.bucket_count() * sizeof(void*));
    }
    total += m_map.size() * MallocChunk(hashNode);
    total += m_expiry.size() * MallocChunk(treeNode);
    for (const auto& kv : m_map)
    {
        const std::string& b = kv.first.bytes;
        const char* inside = reinterpret_cast<const char*>(&b);
        if (b.data() < inside || b.data() >= inside + sizeof(b)) // not in the object: heap
        {
            total += MallocChunk(b.capacity() + 1);
        }
    }
    return total;
}

std::size_t
AdcPersistenceTable::GetBytesPerEntry() const
{
    const std::size_t total = GetAllocatedBytes();
    const std::size_t n = m_map.size();
    return n == 0 ? total : (total + n - 1) / n;
}

uint32_t
AdcPersistenceTable::GetSize(Time now)
{
    Purge(now);
    return static_cast<uint32_t>(m_map.size());
}

uint64_t
AdcPersistenceTable::GetHits() const
{
    return m_hits;
}

uint64_t
AdcPersistenceTable::GetMisses() const
{
    return m_misses;
}

uint64_t
AdcPersistenceTable::GetInserts() const
{
    return m_inserts;
}

uint64_t
AdcPersistenceTable::GetUpdates() const
{
    return m_updates;
}

uint64_t
AdcPersistenceTable::GetExpirations() const
{
    return m_expirations;
}

uint64_t
AdcPersistenceTable::GetOverflows() const
{
    return m_overflows;
}

uint64_t
AdcPersistenceTable::GetEvictions() const
{
    return m_evictions;
}

void
AdcPersistenceTable::CheckSupported(AdcPersistenceType type, const std::string& serviceType)
{
    std::string service = Upper(serviceType);
    if (service == "UDP/IP")
    {
        service = "UDP";
    }
    if (std::find(kServiceTypes.begin(), kServiceTypes.end(), service) == kServiceTypes.end())
    {
        throw AdcConfigError("AdcPersistenceTable: service type '" + serviceType +
                             "' is not one of " + Join(kServiceTypes));
    }
    const auto& allowed = AllowedServiceTypes(type);
    if (std::find(allowed.begin(), allowed.end(), service) == allowed.end())
    {
        throw AdcConfigError("AdcPersistenceTable: persistence type " +
                             AdcPersistenceTypeToString(type) +
                             " is not supported on service type " + service + "; " +
                             AdcPersistenceTypeToString(type) + " is allowed on " + Join(allowed));
    }
}

} // namespace ns3
