/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * slb-contoso: the seed's nine-step walk-through of the SDN software load balancer. A client
 * resolves Contoso's SharePoint name to the VIP 107.105.47.60, sends an HTTP request; the routers
 * spread it by ECMP to one MUX of the pool; the MUX sees the two DIPs 10.10.10.5 and 10.10.20.5,
 * picks one and tunnels the request in VXLAN to the host holding it; the host decapsulates and
 * translates VIP to DIP; the VM answers; the host translates the source back to the VIP and sends
 * the response straight to its default gateway (DSR).
 *
 * Each step is printed as it happens, next to the seed's text, and written to steps.csv with the
 * hop sequence (hops.txt); with --pcap (the default) every link is captured (Wireshark decodes
 * BGP, VXLAN with the inner HTTP, and DNS).
 *
 * The SLB policy comes from the manager's northbound text commands: --config=FILE reads them
 * (examples/slb-contoso.slb is the seed's), and --printConfig prints the policy as those lines.
 */

#include "ns3/adc-config-error.h"
#include "ns3/adc-dns-resolver.h"
#include "ns3/adc-dns-server.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-ecmp-routing6.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-slb-commands.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/slb-host-switch.h"
#include "ns3/slb-manager.h"
#include "ns3/slb-mux.h"
#include "ns3/slb-topology-helper.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

/// The seed's nine steps (translated from the seed's Persian text).
const char* const kSeed[] = {
    "The DNS server returns the virtual IP 107.105.47.60 to the client.",
    "The client sends an HTTP request to the VIP.",
    "The physical network has several paths to the VIP on every MUX; each router on the way "
    "uses ECMP to choose the path until the request reaches a MUX.",
    "The MUX that receives the request checks its configured policies and sees two DIPs "
    "available, 10.10.10.5 and 10.10.20.5.",
    "The MUX picks one of the two DIPs and encapsulates the packets with VXLAN to send them to "
    "the host holding the DIP, at the host's physical network address.",
    "The host receives the packet, removes the encapsulation and rewrites it so that its "
    "destination is now the DIP instead of the VIP.",
    "The request reaches the Contoso SharePoint site on the server, which builds the response "
    "with its own IP address as source and sends it to the client.",
    "The host intercepts the outgoing packet in its virtual switch, remembers that the client "
    "sent the request to the VIP, and makes the VIP the source so the client does not see the "
    "DIP.",
    "The host sends the packet straight to the physical network's default gateway, which routes "
    "it to the client with its standard routing table: the client gets the response.",
};

/// The walk-through's state: steps seen, the hop sequence.
struct Walk
{
    SlbTopology* t{nullptr};       //!< the topology
    AdcIpAddress vip;              //!< the VIP the client uses
    AdcIpAddress client;           //!< the client's address
    std::ofstream csv;             //!< steps.csv
    std::map<int, bool> seen;      //!< steps printed
    std::vector<std::string> hops; //!< hop sequence
    std::string lastHop;           //!< last hop added

    void Hop(const std::string& node)
    {
        if (node != lastHop)
        {
            hops.push_back(node);
            lastHop = node;
        }
    }

    void Step(int n, const std::string& node, const std::string& observed)
    {
        if (seen[n])
        {
            return;
        }
        seen[n] = true;
        const double at = Simulator::Now().GetSeconds();
        std::cout << "step " << n << "  t=" << at << " s  " << node << ": " << observed << "\n"
                  << "        seed: " << kSeed[n - 1] << "\n";
        std::string q = observed;
        for (auto& ch : q)
        {
            ch = ch == '"' ? '\'' : ch;
        }
        csv << n << ',' << at << ',' << node << ",\"" << q << "\",\"" << kSeed[n - 1] << "\"\n";
    }
};

/// \param t the topology \param gw a next hop \return the name of the node owning it
std::string
OwnerOf(const SlbTopology& t, const std::string& gw)
{
    for (const auto& [name, devs] : t.links)
    {
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            Ptr<Node> n = devs.Get(k)->GetNode();
            Ptr<Ipv4> ip = n->GetObject<Ipv4>();
            const int32_t i = ip->GetInterfaceForDevice(devs.Get(k));
            if (i >= 0 && AdcIpAddress(ip->GetAddress(i, 0).GetLocal()).ToString() == gw)
            {
                return t.NameOf(n);
            }
            Ptr<Ipv6> ip6 = n->GetObject<Ipv6>();
            const int32_t i6 = ip6 ? ip6->GetInterfaceForDevice(devs.Get(k)) : -1;
            for (uint32_t a = 0; i6 >= 0 && a < ip6->GetNAddresses(i6); ++a)
            {
                std::ostringstream os;
                os << ip6->GetAddress(i6, a).GetAddress();
                if (os.str() == gw)
                {
                    return t.NameOf(n);
                }
            }
        }
    }
    return gw;
}

} // namespace

