/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared core: the one place that folds case and trims configuration text.
 */

#ifndef ADC_TEXT_H
#define ADC_TEXT_H

#include <cstddef>
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

    /// The longest text (bytes) Printable shows whole by default.
    static constexpr std::size_t MAX_SHOWN = 60;

    /**
     * \brief Text safe to print in a message: every byte that is not printable ASCII is
     * escaped, so a message never rings a bell, moves the cursor, or stops at a NUL.
     *
     * NUL is "\0", tab "\t", LF "\n", CR "\r"; every other control byte (0x00-0x1F, 0x7F)
     * and every byte from 0x80 up is "\xNN" (two lowercase hex digits). The configuration
     * languages are ASCII, so a non-ASCII byte in a word is worth seeing (a typographic quote
     * pasted for '"', say). A backslash stays as it is: escaping is then idempotent, so text
     * escaped once (a word inside a message) is unchanged when the whole message is escaped.
     * \param text any bytes
     * \return the text with those bytes escaped
     */
    static std::string Escape(const std::string& text);

    /**
     * \brief A value as an error message shows it: Escape, and cut when long.
     *
     * Text of up to \p max bytes is shown whole; longer text shows its first \p max bytes and
     * then "...(N bytes)", N the length of the whole text. The same function serves every
     * configuration error (AdcConfigCommand::Fail, AdcConfigFileError) and command-line
     * errors: e.g. "--rate: '" + AdcText::Printable(value) + "' is not a number".
     * \param text a value (a word of a file, an option's value); may hold any bytes
     * \param max the longest text shown whole (bytes before escaping)
     * \return the text for the message
     */
    static std::string Printable(const std::string& text, std::size_t max = MAX_SHOWN);
};

} // namespace ns3

#endif /* ADC_TEXT_H */
