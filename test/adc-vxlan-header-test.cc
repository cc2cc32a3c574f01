/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcVxlanHeader (RFC 7348 section 5): the bytes written by hand from the RFC's
 * figure, VNI bounds, the outer source port range, and a pcap that tshark must decode as
 * VXLAN carrying an inner Ethernet + IPv4 + TCP frame.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-vxlan-header.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

/// \param vni a VNI \return the header's bytes as Serialize writes them
Bytes
Wire(uint32_t vni)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(AdcVxlanHeader(vni));
    Bytes out(p->GetSize());
    p->CopyData(out.data(), out.size());
    return out;
}

/// \param bytes header bytes \return the header Deserialize reads from them
AdcVxlanHeader
Read(const Bytes& bytes)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    AdcVxlanHeader h;
    EXPECT_EQ(p->RemoveHeader(h), 8U);
    return h;
}

} // namespace

TEST(AdcVxlanHeader, GoldenBytesFromRfc7348)
{
    // REQ: SLB-06 (the MUX encapsulates in VXLAN: the header as RFC 7348 section 5 draws it)
    // RFC 7348 section 5: |R|R|R|R|I|R|R|R| Reserved (24) | VNI (24) | Reserved (8)
    //                       flags 0x08         00 00 00      VNI, big endian   00
    EXPECT_EQ(Wire(0), (Bytes{0x08, 0x00, 0x00, 0x00, /* VNI */ 0x00, 0x00, 0x00, 0x00}));
    EXPECT_EQ(Wire(1), (Bytes{0x08, 0x00, 0x00, 0x00, /* VNI */ 0x00, 0x00, 0x01, 0x00}));
    // 0xABCDEF sits in bytes 4..6, shifted left by 8 in the second word (not 00 AB CD EF).
    EXPECT_EQ(Wire(0xABCDEF), (Bytes{0x08, 0x00, 0x00, 0x00, 0xAB, 0xCD, 0xEF, 0x00}));
    EXPECT_EQ(Wire(0xFFFFFF), (Bytes{0x08, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00}));
    EXPECT_EQ(AdcVxlanHeader().GetSerializedSize(), 8U);
}

TEST(AdcVxlanHeader, DeserializeReadsVniAndIFlag)
{
    // REQ: SLB-06 (the host decapsulates: reads the VNI; a header without I is not valid)
    const AdcVxlanHeader a = Read({0x08, 0x00, 0x00, 0x00, 0xAB, 0xCD, 0xEF, 0x00});
    EXPECT_TRUE(a.IsVniValid());
    EXPECT_EQ(a.GetVni(), 0xABCDEFU);
    // Reserved bits and bytes are ignored on receipt (RFC 7348 section 5).
    const AdcVxlanHeader b = Read({0xFF, 0x12, 0x34, 0x56, 0x00, 0x00, 0x2A, 0x99});
    EXPECT_TRUE(b.IsVniValid());
    EXPECT_EQ(b.GetVni(), 42U);
    // No I flag: kept, but marked invalid so that the receiver drops it.
    const AdcVxlanHeader c = Read({0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00});
    EXPECT_FALSE(c.IsVniValid());
    EXPECT_EQ(c.GetVni(), 5U);
    const AdcVxlanHeader d = Read({0xF7, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00});
    EXPECT_FALSE(d.IsVniValid());
    // An invalid header writes its flags byte without I.
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(c);
    uint8_t first = 0xEE;
    p->CopyData(&first, 1);
    EXPECT_EQ(first, 0x00);
    // Round trip of the extremes.
    EXPECT_EQ(Read(Wire(0xFFFFFF)).GetVni(), 0xFFFFFFU);
    EXPECT_EQ(Read(Wire(0)).GetVni(), 0U);
}

TEST(AdcVxlanHeader, VniAbove24BitsIsAConfigError)
{
    // REQ: SLB-06
    const std::string e = adctest::ConfigErrorOf([] { AdcVxlanHeader{1U << 24}.GetVni(); });
    EXPECT_TRUE(adctest::HasAll(e, {"AdcVxlanHeader", "VNI", "16777216", "0..16777215"})) << e;
    AdcVxlanHeader h(7);
    EXPECT_THROW(h.SetVni(0xFFFFFFFFU), AdcConfigError);
    EXPECT_EQ(h.GetVni(), 7U); // unchanged by the refused value
    EXPECT_NO_THROW(h.SetVni(0xFFFFFF));
    EXPECT_EQ(h.GetVni(), 0xFFFFFFU);
}

