/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of NetScaler's GSLB commands (model/config/adc-netscaler-gslb-commands.h): sites,
 * GSLB services, GSLB virtual servers with their services and domains, the GSLB parameter, the
 * built-in LDNS monitors, the errors (naming the file, the line, the word and what is
 * allowed), Show's round trip, and the three sites' example files of gslb-rtt.
 *
 * Expected values come from the seed and REQUIREMENTS.md (GSLB-04, 05, 09, 10: the probe order
 * PING DNS TCP, `set gslb parameter -ldnsprobeOrder DNS PING TCP`, `set gslb vserver <name>
 * -lbMethod RTT -tolerance <ms>`, monitors every 5 s with 2 s to answer,
 * `set lb monitor ldns-tcp LDNS-TCP -interval 10 sec -resptimeout 5 sec`) and NetScaler's
 * command reference (TTL 5 s, ldnsEntryTimeout 180 s, mepKeepAliveTimeout 10 s, tolerance up
 * to 100 ms, lbMethod LEASTCONNECTION) and NITRO reference (setgslbvserver_tolerance, no
 * default given: 0; setgslbparameter_rtttolerance default 5, 1..100), written here
 * independently of the code.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-gslb-commands.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using adctest::HasAll;
using adctest::Slurp;

namespace
{

using NS = AdcNetScalerCommands;
using GS = AdcNetScalerGslbCommands;

/// Three sites, three services, one domain: the shape of the gslb-rtt example.
const std::string kThreeSites = "add gslb site s1 10.0.1.1 -siteType LOCAL\n"
                                "add gslb site s2 10.0.2.1 -publicIP 192.0.2.2\n"
                                "add gslb site s3 10.0.3.1 -siteType REMOTE\n"
                                "add gslb service g1 10.0.1.10 HTTP 80 -siteName s1\n"
                                "add gslb service g2 10.0.2.10 HTTP 80 -siteName s2 "
                                "-publicIP 192.0.2.20 -publicPort 8080\n"
                                "add gslb service g3 10.0.3.10 HTTP 80 -siteName s3\n"
                                "add gslb vserver v HTTP -lbMethod ROUNDROBIN\n"
                                "bind gslb vserver v -serviceName g1\n"
                                "bind gslb vserver v -serviceName g2\n"
                                "bind gslb vserver v -serviceName g3\n"
                                "bind gslb vserver v -domainName www.example.com\n";

/// A reader of NetScaler lines with the GSLB commands.
class AdcConfigNetScalerGslb : public adctest::ConfigReaderTest
{
  protected:
    AdcConfigNetScalerGslb()
        : ConfigReaderTest(GS::GetLanguage(), "ns.conf")
    {
    }

    /// \return the store
    AdcConfigStore& Store()
    {
        return m_reader.GetStore();
    }

    /// \return the GSLB virtual server \p name, or null
    Ptr<GslbVserverConfig> Vserver(const std::string& name)
    {
        return Store().Get<GslbVserverConfig>(GS::GSLB_VSERVER, name);
    }

    /// \return the monitor \p name, or null
    Ptr<AdcHealthMonitor> Monitor(const std::string& name)
    {
        return Store().Get<AdcHealthMonitor>(NS::LB_MONITOR, name);
    }
};

} // namespace

