/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: a client's local DNS server (caching recursive resolver).
 */

#include "adc-ldns-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-socket-util.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcLdnsServer");

NS_OBJECT_ENSURE_REGISTERED(AdcLdnsServer);

namespace
{

constexpr uint8_t kQrBit = 0x80;           //!< QR in the third header byte
constexpr uint8_t kRdBit = 0x01;           //!< RD in the third header byte
constexpr double kSrttKeep = 0.7;          //!< BIND's DNS_ADB_RTTADJDEFAULT (7/10 kept)
constexpr double kSrttAge = 511.0 / 512.0; //!< BIND's dns_adb_agesrtt factor

} // namespace

bool
AdcLdnsServer::Key::operator<(const Key& o) const
{
    return std::tie(name, qtype, qclass) < std::tie(o.name, o.qtype, o.qclass);
}

TypeId
AdcLdnsServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcLdnsServer")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcLdnsServer>()
            .AddAttribute("Port",
                          "UDP port clients ask on, IPv4 and IPv6 any-address (53).",
                          UintegerValue(AdcDnsMessage::kDnsPort),
                          MakeUintegerAccessor(&AdcLdnsServer::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Timeout",
                          "How long one upstream try waits before the next server is tried "
                          "(2 s, BIND's order of magnitude for one server).",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&AdcLdnsServer::m_timeout),
                          MakeTimeChecker())
            .AddAttribute("TcpRetry",
                          "Ask again over TCP when an upstream answer comes truncated (TC), as "
                          "RFC 7766 section 5 requires of a resolver; false relays the truncated "
                          "answer as it came.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcLdnsServer::m_tcpRetry),
                          MakeBooleanChecker())
            .AddAttribute("Retries",
                          "Upstream tries after the first (each to the next server of the "
                          "zone) before the clients get SERVFAIL.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&AdcLdnsServer::m_retries),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("ServerSelection",
                          "The first server of an upstream query: ROUND_ROBIN over the zone's "
                          "servers, FIRST (the first added), or LOWEST_SRTT (BIND's smoothed "
                          "RTT, unmeasured servers first).",
                          EnumValue(AdcLdnsServer::ROUND_ROBIN),
                          MakeEnumAccessor(&AdcLdnsServer::m_selection),
                          MakeEnumChecker(AdcLdnsServer::ROUND_ROBIN,
                                          "ROUND_ROBIN",
                                          AdcLdnsServer::FIRST,
                                          "FIRST",
                                          AdcLdnsServer::LOWEST_SRTT,
                                          "LOWEST_SRTT"))
            .AddAttribute("NegativeTtl",
                          "How long NXDOMAIN and NODATA answers without an SOA in their "
                          "authority section are cached; one with an SOA is cached for "
                          "min(SOA TTL, SOA MINIMUM) (RFC 2308 sections 3 and 5); 0 disables "
                          "negative caching.",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&AdcLdnsServer::m_negativeTtl),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MaxCacheTtl",
                          "Longest time an answer is cached whatever its TTL (BIND's "
                          "max-cache-ttl, one week).",
                          TimeValue(Seconds(604800)),
                          MakeTimeAccessor(&AdcLdnsServer::m_maxCacheTtl),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MaxUdpPayload",
                          "Largest UDP response to a client in bytes (512..65535; 512 without "
                          "EDNS, RFC 1035 section 4.2.1); longer ones are truncated with TC.",
                          UintegerValue(AdcDnsMessage::kMaxUdpBytes),
                          MakeUintegerAccessor(&AdcLdnsServer::m_maxUdpPayload),
                          MakeUintegerChecker<uint32_t>(AdcDnsMessage::kMaxUdpBytes,
                                                        AdcDnsMessage::kMaxMessage))
            .AddTraceSource("Query",
                            "A client's well-formed query arrived: client, question, cache hit.",
                            MakeTraceSourceAccessor(&AdcLdnsServer::m_queryTrace),
                            "ns3::AdcLdnsServer::QueryTracedCallback")
            .AddTraceSource("Forward",
                            "An upstream try was sent: question, server, attempt (from 1).",
                            MakeTraceSourceAccessor(&AdcLdnsServer::m_fwdTrace),
                            "ns3::AdcLdnsServer::ForwardTracedCallback")
            .AddTraceSource("Answer",
                            "A response went to a client: client, response, latency at the LDNS.",
                            MakeTraceSourceAccessor(&AdcLdnsServer::m_answerTrace),
                            "ns3::AdcLdnsServer::AnswerTracedCallback")
            .AddTraceSource("Drop",
                            "A received message was not used, with the reason.",
                            MakeTraceSourceAccessor(&AdcLdnsServer::m_dropTrace),
                            "ns3::AdcLdnsServer::DropTracedCallback");
    return tid;
}

