/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcBgpSpeaker (RFC 4271 over ns-3 TCP): sessions reach Established through OPEN and
 * KEEPALIVE; routes announced and withdrawn reach the peer with the right next hop (IPv4 NLRI
 * and MP-BGP IPv6); the hold time is the smaller of both OPENs and keepalives go every third;
 * a halted peer is dropped at exactly last receipt + hold with its routes; the session comes
 * back after ConnectRetryTime; malformed input gets the NOTIFICATION RFC 4271 6 prescribes;
 * connection collisions; propagation with AS-path loop prevention; and a pcap tshark reads.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-bgp-speaker.h"
#include "ns3/adc-config-error.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t kMuxAs = 65001;    //!< the MUX's AS
const uint32_t kRouterAs = 65002; //!< the first router's AS
const uint32_t kOtherAs = 65003;  //!< the second router's AS

/// Nodes in a line (link i: 10.1.<i+1>.0/24 and 2001:db8:<i+1>::/64, node i ".1"), plus
/// optional extra links between any two nodes.
struct Net
{
    NodeContainer nodes;                    //!< the nodes
    std::vector<Ipv4InterfaceContainer> v4; //!< per link: the two ends' IPv4 addresses
    std::vector<Ipv6InterfaceContainer> v6; //!< per link: the two ends' IPv6 addresses
    PointToPointHelper p2p;                 //!< the links' helper (for pcaps)

    /// \param n nodes \param links pairs of node indices to join
    Net(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& links)
    {
        Config::SetDefault("ns3::Icmpv6L4Protocol::DAD", BooleanValue(false));
        nodes.Create(n);
        InternetStackHelper stack;
        stack.Install(nodes);
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        for (std::size_t i = 0; i < links.size(); ++i)
        {
            NetDeviceContainer d =
                p2p.Install(nodes.Get(links[i].first), nodes.Get(links[i].second));
            Ipv4AddressHelper ip;
            ip.SetBase(("10.1." + std::to_string(i + 1) + ".0").c_str(), "255.255.255.0");
            v4.push_back(ip.Assign(d));
            Ipv6AddressHelper ip6;
            ip6.SetBase(("2001:db8:" + std::to_string(i + 1) + "::").c_str(), Ipv6Prefix(64));
            v6.push_back(ip6.Assign(d));
        }
    }

    /// \param link a link \param end 0 or 1 \return that end's IPv4 address
    AdcIpAddress A4(uint32_t link, uint32_t end) const
    {
        return v4[link].GetAddress(end);
    }

    /// \param link a link \param end 0 or 1 \return that end's global IPv6 address
    AdcIpAddress A6(uint32_t link, uint32_t end) const
    {
        return v6[link].GetAddress(end, 1);
    }
};

/// What one speaker's traces recorded, with times.
struct Log
{
    struct State
    {
        Time t;
        std::string peer, from, to;
    };

    struct Msg
    {
        Time t;
        std::string peer, dir;
        AdcBgpMessage m;
    };

    struct Route
    {
        Time t;
        AdcBgpRouteChange c;
    };

    struct Note
    {
        Time t;
        std::string peer, dir;
        AdcBgpNotification n;
    };

    std::vector<State> states;
    std::vector<Msg> msgs;
    std::vector<Route> routes;
    std::vector<Note> notes;

    void OnState(const AdcIpAddress& p, const std::string& from, const std::string& to)
    {
        states.push_back({Simulator::Now(), p.ToString(), from, to});
    }

    void OnMsg(const AdcIpAddress& p, const std::string& dir, const AdcBgpMessage& m)
    {
        msgs.push_back({Simulator::Now(), p.ToString(), dir, m});
    }

    void OnRoute(const AdcBgpRouteChange& c)
    {
        routes.push_back({Simulator::Now(), c});
    }

    void OnNote(const AdcIpAddress& p, const std::string& dir, const AdcBgpNotification& n)
    {
        notes.push_back({Simulator::Now(), p.ToString(), dir, n});
    }

    /// \param dir "sent" or "received" \param type a message type \return their times
    std::vector<Time> Times(const std::string& dir, uint8_t type) const
    {
        std::vector<Time> out;
        for (const Msg& m : msgs)
        {
            if (m.dir == dir && m.m.type == type)
            {
                out.push_back(m.t);
            }
        }
        return out;
    }

    /// \return the state transitions as "from>to"
    std::vector<std::string> Transitions() const
    {
        std::vector<std::string> out;
        for (const State& s : states)
        {
            out.push_back(s.from + ">" + s.to);
        }
        return out;
    }

