/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc shared wire format: TLS 1.2 record and handshake framing (RFC 5246).
 */

#include "adc-tls-record.h"

#include "adc-wire-bytes.h"

#include "ns3/adc-config-error.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// \param v a value \return it in hex, "0x" and at least \p digits digits
std::string
Hex(uint32_t v, int digits = 4)
{
    std::ostringstream os;
    os << "0x" << std::hex;
    os.width(digits);
    os.fill('0');
    os << v;
    return os.str();
}

/// Appends big-endian integers and length-prefixed vectors, checking each length bound.
class Writer
{
  public:
    /// \param owner the error prefix, e.g. "AdcTlsClientHello"
    explicit Writer(const std::string& owner)
        : m_owner(owner)
    {
    }

    /// \param v a byte
    void U8(uint8_t v)
    {
        m_out.push_back(v);
    }

    /// \param v a big-endian uint16
    void U16(uint16_t v)
    {
        AdcPutU16(m_out, v);
    }

    /// \param v a big-endian uint24
    void U24(uint32_t v)
    {
        AdcPutU24(m_out, v);
    }

    /// \param b bytes
    void Bytes(const std::vector<uint8_t>& b)
    {
        m_out.insert(m_out.end(), b.begin(), b.end());
    }

    /**
     * \brief A vector with a 1- or 2-byte length prefix.
     * \param field its name \param b its bytes \param prefix 1 or 2 \param min \param max
     */
    void Vector(const std::string& field,
                const std::vector<uint8_t>& b,
                int prefix,
                std::size_t min,
                std::size_t max)
    {
        Check(field, b.size(), min, max);
        if (prefix == 1)
        {
            U8(static_cast<uint8_t>(b.size()));
        }
        else
        {
            U16(static_cast<uint16_t>(b.size()));
        }
        Bytes(b);
    }

    /// \brief Throw unless min <= n <= max. \param field \param n \param min \param max
    void Check(const std::string& field, std::size_t n, std::size_t min, std::size_t max) const
    {
        if (n < min || n > max)
        {
            throw AdcConfigError(m_owner + ": " + field + " length " + std::to_string(n) +
                                 " is not in " + std::to_string(min) + ".." + std::to_string(max) +
                                 " bytes");
        }
    }

    /// \return the bytes written
    std::vector<uint8_t>& Out()
    {
        return m_out;
    }

  private:
    std::string m_owner;        //!< error prefix
    std::vector<uint8_t> m_out; //!< the bytes
};

/// Reads big-endian fields from a body, throwing AdcConfigError with the field's position.
class Reader
{
  public:
    /// \param owner error prefix \param data bytes \param size their number
    Reader(const std::string& owner, const uint8_t* data, std::size_t size)
        : m_owner(owner),
          m_data(data),
          m_size(size)
    {
    }

    /// \return the current position
    std::size_t Pos() const
    {
        return m_pos;
    }

    /// \return the bytes left
    std::size_t Left() const
    {
        return m_size - m_pos;
    }

    /// \param field name \param n bytes needed \return throws when fewer are left
    void Need(const std::string& field, std::size_t n) const
    {
        if (n > Left())
        {
            Fail(field,
                 "needs " + std::to_string(n) + " bytes but " + std::to_string(Left()) +
                     " remain (a length past the end)");
        }
    }

    /// \param field name \return a byte
    uint8_t U8(const std::string& field)
    {
        Need(field, 1);
        return m_data[m_pos++];
    }

    /// \param field name \return a big-endian uint16
    uint16_t U16(const std::string& field)
    {
        Need(field, 2);
        uint16_t v = static_cast<uint16_t>((m_data[m_pos] << 8) | m_data[m_pos + 1]);
        m_pos += 2;
        return v;
    }

    /// \param field name \param n count \return n bytes
    std::vector<uint8_t> Bytes(const std::string& field, std::size_t n)
    {
        Need(field, n);
        std::vector<uint8_t> b(m_data + m_pos, m_data + m_pos + n);
        m_pos += n;
        return b;
    }

