/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ilbadm on a running ILB: a script installed with IlbadmHelper drives the appliance, run-time
 * lines (disable-server, enable-server, disable-rule, remove-server) act on it while traffic
 * flows, and the show-* subcommands print what illumos ilbadm prints, checked against the
 * appliance's own counters and tables and against libofmt's layout rules.
 */

#include "adc-test-accounting.h"
#include "ilb-test-fixture.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-ilbadm-commands.h"
#include "ns3/ilbadm-helper.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using ILB = AdcIlbadmCommands;

/// The ILB test bed's addresses (IlbHelper: VIP 10.100.0.10, servers 192.168.100.11..,
/// NAT sources 10.200.0.1-4): a group of \p servers, a health check, one rule of \p type.
std::string
Script(const std::string& type, uint32_t servers, const std::string& extra = "")
{
    std::ostringstream s;
    s << "create-servergroup -s server=192.168.100.11-192.168.100." << 10 + servers << ":80 websg\n"
      << "create-healthcheck -h hc-test=tcp,hc-timeout=1,hc-count=2,hc-interval=2 hc1\n"
      << "create-rule -e " << extra
      << "-i vip=10.100.0.10,port=80 -m lbalg=" << (type == "DSR" ? "hash-ip-port" : "roundrobin")
      << ",type=" << type << (type == "NAT" ? ",proxy-src=10.200.0.1-10.200.0.4" : "")
      << " -h hc-name=hc1 -o servergroup=websg rule1\n";
    return s.str();
}

/// \return the lines of \p text
std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
    {
        out.push_back(l);
    }
    return out;
}

/// \return the blank-separated words of \p line
std::vector<std::string>
Words(const std::string& line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;)
    {
        out.push_back(w);
    }
    return out;
}

/// A test bed for \p topology (IlbHelper's, without its own rule) and a reader of ilbadm lines.
class AdcConfigIlbadmRuntime : public AdcIlbHelperTest
{
  protected:
    AdcConfigIlbadmRuntime()
        : m_reader(ILB::GetLanguage())
    {
    }

    /// Build the test bed, read \p script and install it. \return the topology
    IlbTopology Install(const std::string& topology,
                        uint32_t clients,
                        uint32_t servers,
                        const std::string& script)
    {
        Ptr<IlbHelper> h = MakeHelper(topology, clients, servers);
        h->SetAttribute("InstallIlb", BooleanValue(false));
        IlbTopology t = h->Build();
        m_reader.ReadString(script, "ilb.conf");
        m_ilbadm = CreateObject<IlbadmHelper>();
        m_ilbadm->Install(t, m_reader.GetStore());
        return t;
    }

    AdcConfigReader m_reader;   //!< the configuration
    Ptr<IlbadmHelper> m_ilbadm; //!< what installed it
};

} // namespace

