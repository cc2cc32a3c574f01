/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc, N-tier cache redirection (CRD): a lower-tier appliance, a transparent
 * cache-redirection proxy over real ns-3 TCP.
 */

#include "crd-lower-tier.h"

#include "ns3/adc-client-ip-header.h"
#include "ns3/adc-config-error.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrdLowerTierAppliance");

NS_OBJECT_ENSURE_REGISTERED(CrdLowerTierAppliance);

namespace
{

/// Largest chunk of generated request body handed to TCP at once.
constexpr uint32_t kMaxChunk = 65536;
/// Bytes queued for a front before the backend is no longer read (flow control).
constexpr uint64_t kRelayWindow = 65536;
/// Parsed requests queued per front before the front is no longer read.
constexpr std::size_t kMaxPipelined = 16;
/// Overhead of one std::map node besides its value (three links and the colour, rounded).
constexpr std::size_t kMapNodeOverhead = 4 * sizeof(void*);
/// Seed of the LB method's hashes unless "HashSeed" says otherwise (AdcLbMethod's default).
constexpr uint64_t kDefaultHashSeed = 0x5a17ad0c0ffee123ULL;

/// The cache LB methods a lower-tier appliance offers.
const std::vector<std::string>&
AllowedLbMethods()
{
    static const std::vector<std::string> names = {"ROUNDROBIN",
                                                   "LEASTCONNECTION",
                                                   "URLHASH",
                                                   "DESTINATIONIPHASH"};
    return names;
}

/// \return "a.b.c.d:port"
std::string
EndpointText(Ipv4Address a, uint16_t port)
{
    return AdcClientIpHeader::Format(a) + ":" + std::to_string(port);
}

/// \return a packet of \p text's bytes
Ptr<Packet>
TextPacket(const std::string& text)
{
    return Create<Packet>(reinterpret_cast<const uint8_t*>(text.data()),
                          static_cast<uint32_t>(text.size()));
}

} // namespace

Ptr<const AttributeChecker>
CrdLowerTierAppliance::MakeCacheableRuleChecker()
{
    return MakeEnumChecker(GET_NO_QUERY, "GET_NO_QUERY", ALL, "ALL", NONE, "NONE");
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
                          MakeStringAccessor(&CrdLowerTierAppliance::m_name),
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
                          "Cache server load balancing: ROUNDROBIN, LEASTCONNECTION, URLHASH "
                          "or DESTINATIONIPHASH (case-insensitive).",
                          StringValue("ROUNDROBIN"),
                          MakeStringAccessor(&CrdLowerTierAppliance::SetCacheLbMethod,
                                             &CrdLowerTierAppliance::GetCacheLbMethod),
                          MakeStringChecker())
            .AddAttribute("CacheableRule",
                          "Which requests go to a cache: GET_NO_QUERY (a GET whose URL has no "
                          "'?'), ALL or NONE.",
                          EnumValue(CrdLowerTierAppliance::GET_NO_QUERY),
                          MakeEnumAccessor(&CrdLowerTierAppliance::m_rule),
                          MakeCacheableRuleChecker())
            .AddAttribute("Mip",
                          "Mapped IP: source of connections to the caches, so they answer "
                          "this appliance. 0.0.0.0 = unset (allowed only with CacheableRule "
                          "NONE).",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&CrdLowerTierAppliance::m_mip),
                          MakeIpv4AddressChecker())
            .AddAttribute("BackendTimeout",
                          "A backend connection that makes no progress this long (connecting, "
                          "or waiting for response bytes) fails with 502.",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&CrdLowerTierAppliance::m_backendTimeout),
                          MakeTimeChecker())
            .AddAttribute("HashSeed",
                          "Per-appliance seed of the hash LB methods (URLHASH, "
                          "DESTINATIONIPHASH).",
                          UintegerValue(kDefaultHashSeed),
                          MakeUintegerAccessor(&CrdLowerTierAppliance::SetHashSeed,
                                               &CrdLowerTierAppliance::GetHashSeed),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Decision",
                            "A client request was sent to a cache (CACHE) or the origin "
                            "(BYPASS): client IP, URL, decision, target.",
                            MakeTraceSourceAccessor(&CrdLowerTierAppliance::m_decisionTrace),
                            "ns3::CrdLowerTierAppliance::DecisionTracedCallback")
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
      m_lbName("ROUNDROBIN"),
      m_rule(GET_NO_QUERY),
      m_mip(Ipv4Address::GetAny()),
      m_backendTimeout(Seconds(5)),
      m_hashSeed(kDefaultHashSeed),
      m_nextId(1),
      m_disposing(false),
      m_clientRequests(0),
      m_cacheRequests(0),
      m_bypassRequests(0),
      m_missIntercepts(0),
      m_portExhausted(0),
      m_failures(0),
      m_relayedCount(0),
      m_drops(0)
{
    NS_LOG_FUNCTION(this);
    m_ports = CreateObject<AdcPortAllocator>();
    m_lb = AdcLbMethod::Create(m_lbName);
    m_lb->SetHashSeed(m_hashSeed);
}

