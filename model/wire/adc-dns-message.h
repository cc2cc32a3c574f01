/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: DNS messages (RFC 1035 section 4), real on the wire so that
 * pcaps decode as DNS in Wireshark. Used by GSLB: the appliance's authoritative DNS (ADNS),
 * the LDNS resolver and the ldns-dns / ldns-tcp RTT probes. Sans-IO: bytes in, bytes out.
 */

#ifndef ADC_DNS_MESSAGE_H
#define ADC_DNS_MESSAGE_H

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
 * \brief Domain names in text form (RFC 1035 sections 2.3.1, 3.1 and 5.1).
 *
 * A name is written as dot-separated labels, "www.example.com" (a trailing dot is accepted
 * and dropped; "" and "." are the root). Label bytes that are a dot, a backslash or not
 * printable ASCII are escaped as in master files: "\." and "\\", or "\DDD" (three decimal
 * digits), so that any label read from the wire prints and reads back unchanged.
 *
 * Limits (RFC 1035 section 2.3.4): a label holds 1..63 bytes; a name takes at most 255 bytes
 * on the wire (each label's length byte and bytes, then the root's zero byte).
 */
struct AdcDnsName
{
    static constexpr std::size_t kMaxLabel = 63;     //!< bytes in one label
    static constexpr std::size_t kMaxWireName = 255; //!< bytes of a name on the wire

    /**
     * \brief Split a name into its labels, checking the limits.
     * \param name the text form
     * \return the labels, most specific first (none for the root)
     * \throws AdcConfigError naming the name and the limit broken: an empty label, a label
     *         above 63 bytes, a name above 255 wire bytes, a bad escape
     */
    static std::vector<std::string> ToLabels(const std::string& name);

    /**
     * \param labels labels (any bytes)
     * \return their text form, escaped as needed ("." for the root)
     */
    static std::string FromLabels(const std::vector<std::string>& labels);

    /**
     * \brief Append one label's text form (escaped as FromLabels escapes it) to \p out.
     * \param out the text \param data the label's bytes \param size their number
     */
    static void AppendLabel(std::string& out, const char* data, std::size_t size);

    /**
     * \param name a name's text form
     * \return the same name in canonical text: escapes normalized, no trailing dot
     * \throws AdcConfigError as ToLabels
     */
    static std::string Canonical(const std::string& name);

    /**
     * \brief Compare two names ignoring ASCII case (RFC 1035 section 2.3.3; RFC 4343).
     * \param a a name
     * \param b a name
     * \return true when they name the same node; false also when either is malformed
     */
    static bool Equal(const std::string& a, const std::string& b);

    /**
     * \param name a name's text form
     * \return its uncompressed wire form: length-prefixed labels, then a zero byte
     * \throws AdcConfigError as ToLabels
     */
    static std::vector<uint8_t> ToWire(const std::string& name);
};

/**
 * \ingroup adc
 * \brief A question (RFC 1035 section 4.1.2): QNAME, QTYPE, QCLASS.
 */
struct AdcDnsQuestion
{
    std::string name;   //!< QNAME, text form ("www.example.com")
    uint16_t qtype{1};  //!< QTYPE (AdcDnsMessage::TYPE_A by default)
    uint16_t qclass{1}; //!< QCLASS (AdcDnsMessage::CLASS_IN by default)

    /// \param other a question \return true when every field is equal (names byte for byte)
    bool operator==(const AdcDnsQuestion& other) const;
};

/**
 * \ingroup adc
 * \brief A resource record (RFC 1035 section 4.1.3): NAME, TYPE, CLASS, TTL, RDATA.
 *
 * RDATA is kept as bytes (RDLENGTH is its size). A and AAAA have typed accessors. For NS,
 * CNAME, PTR, MX and SOA, whose RDATA holds names that a sender may compress, Parse stores
 * the RDATA with those names decompressed (uncompressed wire names), so the bytes stay valid
 * wherever the record is written again; Serialize never compresses inside RDATA.
 */
struct AdcDnsResourceRecord
{
    std::string name;           //!< owner NAME, text form
    uint16_t type{1};           //!< TYPE
    uint16_t rrclass{1};        //!< CLASS
    uint32_t ttl{0};            //!< TTL in seconds
    std::vector<uint8_t> rdata; //!< RDATA

    /**
     * \param name owner name \param address the address \param ttl seconds
     * \return an A record (class IN, 4 bytes of RDATA, RFC 1035 section 3.4.1)
     * \throws AdcConfigError for a bad name
     */
    static AdcDnsResourceRecord A(const std::string& name, Ipv4Address address, uint32_t ttl);

