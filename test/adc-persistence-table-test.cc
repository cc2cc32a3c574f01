/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the persistence table: keys, expiry, capacity and NetScaler's support matrix.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/callback.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::adctest;

namespace
{

/// Records what a table's trace sources fire.
struct PersistenceTraces
{
    std::vector<std::pair<std::string, uint32_t>> expired;
    std::vector<std::pair<std::string, uint32_t>> evicted;
    std::vector<std::pair<std::string, AdcPersistenceTable::OverflowPolicy>> overflow;
    uint32_t hits{0};
    uint32_t misses{0};

    void OnExpired(const AdcPersistenceKey& k, uint32_t target)
    {
        expired.emplace_back(k.ToString(), target);
    }

    void OnEvicted(const AdcPersistenceKey& k, uint32_t target)
    {
        evicted.emplace_back(k.ToString(), target);
    }

    void OnOverflow(const AdcPersistenceKey& k, AdcPersistenceTable::OverflowPolicy p)
    {
        overflow.emplace_back(k.ToString(), p);
    }

    void OnHit(const AdcPersistenceKey&, uint32_t)
    {
        ++hits;
    }

    void OnMiss(const AdcPersistenceKey&)
    {
        ++misses;
    }

    void Connect(Ptr<AdcPersistenceTable> t)
    {
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("Expired",
                                          MakeCallback(&PersistenceTraces::OnExpired, this)));
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("Evicted",
                                          MakeCallback(&PersistenceTraces::OnEvicted, this)));
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("Overflow",
                                          MakeCallback(&PersistenceTraces::OnOverflow, this)));
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("Hit", MakeCallback(&PersistenceTraces::OnHit, this)));
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("Miss", MakeCallback(&PersistenceTraces::OnMiss, this)));
    }
};

/// \return the SOURCEIP key (/32) of the IPv4 address \p a
AdcPersistenceKey
Ip(const char* a)
{
    return AdcPersistenceKey::FromSourceIp(Ipv4Address(a), 32);
}

/// \return a table with the given timeout (and the default limits)
Ptr<AdcPersistenceTable>
MakeTable(Time timeout)
{
    Ptr<AdcPersistenceTable> t = CreateObject<AdcPersistenceTable>();
    t->SetAttribute("Timeout", TimeValue(timeout));
    return t;
}

} // namespace

TEST(AdcPersistenceType, NamesRoundTripAndUnknownNameListsAllowed)
{
    for (auto t : {AdcPersistenceType::NONE,
                   AdcPersistenceType::SOURCEIP,
                   AdcPersistenceType::COOKIEINSERT,
                   AdcPersistenceType::SSLSESSION})
    {
        EXPECT_EQ(AdcPersistenceTypeFromString(AdcPersistenceTypeToString(t)), t);
    }
    EXPECT_EQ(AdcPersistenceTypeToString(AdcPersistenceType::COOKIEINSERT), "COOKIEINSERT");
    EXPECT_EQ(AdcPersistenceTypeFromString("sourceip"), AdcPersistenceType::SOURCEIP);
    const std::string msg = ConfigErrorOf([] { AdcPersistenceTypeFromString("RULE"); });
    EXPECT_NE(msg.find("'RULE'"), std::string::npos) << msg;
    for (const char* name : {"NONE", "SOURCEIP", "COOKIEINSERT", "SSLSESSION"})
    {
        EXPECT_NE(msg.find(name), std::string::npos) << msg;
    }
}

TEST(AdcPersistenceTable, AttributeDefaults)
{
    Ptr<AdcPersistenceTable> t = CreateObject<AdcPersistenceTable>();
    TimeValue timeout;
    t->GetAttribute("Timeout", timeout);
    EXPECT_EQ(timeout.Get(), Seconds(120));
    UintegerValue max;
    t->GetAttribute("MaxEntries", max);
    EXPECT_EQ(max.Get(), 250000u);
    EnumValue policy;
    t->GetAttribute("OverflowPolicy", policy);
    EXPECT_EQ(policy.Get(), AdcPersistenceTable::REJECT);
}

TEST(AdcPersistenceTable, HitAndMissAndUpdate)
{
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(10));
    PersistenceTraces traces;
    traces.Connect(t);
    EXPECT_TRUE(t->Insert(Ip("10.0.0.1"), 3, Seconds(0)));
    EXPECT_EQ(t->Lookup(Ip("10.0.0.1"), Seconds(1)), 3u);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.2"), Seconds(1)), std::nullopt);
    // Same bytes, different type: a different key.
    AdcPersistenceKey cookie = AdcPersistenceKey::FromCookie(Ip("10.0.0.1").bytes);
    EXPECT_EQ(t->Lookup(cookie, Seconds(1)), std::nullopt);
    // Updating an entry changes its target, not the entry count.
    EXPECT_TRUE(t->Insert(Ip("10.0.0.1"), 4, Seconds(2)));
    EXPECT_EQ(t->Lookup(Ip("10.0.0.1"), Seconds(3)), 4u);
    EXPECT_EQ(t->GetHits(), 2u);
    EXPECT_EQ(t->GetMisses(), 2u);
    EXPECT_EQ(t->GetInserts(), 1u);
    EXPECT_EQ(t->GetUpdates(), 1u);
    EXPECT_EQ(t->GetSize(Seconds(3)), 1u);
    EXPECT_EQ(traces.hits, 2u);
    EXPECT_EQ(traces.misses, 2u);
}

