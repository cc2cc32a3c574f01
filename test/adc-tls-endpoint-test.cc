/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the sans-IO TLS 1.2 endpoint and observer (model/wire/adc-tls-endpoint.h):
 * client and server talk in memory with bulk and byte-by-byte splits; the wire is checked
 * against RFC 5246's record and handshake layouts through the independent AdcTlsRecordParser;
 * session resumption by session ID (accepted and refused); fatal alerts (RFC 5246 section
 * 7.2.2); the SSL_BRIDGE observer; determinism; and a pcap tshark must decode as TLS.
 */

// REQ: CS-04 (SSLSESSION: the session ID a ClientHello offers and the ServerHello gives;
//             resumption keeps it, a refused one gets a new ID)
// REQ: CS-07 (SSLSESSION on HTTPS (endpoint) and SSL_BRIDGE (observer): both read the TLS
//             session ID from the hellos)

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-tls-endpoint.h"
#include "ns3/adc-tls-record.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;
using Ep = AdcTlsEndpoint;

/// \param s text \return its bytes
Bytes
Ascii(const std::string& s)
{
    return Bytes(s.begin(), s.end());
}

/// \param seed seed \param id offered ID \param sni SNI \return a client config
Ep::Config
ClientConfig(uint64_t seed, Bytes id = {}, std::string sni = "www.example.com")
{
    Ep::Config c;
    c.role = Ep::CLIENT;
    c.seed = seed;
    c.resumeSessionId = std::move(id);
    c.serverName = std::move(sni);
    return c;
}

/// \param seed seed \param cache IDs it can resume (nullptr: none) \return a server config
Ep::Config
ServerConfig(uint64_t seed, const std::set<Bytes>* cache = nullptr)
{
    Ep::Config c;
    c.role = Ep::SERVER;
    c.seed = seed;
    if (cache != nullptr)
    {
        c.canResume = [cache](const Bytes& id) { return cache->count(id) > 0; };
    }
    return c;
}

/// A client and a server connected in memory; every byte each sent is logged.
struct Link
{
    Ep client;                      //!< client
    Ep server;                      //!< server
    Bytes c2s;                      //!< client-to-server wire bytes
    Bytes s2c;                      //!< server-to-client wire bytes
    Bytes clientApp;                //!< app data the client received
    Bytes serverApp;                //!< app data the server received
    int clientEstablishedEvents{0}; //!< justEstablished seen by the client
    int serverEstablishedEvents{0}; //!< justEstablished seen by the server

    /// \param c client config \param s server config
    Link(Ep::Config c, Ep::Config s)
        : client(std::move(c)),
          server(std::move(s))
    {
    }

    /// \brief Deliver \p bytes to \p to in pieces of \p chunk bytes (0: whole).
    /// \param to receiver \param bytes bytes \param chunk piece size \param app app data out
    /// \param events justEstablished counter \return the receiver's answer
    static Bytes Deliver(Ep& to, const Bytes& bytes, std::size_t chunk, Bytes& app, int& events)
    {
        Bytes answer;
        const std::size_t step = chunk == 0 ? std::max<std::size_t>(bytes.size(), 1) : chunk;
        for (std::size_t at = 0; at < bytes.size(); at += step)
        {
            const auto r = to.Receive(bytes.data() + at, std::min(step, bytes.size() - at));
            answer.insert(answer.end(), r.toPeer.begin(), r.toPeer.end());
            app.insert(app.end(), r.appData.begin(), r.appData.end());
            events += r.justEstablished ? 1 : 0;
        }
        return answer;
    }

    /// \brief Move bytes both ways until neither side has anything to send.
    /// \param toServer bytes the client sends first \param toClient bytes the server sends
    /// first \param chunk piece size (0: whole)
    void Pump(Bytes toServer, Bytes toClient, std::size_t chunk)
    {
        for (int round = 0; round < 20 && (!toServer.empty() || !toClient.empty()); ++round)
        {
            c2s.insert(c2s.end(), toServer.begin(), toServer.end());
            s2c.insert(s2c.end(), toClient.begin(), toClient.end());
            Bytes answer = Deliver(server, toServer, chunk, serverApp, serverEstablishedEvents);
            toServer = Deliver(client, toClient, chunk, clientApp, clientEstablishedEvents);
            toClient = std::move(answer);
        }
    }

