/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: a sans-IO TLS 1.2 handshake endpoint and observer (RFC 5246).
 */

#include "adc-tls-endpoint.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <utility>

namespace ns3
{

namespace
{

// AlertDescription values (RFC 5246 section 7.2).
constexpr uint8_t kCloseNotify = 0;          //!< close_notify
constexpr uint8_t kUnexpectedMessage = 10;   //!< unexpected_message
constexpr uint8_t kRecordOverflow = 22;      //!< record_overflow
constexpr uint8_t kHandshakeFailure = 40;    //!< handshake_failure
constexpr uint8_t kIllegalParameter = 47;    //!< illegal_parameter
constexpr uint8_t kDecodeError = 50;         //!< decode_error
constexpr uint8_t kDecryptError = 51;        //!< decrypt_error
constexpr uint8_t kProtocolVersion = 70;     //!< protocol_version
constexpr uint8_t kWarning = 1;              //!< AlertLevel warning
constexpr uint8_t kFatal = 2;                //!< AlertLevel fatal
constexpr std::size_t kPremasterBytes = 256; //!< RSA-encrypted premaster of a 2048-bit key

/// \param x the state, advanced \return the next splitmix64 output
uint64_t
SplitMix(uint64_t& x)
{
    x += 0x9e3779b97f4a7c15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// \param type a handshake type \return "client_hello (1)" and so on
std::string
HandshakeName(uint8_t type)
{
    // clang-format off
    static const std::pair<uint8_t, const char*> kNames[] = {
        {0, "hello_request"}, {1, "client_hello"}, {2, "server_hello"}, {11, "certificate"},
        {12, "server_key_exchange"}, {13, "certificate_request"}, {14, "server_hello_done"},
        {15, "certificate_verify"}, {16, "client_key_exchange"}, {20, "finished"}};
    // clang-format on
    for (const auto& [t, name] : kNames)
    {
        if (t == type)
        {
            return std::string(name) + " (" + std::to_string(type) + ")";
        }
    }
    return "unknown type (" + std::to_string(type) + ")";
}

/// \param v a uint16 \return "0x" and 4 hex digits
std::string
Hex16(uint16_t v)
{
    return "0x" + AdcTlsToHex({static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v)});
}

/// \param b bytes \param at offset \return the big-endian uint16 there
uint16_t
U16(const std::vector<uint8_t>& b, std::size_t at)
{
    return static_cast<uint16_t>((b[at] << 8) | b[at + 1]);
}

/// \param b bytes \param at offset \return the big-endian uint24 there
uint32_t
U24(const std::vector<uint8_t>& b, std::size_t at)
{
    return (uint32_t{b[at]} << 16) | (uint32_t{b[at + 1]} << 8) | b[at + 2];
}

} // namespace

// ------------------------------------------------------------------------- AdcTlsEndpoint

AdcTlsEndpoint::AdcTlsEndpoint(Config config)
    : m_config(std::move(config)),
      m_state(m_config.role == CLIENT ? IDLE : WAIT_CLIENT_HELLO),
      m_rng(m_config.seed ^ (m_config.role == CLIENT ? 0x636c69656e74ULL : 0x736572766572ULL)),
      m_cipherSuite(m_config.cipherSuite)
{
    const std::string owner = "AdcTlsEndpoint(" + RoleName(m_config.role) + "): ";
    if (m_config.role == SERVER &&
        (!m_config.serverName.empty() || !m_config.resumeSessionId.empty()))
    {
        throw AdcConfigError(owner + "serverName '" + m_config.serverName + "' and a " +
                             std::to_string(m_config.resumeSessionId.size()) +
                             "-byte resumeSessionId are client settings; a server allows "
                             "neither (both must be empty)");
    }
    if (m_config.resumeSessionId.size() > AdcTlsClientHello::kMaxSessionId)
    {
        throw AdcConfigError(owner + "resumeSessionId of " +
                             std::to_string(m_config.resumeSessionId.size()) +
                             " bytes; allowed: 0 to 32 bytes (RFC 5246 session_id<0..32>)");
    }
    if (m_config.serverName.size() > 65530)
    {
        throw AdcConfigError(owner + "serverName of " + std::to_string(m_config.serverName.size()) +
                             " bytes; allowed: 0 (none) to 65530 bytes (RFC 6066 host_name)");
    }
    m_serverName = m_config.serverName;
}

std::string
AdcTlsEndpoint::RoleName(Role role)
{
    return role == CLIENT ? "client" : "server";
}

std::string
AdcTlsEndpoint::StateName(State state)
{
    // clang-format off
    static const char* kNames[] = {"IDLE", "WAIT_CLIENT_HELLO", "WAIT_SERVER_HELLO",
        "WAIT_CERTIFICATE", "WAIT_SERVER_HELLO_DONE", "WAIT_CLIENT_KEY_EXCHANGE",
        "WAIT_CHANGE_CIPHER_SPEC", "WAIT_FINISHED", "ESTABLISHED", "CLOSED", "FAILED"};
    // clang-format on
    return kNames[state];
}

std::string
AdcTlsEndpoint::AlertName(uint8_t description)
{
    // clang-format off
    static const std::pair<uint8_t, const char*> kNames[] = {
        {0, "close_notify"}, {10, "unexpected_message"}, {20, "bad_record_mac"},
        {22, "record_overflow"}, {40, "handshake_failure"}, {42, "bad_certificate"},
        {47, "illegal_parameter"}, {50, "decode_error"}, {51, "decrypt_error"},
        {70, "protocol_version"}, {80, "internal_error"}, {90, "user_canceled"},
        {100, "no_renegotiation"}};
    // clang-format on
    for (const auto& [d, name] : kNames)
    {
        if (d == description)
        {
            return std::string(name) + " (" + std::to_string(description) + ")";
        }
    }
    return "alert (" + std::to_string(description) + ")";
}

std::vector<uint8_t>
AdcTlsEndpoint::BuildAlert(uint8_t level, uint8_t description)
{
    return AdcTlsRecord::BuildRecords(AdcTlsRecord::ALERT, {level, description});
}

std::vector<uint8_t>
AdcTlsEndpoint::RandomBytes(std::size_t n)
{
    std::vector<uint8_t> out;
    out.reserve(n + 8);
    while (out.size() < n)
    {
        const uint64_t v = SplitMix(m_rng);
        for (int i = 0; i < 8 && out.size() < n; ++i)
        {
            out.push_back(static_cast<uint8_t>(v >> (8 * i)));
        }
    }
    return out;
}

void
AdcTlsEndpoint::CountSent(const std::vector<uint8_t>& records, bool appData)
{
    // Every record this endpoint builds is well formed: walk the headers.
    for (std::size_t at = 0; at + AdcTlsRecord::kHeaderBytes <= records.size();)
    {
        const std::size_t len = U16(records, at + 3);
        ++m_recordsSent;
        (appData ? m_appSent : m_handshakeBytes) +=
            len + (appData ? 0 : AdcTlsRecord::kHeaderBytes);
        at += AdcTlsRecord::kHeaderBytes + len;
    }
}

void
AdcTlsEndpoint::SendHandshake(const std::vector<AdcTlsHandshake>& messages,
                              std::vector<uint8_t>& out)
{
    std::vector<uint8_t> payload;
    for (const auto& m : messages)
    {
        const std::vector<uint8_t> wire = m.Encode();
        payload.insert(payload.end(), wire.begin(), wire.end());
        m_transcript.insert(m_transcript.end(), wire.begin(), wire.end());
    }
    const std::vector<uint8_t> rec = AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE, payload);
    CountSent(rec, false);
    out.insert(out.end(), rec.begin(), rec.end());
}

