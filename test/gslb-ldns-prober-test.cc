/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of GSLB's LDNS RTT probing: GslbDnsProbe (the ldns-dns probe kind) and GslbLdnsProber
 * (the monitors ldns-ping, ldns-dns, ldns-tcp, the fallback between them, the probe order, the
 * RTT rule and the entry timeout), over one point-to-point link whose rate and delay are set
 * here, so every expected RTT is derived from them and from the packets' sizes.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-dns-server.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/gslb-dns-probe.h"
#include "ns3/gslb-ldns-prober.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/ppp-header.h"

#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <vector>

using namespace ns3;
using adctest::ConfigErrorOf;
using adctest::HasAll;

namespace
{

using Kind = GslbLdnsProber::Kind;

const uint64_t kRateBps = 1000000;   // 1 Mb/s: transmission times are visible in RTTs
const Time kDelay = MilliSeconds(7); // one-way propagation delay
const uint32_t kPppBytes = 2;        // point-to-point's PPP header
const uint32_t kIpv4Bytes = 20;      // IPv4 header without options
const uint32_t kUdpBytes = 8;        // UDP header
const uint32_t kPingDataBytes = 56;  // AdcHealthMonitor's default PingDataSize
const Time kInterval = Seconds(5);   // NetScaler's default monitor interval (GSLB-10)
const Time kTimeout = Seconds(2);    // NetScaler's default response timeout (GSLB-10)

/// \param frameBytes a frame's size on the link (PPP header included) \return its transmission
/// time, computed as the point-to-point device does
Time
TxTime(uint32_t frameBytes)
{
    return Seconds(static_cast<double>(frameBytes) * 8 / kRateBps);
}

/// \param requestIp IP bytes of the probe \param replyIp IP bytes of the reply
/// \return the round trip on the test link: two propagation delays and two transmissions
Time
RoundTrip(uint32_t requestIp, uint32_t replyIp)
{
    return 2 * kDelay + TxTime(requestIp + kPppBytes) + TxTime(replyIp + kPppBytes);
}

/// IP bytes of an ICMP echo request or reply: IPv4, 8-byte echo header, data (RFC 792).
const uint32_t kEchoIpBytes = kIpv4Bytes + 8 + kPingDataBytes;
/// IP bytes of an ICMP destination unreachable: IPv4, 8-byte ICMP header, the quoted IPv4
/// header and the first 8 bytes of the quoted datagram (RFC 792).
const uint32_t kUnreachIpBytes = kIpv4Bytes + 8 + kIpv4Bytes + 8;

/// \param qname a QNAME \param rcode an RCODE, or none for the query
/// \return IP bytes of the prober's query for \p qname or of a record-less response to it
uint32_t
DnsIpBytes(const std::string& qname, std::optional<uint8_t> rcode = {})
{
    auto m = AdcDnsMessage::MakeQuery(0, qname, AdcDnsMessage::TYPE_A, false);
    const auto dns = (rcode ? AdcDnsMessage::MakeResponse(m, *rcode, true) : m).Serialize();
    return kIpv4Bytes + kUdpBytes + static_cast<uint32_t>(dns.size());
}

/**
 * A receive error model that drops chosen IPv4 traffic: ICMP (protocol 1), UDP to port 53,
 * TCP (protocol 6). Installed on the LDNS's device: what it drops never reaches the LDNS.
 */
class DropTrafficErrorModel : public ErrorModel
{
  public:
    bool dropIcmp{false};  //!< drop IPv4 protocol 1
    bool dropUdp53{false}; //!< drop UDP to port 53
    bool dropTcp{false};   //!< drop IPv4 protocol 6
    uint32_t dropped{0};   //!< packets dropped

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        Ptr<Packet> copy = p->Copy();
        PppHeader ppp;
        copy->RemoveHeader(ppp);
        if (ppp.GetProtocol() != 0x0021)
        {
            return false; // not IPv4
        }
        Ipv4Header ip;
        copy->RemoveHeader(ip);
        bool drop = (dropIcmp && ip.GetProtocol() == 1) || (dropTcp && ip.GetProtocol() == 6);
        if (dropUdp53 && ip.GetProtocol() == 17)
        {
            UdpHeader udp;
            copy->PeekHeader(udp);
            drop = udp.GetDestinationPort() == 53;
        }
        dropped += drop ? 1 : 0;
        return drop;
    }

    void DoReset() override
    {
    }
};

/// One "Probe" trace call of the prober.
struct ProbeRec
{
    Time at;            //!< when the probe finished
    std::string ldns;   //!< the LDNS
    std::string kind;   //!< PING, DNS, TCP
    Time rtt;           //!< reported round trip
    std::string reason; //!< reported reason
    bool yields;        //!< yields an RTT