    /// \param to a state name \return the times the session entered it
    std::vector<Time> Entered(const std::string& to) const
    {
        std::vector<Time> out;
        for (const State& s : states)
        {
            if (s.to == to)
            {
                out.push_back(s.t);
            }
        }
        return out;
    }
};

/// \return a speaker on \p node with \p as and \p hold, logging into \p log
Ptr<AdcBgpSpeaker>
MakeSpeaker(Ptr<Node> node, uint32_t as, Log& log, Time hold = Seconds(90), Time start = Seconds(1))
{
    Ptr<AdcBgpSpeaker> s = CreateObject<AdcBgpSpeaker>();
    s->SetAttribute("LocalAs", UintegerValue(as));
    s->SetAttribute("HoldTime", TimeValue(hold));
    node->AddApplication(s);
    s->SetStartTime(start);
    s->TraceConnectWithoutContext("SessionState", MakeCallback(&Log::OnState, &log));
    s->TraceConnectWithoutContext("Message", MakeCallback(&Log::OnMsg, &log));
    s->TraceConnectWithoutContext("RouteChange", MakeCallback(&Log::OnRoute, &log));
    s->TraceConnectWithoutContext("Notification", MakeCallback(&Log::OnNote, &log));
    return s;
}

/// \param dir direction \param log a log \return the UPDATEs in that direction
std::vector<AdcBgpUpdate>
Updates(const Log& log, const std::string& dir)
{
    std::vector<AdcBgpUpdate> out;
    for (const Log::Msg& m : log.msgs)
    {
        if (m.dir == dir && m.m.type == AdcBgpMessage::UPDATE)
        {
            out.push_back(m.m.update);
        }
    }
    return out;
}

/// \param u an UPDATE \return its AS_PATH flattened
std::vector<uint32_t>
PathOf(const AdcBgpUpdate& u)
{
    std::vector<uint32_t> out;
    for (const auto& seg : u.asPath.value_or(std::vector<AdcBgpAsPathSegment>()))
    {
        out.insert(out.end(), seg.ases.begin(), seg.ases.end());
    }
    return out;
}

const AdcIpAddress kVip4 = Ipv4Address("192.0.2.10");
const AdcIpAddress kVip4b = Ipv4Address("192.0.2.11");
const AdcIpAddress kVip6 = Ipv6Address("2001:db8:ffff::10");

} // namespace

TEST(AdcBgpSpeaker, SessionEstablishesThroughOpenAndKeepalive)
{
    // REQ: SLB-04 (the MUX's BGP session to its router)
    // REQ: SLB-10 (OPEN then KEEPALIVE, RFC 4271 8.2.2)
    Net net(2, {{0, 1}});
    Log mux, router;
    Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux);
    Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kRouterAs, router);
    m->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), false);
    r->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), true);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(m->GetState(net.A4(0, 1)), AdcBgpSpeaker::ESTABLISHED);
    EXPECT_EQ(r->GetState(net.A4(0, 0)), AdcBgpSpeaker::ESTABLISHED);
    // RFC 4271 8.2.2: the active side goes Connect, the passive Active; then OpenSent (OPEN
    // sent), OpenConfirm (peer's OPEN, KEEPALIVE sent), Established (peer's KEEPALIVE).
    EXPECT_EQ(mux.Transitions(),
              (std::vector<std::string>{"Idle>Connect",
                                        "Connect>OpenSent",
                                        "OpenSent>OpenConfirm",
                                        "OpenConfirm>Established"}));
    EXPECT_EQ(router.Transitions(),
              (std::vector<std::string>{"Idle>Active",
                                        "Active>OpenSent",
                                        "OpenSent>OpenConfirm",
                                        "OpenConfirm>Established"}));
    for (Log* log : {&mux, &router})
    {
        ASSERT_GE(log->msgs.size(), 4U);
        std::vector<std::string> first;
        for (std::size_t i = 0; i < 4; ++i)
        {
            first.push_back(log->msgs[i].dir + " " + AdcBgpMessage::TypeName(log->msgs[i].m.type));
        }
        EXPECT_EQ(first,
                  (std::vector<std::string>{"sent OPEN",
                                            "received OPEN",
                                            "sent KEEPALIVE",
                                            "received KEEPALIVE"}));
        EXPECT_EQ(log->Entered("Established").at(0), log->msgs[3].t);
        EXPECT_EQ(log->Entered("OpenConfirm").at(0), log->msgs[1].t);
    }
    const AdcBgpOpen& open = mux.msgs[0].m.open;
    EXPECT_EQ(open.version, 4);
    EXPECT_EQ(open.myAs, kMuxAs);
    EXPECT_EQ(open.holdTime, 90);                           // RFC 4271 10's suggested default
    EXPECT_EQ(open.bgpIdentifier, Ipv4Address("10.1.1.1")); // the node's first IPv4 address
    EXPECT_EQ(open.GetFourOctetAs(), kMuxAs);
    EXPECT_TRUE(open.HasMultiprotocol(1, 1));
    EXPECT_FALSE(open.HasMultiprotocol(2, 1)); // no IPv6 next hop, IPv4 transport
    EXPECT_EQ(m->GetCounters(net.A4(0, 1)).connectAttempts, 1U);
    EXPECT_EQ(r->GetCounters(net.A4(0, 0)).connectAttempts, 0U);
    Simulator::Destroy();
}

