/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc GSLB: the MEP agent (site-to-site metric exchange over TCP).
 */

#include "gslb-mep-agent.h"

#include "ns3/adc-config-error.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GslbMepAgent");

NS_OBJECT_ENSURE_REGISTERED(GslbMepAgent);

namespace
{

/// Most records of one NETWORK METRIC UPDATE (the u16 length holds the whole PDU).
constexpr std::size_t kMaxNetworkRecords =
    (AdcMepMessage::kMaxBytes - AdcMepMessage::kHeaderBytes) / AdcMepMessage::kNetworkMetricBytes;
/// Most records of one SITE METRIC UPDATE.
constexpr std::size_t kMaxSiteRecords =
    (AdcMepMessage::kMaxBytes - AdcMepMessage::kHeaderBytes) / AdcMepMessage::kSiteMetricBytes;

/// \param rtt a time \return it in whole milliseconds (nearest), capped as the database stores
uint16_t
RttMs(Time rtt)
{
    const int64_t ms = (std::max<int64_t>(rtt.GetNanoSeconds(), 0) + 500000) / 1000000;
    return static_cast<uint16_t>(std::min<int64_t>(ms, GslbRttDatabase::kMaxRttMs));
}

/// \param t a time \return "N ms"
std::string
MsText(Time t)
{
    return std::to_string(t.GetMilliSeconds()) + " ms";
}

} // namespace

TypeId
GslbMepAgent::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GslbMepAgent")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<GslbMepAgent>()
            .AddAttribute("Port",
                          "TCP port of MEP (NetScaler's plain MEP: 3011; 3009 is MEP over "
                          "secure RPC, not modelled).",
                          UintegerValue(AdcMepMessage::kPort),
                          MakeUintegerAccessor(&GslbMepAgent::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("KeepAliveInterval",
                          "A connection on which nothing was sent for this long carries a KEEP "
                          "ALIVE (> 0, less than KeepAliveTimeout).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&GslbMepAgent::m_keepAliveInterval),
                          MakeTimeChecker())
            .AddAttribute("KeepAliveTimeout",
                          "A peer heard nothing from for this long is down: its connection is "
                          "closed and retried (NetScaler's mepkeepalivetimeout).",
                          TimeValue(Seconds(10)),
                          MakeTimeAccessor(&GslbMepAgent::m_keepAliveTimeout),
                          MakeTimeChecker())
            .AddAttribute("ConnectRetryInterval",
                          "The connecting side abandons an attempt not up after this long and "
                          "tries again; a closed connection is retried after it (> 0).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&GslbMepAgent::m_connectRetryInterval),
                          MakeTimeChecker())
            .AddAttribute("SiteMetricInterval",
                          "Time between two SITE METRIC UPDATEs of the local services' states "
                          "(NetScaler sends site health about once a second; > 0).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&GslbMepAgent::m_siteMetricInterval),
                          MakeTimeChecker())
            .AddAttribute("LdnsRefreshInterval",
                          "Time between two sends of the local RTTs of the LDNS that queried "
                          "this site meanwhile, which keep them alive (probed) at the other "
                          "sites; below the LDNS entry timeout (GslbSiteApps sets a third of "
                          "-ldnsEntryTimeout). 0: never.",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&GslbMepAgent::m_refreshInterval),
                          MakeTimeChecker())
            .AddAttribute("LocalAddress",
                          "This site's IP: connections are made from it (0.0.0.0: the node's "
                          "first non-loopback IPv4 address).",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&GslbMepAgent::m_localAddress),
                          MakeIpv4AddressChecker())
            .AddTraceSource("Message",
                            "A MEP message was sent to (sent = true) or received from a peer "
                            "site.",
                            MakeTraceSourceAccessor(&GslbMepAgent::m_messageTrace),
                            "ns3::GslbMepAgent::MessageTracedCallback")
            .AddTraceSource("PeerState",
                            "A peer site went up (connection established) or down.",
                            MakeTraceSourceAccessor(&GslbMepAgent::m_peerStateTrace),
                            "ns3::GslbMepAgent::PeerStateTracedCallback")
            .AddTraceSource("Drop",
                            "Bytes from a peer that are not MEP (the connection is then "
                            "closed), or a refused connection (empty packet), with the reason.",
                            MakeTraceSourceAccessor(&GslbMepAgent::m_dropTrace),
                            "ns3::GslbMepAgent::DropTracedCallback");
    return tid;
}

