/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The test fixture library: scenario pieces the suites share (small topologies, raw TCP peers
 * and servers, trace collectors), so that a subject's tests say only what is particular to it.
 */

#ifndef ADC_TEST_FIXTURES_H
#define ADC_TEST_FIXTURES_H

#include "ns3/adc-config-reader.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-http-stream-parser.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-request-record.h"
#include "ns3/adc-socket-util.h"
#include "ns3/application.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace adctest
{

// ---- bytes ------------------------------------------------------------------------------------

/// \param text bytes \return a packet holding them
Ptr<Packet> Bytes(const std::string& text);
/// \param p a packet \return its bytes
std::string Text(Ptr<const Packet> p);
/// \param s a socket \return every byte it holds, read now
std::string ReadAll(Ptr<Socket> s);
/// \param k an offset \return byte \p k of a test body: a hash, so a lost, repeated or
/// reordered byte shows
uint8_t PatternByte(uint64_t k);
/// \param n how many \param from the first offset \return \p n pattern bytes from \p from
std::string Pattern(uint64_t n, uint64_t from = 0);
/**
 * \param bytes a received stream of HTTP responses
 * \param bodies [out, may be null] each response's body length (payload)
 * \return the complete responses it holds, parsed (a close-delimited last one included when
 *         \p closed)
 */
std::vector<AdcHttpMessage> ParseResponses(const std::string& bytes,
                                           std::vector<uint64_t>* bodies = nullptr,
                                           bool closed = false);

// ---- tools ----------------------------------------------------------------------------------

/// \param command a shell command \return its standard output ("" when it could not run)
std::string RunCommand(const std::string& command);

/// \param prefix what the folder is for \return an empty folder under the temporary
/// directory, unique to this process and to the running test (tests run in parallel)
std::string FreshTempDir(const std::string& prefix);

/// \return the source tree's examples/ folder (the shipped configuration files)
std::filesystem::path ExamplesDir();

/// \param p a file \return its whole contents ("" when it cannot be read)
std::string Slurp(const std::filesystem::path& p);

/// \param text command output \return its non-empty lines, ':' and '\r' removed (tshark's
/// field output, e.g. session IDs as hex)
std::vector<std::string> OutputLines(const std::string& text);

// ---- checks ---------------------------------------------------------------------------------

/// \param f code to run \return the message of the AdcConfigError \p f throws ("" when none)
std::string ConfigErrorOf(const std::function<void()>& f);
/// \param text a text \param part a part \return true when \p text contains \p part
bool Has(const std::string& text, const std::string& part);

/**
 * \param text a text
 * \param words the parts it must hold
 * \return true when \p text contains every one of \p words (a missing one is reported as a
 *         test failure naming it)
 */
bool HasAll(const std::string& text, const std::vector<std::string>& words);

/**
 * \brief A test over a configuration reader of one language: ErrorOf reads a text as one file
 * and gives the error it makes, with its line in m_line.
 */
class ConfigReaderTest : public ::testing::Test
{
  protected:
    /// \param language the reader's language \param file the name texts are read as
    ConfigReaderTest(const AdcConfigLanguage& language, const std::string& file);
    void TearDown() override;

    /**
     * \param text configuration lines
     * \return the message of the AdcConfigFileError reading \p text gives ("" if none); the
     *         error must name the file
     */
    std::string ErrorOf(const std::string& text);

    AdcConfigReader m_reader; //!< the reader
    std::string m_file;       //!< the file name texts are read as
    uint32_t m_line{0};       //!< the line of the last error
};

// ---- load-balancing methods ------------------------------------------------------------------

/**
 * \param name a method name in any vocabulary (AdcLbMethod::Create)
 * \param n back-ends "S0".."S<n-1>" at 10.0.1.0+i port 80
 * \param weights their weights (default 1 each)
 * \return the method
 */
Ptr<AdcLbMethod> MakeMethod(const std::string& name,
                            uint32_t n,
                            const std::vector<uint32_t>& weights = {});

/**
 * The methods registered when it was made; Restore() unregisters any registered since (e.g.
 * GSLB's RTT and STATICPROXIMITY, which building a GSLB site registers process-wide), leaving
 * the registry as the other tests of the program expect it.
 */
class LbRegistrySnapshot
{
  public:
    LbRegistrySnapshot();
    /// Unregister every canonical method registered since construction.
    void Restore() const;

  private:
    std::vector<std::string> m_names; //!< canonical names at construction
};

// ---- topologies -------------------------------------------------------------------------------

/**
 * Clients then servers. One client and one server share a direct point-to-point link (10.1.1.1
 * client, 10.1.1.2 server; with IPv6 also 2001:db8::/64); otherwise every host hangs off a hub
 * router on its own link 10.1.<i+1>.0/24 (host .1, hub .2), hosts numbered clients first, with
 * global routing. Links are 100 Mbit/s, 1 ms.
 */
struct Lan
{
    NodeContainer clients;           //!< client hosts
    NodeContainer servers;           //!< server hosts
    std::vector<Ipv4Address> hostIp; //!< clients first, then servers
    Ipv6InterfaceContainer ifs6;     //!< direct link only: client 0, server 1

    /// \param i server index \return its address
    Ipv4Address ServerIp(uint32_t i) const;
    /// \param i client index \return its address
    Ipv4Address ClientIp(uint32_t i) const;
};

/// \param nClients clients \param nServers servers \param ipv6 IPv6 too (direct link only)
/// \return the LAN
Lan MakeLan(uint32_t nClients, uint32_t nServers, bool ipv6 = false);

/**
 * \brief \p n nodes in a line: link i joins node i and i+1 as 10.1.<i+1>.0/24 (node i .1,
 * node i+1 .2), 100 Mbit/s, 1 ms; static routing only (no routes beyond the links).
 * \param n nodes (>= 2)
 * \return the nodes, in line order
 */
NodeContainer MakeChain(uint32_t n);

// ---- trace collectors ---------------------------------------------------------------------------

/// Collects an HTTP client's RequestSent / RequestDone records.
struct RequestRecords
{
    std::vector<AdcRequestRecord> sent; //!< RequestSent
    std::vector<AdcRequestRecord> done; //!< RequestDone

    /// \param app an AdcHttpClient (or anything with those traces)
    void Attach(Ptr<Application> app);
    /// \param reason a failure reason \return how many requests failed with it
    std::size_t Failed(const std::string& reason) const;
    /// \return how many completed
    std::size_t Completed() const;
};

/// One AccessLog line of a server.
struct LogLine
{
    std::string peer;     //!< the TCP peer
    std::string headerIp; //!< the client IP header's value ("" when absent)
    std::string url;      //!< the URL
    Time when;            //!< when
};

/// Collects a server's AccessLog and Drop traces.
struct AccessLog
{
    std::vector<LogLine> lines;     //!< AccessLog
    std::vector<std::string> drops; //!< Drop reasons

    /// \param app an AdcHttpServer or CrdCacheServer
    void Attach(Ptr<Application> app);
};

// ---- raw TCP ends -------------------------------------------------------------------------------

/**
 * \brief A raw TCP client: sends fixed bytes once connected (queued for room), keeps what it
 * receives, and may leave it unread in TCP for a while (so the peer's window closes).
 */
struct RawPeer
{
    Ptr<Socket> socket; //!< its socket
    std::string toSend; //!< sent once connected (Connect without bytes)
    AdcTxQueue out;     //!< bytes waiting for room
    std::string rx;     //!< every byte received
    uint64_t handed{0}; //!< bytes TCP took
    bool closed{false}; //!< the peer closed (or reset) the connection

    /**
     * \brief Connect now to \p remote and send toSend.
     * \param node where
     * \param remote to whom
     * \param readFrom when reading starts (unset: as bytes arrive)
     */
    void Connect(Ptr<Node> node, const Address& remote, std::optional<Time> readFrom = {});
    /// \brief Connect at \p at and send toSend. \param at when \param node where
    /// \param remote to whom
    void ConnectAt(Time at, Ptr<Node> node, const Address& remote);
    /// \brief Connect at \p at, send \p bytes, read from \p readFrom.
    /// \param node where \param remote to whom \param at when \param bytes what
    /// \param readFrom when reading starts
    void Start(Ptr<Node> node,
               const Address& remote,
               Time at,
               const std::string& bytes,
               Time readFrom);
    /// \param bodies [out, may be null] body lengths \return the responses received, parsed
    std::vector<AdcHttpMessage> Responses(std::vector<uint64_t>* bodies = nullptr) const;

  private:
    /// Send what fits. \param s the socket
    void Flush(Ptr<Socket> s);
    /// Read all. \param s the socket
    void Read(Ptr<Socket> s);
};

/**
 * \brief A raw TCP server: answers each complete request (parsed with AdcHttpStreamParser, so
 * bodies are skipped) with scripted bytes, or stays silent; may close after each answer and
 * start reading late.
 */
struct RawServer
{
    Ptr<Socket> listener; //!< listening socket
    uint16_t port{80};    //!< port listened on
    /// The answer to a request; empty: the next of \c answers, or silence when there are none.
    std::function<std::string(const AdcHttpMessage&)> reply;
    std::vector<std::string> answers;     //!< canned answers, in turn
    std::size_t next{0};                  //!< next canned answer
    bool closeAfterAnswer{false};         //!< close the connection after each answer
    Time readFrom;                        //!< no reading before
    std::string received;                 //!< every byte received, all connections
    std::vector<Ptr<Socket>> conns;       //!< accepted connections
    std::vector<AdcHttpMessage> requests; //!< complete requests, in arrival order

    /// \param node where to listen (port \c port, any address)
    void Listen(Ptr<Node> node);

  private:
    /// Read and answer. \param s a connection
    void Read(Ptr<Socket> s);
    std::vector<AdcHttpStreamParser> m_parsers; //!< per connection
};

/// \param parts byte groups, one per wire field \return their concatenation (golden bytes of
/// the wire-format tests, written field by field)
inline std::vector<uint8_t>
Cat(std::initializer_list<std::vector<uint8_t>> parts)
{
    std::vector<uint8_t> out;
    for (const auto& p : parts)
    {
        out.insert(out.end(), p.begin(), p.end());
    }
    return out;
}

} // namespace adctest
} // namespace ns3

#endif /* ADC_TEST_FIXTURES_H */
