/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: the VXLAN header (RFC 7348).
 */

#include "adc-vxlan-header.h"

#include "ns3/adc-config-error.h"

#include <ostream>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdcVxlanHeader);

uint16_t
AdcVxlanSourcePort(uint64_t innerFlowHash)
{
    // Fibonacci hashing: input bit k moves product bits k..63, so the top 14 bits depend on
    // every bit of the hash (after folding the high half in); 14 bits give the 16384 ports
    // above 49152 (RFC 7348 section 5, "dynamic/private port range").
    const uint64_t h = (innerFlowHash ^ (innerFlowHash >> 32)) * 0x9E3779B97F4A7C15ULL;
    return static_cast<uint16_t>(49152U + (h >> 50));
}

AdcVxlanHeader::AdcVxlanHeader() = default;

AdcVxlanHeader::AdcVxlanHeader(uint32_t vni)
{
    SetVni(vni);
}

TypeId
AdcVxlanHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcVxlanHeader")
                            .SetParent<Header>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcVxlanHeader>();
    return tid;
}

TypeId
AdcVxlanHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
AdcVxlanHeader::Print(std::ostream& os) const
{
    os << "VXLAN vni=" << m_vni << (m_vniValid ? "" : " (I flag clear: invalid)");
}

uint32_t
AdcVxlanHeader::GetSerializedSize() const
{
    return kSerializedSize;
}

void
AdcVxlanHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_vniValid ? kFlagI : 0);
    start.WriteU8(0);
    start.WriteU8(0);
    start.WriteU8(0);
    start.WriteU8(static_cast<uint8_t>(m_vni >> 16));
    start.WriteU8(static_cast<uint8_t>(m_vni >> 8));
    start.WriteU8(static_cast<uint8_t>(m_vni));
    start.WriteU8(0);
}

uint32_t
AdcVxlanHeader::Deserialize(Buffer::Iterator start)
{
    const uint8_t flags = start.ReadU8();
    m_vniValid = (flags & kFlagI) != 0;
    start.Next(3); // reserved: ignored on receipt
    uint32_t vni = static_cast<uint32_t>(start.ReadU8()) << 16;
    vni |= static_cast<uint32_t>(start.ReadU8()) << 8;
    vni |= start.ReadU8();
    m_vni = vni;
    start.Next(1); // reserved
    return kSerializedSize;
}

void
AdcVxlanHeader::SetVni(uint32_t vni)
{
    if (vni > kMaxVni)
    {
        std::ostringstream os;
        os << "AdcVxlanHeader: VNI " << vni
           << " is out of range: allowed 0..16777215 (24 bits, RFC 7348 section 5)";
        throw AdcConfigError(os.str());
    }
    m_vni = vni;
    m_vniValid = true;
}

uint32_t
AdcVxlanHeader::GetVni() const
{
    return m_vni;
}

bool
AdcVxlanHeader::IsVniValid() const
{
    return m_vniValid;
}

} // namespace ns3
