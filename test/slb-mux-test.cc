/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the SLB MUX (SlbMux). Decisions are checked by handing the MUX packets directly
 * (Process with a recording egress): the same DIP on every MUX of a pool, the spread over
 * DIPs, flows pinned across DIP changes (Maglev and flow table vs modulo without one),
 * unhealthy DIPs, the capacity limit, drop reasons, configuration errors, Fastpath's once per
 * flow. What goes on the wire is checked in a tiny topology, client C -- MUX M -- host H
 * (point-to-point, static routes: C's route to the VIP leads to M): H's socket on UDP 4789
 * receives the VXLAN frames (outer ports, VNI, inner Ethernet type and destination still the
 * VIP), and C and H receive the Fastpath redirects on UDP 8572.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-packet-rewrite.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/adc-vxlan-header.h"
#include "ns3/core-module.h"
#include "ns3/icmpv6-l4-protocol.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv6-address-generator.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/slb-mux.h"
#include "ns3/slb-redirect-message.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using adctest::ConfigErrorOf;
using adctest::Has;

namespace
{

const Ipv4Address kVip("10.1.0.100");         // public TCP VIP
const Ipv4Address kInternalVip("10.1.0.200"); // internal TCP VIP
const Ipv6Address kVip6("fd00:99::1");

/// \param vip the VIP \param n DIPs \param proto protocol \param port VIP port
/// \param kind public or internal \return DIPs 10.10.<i>.5:8080 on hosts 192.168.0.<10+i>,
/// VNI 5000+i (i from 1)
SlbVip
MakeVip(AdcIpAddress vip,
        uint32_t n,
        uint8_t proto = AdcFlowKey::PROTO_TCP,
        uint16_t port = 80,
        SlbVipKind kind = SlbVipKind::PUBLIC)
{
    SlbVip v;
    v.name = "web";
    v.key = SlbVipKey{vip, proto, port};
    v.kind = kind;
    for (uint32_t i = 1; i <= n; ++i)
    {
        SlbDip d;
        d.address = Ipv4Address((10U << 24) | (10U << 16) | (i << 8) | 5U);
        d.port = 8080;
        d.hostPa = Ipv4Address((192U << 24) | (168U << 16) | (10U + i));
        d.vni = 5000 + i;
        v.dips.push_back(d);
    }
    return v;
}

/// \param i a number \param dst the VIP \return a distinct client flow to dst:80
AdcFlowKey
Flow(uint32_t i, AdcIpAddress dst = kVip, uint8_t proto = AdcFlowKey::PROTO_TCP)
{
    return AdcFlowKey(Ipv4Address(0x0b000000 + i * 7919U),
                      dst,
                      static_cast<uint16_t>(1024 + i % 60000),
                      80,
                      proto);
}

/// \param f a flow \param flags TCP flags \return the packet as the hook describes it
AdcIngress
Ingress(const AdcFlowKey& f, uint8_t flags = AdcTcpFlag::ACK)
{
    AdcIngress in;
    in.flow = f;
    in.status = AdcHasPorts(f.protocol) ? AdcTransportStatus::OK : AdcTransportStatus::NO_PORTS;
    in.tcpFlags = f.protocol == AdcFlowKey::PROTO_TCP ? flags : 0;
    in.bytes = 140;
    in.packet = Create<Packet>(100);
    return in;
}

/// An egress that records the verdicts and answers \c answer.
struct FakeEgress : public AdcEgress
{
    std::vector<AdcVerdict> sent; //!< verdicts
    std::string answer;           //!< Send's answer

    std::string Send(const AdcVerdict& v) override
    {
        sent.push_back(v);
        return answer;
    }
};

/// Records a MUX's traces.
struct MuxRecorder
{
    std::vector<std::pair<AdcFlowKey, SlbDip>> dips; //!< DipChoice
    std::vector<bool> fromTable;                     //!< DipChoice's fromFlowTable
    std::vector<uint16_t> srcPorts;                  //!< Encapsulate's outer source port
    std::vector<uint32_t> vnis;                      //!< Encapsulate's VNI
    std::vector<AdcFlowKey> redirects;               //!< FastpathRedirect
    std::vector<std::string> drops;                  //!< Drop reasons

    /// \param mux the MUX to record
    void Attach(Ptr<SlbMux> mux)
    {
        mux->TraceConnectWithoutContext("DipChoice",
                                        Callback<void, const AdcFlowKey&, const SlbDip&, bool>(
                                            [this](const AdcFlowKey& f, const SlbDip& d, bool t) {
                                                dips.emplace_back(f, d);
                                                fromTable.push_back(t);
                                            }));
        mux->TraceConnectWithoutContext(
            "Encapsulate",
            Callback<void, const AdcFlowKey&, const AdcIpAddress&, uint32_t, uint16_t>(
                [this](const AdcFlowKey&, const AdcIpAddress&, uint32_t vni, uint16_t port) {
                    vnis.push_back(vni);
                    srcPorts.push_back(port);
                }));
        mux->TraceConnectWithoutContext(
            "FastpathRedirect",
            Callback<void, const AdcFlowKey&, const AdcIpAddress&, const AdcIpAddress&>(
                [this](const AdcFlowKey& f, const AdcIpAddress&, const AdcIpAddress&) {
                    redirects.push_back(f);
                }));
        mux->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, const std::string&>(
                [this](Ptr<const Packet>, const std::string& r) { drops.push_back(r); }));
    }

    /// \return the DIP address of each DipChoice, in order
    std::vector<AdcIpAddress> DipAddresses() const
    {
        std::vector<AdcIpAddress> out;
        for (const auto& [f, d] : dips)
        {
            out.push_back(d.address);
        }
        return out;
    }
};

/// \param mux a MUX \param n flows \param from the first flow's number
/// \return the host PA each flow was tunnelled to (one host per DIP in MakeVip)
std::vector<AdcIpAddress>
Send(Ptr<SlbMux> mux, uint32_t n, uint32_t from = 0)
{
    FakeEgress e;
    std::vector<AdcIpAddress> hosts;
    for (uint32_t i = from; i < from + n; ++i)
    {
        EXPECT_TRUE(mux->Process(Ingress(Flow(i)), e));
        EXPECT_EQ(e.sent.size(), i - from + 1);
        hosts.push_back(e.sent.back().encapsulation.destination);
    }
    return hosts;
}

/// \param a choices \param b choices \return how many differ
std::size_t
Moved(const std::vector<AdcIpAddress>& a, const std::vector<AdcIpAddress>& b)
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        n += a[i] != b[i];
    }
    return n;
}

