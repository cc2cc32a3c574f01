/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the NetScaler object model: services (state from admin state and bound monitors),
 * service groups, and virtual servers (selection of UP and ENABLED services through the LB
 * method, persistence, backup virtual server, effective state, virtual servers bound under
 * others with policies).
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-health-monitor.h"
#include "ns3/adc-service-group.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/point-to-point-helper.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::adctest;

namespace
{

using SState = AdcService::State;
using VState = AdcVirtualServer::State;

/// A content-switching policy of the kind CS binds: the URL starts with a prefix.
class UrlPrefixPolicy : public AdcBindingPolicy
{
  public:
    /// \param prefix the URL prefix
    explicit UrlPrefixPolicy(const std::string& prefix)
        : m_prefix(prefix)
    {
    }

    bool Match(const AdcLbContext& ctx) const override
    {
        return ctx.url.rfind(m_prefix, 0) == 0;
    }

  private:
    std::string m_prefix; //!< the prefix
};

/// \return a URL-prefix policy named \p name of priority \p priority
Ptr<AdcBindingPolicy>
Policy(const std::string& name, const std::string& prefix, uint32_t priority)
{
    Ptr<AdcBindingPolicy> p = CreateObject<UrlPrefixPolicy>(prefix);
    p->SetAttribute("Name", StringValue(name));
    p->SetAttribute("Priority", UintegerValue(priority));
    return p;
}

/// One "Selection" event.
struct SelectionEvent
{
    std::string vserver; //!< the virtual server that fired
    std::string service; //!< the service chosen ("" none)
    std::string how;     //!< how
};

/// One "StateChange" event of a service or a virtual server.
struct StateEvent
{
    Time at;          //!< when
    std::string name; //!< whose
    std::string from; //!< old state
    std::string to;   //!< new state
};

/// Services, virtual servers and what their traces record.
class AdcVirtualServerTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// \return an HTTP service \p name at 10.0.0.<host>:80, its "StateChange" recorded
    Ptr<AdcService> Service(const std::string& name, uint32_t host, uint16_t port = 80)
    {
        Ptr<AdcService> s = CreateObject<AdcService>();
        s->Configure(name, Ipv4Address(0x0a000000 + host), "HTTP", port);
        s->TraceConnectWithoutContext("StateChange",
                                      MakeCallback(&AdcVirtualServerTest::OnServiceState, this));
        return s;
    }

    /// \return an HTTP virtual server \p name using \p method, its traces recorded
    Ptr<AdcVirtualServer> VServer(const std::string& name, const std::string& method)
    {
        Ptr<AdcVirtualServer> v = CreateObject<AdcVirtualServer>();
        v->Configure(name, "HTTP", Ipv4Address("192.0.2.10"), 80);
        v->SetAttribute("LbMethod", StringValue(method));
        v->TraceConnectWithoutContext("Selection",
                                      MakeCallback(&AdcVirtualServerTest::OnSelection, this));
        v->TraceConnectWithoutContext("StateChange",
                                      MakeCallback(&AdcVirtualServerTest::OnVServerState, this));
        return v;
    }

    /// \return a context from client 10.9.<client / 256>.<client % 256>, port \p port
    static AdcLbContext Client(uint32_t client, uint16_t port = 40000, std::string url = "/")
    {
        AdcLbContext c;
        c.flow = AdcFlowKey(Ipv4Address(0x0a090000 + client),
                            Ipv4Address("192.0.2.10"),
                            port,
                            80,
                            AdcFlowKey::PROTO_TCP);
        c.url = std::move(url);
        return c;
    }

    /// \return the services \p v chose for \p n new flows of client 1
    std::vector<std::string> Picks(Ptr<AdcVirtualServer> v, uint32_t n, Time now = Seconds(0))
    {
        std::vector<std::string> out;
        for (uint32_t i = 0; i < n; ++i)
        {
            const AdcSelection s = v->Select(Client(1, static_cast<uint16_t>(1000 + i)), now);
            out.push_back(s.service ? s.service->GetName() : "");
        }
        return out;
    }

  public:
    // Trace sinks (public: the tests' own subclasses connect them).
    void OnSelection(const AdcFlowKey& /* flow */,
                     const std::string& vserver,
                     const std::string& service,
                     const std::string& how)
    {
        m_selections.push_back({vserver, service, how});
    }