// REQ: ILB-01, ILB-02, ILB-04
TEST_F(AdcConfigIlbadmRuntime, ScriptDrivesTheApplianceAndShowStatisticsAddsItsCounters)
{
    IlbTopology t = Install("HALF_NAT", 2, 2, Script("HALF-NAT", 2));
    ASSERT_TRUE(t.appliance);
    EXPECT_EQ(t.appliance->GetNRules(), 1u);
    EXPECT_EQ(t.ruleConfig.topology, IlbRule::HALF_NAT);
    EXPECT_EQ(t.ruleConfig.servers.size(), 2u);
    ASSERT_TRUE(t.monitor); // create-rule -h: the health check runs on the ILB
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 3;
    RunHttp(t, load, r, log);
    // 2 clients x 3 requests, one connection each; roundrobin: 3 per server.
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(2 * 3)));
    EXPECT_EQ(t.appliance->GetRuleCounters(0).connections, 6u);
    EXPECT_EQ(r.ilb.chosen.size(), 6u);
    for (uint32_t i = 0; i < 2; ++i)
    {
        uint32_t n = 0;
        for (const auto& [peer, k] : r.peers[i])
        {
            n += k;
        }
        EXPECT_EQ(n, 3u) << "server " << i;
    }
    // show-statistics -a: the header, then the sums of the servers' counters (both directions
    // cross a Half-NAT ILB), no drops: PKT_D and BYTES_D are ilb_stat's pkt_dropped and
    // bytes_dropped kstats, numbers (0 here).
    const auto stats = Lines(m_ilbadm->Show("show-statistics -a"));
    ASSERT_EQ(stats.size(), 2u);
    EXPECT_EQ(
        Words(stats[0]),
        (std::vector<std::string>{"PKT_P", "BYTES_P", "PKT_U", "BYTES_U", "PKT_D", "BYTES_D"}));
    uint64_t pkts = 0;
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < 2; ++i)
    {
        const IlbAppliance::Counters c = t.appliance->GetServerCounters(0, i);
        EXPECT_GT(c.packetsOut, 0u);
        pkts += c.packetsIn + c.packetsOut;
        bytes += c.bytesIn + c.bytesOut;
    }
    EXPECT_EQ(Words(stats[1]),
              (std::vector<
                  std::string>{std::to_string(pkts), std::to_string(bytes), "0", "0", "0", "0"}));
    // -s: one server's share.
    const auto one = Words(Lines(m_ilbadm->Show("show-statistics -a -s _websg.1"))[1]);
    const IlbAppliance::Counters c1 = t.appliance->GetServerCounters(0, 1);
    EXPECT_EQ(one[0], std::to_string(c1.packetsIn + c1.packetsOut));
    // show-hc-result: both servers answered the TCP check (alive, no failure), a probe every
    // 2 s, so the last one started less than 2 s before the end.
    const auto hc = Lines(m_ilbadm->Show("show-hc-result"));
    ASSERT_EQ(hc.size(), 3u);
    EXPECT_EQ(Words(hc[0]),
              (std::vector<std::string>{"RULENAME",
                                        "HCNAME",
                                        "SERVERID",
                                        "STATUS",
                                        "FAIL",
                                        "LAST",
                                        "NEXT",
                                        "RTT"}));
    for (uint32_t i = 0; i < 2; ++i)
    {
        const auto w = Words(hc[1 + i]);
        ASSERT_EQ(w.size(), 8u);
        EXPECT_EQ(w[0], "rule1");
        EXPECT_EQ(w[1], "hc1");
        EXPECT_EQ(w[2], "_websg." + std::to_string(i));
        EXPECT_EQ(w[3], "alive");
        EXPECT_EQ(w[4], "0");
        EXPECT_EQ(w[5], "00:00:04"); // probes start at 0, 2, 4 s; the run ends at 6 s
        EXPECT_EQ(w[6], "00:00:06");
        EXPECT_GT(std::stoul(w[7]), 0u);
    }
}

// REQ: ILB-02 (disable-server / enable-server at run time: no new flows to a disabled server)
TEST_F(AdcConfigIlbadmRuntime, RunTimeDisableAndEnableServerSteerNewFlows)
{
    IlbTopology t = Install("HALF_NAT", 1, 2, Script("HALF-NAT", 2));
    m_ilbadm->ScheduleLines(Seconds(1.5), m_reader, "disable-server _websg.1\n", "run-time");
    std::string during;
    Simulator::Schedule(Seconds(2), [this, &during]() { during = m_ilbadm->Show("show-server"); });
    m_ilbadm->ScheduleLines(Seconds(3.5), m_reader, "enable-server _websg.1\n", "run-time");
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 20;
    load.stop = Seconds(9);
    RunHttp(t, load, r, log);
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(20)));
    uint32_t before = 0;
    uint32_t after = 0;
    for (const IlbLog::Chosen& c : r.ilb.chosen)
    {
        if (c.when > Seconds(1.5) && c.when < Seconds(3.5))
        {
            EXPECT_EQ(c.server, 0u) << "new flow to the disabled server at " << c.when.As(Time::S);
        }
        before += c.server == 1 && c.when < Seconds(1.5) ? 1 : 0;
        after += c.server == 1 && c.when > Seconds(3.5) ? 1 : 0;
    }
    EXPECT_GT(before, 0u);
    EXPECT_GT(after, 0u);
    // show-server while disabled: STATUS D for _websg.1 only.
    const auto lines = Lines(during);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(Words(lines[0]),
              (std::vector<std::string>{"SERVERID",
                                        "ADDRESS",
                                        "PORT",
                                        "RULENAME",
                                        "STATUS",
                                        "SERVERGROUP"}));
    EXPECT_EQ(
        Words(lines[1]),
        (std::vector<std::string>{"_websg.0", "192.168.100.11", "80", "rule1", "E", "websg"}));
    EXPECT_EQ(
        Words(lines[2]),
        (std::vector<std::string>{"_websg.1", "192.168.100.12", "80", "rule1", "D", "websg"}));
    EXPECT_TRUE(t.appliance->IsServerEnabled(0, 1)); // enabled again at the end
}