/// \param attrs attributes "Name=value" \return a MUX with them and the 4-DIP VIP
Ptr<SlbMux>
MakeMux(const std::map<std::string, std::string>& attrs = {}, uint32_t dips = 4)
{
    Ptr<SlbMux> mux = CreateObject<SlbMux>();
    for (const auto& [name, value] : attrs)
    {
        mux->SetAttribute(name, StringValue(value));
    }
    mux->SetVip(MakeVip(kVip, dips));
    return mux;
}

} // namespace

// REQ: SLB-04 (every MUX hosts every VIP and maps it alike), SLB-14 (active/active, 3 MUXes)
TEST(SlbMux, EveryMuxOfThePoolPicksTheSameDipAndSpreadsFlowsOverDips)
{
    constexpr uint32_t kFlows = 2000;
    const auto a = Send(MakeMux(), kFlows);
    const auto b = Send(MakeMux(), kFlows);
    const auto c = Send(MakeMux(), kFlows);
    ASSERT_EQ(a.size(), kFlows);
    EXPECT_EQ(a, b);
    EXPECT_EQ(a, c);
    std::map<AdcIpAddress, uint32_t> per;
    for (const auto& d : a)
    {
        ++per[d];
    }
    ASSERT_EQ(per.size(), 4U);
    for (const auto& [dip, n] : per)
    {
        // 500 expected each (1/4); a binomial standard deviation is about 19.
        EXPECT_GT(n, 400U) << dip;
        EXPECT_LT(n, 600U) << dip;
    }
    // The agreement comes from the shared seed: a MUX seeded otherwise agrees on about 1/4.
    const auto other = Send(MakeMux({{"MaglevSeed", "99"}}), kFlows);
    EXPECT_GT(Moved(a, other), kFlows / 2);
}

