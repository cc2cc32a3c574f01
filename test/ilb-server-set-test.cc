/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ILB server-set changes as illumos-gate makes them (usr/src/uts/common/inet/ilb/): the
 * algorithms' own state (ilb_alg_rr.c rr_server_add / rr_server_del / rr_lb, ilb_alg_hash.c
 * hash_server_add / del_server / hash_lb), a server added to a live rule (ilb.c
 * ilb_server_add, with its EEXIST and EINVAL refusals) and one deleted (ilb_server_del: the
 * algorithm forgets it, its connections drain), and ilbadm's add-server / remove-server at run
 * time (ilbd_sg.c i_add_srv2sg keeps the group sorted by address; ilbd_rules.c
 * i_add_srv2krules, i_rem_srv_frm_krules). Fixture: ilb-test-fixture.h.
 */

#include "ilb-test-fixture.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-ilb-hash-lb.h"
#include "ns3/adc-ilbadm-commands.h"
#include "ns3/ilb-algorithm.h"
#include "ns3/ilbadm-helper.h"

#include <map>
#include <sstream>

namespace
{

/// A flow of client 10.0.0.1 (hash-ip hashes only the address).
AdcFlowKey
Flow1(uint16_t port = 40000)
{
    return AdcFlowKey(Ipv4Address("10.0.0.1"), Ipv4Address("10.9.9.9"), port, 80, 6);
}

/// \return the picks of \p n rr_lb calls
std::vector<int32_t>
Picks(IlbAlgorithm& alg, uint32_t n)
{
    std::vector<int32_t> out;
    for (uint32_t k = 0; k < n; ++k)
    {
        out.push_back(alg.Select(Flow1()));
    }
    return out;
}

TEST(IlbAlgorithmRr, ServersAddedAtTheHeadAndRrNextFollowsDeletes)
{
    // REQ: ILB-02 (illumos ilb_alg_rr.c)
    IlbAlgorithm rr(IlbAlgorithm::ROUNDROBIN);
    for (uint32_t s = 0; s < 3; ++s)
    {
        rr.AddServer(s, true); // rr_server_add: list_insert_head
    }
    EXPECT_EQ(rr.GetOrder(), (std::vector<uint32_t>{2, 1, 0}));
    EXPECT_EQ(rr.GetRrNext(), -1); // ilb_alg_rr_init: rr_next = NULL
    // rr_lb: NULL is the head; each pick moves rr_next to list_next, NULL after the tail.
    EXPECT_EQ(Picks(rr, 4), (std::vector<int32_t>{2, 1, 0, 2}));
    EXPECT_EQ(rr.GetRrNext(), 1);
    // rr_server_del of rr_next's server: "rr_alg->rr_next = list_next(servers, tmp_server)".
    EXPECT_TRUE(rr.DelServer(1));
    EXPECT_EQ(rr.GetRrNext(), 0);
    EXPECT_EQ(rr.GetOrder(), (std::vector<uint32_t>{2, 0}));
    EXPECT_EQ(Picks(rr, 3), (std::vector<int32_t>{0, 2, 0}));
    EXPECT_FALSE(rr.DelServer(1)); // EINVAL: not in the list
}

TEST(IlbAlgorithmRr, AServerAddedToALiveListGoesToTheHeadAndRrNextStays)
{
    // REQ: ILB-02 (illumos ilb_alg_rr.c rr_server_add; ilb.c ilb_server_add on a live rule)
    IlbAlgorithm rr(IlbAlgorithm::ROUNDROBIN);
    rr.AddServer(0, true);
    rr.AddServer(1, true);                              // list 1, 0
    EXPECT_EQ(Picks(rr, 1), (std::vector<int32_t>{1})); // rr_next = 0
    rr.AddServer(2, true);                              // list 2, 1, 0; rr_next still 0
    EXPECT_EQ(Picks(rr, 4), (std::vector<int32_t>{0, 2, 1, 0}));

    // rr_next NULL (the tail was the last pick) when the server comes: the head, the new one,
    // is next.
    IlbAlgorithm rr2(IlbAlgorithm::ROUNDROBIN);
    rr2.AddServer(0, true);
    rr2.AddServer(1, true);
    EXPECT_EQ(Picks(rr2, 2), (std::vector<int32_t>{1, 0}));
    EXPECT_EQ(rr2.GetRrNext(), -1);
    rr2.AddServer(2, true);
    EXPECT_EQ(Picks(rr2, 3), (std::vector<int32_t>{2, 1, 0}));
}

TEST(IlbAlgorithmRr, DisabledServersAreSkippedAndNoneEnabledIsNoServer)
{
    // REQ: ILB-02 (illumos ilb_alg_rr.c rr_lb: "while (!rr_alg->rr_next->enabled)")
    IlbAlgorithm rr(IlbAlgorithm::ROUNDROBIN);
    for (uint32_t s = 0; s < 3; ++s)
    {
        rr.AddServer(s, true);
    }
    EXPECT_TRUE(rr.DisableServer(2));
    EXPECT_EQ(Picks(rr, 3), (std::vector<int32_t>{1, 0, 1}));
    EXPECT_TRUE(rr.DisableServer(1));
    EXPECT_TRUE(rr.DisableServer(0));
    EXPECT_EQ(rr.Select(Flow1()), -1); // "if (rr_alg->rr_next == start) return (B_FALSE)"
    EXPECT_TRUE(rr.EnableServer(2));
    EXPECT_EQ(rr.Select(Flow1()), 2);
}

TEST(IlbAlgorithmHash, DelServerShrinksTheTableSoTheModulusChanges)
{
    // REQ: ILB-02 (illumos ilb_alg_hash.c). 10.0.0.1's hash-ip CRC is 0xC601F011 =
    // 3322015761 (sys/crc32.h, computed by hand in doc/ilb.rst and test/ilb-hash-test.cc):
    // 3322015761 % 3 = 0 (its digits sum to 30) and % 2 = 1.
    EXPECT_EQ(AdcIlbHashLb::Hash(AdcIlbHashLb::IP, Flow1()), 3322015761u);
    IlbAlgorithm hash(IlbAlgorithm::HASH_IP);
    for (uint32_t s = 0; s < 3; ++s)
    {
        hash.AddServer(s, true); // hash_server_add: hash_tbl[hash_servers++]
    }
    EXPECT_EQ(hash.Select(Flow1()), 0); // hash_tbl[crc % 3]
    // Disabled (hash_server_disable): hash_tbl keeps its three slots; slot 0 is disabled, so
    // hash_enabled_tbl[crc % 2] = {1, 2}[1] = 2.
    EXPECT_TRUE(hash.DisableServer(0));
    EXPECT_EQ(hash.Select(Flow1()), 2);
    EXPECT_TRUE(hash.EnableServer(0)); // hash_server_enable appends: enabled table 1, 2, 0
    EXPECT_EQ(hash.GetEnabled(), (std::vector<uint32_t>{1, 2, 0}));
    EXPECT_EQ(hash.Select(Flow1()), 0);
    // Deleted (hash_server_del -> del_server): server 1 goes, the table shifts down to 0, 2 and
    // the modulus is 2: hash_tbl[1] = 2. The flow moves although its server stayed.
    EXPECT_TRUE(hash.DelServer(1));
    EXPECT_EQ(hash.GetOrder(), (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(hash.GetEnabled(), (std::vector<uint32_t>{2, 0}));
    EXPECT_EQ(hash.Select(Flow1()), 2);
    // A server added (hash_server_add) goes to the end: 0, 2, 3; crc % 3 = 0: server 0.
    hash.AddServer(3, true);
    EXPECT_EQ(hash.GetOrder(), (std::vector<uint32_t>{0, 2, 3}));
    EXPECT_EQ(hash.Select(Flow1()), 0);
}

// ---------------------------------------------------------------------------------------------
// The appliance, one packet at a time

const AdcIpAddress kSetVip(Ipv4Address("10.9.9.9"));

/// \return server k's address, 10.1.0.(2 + k)
AdcIpAddress
SetServer(uint32_t k)
{
    return AdcIpAddress(Ipv4Address(0x0a010002u + k));
}

/// \return a TCP Half-NAT rule "web" on kSetVip:80 over \p n servers srv1..srvN
IlbRule
SetRule(const std::string& algorithm, uint32_t n, IlbRule::Topology topology = IlbRule::HALF_NAT)
{
    IlbRule r;
    r.name = "web";
    r.vip = kSetVip;
    r.protocol = 6;
    r.ports = AdcPortRange(80, 80);
    r.topology = topology;
    r.algorithm = algorithm;
    for (uint32_t k = 0; k < n; ++k)
    {
        IlbServer s;
        s.name = "srv" + std::to_string(k + 1);
        s.address = SetServer(k);
        r.servers.push_back(s);
    }
    return r;
}

/// A SYN of client 10.0.0.1 from \p port to the VIP, as the hook describes it.
AdcIngress
Syn(uint16_t port, uint8_t flags = AdcTcpFlag::SYN)
{
    AdcIngress in;
    in.flow = Flow1(port);
    in.status = AdcTransportStatus::OK;
    in.tcpFlags = flags;
    in.tcpSeq = 1000;
    in.bytes = 60;
    in.packet = Create<Packet>(20);
    return in;
}

/// Tears the simulator down after each test.
class IlbServerSet : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// \param ilb the appliance \param port the client port \return the server the SYN went to
    AdcIpAddress Send(Ptr<IlbAppliance> ilb, uint16_t port, uint8_t flags = AdcTcpFlag::SYN)
    {
        const std::size_t before = m_out.sent.size();
        EXPECT_TRUE(ilb->Process(Syn(port, flags), m_out));
        return m_out.sent.size() > before ? m_out.sent.back().after.dst : AdcIpAddress();
    }

    RecordingEgress m_out; //!< what the appliance sent
};

TEST_F(IlbServerSet, AServerAddedToALiveRoundRobinRuleGoesToTheListsHead)
{
    // REQ: ILB-02 (illumos ilb.c ilb_server_add works on a live rule; ilb_alg_rr.c
    // rr_server_add: list_insert_head, rr_next unchanged)
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    ilb->AddRule(SetRule("roundrobin", 2)); // list srv2, srv1
    EXPECT_EQ(Send(ilb, 40001), SetServer(1));
    IlbServer s3;
    s3.name = "srv3";
    s3.address = SetServer(2);
    EXPECT_EQ(ilb->AddServer(0, s3), 2u); // list srv3, srv2, srv1; rr_next srv1
    EXPECT_EQ(ilb->GetRule(0).servers.size(), 3u);
    EXPECT_EQ(ilb->GetAlgorithm(0)->GetOrder(), (std::vector<uint32_t>{2, 1, 0}));
    EXPECT_EQ(Send(ilb, 40002), SetServer(0));
    EXPECT_EQ(Send(ilb, 40003), SetServer(2));
    EXPECT_EQ(Send(ilb, 40004), SetServer(1));
    EXPECT_EQ(ilb->GetServerCounters(0, 2).connections, 1u);
    EXPECT_EQ(ilb->GetActiveConnections(0, 2), 1u);
    ilb->Dispose();
}

TEST_F(IlbServerSet, ARemovedHashServerShrinksTheTableAndMovesOtherFlows)
{
    // REQ: ILB-02 (illumos ilb.c ilb_server_del -> ilb_alg_hash.c hash_server_del: del_server
    // shifts hash_tbl, so the modulus changes). 10.0.0.1: CRC 3322015761, % 3 = 0, % 2 = 1.
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    ilb->AddRule(SetRule("hash-ip", 3));
    EXPECT_EQ(Send(ilb, 40001), SetServer(0));
    ilb->RemoveServer(0, 1);
    EXPECT_TRUE(ilb->IsServerRemoved(0, 1));
    EXPECT_FALSE(ilb->IsServerEnabled(0, 1)); // "Mark the server as disabled"
    // The existing connection keeps its server (ilb_check_conn first).
    EXPECT_EQ(Send(ilb, 40001, AdcTcpFlag::ACK), SetServer(0));
    // A new flow of the same client: hash_tbl is srv1, srv3 and crc % 2 = 1: srv3. Had the
    // server only been disabled (the slot kept), the flow would have stayed on srv1.
    EXPECT_EQ(Send(ilb, 40002), SetServer(2));
    EXPECT_EQ(ilb->GetAlgorithm(0)->GetOrder(), (std::vector<uint32_t>{0, 2}));
    // The server cannot be enabled again; it has to be added back (a new index).
    EXPECT_THROW(ilb->SetServerEnabled(0, 1, true), AdcConfigError);
    ilb->Dispose();
}

TEST_F(IlbServerSet, ARemovedServersConnectionsCarryOnUntilTheConnDrainCut)
{
    // REQ: ILB-02, ILB-04 (illumos ilb.c ilb_server_del: the server's connections hold it;
    // "If there is a hard limit on when a server should die, set it"; ilb_alg_rr.c
    // rr_server_del moves rr_next on)
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    IlbRule r = SetRule("roundrobin", 3); // list srv3, srv2, srv1
    r.connDrainTimeout = Seconds(2);
    ilb->AddRule(r);
    EXPECT_EQ(Send(ilb, 40001), SetServer(2)); // rr_next srv2
    ilb->RemoveServer(0, 1);                   // rr_next -> srv1
    EXPECT_EQ(Send(ilb, 40002), SetServer(0));
    EXPECT_EQ(Send(ilb, 40003), SetServer(2));
    EXPECT_EQ(Send(ilb, 40004), SetServer(0));
    ilb->RemoveServer(0, 2); // srv3 has flow 40001, srv1 is left alone in the list
    EXPECT_EQ(Send(ilb, 40001, AdcTcpFlag::ACK), SetServer(2));
    EXPECT_EQ(Send(ilb, 40005), SetServer(0));
    EXPECT_EQ(ilb->GetActiveConnections(0, 2), 2u);
    uint32_t at14 = 0;
    Simulator::Schedule(Seconds(14.9), [&] { at14 = ilb->GetActiveConnections(0, 2); });
    Simulator::Stop(Seconds(16));
    Simulator::Run();
    // Die time 2 s; ilb_conn_cleanup cuts at its first run after it, 15 s: drained.
    EXPECT_EQ(at14, 2u);
    EXPECT_EQ(ilb->GetActiveConnections(0, 2), 0u);
    EXPECT_EQ(ilb->GetServerCounters(0, 2).drained, 2u);
    EXPECT_EQ(ilb->GetActiveConnections(0, 0), 3u);
    ilb->Dispose();
}

TEST_F(IlbServerSet, AddServerRefusesWhatTheKernelRefuses)
{
    // REQ: ILB-02 (illumos ilb.c ilb_server_add: "Check for duplicate." EEXIST on the address
    // or the name (strcasecmp); DSR: "there can be no port shifting": EINVAL; the address
    // family must be the rule's: EINVAL)
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    ilb->AddRule(SetRule("roundrobin", 2));
    IlbRule dsr = SetRule("roundrobin", 1, IlbRule::DSR);
    dsr.name = "dsr";
    dsr.ports = AdcPortRange(81, 81);
    ilb->AddRule(dsr);
    IlbServer s;
    s.name = "srv9";
    s.address = SetServer(1);
    const std::string dup = ConfigErrorOf([&] { ilb->AddServer(0, s); });
    EXPECT_TRUE(Has(dup, "rule 'web'") && Has(dup, "address 10.1.0.3 is also server 'srv2'") &&
                Has(dup, "EEXIST"))
        << dup;
    s.address = SetServer(5);
    s.name = "SRV1";
    const std::string name = ConfigErrorOf([&] { ilb->AddServer(0, s); });
    EXPECT_TRUE(Has(name, "same name") && Has(name, "EEXIST")) << name;
    s.name = "srv9";
    s.port = 8080;
    const std::string port = ConfigErrorOf([&] { ilb->AddServer(1, s); });
    EXPECT_TRUE(Has(port, "rule 'dsr'") && Has(port, "port 8080") && Has(port, "EINVAL") &&
                Has(port, "allowed no port or 81"))
        << port;
    s.port = 0;
    s.address = AdcIpAddress(Ipv6Address("fd00::9"));
    const std::string family = ConfigErrorOf([&] { ilb->AddServer(0, s); });
    EXPECT_TRUE(Has(family, "not of the VIP's family")) << family;
    EXPECT_EQ(ilb->GetRule(0).servers.size(), 2u);
    // A removed server's address is free again (ilb_server_del took it out of ir_servers).
    ilb->RemoveServer(0, 1);
    s.address = SetServer(1);
    EXPECT_EQ(ilb->AddServer(0, s), 2u);
    ilb->Dispose();
}

// ---------------------------------------------------------------------------------------------
// ilbadm at run time

TEST_F(IlbScenario, IlbadmKeepsTheGroupSortedAndAddsAndRemovesServersAtRunTime)
{
    // REQ: ILB-02 (illumos ilbd_sg.c i_add_srv2sg: the group is kept in ascending address
    // order and ilbd_rules.c i_update_ksrv_rules adds its servers in that order; add-server on
    // a rule's group: i_add_srv2krules -> ilb_server_add; remove-server: i_rem_srv_frm_krules
    // -> ilb_server_del)
    Topo t = Build(false, 1, 3); // servers 10.1.0.2, .3, .4; t.app on the ILB node
    AdcConfigReader reader(AdcIlbadmCommands::GetLanguage());
    reader.ReadString("create-servergroup -s server=10.1.0.4,10.1.0.2 websg\n"
                      "create-rule -e -i vip=10.10.10.10,port=53,protocol=udp "
                      "-m lbalg=roundrobin,type=HALF-NAT -o servergroup=websg rule1\n",
                      "ilb.conf");
    Ptr<IlbadmHelper> ilbadm = CreateObject<IlbadmHelper>();
    Ptr<IlbAppliance> app = ilbadm->Install(t.ilb, reader.GetStore());
    ASSERT_EQ(app, t.app);
    ASSERT_EQ(app->GetNRules(), 1u);
    const IlbRule& rule = app->GetRule(0);
    ASSERT_EQ(rule.servers.size(), 2u);
    EXPECT_EQ(rule.servers[0].address, AdcIpAddress(Ipv4Address("10.1.0.2")));
    EXPECT_EQ(rule.servers[1].address, AdcIpAddress(Ipv4Address("10.1.0.4")));
    reader.ReadString("add-server -s server=10.1.0.3 websg\n", "run-time.ilbadm");
    ilbadm->Sync();
    ASSERT_EQ(app->GetRule(0).servers.size(), 3u);
    EXPECT_EQ(app->GetRule(0).servers[2].address, AdcIpAddress(Ipv4Address("10.1.0.3")));
    EXPECT_EQ(app->GetAlgorithm(0)->GetOrder(), (std::vector<uint32_t>{2, 1, 0}));
    const std::string id = app->GetRule(0).servers[0].name; // 10.1.0.2's server ID
    reader.ReadString("remove-server -s server=" + id + " websg\n", "run-time.ilbadm");
    ilbadm->Sync();
    EXPECT_TRUE(app->IsServerRemoved(0, 0));
    EXPECT_EQ(app->GetAlgorithm(0)->GetOrder(), (std::vector<uint32_t>{2, 1}));
    // show-server lists what the kernel's rule holds.
    const std::string shown = ilbadm->Show("show-server");
    EXPECT_NE(shown.find("10.1.0.3"), std::string::npos) << shown;
    ilbadm->Dispose();
}

// ---------------------------------------------------------------------------------------------
// What ilbadm's show-statistics and show-hc-result print (item 6 of issue 30)

/// \return the words of the value line (the second) of ilbadm's one-row output \p text
std::vector<std::string>
ValueRow(const std::string& text)
{
    std::istringstream lines(text);
    std::string header;
    std::string row;
    std::getline(lines, header);
    std::getline(lines, row);
    std::istringstream words(row);
    std::vector<std::string> out;
    for (std::string w; words >> w;)
    {
        out.push_back(w);
    }
    return out;
}

TEST_F(IlbScenario, ShowStatisticsCountsWhatIlbCheckCountsAsDropped)
{
    // REQ: ILB-02 (illumos ilbadm_stats.c of_rule_stats: PKT_D and BYTES_D are the rules'
    // pkt_dropped and bytes_dropped kstats; ilb.c ilb_check counts them at no_server with the
    // packet's IP length, while ip_input.c counts a VIP's fragments in the global
    // ip_frag_dropped, not in the rule)
    Topo t = Build(false, 1, 2); // servers 10.1.0.2, 10.1.0.3
    AdcConfigReader reader(AdcIlbadmCommands::GetLanguage());
    reader.ReadString("create-servergroup -s server=10.1.0.2,10.1.0.3 sg\n"
                      "create-rule -e -i vip=10.10.10.10,port=53,protocol=udp "
                      "-m lbalg=roundrobin,type=HALF-NAT -o servergroup=sg dns\n",
                      "ilb.conf");
    Ptr<IlbadmHelper> ilbadm = CreateObject<IlbadmHelper>();
    ilbadm->Install(t.ilb, reader.GetStore());
    WatchAll(t);
    ilbadm->ScheduleLines(Seconds(0.5), reader, "disable-server _sg.0 _sg.1\n");
    // Two 200-byte datagrams (IP length 20 + 8 + 200 = 228) find no enabled server.
    Echo(t.clients.Get(0), kVip4, 53, 2, Seconds(1));
    // A 3000-byte one, fragmented by the client into three IPv4 fragments: dropped, not PKT_D.
    UdpEchoClientHelper big(Address(kVip4.GetIpv4()), 53);
    big.SetAttribute("MaxPackets", UintegerValue(1));
    big.SetAttribute("PacketSize", UintegerValue(3000));
    ApplicationContainer a = big.Install(t.clients.Get(0));
    a.Start(Seconds(2));
    Run(Seconds(3));

    EXPECT_EQ(m_log.Drops("no-server-up"), 2u);
    EXPECT_EQ(m_log.Drops("fragment-unsupported"), 3u);
    const std::vector<std::string> row = ValueRow(ilbadm->Show("show-statistics -a"));
    ASSERT_EQ(row.size(), 6u); // PKT_P BYTES_P PKT_U BYTES_U PKT_D BYTES_D
    EXPECT_EQ(row[4], "2");
    EXPECT_EQ(row[5], "456");
    EXPECT_EQ(t.app->GetRuleCounters(0).fragmentsDropped, 3u);
    ilbadm->Dispose();
}

TEST_F(IlbScenario, ShowHcResultSaysUnreachForAFailedPingCheck)
{
    // REQ: ILB-02 (illumos ilbd_hc.c ilbd_set_fail_state: "If this is a ping test, mark the
    // server as unreachable instead of dead": ILB_HCS_UNREACH, which ilbadm_hc.c
    // print_hc_result prints "unreach")
    Topo t = Build(false, 1, 2);
    AdcConfigReader reader(AdcIlbadmCommands::GetLanguage());
    reader.ReadString("create-servergroup -s server=10.1.0.2,10.1.0.3 sg\n"
                      "create-healthcheck -h hc-test=PING,hc-timeout=1,hc-count=1,"
                      "hc-interval=2 hcp\n"
                      "create-rule -e -i vip=10.10.10.10,port=53,protocol=udp "
                      "-m lbalg=roundrobin,type=HALF-NAT -h hc-name=hcp -o servergroup=sg p\n",
                      "ilb.conf");
    Ptr<IlbadmHelper> ilbadm = CreateObject<IlbadmHelper>();
    ilbadm->Install(t.ilb, reader.GetStore());
    // 10.1.0.3 hears nothing: it fails every probe.
    Ptr<RateErrorModel> deaf = CreateObject<RateErrorModel>();
    deaf->SetAttribute("ErrorRate", DoubleValue(1.0));
    deaf->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
    t.servers.Get(1)->GetDevice(1)->SetAttribute("ReceiveErrorModel", PointerValue(deaf));
    Run(Seconds(7));

    const std::string shown = ilbadm->Show("show-hc-result");
    std::map<std::string, std::string> status; // "rule server" -> STATUS
    std::istringstream lines(shown);
    std::string line;
    std::getline(lines, line); // the header
    while (std::getline(lines, line))
    {
        std::istringstream w(line);
        std::string rule;
        std::string hc;
        std::string id;
        std::string st;
        w >> rule >> hc >> id >> st;
        status[rule + " " + id] = st;
    }
    EXPECT_EQ(status["p _sg.0"], "alive") << shown;
    EXPECT_EQ(status["p _sg.1"], "unreach") << shown;
    ilbadm->Dispose();
}

// ---------------------------------------------------------------------------------------------
// ilbadm's short forms and what the kernel refuses (item 7 of issue 30)

TEST(IlbadmCompat, ShortSubcommandKeyAndValueNamesAreTheLongOnes)
{
    // REQ: ILB-01 (illumos ilbadm_import.c ilbadm_cmds: c_alias; ilbadm_rules.c
    // rl_*_keys and ilbadm_hc.c hc_parse_keys: the short key names; ilbadm_subr.c
    // algo_types, topo_types: the short values)
    AdcConfigReader reader(AdcIlbadmCommands::GetLanguage());
    reader.ReadString("create-sg -s server=10.1.0.2,10.1.0.3 sg\n"
                      "create-hc -h hc-test=PING,hc-tout=1,hc-intl=2 hc\n"
                      "create-rl -e -i vip=10.10.10.10,port=53,prot=udp "
                      "-m algo=hipp,topo=d -h hcn=hc -o sg=sg dsr\n"
                      "create-rl -i vip=10.10.10.10,port=54,protocol=udp "
                      "-m lbalg=rr,type=h -o servergroup=sg half\n"
                      "disable-srv _sg.1\n"
                      "enable-srv _sg.1\n"
                      "add-srv -s server=10.1.0.4 sg\n"
                      "remove-srv -s server=_sg.2 sg\n",
                      "short.ilbadm");
    const AdcConfigStore& store = reader.GetStore();
    Ptr<AdcIlbadmRule> dsr = store.Get<AdcIlbadmRule>(AdcIlbadmCommands::RULE, "dsr");
    ASSERT_TRUE(dsr);
    EXPECT_EQ(dsr->rule.protocol, 17);
    EXPECT_EQ(dsr->rule.algorithm, "hash-ip-port");
    EXPECT_EQ(dsr->rule.topology, IlbRule::DSR);
    EXPECT_EQ(dsr->healthCheck, "hc");
    Ptr<AdcIlbadmRule> half = store.Get<AdcIlbadmRule>(AdcIlbadmCommands::RULE, "half");
    ASSERT_TRUE(half);
    EXPECT_EQ(half->rule.algorithm, "roundrobin");
    EXPECT_EQ(half->rule.topology, IlbRule::HALF_NAT);
    Ptr<AdcIlbadmHealthCheck> hc =
        store.Get<AdcIlbadmHealthCheck>(AdcIlbadmCommands::HEALTH_CHECK, "hc");
    ASSERT_TRUE(hc);
    EXPECT_EQ(hc->timeout, 1u);
    EXPECT_EQ(hc->interval, 2u);
    Ptr<AdcIlbadmServerGroup> sg =
        store.Get<AdcIlbadmServerGroup>(AdcIlbadmCommands::SERVER_GROUP, "sg");
    EXPECT_EQ(sg->servers.size(), 2u);
    // export-config writes the long forms, once.
    const std::string out = reader.Show();
    EXPECT_NE(out.find("create-rule -e -i vip=10.10.10.10,port=53,protocol=udp"), std::string::npos)
        << out;
    EXPECT_EQ(out.find("create-rl"), std::string::npos) << out;
    EXPECT_NE(out.find("lbalg=hash-ip-port,type=DSR"), std::string::npos) << out;
}

TEST(IlbadmCompat, WhatIlbdAndTheKernelRefuseIsRefusedWithFileAndLine)
{
    // REQ: ILB-01 (illumos ilbd_sg.c i_test_and_insert: an address twice in a group is
    // ILB_STATUS_EEXIST; ilb.c ilb_server_add: a DSR server's port must be the rule's, EINVAL)
    AdcConfigReader reader(AdcIlbadmCommands::GetLanguage());
    std::string msg;
    try
    {
        reader.ReadString("create-servergroup -s server=10.1.0.2:80,10.1.0.2:81 sg\n", "a.ilbadm");
    }
    catch (const AdcConfigFileError& e)
    {
        msg = e.what();
    }
    EXPECT_EQ(msg.rfind("a.ilbadm:1: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("EEXIST"), std::string::npos) << msg;
    // A DSR rule whose server has another port: the appliance (the kernel) refuses it.
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    IlbRule r = SetRule("roundrobin", 2, IlbRule::DSR);
    r.servers[1].port = 8080;
    const std::string e = ConfigErrorOf([&] { ilb->AddRule(r); });
    EXPECT_TRUE(Has(e, "port 8080") && Has(e, "EINVAL") && Has(e, "allowed no port or 80")) << e;
    r.servers[1].port = 80; // the rule's own port is fine
    r.servers[1].address = SetServer(0);
    const std::string twice = ConfigErrorOf([&] { ilb->AddRule(r); });
    EXPECT_TRUE(Has(twice, "address 10.1.0.2 is also server 'srv1'") && Has(twice, "EEXIST"))
        << twice;
    r.servers[1].address = SetServer(1);
    EXPECT_EQ(ilb->AddRule(r), 0u);
    ilb->Dispose();
}

} // namespace