TEST(AdcBgpSpeaker, HoldTimeIsTheSmallerOfTheOpensAndKeepalivesGoEveryThird)
{
    // REQ: SLB-10 (keepalives let the router notice a failed MUX)
    Net net(2, {{0, 1}});
    Log mux, router;
    Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux, Seconds(30));
    Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kRouterAs, router, Seconds(9));
    m->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), false);
    r->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), true);
    Simulator::Stop(Seconds(30));
    Simulator::Run();

    // RFC 4271 4.2: the negotiated hold time is the smaller of both; keepalive one third.
    EXPECT_EQ(m->GetNegotiatedHoldTime(net.A4(0, 1)), Seconds(9));
    EXPECT_EQ(r->GetNegotiatedHoldTime(net.A4(0, 0)), Seconds(9));
    EXPECT_EQ(mux.msgs.at(0).m.open.holdTime, 30);
    EXPECT_EQ(router.msgs.at(0).m.open.holdTime, 9);
    for (Log* log : {&mux, &router})
    {
        std::vector<Time> ka = log->Times("sent", AdcBgpMessage::KEEPALIVE);
        ASSERT_GE(ka.size(), 9U); // ~1 s to 30 s every 3 s
        for (std::size_t i = 1; i < ka.size(); ++i)
        {
            EXPECT_EQ(ka[i] - ka[i - 1], Seconds(3)) << i;
        }
        EXPECT_TRUE(log->notes.empty());
    }
    Simulator::Destroy();
}

TEST(AdcBgpSpeaker, RoutesReachThePeerWithTheirNextHops)
{
    // REQ: SLB-04 (the MUX announces each VIP as a route)
    // REQ: SLB-12 (the router receives VIP route updates)
    // REQ: SLB-13 (IPv4 NLRI and MP-BGP IPv6 on one session)
    Net net(2, {{0, 1}});
    Log mux, router;
    Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux);
    Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kRouterAs, router);
    m->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), false, net.A6(0, 0));
    r->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), true, net.A6(0, 1));
    Log callback;
    r->SetRouteCallback(MakeCallback(&Log::OnRoute, &callback));
    m->Announce(kVip4, 32); // before the session: sent when it comes up
    m->Announce(kVip6, 128);
    Simulator::Schedule(Seconds(3), [m]() { m->Announce(kVip4b, 32); });
    Simulator::Schedule(Seconds(5), [m]() {
        m->Withdraw(kVip4, 32);
        m->Withdraw(kVip6, 128);
    });
    Simulator::Stop(Seconds(7));
    Simulator::Run();

    ASSERT_EQ(callback.routes.size(), 5U);
    ASSERT_EQ(router.routes.size(), 5U); // the trace sees what the callback sees
    std::vector<std::string> got;
    for (const Log::Route& x : callback.routes)
    {
        got.push_back(x.c.ToString());
    }
    const std::string mux6 = net.A6(0, 0).ToString(); // the MUX's nextHop6
    EXPECT_EQ(got,
              (std::vector<std::string>{
                  "announce 192.0.2.10/32 via 10.1.1.1 from 10.1.1.1",
                  "announce 2001:db8:ffff::10/128 via " + mux6 + " from 10.1.1.1",
                  "announce 192.0.2.11/32 via 10.1.1.1 from 10.1.1.1",
                  "withdraw 192.0.2.10/32 via 10.1.1.1 from 10.1.1.1",
                  "withdraw 2001:db8:ffff::10/128 via " + mux6 + " from 10.1.1.1"}));
    EXPECT_GE(router.routes[2].t, Seconds(3));
    EXPECT_LT(router.routes[2].t, Seconds(3.1));
    EXPECT_GE(router.routes[3].t, Seconds(5));
    EXPECT_LT(router.routes[4].t, Seconds(5.1));
    // On the wire: ORIGIN IGP, AS_PATH [65001] to an eBGP peer; IPv6 in MP_REACH_NLRI.
    std::vector<AdcBgpUpdate> ups = Updates(router, "received");
    ASSERT_EQ(ups.size(), 5U);
    EXPECT_EQ(ups[0].origin, AdcBgpUpdate::IGP);
    EXPECT_EQ(PathOf(ups[0]), (std::vector<uint32_t>{kMuxAs}));
    EXPECT_EQ(ups[0].nextHop, Ipv4Address("10.1.1.1"));
    ASSERT_TRUE(ups[1].mpReach.has_value());
    EXPECT_TRUE(ups[1].nlri.empty());
    ASSERT_TRUE(ups[4].mpUnreach.has_value());
    EXPECT_EQ(r->GetAdjRibIn(net.A4(0, 0)),
              (std::map<std::string, AdcIpAddress>{{"192.0.2.11/32", net.A4(0, 0)}}));
    EXPECT_EQ(r->GetCounters(net.A4(0, 0)).received[AdcBgpMessage::UPDATE], 5U);
    EXPECT_EQ(m->GetCounters(net.A4(0, 1)).sent[AdcBgpMessage::UPDATE], 5U);
    Simulator::Destroy();
}

