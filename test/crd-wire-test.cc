/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CRD-03 on the wire: every client packet the upper tier balances is captured on the device it
 * entered the upper appliance by and on the device it left by (matched by packet uid), and the
 * two datagrams are compared byte for byte.
 *
 * What NetScaler's MAC-based redirection (`add lb vserver ... -m MAC`, the seed's "mode de
 * redirection basé sur Mac") changes, from the NetScaler documentation ("Configure the
 * redirection mode"): "The destination MAC address is changed to the server's MAC address.
 * However, the destination IP address is not changed." The packet is addressed to a configured
 * virtual server (the ANY vserver on `*`), so it is load-balanced, not routed: L3 mode only
 * routes packets "not destined for an IP address owned by the appliance (that is, the IP
 * address is not the NSIP, a MIP, a SNIP, a configured service, or a configured virtual
 * server)" ("Packet forwarding modes"). So the IP header (addresses, identification, flags,
 * protocol, length), the TCP header (ports, sequence numbers, flags) and the payload leave as
 * they came; the frame's source is the appliance's own interface and its destination the lower
 * appliance's. The fabric links are point-to-point (PPP framing carries no MAC address), so
 * the MAC addresses are those of the transmitting device and of the device that received the
 * same packet at the other end.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-http-client.h"
#include "ns3/core-module.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/csma-net-device.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ppp-header.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One capture of a packet on one device.
struct Seen
{
    Ptr<NetDevice> device;      //!< where
    std::vector<uint8_t> bytes; //!< the IP datagram (link header and trailer removed)
    Time when;                  //!< when
};

/// Everything captured, by packet uid.
struct Capture
{
    std::map<uint64_t, Seen> upperIn;  //!< received by an upper appliance
    std::map<uint64_t, Seen> upperOut; //!< sent by an upper appliance
    std::map<uint64_t, Seen> lowerIn;  //!< received by a lower appliance
};

/// \return the IPv4 datagram \p frame carries on \p dev, or empty for anything else
std::vector<uint8_t>
DatagramOf(Ptr<NetDevice> dev, Ptr<const Packet> frame)
{
    Ptr<Packet> p = frame->Copy();
    uint16_t protocol = 0;
    if (DynamicCast<PointToPointNetDevice>(dev))
    {
        PppHeader ppp;
        p->RemoveHeader(ppp);
        protocol = ppp.GetProtocol() == 0x0021 ? 0x0800 : 0;
    }
    else if (DynamicCast<CsmaNetDevice>(dev))
    {
        EthernetHeader eth(false);
        p->RemoveHeader(eth);
        EthernetTrailer fcs;
        p->RemoveTrailer(fcs);
        protocol = eth.GetLengthType();
    }
    if (protocol != 0x0800)
    {
        return {};
    }
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/// \p device is a plain pointer: a Ptr bound into the device's own trace would keep it alive
/// (a reference cycle that LeakSanitizer reports).
void
Record(std::map<uint64_t, Seen>* into, NetDevice* device, Ptr<const Packet> frame)
{
    Ptr<NetDevice> dev(device);
    std::vector<uint8_t> bytes = DatagramOf(dev, frame);
    if (!bytes.empty())
    {
        (*into)[frame->GetUid()] = {dev, std::move(bytes), Simulator::Now()};
    }
}

/// Watch every device of \p node: frames received into \p rx, frames sent into \p tx.
void
Watch(Ptr<Node> node, std::map<uint64_t, Seen>* rx, std::map<uint64_t, Seen>* tx)
{
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        Ptr<NetDevice> dev = node->GetDevice(d);
        if (rx)
        {
            dev->TraceConnectWithoutContext("PhyRxEnd",
                                            MakeBoundCallback(&Record, rx, PeekPointer(dev)));
        }
        if (tx)
        {
            dev->TraceConnectWithoutContext("PhyTxBegin",
                                            MakeBoundCallback(&Record, tx, PeekPointer(dev)));
        }
    }
}

