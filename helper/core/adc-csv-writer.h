/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc helpers: CSV output with deterministic number formatting.
 */

#ifndef ADC_CSV_WRITER_H
#define ADC_CSV_WRITER_H

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

} // namespace ns3

#endif /* ADC_CSV_WRITER_H */