TEST(AdcBgpSpeaker, Ipv6TransportAndIbgpEmptyAsPath)
{
    // REQ: SLB-13 (a session over IPv6 carries both families)
    // REQ: SLB-04
    Net net(2, {{0, 1}});
    Log mux, router;
    Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux);
    Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kMuxAs, router); // one AS: iBGP
    m->AddPeer(net.A6(0, 1), kMuxAs, net.A6(0, 0), false);
    r->AddPeer(net.A6(0, 0), kMuxAs, net.A6(0, 1), true);
    m->Announce(kVip6, 128);
    m->Announce(kVip4, 32);
    Simulator::Stop(Seconds(3));
    Simulator::Run();

    EXPECT_EQ(r->GetState(net.A6(0, 0)), AdcBgpSpeaker::ESTABLISHED);
    EXPECT_TRUE(mux.msgs.at(0).m.open.HasMultiprotocol(2, 1));
    std::vector<AdcBgpUpdate> ups = Updates(router, "received");
    ASSERT_EQ(ups.size(), 2U);
    for (const AdcBgpUpdate& u : ups)
    {
        EXPECT_TRUE(PathOf(u).empty()); // RFC 4271 5.1.2: no AS prepended inside the AS
    }
    // The IPv6 next hop is the session's local IPv6 address; the IPv4 one the router id.
    EXPECT_EQ(r->GetAdjRibIn(net.A6(0, 0)),
              (std::map<std::string, AdcIpAddress>{{"192.0.2.10/32", net.A4(0, 0)},
                                                   {"2001:db8:ffff::10/128", net.A6(0, 0)}}));
    Simulator::Destroy();
}

TEST(AdcBgpSpeaker, HaltedPeerIsDroppedAtLastReceiptPlusHoldWithItsRoutes)
{
    // REQ: SLB-05 (detect a MUX's failure and stop sending to it)
    // REQ: SLB-10 (keepalives let the routers notice a failed MUX)
    // REQ: SLB-12 (drops failed MUXes from rotation)
    Net net(2, {{0, 1}});
    Log mux, router;
    Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux, Seconds(9));
    Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kRouterAs, router, Seconds(9));
    m->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), false);
    r->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), true);
    m->Announce(kVip4, 32);
    Simulator::Schedule(Seconds(10.5), &AdcBgpSpeaker::Halt, m);
    Simulator::Stop(Seconds(25));
    Simulator::Run();

    Time last;
    for (const Log::Msg& x : router.msgs)
    {
        if (x.dir == "received" && x.t < Seconds(10.5) &&
            (x.m.type == AdcBgpMessage::KEEPALIVE || x.m.type == AdcBgpMessage::UPDATE))
        {
            last = x.t;
        }
    }
    ASSERT_GT(last, Seconds(9));
    const Time expiry = last + Seconds(9);
    ASSERT_EQ(router.notes.size(), 1U);
    EXPECT_EQ(router.notes[0].dir, "sent");
    EXPECT_EQ(router.notes[0].n.code, AdcBgpNotification::HOLD_TIMER_EXPIRED);
    EXPECT_EQ(router.notes[0].n.subcode, 0);
    EXPECT_EQ(router.notes[0].t, expiry);
    ASSERT_EQ(router.routes.size(), 2U);
    EXPECT_FALSE(router.routes[1].c.announced);
    EXPECT_EQ(router.routes[1].c.prefix, kVip4);
    EXPECT_EQ(router.routes[1].t, expiry);
    EXPECT_EQ(router.states.back().to, "Idle");
    EXPECT_EQ(router.states.back().t, expiry);
    EXPECT_EQ(r->GetCounters(net.A4(0, 0)).drops.at("hold timer expired"), 1U);
    // The halted MUX sent nothing after Halt, not even a NOTIFICATION.
    EXPECT_TRUE(mux.notes.empty());
    EXPECT_LT(mux.msgs.back().t, Seconds(10.5));
    Simulator::Destroy();
}

