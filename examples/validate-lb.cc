/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * validate-lb: the model's side of `./adc validate`'s load-balancing cases, printed as CSV on
 * standard output for utils/adc-validate.py to compare with the references it computes itself.
 *
 *   maglev-table1      the Maglev paper's worked example (Eisenbud et al., NSDI 2016, section
 *                      3.4, Table 1), M = 7: slot, owner before, owner after B1 is removed
 *   maglev-balance     entries per back-end at M = 65537 and 655373 with 1,000 back-ends
 *   maglev-disruption  share of entries that change when k % of 1,000 back-ends fail
 *   ecmp               share of flows that change next hop when one of n goes or comes, for
 *                      AdcEcmpGroup's MODULO, HASH_THRESHOLD and RESILIENT modes
 *   ilb-hash           illumos's hash_lb choices (AdcIlbHashLb) for many flows, with the CRC
 */

#include "ns3/adc-ecmp-group.h"
#include "ns3/adc-experiment.h"
#include "ns3/adc-flow-key.h"
#include "ns3/adc-ilb-hash-lb.h"
#include "ns3/adc-maglev-table.h"
#include "ns3/core-module.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The paper's permutations (offset, skip) of B0, B1, B2 for M = 7.
void
MaglevTable1()
{
    using Entry = AdcMaglevTable::Entry;
    const Entry b0{3, 4, 1, 0};
    const Entry b1{0, 2, 1, 1};
    const Entry b2{3, 1, 1, 2};
    AdcMaglevTable before(7);
    before.Build({b0, b1, b2});
    AdcMaglevTable after(7);
    after.Build({b0, b2});
    std::printf("slot,before,after\n");
    for (uint32_t s = 0; s < 7; ++s)
    {
        std::printf("%u,B%d,B%d\n", s, before.GetTable()[s], after.GetTable()[s]);
    }
}

/// \return a table of size \p m over back-ends "be0".. of \p n, except those in \p gone
AdcMaglevTable
Maglev(uint32_t m, uint32_t n, const std::vector<bool>& gone = {})
{
    AdcMaglevTable t(m);
    std::vector<AdcMaglevTable::Entry> entries;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (gone.empty() || !gone[i])
        {
            entries.push_back(t.MakeEntry("be" + std::to_string(i), 1, i, 7));
        }
    }
    t.Build(entries);
    return t;
}

void
MaglevBalance()
{
    std::printf("M,N,min_entries,max_entries,mean_entries\n");
    for (uint32_t m : {65537u, 655373u})
    {
        const uint32_t n = 1000;
        std::vector<uint32_t> count(n, 0);
        const AdcMaglevTable table = Maglev(m, n);
        for (int32_t id : table.GetTable())
        {
            ++count[id];
        }
        std::printf("%u,%u,%u,%u,%.3f\n",
                    m,
                    n,
                    *std::min_element(count.begin(), count.end()),
                    *std::max_element(count.begin(), count.end()),
                    static_cast<double>(m) / n);
    }
}

void
MaglevDisruption()
{
    std::printf("M,N,failed_share,changed_share\n");
    const uint32_t n = 1000;
    for (uint32_t m : {65537u, 655373u})
    {
        const AdcMaglevTable full = Maglev(m, n);
        for (uint32_t percent : {1u, 2u, 5u, 10u, 20u, 30u, 40u, 50u})
        {
            // The failed back-ends: a seeded choice of percent % of them.
            std::vector<std::pair<uint64_t, uint32_t>> order;
            for (uint32_t i = 0; i < n; ++i)
            {
                order.emplace_back(AdcHash::Mix(0x5eedull * (i + 1)), i);
            }
            std::sort(order.begin(), order.end());
            std::vector<bool> gone(n, false);
            for (uint32_t k = 0; k < n * percent / 100; ++k)
            {
                gone[order[k].second] = true;
            }
            const AdcMaglevTable after = Maglev(m, n, gone);
            uint32_t changed = 0;
            for (uint32_t s = 0; s < m; ++s)
            {
                changed += full.GetTable()[s] != after.GetTable()[s] ? 1 : 0;
            }
            std::printf("%u,%u,%.4f,%.6f\n",
                        m,
                        n,
                        percent / 100.0,
                        static_cast<double>(changed) / m);
        }
    }
}

