/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * crd-compare's measurement: every request as its client saw it (the request log's record),
 * counted per second of issue time over the whole run (hitratio-V.csv, the warm-up evidence)
 * and, for the requests issued inside the measurement window only, the headline figures of
 * summary.csv and the load of load-V.csv. Included by crd-compare.cc only.
 */

#ifndef CRD_COMPARE_WINDOW_H
#define CRD_COMPARE_WINDOW_H

#include "ns3/adc-mpi.h"
#include "ns3/adc-request-record.h"
#include "ns3/simple-ref-count.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief What a client saw of one request: a cache hit, a cache miss, a bypass (the lower tier
 * sent it past the caches), or no response at all.
 *
 * Read from the response the client received: the record's path is the response's Via
 * entries, then "; X-Cache: HIT" or "; X-Cache: MISS" when a cache answered (the cache sets
 * X-Cache; a bypassed response carries none).
 */
enum class CrdClientView
{
    HIT,
    MISS,
    BYPASS,
    FAILED, //!< failed or open at the stop: no complete response
};

/// \param r a finished request \return how its client saw it
inline CrdClientView
CrdClassify(const AdcRequestRecord& r)
{
    if (r.outcome != AdcRequestOutcome::COMPLETED)
    {
        return CrdClientView::FAILED;
    }
    const std::size_t x = r.path.find("X-Cache: ");
    if (x == std::string::npos)
    {
        return CrdClientView::BYPASS;
    }
    return r.path.compare(x + 9, 3, "HIT") == 0 ? CrdClientView::HIT : CrdClientView::MISS;
}

/**
 * \brief The measurement of one crd-compare variant, fed by every client's "RequestDone".
 *
 * The window is [start, end) of issue time (the record's start): a request belongs to the
 * window in which its user asked for it, even when it completes after the window closed (each
 * ends within the clients' 8 s timeout, before they stop). Warm-up requests (issued before
 * start) only fill the caches and the per-second file.
 */
class CrdCompareWindow : public SimpleRefCount<CrdCompareWindow>
{
  public:
    /**
     * \param start the window's start (s, simulated) \param end its end (s)
     * \param lowerNames the lower appliances' names \param cacheNames the caches' names
     */
    CrdCompareWindow(double start,
                     double end,
                     std::vector<std::string> lowerNames,
                     std::vector<std::string> cacheNames)
        : m_start(start),
          m_end(end),
          m_lower(std::move(lowerNames)),
          m_caches(std::move(cacheNames)),
          m_targetRequests(m_lower.size() + m_caches.size(), 0),
          m_targetBytes(m_lower.size() + m_caches.size(), 0)
    {
    }

    /// \param r a request that ended (the client's RequestDone)
    void Record(const AdcRequestRecord& r)
    {
        const CrdClientView view = CrdClassify(r);
        const double t = r.start.GetSeconds();
        ++m_perSecond[static_cast<uint32_t>(t)][static_cast<int>(view)];
        if (t < m_start || t >= m_end)
        {
            return;
        }
        ++m_count[static_cast<int>(view)];
        if (view == CrdClientView::FAILED)
        {
            ++m_failures[r.outcome == AdcRequestOutcome::OPEN_AT_STOP ? "open-at-stop" : r.reason];
            return;
        }
        m_bytes[static_cast<int>(view)] += r.responseBytes;
        m_latenciesMs.push_back(r.GetLatency().GetSeconds() * 1000.0);
        // The response's Via: "1.1 CRS3, 1.1 L2NS1; X-Cache: HIT": the last lower appliance
        // named is the one that answered the client, the last cache the one that served it.
        const std::string via = r.path.substr(0, r.path.find(';'));
        int lower = -1;
        int cache = -1;
        std::istringstream in(via);
        std::string entry;
        while (std::getline(in, entry, ','))
        {
            const std::string name = entry.substr(entry.find_last_of(' ') + 1);
            for (std::size_t j = 0; j < m_lower.size(); ++j)
            {
                lower = m_lower[j] == name ? static_cast<int>(j) : lower;
            }
            for (std::size_t c = 0; c < m_caches.size(); ++c)
            {
                cache = m_caches[c] == name ? static_cast<int>(m_lower.size() + c) : cache;
            }
        }
        for (int k : {lower, cache})
        {
            if (k >= 0)
            {
                ++m_targetRequests[k];
                m_targetBytes[k] += r.responseBytes;
            }
        }
    }

