/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the ILB's compact IPv4 NAT / connection table.
 */

#include "ilb-nat-table.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IlbNatTable");
NS_OBJECT_ENSURE_REGISTERED(IlbNatTable);

static_assert(sizeof(IlbNatTable::Record) == 40, "the record's layout is documented as 40 bytes");

namespace
{
constexpr uint32_t kInitialSlots = 16; //!< slots of each index when first used
// Maximum index load: slots * kLoadNum / kLoadDen entries (80 %).
constexpr uint64_t kLoadNum = 4;
constexpr uint64_t kLoadDen = 5;

/// \return the 5-tuple of a record's packed addresses and ports
AdcFlowKey
FlowKeyOf(uint32_t src, uint32_t dst, uint16_t srcPort, uint16_t dstPort, uint8_t protocol)
{
    return AdcFlowKey(Ipv4Address(src), Ipv4Address(dst), srcPort, dstPort, protocol);
}
} // namespace

TypeId
IlbNatTable::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IlbNatTable")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<IlbNatTable>()
            .AddAttribute("TcpIdleTimeout",
                          "Idle timeout of TCP entries (ms granularity).",
                          TimeValue(Seconds(120)),
                          MakeTimeAccessor(&IlbNatTable::m_tcpTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("UdpIdleTimeout",
                          "Idle timeout of UDP entries (ms granularity).",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&IlbNatTable::m_udpTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("OtherIdleTimeout",
                          "Idle timeout of entries of other protocols (ms granularity).",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&IlbNatTable::m_otherTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxEntries",
                          "Maximum number of entries; 0 = unlimited.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IlbNatTable::m_maxEntries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HashSeed",
                          "Seed of the indexes' hash (AdcHash).",
                          UintegerValue(0x9e3779b97f4a7c15ULL),
                          MakeUintegerAccessor(&IlbNatTable::m_seed),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

IlbNatTable::IlbNatTable()
    : m_tcpTimeout(Seconds(120)),
      m_udpTimeout(Seconds(60)),
      m_otherTimeout(Seconds(60)),
      m_maxEntries(0),
      m_seed(0x9e3779b97f4a7c15ULL)
{
    NS_LOG_FUNCTION(this);
}

IlbNatTable::~IlbNatTable() = default;

void
IlbNatTable::DoDispose()
{
    m_removeCallback = RemoveCallback();
    Object::DoDispose();
}

bool
IlbNatTable::Pack(const AdcFlowKey& k, Key& out)
{
    if (!k.src.IsV4() || !k.dst.IsV4())
    {
        return false;
    }
    out = Key{k.src.GetIpv4().Get(), k.dst.GetIpv4().Get(), k.srcPort, k.dstPort, k.protocol};
    return true;
}

bool
IlbNatTable::Intern(std::map<uint64_t, uint16_t>& ids, uint64_t key, uint16_t& id)
{
    auto it = ids.find(key);
    if (it != ids.end())
    {
        id = it->second;
        return true;
    }
    if (ids.size() >= SAME_AS_CLIENT) // ids 0 .. 0xfffe
    {
        return false;
    }
    id = static_cast<uint16_t>(ids.size());
    ids.emplace(key, id);
    return true;
}

uint32_t
IlbNatTable::NatAddressOf(const Record& r) const
{
    return r.natAddress == SAME_AS_CLIENT ? r.client : m_natAddresses[r.natAddress];
}

IlbNatTable::Key
IlbNatTable::OriginalOf(const Record& r) const
{
    const Vip& v = m_vips[r.vip];
    return Key{r.client, v.address, r.clientPort, r.vipPort, v.protocol};
}

IlbNatTable::Key
IlbNatTable::ReplyOf(const Record& r) const
{
    return Key{m_servers[r.server].address,
               NatAddressOf(r),
               r.serverPort,
               r.natPort,
               m_vips[r.vip].protocol};
}

bool
IlbNatTable::Same(const Key& a, const Key& b)
{
    return a.src == b.src && a.dst == b.dst && a.sport == b.sport && a.dport == b.dport &&
           a.protocol == b.protocol;
}

uint64_t
IlbNatTable::HashOf(const Key& k) const
{
    const uint64_t addrs = (static_cast<uint64_t>(k.src) << 32) | k.dst;
    const uint64_t rest =
        (static_cast<uint64_t>(k.sport) << 24) | (static_cast<uint64_t>(k.dport) << 8) | k.protocol;
    return AdcHash::Mix(AdcHash::Mix(addrs ^ m_seed) ^ rest);
}

uint64_t
IlbNatTable::TimeoutTicks(LruClass c) const
{
    const Time t = c == AdcTimeoutClass::TCP   ? m_tcpTimeout
                   : c == AdcTimeoutClass::UDP ? m_udpTimeout
                                               : m_otherTimeout;
    const int64_t ns = t.GetNanoSeconds();
    return static_cast<uint64_t>((ns + 999999) / 1000000); // rounded up
}

uint32_t
IlbNatTable::ToTick(Time t)
{
    return static_cast<uint32_t>(static_cast<uint64_t>(t.GetNanoSeconds() / 1000000));
}

Time
IlbNatTable::GetIdle(uint32_t index, Time now) const
{
    return MilliSeconds(static_cast<uint32_t>(ToTick(now) - Get(index).lastSeen));
}

Time
IlbNatTable::GetIdleTimeout(uint8_t protocol) const
{
    const LruClass c = AdcTimeoutClass::Of(protocol);
    return c == AdcTimeoutClass::TCP   ? m_tcpTimeout
           : c == AdcTimeoutClass::UDP ? m_udpTimeout
                                       : m_otherTimeout;
}

uint32_t
IlbNatTable::FindSlot(const std::vector<uint32_t>& index, const Key& k, bool reply) const
{
    if (index.empty())
    {
        return NONE;
    }
    const auto mask = static_cast<uint32_t>(index.size() - 1);
    for (auto s = static_cast<uint32_t>(HashOf(k)) & mask;; s = (s + 1) & mask)
    {
        const uint32_t rec = index[s];
        if (rec == NONE)
        {
            return NONE;
        }
        const Record& r = m_records[rec];
        if (Same(reply ? ReplyOf(r) : OriginalOf(r), k))
        {
            return s;
        }
    }
}

void
IlbNatTable::IndexInsert(std::vector<uint32_t>& index, const Key& k, uint32_t rec)
{
    const auto mask = static_cast<uint32_t>(index.size() - 1);
    auto s = static_cast<uint32_t>(HashOf(k)) & mask;
    while (index[s] != NONE)
    {
        s = (s + 1) & mask;
    }
    index[s] = rec;
}

void
IlbNatTable::IndexErase(std::vector<uint32_t>& index, uint32_t slot, bool reply)
{
    // Backward-shift deletion: move later members of the probe run into the hole when their
    // home slot does not lie (cyclically) after the hole, so lookups never need tombstones.
    const auto mask = static_cast<uint32_t>(index.size() - 1);
    uint32_t hole = slot;
    for (uint32_t s = (hole + 1) & mask; index[s] != NONE; s = (s + 1) & mask)
    {
        const Record& r = m_records[index[s]];
        const auto home = static_cast<uint32_t>(HashOf(reply ? ReplyOf(r) : OriginalOf(r))) & mask;
        if (((s - home) & mask) >= ((s - hole) & mask))
        {
            index[hole] = index[s];
            hole = s;
        }
    }
    index[hole] = NONE;
}

void
IlbNatTable::Grow()
{
    const std::size_t slots = m_byOriginal.empty() ? kInitialSlots : m_byOriginal.size() * 2;
    std::vector<uint32_t>(slots, NONE).swap(m_byOriginal);
    std::vector<uint32_t>(slots, NONE).swap(m_byReply);
    // Rehash in slab order: deterministic.
    for (uint32_t i = 0; i < m_records.size(); ++i)
    {
        const Record& r = m_records[i];
        if (r.flags & IN_USE)
        {
            IndexInsert(m_byOriginal, OriginalOf(r), i);
            IndexInsert(m_byReply, ReplyOf(r), i);
        }
    }
}

uint32_t
IlbNatTable::AllocRecord()
{
    if (m_freeHead != NONE)
    {
        const uint32_t i = m_freeHead;
        m_freeHead = m_records[i].next;
        return i;
    }
    if (m_records.size() == m_records.capacity())
    {
        // Grow by a sixteenth (not double) so unused capacity stays small.
        const std::size_t cap = m_records.capacity();
        m_records.reserve(std::max<std::size_t>(16, cap + cap / 16));
    }
    m_records.emplace_back();
    return static_cast<uint32_t>(m_records.size() - 1);
}

void
IlbNatTable::LinkBack(uint32_t i)
{
    Record& r = m_records[i];
    List& l = m_lru[AdcTimeoutClass::Of(m_vips[r.vip].protocol)];
    r.prev = l.tail;
    r.next = NONE;
    (l.tail == NONE ? l.head : m_records[l.tail].next) = i;
    l.tail = i;
}

void
IlbNatTable::Unlink(uint32_t i)
{
    Record& r = m_records[i];
    List& l = m_lru[AdcTimeoutClass::Of(m_vips[r.vip].protocol)];
    (r.prev == NONE ? l.head : m_records[r.prev].next) = r.next;
    (r.next == NONE ? l.tail : m_records[r.next].prev) = r.prev;
    r.prev = r.next = NONE;
}

void
IlbNatTable::Touch(uint32_t i, Time now)
{
    m_records[i].lastSeen = ToTick(now);
    if (m_lru[AdcTimeoutClass::Of(m_vips[m_records[i].vip].protocol)].tail != i)
    {
        Unlink(i);
        LinkBack(i);
    }
}

void
IlbNatTable::Erase(uint32_t i, bool expired)
{
    NS_ASSERT(IsLive(i));
    if (!m_removeCallback.IsNull())
    {
        m_removeCallback(i, expired);
    }
    Record& r = m_records[i];
    IndexErase(m_byOriginal, FindSlot(m_byOriginal, OriginalOf(r), false), false);
    IndexErase(m_byReply, FindSlot(m_byReply, ReplyOf(r), true), true);
    Unlink(i);
    --m_serverCount[m_servers[r.server].server];
    --m_size;
    ++(expired ? m_expired : m_removed);
    r = Record();
    r.next = m_freeHead;
    m_freeHead = i;
}

void
IlbNatTable::Purge(Time now)
{
    const uint32_t tick = ToTick(now);
    for (uint8_t c = 0; c < AdcTimeoutClass::COUNT; ++c)
    {
        const uint64_t timeout = TimeoutTicks(static_cast<LruClass>(c));
        while (m_lru[c].head != NONE &&
               static_cast<uint32_t>(tick - m_records[m_lru[c].head].lastSeen) > timeout)
        {
            Erase(m_lru[c].head, true);
        }
    }
}

uint32_t
IlbNatTable::Insert(const AdcFlowKey& original,
                    const AdcFlowKey& translated,
                    uint32_t server,
                    Time now,
                    InsertError* error)
{
    InsertError dummy;
    InsertError& err = error ? *error : dummy;
    err = InsertError::NONE;
    Key o;
    Key t;
    const bool v4 = Pack(original, o) && Pack(translated, t);
    NS_ABORT_MSG_UNLESS(v4, "IlbNatTable: Insert: both keys must be IPv4");
    Purge(now);
    const uint32_t existing = FindSlot(m_byOriginal, o, false);
    if (existing != NONE)
    {
        const uint32_t i = m_byOriginal[existing];
        Touch(i, now);
        return i;
    }
    if (m_maxEntries != 0 && m_size >= m_maxEntries)
    {
        ++m_overflows;
        err = InsertError::FULL;
        return NONE;
    }
    const Key reply{t.dst, t.src, t.dport, t.sport, t.protocol};
    if (FindSlot(m_byReply, reply, true) != NONE)
    {
        ++m_collisions;
        err = InsertError::COLLISION;
        return NONE;
    }
    // The endpoints: interned before anything changes, so a full list changes nothing.
    uint16_t vip = 0;
    uint16_t serverId = 0;
    uint16_t natAddress = SAME_AS_CLIENT;
    const std::size_t vips = m_vipIds.size();
    const std::size_t servers = m_serverIds.size();
    if (!Intern(m_vipIds, static_cast<uint64_t>(o.dst) << 8 | o.protocol, vip) ||
        !Intern(m_serverIds, static_cast<uint64_t>(t.dst) << 32 | server, serverId) ||
        (t.src != o.src && !Intern(m_natAddressIds, t.src, natAddress)))
    {
        // Undo what this insert added (ids are the lists' sizes, so the last one is new).
        if (m_vipIds.size() > vips)
        {
            m_vipIds.erase(static_cast<uint64_t>(o.dst) << 8 | o.protocol);
        }
        if (m_serverIds.size() > servers)
        {
            m_serverIds.erase(static_cast<uint64_t>(t.dst) << 32 | server);
        }
        ++m_overflows;
        err = InsertError::ENDPOINTS;
        return NONE;
    }
    if (vip == m_vips.size())
    {
        m_vips.push_back(Vip{o.dst, o.protocol});
    }
    if (serverId == m_servers.size())
    {
        m_servers.push_back(Server{t.dst, server});
    }
    if (natAddress != SAME_AS_CLIENT && natAddress == m_natAddresses.size())
    {
        m_natAddresses.push_back(t.src);
    }
    if ((static_cast<uint64_t>(m_size) + 1) * kLoadDen > m_byOriginal.size() * kLoadNum)
    {
        Grow();
    }
    const uint32_t i = AllocRecord();
    Record& r = m_records[i];
    r = Record();
    r.client = o.src;
    r.clientPort = o.sport;
    r.vipPort = o.dport;
    r.natPort = t.sport;
    r.serverPort = t.dport;
    r.vip = vip;
    r.server = serverId;
    r.natAddress = natAddress;
    r.lastSeen = ToTick(now);
    r.flags = IN_USE;
    IndexInsert(m_byOriginal, o, i);
    IndexInsert(m_byReply, reply, i);
    LinkBack(i);
    if (server >= m_serverCount.size())
    {
        m_serverCount.resize(server + 1, 0);
    }
    ++m_serverCount[server];
    ++m_size;
    ++m_created;
    return i;
}

uint32_t
IlbNatTable::Lookup(bool reply, const AdcFlowKey& k, Time now, Time* idle)
{
    Key key;
    if (!Pack(k, key))
    {
        return NONE;
    }
    Purge(now);
    const std::vector<uint32_t>& index = reply ? m_byReply : m_byOriginal;
    const uint32_t s = FindSlot(index, key, reply);
    if (s == NONE)
    {
        return NONE;
    }
    const uint32_t i = index[s];
    if (idle)
    {
        *idle = GetIdle(i, now);
    }
    Touch(i, now);
    return i;
}

uint32_t
IlbNatTable::LookupOriginal(const AdcFlowKey& k, Time now, Time* idle)
{
    return Lookup(false, k, now, idle);
}

uint32_t
IlbNatTable::LookupReply(const AdcFlowKey& k, Time now, Time* idle)
{
    return Lookup(true, k, now, idle);
}

uint32_t
IlbNatTable::Find(const AdcFlowKey& k) const
{
    Key key;
    if (!Pack(k, key))
    {
        return NONE;
    }
    const uint32_t s = FindSlot(m_byOriginal, key, false);
    return s == NONE ? NONE : m_byOriginal[s];
}

void
IlbNatTable::Remove(uint32_t index)
{
    Erase(index, false);
}

bool
IlbNatTable::Remove(const AdcFlowKey& original)
{
    const uint32_t i = Find(original);
    if (i == NONE)
    {
        return false;
    }
    Erase(i, false);
    return true;
}

uint32_t
IlbNatTable::RemoveServer(uint32_t server)
{
    uint32_t n = 0;
    for (uint8_t c = 0; c < AdcTimeoutClass::COUNT; ++c)
    {
        uint32_t i = m_lru[c].head;
        while (i != NONE)
        {
            const uint32_t next = m_records[i].next;
            if (m_servers[m_records[i].server].server == server)
            {
                Erase(i, false);
                ++n;
            }
            i = next;
        }
    }
    return n;
}

bool
IlbNatTable::IsLive(uint32_t index) const
{
    return index < m_records.size() && (m_records[index].flags & IN_USE);
}

const IlbNatTable::Record&
IlbNatTable::Get(uint32_t index) const
{
    NS_ASSERT(IsLive(index));
    return m_records[index];
}

IlbNatTable::Record&
IlbNatTable::GetMutable(uint32_t index)
{
    NS_ASSERT(IsLive(index));
    return m_records[index];
}

AdcFlowKey
IlbNatTable::GetOriginal(uint32_t index) const
{
    const Key k = OriginalOf(Get(index));
    return FlowKeyOf(k.src, k.dst, k.sport, k.dport, k.protocol);
}

AdcFlowKey
IlbNatTable::GetTranslated(uint32_t index) const
{
    const Key k = ReplyOf(Get(index)); // reversed
    return FlowKeyOf(k.dst, k.src, k.dport, k.sport, k.protocol);
}

uint32_t
IlbNatTable::GetServer(uint32_t index) const
{
    return m_servers[Get(index).server].server;
}

uint8_t
IlbNatTable::GetProtocol(uint32_t index) const
{
    return m_vips[Get(index).vip].protocol;
}

uint32_t
IlbNatTable::GetSize() const
{
    return m_size;
}

uint32_t
IlbNatTable::CountServer(uint32_t server) const
{
    return server < m_serverCount.size() ? m_serverCount[server] : 0;
}

uint32_t
IlbNatTable::GetRecordCapacity() const
{
    return static_cast<uint32_t>(m_records.capacity());
}

uint32_t
IlbNatTable::GetIndexSlots() const
{
    return static_cast<uint32_t>(m_byOriginal.size());
}

std::size_t
IlbNatTable::GetAllocatedBytes() const
{
    // A std::map node: its value and about 32 bytes of links and colour.
    constexpr std::size_t kNode = sizeof(std::pair<const uint64_t, uint16_t>) + 32;
    return m_records.capacity() * sizeof(Record) +
           (m_byOriginal.capacity() + m_byReply.capacity() + m_serverCount.capacity() +
            m_natAddresses.capacity()) *
               sizeof(uint32_t) +
           m_vips.capacity() * sizeof(Vip) + m_servers.capacity() * sizeof(Server) +
           (m_vipIds.size() + m_serverIds.size() + m_natAddressIds.size()) * kNode;
}

std::size_t
IlbNatTable::GetBytesPerEntry() const
{
    const std::size_t total = GetAllocatedBytes();
    return m_size == 0 ? total : (total + m_size - 1) / m_size;
}

void
IlbNatTable::SetRemoveCallback(RemoveCallback cb)
{
    m_removeCallback = cb;
}

uint64_t
IlbNatTable::GetCreatedCount() const
{
    return m_created;
}

uint64_t
IlbNatTable::GetExpiredCount() const
{
    return m_expired;
}

uint64_t
IlbNatTable::GetRemovedCount() const
{
    return m_removed;
}

uint64_t
IlbNatTable::GetOverflowCount() const
{
    return m_overflows;
}

uint64_t
IlbNatTable::GetCollisionCount() const
{
    return m_collisions;
}

} // namespace ns3