TEST(AdcBgpSpeaker, SessionReturnsAfterConnectRetryTimeWhenThePeerRestarts)
{
    // REQ: SLB-10 (MUXes can be added back; the router picks them up again)
    // REQ: SLB-05
    Net net(2, {{0, 1}});
    Log mux, mux2, router;
    Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux, Seconds(9));
    Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kRouterAs, router, Seconds(9));
    r->SetAttribute("ConnectRetryTime", TimeValue(Seconds(5)));
    m->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), true);
    r->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), false);
    m->Announce(kVip4, 32);
    Simulator::Schedule(Seconds(10.5), &AdcBgpSpeaker::Halt, m);
    // The MUX's replacement process on the same node, before the router retries.
    Ptr<AdcBgpSpeaker> m2 = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux2, Seconds(9), Seconds(15));
    m2->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), true);
    m2->Announce(kVip4, 32);
    Simulator::Stop(Seconds(35));
    Simulator::Run();

    std::vector<Time> idle = router.Entered("Idle");
    std::vector<Time> connect = router.Entered("Connect");
    std::vector<Time> est = router.Entered("Established");
    ASSERT_EQ(idle.size(), 1U);
    ASSERT_EQ(connect.size(), 2U);
    ASSERT_EQ(est.size(), 2U);
    EXPECT_EQ(connect[1], idle[0] + Seconds(5)); // RFC 4271 8.2.2: ConnectRetry, then Connect
    EXPECT_GT(est[1], connect[1]);
    EXPECT_LT(est[1], connect[1] + Seconds(1));
    EXPECT_EQ(r->GetState(net.A4(0, 0)), AdcBgpSpeaker::ESTABLISHED);
    ASSERT_EQ(router.routes.size(), 3U); // learnt, withdrawn at the drop, learnt again
    EXPECT_TRUE(router.routes[2].c.announced);
    EXPECT_EQ(router.routes[2].c.nextHop, net.A4(0, 0));
    EXPECT_EQ(router.routes[1].t, idle[0]);
    EXPECT_EQ(r->GetCounters(net.A4(0, 0)).connectAttempts, 2U);
    Simulator::Destroy();
}

namespace
{

/// A raw TCP client that writes bytes to a speaker and keeps what comes back.
struct RawClient
{
    Ptr<Socket> socket;        //!< the connection
    std::vector<uint8_t> sent; //!< bytes to send once connected
    std::vector<uint8_t> got;  //!< bytes received

    void Start(Ptr<Node> node, Ipv4Address to)
    {
        socket = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        socket->Bind();
        socket->SetConnectCallback(MakeCallback(&RawClient::Connected, this),
                                   MakeNullCallback<void, Ptr<Socket>>());
        socket->SetRecvCallback(MakeCallback(&RawClient::Read, this));
        socket->Connect(InetSocketAddress(to, AdcBgpMessage::kPort));
    }

    void Connected(Ptr<Socket> s)
    {
        s->Send(Create<Packet>(sent.data(), sent.size()));
    }

    void Read(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            std::vector<uint8_t> b(p->GetSize());
            p->CopyData(b.data(), b.size());
            got.insert(got.end(), b.begin(), b.end());
        }
    }
};

} // namespace