void
AdcTlsEndpoint::SendFinished(const std::string& label, std::vector<uint8_t>& out)
{
    const std::vector<uint8_t> ccs = AdcTlsRecord::BuildChangeCipherSpec();
    CountSent(ccs, false);
    out.insert(out.end(), ccs.begin(), ccs.end());
    SendHandshake({MakeFinished(label)}, out);
    m_sentFinished = true;
}

AdcTlsHandshake
AdcTlsEndpoint::MakeFinished(const std::string& label) const
{
    // Not the PRF of RFC 5246 section 7.4.9: FNV-1a over finished_label and the handshake
    // messages, expanded by splitmix64 to the 12 bytes of verify_data.
    uint64_t h = 0xcbf29ce484222325ULL;
    auto mix = [&h](uint8_t b) {
        h ^= b;
        h *= 0x100000001b3ULL;
    };
    for (char c : label)
    {
        mix(static_cast<uint8_t>(c));
    }
    for (uint8_t b : m_transcript)
    {
        mix(b);
    }
    std::array<uint8_t, AdcTlsHandshake::kVerifyDataBytes> v{};
    uint64_t x = h;
    for (std::size_t i = 0; i < v.size(); i += 8)
    {
        const uint64_t r = SplitMix(x);
        for (std::size_t j = 0; j < 8 && i + j < v.size(); ++j)
        {
            v[i + j] = static_cast<uint8_t>(r >> (8 * j));
        }
    }
    return AdcTlsHandshake::Finished(v);
}

