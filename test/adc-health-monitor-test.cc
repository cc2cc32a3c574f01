/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of AdcHealthMonitor: PING, TCP, UDP and HTTP probes over point-to-point links, the
 * UP/DOWN state machine and its timing, and configuration checks.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using State = AdcHealthMonitor::State;

/// Link parameters shared by the scenarios.
const uint64_t kRateBps = 1000000; // 1 Mb/s
const Time kDelay = MilliSeconds(2);
const uint32_t kPppHeader = 2; // point-to-point adds a 2-byte PPP header

/// Round trip of a PING probe whose IP packet is \p ipBytes long on the test link: two
/// transmissions (PPP frame at kRateBps) and two propagation delays; nothing else queues.
Time
PingRtt(uint32_t ipBytes)
{
    const double txSeconds = (ipBytes + kPppHeader) * 8.0 / kRateBps;
    return 2 * (kDelay + Seconds(txSeconds));
}

/// IP packet size of an echo request with \p dataSize data bytes: IPv4 20 + ICMP 4 + echo 4.
uint32_t
EchoIpBytes(uint32_t dataSize)
{
    return 20 + 4 + 4 + dataSize;
}

/// One "Probe" trace call.
struct ProbeEvent
{
    Time at;            //!< when the outcome was known
    uint32_t index;     //!< target index
    std::string name;   //!< target name
    bool success;       //!< outcome
    Time rtt;           //!< reported round trip
    std::string reason; //!< reported reason

    /// \return when the probe was sent
    Time SentAt() const
    {
        return at - rtt;
    }
};

/// One "StateChange" trace call.
struct StateEvent
{
    Time at;          //!< when
    uint32_t index;   //!< target index
    std::string name; //!< target name
    State from;       //!< old state
    State to;         //!< new state
};

/// A tiny HTTP server: answers every request head with a fixed response, then closes.
class TinyHttpResponder
{
  public:
    TinyHttpResponder(Ptr<Node> node, uint16_t port, const std::string& response)
        : m_response(response)
    {
        m_listener = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&TinyHttpResponder::Accept, this));
    }

    /// \return every request byte received, concatenated
    const std::string& GetRequests() const
    {
        return m_requests;
    }

  private:
    void Accept(Ptr<Socket> s, const Address& /* from */)
    {
        s->SetRecvCallback(MakeCallback(&TinyHttpResponder::Read, this));
        m_pending.clear();
    }

    void Read(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            std::string bytes(p->GetSize(), '\0');
            p->CopyData(reinterpret_cast<uint8_t*>(&bytes[0]), p->GetSize());
            m_pending += bytes;
            m_requests += bytes;
        }
        if (m_pending.find("\r\n\r\n") != std::string::npos)
        {
            m_pending.clear();
            s->Send(Create<Packet>(reinterpret_cast<const uint8_t*>(m_response.data()),
                                   m_response.size()));
            s->Close();
        }
    }

    std::string m_response; //!< what every request gets
    Ptr<Socket> m_listener; //!< listening socket
    std::string m_pending;  //!< bytes of the request being received
    std::string m_requests; //!< all request bytes
};

class AdcHealthMonitorTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Monitor node 0 linked point-to-point to target nodes 1..nTargets, 10.1.<i>.0/24 each;
    /// the target on link i is 10.1.<i>.2.
    void BuildStar(uint32_t nTargets)
    {
        m_nodes.Create(nTargets + 1);
        InternetStackHelper().Install(m_nodes);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(kRateBps)));
        p2p.SetChannelAttribute("Delay", TimeValue(kDelay));
        for (uint32_t i = 1; i <= nTargets; ++i)
        {
            NetDeviceContainer devs = p2p.Install(m_nodes.Get(0), m_nodes.Get(i));
            Ipv4AddressHelper addresses;
            const std::string net = "10.1." + std::to_string(i) + ".0";
            addresses.SetBase(net.c_str(), "255.255.255.0");
            Ipv4InterfaceContainer ifs = addresses.Assign(devs);
            m_targetAddresses.push_back(ifs.GetAddress(1));
        }
    }

    /// \return a monitor on node 0 with \p attributes applied, traces connected
    Ptr<AdcHealthMonitor> MakeMonitor(
        const std::vector<std::pair<std::string, std::string>>& attributes)
    {
        Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
        for (const auto& [name, value] : attributes)
        {
            m->SetAttribute(name, StringValue(value));
        }
        m->TraceConnectWithoutContext("Probe", MakeCallback(&AdcHealthMonitorTest::OnProbe, this));
        m->TraceConnectWithoutContext("StateChange",
                                      MakeCallback(&AdcHealthMonitorTest::OnState, this));
        m->TraceConnectWithoutContext("Drop", MakeCallback(&AdcHealthMonitorTest::OnDrop, this));
        m_nodes.Get(0)->AddApplication(m);
        return m;
    }

    void OnProbe(uint32_t index,
                 const std::string& name,
                 bool success,
                 Time rtt,
                 const std::string& reason)
    {
        m_probes.push_back({Simulator::Now(), index, name, success, rtt, reason});
    }

    void OnState(uint32_t index, const std::string& name, State from, State to)
    {
        m_states.push_back({Simulator::Now(), index, name, from, to});
    }

    void OnDrop(Ptr<const Packet> /* packet */, const std::string& reason)
    {
        m_drops.push_back(reason);
    }

    /// \return the probe events of target \p index
    std::vector<ProbeEvent> ProbesOf(uint32_t index) const
    {
        std::vector<ProbeEvent> out;
        for (const ProbeEvent& e : m_probes)
        {
            if (e.index == index)
            {
                out.push_back(e);
            }
        }
        return out;
    }

    /// \return the state events of target \p index
    std::vector<StateEvent> StatesOf(uint32_t index) const
    {
        std::vector<StateEvent> out;
        for (const StateEvent& e : m_states)
        {
            if (e.index == index)
            {
                out.push_back(e);
            }
        }
        return out;
    }

    /// Set the interface of target node \p node (its link to the monitor) down or up at \p at.
    void SetTargetInterface(uint32_t node, bool up, Time at)
    {
        Ptr<Ipv4> ipv4 = m_nodes.Get(node)->GetObject<Ipv4>();
        Simulator::Schedule(at, up ? &Ipv4::SetUp : &Ipv4::SetDown, ipv4, 1);
    }

    /// Every state event of \p index must be an actual change.
    void ExpectOnlyRealChanges(uint32_t index) const
    {
        for (const StateEvent& e : StatesOf(index))
        {
            EXPECT_NE(e.from, e.to);
        }
    }

    NodeContainer m_nodes;
    std::vector<Ipv4Address> m_targetAddresses;
    std::vector<ProbeEvent> m_probes;
    std::vector<StateEvent> m_states;
    std::vector<std::string> m_drops;
    std::vector<std::unique_ptr<TinyHttpResponder>> m_responders;
};