// REQ: GSLB-02 (the sites, services and domain the ADNS answers for)
TEST_F(AdcConfigNetScalerGslb, SitesServicesAndDomains)
{
    ASSERT_EQ(ErrorOf(kThreeSites), "");
    ASSERT_NO_THROW(GS::Validate(Store()));
    EXPECT_EQ(Store().GetNames(GS::GSLB_SITE), (std::vector<std::string>{"s1", "s2", "s3"}));
    Ptr<GslbSiteConfig> s1 = Store().Get<GslbSiteConfig>(GS::GSLB_SITE, "s1");
    Ptr<GslbSiteConfig> s2 = Store().Get<GslbSiteConfig>(GS::GSLB_SITE, "s2");
    EXPECT_TRUE(s1->IsLocal());
    EXPECT_FALSE(s2->IsLocal());                                         // REMOTE by default
    EXPECT_EQ(s1->GetPublicIp(), AdcIpAddress(Ipv4Address("10.0.1.1"))); // the site IP
    EXPECT_EQ(s2->GetPublicIp(), AdcIpAddress(Ipv4Address("192.0.2.2")));
    EXPECT_EQ(GS::GetLocalSite(Store()), s1);

    Ptr<GslbServiceConfig> g2 = Store().Get<GslbServiceConfig>(GS::GSLB_SERVICE, "g2");
    EXPECT_EQ(g2->GetIp(), AdcIpAddress(Ipv4Address("10.0.2.10")));
    EXPECT_EQ(g2->GetSiteName(), "s2");
    EXPECT_EQ(g2->GetServiceType(), "HTTP");
    EXPECT_EQ(g2->GetPort(), 80);
    EXPECT_EQ(g2->GetPublicPort(), 8080);
    // The shared core's service is what clients are sent to: the public address and port.
    EXPECT_EQ(g2->GetService()->GetAddress(), AdcIpAddress(Ipv4Address("192.0.2.20")));
    EXPECT_EQ(g2->GetService()->GetPort(), 8080);
    EXPECT_EQ(g2->GetService()->GetName(), "g2");

    Ptr<GslbVserverConfig> v = Vserver("v");
    EXPECT_EQ(v->GetServiceNames(), (std::vector<std::string>{"g1", "g2", "g3"}));
    ASSERT_EQ(v->GetDomains().size(), 1U);
    EXPECT_EQ(v->GetDomains()[0].name, "www.example.com");
    EXPECT_EQ(v->GetDomains()[0].ttl, 5U); // NetScaler's default TTL
    EXPECT_TRUE(v->GetDomains()[0].backupIp.IsNone());
    EXPECT_EQ(v->GetDnsRecordType(), AdcDnsMessage::TYPE_A);
    EXPECT_FALSE(v->GetEmptyDownResponse());
    // unbind -domainName (any case) and bind again with -TTL and -backupIP.
    ASSERT_EQ(ErrorOf("unbind gslb vserver v -domainName WWW.example.COM"), "");
    EXPECT_TRUE(v->GetDomains().empty());
    ASSERT_EQ(ErrorOf("bind gslb vserver v -domainName www.example.com -TTL 60 "
                      "-backupIP 192.0.2.99"),
              "");
    ASSERT_EQ(v->GetDomains().size(), 1U);
    EXPECT_EQ(v->GetDomains()[0].ttl, 60U);
    EXPECT_EQ(v->GetDomains()[0].backupIp, AdcIpAddress(Ipv4Address("192.0.2.99")));
}

// REQ: GSLB-08 (round robin over the sites' services), GSLB-09 (the LB method setting)
TEST_F(AdcConfigNetScalerGslb, VirtualServerFromTheSharedCoreRotates)
{
    ASSERT_EQ(ErrorOf(kThreeSites), "");
    Ptr<AdcVirtualServer> vs = Vserver("v")->GetVirtualServer();
    EXPECT_EQ(vs->GetLbMethodName(), "ROUNDROBIN");
    EXPECT_EQ(vs->GetName(), "v");
    AdcLbContext ctx;
    ctx.ldns = Ipv4Address("203.0.113.53");
    std::vector<std::string> chosen;
    for (int i = 0; i < 6; ++i)
    {
        AdcSelection sel = vs->Select(ctx, Seconds(1));
        ASSERT_TRUE(sel.service);
        chosen.push_back(sel.service->GetName());
    }
    // Binding order, twice.
    EXPECT_EQ(chosen, (std::vector<std::string>{"g1", "g2", "g3", "g1", "g2", "g3"}));
    // A later unbind reaches the built virtual server.
    ASSERT_EQ(ErrorOf("unbind gslb vserver v -serviceName g2"), "");
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_NE(vs->Select(ctx, Seconds(2)).service->GetName(), "g2");
    }
}