AdcLdnsServer::AdcLdnsServer()
    : m_ids(CreateObject<UniformRandomVariable>())
{
}

AdcLdnsServer::~AdcLdnsServer() = default;

void
AdcLdnsServer::AddZone(const std::string& suffix, const std::vector<Address>& servers)
{
    const std::string key = NameKey(suffix);
    if (key.empty() && suffix != "" && suffix != ".")
    {
        AdcDnsName::ToLabels(suffix); // throws AdcConfigError naming the bad name
    }
    if (servers.empty())
    {
        throw AdcConfigError("AdcLdnsServer: AddZone('" + suffix +
                             "') has no servers; give at least one authoritative server");
    }
    Zone zone;
    for (std::size_t i = 0; i < servers.size(); ++i)
    {
        const Address e = AdcSocketEndpoint(servers[i], AdcDnsMessage::kDnsPort);
        if (e.IsInvalid())
        {
            throw AdcConfigError("AdcLdnsServer: AddZone('" + suffix + "') server " +
                                 std::to_string(i) +
                                 " is not an address; use an InetSocketAddress, "
                                 "Inet6SocketAddress, Ipv4Address or Ipv6Address");
        }
        zone.servers.push_back(e);
    }
    m_zones[key] = zone;
}

int64_t
AdcLdnsServer::AssignStreams(int64_t stream)
{
    m_ids->SetStream(stream);
    return 1;
}

std::optional<Time>
AdcLdnsServer::GetSrtt(const Address& server) const
{
    auto it = m_srtt.find(AdcSocketEndpoint(server, AdcDnsMessage::kDnsPort));
    if (it == m_srtt.end())
    {
        return std::nullopt;
    }
    return Seconds(it->second.srtt);
}

void
AdcLdnsServer::DoDispose()
{
    CloseAll(false);
    m_ids = nullptr;
    Application::DoDispose();
}

void
AdcLdnsServer::CloseAll(bool close)
{
    for (auto& [key, up] : m_inflight)
    {
        up.timer.Cancel(); // the clients waiting get nothing: the server is gone
    }
    m_inflight.clear();
    m_byId.clear();
    // Closing may call back synchronously: take the sockets out first.
    std::vector<Ptr<Socket>> all;
    all.swap(m_listen);
    for (auto& [s, key] : m_upTcp)
    {
        all.push_back(s);
    }
    m_upTcp.clear();
    for (auto& [s, c] : m_tcp)
    {
        all.push_back(s);
    }
    m_tcp.clear();
    for (Ptr<Socket>* s : {&m_up4, &m_up6})
    {
        if (*s)
        {
            all.push_back(*s);
            *s = nullptr;
        }
    }
    for (auto& s : all)
    {
        AdcDetachSocket(s, close);
    }
    for (auto& s : m_listenTcp)
    {
        AdcStopListening(s, close);
    }
    m_listenTcp.clear();
}

std::string
AdcLdnsServer::NameKey(const std::string& name)
{
    try
    {
        std::string key = AdcDnsName::Canonical(name);
        std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) {
            return static_cast<char>(std::tolower(c));
        });
        return key == "." ? "" : key;
    }
    catch (const AdcConfigError&)
    {
        return "";
    }
}

AdcLdnsServer::Key
AdcLdnsServer::KeyOf(const AdcDnsQuestion& q)
{
    return Key{NameKey(q.name), q.qtype, q.qclass};
}

