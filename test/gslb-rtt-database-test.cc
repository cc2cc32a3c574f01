/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of GslbRttDatabase (tolerance, remote values, best site, expiry, compact storage) and
 * of the GSLB load-balancing methods RTT and STATICPROXIMITY.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/core-module.h"
#include "ns3/gslb-lb-methods.h"
#include "ns3/gslb-rtt-database.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using adctest::ConfigErrorOf;
using adctest::Has;

namespace
{

/// One "Update" trace record.
struct Update
{
    AdcIpAddress ldns; //!< the LDNS
    uint32_t site;     //!< the site
    int32_t oldMs;     //!< value before
    int32_t newMs;     //!< value given
    std::string src;   //!< "local" or "mep"
    bool stored;       //!< stored
};

/// Collects a database's traces.
struct DbRecorder
{
    std::vector<Update> updates;       //!< "Update"
    std::vector<AdcIpAddress> expired; //!< "Expire"
    std::vector<Time> expiredAt;       //!< when

    /// \param db the database
    void Attach(Ptr<GslbRttDatabase> db)
    {
        db->TraceConnectWithoutContext("Update", MakeCallback(&DbRecorder::OnUpdate, this));
        db->TraceConnectWithoutContext("Expire", MakeCallback(&DbRecorder::OnExpire, this));
    }

    void OnUpdate(const AdcIpAddress& ldns,
                  uint32_t site,
                  int32_t oldMs,
                  int32_t newMs,
                  const std::string& src,
                  bool stored)
    {
        updates.push_back({ldns, site, oldMs, newMs, src, stored});
    }

    void OnExpire(const AdcIpAddress& ldns)
    {
        expired.push_back(ldns);
        expiredAt.push_back(Simulator::Now());
    }
};

/// \param n sites \param local the local site \return a database with sites s0..s<n-1>
Ptr<GslbRttDatabase>
MakeDb(uint32_t n, uint32_t local)
{
    Ptr<GslbRttDatabase> db = CreateObject<GslbRttDatabase>();
    std::vector<std::string> names;
    for (uint32_t i = 0; i < n; ++i)
    {
        names.push_back("s" + std::to_string(i));
    }
    db->SetSites(names, local);
    return db;
}

/// \param i an index \return a distinct IPv4 LDNS address 10.x.y.z
AdcIpAddress
Ldns(uint32_t i)
{
    return Ipv4Address(0x0A000000U + i + 1);
}

/// \param t a time \return its milliseconds
int64_t
Ms(std::optional<Time> t)
{
    return t ? t->GetMilliSeconds() : -1;
}

/// Checks the stored/not-stored decisions of a sequence against the tolerance rule.
void
CheckToleranceSequence(Time tolerance)
{
    Ptr<GslbRttDatabase> db = MakeDb(3, 1);
    db->SetAttribute("Tolerance", TimeValue(tolerance));
    DbRecorder rec;
    rec.Attach(db);
    const AdcIpAddress ldns = Ipv4Address("198.51.100.7");
    const int64_t tol = tolerance.GetMilliSeconds();
    const int64_t base = 20;
    // (value, stored): the first value is always stored; later ones only when they differ
    // from the last stored value by more than the tolerance, up or down.
    const std::vector<std::pair<int64_t, bool>> steps = {
        {base, true},
        {base + tol - 1, false}, // within
        {base + tol, false},     // exactly the tolerance: not more
        {base + tol + 1, true},  // above: stored, the new reference
        {base + 2 * tol, false}, // tol - 1 above the new reference
        {base, true},            // tol + 1 below it
        {base - tol, false},     // exactly the tolerance below
    };
    int64_t reference = -1;
    for (const auto& [value, stored] : steps)
    {
        EXPECT_EQ(db->UpdateLocal(ldns, MilliSeconds(value)), stored) << "value " << value;
        ASSERT_FALSE(rec.updates.empty());
        const Update& u = rec.updates.back();
        EXPECT_EQ(u.site, 1U);
        EXPECT_EQ(u.src, "local");
        EXPECT_EQ(u.newMs, value);
        EXPECT_EQ(u.oldMs, reference);
        EXPECT_EQ(u.stored, stored);
        if (stored)
        {
            reference = value;
        }
        EXPECT_EQ(Ms(db->GetRtt(ldns, 1)), reference);
    }
    EXPECT_EQ(rec.updates.size(), steps.size());
}

} // namespace