// REQ: GSLB-09 ("set gslb vserver <name> -lbMethod RTT -tolerance <ms>"; NITRO gives no
// default for the vserver's window, so 0, and the seed's 5 ms default belongs to its own
// reading: IsToleranceSet tells a given value from the default)
TEST_F(AdcConfigNetScalerGslb, SetVserverLbMethodAndTolerance)
{
    ASSERT_EQ(ErrorOf("add gslb vserver Vserver-GSLB-1 HTTP"), "");
    Ptr<GslbVserverConfig> v = Vserver("Vserver-GSLB-1");
    EXPECT_EQ(v->GetLbMethod(), "LEASTCONNECTION"); // NetScaler's default
    EXPECT_EQ(v->GetToleranceMs(), 0U);             // NITRO: no window by default
    EXPECT_FALSE(v->IsToleranceSet());
    // The seed's example line.
    ASSERT_EQ(ErrorOf("set gslb vserver Vserver-GSLB-1 -lbMethod RTT -tolerance 10"), "");
    EXPECT_EQ(v->GetLbMethod(), "RTT");
    EXPECT_EQ(v->GetToleranceMs(), 10U);
    EXPECT_TRUE(v->IsToleranceSet());
    ASSERT_EQ(ErrorOf("set gslb vserver Vserver-GSLB-1 -lbMethod roundrobin"), "");
    EXPECT_EQ(v->GetLbMethod(), "ROUNDROBIN");
    EXPECT_EQ(v->GetToleranceMs(), 10U); // -lbMethod alone keeps the tolerance
    ASSERT_EQ(ErrorOf("set gslb vserver Vserver-GSLB-1 -tolerance 0 -EDR ENABLED"), "");
    EXPECT_EQ(v->GetToleranceMs(), 0U);
    EXPECT_TRUE(v->GetEmptyDownResponse());
    ASSERT_EQ(ErrorOf("set gslb vserver Vserver-GSLB-1 -tolerance 100 -lbMethod STATICPROXIMITY"),
              "");
    EXPECT_EQ(v->GetToleranceMs(), 100U);
    EXPECT_EQ(v->GetLbMethod(), "STATICPROXIMITY");
}

// REQ: GSLB-05 (the probe order is a GSLB parameter), GSLB-04
TEST_F(AdcConfigNetScalerGslb, ParameterProbeOrderAndTimeouts)
{
    Ptr<GslbParameterConfig> p = GS::GetParameter(Store());
    EXPECT_EQ(p->GetProbeOrder(), (std::vector<std::string>{"PING", "DNS", "TCP"}));
    EXPECT_EQ(p->GetLdnsEntryTimeout(), 180U);
    EXPECT_EQ(p->GetMepKeepAliveTimeout(), 10U);
    EXPECT_EQ(p->GetRttTolerance(), 5U);
    ASSERT_EQ(ErrorOf("set gslb parameter -ldnsprobeOrder DNS PING TCP"), ""); // the seed's
    p = GS::GetParameter(Store());
    EXPECT_EQ(p->GetProbeOrder(), (std::vector<std::string>{"DNS", "PING", "TCP"}));
    ASSERT_EQ(ErrorOf("set gslb parameter -ldnsprobeOrder tcp -ldnsEntryTimeout 60 "
                      "-mepKeepAliveTimeout 4 -rttTolerance 7"),
              "");
    p = GS::GetParameter(Store());
    EXPECT_EQ(p->GetProbeOrder(), (std::vector<std::string>{"TCP"}));
    EXPECT_EQ(p->GetLdnsEntryTimeout(), 60U);
    EXPECT_EQ(p->GetMepKeepAliveTimeout(), 4U);
    EXPECT_EQ(p->GetRttTolerance(), 7U);
    ASSERT_EQ(ErrorOf("set gslb parameter -ldnsEntryTimeout 90"), "");
    EXPECT_EQ(GS::GetParameter(Store())->GetProbeOrder(), (std::vector<std::string>{"TCP"}));
}

