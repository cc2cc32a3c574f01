/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: reassembles HTTP/1.1 messages (head and framed body) from a TCP byte stream, with
 * the message framing of RFC 9112 section 6 (Content-Length, chunked, close-delimited).
 */

#ifndef ADC_HTTP_STREAM_PARSER_H
#define ADC_HTTP_STREAM_PARSER_H

#include "adc-http-message.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Reassembles HTTP/1.x messages from a TCP byte stream delivered in arbitrary segments,
 * framing each body as RFC 9112 section 6 says.
 *
 * Heads are parsed with AdcHttpMessage::Parse. Bodies are counted, not stored. Several
 * messages in one segment (pipelining) and messages split at any byte are handled; the
 * messages, byte counts and errors never depend on how the stream was split.
 *
 * The body length follows the algorithm of RFC 9112 section 6.3, in its order
 * (DecideFraming):
 * 1. a response to HEAD, and any 1xx, 204 or 304 response, ends at its head whatever its
 *    fields say; the parser learns which request a response answers from ExpectResponseTo,
 *    called once per request sent (a queue, for pipelining; 1xx responses do not consume it);
 * 2. tunnels are refused (an error, see below);
 * 3. Transfer-Encoding together with Content-Length is an error (request smuggling), and so is
 *    Transfer-Encoding in an HTTP/1.0 message (section 6.1);
 * 4. Transfer-Encoding whose final coding is chunked: the chunked body of section 7.1 (hex
 *    chunk-size of at most kMaxChunkSizeDigits digits and 2^40, chunk extensions checked and
 *    ignored, last-chunk, trailer section of at most kMaxTrailerBytes and kMaxHeaders fields,
 *    kept in Message::trailers); chunked applied twice, or with parameters, is an error; a
 *    request whose final coding is not chunked is an error, a response whose final coding is
 *    not chunked is close-delimited;
 * 5.-6. Content-Length (identical values repeated count once; differing values are refused by
 *    the head parser): that many bytes;
 * 7. a request with neither has no body;
 * 8. a response with neither is close-delimited: its body ends when the owner calls
 *    EndOfStream() on the peer's close.
 *
 * Empty lines (CRLF) before a request line are skipped, as RFC 9112 section 2.2 lets a server
 * do, and counted in Message::skippedBytes; before a status line they are an error.
 *
 * Tunnels are refused explicitly, not modelled: a CONNECT request, a 101 (Switching Protocols)
 * response and a 2xx response to CONNECT are errors saying so. None of this module's models
 * relays opaque bytes after a head, and a parser that went on reading the tunnel's bytes as
 * HTTP would let them smuggle messages. A request with an Upgrade field is an ordinary request
 * (a server may ignore Upgrade, RFC 9110 section 7.8): it is never answered with 101 here.
 *
 * Strictness kept from the head parser: bare CR or LF (heads, chunk lines and trailers alike),
 * whitespace before a colon, obs-fold and conflicting lengths are errors. After an error the
 * stream is poisoned: no further message is returned and the owner should close the
 * connection.
 *
 * For each message the parser reports the head, the body's payload bytes (after transfer
 * decoding) and the body's wire bytes (chunk framing and trailers included), so a relay can
 * forward exact byte counts.
 */
class AdcHttpStreamParser
{
  public:
    /// How a message's body is delimited (RFC 9112 section 6.3).
    enum class Framing : uint8_t
    {
        NONE,            //!< no body (requests without length, HEAD/1xx/204/304 responses)
        CONTENT_LENGTH,  //!< Content-Length bytes
        CHUNKED,         //!< the chunked transfer coding, decoded
        CLOSE_DELIMITED, //!< a response body ended by the peer's close (EndOfStream)
        INVALID          //!< the framing cannot be determined: the message is an error
    };