    /**
     * \param name owner name \param address the address \param ttl seconds
     * \return an AAAA record (class IN, 16 bytes of RDATA, RFC 3596 section 2.2)
     * \throws AdcConfigError for a bad name
     */
    static AdcDnsResourceRecord Aaaa(const std::string& name, Ipv6Address address, uint32_t ttl);

    /**
     * \param name owner name \param type NS, CNAME or PTR \param target the name it points
     *        to \param ttl seconds
     * \return the record (class IN), RDATA the target's uncompressed wire form
     * \throws AdcConfigError for a bad name or a type other than NS, CNAME, PTR
     */
    static AdcDnsResourceRecord NameRecord(const std::string& name,
                                           uint16_t type,
                                           const std::string& target,
                                           uint32_t ttl);

    /// \return the address of an IN A record with 4 bytes of RDATA, nothing otherwise
    std::optional<Ipv4Address> GetA() const;

    /// \return the address of an IN AAAA record with 16 bytes of RDATA, nothing otherwise
    std::optional<Ipv6Address> GetAaaa() const;

    /// \return the target of an NS, CNAME or PTR record whose RDATA is one uncompressed wire
    ///         name, nothing otherwise
    std::optional<std::string> GetTargetName() const;

    /// \param other a record \return true when every field is equal (names byte for byte)
    bool operator==(const AdcDnsResourceRecord& other) const;
};

/**
 * \ingroup adc
 * \brief A DNS message (RFC 1035 section 4.1): header, question, answer, authority and
 * additional sections.
 *
 * Header layout (12 bytes, big endian): ID (16), then QR (1 bit), Opcode (4), AA, TC, RD, RA
 * (1 each), Z (3), RCODE (4), then QDCOUNT, ANCOUNT, NSCOUNT, ARCOUNT (16 each). The counts
 * are the sections' sizes; they are not stored separately.
 *
 * Serialize compresses owner names and question names (section 4.1.4): a name, or its
 * longest suffix already written (byte-for-byte equal labels), becomes a pointer 0xC000 |
 * offset to the earlier copy.
 *
 * Parse takes one whole message (a UDP payload, or one TCP frame without its length prefix)
 * and checks, each an error naming the byte offset: data ending inside a field, labels above
 * 63 bytes, names above 255 wire bytes, the reserved label types 0x40 and 0x80, pointers to
 * or past their own position (forward), past the end (out of range), or not strictly before
 * the part of the name they continue (a loop), A or AAAA RDATA of the wrong size, names in
 * NS/CNAME/PTR/MX/SOA RDATA not filling RDLENGTH, and bytes after the last record.
 */
class AdcDnsMessage
{
  public:
    /// RCODE (RFC 1035 section 4.1.1).
    enum Rcode : uint8_t
    {
        NOERROR = 0,  //!< no error
        FORMERR = 1,  //!< format error
        SERVFAIL = 2, //!< server failure
        NXDOMAIN = 3, //!< name error: the name does not exist
        NOTIMP = 4,   //!< not implemented
        REFUSED = 5   //!< refused
    };

    /// Extended RCODE BADVERS (RFC 6891 section 9): the OPT record's 8 upper bits are 1, the
    /// header's 4 lower bits 0.
    static constexpr uint16_t BADVERS = 16;

    /// Opcode (RFC 1035 section 4.1.1).
    enum Opcode : uint8_t
    {
        QUERY = 0,  //!< standard query
        IQUERY = 1, //!< inverse query (obsolete)
        STATUS = 2  //!< server status request
    };

    static constexpr uint16_t TYPE_A = 1;     //!< host address (RFC 1035 3.2.2)
    static constexpr uint16_t TYPE_NS = 2;    //!< authoritative name server
    static constexpr uint16_t TYPE_CNAME = 5; //!< canonical name
    static constexpr uint16_t TYPE_SOA = 6;   //!< start of a zone of authority
    static constexpr uint16_t TYPE_PTR = 12;  //!< domain name pointer
    static constexpr uint16_t TYPE_MX = 15;   //!< mail exchange
    static constexpr uint16_t TYPE_TXT = 16;  //!< text strings
    static constexpr uint16_t TYPE_AAAA = 28; //!< IPv6 host address (RFC 3596)
    static constexpr uint16_t TYPE_OPT = 41;  //!< EDNS(0) pseudo-record (RFC 6891 6.1)
    static constexpr uint16_t TYPE_ANY = 255; //!< QTYPE *: all records
    static constexpr uint16_t CLASS_IN = 1;   //!< the Internet