TEST(AdcPersistenceTable, ExpiresExactlyAtInsertPlusTimeout)
{
    // Semantics: inserted at t0 with timeout T, the entry is found at t0 + T - 1 ns and gone
    // from t0 + T on.
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(10));
    PersistenceTraces traces;
    traces.Connect(t);
    const Time t0 = Seconds(5);
    t->Insert(Ip("10.0.0.1"), 1, t0);
    t->Insert(Ip("10.0.0.2"), 2, t0);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.1"), Seconds(15) - NanoSeconds(1)), 1u);
    EXPECT_TRUE(traces.expired.empty());
    EXPECT_EQ(t->Lookup(Ip("10.0.0.2"), Seconds(15)), std::nullopt);
    ASSERT_EQ(traces.expired.size(), 1u);
    EXPECT_EQ(traces.expired[0].first, "SOURCEIP 10.0.0.2/32");
    EXPECT_EQ(traces.expired[0].second, 2u);
    EXPECT_EQ(t->GetExpirations(), 1u);
    // The first entry was refreshed at 15 s - 1 ns, so it lives until 25 s - 1 ns.
    EXPECT_EQ(t->GetSize(Seconds(25) - NanoSeconds(2)), 1u);
    EXPECT_EQ(t->GetSize(Seconds(25) - NanoSeconds(1)), 0u);
    EXPECT_EQ(t->GetExpirations(), 2u);
}

TEST(AdcPersistenceTable, HitRefreshesExpiry)
{
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(10));
    t->Insert(Ip("10.0.0.1"), 7, Seconds(0));
    EXPECT_EQ(t->Lookup(Ip("10.0.0.1"), Seconds(9)), 7u);  // expiry now 19 s
    EXPECT_EQ(t->Lookup(Ip("10.0.0.1"), Seconds(18)), 7u); // without refresh: gone at 10 s
    EXPECT_EQ(t->Lookup(Ip("10.0.0.1"), Seconds(28)), std::nullopt); // 18 + 10
    EXPECT_EQ(t->GetExpirations(), 1u);
}

TEST(AdcPersistenceTable, PerEntryTimeout)
{
    Ptr<AdcPersistenceTable> t = CreateObject<AdcPersistenceTable>(); // Timeout 2 min
    t->Insert(Ip("10.0.0.1"), 1, Seconds(0));                         // table timeout
    t->Insert(Ip("10.0.0.2"), 2, Seconds(0), Seconds(5));             // own timeout
    EXPECT_EQ(t->GetSize(Seconds(5) - NanoSeconds(1)), 2u);
    EXPECT_EQ(t->GetSize(Seconds(5)), 1u);
    EXPECT_EQ(t->GetSize(Minutes(2) - NanoSeconds(1)), 1u);
    EXPECT_EQ(t->GetSize(Minutes(2)), 0u);
    // A refresh uses the entry's own timeout, not the table's.
    t->Insert(Ip("10.0.0.3"), 3, Minutes(3), Seconds(5));
    EXPECT_EQ(t->Lookup(Ip("10.0.0.3"), Minutes(3) + Seconds(4)), 3u);
    EXPECT_EQ(t->GetSize(Minutes(3) + Seconds(9) - NanoSeconds(1)), 1u);
    EXPECT_EQ(t->GetSize(Minutes(3) + Seconds(9)), 0u);
}

TEST(AdcPersistenceTable, ExpiryOrderIsByExpiryThenInsertion)
{
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(10));
    PersistenceTraces traces;
    traces.Connect(t);
    t->Insert(Ip("10.0.0.1"), 1, Seconds(0), Seconds(30));
    t->Insert(Ip("10.0.0.2"), 2, Seconds(0));
    t->Insert(Ip("10.0.0.3"), 3, Seconds(0));
    t->Purge(Seconds(100));
    ASSERT_EQ(traces.expired.size(), 3u);
    EXPECT_EQ(traces.expired[0].second, 2u);
    EXPECT_EQ(traces.expired[1].second, 3u);
    EXPECT_EQ(traces.expired[2].second, 1u);
}

TEST(AdcPersistenceTable, SourceIpPrefixMasking)
{
    // Two clients in 10.1.2.0/24.
    const AdcIpAddress a(Ipv4Address("10.1.2.3"));
    const AdcIpAddress b(Ipv4Address("10.1.2.200"));
    EXPECT_EQ(AdcPersistenceKey::FromSourceIp(a, 24), AdcPersistenceKey::FromSourceIp(b, 24));
    EXPECT_NE(AdcPersistenceKey::FromSourceIp(a, 32), AdcPersistenceKey::FromSourceIp(b, 32));
    EXPECT_NE(AdcPersistenceKey::FromSourceIp(a, 24),
              AdcPersistenceKey::FromSourceIp(Ipv4Address("10.1.3.3"), 24));
    // The default keeps the whole address, as /32 does.
    EXPECT_EQ(AdcPersistenceKey::FromSourceIp(a), AdcPersistenceKey::FromSourceIp(a, 32));
    EXPECT_EQ(AdcPersistenceKey::FromSourceIp(a, 24).ToString(), "SOURCEIP 10.1.2.0/24");

    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(10));
    t->Insert(AdcPersistenceKey::FromSourceIp(a, 24), 5, Seconds(0));
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromSourceIp(b, 24), Seconds(1)), 5u);
    t->Insert(AdcPersistenceKey::FromSourceIp(a, 32), 6, Seconds(0));
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromSourceIp(b, 32), Seconds(1)), std::nullopt);

    // IPv6 /64: same prefix shares, another /64 does not; IPv4 and IPv6 never collide.
    const AdcIpAddress c(Ipv6Address("2001:db8:1:2::10"));
    const AdcIpAddress d(Ipv6Address("2001:db8:1:2:ffff::1"));
    const AdcIpAddress e(Ipv6Address("2001:db8:1:3::10"));
    EXPECT_EQ(AdcPersistenceKey::FromSourceIp(c, 64), AdcPersistenceKey::FromSourceIp(d, 64));
    EXPECT_NE(AdcPersistenceKey::FromSourceIp(c, 64), AdcPersistenceKey::FromSourceIp(e, 64));
    EXPECT_NE(AdcPersistenceKey::FromSourceIp(c), AdcPersistenceKey::FromSourceIp(d));
    EXPECT_NE(AdcPersistenceKey::FromSourceIp(a, 0), AdcPersistenceKey::FromSourceIp(c, 0));
}

