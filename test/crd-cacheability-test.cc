/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Cacheability as NetScaler's built-in cache-redirection policies decide it (CrdCachePolicies,
 * CrdLowerTierAppliance "CacheableRule" POLICY and "CachePolicies"), the "Bypass" trace and its
 * per-reason counters, -via ON (Via on forwarded requests, and a cache miss recognised by its
 * Via entry), and -reuse ON by default. Expected values come from NetScaler's documentation
 * ("Built-in cache redirection policies"; "add cr vserver": -via and -reuse default ON).
 */

#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-message.h"
#include "ns3/core-module.h"
#include "ns3/crd-cache-policy.h"
#include "ns3/crd-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Expect = AdcAccountingExpectation;

/// A GET (or \p method) of \p url with \p headers.
AdcHttpMessage
Req(const std::string& url,
    const std::vector<std::pair<std::string, std::string>>& headers = {},
    const std::string& method = "GET")
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest(method, url);
    m.SetHeader("Host", "www.example.com");
    for (const auto& h : headers)
    {
        m.AddHeader(h.first, h.second);
    }
    return m;
}

bool
Hits(const std::string& policy, const AdcHttpMessage& m)
{
    return CrdCachePolicies::Matches(policy, m);
}

} // namespace

// REQ: CRD-08
TEST(CrdCachePolicies, BypassNonGetMatchesEveryMethodButGet)
{
    EXPECT_FALSE(Hits("bypass-non-get", Req("/a.html")));
    for (const char* method : {"POST", "HEAD", "PUT", "DELETE", "OPTIONS"})
    {
        EXPECT_TRUE(Hits("bypass-non-get", Req("/a.html", {}, method))) << method;
    }
}

// REQ: CRD-08
TEST(CrdCachePolicies, BypassCacheControlMatchesNoCacheNoStoreAndPragma)
{
    const std::string p = "bypass-cache-control";
    EXPECT_TRUE(Hits(p, Req("/a", {{"Cache-Control", "no-cache"}})));
    EXPECT_TRUE(Hits(p, Req("/a", {{"Cache-Control", "no-store"}})));
    EXPECT_TRUE(
        Hits(p, Req("/a", {{"Cache-Control", "max-age=0, No-Cache"}}))); // RFC 9111: any case
    EXPECT_TRUE(Hits(p, Req("/a", {{"Cache-Control", "no-cache=\"Set-Cookie\""}})));
    EXPECT_TRUE(Hits(p, Req("/a", {{"Pragma", "no-cache"}})));
    EXPECT_FALSE(Hits(p, Req("/a", {{"Cache-Control", "max-age=60"}})));
    EXPECT_FALSE(Hits(p, Req("/a", {{"Cache-Control", "no-transform"}})));
    EXPECT_FALSE(Hits(p, Req("/a")));
}

// REQ: CRD-08
TEST(CrdCachePolicies, BypassDynamicUrlMatchesTheDocumentedExtensionsAndPrefixes)
{
    const std::string p = "bypass-dynamic-url";
    for (const char* url : {"/x/run.cgi",
                            "/index.asp",
                            "/INDEX.ASP",
                            "/setup.exe",
                            "/page.cfm",
                            "/page.ex",
                            "/page.shtml",
                            "/page.htx",
                            "/cgi-bin/anything",
                            "/bin/tool",
                            "/exec/job",
                            "/page.asp?x=1",
                            "http://www.example.com/cgi-bin/x"})
    {
        EXPECT_TRUE(Hits(p, Req(url))) << url;
    }
    for (const char* url : {"/index.html",
                            "/page.aspx", // not in the documented list
                            "/img/a.gif",
                            "/binary/file",
                            "/docs/cgi-bin/x", // the prefixes are at the path's start
                            "/asp",
                            "/obj/7"})
    {
        EXPECT_FALSE(Hits(p, Req(url))) << url;
    }
}

// REQ: CRD-08
TEST(CrdCachePolicies, BypassUrlTokensMatchesQuestionMarkBangAndEquals)
{
    const std::string p = "bypass-urltokens";
    EXPECT_TRUE(Hits(p, Req("/a?b")));
    EXPECT_TRUE(Hits(p, Req("/a!b")));
    EXPECT_TRUE(Hits(p, Req("/a=b")));
    EXPECT_FALSE(Hits(p, Req("/a/b.html")));
}

