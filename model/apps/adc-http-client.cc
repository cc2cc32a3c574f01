/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an HTTP/1.1 client application issuing Zipf-distributed object requests.
 */

#include "adc-http-client.h"

#include "adc-http-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/address.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpClient");

NS_OBJECT_ENSURE_REGISTERED(AdcHttpClient);

namespace
{

/// \return true when \p s has a control character (not allowed in a header value)
bool
HasControlChar(const std::string& s)
{
    return std::any_of(s.begin(), s.end(), [](char c) {
        return static_cast<uint8_t>(c) < 0x20 || c == 0x7f;
    });
}

/// \return true when \p s is a valid header name (checked by parsing "<s>: x")
bool
IsHeaderName(const std::string& s)
{
    const std::string probe = "GET / HTTP/1.1\r\n" + s + ": x\r\n\r\n";
    AdcHttpMessage m;
    return !s.empty() && s.find_first_of(":\r\n") == std::string::npos &&
           m.Parse(reinterpret_cast<const uint8_t*>(probe.data()),
                   probe.size(),
                   nullptr,
                   nullptr) == AdcHttpMessage::ParseStatus::COMPLETE;
}

} // namespace

TypeId
AdcHttpClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcHttpClient")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcHttpClient>()
            .AddAttribute("Remote",
                          "Server or VIP: an InetSocketAddress or Inet6SocketAddress (unless a "
                          "server chooser is set).",
                          AddressValue(),
                          MakeAddressAccessor(&AdcHttpClient::m_remote),
                          MakeAddressChecker())
            .AddAttribute("InterRequestTime",
                          "Seconds between generated requests.",
                          StringValue("ns3::ExponentialRandomVariable[Mean=1.0]"),
                          MakePointerAccessor(&AdcHttpClient::m_interRequest),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("MaxRequests",
                          "Requests to generate; 0 = unlimited.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdcHttpClient::m_maxRequests),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RequestStopTime",
                          "Simulation time after which no new request is issued (0 = never); "
                          "requests in flight still finish, so an application stopped later "
                          "ends with every request completed or failed for a real reason, and "
                          "none open at the stop.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&AdcHttpClient::m_requestStopTime),
                          MakeTimeChecker())
            .AddAttribute("CatalogueSize",
                          "Number of objects /obj/1 .. /obj/N (N >= 1).",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&AdcHttpClient::GetCatalogueSize,
                                               &AdcHttpClient::SetCatalogueSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ZipfExponent",
                          "Zipf exponent s >= 0: object k is requested with probability "
                          "proportional to 1/k^s (0 = uniform).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&AdcHttpClient::GetZipfExponent,
                                             &AdcHttpClient::SetZipfExponent),
                          MakeDoubleChecker<double>())
            .AddAttribute("CacheableFraction",
                          "Share of cacheable URLs in [0, 1]; the others get a query string "
                          "\"?nocache=<request id>\".",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&AdcHttpClient::GetCacheableFraction,
                                             &AdcHttpClient::SetCacheableFraction),
                          MakeDoubleChecker<double>())
            .AddAttribute("Persistent",
                          "true: keep connections open and reuse them for later requests; "
                          "false: one connection per request, with Connection: close.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcHttpClient::m_persistent),
                          MakeBooleanChecker())
            .AddAttribute("MaxConnections",
                          "Parallel connections (>= 1); further requests wait in a FIFO queue.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&AdcHttpClient::GetMaxConnections,
                                               &AdcHttpClient::SetMaxConnections),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RequestTimeout",
                          "A request without a full response this long after it was issued "
                          "fails with reason \"timeout\" (> 0).",
                          TimeValue(Seconds(10)),
                          MakeTimeAccessor(&AdcHttpClient::GetRequestTimeout,
                                           &AdcHttpClient::SetRequestTimeout),
                          MakeTimeChecker())
            .AddAttribute("Host",
                          "Host request header.",
                          StringValue("www.example.com"),
                          MakeStringAccessor(&AdcHttpClient::GetHost, &AdcHttpClient::SetHost),
                          MakeStringChecker())
            .AddTraceSource("RequestSent",
                            "A request was issued (record with start time).",
                            MakeTraceSourceAccessor(&AdcHttpClient::m_sentTrace),
                            "ns3::AdcHttpClient::RequestTracedCallback")
            .AddTraceSource("RequestDone",
                            "A request ended: COMPLETED, FAILED with a reason, or OPEN_AT_STOP.",
                            MakeTraceSourceAccessor(&AdcHttpClient::m_doneTrace),
                            "ns3::AdcHttpClient::RequestTracedCallback")
            .AddTraceSource("Response",
                            "The final response to a request was read: request id, and the "
                            "message (head, framing, payload and wire bytes, trailers).",
                            MakeTraceSourceAccessor(&AdcHttpClient::m_responseTrace),
                            "ns3::AdcHttpClient::ResponseTracedCallback")
            .AddTraceSource("Rx",
                            "Bytes received from a server.",
                            MakeTraceSourceAccessor(&AdcHttpClient::m_rxTrace),
                            "ns3::Packet::AddressTracedCallback");
    return tid;
}