// REQ: GSLB-05 (errors name -ldnsprobeOrder, the word and the kinds)
TEST_F(AdcConfigNetScalerGslb, ProbeOrderErrors)
{
    const std::string unknown = ErrorOf("set gslb parameter -ldnsprobeOrder DNS UDP");
    EXPECT_TRUE(HasAll(unknown, {"ns.conf:1", "-ldnsprobeOrder", "'UDP'", "PING", "DNS", "TCP"}))
        << unknown;
    const std::string twice = ErrorOf("set gslb parameter -ldnsprobeOrder PING DNS ping");
    EXPECT_TRUE(HasAll(twice, {"ns.conf:1", "-ldnsprobeOrder", "'ping'", "twice"})) << twice;
    const std::string empty = ErrorOf("set gslb parameter -ldnsprobeOrder");
    EXPECT_TRUE(HasAll(empty, {"ns.conf:1", "-ldnsprobeOrder"})) << empty;
    EXPECT_TRUE(HasAll(ErrorOf("set gslb parameter -ldnsEntryTimeout 29"),
                       {"-ldnsEntryTimeout", "'29'", "30..65534"}));
    // A failed command changes nothing.
    EXPECT_EQ(GS::GetParameter(Store())->GetProbeOrder(),
              (std::vector<std::string>{"PING", "DNS", "TCP"}));
    // The object checks the same rules for callers that do not read a file.
    Ptr<GslbParameterConfig> p = CreateObject<GslbParameterConfig>();
    EXPECT_TRUE(HasAll(adctest::ConfigErrorOf([&] { p->SetProbeOrder({"ICMP"}); }),
                       {"-ldnsprobeOrder", "'ICMP'", "PING", "DNS", "TCP"}));
    EXPECT_TRUE(
        HasAll(adctest::ConfigErrorOf([&] { p->SetProbeOrder({}); }), {"-ldnsprobeOrder", "PING"}));
}

// REQ: GSLB-04 (built-in monitors by name, safe defaults, customisable), GSLB-10
TEST_F(AdcConfigNetScalerGslb, BuiltinMonitorsWithoutAdd)
{
    // The seed's command, with no `add lb monitor` before it.
    ASSERT_EQ(ErrorOf("set lb monitor ldns-tcp LDNS-TCP -interval 10 sec -resptimeout 5 sec"), "");
    Ptr<AdcHealthMonitor> tcp = Monitor("ldns-tcp");
    ASSERT_TRUE(tcp);
    EXPECT_EQ(NS::GetAttribute<TimeValue>(tcp, "Interval"), Seconds(10));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(tcp, "ResponseTimeout"), Seconds(5));
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(tcp, "DestinationPort"), 53U); // GSLB-06
    EXPECT_EQ(NS::GetAttribute<StringValue>(tcp, "TypeName"), "LDNS-TCP");
    EXPECT_EQ(NS::GetAttribute<StringValue>(tcp, "Name"), "ldns-tcp");
    // A set creates the monitor it names; a GSLB command creates the others, with
    // NetScaler's defaults: every 5 s, 2 s to answer (GSLB-10).
    EXPECT_FALSE(Monitor("ldns-dns"));
    ASSERT_EQ(ErrorOf("add gslb site s1 10.0.1.1"), "");
    for (const std::string name : {"ldns-ping", "ldns-dns"})
    {
        Ptr<AdcHealthMonitor> m = Monitor(name);
        ASSERT_TRUE(m) << name;
        EXPECT_EQ(NS::GetAttribute<TimeValue>(m, "Interval"), Seconds(5)) << name;
        EXPECT_EQ(NS::GetAttribute<TimeValue>(m, "ResponseTimeout"), Seconds(2)) << name;
    }
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(Monitor("ldns-dns"), "DestinationPort"), 53U);
    EXPECT_EQ(NS::GetAttribute<StringValue>(Monitor("ldns-ping"), "TypeName"), "LDNS-PING");
    // A second set keeps what the first set.
    ASSERT_EQ(ErrorOf("set lb monitor ldns-tcp LDNS-TCP -retries 5"), "");
    EXPECT_EQ(NS::GetAttribute<TimeValue>(tcp, "Interval"), Seconds(10));
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(tcp, "Retries"), 5U);
    // Errors are the monitor commands' own, at this line.
    const std::string bad = ErrorOf("\nset lb monitor ldns-ping LDNS-PING -interval 1 sec");
    EXPECT_TRUE(HasAll(bad, {"ns.conf:2", "set lb monitor ldns-ping", "-resptimeout"})) << bad;
    const std::string type = ErrorOf("set lb monitor ldns-ping LDNS-TCP -interval 9 sec");
    EXPECT_TRUE(HasAll(type, {"ns.conf:1", "'LDNS-TCP'", "LDNS-PING"})) << type;
    EXPECT_EQ(NS::GetAttribute<TimeValue>(Monitor("ldns-ping"), "Interval"), Seconds(5));
    const std::string rm = ErrorOf("rm lb monitor ldns-dns LDNS-DNS");
    EXPECT_TRUE(HasAll(rm, {"ns.conf:1", "built-in", "'ldns-dns'"})) << rm;
    EXPECT_TRUE(Monitor("ldns-dns"));
}

