/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of CsHelper: a CS virtual server built from NetScaler configuration lines, and a
 * canary rolled forward at run time by more configuration lines.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-reader.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-netscaler-cs-commands.h"
#include "ns3/core-module.h"
#include "ns3/cs-helper.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;
using namespace ns3::adctest;

namespace
{

/// A LAN with the appliance on servers[0] and servers v1-a (servers[1]) and v2-a (servers[2]),
/// configured from ns.conf lines.
class CsHelperTest : public ::testing::Test
{
  protected:
    CsHelperTest()
        : reader(AdcNetScalerCsCommands::GetLanguage())
    {
    }

    void SetUp() override
    {
        lan = MakeLan(3, 3);
        for (uint32_t v = 1; v <= 2; ++v)
        {
            Ptr<AdcHttpServer> srv = CreateObject<AdcHttpServer>();
            srv->SetAttribute("ServerName", StringValue("v" + std::to_string(v) + "-a"));
            lan.servers.Get(v)->AddApplication(srv);
        }
    }

    void TearDown() override
    {
        reader.GetStore().Clear();
        Simulator::Destroy();
    }

    /// \param persistence the `set cs vserver` persistence clause \return the seed's canary
    std::string Config(const std::string& persistence) const
    {
        std::ostringstream os;
        os << "add service v1-a " << lan.ServerIp(1) << " HTTP 80\n"
           << "add service v2-a " << lan.ServerIp(2) << " HTTP 80\n"
           << "add lb vserver LB1 HTTP\n"
           << "add lb vserver LB2 HTTP\n"
           << "bind lb vserver LB1 v1-a\n"
           << "bind lb vserver LB2 v2-a\n"
           << "add cs vserver CS-1 HTTP " << lan.ServerIp(0) << " 80\n"
           << "set cs vserver CS-1 " << persistence << "\n"
           << "add cs action act-v2 -targetLBVserver LB2\n"
           << "add cs policy pol-v2 -rule \"SYS.RANDOM.MUL(100).LT(0)\" -action act-v2\n"
           << "bind cs vserver CS-1 -lbvserver LB1\n"
           << "bind cs vserver CS-1 -policyName pol-v2 -priority 10\n";
        return os.str();
    }

    /// \param c a LAN client \param start when \param n requests (2 s apart)
    Ptr<AdcHttpClient> Client(uint32_t c, Time start, uint32_t n)
    {
        Ptr<AdcHttpClient> cli = CreateObject<AdcHttpClient>();
        cli->SetAttribute("Remote", AddressValue(InetSocketAddress(lan.ServerIp(0), 80)));
        cli->SetAttribute("MaxRequests", UintegerValue(n));
        cli->SetAttribute("InterRequestTime",
                          StringValue("ns3::ConstantRandomVariable[Constant=2.0]"));
        lan.clients.Get(c)->AddApplication(cli);
        cli->SetStartTime(start);
        return cli;
    }

    Lan lan;                //!< the LAN
    AdcConfigReader reader; //!< NetScaler's language with the CS commands
};

} // namespace

// REQ: CS-11 CS-02 CS-10
TEST_F(CsHelperTest, CanaryRolledForwardByConfigurationLinesKeepsPersistentSessions)
{
    reader.ReadString(Config("-persistenceType SOURCEIP -timeout 60"), "ns.conf");
    Ptr<CsVirtualServer> cs = CsHelper::Install(lan.servers.Get(0), reader.GetStore(), "CS-1");
    // CS-11: the attributes carry what the line set.
    StringValue type;
    UintegerValue timeout;
    cs->GetAttribute("PersistenceType", type);
    cs->GetAttribute("Timeout", timeout);
    EXPECT_EQ(type.Get(), "SOURCEIP");
    EXPECT_EQ(timeout.Get(), 60u);

    RequestRecords old;
    RequestRecords fresh;
    old.Attach(Client(0, Seconds(1), 3));   // 3, 5, 7 s
    fresh.Attach(Client(1, Seconds(5), 1)); // 7 s
    // At 4 s the canary goes to 100%: the policy's rule changes by a configuration line.
    Simulator::Schedule(Seconds(4), [this, cs]() {
        reader.ReadString("set cs policy pol-v2 -rule \"SYS.RANDOM.MUL(100).LT(100)\"",
                          "rollout.conf");
        CsHelper::Sync(cs, reader.GetStore());
    });
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    ASSERT_EQ(old.Completed(), 3u);
    ASSERT_EQ(fresh.Completed(), 1u);
    for (const AdcRequestRecord& r : old.done)
    {
        EXPECT_EQ(r.server, "v1-a"); // the session that began on v1 stays there
    }
    EXPECT_EQ(fresh.done[0].server, "v2-a");
    EXPECT_EQ(cs->GetPolicies().at(0)->GetRule().ToString(), "SYS.RANDOM.MUL(100).LT(100)");
}

// REQ: CS-02
TEST_F(CsHelperTest, UnbindingThePolicyByConfigurationSendsNewRequestsToTheDefault)
{
    reader.ReadString(Config("-persistenceType NONE"), "ns.conf");
    reader.ReadString("set cs policy pol-v2 -rule \"SYS.RANDOM.MUL(100).LT(100)\"", "a.conf");
    Ptr<CsVirtualServer> cs = CsHelper::Install(lan.servers.Get(0), reader.GetStore(), "CS-1");
    RequestRecords rec;
    rec.Attach(Client(0, Seconds(1), 2)); // 3, 5 s
    Simulator::Schedule(Seconds(4), [this, cs]() {
        reader.ReadString("unbind cs vserver CS-1 -policyName pol-v2", "b.conf");
        CsHelper::Sync(cs, reader.GetStore());
    });
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    ASSERT_EQ(rec.Completed(), 2u);
    EXPECT_EQ(rec.done[0].server, "v2-a");
    EXPECT_EQ(rec.done[1].server, "v1-a");
    EXPECT_TRUE(cs->GetPolicies().empty());
}

// REQ: CS-11
TEST_F(CsHelperTest, MissingCsVserverIsAnErrorNamingIt)
{
    reader.ReadString(Config("-persistenceType NONE"), "ns.conf");
    const std::string e = ConfigErrorOf(
        [this]() { CsHelper::Install(lan.servers.Get(0), reader.GetStore(), "CS-9"); });
    EXPECT_TRUE(HasAll(e, {"CS-9", "CS-1"})) << e;
}