// REQ: SLB-06 (the MUX tunnels to the host holding the chosen DIP, with the DIP's VNI)
TEST(SlbMux, EncapsulatesToTheDipsHostWithItsVniAndAStableSourcePort)
{
    Ptr<SlbMux> mux = MakeMux();
    MuxRecorder r;
    r.Attach(mux);
    FakeEgress e;
    for (uint32_t round = 0; round < 3; ++round)
    {
        for (uint32_t i = 0; i < 20; ++i)
        {
            ASSERT_TRUE(mux->Process(Ingress(Flow(i)), e));
        }
    }
    ASSERT_EQ(e.sent.size(), 60U);
    std::set<uint16_t> ports;
    for (std::size_t k = 0; k < e.sent.size(); ++k)
    {
        const AdcVerdict& v = e.sent[k];
        const SlbDip& dip = r.dips[k].second;
        EXPECT_EQ(v.action, AdcVerdict::ENCAPSULATE);
        EXPECT_EQ(v.encapsulation.protocol, AdcFlowKey::PROTO_UDP);
        EXPECT_EQ(v.encapsulation.destination, dip.hostPa);
        EXPECT_EQ(r.vnis[k], dip.vni);
        EXPECT_GE(r.srcPorts[k], 49152); // RFC 7348 section 5: dynamic/private range
        EXPECT_EQ(r.srcPorts[k], r.srcPorts[k % 20]) << "one flow, one outer source port";
        ports.insert(r.srcPorts[k]);
    }
    EXPECT_GT(ports.size(), 15U); // 20 flows spread over the port range
    EXPECT_EQ(mux->GetCounters().encapsulated, 60U);
    EXPECT_EQ(mux->GetCounters().flowsCreated, 20U);
    EXPECT_EQ(mux->GetCounters().flowTableHits, 40U);
    EXPECT_EQ(mux->GetFlowCount(), 20U);
    // Not to a VIP: left to routing; a failed send is a counted drop.
    EXPECT_FALSE(mux->Process(Ingress(Flow(1, Ipv4Address("10.1.0.101"))), e));
    e.answer = "no-route";
    EXPECT_TRUE(mux->Process(Ingress(Flow(1)), e));
    EXPECT_EQ(mux->GetCounters().drops.at("no-route"), 1U);
    EXPECT_EQ(r.drops, std::vector<std::string>{"no-route"});
}

// REQ: SLB-06 (RFC 7348 section 4.3: VTEPs do not fragment; a packet that does not fit the
// provider MTU is dropped and counted, not fragmented)
TEST(SlbMux, AnEncapsulatedPacketBeyondTheProviderMtuIsDroppedNotFragmented)
{
    Ptr<SlbMux> mux = MakeMux({{"ProviderMtu", "1500"}});
    MuxRecorder r;
    r.Attach(mux);
    FakeEgress e;
    // Outer IPv4 20 + UDP 8 + VXLAN 8 + inner Ethernet 14 = 50: a 1450-byte datagram makes
    // exactly 1500, a 1451-byte one 1501.
    AdcIngress fits = Ingress(Flow(1));
    fits.bytes = 1450;
    AdcIngress over = Ingress(Flow(2));
    over.bytes = 1451;
    EXPECT_TRUE(mux->Process(fits, e));
    EXPECT_TRUE(mux->Process(over, e));
    ASSERT_EQ(e.sent.size(), 1U);
    EXPECT_EQ(e.sent[0].action, AdcVerdict::ENCAPSULATE);
    EXPECT_EQ(mux->GetCounters().drops.at("vxlan-mtu-exceeded"), 1U);
    EXPECT_EQ(r.drops, std::vector<std::string>{"vxlan-mtu-exceeded"});
    // A jumbo provider network (9000) carries a full 1500-byte client packet.
    Ptr<SlbMux> jumbo = MakeMux({{"ProviderMtu", "9000"}});
    over.bytes = 1500;
    EXPECT_TRUE(jumbo->Process(over, e));
    EXPECT_EQ(e.sent.back().action, AdcVerdict::ENCAPSULATE);
}

// REQ: SLB-10 (flows keep their DIP while DIPs change), SLB-06
TEST(SlbMux, FlowTableKeepsFlowsOnTheirDipWhileModuloWithoutItMovesThem)
{
    constexpr uint32_t kFlows = 1000;
    auto change = [](std::map<std::string, std::string> attrs, bool add) {
        Ptr<SlbMux> mux = MakeMux(attrs, add ? 4 : 5);
        const auto before = Send(mux, kFlows);
        mux->SetVip(MakeVip(kVip, add ? 5 : 4)); // a DIP added, or the fifth removed
        const auto after = Send(mux, kFlows);
        return std::make_pair(Moved(before, after), mux->GetCounters().flowsRechosen);
    };
    // Flow table: no flow moves when a DIP comes; only the removed DIP's flows (about 1/5)
    // move when one goes, each counted as re-chosen.
    EXPECT_EQ(change({{"Selection", "MAGLEV"}}, true).first, 0U);
    EXPECT_EQ(change({{"Selection", "MODULO"}}, true).first, 0U);
    const auto removed = change({}, false);
    EXPECT_EQ(removed.first, removed.second);
    EXPECT_GT(removed.first, kFlows / 10);
    EXPECT_LT(removed.first, kFlows * 3 / 10);
    // No flow table, modulo: a flow stays only when h mod 4 == h mod 5, 1/5 of them; 4/5 move.
    const auto modulo = change({{"Selection", "MODULO"}, {"FlowTable", "false"}}, true).first;
    EXPECT_GT(modulo, kFlows * 7 / 10);
    // No flow table, Maglev: only the new DIP's share (about 1/5) moves (Maglev section 3.4).
    const auto maglev = change({{"Selection", "MAGLEV"}, {"FlowTable", "false"}}, true).first;
    EXPECT_LT(maglev, kFlows * 3 / 10);
    EXPECT_GT(maglev, 0U);
}