TEST(AdcVxlanHeader, ConstantsAndSourcePortRange)
{
    // REQ: SLB-06 (UDP 4789; outer source port from the inner flow's hash, 49152-65535)
    EXPECT_EQ(kVxlanPort, 4789);
    EXPECT_EQ(kVxlanOverheadIpv4, 14U + 8U + 8U + 20U); // inner Ethernet, VXLAN, UDP, IPv4
    std::set<uint16_t> seen;
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 4000; ++i)
    {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const uint16_t port = AdcVxlanSourcePort(x);
        ASSERT_GE(port, 49152);
        ASSERT_LE(port, 65535);
        seen.insert(port);
    }
    // 4000 draws over 16384 ports: about 3550 distinct expected; a port stuck or confined to
    // a small part of the range would fail.
    EXPECT_GT(seen.size(), 3000U);
    EXPECT_GE(*seen.begin(), 49152);
    EXPECT_LT(*seen.begin(), 49152 + 100);
    EXPECT_GT(*seen.rbegin(), 65535 - 100);
    // Same flow, same port; the high bits of the hash count too.
    EXPECT_EQ(AdcVxlanSourcePort(12345), AdcVxlanSourcePort(12345));
    EXPECT_NE(AdcVxlanSourcePort(0), AdcVxlanSourcePort(1ULL << 63));
    EXPECT_NE(AdcVxlanSourcePort(0), AdcVxlanSourcePort(1ULL << 40));
    EXPECT_EQ(AdcVxlanSourcePort(0), 49152);
}

TEST(AdcVxlanHeader, PcapDecodesAsVxlanInWireshark)
{
    // REQ: SLB-06 (VXLAN in pcap between MUX and host: Wireshark reads the VNI and the inner
    //              frame)
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("adc-vxlan-header-test-" + std::to_string(getpid())))
                                .string();
    std::filesystem::create_directories(dir);
    const std::string pcap = dir + "/vxlan.pcap";

    // Inner frame: client 203.0.113.7:40000 -> DIP 10.10.10.5:80, TCP SYN.
    Ptr<Packet> p = Create<Packet>();
    TcpHeader tcp;
    tcp.SetSourcePort(40000);
    tcp.SetDestinationPort(80);
    tcp.SetSequenceNumber(SequenceNumber32(1000));
    tcp.SetFlags(TcpHeader::SYN);
    tcp.SetWindowSize(65535);
    p->AddHeader(tcp);
    Ipv4Header inner;
    inner.SetSource(Ipv4Address("203.0.113.7"));
    inner.SetDestination(Ipv4Address("10.10.10.5"));
    inner.SetProtocol(6);
    inner.SetTtl(64);
    inner.SetPayloadSize(p->GetSize());
    inner.EnableChecksum();
    p->AddHeader(inner);
    EthernetHeader innerEth(false);
    innerEth.SetSource(Mac48Address("02:00:00:00:00:01"));
    innerEth.SetDestination(Mac48Address("02:00:00:00:00:02"));
    innerEth.SetLengthType(0x0800);
    p->AddHeader(innerEth);
    const uint32_t innerBytes = p->GetSize();
    // VXLAN over UDP over IPv4 over Ethernet: MUX 192.168.1.10 -> host 192.168.2.20.
    p->AddHeader(AdcVxlanHeader(0xABCDEF));
    UdpHeader udp;
    udp.SetSourcePort(AdcVxlanSourcePort(0x1234567890ULL));
    udp.SetDestinationPort(kVxlanPort);
    p->AddHeader(udp);
    Ipv4Header outer;
    outer.SetSource(Ipv4Address("192.168.1.10"));
    outer.SetDestination(Ipv4Address("192.168.2.20"));
    outer.SetProtocol(17);
    outer.SetTtl(64);
    outer.SetPayloadSize(p->GetSize());
    outer.EnableChecksum();
    p->AddHeader(outer);
    EXPECT_EQ(p->GetSize(), innerBytes + kVxlanOverheadIpv4 - 14); // + inner Ethernet counted
    EthernetHeader outerEth(false);
    outerEth.SetSource(Mac48Address("02:00:00:00:01:01"));
    outerEth.SetDestination(Mac48Address("02:00:00:00:01:02"));
    outerEth.SetLengthType(0x0800);
    p->AddHeader(outerEth);
    {
        Ptr<PcapFileWrapper> file = CreateObject<PcapFileWrapper>();
        file->Open(pcap, std::ios::out);
        file->Init(PcapHelper::DLT_EN10MB);
        file->Write(Seconds(1), p);
        file->Close();
    }

    const std::string out = adctest::RunCommand(
        "tshark -n -r '" + pcap + "' -T fields -E 'separator=;' -e vxlan.vni -e vxlan.flags " +
        "-e ip.src -e tcp.dstport 2>/dev/null");
    // One frame: VNI 0xABCDEF = 11259375, the I flag, outer then inner source, port 80.
    EXPECT_EQ(adctest::OutputLines(out),
              (std::vector<std::string>{"11259375;0x0800;192.168.1.10,203.0.113.7;80"}))
        << out;
    const std::string bad = adctest::RunCommand(
        "tshark -n -r '" + pcap +
        "' -Y '_ws.malformed || _ws.expert.severity == error' -T fields -e frame.number "
        "2>/dev/null");
    EXPECT_TRUE(adctest::OutputLines(bad).empty()) << bad;
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir);
    }
}