// ---------------------------------------------------------------------------------------------
// PING
// ---------------------------------------------------------------------------------------------

TEST_F(AdcHealthMonitorTest, PingLiveTargetIsUpWithLinkRttAndIntervalSpacing)
{
    BuildStar(1);
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Interval", "5s"}, {"ResponseTimeout", "2s"}});
    m->AddTarget(m_targetAddresses[0], 0, "web1");
    EXPECT_EQ(m->GetState(0), State::UNKNOWN); // before the start: InitialState
    m->SetStartTime(Seconds(1));
    m->SetStopTime(Seconds(22)); // probes at 1, 6, 11, 16, 21
    Simulator::Run();

    const Time rtt = PingRtt(EchoIpBytes(56)); // default PingDataSize 56 -> 84-byte packets
    ASSERT_EQ(m_probes.size(), 5u);
    for (std::size_t i = 0; i < m_probes.size(); ++i)
    {
        const ProbeEvent& e = m_probes[i];
        EXPECT_TRUE(e.success);
        EXPECT_EQ(e.reason, "echo-reply");
        EXPECT_EQ(e.name, "web1");
        EXPECT_NEAR(e.rtt.GetSeconds(), rtt.GetSeconds(), 1e-6);
        EXPECT_EQ(e.SentAt(), Seconds(1) + Seconds(5) * static_cast<int64_t>(i));
        if (i > 0)
        {
            EXPECT_EQ(e.SentAt() - m_probes[i - 1].SentAt(), Seconds(5));
        }
    }
    ASSERT_EQ(m_states.size(), 1u);
    EXPECT_EQ(m_states[0].from, State::UNKNOWN);
    EXPECT_EQ(m_states[0].to, State::UP);
    EXPECT_EQ(m_states[0].at, m_probes[0].at);
    EXPECT_EQ(m->GetState(0), State::UP);
    EXPECT_TRUE(m_drops.empty());
}

TEST_F(AdcHealthMonitorTest, PingDataSizeChangesRttByItsTransmissionTime)
{
    BuildStar(1);
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"PingDataSize", "1000"}});
    m->AddTarget(m_targetAddresses[0], 0, "web1");
    m->SetStopTime(Seconds(1));
    Simulator::Run();
    ASSERT_EQ(m_probes.size(), 1u);
    EXPECT_NEAR(m_probes[0].rtt.GetSeconds(), PingRtt(EchoIpBytes(1000)).GetSeconds(), 1e-6);
}

