/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the one registry of load-balancing method names (AdcLbMethodRegistry): NetScaler's
 * names are canonical, ilbadm's are aliases of the same objects, subjects add their own, and
 * every setting gets the same error text listing what its vocabulary allows.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/crd-lower-tier.h"
#include "ns3/ipv4-address.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::adctest;

namespace
{

using Registry = AdcLbMethodRegistry;

/// Adds \p n back-ends "S0".."S<n-1>" to \p m.
void
AddBackends(Ptr<AdcLbMethod> m, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
    {
        AdcBackend b;
        b.name = "S" + std::to_string(i);
        b.address = Ipv4Address(0x0a000100 + i);
        m->AddBackend(b);
    }
}

/// \return flow \p i: client, port and VIP all vary
AdcLbContext
Flow(uint32_t i)
{
    AdcLbContext c;
    c.flow = AdcFlowKey(Ipv4Address(0x0b000000 + i * 7),
                        Ipv4Address(0xc0a80000 + i % 97),
                        static_cast<uint16_t>(1024 + i),
                        80,
                        AdcFlowKey::PROTO_TCP);
    return c;
}

/**
 * A subject's method, defined outside the core: a hash of one request header (the request
 * head travels in the context), the client IP at L4.
 */
class TestHeaderHashLb : public AdcRendezvousHashLb
{
  public:
    std::string GetMethodName() const override
    {
        return "TESTHEADERHASH";
    }

  protected:
    uint64_t KeyHash(const AdcLbContext& ctx) const override
    {
        const auto user = ctx.request ? ctx.request->GetHeader("X-User") : std::nullopt;
        return user ? AdcHash::String(*user, GetHashSeed())
                    : AdcHash::Address(ctx.flow.src, GetHashSeed());
    }
};

/**
 * A GSLB-like method of a subject: the back-end whose index is the last byte of the client's
 * LDNS address modulo the back-ends (the LDNS address travels in the context).
 */
class TestLdnsLb : public AdcLbMethod
{
  public:
    std::string GetMethodName() const override
    {
        return "TESTLDNS";
    }

  protected:
    int32_t DoSelect(const AdcLbContext& ctx) override
    {
        return ctx.ldns.IsNone()
                   ? 0
                   : static_cast<int32_t>((ctx.ldns.GetIpv4().Get() & 0xff) % GetNBackends());
    }
};

/// Registers the two test methods for one test and removes them after it (the registry is
/// global; other tests list every method).
class AdcLbMethodRegistryTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        Registry::Register(
            "TESTHEADERHASH",
            [] { return Ptr<AdcLbMethod>(CreateObject<TestHeaderHashLb>()); },
            Registry::USES_REQUEST);
        Registry::Register(
            "TESTLDNS",
            [] { return Ptr<AdcLbMethod>(CreateObject<TestLdnsLb>()); },
            Registry::USES_LDNS);
    }

    void TearDown() override
    {
        Registry::Unregister("TESTHEADERHASH");
        Registry::Unregister("TESTLDNS");
    }
};

} // namespace

// REQ: ILB-02 (ilbadm's words in the shared vocabulary are NetScaler's methods; an ILB rule reads
// them in the ILB vocabulary as illumos's own hashes: test/ilb-hash-test.cc)
TEST(AdcLbMethodRegistry, IlbadmAliasesAreTheSameMethodsAndChoices)
{
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"roundrobin", "ROUNDROBIN"},
        {"hash-ip", "SOURCEIPHASH"},
        {"hash-ip-port", "SRCIPSRCPORTHASH"},
        {"hash-ip-vip", "SRCIPDESTIPHASH"}};
    EXPECT_EQ(Registry::GetNames(Registry::ILBADM),
              (std::vector<std::string>{"roundrobin", "hash-ip", "hash-ip-port", "hash-ip-vip"}));
    for (const auto& [alias, canonical] : pairs)
    {
        Ptr<AdcLbMethod> a = Registry::Create(alias, Registry::ILBADM);
        Ptr<AdcLbMethod> n = Registry::Create(canonical, Registry::NETSCALER);
        EXPECT_EQ(a->GetInstanceTypeId(), n->GetInstanceTypeId()) << alias;
        EXPECT_EQ(a->GetMethodName(), canonical) << alias;
        EXPECT_EQ(Registry::GetAlias(canonical, Registry::ILBADM), alias);
        AddBackends(a, 5);
        AddBackends(n, 5);
        std::set<int32_t> used;
        for (uint32_t i = 0; i < 300; ++i)
        {
            const int32_t k = a->Select(Flow(i));
            EXPECT_EQ(k, n->Select(Flow(i))) << alias << " flow " << i;
            used.insert(k);
        }
        EXPECT_EQ(used.size(), 5u) << alias; // the comparison is not between constant choices
    }
    // ilbadm has no word for weighted round robin: nothing to print it back with.
    EXPECT_EQ(Registry::GetAlias("WEIGHTEDROUNDROBIN", Registry::ILBADM), "");
}

