/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc, N-tier cache redirection (CRD): a lower-tier appliance (the seed's L2NS1..L2NS4),
 * a transparent cache-redirection proxy over real ns-3 TCP.
 */

#ifndef CRD_LOWER_TIER_H
#define CRD_LOWER_TIER_H

#include "ns3/adc-http-message.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-socket-util.h"
#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/attribute.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A lower-tier NetScaler appliance of N-tier cache redirection: a transparent HTTP proxy
 * that sends cacheable requests to cache servers (from its mapped IP, with the client IP in a
 * header) and the others to the origin with the client IP as source (USIP) and a source port
 * from its own exclusive range; it also intercepts cache-miss traffic on its way to the origin.
 *
 * The node runs AdcPolicyRouting (SetRouting) whose LOCAL rules hand intercepted packets to this
 * node's sockets; this application listens on ANY:ServicePort, so an accepted socket's local
 * address (GetSockName) is the destination the client addressed (the origin).
 *
 * - Client connection (peer outside the cache network): requests are handled one at a time in
 *   order. "CacheableRule" decides CACHE or BYPASS ("Decision" trace). CACHE: a cache server is
 *   chosen by "CacheLbMethod" (no cache up: BYPASS, target "origin (no cache up)") and a new TCP
 *   connection from "Mip" carries the request with "ClientIpHeader: <client IP>" and
 *   "Connection: close". BYPASS: a port from "PortRange" (exhausted: 503 and "PortExhausted"),
 *   the connection to the original destination is made from clientIp:port (USIP) with the same
 *   header rewriting.
 * - Cache-miss connection (peer inside the cache network, SetCacheNetwork, or equal to a cache
 *   server's address when no network is set): the client IP is taken from "ClientIpHeader"
 *   (missing or not an IPv4 address: 400 and "Drop" "missing-client-ip-header") and the request
 *   goes to the original destination by USIP as for BYPASS.
 * - The backend's response head gets "1.1 <Name>" appended to its Via header; the Connection
 *   header is rewritten for the front connection (hop-by-hop); the body (Content-Length bytes)
 *   is relayed respecting the front socket's transmit buffer, and the backend is not read while
 *   the relay queue is full (TCP flow control reaches the backend).
 * - Backend failure (connect failed, no progress for "BackendTimeout", reset or close before
 *   the whole response, malformed response): "BackendFailure", and "502 Bad Gateway" to the
 *   front unless response bytes were already relayed (then the front connection is closed).
 *
 * Every request received ends as a relayed response or a 4xx/5xx answer with a trace (or a
 * "Drop" trace when the front connection went away before it could be answered).
 *
 * A USIP port is released when its connection closes. The appliance waits for the backend's FIN
 * (it asked for "Connection: close") before closing, so the backend, not the appliance, holds
 * TIME_WAIT; should a port still be bound in the stack, the next port of the range is tried.
 *
 * Request bodies are forwarded as the same number of bytes (the models' bodies carry no
 * information); response body bytes are relayed as received.
 */
class CrdLowerTierAppliance : public Application
{
  public:
    /// Which requests are cacheable (sent to a cache server).
    enum CacheableRule
    {
        GET_NO_QUERY, //!< a GET whose URL has no '?' (the default)
        ALL,          //!< every request
        NONE          //!< no request: everything bypasses the caches
    };

    /**
     * \brief The checker of a CacheableRule attribute (the appliance's and the topology
     * helper's): the values GET_NO_QUERY, ALL and NONE by name.
     * \return the checker
     */
    static Ptr<const AttributeChecker> MakeCacheableRuleChecker();

    /// \return the TypeId
    static TypeId GetTypeId();
    CrdLowerTierAppliance();
    ~CrdLowerTierAppliance() override;

    /**
     * \brief Signature of "Decision": where a client request goes.
     * \param clientIp the client's address
     * \param url the request target
     * \param decision "CACHE" or "BYPASS"
     * \param target the cache server's name, "origin" or "origin (no cache up)"
     */
    typedef void (*DecisionTracedCallback)(const std::string& clientIp,
                                           const std::string& url,
                                           const std::string& decision,
                                           const std::string& target);

    /**
     * \brief Signature of "Intercept": a connection was accepted.
     * \param kind "CLIENT" (from a client) or "CACHE_MISS" (from a cache server, to the origin)
     * \param peer the peer as "ip:port"
     * \param originalDestination the address the peer connected to, as "ip:port"
     */
    typedef void (*InterceptTracedCallback)(const std::string& kind,
                                            const std::string& peer,
                                            const std::string& originalDestination);

    /**
     * \brief Signature of "PortAllocated": a source port of the range was taken for a USIP
     * connection to the origin.
     * \param port the port
     * \param clientIp the client IP the connection uses as source
     */
    typedef void (*PortAllocatedTracedCallback)(uint16_t port, const std::string& clientIp);

    /**
     * \brief Signature of "PortExhausted": no port of the range was free; the request got 503.
     * \param clientIp the client whose request was refused
     */
    typedef void (*PortExhaustedTracedCallback)(const std::string& clientIp);

    /**
     * \brief Signature of "BackendFailure".
     * \param target the cache server's name or "origin"
     * \param reason "connect-failed", "timeout", "reset", "closed-before-response-complete",
     *        "bad-response: <parser reason>" or "destination-is-this-appliance"
     */
    typedef void (*BackendFailureTracedCallback)(const std::string& target,
                                                 const std::string& reason);

    /**
     * \brief Signature of "Drop": a request answered with 4xx, or one that could not be answered.
     * \param reason "missing-client-ip-header", "bad-request: <parser reason>",
     *        "connection-closed-before-response" or "incomplete-request-at-close"
     */
    typedef void (*DropTracedCallback)(const std::string& reason);

    /**
     * \brief Add a cache server (one service bound to the LB virtual server).
     * \param name its name, unique and non-empty (the Decision target)
     * \param address its address
     * \param port its port (1..65535)
     * \return its index
     */
    uint32_t AddCacheServer(const std::string& name, Ipv4Address address, uint16_t port = 80);

    /**
     * \brief Mark a cache server up or down (health monitors call it); a down cache gets no
     * new requests.
     * \param index the index AddCacheServer returned
     * \param up the new state
     */
    void SetCacheServerUp(uint32_t index, bool up);

    /// \return the number of cache servers
    uint32_t GetNCacheServers() const;

    /**
     * \brief The network of the cache servers: connections from peers inside it are cache-miss
     * traffic. When not set, a peer is a cache server when it has a cache server's address.
     * \param net the network
     * \param mask its mask
     */
    void SetCacheNetwork(Ipv4Address net, Ipv4Mask mask);

    /// \param routing the node's AdcPolicyRouting (required: used before USIP connects)
    void SetRouting(Ptr<AdcPolicyRouting> routing);
    /// \return the routing protocol set by SetRouting
    Ptr<AdcPolicyRouting> GetRouting() const;

    /// \return the allocator of "PortRange"
    Ptr<AdcPortAllocator> GetPortAllocator() const;
    /// \return the cache load-balancing method (replaced when "CacheLbMethod" is set)
    Ptr<AdcLbMethod> GetCacheLb() const;

    /// \return requests received on client connections
    uint64_t GetClientRequests() const;
    /// \return requests sent to cache servers
    uint64_t GetCacheRequests() const;
    /// \return client requests sent to the origin (BYPASS, including no-cache-up fallbacks)
    uint64_t GetBypassRequests() const;
    /// \return requests received on intercepted cache-miss connections
    uint64_t GetMissIntercepts() const;
    /// \return requests refused with 503 because every port of the range was in use
    uint64_t GetPortExhausted() const;
    /// \return backend failures ("BackendFailure" traces)
    uint64_t GetFailures() const;
    /// \return backend responses relayed completely
    uint64_t GetResponsesRelayed() const;
    /// \return "Drop" traces
    uint64_t GetDrops() const;
    /// \return open front (accepted) connections
    uint32_t GetOpenFrontConnections() const;
    /// \return open backend connections (to caches or the origin)
    uint32_t GetOpenBackendConnections() const;

    /**
     * \brief The appliance uses no random variables (its LB methods are deterministic).
     * \param stream first stream index
     * \return 0, the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief The memory of the per-connection state held now: front and backend connection
     * records, their buffered bytes and queued requests, and the lookup entries (map nodes
     * counted as four pointers each). The port bitmap and the LB method are per appliance,
     * not per flow, and are not counted.
     * \return bytes
     */
    std::size_t GetPerFlowStateBytes() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// A request parsed from a front connection, or a parse error to answer.
    struct Item
    {
        AdcHttpMessage head;   //!< the request head
        uint64_t bodyBytes{0}; //!< its body length
        std::string error;     //!< non-empty: the stream was malformed (answer 400)
    };

    /// An accepted connection (a client's, or a cache server's on its way to the origin).
    struct Front
    {
        Ptr<Socket> socket;           //!< accepted socket
        bool miss{false};             //!< the peer is a cache server (cache-miss traffic)
        Ipv4Address peerIp;           //!< peer address
        uint16_t peerPort{0};         //!< peer port
        Ipv4Address origIp;           //!< original destination address
        uint16_t origPort{0};         //!< original destination port
        AdcHttpStreamParser parser;   //!< request reassembly
        std::deque<Item> pending;     //!< parsed requests not handled yet
        uint64_t backend{0};          //!< backend serving the current request, 0 when none
        bool keepAlive{true};         //!< the current request keeps the connection open
        bool http10{false};           //!< the current request is HTTP/1.0
        AdcTxQueue out;               //!< bytes for the peer waiting for buffer room
        bool readStopped{false};      //!< after a parse error: further bytes are discarded
        bool closeWhenFlushed{false}; //!< close once the outbox is empty
        bool peerClosed{false};       //!< the peer sent FIN
        bool abort{false};            //!< close now (a relayed response was cut)
        bool inService{false};        //!< Service is running for it
        bool serviceAgain{false};     //!< Service was requested while running
    };

    /// A connection to a cache server or the origin, carrying one request.
    struct Backend
    {
        Ptr<Socket> socket;           //!< its socket
        uint64_t front{0};            //!< front connection waiting for it, 0 once detached
        std::string target;           //!< cache server name or "origin"
        int32_t cache{-1};            //!< cache index, -1 for the origin
        std::optional<uint16_t> port; //!< USIP source port to release
        AdcTxQueue out;               //!< request bytes waiting for buffer room
        bool noBody{false};           //!< the request was HEAD: the response has no body
        std::vector<uint8_t> headBuf; //!< response head bytes received so far
        bool headDone{false};         //!< the response head was relayed
        uint64_t bodyLeft{0};         //!< response body bytes still expected
        uint64_t relayed{0};          //!< bytes given to the front
        bool done{false};             //!< the whole response was relayed
        bool peerClosed{false};       //!< the backend sent FIN
        EventId timer;                //!< timeout (progress, then linger after done)
    };

    // attribute accessors
    void SetCacheLbMethod(std::string name);
    std::string GetCacheLbMethod() const;
    void SetHashSeed(uint64_t seed);
    uint64_t GetHashSeed() const;
    void SetPortRange(std::string text);
    std::string GetPortRange() const;

    /// Throw AdcConfigError on an unusable configuration.
    void CheckConfig() const;
    /// \param peer an address \return true when it is a cache server's
    bool IsCachePeer(Ipv4Address peer) const;
    /// \param head a request \return true when CacheableRule sends it to a cache
    bool IsCacheable(const AdcHttpMessage& head) const;
    /// \param a an address \return true when it belongs to this node
    bool IsOwnAddress(Ipv4Address a) const;

    // front side
    void HandleAccept(Ptr<Socket> s, const Address& from);
    void HandleFrontRead(Ptr<Socket> s);
    void HandleFrontSend(Ptr<Socket> s, uint32_t available);
    void HandleFrontPeerClose(Ptr<Socket> s);
    void HandleFrontError(Ptr<Socket> s);
    /// Read, parse, dispatch, relay and flush for front \p fid until nothing moves; may close it.
    void Service(uint64_t fid);
    /// Move received bytes of \p f into parsed requests (bounded).
    void ReadFront(Front& f);
    /// Handle the next request of front \p fid.
    void HandleRequest(uint64_t fid, const Item& item);
    /// A request on a client connection.
    void HandleClientRequest(uint64_t fid, const Item& item);
    /// A request on a cache-miss connection.
    void HandleMissRequest(uint64_t fid, const Item& item);
    /// Answer \p f with an empty-bodied \p status from this appliance.
    void AnswerLocally(Front& f, uint16_t status, const std::string& reason, bool close);
    /// Close front \p fid, dropping what it still waits for (with traces unless disposing).
    void CloseFront(uint64_t fid);

    // backend side
    /// Open a backend from the MIP to cache \p index for the request.
    void StartCache(uint64_t fid, const Item& item, uint32_t index);
    /// Open a USIP backend from clientIp:<port of the range> to the original destination.
    void StartOrigin(uint64_t fid, const Item& item, Ipv4Address clientIp);
    /// Register a backend carrying \p item for front \p fid; \return its id.
    uint64_t AddBackend(uint64_t fid,
                        Ptr<Socket> s,
                        const std::string& target,
                        int32_t cache,
                        std::optional<uint16_t> port,
                        const Item& item,
                        Ipv4Address clientIp);
    /// Connect backend \p bid to \p to (with \p source as the route's source); fails it on error.
    void ConnectBackend(uint64_t bid, Ipv4Address source, const Address& to);
    void HandleBackendConnected(Ptr<Socket> s);
    void HandleBackendConnectFailed(Ptr<Socket> s);
    void HandleBackendRead(Ptr<Socket> s);
    void HandleBackendSend(Ptr<Socket> s, uint32_t available);
    void HandleBackendPeerClose(Ptr<Socket> s);
    void HandleBackendError(Ptr<Socket> s);
    /// Relay what backend \p bid received (while the front has room); finish or fail it.
    void ReadBackend(uint64_t bid);
    /// Take one received segment of backend \p b; \return an error text, empty when fine.
    std::string ConsumeResponse(Backend& b, Front& f, Ptr<Packet> p);
    /// Relay the response head \p head to \p f, rewritten for the front connection.
    void RelayHead(Backend& b, Front& f, AdcHttpMessage head);
    /// Backend \p bid relayed its whole response: free the front for its next request.
    void FinishBackend(uint64_t bid);
    /// Backend \p bid failed with \p reason: trace, answer or cut the front, close it.
    void FailBackend(uint64_t bid, const std::string& reason);
    /// Close backend \p bid: release its port and LB slot, close its socket, forget it.
    void CloseBackend(uint64_t bid);
    /// (Re)start the timer of backend \p bid.
    void ArmTimer(uint64_t bid);
    /// The timer of backend \p bid expired.
    void BackendTimer(uint64_t bid);

    // helpers
    /// \return the front of socket \p s, 0 if unknown
    uint64_t FrontOf(Ptr<Socket> s) const;
    /// \return the backend of socket \p s, 0 if unknown
    uint64_t BackendOf(Ptr<Socket> s) const;
    /// Detach every callback of \p s, discard unread bytes and close it (unless disposing).
    void DetachAndClose(Ptr<Socket> s);
    /// Fire "Drop" with \p reason and count it (not while disposing).
    void Drop(const std::string& reason);

    // attributes
    std::string m_name;           //!< appliance name (Via, Server)
    uint16_t m_servicePort;       //!< port listened on
    std::string m_clientIpHeader; //!< header carrying the client IP
    std::string m_lbName;         //!< CacheLbMethod
    CacheableRule m_rule;         //!< CacheableRule
    Ipv4Address m_mip;            //!< mapped IP on the cache network
    Time m_backendTimeout;        //!< backend progress timeout
    uint64_t m_hashSeed;          //!< forwarded to the LB method

    Ptr<AdcPolicyRouting> m_routing;                            //!< the node's policy routing
    Ptr<AdcPortAllocator> m_ports;                              //!< the exclusive source-port range
    Ptr<AdcLbMethod> m_lb;                                      //!< cache load balancing
    std::optional<std::pair<Ipv4Address, Ipv4Mask>> m_cacheNet; //!< the cache network

    Ptr<Socket> m_listen;                      //!< listening socket
    std::map<uint64_t, Front> m_fronts;        //!< front connections by id
    std::map<uint64_t, Backend> m_backends;    //!< backend connections by id
    std::map<Ptr<Socket>, uint64_t> m_frontOf; //!< socket -> front id (lookup only)
    std::map<Ptr<Socket>, uint64_t> m_backOf;  //!< socket -> backend id (lookup only)
    uint64_t m_nextId;                         //!< next connection id (from 1)
    bool m_disposing;                          //!< in DoDispose: no traces, no packets

    uint64_t m_clientRequests; //!< see GetClientRequests
    uint64_t m_cacheRequests;  //!< see GetCacheRequests
    uint64_t m_bypassRequests; //!< see GetBypassRequests
    uint64_t m_missIntercepts; //!< see GetMissIntercepts
    uint64_t m_portExhausted;  //!< see GetPortExhausted
    uint64_t m_failures;       //!< see GetFailures
    uint64_t m_relayedCount;   //!< see GetResponsesRelayed
    uint64_t m_drops;          //!< see GetDrops

    TracedCallback<const std::string&, const std::string&, const std::string&, const std::string&>
        m_decisionTrace; //!< "Decision"
    TracedCallback<const std::string&, const std::string&, const std::string&>
        m_interceptTrace;                                              //!< "Intercept"
    TracedCallback<uint16_t, const std::string&> m_portAllocatedTrace; //!< "PortAllocated"
    TracedCallback<const std::string&> m_portExhaustedTrace;           //!< "PortExhausted"
    TracedCallback<const std::string&, const std::string&> m_backendFailureTrace; //!< failures
    TracedCallback<const std::string&> m_dropTrace;                               //!< "Drop"
};

} // namespace ns3

#endif /* CRD_LOWER_TIER_H */
