/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of GslbMepAgent: GSLB sites exchanging LDNS RTTs and service states over MEP (TCP 3011)
 * on point-to-point links: only values above the tolerance travel, every site ends with the
 * same values and the same best site, keep-alives and the peer timeout, a stopped peer,
 * malformed bytes and refused connections, and a pcap that Wireshark decodes as MEP.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/core-module.h"
#include "ns3/gslb-mep-agent.h"
#include "ns3/gslb-rtt-database.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;
using adctest::Has;

namespace
{

/// The links of adctest::MakeLan: 1 ms one way.
const Time kLinkDelay = MilliSeconds(1);

/// \param node a host of MakeLan \return its point-to-point device (its index depends on
/// whether the stack was installed before the link)
Ptr<NetDevice>
P2pDevice(Ptr<Node> node)
{
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        if (DynamicCast<PointToPointNetDevice>(node->GetDevice(i)))
        {
            return node->GetDevice(i);
        }
    }
    return nullptr;
}

/// One "Message" trace record.
struct MessageRecord
{
    Time at;         //!< when
    uint32_t local;  //!< the agent's site
    uint32_t peer;   //!< the peer's site
    bool sent;       //!< sent (true) or received
    AdcMepMessage m; //!< the message
};

/// One "PeerState" trace record.
struct PeerRecord
{
    Time at;        //!< when
    uint32_t local; //!< the agent's site
    uint32_t peer;  //!< the peer's site
    bool up;        //!< new state
};

/// A GSLB domain of agents, one per host of a LAN, and what their traces recorded.
struct Domain
{
    adctest::Lan lan;                                    //!< the hosts
    std::vector<Ptr<GslbRttDatabase>> dbs;               //!< per site
    std::vector<Ptr<GslbMepAgent>> agents;               //!< per site (null: no agent)
    std::vector<MessageRecord> messages;                 //!< every agent's "Message"
    std::vector<PeerRecord> peers;                       //!< every agent's "PeerState"
    std::vector<std::pair<uint32_t, std::string>> drops; //!< (site, reason) of "Drop"
    std::vector<uint32_t> dropSizes;                     //!< the dropped packets' sizes

    /**
     * \param nSites sites (hosts 0..n-1 of MakeLan(nHosts, 0))
     * \param withAgent which sites run an agent (empty: all)
     * \param nHosts hosts (>= nSites; extra hosts stay without an agent)
     * \param tolerance the RTT tolerance of every database
     */
    Domain(uint32_t nSites,
           std::vector<bool> withAgent = {},
           uint32_t nHosts = 0,
           Time tolerance = MilliSeconds(5))
        : lan(adctest::MakeLan(std::max(nSites, nHosts), 0))
    {
        std::vector<std::string> names;
        for (uint32_t i = 0; i < nSites; ++i)
        {
            names.push_back("site" + std::to_string(i));
        }
        for (uint32_t i = 0; i < nSites; ++i)
        {
            Ptr<GslbRttDatabase> db = CreateObject<GslbRttDatabase>();
            db->SetAttribute("Tolerance", TimeValue(tolerance));
            db->SetSites(names, i);
            dbs.push_back(db);
            if (!withAgent.empty() && !withAgent[i])
            {
                agents.push_back(nullptr);
                continue;
            }
            Ptr<GslbMepAgent> a = CreateObject<GslbMepAgent>();
            a->SetDatabase(db);
            for (uint32_t j = 0; j < nSites; ++j)
            {
                if (j != i)
                {
                    a->AddPeer(j, lan.ClientIp(j));
                }
            }
            lan.clients.Get(i)->AddApplication(a);
            a->SetStartTime(Seconds(0));
            a->TraceConnectWithoutContext(
                "Message",
                Callback<void, uint32_t, bool, const AdcMepMessage&>(
                    [this, i](uint32_t peer, bool sent, const AdcMepMessage& m) {
                        messages.push_back({Simulator::Now(), i, peer, sent, m});
                    }));
            a->TraceConnectWithoutContext(
                "PeerState",
                Callback<void, uint32_t, bool>([this, i](uint32_t peer, bool up) {
                    peers.push_back({Simulator::Now(), i, peer, up});
                }));
            a->TraceConnectWithoutContext(
                "Drop",
                Callback<void, Ptr<const Packet>, const std::string&>(
                    [this, i](Ptr<const Packet> p, const std::string& reason) {
                        drops.emplace_back(i, reason);
                        dropSizes.push_back(p->GetSize());
                    }));
            agents.push_back(a);
        }
    }

