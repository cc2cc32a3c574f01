/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of what the CS benchmark (bench/cs-bench.cc, issue 10 "Performance") needs of the
 * model: AdcPersistenceTable's memory figure (GetAllocatedBytes, GetBytesPerEntry) and
 * AdcTcpRelay's fixed "Destination". Expected sizes are bounds derived from what an entry must
 * hold (its key and value) and from how the figure is defined, not from the code's output.
 */

#include "adc-test-fixtures.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-http-client.h"
#include "ns3/adc-http-server.h"
#include "ns3/adc-persistence-table.h"
#include "ns3/adc-tcp-relay.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::adctest;

namespace
{

/// \param i an index \return the IPv4 address 10.(i>>16).(i>>8).(i) as a SOURCEIP key
AdcPersistenceKey
SourceKey(uint32_t i)
{
    return AdcPersistenceKey::FromSourceIp(AdcIpAddress(Ipv4Address(0x0a000000u + i)));
}

/// \param n entries \return a table of \p n SOURCEIP entries (one-hour timeout, at time 0)
Ptr<AdcPersistenceTable>
Filled(uint32_t n)
{
    Ptr<AdcPersistenceTable> t = CreateObject<AdcPersistenceTable>();
    t->SetAttribute("MaxEntries", UintegerValue(n + 1));
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_TRUE(t->Insert(SourceKey(i), i % 4, Seconds(0), Seconds(3600)));
    }
    return t;
}

} // namespace

// REQ: CS-06
TEST(AdcCsBenchSupportTest, PersistenceBytesPerEntryCoversKeyAndValueAndGrowsWithEntries)
{
    Ptr<AdcPersistenceTable> empty = CreateObject<AdcPersistenceTable>();
    const std::size_t emptyBytes = empty->GetAllocatedBytes();
    EXPECT_GT(emptyBytes, 0u) << "the containers themselves are table overhead";
    EXPECT_EQ(empty->GetBytesPerEntry(), emptyBytes);

    Ptr<AdcPersistenceTable> t1 = Filled(1);
    Ptr<AdcPersistenceTable> t1000 = Filled(1000);
    Ptr<AdcPersistenceTable> t10000 = Filled(10000);
    ASSERT_EQ(t10000->GetSize(Seconds(1)), 10000u);
    // More entries, more memory: at least one entry's key and value per added entry.
    const std::size_t keyAndValue = sizeof(AdcPersistenceKey) + sizeof(uint32_t);
    EXPECT_GT(t1->GetAllocatedBytes(), emptyBytes);
    EXPECT_GE(t1000->GetAllocatedBytes(), t1->GetAllocatedBytes() + 999 * keyAndValue);
    EXPECT_GE(t10000->GetAllocatedBytes(), t1000->GetAllocatedBytes() + 9000 * keyAndValue);
    // Per entry: at least the key, the target and the expiry time each entry must keep, plus
    // one pointer of the expiry index.
    const std::size_t floor = keyAndValue + sizeof(Time) + sizeof(void*);
    for (const auto& t : {t1, t1000, t10000})
    {
        EXPECT_GE(t->GetBytesPerEntry(), floor);
        const std::size_t n = t->GetSize(Seconds(1));
        EXPECT_GE(t->GetBytesPerEntry() * n, t->GetAllocatedBytes()) << "rounded up";
        EXPECT_LT((t->GetBytesPerEntry() - 1) * n, t->GetAllocatedBytes()) << "rounded up";
    }
    // The fixed overhead spreads: one entry carries all of it.
    EXPECT_GT(t1->GetBytesPerEntry(), t10000->GetBytesPerEntry());

    // Entries that leave give their memory back (the bucket array stays).
    t1000->Purge(Seconds(3601));
    EXPECT_EQ(t1000->GetSize(Seconds(3601)), 0u);
    EXPECT_LT(t1000->GetAllocatedBytes(), 1000 * keyAndValue);
}

// REQ: CS-06
TEST(AdcCsBenchSupportTest, PersistenceBytesCountLongKeysOnTheHeap)
{
    // A 200-byte cookie value cannot be held inside the key's string object: its bytes are
    // a heap block of their own and count (at least the 200 bytes).
    Ptr<AdcPersistenceTable> shortKeys = CreateObject<AdcPersistenceTable>();
    Ptr<AdcPersistenceTable> longKeys = CreateObject<AdcPersistenceTable>();
    for (uint32_t i = 0; i < 100; ++i)
    {
        shortKeys->Insert(AdcPersistenceKey::FromCookie(std::to_string(i)), 1, Seconds(0));
        longKeys->Insert(AdcPersistenceKey::FromCookie(std::string(200, 'a') + std::to_string(i)),
                         1,
                         Seconds(0));
    }
    EXPECT_GE(longKeys->GetBytesPerEntry(), shortKeys->GetBytesPerEntry() + 200);
}