// REQ: ILB-02
TEST(AdcLbMethodRegistry, CaseRulesPerVocabulary)
{
    // NetScaler's CLI takes any case; so does ilbadm (i_val_from_str compares with strncasecmp).
    EXPECT_EQ(Registry::Create("roundRobin", Registry::NETSCALER)->GetMethodName(), "ROUNDROBIN");
    EXPECT_EQ(Registry::Create("HASH-IP-PORT", Registry::ILBADM)->GetMethodName(),
              "SRCIPSRCPORTHASH");
    // Each vocabulary knows only its own words.
    EXPECT_TRUE(Has(ConfigErrorOf([] { Registry::Create("hash-ip", Registry::NETSCALER); }),
                    "'hash-ip' is not one of"));
    EXPECT_TRUE(Has(ConfigErrorOf([] { Registry::Create("SOURCEIPHASH", Registry::ILBADM); }),
                    "'SOURCEIPHASH' is not one of"));
    // A vocabulary with exact case (a subject's JSON API, say) takes only its own spelling.
    Registry::AddVocabulary("test-exact", AdcText::EXACT);
    Registry::AddAlias("test-exact", "rr", "ROUNDROBIN");
    EXPECT_EQ(Registry::Create("rr", "test-exact")->GetMethodName(), "ROUNDROBIN");
    const std::string msg = ConfigErrorOf([] { Registry::Create("RR", "test-exact"); });
    EXPECT_TRUE(Has(msg, "'RR' is not one of rr")) << msg;
    // Adding the same word twice is refused, in the vocabulary's case rule.
    EXPECT_TRUE(Has(ConfigErrorOf([] { Registry::AddAlias("test-exact", "rr", "MAGLEV"); }),
                    "already an alias of ROUNDROBIN"));
    EXPECT_NO_THROW(Registry::AddAlias("test-exact", "RR", "MAGLEV"));
    EXPECT_TRUE(
        Has(ConfigErrorOf([] { Registry::AddAlias(Registry::ILBADM, "HASH-IP", "MAGLEV"); }),
            "already an alias of SOURCEIPHASH"));
    Registry::RemoveVocabulary("test-exact");
    EXPECT_TRUE(Has(ConfigErrorOf([] { Registry::Create("rr", "test-exact"); }), "vocabulary"));
}

