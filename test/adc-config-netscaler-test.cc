/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the configuration front-end in NetScaler's language: ns.conf lines build services,
 * service groups, monitors and load-balancing virtual servers as the command reference
 * defines them, print back as the same lines, and every kind of mistake is an error naming the
 * file, the line, the word and the values allowed.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-service-group.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using adctest::HasAll;

namespace
{

using NS = AdcNetScalerCommands;

/// One load-balancing set-up, as an ns.conf excerpt: a monitor, two services (one with the
/// client-IP header), a service group with two members, a virtual server with SOURCEIP
/// persistence and a backup virtual server over the group.
const std::string kConfig = R"(# ns.conf excerpt
add lb monitor mon-http HTTP -httpRequest "GET /health" -respCode 200 -interval 10 -resptimeout 3 -retries 2
add service web1 10.0.1.11 HTTP 80 -cip ENABLED X-Forwarded-For -maxClient 100
add service web2 10.0.1.12 HTTP 8080 -useproxyport NO

add serviceGroup pool HTTP -maxClient 50
bind serviceGroup pool 10.0.2.1 80 -weight 3
bind serviceGroup pool 10.0.2.2 80
add lb vserver lb-web HTTP 192.0.2.10 80 -lbMethod ROUNDROBIN -persistenceType SOURCEIP -timeout 5
add lb vserver lb-backup HTTP 192.0.2.11 80
set lb vserver lb-web -backupVServer lb-backup
bind lb vserver lb-web web1 -weight 2
bind lb vserver lb-web web2
bind lb vserver lb-backup pool
bind service web1 -monitorName mon-http
)";

/// What Show must print for kConfig: ns.conf's order, each object's parameters that differ
/// from the command reference's defaults (respCode 200 is the default, so it goes).
const std::string kShown =
    R"(add lb monitor mon-http HTTP -httpRequest "GET /health" -interval 10 -resptimeout 3 -retries 2
add service web1 10.0.1.11 HTTP 80 -cip ENABLED X-Forwarded-For -maxClient 100
add service web2 10.0.1.12 HTTP 8080 -useproxyport NO
add serviceGroup pool HTTP -maxClient 50
bind serviceGroup pool 10.0.2.1 80 -weight 3
bind serviceGroup pool 10.0.2.2 80
add lb vserver lb-web HTTP 192.0.2.10 80 -lbMethod ROUNDROBIN -persistenceType SOURCEIP -timeout 5
add lb vserver lb-backup HTTP 192.0.2.11 80
set lb vserver lb-web -backupVServer lb-backup
bind lb vserver lb-web web1 -weight 2
bind lb vserver lb-web web2
bind lb vserver lb-backup pool
bind service web1 -monitorName mon-http
)";

/// A reader of NetScaler lines, and the error a text gives.
class AdcConfigNetScaler : public adctest::ConfigReaderTest
{
  protected:
    AdcConfigNetScaler()
        : ConfigReaderTest(NS::GetLanguage(), "ns.conf")
    {
    }

    /// \return the object \p name of kind \p kind, as a T
    template <typename T>
    Ptr<T> Get(const std::string& kind, const std::string& name)
    {
        return m_reader.GetStore().Get<T>(kind, name);
    }
};

} // namespace

