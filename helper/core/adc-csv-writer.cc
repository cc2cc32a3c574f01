/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-csv-writer.h"

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

namespace ns3
{

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
    : m_path(AdcMpi::RankFileName(path)),
      m_nColumns(header.size())
{
    m_out.open(m_path, std::ios::out | std::ios::trunc | std::ios::binary);
    if (!m_out.is_open())
    {
        throw AdcConfigError("AdcCsvWriter: cannot open '" + m_path +
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

} // namespace ns3