void
AdcLdnsServer::StartApplication()
{
    if (!m_timeout.IsStrictlyPositive())
    {
        throw AdcConfigError("AdcLdnsServer: Timeout " + std::to_string(m_timeout.GetSeconds()) +
                             " s is not allowed; use a positive time (default 2 s)");
    }
    std::vector<Address> locals{InetSocketAddress(Ipv4Address::GetAny(), m_port)};
    if (GetNode()->GetObject<Ipv6>())
    {
        locals.emplace_back(Inet6SocketAddress(Ipv6Address::GetAny(), m_port));
    }
    for (const Address& local : locals)
    {
        Ptr<Socket> s = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        Ptr<Socket> tcp = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        if (s->Bind(local) != 0 || tcp->Bind(local) != 0 || tcp->Listen() != 0)
        {
            throw AdcConfigError("AdcLdnsServer: Port " + std::to_string(m_port) +
                                 " cannot be bound for UDP and TCP on node " +
                                 std::to_string(GetNode()->GetId()) + "; use a free port");
        }
        s->SetRecvCallback(MakeCallback(&AdcLdnsServer::HandleClientRead, this));
        m_listen.push_back(s);
        tcp->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                               MakeCallback(&AdcLdnsServer::HandleAccept, this));
        m_listenTcp.push_back(tcp);
    }
}

void
AdcLdnsServer::StopApplication()
{
    CloseAll(true);
}

Ptr<Socket>
AdcLdnsServer::UpstreamSocket(const Address& server)
{
    const bool v6 = Inet6SocketAddress::IsMatchingType(server);
    Ptr<Socket>& s = v6 ? m_up6 : m_up4;
    if (!s)
    {
        s = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        if ((v6 ? s->Bind6() : s->Bind()) != 0)
        {
            throw AdcConfigError("AdcLdnsServer: a zone server is " +
                                 std::string(v6 ? "IPv6" : "IPv4") + " but node " +
                                 std::to_string(GetNode()->GetId()) +
                                 " has no such stack; use servers of the node's family");
        }
        s->SetRecvCallback(MakeCallback(&AdcLdnsServer::HandleUpstreamRead, this));
    }
    return s;
}

void
AdcLdnsServer::HandleClientRead(Ptr<Socket> s)
{
    Address from;
    while (Ptr<Packet> p = s->RecvFrom(from))
    {
        HandleQuery(AdcPacketBytes(p), from, s, false);
    }
}

void
AdcLdnsServer::HandleAccept(Ptr<Socket> s, const Address& from)
{
    m_tcp[s].peer = from;
    s->SetRecvCallback(MakeCallback(&AdcLdnsServer::HandleTcpRead, this));
    s->SetCloseCallbacks(MakeCallback(&AdcLdnsServer::HandleTcpClose, this),
                         MakeCallback(&AdcLdnsServer::HandleTcpClose, this));
}

void
AdcLdnsServer::HandleTcpRead(Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv())
    {
        auto it = m_tcp.find(s);
        if (it == m_tcp.end())
        {
            return;
        }
        const std::vector<uint8_t> bytes = AdcPacketBytes(p);
        const Address peer = it->second.peer;
        for (const auto& frame : it->second.framer.Feed(bytes))
        {
            HandleQuery(frame, peer, s, true); // may answer at once (a cache hit)
        }
        it = m_tcp.find(s);
        if (it != m_tcp.end() && it->second.framer.HasError())
        {
            NoteDrop(bytes, it->second.framer.GetError());
            HandleTcpClose(s);
            return;
        }
    }
}

void
AdcLdnsServer::HandleTcpClose(Ptr<Socket> s)
{
    if (m_tcp.erase(s) > 0)
    {
        AdcDetachSocket(s, true);
    }
}