GslbMepAgent::GslbMepAgent()
    : m_port(AdcMepMessage::kPort),
      m_keepAliveInterval(Seconds(1)),
      m_keepAliveTimeout(Seconds(10)),
      m_connectRetryInterval(Seconds(5)),
      m_siteMetricInterval(Seconds(1)),
      m_refreshInterval(Seconds(60)),
      m_localAddress(Ipv4Address::GetAny())
{
    NS_LOG_FUNCTION(this);
}

GslbMepAgent::~GslbMepAgent() = default;

void
GslbMepAgent::DoDispose()
{
    m_siteMetricEvent.Cancel();
    if (m_listener)
    {
        AdcStopListening(m_listener, false);
        m_listener = nullptr;
    }
    for (auto& p : m_peers)
    {
        p->retryEvent.Cancel();
        p->keepAliveEvent.Cancel();
        p->timeoutEvent.Cancel();
        if (p->connecting)
        {
            AdcDetachSocket(p->connecting, false);
        }
        if (p->socket)
        {
            AdcDetachSocket(p->socket, false);
        }
    }
    m_peers.clear();
    m_db = nullptr;
    m_localServices = LocalServicesCallback();
    m_siteMetric = SiteMetricCallback();
    m_peerState = PeerStateCallback();
    Application::DoDispose();
}

// ---- configuration --------------------------------------------------------------------------

void
GslbMepAgent::SetDatabase(Ptr<GslbRttDatabase> db)
{
    m_db = db;
}

void
GslbMepAgent::AddPeer(uint32_t site, const Ipv4Address& siteIp)
{
    for (const auto& p : m_peers)
    {
        if (p->site == site || p->ip == siteIp)
        {
            std::ostringstream ip;
            ip << siteIp;
            throw AdcConfigError("GslbMepAgent: peer site " + std::to_string(site) + " IP '" +
                                 ip.str() + "' repeats a peer's site or IP; each site is " +
                                 "added once, with its own IP");
        }
    }
    auto p = std::make_unique<Peer>();
    p->site = site;
    p->ip = siteIp;
    m_peers.push_back(std::move(p));
}

void
GslbMepAgent::SetLocalAddress(Ipv4Address address)
{
    m_localAddress = address;
}

void
GslbMepAgent::SetLocalServicesCallback(LocalServicesCallback cb)
{
    m_localServices = cb;
}

void
GslbMepAgent::SetSiteMetricCallback(SiteMetricCallback cb)
{
    m_siteMetric = cb;
}

void
GslbMepAgent::SetPeerStateCallback(PeerStateCallback cb)
{
    m_peerState = cb;
}

bool
GslbMepAgent::IsPeerUp(uint32_t site) const
{
    for (const auto& p : m_peers)
    {
        if (p->site == site)
        {
            return p->up;
        }
    }
    return false;
}

