/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slb-topology-helper.h"

#include "ns3/adc-bgp-speaker.h"
#include "ns3/adc-config-error.h"
#include "ns3/adc-ecmp-routing.h"
#include "ns3/adc-ecmp-routing6.h"
#include "ns3/adc-stack-helper.h"
#include "ns3/adc-text.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-static-routing-helper.h"
#include "ns3/ipv6.h"
#include "ns3/names.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/slb-host-agent.h"
#include "ns3/slb-host-switch.h"
#include "ns3/slb-manager.h"
#include "ns3/slb-mux.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SlbTopologyHelper);

namespace
{

/// The IPv4 and IPv6 interfaces of both ends of a link.
struct LinkEnds
{
    uint32_t ifA{0};     //!< node a's interface (IPv4 and IPv6 indices agree: same order)
    uint32_t ifB{0};     //!< node b's interface
    AdcIpAddress a4, b4; //!< IPv4 addresses
    AdcIpAddress a6, b6; //!< IPv6 addresses (unset without IPv6)
};

/// \param g1 \param g2 \param g3 the /64 prefix fd00:g1:g2:g3::/64 (a unique local address:
/// ns-3 does not forward the documentation prefix 2001:db8::/32) \param host the interface id
Ipv6Address
V6(uint16_t g1, uint16_t g2, uint16_t g3, uint16_t host)
{
    std::ostringstream os;
    os << "fd00:" << std::hex << g1 << ':' << g2 << ':' << g3 << "::" << host;
    return Ipv6Address(os.str().c_str());
}

/**
 * \param node a node \param nextHop a next hop on one of its links
 * \return the interface whose subnet holds \p nextHop (0 when none)
 */
uint32_t
InterfaceTo(Ptr<Node> node, const AdcIpAddress& nextHop)
{
    if (nextHop.IsV4())
    {
        Ptr<Ipv4> ip = node->GetObject<Ipv4>();
        for (uint32_t i = 1; i < ip->GetNInterfaces(); ++i)
        {
            for (uint32_t k = 0; k < ip->GetNAddresses(i); ++k)
            {
                Ipv4InterfaceAddress a = ip->GetAddress(i, k);
                if (a.GetLocal().CombineMask(a.GetMask()) ==
                    nextHop.GetIpv4().CombineMask(a.GetMask()))
                {
                    return i;
                }
            }
        }
        return 0;
    }
    Ptr<Ipv6> ip = node->GetObject<Ipv6>();
    for (uint32_t i = 1; ip && i < ip->GetNInterfaces(); ++i)
    {
        for (uint32_t k = 0; k < ip->GetNAddresses(i); ++k)
        {
            Ipv6InterfaceAddress a = ip->GetAddress(i, k);
            if (a.GetScope() == Ipv6InterfaceAddress::GLOBAL &&
                a.GetAddress().CombinePrefix(a.GetPrefix()) ==
                    nextHop.GetIpv6().CombinePrefix(a.GetPrefix()))
            {
                return i;
            }
        }
    }
    return 0;
}

/// Routes a BGP speaker learns go into its router's ECMP routes (plain pointers: the speaker
/// and the routing protocols live on the same node).
void
InstallLearnt(Node* node, AdcEcmpRouting* ecmp, AdcEcmpRouting6* ecmp6, const AdcBgpRouteChange& c)
{
    const uint32_t iface = InterfaceTo(node, c.nextHop);
    if (c.prefix.IsV4() && ecmp)
    {
        if (c.announced)
        {
            ecmp->AddPath(c.prefix, c.length, c.nextHop, iface, AdcRouteOrigin::BGP);
        }
        else
        {
            ecmp->RemovePath(c.prefix, c.length, c.nextHop, AdcRouteOrigin::BGP);
        }
    }
    else if (c.prefix.IsV6() && ecmp6)
    {
        if (c.announced)
        {
            ecmp6->AddPath(c.prefix, c.length, c.nextHop, iface, AdcRouteOrigin::BGP);
        }
        else
        {
            ecmp6->RemovePath(c.prefix, c.length, c.nextHop, AdcRouteOrigin::BGP);
        }
    }
}

} // namespace

