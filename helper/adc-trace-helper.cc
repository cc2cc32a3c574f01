/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: deterministic CSV output, a periodic throughput sampler, the per-request
 * log with outcome accounting, and the check of that accounting against a scenario's
 * expectation.
 */

#include "adc-trace-helper.h"

#include "ns3/adc-config-error.h"
#include "ns3/address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcTraceHelper");

NS_OBJECT_ENSURE_REGISTERED(AdcThroughputSampler);
NS_OBJECT_ENSURE_REGISTERED(AdcRequestLog);

namespace
{

/**
 * \brief Exact fixed-point text of an integer count of sub-units.
 * \param v value in sub-units (e.g. nanoseconds)
 * \param perUnit sub-units per unit (e.g. 1e9 for seconds)
 * \param decimals digits after the point (log10 of perUnit)
 * \return e.g. "-1.500000001"
 */
std::string
FormatScaled(int64_t v, uint64_t perUnit, int decimals)
{
    const bool negative = v < 0;
    const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    return fmt::format("{}{}.{:0{}}",
                       negative ? "-" : "",
                       magnitude / perUnit,
                       magnitude % perUnit,
                       decimals);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcCsvWriter

AdcCsvWriter::AdcCsvWriter(const std::string& path, const std::vector<std::string>& header)
    : m_path(path),
      m_nColumns(header.size())
{
    m_out.open(path, std::ios::out | std::ios::trunc | std::ios::binary);
    if (!m_out.is_open())
    {
        throw AdcConfigError("AdcCsvWriter: cannot open '" + path +
                             "' for writing: " + std::strerror(errno));
    }
    WriteRow(header);
    m_nRows = 0; // the header is not a row
}

AdcCsvWriter::~AdcCsvWriter()
{
    Close();
}

void
AdcCsvWriter::WriteRow(const std::vector<std::string>& fields)
{
    NS_ABORT_MSG_UNLESS(fields.size() == m_nColumns,
                        "AdcCsvWriter: row of " << fields.size() << " fields for " << m_nColumns
                                                << " columns in " << m_path);
    if (!m_out.is_open())
    {
        return;
    }
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i)
    {
        if (i > 0)
        {
            line += ',';
        }
        line += Escape(fields[i]);
    }
    line += '\n';
    m_out.write(line.data(), static_cast<std::streamsize>(line.size()));
    ++m_nRows;
}

void
AdcCsvWriter::Flush()
{
    if (m_out.is_open())
    {
        m_out.flush();
    }
}

void
AdcCsvWriter::Close()
{
    if (m_out.is_open())
    {
        m_out.flush();
        m_out.close();
    }
}

const std::string&
AdcCsvWriter::GetPath() const
{
    return m_path;
}

uint64_t
AdcCsvWriter::GetNRows() const
{
    return m_nRows;
}

std::string
AdcCsvWriter::Escape(const std::string& field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos)
    {
        return field;
    }
    std::string out = "\"";
    for (char c : field)
    {
        out += c;
        if (c == '"')
        {
            out += '"';
        }
    }
    out += '"';
    return out;
}

std::string
AdcCsvWriter::FormatSeconds(Time t)
{
    return FormatScaled(t.GetNanoSeconds(), 1000000000ULL, 9);
}

std::string
AdcCsvWriter::FormatMilliseconds(Time t)
{
    return FormatScaled(t.GetNanoSeconds(), 1000000ULL, 6);
}

std::string
AdcCsvWriter::FormatFixed(double v, int decimals)
{
    return fmt::format("{:.{}f}", v, decimals);
}

// ---------------------------------------------------------------------------------------------
// AdcThroughputSampler

void
AdcThroughputSampler::Counter::OnDevicePacket(Ptr<const Packet> p)
{
    total += p->GetSize();
}

void
AdcThroughputSampler::Counter::OnAppPacket(Ptr<const Packet> p, const Address& /* from */)
{
    total += p->GetSize();
}

TypeId
AdcThroughputSampler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcThroughputSampler")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<AdcThroughputSampler>()
            .AddAttribute("Interval",
                          "Sampling interval.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&AdcThroughputSampler::m_interval),
                          MakeTimeChecker())
            .AddAttribute("FileName",
                          "CSV file written from Start() on; empty for none.",
                          StringValue(""),
                          MakeStringAccessor(&AdcThroughputSampler::m_fileName),
                          MakeStringChecker())
            .AddTraceSource("Sample",
                            "One sample of one watched item and direction (one CSV row).",
                            MakeTraceSourceAccessor(&AdcThroughputSampler::m_sampleTrace),
                            "ns3::AdcThroughputSampler::SampleTracedCallback");
    return tid;
}

