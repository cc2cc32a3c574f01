/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc configuration front-end: reads an appliance's own command language (NetScaler's CLI,
 * ilbadm) line by line into the object model, and prints the objects back in that language.
 */

#ifndef ADC_CONFIG_READER_H
#define ADC_CONFIG_READER_H

#include "adc-config-store.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-text.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A configuration error at a line of a file: "FILE:LINE: <command>: <what>: word 'X';
 * allowed values are A, B". Still an AdcConfigError, so callers catch one type.
 *
 * The same form serves errors found while reading (AdcConfigCommand::Fail) and checks made
 * after reading (a helper, a model refusing what a command set up), which name the origin of
 * the command that caused them (AdcConfigStore::GetOrigin). Every message is printable: words
 * are shown with AdcText::Printable (escaped, long ones cut), and the whole message is escaped.
 */
class AdcConfigFileError : public AdcConfigError
{
  public:
    /**
     * \param file the file (or the name given to a string)
     * \param line the line, from 1 (0: the text has no lines; the message then names the file
     *        alone)
     * \param message the rest of the message
     */
    AdcConfigFileError(const std::string& file, uint32_t line, const std::string& message);

    /**
     * \param origin the command's origin
     * \param message what is wrong; the origin's command words are put before it
     */
    AdcConfigFileError(const AdcConfigOrigin& origin, const std::string& message);

    /// \return the file
    const std::string& GetFile() const;
    /// \return the line (of the command's first line when it continues over several)
    uint32_t GetLine() const;
    /// \return the file, line and command words
    const AdcConfigOrigin& GetOrigin() const;

    /**
     * \brief The text after "<command>: ": "<what>: word 'W'; allowed values are A, B".
     * \param what what is wrong \param word the word that is (AdcText::Printable)
     * \param allowed the values allowed (none: the clause is left out; shown whole, escaped
     *        with the message)
     * \return the text
     */
    static std::string Describe(const std::string& what,
                                const std::string& word,
                                const std::vector<std::string>& allowed = {});

    /**
     * \brief Fail at \p origin: "FILE:LINE: <command>: <what>: word 'W'; allowed values are A, B".
     * An origin that is not known (an object a program made, not a file) gives an
     * AdcConfigError with the same text without the location.
     * \param origin where \param what what is wrong \param word the word that is
     * \param allowed the values allowed
     */
    [[noreturn]] static void Fail(const AdcConfigOrigin& origin,
                                  const std::string& what,
                                  const std::string& word,
                                  const std::vector<std::string>& allowed = {});

    /// \param origin where \param what what is wrong (no word) \throws as Fail above
    [[noreturn]] static void Fail(const AdcConfigOrigin& origin, const std::string& what);

    /**
     * \brief Run a check made after reading, and report its AdcConfigError at \p origin (an
     * AdcConfigFileError passes as it is: it names its own line).
     * \param origin the command the check is about
     * \param f the check
     */
    template <typename F>
    static void At(const AdcConfigOrigin& origin, F f)
    {
        try
        {
            f();
        }
        catch (const AdcConfigFileError&)
        {
            throw;
        }
        catch (const AdcConfigError& e)
        {
            Fail(origin, e.what());
        }
    }

    /**
     * \param message a message
     * \return it printable: AdcText::Escape, and blank-free runs longer than a whole word
     * should be cut as AdcText::Printable does (a value that reached a message uncut)
     */
    static std::string Sanitize(const std::string& message);

  private:
    AdcConfigOrigin m_origin; //!< where
};

/**
 * \ingroup adc
 * \brief A parameter a command takes: "-lbMethod <method>", "-cip ENABLED [<header>]", "-e".
 */
struct AdcConfigParameter
{
    std::string name;       //!< as the CLI spells it, e.g. "-lbMethod" (printed back so)
    uint32_t minValues{1};  //!< values it needs (0: a flag)
    uint32_t maxValues{1};  //!< values it may take
    bool repeatable{false}; //!< may be given more than once (values add up)
};

class AdcConfigCommand;

/**
 * \ingroup adc
 * \brief One command of a language: its words, operands, parameters, what it does, and how the
 * objects it defines print back.
 */
struct AdcConfigCommandSpec
{
    std::string path;                               //!< its words, e.g. "add lb vserver"
    std::vector<std::string> operands;              //!< operand names for usage, e.g. "<name>"
    std::size_t minOperands{0};                     //!< operands required
    bool repeatLast{false};                         //!< the last operand may repeat ("name ...")
    std::vector<AdcConfigParameter> parameters;     //!< the parameters it accepts
    std::function<void(AdcConfigCommand&)> handler; //!< what it does
    /// Prints the lines that define the objects of this command ("add ..." lines), or empty.
    std::function<void(const AdcConfigStore&, std::ostream&)> show;
    int showOrder{0}; //!< Show prints sections by ascending order, then registration order
};

