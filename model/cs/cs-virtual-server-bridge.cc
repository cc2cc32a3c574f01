/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc CS: the CS virtual servers that relay TCP connections on the shared AdcTcpRelay:
 * SSL_BRIDGE (TLS passed through, the LB vserver and service chosen per connection from the
 * ClientHello, SSLSESSION entries made from the ServerHello), SSL_TCP (TLS terminated by the
 * relay's AdcTlsRelayCodec, chosen once the handshake completed) and TCP (chosen at the
 * accept); and UDP, whose sessions the shared AdcUdpRelay relays, chosen at their first
 * datagram.
 */

#include "cs-virtual-server.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CsVirtualServerBridge");

namespace
{

/// The client bytes the chooser waits for a ClientHello before refusing: the record layer's
/// largest record and its header.
constexpr uint32_t kMaxHelloBytes = AdcTlsRecord::kMaxFragment + AdcTlsRecord::kHeaderBytes;

} // namespace

void
CsVirtualServer::StartBridge()
{
    m_relay = CreateObject<AdcTcpRelay>();
    m_relay->SetAttribute("Port", UintegerValue(m_port));
    m_relay->SetAttribute("UseClientSource", BooleanValue(false));
    m_relay->SetDestinationChooser(
        [this](uint64_t id, const InetSocketAddress& client, Ptr<const Packet> bytes) {
            return ChooseBridge(id, client, bytes);
        });
    m_relay->SetByteObserver([this](uint64_t id, bool toServer, Ptr<const Packet> bytes) {
        ObserveBridge(id, toServer, bytes);
    });
    m_relay->SetEndObserver(
        [this](uint64_t id, const std::string& outcome) { EndBridge(id, outcome); });
    if (m_serviceType == "SSL_TCP")
    {
        // TLS terminated on the relay's client side, with the engine's TLS settings.
        TimeValue timeout;
        m_engine->GetAttribute("TlsSessionTimeout", timeout);
        UintegerValue seed;
        m_engine->GetAttribute("TlsSeed", seed);
        m_tlsCache.SetTimeout(timeout.Get());
        const uint64_t base =
            seed.Get() * 0x9e3779b97f4a7c15ULL ^ (static_cast<uint64_t>(GetNode()->GetId()) << 40);
        m_relay->SetClientCodec([this, base](uint64_t id, const InetSocketAddress& client) {
            auto codec = std::make_shared<AdcTlsRelayCodec>(m_tlsCache, base ^ id, nullptr);
            Bridge& b = m_bridges[id];
            b.tls = codec;
            b.front.peerIp = client.GetIpv4();
            b.front.peerPort = client.GetPort();
            return codec;
        });
    }
    GetNode()->AddApplication(m_relay); // starts now, as this application does
}

void
CsVirtualServer::StartUdp()
{
    m_udp = CreateObject<AdcUdpRelay>();
    m_udp->SetAttribute("Port", UintegerValue(m_port));
    m_udp->SetDestinationChooser(
        [this](uint64_t id, const InetSocketAddress& client, Ptr<const Packet> /* first */) {
            // A UDP session is a request: SOURCEIP, then the policies on the client's address.
            AdcUdpRelay::Choice choice;
            const Ptr<AdcService> service =
                SelectConnection(m_bridges[id], client, AdcFlowKey::PROTO_UDP, false);
            if (!service)
            {
                m_bridges.erase(id); // the client's next datagram asks again
                choice.action = AdcUdpRelay::Choice::REFUSE;
                return choice;
            }
            choice.destination = service->GetAddress().GetIpv4();
            choice.port = service->GetPort();
            return choice;
        });
    m_udp->SetEndObserver(
        [this](uint64_t id, const std::string& outcome) { EndBridge(id, outcome); });
    GetNode()->AddApplication(m_udp); // starts now, as this application does
}

void
CsVirtualServer::ObserveBridge(uint64_t id, bool toServer, Ptr<const Packet> bytes)
{
    Bridge& b = m_bridges[id];
    if (m_serviceType != "SSL_BRIDGE")
    {
        return; // TCP: nothing to read; SSL_TCP: the codec knows the session
    }
    std::vector<uint8_t> data(bytes->GetSize());
    bytes->CopyData(data.data(), static_cast<uint32_t>(data.size()));
    if (toServer)
    {
        b.hellos.FeedFromClient(data);
        return;
    }
    b.hellos.FeedFromServer(data);
    if (m_serviceType == "TCP" || b.recorded || b.target < 0 || !b.hellos.IsHelloDone())
    {
        return;
    }
    b.recorded = true;
    const std::vector<uint8_t>& session = b.hellos.GetSessionId();
    if (m_persistence != AdcPersistenceType::SSLSESSION || session.empty() ||
        (b.persisted && b.hellos.IsResumed()))
    {
        return; // no SSLSESSION, or the session already has its entry
    }
    // A new session (or one the server did not resume): its entry names this connection's
    // LB vserver and service.
    const AdcPersistenceKey key = AdcPersistenceKey::FromSslSessionId(session);
    if (m_table->Insert(key, static_cast<uint32_t>(b.target), Simulator::Now(), Minutes(m_timeout)))
    {
        ++m_created;
        TracePersistence("create", key, b.target);
    }
}