TEST_F(AdcHealthMonitorTest, PingInterfaceDownGoesDownAfterRetriesThenUpAfterRecovery)
{
    BuildStar(1);
    const Time interval = Seconds(5);
    const Time timeout = Seconds(2);
    const Time downTime = Seconds(10);
    const uint32_t retries = 3;
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Interval", "5s"},
                                           {"ResponseTimeout", "2s"},
                                           {"DownTime", "10s"},
                                           {"Retries", std::to_string(retries)}});
    m->AddTarget(m_targetAddresses[0], 0, "web1");
    m->SetStopTime(Seconds(80));
    const Time downAt = Seconds(12);
    const Time upAt = Seconds(40);
    SetTargetInterface(1, false, downAt);
    SetTargetInterface(1, true, upAt);
    Simulator::Run();

    const std::vector<StateEvent> states = StatesOf(0);
    ASSERT_EQ(states.size(), 3u);
    EXPECT_EQ(states[0].to, State::UP);
    EXPECT_EQ(states[1].from, State::UP);
    EXPECT_EQ(states[1].to, State::DOWN);
    EXPECT_EQ(states[2].from, State::DOWN);
    EXPECT_EQ(states[2].to, State::UP);

    // The first failed probe is the first one sent after the interface went down.
    const ProbeEvent* firstFail = nullptr;
    uint32_t failuresBeforeDown = 0;
    for (const ProbeEvent& e : m_probes)
    {
        if (!e.success && e.at <= states[1].at)
        {
            firstFail = firstFail ? firstFail : &e;
            ++failuresBeforeDown;
            EXPECT_EQ(e.reason, "timeout");
            EXPECT_EQ(e.rtt, timeout);
        }
    }
    ASSERT_NE(firstFail, nullptr);
    EXPECT_GE(firstFail->SentAt(), downAt);
    EXPECT_LT(firstFail->SentAt(), downAt + interval);
    EXPECT_EQ(failuresBeforeDown, retries);
    const Time expectedDown =
        firstFail->SentAt() + interval * static_cast<int64_t>(retries - 1) + timeout;
    EXPECT_EQ(states[1].at, expectedDown);

    // While DOWN the probes are DownTime apart; the first one after recovery brings it UP.
    const Time rtt = PingRtt(EchoIpBytes(56));
    EXPECT_GT(states[2].at, upAt);
    EXPECT_LE(states[2].at - upAt, downTime + rtt);
    for (std::size_t i = 1; i < m_probes.size(); ++i)
    {
        const Time gap = m_probes[i].SentAt() - m_probes[i - 1].SentAt();
        const bool wasDown =
            m_probes[i - 1].at >= states[1].at && m_probes[i - 1].at < states[2].at;
        EXPECT_EQ(gap, wasDown ? downTime : interval) << "probe " << i;
    }
    ExpectOnlyRealChanges(0);
}

TEST_F(AdcHealthMonitorTest, PingLateReplyIsTimeoutAndDroppedWithReason)
{
    BuildStar(1);
    const Time rtt = PingRtt(EchoIpBytes(56));
    // A timeout shorter than the round trip: every reply arrives after its probe failed.
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Interval", "1s"}, {"ResponseTimeout", "3ms"}});
    ASSERT_LT(MilliSeconds(3), rtt);
    m->AddTarget(m_targetAddresses[0], 0, "web1");
    m->SetStopTime(Seconds(2.5)); // probes at 0, 1, 2 (then DOWN: next one DownTime later)
    Simulator::Run();
    ASSERT_EQ(m_probes.size(), 3u);
    for (const ProbeEvent& e : m_probes)
    {
        EXPECT_FALSE(e.success);
        EXPECT_EQ(e.reason, "timeout");
    }
    EXPECT_EQ(m->GetState(0), State::DOWN); // 3 failures (default Retries)
    ASSERT_EQ(m_drops.size(), 3u);
    for (const std::string& r : m_drops)
    {
        EXPECT_EQ(r, "icmp-late-reply");
    }
}

TEST_F(AdcHealthMonitorTest, SeveralTargetsHaveIndependentStates)
{
    BuildStar(2);
    Ptr<AdcHealthMonitor> m = MakeMonitor(
        {{"Interval", "1s"}, {"ResponseTimeout", "500ms"}, {"Retries", "2"}, {"DownTime", "2s"}});
    std::vector<std::tuple<uint32_t, State, State>> ownerCalls;
    m->SetStateChangeCallback(Callback<void, uint32_t, State, State>(
        [&ownerCalls](uint32_t i, State a, State b) { ownerCalls.emplace_back(i, a, b); }));
    EXPECT_EQ(m->AddTarget(m_targetAddresses[0], 0, "alive"), 0u);
    EXPECT_EQ(m->AddTarget(m_targetAddresses[1], 0, "dead"), 1u);
    EXPECT_EQ(m->GetNTargets(), 2u);
    SetTargetInterface(2, false, Seconds(0)); // "dead" never answers
    m->SetStopTime(Seconds(6));
    Simulator::Run();

    EXPECT_EQ(m->GetState(0), State::UP);
    EXPECT_EQ(m->GetState(1), State::DOWN);
    const std::vector<StateEvent> alive = StatesOf(0);
    const std::vector<StateEvent> dead = StatesOf(1);
    ASSERT_EQ(alive.size(), 1u);
    EXPECT_EQ(alive[0].to, State::UP);
    EXPECT_EQ(alive[0].name, "alive");
    ASSERT_EQ(dead.size(), 1u);
    EXPECT_EQ(dead[0].from, State::UNKNOWN);
    EXPECT_EQ(dead[0].to, State::DOWN);
    EXPECT_EQ(dead[0].name, "dead");
    EXPECT_EQ(dead[0].at, Seconds(1) + MilliSeconds(500)); // probes at 0 and 1 time out
    for (const ProbeEvent& e : ProbesOf(0))
    {
        EXPECT_TRUE(e.success);
    }
    for (const ProbeEvent& e : ProbesOf(1))
    {
        EXPECT_FALSE(e.success);
    }
    // "alive" is probed every second throughout; "dead" every DownTime once DOWN.
    EXPECT_EQ(ProbesOf(0).size(), 6u);      // 0..5
    EXPECT_EQ(ProbesOf(1).size(), 2u + 2u); // 0, 1, then 3, 5
    // The owner callback saw exactly what the trace saw.
    ASSERT_EQ(ownerCalls.size(), m_states.size());
    for (std::size_t i = 0; i < ownerCalls.size(); ++i)
    {
        EXPECT_EQ(std::get<0>(ownerCalls[i]), m_states[i].index);
        EXPECT_EQ(std::get<1>(ownerCalls[i]), m_states[i].from);
        EXPECT_EQ(std::get<2>(ownerCalls[i]), m_states[i].to);
    }
}

