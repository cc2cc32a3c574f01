/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the configuration front-end in ilbadm's language: server groups, health checks and
 * rules as ilbadm(8) and its sources define them, export-config's lines back, and errors that
 * name the file, the line, the word and the values allowed.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-ilbadm-commands.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/enum.h"
#include "ns3/ilb-appliance.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using ILB = AdcIlbadmCommands;

/// A Full-NAT rule with persistence, a health check and timers, over a server group whose
/// servers come from an address range and a later add-server.
const std::string kConfig = R"(# ilbadm import file
create-servergroup -s server=10.0.1.10-10.0.1.12:8080 webgroup
add-server -s server=10.0.1.20 webgroup
create-healthcheck -h hc-test=tcp,hc-timeout=2,hc-interval=10 hc1
create-rule -e -p -i vip=192.0.2.1,port=80,protocol=tcp \
    -m lbalg=hash-ip-port,type=NAT,proxy-src=10.0.9.1-10.0.9.4,pmask=/24 \
    -h hc-name=hc1 -t conn-drain=30,nat-timeout=90 -o servergroup=webgroup rule1
)";

/// What export-config prints for kConfig (ilbadm's order: server groups, health checks, rules;
/// one add-server per server; every health-check value; hc-port ANY when none was given).
const std::string kExported =
    "create-servergroup webgroup\n"
    "add-server -s server=10.0.1.10:8080 webgroup\n"
    "add-server -s server=10.0.1.11:8080 webgroup\n"
    "add-server -s server=10.0.1.12:8080 webgroup\n"
    "add-server -s server=10.0.1.20 webgroup\n"
    "create-healthcheck -h hc-test=tcp,hc-timeout=2,hc-count=3,hc-interval=10 hc1\n"
    "create-rule -e -p -i vip=192.0.2.1,port=80,protocol=tcp -m lbalg=hash-ip-port,type=NAT,"
    "proxy-src=10.0.9.1-10.0.9.4,pmask=/24 -h hc-name=hc1,hc-port=ANY -t conn-drain=30,"
    "nat-timeout=90 -o servergroup=webgroup rule1\n";

/// A reader of ilbadm lines, and the error a text gives.
class AdcConfigIlbadm : public adctest::ConfigReaderTest
{
  protected:
    AdcConfigIlbadm()
        : ConfigReaderTest(ILB::GetLanguage(), "ilb.conf")
    {
    }

    /// \return the rule \p name
    Ptr<AdcIlbadmRule> Rule(const std::string& name)
    {
        return m_reader.GetStore().Get<AdcIlbadmRule>(ILB::RULE, name);
    }
};

} // namespace