// ---- GslbRttDatabase --------------------------------------------------------------------------

TEST(GslbRttDatabase, LocalValuesStoredOnlyAboveDefaultTolerance)
{
    // REQ: GSLB-09 (default tolerance 5 ms: 20 stored, 24 not, 26 stored)
    Ptr<GslbRttDatabase> db = MakeDb(3, 0);
    TimeValue tol;
    db->GetAttribute("Tolerance", tol);
    ASSERT_EQ(tol.Get(), MilliSeconds(5));
    const AdcIpAddress ldns = Ipv4Address("192.0.2.53");
    const int64_t t = tol.Get().GetMilliSeconds();
    EXPECT_TRUE(db->UpdateLocal(ldns, MilliSeconds(20)));
    EXPECT_FALSE(db->UpdateLocal(ldns, MilliSeconds(20 + t - 1)));
    EXPECT_EQ(Ms(db->GetRtt(ldns, 0)), 20);
    EXPECT_TRUE(db->UpdateLocal(ldns, MilliSeconds(20 + t + 1)));
    EXPECT_EQ(Ms(db->GetRtt(ldns, 0)), 20 + t + 1);
    CheckToleranceSequence(tol.Get());
}

TEST(GslbRttDatabase, OtherToleranceMovesTheThresholds)
{
    // REQ: GSLB-09 (set gslb vserver -tolerance 10: thresholds follow it)
    CheckToleranceSequence(MilliSeconds(10));
    CheckToleranceSequence(MilliSeconds(1));
    // Tolerance 0: every change is stored, a repeated value is not.
    Ptr<GslbRttDatabase> db = MakeDb(2, 0);
    db->SetAttribute("Tolerance", TimeValue(Seconds(0)));
    const AdcIpAddress ldns = Ipv4Address("192.0.2.9");
    EXPECT_TRUE(db->UpdateLocal(ldns, MilliSeconds(20)));
    EXPECT_FALSE(db->UpdateLocal(ldns, MilliSeconds(20)));
    EXPECT_TRUE(db->UpdateLocal(ldns, MilliSeconds(21)));
    EXPECT_TRUE(db->UpdateLocal(ldns, MilliSeconds(20)));
}

TEST(GslbRttDatabase, MeasurementsRoundToTheMillisecond)
{
    // REQ: GSLB-09 (what is compared is what MEP carries: whole milliseconds)
    Ptr<GslbRttDatabase> db = MakeDb(2, 0);
    const AdcIpAddress ldns = Ipv4Address("192.0.2.1");
    EXPECT_TRUE(db->UpdateLocal(ldns, MicroSeconds(20400)));
    EXPECT_EQ(Ms(db->GetRtt(ldns, 0)), 20);
    // 25.4 ms rounds to 25: exactly the tolerance above 20, so not stored.
    EXPECT_FALSE(db->UpdateLocal(ldns, MicroSeconds(25400)));
    EXPECT_TRUE(db->UpdateLocal(ldns, MicroSeconds(25500))); // rounds to 26
    EXPECT_EQ(Ms(db->GetRtt(ldns, 0)), 26);
    EXPECT_TRUE(db->UpdateLocal(ldns, Seconds(100)));
    EXPECT_EQ(Ms(db->GetRtt(ldns, 0)), GslbRttDatabase::kMaxRttMs);
}