// REQ: ILB-02
TEST(AdcLbMethodRegistry, UnknownNameListsThatVocabularysNames)
{
    const std::string ilb = ConfigErrorOf([] { Registry::Create("leastconn", Registry::ILBADM); });
    EXPECT_EQ(ilb,
              "AdcLbMethodRegistry: ilbadm method 'leastconn' is not one of roundrobin, hash-ip, "
              "hash-ip-port, hash-ip-vip");
    const std::string ns = ConfigErrorOf([] { Registry::Create("FASTEST", Registry::NETSCALER); });
    EXPECT_TRUE(Has(ns, "NetScaler method 'FASTEST' is not one of ROUNDROBIN,")) << ns;
    for (const std::string& name : Registry::GetNames(Registry::NETSCALER))
    {
        EXPECT_TRUE(Has(ns, name)) << name;
    }
    EXPECT_FALSE(Has(ns, "hash-ip")) << ns;
    // A setting that needs a trait lists only the methods that have it, with its reason.
    const std::string hashOnly = ConfigErrorOf([] {
        Registry::Resolve("ROUNDROBIN",
                          {Registry::NETSCALER, Registry::FLOW_HASH, {}},
                          "Owner",
                          "method",
                          "it must hash");
    });
    EXPECT_EQ(hashOnly,
              "Owner: method 'ROUNDROBIN' is not one of SOURCEIPHASH, SRCIPSRCPORTHASH, "
              "SRCIPDESTIPHASH, DESTINATIONIPHASH, MAGLEV, ILBHASHIP, ILBHASHIPPORT, "
              "ILBHASHIPVIP: it must hash");
    // A subject may limit a setting to some methods by name.
    const Registry::Query some{Registry::NETSCALER, 0, {"URLHASH", "ROUNDROBIN"}};
    EXPECT_EQ(Registry::Resolve("urlhash", some, "t", "m"), "URLHASH");
    EXPECT_EQ(ConfigErrorOf([&] { Registry::Resolve("MAGLEV", some, "Owner", "method"); }),
              "Owner: method 'MAGLEV' is not one of ROUNDROBIN, URLHASH");
    // The CRD lower tier offers the methods with the trait CACHE_SELECTION: asked of the
    // subject itself, not of a copy of its list. NetScaler's cache redirection balances a
    // cache vserver by these four.
    Ptr<CrdLowerTierAppliance> lower = CreateObject<CrdLowerTierAppliance>();
    EXPECT_EQ(ConfigErrorOf([&] { lower->SetAttribute("CacheLbMethod", StringValue("MAGLEV")); }),
              "CrdLowerTierAppliance: CacheLbMethod 'MAGLEV' is not one of ROUNDROBIN, "
              "LEASTCONNECTION, URLHASH, DESTINATIONIPHASH");
    // An unknown vocabulary names the vocabularies.
    EXPECT_TRUE(Has(ConfigErrorOf([] { Registry::Create("ROUNDROBIN", "f5"); }),
                    "vocabulary 'f5' is not one of NetScaler, ilbadm"));
}

// REQ: CRD-03 (the upper tier balances sessionlessly: only hash methods of header fields)
TEST(AdcLbMethodRegistry, PolicyRoutingBalanceMethodsComeFromTheRegistry)
{
    EXPECT_EQ(AdcPolicyRouting::GetBalanceMethodNames(),
              Registry::GetNames(Registry::ANY, Registry::FLOW_HASH));
    for (const std::string& name : AdcPolicyRouting::GetBalanceMethodNames())
    {
        const std::string canonical =
            Registry::Resolve(name, {Registry::ANY, Registry::FLOW_HASH, {}}, "t", "m");
        EXPECT_TRUE(Registry::GetTraits(canonical) & Registry::FLOW_HASH) << name;
    }
}

// REQ: GSLB-09 (a subject's method, e.g. RTT, is chosen by name like the core's)
TEST_F(AdcLbMethodRegistryTest, SubjectRegistersMethodsWithoutCoreEdits)
{
    // Registered methods join the NetScaler vocabulary, case-insensitive like the core's.
    Ptr<AdcLbMethod> m = Registry::Create("testHeaderHash", Registry::NETSCALER);
    EXPECT_EQ(m->GetMethodName(), "TESTHEADERHASH");
    const auto names = Registry::GetNames(Registry::NETSCALER);
    EXPECT_EQ(names.back(), "TESTLDNS");
    EXPECT_EQ(Registry::GetNames(Registry::NETSCALER, Registry::USES_LDNS),
              std::vector<std::string>{"TESTLDNS"});
    EXPECT_EQ(AdcLbMethod::Create("testldns")->GetMethodName(), "TESTLDNS");
    EXPECT_TRUE(Has(
        ConfigErrorOf([] { Registry::Register("TESTLDNS", [] { return Ptr<AdcLbMethod>(); }); }),
        "already registered"));

    // The request head reaches the method: one user, one back-end, whatever the client IP.
    AddBackends(m, 4);
    std::set<int32_t> oneUser;
    std::set<int32_t> manyUsers;
    for (uint32_t i = 0; i < 200; ++i)
    {
        AdcHttpMessage req = AdcHttpMessage::MakeRequest("GET", "/");
        req.SetHeader("X-User", "alice");
        AdcLbContext c = Flow(i);
        c.request = &req;
        oneUser.insert(m->Select(c));
        req.SetHeader("X-User", "user" + std::to_string(i));
        manyUsers.insert(m->Select(c));
    }
    EXPECT_EQ(oneUser.size(), 1u);
    EXPECT_EQ(manyUsers.size(), 4u);

    // The LDNS address reaches the method.
    Ptr<AdcLbMethod> g = Registry::Create("TESTLDNS", Registry::NETSCALER);
    AddBackends(g, 3);
    AdcLbContext c = Flow(1);
    c.ldns = Ipv4Address("198.51.100.5");
    EXPECT_EQ(g->Select(c), 2);
    c.ldns = Ipv4Address("198.51.100.7");
    EXPECT_EQ(g->Select(c), 1);

    // A subject's own vocabulary names the subject's method.
    Registry::AddVocabulary("test-gslb", AdcText::INSENSITIVE);
    Registry::AddAlias("test-gslb", "ldns", "TESTLDNS");
    EXPECT_EQ(Registry::Create("LDNS", "test-gslb")->GetMethodName(), "TESTLDNS");
    Registry::RemoveVocabulary("test-gslb");
}

