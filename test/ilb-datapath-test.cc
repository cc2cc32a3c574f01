/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ILB on the shared datapath: the appliance aggregated to its node keeps balancing when
 * nothing but the nodes is left (IlbTopology, helper and every Ptr to the appliance dropped),
 * and the transport parsing and rewriting it moved to AdcPacketRewrite (TCP checksums, reads
 * that never pass a packet's end). The datapath's actions themselves: adc-datapath-test.cc.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-datapath.h"
#include "ns3/adc-http-helper.h"
#include "ns3/adc-packet-rewrite.h"
#include "ns3/adc-request-log.h"
#include "ns3/boolean.h"
#include "ns3/core-module.h"
#include "ns3/ilb-appliance.h"
#include "ns3/ilb-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>

using namespace ns3;

namespace
{

// ---------------------------------------------------------------------------------------------
// An ILB with nothing but its nodes left

/// Builds an ILB test bed, keeps only its nodes, and runs HTTP through it.
class AdcDatapathIlbAggregation : public ::testing::TestWithParam<std::string>
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Build the test bed for \p topology and return only its nodes.
    void BuildAndForget(const std::string& topology)
    {
        Ptr<IlbHelper> h = CreateObject<IlbHelper>();
        h->SetAttribute("Topology", StringValue(topology));
        h->SetAttribute("NumClients", UintegerValue(kClients));
        h->SetAttribute("NumServers", UintegerValue(kServers));
        IlbTopology t = h->Build();
        m_clients = t.clients;
        m_servers = t.servers;
        m_ilb = t.ilb;
        m_vip = t.GetVipSocketAddress();
        m_serverPort = t.serverPort;
        for (const AdcIpAddress& a : t.clientAddresses)
        {
            m_clientAddresses.insert(a.ToString());
        }
    } // the helper, the IlbTopology and its Ptr<IlbAppliance> go here

    static constexpr uint32_t kClients = 2;  //!< clients
    static constexpr uint32_t kServers = 2;  //!< servers
    static constexpr uint32_t kRequests = 3; //!< requests per client

    NodeContainer m_clients;                 //!< the clients
    NodeContainer m_servers;                 //!< the servers
    Ptr<Node> m_ilb;                         //!< the ILB's node
    Address m_vip;                           //!< VIP:port
    uint16_t m_serverPort{0};                //!< the servers' port
    std::set<std::string> m_clientAddresses; //!< the clients' addresses
};

// REQ: ILB-01, ILB-02, ILB-03 (DSR), ILB-05 (FULL_NAT), CORE-01
TEST_P(AdcDatapathIlbAggregation, TheIlbStillBalancesWithOnlyItsNodesLeft)
{
    BuildAndForget(GetParam());
    uint32_t chosen = 0;
    {
        Ptr<IlbAppliance> app = m_ilb->GetObject<IlbAppliance>();
        ASSERT_TRUE(app) << "GetObject finds the appliance on its node";
        EXPECT_EQ(m_ilb->GetObject<AdcDatapath>(), app);
        app->TraceConnectWithoutContext(
            "ServerChosen",
            Callback<void, const std::string&, const AdcFlowKey&, uint32_t, const std::string&>(
                [&chosen](const std::string&, const AdcFlowKey&, uint32_t, const std::string&) {
                    ++chosen;
                }));
    } // no Ptr to the appliance is left in the test either

    std::map<uint32_t, uint32_t> perServer;
    std::set<std::string> peers;
    AdcHttpServerHelper servers(m_serverPort);
    for (uint32_t i = 0; i < m_servers.GetN(); ++i)
    {
        ApplicationContainer a = servers.Install(m_servers.Get(i));
        a.Start(Seconds(0));
        a.Get(0)->TraceConnectWithoutContext(
            "AccessLog",
            Callback<void, const std::string&, const std::string&, const std::string&, Time>(
                [&perServer,
                 &peers,
                 i](const std::string& peer, const std::string&, const std::string&, Time) {
                    ++perServer[i];
                    peers.insert(peer);
                }));
    }
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    AdcHttpClientHelper clients(m_vip);
    clients.SetAttribute("Persistent", BooleanValue(false)); // a new flow per request
    clients.SetAttribute("MaxRequests", UintegerValue(kRequests));
    clients.SetAttribute("InterRequestTime",
                         StringValue("ns3::ConstantRandomVariable[Constant=0.2]"));
    clients.SetAttribute("RequestTimeout", TimeValue(Seconds(2)));
    ApplicationContainer apps = clients.Install(m_clients);
    apps.Start(Seconds(0.5));
    apps.Stop(Seconds(5.9));
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        log->Watch(apps.Get(i));
    }
    Simulator::Stop(Seconds(6));
    Simulator::Run();

    const uint32_t requests = kClients * kRequests;
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(requests)));
    // Round robin over the two servers, one new flow per request.
    EXPECT_EQ(chosen, requests);
    EXPECT_EQ(perServer, (std::map<uint32_t, uint32_t>{{0, requests / 2}, {1, requests / 2}}));
    // DSR keeps the clients' addresses; Full-NAT replaces them.
    if (GetParam() == "DSR")
    {
        EXPECT_EQ(peers, m_clientAddresses);
    }
    else
    {
        for (const std::string& p : peers)
        {
            EXPECT_EQ(m_clientAddresses.count(p), 0U) << p;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Topologies,
                         AdcDatapathIlbAggregation,
                         ::testing::Values("DSR", "FULL_NAT"));

// ---------------------------------------------------------------------------------------------
// Transport parsing and rewriting on their own

/// \return a TCP segment from \p k's source port to its destination port with \p payload bytes
/// and a checksum for \p k's addresses (or a wrong one)
Ptr<Packet>
TcpSegment(const AdcFlowKey& k, uint32_t payload, bool rightChecksum)
{
    Ptr<Packet> p = Create<Packet>(payload);
    TcpHeader h;
    h.SetSourcePort(k.srcPort);
    h.SetDestinationPort(k.dstPort);
    h.SetSequenceNumber(SequenceNumber32(1000));
    h.SetAckNumber(SequenceNumber32(2000));
    h.SetFlags(TcpHeader::SYN | TcpHeader::ACK);
    h.EnableChecksums();
    const AdcIpAddress wrongDst = Ipv4Address("192.0.2.1");
    h.InitializeChecksum(k.src.GetIpv4(),
                         rightChecksum ? k.dst.GetIpv4() : wrongDst.GetIpv4(),
                         AdcFlowKey::PROTO_TCP);
    p->AddHeader(h);
    return p;
}

/// Checksums on for the rewriting tests.
class AdcPacketRewrite : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Config::SetGlobal("ChecksumEnabled", BooleanValue(true));
    }

    void TearDown() override
    {
        Config::SetGlobal("ChecksumEnabled", BooleanValue(false));
    }
};

