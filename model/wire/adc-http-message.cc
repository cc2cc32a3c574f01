/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the HTTP/1.1 message head in its real wire format, and a parser that reassembles
 * HTTP messages from a TCP byte stream.
 */

#include "adc-http-message.h"

#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"

#include <algorithm>
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

/// \return true when [p, p+n) is a non-empty token
bool
IsToken(const char* p, std::size_t n)
{
    if (n == 0)
    {
        return false;
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        if (!IsTchar(static_cast<uint8_t>(p[i])))
        {
            return false;
        }
    }
    return true;
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
 * Parse a Content-Length value.
 * \param v the value (already trimmed)
 * \param out the number
 * \return an error text, or "" when valid
 */
std::string
ParseContentLength(const std::string& v, uint64_t* out)
{
    if (v.empty())
    {
        return "empty Content-Length";
    }
    uint64_t n = 0;
    for (char c : v)
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
    *out = n;
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
    auto v = GetHeader("Content-Length");
    uint64_t n = 0;
    if (!v || !ParseContentLength(*v, &n).empty())
    {
        return 0;
    }
    return n;
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
AdcHttpMessage::ParseHeaderLine(const char* p, std::size_t n)
{
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
    if (m_headers.size() >= kMaxHeaders)
    {
        return "more than " + std::to_string(kMaxHeaders) + " header fields";
    }
    std::string name(p, colon);
    std::string value = TrimOws(colon + 1, static_cast<std::size_t>(end - colon - 1));
    if (EqualsNoCase(name, "Content-Length"))
    {
        uint64_t cl = 0;
        std::string err = ParseContentLength(value, &cl);
        if (!err.empty())
        {
            return err;
        }
        auto prev = GetHeader("Content-Length");
        if (prev && *prev != value)
        {
            // both are valid digit strings; compare as numbers ("05" equals "5")
            uint64_t old = 0;
            ParseContentLength(*prev, &old);
            if (old != cl)
            {
                return "conflicting Content-Length fields";
            }
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

// ---------------------------------------------------------------------------------------------

AdcHttpStreamParser::AdcHttpStreamParser()
    : m_inBody(false),
      m_currentHeadBytes(0),
      m_bodyTotal(0),
      m_bodyRemaining(0),
      m_ignoreBodies(false),
      m_fed(0)
{
}

void
AdcHttpStreamParser::Feed(Ptr<const Packet> p)
{
    if (!p || p->GetSize() == 0)
    {
        return;
    }
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), p->GetSize());
    Feed(bytes.data(), bytes.size());
}

void
AdcHttpStreamParser::Feed(const uint8_t* data, std::size_t len)
{
    if (data == nullptr)
    {
        return;
    }
    m_fed += len;
    std::size_t pos = 0;
    while (pos < len && m_error.empty())
    {
        if (m_inBody)
        {
            uint64_t take = std::min<uint64_t>(m_bodyRemaining, len - pos);
            m_bodyRemaining -= take;
            pos += static_cast<std::size_t>(take);
            if (m_bodyRemaining == 0)
            {
                Finish();
            }
        }
        else
        {
            pos += FeedHead(data + pos, len - pos);
        }
    }
}

std::size_t
AdcHttpStreamParser::FeedHead(const uint8_t* data, std::size_t len)
{
    const std::size_t before = m_headBuf.size();
    // An INCOMPLETE head is shorter than the limit, so at least one byte is always taken.
    const std::size_t room = AdcHttpMessage::kMaxHeadBytes + 1 - before;
    const std::size_t take = std::min(len, room);
    m_headBuf.insert(m_headBuf.end(), data, data + take);
    std::size_t consumed = 0;
    std::string err;
    auto st = m_current.Parse(m_headBuf.data(), m_headBuf.size(), &consumed, &err);
    if (st == AdcHttpMessage::ParseStatus::INCOMPLETE)
    {
        return take;
    }
    if (st == AdcHttpMessage::ParseStatus::ERROR || consumed <= before)
    {
        Fail(err.empty() ? "malformed head" : err);
        return take;
    }
    m_headBuf.clear();
    m_currentHeadBytes = consumed;
    if (m_current.GetHeader("Transfer-Encoding"))
    {
        Fail("Transfer-Encoding is not supported");
        return consumed - before;
    }
    m_bodyTotal = m_ignoreBodies ? 0 : m_current.GetContentLength();
    m_bodyRemaining = m_bodyTotal;
    if (m_bodyRemaining == 0)
    {
        Finish();
    }
    else
    {
        m_inBody = true;
    }
    return consumed - before;
}

void
AdcHttpStreamParser::Finish()
{
    m_done.push_back(Done{m_current, m_currentHeadBytes, m_bodyTotal});
    m_inBody = false;
    m_current = AdcHttpMessage();
    m_currentHeadBytes = 0;
    m_bodyTotal = 0;
    m_bodyRemaining = 0;
}

void
AdcHttpStreamParser::Fail(const std::string& reason)
{
    NS_LOG_LOGIC("HTTP stream error: " << reason);
    m_error = reason;
    m_headBuf.clear();
    m_inBody = false;
}

bool
AdcHttpStreamParser::Next(AdcHttpMessage* head, uint64_t* bodyBytes)
{
    return Next(head, bodyBytes, nullptr);
}

bool
AdcHttpStreamParser::Next(AdcHttpMessage* head, uint64_t* bodyBytes, uint64_t* headBytes)
{
    if (m_done.empty())
    {
        return false;
    }
    const Done& d = m_done.front();
    if (head)
    {
        *head = d.head;
    }
    if (bodyBytes)
    {
        *bodyBytes = d.bodyBytes;
    }
    if (headBytes)
    {
        *headBytes = d.headBytes;
    }
    m_done.pop_front();
    return true;
}

bool
AdcHttpStreamParser::HasError() const
{
    return !m_error.empty();
}

const std::string&
AdcHttpStreamParser::GetError() const
{
    return m_error;
}

void
AdcHttpStreamParser::SetIgnoreBodies(bool skip)
{
    m_ignoreBodies = skip;
}

bool
AdcHttpStreamParser::IsMidMessage() const
{
    return m_inBody || !m_headBuf.empty();
}

uint64_t
AdcHttpStreamParser::GetBytesFed() const
{
    return m_fed;
}

void
AdcHttpStreamParser::Reset()
{
    m_headBuf.clear();
    m_inBody = false;
    m_current = AdcHttpMessage();
    m_currentHeadBytes = 0;
    m_bodyTotal = 0;
    m_bodyRemaining = 0;
    m_done.clear();
    m_error.clear();
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
