/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcHttpMessage (HTTP/1.1 head wire format and parser) and AdcHttpStreamParser.
 */

#include "ns3/adc-http-message.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using PS = AdcHttpMessage::ParseStatus;

/// Parse a string; returns status, fills consumed/error.
PS
ParseStr(const std::string& s, AdcHttpMessage* m, std::size_t* consumed, std::string* err)
{
    return m->Parse(reinterpret_cast<const uint8_t*>(s.data()), s.size(), consumed, err);
}

/// Bytes of a packet as a string.
std::string
PacketBytes(Ptr<const Packet> p)
{
    std::string s(p->GetSize(), '\0');
    p->CopyData(reinterpret_cast<uint8_t*>(&s[0]), p->GetSize());
    return s;
}

/// A valid request / response set for prefix, split and fuzz tests.
const std::vector<std::string>&
ValidHeads()
{
    static const std::vector<std::string> v = {
        "GET /obj/1 HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 10.1.0.5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nServer: srv1\r\nContent-Length: 5\r\n\r\n",
        "POST /form?x=1 HTTP/1.0\r\nContent-Length: 3\r\nConnection: keep-alive\r\n\r\n",
        "HTTP/1.1 404 Not Found\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n",
        "HEAD / HTTP/1.1\r\n\r\n",
    };
    return v;
}

} // namespace

TEST(AdcHttpMessage, RequestSerializesToExactWireBytes)
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest("GET", "/obj/1");
    m.SetHeader("Host", "a");
    m.SetHeader("X-Forwarded-For", "10.1.0.5");
    const std::string expected =
        "GET /obj/1 HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 10.1.0.5\r\n\r\n";
    EXPECT_EQ(m.ToWireString(), expected);
    EXPECT_EQ(m.GetSerializedSize(), 59u); // counted by hand: 21 + 9 + 27 + 2
    EXPECT_EQ(expected.size(), 59u);

    Ptr<Packet> p = Create<Packet>(7); // body bytes follow the head
    p->AddHeader(m);
    EXPECT_EQ(p->GetSize(), 59u + 7u);
    EXPECT_EQ(PacketBytes(p).substr(0, 59), expected);

    AdcHttpMessage back;
    EXPECT_EQ(p->RemoveHeader(back), 59u);
    EXPECT_EQ(back.GetKind(), AdcHttpMessage::REQUEST);
    EXPECT_EQ(back.GetMethod(), "GET");
    EXPECT_EQ(back.GetTarget(), "/obj/1");
    EXPECT_EQ(back.GetVersion(), "HTTP/1.1");
    EXPECT_EQ(back.GetHeader("x-forwarded-for").value_or(""), "10.1.0.5");
    EXPECT_EQ(back.ToWireString(), expected);
    EXPECT_EQ(p->GetSize(), 7u);
}

TEST(AdcHttpMessage, ResponseSerializesToExactWireBytes)
{
    AdcHttpMessage m = AdcHttpMessage::MakeResponse(200, "OK");
    m.SetHeader("Server", "s1");
    m.SetContentLength(10240);
    const std::string expected = "HTTP/1.1 200 OK\r\nServer: s1\r\nContent-Length: 10240\r\n\r\n";
    EXPECT_EQ(m.ToWireString(), expected);

    AdcHttpMessage back;
    std::size_t consumed = 0;
    std::string err;
    ASSERT_EQ(ParseStr(expected + "BODY", &back, &consumed, &err), PS::COMPLETE) << err;
    EXPECT_EQ(consumed, expected.size());
    EXPECT_EQ(back.GetKind(), AdcHttpMessage::RESPONSE);
    EXPECT_EQ(back.GetStatus(), 200);
    EXPECT_EQ(back.GetReason(), "OK");
    EXPECT_EQ(back.GetContentLength(), 10240u);
    EXPECT_EQ(back.GetHeader("SERVER").value_or(""), "s1");
}

