/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ilb-connection-store.h"

#include "ns3/adc-packet-rewrite.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

namespace
{

/// ILB's default NAT timeouts: the tables never keep entries for less.
const Time kTcpNatTimeout = Seconds(120);
const Time kUdpNatTimeout = Seconds(60);

} // namespace

IlbConnectionStore::IlbConnectionStore()
{
    m_table = CreateObject<AdcConnectionTable>();
    // Whatever removes an entry (idle expiry, close, drain), the appliance hears of it.
    m_table->TraceConnectWithoutContext("EntryExpired",
                                        MakeCallback(&IlbConnectionStore::ForgetFlow, this));
    m_table->TraceConnectWithoutContext("EntryRemoved",
                                        MakeCallback(&IlbConnectionStore::ForgetFlow, this));
    m_nat = CreateObject<IlbNatTable>();
    m_nat->SetRemoveCallback(MakeCallback(&IlbConnectionStore::ForgetNat, this));
}

IlbConnectionStore::~IlbConnectionStore()
{
    Dispose();
}

void
IlbConnectionStore::SetEndedCallback(EndedCallback cb)
{
    m_ended = std::move(cb);
}

Time
IlbConnectionStore::GetDefaultNatTimeout(uint8_t protocol)
{
    return protocol == AdcFlowKey::PROTO_TCP ? kTcpNatTimeout : kUdpNatTimeout;
}

void
IlbConnectionStore::AddRule(uint8_t protocol, uint32_t nServers, Time natTimeout)
{
    m_serverIds.emplace_back();
    for (uint32_t s = 0; s < nServers; ++s)
    {
        AddServer(static_cast<uint32_t>(m_serverIds.size() - 1));
    }
    m_natTimeout.push_back(natTimeout);
    m_protocol.push_back(protocol);
    // One table for all rules: it keeps entries as long as the longest NAT timeout of their
    // protocol; the cleanup enforces each rule's.
    Time tcp = GetDefaultNatTimeout(AdcFlowKey::PROTO_TCP);
    Time udp = GetDefaultNatTimeout(AdcFlowKey::PROTO_UDP);
    for (std::size_t r = 0; r < m_natTimeout.size(); ++r)
    {
        Time& t = m_protocol[r] == AdcFlowKey::PROTO_TCP ? tcp : udp;
        t = std::max(t, m_natTimeout[r]);
    }
    // illumos removes an idle entry only at the cleanup (ilb_conn_cleanup, every 15 s): the
    // tables keep it a whole period longer, so their own expiry never comes first.
    tcp += m_cleanupInterval;
    udp += m_cleanupInterval;
    m_table->SetAttribute("TcpIdleTimeout", TimeValue(tcp));
    m_table->SetAttribute("UdpIdleTimeout", TimeValue(udp));
    m_nat->SetAttribute("TcpIdleTimeout", TimeValue(tcp));
    m_nat->SetAttribute("UdpIdleTimeout", TimeValue(udp));
}

void
IlbConnectionStore::SetCleanupInterval(Time interval)
{
    m_cleanupInterval = interval;
}

void
IlbConnectionStore::AddServer(uint32_t rule)
{
    std::vector<uint32_t>& ids = m_serverIds[rule];
    m_serverOwner.emplace_back(rule, static_cast<uint32_t>(ids.size()));
    ids.push_back(static_cast<uint32_t>(m_serverOwner.size() - 1));
}

bool
IlbConnectionStore::UsesNat(const AdcFlowKey& k) const
{
    return m_compactIpv4 && k.src.IsV4();
}

bool
IlbConnectionStore::Find(const AdcFlowKey& k, bool reply, Time now, Conn& c)
{
    if (UsesNat(k))
    {
        Time idle;
        const uint32_t i =
            reply ? m_nat->LookupReply(k, now, &idle) : m_nat->LookupOriginal(k, now, &idle);
        if (i == IlbNatTable::NONE)
        {
            return false;
        }
        IlbNatTable::Record& r = m_nat->GetMutable(i);
        std::tie(c.rule, c.server) = m_serverOwner[m_nat->GetServer(i)];
        c.nat = i;
        c.original = m_nat->GetOriginal(i);
        c.translated = m_nat->GetTranslated(i);
        c.tcp = &r.flags;
        c.finAck = r.finAck;
        return true;
    }
    AdcConnectionTable::Entry* e =
        reply ? m_table->LookupReply(k, now) : m_table->LookupOriginal(k, now);
    if (!e)
    {
        return false;
    }
    auto it = m_flows.find(e->original);
    if (it == m_flows.end())
    {
        return false;
    }
    Flow& f = it->second;
    f.lastSeen = now;
    c.nat = IlbNatTable::NONE;
    c.original = e->original;
    c.translated = e->translated;
    c.rule = f.rule;
    c.server = f.server;
    c.tcp = &f.tcp;
    c.finAck = f.finAck;
    return true;
}

