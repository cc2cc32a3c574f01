/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The SLB test bed: SlbTopologyHelper's data centre with HTTP servers on the VMs, HTTP clients,
 * and recorders of what the SLB's pieces traced (route changes, ECMP choices, MUX DIP choices,
 * encapsulations, host NAT, policy pushes, health changes).
 */

#ifndef SLB_TEST_FIXTURE_H
#define SLB_TEST_FIXTURE_H

#include "ns3/adc-bgp-speaker.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-ecmp-routing6.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-request-log.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/slb-host-agent.h"
#include "ns3/slb-host-switch.h"
#include "ns3/slb-manager.h"
#include "ns3/slb-mux.h"
#include "ns3/slb-topology-helper.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/// A route a router's BGP speaker learnt or withdrew.
struct SlbRouteEvent
{
    Time at;                  //!< when
    std::string router;       //!< "router1", "edge"
    AdcBgpRouteChange change; //!< what
};

/// One ECMP choice of a router (first packet of each flow only).
struct SlbHopEvent
{
    Time at;             //!< when
    std::string router;  //!< the router
    AdcFlowKey flow;     //!< the flow
    std::string gateway; //!< the next hop it chose
};

/// One DIP choice of a MUX.
struct SlbDipEvent
{
    Time at;               //!< when
    uint32_t mux{0};       //!< the MUX's index
    AdcFlowKey flow;       //!< the flow
    AdcIpAddress dip;      //!< the DIP
    bool fromTable{false}; //!< from the flow table
};

/// The test bed.
class SlbBed
{
  public:
    /**
     * \param helper the topology helper, attributes set
     */
    explicit SlbBed(Ptr<SlbTopologyHelper> helper)
    {
        t = helper->Build();
        Record();
    }

    ~SlbBed()
    {
        Simulator::Destroy();
    }

    /// Add the seed's VIP 107.105.47.60:80 (and, with IPv6, fd00:ffff::60:80) with the
    /// first VM of every host as DIPs, then commit.
    void AddSeedVip(bool commit = true)
    {
        vip = AdcIpAddress(Ipv4Address("107.105.47.60"));
        t.manager->AddVip("SHAREPOINT", {vip, AdcFlowKey::PROTO_TCP, 80}, SlbVipKind::PUBLIC);
        if (t.ipv6)
        {
            vip6 = AdcIpAddress(Ipv6Address("fd00:ffff::60"));
            t.manager->AddVip("SHAREPOINT6", {vip6, AdcFlowKey::PROTO_TCP, 80}, SlbVipKind::PUBLIC);
        }
        for (uint32_t h = 0; h < t.hosts.GetN(); ++h)
        {
            SlbDip d;
            d.address = t.vmAddress[t.Vm(h, 0)];
            d.port = 80;
            d.vni = t.vmVni[t.Vm(h, 0)];
            t.manager->AddDip("SHAREPOINT", d, t.hostNames[h]);
            if (t.ipv6)
            {
                d.address = t.vmAddress6[t.Vm(h, 0)];
                t.manager->AddDip("SHAREPOINT6", d, t.hostNames[h]);
            }
        }
        if (commit)
        {
            t.manager->Commit();
        }
    }

    /// HTTP servers on every VM (port 80), named after their VM.
    void AddServers()
    {
        for (uint32_t k = 0; k < t.vms.GetN(); ++k)
        {
            Ptr<AdcHttpServer> s = CreateObject<AdcHttpServer>();
            s->SetAttribute("Port", UintegerValue(80));
            s->SetAttribute("ServerName", StringValue(t.NameOf(t.vms.Get(k))));
            t.vms.Get(k)->AddApplication(s);
            s->SetStartTime(Seconds(0));
            servers.push_back(s);
        }
    }

