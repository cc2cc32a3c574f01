/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IP fragments through the SLB host switch: reassembly rules (RFC 791, RFC 8200, RFC 5722,
 * Linux's ipfrag_time and ipfrag_high_thresh), NAT of every fragment of a translated datagram
 * in both directions, refragmentation at the largest fragment received (Linux's
 * ip_do_fragment), and the end-to-end runs with full-size segments and timestamps.
 */

#include "adc-test-accounting.h"
#include "slb-test-fixture.h"

#include "ns3/adc-stack-helper.h"
#include "ns3/error-model.h"
#include "ns3/point-to-point-module.h"
#include "ns3/slb-reassembly.h"

#include <gtest/gtest.h>
#include <set>

using namespace ns3;

namespace
{

/// \param n bytes \param seed first byte \return a payload whose bytes count up from seed
Ptr<Packet>
Bytes(uint32_t n, uint8_t seed = 0)
{
    std::vector<uint8_t> b(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        b[i] = static_cast<uint8_t>(seed + i);
    }
    return Create<Packet>(b.data(), n);
}

/// \param p a packet \return its bytes
std::vector<uint8_t>
Of(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

SlbFragmentKey
Key(uint32_t id = 7)
{
    SlbFragmentKey k;
    k.src = Ipv4Address("10.10.20.5");
    k.dst = Ipv4Address("172.16.0.2");
    k.protocol = AdcFlowKey::PROTO_UDP;
    k.id = id;
    return k;
}

/// What a device carried, read from the IP header on (a PPP header is skipped).
struct IpSeen
{
    AdcIpAddress src;     //!< source
    uint32_t bytes{0};    //!< IP bytes
    bool fragment{false}; //!< an IPv4 fragment or an IPv6 fragment header
};

/// \param p a packet at a point-to-point device's MacTx / MacRx \return what it carried
IpSeen
Read(Ptr<const Packet> p)
{
    uint8_t b[48] = {};
    const uint32_t n = p->CopyData(b, sizeof(b));
    uint32_t o = (b[0] >> 4) == 4 || (b[0] >> 4) == 6 ? 0 : 2; // PPP protocol field
    IpSeen s;
    if (n < o + 40)
    {
        return s;
    }
    const uint8_t* ip = b + o;
    s.bytes = p->GetSize() - o;
    if ((ip[0] >> 4) == 4)
    {
        s.src = Ipv4Address::Deserialize(ip + 12);
        s.fragment = (ip[6] & 0x20) != 0 || ((ip[6] & 0x1f) | ip[7]) != 0;
    }
    else
    {
        s.src = Ipv6Address(const_cast<uint8_t*>(ip + 8));
        s.fragment = ip[6] == 44;
    }
    return s;
}

/// \param device a device \param trace "MacTx" or "MacRx" \param out where to record
void
Sniff(Ptr<NetDevice> device, const std::string& trace, std::vector<IpSeen>& out)
{
    device->TraceConnectWithoutContext(
        trace,
        Callback<void, Ptr<const Packet>>([&out](Ptr<const Packet> p) { out.push_back(Read(p)); }));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// SlbReassembly: the rules, from RFC 791 / RFC 8200 / RFC 5722 and Linux's defaults

// REQ: SLB-07 (no fragment of a reply may leave untranslated: the host must see it whole)
TEST(SlbReassembly, FragmentsInAnyOrderMakeTheDatagramOnceTheLastHoleCloses)
{
    // RFC 791: 3,008 bytes of UDP at MTU 1500 are fragments of 1480, 1480 and 48 bytes at
    // offsets 0, 1480 and 2960 (8-byte units 0, 185, 370).
    Ptr<Packet> whole = Bytes(3008);
    SlbReassembly r;
    const Time t = Seconds(1);
    auto add = [&](uint32_t off, uint32_t len, bool more) {
        return r.Add(Key(), off, more, whole->CreateFragment(off, len), whole, len + 20, t);
    };
    EXPECT_EQ(add(2960, 48, false).kind, SlbReassembly::Result::QUEUED);
    EXPECT_EQ(add(0, 1480, true).kind, SlbReassembly::Result::QUEUED);
    EXPECT_EQ(r.GetMemory(), 1528U);
    const SlbReassembly::Result done = add(1480, 1480, true);
    ASSERT_EQ(done.kind, SlbReassembly::Result::COMPLETE);
    EXPECT_EQ(Of(done.payload), Of(whole));
    EXPECT_EQ(done.maxFragmentBytes, 1500U); // Linux's frag_max_size: the refragmenting size
    EXPECT_EQ(done.fragments, 3U);
    EXPECT_EQ(r.GetQueues(), 0U);
    EXPECT_EQ(r.GetMemory(), 0U);
    // Another identification is another datagram (RFC 791 section 3.2).
    EXPECT_EQ(r.Add(Key(8), 0, true, Bytes(8), whole, 28, t).kind, SlbReassembly::Result::QUEUED);
    EXPECT_EQ(r.GetQueues(), 1U);
}

// REQ: SLB-07
TEST(SlbReassembly, AnOverlapDropsTheDatagramAndADuplicateOnlyItself)
{
    SlbReassembly r;
    Ptr<Packet> a = Bytes(16);
    EXPECT_EQ(r.Add(Key(), 0, true, a, a, 36, Seconds(0)).kind, SlbReassembly::Result::QUEUED);
    // Same offset and length: Linux's IPFRAG_DUP drops only the copy.
    SlbReassembly::Result dup = r.Add(Key(), 0, true, a, a, 36, Seconds(0));
    EXPECT_EQ(dup.kind, SlbReassembly::Result::DROPPED);
    EXPECT_EQ(dup.reason, "frag-duplicate");
    EXPECT_EQ(dup.dropped.size(), 1U);
    EXPECT_EQ(r.GetQueues(), 1U);
    // Offset 8 overlaps bytes 8..15: RFC 5722 (and Linux for IPv4 since 4.19) drops it all.
    Ptr<Packet> b = Bytes(16);
    SlbReassembly::Result ov = r.Add(Key(), 8, false, b, b, 36, Seconds(0));
    EXPECT_EQ(ov.kind, SlbReassembly::Result::DROPPED);
    EXPECT_EQ(ov.reason, "frag-overlap");
    EXPECT_EQ(ov.dropped.size(), 2U); // the queued one and this one
    EXPECT_EQ(r.GetQueues(), 0U);
    EXPECT_EQ(r.GetMemory(), 0U);
}

// REQ: SLB-07
TEST(SlbReassembly, MalformedFragmentsAreDroppedWithTheirReasons)
{
    SlbReassembly r;
    // RFC 791 / RFC 8200: every fragment but the last carries a multiple of 8 bytes.
    EXPECT_EQ(r.Add(Key(), 0, true, Bytes(12), Bytes(12), 32, Seconds(0)).reason,
              "frag-bad-length");
    // The datagram may not end beyond 65,535 bytes (the 16-bit length fields).
    EXPECT_EQ(r.Add(Key(), 65528, false, Bytes(16), Bytes(16), 36, Seconds(0)).reason,
              "frag-too-big");
    // A second last fragment with another end contradicts the first.
    EXPECT_EQ(r.Add(Key(), 16, false, Bytes(8), Bytes(8), 28, Seconds(0)).kind,
              SlbReassembly::Result::QUEUED);
    SlbReassembly::Result bad = r.Add(Key(), 32, false, Bytes(8), Bytes(8), 28, Seconds(0));
    EXPECT_EQ(bad.reason, "frag-inconsistent");
    EXPECT_EQ(bad.dropped.size(), 2U);
    // Linux's ipfrag_high_thresh: nothing beyond the memory limit is queued.
    r.SetLimits(Seconds(30), 100);
    EXPECT_EQ(r.Add(Key(1), 0, true, Bytes(96), Bytes(96), 116, Seconds(0)).kind,
              SlbReassembly::Result::QUEUED);
    EXPECT_EQ(r.Add(Key(2), 0, true, Bytes(8), Bytes(8), 28, Seconds(0)).reason, "frag-memory");
}

// REQ: SLB-07
TEST(SlbReassembly, AnIncompleteDatagramExpiresThirtySecondsAfterItsFirstFragment)
{
    SlbReassembly r; // Linux's net.ipv4.ipfrag_time default: 30 s from the first fragment
    r.Add(Key(), 0, true, Bytes(8), Bytes(8), 28, Seconds(2));
    r.Add(Key(), 16, false, Bytes(8), Bytes(8), 28, Seconds(20)); // does not restart the clock
    EXPECT_EQ(r.NextExpiry(), Seconds(32));
    EXPECT_TRUE(r.Expire(Seconds(32) - NanoSeconds(1)).empty());
    const auto gone = r.Expire(Seconds(32));
    ASSERT_EQ(gone.size(), 1U);
    EXPECT_EQ(gone[0].dropped.size(), 2U);
    EXPECT_EQ(r.GetQueues(), 0U);
    EXPECT_EQ(r.NextExpiry(), Time::Max());
}

// ---------------------------------------------------------------------------------------------
// The switch: a gateway G, the host H with its switch, a VM V (DIP 10.10.20.5)

namespace
{

/// G (192.0.2.1) -- H -- V (10.10.20.5), IPv4, UDP VIP 107.105.47.60:53 -> V:5353.
class SlbHostFragmentTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        g = CreateObject<Node>();
        h = CreateObject<Node>();
        v = CreateObject<Node>();
        AdcMakeListStackHelper(false).Install(NodeContainer(g, h, v));
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        gh = p2p.Install(g, h);
        hv = p2p.Install(h, v);
        Ipv4AddressHelper a;
        a.SetBase("192.0.2.0", "255.255.255.0");
        a.Assign(gh);
        a.SetBase("10.10.20.0", "255.255.255.0", "0.0.0.5");
        Ipv4InterfaceContainer vi = a.Assign(NetDeviceContainer(hv.Get(1)));
        a.SetBase("10.10.20.0", "255.255.255.0", "0.0.0.1");
        a.Assign(NetDeviceContainer(hv.Get(0)));
        Ipv4StaticRoutingHelper rh;
        rh.GetStaticRouting(g->GetObject<Ipv4>())->SetDefaultRoute(Ipv4Address("192.0.2.2"), 1);
        rh.GetStaticRouting(v->GetObject<Ipv4>())->SetDefaultRoute(Ipv4Address("10.10.20.1"), 1);
        sw = CreateObject<SlbHostSwitch>();
        AdcInstallDatapath(h, sw, 100);
        sw->AddVmPort(2, vi.GetAddress(0), 0, 10);
        SlbDip d;
        d.address = vi.GetAddress(0);
        d.port = 5353;
        sw->SetNatRule({Ipv4Address("107.105.47.60"), AdcFlowKey::PROTO_UDP, 53}, d);
        sw->TraceConnectWithoutContext("Drop",
                                       Callback<void, Ptr<const Packet>, const std::string&>(
                                           [this](Ptr<const Packet>, const std::string& r) {
                                               drops.emplace_back(Simulator::Now(), r);
                                           }));
        // V echoes what it gets; G records what comes back and from where.
        echo = Socket::CreateSocket(v, UdpSocketFactory::GetTypeId());
        echo->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5353));
        echo->SetRecvCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> s) {
            Address from;
            while (Ptr<Packet> p = s->RecvFrom(from))
            {
                vmGot.push_back(p->GetSize());
                s->SendTo(Bytes(p->GetSize(), 1), 0, from);
            }
        }));
        client = Socket::CreateSocket(g, UdpSocketFactory::GetTypeId());
        client->Bind(InetSocketAddress(Ipv4Address::GetAny(), 40000));
        client->SetRecvCallback(Callback<void, Ptr<Socket>>([this](Ptr<Socket> s) {
            Address from;
            while (Ptr<Packet> p = s->RecvFrom(from))
            {
                gotFrom.push_back(InetSocketAddress::ConvertFrom(from));
                gotBytes.push_back(Of(p));
            }
        }));
        Sniff(gh.Get(0), "MacRx", atG);
        Sniff(hv.Get(1), "MacRx", atV);
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// \param bytes UDP payload G sends to the VIP at 1 s
    void Send(uint32_t bytes)
    {
        Simulator::Schedule(Seconds(1), [this, bytes]() {
            client->SendTo(Bytes(bytes), 0, InetSocketAddress(Ipv4Address("107.105.47.60"), 53));
        });
    }

    Ptr<Node> g, h, v;                               //!< the nodes
    NetDeviceContainer gh, hv;                       //!< the links
    Ptr<SlbHostSwitch> sw;                           //!< H's switch
    Ptr<Socket> echo, client;                        //!< V's echo, G's client
    std::vector<uint32_t> vmGot;                     //!< datagram sizes V received
    std::vector<InetSocketAddress> gotFrom;          //!< where G's replies came from
    std::vector<std::vector<uint8_t>> gotBytes;      //!< their bytes
    std::vector<IpSeen> atG, atV;                    //!< packets G and V received
    std::vector<std::pair<Time, std::string>> drops; //!< the switch's drops
};

} // namespace

