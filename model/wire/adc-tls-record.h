/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: TLS 1.2 record and handshake framing (RFC 5246), real on the
 * wire so that pcaps decode as TLS in Wireshark. Used by content switching for SSLSESSION
 * persistence (the session ID a ClientHello offers and a ServerHello answers).
 */

#ifndef ADC_TLS_RECORD_H
#define ADC_TLS_RECORD_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief One TLS record (RFC 5246 section 6.2.1): the 5-byte header and its fragment.
 *
 * Wire layout: type (1 byte), version (2 bytes, major then minor), length (2 bytes, big
 * endian), then length bytes of fragment. The fragment is carried as is: this model frames
 * TLS but never encrypts, so application_data records carry plaintext payload bytes (the
 * lengths and framing are the real ones).
 *
 * Versions: TLS 1.2 is {3,3} (0x0303). A ClientHello's record may carry {3,1} (0x0301), as
 * browsers and OpenSSL do for compatibility with old servers (RFC 5246 appendix E.1 allows
 * any {03,XX} in that record); the parser accepts major 3 with minor 0 to 3.
 */
struct AdcTlsRecord
{
    /// ContentType (RFC 5246 section 6.2.1).
    enum ContentType : uint8_t
    {
        CHANGE_CIPHER_SPEC = 20, //!< change_cipher_spec
        ALERT = 21,              //!< alert
        HANDSHAKE = 22,          //!< handshake
        APPLICATION_DATA = 23    //!< application_data
    };

    static constexpr uint16_t kTls12 = 0x0303;                //!< ProtocolVersion {3,3}
    static constexpr uint16_t kTls10 = 0x0301;                //!< {3,1}: ClientHello record (E.1)
    static constexpr std::size_t kHeaderBytes = 5;            //!< type, version, length
    static constexpr std::size_t kMaxPlaintext = 16384;       //!< 2^14 (TLSPlaintext.length)
    static constexpr std::size_t kMaxFragment = 16384 + 2048; //!< 2^14 + 2048 (TLSCiphertext)

    uint8_t type{APPLICATION_DATA}; //!< content type
    uint16_t version{kTls12};       //!< record version
    std::vector<uint8_t> fragment;  //!< the fragment (plaintext in this model)

    /**
     * \brief The record on the wire.
     * \return header and fragment
     * \throws AdcConfigError when the type is not 20..23, the version's major is not 3 or its
     *         minor above 3, or the fragment exceeds kMaxFragment bytes
     */
    std::vector<uint8_t> Encode() const;

    /// \return true when type, version and fragment are equal
    bool operator==(const AdcTlsRecord& other) const;

    /**
     * \param type a content type
     * \return its RFC name ("handshake"), or "" when it is not one of 20..23
     */
    static std::string ContentTypeName(uint8_t type);

    /**
     * \brief Records carrying \p payload, cut into fragments of at most kMaxPlaintext bytes
     * (RFC 5246 section 6.2.1), concatenated on the wire.
     * \param type content type
     * \param payload the bytes to carry (for application_data it may be empty: one
     *        zero-length record, which RFC 5246 allows for application_data only)
     * \param version record version
     * \return the records' bytes
     * \throws AdcConfigError for an unknown type or version, or an empty payload of a type
     *         other than application_data
     */
    static std::vector<uint8_t> BuildRecords(uint8_t type,
                                             const std::vector<uint8_t>& payload,
                                             uint16_t version = kTls12);

    /// \return a ChangeCipherSpec record: 14 03 03 00 01 01 (RFC 5246 section 7.1)
    static std::vector<uint8_t> BuildChangeCipherSpec();
};

/**
 * \ingroup adc
 * \brief One handshake message (RFC 5246 section 7.4): msg_type (1 byte), length (3 bytes,
 * big endian), body.
 */
struct AdcTlsHandshake
{
    /// HandshakeType (RFC 5246 section 7.4).
    enum Type : uint8_t
    {
        HELLO_REQUEST = 0,        //!< hello_request
        CLIENT_HELLO = 1,         //!< client_hello
        SERVER_HELLO = 2,         //!< server_hello
        CERTIFICATE = 11,         //!< certificate
        SERVER_KEY_EXCHANGE = 12, //!< server_key_exchange
        CERTIFICATE_REQUEST = 13, //!< certificate_request
        SERVER_HELLO_DONE = 14,   //!< server_hello_done
        CERTIFICATE_VERIFY = 15,  //!< certificate_verify
        CLIENT_KEY_EXCHANGE = 16, //!< client_key_exchange
        FINISHED = 20             //!< finished
    };

    static constexpr std::size_t kHeaderBytes = 4; //!< msg_type and uint24 length
    /// The largest message the parser reassembles (RFC 5246 allows 2^24 - 1; real
    /// certificate chains stay well below this bound, which caps the memory a peer can claim).
    static constexpr std::size_t kMaxBody = 256 * 1024;
    static constexpr std::size_t kVerifyDataBytes = 12; //!< Finished.verify_data (7.4.9)

