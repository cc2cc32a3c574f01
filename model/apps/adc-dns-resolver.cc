/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: a stub DNS resolver application.
 */

#include "adc-dns-resolver.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-socket-util.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcDnsResolver");

NS_OBJECT_ENSURE_REGISTERED(AdcDnsResolver);

namespace
{

/// CNAME links followed from the question's name to the addresses (a loop stops there too).
constexpr int kMaxCnameChain = 8;

} // namespace

TypeId
AdcDnsResolver::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcDnsResolver")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcDnsResolver>()
            .AddAttribute("Server",
                          "The DNS server asked: an InetSocketAddress or Inet6SocketAddress, or "
                          "an Ipv4Address or Ipv6Address (port 53).",
                          AddressValue(),
                          MakeAddressAccessor(&AdcDnsResolver::m_server),
                          MakeAddressChecker())
            .AddAttribute("Timeout",
                          "How long one try waits for its answer (5 s: glibc's RES_TIMEOUT).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&AdcDnsResolver::m_timeout),
                          MakeTimeChecker())
            .AddAttribute("Retries",
                          "Tries after the first before a query fails (2: glibc's "
                          "RES_DFLRETRY, so 3 tries in all).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&AdcDnsResolver::m_retries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RecursionDesired",
                          "Set RD in queries (a stub resolver asks its LDNS to recurse).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdcDnsResolver::m_rd),
                          MakeBooleanChecker())
            .AddTraceSource("QuerySent",
                            "A query try was sent (UDP or TCP).",
                            MakeTraceSourceAccessor(&AdcDnsResolver::m_querySentTrace),
                            "ns3::AdcDnsResolver::QuerySentTracedCallback")
            .AddTraceSource("Answer",
                            "A matching, complete response arrived.",
                            MakeTraceSourceAccessor(&AdcDnsResolver::m_answerTrace),
                            "ns3::AdcDnsResolver::AnswerTracedCallback")
            .AddTraceSource("Failure",
                            "A query got no answer after every try.",
                            MakeTraceSourceAccessor(&AdcDnsResolver::m_failureTrace),
                            "ns3::AdcDnsResolver::FailureTracedCallback")
            .AddTraceSource("Drop",
                            "A received message was not used, with the reason.",
                            MakeTraceSourceAccessor(&AdcDnsResolver::m_dropTrace),
                            "ns3::AdcDnsResolver::DropTracedCallback");
    return tid;
}

AdcDnsResolver::AdcDnsResolver()
    : m_ids(CreateObject<UniformRandomVariable>())
{
}

AdcDnsResolver::~AdcDnsResolver() = default;

int64_t
AdcDnsResolver::AssignStreams(int64_t stream)
{
    m_ids->SetStream(stream);
    return 1;
}

uint64_t
AdcDnsResolver::GetQueriesSent() const
{
    return m_sent;
}

uint64_t
AdcDnsResolver::GetRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
AdcDnsResolver::GetTcpRetries() const
{
    return m_tcpRetries;
}

uint64_t
AdcDnsResolver::GetAnswered() const
{
    return m_answered;
}

uint64_t
AdcDnsResolver::GetFailed() const
{
    return m_failed;
}

uint64_t
AdcDnsResolver::GetDrops() const
{
    return m_drops;
}

void
AdcDnsResolver::DoDispose()
{
    for (auto& [id, q] : m_pending)
    {
        q.timer.Cancel();
        if (q.stream)
        {
            AdcDetachSocket(q.stream, false);
        }
    }
    m_pending.clear();
    if (m_udp)
    {
        AdcDetachSocket(m_udp, false);
        m_udp = nullptr;
    }
    m_ids = nullptr;
    Application::DoDispose();
}

void
AdcDnsResolver::Resolve(const std::string& name, uint16_t qtype, ResultCallback cb)
{
    CheckConfig("Resolve('" + name + "')");
    if (m_pending.size() > UINT16_MAX)
    {
        throw AdcConfigError("AdcDnsResolver: 65536 queries are outstanding; Resolve('" + name +
                             "') has no free ID");
    }
    uint16_t id = 0;
    do
    {
        id = static_cast<uint16_t>(m_ids->GetInteger(0, UINT16_MAX));
    } while (m_pending.count(id) > 0);
    const AdcDnsMessage query = AdcDnsMessage::MakeQuery(id, name, qtype, m_rd); // checks name
    Pending& q = m_pending[id];
    q.question = query.questions.front();
    q.cb = cb;
    q.wire = query.Serialize();
    if (m_running)
    {
        Send(id);
    }
    else if (m_stopped)
    {
        Simulator::ScheduleNow(&AdcDnsResolver::Fail, this, id); // nothing will send it
    }
    else
    {
        m_waiting.push_back(id); // sent at start
    }
}