// REQ: SLB-03 (an unhealthy DIP gets no new flow)
TEST(SlbMux, AnUnhealthyDipGetsNoNewFlowAndItsPinnedFlowsMove)
{
    Ptr<SlbMux> mux = MakeMux();
    const AdcIpAddress downHost(Ipv4Address("192.168.0.12")); // DIP 10.10.2.5's host
    const auto before = Send(mux, 1000);
    const std::size_t onDown = std::count(before.begin(), before.end(), downHost);
    ASSERT_GT(onDown, 0U);
    mux->SetDipHealth(SlbVipKey{kVip, AdcFlowKey::PROTO_TCP, 80}, Ipv4Address("10.10.2.5"), false);
    const auto after = Send(mux, 1000);
    EXPECT_EQ(std::count(after.begin(), after.end(), downHost), 0);
    EXPECT_EQ(Moved(before, after), onDown); // only its flows move
    EXPECT_EQ(mux->GetCounters().flowsRechosen, onDown);
    const auto fresh = Send(mux, 1000, 1000); // new flows
    EXPECT_EQ(std::count(fresh.begin(), fresh.end(), downHost), 0);
    // Up again: it takes new flows again.
    mux->SetDipHealth(SlbVipKey{kVip, AdcFlowKey::PROTO_TCP, 80}, Ipv4Address("10.10.2.5"), true);
    const auto back = Send(mux, 1000, 2000);
    EXPECT_GT(std::count(back.begin(), back.end(), downHost), 150);
    mux->SetDipHealth(SlbVipKey{kVip, AdcFlowKey::PROTO_TCP, 80}, Ipv4Address("10.10.2.5"), false);
    EXPECT_FALSE(mux->GetVip(SlbVipKey{kVip, AdcFlowKey::PROTO_TCP, 80}).dips[1].healthy);
    // All down: every packet is dropped with the reason.
    MuxRecorder r;
    r.Attach(mux);
    for (uint32_t i = 1; i <= 4; ++i)
    {
        mux->SetDipHealth(SlbVipKey{kVip, AdcFlowKey::PROTO_TCP, 80},
                          Ipv4Address((10U << 24) | (10U << 16) | (i << 8) | 5U),
                          false);
    }
    FakeEgress e;
    EXPECT_TRUE(mux->Process(Ingress(Flow(1)), e));
    EXPECT_TRUE(e.sent.empty());
    EXPECT_EQ(r.drops, std::vector<std::string>{"vip-no-healthy-dip"});
    EXPECT_EQ(mux->GetCounters().drops.at("vip-no-healthy-dip"), 1U);
}

// REQ: SLB-06 (per-MUX packet-rate capacity: packets beyond it are dropped and counted)
TEST(SlbMux, PacketsBeyondTheCapacityAreDroppedAndCounted)
{
    Ptr<SlbMux> mux = MakeMux({{"PacketRate", "1000"}, {"BurstPackets", "10"}});
    MuxRecorder r;
    r.Attach(mux);
    FakeEgress e;
    auto burst = [&mux, &e]() {
        for (uint32_t i = 0; i < 100; ++i)
        {
            mux->Process(Ingress(Flow(i)), e);
        }
    };
    burst(); // at 0: the bucket's 10 tokens
    // 5.5 ms later: 1000 packets/s * 5.5 ms = 5.5 tokens (5 packets); 50 ms later: full (10).
    Simulator::Schedule(MicroSeconds(5500), burst);
    Simulator::Schedule(MicroSeconds(55500), burst);
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(e.sent.size(), 25U);
    EXPECT_EQ(mux->GetCounters().drops.at("mux-over-capacity"), 275U);
    EXPECT_EQ(std::count(r.drops.begin(), r.drops.end(), "mux-over-capacity"), 275);
    EXPECT_EQ(mux->GetCounters().packets, 300U);
}