    /// \return when the probe was sent
    Time SentAt() const
    {
        return at - rtt;
    }
};

/// One "Fallback" trace call: when, the kind left, the kind entered, the probe's reason.
struct FallbackRec
{
    Time at;
    std::string from, to, reason;
};

/// One frame put on the link: its transmission start and bytes (PPP header included).
struct FrameRec
{
    Time at;
    uint32_t size;
};

class GslbLdnsProberTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Appliance (node 0, 10.1.1.1) and LDNS (node 1, 10.1.1.2) on one point-to-point link.
    void Build()
    {
        m_nodes.Create(2);
        InternetStackHelper().Install(m_nodes);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(kRateBps)));
        p2p.SetChannelAttribute("Delay", TimeValue(kDelay));
        m_devs = p2p.Install(m_nodes);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        m_ldns = addresses.Assign(m_devs).GetAddress(1);
        m_filter = CreateObject<DropTrafficErrorModel>();
        m_devs.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(m_filter));
        m_devs.Get(0)->TraceConnectWithoutContext("PhyTxBegin", FrameSink(&m_applianceFrames));
        m_devs.Get(1)->TraceConnectWithoutContext("PhyTxBegin", FrameSink(&m_ldnsFrames));
    }

    /// \return a prober on the appliance, stopping at \p stop, traces recorded
    Ptr<GslbLdnsProber> MakeProber(Time stop)
    {
        Ptr<GslbLdnsProber> p = CreateObject<GslbLdnsProber>();
        using S = const std::string&;
        p->TraceConnectWithoutContext(
            "Probe",
            Callback<void, const AdcIpAddress&, S, Time, S, bool>([this](const AdcIpAddress& ldns,
                                                                         S kind,
                                                                         Time rtt,
                                                                         S reason,
                                                                         bool yields) {
                m_probes.push_back({Simulator::Now(), ldns.ToString(), kind, rtt, reason, yields});
            }));
        p->TraceConnectWithoutContext(
            "Fallback",
            Callback<void, const AdcIpAddress&, S, S, S>(
                [this](const AdcIpAddress&, S from, S to, S reason) {
                    m_fallbacks.push_back({Simulator::Now(), from, to, reason});
                }));
        p->TraceConnectWithoutContext(
            "Expire",
            Callback<void, const AdcIpAddress&>([this](const AdcIpAddress& ldns) {
                m_expires.emplace_back(Simulator::Now(), ldns.ToString());
            }));
        p->SetRttCallback([this](const AdcIpAddress& ldns, Time rtt) {
            m_rtts.emplace_back(ldns.ToString(), rtt);
        });
        p->SetStopTime(stop);
        m_nodes.Get(0)->AddApplication(p);
        return p;
    }

    /// An authoritative DNS server with no zone on the LDNS: every name is NXDOMAIN.
    void RunDnsServer()
    {
        m_nodes.Get(1)->AddApplication(CreateObject<AdcDnsServer>());
    }

    /// A TCP listener on the LDNS's port 53.
    void ListenTcp53()
    {
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 53));
        sink.Install(m_nodes.Get(1));
    }

    /// \param frames where frames go \return a "PhyTxBegin" sink recording them
    Callback<void, Ptr<const Packet>> FrameSink(std::vector<FrameRec>* frames)
    {
        return [frames](Ptr<const Packet> p) {
            frames->push_back({Simulator::Now(), p->GetSize()});
        };
    }

    /// \return the first frame of \p frames sent at or after \p t
    static FrameRec FirstFrom(const std::vector<FrameRec>& frames, Time t)
    {
        for (const FrameRec& f : frames)
        {
            if (f.at >= t)
            {
                return f;
            }
        }
        ADD_FAILURE() << "no frame at or after " << t.GetSeconds() << "s";
        return {};
    }

    /// \param kind a kind name \return the send times of that kind's probes
    std::vector<Time> SendTimes(const std::string& kind) const
    {
        std::vector<Time> out;
        for (const ProbeRec& r : m_probes)
        {
            if (r.kind == kind)
            {
                out.push_back(r.SentAt());
            }
        }
        return out;
    }

    /// Every reported RTT must be the Probe trace's rtt of a probe that yields one, in order.
    void ExpectRttsMatchProbes() const
    {
        std::vector<Time> yielded;
        for (const ProbeRec& r : m_probes)
        {
            if (r.yields)
            {
                yielded.push_back(r.rtt);
            }
        }
        ASSERT_EQ(m_rtts.size(), yielded.size());
        for (std::size_t i = 0; i < yielded.size(); ++i)
        {
            EXPECT_EQ(m_rtts[i].first, m_ldns.ToString());
            EXPECT_EQ(m_rtts[i].second, yielded[i]);
        }
    }

    NodeContainer m_nodes;
    NetDeviceContainer m_devs;
    AdcIpAddress m_ldns;
    Ptr<DropTrafficErrorModel> m_filter;
    std::vector<ProbeRec> m_probes;
    std::vector<FallbackRec> m_fallbacks;
    std::vector<std::pair<Time, std::string>> m_expires;
    std::vector<std::pair<std::string, Time>> m_rtts;
    std::vector<FrameRec> m_applianceFrames;
    std::vector<FrameRec> m_ldnsFrames;
};