// REQ: CRD-08
TEST(CrdCachePolicies, BypassCookieMatchesCookiesExceptOnGifAndJpg)
{
    const std::string p = "bypass-cookie";
    EXPECT_TRUE(Hits(p, Req("/a.html", {{"Cookie", "id=1"}})));
    EXPECT_TRUE(Hits(p, Req("/obj/7", {{"Cookie", "id=1"}}))); // no extension: not gif/jpg
    EXPECT_FALSE(Hits(p, Req("/img/a.gif", {{"Cookie", "id=1"}})));
    EXPECT_FALSE(Hits(p, Req("/img/a.JPG", {{"Cookie", "id=1"}})));
    EXPECT_FALSE(Hits(p, Req("/a.html")));
}

TEST(CrdCachePolicies, ParseKeepsOrderAndRejectsUnknownOrRepeatedNames)
{
    EXPECT_EQ(CrdCachePolicies::Parse(" BYPASS-COOKIE , bypass-non-get", "X"),
              (std::vector<std::string>{"bypass-cookie", "bypass-non-get"}));
    EXPECT_TRUE(CrdCachePolicies::Parse("", "X").empty());
    EXPECT_EQ(CrdCachePolicies::Parse(CrdCachePolicies::GetDefaultText(), "X").size(), 5U);
    try
    {
        CrdCachePolicies::Parse("bypass-non-get,bypass-images", "L2NS1: CachePolicies");
        FAIL() << "an unknown policy was accepted";
    }
    catch (const AdcConfigError& e)
    {
        const std::string m = e.what();
        EXPECT_NE(m.find("CachePolicies"), std::string::npos) << m;
        EXPECT_NE(m.find("bypass-images"), std::string::npos) << m;
        EXPECT_NE(m.find("bypass-dynamic-url"), std::string::npos) << m; // the allowed list
    }
    EXPECT_THROW(CrdCachePolicies::Parse("bypass-cookie,bypass-cookie", "X"), AdcConfigError);
    EXPECT_THROW(CrdCachePolicies::Parse("bypass-cookie,,bypass-non-get", "X"), AdcConfigError);
    Ptr<CrdLowerTierAppliance> app = CreateObject<CrdLowerTierAppliance>();
    EXPECT_THROW(app->SetAttribute("CachePolicies", StringValue("bypass-all")), AdcConfigError);
    StringValue v;
    app->GetAttribute("CachePolicies", v);
    EXPECT_EQ(v.Get(), CrdCachePolicies::GetDefaultText()); // unchanged by the refused value
}

// REQ: CRD-08
TEST(CrdCachePolicies, NetScalerDefaultsViaAndReuseOnPolicyDecides)
{
    Ptr<CrdLowerTierAppliance> app = CreateObject<CrdLowerTierAppliance>();
    BooleanValue b;
    app->GetAttribute("Via", b);
    EXPECT_TRUE(b.Get()); // add cr vserver -via: default ON
    app->GetAttribute("ServerConnectionReuse", b);
    EXPECT_TRUE(b.Get()); // add cr vserver -reuse: default ON
    EnumValue rule;
    app->GetAttribute("CacheableRule", rule);
    EXPECT_EQ(rule.Get(), CrdLowerTierAppliance::POLICY);
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->GetAttribute("ServerConnectionReuse", b);
    EXPECT_TRUE(b.Get());
}

namespace
{

/// The seed's topology with several clients on the one client node, one per request kind.
class CrdCacheability : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    void Build(Ptr<CrdTopologyHelper> h)
    {
        h->SetAttribute("CacheLbMethod", StringValue("URLHASH"));
        topo = h->Build();
        for (uint32_t j = 0; j < topo.lowerApps.size(); ++j)
        {
            Ptr<CrdLowerTierAppliance> a = topo.lowerApps[j];
            a->TraceConnectWithoutContext(
                "Bypass",
                Callback<void, const std::string&, const std::string&, const std::string&>(
                    [this](const std::string&, const std::string& url, const std::string& r) {
                        bypass[url] = r;
                    }));
            a->TraceConnectWithoutContext(
                "Decision",
                Callback<void,
                         const std::string&,
                         const std::string&,
                         const std::string&,
                         const std::string&>([this](const std::string&,
                                                    const std::string& url,
                                                    const std::string& d,
                                                    const std::string&) { decision[url] = d; }));
        }
        for (uint32_t c = 0; c < topo.cacheApps.size(); ++c)
        {
            topo.cacheApps[c]->TraceConnectWithoutContext(
                "AccessLog",
                Callback<void, const std::string&, const std::string&, const std::string&, Time>(
                    [this](const std::string&, const std::string&, const std::string& url, Time) {
                        cacheUrls.push_back(url);
                    }));
        }
        topo.originApp->TraceConnectWithoutContext(
            "Request",
            Callback<void, const AdcHttpMessage&, const Address&>(
                [this](const AdcHttpMessage& m, const Address&) { originRequests.push_back(m); }));
    }

