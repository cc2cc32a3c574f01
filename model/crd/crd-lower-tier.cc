/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc, N-tier cache redirection (CRD): a lower-tier appliance, CRD's cache-redirection
 * policy over the shared proxy engine.
 */

#include "crd-lower-tier.h"

#include "crd-cache-policy.h"

#include "ns3/adc-client-ip-header.h"
#include "ns3/adc-config-error.h"
#include "ns3/adc-lb-method-registry.h"
#include "ns3/adc-socket-util.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrdLowerTierAppliance");

NS_OBJECT_ENSURE_REGISTERED(CrdLowerTierAppliance);

namespace
{

/// Seed of the LB method's hashes unless "HashSeed" says otherwise (AdcLbMethod's default).
constexpr uint64_t kDefaultHashSeed = 0x5a17ad0c0ffee123ULL;

} // namespace

Ptr<const AttributeChecker>
CrdLowerTierAppliance::MakeCacheableRuleChecker()
{
    return MakeEnumChecker(POLICY,
                           "POLICY",
                           GET_NO_QUERY,
                           "GET_NO_QUERY",
                           ALL,
                           "ALL",
                           NONE,
                           "NONE");
}

TypeId
CrdLowerTierAppliance::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CrdLowerTierAppliance")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<CrdLowerTierAppliance>()
            .AddAttribute("Name",
                          "Appliance name, e.g. L2NS1: appended to Via as \"1.1 <Name>\" and the "
                          "Server header of the answers it makes itself.",
                          StringValue("L2NS1"),
                          MakeStringAccessor(&CrdLowerTierAppliance::SetName,
                                             &CrdLowerTierAppliance::GetName),
                          MakeStringChecker())
            .AddAttribute("ServicePort",
                          "TCP port intercepted (listened on for any address).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&CrdLowerTierAppliance::m_servicePort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PortRange",
                          "This appliance's exclusive source-port range FIRST-LAST for "
                          "connections to the origin (USIP); malformed text is an "
                          "AdcConfigError.",
                          StringValue("1024-65535"),
                          MakeStringAccessor(&CrdLowerTierAppliance::SetPortRange,
                                             &CrdLowerTierAppliance::GetPortRange),
                          MakeStringChecker())
            .AddAttribute("ClientIpHeader",
                          "Request header carrying the client IP: set on every request sent "
                          "to a cache or the origin, read on cache-miss requests.",
                          StringValue("X-Forwarded-For"),
                          MakeStringAccessor(&CrdLowerTierAppliance::m_clientIpHeader),
                          MakeStringChecker())
            .AddAttribute("CacheLbMethod",
                          "The cache vserver's LB method (case-insensitive): any method of "
                          "AdcLbMethodRegistry with the trait CACHE_SELECTION; built in: "
                          "ROUNDROBIN, LEASTCONNECTION, URLHASH, DESTINATIONIPHASH.",
                          StringValue("ROUNDROBIN"),
                          MakeStringAccessor(&CrdLowerTierAppliance::SetCacheLbMethod,
                                             &CrdLowerTierAppliance::GetCacheLbMethod),
                          MakeStringChecker())
            .AddAttribute("CacheableRule",
                          "Which requests go to a cache: POLICY (NetScaler's -redirect POLICY: "
                          "a request matching one of CachePolicies goes to the origin, the "
                          "others to a cache), GET_NO_QUERY (a GET whose URL has no '?'), ALL "
                          "(-redirect CACHE) or NONE (-redirect ORIGIN).",
                          EnumValue(CrdLowerTierAppliance::POLICY),
                          MakeEnumAccessor(&CrdLowerTierAppliance::m_rule),
                          MakeCacheableRuleChecker())
            .AddAttribute("CachePolicies",
                          "NetScaler's built-in cache-redirection policies bound (used with "
                          "CacheableRule POLICY), comma-separated, in evaluation order: "
                          "bypass-non-get, bypass-cache-control, bypass-dynamic-url, "
                          "bypass-urltokens, bypass-cookie (all five by default); empty: none, "
                          "every request is cacheable. Another name is an AdcConfigError.",
                          StringValue(CrdCachePolicies::GetDefaultText()),
                          MakeStringAccessor(&CrdLowerTierAppliance::SetCachePolicies,
                                             &CrdLowerTierAppliance::GetCachePolicies),
                          MakeStringChecker())
            .AddAttribute("Via",
                          "NetScaler's -via (ON by default): append \"1.1 <Name>\" to the Via "
                          "of every request forwarded, and recognise a request coming back "
                          "from a cache by this tier's Via entry. Off: no Via on requests, and "
                          "a request from the cache network is cache-miss traffic.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdLowerTierAppliance::m_via),
                          MakeBooleanChecker())
            .AddAttribute("Mip",
                          "Mapped IP: source of connections to the caches, so they answer "
                          "this appliance. 0.0.0.0 = unset (allowed only with CacheableRule "
                          "NONE).",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&CrdLowerTierAppliance::m_mip),
                          MakeIpv4AddressChecker())
            .AddAttribute("BackendTimeout",
                          "A backend connection that makes no progress this long (connecting, "
                          "or waiting for response bytes) fails with 502 (the engine's "
                          "ConnectTimeout and ResponseTimeout, with ResponseTimeoutStatus 502).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&CrdLowerTierAppliance::m_backendTimeout),
                          MakeTimeChecker())
            .AddAttribute("ServerConnectionReuse",
                          "Pool backend connections after a response and reuse them for the "
                          "next request to the same server from the same source (NetScaler's "
                          "add cr vserver -reuse, ON by default there and here; a USIP "
                          "connection only for its own client, a MIP connection to a cache "
                          "for any client). false: one backend connection per request, "
                          "closed after its response (-reuse OFF).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CrdLowerTierAppliance::m_reuse),
                          MakeBooleanChecker())
            .AddAttribute("HashSeed",
                          "Per-appliance seed of the hash LB methods (URLHASH, "
                          "DESTINATIONIPHASH), the cache vserver's HashSeed.",
                          UintegerValue(kDefaultHashSeed),
                          MakeUintegerAccessor(&CrdLowerTierAppliance::SetHashSeed,
                                               &CrdLowerTierAppliance::GetHashSeed),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Decision",
                            "A client request was sent to a cache (CACHE) or the origin "
                            "(BYPASS): client IP, URL, decision, target.",
                            MakeTraceSourceAccessor(&CrdLowerTierAppliance::m_decisionTrace),
                            "ns3::CrdLowerTierAppliance::DecisionTracedCallback")
            .AddTraceSource("Bypass",
                            "A client request goes to the origin: client IP, URL, reason (the "
                            "built-in policy that matched, the rule, or no-cache-up).",
                            MakeTraceSourceAccessor(&CrdLowerTierAppliance::m_bypassTrace),
                            "ns3::CrdLowerTierAppliance::BypassTracedCallback")
            .AddTraceSource("Intercept",
                            "A connection was accepted: kind (CLIENT or CACHE_MISS), peer, "
                            "original destination.",
                            MakeTraceSourceAccessor(&CrdLowerTierAppliance::m_interceptTrace),
                            "ns3::CrdLowerTierAppliance::InterceptTracedCallback")
            .AddTraceSource("PortAllocated",
                            "A source port of the range was taken for a USIP connection.",
                            MakeTraceSourceAccessor(&CrdLowerTierAppliance::m_portAllocatedTrace),
                            "ns3::CrdLowerTierAppliance::PortAllocatedTracedCallback")
            .AddTraceSource("PortExhausted",
                            "No port of the range was free: the request got 503.",
                            MakeTraceSourceAccessor(&CrdLowerTierAppliance::m_portExhaustedTrace),
                            "ns3::CrdLowerTierAppliance::PortExhaustedTracedCallback")
            .AddTraceSource("BackendFailure",
                            "A cache or origin connection failed: target, reason.",
                            MakeTraceSourceAccessor(&CrdLowerTierAppliance::m_backendFailureTrace),
                            "ns3::CrdLowerTierAppliance::BackendFailureTracedCallback")
            .AddTraceSource("Drop",
                            "A request was refused with 4xx, or could not be answered: reason.",
                            MakeTraceSourceAccessor(&CrdLowerTierAppliance::m_dropTrace),
                            "ns3::CrdLowerTierAppliance::DropTracedCallback");
    return tid;
}