// REQ: ILB-01 (a rule: VIP, port, protocol), ILB-02 (its algorithm), ILB-05 (Full-NAT source
// REQ: addresses)
TEST_F(AdcConfigIlbadm, BuildsAnIlbRuleFromIlbadmLines)
{
    m_reader.ReadString(kConfig, "ilb.conf");

    // create-servergroup with a range, then add-server: one server per address, ilbd's IDs.
    Ptr<AdcIlbadmServerGroup> g =
        m_reader.GetStore().Get<AdcIlbadmServerGroup>(ILB::SERVER_GROUP, "webgroup");
    ASSERT_TRUE(g);
    ASSERT_EQ(g->servers.size(), 4u);
    const std::vector<std::string> addresses = {"10.0.1.10", "10.0.1.11", "10.0.1.12", "10.0.1.20"};
    for (std::size_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(g->servers[i].address, AdcIpAddress(Ipv4Address(addresses[i].c_str())));
        EXPECT_EQ(g->servers[i].port, i < 3 ? 8080 : 0); // no port: the one the client used
        EXPECT_EQ(g->servers[i].name, "_webgroup." + std::to_string(i));
    }

    // create-healthcheck: what was given, ilbadm's defaults for the rest (hc-count 3, ping).
    Ptr<AdcIlbadmHealthCheck> hc =
        m_reader.GetStore().Get<AdcIlbadmHealthCheck>(ILB::HEALTH_CHECK, "hc1");
    EXPECT_EQ(hc->test, "tcp");
    EXPECT_EQ(hc->timeout, 2u);
    EXPECT_EQ(hc->count, 3u);
    EXPECT_EQ(hc->interval, 10u);
    EXPECT_TRUE(hc->defaultPing);
    Ptr<AdcHealthMonitor> mon = hc->CreateMonitor();
    EXPECT_EQ(AdcNetScalerCommands::GetAttribute<EnumValue>(mon, "Type"), AdcHealthMonitor::TCP);
    EXPECT_EQ(AdcNetScalerCommands::GetAttribute<TimeValue>(mon, "Interval"), Seconds(10));
    EXPECT_EQ(AdcNetScalerCommands::GetAttribute<TimeValue>(mon, "ResponseTimeout"), Seconds(2));
    EXPECT_EQ(AdcNetScalerCommands::GetAttribute<UintegerValue>(mon, "Retries"), 3u);
    EXPECT_NO_THROW(mon->Validate());

    // create-rule: every option as ilbadm(8) defines it.
    Ptr<AdcIlbadmRule> rule = Rule("rule1");
    ASSERT_TRUE(rule);
    EXPECT_TRUE(rule->enabled); // -e
    const IlbRule r = rule->GetRule();
    EXPECT_EQ(r.name, "rule1");
    EXPECT_EQ(r.vip, AdcIpAddress(Ipv4Address("192.0.2.1")));
    EXPECT_EQ(r.ports.first, 80);
    EXPECT_EQ(r.ports.last, 80);
    EXPECT_EQ(r.protocol, AdcFlowKey::PROTO_TCP);
    EXPECT_EQ(r.algorithm, "hash-ip-port");
    EXPECT_EQ(r.topology, IlbRule::FULL_NAT); // ilbadm's "NAT" is full NAT
    EXPECT_EQ(r.natSourceFirst, AdcIpAddress(Ipv4Address("10.0.9.1")));
    EXPECT_EQ(r.natSourceLast, AdcIpAddress(Ipv4Address("10.0.9.4")));
    EXPECT_TRUE(r.sticky); // -p
    EXPECT_EQ(r.stickyPrefix, 24);
    EXPECT_EQ(r.connDrainTimeout, Seconds(30));
    EXPECT_EQ(r.natTimeout, Seconds(90));
    EXPECT_EQ(r.persistTimeout, Seconds(60)); // ILB's default
    EXPECT_EQ(rule->healthCheck, "hc1");
    EXPECT_EQ(rule->hcPort, "ANY");
    ASSERT_EQ(r.servers.size(), 4u); // the group's, as ILB rules follow their group
    EXPECT_EQ(r.servers[3].address, AdcIpAddress(Ipv4Address("10.0.1.20")));

    // The appliance takes the rule as it is.
    Ptr<IlbAppliance> ilb = CreateObject<IlbAppliance>();
    EXPECT_NO_THROW(ilb->AddRule(r));
}

// REQ: ILB-03 (DSR), ILB-04 (Half-NAT), ILB-01
TEST_F(AdcConfigIlbadm, DefaultsAndCaseRulesAreIlbadms)
{
    m_reader.ReadString("CREATE-SERVERGROUP -s server=[2001:db8::10]:53,[2001:db8::11]:53 v6\n"
                        "create-rule -i VIP=2001:db8::1,PORT=53,PROTOCOL=UDP "
                        "-m LBALG=ROUNDROBIN,TYPE=half-nat -o SERVERGROUP=v6 r6\n"
                        "create-servergroup g\n"
                        "create-rule -i vip=192.0.2.2,port=8080-8089 -m lbalg=Hash-IP,type=dsr "
                        "-o servergroup=g r4\n"
                        "create-rule -p -i vip=192.0.2.3,port=80 -m lbalg=hash-ip-vip,type=DSR "
                        "-o servergroup=g sticky\n");
    const IlbRule r6 = Rule("r6")->GetRule();
    EXPECT_FALSE(Rule("r6")->enabled); // ilbadm creates a rule disabled without -e
    EXPECT_EQ(r6.protocol, AdcFlowKey::PROTO_UDP);
    EXPECT_EQ(r6.algorithm, "roundrobin");
    EXPECT_EQ(r6.topology, IlbRule::HALF_NAT);
    EXPECT_FALSE(r6.sticky);
    ASSERT_EQ(r6.servers.size(), 2u);
    EXPECT_EQ(r6.servers[1].address, AdcIpAddress(Ipv6Address("2001:db8::11")));
    EXPECT_EQ(r6.servers[1].port, 53);
    const IlbRule r4 = Rule("r4")->GetRule();
    EXPECT_EQ(r4.protocol, AdcFlowKey::PROTO_TCP); // protocol defaults to tcp
    EXPECT_EQ(r4.ports.first, 8080);
    EXPECT_EQ(r4.ports.last, 8089);
    EXPECT_EQ(r4.algorithm, "hash-ip");
    EXPECT_EQ(r4.topology, IlbRule::DSR);
    EXPECT_EQ(r4.natTimeout, Seconds(0)); // 0: ILB's own default
    EXPECT_TRUE(Rule("r4")->healthCheck.empty());
    const IlbRule sticky = Rule("sticky")->GetRule();
    EXPECT_TRUE(sticky.sticky);
    EXPECT_EQ(sticky.stickyPrefix, 32); // -p without pmask: the whole address
    // Options are getopt's: case matters there.
    const std::string msg = ErrorOf("create-rule -E -i vip=192.0.2.9,port=1 -m lbalg=rr,type=DSR "
                                    "-o servergroup=g x\n");
    EXPECT_NE(msg.find("unknown parameter: word '-E'; allowed values are -e, -p, -i, -m, -h, -t, "
                       "-o"),
              std::string::npos)
        << msg;
    // enable-rule without names enables every rule.
    m_reader.ReadString("enable-rule\ndisable-rule r4\n");
    EXPECT_TRUE(Rule("r6")->enabled && Rule("sticky")->enabled);
    EXPECT_FALSE(Rule("r4")->enabled);
}