    /// \param chunk piece size \brief Handshake (client starts).
    void Handshake(std::size_t chunk)
    {
        Pump(client.Start(), {}, chunk);
    }
};

/// One record as the independent parser read it, and the handshake types it completed.
struct Seen
{
    uint8_t type;              //!< content type
    uint16_t version;          //!< record version
    std::size_t length;        //!< fragment length
    std::vector<int> messages; //!< handshake types completed by this record
    Bytes fragment;            //!< the fragment
};

/// \param wire a byte stream \return its records, parsed record by record by AdcTlsRecordParser
std::vector<Seen>
Records(const Bytes& wire, std::string* error = nullptr)
{
    AdcTlsRecordParser p;
    std::vector<Seen> out;
    for (std::size_t at = 0; at + 5 <= wire.size();)
    {
        const std::size_t len = (wire[at + 3] << 8) | wire[at + 4];
        for (const auto& r : p.Feed(wire.data() + at, std::min(5 + len, wire.size() - at)))
        {
            Seen s{r.type, r.version, r.fragment.size(), {}, r.fragment};
            for (const auto& m : p.TakeHandshakes())
            {
                s.messages.push_back(m.type);
            }
            out.push_back(s);
        }
        at += 5 + len;
    }
    if (error != nullptr)
    {
        *error = p.GetError();
    }
    return out;
}

/// \param wire stream \param messages false: the records' content types; true: every
/// handshake type the parser completed, in order \return them
std::vector<int>
Types(const Bytes& wire, bool messages = false)
{
    std::vector<int> t;
    for (const auto& s : Records(wire))
    {
        if (!messages)
        {
            t.push_back(s.type);
        }
        t.insert(t.end(), messages ? s.messages.begin() : s.messages.end(), s.messages.end());
    }
    return t;
}

/// \param e text \param part a part \return whether e holds it
::testing::AssertionResult
Holds(const std::string& e, const std::string& part)
{
    if (e.find(part) != std::string::npos)
    {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "'" << e << "' lacks '" << part << "'";
}

const std::string kRequest = "GET /index.html HTTP/1.1\r\nHost: www.example.com\r\n\r\n";
const std::string kResponse = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";

} // namespace

TEST(AdcTlsEndpoint, FullHandshakeThenAppDataBothWaysInAnySplit)
{
    // REQ: CS-04
    for (std::size_t chunk : {0U, 1U, 3U, 7U})
    {
        SCOPED_TRACE("chunk " + std::to_string(chunk));
        Link l(ClientConfig(1), ServerConfig(2));
        l.Handshake(chunk);
        ASSERT_TRUE(l.client.IsEstablished()) << l.client.GetError();
        ASSERT_TRUE(l.server.IsEstablished()) << l.server.GetError();
        EXPECT_EQ(l.client.GetError(), "");
        EXPECT_EQ(l.clientEstablishedEvents, 1);
        EXPECT_EQ(l.serverEstablishedEvents, 1);
        EXPECT_FALSE(l.client.IsResumed());
        EXPECT_FALSE(l.server.IsResumed());
        EXPECT_EQ(l.client.GetSessionId().size(), 32U);
        EXPECT_EQ(l.client.GetSessionId(), l.server.GetSessionId());
        EXPECT_EQ(l.server.GetServerName(), "www.example.com");
        EXPECT_EQ(l.client.GetCipherSuite(), 0x009c);

        l.Pump(l.client.Send(Ascii(kRequest)), l.server.Send(Ascii(kResponse)), chunk);
        EXPECT_EQ(std::string(l.serverApp.begin(), l.serverApp.end()), kRequest);
        EXPECT_EQ(std::string(l.clientApp.begin(), l.clientApp.end()), kResponse);
        EXPECT_EQ(l.client.GetAppBytesSent(), kRequest.size());
        EXPECT_EQ(l.server.GetAppBytesReceived(), kRequest.size());
        EXPECT_EQ(l.client.GetAppBytesReceived(), kResponse.size());
        // Handshake bytes: everything but the one application_data record each way.
        EXPECT_EQ(l.client.GetHandshakeBytes(),
                  l.c2s.size() + l.s2c.size() - 2 * 5 - kRequest.size() - kResponse.size());
        EXPECT_EQ(l.client.GetRecordsSent(), 5U); // CH, CKE, CCS, Finished, data
        EXPECT_EQ(l.server.GetRecordsSent(), 4U); // SH+Cert+SHD, CCS, Finished, data
    }
}