// REQ: SLB-01 (TCP and UDP VIPs), SLB-06 (only VIP traffic is taken; reasons for the rest)
TEST(SlbMux, PacketsToAVipWithoutThatPortOrProtocolAreDroppedWithAReason)
{
    Ptr<SlbMux> mux = MakeMux();
    mux->SetVip(MakeVip(kVip, 2, AdcFlowKey::PROTO_UDP, 53));
    MuxRecorder r;
    r.Attach(mux);
    FakeEgress e;
    AdcFlowKey udp = Flow(1, kVip, AdcFlowKey::PROTO_UDP);
    udp.dstPort = 53;
    EXPECT_TRUE(mux->Process(Ingress(udp), e));
    AdcFlowKey wrongPort = Flow(2);
    wrongPort.dstPort = 443;
    EXPECT_TRUE(mux->Process(Ingress(wrongPort), e));
    EXPECT_TRUE(mux->Process(Ingress(Flow(3, kVip, AdcFlowKey::PROTO_ICMP)), e));
    AdcIngress cut = Ingress(Flow(4));
    cut.status = AdcTransportStatus::TRUNCATED;
    EXPECT_TRUE(mux->Process(cut, e));
    ASSERT_EQ(e.sent.size(), 1U);
    EXPECT_EQ(e.sent[0].encapsulation.destination, r.dips[0].second.hostPa);
    EXPECT_EQ(r.dips[0].first, udp);
    EXPECT_EQ(
        r.drops,
        (std::vector<std::string>{"vip-no-port", "vip-no-port", "truncated-transport-header"}));
    EXPECT_EQ(mux->GetCounters().drops.at("vip-no-port"), 2U);
    EXPECT_TRUE(mux->IsVip(kVip));
    EXPECT_EQ(mux->GetVips().size(), 2U);
    mux->RemoveVip(SlbVipKey{kVip, AdcFlowKey::PROTO_TCP, 80});
    EXPECT_TRUE(mux->IsVip(kVip)); // the UDP VIP remains
    mux->RemoveVip(SlbVipKey{kVip, AdcFlowKey::PROTO_UDP, 53});
    EXPECT_FALSE(mux->IsVip(kVip));
    EXPECT_EQ(mux->GetFlowCount(), 0U);
}

// REQ: SLB-06 (a RST ends the flow's entry; MaxFlows bounds the table, counted)
TEST(SlbMux, RstEndsAnEntryAndAFullTableHashesNewFlowsWithoutOne)
{
    Ptr<SlbMux> mux = MakeMux({{"MaxFlows", "2"}});
    FakeEgress e;
    mux->Process(Ingress(Flow(1), AdcTcpFlag::SYN), e);
    mux->Process(Ingress(Flow(2), AdcTcpFlag::SYN), e);
    mux->Process(Ingress(Flow(3), AdcTcpFlag::SYN), e);
    EXPECT_EQ(e.sent.size(), 3U); // the third is still tunnelled
    EXPECT_EQ(mux->GetFlowCount(), 2U);
    EXPECT_EQ(mux->GetCounters().flowTableFull, 1U);
    mux->Process(Ingress(Flow(1), AdcTcpFlag::RST | AdcTcpFlag::ACK), e);
    EXPECT_EQ(mux->GetFlowCount(), 1U);
    std::ostringstream os;
    mux->Print(os);
    EXPECT_TRUE(Has(os.str(), "table full 1"));
    EXPECT_TRUE(Has(os.str(), "10.10.1.5:8080@192.168.0.11/vni5001 up"));
}

// REQ: SLB-01, SLB-04 (bad policy is refused with the setting named)
TEST(SlbMux, BadPolicyIsAConfigErrorNamingTheSetting)
{
    Ptr<SlbMux> mux = CreateObject<SlbMux>();
    SlbVip v = MakeVip(kVip, 0);
    EXPECT_TRUE(Has(ConfigErrorOf([&] { mux->SetVip(v); }), "no DIP"));
    v = MakeVip(kVip, 2, AdcFlowKey::PROTO_ICMP);
    EXPECT_TRUE(Has(ConfigErrorOf([&] { mux->SetVip(v); }), "protocol 1 is not one of 6"));
    v = MakeVip(kVip, 2);
    v.dips[1] = v.dips[0];
    EXPECT_TRUE(Has(ConfigErrorOf([&] { mux->SetVip(v); }), "listed twice"));
    v = MakeVip(kVip, 2);
    v.dips[0].vni = 1U << 24;
    EXPECT_TRUE(Has(ConfigErrorOf([&] { mux->SetVip(v); }), "VNI 16777216"));
    const SlbVipKey unknown{kVip, AdcFlowKey::PROTO_TCP, 81};
    EXPECT_TRUE(Has(ConfigErrorOf([&] { mux->RemoveVip(unknown); }), "no VIP TCP 10.1.0.100:81"));
    mux->SetVip(MakeVip(kVip, 2));
    EXPECT_TRUE(Has(ConfigErrorOf([&] {
                        mux->SetDipHealth(MakeVip(kVip, 1).key, Ipv4Address("10.9.9.9"), false);
                    }),
                    "has no DIP 10.9.9.9"));
    mux->SetAttribute("MaglevTableSize", UintegerValue(65536));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { mux->SetVip(MakeVip(kVip, 3)); }), "65536 is not prime"));
}