    /**
     * \brief A vector with a 1- or 2-byte length prefix, its length in [min, max].
     * \param field name \param prefix 1 or 2 \param min \param max \return its bytes
     */
    std::vector<uint8_t> Vector(const std::string& field,
                                int prefix,
                                std::size_t min,
                                std::size_t max)
    {
        const std::size_t at = m_pos;
        const std::size_t n = prefix == 1 ? U8(field + " length") : U16(field + " length");
        if (n < min || n > max)
        {
            FailAt(at,
                   field,
                   "length " + std::to_string(n) + " is not in " + std::to_string(min) + ".." +
                       std::to_string(max) + " bytes");
        }
        return Bytes(field, n);
    }

    /// \param field name \param what the problem
    [[noreturn]] void Fail(const std::string& field, const std::string& what) const
    {
        FailAt(m_pos, field, what);
    }

    /// \param at position \param field name \param what the problem
    [[noreturn]] void FailAt(std::size_t at,
                             const std::string& field,
                             const std::string& what) const
    {
        throw AdcConfigError(m_owner + ": " + field + " at byte " + std::to_string(at) + ": " +
                             what);
    }

  private:
    std::string m_owner;   //!< error prefix
    const uint8_t* m_data; //!< the bytes
    std::size_t m_size;    //!< their number
    std::size_t m_pos{0};  //!< read position
};

/// \param owner error prefix \param w writer \param hasExtensions \param extensions the
/// block (types must be distinct)
void
WriteExtensions(const std::string& owner,
                Writer& w,
                bool hasExtensions,
                const std::vector<AdcTlsExtension>& extensions)
{
    if (!hasExtensions)
    {
        if (!extensions.empty())
        {
            throw AdcConfigError(owner + ": extensions given while hasExtensions is false");
        }
        return;
    }
    Writer block(owner);
    std::set<uint16_t> seen;
    for (const auto& e : extensions)
    {
        if (!seen.insert(e.type).second)
        {
            throw AdcConfigError(owner + ": extension type " + std::to_string(e.type) +
                                 " appears twice (RFC 5246 section 7.4.1.4 allows one of each)");
        }
        block.U16(e.type);
        block.Vector("extension_data", e.data, 2, 0, 0xffff);
    }
    w.Vector("extensions", block.Out(), 2, 0, 0xffff);
}

/// \param owner error prefix \param r reader at the extensions block or the end
/// \param[out] has \param[out] extensions
void
ReadExtensions(const std::string& owner,
               Reader& r,
               bool& has,
               std::vector<AdcTlsExtension>& extensions)
{
    has = r.Left() > 0;
    extensions.clear();
    if (!has)
    {
        return;
    }
    const std::size_t blockAt = r.Pos() + 2;
    const std::vector<uint8_t> block = r.Vector("extensions", 2, 0, 0xffff);
    if (r.Left() != 0)
    {
        r.Fail("end of hello",
               std::to_string(r.Left()) + " bytes follow the extensions (none are allowed)");
    }
    Reader b(owner + " extensions block", block.data(), block.size());
    std::set<uint16_t> seen;
    while (b.Left() > 0)
    {
        const std::size_t at = blockAt + b.Pos();
        AdcTlsExtension e;
        e.type = b.U16("extension_type");
        e.data = b.Vector("extension_data", 2, 0, 0xffff);
        if (!seen.insert(e.type).second)
        {
            r.FailAt(at,
                     "extension_type",
                     std::to_string(e.type) +
                         " appears twice (RFC 5246 section 7.4.1.4 allows one of each)");
        }
        extensions.push_back(std::move(e));
    }
}

/// \param type content type \return true for 20..23
bool
KnownType(uint8_t type)
{
    return type >= AdcTlsRecord::CHANGE_CIPHER_SPEC && type <= AdcTlsRecord::APPLICATION_DATA;
}

/// \param version record version \return true for {3,0}..{3,3}
bool
KnownVersion(uint16_t version)
{
    return (version >> 8) == 3 && (version & 0xff) <= 3;
}

const char* const kAllowedTypes =
    "20 (change_cipher_spec), 21 (alert), 22 (handshake), 23 (application_data)";
const char* const kAllowedVersions = "0x0300..0x0303 (major 3, minor 0..3; TLS 1.2 is 0x0303)";

} // namespace

// ------------------------------------------------------------------------------ records

std::string
AdcTlsRecord::ContentTypeName(uint8_t type)
{
    switch (type)
    {
    case CHANGE_CIPHER_SPEC:
        return "change_cipher_spec";
    case ALERT:
        return "alert";
    case HANDSHAKE:
        return "handshake";
    case APPLICATION_DATA:
        return "application_data";
    default:
        return "";
    }
}