    /**
     * \brief Under MPI make every count every rank's (collective); no-op on one rank.
     * \param seconds the run's length (s): the per-second rows gathered
     */
    void GatherRanks(uint32_t seconds)
    {
        std::vector<uint64_t> v;
        for (uint32_t s = 0; s < seconds; ++s)
        {
            auto it = m_perSecond.find(s);
            for (int k = 0; k < 4; ++k)
            {
                v.push_back(it == m_perSecond.end() ? 0 : it->second[k]);
            }
        }
        for (int k = 0; k < 4; ++k)
        {
            v.push_back(m_count[k]);
            v.push_back(m_bytes[k]);
        }
        v.insert(v.end(), m_targetRequests.begin(), m_targetRequests.end());
        v.insert(v.end(), m_targetBytes.begin(), m_targetBytes.end());
        AdcMpi::Sum(v);
        std::size_t i = 0;
        m_perSecond.clear();
        for (uint32_t s = 0; s < seconds; ++s, i += 4)
        {
            if (v[i] + v[i + 1] + v[i + 2] + v[i + 3] > 0)
            {
                m_perSecond[s] = {v[i], v[i + 1], v[i + 2], v[i + 3]};
            }
        }
        for (int k = 0; k < 4; ++k)
        {
            m_count[k] = v[i++];
            m_bytes[k] = v[i++];
        }
        for (auto& n : m_targetRequests)
        {
            n = v[i++];
        }
        for (auto& n : m_targetBytes)
        {
            n = v[i++];
        }
        AdcMpi::Gather(m_latenciesMs);
        std::ostringstream mine;
        for (const auto& [reason, n] : m_failures)
        {
            mine << reason << '\t' << n << '\n';
        }
        m_failures.clear();
        for (const std::string& text : AdcMpi::GatherText(mine.str()))
        {
            std::istringstream rows(text);
            std::string reason;
            uint64_t n = 0;
            while (std::getline(rows, reason, '\t') && rows >> n && rows.ignore())
            {
                m_failures[reason] += n;
            }
        }
    }

    /// \param view a class \return requests of the window seen so
    uint64_t Count(CrdClientView view) const
    {
        return m_count[static_cast<int>(view)];
    }

    /// \param view a class \return response bytes the window's requests of that class received
    uint64_t Bytes(CrdClientView view) const
    {
        return m_bytes[static_cast<int>(view)];
    }

    /// \return every request issued in the window
    uint64_t Requests() const
    {
        return m_count[0] + m_count[1] + m_count[2] + m_count[3];
    }

    /// \return HIT / (HIT + MISS): of the requests a cache answered, the share it had stored
    double HitRatio() const
    {
        const uint64_t n = Count(CrdClientView::HIT) + Count(CrdClientView::MISS);
        return n ? double(Count(CrdClientView::HIT)) / n : 0.0;
    }

    /// \return the bytes of HIT responses over the bytes of HIT and MISS responses
    double ByteHitRatio() const
    {
        const uint64_t n = Bytes(CrdClientView::HIT) + Bytes(CrdClientView::MISS);
        return n ? double(Bytes(CrdClientView::HIT)) / n : 0.0;
    }

    /// \return response bytes of every completed request of the window
    uint64_t CompletedBytes() const
    {
        return Bytes(CrdClientView::HIT) + Bytes(CrdClientView::MISS) +
               Bytes(CrdClientView::BYPASS);
    }

    /// \return the mean latency (ms) of the window's completed requests (0: none)
    double MeanMs() const
    {
        double sum = 0;
        for (double x : m_latenciesMs)
        {
            sum += x;
        }
        return m_latenciesMs.empty() ? 0.0 : sum / m_latenciesMs.size();
    }