TypeId
SlbTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SlbTopologyHelper")
            .SetParent<Object>()
            .SetGroupName("Adc")
            .AddConstructor<SlbTopologyHelper>()
            .AddAttribute("Clients",
                          "Client nodes (1..250), each on its own link to the edge router.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&SlbTopologyHelper::m_clients),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Routers",
                          "Data-centre routers between the edge and the MUXes (1..8).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&SlbTopologyHelper::m_routers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Muxes",
                          "MUX VMs deployed (1..8: one SLB manager supports 8).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&SlbTopologyHelper::m_muxes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MuxesInService",
                          "MUXes the manager puts in service at once (at most Muxes; the default "
                          "4294967295: all); the others can be added later (SlbManager::AddMux, "
                          "or the text command add loadBalancerMux).",
                          UintegerValue(UINT32_MAX),
                          MakeUintegerAccessor(&SlbTopologyHelper::m_muxesInService),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Hosts",
                          "Hyper-V hosts behind the ToR (1..250).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&SlbTopologyHelper::m_hosts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("VmsPerHost",
                          "VMs per host (1..10).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&SlbTopologyHelper::m_vmsPerHost),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Vni",
                          "The tenant virtual network (VXLAN VNI) of every VM; 0: the VMs sit "
                          "on a VLAN.",
                          UintegerValue(5001),
                          MakeUintegerAccessor(&SlbTopologyHelper::m_vni),
                          MakeUintegerChecker<uint32_t>(0, 0xFFFFFF))
            .AddAttribute("Ipv6",
                          "Dual stack: IPv6 addresses and routes on every link too.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SlbTopologyHelper::m_ipv6),
                          MakeBooleanChecker())
            .AddAttribute("LinkRate",
                          "Rate of every link.",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&SlbTopologyHelper::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("AccessDelay",
                          "Delay of a client's link to the edge.",
                          TimeValue(MilliSeconds(5)),
                          MakeTimeAccessor(&SlbTopologyHelper::m_accessDelay),
                          MakeTimeChecker())
            .AddAttribute("Partitions",
                          "MPI partition plan, 1..64 ranks: with more than one, client i runs "
                          "on rank i % (Partitions - 1) + 1 and the edge, routers, MUXes, ToR, "
                          "hosts, VMs (and the SLB manager's policy pushes among them) on rank "
                          "0; the client links (AccessDelay > 0) are the cut links.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&SlbTopologyHelper::m_partitions),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DcDelay",
                          "Delay of every data-centre link.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&SlbTopologyHelper::m_dcDelay),
                          MakeTimeChecker())
            .AddAttribute("HoldTime",
                          "BGP hold time every speaker offers (keepalives every third of it); "
                          "data centres shorten RFC 4271's suggested 90 s to detect a failed "
                          "MUX sooner.",
                          TimeValue(Seconds(9)),
                          MakeTimeAccessor(&SlbTopologyHelper::m_holdTime),
                          MakeTimeChecker())
            .AddAttribute("ConnectRetryTime",
                          "BGP ConnectRetry time of every speaker.",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&SlbTopologyHelper::m_connectRetry),
                          MakeTimeChecker())
            .AddAttribute("EcmpMode",
                          "The routers' ECMP groups: MODULO (re-spread on a change), "
                          "HASH_THRESHOLD (Linux's multipath: equal hash regions, RFC 2992) or "
                          "RESILIENT (only the affected flows move).",
                          StringValue("MODULO"),
                          MakeStringAccessor(&SlbTopologyHelper::m_ecmpMode),
                          MakeStringChecker())
            .AddAttribute("MuxSelection",
                          "The MUXes' DIP choice: MAGLEV or MODULO (naive hash).",
                          StringValue("MAGLEV"),
                          MakeStringAccessor(&SlbTopologyHelper::m_muxSelection),
                          MakeStringChecker())
            .AddAttribute("MuxFlowTable",
                          "The MUXes keep a flow table (pins a flow to its DIP).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SlbTopologyHelper::m_flowTable),
                          MakeBooleanChecker());
    return tid;
}

SlbTopologyHelper::SlbTopologyHelper() = default;

SlbTopologyHelper::~SlbTopologyHelper() = default;