    /// One complete message, as the stream carried it.
    struct Message
    {
        AdcHttpMessage head;       //!< the head
        uint64_t skippedBytes{0};  //!< empty lines skipped before the request line (sec. 2.2)
        uint64_t headBytes{0};     //!< the head's length as received (start line to empty line)
        uint64_t bodyBytes{0};     //!< payload: the content after transfer decoding
        uint64_t bodyWireBytes{0}; //!< the body as received (chunk lines, CRLFs, trailers)
        Framing framing{Framing::NONE};                            //!< how the body was framed
        uint64_t chunks{0};                                        //!< data chunks (not last)
        std::vector<std::pair<std::string, std::string>> trailers; //!< trailer fields
        std::string answers; //!< response: method of the request it answers ("" if not told)

        /// \return skippedBytes + headBytes + bodyWireBytes: every byte of the stream it used
        uint64_t GetWireBytes() const;
    };

    static constexpr std::size_t kMaxChunkSizeDigits = 16;  //!< hex digits of a chunk-size
    static constexpr std::size_t kMaxChunkLineBytes = 4096; //!< chunk-size line, CRLF included
    static constexpr std::size_t kMaxTrailerBytes = 16384;  //!< trailer section, CRLFs included

    AdcHttpStreamParser();

    /**
     * \brief The body framing of a message (RFC 9112 section 6.3, in its order).
     * \param head a message head
     * \param requestMethod for a response, the method of the request it answers ("" when
     *        unknown: treated as a request with a body-carrying response, e.g. GET)
     * \param contentLength [out, may be null] the length when CONTENT_LENGTH, else 0
     * \param error [out, may be null] why, when INVALID; cleared otherwise
     * \return the framing
     */
    static Framing DecideFraming(const AdcHttpMessage& head,
                                 const std::string& requestMethod,
                                 uint64_t* contentLength,
                                 std::string* error);

    /// \param f a framing \return its name, e.g. "CHUNKED"
    static const char* FramingName(Framing f);

    /**
     * \brief What a sender writes before chunk data (RFC 9112 section 7.1).
     * \param size the chunk's data size; 0 for the last chunk
     * \return "<size in hex> CRLF", or for 0 the last chunk and an empty trailer section,
     *         "0 CRLF CRLF"
     */
    static std::string ChunkHeader(uint64_t size);

    /**
     * \brief The length of a body sent in the chunked transfer coding with ChunkHeader:
     * chunks of \p chunkSize bytes (the last one shorter), the last chunk, no trailer fields.
     * \param payload body bytes
     * \param chunkSize data bytes per chunk (>= 1)
     * \return the chunked body's length on the wire
     */
    static uint64_t ChunkedLength(uint64_t payload, uint64_t chunkSize);

    /**
     * \brief Check a parameter list `*( BWS ";" BWS name [ BWS "=" BWS ( token /
     * quoted-string ) ] )`: the chunk extensions of RFC 9112 section 7.1.1 (value optional)
     * and the transfer-parameters of section 7 (value required). Their meaning is ignored;
     * their syntax is not, since a field that two parsers split differently is how bodies get
     * smuggled.
     * \param p the characters after the chunk-size or coding name
     * \param n their number
     * \param valueRequired true for transfer-parameters
     * \return an error text, or "" when valid
     */
    static std::string CheckParameters(const char* p, std::size_t n, bool valueRequired);

    /// \param p a received segment; its bytes are appended to the stream
    void Feed(Ptr<const Packet> p);

    /**
     * \param data received bytes (may be null when len is 0)
     * \param len number of bytes
     */
    void Feed(const uint8_t* data, std::size_t len);

    /**
     * \brief The peer closed the connection: a close-delimited body is complete; any other
     * message still incomplete is an error (RFC 9112 section 6.3 item 6: "the recipient MUST
     * consider the message to be incomplete"). Bytes fed afterwards are an error.
     */
    void EndOfStream();

    /**
     * \brief The next response answers a request with \p method (call once per request sent,
     * in order). HEAD makes it bodiless, CONNECT makes a 2xx answer a refused tunnel.
     * \param method the request method
     */
    void ExpectResponseTo(const std::string& method);

    /// \return requests announced by ExpectResponseTo whose final response has not arrived
    std::size_t GetExpectedResponses() const;

