/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the shared load-balancing methods (AdcLbMethod and its subclasses).
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method.h"
#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/enum.h"
#include "ns3/ipv4-address.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using adctest::MakeMethod;

const std::vector<std::string> HASH_METHODS =
    {"SOURCEIPHASH", "hash-ip", "hash-ip-port", "hash-ip-vip", "URLHASH", "DESTINATIONIPHASH"};

/// \return flow number \p i: every field (client IP, port, VIP, URL) differs between flows
AdcLbContext
Flow(uint32_t i)
{
    AdcLbContext c;
    c.flow = AdcFlowKey(Ipv4Address(0x0b000000 + i * 7),
                        Ipv4Address(0xc0a80000 + (i % 4093)),
                        static_cast<uint16_t>(1024 + i % 60000),
                        80,
                        AdcFlowKey::PROTO_TCP);
    c.url = "/obj/" + std::to_string(i) + "?v=" + std::to_string(i % 3);
    return c;
}

/// \return a context from client \p src port \p sport to VIP \p vip
AdcLbContext
Ctx(uint32_t src, uint16_t sport, uint32_t vip = 0xc0a80001, std::string url = "")
{
    AdcLbContext c;
    c.flow = AdcFlowKey(Ipv4Address(src), Ipv4Address(vip), sport, 80, AdcFlowKey::PROTO_TCP);
    c.url = std::move(url);
    return c;
}

/// \return the choices of \p m for \p count consecutive Select calls on one context
std::vector<int32_t>
Sequence(Ptr<AdcLbMethod> m, uint32_t count)
{
    std::vector<int32_t> out;
    for (uint32_t i = 0; i < count; ++i)
    {
        out.push_back(m->Select(Ctx(0x0b000001, 1000)));
    }
    return out;
}

/// Records the "Selection" trace.
struct SelectionRecorder
{
    std::vector<int32_t> indices;  //!< chosen index per call
    std::vector<std::string> urls; //!< url per call

    void Record(const AdcFlowKey& /* flow */,
                const std::string& url,
                int32_t index,
                const AdcLbDecision& /* decision */)
    {
        indices.push_back(index);
        urls.push_back(url);
    }
};

} // namespace

TEST(AdcLbMethod, RoundRobinCyclesInIndexOrder)
{
    auto m = MakeMethod("ROUNDROBIN", 3);
    EXPECT_EQ(m->GetMethodName(), "ROUNDROBIN");
    EXPECT_EQ(Sequence(m, 7), (std::vector<int32_t>{0, 1, 2, 0, 1, 2, 0}));
}

TEST(AdcLbMethod, RoundRobinSkipsDownBackend)
{
    auto m = MakeMethod("ROUNDROBIN", 3);
    m->SetBackendUp(1, false);
    EXPECT_EQ(m->GetNUpBackends(), 2u);
    EXPECT_EQ(Sequence(m, 4), (std::vector<int32_t>{0, 2, 0, 2}));
    m->SetBackendUp(1, true);
    // Cursor is after 2 -> 0, 1, 2.
    EXPECT_EQ(Sequence(m, 3), (std::vector<int32_t>{0, 1, 2}));
}

TEST(AdcLbMethod, WeightedRoundRobinSmoothSequence)
{
    // Weights 5,1,1 (total 7), current values after adding weights -> pick -> subtract 7:
    // (5,1,1)->a (-2,1,1); (3,2,2)->a (-4,2,2); (1,3,3)->b (1,-4,3); (6,-3,4)->a (-1,-3,4);
    // (4,-2,5)->c (4,-2,-2); (9,-1,-1)->a (2,-1,-1); (7,0,0)->a (0,0,0): back to the start.
    auto m = MakeMethod("WEIGHTEDROUNDROBIN", 3, {5, 1, 1});
    const std::vector<int32_t> period = {0, 0, 1, 0, 2, 0, 0};
    std::vector<int32_t> twice = period;
    twice.insert(twice.end(), period.begin(), period.end());
    EXPECT_EQ(Sequence(m, 14), twice);
}