std::vector<uint8_t>
AdcTlsEndpoint::Start()
{
    std::vector<uint8_t> out;
    if (m_config.role != CLIENT || m_state != IDLE)
    {
        return out;
    }
    AdcTlsClientHello ch;
    const std::vector<uint8_t> random = RandomBytes(32);
    std::copy(random.begin(), random.end(), ch.random.begin());
    ch.sessionId = m_config.resumeSessionId;
    ch.cipherSuites = {m_config.cipherSuite};
    if (!m_config.serverName.empty())
    {
        ch.SetServerName(m_config.serverName);
    }
    m_offeredId = ch.sessionId;
    AdcTlsHandshake m;
    m.type = AdcTlsHandshake::CLIENT_HELLO;
    m.body = ch.Encode();
    SendHandshake({m}, out);
    m_state = WAIT_SERVER_HELLO;
    return out;
}

std::string
AdcTlsEndpoint::Expecting() const
{
    // The handshake type each state waits for (section 7.3), by State's order.
    static const uint8_t kWant[] = {0, 1, 2, 11, 14, 16, 20, 20};
    if (m_state == IDLE || m_state > WAIT_FINISHED)
    {
        return m_state == IDLE ? "nothing before Start()" : "application_data (23) or alert (21)";
    }
    return m_state == WAIT_CHANGE_CIPHER_SPEC ? "change_cipher_spec (20)"
                                              : HandshakeName(kWant[m_state]);
}

void
AdcTlsEndpoint::Fail(uint8_t description, const std::string& what, Result& out)
{
    const std::vector<uint8_t> alert = BuildAlert(kFatal, description);
    CountSent(alert, false);
    out.toPeer.insert(out.toPeer.end(), alert.begin(), alert.end());
    m_error = "AdcTlsEndpoint(" + RoleName(m_config.role) + "): " + what + "; sent fatal alert " +
              AlertName(description);
    m_alert = description;
    m_state = FAILED;
    m_pending.clear();
}