AdcThroughputSampler::AdcThroughputSampler()
{
    NS_LOG_FUNCTION(this);
}

AdcThroughputSampler::~AdcThroughputSampler()
{
    NS_LOG_FUNCTION(this);
}

void
AdcThroughputSampler::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    // The callbacks point at our counters: they must not outlive them.
    for (const Connection& c : m_connections)
    {
        c.object->TraceDisconnectWithoutContext(c.trace, c.cb);
    }
    m_connections.clear();
    Close();
    Object::DoDispose();
}

AdcThroughputSampler::Counter*
AdcThroughputSampler::AddCounter(const std::string& name, const std::string& direction, bool isApp)
{
    const auto key = std::make_pair(name, direction);
    if (name == AGGREGATE_NAME || m_byName.count(key) > 0)
    {
        throw AdcConfigError("AdcThroughputSampler: name '" + name +
                             "' is already used (or is "
                             "the reserved '" +
                             AGGREGATE_NAME +
                             "'); give each watched item a "
                             "unique name");
    }
    m_counters.push_back(std::make_unique<Counter>());
    Counter* c = m_counters.back().get();
    c->name = name;
    c->direction = direction;
    c->isApp = isApp;
    m_byName[key] = c;
    return c;
}

void
AdcThroughputSampler::Connect(Ptr<Object> obj, const std::string& trace, const CallbackBase& cb)
{
    if (!obj->TraceConnectWithoutContext(trace, cb))
    {
        throw AdcConfigError("AdcThroughputSampler: " + obj->GetInstanceTypeId().GetName() +
                             " has no trace source '" + trace + "'");
    }
    m_connections.push_back({obj, trace, cb});
}

void
AdcThroughputSampler::WatchDevice(Ptr<NetDevice> dev, const std::string& name)
{
    NS_LOG_FUNCTION(this << dev << name);
    NS_ABORT_MSG_UNLESS(dev, "AdcThroughputSampler::WatchDevice: null device");
    Counter* rx = AddCounter(name, "rx", false);
    Counter* tx = AddCounter(name, "tx", false);
    Connect(dev, "MacRx", MakeCallback(&Counter::OnDevicePacket, rx));
    Connect(dev, "MacTx", MakeCallback(&Counter::OnDevicePacket, tx));
}

void
AdcThroughputSampler::WatchApplication(Ptr<Application> app,
                                       const std::string& name,
                                       const std::string& traceName)
{
    NS_LOG_FUNCTION(this << app << name << traceName);
    NS_ABORT_MSG_UNLESS(app, "AdcThroughputSampler::WatchApplication: null application");
    Counter* rx = AddCounter(name, "rx", true);
    Connect(app, traceName, MakeCallback(&Counter::OnAppPacket, rx));
}

void
AdcThroughputSampler::Start(Time start, Time stop)
{
    NS_LOG_FUNCTION(this << start << stop);
    if (!m_interval.IsStrictlyPositive())
    {
        throw AdcConfigError("AdcThroughputSampler: Interval " +
                             AdcCsvWriter::FormatSeconds(m_interval) + " s must be positive");
    }
    if (start < Simulator::Now() || stop <= start)
    {
        throw AdcConfigError("AdcThroughputSampler: window [" + AdcCsvWriter::FormatSeconds(start) +
                             ", " + AdcCsvWriter::FormatSeconds(stop) +
                             "] s must not start in the past and must end after it starts");
    }
    if (!m_fileName.empty())
    {
        m_csv = std::make_unique<AdcCsvWriter>(
            m_fileName,
            std::vector<std::string>{"time_s", "name", "direction", "bytes", "throughput_bps"});
    }
    m_stop = stop;
    m_event.Cancel();
    m_event = Simulator::Schedule(start - Simulator::Now(), &AdcThroughputSampler::Begin, this);
}

void
AdcThroughputSampler::Begin()
{
    for (auto& c : m_counters)
    {
        c->reported = c->total;
    }
    m_last = Simulator::Now();
    m_event = Simulator::Schedule(std::min(m_interval, m_stop - m_last),
                                  &AdcThroughputSampler::Sample,
                                  this);
}