CrdLowerTierAppliance::CrdLowerTierAppliance()
    : m_name("L2NS1"),
      m_servicePort(80),
      m_clientIpHeader("X-Forwarded-For"),
      m_rule(POLICY),
      m_mip(Ipv4Address::GetAny()),
      m_backendTimeout(Seconds(5)),
      m_hashSeed(kDefaultHashSeed),
      m_reuse(true),
      m_via(true),
      m_policies(CrdCachePolicies::Parse(CrdCachePolicies::GetDefaultText(), "CachePolicies")),
      m_disposing(false),
      m_clientRequests(0),
      m_cacheRequests(0),
      m_bypassRequests(0),
      m_missIntercepts(0),
      m_portExhausted(0)
{
    NS_LOG_FUNCTION(this);
    m_engine = CreateObject<AdcProxyEngine>();
    m_engine->SetPolicy(this);
    m_cacheSource = CreateObject<AdcSourceAddressPolicy>();
    m_cacheSource->SetAttribute("Mode", EnumValue(AdcSourceAddressPolicy::MAPPED_IP));
    m_cacheSource->SetAttribute("UsePortRange", BooleanValue(false));
    m_originSource = CreateObject<AdcSourceAddressPolicy>();
    m_originSource->SetAttribute("Mode", EnumValue(AdcSourceAddressPolicy::CLIENT_IP));
    // The engine's and the sources' events, under the names this appliance always had.
    m_originSource->TraceConnectWithoutContext(
        "Leased",
        MakeCallback(&CrdLowerTierAppliance::OnLeased, this));
    m_originSource->TraceConnectWithoutContext(
        "Exhausted",
        MakeCallback(&CrdLowerTierAppliance::OnExhausted, this));
    m_engine->TraceConnectWithoutContext(
        "ServerFailure",
        MakeCallback(&CrdLowerTierAppliance::OnServerFailure, this));
    m_engine->TraceConnectWithoutContext("Drop",
                                         MakeCallback(&CrdLowerTierAppliance::OnDrop, this));
    // The cache vserver: UNKNOWN services (monitors not answered yet) stay in rotation.
    m_vserver = CreateObject<AdcVirtualServer>();
    m_vserver->SetAttribute("UnknownIsUp", BooleanValue(true));
    m_vserver->SetAttribute("HashSeed", UintegerValue(m_hashSeed));
    m_vserver->SetLbMethod("ROUNDROBIN");
    SetName(m_name);
}