void
AdcDnsResolver::CheckConfig(const std::string& when) const
{
    if (AdcSocketEndpoint(m_server, AdcDnsMessage::kDnsPort).IsInvalid())
    {
        throw AdcConfigError("AdcDnsResolver: Server is not set to an address (an "
                             "InetSocketAddress, Inet6SocketAddress, Ipv4Address or "
                             "Ipv6Address); set it before " +
                             when);
    }
    if (!m_timeout.IsStrictlyPositive())
    {
        throw AdcConfigError("AdcDnsResolver: Timeout " + std::to_string(m_timeout.GetSeconds()) +
                             " s is not allowed; use a positive time (default 5 s)");
    }
}

void
AdcDnsResolver::StartApplication()
{
    CheckConfig("start");
    const bool v6 =
        Inet6SocketAddress::IsMatchingType(AdcSocketEndpoint(m_server, AdcDnsMessage::kDnsPort));
    m_udp = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    if ((v6 ? m_udp->Bind6() : m_udp->Bind()) != 0)
    {
        throw AdcConfigError("AdcDnsResolver: Server " + std::string(v6 ? "IPv6" : "IPv4") +
                             " cannot be reached from node " + std::to_string(GetNode()->GetId()) +
                             ", which has no such stack; use a server of the node's family");
    }
    m_udp->SetRecvCallback(MakeCallback(&AdcDnsResolver::HandleUdpRead, this));
    m_running = true;
    std::vector<uint16_t> waiting;
    waiting.swap(m_waiting);
    for (uint16_t id : waiting)
    {
        Send(id);
    }
}

void
AdcDnsResolver::StopApplication()
{
    m_running = false;
    m_stopped = true;
    if (m_udp)
    {
        AdcDetachSocket(m_udp, true);
        m_udp = nullptr;
    }
    std::vector<uint16_t> ids;
    for (const auto& [id, q] : m_pending)
    {
        ids.push_back(id);
    }
    for (uint16_t id : ids)
    {
        Fail(id);
    }
}

void
AdcDnsResolver::Send(uint16_t id)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
    {
        return;
    }
    Pending& q = it->second;
    ++q.attempts;
    if (q.attempts == 1)
    {
        q.firstSent = Simulator::Now();
    }
    ++m_sent;
    const Address server = AdcSocketEndpoint(m_server, AdcDnsMessage::kDnsPort);
    if (q.tcp)
    {
        q.framer = AdcDnsTcpFramer();
        q.stream = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        Inet6SocketAddress::IsMatchingType(server) ? q.stream->Bind6() : q.stream->Bind();
        q.stream->SetConnectCallback(MakeCallback(&AdcDnsResolver::HandleConnected, this),
                                     MakeCallback(&AdcDnsResolver::HandleStreamError, this));
        q.stream->SetRecvCallback(MakeCallback(&AdcDnsResolver::HandleTcpRead, this));
        q.stream->SetCloseCallbacks(MakeCallback(&AdcDnsResolver::HandleStreamError, this),
                                    MakeCallback(&AdcDnsResolver::HandleStreamError, this));
        q.stream->Connect(server); // the query goes out once connected
    }
    else
    {
        m_udp->SendTo(AdcBytesPacket(q.wire), 0, server);
    }
    q.timer = Simulator::Schedule(m_timeout, &AdcDnsResolver::TryFailed, this, id);
    m_querySentTrace(q.question.name, q.question.qtype, id, q.attempts, q.tcp);
}

void
AdcDnsResolver::TryFailed(uint16_t id)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
    {
        return;
    }
    Pending& q = it->second;
    q.timer.Cancel();
    CloseStream(q);
    if (q.attempts <= m_retries)
    {
        ++m_retransmissions;
        Send(id);
        return;
    }
    Fail(id);
}

void
AdcDnsResolver::Fail(uint16_t id)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
    {
        return;
    }
    ++m_failed;
    m_failureTrace(it->second.question.name, it->second.question.qtype, it->second.attempts);
    Finish(id, {}, kNoAnswer);
}

void
AdcDnsResolver::CloseStream(Pending& q)
{
    if (q.stream)
    {
        AdcDetachSocket(q.stream, true);
        q.stream = nullptr;
    }
}

std::map<uint16_t, AdcDnsResolver::Pending>::iterator
AdcDnsResolver::FindStream(Ptr<Socket> s)
{
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it)
    {
        if (it->second.stream == s)
        {
            return it;
        }
    }
    return m_pending.end();
}

void
AdcDnsResolver::HandleConnected(Ptr<Socket> s)
{
    auto it = FindStream(s);
    if (it != m_pending.end())
    {
        s->Send(AdcBytesPacket(AdcDnsTcpFrame(it->second.wire)));
    }
}

void
AdcDnsResolver::HandleStreamError(Ptr<Socket> s)
{
    auto it = FindStream(s);
    if (it != m_pending.end())
    {
        NS_LOG_INFO("query " << it->first << ": TCP connection ended before the answer");
        TryFailed(it->first);
    }
}

