/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The test bed of the CrdLowerTierAppliance tests (crd-lower-tier-test.cc and
 * crd-lower-tier-failures-test.cc): a lower-tier cache-redirection appliance between a client,
 * an origin and a cache, over real ns-3 TCP with transparent interception.
 */

#ifndef CRD_LOWER_TIER_FIXTURE_H
#define CRD_LOWER_TIER_FIXTURE_H
#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-message.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-policy-routing.h"
#include "ns3/adc-request-record.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/boolean.h"
#include "ns3/crd-lower-tier.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace crdtest
{

/// Shorthand for the accounting expectations.
using Expect = AdcAccountingExpectation;

const Ipv4Address kClient("10.1.0.1");
const Ipv4Address kL2OnClientSide("10.1.0.2");
const Ipv4Address kL2OnOriginSide("10.2.0.1");
const Ipv4Address kOrigin("10.2.0.2");
const Ipv4Address kMip("10.3.0.1"); // L2's address on the cache link
const Ipv4Address kCache("10.3.0.2");
constexpr uint32_t kOriginObject = 3000;
constexpr uint32_t kCacheObject = 5000;

/// One "Decision" trace.
struct Decision
{
    std::string clientIp;
    std::string url;
    std::string decision;
    std::string target;
};

/// One AdcHttpServer "AccessLog" line.
struct AccessLine
{
    std::string peer;
    std::string headerIp;
    std::string url;
};

/// One "BackendFailure" trace.
struct Failure
{
    std::string target;
    std::string reason;
    Time when;
};

/// A TCP server that answers the first bytes of each connection with fixed bytes and closes.
struct RawServer
{
    Ptr<Socket> listen;
    std::string reply;

    void Start(Ptr<Node> node, uint16_t port)
    {
        listen = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
        listen->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        listen->Listen();
        listen->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&RawServer::Accept, this));
    }

    void Accept(Ptr<Socket> s, const Address& /* from */)
    {
        s->SetRecvCallback(MakeCallback(&RawServer::Read, this));
    }

    void Read(Ptr<Socket> s)
    {
        while (Ptr<Packet> p = s->Recv())
        {
            if (p->GetSize() == 0)
            {
                break;
            }
        }
        s->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        s->Send(Create<Packet>(reinterpret_cast<const uint8_t*>(reply.data()),
                               static_cast<uint32_t>(reply.size())));
        s->Close();
    }
};

