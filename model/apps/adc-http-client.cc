/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an HTTP/1.1 client application issuing Zipf-distributed object requests.
 */

#include "adc-http-client.h"

#include "adc-http-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-cookie.h"
#include "ns3/adc-text.h"
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

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcHttpClient");

NS_OBJECT_ENSURE_REGISTERED(AdcHttpClient);

namespace
{

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
            .AddAttribute("Method",
                          "Request method of every request (an HTTP token; GET by default). "
                          "The requests carry no body.",
                          StringValue("GET"),
                          MakeStringAccessor(&AdcHttpClient::m_method),
                          MakeStringChecker())
            .AddAttribute("Host",
                          "Host request header.",
                          StringValue("www.example.com"),
                          MakeStringAccessor(&AdcHttpClient::GetHost, &AdcHttpClient::SetHost),
                          MakeStringChecker())
            .AddAttribute("Tls",
                          "Speak TLS 1.2 to the server (HTTPS): a handshake on each new "
                          "connection, then the requests in application_data records.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcHttpClient::m_tls),
                          MakeBooleanChecker())
            .AddAttribute("TlsResume",
                          "With Tls: offer the last established session's ID on new "
                          "connections (session resumption, as browsers do).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcHttpClient::m_tlsResume),
                          MakeBooleanChecker())
            .AddAttribute("CookiePolicy",
                          "What the client does with cookies (CS-08): NONE ignores Set-Cookie "
                          "and sends no Cookie; KEEP keeps cookies like a browser and returns "
                          "the unexpired ones; OTHER is KEEP without NSC_ cookies, always "
                          "returning OtherCookie.",
                          StringValue("NONE"),
                          MakeStringAccessor(&AdcHttpClient::SetCookiePolicyName,
                                             &AdcHttpClient::GetCookiePolicyName),
                          MakeStringChecker())
            .AddAttribute(
                "OtherCookie",
                "With CookiePolicy OTHER: the cookie always sent, \"name=value\" "
                "(an RFC 6265 cookie-name and cookie-value); \"\" for none.",
                StringValue("lang=en"),
                MakeStringAccessor(&AdcHttpClient::GetOtherCookie, &AdcHttpClient::SetOtherCookie),
                MakeStringChecker())
            .AddAttribute("TransactionLength",
                          "Requests per stateful transaction (>= 1; 1 = no transactions): a "
                          "response of another application version (X-App-Version, else "
                          "Server) than the transaction's first breaks it (CS-09).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&AdcHttpClient::GetTransactionLength,
                                               &AdcHttpClient::SetTransactionLength),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("TlsHandshake",
                            "A connection's TLS handshake completed: session ID (hex), resumed.",
                            MakeTraceSourceAccessor(&AdcHttpClient::m_tlsTrace),
                            "ns3::AdcHttpClient::TlsHandshakeTracedCallback")
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
                            "ns3::Packet::AddressTracedCallback")
            .AddTraceSource("CookieSet",
                            "The cookie jar stored a cookie: request id, name, value, expiry "
                            "time (Time::Max() for a session cookie).",
                            MakeTraceSourceAccessor(&AdcHttpClient::m_cookieSetTrace),
                            "ns3::AdcHttpClient::CookieSetTracedCallback")
            .AddTraceSource("TransactionBroken",
                            "A response of another application version broke a transaction: "
                            "transaction id, request id, expected and received version.",
                            MakeTraceSourceAccessor(&AdcHttpClient::m_txBrokenTrace),
                            "ns3::AdcHttpClient::TransactionBrokenTracedCallback")
            .AddTraceSource("TransactionDone",
                            "Every request of a transaction ended: transaction id, requests, "
                            "completed ones, broken.",
                            MakeTraceSourceAccessor(&AdcHttpClient::m_txDoneTrace),
                            "ns3::AdcHttpClient::TransactionDoneTracedCallback");
    return tid;
}

AdcHttpClient::AdcHttpClient()
    : m_maxRequests(0),
      m_persistent(true),
      m_maxConnections(4),
      m_requestTimeout(Seconds(10)),
      m_method("GET"),
      m_host("www.example.com"),
      m_cookiePolicy(COOKIES_NONE),
      m_otherCookie("lang=en"),
      m_transactionLength(1),
      m_workload("AdcHttpClient"),
      m_running(false),
      m_generated(0),
      m_lastId(0),
      m_nextConnId(1),
      m_dispatching(false),
      m_dispatchAgain(false),
      m_disposing(false),
      m_bytesRx(0),
      m_connsOpened(0),
      m_txStarted(0),
      m_txDone(0),
      m_txBroken(0),
      m_txOpenAtStop(0)
{
    NS_LOG_FUNCTION(this);
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
    m_workload.Dispose();
    m_chooser = Callback<Address, const std::string&, uint64_t>();
    Application::DoDispose();
}

// ---- attributes ----------------------------------------------------------------------------

void
AdcHttpClient::SetCatalogueSize(uint32_t n)
{
    m_workload.SetCatalogueSize(n);
}

uint32_t
AdcHttpClient::GetCatalogueSize() const
{
    return m_workload.GetCatalogueSize();
}

void
AdcHttpClient::SetZipfExponent(double s)
{
    m_workload.SetZipfExponent(s);
}

double
AdcHttpClient::GetZipfExponent() const
{
    return m_workload.GetZipfExponent();
}

void
AdcHttpClient::SetCacheableFraction(double f)
{
    m_workload.SetCacheableFraction(f);
}

