/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of NetScaler's N-tier cache-redirection commands (enable ns mode, set ns param
 * -crPortRange, add ns ip -type MIP, add ns pbr / apply ns pbrs, add/bind cr vserver, add lb
 * vserver -m MAC -sessionless) and of the CRD topology configured from the shipped ns.conf
 * files (examples/crd-upper-*.ns.conf, examples/crd-lower-*.ns.conf).
 *
 * Expected values come from the seed (the configuration each tier needs), REQUIREMENTS.md
 * (CRD-03..07) and NetScaler's command reference (parameter names, possible values and
 * defaults: -m IP, -sessionless DISABLED, -cacheType TRANSPARENT... -via ON, -reuse ON,
 * -originUSIP OFF, -usePortRange OFF, -redirect POLICY; PBR operators = and !=, ports "only for
 * TCP and UDP", -priority 1..81920; modes FR L3 Edge USNIP PMTUD enabled by default), written
 * here independently of the code.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-netscaler-crd-commands.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/boolean.h"
#include "ns3/crd-config.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

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

using CRD = AdcNetScalerCrdCommands;

/// The issue's and the seed's upper-tier lines (addresses of the issue's example).
const std::string kUpperSeed = R"(enable ns mode L3
add lb vserver LB-MAC ANY * * -m MAC -sessionless ENABLED -lbMethod SRCIPSRCPORTHASH
add service L2NS1 10.0.2.1 ANY * -useproxyport NO
add service L2NS2 10.0.2.2 ANY *
bind lb vserver LB-MAC L2NS1
bind lb vserver LB-MAC L2NS2
add ns pbr PBR-L2NS1 ALLOW -destPort = 1024-16383 -nextHop 10.0.2.1 -protocol TCP
add ns pbr PBR-L2NS2 ALLOW -destPort = 16384-32767 -nextHop 10.0.2.2 -protocol TCP
apply ns pbrs
)";

/// The seed's lower-tier lines.
const std::string kLowerSeed = R"(set ns param -crPortRange 1024-16383
add lb monitor tcp-caches TCP
add service CRS1 10.0.3.1 HTTP 80 -cip ENABLED X-Forwarded-For
add lb vserver LB-CACHES HTTP -m MAC
bind lb vserver LB-CACHES CRS1
bind service CRS1 -monitorName tcp-caches
add cr vserver CR-1 HTTP * 80 -cacheType TRANSPARENT -originUSIP ON -usePortRange ON -via ON -srcIPExpr 'HTTP.REQ.HEADER("X-Forwarded-For").TYPECAST_IP_ADDRESS_AT'
bind cr vserver CR-1 -lbvserver LB-CACHES
)";

/// A reader of NetScaler lines with the CRD commands.
class AdcConfigNetscalerCrd : public adctest::ConfigReaderTest
{
  protected:
    AdcConfigNetscalerCrd()
        : ConfigReaderTest(CRD::GetLanguage(), "ns.conf")
    {
    }

    /// \return Show() after reading \p text into a fresh reader
    static std::string ShowOf(const std::string& text)
    {
        AdcConfigReader r(CRD::GetLanguage());
        r.ReadString(text, "again.conf");
        return r.Show();
    }
};

