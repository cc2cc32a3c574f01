/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc benchmarks: pieces shared by the benchmark programs (header only, not part of the
 * library).
 */

#ifndef ADC_BENCH_UTIL_H
#define ADC_BENCH_UTIL_H

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/packet.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// A benchmark's results: (metric, value) rows in the order they are reported.
using AdcBenchRows = std::vector<std::pair<std::string, std::string>>;

/**
 * \brief Write \p rows to \p csv as a "metric,value" table; an empty path writes nothing.
 * \param csv the file (from the --csv option)
 * \param rows the results
 * \return the program's exit status: 0, or 2 (with the reason on stderr) when the file
 *         cannot be written
 */
inline int
AdcBenchWriteCsv(const std::string& csv, const AdcBenchRows& rows)
{
    if (csv.empty())
    {
        return 0;
    }
    try
    {
        AdcCsvWriter out(csv, {"metric", "value"});
        for (const auto& [metric, value] : rows)
        {
            out.WriteRow({metric, value});
        }
    }
    catch (const AdcConfigError& e)
    {
        std::cerr << e.what() << std::endl;
        return 2;
    }
    return 0;
}

/// \return the CPU seconds this thread has used (a check of wall-clock times on a busy machine)
inline double
AdcBenchThreadCpuSeconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/**
 * \brief Counts simulated packets: every device hand-off (MacTx) on every node, i.e. each hop
 * of each packet. Connect after the topology is built; reset between simulations.
 */
class AdcBenchPacketCounter
{
  public:
    /// Connect to every device of every node that has a MacTx trace source.
    void ConnectEveryDevice()
    {
        m_packets = 0;
        for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
        {
            Ptr<Node> node = NodeList::GetNode(n);
            for (uint32_t d = 0; d < node->GetNDevices(); ++d)
            {
                node->GetDevice(d)->TraceConnectWithoutContext(
                    "MacTx",
                    MakeCallback(&AdcBenchPacketCounter::Count, this));
            }
        }
    }

    /// Start counting from zero (e.g. after a warm-up phase).
    void Reset()
    {
        m_packets = 0;
    }

    /// \return the packets counted
    uint64_t Get() const
    {
        return m_packets;
    }

  private:
    void Count(Ptr<const Packet>)
    {
        ++m_packets;
    }

    uint64_t m_packets{0}; //!< packets so far
};

/**
 * \brief One variant of a benchmark, measured --repeat times: wall-clock and CPU seconds of
 * each Simulator::Run and the packets it moved (the simulation is deterministic, so the count
 * must be the same every time: checked).
 */
struct AdcBenchSeries
{
    std::string name;          //!< the variant's name, e.g. "FULL_NAT"
    std::vector<double> walls; //!< wall-clock seconds of each repetition
    std::vector<double> cpus;  //!< CPU seconds of each repetition
    uint64_t packets{0};       //!< packets of the first repetition
    bool packetsStable{true};  //!< every repetition moved the same packets

    /**
     * \brief Add one repetition.
     * \param wallS wall-clock seconds
     * \param cpuS CPU seconds of this thread
     * \param n packets moved
     */
    void Add(double wallS, double cpuS, uint64_t n)
    {
        if (!walls.empty() && n != packets)
        {
            packetsStable = false;
        }
        if (walls.empty())
        {
            packets = n;
        }
        walls.push_back(wallS);
        cpus.push_back(cpuS);
    }

    /// \return the median of \p v (0 when empty)
    static double Median(std::vector<double> v)
    {
        if (v.empty())
        {
            return 0;
        }
        std::sort(v.begin(), v.end());
        const std::size_t m = v.size() / 2;
        return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    /// \return packets per wall-clock second at the median wall-clock time
    double Pps() const
    {
        const double w = Median(walls);
        return w > 0 ? packets / w : 0;
    }

    /// \return packets per CPU second at the median CPU time
    double CpuPps() const
    {
        const double c = Median(cpus);
        return c > 0 ? packets / c : 0;
    }

    /// \return "min/median/max" of the wall-clock seconds
    std::string WallSpread() const
    {
        if (walls.empty())
        {
            return "-";
        }
        const auto [lo, hi] = std::minmax_element(walls.begin(), walls.end());
        return fmt::format("{:.3f}/{:.3f}/{:.3f}", *lo, Median(walls), *hi);
    }
};

/**
 * \brief The measured pairs of a benchmark: a variant against the baseline doing the same work,
 * as the ratio of their packets per wall-clock second (medians). A pair whose packet counts
 * differ by more than 1 % (or vary between repetitions) measures different work: it is shown as
 * "not comparable" with both counts and makes the benchmark fail (Ok() false). Every pair is one
 * row of results/bench/ratios.csv: bench,variant,baseline,ratio,target,packets,baseline_packets.
 */
class AdcBenchRatios
{
  public:
    /// The most two counts of a pair may differ, relative to the baseline's.
    static constexpr double kMaxCountDifference = 0.01;