TEST(AdcPersistenceTable, CookieAndSslSessionKeys)
{
    const std::vector<uint8_t> id = {0x0a, 0x1b, 0x00, 0xff};
    EXPECT_EQ(AdcPersistenceKey::FromSslSessionId(id),
              AdcPersistenceKey::FromSslSessionId(std::string("\x0a\x1b\x00\xff", 4)));
    EXPECT_EQ(AdcPersistenceKey::FromSslSessionId(id).ToString(), "SSLSESSION 0a1b00ff");
    EXPECT_EQ(AdcPersistenceKey::FromCookie("NSC_abc").ToString(), "COOKIEINSERT NSC_abc");
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(10));
    t->Insert(AdcPersistenceKey::FromCookie("NSC_abc"), 1, Seconds(0));
    t->Insert(AdcPersistenceKey::FromSslSessionId(id), 2, Seconds(0));
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie("NSC_abc"), Seconds(1)), 1u);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie("NSC_abd"), Seconds(1)), std::nullopt);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromSslSessionId(id), Seconds(1)), 2u);
}

// REQ: CS-06
TEST(AdcPersistenceTable, CapacityRejectKeepsTableAndCountsOverflow)
{
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(100));
    t->SetAttribute("MaxEntries", UintegerValue(3));
    PersistenceTraces traces;
    traces.Connect(t);
    EXPECT_TRUE(t->Insert(Ip("10.0.0.1"), 1, Seconds(0)));
    EXPECT_TRUE(t->Insert(Ip("10.0.0.2"), 2, Seconds(1)));
    EXPECT_TRUE(t->Insert(Ip("10.0.0.3"), 3, Seconds(2)));
    EXPECT_FALSE(t->Insert(Ip("10.0.0.4"), 4, Seconds(3)));
    EXPECT_EQ(t->GetOverflows(), 1u);
    ASSERT_EQ(traces.overflow.size(), 1u);
    EXPECT_EQ(traces.overflow[0].first, "SOURCEIP 10.0.0.4/32");
    EXPECT_EQ(traces.overflow[0].second, AdcPersistenceTable::REJECT);
    EXPECT_TRUE(traces.evicted.empty());
    EXPECT_EQ(t->GetSize(Seconds(3)), 3u);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.4"), Seconds(3)), std::nullopt);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.1"), Seconds(3)), 1u);
    // Updating an existing entry of a full table is not an overflow.
    EXPECT_TRUE(t->Insert(Ip("10.0.0.2"), 9, Seconds(3)));
    EXPECT_EQ(t->GetOverflows(), 1u);
    // Once an entry expires there is room again (10.0.0.1 was refreshed at 3 s; 10.0.0.3
    // expires at 102 s, first of the three).
    EXPECT_TRUE(t->Insert(Ip("10.0.0.4"), 4, Seconds(102)));
    EXPECT_EQ(t->Lookup(Ip("10.0.0.3"), Seconds(102)), std::nullopt);
}

// REQ: CS-06
TEST(AdcPersistenceTable, CapacityEvictOldestEvictsFirstToExpire)
{
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(100));
    t->SetAttribute("MaxEntries", UintegerValue(3));
    t->SetAttribute("OverflowPolicy", EnumValue(AdcPersistenceTable::EVICT_OLDEST));
    PersistenceTraces traces;
    traces.Connect(t);
    t->Insert(Ip("10.0.0.1"), 1, Seconds(0));              // expires 100 s
    t->Insert(Ip("10.0.0.2"), 2, Seconds(1), Seconds(10)); // expires 11 s: first to expire
    t->Insert(Ip("10.0.0.3"), 3, Seconds(2));              // expires 102 s
    EXPECT_TRUE(t->Insert(Ip("10.0.0.4"), 4, Seconds(3)));
    EXPECT_EQ(t->GetOverflows(), 1u);
    EXPECT_EQ(t->GetEvictions(), 1u);
    ASSERT_EQ(traces.evicted.size(), 1u);
    EXPECT_EQ(traces.evicted[0].first, "SOURCEIP 10.0.0.2/32");
    EXPECT_EQ(traces.evicted[0].second, 2u);
    ASSERT_EQ(traces.overflow.size(), 1u);
    EXPECT_EQ(traces.overflow[0].second, AdcPersistenceTable::EVICT_OLDEST);
    EXPECT_TRUE(traces.expired.empty()); // an eviction is not an expiry
    EXPECT_EQ(t->GetSize(Seconds(3)), 3u);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.2"), Seconds(3)), std::nullopt);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.4"), Seconds(3)), 4u);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.1"), Seconds(3)), 1u); // now expires 103 s
    // Next to expire is 10.0.0.3 (102 s).
    EXPECT_TRUE(t->Insert(Ip("10.0.0.5"), 5, Seconds(4)));
    ASSERT_EQ(traces.evicted.size(), 2u);
    EXPECT_EQ(traces.evicted[1].second, 3u);
}