CrdLowerTierAppliance::~CrdLowerTierAppliance()
{
    NS_LOG_FUNCTION(this);
}

void
CrdLowerTierAppliance::CheckConfig() const
{
    const std::string who = "CrdLowerTierAppliance " + m_name + ": ";
    if (m_name.empty() || std::any_of(m_name.begin(), m_name.end(), [](char c) {
            return static_cast<uint8_t>(c) <= 0x20 || c == 0x7f || c == ',';
        }))
    {
        throw AdcConfigError(who + "Name '" + m_name +
                             "' must be non-empty printable text without spaces or commas "
                             "(it goes into the Via header)");
    }
    if (!m_routing)
    {
        throw AdcConfigError(who + "routing is not set; call SetRouting with the node's "
                                   "AdcPolicyRouting (USIP connections register there)");
    }
    if (!AdcClientIpHeader::IsToken(m_clientIpHeader))
    {
        throw AdcConfigError(who + "ClientIpHeader '" + m_clientIpHeader +
                             "' is not an HTTP header name; use e.g. X-Forwarded-For");
    }
    // Fields HTTP itself interprets (framing, routing, connection management): an address
    // written into one of them would corrupt every forwarded request.
    static const std::vector<std::string> kReserved = {"Content-Length",
                                                       "Transfer-Encoding",
                                                       "Host",
                                                       "Connection",
                                                       "Keep-Alive",
                                                       "TE",
                                                       "Trailer",
                                                       "Upgrade"};
    if (AdcText::Find(m_clientIpHeader, kReserved, AdcText::INSENSITIVE) >= 0)
    {
        throw AdcConfigError(
            who + "ClientIpHeader '" + m_clientIpHeader +
            "' is a field HTTP interprets; not allowed: " + AdcConfigError::JoinAllowed(kReserved) +
            "; use e.g. X-Forwarded-For or Client-IP");
    }
    if (!m_backendTimeout.IsStrictlyPositive())
    {
        throw AdcConfigError(who + "BackendTimeout " +
                             std::to_string(m_backendTimeout.GetSeconds()) + " s must be > 0");
    }
    if (m_rule != NONE && m_mip == Ipv4Address::GetAny())
    {
        throw AdcConfigError(who + "Mip is unset (0.0.0.0) while CacheableRule is not NONE; "
                                   "set it to the appliance's address on the cache network");
    }
    if (m_rule != NONE && m_caches.empty())
    {
        throw AdcConfigError(who + "zero cache servers: add one with AddCacheServer or set "
                                   "CacheableRule NONE");
    }
}

