/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the HTTP/1.1 message head in its real wire format, and a parser that reassembles
 * HTTP messages from a TCP byte stream.
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
#include <deque>
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
 * - Content-Length must be decimal digits, at most 2^40; several Content-Length fields must all
 *   carry the same value.
 * Every complete line is validated as soon as it arrives, so a bad start line is reported
 * before the head is complete.
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

    /// \return the Content-Length value, 0 when absent or not a valid number
    uint64_t GetContentLength() const;
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
 * \brief Reassembles HTTP/1.x messages from a TCP byte stream delivered in arbitrary segments.
 *
 * Heads are parsed with AdcHttpMessage::Parse; bodies are framed by Content-Length (absent
 * means no body) and counted, not stored. Several messages in one segment (pipelining) and
 * heads split at any byte are handled. Transfer-Encoding is not supported (an error: the
 * models always send Content-Length). After an error the stream is poisoned: no further
 * message is returned and the owner should close the connection.
 */
class AdcHttpStreamParser
{
  public:
    AdcHttpStreamParser();

    /// \param p a received segment; its bytes are appended to the stream
    void Feed(Ptr<const Packet> p);

    /**
     * \param data received bytes (may be null when len is 0)
     * \param len number of bytes
     */
    void Feed(const uint8_t* data, std::size_t len);

    /**
     * \brief Pop the next complete message (head and its whole body received).
     * \param head [out, may be null] the head
     * \param bodyBytes [out, may be null] the body length
     * \return true when a message was returned
     */
    bool Next(AdcHttpMessage* head, uint64_t* bodyBytes);

    /**
     * \brief As Next(head, bodyBytes), also giving the head's exact length on the wire.
     * \param head [out, may be null] the head
     * \param bodyBytes [out, may be null] the body length
     * \param headBytes [out, may be null] the head's length as received
     * \return true when a message was returned
     */
    bool Next(AdcHttpMessage* head, uint64_t* bodyBytes, uint64_t* headBytes);

    /// \return true once the stream is malformed
    bool HasError() const;
    /// \return the reason of the error (empty when none)
    const std::string& GetError() const;

    /**
     * \brief Treat every following message as head-only (the replies to HEAD requests carry a
     * Content-Length but no body).
     * \param skip true to ignore Content-Length
     */
    void SetIgnoreBodies(bool skip);

    /// \return true while a message has been started but not completed (head or body pending)
    bool IsMidMessage() const;

    /// \return total bytes fed so far
    uint64_t GetBytesFed() const;

    /// Forget all state (buffered bytes, queued messages, error).
    void Reset();

  private:
    /// One completed message.
    struct Done
    {
        AdcHttpMessage head; //!< its head
        uint64_t headBytes;  //!< head length on the wire
        uint64_t bodyBytes;  //!< body length
    };

    /// Consume head bytes from [data, data+len); returns how many were used.
    std::size_t FeedHead(const uint8_t* data, std::size_t len);
    /// Queue the current message as complete.
    void Finish();
    /// Poison the stream with \p reason.
    void Fail(const std::string& reason);

    std::vector<uint8_t> m_headBuf; //!< bytes of the head being received
    bool m_inBody;                  //!< true while receiving a body
    AdcHttpMessage m_current;       //!< head of the message being received
    uint64_t m_currentHeadBytes;    //!< its head length
    uint64_t m_bodyTotal;           //!< its body length
    uint64_t m_bodyRemaining;       //!< body bytes still expected
    std::deque<Done> m_done;        //!< completed messages not yet popped
    bool m_ignoreBodies;            //!< see SetIgnoreBodies
    uint64_t m_fed;                 //!< total bytes fed
    std::string m_error;            //!< error reason; non-empty once poisoned
};

/**
 * \ingroup adc
 * \brief The IP address inside a socket address, as the HTTP applications log it.
 * \param a an InetSocketAddress, Inet6SocketAddress, Ipv4Address or Ipv6Address
 * \return the IP address, or the unset address for any other kind of address
 */
AdcIpAddress AdcHttpAddressToIp(const Address& a);

} // namespace ns3

#endif /* ADC_HTTP_MESSAGE_H */