// REQ: CRD-03, CRD-04: the upper tier's lines read into a sessionless MAC-mode virtual server of
// type ANY on * *, services per lower appliance, PBRs by destination port; printed back as
// ns.conf lines that read back to the same text.
TEST_F(AdcConfigNetscalerCrd, UpperTierSeedLinesReadAndPrintBack)
{
    m_reader.ReadString(kUpperSeed, m_file);
    const AdcConfigStore& s = m_reader.GetStore();
    Ptr<AdcVirtualServer> v = s.Get<AdcVirtualServer>(AdcNetScalerCommands::LB_VSERVER, "LB-MAC");
    ASSERT_TRUE(v);
    Ptr<AdcLbVserverForwarding> f = v->GetObject<AdcLbVserverForwarding>();
    ASSERT_TRUE(f);
    EXPECT_EQ(f->mode, "MAC");
    EXPECT_TRUE(f->sessionless);
    EXPECT_EQ(v->GetServiceType(), "ANY");
    EXPECT_EQ(v->GetLbMethodName(), "SRCIPSRCPORTHASH");
    Ptr<AdcNsSettingsConfig> ns = CRD::GetSettings(s);
    ASSERT_TRUE(ns);
    EXPECT_TRUE(ns->IsModeEnabled("L3"));
    Ptr<AdcNsPbrConfig> p = s.Get<AdcNsPbrConfig>(CRD::NS_PBR, "PBR-L2NS1");
    ASSERT_TRUE(p);
    EXPECT_TRUE(p->allow);
    EXPECT_TRUE(p->applied);
    EXPECT_TRUE(p->destPort.given);
    EXPECT_TRUE(p->destPort.equal);
    EXPECT_EQ(p->destPort.range.first, 1024);
    EXPECT_EQ(p->destPort.range.last, 16383);
    EXPECT_EQ(p->nextHop, Ipv4Address("10.0.2.1"));
    EXPECT_FALSE(p->srcIp.given);
    // ns.conf's order: system settings, services, vservers, bindings, PBRs, then apply.
    const std::string shown = "enable ns mode L3\n"
                              "add service L2NS1 10.0.2.1 ANY * -useproxyport NO\n"
                              "add service L2NS2 10.0.2.2 ANY *\n"
                              "add lb vserver LB-MAC ANY * * -lbMethod SRCIPSRCPORTHASH -m MAC "
                              "-sessionless ENABLED\n"
                              "bind lb vserver LB-MAC L2NS1\n"
                              "bind lb vserver LB-MAC L2NS2\n"
                              "add ns pbr PBR-L2NS1 ALLOW -destPort = 1024-16383 -nextHop "
                              "10.0.2.1 -protocol TCP\n"
                              "add ns pbr PBR-L2NS2 ALLOW -destPort = 16384-32767 -nextHop "
                              "10.0.2.2 -protocol TCP\n"
                              "apply ns pbrs\n";
    EXPECT_EQ(m_reader.Show(), shown);
    EXPECT_EQ(ShowOf(shown), shown);
}

// REQ: CRD-05, CRD-06, CRD-07: the lower tier's port range, caches with the client IP header,
// and the transparent cr vserver with origin USIP, port range and the source-IP expression.
TEST_F(AdcConfigNetscalerCrd, LowerTierSeedLinesReadAndPrintBack)
{
    m_reader.ReadString(kLowerSeed, m_file);
    const AdcConfigStore& s = m_reader.GetStore();
    Ptr<AdcNsSettingsConfig> ns = CRD::GetSettings(s);
    ASSERT_TRUE(ns && ns->crPortRange);
    EXPECT_EQ(ns->crPortRange->first, 1024);
    EXPECT_EQ(ns->crPortRange->last, 16383);
    Ptr<AdcCrVserverConfig> cr = s.Get<AdcCrVserverConfig>(CRD::CR_VSERVER, "CR-1");
    ASSERT_TRUE(cr);
    EXPECT_EQ(cr->cacheType, "TRANSPARENT");
    EXPECT_TRUE(cr->originUsip);
    EXPECT_TRUE(cr->usePortRange);
    EXPECT_TRUE(cr->via);
    EXPECT_TRUE(cr->reuse);
    EXPECT_EQ(cr->redirect, "POLICY");
    EXPECT_EQ(cr->vip, Ipv4Address::GetAny());
    EXPECT_EQ(cr->port, 80);
    EXPECT_EQ(cr->cacheVserver, "LB-CACHES");
    EXPECT_EQ(AdcCrVserverConfig::HeaderOfSrcIpExpr(cr->srcIpExpr), "X-Forwarded-For");
    const std::string shown = m_reader.Show();
    EXPECT_EQ(ShowOf(shown), shown);
    // -via ON is the default: not printed; the rest is, in the reference's spelling.
    EXPECT_TRUE(HasAll(shown,
                       {"set ns param -crPortRange 1024-16383\n",
                        "add service CRS1 10.0.3.1 HTTP 80 -cip ENABLED X-Forwarded-For\n",
                        "add lb vserver LB-CACHES HTTP -m MAC\n",
                        "bind service CRS1 -monitorName tcp-caches\n",
                        "add cr vserver CR-1 HTTP * 80 -originUSIP ON -usePortRange ON -srcIPExpr",
                        "bind cr vserver CR-1 -lbvserver LB-CACHES\n"}))
        << shown;
    EXPECT_EQ(shown.find("-via"), std::string::npos) << shown;
}

