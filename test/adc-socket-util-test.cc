/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the shared socket pieces (adc-socket-util.h): AdcBindFromRange and AdcConnectFrom
 * open a connection from the client's IP and a port of the range (skipping a port the stack
 * still holds; the source registered with the routing hook), and AdcTxQueue delivers every
 * queued byte, in order, through a link much slower than the bytes are queued.
 */

#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-socket-util.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

const Ipv4Address kApplianceAddr("10.5.5.1");
const Ipv4Address kServerAddr("10.5.5.2");
/// A client address the appliance does not own: only USIP can put it on the wire.
const Ipv4Address kClientIp("10.9.9.7");
const uint16_t kServerPort = 8080;
const AdcPortRange kRange(6000, 6003);

/// Byte \p k of the test stream: a hash, so a lost, repeated or reordered chunk shows.
uint8_t
StreamByte(uint64_t k)
{
    uint32_t x = static_cast<uint32_t>(k) * 2654435761U;
    x ^= x >> 15;
    return static_cast<uint8_t>(x & 0xff);
}

/// An appliance A (with AdcPolicyRouting) and a server S on a slow point-to-point link.
class AdcSocketUtilTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    void Build()
    {
        appliance = CreateObject<Node>();
        server = CreateObject<Node>();
        PointToPointHelper p2p;
        // 1 Mbps: the queued stream takes seconds to drain, far longer than it takes to queue.
        p2p.SetDeviceAttribute("DataRate", StringValue("1Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("5ms"));
        NetDeviceContainer d = p2p.Install(appliance, server);

        Ipv4ListRoutingHelper list;
        list.Add(Ipv4StaticRoutingHelper(), 0);
        InternetStackHelper stack;
        stack.SetRoutingHelper(list);
        stack.SetIpv6StackInstall(false);
        stack.Install(NodeContainer(appliance, server));
        Ipv4AddressHelper addr;
        addr.SetBase("10.5.5.0", "255.255.255.0");
        addr.Assign(d);
        Ipv4StaticRoutingHelper sr;
        sr.GetStaticRouting(server->GetObject<Ipv4>())->SetDefaultRoute(kApplianceAddr, 1);

        // The server's replies to the client's IP and a port of the range are the appliance's.
        Ptr<Ipv4> aip = appliance->GetObject<Ipv4>();
        routing = CreateObject<AdcPolicyRouting>();
        AdcAddTopIpv4Routing(appliance, routing, 10);
        AdcPolicyRule back;
        back.name = "return";
        back.action = AdcPolicyRule::LOCAL;
        back.inInterfaces = {static_cast<uint32_t>(aip->GetInterfaceForDevice(d.Get(0)))};
        back.dstNet = Ipv4Address("10.9.9.0");
        back.dstMask = Ipv4Mask("255.255.255.0");
        back.protocol = 6;
        back.dstPorts = kRange;
        routing->AddRule(back);

        ports = CreateObject<AdcPortAllocator>();
        ports->SetRange(kRange);

        listen = Socket::CreateSocket(server, TcpSocketFactory::GetTypeId());
        listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), kServerPort));
        listen->Listen();
        listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&AdcSocketUtilTest::Accept, this));
    }

    void Accept(Ptr<Socket> s, const Address& from)
    {
        peers.push_back(InetSocketAddress::ConvertFrom(from));
        s->SetRecvCallback(MakeCallback(&AdcSocketUtilTest::Receive, this));
    }

    void Receive(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            if (p->GetSize() == 0)
            {
                break;
            }
            std::vector<uint8_t> buf(p->GetSize());
            p->CopyData(buf.data(), p->GetSize());
            for (uint8_t b : buf)
            {
                mismatches += b != StreamByte(received) ? 1 : 0;
                ++received;
            }
            lastArrival = Simulator::Now();
        }
    }

    Ptr<Node> appliance;
    Ptr<Node> server;
    Ptr<AdcPolicyRouting> routing;
    Ptr<AdcPortAllocator> ports;
    Ptr<Socket> listen;
    std::vector<InetSocketAddress> peers;
    uint64_t received{0};
    uint64_t mismatches{0};
    Time lastArrival;
};