std::string
IlbConnectionStore::Insert(const AdcFlowKey& original,
                           const AdcFlowKey& translated,
                           const Flow& f,
                           Time now)
{
    // MaxConnections bounds both tables together.
    const uint32_t id = m_serverIds[f.rule][f.server];
    if (m_maxConnections != 0 && GetCount() >= m_maxConnections)
    {
        m_nat->Purge(now); // idle entries do not count
        m_table->Purge(now);
        if (GetCount() >= m_maxConnections)
        {
            return "connection-table-full";
        }
    }
    if (UsesNat(original))
    {
        IlbNatTable::InsertError err = IlbNatTable::InsertError::NONE;
        if (m_nat->Insert(original, translated, id, now, &err) == IlbNatTable::NONE)
        {
            return err == IlbNatTable::InsertError::FULL        ? "connection-table-full"
                   : err == IlbNatTable::InsertError::ENDPOINTS ? "nat-table-endpoints-full"
                                                                : "reply-key-collision";
        }
        return "";
    }
    const uint64_t overflows = m_table->GetOverflowCount();
    if (!m_table->Insert(original, translated, id, now))
    {
        return m_table->GetOverflowCount() != overflows ? "connection-table-full"
                                                        : "reply-key-collision";
    }
    m_flows[original] = f;
    return "";
}

void
IlbConnectionStore::Remove(const AdcFlowKey& original)
{
    if (UsesNat(original))
    {
        m_nat->Remove(original);
    }
    else
    {
        m_table->Remove(original);
    }
}

void
IlbConnectionStore::TrackTcp(const Conn& c, Direction dir, const AdcIngress& in)
{
    uint8_t& tcp = *c.tcp;
    if (in.tcpFlags & AdcTcpFlag::RST)
    {
        tcp |= IlbNatTable::RST_SEEN; // "if (tcpha->tha_flags & TH_RST) return (B_FALSE)": conn_gc
        return;
    }
    const Direction other = dir == FROM_CLIENT ? FROM_SERVER : FROM_CLIENT;
    const auto finSent = static_cast<uint8_t>(IlbNatTable::FIN_CLIENT << dir);
    const auto finAcked = static_cast<uint8_t>(IlbNatTable::FIN_CLIENT_ACKED << dir);
    const uint8_t pastMine = dir == FROM_CLIENT ? IlbNatTable::ACK_PAST_FIN_CLIENT
                                                : IlbNatTable::ACK_PAST_FIN_SERVER;
    const uint8_t pastOther = dir == FROM_CLIENT ? IlbNatTable::ACK_PAST_FIN_SERVER
                                                 : IlbNatTable::ACK_PAST_FIN_CLIENT;
    if (in.tcpFlags & AdcTcpFlag::FIN)
    {
        // "conn_c2s_tcp_fss = seq + seg_len; conn_c2s_tcp_fin_sent = B_TRUE"
        const uint32_t fss = in.tcpSeq + in.tcpPayload;
        if (!(tcp & finSent) || c.finAck[dir] != fss)
        {
            tcp &= static_cast<uint8_t>(~pastMine); // the other side's last ACK is for another FIN
        }
        c.finAck[dir] = fss;
        tcp |= finSent;
    }
    if (in.tcpFlags & AdcTcpFlag::ACK)
    {
        // "conn_c2s_tcp_ack = ack": the cleanup tests SEQ_GT(this ack, the other side's fss).
        const bool past = (tcp & (IlbNatTable::FIN_CLIENT << other)) &&
                          static_cast<int32_t>(in.tcpAck - c.finAck[other]) > 0;
        tcp = past ? static_cast<uint8_t>(tcp | pastOther)
                   : static_cast<uint8_t>(tcp & ~pastOther);
    }
    // "Port reuse by the client, restart the conn."
    if ((tcp & finSent) && static_cast<int32_t>(in.tcpSeq - (c.finAck[dir] + 1)) > 0)
    {
        tcp &= static_cast<uint8_t>(~(finSent | finAcked | pastMine));
    }
}