TEST(AdcBgpSpeaker, MalformedInputIsAnsweredByItsNotification)
{
    // REQ: SLB-10 (a router's BGP session to a MUX survives only well-formed input)
    std::vector<uint8_t> open =
        AdcBgpMessage::Open(AdcBgpOpen::Make(kMuxAs, 90, Ipv4Address("10.1.1.1"))).Serialize(false);
    std::vector<uint8_t> badMarker = AdcBgpMessage::Keepalive().Serialize(false);
    badMarker[0] = 0x00;
    std::vector<uint8_t> badLength = AdcBgpMessage::Keepalive().Serialize(false);
    badLength[17] = 18; // RFC 4271 4.1: at least 19
    std::vector<uint8_t> badVersion = open;
    badVersion[19] = 3;

    struct Case
    {
        std::string name;
        std::vector<uint8_t> bytes;
        uint8_t code, subcode;
    };

    // RFC 4271 6.1: Connection Not Synchronized 1/1, Bad Message Length 1/2; 6.2:
    // Unsupported Version Number 2/1.
    for (const Case& c : {Case{"bad marker", badMarker, 1, 1},
                          Case{"bad length", badLength, 1, 2},
                          Case{"bad version", badVersion, 2, 1}})
    {
        SCOPED_TRACE(c.name);
        Net net(2, {{0, 1}});
        Log router;
        Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kRouterAs, router);
        r->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), true);
        RawClient client;
        client.sent = c.bytes;
        Simulator::Schedule(Seconds(2),
                            &RawClient::Start,
                            &client,
                            net.nodes.Get(0),
                            net.A4(0, 1).GetIpv4());
        Simulator::Stop(Seconds(4));
        Simulator::Run();

        AdcBgpFramer framer;
        std::vector<AdcBgpMessage> back = framer.Feed(client.got);
        ASSERT_EQ(back.size(), 2U);
        EXPECT_EQ(back[0].type, AdcBgpMessage::OPEN);
        ASSERT_EQ(back[1].type, AdcBgpMessage::NOTIFICATION);
        EXPECT_EQ(back[1].notification.code, c.code);
        EXPECT_EQ(back[1].notification.subcode, c.subcode);
        ASSERT_EQ(router.notes.size(), 1U);
        EXPECT_EQ(router.notes[0].dir, "sent");
        EXPECT_EQ(router.notes[0].n.code, c.code);
        EXPECT_EQ(r->GetCounters(net.A4(0, 0)).notificationsSent, 1U);
        EXPECT_EQ(r->GetState(net.A4(0, 0)), AdcBgpSpeaker::IDLE);
        if (c.code == 2)
        {
            // RFC 4271 6.2: the data is the largest version supported, 2 bytes.
            EXPECT_EQ(back[1].notification.data, (std::vector<uint8_t>{0, 4}));
        }
        Simulator::Destroy();
    }
}

TEST(AdcBgpSpeaker, BadPeerAsIsRefusedWithItsNotification)
{
    // REQ: SLB-04 (sessions only with the configured peer AS)
    Net net(2, {{0, 1}});
    Log mux, router;
    Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux);
    Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kRouterAs, router);
    m->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), false);
    r->AddPeer(net.A4(0, 0), kOtherAs, net.A4(0, 1), true); // expects another AS
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    ASSERT_FALSE(router.notes.empty());
    EXPECT_EQ(router.notes[0].n.code, AdcBgpNotification::OPEN_MESSAGE_ERROR);
    EXPECT_EQ(router.notes[0].n.subcode, 2); // RFC 4271 6.2: Bad Peer AS
    ASSERT_FALSE(mux.notes.empty());
    EXPECT_EQ(mux.notes[0].dir, "received");
    EXPECT_EQ(m->GetState(net.A4(0, 1)), AdcBgpSpeaker::IDLE);
    Simulator::Destroy();
}

TEST(AdcBgpSpeaker, ConnectionCollisionKeepsTheHigherIdentifiersConnection)
{
    // REQ: SLB-10 (both ends active: one session survives, RFC 4271 6.8)
    Net net(2, {{0, 1}});
    Log a, b;
    Ptr<AdcBgpSpeaker> sa = MakeSpeaker(net.nodes.Get(0), kMuxAs, a);
    Ptr<AdcBgpSpeaker> sb = MakeSpeaker(net.nodes.Get(1), kRouterAs, b);
    sa->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), false);
    sb->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), false);
    sa->Announce(kVip4, 32);
    Simulator::Stop(Seconds(4));
    Simulator::Run();

    EXPECT_EQ(sa->GetState(net.A4(0, 1)), AdcBgpSpeaker::ESTABLISHED);
    EXPECT_EQ(sb->GetState(net.A4(0, 0)), AdcBgpSpeaker::ESTABLISHED);
    // Both close the connection the lower identifier (10.1.1.1, A) opened, with Cease 6/7.
    for (Log* log : {&a, &b})
    {
        ASSERT_FALSE(log->notes.empty());
        for (const Log::Note& n : log->notes)
        {
            EXPECT_EQ(n.n.code, AdcBgpNotification::CEASE);
            EXPECT_EQ(n.n.subcode, 7);
        }
        EXPECT_EQ(log->Entered("Established").size(), 1U);
    }
    EXPECT_EQ(sa->GetCounters(net.A4(0, 1)).drops.at("connection collision"), 1U);
    EXPECT_EQ(sb->GetCounters(net.A4(0, 0)).drops.at("connection collision"), 1U);
    EXPECT_EQ(b.routes.size(), 1U);
    Simulator::Destroy();
}

