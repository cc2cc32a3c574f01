/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Semantic configuration errors (found after a line was read: by a helper comparing files, a
 * model refusing what a command set up) name the file and line of the command that caused
 * them, the setting and the value; every configuration message is printable (control bytes
 * escaped, a NUL shown, long words cut).
 */

#include "adc-test-fixtures.h"
#include "ilb-test-fixture.h"
#include "slb-test-fixture.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-ilbadm-commands.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-gslb-commands.h"
#include "ns3/adc-slb-commands.h"
#include "ns3/adc-text.h"
#include "ns3/crd-config.h"
#include "ns3/gslb-helper.h"
#include "ns3/ilbadm-helper.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/simulator.h"
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

/**
 * \param text a file's text \param line the start of one of its lines
 * \return that line's number (from 1), or 0 when no line starts so: the expected line comes
 * from the text the test wrote, not from the code under test
 */
uint32_t
LineOf(const std::string& text, const std::string& line)
{
    std::istringstream in(text);
    uint32_t n = 0;
    for (std::string l; std::getline(in, l);)
    {
        ++n;
        if (l.rfind(line, 0) == 0)
        {
            return n;
        }
    }
    ADD_FAILURE() << "no line starts with '" << line << "'";
    return 0;
}

/// \return the AdcConfigError \p f throws, as an AdcConfigFileError (a failure when it is
/// another error or none); \p where receives "FILE:LINE"
std::string
FileErrorOf(const std::function<void()>& f, std::string* where = nullptr)
{
    try
    {
        f();
    }
    catch (const AdcConfigFileError& e)
    {
        if (where)
        {
            *where = e.GetFile() + ":" + std::to_string(e.GetLine());
        }
        return e.what();
    }
    catch (const AdcConfigError& e)
    {
        ADD_FAILURE() << "an AdcConfigError without file and line: " << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
}

// ---- messages ---------------------------------------------------------------------------------

// Control bytes are escaped and a NUL is shown (the message goes on after it); a long word is
// cut to its first AdcText::MAX_SHOWN bytes and its length.
TEST(AdcConfigSemanticText, EscapesControlBytesShowsNulAndCutsLongWords)
{
    const std::string bytes("a\x07"
                            "b\0c\td\x1b[31m\x7f\xe2\x80\x9c",
                            16);
    EXPECT_EQ(AdcText::Escape(bytes), "a\\x07b\\0c\\td\\x1b[31m\\x7f\\xe2\\x80\\x9c");
    // Idempotent: a word escaped inside a message stays as it is when the message is escaped.
    EXPECT_EQ(AdcText::Escape(AdcText::Escape(bytes)), AdcText::Escape(bytes));
    EXPECT_EQ(AdcText::Printable("short"), "short");
    const std::string big(2 * 1024 * 1024, 'A');
    EXPECT_EQ(AdcText::Printable(big), std::string(60, 'A') + "...(2097152 bytes)");
    EXPECT_EQ(AdcText::Printable(std::string(60, 'B')), std::string(60, 'B'));
    EXPECT_EQ(AdcText::Printable(std::string(61, 'B')), std::string(60, 'B') + "...(61 bytes)");
}

// A word with control bytes and a NUL, read from a file: the message escapes them and goes on
// past the NUL to the allowed values.
TEST(AdcConfigSemanticText, ReaderErrorsEscapeControlBytesAndNul)
{
    AdcConfigReader r(AdcNetScalerCommands::GetLanguage());
    const std::string line = std::string("add service s\x07x\0y 10.0.0.1 HTTP 80\n", 35);
    std::string where;
    const std::string e = FileErrorOf([&] { r.ReadString("# one\n" + line, "bell.conf"); }, &where);
    EXPECT_EQ(where, "bell.conf:2");
    EXPECT_TRUE(HasAll(e, {"bell.conf:2: add service", "s\\x07x\\0y"})) << e;
    EXPECT_EQ(e.find('\x07'), std::string::npos) << e;
    // The message did not stop at the NUL: it names what NetScaler allows in a name.
    EXPECT_NE(e.find("allowed values are"), std::string::npos) << e;
}

// A 2 MB word (a name, an unknown command) is cut in the message, not printed whole.
TEST(AdcConfigSemanticText, ReaderErrorsCutA2MbWord)
{
    const std::string big(2 * 1024 * 1024, 'Z');
    for (const std::string& text :
         {"add service " + big + " 10.0.0.1 HTTP 80\n", big + " lb vserver v HTTP\n"})
    {
        AdcConfigReader r(AdcNetScalerCommands::GetLanguage());
        const std::string e = FileErrorOf([&] { r.ReadString(text, "big.conf"); });
        EXPECT_TRUE(HasAll(e, {"big.conf:1:", std::string(60, 'Z') + "...(2097152 bytes)"}))
            << e.substr(0, 300);
        EXPECT_LT(e.size(), 2000u);
    }
}

// Lines a program adds are their own source: errors name it and no line of the user's file.
TEST(AdcConfigSemanticText, ProgramLinesNameTheirSourceWithoutALine)
{
    AdcConfigReader r(AdcNetScalerCommands::GetLanguage());
    r.ReadString("add lb vserver v HTTP\n", "user.conf");
    std::string where;
    const std::string e = FileErrorOf(
        [&] { r.ReadCommands("set lb vserver v -timeout 99999\n", "prog --timeout=99999"); },
        &where);
    EXPECT_EQ(where, "prog --timeout=99999:0");
    EXPECT_EQ(e.rfind("prog --timeout=99999: set lb vserver: ", 0), 0u) << e;
    EXPECT_TRUE(HasAll(e, {"-timeout", "'99999'"})) << e;
}

// ---- NetScaler ----------------------------------------------------------------------------------

// Two services on one address and port: the second add service line, naming the first.
TEST(AdcConfigSemanticNetScaler, TwoServicesOnOneAddressNameTheLine)
{
    AdcConfigReader r(AdcNetScalerCommands::GetLanguage());
    const std::string text = "add service v1-s1 172.16.0.2 HTTP 80\n"
                             "add service v1-s2 172.16.0.3 HTTP 80\n"
                             "add service v2-s1 172.16.0.2 HTTP 8080\n"
                             "add service v2-s2 172.16.0.2 HTTP 80\n";
    std::string where;
    const std::string e = FileErrorOf([&] { r.ReadString(text, "two.ns.conf"); }, &where);
    EXPECT_EQ(where, "two.ns.conf:" + std::to_string(LineOf(text, "add service v2-s2")));
    EXPECT_TRUE(HasAll(e, {"two.ns.conf:4: add service", "172.16.0.2 80", "v1-s1 (two.ns.conf:1)"}))
        << e;
}

// ---- CRD: one ns.conf per appliance -----------------------------------------------------------

/// A mistake in a shipped CRD file and what its message must say.
struct CrdCase
{
    std::string file;                //!< the file edited
    std::string from;                //!< text replaced (appended to the file when "")
    std::string to;                  //!< its replacement
    std::string line;                //!< the start of the line the error must name
    std::vector<std::string> expect; //!< the setting and values the message must hold
};

/// \return the error of building the shipped CRD files with \p c's edit, and the edited line
std::pair<std::string, std::string>
CrdErrorOf(const CrdCase& c)
{
    const std::filesystem::path dir = adctest::FreshTempDir("crd-semantic");
    std::string edited;
    for (const auto& e : std::filesystem::directory_iterator(adctest::ExamplesDir()))
    {
        const std::string name = e.path().filename().string();
        if (name.rfind("crd-", 0) != 0 || name.find(".ns.conf") == std::string::npos)
        {
            continue;
        }
        std::string text = Slurp(e.path());
        if (name == c.file)
        {
            const std::size_t at = c.from.empty() ? text.size() : text.find(c.from);
            EXPECT_NE(at, std::string::npos) << c.from;
            text.replace(at, c.from.size(), c.to);
            edited = text;
        }
        std::ofstream(dir / name) << text;
    }
    const std::string where =
        (dir / c.file).string() + ":" + std::to_string(LineOf(edited, c.line));
    std::string got;
    const std::string e = FileErrorOf(
        [&] {
            Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
            h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(1));
            h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(1));
            CrdConfig::FromDirectory(dir.string()).Build(h);
        },
        &got);
    Simulator::Destroy();
    EXPECT_EQ(got, where) << e;
    return {e, where};
}

