/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc, N-tier cache redirection (CRD): a lower-tier appliance (the seed's L2NS1..L2NS4),
 * CRD's cache-redirection policy over the shared proxy engine.
 */

#ifndef CRD_LOWER_TIER_H
#define CRD_LOWER_TIER_H

#include "ns3/adc-http-message.h"
#include "ns3/adc-lb-method.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-port-range.h"
#include "ns3/adc-proxy-engine.h"
#include "ns3/adc-proxy-policy.h"
#include "ns3/adc-service.h"
#include "ns3/adc-source-address-policy.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/application.h"
#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief A lower-tier NetScaler appliance of N-tier cache redirection: a transparent HTTP proxy
 * (AdcProxyEngine) whose policy sends cacheable requests to cache servers (from its mapped IP,
 * with the client IP in a header) and the others to the origin with the client IP as source
 * (USIP) and a source port from its own exclusive range; it also intercepts cache-miss traffic
 * on its way to the origin.
 *
 * The node runs AdcPolicyRouting (SetRouting) whose LOCAL rules hand intercepted packets to this
 * node's sockets; the engine listens on ANY:ServicePort, so an accepted socket's local address
 * is the destination the client addressed (the origin).
 *
 * The cache servers are NetScaler services (AdcService, service type HTTP) bound to the
 * appliance's own LB virtual server, its "cache vserver" (GetCacheVServer(): an AdcVirtualServer
 * named "<Name>-caches", non-addressable, service type HTTP, LB method "CacheLbMethod", hash
 * seed "HashSeed", UnknownIsUp true). AddCacheServer creates a service and binds it, or binds a
 * service the caller made; GetCacheService gives them back. Health monitors attach to the
 * services, not to the appliance: `GetCacheService(i)->BindMonitor(monitor)` makes the monitor
 * probe the service's address and port (AdcService::BindMonitor adds the target), and the
 * service's state follows the monitor's verdicts. A cache is in rotation while its service is
 * UP or UNKNOWN (a monitor that has not answered yet keeps it in use, as before services
 * existed); a service that is DOWN (a bound monitor says so) or OUT OF SERVICE (`Disable()`)
 * gets no new request. The monitor must run on the appliance's node (the topology helper
 * installs one per appliance). Bind caches through AddCacheServer only: the cache vserver is
 * exposed for its traces ("Selection" fires once per cacheable request), state and counters.
 *
 * The policy (Decide), per request:
 * - A client request (one without this tier's Via entry): "CacheableRule" decides CACHE or
 *   BYPASS ("Decision" trace; a BYPASS also "Bypass" with its reason, counted per reason,
 *   GetBypassCount). With the default POLICY (NetScaler's -redirect POLICY) the built-in
 *   cache-redirection policies of "CachePolicies" (CrdCachePolicies) decide: the first that
 *   matches sends the request to the origin and is the reason; GET_NO_QUERY (a GET without
 *   '?'), ALL (-redirect CACHE) and NONE (-redirect ORIGIN) are fixed rules. CACHE: the cache
 * vserver selects a cache server (AdcVirtualServer:: Select; none in rotation: BYPASS, target
 * "origin (no cache up)"); the request goes to it from the MAPPED_IP source "Mip" with
 * "ClientIpHeader: <client IP>", and the connection is counted on the vserver and the service until
 * it is released (LEASTCONNECTION reads it). BYPASS: to the original destination from the CLIENT_IP
 * source (USIP: the client's address and a port from "PortRange"; exhausted: 503 and
 * "PortExhausted"), with the same header.
 * - A request coming back from a cache (cache miss): with "Via" on (NetScaler's -via ON, the
 *   default) every request this appliance forwards carries "Via: 1.1 <Name>" appended to the
 *   request's own Via, and a request whose Via holds an entry received by this appliance or by
 *   a peer of its tier (AddViaPeer) is cache-miss traffic, whatever its source. With "Via" off
 *   the source decides: a peer inside the cache network (SetCacheNetwork, or equal to a cache
 *   server's address when no network is set). The client IP is taken from "ClientIpHeader"
 *   (missing or not an IPv4 address: 400 and "Drop" "missing-client-ip-header") and the request
 *   goes to the original destination by USIP as for BYPASS.
 *
 * Everything else is the engine's (see AdcProxyEngine): pipelining, Via "1.1 <Name>",
 * hop-by-hop Connection, relaying the bytes received with flow control, timeouts and failures
 * ("BackendFailure": 502 unless response bytes were relayed, then the client connection is
 * closed; a timeout answers 502 here, as before the engine existed), server-side connection
 * reuse ("ServerConnectionReuse"). "Intercept", "PortAllocated", "PortExhausted",
 * "BackendFailure" and "Drop" report what the engine and the source policies saw, under this
 * appliance's names.
 *
 * Every request received ends as a relayed response or a 4xx/5xx answer with a trace (or a
 * "Drop" trace when the front connection went away before it could be answered).
 */
class CrdLowerTierAppliance : public Application, public AdcProxyPolicy
{
  public:
    /// Which requests are cacheable (sent to a cache server).
    enum CacheableRule
    {
        GET_NO_QUERY, //!< a GET whose URL has no '?' (the default)
        ALL,          //!< every request
        NONE,         //!< no request: everything bypasses the caches
        POLICY        //!< the built-in policies of CachePolicies decide (the default)
    };

    /**
     * \brief The checker of a CacheableRule attribute (the appliance's and the topology
     * helper's): the values POLICY, GET_NO_QUERY, ALL and NONE by name.
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
     * \brief Signature of "Bypass": a client request goes to the origin, and why.
     * \param clientIp the client's address
     * \param url the request target
     * \param reason the built-in policy that matched (e.g. "bypass-non-get"), the rule
     *        ("GET_NO_QUERY", "NONE") or "no-cache-up" (cacheable, but no cache in rotation)
     */
    typedef void (*BypassTracedCallback)(const std::string& clientIp,
                                         const std::string& url,
                                         const std::string& reason);

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
     * \brief Add a cache server: a new AdcService (service type HTTP) bound to the cache
     * vserver.
     * \param name its name, unique and non-empty (the service's name, the Decision target)
     * \param address its address
     * \param port its port (1..65535)
     * \return its index (GetCacheService)
     * \throws AdcConfigError for an empty name, port 0 or a name already bound
     */
    uint32_t AddCacheServer(const std::string& name, Ipv4Address address, uint16_t port = 80);

    /**
     * \brief Add a cache server the caller configured: bind \p service to the cache vserver.
     * \param service a configured service with an IPv4 address and a port (1..65535); this
     *        appliance's alone (a service is one back-end as one appliance sees it)
     * \return its index (GetCacheService)
     * \throws AdcConfigError for a null service, an address that is not IPv4, port 0 or a
     *         name already bound
     */
    uint32_t AddCacheServer(Ptr<AdcService> service);

    /// \return the number of cache servers
    uint32_t GetNCacheServers() const;

    /**
     * \param index an index AddCacheServer returned
     * \return the cache server's service (bind monitors to it; Disable() takes it out of
     *         rotation)
     * \throws AdcConfigError for an index out of range
     */
    Ptr<AdcService> GetCacheService(uint32_t index) const;

    /// \return the cache vserver: the LB virtual server over the cache services
    Ptr<AdcVirtualServer> GetCacheVServer() const;

    /**
     * \brief Another appliance of this tier: a request whose Via holds an entry received by it
     * (a request it sent to a cache) is cache-miss traffic here too, as this appliance's own.
     * \param name the peer's Name (its Via entry "1.1 <name>")
     */
    void AddViaPeer(const std::string& name);

    /**
     * \brief The network of the cache servers: with "Via" off, connections from peers inside it
     * are cache-miss traffic; it also sets the "Intercept" kind. When not set, a peer is a cache
     * server when it has a cache server's address.
     * \param net the network
     * \param mask its mask
     */
    void SetCacheNetwork(Ipv4Address net, Ipv4Mask mask);

    /// \param routing the node's AdcPolicyRouting (required: USIP connections register there)
    void SetRouting(Ptr<AdcPolicyRouting> routing);
    /// \return the routing protocol set by SetRouting
    Ptr<AdcPolicyRouting> GetRouting() const;

    /// \return the allocator of "PortRange" (the USIP source policy's)
    Ptr<AdcPortAllocator> GetPortAllocator() const;
    /// \return the cache vserver's LB method (replaced when "CacheLbMethod" is set); its
    /// back-ends are the cache services in binding order
    Ptr<AdcLbMethod> GetCacheLb() const;
    /// \return the proxy engine (its other attributes may be set before the start)
    Ptr<AdcProxyEngine> GetProxyEngine() const;
    /// \return the source policy of requests to the caches (MAPPED_IP "Mip")
    Ptr<AdcSourceAddressPolicy> GetCacheSource() const;
    /// \return the source policy of requests to the origin (CLIENT_IP, "PortRange")
    Ptr<AdcSourceAddressPolicy> GetOriginSource() const;

    /// \return requests received on client connections
    uint64_t GetClientRequests() const;
    /// \return requests sent to cache servers
    uint64_t GetCacheRequests() const;
    /// \return client requests sent to the origin (BYPASS, including no-cache-up fallbacks)
    uint64_t GetBypassRequests() const;
    /// \param reason a "Bypass" reason \return BYPASS decisions for it
    uint64_t GetBypassCount(const std::string& reason) const;
    /// \return BYPASS decisions per reason (the "Bypass" trace's reasons)
    const std::map<std::string, uint64_t>& GetBypassReasons() const;
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
    /// \return open backend connections (to caches or the origin; idle pooled ones included)
    uint32_t GetOpenBackendConnections() const;

    /**
     * \brief The appliance uses no random variables (its LB methods are deterministic).
     * \param stream first stream index
     * \return 0, the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief The memory of the per-connection state held now (the engine's: front and backend
     * connection records, their buffered bytes and queued requests, lookup entries, the idle
     * pool). The port bitmap and the LB method are per appliance, not per flow, and are not
     * counted.
     * \return bytes
     */
    std::size_t GetPerFlowStateBytes() const;

    // AdcProxyPolicy
    void Accepted(AdcProxyFront& front) override;
    AdcProxyDecision Decide(const AdcProxyFront& front, const AdcHttpMessage& request) override;
    void Released(const AdcProxyDecision& decision) override;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// AdcProxyFront::kind of a connection from a cache server (to the origin).
    static constexpr uint32_t kCacheMiss = 1;

    // attribute accessors
    void SetName(std::string name);
    std::string GetName() const;
    void SetCacheLbMethod(std::string name);
    std::string GetCacheLbMethod() const;
    void SetHashSeed(uint64_t seed);
    uint64_t GetHashSeed() const;
    void SetPortRange(std::string text);
    std::string GetPortRange() const;
    void SetCachePolicies(std::string text);
    std::string GetCachePolicies() const;

    /// Throw AdcConfigError on an unusable configuration.
    void CheckConfig() const;
    /// \param peer an address \return true when it is a cache server's
    bool IsCachePeer(Ipv4Address peer) const;
    /// \param service a service \return its index in m_caches, or -1
    int64_t FindCache(const Ptr<AdcService>& service) const;
    /// \param head a request \return "" when CacheableRule sends it to a cache, else the reason
    std::string BypassReason(const AdcHttpMessage& head) const;
    /// \param head a request \return true when its Via holds this tier's entry
    bool HasTierVia(const AdcHttpMessage& head) const;
    /// \param d a decision \param head its request: add the Via edit (when "Via" is on)
    void AddVia(AdcProxyDecision& d, const AdcHttpMessage& head) const;
    /**
     * \param front the connection
     * \param clientIp the client the request is for
     * \param head the request
     * \return the decision to send it to the original destination by USIP
     */
    AdcProxyDecision ToOrigin(const AdcProxyFront& front,
                              Ipv4Address clientIp,
                              const AdcHttpMessage& head) const;

    // engine and source-policy traces, under this appliance's names
    void OnLeased(Ipv4Address source, uint16_t port);
    void OnExhausted(Ipv4Address source);
    void OnServerFailure(const std::string& target, const std::string& reason, uint16_t status);
    void OnDrop(const std::string& reason);

    // attributes
    std::string m_name;                  //!< appliance name (Via, Server)
    uint16_t m_servicePort;              //!< port listened on
    std::string m_clientIpHeader;        //!< header carrying the client IP
    CacheableRule m_rule;                //!< CacheableRule
    Ipv4Address m_mip;                   //!< mapped IP on the cache network
    Time m_backendTimeout;               //!< backend connect and progress timeout
    uint64_t m_hashSeed;                 //!< forwarded to the LB method
    bool m_reuse;                        //!< ServerConnectionReuse
    bool m_via;                          //!< Via
    std::vector<std::string> m_policies; //!< CachePolicies, parsed
    std::vector<std::string> m_viaPeers; //!< the AddViaPeer names

    Ptr<AdcPolicyRouting> m_routing;            //!< the node's policy routing
    Ptr<AdcProxyEngine> m_engine;               //!< the proxy
    Ptr<AdcSourceAddressPolicy> m_cacheSource;  //!< MAPPED_IP (Mip)
    Ptr<AdcSourceAddressPolicy> m_originSource; //!< CLIENT_IP (USIP, PortRange)
    Ptr<AdcVirtualServer> m_vserver;            //!< the cache vserver
    std::vector<Ptr<AdcService>> m_caches;      //!< cache services, by index
    std::vector<bool> m_created; //!< per cache: made by AddCacheServer (disposed with it)
    std::optional<std::pair<Ipv4Address, Ipv4Mask>> m_cacheNet; //!< the cache network
    bool m_disposing;                                           //!< in DoDispose

    uint64_t m_clientRequests;                       //!< see GetClientRequests
    uint64_t m_cacheRequests;                        //!< see GetCacheRequests
    uint64_t m_bypassRequests;                       //!< see GetBypassRequests
    uint64_t m_missIntercepts;                       //!< see GetMissIntercepts
    uint64_t m_portExhausted;                        //!< see GetPortExhausted
    std::map<std::string, uint64_t> m_bypassReasons; //!< see GetBypassReasons

    TracedCallback<const std::string&, const std::string&, const std::string&, const std::string&>
        m_decisionTrace; //!< "Decision"
    TracedCallback<const std::string&, const std::string&, const std::string&>
        m_bypassTrace; //!< "Bypass"
    TracedCallback<const std::string&, const std::string&, const std::string&>
        m_interceptTrace;                                              //!< "Intercept"
    TracedCallback<uint16_t, const std::string&> m_portAllocatedTrace; //!< "PortAllocated"
    TracedCallback<const std::string&> m_portExhaustedTrace;           //!< "PortExhausted"
    TracedCallback<const std::string&, const std::string&> m_backendFailureTrace; //!< failures
    TracedCallback<const std::string&> m_dropTrace;                               //!< "Drop"
};

} // namespace ns3

#endif /* CRD_LOWER_TIER_H */