TEST(AdcTlsEndpoint, FullHandshakeWireFollowsRfc5246)
{
    // REQ: CS-04
    Link l(ClientConfig(11), ServerConfig(12));
    l.Handshake(0);
    l.Pump(l.client.Send(Ascii(kRequest)), l.server.Send(Ascii(kResponse)), 0);
    std::string err;
    const auto c = Records(l.c2s, &err);
    ASSERT_EQ(err, "");
    const auto s = Records(l.s2c, &err);
    ASSERT_EQ(err, "");
    // Section 7.3, figure 1: C: ClientHello; S: ServerHello, Certificate, ServerHelloDone;
    // C: ClientKeyExchange, [ChangeCipherSpec], Finished; S: [ChangeCipherSpec], Finished.
    EXPECT_EQ(Types(l.c2s), (std::vector<int>{22, 22, 20, 22, 23}));
    EXPECT_EQ(Types(l.s2c), (std::vector<int>{22, 20, 22, 23}));
    EXPECT_EQ(Types(l.c2s, true), (std::vector<int>{1, 16})); // Finished: after CCS
    EXPECT_EQ(Types(l.s2c, true), (std::vector<int>{2, 11, 14}));
    for (const auto* v : {&c, &s})
    {
        for (const auto& r : *v)
        {
            EXPECT_EQ(r.version, 0x0303); // TLS 1.2 {3,3}
        }
    }
    // ClientHello record: 5-byte header, handshake header 01 + uint24 length.
    ASSERT_GE(c[0].length, 4U);
    EXPECT_EQ(c[0].fragment[0], 1);
    EXPECT_EQ((c[0].fragment[1] << 16) | (c[0].fragment[2] << 8) | c[0].fragment[3],
              static_cast<int>(c[0].length - 4));
    EXPECT_EQ(c[0].fragment[4], 0x03); // client_version 3,3
    EXPECT_EQ(c[0].fragment[5], 0x03);
    EXPECT_EQ(c[0].fragment[4 + 2 + 32], 0); // session_id length: none offered
    // ClientKeyExchange: 10 00 01 02 | 01 00 | 256 bytes (RSA EncryptedPreMasterSecret).
    ASSERT_EQ(c[1].length, 4U + 2 + 256);
    EXPECT_EQ(Bytes(c[1].fragment.begin(), c[1].fragment.begin() + 6),
              (Bytes{16, 0x00, 0x01, 0x02, 0x01, 0x00}));
    // ChangeCipherSpec: type 20, content 0x01 (section 7.1).
    EXPECT_EQ(c[2].fragment, Bytes{0x01});
    // Finished in one record: 14 00 00 0c + 12 bytes of verify_data (section 7.4.9).
    ASSERT_EQ(c[3].length, 16U);
    EXPECT_EQ(Bytes(c[3].fragment.begin(), c[3].fragment.begin() + 4), (Bytes{20, 0, 0, 12}));
    ASSERT_EQ(s[2].length, 16U);
    EXPECT_EQ(Bytes(s[2].fragment.begin(), s[2].fragment.begin() + 4), (Bytes{20, 0, 0, 12}));
    EXPECT_NE(c[3].fragment, s[2].fragment); // different finished_label and transcript
    // ServerHello: 02 len24 | 03 03 | random(32) | 20 id(32) | 00 9c | 00, then the empty
    // Certificate 0b 00 00 03 00 00 00 and ServerHelloDone 0e 00 00 00.
    const Bytes& f = s[0].fragment;
    ASSERT_EQ(f.size(), 4U + 2 + 32 + 1 + 32 + 2 + 1 + 7 + 4);
    EXPECT_EQ(f[0], 2);
    EXPECT_EQ(f[38], 32);
    EXPECT_EQ(Bytes(f.begin() + 39, f.begin() + 71), l.client.GetSessionId());
    EXPECT_EQ(Bytes(f.begin() + 71, f.end()),
              (Bytes{0x00, 0x9c, 0x00, 11, 0, 0, 3, 0, 0, 0, 14, 0, 0, 0}));
    // Application data: type 23, the plaintext as the fragment.
    EXPECT_EQ(c[4].fragment, Ascii(kRequest));
    EXPECT_EQ(s[3].fragment, Ascii(kResponse));
}