    void OnServiceState(const std::string& name, SState from, SState to)
    {
        m_states.push_back(
            {Simulator::Now(), name, AdcService::ToString(from), AdcService::ToString(to)});
    }

    void OnVServerState(const std::string& name, VState from, VState to)
    {
        m_states.push_back(
            {Simulator::Now(), name, AdcService::ToString(from), AdcService::ToString(to)});
    }

  protected:
    /// \return the "from>to" transitions \p name's "StateChange" recorded, in order
    std::vector<std::string> Transitions(const std::string& name) const
    {
        std::vector<std::string> out;
        for (const StateEvent& e : m_states)
        {
            if (e.name == name)
            {
                out.push_back(e.from + ">" + e.to);
            }
        }
        return out;
    }

    /// \return the "Selection" events \p vserver fired
    std::vector<SelectionEvent> SelectionsOf(const std::string& vserver) const
    {
        std::vector<SelectionEvent> out;
        for (const SelectionEvent& e : m_selections)
        {
            if (e.vserver == vserver)
            {
                out.push_back(e);
            }
        }
        return out;
    }

    std::vector<SelectionEvent> m_selections; //!< "Selection" events
    std::vector<StateEvent> m_states;         //!< "StateChange" events
};

} // namespace

// REQ: SLB-03 (a back-end that is not UP gets no new flows; its state is visible)
TEST_F(AdcVirtualServerTest, SelectsOnlyUpAndEnabledServicesThroughTheMethod)
{
    Ptr<AdcVirtualServer> v = VServer("lb1", "ROUNDROBIN");
    Ptr<AdcService> a = Service("a", 1);
    Ptr<AdcService> b = Service("b", 2);
    Ptr<AdcService> c = Service("c", 3);
    for (const auto& s : {a, b, c})
    {
        v->BindService(s);
    }
    // No monitor bound: every service is UP, round robin in binding order.
    EXPECT_EQ(Picks(v, 4), (std::vector<std::string>{"a", "b", "c", "a"}));
    b->Disable();
    EXPECT_EQ(b->GetState(), SState::OUT_OF_SERVICE);
    EXPECT_EQ(Picks(v, 4), (std::vector<std::string>{"c", "a", "c", "a"}));
    b->Enable();
    EXPECT_EQ(Transitions("b"),
              (std::vector<std::string>{"UP>OUT OF SERVICE", "OUT OF SERVICE>UP"}));
    // MaxClient: a full service takes no new connection until one closes.
    a->SetAttribute("MaxClient", UintegerValue(1));
    v->ConnectionOpened(a);
    EXPECT_FALSE(a->HasCapacity());
    const auto full = Picks(v, 6);
    EXPECT_EQ(std::count(full.begin(), full.end(), "a"), 0);
    v->ConnectionClosed(a);
    const auto free = Picks(v, 3);
    EXPECT_EQ(std::count(free.begin(), free.end(), "a"), 1);
    EXPECT_EQ(a->GetTotalConnections(), 1u);
    // Every Select fired one "Selection" on the virtual server, by the method.
    const auto events = SelectionsOf("lb1");
    EXPECT_EQ(events.size(), 4u + 4 + 6 + 3);
    EXPECT_EQ(events.front().how, "method");
    EXPECT_EQ(v->GetHits(), events.size());
}

// REQ: SLB-03
TEST_F(AdcVirtualServerTest, WeightsComeFromTheBindingOrTheService)
{
    Ptr<AdcVirtualServer> v = VServer("lb1", "WEIGHTEDROUNDROBIN");
    Ptr<AdcService> a = Service("a", 1);
    Ptr<AdcService> b = Service("b", 2);
    b->SetAttribute("Weight", UintegerValue(2));
    v->BindService(a, 3); // the binding's weight
    v->BindService(b);    // the service's own weight
    EXPECT_EQ(v->GetLbMethod()->GetBackend(0).weight, 3u);
    EXPECT_EQ(v->GetLbMethod()->GetBackend(1).weight, 2u);
    const auto picks = Picks(v, 50);
    EXPECT_EQ(std::count(picks.begin(), picks.end(), "a"), 30);
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { v->BindService(Service("c", 3), 101); }), "allowed 1..100"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { v->BindService(a); }), "bound already"));
}