AdcTlsEndpoint::Result
AdcTlsEndpoint::Receive(const uint8_t* data, std::size_t n)
{
    Result out;
    const bool wasEstablished = IsEstablished();
    std::size_t at = 0;
    while (at < n && m_state != FAILED && m_state != CLOSED)
    {
        // Collect one whole record, then hand exactly that record to the parser, so that the
        // handshake messages it completes are taken in stream order.
        const std::size_t need =
            m_record.size() < AdcTlsRecord::kHeaderBytes
                ? AdcTlsRecord::kHeaderBytes - m_record.size()
                : AdcTlsRecord::kHeaderBytes + U16(m_record, 3) - m_record.size();
        const std::size_t take = std::min(need, n - at);
        m_record.insert(m_record.end(), data + at, data + at + take);
        at += take;
        if (m_record.size() < AdcTlsRecord::kHeaderBytes)
        {
            break;
        }
        const uint8_t type = m_record[0];
        const std::size_t length = U16(m_record, 3);
        if (m_record.size() == AdcTlsRecord::kHeaderBytes)
        {
            if (type < AdcTlsRecord::CHANGE_CIPHER_SPEC || type > AdcTlsRecord::APPLICATION_DATA)
            {
                Fail(kUnexpectedMessage,
                     "received a record of content type " + std::to_string(type) +
                         " (allowed: 20 to 23) while expecting " + Expecting(),
                     out);
                break;
            }
            if (length > AdcTlsRecord::kMaxPlaintext)
            {
                Fail(kRecordOverflow,
                     "received a " + AdcTlsRecord::ContentTypeName(type) + " record of length " +
                         std::to_string(length) + " (allowed: at most 16384, 2^14)",
                     out);
                break;
            }
        }
        if (m_record.size() < AdcTlsRecord::kHeaderBytes + length)
        {
            continue;
        }
        std::vector<AdcTlsRecord> records = m_parser.Feed(m_record);
        m_record.clear();
        if (m_parser.HasError())
        {
            Fail(kDecodeError,
                 "received a malformed record while expecting " + Expecting() + ": " +
                     m_parser.GetError(),
                 out);
            break;
        }
        for (const auto& rec : records)
        {
            ++m_recordsReceived;
            const bool app = rec.type == AdcTlsRecord::APPLICATION_DATA;
            (app ? m_appReceived : m_handshakeBytes) +=
                rec.fragment.size() + (app ? 0 : AdcTlsRecord::kHeaderBytes);
            OnRecord(rec, out);
        }
    }
    if (CanSend() && !m_pending.empty())
    {
        std::vector<uint8_t> pending;
        pending.swap(m_pending);
        const std::vector<uint8_t> rec = Send(pending.data(), pending.size());
        out.toPeer.insert(out.toPeer.end(), rec.begin(), rec.end());
    }
    out.justEstablished = !wasEstablished && IsEstablished();
    return out;
}

void
AdcTlsEndpoint::OnRecord(const AdcTlsRecord& rec, Result& out)
{
    switch (rec.type)
    {
    case AdcTlsRecord::ALERT:
        OnAlert(rec.fragment, out);
        return;
    case AdcTlsRecord::CHANGE_CIPHER_SPEC:
        if (m_state != WAIT_CHANGE_CIPHER_SPEC)
        {
            Fail(kUnexpectedMessage,
                 "received change_cipher_spec (20) while expecting " + Expecting(),
                 out);
        }
        else if (m_parser.HasPartial())
        {
            Fail(kUnexpectedMessage,
                 "received change_cipher_spec (20) inside an unfinished handshake message",
                 out);
        }
        else
        {
            m_state = WAIT_FINISHED;
        }
        return;
    case AdcTlsRecord::APPLICATION_DATA:
        if (!m_receivedFinished || m_state != ESTABLISHED)
        {
            Fail(kUnexpectedMessage,
                 "received application_data (23) while expecting " + Expecting(),
                 out);
            return;
        }
        out.appData.insert(out.appData.end(), rec.fragment.begin(), rec.fragment.end());
        return;
    default: // handshake
        if (m_state == WAIT_FINISHED)
        {
            OnFinished(rec.fragment, out);
            return;
        }
        if (m_parser.IsAfterChangeCipherSpec())
        {
            Fail(kUnexpectedMessage,
                 "received a handshake record after the handshake while expecting " + Expecting(),
                 out);
            return;
        }
        for (const auto& m : m_parser.TakeHandshakes())
        {
            if (m_state == FAILED)
            {
                return;
            }
            OnHandshake(m, out);
        }
    }
}

void
AdcTlsEndpoint::OnAlert(const std::vector<uint8_t>& alert, Result& out)
{
    if (alert.size() != 2)
    {
        Fail(kDecodeError,
             "received an alert of " + std::to_string(alert.size()) +
                 " bytes (an Alert is 2 bytes: level and description)",
             out);
        return;
    }
    m_alert = alert[1];
    if (alert[1] == kCloseNotify)
    {
        m_state = CLOSED;
        m_pending.clear();
        if (!m_closeSent)
        {
            const std::vector<uint8_t> close = Close();
            out.toPeer.insert(out.toPeer.end(), close.begin(), close.end());
        }
        return;
    }
    if (alert[0] == kWarning)
    {
        return; // counted, ignored
    }
    m_error = "AdcTlsEndpoint(" + RoleName(m_config.role) + "): received " +
              (alert[0] == kFatal ? "fatal" : "level " + std::to_string(alert[0])) + " alert " +
              AlertName(alert[1]) + " while expecting " + Expecting();
    m_state = FAILED;
    m_pending.clear();
}

