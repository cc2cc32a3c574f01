/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: HTTP cookies (RFC 6265) as a content-switching appliance reads and writes them:
 * the Cookie request header parsed into pairs, the Set-Cookie value of an inserted
 * persistence cookie, and NetScaler's persistence cookie (NSC_...) name and value encodings.
 */

#ifndef ADC_HTTP_COOKIE_H
#define ADC_HTTP_COOKIE_H

#include "adc-http-message.h"

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief The cookies a request carries: every Cookie header field parsed into name/value
 * pairs (RFC 6265 section 4.2 grammar, read as leniently as browsers and servers do).
 *
 * Parsing rules of one Cookie field value (several Cookie fields are parsed in wire order
 * and their pairs appended, as HTTP/2 splits the header; RFC 6265 section 5.4 sends one):
 * - the value is split at every ';' (RFC 6265 4.2.1: `cookie-pair *( ";" SP cookie-pair )`;
 *   the SP is optional here); each piece is trimmed of spaces and tabs;
 * - an empty piece (e.g. a trailing ';' or ";;") is ignored;
 * - a piece is `name "=" value` split at its FIRST '='; name and value are each trimmed of
 *   spaces and tabs ("a = b" reads as a/b);
 * - the name must be an RFC 6265 cookie-name (an RFC 2616 token); the value may be empty and
 *   may hold any byte but control characters (0x00-0x1F, 0x7F): browsers send spaces, commas
 *   and non-ASCII bytes inside values;
 * - a value `DQUOTE *octet DQUOTE` (RFC 6265 4.1.1 `cookie-value`) is quoted: Get returns it
 *   without the quotes, ToHeaderValue writes them back; a value with a '"' inside the quotes
 *   is taken literally, quotes included;
 * - a piece without '=', with an empty or non-token name or with a control character in its
 *   value is malformed: it is skipped (counted by GetSkipped), never fatal;
 * - duplicate names are kept in order; Get returns the first (RFC 6265 5.4 puts the cookie
 *   with the longest path first, and servers take the first).
 * Names compare case-sensitively (RFC 6265 5.3 keeps them as sent).
 *
 * For backup persistence (CS-08), Classify tells the three kinds of client apart: no cookie
 * at all (backup persistence applies), only other cookies (cookie-capable: no backup), and
 * the persistence cookie. A Cookie header whose every pair is malformed counts as no cookie.
 */
class AdcHttpCookies
{
  public:
    /// One cookie of a Cookie header.
    struct Pair
    {
        std::string name;    //!< cookie-name, as sent
        std::string value;   //!< cookie-value without surrounding quotes
        bool quoted = false; //!< the value was sent inside DQUOTEs
    };

    /// What a request says about the client's cookies (CS-08).
    enum class ClientKind
    {
        NO_COOKIE,          //!< no cookie at all: backup persistence (SOURCEIP) applies
        OTHER_COOKIES,      //!< cookies, none the persistence cookie: cookie-capable, no backup
        PERSISTENCE_COOKIE, //!< the persistence cookie is present
    };

    /// No cookies.
    AdcHttpCookies();

    /**
     * \brief Parse every Cookie header field of a request, in wire order.
     * \param request the request (its Cookie fields; other fields are ignored)
     * \return the cookies
     */
    static AdcHttpCookies Parse(const AdcHttpMessage& request);

    /**
     * \brief Parse one Cookie field value (any bytes; never throws).
     * \param headerValue the field value
     * \return the cookies
     */
    static AdcHttpCookies ParseValue(const std::string& headerValue);

    /**
     * \brief Parse one more Cookie field value and append its pairs.
     * \param headerValue the field value
     */
    void AddHeaderValue(const std::string& headerValue);

    /// \return true when at least one Cookie field was parsed (even one with no valid pair)
    bool HasCookieHeader() const;
    /// \return true when at least one well-formed cookie was found
    bool HasAnyCookie() const;
    /// \return the number of well-formed cookies
    std::size_t Count() const;
    /// \return the number of malformed pieces skipped
    std::size_t GetSkipped() const;

    /**
     * \param name a cookie name (case-sensitive)
     * \return the value of the first cookie of that name (unquoted), or nullopt
     */
    std::optional<std::string> Get(const std::string& name) const;

    /// \return the cookies, in wire order
    const std::vector<Pair>& GetPairs() const;

    /**
     * \brief Classify the client for backup persistence (CS-08).
     * \param persistenceCookieName the name of the persistence cookie (NSC_...)
     * \return NO_COOKIE, OTHER_COOKIES or PERSISTENCE_COOKIE
     */
    ClientKind Classify(const std::string& persistenceCookieName) const;