/// Records AdcTcpRelay "Closed".
struct ClosedLog
{
    std::vector<std::string> destinations; //!< as ip:port
    std::vector<std::string> outcomes;     //!< outcome

    /// "Closed"
    void Closed(const Address& /* client */,
                const Address& destination,
                uint64_t /* toServer */,
                uint64_t /* toClient */,
                const std::string& outcome)
    {
        const InetSocketAddress d = InetSocketAddress::ConvertFrom(destination);
        std::ostringstream os;
        os << d.GetIpv4() << ":" << d.GetPort();
        destinations.push_back(os.str());
        outcomes.push_back(outcome);
    }
};

/// client 10.1.1.1 -- 10.1.1.2 relay 10.1.2.1 -- 10.1.2.2 server (MakeChain)
class AdcCsBenchRelayTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        nodes = MakeChain(3);
        server = CreateObject<AdcHttpServer>();
        server->SetAttribute("ObjectSize", UintegerValue(500));
        nodes.Get(2)->AddApplication(server);
        relay = CreateObject<AdcTcpRelay>();
        relay->SetAttribute("UseClientSource", BooleanValue(false));
        relay->TraceConnectWithoutContext("Closed", MakeCallback(&ClosedLog::Closed, &log));
        nodes.Get(1)->AddApplication(relay);
        client = CreateObject<AdcHttpClient>();
        // The client addresses the relay node itself, as a proxy's VIP.
        client->SetAttribute("Remote", AddressValue(InetSocketAddress("10.1.1.2", 80)));
        client->SetAttribute("Persistent", BooleanValue(false));
        client->SetAttribute("MaxRequests", UintegerValue(3));
        client->SetAttribute("InterRequestTime",
                             StringValue("ns3::ConstantRandomVariable[Constant=0.5]"));
        nodes.Get(0)->AddApplication(client);
        client->SetStartTime(Seconds(1));
        records.Attach(client);
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }

    /// Run for 10 s.
    void Run()
    {
        Simulator::Stop(Seconds(10));
        Simulator::Run();
    }

    NodeContainer nodes;       //!< client, relay, server
    Ptr<AdcHttpServer> server; //!< on 10.1.2.2:80
    Ptr<AdcTcpRelay> relay;    //!< on the middle node
    Ptr<AdcHttpClient> client; //!< to 10.1.1.2:80
    ClosedLog log;             //!< "Closed"
    RequestRecords records;    //!< the client's requests
};

// REQ: none in REQUIREMENTS.md (the relay's tests carry no tag): the bare-relay baseline of
// the CS benchmark (issue 10, "Performance")
TEST_F(AdcCsBenchRelayTest, DestinationRelaysEveryConnectionToIt)
{
    relay->SetAttribute("Destination", AddressValue(InetSocketAddress("10.1.2.2", 80)));
    Run();
    EXPECT_EQ(records.Completed(), 3u);
    EXPECT_EQ(relay->GetAccepted(), 3u);
    EXPECT_EQ(relay->GetCompleted(), 3u);
    EXPECT_EQ(relay->GetFailed(), 0u);
    ASSERT_EQ(log.destinations.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(log.destinations[i], "10.1.2.2:80");
        EXPECT_EQ(log.outcomes[i], "complete");
    }
    // The 500-byte bodies came back through it (plus the response heads).
    EXPECT_GT(relay->GetBytesToClient(), 3u * 500u);
    EXPECT_EQ(relay->GetOpenRelays(), 0u);
}

// REQ: none in REQUIREMENTS.md: the default (no Destination) is unchanged
TEST_F(AdcCsBenchRelayTest, WithoutDestinationAConnectionToTheNodeIsNotRelayed)
{
    Run();
    // The client's connections reach the relay node and stay there: their bytes are
    // discarded ("local"), nothing goes towards the server, no request completes.
    EXPECT_EQ(records.Completed(), 0u);
    EXPECT_GE(relay->GetAccepted(), 1u);
    EXPECT_EQ(relay->GetBytesToServer(), 0u);
    EXPECT_EQ(relay->GetCompleted(), 0u);
    for (std::size_t i = 0; i < log.outcomes.size(); ++i) // those whose client gave up
    {
        EXPECT_EQ(log.outcomes[i], "local");
        EXPECT_EQ(log.destinations[i], "10.1.1.2:80");
    }
}

// REQ: none in REQUIREMENTS.md: a Destination of the node itself would loop
TEST_F(AdcCsBenchRelayTest, DestinationOnTheRelayNodeIsAConfigError)
{
    relay->SetAttribute("Destination", AddressValue(InetSocketAddress("10.1.2.1", 80)));
    std::string msg;
    try
    {
        Run();
    }
    catch (const AdcConfigError& e)
    {
        msg = e.what();
    }
    EXPECT_NE(msg.find("Destination"), std::string::npos) << msg;
    EXPECT_NE(msg.find("10.1.2.1:80"), std::string::npos) << msg;
    EXPECT_NE(msg.find("allowed"), std::string::npos) << msg;
}
