/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc cache redirection (CRD): an HTTP cache server (the seed's CRS1..CRS3).
 */

#include "crd-cache-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CrdCacheServer");

NS_OBJECT_ENSURE_REGISTERED(CrdCacheServer);

namespace
{

/// Default capacity: 1 GiB.
constexpr uint64_t kDefaultCapacity = 1073741824ULL;

/// \return true when \p name (case-insensitive) is one of \p names
bool
IsOneOf(const std::string& name, std::initializer_list<const char*> names)
{
    for (const char* n : names)
    {
        const std::string b(n);
        if (name.size() == b.size() &&
            std::equal(name.begin(), name.end(), b.begin(), [](unsigned char x, unsigned char y) {
                return std::tolower(x) == std::tolower(y);
            }))
        {
            return true;
        }
    }
    return false;
}

/// \return true for the hop-by-hop fields a proxy must not forward (RFC 9110 section 7.6.1)
/// and for Content-Length, which the proxy sets from the body it sends
bool
IsHopByHopOrFraming(const std::string& name)
{
    return IsOneOf(name,
                   {"Connection",
                    "Keep-Alive",
                    "Proxy-Connection",
                    "TE",
                    "Trailer",
                    "Transfer-Encoding",
                    "Upgrade",
                    "Content-Length"});
}

/// Copy the end-to-end fields of \p from into \p to, except those named in \p skip.
void
CopyEndToEnd(const AdcHttpMessage& from,
             AdcHttpMessage& to,
             std::initializer_list<const char*> skip)
{
    for (const auto& h : from.GetHeaderList())
    {
        if (!IsHopByHopOrFraming(h.first) && !IsOneOf(h.first, skip))
        {
            to.AddHeader(h.first, h.second);
        }
    }
}

} // namespace

TypeId
CrdCacheServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CrdCacheServer")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<CrdCacheServer>()
            .AddAttribute("Name",
                          "The cache's name in Via headers (\"Via: 1.1 <Name>\"): a token "
                          "without spaces or commas.",
                          StringValue("CRS1"),
                          MakeStringAccessor(&CrdCacheServer::m_name),
                          MakeStringChecker())
            .AddAttribute("Port",
                          "TCP port to listen on (IPv4 and IPv6 any-address).",
                          UintegerValue(80),
                          MakeUintegerAccessor(&CrdCacheServer::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("ClientIpHeader",
                          "Request header the lower-tier appliance inserts carrying the client "
                          "IP; logged (AccessLog, Hit, Miss) and forwarded to the origin. "
                          "Empty: none.",
                          StringValue("X-Forwarded-For"),
                          MakeStringAccessor(&CrdCacheServer::m_clientIpHeader),
                          MakeStringChecker())
            .AddAttribute("OriginAddress",
                          "IPv4 address of the origin server misses are fetched from (must be "
                          "set; 0.0.0.0 is refused at start).",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&CrdCacheServer::m_originAddress),
                          MakeIpv4AddressChecker())
            .AddAttribute("OriginPort",
                          "TCP port of the origin server.",
                          UintegerValue(80),
                          MakeUintegerAccessor(&CrdCacheServer::m_originPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute(
                "Capacity",
                "Bytes the object store holds (> 0), forwarded to its CrdCacheStore.",
                UintegerValue(kDefaultCapacity),
                MakeUintegerAccessor(&CrdCacheServer::SetCapacity, &CrdCacheServer::GetCapacity),
                MakeUintegerChecker<uint64_t>())
            .AddAttribute("Policy",
                          "Replacement policy of the object store: LRU, FIFO or LFU.",
                          EnumValue(CrdCacheStore::LRU),
                          MakeEnumAccessor(&CrdCacheServer::SetPolicy, &CrdCacheServer::GetPolicy),
                          MakeEnumChecker(CrdCacheStore::LRU,
                                          "LRU",
                                          CrdCacheStore::FIFO,
                                          "FIFO",
                                          CrdCacheStore::LFU,
                                          "LFU"))
            .AddAttribute("OriginTimeout",
                          "Deadline of a fetch from the origin, from its start to the complete "
                          "response; past it the request gets 502 (\"origin-timeout\").",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&CrdCacheServer::m_originTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("HonourVary",
                          "true: a response with a Vary field is not stored (the store keys by "
                          "URL only, so it cannot tell the variants apart); false: it is stored "
                          "and served to every client.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CrdCacheServer::m_honourVary),
                          MakeBooleanChecker())
            .AddTraceSource("AccessLog",
                            "Audit log: TCP peer (the appliance's MIP), client IP header value, "
                            "URL, time.",
                            MakeTraceSourceAccessor(&CrdCacheServer::m_accessLogTrace),
                            "ns3::CrdCacheServer::AccessLogTracedCallback")
            .AddTraceSource("Hit",
                            "A GET/HEAD request was answered from the store: URL, client IP.",
                            MakeTraceSourceAccessor(&CrdCacheServer::m_hitTrace),
                            "ns3::CrdCacheServer::LookupTracedCallback")
            .AddTraceSource("Miss",
                            "A GET/HEAD request was not in the store: URL, client IP.",
                            MakeTraceSourceAccessor(&CrdCacheServer::m_missTrace),
                            "ns3::CrdCacheServer::LookupTracedCallback")
            .AddTraceSource("OriginFetch",
                            "A fetch from the origin ended: URL, status (0: no response), "
                            "body bytes.",
                            MakeTraceSourceAccessor(&CrdCacheServer::m_fetchTrace),
                            "ns3::CrdCacheServer::OriginFetchTracedCallback")
            .AddTraceSource("Drop",
                            "A malformed request (400) or an origin failure (502), with the "
                            "reason.",
                            MakeTraceSourceAccessor(&CrdCacheServer::m_dropTrace),
                            "ns3::CrdCacheServer::DropTracedCallback");
    return tid;
}

CrdCacheServer::CrdCacheServer()
    : m_name("CRS1"),
      m_port(80),
      m_clientIpHeader("X-Forwarded-For"),
      m_originAddress(Ipv4Address::GetAny()),
      m_originPort(80),
      m_originTimeout(Seconds(5)),
      m_honourVary(false),
      m_nextFetchId(1),
      m_disposing(false),
      m_hits(0),
      m_misses(0),
      m_originFetches(0)
{
    NS_LOG_FUNCTION(this);
    m_store = CreateObject<CrdCacheStore>();
}

CrdCacheServer::~CrdCacheServer()
{
    NS_LOG_FUNCTION(this);
}

void
CrdCacheServer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // During Simulator::Destroy the node's IP stack may already be gone: send nothing.
    m_disposing = true;
    StopApplication();
    m_engine.Dispose();
    if (m_store)
    {
        m_store->Dispose();
        m_store = nullptr;
    }
    Application::DoDispose();
}

// ---- attributes and counters ---------------------------------------------------------------

void
CrdCacheServer::SetCapacity(uint64_t capacity)
{
    m_store->SetCapacity(capacity); // throws AdcConfigError on 0
}

uint64_t
CrdCacheServer::GetCapacity() const
{
    return m_store->GetCapacity();
}

void
CrdCacheServer::SetPolicy(CrdCacheStore::Policy policy)
{
    m_store->SetPolicy(policy);
}

CrdCacheStore::Policy
CrdCacheServer::GetPolicy() const
{
    return m_store->GetPolicy();
}

Ptr<CrdCacheStore>
CrdCacheServer::GetStore() const
{
    return m_store;
}

uint64_t
CrdCacheServer::GetHits() const
{
    return m_hits;
}

uint64_t
CrdCacheServer::GetMisses() const
{
    return m_misses;
}

uint64_t
CrdCacheServer::GetRequestsServed() const
{
    return m_engine.GetResponsesSent();
}

uint64_t
CrdCacheServer::GetOriginFetches() const
{
    return m_originFetches;
}

uint32_t
CrdCacheServer::GetPendingFetches() const
{
    return static_cast<uint32_t>(m_fetches.size());
}

uint32_t
CrdCacheServer::GetOpenConnections() const
{
    return m_engine.GetOpenConnections();
}

// ---- start and stop ------------------------------------------------------------------------

void
CrdCacheServer::StartApplication()
{
    NS_LOG_FUNCTION(this);
    const bool badName = m_name.empty() || std::any_of(m_name.begin(), m_name.end(), [](char c) {
                             return static_cast<uint8_t>(c) <= 0x20 || c == 0x7f || c == ',';
                         });
    if (badName)
    {
        throw AdcConfigError("CrdCacheServer: Name '" + m_name +
                             "' is not allowed; use a non-empty name without spaces, commas or "
                             "control characters (it goes into Via headers)");
    }
    if (m_originAddress == Ipv4Address::GetAny())
    {
        throw AdcConfigError("CrdCacheServer: OriginAddress 0.0.0.0 is not set; set it to the "
                             "origin server's IPv4 address");
    }
    m_engine.SetRequestCallback(MakeCallback(&CrdCacheServer::HandleRequest, this));
    m_engine.SetRejectCallback(MakeCallback(&CrdCacheServer::HandleDrop, this));
    m_engine.Start(GetNode(), m_port, "CrdCacheServer", m_name);
}

void
CrdCacheServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_engine.Stop(m_disposing);
    std::vector<uint64_t> ids;
    for (const auto& kv : m_fetches) // std::map: ascending id, deterministic
    {
        ids.push_back(kv.first);
    }
    for (uint64_t id : ids)
    {
        EndFetch(id); // abandoned: their client connections are gone
    }
}

// ---- requests ------------------------------------------------------------------------------

void
CrdCacheServer::HandleRequest(uint64_t conn,
                              uint64_t seq,
                              const AdcHttpMessage& request,
                              const Address& peer)
{
    const std::string& url = request.GetTarget();
    std::string headerIp;
    if (!m_clientIpHeader.empty())
    {
        headerIp = request.GetHeader(m_clientIpHeader).value_or("");
    }
    NS_LOG_INFO("cache " << m_name << " " << request.GetMethod() << " " << url << " for "
                         << headerIp << " via " << AdcHttpAddressToIp(peer));
    m_accessLogTrace(AdcHttpAddressToIp(peer).ToString(), headerIp, url, Simulator::Now());
    const bool cacheable = request.GetMethod() == "GET" || request.GetMethod() == "HEAD";
    if (!cacheable)
    {
        StartFetch(conn, seq, request, false);
        return;
    }
    const std::string key = MakeKey(request.GetHeader("Host").value_or(""), url);
    if (m_store->Lookup(key))
    {
        ++m_hits;
        m_hitTrace(url, headerIp);
        AnswerHit(conn, seq, key);
        return;
    }
    ++m_misses;
    m_missTrace(url, headerIp);
    StartFetch(conn, seq, request, true);
}

std::string
CrdCacheServer::ViaWith(const std::string& originVia) const
{
    return (originVia.empty() ? "" : originVia + ", ") + "1.1 " + m_name;
}

std::string
CrdCacheServer::MakeKey(const std::string& host, const std::string& url)
{
    std::string h = AdcText::ToLower(AdcText::Trim(host));
    if (!h.empty() && h.front() != '[') // a port after the name (an IPv6 literal keeps its ':')
    {
        h = h.substr(0, h.find(':'));
    }
    return h + url;
}

void
CrdCacheServer::AddOrigin(const std::string& host, Ipv4Address address)
{
    if (host.empty() || host.find_first_of(" \t/:") != std::string::npos)
    {
        throw AdcConfigError("CrdCacheServer " + m_name + ": origin host '" + host +
                             "' must be a non-empty host name without spaces, '/' or ':'");
    }
    m_origins[AdcText::ToLower(host)] = address;
}

void
CrdCacheServer::AnswerHit(uint64_t conn, uint64_t seq, const std::string& key)
{
    const uint64_t size = m_store->GetObjectSize(key);
    AdcHttpMessage head = AdcHttpMessage::MakeResponse(200, "OK");
    head.SetHeader("Via", ViaWith(""));
    head.SetHeader("X-Cache", "HIT");
    head.SetContentLength(size);
    m_engine.Respond(conn, seq, head, size);
}

void
CrdCacheServer::HandleDrop(const std::string& reason)
{
    NS_LOG_INFO("cache " << m_name << " drop: " << reason);
    m_dropTrace(reason);
}

// ---- origin fetches ------------------------------------------------------------------------

AdcHttpMessage
CrdCacheServer::OriginRequest(const AdcHttpMessage& request) const
{
    // A HEAD miss fetches the whole object, so that it can be stored.
    const std::string method = request.GetMethod() == "HEAD" ? "GET" : request.GetMethod();
    AdcHttpMessage out = AdcHttpMessage::MakeRequest(method, request.GetTarget());
    CopyEndToEnd(request, out, {"Via"}); // the client-IP header goes through unchanged
    out.SetHeader("Via", ViaWith(AdcHttpJoinedField(request, "Via")));
    out.SetHeader("Connection", "close");
    return out;
}

void
CrdCacheServer::StartFetch(uint64_t conn, uint64_t seq, const AdcHttpMessage& request, bool store)
{
    const uint64_t id = m_nextFetchId++;
    ++m_originFetches;
    Fetch& f = m_fetches[id];
    f.conn = conn;
    f.seq = seq;
    f.url = request.GetTarget();
    f.key = MakeKey(request.GetHeader("Host").value_or(""), f.url);
    const std::string host = f.key.substr(0, f.key.size() - f.url.size());
    const auto origin = m_origins.find(host);
    f.origin = origin == m_origins.end() ? m_originAddress : origin->second;
    f.store = store;
    f.request = OriginRequest(request).ToWireString();
    f.timeout = Simulator::Schedule(m_originTimeout, &CrdCacheServer::OriginTimeout, this, id);
    f.socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    m_fetchOf[f.socket] = id;
    NS_LOG_INFO("cache " << m_name << " fetches " << f.url << " from " << f.origin << ":"
                         << m_originPort);
    if (f.socket->Bind() == -1 ||
        f.socket->Connect(InetSocketAddress(f.origin, m_originPort)) == -1)
    {
        FailFetch(id, "origin-connect-failed");
        return;
    }
    f.socket->SetConnectCallback(MakeCallback(&CrdCacheServer::HandleOriginConnected, this),
                                 MakeCallback(&CrdCacheServer::HandleOriginConnectFailed, this));
    f.socket->SetRecvCallback(MakeCallback(&CrdCacheServer::HandleOriginRead, this));
    f.socket->SetCloseCallbacks(MakeCallback(&CrdCacheServer::HandleOriginClose, this),
                                MakeCallback(&CrdCacheServer::HandleOriginError, this));
}

uint64_t
CrdCacheServer::FetchOf(Ptr<Socket> s) const
{
    auto it = m_fetchOf.find(s);
    return it == m_fetchOf.end() ? 0 : it->second;
}

void
CrdCacheServer::HandleOriginConnected(Ptr<Socket> s)
{
    const uint64_t id = FetchOf(s);
    auto it = m_fetches.find(id);
    if (it == m_fetches.end())
    {
        return;
    }
    const std::string& req = it->second.request;
    if (s->Send(reinterpret_cast<const uint8_t*>(req.data()),
                static_cast<uint32_t>(req.size()),
                0) < 0)
    {
        FailFetch(id, "origin-send-failed");
    }
}

void
CrdCacheServer::HandleOriginConnectFailed(Ptr<Socket> s)
{
    FailFetch(FetchOf(s), "origin-connect-failed");
}

void
CrdCacheServer::HandleOriginClose(Ptr<Socket> s)
{
    FailFetch(FetchOf(s), "origin-connection-closed");
}

void
CrdCacheServer::HandleOriginError(Ptr<Socket> s)
{
    FailFetch(FetchOf(s), "origin-connection-reset");
}

void
CrdCacheServer::OriginTimeout(uint64_t id)
{
    FailFetch(id, "origin-timeout");
}

void
CrdCacheServer::HandleOriginRead(Ptr<Socket> s)
{
    const uint64_t id = FetchOf(s);
    auto it = m_fetches.find(id);
    if (it == m_fetches.end())
    {
        return;
    }
    // Drain everything first: closing a socket with unread bytes would send a RST.
    Ptr<Packet> p;
    while ((p = s->Recv()) && p->GetSize() > 0)
    {
        it->second.parser.Feed(p);
    }
    AdcHttpStreamParser& parser = it->second.parser;
    AdcHttpMessage head;
    uint64_t body = 0;
    if (parser.HasError())
    {
        FailFetch(id, "origin-parse-error: " + parser.GetError());
    }
    else if (parser.Next(&head, &body))
    {
        if (head.GetKind() != AdcHttpMessage::RESPONSE)
        {
            FailFetch(id, "origin-parse-error: a request instead of a response");
            return;
        }
        CompleteFetch(id, head, body);
    }
}

CrdCacheServer::Fetch
CrdCacheServer::EndFetch(uint64_t id)
{
    auto it = m_fetches.find(id);
    NS_ASSERT(it != m_fetches.end());
    Fetch f = std::move(it->second);
    m_fetches.erase(it);
    f.timeout.Cancel();
    m_fetchOf.erase(f.socket);
    // Detach first: Close() can notify synchronously (e.g. while still connecting).
    f.socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                 MakeNullCallback<void, Ptr<Socket>>());
    f.socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    f.socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                MakeNullCallback<void, Ptr<Socket>>());
    if (!m_disposing)
    {
        f.socket->Close();
    }
    f.socket = nullptr;
    return f;
}