void
AdcLdnsServer::HandleQuery(const std::vector<uint8_t>& bytes,
                           const Address& from,
                           Ptr<Socket> s,
                           bool tcp)
{
    if (bytes.size() < AdcDnsMessage::kHeaderBytes)
    {
        NoteDrop(bytes,
                 "AdcLdnsServer: " + std::to_string(bytes.size()) +
                     " bytes are shorter than the 12-byte DNS header");
        return;
    }
    if (bytes[2] & kQrBit)
    {
        NoteDrop(bytes, "AdcLdnsServer: a response (QR set) sent by a client, not a query");
        return;
    }
    Waiter w;
    w.client = from;
    w.socket = s;
    w.tcp = tcp;
    w.arrival = Simulator::Now();
    std::string error;
    std::optional<AdcDnsMessage> query = AdcDnsMessage::Parse(bytes, &error);
    if (!query)
    {
        NS_LOG_INFO("FORMERR: " << error);
        AdcDnsMessage r; // RFC 1035 4.1.1: the header echoed, the question unreadable
        r.id = static_cast<uint16_t>((bytes[0] << 8) | bytes[1]);
        r.qr = true;
        r.opcode = (bytes[2] >> 3) & 0x0F;
        r.rd = (bytes[2] & kRdBit) != 0;
        r.ra = true;
        r.rcode = AdcDnsMessage::FORMERR;
        Reply(w, r);
        return;
    }
    w.query = *query;
    if (query->opcode != AdcDnsMessage::QUERY || query->questions.size() != 1)
    {
        const uint8_t rcode =
            query->opcode != AdcDnsMessage::QUERY ? AdcDnsMessage::NOTIMP : AdcDnsMessage::FORMERR;
        AdcDnsMessage r = AdcDnsMessage::MakeResponse(*query, rcode, false);
        r.ra = true;
        Reply(w, r);
        return;
    }
    const AdcDnsQuestion& q = query->questions.front();
    std::optional<std::string> zone;
    if (q.qclass == AdcDnsMessage::CLASS_IN)
    {
        zone = FindZone(q.name);
    }
    if (!zone)
    {
        m_queryTrace(from, q, false);
        NS_LOG_INFO("REFUSED " << q.name << ": no zone, or class not IN");
        AdcDnsMessage r = AdcDnsMessage::MakeResponse(*query, AdcDnsMessage::REFUSED, false);
        r.ra = false; // no recursion available for this name
        Reply(w, r);
        return;
    }
    if (std::optional<AdcDnsMessage> hit = FromCache(*query))
    {
        ++m_hits;
        m_queryTrace(from, q, true);
        Reply(w, *hit);
        return;
    }
    m_queryTrace(from, q, false);
    if (!query->rd)
    {
        AdcDnsMessage r = AdcDnsMessage::MakeResponse(*query, AdcDnsMessage::REFUSED, false);
        r.ra = true;
        Reply(w, r);
        return;
    }
    ++m_misses;
    Forward(*zone, std::move(w));
}

std::optional<std::string>
AdcLdnsServer::FindZone(const std::string& name) const
{
    std::string key = NameKey(name);
    if (key.empty() && !AdcDnsName::Equal(name, "."))
    {
        return std::nullopt; // malformed: cannot happen for a parsed question
    }
    while (true)
    {
        if (m_zones.count(key) > 0)
        {
            return key;
        }
        if (key.empty())
        {
            return std::nullopt;
        }
        // Drop the first label (an escaped dot "\." is not a label boundary).
        std::size_t i = 0;
        while (i < key.size() && key[i] != '.')
        {
            i += key[i] == '\\' ? 2 : 1;
        }
        key = i < key.size() ? key.substr(i + 1) : "";
    }
}