// REQ: GSLB-04 (a GSLB configuration has the monitors without any monitor line)
TEST_F(AdcConfigNetScalerGslb, BuiltinMonitorsCreatedByGslbCommands)
{
    EXPECT_FALSE(Monitor("ldns-ping"));
    ASSERT_EQ(ErrorOf("add gslb site s1 10.0.1.1 -siteType LOCAL"), "");
    for (const std::string& name : GS::GetBuiltinMonitors())
    {
        EXPECT_TRUE(Monitor(name)) << name;
    }
    // NetScaler refuses adding a monitor of a built-in name.
    EXPECT_TRUE(HasAll(ErrorOf("add lb monitor ldns-ping LDNS-PING"), {"ns.conf:1", "ldns-ping"}));
}

// REQ: GSLB-02, GSLB-09 (the errors of each command name the file, line, word and values)
TEST_F(AdcConfigNetScalerGslb, CommandErrors)
{
    ASSERT_EQ(ErrorOf(kThreeSites), "");

    struct Case
    {
        std::string line;
        std::vector<std::string> words;
    };

    const std::vector<Case> cases = {
        {"add gslb site s1 10.0.9.1", {"'s1'", "already"}},
        {"add gslb site s9 10.0.9.1 -siteType LOCAL", {"'LOCAL'", "'s1'", "REMOTE"}},
        {"add gslb site s9 10.0.9.1 -siteType ANY", {"-siteType", "'ANY'", "LOCAL", "REMOTE"}},
        {"add gslb site s9 10.0.1.1", {"'10.0.1.1'", "s1"}},
        {"add gslb site s9 10.0.9", {"siteIPAddress", "'10.0.9'"}},
        {"add gslb service g1 10.0.9.10 HTTP 80 -siteName s1", {"'g1'", "already"}},
        {"add gslb service g9 10.0.9.10 HTTP 80 -siteName nowhere",
         {"gslb site", "'nowhere'", "s1", "s2", "s3"}},
        {"add gslb service g9 10.0.9.10 HTTP 80", {"-siteName", "s1", "s2", "s3"}},
        {"add gslb service g9 10.0.9.10 GOPHER 70 -siteName s1",
         {"serviceType", "'GOPHER'", "HTTP"}},
        {"add gslb vserver v HTTP", {"'v'", "already"}},
        {"add gslb vserver w HTTP -lbMethod FASTEST",
         {"-lbMethod", "'FASTEST'", "RTT", "ROUNDROBIN"}},
        {"add gslb vserver w HTTP -dnsRecordType MX", {"-dnsRecordType", "'MX'", "A", "AAAA"}},
        {"set gslb vserver v -tolerance 101", {"-tolerance", "'101'", "0..100"}},
        {"set gslb vserver nov -tolerance 1", {"gslb vserver", "'nov'", "v"}},
        {"bind gslb vserver v -serviceName g1", {"g1", "bound already"}},
        {"bind gslb vserver v -serviceName g9", {"gslb service", "'g9'", "g1"}},
        {"bind gslb vserver v", {"-serviceName", "-domainName"}},
        {"bind gslb vserver v -serviceName g1 -domainName a.example",
         {"-serviceName", "-domainName"}},
        {"bind gslb vserver v -domainName WWW.example.com", {"WWW.example.com", "bound already"}},
        {"bind gslb vserver v -domainName a..example", {"a..example"}},
        {"bind gslb vserver v -domainName b.example -TTL x", {"-TTL", "'x'"}},
        {"unbind gslb vserver v -domainName c.example", {"'c.example'", "www.example.com"}},
        {"unbind gslb vserver v -serviceName g9", {"'g9'", "g1", "g2", "g3"}},
    };
    for (const Case& c : cases)
    {
        const std::string e = ErrorOf("\n" + c.line);
        std::vector<std::string> words = c.words;
        words.push_back("ns.conf:2");
        EXPECT_TRUE(HasAll(e, words)) << c.line << ": " << e;
    }
    // Nothing of the failed lines stayed.
    EXPECT_EQ(Store().GetNames(GS::GSLB_SITE).size(), 3U);
    EXPECT_EQ(Store().GetNames(GS::GSLB_SERVICE).size(), 3U);
    EXPECT_EQ(Vserver("v")->GetServiceNames().size(), 3U);
    EXPECT_EQ(Vserver("v")->GetToleranceMs(), 0U); // the default, untouched
}