// REQ: CRD-05 ("Overlapping ranges are a configuration error"): the second appliance's
// -crPortRange line, naming the range it overlaps and where that is set.
TEST(AdcConfigSemanticCrd, OverlappingPortRangesNameFileAndLine)
{
    const auto [e, where] = CrdErrorOf({"crd-lower-L2NS2.ns.conf",
                                        "-crPortRange 17152-33279",
                                        "-crPortRange 17000-33279",
                                        "set ns param -crPortRange",
                                        {}});
    EXPECT_TRUE(HasAll(e,
                       {where + ": set ns param:",
                        "-crPortRange",
                        "'17000-33279'",
                        "L2NS1's 1024-17151",
                        "crd-lower-L2NS1.ns.conf:2"}))
        << e;
}

// REQ: CRD-03, CRD-04, CRD-06, CRD-07: every check of the files against the model and the
// built topology names the line to edit, the setting and the values.
TEST(AdcConfigSemanticCrd, EveryCheckNamesFileAndLine)
{
    const std::string up = "crd-upper-L1NS1.ns.conf";
    const std::string low = "crd-lower-L2NS1.ns.conf";
    const std::vector<CrdCase> cases = {
        // REQ: CRD-03 (layer-3 mode; sessionless MAC forwarding; the client's source port)
        {up, "enable ns mode L3", "disable ns mode L3", "disable ns mode", {"L3"}},
        {up, " -sessionless ENABLED", "", "add lb vserver LB-MAC", {"-sessionless ENABLED"}},
        {up,
         "add service L2NS2 100.64.0.6 ANY * -useproxyport NO",
         "add service L2NS2 100.64.0.6 ANY *",
         "add service L2NS2",
         {"-useproxyport", "'YES'", "-useproxyport NO"}},
        {"crd-upper-L1NS2.ns.conf",
         "-lbMethod SRCIPSRCPORTHASH",
         "-lbMethod ROUNDROBIN",
         "add lb vserver LB-MAC",
         {"-lbMethod", "'ROUNDROBIN'", "SRCIPSRCPORTHASH", up + ":"}},
        {up,
         "set ns hostName L1NS1",
         "set ns hostName L1NS7",
         "set ns hostName",
         {"L1NS7", "L1NS1"}},
        {up,
         "-destPort 80 -interval",
         "-destPort 8080 -interval",
         "add lb monitor tcp-lower-tier",
         {"-destPort", "'8080'"}},
        {up,
         "bind service L2NS3 -monitorName tcp-lower-tier\n",
         "",
         "add service L2NS3",
         {"L2NS3", "monitor tcp-lower-tier"}},
        // REQ: CRD-04 (the PBRs return the origin's responses by port range)
        {up, "apply ns pbrs\n", "", "add ns pbr PBR-L2NS1", {"PBR-L2NS1", "apply ns pbrs"}},
        {up,
         "-nextHop 100.64.0.6",
         "-nextHop 100.64.0.99",
         "add ns pbr PBR-L2NS2",
         {"-nextHop", "'100.64.0.99'"}},
        {up,
         "-destPort = 17152-33279",
         "-destPort = 17152-33000",
         "add ns pbr PBR-L2NS2",
         {"-destPort", "'17152-33000'", "17152-33279"}},
        // REQ: CRD-06 (the MIP; the caches' client-IP header; one setting for the tier)
        {low,
         "add ns ip 100.64.0.33",
         "add ns ip 192.0.2.77",
         "add ns ip 192.0.2.77",
         {"MIP", "'192.0.2.77'", "100.64.0.33"}},
        {low,
         "",
         "add ns ip 100.64.0.99 255.255.255.252 -type MIP\n",
         "add ns ip 100.64.0.99",
         {"MIP", "'100.64.0.99'"}},
        {low,
         "add service CRS2 100.96.0.54",
         "add service CRS2 100.96.0.55",
         "add service CRS2",
         {"CRS2's address", "'100.96.0.55'", "100.96.0.54"}},
        {low,
         "add service CRS2 100.96.0.54 HTTP 80 -cip ENABLED X-Forwarded-For",
         "add service CRS2 100.96.0.54 HTTP 80 -cip ENABLED X-Other",
         "add service CRS2",
         {"CRS2", "X-Forwarded-For"}},
        {"crd-lower-L2NS3.ns.conf",
         "-lbMethod ROUNDROBIN",
         "-lbMethod LEASTCONNECTION",
         "add lb vserver LB-CACHES",
         {"-lbMethod", "'LEASTCONNECTION'", "ROUNDROBIN", low + ":"}},
        {"crd-lower-L2NS2.ns.conf",
         "bind lb vserver LB-CACHES CRS3\n",
         "",
         "add lb vserver LB-CACHES",
         {"the number of caches", "'2'", "3"}},
        {"crd-lower-L2NS4.ns.conf",
         "-downTime 1 -retries 2",
         "-downTime 1 -retries 3",
         "add lb monitor tcp-caches",
         {"-retries", "'1 500 MSEC 3'", "1 500 MSEC 2"}},
        {low, "-downTime 1", "-downTime 2", "add lb monitor tcp-caches", {"-downTime", "'2'"}},
        // REQ: CRD-07 (the cache redirection: transparent, origin USIP, one per appliance)
        {low,
         "-originUSIP ON",
         "-originUSIP OFF",
         "add cr vserver CR-1",
         {"CR-1", "-originUSIP ON"}},
        {low, "", "add cr vserver CR-2 HTTP * 80\n", "add cr vserver CR-2", {"cr vserver", "CR-2"}},
        {"crd-lower-L2NS2.ns.conf",
         "",
         "set cr vserver CR-1 -reuse OFF\n",
         "set cr vserver CR-1 -reuse OFF",
         {"-reuse", "'OFF'", "ON"}},
    };
    for (const CrdCase& c : cases)
    {
        const auto [e, where] = CrdErrorOf(c);
        std::vector<std::string> expect = c.expect;
        expect.push_back(where + ": ");
        EXPECT_TRUE(HasAll(e, expect)) << c.file << ": " << c.from << " -> " << c.to;
    }
}

