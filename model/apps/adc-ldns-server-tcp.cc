/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The LDNS asks again over TCP when an upstream answer comes truncated (RFC 7766 section 5:
 * a resolver receiving a response with TC set retries over TCP; RFC 1035 section 4.2.2: the
 * 2-byte length framing).
 */

#include "adc-ldns-server.h"

#include "ns3/adc-socket-util.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcLdnsServerTcp");

void
AdcLdnsServer::RetryOverTcp(const Key& key, const Address& server)
{
    Upstream& up = m_inflight.at(key);
    const uint16_t id = FreeQueryId();
    Ptr<Socket> s = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    const int bound = Inet6SocketAddress::IsMatchingType(server) ? s->Bind6() : s->Bind();
    if (bound != 0 || s->Connect(server) != 0)
    {
        NS_LOG_INFO("TCP retry for " << key.name << " could not start: next try");
        AdcDetachSocket(s, true);
        NextTry(key);
        return;
    }
    ++m_tcpRetries;
    up.tcp = s;
    up.tcpServer = server;
    up.tcpId = id;
    up.framer = AdcDnsTcpFramer();
    m_upTcp[s] = key;
    // The try's timeout keeps running: a TCP retry that outlasts it gives way to the next try.
    const AdcDnsMessage query =
        AdcDnsMessage::MakeQuery(id, up.question.name, up.question.qtype, false);
    const std::vector<uint8_t> frame = AdcDnsTcpFrame(query.Serialize());
    s->SetConnectCallback(
        Callback<void, Ptr<Socket>>([frame](Ptr<Socket> c) { c->Send(AdcBytesPacket(frame)); }),
        MakeCallback(&AdcLdnsServer::UpstreamTcpFailed, this));
    s->SetRecvCallback(MakeCallback(&AdcLdnsServer::HandleUpstreamTcpRead, this));
    s->SetCloseCallbacks(MakeCallback(&AdcLdnsServer::UpstreamTcpFailed, this),
                         MakeCallback(&AdcLdnsServer::UpstreamTcpFailed, this));
    NS_LOG_INFO("truncated answer for " << key.name << ": asking again over TCP");
}

void
AdcLdnsServer::HandleUpstreamTcpRead(Ptr<Socket> s)
{
    while (Ptr<Packet> p = s->Recv())
    {
        const auto it = m_upTcp.find(s);
        if (it == m_upTcp.end())
        {
            return;
        }
        const Key key = it->second;
        Upstream& up = m_inflight.at(key);
        const std::vector<uint8_t> bytes = AdcPacketBytes(p);
        for (const auto& message : up.framer.Feed(bytes))
        {
            std::string error;
            const std::optional<AdcDnsMessage> r = AdcDnsMessage::Parse(message, &error);
            if (!r || !r->qr || r->id != up.tcpId || r->questions.size() != 1 ||
                !AdcDnsName::Equal(r->questions[0].name, up.question.name) ||
                r->questions[0].qtype != up.question.qtype)
            {
                NoteDrop(message,
                         "AdcLdnsServer: TCP answer that is not the one asked" +
                             (error.empty() ? std::string() : ": " + error));
                continue;
            }
            if (r->rcode != AdcDnsMessage::NOERROR && r->rcode != AdcDnsMessage::NXDOMAIN)
            {
                NextTry(key); // lame over TCP too: the next server
                return;
            }
            Complete(key, &*r); // closes s
            return;
        }
        if (up.framer.HasError())
        {
            NoteDrop(bytes, up.framer.GetError());
            UpstreamTcpFailed(s);
            return;
        }
    }
}

void
AdcLdnsServer::UpstreamTcpFailed(Ptr<Socket> s)
{
    const auto it = m_upTcp.find(s);
    if (it == m_upTcp.end())
    {
        return;
    }
    const Key key = it->second;
    Upstream& up = m_inflight.at(key);
    CloseUpstreamTcp(up);
    NextTry(key);
}

void
AdcLdnsServer::CloseUpstreamTcp(Upstream& up)
{
    if (!up.tcp)
    {
        return;
    }
    Ptr<Socket> s = up.tcp;
    up.tcp = nullptr;
    m_upTcp.erase(s);
    AdcDetachSocket(s, true);
}

} // namespace ns3