// REQ: GSLB-02 ("a GSLB vserver with no services ... clear errors": checked once all is read)
TEST_F(AdcConfigNetScalerGslb, ValidateDomainWithoutServiceAndLocalSite)
{
    ASSERT_EQ(ErrorOf("add gslb site s1 10.0.1.1 -siteType LOCAL\n"
                      "add gslb service g1 10.0.1.10 HTTP 80 -siteName s1\n"
                      "add gslb vserver v HTTP\n"
                      "bind gslb vserver v -domainName www.example.com\n"),
              "");
    try
    {
        GS::Validate(Store());
        ADD_FAILURE() << "a domain on a vserver without services must be an error";
    }
    catch (const AdcConfigFileError& e)
    {
        EXPECT_EQ(e.GetFile(), "ns.conf");
        EXPECT_EQ(e.GetLine(), 4U); // the domain's binding
        EXPECT_TRUE(HasAll(e.what(), {"'v'", "www.example.com", "no gslb service", "g1"}))
            << e.what();
    }
    ASSERT_EQ(ErrorOf("bind gslb vserver v -serviceName g1"), "");
    EXPECT_NO_THROW(GS::Validate(Store()));

    AdcConfigReader r(GS::GetLanguage());
    r.ReadString("add gslb site s1 10.0.1.1\n"
                 "add gslb service g1 10.0.1.10 HTTP 80 -siteName s1\n"
                 "add gslb vserver v HTTP\n"
                 "bind gslb vserver v -serviceName g1\n",
                 "remote-only.conf");
    try
    {
        GS::Validate(r.GetStore());
        ADD_FAILURE() << "a vserver without a LOCAL site must be an error";
    }
    catch (const AdcConfigFileError& e)
    {
        EXPECT_EQ(e.GetFile(), "remote-only.conf");
        EXPECT_EQ(e.GetLine(), 3U); // the vserver
        EXPECT_TRUE(HasAll(e.what(), {"LOCAL", "s1", "'v'"})) << e.what();
    }
}

// REQ: GSLB-02, GSLB-04, GSLB-05, GSLB-09 (Show prints back what was read)
TEST_F(AdcConfigNetScalerGslb, ShowRoundTrip)
{
    ASSERT_EQ(ErrorOf(kThreeSites + "set gslb vserver v -lbMethod RTT -tolerance 20 -EDR ENABLED\n"
                                    "add gslb vserver v6 SSL -dnsRecordType AAAA\n"
                                    "bind gslb vserver v -domainName alt.example.com -TTL 30 "
                                    "-backupIP 192.0.2.99\n"
                                    "set gslb parameter -ldnsprobeOrder DNS PING TCP "
                                    "-mepKeepAliveTimeout 20\n"
                                    "set lb monitor ldns-tcp LDNS-TCP -interval 10 sec "
                                    "-resptimeout 5 sec\n"),
              "");
    const std::string shown = m_reader.Show();
    // Lines written independently of the code, for what differs from the defaults.
    EXPECT_TRUE(HasAll(shown,
                       {"add gslb site s1 10.0.1.1 -siteType LOCAL\n",
                        "add gslb site s2 10.0.2.1 -publicIP 192.0.2.2\n",
                        "add gslb service g2 10.0.2.10 HTTP 80 -siteName s2 -publicIP "
                        "192.0.2.20 -publicPort 8080\n",
                        "add gslb vserver v HTTP -lbMethod RTT -tolerance 20 -EDR ENABLED\n",
                        "add gslb vserver v6 SSL -dnsRecordType AAAA\n",
                        "bind gslb vserver v -serviceName g3\n",
                        "bind gslb vserver v -domainName www.example.com\n",
                        "bind gslb vserver v -domainName alt.example.com -TTL 30 -backupIP "
                        "192.0.2.99\n",
                        "set gslb parameter -ldnsprobeOrder DNS PING TCP -mepKeepAliveTimeout 20\n",
                        "add lb monitor ldns-tcp LDNS-TCP -interval 10 -resptimeout 5\n"}))
        << shown;
    AdcConfigReader again(GS::GetLanguage());
    ASSERT_NO_THROW(again.ReadString(shown, "shown"));
    EXPECT_EQ(again.Show(), shown);
    AdcConfigStore& s = again.GetStore();
    Ptr<GslbVserverConfig> v = s.Get<GslbVserverConfig>(GS::GSLB_VSERVER, "v");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->GetToleranceMs(), 20U);
    EXPECT_EQ(v->GetLbMethod(), "RTT");
    ASSERT_EQ(v->GetDomains().size(), 2U);
    EXPECT_EQ(v->GetDomains()[1].ttl, 30U);
    EXPECT_EQ(v->GetDomains()[1].backupIp, AdcIpAddress(Ipv4Address("192.0.2.99")));
    EXPECT_EQ(GS::GetParameter(s)->GetProbeOrder(),
              (std::vector<std::string>{"DNS", "PING", "TCP"}));
    EXPECT_EQ(NS::GetAttribute<TimeValue>(s.Get<AdcHealthMonitor>(NS::LB_MONITOR, "ldns-tcp"),
                                          "Interval"),
              Seconds(10));
    EXPECT_EQ(s.GetNames(NS::LB_MONITOR), Store().GetNames(NS::LB_MONITOR));
}