// ---------------------------------------------------------------------------------------------
// GSLB-03: fallback PING -> DNS -> TCP
// ---------------------------------------------------------------------------------------------

// REQ: GSLB-03 GSLB-06 GSLB-10
TEST_F(GslbLdnsProberTest, PingTimeoutFallsBackToDnsAtOnceWhichKeepsTheLdns)
{
    Build();
    m_filter->dropIcmp = true; // the LDNS never sees an echo request
    RunDnsServer();
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(13));
    prober->AddLdns(m_ldns);
    Simulator::Run();

    // PING at 0 times out at ResponseTimeout; DNS probes at once, then every Interval.
    const std::string root = GslbDnsProbe::kDefaultQname;
    const Time dnsRtt = RoundTrip(DnsIpBytes(root), DnsIpBytes(root, AdcDnsMessage::NXDOMAIN));
    ASSERT_EQ(m_probes.size(), 4u); // PING 0; DNS 2, 7, 12
    EXPECT_EQ(m_probes[0].kind, "PING");
    EXPECT_EQ(m_probes[0].reason, "timeout");
    EXPECT_EQ(m_probes[0].at, kTimeout);
    EXPECT_FALSE(m_probes[0].yields);
    ASSERT_EQ(m_fallbacks.size(), 1u);
    EXPECT_EQ(m_fallbacks[0].from, "PING");
    EXPECT_EQ(m_fallbacks[0].to, "DNS");
    EXPECT_EQ(m_fallbacks[0].reason, "timeout");
    EXPECT_EQ(m_fallbacks[0].at, kTimeout);
    for (std::size_t i = 1; i < m_probes.size(); ++i)
    {
        EXPECT_EQ(m_probes[i].kind, "DNS");
        EXPECT_EQ(m_probes[i].reason, "dns-rcode-NXDOMAIN");
        EXPECT_TRUE(m_probes[i].yields);
        EXPECT_EQ(m_probes[i].rtt, dnsRtt);
        EXPECT_EQ(m_probes[i].SentAt(), kTimeout + kInterval * static_cast<int64_t>(i - 1));
    }
    EXPECT_EQ(prober->GetCurrentKind(m_ldns), GslbLdnsProber::DNS);
    EXPECT_GE(m_filter->dropped, 1u);
    ExpectRttsMatchProbes();
}

// REQ: GSLB-03 GSLB-06
TEST_F(GslbLdnsProberTest, PingAndDnsSilentTcpConnectYieldsTheRtt)
{
    Build();
    m_filter->dropIcmp = true;
    m_filter->dropUdp53 = true;
    ListenTcp53();
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(10));
    prober->AddLdns(m_ldns);
    Simulator::Run();

    ASSERT_EQ(m_probes.size(), 4u); // PING 0, DNS 2, TCP 4, TCP 9
    EXPECT_EQ(m_probes[0].kind, "PING");
    EXPECT_EQ(m_probes[1].kind, "DNS");
    EXPECT_EQ(m_probes[1].SentAt(), kTimeout);
    EXPECT_EQ(m_probes[1].reason, "timeout");
    for (std::size_t i = 2; i < 4; ++i)
    {
        const ProbeRec& tcp = m_probes[i];
        EXPECT_EQ(tcp.kind, "TCP");
        EXPECT_EQ(tcp.reason, "connected");
        EXPECT_TRUE(tcp.yields);
        // SYN out, SYN+ACK back; their sizes (TCP options are ns-3's business) from the wire.
        const FrameRec syn = FirstFrom(m_applianceFrames, tcp.SentAt());
        const FrameRec synAck = FirstFrom(m_ldnsFrames, tcp.SentAt());
        EXPECT_EQ(syn.at, tcp.SentAt());
        EXPECT_EQ(tcp.rtt, 2 * kDelay + TxTime(syn.size) + TxTime(synAck.size));
    }
    EXPECT_EQ(m_probes[2].SentAt(), 2 * kTimeout);
    EXPECT_EQ(m_probes[3].SentAt(), 2 * kTimeout + kInterval);
    ASSERT_EQ(m_fallbacks.size(), 2u);
    EXPECT_EQ(m_fallbacks[1].from, "DNS");
    EXPECT_EQ(m_fallbacks[1].to, "TCP");
    ExpectRttsMatchProbes();
}