CrdLowerTierAppliance::~CrdLowerTierAppliance()
{
    NS_LOG_FUNCTION(this);
}

// ---- configuration -------------------------------------------------------------------------

void
CrdLowerTierAppliance::SetCacheLbMethod(std::string name)
{
    std::string upper = name;
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) {
        return static_cast<char>(std::toupper(c));
    });
    const auto& allowed = AllowedLbMethods();
    if (std::find(allowed.begin(), allowed.end(), upper) == allowed.end())
    {
        throw AdcConfigError::NotOneOf("CrdLowerTierAppliance", "CacheLbMethod", name, allowed);
    }
    Ptr<AdcLbMethod> lb = AdcLbMethod::Create(upper);
    lb->SetHashSeed(m_hashSeed);
    // Caches added before the method was chosen carry over, with their state.
    for (uint32_t i = 0; m_lb && i < m_lb->GetNBackends(); ++i)
    {
        lb->AddBackend(m_lb->GetBackend(i));
    }
    m_lb = lb;
    m_lbName = upper;
}

std::string
CrdLowerTierAppliance::GetCacheLbMethod() const
{
    return m_lbName;
}

void
CrdLowerTierAppliance::SetHashSeed(uint64_t seed)
{
    m_hashSeed = seed;
    if (m_lb)
    {
        m_lb->SetHashSeed(seed);
    }
}

uint64_t
CrdLowerTierAppliance::GetHashSeed() const
{
    return m_hashSeed;
}

void
CrdLowerTierAppliance::SetPortRange(std::string text)
{
    m_ports->SetRange(AdcPortRange::Parse(text));
}

std::string
CrdLowerTierAppliance::GetPortRange() const
{
    return m_ports->GetRange().ToString();
}

uint32_t
CrdLowerTierAppliance::AddCacheServer(const std::string& name, Ipv4Address address, uint16_t port)
{
    NS_LOG_FUNCTION(this << name << address << port);
    if (name.empty() || port == 0)
    {
        throw AdcConfigError("CrdLowerTierAppliance " + m_name + ": cache server '" + name +
                             "' port " + std::to_string(port) +
                             ": give a non-empty name and a port 1..65535");
    }
    AdcBackend b;
    b.name = name;
    b.address = address;
    b.port = port;
    return m_lb->AddBackend(b);
}

void
CrdLowerTierAppliance::SetCacheServerUp(uint32_t index, bool up)
{
    NS_LOG_FUNCTION(this << index << up);
    m_lb->SetBackendUp(index, up);
}

uint32_t
CrdLowerTierAppliance::GetNCacheServers() const
{
    return m_lb->GetNBackends();
}

void
CrdLowerTierAppliance::SetCacheNetwork(Ipv4Address net, Ipv4Mask mask)
{
    m_cacheNet = std::make_pair(net.CombineMask(mask), mask);
}

void
CrdLowerTierAppliance::SetRouting(Ptr<AdcPolicyRouting> routing)
{
    m_routing = routing;
}

Ptr<AdcPolicyRouting>
CrdLowerTierAppliance::GetRouting() const
{
    return m_routing;
}

Ptr<AdcPortAllocator>
CrdLowerTierAppliance::GetPortAllocator() const
{
    return m_ports;
}

Ptr<AdcLbMethod>
CrdLowerTierAppliance::GetCacheLb() const
{
    return m_lb;
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
                                   "AdcPolicyRouting (needed for USIP connections)");
    }
    if (!AdcClientIpHeader::IsToken(m_clientIpHeader))
    {
        throw AdcConfigError(who + "ClientIpHeader '" + m_clientIpHeader +
                             "' is not an HTTP header name; use e.g. X-Forwarded-For");
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
    if (m_rule != NONE && m_lb->GetNBackends() == 0)
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
    for (uint32_t i = 0; i < m_lb->GetNBackends(); ++i)
    {
        if (m_lb->GetBackend(i).address == AdcIpAddress(peer))
        {
            return true;
        }
    }
    return false;
}

bool
CrdLowerTierAppliance::IsCacheable(const AdcHttpMessage& head) const
{
    switch (m_rule)
    {
    case ALL:
        return true;
    case NONE:
        return false;
    case GET_NO_QUERY:
    default:
        return head.GetMethod() == "GET" && head.GetTarget().find('?') == std::string::npos;
    }
}