// REQ: ILB-01
TEST_F(AdcConfigIlbadm, ExportConfigRoundTrips)
{
    m_reader.ReadString(kConfig, "ilb.conf");
    const std::string shown = m_reader.Show();
    EXPECT_EQ(shown, kExported);
    AdcConfigReader again(ILB::GetLanguage());
    again.ReadString(shown);
    EXPECT_EQ(again.Show(), shown);
    // IPv6 servers print in brackets, the VIP without (as ilbadm's export does); -n survives.
    AdcConfigReader v6(ILB::GetLanguage());
    const std::string text = "create-servergroup g6\n"
                             "add-server -s server=[2001:db8::10]:80 g6\n"
                             "create-healthcheck -n -h hc-test=/opt/probe,hc-timeout=5,"
                             "hc-count=1,hc-interval=30 ext\n"
                             "create-rule -i vip=2001:db8::1,port=80,protocol=tcp -m "
                             "lbalg=roundrobin,type=DSR -h hc-name=ext,hc-port=8080 -t "
                             "persist-timeout=600 -o servergroup=g6 r\n";
    v6.ReadString(text);
    EXPECT_EQ(v6.Show(), text);
    EXPECT_EQ(v6.GetStore().Get<AdcIlbadmRule>(ILB::RULE, "r")->GetRule().persistTimeout,
              Seconds(600));
    // An external method cannot run in the model.
    EXPECT_THROW(v6.GetStore().Get<AdcIlbadmHealthCheck>(ILB::HEALTH_CHECK, "ext")->CreateMonitor(),
                 AdcConfigError);
}