    /**
     * \brief Pop the next complete message.
     * \param message [out, may be null] the message
     * \return true when a message was returned
     */
    bool Next(Message* message);

    /**
     * \brief Pop the next complete message (head and whole body received).
     * \param head [out, may be null] the head
     * \param bodyBytes [out, may be null] the body length: the payload, after transfer decoding
     * \return true when a message was returned
     */
    bool Next(AdcHttpMessage* head, uint64_t* bodyBytes);

    /**
     * \brief As Next(head, bodyBytes), also giving the head's exact length on the wire.
     * \param head [out, may be null] the head
     * \param bodyBytes [out, may be null] the body length: the payload, after transfer decoding
     * \param headBytes [out, may be null] the head's length as received
     * \return true when a message was returned
     */
    bool Next(AdcHttpMessage* head, uint64_t* bodyBytes, uint64_t* headBytes);

    /// \return true once the stream is malformed
    bool HasError() const;
    /// \return the reason of the error (empty when none)
    const std::string& GetError() const;

    /**
     * \brief Treat every following message as head-only, as if each answered a HEAD request
     * (for owners that do not call ExpectResponseTo).
     * \param skip true to ignore Content-Length and Transfer-Encoding
     */
    void SetIgnoreBodies(bool skip);

    /// \return true while a message has been started but not completed (head or body pending,
    ///         a close-delimited body included)
    bool IsMidMessage() const;

    /// \return the framing of the body being received (NONE between messages)
    Framing GetCurrentFraming() const;

    /// \return true after EndOfStream()
    bool IsEndOfStream() const;

    /// \return total bytes fed so far
    uint64_t GetBytesFed() const;

    /// Forget all state (buffered bytes, queued messages and expected responses, error, end of
    /// stream); the byte count and SetIgnoreBodies stay.
    void Reset();

  private:
    /// Where the parser is in the current message.
    enum class State : uint8_t
    {
        HEAD,        //!< receiving a head (or between messages)
        BODY,        //!< Content-Length body bytes
        CHUNK_LINE,  //!< a chunk-size line
        CHUNK_DATA,  //!< chunk data
        CHUNK_CRLF,  //!< the CRLF after chunk data
        TRAILER,     //!< trailer lines, up to the empty line
        UNTIL_CLOSE, //!< a close-delimited body
    };

    /// Consume head bytes from [data, data+len); returns how many were used.
    std::size_t FeedHead(const uint8_t* data, std::size_t len);
    /// The head of m_msg is complete: choose its framing and the next state.
    void StartBody();
    /// Consume chunk-size or trailer line bytes; returns how many were used.
    std::size_t FeedLine(const uint8_t* data, std::size_t len);
    /// A chunk-size line [without CRLF] is complete.
    void ChunkLine(const std::string& line);
    /// A trailer line [without CRLF] is complete (empty: the end of the message).
    void TrailerLine(const std::string& line);
    /// Queue the current message as complete.
    void Complete();
    /// Poison the stream with \p reason.
    void Fail(const std::string& reason);
    /// Forget the message being received (buffers, state, counts).
    void ClearMessage();

    State m_state;                      //!< where the current message is
    std::vector<uint8_t> m_headBuf;     //!< bytes of the head being received
    std::string m_line;                 //!< bytes of the chunk or trailer line being received
    Message m_msg;                      //!< the message being received
    uint64_t m_left;                    //!< Content-Length, chunk data or CRLF bytes to come
    uint64_t m_skipped;                 //!< empty lines skipped before the current head
    std::size_t m_trailerBytes;         //!< trailer section bytes received so far
    std::deque<Message> m_done;         //!< completed messages not yet popped
    std::deque<std::string> m_expected; //!< methods of requests still to be answered
    bool m_ignoreBodies;                //!< see SetIgnoreBodies
    bool m_endOfStream;                 //!< EndOfStream was called
    uint64_t m_fed;                     //!< total bytes fed
    std::string m_error;                //!< error reason; non-empty once poisoned
};

} // namespace ns3

#endif /* ADC_HTTP_STREAM_PARSER_H */