bool
CrdLowerTierAppliance::IsOwnAddress(Ipv4Address a) const
{
    Ptr<Ipv4> ipv4 = GetNode()->GetObject<Ipv4>();
    return ipv4 && ipv4->GetInterfaceForAddress(a) >= 0;
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
    return m_failures;
}

uint64_t
CrdLowerTierAppliance::GetResponsesRelayed() const
{
    return m_relayedCount;
}

uint64_t
CrdLowerTierAppliance::GetDrops() const
{
    return m_drops;
}

uint32_t
CrdLowerTierAppliance::GetOpenFrontConnections() const
{
    return static_cast<uint32_t>(m_fronts.size());
}

uint32_t
CrdLowerTierAppliance::GetOpenBackendConnections() const
{
    return static_cast<uint32_t>(m_backends.size());
}

int64_t
CrdLowerTierAppliance::AssignStreams(int64_t stream)
{
    return m_lb->AssignStreams(stream);
}

std::size_t
CrdLowerTierAppliance::GetPerFlowStateBytes() const
{
    // Packets in an outbox are counted by their payload: the proxy holds those bytes.
    std::size_t total = 0;
    for (const auto& kv : m_fronts)
    {
        const Front& f = kv.second;
        total += sizeof(kv) + kMapNodeOverhead;                               // m_fronts
        total += sizeof(std::pair<Ptr<Socket>, uint64_t>) + kMapNodeOverhead; // m_frontOf
        total += f.pending.size() * sizeof(Item);
        for (const Item& it : f.pending)
        {
            total += it.head.ToWireString().size();
        }
        total += f.out.GetNPackets() * sizeof(Ptr<Packet>) + f.out.GetBytes();
        // The request parser buffers at most one incomplete head; its size is not exposed,
        // so its fixed part is counted (the bytes it buffers are bounded by kMaxHeadBytes).
        total += sizeof(AdcHttpStreamParser);
    }
    for (const auto& kv : m_backends)
    {
        const Backend& b = kv.second;
        total += sizeof(kv) + kMapNodeOverhead;
        total += sizeof(std::pair<Ptr<Socket>, uint64_t>) + kMapNodeOverhead;
        total += b.target.capacity() + b.headBuf.capacity();
        total += b.out.GetNPackets() * sizeof(Ptr<Packet>) + b.out.GetBytes();
    }
    return total;
}

// ---- lifecycle -----------------------------------------------------------------------------

void
CrdLowerTierAppliance::StartApplication()
{
    NS_LOG_FUNCTION(this);
    CheckConfig();
    if (m_listen)
    {
        return;
    }
    m_listen = AdcListenTcp(GetNode(), m_servicePort);
    if (!m_listen)
    {
        throw AdcConfigError("CrdLowerTierAppliance " + m_name + ": ServicePort " +
                             std::to_string(m_servicePort) + " cannot be bound on node " +
                             std::to_string(GetNode()->GetId()) + " (already in use?)");
    }
    m_listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                MakeCallback(&CrdLowerTierAppliance::HandleAccept, this));
}

void
CrdLowerTierAppliance::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_listen)
    {
        AdcStopListening(m_listen, !m_disposing);
        m_listen = nullptr;
    }
    std::vector<uint64_t> ids;
    for (const auto& kv : m_fronts) // std::map: ascending ids, deterministic
    {
        ids.push_back(kv.first);
    }
    for (uint64_t id : ids)
    {
        CloseFront(id);
    }
    ids.clear();
    for (const auto& kv : m_backends)
    {
        ids.push_back(kv.first);
    }
    for (uint64_t id : ids)
    {
        CloseBackend(id);
    }
}

void
CrdLowerTierAppliance::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // The node's IP stack and the trace listeners may be gone: close without sending or tracing.
    m_disposing = true;
    StopApplication();
    m_routing = nullptr;
    m_ports = nullptr;
    m_lb = nullptr;
    Application::DoDispose();
}

// ---- helpers -------------------------------------------------------------------------------

uint64_t
CrdLowerTierAppliance::FrontOf(Ptr<Socket> s) const
{
    auto it = m_frontOf.find(s);
    return it == m_frontOf.end() ? 0 : it->second;
}

uint64_t
CrdLowerTierAppliance::BackendOf(Ptr<Socket> s) const
{
    auto it = m_backOf.find(s);
    return it == m_backOf.end() ? 0 : it->second;
}

void
CrdLowerTierAppliance::DetachAndClose(Ptr<Socket> s)
{
    AdcDetachSocket(s, !m_disposing);
}

void
CrdLowerTierAppliance::Drop(const std::string& reason)
{
    if (m_disposing)
    {
        return;
    }
    ++m_drops;
    NS_LOG_INFO(m_name << " drop: " << reason);
    m_dropTrace(reason);
}

