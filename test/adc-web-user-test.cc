/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario tests of the web user (model/apps/adc-web-user.h) on a chain client - LDNS - ADNS -
 * web server (AdcLdnsServer, AdcDnsServer with an A record, AdcHttpServer), links of 5, 20 and
 * 10 ms one way. Expected times come from those delays: a first visit's DNS time is both round
 * trips (client-LDNS and LDNS-ADNS), a cached one the client-LDNS round trip only, and a fetch
 * on a new connection two round trips to the web server (handshake, then request and response).
 */

// REQ: GSLB-01 (the user is sent to the address the DNS answered, and its time is measured)
// REQ: GSLB-02 (the authoritative answer reaches the user through its LDNS)

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-message.h"
#include "ns3/adc-dns-server.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-ldns-server.h"
#include "ns3/adc-web-user.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kHost = "www.contoso.com";
const Time kClientLdns = MilliSeconds(5);
const Time kLdnsAdns = MilliSeconds(20);
const Time kAdnsWeb = MilliSeconds(10);
const Time kSlack = MilliSeconds(1); // serialization at 100 Mbit/s, a few hops

/// The chain: client 0, LDNS 1, ADNS 2, web server 3.
struct Chain
{
    NodeContainer nodes;
    Ipv4Address ldns;
    Ipv4Address adns;
    Ipv4Address web;
    Ptr<AdcLdnsServer> ldnsApp;
    Ptr<AdcDnsServer> adnsApp;
    Ptr<AdcHttpServer> webApp;

    explicit Chain(bool withWeb = true)
    {
        nodes.Create(4);
        InternetStackHelper().Install(nodes);
        ldns = Link(0, kClientLdns, "10.1.1.0").GetAddress(1);
        adns = Link(1, kLdnsAdns, "10.1.2.0").GetAddress(1);
        web = Link(2, kAdnsWeb, "10.1.3.0").GetAddress(1);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        ldnsApp = CreateObject<AdcLdnsServer>();
        ldnsApp->AddZone("contoso.com", {adns});
        ldnsApp->AssignStreams(11);
        nodes.Get(1)->AddApplication(ldnsApp);
        adnsApp = CreateObject<AdcDnsServer>();
        adnsApp->AddRecord(AdcDnsResourceRecord::A(kHost, web, 60));
        nodes.Get(2)->AddApplication(adnsApp);
        if (withWeb)
        {
            webApp = CreateObject<AdcHttpServer>();
            webApp->SetAttribute("ObjectSize", UintegerValue(1000)); // one segment
            nodes.Get(3)->AddApplication(webApp);
        }
    }

    Ipv4InterfaceContainer Link(uint32_t a, Time delay, const char* net)
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", TimeValue(delay));
        Ipv4AddressHelper ip;
        ip.SetBase(net, "255.255.255.0");
        return ip.Assign(p2p.Install(nodes.Get(a), nodes.Get(a + 1)));
    }

    Ptr<AdcWebUser> User(const std::string& host, uint32_t visits)
    {
        auto u = CreateObject<AdcWebUser>();
        u->SetAttribute("Ldns", AddressValue(ldns));
        u->SetAttribute("HostName", StringValue(host));
        u->SetAttribute("MaxVisits", UintegerValue(visits));
        u->AssignStreams(21);
        u->SetStartTime(Seconds(1));
        nodes.Get(0)->AddApplication(u);
        return u;
    }
};

struct Visits
{
    std::vector<AdcWebVisit> v;

    void Attach(Ptr<AdcWebUser> u)
    {
        u->TraceConnectWithoutContext(
            "Visit",
            Callback<void, const AdcWebVisit&>([this](const AdcWebVisit& x) { v.push_back(x); }));
    }
};

void
RunUntil(Time end)
{
    Simulator::Stop(end);
    Simulator::Run();
    Simulator::Destroy();
}

} // namespace

