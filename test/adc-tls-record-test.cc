/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the TLS 1.2 record and handshake framing (model/wire/adc-tls-record.h):
 * byte-exact encodings computed field by field from RFC 5246's layouts, round trips, split
 * feeding, malformed input, session IDs for SSLSESSION persistence, and a pcap of a small
 * ns-3 scenario that tshark (Wireshark) must decode as TLS.
 */

// REQ: CS-04 (SSLSESSION: connections with the same TLS session ID; the ID a ClientHello
//             offers, new session vs resumed in the ServerHello)
// REQ: CS-07 (SSLSESSION applies to HTTPS, SSL_BRIDGE, SSL_TCP: what those vservers carry is
//             TLS records, whose session ID this framing reads)

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-tls-record.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

using adctest::Cat;

/// \param s text \return its bytes
Bytes
Ascii(const std::string& s)
{
    return Bytes(s.begin(), s.end());
}

/// \param first first value \return the 32 bytes first, first+1, ...
std::array<uint8_t, 32>
Random(uint8_t first)
{
    std::array<uint8_t, 32> r{};
    for (std::size_t i = 0; i < r.size(); ++i)
    {
        r[i] = static_cast<uint8_t>(first + i);
    }
    return r;
}

/// \param r an array \return as a vector
Bytes
Vec(const std::array<uint8_t, 32>& r)
{
    return Bytes(r.begin(), r.end());
}

/// \param e an error message \param part text it must hold \return whether it does
::testing::AssertionResult
Holds(const std::string& e, const std::string& part)
{
    if (e.find(part) != std::string::npos)
    {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "'" << e << "' does not contain '" << part << "'";
}

/// \param f a callable that must throw AdcConfigError \return its message
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const AdcConfigError& e)
    {
        return e.what();
    }
    return "(no AdcConfigError)";
}

/// The ClientHello of the byte-exact test: fields chosen to make every length distinct.
AdcTlsClientHello
SampleClientHello()
{
    AdcTlsClientHello h;
    h.clientVersion = 0x0303;
    h.random = Random(0x00);
    h.sessionId = {0xaa, 0xbb, 0xcc, 0xdd};
    h.cipherSuites = {0xc02f, 0x002f};
    h.compressionMethods = {0x00};
    h.SetServerName("a.io");
    return h;
}

/// The expected body of SampleClientHello, written from RFC 5246 section 7.4.1.2 and RFC 6066
/// section 3 field by field.
Bytes
SampleClientHelloBody()
{
    return Cat({
        {0x03, 0x03},             // client_version {3,3}
        Vec(Random(0x00)),        // random: 32 bytes
        {0x04},                   // session_id length
        {0xaa, 0xbb, 0xcc, 0xdd}, // session_id
        {0x00, 0x04},             // cipher_suites length: 2 suites x 2 bytes
        {0xc0, 0x2f, 0x00, 0x2f}, // TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_RSA_..._CBC_SHA
        {0x01, 0x00},             // compression_methods: length 1, null
        {0x00, 0x0d},             // extensions length: 4 (type, length) + 9 (data)
        {0x00, 0x00},             // extension_type server_name
        {0x00, 0x09},             // extension_data length
        {0x00, 0x07},             // server_name_list length: 1 + 2 + 4
        {0x00},                   // name_type host_name
        {0x00, 0x04},             // HostName length
        Ascii("a.io"),            // HostName
    });
}

} // namespace

// ---------------------------------------------------------------------- byte-exact encodings

TEST(AdcTlsRecord, RecordHeaderIsTypeVersionLength)
{
    // REQ: CS-07. RFC 5246 6.2.1: ContentType (1), ProtocolVersion {major, minor}, uint16
    // length, fragment.
    AdcTlsRecord r;
    r.type = AdcTlsRecord::APPLICATION_DATA;
    r.fragment = Ascii("abc");
    EXPECT_EQ(r.Encode(), Cat({{23, 3, 3, 0x00, 0x03}, Ascii("abc")}));
    r.type = AdcTlsRecord::ALERT;
    r.version = 0x0301;
    r.fragment = {2, 40}; // fatal handshake_failure
    EXPECT_EQ(r.Encode(), (Bytes{21, 3, 1, 0, 2, 2, 40}));
    // 2^14 + 2048 = 18432 = 0x4800 is the largest length; one more is refused.
    r.fragment.assign(18432, 0x5a);
    const Bytes wire = r.Encode();
    ASSERT_EQ(wire.size(), 5U + 18432U);
    EXPECT_EQ(wire[3], 0x48);
    EXPECT_EQ(wire[4], 0x00);
    r.fragment.push_back(0);
    EXPECT_TRUE(Holds(ErrorOf([&] { r.Encode(); }), "18433 is not in 0..18432"));
    r.fragment = {1};
    r.type = 24;
    EXPECT_TRUE(Holds(ErrorOf([&] { r.Encode(); }), "content type 24 is not one of 20"));
    r.type = 23;
    r.version = 0x0403;
    EXPECT_TRUE(Holds(ErrorOf([&] { r.Encode(); }), "version 0x0403"));
}

