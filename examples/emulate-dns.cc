/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * emulate-dns: the module's DNS models next to real DNS programs, through a Linux tap
 * (AdcEmulationHelper; issue 24's `dns` scenario and the DNS interoperability tests).
 *
 * --mode=adns (default): one GSLB site's authoritative DNS (GslbAdns, configured from an
 * ns.conf by GslbHelper) on a simulated appliance whose only link is the tap. Programs on the
 * host side of the tap (dig, kdig, drill, a resolver) ask it over UDP and TCP, IPv4 and IPv6.
 * The configuration is --config, or a built-in one: site-a at the simulated address,
 * www.gslb.example (A) and www6.gslb.example (AAAA). Next to the configuration, --largeName
 * gets --largeCount static A records (NetScaler's `add dns addRec`, which the ns.conf front
 * end does not read): an answer above RFC 1035's 512-byte UDP limit, so that UDP answers
 * are truncated (TC) and TCP answers whole.
 *
 * --mode=resolve: a client node's stub resolver (AdcDnsResolver) asks a simulated LDNS
 * (AdcLdnsServer, on the tap's node, one point-to-point link from the client), which asks the
 * authoritative server on the host side (--nameserver, e.g. nsd; start it first). Each
 * question (--names x --types) gets one row in OUTPUTDIR/answers.csv: name, type, rcode,
 * addresses and their TTLs as the stub resolver received them. The run ends when every
 * question is answered (or failed after the resolver's tries), at --duration, or on Ctrl-C.
 *
 * The simulation runs in real time with real checksums. Creating the tap needs root; run it
 * in a network namespace of its own (`./adc emulate dns` does, as the interop tests do), so
 * that the tap, the programs on the host side and every packet stay inside it: it refuses a
 * namespace with interfaces other than lo unless --allowHostInterfaces=1. The options and the
 * configuration are checked before the tap is created. Stop with Ctrl-C (SIGINT) or SIGTERM,
 * or after --duration seconds; the tap disappears on exit. The site file of gslb-rtt works
 * too (--config=examples/gslb-site-a.ns.conf): its remote sites are unreachable here, so MEP
 * marks their services DOWN and the site answers with its own.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-dns-resolver.h"
#include "ns3/adc-emulation-helper.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-ldns-server.h"
#include "ns3/core-module.h"
#include "ns3/gslb-adns.h"
#include "ns3/gslb-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The built-in ns.conf; "@SIM@" becomes the simulated appliance's IPv4 address (its site IP).
const char* const kBuiltinConfig = R"NSCONF(# emulate-dns built-in: GSLB site-a, the
# simulated appliance, answering for two domains: www.gslb.example (A) and www6.gslb.example
# (AAAA). Service addresses are documentation ranges (RFC 5737, RFC 3849): answer data only.
add gslb site site-a @SIM@ -siteType LOCAL
add gslb service svc-web-a 203.0.113.10 HTTP 80 -siteName site-a
add gslb service svc-web6-a 2001:db8:cafe::10 HTTP 80 -siteName site-a
add gslb vserver gslb-web HTTP -lbMethod ROUNDROBIN
bind gslb vserver gslb-web -serviceName svc-web-a
bind gslb vserver gslb-web -domainName www.gslb.example -TTL 5
add gslb vserver gslb-web6 HTTP -lbMethod ROUNDROBIN -dnsRecordType AAAA
bind gslb vserver gslb-web6 -serviceName svc-web6-a
bind gslb vserver gslb-web6 -domainName www6.gslb.example -TTL 5
# The zone gslb.example (RFC 1034 4.3.2: names outside it are REFUSED; negative answers carry
# its SOA, TTL min(3600, 30) = 30, RFC 2308 3); alias.gslb.example is a CNAME of the domain.
add dns soaRec gslb.example -originServer ns1.gslb.example -contact admin.gslb.example -minimum 30
add dns nsRec gslb.example ns1.gslb.example
add dns cnameRec alias.gslb.example www.gslb.example -TTL 300
)NSCONF";

/// Command-line settings (AdcExperiment checks them before anything is built).
struct Options
{
    std::string mode{"adns"};
    std::string config;
    std::string tap{"adc-dns0"};
    std::string simAddress{"192.0.2.1"};
    std::string hostAddress{"192.0.2.2"};
    std::string simAddress6{"2001:db8:53::1"};
    std::string hostAddress6{"2001:db8:53::2"};
    double duration{0};
    std::string largeName{"big.gslb.example"};
    uint32_t largeCount{40};
    std::string largeFirst{"198.51.100.1"};
    uint32_t largeTtl{300};
    std::string names{"www.emu.example"};
    std::string types{"A,AAAA"};
    std::string zone{"."};
    std::string nameserver;
    std::string outputDir{"results/emulate-dns"};
    bool allowHostInterfaces{false};
};

/// The addresses and lists of Options, converted (after the checks).
struct Settings
{
    bool resolve{false};
    Ipv4Address sim, host;
    Ipv6Address sim6, host6;
    Ipv4Address largeFirst;
    std::vector<std::string> names;
    std::vector<uint16_t> types;
    Address nameserver;
    std::string nameserverText;
};

/// Throws AdcConfigError unless \p text is an IPv4 address (a check of AdcExperiment).
void
CheckIpv4(const std::string& text)
{
    in_addr a{};
    if (inet_pton(AF_INET, text.c_str(), &a) != 1)
    {
        throw AdcConfigError("not an IPv4 address (e.g. 192.0.2.1)");
    }
}

/// Throws AdcConfigError unless \p text is an IPv6 address.
void
CheckIpv6(const std::string& text)
{
    in6_addr a{};
    if (inet_pton(AF_INET6, text.c_str(), &a) != 1)
    {
        throw AdcConfigError("not an IPv6 address (e.g. 2001:db8:53::1)");
    }
}

/// Throws AdcConfigError unless \p text is empty (not set) or an IPv4 or IPv6 address.
void
CheckOptionalIp(const std::string& text)
{
    in_addr a{};
    in6_addr a6{};
    if (!text.empty() && inet_pton(AF_INET, text.c_str(), &a) != 1 &&
        inet_pton(AF_INET6, text.c_str(), &a6) != 1)
    {
        throw AdcConfigError("not an IPv4 or IPv6 address (e.g. 192.0.2.2, 2001:db8:53::2)");
    }
}

/// Throws AdcConfigError unless every item of \p text is a domain name.
void
CheckNames(const std::string& text)
{
    for (const std::string& n : AdcConfigError::SplitList(text))
    {
        AdcDnsName::ToLabels(n); // names the name and the limit it breaks
    }
}

/// \return the upper-case text of a QTYPE this example asks
std::string
TypeName(uint16_t t)
{
    return t == AdcDnsMessage::TYPE_AAAA ? "AAAA" : "A";
}

/// \return a QTYPE's mnemonic when it is a common one, else "TYPEn" (RFC 3597)
std::string
QtypeName(uint16_t t)
{
    static const std::map<uint16_t, std::string> names{{1, "A"},
                                                       {2, "NS"},
                                                       {5, "CNAME"},
                                                       {6, "SOA"},
                                                       {12, "PTR"},
                                                       {15, "MX"},
                                                       {16, "TXT"},
                                                       {28, "AAAA"},
                                                       {33, "SRV"},
                                                       {41, "OPT"},
                                                       {255, "ANY"}};
    auto it = names.find(t);
    return it == names.end() ? "TYPE" + std::to_string(t) : it->second;
}

/// Throws AdcConfigError when options that each passed their own check disagree.
void
CheckTogether(const Options& o)
{
    const Ipv4Address sim(o.simAddress.c_str());
    const Ipv4Address host(o.hostAddress.c_str());
    if (sim == host || !Ipv4Mask("255.255.255.0").IsMatch(sim, host))
    {
        throw AdcConfigError("--hostAddress=" + AdcExperiment::Show(o.hostAddress) +
                             ": allowed an address other than --simAddress (" + o.simAddress +
                             ") in the same /24");
    }
    const Ipv6Address sim6(o.simAddress6.c_str());
    const Ipv6Address host6(o.hostAddress6.c_str());
    if (sim6 == host6 || !Ipv6Prefix(64).IsMatch(sim6, host6))
    {
        throw AdcConfigError("--hostAddress6=" + AdcExperiment::Show(o.hostAddress6) +
                             ": allowed an address other than --simAddress6 (" + o.simAddress6 +
                             ") in the same /64");
    }
    if (o.largeCount > 0 &&
        Ipv4Address(o.largeFirst.c_str()).Get() > 0xffffffffU - (o.largeCount - 1))
    {
        throw AdcConfigError("--largeFirst=" + AdcExperiment::Show(o.largeFirst) + ": the " +
                             std::to_string(o.largeCount) +
                             " addresses from it (--largeCount) pass 255.255.255.255");
    }
}

/// \return the checked options converted
Settings
Convert(const Options& o)
{
    Settings s;
    s.resolve = o.mode == "resolve";
    s.sim = Ipv4Address(o.simAddress.c_str());
    s.host = Ipv4Address(o.hostAddress.c_str());
    s.sim6 = Ipv6Address(o.simAddress6.c_str());
    s.host6 = Ipv6Address(o.hostAddress6.c_str());
    s.largeFirst = Ipv4Address(o.largeFirst.c_str());
    s.names = AdcConfigError::SplitList(o.names);
    for (const std::string& t : AdcConfigError::SplitList(o.types))
    {
        s.types.push_back(t == "AAAA" ? AdcDnsMessage::TYPE_AAAA : AdcDnsMessage::TYPE_A);
    }
    s.nameserverText = o.nameserver.empty() ? o.hostAddress : o.nameserver;
    if (s.nameserverText.find(':') != std::string::npos)
    {
        s.nameserver = Inet6SocketAddress(Ipv6Address(s.nameserverText.c_str()), 53);
    }
    else
    {
        s.nameserver = InetSocketAddress(Ipv4Address(s.nameserverText.c_str()), 53);
    }
    return s;
}

/**
 * \brief Create the tap and attach \p node to it with the simulated addresses; the host side
 * gets the host addresses. The helper refuses a namespace with other interfaces than lo
 * (unless --allowHostInterfaces) and a machine where no tap can be made.
 * \throws AdcExperimentError when the tap cannot be made here
 */
void
AttachTap(Ptr<Node> node, const Options& o, const Settings& s)
{
    const std::string why = AdcEmulationHelper::GetUnavailableReason();
    if (!why.empty())
    {
        throw AdcExperimentError("cannot create a tap here: " + why);
    }
    AdcEmulationHelper emu;
    emu.SetTapName(o.tap);
    emu.SetAllowHostInterfaces(o.allowHostInterfaces);
    emu.SetHostAddress(s.host, Ipv4Mask("255.255.255.0"));
    emu.AddHostAddress(s.host6, Ipv6Prefix(64));
    Ptr<NetDevice> dev = emu.Install(node);

    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    const int32_t i4 = ipv4->AddInterface(dev);
    ipv4->AddAddress(i4, Ipv4InterfaceAddress(s.sim, Ipv4Mask("255.255.255.0")));
    ipv4->SetUp(i4);
    Ptr<Ipv6> ipv6 = node->GetObject<Ipv6>();
    int32_t i6 = ipv6->GetInterfaceForDevice(dev);
    if (i6 < 0)
    {
        i6 = ipv6->AddInterface(dev);
    }
    ipv6->AddAddress(i6, Ipv6InterfaceAddress(s.sim6, Ipv6Prefix(64)));
    ipv6->SetUp(i6);
}

/// Stop the simulation after \p duration seconds (0: never) and on a signal; say so.
void
ScheduleStop(double duration, const std::string& until)
{
    std::ostringstream when;
    if (duration > 0)
    {
        Simulator::Stop(Seconds(duration));
        when << "after " << duration << " s, ";
    }
    if (!until.empty())
    {
        when << until << ", ";
    }
    std::cout << "emulate-dns: stops " << when.str() << "or on Ctrl-C" << std::endl;
    AdcEmulationHelper::StopOnSignal();
}

/// Print each response the ADNS sends (one line), for whoever watches.
void
OnAdnsResponse(const Address& to, const AdcDnsMessage& r)
{
    std::ostringstream peer;
    if (InetSocketAddress::IsMatchingType(to))
    {
        peer << InetSocketAddress::ConvertFrom(to).GetIpv4();
    }
    else if (Inet6SocketAddress::IsMatchingType(to))
    {
        peer << Inet6SocketAddress::ConvertFrom(to).GetIpv6();
    }
    std::cout << "emulate-dns: answered " << peer.str() << ": "
              << (r.questions.empty()
                      ? std::string("(no question)")
                      : r.questions.front().name + " " + QtypeName(r.questions.front().qtype))
              << " -> " << AdcDnsMessage::RcodeName(r.rcode) << ", " << r.answers.size()
              << " answer(s)" << (r.tc ? ", TC" : "") << std::endl;
}

/// Run the ADNS scenario. \return the exit status
int
RunAdns(const Options& o, const Settings& s)
{
    // The configuration is read before the tap exists: a bad file changes nothing on the host.
    Ptr<Node> node = CreateObject<Node>();
    InternetStackHelper().Install(node);
    std::string text = kBuiltinConfig;
    const std::string simText = o.simAddress;
    text.replace(text.find("@SIM@"), 5, simText);
    Ptr<GslbSiteApps> site = o.config.empty()
                                 ? GslbHelper().InstallFromText(node, text, "built-in ns.conf")
                                 : GslbHelper().InstallFromFile(node, o.config);
    Ptr<GslbAdns> adns = site->GetAdns(); // serving the file's add dns soaRec/nsRec/cnameRec
    if (o.largeCount > 0 && adns->FindZone(o.largeName).empty())
    {
        // The static records need a zone (else REFUSED): one at their parent, with
        // NetScaler's soaRec defaults.
        const std::vector<std::string> labels = AdcDnsName::ToLabels(o.largeName);
        const std::string apex = AdcDnsName::FromLabels(
            std::vector<std::string>(labels.begin() + (labels.size() > 1 ? 1 : 0), labels.end()));
        AdcDnsSoa soa;
        soa.mname = "ns1." + apex;
        soa.rname = "hostmaster." + apex;
        soa.serial = 100;
        soa.refresh = 3600;
        soa.retry = 3;
        soa.expire = 3600;
        soa.minimum = 5;
        adns->AddRecord(soa.ToRecord(apex, 3600));
    }
    for (uint32_t i = 0; i < o.largeCount; ++i)
    {
        adns->AddRecord(
            AdcDnsResourceRecord::A(o.largeName, Ipv4Address(s.largeFirst.Get() + i), o.largeTtl));
    }
    adns->TraceConnectWithoutContext("Response", MakeCallback(&OnAdnsResponse));
    AttachTap(node, o, s);

    const std::vector<std::string> domains = adns->GetDomains();
    std::cout << "emulate-dns: GSLB site " << site->GetSiteNames()[site->GetSite()] << "'s ADNS ("
              << (o.config.empty() ? "built-in ns.conf" : o.config) << ") at " << o.simAddress
              << " and " << o.simAddress6 << " on tap " << o.tap << " (host side " << o.hostAddress
              << ", " << o.hostAddress6 << ")\n";
    std::cout << "emulate-dns: domains:";
    for (const std::string& d : domains)
    {
        std::cout << " " << d;
    }
    if (o.largeCount > 0)
    {
        std::cout << "; static: " << o.largeName << " (" << o.largeCount << " A records)";
    }
    std::cout << "\nemulate-dns: try (an authoritative server: +norecurse, RA is clear):\n";
    const std::string d0 = domains.empty() ? "www.gslb.example" : domains.front();
    std::cout << "  dig @" << o.simAddress << " " << d0 << " A +norecurse\n"
              << "  dig @" << o.simAddress6 << " " << d0 << " A +norecurse +tcp\n"
              << "  kdig @" << o.simAddress << " " << d0 << " A +tcp +norecurse\n";
    for (const std::string& d : domains)
    {
        if (d != d0)
        {
            std::cout << "  kdig @" << o.simAddress6 << " " << d << " AAAA +norecurse\n";
            break;
        }
    }
    if (o.largeCount > 0)
    {
        std::cout << "  dig @" << o.simAddress << " " << o.largeName
                  << " A +norecurse +noedns +ignore   (UDP: truncated, tc)\n"
                  << "  dig @" << o.simAddress << " " << o.largeName
                  << " A +norecurse +tcp   (TCP: all " << o.largeCount << ")\n";
    }
    ScheduleStop(o.duration, "");
    Simulator::Run();
    std::cout << "emulate-dns: stopped; " << adns->GetQueries() << " queries, "
              << adns->GetTruncated() << " truncated UDP answers, " << adns->GetTcpConnections()
              << " TCP connections" << std::endl;
    Simulator::Destroy();
    return 0;
}

/// One question of the resolve mode and what came back.
struct Question
{
    std::string name;                         //!< as asked
    uint16_t qtype{1};                        //!< A or AAAA
    bool done{false};                         //!< callback came
    uint8_t rcode{AdcDnsResolver::kNoAnswer}; //!< its RCODE
    std::vector<AdcIpAddress> addresses;      //!< the stub resolver's addresses
    std::vector<uint32_t> ttls;               //!< each address's TTL
};

/// State of the resolve mode's callbacks.
struct Resolve
{
    std::vector<Question> questions;                                //!< in --names x --types order
    std::map<std::pair<std::string, uint16_t>, AdcDnsMessage> last; //!< last response per question
    uint32_t outstanding{0};                                        //!< callbacks to come
};

/// \return \p name in lower case (names compare ignoring case, RFC 4343)
std::string
Lower(std::string name)
{
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return name;
}

void
OnResolverAnswer(Resolve* r, const AdcDnsMessage& response, Time /* latency */)
{
    if (!response.questions.empty())
    {
        const AdcDnsQuestion& q = response.questions.front();
        r->last[{Lower(AdcDnsName::Canonical(q.name)), q.qtype}] = response;
    }
}

void
OnResolved(Resolve* r,
           std::size_t index,
           const std::string& /* name */,
           std::vector<AdcIpAddress> addresses,
           uint8_t rcode)
{
    Question& q = r->questions[index];
    q.done = true;
    q.rcode = rcode;
    q.addresses = addresses;
    auto it = r->last.find({Lower(AdcDnsName::Canonical(q.name)), q.qtype});
    for (const AdcIpAddress& a : addresses)
    {
        uint32_t ttl = 0;
        for (const AdcDnsResourceRecord& rr :
             it == r->last.end() ? std::vector<AdcDnsResourceRecord>{} : it->second.answers)
        {
            if ((a.IsV4() && rr.GetA() == a.GetIpv4()) || (a.IsV6() && rr.GetAaaa() == a.GetIpv6()))
            {
                ttl = rr.ttl;
                break;
            }
        }
        q.ttls.push_back(ttl);
    }
    std::cout << "emulate-dns: " << q.name << " " << TypeName(q.qtype) << " -> "
              << (rcode == AdcDnsResolver::kNoAnswer ? "no answer"
                                                     : AdcDnsMessage::RcodeName(rcode));
    for (std::size_t i = 0; i < addresses.size(); ++i)
    {
        std::cout << " " << addresses[i].ToString() << " (TTL " << q.ttls[i] << ")";
    }
    std::cout << std::endl;
    if (--r->outstanding == 0)
    {
        Simulator::Stop();
    }
}

/// Run the resolve scenario. \return the exit status
int
RunResolve(const Options& o, const Settings& s)
{
    AdcCsvWriter csv(o.outputDir + "/answers.csv", {"name", "type", "rcode", "addresses", "ttls"});
    NodeContainer nodes(2); // the LDNS (on the tap), the client
    InternetStackHelper().Install(nodes);
    AttachTap(nodes.Get(0), o, s);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1ms"));
    Ipv4AddressHelper ip("198.51.100.252", "255.255.255.252"); // internal to the simulation
    const Ipv4InterfaceContainer link = ip.Assign(p2p.Install(nodes));
    Ptr<Node> ldnsNode = nodes.Get(0);
    Ptr<Node> client = nodes.Get(1);

    Ptr<AdcLdnsServer> ldns = CreateObject<AdcLdnsServer>();
    ldns->AddZone(o.zone, {s.nameserver});
    ldns->AssignStreams(1);
    ldnsNode->AddApplication(ldns);
    Ptr<AdcDnsResolver> resolver = CreateObject<AdcDnsResolver>();
    resolver->SetAttribute("Server", AddressValue(InetSocketAddress(link.GetAddress(0), 53)));
    resolver->AssignStreams(2);
    client->AddApplication(resolver);

    Resolve r;
    resolver->TraceConnectWithoutContext("Answer", MakeBoundCallback(&OnResolverAnswer, &r));
    for (const std::string& n : s.names)
    {
        for (uint16_t t : s.types)
        {
            Question q;
            q.name = n;
            q.qtype = t;
            r.questions.push_back(q);
        }
    }
    r.outstanding = static_cast<uint32_t>(r.questions.size());
    for (std::size_t i = 0; i < r.questions.size(); ++i)
    {
        resolver->Resolve(r.questions[i].name,
                          r.questions[i].qtype,
                          MakeBoundCallback(&OnResolved, &r, i));
    }
    std::cout << "emulate-dns: the simulated LDNS at " << o.simAddress << " / " << o.simAddress6
              << " on tap " << o.tap << " asks " << s.nameserverText << " port 53 for zone "
              << o.zone << " (start that server first: nsd, ...)\n"
              << "emulate-dns: " << r.questions.size()
              << " question(s) from a simulated stub resolver; answers in " << csv.GetPath()
              << "\nemulate-dns: compare with: dig @" << s.nameserverText << " " << s.names.front()
              << " " << TypeName(s.types.front()) << " +norecurse" << std::endl;
    ScheduleStop(o.duration, "when every question is answered");
    Simulator::Run();

    uint32_t unanswered = 0;
    for (const Question& q : r.questions)
    {
        std::string addresses, ttls;
        for (std::size_t i = 0; i < q.addresses.size(); ++i)
        {
            addresses += (i ? " " : "") + q.addresses[i].ToString();
            ttls += (i ? " " : "") + std::to_string(q.ttls[i]);
        }
        const bool none = !q.done || q.rcode == AdcDnsResolver::kNoAnswer;
        unanswered += none ? 1 : 0;
        csv.WriteRow({q.name,
                      TypeName(q.qtype),
                      none ? "NOANSWER" : AdcDnsMessage::RcodeName(q.rcode),
                      addresses,
                      ttls});
    }
    csv.Close();
    std::cout << "emulate-dns: " << (r.questions.size() - unanswered) << " of "
              << r.questions.size() << " answered; LDNS forwards " << ldns->GetForwards()
              << ", SERVFAIL " << ldns->GetServfails() << std::endl;
    Simulator::Destroy();
    return unanswered == 0 ? 0 : 1;
}

} // namespace