TEST_F(AdcHealthMonitorTest, InitialDownNeedsSuccessRetriesSpacedByDownTime)
{
    BuildStar(1);
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"InitialState", "DOWN"},
                                           {"SuccessRetries", "2"},
                                           {"Interval", "1s"},
                                           {"ResponseTimeout", "500ms"},
                                           {"DownTime", "3s"}});
    m->AddTarget(m_targetAddresses[0], 0, "web1");
    EXPECT_EQ(m->GetState(0), State::DOWN);
    m->SetStopTime(Seconds(5.5)); // probes at 0 (DOWN), 3 (-> UP), 4, 5
    Simulator::Run();
    const Time rtt = PingRtt(EchoIpBytes(56));
    ASSERT_EQ(m_states.size(), 1u);
    EXPECT_EQ(m_states[0].from, State::DOWN);
    EXPECT_EQ(m_states[0].to, State::UP);
    EXPECT_NEAR(m_states[0].at.GetSeconds(), (Seconds(3) + rtt).GetSeconds(), 1e-6);
    ASSERT_EQ(m_probes.size(), 4u);
    EXPECT_EQ(m_probes[1].SentAt(), Seconds(3));
    EXPECT_EQ(m_probes[3].SentAt(), Seconds(5));
}

TEST_F(AdcHealthMonitorTest, JitterIsBoundedAndReproducibleWithAssignStreams)
{
    auto run = [this](int64_t stream) {
        BuildStar(1);
        Ptr<AdcHealthMonitor> m =
            MakeMonitor({{"Interval", "1s"}, {"ResponseTimeout", "100ms"}, {"Jitter", "200ms"}});
        EXPECT_EQ(m->AssignStreams(stream), 1);
        m->AddTarget(m_targetAddresses[0], 0, "web1");
        m->SetStopTime(Seconds(10));
        Simulator::Run();
        std::vector<Time> sent;
        for (const ProbeEvent& e : m_probes)
        {
            sent.push_back(e.SentAt());
        }
        Simulator::Destroy();
        m_nodes = NodeContainer();
        m_targetAddresses.clear();
        m_probes.clear();
        m_states.clear();
        return sent;
    };
    const std::vector<Time> a = run(7);
    const std::vector<Time> b = run(7);
    ASSERT_GE(a.size(), 8u);
    EXPECT_EQ(a, b);
    EXPECT_LT(a[0], MilliSeconds(200));
    bool anyJitter = false;
    for (std::size_t i = 1; i < a.size(); ++i)
    {
        const Time gap = a[i] - a[i - 1];
        EXPECT_GE(gap, Seconds(1));
        EXPECT_LT(gap, Seconds(1.2));
        anyJitter = anyJitter || gap != Seconds(1);
    }
    EXPECT_TRUE(anyJitter);
}

TEST_F(AdcHealthMonitorTest, PingIpv6TargetIsUp)
{
    m_nodes.Create(2);
    InternetStackHelper().Install(m_nodes);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(kRateBps)));
    p2p.SetChannelAttribute("Delay", TimeValue(kDelay));
    NetDeviceContainer devs = p2p.Install(m_nodes);
    Ipv6AddressHelper addresses;
    addresses.SetBase(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
    Ipv6InterfaceContainer ifs = addresses.Assign(devs);
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Interval", "1s"}, {"ResponseTimeout", "500ms"}});
    m->AddTarget(ifs.GetAddress(1, 1), 0, "v6");
    m->SetStartTime(Seconds(2)); // after duplicate address detection
    m->SetStopTime(Seconds(4.5));
    Simulator::Run();
    ASSERT_EQ(m_probes.size(), 3u);
    // IPv6 40 + ICMPv6 echo 8 + 56 data bytes.
    const Time rtt = PingRtt(40 + 8 + 56);
    for (const ProbeEvent& e : m_probes)
    {
        EXPECT_TRUE(e.success);
        EXPECT_EQ(e.reason, "echo-reply");
        EXPECT_NEAR(e.rtt.GetSeconds(), rtt.GetSeconds(), 1e-6);
    }
    EXPECT_EQ(m->GetState(0), State::UP);
}

