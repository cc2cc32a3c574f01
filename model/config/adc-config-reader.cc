/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "adc-config-reader.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <algorithm>
#include <arpa/inet.h>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{

/// \return the words of a command path
std::vector<std::string>
PathWords(const std::string& path)
{
    return AdcConfigError::SplitList(path, ' ');
}

/// \param w a word \return true when it is a parameter name ("-x", not "-1", not quoted)
bool
IsParameter(const AdcConfigCommand::Word& w)
{
    return !w.quoted && w.text.size() >= 2 && w.text[0] == '-' &&
           !(w.text[1] >= '0' && w.text[1] <= '9');
}

/// \return the usage line of \p spec
std::string
Usage(const AdcConfigCommandSpec& spec)
{
    std::string u = spec.path;
    for (const std::string& o : spec.operands)
    {
        u += " " + o;
    }
    for (const AdcConfigParameter& p : spec.parameters)
    {
        u += " [" + p.name + (p.minValues > 0 ? " ..." : "") + "]";
    }
    return u;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// AdcConfigFileError

namespace
{

/// A blank-free run longer than this in a message is a value that escaped Printable: cut it.
constexpr std::size_t kLongRun = 1000;

/// \return "FILE:LINE: " (or "FILE: "), then "<command>: " when known
std::string
Prefix(const AdcConfigOrigin& origin)
{
    const std::string where = origin.ToString();
    return (where.empty() ? "" : where + ": ") +
           (origin.command.empty() ? "" : origin.command + ": ");
}

} // namespace

std::string
AdcConfigFileError::Sanitize(const std::string& message)
{
    std::string out;
    std::size_t i = 0;
    while (i < message.size())
    {
        const std::size_t end = std::min(message.find(' ', i), message.size());
        const std::string run = message.substr(i, end - i);
        out += run.size() > kLongRun ? AdcText::Printable(run) : AdcText::Escape(run);
        if (end < message.size())
        {
            out += ' ';
        }
        i = end + 1;
    }
    return out;
}

AdcConfigFileError::AdcConfigFileError(const std::string& file,
                                       uint32_t line,
                                       const std::string& message)
    : AdcConfigFileError(AdcConfigOrigin{file, line, ""}, message)
{
}

AdcConfigFileError::AdcConfigFileError(const AdcConfigOrigin& origin, const std::string& message)
    : AdcConfigError(Sanitize(Prefix(origin) + message)),
      m_origin(origin)
{
}

const std::string&
AdcConfigFileError::GetFile() const
{
    return m_origin.file;
}

uint32_t
AdcConfigFileError::GetLine() const
{
    return m_origin.line;
}

const AdcConfigOrigin&
AdcConfigFileError::GetOrigin() const
{
    return m_origin;
}

std::string
AdcConfigFileError::Describe(const std::string& what,
                             const std::string& word,
                             const std::vector<std::string>& allowed)
{
    std::string message = what + ": word '" + AdcText::Printable(word) + "'";
    if (!allowed.empty())
    {
        // Allowed values are the model's words and names already checked (not cut here).
        message += "; allowed values are " + AdcConfigError::JoinAllowed(allowed);
    }
    return message;
}

void
AdcConfigFileError::Fail(const AdcConfigOrigin& origin,
                         const std::string& what,
                         const std::string& word,
                         const std::vector<std::string>& allowed)
{
    Fail(origin, Describe(what, word, allowed));
}

void
AdcConfigFileError::Fail(const AdcConfigOrigin& origin, const std::string& what)
{
    if (!origin.IsKnown())
    {
        throw AdcConfigError(Sanitize(Prefix(origin) + what));
    }
    throw AdcConfigFileError(origin, what);
}

// ---------------------------------------------------------------------------------------------
// AdcConfigLanguage

AdcConfigLanguage::AdcConfigLanguage(const Syntax& syntax)
    : m_syntax(syntax)
{
}

const AdcConfigLanguage::Syntax&
AdcConfigLanguage::GetSyntax() const
{
    return m_syntax;
}

void
AdcConfigLanguage::RegisterCommand(AdcConfigCommandSpec spec)
{
    const std::vector<std::string> words = PathWords(spec.path);
    for (const AdcConfigCommandSpec& c : m_commands)
    {
        const std::vector<std::string> other = PathWords(c.path);
        bool same = other.size() == words.size();
        for (std::size_t i = 0; same && i < words.size(); ++i)
        {
            same = AdcText::Equals(words[i], other[i], m_syntax.keywordCase);
        }
        if (same)
        {
            throw AdcConfigError(m_syntax.name + ": command '" + spec.path +
                                 "' is registered already");
        }
    }
    if (words.empty() || !spec.handler || spec.minOperands > spec.operands.size())
    {
        throw AdcConfigError(m_syntax.name + ": command '" + spec.path +
                             "' needs words, a handler, and names for its required operands");
    }
    m_commands.push_back(std::move(spec));
}

void
AdcConfigLanguage::AddUserFinder(const std::string& kind, UserFinder finder)
{
    m_userFinders.emplace_back(kind, std::move(finder));
}

std::vector<std::string>
AdcConfigLanguage::GetUsers(const AdcConfigStore& store,
                            const std::string& kind,
                            const std::string& name) const
{
    std::vector<std::string> users;
    for (const auto& [k, finder] : m_userFinders)
    {
        if (k == kind)
        {
            for (const std::string& u : finder(store, name))
            {
                users.push_back(u);
            }
        }
    }
    return users;
}

const std::vector<AdcConfigCommandSpec>&
AdcConfigLanguage::GetCommands() const
{
    return m_commands;
}

std::string
AdcConfigLanguage::Quote(const std::string& word) const
{
    const bool plain = !word.empty() && word.find_first_of(" \t\"'\\") == std::string::npos &&
                       word[0] != '-' && word[0] != '#';
    if (plain || !m_syntax.quotes)
    {
        return word;
    }
    std::string out = "\"";
    for (char c : word)
    {
        out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    }
    return out + "\"";
}

// ---------------------------------------------------------------------------------------------
// AdcConfigCommand

AdcConfigCommand::AdcConfigCommand(const AdcConfigCommandSpec& spec,
                                   AdcConfigStore& store,
                                   const std::string& file,
                                   uint32_t line,
                                   const AdcConfigLanguage* language)
    : m_spec(spec),
      m_store(store),
      m_language(language),
      m_file(file),
      m_line(line)
{
}

std::vector<std::string>
AdcConfigCommand::GetUsers(const std::string& kind, const std::string& name) const
{
    return m_language ? m_language->GetUsers(m_store, kind, name) : std::vector<std::string>{};
}

const std::string&
AdcConfigCommand::GetPath() const
{
    return m_spec.path;
}

const std::vector<std::string>&
AdcConfigCommand::GetOperands() const
{
    return m_operands;
}

const std::string&
AdcConfigCommand::Operand(std::size_t i) const
{
    static const std::string none;
    return i < m_operands.size() ? m_operands[i] : none;
}

bool
AdcConfigCommand::Has(const std::string& parameter) const
{
    return m_values.count(parameter) == 1;
}

const std::vector<std::string>&
AdcConfigCommand::Values(const std::string& parameter) const
{
    static const std::vector<std::string> none;
    const auto it = m_values.find(parameter);
    return it == m_values.end() ? none : it->second;
}

std::string
AdcConfigCommand::Value(const std::string& parameter, const std::string& fallback) const
{
    const std::vector<std::string>& v = Values(parameter);
    return v.empty() ? fallback : v.front();
}

AdcConfigStore&
AdcConfigCommand::GetStore() const
{
    return m_store;
}

AdcConfigOrigin
AdcConfigCommand::GetOrigin() const
{
    return AdcConfigOrigin{m_file, m_line, m_spec.path};
}

void
AdcConfigCommand::NoteOrigin(const std::string& kind,
                             const std::string& name,
                             const std::string& aspect) const
{
    m_store.SetOrigin(kind, name, aspect, GetOrigin());
}

void
AdcConfigCommand::NoteParameters(const std::string& kind, const std::string& name) const
{
    for (const auto& [parameter, values] : m_values)
    {
        NoteOrigin(kind, name, parameter);
    }
}

void
AdcConfigCommand::Fail(const std::string& what,
                       const std::string& word,
                       const std::vector<std::string>& allowed) const
{
    throw AdcConfigFileError(GetOrigin(), AdcConfigFileError::Describe(what, word, allowed));
}

void
AdcConfigCommand::Fail(const std::string& what) const
{
    throw AdcConfigFileError(GetOrigin(), what);
}

std::string
AdcConfigCommand::OneOf(const std::string& word,
                        const std::string& what,
                        const std::vector<std::string>& allowed) const
{
    const int i = AdcText::Find(word, allowed, AdcText::INSENSITIVE);
    if (i < 0)
    {
        Fail("bad value of " + what, word, allowed);
    }
    return allowed[i];
}

uint64_t
AdcConfigCommand::Number(const std::string& word,
                         const std::string& what,
                         uint64_t min,
                         uint64_t max) const
{
    const std::vector<std::string> range{std::to_string(min) + ".." + std::to_string(max)};
    uint64_t value = 0;
    if (word.empty() || word.size() > 19 ||
        word.find_first_not_of("0123456789") != std::string::npos)
    {
        Fail("bad value of " + what, word, range);
    }
    for (char c : word)
    {
        value = value * 10 + static_cast<uint64_t>(c - '0');
    }
    if (value < min || value > max)
    {
        Fail("bad value of " + what, word, range);
    }
    return value;
}

AdcIpAddress
AdcConfigCommand::Address(const std::string& word, const std::string& what) const
{
    std::string text = word;
    if (text.size() > 2 && text.front() == '[' && text.back() == ']')
    {
        text = text.substr(1, text.size() - 2);
    }
    uint8_t bytes[16];
    if (text.find(':') == std::string::npos && inet_pton(AF_INET, text.c_str(), bytes) == 1)
    {
        return Ipv4Address((uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) |
                           (uint32_t{bytes[2]} << 8) | uint32_t{bytes[3]});
    }
    if (text.find('\0') == std::string::npos && inet_pton(AF_INET6, text.c_str(), bytes) == 1)
    {
        return Ipv6Address(bytes);
    }
    Fail("bad value of " + what, word, {"an IPv4 address", "an IPv6 address"});
}

// ---------------------------------------------------------------------------------------------
// AdcConfigReader

AdcConfigReader::AdcConfigReader(const AdcConfigLanguage& language)
    : m_language(language)
{
}

AdcConfigStore&
AdcConfigReader::GetStore()
{
    return m_store;
}

std::vector<AdcConfigCommand::Word>
AdcConfigReader::Split(const std::string& text, const std::string& file, uint32_t line) const
{
    const AdcConfigLanguage::Syntax& syntax = m_language.GetSyntax();
    std::vector<AdcConfigCommand::Word> words;
    AdcConfigCommand::Word word{"", false};
    bool inWord = false;
    for (std::size_t i = 0; i < text.size(); ++i)
    {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
        {
            if (inWord)
            {
                words.push_back(word);
                word = {"", false};
                inWord = false;
            }
            continue;
        }
        inWord = true;
        if (!syntax.quotes || (c != '"' && c != '\''))
        {
            word.text += c;
            continue;
        }
        // A quoted part, as NetScaler's CLI reads one: "..." with \" and \\, or '...' as is.
        const std::size_t start = i;
        word.quoted = true;
        for (++i; i < text.size() && text[i] != c; ++i)
        {
            const bool escape = c == '"' && text[i] == '\\' && i + 1 < text.size() &&
                                (text[i + 1] == '"' || text[i + 1] == '\\');
            i += escape ? 1 : 0;
            word.text += text[i];
        }
        if (i >= text.size())
        {
            throw AdcConfigFileError(
                file,
                line,
                AdcConfigFileError::Describe("unterminated quote",
                                             text.substr(start),
                                             {"words closed by " + std::string(1, c)}));
        }
    }
    if (inWord)
    {
        words.push_back(word);
    }
    if (words.size() > syntax.maxWords)
    {
        throw AdcConfigFileError(
            file,
            line,
            AdcConfigFileError::Describe("too many words", words[syntax.maxWords].text) +
                "; allowed at most " + std::to_string(syntax.maxWords));
    }
    return words;
}

void
AdcConfigReader::Execute(const std::vector<AdcConfigCommand::Word>& words,
                         const std::string& file,
                         uint32_t line)
{
    const AdcConfigLanguage::Syntax& syntax = m_language.GetSyntax();
    const AdcText::Case rule = syntax.keywordCase;
    // The command: the longest path whose words all match; else what could come next.
    const AdcConfigCommandSpec* spec = nullptr;
    std::size_t specWords = 0;
    std::size_t longest = 0;
    for (const AdcConfigCommandSpec& c : m_language.GetCommands())
    {
        const std::vector<std::string> path = PathWords(c.path);
        std::size_t k = 0;
        while (k < path.size() && k < words.size() && AdcText::Equals(words[k].text, path[k], rule))
        {
            ++k;
        }
        longest = std::max(longest, k);
        if (k == path.size() && k > specWords)
        {
            spec = &c;
            specWords = k;
        }
    }
    if (spec == nullptr)
    {
        std::vector<std::string> next;
        for (const AdcConfigCommandSpec& c : m_language.GetCommands())
        {
            const std::vector<std::string> path = PathWords(c.path);
            bool prefix = path.size() > longest;
            for (std::size_t i = 0; prefix && i < longest; ++i)
            {
                prefix = AdcText::Equals(words[i].text, path[i], rule);
            }
            if (prefix && AdcText::Find(path[longest], next, rule) < 0)
            {
                next.push_back(path[longest]);
            }
        }
        throw AdcConfigFileError(
            file,
            line,
            AdcConfigFileError::Describe(longest < words.size() ? "unknown command"
                                                                : "incomplete command",
                                         longest < words.size() ? words[longest].text : "",
                                         next));
    }

    AdcConfigCommand cmd(*spec, m_store, file, line, &m_language);
    for (std::size_t i = specWords; i < words.size(); ++i)
    {
        const AdcConfigCommand::Word& w = words[i];
        if (!IsParameter(w))
        {
            if (cmd.m_operands.size() >= spec->operands.size() && !spec->repeatLast)
            {
                cmd.Fail("unexpected word (usage: " + Usage(*spec) + ")", w.text);
            }
            cmd.m_operands.push_back(w.text);
            continue;
        }
        const AdcConfigParameter* p = nullptr;
        std::vector<std::string> names;
        for (const AdcConfigParameter& q : spec->parameters)
        {
            names.push_back(q.name);
            p = (p == nullptr && AdcText::Equals(w.text, q.name, syntax.parameterCase)) ? &q : p;
        }
        if (p == nullptr)
        {
            cmd.Fail("unknown parameter", w.text, names);
        }
        if (cmd.Has(p->name) && !p->repeatable)
        {
            cmd.Fail("parameter given twice", w.text);
        }
        std::vector<std::string>& values = cmd.m_values[p->name];
        uint32_t n = 0;
        while (n < p->maxValues && i + 1 < words.size() &&
               (n < p->minValues || !IsParameter(words[i + 1])))
        {
            values.push_back(words[++i].text);
            ++n;
        }
        if (n < p->minValues)
        {
            cmd.Fail("missing value of parameter", w.text);
        }
    }
    if (cmd.m_operands.size() < spec->minOperands)
    {
        cmd.Fail("missing " + spec->operands.at(cmd.m_operands.size()) +
                 " (usage: " + Usage(*spec) + ")");
    }

    // Objects the handler adds keep this command as their origin.
    struct CurrentOrigin
    {
        AdcConfigStore& store;  //!< the store
        AdcConfigOrigin before; //!< what to restore

        ~CurrentOrigin()
        {
            store.SetCurrentOrigin(before);
        }
    } current{m_store, m_store.GetCurrentOrigin()};

    m_store.SetCurrentOrigin(cmd.GetOrigin());
    cmd.Check([&] { spec->handler(cmd); });
}

void
AdcConfigReader::ReadString(const std::string& text, const std::string& name)
{
    Read(text, name, true);
}

void
AdcConfigReader::ReadCommands(const std::string& text, const std::string& source)
{
    Read(text, source, false);
}

void
AdcConfigReader::Read(const std::string& text, const std::string& name, bool numbered)
{
    const AdcConfigLanguage::Syntax& syntax = m_language.GetSyntax();
    std::istringstream in(text);
    std::string physical;
    std::string logical;
    uint32_t lineNo = 0;
    uint32_t first = 0;
    while (std::getline(in, physical))
    {
        ++lineNo;
        if (logical.empty())
        {
            first = lineNo;
            const std::string trimmed = AdcText::Trim(physical);
            if (trimmed.empty() || trimmed[0] == '#')
            {
                continue; // blank line or comment
            }
        }
        std::string part = AdcText::Trim(physical);
        // ilbadm's import joins a line ending in a word "\" with the next one.
        const bool more =
            syntax.continuation && !part.empty() && part.back() == '\\' &&
            (part.size() == 1 || part[part.size() - 2] == ' ' || part[part.size() - 2] == '\t');
        if (more)
        {
            part.pop_back();
        }
        logical += (logical.empty() ? "" : " ") + part;
        if (more)
        {
            continue;
        }
        const uint32_t at = numbered ? first : 0;
        const std::vector<AdcConfigCommand::Word> words = Split(logical, name, at);
        logical.clear();
        if (!words.empty())
        {
            Execute(words, name, at);
        }
    }
    if (!logical.empty())
    {
        const uint32_t at = numbered ? first : 0;
        const std::vector<AdcConfigCommand::Word> words = Split(logical, name, at);
        if (!words.empty())
        {
            Execute(words, name, at);
        }
    }
}

void
AdcConfigReader::ReadFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw AdcConfigError("AdcConfigReader: cannot read file '" + AdcText::Escape(path) + "'");
    }
    std::ostringstream text;
    text << in.rdbuf();
    ReadString(text.str(), path);
}

std::string
AdcConfigReader::Show() const
{
    std::vector<const AdcConfigCommandSpec*> sections;
    for (const AdcConfigCommandSpec& c : m_language.GetCommands())
    {
        if (c.show)
        {
            sections.push_back(&c);
        }
    }
    std::stable_sort(sections.begin(),
                     sections.end(),
                     [](const AdcConfigCommandSpec* a, const AdcConfigCommandSpec* b) {
                         return a->showOrder < b->showOrder;
                     });
    std::ostringstream os;
    for (const AdcConfigCommandSpec* c : sections)
    {
        c->show(m_store, os);
    }
    return os.str();
}

} // namespace ns3