AdcHttpClient::AdcHttpClient()
    : m_maxRequests(0),
      m_catalogueSize(1000),
      m_zipfExponent(0.8),
      m_cacheableFraction(1.0),
      m_persistent(true),
      m_maxConnections(4),
      m_requestTimeout(Seconds(10)),
      m_host("www.example.com"),
      m_cdfDirty(true),
      m_running(false),
      m_generated(0),
      m_lastId(0),
      m_nextConnId(1),
      m_dispatching(false),
      m_dispatchAgain(false),
      m_disposing(false),
      m_bytesRx(0),
      m_connsOpened(0)
{
    NS_LOG_FUNCTION(this);
    m_uniform = CreateObject<UniformRandomVariable>();
}

AdcHttpClient::~AdcHttpClient()
{
    NS_LOG_FUNCTION(this);
}

void
AdcHttpClient::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // Whoever listens to the traces may be gone by now, and so may the node's IP stack: end
    // what is open without firing traces or sending anything.
    m_disposing = true;
    StopApplication();
    m_interRequest = nullptr;
    m_uniform = nullptr;
    m_chooser = Callback<Address, const std::string&, uint64_t>();
    Application::DoDispose();
}

// ---- attributes ----------------------------------------------------------------------------

void
AdcHttpClient::SetCatalogueSize(uint32_t n)
{
    if (n == 0)
    {
        throw AdcConfigError("AdcHttpClient: CatalogueSize 0 is not allowed; use 1 or more");
    }
    m_catalogueSize = n;
    m_cdfDirty = true;
}

uint32_t
AdcHttpClient::GetCatalogueSize() const
{
    return m_catalogueSize;
}

void
AdcHttpClient::SetZipfExponent(double s)
{
    if (!(s >= 0.0) || std::isinf(s))
    {
        throw AdcConfigError("AdcHttpClient: ZipfExponent " + std::to_string(s) +
                             " is not allowed; use a finite value >= 0");
    }
    m_zipfExponent = s;
    m_cdfDirty = true;
}

double
AdcHttpClient::GetZipfExponent() const
{
    return m_zipfExponent;
}

void
AdcHttpClient::SetCacheableFraction(double f)
{
    if (!(f >= 0.0 && f <= 1.0))
    {
        throw AdcConfigError("AdcHttpClient: CacheableFraction " + std::to_string(f) +
                             " is not allowed; use a value in [0, 1]");
    }
    m_cacheableFraction = f;
}

double
AdcHttpClient::GetCacheableFraction() const
{
    return m_cacheableFraction;
}

void
AdcHttpClient::SetMaxConnections(uint32_t n)
{
    if (n == 0)
    {
        throw AdcConfigError("AdcHttpClient: MaxConnections 0 is not allowed; use 1 or more");
    }
    m_maxConnections = n;
}

uint32_t
AdcHttpClient::GetMaxConnections() const
{
    return m_maxConnections;
}

void
AdcHttpClient::SetRequestTimeout(Time t)
{
    if (!t.IsStrictlyPositive())
    {
        throw AdcConfigError("AdcHttpClient: RequestTimeout " + std::to_string(t.GetSeconds()) +
                             "s is not allowed; use a time > 0");
    }
    m_requestTimeout = t;
}

Time
AdcHttpClient::GetRequestTimeout() const
{
    return m_requestTimeout;
}

void
AdcHttpClient::SetHost(std::string host)
{
    if (host.empty() || HasControlChar(host))
    {
        throw AdcConfigError("AdcHttpClient: Host '" + host +
                             "' is not allowed; use a non-empty name without control characters");
    }
    m_host = host;
}