TEST(AdcTlsRecord, ChangeCipherSpecAndServerHelloDoneBytes)
{
    // RFC 5246 7.1: ChangeCipherSpec is one byte of value 1 in a record of type 20.
    EXPECT_EQ(AdcTlsRecord::BuildChangeCipherSpec(), (Bytes{0x14, 0x03, 0x03, 0x00, 0x01, 0x01}));
    // 7.4.5: ServerHelloDone, msg_type 14, an empty body: 4 bytes in a handshake record.
    EXPECT_EQ(AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE,
                                         AdcTlsHandshake::ServerHelloDone().Encode()),
              (Bytes{0x16, 0x03, 0x03, 0x00, 0x04, 0x0e, 0x00, 0x00, 0x00}));
    // 7.4.9: Finished, msg_type 20, verify_data of 12 bytes.
    std::array<uint8_t, 12> vd{};
    vd.fill(0x77);
    EXPECT_EQ(AdcTlsHandshake::Finished(vd).Encode(),
              Cat({{0x14, 0x00, 0x00, 0x0c}, Bytes(12, 0x77)}));
}

TEST(AdcTlsRecord, ApplicationDataSplitsAtTwoToTheFourteen)
{
    // 6.2.1: TLSPlaintext.length MUST NOT exceed 2^14 = 16384 = 0x4000.
    const Bytes payload(16385, 0x61);
    const Bytes wire = AdcTlsRecord::BuildRecords(AdcTlsRecord::APPLICATION_DATA, payload);
    ASSERT_EQ(wire.size(), 5U + 16384U + 5U + 1U);
    EXPECT_EQ(Bytes(wire.begin(), wire.begin() + 5), (Bytes{0x17, 0x03, 0x03, 0x40, 0x00}));
    EXPECT_EQ(Bytes(wire.begin() + 16389, wire.begin() + 16394),
              (Bytes{0x17, 0x03, 0x03, 0x00, 0x01}));
    // Zero-length application_data is allowed; zero-length handshake is not.
    EXPECT_EQ(AdcTlsRecord::BuildRecords(AdcTlsRecord::APPLICATION_DATA, {}),
              (Bytes{0x17, 0x03, 0x03, 0x00, 0x00}));
    EXPECT_TRUE(Holds(ErrorOf([] { AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE, {}); }),
                      "handshake record may not be empty"));
}

TEST(AdcTlsRecord, ClientHelloBytesFollowRfc5246)
{
    // REQ: CS-04 (the session ID sits after the random, behind a 1-byte length)
    const AdcTlsClientHello h = SampleClientHello();
    const Bytes body = SampleClientHelloBody();
    ASSERT_EQ(body.size(), 62U); // 2 + 32 + 5 + 6 + 2 + 2 + 13
    EXPECT_EQ(h.Encode(), body);
    AdcTlsHandshake m;
    m.type = AdcTlsHandshake::CLIENT_HELLO;
    m.body = body;
    // 7.4: msg_type 1, uint24 length 62 = 0x00003e.
    EXPECT_EQ(m.Encode(), Cat({{0x01, 0x00, 0x00, 0x3e}, body}));
    // The record as browsers send it: version {3,1} in the record, {3,3} in the hello.
    EXPECT_EQ(AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE, m.Encode(), 0x0301),
              Cat({{0x16, 0x03, 0x01, 0x00, 0x42}, {0x01, 0x00, 0x00, 0x3e}, body}));
    EXPECT_EQ(h.GetServerName(), "a.io");
    EXPECT_EQ(h.GetSessionId(), (Bytes{0xaa, 0xbb, 0xcc, 0xdd}));
}

