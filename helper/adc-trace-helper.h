/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: deterministic CSV output, a periodic throughput sampler, the per-request
 * log with outcome accounting, and the check of that accounting against a scenario's
 * expectation.
 */

#ifndef ADC_TRACE_HELPER_H
#define ADC_TRACE_HELPER_H

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
 * \brief Writes a CSV file: a header row, then rows, with deterministic number formatting.
 *
 * Fields are escaped per RFC 4180 (a field holding a comma, quote, CR or LF is quoted, quotes
 * doubled); lines end with "\n". Numbers are formatted by the static helpers below, which never
 * depend on the locale or the platform, so the same run gives byte-identical files. The file is
 * flushed and closed on Close() or destruction.
 */
class AdcCsvWriter
{
  public:
    /**
     * \brief Open (truncate) \p path and write the header row.
     * \param path file name
     * \param header column names
     * \throw AdcConfigError naming the path when it cannot be opened
     */
    AdcCsvWriter(const std::string& path, const std::vector<std::string>& header);
    ~AdcCsvWriter();
    AdcCsvWriter(const AdcCsvWriter&) = delete;
    AdcCsvWriter& operator=(const AdcCsvWriter&) = delete;

    /**
     * \brief Write one row; every field is escaped.
     * \param fields the row, as many fields as the header has columns
     */
    void WriteRow(const std::vector<std::string>& fields);
    /// \brief Flush buffered rows to the file.
    void Flush();
    /// \brief Flush and close; later rows are ignored.
    void Close();
    /// \return the file name
    const std::string& GetPath() const;
    /// \return number of rows written (header excluded)
    uint64_t GetNRows() const;

    /// \param field raw text \return the field quoted per RFC 4180 when needed
    static std::string Escape(const std::string& field);
    /// \param t a time \return seconds with 9 decimals, exact (e.g. "1.500000001")
    static std::string FormatSeconds(Time t);
    /// \param t a time \return milliseconds with 6 decimals, exact (e.g. "12.345678")
    static std::string FormatMilliseconds(Time t);
    /// \param v a value \param decimals digits after the point \return fixed-point text
    static std::string FormatFixed(double v, int decimals);

  private:
    std::string m_path;     //!< file name
    std::ofstream m_out;    //!< the file
    std::size_t m_nColumns; //!< header width
    uint64_t m_nRows{0};    //!< rows written
};

/**
 * \ingroup adc
 * \brief Samples bytes sent and received at devices and applications every Interval and writes
 * one CSV row per watched item, direction and interval.
 *
 * CSV columns: time_s,name,direction,bytes,throughput_bps. time_s is the end of the interval;
 * bytes are those counted during it; throughput_bps = bytes * 8 / interval length. Rows are
 * ordered by time, then by the order items were watched (a device gives "rx" then "tx"); when
 * applications are watched, each interval ends with a row named "ALL" (direction "rx") holding
 * the sum of all applications' received bytes. Device bytes are whole frames as the device's
 * MacTx / MacRx trace sources see them; application bytes are packet payloads.
 */
class AdcThroughputSampler : public Object
{
  public:
    /**
     * \brief Signature of the "Sample" trace source: one per CSV row.
     * \param time end of the interval
     * \param name watched item (or "ALL")
     * \param direction "rx" or "tx"
     * \param bytes bytes counted in the interval
     * \param throughputBps bytes * 8 / interval length in seconds
     */
    typedef void (*SampleTracedCallback)(Time time,
                                         const std::string& name,
                                         const std::string& direction,
                                         uint64_t bytes,
                                         double throughputBps);

    /// Name of the aggregate row of all watched applications.
    static constexpr const char* AGGREGATE_NAME = "ALL";

    /// \return the TypeId
    static TypeId GetTypeId();
    AdcThroughputSampler();
    ~AdcThroughputSampler() override;