TEST(AdcLbMethod, WeightedRoundRobinSkipsDownBackend)
{
    // b down: weights 5 and 1 (total 6). (5,1)->a (-1,1); (4,2)->a (-2,2); (3,3)->a (tie,
    // lowest index) (-3,3); (2,4)->c (2,-2); (7,-1)->a (1,-1); (6,0)->a (0,0).
    auto m = MakeMethod("WEIGHTEDROUNDROBIN", 3, {5, 1, 1});
    m->SetBackendUp(1, false);
    EXPECT_EQ(Sequence(m, 6), (std::vector<int32_t>{0, 0, 0, 2, 0, 0}));
}

TEST(AdcLbMethod, LeastConnectionPicksFewestPerWeight)
{
    auto m = MakeMethod("LEASTCONNECTION", 3, {1, 1, 4});
    // connections 3, 1, 5 -> per weight 3, 1, 1.25: back-end 1.
    for (int i = 0; i < 3; ++i)
    {
        m->ConnectionOpened(0);
    }
    m->ConnectionOpened(1);
    for (int i = 0; i < 5; ++i)
    {
        m->ConnectionOpened(2);
    }
    EXPECT_EQ(m->Select(Ctx(1, 1)), 1);
    // One more on back-end 1 (2/1 = 2 > 1.25): back-end 2 now has fewest per weight.
    m->ConnectionOpened(1);
    EXPECT_EQ(m->Select(Ctx(1, 1)), 2);
    // Closing saturates at zero.
    for (int i = 0; i < 10; ++i)
    {
        m->ConnectionClosed(0);
    }
    EXPECT_EQ(m->GetBackend(0).activeConnections, 0u);
    EXPECT_EQ(m->Select(Ctx(1, 1)), 0);
}

TEST(AdcLbMethod, LeastConnectionBalancesTies)
{
    // No connection reports at all: every back-end ties, so choices rotate.
    auto m = MakeMethod("LEASTCONNECTION", 3);
    EXPECT_EQ(Sequence(m, 6), (std::vector<int32_t>{0, 1, 2, 0, 1, 2}));
    // With reports and no closes, equal back-ends stay within one connection of each other.
    auto n = MakeMethod("LEASTCONNECTION", 4);
    for (int i = 0; i < 400; ++i)
    {
        int32_t k = n->Select(Ctx(1, 1));
        ASSERT_GE(k, 0);
        n->ConnectionOpened(k);
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(n->GetBackend(i).activeConnections, 100u);
    }
}

TEST(AdcLbMethod, HashMethodsMapSameKeyToSameBackend)
{
    for (const auto& name : std::vector<std::string>{"SOURCEIPHASH",
                                                     "hash-ip",
                                                     "hash-ip-port",
                                                     "hash-ip-vip",
                                                     "URLHASH",
                                                     "DESTINATIONIPHASH",
                                                     "MAGLEV"})
    {
        auto m = MakeMethod(name, 5);
        std::set<int32_t> used;
        for (uint32_t i = 0; i < 200; ++i)
        {
            int32_t first = m->Select(Flow(i));
            used.insert(first);
            for (int rep = 0; rep < 3; ++rep)
            {
                EXPECT_EQ(m->Select(Flow(i)), first) << name << " flow " << i;
            }
        }
        EXPECT_EQ(used.size(), 5u) << name << " should use every back-end over 200 flows";
    }
}

TEST(AdcLbMethod, HashSeedChangesMapping)
{
    for (const auto& name : std::vector<std::string>{"SOURCEIPHASH",
                                                     "hash-ip-port",
                                                     "hash-ip-vip",
                                                     "URLHASH",
                                                     "DESTINATIONIPHASH",
                                                     "MAGLEV"})
    {
        auto a = MakeMethod(name, 4);
        auto b = MakeMethod(name, 4);
        a->SetAttribute("HashSeed", UintegerValue(1));
        b->SetAttribute("HashSeed", UintegerValue(2));
        uint32_t same = 0;
        const uint32_t flows = 2000;
        for (uint32_t i = 0; i < flows; ++i)
        {
            same += a->Select(Flow(i)) == b->Select(Flow(i)) ? 1 : 0;
        }
        // Independent mappings agree on ~1/4 of flows; identical ones on all.
        EXPECT_LT(same, flows / 2) << name;
        EXPECT_GT(same, flows / 8) << name;
    }
}