// REQ: CRD-03: modes by the reference's names; NetScaler's defaults without a command;
// what a file enables and disables prints back.
TEST_F(AdcConfigNetscalerCrd, NsModes)
{
    m_reader.ReadString("enable ns mode l3 usip MBF\ndisable ns mode FR\n", m_file);
    Ptr<AdcNsSettingsConfig> ns = CRD::GetSettings(m_reader.GetStore());
    ASSERT_TRUE(ns);
    EXPECT_TRUE(ns->IsModeEnabled("L3"));
    EXPECT_TRUE(ns->IsModeEnabled("USIP"));
    EXPECT_TRUE(ns->IsModeEnabled("MBF"));
    EXPECT_FALSE(ns->IsModeEnabled("FR"));
    EXPECT_TRUE(ns->IsModeEnabled("Edge")); // enabled out of the box
    EXPECT_FALSE(ns->IsModeEnabled("L2"));  // disabled out of the box
    EXPECT_EQ(m_reader.Show(), "enable ns mode USIP MBF L3\ndisable ns mode FR\n");
    const std::string e = ErrorOf("enable ns mode L3 L4");
    EXPECT_TRUE(HasAll(e, {"ns.conf:1", "'L4'", "L2", "L3", "USIP", "MBF"})) << e;
}

// REQ: CRD-05: -crPortRange is first-last within 1024..65535.
TEST_F(AdcConfigNetscalerCrd, CrPortRangeValues)
{
    for (const std::string bad : {"1000-2000", "3000-2000", "1024-70000", "x-2000"})
    {
        const std::string e = ErrorOf("set ns param -crPortRange " + bad);
        EXPECT_TRUE(HasAll(e, {"ns.conf:1", "-crPortRange", "1024..65535"})) << bad << ": " << e;
    }
    const std::string unknown = ErrorOf("set ns param -crRange 1024-2000");
    EXPECT_TRUE(HasAll(unknown, {"ns.conf:1", "-crRange", "-crPortRange"})) << unknown;
    EXPECT_TRUE(HasAll(ErrorOf("set ns param"), {"ns.conf:1", "-crPortRange"}));
    EXPECT_EQ(ErrorOf("set ns param -crPortRange 40000"), "");
    EXPECT_EQ(m_reader.Show(), "set ns param -crPortRange 40000-40000\n");
}