TEST_F(AdcSocketUtilTest, ConnectsFromClientIpAndPortOfRangeAndDeliversQueueInOrder)
{
    Build();
    // A port the stack still holds (bound by another socket, not by the allocator) is skipped.
    Ptr<Socket> holder = Socket::CreateSocket(appliance, TcpSocketFactory::GetTypeId());
    ASSERT_EQ(holder->Bind(InetSocketAddress(kClientIp, kRange.first)), 0);

    Ptr<Socket> s = Socket::CreateSocket(appliance, TcpSocketFactory::GetTypeId());
    const std::optional<uint16_t> port = AdcBindFromRange(s, kClientIp, ports);
    ASSERT_TRUE(port.has_value());
    EXPECT_GE(*port, kRange.first);
    EXPECT_LE(*port, kRange.last);
    EXPECT_NE(*port, kRange.first);
    EXPECT_TRUE(ports->IsAllocated(*port));
    EXPECT_FALSE(ports->IsAllocated(kRange.first)); // the held port went back to the range
    EXPECT_EQ(ports->GetInUse(), 1U);

    // 400,000 bytes in uneven packets (1..4999 bytes), far more than the transmit buffer
    // (128 KiB by default) takes: the rest must wait in the queue for the send callback.
    AdcTxQueue q;
    uint64_t queued = 0;
    for (uint32_t i = 0; queued < 400000; ++i)
    {
        const auto n =
            static_cast<uint32_t>(std::min<uint64_t>(1 + (i * 7919) % 4999, 400000 - queued));
        std::vector<uint8_t> bytes(n);
        for (uint32_t k = 0; k < n; ++k)
        {
            bytes[k] = StreamByte(queued + k);
        }
        q.Push(Create<Packet>(bytes.data(), n));
        queued += n;
    }
    q.Push(Create<Packet>(0)); // an empty packet adds nothing
    EXPECT_EQ(q.GetBytes(), 400000U);
    uint64_t handed = 0;
    auto flush = [&q, &handed](Ptr<Socket> sock) {
        handed += q.Flush(sock, [](uint32_t n) { EXPECT_GT(n, 0U); });
    };
    s->SetConnectCallback(Callback<void, Ptr<Socket>>(flush),
                          MakeNullCallback<void, Ptr<Socket>>());
    s->SetSendCallback(Callback<void, Ptr<Socket>, uint32_t>(
        [flush](Ptr<Socket> sock, uint32_t) { flush(sock); }));
    // The node's stack is initialized when the simulation starts: connect just after.
    bool connected = false;
    bool queuedAfterFirstFlush = false;
    std::optional<AdcFlowKey> registration;
    Simulator::Schedule(MilliSeconds(1), [&]() {
        registration =
            AdcConnectFrom(s, routing, kClientIp, InetSocketAddress(kServerAddr, kServerPort));
        connected = registration.has_value();
        flush(s); // before the handshake: TCP buffers what fits, the queue keeps the rest
        queuedAfterFirstFlush = !q.IsEmpty();
    });
    Simulator::Stop(Seconds(10));
    Simulator::Run();

    EXPECT_TRUE(connected);
    EXPECT_TRUE(queuedAfterFirstFlush);
    // The connection's source is registered with the routing hook until its owner removes it;
    // Connect's route lookup took it (nothing is pending any more).
    ASSERT_TRUE(registration.has_value());
    EXPECT_EQ(*registration,
              AdcFlowKey(kClientIp, kServerAddr, *port, kServerPort, AdcFlowKey::PROTO_TCP));
    EXPECT_EQ(routing->GetNOutputSources(), 1U);
    EXPECT_FALSE(routing->GetPendingOutputSource().has_value());
    EXPECT_TRUE(routing->RemoveOutputSource(*registration));
    EXPECT_EQ(routing->GetNOutputSources(), 0U);
    ASSERT_EQ(peers.size(), 1U);
    EXPECT_EQ(peers[0].GetIpv4(), kClientIp);
    EXPECT_EQ(peers[0].GetPort(), *port);
    EXPECT_TRUE(q.IsEmpty());
    EXPECT_EQ(q.GetBytes(), 0U);
    EXPECT_EQ(handed, 400000U);
    EXPECT_EQ(received, 400000U);
    EXPECT_EQ(mismatches, 0U);
    // 400,000 bytes at 1 Mbps take at least 3.2 s: the link, not the queue, set the pace.
    EXPECT_GT(lastArrival, Seconds(3.2));
}

TEST_F(AdcSocketUtilTest, BindFromRangeFailsWhenEveryPortIsHeldAndReleasesThem)
{
    Build();
    std::vector<Ptr<Socket>> holders;
    for (uint32_t p = kRange.first; p <= kRange.last; ++p)
    {
        holders.push_back(Socket::CreateSocket(appliance, TcpSocketFactory::GetTypeId()));
        ASSERT_EQ(holders.back()->Bind(InetSocketAddress(kClientIp, static_cast<uint16_t>(p))), 0);
    }
    Ptr<Socket> s = Socket::CreateSocket(appliance, TcpSocketFactory::GetTypeId());
    EXPECT_FALSE(AdcBindFromRange(s, kClientIp, ports).has_value());
    EXPECT_EQ(ports->GetInUse(), 0U); // every port tried was released again
    ports->Allocate();                // range exhausted by the allocator itself: no port
    ports->Allocate();
    ports->Allocate();
    ports->Allocate();
    EXPECT_FALSE(AdcBindFromRange(s, kClientIp, ports).has_value());
}

TEST_F(AdcSocketUtilTest, ListenTcpRefusesAPortAlreadyListenedOn)
{
    Build(); // the server listens on kServerPort
    EXPECT_EQ(AdcListenTcp(server, kServerPort), nullptr);
    Ptr<Socket> other = AdcListenTcp(server, kServerPort + 1);
    ASSERT_NE(other, nullptr);
    AdcStopListening(other, true);
}

TEST(AdcTxQueue, CountsQueuedBytesAndIgnoresEmptyPackets)
{
    AdcTxQueue q;
    EXPECT_TRUE(q.IsEmpty());
    q.Push(Create<Packet>(0));
    EXPECT_TRUE(q.IsEmpty());
    EXPECT_EQ(q.GetNPackets(), 0U);
    q.Push(Create<Packet>(10));
    q.Push(Create<Packet>(5));
    EXPECT_EQ(q.GetBytes(), 15U);
    EXPECT_EQ(q.GetNPackets(), 2U);
}

} // namespace