TEST(AdcHttpMessage, HeaderSetAddRemoveAreCaseInsensitive)
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest("GET", "/");
    m.SetHeader("Host", "a");
    m.SetHeader("Accept", "*/*");
    m.SetHeader("HOST", "b"); // replaces in place, keeps position
    ASSERT_EQ(m.GetHeaderList().size(), 2u);
    EXPECT_EQ(m.GetHeaderList()[0].first, "HOST");
    EXPECT_EQ(m.GetHeaderList()[0].second, "b");
    EXPECT_EQ(m.GetHeader("host").value_or(""), "b");

    m.AddHeader("Set-Cookie", "a=1");
    m.AddHeader("set-cookie", "b=2");
    EXPECT_EQ(m.GetHeaders("SET-COOKIE"), (std::vector<std::string>{"a=1", "b=2"}));
    EXPECT_EQ(m.GetHeader("Set-Cookie").value_or(""), "a=1");
    m.SetHeader("Set-Cookie", "c=3"); // replaces both
    EXPECT_EQ(m.GetHeaders("set-cookie"), (std::vector<std::string>{"c=3"}));

    EXPECT_TRUE(m.RemoveHeader("accept"));
    EXPECT_FALSE(m.RemoveHeader("accept"));
    EXPECT_FALSE(m.GetHeader("Accept").has_value());
    EXPECT_EQ(m.ToWireString(), "GET / HTTP/1.1\r\nHOST: b\r\nSet-Cookie: c=3\r\n\r\n");

    EXPECT_EQ(m.GetContentLength(), 0u);
    m.SetContentLength(42);
    EXPECT_EQ(m.GetContentLength(), 42u);
}

TEST(AdcHttpMessage, ParseTrimsOptionalWhitespace)
{
    AdcHttpMessage m;
    std::string err;
    ASSERT_EQ(ParseStr("GET / HTTP/1.1\r\nHost:   a b \t\r\nX:\r\n\r\n", &m, nullptr, &err),
              PS::COMPLETE)
        << err;
    EXPECT_EQ(m.GetHeader("Host").value_or("?"), "a b");
    EXPECT_EQ(m.GetHeader("X").value_or("?"), "");
}

TEST(AdcHttpMessage, KeepAliveFollowsVersionAndConnectionHeader)
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest("GET", "/");
    EXPECT_TRUE(m.IsKeepAlive());
    m.SetHeader("Connection", "Close");
    EXPECT_FALSE(m.IsKeepAlive());
    m.SetVersion("HTTP/1.0");
    m.RemoveHeader("Connection");
    EXPECT_FALSE(m.IsKeepAlive());
    m.SetHeader("Connection", "Keep-Alive");
    EXPECT_TRUE(m.IsKeepAlive());
}

TEST(AdcHttpMessage, EveryPrefixOfAValidHeadIsIncomplete)
{
    for (const auto& full : ValidHeads())
    {
        for (std::size_t n = 0; n < full.size(); ++n)
        {
            AdcHttpMessage m;
            std::size_t consumed = 99;
            std::string err = "x";
            EXPECT_EQ(ParseStr(full.substr(0, n), &m, &consumed, &err), PS::INCOMPLETE)
                << "prefix " << n << " of " << full << " err " << err;
            EXPECT_EQ(consumed, 0u);
            EXPECT_TRUE(err.empty());
        }
        AdcHttpMessage m;
        std::size_t consumed = 0;
        EXPECT_EQ(ParseStr(full, &m, &consumed, nullptr), PS::COMPLETE) << full;
        EXPECT_EQ(consumed, full.size());
        EXPECT_EQ(m.ToWireString(), full); // these are in canonical form
    }
}