TEST_F(AdcHealthMonitorTest, TwoPingMonitorsOnOneNodeSeeOnlyTheirOwnReplies)
{
    BuildStar(1);
    Ptr<AdcHealthMonitor> a =
        MakeMonitor({{"Name", "a"}, {"Interval", "1s"}, {"ResponseTimeout", "500ms"}});
    Ptr<AdcHealthMonitor> b =
        MakeMonitor({{"Name", "b"}, {"Interval", "2s"}, {"ResponseTimeout", "500ms"}});
    uint32_t aProbes = 0;
    uint32_t bProbes = 0;
    a->TraceConnectWithoutContext(
        "Probe",
        Callback<void, uint32_t, const std::string&, bool, Time, const std::string&>(
            [&aProbes](uint32_t, const std::string&, bool ok, Time, const std::string&) {
                aProbes += ok ? 1 : 0;
            }));
    b->TraceConnectWithoutContext(
        "Probe",
        Callback<void, uint32_t, const std::string&, bool, Time, const std::string&>(
            [&bProbes](uint32_t, const std::string&, bool ok, Time, const std::string&) {
                bProbes += ok ? 1 : 0;
            }));
    a->AddTarget(m_targetAddresses[0], 0, "web1");
    b->AddTarget(m_targetAddresses[0], 0, "web1");
    a->SetStopTime(Seconds(3.5)); // a: 0, 1, 2, 3
    b->SetStopTime(Seconds(3.5)); // b: 0, 2
    Simulator::Run();
    EXPECT_EQ(aProbes, 4u);
    EXPECT_EQ(bProbes, 2u);
    EXPECT_EQ(m_probes.size(), 6u); // every probe succeeded exactly once
    EXPECT_TRUE(m_drops.empty());   // each ignores the other's replies
}

// ---------------------------------------------------------------------------------------------
// TCP
// ---------------------------------------------------------------------------------------------

TEST_F(AdcHealthMonitorTest, TcpListeningPortIsUpClosedPortIsDownByRefusal)
{
    BuildStar(1);
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 80));
    sink.Install(m_nodes.Get(1));
    const Time interval = Seconds(1);
    const Time timeout = MilliSeconds(500);
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Type", "TCP"},
                                           {"Interval", "1s"},
                                           {"ResponseTimeout", "500ms"},
                                           {"DownTime", "2s"},
                                           {"Retries", "3"}});
    m->AddTarget(m_targetAddresses[0], 80, "open");
    m->AddTarget(m_targetAddresses[0], 81, "closed");
    m->SetStopTime(Seconds(4.5));
    Simulator::Run();

    EXPECT_EQ(m->GetState(0), State::UP);
    EXPECT_EQ(m->GetState(1), State::DOWN);
    const std::vector<ProbeEvent> open = ProbesOf(0);
    ASSERT_EQ(open.size(), 5u);
    for (const ProbeEvent& e : open)
    {
        EXPECT_TRUE(e.success);
        EXPECT_EQ(e.reason, "connected");
        EXPECT_LT(e.rtt, timeout); // the handshake, far quicker than the timeout
    }
    const std::vector<ProbeEvent> closed = ProbesOf(1);
    ASSERT_GE(closed.size(), 3u);
    for (const ProbeEvent& e : closed)
    {
        EXPECT_FALSE(e.success);
        EXPECT_EQ(e.reason, "connection-refused");
        EXPECT_LT(e.rtt, timeout); // the RST answers the SYN at once
    }
    // DOWN on the third refusal: sent at 2 * Interval, answered one round trip later.
    const std::vector<StateEvent> states = StatesOf(1);
    ASSERT_EQ(states.size(), 1u);
    EXPECT_EQ(states[0].to, State::DOWN);
    EXPECT_EQ(states[0].at, closed[2].at);
    EXPECT_EQ(closed[2].SentAt(), 2 * interval);
}

TEST_F(AdcHealthMonitorTest, TcpDestinationPortOverridesTargetPort)
{
    BuildStar(1);
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 80));
    sink.Install(m_nodes.Get(1));
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Type", "TCP"}, {"DestinationPort", "80"}});
    m->AddTarget(m_targetAddresses[0], 81, "svc"); // its own port 81 is closed
    m->SetStopTime(Seconds(1));
    Simulator::Run();
    ASSERT_EQ(m_probes.size(), 1u);
    EXPECT_TRUE(m_probes[0].success);
}

// ---------------------------------------------------------------------------------------------
// UDP
// ---------------------------------------------------------------------------------------------

