/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the HTTP/1.1 message head in its real wire format.
 */

#include "adc-http-message.h"

#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"

#include <algorithm>
#include <boost/algorithm/string/classification.hpp>
#include <boost/algorithm/string/split.hpp>
#include <boost/algorithm/string/trim.hpp>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpMessage");

NS_OBJECT_ENSURE_REGISTERED(AdcHttpMessage);

namespace
{

/// \return true for an RFC 9110 token character
bool
IsTchar(uint8_t c)
{
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
    {
        return true;
    }
    switch (c)
    {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
        return true;
    default:
        return false;
    }
}

/// \return true for a character allowed in a field value or reason phrase (no CTL but HTAB)
bool
IsFieldChar(uint8_t c)
{
    return c == '\t' || (c >= 0x20 && c != 0x7f);
}

/// \return true for a character allowed in a request target (visible ASCII)
bool
IsTargetChar(uint8_t c)
{
    return c > 0x20 && c < 0x7f;
}

/// \return lowercase ASCII copy of \p s
std::string
Lower(const std::string& s)
{
    std::string r(s);
    for (auto& c : r)
    {
        if (c >= 'A' && c <= 'Z')
        {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return r;
}

/// \return true when \p a and \p b are equal ignoring ASCII case
bool
EqualsNoCase(const std::string& a, const std::string& b)
{
    return a.size() == b.size() && Lower(a) == Lower(b);
}

/// \return true when [p, p+n) is "HTTP/1.<digit>"
bool
IsHttp1Version(const char* p, std::size_t n)
{
    return n == 8 && std::string(p, 5) == "HTTP/" && p[5] == '1' && p[6] == '.' && p[7] >= '0' &&
           p[7] <= '9';
}

/**
 * Parse a Content-Length value: one decimal number, or a comma-separated list of numbers that
 * are all the same (RFC 9112 section 6.3 item 5).
 * \param v the value (already trimmed)
 * \param out the number
 * \return an error text, or "" when valid
 */
std::string
ParseContentLength(const std::string& v, uint64_t* out)
{
    const std::vector<std::string> values = AdcHttpMessage::SplitList(v);
    if (values.empty())
    {
        return "empty Content-Length";
    }
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        uint64_t n = 0;
        for (char c : values[i])
        {
            if (c < '0' || c > '9')
            {
                return "non-numeric Content-Length '" + v + "'";
            }
            n = n * 10 + static_cast<uint64_t>(c - '0');
            if (n > AdcHttpMessage::kMaxContentLength)
            {
                return "Content-Length exceeds 2^40";
            }
        }
        if (i > 0 && n != *out)
        {
            return "conflicting Content-Length values '" + v + "'";
        }
        *out = n;
    }
    return "";
}

/// \return [p, p+n) with leading and trailing SP / HTAB removed
std::string
TrimOws(const char* p, std::size_t n)
{
    std::size_t b = 0;
    std::size_t e = n;
    while (b < e && (p[b] == ' ' || p[b] == '\t'))
    {
        ++b;
    }
    while (e > b && (p[e - 1] == ' ' || p[e - 1] == '\t'))
    {
        --e;
    }
    return std::string(p + b, e - b);
}

} // namespace

TypeId
AdcHttpMessage::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AdcHttpMessage")
                            .SetParent<Header>()
                            .SetGroupName("Adc")
                            .AddConstructor<AdcHttpMessage>();
    return tid;
}

TypeId
AdcHttpMessage::GetInstanceTypeId() const
{
    return GetTypeId();
}

AdcHttpMessage::AdcHttpMessage()
    : m_kind(REQUEST),
      m_method("GET"),
      m_target("/"),
      m_status(0),
      m_version("HTTP/1.1")
{
}

AdcHttpMessage
AdcHttpMessage::MakeRequest(const std::string& method, const std::string& target)
{
    AdcHttpMessage m;
    m.m_kind = REQUEST;
    m.m_method = method;
    m.m_target = target;
    return m;
}

AdcHttpMessage
AdcHttpMessage::MakeResponse(uint16_t status, const std::string& reason)
{
    AdcHttpMessage m;
    m.m_kind = RESPONSE;
    m.m_method.clear();
    m.m_target.clear();
    m.m_status = status;
    m.m_reason = reason;
    return m;
}

AdcHttpMessage::Kind
AdcHttpMessage::GetKind() const
{
    return m_kind;
}

const std::string&
AdcHttpMessage::GetMethod() const
{
    return m_method;
}

const std::string&
AdcHttpMessage::GetTarget() const
{
    return m_target;
}