void
GslbMepAgent::CheckConfig()
{
    if (!m_db || m_db->GetNSites() == 0)
    {
        throw AdcConfigError("GslbMepAgent: database is not set (or has no sites); call "
                             "SetDatabase with a database whose sites are set before start");
    }
    if (!m_keepAliveInterval.IsStrictlyPositive() || m_keepAliveTimeout <= m_keepAliveInterval)
    {
        throw AdcConfigError("GslbMepAgent: KeepAliveInterval '" + MsText(m_keepAliveInterval) +
                             "' and KeepAliveTimeout '" + MsText(m_keepAliveTimeout) +
                             "': the interval must be > 0 and less than the timeout");
    }
    if (!m_connectRetryInterval.IsStrictlyPositive() || !m_siteMetricInterval.IsStrictlyPositive())
    {
        throw AdcConfigError("GslbMepAgent: ConnectRetryInterval '" +
                             MsText(m_connectRetryInterval) + "' and SiteMetricInterval '" +
                             MsText(m_siteMetricInterval) + "' must both be > 0");
    }
    if (m_refreshInterval.IsStrictlyNegative())
    {
        throw AdcConfigError("GslbMepAgent: LdnsRefreshInterval '" + MsText(m_refreshInterval) +
                             "' is negative; allowed 0 (never) or more");
    }
    if (m_localAddress == Ipv4Address::GetAny())
    {
        Ptr<Ipv4> ipv4 = GetNode()->GetObject<Ipv4>();
        for (uint32_t i = 0; ipv4 && i < ipv4->GetNInterfaces(); ++i)
        {
            for (uint32_t a = 0; a < ipv4->GetNAddresses(i); ++a)
            {
                const Ipv4Address local = ipv4->GetAddress(i, a).GetLocal();
                if (m_localAddress == Ipv4Address::GetAny() && !local.IsLocalhost())
                {
                    m_localAddress = local;
                }
            }
        }
        if (m_localAddress == Ipv4Address::GetAny())
        {
            throw AdcConfigError("GslbMepAgent: LocalAddress '0.0.0.0' and the node has no "
                                 "IPv4 address; set LocalAddress or install IPv4 first");
        }
    }
    const uint32_t local = m_db->GetLocalSite();
    for (const auto& p : m_peers)
    {
        if (p->site >= m_db->GetNSites() || p->site == local || p->ip == m_localAddress)
        {
            std::ostringstream ip;
            ip << p->ip;
            throw AdcConfigError("GslbMepAgent: peer site '" + std::to_string(p->site) + "' (" +
                                 ip.str() + ") is not another site of the database; allowed " +
                                 "0 to " + std::to_string(m_db->GetNSites() - 1) +
                                 " except the local site " + std::to_string(local) +
                                 ", with an IP other than the local one");
        }
        p->connector = m_localAddress.Get() < p->ip.Get();
    }
}

// ---- connections ----------------------------------------------------------------------------

void
GslbMepAgent::StartApplication()
{
    CheckConfig();
    m_running = true;
    m_listener = AdcListenTcp(GetNode(), m_port);
    if (!m_listener)
    {
        throw AdcConfigError("GslbMepAgent: Port '" + std::to_string(m_port) +
                             "' cannot be listened on; a free TCP port is required");
    }
    m_listener->SetAcceptCallback(MakeCallback(&GslbMepAgent::AcceptRequest, this),
                                  MakeCallback(&GslbMepAgent::Accepted, this));
    for (auto& p : m_peers)
    {
        if (p->connector)
        {
            Connect(p.get());
        }
    }
    m_siteMetricEvent =
        Simulator::Schedule(m_siteMetricInterval, &GslbMepAgent::SiteMetricTick, this);
    if (m_refreshInterval.IsStrictlyPositive())
    {
        m_refreshEvent = Simulator::Schedule(m_refreshInterval, &GslbMepAgent::RefreshTick, this);
    }
}

void
GslbMepAgent::StopApplication()
{
    m_running = false;
    m_siteMetricEvent.Cancel();
    m_refreshEvent.Cancel();
    if (m_listener)
    {
        AdcStopListening(m_listener, true);
        m_listener = nullptr;
    }
    for (auto& p : m_peers)
    {
        p->retryEvent.Cancel();
        if (p->connecting)
        {
            AdcDetachSocket(p->connecting, true);
            p->connecting = nullptr;
        }
        CloseAndRetry(p.get(), "stopped");
    }
}