// REQ: SLB-01 (internal VIPs: Fastpath after the handshake, once per flow; not public VIPs)
TEST(SlbMux, FastpathRedirectsAnInternalFlowOnceAfterTheHandshake)
{
    Ptr<SlbMux> mux = MakeMux();
    mux->SetVip(MakeVip(kInternalVip, 2, AdcFlowKey::PROTO_TCP, 80, SlbVipKind::INTERNAL));
    MuxRecorder r;
    r.Attach(mux);
    const AdcFlowKey f = Flow(1, kInternalVip);
    mux->SetVmHost(f.src, Ipv4Address("192.168.0.9"));
    mux->SetVmHost(Flow(2, kInternalVip).src, Ipv4Address("192.168.0.9"));
    mux->SetVmHost(Flow(3).src, Ipv4Address("192.168.0.9"));
    FakeEgress e;
    mux->Process(Ingress(f, AdcTcpFlag::SYN), e);
    EXPECT_TRUE(r.redirects.empty()); // handshake not done
    mux->Process(Ingress(f, AdcTcpFlag::ACK), e);
    mux->Process(Ingress(f, AdcTcpFlag::ACK), e);
    mux->Process(Ingress(Flow(2, kInternalVip), AdcTcpFlag::ACK), e);
    mux->Process(Ingress(Flow(3), AdcTcpFlag::ACK), e);               // public VIP
    mux->Process(Ingress(Flow(4, kInternalVip), AdcTcpFlag::ACK), e); // VM host unknown
    EXPECT_EQ(r.redirects, (std::vector<AdcFlowKey>{f, Flow(2, kInternalVip)}));
    EXPECT_EQ(e.sent.size(), 6U); // the MUX still tunnels the packets
    EXPECT_EQ(mux->GetCounters().fastpathFlows, 2U);
    mux->SetAttribute("Fastpath", BooleanValue(false));
    mux->Process(Ingress(Flow(5, kInternalVip), AdcTcpFlag::ACK), e);
    EXPECT_EQ(r.redirects.size(), 2U);
    Simulator::Destroy(); // the redirects' send events (the MUX is on no node: nothing sent)
    EXPECT_EQ(mux->GetCounters().redirectsSent, 0U);
}

// ---- on the wire ------------------------------------------------------------------------------