TEST(AdcBgpSpeaker, PropagationWithNextHopSelfAndAsPathLoopPrevention)
{
    // REQ: SLB-05 (VIP reachable at the MUX across the layer-3 network)
    // REQ: SLB-12 (routers pass VIP routes on)
    // Triangle: MUX (node 0) - R1 (node 1) - R2 (node 2) - MUX.
    Net net(3, {{0, 1}, {1, 2}, {2, 0}});
    Log mux, r1log, r2log;
    Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux);
    Ptr<AdcBgpSpeaker> r1 = MakeSpeaker(net.nodes.Get(1), kRouterAs, r1log);
    Ptr<AdcBgpSpeaker> r2 = MakeSpeaker(net.nodes.Get(2), kOtherAs, r2log);
    r1->SetAttribute("Propagate", BooleanValue(true));
    r2->SetAttribute("Propagate", BooleanValue(true));
    m->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), false);
    r1->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), true);
    r1->AddPeer(net.A4(1, 1), kOtherAs, net.A4(1, 0), false);
    r2->AddPeer(net.A4(1, 0), kRouterAs, net.A4(1, 1), true);
    r2->AddPeer(net.A4(2, 1), kMuxAs, net.A4(2, 0), true);
    m->AddPeer(net.A4(2, 0), kOtherAs, net.A4(2, 1), false);
    m->Announce(kVip4, 32);
    Simulator::Schedule(Seconds(4), [m]() { m->Withdraw(kVip4, 32); });
    Simulator::Stop(Seconds(6));
    Simulator::Run();

    // R2 learnt the VIP from R1 with next hop R1 (next-hop-self) and path [R1, MUX].
    bool fromR1 = false;
    for (const Log::Msg& x : r2log.msgs)
    {
        if (x.dir == "received" && x.peer == net.A4(1, 0).ToString() &&
            x.m.type == AdcBgpMessage::UPDATE && !x.m.update.nlri.empty() && x.t < Seconds(4))
        {
            fromR1 = true;
            EXPECT_EQ(x.m.update.nextHop, net.A4(1, 0).GetIpv4());
            EXPECT_EQ(PathOf(x.m.update), (std::vector<uint32_t>{kRouterAs, kMuxAs}));
        }
    }
    EXPECT_TRUE(fromR1);
    // Each router offered the MUX its path through the other; both hold 65001: ignored.
    EXPECT_EQ(m->GetCounters(net.A4(0, 1)).loopsIgnored, 1U);
    EXPECT_EQ(m->GetCounters(net.A4(2, 0)).loopsIgnored, 1U);
    EXPECT_TRUE(mux.routes.empty());
    // After the MUX withdraws, the last path goes everywhere.
    for (auto [s, peer] : {std::pair{r1, net.A4(0, 0)},
                           std::pair{r1, net.A4(1, 1)},
                           std::pair{r2, net.A4(1, 0)},
                           std::pair{r2, net.A4(2, 1)}})
    {
        EXPECT_TRUE(s->GetAdjRibIn(peer).empty()) << peer;
    }
    EXPECT_FALSE(r1log.routes.back().c.announced);
    EXPECT_FALSE(r2log.routes.back().c.announced);
    Simulator::Destroy();
}