    /**
     * \brief The cookies as one Cookie field value, `name=value` joined by "; " (RFC 6265
     * 5.4 step 4), quoted values inside DQUOTEs. ParseValue of it gives the same pairs.
     * \return the field value ("" when there are no cookies)
     */
    std::string ToHeaderValue() const;

    /**
     * \param p characters
     * \param n their number
     * \return true when [p, p+n) is a non-empty RFC 6265 cookie-name (RFC 2616 token)
     */
    static bool IsCookieName(const char* p, std::size_t n);

    /**
     * \param c a byte
     * \return true when c is an RFC 6265 4.1.1 cookie-octet (%x21 / %x23-2B / %x2D-3A /
     *         %x3C-5B / %x5D-7E: US-ASCII but controls, whitespace, DQUOTE, comma, ';' and '\')
     */
    static bool IsCookieOctet(unsigned char c);

  private:
    std::vector<Pair> m_pairs; //!< well-formed cookies in wire order
    std::size_t m_skipped;     //!< malformed pieces skipped
    bool m_hasHeader;          //!< a Cookie field was parsed
};

/**
 * \ingroup adc
 * \brief The Set-Cookie value of an inserted persistence cookie (COOKIEINSERT), with the
 * expiry written as NetScaler writes it for each cookie version (CS-05).
 *
 * Forms (RFC 6265 4.1.1 attribute syntax):
 * - version 0 (Netscape): `name=value; Path=/; Expires=<IMF-fixdate>`, the date being
 *   epoch + now + timeout in RFC 7231 section 7.1.1.1 form, e.g.
 *   "Sun, 06 Nov 1994 08:49:37 GMT";
 * - version 1 (RFC 2109 / RFC 2965): `name=value; Version=1; Path=/; Max-Age=<seconds>`
 *   (RFC 2109 4.2.2: Version is required; Max-Age is the lifetime in seconds);
 * - timeout 0: no Expires and no Max-Age, whatever the version (a session cookie, kept only
 *   while the browser runs: "the appliance does not specify an expiry").
 *
 * Simulation time has no calendar: Expires is computed from an epoch date (the wall-clock
 * time of simulation time 0, Unix seconds: GetEpoch(), by default kDefaultEpoch =
 * 2026-01-01T00:00:00Z) so that the same run writes the same bytes. Seconds are whole: now is
 * rounded down, the timeout up (a positive timeout never writes Max-Age=0, which deletes a cookie).
 */
class AdcSetCookie
{
  public:
    /// Cookie version, NetScaler's `-cookieVersion` (set lb parameter).
    enum class Version
    {
        V0, //!< Netscape cookie: Expires
        V1  //!< RFC 2109/2965 cookie: Version=1, Max-Age
    };

    /// 2026-01-01T00:00:00Z in Unix seconds (20454 days after 1970-01-01).
    static constexpr int64_t kDefaultEpoch = 1767225600;
    /// Latest date IMF-fixdate can write: 9999-12-31T23:59:59Z (4-digit year).
    static constexpr int64_t kMaxUnixSeconds = 253402300799;

    /**
     * \return the Unix time of simulation time 0: ns-3's global value "AdcEpoch" (default
     * kDefaultEpoch). A run against real programs (AdcEmulationHelper::EnableRealtime) sets it
     * to the wall clock at the start, so the Expires dates a real browser reads are real dates.
     */
    static int64_t GetEpoch();

    /**
     * \brief Build a Set-Cookie field value.
     * \param name cookie name (an RFC 6265 cookie-name)
     * \param value cookie value (RFC 6265 cookie-octets, may be empty)
     * \param version the cookie version
     * \param timeout the lifetime; zero writes a session cookie (no expiry attribute)
     * \param now the simulation time (since simulation time 0)
     * \param epoch the Unix time of simulation time 0 (seconds)
     * \return the value, e.g. "NSC_x=ffff...; Path=/; Expires=Thu, 01 Jan 2026 00:30:00 GMT"
     * \throws AdcConfigError on a bad name or value (naming the position of the first bad
     *         character), a negative timeout or now, or an expiry after year 9999
     */
    static std::string Build(const std::string& name,
                             const std::string& value,
                             Version version,
                             Time timeout,
                             Time now,
                             int64_t epoch = GetEpoch());

    /**
     * \brief Format a Unix time as an RFC 7231 7.1.1.1 IMF-fixdate.
     * \param unixSeconds seconds since 1970-01-01T00:00:00Z, 0..kMaxUnixSeconds
     * \return e.g. "Sun, 06 Nov 1994 08:49:37 GMT"
     * \throws AdcConfigError when out of range
     */
    static std::string FormatImfFixdate(int64_t unixSeconds);