// REQ: GSLB-03 GSLB-10
TEST_F(GslbLdnsProberTest, AllKindsSilentBackToFirstKindOneIntervalLater)
{
    Build();
    m_filter->dropIcmp = true;
    m_filter->dropUdp53 = true;
    m_filter->dropTcp = true;
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(17));
    // The seed's example: set lb monitor ldns-tcp LDNS-TCP -interval 10 sec -resptimeout 5 sec
    const Time tcpTimeout = Seconds(5);
    prober->GetMonitor("ldns-tcp")->SetAttribute("Interval", TimeValue(Seconds(10)));
    prober->GetMonitor("ldns-tcp")->SetAttribute("ResponseTimeout", TimeValue(tcpTimeout));
    prober->AddLdns(m_ldns);
    Simulator::Run();

    // PING 0-2, DNS 2-4, TCP 4-9, then PING again one (ldns-ping) Interval after the TCP
    // failure: 14-16.
    const std::vector<std::string> kinds = {"PING", "DNS", "TCP", "PING"};
    const std::vector<Time> sent = {Seconds(0),
                                    kTimeout,
                                    2 * kTimeout,
                                    2 * kTimeout + tcpTimeout + kInterval};
    const std::vector<Time> rtts = {kTimeout, kTimeout, tcpTimeout, kTimeout};
    ASSERT_EQ(m_probes.size(), kinds.size());
    for (std::size_t i = 0; i < kinds.size(); ++i)
    {
        EXPECT_EQ(m_probes[i].kind, kinds[i]);
        EXPECT_EQ(m_probes[i].SentAt(), sent[i]);
        EXPECT_EQ(m_probes[i].rtt, rtts[i]);
        EXPECT_EQ(m_probes[i].reason, "timeout");
        EXPECT_FALSE(m_probes[i].yields);
    }
    ASSERT_EQ(m_fallbacks.size(), 4u); // the last PING failure moves it to DNS again
    EXPECT_EQ(m_fallbacks[2].from, "TCP");
    EXPECT_EQ(m_fallbacks[2].to, "PING");
    EXPECT_EQ(m_fallbacks[2].at, 2 * kTimeout + tcpTimeout);
    EXPECT_TRUE(m_rtts.empty());
}

// ---------------------------------------------------------------------------------------------
// GSLB-05: the probe order
// ---------------------------------------------------------------------------------------------

// REQ: GSLB-05
TEST_F(GslbLdnsProberTest, OrderDnsPingTcpProbesDnsFirstThenPing)
{
    Build();
    m_filter->dropUdp53 = true; // DNS silent: the next kind of this order is PING
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(8));
    prober->SetProbeOrder(GslbLdnsProber::ParseProbeOrder({"dns", "Ping", "TCP"}));
    const std::vector<Kind> order = {GslbLdnsProber::DNS,
                                     GslbLdnsProber::PING,
                                     GslbLdnsProber::TCP};
    EXPECT_EQ(prober->GetProbeOrder(), order);
    prober->AddLdns(m_ldns);
    EXPECT_EQ(prober->GetCurrentKind(m_ldns), GslbLdnsProber::DNS);
    Simulator::Run();

    ASSERT_EQ(m_probes.size(), 3u); // DNS 0; PING 2, 7
    EXPECT_EQ(m_probes[0].kind, "DNS");
    EXPECT_EQ(m_probes[0].SentAt(), Seconds(0));
    EXPECT_EQ(m_probes[0].reason, "timeout");
    for (std::size_t i = 1; i < 3; ++i)
    {
        EXPECT_EQ(m_probes[i].kind, "PING");
        EXPECT_EQ(m_probes[i].reason, "echo-reply");
        EXPECT_EQ(m_probes[i].rtt, RoundTrip(kEchoIpBytes, kEchoIpBytes));
    }
    EXPECT_EQ(m_probes[1].SentAt(), kTimeout);
    EXPECT_EQ(m_probes[2].SentAt(), kTimeout + kInterval);
    ExpectRttsMatchProbes();
}