bool
CrdLowerTierAppliance::IsCachePeer(Ipv4Address peer) const
{
    if (m_cacheNet)
    {
        return m_cacheNet->second.IsMatch(peer, m_cacheNet->first);
    }
    return std::any_of(m_caches.begin(), m_caches.end(), [peer](const Ptr<AdcService>& s) {
        return s->GetAddress() == AdcIpAddress(peer);
    });
}

int64_t
CrdLowerTierAppliance::FindCache(const Ptr<AdcService>& service) const
{
    const auto it = std::find(m_caches.begin(), m_caches.end(), service);
    return it == m_caches.end() ? -1 : it - m_caches.begin();
}

std::string
CrdLowerTierAppliance::BypassReason(const AdcHttpMessage& head) const
{
    switch (m_rule)
    {
    case ALL:
        return "";
    case NONE:
        return "NONE";
    case GET_NO_QUERY:
        return head.GetMethod() == "GET" && head.GetTarget().find('?') == std::string::npos
                   ? ""
                   : "GET_NO_QUERY";
    case POLICY:
    default:
        for (const std::string& policy : m_policies)
        {
            if (CrdCachePolicies::Matches(policy, head))
            {
                return policy;
            }
        }
        return "";
    }
}

bool
CrdLowerTierAppliance::HasTierVia(const AdcHttpMessage& head) const
{
    // Via = 1#( received-protocol RWS received-by [ RWS comment ] ) (RFC 9110 section 7.6.3)
    for (const std::string& field : head.GetHeaders("Via"))
    {
        std::size_t start = 0;
        while (start <= field.size())
        {
            const std::size_t comma = std::min(field.find(',', start), field.size());
            const std::string entry = AdcText::Trim(field.substr(start, comma - start));
            start = comma + 1;
            const std::size_t sp = entry.find_first_of(" \t");
            if (sp == std::string::npos)
            {
                continue;
            }
            const std::string rest = AdcText::Trim(entry.substr(sp));
            const std::string by = rest.substr(0, rest.find_first_of(" \t"));
            if (by == m_name ||
                std::find(m_viaPeers.begin(), m_viaPeers.end(), by) != m_viaPeers.end())
            {
                return true;
            }
        }
    }
    return false;
}

void
CrdLowerTierAppliance::AddVia(AdcProxyDecision& d, const AdcHttpMessage& head) const
{
    if (!m_via)
    {
        return;
    }
    std::string via;
    for (const std::string& v : head.GetHeaders("Via"))
    {
        via += (via.empty() ? "" : ", ") + v;
    }
    d.edits.push_back({"Via", via + (via.empty() ? "" : ", ") + "1.1 " + m_name});
}

// ---- counters ------------------------------------------------------------------------------

uint64_t
CrdLowerTierAppliance::GetClientRequests() const
{
    return m_clientRequests;
}

uint64_t
CrdLowerTierAppliance::GetCacheRequests() const
{
    return m_cacheRequests;
}

uint64_t
CrdLowerTierAppliance::GetBypassRequests() const
{
    return m_bypassRequests;
}

