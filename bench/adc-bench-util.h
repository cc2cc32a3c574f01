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

} // namespace ns3

#endif /* ADC_BENCH_UTIL_H */