TEST(AdcTlsEndpoint, ResumptionAcceptedKeepsTheSessionId)
{
    // REQ: CS-04 (same TLS session ID on the resumed connection)
    std::set<Bytes> cache;
    Link first(ClientConfig(21), ServerConfig(22, &cache));
    first.Handshake(0);
    ASSERT_TRUE(first.server.IsEstablished());
    cache.insert(first.server.GetSessionId());

    for (std::size_t chunk : {0U, 1U})
    {
        Link l(ClientConfig(23, first.client.GetSessionId()), ServerConfig(24, &cache));
        l.Handshake(chunk);
        ASSERT_TRUE(l.client.IsEstablished()) << l.client.GetError();
        ASSERT_TRUE(l.server.IsEstablished()) << l.server.GetError();
        EXPECT_TRUE(l.client.IsResumed());
        EXPECT_TRUE(l.server.IsResumed());
        EXPECT_EQ(l.client.GetSessionId(), first.client.GetSessionId());
        EXPECT_EQ(l.server.GetSessionId(), first.client.GetSessionId());
        // Section 7.3, figure 2: S: ServerHello, [ChangeCipherSpec], Finished;
        // C: [ChangeCipherSpec], Finished. No Certificate, no key exchange.
        EXPECT_EQ(Types(l.c2s), (std::vector<int>{22, 20, 22}));
        EXPECT_EQ(Types(l.s2c), (std::vector<int>{22, 20, 22}));
        EXPECT_EQ(Types(l.c2s, true), (std::vector<int>{1}));
        EXPECT_EQ(Types(l.s2c, true), (std::vector<int>{2}));
        const auto c = Records(l.c2s);
        EXPECT_EQ(c[0].fragment[38], 32); // session_id length offered
        EXPECT_EQ(Bytes(c[0].fragment.begin() + 39, c[0].fragment.begin() + 71),
                  first.client.GetSessionId());
        l.Pump(l.client.Send(Ascii(kRequest)), l.server.Send(Ascii(kResponse)), chunk);
        EXPECT_EQ(l.serverApp, Ascii(kRequest));
        EXPECT_EQ(l.clientApp, Ascii(kResponse));
    }
}

TEST(AdcTlsEndpoint, ResumptionRefusedGivesANewSessionId)
{
    // REQ: CS-04 (a session the server does not have is a new one, with another ID)
    std::set<Bytes> cache; // stays empty
    Link first(ClientConfig(31), ServerConfig(32, &cache));
    first.Handshake(0);
    const Bytes old = first.client.GetSessionId();
    ASSERT_EQ(old.size(), 32U);
    // Same server seed: its first random ID would be the old one again; it must not be.
    Link l(ClientConfig(33, old), ServerConfig(32, &cache));
    l.Handshake(1);
    ASSERT_TRUE(l.client.IsEstablished()) << l.client.GetError();
    ASSERT_TRUE(l.server.IsEstablished()) << l.server.GetError();
    EXPECT_FALSE(l.client.IsResumed());
    EXPECT_FALSE(l.server.IsResumed());
    EXPECT_EQ(l.client.GetSessionId().size(), 32U);
    EXPECT_NE(l.client.GetSessionId(), old);
    EXPECT_EQ(l.client.GetSessionId(), l.server.GetSessionId());
    EXPECT_EQ(Types(l.s2c, true), (std::vector<int>{2, 11, 14})); // full handshake
    EXPECT_EQ(Types(l.c2s, true), (std::vector<int>{1, 16}));
    // No canResume at all: never resumed either.
    Link none(ClientConfig(34, old), ServerConfig(35));
    none.Handshake(0);
    EXPECT_TRUE(none.client.IsEstablished());
    EXPECT_FALSE(none.client.IsResumed());
}