/**
 * \ingroup adc
 * \brief A command language: how its lines split into words, and its commands. Subjects add
 * their own commands (RegisterCommand) to a language; the languages themselves come from
 * AdcNetScalerCommands::GetLanguage() and AdcIlbadmCommands::GetLanguage().
 */
class AdcConfigLanguage
{
  public:
    /// How lines split into words.
    struct Syntax
    {
        std::string name;         //!< e.g. "NetScaler"
        bool quotes{false};       //!< "..." and '...' group words (NetScaler)
        bool continuation{false}; //!< a trailing "\" joins the next line (ilbadm)
        AdcText::Case keywordCase{AdcText::INSENSITIVE};   //!< command words
        AdcText::Case parameterCase{AdcText::INSENSITIVE}; //!< parameter names
        std::size_t maxWords{256};                         //!< longer lines are an error
    };

    /// \param syntax how lines split into words
    explicit AdcConfigLanguage(const Syntax& syntax);

    /// \return the syntax
    const Syntax& GetSyntax() const;

    /**
     * \brief Add a command.
     * \param spec the command
     * \throws AdcConfigError when a command with the same words exists
     */
    void RegisterCommand(AdcConfigCommandSpec spec);

    /// \return the commands, in registration order
    const std::vector<AdcConfigCommandSpec>& GetCommands() const;

    /**
     * \param word a word to print in this language
     * \return the word, quoted when it must be (NetScaler: blanks, quotes, a leading '-')
     */
    std::string Quote(const std::string& word) const;

    /// Finds what in a configuration uses an object: "<kind> <name>" per user.
    using UserFinder =
        std::function<std::vector<std::string>(const AdcConfigStore&, const std::string&)>;

    /**
     * \brief Tell the language how to find users of objects of \p kind that commands of other
     * kinds hold (e.g. CS actions naming an LB vserver), so that removing one in use is refused
     * (AdcConfigCommand::GetUsers) without the removing command knowing those kinds.
     * \param kind the used objects' kind
     * \param finder the finder
     */
    void AddUserFinder(const std::string& kind, UserFinder finder);

    /**
     * \param store a configuration \param kind a kind \param name an object's name
     * \return what the registered finders report as using it, in registration order
     */
    std::vector<std::string> GetUsers(const AdcConfigStore& store,
                                      const std::string& kind,
                                      const std::string& name) const;

  private:
    Syntax m_syntax;                                               //!< syntax
    std::vector<AdcConfigCommandSpec> m_commands;                  //!< commands
    std::vector<std::pair<std::string, UserFinder>> m_userFinders; //!< by kind
};

/**
 * \ingroup adc
 * \brief One command line as its handler sees it: operands, parameters and their values, the
 * store, and the error functions that name the file, the line and the word.
 */
class AdcConfigCommand
{
  public:
    /// A word of the line and whether it was quoted.
    struct Word
    {
        std::string text; //!< the word, quotes removed
        bool quoted;      //!< it was quoted (a quoted "-x" is a value, not a parameter)
    };

    /**
     * \param spec the command's spec
     * \param store the store
     * \param file the file's name
     * \param line the line
     * \param language the language (null: GetUsers finds none)
     */
    AdcConfigCommand(const AdcConfigCommandSpec& spec,
                     AdcConfigStore& store,
                     const std::string& file,
                     uint32_t line,
                     const AdcConfigLanguage* language = nullptr);

    /// \return the command's words ("add lb vserver")
    const std::string& GetPath() const;
    /// \return the operands, in order
    const std::vector<std::string>& GetOperands() const;
    /// \param i an operand's index \return it, or "" when the line has fewer
    const std::string& Operand(std::size_t i) const;
    /// \param parameter a parameter's name as the spec spells it \return whether it was given
    bool Has(const std::string& parameter) const;
    /// \param parameter a parameter's name \return its values (empty when not given)
    const std::vector<std::string>& Values(const std::string& parameter) const;
    /// \param parameter a parameter's name \param fallback its default \return its first value
    std::string Value(const std::string& parameter, const std::string& fallback = "") const;
    /// \return the store
    AdcConfigStore& GetStore() const;

    /// \return this command's file, line and words
    AdcConfigOrigin GetOrigin() const;

    /**
     * \brief Note this command as where \p aspect of an object was last set (a parameter, a
     * binding), for checks made after reading (AdcConfigStore::SetOrigin).
     * \param kind the object's kind \param name its name \param aspect e.g. "-lbMethod"
     */
    void NoteOrigin(const std::string& kind,
                    const std::string& name,
                    const std::string& aspect) const;

    /**
     * \brief NoteOrigin for every parameter this command gives (aspect: the parameter's name
     * as the spec spells it).
     * \param kind the object's kind \param name its name
     */
    void NoteParameters(const std::string& kind, const std::string& name) const;

    /**
     * \param kind a kind \param name an object's name
     * \return its users that the language's finders know of (AdcConfigLanguage::GetUsers)
     */
    std::vector<std::string> GetUsers(const std::string& kind, const std::string& name) const;