/// Large tables: Simulator::Run() once so ns-3 stops bookkeeping every Time object it makes
/// (it does so until a simulation runs), which would otherwise dominate the cost.
class AdcPersistenceTableScale : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Simulator::Run();
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }
};

// REQ: CS-06
TEST_F(AdcPersistenceTableScale, DefaultLimitThenPurgeOf250000InOneCall)
{
    Ptr<AdcPersistenceTable> t = CreateObject<AdcPersistenceTable>(); // 250000, 2 min
    PersistenceTraces traces;
    traces.Connect(t);
    const uint32_t base = Ipv4Address("10.0.0.0").Get();
    for (uint32_t i = 0; i < 250000; ++i)
    {
        ASSERT_TRUE(
            t->Insert(AdcPersistenceKey::FromSourceIp(Ipv4Address(base + i)), i, MicroSeconds(i)));
    }
    EXPECT_FALSE(
        t->Insert(AdcPersistenceKey::FromSourceIp(Ipv4Address(base + 250000)), 250000, Seconds(1)));
    EXPECT_EQ(t->GetOverflows(), 1u);
    EXPECT_EQ(t->GetSize(Seconds(1)), 250000u);
    t->Purge(Minutes(2) + Seconds(1));
    EXPECT_EQ(t->GetSize(Minutes(2) + Seconds(1)), 0u);
    EXPECT_EQ(traces.expired.size(), 250000u);
    EXPECT_EQ(t->GetExpirations(), 250000u);
}

TEST_F(AdcPersistenceTableScale, UnlimitedWhenMaxEntriesIsZero)
{
    Ptr<AdcPersistenceTable> t = CreateObject<AdcPersistenceTable>();
    t->SetAttribute("MaxEntries", UintegerValue(0));
    for (uint32_t i = 0; i < 250001; ++i)
    {
        ASSERT_TRUE(t->Insert(AdcPersistenceKey::FromCookie(std::to_string(i)), i, Seconds(0)));
    }
    EXPECT_EQ(t->GetSize(Seconds(0)), 250001u);
    EXPECT_EQ(t->GetOverflows(), 0u);
}

TEST(AdcPersistenceTable, RemoveAndRemoveTarget)
{
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(100));
    PersistenceTraces traces;
    traces.Connect(t);
    t->Insert(Ip("10.0.0.1"), 1, Seconds(0));
    t->Insert(Ip("10.0.0.2"), 2, Seconds(0));
    t->Insert(Ip("10.0.0.3"), 1, Seconds(0));
    t->Insert(Ip("10.0.0.4"), 3, Seconds(0));
    EXPECT_EQ(t->RemoveTarget(1), 2u);
    EXPECT_EQ(t->RemoveTarget(1), 0u);
    EXPECT_EQ(t->GetSize(Seconds(1)), 2u);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.3"), Seconds(1)), std::nullopt);
    t->Remove(Ip("10.0.0.2"));
    t->Remove(Ip("10.0.0.9")); // absent: no effect
    EXPECT_EQ(t->GetSize(Seconds(1)), 1u);
    EXPECT_EQ(t->Lookup(Ip("10.0.0.4"), Seconds(1)), 3u);
    EXPECT_TRUE(traces.expired.empty()); // removal is not expiry
}