// REQ: SLB-06 (inbound: VIP -> DIP), SLB-07 (outbound: the client never sees the DIP)
TEST_F(SlbHostFragmentTest, EveryFragmentOfATranslatedDatagramIsTranslatedBothWays)
{
    Send(3000); // 3,008 bytes of UDP: fragments of 1500, 1500 and 68 IP bytes at MTU 1500
    Simulator::Run();
    ASSERT_EQ(vmGot, std::vector<uint32_t>{3000}); // V got it whole, on its DIP port
    ASSERT_EQ(gotFrom.size(), 1U);
    EXPECT_EQ(gotFrom[0].GetIpv4(), Ipv4Address("107.105.47.60"));
    EXPECT_EQ(gotFrom[0].GetPort(), 53);
    EXPECT_EQ(gotBytes[0], Of(Bytes(3000, 1)));
    // Both directions went as three fragments of at most the largest received (Linux
    // refragments at frag_max_size): 1500, 1500, 68.
    for (const auto* seen : {&atV, &atG})
    {
        std::vector<uint32_t> sizes;
        for (const IpSeen& s : *seen)
        {
            EXPECT_TRUE(s.fragment);
            sizes.push_back(s.bytes);
        }
        EXPECT_EQ(sizes, (std::vector<uint32_t>{1500, 1500, 68}));
    }
    for (const IpSeen& s : atG)
    {
        EXPECT_EQ(s.src, AdcIpAddress(Ipv4Address("107.105.47.60"))) << "a DIP leaked";
    }
    const SlbHostSwitchCounters& c = sw->GetCounters();
    EXPECT_EQ(c.fragmentsIn, 6U);
    EXPECT_EQ(c.reassembled, 2U);
    EXPECT_EQ(c.fragmentsOut, 6U);
    EXPECT_EQ(c.natIn, 1U);
    EXPECT_EQ(c.natOut, 1U);
    EXPECT_TRUE(drops.empty());
}