void
Ecmp()
{
    const uint32_t flows = 200000;
    std::vector<uint64_t> hashes;
    for (uint32_t i = 0; i < flows; ++i)
    {
        hashes.push_back(AdcHash::Mix(0x9e3779b97f4a7c15ull * (i + 1)));
    }
    std::printf("mode,n,event,hop,moved_share\n");
    for (auto mode : {AdcEcmpGroup::MODULO, AdcEcmpGroup::HASH_THRESHOLD, AdcEcmpGroup::RESILIENT})
    {
        for (uint32_t n = 2; n <= 8; ++n)
        {
            for (uint32_t hop = 0; hop < n; ++hop)
            {
                // remove: hops 0..n-1 lose `hop`; add: hops 0..n-1 without `hop` gain it.
                for (const char* event : {"remove", "add"})
                {
                    AdcEcmpGroup g(mode, 256);
                    const bool remove = std::string(event) == "remove";
                    for (uint32_t i = 0; i < n; ++i)
                    {
                        if (remove || i != hop)
                        {
                            g.Add(i);
                        }
                    }
                    std::vector<uint32_t> before;
                    for (uint64_t h : hashes)
                    {
                        before.push_back(g.Select(h));
                    }
                    remove ? g.Remove(hop) : g.Add(hop);
                    uint32_t moved = 0;
                    for (uint32_t f = 0; f < flows; ++f)
                    {
                        moved += g.Select(hashes[f]) != before[f] ? 1 : 0;
                    }
                    std::printf("%s,%u,%s,%u,%.6f\n",
                                AdcEcmpGroup::ModeName(mode).c_str(),
                                n,
                                event,
                                hop,
                                static_cast<double>(moved) / flows);
                }
            }
        }
    }
}

void
IlbHash()
{
    std::printf("mode,src,sport,vip,servers,crc,chosen\n");
    const std::pair<AdcIlbHashLb::Mode, const char*> modes[] = {{AdcIlbHashLb::IP, "IP"},
                                                                {AdcIlbHashLb::IP_PORT, "IP_PORT"},
                                                                {AdcIlbHashLb::IP_VIP, "IP_VIP"}};
    for (const auto& [mode, name] : modes)
    {
        for (uint32_t servers : {2u, 3u, 5u, 7u})
        {
            Ptr<AdcIlbHashLb> lb = CreateObject<AdcIlbHashLb>();
            lb->SetMode(mode);
            for (uint32_t s = 0; s < servers; ++s)
            {
                AdcBackend b;
                b.name = "s" + std::to_string(s);
                b.address = Ipv4Address(0x0a010000 + s);
                lb->AddBackend(b);
            }
            for (uint32_t i = 0; i < 250; ++i)
            {
                const uint64_t r = AdcHash::Mix(0xabcdull + i * 977 + servers);
                AdcLbContext ctx;
                ctx.flow = AdcFlowKey(Ipv4Address(static_cast<uint32_t>(r)),
                                      Ipv4Address(0xc0000200 + static_cast<uint32_t>(r >> 56)),
                                      static_cast<uint16_t>(r >> 32),
                                      80,
                                      AdcFlowKey::PROTO_TCP);
                std::printf("%s,%s,%u,%s,%u,%u,%d\n",
                            name,
                            ctx.flow.src.ToString().c_str(),
                            ctx.flow.srcPort,
                            ctx.flow.dst.ToString().c_str(),
                            servers,
                            AdcIlbHashLb::Hash(mode, ctx.flow),
                            lb->Select(ctx));
            }
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string which = "maglev-table1";
    AdcExperiment exp("validate-lb",
                      "Print the model's side of a load-balancing validation case as CSV.");
    exp.Add("case", "the case to print", which)
        .OneOf({"maglev-table1", "maglev-balance", "maglev-disruption", "ecmp", "ilb-hash"});
    return exp.Run(argc, argv, [&]() {
        if (which == "maglev-table1")
        {
            MaglevTable1();
        }
        else if (which == "maglev-balance")
        {
            MaglevBalance();
        }
        else if (which == "maglev-disruption")
        {
            MaglevDisruption();
        }
        else if (which == "ecmp")
        {
            Ecmp();
        }
        else
        {
            IlbHash();
        }
        return 0;
    });
}