TEST(AdcTlsEndpoint, UnexpectedAndMalformedInputGetsTheRfcAlert)
{
    // RFC 5246 section 7.2.2: the fatal alert record 15 03 03 00 02 02 <description>.
    auto alert = [](uint8_t d) { return Bytes{21, 3, 3, 0, 2, 2, d}; };
    {
        // Application data before the handshake: unexpected_message (10).
        Ep s(ServerConfig(1));
        const auto r = s.Receive(AdcTlsRecord::BuildRecords(23, Ascii(kRequest)));
        EXPECT_EQ(r.toPeer, alert(10));
        EXPECT_TRUE(s.HasFailed());
        EXPECT_EQ(s.GetAlert(), 10);
        EXPECT_TRUE(Holds(s.GetError(), "application_data (23)"));
        EXPECT_TRUE(Holds(s.GetError(), "expecting client_hello (1)"));
        EXPECT_TRUE(Holds(s.GetError(), "unexpected_message (10)"));
        EXPECT_TRUE(r.appData.empty());
        // Anything after is ignored.
        const auto again = s.Receive(Ascii("more"));
        EXPECT_TRUE(again.toPeer.empty());
        EXPECT_TRUE(s.Send(Ascii("x")).empty());
    }
    {
        // Plain HTTP to a TLS server: 'G' (71) is no content type: unexpected_message.
        Ep s(ServerConfig(1));
        const auto r = s.Receive(Ascii(kRequest));
        EXPECT_EQ(r.toPeer, alert(10));
        EXPECT_TRUE(Holds(s.GetError(), "content type 71"));
    }
    {
        // A ClientHello sent to a client: unexpected_message.
        Ep a(ClientConfig(1));
        Ep b(ClientConfig(2));
        b.Start();
        const auto r = b.Receive(a.Start());
        EXPECT_EQ(r.toPeer, alert(10));
        EXPECT_TRUE(Holds(b.GetError(), "client_hello (1) while expecting server_hello (2)"));
    }
    {
        // A truncated ClientHello body (declared lengths run past the end): decode_error.
        Bytes hs{1, 0, 0, 5, 3, 3, 0, 0, 0};
        Ep s(ServerConfig(1));
        const auto r = s.Receive(AdcTlsRecord::BuildRecords(22, hs));
        EXPECT_EQ(r.toPeer, alert(50));
        EXPECT_TRUE(Holds(s.GetError(), "decode_error (50)"));
    }
    {
        // A ClientHello without the server's cipher suite: handshake_failure (40).
        Ep::Config cc = ClientConfig(1);
        cc.cipherSuite = 0x002f;
        Ep c(cc);
        Ep s(ServerConfig(1));
        const auto r = s.Receive(c.Start());
        EXPECT_EQ(r.toPeer, alert(40));
        EXPECT_TRUE(Holds(s.GetError(), "cipher suite 0x009c"));
        // The client, given the alert, fails without answering.
        const auto back = c.Receive(r.toPeer);
        EXPECT_TRUE(back.toPeer.empty());
        EXPECT_TRUE(c.HasFailed());
        EXPECT_TRUE(Holds(c.GetError(), "fatal alert handshake_failure (40)"));
    }
    {
        // A record longer than 2^14: record_overflow (22).
        Ep s(ServerConfig(1));
        const auto r = s.Receive(Bytes{22, 3, 3, 0x40, 0x01});
        EXPECT_EQ(r.toPeer, alert(22));
    }
    {
        // A Finished with the wrong verify_data: decrypt_error (51).
        Link l(ClientConfig(5), ServerConfig(6));
        Bytes toServer = l.client.Start();
        Bytes toClient = l.server.Receive(toServer).toPeer;
        Bytes flight = l.client.Receive(toClient).toPeer; // CKE, CCS, Finished
        flight.back() ^= 0xff;
        const auto r = l.server.Receive(flight);
        EXPECT_EQ(r.toPeer, alert(51));
        EXPECT_TRUE(Holds(l.server.GetError(), "verify_data"));
    }
    {
        // ChangeCipherSpec before the key exchange: unexpected_message.
        Ep c(ClientConfig(1));
        Ep s(ServerConfig(1));
        s.Receive(c.Start());
        const auto r = s.Receive(AdcTlsRecord::BuildChangeCipherSpec());
        EXPECT_EQ(r.toPeer, alert(10));
        EXPECT_TRUE(Holds(s.GetError(), "expecting client_key_exchange (16)"));
    }
}