void
GslbMepAgent::Connect(Peer* p)
{
    if (!m_running || p->socket)
    {
        return;
    }
    if (p->connecting)
    {
        AdcDetachSocket(p->connecting, true); // an attempt that did not come up in time
    }
    NS_LOG_INFO("site " << m_db->GetLocalSite() << " connects to site " << p->site << " at "
                        << p->ip);
    p->connecting = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    p->connecting->Bind(InetSocketAddress(m_localAddress, 0));
    p->connecting->SetConnectCallback(MakeCallback(&GslbMepAgent::ConnectSucceeded, this),
                                      MakeCallback(&GslbMepAgent::ConnectFailed, this));
    p->connecting->Connect(InetSocketAddress(p->ip, m_port));
    p->retryEvent.Cancel();
    p->retryEvent =
        Simulator::Schedule(m_connectRetryInterval, &GslbMepAgent::RetryConnect, this, p);
}

void
GslbMepAgent::RetryConnect(Peer* p)
{
    Connect(p);
}

void
GslbMepAgent::ConnectSucceeded(Ptr<Socket> s)
{
    for (auto& p : m_peers)
    {
        if (p->connecting == s)
        {
            p->connecting = nullptr;
            p->retryEvent.Cancel();
            Established(p.get(), s);
            return;
        }
    }
}

void
GslbMepAgent::ConnectFailed(Ptr<Socket> s)
{
    for (auto& p : m_peers)
    {
        if (p->connecting == s)
        {
            NS_LOG_INFO("connection to site " << p->site << " refused; retry pending");
            p->connecting = nullptr; // the retry event, still pending, tries again
            return;
        }
    }
}

bool
GslbMepAgent::AcceptRequest(Ptr<Socket> s, const Address& from)
{
    const Ipv4Address ip = InetSocketAddress::ConvertFrom(from).GetIpv4();
    const Peer* p = PeerOfIp(ip);
    std::ostringstream who;
    who << ip;
    if (!m_running || p == nullptr)
    {
        m_dropTrace(Create<Packet>(),
                    "connection refused: " + who.str() + " is not a known peer site");
        return false;
    }
    if (p->connector)
    {
        m_dropTrace(Create<Packet>(),
                    "connection refused: " + who.str() +
                        " has the higher site IP (this site connects to it)");
        return false;
    }
    return true;
}

void
GslbMepAgent::Accepted(Ptr<Socket> s, const Address& from)
{
    Peer* p = PeerOfIp(InetSocketAddress::ConvertFrom(from).GetIpv4());
    if (p == nullptr || !m_running)
    {
        AdcDetachSocket(s, true);
        return;
    }
    if (p->socket)
    {
        // The peer opened a new connection: it gave up the old one (e.g. after a timeout on
        // its side); the new one replaces it.
        AdcDetachSocket(p->socket, true);
        p->socket = nullptr;
        p->keepAliveEvent.Cancel();
        p->timeoutEvent.Cancel();
    }
    Established(p, s);
}

void
GslbMepAgent::Established(Peer* p, Ptr<Socket> s)
{
    NS_LOG_INFO("site " << m_db->GetLocalSite() << ": connection with site " << p->site
                        << " established");
    p->socket = s;
    p->framer = AdcMepFramer();
    p->tx = AdcTxQueue();
    s->SetRecvCallback(MakeCallback(&GslbMepAgent::Received, this));
    s->SetCloseCallbacks(MakeCallback(&GslbMepAgent::Closed, this),
                         MakeCallback(&GslbMepAgent::Closed, this));
    s->SetSendCallback(MakeCallback(&GslbMepAgent::SendRoom, this));
    p->lastHeard = Simulator::Now();
    p->lastSent = Simulator::Now();
    SetUp(p, true);
    SendAllRtts(p);
    SendSiteMetrics(p);
    p->keepAliveEvent.Cancel();
    p->keepAliveEvent = Simulator::Schedule(p->lastSent + m_keepAliveInterval - Simulator::Now(),
                                            &GslbMepAgent::KeepAliveCheck,
                                            this,
                                            p);
    p->timeoutEvent.Cancel();
    p->timeoutEvent = Simulator::Schedule(m_keepAliveTimeout, &GslbMepAgent::TimeoutCheck, this, p);
}