    /// \brief A local measurement at \p site: stored values go out through MEP (the owner's
    /// part, as the GSLB site wires its prober). \param site where \param ldns the LDNS
    /// \param rtt the RTT
    void Measure(uint32_t site, const AdcIpAddress& ldns, Time rtt)
    {
        if (dbs[site]->UpdateLocal(ldns, rtt))
        {
            agents[site]->SendRtt(ldns, rtt);
        }
    }

    /// \param local an agent's site \param peer a peer \param sent direction
    /// \return the RTTs (ms) of the type-7 records that agent sent to or received from peer
    std::vector<uint16_t> Rtts(uint32_t local, uint32_t peer, bool sent) const
    {
        std::vector<uint16_t> out;
        for (const MessageRecord& r : messages)
        {
            if (r.local == local && r.peer == peer && r.sent == sent &&
                r.m.type == AdcMepMessage::NETWORK_METRIC_UPDATE)
            {
                for (const AdcMepNetworkMetric& n : r.m.networkMetrics)
                {
                    out.push_back(n.rttMs);
                }
            }
        }
        return out;
    }

    /// \param local an agent's site \param peer a peer \return its PeerState records
    std::vector<PeerRecord> States(uint32_t local, uint32_t peer) const
    {
        std::vector<PeerRecord> out;
        for (const PeerRecord& r : peers)
        {
            if (r.local == local && r.peer == peer)
            {
                out.push_back(r);
            }
        }
        return out;
    }
};

/// \param t a time \return its milliseconds
int64_t
Ms(std::optional<Time> t)
{
    return t ? t->GetMilliSeconds() : -1;
}

/**
 * \brief Site 0 measures a sequence derived from the tolerance; the other two sites must
 * receive exactly the values the database stored.
 * \param tolerance the domain's RTT tolerance
 */
void
ToleranceOverMep(Time tolerance)
{
    Domain d(3, {}, 0, tolerance);
    const AdcIpAddress ldns = Ipv4Address("198.51.100.7");
    const AdcIpAddress ldns6 = Ipv6Address("2001:db8::53");
    const int64_t t = tolerance.GetMilliSeconds();
    const std::vector<int64_t> values =
        {20, 20 + t - 1, 20 + t + 1, 20 + 2 * t, 20 + 2 * t + 2, 20 + 2 * t + 2 - t};
    // The rule, applied here independently: stored when more than t from the last stored.
    std::vector<uint16_t> expected;
    int64_t reference = -1;
    for (int64_t v : values)
    {
        if (reference < 0 || std::abs(v - reference) > t)
        {
            expected.push_back(static_cast<uint16_t>(v));
            reference = v;
        }
    }
    ASSERT_EQ(expected.size(), 3U); // 20, 20+t+1, 20+2t+2
    for (std::size_t k = 0; k < values.size(); ++k)
    {
        Simulator::Schedule(Seconds(1 + k),
                            [&d, ldns, v = values[k]] { d.Measure(0, ldns, MilliSeconds(v)); });
    }
    Simulator::Schedule(Seconds(2.5), [&d, ldns6] { d.Measure(0, ldns6, MilliSeconds(9)); });
    Simulator::Stop(Seconds(1 + values.size()));
    Simulator::Run();
    for (uint32_t peer : {1U, 2U})
    {
        EXPECT_EQ(d.Rtts(0, peer, true), expected) << "sent to " << peer;
        EXPECT_EQ(d.Rtts(peer, 0, false), expected) << "received by " << peer;
        EXPECT_EQ(Ms(d.dbs[peer]->GetRtt(ldns, 0)), expected.back());
        EXPECT_EQ(Ms(d.dbs[peer]->GetRtt(ldns6, 0)), -1); // IPv6 RTTs stay local
        EXPECT_TRUE(d.Rtts(peer, 0, true).empty());       // the peers measured nothing
    }
    EXPECT_EQ(Ms(d.dbs[0]->GetRtt(ldns6, 0)), 9);
    Simulator::Destroy();
}

} // namespace

TEST(GslbMepAgent, OnlyValuesAboveToleranceAreSent)
{
    // REQ: GSLB-09 (a change above the tolerance is stored and sent through MEP; no other)
    ToleranceOverMep(MilliSeconds(5));
}