// REQ: GSLB-09 (the three sites' files agree; the tolerance must be the same everywhere)
TEST(AdcConfigNetScalerGslbExamples, ThreeSitesReadAndAgree)
{
    const std::vector<std::string> files = {"gslb-site-a.ns.conf",
                                            "gslb-site-b.ns.conf",
                                            "gslb-site-c.ns.conf"};
    std::vector<std::unique_ptr<AdcConfigReader>> readers;
    std::vector<const AdcConfigStore*> stores;
    std::vector<std::string> locals;
    for (const std::string& f : files)
    {
        readers.push_back(std::make_unique<AdcConfigReader>(GS::GetLanguage()));
        ASSERT_NO_THROW(GS::ReadFile(*readers.back(), (adctest::ExamplesDir() / f).string())) << f;
        const AdcConfigStore& s = readers.back()->GetStore();
        stores.push_back(&s);
        ASSERT_TRUE(GS::GetLocalSite(s)) << f;
        locals.push_back(GS::GetLocalSite(s)->GetName());
        // The same sites in the same order everywhere (sites are indexed by it).
        EXPECT_EQ(s.GetNames(GS::GSLB_SITE),
                  (std::vector<std::string>{"site-a", "site-b", "site-c"}));
        Ptr<GslbVserverConfig> v = s.Get<GslbVserverConfig>(GS::GSLB_VSERVER, "gslb-web");
        ASSERT_TRUE(v) << f;
        EXPECT_EQ(v->GetLbMethod(), "RTT");
        EXPECT_EQ(v->GetToleranceMs(), 5U);
        EXPECT_EQ(v->GetServiceNames().size(), 3U);
        for (const std::string& m : GS::GetBuiltinMonitors())
        {
            EXPECT_TRUE(s.Find(AdcNetScalerCommands::LB_MONITOR, m)) << f << " " << m;
        }
    }
    // Each file names its own site LOCAL.
    EXPECT_EQ(locals, (std::vector<std::string>{"site-a", "site-b", "site-c"}));
    const std::vector<std::string> messages = GS::CheckDomainConsistency(stores, files);
    EXPECT_TRUE(messages.empty()) << messages.front();
}

