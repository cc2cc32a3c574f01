/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The parser of AdcPolicyExpression: recursive descent over the characters of one NetScaler
 * advanced policy expression, with the 1-based column of every error.
 */

#include "adc-policy-expression-node.h"
#include "adc-policy-expression.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace ns3
{

namespace
{

using Node = AdcPolicyExpression::Node;
using NodePtr = std::shared_ptr<const Node>;
using adcexpr::HostPort;
using adcexpr::Ipv4Text;
using adcexpr::IsToken;
using adcexpr::MaskOf;
using adcexpr::SplitHostPort;
using adcexpr::Upper;

/// A word read from the text: its upper-case form and its 1-based column.
struct Word
{
    std::string upper;  //!< the word, upper-cased
    std::size_t column; //!< 1-based column of its first character
};

/// Recursive-descent parser over the characters of one expression.
class Parser
{
  public:
    /// \param text the expression
    explicit Parser(const std::string& text)
        : m_s(text)
    {
    }

    /// \return the tree of the whole text
    NodePtr ParseAll()
    {
        if (m_s.size() > AdcPolicyExpression::kMaxLength)
        {
            Fail(AdcPolicyExpression::kMaxLength,
                 "at most " + std::to_string(AdcPolicyExpression::kMaxLength) +
                     " characters (NetScaler's limit)");
        }
        NodePtr root = ParseOr();
        SkipWs();
        if (m_pos < m_s.size())
        {
            Fail(m_pos, "'&&', '||' or the end of the expression");
        }
        return root;
    }

  private:
    /// Throw the error for byte offset \p at, saying what was expected there.
    [[noreturn]] void Fail(std::size_t at, const std::string& expected) const
    {
        std::string shown = m_s.size() > 200 ? m_s.substr(0, 200) + "..." : m_s;
        std::ostringstream os;
        os << "AdcPolicyExpression: expression \"" << shown << "\" column " << at + 1
           << ": expected " << expected << ", found " << Found(at);
        throw AdcPolicyExpressionError(os.str(), at + 1);
    }

    /// \return a description of what is at byte offset \p at
    std::string Found(std::size_t at) const
    {
        if (at >= m_s.size())
        {
            return "the end of the expression";
        }
        if (IsWordStart(m_s[at]))
        {
            std::size_t e = at;
            while (e < m_s.size() && IsWordChar(m_s[e]) && e - at < 40)
            {
                ++e;
            }
            return "'" + m_s.substr(at, e - at) + "'";
        }
        const auto c = static_cast<unsigned char>(m_s[at]);
        if (c >= 0x21 && c < 0x7f)
        {
            return std::string("'") + m_s[at] + "'";
        }
        std::ostringstream os;
        os << "byte 0x" << std::hex << static_cast<int>(c);
        return os.str();
    }

    static bool IsWordStart(char c)
    {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    }

    static bool IsWordChar(char c)
    {
        return IsWordStart(c) || (c >= '0' && c <= '9');
    }

    static bool IsDigit(char c)
    {
        return c >= '0' && c <= '9';
    }

    bool At(char c) const
    {
        return m_pos < m_s.size() && m_s[m_pos] == c;
    }

    void SkipWs()
    {
        while (m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\t' ||
                                      m_s[m_pos] == '\r' || m_s[m_pos] == '\n'))
        {
            ++m_pos;
        }
    }

    /// Read a word; fail saying \p expected when there is none.
    Word ReadWord(const std::string& expected)
    {
        if (m_pos >= m_s.size() || !IsWordStart(m_s[m_pos]))
        {
            Fail(m_pos, expected);
        }
        Word w{"", m_pos + 1};
        while (m_pos < m_s.size() && IsWordChar(m_s[m_pos]))
        {
            w.upper += m_s[m_pos++];
        }
        w.upper = Upper(w.upper);
        return w;
    }

    /// Fail at word \p w, which is not one of \p expected.
    [[noreturn]] void FailWord(const Word& w, const std::string& expected) const
    {
        Fail(w.column - 1, expected);
    }

    /// Expect '.' then a word (one of \p expected).
    Word DotWord(const std::string& expected)
    {
        if (!At('.'))
        {
            Fail(m_pos, "'.' and then " + expected);
        }
        ++m_pos;
        return ReadWord(expected);
    }

    /// Expect \p c here (no whitespace before it).
    void Expect(char c, const std::string& context)
    {
        if (!At(c))
        {
            Fail(m_pos, std::string("'") + c + "'" + context);
        }
        ++m_pos;
    }

    NodePtr MakeBinary(Node::Kind kind, NodePtr l, NodePtr r)
    {
        auto n = std::make_shared<Node>();
        n->kind = kind;
        n->left = std::move(l);
        n->right = std::move(r);
        return n;
    }

    NodePtr ParseOr()
    {
        NodePtr left = ParseAnd();
        while (true)
        {
            SkipWs();
            if (m_s.compare(m_pos, 2, "||") != 0)
            {
                return left;
            }
            m_pos += 2;
            left = MakeBinary(Node::Kind::OR, left, ParseAnd());
        }
    }

    NodePtr ParseAnd()
    {
        NodePtr left = ParseUnary();
        while (true)
        {
            SkipWs();
            if (m_s.compare(m_pos, 2, "&&") != 0)
            {
                return left;
            }
            m_pos += 2;
            left = MakeBinary(Node::Kind::AND, left, ParseUnary());
        }
    }

    NodePtr ParseUnary()
    {
        SkipWs();
        if (At('!') || At('('))
        {
            if (m_depth >= AdcPolicyExpression::kMaxDepth)
            {
                Fail(m_pos,
                     "at most " + std::to_string(AdcPolicyExpression::kMaxDepth) +
                         " nested '!' and '('");
            }
            ++m_depth;
            NodePtr result;
            if (At('!'))
            {
                ++m_pos;
                auto n = std::make_shared<Node>();
                n->kind = Node::Kind::NOT;
                n->left = ParseUnary();
                result = n;
            }
            else
            {
                ++m_pos;
                result = ParseOr();
                SkipWs();
                if (!At(')'))
                {
                    Fail(m_pos, "'&&', '||' or ')'");
                }
                ++m_pos;
            }
            --m_depth;
            return result;
        }
        NodePtr test = ParseTest();
        if (At('.'))
        {
            // Something follows a complete test (e.g. ".NOT" or ".LENGTH"): not supported.
            ++m_pos;
            Word w = ReadWord("'&&', '||', ')' or the end of the expression");
            FailWord(w,
                     "'&&', '||', ')' or the end of the expression (no operation follows "
                     "a complete test)");
        }
        return test;
    }

    NodePtr ParseTest()
    {
        const Word w = ReadWord("an expression: HTTP, CLIENT, SYS, true, false, '!' or '('");
        if (w.upper == "TRUE" || w.upper == "FALSE")
        {
            auto n = std::make_shared<Node>();
            n->kind = Node::Kind::CONST;
            n->value = w.upper == "TRUE";
            return n;
        }
        if (w.upper == "HTTP")
        {
            return ParseHttp();
        }
        if (w.upper == "CLIENT")
        {
            return ParseClient();
        }
        if (w.upper == "SYS")
        {
            return ParseSys();
        }
        FailWord(w, "HTTP, CLIENT, SYS, true or false");
    }

    NodePtr ParseHttp()
    {
        Word w = DotWord("REQ");
        if (w.upper != "REQ")
        {
            FailWord(w, "REQ");
        }
        w = DotWord("URL, HOSTNAME, HEADER or COOKIE");
        if (w.upper == "URL")
        {
            const std::string expected = std::string("PATH, ") + kTextOps;
            Word op = DotWord(expected);
            if (op.upper == "PATH")
            {
                return ParseTextOp(Node::Source::URL_PATH, "", DotWord(kTextOps), kTextOps);
            }
            return ParseTextOp(Node::Source::URL, "", op, expected);
        }
        if (w.upper == "HOSTNAME")
        {
            Word op = DotWord("EQ");
            if (op.upper != "EQ")
            {
                FailWord(op, "EQ");
            }
            const std::size_t argAt = ArgStart();
            auto n = std::make_shared<Node>();
            n->kind = Node::Kind::HOSTNAME_EQ;
            n->arg = StringArg();
            CheckHostname(n->arg, argAt);
            return n;
        }
        if (w.upper == "HEADER")
        {
            const std::string name = NameArg("a header name (an HTTP token)");
            const std::string expected = std::string("EXISTS, ") + kTextOps;
            Word op = DotWord(expected);
            if (op.upper == "EXISTS")
            {
                auto n = std::make_shared<Node>();
                n->kind = Node::Kind::HEADER_EXISTS;
                n->name = name;
                return n;
            }
            return ParseTextOp(Node::Source::HEADER, name, op, expected);
        }
        if (w.upper == "COOKIE")
        {
            const std::string expected = std::string("VALUE, EXISTS, ") + kTextOps;
            Word op = DotWord(expected);
            if (op.upper == "VALUE")
            {
                const std::string name = NameArg("a cookie name (a token, RFC 6265)");
                return ParseTextOp(Node::Source::COOKIE_VALUE, name, DotWord(kTextOps), kTextOps);
            }
            if (op.upper == "EXISTS")
            {
                auto n = std::make_shared<Node>();
                n->kind = Node::Kind::COOKIE_EXISTS;
                n->name = NameArg("a cookie name (a token, RFC 6265)");
                return n;
            }
            return ParseTextOp(Node::Source::COOKIE, "", op, expected);
        }
        FailWord(w, "URL, HOSTNAME, HEADER or COOKIE");
    }

    /// The text operations, as the error messages list them.
    static constexpr const char* kTextOps =
        "SET_TEXT_MODE, EQ, NE, STARTSWITH, ENDSWITH or CONTAINS";

    /// Parse [.SET_TEXT_MODE(...)].OP("arg") after a text source; \p op is its first word,
    /// \p expected what that word may be (for the error).
    NodePtr ParseTextOp(Node::Source source,
                        const std::string& name,
                        Word op,
                        const std::string& expected)
    {
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::TEXT;
        n->source = source;
        n->name = name;
        const bool modeSeen = op.upper == "SET_TEXT_MODE";
        if (modeSeen)
        {
            Expect('(', " after SET_TEXT_MODE");
            SkipWs();
            const Word mode = ReadWord("IGNORECASE or NOIGNORECASE");
            if (mode.upper != "IGNORECASE" && mode.upper != "NOIGNORECASE")
            {
                FailWord(mode, "IGNORECASE or NOIGNORECASE");
            }
            n->ignoreCase = mode.upper == "IGNORECASE";
            SkipWs();
            Expect(')', " closing SET_TEXT_MODE");
            op = DotWord("EQ, NE, STARTSWITH, ENDSWITH or CONTAINS");
        }
        if (op.upper == "EQ")
        {
            n->textOp = Node::TextOp::EQ;
        }
        else if (op.upper == "NE")
        {
            n->textOp = Node::TextOp::NE;
        }
        else if (op.upper == "STARTSWITH")
        {
            n->textOp = Node::TextOp::STARTSWITH;
        }
        else if (op.upper == "ENDSWITH")
        {
            n->textOp = Node::TextOp::ENDSWITH;
        }
        else if (op.upper == "CONTAINS")
        {
            n->textOp = Node::TextOp::CONTAINS;
        }
        else
        {
            FailWord(op, modeSeen ? "EQ, NE, STARTSWITH, ENDSWITH or CONTAINS" : expected);
        }
        n->arg = StringArg();
        return n;
    }

    NodePtr ParseClient()
    {
        Word w = DotWord("IP");
        if (w.upper != "IP")
        {
            FailWord(w, "IP");
        }
        w = DotWord("SRC");
        if (w.upper != "SRC")
        {
            FailWord(w, "SRC");
        }
        w = DotWord("EQ or IN_SUBNET");
        if (w.upper != "EQ" && w.upper != "IN_SUBNET")
        {
            FailWord(w, "EQ or IN_SUBNET");
        }
        const bool subnet = w.upper == "IN_SUBNET";
        Expect('(', " and an IPv4 address");
        SkipWs();
        auto n = std::make_shared<Node>();
        n->kind = subnet ? Node::Kind::IP_IN_SUBNET : Node::Kind::IP_EQ;
        const std::size_t addrAt = m_pos;
        n->addr = ReadIpv4();
        if (subnet)
        {
            Expect('/', " and a prefix length 0..32 (a.b.c.d/n)");
            const std::size_t lenAt = m_pos;
            uint32_t len = 0;
            std::size_t digits = 0;
            while (m_pos < m_s.size() && IsDigit(m_s[m_pos]) && digits < 3)
            {
                len = len * 10 + static_cast<uint32_t>(m_s[m_pos++] - '0');
                ++digits;
            }
            if (digits == 0 || len > 32 || (digits > 1 && m_s[lenAt] == '0'))
            {
                Fail(lenAt, "a prefix length 0..32");
            }
            n->prefix = static_cast<uint8_t>(len);
            if ((n->addr & ~MaskOf(n->prefix)) != 0)
            {
                Fail(addrAt,
                     "a network address with no host bits set (" +
                         Ipv4Text(n->addr & MaskOf(n->prefix)) + "/" + std::to_string(len) + ")");
            }
        }
        SkipWs();
        Expect(')', subnet ? " closing IN_SUBNET" : " closing EQ");
        return n;
    }

    /// Read a dotted-quad IPv4 address (no leading zeros), host order.
    uint32_t ReadIpv4()
    {
        uint32_t a = 0;
        for (int i = 0; i < 4; ++i)
        {
            if (i > 0)
            {
                Expect('.', " in an IPv4 address a.b.c.d");
            }
            const std::size_t at = m_pos;
            uint32_t v = 0;
            std::size_t digits = 0;
            while (m_pos < m_s.size() && IsDigit(m_s[m_pos]) && digits < 4)
            {
                v = v * 10 + static_cast<uint32_t>(m_s[m_pos++] - '0');
                ++digits;
            }
            if (digits == 0 || digits > 3 || v > 255 || (digits > 1 && m_s[at] == '0'))
            {
                Fail(at, "an IPv4 address a.b.c.d (each part 0..255, no leading zeros)");
            }
            a = (a << 8) | v;
        }
        return a;
    }

    NodePtr ParseSys()
    {
        Word w = DotWord("RANDOM");
        if (w.upper != "RANDOM")
        {
            FailWord(w, "RANDOM");
        }
        auto n = std::make_shared<Node>();
        n->kind = Node::Kind::RANDOM_CMP;
        w = DotWord("MUL, LT, LE, GT or GE");
        if (w.upper == "MUL")
        {
            NumberArg(&n->mul, &n->mulValue);
            w = DotWord("LT, LE, GT or GE");
        }
        if (w.upper == "LT")
        {
            n->cmp = Node::Cmp::LT;
        }
        else if (w.upper == "LE")
        {
            n->cmp = Node::Cmp::LE;
        }
        else if (w.upper == "GT")
        {
            n->cmp = Node::Cmp::GT;
        }
        else if (w.upper == "GE")
        {
            n->cmp = Node::Cmp::GE;
        }
        else
        {
            FailWord(w, n->mul.empty() ? "MUL, LT, LE, GT or GE" : "LT, LE, GT or GE");
        }
        NumberArg(&n->rhs, &n->rhsValue);
        return n;
    }

    /// Read "(number)": digits with an optional fraction; canonical text and value.
    void NumberArg(std::string* canonical, double* value)
    {
        Expect('(', " and a number");
        SkipWs();
        const std::size_t at = m_pos;
        std::string intPart;
        std::string fracPart;
        while (m_pos < m_s.size() && IsDigit(m_s[m_pos]) && intPart.size() <= 9)
        {
            intPart += m_s[m_pos++];
        }
        if (intPart.empty() || intPart.size() > 9)
        {
            Fail(at, "a number (up to 9 digits, optional fraction, e.g. 10 or 0.25)");
        }
        if (At('.'))
        {
            ++m_pos;
            while (m_pos < m_s.size() && IsDigit(m_s[m_pos]) && fracPart.size() <= 9)
            {
                fracPart += m_s[m_pos++];
            }
            if (fracPart.empty() || fracPart.size() > 9)
            {
                Fail(m_pos, "1 to 9 fraction digits");
            }
        }
        intPart.erase(0, std::min(intPart.find_first_not_of('0'), intPart.size() - 1));
        while (!fracPart.empty() && fracPart.back() == '0')
        {
            fracPart.pop_back();
        }
        *canonical = fracPart.empty() ? intPart : intPart + "." + fracPart;
        double v = 0;
        for (char c : intPart)
        {
            v = v * 10 + (c - '0');
        }
        double frac = 0;
        for (auto it = fracPart.rbegin(); it != fracPart.rend(); ++it)
        {
            frac = (frac + (*it - '0')) / 10;
        }
        *value = v + frac;
        SkipWs();
        Expect(')', " closing the number");
    }

    /// \return the offset of the argument after "(" and whitespace (for error columns)
    std::size_t ArgStart() const
    {
        std::size_t p = m_pos;
        if (p < m_s.size() && m_s[p] == '(')
        {
            ++p;
            while (p < m_s.size() &&
                   (m_s[p] == ' ' || m_s[p] == '\t' || m_s[p] == '\r' || m_s[p] == '\n'))
            {
                ++p;
            }
        }
        return p;
    }

    /// Read ("name") and check it is a token; \p what names it in the error.
    std::string NameArg(const std::string& what)
    {
        const std::size_t at = ArgStart();
        std::string name = StringArg();
        if (!IsToken(name))
        {
            Fail(at, what);
        }
        return name;
    }

    /// Read ("string") with NetScaler's escapes \" and \\.
    std::string StringArg()
    {
        Expect('(', " and a quoted string");
        SkipWs();
        if (!At('"'))
        {
            Fail(m_pos, "a double-quoted string");
        }
        const std::size_t open = m_pos;
        ++m_pos;
        std::string out;
        while (true)
        {
            if (m_pos >= m_s.size())
            {
                Fail(m_pos, "'\"' closing the string opened at column " + std::to_string(open + 1));
            }
            const char c = m_s[m_pos];
            if (c == '"')
            {
                ++m_pos;
                break;
            }
            if (c == '\\')
            {
                if (m_pos + 1 < m_s.size() && (m_s[m_pos + 1] == '"' || m_s[m_pos + 1] == '\\'))
                {
                    out += m_s[m_pos + 1];
                    m_pos += 2;
                    continue;
                }
                Fail(m_pos, "\\\" or \\\\ (the only escapes in a string)");
            }
            out += c;
            ++m_pos;
        }
        SkipWs();
        Expect(')', " closing the string argument");
        return out;
    }

    /// Check a HOSTNAME argument: host (name, IPv4 or [IPv6]) and optional :port.
    void CheckHostname(const std::string& arg, std::size_t at) const
    {
        const std::string expected =
            "a host name, optionally with :port (letters, digits, '-', '.', '_', or [IPv6])";
        const HostPort hp = SplitHostPort(arg);
        bool ok = !hp.host.empty();
        if (ok && hp.host[0] == '[')
        {
            ok = hp.host.size() > 2 && hp.host.back() == ']';
            for (std::size_t i = 1; ok && i + 1 < hp.host.size(); ++i)
            {
                const char c = hp.host[i];
                ok = IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
                     c == '.';
            }
        }
        else
        {
            for (char c : hp.host)
            {
                ok = ok && (IsWordChar(c) || c == '-' || c == '.');
            }
        }
        if (ok && arg.size() > hp.host.size())
        {
            // A ':' follows the host: the port is 1 to 5 digits, at most 65535.
            ok = !hp.port.empty() && hp.port.size() <= 5;
            for (char c : hp.port)
            {
                ok = ok && IsDigit(c);
            }
            ok = ok && std::stoul(hp.port) <= 65535;
        }
        if (!ok)
        {
            Fail(at, expected);
        }
    }

    const std::string& m_s; //!< the text
    std::size_t m_pos{0};   //!< current byte offset
    std::size_t m_depth{0}; //!< current nesting of ! and (
};

} // namespace

AdcPolicyExpression
AdcPolicyExpression::Parse(const std::string& text)
{
    Parser p(text);
    return AdcPolicyExpression(p.ParseAll());
}

} // namespace ns3