    /// \param bench the benchmark's name, e.g. "ilb-bench"
    explicit AdcBenchRatios(std::string bench)
        : m_bench(std::move(bench))
    {
    }

    /**
     * \brief Add a pair.
     * \param variant the measured variant
     * \param baseline the baseline doing the same work
     * \param target the ratio it should reach (at least)
     * \param workDone false when either side did not do all its work (e.g. requests that did
     *        not complete): the pair is then not comparable either
     */
    void Add(const AdcBenchSeries& variant,
             const AdcBenchSeries& baseline,
             double target,
             bool workDone = true)
    {
        Pair p;
        p.variant = variant.name;
        p.baseline = baseline.name;
        p.target = target;
        p.packets = variant.packets;
        p.baselinePackets = baseline.packets;
        const double diff =
            std::fabs(static_cast<double>(p.packets) - static_cast<double>(p.baselinePackets));
        p.comparable = workDone && variant.packetsStable && baseline.packetsStable &&
                       p.baselinePackets > 0 && diff <= kMaxCountDifference * p.baselinePackets &&
                       baseline.Pps() > 0;
        p.ratio = p.comparable ? variant.Pps() / baseline.Pps() : 0;
        p.cpuRatio =
            p.comparable && baseline.CpuPps() > 0 ? variant.CpuPps() / baseline.CpuPps() : 0;
        p.variantSpread = variant.WallSpread();
        p.baselineSpread = baseline.WallSpread();
        m_pairs.push_back(p);
    }

    /// \return true when every pair was comparable (packet counts within 1 %)
    bool Ok() const
    {
        return std::all_of(m_pairs.begin(), m_pairs.end(), [](const Pair& p) {
            return p.comparable;
        });
    }

    /// Print the pairs as a table on \p os.
    void Print(std::ostream& os) const
    {
        os << fmt::format("\n{:<12} {:<14} {:>7} {:>7} {:>7} {:>4} {:>11} {:>11} {:>23} {:>23}\n",
                          "variant",
                          "baseline",
                          "ratio",
                          "cpu",
                          "target",
                          "met",
                          "packets",
                          "base_pkts",
                          "wall_s min/med/max",
                          "base wall_s min/med/max");
        for (const Pair& p : m_pairs)
        {
            if (!p.comparable)
            {
                os << fmt::format("{:<12} {:<14} not comparable: {} packets vs {} (differ by more "
                                  "than 1 %, between repetitions, or work was left undone)\n",
                                  p.variant,
                                  p.baseline,
                                  p.packets,
                                  p.baselinePackets);
                continue;
            }
            os << fmt::format("{:<12} {:<14} {:>7.3f} {:>7.3f} {:>7} {:>4} {:>11} {:>11} {:>23} "
                              "{:>23}\n",
                              p.variant,
                              p.baseline,
                              p.ratio,
                              p.cpuRatio,
                              fmt::format(">={:.2f}", p.target),
                              p.ratio >= p.target ? "yes" : "NO",
                              p.packets,
                              p.baselinePackets,
                              p.variantSpread,
                              p.baselineSpread);
        }
    }

    /**
     * \brief Append the pairs to \p rows as metric,value rows (ratio_VARIANT_vs_BASELINE ...).
     * \param rows the benchmark's rows
     */
    void AppendRows(AdcBenchRows& rows) const
    {
        for (const Pair& p : m_pairs)
        {
            const std::string k = "ratio_" + p.variant + "_vs_" + p.baseline;
            rows.emplace_back(k,
                              p.comparable ? AdcCsvWriter::FormatFixed(p.ratio, 3)
                                           : std::string("not comparable"));
            rows.emplace_back(k + "_cpu", AdcCsvWriter::FormatFixed(p.cpuRatio, 3));
            rows.emplace_back(k + "_target", AdcCsvWriter::FormatFixed(p.target, 2));
            rows.emplace_back(k + "_packets", std::to_string(p.packets));
            rows.emplace_back(k + "_baseline_packets", std::to_string(p.baselinePackets));
        }
    }

