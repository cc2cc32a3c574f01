/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: cuts a TCP byte stream at HTTP message boundaries without changing a byte, for
 * proxies that relay what they received.
 */

#ifndef ADC_HTTP_CUTTER_H
#define ADC_HTTP_CUTTER_H

#include "ns3/adc-http-message.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Splits a byte stream into HTTP messages for a relay: each head as soon as it is
 * complete (parsed, so a proxy can rewrite it), the body bytes as received, and the end of
 * each message exactly where AdcHttpStreamParser ends it.
 *
 * Framing is the parser's alone (Content-Length, chunked, whatever it knows): the cutter
 * feeds it every byte and never reads a length header itself. To find where in a segment a
 * message ends, it feeds the segment to a copy of the parser first; only when a message ended
 * (or the stream broke) there does it look for the exact byte (the head and body lengths the
 * parser reports, checked, or a binary search on copies), so bytes after the end (a pipelined
 * request, or bytes a server sent past its response) start the next message and are never
 * relayed as part of this one.
 */
class AdcHttpCutter
{
  public:
    /// One piece of the stream, in order.
    struct Piece
    {
        /// What the piece is.
        enum Kind
        {
            HEAD, //!< a complete head: \c head parsed, \c bytes its wire bytes
            BODY, //!< body bytes as received (any framing included)
            END   //!< the message ended; \c head and \c bodyBytes as the parser reports them
        };

        Kind kind{BODY};       //!< what it is
        AdcHttpMessage head;   //!< HEAD, END: the head
        Ptr<Packet> bytes;     //!< HEAD, BODY: the bytes
        uint64_t bodyBytes{0}; //!< END: the body length the parser reports
        uint64_t wireBytes{0}; //!< END: every byte of the message, head included
    };

    AdcHttpCutter();

    /**
     * \brief Append a received segment; its pieces are queued (see Take). After an error
     * nothing more is taken.
     * \param p the segment
     */
    void Feed(Ptr<const Packet> p);

    /**
     * \brief The peer closed the connection (AdcHttpStreamParser::EndOfStream): a response
     * whose body is delimited by the close ends here (an END piece is queued); any other
     * message in progress is an error.
     * \return true when a message ended
     */
    bool EndOfStream();

    /// \return the pieces produced since the last call, in stream order
    std::deque<Piece> Take();

    /// \return true once the stream is malformed (GetError says why)
    bool HasError() const;
    /// \return the parser's reason (empty when none)
    const std::string& GetError() const;

    /// \return true while a message has begun but its head is not complete
    bool IsInHead() const;
    /// \return true while a message has begun and not ended
    bool IsMidMessage() const;

    /**
     * \brief Messages whose head starts after this call have no body whatever their headers
     * say (responses to HEAD). See AdcHttpStreamParser::SetIgnoreBodies.
     * \param skip true to ignore their bodies
     */
    void SetIgnoreBodies(bool skip);
    /// \return what SetIgnoreBodies set last
    bool GetIgnoreBodies() const;

    /// \return the memory held for a message in progress (head bytes buffered)
    std::size_t GetBufferedBytes() const;

  private:
    /**
     * \brief Feed the parser the bytes of [data, data+len) that belong to the current message.
     * \param data the bytes
     * \param len their number (> 0)
     * \param ended [out] the message ended within them
     * \return how many bytes were fed (all of them unless the message ended earlier)
     */
    std::size_t Cut(const uint8_t* data, std::size_t len, bool* ended);

    /**
     * \param data the bytes
     * \param k how many
     * \param ended [out] the first \p k bytes end the current message
     * \return true when they end it or break the stream (a monotone predicate in \p k)
     */
    bool Settles(const uint8_t* data, std::size_t k, bool* ended) const;

    /**
     * \brief Turn bytes of the current message into HEAD and BODY pieces.
     * \param p the segment they came in
     * \param data its bytes
     * \param off where they start in it
     * \param len their number
     */
    void Emit(Ptr<const Packet> p, const uint8_t* data, std::size_t off, std::size_t len);

    AdcHttpStreamParser m_parser; //!< the framing
    uint64_t m_fedInMessage;      //!< bytes of the current message fed so far
    bool m_headDone;              //!< the current message's HEAD piece went out
    bool m_ignoreBodies{false};   //!< as SetIgnoreBodies set it
    std::vector<uint8_t> m_head;  //!< its head bytes until then
    std::deque<Piece> m_pieces;   //!< produced, not taken
};

} // namespace ns3

#endif /* ADC_HTTP_CUTTER_H */