    /**
     * \brief An HTTP client on each client node.
     * \param remote the VIP's socket address
     * \param requests requests per client
     * \param start first request
     * \param gap time between two requests of a client
     * \param connections parallel connections per client (each request its own connection
     *        when \p persistent is false)
     * \param persistent keep connections open between requests
     */
    void AddClients(const Address& remote,
                    uint32_t requests,
                    Time start,
                    Time gap,
                    uint32_t connections = 1,
                    bool persistent = false)
    {
        for (uint32_t i = 0; i < t.clients.GetN(); ++i)
        {
            Ptr<AdcHttpClient> c = CreateObject<AdcHttpClient>();
            c->SetAttribute("Remote", AddressValue(remote));
            c->SetAttribute("MaxRequests", UintegerValue(requests));
            c->SetAttribute("InterRequestTime",
                            StringValue("ns3::ConstantRandomVariable[Constant=" +
                                        std::to_string(gap.GetSeconds()) + "]"));
            c->SetAttribute("Persistent", BooleanValue(persistent));
            c->SetAttribute("MaxConnections", UintegerValue(connections));
            c->SetAttribute("RequestTimeout", TimeValue(Seconds(3)));
            t.clients.Get(i)->AddApplication(c);
            c->SetStartTime(start);
            c->TraceConnectWithoutContext("RequestDone", MakeCallback(&SlbBed::OnDone, this));
            clients.push_back(c);
        }
    }

    /// \return the clients' requests, counted as one
    AdcRequestTally Tally() const
    {
        AdcRequestTally sum;
        for (const auto& c : clients)
        {
            sum += c->GetTally();
        }
        return sum;
    }

    /// \param until the stop time: run
    void Run(Time until)
    {
        for (const auto& c : clients)
        {
            c->SetStopTime(until - MilliSeconds(1));
        }
        Simulator::Stop(until);
        Simulator::Run();
    }

    /// \param router a router's name \param prefix a prefix \return its next hops learnt and
    /// still there (announced and not withdrawn since)
    std::set<std::string> LearntVia(const std::string& router, const AdcIpAddress& prefix) const
    {
        std::set<std::string> via;
        for (const auto& r : routes)
        {
            if (r.router == router && r.change.prefix == prefix)
            {
                if (r.change.announced)
                {
                    via.insert(r.change.nextHop.ToString());
                }
                else
                {
                    via.erase(r.change.nextHop.ToString());
                }
            }
        }
        return via;
    }

    SlbTopology t;                                    //!< the topology
    AdcIpAddress vip;                                 //!< the IPv4 VIP
    AdcIpAddress vip6;                                //!< the IPv6 VIP
    std::vector<Ptr<AdcHttpServer>> servers;          //!< per VM
    std::vector<Ptr<AdcHttpClient>> clients;          //!< per client node
    std::vector<AdcRequestRecord> done;               //!< every request that ended
    std::vector<SlbRouteEvent> routes;                //!< BGP routes learnt/withdrawn by routers
    std::vector<SlbHopEvent> hops;                    //!< ECMP choices
    std::vector<SlbDipEvent> dips;                    //!< MUX DIP choices
    std::map<std::string, uint32_t> encapsulated;     //!< packets each MUX encapsulated
    std::vector<std::pair<Time, std::string>> pushes; //!< manager policy pushes
    std::vector<std::pair<std::string, bool>> health; //!< manager health changes (dip, up)
    /// "router peer" -> times of the BGP messages the router received from that peer
    std::map<std::string, std::vector<Time>> received;
    std::map<std::string, std::vector<uint8_t>> receivedTypes; //!< and their types
    uint32_t natIn{0};                                         //!< host NAT towards VMs
    uint32_t natOut{0};                                        //!< host NAT from VMs (DSR)

