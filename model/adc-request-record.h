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
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief How a client request ended. Every request a client sends ends in exactly one of these.
 */
enum class AdcRequestOutcome : uint8_t
{
    COMPLETED = 0, //!< a full response was received
    FAILED = 1     //!< the request failed; AdcRequestRecord::reason says why
};

/// \return "COMPLETED" or "FAILED"
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
    std::string reason;                                   //!< failure reason (empty when completed)

    /// \return end - start
    Time GetLatency() const
    {
        return end - start;
    }
};

} // namespace ns3

#endif /* ADC_REQUEST_RECORD_H */