// REQ: SLB-03
TEST_F(AdcVirtualServerTest, EffectiveStateAndBackupVirtualServer)
{
    Ptr<AdcVirtualServer> primary = VServer("primary", "ROUNDROBIN");
    Ptr<AdcVirtualServer> backup = VServer("backup", "ROUNDROBIN");
    EXPECT_EQ(primary->GetState(), VState::DOWN); // nothing bound
    Ptr<AdcService> p = Service("p", 1);
    Ptr<AdcService> q = Service("q", 2);
    primary->BindService(p);
    backup->BindService(q);
    primary->SetBackupVServer(backup);
    EXPECT_EQ(primary->GetState(), VState::UP);
    EXPECT_EQ(primary->Select(Client(1), Seconds(0)).service, p);

    p->Disable(); // no bound service UP: the primary is DOWN, the backup serves
    EXPECT_EQ(primary->GetState(), VState::DOWN);
    const AdcSelection s = primary->Select(Client(1), Seconds(0));
    EXPECT_EQ(s.service, q);
    EXPECT_EQ(s.vserver, backup);
    EXPECT_EQ(s.how, "backup");
    p->Enable();
    primary->SetAdminState(AdcService::DISABLED); // a disabled primary too
    EXPECT_EQ(primary->GetState(), VState::OUT_OF_SERVICE);
    EXPECT_EQ(primary->Select(Client(1), Seconds(0)).service, q);
    primary->SetAdminState(AdcService::ENABLED);
    EXPECT_EQ(Transitions("primary"),
              (std::vector<std::string>{"DOWN>UP",
                                        "UP>DOWN",
                                        "DOWN>UP",
                                        "UP>OUT OF SERVICE",
                                        "OUT OF SERVICE>UP"}));
    EXPECT_EQ(primary->GetBackupSelections(), 2u);
    // Nothing anywhere: no service, traced as "none".
    q->Disable();
    p->Disable();
    EXPECT_FALSE(primary->Select(Client(1), Seconds(0)).service);
    EXPECT_EQ(SelectionsOf("primary").back().how, "none");
    EXPECT_EQ(primary->GetFailures(), 1u);
    // Backups never loop.
    EXPECT_TRUE(Has(ConfigErrorOf([&] { backup->SetBackupVServer(primary); }), "cycle"));
}

// REQ: CS-04 (SOURCEIP persistence), CS-05 (timeout; COOKIEINSERT 0 is a session cookie),
// REQ: CS-07 (support matrix of persistence and service types)
TEST_F(AdcVirtualServerTest, SourceIpPersistenceKeepsAClientUntilTheTimeout)
{
    Ptr<AdcVirtualServer> v = VServer("lb1", "ROUNDROBIN");
    v->SetAttribute("PersistenceType", StringValue("SOURCEIP"));
    v->SetAttribute("Timeout", UintegerValue(3)); // minutes
    Ptr<AdcService> a = Service("a", 1);
    Ptr<AdcService> b = Service("b", 2);
    v->BindService(a);
    v->BindService(b);
    // Round robin alone would alternate; the client stays on its first service.
    EXPECT_EQ(Picks(v, 5, Seconds(10)), (std::vector<std::string>(5, "a")));
    EXPECT_EQ(v->Select(Client(2), Seconds(10)).service, b); // another client: the method
    EXPECT_EQ(v->GetPersistenceHits(), 4u);
    // Still there just before the timeout since the last use, gone at it.
    EXPECT_EQ(v->Select(Client(1), Seconds(10) + Minutes(3) - NanoSeconds(1)).service, a);
    const Time expired = Seconds(10) + Minutes(6);
    EXPECT_EQ(v->Select(Client(1), expired).how, "method");
    // A service that went down loses its clients to the method.
    const Ptr<AdcService> now = v->Select(Client(1), expired).service;
    now->Disable();
    EXPECT_NE(v->Select(Client(1), expired).service, now);
    // Changing the method keeps the entries: back-end indices are stable.
    now->Enable();
    v->SetAttribute("LbMethod", StringValue("LEASTCONNECTION"));
    EXPECT_EQ(v->GetLbMethod()->GetMethodName(), "LEASTCONNECTION");
    EXPECT_EQ(v->Select(Client(1), expired + Seconds(1)).how, "persistence");
}