TEST(AdcBgpSpeaker, BadSettingsAreConfigErrors)
{
    // REQ: SLB-10 (hold time 0 or >= 3 s, RFC 4271 4.2)
    Ptr<AdcBgpSpeaker> s = CreateObject<AdcBgpSpeaker>();
    auto error = [](const std::function<void()>& f) { return adctest::ConfigErrorOf(f); };
    EXPECT_TRUE(adctest::Has(error([&] { s->SetAttribute("HoldTime", TimeValue(Seconds(2))); }),
                             "HoldTime"));
    EXPECT_TRUE(
        adctest::Has(error([&] { s->SetAttribute("HoldTime", TimeValue(MilliSeconds(3500))); }),
                     "whole seconds"));
    EXPECT_EQ(error([&] { s->SetAttribute("HoldTime", TimeValue(Seconds(0))); }), "");
    EXPECT_TRUE(
        adctest::Has(error([&] { s->SetAttribute("LocalAs", UintegerValue(0)); }), "LocalAs"));
    EXPECT_TRUE(adctest::Has(
        error([&] { s->AddPeer(Ipv4Address("10.0.0.1"), 1, Ipv6Address("::1"), true); }),
        "one family"));
    EXPECT_TRUE(
        adctest::Has(error([&] { s->Announce(Ipv4Address("10.0.0.1"), 24); }), "host bits"));
    EXPECT_TRUE(adctest::Has(error([&] { s->Announce(Ipv4Address("10.0.0.0"), 33); }), "/32"));
}

TEST(AdcBgpSpeaker, SessionPcapDecodesAsBgpInWireshark)
{
    // REQ: SLB-04 (the VIP UPDATEs on the wire)
    // REQ: SLB-13 (the IPv6 VIP in MP_REACH_NLRI)
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("adc-bgp-speaker-test-" + std::to_string(getpid())))
                                .string();
    std::filesystem::create_directories(dir);
    {
        Net net(2, {{0, 1}});
        Log mux, router;
        Ptr<AdcBgpSpeaker> m = MakeSpeaker(net.nodes.Get(0), kMuxAs, mux, Seconds(9));
        Ptr<AdcBgpSpeaker> r = MakeSpeaker(net.nodes.Get(1), kRouterAs, router, Seconds(9));
        m->AddPeer(net.A4(0, 1), kRouterAs, net.A4(0, 0), false, net.A6(0, 0));
        r->AddPeer(net.A4(0, 0), kMuxAs, net.A4(0, 1), true, net.A6(0, 1));
        m->Announce(kVip4, 32);
        m->Announce(kVip6, 128);
        Simulator::Schedule(Seconds(3), [m]() { m->Withdraw(kVip6, 128); });
        m->SetStopTime(Seconds(5)); // Cease
        net.p2p.EnablePcapAll(dir + "/bgp");
        Simulator::Stop(Seconds(6));
        Simulator::Run();
        Simulator::Destroy();
    }
    const std::string pcap = dir + "/bgp-0-1.pcap"; // the MUX's device
    ASSERT_TRUE(std::filesystem::exists(pcap)) << pcap;
    auto fields = [&](const std::string& filter, const std::string& field) {
        return adctest::OutputLines(adctest::RunCommand(
            "tshark -n -r '" + pcap + "' -Y '" + filter +
            "' -T fields -E occurrence=a -E separator=, -e " + field + " 2>/dev/null"));
    };
    EXPECT_EQ(fields("bgp.type == 1", "bgp.open.myas"),
              (std::vector<std::string>{"65001", "65002"}));
    EXPECT_EQ(fields("bgp.type == 1", "bgp.open.holdtime"), (std::vector<std::string>{"9", "9"}));
    EXPECT_EQ(fields("bgp.nlri_prefix", "bgp.nlri_prefix"),
              (std::vector<std::string>{"192.0.2.10"}));
    // OutputLines drops ':' (tshark's hex fields), so the IPv6 prefix reads without them.
    EXPECT_EQ(fields("bgp.mp_reach_nlri_ipv6_prefix", "bgp.mp_reach_nlri_ipv6_prefix"),
              (std::vector<std::string>{"2001db8ffff10"}));
    EXPECT_EQ(fields("bgp.mp_unreach_nlri_ipv6_prefix", "bgp.mp_unreach_nlri_ipv6_prefix"),
              (std::vector<std::string>{"2001db8ffff10"}));
    // RFC 4271 4.4: a KEEPALIVE on entering OpenConfirm (~1 s), then every 3 s unless an UPDATE
    // restarted the timer: the router sends at ~1 s and ~4 s; the MUX's UPDATEs at ~1 s and
    // 3 s push its next one past its stop at 5 s.
    EXPECT_EQ(fields("bgp.type == 4 && ip.src == 10.1.1.2", "frame.number").size(), 2U);
    EXPECT_EQ(fields("bgp.type == 4 && ip.src == 10.1.1.1", "frame.number").size(), 1U);
    EXPECT_EQ(fields("bgp.type == 3", "bgp.notify.major_error"), (std::vector<std::string>{"6"}));
    EXPECT_TRUE(fields("_ws.malformed || _ws.expert.severity == error", "frame.number").empty());
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir); // kept for inspection when the test fails
    }
}