AdcHttpMessage
CrdCacheServer::RelayedResponse(const AdcHttpMessage& head, uint64_t bodyBytes) const
{
    AdcHttpMessage out = AdcHttpMessage::MakeResponse(200, "OK");
    CopyEndToEnd(head, out, {"Via", "X-Cache"});
    out.SetHeader("Via", ViaWith(AdcHttpJoinedField(head, "Via")));
    out.SetHeader("X-Cache", "MISS");
    out.SetContentLength(bodyBytes);
    return out;
}

void
CrdCacheServer::CompleteFetch(uint64_t id, const AdcHttpMessage& head, uint64_t bodyBytes)
{
    const Fetch f = EndFetch(id);
    const uint16_t status = head.GetStatus();
    NS_LOG_INFO("cache " << m_name << " fetched " << f.url << ": " << status << ", " << bodyBytes
                         << " bytes");
    m_fetchTrace(f.url, status, bodyBytes);
    if (status != 200)
    {
        BadGateway(f.conn, f.seq, "origin-status-" + std::to_string(status));
        return;
    }
    if (f.store && !(m_honourVary && head.GetHeader("Vary").has_value()))
    {
        m_store->Insert(f.key, bodyBytes); // too large: the store's "Reject" trace says so
    }
    m_engine.Respond(f.conn, f.seq, RelayedResponse(head, bodyBytes), bodyBytes);
}

void
CrdCacheServer::FailFetch(uint64_t id, const std::string& reason)
{
    if (m_fetches.find(id) == m_fetches.end())
    {
        return;
    }
    const Fetch f = EndFetch(id);
    m_fetchTrace(f.url, 0, 0);
    BadGateway(f.conn, f.seq, reason);
}

void
CrdCacheServer::BadGateway(uint64_t conn, uint64_t seq, const std::string& reason)
{
    HandleDrop(reason);
    AdcHttpMessage bad = AdcHttpMessage::MakeResponse(502, "Bad Gateway");
    bad.SetHeader("Via", ViaWith(""));
    bad.SetHeader("X-Cache", "MISS");
    bad.SetContentLength(0);
    m_engine.Respond(conn, seq, bad, 0);
}

} // namespace ns3