// ---- SLB: the northbound commands ---------------------------------------------------------------

/// An SLB test bed: one client, two MUXes (none in service), two hosts with a VM each.
Ptr<SlbTopologyHelper>
SlbHelper()
{
    Ptr<SlbTopologyHelper> h = CreateObject<SlbTopologyHelper>();
    h->SetAttribute("Clients", UintegerValue(1));
    h->SetAttribute("Muxes", UintegerValue(2));
    h->SetAttribute("MuxesInService", UintegerValue(0));
    h->SetAttribute("Hosts", UintegerValue(2));
    return h;
}

// REQ: SLB-13 (IPv4 and IPv6), SLB-09: an IPv6 VIP with an IPv4 DIP is refused at its bind
// line (the host's switch would refuse it only when the policy reaches it, with no line).
TEST(AdcConfigSemanticSlb, Ipv6VipWithIpv4DipNamesTheBindLine)
{
    SlbBed bed(SlbHelper());
    auto reader = AdcSlbCommands::MakeReader(bed.t.manager);
    const std::string dip = bed.t.vmAddress[bed.t.Vm(0, 0)].ToString();
    const std::string text = "add loadBalancerMux MUX1\n"
                             "add loadBalancer WEB6 fd00:ffff::60 -protocol TCP -frontendPort 80\n"
                             "bind loadBalancer WEB6 -backendIP " +
                             dip + " -backendPort 80 -host HOST1 -vni 5001\n";
    const std::string e = FileErrorOf([&] { reader->ReadString(text, "v6.slb"); });
    EXPECT_TRUE(HasAll(
        e,
        {"v6.slb:" + std::to_string(LineOf(text, "bind loadBalancer")) + ": bind loadBalancer:",
         "-backendIP",
         "'" + dip + "'",
         "fd00:ffff::60 (v6.slb:2)",
         "IPv6"}))
        << e;
}