TEST(GslbRttDatabase, RemoteValuesAndBestSite)
{
    // REQ: GSLB-07 (sorting the sites' RTTs: the smallest wins, ties to the lowest site index)
    Ptr<GslbRttDatabase> db = MakeDb(4, 2);
    DbRecorder rec;
    rec.Attach(db);
    const AdcIpAddress ldns = Ipv4Address("203.0.113.9");
    const std::vector<bool> all(4, true);
    EXPECT_EQ(db->GetBestSite(ldns, all), -1); // unknown LDNS
    db->UpdateRemote(0, ldns, MilliSeconds(40));
    db->UpdateRemote(1, ldns, MilliSeconds(15));
    db->UpdateRemote(3, ldns, MilliSeconds(15));
    EXPECT_TRUE(db->UpdateLocal(ldns, MilliSeconds(30)));
    EXPECT_EQ(db->GetBestSite(ldns, all), 1); // 15 at sites 1 and 3: the lower index
    EXPECT_EQ(db->GetBestSite(ldns, {true, false, true, true}), 3);
    EXPECT_EQ(db->GetBestSite(ldns, {true, false, true, false}), 2);
    EXPECT_EQ(db->GetBestSite(ldns, {false, false, false, false}), -1);
    // A remote update always replaces the value, whatever the tolerance.
    db->UpdateRemote(0, ldns, MilliSeconds(14));
    EXPECT_EQ(db->GetBestSite(ldns, all), 0);
    EXPECT_EQ(Ms(db->GetRtt(ldns, 0)), 14);
    ASSERT_EQ(rec.updates.size(), 5U);
    EXPECT_EQ(rec.updates[4].src, "mep");
    EXPECT_EQ(rec.updates[4].oldMs, 40);
    EXPECT_EQ(rec.updates[4].newMs, 14);
    EXPECT_TRUE(rec.updates[4].stored);
    EXPECT_EQ(rec.updates[0].oldMs, -1);
    // Bad input names the setting.
    EXPECT_TRUE(Has(ConfigErrorOf([&] { db->UpdateRemote(2, ldns, MilliSeconds(1)); }),
                    "is the local site"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { db->UpdateRemote(4, ldns, MilliSeconds(1)); }),
                    "site '4' is not a site index; allowed 0 to 3"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { db->GetBestSite(ldns, {true}); }), "candidate flags"));
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { db->UpdateLocal(ldns, MilliSeconds(-1)); }), "is negative"));
    EXPECT_EQ(db->GetSiteName(3), "s3");
    EXPECT_EQ(db->GetNSites(), 4U);
    EXPECT_EQ(db->GetLocalSite(), 2U);
}

TEST(GslbRttDatabase, SiteListIsChecked)
{
    Ptr<GslbRttDatabase> db = CreateObject<GslbRttDatabase>();
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { db->Touch(Ipv4Address("1.2.3.4")); }), "call SetSites first"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { db->SetSites({}, 0); }), "allowed 1 to 32"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { db->SetSites(std::vector<std::string>(33, "x"), 0); }),
                    "33 sites given; allowed 1 to 32"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] {
                        db->SetSites({"a", "b", "a"}, 0);
                    }),
                    "'a' is given twice"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] {
                        db->SetSites({"a", "b"}, 2);
                    }),
                    "local site '2' is not a site index; allowed 0 to 1"));
    db->SetAttribute("EntryTimeout", TimeValue(Seconds(0)));
    db->SetSites({"a"}, 0);
    EXPECT_TRUE(Has(ConfigErrorOf([&] { db->Touch(Ipv4Address("1.2.3.4")); }), "EntryTimeout"));
}

TEST(GslbRttDatabase, Ipv4AndIpv6LdnsAreDistinctEntries)
{
    // REQ: GSLB-01 (an LDNS may be IPv4 or IPv6)
    Ptr<GslbRttDatabase> db = MakeDb(3, 0);
    const AdcIpAddress v4 = Ipv4Address("192.0.2.1");
    const AdcIpAddress v6 = Ipv6Address("2001:db8::1");
    const AdcIpAddress v6b = Ipv6Address("c000:201::"); // same first four bytes as v4
    db->UpdateLocal(v4, MilliSeconds(10));
    db->UpdateLocal(v6, MilliSeconds(20));
    db->UpdateRemote(1, v6b, MilliSeconds(30));
    EXPECT_EQ(db->GetNEntries(), 3U);
    EXPECT_EQ(Ms(db->GetRtt(v4, 0)), 10);
    EXPECT_EQ(Ms(db->GetRtt(v6, 0)), 20);
    EXPECT_EQ(Ms(db->GetRtt(v6b, 0)), -1);
    EXPECT_EQ(Ms(db->GetRtt(v6b, 1)), 30);
    EXPECT_EQ(db->GetLdnsAddresses().size(), 3U);
}