std::optional<AdcDnsMessage>
AdcLdnsServer::FromCache(const AdcDnsMessage& query)
{
    const Key key = KeyOf(query.questions.front());
    auto it = m_cache.find(key);
    if (it == m_cache.end())
    {
        return std::nullopt;
    }
    const Time now = Simulator::Now();
    if (now >= it->second.expiry)
    {
        m_cache.erase(it); // expired entries are never used
        return std::nullopt;
    }
    const Entry& e = it->second;
    AdcDnsMessage r = AdcDnsMessage::MakeResponse(query, e.rcode, false);
    r.ra = true;
    const auto left = [&e, now](AdcDnsResourceRecord rr, uint32_t ttl) {
        // RFC 1035 3.2.1 / RFC 2181 8: the TTL left, in whole seconds.
        const double s = (e.stored + Seconds(ttl) - now).GetSeconds();
        rr.ttl = s > 0 ? static_cast<uint32_t>(std::floor(s)) : 0;
        return rr;
    };
    for (const AdcDnsResourceRecord& rr : e.answers)
    {
        r.answers.push_back(left(rr, rr.ttl));
    }
    for (const AdcDnsResourceRecord& rr : e.soa)
    {
        // RFC 2308 section 5: the SOA of a cached negative answer, its TTL decremented, with
        // the negative TTL as its TTL (section 3).
        r.authority.push_back(left(rr, NegativeSoaTtl(rr)));
    }
    return r;
}

std::vector<uint32_t>
AdcLdnsServer::Order(Zone& zone)
{
    const uint32_t n = static_cast<uint32_t>(zone.servers.size());
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    if (m_selection == ROUND_ROBIN)
    {
        std::rotate(order.begin(), order.begin() + (zone.next % n), order.end());
        zone.next = (zone.next + 1) % n;
    }
    else if (m_selection == LOWEST_SRTT)
    {
        std::stable_sort(order.begin(), order.end(), [this, &zone](uint32_t a, uint32_t b) {
            auto ia = m_srtt.find(zone.servers[a]);
            auto ib = m_srtt.find(zone.servers[b]);
            if ((ia == m_srtt.end()) != (ib == m_srtt.end()))
            {
                return ia == m_srtt.end(); // unknown servers first
            }
            return ia != m_srtt.end() && ia->second.srtt < ib->second.srtt;
        });
        // The servers not chosen age (at most once per second each), so they come back.
        const Time now = Simulator::Now();
        for (uint32_t i = 1; i < n; ++i)
        {
            auto it = m_srtt.find(zone.servers[order[i]]);
            if (it != m_srtt.end() && now - it->second.lastAge >= Seconds(1))
            {
                it->second.srtt *= kSrttAge;
                it->second.lastAge = now;
            }
        }
    }
    return order;
}

void
AdcLdnsServer::Forward(const std::string& zone, Waiter w)
{
    const Key key = KeyOf(w.query.questions.front());
    auto it = m_inflight.find(key);
    if (it != m_inflight.end())
    {
        NS_LOG_INFO("joins the upstream query in flight for " << key.name);
        it->second.waiters.push_back(std::move(w));
        return;
    }
    Upstream& up = m_inflight[key];
    up.question = w.query.questions.front();
    up.zone = zone;
    up.order = Order(m_zones[zone]);
    up.waiters.push_back(std::move(w));
    SendTry(key);
}

uint16_t
AdcLdnsServer::FreeQueryId() const
{
    uint16_t id = 0;
    do
    {
        id = static_cast<uint16_t>(m_ids->GetInteger(0, UINT16_MAX));
    } while (m_byId.count(id) > 0);
    return id;
}

void
AdcLdnsServer::SendTry(const Key& key)
{
    Upstream& up = m_inflight.at(key);
    const Zone& zone = m_zones.at(up.zone);
    const Address server = zone.servers[up.order[up.attempts % up.order.size()]];
    ++up.attempts;
    if (m_byId.size() > UINT16_MAX)
    {
        NS_LOG_WARN("no free upstream ID");
        NextTry(key);
        return;
    }
    const uint16_t id = FreeQueryId();
    m_byId.emplace(id, key);
    up.ids.push_back(id);
    up.sentAt.push_back(Simulator::Now());
    const AdcDnsMessage query =
        AdcDnsMessage::MakeQuery(id, up.question.name, up.question.qtype, false);
    ++m_forwards;
    UpstreamSocket(server)->SendTo(AdcBytesPacket(query.Serialize()), 0, server);
    up.timer = Simulator::Schedule(m_timeout, &AdcLdnsServer::TryTimedOut, this, key);
    m_fwdTrace(up.question, server, up.attempts);
}