TEST(AdcHttpMessage, MalformedHeadsAreErrorsWithAReason)
{
    const std::vector<std::string> bad = {
        "\r\n\r\n",                                      // empty start line
        "GET\r\n\r\n",                                   // no target, no version
        "GET /x\r\n\r\n",                                // missing version
        "GET /x HTTP/2.0\r\n\r\n",                       // unsupported version
        "GET /x HTTP/1.1 extra\r\n\r\n",                 // trailing garbage
        "GET  /x HTTP/1.1\r\n\r\n",                      // empty target
        "G(T /x HTTP/1.1\r\n\r\n",                       // bad method token
        "GET /a\x01 HTTP/1.1\r\n\r\n",                   // control char in target
        "GET / HTTP/1.1\nHost: a\r\n\r\n",               // bare LF
        "GET / HTTP/1.1\rHost: a\r\n\r\n",               // bare CR
        "GET / HTTP/1.1\r\nHost a\r\n\r\n",              // no colon
        "GET / HTTP/1.1\r\nHost : a\r\n\r\n",            // space before colon
        "GET / HTTP/1.1\r\nH@st: a\r\n\r\n",             // bad token char
        "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",  // obs-fold
        "GET / HTTP/1.1\r\nHost: a\x7f\r\n\r\n",         // DEL in value
        "GET / HTTP/1.1\r\nContent-Length: 12a\r\n\r\n", // non-numeric
        "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",  // signed
        "GET / HTTP/1.1\r\nContent-Length:\r\n\r\n",     // empty
        "GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", // conflicting
        "GET / HTTP/1.1\r\nContent-Length: 1099511627777\r\n\r\n",          // 2^40 + 1
        "HTTP/1.1 2x0 OK\r\n\r\n",                                          // non-numeric status
        "HTTP/1.1 099 Low\r\n\r\n",                                         // status out of range
        "HTTP/1.1 200OK\r\n\r\n",                                           // no SP after status
        "HTTP/3 200 OK\r\n\r\n",                                            // bad version
        "HTTP/1.1\r\n\r\n",                                                 // status line too short
    };
    for (const auto& s : bad)
    {
        AdcHttpMessage m;
        std::size_t consumed = 7;
        std::string err;
        EXPECT_EQ(ParseStr(s, &m, &consumed, &err), PS::ERROR) << s;
        EXPECT_FALSE(err.empty()) << s;
        EXPECT_EQ(consumed, 0u);
        EXPECT_EQ(m.ToWireString(), AdcHttpMessage().ToWireString()) << "unchanged on error";
    }
}

TEST(AdcHttpMessage, AcceptsBoundaryValues)
{
    AdcHttpMessage m;
    std::string err;
    // 2^40 exactly, and duplicate equal Content-Length values
    EXPECT_EQ(
        ParseStr("GET / HTTP/1.1\r\nContent-Length: 1099511627776\r\n\r\n", &m, nullptr, &err),
        PS::COMPLETE)
        << err;
    EXPECT_EQ(m.GetContentLength(), 1099511627776ULL);
    EXPECT_EQ(ParseStr("GET / HTTP/1.1\r\nContent-Length: 5\r\ncontent-length: 05\r\n\r\n",
                       &m,
                       nullptr,
                       &err),
              PS::COMPLETE)
        << err;
    EXPECT_EQ(m.GetContentLength(), 5u);
    // status line without reason phrase, HTTP/1.0
    EXPECT_EQ(ParseStr("HTTP/1.0 204\r\n\r\n", &m, nullptr, &err), PS::COMPLETE) << err;
    EXPECT_EQ(m.GetStatus(), 204);
    EXPECT_EQ(m.GetReason(), "");
    EXPECT_EQ(m.GetVersion(), "HTTP/1.0");
}

TEST(AdcHttpMessage, HeaderCountLimitIsOneHundred)
{
    auto make = [](int n) {
        std::string s = "GET / HTTP/1.1\r\n";
        for (int i = 0; i < n; ++i)
        {
            s += "H" + std::to_string(i) + ": v\r\n";
        }
        return s + "\r\n";
    };
    AdcHttpMessage m;
    std::string err;
    EXPECT_EQ(ParseStr(make(100), &m, nullptr, &err), PS::COMPLETE) << err;
    EXPECT_EQ(m.GetHeaderList().size(), 100u);
    EXPECT_EQ(ParseStr(make(101), &m, nullptr, &err), PS::ERROR);
    EXPECT_NE(err.find("100"), std::string::npos) << err;
    // detected before the head is complete
    std::string partial = make(101);
    partial.resize(partial.size() - 2);
    EXPECT_EQ(ParseStr(partial, &m, nullptr, &err), PS::ERROR);
}