std::string
AdcHttpClient::GetHost() const
{
    return m_host;
}

void
AdcHttpClient::SetServerChooser(Callback<Address, const std::string&, uint64_t> chooser)
{
    m_chooser = chooser;
}

void
AdcHttpClient::AddRequestHeader(const std::string& name, const std::string& value)
{
    if (!IsHeaderName(name))
    {
        throw AdcConfigError("AdcHttpClient: request header name '" + name +
                             "' is not an HTTP token; use letters, digits and !#$%&'*+-.^_`|~");
    }
    if (HasControlChar(value))
    {
        throw AdcConfigError("AdcHttpClient: request header '" + name +
                             "' value has a control character; use printable text");
    }
    m_extraHdrs.emplace_back(name, value);
}

int64_t
AdcHttpClient::AssignStreams(int64_t stream)
{
    m_interRequest->SetStream(stream);
    m_uniform->SetStream(stream + 1);
    return 2;
}

uint64_t
AdcHttpClient::GetRequestsSent() const
{
    return m_tally.sent;
}

uint64_t
AdcHttpClient::GetRequestsCompleted() const
{
    return m_tally.completed;
}

uint64_t
AdcHttpClient::GetRequestsFailed() const
{
    return m_tally.failed;
}

uint64_t
AdcHttpClient::GetRequestsOpenAtStop() const
{
    return m_tally.openAtStop;
}

const std::map<std::string, uint64_t>&
AdcHttpClient::GetFailureReasons() const
{
    return m_tally.failureReasons;
}

const AdcRequestTally&
AdcHttpClient::GetTally() const
{
    return m_tally;
}

uint64_t
AdcHttpClient::GetBytesReceived() const
{
    return m_bytesRx;
}

uint64_t
AdcHttpClient::GetConnectionsOpened() const
{
    return m_connsOpened;
}

uint32_t
AdcHttpClient::GetOpenRequests() const
{
    return static_cast<uint32_t>(m_open.size());
}

// ---- workload ------------------------------------------------------------------------------

void
AdcHttpClient::BuildCdf()
{
    m_cdf.assign(m_catalogueSize, 0.0);
    double sum = 0.0;
    for (uint32_t k = 1; k <= m_catalogueSize; ++k)
    {
        sum += std::pow(static_cast<double>(k), -m_zipfExponent);
        m_cdf[k - 1] = sum;
    }
    for (auto& c : m_cdf)
    {
        c /= sum;
    }
    m_cdf.back() = 1.0; // no rank is lost to rounding
    m_cdfDirty = false;
}

uint32_t
AdcHttpClient::DrawRank()
{
    if (m_cdfDirty)
    {
        BuildCdf();
    }
    const double u = m_uniform->GetValue(0.0, 1.0);
    auto it = std::upper_bound(m_cdf.begin(), m_cdf.end(), u);
    const auto idx = std::min<std::size_t>(it - m_cdf.begin(), m_cdf.size() - 1);
    return static_cast<uint32_t>(idx + 1);
}

std::string
AdcHttpClient::NextUrl(uint64_t id)
{
    const uint32_t rank = DrawRank();
    const bool cacheable = m_uniform->GetValue(0.0, 1.0) < m_cacheableFraction;
    std::string url = "/obj/" + std::to_string(rank);
    if (!cacheable)
    {
        url += "?nocache=" + std::to_string(id);
    }
    return url;
}

AdcHttpMessage
AdcHttpClient::BuildRequest(const std::string& url) const
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest("GET", url);
    m.SetHeader("Host", m_host);
    for (const auto& h : m_extraHdrs)
    {
        m.AddHeader(h.first, h.second);
    }
    if (!m_persistent)
    {
        m.SetHeader("Connection", "close");
    }
    return m;
}

void
AdcHttpClient::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_chooser.IsNull() && !InetSocketAddress::IsMatchingType(m_remote) &&
        !Inet6SocketAddress::IsMatchingType(m_remote))
    {
        throw AdcConfigError("AdcHttpClient: Remote is not set or not an InetSocketAddress / "
                             "Inet6SocketAddress; set Remote to the server or VIP address");
    }
    m_running = true;
    ScheduleNext();
}