TEST(AdcTlsRecord, ServerHelloBytesFollowRfc5246)
{
    AdcTlsServerHello s;
    s.random = Random(0x40);
    s.sessionId = {0xaa, 0xbb, 0xcc, 0xdd};
    s.cipherSuite = 0xc02f;
    const Bytes body = Cat({
        {0x03, 0x03},             // server_version
        Vec(Random(0x40)),        // random
        {0x04},                   // session_id length
        {0xaa, 0xbb, 0xcc, 0xdd}, // session_id
        {0xc0, 0x2f},             // cipher_suite
        {0x00},                   // compression_method null; no extensions block
    });
    EXPECT_EQ(s.Encode(), body);
    // An empty extensions block is two zero bytes, not nothing.
    s.hasExtensions = true;
    EXPECT_EQ(s.Encode(), Cat({body, {0x00, 0x00}}));
    // A renegotiation_info extension (0xff01) with its one-byte empty list.
    s.extensions = {{0xff01, {0x00}}};
    EXPECT_EQ(s.Encode(), Cat({body, {0x00, 0x05, 0xff, 0x01, 0x00, 0x01, 0x00}}));
}

// ---------------------------------------------------------------------- round trips

TEST(AdcTlsRecord, HellosParseBackToThemselves)
{
    std::vector<AdcTlsClientHello> clients;
    clients.push_back(SampleClientHello());
    AdcTlsClientHello bare; // no session, no extensions block
    clients.push_back(bare);
    AdcTlsClientHello full;
    full.sessionId.assign(32, 0xee);
    full.cipherSuites.assign(0x7fff, 0x1301); // the largest list: 2^16 - 2 bytes
    full.compressionMethods.assign(255, 0);
    full.hasExtensions = true; // present but empty
    clients.push_back(full);
    AdcTlsClientHello many = SampleClientHello();
    many.extensions.push_back({0x000d, {0x00, 0x02, 0x04, 0x01}});
    many.extensions.push_back({0x0017, {}});
    clients.push_back(many);
    for (const auto& c : clients)
    {
        const Bytes wire = c.Encode();
        const AdcTlsClientHello back = AdcTlsClientHello::Parse(wire);
        EXPECT_TRUE(back == c);
        EXPECT_EQ(back.Encode(), wire);
    }
    EXPECT_FALSE(AdcTlsClientHello::Parse(bare.Encode()).hasExtensions);
    EXPECT_TRUE(AdcTlsClientHello::Parse(full.Encode()).hasExtensions);

    AdcTlsServerHello s;
    s.random = Random(7);
    s.sessionId.assign(32, 0x31);
    s.hasExtensions = true;
    s.extensions = {{0x0000, {}}, {0xff01, {0x00}}};
    EXPECT_TRUE(AdcTlsServerHello::Parse(s.Encode()) == s);
    AdcTlsServerHello plain;
    EXPECT_TRUE(AdcTlsServerHello::Parse(plain.Encode()) == plain);
}

TEST(AdcTlsRecord, SessionIdNewVersusResumed)
{
    // REQ: CS-04. RFC 5246 7.4.1.2/7.4.1.3: a client offers a cached session's ID; the
    // server echoes it to resume, or sends a new ID for a new session.
    AdcTlsClientHello first;
    AdcTlsServerHello fresh;
    fresh.sessionId.assign(32, 0);
    fresh.sessionId[31] = 0x2a;
    EXPECT_TRUE(first.GetSessionId().empty());
    EXPECT_FALSE(fresh.IsResumptionOf(first)); // nothing offered: a new session

    AdcTlsClientHello again;
    again.sessionId = fresh.GetSessionId();
    AdcTlsServerHello echo;
    echo.sessionId = again.sessionId;
    EXPECT_TRUE(echo.IsResumptionOf(again));
    AdcTlsServerHello other;
    other.sessionId.assign(32, 0x01);
    EXPECT_FALSE(other.IsResumptionOf(again)); // a different ID: the server started anew
    AdcTlsServerHello none;
    EXPECT_FALSE(none.IsResumptionOf(again)); // empty: a new session the server won't cache

    // Both connections carry the same key for SSLSESSION persistence.
    EXPECT_EQ(AdcTlsToHex(again.GetSessionId()), AdcTlsToHex(fresh.GetSessionId()));
    EXPECT_EQ(AdcTlsToHex({0x00, 0x0f, 0xa0, 0xff}), "000fa0ff");
    EXPECT_EQ(AdcTlsToHex({}), "");
}

// ---------------------------------------------------------------------- streaming