// REQ: ILB-01 (disable-rule at run time: the rule balances no new flow; illumos ilb_rule_hash
// passes its packets as ordinary traffic and counts them pkt_not_processed, PKT_U)
TEST_F(AdcConfigIlbadmRuntime, RunTimeDisableRuleStopsNewFlows)
{
    IlbTopology t = Install("HALF_NAT", 1, 2, Script("HALF-NAT", 2));
    m_ilbadm->ScheduleLines(Seconds(2), m_reader, "disable-rule rule1\n", "run-time");
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 10; // every 0.2 s from 0.5 s
    load.stop = Seconds(8);
    RunHttp(t, load, r, log);
    uint32_t failed = 0;
    for (const AdcRequestRecord& rec : r.done)
    {
        if (rec.start < Seconds(1.9))
        {
            EXPECT_EQ(rec.outcome, AdcRequestOutcome::COMPLETED) << rec.start.As(Time::S);
        }
        if (rec.start > Seconds(2.0))
        {
            EXPECT_NE(rec.outcome, AdcRequestOutcome::COMPLETED) << rec.start.As(Time::S);
            failed++;
        }
    }
    EXPECT_GT(failed, 0u);
    for (const IlbLog::Chosen& c : r.ilb.chosen)
    {
        EXPECT_LT(c.when, Seconds(2)) << "new flow balanced after disable-rule";
    }
    // Not dropped by the ILB: passed to IP (ilb_rule_hash: "Just update the stats if the rule
    // is disabled"), which has nowhere to deliver a packet to the VIP.
    EXPECT_EQ(t.appliance->GetRuleCounters(0).drops, 0u);
    EXPECT_GT(t.appliance->GetRuleCounters(0).packetsNotProcessed, 0u);
    EXPECT_GT(t.appliance->GetRuleCounters(0).bytesNotProcessed,
              40 * t.appliance->GetRuleCounters(0).packetsNotProcessed - 1); // >= IP + TCP headers
    // show-statistics -a: PKT_U is the rule's pkt_not_processed.
    const auto stats = Words(Lines(m_ilbadm->ShowStatistics())[1]);
    ASSERT_EQ(stats.size(), 6u);
    EXPECT_EQ(stats[2], std::to_string(t.appliance->GetRuleCounters(0).packetsNotProcessed));
    EXPECT_FALSE(t.appliance->IsRuleEnabled(0));
    EXPECT_EQ(Words(Lines(m_ilbadm->ShowRule(false))[1])[1], "D");
}

// REQ: ILB-05 (Full-NAT: show-nat lists the live NAT entries), ILB-02 (sticky: show-persist)
TEST_F(AdcConfigIlbadmRuntime, ShowNatAndShowPersistListTheAppliancesTables)
{
    IlbTopology t = Install("FULL_NAT", 2, 2, Script("NAT", 2, "-p "));
    std::string nat;
    std::string persist;
    std::string natOne;
    uint32_t tableSize = 0;
    uint32_t stickySize = 0;
    // Mid-run, while connections are open: every client has a request in flight or lingering.
    Simulator::Schedule(Seconds(1.05), [&]() {
        nat = m_ilbadm->ShowNat();
        natOne = m_ilbadm->Show("show-nat 1");
        persist = m_ilbadm->ShowPersist();
        tableSize = t.appliance->GetCompactIpv4Table()
                        ? t.appliance->GetNatTable()->GetSize()
                        : t.appliance->GetConnectionTable()->GetSize();
        stickySize = t.appliance->GetStickyTable().GetSize();
    });
    Recorder r;
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    Load load;
    load.requestsPerClient = 4;
    RunHttp(t, load, r, log);
    EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(2 * 4)));
    // One line per live NAT entry: "TCP: client.port > VIP.80 >>> nat.port > server.80".
    const auto lines = Lines(nat);
    ASSERT_GT(tableSize, 0u);
    EXPECT_EQ(lines.size(), tableSize);
    for (const std::string& l : lines)
    {
        const auto w = Words(l);
        ASSERT_EQ(w.size(), 8u) << l;
        EXPECT_EQ(w[0], "TCP:");
        EXPECT_EQ(w[1].rfind("10.1.0.", 0), 0u) << l; // a client
        EXPECT_EQ(w[3], "10.100.0.10.80");
        EXPECT_EQ(w[4], ">>>");
        EXPECT_EQ(w[5].rfind("10.200.0.", 0), 0u) << l; // a proxy-src address
        EXPECT_TRUE(w[7] == "192.168.100.11.80" || w[7] == "192.168.100.12.80") << l;
    }
    // -p, pmask /32: one sticky entry per client, "rule1: client --> server".
    EXPECT_EQ(stickySize, 2u);
    const auto sticky = Lines(persist);
    ASSERT_EQ(sticky.size(), stickySize);
    for (std::size_t i = 0; i < sticky.size(); ++i)
    {
        const auto w = Words(sticky[i]);
        ASSERT_EQ(w.size(), 4u);
        EXPECT_EQ(w[0], "rule1:");
        EXPECT_EQ(ClientAddresses(t).count(w[1]), 1u) << sticky[i];
        EXPECT_EQ(w[2], "-->");
    }
    EXPECT_EQ(Lines(natOne), std::vector<std::string>{lines.front()}); // show-nat 1: the oldest
}