// REQ: CS-07
TEST(AdcPersistenceTable, SupportMatrixExhaustive)
{
    // NetScaler's persistence support matrix, written out by hand (1 = supported).
    const std::vector<std::string> services =
        {"HTTP", "HTTPS", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP", "RTSP", "SIP_UDP"};

    struct Row
    {
        AdcPersistenceType type;
        const char* yes; // one character per service type: '1' = supported
    };

    const std::vector<Row> matrix = {
        {AdcPersistenceType::NONE, "11111111"},
        {AdcPersistenceType::SOURCEIP, "11111100"},
        {AdcPersistenceType::COOKIEINSERT, "11000000"},
        {AdcPersistenceType::SSLSESSION, "01001100"},
    };
    int checked = 0;
    for (const auto& row : matrix)
    {
        for (std::size_t s = 0; s < services.size(); ++s)
        {
            const std::string msg =
                ConfigErrorOf([&] { AdcPersistenceTable::CheckSupported(row.type, services[s]); });
            const std::string what = AdcPersistenceTypeToString(row.type) + " on " + services[s];
            if (row.yes[s] == '1')
            {
                EXPECT_EQ(msg, "") << what;
            }
            else
            {
                EXPECT_NE(msg.find(AdcPersistenceTypeToString(row.type)), std::string::npos)
                    << what << ": " << msg;
                EXPECT_NE(msg.find(services[s]), std::string::npos) << what << ": " << msg;
                // The allowed service types are listed.
                for (std::size_t a = 0; a < services.size(); ++a)
                {
                    if (row.yes[a] == '1')
                    {
                        EXPECT_NE(msg.find(services[a]), std::string::npos) << what << ": " << msg;
                    }
                }
            }
            ++checked;
        }
    }
    EXPECT_EQ(checked, 32);
    // Spot check the exact allowed list of COOKIEINSERT.
    const std::string msg = ConfigErrorOf(
        [] { AdcPersistenceTable::CheckSupported(AdcPersistenceType::COOKIEINSERT, "TCP"); });
    EXPECT_NE(msg.find("allowed on HTTP, HTTPS"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("SSL_TCP"), std::string::npos) << msg;
}

// REQ: CS-07
TEST(AdcPersistenceTable, SupportMatrixServiceNames)
{
    // UDP/IP is NetScaler's name for UDP; names are case-insensitive.
    EXPECT_NO_THROW(AdcPersistenceTable::CheckSupported(AdcPersistenceType::SOURCEIP, "UDP/IP"));
    EXPECT_NO_THROW(AdcPersistenceTable::CheckSupported(AdcPersistenceType::SSLSESSION, "https"));
    // ANY is known: NONE is allowed on it, the others are not.
    EXPECT_NO_THROW(AdcPersistenceTable::CheckSupported(AdcPersistenceType::NONE, "ANY"));
    EXPECT_THROW(AdcPersistenceTable::CheckSupported(AdcPersistenceType::COOKIEINSERT, "ANY"),
                 AdcConfigError);
    const std::string msg =
        ConfigErrorOf([] { AdcPersistenceTable::CheckSupported(AdcPersistenceType::NONE, "FTP"); });
    EXPECT_NE(msg.find("'FTP'"), std::string::npos) << msg;
    for (const char* known :
         {"HTTP", "HTTPS", "TCP", "UDP", "SSL_BRIDGE", "SSL_TCP", "RTSP", "SIP_UDP", "ANY"})
    {
        EXPECT_NE(msg.find(known), std::string::npos) << msg;
    }
}

// ---------------------------------------------------------------------------------------------
// The flat table (issue 13): expiry lists per timeout, dense storage, open-addressing index.

namespace
{

/// Records the targets of the "Expired" trace in order.
struct ExpiredTargets
{
    std::vector<uint32_t> targets; //!< in trace order

    void OnExpired(const AdcPersistenceKey&, uint32_t target)
    {
        targets.push_back(target);
    }
};

/// \return the /32 SOURCEIP key of 10.0.0.0 + \p i
AdcPersistenceKey
IpN(uint32_t i)
{
    return AdcPersistenceKey::FromSourceIp(Ipv4Address(Ipv4Address("10.0.0.0").Get() + i), 32);
}

} // namespace

// REQ: CS-06
TEST(AdcPersistenceTable, MixedTimeoutsExpireInExpiryOrder)
{
    // 1000 entries inserted at i ms with timeouts 5, 7, 11, 13 s in turn; every third one is
    // looked up (refreshed) at 1000 + i/3 ms. Expected expiry = last refresh + own timeout;
    // timeouts differ by >= 2 s and insert/refresh times by < 2 s, so expiries never tie.
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(10));
    ExpiredTargets seen;
    ASSERT_TRUE(
        t->TraceConnectWithoutContext("Expired", MakeCallback(&ExpiredTargets::OnExpired, &seen)));
    const int64_t timeoutsMs[] = {5000, 7000, 11000, 13000};
    std::vector<std::pair<int64_t, uint32_t>> expected; // (expiry ms, target)
    std::vector<int64_t> expiryMs(1000);
    for (uint32_t i = 0; i < 1000; ++i)
    {
        const int64_t timeout = timeoutsMs[i % 4];
        ASSERT_TRUE(t->Insert(IpN(i), i, MilliSeconds(i), MilliSeconds(timeout)));
        expiryMs[i] = i + timeout;
    }
    for (uint32_t i = 0; i < 1000; i += 3)
    {
        const int64_t now = 1000 + i / 3;
        ASSERT_EQ(t->Lookup(IpN(i), MilliSeconds(now)), i);
        expiryMs[i] = now + timeoutsMs[i % 4];
    }
    for (uint32_t i = 0; i < 1000; ++i)
    {
        expected.emplace_back(expiryMs[i], i);
    }
    std::sort(expected.begin(), expected.end());
    for (std::size_t k = 1; k < expected.size(); ++k)
    {
        ASSERT_LT(expected[k - 1].first, expected[k].first) << "the test's expiries must not tie";
    }
    // Purge in steps; after each, exactly the entries with expiry <= now are gone, in order.
    for (int64_t nowMs : {6000, 9500, 12000, 12000, 13500, 30000})
    {
        t->Purge(MilliSeconds(nowMs));
        std::size_t gone = 0;
        while (gone < expected.size() && expected[gone].first <= nowMs)
        {
            ++gone;
        }
        ASSERT_EQ(seen.targets.size(), gone) << "at " << nowMs << " ms";
        for (std::size_t k = 0; k < gone; ++k)
        {
            ASSERT_EQ(seen.targets[k], expected[k].second) << "expiry #" << k;
        }
        EXPECT_EQ(t->GetSize(MilliSeconds(nowMs)), expected.size() - gone);
    }
    EXPECT_EQ(t->GetExpirations(), 1000u);
}

namespace
{

/// The reference model of the table: a std::map, purged by scanning.
struct ModelEntry
{
    uint32_t target;
    int64_t timeoutNs;
    int64_t expiryNs;
};

using Model = std::map<std::pair<int, std::string>, ModelEntry>;

/// \return the key of model entry \p k
AdcPersistenceKey
KeyOfModel(const std::pair<int, std::string>& k)
{
    AdcPersistenceKey key;
    key.type = static_cast<AdcPersistenceType>(k.first);
    key.bytes = k.second;
    return key;
}

/// \param m the model \param now ns: remove expired entries \return their (key, target), sorted
std::vector<std::pair<std::string, uint32_t>>
PurgeModel(Model& m, int64_t now)
{
    std::vector<std::pair<std::string, uint32_t>> out;
    for (auto it = m.begin(); it != m.end();)
    {
        if (it->second.expiryNs <= now)
        {
            out.emplace_back(KeyOfModel(it->first).ToString(), it->second.target);
            it = m.erase(it);
        }
        else
        {
            ++it;
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// Records the "Expired" trace with the expiry order check.
struct ExpiredLog
{
    std::vector<std::pair<std::string, uint32_t>> items; //!< (key, target) since the last take

    void OnExpired(const AdcPersistenceKey& k, uint32_t target)
    {
        items.emplace_back(k.ToString(), target);
    }

    /// \return the items, sorted, and clears them
    std::vector<std::pair<std::string, uint32_t>> Take()
    {
        auto out = items;
        items.clear();
        std::sort(out.begin(), out.end());
        return out;
    }
};

} // namespace

// REQ: CS-06
TEST(AdcPersistenceTable, RandomOperationsMatchMapModel)
{
    // 20,000 random operations over ~450 keys of every kind (IPv4 / IPv6 SOURCEIP, 32-byte SSL
    // session ids, short and long cookies), with four timeouts; the std::map model is the
    // reference for every result, the size and the set of entries each operation expires.
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(5));
    t->SetAttribute("MaxEntries", UintegerValue(0));
    ExpiredLog log;
    ASSERT_TRUE(
        t->TraceConnectWithoutContext("Expired", MakeCallback(&ExpiredLog::OnExpired, &log)));
    std::vector<AdcPersistenceKey> keys;
    for (uint32_t i = 0; i < 200; ++i)
    {
        keys.push_back(IpN(i * 7));
    }
    for (uint32_t i = 0; i < 50; ++i)
    {
        uint8_t a[16] = {0x20, 0x01, 0x0d, 0xb8};
        a[15] = static_cast<uint8_t>(i);
        keys.push_back(AdcPersistenceKey::FromSourceIp(Ipv6Address(a), 128));
        std::vector<uint8_t> id(32, static_cast<uint8_t>(i));
        id[31] = 0; // a zero byte inside the key
        keys.push_back(AdcPersistenceKey::FromSslSessionId(id));
        keys.push_back(
            AdcPersistenceKey::FromCookie(std::string(33 + i * 5, 'c') + std::to_string(i)));
        keys.push_back(AdcPersistenceKey::FromCookie("NSC_" + std::to_string(i)));
    }
    keys.push_back(AdcPersistenceKey::FromCookie("")); // an empty key is a key too
    const int64_t timeouts[] = {-1, 1000000000, 3000000000, 10000000000}; // -1: the table's 5 s
    Model model;
    std::mt19937 rng(20261201);
    int64_t now = 0;
    uint32_t maxSize = 0;
    for (int op = 0; op < 20000; ++op)
    {
        // Mostly 0..10 ms steps (the table fills to hundreds), now and then a jump of up to
        // 12 s (mass expiry).
        now += std::uniform_int_distribution<int>(0, 199)(rng) == 0
                   ? std::uniform_int_distribution<int64_t>(0, 12000000000)(rng)
                   : std::uniform_int_distribution<int64_t>(0, 10000000)(rng);
        const AdcPersistenceKey& key =
            keys[std::uniform_int_distribution<std::size_t>(0, keys.size() - 1)(rng)];
        const std::pair<int, std::string> mk{static_cast<int>(key.type), key.bytes};
        const int kind = std::uniform_int_distribution<int>(0, 999)(rng);
        std::vector<std::pair<std::string, uint32_t>> modelExpired;
        const std::string what =
            "op " + std::to_string(op) + " kind " + std::to_string(kind) + " key " + key.ToString();
        if (kind < 400) // lookup
        {
            modelExpired = PurgeModel(model, now);
            auto it = model.find(mk);
            std::optional<uint32_t> expect;
            if (it != model.end())
            {
                it->second.expiryNs = now + it->second.timeoutNs;
                expect = it->second.target;
            }
            ASSERT_EQ(t->Lookup(key, NanoSeconds(now)), expect) << what;
        }
        else if (kind < 800) // insert or update
        {
            modelExpired = PurgeModel(model, now);
            const int64_t given = timeouts[std::uniform_int_distribution<int>(0, 3)(rng)];
            const int64_t timeout = given < 0 ? 5000000000 : given;
            const uint32_t target = std::uniform_int_distribution<uint32_t>(0, 9)(rng);
            model[mk] = ModelEntry{target, timeout, now + timeout};
            ASSERT_TRUE(t->Insert(key, target, NanoSeconds(now), NanoSeconds(given))) << what;
        }
        else if (kind < 900) // remove (no purge)
        {
            model.erase(mk);
            t->Remove(key);
        }
        else if (kind < 905) // remove a target (no purge; expired, unpurged entries count)
        {
            const uint32_t target = std::uniform_int_distribution<uint32_t>(0, 9)(rng);
            uint32_t expect = 0;
            for (auto it = model.begin(); it != model.end();)
            {
                if (it->second.target == target)
                {
                    it = model.erase(it);
                    ++expect;
                }
                else
                {
                    ++it;
                }
            }
            ASSERT_EQ(t->RemoveTarget(target), expect) << what;
        }
        else if (kind < 960) // purge
        {
            modelExpired = PurgeModel(model, now);
            t->Purge(NanoSeconds(now));
        }
        else // size
        {
            modelExpired = PurgeModel(model, now);
            ASSERT_EQ(t->GetSize(NanoSeconds(now)), model.size()) << what;
        }
        ASSERT_EQ(log.Take(), modelExpired) << what;
        maxSize = std::max<uint32_t>(maxSize, static_cast<uint32_t>(model.size()));
        if (op % 1000 == 999) // every key is where the model says
        {
            for (const auto& kv : model)
            {
                if (kv.second.expiryNs > now)
                {
                    // A lookup refreshes: mirror it in the model.
                    Model::iterator it = model.find(kv.first);
                    it->second.expiryNs = now + it->second.timeoutNs;
                    ASSERT_EQ(t->Lookup(KeyOfModel(kv.first), NanoSeconds(now)), kv.second.target);
                }
            }
            ASSERT_EQ(log.Take(), PurgeModel(model, now)); // the first lookup purged these
        }
    }
    EXPECT_GT(maxSize, 150u); // the index grew and shrank through several sizes
    EXPECT_GT(t->GetExpirations(), 1000u);
    EXPECT_GT(t->GetUpdates(), 100u);
}

TEST(AdcPersistenceTable, LongCookieKeys)
{
    // Cookies longer than 32 bytes live in their own block; keys differing in the last byte
    // or only in length are distinct; the trace gives the whole key.
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(10));
    PersistenceTraces traces;
    traces.Connect(t);
    const std::string base(1000, 'x');
    const std::size_t empty = t->GetAllocatedBytes();
    t->Insert(AdcPersistenceKey::FromCookie(base + "a"), 1, Seconds(0));
    const std::size_t one = t->GetAllocatedBytes();
    EXPECT_GE(one - empty, 1001u); // at least the key's block
    t->Insert(AdcPersistenceKey::FromCookie(base + "b"), 2, Seconds(0));
    t->Insert(AdcPersistenceKey::FromCookie(base), 3, Seconds(1));
    t->Insert(AdcPersistenceKey::FromCookie(std::string(33, 'y')), 4, Seconds(1));
    t->Insert(AdcPersistenceKey::FromCookie(std::string(32, 'y')), 5, Seconds(1));
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie(base + "a"), Seconds(2)), 1u);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie(base + "b"), Seconds(2)), 2u);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie(base), Seconds(2)), 3u);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie(base + "c"), Seconds(2)), std::nullopt);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie(std::string(33, 'y')), Seconds(2)), 4u);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie(std::string(32, 'y')), Seconds(2)), 5u);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromSslSessionId(base + "a"), Seconds(2)), std::nullopt);
    t->Remove(AdcPersistenceKey::FromCookie(base + "b"));
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie(base + "a"), Seconds(3)), 1u);
    EXPECT_EQ(t->Lookup(AdcPersistenceKey::FromCookie(base + "b"), Seconds(3)), std::nullopt);
    // One timeout, so entries leave in refresh order: base, 33 y and 32 y were last refreshed
    // at 2 s (expire 12 s, in that lookup order), base + "a" at 3 s (expires 13 s).
    t->Purge(Seconds(20));
    ASSERT_EQ(traces.expired.size(), 4u);
    EXPECT_EQ(traces.expired[0], std::make_pair("COOKIEINSERT " + base, 3u));
    EXPECT_EQ(traces.expired[1], std::make_pair("COOKIEINSERT " + std::string(33, 'y'), 4u));
    EXPECT_EQ(traces.expired[2], std::make_pair("COOKIEINSERT " + std::string(32, 'y'), 5u));
    EXPECT_EQ(traces.expired[3], std::make_pair("COOKIEINSERT " + base + "a", 1u));
    EXPECT_LT(t->GetAllocatedBytes(), one); // the long keys' blocks are freed
}