TEST_F(AdcLbMethodRegistryTest, UnregisterLeavesTheCoreAsItWas)
{
    Registry::Unregister("TESTLDNS");
    EXPECT_TRUE(Has(ConfigErrorOf([] { Registry::Create("TESTLDNS", Registry::NETSCALER); }),
                    "is not one of"));
    Registry::Register(
        "TESTLDNS",
        [] { return Ptr<AdcLbMethod>(CreateObject<TestLdnsLb>()); },
        Registry::USES_LDNS);
    EXPECT_TRUE(Has(ConfigErrorOf([] { Registry::Unregister("NOSUCH"); }), "'NOSUCH'"));
    EXPECT_TRUE(
        Has(ConfigErrorOf([] { Registry::RemoveVocabulary(Registry::ILBADM); }), "built-in"));
    EXPECT_TRUE(Has(ConfigErrorOf([] { Registry::AddAlias(Registry::ILBADM, "x", "NOSUCH"); }),
                    "canonical method 'NOSUCH'"));
    EXPECT_TRUE(Has(
        ConfigErrorOf([] { Registry::Register("TWO WORDS", [] { return Ptr<AdcLbMethod>(); }); }),
        "single words"));
}

namespace
{

/**
 * Power of two choices over URL hashes (Mitzenmacher's "power of two choices" applied to cache
 * selection): two rendezvous candidates from two independently seeded URL keys, the one with
 * fewer open connections wins, the first on a tie. Built only from the core's public pieces
 * (AdcLbKey, PickByKey), as a researcher's method would be.
 */
class TestP2cLb : public AdcRendezvousHashLb
{
  public:
    std::string GetMethodName() const override
    {
        return "TESTP2C";
    }

    /// \return the two candidates of \p ctx
    std::pair<int32_t, int32_t> Candidates(const AdcLbContext& ctx) const
    {
        return {PickByKey(AdcLbKey::Url(ctx, GetHashSeed())),
                PickByKey(AdcLbKey::Url(ctx, ~GetHashSeed()))};
    }

  protected:
    uint64_t KeyHash(const AdcLbContext& ctx) const override
    {
        return AdcLbKey::Url(ctx, GetHashSeed());
    }

    int32_t DoSelect(const AdcLbContext& ctx) override
    {
        const auto [a, b] = Candidates(ctx);
        return GetBackend(b).activeConnections < GetBackend(a).activeConnections ? b : a;
    }
};

} // namespace

