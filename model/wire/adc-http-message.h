/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the HTTP/1.1 message head in its real wire format. The parser that reassembles
 * whole messages (heads and framed bodies) from a TCP byte stream, AdcHttpStreamParser, is in
 * adc-http-stream-parser.h, included at the end of this header.
 */

#ifndef ADC_HTTP_MESSAGE_H
#define ADC_HTTP_MESSAGE_H

#include "ns3/adc-flow-key.h"
#include "ns3/address.h"
#include "ns3/header.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An HTTP/1.x message head (start line and header fields), serialized as the exact
 * HTTP/1.1 wire bytes so that pcaps decode as HTTP.
 *
 * Only the head is a Header; body bytes follow it in the byte stream (applications send them
 * as plain payload). Header names keep their case on the wire; lookups are case-insensitive.
 *
 * Parsing rules (Parse, Deserialize):
 * - lines end with CRLF only; a bare LF or a CR not followed by LF is an ERROR (strict, like
 *   a hardened proxy: tolerating bare LF is a known request-smuggling vector);
 * - request line `METHOD SP target SP HTTP/1.d`, status line `HTTP/1.d SP 3DIGIT [SP reason]`;
 * - header lines `name ":" OWS value OWS`; name is an RFC 9110 token (no whitespace before the
 *   colon), value has no control characters except HTAB; obsolete line folding is an ERROR;
 * - the head ends at the first empty line; limits: head at most kMaxHeadBytes bytes (including
 *   the final CRLF CRLF), at most kMaxHeaders header fields;
 * - Content-Length must be decimal digits, at most 2^40. Several Content-Length fields, or one
 *   field holding a comma-separated list, are accepted only when every value is the same
 *   number (RFC 9112 section 6.3 item 5: "unless the field value can be successfully parsed as
 *   a comma-separated list ..., all values in the list are valid, and all values in the list
 *   are the same"); differing values are an ERROR (a request-smuggling vector).
 * Every complete line is validated as soon as it arrives, so a bad start line is reported
 * before the head is complete. The body's framing (Content-Length, chunked, close-delimited,
 * none) is decided by AdcHttpStreamParser::DecideFraming, not here: it depends on the request
 * a response answers.
 */
class AdcHttpMessage : public Header
{
  public:
    /// Message kind.
    enum Kind : uint8_t
    {
        REQUEST, //!< a request (start line is a request line)
        RESPONSE //!< a response (start line is a status line)
    };

    /// Result of Parse.
    enum class ParseStatus
    {
        COMPLETE,   //!< a full head was parsed; *consumed is its length
        INCOMPLETE, //!< more bytes are needed; nothing wrong so far
        ERROR       //!< the bytes are not a valid head; *error says why
    };

    static constexpr std::size_t kMaxHeadBytes = 16384;         //!< head size limit
    static constexpr std::size_t kMaxHeaders = 100;             //!< header count limit
    static constexpr uint64_t kMaxContentLength = (1ULL << 40); //!< Content-Length limit

    /// \return the TypeId
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// An empty request ("GET / HTTP/1.1" with no headers).
    AdcHttpMessage();

    /**
     * \brief A request with version "HTTP/1.1" and no headers.
     * \param method the method token, e.g. "GET"
     * \param target the request target, e.g. "/obj/1"
     * \return the request
     */
    static AdcHttpMessage MakeRequest(const std::string& method, const std::string& target);

    /**
     * \brief A response with version "HTTP/1.1" and no headers.
     * \param status the status code (100..599)
     * \param reason the reason phrase, e.g. "OK"
     * \return the response
     */
    static AdcHttpMessage MakeResponse(uint16_t status, const std::string& reason);

    /// \return REQUEST or RESPONSE
    Kind GetKind() const;
    /// \return the method (requests; empty for responses)
    const std::string& GetMethod() const;
    /// \return the request target (requests; empty for responses)
    const std::string& GetTarget() const;
    /// \return the status code (responses; 0 for requests)
    uint16_t GetStatus() const;
    /**
     * \brief Whether a status never comes with a body: 1xx, 204 and 304 (RFC 9112 section 6.3
     * item 1: such a response "is always terminated by the first empty line after the header
     * fields ... and thus cannot contain a message body").
     * \param status a status code
     * \return true for 1xx, 204 and 304
     */
    static bool IsBodilessStatus(uint16_t status);
    /// \return the reason phrase (responses; empty for requests)
    const std::string& GetReason() const;
    /// \return the version, e.g. "HTTP/1.1"
    const std::string& GetVersion() const;
    /// \param version the version string written on the wire, e.g. "HTTP/1.0"
    void SetVersion(const std::string& version);
    /// \param target the new request target (rewriting appliances use it)
    void SetTarget(const std::string& target);

    /**
     * \brief Set a header, replacing every existing field of that name (case-insensitive).
     * The replaced field keeps the position of the first old one; a new field is appended.
     * \param name field name
     * \param value field value
     */
    void SetHeader(const std::string& name, const std::string& value);

    /**
     * \brief Append a header field (for repeatable headers such as Set-Cookie).
     * \param name field name
     * \param value field value
     */
    void AddHeader(const std::string& name, const std::string& value);

