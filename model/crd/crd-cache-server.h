/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc cache redirection (CRD): an HTTP cache server (the seed's CRS1..CRS3), serving hits
 * from its object store and fetching misses from the origin.
 */

#ifndef CRD_CACHE_SERVER_H
#define CRD_CACHE_SERVER_H

#include "crd-cache-store.h"

#include "ns3/adc-http-message.h"
#include "ns3/adc-http-server.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup adc
 * \brief An HTTP/1.1 cache server of N-tier cache redirection (the seed's CRS1..CRS3).
 *
 * Requests come from lower-tier appliances (TCP source: the appliance's MIP) and carry the
 * client's IP in the "ClientIpHeader" request header; every request is logged with both
 * ("AccessLog", CRD-02). Client-side connection handling (persistent and one-shot connections,
 * pipelining with answers in request order, transmit-buffer pacing, "400 Bad Request" plus
 * "Drop" for malformed bytes) is AdcHttpServerEngine's, shared with AdcHttpServer.
 *
 * GET and HEAD requests are looked up in the object store (a CrdCacheStore: "Capacity",
 * "Policy") by host and URL (MakeKey: the Host field, lower-case and without its port, then the
 * request target; the target alone without a Host), so that one cache serves many sites:
 * - Hit: answered locally: "200 OK" with "Via: 1.1 <Name>", "X-Cache: HIT" and
 *   "Content-Length: <stored size>", then that many body bytes ("Connection: close" is
 *   appended when the connection closes after it).
 * - Miss: fetched from the origin on a new TCP connection to the address AddOrigin gave the
 *   request's host (OriginAddress for another host) and OriginPort, opened
 *   from the cache's own address (its default route points at a lower-tier appliance, which
 *   intercepts it in the CRD topology). The request is forwarded as GET (a HEAD miss fetches
 *   the whole object so that it can be stored) with its headers, client-IP header included,
 *   plus "Via: 1.1 <Name>" (appended to any Via) and "Connection: close". The origin's
 *   response (head + Content-Length body, read with AdcHttpStreamParser) is stored (size =
 *   body bytes) when cacheable: status 200 and, when "HonourVary" is true, no "Vary" field.
 *   The store keeps no header fields, so a hit does not replay the
 *   origin's per-client fields (e.g. X-Client-IP of an origin choosing its response per
 *   client, CRD-12): HonourVary true keeps such responses out of the store (every request for
 *   them misses); false (the default, so that CRD hit flows happen with such an origin) stores
 *   them and serves the object to every client. The waiting request is then answered
 *   "200 OK" with the origin's end-to-end header fields (hop-by-hop ones, Content-Length, Via and
 * X-Cache dropped), then "Via: <the origin response's Via entries>, 1.1 <Name>", "X-Cache: MISS"
 * and "Content-Length: <body bytes>".
 * - Other methods are forwarded the same way but never looked up nor stored (no Hit/Miss).
 * Concurrent misses for the same URL each fetch (no request collapsing).
 *
 * Origin failure (no complete response within "OriginTimeout" of the fetch's start, connect
 * failure, reset, close before the response is complete, unparsable response, or a status
 * other than 200) answers "502 Bad Gateway" with "Via: 1.1 <Name>", "X-Cache: MISS" and
 * "Content-Length: 0", and fires "Drop" with the reason: "origin-timeout",
 * "origin-connect-failed", "origin-connection-reset", "origin-connection-closed",
 * "origin-send-failed", "origin-parse-error: <parser reason>" or "origin-status-<code>". Malformed
 * client requests fire "Drop" with the parser's reason. A request whose miss is being fetched holds
 * the later requests of its connection; a fetch whose client connection has gone still completes
 * (and stores the object).
 */