// REQ: GSLB-09 ("a mismatch is reported")
TEST(AdcConfigNetScalerGslbExamples, EditedToleranceIsReported)
{
    const std::string text = Slurp(adctest::ExamplesDir() / "gslb-site-b.ns.conf");
    const std::string from = "-lbMethod RTT -tolerance 5";
    ASSERT_NE(text.find(from), std::string::npos);
    std::string edited = text;
    edited.replace(edited.find(from), from.size(), "-lbMethod RTT -tolerance 12");
    AdcConfigReader a(GS::GetLanguage());
    AdcConfigReader b(GS::GetLanguage());
    AdcConfigReader c(GS::GetLanguage());
    a.ReadFile((adctest::ExamplesDir() / "gslb-site-a.ns.conf").string());
    b.ReadString(edited, "edited-b.ns.conf");
    c.ReadFile((adctest::ExamplesDir() / "gslb-site-c.ns.conf").string());
    const std::vector<std::string> messages =
        GS::CheckDomainConsistency({&a.GetStore(), &b.GetStore(), &c.GetStore()},
                                   {"site-a.conf", "edited-b.ns.conf", "site-c.conf"});
    ASSERT_EQ(messages.size(), 1U); // b differs from a; c agrees with a
    EXPECT_TRUE(
        HasAll(messages[0], {"gslb-web", "5 ms", "12 ms", "site-a.conf", "edited-b.ns.conf"}))
        << messages[0];

    // The GSLB parameter's -rttTolerance is compared too.
    AdcConfigReader d(GS::GetLanguage());
    d.ReadString(Slurp(adctest::ExamplesDir() / "gslb-site-c.ns.conf") +
                     "set gslb parameter -rttTolerance 9\n",
                 "d.conf");
    const std::vector<std::string> more =
        GS::CheckDomainConsistency({&a.GetStore(), &d.GetStore()}, {"a.conf", "d.conf"});
    ASSERT_EQ(more.size(), 1U);
    EXPECT_TRUE(HasAll(more[0], {"-rttTolerance", "5 ms", "9 ms", "a.conf", "d.conf"})) << more[0];
    Simulator::Destroy();
}

// REQ: GSLB-09 (-lbMethod RTT builds the registered GSLB method, or says what is missing)
TEST_F(AdcConfigNetScalerGslb, RttVirtualServerUsesTheRegisteredMethod)
{
    ASSERT_EQ(ErrorOf(kThreeSites + "set gslb vserver v -lbMethod RTT\n"), "");
    const std::vector<std::string> registered =
        AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER);
    if (std::find(registered.begin(), registered.end(), "RTT") != registered.end())
    {
        // The GSLB LB methods are linked: the virtual server runs them.
        EXPECT_EQ(Vserver("v")->GetVirtualServer()->GetLbMethodName(), "RTT");
    }
    else
    {
        const std::string e = adctest::ConfigErrorOf([&] { Vserver("v")->GetVirtualServer(); });
        EXPECT_TRUE(HasAll(e, {"GslbVserverConfig v", "RTT", "GslbRegisterLbMethods"})) << e;
    }
}

// REQ: GSLB-04 (monitors bound like any monitor: bind gslb service <name> -monitorName <m>)
TEST_F(AdcConfigNetScalerGslb, ServiceMonitorsBindUnbindAndShow)
{
    ASSERT_EQ(ErrorOf(kThreeSites), "");
    ASSERT_EQ(ErrorOf("add lb monitor web-tcp TCP\n"
                      "bind gslb service g2 -monitorName web-tcp\n"),
              "");
    Ptr<AdcService> g2 = Store().Get<GslbServiceConfig>(GS::GSLB_SERVICE, "g2")->GetService();
    ASSERT_EQ(g2->GetMonitors().size(), 1u);
    // The monitor probes the service's public address and port.
    EXPECT_EQ(Monitor("web-tcp")->GetNTargets(), 1u);
    EXPECT_TRUE(HasAll(m_reader.Show(), {"bind gslb service g2 -monitorName web-tcp\n"}));
    AdcConfigReader again(GS::GetLanguage());
    again.ReadString(m_reader.Show(), "shown");
    EXPECT_EQ(again.Show(), m_reader.Show());
    EXPECT_TRUE(HasAll(ErrorOf("bind gslb service g9 -monitorName web-tcp"), {"g9", "g1"}));
    EXPECT_TRUE(HasAll(ErrorOf("bind gslb service g1 -monitorName nope"), {"nope", "web-tcp"}));
    EXPECT_TRUE(HasAll(ErrorOf("unbind gslb service g1 -monitorName web-tcp"), {"not bound"}));
    ASSERT_EQ(ErrorOf("unbind gslb service g2 -monitorName web-tcp"), "");
    EXPECT_TRUE(g2->GetMonitors().empty());
}