std::vector<uint8_t>
AdcTlsRecord::Encode() const
{
    if (!KnownType(type))
    {
        throw AdcConfigError("AdcTlsRecord: content type " + std::to_string(type) +
                             " is not one of " + kAllowedTypes);
    }
    if (!KnownVersion(version))
    {
        throw AdcConfigError("AdcTlsRecord: version " + Hex(version) + " is not one of " +
                             kAllowedVersions);
    }
    Writer w("AdcTlsRecord");
    w.U8(type);
    w.U16(version);
    w.Vector("fragment", fragment, 2, 0, kMaxFragment);
    return std::move(w.Out());
}

bool
AdcTlsRecord::operator==(const AdcTlsRecord& other) const
{
    return type == other.type && version == other.version && fragment == other.fragment;
}

std::vector<uint8_t>
AdcTlsRecord::BuildRecords(uint8_t type, const std::vector<uint8_t>& payload, uint16_t version)
{
    if (payload.empty() && type != APPLICATION_DATA)
    {
        throw AdcConfigError(
            "AdcTlsRecord: a " +
            (KnownType(type) ? ContentTypeName(type) : "type " + std::to_string(type)) +
            " record may not be empty (RFC 5246 section 6.2.1 allows "
            "zero-length fragments for application_data only)");
    }
    std::vector<uint8_t> out;
    std::size_t at = 0;
    do
    {
        const std::size_t n = std::min(kMaxPlaintext, payload.size() - at);
        AdcTlsRecord r;
        r.type = type;
        r.version = version;
        r.fragment.assign(payload.begin() + at, payload.begin() + at + n);
        const auto bytes = r.Encode();
        out.insert(out.end(), bytes.begin(), bytes.end());
        at += n;
    } while (at < payload.size());
    return out;
}

std::vector<uint8_t>
AdcTlsRecord::BuildChangeCipherSpec()
{
    return BuildRecords(CHANGE_CIPHER_SPEC, {1});
}

// ------------------------------------------------------------------------------ handshake

std::vector<uint8_t>
AdcTlsHandshake::Encode() const
{
    Writer w("AdcTlsHandshake");
    w.Check("body", body.size(), 0, kMaxBody);
    w.U8(type);
    w.U24(static_cast<uint32_t>(body.size()));
    w.Bytes(body);
    return std::move(w.Out());
}

bool
AdcTlsHandshake::operator==(const AdcTlsHandshake& other) const
{
    return type == other.type && body == other.body;
}

AdcTlsHandshake
AdcTlsHandshake::ServerHelloDone()
{
    AdcTlsHandshake h;
    h.type = SERVER_HELLO_DONE;
    return h;
}

AdcTlsHandshake
AdcTlsHandshake::Finished(const std::array<uint8_t, kVerifyDataBytes>& verifyData)
{
    AdcTlsHandshake h;
    h.type = FINISHED;
    h.body.assign(verifyData.begin(), verifyData.end());
    return h;
}

bool
AdcTlsExtension::operator==(const AdcTlsExtension& other) const
{
    return type == other.type && data == other.data;
}

// ------------------------------------------------------------------------------ ClientHello

std::vector<uint8_t>
AdcTlsClientHello::Encode() const
{
    Writer w("AdcTlsClientHello");
    w.U16(clientVersion);
    w.Bytes(std::vector<uint8_t>(random.begin(), random.end()));
    w.Vector("session_id", sessionId, 1, 0, kMaxSessionId);
    w.Check("cipher_suites", cipherSuites.size() * 2, 2, 0xfffe);
    w.U16(static_cast<uint16_t>(cipherSuites.size() * 2));
    for (uint16_t s : cipherSuites)
    {
        w.U16(s);
    }
    w.Vector("compression_methods", compressionMethods, 1, 1, 0xff);
    WriteExtensions("AdcTlsClientHello", w, hasExtensions, extensions);
    return std::move(w.Out());
}