TEST_F(AdcHealthMonitorTest, UdpEchoIsUpClosedPortIsDownByIcmpSilenceIsUp)
{
    BuildStar(1);
    UdpEchoServerHelper echo(9);
    echo.Install(m_nodes.Get(1));
    PacketSinkHelper silent("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 11));
    silent.Install(m_nodes.Get(1));
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Type", "UDP"},
                                           {"UdpPayload", "health?"},
                                           {"Interval", "1s"},
                                           {"ResponseTimeout", "500ms"},
                                           {"DownTime", "2s"}});
    m->AddTarget(m_targetAddresses[0], 9, "echo");
    m->AddTarget(m_targetAddresses[0], 10, "closed");
    m->AddTarget(m_targetAddresses[0], 11, "silent");
    m->SetStopTime(Seconds(3.5));
    Simulator::Run();

    EXPECT_EQ(m->GetState(0), State::UP);
    EXPECT_EQ(m->GetState(1), State::DOWN);
    EXPECT_EQ(m->GetState(2), State::UP);
    for (const ProbeEvent& e : ProbesOf(0))
    {
        EXPECT_TRUE(e.success);
        EXPECT_EQ(e.reason, "udp-reply");
    }
    const std::vector<ProbeEvent> closed = ProbesOf(1);
    ASSERT_EQ(closed.size(), 3u); // 0, 1, 2 -> DOWN; next would be at 4
    for (const ProbeEvent& e : closed)
    {
        EXPECT_FALSE(e.success);
        EXPECT_EQ(e.reason, "icmp-port-unreachable");
        EXPECT_LT(e.rtt, MilliSeconds(500));
    }
    for (const ProbeEvent& e : ProbesOf(2))
    {
        EXPECT_TRUE(e.success);
        EXPECT_EQ(e.reason, "no-reply");
        EXPECT_EQ(e.rtt, MilliSeconds(500));
    }
}

TEST_F(AdcHealthMonitorTest, UdpRequireReplySilentTargetIsDownByTimeout)
{
    BuildStar(1);
    PacketSinkHelper silent("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 11));
    silent.Install(m_nodes.Get(1));
    const Time interval = Seconds(1);
    const Time timeout = MilliSeconds(400);
    const uint32_t retries = 2;
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Type", "UDP"},
                                           {"UdpRequireReply", "true"},
                                           {"Interval", "1s"},
                                           {"ResponseTimeout", "400ms"},
                                           {"Retries", "2"}});
    m->AddTarget(m_targetAddresses[0], 11, "silent");
    m->SetStopTime(Seconds(5));
    Simulator::Run();
    ASSERT_EQ(m_states.size(), 1u);
    EXPECT_EQ(m_states[0].to, State::DOWN);
    ASSERT_GE(m_probes.size(), retries);
    EXPECT_EQ(m_probes[0].reason, "timeout");
    EXPECT_EQ(m_states[0].at,
              m_probes[0].SentAt() + interval * static_cast<int64_t>(retries - 1) + timeout);
}