namespace
{

/// C -- M -- H, point-to-point, IPv4 everywhere and IPv6 on C -- M; the MUX on M.
class SlbMuxWire : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Ipv4AddressGenerator::Reset();
        Ipv6AddressGenerator::Reset();
        m_c = CreateObject<Node>();
        m_m = CreateObject<Node>();
        m_h = CreateObject<Node>();
        NodeContainer all(m_c, m_m, m_h);
        AdcMakeListStackHelper(true).Install(all);
        for (uint32_t i = 0; i < all.GetN(); ++i)
        {
            all.Get(i)->GetObject<Icmpv6L4Protocol>()->SetAttribute("DAD", BooleanValue(false));
        }
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer cm = p2p.Install(m_c, m_m);
        NetDeviceContainer mh = p2p.Install(m_m, m_h);
        Ipv4AddressHelper a("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer icm = a.Assign(cm);
        a.SetBase("192.168.0.0", "255.255.255.0");
        Ipv4InterfaceContainer imh = a.Assign(mh);
        Ipv4StaticRoutingHelper r4;
        r4.GetStaticRouting(m_c->GetObject<Ipv4>())->SetDefaultRoute(icm.GetAddress(1), 1);
        r4.GetStaticRouting(m_h->GetObject<Ipv4>())->SetDefaultRoute(imh.GetAddress(0), 1);
        Ipv6AddressHelper a6;
        a6.SetBase(Ipv6Address("fd00:1::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer i6 = a6.Assign(cm);
        i6.SetForwarding(1, true);
        i6.SetDefaultRouteInAllNodes(1);
        m_client = icm.GetAddress(0);
        m_client6 = i6.GetAddress(0, 1);
        m_host = imh.GetAddress(1);
        m_mux = CreateObject<SlbMux>();
        m_mux->Install(m_m);
        m_rec.Attach(m_mux);
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// \param vip a VIP \param proto protocol \param port port \param kind kind
    /// \return its policy: two DIPs, both on host H (VNI 5001, 5002)
    SlbVip OnHost(AdcIpAddress vip, uint8_t proto, uint16_t port, SlbVipKind kind)
    {
        SlbVip v = MakeVip(vip, 2, proto, port, kind);
        for (SlbDip& d : v.dips)
        {
            d.hostPa = m_host;
        }
        return v;
    }

    /// \param node where \param port UDP port \return the datagrams (payload, sender port)
    std::vector<std::pair<std::vector<uint8_t>, uint16_t>>* Listen(Ptr<Node> node, uint16_t port)
    {
        auto* got = &m_got[node->GetId() * 65536 + port];
        Ptr<Socket> s = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        s->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        s->SetRecvCallback(MakeCallback(&SlbMuxWire::Read, this));
        m_readers[s] = got;
        return got;
    }

    /// \param s a socket: keep what it received
    void Read(Ptr<Socket> s)
    {
        Address from;
        while (Ptr<Packet> p = s->RecvFrom(from))
        {
            std::vector<uint8_t> b(p->GetSize());
            p->CopyData(b.data(), b.size());
            m_readers[s]->emplace_back(b, InetSocketAddress::ConvertFrom(from).GetPort());
        }
    }

    /// \param to the VIP \param port its port \param srcPort the client's port \param n packets
    void SendUdp(AdcIpAddress to, uint16_t port, uint16_t srcPort, uint32_t n)
    {
        Ptr<Socket> s = Socket::CreateSocket(m_c, UdpSocketFactory::GetTypeId());
        if (to.IsV6())
        {
            s->Bind(Inet6SocketAddress(Ipv6Address::GetAny(), srcPort));
        }
        else
        {
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), srcPort));
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(MilliSeconds(10 * (i + 1)), [s, to, port]() {
                const Address a = to.IsV6() ? Address(Inet6SocketAddress(to.GetIpv6(), port))
                                            : Address(InetSocketAddress(to.GetIpv4(), port));
                s->SendTo(Create<Packet>(64), 0, a);
            });
        }
    }

    /// \param b a VXLAN payload (after the outer UDP header) \return its VNI (RFC 7348: bytes
    /// 4-6 of the VXLAN header)
    static uint32_t Vni(const std::vector<uint8_t>& b)
    {
        return (b[4] << 16) | (b[5] << 8) | b[6];
    }

    Ptr<Node> m_c;         //!< client
    Ptr<Node> m_m;         //!< MUX node
    Ptr<Node> m_h;         //!< host
    Ipv4Address m_client;  //!< C's address
    Ipv6Address m_client6; //!< C's IPv6 address
    Ipv4Address m_host;    //!< H's provider address
    Ptr<SlbMux> m_mux;     //!< the MUX
    MuxRecorder m_rec;     //!< its traces
    std::map<uint32_t, std::vector<std::pair<std::vector<uint8_t>, uint16_t>>> m_got; //!< rx
    std::map<Ptr<Socket>, std::vector<std::pair<std::vector<uint8_t>, uint16_t>>*>
        m_readers; //!< socket -> what it received
};

} // namespace