// REQ: CS-11 (configuration mirrors NetScaler's commands), SLB-03 (monitors bound to services)
TEST_F(AdcConfigNetScaler, BuildsAVirtualServerWithServicesAndAMonitor)
{
    m_reader.ReadString(kConfig, "ns.conf");

    // add lb monitor: type HTTP, what was given, the command reference's defaults for the rest.
    Ptr<AdcHealthMonitor> mon = Get<AdcHealthMonitor>(NS::LB_MONITOR, "mon-http");
    ASSERT_TRUE(mon);
    EXPECT_EQ(NS::GetAttribute<EnumValue>(mon, "Type"), AdcHealthMonitor::HTTP);
    EXPECT_EQ(NS::GetAttribute<StringValue>(mon, "HttpRequest"), "GET /health");
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(mon, "HttpExpectedStatus"), 200u);
    EXPECT_EQ(NS::GetAttribute<TimeValue>(mon, "Interval"), Seconds(10));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(mon, "ResponseTimeout"), Seconds(3));
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(mon, "Retries"), 2u);
    EXPECT_EQ(NS::GetAttribute<TimeValue>(mon, "DownTime"), Seconds(30));  // default
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(mon, "SuccessRetries"), 1u); // default

    // add service: address, type, port; -cip with its header; defaults elsewhere.
    Ptr<AdcService> web1 = Get<AdcService>(NS::SERVICE, "web1");
    ASSERT_TRUE(web1);
    EXPECT_EQ(web1->GetAddress(), AdcIpAddress(Ipv4Address("10.0.1.11")));
    EXPECT_EQ(web1->GetServiceType(), "HTTP");
    EXPECT_EQ(web1->GetPort(), 80);
    EXPECT_TRUE(web1->GetCip());
    EXPECT_EQ(web1->GetCipHeader(), "X-Forwarded-For");
    EXPECT_EQ(web1->GetMaxClient(), 100u);
    EXPECT_TRUE(web1->GetUseProxyPort()); // -useproxyport defaults to YES
    EXPECT_FALSE(web1->GetUsip());
    EXPECT_EQ(web1->GetAdminState(), AdcService::ENABLED);
    EXPECT_EQ(web1->GetMonitors(), std::vector<Ptr<AdcHealthMonitor>>{mon});
    Ptr<AdcService> web2 = Get<AdcService>(NS::SERVICE, "web2");
    EXPECT_EQ(web2->GetPort(), 8080);
    EXPECT_FALSE(web2->GetUseProxyPort());
    EXPECT_FALSE(web2->GetCip());
    EXPECT_EQ(web2->GetMaxClient(), 0u);

    // add serviceGroup and its members.
    Ptr<AdcServiceGroup> pool = Get<AdcServiceGroup>(NS::SERVICE_GROUP, "pool");
    ASSERT_EQ(pool->GetMembers().size(), 2u);
    EXPECT_EQ(pool->GetMembers()[0]->GetWeight(), 3u);
    EXPECT_EQ(pool->GetMembers()[1]->GetWeight(), 1u);
    EXPECT_EQ(pool->GetMembers()[1]->GetMaxClient(), 50u); // the group's setting

    // add lb vserver, set -backupVServer, bind.
    Ptr<AdcVirtualServer> lb = Get<AdcVirtualServer>(NS::LB_VSERVER, "lb-web");
    ASSERT_TRUE(lb);
    EXPECT_EQ(lb->GetVip(), AdcIpAddress(Ipv4Address("192.0.2.10")));
    EXPECT_EQ(lb->GetPort(), 80);
    EXPECT_EQ(lb->GetLbMethodName(), "ROUNDROBIN");
    EXPECT_EQ(lb->GetPersistenceType(), AdcPersistenceType::SOURCEIP);
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(lb, "Timeout"), 5u);
    EXPECT_EQ(lb->GetBackupVServer(), Get<AdcVirtualServer>(NS::LB_VSERVER, "lb-backup"));
    ASSERT_EQ(lb->GetServiceBindings().size(), 2u);
    EXPECT_EQ(lb->GetLbMethod()->GetBackend(0).weight, 2u); // -weight 2
    EXPECT_EQ(lb->GetLbMethod()->GetBackend(1).weight, 1u); // the service's own
    EXPECT_TRUE(lb->GetServiceBindings().size() == 2 &&
                Get<AdcVirtualServer>(NS::LB_VSERVER, "lb-backup")->GetServiceBindings()[0].group);

    // The bound monitor has not answered (it runs nowhere): web1 is UNKNOWN, so web2 serves.
    AdcLbContext ctx;
    ctx.flow = AdcFlowKey(Ipv4Address("10.9.0.1"),
                          Ipv4Address("192.0.2.10"),
                          40000,
                          80,
                          AdcFlowKey::PROTO_TCP);
    EXPECT_EQ(web1->GetState(), AdcService::State::UNKNOWN);
    EXPECT_EQ(lb->Select(ctx, Seconds(0)).service, web2);
}

