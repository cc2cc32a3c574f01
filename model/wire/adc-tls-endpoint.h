/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: a sans-IO TLS 1.2 handshake endpoint (client or server) and a
 * passive observer, on the real record and handshake framing of RFC 5246 (adc-tls-record.h).
 * Used by content switching: HTTPS vservers terminate TLS with the server role, HTTP clients
 * speak it with the client role, and SSL_BRIDGE relays read session IDs with the observer
 * (SSLSESSION persistence).
 */

#ifndef ADC_TLS_ENDPOINT_H
#define ADC_TLS_ENDPOINT_H

#include "adc-tls-record.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief One side of a TLS 1.2 connection, without sockets (sans-IO) and deterministic.
 *
 * The owner moves bytes: Start() gives the client's first flight, Receive() takes bytes from
 * the peer in any split and returns what to send back and the application data received,
 * Send() turns application data into application_data records. No byte depends on anything but
 * the Config (all "random" bytes come from Config::seed), so equal configs and inputs give equal
 * output.
 *
 * Handshake (RFC 5246 section 7.3), the messages modelled but not the cryptography:
 * - full: C: ClientHello (no or an unknown session ID); S: ServerHello (a new 32-byte ID),
 *   Certificate (an empty certificate_list), ServerHelloDone; C: ClientKeyExchange (RSA form:
 *   2-byte length and 256 seeded bytes), ChangeCipherSpec, Finished; S: ChangeCipherSpec,
 *   Finished.
 * - resumed (the server's Config::canResume accepts the offered ID): C: ClientHello (the ID);
 *   S: ServerHello (the same ID), ChangeCipherSpec, Finished; C: ChangeCipherSpec, Finished.
 *   A server that cannot resume does the full handshake with a new ID (never the offered one),
 *   and the client then sees another ID: not resumed.
 *
 * Not cryptography: nothing is encrypted (application_data records carry the plaintext, with
 * real framing and lengths); the ClientKeyExchange carries seeded bytes; Finished is sent in
 * clear after ChangeCipherSpec and its 12 bytes of verify_data are NOT the PRF of section
 * 7.4.9 but a 64-bit non-cryptographic digest (FNV-1a, then splitmix64) of the finished_label
 * and of every handshake message before it, in order, as real TLS hashes them. Both sides
 * compute it, and a mismatch is a decrypt_error alert as the RFC says. The Finished message
 * must come whole in one record (as this endpoint sends it).
 *
 * Errors (RFC 5246 section 7.2.2): an unexpected message or record is answered by a fatal
 * unexpected_message (10) alert, a malformed one by decode_error (50), a record longer than
 * 2^14 bytes by record_overflow (22), a hello without the cipher suite or null compression by
 * handshake_failure (40), a ServerHello choosing what was not offered by illegal_parameter
 * (47), an older client_version by protocol_version (70), a wrong verify_data by decrypt_error
 * (51). The alert record goes in Result::toPeer, the endpoint fails (HasFailed, GetError names
 * what came and what was expected) and ignores every later byte. A fatal alert from the peer
 * fails it too (no alert back); a close_notify closes it without error and is answered by a
 * close_notify; warning alerts are counted and ignored.
 *
 * Application data: the client may send once it received the server's Finished, the server once
 * it sent its own (CanSend). Send() before that queues the bytes, which go out (in Receive's
 * toPeer) as soon as sending is allowed. Data received is accepted only after the peer's
 * Finished.
 */
class AdcTlsEndpoint
{
  public:
    /// The side of the connection.
    enum Role
    {
        CLIENT, //!< sends the ClientHello
        SERVER  //!< answers it
    };

    /// Where the handshake is.
    enum State
    {
        IDLE,                     //!< client before Start()
        WAIT_CLIENT_HELLO,        //!< server: waiting for the ClientHello
        WAIT_SERVER_HELLO,        //!< client: ClientHello sent
        WAIT_CERTIFICATE,         //!< client: full handshake, ServerHello received
        WAIT_SERVER_HELLO_DONE,   //!< client: Certificate received
        WAIT_CLIENT_KEY_EXCHANGE, //!< server: first flight of a full handshake sent
        WAIT_CHANGE_CIPHER_SPEC,  //!< waiting for the peer's ChangeCipherSpec
        WAIT_FINISHED,            //!< waiting for the peer's Finished
        ESTABLISHED,              //!< both Finished exchanged
        CLOSED,                   //!< close_notify received
        FAILED                    //!< a fatal alert was sent or received
    };

    /// What the endpoint is given; checked by the constructor.
    struct Config
    {
        Role role{CLIENT};      //!< the side
        std::string serverName; //!< client: the SNI host_name to send ("" none); server: ""
        /// client: the session ID to offer (at most 32 bytes; empty: a new session); server: empty
        std::vector<uint8_t> resumeSessionId;
        uint64_t seed{0};             //!< source of every random, session ID and key exchange byte
        uint16_t cipherSuite{0x009c}; //!< TLS_RSA_WITH_AES_128_GCM_SHA256 (offered / required)
        /// server: whether this (non-empty) session ID is in its session cache; unset: none is
        std::function<bool(const std::vector<uint8_t>&)> canResume;
    };

    /// What one Receive() produced.
    struct Result
    {
        std::vector<uint8_t> toPeer;  //!< records to send to the peer (flight, alert, queued data)
        std::vector<uint8_t> appData; //!< application data received, in order
        bool justEstablished{false};  //!< the handshake completed during this call
    };

    /**
     * \param config the configuration
     * \throws AdcConfigError when the client's serverName is longer than 65530 bytes or the
     *         offered session ID longer than 32 bytes, or a server is given either of them
     */
    explicit AdcTlsEndpoint(Config config);

    /**
     * \return client: the record carrying its ClientHello (the first call only, later calls and
     *         servers: empty)
     */
    std::vector<uint8_t> Start();

    /**
     * \brief Consume bytes from the peer.
     * \param data the bytes
     * \param n their number
     * \return the records to answer with, the application data received and whether the
     *         handshake completed now (nothing once failed or closed)
     */
    Result Receive(const uint8_t* data, std::size_t n);

    /// \overload \param bytes the bytes \return as above
    Result Receive(const std::vector<uint8_t>& bytes)
    {
        return Receive(bytes.data(), bytes.size());
    }

    /**
     * \brief Application data to send.
     * \param data the bytes
     * \param n their number
     * \return application_data records of at most 2^14 bytes each when CanSend(); otherwise
     *         empty: the bytes are queued for the next Receive() that allows sending (dropped
     *         once the endpoint failed or closed); n == 0 gives nothing
     */
    std::vector<uint8_t> Send(const uint8_t* data, std::size_t n);

    /// \overload \param bytes the bytes \return as above
    std::vector<uint8_t> Send(const std::vector<uint8_t>& bytes)
    {
        return Send(bytes.data(), bytes.size());
    }

    /**
     * \brief Close the connection: a close_notify alert (warning level, RFC 5246 section
     * 7.2.1); after it Send() gives nothing. \return the alert record (empty when already sent
     * or failed)
     */
    std::vector<uint8_t> Close();

    /// \return true once both Finished messages went by (and before close or failure)
    bool IsEstablished() const
    {
        return m_state == ESTABLISHED;
    }

    /// \return true when the session is a resumed one (the ServerHello echoed the offered ID)
    bool IsResumed() const
    {
        return m_resumed;
    }

    /// \return true once a fatal alert was sent or received
    bool HasFailed() const
    {
        return m_state == FAILED;
    }

    /// \return true once the peer's close_notify arrived
    bool IsClosed() const
    {
        return m_state == CLOSED;
    }

    /// \return true when Send() emits records now
    bool CanSend() const;

    /// \return the error ("" when none), e.g. "AdcTlsEndpoint(client): received handshake
    ///         message client_hello (1) while expecting server_hello (2); sent fatal alert
    ///         unexpected_message (10)"
    std::string GetError() const
    {
        return m_error;
    }

    /// \return the state
    State GetState() const
    {
        return m_state;
    }

    /// \return the alert description sent (fatal) or received, -1 when none
    int GetAlert() const
    {
        return m_alert;
    }

    /// \return the session's ID (from the ServerHello: 32 bytes when new; empty before it)
    const std::vector<uint8_t>& GetSessionId() const
    {
        return m_sessionId;
    }

    /// \return server: the SNI host_name the client sent ("" none); client: the one it sends
    std::string GetServerName() const
    {
        return m_serverName;
    }

    /// \return the cipher suite in use (from the ServerHello; the configured one before)
    uint16_t GetCipherSuite() const
    {
        return m_cipherSuite;
    }

    /// \return wire bytes of non-application_data records sent and received
    uint64_t GetHandshakeBytes() const
    {
        return m_handshakeBytes;
    }

    /// \return application data bytes (plaintext) sent in records
    uint64_t GetAppBytesSent() const
    {
        return m_appSent;
    }

    /// \return application data bytes received
    uint64_t GetAppBytesReceived() const
    {
        return m_appReceived;
    }

    /// \return records sent
    uint64_t GetRecordsSent() const
    {
        return m_recordsSent;
    }

    /// \return records received
    uint64_t GetRecordsReceived() const
    {
        return m_recordsReceived;
    }

    /// \param role a role \return "client" or "server"
    static std::string RoleName(Role role);
    /// \param state a state \return its name, e.g. "WAIT_SERVER_HELLO"
    static std::string StateName(State state);
    /// \param description an alert description \return its RFC 5246 name, e.g.
    ///        "unexpected_message (10)"
    static std::string AlertName(uint8_t description);
    /**
     * \param level 1 warning, 2 fatal
     * \param description the AlertDescription
     * \return the alert record (type 21, version 0x0303, length 2)
     */
    static std::vector<uint8_t> BuildAlert(uint8_t level, uint8_t description);

  private:
    /// \param rec a complete record \param out the result being built
    void OnRecord(const AdcTlsRecord& rec, Result& out);
    /// \param m a handshake message \param out the result being built
    void OnHandshake(const AdcTlsHandshake& m, Result& out);
    /// \param m the ClientHello \param out the result being built
    void OnClientHello(const AdcTlsHandshake& m, Result& out);
    /// \param m the ServerHello \param out the result being built
    void OnServerHello(const AdcTlsHandshake& m, Result& out);
    /// \param fragment the Finished record's fragment \param out the result being built
    void OnFinished(const std::vector<uint8_t>& fragment, Result& out);
    /// \param alert the alert's fragment \param out the result being built
    void OnAlert(const std::vector<uint8_t>& alert, Result& out);
    /// \brief Send a fatal alert and fail. \param description the alert \param what the reason
    /// \param out the result being built
    void Fail(uint8_t description, const std::string& what, Result& out);
    /// \param m a message \param out bytes to append its handshake record to
    void SendHandshake(const std::vector<AdcTlsHandshake>& m, std::vector<uint8_t>& out);
    /// \brief Send ChangeCipherSpec and Finished. \param label the finished_label
    /// \param out bytes to append the records to
    void SendFinished(const std::string& label, std::vector<uint8_t>& out);
    /// \param label the finished_label \return the Finished message over the transcript so far
    AdcTlsHandshake MakeFinished(const std::string& label) const;
    /// \return what the endpoint waits for, for error texts
    std::string Expecting() const;
    /// \param n how many \return seeded bytes
    std::vector<uint8_t> RandomBytes(std::size_t n);
    /// \param records bytes of records \param out counters to update
    void CountSent(const std::vector<uint8_t>& records, bool appData);

    Config m_config;                   //!< the configuration
    State m_state;                     //!< where the handshake is
    uint64_t m_rng;                    //!< splitmix64 state
    AdcTlsRecordParser m_parser;       //!< the peer's records and handshake messages
    std::vector<uint8_t> m_record;     //!< bytes of the record being received
    std::vector<uint8_t> m_transcript; //!< handshake messages so far, as on the wire
    std::vector<uint8_t> m_sessionId;  //!< the session's ID
    std::vector<uint8_t> m_offeredId;  //!< the ID the ClientHello offered
    std::string m_serverName;          //!< SNI sent or received
    uint16_t m_cipherSuite;            //!< the suite in use
    std::vector<uint8_t> m_pending;    //!< application data queued by Send()
    bool m_resumed{false};             //!< resumed session
    bool m_sentFinished{false};        //!< our Finished went out
    bool m_receivedFinished{false};    //!< the peer's Finished arrived
    bool m_closeSent{false};           //!< our close_notify went out
    int m_alert{-1};                   //!< alert sent (fatal) or received
    std::string m_error;               //!< the error
    uint64_t m_handshakeBytes{0};      //!< see GetHandshakeBytes
    uint64_t m_appSent{0};             //!< see GetAppBytesSent
    uint64_t m_appReceived{0};         //!< see GetAppBytesReceived
    uint64_t m_recordsSent{0};         //!< see GetRecordsSent
    uint64_t m_recordsReceived{0};     //!< see GetRecordsReceived
};

/**
 * \ingroup adc
 * \brief Reads both directions of a TLS connection without taking part (SSL_BRIDGE): the
 * session ID the ClientHello offers, the one the ServerHello gives (the SSLSESSION persistence
 * key), whether that resumes, and the SNI.
 *
 * Each direction is framed by its own AdcTlsRecordParser; a direction stops being read once
 * its hello was found (the rest is relayed unread) or on an error, which GetError() reports
 * (e.g. "client stream: AdcTlsRecordParser: record at stream byte 0: content type 71 ...").
 * Any input is safe: garbage only stops the looking.
 */
class AdcTlsObserver
{
  public:
    /// \param data bytes the client sent \param n their number
    void FeedFromClient(const uint8_t* data, std::size_t n)
    {
        Feed(true, data, n);
    }

    /// \overload \param bytes the bytes
    void FeedFromClient(const std::vector<uint8_t>& bytes)
    {
        Feed(true, bytes.data(), bytes.size());
    }

    /// \param data bytes the server sent \param n their number
    void FeedFromServer(const uint8_t* data, std::size_t n)
    {
        Feed(false, data, n);
    }

    /// \overload \param bytes the bytes
    void FeedFromServer(const std::vector<uint8_t>& bytes)
    {
        Feed(false, bytes.data(), bytes.size());
    }

    /// \return true once the ClientHello was read
    bool IsClientHelloSeen() const
    {
        return m_chSeen;
    }

    /// \return the session ID the ClientHello offered (empty: none or not seen)
    const std::vector<uint8_t>& GetOfferedSessionId() const
    {
        return m_ch.sessionId;
    }

    /// \return the ServerHello's session ID: the session the connection uses (empty: not seen)
    const std::vector<uint8_t>& GetSessionId() const
    {
        return m_sessionId;
    }

    /// \return true when the ServerHello echoed a non-empty offered ID
    bool IsResumed() const
    {
        return m_chSeen && m_shSeen && !m_ch.sessionId.empty() && m_ch.sessionId == m_sessionId;
    }

    /// \return true once the ServerHello was read
    bool IsHelloDone() const
    {
        return m_shSeen;
    }

    /// \return the SNI host_name of the ClientHello ("" none)
    std::string GetServerName() const
    {
        return m_serverName;
    }

    /// \return "" or what stopped the reading (both directions' errors, "; " between)
    std::string GetError() const;

    /// \return bytes fed from the client and from the server
    uint64_t GetBytesSeen() const
    {
        return m_bytes;
    }

  private:
    /// \param fromClient the direction \param data bytes \param n their number
    void Feed(bool fromClient, const uint8_t* data, std::size_t n);

    AdcTlsRecordParser m_client;      //!< client-to-server records
    AdcTlsRecordParser m_server;      //!< server-to-client records
    bool m_clientDone{false};         //!< stop reading the client direction
    bool m_serverDone{false};         //!< stop reading the server direction
    bool m_chSeen{false};             //!< ClientHello read
    bool m_shSeen{false};             //!< ServerHello read
    AdcTlsClientHello m_ch;           //!< the ClientHello
    std::vector<uint8_t> m_sessionId; //!< the ServerHello's ID
    std::string m_serverName;         //!< the SNI
    std::string m_clientError;        //!< the client direction's error
    std::string m_serverError;        //!< the server direction's error
    uint64_t m_bytes{0};              //!< see GetBytesSeen
};

} // namespace ns3

#endif /* ADC_TLS_ENDPOINT_H */