    /**
     * \brief Write the pairs as bench,variant,baseline,ratio,target,packets,baseline_packets
     * (./adc bench gathers every benchmark's file into results/bench/ratios.csv); an empty path
     * writes nothing.
     * \param path the file (the --ratios option)
     * \return 0, or 2 when the file cannot be written
     */
    int WriteCsv(const std::string& path) const
    {
        if (path.empty())
        {
            return 0;
        }
        try
        {
            AdcCsvWriter out(
                path,
                {"bench", "variant", "baseline", "ratio", "target", "packets", "baseline_packets"});
            for (const Pair& p : m_pairs)
            {
                out.WriteRow({m_bench,
                              p.variant,
                              p.baseline,
                              p.comparable ? AdcCsvWriter::FormatFixed(p.ratio, 3)
                                           : std::string("not comparable"),
                              AdcCsvWriter::FormatFixed(p.target, 2),
                              std::to_string(p.packets),
                              std::to_string(p.baselinePackets)});
            }
        }
        catch (const AdcConfigError& e)
        {
            std::cerr << e.what() << std::endl;
            return 2;
        }
        return 0;
    }

  private:
    /// One measured pair.
    struct Pair
    {
        std::string variant;         //!< measured variant
        std::string baseline;        //!< its baseline
        double target{0};            //!< ratio to reach
        double ratio{0};             //!< pps(variant) / pps(baseline), medians
        double cpuRatio{0};          //!< the same on CPU seconds
        uint64_t packets{0};         //!< the variant's packets
        uint64_t baselinePackets{0}; //!< the baseline's packets
        bool comparable{false};      //!< counts within 1 % and stable
        std::string variantSpread;   //!< wall-clock min/median/max
        std::string baselineSpread;  //!< the baseline's
    };

    std::string m_bench;       //!< the benchmark's name
    std::vector<Pair> m_pairs; //!< in the order added
};

/**
 * \brief A benchmark's exit status: 2 when a file could not be written, 3 when a pair was not
 * comparable (different work), else 0.
 * \param ratios the pairs
 * \param csvStatus AdcBenchWriteCsv's status
 * \param ratiosStatus AdcBenchRatios::WriteCsv's status
 * \return the status
 */
inline int
AdcBenchExitStatus(const AdcBenchRatios& ratios, int csvStatus, int ratiosStatus)
{
    if (csvStatus != 0 || ratiosStatus != 0)
    {
        return 2;
    }
    if (!ratios.Ok())
    {
        std::cerr << "bench failed: a pair's packet counts differ (see \"not comparable\")"
                  << std::endl;
        return 3;
    }
    return 0;
}

/**
 * \ingroup adc
 * \brief Run each variant \p repeat times, interleaved (variant 0, 1, ..., then again), so that
 * a machine's load drifts over all of them alike; progress goes to stderr.
 * \tparam Result what one run returns: wallS, cpuS (seconds) and packets (moved)
 * \param names the variants' names
 * \param repeat repetitions of each
 * \param run run(v) runs variant v once and returns its Result
 * \param last out: each variant's last Result (resized to names.size())
 * \return each variant's series
 */
template <class Result, class Run>
std::vector<AdcBenchSeries>
AdcBenchInterleave(const std::vector<std::string>& names,
                   uint32_t repeat,
                   Run run,
                   std::vector<Result>& last)
{
    std::vector<AdcBenchSeries> series(names.size());
    last.assign(names.size(), Result{});
    for (uint32_t k = 0; k < repeat; ++k)
    {
        for (std::size_t v = 0; v < names.size(); ++v)
        {
            std::cerr << "run " << names[v] << " " << k + 1 << "/" << repeat << " ..." << std::endl;
            last[v] = run(v);
            series[v].name = names[v];
            series[v].Add(last[v].wallS, last[v].cpuS, last[v].packets);
        }
    }
    return series;
}

} // namespace ns3

#endif /* ADC_BENCH_UTIL_H */