// REQ: GSLB-05
TEST(GslbLdnsProberOrder, ParseAndErrorsNameSettingWordAndAllowedKinds)
{
    const std::vector<Kind> dpt = {GslbLdnsProber::DNS, GslbLdnsProber::PING, GslbLdnsProber::TCP};
    EXPECT_EQ(GslbLdnsProber::ParseProbeOrder({"DNS", "PING", "TCP"}), dpt);
    EXPECT_EQ(GslbLdnsProber::ParseProbeOrder({"tcp"}), std::vector<Kind>{GslbLdnsProber::TCP});
    EXPECT_EQ(GslbLdnsProber::FormatProbeOrder(dpt), "DNS PING TCP");

    const std::vector<std::string> allowed = {"-ldnsprobeOrder", "PING", "DNS", "TCP"};
    std::string e = ConfigErrorOf([] { GslbLdnsProber::ParseProbeOrder({"PING", "UDP"}); });
    EXPECT_TRUE(HasAll(e, allowed)) << e;
    EXPECT_TRUE(HasAll(e, {"'UDP'"})) << e;
    e = ConfigErrorOf([] { GslbLdnsProber::ParseProbeOrder({"DNS", "PING", "dns"}); });
    EXPECT_TRUE(HasAll(e, allowed)) << e;
    EXPECT_TRUE(HasAll(e, {"'dns'", "twice"})) << e;
    e = ConfigErrorOf([] { GslbLdnsProber::ParseProbeOrder({}); });
    EXPECT_TRUE(HasAll(e, allowed)) << e;
    e = ConfigErrorOf([] { GslbLdnsProber::ParseProbeOrder({"PING", "DNS", "TCP", "PING"}); });
    EXPECT_TRUE(HasAll(e, allowed)) << e;

    // The attribute takes the same words and makes the same checks.
    Ptr<GslbLdnsProber> p = CreateObject<GslbLdnsProber>();
    EXPECT_EQ(GslbLdnsProber::FormatProbeOrder(p->GetProbeOrder()), "PING DNS TCP"); // the seed
    p->SetAttribute("ProbeOrder", StringValue("tcp dns"));
    const std::vector<Kind> td = {GslbLdnsProber::TCP, GslbLdnsProber::DNS};
    EXPECT_EQ(p->GetProbeOrder(), td);
    e = ConfigErrorOf([p] { p->SetAttribute("ProbeOrder", StringValue("PING ICMP")); });
    EXPECT_TRUE(HasAll(e, allowed)) << e;
    e = ConfigErrorOf([p] { p->SetProbeOrder({}); });
    EXPECT_TRUE(HasAll(e, allowed)) << e;
    EXPECT_EQ(p->GetProbeOrder(), td); // a rejected order changes nothing
    p->Dispose();
}

// ---------------------------------------------------------------------------------------------
// GSLB-06: replies that are failures still give the RTT
// ---------------------------------------------------------------------------------------------

// REQ: GSLB-06
TEST_F(GslbLdnsProberTest, IcmpPortUnreachableYieldsTheRtt)
{
    Build(); // nothing listens on the LDNS's UDP port 53
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(1));
    prober->SetProbeOrder({GslbLdnsProber::DNS, GslbLdnsProber::PING});
    prober->AddLdns(m_ldns);
    Simulator::Run();

    ASSERT_EQ(m_probes.size(), 1u);
    EXPECT_EQ(m_probes[0].kind, "DNS");
    EXPECT_EQ(m_probes[0].reason, "icmp-port-unreachable");
    EXPECT_TRUE(m_probes[0].yields);
    EXPECT_EQ(m_probes[0].rtt, RoundTrip(DnsIpBytes(GslbDnsProbe::kDefaultQname), kUnreachIpBytes));
    EXPECT_TRUE(m_fallbacks.empty()); // an answer keeps the LDNS on DNS
    ExpectRttsMatchProbes();
}

// REQ: GSLB-06
TEST_F(GslbLdnsProberTest, TcpResetYieldsTheRtt)
{
    Build(); // nothing listens on the LDNS's TCP port 53: the SYN gets a RST
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(1));
    prober->SetProbeOrder({GslbLdnsProber::TCP});
    prober->AddLdns(m_ldns);
    Simulator::Run();

    ASSERT_EQ(m_probes.size(), 1u);
    EXPECT_EQ(m_probes[0].kind, "TCP");
    EXPECT_EQ(m_probes[0].reason, "connection-refused");
    EXPECT_TRUE(m_probes[0].yields);
    const FrameRec syn = FirstFrom(m_applianceFrames, Seconds(0));
    const FrameRec rst = FirstFrom(m_ldnsFrames, Seconds(0));
    EXPECT_EQ(rst.size, kPppBytes + kIpv4Bytes + 20); // RST+ACK: a bare 20-byte TCP header
    EXPECT_EQ(m_probes[0].rtt, 2 * kDelay + TxTime(syn.size) + TxTime(rst.size));
    ExpectRttsMatchProbes();
}