TEST(AdcTlsEndpoint, CloseNotifyClosesWithoutError)
{
    Link l(ClientConfig(7), ServerConfig(8));
    l.Handshake(0);
    const Bytes close = l.client.Close();
    EXPECT_EQ(close, (Bytes{21, 3, 3, 0, 2, 1, 0})); // warning close_notify (7.2.1)
    const auto r = l.server.Receive(close);
    EXPECT_TRUE(l.server.IsClosed());
    EXPECT_FALSE(l.server.HasFailed());
    EXPECT_EQ(l.server.GetError(), "");
    EXPECT_EQ(r.toPeer, close); // answered by its own close_notify
    EXPECT_TRUE(l.client.Send(Ascii("late")).empty());
}

TEST(AdcTlsEndpoint, SendQueuesUntilAllowedAndSplitsAtTwoToTheFourteen)
{
    Link l(ClientConfig(9), ServerConfig(10));
    EXPECT_FALSE(l.client.CanSend());
    EXPECT_TRUE(l.client.Send(Ascii(kRequest)).empty()); // queued, not lost
    l.Handshake(0);
    EXPECT_EQ(l.serverApp, Ascii(kRequest));
    const Bytes big(40000, 'x');
    const Bytes wire = l.server.Send(big);
    std::vector<std::size_t> lengths;
    for (const auto& r : Records(wire))
    {
        EXPECT_EQ(r.type, 23);
        lengths.push_back(r.length);
    }
    EXPECT_EQ(lengths, (std::vector<std::size_t>{16384, 16384, 40000 - 2 * 16384}));
    l.Pump({}, wire, 1000);
    EXPECT_EQ(l.clientApp, big);
}

TEST(AdcTlsEndpoint, BadConfigurationIsAConfigError)
{
    EXPECT_THROW(Ep(ClientConfig(1, Bytes(33, 1))), AdcConfigError);
    Ep::Config s = ServerConfig(1);
    s.serverName = "x";
    EXPECT_THROW(Ep{s}, AdcConfigError);
    try
    {
        Ep e(ClientConfig(1, Bytes(33, 1)));
        FAIL();
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_TRUE(Holds(e.what(), "resumeSessionId of 33 bytes"));
        EXPECT_TRUE(Holds(e.what(), "0 to 32"));
    }
}

TEST(AdcTlsEndpoint, SameSeedSameBytes)
{
    Link a(ClientConfig(41), ServerConfig(42));
    Link b(ClientConfig(41), ServerConfig(42));
    a.Handshake(0);
    b.Handshake(5);
    EXPECT_EQ(a.c2s, b.c2s);
    EXPECT_EQ(a.s2c, b.s2c);
    Link c(ClientConfig(43), ServerConfig(44));
    c.Handshake(0);
    EXPECT_NE(a.c2s, c.c2s);
    EXPECT_NE(a.client.GetSessionId(), c.client.GetSessionId());
}

TEST(AdcTlsEndpoint, ObserverReadsSessionIdsOfFullAndResumedConnections)
{
    // REQ: CS-04, CS-07 (SSL_BRIDGE persists on the session ID it reads from the hellos)
    std::set<Bytes> cache;
    Link first(ClientConfig(51), ServerConfig(52, &cache));
    first.Handshake(0);
    cache.insert(first.server.GetSessionId());
    Link second(ClientConfig(53, first.client.GetSessionId()), ServerConfig(54, &cache));
    second.Handshake(0);
    ASSERT_TRUE(second.client.IsResumed());
    for (std::size_t chunk : {0U, 1U})
    {
        for (const Link* l : {&first, &second})
        {
            AdcTlsObserver o;
            for (std::size_t at = 0; at < l->c2s.size(); at += chunk == 0 ? l->c2s.size() : 1)
            {
                o.FeedFromClient(l->c2s.data() + at, chunk == 0 ? l->c2s.size() : 1);
            }
            EXPECT_FALSE(o.IsHelloDone());
            for (std::size_t at = 0; at < l->s2c.size(); at += chunk == 0 ? l->s2c.size() : 1)
            {
                o.FeedFromServer(l->s2c.data() + at, chunk == 0 ? l->s2c.size() : 1);
            }
            EXPECT_EQ(o.GetError(), "");
            EXPECT_TRUE(o.IsHelloDone());
            EXPECT_EQ(o.GetSessionId(), l->client.GetSessionId());
            EXPECT_EQ(o.GetServerName(), "www.example.com");
            EXPECT_EQ(o.IsResumed(), l == &second);
            EXPECT_EQ(o.GetOfferedSessionId(),
                      l == &second ? first.client.GetSessionId() : Bytes{});
            EXPECT_EQ(o.GetBytesSeen(), l->c2s.size() + l->s2c.size());
        }
    }
    // Garbage stops the looking, with a reason.
    AdcTlsObserver g;
    g.FeedFromClient(Ascii(kRequest));
    g.FeedFromServer(Bytes{22, 3, 3, 0, 4, 14, 0, 0, 0}); // ServerHelloDone first
    EXPECT_FALSE(g.IsClientHelloSeen());
    EXPECT_FALSE(g.IsHelloDone());
    EXPECT_TRUE(Holds(g.GetError(), "client stream: "));
    EXPECT_TRUE(Holds(g.GetError(), "content type 71"));
    EXPECT_TRUE(Holds(g.GetError(),
                      "server stream: the first handshake message is "
                      "server_hello_done (14)"));
    g.FeedFromClient(first.c2s); // ignored now
    EXPECT_FALSE(g.IsClientHelloSeen());
}

