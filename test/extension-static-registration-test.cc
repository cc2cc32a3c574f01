/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An extension as a researcher's own library adds it: a method registered from a static
 * initializer, before main(), is found by name like a built-in one. Its own test program
 * (adc-test-extension, from this file's prefix), because the registration is global and would
 * change the method lists the core's tests compare.
 */

#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-lb-method.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

/// \return the request of client 10.11.0.1
AdcLbContext
Request()
{
    AdcLbContext c;
    c.flow = AdcFlowKey(Ipv4Address("10.11.0.1"),
                        Ipv4Address("192.0.2.10"),
                        20001,
                        80,
                        AdcFlowKey::PROTO_TCP);
    return c;
}

/// A method defined outside the core and registered at static initialization, before main():
/// the registry is a function-local static, so the order of initialization does not matter.
class StaticInitLb : public AdcLbMethod
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::AdcTestStaticInitLb")
                                .SetParent<AdcLbMethod>()
                                .SetGroupName("Adc")
                                .AddConstructor<StaticInitLb>();
        return tid;
    }

    std::string GetMethodName() const override
    {
        return "STATICINIT";
    }

  protected:
    int32_t DoSelect(const AdcLbContext& /* ctx */) override
    {
        // The last up back-end, and says so.
        for (uint32_t i = GetNBackends(); i-- > 0;)
        {
            if (GetBackend(i).up)
            {
                Because("last up back-end");
                return static_cast<int32_t>(i);
            }
        }
        return -1;
    }
};

const bool kStaticInitRegistered = [] {
    AdcLbMethodRegistry::Register(
        "STATICINIT",
        [] { return Ptr<AdcLbMethod>(CreateObject<StaticInitLb>()); },
        AdcLbMethodRegistry::CACHE_SELECTION);
    return true;
}();

} // namespace

// REQ: CORE-01
TEST(AdcLbMethodExtension, MethodRegisteredAtStaticInitializationIsFoundByName)
{
    ASSERT_TRUE(kStaticInitRegistered);
    const auto cache = AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER,
                                                     AdcLbMethodRegistry::CACHE_SELECTION);
    EXPECT_NE(std::find(cache.begin(), cache.end(), "STATICINIT"), cache.end());
    Ptr<AdcLbMethod> m = AdcLbMethod::Create("staticinit"); // NetScaler's CLI ignores case
    ASSERT_TRUE(m);
    EXPECT_EQ(m->GetMethodName(), "STATICINIT");
    AdcBackend b;
    b.name = "A";
    m->AddBackend(b);
    b.name = "B";
    m->AddBackend(b);
    EXPECT_EQ(m->Select(Request()), 1);
    EXPECT_EQ(m->GetLastDecision().reason, "last up back-end");
}