namespace
{

/// What a parser produced from a stream.
struct Parsed
{
    std::vector<AdcTlsRecord> records;     //!< records
    std::vector<AdcTlsHandshake> messages; //!< handshake messages
    std::string error;                     //!< error
};

/// \param stream bytes \param chunk feed size (0: all at once) \return what came out
Parsed
FeedInChunks(const Bytes& stream, std::size_t chunk)
{
    AdcTlsRecordParser p;
    Parsed out;
    std::size_t at = 0;
    do
    {
        const std::size_t n = chunk == 0 ? stream.size() : std::min(chunk, stream.size() - at);
        for (auto& r : p.Feed(stream.data() + at, n))
        {
            out.records.push_back(r);
        }
        for (auto& m : p.TakeHandshakes())
        {
            out.messages.push_back(m);
        }
        at += n;
    } while (at < stream.size());
    out.error = p.GetError();
    return out;
}

/// A server flight: ServerHello and ServerHelloDone in one record; then a ClientHello cut
/// across two records; then application data.
Bytes
SampleStream()
{
    AdcTlsServerHello s;
    s.sessionId = {1, 2, 3};
    AdcTlsHandshake sh;
    sh.type = AdcTlsHandshake::SERVER_HELLO;
    sh.body = s.Encode();
    const Bytes flight = Cat({sh.Encode(), AdcTlsHandshake::ServerHelloDone().Encode()});
    AdcTlsHandshake ch;
    ch.type = AdcTlsHandshake::CLIENT_HELLO;
    ch.body = SampleClientHelloBody();
    const Bytes chWire = ch.Encode();
    const Bytes part1(chWire.begin(), chWire.begin() + 10);
    const Bytes part2(chWire.begin() + 10, chWire.end());
    return Cat(
        {AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE, flight),
         AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE, part1),
         AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE, part2),
         AdcTlsRecord::BuildRecords(AdcTlsRecord::APPLICATION_DATA, Ascii("GET / HTTP/1.1"))});
}

} // namespace

TEST(AdcTlsRecord, ParserReassemblesAcrossRecordsAndSegments)
{
    // REQ: CS-04 (the session ID is read from a ClientHello however TCP cut it)
    const Bytes stream = SampleStream();
    const Parsed whole = FeedInChunks(stream, 0);
    ASSERT_EQ(whole.error, "");
    ASSERT_EQ(whole.records.size(), 4U);
    EXPECT_EQ(whole.records[3].type, AdcTlsRecord::APPLICATION_DATA);
    EXPECT_EQ(whole.records[3].fragment, Ascii("GET / HTTP/1.1"));
    ASSERT_EQ(whole.messages.size(), 3U); // ServerHello, ServerHelloDone, ClientHello
    EXPECT_EQ(whole.messages[0].type, AdcTlsHandshake::SERVER_HELLO);
    EXPECT_EQ(AdcTlsServerHello::Parse(whole.messages[0].body).GetSessionId(), (Bytes{1, 2, 3}));
    EXPECT_EQ(whole.messages[1].type, AdcTlsHandshake::SERVER_HELLO_DONE);
    EXPECT_TRUE(whole.messages[1].body.empty());
    EXPECT_EQ(whole.messages[2].type, AdcTlsHandshake::CLIENT_HELLO);
    EXPECT_EQ(whole.messages[2].body, SampleClientHelloBody());
    EXPECT_EQ(AdcTlsClientHello::Parse(whole.messages[2].body).GetSessionId(),
              (Bytes{0xaa, 0xbb, 0xcc, 0xdd}));
    // Records re-encode to the stream, byte for byte.
    Bytes again;
    for (const auto& r : whole.records)
    {
        const Bytes w = r.Encode();
        again.insert(again.end(), w.begin(), w.end());
    }
    EXPECT_EQ(again, stream);
    for (std::size_t chunk : {1, 2, 3, 4, 5, 6, 7, 13, 64})
    {
        const Parsed split = FeedInChunks(stream, chunk);
        EXPECT_EQ(split.error, "") << chunk;
        EXPECT_TRUE(split.records == whole.records) << chunk;
        EXPECT_TRUE(split.messages == whole.messages) << chunk;
    }
    // A stream cut inside a record keeps the bytes, returns nothing yet.
    AdcTlsRecordParser p;
    EXPECT_TRUE(p.Feed(stream.data(), 7).empty());
    EXPECT_TRUE(p.HasPartial());
    EXPECT_FALSE(p.HasError());
}

TEST(AdcTlsRecord, HandshakeAfterChangeCipherSpecIsOpaque)
{
    // After ChangeCipherSpec real TLS encrypts Finished: the bytes are records, not messages.
    std::array<uint8_t, 12> vd{};
    const Bytes stream = Cat({AdcTlsRecord::BuildChangeCipherSpec(),
                              AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE,
                                                         AdcTlsHandshake::Finished(vd).Encode())});
    AdcTlsRecordParser p;
    EXPECT_EQ(p.Feed(stream).size(), 2U);
    EXPECT_TRUE(p.IsAfterChangeCipherSpec());
    EXPECT_TRUE(p.TakeHandshakes().empty());
    EXPECT_FALSE(p.HasError());
    EXPECT_EQ(p.GetRecordBytes(), stream.size());
}