    /// A client on the client node sending \p method with \p headers, one request per issue.
    Ptr<AdcHttpClient> Client(const std::string& method,
                              const std::vector<std::pair<std::string, std::string>>& headers)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(topo.originAddress, 80)));
        c->SetAttribute("Method", StringValue(method));
        c->SetAttribute("Persistent", BooleanValue(false));
        c->SetAttribute("InterRequestTime",
                        StringValue("ns3::ConstantRandomVariable[Constant=1e9]"));
        for (const auto& h : headers)
        {
            c->AddRequestHeader(h.first, h.second);
        }
        c->SetStartTime(Seconds(1));
        c->SetStopTime(Seconds(9));
        topo.isp.GetClient(0)->AddApplication(c);
        clients.push_back(c);
        return c;
    }

    static void IssueAt(Ptr<AdcHttpClient> c, double t, const std::string& url)
    {
        Simulator::Schedule(Seconds(t), [c, url]() { c->IssueRequest(url); });
    }

    void Run()
    {
        Simulator::Stop(Seconds(10));
        Simulator::Run();
    }

    uint64_t Bypassed(const std::string& reason) const
    {
        uint64_t n = 0;
        for (const auto& a : topo.lowerApps)
        {
            n += a->GetBypassCount(reason);
        }
        return n;
    }

    CrdTopology topo;
    std::vector<Ptr<AdcHttpClient>> clients;
    std::map<std::string, std::string> bypass;   //!< url -> Bypass reason
    std::map<std::string, std::string> decision; //!< url -> CACHE / BYPASS
    std::vector<std::string> cacheUrls;          //!< what the caches were asked for
    std::vector<AdcHttpMessage> originRequests;  //!< what the origin received
};

} // namespace

// REQ: CRD-08
// REQ: CRD-09
// REQ: CRD-10
TEST_F(CrdCacheability, EachBuiltInPolicySendsItsRequestsToTheOriginWithItsReason)
{
    Build(CreateObject<CrdTopologyHelper>());
    Ptr<AdcHttpClient> plain = Client("GET", {});
    Ptr<AdcHttpClient> post = Client("POST", {});
    Ptr<AdcHttpClient> noCache = Client("GET", {{"Cache-Control", "no-cache"}});
    Ptr<AdcHttpClient> pragma = Client("GET", {{"Pragma", "no-cache"}});
    Ptr<AdcHttpClient> cookie = Client("GET", {{"Cookie", "session=42"}});
    IssueAt(plain, 2.0, "/static/page.html"); // no policy matches: CACHE
    IssueAt(post, 2.2, "/form.html");
    IssueAt(noCache, 2.4, "/news.html");
    IssueAt(pragma, 2.6, "/sport.html");
    IssueAt(plain, 2.8, "/app/report.asp");
    IssueAt(plain, 3.0, "/cgi-bin/search");
    IssueAt(plain, 3.2, "/list.html?page=2");
    IssueAt(cookie, 3.4, "/account.html");
    IssueAt(cookie, 3.6, "/img/logo.gif"); // cookies on images are cacheable
    Run();

    const std::map<std::string, std::string> expected = {
        {"/form.html", "bypass-non-get"},
        {"/news.html", "bypass-cache-control"},
        {"/sport.html", "bypass-cache-control"},
        {"/app/report.asp", "bypass-dynamic-url"},
        {"/cgi-bin/search", "bypass-dynamic-url"},
        {"/list.html?page=2", "bypass-urltokens"},
        {"/account.html", "bypass-cookie"},
    };
    EXPECT_EQ(bypass, expected);
    EXPECT_EQ(decision.at("/static/page.html"), "CACHE");
    EXPECT_EQ(decision.at("/img/logo.gif"), "CACHE");
    EXPECT_EQ(decision.size(), 9U);
    EXPECT_EQ(Bypassed("bypass-non-get"), 1U);
    EXPECT_EQ(Bypassed("bypass-cache-control"), 2U);
    EXPECT_EQ(Bypassed("bypass-dynamic-url"), 2U);
    EXPECT_EQ(Bypassed("bypass-urltokens"), 1U);
    EXPECT_EQ(Bypassed("bypass-cookie"), 1U);
    // Only the two cacheable requests reached a cache; the origin got the seven bypasses
    // and the two misses the caches fetched.
    EXPECT_EQ(cacheUrls, (std::vector<std::string>{"/static/page.html", "/img/logo.gif"}));
    EXPECT_EQ(originRequests.size(), 9U);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(9)));
}