TEST(AdcLbMethod, HashIpPortSeparatesPortsHashIpDoesNot)
{
    auto ip = MakeMethod("hash-ip", 4);
    auto ipPort = MakeMethod("hash-ip-port", 4);
    std::set<int32_t> byIp;
    std::set<int32_t> byIpPort;
    for (uint16_t port = 1000; port < 1400; ++port)
    {
        byIp.insert(ip->Select(Ctx(0x0b000001, port)));
        byIpPort.insert(ipPort->Select(Ctx(0x0b000001, port)));
    }
    EXPECT_EQ(byIp.size(), 1u);
    EXPECT_EQ(byIpPort.size(), 4u);
}

TEST(AdcLbMethod, HashIpVipSeparatesVips)
{
    auto ip = MakeMethod("hash-ip", 4);
    auto ipVip = MakeMethod("hash-ip-vip", 4);
    std::set<int32_t> byIp;
    std::set<int32_t> byIpVip;
    std::set<int32_t> byIpVipOnePort;
    for (uint32_t vip = 0; vip < 400; ++vip)
    {
        byIp.insert(ip->Select(Ctx(0x0b000001, 5000, 0xc0a80000 + vip)));
        byIpVip.insert(ipVip->Select(Ctx(0x0b000001, 5000, 0xc0a80000 + vip)));
        // Source port is not part of the hash-ip-vip key.
        byIpVipOnePort.insert(
            ipVip->Select(Ctx(0x0b000001, static_cast<uint16_t>(vip), 0xc0a80001)));
    }
    EXPECT_EQ(byIp.size(), 1u);
    EXPECT_EQ(byIpVip.size(), 4u);
    EXPECT_EQ(byIpVipOnePort.size(), 1u);
}

TEST(AdcLbMethod, UrlHashSameUrlSameBackend)
{
    auto m = MakeMethod("URLHASH", 4);
    std::set<int32_t> forOneUrl;
    std::set<int32_t> forManyUrls;
    for (uint32_t client = 0; client < 300; ++client)
    {
        // Same URL from different clients: one back-end.
        forOneUrl.insert(m->Select(Ctx(0x0b000000 + client, 1000, 0xc0a80001, "/a/b.jpg?x=1")));
        forManyUrls.insert(
            m->Select(Ctx(0x0b000001, 1000, 0xc0a80001, "/img/" + std::to_string(client))));
    }
    EXPECT_EQ(forOneUrl.size(), 1u);
    EXPECT_EQ(forManyUrls.size(), 4u);
}

TEST(AdcLbMethod, UrlHashIgnoreQuery)
{
    auto keep = MakeMethod("URLHASH", 4);
    auto ignore = MakeMethod("URLHASH", 4);
    ignore->SetAttribute("IgnoreQuery", BooleanValue(true));
    std::set<int32_t> withQuery;
    std::set<int32_t> withoutQuery;
    for (uint32_t q = 0; q < 300; ++q)
    {
        std::string url = "/page?session=" + std::to_string(q);
        withQuery.insert(keep->Select(Ctx(1, 1, 2, url)));
        withoutQuery.insert(ignore->Select(Ctx(1, 1, 2, url)));
    }
    EXPECT_EQ(withQuery.size(), 4u);
    EXPECT_EQ(withoutQuery.size(), 1u);
    EXPECT_EQ(*withoutQuery.begin(), ignore->Select(Ctx(9, 9, 9, "/page")));
}

