/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: an authoritative DNS server application (RFC 1035) over UDP and TCP.
 */

#include "adc-dns-server.h"

#include "ns3/adc-config-error.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcDnsServer");

NS_OBJECT_ENSURE_REGISTERED(AdcDnsServer);

namespace
{

constexpr uint8_t kQrBit = 0x80; //!< QR in the third header byte
constexpr uint8_t kTcBit = 0x02; //!< TC in the third header byte
constexpr uint8_t kRdBit = 0x01; //!< RD in the third header byte

/// \param bytes the message \return a packet holding them (for the Drop trace)
Ptr<const Packet>
BytesPacket(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

} // namespace

TypeId
AdcDnsServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcDnsServer")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcDnsServer>()
            .AddAttribute("Port",
                          "UDP and TCP port to serve on, IPv4 and IPv6 any-address "
                          "(53, RFC 1035 section 4.2).",
                          UintegerValue(AdcDnsMessage::kDnsPort),
                          MakeUintegerAccessor(&AdcDnsServer::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("MaxUdpPayload",
                          "Largest UDP response in bytes (512..65535; 512 is RFC 1035 "
                          "section 4.2.1's limit without EDNS). Longer responses are truncated "
                          "and have TC set.",
                          UintegerValue(AdcDnsMessage::kMaxUdpBytes),
                          MakeUintegerAccessor(&AdcDnsServer::SetMaxUdpPayload,
                                               &AdcDnsServer::GetMaxUdpPayload),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Query",
                            "A well-formed query was received (one call per question).",
                            MakeTraceSourceAccessor(&AdcDnsServer::m_queryTrace),
                            "ns3::AdcDnsServer::QueryTracedCallback")
            .AddTraceSource("Response",
                            "A response was sent (as sent: truncated over UDP when too large).",
                            MakeTraceSourceAccessor(&AdcDnsServer::m_responseTrace),
                            "ns3::AdcDnsServer::ResponseTracedCallback")
            .AddTraceSource("Drop",
                            "A message was dropped unanswered, with the reason.",
                            MakeTraceSourceAccessor(&AdcDnsServer::m_dropTrace),
                            "ns3::AdcDnsServer::DropTracedCallback");
    return tid;
}

AdcDnsServer::AdcDnsServer() = default;

AdcDnsServer::~AdcDnsServer() = default;

void
AdcDnsServer::AddRecord(const AdcDnsResourceRecord& rr)
{
    AdcDnsName::ToLabels(rr.name); // throws AdcConfigError naming the bad name
    m_byName.emplace(Key(rr.name), m_records.size());
    m_records.push_back(rr);
}

const std::vector<AdcDnsResourceRecord>&
AdcDnsServer::GetRecords() const
{
    return m_records;
}

uint64_t
AdcDnsServer::GetQueries() const
{
    return m_queries;
}

uint64_t
AdcDnsServer::GetResponses(uint8_t rcode) const
{
    return rcode < m_rcodes.size() ? m_rcodes[rcode] : 0;
}

uint64_t
AdcDnsServer::GetTruncated() const
{
    return m_truncated;
}

uint64_t
AdcDnsServer::GetDrops() const
{
    return m_drops;
}

uint64_t
AdcDnsServer::GetTcpConnections() const
{
    return m_tcpConnections;
}

void
AdcDnsServer::DoDispose()
{
    for (auto& s : m_udp)
    {
        AdcDetachSocket(s, false);
    }
    for (auto& s : m_listen)
    {
        AdcStopListening(s, false);
    }
    for (auto& [s, conn] : m_tcp)
    {
        AdcDetachSocket(s, false);
    }
    m_udp.clear();
    m_listen.clear();
    m_tcp.clear();
    Application::DoDispose();
}

std::string
AdcDnsServer::Key(const std::string& name)
{
    try
    {
        std::string key = AdcDnsName::Canonical(name);
        std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) {
            return static_cast<char>(std::tolower(c));
        });
        return key;
    }
    catch (const AdcConfigError&)
    {
        return "";
    }
}

std::vector<AdcDnsResourceRecord>
AdcDnsServer::Answer(const AdcDnsQuestion& q, const Address& /* from */)
{
    std::vector<AdcDnsResourceRecord> answers;
    auto [first, last] = m_byName.equal_range(Key(q.name));
    for (auto it = first; it != last; ++it)
    {
        const AdcDnsResourceRecord& rr = m_records[it->second];
        if (q.qtype == AdcDnsMessage::TYPE_ANY || rr.type == q.qtype)
        {
            answers.push_back(rr);
            answers.back().name = q.name; // owner as asked: compresses against the question
        }
    }
    return answers;
}

bool
AdcDnsServer::HasName(const std::string& name) const
{
    return m_byName.count(Key(name)) > 0;
}