/// Big-endian 16 bits at \p at.
uint16_t
U16(const std::vector<uint8_t>& b, std::size_t at)
{
    return static_cast<uint16_t>(b[at] << 8 | b[at + 1]);
}

/// Big-endian 32 bits at \p at.
uint32_t
U32(const std::vector<uint8_t>& b, std::size_t at)
{
    return static_cast<uint32_t>(U16(b, at)) << 16 | U16(b, at + 2);
}

/// IPv4 header fields (RFC 791): TTL at byte 8, header checksum at 10-11.
constexpr std::size_t kTtl = 8;
constexpr std::size_t kChecksum = 10;

class CrdWire : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// The seed's topology (2 upper, 4 lower, 3 caches), one client, traffic at 2 s and 4 s.
    void BuildAndRun()
    {
        Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
        h->SetAttribute("CacheLbMethod", StringValue("URLHASH"));
        topo = h->Build();
        for (uint32_t i = 0; i < topo.upper.GetN(); ++i)
        {
            Watch(topo.upper.Get(i), &cap.upperIn, &cap.upperOut);
        }
        for (uint32_t j = 0; j < topo.lower.GetN(); ++j)
        {
            Watch(topo.lower.Get(j), &cap.lowerIn, nullptr);
        }
        client = CreateObject<AdcHttpClient>();
        client->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        client->SetAttribute("Persistent", BooleanValue(false));
        client->SetAttribute("InterRequestTime",
                             StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
        client->SetStartTime(Seconds(1));
        client->SetStopTime(Seconds(9));
        topo.isp.GetClient(0)->AddApplication(client);
        Ptr<AdcHttpClient> c = client;
        // A cacheable request (to a cache) and a bypass (to the origin): both enter the upper
        // tier as client packets to the origin's address.
        Simulator::Schedule(Seconds(2), [c]() { c->IssueRequest("/obj/1"); });
        Simulator::Schedule(Seconds(4), [c]() { c->IssueRequest("/obj/2?nocache=1"); });
        Simulator::Stop(Seconds(10));
        Simulator::Run();
    }

    /// \return the client packets (client -> origin:80) that crossed an upper appliance
    std::vector<uint64_t> BalancedClientPackets() const
    {
        const uint32_t clientIp = topo.isp.GetClientAddress(0).Get();
        std::vector<uint64_t> uids;
        for (const auto& [uid, in] : cap.upperIn)
        {
            const std::vector<uint8_t>& b = in.bytes;
            if (b.size() >= 40 && b[9] == 6 && U32(b, 12) == clientIp &&
                U32(b, 16) == topo.originAddress.Get() && U16(b, 22) == 80 &&
                cap.upperOut.count(uid))
            {
                uids.push_back(uid);
            }
        }
        return uids;
    }

    /// \return the lower appliance owning \p node, or -1
    int LowerIndexOf(Ptr<Node> node) const
    {
        for (uint32_t j = 0; j < topo.lower.GetN(); ++j)
        {
            if (topo.lower.Get(j) == node)
            {
                return static_cast<int>(j);
            }
        }
        return -1;
    }

    CrdTopology topo;
    Capture cap;
    Ptr<AdcHttpClient> client;
};

} // namespace