TEST(AdcLbMethod, UrlHashEmptyUrlFallsBackToSourceIp)
{
    auto url = MakeMethod("URLHASH", 5);
    auto src = MakeMethod("SOURCEIPHASH", 5);
    for (uint32_t i = 0; i < 500; ++i)
    {
        AdcLbContext c = Flow(i);
        c.url.clear();
        EXPECT_EQ(url->Select(c), src->Select(c)) << i;
    }
}

TEST(AdcLbMethod, DestinationIpHashKeysOnVipOnly)
{
    auto m = MakeMethod("DESTINATIONIPHASH", 4);
    std::set<int32_t> oneDst;
    std::set<int32_t> manyDst;
    for (uint32_t i = 0; i < 300; ++i)
    {
        oneDst.insert(m->Select(Ctx(0x0b000000 + i, static_cast<uint16_t>(i), 0x08080808)));
        manyDst.insert(m->Select(Ctx(0x0b000001, 1000, 0x08000000 + i)));
    }
    EXPECT_EQ(oneDst.size(), 1u);
    EXPECT_EQ(manyDst.size(), 4u);
}

TEST(AdcLbMethod, RendezvousHonoursWeights)
{
    for (const auto& name : HASH_METHODS)
    {
        auto m = MakeMethod(name, 2, {3, 1});
        const uint32_t flows = 20000;
        uint32_t onFirst = 0;
        for (uint32_t i = 0; i < flows; ++i)
        {
            // Vary every key field at once so each method sees distinct keys.
            AdcLbContext c = Ctx(0x0b000000 + i * 13,
                                 static_cast<uint16_t>(i),
                                 0x08000000 + i,
                                 "/u/" + std::to_string(i));
            onFirst += m->Select(c) == 0 ? 1 : 0;
        }
        // Weighted rendezvous: P(first) = 3 / (3 + 1); binomial sd ~0.003.
        EXPECT_NEAR(onFirst / static_cast<double>(flows), 0.75, 0.02) << name;
    }
}

TEST(AdcLbMethod, DownBackendGetsNoNewFlowsForEveryMethod)
{
    for (const auto& name : AdcLbMethod::GetMethodNames())
    {
        auto m = MakeMethod(name, 4);
        m->SetBackendUp(2, false);
        // Back-end 2 has the fewest connections: LEASTCONNECTION must still skip it.
        m->ConnectionOpened(0);
        m->ConnectionOpened(1);
        m->ConnectionOpened(3);
        std::set<int32_t> used;
        for (uint32_t i = 0; i < 1000; ++i)
        {
            int32_t k = m->Select(Flow(i));
            EXPECT_NE(k, 2) << name << " flow " << i;
            EXPECT_GE(k, 0) << name;
            used.insert(k);
        }
        // Round robin and friends spread; every hash method too over 1000 varied flows.
        EXPECT_EQ(used, (std::set<int32_t>{0, 1, 3})) << name;
    }
}

TEST(AdcLbMethod, AllDownSelectsMinusOne)
{
    for (const auto& name : AdcLbMethod::GetMethodNames())
    {
        auto m = MakeMethod(name, 3);
        for (uint32_t i = 0; i < 3; ++i)
        {
            m->SetBackendUp(i, false);
        }
        EXPECT_EQ(m->GetNUpBackends(), 0u);
        EXPECT_EQ(m->Select(Flow(1)), -1) << name;
        auto empty = AdcLbMethod::Create(name);
        EXPECT_EQ(empty->Select(Flow(1)), -1) << name;
        m->SetBackendUp(1, true);
        EXPECT_EQ(m->Select(Flow(1)), 1) << name;
    }
}