TEST(GslbRttDatabase, EntriesExpireAfterEntryTimeout)
{
    // REQ: GSLB-01 (ldnsentrytimeout: an LDNS neither updated nor queried is forgotten)
    Ptr<GslbRttDatabase> db = MakeDb(2, 0);
    const Time timeout = Seconds(30);
    db->SetAttribute("EntryTimeout", TimeValue(timeout));
    DbRecorder rec;
    rec.Attach(db);
    const AdcIpAddress a = Ipv4Address("192.0.2.1"); // updated once
    const AdcIpAddress b = Ipv4Address("192.0.2.2"); // touched (queried) later
    const AdcIpAddress c = Ipv4Address("192.0.2.3"); // re-measured within tolerance only
    const Time t0 = Seconds(1);
    const Time touch = t0 + Seconds(10);
    std::vector<int64_t> seen;
    Simulator::Schedule(t0, [&] {
        db->UpdateLocal(a, MilliSeconds(10));
        db->UpdateLocal(b, MilliSeconds(10));
        db->UpdateLocal(c, MilliSeconds(10));
    });
    Simulator::Schedule(touch, [&] {
        db->Touch(b);
        EXPECT_FALSE(db->UpdateLocal(c, MilliSeconds(11))); // not stored: no activity
    });
    // Just before a's timeout it is known; at the timeout it is gone (const query).
    Simulator::Schedule(t0 + timeout - MilliSeconds(1), [&] {
        seen.push_back(Ms(db->GetRtt(a, 0)));
        seen.push_back(Ms(db->GetRtt(c, 0)));
    });
    Simulator::Schedule(t0 + timeout, [&] {
        seen.push_back(Ms(db->GetRtt(a, 0)));
        seen.push_back(Ms(db->GetRtt(c, 0)));
        seen.push_back(Ms(db->GetRtt(b, 0)));
        EXPECT_EQ(db->GetBestSite(a, {true, true}), -1);
        EXPECT_EQ(db->GetLdnsAddresses(), std::vector<AdcIpAddress>{b});
    });
    Simulator::Schedule(touch + timeout - MilliSeconds(1),
                        [&] { seen.push_back(Ms(db->GetRtt(b, 0))); });
    // A change after the sweep interval removes every expired entry.
    Simulator::Schedule(touch + timeout, [&] {
        db->Touch(Ipv4Address("192.0.2.99"));
        seen.push_back(Ms(db->GetRtt(b, 0)));
    });
    Simulator::Run();
    EXPECT_EQ(seen, (std::vector<int64_t>{10, 10, -1, -1, 10, 10, -1}));
    ASSERT_EQ(rec.expired.size(), 3U);
    EXPECT_EQ(rec.expiredAt[0], touch + timeout);
    EXPECT_EQ(db->GetNEntries(), 1U);
    // An expired LDNS measured again starts afresh: no old value to compare with.
    EXPECT_TRUE(db->UpdateLocal(a, MilliSeconds(12)));
    EXPECT_EQ(rec.updates.back().oldMs, -1);
    Simulator::Destroy();
}

TEST(GslbRttDatabase, CompactAtOneHundredThousandLdns)
{
    // REQ: GSLB-01 (issue 12: at most 64 bytes per LDNS entry, table overhead included)
    const uint32_t n = 100000;
    const uint32_t sites = 4;
    Ptr<GslbRttDatabase> db = MakeDb(sites, 0);
    db->SetAttribute("EntryTimeout", TimeValue(Seconds(100)));
    uint64_t expired = 0;
    db->TraceConnectWithoutContext(
        "Expire",
        Callback<void, const AdcIpAddress&>([&expired](const AdcIpAddress&) { ++expired; }));
    auto rttOf = [](uint32_t i, uint32_t s) { return MilliSeconds(1 + (i * 7 + s * 13) % 500); };
    Simulator::Schedule(Seconds(0), [&] {
        for (uint32_t i = 0; i < n; ++i)
        {
            db->UpdateLocal(Ldns(i), rttOf(i, 0));
            for (uint32_t s = 1; s < sites; ++s)
            {
                db->UpdateRemote(s, Ldns(i), rttOf(i, s));
            }
        }
        EXPECT_EQ(db->GetNEntries(), n);
        EXPECT_LE(db->GetBytesPerEntry(), 64.0);
        EXPECT_GT(db->GetBytesPerEntry(), 8.0 * sites); // the RTTs and a key at least
    });
    // Keep the even ones alive; after the timeout the odd ones are swept.
    Simulator::Schedule(Seconds(50), [&] {
        for (uint32_t i = 0; i < n; i += 2)
        {
            db->Touch(Ldns(i));
        }
    });
    Simulator::Schedule(Seconds(100), [&] {
        db->Touch(Ldns(0));
        EXPECT_EQ(expired, n / 2);
        EXPECT_EQ(db->GetNEntries(), n / 2);
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t s = 0; s < sites; ++s)
            {
                const int64_t want = i % 2 == 0 ? rttOf(i, s).GetMilliSeconds() : -1;
                wrong += Ms(db->GetRtt(Ldns(i), s)) == want ? 0 : 1;
            }
        }
        EXPECT_EQ(wrong, 0U);
    });
    Simulator::Run();
    Simulator::Destroy();
}