// REQ: SLB-06
TEST_F(SlbHostFragmentTest, ASmallerLinkToTheVmCutsAtItsMtu)
{
    for (uint32_t i = 0; i < 2; ++i)
    {
        hv.Get(i)->SetMtu(1400);
    }
    Send(3000);
    Simulator::Run();
    ASSERT_EQ(vmGot, std::vector<uint32_t>{3000});
    // Not DF, largest fragment 1500 above the MTU: cut at the MTU, every fragment but the last
    // a multiple of 8 (RFC 791): (1400 - 20) & ~7 = 1376 bytes, 1396 on the wire; 3008 =
    // 1376 + 1376 + 256.
    std::vector<uint32_t> sizes;
    for (const IpSeen& s : atV)
    {
        sizes.push_back(s.bytes);
    }
    EXPECT_EQ(sizes, (std::vector<uint32_t>{1396, 1396, 276}));
}

// REQ: SLB-07 (nothing lost silently: a lost fragment's siblings are dropped with a reason)
TEST_F(SlbHostFragmentTest, ADatagramMissingAFragmentIsDroppedAtTheReassemblyTimeout)
{
    Ptr<ReceiveListErrorModel> loss = CreateObject<ReceiveListErrorModel>();
    loss->SetList({1}); // H loses the second fragment it receives from G
    gh.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
    Send(3000);
    Simulator::Stop(Seconds(40));
    Simulator::Run();
    EXPECT_TRUE(vmGot.empty());
    EXPECT_TRUE(atV.empty()) << "no fragment went on untranslated";
    // Linux's ipfrag_time: 30 s after the first fragment arrived: sent at 1 s, then 1,502
    // bytes (1500 and PPP's 2) at 1 Gbps = 12,016 ns and the 1 ms delay.
    ASSERT_EQ(drops.size(), 2U);
    for (const auto& [at, reason] : drops)
    {
        EXPECT_EQ(reason, "frag-timeout");
        EXPECT_EQ(at, Seconds(31) + MilliSeconds(1) + NanoSeconds(12016));
    }
    EXPECT_EQ(sw->GetDropCount("frag-timeout"), 2U);
    EXPECT_EQ(sw->GetReassembly().GetQueues(), 0U);
}

