/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: illumos ILB's own hash algorithms (uts/common/inet/ilb/ilb_alg_hash.c).
 */

#include "adc-ilb-hash-lb.h"

#include "ns3/enum.h"

#include <array>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcIlbHashLb);

namespace
{
/// sys/crc32.h CRC32_POLY
constexpr uint32_t kCrc32Poly = 0xEDB88320U;

/// \return crc32_table as CRC32_INIT(table, CRC32_POLY) builds it
std::array<uint32_t, 256>
MakeTable()
{
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i)
    {
        uint32_t x = i;
        for (int j = 8; j > 0; --j)
        {
            x = (x >> 1) ^ ((0U - (x & 1U)) & kCrc32Poly);
        }
        t[i] = x;
    }
    return t;
}

/// \param a an address \return its last four bytes (s6_addr32[3]; an IPv4 address whole)
std::array<uint8_t, 4>
Low32(const AdcIpAddress& a)
{
    const auto& b = a.GetBytes();
    const std::size_t at = a.IsV4() ? 0 : 12;
    return {b[at], b[at + 1], b[at + 2], b[at + 3]};
}
} // namespace

TypeId
AdcIlbHashLb::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcIlbHashLb")
            .SetParent<AdcLbMethod>()
            .SetGroupName("Adc")
            .AddConstructor<AdcIlbHashLb>()
            .AddAttribute("Mode",
                          "What illumos's hash_lb covers: the source IP (ILBHASHIP, ilbadm "
                          "hash-ip), the source IP and port (ILBHASHIPPORT, hash-ip-port), or "
                          "the source IP and the VIP (ILBHASHIPVIP, hash-ip-vip).",
                          EnumValue(AdcIlbHashLb::IP),
                          MakeEnumAccessor(&AdcIlbHashLb::SetMode, &AdcIlbHashLb::GetMode),
                          MakeEnumChecker(AdcIlbHashLb::IP,
                                          "IP",
                                          AdcIlbHashLb::IP_PORT,
                                          "IP_PORT",
                                          AdcIlbHashLb::IP_VIP,
                                          "IP_VIP"));
    return tid;
}

AdcIlbHashLb::AdcIlbHashLb() = default;

std::string
AdcIlbHashLb::GetMethodName() const
{
    return m_mode == IP_PORT ? "ILBHASHIPPORT" : m_mode == IP_VIP ? "ILBHASHIPVIP" : "ILBHASHIP";
}

void
AdcIlbHashLb::SetMode(Mode mode)
{
    m_mode = mode;
}

AdcIlbHashLb::Mode
AdcIlbHashLb::GetMode() const
{
    return m_mode;
}

uint32_t
AdcIlbHashLb::Crc32(const uint8_t* data, std::size_t len)
{
    static const std::array<uint32_t, 256> table = MakeTable();
    uint32_t crc = 0xFFFFFFFFU; // -1U
    for (std::size_t i = 0; i < len; ++i)
    {
        crc = (crc >> 8) ^ table[(crc ^ data[i]) & 0xFF];
    }
    return crc;
}

uint32_t
AdcIlbHashLb::Hash(Mode mode, const AdcFlowKey& flow)
{
    std::array<uint8_t, 4> val = Low32(flow.src);
    if (mode == IP_PORT)
    {
        // addr ^ (port << 16) ^ port with the port in network order: on either byte order
        // the port's high byte lands on bytes 0 and 2 of val, its low byte on bytes 1 and 3.
        const auto hi = static_cast<uint8_t>(flow.srcPort >> 8);
        const auto lo = static_cast<uint8_t>(flow.srcPort & 0xff);
        val[0] ^= hi;
        val[1] ^= lo;
        val[2] ^= hi;
        val[3] ^= lo;
    }
    else if (mode == IP_VIP)
    {
        const std::array<uint8_t, 4> vip = Low32(flow.dst);
        for (std::size_t i = 0; i < 4; ++i)
        {
            val[i] ^= vip[i];
        }
    }
    return Crc32(val.data(), val.size());
}

const std::vector<uint32_t>&
AdcIlbHashLb::GetEnabledTable() const
{
    return m_enabled;
}

int32_t
AdcIlbHashLb::DoSelect(const AdcLbContext& ctx)
{
    // hash_lb: hash_tbl[crc % hash_servers] when enabled, else hash_enabled_tbl[crc % enabled].
    const uint32_t crc = Hash(m_mode, ctx.flow);
    const uint32_t i = crc % GetNBackends();
    if (GetBackend(i).up)
    {
        return static_cast<int32_t>(i);
    }
    if (m_enabled.empty())
    {
        return -1;
    }
    return static_cast<int32_t>(m_enabled[crc % m_enabled.size()]);
}

void
AdcIlbHashLb::BackendsChanged()
{
    // hash_server_disable: del_server keeps the order of the others; hash_server_enable and
    // hash_server_add (of an enabled server) append at the end.
    std::vector<uint32_t> next;
    std::vector<bool> listed(GetNBackends(), false);
    for (uint32_t i : m_enabled)
    {
        if (i < GetNBackends() && GetBackend(i).up)
        {
            next.push_back(i);
            listed[i] = true;
        }
    }
    for (uint32_t i = 0; i < GetNBackends(); ++i)
    {
        if (GetBackend(i).up && !listed[i])
        {
            next.push_back(i);
        }
    }
    m_enabled = std::move(next);
}

} // namespace ns3