    static constexpr std::size_t kHeaderBytes = 12;   //!< the fixed header
    static constexpr std::size_t kMaxUdpBytes = 512;  //!< UDP payload limit (RFC 1035 4.2.1)
    static constexpr std::size_t kMaxMessage = 65535; //!< TCP frame limit (RFC 1035 4.2.2)
    static constexpr uint16_t kDnsPort = 53;          //!< UDP and TCP port

    uint16_t id{0};         //!< ID
    bool qr{false};         //!< QR: response
    uint8_t opcode{QUERY};  //!< Opcode (0..15)
    bool aa{false};         //!< AA: authoritative answer
    bool tc{false};         //!< TC: truncated
    bool rd{false};         //!< RD: recursion desired
    bool ra{false};         //!< RA: recursion available
    uint8_t z{0};           //!< Z (0..7; must be zero in queries, RFC 1035)
    uint8_t rcode{NOERROR}; //!< RCODE (0..15)

    std::vector<AdcDnsQuestion> questions;        //!< question section
    std::vector<AdcDnsResourceRecord> answers;    //!< answer section
    std::vector<AdcDnsResourceRecord> authority;  //!< authority section
    std::vector<AdcDnsResourceRecord> additional; //!< additional section

    /**
     * \brief A standard query with one question of class IN.
     * \param id the ID
     * \param name QNAME
     * \param qtype QTYPE
     * \param rd recursion desired (a stub resolver's query to its LDNS sets it)
     * \return the query
     * \throws AdcConfigError for a bad name
     */
    static AdcDnsMessage MakeQuery(uint16_t id,
                                   const std::string& name,
                                   uint16_t qtype = TYPE_A,
                                   bool rd = true);

    /**
     * \brief A response to \p query: its ID, Opcode, question and RD copied, QR set, no
     * records yet (the caller adds answers).
     * \param query the query
     * \param rcode RCODE
     * \param aa authoritative answer (the ADNS sets it)
     * \return the response
     */
    static AdcDnsMessage MakeResponse(const AdcDnsMessage& query, uint8_t rcode, bool aa);

    /**
     * \return the message on the wire, names compressed
     * \throws AdcConfigError for a bad name, a field out of range (Opcode or RCODE above 15,
     *         Z above 7, RDATA above 65535 bytes, a section above 65535 entries) or a message
     *         above 65535 bytes
     */
    std::vector<uint8_t> Serialize() const;

    /**
     * \brief The message as it may go in one UDP datagram (RFC 1035 section 4.2.1).
     *
     * When the whole message exceeds \p maxBytes, additional records are dropped first (no
     * TC: RFC 2181 section 9), then authority records, then answer records from the end,
     * until it fits; dropping authority or answer records sets TC. The header, the question
     * and an OPT record (RFC 6891 section 7: a truncated response keeps its OPT) are always
     * kept. A message whose whole form would exceed 65535 bytes is truncated likewise (TC,
     * not an error: RFC 2181 section 9).
     * \param maxBytes the payload limit (512 without EDNS)
     * \return the bytes
     * \throws AdcConfigError for a bad name or field (as Serialize), or when even the
     *         header, the question and the OPT record exceed \p maxBytes
     */
    std::vector<uint8_t> SerializeTruncated(std::size_t maxBytes = kMaxUdpBytes) const;

    /**
     * \brief Parse one whole message.
     * \param data the bytes
     * \param size their number
     * \param error [out, may be null] on failure, e.g. "AdcDnsMessage: byte 14: question 0
     *        QNAME: compression pointer loop: byte 12 is not before byte 12 where this part
     *        of the name starts"
     * \return the message, or nothing when the bytes are not a valid message
     */
    static std::optional<AdcDnsMessage> Parse(const uint8_t* data,
                                              std::size_t size,
                                              std::string* error = nullptr);

    /// \overload
    /// \param bytes the bytes \param error [out, may be null] the reason \return the message
    static std::optional<AdcDnsMessage> Parse(const std::vector<uint8_t>& bytes,
                                              std::string* error = nullptr);

    /// \param rcode an RCODE \return its name ("NXDOMAIN"), or "RCODE<n>" when not 0..5
    static std::string RcodeName(uint8_t rcode);

    /// \return true when every header field and section is equal
    bool operator==(const AdcDnsMessage& other) const;

    /// \return true when some field differs
    bool operator!=(const AdcDnsMessage& other) const;
};

/**
 * \ingroup adc
 * \brief The RDATA of an SOA record (RFC 1035 section 3.3.13).
 */