TEST(AdcHttpMessage, HeadSizeLimitIs16KiB)
{
    // "GET / HTTP/1.1\r\n" (16) + "X: " (3) + value + "\r\n\r\n" (4) = 23 + value
    const std::size_t limit = 16384;
    std::string atLimit = "GET / HTTP/1.1\r\nX: " + std::string(limit - 23, 'a') + "\r\n\r\n";
    ASSERT_EQ(atLimit.size(), limit);
    AdcHttpMessage m;
    std::size_t consumed = 0;
    std::string err;
    EXPECT_EQ(ParseStr(atLimit, &m, &consumed, &err), PS::COMPLETE) << err;
    EXPECT_EQ(consumed, limit);

    std::string over = "GET / HTTP/1.1\r\nX: " + std::string(limit - 22, 'a') + "\r\n\r\n";
    EXPECT_EQ(ParseStr(over, &m, &consumed, &err), PS::ERROR);
    EXPECT_FALSE(err.empty());
    // an endless header line is an error once the limit is reached, incomplete before
    std::string endless = "GET / HTTP/1.1\r\nX: " + std::string(limit, 'a');
    EXPECT_EQ(ParseStr(endless.substr(0, limit - 1), &m, &consumed, &err), PS::INCOMPLETE);
    EXPECT_EQ(ParseStr(endless, &m, &consumed, &err), PS::ERROR);
}

TEST(AdcHttpMessage, DeserializeReturnsZeroOnIncompleteOrMalformed)
{
    std::string partial = "GET / HTTP/1.1\r\nHost: a\r\n";
    Ptr<Packet> p =
        Create<Packet>(reinterpret_cast<const uint8_t*>(partial.data()), partial.size());
    AdcHttpMessage m;
    EXPECT_EQ(p->PeekHeader(m), 0u);
    std::string bad = "GET / HTTP/1.1\nHost: a\r\n\r\n";
    Ptr<Packet> q = Create<Packet>(reinterpret_cast<const uint8_t*>(bad.data()), bad.size());
    EXPECT_EQ(q->PeekHeader(m), 0u);
}

TEST(AdcHttpMessage, FuzzedBytesNeverCrashAndRespectBounds)
{
    std::mt19937_64 rng(12345);
    const std::string alphabet = "GETHP/1.0 \r\n:abcXContent-Length9";
    auto check = [](const std::string& s, std::size_t* completes) {
        AdcHttpMessage m;
        std::size_t consumed = 0;
        std::string err;
        PS st = ParseStr(s, &m, &consumed, &err);
        ASSERT_TRUE(st == PS::COMPLETE || st == PS::INCOMPLETE || st == PS::ERROR);
        ASSERT_LE(consumed, s.size());
        if (st == PS::COMPLETE)
        {
            ++*completes;
            ASSERT_GE(consumed, 4u);
            ASSERT_EQ(s.substr(consumed - 4, 4), "\r\n\r\n");
            // what was accepted re-serializes to a head that parses to the same wire form
            std::string wire = m.ToWireString();
            AdcHttpMessage again;
            std::size_t c2 = 0;
            ASSERT_EQ(ParseStr(wire, &again, &c2, nullptr), PS::COMPLETE) << wire;
            ASSERT_EQ(c2, wire.size());
            ASSERT_EQ(again.ToWireString(), wire);
        }
        else
        {
            ASSERT_EQ(consumed, 0u);
            ASSERT_EQ(st == PS::ERROR, !err.empty());
        }
    };
    std::size_t completes = 0;
    for (int i = 0; i < 20000; ++i)
    {
        std::size_t n = rng() % 200;
        std::string s(n, '\0');
        bool text = (i % 2) == 0; // half raw bytes, half HTTP-ish characters
        for (auto& c : s)
        {
            c = text ? alphabet[rng() % alphabet.size()] : static_cast<char>(rng() & 0xff);
        }
        check(s, &completes);
    }
    for (int i = 0; i < 20000; ++i)
    {
        std::string s = ValidHeads()[rng() % ValidHeads().size()];
        int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !s.empty(); ++e)
        {
            std::size_t at = rng() % s.size();
            switch (rng() % 4)
            {
            case 0:
                s[at] = static_cast<char>(s[at] ^ (1u << (rng() % 8)));
                break;
            case 1:
                s.resize(at);
                break;
            case 2:
                s.insert(at, 1, static_cast<char>(rng() & 0xff));
                break;
            default:
                s.erase(at, 1);
                break;
            }
        }
        check(s, &completes);
    }
    // the mutations keep some heads valid, so the COMPLETE branch was exercised
    EXPECT_GT(completes, 100u);
}