// ---------------------------------------------------------------------- pcap / Wireshark

namespace
{

/// Two nodes over point-to-point; each TCP connection to port 443 carries an AdcTlsEndpoint
/// on both sides: handshake, an HTTP request from the client, the response, close_notify.
class EndpointScenario
{
  public:
    /// \param server server node \param client client node \param address server address
    EndpointScenario(Ptr<Node> server, Ptr<Node> client, Ipv4Address address)
        : m_client(client),
          m_address(address)
    {
        m_listener = Socket::CreateSocket(server, TcpSocketFactory::GetTypeId());
        m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 443));
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&EndpointScenario::Accepted, this));
    }

    /// \param sessionId the ID to offer (empty: none)
    void Connect(Bytes sessionId)
    {
        Ptr<Socket> s = Socket::CreateSocket(m_client, TcpSocketFactory::GetTypeId());
        m_eps[PeekPointer(s)] = std::make_unique<Ep>(ClientConfig(100 + m_eps.size(), sessionId));
        s->SetConnectCallback(MakeCallback(&EndpointScenario::Connected, this),
                              MakeNullCallback<void, Ptr<Socket>>());
        s->SetRecvCallback(MakeCallback(&EndpointScenario::Recv, this));
        s->Connect(InetSocketAddress(m_address, 443));
        m_sockets.push_back(s);
    }

    std::set<Bytes> cache;            //!< the server's session cache
    std::vector<Bytes> ids;           //!< session IDs the clients established
    std::vector<bool> resumed;        //!< per client, resumed or not
    std::vector<std::string> answers; //!< responses the clients received
    std::string error;                //!< any endpoint error

  private:
    /// \param s socket \param b bytes
    static void Send(Ptr<Socket> s, const Bytes& b)
    {
        if (!b.empty())
        {
            s->Send(b.data(), b.size(), 0);
        }
    }

    /// \param s the connected client socket
    void Connected(Ptr<Socket> s)
    {
        Send(s, m_eps[PeekPointer(s)]->Start());
    }

    /// \param s accepted socket \param from peer
    void Accepted(Ptr<Socket> s, const Address& from)
    {
        m_eps[PeekPointer(s)] = std::make_unique<Ep>(ServerConfig(200 + m_eps.size(), &cache));
        s->SetRecvCallback(MakeCallback(&EndpointScenario::Recv, this));
        m_sockets.push_back(s);
    }

    /// \param s either side's socket
    void Recv(Ptr<Socket> s)
    {
        Ep& ep = *m_eps[PeekPointer(s)];
        const bool client = s->GetNode() == m_client;
        Ptr<Packet> p;
        while ((p = s->Recv()))
        {
            Bytes b(p->GetSize());
            p->CopyData(b.data(), b.size());
            const auto r = ep.Receive(b);
            Send(s, r.toPeer);
            if (r.justEstablished && client)
            {
                ids.push_back(ep.GetSessionId());
                resumed.push_back(ep.IsResumed());
                Send(s, ep.Send(Ascii(kRequest)));
            }
            if (r.justEstablished && !client)
            {
                cache.insert(ep.GetSessionId());
            }
            if (!r.appData.empty() && !client)
            {
                Send(s, ep.Send(Ascii(kResponse)));
            }
            if (!r.appData.empty() && client)
            {
                answers.emplace_back(r.appData.begin(), r.appData.end());
                Send(s, ep.Close());
            }
            error += ep.GetError();
        }
    }

    Ptr<Node> m_client;                           //!< client node
    Ipv4Address m_address;                        //!< server address
    Ptr<Socket> m_listener;                       //!< listening socket
    std::vector<Ptr<Socket>> m_sockets;           //!< every socket
    std::map<Socket*, std::unique_ptr<Ep>> m_eps; //!< per socket
};

} // namespace

