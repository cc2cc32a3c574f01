/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "vxlan": SlbVxlanParse (what the SLB host's virtual switch reads from UDP 4789:
 * UDP, VXLAN, the inner Ethernet header and the inner IP header) and AdcVxlanHeader over
 * arbitrary bytes, taken as the outer IP payload (UDP header first).
 *
 * Properties: no crash; a refused frame has a "vxlan-..." reason; an accepted one is
 * consistent with its bytes (ports, a 24-bit VNI, the UDP length the payload's size, the inner
 * IP version matching the Ethernet type, the inner length within the frame and at least an IP
 * header); the packet and byte parsers agree; an accepted frame's inner datagram,
 * re-encapsulated with SlbVxlanAddHeaders, parses back to the same frame; AdcVxlanHeader reads
 * the I flag and VNI where RFC 7348 puts them and reads back what it writes.
 */

// REQ: SLB-06 (VXLAN between MUX and host; a malformed VXLAN packet is dropped with a reason)

#include "adc-fuzz.h"

#include "ns3/adc-vxlan-header.h"
#include "ns3/packet.h"
#include "ns3/slb-vxlan.h"

#include <cstring>

using namespace ns3;

namespace
{

/// \param d bytes \param o offset \return the 16-bit big-endian value at o
uint16_t
Be16(const uint8_t* d, std::size_t o)
{
    return static_cast<uint16_t>((d[o] << 8) | d[o + 1]);
}

/// \param a a frame \param b another \return true when every field is equal
bool
Same(const SlbVxlanFrame& a, const SlbVxlanFrame& b)
{
    return a.ok == b.ok && a.reason == b.reason && a.srcPort == b.srcPort &&
           a.dstPort == b.dstPort && a.vni == b.vni && a.etherType == b.etherType &&
           a.ipVersion == b.ipVersion && a.innerLength == b.innerLength;
}

/// Properties of AdcVxlanHeader read from the first 8 bytes.
void
CheckHeader(const uint8_t* data, std::size_t size)
{
    if (size < AdcVxlanHeader::kSerializedSize)
    {
        return;
    }
    Ptr<Packet> p = Create<Packet>(data, AdcVxlanHeader::kSerializedSize);
    AdcVxlanHeader h;
    ADC_FUZZ_CHECK(p->RemoveHeader(h) == AdcVxlanHeader::kSerializedSize);
    ADC_FUZZ_CHECK(h.IsVniValid() == ((data[0] & AdcVxlanHeader::kFlagI) != 0));
    const uint32_t vni = (uint32_t{data[4]} << 16) | (uint32_t{data[5]} << 8) | data[6];
    ADC_FUZZ_CHECK(h.GetVni() == vni);
    ADC_FUZZ_CHECK(h.GetVni() <= AdcVxlanHeader::kMaxVni);
    // What it writes, it reads back the same (reserved bits are written as zero).
    Ptr<Packet> q = Create<Packet>();
    q->AddHeader(h);
    AdcVxlanHeader back;
    q->RemoveHeader(back);
    ADC_FUZZ_CHECK(back.GetVni() == h.GetVni());
    ADC_FUZZ_CHECK(back.IsVniValid() == h.IsVniValid());
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    CheckHeader(data, size);

    const SlbVxlanFrame f = SlbVxlanParse(data, size);
    ADC_FUZZ_CHECK(Same(f, SlbVxlanParse(Create<Packet>(data, size))));
    if (!f.ok)
    {
        ADC_FUZZ_CHECK(f.reason.rfind("vxlan-", 0) == 0);
        return 0;
    }
    ADC_FUZZ_CHECK(f.reason.empty());
    ADC_FUZZ_CHECK(size >= kSlbVxlanHeaderBytes);
    ADC_FUZZ_CHECK(Be16(data, 4) == size);
    ADC_FUZZ_CHECK(f.srcPort == Be16(data, 0) && f.dstPort == Be16(data, 2));
    ADC_FUZZ_CHECK(f.vni <= AdcVxlanHeader::kMaxVni);
    ADC_FUZZ_CHECK((data[8] & AdcVxlanHeader::kFlagI) != 0);
    ADC_FUZZ_CHECK(f.ipVersion == (f.etherType == 0x86DD ? 6 : 4));
    ADC_FUZZ_CHECK(f.etherType == 0x0800 || f.etherType == 0x86DD);
    ADC_FUZZ_CHECK(f.ipVersion == data[kSlbVxlanHeaderBytes] >> 4);
    ADC_FUZZ_CHECK(f.innerLength <= size - kSlbVxlanHeaderBytes);
    ADC_FUZZ_CHECK(f.innerLength >= (f.ipVersion == 6 ? 40U : 20U));

    // The inner datagram, encapsulated again as the MUX does, is the same frame.
    Ptr<Packet> inner = Create<Packet>(data + kSlbVxlanHeaderBytes, f.innerLength);
    SlbVxlanAddHeaders(inner, f.vni, f.srcPort, Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.2"));
    const SlbVxlanFrame again = SlbVxlanParse(inner);
    ADC_FUZZ_CHECK(again.ok);
    ADC_FUZZ_CHECK(again.vni == f.vni && again.srcPort == f.srcPort);
    ADC_FUZZ_CHECK(again.dstPort == kVxlanPort);
    ADC_FUZZ_CHECK(again.etherType == f.etherType && again.ipVersion == f.ipVersion);
    ADC_FUZZ_CHECK(again.innerLength == f.innerLength);
    return 0;
}