void
AdcHttpClient::ScheduleNext()
{
    if (m_running && (m_maxRequests == 0 || m_generated < m_maxRequests))
    {
        const double gap = std::max(0.0, m_interRequest->GetValue());
        if (m_requestStopTime.IsStrictlyPositive() &&
            Simulator::Now() + Seconds(gap) > m_requestStopTime)
        {
            return;
        }
        m_issueEvent = Simulator::Schedule(Seconds(gap), &AdcHttpClient::IssueNext, this);
    }
}

void
AdcHttpClient::IssueNext()
{
    ++m_generated;
    IssueRequest(NextUrl(m_lastId + 1));
    ScheduleNext();
}

uint64_t
AdcHttpClient::IssueRequest(const std::string& url)
{
    if (!m_running)
    {
        return 0;
    }
    const uint64_t rid = ++m_lastId;
    Open& o = m_open[rid];
    o.rec.clientId = GetNode()->GetId();
    o.rec.clientIp = DefaultLocalIp();
    o.rec.requestId = rid;
    o.rec.url = url;
    o.rec.start = Simulator::Now();
    o.rec.requestBytes = BuildRequest(url).GetSerializedSize();
    o.timeout = Simulator::Schedule(m_requestTimeout, &AdcHttpClient::Timeout, this, rid);
    m_tally.CountSent();
    NS_LOG_INFO("client " << o.rec.clientId << " issues " << rid << " " << url);
    m_sentTrace(o.rec);
    m_queue.push_back(rid);
    Dispatch();
    return rid;
}

AdcIpAddress
AdcHttpClient::DefaultLocalIp() const
{
    Ptr<Ipv4> ip4 = GetNode()->GetObject<Ipv4>();
    if (!Inet6SocketAddress::IsMatchingType(m_remote) && ip4 && ip4->GetNInterfaces() > 1 &&
        ip4->GetNAddresses(1) > 0)
    {
        return ip4->GetAddress(1, 0).GetLocal();
    }
    Ptr<Ipv6> ip6 = GetNode()->GetObject<Ipv6>();
    if (ip6 && ip6->GetNInterfaces() > 1)
    {
        for (uint32_t a = 0; a < ip6->GetNAddresses(1); ++a)
        {
            Ipv6Address addr = ip6->GetAddress(1, a).GetAddress();
            if (!addr.IsLinkLocal())
            {
                return addr;
            }
        }
    }
    return AdcIpAddress();
}

// ---- connections ---------------------------------------------------------------------------

void
AdcHttpClient::Dispatch()
{
    if (m_dispatching)
    {
        m_dispatchAgain = true; // the running loop picks the change up
        return;
    }
    m_dispatching = true;
    do
    {
        m_dispatchAgain = false;
        while (m_running && !m_queue.empty())
        {
            const uint64_t rid = m_queue.front();
            const uint64_t idle = m_persistent ? FindIdle() : 0;
            if (idle == 0 && m_conns.size() >= m_maxConnections)
            {
                break;
            }
            m_queue.pop_front();
            if (idle != 0)
            {
                SendOn(idle, rid);
            }
            else
            {
                OpenConnection(rid);
            }
        }
    } while (m_dispatchAgain);
    m_dispatching = false;
}

uint64_t
AdcHttpClient::FindIdle() const
{
    for (const auto& kv : m_conns) // std::map: lowest id first, deterministic
    {
        if (kv.second.connected && kv.second.current == 0)
        {
            return kv.first;
        }
    }
    return 0;
}

void
AdcHttpClient::OpenConnection(uint64_t rid)
{
    Open& o = m_open.at(rid);
    const Address remote = m_chooser.IsNull() ? m_remote : m_chooser(o.rec.url, rid);
    const bool v4 = InetSocketAddress::IsMatchingType(remote);
    if (!v4 && !Inet6SocketAddress::IsMatchingType(remote))
    {
        NS_LOG_WARN("client: server chooser returned an unusable address");
        End(rid, "connect-failed");
        return;
    }
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    const int bound = v4 ? s->Bind() : s->Bind6();
    if (bound == -1 || s->Connect(remote) == -1)
    {
        End(rid, "connect-failed");
        s->Close();
        return;
    }
    const uint64_t cid = m_nextConnId++;
    Conn& c = m_conns[cid];
    c.socket = s;
    c.remote = remote;
    c.current = rid;
    m_idOf[s] = cid;
    ++m_connsOpened;
    o.conn = cid;
    o.rec.server = AdcHttpAddressToIp(remote).ToString();
    Address local;
    if (s->GetSockName(local) == 0 && !AdcHttpAddressToIp(local).IsNone())
    {
        o.rec.clientIp = AdcHttpAddressToIp(local);
    }
    s->SetConnectCallback(MakeCallback(&AdcHttpClient::HandleConnected, this),
                          MakeCallback(&AdcHttpClient::HandleConnectFailed, this));
    s->SetRecvCallback(MakeCallback(&AdcHttpClient::HandleRead, this));
    s->SetCloseCallbacks(MakeCallback(&AdcHttpClient::HandlePeerClose, this),
                         MakeCallback(&AdcHttpClient::HandleError, this));
}