// REQ: GSLB-06
TEST_F(GslbLdnsProberTest, DnsErrorResponseYieldsTheRtt)
{
    Build();
    RunDnsServer(); // no zone: NXDOMAIN for every name
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(1));
    prober->SetProbeOrder({GslbLdnsProber::DNS});
    prober->AddLdns(m_ldns);
    Simulator::Run();

    const std::string root = GslbDnsProbe::kDefaultQname;
    ASSERT_EQ(m_probes.size(), 1u);
    EXPECT_EQ(m_probes[0].reason, "dns-rcode-NXDOMAIN");
    EXPECT_TRUE(m_probes[0].yields);
    EXPECT_EQ(m_probes[0].rtt,
              RoundTrip(DnsIpBytes(root), DnsIpBytes(root, AdcDnsMessage::NXDOMAIN)));
    ExpectRttsMatchProbes();
}

// REQ: GSLB-06
TEST(GslbLdnsProberRule, WhichReasonsYieldAnRtt)
{
    using P = GslbLdnsProber;
    EXPECT_TRUE(P::YieldsRtt(P::PING, "echo-reply"));
    EXPECT_FALSE(P::YieldsRtt(P::PING, "icmp-host-unreachable"));
    EXPECT_FALSE(P::YieldsRtt(P::PING, "timeout"));
    EXPECT_TRUE(P::YieldsRtt(P::DNS, "dns-rcode-NOERROR"));
    EXPECT_TRUE(P::YieldsRtt(P::DNS, "dns-rcode-REFUSED"));
    EXPECT_TRUE(P::YieldsRtt(P::DNS, "icmp-port-unreachable"));
    EXPECT_FALSE(P::YieldsRtt(P::DNS, "icmp-host-unreachable"));
    EXPECT_FALSE(P::YieldsRtt(P::DNS, "timeout"));
    EXPECT_TRUE(P::YieldsRtt(P::TCP, "connected"));
    EXPECT_TRUE(P::YieldsRtt(P::TCP, "connection-refused"));
    EXPECT_FALSE(P::YieldsRtt(P::TCP, "timeout"));
    EXPECT_FALSE(P::YieldsRtt(P::TCP, "echo-reply"));
}

// ---------------------------------------------------------------------------------------------
// GSLB-04 / GSLB-10: the monitors
// ---------------------------------------------------------------------------------------------

// REQ: GSLB-04 GSLB-10
TEST_F(GslbLdnsProberTest, MonitorsByNameWithDefaultsPingEveryFiveSeconds)
{
    Build();
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(16));
    const std::vector<std::pair<std::string, std::string>> monitors = {{"ldns-ping", "LDNS-PING"},
                                                                       {"ldns-dns", "LDNS-DNS"},
                                                                       {"ldns-tcp", "LDNS-TCP"}};
    for (const auto& [name, type] : monitors)
    {
        Ptr<AdcHealthMonitor> m = prober->GetMonitor(name);
        ASSERT_TRUE(m) << name;
        StringValue s;
        m->GetAttribute("Name", s);
        EXPECT_EQ(s.Get(), name);
        m->GetAttribute("TypeName", s);
        EXPECT_EQ(s.Get(), type);
        TimeValue t;
        m->GetAttribute("Interval", t);
        EXPECT_EQ(t.Get(), kInterval) << name;
        m->GetAttribute("ResponseTimeout", t);
        EXPECT_EQ(t.Get(), kTimeout) << name;
        UintegerValue port;
        m->GetAttribute("DestinationPort", port);
        EXPECT_EQ(port.Get(), name == "ldns-ping" ? 0u : 53u) << name; // GSLB-06: port 53
    }
    EXPECT_EQ(prober->GetMonitor(GslbLdnsProber::DNS), prober->GetMonitor("ldns-dns"));
    EXPECT_FALSE(prober->GetMonitor("ldns-udp"));
    prober->AddLdns(m_ldns);
    Simulator::Run();

    const std::vector<Time> sends = SendTimes("PING");
    ASSERT_EQ(sends.size(), 4u); // 0, 5, 10, 15
    ASSERT_EQ(m_probes.size(), 4u);
    for (std::size_t i = 0; i < sends.size(); ++i)
    {
        EXPECT_EQ(sends[i], kInterval * static_cast<int64_t>(i));
        EXPECT_EQ(m_probes[i].rtt, RoundTrip(kEchoIpBytes, kEchoIpBytes));
        EXPECT_EQ(m_probes[i].reason, "echo-reply");
    }
    ExpectRttsMatchProbes();
}

// REQ: GSLB-04 GSLB-10
TEST_F(GslbLdnsProberTest, PingIntervalSetToTenSecondsSpacesProbesTenSecondsApart)
{
    Build();
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(31));
    const Time interval = Seconds(10);
    prober->GetMonitor("ldns-ping")->SetAttribute("Interval", TimeValue(interval));
    prober->AddLdns(m_ldns);
    Simulator::Run();

    const std::vector<Time> sends = SendTimes("PING");
    ASSERT_EQ(sends.size(), 4u); // 0, 10, 20, 30
    for (std::size_t i = 0; i < sends.size(); ++i)
    {
        EXPECT_EQ(sends[i], interval * static_cast<int64_t>(i));
    }
}