TEST(AdcLbMethod, HashingMovesOnlyTheDownBackendsFlows)
{
    const uint32_t flows = 10000;
    for (const auto& name : HASH_METHODS)
    {
        auto m = MakeMethod(name, 5);
        std::vector<int32_t> before;
        for (uint32_t i = 0; i < flows; ++i)
        {
            before.push_back(m->Select(Flow(i)));
        }
        m->SetBackendUp(3, false);
        uint32_t onDown = 0;
        for (uint32_t i = 0; i < flows; ++i)
        {
            int32_t now = m->Select(Flow(i));
            if (before[i] == 3)
            {
                ++onDown;
                EXPECT_NE(now, 3) << name;
            }
            else
            {
                EXPECT_EQ(now, before[i]) << name << " flow " << i << " moved needlessly";
            }
        }
        EXPECT_GT(onDown, flows / 10) << name; // ~1/5 of the flows were on back-end 3
        // Back up again: exactly the original mapping.
        m->SetBackendUp(3, true);
        for (uint32_t i = 0; i < flows; i += 7)
        {
            EXPECT_EQ(m->Select(Flow(i)), before[i]) << name;
        }
    }
}

TEST(AdcLbMethod, MaglevMovesFewOtherFlows)
{
    // Maglev trades a little extra disruption for its O(1) lookup: flows not on the removed
    // back-end mostly stay (the paper: few extra moves with M >> N).
    const uint32_t flows = 10000;
    auto m = MakeMethod("MAGLEV", 20);
    std::vector<int32_t> before;
    for (uint32_t i = 0; i < flows; ++i)
    {
        before.push_back(m->Select(Flow(i)));
    }
    m->SetBackendUp(7, false);
    uint32_t extra = 0;
    uint32_t others = 0;
    for (uint32_t i = 0; i < flows; ++i)
    {
        int32_t now = m->Select(Flow(i));
        EXPECT_NE(now, 7);
        if (before[i] != 7)
        {
            ++others;
            extra += now != before[i] ? 1 : 0;
        }
    }
    EXPECT_LT(extra / static_cast<double>(others), 0.02);
}

TEST(AdcLbMethod, MaglevTableSizeMustBePrime)
{
    auto m = CreateObject<AdcMaglevLb>();
    EXPECT_EQ(m->GetTableSize(), 65537u);
    try
    {
        m->SetAttribute("TableSize", UintegerValue(65536));
        FAIL() << "no AdcConfigError";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("TableSize"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("65536"), std::string::npos) << e.what();
    }
    m->SetAttribute("TableSize", UintegerValue(251));
    EXPECT_EQ(m->GetTable().GetSize(), 251u);
}

TEST(AdcLbMethod, MaglevTableCoversOnlyUpBackends)
{
    auto m = CreateObject<AdcMaglevLb>();
    m->SetAttribute("TableSize", UintegerValue(4093));
    for (uint32_t i = 0; i < 4; ++i)
    {
        AdcBackend b;
        b.name = "M" + std::to_string(i);
        m->AddBackend(b);
    }
    m->SetBackendUp(0, false);
    std::set<int32_t> owners(m->GetTable().GetTable().begin(), m->GetTable().GetTable().end());
    EXPECT_EQ(owners, (std::set<int32_t>{1, 2, 3}));
    // Lookup is table[Hash(5-tuple) mod M].
    AdcLbContext c = Flow(3);
    uint64_t h = AdcHash::Flow(c.flow, m->GetHashSeed());
    EXPECT_EQ(m->Select(c), m->GetTable().GetTable()[h % 4093]);
}

TEST(AdcLbMethod, UnknownNameListsAllowedNames)
{
    try
    {
        AdcLbMethod::Create("FASTESTRESPONSE");
        FAIL() << "no AdcConfigError";
    }
    catch (const AdcConfigError& e)
    {
        std::string msg = e.what();
        EXPECT_NE(msg.find("FASTESTRESPONSE"), std::string::npos) << msg;
        for (const auto& name : AdcLbMethod::GetMethodNames())
        {
            EXPECT_NE(msg.find(name), std::string::npos) << name << " missing from: " << msg;
        }
    }
}