// ---------------------------------------------------------------------------------------------
// End to end: the data centre with full-size segments and timestamps

namespace
{

/// Full-size segments: ns-3's 1460-byte SegmentSize plus the 12-byte timestamp option and 40
/// bytes of headers make 1,512-byte IPv4 datagrams (1,532 IPv6): every full segment is
/// fragmented at the VMs' 1500-byte links.
class SlbHostFragmentEndToEnd : public ::testing::TestWithParam<bool>
{
  protected:
    void TearDown() override
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(536));
        Config::SetDefault("ns3::SlbHostAgent::CapSegmentSize", BooleanValue(true));
    }

    /// \param cap the agents' CapSegmentSize \return the bed, run: 2 clients x 5 requests
    std::unique_ptr<SlbBed> RunBed(bool cap)
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1460));
        Config::SetDefault("ns3::SlbHostAgent::CapSegmentSize", BooleanValue(cap));
        Ptr<SlbTopologyHelper> helper = CreateObject<SlbTopologyHelper>();
        helper->SetAttribute("Clients", UintegerValue(2));
        helper->SetAttribute("Muxes", UintegerValue(3));
        helper->SetAttribute("Ipv6", BooleanValue(GetParam()));
        auto bed = std::make_unique<SlbBed>(helper);
        TypeId::AttributeInformation info;
        TcpSocket::GetTypeId().LookupAttributeByName("SegmentSize", &info);
        segmentSize = DynamicCast<const UintegerValue>(info.initialValue)->Get();
        bed->AddSeedVip();
        bed->AddServers();
        // Leaving every host towards the ToR, and arriving at every client.
        for (uint32_t k = 0; k < bed->t.hosts.GetN(); ++k)
        {
            Sniff(bed->t.links["tor-host" + std::to_string(k + 1)].Get(1), "MacTx", fromHosts);
        }
        for (uint32_t k = 0; k < bed->t.clients.GetN(); ++k)
        {
            Sniff(bed->t.links["client" + std::to_string(k + 1) + "-edge"].Get(0),
                  "MacRx",
                  atClients);
        }
        const Address vip = GetParam() ? Address(Inet6SocketAddress(bed->vip6.GetIpv6(), 80))
                                       : Address(InetSocketAddress(bed->vip.GetIpv4(), 80));
        bed->AddClients(vip, 5, Seconds(2), Seconds(0.2));
        bed->Run(Seconds(6));
        return bed;
    }

    /// \param bed a bed \param seen packets \return how many came from a DIP
    static uint32_t FromDips(const SlbBed& bed, const std::vector<IpSeen>& seen)
    {
        std::set<AdcIpAddress> dips(bed.t.vmAddress.begin(), bed.t.vmAddress.end());
        dips.insert(bed.t.vmAddress6.begin(), bed.t.vmAddress6.end());
        uint32_t n = 0;
        for (const IpSeen& s : seen)
        {
            n += dips.count(s.src);
        }
        return n;
    }

    uint32_t segmentSize{0};       //!< the SegmentSize default after the build
    std::vector<IpSeen> fromHosts; //!< every packet the hosts sent to the ToR
    std::vector<IpSeen> atClients; //!< every packet the clients received
};

} // namespace