// REQ: CS-11
TEST_F(AdcConfigNetScaler, DefaultsAreTheCommandReferences)
{
    m_reader.ReadString("add lb vserver v HTTP 192.0.2.1 80\n"
                        "add lb monitor m TCP\n"
                        "add service s 10.0.0.1 TCP 25\n");
    Ptr<AdcVirtualServer> v = Get<AdcVirtualServer>(NS::LB_VSERVER, "v");
    EXPECT_EQ(v->GetLbMethodName(), "LEASTCONNECTION");
    EXPECT_EQ(v->GetPersistenceType(), AdcPersistenceType::NONE);
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(v, "Timeout"), 2u);
    EXPECT_EQ(v->GetAdminState(), AdcService::ENABLED);
    Ptr<AdcHealthMonitor> m = Get<AdcHealthMonitor>(NS::LB_MONITOR, "m");
    EXPECT_EQ(NS::GetAttribute<TimeValue>(m, "Interval"), Seconds(5));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(m, "ResponseTimeout"), Seconds(2));
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(m, "Retries"), 3u);
    EXPECT_EQ(NS::GetAttribute<TimeValue>(m, "DownTime"), Seconds(30));
    Ptr<AdcService> s = Get<AdcService>(NS::SERVICE, "s");
    EXPECT_TRUE(s->GetUseProxyPort() && !s->GetUsip() && !s->GetCip() && s->GetHealthMonitor());
    EXPECT_EQ(s->GetMaxClient(), 0u);
    // Everything at its default prints back as the bare command.
    EXPECT_EQ(m_reader.Show(),
              "add lb monitor m TCP\n"
              "add service s 10.0.0.1 TCP 25\n"
              "add lb vserver v HTTP 192.0.2.1 80\n");
}

// REQ: CS-11, GSLB-10 (set lb monitor <name> <type> -interval 10 sec -resptimeout 5 sec)
TEST_F(AdcConfigNetScaler, KeywordsInAnyCaseNamesExactQuotesAndUnits)
{
    m_reader.ReadString("ADD LB MONITOR ldns-tcp tcp\n"
                        "set lb monitor ldns-tcp TCP -interval 10 sec -resptimeout 5 sec\n"
                        "Add Service \"web one\" 10.0.0.1 http 80 -USEPROXYPORT no\n"
                        "add lb vserver v http 192.0.2.1 80 -lbmethod roundRobin\n"
                        "bind lb vserver v 'web one'\n"
                        "set lb monitor ldns-tcp TCP -downTime 6500 MSEC -interval 1 MIN\n");
    Ptr<AdcHealthMonitor> m = Get<AdcHealthMonitor>(NS::LB_MONITOR, "ldns-tcp");
    EXPECT_EQ(NS::GetAttribute<TimeValue>(m, "Interval"), Minutes(1));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(m, "ResponseTimeout"), Seconds(5));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(m, "DownTime"), MilliSeconds(6500));
    Ptr<AdcService> s = Get<AdcService>(NS::SERVICE, "web one");
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->GetUseProxyPort());
    EXPECT_EQ(s->GetServiceType(), "HTTP");
    EXPECT_EQ(Get<AdcVirtualServer>(NS::LB_VSERVER, "v")->GetLbMethodName(), "ROUNDROBIN");
    // Object names are case-sensitive.
    const std::string msg = ErrorOf("bind lb vserver V 'web one'\n");
    EXPECT_TRUE(HasAll(msg, {"virtual server is not defined: word 'V'", "allowed values are v"}));
    // Values with blanks and quotes print back quoted, and read back the same.
    m_reader.ReadString("add lb monitor h HTTP -httpRequest \"GET /a\\\"b\"\n");
    EXPECT_EQ(
        NS::GetAttribute<StringValue>(Get<AdcHealthMonitor>(NS::LB_MONITOR, "h"), "HttpRequest"),
        "GET /a\"b");
    EXPECT_TRUE(HasAll(m_reader.Show(),
                       {"add lb monitor ldns-tcp TCP -interval 60 -resptimeout 5 -downTime 6500 "
                        "MSEC\n",
                        "add lb monitor h HTTP -httpRequest \"GET /a\\\"b\"\n",
                        "add service \"web one\" 10.0.0.1 HTTP 80 -useproxyport NO\n",
                        "bind lb vserver v \"web one\"\n"}));
}