// REQ: CRD-04 (the lower tier's cache-selection method), CORE-03 (extending is one class and
// one registration line: the method reaches the subject with no other change)
TEST(AdcLbMethodRegistry, CacheSelectionMethodRegisteredOnceReachesTheCrdLowerTier)
{
    Registry::Register(
        "TESTP2C",
        [] { return Ptr<AdcLbMethod>(CreateObject<TestP2cLb>()); },
        Registry::USES_REQUEST | Registry::CACHE_SELECTION);
    EXPECT_EQ(Registry::GetNames(Registry::NETSCALER, Registry::CACHE_SELECTION),
              (std::vector<std::string>{"ROUNDROBIN",
                                        "LEASTCONNECTION",
                                        "URLHASH",
                                        "DESTINATIONIPHASH",
                                        "TESTP2C"}));
    Ptr<CrdLowerTierAppliance> lower = CreateObject<CrdLowerTierAppliance>();
    lower->SetAttribute("CacheLbMethod", StringValue("testp2c"));
    StringValue method;
    lower->GetAttribute("CacheLbMethod", method);
    EXPECT_EQ(method.Get(), "TESTP2C");
    // The refusal of another method now lists it too.
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { lower->SetAttribute("CacheLbMethod", StringValue("MAGLEV")); }),
            "URLHASH, DESTINATIONIPHASH, TESTP2C"));

    // The method does what its definition says: each URL goes to one of its two candidates,
    // the one with fewer open connections.
    Ptr<TestP2cLb> m = CreateObject<TestP2cLb>();
    AddBackends(m, 8);
    for (uint32_t i = 0; i < 8; ++i)
    {
        for (uint32_t c = 0; c < (i * 5) % 8; ++c)
        {
            m->ConnectionOpened(i);
        }
    }
    uint32_t twoDistinct = 0;
    for (uint32_t i = 0; i < 200; ++i)
    {
        AdcLbContext ctx = Flow(i);
        ctx.url = "/obj/" + std::to_string(i);
        const auto [a, b] = m->Candidates(ctx);
        const int32_t chosen = m->Select(ctx);
        ASSERT_TRUE(chosen == a || chosen == b) << i;
        const int32_t other = chosen == a ? b : a;
        EXPECT_LE(m->GetBackend(chosen).activeConnections, m->GetBackend(other).activeConnections);
        twoDistinct += a != b ? 1 : 0;
    }
    // Independent keys: with 8 back-ends the candidates differ for about 7 URLs in 8.
    EXPECT_GT(twoDistinct, 150u);
    Registry::Unregister("TESTP2C");
    EXPECT_EQ(Registry::GetNames(Registry::NETSCALER, Registry::CACHE_SELECTION).size(), 4u);
}

// REQ: CRD-04 (URLHASH keys on the URL; the key pieces are the ones the built-in methods use)
TEST(AdcLbMethod, PublicKeyPiecesMatchTheBuiltInHashMethods)
{
    for (const auto& [name, key] :
         std::vector<std::pair<std::string, uint64_t (*)(const AdcLbContext&, uint64_t)>>{
             {"SOURCEIPHASH",
              [](const AdcLbContext&c, uint64_t seed) { return AdcLbKey::SourceIp(c, seed); }},
             {"SRCIPSRCPORTHASH", &AdcLbKey::SourceIpPort},
             {"SRCIPDESTIPHASH", &AdcLbKey::SourceIpVip},
             {"DESTINATIONIPHASH", [](const AdcLbContext&c, uint64_t seed) {
                  return AdcLbKey::DestinationIp(c, seed);
              }}})
    {
        // Two flows with the same key go to the same back-end whatever else differs (the
        // method keys on exactly that piece); keys that differ spread.
        Ptr<AdcLbMethod> m = Registry::Create(name, Registry::NETSCALER);
        AddBackends(m, 6);
        std::map<uint64_t, int32_t> byKey;
        for (uint32_t i = 0; i < 300; ++i)
        {
            // Clients, ports and VIPs repeat with different periods, so every key repeats
            // with the other fields changed.
            AdcLbContext ctx;
            ctx.flow = AdcFlowKey(Ipv4Address(0x0b000000 + i % 20),
                                  Ipv4Address(0xc0a80000 + i % 7),
                                  static_cast<uint16_t>(1024 + i % 3),
                                  80,
                                  AdcFlowKey::PROTO_TCP);
            const int32_t chosen = m->Select(ctx);
            const auto [it, fresh] = byKey.emplace(key(ctx, m->GetHashSeed()), chosen);
            EXPECT_TRUE(fresh || it->second == chosen) << name << " flow " << i;
        }
        EXPECT_GT(byKey.size(), 1u) << name;
    }
    // Url with and without the query, and its L4 fallback to the client's address.
    AdcLbContext a = Flow(1);
    AdcLbContext b = Flow(2);
    a.url = "/x?1";
    b.url = "/x?2";
    EXPECT_NE(AdcLbKey::Url(a, 7), AdcLbKey::Url(b, 7));
    EXPECT_EQ(AdcLbKey::Url(a, 7, true), AdcLbKey::Url(b, 7, true));
    EXPECT_NE(AdcLbKey::Url(a, 7), AdcLbKey::Url(a, 8));
    a.url.clear();
    EXPECT_EQ(AdcLbKey::Url(a, 7), AdcLbKey::SourceIp(a, 7));
}
