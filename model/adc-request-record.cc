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
    }
    return "UNKNOWN";
}

} // namespace ns3