  private:
    void Record()
    {
        auto routeRec = [this](const std::string& name, Ptr<AdcBgpSpeaker> s) {
            s->TraceConnectWithoutContext(
                "RouteChange",
                Callback<void, const AdcBgpRouteChange&>([this, name](const AdcBgpRouteChange& c) {
                    routes.push_back({Simulator::Now(), name, c});
                }));
        };
        routeRec("edge", t.edgeSpeaker);
        auto msgRec = [this](const std::string& name, Ptr<AdcBgpSpeaker> s) {
            s->TraceConnectWithoutContext(
                "Message",
                Callback<void, const AdcIpAddress&, const std::string&, const AdcBgpMessage&>(
                    [this, name](const AdcIpAddress& peer,
                                 const std::string& dir,
                                 const AdcBgpMessage& m) {
                        if (dir == "received")
                        {
                            received[name + " " + peer.ToString()].push_back(Simulator::Now());
                            receivedTypes[name + " " + peer.ToString()].push_back(m.type);
                        }
                    }));
        };
        auto onHop = [this](const std::string& name, const AdcFlowKey& f, const AdcIpAddress& gw) {
            if (m_seenHops.insert(name + f.ToString()).second)
            {
                hops.push_back({Simulator::Now(), name, f, gw.ToString()});
            }
        };
        auto hopRec = [onHop](const std::string& name, Ptr<AdcEcmpRouting> e) {
            e->TraceConnectWithoutContext(
                "NextHop",
                Callback<void, const AdcFlowKey&, const std::string&, Ipv4Address, uint32_t>(
                    [onHop,
                     name](const AdcFlowKey& f, const std::string&, Ipv4Address gw, uint32_t) {
                        onHop(name, f, gw);
                    }));
        };
        auto hopRec6 = [onHop](const std::string& name, Ptr<AdcEcmpRouting6> e) {
            e->TraceConnectWithoutContext(
                "NextHop",
                Callback<void, const AdcFlowKey&, const std::string&, Ipv6Address, uint32_t>(
                    [onHop,
                     name](const AdcFlowKey& f, const std::string&, Ipv6Address gw, uint32_t) {
                        onHop(name, f, gw);
                    }));
        };
        hopRec("edge", t.edgeEcmp);
        hopRec("tor", t.torEcmp);
        if (t.edgeEcmp6)
        {
            hopRec6("edge", t.edgeEcmp6);
        }
        for (uint32_t j = 0; j < t.routers.GetN(); ++j)
        {
            const std::string name = t.NameOf(t.routers.Get(j));
            routeRec(name, t.routerSpeaker[j]);
            msgRec(name, t.routerSpeaker[j]);
            hopRec(name, t.routerEcmp[j]);
            if (t.routerEcmp6[j])
            {
                hopRec6(name, t.routerEcmp6[j]);
            }
        }
        for (uint32_t i = 0; i < t.mux.size(); ++i)
        {
            t.mux[i]->TraceConnectWithoutContext(
                "DipChoice",
                Callback<void, const AdcFlowKey&, const SlbDip&, bool>(
                    [this, i](const AdcFlowKey& f, const SlbDip& d, bool fromTable) {
                        dips.push_back({Simulator::Now(), i, f, d.address, fromTable});
                    }));
            const std::string name = t.muxNames[i];
            t.mux[i]->TraceConnectWithoutContext(
                "Encapsulate",
                Callback<void, const AdcFlowKey&, const AdcIpAddress&, uint32_t, uint16_t>(
                    [this, name](const AdcFlowKey&, const AdcIpAddress&, uint32_t, uint16_t) {
                        ++encapsulated[name];
                    }));
        }
        for (const auto& sw : t.hostSwitch)
        {
            sw->TraceConnectWithoutContext(
                "HostNat",
                Callback<void, const std::string&, const AdcFlowKey&, const AdcFlowKey&>(
                    [this](const std::string& dir, const AdcFlowKey&, const AdcFlowKey&) {
                        ++(dir == "in" ? natIn : natOut);
                    }));
        }
        t.manager->TraceConnectWithoutContext(
            "PolicyPush",
            Callback<void, const std::string&, const std::string&>(
                [this](const std::string& target, const std::string& action) {
                    pushes.emplace_back(Simulator::Now(), target + " " + action);
                }));
        t.manager->TraceConnectWithoutContext(
            "HealthChange",
            Callback<void, const std::string&, const AdcIpAddress&, bool>(
                [this](const std::string&, const AdcIpAddress& dip, bool up) {
                    health.emplace_back(dip.ToString(), up);
                }));
    }

    void OnDone(const AdcRequestRecord& r)
    {
        done.push_back(r);
    }

    std::set<std::string> m_seenHops; //!< router+flow already recorded
};

} // namespace ns3

#endif /* SLB_TEST_FIXTURE_H */