void
GslbMepAgent::Received(Ptr<Socket> s)
{
    Peer* p = PeerOfSocket(s);
    Ptr<Packet> packet;
    while ((packet = s->Recv()))
    {
        if (p == nullptr || p->socket != s)
        {
            continue; // a connection already given up
        }
        std::vector<uint8_t> bytes(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        for (const AdcMepMessage& m : p->framer.Feed(bytes.data(), bytes.size()))
        {
            Deliver(p, m);
        }
        if (p->framer.HasError())
        {
            NS_LOG_INFO("site " << p->site << ": " << p->framer.GetError());
            m_dropTrace(packet, "malformed MEP: " + p->framer.GetError());
            CloseAndRetry(p, "malformed MEP");
            return;
        }
    }
}

void
GslbMepAgent::Closed(Ptr<Socket> s)
{
    Peer* p = PeerOfSocket(s);
    if (p != nullptr)
    {
        CloseAndRetry(p, "closed by the peer");
    }
}

void
GslbMepAgent::SendRoom(Ptr<Socket> s, uint32_t /* room */)
{
    Peer* p = PeerOfSocket(s);
    if (p != nullptr)
    {
        p->tx.Flush(s);
    }
}

void
GslbMepAgent::CloseAndRetry(Peer* p, const std::string& reason)
{
    if (p->socket)
    {
        NS_LOG_INFO("site " << m_db->GetLocalSite() << ": connection with site " << p->site
                            << " closed: " << reason);
        AdcDetachSocket(p->socket, true);
        p->socket = nullptr;
    }
    p->keepAliveEvent.Cancel();
    p->timeoutEvent.Cancel();
    SetUp(p, false);
    if (p->connector && m_running && !p->connecting)
    {
        p->retryEvent.Cancel();
        p->retryEvent =
            Simulator::Schedule(m_connectRetryInterval, &GslbMepAgent::RetryConnect, this, p);
    }
}

void
GslbMepAgent::SetUp(Peer* p, bool up)
{
    if (p->up == up)
    {
        return;
    }
    p->up = up;
    m_peerStateTrace(p->site, up);
    if (!m_peerState.IsNull())
    {
        m_peerState(p->site, up);
    }
}

GslbMepAgent::Peer*
GslbMepAgent::PeerOfSocket(Ptr<Socket> s)
{
    for (auto& p : m_peers)
    {
        if (p->socket == s)
        {
            return p.get();
        }
    }
    return nullptr;
}

GslbMepAgent::Peer*
GslbMepAgent::PeerOfIp(Ipv4Address ip)
{
    for (auto& p : m_peers)
    {
        if (p->ip == ip)
        {
            return p.get();
        }
    }
    return nullptr;
}

// ---- messages -------------------------------------------------------------------------------

void
GslbMepAgent::Deliver(Peer* p, const AdcMepMessage& m)
{
    p->lastHeard = Simulator::Now();
    m_messageTrace(p->site, false, m);
    if (m.type == AdcMepMessage::NETWORK_METRIC_UPDATE)
    {
        for (const AdcMepNetworkMetric& r : m.networkMetrics)
        {
            m_db->UpdateRemote(p->site, r.ldns, MilliSeconds(r.rttMs));
            if (!m_remoteRtt.IsNull())
            {
                m_remoteRtt(p->site, AdcIpAddress(r.ldns), MilliSeconds(r.rttMs));
            }
        }
    }
    else if (m.type == AdcMepMessage::SITE_METRIC_UPDATE && !m_siteMetric.IsNull())
    {
        m_siteMetric(p->site, m.siteMetrics);
    }
}

void
GslbMepAgent::Send(Peer* p, const AdcMepMessage& m)
{
    if (!p->socket)
    {
        return;
    }
    const std::vector<uint8_t> bytes = m.Serialize();
    p->tx.Push(Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size())));
    p->tx.Flush(p->socket);
    p->lastSent = Simulator::Now();
    m_messageTrace(p->site, true, m);
}