AdcTlsClientHello
AdcTlsClientHello::Parse(const std::vector<uint8_t>& body)
{
    Reader r("AdcTlsClientHello", body.data(), body.size());
    AdcTlsClientHello h;
    h.clientVersion = r.U16("client_version");
    const auto random = r.Bytes("random", 32);
    std::copy(random.begin(), random.end(), h.random.begin());
    h.sessionId = r.Vector("session_id", 1, 0, kMaxSessionId);
    const std::size_t suitesAt = r.Pos();
    const auto suites = r.Vector("cipher_suites", 2, 2, 0xfffe);
    if (suites.size() % 2 != 0)
    {
        r.FailAt(suitesAt,
                 "cipher_suites",
                 "length " + std::to_string(suites.size()) + " is odd (each suite is 2 bytes)");
    }
    h.cipherSuites.clear();
    for (std::size_t i = 0; i < suites.size(); i += 2)
    {
        h.cipherSuites.push_back(static_cast<uint16_t>((suites[i] << 8) | suites[i + 1]));
    }
    h.compressionMethods = r.Vector("compression_methods", 1, 1, 0xff);
    ReadExtensions("AdcTlsClientHello", r, h.hasExtensions, h.extensions);
    h.GetServerName(); // a malformed server_name is an error of the hello
    return h;
}

const std::vector<uint8_t>&
AdcTlsClientHello::GetSessionId() const
{
    return sessionId;
}

std::string
AdcTlsClientHello::GetServerName() const
{
    for (const auto& e : extensions)
    {
        if (e.type != AdcTlsExtension::kServerName)
        {
            continue;
        }
        // RFC 6066 section 3: ServerNameList server_name_list<1..2^16-1>; each ServerName is
        // name_type (0 = host_name) and HostName<1..2^16-1>. A ServerHello carries the
        // extension empty; a ClientHello carries the list.
        Reader r("AdcTlsClientHello server_name", e.data.data(), e.data.size());
        const auto list = r.Vector("server_name_list", 2, 1, 0xffff);
        if (r.Left() != 0)
        {
            r.Fail("server_name", "bytes follow the server_name_list");
        }
        Reader l("AdcTlsClientHello server_name_list", list.data(), list.size());
        std::string host;
        while (l.Left() > 0)
        {
            const uint8_t nameType = l.U8("name_type");
            const auto name = l.Vector("HostName", 2, 1, 0xffff);
            if (nameType == 0)
            {
                if (!host.empty())
                {
                    l.Fail("name_type", "two host_name entries (RFC 6066 allows one)");
                }
                host.assign(name.begin(), name.end());
            }
        }
        return host;
    }
    return "";
}

void
AdcTlsClientHello::SetServerName(const std::string& hostName)
{
    if (hostName.empty() || hostName.size() > 0xffff - 5)
    {
        throw AdcConfigError("AdcTlsClientHello: server_name host_name length " +
                             std::to_string(hostName.size()) + " is not in 1..65530 bytes");
    }
    AdcTlsExtension e;
    e.type = AdcTlsExtension::kServerName;
    Writer w("AdcTlsClientHello");
    w.U16(static_cast<uint16_t>(hostName.size() + 3));
    w.U8(0);
    w.U16(static_cast<uint16_t>(hostName.size()));
    w.Bytes(std::vector<uint8_t>(hostName.begin(), hostName.end()));
    e.data = std::move(w.Out());
    hasExtensions = true;
    for (auto& x : extensions)
    {
        if (x.type == AdcTlsExtension::kServerName)
        {
            x = e;
            return;
        }
    }
    extensions.insert(extensions.begin(), e);
}

bool
AdcTlsClientHello::operator==(const AdcTlsClientHello& o) const
{
    return clientVersion == o.clientVersion && random == o.random && sessionId == o.sessionId &&
           cipherSuites == o.cipherSuites && compressionMethods == o.compressionMethods &&
           hasExtensions == o.hasExtensions && extensions == o.extensions;
}

// ------------------------------------------------------------------------------ ServerHello

std::vector<uint8_t>
AdcTlsServerHello::Encode() const
{
    Writer w("AdcTlsServerHello");
    w.U16(serverVersion);
    w.Bytes(std::vector<uint8_t>(random.begin(), random.end()));
    w.Vector("session_id", sessionId, 1, 0, AdcTlsClientHello::kMaxSessionId);
    w.U16(cipherSuite);
    w.U8(compressionMethod);
    WriteExtensions("AdcTlsServerHello", w, hasExtensions, extensions);
    return std::move(w.Out());
}