// ---------------------------------------------------------------------------------------------
// EntryTimeout
// ---------------------------------------------------------------------------------------------

// REQ: GSLB-01 (LDNS entries age out as with NetScaler's ldnsentrytimeout)
TEST_F(GslbLdnsProberTest, EntryTimeoutStopsProbingAndAddLdnsRestartsIt)
{
    Build();
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(27));
    const Time entryTimeout = Seconds(12);
    prober->SetAttribute("EntryTimeout", TimeValue(entryTimeout));
    const Time seenAgain = Seconds(4);
    const Time comesBack = Seconds(21);
    prober->AddLdns(m_ldns);
    Simulator::Schedule(seenAgain, &GslbLdnsProber::AddLdns, prober, m_ldns);
    Simulator::Schedule(comesBack, &GslbLdnsProber::AddLdns, prober, m_ldns);
    bool probedAt10 = false;
    bool probedAt18 = true;
    Simulator::Schedule(Seconds(10.5), [&] { probedAt10 = prober->HasLdns(m_ldns); });
    Simulator::Schedule(Seconds(18), [&] { probedAt18 = prober->HasLdns(m_ldns); });
    Simulator::Run();

    // Seen at 0 and 4: expires at 4 + 12 = 16; probes at 0, 5, 10, 15; again from 21.
    ASSERT_EQ(m_expires.size(), 1u);
    EXPECT_EQ(m_expires[0].first, seenAgain + entryTimeout);
    EXPECT_EQ(m_expires[0].second, m_ldns.ToString());
    EXPECT_TRUE(probedAt10);
    EXPECT_FALSE(probedAt18);
    const std::vector<Time> sends = SendTimes("PING");
    const std::vector<Time> expected =
        {Seconds(0), Seconds(5), Seconds(10), Seconds(15), comesBack, comesBack + kInterval};
    EXPECT_EQ(sends, expected);
    EXPECT_TRUE(prober->HasLdns(m_ldns));
    EXPECT_EQ(prober->GetNLdns(), 1u);
}

// REQ: GSLB-03
TEST_F(GslbLdnsProberTest, AddLdnsIsIdempotentAndSeveralLdnsAreProbedApart)
{
    Build();
    Ptr<GslbLdnsProber> prober = MakeProber(Seconds(3));
    const AdcIpAddress unreachable = Ipv4Address("10.9.9.9"); // no route: PING fails at once
    prober->AddLdns(m_ldns);
    prober->AddLdns(m_ldns);
    prober->AddLdns(unreachable);
    EXPECT_EQ(prober->GetNLdns(), 2u);
    EXPECT_EQ(prober->GetMonitor(GslbLdnsProber::PING)->GetNTargets(), 2u);
    EXPECT_TRUE(prober->HasLdns(unreachable));
    EXPECT_FALSE(prober->HasLdns(Ipv4Address("10.9.9.8")));
    EXPECT_FALSE(ConfigErrorOf([prober] { prober->AddLdns(AdcIpAddress()); }).empty());
    Simulator::Run();

    // The unreachable LDNS fails every kind at once (no route) and waits one Interval (past
    // the end) for PING again; the live one stays on PING, unaffected.
    std::size_t live = 0;
    std::vector<std::string> deadKinds;
    for (const ProbeRec& r : m_probes)
    {
        if (r.ldns == m_ldns.ToString())
        {
            ++live;
            EXPECT_EQ(r.kind, "PING");
            EXPECT_TRUE(r.yields);
        }
        else
        {
            deadKinds.push_back(r.kind);
            EXPECT_FALSE(r.yields);
            EXPECT_EQ(r.SentAt(), Seconds(0));
        }
    }
    EXPECT_EQ(live, 1u);
    EXPECT_EQ(deadKinds, (std::vector<std::string>{"PING", "DNS", "TCP"}));
    EXPECT_EQ(prober->GetCurrentKind(unreachable), GslbLdnsProber::PING);
    EXPECT_EQ(prober->GetCurrentKind(m_ldns), GslbLdnsProber::PING);
    for (const auto& [ldns, rtt] : m_rtts)
    {
        EXPECT_EQ(ldns, m_ldns.ToString());
    }
}

// ---------------------------------------------------------------------------------------------
// GslbDnsProbe
// ---------------------------------------------------------------------------------------------