double
AdcHttpClient::GetCacheableFraction() const
{
    return m_workload.GetCacheableFraction();
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
    if (host.empty() || AdcText::FindControl(host) != std::string::npos)
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
AdcHttpClient::SetOtherCookie(std::string cookie)
{
    const AdcHttpCookies c = AdcHttpCookies::ParseValue(cookie);
    const bool ok =
        cookie.empty() ||
        (cookie.find(';') == std::string::npos && c.Count() == 1 && c.GetSkipped() == 0 &&
         c.ToHeaderValue() == cookie &&
         std::all_of(c.GetPairs()[0].value.begin(), c.GetPairs()[0].value.end(), [](char ch) {
             return AdcHttpCookies::IsCookieOctet(static_cast<unsigned char>(ch));
         }));
    if (!ok)
    {
        throw AdcConfigError("AdcHttpClient: OtherCookie '" + cookie +
                             "' is not one cookie; allowed: \"\" or name=value, the name an "
                             "RFC 6265 cookie-name (token) and the value RFC 6265 cookie-octets, "
                             "without spaces around '='");
    }
    m_otherCookie = cookie;
}

void
AdcHttpClient::SetCookiePolicyName(std::string name)
{
    static const std::vector<std::string> kNames = {"NONE", "KEEP", "OTHER"};
    const int i = AdcText::Find(name, kNames, AdcText::INSENSITIVE);
    if (i < 0)
    {
        throw AdcConfigError("AdcHttpClient: CookiePolicy '" + name +
                             "' is not allowed; allowed values are NONE, KEEP, OTHER");
    }
    m_cookiePolicy = static_cast<CookiePolicy>(i);
}

std::string
AdcHttpClient::GetCookiePolicyName() const
{
    static const std::vector<std::string> kNames = {"NONE", "KEEP", "OTHER"};
    return kNames.at(m_cookiePolicy);
}

std::string
AdcHttpClient::GetOtherCookie() const
{
    return m_otherCookie;
}

void
AdcHttpClient::SetTransactionLength(uint32_t n)
{
    if (n == 0)
    {
        throw AdcConfigError("AdcHttpClient: TransactionLength 0 is not allowed; use 1 (no "
                             "transactions) or more requests per transaction");
    }
    m_transactionLength = n;
}

uint32_t
AdcHttpClient::GetTransactionLength() const
{
    return m_transactionLength;
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
    if (AdcText::FindControl(value) != std::string::npos)
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
    m_workload.AssignStreams(stream + 1);
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

uint64_t
AdcHttpClient::GetTransactionsStarted() const
{
    return m_txStarted;
}

uint64_t
AdcHttpClient::GetTransactionsDone() const
{
    return m_txDone;
}

uint64_t
AdcHttpClient::GetTransactionsBroken() const
{
    return m_txBroken;
}

uint64_t
AdcHttpClient::GetTransactionsOpenAtStop() const
{
    return m_txOpenAtStop;
}

// ---- workload ------------------------------------------------------------------------------

uint32_t
AdcHttpClient::DrawRank()
{
    return m_workload.DrawRank();
}

AdcHttpMessage
AdcHttpClient::BuildRequest(const std::string& url,
                            const std::string& cookie,
                            const std::string& host) const
{
    AdcHttpMessage m = AdcHttpMessage::MakeRequest(m_method, url);
    m.SetHeader("Host", host.empty() ? m_host : host);
    for (const auto& h : m_extraHdrs)
    {
        m.AddHeader(h.first, h.second);
    }
    if (!cookie.empty())
    {
        m.AddHeader("Cookie", cookie);
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
    if (m_chooser.IsNull() && m_sites.empty() && !InetSocketAddress::IsMatchingType(m_remote) &&
        !Inet6SocketAddress::IsMatchingType(m_remote))
    {
        throw AdcConfigError("AdcHttpClient: Remote is not set or not an InetSocketAddress / "
                             "Inet6SocketAddress; set Remote to the server or VIP address");
    }
    if (m_method.empty() ||
        m_method.find_first_not_of("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                   "abcdefghijklmnopqrstuvwxyz") != std::string::npos)
    {
        throw AdcConfigError("AdcHttpClient: Method '" + m_method +
                             "' is not an HTTP method token (RFC 9110 section 9.1); use e.g. "
                             "GET, HEAD or POST");
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
    IssueRequest(m_workload.NextUrl(m_lastId + 1));
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
    o.rec.requestBytes = BuildRequest(url, "", HostOf(rid)).GetSerializedSize();
    o.timeout = Simulator::Schedule(m_requestTimeout, &AdcHttpClient::Timeout, this, rid);
    m_tally.CountSent();
    if (const uint64_t tid = TransactionOf(rid))
    {
        Transaction& t = m_txs[tid];
        if (t.issued++ == 0)
        {
            ++m_txStarted;
        }
    }
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
    TransactionEnd(rid, outcome);
    NS_LOG_INFO("client " << rec.clientId << " request " << rid << " "
                          << AdcRequestOutcomeToString(rec.outcome) << " " << rec.reason);
    if (!m_disposing)
    {
        m_doneTrace(rec);
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
    // Transactions left: open at the stop, or shorter ones whose requests all ended.
    std::vector<uint64_t> tids;
    for (const auto& kv : m_txs)
    {
        tids.push_back(kv.first);
    }
    for (uint64_t tid : tids)
    {
        if (m_txs.at(tid).openAtStop)
        {
            ++m_txOpenAtStop;
            m_txs.erase(tid);
        }
        else
        {
            FinishTransaction(tid);
        }
    }
}

} // namespace ns3