    uint8_t type{CLIENT_HELLO}; //!< msg_type
    std::vector<uint8_t> body;  //!< the message body

    /**
     * \return header and body
     * \throws AdcConfigError when the body exceeds kMaxBody bytes
     */
    std::vector<uint8_t> Encode() const;

    /// \return true when type and body are equal
    bool operator==(const AdcTlsHandshake& other) const;

    /// \return a ServerHelloDone message: 0e 00 00 00 (its body is empty, section 7.4.5)
    static AdcTlsHandshake ServerHelloDone();

    /**
     * \brief A Finished-like placeholder: 12 bytes of verify_data (section 7.4.9). Real TLS
     * sends Finished encrypted after ChangeCipherSpec; this model sends the bytes in clear,
     * which Wireshark shows as an encrypted handshake message.
     * \param verifyData the 12 bytes
     * \return the message
     */
    static AdcTlsHandshake Finished(const std::array<uint8_t, kVerifyDataBytes>& verifyData);
};

/**
 * \ingroup adc
 * \brief One hello extension (RFC 5246 section 7.4.1.4): type, opaque data<0..2^16-1>.
 */
struct AdcTlsExtension
{
    static constexpr uint16_t kServerName = 0; //!< server_name (RFC 6066 section 3)

    uint16_t type{0};          //!< extension_type
    std::vector<uint8_t> data; //!< extension_data

    /// \return true when type and data are equal
    bool operator==(const AdcTlsExtension& other) const;
};

/**
 * \ingroup adc
 * \brief A ClientHello body (RFC 5246 section 7.4.1.2).
 *
 * Layout: client_version (2), random (32), session_id<0..32> (1-byte length), cipher_suites
 * <2..2^16-2> (2-byte length, an even number of bytes), compression_methods<1..2^8-1> (1-byte
 * length), then optionally extensions<0..2^16-1> (2-byte length; absent and empty are
 * different encodings, kept apart by hasExtensions). No two extensions share a type
 * (section 7.4.1.4).
 */
struct AdcTlsClientHello
{
    static constexpr std::size_t kMaxSessionId = 32; //!< session_id<0..32>

    uint16_t clientVersion{AdcTlsRecord::kTls12}; //!< client_version
    std::array<uint8_t, 32> random{};             //!< gmt_unix_time and random_bytes
    std::vector<uint8_t> sessionId; //!< the session the client offers to resume (may be empty)
    std::vector<uint16_t> cipherSuites{0x002f}; //!< TLS_RSA_WITH_AES_128_CBC_SHA by default
    std::vector<uint8_t> compressionMethods{0}; //!< null compression
    bool hasExtensions{false};                  //!< whether the extensions block is present
    std::vector<AdcTlsExtension> extensions;    //!< the extensions, in order

    /**
     * \return the body bytes
     * \throws AdcConfigError when a field breaks its length bounds or two extensions share
     *         a type
     */
    std::vector<uint8_t> Encode() const;

    /**
     * \brief Parse a ClientHello body.
     * \param body the handshake message's body
     * \return the hello
     * \throws AdcConfigError naming the field, the value, its byte position and what is
     *         allowed (lengths past the end, session_id above 32 bytes, odd cipher_suites
     *         length, no compression method, trailing bytes, repeated extension types, a
     *         malformed server_name)
     */
    static AdcTlsClientHello Parse(const std::vector<uint8_t>& body);

    /// \return the session ID the client offers (SSLSESSION persistence key; empty: none)
    const std::vector<uint8_t>& GetSessionId() const;

    /**
     * \return the host_name of the server_name extension (RFC 6066 section 3), "" when absent
     * \throws AdcConfigError when the extension is present but malformed
     */
    std::string GetServerName() const;

    /**
     * \brief Set (or replace) the server_name extension with one host_name entry; turns
     * hasExtensions on.
     * \param hostName the name: 1 to 65530 bytes (the extension's data holds the list's
     *        2-byte length and the entry's type and 2-byte length)
     * \throws AdcConfigError when the name is empty or too long
     */
    void SetServerName(const std::string& hostName);

    /// \return true when every field is equal
    bool operator==(const AdcTlsClientHello& other) const;
};

/**
 * \ingroup adc
 * \brief A ServerHello body (RFC 5246 section 7.4.1.3).
 *
 * Layout: server_version (2), random (32), session_id<0..32>, cipher_suite (2),
 * compression_method (1), then optionally extensions<0..2^16-1>.
 *
 * Session resumption: when the ClientHello offered a non-empty session_id and the server
 * answers with the same one, the session is resumed; a different (or empty) ID starts a new
 * session (section 7.4.1.3). IsResumptionOf says which.
 */
