/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the connection / NAT table: both directions, idle expiry, capacity, back-ends.
 */

#include "ns3/adc-connection-table.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Records what a table's trace sources fire (each entry's original key as text).
struct ConnectionTraces
{
    std::vector<std::string> created;
    std::vector<std::string> expired;
    std::vector<std::string> removed;
    std::vector<std::string> overflow;
    std::vector<std::string> collision;

    void OnCreated(const AdcConnectionTable::Entry& e)
    {
        created.push_back(e.original.ToString());
    }

    void OnExpired(const AdcConnectionTable::Entry& e)
    {
        expired.push_back(e.original.ToString());
    }

    void OnRemoved(const AdcConnectionTable::Entry& e)
    {
        removed.push_back(e.original.ToString());
    }

    void OnOverflow(const AdcFlowKey& k)
    {
        overflow.push_back(k.ToString());
    }

    void OnCollision(const AdcFlowKey& k, const AdcFlowKey&)
    {
        collision.push_back(k.ToString());
    }

    void Connect(Ptr<AdcConnectionTable> t)
    {
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("EntryCreated",
                                          MakeCallback(&ConnectionTraces::OnCreated, this)));
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("EntryExpired",
                                          MakeCallback(&ConnectionTraces::OnExpired, this)));
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("EntryRemoved",
                                          MakeCallback(&ConnectionTraces::OnRemoved, this)));
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("Overflow",
                                          MakeCallback(&ConnectionTraces::OnOverflow, this)));
        ASSERT_TRUE(
            t->TraceConnectWithoutContext("Collision",
                                          MakeCallback(&ConnectionTraces::OnCollision, this)));
    }
};

/// \return an IPv4 key
AdcFlowKey
V4(const char* s, uint16_t sp, const char* d, uint16_t dp, uint8_t proto = AdcFlowKey::PROTO_TCP)
{
    return AdcFlowKey(Ipv4Address(s), Ipv4Address(d), sp, dp, proto);
}

/// \return a client's key to the VIP 203.0.113.10:80 from 198.51.100.C:port
AdcFlowKey
Client(uint16_t port, uint8_t proto = AdcFlowKey::PROTO_TCP)
{
    return V4("198.51.100.7", port, "203.0.113.10", 80, proto);
}

/// \return the Full-NAT translated key of \p port: NAT source 10.0.0.1:port -> 10.1.0.5:8080
AdcFlowKey
Nat(uint16_t port, uint8_t proto = AdcFlowKey::PROTO_TCP)
{
    return V4("10.0.0.1", port, "10.1.0.5", 8080, proto);
}

} // namespace

TEST(AdcConnectionTable, AttributeDefaults)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>();
    EXPECT_EQ(t->GetIdleTimeout(AdcFlowKey::PROTO_TCP), Seconds(120));
    EXPECT_EQ(t->GetIdleTimeout(AdcFlowKey::PROTO_UDP), Seconds(60));
    EXPECT_EQ(t->GetIdleTimeout(AdcFlowKey::PROTO_ICMP), Seconds(60));
    UintegerValue max;
    t->GetAttribute("MaxEntries", max);
    EXPECT_EQ(max.Get(), 1000000u);
}

TEST(AdcConnectionTable, FullNatIpv4BothDirections)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>();
    ConnectionTraces traces;
    traces.Connect(t);
    const AdcFlowKey original = V4("198.51.100.7", 40000, "203.0.113.10", 80);
    const AdcFlowKey translated = V4("10.0.0.1", 1024, "10.1.0.5", 8080);
    AdcConnectionTable::Entry* e = t->Insert(original, translated, 3, Seconds(1));
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->backend, 3u);
    EXPECT_EQ(e->lastSeen, Seconds(1));
    ASSERT_EQ(traces.created.size(), 1u);
    EXPECT_EQ(traces.created[0], original.ToString());

    // Client -> VIP, as the packet arrives.
    AdcConnectionTable::Entry* fwd =
        t->LookupOriginal(V4("198.51.100.7", 40000, "203.0.113.10", 80), Seconds(2));
    ASSERT_EQ(fwd, e);
    EXPECT_EQ(fwd->translated, translated);
    EXPECT_EQ(fwd->lastSeen, Seconds(2));

    // Server -> NAT source, as the reply arrives: written out by hand.
    const AdcFlowKey reply = V4("10.1.0.5", 8080, "10.0.0.1", 1024);
    EXPECT_EQ(reply, translated.Reversed());
    AdcConnectionTable::Entry* back = t->LookupReply(reply, Seconds(3));
    ASSERT_EQ(back, e);
    EXPECT_EQ(back->original, original);
    EXPECT_EQ(back->lastSeen, Seconds(3));

    // Keys of the wrong direction, or of another port, are not found.
    EXPECT_EQ(t->LookupOriginal(reply, Seconds(3)), nullptr);
    EXPECT_EQ(t->LookupReply(original, Seconds(3)), nullptr);
    EXPECT_EQ(t->LookupReply(translated, Seconds(3)), nullptr);
    EXPECT_EQ(t->LookupOriginal(V4("198.51.100.7", 40001, "203.0.113.10", 80), Seconds(3)),
              nullptr);
    EXPECT_EQ(t->GetSize(), 1u);
}