TEST(AdcLbMethod, CreateKnowsEveryName)
{
    // NetScaler's names are canonical; ilbadm's are aliases of the same methods and come after
    // (its "roundrobin" is ROUNDROBIN, so Create's case-insensitive list names it once).
    const std::vector<std::string> expected = {"ROUNDROBIN",
                                               "WEIGHTEDROUNDROBIN",
                                               "LEASTCONNECTION",
                                               "SOURCEIPHASH",
                                               "SRCIPSRCPORTHASH",
                                               "SRCIPDESTIPHASH",
                                               "URLHASH",
                                               "DESTINATIONIPHASH",
                                               "MAGLEV",
                                               "ILBHASHIP",
                                               "ILBHASHIPPORT",
                                               "ILBHASHIPVIP",
                                               "hash-ip",
                                               "hash-ip-port",
                                               "hash-ip-vip"};
    EXPECT_EQ(AdcLbMethod::GetMethodNames(), expected);
    EXPECT_EQ(AdcLbMethod::Create("hash-ip")->GetMethodName(), "SOURCEIPHASH");
    EXPECT_EQ(AdcLbMethod::Create("hash-ip-port")->GetMethodName(), "SRCIPSRCPORTHASH");
    EXPECT_EQ(AdcLbMethod::Create("hash-ip-vip")->GetMethodName(), "SRCIPDESTIPHASH");
    EXPECT_EQ(AdcLbMethod::Create("roundrobin")->GetMethodName(), "ROUNDROBIN");
    EXPECT_EQ(AdcLbMethod::Create("MAGLEV")->GetInstanceTypeId().GetName(), "ns3::AdcMaglevLb");
}

TEST(AdcLbMethod, SourceHashModeAttribute)
{
    auto m = CreateObject<AdcSourceHashLb>();
    EXPECT_EQ(m->GetMode(), AdcSourceHashLb::IP);
    m->SetAttribute("Mode", EnumValue(AdcSourceHashLb::IP_PORT));
    EXPECT_EQ(m->GetMethodName(), "SRCIPSRCPORTHASH");
    m->SetAttribute("Mode", StringValue("IP_VIP"));
    EXPECT_EQ(m->GetMode(), AdcSourceHashLb::IP_VIP);
    EXPECT_EQ(m->GetMethodName(), "SRCIPDESTIPHASH");
}

TEST(AdcLbMethod, ZeroWeightIsConfigError)
{
    auto m = MakeMethod("WEIGHTEDROUNDROBIN", 2);
    AdcBackend b;
    b.name = "Z";
    b.weight = 0;
    EXPECT_THROW(m->AddBackend(b), AdcConfigError);
    EXPECT_EQ(m->GetNBackends(), 2u);
    EXPECT_THROW(m->SetBackendWeight(0, 0), AdcConfigError);
    EXPECT_EQ(m->GetBackend(0).weight, 1u);
    EXPECT_THROW(m->SetBackendUp(5, false), AdcConfigError);
}

TEST(AdcLbMethod, DuplicateNameIsConfigError)
{
    auto m = MakeMethod("ROUNDROBIN", 2);
    AdcBackend b;
    b.name = "S1";
    EXPECT_THROW(m->AddBackend(b), AdcConfigError);
}

TEST(AdcLbMethod, SelectionTraceFiresOncePerSelect)
{
    for (const auto& name : AdcLbMethod::GetMethodNames())
    {
        auto m = MakeMethod(name, 3);
        SelectionRecorder rec;
        ASSERT_TRUE(m->TraceConnectWithoutContext("Selection",
                                                  MakeCallback(&SelectionRecorder::Record, &rec)));
        std::vector<int32_t> returned;
        for (uint32_t i = 0; i < 20; ++i)
        {
            returned.push_back(m->Select(Flow(i)));
        }
        for (uint32_t i = 0; i < 3; ++i)
        {
            m->SetBackendUp(i, false);
        }
        returned.push_back(m->Select(Flow(99)));
        EXPECT_EQ(rec.indices, returned) << name;
        EXPECT_EQ(rec.indices.back(), -1) << name;
        EXPECT_EQ(rec.urls.front(), Flow(0).url) << name;
    }
}