// ---- front connections ---------------------------------------------------------------------

void
CrdLowerTierAppliance::HandleAccept(Ptr<Socket> s, const Address& from)
{
    NS_LOG_FUNCTION(this << s << from);
    Address local;
    s->GetSockName(local);
    if (!InetSocketAddress::IsMatchingType(from) || !InetSocketAddress::IsMatchingType(local))
    {
        DetachAndClose(s);
        return;
    }
    const InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
    const InetSocketAddress orig = InetSocketAddress::ConvertFrom(local);
    const uint64_t fid = m_nextId++;
    Front& f = m_fronts[fid];
    f.socket = s;
    f.peerIp = peer.GetIpv4();
    f.peerPort = peer.GetPort();
    f.origIp = orig.GetIpv4();
    f.origPort = orig.GetPort();
    f.miss = IsCachePeer(f.peerIp);
    m_frontOf[s] = fid;
    s->SetRecvCallback(MakeCallback(&CrdLowerTierAppliance::HandleFrontRead, this));
    s->SetSendCallback(MakeCallback(&CrdLowerTierAppliance::HandleFrontSend, this));
    s->SetCloseCallbacks(MakeCallback(&CrdLowerTierAppliance::HandleFrontPeerClose, this),
                         MakeCallback(&CrdLowerTierAppliance::HandleFrontError, this));
    NS_LOG_INFO(m_name << " accepts " << (f.miss ? "CACHE_MISS" : "CLIENT") << " "
                       << EndpointText(f.peerIp, f.peerPort) << " -> "
                       << EndpointText(f.origIp, f.origPort));
    m_interceptTrace(f.miss ? "CACHE_MISS" : "CLIENT",
                     EndpointText(f.peerIp, f.peerPort),
                     EndpointText(f.origIp, f.origPort));
}

void
CrdLowerTierAppliance::HandleFrontRead(Ptr<Socket> s)
{
    Service(FrontOf(s));
}

void
CrdLowerTierAppliance::HandleFrontSend(Ptr<Socket> s, uint32_t /* available */)
{
    Service(FrontOf(s));
}

void
CrdLowerTierAppliance::HandleFrontPeerClose(Ptr<Socket> s)
{
    auto it = m_fronts.find(FrontOf(s));
    if (it == m_fronts.end())
    {
        return;
    }
    it->second.peerClosed = true;
    Service(it->first);
}

void
CrdLowerTierAppliance::HandleFrontError(Ptr<Socket> s)
{
    const uint64_t fid = FrontOf(s);
    NS_LOG_LOGIC(m_name << " front " << fid << " reset");
    CloseFront(fid);
}

void
CrdLowerTierAppliance::ReadFront(Front& f)
{
    while (f.pending.size() < kMaxPipelined)
    {
        Ptr<Packet> p = f.socket->Recv();
        if (!p || p->GetSize() == 0)
        {
            return;
        }
        if (f.readStopped)
        {
            continue; // after a malformed request nothing more is understood
        }
        f.parser.Feed(p);
        Item item;
        while (f.parser.Next(&item.head, &item.bodyBytes))
        {
            f.pending.push_back(item);
        }
        if (f.parser.HasError())
        {
            Item bad;
            bad.error = f.parser.GetError();
            f.pending.push_back(bad);
            f.readStopped = true;
        }
    }
}

void
CrdLowerTierAppliance::Service(uint64_t fid)
{
    auto it = m_fronts.find(fid);
    if (it == m_fronts.end())
    {
        return;
    }
    if (it->second.inService)
    {
        it->second.serviceAgain = true; // the running loop goes round once more
        return;
    }
    it->second.inService = true;
    do
    {
        Front& f = m_fronts.at(fid); // handlers below never erase a front in service
        f.serviceAgain = false;
        if (f.abort)
        {
            break;
        }
        ReadFront(f);
        while (f.backend == 0 && !f.pending.empty() && !f.closeWhenFlushed && !f.abort)
        {
            const Item item = f.pending.front();
            f.pending.pop_front();
            HandleRequest(fid, item);
        }
        if (f.backend != 0 && f.out.GetBytes() < kRelayWindow)
        {
            ReadBackend(f.backend); // resume a relay paused for room; may finish the request
        }
        f.out.Flush(f.socket);
        if (f.backend == 0 && !f.closeWhenFlushed && !f.abort &&
            (!f.pending.empty() || f.socket->GetRxAvailable() > 0))
        {
            f.serviceAgain = true; // the next request can go now
        }
    } while (m_fronts.at(fid).serviceAgain);

    Front& f = m_fronts.at(fid);
    f.inService = false;
    const bool idle = f.backend == 0 && f.pending.empty();
    if (f.abort || (f.out.IsEmpty() && (f.closeWhenFlushed || (f.peerClosed && idle))))
    {
        CloseFront(fid);
    }
}