void
AdcLdnsServer::TryTimedOut(const Key& key)
{
    auto it = m_inflight.find(key);
    if (it == m_inflight.end())
    {
        return;
    }
    Upstream& up = it->second;
    const Zone& zone = m_zones.at(up.zone);
    Sample(zone.servers[up.order[(up.attempts - 1) % up.order.size()]], m_timeout);
    NextTry(key);
}

void
AdcLdnsServer::NextTry(const Key& key)
{
    Upstream& up = m_inflight.at(key);
    up.timer.Cancel();
    if (up.attempts <= m_retries)
    {
        SendTry(key);
        return;
    }
    NS_LOG_INFO("every try failed for " << key.name << ": SERVFAIL");
    Complete(key, nullptr);
}

void
AdcLdnsServer::HandleUpstreamRead(Ptr<Socket> s)
{
    Address from;
    while (Ptr<Packet> p = s->RecvFrom(from))
    {
        const std::vector<uint8_t> bytes = AdcPacketBytes(p);
        std::string error;
        const std::optional<AdcDnsMessage> r = AdcDnsMessage::Parse(bytes, &error);
        if (!r)
        {
            NoteDrop(bytes, "AdcLdnsServer: malformed upstream response: " + error);
            continue;
        }
        if (!r->qr)
        {
            NoteDrop(bytes, "AdcLdnsServer: a query (QR clear) on the upstream socket");
            continue;
        }
        auto idIt = m_byId.find(r->id);
        if (idIt == m_byId.end())
        {
            NoteDrop(bytes,
                     "AdcLdnsServer: upstream ID " + std::to_string(r->id) +
                         " matches no query in flight");
            continue;
        }
        const Key key = idIt->second;
        Upstream& up = m_inflight.at(key);
        const std::size_t k = std::find(up.ids.begin(), up.ids.end(), r->id) - up.ids.begin();
        const Address server = m_zones.at(up.zone).servers[up.order[k % up.order.size()]];
        if (!AdcSameEndpoint(from, server))
        {
            NoteDrop(bytes, "AdcLdnsServer: upstream response not from the server asked");
            continue;
        }
        const bool sameQuestion = r->questions.size() == 1 &&
                                  AdcDnsName::Equal(r->questions[0].name, up.question.name) &&
                                  r->questions[0].qtype == up.question.qtype &&
                                  r->questions[0].qclass == up.question.qclass;
        if (!sameQuestion)
        {
            NoteDrop(bytes, "AdcLdnsServer: upstream response to another question");
            continue;
        }
        Sample(server, Simulator::Now() - up.sentAt[k]);
        if (r->tc && m_tcpRetry && !up.tcp)
        {
            RetryOverTcp(key, server); // a truncated answer is not the answer
            continue;
        }
        if (r->rcode != AdcDnsMessage::NOERROR && r->rcode != AdcDnsMessage::NXDOMAIN)
        {
            // A lame server (SERVFAIL, REFUSED, ...): try the next one now, as BIND does.
            NS_LOG_INFO("upstream " << AdcDnsMessage::RcodeName(r->rcode) << " for " << key.name
                                    << ": next server");
            if (k + 1 == up.attempts)
            {
                NextTry(key);
            }
            continue;
        }
        Complete(key, &*r);
    }
}

void
AdcLdnsServer::Sample(const Address& server, Time rtt)
{
    auto [it, fresh] = m_srtt.try_emplace(server);
    Srtt& s = it->second;
    s.srtt = fresh ? rtt.GetSeconds() : kSrttKeep * s.srtt + (1 - kSrttKeep) * rtt.GetSeconds();
    if (fresh)
    {
        s.lastAge = Simulator::Now();
    }
}

void
AdcLdnsServer::Complete(const Key& key, const AdcDnsMessage* answer)
{
    auto it = m_inflight.find(key);
    Upstream up = std::move(it->second);
    m_inflight.erase(it);
    up.timer.Cancel();
    CloseUpstreamTcp(up);
    for (uint16_t id : up.ids)
    {
        m_byId.erase(id);
    }
    if (answer && !answer->tc)
    {
        Store(key, *answer);
    }
    for (const Waiter& w : up.waiters)
    {
        AdcDnsMessage r =
            AdcDnsMessage::MakeResponse(w.query,
                                        answer ? answer->rcode : uint8_t{AdcDnsMessage::SERVFAIL},
                                        false);
        r.ra = true;
        if (answer)
        {
            r.answers = answer->answers;
            r.authority = NegativeSoa(*answer); // RFC 2308 section 5: passed on
        }
        Reply(w, r);
    }
}