// REQ: SLB-07 (replies map back to their VIP): one DIP address and port serves one VIP.
TEST(AdcConfigSemanticSlb, DipServingTwoVipsNamesTheBindLine)
{
    SlbBed bed(SlbHelper());
    auto reader = AdcSlbCommands::MakeReader(bed.t.manager);
    const std::string dip = bed.t.vmAddress[bed.t.Vm(0, 0)].ToString();
    const std::string bind = " -backendIP " + dip + " -backendPort 80 -host HOST1 -vni 5001\n";
    const std::string text = "add loadBalancerMux MUX1\n"
                             "add loadBalancer A 107.105.47.60 -protocol TCP -frontendPort 80\n"
                             "add loadBalancer B 107.105.47.61 -protocol TCP -frontendPort 80\n"
                             "bind loadBalancer A" +
                             bind + "bind loadBalancer B" + bind;
    const std::string e = FileErrorOf([&] { reader->ReadString(text, "two.slb"); });
    EXPECT_TRUE(HasAll(e,
                       {"two.slb:" + std::to_string(LineOf(text, "bind loadBalancer B")) + ":",
                        "-backendIP and -backendPort",
                        "'" + dip + " 80'",
                        "loadBalancer A (two.slb:4)"}))
        << e;
}

// REQ: SLB-09: Commit's refusals (a VIP without DIP; VIPs and no MUX) name the VIP's line.
TEST(AdcConfigSemanticSlb, CommitRefusalsNameTheLoadBalancerLine)
{
    {
        SlbBed bed(SlbHelper());
        auto reader = AdcSlbCommands::MakeReader(bed.t.manager);
        const std::string dip = bed.t.vmAddress[bed.t.Vm(0, 0)].ToString();
        const std::string text =
            "add loadBalancerMux MUX1\n"
            "add loadBalancer A 107.105.47.60 -protocol TCP -frontendPort 80\n"
            "add loadBalancer EMPTY 107.105.47.61 -protocol TCP -frontendPort 80\n"
            "bind loadBalancer A -backendIP " +
            dip + " -backendPort 80 -host HOST1 -vni 5001\n";
        reader->ReadString(text, "empty.slb");
        const std::string e = FileErrorOf([&] { AdcSlbCommands::Commit(reader->GetStore()); });
        EXPECT_TRUE(HasAll(e, {"empty.slb:3: add loadBalancer:", "no DIP", "'EMPTY'"})) << e;
    }
    {
        SlbBed bed(SlbHelper());
        auto reader = AdcSlbCommands::MakeReader(bed.t.manager);
        const std::string dip = bed.t.vmAddress[bed.t.Vm(0, 0)].ToString();
        reader->ReadString("# no MUX\n"
                           "add loadBalancer A 107.105.47.60 -protocol TCP -frontendPort 80\n"
                           "bind loadBalancer A -backendIP " +
                               dip + " -backendPort 80 -host HOST1 -vni 5001\n",
                           "nomux.slb");
        const std::string e = FileErrorOf([&] { AdcSlbCommands::Commit(reader->GetStore()); });
        EXPECT_TRUE(HasAll(e, {"nomux.slb:2: add loadBalancer:", "no MUX", "add loadBalancerMux"}))
            << e;
    }
}