// REQ: ILB-01, ILB-02
TEST_F(AdcConfigIlbadmRuntime, ShowOutputIsLaidOutAsLibofmtDoes)
{
    Install("HALF_NAT", 1, 2, Script("HALF-NAT", 2));
    // show-rule: RULENAME 20, STATUS 7, LBALG 12, TYPE 8, PROTOCOL 5, VIP 16, PORT last.
    // "PROTOCOL" (8) overflows its 5 by 4 (3 + the blank), which VIP gives back; "HALF-NAT"
    // (8) overflows TYPE by 1, which PROTOCOL's "TCP" gives back.
    const std::string rule = std::string("RULENAME") + std::string(12, ' ') + "STATUS" + " " +
                             "LBALG" + std::string(7, ' ') + "TYPE" + std::string(4, ' ') +
                             "PROTOCOL " + "VIP" + std::string(16 - 4 - 3, ' ') + "PORT\n" +
                             "rule1" + std::string(15, ' ') + "E" + std::string(6, ' ') +
                             "roundrobin  " + "HALF-NAT " + "TCP " + "10.100.0.10" +
                             std::string(5, ' ') + "80\n";
    EXPECT_EQ(m_ilbadm->Show("show-rule"), rule);
    // -f: "NAME: value" lines, names right-justified to the longest (PERSIST-TIMEOUT, 15).
    const auto full = Lines(m_ilbadm->Show("show-rule -f rule1"));
    ASSERT_EQ(full.size(), 16u);
    EXPECT_EQ(full[0], "       RULENAME: rule1");
    EXPECT_EQ(full[1], "         STATUS: E");
    EXPECT_EQ(full[6], "      PROXY-SRC: --"); // HALF-NAT: none
    EXPECT_EQ(full[7], "          PMASK: --"); // no -p
    EXPECT_EQ(full[8], "        HC-NAME: hc1");
    EXPECT_EQ(full[9], "        HC-PORT: ANY");
    EXPECT_EQ(full[13], "    SERVERGROUP: websg");
    EXPECT_EQ(full[15], "        SERVERS: _websg.0,_websg.1");
    // show-healthcheck: HCNAME 14, TIMEOUT 8, COUNT 8, INTERVAL 9, DEF_PING 9, TEST last.
    EXPECT_EQ(m_ilbadm->Show("show-healthcheck"),
              "HCNAME        TIMEOUT COUNT   INTERVAL DEF_PING TEST\n"
              "hc1           1       2       2        Y        tcp\n");
    // show-servergroup: SGNAME 15, SERVERID 20, MINPORT 8, MAXPORT 8, IP_ADDRESS last.
    EXPECT_EQ(m_ilbadm->Show("show-servergroup"),
              "SGNAME         SERVERID            MINPORT MAXPORT IP_ADDRESS\n"
              "websg          _websg.0            80      80      192.168.100.11\n"
              "websg          _websg.1            80      80      192.168.100.12\n");
    // Unknown subcommands and options name what is allowed.
    for (const char* bad : {"show-frob", "show-rule -x", "show-nat 0", "show-rule nosuch"})
    {
        try
        {
            m_ilbadm->Show(bad);
            ADD_FAILURE() << bad << " did not fail";
        }
        catch (const AdcConfigError& e)
        {
            const std::string msg = e.what();
            EXPECT_NE(msg.find("allowed"), std::string::npos) << msg;
        }
    }
    EXPECT_THROW(m_ilbadm->Show("show-rule nosuch"), AdcConfigError);
}