TEST(GslbMepAgent, OnlyValuesAboveToleranceAreSentWithTolerance10)
{
    // REQ: GSLB-09 (set gslb vserver -tolerance 10)
    ToleranceOverMep(MilliSeconds(10));
}

TEST(GslbMepAgent, EverySiteHoldsAllRttsAndChoosesTheSameSite)
{
    // REQ: GSLB-07 (RTTs exchanged by MEP; each site sorts them: the same best site everywhere)
    Domain d(3);
    const AdcIpAddress ldns = Ipv4Address("203.0.113.53");
    const std::vector<int64_t> rtt = {30, 10, 20}; // site i measures rtt[i]
    const uint32_t best =
        static_cast<uint32_t>(std::min_element(rtt.begin(), rtt.end()) - rtt.begin());
    // Site 2 announces one service; the others must receive it every SiteMetricInterval.
    AdcMepSiteMetric svc;
    svc.ip = Ipv4Address("192.0.2.80");
    svc.port = 80;
    d.agents[2]->SetLocalServicesCallback(Callback<std::vector<AdcMepSiteMetric>>(
        [svc]() { return std::vector<AdcMepSiteMetric>{svc}; }));
    std::vector<std::pair<uint32_t, std::vector<AdcMepSiteMetric>>> got;
    for (uint32_t i : {0U, 1U})
    {
        d.agents[i]->SetSiteMetricCallback(
            Callback<void, uint32_t, const std::vector<AdcMepSiteMetric>&>(
                [&got](uint32_t site, const std::vector<AdcMepSiteMetric>& r) {
                    got.emplace_back(site, r);
                }));
    }
    for (uint32_t i = 0; i < 3; ++i)
    {
        Simulator::Schedule(Seconds(1) + MilliSeconds(100 * i),
                            [&d, ldns, i, v = rtt[i]] { d.Measure(i, ldns, MilliSeconds(v)); });
    }
    std::vector<int32_t> choice;
    std::vector<int32_t> choiceWithoutBest;
    Simulator::Schedule(Seconds(2), [&] {
        for (uint32_t i = 0; i < 3; ++i)
        {
            for (uint32_t s = 0; s < 3; ++s)
            {
                EXPECT_EQ(Ms(d.dbs[i]->GetRtt(ldns, s)), rtt[s]) << "site " << i;
            }
            choice.push_back(d.dbs[i]->GetBestSite(ldns, {true, true, true}));
            std::vector<bool> others(3, true);
            others[best] = false;
            choiceWithoutBest.push_back(d.dbs[i]->GetBestSite(ldns, others));
        }
    });
    const Time stop = Seconds(3.5);
    Simulator::Stop(stop);
    Simulator::Run();
    EXPECT_EQ(choice, std::vector<int32_t>(3, static_cast<int32_t>(best)));
    EXPECT_EQ(choiceWithoutBest, std::vector<int32_t>(3, 2)); // 20 ms: the next smallest
    // One update on each new connection, then one per SiteMetricInterval (1 s) until stop.
    const std::size_t perPeer = 1 + static_cast<std::size_t>(stop.GetSeconds());
    EXPECT_EQ(got.size(), 2 * perPeer);
    for (const auto& [site, records] : got)
    {
        EXPECT_EQ(site, 2U);
        EXPECT_EQ(records, std::vector<AdcMepSiteMetric>{svc});
    }
    for (uint32_t i = 0; i < 3; ++i)
    {
        for (uint32_t j = 0; j < 3; ++j)
        {
            EXPECT_TRUE(i == j || d.agents[i]->IsPeerUp(j)) << i << " -> " << j;
        }
    }
    Simulator::Destroy();
}