uint16_t
AdcHttpMessage::GetStatus() const
{
    return m_status;
}

bool
AdcHttpMessage::IsBodilessStatus(uint16_t status)
{
    return status < 200 || status == 204 || status == 304;
}

const std::string&
AdcHttpMessage::GetReason() const
{
    return m_reason;
}

const std::string&
AdcHttpMessage::GetVersion() const
{
    return m_version;
}

void
AdcHttpMessage::SetVersion(const std::string& version)
{
    m_version = version;
}

void
AdcHttpMessage::SetTarget(const std::string& target)
{
    m_target = target;
}

void
AdcHttpMessage::SetHeader(const std::string& name, const std::string& value)
{
    bool replaced = false;
    for (auto it = m_headers.begin(); it != m_headers.end();)
    {
        if (!EqualsNoCase(it->first, name))
        {
            ++it;
        }
        else if (!replaced)
        {
            it->first = name;
            it->second = value;
            replaced = true;
            ++it;
        }
        else
        {
            it = m_headers.erase(it);
        }
    }
    if (!replaced)
    {
        m_headers.emplace_back(name, value);
    }
}

void
AdcHttpMessage::AddHeader(const std::string& name, const std::string& value)
{
    m_headers.emplace_back(name, value);
}

std::optional<std::string>
AdcHttpMessage::GetHeader(const std::string& name) const
{
    for (const auto& h : m_headers)
    {
        if (EqualsNoCase(h.first, name))
        {
            return h.second;
        }
    }
    return std::nullopt;
}

std::vector<std::string>
AdcHttpMessage::GetHeaders(const std::string& name) const
{
    std::vector<std::string> r;
    for (const auto& h : m_headers)
    {
        if (EqualsNoCase(h.first, name))
        {
            r.push_back(h.second);
        }
    }
    return r;
}

bool
AdcHttpMessage::RemoveHeader(const std::string& name)
{
    std::size_t before = m_headers.size();
    m_headers.erase(std::remove_if(m_headers.begin(),
                                   m_headers.end(),
                                   [&name](const std::pair<std::string, std::string>& h) {
                                       return EqualsNoCase(h.first, name);
                                   }),
                    m_headers.end());
    return m_headers.size() != before;
}

const std::vector<std::pair<std::string, std::string>>&
AdcHttpMessage::GetHeaderList() const
{
    return m_headers;
}

uint64_t
AdcHttpMessage::GetContentLength() const
{
    uint64_t n = 0;
    CheckContentLength(&n);
    return n;
}

std::string
AdcHttpMessage::CheckContentLength(uint64_t* length) const
{
    *length = 0;
    const std::vector<std::string> fields = GetHeaders("Content-Length");
    uint64_t value = 0;
    for (std::size_t i = 0; i < fields.size(); ++i)
    {
        uint64_t n = 0;
        const std::string err = ParseContentLength(fields[i], &n);
        if (!err.empty())
        {
            return err;
        }
        // Several field lines are one list (RFC 9110 section 5.3): all values must agree.
        if (i > 0 && n != value)
        {
            return "conflicting Content-Length fields";
        }
        value = n;
    }
    *length = value;
    return "";
}

void
AdcHttpMessage::SetContentLength(uint64_t n)
{
    SetHeader("Content-Length", std::to_string(n));
}

bool
AdcHttpMessage::IsKeepAlive() const
{
    bool keep = (m_version != "HTTP/1.0");
    for (const auto& v : GetHeaders("Connection"))
    {
        std::stringstream ss(v);
        std::string tok;
        while (std::getline(ss, tok, ','))
        {
            std::string t = Lower(TrimOws(tok.data(), tok.size()));
            if (t == "close")
            {
                return false;
            }
            if (t == "keep-alive")
            {
                keep = true;
            }
        }
    }
    return keep;
}

std::string
AdcHttpMessage::ToWireString() const
{
    std::string s;
    if (m_kind == REQUEST)
    {
        s = m_method + " " + m_target + " " + m_version + "\r\n";
    }
    else
    {
        std::string code = std::to_string(m_status);
        code.insert(0, code.size() < 3 ? 3 - code.size() : 0, '0');
        s = m_version + " " + code + " " + m_reason + "\r\n";
    }
    for (const auto& h : m_headers)
    {
        s += h.first + ": " + h.second + "\r\n";
    }
    s += "\r\n";
    return s;
}

uint32_t
AdcHttpMessage::GetSerializedSize() const
{
    return static_cast<uint32_t>(ToWireString().size());
}

void
AdcHttpMessage::Serialize(Buffer::Iterator start) const
{
    std::string s = ToWireString();
    start.Write(reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size()));
}

