/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the exception every configuration check throws.
 */

#ifndef ADC_CONFIG_ERROR_H
#define ADC_CONFIG_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Where a configuration command came from: its file (or the name a text was read
 * under), its line, and its command words. Objects read from a configuration keep the origin
 * of the commands that made and changed them (AdcConfigStore::GetOrigin), so that a check
 * made after reading (a helper comparing files, a model refusing a rule) names the line to
 * edit.
 */
struct AdcConfigOrigin
{
    std::string file;    //!< the file, or the name the text was read under ("" unknown)
    uint32_t line{0};    //!< the command's (first) line, from 1 (0: a text without lines)
    std::string command; //!< the command's words, e.g. "set ns param" ("" unknown)

    /// \return whether a file (or text name) is known
    bool IsKnown() const;

    /**
     * \return "FILE:LINE", "FILE" for a text without lines, or "" when unknown (the file
     * escaped with AdcText::Escape)
     */
    std::string ToString() const;
};

/**
 * \ingroup adc
 * \brief A configuration error: a setting with a value the model cannot use.
 *
 * The message names the setting, the value given and the values allowed, e.g.
 * "AdcLbMethod: Method 'FOO' is not one of ROUNDROBIN, LEASTCONNECTION, ...". Examples catch
 * it at the top level and print the message; tests check it with EXPECT_THROW. A value a user
 * gave goes into the message through AdcText::Printable (control bytes escaped, a long value
 * cut), as NotOneOf does; an error about a configuration file's command is an
 * AdcConfigFileError, which names the file and line (AdcConfigOrigin).
 */
class AdcConfigError : public std::invalid_argument
{
  public:
    /// \param what the message: setting, value given, values allowed
    explicit AdcConfigError(const std::string& what)
        : std::invalid_argument(what)
    {
    }

    /**
     * \brief The error for a setting whose value is not in a fixed set.
     * \param owner the class or component, e.g. "AdcLbMethod"
     * \param setting the setting's name, e.g. "Method"
     * \param value the value given
     * \param allowed the values allowed
     * \return "owner: setting 'value' is not one of a, b, c"
     */
    static AdcConfigError NotOneOf(const std::string& owner,
                                   const std::string& setting,
                                   const std::string& value,
                                   const std::vector<std::string>& allowed);

    /// \return the values joined by ", "
    static std::string JoinAllowed(const std::vector<std::string>& allowed);

    /**
     * \brief Split a list setting such as "ROUNDROBIN,URLHASH" (empty items are skipped).
     * \param text the setting's text
     * \param separator the separator
     * \return the items, in order
     */
    static std::vector<std::string> SplitList(const std::string& text, char separator = ',');
};

} // namespace ns3

#endif /* ADC_CONFIG_ERROR_H */