AdcTlsServerHello
AdcTlsServerHello::Parse(const std::vector<uint8_t>& body)
{
    Reader r("AdcTlsServerHello", body.data(), body.size());
    AdcTlsServerHello h;
    h.serverVersion = r.U16("server_version");
    const auto random = r.Bytes("random", 32);
    std::copy(random.begin(), random.end(), h.random.begin());
    h.sessionId = r.Vector("session_id", 1, 0, AdcTlsClientHello::kMaxSessionId);
    h.cipherSuite = r.U16("cipher_suite");
    h.compressionMethod = r.U8("compression_method");
    ReadExtensions("AdcTlsServerHello", r, h.hasExtensions, h.extensions);
    return h;
}

const std::vector<uint8_t>&
AdcTlsServerHello::GetSessionId() const
{
    return sessionId;
}

bool
AdcTlsServerHello::IsResumptionOf(const AdcTlsClientHello& clientHello) const
{
    return !clientHello.sessionId.empty() && sessionId == clientHello.sessionId;
}

bool
AdcTlsServerHello::operator==(const AdcTlsServerHello& o) const
{
    return serverVersion == o.serverVersion && random == o.random && sessionId == o.sessionId &&
           cipherSuite == o.cipherSuite && compressionMethod == o.compressionMethod &&
           hasExtensions == o.hasExtensions && extensions == o.extensions;
}

// ------------------------------------------------------------------------------ parser

AdcTlsRecordParser::AdcTlsRecordParser() = default;

std::vector<AdcTlsRecord>
AdcTlsRecordParser::Feed(const std::vector<uint8_t>& bytes)
{
    return Feed(bytes.data(), bytes.size());
}

std::vector<AdcTlsRecord>
AdcTlsRecordParser::Feed(const uint8_t* data, std::size_t size)
{
    std::vector<AdcTlsRecord> out;
    std::size_t at = 0;
    while (!HasError() && at < size)
    {
        // Complete the header first, then check it before waiting for a fragment that a bad
        // header's length would only pretend to announce.
        if (m_buffer.size() < AdcTlsRecord::kHeaderBytes)
        {
            const std::size_t n = std::min(AdcTlsRecord::kHeaderBytes - m_buffer.size(), size - at);
            m_buffer.insert(m_buffer.end(), data + at, data + at + n);
            at += n;
            if (m_buffer.size() < AdcTlsRecord::kHeaderBytes)
            {
                break;
            }
            const uint8_t type = m_buffer[0];
            const uint16_t version = static_cast<uint16_t>((m_buffer[1] << 8) | m_buffer[2]);
            const std::size_t length = (std::size_t{m_buffer[3]} << 8) | m_buffer[4];
            if (!KnownType(type))
            {
                Fail("content type " + std::to_string(type) + " is not one of " + kAllowedTypes);
            }
            else if (!KnownVersion(version))
            {
                Fail("version " + Hex(version) + " is not one of " + kAllowedVersions);
            }
            else if (length > AdcTlsRecord::kMaxFragment)
            {
                Fail("length " + std::to_string(length) +
                     " is above 2^14 + 2048 = " + std::to_string(AdcTlsRecord::kMaxFragment));
            }
            else if (length == 0 && type != AdcTlsRecord::APPLICATION_DATA)
            {
                Fail("a zero-length " + AdcTlsRecord::ContentTypeName(type) +
                     " record (RFC 5246 section 6.2.1 allows zero length for application_data "
                     "only)");
            }
            if (HasError())
            {
                break;
            }
        }
        const std::size_t length = (std::size_t{m_buffer[3]} << 8) | m_buffer[4];
        const std::size_t want = AdcTlsRecord::kHeaderBytes + length;
        const std::size_t n = std::min(want - m_buffer.size(), size - at);
        m_buffer.insert(m_buffer.end(), data + at, data + at + n);
        at += n;
        if (m_buffer.size() < want)
        {
            break;
        }
        AdcTlsRecord r;
        r.type = m_buffer[0];
        r.version = static_cast<uint16_t>((m_buffer[1] << 8) | m_buffer[2]);
        r.fragment.assign(m_buffer.begin() + AdcTlsRecord::kHeaderBytes, m_buffer.end());
        if (!Accept(r))
        {
            break;
        }
        m_recordBytes += m_buffer.size();
        m_buffer.clear();
        out.push_back(std::move(r));
    }
    return out;
}