void
AdcTlsEndpoint::OnHandshake(const AdcTlsHandshake& m, Result& out)
{
    const bool client = m_config.role == CLIENT;
    if (m.type == AdcTlsHandshake::CLIENT_HELLO && m_state == WAIT_CLIENT_HELLO)
    {
        OnClientHello(m, out);
        return;
    }
    if (m.type == AdcTlsHandshake::SERVER_HELLO && m_state == WAIT_SERVER_HELLO)
    {
        OnServerHello(m, out);
        return;
    }
    const std::vector<uint8_t> wire = m.Encode();
    if (client && m.type == AdcTlsHandshake::CERTIFICATE && m_state == WAIT_CERTIFICATE)
    {
        // certificate_list<0..2^24-1>: each entry an ASN.1Cert<1..2^24-1> (section 7.4.2).
        const auto& b = m.body;
        bool ok = b.size() >= 3 && U24(b, 0) == b.size() - 3;
        for (std::size_t at = 3; ok && at < b.size();)
        {
            ok = at + 3 <= b.size() && U24(b, at) >= 1 && at + 3 + U24(b, at) <= b.size();
            at += ok ? 3 + U24(b, at) : 0;
        }
        if (!ok)
        {
            const std::string size = std::to_string(b.size());
            Fail(kDecodeError,
                 "received a certificate (11) of " + size + " bytes, bad lengths",
                 out);
            return;
        }
        m_transcript.insert(m_transcript.end(), wire.begin(), wire.end());
        m_state = WAIT_SERVER_HELLO_DONE;
        return;
    }
    if (client && m.type == AdcTlsHandshake::SERVER_HELLO_DONE && m_state == WAIT_SERVER_HELLO_DONE)
    {
        if (!m.body.empty())
        {
            Fail(kDecodeError,
                 "received a server_hello_done (14) of " + std::to_string(m.body.size()) +
                     " bytes (its body is empty)",
                 out);
            return;
        }
        m_transcript.insert(m_transcript.end(), wire.begin(), wire.end());
        // ClientKeyExchange, RSA form: EncryptedPreMasterSecret<0..2^16-1> (section 7.4.7.1).
        AdcTlsHandshake cke;
        cke.type = AdcTlsHandshake::CLIENT_KEY_EXCHANGE;
        cke.body = {static_cast<uint8_t>(kPremasterBytes >> 8),
                    static_cast<uint8_t>(kPremasterBytes & 0xff)};
        const std::vector<uint8_t> premaster = RandomBytes(kPremasterBytes);
        cke.body.insert(cke.body.end(), premaster.begin(), premaster.end());
        SendHandshake({cke}, out.toPeer);
        SendFinished("client finished", out.toPeer);
        m_state = WAIT_CHANGE_CIPHER_SPEC;
        return;
    }
    if (!client && m.type == AdcTlsHandshake::CLIENT_KEY_EXCHANGE &&
        m_state == WAIT_CLIENT_KEY_EXCHANGE)
    {
        if (m.body.size() < 3 || U16(m.body, 0) != m.body.size() - 2)
        {
            Fail(kDecodeError,
                 "received a client_key_exchange (16) of " + std::to_string(m.body.size()) +
                     " bytes that is not a 2-byte length and that many (at least 1) bytes",
                 out);
            return;
        }
        m_transcript.insert(m_transcript.end(), wire.begin(), wire.end());
        m_state = WAIT_CHANGE_CIPHER_SPEC;
        return;
    }
    Fail(kUnexpectedMessage,
         "received handshake message " + HandshakeName(m.type) + " while expecting " + Expecting(),
         out);
}