// ---------------------------------------------------------------------- malformed input

TEST(AdcTlsRecord, ParserRejectsBadRecordHeadersWithReasons)
{
    struct Case
    {
        Bytes stream;
        std::string reason;
    };

    const Bytes good = AdcTlsRecord::BuildRecords(AdcTlsRecord::APPLICATION_DATA, Ascii("x"));
    const std::vector<Case> cases = {
        {{0x63, 3, 3, 0, 1, 0}, "record at stream byte 0: content type 99 is not one of 20"},
        {{0x13, 3, 3, 0, 1, 0}, "content type 19"},
        {{0x18, 3, 3, 0, 1, 0}, "content type 24"},
        {{0x17, 2, 0, 0, 1, 0}, "version 0x0200"},
        {{0x17, 3, 4, 0, 1, 0}, "version 0x0304"},
        {{0x17, 3, 3, 0x48, 0x01}, "length 18433 is above 2^14 + 2048 = 18432"},
        {{0x16, 3, 3, 0, 0}, "zero-length handshake record"},
        {{0x15, 3, 3, 0, 0}, "zero-length alert record"},
        {{0x14, 3, 3, 0, 1, 2}, "change_cipher_spec fragment of 1 bytes (first 0x02)"},
        {{0x14, 3, 3, 0, 2, 1, 1}, "change_cipher_spec fragment of 2 bytes"},
        // A bad record after a good one: its offset is the good one's length, 6.
        {Cat({good, {0x63, 3, 3, 0, 0}}), "record at stream byte 6: content type 99"},
        // A handshake message claiming more than the model's bound.
        {{0x16, 3, 3, 0, 4, 0x0b, 0x04, 0x00, 0x01}, "length 262145 is above the model's limit"},
    };
    for (const auto& c : cases)
    {
        for (std::size_t chunk : {0, 1})
        {
            const Parsed out = FeedInChunks(c.stream, chunk);
            EXPECT_TRUE(Holds(out.error, c.reason)) << "chunk " << chunk;
            EXPECT_TRUE(Holds(out.error, "AdcTlsRecordParser: "));
        }
    }
    // Poisoned: a good record after the error yields nothing.
    AdcTlsRecordParser p;
    p.Feed(cases[0].stream);
    EXPECT_TRUE(p.HasError());
    EXPECT_TRUE(p.Feed(good).empty());
    // The good record before the error is returned.
    EXPECT_EQ(FeedInChunks(cases[10].stream, 0).records.size(), 1U);
}