void
SlbTopologyHelper::Validate() const
{
    auto check = [](const char* name, uint32_t v, uint32_t lo, uint32_t hi) {
        if (v < lo || v > hi)
        {
            throw AdcConfigError(std::string("SlbTopologyHelper ") + name + " " +
                                 std::to_string(v) + ": allowed " + std::to_string(lo) + ".." +
                                 std::to_string(hi));
        }
    };
    check("Clients", m_clients, 1, 250);
    check("Routers", m_routers, 1, 8);
    check("Muxes", m_muxes, 1, SlbManager::kMaxMuxes);
    if (m_muxesInService != UINT32_MAX)
    {
        check("MuxesInService", m_muxesInService, 0, m_muxes);
    }
    check("Hosts", m_hosts, 1, 250);
    check("VmsPerHost", m_vmsPerHost, 1, 10);
    check("Partitions", m_partitions, 1, 64);
    if (m_partitions > 1 && !m_accessDelay.IsStrictlyPositive())
    {
        throw AdcConfigError("SlbTopologyHelper AccessDelay 0 with Partitions " +
                             std::to_string(m_partitions) +
                             ": the client links cross ranks and need a delay (the lookahead)");
    }
}

uint32_t
SlbTopology::Vm(uint32_t h, uint32_t v) const
{
    return h * vmsPerHost + v;
}

std::string
SlbTopology::NameOf(Ptr<const Node> node) const
{
    auto it = names.find(node->GetId());
    return it == names.end() ? "node" + std::to_string(node->GetId()) : it->second;
}