TEST(GslbMepAgent, PeerDownAtKeepAliveTimeoutAndBackWhenTheLinkReturns)
{
    // REQ: GSLB-07 (mepkeepalivetimeout: a silent peer is down, then reconnected)
    Domain d(2);
    TimeValue interval;
    TimeValue timeout;
    TimeValue retry;
    d.agents[0]->GetAttribute("KeepAliveInterval", interval);
    d.agents[0]->GetAttribute("KeepAliveTimeout", timeout);
    d.agents[0]->GetAttribute("ConnectRetryInterval", retry);
    const Time linkDown = Seconds(3.5);
    const Time linkUp = Seconds(30);
    ASSERT_LT(linkDown + timeout.Get() + kLinkDelay, linkUp);
    std::vector<Ptr<RateErrorModel>> errors;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(1.0);
        em->Disable();
        P2pDevice(d.lan.clients.Get(i))->SetAttribute("ReceiveErrorModel", PointerValue(em));
        Simulator::Schedule(linkDown, &RateErrorModel::Enable, em);
        Simulator::Schedule(linkUp, &RateErrorModel::Disable, em);
        errors.push_back(em);
    }
    // Measured while the peer is down: nothing can be sent, so the new connection carries it.
    const AdcIpAddress ldns = Ipv4Address("198.51.100.20");
    const Time measured = linkDown + timeout.Get() + Seconds(2);
    Simulator::Schedule(measured, [&d, ldns] { d.Measure(0, ldns, MilliSeconds(33)); });
    Simulator::Stop(linkUp + retry.Get() + Seconds(2));
    Simulator::Run();
    EXPECT_EQ(Ms(d.dbs[1]->GetRtt(ldns, 0)), 33);
    for (const MessageRecord& r : d.messages)
    {
        if (r.m.type == AdcMepMessage::NETWORK_METRIC_UPDATE)
        {
            EXPECT_GE(r.at, linkUp) << "sent " << r.sent; // only on the new connection
        }
    }
    EXPECT_EQ(d.Rtts(1, 0, false), std::vector<uint16_t>{33});
    for (uint32_t i = 0; i < 2; ++i)
    {
        const uint32_t peer = 1 - i;
        const std::vector<PeerRecord> states = d.States(i, peer);
        ASSERT_EQ(states.size(), 3U) << "site " << i;
        EXPECT_TRUE(states[0].up);
        EXPECT_FALSE(states[1].up);
        EXPECT_TRUE(states[2].up);
        // Idle connection: keep-alives exactly KeepAliveInterval apart until the link fails.
        std::vector<Time> sent;
        Time lastHeard = states[0].at;
        for (const MessageRecord& r : d.messages)
        {
            if (r.local == i && r.sent && r.at < linkDown)
            {
                EXPECT_EQ(r.m.type, AdcMepMessage::KEEP_ALIVE);
                sent.push_back(r.at);
            }
            if (r.local == i && !r.sent && r.at < states[1].at)
            {
                lastHeard = std::max(lastHeard, r.at);
            }
        }
        ASSERT_GE(sent.size(), 3U);
        EXPECT_EQ(sent[0], states[0].at + interval.Get());
        for (std::size_t k = 1; k < sent.size(); ++k)
        {
            EXPECT_EQ(sent[k] - sent[k - 1], interval.Get());
        }
        EXPECT_LT(lastHeard, linkDown);
        // Down exactly KeepAliveTimeout after the last message heard.
        EXPECT_EQ(states[1].at, lastHeard + timeout.Get()) << "site " << i;
        // Up again once the link is back: within one retry interval (and a handshake).
        EXPECT_GE(states[2].at, linkUp);
        EXPECT_LE(states[2].at, linkUp + retry.Get() + 4 * kLinkDelay);
        EXPECT_TRUE(d.agents[i]->IsPeerUp(peer));
    }
    Simulator::Destroy();
}

TEST(GslbMepAgent, StoppedPeerIsDownWhenItsCloseArrives)
{
    // REQ: GSLB-07 (a site whose MEP agent stops is no longer up at the others)
    Domain d(2);
    const Time stop = Seconds(3.5);
    d.agents[1]->SetStopTime(stop);
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    const std::vector<PeerRecord> at0 = d.States(0, 1);
    ASSERT_EQ(at0.size(), 2U);
    EXPECT_FALSE(at0[1].up);
    // The FIN crosses one link: one delay plus a 40-byte frame's transmission at 100 Mbit/s.
    EXPECT_GE(at0[1].at, stop + kLinkDelay);
    EXPECT_LT(at0[1].at, stop + 2 * kLinkDelay);
    const std::vector<PeerRecord> at1 = d.States(1, 0);
    ASSERT_EQ(at1.size(), 2U);
    EXPECT_EQ(at1[1].at, stop);
    EXPECT_FALSE(d.agents[0]->IsPeerUp(1)); // its retries are refused: nobody listens
    Simulator::Destroy();
}