void
AdcHttpClient::SendOn(uint64_t cid, uint64_t rid)
{
    Conn& c = m_conns.at(cid);
    Open& o = m_open.at(rid);
    c.current = rid;
    o.conn = cid;
    o.rec.server = AdcHttpAddressToIp(c.remote).ToString();
    Address local;
    if (c.socket->GetSockName(local) == 0 && !AdcHttpAddressToIp(local).IsNone())
    {
        o.rec.clientIp = AdcHttpAddressToIp(local);
    }
    const AdcHttpMessage request = BuildRequest(o.rec.url);
    c.parser.ExpectResponseTo(request.GetMethod()); // HEAD answers have no body, for one
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(request);
    if (c.socket->Send(p) < 0)
    {
        DropConn(cid, "connection-reset");
        Dispatch();
    }
}

uint64_t
AdcHttpClient::IdOf(Ptr<Socket> s) const
{
    auto it = m_idOf.find(s);
    return it == m_idOf.end() ? 0 : it->second;
}

void
AdcHttpClient::HandleConnected(Ptr<Socket> s)
{
    const uint64_t cid = IdOf(s);
    auto it = m_conns.find(cid);
    if (it == m_conns.end())
    {
        return;
    }
    it->second.connected = true;
    if (it->second.current != 0)
    {
        SendOn(cid, it->second.current);
    }
    else
    {
        Dispatch();
    }
}

void
AdcHttpClient::HandleConnectFailed(Ptr<Socket> s)
{
    DropConn(IdOf(s), "connect-failed");
    Dispatch();
}

void
AdcHttpClient::HandlePeerClose(Ptr<Socket> s)
{
    const uint64_t cid = IdOf(s);
    ReadResponses(cid, s);
    auto it = m_conns.find(cid);
    if (it != m_conns.end() && it->second.current != 0)
    {
        // The close ends a close-delimited body (RFC 9112 section 6.3 item 8); any other
        // message still incomplete fails below as before.
        it->second.parser.EndOfStream();
        if (!it->second.parser.HasError())
        {
            TakeResponse(cid);
        }
    }
    DropConn(cid, "connection-closed");
    Dispatch();
}

void
AdcHttpClient::HandleError(Ptr<Socket> s)
{
    DropConn(IdOf(s), "connection-reset");
    Dispatch();
}

void
AdcHttpClient::HandleRead(Ptr<Socket> s)
{
    ReadResponses(IdOf(s), s);
    Dispatch();
}

void
AdcHttpClient::ReadResponses(uint64_t cid, Ptr<Socket> s)
{
    Ptr<Packet> p;
    Address from;
    while (cid != 0 && (p = s->RecvFrom(from)))
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        m_bytesRx += p->GetSize();
        m_rxTrace(p, from);
        auto it = m_conns.find(cid);
        if (it == m_conns.end())
        {
            continue; // already dropped: drain the socket so Close sends no RST
        }
        it->second.parser.Feed(p);
        if (it->second.current == 0)
        {
            DropConn(cid, ""); // bytes nobody asked for: the connection is out of step
            continue;
        }
        TakeResponse(cid);
    }
}

void
AdcHttpClient::TakeResponse(uint64_t cid)
{
    Conn& c = m_conns.at(cid);
    if (c.parser.HasError())
    {
        DropConn(cid, "parse-error");
        return;
    }
    const uint64_t rid = c.current;
    Open& o = m_open.at(rid);
    AdcHttpStreamParser::Message m;
    do
    {
        if (!c.parser.Next(&m))
        {
            return;
        }
        o.rec.responseBytes += m.GetWireBytes(); // interim 1xx responses count as received
    } while (m.head.GetKind() == AdcHttpMessage::RESPONSE && m.head.GetStatus() < 200);
    o.rec.status = m.head.GetStatus();
    o.rec.server = m.head.GetHeader("Server").value_or(o.rec.server);
    o.rec.path = ResponsePath(m.head);
    c.current = 0;
    if (!m_disposing)
    {
        m_responseTrace(rid, m);
    }
    const bool reuse = m_persistent && m.head.IsKeepAlive() && !c.parser.IsMidMessage() &&
                       !c.parser.Next(nullptr, nullptr);
    End(rid, ResponseFailure(m.head));
    if (!reuse)
    {
        DropConn(cid, "");
    }
}