SlbTopology
SlbTopologyHelper::Build()
{
    Validate();
    SlbTopology t;
    t.ipv6 = m_ipv6;
    t.vmsPerHost = m_vmsPerHost;
    // The MPI partition plan ("Partitions"): clients off rank 0, the data centre on it.
    for (uint32_t i = 0; i < m_clients; ++i)
    {
        t.clients.Create(1, m_partitions > 1 ? i % (m_partitions - 1) + 1 : 0);
    }
    t.edge = CreateObject<Node>();
    t.routers.Create(m_routers);
    t.muxes.Create(m_muxes);
    t.tor = CreateObject<Node>();
    t.hosts.Create(m_hosts);
    t.vms.Create(m_hosts * m_vmsPerHost);
    NodeContainer all(t.clients, NodeContainer(t.edge), t.routers, t.muxes, NodeContainer(t.tor));
    all.Add(t.hosts);
    all.Add(t.vms);
    AdcMakeListStackHelper(m_ipv6).Install(all);

    auto name = [&t](Ptr<Node> n, const std::string& s) { t.names[n->GetId()] = s; };
    name(t.edge, "edge");
    name(t.tor, "tor");
    for (uint32_t i = 0; i < m_clients; ++i)
    {
        name(t.clients.Get(i), "client" + std::to_string(i + 1));
    }
    for (uint32_t j = 0; j < m_routers; ++j)
    {
        name(t.routers.Get(j), "router" + std::to_string(j + 1));
    }
    for (uint32_t i = 0; i < m_muxes; ++i)
    {
        t.muxNames.push_back("MUX" + std::to_string(i + 1));
        name(t.muxes.Get(i), "mux" + std::to_string(i + 1));
    }
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        t.hostNames.push_back("HOST" + std::to_string(h + 1));
        name(t.hosts.Get(h), "host" + std::to_string(h + 1));
        for (uint32_t v = 0; v < m_vmsPerHost; ++v)
        {
            name(t.vms.Get(t.Vm(h, v)), "vm" + std::to_string(h + 1) + "-" + std::to_string(v + 1));
        }
    }

    // A point-to-point link, addressed by hand: a gets .hostA, b gets .hostB of the IPv4
    // network; IPv6 mirrors it as fd00:g1:g2:g3::/64.
    auto link = [&](const std::string& linkName,
                    Ptr<Node> a,
                    Ptr<Node> b,
                    Time delay,
                    Ipv4Address net,
                    uint8_t hostA,
                    uint8_t hostB,
                    uint8_t prefix,
                    uint16_t g1,
                    uint16_t g2,
                    uint16_t g3) {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(m_rate));
        p2p.SetChannelAttribute("Delay", TimeValue(delay));
        NetDeviceContainer devs = p2p.Install(a, b);
        t.links[linkName] = devs;
        LinkEnds e;
        const Ipv4Mask mask(~((1u << (32 - prefix)) - 1));
        auto add =
            [&](Ptr<Node> n, Ptr<NetDevice> d, uint8_t host, AdcIpAddress& v4, AdcIpAddress& v6) {
                Ptr<Ipv4> ip = n->GetObject<Ipv4>();
                const int32_t i = ip->AddInterface(d);
                const Ipv4Address address(net.Get() + host);
                ip->AddAddress(i, Ipv4InterfaceAddress(address, mask));
                ip->SetUp(i);
                v4 = address;
                if (m_ipv6)
                {
                    Ptr<Ipv6> ip6 = n->GetObject<Ipv6>();
                    const int32_t k = ip6->AddInterface(d);
                    const Ipv6Address address6 = V6(g1, g2, g3, host);
                    ip6->AddAddress(k, Ipv6InterfaceAddress(address6, Ipv6Prefix(64)));
                    ip6->SetUp(k);
                    ip6->SetForwarding(k, true);
                    v6 = address6;
                }
                return static_cast<uint32_t>(i);
            };
        e.ifA = add(a, devs.Get(0), hostA, e.a4, e.a6);
        e.ifB = add(b, devs.Get(1), hostB, e.b4, e.b6);
        return e;
    };
    auto st4 = [](Ptr<Node> n) {
        return Ipv4StaticRoutingHelper().GetStaticRouting(n->GetObject<Ipv4>());
    };
    auto st6 = [](Ptr<Node> n) {
        return Ipv6StaticRoutingHelper().GetStaticRouting(n->GetObject<Ipv6>());
    };
    // Per-flow ECMP below static routing (priority -10): the static routes hold the directly
    // connected subnets, which must win over an ECMP default route.
    auto ecmp4 = [this](Ptr<Node> n) {
        Ptr<AdcEcmpRouting> e = CreateObject<AdcEcmpRouting>();
        e->SetAttribute("Mode", StringValue(m_ecmpMode));
        AdcAddTopIpv4Routing(n, e, -10);
        return e;
    };
    auto ecmp6 = [this](Ptr<Node> n) {
        Ptr<AdcEcmpRouting6> e = CreateObject<AdcEcmpRouting6>();
        e->SetAttribute("Mode", StringValue(m_ecmpMode));
        AdcAddTopIpv6Routing(n, e, -10);
        return e;
    };
    auto speaker = [this](Ptr<Node> n, uint32_t as, bool propagate) {
        Ptr<AdcBgpSpeaker> s = CreateObject<AdcBgpSpeaker>();
        s->SetAttribute("LocalAs", UintegerValue(as));
        s->SetAttribute("HoldTime", TimeValue(m_holdTime));
        s->SetAttribute("ConnectRetryTime", TimeValue(m_connectRetry));
        s->SetAttribute("Propagate", BooleanValue(propagate));
        n->AddApplication(s);
        s->SetStartTime(Seconds(0));
        return s;
    };
    auto glue =
        [](Ptr<Node> n, Ptr<AdcBgpSpeaker> s, Ptr<AdcEcmpRouting> e, Ptr<AdcEcmpRouting6> e6) {
            Node* node = PeekPointer(n);
            AdcEcmpRouting* r4 = PeekPointer(e);
            AdcEcmpRouting6* r6 = PeekPointer(e6);
            s->SetRouteCallback(Callback<void, const AdcBgpRouteChange&>(
                [node, r4, r6](const AdcBgpRouteChange& c) { InstallLearnt(node, r4, r6, c); }));
        };

    // Clients and the edge.
    t.edgeEcmp = ecmp4(t.edge);
    if (m_ipv6)
    {
        t.edgeEcmp6 = ecmp6(t.edge);
    }
    t.edgeSpeaker = speaker(t.edge, 65000, false);
    glue(t.edge, t.edgeSpeaker, t.edgeEcmp, t.edgeEcmp6);
    for (uint32_t i = 0; i < m_clients; ++i)
    {
        Ptr<Node> c = t.clients.Get(i);
        LinkEnds e = link(t.NameOf(c) + "-edge",
                          c,
                          t.edge,
                          m_accessDelay,
                          Ipv4Address(0xAC100000 | (i << 8)),
                          2,
                          1,
                          24,
                          0xc,
                          i,
                          0);
        st4(c)->SetDefaultRoute(e.b4.GetIpv4(), e.ifA);
        t.clientAddress.push_back(e.a4);
        if (m_ipv6)
        {
            st6(c)->SetDefaultRoute(e.b6.GetIpv6(), e.ifA);
            t.clientAddress6.push_back(e.a6);
        }
    }

    // A DNS server on the internet side, beside the clients.
    t.dns = CreateObject<Node>();
    AdcMakeListStackHelper(m_ipv6).Install(t.dns);
    name(t.dns, "dns");
    {
        LinkEnds e = link("dns-edge",
                          t.dns,
                          t.edge,
                          m_accessDelay,
                          Ipv4Address("172.16.255.0"),
                          2,
                          1,
                          24,
                          0xc,
                          0xff,
                          0);
        st4(t.dns)->SetDefaultRoute(e.b4.GetIpv4(), e.ifA);
        t.dnsAddress = e.a4;
        if (m_ipv6)
        {
            st6(t.dns)->SetDefaultRoute(e.b6.GetIpv6(), e.ifA);
            t.dnsAddress6 = e.a6;
        }
    }

    // The ToR, the hosts and the VMs.
    std::vector<LinkEnds> torHost;
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        Ptr<Node> host = t.hosts.Get(h);
        LinkEnds e = link("tor-" + t.NameOf(host),
                          t.tor,
                          host,
                          m_dcDelay,
                          Ipv4Address(0x0AC80000 | ((h + 1) << 8)),
                          1,
                          2,
                          30,
                          0x200,
                          h + 1,
                          0);
        torHost.push_back(e);
        t.hostPa.push_back(e.b4);
        st4(host)->SetDefaultRoute(e.a4.GetIpv4(), e.ifB);
        if (m_ipv6)
        {
            st6(host)->SetDefaultRoute(e.a6.GetIpv6(), e.ifB);
        }
        Ptr<SlbHostSwitch> sw = CreateObject<SlbHostSwitch>();
        AdcInstallDatapath(host, sw, 100);
        t.hostSwitch.push_back(sw);
        Ptr<SlbHostAgent> agent = CreateObject<SlbHostAgent>();
        agent->SetSwitch(sw, e.b4);
        host->AddApplication(agent);
        agent->SetStartTime(Seconds(0));
        t.hostAgent.push_back(agent);
        for (uint32_t v = 0; v < m_vmsPerHost; ++v)
        {
            Ptr<Node> vm = t.vms.Get(t.Vm(h, v));
            const uint32_t sub = 10 * (h + 1) + v; // 10.10.10.0/24, 10.10.20.0/24, ...
            LinkEnds l = link(t.NameOf(host) + "-" + t.NameOf(vm),
                              host,
                              vm,
                              MicroSeconds(1),
                              Ipv4Address(0x0A0A0000 | (sub << 8)),
                              1,
                              5,
                              24,
                              0x10,
                              sub,
                              0);
            st4(vm)->SetDefaultRoute(l.a4.GetIpv4(), l.ifB);
            st4(t.tor)->AddNetworkRouteTo(Ipv4Address(0x0A0A0000 | (sub << 8)),
                                          Ipv4Mask("255.255.255.0"),
                                          e.b4.GetIpv4(),
                                          e.ifA);
            t.vmAddress.push_back(l.b4);
            t.vmVni.push_back(m_vni);
            sw->AddVmPort(l.ifA, l.b4, m_vni, m_vni == 0 ? 10 : 0);
            if (m_ipv6)
            {
                st6(vm)->SetDefaultRoute(l.a6.GetIpv6(), l.ifB);
                st6(t.tor)->AddNetworkRouteTo(V6(0x10, sub, 0, 0),
                                              Ipv6Prefix(64),
                                              e.b6.GetIpv6(),
                                              e.ifA);
                t.vmAddress6.push_back(l.b6);
                sw->AddVmPort(l.ifA, l.b6, m_vni, m_vni == 0 ? 10 : 0);
            }
        }
    }

    // Routers: to the edge, the ToR and every MUX.
    t.torEcmp = ecmp4(t.tor);
    t.torEcmp6 = m_ipv6 ? ecmp6(t.tor) : nullptr;
    Ptr<AdcEcmpRouting6> torEcmp6 = t.torEcmp6;
    std::vector<Ptr<AdcEcmpRouting>>& muxEcmp = t.muxEcmp;
    std::vector<Ptr<AdcEcmpRouting6>> muxEcmp6;
    for (uint32_t i = 0; i < m_muxes; ++i)
    {
        muxEcmp.push_back(ecmp4(t.muxes.Get(i)));
        muxEcmp6.push_back(m_ipv6 ? ecmp6(t.muxes.Get(i)) : nullptr);
        Ptr<SlbMux> mux = CreateObject<SlbMux>();
        mux->SetAttribute("Selection", StringValue(m_muxSelection));
        mux->SetAttribute("FlowTable", BooleanValue(m_flowTable));
        AdcInstallDatapath(t.muxes.Get(i), mux, 100);
        t.mux.push_back(mux);
        t.muxSpeaker.push_back(speaker(t.muxes.Get(i), 65100, false));
        t.muxAddress.emplace_back();
    }
    const Ipv4Address hostsNet("10.200.0.0");
    const Ipv4Address vmsNet("10.10.0.0");
    const Ipv4Mask sixteen("255.255.0.0");
    for (uint32_t j = 0; j < m_routers; ++j)
    {
        Ptr<Node> r = t.routers.Get(j);
        Ptr<AdcEcmpRouting> re = ecmp4(r);
        Ptr<AdcEcmpRouting6> re6 = m_ipv6 ? ecmp6(r) : nullptr;
        t.routerEcmp.push_back(re);
        t.routerEcmp6.push_back(re6);
        Ptr<AdcBgpSpeaker> rs = speaker(r, 65001 + j, true);
        t.routerSpeaker.push_back(rs);
        glue(r, rs, re, re6);

        LinkEnds up = link("edge-" + t.NameOf(r),
                           t.edge,
                           r,
                           m_dcDelay,
                           Ipv4Address(0x0AFF0000 | ((j + 1) << 8)),
                           1,
                           2,
                           30,
                           0xe,
                           j + 1,
                           0);
        re->AddRoute(Ipv4Address::GetAny(), Ipv4Mask::GetZero(), up.a4.GetIpv4(), up.ifB);
        t.edgeSpeaker->AddPeer(up.b4, 65001 + j, up.a4, true, m_ipv6 ? up.a6 : AdcIpAddress());
        rs->AddPeer(up.a4, 65000, up.b4, false, m_ipv6 ? up.b6 : AdcIpAddress());
        if (m_ipv6)
        {
            re6->AddRoute(Ipv6Address::GetAny(), Ipv6Prefix::GetZero(), up.a6.GetIpv6(), up.ifB);
        }

        LinkEnds down = link(t.NameOf(r) + "-tor",
                             r,
                             t.tor,
                             m_dcDelay,
                             Ipv4Address(0x0AFE0000 | ((j + 1) << 8)),
                             1,
                             2,
                             30,
                             0x254,
                             j + 1,
                             0);
        re->AddRoute(hostsNet, sixteen, down.b4.GetIpv4(), down.ifA);
        re->AddRoute(vmsNet, sixteen, down.b4.GetIpv4(), down.ifA);
        t.torEcmp->AddRoute(Ipv4Address::GetAny(),
                            Ipv4Mask::GetZero(),
                            down.a4.GetIpv4(),
                            down.ifB);
        if (m_ipv6)
        {
            re6->AddRoute(Ipv6Address("fd00:200::"), Ipv6Prefix(32), down.b6.GetIpv6(), down.ifA);
            re6->AddRoute(Ipv6Address("fd00:10::"), Ipv6Prefix(32), down.b6.GetIpv6(), down.ifA);
            torEcmp6->AddRoute(Ipv6Address::GetAny(),
                               Ipv6Prefix::GetZero(),
                               down.a6.GetIpv6(),
                               down.ifB);
        }

        for (uint32_t i = 0; i < m_muxes; ++i)
        {
            Ptr<Node> m = t.muxes.Get(i);
            LinkEnds l = link(t.NameOf(r) + "-" + t.NameOf(m),
                              r,
                              m,
                              m_dcDelay,
                              Ipv4Address(0x0A000000 | ((20 + j + 1) << 16) | ((i + 1) << 8)),
                              1,
                              2,
                              24,
                              0x20 + j + 1,
                              i + 1,
                              0);
            t.muxAddress[i].push_back(l.b4);
            rs->AddPeer(l.b4, 65100, l.a4, true, m_ipv6 ? l.a6 : AdcIpAddress());
            t.muxSpeaker[i]->AddPeer(l.a4, 65001 + j, l.b4, false, m_ipv6 ? l.b6 : AdcIpAddress());
            muxEcmp[i]->AddRoute(hostsNet, sixteen, l.a4.GetIpv4(), l.ifB);
            muxEcmp[i]->AddRoute(Ipv4Address::GetAny(), Ipv4Mask::GetZero(), l.a4.GetIpv4(), l.ifB);
            if (m_ipv6)
            {
                muxEcmp6[i]->AddRoute(Ipv6Address::GetAny(),
                                      Ipv6Prefix::GetZero(),
                                      l.a6.GetIpv6(),
                                      l.ifB);
            }
        }
    }

    t.manager = CreateObject<SlbManager>();
    for (uint32_t i = 0; i < m_muxes; ++i)
    {
        t.manager->DeployMux(t.muxNames[i], t.mux[i], t.muxSpeaker[i]);
    }
    const uint32_t inService = std::min(m_muxesInService, m_muxes);
    for (uint32_t i = 0; i < inService; ++i)
    {
        t.manager->AddMux(t.muxNames[i]);
    }
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        t.manager->AddHost(t.hostNames[h], t.hostAgent[h]);
    }
    return t;
}