    /**
     * \param p a fraction in [0, 1]
     * \return the nearest-rank p-th percentile (ms) of the window's completed requests'
     * latencies: the smallest latency at least a share p of them do not exceed (0: none)
     */
    double PercentileMs(double p) const
    {
        if (m_latenciesMs.empty())
        {
            return 0;
        }
        std::vector<double> sorted = m_latenciesMs;
        std::sort(sorted.begin(), sorted.end());
        const auto rank = static_cast<std::size_t>(std::ceil(p * sorted.size()));
        return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
    }

    /// \return "reason:n;reason:n" of the window's failures, sorted by reason; "none" if none
    std::string Failures() const
    {
        std::string out;
        for (const auto& [reason, n] : m_failures)
        {
            out += (out.empty() ? "" : ";") + (reason.empty() ? "unspecified" : reason) + ':' +
                   std::to_string(n);
        }
        return out.empty() ? "none" : out;
    }

    /// \return the largest share of the window's completed requests one lower appliance answered
    double MaxLowerShare() const
    {
        uint64_t total = 0;
        uint64_t most = 0;
        for (std::size_t j = 0; j < m_lower.size(); ++j)
        {
            total += m_targetRequests[j];
            most = std::max(most, m_targetRequests[j]);
        }
        return total ? double(most) / total : 0.0;
    }

    /**
     * \brief load-V.csv: per lower appliance and per cache, the window's completed requests
     * whose response came through it (by the Via the client received) and their response bytes.
     * \param file the file \param variant the variant's name
     */
    void WriteLoad(const std::string& file, const std::string& variant) const
    {
        std::ofstream out(file);
        out << "variant,target,requests,bytes\n";
        for (std::size_t k = 0; k < m_targetRequests.size(); ++k)
        {
            out << variant << ','
                << (k < m_lower.size() ? m_lower[k] : m_caches[k - m_lower.size()]) << ','
                << m_targetRequests[k] << ',' << m_targetBytes[k] << '\n';
        }
    }

    /**
     * \brief hitratio-V.csv: per second of issue time, the requests as their clients saw
     * them. Row time_s = k covers requests issued in [k-1, k); hit_ratio = hits / (hits +
     * misses); in_window = 1 when the second lies inside the measurement window.
     * \param file the file \param seconds the rows (the run's length)
     */
    void WritePerSecond(const std::string& file, uint32_t seconds) const
    {
        std::ofstream out(file);
        out << "time_s,hits,misses,hit_ratio,bypasses,failed,in_window\n"
            << std::fixed << std::setprecision(4);
        for (uint32_t s = 0; s < seconds; ++s)
        {
            auto it = m_perSecond.find(s);
            const std::array<uint64_t, 4> c =
                it == m_perSecond.end() ? std::array<uint64_t, 4>{} : it->second;
            out << s + 1 << ',' << c[0] << ',' << c[1] << ','
                << (c[0] + c[1] ? double(c[0]) / (c[0] + c[1]) : 0.0) << ',' << c[2] << ',' << c[3]
                << ',' << (s >= m_start && s + 1 <= m_end ? 1 : 0) << '\n';
        }
    }

  private:
    double m_start;                                          //!< window start (s)
    double m_end;                                            //!< window end (s)
    std::vector<std::string> m_lower;                        //!< lower appliances' names
    std::vector<std::string> m_caches;                       //!< caches' names
    std::map<uint32_t, std::array<uint64_t, 4>> m_perSecond; //!< second -> count per view
    std::array<uint64_t, 4> m_count{};                       //!< window: requests per view
    std::array<uint64_t, 4> m_bytes{};                       //!< window: response bytes per view
    std::vector<double> m_latenciesMs;                       //!< window: completed latencies
    std::map<std::string, uint64_t> m_failures;              //!< window: failures by reason
    std::vector<uint64_t> m_targetRequests; //!< window: per lower appliance, then per cache
    std::vector<uint64_t> m_targetBytes;    //!< window: their response bytes
};

} // namespace ns3

#endif /* CRD_COMPARE_WINDOW_H */