// REQ: CS-05, CS-07, CS-11 (persistence settings are checked as NetScaler checks them)
TEST_F(AdcVirtualServerTest, PersistenceSettingsFollowTheSupportMatrixAndRanges)
{
    Ptr<AdcVirtualServer> v = CreateObject<AdcVirtualServer>();
    v->Configure("tcp1", "TCP", Ipv4Address("192.0.2.1"), 443);
    v->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    const std::string msg = ConfigErrorOf([&] { v->Validate(); });
    EXPECT_TRUE(Has(msg, "COOKIEINSERT") && Has(msg, "TCP") && Has(msg, "HTTP, HTTPS")) << msg;
    v->SetAttribute("PersistenceType", StringValue("sourceip"));
    v->SetAttribute("Timeout", UintegerValue(1));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { v->Validate(); }), "allowed 2..1440 minutes"));
    v->SetAttribute("Timeout", UintegerValue(1440));
    EXPECT_NO_THROW(v->Validate());

    Ptr<AdcVirtualServer> ssl = CreateObject<AdcVirtualServer>();
    ssl->Configure("ssl1", "ssl", Ipv4Address("192.0.2.2"), 443);
    EXPECT_EQ(ssl->GetServiceType(), "SSL");
    ssl->SetAttribute("PersistenceType", StringValue("SSLSESSION")); // SSL is HTTPS: allowed
    EXPECT_NO_THROW(ssl->Validate());
    ssl->SetAttribute("PersistenceType", StringValue("COOKIEINSERT"));
    ssl->SetAttribute("Timeout", UintegerValue(0)); // a session cookie
    EXPECT_NO_THROW(ssl->Validate());
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { ssl->SetAttribute("PersistenceType", StringValue("RULE")); }),
            "not one of NONE, SOURCEIP, COOKIEINSERT, SSLSESSION"));
    EXPECT_TRUE(Has(ConfigErrorOf([&] { v->Configure("x", "HTTPS", AdcIpAddress(), 0); }),
                    "serviceType 'HTTPS' is not one of HTTP, SSL"));

    // A key from the caller (the cookie the proxy read) keeps a session cookie's client.
    Ptr<AdcService> a = Service("a", 1);
    Ptr<AdcService> b = Service("b", 2);
    ssl->BindService(a);
    ssl->BindService(b);
    ssl->SetAttribute("LbMethod", StringValue("ROUNDROBIN"));
    const AdcPersistenceKey cookie = AdcPersistenceKey::FromCookie("s1");
    const auto first = ssl->Select(Client(1), Seconds(0), cookie).service;
    EXPECT_EQ(ssl->Select(Client(2), Hours(1000), cookie).service, first); // no expiry
}

// REQ: ILB-02, GSLB-09 (the method is read in NetScaler's vocabulary of the one registry)
TEST_F(AdcVirtualServerTest, LbMethodComesFromTheRegistryInNetScalerWords)
{
    Ptr<AdcVirtualServer> v = VServer("lb1", "srcipsrcporthash");
    EXPECT_EQ(v->GetLbMethodName(), "SRCIPSRCPORTHASH");
    const std::string msg =
        ConfigErrorOf([&] { v->SetAttribute("LbMethod", StringValue("hash-ip-port")); });
    EXPECT_TRUE(Has(msg,
                    "AdcVirtualServer 'lb1': lbMethod 'hash-ip-port' is not one of "
                    "ROUNDROBIN, WEIGHTEDROUNDROBIN, LEASTCONNECTION,"))
        << msg;
    EXPECT_EQ(CreateObject<AdcVirtualServer>()->GetLbMethodName(), "LEASTCONNECTION");
}