void
AdcLdnsServer::Store(const Key& key, const AdcDnsMessage& answer)
{
    Entry e;
    e.rcode = answer.rcode;
    e.answers = answer.answers;
    e.stored = Simulator::Now();
    Time life;
    if (answer.rcode == AdcDnsMessage::NOERROR && !answer.answers.empty())
    {
        uint32_t ttl = UINT32_MAX;
        for (const auto& rr : answer.answers)
        {
            ttl = std::min(ttl, rr.ttl); // RFC 2181 5.2: the RRset's TTL is the least
        }
        life = std::min(Seconds(ttl), m_maxCacheTtl);
    }
    else
    {
        // NXDOMAIN or NODATA: min(SOA TTL, SOA MINIMUM) when the SOA came (RFC 2308 section
        // 5), else NegativeTtl.
        e.soa = NegativeSoa(answer);
        life = e.soa.empty() ? m_negativeTtl : Seconds(NegativeSoaTtl(e.soa.front()));
        life = std::min(life, m_maxCacheTtl);
    }
    if (!life.IsStrictlyPositive())
    {
        return; // TTL 0: for this transaction only (RFC 1035 3.2.1)
    }
    e.expiry = e.stored + life;
    m_cache[key] = std::move(e);
}

std::vector<AdcDnsResourceRecord>
AdcLdnsServer::NegativeSoa(const AdcDnsMessage& answer)
{
    std::vector<AdcDnsResourceRecord> out;
    const bool negative = answer.rcode == AdcDnsMessage::NXDOMAIN ||
                          (answer.rcode == AdcDnsMessage::NOERROR && answer.answers.empty());
    for (const AdcDnsResourceRecord& rr : answer.authority)
    {
        if (negative && rr.type == AdcDnsMessage::TYPE_SOA && AdcDnsSoa::FromRecord(rr) &&
            out.empty())
        {
            out.push_back(rr);
        }
    }
    return out;
}

uint32_t
AdcLdnsServer::NegativeSoaTtl(const AdcDnsResourceRecord& soa)
{
    const std::optional<AdcDnsSoa> f = AdcDnsSoa::FromRecord(soa);
    return f ? std::min(soa.ttl, f->minimum) : soa.ttl;
}

void
AdcLdnsServer::Reply(const Waiter& w, AdcDnsMessage r)
{
    std::vector<uint8_t> out;
    try
    {
        out = w.tcp ? r.Serialize() : r.SerializeTruncated(m_maxUdpPayload);
    }
    catch (const AdcConfigError& e)
    {
        NS_LOG_WARN("SERVFAIL: " << e.what());
        r.answers.clear();
        r.authority.clear();
        r.additional.clear();
        r.rcode = AdcDnsMessage::SERVFAIL;
        out = r.Serialize();
    }
    if (out.size() > 2 && (out[2] & 0x02))
    {
        r = *AdcDnsMessage::Parse(out); // trace what was sent
    }
    if (r.rcode == AdcDnsMessage::SERVFAIL)
    {
        ++m_servfails;
    }
    if (!w.tcp)
    {
        w.socket->SendTo(AdcBytesPacket(out), 0, w.client);
    }
    else if (m_tcp.count(w.socket) > 0) // still open
    {
        w.socket->Send(AdcBytesPacket(AdcDnsTcpFrame(out)));
    }
    m_answerTrace(w.client, r, Simulator::Now() - w.arrival);
}

void
AdcLdnsServer::NoteDrop(const std::vector<uint8_t>& bytes, const std::string& reason)
{
    NS_LOG_INFO("drop: " << reason);
    ++m_drops;
    m_dropTrace(AdcBytesPacket(bytes), reason);
}

} // namespace ns3