// REQ: CS-11
TEST_F(AdcConfigNetScaler, ConfigurationRoundTrips)
{
    m_reader.ReadString(kConfig, "ns.conf");
    const std::string shown = m_reader.Show();
    EXPECT_EQ(shown, kShown);
    AdcConfigReader again(NS::GetLanguage());
    again.ReadString(shown, "shown");
    EXPECT_EQ(again.Show(), shown);
    // States and wildcards print back too.
    AdcConfigReader third(NS::GetLanguage());
    const std::string more = "add service up1 10.0.0.1 ANY * -state DISABLED -healthMonitor NO\n"
                             "add serviceGroup g TCP -cip ENABLED -usip YES\n"
                             "bind serviceGroup g 10.0.3.1 443 -state DISABLED\n"
                             "bind serviceGroup g -monitorName m\n";
    third.ReadString("add lb monitor m PING\n" + more +
                     "add lb vserver any ANY * * -lbMethod SRCIPSRCPORTHASH -state DISABLED\n");
    const std::string text = third.Show();
    EXPECT_EQ(text,
              "add lb monitor m PING\n"
              "add service up1 10.0.0.1 ANY * -healthMonitor NO -state DISABLED\n"
              "add serviceGroup g TCP -cip ENABLED -usip YES\n"
              "bind serviceGroup g 10.0.3.1 443 -state DISABLED\n"
              "bind serviceGroup g -monitorName m\n"
              "add lb vserver any ANY * * -lbMethod SRCIPSRCPORTHASH -state DISABLED\n");
    AdcConfigReader fourth(NS::GetLanguage());
    fourth.ReadString(text);
    EXPECT_EQ(fourth.Show(), text);
}

// REQ: CRD-03 (one LB vserver of type ANY on *, services per lower appliance, proxy port on)
// REQ: CRD-06 (each cache service inserts the client IP into a request header)
TEST_F(AdcConfigNetScaler, SeedsUpperAndLowerTierObjectsRead)
{
    m_reader.ReadString("add service lower1 10.1.0.1 ANY * -useproxyport YES\n"
                        "add service lower2 10.1.0.2 ANY *\n"
                        "add lb vserver upper ANY * * -lbMethod SOURCEIPHASH\n"
                        "bind lb vserver upper lower1\n"
                        "bind lb vserver upper lower2\n"
                        "add service cache1 10.2.0.1 HTTP 80 -cip ENABLED X-Forwarded-For\n");
    Ptr<AdcVirtualServer> upper = Get<AdcVirtualServer>(NS::LB_VSERVER, "upper");
    EXPECT_EQ(upper->GetServiceType(), "ANY");
    EXPECT_EQ(upper->GetVip(), AdcIpAddress(Ipv4Address::GetAny()));
    EXPECT_EQ(upper->GetPort(), 0);
    EXPECT_EQ(upper->GetServiceBindings().size(), 2u);
    EXPECT_EQ(Get<AdcService>(NS::SERVICE, "lower2")->GetPort(), 0);
    EXPECT_TRUE(Get<AdcService>(NS::SERVICE, "lower2")->GetUseProxyPort());
    EXPECT_EQ(Get<AdcService>(NS::SERVICE, "cache1")->GetCipHeader(), "X-Forwarded-For");
}

// REQ: CS-02 (configuration changes at run time: unbind, rm, disable take effect)
TEST_F(AdcConfigNetScaler, RemoveUnbindEnableDisable)
{
    m_reader.ReadString(kConfig, "ns.conf");
    m_reader.ReadString("unbind lb vserver lb-web web2\n"
                        "disable service web1\n"
                        "unbind service web1 -monitorName mon-http\n"
                        "rm lb vserver lb-backup\n"
                        "unbind serviceGroup pool 10.0.2.2 80\n"
                        "disable lb vserver lb-web\n"
                        "rm lb monitor mon-http HTTP\n");
    EXPECT_EQ(m_reader.Show(),
              "add service web1 10.0.1.11 HTTP 80 -cip ENABLED X-Forwarded-For -maxClient 100 "
              "-state DISABLED\n"
              "add service web2 10.0.1.12 HTTP 8080 -useproxyport NO\n"
              "add serviceGroup pool HTTP -maxClient 50\n"
              "bind serviceGroup pool 10.0.2.1 80 -weight 3\n"
              "add lb vserver lb-web HTTP 192.0.2.10 80 -lbMethod ROUNDROBIN -persistenceType "
              "SOURCEIP -timeout 5 -state DISABLED\n"
              "bind lb vserver lb-web web1 -weight 2\n");
    Ptr<AdcVirtualServer> lb = Get<AdcVirtualServer>(NS::LB_VSERVER, "lb-web");
    EXPECT_FALSE(lb->GetBackupVServer());
    EXPECT_EQ(lb->GetState(), AdcVirtualServer::State::OUT_OF_SERVICE);
    m_reader.ReadString("enable lb vserver lb-web\nenable service web1\nrm service web1\n");
    EXPECT_TRUE(lb->GetServiceBindings().empty());
    EXPECT_EQ(lb->GetState(), AdcVirtualServer::State::DOWN);
    // A new service of the old name binds again, in the old one's place for the method.
    m_reader.ReadString("add service web1 10.0.1.13 HTTP 80\nbind lb vserver lb-web web1\n");
    EXPECT_EQ(lb->GetState(), AdcVirtualServer::State::UP);
    EXPECT_EQ(lb->GetLbMethod()->GetNBackends(), 2u); // web1, web2: nothing added
    AdcLbContext ctx;
    ctx.flow = AdcFlowKey(Ipv4Address("10.9.0.1"), Ipv4Address("192.0.2.10"), 1, 80, 6);
    EXPECT_EQ(lb->Select(ctx, Seconds(0)).service, Get<AdcService>(NS::SERVICE, "web1"));
}

