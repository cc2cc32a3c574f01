/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ilb-algorithm.h"

#include "ns3/adc-ilb-hash-lb.h"

namespace ns3
{

bool
IlbAlgorithm::FromCanonical(const std::string& canonical, Kind& kind)
{
    if (canonical == "ROUNDROBIN")
    {
        kind = ROUNDROBIN;
    }
    else if (canonical == "ILBHASHIP")
    {
        kind = HASH_IP;
    }
    else if (canonical == "ILBHASHIPPORT")
    {
        kind = HASH_IP_PORT;
    }
    else if (canonical == "ILBHASHIPVIP")
    {
        kind = HASH_IP_VIP;
    }
    else
    {
        return false;
    }
    return true;
}

IlbAlgorithm::IlbAlgorithm(Kind kind)
    : m_kind(kind)
{
}

IlbAlgorithm::Kind
IlbAlgorithm::GetKind() const
{
    return m_kind;
}

int32_t
IlbAlgorithm::Find(uint32_t server) const
{
    for (std::size_t i = 0; i < m_slots.size(); ++i)
    {
        if (m_slots[i].server == server)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

void
IlbAlgorithm::AddServer(uint32_t server, bool enabled)
{
    if (m_kind == ROUNDROBIN)
    {
        // rr_server_add: list_insert_head; rr_next keeps pointing where it did.
        m_slots.insert(m_slots.begin(), Slot{server, enabled});
        return;
    }
    // hash_server_add: hash_tbl[hash_servers++], and the enabled table's end when enabled.
    m_slots.push_back(Slot{server, enabled});
    if (enabled)
    {
        m_enabled.push_back(server);
    }
}

bool
IlbAlgorithm::DelServer(uint32_t server)
{
    const int32_t i = Find(server);
    if (i < 0)
    {
        return false; // EINVAL
    }
    if (m_kind == ROUNDROBIN)
    {
        // rr_server_del: "if (rr_alg->rr_next == tmp_server) rr_next = list_next(...)".
        if (m_rrNext == static_cast<int32_t>(server))
        {
            const std::size_t next = static_cast<std::size_t>(i) + 1;
            m_rrNext = next < m_slots.size() ? static_cast<int32_t>(m_slots[next].server) : -1;
        }
        m_slots.erase(m_slots.begin() + i);
        return true;
    }
    // del_server on hash_tbl, then on hash_enabled_tbl ("The server may not be enabled"):
    // the entries after it move down one.
    m_slots.erase(m_slots.begin() + i);
    for (auto it = m_enabled.begin(); it != m_enabled.end(); ++it)
    {
        if (*it == server)
        {
            m_enabled.erase(it);
            break;
        }
    }
    return true;
}

bool
IlbAlgorithm::EnableServer(uint32_t server)
{
    const int32_t i = Find(server);
    if (i < 0)
    {
        return false;
    }
    Slot& s = m_slots[static_cast<std::size_t>(i)];
    if (s.enabled)
    {
        return true; // hash_server_enable: already enabled, nothing moves
    }
    s.enabled = true;
    if (m_kind != ROUNDROBIN)
    {
        m_enabled.push_back(server); // hash_enabled_tbl[hash_enabled_servers++]
    }
    return true;
}

bool
IlbAlgorithm::DisableServer(uint32_t server)
{
    const int32_t i = Find(server);
    if (i < 0)
    {
        return false;
    }
    Slot& s = m_slots[static_cast<std::size_t>(i)];
    if (!s.enabled)
    {
        return true;
    }
    s.enabled = false;
    if (m_kind != ROUNDROBIN)
    {
        for (auto it = m_enabled.begin(); it != m_enabled.end(); ++it)
        {
            if (*it == server)
            {
                m_enabled.erase(it); // del_server: the others keep their order
                break;
            }
        }
    }
    return true;
}

int32_t
IlbAlgorithm::Select(const AdcFlowKey& flow)
{
    if (m_slots.empty())
    {
        return -1; // "list_is_empty" / "hash_servers == 0": B_FALSE
    }
    if (m_kind == ROUNDROBIN)
    {
        // rr_lb: start at rr_next (list_head when NULL); skip disabled servers, wrapping at the
        // tail; all disabled: B_FALSE with rr_next back at the start.
        std::size_t pos = 0;
        if (m_rrNext >= 0)
        {
            pos = static_cast<std::size_t>(Find(static_cast<uint32_t>(m_rrNext)));
        }
        const std::size_t start = pos;
        while (!m_slots[pos].enabled)
        {
            pos = (pos + 1) % m_slots.size();
            if (pos == start)
            {
                m_rrNext = static_cast<int32_t>(m_slots[start].server);
                return -1;
            }
        }
        const uint32_t chosen = m_slots[pos].server;
        m_rrNext = pos + 1 < m_slots.size() ? static_cast<int32_t>(m_slots[pos + 1].server) : -1;
        return static_cast<int32_t>(chosen);
    }
    const AdcIlbHashLb::Mode mode = m_kind == HASH_IP        ? AdcIlbHashLb::IP
                                    : m_kind == HASH_IP_PORT ? AdcIlbHashLb::IP_PORT
                                                             : AdcIlbHashLb::IP_VIP;
    const uint32_t crc = AdcIlbHashLb::Hash(mode, flow);
    const Slot& s = m_slots[crc % m_slots.size()];
    if (s.enabled)
    {
        return static_cast<int32_t>(s.server);
    }
    if (m_enabled.empty())
    {
        return -1;
    }
    return static_cast<int32_t>(m_enabled[crc % m_enabled.size()]);
}

std::vector<uint32_t>
IlbAlgorithm::GetOrder() const
{
    std::vector<uint32_t> out;
    for (const Slot& s : m_slots)
    {
        out.push_back(s.server);
    }
    return out;
}

std::vector<uint32_t>
IlbAlgorithm::GetEnabled() const
{
    if (m_kind != ROUNDROBIN)
    {
        return m_enabled;
    }
    std::vector<uint32_t> out;
    for (const Slot& s : m_slots)
    {
        if (s.enabled)
        {
            out.push_back(s.server);
        }
    }
    return out;
}

int32_t
IlbAlgorithm::GetRrNext() const
{
    return m_rrNext;
}

} // namespace ns3