TEST(AdcPersistenceTable, IndexGrowsAndShrinksKeepingKeys)
{
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(100));
    const std::size_t empty = t->GetAllocatedBytes();
    std::size_t last = empty;
    std::size_t at1000 = 0;
    for (uint32_t i = 0; i < 10000; ++i)
    {
        ASSERT_TRUE(t->Insert(IpN(i), i, Seconds(0)));
        EXPECT_GE(t->GetAllocatedBytes(), last) << i; // storage and index only grow
        last = t->GetAllocatedBytes();
        if (i == 999)
        {
            at1000 = last;
        }
    }
    EXPECT_GT(last, 4 * at1000); // 10 times the entries: storage and index grew
    for (uint32_t i = 0; i < 10000; ++i)
    {
        ASSERT_EQ(t->Lookup(IpN(i), Seconds(1)), i);
    }
    // Remove all but every 100th, in an order that empties the middle first.
    for (uint32_t i = 5000; i < 10000; ++i)
    {
        if (i % 100 != 0)
        {
            t->Remove(IpN(i));
        }
    }
    for (uint32_t i = 0; i < 5000; ++i)
    {
        if (i % 100 != 0)
        {
            t->Remove(IpN(i));
        }
    }
    EXPECT_EQ(t->GetSize(Seconds(2)), 100u);
    for (uint32_t i = 0; i < 10000; ++i)
    {
        ASSERT_EQ(t->Lookup(IpN(i), Seconds(2)),
                  i % 100 == 0 ? std::optional<uint32_t>(i) : std::nullopt)
            << i;
    }
    EXPECT_LT(t->GetAllocatedBytes(), last / 2); // chunks and index released
    EXPECT_GT(t->GetAllocatedBytes(), empty);
}