TEST(AdcConnectionTable, HalfNatIpv6BothDirections)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>();
    // Half-NAT: the client address is kept, only the destination is translated.
    const AdcFlowKey original(Ipv6Address("2001:db8::7"),
                              Ipv6Address("2001:db8:ffff::10"),
                              50000,
                              443,
                              AdcFlowKey::PROTO_TCP);
    const AdcFlowKey translated(Ipv6Address("2001:db8::7"),
                                Ipv6Address("2001:db8:1::5"),
                                50000,
                                8443,
                                AdcFlowKey::PROTO_TCP);
    AdcConnectionTable::Entry* e = t->Insert(original, translated, 1, Seconds(0));
    ASSERT_NE(e, nullptr);
    const AdcFlowKey reply(Ipv6Address("2001:db8:1::5"),
                           Ipv6Address("2001:db8::7"),
                           8443,
                           50000,
                           AdcFlowKey::PROTO_TCP);
    EXPECT_EQ(t->LookupReply(reply, Seconds(1)), e);
    EXPECT_EQ(t->LookupOriginal(original, Seconds(1)), e);
    // The same numbers over UDP are another connection.
    AdcFlowKey udp = original;
    udp.protocol = AdcFlowKey::PROTO_UDP;
    EXPECT_EQ(t->LookupOriginal(udp, Seconds(1)), nullptr);
}

TEST(AdcConnectionTable, IdleExpiryPerProtocol)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>(); // TCP 120 s, UDP 60 s
    t->SetAttribute("OtherIdleTimeout", TimeValue(Seconds(5)));
    ConnectionTraces traces;
    traces.Connect(t);
    const AdcFlowKey tcp = Client(1000);
    const AdcFlowKey udp = Client(2000, AdcFlowKey::PROTO_UDP);
    const AdcFlowKey icmp = V4("198.51.100.7", 0, "203.0.113.10", 0, AdcFlowKey::PROTO_ICMP);
    ASSERT_NE(t->Insert(tcp, Nat(1000), 1, Seconds(0)), nullptr);
    ASSERT_NE(t->Insert(udp, Nat(2000, AdcFlowKey::PROTO_UDP), 1, Seconds(0)), nullptr);
    ASSERT_NE(t->Insert(icmp, V4("10.0.0.1", 0, "10.1.0.5", 0, 1), 1, Seconds(0)), nullptr);

    // Idle means now - lastSeen > timeout: alive at exactly the timeout.
    t->Purge(Seconds(5));
    EXPECT_EQ(t->GetSize(), 3u);
    t->Purge(Seconds(5) + NanoSeconds(1));
    EXPECT_EQ(t->GetSize(), 2u);
    t->Purge(Seconds(60));
    EXPECT_EQ(t->GetSize(), 2u);
    // An idle entry is expired by the lookup itself and not returned.
    EXPECT_EQ(t->LookupOriginal(udp, Seconds(60) + NanoSeconds(1)), nullptr);
    EXPECT_EQ(t->GetSize(), 1u);
    t->Purge(Seconds(120));
    EXPECT_EQ(t->GetSize(), 1u);
    EXPECT_EQ(t->LookupReply(Nat(1000).Reversed(), Seconds(120) + NanoSeconds(1)), nullptr);
    EXPECT_EQ(t->GetSize(), 0u);

    ASSERT_EQ(traces.expired.size(), 3u);
    EXPECT_EQ(traces.expired[0], icmp.ToString());
    EXPECT_EQ(traces.expired[1], udp.ToString());
    EXPECT_EQ(traces.expired[2], tcp.ToString());
    EXPECT_EQ(t->GetExpiredCount(), 3u);
}