// REQ: ILB-01, ILB-02
TEST_F(AdcConfigIlbadm, EveryErrorNamesFileLineWordAndAllowedValues)
{
    m_reader.ReadString(kConfig, "ilb.conf");
    const std::string rule = "create-rule -i vip=192.0.2.7,port=80 ";

    struct Case
    {
        std::string line;                //!< the bad line
        std::vector<std::string> expect; //!< what the message must say
    };

    const std::vector<Case> cases = {
        {"create-frob x",
         {"unknown command: word 'create-frob'", "create-servergroup, add-server"}},
        {rule + "-m lbalg=leastconn,type=DSR -o servergroup=webgroup x",
         {"bad value of lbalg: word 'leastconn'",
          "roundrobin, hash-ip, hash-ip-port, hash-ip-vip"}},
        {rule + "-m lbalg=roundrobin,type=FULLNAT -o servergroup=webgroup x",
         {"bad value of type: word 'FULLNAT'", "allowed values are DSR, NAT, HALF-NAT"}},
        {rule + "-m lbalg=roundrobin,topology=DSR -o servergroup=webgroup x",
         {"unknown key in -m: word 'topology'", "lbalg, type, proxy-src, pmask"}},
        {rule + "-m lbalg=roundrobin -o servergroup=webgroup x", {"-m needs lbalg= and type="}},
        {rule + "-m lbalg=roundrobin,type=DSR -o servergroup=nosuch x",
         {"servergroup is not defined: word 'nosuch'", "allowed values are webgroup"}},
        {rule + "-m lbalg=roundrobin,type=DSR -h hc-name=nohc -o servergroup=webgroup x",
         {"hc-name is not defined: word 'nohc'", "allowed values are hc1"}},
        {rule + "-m lbalg=roundrobin,type=DSR,pmask=/24 -o servergroup=webgroup x",
         {"pmask needs -p: word '/24'"}},
        {"create-rule -p -i vip=192.0.2.7,port=80 -m lbalg=roundrobin,type=DSR,pmask=/33 "
         "-o servergroup=webgroup x",
         {"bad value of pmask: word '33'", "1..32"}},
        {rule + "-m lbalg=roundrobin,type=HALF-NAT,proxy-src=10.0.0.1 -o servergroup=webgroup x",
         {"proxy-src is for type NAT only: word '10.0.0.1'"}},
        {rule + "-m lbalg=roundrobin,type=NAT -o servergroup=webgroup x",
         {"type NAT needs proxy-src: word 'NAT'"}},
        {rule + "-m lbalg=roundrobin,type=DSR -o servergroup=webgroup rule1",
         {"a rule of this name exists already: word 'rule1'"}},
        {rule + "-m lbalg=roundrobin,type=DSR -o servergroup=webgroup a-name-of-20-chars-x",
         {"rule is too long: word 'a-name-of-20-chars-x'", "at most 19 characters"}},
        {rule + "-m lbalg=roundrobin,type=DSR x", {"missing option", "word '-o'"}},
        {"create-rule -i vip=192.0.2.7 -m lbalg=roundrobin,type=DSR -o servergroup=webgroup x",
         {"-i needs vip= and port=: word 'vip=192.0.2.7'"}},
        {"create-rule -i vip=192.0.2.7,port=90-80 -m lbalg=roundrobin,type=DSR "
         "-o servergroup=webgroup x",
         {"bad value of port: word '80'", "91..65535"}},
        {"create-rule -i vip=192.0.2.7,port=80,protocol=sctp -m lbalg=roundrobin,type=DSR "
         "-o servergroup=webgroup x",
         {"bad value of protocol: word 'sctp'", "allowed values are tcp, udp"}},
        {"create-rule -i vip=192.0.2.7,port=80 -i vip=192.0.2.8,port=80 x",
         {"parameter given twice: word '-i'"}},
        {"create-rule -i vip=192.0.2.7,port=80,vip=192.0.2.8 -m lbalg=roundrobin,type=DSR "
         "-o servergroup=webgroup x",
         {"key given twice in -i: word 'vip'"}},
        {"create-servergroup -s server=10.0.0.1-10.0.2.1 big",
         {"bad server address range: word "
          "'10.0.0.1-10.0.2.1'",
          "at most 256 addresses"}},
        {"create-servergroup -s server=2001:db8::1:80 v6",
         {"IPv6 server address goes in "
          "brackets",
          "[ipv6][-[ipv6]][:port]"}},
        {"create-servergroup -s server=10.0.0.1:http g2",
         {"bad value of server port: word "
          "'http'",
          "1..65535"}},
        {"create-servergroup -s server=10.0.1.20 a-very-long-group",
         {"server group is too long", "at most 14 characters"}},
        {"create-servergroup g,h", {"bad server group name: word 'g,h'", "without ',' and '='"}},
        {"add-server -s server=10.0.1.20 webgroup",
         {"server is in the group already: word "
          "'10.0.1.20'"}},
        {"add-server -s host=10.0.1.21 webgroup",
         {"unknown key in -s: word 'host'",
          "values are "
          "server"}},
        {"create-healthcheck -h hc-test=http hc2",
         {"bad value of hc-test: word 'http'", "PING, TCP, UDP, /path/of/a/method"}},
        {"create-healthcheck -n -h hc-test=udp hc2",
         {"cannot disable the default ping for this "
          "test: word 'udp'"}},
        {"create-healthcheck -h hc-test=tcp,hc-timeout=30 hc2",
         {"hc-timeout must be less than "
          "hc-interval: word '30'",
          "1..29"}},
        {"create-healthcheck -h hc-timeout=3 hc2", {"missing key hc-test in -h"}},
        {"delete-servergroup webgroup", {"in use by a rule", "word 'rule1'"}},
        {"delete-healthcheck hc1", {"in use by a rule", "word 'rule1'"}},
        {"enable-rule rule1 nosuch", {"rule is not defined: word 'nosuch'", "values are rule1"}},
    };
    for (const Case& c : cases)
    {
        const std::string msg = ErrorOf("# comment\n\n" + c.line + "\ncreate-servergroup after\n");
        EXPECT_EQ(msg.rfind("ilb.conf:3: ", 0), 0u) << c.line << " -> " << msg;
        EXPECT_EQ(m_line, 3u) << c.line;
        for (const std::string& e : c.expect)
        {
            EXPECT_NE(msg.find(e), std::string::npos) << "'" << e << "' missing in: " << msg;
        }
        EXPECT_FALSE(m_reader.GetStore().Find(ILB::SERVER_GROUP, "after")) << c.line;
    }
    EXPECT_EQ(m_reader.Show(), kExported); // nothing half-done
    // A continued command reports its first line.
    ErrorOf("\n" + rule + "\\\n  -m lbalg=bad,type=DSR \\\n  -o servergroup=webgroup x\n");
    EXPECT_EQ(m_line, 2u);
}