// REQ: CS-06
TEST(AdcPersistenceTable, EvictOldestWithTwoTimeoutClasses)
{
    Ptr<AdcPersistenceTable> t = MakeTable(Seconds(100));
    t->SetAttribute("MaxEntries", UintegerValue(4));
    t->SetAttribute("OverflowPolicy", EnumValue(AdcPersistenceTable::EVICT_OLDEST));
    PersistenceTraces traces;
    traces.Connect(t);
    t->Insert(Ip("10.0.0.1"), 1, Seconds(0));              // 100 s class: expires 100 s
    t->Insert(Ip("10.0.0.2"), 2, Seconds(1), Seconds(10)); // 10 s class: expires 11 s
    t->Insert(Ip("10.0.0.3"), 3, Seconds(2));              // expires 102 s
    t->Insert(Ip("10.0.0.4"), 4, Seconds(3), Seconds(10)); // expires 13 s
    t->Insert(Ip("10.0.0.5"), 5, Seconds(4));              // evicts .2 (11 s); expires 104 s
    t->Insert(Ip("10.0.0.6"), 6, Seconds(5));              // evicts .4 (13 s); expires 105 s
    t->Insert(Ip("10.0.0.7"), 7, Seconds(6), Seconds(10)); // evicts .1 (100 s); expires 16 s
    EXPECT_EQ(t->Lookup(Ip("10.0.0.3"), Seconds(7)), 3u);  // .3 now expires 107 s
    t->Insert(Ip("10.0.0.8"), 8, Seconds(8));              // evicts .7 (16 s)
    t->Insert(Ip("10.0.0.9"), 9, Seconds(9), Seconds(10)); // evicts .5 (104 s)
    std::vector<uint32_t> evicted;
    for (const auto& e : traces.evicted)
    {
        evicted.push_back(e.second);
    }
    EXPECT_EQ(evicted, (std::vector<uint32_t>{2, 4, 1, 7, 5}));
    EXPECT_EQ(t->GetEvictions(), 5u);
    EXPECT_TRUE(traces.expired.empty());
    EXPECT_EQ(t->GetSize(Seconds(9)), 4u);
    // Equal expiry in two classes: the entry filed first (the older class) goes first.
    Ptr<AdcPersistenceTable> u = MakeTable(Seconds(20));
    u->SetAttribute("MaxEntries", UintegerValue(2));
    u->SetAttribute("OverflowPolicy", EnumValue(AdcPersistenceTable::EVICT_OLDEST));
    PersistenceTraces tu;
    tu.Connect(u);
    u->Insert(Ip("10.0.1.1"), 1, Seconds(0));               // 20 s class: expires 20 s
    u->Insert(Ip("10.0.1.2"), 2, Seconds(10), Seconds(10)); // 10 s class: expires 20 s
    u->Insert(Ip("10.0.1.3"), 3, Seconds(11));
    ASSERT_EQ(tu.evicted.size(), 1u);
    EXPECT_EQ(tu.evicted[0].second, 1u);
}

