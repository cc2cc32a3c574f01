/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-packet-rewrite.h"

#include "ns3/node.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-option-rfc793.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <boost/endian/conversion.hpp>

namespace ns3
{

namespace
{

/// Header sizes.
constexpr uint32_t UDP_HEADER_BYTES = 8;
constexpr uint32_t TCP_MIN_HEADER_BYTES = 20;
constexpr uint32_t TCP_MAX_HEADER_BYTES = 60;
constexpr uint32_t PORT_BYTES = 4;

/// \param a an address \return it as an ns-3 Address (for the transport checksums)
Address
ToAddress(const AdcIpAddress& a)
{
    return a.IsV4() ? Address(a.GetIpv4()) : Address(a.GetIpv6());
}

/**
 * \param h header bytes
 * \param len header length (data offset * 4)
 * \return true when every TCP option lies inside the option area
 */
bool
TcpOptionsWellFormed(const uint8_t* h, uint32_t len)
{
    uint32_t i = TCP_MIN_HEADER_BYTES;
    while (i < len)
    {
        const uint8_t kind = h[i];
        if (kind == 0) // END: the rest is padding
        {
            return true;
        }
        if (kind == 1) // NOP
        {
            ++i;
            continue;
        }
        if (i + 1 >= len || h[i + 1] < 2 || i + h[i + 1] > len)
        {
            return false;
        }
        i += h[i + 1];
    }
    return true;
}

} // namespace

std::string
AdcTransportDropReason(AdcTransportStatus status)
{
    switch (status)
    {
    case AdcTransportStatus::TRUNCATED:
        return "truncated-transport-header";
    case AdcTransportStatus::MALFORMED:
        return "malformed-transport-header";
    case AdcTransportStatus::FRAGMENT:
        return "fragment-unsupported";
    case AdcTransportStatus::NO_PORTS:
    case AdcTransportStatus::OK:
        break;
    }
    return "";
}

bool
AdcHasPorts(uint8_t protocol)
{
    return protocol == AdcFlowKey::PROTO_TCP || protocol == AdcFlowKey::PROTO_UDP;
}

AdcTransportInfo
AdcReadTransport(Ptr<const Packet> p, uint8_t protocol)
{
    using boost::endian::load_big_u16;
    using boost::endian::load_big_u32;
    AdcTransportInfo r;
    const uint32_t size = p ? p->GetSize() : 0;
    const uint32_t need =
        protocol == AdcFlowKey::PROTO_TCP ? TCP_MIN_HEADER_BYTES : UDP_HEADER_BYTES;
    if (size < PORT_BYTES || size < need)
    {
        return r;
    }
    uint8_t h[TCP_MAX_HEADER_BYTES];
    p->CopyData(h, std::min(size, TCP_MAX_HEADER_BYTES));
    r.srcPort = load_big_u16(h);
    r.dstPort = load_big_u16(h + 2);
    if (protocol == AdcFlowKey::PROTO_TCP)
    {
        const uint32_t len = (h[12] >> 4) * 4U;
        if (len < TCP_MIN_HEADER_BYTES || len > size || !TcpOptionsWellFormed(h, len))
        {
            r.status = len > size ? AdcTransportStatus::TRUNCATED : AdcTransportStatus::MALFORMED;
            return r;
        }
        r.tcpFlags = h[13];
        r.tcpSeq = load_big_u32(h + 4);
        r.tcpAck = load_big_u32(h + 8);
        r.tcpPayload = size - len;
    }
    r.status = AdcTransportStatus::OK;
    return r;
}

AdcTransportInfo
AdcPeekPorts(Ptr<const Packet> p, uint8_t protocol)
{
    AdcTransportInfo r;
    if (!AdcHasPorts(protocol))
    {
        r.status = AdcTransportStatus::NO_PORTS;
        return r;
    }
    if (!p || p->GetSize() < PORT_BYTES)
    {
        return r; // TRUNCATED
    }
    uint8_t h[PORT_BYTES];
    p->CopyData(h, PORT_BYTES);
    r.srcPort = boost::endian::load_big_u16(h);
    r.dstPort = boost::endian::load_big_u16(h + 2);
    r.status = AdcTransportStatus::OK;
    return r;
}

uint16_t
AdcReadTcpMss(Ptr<const Packet> p)
{
    const AdcTransportInfo info = AdcReadTransport(p, AdcFlowKey::PROTO_TCP);
    if (info.status != AdcTransportStatus::OK)
    {
        return 0;
    }
    // AdcReadTransport checked that every option lies inside the header.
    uint8_t h[TCP_MAX_HEADER_BYTES];
    p->CopyData(h, std::min(p->GetSize(), TCP_MAX_HEADER_BYTES));
    const uint32_t len = (h[12] >> 4) * 4U;
    for (uint32_t i = TCP_MIN_HEADER_BYTES; i < len && h[i] != 0;)
    {
        if (h[i] == 1)
        {
            ++i;
            continue;
        }
        if (h[i] == 2 && h[i + 1] == 4)
        {
            return boost::endian::load_big_u16(h + i + 2);
        }
        i += h[i + 1];
    }
    return 0;
}

Ptr<Packet>
AdcRewriteTransport(Ptr<const Packet> p,
                    const AdcFlowKey& before,
                    const AdcFlowKey& after,
                    std::string& reason,
                    uint16_t clampMss)
{
    Ptr<Packet> copy = p->Copy();
    const bool checksums = Node::ChecksumEnabled();
    if (after.protocol == AdcFlowKey::PROTO_TCP)
    {
        TcpHeader tcp;
        if (checksums)
        {
            tcp.EnableChecksums();
            tcp.InitializeChecksum(ToAddress(before.src), ToAddress(before.dst), before.protocol);
        }
        copy->RemoveHeader(tcp);
        if (tcp.GetLength() * 4U != tcp.GetSerializedSize())
        {
            reason = "malformed-transport-header";
            return nullptr;
        }
        if (checksums && !tcp.IsChecksumOk())
        {
            reason = "bad-checksum";
            return nullptr;
        }
        tcp.SetSourcePort(after.srcPort);
        tcp.SetDestinationPort(after.dstPort);
        if (clampMss != 0 && tcp.HasOption(TcpOption::MSS))
        {
            // The header holds its options by pointer: lowering the value changes this header.
            Ptr<TcpOptionMSS> mss =
                DynamicCast<TcpOptionMSS>(ConstCast<TcpOption>(tcp.GetOption(TcpOption::MSS)));
            if (mss && mss->GetMSS() > clampMss)
            {
                mss->SetMSS(clampMss);
            }
        }
        if (checksums)
        {
            tcp.InitializeChecksum(ToAddress(after.src), ToAddress(after.dst), after.protocol);
        }
        copy->AddHeader(tcp);
        return copy;
    }
    UdpHeader in;
    if (checksums)
    {
        in.EnableChecksums();
        in.InitializeChecksum(ToAddress(before.src), ToAddress(before.dst), before.protocol);
    }
    copy->RemoveHeader(in);
    if (checksums && !in.IsChecksumOk())
    {
        reason = "bad-checksum";
        return nullptr;
    }
    // A fresh header: a deserialized UdpHeader would write back its old checksum and a
    // length field without the header (ns-3 3.37 keeps both as read).
    UdpHeader out;
    out.SetSourcePort(after.srcPort);
    out.SetDestinationPort(after.dstPort);
    if (checksums)
    {
        out.EnableChecksums();
        out.InitializeChecksum(ToAddress(after.src), ToAddress(after.dst), after.protocol);
    }
    copy->AddHeader(out);
    return copy;
}

} // namespace ns3
