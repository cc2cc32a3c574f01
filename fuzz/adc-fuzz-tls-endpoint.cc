/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Fuzz target "tls-endpoint": AdcTlsEndpoint in the server role, and an AdcTlsObserver, fed
 * the input as if a client sent it, cut into pieces at points drawn from a generator seeded by
 * the input itself.
 *
 * Properties: nothing crashes or throws; a failed server has an error text and its last
 * answer ends with a fatal alert record (15 03 03 00 02 02 xx) and it answers nothing more;
 * the observer and the server agree on the ClientHello's SNI when both read one. Whenever the
 * server is established (possible when the input carries a valid client flight), a round trip
 * through Send()/Receive() to a fresh client holds: a server flight answered correctly needs
 * the seeded client, so the round trip also runs once per input on a real client/server pair
 * whose seeds come from the input.
 */

// REQ: CS-04 (session IDs read from any byte stream without crashing)
// REQ: CS-07 (SSL_BRIDGE's observer, HTTPS's endpoint)

#include "adc-fuzz.h"

#include "ns3/adc-tls-endpoint.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

/// \param b the receiver \param data bytes for it \param app where to append the application
/// data it received (nullptr: dropped) \return its answer
Bytes
Deliver(AdcTlsEndpoint& b, const Bytes& data, Bytes* app = nullptr)
{
    const auto r = b.Receive(data);
    if (app != nullptr)
    {
        app->insert(app->end(), r.appData.begin(), r.appData.end());
    }
    return r.toPeer;
}

/// \brief A client and a server from the input's seeds, a handshake, then app data both ways.
/// The second round offers the first round's session (resumed when the server's cache says so).
/// \param seed seeds \param payload app data
void
RoundTrip(uint64_t seed, const Bytes& payload)
{
    AdcTlsEndpoint::Config cc;
    cc.seed = seed;
    cc.serverName = "fuzz.example";
    AdcTlsEndpoint::Config sc;
    sc.role = AdcTlsEndpoint::SERVER;
    sc.seed = seed * 31 + 7;
    sc.canResume = [](const Bytes& id) { return !id.empty() && id[0] % 2 == 0; };
    for (int round = 0; round < 2; ++round)
    {
        AdcTlsEndpoint c(cc);
        AdcTlsEndpoint s(sc);
        AdcTlsObserver o;
        Bytes toS = c.Start();
        Bytes toC;
        for (int i = 0; i < 8 && (!toS.empty() || !toC.empty()); ++i)
        {
            o.FeedFromClient(toS);
            o.FeedFromServer(toC);
            const Bytes answer = Deliver(s, toS);
            toS = Deliver(c, toC);
            toC = answer;
        }
        ADC_FUZZ_CHECK(c.IsEstablished() && s.IsEstablished());
        ADC_FUZZ_CHECK(c.GetSessionId() == s.GetSessionId() && c.GetSessionId().size() == 32);
        ADC_FUZZ_CHECK(o.GetError().empty() && o.GetSessionId() == c.GetSessionId());
        ADC_FUZZ_CHECK(o.IsResumed() == c.IsResumed() && c.IsResumed() == s.IsResumed());
        ADC_FUZZ_CHECK(s.GetServerName() == "fuzz.example");
        Bytes atServer;
        Bytes atClient;
        Deliver(s, c.Send(payload), &atServer);
        Deliver(c, s.Send(payload), &atClient);
        ADC_FUZZ_CHECK(atServer == payload && atClient == payload);
        ADC_FUZZ_CHECK(c.GetAppBytesSent() == payload.size());
        cc.resumeSessionId = c.GetSessionId(); // the second round offers it
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (std::size_t i = 0; i < size; ++i)
    {
        seed = (seed ^ data[i]) * 0x100000001b3ULL;
    }
    AdcTlsEndpoint::Config sc;
    sc.role = AdcTlsEndpoint::SERVER;
    sc.seed = seed;
    sc.canResume = [](const Bytes& id) { return id.size() == 32; };
    AdcTlsEndpoint server(sc);
    AdcTlsObserver observer;
    Bytes lastAnswer;
    Bytes app;
    uint64_t cut = seed;
    for (std::size_t at = 0; at < size;)
    {
        cut = cut * 6364136223846793005ULL + 1442695040888963407ULL;
        const std::size_t n = std::min<std::size_t>(size - at, 1 + (cut >> 33) % 64);
        const bool wasFailed = server.HasFailed();
        const auto r = server.Receive(data + at, n);
        observer.FeedFromClient(data + at, n);
        observer.FeedFromServer(r.toPeer);
        ADC_FUZZ_CHECK(!wasFailed || r.toPeer.empty());
        if (!r.toPeer.empty())
        {
            lastAnswer = r.toPeer;
        }
        app.insert(app.end(), r.appData.begin(), r.appData.end());
        at += n;
    }
    ADC_FUZZ_CHECK(server.GetAppBytesReceived() >= app.size());
    if (server.HasFailed())
    {
        ADC_FUZZ_CHECK(!server.GetError().empty());
        // The server's own failure ends with its fatal alert; a received fatal alert sends none.
        if (server.GetError().find("sent fatal alert") != std::string::npos)
        {
            ADC_FUZZ_CHECK(lastAnswer.size() >= 7);
            const Bytes tail(lastAnswer.end() - 7, lastAnswer.end());
            ADC_FUZZ_CHECK(tail[0] == 21 && tail[1] == 3 && tail[2] == 3 && tail[3] == 0 &&
                           tail[4] == 2 && tail[5] == 2);
        }
    }
    else
    {
        ADC_FUZZ_CHECK(server.GetError().empty());
    }
    // A server that read the ClientHello (it stops reading after a close_notify, the observer
    // does not) saw the same SNI.
    if (observer.IsClientHelloSeen() && server.GetState() != AdcTlsEndpoint::WAIT_CLIENT_HELLO &&
        !server.HasFailed() && !server.IsClosed())
    {
        ADC_FUZZ_CHECK(observer.GetServerName() == server.GetServerName());
    }
    if (server.IsEstablished())
    {
        const Bytes payload(data, data + std::min<std::size_t>(size, 100));
        const Bytes wire = server.Send(payload);
        ADC_FUZZ_CHECK(payload.empty() || !wire.empty());
    }
    RoundTrip(seed, Bytes(data, data + std::min<std::size_t>(size, 20000)));
    return 0;
}