    /**
     * \brief Count the bytes a device receives ("rx", MacRx) and sends ("tx", MacTx).
     * \param dev the device (CSMA and point-to-point devices have both trace sources)
     * \param name name in the CSV (unique among watched items)
     * \throw AdcConfigError when the name is taken or the device lacks the trace sources
     */
    void WatchDevice(Ptr<NetDevice> dev, const std::string& name);
    /**
     * \brief Count the bytes an application receives ("rx").
     * \param app the application
     * \param name name in the CSV (unique among watched items)
     * \param traceName trace source with signature (Ptr<const Packet>, const Address&)
     * \throw AdcConfigError when the name is taken or the trace source does not exist
     */
    void WatchApplication(Ptr<Application> app,
                          const std::string& name,
                          const std::string& traceName = "Rx");
    /**
     * \brief Schedule sampling: counters restart at \p start, a sample every Interval until
     * \p stop (a shorter last interval ends exactly at \p stop). Opens FileName when set.
     * \param start time of the first interval's beginning
     * \param stop time of the last sample
     * \throw AdcConfigError on a bad interval or window, or when the file cannot be opened
     */
    void Start(Time start, Time stop);

    /**
     * \param name watched item, or "ALL" for the sum over applications
     * \param direction "rx" or "tx"
     * \return bytes counted since the item was watched
     * \throw AdcConfigError for an unknown name/direction
     */
    uint64_t GetTotalBytes(const std::string& name, const std::string& direction) const;
    /// \return number of samples taken so far (intervals closed)
    uint32_t GetNSamples() const;
    /// \brief Flush and close the CSV file.
    void Close();

  protected:
    void DoDispose() override;

  private:
    /// One counted (item, direction).
    struct Counter
    {
        std::string name;      //!< item name
        std::string direction; //!< "rx" or "tx"
        bool isApp{false};     //!< counts an application's received bytes
        uint64_t total{0};     //!< bytes since watched
        uint64_t reported{0};  //!< total at the last sample

        /// \param p a packet seen at a device
        void OnDevicePacket(Ptr<const Packet> p);
        /// \param p a packet received by an application \param from its source
        void OnAppPacket(Ptr<const Packet> p, const Address& from);
    };

    /// A trace connection to undo on dispose (the callbacks hold raw counter pointers).
    struct Connection
    {
        Ptr<Object> object; //!< traced object
        std::string trace;  //!< trace source name
        CallbackBase cb;    //!< connected callback
    };

    /// \param name item \param direction dir \param isApp app counter \return the new counter
    Counter* AddCounter(const std::string& name, const std::string& direction, bool isApp);
    /// \param obj object \param trace source \param cb callback: connect or throw
    void Connect(Ptr<Object> obj, const std::string& trace, const CallbackBase& cb);
    /// \brief Restart the interval counting at the window's start.
    void Begin();
    /// \brief Close an interval: write and fire one row per counter, schedule the next.
    void Sample();
    /// \param now sample time \param c counter name \param dir direction \param bytes bytes
    /// \param seconds interval length
    void Emit(Time now,
              const std::string& c,
              const std::string& dir,
              uint64_t bytes,
              double seconds);

    Time m_interval;                                  //!< sampling interval
    std::string m_fileName;                           //!< CSV file (empty: no file)
    Time m_stop;                                      //!< last sample time
    Time m_last;                                      //!< previous sample time
    EventId m_event;                                  //!< next sample or begin
    uint32_t m_nSamples{0};                           //!< samples taken
    std::vector<std::unique_ptr<Counter>> m_counters; //!< in watch order
    std::map<std::pair<std::string, std::string>, const Counter*> m_byName; //!< lookup
    std::vector<Connection> m_connections; //!< to disconnect on dispose
    std::unique_ptr<AdcCsvWriter> m_csv;   //!< output file
    TracedCallback<Time, const std::string&, const std::string&, uint64_t, double>
        m_sampleTrace; //!< "Sample"
};

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

#endif /* ADC_TRACE_HELPER_H */
