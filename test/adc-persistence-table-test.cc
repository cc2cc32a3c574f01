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

#include <gtest/gtest.h>
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