// ---- ILB: ilbadm --------------------------------------------------------------------------------

using ILB = AdcIlbadmCommands;

/// The ILB test bed's group and rule (IlbHelper's addresses), the rule with \p method.
std::string
IlbScript(const std::string& method)
{
    return "create-servergroup -s server=192.168.100.11-192.168.100.12:80 websg\n"
           "create-rule -e -i vip=10.100.0.10,port=80 \\\n"
           "    -m " +
           method + " -o servergroup=websg rule1\n";
}

/// \return the error installing \p script on IlbHelper's test bed
std::string
IlbErrorOf(const std::string& script, const std::string& name)
{
    Ptr<IlbHelper> h = MakeHelper("FULL_NAT", 1, 2);
    h->SetAttribute("InstallIlb", BooleanValue(false));
    IlbTopology t = h->Build();
    AdcConfigReader reader(ILB::GetLanguage());
    reader.ReadString(script, name);
    Ptr<IlbadmHelper> ilbadm = CreateObject<IlbadmHelper>();
    const std::string e = FileErrorOf([&] { ilbadm->Install(t, reader.GetStore()); });
    Simulator::Destroy();
    return e;
}

// REQ: ILB-05 (Full-NAT's source addresses): a proxy-src range over 10 addresses names the
// create-rule line (its first line, the command going on over two), proxy-src and the range.
TEST(AdcConfigSemanticIlbadm, ProxySrcOverTenAddressesNamesTheRuleLine)
{
    const std::string script =
        IlbScript("lbalg=roundrobin,type=NAT,proxy-src=10.200.0.1-10.200.0.11");
    const std::string e = IlbErrorOf(script, "wide.ilbadm");
    EXPECT_TRUE(
        HasAll(e,
               {"wide.ilbadm:" + std::to_string(LineOf(script, "create-rule")) + ": create-rule:",
                "proxy-src=10.200.0.1-10.200.0.11",
                "more than 10"}))
        << e;
}