class CrdCacheServer : public Application
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    CrdCacheServer();
    ~CrdCacheServer() override;

    /**
     * \brief Signature of the "AccessLog" trace (same as AdcHttpServer's).
     * \param peerIp the TCP peer's address (the lower-tier appliance's MIP)
     * \param headerClientIp value of the "ClientIpHeader" request header, empty if absent
     * \param url the request target
     * \param when the time the request was received
     */
    typedef void (*AccessLogTracedCallback)(const std::string& peerIp,
                                            const std::string& headerClientIp,
                                            const std::string& url,
                                            Time when);

    /**
     * \brief Signature of the "Hit" and "Miss" traces.
     * \param url the request target looked up
     * \param headerClientIp value of the "ClientIpHeader" request header, empty if absent
     */
    typedef void (*LookupTracedCallback)(const std::string& url, const std::string& headerClientIp);

    /**
     * \brief Signature of the "OriginFetch" trace: a fetch from the origin ended.
     * \param url the request target fetched
     * \param status the origin's status code, 0 when no complete response was received
     * \param bytes the body bytes received (0 when no complete response was received)
     */
    typedef void (*OriginFetchTracedCallback)(const std::string& url,
                                              uint16_t status,
                                              uint64_t bytes);

    /**
     * \brief Signature of the "Drop" trace: a malformed request, or an origin failure.
     * \param reason why
     */
    typedef void (*DropTracedCallback)(const std::string& reason);

    /**
     * \brief Misses of requests for \p host are fetched from \p address (transparent caching of
     * several sites; other hosts go to OriginAddress).
     * \param host a host name (compared case-insensitively, without a port)
     * \param address its origin server's address
     * \throws AdcConfigError for an empty host or one with a space, '/' or ':'
     */
    void AddOrigin(const std::string& host, Ipv4Address address);

    /**
     * \param host a Host field value (a port is dropped; "" for none)
     * \param url a request target
     * \return the store key of that object: lower-case host then URL ("www.a.example/obj/1"),
     *         the URL alone without a host
     */
    static std::string MakeKey(const std::string& host, const std::string& url);

    /// \return the object store
    Ptr<CrdCacheStore> GetStore() const;

    /// \return requests answered from the store
    uint64_t GetHits() const;
    /// \return GET/HEAD requests not found in the store
    uint64_t GetMisses() const;
    /// \return responses to well-formed requests completely handed to TCP (hits, misses and
    ///         502s; not the 400s to malformed requests)
    uint64_t GetRequestsServed() const;
    /// \return fetches from the origin started
    uint64_t GetOriginFetches() const;
    /// \return fetches from the origin in progress
    uint32_t GetPendingFetches() const;
    /// \return client connections currently open
    uint32_t GetOpenConnections() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// One fetch from the origin, on its own connection.
    struct Fetch
    {
        uint64_t conn{0};           //!< client connection waiting for it
        uint64_t seq{0};            //!< its response slot
        std::string url;            //!< request target
        std::string key;            //!< store key (MakeKey)
        Ipv4Address origin;         //!< the origin it is fetched from
        bool store{false};          //!< store a cacheable response (GET/HEAD)
        std::string request;        //!< the forwarded request's wire bytes
        Ptr<Socket> socket;         //!< connection to the origin
        AdcHttpStreamParser parser; //!< response reassembly
        EventId timeout;            //!< OriginTimeout
    };

    // attribute accessors (forwarded to the store)
    void SetCapacity(uint64_t capacity);
    uint64_t GetCapacity() const;
    void SetPolicy(CrdCacheStore::Policy policy);
    CrdCacheStore::Policy GetPolicy() const;

    /// A well-formed request arrived (engine callback).
    void HandleRequest(uint64_t conn,
                       uint64_t seq,
                       const AdcHttpMessage& request,
                       const Address& peer);
    /// Answer a hit from the store (\p key: its store key).
    void AnswerHit(uint64_t conn, uint64_t seq, const std::string& key);
    /// Start fetching \p request from the origin for slot \p seq of \p conn.
    void StartFetch(uint64_t conn, uint64_t seq, const AdcHttpMessage& request, bool store);
    /// \return the request forwarded to the origin
    AdcHttpMessage OriginRequest(const AdcHttpMessage& request) const;
    /// The origin connection of \p s is up: send the request.
    void HandleOriginConnected(Ptr<Socket> s);
    /// The origin connection of \p s failed.
    void HandleOriginConnectFailed(Ptr<Socket> s);
    /// Bytes from the origin on \p s.
    void HandleOriginRead(Ptr<Socket> s);
    /// The origin closed \p s.
    void HandleOriginClose(Ptr<Socket> s);
    /// \p s was reset.
    void HandleOriginError(Ptr<Socket> s);
    /// Fetch \p id reached OriginTimeout.
    void OriginTimeout(uint64_t id);
    /// Fetch \p id got a complete response: store it when cacheable and answer.
    void CompleteFetch(uint64_t id, const AdcHttpMessage& head, uint64_t bodyBytes);
    /// Fetch \p id failed with \p reason: answer 502.
    void FailFetch(uint64_t id, const std::string& reason);
    /// Fire "Drop" with \p reason and answer slot \p seq of \p conn "502 Bad Gateway".
    void BadGateway(uint64_t conn, uint64_t seq, const std::string& reason);
    /// Close and forget fetch \p id; \return its state
    Fetch EndFetch(uint64_t id);
    /// \return the fetch id of origin socket \p s, 0 if unknown
    uint64_t FetchOf(Ptr<Socket> s) const;
    /// \return the response relayed for the origin's \p head with a body of \p bodyBytes
    AdcHttpMessage RelayedResponse(const AdcHttpMessage& head, uint64_t bodyBytes) const;
    /// \param originVia the origin response's Via entries \return them plus "1.1 <Name>"
    std::string ViaWith(const std::string& originVia) const;
    /// Fire "Drop" (engine callback and origin failures).
    void HandleDrop(const std::string& reason);

    // attributes
    std::string m_name;                           //!< Via pseudonym, e.g. "CRS1"
    uint16_t m_port;                              //!< listening port
    std::string m_clientIpHeader;                 //!< header carrying the client IP
    Ipv4Address m_originAddress;                  //!< the origin
    std::map<std::string, Ipv4Address> m_origins; //!< AddOrigin: host -> origin
    uint16_t m_originPort;                        //!< the origin's port
    Time m_originTimeout;                         //!< deadline of a fetch
    bool m_honourVary;                            //!< do not store responses with a Vary field

    Ptr<CrdCacheStore> m_store;                //!< the object store
    AdcHttpServerEngine m_engine;              //!< client connections
    std::map<uint64_t, Fetch> m_fetches;       //!< fetches in progress by id
    std::map<Ptr<Socket>, uint64_t> m_fetchOf; //!< origin socket -> fetch id (lookup only)
    uint64_t m_nextFetchId;                    //!< next fetch id (from 1)
    bool m_disposing;                          //!< in DoDispose: nothing is sent

    uint64_t m_hits;          //!< hits
    uint64_t m_misses;        //!< misses
    uint64_t m_originFetches; //!< fetches started

    TracedCallback<const std::string&, const std::string&, const std::string&, Time>
        m_accessLogTrace;                                                //!< "AccessLog"
    TracedCallback<const std::string&, const std::string&> m_hitTrace;   //!< "Hit"
    TracedCallback<const std::string&, const std::string&> m_missTrace;  //!< "Miss"
    TracedCallback<const std::string&, uint16_t, uint64_t> m_fetchTrace; //!< "OriginFetch"
    TracedCallback<const std::string&> m_dropTrace;                      //!< "Drop"
};

} // namespace ns3

#endif /* CRD_CACHE_SERVER_H */
