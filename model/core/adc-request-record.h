/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the record of one client request, from its start to its end.
 */

#ifndef ADC_REQUEST_RECORD_H
#define ADC_REQUEST_RECORD_H

#include "adc-flow-key.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief How a client request ended. Every request a client sends ends in exactly one of these.
 *
 * OPEN_AT_STOP is not a failure of the path: the run ended the request before the path did.
 * It is counted apart so that a path that stalls (and so never fails a request) still shows,
 * and a test expecting none open at the stop fails (AdcAccountingExpectation).
 */
enum class AdcRequestOutcome : uint8_t
{
    COMPLETED = 0,   //!< a full response was received
    FAILED = 1,      //!< the request failed; AdcRequestRecord::reason says why
    OPEN_AT_STOP = 2 //!< still open when the client application stopped
};

/// \return "COMPLETED", "FAILED" or "OPEN_AT_STOP" (the CSV outcome column)
const char* AdcRequestOutcomeToString(AdcRequestOutcome o);

/**
 * \ingroup adc
 * \brief One request's life, as written to the per-request CSV log.
 *
 * Applications fill it and fire it through a "RequestDone" trace source when the request ends.
 * Models the request passes through append themselves to \c path (hop names separated by '>'),
 * so the log shows the path taken.
 */
struct AdcRequestRecord
{
    uint32_t clientId{0};      //!< node id of the client
    AdcIpAddress clientIp;     //!< client's address
    uint64_t requestId{0};     //!< per-client sequence number, from 1
    std::string url;           //!< requested URL (path and query)
    std::string server;        //!< name or address of the server that answered (empty if none)
    std::string path;          //!< hops taken, e.g. "client>router>L1NS1>L2NS2>CRS1"
    Time start;                //!< when the request was issued
    Time end;                  //!< when it ended (response complete or failure)
    uint64_t requestBytes{0};  //!< bytes of the request sent
    uint64_t responseBytes{0}; //!< bytes of the response received (body and headers)
    uint16_t status{0};        //!< HTTP status code, 0 if none was received
    AdcRequestOutcome outcome{AdcRequestOutcome::FAILED}; //!< how it ended
    std::string reason;                                   //!< failure reason (empty unless FAILED)

    /// \return end - start
    Time GetLatency() const
    {
        return end - start;
    }
};

/**
 * \ingroup adc
 * \brief Requests counted by how they ended: what a client and a request log keep, so both
 * are checked the same way (AdcAccountingMismatch).
 *
 * A request is counted once when sent and once when it ends; it is "still open" in between.
 * Every sent request ended exactly once when IsBalanced().
 */
struct AdcRequestTally
{
    uint64_t sent{0};                               //!< requests sent
    uint64_t completed{0};                          //!< ended COMPLETED
    uint64_t failed{0};                             //!< ended FAILED
    uint64_t openAtStop{0};                         //!< ended OPEN_AT_STOP
    std::map<std::string, uint64_t> failureReasons; //!< FAILED by reason (sorted by reason)

    /// \brief Count a request sent.
    void CountSent();
    /// \param r a request that ended: counted by its outcome (and reason, when FAILED)
    void CountEnd(const AdcRequestRecord& r);
    /// \return completed + failed + openAtStop
    uint64_t GetEnded() const;
    /// \return true when sent == GetEnded(): every sent request ended exactly once
    bool IsBalanced() const;
    /**
     * \brief Add another tally (e.g. to check several clients as one).
     * \param other the tally to add
     * \return this tally
     */
    AdcRequestTally& operator+=(const AdcRequestTally& other);
    /**
     * \return e.g. "sent=10 completed=7 failed=2 (reset=1, timeout=1) open-at-stop=1"; a failure
     * without a reason shows as "unspecified"
     */
    std::string ToString() const;
};

} // namespace ns3

#endif /* ADC_REQUEST_RECORD_H */