// ---- the GSLB load-balancing methods ----------------------------------------------------------

namespace
{

/// \param m a method \param names back-end names to add
void
AddBackends(Ptr<AdcLbMethod> m, const std::vector<std::string>& names)
{
    for (const std::string& name : names)
    {
        AdcBackend b;
        b.name = name;
        m->AddBackend(b);
    }
}

/// \param ldns an LDNS \return a context carrying it
AdcLbContext
Ctx(const AdcIpAddress& ldns)
{
    AdcLbContext c;
    c.ldns = ldns;
    return c;
}

/// Registers the GSLB methods for one test and removes them after it (the registry is
/// global: the core's tests list every method).
class GslbLbMethodsTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        GslbRegisterLbMethods();
    }

    void TearDown() override
    {
        AdcLbMethodRegistry::Unregister("RTT");
        AdcLbMethodRegistry::Unregister("STATICPROXIMITY");
    }
};

} // namespace

TEST_F(GslbLbMethodsTest, RegisteredByNameWithLdnsTrait)
{
    // REQ: GSLB-09 (set gslb vserver -lbMethod RTT names the method)
    using R = AdcLbMethodRegistry;
    GslbRegisterLbMethods(); // idempotent
    const std::vector<std::string> ldns = R::GetNames(R::NETSCALER, R::USES_LDNS);
    EXPECT_NE(std::find(ldns.begin(), ldns.end(), "RTT"), ldns.end());
    EXPECT_NE(std::find(ldns.begin(), ldns.end(), "STATICPROXIMITY"), ldns.end());
    EXPECT_EQ(R::Create("rtt", R::NETSCALER)->GetInstanceTypeId().GetName(), "ns3::GslbRttLb");
    EXPECT_EQ(R::Create("StaticProximity", R::NETSCALER)->GetMethodName(), "STATICPROXIMITY");
}

TEST_F(GslbLbMethodsTest, RttRotatesWithoutRttThenPicksTheLowest)
{
    // REQ: GSLB-08, GSLB-01
    Ptr<GslbRttLb> m =
        DynamicCast<GslbRttLb>(AdcLbMethodRegistry::Create("RTT", AdcLbMethodRegistry::NETSCALER));
    ASSERT_TRUE(m);
    Ptr<GslbRttDatabase> db = MakeDb(3, 0);
    m->SetDatabase(db);
    AddBackends(m, {"svc-a", "svc-b", "svc-c"});
    for (uint32_t s = 0; s < 3; ++s)
    {
        m->SetBackendSite("svc-" + std::string(1, char('a' + s)), s);
    }
    const AdcIpAddress ldns = Ipv4Address("198.51.100.1");
    // First seen: round robin in back-end order.
    std::vector<int32_t> first;
    for (int k = 0; k < 6; ++k)
    {
        first.push_back(m->Select(Ctx(ldns)));
        EXPECT_EQ(m->GetLastReason(), "backup-roundrobin-no-rtt");
    }
    EXPECT_EQ(first, (std::vector<int32_t>{0, 1, 2, 0, 1, 2}));
    // RTTs known: the lowest, every time.
    db->UpdateLocal(ldns, MilliSeconds(50));
    db->UpdateRemote(1, ldns, MilliSeconds(20));
    db->UpdateRemote(2, ldns, MilliSeconds(35));
    for (int k = 0; k < 3; ++k)
    {
        EXPECT_EQ(m->Select(Ctx(ldns)), 1);
        EXPECT_EQ(m->GetLastReason(), "rtt");
    }
    // The best site's back-end is down: its site is skipped, the next lowest wins.
    m->SetBackendUp(1, false);
    EXPECT_EQ(m->Select(Ctx(ldns)), 2);
    m->SetBackendUp(2, false);
    EXPECT_EQ(m->Select(Ctx(ldns)), 0);
    m->SetBackendUp(1, true);
    EXPECT_EQ(m->Select(Ctx(ldns)), 1);
    // No LDNS: round robin over the up back-ends (0 and 1).
    EXPECT_EQ(m->Select(AdcLbContext()), 0);
    EXPECT_EQ(m->GetLastReason(), "backup-roundrobin-no-ldns");
    EXPECT_EQ(m->Select(AdcLbContext()), 1);
    // A site the database does not have is refused.
    EXPECT_TRUE(Has(ConfigErrorOf([&] { m->SetBackendSite("svc-d", 3); }),
                    "site '3' is not a site of the RTT database; allowed 0 to 2"));
}

