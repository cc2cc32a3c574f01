/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the one place that folds case and trims configuration text.
 */

#ifndef ADC_TEXT_H
#define ADC_TEXT_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Case folding and trimming of configuration text (names, keywords, values).
 *
 * Configuration languages are ASCII (NetScaler's CLI, ilbadm, ns-3 attribute strings), so the
 * folding is ASCII only and does not depend on the C locale: the same text folds the same way
 * in every program, which keeps configuration errors and traces reproducible.
 */
class AdcText
{
  public:
    /// How a vocabulary compares names.
    enum Case
    {
        INSENSITIVE, //!< "roundrobin" equals "ROUNDROBIN" (NetScaler's CLI, ilbadm)
        EXACT        //!< only the same bytes are equal
    };

    /// \param s text \return \p s with ASCII a-z turned into A-Z
    static std::string ToUpper(std::string s);

    /// \param s text \return \p s with ASCII A-Z turned into a-z
    static std::string ToLower(std::string s);

    /// \param s text \return \p s without leading and trailing spaces, tabs, CR and LF
    static std::string Trim(const std::string& s);

    /**
     * \param a text
     * \param b text
     * \return true when \p a and \p b are equal ignoring ASCII case
     */
    static bool EqualsNoCase(const std::string& a, const std::string& b);

    /**
     * \param a text
     * \param b text
     * \param rule how to compare
     * \return true when \p a and \p b are equal under \p rule
     */
    static bool Equals(const std::string& a, const std::string& b, Case rule);

    /**
     * \brief Find a word in a list.
     * \param word the word
     * \param list the words allowed
     * \param rule how to compare
     * \return the index of the first entry equal to \p word, or -1
     */
    static int Find(const std::string& word, const std::vector<std::string>& list, Case rule);

    /**
     * \param s text
     * \return the position of its first control character (0x00-0x1F or 0x7F, which a header
     * field value must not hold), or std::string::npos
     */
    static std::size_t FindControl(const std::string& s);

    /// \param c a byte \return it quoted when printable ("'a'"), else in hex ("0x0a"), for
    /// error messages
    static std::string ShowByte(unsigned char c);
};

} // namespace ns3

#endif /* ADC_TEXT_H */