// REQ: ILB-04, ILB-05, ILB-06
TEST_F(AdcPacketRewrite, TcpRewriteKeepsTheChecksumRightAndRefusesABadOne)
{
    const AdcFlowKey before(Ipv4Address("10.0.0.1"),
                            Ipv4Address("10.9.9.9"),
                            1234,
                            80,
                            AdcFlowKey::PROTO_TCP);
    const AdcFlowKey after(Ipv4Address("10.200.0.1"),
                           Ipv4Address("10.1.0.2"),
                           5555,
                           8080,
                           AdcFlowKey::PROTO_TCP);
    std::string reason;
    Ptr<Packet> out = AdcRewriteTransport(TcpSegment(before, 10, true), before, after, reason);
    ASSERT_TRUE(out) << reason;
    TcpHeader h;
    h.EnableChecksums();
    h.InitializeChecksum(after.src.GetIpv4(), after.dst.GetIpv4(), AdcFlowKey::PROTO_TCP);
    out->RemoveHeader(h);
    EXPECT_TRUE(h.IsChecksumOk());
    EXPECT_EQ(h.GetSourcePort(), after.srcPort);
    EXPECT_EQ(h.GetDestinationPort(), after.dstPort);
    EXPECT_EQ(h.GetSequenceNumber(), SequenceNumber32(1000));
    EXPECT_EQ(out->GetSize(), 10U);

    EXPECT_FALSE(AdcRewriteTransport(TcpSegment(before, 10, false), before, after, reason));
    EXPECT_EQ(reason, "bad-checksum");
}

// REQ: CORE-02
TEST_F(AdcPacketRewrite, ReadTransportReadsTcpFieldsAndNeverPastTheEnd)
{
    const AdcFlowKey k(Ipv4Address("10.0.0.1"),
                       Ipv4Address("10.9.9.9"),
                       1234,
                       80,
                       AdcFlowKey::PROTO_TCP);
    const AdcTransportInfo r = AdcReadTransport(TcpSegment(k, 10, true), AdcFlowKey::PROTO_TCP);
    EXPECT_EQ(r.status, AdcTransportStatus::OK);
    EXPECT_EQ(r.srcPort, 1234);
    EXPECT_EQ(r.dstPort, 80);
    EXPECT_EQ(r.tcpFlags, AdcTcpFlag::SYN | AdcTcpFlag::ACK);
    EXPECT_EQ(r.tcpSeq, 1000U);
    EXPECT_EQ(r.tcpAck, 2000U);
    EXPECT_EQ(r.tcpPayload, 10U);
    // Every prefix of the header is truncated.
    Ptr<Packet> whole = TcpSegment(k, 0, true);
    for (uint32_t n = 0; n < whole->GetSize(); ++n)
    {
        EXPECT_EQ(AdcReadTransport(whole->CreateFragment(0, n), AdcFlowKey::PROTO_TCP).status,
                  AdcTransportStatus::TRUNCATED)
            << n;
    }
    EXPECT_EQ(AdcReadTransport(Create<Packet>(7), AdcFlowKey::PROTO_UDP).status,
              AdcTransportStatus::TRUNCATED);
    EXPECT_EQ(AdcReadTransport(Create<Packet>(8), AdcFlowKey::PROTO_UDP).status,
              AdcTransportStatus::OK);
}

} // namespace