void
CrdLowerTierAppliance::HandleRequest(uint64_t fid, const Item& item)
{
    Front& f = m_fronts.at(fid);
    if (!item.error.empty())
    {
        Drop("bad-request: " + item.error);
        AnswerLocally(f, 400, "Bad Request", true);
        return;
    }
    f.keepAlive = item.head.IsKeepAlive();
    f.http10 = item.head.GetVersion() == "HTTP/1.0";
    NS_LOG_INFO(m_name << " front " << fid << " request " << item.head.GetMethod() << " "
                       << item.head.GetTarget());
    if (f.miss)
    {
        HandleMissRequest(fid, item);
    }
    else
    {
        HandleClientRequest(fid, item);
    }
}

void
CrdLowerTierAppliance::HandleClientRequest(uint64_t fid, const Item& item)
{
    Front& f = m_fronts.at(fid);
    ++m_clientRequests;
    const std::string clientIp = AdcClientIpHeader::Format(f.peerIp);
    const std::string& url = item.head.GetTarget();
    std::string target = "origin";
    if (IsCacheable(item.head))
    {
        AdcLbContext ctx;
        ctx.flow = AdcFlowKey(f.peerIp, f.origIp, f.peerPort, f.origPort, AdcFlowKey::PROTO_TCP);
        ctx.url = url;
        const int32_t index = m_lb->Select(ctx);
        if (index >= 0)
        {
            const uint32_t i = static_cast<uint32_t>(index);
            m_decisionTrace(clientIp, url, "CACHE", m_lb->GetBackend(i).name);
            ++m_cacheRequests;
            StartCache(fid, item, i);
            return;
        }
        target = "origin (no cache up)";
    }
    m_decisionTrace(clientIp, url, "BYPASS", target);
    ++m_bypassRequests;
    StartOrigin(fid, item, f.peerIp);
}

void
CrdLowerTierAppliance::HandleMissRequest(uint64_t fid, const Item& item)
{
    Front& f = m_fronts.at(fid);
    ++m_missIntercepts;
    const auto value = item.head.GetHeader(m_clientIpHeader);
    const auto clientIp = value ? AdcClientIpHeader::ParseValue(*value) : std::nullopt;
    if (!clientIp)
    {
        Drop("missing-client-ip-header");
        AnswerLocally(f, 400, "Bad Request", !f.keepAlive);
        return;
    }
    StartOrigin(fid, item, *clientIp);
}

void
CrdLowerTierAppliance::AnswerLocally(Front& f,
                                     uint16_t status,
                                     const std::string& reason,
                                     bool close)
{
    AdcHttpMessage head = AdcHttpMessage::MakeResponse(status, reason);
    head.SetHeader("Server", m_name);
    head.SetContentLength(0);
    if (close)
    {
        head.SetHeader("Connection", "close");
        f.closeWhenFlushed = true;
    }
    NS_LOG_INFO(m_name << " answers " << status << " " << reason);
    f.out.Push(TextPacket(head.ToWireString()));
}

void
CrdLowerTierAppliance::CloseFront(uint64_t fid)
{
    auto it = m_fronts.find(fid);
    if (it == m_fronts.end())
    {
        return;
    }
    Front& f = it->second;
    // What the front still waited for can no longer be answered.
    std::size_t lost = f.pending.size();
    if (f.backend != 0)
    {
        auto b = m_backends.find(f.backend);
        if (b != m_backends.end() && !b->second.done)
        {
            ++lost;
            b->second.front = 0;
            CloseBackend(f.backend);
        }
    }
    for (const Item& item : f.pending)
    {
        lost -= item.error.empty() ? 0 : 1; // a parse error is no request; it was traced
    }
    for (std::size_t i = 0; i < lost; ++i)
    {
        Drop("connection-closed-before-response");
    }
    if (f.parser.IsMidMessage() && !f.readStopped)
    {
        Drop("incomplete-request-at-close");
    }
    Ptr<Socket> s = f.socket;
    if (!m_disposing)
    {
        f.out.Flush(s); // what fits still goes out before the FIN (a cut response's start)
    }
    m_frontOf.erase(s);
    m_fronts.erase(it);
    DetachAndClose(s);
}

// ---- backend connections -------------------------------------------------------------------