std::string
AdcHttpClient::ResponseFailure(const AdcHttpMessage& head)
{
    if (head.GetKind() != AdcHttpMessage::RESPONSE)
    {
        return "parse-error";
    }
    if (head.GetStatus() >= 400)
    {
        return "http-status-" + std::to_string(head.GetStatus());
    }
    return "";
}

std::string
AdcHttpClient::ResponsePath(const AdcHttpMessage& response)
{
    const std::string via = AdcHttpJoinedField(response, "Via");
    const std::string xcache = AdcHttpJoinedField(response, "X-Cache");
    std::string path = via;
    if (!xcache.empty())
    {
        path += (path.empty() ? "" : "; ") + std::string("X-Cache: ") + xcache;
    }
    return path;
}

void
AdcHttpClient::Timeout(uint64_t rid)
{
    auto it = m_open.find(rid);
    if (it == m_open.end())
    {
        return;
    }
    const uint64_t cid = it->second.conn;
    if (cid == 0)
    {
        auto q = std::find(m_queue.begin(), m_queue.end(), rid);
        if (q != m_queue.end())
        {
            m_queue.erase(q);
        }
        End(rid, "timeout");
        return;
    }
    // the late response must not be taken for the next request's: drop the connection
    DropConn(cid, "timeout");
    Dispatch();
}

void
AdcHttpClient::End(uint64_t rid, const std::string& reason)
{
    EndAs(rid, reason.empty() ? AdcRequestOutcome::COMPLETED : AdcRequestOutcome::FAILED, reason);
}

void
AdcHttpClient::EndAs(uint64_t rid, AdcRequestOutcome outcome, const std::string& reason)
{
    auto it = m_open.find(rid);
    if (it == m_open.end())
    {
        return;
    }
    AdcRequestRecord rec = it->second.rec;
    it->second.timeout.Cancel();
    m_open.erase(it);
    rec.end = Simulator::Now();
    rec.outcome = outcome;
    rec.reason = outcome == AdcRequestOutcome::FAILED ? reason : "";
    m_tally.CountEnd(rec);
    NS_LOG_INFO("client " << rec.clientId << " request " << rid << " "
                          << AdcRequestOutcomeToString(rec.outcome) << " " << rec.reason);
    if (!m_disposing)
    {
        m_doneTrace(rec);
    }
}

void
AdcHttpClient::DropConn(uint64_t cid, const std::string& reason)
{
    auto it = m_conns.find(cid);
    if (it == m_conns.end())
    {
        return;
    }
    const uint64_t rid = it->second.current;
    Ptr<Socket> s = it->second.socket;
    m_idOf.erase(s);
    m_conns.erase(it);
    // Detach first: Close() can notify synchronously (e.g. while still connecting).
    s->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                          MakeNullCallback<void, Ptr<Socket>>());
    s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    s->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                         MakeNullCallback<void, Ptr<Socket>>());
    if (!m_disposing) // during Simulator::Destroy the IP stack may already be gone
    {
        s->Close();
    }
    if (rid != 0)
    {
        End(rid, reason.empty() ? "connection-closed" : reason);
    }
}

void
AdcHttpClient::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (!m_running && m_conns.empty() && m_open.empty())
    {
        return;
    }
    m_running = false;
    m_issueEvent.Cancel();
    m_queue.clear();
    std::vector<uint64_t> cids;
    for (auto& kv : m_conns)
    {
        kv.second.current = 0; // its request ends below, in request-id order
        cids.push_back(kv.first);
    }
    for (uint64_t cid : cids)
    {
        DropConn(cid, "");
    }
    std::vector<uint64_t> rids;
    for (const auto& kv : m_open)
    {
        rids.push_back(kv.first);
    }
    for (uint64_t rid : rids)
    {
        // Not a failure: the run ended before the path answered or failed the request.
        EndAs(rid, AdcRequestOutcome::OPEN_AT_STOP, "");
    }
}

} // namespace ns3