uint32_t
AdcHttpMessage::Deserialize(Buffer::Iterator start)
{
    uint32_t n = std::min<uint32_t>(start.GetRemainingSize(), kMaxHeadBytes);
    std::vector<uint8_t> bytes(n);
    if (n > 0)
    {
        start.Read(bytes.data(), n);
    }
    std::size_t consumed = 0;
    std::string error;
    if (Parse(bytes.data(), n, &consumed, &error) != ParseStatus::COMPLETE)
    {
        NS_LOG_LOGIC("Deserialize failed: " << (error.empty() ? "incomplete head" : error));
        return 0;
    }
    return static_cast<uint32_t>(consumed);
}

void
AdcHttpMessage::Print(std::ostream& os) const
{
    if (m_kind == REQUEST)
    {
        os << m_method << " " << m_target << " " << m_version;
    }
    else
    {
        os << m_version << " " << m_status << " " << m_reason;
    }
    for (const auto& h : m_headers)
    {
        os << " [" << h.first << ": " << h.second << "]";
    }
}

std::string
AdcHttpMessage::ParseStartLine(const char* p, std::size_t n)
{
    if (n == 0)
    {
        return "empty start line";
    }
    if (n >= 5 && std::string(p, 5) == "HTTP/")
    {
        // status-line = HTTP-version SP 3DIGIT [SP reason-phrase]
        if (n < 8 || !IsHttp1Version(p, 8))
        {
            return "unsupported HTTP version in status line";
        }
        if (n < 12 || p[8] != ' ')
        {
            return "malformed status line";
        }
        uint16_t code = 0;
        for (std::size_t i = 9; i < 12; ++i)
        {
            if (p[i] < '0' || p[i] > '9')
            {
                return "non-numeric status code";
            }
            code = static_cast<uint16_t>(code * 10 + (p[i] - '0'));
        }
        if (code < 100 || code > 599)
        {
            return "status code out of range";
        }
        if (n > 12 && p[12] != ' ')
        {
            return "malformed status line";
        }
        std::string reason = n > 13 ? std::string(p + 13, n - 13) : std::string();
        for (char c : reason)
        {
            if (!IsFieldChar(static_cast<uint8_t>(c)))
            {
                return "bad character in reason phrase";
            }
        }
        m_kind = RESPONSE;
        m_version.assign(p, 8);
        m_status = code;
        m_reason = reason;
        m_method.clear();
        m_target.clear();
        return "";
    }
    // request-line = method SP request-target SP HTTP-version
    const char* end = p + n;
    const char* sp1 = std::find(p, end, ' ');
    if (sp1 == end)
    {
        return "malformed request line (missing target and version)";
    }
    if (!IsToken(p, static_cast<std::size_t>(sp1 - p)))
    {
        return "bad method token";
    }
    const char* t = sp1 + 1;
    const char* sp2 = std::find(t, end, ' ');
    if (sp2 == t)
    {
        return "empty request target";
    }
    for (const char* c = t; c < sp2; ++c)
    {
        if (!IsTargetChar(static_cast<uint8_t>(*c)))
        {
            return "bad character in request target";
        }
    }
    if (sp2 == end)
    {
        return "missing HTTP version";
    }
    if (!IsHttp1Version(sp2 + 1, static_cast<std::size_t>(end - sp2 - 1)))
    {
        return "unsupported or malformed HTTP version in request line";
    }
    m_kind = REQUEST;
    m_method.assign(p, sp1);
    m_target.assign(t, sp2);
    m_version.assign(sp2 + 1, end);
    m_status = 0;
    m_reason.clear();
    return "";
}

std::string
AdcHttpMessage::ParseFieldLine(const char* p, std::size_t n, std::string* name, std::string* value)
{
    if (n == 0)
    {
        return "empty field line";
    }
    if (p[0] == ' ' || p[0] == '\t')
    {
        return "obsolete line folding";
    }
    const char* end = p + n;
    const char* colon = std::find(p, end, ':');
    if (colon == end)
    {
        return "header line without colon";
    }
    if (!IsToken(p, static_cast<std::size_t>(colon - p)))
    {
        return "bad header name";
    }
    for (const char* c = colon + 1; c < end; ++c)
    {
        if (!IsFieldChar(static_cast<uint8_t>(*c)))
        {
            return "bad character in header value";
        }
    }
    name->assign(p, colon);
    *value = TrimOws(colon + 1, static_cast<std::size_t>(end - colon - 1));
    return "";
}

