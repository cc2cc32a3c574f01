/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc tests: the shared accounting check as a GoogleTest assertion.
 */

#ifndef ADC_TEST_ACCOUNTING_H
#define ADC_TEST_ACCOUNTING_H

#include "ns3/adc-http-client.h"
#include "ns3/adc-request-record.h"
#include "ns3/adc-request-log.h"
#include "ns3/application-container.h"
#include "ns3/ptr.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{

/**
 * \brief The library's accounting check (AdcAccountingMismatch) as an assertion result, so a
 * failing test prints what differs and the counts it saw:
 * \code
 *   EXPECT_TRUE(AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(6)
 *                                             .Failed("timeout", 1)));
 * \endcode
 * \param tally counted outcomes
 * \param expected what the scenario's set-up says
 * \return success, or failure with the differences and the counts
 */
inline ::testing::AssertionResult
AdcExpectAccounting(const AdcRequestTally& tally, const AdcAccountingExpectation& expected)
{
    const std::string mismatch = AdcAccountingMismatch(tally, expected);
    if (mismatch.empty())
    {
        return ::testing::AssertionSuccess() << tally.ToString();
    }
    return ::testing::AssertionFailure() << mismatch << " [" << tally.ToString() << "]";
}

/// \param log a request log \param expected the expectation \return as for a tally
inline ::testing::AssertionResult
AdcExpectAccounting(const AdcRequestLog& log, const AdcAccountingExpectation& expected)
{
    return AdcExpectAccounting(log.GetTally(), expected);
}

/// \param client a client's own counters \param expected the expectation \return as for a tally
inline ::testing::AssertionResult
AdcExpectAccounting(const AdcHttpClient& client, const AdcAccountingExpectation& expected)
{
    return AdcExpectAccounting(client.GetTally(), expected);
}

/// \param clients several clients, checked as one \param expected the expectation
/// \return as for a tally
inline ::testing::AssertionResult
AdcExpectAccounting(const std::vector<Ptr<AdcHttpClient>>& clients,
                    const AdcAccountingExpectation& expected)
{
    AdcRequestTally sum;
    for (const Ptr<AdcHttpClient>& c : clients)
    {
        sum += c->GetTally();
    }
    return AdcExpectAccounting(sum, expected);
}

/// \param apps AdcHttpClient applications, checked as one (any other application fails the
/// check) \param expected the expectation \return as for a tally
inline ::testing::AssertionResult
AdcExpectAccounting(const ApplicationContainer& apps, const AdcAccountingExpectation& expected)
{
    std::vector<Ptr<AdcHttpClient>> clients;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<AdcHttpClient> c = DynamicCast<AdcHttpClient>(apps.Get(i));
        if (!c)
        {
            return ::testing::AssertionFailure()
                   << "application " << i << " is not an AdcHttpClient";
        }
        clients.push_back(c);
    }
    return AdcExpectAccounting(clients, expected);
}

} // namespace ns3

#endif /* ADC_TEST_ACCOUNTING_H */
