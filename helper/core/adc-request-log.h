/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: the per-request log with outcome accounting, and the check of that accounting
 * against what a scenario expects.
 */

#ifndef ADC_REQUEST_LOG_H
#define ADC_REQUEST_LOG_H

#include "adc-csv-writer.h"

#include "ns3/adc-request-record.h"
#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class Address;
class Packet;

/**
 * \ingroup adc
 * \brief A range of counts an accounting expectation allows, [min, max].
 */
struct AdcCountRange
{
    uint64_t min{0}; //!< smallest count allowed
    uint64_t max{0}; //!< largest count allowed

    /// \param n the count \return [n, n]
    static AdcCountRange Exactly(uint64_t n);
    /// \param n the count \return [n, unbounded]
    static AdcCountRange AtLeast(uint64_t n);
    /**
     * \param lo smallest
     * \param hi largest
     * \return [lo, hi]
     * \throw AdcConfigError when hi < lo
     */
    static AdcCountRange Between(uint64_t lo, uint64_t hi);
    /// \param n a count \return true when min <= n <= max
    bool Contains(uint64_t n) const;
    /// \return "5", "at least 5" or "2..7"
    std::string ToString() const;
};

/**
 * \ingroup adc
 * \brief How a scenario's requests must end: how many complete, how many fail with which
 * reasons, how many are still open when the clients stop (none, unless said otherwise).
 *
 * The counts come from the scenario's set-up (requests issued, failures injected), so a path
 * that stalls or loses requests makes the check fail even when every request "ended". Built
 * by chaining, e.g.
 * \code
 *   AdcAccountingExpectation::Completed(6).Failed("timeout", 1)
 *   AdcAccountingExpectation::CompletedAtLeast(200)
 *   AdcAccountingExpectation::Completed(0).OpenAtStop(3)
 * \endcode
 * A chain starts with one of the static Completed functions: called on an expectation, they
 * return a new one and drop what the chain set before. Check it with AdcAccountingMismatch()
 * or AdcRequestLog::CheckExpectation().
 */
struct AdcAccountingExpectation
{
    AdcCountRange completed;                       //!< requests that complete (exactly 0)
    std::map<std::string, AdcCountRange> failures; //!< failures by reason; others: none
    bool anyFailures{false};                       //!< failures of any reason and number pass
    AdcCountRange openAtStop;                      //!< requests open at the stop (exactly 0)

    /// \param n requests that complete \return an expectation of exactly \p n completed
    static AdcAccountingExpectation Completed(uint64_t n);
    /// \param n requests that complete at least \return the expectation
    static AdcAccountingExpectation CompletedAtLeast(uint64_t n);
    /**
     * \param lo smallest
     * \param hi largest number completed
     * \return the expectation
     * \throw AdcConfigError when hi < lo
     */
    static AdcAccountingExpectation CompletedBetween(uint64_t lo, uint64_t hi);
    /**
     * \brief Expect exactly \p n failures with \p reason.
     * \param reason the failure reason (e.g. "timeout", "http-status-502")
     * \param n how many
     * \return this expectation
     */
    AdcAccountingExpectation& Failed(const std::string& reason, uint64_t n);
    /**
     * \brief Expect between \p lo and \p hi failures with \p reason, for scenarios whose
     * set-up bounds the failures (e.g. requests sent while a failure is undetected).
     * \param reason the failure reason
     * \param lo smallest
     * \param hi largest
     * \return this expectation
     * \throw AdcConfigError when hi < lo
     */
    AdcAccountingExpectation& FailedBetween(const std::string& reason, uint64_t lo, uint64_t hi);
    /**
     * \brief Let failures of any reason and number pass (an experiment's run decides them);
     * completed, open-at-stop and the balance are still checked.
     * \return this expectation
     */
    AdcAccountingExpectation& AnyFailures();
    /// \param n requests open when the clients stop \return this expectation
    AdcAccountingExpectation& OpenAtStop(uint64_t n);
};

