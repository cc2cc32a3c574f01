/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-vxlan.h"

#include "ns3/adc-vxlan-header.h"
#include "ns3/ethernet-header.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <array>

namespace ns3
{

namespace
{

/// \param b the last three bytes \return 00:15:5D:b0:b1:b2
Mac48Address
InnerMac(uint8_t b0, uint8_t b1, uint8_t b2)
{
    const uint8_t bytes[6] =
        {kSlbInnerMacOui[0], kSlbInnerMacOui[1], kSlbInnerMacOui[2], b0, b1, b2};
    Mac48Address mac;
    mac.CopyFrom(bytes);
    return mac;
}

/// \param p an IP datagram \return its version (4, 6; 0 when empty)
uint8_t
IpVersion(Ptr<const Packet> p)
{
    uint8_t first = 0;
    if (p->CopyData(&first, 1) != 1)
    {
        return 0;
    }
    return first >> 4;
}

/// \param p an IP datagram \return the low three bytes of its destination address
std::array<uint8_t, 3>
DestinationTail(Ptr<const Packet> p, uint8_t version)
{
    uint8_t header[40] = {};
    const uint32_t n = p->CopyData(header, sizeof(header));
    const uint32_t end = version == 6 ? 40 : 20; // the destination ends at byte 40 / 20
    if (n < end)
    {
        return {0, 0, 0};
    }
    return {header[end - 3], header[end - 2], header[end - 1]};
}

/// \param d bytes \param o offset \return the 16-bit big-endian value at o
uint16_t
Be16(const uint8_t* d, std::size_t o)
{
    return static_cast<uint16_t>((d[o] << 8) | d[o + 1]);
}

} // namespace

std::array<uint8_t, 6>
SlbVmMac(const AdcIpAddress& address)
{
    const std::size_t n = address.GetLength();
    const auto& b = address.GetBytes();
    return {kSlbInnerMacOui[0],
            kSlbInnerMacOui[1],
            kSlbInnerMacOui[2],
            b[n - 3],
            b[n - 2],
            b[n - 1]};
}

void
SlbVxlanAddHeaders(Ptr<Packet> datagram,
                   uint32_t vni,
                   uint16_t srcPort,
                   const AdcIpAddress& outerSrc,
                   const AdcIpAddress& outerDst,
                   const AdcIpAddress& dip)
{
    const uint8_t version = IpVersion(datagram);
    auto tail = DestinationTail(datagram, version);
    if (!dip.IsNone())
    {
        const auto mac = SlbVmMac(dip);
        tail = {mac[3], mac[4], mac[5]};
    }
    EthernetHeader eth(false);
    eth.SetDestination(InnerMac(tail[0], tail[1], tail[2]));
    eth.SetSource(InnerMac(0xff, 0xff, 0xfe));
    eth.SetLengthType(version == 6 ? 0x86DD : 0x0800);
    datagram->AddHeader(eth);
    datagram->AddHeader(AdcVxlanHeader(vni));
    UdpHeader udp;
    udp.SetSourcePort(srcPort);
    udp.SetDestinationPort(kVxlanPort);
    if (outerDst.IsV6())
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(outerSrc.GetIpv6(), outerDst.GetIpv6(), AdcFlowKey::PROTO_UDP);
    }
    else if (Node::ChecksumEnabled())
    {
        // ns-3's UDP verifies every checksum when checksums are on (it does not take zero as
        // "none"), and RFC 7348 lets a receiver accept a computed one.
        udp.EnableChecksums();
        udp.InitializeChecksum(outerSrc.GetIpv4(), outerDst.GetIpv4(), AdcFlowKey::PROTO_UDP);
    }
    datagram->AddHeader(udp);
}

AdcEncapsulation
SlbVxlanEncapsulation(const AdcIpAddress& hostPa,
                      uint32_t vni,
                      uint64_t innerFlowHash,
                      const AdcIpAddress& dip)
{
    AdcEncapsulation e;
    e.protocol = AdcFlowKey::PROTO_UDP;
    e.destination = hostPa;
    const uint16_t srcPort = AdcVxlanSourcePort(innerFlowHash);
    e.addHeaders = [vni, srcPort, dip](Ptr<Packet> datagram,
                                       const AdcIpAddress& outerSource,
                                       const AdcIpAddress& outerDestination) {
        SlbVxlanAddHeaders(datagram, vni, srcPort, outerSource, outerDestination, dip);
    };
    return e;
}

namespace
{

/**
 * \param data the first bytes of the payload: at least min(size, 70) of them (the headers up to
 *        the end of an inner IPv6 header; nothing past them is read)
 * \param size the payload's whole length
 * \return the frame
 */
SlbVxlanFrame
ParseFrame(const uint8_t* data, std::size_t size)
{
    SlbVxlanFrame f;
    if (size < 8)
    {
        f.reason = "vxlan-truncated";
        return f;
    }
    f.srcPort = Be16(data, 0);
    f.dstPort = Be16(data, 2);
    if (Be16(data, 4) != size)
    {
        f.reason = "vxlan-udp-length";
        return f;
    }
    if (size < kSlbVxlanHeaderBytes)
    {
        f.reason = "vxlan-truncated";
        return f;
    }
    if ((data[8] & AdcVxlanHeader::kFlagI) == 0)
    {
        f.reason = "vxlan-no-vni";
        return f;
    }
    f.vni =
        (static_cast<uint32_t>(data[12]) << 16) | (static_cast<uint32_t>(data[13]) << 8) | data[14];
    f.etherType = Be16(data, 28);
    std::copy(data + 16, data + 22, f.innerDestination.begin());
    if (f.etherType != 0x0800 && f.etherType != 0x86DD)
    {
        f.reason = "vxlan-inner-ethertype";
        return f;
    }
    const std::size_t ip = kSlbVxlanHeaderBytes;
    const std::size_t left = size - ip;
    const uint8_t version = left > 0 ? data[ip] >> 4 : 0;
    const bool v6 = f.etherType == 0x86DD;
    const std::size_t minHeader = v6 ? 40 : 20;
    if (version != (v6 ? 6 : 4) || left < minHeader || (!v6 && (data[ip] & 0x0f) * 4u < 20))
    {
        f.reason = "vxlan-inner-ip";
        return f;
    }
    const std::size_t length = v6 ? 40u + Be16(data, ip + 4) : Be16(data, ip + 2);
    if (length > left || (!v6 && length < (data[ip] & 0x0f) * 4u))
    {
        f.reason = "vxlan-inner-length";
        return f;
    }
    f.ipVersion = version;
    f.innerLength = static_cast<uint32_t>(length);
    f.ok = true;
    return f;
}

} // namespace

SlbVxlanFrame
SlbVxlanParse(const uint8_t* data, std::size_t size)
{
    return ParseFrame(data, size);
}

SlbVxlanFrame
SlbVxlanParse(Ptr<const Packet> payload)
{
    // Only the headers are read: UDP, VXLAN, Ethernet (30 bytes) and an inner IP header (40 at
    // most); the rest of the packet is not copied.
    uint8_t head[kSlbVxlanHeaderBytes + 40] = {};
    payload->CopyData(head, sizeof(head));
    return ParseFrame(head, payload->GetSize());
}

} // namespace ns3