bool
IlbConnectionStore::CleanupTcp(uint8_t& flags)
{
    // ilb_conn_cleanup: "if (conn_c2s_tcp_fin_sent && SEQ_GT(conn_s2c_tcp_ack,
    // conn_c2s_tcp_fss)) conn_c2s_tcp_fin_acked = B_TRUE", the same the other way, and both
    // acked: ilb_conn_remove.
    if ((flags & IlbNatTable::FIN_CLIENT) && (flags & IlbNatTable::ACK_PAST_FIN_CLIENT))
    {
        flags |= IlbNatTable::FIN_CLIENT_ACKED;
    }
    if ((flags & IlbNatTable::FIN_SERVER) && (flags & IlbNatTable::ACK_PAST_FIN_SERVER))
    {
        flags |= IlbNatTable::FIN_SERVER_ACKED;
    }
    constexpr uint8_t kBoth = IlbNatTable::FIN_CLIENT_ACKED | IlbNatTable::FIN_SERVER_ACKED;
    return (flags & kBoth) == kBoth;
}

uint32_t
IlbConnectionStore::RemoveServer(uint32_t rule, uint32_t server)
{
    // RemoveBackend walks the table's LRU lists: a deterministic order for the traces.
    const uint32_t id = m_serverIds[rule][server];
    return m_nat->RemoveServer(id) + m_table->RemoveBackend(id);
}

uint32_t
IlbConnectionStore::Cleanup(Time now)
{
    // Collected first, removed in key order: the traces do not depend on hash order.
    std::vector<uint32_t> records;
    if (m_nat)
    {
        for (uint32_t i = 0; i < m_nat->GetRecordCapacity(); ++i)
        {
            if (!m_nat->IsLive(i))
            {
                continue;
            }
            const uint32_t rule = m_serverOwner[m_nat->GetServer(i)].first;
            uint8_t& flags = m_nat->GetMutable(i).flags;
            if ((flags & IlbNatTable::RST_SEEN) || m_nat->GetIdle(i, now) > m_natTimeout[rule] ||
                (m_protocol[rule] == AdcFlowKey::PROTO_TCP && CleanupTcp(flags)))
            {
                records.push_back(i);
            }
        }
    }
    std::vector<AdcFlowKey> keys;
    for (auto& [key, f] : m_flows)
    {
        if ((f.tcp & IlbNatTable::RST_SEEN) || now - f.lastSeen > m_natTimeout[f.rule] ||
            (m_protocol[f.rule] == AdcFlowKey::PROTO_TCP && CleanupTcp(f.tcp)))
        {
            keys.push_back(key);
        }
    }
    std::sort(keys.begin(), keys.end());
    for (uint32_t i : records)
    {
        if (m_nat->IsLive(i))
        {
            m_nat->Remove(i);
        }
    }
    for (const AdcFlowKey& k : keys)
    {
        m_table->Remove(k);
    }
    return static_cast<uint32_t>(records.size() + keys.size());
}

uint32_t
IlbConnectionStore::CountServer(uint32_t rule, uint32_t server) const
{
    const uint32_t id = m_serverIds[rule][server];
    return m_nat->CountServer(id) + m_table->CountBackend(id);
}

uint32_t
IlbConnectionStore::GetCount() const
{
    return (m_nat ? m_nat->GetSize() : 0) + (m_table ? m_table->GetSize() : 0);
}

void
IlbConnectionStore::SetCompactIpv4(bool compact)
{
    m_compactIpv4 = compact;
}

bool
IlbConnectionStore::GetCompactIpv4() const
{
    return m_compactIpv4;
}

void
IlbConnectionStore::SetMaxConnections(uint32_t n)
{
    m_maxConnections = n;
    m_table->SetAttribute("MaxEntries", UintegerValue(n));
}

Ptr<AdcConnectionTable>
IlbConnectionStore::GetConnectionTable() const
{
    return m_table;
}

Ptr<IlbNatTable>
IlbConnectionStore::GetNatTable() const
{
    return m_nat;
}

void
IlbConnectionStore::ForgetNat(uint32_t index, bool)
{
    const uint32_t server = m_nat->GetServer(index);
    if (server >= m_serverOwner.size())
    {
        return; // disposed
    }
    if (m_ended)
    {
        m_ended(m_serverOwner[server].first,
                m_serverOwner[server].second,
                m_nat->GetOriginal(index),
                m_nat->GetTranslated(index));
    }
}

void
IlbConnectionStore::ForgetFlow(const AdcConnectionTable::Entry& entry)
{
    auto it = m_flows.find(entry.original);
    if (it == m_flows.end())
    {
        return;
    }
    if (m_ended)
    {
        m_ended(it->second.rule, it->second.server, entry.original, entry.translated);
    }
    m_flows.erase(it);
}

void
IlbConnectionStore::Dispose()
{
    m_ended = nullptr;
    m_serverOwner.clear();
    m_flows.clear();
    m_table = nullptr;
    if (m_nat)
    {
        m_nat->Dispose();
        m_nat = nullptr;
    }
}

} // namespace ns3
