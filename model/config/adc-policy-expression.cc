/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: NetScaler advanced policy expressions for content switching policies.
 *
 * Names and meanings follow the NetScaler "Advanced policy expressions" documentation: the
 * prefixes HTTP.REQ.URL, HTTP.REQ.URL.PATH, HTTP.REQ.HOSTNAME, HTTP.REQ.HEADER("h"),
 * HTTP.REQ.COOKIE, CLIENT.IP.SRC and SYS.RANDOM, the text operations EQ, NE, STARTSWITH,
 * ENDSWITH, CONTAINS and SET_TEXT_MODE(IGNORECASE), the IP operations EQ and IN_SUBNET, the
 * number operations MUL, LT, LE, GT, GE, and the compound operators !, && and ||. A header
 * prefix names the header's last instance (NetScaler's HEADER("h").INSTANCE(0) is "the last
 * instance"). The percentage idiom is SYS.RANDOM (a number in [0, 1)) scaled by MUL and
 * compared, e.g. SYS.RANDOM.MUL(100).LT(10) for 10% of requests.
 */

#include "adc-policy-expression.h"

#include "adc-policy-expression-node.h"

#include "ns3/adc-http-message.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <utility>

namespace ns3
{

AdcPolicyExpressionError::AdcPolicyExpressionError(const std::string& what, std::size_t column)
    : AdcConfigError(what),
      m_column(column)
{
}

std::size_t
AdcPolicyExpressionError::GetColumn() const
{
    return m_column;
}

double
AdcPolicyContext::DrawRandom() const
{
    double v = randomSource ? randomSource() : randomDraw;
    if (!(v >= 0.0)) // negative or NaN
    {
        return 0.0;
    }
    if (v >= 1.0)
    {
        return std::nextafter(1.0, 0.0);
    }
    return v;
}

namespace
{

using Node = AdcPolicyExpression::Node;
using NodePtr = std::shared_ptr<const Node>;

constexpr int kPrecOr = 1;   //!< precedence of ||
constexpr int kPrecAnd = 2;  //!< precedence of &&
constexpr int kPrecNot = 3;  //!< precedence of !
constexpr int kPrecAtom = 4; //!< a test or constant

} // namespace

namespace adcexpr
{

/// \return \p s with ASCII letters upper-cased
std::string
Upper(std::string s)
{
    for (auto& c : s)
    {
        if (c >= 'a' && c <= 'z')
        {
            c = static_cast<char>(c - 'a' + 'A');
        }
    }
    return s;
}

/// \return \p s with ASCII letters lower-cased
std::string
Lower(std::string s)
{
    for (auto& c : s)
    {
        if (c >= 'A' && c <= 'Z')
        {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return s;
}

/// \return true for an RFC 9110 tchar (header field names and cookie names are tokens)
bool
IsTchar(char c)
{
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
    {
        return true;
    }
    const std::string extra = "!#$%&'*+-.^_`|~";
    return c != '\0' && extra.find(c) != std::string::npos;
}

/// \return true when \p s is a non-empty token
bool
IsToken(const std::string& s)
{
    if (s.empty())
    {
        return false;
    }
    for (char c : s)
    {
        if (!IsTchar(c))
        {
            return false;
        }
    }
    return true;
}

/// \return \p s as a quoted NetScaler string (\" and \\ escaped)
std::string
Quote(const std::string& s)
{
    std::string out = "\"";
    for (char c : s)
    {
        if (c == '"' || c == '\\')
        {
            out += '\\';
        }
        out += c;
    }
    out += '"';
    return out;
}

/// \return the dotted-quad text of a host-order IPv4 address
std::string
Ipv4Text(uint32_t a)
{
    std::ostringstream os;
    os << ((a >> 24) & 0xff) << '.' << ((a >> 16) & 0xff) << '.' << ((a >> 8) & 0xff) << '.'
       << (a & 0xff);
    return os.str();
}

/// \return the network mask of a prefix length (0..32), host order
uint32_t
MaskOf(uint8_t prefix)
{
    return prefix == 0 ? 0U : (0xffffffffU << (32 - prefix));
}

/// Split "host[:port]" or "[v6][:port]" (lenient: used on request data).
HostPort
SplitHostPort(const std::string& s)
{
    HostPort hp;
    std::size_t hostEnd = s.size();
    if (!s.empty() && s[0] == '[')
    {
        const std::size_t close = s.find(']');
        hostEnd = close == std::string::npos ? s.size() : close + 1;
    }
    else
    {
        const std::size_t colon = s.rfind(':');
        hostEnd = colon == std::string::npos ? s.size() : colon;
    }
    hp.host = s.substr(0, hostEnd);
    if (hostEnd < s.size() && s[hostEnd] == ':')
    {
        hp.port = s.substr(hostEnd + 1);
    }
    return hp;
}

} // namespace adcexpr

namespace
{

using namespace adcexpr;

/// \return true when \p s starts with \p prefix, ignoring ASCII case
bool
StartsWithNoCase(const std::string& s, const std::string& prefix)
{
    return s.size() >= prefix.size() && Lower(s.substr(0, prefix.size())) == prefix;
}

/// \return the length of "scheme://" when \p target is in absolute form, else 0
std::size_t
AbsoluteSchemeLength(const std::string& target)
{
    if (StartsWithNoCase(target, "http://"))
    {
        return 7;
    }
    if (StartsWithNoCase(target, "https://"))
    {
        return 8;
    }
    return 0;
}

/// \return HTTP.REQ.URL: the target, without scheme://authority when in absolute form
std::string
UrlOf(const AdcHttpMessage& req)
{
    const std::string& t = req.GetTarget();
    const std::size_t scheme = AbsoluteSchemeLength(t);
    if (scheme == 0)
    {
        return t;
    }
    const std::size_t slash = t.find_first_of("/?", scheme);
    if (slash == std::string::npos)
    {
        return "/";
    }
    return t[slash] == '/' ? t.substr(slash) : "/" + t.substr(slash);
}

/// \return HTTP.REQ.HOSTNAME: the authority of an absolute target, else the Host header
std::string
HostnameOf(const AdcHttpMessage& req)
{
    const std::string& t = req.GetTarget();
    const std::size_t scheme = AbsoluteSchemeLength(t);
    if (scheme != 0)
    {
        const std::size_t end = t.find_first_of("/?#", scheme);
        std::string authority = t.substr(scheme, end == std::string::npos ? end : end - scheme);
        const std::size_t at = authority.rfind('@');
        return at == std::string::npos ? authority : authority.substr(at + 1);
    }
    return req.GetHeader("Host").value_or("");
}

/// \return \p s without leading and trailing spaces and tabs
std::string
TrimOws(const std::string& s)
{
    const std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
    {
        return "";
    }
    const std::size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

/**
 * Find cookie \p name in the request's Cookie fields (RFC 6265 section 4.2.1: pairs
 * "name=value" separated by ";"; names are case-sensitive).
 * \return true when found; *value is then its value
 */
bool
FindCookie(const AdcHttpMessage& req, const std::string& name, std::string* value)
{
    for (const auto& field : req.GetHeaders("Cookie"))
    {
        std::size_t start = 0;
        while (start <= field.size())
        {
            std::size_t semi = field.find(';', start);
            if (semi == std::string::npos)
            {
                semi = field.size();
            }
            const std::string pair = field.substr(start, semi - start);
            const std::size_t eq = pair.find('=');
            if (eq != std::string::npos && TrimOws(pair.substr(0, eq)) == name)
            {
                *value = TrimOws(pair.substr(eq + 1));
                return true;
            }
            start = semi + 1;
        }
    }
    return false;
}

/// \return the text a TEXT node looks at (empty when missing)
std::string
SourceText(const Node& n, const AdcPolicyContext& ctx)
{
    if (ctx.request == nullptr)
    {
        return "";
    }
    const AdcHttpMessage& req = *ctx.request;
    switch (n.source)
    {
    case Node::Source::URL:
        return UrlOf(req);
    case Node::Source::URL_PATH: {
        const std::string url = UrlOf(req);
        return url.substr(0, url.find('?'));
    }
    case Node::Source::HEADER: {
        const auto all = req.GetHeaders(n.name);
        return all.empty() ? std::string() : all.back();
    }
    case Node::Source::COOKIE: {
        std::string joined;
        for (const auto& field : req.GetHeaders("Cookie"))
        {
            joined += (joined.empty() ? "" : "; ") + field;
        }
        return joined;
    }
    case Node::Source::COOKIE_VALUE: {
        std::string value;
        return FindCookie(req, n.name, &value) ? value : std::string();
    }
    }
    return "";
}

/// \return the result of a text operation
bool
TextMatch(Node::TextOp op, const std::string& text, const std::string& arg)
{
    switch (op)
    {
    case Node::TextOp::EQ:
        return text == arg;
    case Node::TextOp::NE:
        return text != arg;
    case Node::TextOp::STARTSWITH:
        return text.compare(0, arg.size(), arg) == 0 && text.size() >= arg.size();
    case Node::TextOp::ENDSWITH:
        return text.size() >= arg.size() &&
               text.compare(text.size() - arg.size(), arg.size(), arg) == 0;
    case Node::TextOp::CONTAINS:
        return text.find(arg) != std::string::npos;
    }
    return false;
}

/// \return the client address in host order, or nullopt unless IPv4
bool
ClientV4(const AdcPolicyContext& ctx, uint32_t* out)
{
    if (!ctx.clientIp.IsV4())
    {
        return false;
    }
    const auto& b = ctx.clientIp.GetBytes();
    *out = (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
    return true;
}

/// Evaluate a node.
bool
Eval(const Node& n, const AdcPolicyContext& ctx)
{
    switch (n.kind)
    {
    case Node::Kind::CONST:
        return n.value;
    case Node::Kind::NOT:
        return !Eval(*n.left, ctx);
    case Node::Kind::AND:
        return Eval(*n.left, ctx) && Eval(*n.right, ctx);
    case Node::Kind::OR:
        return Eval(*n.left, ctx) || Eval(*n.right, ctx);
    case Node::Kind::TEXT: {
        std::string text = SourceText(n, ctx);
        if (n.ignoreCase)
        {
            return TextMatch(n.textOp, Lower(text), Lower(n.arg));
        }
        return TextMatch(n.textOp, text, n.arg);
    }
    case Node::Kind::HEADER_EXISTS:
        return ctx.request != nullptr && ctx.request->GetHeader(n.name).has_value();
    case Node::Kind::COOKIE_EXISTS: {
        std::string value;
        return ctx.request != nullptr && FindCookie(*ctx.request, n.name, &value);
    }
    case Node::Kind::HOSTNAME_EQ: {
        if (ctx.request == nullptr)
        {
            return false;
        }
        const HostPort req = SplitHostPort(HostnameOf(*ctx.request));
        const HostPort want = SplitHostPort(n.arg);
        if (Lower(req.host) != Lower(want.host))
        {
            return false;
        }
        if (want.port.empty())
        {
            return true;
        }
        // Compare ports as numbers (":080" is port 80); a request without a port differs.
        const std::string reqPort =
            req.port.substr(std::min(req.port.find_first_not_of('0'), req.port.size()));
        const std::string wantPort =
            want.port.substr(std::min(want.port.find_first_not_of('0'), want.port.size()));
        return !req.port.empty() && reqPort == wantPort;
    }
    case Node::Kind::IP_EQ: {
        uint32_t a = 0;
        return ClientV4(ctx, &a) && a == n.addr;
    }
    case Node::Kind::IP_IN_SUBNET: {
        uint32_t a = 0;
        return ClientV4(ctx, &a) && (a & MaskOf(n.prefix)) == n.addr;
    }
    case Node::Kind::RANDOM_CMP: {
        const double x = ctx.DrawRandom() * n.mulValue;
        switch (n.cmp)
        {
        case Node::Cmp::LT:
            return x < n.rhsValue;
        case Node::Cmp::LE:
            return x <= n.rhsValue;
        case Node::Cmp::GT:
            return x > n.rhsValue;
        case Node::Cmp::GE:
            return x >= n.rhsValue;
        }
        return false;
    }
    }
    return false;
}

/// \return the name of a text operation
const char*
TextOpName(Node::TextOp op)
{
    switch (op)
    {
    case Node::TextOp::EQ:
        return "EQ";
    case Node::TextOp::NE:
        return "NE";
    case Node::TextOp::STARTSWITH:
        return "STARTSWITH";
    case Node::TextOp::ENDSWITH:
        return "ENDSWITH";
    case Node::TextOp::CONTAINS:
        return "CONTAINS";
    }
    return "?";
}

/// \return the name of a comparison
const char*
CmpName(Node::Cmp c)
{
    switch (c)
    {
    case Node::Cmp::LT:
        return "LT";
    case Node::Cmp::LE:
        return "LE";
    case Node::Cmp::GT:
        return "GT";
    case Node::Cmp::GE:
        return "GE";
    }
    return "?";
}

/// \return the precedence of a node (for printing parentheses)
int
PrecOf(const Node& n)
{
    switch (n.kind)
    {
    case Node::Kind::OR:
        return kPrecOr;
    case Node::Kind::AND:
        return kPrecAnd;
    case Node::Kind::NOT:
        return kPrecNot;
    default:
        return kPrecAtom;
    }
}

/// Print \p n; parenthesized when its precedence is below \p minPrec.
void
Print(const Node& n, int minPrec, std::string* out)
{
    const bool paren = PrecOf(n) < minPrec;
    if (paren)
    {
        *out += '(';
    }
    switch (n.kind)
    {
    case Node::Kind::CONST:
        *out += n.value ? "true" : "false";
        break;
    case Node::Kind::NOT:
        *out += '!';
        Print(*n.left, kPrecNot, out);
        break;
    case Node::Kind::AND:
        // Left-associative: a right operand of the same precedence keeps its parentheses.
        Print(*n.left, kPrecAnd, out);
        *out += "&&";
        Print(*n.right, kPrecAnd + 1, out);
        break;
    case Node::Kind::OR:
        Print(*n.left, kPrecOr, out);
        *out += "||";
        Print(*n.right, kPrecOr + 1, out);
        break;
    case Node::Kind::TEXT:
        switch (n.source)
        {
        case Node::Source::URL:
            *out += "HTTP.REQ.URL";
            break;
        case Node::Source::URL_PATH:
            *out += "HTTP.REQ.URL.PATH";
            break;
        case Node::Source::HEADER:
            *out += "HTTP.REQ.HEADER(" + Quote(n.name) + ")";
            break;
        case Node::Source::COOKIE:
            *out += "HTTP.REQ.COOKIE";
            break;
        case Node::Source::COOKIE_VALUE:
            *out += "HTTP.REQ.COOKIE.VALUE(" + Quote(n.name) + ")";
            break;
        }
        if (n.ignoreCase)
        {
            *out += ".SET_TEXT_MODE(IGNORECASE)";
        }
        *out += std::string(".") + TextOpName(n.textOp) + "(" + Quote(n.arg) + ")";
        break;
    case Node::Kind::HEADER_EXISTS:
        *out += "HTTP.REQ.HEADER(" + Quote(n.name) + ").EXISTS";
        break;
    case Node::Kind::COOKIE_EXISTS:
        *out += "HTTP.REQ.COOKIE.EXISTS(" + Quote(n.name) + ")";
        break;
    case Node::Kind::HOSTNAME_EQ:
        *out += "HTTP.REQ.HOSTNAME.EQ(" + Quote(n.arg) + ")";
        break;
    case Node::Kind::IP_EQ:
        *out += "CLIENT.IP.SRC.EQ(" + Ipv4Text(n.addr) + ")";
        break;
    case Node::Kind::IP_IN_SUBNET:
        *out +=
            "CLIENT.IP.SRC.IN_SUBNET(" + Ipv4Text(n.addr) + "/" + std::to_string(n.prefix) + ")";
        break;
    case Node::Kind::RANDOM_CMP:
        *out += "SYS.RANDOM";
        if (!n.mul.empty())
        {
            *out += ".MUL(" + n.mul + ")";
        }
        *out += std::string(".") + CmpName(n.cmp) + "(" + n.rhs + ")";
        break;
    }
    if (paren)
    {
        *out += ')';
    }
}

/// Structural equality of two trees.
bool
Same(const Node& a, const Node& b)
{
    if (a.kind != b.kind)
    {
        return false;
    }
    switch (a.kind)
    {
    case Node::Kind::CONST:
        return a.value == b.value;
    case Node::Kind::NOT:
        return Same(*a.left, *b.left);
    case Node::Kind::AND:
    case Node::Kind::OR:
        return Same(*a.left, *b.left) && Same(*a.right, *b.right);
    case Node::Kind::TEXT:
        return a.source == b.source && a.name == b.name && a.ignoreCase == b.ignoreCase &&
               a.textOp == b.textOp && a.arg == b.arg;
    case Node::Kind::HEADER_EXISTS:
    case Node::Kind::COOKIE_EXISTS:
        return a.name == b.name;
    case Node::Kind::HOSTNAME_EQ:
        return a.arg == b.arg;
    case Node::Kind::IP_EQ:
        return a.addr == b.addr;
    case Node::Kind::IP_IN_SUBNET:
        return a.addr == b.addr && a.prefix == b.prefix;
    case Node::Kind::RANDOM_CMP:
        return a.mul == b.mul && a.cmp == b.cmp && a.rhs == b.rhs;
    }
    return false;
}

} // namespace

AdcPolicyExpression::AdcPolicyExpression()
    : m_root(std::make_shared<Node>())
{
}

AdcPolicyExpression::AdcPolicyExpression(std::shared_ptr<const Node> root)
    : m_root(std::move(root))
{
}

bool
AdcPolicyExpression::Evaluate(const AdcPolicyContext& context) const
{
    return Eval(*m_root, context);
}

std::string
AdcPolicyExpression::ToString() const
{
    std::string out;
    Print(*m_root, kPrecOr, &out);
    return out;
}

bool
AdcPolicyExpression::operator==(const AdcPolicyExpression& other) const
{
    return Same(*m_root, *other.m_root);
}

bool
AdcPolicyExpression::operator!=(const AdcPolicyExpression& other) const
{
    return !(*this == other);
}

} // namespace ns3