TEST_F(AdcHealthMonitorTest, Ipv6TcpRefusalAndUdpPortUnreachable)
{
    m_nodes.Create(2);
    InternetStackHelper().Install(m_nodes);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(kRateBps)));
    p2p.SetChannelAttribute("Delay", TimeValue(kDelay));
    NetDeviceContainer devs = p2p.Install(m_nodes);
    Ipv6AddressHelper addresses;
    addresses.SetBase(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
    const Ipv6Address target = addresses.Assign(devs).GetAddress(1, 1);
    PacketSinkHelper sink("ns3::TcpSocketFactory", Inet6SocketAddress(Ipv6Address::GetAny(), 80));
    sink.Install(m_nodes.Get(1));
    UdpEchoServerHelper echo(9);
    echo.Install(m_nodes.Get(1));
    const std::vector<std::pair<std::string, std::string>> timing = {{"Interval", "1s"},
                                                                     {"ResponseTimeout", "500ms"}};
    Ptr<AdcHealthMonitor> tcp = MakeMonitor(timing);
    tcp->SetAttribute("Type", StringValue("TCP"));
    tcp->AddTarget(target, 80, "tcp-open");
    tcp->AddTarget(target, 81, "tcp-closed");
    Ptr<AdcHealthMonitor> udp = MakeMonitor(timing);
    udp->SetAttribute("Type", StringValue("UDP"));
    udp->SetAttribute("UdpRequireReply", BooleanValue(true));
    udp->AddTarget(target, 9, "udp-echo");
    udp->AddTarget(target, 10, "udp-closed");
    for (const Ptr<AdcHealthMonitor>& m : {tcp, udp})
    {
        m->SetStartTime(Seconds(2)); // after duplicate address detection
        m->SetStopTime(Seconds(2.9));
    }
    Simulator::Run();
    std::map<std::string, std::string> reasonOf;
    for (const ProbeEvent& e : m_probes)
    {
        reasonOf[e.name] = e.reason;
    }
    EXPECT_EQ(reasonOf["tcp-open"], "connected");
    EXPECT_EQ(reasonOf["tcp-closed"], "connection-refused");
    EXPECT_EQ(reasonOf["udp-echo"], "udp-reply");
    EXPECT_EQ(reasonOf["udp-closed"], "icmp-port-unreachable");
    EXPECT_EQ(tcp->GetState(0), State::UP);
    EXPECT_EQ(udp->GetState(0), State::UP);
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

TEST_F(AdcHealthMonitorTest, HttpStatusDecidesAndRequestCarriesHostHeader)
{
    BuildStar(1);
    m_responders.push_back(
        std::make_unique<TinyHttpResponder>(m_nodes.Get(1),
                                            80,
                                            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
    m_responders.push_back(std::make_unique<TinyHttpResponder>(
        m_nodes.Get(1),
        8080,
        "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"));
    m_responders.push_back(
        std::make_unique<TinyHttpResponder>(m_nodes.Get(1), 8081, "HTTP/1.1 2x0 OK\r\n\r\n"));
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Type", "HTTP"},
                                           {"HttpRequest", "GET /health"},
                                           {"Interval", "1s"},
                                           {"ResponseTimeout", "500ms"},
                                           {"DownTime", "2s"}});
    m->AddTarget(m_targetAddresses[0], 80, "ok");
    m->AddTarget(m_targetAddresses[0], 8080, "unavailable");
    m->AddTarget(m_targetAddresses[0], 8081, "garbage");
    m->SetStopTime(Seconds(3.5));
    Simulator::Run();

    EXPECT_EQ(m->GetState(0), State::UP);
    EXPECT_EQ(m->GetState(1), State::DOWN);
    EXPECT_EQ(m->GetState(2), State::DOWN);
    const std::vector<ProbeEvent> ok = ProbesOf(0);
    ASSERT_EQ(ok.size(), 4u);
    for (const ProbeEvent& e : ok)
    {
        EXPECT_TRUE(e.success);
        EXPECT_EQ(e.reason, "http-status-200");
    }
    const std::vector<ProbeEvent> bad = ProbesOf(1);
    ASSERT_EQ(bad.size(), 3u);
    for (const ProbeEvent& e : bad)
    {
        EXPECT_FALSE(e.success);
        EXPECT_EQ(e.reason, "http-status-503");
    }
    for (const ProbeEvent& e : ProbesOf(2))
    {
        EXPECT_FALSE(e.success);
        EXPECT_EQ(e.reason, "http-parse-error");
    }
    const std::string expectedHead =
        "GET /health HTTP/1.1\r\nHost: " + AdcIpAddress(m_targetAddresses[0]).ToString() +
        "\r\nConnection: close\r\n\r\n";
    EXPECT_EQ(m_responders[0]->GetRequests().substr(0, expectedHead.size()), expectedHead);
    // Non-default port: the Host header carries it.
    EXPECT_NE(m_responders[1]->GetRequests().find(
                  "Host: " + AdcIpAddress(m_targetAddresses[0]).ToString() + ":8080\r\n"),
              std::string::npos);
}

TEST_F(AdcHealthMonitorTest, HttpHeadDefaultAcceptsOnlyTheExpectedStatus)
{
    BuildStar(1);
    m_responders.push_back(std::make_unique<TinyHttpResponder>(
        m_nodes.Get(1),
        80,
        "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"));
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Type", "HTTP"}, {"HttpExpectedStatus", "204"}});
    m->AddTarget(m_targetAddresses[0], 80, "nocontent");
    m->SetStopTime(Seconds(1));
    Simulator::Run();
    ASSERT_EQ(m_probes.size(), 1u);
    EXPECT_TRUE(m_probes[0].success);
    EXPECT_EQ(m_probes[0].reason, "http-status-204");
    EXPECT_EQ(m_responders[0]->GetRequests().substr(0, 16), "HEAD / HTTP/1.1\r");
}

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------

/// \return the AdcConfigError message of \p m->Validate(), or "" when it passes
std::string
ValidationError(Ptr<AdcHealthMonitor> m)
{
    try
    {
        m->Validate();
    }
    catch (const AdcConfigError& e)
    {
        return e.what();
    }
    return "";
}

TEST(AdcHealthMonitorConfig, BadSettingsThrowNamingTheAttribute)
{
    auto with = [](const std::string& name, const std::string& value) {
        Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
        m->SetAttribute(name, StringValue(value));
        return m;
    };
    EXPECT_EQ(ValidationError(CreateObject<AdcHealthMonitor>()), ""); // defaults are valid

    const std::string timeoutError = ValidationError(with("ResponseTimeout", "5s"));
    EXPECT_NE(timeoutError.find("ResponseTimeout"), std::string::npos) << timeoutError;
    EXPECT_NE(timeoutError.find("5s"), std::string::npos) << timeoutError;
    EXPECT_NE(timeoutError.find("Interval"), std::string::npos) << timeoutError;
    EXPECT_NE(ValidationError(with("ResponseTimeout", "9s")), "");
    EXPECT_NE(ValidationError(with("ResponseTimeout", "0s")).find("ResponseTimeout"),
              std::string::npos);

    const std::string retriesError = ValidationError(with("Retries", "0"));
    EXPECT_NE(retriesError.find("Retries 0"), std::string::npos) << retriesError;
    EXPECT_NE(ValidationError(with("SuccessRetries", "0")).find("SuccessRetries"),
              std::string::npos);

    const std::string intervalError = ValidationError(with("Interval", "0s"));
    EXPECT_NE(intervalError.find("Interval 0s"), std::string::npos) << intervalError;
    EXPECT_NE(ValidationError(with("DownTime", "1s")).find("DownTime"), std::string::npos);
    EXPECT_NE(ValidationError(with("Jitter", "-1s")).find("Jitter"), std::string::npos);
    EXPECT_NE(ValidationError(with("PingDataSize", "70000")).find("PingDataSize"),
              std::string::npos);

    Ptr<AdcHealthMonitor> http = with("Type", "HTTP");
    http->SetAttribute("HttpRequest", StringValue("GET"));
    EXPECT_NE(ValidationError(http).find("HttpRequest 'GET'"), std::string::npos);
    http->SetAttribute("HttpRequest", StringValue("GET /x"));
    EXPECT_EQ(ValidationError(http), "");
    http->SetAttribute("HttpExpectedStatus", UintegerValue(42));
    EXPECT_NE(ValidationError(http).find("HttpExpectedStatus"), std::string::npos);

    Ptr<AdcHealthMonitor> tcp = with("Type", "TCP");
    tcp->AddTarget(Ipv4Address("10.0.0.1"), 0, "noport");
    EXPECT_NE(ValidationError(tcp).find("noport"), std::string::npos);
    tcp->SetAttribute("DestinationPort", UintegerValue(80));
    EXPECT_EQ(ValidationError(tcp), "");
}

TEST(AdcHealthMonitorConfig, BadTargetsAndIndicesThrow)
{
    Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
    EXPECT_THROW(m->AddTarget(AdcIpAddress(), 80, "none"), AdcConfigError);
    m->AddTarget(Ipv4Address("10.0.0.1"), 80, "a");
    EXPECT_THROW(m->GetState(1), AdcConfigError);
    EXPECT_THROW(m->GetTargetName(7), AdcConfigError);
    EXPECT_EQ(m->GetTargetName(0), "a");
}

TEST_F(AdcHealthMonitorTest, StartWithBadConfigurationThrowsFromTheSimulation)
{
    BuildStar(1);
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Interval", "1s"}, {"ResponseTimeout", "1s"}});
    m->AddTarget(m_targetAddresses[0], 0, "web1");
    try
    {
        Simulator::Run();
        FAIL() << "no AdcConfigError";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("ResponseTimeout"), std::string::npos);
    }
    EXPECT_TRUE(m_probes.empty());
}