// REQ: ILB-01 (export-config writes what import reads back)
TEST_F(AdcConfigIlbadmRuntime, ExportConfigRoundTripsAfterRunTimeChanges)
{
    Install("FULL_NAT", 1, 3, Script("NAT", 3, "-p "));
    m_reader.ReadString("remove-server -s server=_websg.1 websg\n"
                        "create-servergroup -s server=[fd00::1]-[fd00::2]:8080 v6sg\n"
                        "create-healthcheck -n -h hc-test=tcp hc2\n"
                        "create-rule -p -i vip=fd00:100::10,port=80-89,protocol=udp "
                        "-m lbalg=hash-ip-vip,type=HALF-NAT,pmask=/64 -h hc-name=hc2,hc-port=81 "
                        "-t conn-drain=5,persist-timeout=30 -o servergroup=v6sg rule6\n",
                        "later");
    const std::string first = m_ilbadm->ExportConfig();
    AdcConfigReader again(ILB::GetLanguage());
    again.ReadString(first, "exported");
    EXPECT_EQ(again.Show(), first);
    // The removed server is not exported; the group keeps the other two.
    EXPECT_EQ(first.find("192.168.100.12"), std::string::npos);
    EXPECT_NE(first.find("add-server -s server=192.168.100.13:80 websg"), std::string::npos);
    EXPECT_EQ(
        again.GetStore().Get<AdcIlbadmServerGroup>(ILB::SERVER_GROUP, "websg")->servers.size(),
        2u);
    Ptr<AdcIlbadmRule> r6 = again.GetStore().Get<AdcIlbadmRule>(ILB::RULE, "rule6");
    ASSERT_TRUE(r6);
    EXPECT_FALSE(r6->enabled);
    EXPECT_EQ(r6->rule.stickyPrefix, 64);
    EXPECT_EQ(r6->hcPort, "81");
    EXPECT_EQ(r6->connDrain, 5u);
}

// REQ: ILB-01, ILB-02 (run-time commands: errors name the file, the line, the word, what is
// allowed, and change nothing)
TEST_F(AdcConfigIlbadmRuntime, RunTimeCommandErrorsNameFileLineAndAllowedValues)
{
    const IlbTopology t = Install("HALF_NAT", 1, 2, Script("HALF-NAT", 2));

    struct Case
    {
        std::string line;                //!< the bad line
        std::vector<std::string> expect; //!< what the message must say
    };

    const std::vector<Case> cases = {
        {"disable-server _websg.0 _websg.9",
         {"server ID is not defined: word '_websg.9'", "_websg.0, _websg.1"}},
        {"enable-server websg.0", {"not a server ID", "word 'websg.0'"}},
        {"disable-server", {"disable-server"}},
        {"remove-server -s server=_websg.0,_other.3 websg",
         {"server ID is not in server group websg: word '_other.3'", "_websg.0, _websg.1"}},
        {"remove-server -s server=_websg.0 nosuch",
         {"server group is not defined: word 'nosuch'", "websg"}},
        {"disable-rule rule9", {"rule is not defined: word 'rule9'", "rule1"}},
    };
    for (const Case& c : cases)
    {
        std::string msg;
        try
        {
            m_reader.ReadString("# at 2 s\n" + c.line + "\n", "run-time.ilbadm");
        }
        catch (const AdcConfigFileError& e)
        {
            msg = e.what();
            EXPECT_EQ(e.GetLine(), 2u) << c.line;
        }
        EXPECT_EQ(msg.rfind("run-time.ilbadm:2: ", 0), 0u) << c.line << " -> " << msg;
        for (const std::string& e : c.expect)
        {
            EXPECT_NE(msg.find(e), std::string::npos) << "'" << e << "' missing in: " << msg;
        }
    }
    // Nothing half-done: both servers still in the group, both enabled.
    Ptr<AdcIlbadmServerGroup> g =
        m_reader.GetStore().Get<AdcIlbadmServerGroup>(ILB::SERVER_GROUP, "websg");
    EXPECT_EQ(g->servers.size(), 2u);
    EXPECT_TRUE(g->disabled.empty());
    // A server added to the group of a rule on the ILB joins the live rule, as illumos's
    // ilb_server_add does (ilbd adds it to every rule using the group).
    m_reader.ReadString("add-server -s server=192.168.100.13:80 websg\n", "run-time.ilbadm");
    EXPECT_NO_THROW(m_ilbadm->Sync());
    EXPECT_EQ(t.appliance->GetRule(0).servers.size(), 3u);
}