    /**
     * \param name field name (case-insensitive)
     * \return the first value of that field, or nullopt when absent
     */
    std::optional<std::string> GetHeader(const std::string& name) const;

    /**
     * \param name field name (case-insensitive)
     * \return every value of that field, in wire order
     */
    std::vector<std::string> GetHeaders(const std::string& name) const;

    /**
     * \param name field name (case-insensitive)
     * \return true when at least one field was removed
     */
    bool RemoveHeader(const std::string& name);

    /// \return all header fields, in wire order
    const std::vector<std::pair<std::string, std::string>>& GetHeaderList() const;

    /// \return the Content-Length value (a list of identical values counts as that value), 0
    ///         when absent or not valid
    uint64_t GetContentLength() const;

    /**
     * \brief Check the Content-Length fields, taken together as one list (RFC 9112 section 6.3
     * item 5: valid only when every value is a valid number and all are the same).
     * \param length [out] the value when valid, 0 when absent or not valid
     * \return "" when absent or valid, otherwise why the value is not valid
     */
    std::string CheckContentLength(uint64_t* length) const;
    /// \param n the body length, written as the Content-Length header
    void SetContentLength(uint64_t n);

    /**
     * \brief Whether the connection stays open after this message (HTTP/1.1 default: yes,
     * unless "Connection: close"; HTTP/1.0: only with "Connection: keep-alive").
     * \return true when persistent
     */
    bool IsKeepAlive() const;

    /// \return start line + header lines + CRLF CRLF (the head only; body bytes follow)
    std::string ToWireString() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Parse a head from the buffer.
     * \param start where the head begins
     * \return the head length, or 0 on a malformed or incomplete head
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * \brief Parse a head from raw bytes. Never reads past \p len, never throws.
     * On COMPLETE this message is replaced by the parsed head; otherwise it is unchanged.
     * \param data the bytes (may be null when len is 0)
     * \param len number of bytes available
     * \param consumed [out, may be null] head length on COMPLETE, 0 otherwise
     * \param error [out, may be null] the reason on ERROR, cleared otherwise
     * \return COMPLETE, INCOMPLETE or ERROR
     */
    ParseStatus Parse(const uint8_t* data,
                      std::size_t len,
                      std::size_t* consumed,
                      std::string* error);

    /**
     * \brief Validate one field line, `name ":" OWS value OWS` without its CRLF (RFC 9112
     * section 5): the rules of header lines, shared by the trailer lines of chunked bodies.
     * \param p the line (an empty one is an error)
     * \param n its length
     * \param name [out] the field name, as on the wire
     * \param value [out] the value without surrounding OWS
     * \return an error text, or "" when valid
     */
    static std::string ParseFieldLine(const char* p,
                                      std::size_t n,
                                      std::string* name,
                                      std::string* value);

    /**
     * \param p characters
     * \param n their number
     * \return true when [p, p+n) is a non-empty RFC 9110 token
     */
    static bool IsToken(const char* p, std::size_t n);

    /**
     * \brief The elements of a comma-separated list field value (RFC 9110 section 5.6.1):
     * split at every comma, each trimmed of spaces and tabs, empty elements dropped.
     * \param value a field value, or several field values joined with ","
     * \return the non-empty elements in order
     */
    static std::vector<std::string> SplitList(const std::string& value);

  private:
    /// Parse the start line [p, p+n) into this message; returns an error text or "".
    std::string ParseStartLine(const char* p, std::size_t n);
    /// Validate a header line [p, p+n) and append it; returns an error text or "".
    std::string ParseHeaderLine(const char* p, std::size_t n);

    Kind m_kind;                                                //!< request or response
    std::string m_method;                                       //!< request method
    std::string m_target;                                       //!< request target
    uint16_t m_status;                                          //!< response status
    std::string m_reason;                                       //!< response reason phrase
    std::string m_version;                                      //!< "HTTP/1.x"
    std::vector<std::pair<std::string, std::string>> m_headers; //!< fields in wire order
};

/**
 * \ingroup adc
 * \brief The list elements of every field \p name of \p m, in wire order, each trimmed of
 * spaces and tabs, joined with ", "; empty elements are skipped (RFC 9110 section 5.6.1). This
 * is the combined field value of RFC 9110 section 5.3 in a canonical spacing, e.g. the whole Via
 * chain of a message that passed several proxies. Elements are split at every comma (commas
 * inside Via comments are not special-cased).
 * \param m a message head
 * \param name the field name (case-insensitive)
 * \return the combined value, empty when there is no non-empty field
 */
std::string AdcHttpJoinedField(const AdcHttpMessage& m, const std::string& name);

/**
 * \ingroup adc
 * \brief The IP address inside a socket address, as the HTTP applications log it.
 * \param a an InetSocketAddress, Inet6SocketAddress, Ipv4Address or Ipv6Address
 * \return the IP address, or the unset address for any other kind of address
 */
AdcIpAddress AdcHttpAddressToIp(const Address& a);

} // namespace ns3

// The stream parser used to live in this header: code that includes only this one keeps
// compiling.
#include "adc-http-stream-parser.h"

#endif /* ADC_HTTP_MESSAGE_H */