// REQ: CRD-03
TEST_F(CrdWire, UpperTierChangesOnlyTheFramesMacAddresses)
{
    BuildAndRun();
    EXPECT_TRUE(AdcExpectAccounting(*client, AdcAccountingExpectation::Completed(2)));
    const std::vector<uint64_t> uids = BalancedClientPackets();
    // Per request at least the SYN, the handshake's ACK, the request and the FIN's ACK.
    ASSERT_GE(uids.size(), 8u) << "too few client packets crossed the upper tier";

    uint32_t syns = 0;
    uint32_t requests = 0;
    for (uint64_t uid : uids)
    {
        const Seen& in = cap.upperIn.at(uid);
        const Seen& out = cap.upperOut.at(uid);
        SCOPED_TRACE("packet uid " + std::to_string(uid));
        Ptr<Node> upper = in.device->GetNode();
        ASSERT_EQ(out.device->GetNode(), upper) << "left by another node";
        ASSERT_NE(out.device, in.device);
        // Same datagram, byte for byte, except the TTL and the header checksum that covers it
        // (asserted on their own below).
        ASSERT_EQ(out.bytes.size(), in.bytes.size());
        for (std::size_t k = 0; k < in.bytes.size(); ++k)
        {
            if (k == kTtl || k == kChecksum || k == kChecksum + 1)
            {
                continue;
            }
            EXPECT_EQ(out.bytes[k], in.bytes[k]) << "byte " << k << " of the datagram changed";
        }
        // That covers addresses and ports; asserted by name too, so a failure says which.
        EXPECT_EQ(U32(out.bytes, 12), topo.isp.GetClientAddress(0).Get()) << "source IP";
        EXPECT_EQ(U32(out.bytes, 16), topo.originAddress.Get()) << "destination IP";
        EXPECT_EQ(U16(out.bytes, 20), U16(in.bytes, 20)) << "source port";
        EXPECT_EQ(U16(out.bytes, 22), 80) << "destination port";

        // Source MAC: the upper appliance's own interface toward a lower appliance.
        Ptr<Channel> ch = out.device->GetChannel();
        ASSERT_TRUE(ch);
        ASSERT_EQ(ch->GetNDevices(), 2u);
        Ptr<NetDevice> peer = ch->GetDevice(0) == out.device ? ch->GetDevice(1) : ch->GetDevice(0);
        EXPECT_EQ(out.device->GetNode(), upper);
        // Destination MAC: the lower appliance's interface, which received this very packet.
        const int lower = LowerIndexOf(peer->GetNode());
        ASSERT_GE(lower, 0) << "the upper tier sent a client packet to a non-appliance";
        ASSERT_EQ(cap.lowerIn.count(uid), 1u) << "the lower appliance did not receive it";
        const Seen& at = cap.lowerIn.at(uid);
        EXPECT_EQ(at.device, peer);
        EXPECT_EQ(at.device->GetAddress(), peer->GetAddress());
        EXPECT_NE(peer->GetAddress(), out.device->GetAddress());
        EXPECT_EQ(at.bytes, out.bytes) << "changed on the link";
        EXPECT_GE(at.when, out.when);

        const uint8_t flags = out.bytes[20 + 13];
        syns += (flags & 0x02) != 0;
        const std::size_t tcpLen = (out.bytes[20 + 12] >> 4) * 4;
        const std::string payload(out.bytes.begin() + 20 + tcpLen, out.bytes.end());
        requests += payload.rfind("GET /obj/", 0) == 0;
    }
    EXPECT_EQ(syns, 2u) << "one connection per request";
    EXPECT_EQ(requests, 2u) << "each request crossed the upper tier unchanged";
}

// REQ: CRD-03
// The NetScaler documentation quoted at the top of this file names the destination MAC as the
// only change MAC-based redirection makes to a packet addressed to a virtual server, which is
// load-balanced rather than routed by L3 mode: the TTL, hence the header checksum, stay.
TEST_F(CrdWire, UpperTierKeepsTheTtlOfBalancedPackets)
{
    BuildAndRun();
    const std::vector<uint64_t> uids = BalancedClientPackets();
    ASSERT_GE(uids.size(), 8u);
    for (uint64_t uid : uids)
    {
        const Seen& in = cap.upperIn.at(uid);
        const Seen& out = cap.upperOut.at(uid);
        EXPECT_EQ(out.bytes[kTtl], in.bytes[kTtl]) << "packet uid " << uid;
        EXPECT_EQ(U16(out.bytes, kChecksum), U16(in.bytes, kChecksum)) << "packet uid " << uid;
    }
}