TEST(AdcTlsRecord, HelloParsersRejectMalformedBodiesWithReasons)
{
    // REQ: CS-04 (a session ID above 32 bytes is not a session ID)
    const Bytes good = SampleClientHelloBody();
    auto with = [&](std::size_t at, Bytes replace, std::size_t drop) {
        Bytes b(good.begin(), good.begin() + at);
        b.insert(b.end(), replace.begin(), replace.end());
        b.insert(b.end(), good.begin() + at + drop, good.end());
        return b;
    };
    // session_id length byte is at offset 34 (after version and random).
    const Bytes sid33 = with(34, Cat({{33}, Bytes(33, 0x11)}), 5);
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcTlsClientHello::Parse(sid33); }),
                      "session_id at byte 34: length 33 is not in 0..32 bytes"));
    // cipher_suites length (offset 39) of 0x00ff: past the end.
    EXPECT_TRUE(Holds(ErrorOf([&] {
                          AdcTlsClientHello::Parse(with(39, {0x00, 0xff}, 2));
                      }),
                      "remain (a length past the end)"));
    // Odd and empty cipher_suites.
    EXPECT_TRUE(Holds(ErrorOf([&] {
                          AdcTlsClientHello::Parse(with(39, {0x00, 0x03}, 2));
                      }),
                      "cipher_suites at byte 39: length 3 is odd"));
    EXPECT_TRUE(Holds(ErrorOf([&] {
                          AdcTlsClientHello::Parse(with(39, {0x00, 0x00}, 6));
                      }),
                      "cipher_suites at byte 39: length 0 is not in 2..65534"));
    // No compression method (offset 45).
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcTlsClientHello::Parse(with(45, {0x00}, 2)); }),
                      "compression_methods at byte 45: length 0 is not in 1..255"));
    // Truncated inside the random.
    EXPECT_TRUE(
        Holds(ErrorOf([&] { AdcTlsClientHello::Parse(Bytes(good.begin(), good.begin() + 20)); }),
              "random at byte 2: needs 32 bytes but 18 remain"));
    // Trailing byte after the extensions.
    EXPECT_TRUE(Holds(ErrorOf([&] {
                          AdcTlsClientHello::Parse(Cat({good, {0x00}}));
                      }),
                      "1 bytes follow the extensions"));
    // The extensions' length (offset 47) one byte more than the hello holds.
    EXPECT_TRUE(Holds(ErrorOf([&] {
                          AdcTlsClientHello::Parse(with(47, {0x00, 0x0e}, 2));
                      }),
                      "extensions"));
    // Two server_name extensions.
    AdcTlsClientHello twice = SampleClientHello();
    twice.extensions.push_back(twice.extensions[0]);
    EXPECT_TRUE(Holds(ErrorOf([&] { twice.Encode(); }), "extension type 0 appears twice"));
    const Bytes dup = Cat({Bytes(good.begin(), good.begin() + 47),
                           {0x00, 0x1a},
                           Bytes(good.begin() + 49, good.end()),
                           Bytes(good.begin() + 49, good.end())});
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcTlsClientHello::Parse(dup); }),
                      "extension_type at byte 62: 0 appears twice"));
    // A malformed server_name: a list length of 8 where 7 bytes follow.
    EXPECT_TRUE(Holds(ErrorOf([&] {
                          AdcTlsClientHello::Parse(with(53, {0x00, 0x08}, 2));
                      }),
                      "server_name"));
    // The stream parser reports a malformed hello as a stream error naming the message.
    AdcTlsHandshake m;
    m.type = AdcTlsHandshake::CLIENT_HELLO;
    m.body = sid33;
    const Parsed out =
        FeedInChunks(AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE, m.Encode()), 3);
    EXPECT_TRUE(Holds(out.error,
                      "handshake message at handshake byte 0: AdcTlsClientHello: "
                      "session_id at byte 34: length 33"));
    EXPECT_TRUE(out.messages.empty());
    // ServerHello: session ID too long, truncated, trailing bytes.
    AdcTlsServerHello s;
    Bytes sb = s.Encode();
    sb[34] = 33;
    EXPECT_TRUE(Holds(ErrorOf([&] { AdcTlsServerHello::Parse(sb); }), "length 33 is not in 0..32"));
    const Bytes sFull = s.Encode();
    EXPECT_TRUE(
        Holds(ErrorOf([&] { AdcTlsServerHello::Parse(Bytes(sFull.begin(), sFull.begin() + 36)); }),
              "cipher_suite at byte 35: needs 2 bytes but 1 remain"));
    s.hasExtensions = true;
    EXPECT_TRUE(Holds(ErrorOf([&] {
                          AdcTlsServerHello::Parse(Cat({s.Encode(), {0x42}}));
                      }),
                      "1 bytes follow the extensions"));
    // Encoders refuse what the wire cannot carry.
    AdcTlsClientHello bad;
    bad.sessionId.assign(33, 0);
    EXPECT_TRUE(Holds(ErrorOf([&] { bad.Encode(); }), "session_id length 33 is not in 0..32"));
    bad.sessionId.clear();
    bad.cipherSuites.clear();
    EXPECT_TRUE(Holds(ErrorOf([&] { bad.Encode(); }), "cipher_suites length 0"));
    EXPECT_TRUE(Holds(ErrorOf([&] { bad.SetServerName(""); }), "host_name length 0"));
}

// ---------------------------------------------------------------------- pcap / Wireshark