void
AdcThroughputSampler::Emit(Time now,
                           const std::string& name,
                           const std::string& dir,
                           uint64_t bytes,
                           double seconds)
{
    const double bps = static_cast<double>(bytes) * 8.0 / seconds;
    if (m_csv)
    {
        m_csv->WriteRow({AdcCsvWriter::FormatSeconds(now),
                         name,
                         dir,
                         std::to_string(bytes),
                         AdcCsvWriter::FormatFixed(bps, 3)});
    }
    m_sampleTrace(now, name, dir, bytes, bps);
}

void
AdcThroughputSampler::Sample()
{
    const Time now = Simulator::Now();
    const double seconds = (now - m_last).GetSeconds();
    uint64_t appBytes = 0;
    bool anyApp = false;
    for (auto& c : m_counters)
    {
        const uint64_t delta = c->total - c->reported;
        c->reported = c->total;
        Emit(now, c->name, c->direction, delta, seconds);
        if (c->isApp)
        {
            appBytes += delta;
            anyApp = true;
        }
    }
    if (anyApp)
    {
        Emit(now, AGGREGATE_NAME, "rx", appBytes, seconds);
    }
    m_last = now;
    ++m_nSamples;
    if (now < m_stop)
    {
        m_event = Simulator::Schedule(std::min(m_interval, m_stop - now),
                                      &AdcThroughputSampler::Sample,
                                      this);
    }
    else if (m_csv)
    {
        m_csv->Flush();
    }
}

uint64_t
AdcThroughputSampler::GetTotalBytes(const std::string& name, const std::string& direction) const
{
    if (name == AGGREGATE_NAME && direction == "rx")
    {
        uint64_t sum = 0;
        for (const auto& c : m_counters)
        {
            sum += c->isApp ? c->total : 0;
        }
        return sum;
    }
    const auto it = m_byName.find({name, direction});
    if (it == m_byName.end())
    {
        throw AdcConfigError("AdcThroughputSampler: nothing watched as '" + name + "' direction '" +
                             direction + "'");
    }
    return it->second->total;
}

uint32_t
AdcThroughputSampler::GetNSamples() const
{
    return m_nSamples;
}

void
AdcThroughputSampler::Close()
{
    if (m_csv)
    {
        m_csv->Close();
    }
}

// ---------------------------------------------------------------------------------------------
// Accounting expectations

AdcCountRange
AdcCountRange::Exactly(uint64_t n)
{
    return {n, n};
}

AdcCountRange
AdcCountRange::AtLeast(uint64_t n)
{
    return {n, std::numeric_limits<uint64_t>::max()};
}

AdcCountRange
AdcCountRange::Between(uint64_t lo, uint64_t hi)
{
    if (hi < lo)
    {
        throw AdcConfigError(fmt::format("AdcCountRange: {}..{} is empty; use lo <= hi", lo, hi));
    }
    return {lo, hi};
}

bool
AdcCountRange::Contains(uint64_t n) const
{
    return min <= n && n <= max;
}

std::string
AdcCountRange::ToString() const
{
    if (min == max)
    {
        return std::to_string(min);
    }
    if (max == std::numeric_limits<uint64_t>::max())
    {
        return "at least " + std::to_string(min);
    }
    return fmt::format("{}..{}", min, max);
}

AdcAccountingExpectation
AdcAccountingExpectation::Completed(uint64_t n)
{
    AdcAccountingExpectation e;
    e.completed = AdcCountRange::Exactly(n);
    return e;
}

AdcAccountingExpectation
AdcAccountingExpectation::CompletedAtLeast(uint64_t n)
{
    AdcAccountingExpectation e;
    e.completed = AdcCountRange::AtLeast(n);
    return e;
}

AdcAccountingExpectation
AdcAccountingExpectation::CompletedBetween(uint64_t lo, uint64_t hi)
{
    AdcAccountingExpectation e;
    e.completed = AdcCountRange::Between(lo, hi);
    return e;
}

AdcAccountingExpectation&
AdcAccountingExpectation::Failed(const std::string& reason, uint64_t n)
{
    failures[reason] = AdcCountRange::Exactly(n);
    return *this;
}

AdcAccountingExpectation&
AdcAccountingExpectation::FailedBetween(const std::string& reason, uint64_t lo, uint64_t hi)
{
    failures[reason] = AdcCountRange::Between(lo, hi);
    return *this;
}

