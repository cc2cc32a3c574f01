/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the exception every configuration check throws.
 */

#ifndef ADC_CONFIG_ERROR_H
#define ADC_CONFIG_ERROR_H

#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A configuration error: a setting with a value the model cannot use.
 *
 * The message names the setting, the value given and the values allowed, e.g.
 * "AdcLbMethod: Method 'FOO' is not one of ROUNDROBIN, LEASTCONNECTION, ...". Examples catch
 * it at the top level and print the message; tests check it with EXPECT_THROW.
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
