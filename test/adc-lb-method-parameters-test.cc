/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The LB methods' own parameters as NetScaler has them on add/set lb vserver: -hashLength
 * (URLHASH hashes the first 80 bytes of the URL by default: Citrix CTX122900, "URL hash load
 * balancing on NetScaler"; 1..4096 in the command reference), -netmask and -v6netmasklen
 * (SOURCEIPHASH and DESTINATIONIPHASH hash the masked address). Kept on the virtual server
 * whatever its method, through the configuration front end and the C++ API alike.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-netscaler-commands.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/boolean.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace ns3;
using adctest::ConfigErrorOf;
using adctest::HasAll;
using adctest::MakeMethod;

namespace
{

/// \return a request from \p src for \p url
AdcLbContext
Request(const AdcIpAddress& src, const std::string& url = "", const AdcIpAddress& dst = {})
{
    AdcLbContext c;
    c.flow = AdcFlowKey(src,
                        dst.IsNone() ? AdcIpAddress(Ipv4Address("192.0.2.10")) : dst,
                        40000,
                        80,
                        AdcFlowKey::PROTO_TCP);
    c.url = url;
    return c;
}

/// \return the back-ends \p m chooses for each URL of \p urls
std::set<int32_t>
Choices(Ptr<AdcLbMethod> m, const std::vector<std::string>& urls)
{
    std::set<int32_t> out;
    for (const std::string& u : urls)
    {
        out.insert(m->Select(Request(Ipv4Address("10.0.0.1"), u)));
    }
    return out;
}

/// \return 100 URLs sharing their first \p prefix bytes, differing after them
std::vector<std::string>
UrlsSharingPrefix(std::size_t prefix)
{
    std::vector<std::string> urls;
    const std::string head = "/" + std::string(prefix - 1, 'p');
    for (uint32_t i = 0; i < 100; ++i)
    {
        urls.push_back(head + "/tail" + std::to_string(i));
    }
    return urls;
}

/// A reader of NetScaler lines.
class AdcLbMethodParameters : public adctest::ConfigReaderTest
{
  protected:
    AdcLbMethodParameters()
        : ConfigReaderTest(AdcNetScalerCommands::GetLanguage(), "ns.conf")
    {
    }

    /// \return the virtual server \p name
    Ptr<AdcVirtualServer> VServer(const std::string& name)
    {
        return m_reader.GetStore().Get<AdcVirtualServer>(AdcNetScalerCommands::LB_VSERVER, name);
    }

    /// \return attribute \p attribute of \p v's current method, as text
    static std::string MethodAttribute(Ptr<AdcVirtualServer> v, const std::string& attribute)
    {
        StringValue s;
        v->GetLbMethod()->GetAttribute(attribute, s);
        return s.Get();
    }
};

} // namespace

// REQ: CRD-06
TEST(AdcLbMethodParametersApi, UrlHashHashesTheFirst80BytesByDefault)
{
    Ptr<AdcLbMethod> m = MakeMethod("URLHASH", 8);
    UintegerValue length;
    m->GetAttribute("HashLength", length);
    EXPECT_EQ(length.Get(), 80u);
    // Same first 80 bytes: one back-end, whatever follows (CTX122900).
    EXPECT_EQ(Choices(m, UrlsSharingPrefix(80)).size(), 1u);
    // Differing within the first 80 bytes: spread (8 back-ends, 100 URLs; all on one would
    // happen with probability 8^-99).
    EXPECT_GT(Choices(m, UrlsSharingPrefix(40)).size(), 1u);
    // Hashing more of the URL separates what the default joins.
    m->SetAttribute("HashLength", UintegerValue(4096));
    EXPECT_GT(Choices(m, UrlsSharingPrefix(80)).size(), 1u);
    // NetScaler's range is 1..4096.
    EXPECT_FALSE(m->SetAttributeFailSafe("HashLength", UintegerValue(0)));
    EXPECT_FALSE(m->SetAttributeFailSafe("HashLength", UintegerValue(4097)));
}

// REQ: CRD-06
TEST(AdcLbMethodParametersApi, NetmaskGroupsClientsOfOneSubnet)
{
    Ptr<AdcLbMethod> m = MakeMethod("SOURCEIPHASH", 8);
    auto subnet = [&m]() {
        std::set<int32_t> out;
        for (uint32_t host = 1; host < 255; ++host)
        {
            out.insert(m->Select(Request(Ipv4Address(0x0a010200 + host))));
        }
        return out;
    };
    EXPECT_GT(subnet().size(), 1u); // default 255.255.255.255: each client on its own
    m->SetAttribute("Netmask", Ipv4MaskValue(Ipv4Mask("255.255.255.0")));
    EXPECT_EQ(subnet().size(), 1u);
    // IPv6: -v6netmasklen 64 groups one /64.
    std::set<int32_t> v6;
    m->SetAttribute("V6NetmaskLen", UintegerValue(64));
    for (uint32_t host = 1; host < 200; ++host)
    {
        uint8_t b[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1};
        b[14] = static_cast<uint8_t>(host >> 8);
        b[15] = static_cast<uint8_t>(host);
        v6.insert(m->Select(Request(Ipv6Address(b))));
    }
    EXPECT_EQ(v6.size(), 1u);
    // A mask that is not leading ones is refused, naming it.
    const std::string e =
        ConfigErrorOf([&] { m->SetAttribute("Netmask", Ipv4MaskValue(Ipv4Mask("255.0.255.0"))); });
    EXPECT_TRUE(HasAll(e, {"Netmask", "255.0.255.0", "contiguous"})) << e;
}

// REQ: CRD-06
TEST(AdcLbMethodParametersApi, DestinationIpHashMasksTheDestination)
{
    Ptr<AdcLbMethod> m = MakeMethod("DESTINATIONIPHASH", 8);
    m->SetAttribute("Netmask", Ipv4MaskValue(Ipv4Mask("255.255.0.0")));
    std::set<int32_t> out;
    for (uint32_t host = 0; host < 300; ++host)
    {
        out.insert(m->Select(Request(Ipv4Address("10.0.0.1"), "", Ipv4Address(0xc6330000 + host))));
    }
    EXPECT_EQ(out.size(), 1u);
}

// REQ: CRD-06
TEST_F(AdcLbMethodParameters, FrontEndSetsThemOnTheVserverWhateverItsMethod)
{
    m_reader.ReadString("add lb vserver v HTTP 192.0.2.10 80 -lbMethod URLHASH -hashLength 12\n"
                        "set lb vserver v -lbMethod SOURCEIPHASH -netmask 255.255.255.0 "
                        "-v6netmasklen 64\n",
                        m_file);
    Ptr<AdcVirtualServer> v = VServer("v");
    EXPECT_EQ(MethodAttribute(v, "Netmask"), "255.255.255.0");
    EXPECT_EQ(MethodAttribute(v, "V6NetmaskLen"), "64");
    // Back to URLHASH: the -hashLength given under URLHASH still stands.
    m_reader.ReadString("set lb vserver v -lbMethod URLHASH\n", m_file);
    EXPECT_EQ(MethodAttribute(v, "HashLength"), "12");
    const std::string shown = m_reader.Show();
    EXPECT_TRUE(adctest::Has(shown,
                             "add lb vserver v HTTP 192.0.2.10 80 -lbMethod URLHASH -hashLength 12 "
                             "-netmask 255.255.255.0 -v6netmasklen 64"))
        << shown;
}

// REQ: CRD-06
TEST_F(AdcLbMethodParameters, BadValuesNameTheParameterTheValueAndTheRange)
{
    const std::string add = "add lb vserver v HTTP 192.0.2.10 80 -lbMethod URLHASH ";
    EXPECT_TRUE(
        HasAll(ErrorOf(add + "-hashLength 0"), {"ns.conf:1", "-hashLength", "'0'", "4096"}));
    EXPECT_TRUE(HasAll(ErrorOf(add + "-hashLength 4097"), {"-hashLength", "'4097'", "4096"}));
    EXPECT_TRUE(
        HasAll(ErrorOf(add + "-netmask 255.0.255.0"), {"-netmask", "'255.0.255.0'", "contiguous"}));
    EXPECT_TRUE(HasAll(ErrorOf(add + "-netmask banana"), {"-netmask", "banana"}));
    EXPECT_TRUE(HasAll(ErrorOf(add + "-v6netmasklen 129"), {"-v6netmasklen", "'129'", "128"}));
}