namespace
{

/// Two nodes over point-to-point; the client opens TCP connections to port 443 and writes
/// the TLS bytes itself: ClientHello; the server answers ServerHello + ServerHelloDone (a new
/// session ID when none was offered, the offered one echoed to resume); the client then
/// sends an application_data record, and the server answers one.
class TlsScenario
{
  public:
    /// \param server server node \param client client node \param address server address
    TlsScenario(Ptr<Node> server, Ptr<Node> client, Ipv4Address address)
        : m_client(client),
          m_address(address)
    {
        m_listener = Socket::CreateSocket(server, TcpSocketFactory::GetTypeId());
        m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 443));
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&TlsScenario::Accepted, this));
    }

    /// \brief Open a connection offering \p sessionId. \param sessionId the ID (may be empty)
    void Connect(Bytes sessionId)
    {
        Ptr<Socket> s = Socket::CreateSocket(m_client, TcpSocketFactory::GetTypeId());
        m_offer[PeekPointer(s)] = sessionId;
        s->SetConnectCallback(MakeCallback(&TlsScenario::Connected, this),
                              MakeNullCallback<void, Ptr<Socket>>());
        s->SetRecvCallback(MakeCallback(&TlsScenario::ClientRecv, this));
        s->Connect(InetSocketAddress(m_address, 443));
        m_sockets.push_back(s);
    }

    Bytes assigned;                   //!< the ID the server assigned to the first session
    std::vector<bool> resumed;        //!< per ServerHello received, resumed or not
    std::vector<std::string> answers; //!< application data the client received
    std::string error;                //!< any parser error

  private:
    /// \param s socket \param b bytes
    static void Send(Ptr<Socket> s, const Bytes& b)
    {
        s->Send(b.data(), b.size(), 0);
    }

    /// \param s socket \return the bytes now readable
    static Bytes Read(Ptr<Socket> s)
    {
        Bytes all;
        Ptr<Packet> p;
        while ((p = s->Recv()))
        {
            Bytes b(p->GetSize());
            p->CopyData(b.data(), b.size());
            all.insert(all.end(), b.begin(), b.end());
        }
        return all;
    }

    /// \param s the connected client socket
    void Connected(Ptr<Socket> s)
    {
        AdcTlsClientHello h;
        h.random = Random(0x10);
        h.sessionId = m_offer[PeekPointer(s)];
        h.cipherSuites = {0xc02f, 0x009c, 0x002f};
        h.SetServerName("www.example.com");
        AdcTlsHandshake m;
        m.type = AdcTlsHandshake::CLIENT_HELLO;
        m.body = h.Encode();
        m_hello[PeekPointer(s)] = h;
        Send(s, AdcTlsRecord::BuildRecords(AdcTlsRecord::HANDSHAKE, m.Encode(), 0x0301));
    }

    /// \param s the client socket
    void ClientRecv(Ptr<Socket> s)
    {
        AdcTlsRecordParser& p = m_parsers[PeekPointer(s)];
        for (const auto& r : p.Feed(Read(s)))
        {
            if (r.type == AdcTlsRecord::APPLICATION_DATA)
            {
                answers.emplace_back(r.fragment.begin(), r.fragment.end());
                s->Close();
            }
        }
        for (const auto& m : p.TakeHandshakes())
        {
            if (m.type == AdcTlsHandshake::SERVER_HELLO)
            {
                resumed.push_back(
                    AdcTlsServerHello::Parse(m.body).IsResumptionOf(m_hello[PeekPointer(s)]));
            }
            else if (m.type == AdcTlsHandshake::SERVER_HELLO_DONE)
            {
                Send(s,
                     AdcTlsRecord::BuildRecords(
                         AdcTlsRecord::APPLICATION_DATA,
                         Ascii("GET / HTTP/1.1\r\nHost: www.example.com\r\n\r\n")));
            }
        }
        error += p.GetError();
    }

    /// \param s accepted socket \param from peer
    void Accepted(Ptr<Socket> s, const Address& from)
    {
        s->SetRecvCallback(MakeCallback(&TlsScenario::ServerRecv, this));
        m_sockets.push_back(s);
    }

    /// \param s a server-side socket
    void ServerRecv(Ptr<Socket> s)
    {
        AdcTlsRecordParser& p = m_parsers[PeekPointer(s)];
        for (const auto& r : p.Feed(Read(s)))
        {
            if (r.type == AdcTlsRecord::APPLICATION_DATA)
            {
                Send(s,
                     AdcTlsRecord::BuildRecords(
                         AdcTlsRecord::APPLICATION_DATA,
                         Ascii("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")));
            }
        }
        for (const auto& m : p.TakeHandshakes())
        {
            if (m.type != AdcTlsHandshake::CLIENT_HELLO)
            {
                continue;
            }
            const AdcTlsClientHello ch = AdcTlsClientHello::Parse(m.body);
            AdcTlsServerHello sh;
            sh.random = Random(0x80);
            sh.cipherSuite = 0xc02f;
            if (ch.GetSessionId().empty())
            {
                sh.sessionId.assign(32, 0);
                for (std::size_t i = 0; i < 32; ++i)
                {
                    sh.sessionId[i] = static_cast<uint8_t>(0xa0 + i);
                }
                assigned = sh.sessionId;
            }
            else
            {
                sh.sessionId = ch.GetSessionId(); // resume
            }
            sh.hasExtensions = true;
            sh.extensions = {{0xff01, {0x00}}};
            AdcTlsHandshake hm;
            hm.type = AdcTlsHandshake::SERVER_HELLO;
            hm.body = sh.Encode();
            Send(s,
                 AdcTlsRecord::BuildRecords(
                     AdcTlsRecord::HANDSHAKE,
                     Cat({hm.Encode(), AdcTlsHandshake::ServerHelloDone().Encode()})));
        }
        error += p.GetError();
    }

    Ptr<Node> m_client;                              //!< client node
    Ipv4Address m_address;                           //!< server address
    Ptr<Socket> m_listener;                          //!< listening socket
    std::vector<Ptr<Socket>> m_sockets;              //!< every socket
    std::map<Socket*, AdcTlsRecordParser> m_parsers; //!< per socket
    std::map<Socket*, Bytes> m_offer;                //!< offered IDs
    std::map<Socket*, AdcTlsClientHello> m_hello;    //!< hellos sent
};

} // namespace