// REQ: ILB-01: what the appliance refuses of a rule (here a VIP that is another rule's
// server) names that rule's create-rule line.
TEST(AdcConfigSemanticIlbadm, ApplianceRefusalNamesTheRuleLine)
{
    const std::string script = IlbScript("lbalg=roundrobin,type=HALF-NAT") +
                               "create-servergroup -s server=192.168.100.13:80 other\n"
                               "create-rule -e -i vip=192.168.100.11,port=80 "
                               "-m lbalg=roundrobin,type=HALF-NAT -o servergroup=other rule2\n";
    const std::string e = IlbErrorOf(script, "clash.ilbadm");
    EXPECT_TRUE(
        HasAll(e,
               {"clash.ilbadm:" + std::to_string(LineOf(script, "create-rule -e -i vip=192")) +
                    ": create-rule:",
                "rule2",
                "192.168.100.11"}))
        << e;
}

/// Run-time ilbadm lines on IlbHelper's test bed.
class AdcConfigSemanticIlbadmRun : public AdcIlbHelperTest
{
};

// REQ: ILB-02: a server added to a rule's group after the rule went on the ILB joins the live rule
// (illumos ilb_server_add); one the kernel refuses (an IPv6 server in an IPv4 rule: EINVAL)
// names its add-server line (run-time lines, read into the installed configuration).
TEST_F(AdcConfigSemanticIlbadmRun, LateServerNamesItsLine)
{
    Ptr<IlbHelper> h = MakeHelper("HALF_NAT", 1, 3);
    h->SetAttribute("InstallIlb", BooleanValue(false));
    IlbTopology t = h->Build();
    AdcConfigReader reader(ILB::GetLanguage());
    reader.ReadString(IlbScript("lbalg=roundrobin,type=HALF-NAT"), "ilb.conf");
    Ptr<IlbadmHelper> ilbadm = CreateObject<IlbadmHelper>();
    ilbadm->Install(t, reader.GetStore());
    reader.ReadString("# at 2 s\nadd-server -s server=192.168.100.13:80 websg\n", "later.ilbadm");
    EXPECT_NO_THROW(ilbadm->Sync());
    EXPECT_EQ(t.appliance->GetRule(0).servers.size(), 3u);
    reader.ReadString("# at 3 s\nadd-server -s server=[2001:db8::14]:80 websg\n", "later6.ilbadm");
    const std::string e = FileErrorOf([&] { ilbadm->Sync(); });
    EXPECT_TRUE(HasAll(e, {"later6.ilbadm:2: add-server:", "2001:db8::14", "rule1"})) << e;
    EXPECT_EQ(t.appliance->GetRule(0).servers.size(), 3u); // refused: nothing added
}

// ---- GSLB ---------------------------------------------------------------------------------------

/// Installing a site registers the GSLB methods (RTT, STATICPROXIMITY) process-wide: a test
/// that made them unregisters them, leaving the registry as other tests expect it.
class AdcConfigSemanticGslb : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
        m_registry.Restore();
    }

    adctest::LbRegistrySnapshot m_registry; //!< the methods registered before the test
};