TEST_F(GslbLbMethodsTest, RttWithSeveralServicesAtOneSite)
{
    // REQ: GSLB-01 (the site decides; its first up service answers)
    Ptr<GslbRttLb> m = CreateObject<GslbRttLb>();
    AddBackends(m, {"x0", "y0", "x1"});
    m->SetBackendSite("x0", 0);
    m->SetBackendSite("y0", 0);
    m->SetBackendSite("x1", 1);
    const AdcIpAddress ldns = Ipv4Address("198.51.100.1");
    EXPECT_EQ(m->Select(Ctx(ldns)), 0); // no database: round robin
    EXPECT_EQ(m->GetLastReason(), "backup-roundrobin-no-rtt");
    Ptr<GslbRttDatabase> db = MakeDb(2, 1);
    m->SetDatabase(db);
    db->UpdateLocal(ldns, MilliSeconds(9));
    db->UpdateRemote(0, ldns, MilliSeconds(8));
    EXPECT_EQ(m->Select(Ctx(ldns)), 0);
    m->SetBackendUp(0, false);
    EXPECT_EQ(m->Select(Ctx(ldns)), 1);
    EXPECT_EQ(m->GetLastReason(), "rtt");
}

TEST_F(GslbLbMethodsTest, StaticProximityLongestPrefixWins)
{
    // REQ: GSLB-01 (static proximity: the LDNS's location decides)
    Ptr<GslbStaticProximityLb> m = DynamicCast<GslbStaticProximityLb>(
        AdcLbMethodRegistry::Create("STATICPROXIMITY", AdcLbMethodRegistry::NETSCALER));
    ASSERT_TRUE(m);
    AddBackends(m, {"eu", "us", "asia"});
    m->SetBackendRegion("eu", "Europe");
    m->SetBackendRegion("us", "America");
    m->SetBackendRegion("asia", "Asia");
    m->AddLocation(Ipv4Address("10.0.0.0"), 8, "Europe");
    m->AddLocation(Ipv4Address("10.20.0.0"), 16, "America");
    m->AddLocation(Ipv4Address("10.20.30.0"), 24, "Asia");
    m->AddLocation(Ipv6Address("2001:db8::"), 32, "Asia");
    EXPECT_EQ(m->Select(Ctx(Ipv4Address("10.1.2.3"))), 0);
    EXPECT_EQ(m->GetLastReason(), "proximity");
    EXPECT_EQ(m->Select(Ctx(Ipv4Address("10.20.2.3"))), 1);
    EXPECT_EQ(m->Select(Ctx(Ipv4Address("10.20.30.3"))), 2);
    EXPECT_EQ(m->Select(Ctx(Ipv6Address("2001:db8:1::5"))), 2);
    EXPECT_EQ(m->GetRegion(Ipv4Address("10.20.30.3")), "Asia");
    // Unknown LDNS: round robin.
    std::vector<int32_t> rotate;
    for (int k = 0; k < 4; ++k)
    {
        rotate.push_back(m->Select(Ctx(Ipv4Address("192.0.2.1"))));
        EXPECT_EQ(m->GetLastReason(), "backup-roundrobin-no-location");
    }
    EXPECT_EQ(rotate, (std::vector<int32_t>{0, 1, 2, 0}));
    // The region's service is down: round robin over the others.
    m->SetBackendUp(2, false);
    EXPECT_NE(m->Select(Ctx(Ipv4Address("10.20.30.3"))), 2);
    EXPECT_EQ(m->GetLastReason(), "backup-roundrobin-region-down");
    EXPECT_TRUE(Has(ConfigErrorOf([&] { m->AddLocation(Ipv4Address("10.0.0.0"), 33, "X"); }),
                    "prefix length '33' is out of range; allowed 0 to 32"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { m->AddLocation(Ipv4Address("10.9.9.9"), 8, "X"); }),
                    "'10.0.0.0/8' is already in region 'Europe'"));
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { m->AddLocation(Ipv4Address("11.0.0.0"), 8, ""); }), "empty"));
}