// REQ: SLB-01 (UDP VIP), SLB-06 (VXLAN from the MUX to the DIP's host, VIP kept inside)
TEST_F(SlbMuxWire, AUdpVipsPacketsReachTheHostInVxlanWithTheVipInside)
{
    m_mux->SetVip(OnHost(Ipv4Address("10.1.0.53"), AdcFlowKey::PROTO_UDP, 53, SlbVipKind::PUBLIC));
    auto* got = Listen(m_h, kVxlanPort);
    SendUdp(Ipv4Address("10.1.0.53"), 53, 40001, 3);
    SendUdp(Ipv4Address("10.1.0.53"), 53, 40002, 3);
    Simulator::Run();

    ASSERT_EQ(got->size(), 6U); // UDP 4789: the socket's port
    ASSERT_EQ(m_rec.dips.size(), 6U);
    std::map<uint16_t, std::set<uint16_t>> outerPortsByClientPort;
    for (std::size_t k = 0; k < got->size(); ++k)
    {
        const auto& [b, outerSrcPort] = (*got)[k];
        ASSERT_EQ(b.size(), 8U + 14U + 20U + 8U + 64U); // VXLAN, Ethernet, IPv4, UDP, payload
        EXPECT_EQ(b[0], 0x08);                          // the I flag only
        EXPECT_GE(outerSrcPort, 49152);
        EXPECT_EQ(b[20], 0x08); // inner Ethernet type 0x0800
        EXPECT_EQ(b[21], 0x00);
        const uint8_t* ip = b.data() + 22;
        EXPECT_EQ(Ipv4Address::Deserialize(ip + 16), Ipv4Address("10.1.0.53")); // still the VIP
        EXPECT_EQ(Ipv4Address::Deserialize(ip + 12), m_client);
        const uint16_t clientPort = (ip[20] << 8) | ip[21];
        outerPortsByClientPort[clientPort].insert(outerSrcPort);
        // The VNI of the DIP the MUX chose for this packet.
        const SlbDip& dip = m_rec.dips[k].second;
        EXPECT_EQ(Vni(b), dip.vni);
    }
    ASSERT_EQ(outerPortsByClientPort.size(), 2U);
    for (const auto& [client, ports] : outerPortsByClientPort)
    {
        EXPECT_EQ(ports.size(), 1U) << "flow from port " << client;
    }
    EXPECT_EQ(m_mux->GetCounters().encapsulated, 6U);
}

// REQ: SLB-13 (an IPv6 VIP over the IPv4 provider network), SLB-06
TEST_F(SlbMuxWire, AnIpv6VipIsTunnelledOverTheIpv4ProviderNetwork)
{
    m_mux->SetVip(OnHost(kVip6, AdcFlowKey::PROTO_UDP, 53, SlbVipKind::PUBLIC));
    auto* got = Listen(m_h, kVxlanPort);
    SendUdp(kVip6, 53, 40001, 2);
    Simulator::Run();

    ASSERT_EQ(got->size(), 2U);
    for (const auto& [b, port] : *got)
    {
        ASSERT_EQ(b.size(), 8U + 14U + 40U + 8U + 64U);
        EXPECT_EQ(b[20], 0x86); // inner Ethernet type 0x86DD
        EXPECT_EQ(b[21], 0xDD);
        uint8_t dst[16];
        std::copy(b.begin() + 22 + 24, b.begin() + 22 + 40, dst);
        EXPECT_EQ(Ipv6Address(dst), kVip6);
        EXPECT_EQ(Vni(b), m_rec.dips[0].second.vni);
    }
    EXPECT_EQ(m_rec.dips.size(), 2U);
    EXPECT_EQ(m_rec.dips[0].first.src, AdcIpAddress(m_client6));
}

// REQ: SLB-01 (Fastpath: the MUX tells both hosts, in UDP to RedirectPort, once per flow)
TEST_F(SlbMuxWire, FastpathRedirectsReachBothHostsOncePerFlow)
{
    m_mux->SetVip(OnHost(kInternalVip, AdcFlowKey::PROTO_TCP, 80, SlbVipKind::INTERNAL));
    const AdcFlowKey f(m_client, kInternalVip, 40000, 80, AdcFlowKey::PROTO_TCP);
    m_mux->SetVmHost(m_client, m_client); // C is the client VM's host
    auto* atClient = Listen(m_c, kSlbRedirectPort);
    auto* atHost = Listen(m_h, kSlbRedirectPort);
    FakeEgress e;
    for (uint32_t i = 1; i <= 3; ++i)
    {
        Simulator::Schedule(Seconds(i), [this, f, &e]() { m_mux->Process(Ingress(f), e); });
    }
    Simulator::Run();

    ASSERT_EQ(atClient->size(), 1U);
    ASSERT_EQ(atHost->size(), 1U);
    ASSERT_EQ(m_rec.dips.size(), 3U);
    const SlbDip& dip = m_rec.dips[0].second;
    SlbRedirectMessage expected;
    expected.flow = f;
    expected.dip = dip.address;
    expected.dipPort = 8080;
    expected.dipHostPa = m_host;
    expected.clientHostPa = m_client;
    expected.vni = dip.vni;
    for (const auto* got : {atClient, atHost})
    {
        std::string error;
        const auto m = SlbRedirectMessage::Parse((*got)[0].first, &error);
        ASSERT_TRUE(m.has_value()) << error;
        EXPECT_EQ(*m, expected) << m->ToString();
    }
    EXPECT_EQ(m_mux->GetCounters().redirectsSent, 2U);
    EXPECT_EQ(m_rec.redirects.size(), 1U);
}
