/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The VM the MUX chose is the VM that gets the flow. The seed: the MUX "picks a DIP" and
 * encapsulates the packet to the physical address of the host of that DIP, whose virtual
 * switch translates the VIP to it. With several DIPs of one VIP on one host, the host must
 * learn which one the MUX picked: the MUX names the VM in the inner Ethernet destination
 * (SlbVmMac), and the switch NATs to it. Before, the switch hashed the flow with its own seed
 * and delivered about two flows in three to another VM than the MUX's "DipChoice" trace named.
 */

#include "adc-test-accounting.h"
#include "slb-test-fixture.h"

#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;

// REQ: SLB-06, SLB-11
TEST(SlbDipChoice, TheHostDeliversEachFlowToTheVmItsMuxChose)
{
    Ptr<SlbTopologyHelper> h = CreateObject<SlbTopologyHelper>();
    h->SetAttribute("Clients", UintegerValue(4));
    h->SetAttribute("Muxes", UintegerValue(2));
    h->SetAttribute("Hosts", UintegerValue(1));
    h->SetAttribute("VmsPerHost", UintegerValue(3));
    h->SetAttribute("HoldTime", TimeValue(Seconds(3)));
    SlbBed bed(h);
    const Ipv4Address vip("107.105.47.60");
    bed.t.manager->AddVip("WEB", {vip, AdcFlowKey::PROTO_TCP, 80}, SlbVipKind::PUBLIC);
    std::set<AdcIpAddress> vms;
    for (uint32_t v = 0; v < 3; ++v)
    {
        SlbDip d;
        d.address = bed.t.vmAddress[bed.t.Vm(0, v)];
        d.port = 80;
        d.vni = bed.t.vmVni[bed.t.Vm(0, v)];
        bed.t.manager->AddDip("WEB", d, bed.t.hostNames[0]);
        vms.insert(d.address);
    }
    bed.t.manager->Commit();
    bed.AddServers();
    // Where the host's switch translated each flow to (the first packet of each: later ones
    // must agree too).
    std::map<AdcFlowKey, std::set<AdcIpAddress>> delivered;
    bed.t.hostSwitch[0]->TraceConnectWithoutContext(
        "HostNat",
        Callback<void, const std::string&, const AdcFlowKey&, const AdcFlowKey&>(
            [&delivered](const std::string& dir,
                         const AdcFlowKey& before,
                         const AdcFlowKey& after) {
                if (dir == "in")
                {
                    delivered[before].insert(after.dst);
                }
            }));
    bed.AddClients(InetSocketAddress(vip, 80), 15, Seconds(2), Seconds(0.1));
    bed.Run(Seconds(6));

    EXPECT_TRUE(AdcExpectAccounting(bed.Tally(), AdcAccountingExpectation::Completed(60)));
    std::map<AdcFlowKey, AdcIpAddress> chosen;
    for (const auto& e : bed.dips)
    {
        chosen[e.flow] = e.dip;
    }
    ASSERT_EQ(chosen.size(), 60u); // one connection per request
    std::set<AdcIpAddress> used;
    for (const auto& [flow, dip] : chosen)
    {
        ASSERT_EQ(delivered.count(flow), 1u) << flow;
        EXPECT_EQ(delivered[flow], std::set<AdcIpAddress>{dip}) << flow;
        used.insert(dip);
    }
    // The MUXes spread the flows over the three VMs, so a host that ignored their choice
    // would disagree for some flows.
    EXPECT_EQ(used, vms);
    EXPECT_GE(bed.t.hostSwitch[0]->GetCounters().muxChoices, 60u);
}