// REQ: SLB-03 (LEASTCONNECTION counts the open connections of each service)
TEST_F(AdcVirtualServerTest, LbMethodSwitchAtRunTimeKeepsTheOpenConnectionCounts)
{
    // `set lb vserver -lbMethod` on a live vserver: the connections already open stay open
    // and count for LEASTCONNECTION, whatever method ran in between.
    Ptr<AdcVirtualServer> v = VServer("lb1", "LEASTCONNECTION");
    Ptr<AdcService> a = Service("a", 1);
    Ptr<AdcService> b = Service("b", 2);
    v->BindService(a);
    v->BindService(b);
    for (int i = 0; i < 3; ++i)
    {
        v->ConnectionOpened(a);
    }
    v->SetAttribute("LbMethod", StringValue("ROUNDROBIN"));
    v->SetAttribute("LbMethod", StringValue("LEASTCONNECTION"));
    // a has 3 open, b none: b, every time (Picks opens no connection; with the counts lost,
    // the tie would alternate).
    EXPECT_EQ(Picks(v, 2), (std::vector<std::string>{"b", "b"}));
    for (int i = 0; i < 3; ++i)
    {
        v->ConnectionClosed(a);
    }
    v->ConnectionOpened(b);
    EXPECT_EQ(Picks(v, 2), (std::vector<std::string>{"a", "a"}));
}

// REQ: CS-01 (a CS virtual server spreads requests over LB virtual servers by policies),
// REQ: CS-02 (a policy change at run time moves new requests)
TEST_F(AdcVirtualServerTest, VirtualServersNestUnderPoliciesByPriority)
{
    Ptr<AdcVirtualServer> cs = VServer("cs1", "ROUNDROBIN");
    Ptr<AdcVirtualServer> images = VServer("lb-images", "ROUNDROBIN");
    Ptr<AdcVirtualServer> api = VServer("lb-api", "ROUNDROBIN");
    Ptr<AdcVirtualServer> web = VServer("lb-web", "ROUNDROBIN");
    images->BindService(Service("img1", 1));
    api->BindService(Service("api1", 2));
    web->BindService(Service("web1", 3));
    // Bound in the "wrong" order: priority decides (1 first), the default target comes last.
    cs->BindVServer(web);
    cs->BindVServer(api, Policy("p-api", "/api", 20));
    cs->BindVServer(images, Policy("p-img", "/", 30));
    cs->BindVServer(images, Policy("p-api-img", "/api/img", 10));
    EXPECT_EQ(cs->GetState(), VState::UP); // no service of its own, but bound servers UP

    auto pick = [&](const std::string& url) {
        const AdcSelection s = cs->Select(Client(1, 1000, url), Seconds(0));
        return (s.service ? s.service->GetName() : "") + " " + s.how;
    };
    EXPECT_EQ(pick("/api/img/1"), "img1 policy p-api-img");
    EXPECT_EQ(pick("/api/v1"), "api1 policy p-api");
    EXPECT_EQ(pick("/index.html"), "img1 policy p-img");
    EXPECT_EQ(pick("other"), "web1 default");
    // A bound virtual server that is DOWN is passed over: the next policy that matches wins.
    api->Unbind("api1");
    EXPECT_EQ(api->GetState(), VState::DOWN);
    EXPECT_EQ(pick("/api/v1"), "img1 policy p-img");
    // The child's own "Selection" fired too, with how it chose.
    EXPECT_EQ(SelectionsOf("lb-images").back().how, "method");
    // The run-time change (canary): unbinding the policy moves new requests.
    ASSERT_TRUE(cs->UnbindVServer("lb-images"));
    EXPECT_EQ(pick("/index.html"), "web1 default");
    EXPECT_TRUE(Has(ConfigErrorOf([&] { web->BindVServer(cs); }), "cycle"));
    // The parent's state follows its children's.
    web->Unbind("web1");
    EXPECT_EQ(cs->GetState(), VState::DOWN);
    EXPECT_EQ(Transitions("cs1"), (std::vector<std::string>{"DOWN>UP", "UP>DOWN"}));
}