void
GslbMepAgent::SendRtt(const AdcIpAddress& ldns, Time rtt)
{
    if (!ldns.IsV4())
    {
        return; // MEP records carry IPv4 LDNS only: IPv6 RTTs stay local
    }
    const AdcMepMessage m = AdcMepMessage::NetworkMetricUpdate({{ldns.GetIpv4(), RttMs(rtt), 0}});
    for (auto& p : m_peers)
    {
        Send(p.get(), m);
    }
}

void
GslbMepAgent::SendAllRtts(Peer* p)
{
    SendLocalRtts(p, m_db->GetLdnsAddresses());
}

void
GslbMepAgent::SendLocalRtts(Peer* p, const std::vector<AdcIpAddress>& ldns)
{
    const uint32_t local = m_db->GetLocalSite();
    std::vector<AdcMepNetworkMetric> records;
    for (const AdcIpAddress& a : ldns)
    {
        const std::optional<Time> rtt = a.IsV4() ? m_db->GetRtt(a, local) : std::nullopt;
        if (rtt)
        {
            records.push_back({a.GetIpv4(), RttMs(*rtt), 0});
        }
        if (records.size() == kMaxNetworkRecords)
        {
            Send(p, AdcMepMessage::NetworkMetricUpdate(records));
            records.clear();
        }
    }
    if (!records.empty())
    {
        Send(p, AdcMepMessage::NetworkMetricUpdate(records));
    }
}

void
GslbMepAgent::NoteQuery(const AdcIpAddress& ldns)
{
    if (ldns.IsV4() && m_queriedSet.insert(ldns).second)
    {
        m_queried.push_back(ldns);
    }
}

void
GslbMepAgent::SetRemoteRttCallback(RemoteRttCallback cb)
{
    m_remoteRtt = cb;
}

void
GslbMepAgent::RefreshTick()
{
    // In the order first queried: the same run sends the same bytes.
    for (auto& p : m_peers)
    {
        if (p->socket)
        {
            SendLocalRtts(p.get(), m_queried);
        }
    }
    m_queried.clear();
    m_queriedSet.clear();
    m_refreshEvent = Simulator::Schedule(m_refreshInterval, &GslbMepAgent::RefreshTick, this);
}

void
GslbMepAgent::SendSiteMetrics(Peer* p)
{
    if (m_localServices.IsNull())
    {
        return;
    }
    const std::vector<AdcMepSiteMetric> all = m_localServices();
    for (std::size_t i = 0; i < all.size(); i += kMaxSiteRecords)
    {
        const std::size_t end = std::min(all.size(), i + kMaxSiteRecords);
        Send(p,
             AdcMepMessage::SiteMetricUpdate(
                 std::vector<AdcMepSiteMetric>(all.begin() + i, all.begin() + end)));
    }
}

void
GslbMepAgent::SiteMetricTick()
{
    for (auto& p : m_peers)
    {
        if (p->socket)
        {
            SendSiteMetrics(p.get());
        }
    }
    m_siteMetricEvent =
        Simulator::Schedule(m_siteMetricInterval, &GslbMepAgent::SiteMetricTick, this);
}

void
GslbMepAgent::KeepAliveCheck(Peer* p)
{
    if (!p->socket)
    {
        return;
    }
    if (Simulator::Now() >= p->lastSent + m_keepAliveInterval)
    {
        Send(p, AdcMepMessage::KeepAlive());
    }
    p->keepAliveEvent = Simulator::Schedule(p->lastSent + m_keepAliveInterval - Simulator::Now(),
                                            &GslbMepAgent::KeepAliveCheck,
                                            this,
                                            p);
}

void
GslbMepAgent::TimeoutCheck(Peer* p)
{
    if (!p->socket)
    {
        return;
    }
    const Time deadline = p->lastHeard + m_keepAliveTimeout;
    if (Simulator::Now() >= deadline)
    {
        CloseAndRetry(p, "keep-alive timeout: nothing heard for " + MsText(m_keepAliveTimeout));
        return;
    }
    p->timeoutEvent =
        Simulator::Schedule(deadline - Simulator::Now(), &GslbMepAgent::TimeoutCheck, this, p);
}

} // namespace ns3