bool
AdcHttpMessage::IsToken(const char* p, std::size_t n)
{
    return n > 0 && std::all_of(p, p + n, [](char c) { return IsTchar(static_cast<uint8_t>(c)); });
}

std::vector<std::string>
AdcHttpMessage::SplitList(const std::string& value)
{
    std::vector<std::string> elements;
    boost::algorithm::split(elements, value, boost::algorithm::is_any_of(","));
    for (std::string& e : elements)
    {
        boost::algorithm::trim_if(e, boost::algorithm::is_any_of(" \t"));
    }
    elements.erase(std::remove(elements.begin(), elements.end(), std::string()), elements.end());
    return elements;
}

std::string
AdcHttpMessage::ParseHeaderLine(const char* p, std::size_t n)
{
    std::string name;
    std::string value;
    std::string err = ParseFieldLine(p, n, &name, &value);
    if (!err.empty())
    {
        return err;
    }
    if (m_headers.size() >= kMaxHeaders)
    {
        return "more than " + std::to_string(kMaxHeaders) + " header fields";
    }
    if (EqualsNoCase(name, "Content-Length"))
    {
        uint64_t cl = 0;
        err = ParseContentLength(value, &cl);
        if (!err.empty())
        {
            return err;
        }
        // Several fields are one list (RFC 9110 section 5.3): the ones before were checked.
        uint64_t before = cl;
        if (GetHeader("Content-Length"))
        {
            CheckContentLength(&before);
        }
        if (before != cl)
        {
            return "conflicting Content-Length fields";
        }
    }
    m_headers.emplace_back(std::move(name), std::move(value));
    return "";
}

AdcHttpMessage::ParseStatus
AdcHttpMessage::Parse(const uint8_t* data,
                      std::size_t len,
                      std::size_t* consumed,
                      std::string* error)
{
    if (consumed)
    {
        *consumed = 0;
    }
    if (error)
    {
        error->clear();
    }
    auto fail = [error](const std::string& why) {
        if (error)
        {
            *error = why;
        }
        return ParseStatus::ERROR;
    };
    if (data == nullptr)
    {
        return len == 0 ? ParseStatus::INCOMPLETE : fail("null data");
    }
    const char* b = reinterpret_cast<const char*>(data);
    const std::size_t limit = std::min(len, kMaxHeadBytes);
    AdcHttpMessage tmp;
    tmp.m_headers.clear();
    bool first = true;
    std::size_t pos = 0;
    while (true)
    {
        std::size_t i = pos;
        while (i < limit && b[i] != '\r' && b[i] != '\n')
        {
            ++i;
        }
        if (i < limit && b[i] == '\n')
        {
            return fail("bare LF (lines must end with CRLF)");
        }
        if (i + 1 >= limit)
        {
            break; // no complete line within the limit
        }
        if (b[i + 1] != '\n')
        {
            return fail("CR not followed by LF");
        }
        std::string err;
        if (first)
        {
            err = tmp.ParseStartLine(b + pos, i - pos);
            first = false;
        }
        else if (i == pos)
        {
            *this = tmp;
            if (consumed)
            {
                *consumed = i + 2;
            }
            return ParseStatus::COMPLETE;
        }
        else
        {
            err = tmp.ParseHeaderLine(b + pos, i - pos);
        }
        if (!err.empty())
        {
            return fail(err);
        }
        pos = i + 2;
    }
    if (len >= kMaxHeadBytes)
    {
        return fail("head exceeds " + std::to_string(kMaxHeadBytes) + " bytes");
    }
    return ParseStatus::INCOMPLETE;
}

std::string
AdcHttpJoinedField(const AdcHttpMessage& m, const std::string& name)
{
    std::string out;
    for (const std::string& v : m.GetHeaders(name))
    {
        for (const std::string& element : AdcHttpMessage::SplitList(v))
        {
            out += (out.empty() ? "" : ", ") + element;
        }
    }
    return out;
}

AdcIpAddress
AdcHttpAddressToIp(const Address& a)
{
    if (InetSocketAddress::IsMatchingType(a))
    {
        return AdcIpAddress(InetSocketAddress::ConvertFrom(a).GetIpv4());
    }
    if (Inet6SocketAddress::IsMatchingType(a))
    {
        return AdcIpAddress(Inet6SocketAddress::ConvertFrom(a).GetIpv6());
    }
    if (Ipv4Address::IsMatchingType(a))
    {
        return AdcIpAddress(Ipv4Address::ConvertFrom(a));
    }
    if (Ipv6Address::IsMatchingType(a))
    {
        return AdcIpAddress(Ipv6Address::ConvertFrom(a));
    }
    return AdcIpAddress();
}

} // namespace ns3