// REQ: CRD-04: PBR matches as the reference takes them, and the errors of what it refuses.
TEST_F(AdcConfigNetscalerCrd, PbrParameters)
{
    m_reader.ReadString("add ns pbr P1 ALLOW -srcIP != 10.1.0.1-10.1.0.9 -destIP 10.0.0.1 "
                        "-srcPort NEQ 80 -protocol udp -nextHop 10.0.2.9 -priority 20\n"
                        "add ns pbr P2 DENY -destIP EQ 10.0.0.0-10.0.0.255 -state DISABLED\n",
                        m_file);
    Ptr<AdcNsPbrConfig> p1 = m_reader.GetStore().Get<AdcNsPbrConfig>(CRD::NS_PBR, "P1");
    ASSERT_TRUE(p1);
    EXPECT_FALSE(p1->srcIp.equal);
    EXPECT_EQ(p1->srcIp.first, Ipv4Address("10.1.0.1"));
    EXPECT_EQ(p1->srcIp.last, Ipv4Address("10.1.0.9"));
    EXPECT_TRUE(p1->destIp.equal);
    EXPECT_FALSE(p1->srcPort.equal);
    EXPECT_EQ(p1->protocol, "UDP");
    EXPECT_EQ(p1->priority, 20U);
    EXPECT_FALSE(p1->applied); // no apply ns pbrs yet
    EXPECT_EQ(m_reader.Show(),
              "add ns pbr P1 ALLOW -srcIP != 10.1.0.1-10.1.0.9 -srcPort != 80 -destIP = 10.0.0.1 "
              "-nextHop 10.0.2.9 -protocol UDP -priority 20\n"
              "add ns pbr P2 DENY -destIP = 10.0.0.0-10.0.0.255 -state DISABLED\n");
    // Ports only for TCP and UDP; ALLOW needs a next hop; DENY takes none.
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr X ALLOW -destPort = 80 -nextHop 10.0.0.1"),
                       {"ns.conf:1", "TCP", "UDP"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr X ALLOW -destPort 80 -protocol ICMP -nextHop 1.1.1.1"),
                       {"ns.conf:1", "'ICMP'", "TCP", "UDP"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr X ALLOW -destIP 10.0.0.1"), {"ns.conf:1", "-nextHop"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr X DENY -nextHop 10.0.0.1"), {"ns.conf:1", "ALLOW"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr X PERMIT -nextHop 10.0.0.1"),
                       {"ns.conf:1", "'PERMIT'", "ALLOW", "DENY"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr X ALLOW -nextHop 1.1.1.1 -destIP < 10.0.0.1"),
                       {"ns.conf:1", "'<'", "=", "!="}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr X ALLOW -nextHop 1.1.1.1 -priority 0"),
                       {"ns.conf:1", "-priority", "1..81920"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr X ALLOW -nextHop 1.1.1.1 -destPort 9-8 -protocol TCP"),
                       {"ns.conf:1", "-destPort", "'9-8'"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns pbr P1 DENY"), {"ns.conf:1", "'P1'"}));
    EXPECT_TRUE(HasAll(ErrorOf("rm ns pbr P9"), {"ns.conf:1", "'P9'", "P1", "P2"}));
}

// REQ: CRD-04: a PBR acts after `apply ns pbrs`; Show keeps which ones were applied.
TEST_F(AdcConfigNetscalerCrd, ApplyNsPbrs)
{
    const std::string text = "add ns pbr A ALLOW -nextHop 10.0.0.1\napply ns pbrs\n"
                             "add ns pbr B ALLOW -nextHop 10.0.0.2\n";
    m_reader.ReadString(text, m_file);
    EXPECT_TRUE(m_reader.GetStore().Get<AdcNsPbrConfig>(CRD::NS_PBR, "A")->applied);
    EXPECT_FALSE(m_reader.GetStore().Get<AdcNsPbrConfig>(CRD::NS_PBR, "B")->applied);
    EXPECT_EQ(m_reader.Show(), text);
}

// REQ: CRD-07: the cr vserver's defaults, values, and references to the cache LB vserver.
TEST_F(AdcConfigNetscalerCrd, CrVserverParameters)
{
    m_reader.ReadString("add lb vserver CACHES HTTP\nadd cr vserver C HTTP\n", m_file);
    Ptr<AdcCrVserverConfig> c = m_reader.GetStore().Get<AdcCrVserverConfig>(CRD::CR_VSERVER, "C");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->cacheType, "TRANSPARENT");
    EXPECT_EQ(c->redirect, "POLICY");
    EXPECT_FALSE(c->originUsip);
    EXPECT_FALSE(c->usePortRange);
    EXPECT_TRUE(c->via);
    EXPECT_TRUE(c->reuse);
    EXPECT_EQ(ErrorOf("set cr vserver C -reuse off -redirect origin -cacheVserver CACHES"), "");
    EXPECT_FALSE(c->reuse);
    EXPECT_EQ(c->redirect, "ORIGIN");
    EXPECT_EQ(c->cacheVserver, "CACHES");
    // The LB vserver is in use: rm refused, naming the user.
    EXPECT_TRUE(HasAll(ErrorOf("rm lb vserver CACHES"), {"ns.conf:1", "cr vserver C"}));
    EXPECT_EQ(ErrorOf("unbind cr vserver C -lbvserver CACHES"), "");
    EXPECT_EQ(c->cacheVserver, "");
    EXPECT_TRUE(
        HasAll(ErrorOf("bind cr vserver C -lbvserver NOPE"), {"ns.conf:1", "'NOPE'", "CACHES"}));
    EXPECT_TRUE(HasAll(ErrorOf("add cr vserver D HTTP * 80 -cacheVserver NOPE"),
                       {"ns.conf:1", "'NOPE'", "CACHES"}));
    EXPECT_TRUE(HasAll(ErrorOf("add cr vserver D HTTP * 80 -originUSIP YES"),
                       {"ns.conf:1", "-originUSIP", "'YES'", "ON", "OFF"}));
    EXPECT_TRUE(HasAll(ErrorOf("add cr vserver D HTTP * 80 -cacheType MIRROR"),
                       {"ns.conf:1", "'MIRROR'", "TRANSPARENT", "REVERSE", "FORWARD"}));
    EXPECT_TRUE(HasAll(ErrorOf("add cr vserver D TCP * 80"), {"ns.conf:1", "'TCP'", "HTTP"}));
    EXPECT_TRUE(HasAll(ErrorOf("add cr vserver D HTTP * 80 -srcIPExpr CLIENT.IP.SRC"),
                       {"ns.conf:1", "-srcIPExpr", "HTTP.REQ.HEADER"}));
    EXPECT_TRUE(
        HasAll(ErrorOf("bind cr vserver NOPE -lbvserver CACHES"), {"ns.conf:1", "'NOPE'", "C"}));
    // The two forms of -srcIPExpr the reference describes: a header name, or an expression.
    EXPECT_EQ(AdcCrVserverConfig::HeaderOfSrcIpExpr("cip"), "cip");
    EXPECT_EQ(AdcCrVserverConfig::HeaderOfSrcIpExpr("HTTP.REQ.HEADER(\"cip\")"), "cip");
    EXPECT_EQ(AdcCrVserverConfig::HeaderOfSrcIpExpr("HTTP.REQ.URL"), "");
}

// REQ: CRD-03: -m and -sessionless on lb vservers: values, the MAC requirement, set.
TEST_F(AdcConfigNetscalerCrd, LbVserverForwardingMode)
{
    EXPECT_TRUE(HasAll(ErrorOf("add lb vserver V ANY * * -sessionless ENABLED"),
                       {"ns.conf:1", "-sessionless", "-m MAC"}));
    EXPECT_TRUE(HasAll(ErrorOf("add lb vserver V ANY * * -m ARP"),
                       {"ns.conf:1", "'ARP'", "IP", "MAC", "IPTUNNEL", "TOS"}));
    EXPECT_TRUE(HasAll(ErrorOf("add lb vserver V ANY * * -m MAC -sessionless YES"),
                       {"ns.conf:1", "'YES'", "ENABLED", "DISABLED"}));
    EXPECT_EQ(ErrorOf("add lb vserver V ANY * * -m MAC"), "");
    EXPECT_EQ(ErrorOf("set lb vserver V -sessionless ENABLED"), "");
    EXPECT_EQ(m_reader.Show(), "add lb vserver V ANY * * -m MAC -sessionless ENABLED\n");
    // Back to IP mode while sessionless: refused, nothing changed.
    EXPECT_TRUE(HasAll(ErrorOf("set lb vserver V -m IP"), {"ns.conf:1", "-sessionless"}));
    EXPECT_EQ(m_reader.Show(), "add lb vserver V ANY * * -m MAC -sessionless ENABLED\n");
}

// REQ: CRD-06: the MIP and the other address types.
TEST_F(AdcConfigNetscalerCrd, NsIp)
{
    m_reader.ReadString("set ns hostName L2NS1\nadd ns ip 100.64.0.25 255.255.255.252 -type MIP\n"
                        "add ns ip 192.0.2.1 255.255.255.0\n",
                        m_file);
    EXPECT_EQ(m_reader.Show(),
              "set ns hostName L2NS1\nadd ns ip 100.64.0.25 255.255.255.252 -type MIP\n"
              "add ns ip 192.0.2.1 255.255.255.0\n");
    EXPECT_TRUE(HasAll(ErrorOf("add ns ip 192.0.2.2 255.0.255.0"), {"ns.conf:1", "netmask"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns ip 192.0.2.2 255.255.255.0 -type XIP"),
                       {"ns.conf:1", "'XIP'", "SNIP", "VIP", "MIP"}));
    EXPECT_TRUE(HasAll(ErrorOf("add ns ip 192.0.2.1 255.255.255.0"), {"ns.conf:1", "192.0.2.1"}));
    EXPECT_EQ(ErrorOf("rm ns ip 192.0.2.1"), "");
    EXPECT_TRUE(HasAll(ErrorOf("add cr policy P -rule x"), {"ns.conf:1", "'policy'", "vserver"}));
}

// ---- the shipped files ----------------------------------------------------------------------

/// \return a helper with a small ISP (the appliances do not depend on its size)
Ptr<CrdTopologyHelper>
SmallHelper()
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->GetIspHelper()->SetAttribute("NumAccessNetworks", UintegerValue(1));
    h->GetIspHelper()->SetAttribute("ClientsPerAccessNetwork", UintegerValue(1));
    return h;
}

// REQ: CRD-01, CRD-03..07: every shipped file reads without error and prints back unchanged.
TEST(CrdConfig, ShippedFilesPrintBackUnchanged)
{
    uint32_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(adctest::ExamplesDir()))
    {
        const std::string name = e.path().filename().string();
        if (name.rfind("crd-", 0) != 0 || name.find(".ns.conf") == std::string::npos)
        {
            continue;
        }
        AdcConfigReader r(CRD::GetLanguage());
        r.ReadFile(e.path().string());
        EXPECT_EQ(r.Show(), Slurp(e.path())) << name;
        ++n;
    }
    EXPECT_EQ(n, 6U); // the seed: 2 upper and 4 lower appliances
}

// REQ: CRD-01, CRD-05: the shipped files configure the seed's counts and exclusive ranges.
TEST(CrdConfig, ShippedFilesConfigureTheSeedTopology)
{
    CrdConfig cfg = CrdConfig::FromDirectory(adctest::ExamplesDir().string());
    Ptr<CrdTopologyHelper> h = SmallHelper();
    cfg.Configure(h);
    using NS = AdcNetScalerCommands;
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(h, "NumUpper"), 2U);
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(h, "NumLower"), 4U);
    EXPECT_EQ(NS::GetAttribute<UintegerValue>(h, "NumCaches"), 3U);
    // 1024-65535 split four ways: 16128 ports each, exclusive and adjacent.
    EXPECT_EQ(NS::GetAttribute<StringValue>(h, "LowerPortRanges"),
              "1024-17151,17152-33279,33280-49407,49408-65535");
    EXPECT_EQ(NS::GetAttribute<StringValue>(h, "UpperBalanceMethod"), "SRCIPSRCPORTHASH");
    EXPECT_TRUE(NS::GetAttribute<BooleanValue>(h, "ServerConnectionReuse"));
    CrdTopology t = h->Build();
    EXPECT_NO_THROW(cfg.Install(t));
    ASSERT_EQ(t.lowerRanges.size(), 4U);
    EXPECT_EQ(t.lowerRanges[1].ToString(), "17152-33279");
    Simulator::Destroy();
}

/// \return a copy of the shipped files in a temporary folder, with \p from replaced by \p to
/// in \p file
std::string
EditedCopy(const std::string& file, const std::string& from, const std::string& to)
{
    const std::filesystem::path dir = adctest::FreshTempDir("crd-config-test-" + file);
    for (const auto& e : std::filesystem::directory_iterator(adctest::ExamplesDir()))
    {
        const std::string name = e.path().filename().string();
        if (name.rfind("crd-", 0) == 0 && name.find(".ns.conf") != std::string::npos)
        {
            std::string text = Slurp(e.path());
            if (name == file)
            {
                const std::size_t at = text.find(from);
                EXPECT_NE(at, std::string::npos) << from;
                text.replace(at, from.size(), to);
            }
            std::ofstream(dir / name) << text;
        }
    }
    return dir.string();
}

/// \return the AdcConfigError building from \p dir gives
std::string
BuildErrorOf(const std::string& dir)
{
    return adctest::ConfigErrorOf([&] {
        CrdConfig cfg = CrdConfig::FromDirectory(dir);
        cfg.Build(SmallHelper());
    });
}

// REQ: CRD-06: a file whose MIP is not the appliance's address on the cache side is an error
// naming the file and both addresses.
TEST(CrdConfig, WrongMipIsAnError)
{
    AdcConfigReader r(CRD::GetLanguage());
    r.ReadFile((adctest::ExamplesDir() / "crd-lower-L2NS2.ns.conf").string());
    Ptr<AdcNsIpConfig> mip = r.GetStore().GetAll<AdcNsIpConfig>(CRD::NS_IP).at(0);
    std::ostringstream addr;
    addr << mip->address;
    const std::string e = BuildErrorOf(
        EditedCopy("crd-lower-L2NS2.ns.conf", "add ns ip " + addr.str(), "add ns ip 192.0.2.77"));
    EXPECT_TRUE(HasAll(e, {"crd-lower-L2NS2.ns.conf", "MIP", "192.0.2.77", addr.str()})) << e;
    Simulator::Destroy();
}

// REQ: CRD-05: overlapping ranges between lower appliances are a configuration error.
TEST(CrdConfig, OverlappingRangesAreAnError)
{
    const std::string e = BuildErrorOf(EditedCopy("crd-lower-L2NS2.ns.conf",
                                                  "-crPortRange 17152-33279",
                                                  "-crPortRange 17000-33279"));
    EXPECT_TRUE(HasAll(e, {"17000"})) << e;
    Simulator::Destroy();
}

// REQ: CRD-03, CRD-07: what the model does not do is refused, not ignored.
TEST(CrdConfig, UnmodelledSettingsAreErrors)
{
    struct Case
    {
        std::string file, from, to, expect;
    };

    const std::vector<Case> cases = {
        {"crd-lower-L2NS1.ns.conf", "-originUSIP ON", "-originUSIP OFF", "-originUSIP ON"},
        {"crd-lower-L2NS1.ns.conf", "HTTP * 80", "HTTP * 80 -cacheType REVERSE", "TRANSPARENT"},
        {"crd-upper-L1NS1.ns.conf", "enable ns mode L3", "disable ns mode L3", "L3"},
        {"crd-upper-L1NS1.ns.conf", "apply ns pbrs", "", "apply ns pbrs"},
        {"crd-upper-L1NS1.ns.conf", " -sessionless ENABLED", "", "-sessionless ENABLED"},
        {"crd-lower-L2NS3.ns.conf", "set ns hostName L2NS3", "set ns hostName L2NS9", "L2NS9"},
        {"crd-upper-L1NS1.ns.conf", " -useproxyport NO", "", "-useproxyport NO"},
    };
    for (const Case& c : cases)
    {
        const std::string e = BuildErrorOf(EditedCopy(c.file, c.from, c.to));
        EXPECT_TRUE(HasAll(e, {c.file, c.expect})) << c.from << " -> " << c.to << ": " << e;
        Simulator::Destroy();
    }
}

} // namespace