AdcTcpRelay::Choice
CsVirtualServer::ChooseBridge(uint64_t id, const InetSocketAddress& client, Ptr<const Packet> bytes)
{
    Bridge& b = m_bridges[id];
    AdcTcpRelay::Choice choice;
    const bool tcp = m_serviceType == "TCP"; // plain TCP: decided at once, nothing read
    const bool sslTcp = m_serviceType == "SSL_TCP";
    if (sslTcp)
    {
        if (!b.tls->GetEndpoint().IsEstablished())
        {
            return choice; // WAIT: the handshake goes on (the relay ends one that fails)
        }
    }
    else if (!tcp && !b.hellos.IsClientHelloSeen())
    {
        if (b.hellos.GetError().empty() && bytes->GetSize() < kMaxHelloBytes)
        {
            return choice; // WAIT: the ClientHello is still arriving
        }
        ++m_unserved;
        m_decisionTrace(AdcEndpointText(client.GetIpv4(), client.GetPort()), "", "", "", "none");
        choice.action = AdcTcpRelay::Choice::REFUSE; // not TLS
        return choice;
    }
    // The session to look up: SSL_TCP's own (resumed or new), or the one the ClientHello offers.
    const std::vector<uint8_t>& session =
        sslTcp ? b.tls->GetEndpoint().GetSessionId() : b.hellos.GetOfferedSessionId();
    b.front.tlsSessionId.assign(session.begin(), session.end());
    b.front.tlsResumed = sslTcp && b.tls->GetEndpoint().IsResumed();
    b.front.tlsServerName =
        sslTcp ? b.tls->GetEndpoint().GetServerName() : b.hellos.GetServerName();
    // SSL_BRIDGE's SSLSESSION entries wait for the ServerHello; SSL_TCP knows its session.
    const Ptr<AdcService> service = SelectConnection(b, client, AdcFlowKey::PROTO_TCP, sslTcp);
    if (!service)
    {
        choice.action = AdcTcpRelay::Choice::REFUSE;
        return choice;
    }
    choice.action = AdcTcpRelay::Choice::CONNECT;
    choice.destination = service->GetAddress().GetIpv4();
    choice.port = service->GetPort();
    return choice;
}

Ptr<AdcService>
CsVirtualServer::SelectConnection(Bridge& b,
                                  const InetSocketAddress& client,
                                  uint8_t protocol,
                                  bool sessionKnown)
{
    const std::string who = AdcEndpointText(client.GetIpv4(), client.GetPort());
    ++m_requests;
    b.front.peerIp = client.GetIpv4();
    b.front.peerPort = client.GetPort();
    AdcLbContext ctx;
    ctx.flow = AdcFlowKey(AdcIpAddress(client.GetIpv4()),
                          AdcIpAddress(),
                          client.GetPort(),
                          m_port,
                          protocol);
    const Found found = Lookup(ctx, b.front, AdcHttpCookies());
    AdcSelection sel = found.sel;
    std::string how = found.how;
    b.persisted = static_cast<bool>(sel.service);
    if (!b.persisted)
    {
        sel = SelectAnew(ctx, AdcHttpCookies()); // no cookies at L4
        how = sel.how;
    }
    if (!sel.service)
    {
        ++m_unserved;
        m_decisionTrace(who, "", "", "", "none");
        return nullptr;
    }
    m_hits += b.persisted ? 1 : 0;
    b.target = TargetOf(sel);
    ++m_perTarget[b.target];
    sel.vserver->ConnectionOpened(sel.service);
    if (!b.persisted && (m_persistence == AdcPersistenceType::SOURCEIP ||
                         (sessionKnown && m_persistence == AdcPersistenceType::SSLSESSION)))
    {
        const AdcPersistenceKey key = TableKey(ctx, b.front);
        if (m_table->Insert(key,
                            static_cast<uint32_t>(b.target),
                            Simulator::Now(),
                            Minutes(m_timeout)))
        {
            ++m_created;
            TracePersistence("create", key, b.target);
        }
    }
    m_decisionTrace(who, "", sel.vserver->GetName(), sel.service->GetName(), how);
    return sel.service;
}

void
CsVirtualServer::EndBridge(uint64_t id, const std::string& outcome)
{
    const auto it = m_bridges.find(id);
    if (it == m_bridges.end())
    {
        return;
    }
    const Bridge& b = it->second;
    if (b.target >= 0)
    {
        const auto& [lb, service] = m_targets.at(b.target);
        lb->ConnectionClosed(service);
    }
    else if (outcome == "codec-failed")
    {
        // SSL_TCP: the handshake failed before any choice (the client got the alert).
        ++m_unserved;
        m_decisionTrace(AdcEndpointText(b.front.peerIp, b.front.peerPort), "", "", "", "none");
    }
    m_bridges.erase(it);
}

} // namespace ns3