// REQ: CS-06, issue 13 memory target
TEST_F(AdcPersistenceTableScale, BytesPerEntryAtMost96For100000Ipv4SourceIp)
{
    // bench/cs-bench.cc's measurement: 100,000 IPv4 SOURCEIP keys, one timeout.
    Ptr<AdcPersistenceTable> t = CreateObject<AdcPersistenceTable>();
    t->SetAttribute("MaxEntries", UintegerValue(100000));
    for (uint32_t i = 0; i < 100000; ++i)
    {
        const AdcPersistenceKey key =
            AdcPersistenceKey::FromSourceIp(AdcIpAddress(Ipv4Address(0x0a000000u + i)));
        ASSERT_TRUE(t->Insert(key, i % 4, Seconds(0), Minutes(2)));
    }
    ASSERT_EQ(t->GetSize(Seconds(0)), 100000u);
    EXPECT_LE(t->GetBytesPerEntry(), 96u);
    EXPECT_EQ(t->GetBytesPerEntry(), (t->GetAllocatedBytes() + 99999) / 100000);
    // A full table stays under the target after half its entries go (chunks are released).
    for (uint32_t i = 0; i < 50000; ++i)
    {
        t->Remove(AdcPersistenceKey::FromSourceIp(AdcIpAddress(Ipv4Address(0x0a000000u + i))));
    }
    EXPECT_LE(t->GetBytesPerEntry(), 96u);
}