// REQ: CS-07 (persistence types only where the support matrix allows them), CS-11
TEST_F(AdcConfigNetScaler, EveryErrorNamesFileLineWordAndAllowedValues)
{
    m_reader.ReadString(kConfig, "ns.conf");

    struct Case
    {
        std::string line;                //!< the bad line
        std::vector<std::string> expect; //!< what the message must say
    };

    const std::vector<Case> cases = {
        {"frob lb vserver x",
         {"unknown command: word 'frob'",
          "add, set, rm, enable, disable, "
          "bind, unbind"}},
        {"add lb frob x", {"unknown command: word 'frob'", "allowed values are monitor, vserver"}},
        {"add lb", {"incomplete command", "allowed values are monitor, vserver"}},
        {"add lb vserver x HTTP 1.2.3.4 80 -lbmethd ROUNDROBIN",
         {"unknown parameter: word '-lbmethd'", "-lbMethod, -persistenceType, -timeout"}},
        {"add lb vserver x HTTP 1.2.3.4 80 -lbMethod FASTEST",
         {"bad value of -lbMethod: word 'FASTEST'", "ROUNDROBIN, WEIGHTEDROUNDROBIN"}},
        {"add lb vserver x TCP 1.2.3.4 80 -persistenceType COOKIEINSERT",
         {"bad value of -persistenceType: word 'COOKIEINSERT'",
          "allowed values are NONE, "
          "SOURCEIP"}},
        {"add lb vserver x HTTP 1.2.3.4 80 -persistenceType SOURCEIP -timeout 1",
         {"bad value of -timeout: word '1'", "allowed values are 2..1440"}},
        {"add lb vserver x HTTPS 1.2.3.4 80", {"serviceType: word 'HTTPS'", "HTTP, SSL, TCP"}},
        {"add lb vserver x HTTP 1.2.3.4 70000", {"port: word '70000'", "1..65535"}},
        {"add lb vserver x HTTP 1.2.3.4", {"missing <port> after <IPAddress>"}},
        {"add service x 10.0.0.999 HTTP 80", {"IP: word '10.0.0.999'", "an IPv4 address"}},
        {"add service x 10.0.0.9 HTTP", {"missing <port>", "usage: add service <name> <IP>"}},
        {"add service x 10.0.0.9 HTTP *", {"port * needs service type ANY, not HTTP: word '*'"}},
        {"add service x 10.0.0.9 HTTP 80 extra", {"unexpected word", "word 'extra'"}},
        {"add service web1 10.0.0.9 HTTP 80", {"has this name already: word 'web1'"}},
        {"add service -x 10.0.0.9 HTTP 80", {"unknown parameter: word '-x'"}},
        {"add service x 10.0.0.9 HTTP 80 -cip MAYBE", {"-cip: word 'MAYBE'", "ENABLED, DISABLED"}},
        {"add service x 10.0.0.9 HTTP 80 -maxClient",
         {"missing value of parameter: word "
          "'-maxClient'"}},
        {"add service x 10.0.0.9 HTTP 80 -usip YES -usip NO", {"given twice: word '-usip'"}},
        {"add service x!y 10.0.0.9 HTTP 80", {"bad name: word 'x!y'"}},
        {"bind lb vserver lb-web nosuch",
         {"service or service group is not defined: word "
          "'nosuch'",
          "allowed values are web1, web2, pool"}},
        {"bind lb vserver nosuch web1",
         {"virtual server is not defined: word 'nosuch'", "allowed values are lb-web, lb-backup"}},
        {"bind lb vserver lb-web web1", {"is bound already"}},
        {"bind lb vserver lb-backup web1 -weight 101", {"-weight: word '101'", "1..100"}},
        {"set lb vserver lb-web -backupVServer nosuch",
         {"-backupVServer is not defined: word "
          "'nosuch'",
          "lb-web, lb-backup"}},
        {"set lb vserver lb-backup -backupVServer lb-web",
         {"leads back to this one: word "
          "'lb-web'"}},
        {"bind service web1 -monitorName nosuch",
         {"monitor is not defined: word 'nosuch'", "allowed values are mon-http"}},
        {"unbind service web2 -monitorName mon-http",
         {"not bound to the service: word "
          "'mon-http'"}},
        {"add lb monitor x SNMP", {"bad value of type: word 'SNMP'", "PING, TCP, HTTP, UDP-ECV"}},
        {"add lb monitor x TCP -httpRequest \"GET /\"",
         {"for monitors of type HTTP, not TCP: "
          "word '-httpRequest'"}},
        {"add lb monitor x TCP -interval 2 -resptimeout 2",
         {"-resptimeout must be less", "word '2'", "less than 2"}},
        {"add lb monitor x HTTP -respCode 200 302", {"one response code: word '302'"}},
        {"add lb monitor x TCP -interval 5 HOURS", {"-interval: word 'HOURS'", "SEC, MSEC, MIN"}},
        {"set lb monitor mon-http TCP -retries 1",
         {"another type: word 'TCP'",
          "values are "
          "HTTP"}},
        {"add service x 10.0.0.9 HTTP 80 -state \"DISABLED",
         {"unterminated quote: word "
          "'\"DISABLED'"}},
    };
    for (const Case& c : cases)
    {
        const std::string msg =
            ErrorOf("# line 1\n\n" + c.line + "\nadd service after 10.0.0.1 HTTP 80\n");
        EXPECT_EQ(msg.rfind("ns.conf:3: ", 0), 0u) << c.line << " -> " << msg;
        EXPECT_EQ(m_line, 3u) << c.line;
        EXPECT_TRUE(HasAll(msg, c.expect)) << c.line;
        // Reading stops at the error: the line after it defined nothing.
        EXPECT_FALSE(Get<AdcService>(NS::SERVICE, "after")) << c.line;
    }
    // A failed "set" changes nothing.
    EXPECT_EQ(m_reader.Show(), kShown);
}