struct AdcDnsSoa
{
    std::string mname;    //!< MNAME: the zone's primary name server
    std::string rname;    //!< RNAME: the responsible mailbox, '@' written as '.'
    uint32_t serial{0};   //!< SERIAL
    uint32_t refresh{0};  //!< REFRESH, s
    uint32_t retry{0};    //!< RETRY, s
    uint32_t expire{0};   //!< EXPIRE, s
    uint32_t minimum{0};  //!< MINIMUM, s: the negative-caching TTL (RFC 2308 section 4)

    /**
     * \param owner the zone's apex \param ttl the record's TTL, s
     * \return the SOA record (class IN), names uncompressed in RDATA
     * \throws AdcConfigError for a bad name
     */
    AdcDnsResourceRecord ToRecord(const std::string& owner, uint32_t ttl) const;

    /// \param rr a record \return its SOA fields when it is an SOA record whose RDATA is two
    ///         uncompressed names and 20 bytes (as Parse stores it), nothing otherwise
    static std::optional<AdcDnsSoa> FromRecord(const AdcDnsResourceRecord& rr);
};

/**
 * \ingroup adc
 * \brief An EDNS(0) OPT pseudo-record (RFC 6891 section 6.1): owner the root, CLASS the
 * sender's UDP payload size, TTL the extended RCODE (8 bits), VERSION (8), DO (1), Z (15),
 * RDATA a list of {code, length, data} options.
 */
struct AdcDnsEdns
{
    uint16_t udpPayload{512};     //!< the sender's UDP payload size (CLASS)
    uint8_t extendedRcode{0};     //!< the upper 8 bits of the 12-bit RCODE
    uint8_t version{0};           //!< VERSION
    bool dnssecOk{false};         //!< DO (RFC 3225)
    uint16_t z{0};                //!< the 15 other flag bits (zero when sent)
    std::vector<uint8_t> options; //!< RDATA, the options as bytes

    /// \return the OPT record
    AdcDnsResourceRecord ToRecord() const;

    /**
     * \param rr a record
     * \param error [out, may be null] why it is not a valid OPT record
     * \return the fields, nothing when \p rr is not of type OPT, its owner is not the root
     *         (RFC 6891 6.1.2) or its options do not fill RDATA exactly (6.1.2's
     *         {OPTION-CODE, OPTION-LENGTH, OPTION-DATA} list)
     */
    static std::optional<AdcDnsEdns> FromRecord(const AdcDnsResourceRecord& rr,
                                                std::string* error = nullptr);
};

/**
 * \ingroup adc
 * \brief DNS over TCP framing (RFC 1035 section 4.2.2): a 2-byte big-endian length, then
 * the message.
 * \param message one message's bytes
 * \return the prefixed bytes
 * \throws AdcConfigError when the message exceeds 65535 bytes
 */
std::vector<uint8_t> AdcDnsTcpFrame(const std::vector<uint8_t>& message);

/**
 * \ingroup adc
 * \brief Reassembles DNS messages from a TCP byte stream delivered in arbitrary segments
 * (RFC 1035 section 4.2.2).
 *
 * Feed() returns the messages (without their length prefix) completed by each segment; the
 * result never depends on how the stream was split. A frame shorter than the 12-byte header
 * is a stream error; after it nothing more is returned (the owner closes the connection).
 * Frames are returned as bytes: AdcDnsMessage::Parse decides whether they are valid.
 */
class AdcDnsTcpFramer
{
  public:
    /**
     * \brief Consume the next bytes of the stream.
     * \param data the bytes
     * \param size their number
     * \return the messages completed by them, in order
     */
    std::vector<std::vector<uint8_t>> Feed(const uint8_t* data, std::size_t size);

    /// \overload
    /// \param bytes the bytes \return the messages completed
    std::vector<std::vector<uint8_t>> Feed(const std::vector<uint8_t>& bytes);

    /// \return true when bytes of an incomplete frame are held
    bool HasPartial() const;

    /// \return true once the stream is in error
    bool HasError() const;

    /// \return the error ("" when none), e.g. "AdcDnsTcpFramer: frame at stream byte 0:
    ///         length 3 is below the 12-byte header"
    const std::string& GetError() const;

  private:
    std::vector<uint8_t> m_buffer; //!< bytes of the frame being received
    uint64_t m_offset{0};          //!< stream offset of m_buffer's first byte
    std::string m_error;           //!< the error ("" when none)
};

} // namespace ns3

#endif /* ADC_DNS_MESSAGE_H */