TEST(AdcTlsEndpoint, PcapOfFullAndResumedConnectionDecodesInWireshark)
{
    // REQ: CS-04 (the resumed connection's ServerHello carries the first one's session ID)
    // REQ: CS-07
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("adc-tls-endpoint-test-" + std::to_string(getpid())))
                                .string();
    std::filesystem::create_directories(dir);
    std::string error;
    std::vector<Bytes> ids;
    std::vector<bool> resumed;
    std::vector<std::string> answers;
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
        EndpointScenario sc(nodes.Get(0), nodes.Get(1), ifs.GetAddress(0));
        Simulator::Schedule(Seconds(1), [&sc]() { sc.Connect({}); });
        Simulator::Schedule(Seconds(2),
                            [&sc]() { sc.Connect(sc.ids.empty() ? Bytes{} : sc.ids.front()); });
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        Simulator::Destroy();
        error = sc.error;
        ids = sc.ids;
        resumed = sc.resumed;
        answers = sc.answers;
    }
    ASSERT_EQ(error, "");
    ASSERT_EQ(ids.size(), 2U);
    EXPECT_EQ(ids[0], ids[1]);
    EXPECT_EQ(resumed, (std::vector<bool>{false, true}));
    EXPECT_EQ(answers, (std::vector<std::string>{kResponse, kResponse}));

    const std::string pcap = dir + "/tls-1-0.pcap"; // the client's device
    ASSERT_TRUE(std::filesystem::exists(pcap)) << pcap;
    const std::string tshark = "tshark -n -r '" + pcap + "' ";
    auto fields = [&](const std::string& filter, const std::string& field) {
        return adctest::OutputLines(adctest::RunCommand(
            tshark + "-Y '" + filter + "' -T fields -E occurrence=a -e " + field + " 2>/dev/null"));
    };
    // Every handshake type of RFC 5246 7.3 that goes in clear, once per full handshake.
    std::map<std::string, int> types;
    for (const auto& line : fields("tls.handshake.type", "tls.handshake.type"))
    {
        std::istringstream is(line);
        std::string t;
        while (std::getline(is, t, ','))
        {
            ++types[t];
        }
    }
    EXPECT_EQ(types["1"], 2);  // ClientHello, both connections
    EXPECT_EQ(types["2"], 2);  // ServerHello, both
    EXPECT_EQ(types["11"], 1); // Certificate: full handshake only
    EXPECT_EQ(types["14"], 1); // ServerHelloDone: full only
    EXPECT_EQ(types["16"], 1); // ClientKeyExchange: full only
    const std::string hex = AdcTlsToHex(ids[0]);
    EXPECT_EQ(fields("tls.handshake.type == 2", "tls.handshake.session_id"),
              (std::vector<std::string>{hex, hex}));
    EXPECT_EQ(fields("tls.handshake.type == 1", "tls.handshake.session_id_length"),
              (std::vector<std::string>{"0", "32"}));
    EXPECT_EQ(fields("tls.handshake.extensions_server_name == \"www.example.com\"", "frame.number")
                  .size(),
              2U);
    EXPECT_EQ(fields("tls.resumed", "frame.number").size(), 1U); // Wireshark's own verdict
    EXPECT_GE(fields("tls.record.content_type == 23", "frame.number").size(), 4U);
    EXPECT_GE(fields("tls.record.content_type == 20", "frame.number").size(), 4U);
    EXPECT_TRUE(fields("_ws.malformed || _ws.expert.severity == error", "frame.number").empty());
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir);
    }
}
