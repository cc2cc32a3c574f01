/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc SLB routing: the BGP-4 speaker's configuration and routes (Adj-RIB-In per peer,
 * originated and propagated prefixes). Sessions are in adc-bgp-session.cc.
 */

#include "adc-bgp-speaker.h"

#include "ns3/adc-config-error.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdcBgpSpeaker");
NS_OBJECT_ENSURE_REGISTERED(AdcBgpSpeaker);

std::string
AdcBgpRouteChange::ToString() const
{
    std::ostringstream os;
    os << (announced ? "announce " : "withdraw ") << prefix << "/" << unsigned(length) << " via "
       << nextHop << " from " << peer;
    return os.str();
}

TypeId
AdcBgpSpeaker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdcBgpSpeaker")
            .SetParent<Application>()
            .SetGroupName("Adc")
            .AddConstructor<AdcBgpSpeaker>()
            .AddAttribute(
                "LocalAs",
                "This speaker's AS number, 1..4294967295 (4-octet ASes, RFC 6793).",
                UintegerValue(65000),
                MakeUintegerAccessor(&AdcBgpSpeaker::SetLocalAs, &AdcBgpSpeaker::GetLocalAs),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("RouterId",
                          "The BGP identifier; 0.0.0.0: the node's first non-loopback IPv4 "
                          "address.",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&AdcBgpSpeaker::m_routerId),
                          MakeIpv4AddressChecker())
            .AddAttribute(
                "HoldTime",
                "The hold time this speaker offers in its OPENs: 0 (no keepalives) "
                "or 3 s to 65535 s, whole seconds (RFC 4271 4.2; 90 s suggested in "
                "section 10).",
                TimeValue(Seconds(90)),
                MakeTimeAccessor(&AdcBgpSpeaker::SetHoldTime, &AdcBgpSpeaker::GetHoldTime),
                MakeTimeChecker())
            .AddAttribute("KeepaliveTime",
                          "Interval between KEEPALIVEs; 0: a third of the negotiated hold time "
                          "(whole seconds, at least 1 s).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&AdcBgpSpeaker::m_keepaliveTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ConnectRetryTime",
                          "Wait before a session starts again after failing or dropping "
                          "(RFC 4271 10 suggests 120 s).",
                          TimeValue(Seconds(120)),
                          MakeTimeAccessor(&AdcBgpSpeaker::m_connectRetryTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Port",
                          "TCP port to listen on and connect to (RFC 4271 8.2.1: 179).",
                          UintegerValue(AdcBgpMessage::kPort),
                          MakeUintegerAccessor(&AdcBgpSpeaker::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Propagate",
                          "Advertise prefixes learnt from a peer to the other peers "
                          "(next-hop-self, AS_PATH prepended) while at least one peer offers "
                          "them.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdcBgpSpeaker::m_propagate),
                          MakeBooleanChecker())
            .AddTraceSource("SessionState",
                            "A session changed FSM state: peer, old state, new state.",
                            MakeTraceSourceAccessor(&AdcBgpSpeaker::m_stateTrace),
                            "ns3::AdcBgpSpeaker::SessionStateTracedCallback")
            .AddTraceSource("Message",
                            "A BGP message sent or received: peer, direction, message.",
                            MakeTraceSourceAccessor(&AdcBgpSpeaker::m_messageTrace),
                            "ns3::AdcBgpSpeaker::MessageTracedCallback")
            .AddTraceSource("RouteChange",
                            "A route learnt from a peer or withdrawn (also when its session "
                            "drops).",
                            MakeTraceSourceAccessor(&AdcBgpSpeaker::m_routeTrace),
                            "ns3::AdcBgpSpeaker::RouteChangeTracedCallback")
            .AddTraceSource("Notification",
                            "A NOTIFICATION sent or received: peer, direction, notification.",
                            MakeTraceSourceAccessor(&AdcBgpSpeaker::m_notificationTrace),
                            "ns3::AdcBgpSpeaker::NotificationTracedCallback")
            .AddTraceSource("Drop",
                            "Input that belonged to no session was discarded: source, reason.",
                            MakeTraceSourceAccessor(&AdcBgpSpeaker::m_dropTrace),
                            "ns3::AdcBgpSpeaker::DropTracedCallback");
    return tid;
}

AdcBgpSpeaker::AdcBgpSpeaker()
    : m_localAs(65000),
      m_holdTime(Seconds(90)),
      m_port(AdcBgpMessage::kPort),
      m_propagate(false)
{
}

AdcBgpSpeaker::~AdcBgpSpeaker() = default;

std::string
AdcBgpSpeaker::StateName(State s)
{
    static const char* const kNames[] =
        {"Idle", "Connect", "Active", "OpenSent", "OpenConfirm", "Established"};
    return s <= ESTABLISHED ? kNames[s] : "Unknown";
}

void
AdcBgpSpeaker::SetLocalAs(uint32_t as)
{
    if (as == 0)
    {
        throw AdcConfigError("AdcBgpSpeaker: LocalAs 0; allowed: 1..4294967295");
    }
    m_localAs = as;
}

uint32_t
AdcBgpSpeaker::GetLocalAs() const
{
    return m_localAs;
}

void
AdcBgpSpeaker::SetHoldTime(Time hold)
{
    int64_t ms = hold.GetMilliSeconds();
    if (ms < 0 || ms % 1000 != 0 || (ms > 0 && ms < 3000) || ms > 65535000)
    {
        throw AdcConfigError("AdcBgpSpeaker: HoldTime " + std::to_string(hold.GetSeconds()) +
                             " s; allowed: 0 or 3..65535 whole seconds (RFC 4271 4.2)");
    }
    m_holdTime = hold;
}

Time
AdcBgpSpeaker::GetHoldTime() const
{
    return m_holdTime;
}

void
AdcBgpSpeaker::AddPeer(const AdcIpAddress& peer,
                       uint32_t peerAs,
                       const AdcIpAddress& local,
                       bool passive,
                       const AdcIpAddress& nextHop6)
{
    std::string what;
    if (peer.IsNone() || local.GetFamily() != peer.GetFamily())
    {
        what = "peer " + peer.ToString() + " local " + local.ToString() +
               "; allowed: two addresses of one family";
    }
    else if (peerAs == 0)
    {
        what = "peer AS 0; allowed: 1..4294967295";
    }
    else if (FindPeer(peer) != nullptr)
    {
        what = "peer " + peer.ToString() + " added twice; allowed: one session per peer";
    }
    else if (!nextHop6.IsNone() && !nextHop6.IsV6())
    {
        what = "IPv6 next hop " + nextHop6.ToString() + "; allowed: an IPv6 address or none";
    }
    if (!what.empty())
    {
        throw AdcConfigError("AdcBgpSpeaker::AddPeer: " + what);
    }
    auto p = std::make_unique<Peer>();
    p->address = peer;
    p->as = peerAs;
    p->local = local;
    p->passive = passive;
    p->nextHop6 = nextHop6;
    m_peers.push_back(std::move(p));
    StartPeer(*m_peers.back());
}

void
AdcBgpSpeaker::Announce(const AdcIpAddress& prefix, uint8_t length)
{
    uint8_t max = prefix.IsV6() ? 128 : 32;
    if (prefix.IsNone() || length > max || prefix.Masked(length) != prefix)
    {
        throw AdcConfigError("AdcBgpSpeaker::Announce: prefix " + prefix.ToString() + "/" +
                             std::to_string(length) +
                             "; allowed: an IPv4 (/0../32) or IPv6 (/0../128) network address "
                             "with its host bits zero");
    }
    m_originated.insert({prefix, length});
    Reconcile({prefix, length});
}

void
AdcBgpSpeaker::Withdraw(const AdcIpAddress& prefix, uint8_t length)
{
    m_originated.erase({prefix, length});
    Reconcile({prefix, length});
}

void
AdcBgpSpeaker::SetRouteCallback(Callback<void, const AdcBgpRouteChange&> cb)
{
    m_routeCallback = cb;
}

AdcBgpSpeaker::State
AdcBgpSpeaker::GetState(const AdcIpAddress& peer) const
{
    const Peer* p = FindPeer(peer);
    return p == nullptr ? IDLE : p->reported;
}

Time
AdcBgpSpeaker::GetNegotiatedHoldTime(const AdcIpAddress& peer) const
{
    const Peer* p = FindPeer(peer);
    const Connection* c = p == nullptr ? nullptr : EstablishedConnection(*p);
    return c == nullptr ? Time() : c->hold;
}

Time
AdcBgpSpeaker::GetKeepaliveInterval(const AdcIpAddress& peer) const
{
    const Peer* p = FindPeer(peer);
    const Connection* c = p == nullptr ? nullptr : EstablishedConnection(*p);
    return c == nullptr ? Time() : c->keepalive;
}

AdcBgpPeerCounters
AdcBgpSpeaker::GetCounters(const AdcIpAddress& peer) const
{
    const Peer* p = FindPeer(peer);
    return p == nullptr ? AdcBgpPeerCounters() : p->counters;
}

std::map<std::string, AdcIpAddress>
AdcBgpSpeaker::GetAdjRibIn(const AdcIpAddress& peer) const
{
    std::map<std::string, AdcIpAddress> out;
    const Peer* p = FindPeer(peer);
    if (p != nullptr)
    {
        for (const auto& [prefix, path] : p->ribIn)
        {
            out[prefix.first.ToString() + "/" + std::to_string(prefix.second)] = path.nextHop;
        }
    }
    return out;
}

const std::map<std::string, uint64_t>&
AdcBgpSpeaker::GetDrops() const
{
    return m_drops;
}

Ipv4Address
AdcBgpSpeaker::GetRouterId() const
{
    return m_identifier;
}

void
AdcBgpSpeaker::DoDispose()
{
    for (auto& p : m_peers)
    {
        p->connectRetry.Cancel();
        for (auto& c : p->conns)
        {
            c->holdTimer.Cancel();
            c->keepaliveTimer.Cancel();
        }
    }
    m_peers.clear();
    m_closed.clear();
    m_listeners.clear();
    m_routeCallback = MakeNullCallback<void, const AdcBgpRouteChange&>();
    Application::DoDispose();
}

void
AdcBgpSpeaker::StartApplication()
{
    m_identifier = m_routerId;
    Ptr<Ipv4> ipv4 = GetNode()->GetObject<Ipv4>();
    for (uint32_t i = 0;
         ipv4 && m_identifier == Ipv4Address::GetAny() && i < ipv4->GetNInterfaces();
         ++i)
    {
        for (uint32_t j = 0; j < ipv4->GetNAddresses(i); ++j)
        {
            Ipv4Address a = ipv4->GetAddress(i, j).GetLocal();
            if (!a.IsLocalhost() && m_identifier == Ipv4Address::GetAny())
            {
                m_identifier = a;
            }
        }
    }
    if (m_identifier == Ipv4Address::GetAny())
    {
        throw AdcConfigError("AdcBgpSpeaker: RouterId 0.0.0.0 and node " +
                             std::to_string(GetNode()->GetId()) +
                             " has no IPv4 address; allowed: a RouterId other than 0.0.0.0");
    }
    std::vector<Address> binds;
    if (ipv4)
    {
        binds.emplace_back(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    }
    if (GetNode()->GetObject<Ipv6>())
    {
        binds.emplace_back(Inet6SocketAddress(Ipv6Address::GetAny(), m_port));
    }
    for (const Address& a : binds)
    {
        Ptr<Socket> l = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        l->Bind(a);
        l->Listen();
        l->SetAcceptCallback(MakeCallback(&AdcBgpSpeaker::AcceptRequest, this),
                             MakeCallback(&AdcBgpSpeaker::Accepted, this));
        m_listeners.push_back(l);
    }
    m_running = true;
    for (auto& p : m_peers)
    {
        StartPeer(*p);
    }
}

// ---- routes -----------------------------------------------------------------------------------

void
AdcBgpSpeaker::ReceiveUpdate(Peer& p, Connection& c, const AdcBgpUpdate& u)
{
    for (const AdcBgpIpv4Prefix& w : u.withdrawn)
    {
        Forget(p, {w.address, w.length});
    }
    for (const AdcBgpIpv6Prefix& w : u.mpUnreach.value_or(std::vector<AdcBgpIpv6Prefix>()))
    {
        Forget(p, {w.address, w.length});
    }
    Path path;
    for (const AdcBgpAsPathSegment& seg : u.asPath.value_or(std::vector<AdcBgpAsPathSegment>()))
    {
        path.ases.insert(path.ases.end(), seg.ases.begin(), seg.ases.end());
    }
    std::size_t offered = u.nlri.size() + (u.mpReach ? u.mpReach->nlri.size() : 0);
    if (std::find(path.ases.begin(), path.ases.end(), m_localAs) != path.ases.end())
    {
        // RFC 4271 9.1.2: a route whose AS_PATH holds our own AS is a loop.
        p.counters.loopsIgnored += offered;
        return;
    }
    path.nextHop = u.nextHop.value_or(Ipv4Address::GetAny());
    for (const AdcBgpIpv4Prefix& n : u.nlri)
    {
        Learn(p, {n.address, n.length}, path);
    }
    if (u.mpReach)
    {
        path.nextHop = u.mpReach->nextHop;
        for (const AdcBgpIpv6Prefix& n : u.mpReach->nlri)
        {
            Learn(p, {n.address, n.length}, path);
        }
    }
}

void
AdcBgpSpeaker::Learn(Peer& p, const Prefix& prefix, const Path& path)
{
    auto it = p.ribIn.find(prefix);
    bool changed = it == p.ribIn.end() || it->second.nextHop != path.nextHop;
    if (it != p.ribIn.end() && changed)
    {
        // An implicit withdraw (RFC 4271 3.1): the old next hop leaves before the new comes.
        Report({p.address, prefix.first, prefix.second, it->second.nextHop, false});
    }
    p.ribIn[prefix] = path;
    if (changed)
    {
        Report({p.address, prefix.first, prefix.second, path.nextHop, true});
    }
    Reconcile(prefix);
}

void
AdcBgpSpeaker::Forget(Peer& p, const Prefix& prefix)
{
    auto it = p.ribIn.find(prefix);
    if (it == p.ribIn.end())
    {
        return;
    }
    AdcIpAddress nextHop = it->second.nextHop;
    p.ribIn.erase(it);
    Report({p.address, prefix.first, prefix.second, nextHop, false});
    Reconcile(prefix);
}

void
AdcBgpSpeaker::ForgetAll(Peer& p)
{
    std::map<Prefix, Path> lost;
    lost.swap(p.ribIn);
    p.ribOut.clear();
    for (const auto& [prefix, path] : lost)
    {
        Report({p.address, prefix.first, prefix.second, path.nextHop, false});
    }
    for (const auto& entry : lost)
    {
        Reconcile(entry.first);
    }
}

const AdcBgpSpeaker::Path*
AdcBgpSpeaker::BestOffer(const Prefix& prefix, const Peer* to) const
{
    bool toIbgp = to->as == m_localAs;
    for (const auto& p : m_peers)
    {
        auto it = p->ribIn.find(prefix);
        // Split horizon: never back to the peer it came from; iBGP routes are not passed
        // to iBGP peers (RFC 4271 9.1.1).
        if (p.get() == to || it == p->ribIn.end() || (toIbgp && p->as == m_localAs))
        {
            continue;
        }
        return &it->second;
    }
    return nullptr;
}

void
AdcBgpSpeaker::Reconcile(const Prefix& prefix)
{
    if (!m_running || m_halted)
    {
        return;
    }
    bool originated = m_originated.count(prefix) > 0;
    for (auto& p : m_peers)
    {
        Connection* c = EstablishedConnection(*p);
        if (c == nullptr)
        {
            continue;
        }
        const Path* learnt = (originated || !m_propagate) ? nullptr : BestOffer(prefix, p.get());
        bool wanted = originated || learnt != nullptr;
        bool has = p->ribOut.count(prefix) > 0;
        if (wanted && !has)
        {
            Advertise(*p, *c, prefix, learnt);
        }
        else if (!wanted && has)
        {
            Unadvertise(*p, *c, prefix);
        }
    }
}

void
AdcBgpSpeaker::SyncPeer(Peer& p)
{
    std::set<Prefix> all = m_originated;
    for (const auto& q : m_peers)
    {
        for (const auto& entry : q->ribIn)
        {
            all.insert(entry.first);
        }
    }
    for (const Prefix& prefix : all)
    {
        Reconcile(prefix);
    }
}

void
AdcBgpSpeaker::Advertise(Peer& p, Connection& c, const Prefix& prefix, const Path* learnt)
{
    std::vector<uint32_t> path;
    if (p.as != m_localAs)
    {
        path.push_back(m_localAs);
    }
    if (learnt != nullptr)
    {
        path.insert(path.end(), learnt->ases.begin(), learnt->ases.end());
    }
    if (!c.fourOctetAs)
    {
        // RFC 6793 4.2.2: a 4-octet AS is AS_TRANS to a 2-octet speaker.
        std::replace_if(
            path.begin(),
            path.end(),
            [](uint32_t as) { return as > 0xffff; },
            uint32_t(AdcBgpOpen::kAsTrans));
    }
    AdcBgpUpdate u;
    if (prefix.first.IsV4())
    {
        if (!c.ipv4)
        {
            return;
        }
        Ipv4Address nextHop = p.local.IsV4() ? p.local.GetIpv4() : m_identifier;
        u = AdcBgpUpdate::Announce({{prefix.first.GetIpv4(), prefix.second}}, path, nextHop);
    }
    else
    {
        AdcIpAddress nextHop = p.nextHop6.IsNone() ? p.local : p.nextHop6;
        if (!c.ipv6)
        {
            return;
        }
        if (!nextHop.IsV6())
        {
            Discard(p.address, "IPv6 prefix not sent: no IPv6 next hop for the peer");
            return;
        }
        u = AdcBgpUpdate::Announce6({{prefix.first.GetIpv6(), prefix.second}},
                                    path,
                                    nextHop.GetIpv6());
    }
    p.ribOut.insert(prefix);
    Send(p, c, AdcBgpMessage::Update(u));
}

void
AdcBgpSpeaker::Unadvertise(Peer& p, Connection& c, const Prefix& prefix)
{
    p.ribOut.erase(prefix);
    AdcBgpUpdate u = prefix.first.IsV4()
                         ? AdcBgpUpdate::Withdraw({{prefix.first.GetIpv4(), prefix.second}})
                         : AdcBgpUpdate::Withdraw6({{prefix.first.GetIpv6(), prefix.second}});
    Send(p, c, AdcBgpMessage::Update(u));
}

void
AdcBgpSpeaker::Report(const AdcBgpRouteChange& change)
{
    NS_LOG_INFO(change.ToString());
    m_routeTrace(change);
    if (!m_routeCallback.IsNull())
    {
        m_routeCallback(change);
    }
}

} // namespace ns3