// REQ: GSLB-01, GSLB-02 (N visits: DNS through the LDNS, then the fetch from the answer)
TEST(AdcWebUser, VisitsResolveThroughTheLdnsThenFetch)
{
    Chain net;
    Visits log;
    Ptr<AdcWebUser> user = net.User(kHost, 3);
    log.Attach(user);
    RunUntil(Seconds(10));

    ASSERT_EQ(log.v.size(), 3U);
    const Time dnsMiss = 2 * (kClientLdns + kLdnsAdns);
    const Time dnsHit = 2 * kClientLdns;
    const Time rttWeb = 2 * (kClientLdns + kLdnsAdns + kAdnsWeb);
    for (std::size_t i = 0; i < log.v.size(); ++i)
    {
        const AdcWebVisit& v = log.v[i];
        EXPECT_EQ(v.id, i + 1);
        EXPECT_EQ(v.outcome, "completed");
        EXPECT_EQ(v.status, 200);
        EXPECT_EQ(v.server, AdcIpAddress(net.web)); // the answered address
        const Time dns = i == 0 ? dnsMiss : dnsHit; // later visits: the LDNS's cache
        EXPECT_GE(v.dnsTime, dns) << i;
        EXPECT_LT(v.dnsTime, dns + kSlack) << i;
        EXPECT_GE(v.fetchTime, 2 * rttWeb) << i; // handshake, then request and response
        EXPECT_LT(v.fetchTime, 2 * rttWeb + kSlack) << i;
        EXPECT_EQ(v.total, v.dnsTime + v.fetchTime);
    }
    EXPECT_EQ(log.v[0].start, Seconds(1));
    // The next visit starts InterVisitTime (1 s) after the previous one ended.
    EXPECT_EQ(log.v[1].start, log.v[0].start + log.v[0].total + Seconds(1));
    EXPECT_EQ(log.v[2].start, log.v[1].start + log.v[1].total + Seconds(1));
    EXPECT_EQ(user->GetVisits(), 3U);
    EXPECT_EQ(user->GetCompleted(), 3U);
    EXPECT_EQ(user->GetFailedTotal(), 0U);
    EXPECT_EQ(user->GetOpen(), 0U);
    EXPECT_EQ(net.ldnsApp->GetForwards(), 1U);
    EXPECT_EQ(net.ldnsApp->GetHits(), 2U);

    std::ostringstream csv;
    AdcWebUser::WriteCsvHeader(csv);
    AdcWebUser::WriteCsvRow(csv, log.v[0]);
    EXPECT_TRUE(adctest::HasAll(csv.str(), {"visit,start_s", "1,1,", "10.1.3.2", ",completed"}));
}

// REQ: GSLB-02 (an unknown name and a name outside the LDNS's zones end as DNS failures)
TEST(AdcWebUser, UnknownNameIsACountedDnsFailure)
{
    Chain net;
    Visits log;
    Ptr<AdcWebUser> user = net.User("nowhere.contoso.com", 2);
    Ptr<AdcWebUser> outside = net.User("www.fabrikam.com", 1);
    log.Attach(user);
    log.Attach(outside);
    RunUntil(Seconds(10));

    ASSERT_EQ(log.v.size(), 3U);
    EXPECT_EQ(user->GetVisits(), 2U);
    EXPECT_EQ(user->GetCompleted(), 0U);
    EXPECT_EQ(user->GetFailed(), (std::map<std::string, uint64_t>{{"dns-nxdomain", 2}}));
    EXPECT_EQ(outside->GetFailed(), (std::map<std::string, uint64_t>{{"dns-refused", 1}}));
    for (const auto& v : log.v)
    {
        EXPECT_EQ(v.fetchTime, Seconds(0));
        EXPECT_TRUE(v.server.IsNone());
        EXPECT_EQ(v.total, v.dnsTime);
    }
    EXPECT_EQ(net.adnsApp->GetResponses(AdcDnsMessage::NXDOMAIN), 1U); // then the LDNS cache
}

// REQ: GSLB-01 (failures of the path: no web server answering, no LDNS answering)
TEST(AdcWebUser, HttpTimeoutAndDnsTimeoutAreReasons)
{
    Chain net(false);                       // nothing listens on the web server's port 80
    net.ldnsApp->SetStopTime(Seconds(1.5)); // after the first visit's answer
    Visits log;
    Ptr<AdcWebUser> user = net.User(kHost, 2);
    user->SetAttribute("HttpTimeout", TimeValue(Seconds(2)));
    user->SetAttribute("DnsTimeout", TimeValue(Seconds(1)));
    user->SetAttribute("DnsRetries", UintegerValue(1));
    log.Attach(user);
    RunUntil(Seconds(10));

    ASSERT_EQ(log.v.size(), 2U);
    // ns-3's TCP ignores the RST answering its SYN and keeps retrying: the fetch times out.
    EXPECT_EQ(log.v[0].outcome, "http-timeout");
    EXPECT_EQ(log.v[0].server, AdcIpAddress(net.web));
    EXPECT_EQ(log.v[0].fetchTime, Seconds(2));
    // The second visit (the LDNS stopped): two tries of 1 s each, then "dns-timeout".
    EXPECT_EQ(log.v[1].start, log.v[0].start + log.v[0].total + Seconds(1));
    EXPECT_EQ(log.v[1].outcome, "dns-timeout");
    EXPECT_EQ(log.v[1].dnsTime, Seconds(2));
    EXPECT_EQ(log.v[1].total, Seconds(2));
    EXPECT_EQ(user->GetFailed(),
              (std::map<std::string, uint64_t>{{"dns-timeout", 1}, {"http-timeout", 1}}));
    EXPECT_EQ(user->GetCompleted(), 0U);
}

