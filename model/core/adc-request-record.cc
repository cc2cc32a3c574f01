/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-request-record.h"

namespace ns3
{

const char*
AdcRequestOutcomeToString(AdcRequestOutcome o)
{
    switch (o)
    {
    case AdcRequestOutcome::COMPLETED:
        return "COMPLETED";
    case AdcRequestOutcome::FAILED:
        return "FAILED";
    case AdcRequestOutcome::OPEN_AT_STOP:
        return "OPEN_AT_STOP";
    }
    return "UNKNOWN";
}

void
AdcRequestTally::CountSent()
{
    ++sent;
}

void
AdcRequestTally::CountEnd(const AdcRequestRecord& r)
{
    switch (r.outcome)
    {
    case AdcRequestOutcome::COMPLETED:
        ++completed;
        return;
    case AdcRequestOutcome::OPEN_AT_STOP:
        ++openAtStop;
        return;
    case AdcRequestOutcome::FAILED:
        break;
    }
    // Anything else is a failure: an outcome nobody knows must not vanish from the count.
    ++failed;
    ++failureReasons[r.reason];
}

uint64_t
AdcRequestTally::GetEnded() const
{
    return completed + failed + openAtStop;
}

bool
AdcRequestTally::IsBalanced() const
{
    return sent == GetEnded();
}

AdcRequestTally&
AdcRequestTally::operator+=(const AdcRequestTally& other)
{
    sent += other.sent;
    completed += other.completed;
    failed += other.failed;
    openAtStop += other.openAtStop;
    for (const auto& [reason, n] : other.failureReasons)
    {
        failureReasons[reason] += n;
    }
    return *this;
}

std::string
AdcRequestTally::ToString() const
{
    std::string s = "sent=" + std::to_string(sent) + " completed=" + std::to_string(completed) +
                    " failed=" + std::to_string(failed);
    std::string sep = " (";
    for (const auto& [reason, n] : failureReasons)
    {
        s += sep + (reason.empty() ? std::string("unspecified") : reason) + "=" + std::to_string(n);
        sep = ", ";
    }
    if (!failureReasons.empty())
    {
        s += ")";
    }
    return s + " open-at-stop=" + std::to_string(openAtStop);
}

} // namespace ns3
