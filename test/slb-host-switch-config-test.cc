/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the SLB host virtual switch's configuration (SlbHostSwitch: VM ports, NAT rules,
 * Fastpath entries, each refused with an AdcConfigError naming the setting) and of its MSS
 * arithmetic, without a simulation. Its datapath in a topology: slb-host-switch-test.cc.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-packet-rewrite.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/slb-host-switch.h"
#include "ns3/tcp-option-rfc793.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using adctest::ConfigErrorOf;
using adctest::Has;

namespace
{

constexpr uint16_t kVipPort = 80;
constexpr uint16_t kDipPort = 8080;
constexpr uint32_t kVni = 5001;
// RFC 7348 overhead over an IPv4 provider network: outer IPv4 20 + UDP 8 + VXLAN 8 + inner
// Ethernet 14 = 50; then the inner IP header and the TCP header (20).
constexpr uint16_t kMssV4 = 1500 - 50 - 20 - 20; // 1410
constexpr uint16_t kMssV6 = 1500 - 50 - 40 - 20; // 1390

/// \param flow a TCP flow \param mss an MSS option (0: none) \return a SYN of it (no IP
/// header), its checksum right when checksums are on
Ptr<Packet>
SynSegment(const AdcFlowKey& flow, uint16_t mss)
{
    TcpHeader tcp;
    tcp.SetSourcePort(flow.srcPort);
    tcp.SetDestinationPort(flow.dstPort);
    tcp.SetFlags(TcpHeader::SYN);
    if (mss != 0)
    {
        Ptr<TcpOptionMSS> option = CreateObject<TcpOptionMSS>();
        option->SetMSS(mss);
        tcp.AppendOption(option);
    }
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(tcp);
    return p;
}

// ---------------------------------------------------------------------------------------------
// Configuration and the MSS arithmetic (no simulation)

/// \return a switch with VM 10.10.10.5 on port 1 (VLAN) and 10.10.20.5 on port 2 (VNI 5001)
Ptr<SlbHostSwitch>
TwoPorts()
{
    Ptr<SlbHostSwitch> sw = CreateObject<SlbHostSwitch>();
    sw->AddVmPort(1, Ipv4Address("10.10.10.5"), 0, 10);
    sw->AddVmPort(2, Ipv4Address("10.10.20.5"), kVni, 0);
    return sw;
}

/// \return the VIP 107.105.47.60 TCP 80
SlbVipKey
Vip4()
{
    SlbVipKey k;
    k.vip = Ipv4Address("107.105.47.60");
    k.protocol = AdcFlowKey::PROTO_TCP;
    k.port = kVipPort;
    return k;
}

/// \return a DIP \p a:8080 on \p vni
SlbDip
Dip4(const char* a, uint32_t vni)
{
    SlbDip d;
    d.address = Ipv4Address(a);
    d.port = kDipPort;
    d.hostPa = Ipv4Address("10.0.2.2");
    d.vni = vni;
    return d;
}

// REQ: SLB-02, SLB-11 (a DIP on a VNI the host does not carry: a clear error naming it)
TEST(SlbHostSwitchConfig, ADipOnAVniTheHostDoesNotCarryIsRefusedNamingIt)
{
    Ptr<SlbHostSwitch> sw = TwoPorts();
    const std::string wrongVni =
        ConfigErrorOf([&] { sw->SetNatRule(Vip4(), Dip4("10.10.20.5", 6000)); });
    EXPECT_TRUE(Has(wrongVni, "SetNatRule")) << wrongVni;
    EXPECT_TRUE(Has(wrongVni, "10.10.20.5")) << wrongVni;
    EXPECT_TRUE(Has(wrongVni, "vni 6000")) << wrongVni;
    EXPECT_TRUE(Has(wrongVni, "a DIP on a VNI the host does not carry")) << wrongVni;
    EXPECT_TRUE(Has(wrongVni, "vni 5001")) << wrongVni; // what is allowed
    // ValidateDip (what the SLB manager asks before pushing policy) says the same.
    EXPECT_TRUE(Has(ConfigErrorOf([&] { sw->ValidateDip(Dip4("10.10.20.5", 6000)); }),
                    "a DIP on a VNI the host does not carry"));
    EXPECT_EQ(ConfigErrorOf([&] { sw->ValidateDip(Dip4("10.10.20.5", kVni)); }), "");
    // A VLAN DIP given a VNI, and a DIP on no port of this host.
    EXPECT_TRUE(Has(ConfigErrorOf([&] { sw->SetNatRule(Vip4(), Dip4("10.10.10.5", kVni)); }),
                    "a DIP on a VNI the host does not carry"));
    const std::string elsewhere =
        ConfigErrorOf([&] { sw->SetNatRule(Vip4(), Dip4("10.10.30.5", 0)); });
    EXPECT_TRUE(Has(elsewhere, "10.10.30.5 is on no VM port of this host")) << elsewhere;
    // The right VNI is accepted; the same DIP:port cannot serve a second VIP.
    EXPECT_EQ(ConfigErrorOf([&] { sw->SetNatRule(Vip4(), Dip4("10.10.20.5", kVni)); }), "");
    SlbVipKey other = Vip4();
    other.vip = Ipv4Address("107.105.47.61");
    EXPECT_TRUE(Has(ConfigErrorOf([&] { sw->SetNatRule(other, Dip4("10.10.20.5", kVni)); }),
                    "already serves"));
    // Removing: an unknown rule is an error, a known one goes.
    EXPECT_TRUE(Has(ConfigErrorOf([&] { sw->RemoveNatRule(other, Ipv4Address("10.10.20.5")); }),
                    "has no rule"));
    EXPECT_EQ(ConfigErrorOf([&] { sw->RemoveNatRule(Vip4(), Ipv4Address("10.10.20.5")); }), "");
    EXPECT_EQ(ConfigErrorOf([&] { sw->SetNatRule(other, Dip4("10.10.20.5", kVni)); }), "");
}

// REQ: SLB-11
TEST(SlbHostSwitchConfig, BadPortsAndFastpathEntriesAreRefusedNamingTheSetting)
{
    Ptr<SlbHostSwitch> sw = TwoPorts();
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { sw->AddVmPort(3, Ipv4Address("10.10.40.5"), 1U << 24, 0); }),
            "vni 16777216"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { sw->AddVmPort(3, Ipv4Address("10.10.40.5"), 0, 4095); }),
                    "vlan 4095"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { sw->AddVmPort(0, Ipv4Address("10.10.40.5"), 0, 0); }),
                    "interface 0"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { sw->AddVmPort(3, Ipv4Address("10.10.10.5"), 0, 0); }),
                    "already has a port"));
    const AdcFlowKey foreign(Ipv4Address("10.99.0.1"),
                             Ipv4Address("107.105.47.60"),
                             1000,
                             80,
                             AdcFlowKey::PROTO_TCP);
    EXPECT_TRUE(Has(ConfigErrorOf([&] { sw->AddFastpath(foreign, Ipv4Address("10.0.4.2"), 1); }),
                    "flow source 10.99.0.1 is on no VM port"));
}

