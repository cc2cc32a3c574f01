/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario tests of a GSLB site's authoritative DNS server (model/gslb/gslb-adns.h): an LDNS
 * node with a stub resolver and the ADNS node on one point-to-point link; the GSLB domain's
 * virtual server comes from NetScaler lines (three sites' services, one domain). Answers
 * rotate over the sites with ROUNDROBIN (GSLB-08), a DOWN service is never answered, the
 * Decision trace names the LDNS the query came from, the TTL is the binding's, the fallbacks
 * when nothing is UP (-backupIP, -EDR, all-down), and a pcap that tshark decodes as DNS with
 * the site's address (GSLB-02). Expected values come from the configuration lines written here.
 */

// REQ: GSLB-02 (the appliance answers the domain with a site's address), GSLB-08

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-config-reader.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-dns-resolver.h"
#include "ns3/adc-netscaler-gslb-commands.h"
#include "ns3/adc-netscaler-gslb-dns.h"
#include "ns3/core-module.h"
#include "ns3/gslb-adns.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using GS = AdcNetScalerGslbCommands;

const std::string kDomain = "www.gslb.example";
const Ipv4Address kSvc[3] = {Ipv4Address("192.0.2.10"),
                             Ipv4Address("198.51.100.10"),
                             Ipv4Address("203.0.113.10")};

/// A site's GSLB configuration: three sites' services, ROUNDROBIN, the domain with \p bind's
/// extra parameters, and \p extra lines.
std::string
SiteConfig(const std::string& bind = "", const std::string& extra = "")
{
    return "add gslb site site-a 10.0.1.1 -siteType LOCAL\n"
           "add gslb site site-b 10.0.2.1\n"
           "add gslb site site-c 10.0.3.1\n"
           "add gslb service svc-a 192.0.2.10 HTTP 80 -siteName site-a\n"
           "add gslb service svc-b 198.51.100.10 HTTP 80 -siteName site-b\n"
           "add gslb service svc-c 203.0.113.10 HTTP 80 -siteName site-c\n"
           "add gslb vserver gslb-vs HTTP -lbMethod ROUNDROBIN\n"
           "bind gslb vserver gslb-vs -serviceName svc-a\n"
           "bind gslb vserver gslb-vs -serviceName svc-b\n"
           "bind gslb vserver gslb-vs -serviceName svc-c\n"
           "bind gslb vserver gslb-vs -domainName " +
           kDomain + bind + "\n" +
           // The zone the static names and NXDOMAIN answers belong to (RFC 1034 4.3.2).
           "add dns soaRec gslb.example -originServer ns1.gslb.example -contact "
           "hostmaster.gslb.example\n" +
           extra;
}

/// One Decision trace.
struct Decision
{
    AdcIpAddress ldns;    //!< the LDNS
    std::string domain;   //!< as asked
    std::string service;  //!< chosen service
    AdcIpAddress address; //!< answered
    std::string how;      //!< how
    std::string reason;   //!< why
};

/// The LDNS node (0) and the ADNS node (1) on a 100 Mbit/s, 1 ms link, dual stack; the ADNS
/// serves the GSLB domain of a configuration read from NetScaler lines.
struct Site
{
    NodeContainer nodes;                       //!< LDNS 0, ADNS 1
    PointToPointHelper p2p;                    //!< the link (pcaps)
    Ipv4Address ldns4;                         //!< 10.1.1.1
    Ipv4Address adns4;                         //!< 10.1.1.2
    Ipv6Address ldns6;                         //!< the LDNS's global IPv6 address
    Ipv6Address adns6;                         //!< the ADNS's
    AdcConfigReader reader{GS::GetLanguage()}; //!< the site's configuration
    Ptr<GslbAdns> adns;                        //!< the ADNS
    Ptr<AdcDnsResolver> resolver;              //!< on the LDNS node, over IPv4
    Ptr<AdcDnsResolver> resolver6;             //!< on the LDNS node, over IPv6
    std::vector<Decision> decisions;           //!< "Decision"
    std::vector<AdcDnsMessage> responses;      //!< the ADNS's "Response"
    std::vector<AdcIpAddress> ldnsHeard;       //!< the LDNS callback

    explicit Site(const std::string& config)
    {
        nodes.Create(2);
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer devs = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper ip;
        ip.SetBase("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ip.Assign(devs);
        ldns4 = ifs.GetAddress(0);
        adns4 = ifs.GetAddress(1);
        Ipv6AddressHelper ip6;
        ip6.SetBase(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer ifs6 = ip6.Assign(devs);
        ldns6 = ifs6.GetAddress(0, 1);
        adns6 = ifs6.GetAddress(1, 1);

        reader.ReadString(config, "site-a.ns.conf");
        GS::Validate(reader.GetStore());
        adns = CreateObject<GslbAdns>();
        adns->AddVserver(reader.GetStore().Get<GslbVserverConfig>(GS::GSLB_VSERVER, "gslb-vs"));
        adns->AddRecord(
            AdcDnsResourceRecord::A("static.gslb.example", Ipv4Address("192.0.2.77"), 60));
        adns->AddDnsRecords(reader.GetStore());
        nodes.Get(1)->AddApplication(adns);
        adns->TraceConnectWithoutContext("Decision",
                                         Callback<void,
                                                  const AdcIpAddress&,
                                                  const std::string&,
                                                  const std::string&,
                                                  const AdcIpAddress&,
                                                  const std::string&,
                                                  const std::string&>([this](const AdcIpAddress& l,
                                                                             const std::string& d,
                                                                             const std::string& s,
                                                                             const AdcIpAddress& a,
                                                                             const std::string& h,
                                                                             const std::string& r) {
                                             decisions.push_back({l, d, s, a, h, r});
                                         }));
        adns->TraceConnectWithoutContext(
            "Response",
            Callback<void, const Address&, const AdcDnsMessage&>(
                [this](const Address&, const AdcDnsMessage& m) { responses.push_back(m); }));
        adns->SetLdnsCallback(
            GslbAdns::LdnsCallback([this](const AdcIpAddress& a) { ldnsHeard.push_back(a); }));
        resolver = MakeResolver(Address(InetSocketAddress(adns4, 53)), 1);
        resolver6 = MakeResolver(Address(Inet6SocketAddress(adns6, 53)), 2);
    }

    /// \return a resolver on the LDNS node asking \p server
    Ptr<AdcDnsResolver> MakeResolver(const Address& server, int64_t stream)
    {
        Ptr<AdcDnsResolver> r = CreateObject<AdcDnsResolver>();
        r->SetAttribute("Server", AddressValue(server));
        r->AssignStreams(stream);
        nodes.Get(0)->AddApplication(r);
        return r;
    }

    /// \return the GSLB service \p name's shared-core service
    Ptr<AdcService> Service(const std::string& name)
    {
        return reader.GetStore().Get<GslbServiceConfig>(GS::GSLB_SERVICE, name)->GetService();
    }

    /// Ask \p name of \p qtype through \p r at \p when.
    void Ask(Ptr<AdcDnsResolver> r, Time when, const std::string& name, uint16_t qtype)
    {
        Simulator::Schedule(when, [r, name, qtype]() {
            r->Resolve(name,
                       qtype,
                       AdcDnsResolver::ResultCallback(
                           [](const std::string&, std::vector<AdcIpAddress>, uint8_t) {}));
        });
    }

    /// Ask the domain \p n times, 100 ms apart from 1 s, over IPv4.
    void AskMany(uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            Ask(resolver, Seconds(1) + MilliSeconds(100 * i), kDomain, AdcDnsMessage::TYPE_A);
        }
    }

    /// \return the first answer record's address of every response, "" when it has none
    std::vector<std::string> Answers() const
    {
        std::vector<std::string> out;
        for (const AdcDnsMessage& m : responses)
        {
            if (m.answers.empty())
            {
                out.emplace_back("");
                continue;
            }
            const std::vector<uint8_t>& d = m.answers[0].rdata;
            std::ostringstream os;
            os << int(d[0]) << "." << int(d[1]) << "." << int(d[2]) << "." << int(d[3]);
            out.push_back(os.str());
        }
        return out;
    }
};

/// Run until \p end, then destroy the simulation.
void
RunUntil(Time end)
{
    Simulator::Stop(end);
    Simulator::Run();
    Simulator::Destroy();
}

/// \return \p a as text
std::string
Text(Ipv4Address a)
{
    std::ostringstream os;
    a.Print(os);
    return os.str();
}

} // namespace

// REQ: GSLB-08 (round robin over the sites), GSLB-02 (the answer is a site's address)
TEST(GslbAdns, AnswersRotateOverThreeSites)
{
    Site site(SiteConfig());
    site.AskMany(6);
    RunUntil(Seconds(3));
    // Binding order, twice: svc-a, svc-b, svc-c.
    const std::vector<std::string> expected =
        {Text(kSvc[0]), Text(kSvc[1]), Text(kSvc[2]), Text(kSvc[0]), Text(kSvc[1]), Text(kSvc[2])};
    EXPECT_EQ(site.Answers(), expected);
    ASSERT_EQ(site.decisions.size(), 6U);
    const std::vector<std::string> services = {"svc-a", "svc-b", "svc-c"};
    for (std::size_t i = 0; i < site.decisions.size(); ++i)
    {
        const Decision& d = site.decisions[i];
        EXPECT_EQ(d.service, services[i % 3]);
        EXPECT_EQ(d.address, AdcIpAddress(kSvc[i % 3]));
        EXPECT_EQ(d.how, "method");
        EXPECT_EQ(d.reason, "ROUNDROBIN"); // no reason source: the method's name
        EXPECT_EQ(d.domain, kDomain);
    }
    for (const AdcDnsMessage& m : site.responses)
    {
        EXPECT_EQ(m.rcode, AdcDnsMessage::NOERROR);
        EXPECT_TRUE(m.aa);
        ASSERT_EQ(m.answers.size(), 1U);
        EXPECT_EQ(m.answers[0].type, AdcDnsMessage::TYPE_A);
    }
}

// REQ: GSLB-02 (only a service that is UP is answered)
TEST(GslbAdns, DownServiceIsNeverAnswered)
{
    Site site(SiteConfig());
    site.Service("svc-b")->SetExternalHealth(AdcService::State::DOWN); // e.g. MEP says so
    site.AskMany(6);
    RunUntil(Seconds(3));
    const std::vector<std::string> expected =
        {Text(kSvc[0]), Text(kSvc[2]), Text(kSvc[0]), Text(kSvc[2]), Text(kSvc[0]), Text(kSvc[2])};
    EXPECT_EQ(site.Answers(), expected);
    for (const Decision& d : site.decisions)
    {
        EXPECT_NE(d.service, "svc-b");
    }
}

// REQ: GSLB-01 (the decision is per LDNS: the query's source is what the RTT method reads)
TEST(GslbAdns, DecisionNamesTheLdnsOfTheQuery)
{
    Site site(SiteConfig("", "bind gslb vserver gslb-vs -domainName v6.gslb.example\n"));
    site.Ask(site.resolver, Seconds(1), kDomain, AdcDnsMessage::TYPE_A);
    site.Ask(site.resolver6, Seconds(1.5), "V6.GSLB.example", AdcDnsMessage::TYPE_A);
    RunUntil(Seconds(3));
    ASSERT_EQ(site.decisions.size(), 2U);
    EXPECT_EQ(site.decisions[0].ldns, AdcIpAddress(site.ldns4));
    EXPECT_EQ(site.decisions[1].ldns, AdcIpAddress(site.ldns6));
    EXPECT_EQ(site.decisions[1].domain, "V6.GSLB.example"); // names compared ignoring case
    EXPECT_EQ(site.decisions[1].service,
              "svc-b"); // the vserver's round robin, shared by its domains
    // The LDNS callback heard each source once per query.
    EXPECT_EQ(site.ldnsHeard,
              (std::vector<AdcIpAddress>{AdcIpAddress(site.ldns4), AdcIpAddress(site.ldns6)}));
}

// REQ: GSLB-02 (the TTL is the binding's: NetScaler's default 5 s, or -TTL)
TEST(GslbAdns, TtlIsTheBindings)
{
    Site site(SiteConfig(" -TTL 42", "bind gslb vserver gslb-vs -domainName d.gslb.example\n"));
    site.Ask(site.resolver, Seconds(1), kDomain, AdcDnsMessage::TYPE_A);
    site.Ask(site.resolver, Seconds(1.1), "d.gslb.example", AdcDnsMessage::TYPE_A);
    site.Ask(site.resolver, Seconds(1.2), "static.gslb.example", AdcDnsMessage::TYPE_A);
    RunUntil(Seconds(3));
    ASSERT_EQ(site.responses.size(), 3U);
    ASSERT_EQ(site.responses[0].answers.size(), 1U);
    EXPECT_EQ(site.responses[0].answers[0].ttl, 42U);
    ASSERT_EQ(site.responses[1].answers.size(), 1U);
    EXPECT_EQ(site.responses[1].answers[0].ttl, 5U);
    // Names outside the GSLB domains are the static zone's, with their own TTL.
    ASSERT_EQ(site.responses[2].answers.size(), 1U);
    EXPECT_EQ(site.responses[2].answers[0].ttl, 60U);
    EXPECT_EQ(site.decisions.size(), 2U); // no decision for the static name
}

// REQ: GSLB-02 (other query types of the domain, unknown names)
TEST(GslbAdns, OtherTypesAndNames)
{
    Site site(SiteConfig());
    site.Ask(site.resolver, Seconds(1), kDomain, AdcDnsMessage::TYPE_AAAA);
    site.Ask(site.resolver, Seconds(1.1), kDomain, AdcDnsMessage::TYPE_ANY);
    site.Ask(site.resolver, Seconds(1.2), "nosuch.gslb.example", AdcDnsMessage::TYPE_A);
    RunUntil(Seconds(3));
    ASSERT_EQ(site.responses.size(), 3U);
    EXPECT_EQ(site.responses[0].rcode, AdcDnsMessage::NOERROR); // NODATA: the name exists
    EXPECT_TRUE(site.responses[0].answers.empty());
    EXPECT_EQ(site.responses[1].answers.size(), 1U); // ANY: the domain's A record
    EXPECT_EQ(site.responses[2].rcode, AdcDnsMessage::NXDOMAIN);
    ASSERT_EQ(site.decisions.size(), 2U);
    EXPECT_EQ(site.decisions[0].how, "no-record");
    EXPECT_EQ(site.decisions[1].service, "svc-a");
}

// REQ: GSLB-02 (what is answered when no site is UP)
TEST(GslbAdns, NothingUpFallbacks)
{
    struct Case
    {
        std::string bind;                 //!< extra binding parameters
        std::string extra;                //!< extra lines
        std::string how;                  //!< expected Decision how
        std::vector<std::string> answers; //!< expected answers of two queries
    };

    const std::vector<Case> cases = {
        {" -backupIP 192.0.2.200", "", "backup-ip", {"192.0.2.200", "192.0.2.200"}},
        {"", "set gslb vserver gslb-vs -EDR ENABLED\n", "empty-down", {"", ""}},
        {"", "", "all-down", {Text(kSvc[0]), Text(kSvc[1])}},
    };
    for (const Case& c : cases)
    {
        Site site(SiteConfig(c.bind, c.extra));
        for (const std::string s : {"svc-a", "svc-b", "svc-c"})
        {
            site.Service(s)->SetExternalHealth(AdcService::State::DOWN);
        }
        site.AskMany(2);
        RunUntil(Seconds(3));
        EXPECT_EQ(site.Answers(), c.answers) << c.how;
        ASSERT_EQ(site.decisions.size(), 2U) << c.how;
        EXPECT_EQ(site.decisions[0].how, c.how);
        EXPECT_EQ(site.adns->GetDownDecisions(), 2U);
        EXPECT_EQ(site.adns->GetAnswered(), 0U);
        for (const AdcDnsMessage& m : site.responses)
        {
            EXPECT_EQ(m.rcode, AdcDnsMessage::NOERROR) << c.how;
        }
    }
}

// REQ: GSLB-01 (the method's reason, e.g. "rtt" or "backup-roundrobin-no-rtt", is traced)
TEST(GslbAdns, ReasonFromTheMethod)
{
    Site site(SiteConfig());
    uint32_t calls = 0;
    site.adns->SetReasonSource(Callback<std::string>([&calls]() {
        ++calls;
        return std::string("backup-roundrobin-no-rtt");
    }));
    site.AskMany(2);
    RunUntil(Seconds(3));
    ASSERT_EQ(site.decisions.size(), 2U);
    EXPECT_EQ(site.decisions[0].reason, "backup-roundrobin-no-rtt");
    EXPECT_EQ(calls, 2U);
}

// REQ: GSLB-02 (bad settings are configuration errors naming them)
TEST(GslbAdns, BadSettingsAreConfigErrors)
{
    Ptr<GslbAdns> adns = CreateObject<GslbAdns>();
    Ptr<AdcVirtualServer> vs = CreateObject<AdcVirtualServer>();
    vs->Configure("vs", "HTTP", AdcIpAddress(), 0);
    EXPECT_TRUE(
        adctest::HasAll(adctest::ConfigErrorOf([&] { adns->AddDomain("a.example", vs, 5, 15); }),
                        {"a.example", "15", "A", "AAAA"}));
    adns->AddDomain("a.example", vs, 5, AdcDnsMessage::TYPE_A);
    EXPECT_TRUE(
        adctest::HasAll(adctest::ConfigErrorOf([&] { adns->AddDomain("A.EXAMPLE", vs, 5, 1); }),
                        {"A.EXAMPLE", "already"}));
    EXPECT_TRUE(adctest::HasAll(
        adctest::ConfigErrorOf([&] { adns->SetBackupIp("b.example", Ipv4Address("192.0.2.1")); }),
        {"b.example", "a.example"}));
    EXPECT_FALSE(
        adctest::ConfigErrorOf([&] { adns->AddDomain("bad..example", vs, 5, 1); }).empty());
    EXPECT_EQ(adns->GetDomains(), (std::vector<std::string>{"a.example"}));
    adns->Dispose();
    vs->Dispose();
    Simulator::Destroy();
}

// REQ: GSLB-02 ("DNS response in pcap": decoded by tshark as DNS with the site's address)
TEST(GslbAdns, PcapDecodesAsDnsWithTheSiteAddress)
{
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir = adctest::FreshTempDir("gslb-adns");
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
    {
        Site site(SiteConfig(" -TTL 30"));
        site.AskMany(3);
        site.p2p.EnablePcap(dir + "/adns", site.nodes.Get(1)->GetDevice(0));
        RunUntil(Seconds(3));
    }
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
    const std::string pcap = dir + "/adns-1-0.pcap";
    ASSERT_TRUE(std::filesystem::exists(pcap)) << pcap;
    // One tshark run (it takes about a second to start): every frame's DNS fields, and the
    // malformed and error-severity expert marks (nothing may be malformed).
    const std::string out =
        adctest::RunCommand("tshark -n -r '" + pcap +
                            "' -T fields -E separator='|' -e dns.flags.response -e dns.qry.name "
                            "-e dns.flags.authoritative -e dns.a -e dns.resp.ttl -e _ws.malformed "
                            "-e _ws.expert.severity 2>/dev/null");
    // Responses: QNAME, AA, the site's address, TTL; no malformed or error mark.
    const std::vector<std::string> expected = {"1|" + kDomain + "|1|" + Text(kSvc[0]) + "|30||",
                                               "1|" + kDomain + "|1|" + Text(kSvc[1]) + "|30||",
                                               "1|" + kDomain + "|1|" + Text(kSvc[2]) + "|30||"};
    std::vector<std::string> rows;
    std::istringstream lines(out);
    uint32_t queries = 0;
    for (std::string line; std::getline(lines, line);)
    {
        if (line.rfind("1|", 0) == 0)
        {
            rows.push_back(line);
        }
        queries += line == "0|" + kDomain + "|||||" ? 1 : 0; // AA shows in responses only
    }
    EXPECT_EQ(rows, expected) << out;
    EXPECT_EQ(queries, 3U) << out;
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir);
    }
}
