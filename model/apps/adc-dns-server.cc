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
#include "ns3/simulator.h"
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
                          "Largest UDP response to an EDNS(0) query in bytes (512..65535), "
                          "and the payload size the server's OPT record announces (RFC 6891 "
                          "section 6.2.3); the requester's size, at least 512, is honoured up "
                          "to it. Queries without EDNS get at most 512 (RFC 1035 section "
                          "4.2.1). Longer responses are truncated and have TC set. Default "
                          "1280: NetScaler's `set dns parameter -maxUDPPacketSize`.",
                          UintegerValue(1280),
                          MakeUintegerAccessor(&AdcDnsServer::SetMaxUdpPayload,
                                               &AdcDnsServer::GetMaxUdpPayload),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TcpIdleTimeout",
                          "A TCP connection on which nothing was received for this long, "
                          "with no response left to send, is closed (RFC 7766 section "
                          "6.2.3: idle timeouts of the order of seconds). Zero: never.",
                          TimeValue(Seconds(10)),
                          MakeTimeAccessor(&AdcDnsServer::m_tcpIdleTimeout),
                          MakeTimeChecker(Seconds(0)))
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
                            "ns3::AdcDnsServer::DropTracedCallback")
            .AddTraceSource("Malformed",
                            "A query was answered FORMERR, with the reason.",
                            MakeTraceSourceAccessor(&AdcDnsServer::m_malformedTrace),
                            "ns3::AdcDnsServer::MalformedTracedCallback");
    return tid;
}

AdcDnsServer::AdcDnsServer() = default;

AdcDnsServer::~AdcDnsServer() = default;

void
AdcDnsServer::AddRecord(const AdcDnsResourceRecord& rr)
{
    AdcDnsName::ToLabels(rr.name); // throws AdcConfigError naming the bad name
    const std::string key = Key(rr.name);
    if (rr.type == AdcDnsMessage::TYPE_SOA)
    {
        if (!AdcDnsSoa::FromRecord(rr))
        {
            throw AdcConfigError("AdcDnsServer: SOA record of '" + rr.name +
                                 "': RDATA is not MNAME, RNAME and five 32-bit fields");
        }
        if (m_zones.count(key) > 0)
        {
            throw AdcConfigError("AdcDnsServer: zone '" + rr.name +
                                 "' has an SOA record already (a zone has one)");
        }
        m_zones[key] = m_records.size();
        m_zoneOrder.push_back(key);
    }
    m_byName.emplace(key, m_records.size());
    m_records.push_back(rr);
}

std::vector<std::string>
AdcDnsServer::GetZones() const
{
    return m_zoneOrder;
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

uint64_t
AdcDnsServer::GetTcpIdleCloses() const
{
    return m_tcpIdleCloses;
}

uint64_t
AdcDnsServer::GetMalformed() const
{
    return m_malformed;
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
        conn.idle.Cancel();
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
        conn.idle.Cancel();
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
        std::size_t limit = AdcDnsMessage::kMaxUdpBytes;
        std::optional<AdcDnsMessage> response = Respond(bytes, from, false, limit);
        if (!response)
        {
            continue;
        }
        const std::vector<uint8_t> out = Encode(*response, limit);
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
    ArmIdle(s);
}

void
AdcDnsServer::ArmIdle(Ptr<Socket> s)
{
    auto it = m_tcp.find(s);
    if (it == m_tcp.end() || m_tcpIdleTimeout.IsZero())
    {
        return;
    }
    it->second.idle.Cancel();
    it->second.idle = Simulator::Schedule(m_tcpIdleTimeout, &AdcDnsServer::HandleIdle, this, s);
}

void
AdcDnsServer::HandleIdle(Ptr<Socket> s)
{
    auto it = m_tcp.find(s);
    if (it == m_tcp.end())
    {
        return;
    }
    if (!it->second.tx.IsEmpty())
    {
        ArmIdle(s); // responses still waiting for room: not idle (RFC 7766 6.2.3)
        return;
    }
    NS_LOG_INFO("closing TCP connection idle for " << m_tcpIdleTimeout.As(Time::S));
    ++m_tcpIdleCloses;
    DropTcp(s, true);
}

void
AdcDnsServer::DropTcp(Ptr<Socket> s, bool close)
{
    auto it = m_tcp.find(s);
    if (it == m_tcp.end())
    {
        return;
    }
    it->second.idle.Cancel();
    m_tcp.erase(it);
    AdcDetachSocket(s, close); // closing: TCP sends what it holds, then FIN
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
    ArmIdle(s);
    while (Ptr<Packet> p = s->Recv())
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        for (const auto& frame : conn.framer.Feed(bytes))
        {
            std::size_t limit = 0;
            if (std::optional<AdcDnsMessage> response = Respond(frame, conn.peer, true, limit))
            {
                const std::vector<uint8_t> out = AdcDnsTcpFrame(Encode(*response, 0));
                conn.tx.Push(Create<Packet>(out.data(), static_cast<uint32_t>(out.size())));
                NoteResponse(conn.peer, *response);
            }
        }
        if (conn.framer.HasError())
        {
            NoteDrop(bytes, conn.framer.GetError());
            DropTcp(s, true);
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
        DropTcp(s, true);
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
    DropTcp(s, false);
}

std::optional<AdcDnsMessage>
AdcDnsServer::Respond(const std::vector<uint8_t>& bytes,
                      const Address& from,
                      bool tcp,
                      std::size_t& udpLimit)
{
    udpLimit = AdcDnsMessage::kMaxUdpBytes;
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
        AdcDnsMessage q; // RFC 1035 4.1.1: the header is echoed, the question could not be read
        q.id = static_cast<uint16_t>((bytes[0] << 8) | bytes[1]);
        q.opcode = (bytes[2] >> 3) & 0x0F;
        q.rd = (bytes[2] & kRdBit) != 0;
        return Formerr(q, from, error);
    }
    ++m_queries;
    return Decide(*query, from, udpLimit);
}

AdcDnsMessage
AdcDnsServer::Formerr(const AdcDnsMessage& query, const Address& from, const std::string& reason)
{
    ++m_malformed;
    m_malformedTrace(from, reason);
    return AdcDnsMessage::MakeResponse(query, AdcDnsMessage::FORMERR, false);
}

std::vector<uint8_t>
AdcDnsServer::Encode(AdcDnsMessage& response, std::size_t udpLimit)
{
    std::vector<uint8_t> out;
    try
    {
        out = udpLimit > 0 ? response.SerializeTruncated(udpLimit) : response.Serialize();
    }
    catch (const AdcConfigError& e)
    {
        // Records an Answer() override chose that cannot be written (a bad name, a TCP
        // message above 65535 bytes): the server failed, it says so (RFC 1035 4.1.1).
        NS_LOG_WARN("SERVFAIL: " << e.what());
        response.answers.clear();
        response.authority.clear();
        std::vector<AdcDnsResourceRecord> opt;
        for (const auto& rr : response.additional)
        {
            if (rr.type == AdcDnsMessage::TYPE_OPT)
            {
                opt.push_back(rr);
            }
        }
        response.additional = opt;
        response.aa = false;
        response.rcode = AdcDnsMessage::SERVFAIL;
        out = response.Serialize();
    }
    if (udpLimit > 0 && (out[2] & kTcBit))
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