TEST(AdcConnectionTable, TouchRefreshesAndReordersLru)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>(); // TCP 120 s
    ConnectionTraces traces;
    traces.Connect(t);
    const AdcFlowKey a = Client(1000);
    const AdcFlowKey b = Client(1001);
    t->Insert(a, Nat(1000), 1, Seconds(0));
    t->Insert(b, Nat(1001), 1, Seconds(10));
    // Touch a through the reply direction: a is now the most recently seen.
    ASSERT_NE(t->LookupReply(Nat(1000).Reversed(), Seconds(50)), nullptr);
    // b (last seen 10 s) is idle after 130 s; a (last seen 50 s) after 170 s. Without the
    // refresh a would have gone at 120 s; without the LRU move b would hide behind a.
    t->Purge(Seconds(130) + NanoSeconds(1));
    ASSERT_EQ(traces.expired.size(), 1u);
    EXPECT_EQ(traces.expired[0], b.ToString());
    EXPECT_NE(t->LookupOriginal(a, Seconds(170)), nullptr); // refreshed again: 290 s
    EXPECT_NE(t->LookupOriginal(a, Seconds(290)), nullptr); // and again: 410 s
    EXPECT_EQ(t->LookupOriginal(a, Seconds(410) + NanoSeconds(1)), nullptr);
}

TEST(AdcConnectionTable, ExpiryTraceIsChronologicalAcrossProtocols)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>(); // TCP 120 s, UDP 60 s
    ConnectionTraces traces;
    traces.Connect(t);
    const AdcFlowKey udp1 = Client(1, AdcFlowKey::PROTO_UDP); // idle after 0 + 60
    const AdcFlowKey tcp = Client(2);                         // idle after 0 + 120
    const AdcFlowKey udp2 = Client(3, AdcFlowKey::PROTO_UDP); // idle after 50 + 60
    t->Insert(udp1, Nat(1, AdcFlowKey::PROTO_UDP), 1, Seconds(0));
    t->Insert(tcp, Nat(2), 1, Seconds(0));
    t->Insert(udp2, Nat(3, AdcFlowKey::PROTO_UDP), 1, Seconds(50));
    EXPECT_EQ(t->GetSize(), 3u);
    // One purge expires all three in order of expiry time, not list by list.
    t->Purge(Seconds(1000));
    ASSERT_EQ(traces.expired.size(), 3u);
    EXPECT_EQ(traces.expired[0], udp1.ToString());
    EXPECT_EQ(traces.expired[1], udp2.ToString());
    EXPECT_EQ(traces.expired[2], tcp.ToString());
}

TEST(AdcConnectionTable, InsertExistingReturnsExistingEntry)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>();
    AdcConnectionTable::Entry* e = t->Insert(Client(1000), Nat(1000), 1, Seconds(0));
    ASSERT_NE(e, nullptr);
    AdcConnectionTable::Entry* again = t->Insert(Client(1000), Nat(5555), 2, Seconds(5));
    EXPECT_EQ(again, e);
    EXPECT_EQ(again->translated, Nat(1000)); // unchanged
    EXPECT_EQ(again->backend, 1u);
    EXPECT_EQ(again->lastSeen, Seconds(5)); // refreshed
    EXPECT_EQ(t->GetSize(), 1u);
    EXPECT_EQ(t->GetCreatedCount(), 1u);
    EXPECT_EQ(t->LookupReply(Nat(5555).Reversed(), Seconds(5)), nullptr);
}

TEST(AdcConnectionTable, OverflowWhenFull)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>();
    t->SetAttribute("MaxEntries", UintegerValue(2));
    ConnectionTraces traces;
    traces.Connect(t);
    ASSERT_NE(t->Insert(Client(1), Nat(1), 1, Seconds(0)), nullptr);
    ASSERT_NE(t->Insert(Client(2), Nat(2), 1, Seconds(0)), nullptr);
    EXPECT_EQ(t->Insert(Client(3), Nat(3), 1, Seconds(0)), nullptr);
    EXPECT_EQ(t->GetOverflowCount(), 1u);
    ASSERT_EQ(traces.overflow.size(), 1u);
    EXPECT_EQ(traces.overflow[0], Client(3).ToString());
    EXPECT_EQ(t->GetSize(), 2u);
    EXPECT_EQ(t->LookupOriginal(Client(3), Seconds(0)), nullptr);
    // An existing key is still found through Insert on a full table.
    EXPECT_NE(t->Insert(Client(1), Nat(1), 1, Seconds(1)), nullptr);
    EXPECT_EQ(t->GetOverflowCount(), 1u);
    // After the idle timeout the entries are purged on insert and there is room again.
    EXPECT_NE(t->Insert(Client(3), Nat(3), 1, Seconds(200)), nullptr);
    EXPECT_EQ(t->GetSize(), 1u);
    // Unlimited when 0.
    t->SetAttribute("MaxEntries", UintegerValue(0));
    for (uint16_t p = 10; p < 20; ++p)
    {
        EXPECT_NE(t->Insert(Client(p), Nat(p), 1, Seconds(200)), nullptr);
    }
    EXPECT_EQ(t->GetSize(), 11u);
}