// REQ: SLB-03
TEST_F(AdcVirtualServerTest, ServiceGroupMembersJoinAndLeaveTheRotation)
{
    Ptr<AdcServiceGroup> g = CreateObject<AdcServiceGroup>();
    g->Configure("sg1", "HTTP");
    g->GetMemberSettings()->SetAttribute("MaxClient", UintegerValue(7));
    Ptr<AdcHealthMonitor> mon = CreateObject<AdcHealthMonitor>();
    g->BindMonitor(mon);
    g->AddMember(Ipv4Address("10.0.1.1"), 80);
    Ptr<AdcVirtualServer> v = VServer("lb1", "ROUNDROBIN");
    v->BindServiceGroup(g);
    // The member is monitored: it is UNKNOWN until the monitor answers, so not chosen.
    EXPECT_EQ(v->GetState(), VState::DOWN);
    EXPECT_FALSE(v->Select(Client(1), Seconds(0)).service);
    g->UnbindMonitor(mon);
    EXPECT_EQ(v->GetState(), VState::UP);
    // A member added later joins the rotation with the group's settings and monitors.
    Ptr<AdcService> m2 = g->AddMember(Ipv4Address("10.0.1.2"), 8080, 4);
    EXPECT_EQ(m2->GetName(), "sg1(10.0.1.2:8080)");
    EXPECT_EQ(m2->GetMaxClient(), 7u);
    EXPECT_EQ(m2->GetWeight(), 4u);
    EXPECT_EQ(Picks(v, 4),
              (std::vector<std::string>{"sg1(10.0.1.1:80)",
                                        "sg1(10.0.1.2:8080)",
                                        "sg1(10.0.1.1:80)",
                                        "sg1(10.0.1.2:8080)"}));
    // A removed member leaves it.
    ASSERT_TRUE(g->RemoveMember(Ipv4Address("10.0.1.1"), 80));
    EXPECT_EQ(Picks(v, 2), (std::vector<std::string>(2, "sg1(10.0.1.2:8080)")));
    g->Disable();
    EXPECT_EQ(v->GetState(), VState::DOWN);
    EXPECT_TRUE(
        Has(ConfigErrorOf([&] { g->AddMember(Ipv4Address("10.0.1.2"), 8080); }), "bound already"));
    EXPECT_EQ(v->GetServiceBindings().size(), 1u);
    EXPECT_TRUE(v->GetServiceBindings()[0].group);
}

// ---------------------------------------------------------------------------------------------
// Health from monitors, in a simulation
// ---------------------------------------------------------------------------------------------

namespace
{

/// A monitor node linked to a server node (10.1.1.1 - 10.1.1.2) that listens on TCP port 80
/// only: probes of port 81 are refused.
class AdcServiceHealthTest : public AdcVirtualServerTest
{
  protected:
    void SetUp() override
    {
        m_nodes.Create(2);
        InternetStackHelper().Install(m_nodes);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        addresses.Assign(p2p.Install(m_nodes.Get(0), m_nodes.Get(1)));
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 80));
        sink.Install(m_nodes.Get(1)).Start(Seconds(0));
    }

    /// \return a TCP monitor on the monitor node: every second, 0.5 s timeout, 2 retries
    Ptr<AdcHealthMonitor> TcpMonitor(const std::string& name)
    {
        Ptr<AdcHealthMonitor> m = CreateObject<AdcHealthMonitor>();
        m->SetAttribute("Name", StringValue(name));
        m->SetAttribute("Type", StringValue("TCP"));
        m->SetAttribute("Interval", StringValue("1s"));
        m->SetAttribute("ResponseTimeout", StringValue("500ms"));
        m->SetAttribute("DownTime", StringValue("1s"));
        m->SetAttribute("Retries", UintegerValue(2));
        m_nodes.Get(0)->AddApplication(m);
        m->SetStartTime(Seconds(1));
        m->SetStopTime(Seconds(10));
        return m;
    }

    NodeContainer m_nodes; //!< monitor node, server node
};

} // namespace