AdcAccountingExpectation&
AdcAccountingExpectation::AnyFailures()
{
    anyFailures = true;
    return *this;
}

AdcAccountingExpectation&
AdcAccountingExpectation::OpenAtStop(uint64_t n)
{
    openAtStop = AdcCountRange::Exactly(n);
    return *this;
}

namespace
{

/**
 * \param subject the count as the message names it, e.g. "completed 3", "failures timeout=1"
 * \param n the count
 * \param range what is expected
 * \return "" when \p range holds \p n, else e.g. "completed 3 < expected 5"
 */
std::string
CountMismatch(const std::string& subject, uint64_t n, const AdcCountRange& range)
{
    if (range.Contains(n))
    {
        return "";
    }
    return fmt::format("{} {} expected {}", subject, n < range.min ? "<" : ">", range.ToString());
}

/// \return \p reason as the summaries show it
std::string
ReasonName(const std::string& reason)
{
    return reason.empty() ? "unspecified" : reason;
}

} // namespace

std::string
AdcAccountingMismatch(const AdcRequestTally& tally, const AdcAccountingExpectation& expected)
{
    std::vector<std::string> diffs;
    // A request sent and never ended is lost: no expectation can excuse it.
    if (tally.sent > tally.GetEnded())
    {
        diffs.push_back(fmt::format("sent {} but {} ended ({} still open, never ended)",
                                    tally.sent,
                                    tally.GetEnded(),
                                    tally.sent - tally.GetEnded()));
    }
    else if (tally.sent < tally.GetEnded())
    {
        diffs.push_back(fmt::format("sent {} but {} ended (some ended more than once)",
                                    tally.sent,
                                    tally.GetEnded()));
    }
    diffs.push_back(CountMismatch("completed " + std::to_string(tally.completed),
                                  tally.completed,
                                  expected.completed));
    diffs.push_back(CountMismatch("open at stop " + std::to_string(tally.openAtStop),
                                  tally.openAtStop,
                                  expected.openAtStop));
    if (!expected.anyFailures)
    {
        // Listed reasons, including those that did not occur, then unlisted ones.
        for (const auto& [reason, range] : expected.failures)
        {
            auto it = tally.failureReasons.find(reason);
            const uint64_t n = it == tally.failureReasons.end() ? 0 : it->second;
            diffs.push_back(
                CountMismatch(fmt::format("failures {}={}", ReasonName(reason), n), n, range));
        }
        for (const auto& [reason, n] : tally.failureReasons)
        {
            if (n > 0 && expected.failures.count(reason) == 0)
            {
                diffs.push_back(fmt::format("failures {}={} not expected", ReasonName(reason), n));
            }
        }
    }
    std::string out;
    for (const std::string& d : diffs)
    {
        if (!d.empty())
        {
            out += (out.empty() ? "" : "; ") + d;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// AdcRequestLog

TypeId
AdcRequestLog::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcRequestLog")
                            .SetParent<Object>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcRequestLog>()
                            .AddAttribute("FileName",
                                          "Per-request CSV file; empty for none (counters only).",
                                          StringValue(""),
                                          MakeStringAccessor(&AdcRequestLog::m_fileName),
                                          MakeStringChecker());
    return tid;
}

AdcRequestLog::AdcRequestLog()
{
    NS_LOG_FUNCTION(this);
}

AdcRequestLog::~AdcRequestLog()
{
    NS_LOG_FUNCTION(this);
}

void
AdcRequestLog::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // The callbacks hold a raw pointer to this log: disconnect them.
    for (const Ptr<Application>& app : m_watched)
    {
        app->TraceDisconnectWithoutContext("RequestSent",
                                           MakeCallback(&AdcRequestLog::NotifySent, this));
        app->TraceDisconnectWithoutContext("RequestDone",
                                           MakeCallback(&AdcRequestLog::Record, this));
    }
    m_watched.clear();
    Close();
    Object::DoDispose();
}

const std::vector<std::string>&
AdcRequestLog::Header()
{
    static const std::vector<std::string> header{"client_id",
                                                 "client_ip",
                                                 "request_id",
                                                 "url",
                                                 "server",
                                                 "path",
                                                 "start_s",
                                                 "end_s",
                                                 "latency_ms",
                                                 "request_bytes",
                                                 "response_bytes",
                                                 "status",
                                                 "outcome",
                                                 "reason"};
    return header;
}

void
AdcRequestLog::OpenIfNeeded()
{
    if (!m_csv && !m_closed && !m_fileName.empty())
    {
        m_csv = std::make_unique<AdcCsvWriter>(m_fileName, Header());
    }
}

void
AdcRequestLog::Watch(Ptr<Application> app)
{
    NS_LOG_FUNCTION(this << app);
    NS_ABORT_MSG_UNLESS(app, "AdcRequestLog::Watch: null application");
    OpenIfNeeded();
    // Listed before connecting, so a half-connected application is disconnected on dispose.
    m_watched.push_back(app);
    const std::pair<const char*, CallbackBase> sinks[] = {
        {"RequestSent", MakeCallback(&AdcRequestLog::NotifySent, this)},
        {"RequestDone", MakeCallback(&AdcRequestLog::Record, this)}};
    for (const auto& [trace, cb] : sinks)
    {
        if (!app->TraceConnectWithoutContext(trace, cb))
        {
            throw AdcConfigError("AdcRequestLog: " + app->GetInstanceTypeId().GetName() +
                                 " has no trace source '" + trace +
                                 "' (needed: RequestSent and RequestDone)");
        }
    }
}

void
AdcRequestLog::NotifySent(const AdcRequestRecord& /* r */)
{
    m_tally.CountSent();
}

void
AdcRequestLog::Record(const AdcRequestRecord& r)
{
    m_tally.CountEnd(r);
    if (r.outcome == AdcRequestOutcome::COMPLETED)
    {
        m_latenciesMs.push_back(r.GetLatency().GetSeconds() * 1000.0);
    }
    OpenIfNeeded();
    if (!m_csv)
    {
        return;
    }
    m_csv->WriteRow({std::to_string(r.clientId),
                     r.clientIp.ToString(),
                     std::to_string(r.requestId),
                     r.url,
                     r.server,
                     r.path,
                     AdcCsvWriter::FormatSeconds(r.start),
                     AdcCsvWriter::FormatSeconds(r.end),
                     AdcCsvWriter::FormatMilliseconds(r.GetLatency()),
                     std::to_string(r.requestBytes),
                     std::to_string(r.responseBytes),
                     std::to_string(r.status),
                     AdcRequestOutcomeToString(r.outcome),
                     r.reason});
}

uint64_t
AdcRequestLog::GetSent() const
{
    return m_tally.sent;
}

uint64_t
AdcRequestLog::GetCompleted() const
{
    return m_tally.completed;
}

uint64_t
AdcRequestLog::GetFailed() const
{
    return m_tally.failed;
}

uint64_t
AdcRequestLog::GetOpenAtStop() const
{
    return m_tally.openAtStop;
}

const AdcRequestTally&
AdcRequestLog::GetTally() const
{
    return m_tally;
}

const std::vector<double>&
AdcRequestLog::GetCompletedLatenciesMs() const
{
    return m_latenciesMs;
}

double
AdcRequestLog::GetMeanLatencyMs() const
{
    if (m_latenciesMs.empty())
    {
        return 0;
    }
    double sum = 0;
    for (double v : m_latenciesMs)
    {
        sum += v;
    }
    return sum / m_latenciesMs.size();
}

double
AdcRequestLog::GetLatencyPercentileMs(double p) const
{
    if (m_latenciesMs.empty())
    {
        return 0;
    }
    std::vector<double> sorted = m_latenciesMs;
    std::sort(sorted.begin(), sorted.end());
    const auto rank = static_cast<std::size_t>(std::ceil(std::clamp(p, 0.0, 1.0) * sorted.size()));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

const std::map<std::string, uint64_t>&
AdcRequestLog::GetFailureReasons() const
{
    return m_tally.failureReasons;
}

bool
AdcRequestLog::CheckAccounting() const
{
    return m_tally.IsBalanced();
}

std::string
AdcRequestLog::CheckExpectation(const AdcAccountingExpectation& expected) const
{
    return AdcAccountingMismatch(m_tally, expected);
}

std::string
AdcRequestLog::Summary() const
{
    std::string s = m_tally.ToString();
    if (!CheckAccounting())
    {
        s += fmt::format(" ACCOUNTING MISMATCH: {} sent but {} ended",
                         m_tally.sent,
                         m_tally.GetEnded());
    }
    return s;
}

void
AdcRequestLog::Close()
{
    if (m_csv)
    {
        m_csv->Close();
    }
    m_closed = true;
}

} // namespace ns3