TEST(AdcTlsRecord, PcapDecodesAsTlsInWireshark)
{
    // REQ: CS-04 (the session ID on the wire, as Wireshark reads it; a resumed session
    //             carries the same ID as the first)
    // REQ: CS-07
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("adc-tls-record-test-" + std::to_string(getpid())))
                                .string();
    std::filesystem::create_directories(dir);

    // The simulation lives in a block: the pcap files close (flush) when the last reference
    // to their devices goes, before tshark reads them.
    std::string error;
    Bytes assigned;
    std::vector<bool> resumed;
    std::size_t answers = 0;
    {
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer devices = p2p.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper ip;
        ip.SetBase("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = ip.Assign(devices);
        p2p.EnablePcapAll(dir + "/tls");

        // Node 0 serves, node 1 is the client.
        TlsScenario sc(nodes.Get(0), nodes.Get(1), ifs.GetAddress(0));
        Simulator::Schedule(Seconds(1), &TlsScenario::Connect, &sc, Bytes{});
        // The second connection offers the ID the server assigned to the first (read when the
        // second connection starts, after the first finished).
        Simulator::Schedule(Seconds(2), [&sc]() { sc.Connect(sc.assigned); });
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        Simulator::Destroy();
        error = sc.error;
        assigned = sc.assigned;
        resumed = sc.resumed;
        answers = sc.answers.size();
    }

    ASSERT_EQ(error, "");
    ASSERT_EQ(assigned.size(), 32U);
    EXPECT_EQ(resumed, (std::vector<bool>{false, true}));
    ASSERT_EQ(answers, 2U);

    const std::string pcap = dir + "/tls-1-0.pcap"; // the client's point-to-point device
    ASSERT_TRUE(std::filesystem::exists(pcap)) << pcap;
    const std::string tshark = "tshark -n -r '" + pcap + "' ";
    auto fields = [&](const std::string& filter, const std::string& field) {
        return adctest::OutputLines(adctest::RunCommand(
            tshark + "-Y '" + filter + "' -T fields -e " + field + " 2>/dev/null"));
    };
    // Both ClientHellos and both ServerHellos decode, with type 1 and 2.
    const auto chIds = fields("tls.handshake.type == 1", "tls.handshake.session_id_length");
    EXPECT_EQ(chIds, (std::vector<std::string>{"0", "32"}));
    const auto shIds = fields("tls.handshake.type == 2", "tls.handshake.session_id");
    const std::string hex = AdcTlsToHex(assigned);
    EXPECT_EQ(hex.substr(0, 4), "a0a1"); // the scenario's ID, independently of the encoder
    EXPECT_EQ(shIds, (std::vector<std::string>{hex, hex}));
    // The resuming ClientHello carries exactly the ID the server assigned.
    EXPECT_EQ(fields("tls.handshake.type == 1 && tls.handshake.session_id_length == 32",
                     "tls.handshake.session_id"),
              (std::vector<std::string>{hex}));
    EXPECT_EQ(fields("tls.handshake.type == 14", "frame.number").size(), 2U);
    EXPECT_EQ(fields("tls.handshake.extensions_server_name == \"www.example.com\"", "frame.number")
                  .size(),
              2U);
    EXPECT_EQ(fields("tls.record.content_type == 23", "frame.number").size(), 4U);
    EXPECT_EQ(fields("tls.record.version == 0x0301", "frame.number").size(), 2U);
    EXPECT_TRUE(fields("_ws.malformed || _ws.expert.severity == error", "frame.number").empty());
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir); // kept for inspection when the test fails
    }
}