// REQ: CS-11
TEST_F(AdcConfigNetScaler, ReadsFilesAndNamesThemInErrors)
{
    const std::string path = testing::TempDir() + "adc-config-netscaler-test.conf";
    {
        std::ofstream out(path);
        out << "add service a 10.0.0.1 HTTP 80\nbind lb vserver v a\n";
    }
    try
    {
        m_reader.ReadFile(path);
        FAIL() << "no error";
    }
    catch (const AdcConfigFileError& e)
    {
        EXPECT_EQ(e.GetFile(), path);
        EXPECT_EQ(e.GetLine(), 2u);
        EXPECT_EQ(std::string(e.what()).rfind(path + ":2: bind lb vserver: ", 0), 0u) << e.what();
    }
    EXPECT_TRUE(Get<AdcService>(NS::SERVICE, "a")); // line 1 stands
    std::remove(path.c_str());
    EXPECT_THROW(m_reader.ReadFile(path), AdcConfigError);
}

// REQ: GSLB-09 (a subject adds its commands, e.g. GSLB's set gslb vserver, to the language)
TEST(AdcConfigLanguage, SubjectsRegisterTheirOwnCommands)
{
    AdcConfigLanguage::Syntax syntax;
    syntax.name = "NetScaler";
    syntax.quotes = true;
    AdcConfigLanguage language(syntax);
    std::vector<std::string> seen;
    language.RegisterCommand(
        {"set gslb vserver",
         {"<name>"},
         1,
         false,
         {{"-lbMethod"}, {"-tolerance"}},
         [&seen](AdcConfigCommand& c) {
             seen.push_back(
                 c.Operand(0) + " " + c.Value("-lbMethod") + " " +
                 std::to_string(c.Number(c.Value("-tolerance", "5"), "-tolerance", 0, 100)));
         },
         [](const AdcConfigStore&, std::ostream& os) { os << "set gslb vserver shown\n"; },
         5});
    AdcConfigReader reader(language);
    reader.ReadString("set gslb vserver g1 -lbMethod RTT -tolerance 10\nSET GSLB VSERVER g2 "
                      "-LBMETHOD RTT\n");
    EXPECT_EQ(seen, (std::vector<std::string>{"g1 RTT 10", "g2 RTT 5"}));
    EXPECT_EQ(reader.Show(), "set gslb vserver shown\n");
    EXPECT_THROW(language.RegisterCommand(
                     {"SET gslb VSERVER", {}, 0, false, {}, [](AdcConfigCommand&) {}, {}, 0}),
                 AdcConfigError);
    try
    {
        reader.ReadString("set gslb vserver g3 -tolerance 500", "gslb.conf");
        FAIL() << "no error";
    }
    catch (const AdcConfigFileError& e)
    {
        EXPECT_STREQ(e.what(),
                     "gslb.conf:1: set gslb vserver: bad value of -tolerance: word '500'; allowed "
                     "values are 0..100");
    }
}