void
AdcDnsServer::SetMaxUdpPayload(uint32_t bytes)
{
    if (bytes < AdcDnsMessage::kMaxUdpBytes || bytes > AdcDnsMessage::kMaxMessage)
    {
        throw AdcConfigError("AdcDnsServer: MaxUdpPayload " + std::to_string(bytes) +
                             " is not allowed; use 512..65535 bytes");
    }
    m_maxUdpPayload = bytes;
}

uint32_t
AdcDnsServer::GetMaxUdpPayload() const
{
    return m_maxUdpPayload;
}

void
AdcDnsServer::StartApplication()
{
    OpenSockets(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    if (GetNode()->GetObject<Ipv6>())
    {
        OpenSockets(Inet6SocketAddress(Ipv6Address::GetAny(), m_port));
    }
}

void
AdcDnsServer::OpenSockets(const Address& local)
{
    Ptr<Socket> udp = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    if (udp->Bind(local) != 0)
    {
        throw AdcConfigError("AdcDnsServer: Port " + std::to_string(m_port) +
                             " cannot be bound for UDP on node " +
                             std::to_string(GetNode()->GetId()) + "; use a free port");
    }
    udp->SetRecvCallback(MakeCallback(&AdcDnsServer::HandleUdpRead, this));
    m_udp.push_back(udp);

    Ptr<Socket> tcp = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    if (tcp->Bind(local) != 0 || tcp->Listen() != 0)
    {
        throw AdcConfigError("AdcDnsServer: Port " + std::to_string(m_port) +
                             " cannot be listened on for TCP on node " +
                             std::to_string(GetNode()->GetId()) + "; use a free port");
    }
    tcp->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                           MakeCallback(&AdcDnsServer::HandleAccept, this));
    m_listen.push_back(tcp);
}

void
AdcDnsServer::StopApplication()
{
    for (auto& s : m_udp)
    {
        AdcDetachSocket(s, true);
    }
    for (auto& s : m_listen)
    {
        AdcStopListening(s, true);
    }
    // Closing may call back synchronously: take the connections out first.
    std::map<Ptr<Socket>, TcpConnection> open;
    open.swap(m_tcp);
    for (auto& [s, conn] : open)
    {
        AdcDetachSocket(s, true);
    }
    m_udp.clear();
    m_listen.clear();
}

void
AdcDnsServer::HandleUdpRead(Ptr<Socket> s)
{
    Address from;
    while (Ptr<Packet> p = s->RecvFrom(from))
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        std::optional<AdcDnsMessage> response = Respond(bytes, from, false);
        if (!response)
        {
            continue;
        }
        const std::vector<uint8_t> out = Encode(*response, true);
        s->SendTo(Create<Packet>(out.data(), static_cast<uint32_t>(out.size())), 0, from);
        NoteResponse(from, *response);
    }
}

void
AdcDnsServer::HandleAccept(Ptr<Socket> s, const Address& from)
{
    ++m_tcpConnections;
    TcpConnection& conn = m_tcp[s];
    conn.peer = from;
    s->SetRecvCallback(MakeCallback(&AdcDnsServer::HandleTcpRead, this));
    s->SetSendCallback(MakeCallback(&AdcDnsServer::HandleTcpSend, this));
    s->SetCloseCallbacks(MakeCallback(&AdcDnsServer::HandleTcpPeerClose, this),
                         MakeCallback(&AdcDnsServer::HandleTcpError, this));
}

void
AdcDnsServer::HandleTcpRead(Ptr<Socket> s)
{
    auto it = m_tcp.find(s);
    if (it == m_tcp.end())
    {
        return;
    }
    TcpConnection& conn = it->second;
    while (Ptr<Packet> p = s->Recv())
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        for (const auto& frame : conn.framer.Feed(bytes))
        {
            if (std::optional<AdcDnsMessage> response = Respond(frame, conn.peer, true))
            {
                const std::vector<uint8_t> out = AdcDnsTcpFrame(Encode(*response, false));
                conn.tx.Push(Create<Packet>(out.data(), static_cast<uint32_t>(out.size())));
                NoteResponse(conn.peer, *response);
            }
        }
        if (conn.framer.HasError())
        {
            NoteDrop(bytes, conn.framer.GetError());
            m_tcp.erase(it);
            AdcDetachSocket(s, true);
            return;
        }
    }
    FlushTcp(s);
}

void
AdcDnsServer::HandleTcpSend(Ptr<Socket> s, uint32_t /* available */)
{
    FlushTcp(s);
}