void
CrdLowerTierAppliance::StartCache(uint64_t fid, const Item& item, uint32_t index)
{
    const AdcBackend& cache = m_lb->GetBackend(index);
    const Ipv4Address clientIp = m_fronts.at(fid).peerIp;
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    const int bound = s->Bind(InetSocketAddress(m_mip, 0));
    m_lb->ConnectionOpened(index);
    const uint64_t bid =
        AddBackend(fid, s, cache.name, static_cast<int32_t>(index), std::nullopt, item, clientIp);
    if (bound == -1)
    {
        FailBackend(bid, "connect-failed");
        return;
    }
    ConnectBackend(bid, m_mip, InetSocketAddress(cache.address.GetIpv4(), cache.port));
}

void
CrdLowerTierAppliance::StartOrigin(uint64_t fid, const Item& item, Ipv4Address clientIp)
{
    Front& f = m_fronts.at(fid);
    const std::string clientText = AdcClientIpHeader::Format(clientIp);
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    const std::optional<uint16_t> port = AdcBindFromRange(s, clientIp, m_ports);
    if (!port)
    {
        ++m_portExhausted;
        NS_LOG_INFO(m_name << " port range " << m_ports->GetRange() << " exhausted for "
                           << clientText);
        m_portExhaustedTrace(clientText);
        AnswerLocally(f, 503, "Service Unavailable", !f.keepAlive);
        s->Close();
        return;
    }
    m_portAllocatedTrace(*port, clientText);
    const uint64_t bid = AddBackend(fid, s, "origin", -1, port, item, clientIp);
    if (IsOwnAddress(f.origIp))
    {
        // A request addressed to the appliance itself would come straight back to it.
        FailBackend(bid, "destination-is-this-appliance");
        return;
    }
    ConnectBackend(bid, clientIp, InetSocketAddress(f.origIp, f.origPort));
}

uint64_t
CrdLowerTierAppliance::AddBackend(uint64_t fid,
                                  Ptr<Socket> s,
                                  const std::string& target,
                                  int32_t cache,
                                  std::optional<uint16_t> port,
                                  const Item& item,
                                  Ipv4Address clientIp)
{
    const uint64_t bid = m_nextId++;
    Backend& b = m_backends[bid];
    b.socket = s;
    b.front = fid;
    b.target = target;
    b.cache = cache;
    b.port = port;
    b.noBody = item.head.GetMethod() == "HEAD";
    m_backOf[s] = bid;
    m_fronts.at(fid).backend = bid;

    // The appliance is the one the ISP trusts: its value replaces whatever the request had.
    AdcHttpMessage request = item.head;
    request.SetHeader(m_clientIpHeader, AdcClientIpHeader::Format(clientIp));
    request.SetHeader("Connection", "close");
    b.out.Push(TextPacket(request.ToWireString()));
    for (uint64_t left = item.bodyBytes; left > 0;)
    {
        const auto n = static_cast<uint32_t>(std::min<uint64_t>(left, kMaxChunk));
        b.out.Push(Create<Packet>(n));
        left -= n;
    }
    return bid;
}

void
CrdLowerTierAppliance::ConnectBackend(uint64_t bid, Ipv4Address source, const Address& to)
{
    Backend& b = m_backends.at(bid);
    Ptr<Socket> s = b.socket;
    s->SetConnectCallback(MakeCallback(&CrdLowerTierAppliance::HandleBackendConnected, this),
                          MakeCallback(&CrdLowerTierAppliance::HandleBackendConnectFailed, this));
    s->SetRecvCallback(MakeCallback(&CrdLowerTierAppliance::HandleBackendRead, this));
    s->SetSendCallback(MakeCallback(&CrdLowerTierAppliance::HandleBackendSend, this));
    s->SetCloseCallbacks(MakeCallback(&CrdLowerTierAppliance::HandleBackendPeerClose, this),
                         MakeCallback(&CrdLowerTierAppliance::HandleBackendError, this));
    // Connect takes its local address from the route: make it the MIP or the client IP.
    if (!AdcConnectFrom(s, m_routing, source, to))
    {
        FailBackend(bid, "connect-failed");
        return;
    }
    NS_LOG_INFO(m_name << " backend " << bid << " " << b.target << " from " << source << " to "
                       << InetSocketAddress::ConvertFrom(to).GetIpv4());
    b.out.Flush(s); // TCP keeps the request until the handshake completes
    ArmTimer(bid);
}

void
CrdLowerTierAppliance::HandleBackendConnected(Ptr<Socket> s)
{
    auto it = m_backends.find(BackendOf(s));
    if (it != m_backends.end())
    {
        it->second.out.Flush(s);
        ArmTimer(it->first);
    }
}

void
CrdLowerTierAppliance::HandleBackendConnectFailed(Ptr<Socket> s)
{
    auto it = m_backends.find(BackendOf(s));
    if (it == m_backends.end())
    {
        return;
    }
    const uint64_t fid = it->second.front;
    FailBackend(it->first, "connect-failed");
    Service(fid);
}