// REQ: SLB-03 (health probes; an unhealthy back-end gets no new flows; its state is visible)
TEST_F(AdcServiceHealthTest, StateFollowsTheBoundMonitorsAsNetScalerCombinesThem)
{
    Ptr<AdcHealthMonitor> tcp = TcpMonitor("tcp-mon");
    Ptr<AdcService> open = CreateObject<AdcService>();
    open->Configure("open", Ipv4Address("10.1.1.2"), "HTTP", 80);
    Ptr<AdcService> closed = CreateObject<AdcService>();
    closed->Configure("closed", Ipv4Address("10.1.1.2"), "HTTP", 81);
    for (const auto& s : {open, closed})
    {
        s->TraceConnectWithoutContext("StateChange",
                                      MakeCallback(&AdcServiceHealthTest::OnServiceState, this));
        s->BindMonitor(tcp); // one monitor, two targets: each service hears only its own
    }
    Ptr<AdcVirtualServer> v = VServer("lb1", "ROUNDROBIN");
    v->BindService(open);
    v->BindService(closed);
    EXPECT_EQ(open->GetState(), SState::UNKNOWN); // nothing probed yet
    std::vector<std::string> during;
    Simulator::Schedule(Seconds(5), [&] {
        for (const std::string& s : Picks(v, 4, Simulator::Now()))
        {
            during.push_back(s);
        }
    });
    // A second monitor on the open service's port 81 says DOWN: one DOWN monitor is enough.
    Ptr<AdcHealthMonitor> other = TcpMonitor("port81");
    other->SetAttribute("DestinationPort", UintegerValue(81));
    Simulator::Schedule(Seconds(6), [&] { open->BindMonitor(other); });
    Simulator::Stop(Seconds(9));
    Simulator::Run();

    EXPECT_EQ(Transitions("open"),
              (std::vector<std::string>{"UP>UNKNOWN", "UNKNOWN>UP", "UP>UNKNOWN", "UNKNOWN>DOWN"}));
    EXPECT_EQ(Transitions("closed"), (std::vector<std::string>{"UP>UNKNOWN", "UNKNOWN>DOWN"}));
    // The closed port is refused at once; Retries 2 at 1 s intervals: DOWN at the second probe.
    const auto firstDown = std::find_if(m_states.begin(), m_states.end(), [](const StateEvent& e) {
        return e.name == "closed" && e.to == "DOWN";
    });
    ASSERT_NE(firstDown, m_states.end());
    EXPECT_GE(firstDown->at, Seconds(2));
    EXPECT_LT(firstDown->at, Seconds(2.5));
    // Between those times only the open service was chosen.
    EXPECT_EQ(during, (std::vector<std::string>(4, "open")));
    EXPECT_EQ(v->GetState(), VState::DOWN);
    EXPECT_EQ(Transitions("lb1"), (std::vector<std::string>{"DOWN>UP", "UP>DOWN"}));
    // Unbinding the monitor that says DOWN brings the service back.
    ASSERT_TRUE(open->UnbindMonitor(other));
    EXPECT_EQ(open->GetState(), SState::UP);
    EXPECT_FALSE(open->UnbindMonitor(other));
}

// REQ: GSLB-07 (a remote site's service takes the state its site reports over MEP: a health
// source other than this node's monitors)
TEST_F(AdcVirtualServerTest, ExternalHealthCombinesWithMonitorsAndStopsSelection)
{
    Ptr<AdcVirtualServer> v = VServer("gslb", "ROUNDROBIN");
    Ptr<AdcService> a = Service("site-a", 1);
    Ptr<AdcService> b = Service("site-b", 2);
    v->BindService(a);
    v->BindService(b);
    EXPECT_FALSE(b->HasExternalHealth());
    b->SetExternalHealth(SState::DOWN);
    EXPECT_TRUE(b->HasExternalHealth());
    EXPECT_EQ(b->GetState(), SState::DOWN);
    EXPECT_EQ(Picks(v, 3), (std::vector<std::string>{"site-a", "site-a", "site-a"}));
    b->SetExternalHealth(SState::UNKNOWN); // no monitor bound: the report alone decides
    EXPECT_EQ(b->GetState(), SState::UNKNOWN);
    b->SetExternalHealth(SState::UP);
    EXPECT_EQ(b->GetState(), SState::UP);
    const auto both = Picks(v, 4);
    EXPECT_EQ(std::count(both.begin(), both.end(), "site-b"), 2);
    b->SetExternalHealth(SState::DOWN);
    b->ClearExternalHealth();
    EXPECT_EQ(b->GetState(), SState::UP);
    EXPECT_EQ(
        Transitions("site-b"),
        (std::vector<std::string>{"UP>DOWN", "DOWN>UNKNOWN", "UNKNOWN>UP", "UP>DOWN", "DOWN>UP"}));
    // A disabled service stays OUT OF SERVICE whatever is reported.
    b->Disable();
    b->SetExternalHealth(SState::UP);
    EXPECT_EQ(b->GetState(), SState::OUT_OF_SERVICE);
    EXPECT_THROW(b->SetExternalHealth(SState::OUT_OF_SERVICE), AdcConfigError);
}