TEST(AdcConnectionTable, ReplyKeyCollisionRefused)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>();
    ConnectionTraces traces;
    traces.Connect(t);
    ASSERT_NE(t->Insert(Client(1), Nat(7), 1, Seconds(0)), nullptr);
    // Another client translated to the same NAT source port: replies would be ambiguous.
    EXPECT_EQ(t->Insert(Client(2), Nat(7), 2, Seconds(0)), nullptr);
    EXPECT_EQ(t->GetCollisionCount(), 1u);
    ASSERT_EQ(traces.collision.size(), 1u);
    EXPECT_EQ(traces.collision[0], Client(2).ToString());
    EXPECT_EQ(t->LookupReply(Nat(7).Reversed(), Seconds(0))->original, Client(1));
}

TEST(AdcConnectionTable, RemoveBackendAndCounts)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>();
    ConnectionTraces traces;
    traces.Connect(t);
    t->Insert(Client(1), Nat(1), 1, Seconds(0));
    t->Insert(Client(2, AdcFlowKey::PROTO_UDP), Nat(2, AdcFlowKey::PROTO_UDP), 1, Seconds(0));
    t->Insert(Client(3), Nat(3), 2, Seconds(0));
    t->Insert(Client(4), Nat(4), 1, Seconds(0));
    t->Insert(Client(5), Nat(5), 2, Seconds(0));
    EXPECT_EQ(t->CountBackend(1), 3u);
    EXPECT_EQ(t->CountBackend(2), 2u);
    EXPECT_EQ(t->CountBackend(9), 0u);

    EXPECT_EQ(t->RemoveBackend(1), 3u);
    EXPECT_EQ(t->RemoveBackend(1), 0u);
    EXPECT_EQ(t->CountBackend(1), 0u);
    EXPECT_EQ(t->CountBackend(2), 2u);
    EXPECT_EQ(t->GetSize(), 2u);
    // TCP entries in LRU order, then UDP.
    ASSERT_EQ(traces.removed.size(), 3u);
    EXPECT_EQ(traces.removed[0], Client(1).ToString());
    EXPECT_EQ(traces.removed[1], Client(4).ToString());
    EXPECT_EQ(traces.removed[2], Client(2, AdcFlowKey::PROTO_UDP).ToString());
    // Gone from both indexes.
    EXPECT_EQ(t->LookupOriginal(Client(4), Seconds(1)), nullptr);
    EXPECT_EQ(t->LookupReply(Nat(4).Reversed(), Seconds(1)), nullptr);
    // The NAT tuple of a removed entry can be reused.
    EXPECT_NE(t->Insert(Client(6), Nat(4), 3, Seconds(1)), nullptr);

    // Remove and expiry keep the per-back-end count.
    t->Remove(Client(3));
    t->Remove(Client(3)); // absent: no effect
    EXPECT_EQ(t->CountBackend(2), 1u);
    EXPECT_EQ(t->GetRemovedCount(), 4u);
    t->Purge(Seconds(1000));
    EXPECT_EQ(t->CountBackend(2), 0u);
    EXPECT_EQ(t->CountBackend(3), 0u);
    EXPECT_EQ(t->GetSize(), 0u);
}

TEST(AdcConnectionTable, BytesPerEntryEstimateCountsEntryAndIndexes)
{
    Ptr<AdcConnectionTable> t = CreateObject<AdcConnectionTable>();
    const std::size_t empty = t->GetBytesPerEntryEstimate();
    // At least the entry plus the two keys each index holds again.
    EXPECT_GT(empty, sizeof(AdcConnectionTable::Entry) + 2 * sizeof(AdcFlowKey));
    for (uint16_t p = 1; p <= 1000; ++p)
    {
        t->Insert(Client(p), Nat(p), 1, Seconds(0));
    }
    const std::size_t full = t->GetBytesPerEntryEstimate();
    EXPECT_GT(full, sizeof(AdcConnectionTable::Entry) + 2 * sizeof(AdcFlowKey));
    // Below a generous ceiling: the estimate counts each structure once.
    EXPECT_LT(full, 1024u);
}