uint64_t
CrdLowerTierAppliance::GetBypassCount(const std::string& reason) const
{
    const auto it = m_bypassReasons.find(reason);
    return it == m_bypassReasons.end() ? 0 : it->second;
}

const std::map<std::string, uint64_t>&
CrdLowerTierAppliance::GetBypassReasons() const
{
    return m_bypassReasons;
}

uint64_t
CrdLowerTierAppliance::GetMissIntercepts() const
{
    return m_missIntercepts;
}

uint64_t
CrdLowerTierAppliance::GetPortExhausted() const
{
    return m_portExhausted;
}

uint64_t
CrdLowerTierAppliance::GetFailures() const
{
    return m_engine->GetServerFailures();
}

uint64_t
CrdLowerTierAppliance::GetResponsesRelayed() const
{
    return m_engine->GetResponsesRelayed();
}

uint64_t
CrdLowerTierAppliance::GetDrops() const
{
    return m_engine->GetDrops();
}

uint32_t
CrdLowerTierAppliance::GetOpenFrontConnections() const
{
    return m_engine->GetOpenFrontConnections();
}

uint32_t
CrdLowerTierAppliance::GetOpenBackendConnections() const
{
    return m_engine->GetOpenServerConnections();
}

int64_t
CrdLowerTierAppliance::AssignStreams(int64_t stream)
{
    return m_vserver->GetLbMethod()->AssignStreams(stream);
}

std::size_t
CrdLowerTierAppliance::GetPerFlowStateBytes() const
{
    return m_engine->GetPerFlowStateBytes();
}

// ---- lifecycle -----------------------------------------------------------------------------

void
CrdLowerTierAppliance::StartApplication()
{
    NS_LOG_FUNCTION(this);
    CheckConfig();
    m_cacheSource->SetAttribute("MappedIp", Ipv4AddressValue(m_mip));
    m_cacheSource->SetRouting(m_routing);
    m_originSource->SetRouting(m_routing);
    const std::string who = "CrdLowerTierAppliance " + m_name;
    if (m_rule != NONE)
    {
        m_cacheSource->CheckConfig(who); // no cache is asked for anything with NONE
    }
    m_originSource->CheckConfig(who);
    m_engine->SetAttribute("Name", StringValue(m_name));
    m_engine->SetAttribute("ServicePort", UintegerValue(m_servicePort));
    m_engine->SetAttribute("ConnectTimeout", TimeValue(m_backendTimeout));
    m_engine->SetAttribute("ResponseTimeout", TimeValue(m_backendTimeout));
    // A silent backend answers 502 here, as the lower tier always did (the experiments'
    // failure reasons stay comparable).
    m_engine->SetAttribute("ResponseTimeoutStatus", UintegerValue(502));
    m_engine->SetAttribute("ServerConnectionReuse", BooleanValue(m_reuse));
    m_engine->SetAttribute("ResponseVia", BooleanValue(m_via)); // -via covers both directions
    m_engine->Start(GetNode());
}

void
CrdLowerTierAppliance::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_engine->Stop(m_disposing);
}

void
CrdLowerTierAppliance::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // The node's IP stack and the trace listeners may be gone: close without sending or tracing.
    m_disposing = true;
    StopApplication();
    m_engine->Dispose();
    m_engine = nullptr;
    m_cacheSource = nullptr;
    m_originSource = nullptr;
    m_routing = nullptr;
    // The vserver and the services this appliance made let go of what they listen to (the
    // services' monitors may outlive them); services a caller made are the caller's.
    m_vserver->Dispose();
    m_vserver = nullptr;
    for (std::size_t i = 0; i < m_caches.size(); ++i)
    {
        if (m_created[i])
        {
            m_caches[i]->Dispose();
        }
    }
    m_caches.clear();
    m_created.clear();
    Application::DoDispose();
}

// ---- the policy ----------------------------------------------------------------------------