void
AdcTlsEndpoint::OnClientHello(const AdcTlsHandshake& m, Result& out)
{
    AdcTlsClientHello ch;
    try
    {
        ch = AdcTlsClientHello::Parse(m.body);
        m_serverName = ch.GetServerName();
    }
    catch (const AdcConfigError& e)
    {
        Fail(kDecodeError, std::string("received a malformed client_hello (1): ") + e.what(), out);
        return;
    }
    if (ch.clientVersion < AdcTlsRecord::kTls12)
    {
        Fail(kProtocolVersion,
             "received a client_hello (1) with client_version " + Hex16(ch.clientVersion) +
                 " (allowed: 0x0303, TLS 1.2, or above)",
             out);
        return;
    }
    const bool suite =
        std::find(ch.cipherSuites.begin(), ch.cipherSuites.end(), m_config.cipherSuite) !=
        ch.cipherSuites.end();
    const bool nullCompression =
        std::find(ch.compressionMethods.begin(), ch.compressionMethods.end(), 0) !=
        ch.compressionMethods.end();
    if (!suite || !nullCompression)
    {
        Fail(kHandshakeFailure,
             "received a client_hello (1) without " +
                 std::string(!suite ? "cipher suite " + Hex16(m_config.cipherSuite)
                                    : "null compression (0)") +
                 " (the only one this server accepts)",
             out);
        return;
    }
    const std::vector<uint8_t> wire = m.Encode();
    m_transcript.insert(m_transcript.end(), wire.begin(), wire.end());
    m_offeredId = ch.sessionId;

    AdcTlsServerHello sh;
    const std::vector<uint8_t> random = RandomBytes(32);
    std::copy(random.begin(), random.end(), sh.random.begin());
    sh.cipherSuite = m_config.cipherSuite;
    m_resumed = !ch.sessionId.empty() && m_config.canResume && m_config.canResume(ch.sessionId);
    if (m_resumed)
    {
        sh.sessionId = ch.sessionId;
    }
    else
    {
        do // a new session never takes the ID offered (the client would think it resumed)
        {
            sh.sessionId = RandomBytes(32);
        } while (sh.sessionId == ch.sessionId);
    }
    m_sessionId = sh.sessionId;
    AdcTlsHandshake shm;
    shm.type = AdcTlsHandshake::SERVER_HELLO;
    shm.body = sh.Encode();
    if (m_resumed)
    {
        SendHandshake({shm}, out.toPeer);
        SendFinished("server finished", out.toPeer);
        m_state = WAIT_CHANGE_CIPHER_SPEC;
        return;
    }
    AdcTlsHandshake cert; // an empty certificate_list: uint24 length 0
    cert.type = AdcTlsHandshake::CERTIFICATE;
    cert.body = {0, 0, 0};
    SendHandshake({shm, cert, AdcTlsHandshake::ServerHelloDone()}, out.toPeer);
    m_state = WAIT_CLIENT_KEY_EXCHANGE;
}

void
AdcTlsEndpoint::OnServerHello(const AdcTlsHandshake& m, Result& out)
{
    AdcTlsServerHello sh;
    try
    {
        sh = AdcTlsServerHello::Parse(m.body);
    }
    catch (const AdcConfigError& e)
    {
        Fail(kDecodeError, std::string("received a malformed server_hello (2): ") + e.what(), out);
        return;
    }
    if (sh.serverVersion != AdcTlsRecord::kTls12 || sh.cipherSuite != m_config.cipherSuite ||
        sh.compressionMethod != 0)
    {
        Fail(kIllegalParameter,
             "received a server_hello (2) choosing version " + Hex16(sh.serverVersion) +
                 ", cipher suite " + Hex16(sh.cipherSuite) + ", compression " +
                 std::to_string(sh.compressionMethod) +
                 " (offered: 0x0303, the configured suite, 0)",
             out);
        return;
    }
    const std::vector<uint8_t> wire = m.Encode();
    m_transcript.insert(m_transcript.end(), wire.begin(), wire.end());
    m_sessionId = sh.sessionId;
    m_cipherSuite = sh.cipherSuite;
    m_resumed = !m_offeredId.empty() && sh.sessionId == m_offeredId;
    m_state = m_resumed ? WAIT_CHANGE_CIPHER_SPEC : WAIT_CERTIFICATE;
}