bool
AdcTlsRecordParser::Accept(const AdcTlsRecord& record)
{
    if (record.type == AdcTlsRecord::CHANGE_CIPHER_SPEC)
    {
        if (record.fragment.size() != 1 || record.fragment[0] != 1)
        {
            Fail("change_cipher_spec fragment of " + std::to_string(record.fragment.size()) +
                 " bytes (first " + Hex(record.fragment.empty() ? 0 : record.fragment[0], 2) +
                 ") is not the one byte 0x01 (RFC 5246 section 7.1)");
            return false;
        }
        m_afterCcs = true;
        return true;
    }
    if (record.type != AdcTlsRecord::HANDSHAKE || m_afterCcs)
    {
        return true; // after ChangeCipherSpec the handshake is encrypted in real TLS: opaque
    }
    m_handshake.insert(m_handshake.end(), record.fragment.begin(), record.fragment.end());
    std::size_t used = 0;
    std::vector<AdcTlsHandshake> done;
    while (m_handshake.size() - used >= AdcTlsHandshake::kHeaderBytes)
    {
        const uint8_t* p = m_handshake.data() + used;
        const std::size_t length =
            (std::size_t{p[1]} << 16) | (std::size_t{p[2]} << 8) | std::size_t{p[3]};
        const uint64_t messageAt = m_handshakeStart + used;
        if (length > AdcTlsHandshake::kMaxBody)
        {
            Fail("handshake message at handshake byte " + std::to_string(messageAt) + ": length " +
                 std::to_string(length) + " is above the model's limit of " +
                 std::to_string(AdcTlsHandshake::kMaxBody) + " bytes");
            return false;
        }
        if (m_handshake.size() - used < AdcTlsHandshake::kHeaderBytes + length)
        {
            break;
        }
        AdcTlsHandshake h;
        h.type = p[0];
        h.body.assign(p + AdcTlsHandshake::kHeaderBytes,
                      p + AdcTlsHandshake::kHeaderBytes + length);
        try
        {
            if (h.type == AdcTlsHandshake::CLIENT_HELLO)
            {
                AdcTlsClientHello::Parse(h.body);
            }
            else if (h.type == AdcTlsHandshake::SERVER_HELLO)
            {
                AdcTlsServerHello::Parse(h.body);
            }
        }
        catch (const AdcConfigError& e)
        {
            Fail("handshake message at handshake byte " + std::to_string(messageAt) + ": " +
                 e.what());
            return false;
        }
        used += AdcTlsHandshake::kHeaderBytes + length;
        done.push_back(std::move(h));
    }
    m_handshake.erase(m_handshake.begin(), m_handshake.begin() + used);
    m_handshakeStart += used;
    m_messages.insert(m_messages.end(), done.begin(), done.end());
    return true;
}

void
AdcTlsRecordParser::Fail(const std::string& what)
{
    m_error =
        "AdcTlsRecordParser: record at stream byte " + std::to_string(m_recordBytes) + ": " + what;
    m_buffer.clear();
    m_handshake.clear();
}

std::vector<AdcTlsHandshake>
AdcTlsRecordParser::TakeHandshakes()
{
    std::vector<AdcTlsHandshake> out;
    out.swap(m_messages);
    return out;
}

bool
AdcTlsRecordParser::HasError() const
{
    return !m_error.empty();
}

const std::string&
AdcTlsRecordParser::GetError() const
{
    return m_error;
}

uint64_t
AdcTlsRecordParser::GetRecordBytes() const
{
    return m_recordBytes;
}

bool
AdcTlsRecordParser::IsAfterChangeCipherSpec() const
{
    return m_afterCcs;
}

bool
AdcTlsRecordParser::HasPartial() const
{
    return !m_buffer.empty() || !m_handshake.empty();
}

std::string
AdcTlsToHex(const std::vector<uint8_t>& bytes)
{
    static const char* const kDigits = "0123456789abcdef";
    std::string s;
    s.reserve(bytes.size() * 2);
    for (uint8_t b : bytes)
    {
        s.push_back(kDigits[b >> 4]);
        s.push_back(kDigits[b & 0xf]);
    }
    return s;
}

} // namespace ns3
