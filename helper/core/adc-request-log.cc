/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-request-log.h"

#include "adc-mpi.h"

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
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcRequestLog");

NS_OBJECT_ENSURE_REGISTERED(AdcRequestLog);

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

void
AdcRequestLog::GatherRanks()
{
    if (AdcMpi::GetSize() <= 1)
    {
        return;
    }
    std::vector<uint64_t> counts{m_tally.sent,
                                 m_tally.completed,
                                 m_tally.failed,
                                 m_tally.openAtStop};
    AdcMpi::Sum(counts);
    std::ostringstream reasons;
    for (const auto& [reason, n] : m_tally.failureReasons)
    {
        reasons << n << ' ' << reason << '\n';
    }
    AdcRequestTally all;
    all.sent = counts[0];
    all.completed = counts[1];
    all.failed = counts[2];
    all.openAtStop = counts[3];
    for (const std::string& text : AdcMpi::GatherText(reasons.str()))
    {
        std::istringstream in(text);
        uint64_t n = 0;
        std::string reason;
        while (in >> n && std::getline(in >> std::ws, reason))
        {
            all.failureReasons[reason] += n;
        }
    }
    m_tally = all;
    AdcMpi::Gather(m_latenciesMs);
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
