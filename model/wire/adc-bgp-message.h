/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc SLB wire format: BGP-4 messages (RFC 4271) with the multiprotocol (RFC 4760),
 * capabilities (RFC 5492) and 4-octet AS (RFC 6793) extensions, sans-IO: the routers and MUXes
 * of the SLB send and receive these bytes over ns-3 TCP port 179, so pcaps decode as BGP in
 * Wireshark.
 */

#ifndef ADC_BGP_MESSAGE_H
#define ADC_BGP_MESSAGE_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An IPv4 prefix as BGP carries it in withdrawn routes and NLRI (RFC 4271 section 4.3):
 * a length in bits (0..32), then the minimal number of bytes holding it.
 *
 * Parsing clears the bits past the length (RFC 4271: "the value of trailing bits is
 * irrelevant"); building refuses a prefix whose host bits are set.
 */
struct AdcBgpIpv4Prefix
{
    Ipv4Address address; //!< the network address (host bits zero)
    uint8_t length{32};  //!< prefix length in bits, 0..32

    /// \return e.g. "10.0.0.1/32"
    std::string ToString() const;
    /// \param other a prefix \return true when address and length are equal
    bool operator==(const AdcBgpIpv4Prefix& other) const;
};

/**
 * \ingroup adc
 * \brief An IPv6 prefix as MP_REACH_NLRI / MP_UNREACH_NLRI carry it (RFC 4760 section 5):
 * length in bits (0..128), then the minimal number of bytes.
 */
struct AdcBgpIpv6Prefix
{
    Ipv6Address address; //!< the network address (host bits zero)
    uint8_t length{128}; //!< prefix length in bits, 0..128

    /// \return e.g. "2001:db8::1/128"
    std::string ToString() const;
    /// \param other a prefix \return true when address and length are equal
    bool operator==(const AdcBgpIpv6Prefix& other) const;
};

/**
 * \ingroup adc
 * \brief One capability of an OPEN message (RFC 5492 section 4): code, length (1 byte),
 * value. Unknown capabilities are kept raw.
 */
struct AdcBgpCapability
{
    static constexpr uint8_t kMultiprotocol = 1;  //!< Multiprotocol Extensions (RFC 4760)
    static constexpr uint8_t kFourOctetAs = 65;   //!< Support for 4-octet AS numbers (RFC 6793)
    static constexpr std::size_t kMaxValue = 253; //!< a value fits one parameter (255 - 2)

    uint8_t code{0};            //!< capability code
    std::vector<uint8_t> value; //!< capability value

    /**
     * \param afi address family (1 IPv4, 2 IPv6) \param safi subsequent family (1 unicast)
     * \return the multiprotocol capability: AFI (2 bytes), reserved (0), SAFI (RFC 4760 8)
     */
    static AdcBgpCapability Multiprotocol(uint16_t afi, uint8_t safi);
    /// \param as the speaker's AS number \return the 4-octet AS capability (RFC 6793 section 3)
    static AdcBgpCapability FourOctetAs(uint32_t as);
    /// \param code a capability code \return its name ("Multiprotocol Extensions"), or
    /// "Unknown"
    static std::string Name(uint8_t code);
    /// \param other a capability \return true when code and value are equal
    bool operator==(const AdcBgpCapability& other) const;
};

/**
 * \ingroup adc
 * \brief The body of an OPEN message (RFC 4271 section 4.2).
 *
 * Layout after the header: version (1), my AS (2), hold time (2), BGP identifier (4), optional
 * parameters length (1), optional parameters. The only optional parameter type is 2,
 * capabilities (RFC 5492); Serialize packs the capabilities into as few type-2 parameters as
 * fit 255 bytes each, and Parse accepts them spread over any number of parameters.
 */
struct AdcBgpOpen
{
    static constexpr uint8_t kVersion = 4;               //!< BGP-4
    static constexpr uint16_t kAsTrans = 23456;          //!< AS_TRANS (RFC 6793 section 9)
    static constexpr uint16_t kDefaultHoldTime = 90;     //!< suggested default (RFC 4271 10)
    static constexpr uint8_t kCapabilitiesParameter = 2; //!< optional parameter type (RFC 5492)

    uint8_t version{kVersion};                  //!< protocol version (must be 4)
    uint16_t myAs{0};                           //!< the sender's AS, or AS_TRANS (1..65535)
    uint16_t holdTime{kDefaultHoldTime};        //!< seconds: 0 or at least 3
    Ipv4Address bgpIdentifier;                  //!< the sender's BGP identifier (not 0.0.0.0)
    std::vector<AdcBgpCapability> capabilities; //!< capabilities, in order

    /**
     * \brief An OPEN advertising the 4-octet AS capability and one multiprotocol capability
     * per address family: my AS is \p as when it fits 16 bits, AS_TRANS otherwise.
     * \param as the speaker's AS (1..4294967295)
     * \param holdTime seconds (0 or >= 3)
     * \param bgpIdentifier identifier (not 0.0.0.0)
     * \param ipv4 announce AFI 1 SAFI 1 \param ipv6 announce AFI 2 SAFI 1
     * \return the OPEN
     * \throws AdcConfigError when \p as is 0, or the hold time is 1 or 2
     */
    static AdcBgpOpen Make(uint32_t as,
                           uint16_t holdTime,
                           Ipv4Address bgpIdentifier,
                           bool ipv4 = true,
                           bool ipv6 = true);

    /// \return the AS of the 4-octet AS capability, if present and well formed
    std::optional<uint32_t> GetFourOctetAs() const;
    /// \return the peer's AS: the 4-octet AS capability's when present, else my AS
    uint32_t GetPeerAs() const;
    /// \param afi \param safi \return true when a multiprotocol capability names them
    bool HasMultiprotocol(uint16_t afi, uint8_t safi) const;
    /// \param other an OPEN \return true when every field is equal
    bool operator==(const AdcBgpOpen& other) const;
};

/**
 * \ingroup adc
 * \brief One AS_PATH segment (RFC 4271 section 4.3, path attribute type 2): type, number of
 * ASes (1..255), the ASes (2 bytes each, or 4 when the session negotiated 4-octet ASes).
 */
struct AdcBgpAsPathSegment
{
    static constexpr uint8_t kAsSet = 1;      //!< AS_SET: unordered
    static constexpr uint8_t kAsSequence = 2; //!< AS_SEQUENCE: ordered

    uint8_t type{kAsSequence};  //!< AS_SET or AS_SEQUENCE
    std::vector<uint32_t> ases; //!< the AS numbers, 1..255 of them

    /// \param other a segment \return true when type and ASes are equal
    bool operator==(const AdcBgpAsPathSegment& other) const;
};

/**
 * \ingroup adc
 * \brief A path attribute this model does not interpret (RFC 4271 section 4.3), kept raw.
 *
 * Only optional attributes can be unknown (an unknown well-known attribute is an error,
 * 3/2). The flags are kept without the extended-length bit (0x10) and the four unused low
 * bits: Serialize sets extended length when the value exceeds 255 bytes.
 */
struct AdcBgpRawAttribute
{
    uint8_t flags{0xc0};        //!< optional (0x80), transitive (0x40), partial (0x20)
    uint8_t type{0};            //!< attribute type code
    std::vector<uint8_t> value; //!< attribute value

    /// \param other an attribute \return true when flags, type and value are equal
    bool operator==(const AdcBgpRawAttribute& other) const;
};

/**
 * \ingroup adc
 * \brief MP_REACH_NLRI (RFC 4760 section 3) for AFI 2 (IPv6), SAFI 1 (unicast): next hop (16
 * bytes global, or 32: global then link-local), a reserved byte, IPv6 prefixes. Other AFI/SAFI
 * pairs are kept as raw attributes.
 */
struct AdcBgpMpReach
{
    Ipv6Address nextHop;                  //!< global next hop
    std::optional<Ipv6Address> linkLocal; //!< link-local next hop (next hop length 32)
    std::vector<AdcBgpIpv6Prefix> nlri;   //!< the reachable prefixes
    /// \param other \return true when every field is equal
    bool operator==(const AdcBgpMpReach& other) const;
};

/**
 * \ingroup adc
 * \brief A BGP UPDATE (RFC 4271 section 4.3): withdrawn IPv4 routes, path attributes, IPv4
 * NLRI.
 *
 * Known attributes are typed; Serialize writes them in type-code order with the flags RFC 4271
 * and RFC 4760 give them (ORIGIN, AS_PATH, NEXT_HOP, LOCAL_PREF, ATOMIC_AGGREGATE well-known
 * transitive; MULTI_EXIT_DISC, MP_REACH_NLRI, MP_UNREACH_NLRI optional non-transitive), then
 * the raw ones in their order. Parse accepts any order and checks each known attribute's
 * flags.
 */
struct AdcBgpUpdate
{
    /// Path attribute type codes.
    enum AttributeType : uint8_t
    {
        ORIGIN = 1,           //!< ORIGIN (well-known mandatory)
        AS_PATH = 2,          //!< AS_PATH (well-known mandatory)
        NEXT_HOP = 3,         //!< NEXT_HOP (well-known mandatory for IPv4 NLRI)
        MULTI_EXIT_DISC = 4,  //!< MULTI_EXIT_DISC (optional non-transitive)
        LOCAL_PREF = 5,       //!< LOCAL_PREF (well-known)
        ATOMIC_AGGREGATE = 6, //!< ATOMIC_AGGREGATE (well-known discretionary, empty)
        MP_REACH_NLRI = 14,   //!< MP_REACH_NLRI (RFC 4760)
        MP_UNREACH_NLRI = 15  //!< MP_UNREACH_NLRI (RFC 4760)
    };

    /// ORIGIN values.
    enum Origin : uint8_t
    {
        IGP = 0,       //!< IGP
        EGP = 1,       //!< EGP
        INCOMPLETE = 2 //!< INCOMPLETE
    };

    std::vector<AdcBgpIpv4Prefix> withdrawn;                //!< withdrawn IPv4 routes
    std::optional<uint8_t> origin;                          //!< ORIGIN (0..2)
    std::optional<std::vector<AdcBgpAsPathSegment>> asPath; //!< AS_PATH (may be empty: iBGP)
    std::optional<Ipv4Address> nextHop;                     //!< NEXT_HOP
    std::optional<uint32_t> med;                            //!< MULTI_EXIT_DISC
    std::optional<uint32_t> localPref;                      //!< LOCAL_PREF
    bool atomicAggregate{false};                            //!< ATOMIC_AGGREGATE present
    std::optional<AdcBgpMpReach> mpReach;                   //!< MP_REACH_NLRI, AFI 2 SAFI 1
    std::optional<std::vector<AdcBgpIpv6Prefix>> mpUnreach; //!< MP_UNREACH_NLRI, AFI 2 SAFI 1
    std::vector<AdcBgpRawAttribute> otherAttributes;        //!< attributes not interpreted here
    std::vector<AdcBgpIpv4Prefix> nlri;                     //!< reachable IPv4 prefixes

    /**
     * \brief Announce IPv4 prefixes with ORIGIN IGP, AS_PATH one AS_SEQUENCE, NEXT_HOP.
     * \param prefixes the routes (e.g. a VIP as /32) \param path ASes, nearest first (empty:
     * an empty AS_PATH, as inside one AS) \param nextHop the next hop \return the UPDATE
     */
    static AdcBgpUpdate Announce(const std::vector<AdcBgpIpv4Prefix>& prefixes,
                                 const std::vector<uint32_t>& path,
                                 Ipv4Address nextHop);
    /**
     * \brief Announce IPv6 prefixes in MP_REACH_NLRI with ORIGIN IGP and AS_PATH.
     * \param prefixes the routes \param path ASes \param nextHop global next hop
     * \return the UPDATE
     */
    static AdcBgpUpdate Announce6(const std::vector<AdcBgpIpv6Prefix>& prefixes,
                                  const std::vector<uint32_t>& path,
                                  Ipv6Address nextHop);
    /// \param prefixes routes to withdraw \return an UPDATE withdrawing them
    static AdcBgpUpdate Withdraw(const std::vector<AdcBgpIpv4Prefix>& prefixes);
    /// \param prefixes routes to withdraw \return an UPDATE with MP_UNREACH_NLRI for them
    static AdcBgpUpdate Withdraw6(const std::vector<AdcBgpIpv6Prefix>& prefixes);

    /// \param type an attribute type code \return its name ("AS_PATH"), or "Unknown"
    static std::string AttributeName(uint8_t type);
    /// \param other an UPDATE \return true when every field is equal
    bool operator==(const AdcBgpUpdate& other) const;
};

/**
 * \ingroup adc
 * \brief A NOTIFICATION (RFC 4271 section 4.5): error code, subcode, data.
 */
struct AdcBgpNotification
{
    /// Error codes (RFC 4271 section 4.5).
    enum Code : uint8_t
    {
        MESSAGE_HEADER_ERROR = 1, //!< Message Header Error
        OPEN_MESSAGE_ERROR = 2,   //!< OPEN Message Error
        UPDATE_MESSAGE_ERROR = 3, //!< UPDATE Message Error
        HOLD_TIMER_EXPIRED = 4,   //!< Hold Timer Expired
        FSM_ERROR = 5,            //!< Finite State Machine Error
        CEASE = 6                 //!< Cease
    };

    uint8_t code{CEASE};       //!< error code
    uint8_t subcode{0};        //!< error subcode (0: unspecific)
    std::vector<uint8_t> data; //!< data (meaning depends on code and subcode)

    /// \param code an error code \return its name ("UPDATE Message Error"), or "Unknown"
    static std::string CodeName(uint8_t code);
    /**
     * \param code an error code \param subcode a subcode
     * \return the subcode's name ("Malformed Attribute List"; "Unspecific" for 0), or
     * "Unknown"
     */
    static std::string SubcodeName(uint8_t code, uint8_t subcode);
    /// \param other a NOTIFICATION \return true when every field is equal
    bool operator==(const AdcBgpNotification& other) const;
};

/**
 * \ingroup adc
 * \brief Why bytes are not a valid BGP message, as the NOTIFICATION the receiver must send
 * (RFC 4271 section 6) and a text naming the byte offset and what was expected.
 */
struct AdcBgpError
{
    uint8_t code{0};           //!< NOTIFICATION error code
    uint8_t subcode{0};        //!< NOTIFICATION error subcode
    std::vector<uint8_t> data; //!< NOTIFICATION data (RFC 4271 section 6 says what)
    std::size_t offset{0};     //!< byte offset in the message (or stream, for the framer)
    std::string what;          //!< what was found and what was expected

    /// \return the NOTIFICATION to send
    AdcBgpNotification ToNotification() const;
    /// \return e.g. "BGP error 3/10 (UPDATE Message Error / Invalid Network Field) at byte 23:
    ///         ..."
    std::string ToString() const;
};

struct AdcBgpParseResult;

/**
 * \ingroup adc
 * \brief One BGP message: the 19-byte header (RFC 4271 section 4.1: 16-byte marker of all
 * ones, length 19..4096, type) and the body of its type.
 *
 * Only the member matching \p type is meaningful (KEEPALIVE has no body). Serialize throws
 * AdcConfigError for values that must not go on the wire (naming the field, the value and what
 * is allowed); Parse never throws for any input and reports errors as AdcBgpError.
 *
 * AS numbers in AS_PATH are 2 or 4 bytes depending on what the session negotiated (RFC 6793):
 * the caller says which with \p fourOctetAs.
 */
struct AdcBgpMessage
{
    /// Message types (RFC 4271 section 4.1).
    enum Type : uint8_t
    {
        OPEN = 1,         //!< OPEN
        UPDATE = 2,       //!< UPDATE
        NOTIFICATION = 3, //!< NOTIFICATION
        KEEPALIVE = 4     //!< KEEPALIVE
    };

    static constexpr std::size_t kHeaderBytes = 19;  //!< marker, length, type
    static constexpr std::size_t kMarkerBytes = 16;  //!< all-ones marker
    static constexpr std::size_t kMaxMessage = 4096; //!< largest message (RFC 4271 4.1)
    static constexpr uint16_t kPort = 179;           //!< TCP port (RFC 4271 section 8.2.1)

    uint8_t type{KEEPALIVE};         //!< message type
    AdcBgpOpen open;                 //!< the body when type is OPEN
    AdcBgpUpdate update;             //!< the body when type is UPDATE
    AdcBgpNotification notification; //!< the body when type is NOTIFICATION

    /// \return a KEEPALIVE
    static AdcBgpMessage Keepalive();
    /// \param o the body \return an OPEN message
    static AdcBgpMessage Open(const AdcBgpOpen& o);
    /// \param u the body \return an UPDATE message
    static AdcBgpMessage Update(const AdcBgpUpdate& u);
    /// \param n the body \return a NOTIFICATION message
    static AdcBgpMessage Notification(const AdcBgpNotification& n);

    /**
     * \brief The message on the wire.
     * \param fourOctetAs write AS_PATH ASes as 4 bytes (the session negotiated RFC 6793)
     * \return header and body
     * \throws AdcConfigError naming the field, value and what is allowed: an unknown type; an
     *         OPEN with version other than 4, my AS 0, hold time 1 or 2, identifier 0.0.0.0, a
     *         capability value above 253 bytes, parameters above 255 bytes; an UPDATE with a
     *         prefix longer than its family or with host bits set, ORIGIN above 2, an AS_PATH
     *         segment of another type or with 0 or more than 255 ASes, an AS above 65535
     *         without \p fourOctetAs, a NEXT_HOP that is not unicast, a raw attribute that is
     *         not optional, is typed here (1..6; 14 and 15 for AFI 2 SAFI 1) or duplicates
     *         another, a value above 65535 bytes; any message above 4096 bytes
     */
    std::vector<uint8_t> Serialize(bool fourOctetAs) const;

    /**
     * \brief Parse one whole message.
     *
     * Errors (RFC 4271 section 6): header 1/1, 1/2, 1/3 (CheckHeader; 1/2 also when the
     * length field differs from \p size). OPEN: version not 4 2/1 (data 00 04), my AS 0 2/2,
     * identifier 0.0.0.0 2/3, a parameter other than capabilities 2/4, hold time 1 or 2 2/6,
     * parameter or capability lengths inconsistent (or a multiprotocol / 4-octet AS capability
     * not 4 bytes) 2/0. UPDATE: lengths past the end or an attribute twice 3/1, an unknown
     * well-known attribute 3/2, NLRI (or MP_REACH_NLRI) without ORIGIN, AS_PATH (or NEXT_HOP,
     * for IPv4 NLRI) 3/3 (data the missing type), flags wrong for a known attribute 3/4, a
     * fixed-size attribute of another length 3/5, ORIGIN above 2 3/6, NEXT_HOP not unicast
     * 3/8, a malformed MP_REACH_NLRI / MP_UNREACH_NLRI 3/9, a bad IPv4 prefix 3/10, a
     * malformed AS_PATH 3/11; data the erroneous attribute for 3/2, 3/4 to 3/9. NOTIFICATION
     * bodies are taken as they are.
     * \param data the bytes: exactly one message
     * \param size their number
     * \param fourOctetAs AS_PATH ASes are 4 bytes
     * \return the message, or the error with its NOTIFICATION code, subcode and data
     */
    static AdcBgpParseResult Parse(const uint8_t* data, std::size_t size, bool fourOctetAs);
    /// \overload \param bytes the message \param fourOctetAs \return the result
    static AdcBgpParseResult Parse(const std::vector<uint8_t>& bytes, bool fourOctetAs);

    /**
     * \brief Check a header (RFC 4271 section 6.1): marker all ones (else 1/1), length
     * 19..4096 (else 1/2, data the length field), type 1..4 (else 1/3, data the type), length
     * fitting the type (OPEN >= 29, UPDATE >= 23, NOTIFICATION >= 21, KEEPALIVE 19; else 1/2).
     * \param header at least kHeaderBytes bytes
     * \return the error, or nullopt when the header is good
     */
    static std::optional<AdcBgpError> CheckHeader(const uint8_t* header);

    /// \param type a message type \return its name ("UPDATE"), or "Unknown"
    static std::string TypeName(uint8_t type);
    /// \return a one-line summary for traces, e.g. "UPDATE nlri=10.0.0.1/32 ..."
    std::string ToString() const;
    /// \param other a message \return true when the types and the bodies of that type are equal
    bool operator==(const AdcBgpMessage& other) const;
};

/**
 * \ingroup adc
 * \brief What Parse returns: the message or the error (exactly one is set).
 */
struct AdcBgpParseResult
{
    std::optional<AdcBgpMessage> message; //!< the message, when the bytes are valid
    std::optional<AdcBgpError> error;     //!< the error, when they are not

    /// \return true when a message was parsed
    bool Ok() const
    {
        return message.has_value();
    }
};

/**
 * \ingroup adc
 * \brief Cuts a TCP byte stream into BGP messages (RFC 4271 section 4.1) and parses them.
 *
 * Feed() returns the messages its bytes complete. A header is checked once its 19 bytes are
 * in (CheckHeader); a message once all of it is. The first error stops the stream: it is kept
 * with its stream byte offset (GetError), its NOTIFICATION says what the speaker must send,
 * and nothing more is returned. The messages and the error never depend on how the stream was
 * split.
 */
class AdcBgpFramer
{
  public:
    /// \param fourOctetAs AS_PATH ASes are 4 bytes (see SetFourOctetAs)
    explicit AdcBgpFramer(bool fourOctetAs = false);

    /// \param fourOctetAs whether the session negotiated 4-octet ASes (after the OPENs)
    void SetFourOctetAs(bool fourOctetAs);

    /**
     * \param data bytes of the stream \param size their number
     * \return the messages they complete, in order, up to the first error
     */
    std::vector<AdcBgpMessage> Feed(const uint8_t* data, std::size_t size);
    /// \overload \param bytes bytes of the stream \return the messages completed
    std::vector<AdcBgpMessage> Feed(const std::vector<uint8_t>& bytes);

    /// \return the error (offset relative to the stream's first byte), if any
    const std::optional<AdcBgpError>& GetError() const;
    /// \return bytes consumed by complete messages
    uint64_t GetMessageBytes() const;
    /// \return the bytes held of an incomplete message
    std::size_t GetBuffered() const;

  private:
    bool m_fourOctetAs;                 //!< AS_PATH AS size
    std::vector<uint8_t> m_buffer;      //!< bytes of the incomplete message
    uint64_t m_consumed{0};             //!< stream offset of m_buffer's first byte
    std::optional<AdcBgpError> m_error; //!< the first error
};

} // namespace ns3

#endif /* ADC_BGP_MESSAGE_H */