    /**
     * \brief Fail with "FILE:LINE: <command>: <what>: word 'W'; allowed values are A, B".
     * \param what what is wrong
     * \param word the word that is
     * \param allowed the values allowed (none: the clause is left out)
     */
    [[noreturn]] void Fail(const std::string& what,
                           const std::string& word,
                           const std::vector<std::string>& allowed = {}) const;

    /// \param what what is wrong, without a word \throws "FILE:LINE: <command>: <what>"
    [[noreturn]] void Fail(const std::string& what) const;

    /**
     * \param word a word \param what what it is \param allowed its values
     * \return the allowed value it equals, ignoring case (AdcConfigFileError otherwise)
     */
    std::string OneOf(const std::string& word,
                      const std::string& what,
                      const std::vector<std::string>& allowed) const;

    /**
     * \param word a word \param what what it is \param min smallest \param max largest
     * \return its decimal value (AdcConfigFileError unless min <= value <= max)
     */
    uint64_t Number(const std::string& word,
                    const std::string& what,
                    uint64_t min,
                    uint64_t max) const;

    /// \param word a word \param what what it is \return the IPv4 or IPv6 address it is
    AdcIpAddress Address(const std::string& word, const std::string& what) const;

    /**
     * \param kind a kind of the store \param name a name \param what what it should be
     * \return the object (AdcConfigFileError listing the defined names when there is none)
     */
    template <typename T>
    Ptr<T> Ref(const std::string& kind, const std::string& name, const std::string& what) const
    {
        Ptr<T> object = m_store.Get<T>(kind, name);
        if (!object)
        {
            Fail(what + " is not defined", name, m_store.GetNames(kind));
        }
        return object;
    }

    /**
     * \brief Run a model call and report its AdcConfigError at this line.
     * \param f the call
     */
    template <typename F>
    void Check(F f) const
    {
        try
        {
            f();
        }
        catch (const AdcConfigFileError&)
        {
            throw;
        }
        catch (const AdcConfigError& e)
        {
            Fail(e.what());
        }
    }

  private:
    friend class AdcConfigReader;

    const AdcConfigCommandSpec& m_spec;                       //!< the spec
    AdcConfigStore& m_store;                                  //!< the store
    const AdcConfigLanguage* m_language;                      //!< the language, or null
    std::string m_file;                                       //!< file
    uint32_t m_line;                                          //!< line
    std::vector<std::string> m_operands;                      //!< operands
    std::map<std::string, std::vector<std::string>> m_values; //!< parameter -> values
};

/**
 * \ingroup adc
 * \brief Reads configuration lines of one language into a store, and prints them back.
 *
 * A line is split into words by the language's syntax; '#' starts a comment line; empty lines
 * are skipped. The first words name the command (the longest registered match, compared as the
 * language compares keywords); then an unquoted word "-x" is a parameter, followed by its
 * values, and every other word is an operand. Unknown commands and parameters, missing or
 * surplus words, bad values and references to undefined objects are AdcConfigFileErrors naming
 * the file, the line, the word and the values allowed; the first one stops reading (what the
 * lines before it defined stays in the store, as on the appliances).
 *
 * Show prints every object back as the command lines that define it, so that reading Show's
 * text again gives the same objects and the same text.
 */
class AdcConfigReader
{
  public:
    /// \param language the language (kept by reference: languages live for the program)
    explicit AdcConfigReader(const AdcConfigLanguage& language);

    /**
     * \param text lines of the language
     * \param name the name errors give the text (as a file name)
     */
    void ReadString(const std::string& text, const std::string& name = "<string>");

    /**
     * \brief Read lines a program makes (not a file a user wrote): errors and origins name
     * \p source and no line, e.g. "cs-canary --modes SOURCEIP: set cs vserver: ...".
     * \param text lines of the language
     * \param source what made them (a program and its options)
     */
    void ReadCommands(const std::string& text, const std::string& source);

    /// \param path a file of lines of the language (AdcConfigError when it cannot be read)
    void ReadFile(const std::string& path);

    /// \return the objects read so far
    AdcConfigStore& GetStore();

    /// \return every object as the lines that define it
    std::string Show() const;

  private:
    /**
     * \param text lines \param name the name errors give them
     * \param numbered whether errors give line numbers (false: ReadCommands)
     */
    void Read(const std::string& text, const std::string& name, bool numbered);

    /// \param words a command's words \param file its file \param line its first line
    void Execute(const std::vector<AdcConfigCommand::Word>& words,
                 const std::string& file,
                 uint32_t line);

    /**
     * \param text one logical line \param file its file \param line its line
     * \return its words
     */
    std::vector<AdcConfigCommand::Word> Split(const std::string& text,
                                              const std::string& file,
                                              uint32_t line) const;

    const AdcConfigLanguage& m_language; //!< the language
    AdcConfigStore m_store;              //!< what was read
};

} // namespace ns3

#endif /* ADC_CONFIG_READER_H */
