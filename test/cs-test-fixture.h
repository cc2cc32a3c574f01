/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The test bed of the content-switching tests: a CS vserver "CS-1" on servers[0] of a LAN,
 * LB vservers "LB1" (v1) and "LB2" (v2) with one HTTP server each, and recorders of the CS
 * vserver's "Decision" and "Persistence" traces.
 */

#ifndef CS_TEST_FIXTURE_H
#define CS_TEST_FIXTURE_H

#include "adc-test-fixtures.h"

#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-service.h"
#include "ns3/adc-virtual-server.h"
#include "ns3/core-module.h"
#include "ns3/cs-policy.h"
#include "ns3/cs-virtual-server.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace cstest
{

using namespace ns3::adctest;

/// One "Decision" trace.
struct Decision
{
    std::string client;  //!< client ip:port
    std::string url;     //!< URL
    std::string lb;      //!< LB vserver
    std::string service; //!< service
    std::string how;     //!< how
    Time when;           //!< when
};

/// One "Persistence" trace.
struct PersistenceEvent
{
    std::string event; //!< hit, miss, create, expire, overflow
    std::string key;   //!< the key
    std::string lb;    //!< LB vserver
};

/// A CS vserver "CS-1" on servers[0] of a LAN, LB vservers "LB1" (v1) and "LB2" (v2) with one
/// HTTP server each (servers[1] "v1-a", servers[2] "v2-a"); LB1 is the default.
class CsVirtualServerTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        lan = MakeLan(4, 3);
        for (uint32_t v = 1; v <= 2; ++v)
        {
            Ptr<AdcHttpServer> srv = CreateObject<AdcHttpServer>();
            srv->SetAttribute("ServerName", StringValue("v" + std::to_string(v) + "-a"));
            srv->SetAttribute("ObjectSize", UintegerValue(500));
            lan.servers.Get(v)->AddApplication(srv);
            Ptr<AdcService> svc = CreateObject<AdcService>();
            svc->Configure("v" + std::to_string(v) + "-a", lan.ServerIp(v), "HTTP", 80);
            Ptr<AdcVirtualServer> lb = CreateObject<AdcVirtualServer>();
            lb->Configure("LB" + std::to_string(v), "HTTP", AdcIpAddress(), 0);
            lb->SetLbMethod("ROUNDROBIN");
            lb->BindService(svc);
            lbs.push_back(lb);
        }
        cs = CreateObject<CsVirtualServer>();
        cs->SetAttribute("Name", StringValue("CS-1"));
        lan.servers.Get(0)->AddApplication(cs);
        cs->SetDefaultLbVserver(lbs[0]);
        cs->TraceConnectWithoutContext("Decision",
                                       MakeCallback(&CsVirtualServerTest::OnDecision, this));
        cs->TraceConnectWithoutContext("Persistence",
                                       MakeCallback(&CsVirtualServerTest::OnPersistence, this));
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    void OnDecision(const std::string& client,
                    const std::string& url,
                    const std::string& lb,
                    const std::string& service,
                    const std::string& how)
    {
        decisions.push_back({client, url, lb, service, how, Simulator::Now()});
    }

    void OnPersistence(const std::string& event,
                       const std::string& key,
                       const std::string& lb,
                       const std::string& /* service */)
    {
        events.push_back({event, key, lb});
    }

    /// \return the VIP address of the CS vserver
    InetSocketAddress Vip() const
    {
        return InetSocketAddress(lan.ServerIp(0), 80);
    }

    /// \param name a policy name \param rule its rule \param priority its priority
    /// \return the policy
    static Ptr<CsPolicy> Policy(const std::string& name, const std::string& rule, uint32_t priority)
    {
        Ptr<CsPolicy> p = CreateObject<CsPolicy>();
        p->SetAttribute("Name", StringValue(name));
        p->SetAttribute("Priority", UintegerValue(priority));
        p->SetRule(rule);
        return p;
    }

    /// Bind LB2 with a policy every request matches, at \p at (the canary goes live).
    void BindV2At(Time at, const std::string& rule = "HTTP.REQ.URL.STARTSWITH(\"/\")")
    {
        Simulator::Schedule(at,
                            [this, rule]() { cs->BindPolicy(Policy("pol-v2", rule, 10), lbs[1]); });
    }

    /// \param c a LAN client \param start when \param n requests, 2 s apart \param resume
    /// whether it offers its last session again
    /// \return a TLS client to the VIP's port 443, with one connection (and handshake) per
    /// request
    Ptr<AdcHttpClient> TlsClient(uint32_t c, Time start, uint32_t n, bool resume = true)
    {
        Ptr<AdcHttpClient> cli = Client(c, start, n);
        cli->SetAttribute("Remote", AddressValue(InetSocketAddress(lan.ServerIp(0), 443)));
        cli->SetAttribute("Tls", BooleanValue(true));
        cli->SetAttribute("TlsResume", BooleanValue(resume));
        cli->SetAttribute("Persistent", BooleanValue(false)); // a handshake per request
        return cli;
    }

    /// \param client a LAN client \param times when it sends a request each
    /// \return an HTTP client sending one request at each of \p times (1 s apart)
    Ptr<AdcHttpClient> Client(uint32_t client, Time start, uint32_t requests)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(Vip()));
        c->SetAttribute("MaxRequests", UintegerValue(requests));
        c->SetAttribute("InterRequestTime",
                        StringValue("ns3::ConstantRandomVariable[Constant=2.0]"));
        c->SetAttribute("CatalogueSize", UintegerValue(1));
        lan.clients.Get(client)->AddApplication(c);
        c->SetStartTime(start);
        return c;
    }

    /// \param client a LAN client \return its address as Decision.client starts
    std::string ClientIp(uint32_t client) const
    {
        std::ostringstream os;
        os << lan.ClientIp(client) << ":";
        return os.str();
    }

    /// \param client a LAN client \return its decisions, in order, as "LB how"
    std::vector<std::string> DecisionsOf(uint32_t client) const
    {
        std::vector<std::string> out;
        for (const Decision& d : decisions)
        {
            if (d.client.rfind(ClientIp(client), 0) == 0)
            {
                out.push_back(d.lb + " " + d.how);
            }
        }
        return out;
    }

    /// \param event an event \return how many "Persistence" traces had it
    std::size_t Count(const std::string& event) const
    {
        std::size_t n = 0;
        for (const PersistenceEvent& e : events)
        {
            n += e.event == event ? 1 : 0;
        }
        return n;
    }

    /// Run until \p end.
    void Run(Time end)
    {
        Simulator::Stop(end);
        Simulator::Run();
    }

    Lan lan;                                //!< clients, CS node, servers
    std::vector<Ptr<AdcVirtualServer>> lbs; //!< LB1, LB2
    Ptr<CsVirtualServer> cs;                //!< CS-1
    std::vector<Decision> decisions;        //!< "Decision"
    std::vector<PersistenceEvent> events;   //!< "Persistence"
};

/// \param ip a service's address \param port its port \return the NSC_ value NetScaler writes:
/// "ffffffff", IP XOR 0x03081e11, a constant 24 hex digits, port XOR 0x3630 (public decoder)
inline std::string
NscValue(Ipv4Address ip, uint16_t port)
{
    char buf[64];
    std::snprintf(buf,
                  sizeof buf,
                  "ffffffff%08x45525d5f4f58455e445a4a42%04x",
                  ip.Get() ^ 0x03081e11U,
                  static_cast<unsigned>(port ^ 0x3630U));
    return buf;
}

/// \param cookie a Cookie header value ("" for none) \return a GET request for /obj/1
inline std::string
Get(const std::string& cookie)
{
    std::string r = "GET /obj/1 HTTP/1.1\r\nHost: www.example.com\r\n";
    if (!cookie.empty())
    {
        r += "Cookie: " + cookie + "\r\n";
    }
    return r + "\r\n";
}

} // namespace cstest
} // namespace ns3

#endif /* CS_TEST_FIXTURE_H */