/**
 * \ingroup adc
 * \brief Check counted outcomes against an expectation.
 *
 * Besides the expectation's counts, every sent request must have ended exactly once
 * (completed, failed or open at stop): a request a client never ended (its application never
 * stopped, or a model lost it) fails the check.
 * \param tally the counts (AdcRequestLog::GetTally(), AdcHttpClient::GetTally(), or a sum)
 * \param expected what the scenario's set-up says
 * \return "" when the counts meet the expectation, else every difference, separated by "; ",
 *         e.g. "completed 3 < expected 5; open at stop 2 > expected 0; failures timeout=1 not
 *         expected"
 */
std::string AdcAccountingMismatch(const AdcRequestTally& tally,
                                  const AdcAccountingExpectation& expected);

/**
 * \ingroup adc
 * \brief Logs every finished client request as one CSV row and keeps outcome accounting.
 *
 * CSV columns: client_id,client_ip,request_id,url,server,path,start_s,end_s,latency_ms,
 * request_bytes,response_bytes,status,outcome,reason. Watch() connects to an application's
 * "RequestSent" and "RequestDone" trace sources (signature void(const AdcRequestRecord&));
 * applications without them can call NotifySent() and Record() directly. Every sent request
 * must end exactly once, completed, failed or open at stop: CheckAccounting() tells whether it
 * did; CheckExpectation() also compares the counts with what the scenario expects.
 */
class AdcRequestLog : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    AdcRequestLog();
    ~AdcRequestLog() override;

    /**
     * \brief Connect to \p app's "RequestSent" and "RequestDone" trace sources.
     * \param app the client application
     * \throw AdcConfigError when a trace source is missing, or the file cannot be opened
     */
    void Watch(Ptr<Application> app);
    /// \param r a request just sent: counted as sent
    void NotifySent(const AdcRequestRecord& r);
    /// \param r a finished request: one CSV row, counted by its outcome
    void Record(const AdcRequestRecord& r);

    /// \return requests sent
    uint64_t GetSent() const;
    /// \return requests completed
    uint64_t GetCompleted() const;
    /// \return requests failed
    uint64_t GetFailed() const;
    /// \return requests still open when their client stopped
    uint64_t GetOpenAtStop() const;
    /// \return every count in one tally
    const AdcRequestTally& GetTally() const;
    /// \return latencies of the completed requests in milliseconds, in completion order
    const std::vector<double>& GetCompletedLatenciesMs() const;
    /// \return mean latency of the completed requests in ms (0 when none completed)
    double GetMeanLatencyMs() const;
    /**
     * \brief Nearest-rank percentile of the completed requests' latencies.
     * \param p the fraction, in [0, 1] (0.95 for the 95th percentile)
     * \return the latency in ms (0 when none completed)
     */
    double GetLatencyPercentileMs(double p) const;
    /// \return failures by reason (sorted by reason)
    const std::map<std::string, uint64_t>& GetFailureReasons() const;
    /// \return true when sent == completed + failed + open at stop: every request ended once
    bool CheckAccounting() const;
    /**
     * \brief Compare the counts with what the scenario expects (AdcAccountingMismatch).
     * \param expected the expectation
     * \return "" when met, else what differs
     */
    std::string CheckExpectation(const AdcAccountingExpectation& expected) const;
    /// \return e.g. "sent=10 completed=7 failed=2 (reset=1, timeout=1) open-at-stop=1"
    std::string Summary() const;
    /// \brief Flush and close the CSV file.
    void Close();
    /**
     * \brief Under MPI, make the counts, failure reasons and latencies those of every rank's
     * log (collective: every rank calls it, after Simulator::Run()); each rank's CSV file keeps
     * its own requests. Nothing changes on one rank.
     */
    void GatherRanks();

    /// \return the CSV header columns
    static const std::vector<std::string>& Header();

  protected:
    void DoDispose() override;

  private:
    /// \brief Open FileName when set and not open yet.
    void OpenIfNeeded();

    std::string m_fileName;                  //!< CSV file (empty: no file)
    std::unique_ptr<AdcCsvWriter> m_csv;     //!< output file
    bool m_closed{false};                    //!< Close() was called
    AdcRequestTally m_tally;                 //!< requests sent and how they ended
    std::vector<double> m_latenciesMs;       //!< completed requests' latencies
    std::vector<Ptr<Application>> m_watched; //!< to disconnect on dispose
};

} // namespace ns3

#endif /* ADC_REQUEST_LOG_H */