// REQ: SLB-06 (clamp the TCP MSS for the encapsulation overhead)
TEST(SlbHostSwitchConfig, TheClampFollowsTheProviderMtuArithmetic)
{
    Ptr<SlbHostSwitch> sw = CreateObject<SlbHostSwitch>();
    // Not installed: the IPv4 provider overhead applies (RFC 7348's 50 bytes).
    EXPECT_EQ(sw->GetClampedMss(false), kMssV4);
    EXPECT_EQ(sw->GetClampedMss(true), kMssV6);
    sw->SetAttribute("ProviderMtu", UintegerValue(9000)); // jumbo frames
    EXPECT_EQ(sw->GetClampedMss(false), 9000 - 50 - 20 - 20);
}

// REQ: SLB-06 (the shared REWRITE lowers an MSS option above the clamp, never raises one)
TEST(SlbHostSwitchConfig, RewriteClampsOnlyAnMssAboveTheLimit)
{
    const AdcFlowKey before(Ipv4Address("1.1.1.1"), Ipv4Address("2.2.2.2"), 1, 80, 6);
    const AdcFlowKey after(Ipv4Address("1.1.1.1"), Ipv4Address("3.3.3.3"), 1, 8080, 6);
    for (const auto& [offered, expected] :
         std::vector<std::pair<uint16_t, uint16_t>>{{1460, 1410}, {1200, 1200}, {0, 0}})
    {
        Ptr<Packet> d = SynSegment(before, offered);
        EXPECT_EQ(AdcReadTcpMss(d), offered);
        std::string reason;
        Ptr<Packet> out = AdcRewriteTransport(d, before, after, reason, 1410);
        ASSERT_TRUE(out) << reason;
        EXPECT_EQ(AdcReadTcpMss(out), expected);
        EXPECT_EQ(AdcReadTransport(out, 6).dstPort, 8080);
    }
}

} // namespace
