/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcZipfUrlGenerator, the HTTP clients' request workload: URL forms, the Zipf
 * probabilities from their definition, configuration errors, and AdcHttpClient drawing the
 * same ranks through it on its second stream.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-zipf-url-generator.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the rank in "/obj/<rank>" or "/obj/<rank>?..." (0 when \p url has another form)
uint32_t
RankOf(const std::string& url)
{
    const std::string prefix = "/obj/";
    if (url.compare(0, prefix.size(), prefix) != 0)
    {
        return 0;
    }
    const std::string digits = url.substr(prefix.size(), url.find('?') - prefix.size());
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
    {
        return 0;
    }
    return static_cast<uint32_t>(std::stoul(digits));
}

} // namespace

// REQ: CORE-01, CRD-08 (non-cacheable URLs carry a query, which the default cacheability rule
// sends to the origin)
TEST(AdcZipfUrlGenerator, UrlFormsFollowCacheableFraction)
{
    AdcZipfUrlGenerator g("Test");
    g.AssignStreams(3);
    g.SetCatalogueSize(5);
    g.SetCacheableFraction(1.0);
    for (uint64_t id = 1; id <= 200; ++id)
    {
        const std::string url = g.NextUrl(id);
        EXPECT_EQ(url.find('?'), std::string::npos) << url;
        EXPECT_GE(RankOf(url), 1u) << url;
        EXPECT_LE(RankOf(url), 5u) << url;
    }
    g.SetCacheableFraction(0.0);
    for (uint64_t id = 1; id <= 200; ++id)
    {
        const std::string url = g.NextUrl(id);
        const std::string query = "?nocache=" + std::to_string(id);
        ASSERT_GE(url.size(), query.size()) << url;
        EXPECT_EQ(url.substr(url.size() - query.size()), query) << url;
        EXPECT_GE(RankOf(url), 1u) << url;
        EXPECT_LE(RankOf(url), 5u) << url;
    }
    g.SetCatalogueSize(1);
    g.SetCacheableFraction(1.0);
    EXPECT_EQ(g.NextUrl(7), "/obj/1");
    g.Dispose();
}

// REQ: CORE-01
TEST(AdcZipfUrlGenerator, RankFrequenciesMatchTheDefinition)
{
    // N = 3, s = 1: P(k) = (1/k) / (1 + 1/2 + 1/3) = 6/11, 3/11, 2/11.
    AdcZipfUrlGenerator g("Test");
    g.AssignStreams(5);
    g.SetCatalogueSize(3);
    g.SetZipfExponent(1.0);
    const int draws = 33000;
    std::vector<int> count(4, 0);
    for (int i = 0; i < draws; ++i)
    {
        const uint32_t k = g.DrawRank();
        ASSERT_GE(k, 1u);
        ASSERT_LE(k, 3u);
        ++count[k];
    }
    const double p[] = {0.0, 6.0 / 11, 3.0 / 11, 2.0 / 11};
    for (int k = 1; k <= 3; ++k)
    {
        EXPECT_NEAR(count[k], draws * p[k], 5 * std::sqrt(draws * p[k] * (1 - p[k])))
            << "rank " << k;
    }
    // A change of exponent rebuilds the distribution: s = 0 is uniform.
    g.SetZipfExponent(0.0);
    std::fill(count.begin(), count.end(), 0);
    for (int i = 0; i < draws; ++i)
    {
        ++count[g.DrawRank()];
    }
    for (int k = 1; k <= 3; ++k)
    {
        EXPECT_NEAR(count[k], draws / 3.0, 5 * std::sqrt(draws * (1.0 / 3) * (2.0 / 3)))
            << "rank " << k;
    }
    g.Dispose();
}

// REQ: CORE-01 (bad configuration is an AdcConfigError naming the owner, setting and value)
TEST(AdcZipfUrlGenerator, BadSettingsNameOwnerSettingAndValue)
{
    AdcZipfUrlGenerator g("MyClient");
    auto message = [](auto&& f) {
        try
        {
            f();
        }
        catch (const AdcConfigError& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string size = message([&] { g.SetCatalogueSize(0); });
    EXPECT_NE(size.find("MyClient"), std::string::npos) << size;
    EXPECT_NE(size.find("CatalogueSize 0"), std::string::npos) << size;
    const std::string exponent = message([&] { g.SetZipfExponent(-0.5); });
    EXPECT_NE(exponent.find("ZipfExponent"), std::string::npos) << exponent;
    EXPECT_NE(message([&] { g.SetZipfExponent(INFINITY); }), "");
    const std::string fraction = message([&] { g.SetCacheableFraction(1.5); });
    EXPECT_NE(fraction.find("CacheableFraction"), std::string::npos) << fraction;
    // a refused value leaves the setting as it was
    EXPECT_EQ(g.GetCatalogueSize(), 1000u);
    EXPECT_DOUBLE_EQ(g.GetZipfExponent(), 0.8);
    EXPECT_DOUBLE_EQ(g.GetCacheableFraction(), 1.0);
    g.Dispose();
}

// REQ: CORE-01 (the client's workload is this generator on the client's second stream, so
// the same seed still gives the same requests)
TEST(AdcZipfUrlGenerator, ClientDrawsTheSameRanksOnItsSecondStream)
{
    Ptr<AdcHttpClient> client = CreateObject<AdcHttpClient>();
    client->SetAttribute("CatalogueSize", UintegerValue(50));
    client->SetAttribute("ZipfExponent", DoubleValue(1.2));
    EXPECT_EQ(client->AssignStreams(20), 2);
    AdcZipfUrlGenerator g("Test");
    g.SetCatalogueSize(50);
    g.SetZipfExponent(1.2);
    EXPECT_EQ(g.AssignStreams(21), 1);
    for (int i = 0; i < 100; ++i)
    {
        EXPECT_EQ(client->DrawRank(), g.DrawRank()) << "draw " << i;
    }
    g.Dispose();
    client->Dispose();
    Simulator::Destroy();
}