    /**
     * \brief A Set-Cookie field value that deletes the cookie \p name of Path=/ at the user
     * agent (RFC 6265 section 3.1: "the server can delete cookies by including an Expires
     * attribute with a value in the past"; 5.3 step 11 replaces the stored cookie of the same
     * name, domain and path, and the expired one is then removed).
     * \param name cookie name (an RFC 6265 cookie-name)
     * \param version V0: `name=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`; V1:
     *        `name=; Version=1; Path=/; Max-Age=0` (RFC 2109 4.2.2: 0 discards the cookie)
     * \return the value
     * \throws AdcConfigError on a bad name
     */
    static std::string BuildExpired(const std::string& name, Version version);

    /**
     * \brief A Set-Cookie field value as a user agent reads it (RFC 6265 section 5.2): the
     * cookie's name and value and the attributes it understands.
     */
    struct Parsed
    {
        std::string name;               //!< cookie-name, trimmed of SP/HTAB
        std::string value;              //!< cookie-value, trimmed of SP/HTAB (quotes kept)
        std::optional<int64_t> expires; //!< last valid Expires, Unix seconds (RFC 6265 5.2.1)
        std::optional<int64_t> maxAge;  //!< last valid Max-Age, seconds (may be <= 0; 5.2.2)
        std::string domain;             //!< last non-empty Domain, lowercased, leading '.' cut
        std::string path;               //!< last Path starting with '/' ("" = default-path)
        bool secure = false;            //!< a Secure attribute was present
        bool httpOnly = false;          //!< an HttpOnly attribute was present
    };

    /**
     * \brief Parse a Set-Cookie field value as RFC 6265 section 5.2 says (any bytes; never
     * throws, never reads out of bounds).
     *
     * The name-value-pair is the text before the first ';'; without '=' in it, or with an
     * empty name after trimming SP/HTAB, the whole line is ignored (nullopt). Each later
     * ';'-separated piece is an attribute `name[=value]`, both trimmed, names matched
     * case-insensitively: Expires (a cookie-date, ParseCookieDate; ignored when it does not
     * parse), Max-Age (an optional '-' then 1 or more digits, else ignored; values beyond
     * +-kMaxUnixSeconds are clamped), Domain (ignored when empty), Path (ignored unless it
     * starts with '/'), Secure, HttpOnly. Unknown attributes are ignored; for repeated ones
     * the last valid one counts (RFC 6265 5.3 step 3 uses the last of each name). Max-Age
     * takes precedence over Expires when both are present (5.3 step 3): IsSession,
     * ExpiryAfter resolve that.
     * \param setCookieValue the field value
     * \return the cookie, or nullopt when RFC 6265 says to ignore the line
     */
    static std::optional<Parsed> Parse(const std::string& setCookieValue);

    /**
     * \brief Parse a cookie-date by the algorithm of RFC 6265 section 5.1.1 (tokens split at
     * delimiters; the first hms-time, day-of-month, month name and year found; 2-digit years
     * 70-99 are 19xx, 0-69 are 20xx), which reads IMF-fixdate, RFC 850 and asctime dates.
     * \param date the attribute value (any bytes)
     * \return Unix seconds, or nullopt when a part is missing or out of range (day 1-31 and
     *         existing in its month, year >= 1601, hour <= 23, minute and second <= 59)
     */
    static std::optional<int64_t> ParseCookieDate(const std::string& date);

    /**
     * \param c a parsed cookie
     * \return true when it has neither a Max-Age nor an Expires (a session cookie)
     */
    static bool IsSession(const Parsed& c);

    /**
     * \brief The lifetime a user agent gives a cookie received at simulation time \p now:
     * Max-Age seconds when present (Max-Age wins over Expires), else Expires - (epoch + now).
     * \param c a parsed cookie that is not a session cookie
     * \param now the receiving time (since simulation time 0)
     * \param epoch the Unix time of simulation time 0 (seconds)
     * \return seconds the cookie lives from \p now; <= 0 means expired at once (deleted)
     */
    static int64_t ExpiryAfter(const Parsed& c, Time now, int64_t epoch = GetEpoch());
};