void
AdcDnsServer::FlushTcp(Ptr<Socket> s)
{
    auto it = m_tcp.find(s);
    if (it == m_tcp.end())
    {
        return;
    }
    it->second.tx.Flush(s);
    if (it->second.peerClosed && it->second.tx.IsEmpty())
    {
        m_tcp.erase(it);
        AdcDetachSocket(s, true); // TCP sends what it holds, then FIN
    }
}

void
AdcDnsServer::HandleTcpPeerClose(Ptr<Socket> s)
{
    auto it = m_tcp.find(s);
    if (it != m_tcp.end())
    {
        it->second.peerClosed = true;
        FlushTcp(s);
    }
}

void
AdcDnsServer::HandleTcpError(Ptr<Socket> s)
{
    if (m_tcp.erase(s) > 0)
    {
        AdcDetachSocket(s, false);
    }
}

std::optional<AdcDnsMessage>
AdcDnsServer::Respond(const std::vector<uint8_t>& bytes, const Address& from, bool tcp)
{
    if (bytes.size() < AdcDnsMessage::kHeaderBytes)
    {
        NoteDrop(bytes,
                 "AdcDnsServer: " + std::to_string(bytes.size()) +
                     " bytes are shorter than the 12-byte DNS header");
        return std::nullopt;
    }
    if (bytes[2] & kQrBit)
    {
        NoteDrop(bytes, "AdcDnsServer: a response (QR set) sent to the server, not a query");
        return std::nullopt;
    }
    std::string error;
    std::optional<AdcDnsMessage> query = AdcDnsMessage::Parse(bytes, &error);
    if (!query)
    {
        NS_LOG_INFO("FORMERR to " << (tcp ? "TCP" : "UDP") << " client: " << error);
        AdcDnsMessage r; // RFC 1035 4.1.1: the header is echoed, the question could not be read
        r.id = static_cast<uint16_t>((bytes[0] << 8) | bytes[1]);
        r.qr = true;
        r.opcode = (bytes[2] >> 3) & 0x0F;
        r.rd = (bytes[2] & kRdBit) != 0;
        r.rcode = AdcDnsMessage::FORMERR;
        return r;
    }
    ++m_queries;
    return Decide(*query, from);
}

AdcDnsMessage
AdcDnsServer::Decide(const AdcDnsMessage& query, const Address& from)
{
    for (const auto& q : query.questions)
    {
        m_queryTrace(from, q);
    }
    if (query.opcode != AdcDnsMessage::QUERY)
    {
        return AdcDnsMessage::MakeResponse(query, AdcDnsMessage::NOTIMP, false);
    }
    if (query.questions.size() != 1)
    {
        return AdcDnsMessage::MakeResponse(query, AdcDnsMessage::FORMERR, false);
    }
    const AdcDnsQuestion& q = query.questions.front();
    if (q.qclass != AdcDnsMessage::CLASS_IN && q.qclass != AdcDnsMessage::TYPE_ANY)
    {
        return AdcDnsMessage::MakeResponse(query, AdcDnsMessage::REFUSED, false);
    }
    std::vector<AdcDnsResourceRecord> answers = Answer(q, from);
    const bool nxdomain = answers.empty() && !HasName(q.name);
    AdcDnsMessage r =
        AdcDnsMessage::MakeResponse(query,
                                    nxdomain ? AdcDnsMessage::NXDOMAIN : AdcDnsMessage::NOERROR,
                                    true);
    r.answers = std::move(answers);
    return r;
}

std::vector<uint8_t>
AdcDnsServer::Encode(AdcDnsMessage& response, bool udp)
{
    std::vector<uint8_t> out;
    try
    {
        out = udp ? response.SerializeTruncated(m_maxUdpPayload) : response.Serialize();
    }
    catch (const AdcConfigError& e)
    {
        // Records an Answer() override chose that cannot be written (a bad name, a TCP
        // message above 65535 bytes): the server failed, it says so (RFC 1035 4.1.1).
        NS_LOG_WARN("SERVFAIL: " << e.what());
        response.answers.clear();
        response.authority.clear();
        response.additional.clear();
        response.aa = false;
        response.rcode = AdcDnsMessage::SERVFAIL;
        out = response.Serialize();
    }
    if (udp && (out[2] & kTcBit))
    {
        ++m_truncated;
        response = *AdcDnsMessage::Parse(out); // trace what was sent
    }
    return out;
}

void
AdcDnsServer::NoteResponse(const Address& to, const AdcDnsMessage& response)
{
    ++m_rcodes[response.rcode & 0x0F];
    m_responseTrace(to, response);
}

void
AdcDnsServer::NoteDrop(const std::vector<uint8_t>& bytes, const std::string& reason)
{
    NS_LOG_INFO("drop: " << reason);
    ++m_drops;
    m_dropTrace(BytesPacket(bytes), reason);
}

} // namespace ns3
