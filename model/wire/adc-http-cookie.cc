/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: HTTP cookies, Set-Cookie values and NetScaler's persistence cookie.
 */

#include "adc-http-cookie.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"
#include "ns3/global-value.h"
#include "ns3/integer.h"

#include <algorithm>
#include <cstdio>

namespace ns3
{

namespace
{

/// \return true for SP and HTAB
bool
IsWs(char c)
{
    return c == ' ' || c == '\t';
}

/// \return s without leading and trailing SP/HTAB
std::string
Trim(const std::string& s, std::size_t b, std::size_t e)
{
    while (b < e && IsWs(s[b]))
    {
        ++b;
    }
    while (e > b && IsWs(s[e - 1]))
    {
        --e;
    }
    return s.substr(b, e - b);
}

/// \return true for control characters (0x00-0x1F, 0x7F)
bool
IsCtl(unsigned char c)
{
    return c < 0x20 || c == 0x7F;
}

} // namespace

// ------------------------------------------------------------------ AdcHttpCookies

AdcHttpCookies::AdcHttpCookies()
    : m_skipped(0),
      m_hasHeader(false)
{
}

AdcHttpCookies
AdcHttpCookies::Parse(const AdcHttpMessage& request)
{
    AdcHttpCookies c;
    for (const auto& v : request.GetHeaders("Cookie"))
    {
        c.AddHeaderValue(v);
    }
    return c;
}

AdcHttpCookies
AdcHttpCookies::ParseValue(const std::string& headerValue)
{
    AdcHttpCookies c;
    c.AddHeaderValue(headerValue);
    return c;
}

void
AdcHttpCookies::AddHeaderValue(const std::string& s)
{
    m_hasHeader = true;
    std::size_t b = 0;
    while (b <= s.size())
    {
        std::size_t e = s.find(';', b);
        if (e == std::string::npos)
        {
            e = s.size();
        }
        const std::string piece = Trim(s, b, e);
        b = e + 1;
        if (piece.empty())
        {
            continue;
        }
        const std::size_t eq = piece.find('=');
        if (eq == std::string::npos)
        {
            ++m_skipped;
            continue;
        }
        Pair p;
        p.name = Trim(piece, 0, eq);
        std::string value = Trim(piece, eq + 1, piece.size());
        bool ok = IsCookieName(p.name.data(), p.name.size());
        for (std::size_t i = 0; ok && i < value.size(); ++i)
        {
            ok = !IsCtl(static_cast<unsigned char>(value[i]));
        }
        if (!ok)
        {
            ++m_skipped;
            continue;
        }
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"' &&
            value.find('"', 1) == value.size() - 1)
        {
            p.value = value.substr(1, value.size() - 2);
            p.quoted = true;
        }
        else
        {
            p.value = std::move(value);
        }
        m_pairs.push_back(std::move(p));
    }
}

bool
AdcHttpCookies::HasCookieHeader() const
{
    return m_hasHeader;
}

bool
AdcHttpCookies::HasAnyCookie() const
{
    return !m_pairs.empty();
}

std::size_t
AdcHttpCookies::Count() const
{
    return m_pairs.size();
}

std::size_t
AdcHttpCookies::GetSkipped() const
{
    return m_skipped;
}

std::optional<std::string>
AdcHttpCookies::Get(const std::string& name) const
{
    for (const auto& p : m_pairs)
    {
        if (p.name == name)
        {
            return p.value;
        }
    }
    return std::nullopt;
}

const std::vector<AdcHttpCookies::Pair>&
AdcHttpCookies::GetPairs() const
{
    return m_pairs;
}

AdcHttpCookies::ClientKind
AdcHttpCookies::Classify(const std::string& persistenceCookieName) const
{
    if (m_pairs.empty())
    {
        return ClientKind::NO_COOKIE;
    }
    return Get(persistenceCookieName) ? ClientKind::PERSISTENCE_COOKIE : ClientKind::OTHER_COOKIES;
}

std::string
AdcHttpCookies::ToHeaderValue() const
{
    std::string out;
    for (const auto& p : m_pairs)
    {
        if (!out.empty())
        {
            out += "; ";
        }
        out += p.name;
        out += '=';
        if (p.quoted)
        {
            out += '"' + p.value + '"';
        }
        else
        {
            out += p.value;
        }
    }
    return out;
}

bool
AdcHttpCookies::IsCookieName(const char* p, std::size_t n)
{
    return n > 0 && AdcHttpMessage::IsToken(p, n);
}