namespace
{

/// The three pipelined messages (two with bodies) used by the stream tests.
std::string
Pipelined()
{
    return "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
           "POST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
           "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n0123456789ab";
}

struct Got
{
    std::string wire;
    uint64_t body;
    uint64_t headBytes;
};

std::vector<Got>
Drain(AdcHttpStreamParser& p)
{
    std::vector<Got> r;
    AdcHttpMessage m;
    uint64_t body = 0;
    uint64_t hb = 0;
    while (p.Next(&m, &body, &hb))
    {
        r.push_back({m.ToWireString(), body, hb});
    }
    return r;
}

void
FeedStr(AdcHttpStreamParser& p, const std::string& s)
{
    p.Feed(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

void
ExpectThePipelinedThree(const std::vector<Got>& got)
{
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].wire, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n");
    EXPECT_EQ(got[0].body, 0u);
    EXPECT_EQ(got[0].headBytes, 28u);
    EXPECT_EQ(got[1].wire, "POST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\n");
    EXPECT_EQ(got[1].body, 5u);
    EXPECT_EQ(got[1].headBytes, 39u);
    EXPECT_EQ(got[2].wire, "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n");
    EXPECT_EQ(got[2].body, 12u);
    EXPECT_EQ(got[2].headBytes, 39u);
}

} // namespace

TEST(AdcHttpStreamParser, PipelinedMessagesSplitAtEveryBoundary)
{
    const std::string s = Pipelined();
    for (std::size_t cut = 0; cut <= s.size(); ++cut)
    {
        AdcHttpStreamParser p;
        FeedStr(p, s.substr(0, cut));
        FeedStr(p, s.substr(cut));
        EXPECT_FALSE(p.HasError()) << p.GetError();
        EXPECT_FALSE(p.IsMidMessage());
        ExpectThePipelinedThree(Drain(p));
    }
    // two cuts, every pair
    for (std::size_t a = 0; a <= s.size(); a += 3)
    {
        for (std::size_t b = a; b <= s.size(); ++b)
        {
            AdcHttpStreamParser p;
            FeedStr(p, s.substr(0, a));
            FeedStr(p, s.substr(a, b - a));
            FeedStr(p, s.substr(b));
            ExpectThePipelinedThree(Drain(p));
        }
    }
}

TEST(AdcHttpStreamParser, ByteByByteAndPacketFeedsGiveTheSameMessages)
{
    const std::string s = Pipelined();
    AdcHttpStreamParser p;
    std::size_t seenAfterFirstHead = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
    {
        FeedStr(p, s.substr(i, 1));
        if (i == 27) // last byte of the first head: it is complete right then
        {
            AdcHttpMessage m;
            seenAfterFirstHead = p.Next(&m, nullptr) ? 1 : 0;
            EXPECT_EQ(m.GetTarget(), "/a");
        }
    }
    EXPECT_EQ(seenAfterFirstHead, 1u);
    auto rest = Drain(p);
    ASSERT_EQ(rest.size(), 2u);
    EXPECT_EQ(rest[1].body, 12u);
    EXPECT_EQ(p.GetBytesFed(), s.size());

    AdcHttpStreamParser q;
    q.Feed(Create<Packet>(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
    ExpectThePipelinedThree(Drain(q));
}

TEST(AdcHttpStreamParser, LargeBodiesAreCountedNotStored)
{
    AdcHttpStreamParser p;
    FeedStr(p, "HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n");
    EXPECT_TRUE(p.IsMidMessage());
    std::vector<uint8_t> chunk(1460, 'z');
    uint64_t sent = 0;
    while (sent < 1000000)
    {
        std::size_t n = std::min<uint64_t>(chunk.size(), 1000000 - sent);
        p.Feed(chunk.data(), n);
        sent += n;
    }
    uint64_t body = 0;
    ASSERT_TRUE(p.Next(nullptr, &body));
    EXPECT_EQ(body, 1000000u);
    EXPECT_FALSE(p.IsMidMessage());
}

TEST(AdcHttpStreamParser, ErrorPoisonsTheStream)
{
    AdcHttpStreamParser p;
    FeedStr(p, "GET /ok HTTP/1.1\r\n\r\nBAD LINE\r\n\r\nGET /later HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(p.HasError());
    EXPECT_FALSE(p.GetError().empty());
    AdcHttpMessage m;
    ASSERT_TRUE(p.Next(&m, nullptr)); // the message completed before the error
    EXPECT_EQ(m.GetTarget(), "/ok");
    EXPECT_FALSE(p.Next(&m, nullptr));
    FeedStr(p, "GET /more HTTP/1.1\r\n\r\n");
    EXPECT_FALSE(p.Next(&m, nullptr));

    // Chunked bodies are read now (adc-http-framing-test.cc); Transfer-Encoding together with
    // Content-Length stays an error (RFC 9112 section 6.3 item 3, request smuggling).
    AdcHttpStreamParser te;
    FeedStr(te,
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"
            "5\r\nhello\r\n0\r\n\r\n");
    EXPECT_TRUE(te.HasError());
    EXPECT_NE(te.GetError().find("Transfer-Encoding"), std::string::npos);
}

TEST(AdcHttpStreamParser, IgnoreBodiesForHeadReplies)
{
    AdcHttpStreamParser p;
    p.SetIgnoreBodies(true);
    FeedStr(p,
            "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: "
            "7\r\n\r\n");
    uint64_t body = 99;
    ASSERT_TRUE(p.Next(nullptr, &body));
    EXPECT_EQ(body, 0u);
    ASSERT_TRUE(p.Next(nullptr, &body));
    EXPECT_EQ(body, 0u);
}

TEST(AdcHttpStreamParser, FuzzedChunkedStreamsNeverCrash)
{
    std::mt19937_64 rng(777);
    const std::string base = Pipelined();
    for (int i = 0; i < 20000; ++i)
    {
        std::string s = base;
        bool mutate = (i % 4) != 0;
        if (mutate)
        {
            int edits = 1 + static_cast<int>(rng() % 4);
            for (int e = 0; e < edits && !s.empty(); ++e)
            {
                std::size_t at = rng() % s.size();
                switch (rng() % 3)
                {
                case 0:
                    s[at] = static_cast<char>(s[at] ^ (1u << (rng() % 8)));
                    break;
                case 1:
                    s.insert(at, 1, static_cast<char>(rng() & 0xff));
                    break;
                default:
                    s.erase(at, 1);
                    break;
                }
            }
        }
        AdcHttpStreamParser p;
        std::size_t pos = 0;
        while (pos < s.size())
        {
            std::size_t n = 1 + rng() % 20;
            n = std::min(n, s.size() - pos);
            FeedStr(p, s.substr(pos, n));
            pos += n;
        }
        auto got = Drain(p);
        // every message ends its head with its own CRLF CRLF, so there are at most that many
        std::size_t terminators = 0;
        for (std::size_t at = s.find("\r\n\r\n"); at != std::string::npos;
             at = s.find("\r\n\r\n", at + 4))
        {
            ++terminators;
        }
        ASSERT_LE(got.size(), terminators);
        ASSERT_EQ(p.GetBytesFed(), s.size());
        if (!mutate)
        {
            ASSERT_FALSE(p.HasError());
            ExpectThePipelinedThree(got);
        }
    }
}