// REQ: GSLB-01 (a visit open when the user stops is counted apart, not lost)
TEST(AdcWebUser, VisitOpenAtStopIsCountedApart)
{
    Chain net;
    Visits log;
    Ptr<AdcWebUser> user = net.User(kHost, 0);
    user->SetAttribute("InterVisitTime", StringValue("ns3::ConstantRandomVariable[Constant=0]"));
    // Visit 1: DNS 50 ms, fetch 140 ms, ends near 1.19 s; visit 2 starts at once, DNS 10 ms
    // (cached), fetching from near 1.20 s: stop 70 ms later, in the middle of its fetch.
    user->SetStopTime(Seconds(1) + MilliSeconds(50 + 140) + MilliSeconds(10 + 70));
    log.Attach(user);
    RunUntil(Seconds(5));

    ASSERT_EQ(log.v.size(), 2U);
    EXPECT_EQ(log.v[0].outcome, "completed");
    EXPECT_EQ(log.v[1].outcome, "open-at-stop");
    EXPECT_GT(log.v[1].fetchTime, Seconds(0)); // it was fetching
    EXPECT_EQ(user->GetVisits(), 2U);
    EXPECT_EQ(user->GetCompleted(), 1U);
    EXPECT_EQ(user->GetOpen(), 1U);
    EXPECT_EQ(user->GetFailedTotal(), 0U);
}

// Same seed and run, same visits (random think times drawn from the assigned stream).
TEST(AdcWebUser, DeterministicForTheSameSeedAndRun)
{
    auto run = []() {
        Chain net;
        Visits log;
        Ptr<AdcWebUser> user = net.User(kHost, 0);
        user->SetAttribute("InterVisitTime",
                           StringValue("ns3::ExponentialRandomVariable[Mean=0.5]"));
        user->SetAttribute("StopVisitsAt", TimeValue(Seconds(6)));
        user->AssignStreams(40);
        log.Attach(user);
        RunUntil(Seconds(10));
        std::vector<Time> starts;
        for (const auto& v : log.v)
        {
            EXPECT_EQ(v.outcome, "completed");
            EXPECT_LE(v.start, Seconds(6)); // StopVisitsAt
            starts.push_back(v.start);
        }
        return starts;
    };
    const std::vector<Time> a = run();
    const std::vector<Time> b = run();
    EXPECT_GT(a.size(), 3U);
    EXPECT_EQ(a, b);
}

// The "Visit" trace cites its typedef, and a sink of that signature connects.
TEST(AdcWebUser, VisitTraceMatchesItsTypedef)
{
    const TypeId tid = AdcWebUser::GetTypeId();
    ASSERT_EQ(tid.GetTraceSourceN(), 1U);
    EXPECT_EQ(tid.GetTraceSource(0).name, "Visit");
    EXPECT_EQ(tid.GetTraceSource(0).callback, "ns3::AdcWebUser::VisitTracedCallback");
    auto u = CreateObject<AdcWebUser>();
    AdcWebUser::VisitTracedCallback fn = [](const AdcWebVisit&) {};
    EXPECT_TRUE(u->TraceConnectWithoutContext("Visit", MakeCallback(fn)));
}

// Bad settings are configuration errors naming the setting.
TEST(AdcWebUser, BadSettingsAreConfigErrors)
{
    Chain net;
    Ptr<AdcWebUser> user = net.User(kHost, 1);
    user->SetAttribute("Path", StringValue("index.html"));
    const std::string error = adctest::ConfigErrorOf([]() { Simulator::Run(); });
    EXPECT_TRUE(adctest::HasAll(error, {"Path", "index.html", "'/'"}));
    Simulator::Destroy();

    Chain net2;
    Ptr<AdcWebUser> noLdns = net2.User(kHost, 1);
    noLdns->SetAttribute("Ldns", AddressValue());
    EXPECT_TRUE(
        adctest::HasAll(adctest::ConfigErrorOf([]() { Simulator::Run(); }), {"Ldns", "not set"}));
    Simulator::Destroy();
}