TEST(GslbMepAgent, MalformedMepIsDroppedAndUnknownPeersRefused)
{
    // REQ: GSLB-07 (MEP from a peer that does not parse is dropped with a reason)
    // Hosts 10.1.1.1 .. 10.1.4.1; only site 1 (10.1.2.1) runs an agent. Site 0 (lower IP)
    // connects to it, site 2 (higher IP) must not, host 3 is no site at all.
    Domain d(3, {false, true, false}, 4);
    const Address mep = InetSocketAddress(d.lan.ClientIp(1), AdcMepMessage::kPort);
    const std::vector<uint8_t> ka = AdcMepMessage::KeepAlive().Serialize();
    const std::string bad("\x02\x06\x09\x00\x03\x00\x00\x00", 8); // length 3 < 8
    adctest::RawPeer site0;
    site0.toSend = std::string(ka.begin(), ka.end()) + bad;
    adctest::RawPeer site2;
    adctest::RawPeer stranger;
    site0.ConnectAt(Seconds(1), d.lan.clients.Get(0), mep);
    site2.ConnectAt(Seconds(1), d.lan.clients.Get(2), mep);
    stranger.ConnectAt(Seconds(1), d.lan.clients.Get(3), mep);
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    ASSERT_EQ(d.drops.size(), 3U);
    std::vector<std::string> reasons;
    for (const auto& [site, reason] : d.drops)
    {
        EXPECT_EQ(site, 1U);
        reasons.push_back(reason);
    }
    std::sort(reasons.begin(), reasons.end());
    EXPECT_TRUE(Has(reasons[0], "connection refused: 10.1.3.1 has the higher site IP"))
        << reasons[0];
    EXPECT_TRUE(Has(reasons[1], "connection refused: 10.1.4.1 is not a known peer site"))
        << reasons[1];
    EXPECT_TRUE(Has(reasons[2], "malformed MEP: AdcMepFramer: message at stream byte 8"))
        << reasons[2];
    EXPECT_TRUE(Has(reasons[2], "length 3")) << reasons[2];
    // The keep-alive before the bad bytes was taken; then the connection was closed.
    const std::vector<PeerRecord> states = d.States(1, 0);
    ASSERT_EQ(states.size(), 2U);
    EXPECT_TRUE(states[0].up);
    EXPECT_FALSE(states[1].up);
    std::size_t heard = 0;
    for (const MessageRecord& r : d.messages)
    {
        heard += !r.sent && r.peer == 0 && r.m.type == AdcMepMessage::KEEP_ALIVE ? 1 : 0;
    }
    EXPECT_EQ(heard, 1U);
    EXPECT_TRUE(site0.closed);
    EXPECT_TRUE(d.States(1, 2).empty() || !d.States(1, 2).back().up);
    Simulator::Destroy();
}

TEST(GslbMepAgent, ConfigurationIsChecked)
{
    Ptr<GslbMepAgent> a = CreateObject<GslbMepAgent>();
    a->AddPeer(1, Ipv4Address("10.0.0.2"));
    EXPECT_TRUE(Has(adctest::ConfigErrorOf([&] { a->AddPeer(1, Ipv4Address("10.0.0.3")); }),
                    "repeats a peer's site or IP"));
    EXPECT_TRUE(Has(adctest::ConfigErrorOf([&] { a->AddPeer(2, Ipv4Address("10.0.0.2")); }),
                    "repeats a peer's site or IP"));
}