int
main(int argc, char* argv[])
{
    AdcEmulationHelper::EnableRealtime(); // before any other ns-3 call
    Options o;
    AdcExperiment exp("emulate-dns",
                      "The module's DNS models next to real DNS programs through a Linux tap: "
                      "--mode=adns, a GSLB site's authoritative DNS for dig and kdig; "
                      "--mode=resolve, a simulated stub resolver and LDNS asking an "
                      "authoritative server on the host (nsd). Needs root; run it in a "
                      "network namespace of its own (./adc emulate dns).");
    exp.Add("mode", "adns (a GSLB site's ADNS) or resolve (stub resolver and LDNS)", o.mode)
        .OneOf({"adns", "resolve"});
    exp.Add("config",
            "adns: the site's ns.conf (empty: the built-in one)",
            o.config,
            AdcExperimentOption::Kind::INPUT_FILE)
        .Optional();
    exp.Add("tap", "the tap's name (1..15 characters)", o.tap).Check([](const std::string& t) {
        AdcEmulationHelper().SetTapName(t);
    });
    exp.Add("simAddress", "the simulated node's IPv4 address on the tap (/24)", o.simAddress)
        .Check(&CheckIpv4);
    exp.Add("hostAddress", "the host side's IPv4 address (same /24)", o.hostAddress)
        .Check(&CheckIpv4);
    exp.Add("simAddress6", "the simulated node's IPv6 address (/64)", o.simAddress6)
        .Check(&CheckIpv6);
    exp.Add("hostAddress6", "the host side's IPv6 address (same /64)", o.hostAddress6)
        .Check(&CheckIpv6);
    exp.Add("duration",
            "seconds of real time to run (0: until Ctrl-C; resolve: until every question is "
            "answered)",
            o.duration)
        .Min(0)
        .Max(31536000);
    exp.Add("largeName", "adns: a name with --largeCount static A records", o.largeName)
        .Check(&CheckNames);
    exp.Add("largeCount", "adns: how many (0: none)", o.largeCount).Max(1000);
    exp.Add("largeFirst", "adns: the first record's address (then +1 each)", o.largeFirst)
        .Check(&CheckIpv4);
    exp.Add("largeTtl", "adns: their TTL, s (RFC 2181 8: below 2^31)", o.largeTtl).Max(2147483647);
    exp.AddList("names", "resolve: the names asked, comma-separated", o.names).Check(&CheckNames);
    exp.AddList("types", "resolve: the types asked for each name", o.types).OneOf({"A", "AAAA"});
    exp.Add("zone", "resolve: the zone the LDNS asks --nameserver for ('.': every name)", o.zone)
        .Check(&CheckNames);
    exp.Add("nameserver",
            "resolve: the authoritative server, IPv4 or IPv6, port 53 (empty: --hostAddress)",
            o.nameserver)
        .Optional()
        .Check(&CheckOptionalIp);
    exp.AddOutputDir("outputDir", "resolve: where answers.csv goes", o.outputDir);
    exp.Add("allowHostInterfaces",
            "create the tap even when the network namespace has interfaces other than lo",
            o.allowHostInterfaces);
    exp.AddCheck([&o]() { CheckTogether(o); });
    // Addresses usable at once: the tap's only other end is the host, which has its own.
    exp.SetDefault("ns3::Icmpv6L4Protocol::DAD", BooleanValue(false));
    // Packets waiting for ARP or neighbour discovery: ns-3 keeps 3 and drops the rest, so the
    // first burst of upstream queries would wait for the LDNS's timeout; Linux keeps about
    // 100 (neigh unres_qlen).
    exp.SetDefault("ns3::ArpCache::PendingQueueSize", UintegerValue(100));
    exp.SetDefault("ns3::NdiscCache::UnresolvedQueueSize", UintegerValue(100));
    return exp.Run(argc, argv, [&o]() {
        const Settings s = Convert(o);
        return s.resolve ? RunResolve(o, s) : RunAdns(o, s);
    });
}