bool
AdcHttpCookies::IsCookieOctet(unsigned char c)
{
    return c == 0x21 || (c >= 0x23 && c <= 0x2B) || (c >= 0x2D && c <= 0x3A) ||
           (c >= 0x3C && c <= 0x5B) || (c >= 0x5D && c <= 0x7E);
}

// ------------------------------------------------------------------ AdcSetCookie

std::string
AdcSetCookie::FormatImfFixdate(int64_t t)
{
    if (t < 0 || t > kMaxUnixSeconds)
    {
        throw AdcConfigError("AdcSetCookie: cookie expiry " + std::to_string(t) +
                             " (Unix seconds) is outside 0.." + std::to_string(kMaxUnixSeconds) +
                             " (1970-01-01 to 9999-12-31, the years an IMF-fixdate can write)");
    }
    static const char* const kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
    static const char* const kMonths[] =
        {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const int64_t days = t / 86400;
    const int64_t secs = t % 86400;
    // Civil date from days since 1970-01-01 (H. Hinnant's days_from_civil, inverted), in
    // eras of 400 years starting on March 1.
    const int64_t z = days + 719468;
    const int64_t era = z / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const int64_t m = mp < 10 ? mp + 3 : mp - 9;
    const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    char buf[64];
    std::snprintf(buf,
                  sizeof(buf),
                  "%s, %02d %s %04d %02d:%02d:%02d GMT",
                  kDays[days % 7],
                  static_cast<int>(d),
                  kMonths[m - 1],
                  static_cast<int>(y),
                  static_cast<int>(secs / 3600),
                  static_cast<int>(secs / 60 % 60),
                  static_cast<int>(secs % 60));
    return buf;
}

namespace
{
/// "AdcEpoch": the Unix time of simulation time 0, for HTTP dates.
GlobalValue g_adcEpoch("AdcEpoch",
                       "The Unix time (seconds) of simulation time 0, used to write and read "
                       "HTTP dates such as a cookie's Expires (default 2026-01-01T00:00:00Z; "
                       "runs against real programs set the wall clock)",
                       IntegerValue(AdcSetCookie::kDefaultEpoch),
                       MakeIntegerChecker<int64_t>(0, AdcSetCookie::kMaxUnixSeconds));
} // namespace

int64_t
AdcSetCookie::GetEpoch()
{
    IntegerValue v;
    g_adcEpoch.GetValue(v);
    return v.Get();
}

std::string
AdcSetCookie::BuildExpired(const std::string& name, Version version)
{
    // Build checks the name; its timeout 0 gives the attributes without an expiry.
    const std::string base = Build(name, "", version, Time(0), Time(0), 0);
    return base + (version == Version::V1 ? "; Max-Age=0" : "; Expires=" + FormatImfFixdate(0));
}

std::string
AdcSetCookie::Build(const std::string& name,
                    const std::string& value,
                    Version version,
                    Time timeout,
                    Time now,
                    int64_t epoch)
{
    if (!AdcHttpCookies::IsCookieName(name.data(), name.size()))
    {
        std::size_t pos = 0;
        while (pos < name.size() && AdcHttpMessage::IsToken(&name[pos], 1))
        {
            ++pos;
        }
        throw AdcConfigError(
            "AdcSetCookie: cookie name '" + name + "' is not an RFC 6265 " + "cookie-name" +
            (name.empty() ? std::string(" (empty)")
                          : " (" + AdcText::ShowByte(static_cast<unsigned char>(name[pos])) +
                                " at position " + std::to_string(pos) + ")") +
            "; allowed: 1 or more token characters (letters, digits and " + "!#$%&'*+-.^_`|~)");
    }
    for (std::size_t i = 0; i < value.size(); ++i)
    {
        if (!AdcHttpCookies::IsCookieOctet(static_cast<unsigned char>(value[i])))
        {
            throw AdcConfigError("AdcSetCookie: cookie value '" + value + "' has " +
                                 AdcText::ShowByte(static_cast<unsigned char>(value[i])) +
                                 " at position " + std::to_string(i) +
                                 "; allowed: RFC 6265 cookie-octets (printable US-ASCII but " +
                                 "space, '\"', ',', ';' and '\\')");
        }
    }
    if (timeout.IsStrictlyNegative())
    {
        throw AdcConfigError("AdcSetCookie: cookie timeout " +
                             std::to_string(timeout.GetSeconds()) +
                             " s is negative; allowed: 0 (session cookie) or more");
    }
    if (now.IsStrictlyNegative())
    {
        throw AdcConfigError("AdcSetCookie: time " + std::to_string(now.GetSeconds()) +
                             " s is negative; allowed: 0 or more");
    }
    std::string out = name + "=" + value;
    if (version == Version::V1)
    {
        out += "; Version=1";
    }
    out += "; Path=/";
    if (timeout.IsZero())
    {
        return out; // CS-05: a session cookie, no expiry whatever the version
    }
    // Whole seconds: timeout rounded up, now rounded down.
    const int64_t ns = timeout.GetNanoSeconds();
    const int64_t timeoutS = ns / 1000000000 + (ns % 1000000000 != 0 ? 1 : 0);
    if (version == Version::V1)
    {
        return out + "; Max-Age=" + std::to_string(timeoutS);
    }
    const int64_t nowS = now.GetNanoSeconds() / 1000000000;
    if (epoch < 0 || epoch > kMaxUnixSeconds || nowS > kMaxUnixSeconds ||
        timeoutS > kMaxUnixSeconds)
    {
        throw AdcConfigError("AdcSetCookie: cookie expiry epoch " + std::to_string(epoch) +
                             " + time " + std::to_string(nowS) + " s + timeout " +
                             std::to_string(timeoutS) + " s is outside 0.." +
                             std::to_string(kMaxUnixSeconds) + " (years 1970 to 9999)");
    }
    return out + "; Expires=" + FormatImfFixdate(epoch + nowS + timeoutS);
}

namespace
{

/// \return \p s in lowercase (ASCII letters only)
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

/// \return true for an RFC 6265 5.1.1 delimiter (%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E)
bool
IsDateDelimiter(unsigned char c)
{
    return c == 0x09 || (c >= 0x20 && c <= 0x2F) || (c >= 0x3B && c <= 0x40) ||
           (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
}

/// \return true for an ASCII digit
bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

/**
 * Read 1*N DIGIT at \p pos of \p t followed by the end or a non-digit (RFC 6265 5.1.1
 * `1*2DIGIT [ non-digit *OCTET ]` and alike).
 * \return the number, or -1; \p pos is moved past the digits
 */
int
ReadDigits(const std::string& t, std::size_t& pos, std::size_t minDigits, std::size_t maxDigits)
{
    std::size_t n = 0;
    int v = 0;
    while (pos + n < t.size() && IsDigit(t[pos + n]))
    {
        if (n == maxDigits)
        {
            return -1; // one digit too many
        }
        v = v * 10 + (t[pos + n] - '0');
        ++n;
    }
    if (n < minDigits)
    {
        return -1;
    }
    pos += n;
    return v;
}

/// Days from 1970-01-01 to the civil date y-m-d (H. Hinnant's days_from_civil).
int64_t
DaysFromCivil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2 ? 1 : 0;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/// \return the number of days of month \p m (1-12) of year \p y (Gregorian)
int
DaysInMonth(int y, int m)
{
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : kDays[m - 1];
}

} // namespace

std::optional<int64_t>
AdcSetCookie::ParseCookieDate(const std::string& date)
{
    static const char* const kMonths[] =
        {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    bool foundTime = false;
    bool foundDay = false;
    bool foundMonth = false;
    bool foundYear = false;
    int hour = 0;
    int minute = 0;
    int second = 0;
    int day = 0;
    int month = 0;
    int year = 0;
    std::size_t b = 0;
    while (b < date.size())
    {
        // date-token-list: tokens of non-delimiters separated by delimiters
        while (b < date.size() && IsDateDelimiter(static_cast<unsigned char>(date[b])))
        {
            ++b;
        }
        std::size_t e = b;
        while (e < date.size() && !IsDateDelimiter(static_cast<unsigned char>(date[e])))
        {
            ++e;
        }
        if (b == e)
        {
            break;
        }
        const std::string t = date.substr(b, e - b);
        b = e;
        if (!foundTime)
        {
            // hms-time [ non-digit *OCTET ]; time-field = 1*2DIGIT
            std::size_t p = 0;
            const int h = ReadDigits(t, p, 1, 2);
            int m = -1;
            int s = -1;
            if (h >= 0 && p < t.size() && t[p] == ':')
            {
                ++p;
                m = ReadDigits(t, p, 1, 2);
                if (m >= 0 && p < t.size() && t[p] == ':')
                {
                    ++p;
                    s = ReadDigits(t, p, 1, 2);
                }
                else
                {
                    m = -1;
                }
            }
            if (h >= 0 && m >= 0 && s >= 0)
            {
                foundTime = true;
                hour = h;
                minute = m;
                second = s;
                continue;
            }
        }
        if (!foundDay)
        {
            std::size_t p = 0;
            const int d = ReadDigits(t, p, 1, 2);
            if (d >= 0)
            {
                foundDay = true;
                day = d;
                continue;
            }
        }
        if (!foundMonth && t.size() >= 3)
        {
            const std::string m = Lower(t.substr(0, 3));
            for (int i = 0; i < 12 && !foundMonth; ++i)
            {
                if (m == kMonths[i])
                {
                    foundMonth = true;
                    month = i + 1;
                }
            }
            if (foundMonth)
            {
                continue;
            }
        }
        if (!foundYear)
        {
            std::size_t p = 0;
            const int y = ReadDigits(t, p, 2, 4);
            if (y >= 0)
            {
                foundYear = true;
                year = y;
            }
        }
    }
    if (foundYear && year >= 70 && year <= 99)
    {
        year += 1900;
    }
    else if (foundYear && year >= 0 && year <= 69)
    {
        year += 2000;
    }
    if (!foundTime || !foundDay || !foundMonth || !foundYear || day < 1 || day > 31 ||
        year < 1601 || hour > 23 || minute > 59 || second > 59 || day > DaysInMonth(year, month))
    {
        return std::nullopt;
    }
    return DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
}

std::optional<AdcSetCookie::Parsed>
AdcSetCookie::Parse(const std::string& s)
{
    // RFC 6265 5.2 steps 1-6: the name-value-pair ends at the first ';'.
    const std::size_t semi = std::min(s.find(';'), s.size());
    const std::size_t eq = s.find('=');
    if (eq == std::string::npos || eq >= semi)
    {
        return std::nullopt; // step 2: no '=' in the name-value-pair
    }
    Parsed c;
    c.name = Trim(s, 0, eq);
    c.value = Trim(s, eq + 1, semi);
    if (c.name.empty())
    {
        return std::nullopt; // step 5
    }
    // Attributes: each ';' starts a cookie-av (RFC 6265 5.2, "unparsed-attributes").
    std::size_t b = semi;
    while (b < s.size())
    {
        ++b; // the ';'
        const std::size_t e = std::min(s.find(';', b), s.size());
        const std::size_t aeq = std::min(s.find('=', b), e);
        const std::string name = Lower(Trim(s, b, aeq));
        const std::string value = aeq < e ? Trim(s, aeq + 1, e) : std::string();
        b = e;
        if (name == "expires")
        {
            if (const auto t = ParseCookieDate(value))
            {
                c.expires = t;
            }
        }
        else if (name == "max-age")
        {
            // 5.2.2: first character DIGIT or '-', the rest DIGITs.
            const bool neg = !value.empty() && value[0] == '-';
            const std::size_t from = neg ? 1 : 0;
            bool ok = (!value.empty() && (neg || IsDigit(value[0])));
            if (neg && value.size() == 1)
            {
                ok = false;
            }
            int64_t v = 0;
            for (std::size_t i = from; ok && i < value.size(); ++i)
            {
                ok = IsDigit(value[i]);
                if (ok && v <= kMaxUnixSeconds)
                {
                    v = v * 10 + (value[i] - '0');
                }
            }
            if (ok)
            {
                v = std::min(v, kMaxUnixSeconds); // clamp: no overflow, still "forever"
                c.maxAge = neg ? -v : v;
            }
        }
        else if (name == "domain")
        {
            if (!value.empty())
            {
                c.domain = Lower(value[0] == '.' ? value.substr(1) : value);
            }
        }
        else if (name == "path")
        {
            if (!value.empty() && value[0] == '/')
            {
                c.path = value;
            }
        }
        else if (name == "secure")
        {
            c.secure = true;
        }
        else if (name == "httponly")
        {
            c.httpOnly = true;
        }
    }
    return c;
}

bool
AdcSetCookie::IsSession(const Parsed& c)
{
    return !c.maxAge && !c.expires;
}

int64_t
AdcSetCookie::ExpiryAfter(const Parsed& c, Time now, int64_t epoch)
{
    if (c.maxAge)
    {
        return *c.maxAge;
    }
    if (c.expires)
    {
        return *c.expires - (epoch + now.GetNanoSeconds() / 1000000000);
    }
    return kMaxUnixSeconds;
}

} // namespace ns3