// REQ: GSLB-04 (the monitors ldns-ping, ldns-dns and ldns-tcp are of NetScaler's LDNS types,
// customisable like any monitor), GSLB-06 (DNS and TCP probes go to port 53 by default),
// GSLB-10 (set lb monitor ldns-tcp LDNS-TCP -interval 10 sec -resptimeout 5 sec)
TEST_F(AdcConfigNetScaler, LdnsMonitorTypesProbePort53AndRoundTrip)
{
    m_reader.ReadString("add lb monitor ldns-ping LDNS-PING\n"
                        "add lb monitor ldns-dns LDNS-DNS\n"
                        "add lb monitor ldns-tcp LDNS-TCP\n"
                        "set lb monitor ldns-tcp LDNS-TCP -interval 10 sec -resptimeout 5 sec\n");
    Ptr<AdcHealthMonitor> ping = Get<AdcHealthMonitor>(NS::LB_MONITOR, "ldns-ping");
    Ptr<AdcHealthMonitor> dns = Get<AdcHealthMonitor>(NS::LB_MONITOR, "ldns-dns");
    Ptr<AdcHealthMonitor> tcp = Get<AdcHealthMonitor>(NS::LB_MONITOR, "ldns-tcp");
    EXPECT_EQ(NS::GetAttribute<EnumValue>(ping, "Type"), AdcHealthMonitor::PING);
    EXPECT_EQ(NS::GetAttribute<EnumValue>(dns, "Type"), AdcHealthMonitor::UDP);
    EXPECT_EQ(NS::GetAttribute<EnumValue>(tcp, "Type"), AdcHealthMonitor::TCP);
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(dns, "DestinationPort"), 53u);
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(tcp, "DestinationPort"), 53u);
    // NetScaler's defaults (5 s, 2 s) unless set; the seed's example changes ldns-tcp.
    EXPECT_EQ(NS::GetAttribute<TimeValue>(ping, "Interval"), Seconds(5));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(ping, "ResponseTimeout"), Seconds(2));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(tcp, "Interval"), Seconds(10));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(tcp, "ResponseTimeout"), Seconds(5));
    // The type is the LDNS one: set with another type is an error naming the right one.
    EXPECT_TRUE(HasAll(ErrorOf("set lb monitor ldns-tcp TCP -interval 6 sec\n"),
                       {"the monitor has another type", "LDNS-TCP"}));
    // Show prints the LDNS types and only what differs (port 53 is their default).
    const std::string shown = m_reader.Show();
    EXPECT_TRUE(HasAll(shown,
                       {"add lb monitor ldns-ping LDNS-PING\n",
                        "add lb monitor ldns-dns LDNS-DNS\n",
                        "add lb monitor ldns-tcp LDNS-TCP -interval 10 -resptimeout 5\n"}))
        << shown;
    AdcConfigReader again(NS::GetLanguage());
    again.ReadString(shown, "shown");
    EXPECT_EQ(again.Show(), shown);
}