void
CrdLowerTierAppliance::Accepted(AdcProxyFront& front)
{
    front.kind = IsCachePeer(front.peerIp) ? kCacheMiss : 0;
    m_interceptTrace(front.kind == kCacheMiss ? "CACHE_MISS" : "CLIENT",
                     AdcEndpointText(front.peerIp, front.peerPort),
                     AdcEndpointText(front.localIp, front.localPort));
}

AdcProxyDecision
CrdLowerTierAppliance::Decide(const AdcProxyFront& front, const AdcHttpMessage& request)
{
    if (m_via ? HasTierVia(request) : front.kind == kCacheMiss)
    {
        ++m_missIntercepts;
        const auto value = request.GetHeader(m_clientIpHeader);
        const auto clientIp = value ? AdcClientIpHeader::ParseValue(*value) : std::nullopt;
        if (!clientIp)
        {
            return AdcProxyDecision::Answer(400, "Bad Request", "missing-client-ip-header");
        }
        return ToOrigin(front, *clientIp, request);
    }
    ++m_clientRequests;
    const std::string clientIp = AdcClientIpHeader::Format(front.peerIp);
    const std::string& url = request.GetTarget();
    std::string target = "origin";
    std::string reason = BypassReason(request);
    if (reason.empty())
    {
        AdcLbContext ctx;
        ctx.flow = AdcFlowKey(front.peerIp,
                              front.localIp,
                              front.peerPort,
                              front.localPort,
                              AdcFlowKey::PROTO_TCP);
        ctx.url = url;
        const AdcSelection sel = m_vserver->Select(ctx, Simulator::Now());
        if (sel.service)
        {
            const Ptr<AdcService>& cache = sel.service;
            m_decisionTrace(clientIp, url, "CACHE", cache->GetName());
            ++m_cacheRequests;
            AdcProxyDecision d = AdcProxyDecision::Forward(cache->GetName(),
                                                           cache->GetAddress().GetIpv4(),
                                                           cache->GetPort(),
                                                           m_cacheSource,
                                                           front.peerIp);
            // The appliance is the one the ISP trusts: its value replaces the request's.
            d.edits.push_back({m_clientIpHeader, clientIp});
            AddVia(d, request);
            d.tag = FindCache(cache);
            if (d.tag >= 0)
            {
                m_vserver->ConnectionOpened(cache); // given back in Released
            }
            return d;
        }
        target = "origin (no cache up)";
        reason = "no-cache-up";
    }
    m_decisionTrace(clientIp, url, "BYPASS", target);
    m_bypassTrace(clientIp, url, reason);
    ++m_bypassReasons[reason];
    ++m_bypassRequests;
    return ToOrigin(front, front.peerIp, request);
}

AdcProxyDecision
CrdLowerTierAppliance::ToOrigin(const AdcProxyFront& front,
                                Ipv4Address clientIp,
                                const AdcHttpMessage& head) const
{
    AdcProxyDecision d = AdcProxyDecision::Forward("origin",
                                                   front.localIp,
                                                   front.localPort,
                                                   m_originSource,
                                                   clientIp);
    d.edits.push_back({m_clientIpHeader, AdcClientIpHeader::Format(clientIp)});
    AddVia(d, head);
    return d;
}

void
CrdLowerTierAppliance::Released(const AdcProxyDecision& decision)
{
    if (decision.tag >= 0 && static_cast<std::size_t>(decision.tag) < m_caches.size())
    {
        m_vserver->ConnectionClosed(m_caches[decision.tag]);
    }
}

// ---- traces --------------------------------------------------------------------------------

void
CrdLowerTierAppliance::OnLeased(Ipv4Address source, uint16_t port)
{
    m_portAllocatedTrace(port, AdcClientIpHeader::Format(source));
}

void
CrdLowerTierAppliance::OnExhausted(Ipv4Address source)
{
    ++m_portExhausted;
    m_portExhaustedTrace(AdcClientIpHeader::Format(source));
}

void
CrdLowerTierAppliance::OnServerFailure(const std::string& target,
                                       const std::string& reason,
                                       uint16_t /* status */)
{
    m_backendFailureTrace(target, reason);
}

void
CrdLowerTierAppliance::OnDrop(const std::string& reason)
{
    m_dropTrace(reason);
}

} // namespace ns3
