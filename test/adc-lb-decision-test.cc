/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The "Selection" trace of every LB method carries the back-ends the method considered and the
 * rule that decided (AdcLbDecision).
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-lb-method.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using adctest::Has;
using adctest::MakeMethod;

namespace
{

/// Records every Selection with its decision.
struct DecisionRecorder
{
    std::vector<int32_t> indices;         //!< chosen back-end per Select
    std::vector<AdcLbDecision> decisions; //!< decision per Select

    void Record(const AdcFlowKey& /* flow */,
                const std::string& /* url */,
                int32_t index,
                const AdcLbDecision& decision)
    {
        indices.push_back(index);
        decisions.push_back(decision);
    }
};

/// \return the request of client 10.11.0.<i> for /obj/<i>
AdcLbContext
Request(uint32_t i)
{
    AdcLbContext c;
    c.flow = AdcFlowKey(Ipv4Address(0x0a0b0000 + i),
                        Ipv4Address("192.0.2.10"),
                        static_cast<uint16_t>(20000 + i),
                        80,
                        AdcFlowKey::PROTO_TCP);
    c.url = "/obj/" + std::to_string(i);
    return c;
}

/// Connect \p rec to \p m's "Selection".
void
Connect(Ptr<AdcLbMethod> m, DecisionRecorder& rec)
{
    ASSERT_TRUE(
        m->TraceConnectWithoutContext("Selection", MakeCallback(&DecisionRecorder::Record, &rec)));
}

} // namespace

// REQ: CORE-02
TEST(AdcLbDecision, RoundRobinConsidersEveryUpBackEndAndSaysRotation)
{
    Ptr<AdcLbMethod> m = MakeMethod("ROUNDROBIN", 3);
    DecisionRecorder rec;
    Connect(m, rec);
    m->SetBackendUp(1, false);
    EXPECT_EQ(m->Select(Request(1)), 0);
    EXPECT_EQ(m->Select(Request(2)), 2);
    ASSERT_EQ(rec.decisions.size(), 2u);
    for (const AdcLbDecision& d : rec.decisions)
    {
        EXPECT_EQ(d.candidates, (std::vector<uint32_t>{0, 2})); // the down #1 is no candidate
        EXPECT_TRUE(Has(d.reason, "rotation")) << d.reason;
    }
}

// REQ: CORE-02
TEST(AdcLbDecision, LeastConnectionNamesTheWinnersCount)
{
    // NetScaler's LEASTCONNECTION: the service with the fewest active connections.
    Ptr<AdcLbMethod> m = MakeMethod("LEASTCONNECTION", 3);
    m->ConnectionOpened(0);
    m->ConnectionOpened(0);
    m->ConnectionOpened(1);
    DecisionRecorder rec;
    Connect(m, rec);
    EXPECT_EQ(m->Select(Request(1)), 2);
    ASSERT_EQ(rec.decisions.size(), 1u);
    EXPECT_EQ(rec.decisions[0].candidates, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_TRUE(Has(rec.decisions[0].reason, "fewest connections per weight (0/1)"))
        << rec.decisions[0].reason;
    EXPECT_EQ(m->GetLastDecision().reason, rec.decisions[0].reason);
}

// REQ: CORE-02
TEST(AdcLbDecision, TableMethodsConsiderOnlyTheEntryTheyLookUp)
{
    // Maglev looks up one table entry (Eisenbud et al., NSDI 2016, section 3.4): one candidate,
    // the chosen back-end; rendezvous hashing scores every up back-end.
    Ptr<AdcLbMethod> maglev = MakeMethod("MAGLEV", 4);
    Ptr<AdcLbMethod> url = MakeMethod("URLHASH", 4);
    DecisionRecorder rm;
    DecisionRecorder ru;
    Connect(maglev, rm);
    Connect(url, ru);
    for (uint32_t i = 0; i < 50; ++i)
    {
        const int32_t chosen = maglev->Select(Request(i));
        ASSERT_GE(chosen, 0);
        EXPECT_EQ(rm.decisions.back().candidates,
                  (std::vector<uint32_t>{static_cast<uint32_t>(chosen)}));
        EXPECT_TRUE(Has(rm.decisions.back().reason, "of 65537")) << rm.decisions.back().reason;
        url->Select(Request(i));
        EXPECT_EQ(ru.decisions.back().candidates, (std::vector<uint32_t>{0, 1, 2, 3}));
        EXPECT_TRUE(Has(ru.decisions.back().reason, "URLHASH")) << ru.decisions.back().reason;
    }
}

// REQ: CORE-02
TEST(AdcLbDecision, NothingUpIsTracedWithNoCandidates)
{
    for (const std::string& name : AdcLbMethod::GetMethodNames())
    {
        Ptr<AdcLbMethod> m = MakeMethod(name, 2);
        DecisionRecorder rec;
        Connect(m, rec);
        m->SetBackendUp(0, false);
        m->SetBackendUp(1, false);
        EXPECT_EQ(m->Select(Request(7)), -1) << name;
        ASSERT_EQ(rec.decisions.size(), 1u) << name;
        EXPECT_TRUE(rec.decisions[0].candidates.empty()) << name;
        EXPECT_EQ(rec.decisions[0].reason, "no back-end is up") << name;
    }
}

// REQ: CORE-02
TEST(AdcLbDecision, EveryMethodTracesItsChoiceAmongItsCandidatesWithAReason)
{
    for (const std::string& name : AdcLbMethodRegistry::GetNames(AdcLbMethodRegistry::NETSCALER))
    {
        Ptr<AdcLbMethod> m = AdcLbMethodRegistry::Create(name, AdcLbMethodRegistry::NETSCALER);
        for (uint32_t i = 0; i < 5; ++i)
        {
            AdcBackend b;
            b.name = "S" + std::to_string(i);
            b.address = Ipv4Address(0x0a000100 + i);
            m->AddBackend(b);
        }
        m->SetBackendUp(3, false);
        DecisionRecorder rec;
        Connect(m, rec);
        for (uint32_t i = 0; i < 30; ++i)
        {
            const int32_t chosen = m->Select(Request(i));
            ASSERT_GE(chosen, 0) << name;
            const AdcLbDecision& d = rec.decisions.back();
            EXPECT_NE(std::find(d.candidates.begin(), d.candidates.end(), chosen),
                      d.candidates.end())
                << name;
            EXPECT_EQ(std::find(d.candidates.begin(), d.candidates.end(), 3u), d.candidates.end())
                << name << ": the down back-end is no candidate";
            EXPECT_FALSE(d.reason.empty()) << name;
        }
    }
}