// REQ: SLB-07 (the client never sees a DIP), SLB-13 (IPv4 and IPv6)
TEST_P(SlbHostFragmentEndToEnd, FragmentedRepliesNeverLeakADipAndEveryRequestCompletes)
{
    std::unique_ptr<SlbBed> bed = RunBed(false);
    EXPECT_EQ(segmentSize, 1460U) << "CapSegmentSize false keeps the configured size";
    EXPECT_TRUE(AdcExpectAccounting(bed->Tally(), AdcAccountingExpectation::Completed(10)));
    uint32_t fragments = 0;
    for (const IpSeen& s : fromHosts)
    {
        fragments += s.fragment;
        EXPECT_LE(s.bytes, 1500U);
    }
    // 10 KB objects: every reply has full segments, each fragmented by its VM.
    EXPECT_GE(fragments, 2U * 10U);
    EXPECT_EQ(FromDips(*bed, fromHosts), 0U);
    EXPECT_EQ(FromDips(*bed, atClients), 0U);
    uint64_t reassembled = 0;
    for (const auto& sw : bed->t.hostSwitch)
    {
        reassembled += sw->GetCounters().reassembled;
        EXPECT_EQ(sw->GetCounters().TotalDrops(), 0U);
    }
    EXPECT_GE(reassembled, 10U);
}

