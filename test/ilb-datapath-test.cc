/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ILB on the shared datapath: the appliance aggregated to its node keeps balancing when
 * nothing but the nodes is left (IlbTopology, helper and every Ptr to the appliance dropped),
 * and the transport parsing and rewriting it moved to AdcPacketRewrite (TCP checksums, reads
 * that never pass a packet's end). The datapath's actions themselves: adc-datapath-test.cc.
 */

#include "adc-test-accounting.h"
#include "ilb-test-recorders.h"

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
#include <vector>

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
        // DSR keeps no connection state: a per-connection hash keeps each connection on one
        // server (roundrobin would spread its packets, as illumos's does).
        h->SetAttribute("Algorithm",
                        StringValue(topology == "DSR" ? "hash-ip-port" : "roundrobin"));
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
    if (GetParam() == "DSR")
    {
        // A choice per packet (no entries), every request served by one server or the other.
        EXPECT_GT(chosen, requests);
        EXPECT_EQ(perServer[0] + perServer[1], requests);
    }
    else
    {
        // Round robin over the two servers, one new flow per request.
        EXPECT_EQ(chosen, requests);
        EXPECT_EQ(perServer, (std::map<uint32_t, uint32_t>{{0, requests / 2}, {1, requests / 2}}));
    }
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

// ---------------------------------------------------------------------------------------------
// The engine's edges as illumos ilb_check has them, one packet at a time

const AdcIpAddress kEdgeVip(Ipv4Address("10.9.9.9"));
const AdcIpAddress kEdgeClient(Ipv4Address("10.0.0.1"));
const AdcIpAddress kEdgeNat(Ipv4Address("10.200.0.1"));
const std::vector<AdcIpAddress> kEdgeServers{AdcIpAddress(Ipv4Address("10.1.0.2")),
                                             AdcIpAddress(Ipv4Address("10.1.0.3"))};

/// \return a TCP rule named \p name on kEdgeVip:port over kEdgeServers
IlbRule
EdgeRule(const std::string& name,
         uint16_t port,
         IlbRule::Topology topology,
         const std::string& algorithm,
         bool sticky = false)
{
    IlbRule r;
    r.name = name;
    r.vip = kEdgeVip;
    r.protocol = AdcFlowKey::PROTO_TCP;
    r.ports = AdcPortRange(port, port);
    r.topology = topology;
    r.algorithm = algorithm;
    r.sticky = sticky;
    for (std::size_t i = 0; i < kEdgeServers.size(); ++i)
    {
        IlbServer s;
        s.name = "srv" + std::to_string(i + 1);
        s.address = kEdgeServers[i];
        r.servers.push_back(s);
    }
    if (topology == IlbRule::FULL_NAT)
    {
        r.natSourceFirst = kEdgeNat;
        r.natSourceLast = kEdgeNat;
        r.natPorts = AdcPortRange(20000, 20099);
    }
    return r;
}

/// \return a TCP segment of \p k with \p flags, as the hook describes it
AdcIngress
Segment(const AdcFlowKey& k, uint8_t flags)
{
    AdcIngress in;
    in.flow = k;
    in.status = AdcTransportStatus::OK;
    in.tcpFlags = flags;
    in.tcpSeq = 1000;
    in.tcpAck = 2000;
    in.bytes = 60;
    in.packet = Create<Packet>(20);
    return in;
}

/// Tears the simulator down after the engine tests.
class IlbEngineEdges : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

TEST_F(IlbEngineEdges, DsrKeepsNoEntryAndBalancesEveryPacketByTheAlgorithm)
{
    // REQ: ILB-02, ILB-03 (illumos ilb.c, ilb_check: case ILB_TOPO_IMPL_DSR adds no conn, so
    // every packet goes through ilb_alg_lb and the sticky table)
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    ilb->AddRule(EdgeRule("rr", 80, IlbRule::DSR, "roundrobin"));
    ilb->AddRule(EdgeRule("hash", 81, IlbRule::DSR, "hash-ip"));
    ilb->AddRule(EdgeRule("sticky", 82, IlbRule::DSR, "roundrobin", true));
    std::map<std::string, std::vector<uint32_t>> chosen;
    ilb->TraceConnectWithoutContext(
        "ServerChosen",
        Callback<void, const std::string&, const AdcFlowKey&, uint32_t, const std::string&>(
            [&chosen](const std::string& rule, const AdcFlowKey&, uint32_t s, const std::string&) {
                chosen[rule].push_back(s);
            }));
    for (uint16_t port : {80, 81, 82})
    {
        // One connection: SYN, then three segments of the same 5-tuple.
        const AdcFlowKey k(kEdgeClient, kEdgeVip, 40000, port, AdcFlowKey::PROTO_TCP);
        RecordingEgress out;
        for (uint8_t flags : {AdcTcpFlag::SYN,
                              AdcTcpFlag::ACK,
                              uint8_t(AdcTcpFlag::ACK | 0x08),
                              uint8_t(AdcTcpFlag::ACK | 0x01)})
        {
            EXPECT_TRUE(ilb->Process(Segment(k, flags), out));
        }
        ASSERT_EQ(out.sent.size(), 4u) << port;
        std::set<AdcIpAddress> hops;
        for (const AdcVerdict& v : out.sent)
        {
            EXPECT_EQ(v.action, AdcVerdict::FORWARD); // the IP packet unchanged
            hops.insert(v.nextHop);
        }
        // roundrobin spreads the connection over both servers; hash-ip and sticky keep it.
        EXPECT_EQ(hops.size(), port == 80 ? 2u : 1u) << port;
    }
    // Per packet, from the head of ilb_alg_rr.c's list (rr_server_add inserts at the head).
    EXPECT_EQ(chosen["rr"], (std::vector<uint32_t>{1, 0, 1, 0}));
    EXPECT_EQ(chosen["hash"].size(), 4u);
    EXPECT_EQ(chosen["sticky"], (std::vector<uint32_t>{1, 1, 1, 1}));
    for (uint32_t r = 0; r < 3; ++r)
    {
        // No entries; a connection is counted at its pure SYN only; every packet forwarded.
        EXPECT_EQ(ilb->GetActiveConnections(r, 0) + ilb->GetActiveConnections(r, 1), 0u);
        EXPECT_EQ(ilb->GetRuleCounters(r).connections, 1u);
        EXPECT_EQ(ilb->GetRuleCounters(r).packetsIn, 4u);
        EXPECT_EQ(ilb->GetRuleCounters(r).drops, 0u);
    }
    EXPECT_EQ(ilb->GetConnectionTable()->GetSize() + ilb->GetNatTable()->GetSize(), 0u);
    ilb->Dispose();
}

/// The NAT topologies by name
class IlbEngineNat : public ::testing::TestWithParam<std::string>
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

TEST_P(IlbEngineNat, ATcpSegmentWithoutAnEntryOpensOneAndTheServersResetGoesBack)
{
    // REQ: ILB-04, ILB-05, ILB-06 (illumos ilb.c, ilb_check: "We create a cache even if it is
    // not a SYN segment. The server should return a RST. When we see the RST, we will destroy
    // this cache. But by having a cache, we know how to NAT the returned RST."; ilb_conn.c:
    // update_conn_tcp only marks the entry at a RST (conn_gc), ilb_conn_cleanup removes it)
    const IlbRule::Topology topo = GetParam() == "FULL_NAT" ? IlbRule::FULL_NAT : IlbRule::HALF_NAT;
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    ilb->AddRule(EdgeRule("web", 80, topo, "roundrobin")); // at 0 s: cleanups at 15 s, 30 s
    std::vector<std::string> drops;
    ilb->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>, const std::string&>(
            [&drops](Ptr<const Packet>, const std::string& reason) { drops.push_back(reason); }));
    const AdcFlowKey k(kEdgeClient, kEdgeVip, 40000, 80, AdcFlowKey::PROTO_TCP);
    RecordingEgress out;

    // A mid-connection segment (ACK with data) that the ILB has no entry for. It goes to
    // server 1, the head of ilb_alg_rr.c's list (rr_server_add inserts at the head).
    EXPECT_TRUE(ilb->Process(Segment(k, AdcTcpFlag::ACK | 0x08), out));
    ASSERT_EQ(out.sent.size(), 1u);
    EXPECT_EQ(out.sent[0].action, AdcVerdict::REWRITE);
    const AdcFlowKey toServer = out.sent[0].after;
    EXPECT_EQ(toServer.dst, kEdgeServers[1]);
    EXPECT_EQ(toServer.dstPort, 80);
    EXPECT_EQ(toServer.src, topo == IlbRule::FULL_NAT ? kEdgeNat : kEdgeClient);
    EXPECT_EQ(ilb->GetActiveConnections(0, 1), 1u);
    EXPECT_EQ(ilb->GetRuleCounters(0).connections, 1u);

    // The server knows no such connection and resets it: translated back to VIP -> client.
    // The entry stays, marked, and a segment still in flight is translated too.
    EXPECT_TRUE(ilb->Process(Segment(toServer.Reversed(), AdcTcpFlag::RST), out));
    EXPECT_TRUE(ilb->Process(Segment(toServer.Reversed(), AdcTcpFlag::RST), out));
    ASSERT_EQ(out.sent.size(), 3u);
    for (uint32_t i : {1, 2})
    {
        EXPECT_EQ(out.sent[i].action, AdcVerdict::REWRITE);
        EXPECT_EQ(out.sent[i].after, k.Reversed());
    }
    EXPECT_EQ(ilb->GetActiveConnections(0, 1), 1u);
    // The cleanup at 15 s removes it.
    uint32_t at14 = 0;
    Simulator::Schedule(Seconds(14.9), [&] { at14 = ilb->GetActiveConnections(0, 1); });
    Simulator::Stop(Seconds(16));
    Simulator::Run();
    EXPECT_EQ(at14, 1u);
    EXPECT_EQ(ilb->GetActiveConnections(0, 1), 0u);
    EXPECT_TRUE(drops.empty());

    // A response without an entry (an orphan) is not the ILB's: illumos ilb_check finds no
    // conn and no rule ("a reply from back end server should not match a rule") and returns
    // ILB_PASSED, so IP routes it unchanged. Process leaves it (false), sends and drops nothing.
    EXPECT_FALSE(ilb->Process(Segment(toServer.Reversed(), AdcTcpFlag::ACK), out));
    EXPECT_EQ(out.sent.size(), 3u);
    EXPECT_TRUE(drops.empty());
    ilb->Dispose();
}

INSTANTIATE_TEST_SUITE_P(IlbNatTopologies, IlbEngineNat, ::testing::Values("HALF_NAT", "FULL_NAT"));

} // namespace