void
AdcDnsResolver::HandleTcpRead(Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv())
    {
        auto it = FindStream(s);
        if (it == m_pending.end())
        {
            return; // answered: the rest is not read
        }
        const std::vector<uint8_t> bytes = AdcPacketBytes(p);
        for (const auto& frame : it->second.framer.Feed(bytes))
        {
            HandleMessage(frame, true);
        }
        it = FindStream(s);
        if (it != m_pending.end() && it->second.framer.HasError())
        {
            NoteDrop(bytes, it->second.framer.GetError());
            TryFailed(it->first);
            return;
        }
    }
}

void
AdcDnsResolver::HandleUdpRead(Ptr<Socket> s)
{
    Address from;
    while (Ptr<Packet> p = s->RecvFrom(from))
    {
        const std::vector<uint8_t> bytes = AdcPacketBytes(p);
        if (!AdcSameEndpoint(from, AdcSocketEndpoint(m_server, AdcDnsMessage::kDnsPort)))
        {
            NoteDrop(bytes, "AdcDnsResolver: a datagram not from the server's address and port");
            continue;
        }
        HandleMessage(bytes, false);
    }
}

void
AdcDnsResolver::HandleMessage(const std::vector<uint8_t>& bytes, bool stream)
{
    std::string error;
    const std::optional<AdcDnsMessage> r = AdcDnsMessage::Parse(bytes, &error);
    if (!r)
    {
        NoteDrop(bytes, "AdcDnsResolver: malformed response: " + error);
        return;
    }
    if (!r->qr)
    {
        NoteDrop(bytes, "AdcDnsResolver: a query (QR clear), not a response");
        return;
    }
    auto it = m_pending.find(r->id);
    if (it == m_pending.end())
    {
        NoteDrop(bytes,
                 "AdcDnsResolver: ID " + std::to_string(r->id) + " matches no outstanding query");
        return;
    }
    Pending& q = it->second;
    const bool sameQuestion =
        r->questions.size() == 1 && AdcDnsName::Equal(r->questions[0].name, q.question.name) &&
        r->questions[0].qtype == q.question.qtype && r->questions[0].qclass == q.question.qclass;
    if (!sameQuestion)
    {
        NoteDrop(bytes,
                 "AdcDnsResolver: the question does not match query ID " + std::to_string(r->id));
        return;
    }
    if (r->tc && !stream)
    {
        if (q.tcp)
        {
            NoteDrop(bytes, "AdcDnsResolver: truncated response while asking over TCP");
            return;
        }
        NS_LOG_INFO("query " << r->id << " truncated: asking again over TCP");
        q.timer.Cancel();
        q.tcp = true;
        ++m_tcpRetries;
        Send(r->id);
        return;
    }
    ++m_answered;
    m_answerTrace(*r, Simulator::Now() - q.firstSent);
    Finish(r->id, Addresses(q.question, *r), r->rcode);
}

void
AdcDnsResolver::Finish(uint16_t id, std::vector<AdcIpAddress> addresses, uint8_t rcode)
{
    auto it = m_pending.find(id);
    Pending q = std::move(it->second);
    m_pending.erase(it);
    q.timer.Cancel();
    CloseStream(q);
    if (!q.cb.IsNull())
    {
        q.cb(q.question.name, std::move(addresses), rcode);
    }
}

void
AdcDnsResolver::NoteDrop(const std::vector<uint8_t>& bytes, const std::string& reason)
{
    NS_LOG_INFO("drop: " << reason);
    ++m_drops;
    m_dropTrace(AdcBytesPacket(bytes), reason);
}

std::vector<AdcIpAddress>
AdcDnsResolver::Addresses(const AdcDnsQuestion& q, const AdcDnsMessage& response)
{
    std::string owner = q.name;
    for (int step = 0; step < kMaxCnameChain; ++step)
    {
        auto cname = std::find_if(response.answers.begin(),
                                  response.answers.end(),
                                  [&owner](const AdcDnsResourceRecord& rr) {
                                      return rr.type == AdcDnsMessage::TYPE_CNAME &&
                                             AdcDnsName::Equal(rr.name, owner);
                                  });
        std::optional<std::string> target;
        if (cname != response.answers.end())
        {
            target = cname->GetTargetName();
        }
        if (!target)
        {
            break;
        }
        owner = *target;
    }
    std::vector<AdcIpAddress> addresses;
    for (const auto& rr : response.answers)
    {
        if (rr.type != q.qtype || !AdcDnsName::Equal(rr.name, owner))
        {
            continue;
        }
        if (auto a = rr.GetA())
        {
            addresses.emplace_back(*a);
        }
        else if (auto a6 = rr.GetAaaa())
        {
            addresses.emplace_back(*a6);
        }
    }
    return addresses;
}

} // namespace ns3