void
CrdLowerTierAppliance::HandleBackendSend(Ptr<Socket> s, uint32_t /* available */)
{
    auto it = m_backends.find(BackendOf(s));
    if (it != m_backends.end())
    {
        it->second.out.Flush(s);
    }
}

void
CrdLowerTierAppliance::HandleBackendRead(Ptr<Socket> s)
{
    auto it = m_backends.find(BackendOf(s));
    if (it == m_backends.end())
    {
        return;
    }
    const uint64_t fid = it->second.front;
    ReadBackend(it->first);
    Service(fid);
}

void
CrdLowerTierAppliance::HandleBackendPeerClose(Ptr<Socket> s)
{
    auto it = m_backends.find(BackendOf(s));
    if (it == m_backends.end())
    {
        return;
    }
    it->second.peerClosed = true;
    const uint64_t fid = it->second.front;
    ReadBackend(it->first); // decides: complete, cut short, or waiting for room
    Service(fid);
}

void
CrdLowerTierAppliance::HandleBackendError(Ptr<Socket> s)
{
    auto it = m_backends.find(BackendOf(s));
    if (it == m_backends.end())
    {
        return;
    }
    const uint64_t fid = it->second.front;
    if (it->second.done)
    {
        CloseBackend(it->first); // a reset after the whole response costs nothing
        return;
    }
    FailBackend(it->first, "reset");
    Service(fid);
}

void
CrdLowerTierAppliance::ReadBackend(uint64_t bid)
{
    auto it = m_backends.find(bid);
    if (it == m_backends.end())
    {
        return;
    }
    Backend& b = it->second;
    auto fit = m_fronts.find(b.front);
    Front* f = fit == m_fronts.end() ? nullptr : &fit->second;
    bool progress = false;
    std::string error;
    while (error.empty())
    {
        if (f && !b.done && f->out.GetBytes() >= kRelayWindow)
        {
            NS_LOG_LOGIC(m_name << " backend " << bid << " paused: front queue full");
            break; // the front is slow: leave the bytes in TCP, whose window then closes
        }
        Ptr<Packet> p = b.socket->Recv();
        if (!p || p->GetSize() == 0)
        {
            break;
        }
        progress = true;
        if (b.done || !f)
        {
            continue; // nothing may follow the response we asked for; discard it
        }
        error = ConsumeResponse(b, *f, p);
    }
    if (!error.empty())
    {
        FailBackend(bid, "bad-response: " + error);
        return;
    }
    if (b.done && b.front != 0)
    {
        FinishBackend(bid);
        return;
    }
    if (b.done)
    {
        if (b.peerClosed)
        {
            CloseBackend(bid);
        }
        return;
    }
    if (b.peerClosed && b.socket->GetRxAvailable() == 0)
    {
        // The backend closed and everything it sent was read, yet the response is short.
        FailBackend(bid, "closed-before-response-complete");
        return;
    }
    if (progress)
    {
        ArmTimer(bid);
    }
}

std::string
CrdLowerTierAppliance::ConsumeResponse(Backend& b, Front& f, Ptr<Packet> p)
{
    if (!b.headDone)
    {
        const std::size_t old = b.headBuf.size();
        b.headBuf.resize(old + p->GetSize());
        p->CopyData(b.headBuf.data() + old, p->GetSize());
        AdcHttpMessage head;
        std::size_t consumed = 0;
        std::string error;
        switch (head.Parse(b.headBuf.data(), b.headBuf.size(), &consumed, &error))
        {
        case AdcHttpMessage::ParseStatus::ERROR:
            return error;
        case AdcHttpMessage::ParseStatus::INCOMPLETE:
            if (b.headBuf.size() > AdcHttpMessage::kMaxHeadBytes)
            {
                return "response head larger than " +
                       std::to_string(AdcHttpMessage::kMaxHeadBytes) + " bytes";
            }
            return "";
        case AdcHttpMessage::ParseStatus::COMPLETE:
            break;
        }
        if (head.GetKind() != AdcHttpMessage::RESPONSE)
        {
            return "a request where a response was expected";
        }
        const uint16_t status = head.GetStatus();
        const bool bodiless = b.noBody || status < 200 || status == 204 || status == 304;
        b.bodyLeft = bodiless ? 0 : head.GetContentLength();
        b.headDone = true;
        RelayHead(b, f, head);
        std::vector<uint8_t> rest(b.headBuf.begin() + consumed, b.headBuf.end());
        b.headBuf.clear();
        b.headBuf.shrink_to_fit();
        if (rest.empty())
        {
            b.done = b.bodyLeft == 0;
            return "";
        }
        p = Create<Packet>(rest.data(), static_cast<uint32_t>(rest.size()));
    }
    const uint64_t n = std::min<uint64_t>(b.bodyLeft, p->GetSize());
    if (n > 0)
    {
        f.out.Push(n == p->GetSize() ? p : p->CreateFragment(0, static_cast<uint32_t>(n)));
        b.bodyLeft -= n;
        b.relayed += n;
    }
    b.done = b.bodyLeft == 0; // bytes past Content-Length are not part of the response
    return "";
}