/// C (10.1.0.1) -- L2 -- O (10.2.0.2), and K (10.3.0.2) -- L2; L2 runs the appliance.
class CrdLowerTierTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Build nodes, links, addresses, routes, servers, the appliance and the client.
    void Build()
    {
        clients.clear();
        client = CreateObject<Node>();
        l2 = CreateObject<Node>();
        origin = CreateObject<Node>();
        cache = CreateObject<Node>();
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer dc = p2p.Install(client, l2);
        NetDeviceContainer dO = p2p.Install(l2, origin);
        NetDeviceContainer dK = p2p.Install(l2, cache);

        Ipv4ListRoutingHelper list;
        list.Add(Ipv4StaticRoutingHelper(), 0);
        InternetStackHelper stack;
        stack.SetRoutingHelper(list);
        stack.SetIpv6StackInstall(false);
        stack.Install(NodeContainer(client, l2, origin, cache));
        Ipv4AddressHelper addr;
        addr.SetBase("10.1.0.0", "255.255.255.0");
        addr.Assign(dc);
        addr.SetBase("10.2.0.0", "255.255.255.0");
        addr.Assign(dO);
        addr.SetBase("10.3.0.0", "255.255.255.0");
        addr.Assign(dK);

        Ptr<Ipv4> l2ip = l2->GetObject<Ipv4>();
        routing = CreateObject<AdcPolicyRouting>();
        AdcAddTopIpv4Routing(l2, routing, 10);
        ifC = static_cast<uint32_t>(l2ip->GetInterfaceForDevice(dc.Get(1)));
        ifO = static_cast<uint32_t>(l2ip->GetInterfaceForDevice(dO.Get(0)));
        ifK = static_cast<uint32_t>(l2ip->GetInterfaceForDevice(dK.Get(0)));

        Ipv4StaticRoutingHelper sr;
        sr.GetStaticRouting(client->GetObject<Ipv4>())->SetDefaultRoute(kL2OnClientSide, 1);
        sr.GetStaticRouting(cache->GetObject<Ipv4>())->SetDefaultRoute(kMip, 1);
        sr.GetStaticRouting(origin->GetObject<Ipv4>())
            ->AddNetworkRouteTo("10.1.0.0", "255.255.0.0", kL2OnOriginSide, 1);

        originServer = CreateObject<AdcHttpServer>();
        originServer->SetAttribute("ServerName", StringValue("ORIGIN"));
        originServer->SetAttribute("ObjectSize", UintegerValue(kOriginObject));
        origin->AddApplication(originServer);
        cacheServer = CreateObject<AdcHttpServer>();
        cacheServer->SetAttribute("ServerName", StringValue("CRS1"));
        cacheServer->SetAttribute("ObjectSize", UintegerValue(kCacheObject));
        cache->AddApplication(cacheServer);

        app = CreateObject<CrdLowerTierAppliance>();
        app->SetAttribute("Name", StringValue("L2NS1"));
        app->SetAttribute("Mip", Ipv4AddressValue(kMip));
        app->SetAttribute("PortRange", StringValue("20000-20999"));
        app->SetRouting(routing);
        app->AddCacheServer("CRS1", kCache, 80);
        app->SetCacheNetwork("10.3.0.0", "255.255.255.0");
        l2->AddApplication(app);

        httpClient = MakeClient(client, {});
        ConnectTraces();
    }

    /// \return an HTTP client on \p node addressed to O:80 that only sends IssueRequest's
    Ptr<AdcHttpClient> MakeClient(Ptr<Node> node,
                                  const std::vector<std::pair<std::string, std::string>>& hdrs)
    {
        Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
        c->SetAttribute("Remote", AddressValue(InetSocketAddress(kOrigin, 80)));
        c->SetAttribute("InterRequestTime",
                        StringValue("ns3::ConstantRandomVariable[Constant=1000]"));
        for (const auto& h : hdrs)
        {
            c->AddRequestHeader(h.first, h.second);
        }
        c->SetStartTime(Seconds(0.5));
        node->AddApplication(c);
        c->TraceConnectWithoutContext(
            "RequestDone",
            Callback<void, const AdcRequestRecord&>(
                [this](const AdcRequestRecord& r) { done.push_back(r); }));
        clients.push_back(c);
        return c;
    }

    void ConnectTraces()
    {
        app->TraceConnectWithoutContext("Decision",
                                        Callback<void,
                                                 const std::string&,
                                                 const std::string&,
                                                 const std::string&,
                                                 const std::string&>([this](const std::string& ip,
                                                                            const std::string& url,
                                                                            const std::string& d,
                                                                            const std::string& t) {
                                            decisions.push_back({ip, url, d, t});
                                        }));
        app->TraceConnectWithoutContext(
            "Intercept",
            Callback<void, const std::string&, const std::string&, const std::string&>(
                [this](const std::string& kind, const std::string& peer, const std::string& orig) {
                    intercepts.push_back({kind, peer, orig});
                }));
        app->TraceConnectWithoutContext("PortAllocated",
                                        Callback<void, uint16_t, const std::string&>(
                                            [this](uint16_t port, const std::string& ip) {
                                                allocated.emplace_back(port, ip);
                                            }));
        app->TraceConnectWithoutContext(
            "PortExhausted",
            Callback<void, const std::string&>(
                [this](const std::string& ip) { exhausted.push_back(ip); }));
        app->TraceConnectWithoutContext(
            "BackendFailure",
            Callback<void, const std::string&, const std::string&>(
                [this](const std::string& target, const std::string& reason) {
                    failures.push_back({target, reason, Simulator::Now()});
                }));
        app->TraceConnectWithoutContext(
            "Drop",
            Callback<void, const std::string&>(
                [this](const std::string& reason) { drops.push_back(reason); }));
        auto accessTo = [](std::vector<AccessLine>* log) {
            return Callback<void, const std::string&, const std::string&, const std::string&, Time>(
                [log](const std::string& peer,
                      const std::string& hdr,
                      const std::string& url,
                      Time) {
                    log->push_back({peer, hdr, url});
                });
        };
        originServer->TraceConnectWithoutContext("AccessLog", accessTo(&originLog));
        cacheServer->TraceConnectWithoutContext("AccessLog", accessTo(&cacheLog));
        originServer->TraceConnectWithoutContext(
            "Connection",
            Callback<void, const Address&>([this](const Address& from) {
                originPeers.push_back(InetSocketAddress::ConvertFrom(from));
            }));
        httpClient->TraceConnectWithoutContext(
            "Rx",
            Callback<void, Ptr<const Packet>, const Address&>(
                [this](Ptr<const Packet> p, const Address&) { clientRx.Feed(p); }));
    }

    /// The LOCAL rules of the brief, then run until \p stop.
    void Run(Time stop)
    {
        const AdcPortRange range = app->GetPortAllocator()->GetRange();
        AdcPolicyRule toOrigin;
        toOrigin.dstNet = Ipv4Address("10.2.0.0");
        toOrigin.dstMask = Ipv4Mask("255.255.255.0");
        toOrigin.protocol = 6;
        toOrigin.dstPorts = AdcPortRange(80, 80);
        toOrigin.action = AdcPolicyRule::LOCAL;
        toOrigin.name = "client-to-origin";
        toOrigin.inInterfaces = {ifC};
        routing->AddRule(toOrigin);
        toOrigin.name = "miss-to-origin";
        toOrigin.inInterfaces = {ifK};
        routing->AddRule(toOrigin);
        AdcPolicyRule replies;
        replies.name = "origin-replies";
        replies.inInterfaces = {ifO};
        replies.dstNet = Ipv4Address("10.1.0.0");
        replies.dstMask = Ipv4Mask("255.255.0.0");
        replies.protocol = 6;
        replies.dstPorts = range;
        replies.action = AdcPolicyRule::LOCAL;
        routing->AddRule(replies);
        Simulator::Stop(stop);
        Simulator::Run();
    }

    /// Have \p c request \p url at \p t.
    static void IssueAt(Ptr<AdcHttpClient> c, Time t, const std::string& url)
    {
        Simulator::Schedule(t, [c, url]() { c->IssueRequest(url); });
    }

    /// \return how many client records have status \p status
    std::size_t WithStatus(uint16_t status) const
    {
        return static_cast<std::size_t>(std::count_if(done.begin(), done.end(), [&](const auto& r) {
            return r.status == status;
        }));
    }

    Ptr<Node> client;
    Ptr<Node> l2;
    Ptr<Node> origin;
    Ptr<Node> cache;
    uint32_t ifC{0};
    uint32_t ifO{0};
    uint32_t ifK{0};
    Ptr<AdcPolicyRouting> routing;
    Ptr<AdcHttpServer> originServer;
    Ptr<AdcHttpServer> cacheServer;
    Ptr<CrdLowerTierAppliance> app;
    Ptr<AdcHttpClient> httpClient;
    std::vector<Ptr<AdcHttpClient>> clients; //!< every client MakeClient made, httpClient first

    std::vector<AdcRequestRecord> done;
    std::vector<Decision> decisions;
    std::vector<std::vector<std::string>> intercepts;
    std::vector<std::pair<uint16_t, std::string>> allocated;
    std::vector<std::string> exhausted;
    std::vector<Failure> failures;
    std::vector<std::string> drops;
    std::vector<AccessLine> originLog;
    std::vector<AccessLine> cacheLog;
    std::vector<InetSocketAddress> originPeers;
    AdcHttpStreamParser clientRx;
};

} // namespace crdtest
} // namespace ns3

#endif /* CRD_LOWER_TIER_FIXTURE_H */