void
SlbTopologyHelper::FailMux(const SlbTopology& topology, uint32_t mux)
{
    topology.muxSpeaker.at(mux)->Halt();
    Ptr<Node> m = topology.muxes.Get(mux);
    Ptr<Ipv4> ip = m->GetObject<Ipv4>();
    for (uint32_t i = 1; i < ip->GetNInterfaces(); ++i)
    {
        ip->SetDown(i);
    }
    if (Ptr<Ipv6> ip6 = m->GetObject<Ipv6>())
    {
        for (uint32_t i = 1; i < ip6->GetNInterfaces(); ++i)
        {
            ip6->SetDown(i);
        }
    }
}

void
SlbTopologyHelper::FailHost(const SlbTopology& topology, uint32_t host)
{
    topology.hostAgent.at(host)->Halt();
    Ptr<Node> h = topology.hosts.Get(host);
    Ptr<Ipv4> ip = h->GetObject<Ipv4>();
    for (uint32_t i = 1; i < ip->GetNInterfaces(); ++i)
    {
        ip->SetDown(i);
    }
    if (Ptr<Ipv6> ip6 = h->GetObject<Ipv6>())
    {
        for (uint32_t i = 1; i < ip6->GetNInterfaces(); ++i)
        {
            ip6->SetDown(i);
        }
    }
}

