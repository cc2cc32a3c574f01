/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark of AdcMaglevTable: build time, balance and disruption for the paper's setting
 * (M = 65537, 1,000 back-ends, equal weights).
 *
 *   adc-bench-maglev [--tableSize=65537] [--backends=1000] [--repeat=5] [--seed=1]
 *                    [--removed=0] [--csv=FILE]
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-maglev-table.h"
#include "ns3/command-line.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return entries "be0".."be<n-1>" (id = i), leaving out id \p skipId (or none when negative)
std::vector<AdcMaglevTable::Entry>
Entries(const AdcMaglevTable& t, uint32_t n, uint64_t seed, int64_t skipId)
{
    std::vector<AdcMaglevTable::Entry> entries;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (static_cast<int64_t>(i) != skipId)
        {
            entries.push_back(t.MakeEntry("be" + std::to_string(i), 1, i, seed));
        }
    }
    return entries;
}

/// \return the median of \p v (v non-empty)
double
Median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    std::size_t k = v.size() / 2;
    return v.size() % 2 ? v[k] : (v[k - 1] + v[k]) / 2;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t tableSize = 65537;
    uint32_t backends = 1000;
    uint32_t repeat = 5;
    uint64_t seed = 1;
    uint32_t removed = 0;
    std::string csv;

    CommandLine cmd(__FILE__);
    cmd.AddValue("tableSize", "Maglev table size M (prime)", tableSize);
    cmd.AddValue("backends", "number of back-ends N", backends);
    cmd.AddValue("repeat", "number of timed builds (the median is reported)", repeat);
    cmd.AddValue("seed", "hash seed", seed);
    cmd.AddValue("removed", "index of the back-end removed for the disruption figure", removed);
    cmd.AddValue("csv", "append one CSV line of results to this file", csv);
    cmd.Parse(argc, argv);

    try
    {
        if (backends == 0 || repeat == 0 || removed >= backends)
        {
            throw AdcConfigError("adc-bench-maglev: need backends >= 1, repeat >= 1 and "
                                 "removed < backends; got backends " +
                                 std::to_string(backends) + ", repeat " + std::to_string(repeat) +
                                 ", removed " + std::to_string(removed));
        }
        AdcMaglevTable table(tableSize);
        const auto all = Entries(table, backends, seed, -1);

        std::vector<double> ms;
        for (uint32_t r = 0; r < repeat; ++r)
        {
            auto t0 = std::chrono::steady_clock::now();
            table.Build(all);
            auto t1 = std::chrono::steady_clock::now();
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        const double medianMs = Median(ms);

        std::vector<uint32_t> count(backends, 0);
        for (int32_t id : table.GetTable())
        {
            ++count[id];
        }
        auto [mn, mx] = std::minmax_element(count.begin(), count.end());

        AdcMaglevTable after(tableSize);
        after.Build(Entries(after, backends, seed, removed));
        uint32_t moved = 0;
        for (uint32_t s = 0; s < tableSize; ++s)
        {
            moved += table.GetTable()[s] != after.GetTable()[s] ? 1 : 0;
        }
        const uint32_t ownMoved = count[removed];

        std::printf("%-28s %12s\n", "metric", "value");
        std::printf("%-28s %12u\n", "table size M", tableSize);
        std::printf("%-28s %12u\n", "back-ends N", backends);
        std::printf("%-28s %12.3f\n", "median build time (ms)", medianMs);
        std::printf("%-28s %12u\n", "entries per back-end min", *mn);
        std::printf("%-28s %12u\n", "entries per back-end max", *mx);
        std::printf("%-28s %12u\n", "slots moved on removal", moved);
        std::printf("%-28s %12u\n", "  of which removed's own", ownMoved);
        std::printf("%-28s %12.4f\n", "moved fraction", static_cast<double>(moved) / tableSize);

        if (!csv.empty())
        {
            const bool fresh = !std::ifstream(csv).good();
            std::ofstream out(csv, std::ios::app);
            if (fresh)
            {
                out << "bench,tableSize,backends,repeat,medianBuildMs,minEntries,maxEntries,"
                       "movedSlots,removedOwnSlots\n";
            }
            out << "maglev," << tableSize << "," << backends << "," << repeat << "," << medianMs
                << "," << *mn << "," << *mx << "," << moved << "," << ownMoved << "\n";
            if (!out)
            {
                throw AdcConfigError("adc-bench-maglev: cannot write csv file '" + csv + "'");
            }
        }
    }
    catch (const AdcConfigError& e)
    {
        std::cerr << e.what() << std::endl;
        return 1;
    }
    return 0;
}