// REQ: CRD-08
TEST_F(CrdCacheability, PolicySetIsConfigurableAndEmptyCachesEverything)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->SetAttribute("CachePolicies", StringValue("bypass-non-get"));
    Build(h);
    Ptr<AdcHttpClient> plain = Client("GET", {});
    Ptr<AdcHttpClient> post = Client("POST", {});
    IssueAt(plain, 2.0, "/list.html?page=2"); // bypass-urltokens is not bound: cacheable
    IssueAt(post, 2.5, "/form.html");
    Run();
    EXPECT_EQ(decision.at("/list.html?page=2"), "CACHE");
    EXPECT_EQ(bypass, (std::map<std::string, std::string>{{"/form.html", "bypass-non-get"}}));
    EXPECT_EQ(cacheUrls, (std::vector<std::string>{"/list.html?page=2"}));
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(2)));
}

// REQ: CRD-08
TEST_F(CrdCacheability, RuleNoneAndNoBoundPolicyGiveTheirReasons)
{
    Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
    h->SetAttribute("CacheableRule", StringValue("NONE"));
    Build(h);
    Ptr<AdcHttpClient> plain = Client("GET", {});
    IssueAt(plain, 2.0, "/a.html");
    Run();
    EXPECT_EQ(bypass, (std::map<std::string, std::string>{{"/a.html", "NONE"}}));
    EXPECT_EQ(Bypassed("NONE"), 1U);
    EXPECT_TRUE(cacheUrls.empty());
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
}

// REQ: CRD-11
TEST_F(CrdCacheability, ViaMarksForwardedRequestsAndRecognisesTheMissComingBack)
{
    Build(CreateObject<CrdTopologyHelper>());
    Ptr<AdcHttpClient> plain = Client("GET", {});
    IssueAt(plain, 2.0, "/obj/7");     // a miss: lower L -> cache -> lower L' -> origin
    IssueAt(plain, 3.0, "/obj/8?x=1"); // a bypass: lower L -> origin
    Run();
    ASSERT_EQ(originRequests.size(), 2U);
    // The miss: L's entry (the request it sent to the cache), the cache's, then L''s.
    const std::string missVia = originRequests[0].GetHeader("Via").value_or("");
    EXPECT_EQ(originRequests[0].GetTarget(), "/obj/7");
    EXPECT_EQ(missVia.rfind("1.1 L2NS", 0), 0U) << missVia;
    EXPECT_NE(missVia.find(", 1.1 CRS"), std::string::npos) << missVia;
    EXPECT_EQ(std::count(missVia.begin(), missVia.end(), ','), 2) << missVia;
    // The bypass: only L's entry.
    const std::string bypassVia = originRequests[1].GetHeader("Via").value_or("");
    EXPECT_EQ(bypassVia.rfind("1.1 L2NS", 0), 0U) << bypassVia;
    EXPECT_EQ(bypassVia.find(','), std::string::npos) << bypassVia;
    uint64_t misses = 0;
    for (const auto& a : topo.lowerApps)
    {
        misses += a->GetMissIntercepts();
    }
    EXPECT_EQ(misses, 1U); // recognised by the Via, so not sent to a cache again
    EXPECT_EQ(decision.size(), 2U);
    EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(2)));
}

// REQ: CRD-11 (-via ON marks both directions; -via OFF neither: NetScaler's -via setting, "insert
// a Via header in each HTTP request" and response, RFC 9110 section 7.6.3)
TEST_F(CrdCacheability, ViaOffLeavesRequestsAndResponsesWithoutTheTiersEntry)
{
    for (bool via : {true, false})
    {
        SCOPED_TRACE(via ? "-via ON" : "-via OFF");
        originRequests.clear();
        Ptr<CrdTopologyHelper> h = CreateObject<CrdTopologyHelper>();
        Build(h);
        for (const auto& a : topo.lowerApps)
        {
            a->SetAttribute("Via", BooleanValue(via));
        }
        Ptr<AdcHttpClient> plain = Client("GET", {});
        std::vector<std::string> paths;
        plain->TraceConnectWithoutContext(
            "RequestDone",
            Callback<void, const AdcRequestRecord&>(
                [&paths](const AdcRequestRecord& r) { paths.push_back(r.path); }));
        IssueAt(plain, 2.0, "/obj/8?x=1"); // a bypass: lower L -> origin and back
        Run();
        ASSERT_EQ(originRequests.size(), 1U);
        ASSERT_EQ(paths.size(), 1U);
        const std::string requestVia = originRequests[0].GetHeader("Via").value_or("");
        EXPECT_EQ(requestVia.find("L2NS") != std::string::npos, via) << requestVia;
        EXPECT_EQ(paths[0].find("L2NS") != std::string::npos, via) << paths[0];
        EXPECT_TRUE(AdcExpectAccounting(clients, Expect::Completed(1)));
        clients.clear();
        topo = CrdTopology();
        Simulator::Destroy();
    }
}