TEST(GslbMepAgent, PcapDecodesAsMepWithTheRttRecords)
{
    // REQ: GSLB-07 (MEP messages in a pcap, as Wireshark reads them)
    if (std::system("command -v tshark >/dev/null 2>&1") != 0)
    {
        GTEST_SKIP() << "tshark is not installed (apt-get install tshark)";
    }
    const std::string dir = adctest::FreshTempDir("gslb-mep-agent");
    const std::string pcap = dir + "/mep.pcap";
    Domain d(2);
    PointToPointHelper p2p;
    p2p.EnablePcap(pcap, P2pDevice(d.lan.clients.Get(0)), false, true);
    Simulator::Schedule(Seconds(1),
                        [&d] { d.Measure(0, Ipv4Address("198.51.100.77"), MilliSeconds(42)); });
    Simulator::Schedule(Seconds(1.5),
                        [&d] { d.Measure(1, Ipv4Address("203.0.113.5"), MilliSeconds(7)); });
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    Simulator::Destroy();
    const std::string tshark = "tshark -n -r '" + pcap + "' -d tcp.port==3011,nstrace.mep ";
    const std::string out = adctest::RunCommand(
        tshark + "-Y 'nstrace.mep.type == 7' -T fields -E 'separator=;' -e ip.src " +
        "-e nstrace.mep.mfu.roundTripTime 2>/dev/null");
    EXPECT_EQ(adctest::OutputLines(out), (std::vector<std::string>{"10.1.1.1;42", "10.1.1.2;7"}))
        << out;
    // packet-ns-mep.c adds nstrace.mep.ldns.ip with ENC_LITTLE_ENDIAN: a filter on the true LDNS
    // address finds its record.
    const std::string ldns = adctest::RunCommand(
        tshark + "-Y 'nstrace.mep.ldns.ip == 198.51.100.77 || nstrace.mep.ldns.ip == " +
        "203.0.113.5' -T fields -E 'separator=;' -e nstrace.mep.ldns.ip " +
        "-e nstrace.mep.mfu.roundTripTime 2>/dev/null");
    EXPECT_EQ(adctest::OutputLines(ldns),
              (std::vector<std::string>{"198.51.100.77;42", "203.0.113.5;7"}))
        << ldns;
    // One verbose pass: the records (the label prints the raw bytes in network order, so the
    // LDNS reversed), and no malformed packet or error anywhere.
    const std::string tree = adctest::RunCommand(tshark + "-V 2>/dev/null");
    EXPECT_TRUE(adctest::HasAll(tree,
                                {"LDNS IP Address: 198.51.100.77",
                                 "LDNS IP Address: 203.0.113.5",
                                 "Network Metrics of 77.100.51.198",
                                 "Round Trip Time: 42ms",
                                 "KEEP ALIVE"}));
    EXPECT_FALSE(Has(tree, "Malformed Packet"));
    EXPECT_FALSE(Has(tree, "[Severity level: Error]"));
    if (!HasFailure())
    {
        std::filesystem::remove_all(dir);
    }
}

namespace
{

/// A sink with exactly the signature of the function-pointer typedef T.
template <typename T>
struct SinkOf;

template <typename... Args>
struct SinkOf<void (*)(Args...)>
{
    static void Fn(Args...)
    {
    }
};

/**
 * \param o an object \param source a trace source \param typedefName the typedef it must cite
 * \param sink a sink built from that typedef
 */
template <typename T>
void
ExpectTraceSource(Ptr<Object> o, const std::string& source, const std::string& typedefName, T sink)
{
    TypeId tid = o->GetInstanceTypeId();
    bool found = false;
    for (std::size_t j = 0; j < tid.GetTraceSourceN(); ++j)
    {
        if (tid.GetTraceSource(j).name == source)
        {
            found = true;
            EXPECT_EQ(tid.GetTraceSource(j).callback, typedefName) << source;
        }
    }
    EXPECT_TRUE(found) << source;
    EXPECT_TRUE(o->TraceConnectWithoutContext(source, MakeCallback(sink))) << source;
}

} // namespace

TEST(GslbMepAgent, TraceSourcesCiteTheirTypedefs)
{
    Ptr<GslbRttDatabase> db = CreateObject<GslbRttDatabase>();
    ExpectTraceSource(db,
                      "Update",
                      "ns3::GslbRttDatabase::UpdateTracedCallback",
                      &SinkOf<GslbRttDatabase::UpdateTracedCallback>::Fn);
    ExpectTraceSource(db,
                      "Expire",
                      "ns3::GslbRttDatabase::ExpireTracedCallback",
                      &SinkOf<GslbRttDatabase::ExpireTracedCallback>::Fn);
    Ptr<GslbMepAgent> a = CreateObject<GslbMepAgent>();
    ExpectTraceSource(a,
                      "Message",
                      "ns3::GslbMepAgent::MessageTracedCallback",
                      &SinkOf<GslbMepAgent::MessageTracedCallback>::Fn);
    ExpectTraceSource(a,
                      "PeerState",
                      "ns3::GslbMepAgent::PeerStateTracedCallback",
                      &SinkOf<GslbMepAgent::PeerStateTracedCallback>::Fn);
    ExpectTraceSource(a,
                      "Drop",
                      "ns3::GslbMepAgent::DropTracedCallback",
                      &SinkOf<GslbMepAgent::DropTracedCallback>::Fn);
    EXPECT_EQ(TypeId::LookupByName("ns3::GslbMepAgent").GetTraceSourceN(), 3U);
    EXPECT_EQ(TypeId::LookupByName("ns3::GslbRttDatabase").GetTraceSourceN(), 2U);
}