void
SlbTopologyHelper::SetLinkUp(const SlbTopology& topology, const std::string& link, bool up)
{
    auto it = topology.links.find(link);
    if (it == topology.links.end())
    {
        throw AdcConfigError("SlbTopologyHelper link '" + AdcText::Printable(link) +
                             "': no such link");
    }
    for (uint32_t k = 0; k < it->second.GetN(); ++k)
    {
        Ptr<NetDevice> d = it->second.Get(k);
        Ptr<Ipv4> ip = d->GetNode()->GetObject<Ipv4>();
        const int32_t i = ip->GetInterfaceForDevice(d);
        up ? ip->SetUp(i) : ip->SetDown(i);
        if (Ptr<Ipv6> ip6 = d->GetNode()->GetObject<Ipv6>())
        {
            const int32_t i6 = ip6->GetInterfaceForDevice(d);
            if (i6 >= 0)
            {
                up ? ip6->SetUp(i6) : ip6->SetDown(i6);
            }
        }
    }
}

void
SlbTopologyHelper::EnablePcapAll(const SlbTopology& topology, const std::string& prefix)
{
    PointToPointHelper p2p;
    for (const auto& [linkName, devs] : topology.links)
    {
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            p2p.EnablePcap(prefix + "-" + linkName + "-" + topology.NameOf(devs.Get(k)->GetNode()) +
                               ".pcap",
                           devs.Get(k),
                           false,
                           true);
        }
    }
}

} // namespace ns3