struct AdcTlsServerHello
{
    uint16_t serverVersion{AdcTlsRecord::kTls12}; //!< server_version
    std::array<uint8_t, 32> random{};             //!< random
    std::vector<uint8_t> sessionId;               //!< the session's ID (empty: not cached)
    uint16_t cipherSuite{0x002f};                 //!< the suite chosen
    uint8_t compressionMethod{0};                 //!< the method chosen
    bool hasExtensions{false};                    //!< whether the extensions block is present
    std::vector<AdcTlsExtension> extensions;      //!< the extensions, in order

    /**
     * \return the body bytes
     * \throws AdcConfigError when a field breaks its length bounds or two extensions share
     *         a type
     */
    std::vector<uint8_t> Encode() const;

    /**
     * \brief Parse a ServerHello body.
     * \param body the handshake message's body
     * \return the hello
     * \throws AdcConfigError naming the field, value, position and what is allowed
     */
    static AdcTlsServerHello Parse(const std::vector<uint8_t>& body);

    /// \return the session ID the server assigned or echoed
    const std::vector<uint8_t>& GetSessionId() const;

    /**
     * \param clientHello the ClientHello this answers
     * \return true when it resumes the session the client offered: a non-empty offered ID
     *         echoed unchanged
     */
    bool IsResumptionOf(const AdcTlsClientHello& clientHello) const;

    /// \return true when every field is equal
    bool operator==(const AdcTlsServerHello& other) const;
};

/**
 * \ingroup adc
 * \brief Reassembles TLS records, and the handshake messages they carry, from a TCP byte
 * stream delivered in arbitrary segments.
 *
 * Feed() returns the records completed by each segment; handshake messages, which may span
 * several records or share one (RFC 5246 section 6.2.1), are reassembled and collected for
 * TakeHandshakes(). ClientHello and ServerHello bodies are validated as they complete. The
 * records, messages and error never depend on how the stream was split.
 *
 * Checked, each a stream error naming the value, the stream offset of the record (or message)
 * and what is allowed: a content type other than 20..23; a version whose major is not 3 or
 * minor above 3; a length above 2^14 + 2048; a zero-length handshake, alert or
 * change_cipher_spec record (section 6.2.1); a change_cipher_spec fragment other than the one
 * byte 1; a handshake message above AdcTlsHandshake::kMaxBody; a malformed hello.
 *
 * After a ChangeCipherSpec, real TLS encrypts the rest of the handshake (Finished), so the
 * parser stops reassembling: later handshake records are still returned as records but yield
 * no messages (IsAfterChangeCipherSpec). Records of other types between the fragments of a
 * handshake message are accepted as RFC 5246 allows (RFC 8446 forbids it).
 *
 * After an error the stream is poisoned: nothing more is returned; the owner should close the
 * connection.
 */
class AdcTlsRecordParser
{
  public:
    AdcTlsRecordParser();

    /**
     * \brief Consume the next bytes of the stream.
     * \param data the bytes
     * \param size their number
     * \return the records completed by them, in order, up to the first error (none after it)
     */
    std::vector<AdcTlsRecord> Feed(const uint8_t* data, std::size_t size);

    /// \overload
    /// \param bytes the bytes
    /// \return the records completed
    std::vector<AdcTlsRecord> Feed(const std::vector<uint8_t>& bytes);

    /// \return the handshake messages completed since the last call, in order
    std::vector<AdcTlsHandshake> TakeHandshakes();

    /// \return true once the stream is in error
    bool HasError() const;

    /// \return the error, e.g. "AdcTlsRecordParser: record at stream byte 0: content type 99
    ///         is not one of 20 (change_cipher_spec), ..." ("" when none)
    const std::string& GetError() const;

    /// \return bytes consumed into complete records (the records' wire bytes)
    uint64_t GetRecordBytes() const;

    /// \return true once a ChangeCipherSpec record went by
    bool IsAfterChangeCipherSpec() const;

    /// \return true when bytes of an incomplete record or handshake message are held
    bool HasPartial() const;

  private:
    /// \brief Check a complete record and hand it on; sets the error on failure.
    /// \param record the record
    /// \return false on error
    bool Accept(const AdcTlsRecord& record);

    /// \param what the error's text (after the prefix)
    void Fail(const std::string& what);

    std::vector<uint8_t> m_buffer;    //!< bytes of the record being received
    std::vector<uint8_t> m_handshake; //!< bytes of handshake messages being reassembled
    uint64_t m_recordBytes{0};        //!< stream offset of m_buffer's first byte
    uint64_t m_handshakeStart{0};     //!< handshake-stream offset of m_handshake's first byte
    bool m_afterCcs{false};           //!< a ChangeCipherSpec was seen
    std::vector<AdcTlsHandshake> m_messages; //!< completed messages not yet taken
    std::string m_error;                     //!< the error ("" when none)
};

/**
 * \ingroup adc
 * \param bytes e.g. a session ID
 * \return lowercase hex, two digits a byte, no separator ("" for none): the persistence key
 */
std::string AdcTlsToHex(const std::vector<uint8_t>& bytes);

} // namespace ns3

#endif /* ADC_TLS_RECORD_H */