/**
 * \ingroup adc
 * \brief NetScaler's persistence cookie: its name `NSC_` + the virtual-server IDs, and its
 * value naming the chosen service (server IP and port), in the obfuscated encoding of
 * NetScaler releases that write the server in clear-ish form (CS-04).
 *
 * Name. Citrix's documentation of content-switching persistence: "The format of the cookie
 * inserted by the Citrix ADC appliance is NSC_<vid_str of CSvserver><vid_str of Lbvserver>",
 * "derived from the virtual server name". The vid_str modelled is the one the public decoder
 * catalyst256/Netscaler-Cookie-Decryptor (nsccookiedecrypt.py, decryptServiceName) undoes:
 * a Caesar shift by one of the ASCII letters (a->b, ..., y->z, z->a; A->B, ..., Z->A), every
 * other character unchanged. Its README's cookie "NSC_Qspe-xxx.bwjwb.dp.vl-IUUQ" names the
 * vserver "Prod-www.xxxxx.co.uk-HTTP" (one label redacted there). An LB vserver reached
 * without a CS vserver has just its own ID, as in that example. The name must stay an RFC
 * 6265 token, so of NetScaler's name characters (letters, digits, '_', '-', '.', '#', ' ',
 * '@', '=', ':') only the first six are accepted here. The concatenation is ambiguous
 * without a separator (as on the appliance): DecodeLbVserver splits it knowing the CS name.
 *
 * Value. The same decoder's regex `[0-9a-f]{8}([0-9a-f]{8}).*([0-9a-f]{4})$` and its
 * decryptServerIP / decryptServerPort: 44 lowercase hex digits,
 * - 8: "ffffffff" (every public cookie shows it; the decoder skips it),
 * - 8: the service's IPv4 address XOR 0x03081e11, big-endian,
 * - 24: "45525d5f4f58455e445a4a42" (constant in the README's example and in every public
 *   NetScaler cookie seen; the decoder skips it),
 * - 4: the service's port XOR 0x3630.
 * The README's "ffffffff50effd8445525d5f4f58455e445a4a423660" decodes to 83.231.227.149:80.
 * DecodeValue accepts what the decoder accepts: at least 20 characters, all lowercase hex,
 * the IP at offset 8 and the port in the last 4.
 */
class AdcNscCookie
{
  public:
    /// The service a persistence cookie names.
    struct Service
    {
        Ipv4Address ip; //!< server IP
        uint16_t port;  //!< server port
    };

    static constexpr uint32_t kIpKey = 0x03081e11;     //!< XOR key of the IP (public decoder)
    static constexpr uint16_t kPortKey = 0x3630;       //!< XOR key of the port (public decoder)
    static constexpr std::size_t kValueLength = 44;    //!< hex digits EncodeValue writes
    static constexpr std::size_t kMaxNameLength = 127; //!< NetScaler's vserver-name limit

    /**
     * \brief The vid_str of a virtual server: its name, letters shifted by one.
     * \param vserverName the name: 1..127 of letters, digits, '_', '-', '.', '#', the first a
     *        letter, digit or '_'
     * \return the ID
     * \throws AdcConfigError naming the name, the position of the first bad character and
     *         the characters allowed
     */
    static std::string EncodeVserverId(const std::string& vserverName);

    /**
     * \brief Why a virtual server's name cannot go into the cookie name (what
     * EncodeVserverId would throw), for the configuration checks of COOKIEINSERT.
     * \param vserverName the name
     * \return "" when it can, else e.g. "has '@' at position 3; allowed: 1 to 127 letters,
     *         ..." (the bad character, its position and what is allowed)
     */
    static std::string VserverIdProblem(const std::string& vserverName);

    /**
     * \brief Undo EncodeVserverId (any bytes; letters shifted back, others unchanged).
     * \param id an ID
     * \return the name
     */
    static std::string DecodeVserverId(const std::string& id);

    /**
     * \brief The persistence cookie's name.
     * \param csVserver the CS vserver's name, or "" for an LB vserver reached directly
     * \param lbVserver the LB vserver's name
     * \return "NSC_" + EncodeVserverId(cs) + EncodeVserverId(lb)
     * \throws AdcConfigError on a bad name
     */
    static std::string EncodeName(const std::string& csVserver, const std::string& lbVserver);

    /**
     * \brief What the public decoder prints for a cookie name: the IDs after "NSC_", decoded.
     * \param cookieName a cookie name
     * \return the decoded vserver name(s), or nullopt when not "NSC_" + 1 or more characters
     */
    static std::optional<std::string> DecodeName(const std::string& cookieName);

    /**
     * \brief The LB vserver of a cookie name written for a known CS vserver.
     * \param cookieName a cookie name
     * \param csVserver the CS vserver's name ("" for an LB-only cookie)
     * \return the LB vserver's name, or nullopt when the name is not of that CS vserver or
     *         names no LB vserver
     */
    static std::optional<std::string> DecodeLbVserver(const std::string& cookieName,
                                                      const std::string& csVserver);

    /**
     * \param ip the service's IP
     * \param port the service's port
     * \return the cookie value (kValueLength lowercase hex digits)
     */
    static std::string EncodeValue(Ipv4Address ip, uint16_t port);

    /**
     * \brief Decode a cookie value (any bytes; never throws).
     * \param value the value
     * \return the service, or nullopt when the value is not of the form described above
     */
    static std::optional<Service> DecodeValue(const std::string& value);
};

} // namespace ns3

#endif /* ADC_HTTP_COOKIE_H */