/// Two sites, site-a local, a service at each, and two RTT vservers.
const std::string kGslb = "add gslb site site-a 10.1.0.1 -siteType LOCAL\n"
                          "add gslb site site-b 10.2.0.1\n"
                          "add gslb service svc-a 10.1.0.10 HTTP 80 -siteName site-a\n"
                          "add gslb service svc-b 10.2.0.10 HTTP 80 -siteName site-b\n"
                          "add gslb vserver one HTTP -lbMethod RTT\n"
                          "add gslb vserver two HTTP -lbMethod RTT\n"
                          "bind gslb vserver one -serviceName svc-a\n"
                          "bind gslb vserver two -serviceName svc-b\n";

// REQ: GSLB-09 (one tolerance per site's RTT database, in the seed's reading, where the
// vserver's -tolerance gates the site's measurements): the line that sets the second one.
TEST_F(AdcConfigSemanticGslb, ToleranceMismatchInOneSiteNamesTheLine)
{
    const std::string text = kGslb + "set gslb vserver two -tolerance 9\n";
    Ptr<Node> node = CreateObject<Node>();
    GslbHelper seed;
    seed.SetToleranceSemantics(GslbSiteApps::SEED);
    const std::string e = FileErrorOf([&] { seed.InstallFromText(node, text, "site-a.ns.conf"); });
    EXPECT_TRUE(HasAll(e,
                       {"site-a.ns.conf:" + std::to_string(LineOf(text, "set gslb vserver two")) +
                            ": set gslb vserver:",
                        "-tolerance",
                        "'9'",
                        "5",
                        "site-a.ns.conf:5"}))
        << e;
}

// REQ: GSLB-09 ("a mismatch is reported"): the report names both files' lines.
TEST_F(AdcConfigSemanticGslb, DomainToleranceMismatchNamesBothLines)
{
    AdcConfigReader a(AdcNetScalerGslbCommands::GetLanguage());
    AdcConfigReader b(AdcNetScalerGslbCommands::GetLanguage());
    a.ReadString(kGslb, "a.conf");
    const std::string text = kGslb + "# site b's copy\nset gslb vserver one -tolerance 12\n";
    b.ReadString(text, "b.conf");
    const std::vector<std::string> m =
        AdcNetScalerGslbCommands::CheckDomainConsistency({&a.GetStore(), &b.GetStore()},
                                                         {"a.conf", "b.conf"});
    ASSERT_EQ(m.size(), 1u);
    const std::string line = std::to_string(LineOf(text, "set gslb vserver one"));
    // a.conf leaves -tolerance at NetScaler's default, 0 ms (NITRO's set gslb vserver).
    EXPECT_TRUE(HasAll(m[0], {"b.conf:" + line + ": ", "-tolerance", "0 ms in a.conf:5", "12 ms"}))
        << m[0];
}

// REQ: GSLB-09: in NetScaler's reading the vserver's -tolerance is each vserver's own
// round-robin window, so two vservers of one site may differ.
TEST_F(AdcConfigSemanticGslb, TwoWindowsInOneSiteAreAccepted)
{
    const std::string text = kGslb + "set gslb vserver two -tolerance 9\n";
    Ptr<Node> node = CreateObject<Node>();
    EXPECT_NO_THROW(GslbHelper().InstallFromText(node, text, "site-a.ns.conf"));
}

// Commands a program adds to a site's file are their own source: the user's file is not
// edited, and an error in them names the program, not a line past the file's end.
TEST_F(AdcConfigSemanticGslb, AddedCommandsNameTheirSource)
{
    const std::string dir = adctest::FreshTempDir("gslb-semantic");
    const std::string file = dir + "/site-a.ns.conf";
    std::ofstream(file) << kGslb.substr(0, kGslb.size() - 1); // no trailing newline
    Ptr<Node> node = CreateObject<Node>();
    std::string where;
    const std::string e = FileErrorOf(
        [&] {
            GslbHelper().InstallFromFile(node,
                                         file,
                                         "set gslb vserver one -lbMethod NOPE\n",
                                         "gslb-rtt --methods");
        },
        &where);
    EXPECT_EQ(where, "gslb-rtt --methods:0");
    EXPECT_TRUE(HasAll(e, {"gslb-rtt --methods: set gslb vserver:", "-lbMethod", "'NOPE'"})) << e;
}

} // namespace