TEST(AdcHealthMonitorNames, StatesAndTypesPrintTheirNames)
{
    EXPECT_EQ(AdcHealthMonitor::ToString(State::UNKNOWN), "UNKNOWN");
    EXPECT_EQ(AdcHealthMonitor::ToString(State::UP), "UP");
    EXPECT_EQ(AdcHealthMonitor::ToString(State::DOWN), "DOWN");
    EXPECT_EQ(AdcHealthMonitor::ToString(AdcHealthMonitor::HTTP), "HTTP");
    std::ostringstream os;
    os << State::DOWN;
    EXPECT_EQ(os.str(), "DOWN");
}

} // namespace

// REQ: GSLB-03 (the LDNS prober moves an LDNS between monitors: a disabled target gets no
// probes and its probe in flight is abandoned unreported; re-enabled, it is probed after the
// delay given)
TEST_F(AdcHealthMonitorTest, DisabledTargetGetsNoProbesAndReenabledStartsAfterTheDelay)
{
    BuildStar(2);
    Ptr<AdcHealthMonitor> m = MakeMonitor({{"Interval", "5s"}, {"ResponseTimeout", "2s"}});
    m->AddTarget(m_targetAddresses[0], 0, "kept");
    m->AddTarget(m_targetAddresses[1], 0, "moved");
    m->SetTargetEnabled(0, false); // before the start: no probe at the start
    EXPECT_FALSE(m->IsTargetEnabled(0));
    Simulator::Schedule(Seconds(0.5), [m] { m->SetTargetEnabled(0, true, Seconds(2)); });
    SetTargetInterface(2, false, Seconds(5)); // "moved" stops answering
    // Its probe of 5 s is in flight (timeout due at 7 s) when it is disabled at 6 s.
    Simulator::Schedule(Seconds(6), [m] { m->SetTargetEnabled(1, false); });
    Simulator::Schedule(Seconds(12), [m] { m->SetTargetEnabled(1, true, Seconds(1)); });
    m->SetStartTime(Seconds(0));
    m->SetStopTime(Seconds(19));
    Simulator::Run();

    // "kept": enabled at 0.5 s with a 2 s delay, then every Interval.
    std::vector<Time> kept;
    for (const ProbeEvent& e : ProbesOf(0))
    {
        kept.push_back(e.SentAt());
        EXPECT_TRUE(e.success);
    }
    EXPECT_EQ(kept, (std::vector<Time>{Seconds(2.5), Seconds(7.5), Seconds(12.5), Seconds(17.5)}));
    // "moved": the answered probe at 0 s; the one of 5 s abandoned (no timeout report at 7 s);
    // re-enabled at 12 s + 1 s: probed at 13 s, timed out at 15 s; the next (18 s) still in
    // flight at the stop.
    const std::vector<ProbeEvent> moved = ProbesOf(1);
    ASSERT_EQ(moved.size(), 2u);
    EXPECT_EQ(moved[0].SentAt(), Seconds(0));
    EXPECT_TRUE(moved[0].success);
    EXPECT_EQ(moved[1].SentAt(), Seconds(13));
    EXPECT_EQ(moved[1].at, Seconds(15));
    EXPECT_EQ(moved[1].reason, "timeout");
    EXPECT_THROW(m->SetTargetEnabled(2, true), AdcConfigError);
}