void
CrdLowerTierAppliance::RelayHead(Backend& b, Front& f, AdcHttpMessage head)
{
    // Via: this appliance appends itself after any earlier proxies.
    std::string via;
    for (const std::string& v : head.GetHeaders("Via"))
    {
        via += (via.empty() ? "" : ", ") + v;
    }
    via += (via.empty() ? "" : ", ") + std::string("1.1 ") + m_name;
    head.SetHeader("Via", via);
    // Connection is hop-by-hop: the backend's "close" answered our request, not the front's.
    head.RemoveHeader("Keep-Alive");
    if (!f.keepAlive)
    {
        head.SetHeader("Connection", "close");
    }
    else if (f.http10)
    {
        head.SetHeader("Connection", "keep-alive");
    }
    else
    {
        head.RemoveHeader("Connection");
    }
    Ptr<Packet> p = TextPacket(head.ToWireString());
    b.relayed += p->GetSize();
    f.out.Push(p);
}

void
CrdLowerTierAppliance::FinishBackend(uint64_t bid)
{
    Backend& b = m_backends.at(bid);
    auto fit = m_fronts.find(b.front);
    if (fit != m_fronts.end())
    {
        Front& f = fit->second;
        f.backend = 0;
        if (!f.keepAlive)
        {
            f.closeWhenFlushed = true;
        }
    }
    b.front = 0;
    ++m_relayedCount;
    NS_LOG_INFO(m_name << " backend " << bid << " " << b.target << " response relayed");
    if (b.peerClosed)
    {
        CloseBackend(bid);
    }
    else
    {
        ArmTimer(bid); // wait for its FIN (it holds TIME_WAIT, not us), but not for ever
    }
}

void
CrdLowerTierAppliance::FailBackend(uint64_t bid, const std::string& reason)
{
    Backend& b = m_backends.at(bid);
    ++m_failures;
    NS_LOG_INFO(m_name << " backend " << bid << " " << b.target << " failed: " << reason);
    m_backendFailureTrace(b.target, reason);
    auto fit = m_fronts.find(b.front);
    if (fit != m_fronts.end())
    {
        Front& f = fit->second;
        f.backend = 0;
        if (b.relayed == 0)
        {
            AnswerLocally(f, 502, "Bad Gateway", !f.keepAlive);
        }
        else
        {
            f.abort = true; // part of the response is out: only closing tells the client
        }
    }
    b.front = 0;
    CloseBackend(bid);
}

void
CrdLowerTierAppliance::CloseBackend(uint64_t bid)
{
    auto it = m_backends.find(bid);
    if (it == m_backends.end())
    {
        return;
    }
    Backend& b = it->second;
    b.timer.Cancel();
    auto fit = m_fronts.find(b.front);
    if (fit != m_fronts.end() && fit->second.backend == bid)
    {
        fit->second.backend = 0;
    }
    if (b.cache >= 0 && m_lb)
    {
        m_lb->ConnectionClosed(static_cast<uint32_t>(b.cache));
    }
    if (b.port && m_ports)
    {
        m_ports->Release(*b.port);
    }
    Ptr<Socket> s = b.socket;
    m_backOf.erase(s);
    m_backends.erase(it);
    DetachAndClose(s);
}

void
CrdLowerTierAppliance::ArmTimer(uint64_t bid)
{
    Backend& b = m_backends.at(bid);
    b.timer.Cancel();
    b.timer =
        Simulator::Schedule(m_backendTimeout, &CrdLowerTierAppliance::BackendTimer, this, bid);
}

void
CrdLowerTierAppliance::BackendTimer(uint64_t bid)
{
    auto it = m_backends.find(bid);
    if (it == m_backends.end())
    {
        return;
    }
    Backend& b = it->second;
    if (b.done)
    {
        CloseBackend(bid); // its FIN never came
        return;
    }
    const uint64_t fid = b.front;
    auto fit = m_fronts.find(fid);
    if (fit != m_fronts.end() && fit->second.out.GetBytes() >= kRelayWindow)
    {
        ArmTimer(bid); // waiting for the client, not for the backend
        return;
    }
    FailBackend(bid, "timeout");
    Service(fid);
}

} // namespace ns3