// REQ: SLB-06 (the clamp's effect: full segments fit the tunnel), SLB-07
TEST_P(SlbHostFragmentEndToEnd, TheCappedSegmentSizeAvoidsFragmentsAltogether)
{
    std::unique_ptr<SlbBed> bed = RunBed(true);
    // 1500 - VXLAN's 50 (outer IPv4 20, UDP 8, VXLAN 8, Ethernet 14) - inner IP (20, or 40
    // when the hosts carry IPv6) - TCP 20 = the clamped MSS 1410 / 1390; minus the 12-byte
    // timestamp option, as Linux's tcp_current_mss subtracts it: 1398 / 1378.
    EXPECT_EQ(segmentSize, GetParam() ? 1378U : 1398U);
    EXPECT_TRUE(AdcExpectAccounting(bed->Tally(), AdcAccountingExpectation::Completed(10)));
    for (const IpSeen& s : fromHosts)
    {
        EXPECT_FALSE(s.fragment);
        EXPECT_LE(s.bytes + 50U, 1500U) << "a full segment would fit VXLAN over IPv4 at 1500";
    }
    EXPECT_EQ(FromDips(*bed, fromHosts), 0U);
    EXPECT_EQ(FromDips(*bed, atClients), 0U);
}

INSTANTIATE_TEST_SUITE_P(BothFamilies,
                         SlbHostFragmentEndToEnd,
                         ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& i) {
                             return i.param ? std::string("Ipv6") : std::string("Ipv4");
                         });