int
main(int argc, char* argv[])
{
    bool pcap = true;
    bool ipv6 = false;
    uint32_t muxes = 3;
    uint32_t vni = 5001;
    std::string outputDir = "results/slb-contoso";
    std::string config;
    bool printConfig = false;
    uint32_t seed = 1;
    uint32_t run = 1;
    AdcExperiment exp("slb-contoso",
                      "The seed's nine steps of the SDN software load balancer: DNS, ECMP to a "
                      "MUX, VXLAN to the host, NAT, direct server return.");
    exp.Add("pcap", "Capture every link", pcap);
    exp.Add("ipv6", "The client uses the IPv6 VIP fd00:ffff::60", ipv6);
    exp.Add("muxes", "MUXes in the pool", muxes).Min(1).Max(SlbManager::kMaxMuxes);
    exp.Add("vni", "The DIPs' virtual network (VXLAN VNI, 24 bits); 0: DIPs on a VLAN", vni)
        .Max(16777215);
    exp.AddOutputDir("outputDir", "Where steps.csv, hops.txt and pcap/ go", outputDir);
    exp.Add("config",
            "SLB northbound commands to read (default: the seed's policy)",
            config,
            AdcExperimentOption::Kind::INPUT_FILE);
    exp.Add("printConfig", "Print the SLB policy as northbound commands and exit", printConfig);
    exp.AddSeedAndRun(seed, run);
    return exp.Run(argc, argv, [&]() {
        Ptr<SlbTopologyHelper> helper = CreateObject<SlbTopologyHelper>();
        helper->SetAttribute("Clients", UintegerValue(1));
        helper->SetAttribute("Muxes", UintegerValue(muxes));
        helper->SetAttribute("MuxesInService", UintegerValue(0));
        helper->SetAttribute("Vni", UintegerValue(vni));
        helper->SetAttribute("Ipv6", BooleanValue(ipv6));
        SlbTopology t = helper->Build();

        // The SLB policy, as the network controller's northbound commands.
        auto reader = AdcSlbCommands::MakeReader(t.manager);
        if (!config.empty())
        {
            reader->ReadFile(config);
        }
        else
        {
            std::ostringstream lines;
            for (uint32_t i = 0; i < muxes; ++i)
            {
                lines << "add loadBalancerMux " << t.muxNames[i] << '\n';
            }
            const std::string net = vni != 0 ? " -vni " + std::to_string(vni) : " -vlan 10";
            lines << "add loadBalancer SHAREPOINT 107.105.47.60 -protocol TCP -frontendPort 80\n"
                  << "bind loadBalancer SHAREPOINT -backendIP 10.10.10.5 -backendPort 80 -host "
                     "HOST1"
                  << net << "\n"
                  << "bind loadBalancer SHAREPOINT -backendIP 10.10.20.5 -backendPort 80 -host "
                     "HOST2"
                  << net << '\n';
            if (ipv6)
            {
                lines << "add loadBalancer SHAREPOINT6 fd00:ffff::60 -protocol TCP "
                         "-frontendPort 80\n";
                for (uint32_t h = 0; h < 2; ++h)
                {
                    lines << "bind loadBalancer SHAREPOINT6 -backendIP " << t.vmAddress6[t.Vm(h, 0)]
                          << " -backendPort 80 -host " << t.hostNames[h] << net << '\n';
                }
            }
            reader->ReadString(lines.str(), "seed policy");
        }
        if (printConfig)
        {
            std::cout << reader->Show();
            return 0;
        }
        t.manager->Commit();

        std::filesystem::create_directories(outputDir + "/pcap");
        Walk w;
        w.t = &t;
        w.vip = ipv6 ? AdcIpAddress(Ipv6Address("fd00:ffff::60"))
                     : AdcIpAddress(Ipv4Address("107.105.47.60"));
        w.client = ipv6 ? t.clientAddress6[0] : t.clientAddress[0];
        w.csv.open(outputDir + "/steps.csv");
        w.csv << "step,time_s,node,observed,seed\n";

        // DNS: the name, on a server beside the client.
        Ptr<AdcDnsServer> dns = CreateObject<AdcDnsServer>();
        dns->AddRecord(
            AdcDnsResourceRecord::A("sharepoint.contoso.com", Ipv4Address("107.105.47.60"), 300));
        dns->AddRecord(AdcDnsResourceRecord::Aaaa("sharepoint.contoso.com",
                                                  Ipv6Address("fd00:ffff::60"),
                                                  300));
        t.dns->AddApplication(dns);
        Ptr<AdcDnsResolver> resolver = CreateObject<AdcDnsResolver>();
        resolver->SetAttribute("Server",
                               AddressValue(InetSocketAddress(t.dnsAddress.GetIpv4(), 53)));
        t.clients.Get(0)->AddApplication(resolver);

        // The servers: SharePoint on every VM.
        for (uint32_t k = 0; k < t.vms.GetN(); ++k)
        {
            Ptr<AdcHttpServer> s = CreateObject<AdcHttpServer>();
            s->SetAttribute("ServerName", StringValue(t.NameOf(t.vms.Get(k))));
            t.vms.Get(k)->AddApplication(s);
            const std::string vm = t.NameOf(t.vms.Get(k));
            s->TraceConnectWithoutContext(
                "Request",
                Callback<void, const AdcHttpMessage&, const Address&>(
                    [&w, vm](const AdcHttpMessage&, const Address&) {
                        w.Hop(vm);
                        w.Step(7,
                               vm,
                               "the server receives the request (destination its DIP) and answers "
                               "from its own address");
                    }));
        }

        // Traces for each step; the hop sequence from the first packet each way.
        const std::string vipText = w.vip.ToString();
        auto fwd = [&w](const AdcFlowKey& f) { return f.dst == w.vip; };
        auto ret = [&w](const AdcFlowKey& f) { return f.src == w.vip && f.dst == w.client; };
        std::map<std::string, std::string> forward; // slot -> node
        std::map<std::string, std::string> back;
        auto onHop =
            [&](const std::string& node, const AdcFlowKey& f, const AdcIpAddress& gw, uint32_t n) {
                // Only the first packet each way is recorded: the next hop's owner is looked up
                // then.
                if (fwd(f) && !forward.count(node))
                {
                    const std::string next = OwnerOf(t, gw.ToString());
                    forward[node] = next;
                    w.Step(3,
                           node,
                           "ECMP over " + std::to_string(n) + " equal-cost paths to " + vipText +
                               " picks " + next);
                    std::cout << "        " << node << " -> " << next << " (ECMP over " << n
                              << ")\n";
                }
                else if (ret(f) && !back.count(node))
                {
                    back[node] = OwnerOf(t, gw.ToString());
                }
                else if (f.protocol == AdcFlowKey::PROTO_UDP && node.rfind("router", 0) == 0 &&
                         std::find(t.hostPa.begin(), t.hostPa.end(), f.dst) != t.hostPa.end() &&
                         !forward.count("tunnel"))
                {
                    forward["tunnel"] = node; // the router the MUX's VXLAN went through
                }
            };
        auto hopTrace = [&](Ptr<AdcEcmpRouting> ecmp, const std::string& node) {
            ecmp->TraceConnectWithoutContext(
                "NextHop",
                Callback<void, const AdcFlowKey&, const std::string&, Ipv4Address, uint32_t>(
                    [&, node](const AdcFlowKey& f, const std::string&, Ipv4Address gw, uint32_t n) {
                        onHop(node, f, gw, n);
                    }));
        };
        auto hopTrace6 = [&](Ptr<AdcEcmpRouting6> ecmp, const std::string& node) {
            if (!ecmp)
            {
                return;
            }
            ecmp->TraceConnectWithoutContext(
                "NextHop",
                Callback<void, const AdcFlowKey&, const std::string&, Ipv6Address, uint32_t>(
                    [&, node](const AdcFlowKey& f, const std::string&, Ipv6Address gw, uint32_t n) {
                        onHop(node, f, gw, n);
                    }));
        };
        hopTrace(t.edgeEcmp, "edge");
        hopTrace6(t.edgeEcmp6, "edge");
        hopTrace(t.torEcmp, "tor");
        hopTrace6(t.torEcmp6, "tor");
        for (uint32_t j = 0; j < t.routers.GetN(); ++j)
        {
            const std::string r = t.NameOf(t.routers.Get(j));
            hopTrace(t.routerEcmp[j], r);
            hopTrace6(t.routerEcmp6[j], r);
        }
        for (uint32_t i = 0; i < t.mux.size(); ++i)
        {
            const std::string mux = t.NameOf(t.muxes.Get(i));
            hopTrace(t.muxEcmp[i], mux);
            t.mux[i]->TraceConnectWithoutContext(
                "DipChoice",
                Callback<void, const AdcFlowKey&, const SlbDip&, bool>(
                    [&, mux](const AdcFlowKey& f, const SlbDip& d, bool) {
                        std::string list;
                        for (const auto& name : t.manager->GetVipNames())
                        {
                            const SlbVip& v = t.manager->GetVip(name);
                            if (v.key.vip == f.dst)
                            {
                                for (const auto& dip : v.dips)
                                {
                                    list += (list.empty() ? "" : " and ") + dip.address.ToString();
                                }
                            }
                        }
                        w.Step(4, mux, "its policy for " + vipText + " lists the DIPs " + list);
                        if (!forward.count("dip"))
                        {
                            forward["dip"] = d.address.ToString();
                            forward["mux"] = mux;
                        }
                    }));
            t.mux[i]->TraceConnectWithoutContext(
                "Encapsulate",
                Callback<void, const AdcFlowKey&, const AdcIpAddress&, uint32_t, uint16_t>(
                    [&, mux](const AdcFlowKey&, const AdcIpAddress& pa, uint32_t v, uint16_t sp) {
                        w.Step(5,
                               mux,
                               "picks DIP " + forward["dip"] +
                                   " and sends the packet in VXLAN "
                                   "(VNI " +
                                   std::to_string(v) + ", UDP " + std::to_string(sp) +
                                   " -> 4789) to the host's provider address " + pa.ToString());
                    }));
        }
        for (uint32_t h = 0; h < t.hostSwitch.size(); ++h)
        {
            const std::string host = t.NameOf(t.hosts.Get(h));
            t.hostSwitch[h]->TraceConnectWithoutContext(
                "HostNat",
                Callback<void, const std::string&, const AdcFlowKey&, const AdcFlowKey&>(
                    [&, host](const std::string& dir, const AdcFlowKey& b, const AdcFlowKey& a) {
                        if (dir == "in" && forward.count("dip"))
                        {
                            forward["host"] = host;
                            w.Step(6,
                                   host,
                                   "decapsulates and rewrites the destination " + b.dst.ToString() +
                                       ":" + std::to_string(b.dstPort) + " to the DIP " +
                                       a.dst.ToString() + ":" + std::to_string(a.dstPort));
                        }
                        else if (w.seen[7]) // the reply to the request, not the SYN-ACK
                        {
                            w.Step(8,
                                   host,
                                   "rewrites the source " + b.src.ToString() + ":" +
                                       std::to_string(b.srcPort) + " to the VIP " +
                                       a.src.ToString() + ":" + std::to_string(a.srcPort) +
                                       " and sends it to its default gateway (DSR)");
                        }
                    }));
        }

        Ptr<AdcHttpClient> client;
        auto resolved =
            [&](const std::string& name, std::vector<AdcIpAddress> addresses, uint8_t rcode) {
                if (addresses.empty())
                {
                    std::cerr << "slb-contoso: " << name << " did not resolve (rcode "
                              << unsigned(rcode) << ")\n";
                    return;
                }
                w.Step(1,
                       "client1",
                       name + " resolves to " + addresses[0].ToString() + " (DNS server " +
                           t.dnsAddress.ToString() + ")");
                client = CreateObject<AdcHttpClient>();
                const Address remote = addresses[0].IsV6()
                                           ? Address(Inet6SocketAddress(addresses[0].GetIpv6(), 80))
                                           : Address(InetSocketAddress(addresses[0].GetIpv4(), 80));
                client->SetAttribute("Remote", AddressValue(remote));
                client->SetAttribute("MaxRequests", UintegerValue(1));
                client->TraceConnectWithoutContext(
                    "RequestSent",
                    Callback<void, const AdcRequestRecord&>([&](const AdcRequestRecord& r) {
                        w.Step(2, "client1", "sends GET " + r.url + " to " + vipText + ":80");
                    }));
                client->TraceConnectWithoutContext(
                    "RequestDone",
                    Callback<void, const AdcRequestRecord&>([&](const AdcRequestRecord& r) {
                        w.Step(9,
                               "client1",
                               "receives HTTP " + std::to_string(r.status) + " from " + vipText +
                                   " (served by " + r.server + "; the client never saw a DIP)");
                    }));
                t.clients.Get(0)->AddApplication(client);
                client->SetStartTime(Seconds(0));
            };
        Simulator::Schedule(Seconds(1), [&]() {
            resolver->Resolve("sharepoint.contoso.com",
                              ipv6 ? AdcDnsMessage::TYPE_AAAA : AdcDnsMessage::TYPE_A,
                              AdcDnsResolver::ResultCallback(resolved));
        });
        if (pcap)
        {
            SlbTopologyHelper::EnablePcapAll(t, outputDir + "/pcap/slb");
        }
        Simulator::Stop(Seconds(6));
        Simulator::Run();

        // The hop sequence: the request's first packet there, the response's back.
        std::vector<std::string> seq{"client1", "edge"};
        auto follow = [&](const std::string& from) {
            auto it = forward.find(from);
            return it == forward.end() ? std::string("?") : it->second;
        };
        const std::string router = follow("edge");
        seq.push_back(router);
        seq.push_back(forward.count("mux") ? forward["mux"] : "?");
        seq.push_back(forward.count("tunnel") ? forward["tunnel"] : "?");
        seq.push_back("tor");
        seq.push_back(forward.count("host") ? forward["host"] : "?");
        const std::string dip = forward["dip"];
        std::string vm = "?";
        for (uint32_t k = 0; k < t.vms.GetN(); ++k)
        {
            if (t.vmAddress[k].ToString() == dip || (ipv6 && t.vmAddress6[k].ToString() == dip))
            {
                vm = t.NameOf(t.vms.Get(k));
            }
        }
        seq.push_back(vm);
        seq.push_back(forward.count("host") ? forward["host"] : "?");
        seq.push_back("tor");
        seq.push_back(back.count("tor") ? back["tor"] : "?");
        seq.push_back("edge");
        seq.push_back("client1");
        std::ofstream hops(outputDir + "/hops.txt");
        for (std::size_t i = 0; i < seq.size(); ++i)
        {
            hops << (i ? " > " : "") << seq[i];
        }
        hops << '\n';
        std::cout << "hops: ";
        for (std::size_t i = 0; i < seq.size(); ++i)
        {
            std::cout << (i ? " > " : "") << seq[i];
        }
        std::cout << "\nsteps seen: " << w.seen.size() << " of 9 (" << outputDir << "/steps.csv)\n";
        std::ostringstream health;
        t.manager->PrintHealth(health);
        std::cout << health.str();
        const bool ok = w.seen.size() == 9;
        if (!ok)
        {
            Ptr<OutputStreamWrapper> out = Create<OutputStreamWrapper>(&std::cerr);
            t.edgeEcmp->PrintRoutingTable(out, Time::S);
            t.routerEcmp[0]->PrintRoutingTable(out, Time::S);
            for (uint32_t j = 0; j < t.routers.GetN(); ++j)
            {
                std::cerr << t.NameOf(t.routers.Get(j)) << " peers:";
                for (uint32_t i = 0; i < t.mux.size(); ++i)
                {
                    std::cerr << ' '
                              << AdcBgpSpeaker::StateName(
                                     t.routerSpeaker[j]->GetState(t.muxAddress[i][j]));
                }
                std::cerr << '\n';
            }
            for (uint32_t i = 0; i < t.mux.size(); ++i)
            {
                std::cerr << t.muxNames[i] << " to router1: "
                          << AdcBgpSpeaker::StateName(t.muxSpeaker[i]->GetState(
                                 AdcIpAddress(Ipv4Address(("10." + std::to_string(21) + "." +
                                                           std::to_string(i + 1) + ".1")
                                                              .c_str()))))
                          << " attempts "
                          << t.muxSpeaker[i]->GetCounters(t.muxAddress[i][0]).connectAttempts;
                for (const auto& [r, n] : t.muxSpeaker[i]->GetDrops())
                {
                    std::cerr << ' ' << r << '=' << n;
                }
                std::cerr << '\n';
            }
        }
        Simulator::Destroy();
        if (!ok)
        {
            throw AdcExperimentError("not every step happened");
        }
        return 0;
    });
}