void
AdcTlsEndpoint::OnFinished(const std::vector<uint8_t>& fragment, Result& out)
{
    const std::size_t size = AdcTlsHandshake::kHeaderBytes + AdcTlsHandshake::kVerifyDataBytes;
    if (fragment.size() != size || fragment[0] != AdcTlsHandshake::FINISHED ||
        U24(fragment, 1) != AdcTlsHandshake::kVerifyDataBytes)
    {
        Fail(kDecodeError,
             "received a handshake record of " + std::to_string(fragment.size()) +
                 " bytes after change_cipher_spec while expecting " + Expecting() +
                 " whole in one record (16 bytes: type 20, length 12, verify_data)",
             out);
        return;
    }
    const bool client = m_config.role == CLIENT;
    const AdcTlsHandshake expected = MakeFinished(client ? "server finished" : "client finished");
    if (expected.Encode() != fragment)
    {
        Fail(kDecryptError, "received a finished (20) whose verify_data does not match", out);
        return;
    }
    m_transcript.insert(m_transcript.end(), fragment.begin(), fragment.end());
    m_receivedFinished = true;
    if (!m_sentFinished) // client resuming, server in a full handshake: answer
    {
        SendFinished(client ? "client finished" : "server finished", out.toPeer);
    }
    m_state = ESTABLISHED;
}

std::vector<uint8_t>
AdcTlsEndpoint::Send(const uint8_t* data, std::size_t n)
{
    if (n == 0 || m_state == FAILED || m_state == CLOSED || m_closeSent)
    {
        return {};
    }
    if (!CanSend())
    {
        m_pending.insert(m_pending.end(), data, data + n);
        return {};
    }
    const std::vector<uint8_t> rec =
        AdcTlsRecord::BuildRecords(AdcTlsRecord::APPLICATION_DATA,
                                   std::vector<uint8_t>(data, data + n));
    CountSent(rec, true);
    return rec;
}

std::vector<uint8_t>
AdcTlsEndpoint::Close()
{
    if (m_closeSent || m_state == FAILED)
    {
        return {};
    }
    m_closeSent = true;
    m_pending.clear();
    const std::vector<uint8_t> alert = BuildAlert(kWarning, kCloseNotify);
    CountSent(alert, false);
    return alert;
}

bool
AdcTlsEndpoint::CanSend() const
{
    if (m_state == FAILED || m_state == CLOSED || m_closeSent || !m_sentFinished)
    {
        return false;
    }
    return m_config.role == SERVER || m_receivedFinished;
}

// ------------------------------------------------------------------------- AdcTlsObserver

void
AdcTlsObserver::Feed(bool fromClient, const uint8_t* data, std::size_t n)
{
    m_bytes += n;
    bool& done = fromClient ? m_clientDone : m_serverDone;
    if (done || n == 0)
    {
        return;
    }
    AdcTlsRecordParser& parser = fromClient ? m_client : m_server;
    std::string& error = fromClient ? m_clientError : m_serverError;
    const std::string prefix = fromClient ? "client stream: " : "server stream: ";
    parser.Feed(data, n);
    const uint8_t want = fromClient ? AdcTlsHandshake::CLIENT_HELLO : AdcTlsHandshake::SERVER_HELLO;
    for (const auto& m : parser.TakeHandshakes())
    {
        if (m.type != want)
        {
            error = prefix + "the first handshake message is " + HandshakeName(m.type) + ", not " +
                    HandshakeName(want);
            done = true;
            return;
        }
        try
        {
            if (fromClient)
            {
                m_ch = AdcTlsClientHello::Parse(m.body);
                m_chSeen = true;
                m_serverName = m_ch.GetServerName();
            }
            else
            {
                m_sessionId = AdcTlsServerHello::Parse(m.body).GetSessionId();
                m_shSeen = true;
            }
        }
        catch (const AdcConfigError& e)
        {
            error = prefix + e.what();
        }
        done = true; // the hello was found: the rest is relayed unread
        return;
    }
    if (parser.HasError())
    {
        error = prefix + parser.GetError();
        done = true;
    }
    else if (parser.IsAfterChangeCipherSpec())
    {
        error = prefix + "change_cipher_spec before the " + HandshakeName(want);
        done = true;
    }
}

std::string
AdcTlsObserver::GetError() const
{
    const std::string sep = m_clientError.empty() || m_serverError.empty() ? "" : "; ";
    return m_clientError + sep + m_serverError;
}

} // namespace ns3