/// A scripted DNS peer on UDP 53: records each query and answers it with unusable datagrams
/// (not DNS, another ID, a query) before the real response with RCODE REFUSED.
class ScriptedDnsPeer
{
  public:
    explicit ScriptedDnsPeer(Ptr<Node> node)
    {
        m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), 53));
        m_socket->SetRecvCallback(MakeCallback(&ScriptedDnsPeer::Read, this));
    }

    std::vector<AdcDnsMessage> queries; //!< every query received

  private:
    void Send(const std::vector<uint8_t>& bytes, const Address& to)
    {
        m_socket->SendTo(Create<Packet>(bytes.data(), bytes.size()), 0, to);
    }

    void Read(Ptr<Socket> s)
    {
        Address from;
        while (Ptr<Packet> p = s->RecvFrom(from))
        {
            std::vector<uint8_t> bytes(p->GetSize());
            p->CopyData(bytes.data(), bytes.size());
            auto q = AdcDnsMessage::Parse(bytes);
            if (!q)
            {
                ADD_FAILURE() << "the probe sent a malformed query";
                continue;
            }
            queries.push_back(*q);
            Send({1, 2, 3, 4, 5}, from);
            AdcDnsMessage other = AdcDnsMessage::MakeResponse(*q, AdcDnsMessage::NOERROR, true);
            other.id = static_cast<uint16_t>(q->id + 1);
            Send(other.Serialize(), from);
            Send(q->Serialize(), from);
            Send(AdcDnsMessage::MakeResponse(*q, AdcDnsMessage::REFUSED, false).Serialize(), from);
        }
    }

    Ptr<Socket> m_socket; //!< bound to port 53
};

// REQ: GSLB-03 GSLB-06
TEST_F(GslbLdnsProberTest, DnsProbeSendsRfc1035QueryAndSkipsUnusableDatagrams)
{
    Build();
    ScriptedDnsPeer peer(m_nodes.Get(1));
    const std::string qname = "rtt-probe.example.net";
    Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
    m->SetAttribute("Type", StringValue("UDP"));
    m->SetAttribute("DestinationPort", UintegerValue(53));
    m->SetAttribute("Interval", TimeValue(Seconds(1)));
    m->SetAttribute("ResponseTimeout", TimeValue(MilliSeconds(500)));
    m->SetProbe(GslbMakeDnsProbe(qname));
    m->AddTarget(m_ldns, 0, "ldns");
    std::vector<std::string> reasons;
    std::vector<std::string> drops;
    m->TraceConnectWithoutContext(
        "Probe",
        Callback<void, uint32_t, const std::string&, bool, Time, const std::string&>(
            [&reasons](uint32_t, const std::string&, bool ok, Time, const std::string& why) {
                reasons.push_back(why + (ok ? "" : " (failed)"));
            }));
    m->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>, const std::string&>(
            [&drops](Ptr<const Packet>, const std::string& why) { drops.push_back(why); }));
    m->SetStopTime(Seconds(2.5)); // probes at 0, 1, 2
    m_nodes.Get(0)->AddApplication(m);
    Simulator::Run();

    ASSERT_EQ(peer.queries.size(), 3u);
    for (std::size_t i = 0; i < peer.queries.size(); ++i)
    {
        const AdcDnsMessage& q = peer.queries[i];
        EXPECT_FALSE(q.qr);
        EXPECT_FALSE(q.rd); // the LDNS is asked, not asked to recurse
        EXPECT_EQ(q.opcode, AdcDnsMessage::QUERY);
        ASSERT_EQ(q.questions.size(), 1u);
        EXPECT_EQ(q.questions[0].name, qname);
        EXPECT_EQ(q.questions[0].qtype, AdcDnsMessage::TYPE_A);
        EXPECT_EQ(q.questions[0].qclass, AdcDnsMessage::CLASS_IN);
        if (i > 0)
        {
            EXPECT_NE(q.id, peer.queries[i - 1].id); // a new ID per probe
        }
    }
    const std::vector<std::string> want(3, "dns-rcode-REFUSED");
    EXPECT_EQ(reasons, want); // any response from the LDNS is an answer
    const std::vector<std::string> unusable = {"dns-malformed", "dns-wrong-id", "dns-not-response"};
    ASSERT_EQ(drops.size(), 3 * unusable.size());
    for (std::size_t i = 0; i < drops.size(); ++i)
    {
        EXPECT_EQ(drops[i], unusable[i % unusable.size()]);
    }
}

// REQ: GSLB-03
TEST(GslbDnsProbeConfig, QnameIsCheckedAndDefaultsToRoot)
{
    EXPECT_EQ(GslbDnsProbe().GetQname(), ".");
    EXPECT_EQ(GslbDnsProbe("Example.COM.").GetQname(), "Example.COM");
    const std::string e = ConfigErrorOf([] { GslbMakeDnsProbe("a..b"); });
    EXPECT_TRUE(HasAll(e, {"qname", "'a..b'"})) << e;
}

} // namespace
