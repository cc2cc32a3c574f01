/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the trace helpers: AdcCsvWriter formatting and escaping, AdcThroughputSampler over a
 * constant-bit-rate flow, AdcRequestLog rows and accounting, and byte-identical output of
 * identical runs.
 */

#include "adc-test-accounting.h"

#include "ns3/adc-config-error.h"
#include "ns3/adc-csv-writer.h"
#include "ns3/adc-request-log.h"
#include "ns3/adc-request-record.h"
#include "ns3/adc-throughput-sampler.h"
#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/node-container.h"
#include "ns3/on-off-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traced-callback.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace ns3
{

/**
 * \brief A test-only client application that fires "RequestSent" and "RequestDone" on demand,
 * so the request log is tested without the real HTTP client. (Its TypeId deliberately does not
 * start with "ns3::Adc": it is not one of the module's types.)
 */
class TraceHelperTestRequestApp : public Application
{
  public:
    /// Signature of both trace sources.
    typedef void (*RequestTracedCallback)(const AdcRequestRecord& r);

    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::TraceHelperTestRequestApp")
                .SetParent<Application>()
                .AddConstructor<TraceHelperTestRequestApp>()
                .AddTraceSource("RequestSent",
                                "A request was sent.",
                                MakeTraceSourceAccessor(&TraceHelperTestRequestApp::m_sent),
                                "ns3::TraceHelperTestRequestApp::RequestTracedCallback")
                .AddTraceSource("RequestDone",
                                "A request ended.",
                                MakeTraceSourceAccessor(&TraceHelperTestRequestApp::m_done),
                                "ns3::TraceHelperTestRequestApp::RequestTracedCallback");
        return tid;
    }

    /// \param r fire "RequestSent"
    void FireSent(AdcRequestRecord r)
    {
        m_sent(r);
    }

    /// \param r fire "RequestDone"
    void FireDone(AdcRequestRecord r)
    {
        m_done(r);
    }

  private:
    TracedCallback<const AdcRequestRecord&> m_sent; //!< "RequestSent"
    TracedCallback<const AdcRequestRecord&> m_done; //!< "RequestDone"
};

NS_OBJECT_ENSURE_REGISTERED(TraceHelperTestRequestApp);

} // namespace ns3

namespace
{

/// Every test tears its simulation down.
class AdcTraceHelperTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// \return the whole content of \p path
std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

/// \return the lines of \p path (without their "\n")
std::vector<std::string>
ReadLines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line))
    {
        lines.push_back(line);
    }
    return lines;
}

/// One parsed sampler row (no field of the sampler needs quoting).
struct SampleRow
{
    double time;           //!< time_s
    std::string name;      //!< name
    std::string direction; //!< direction
    uint64_t bytes;        //!< bytes
    double bps;            //!< throughput_bps
};

/// \param path sampler CSV \return its rows, header skipped
std::vector<SampleRow>
ReadSamples(const std::string& path)
{
    std::vector<SampleRow> rows;
    const std::vector<std::string> lines = ReadLines(path);
    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        std::istringstream is(lines[i]);
        std::string f[5];
        for (auto& field : f)
        {
            std::getline(is, field, ',');
        }
        rows.push_back({std::stod(f[0]), f[1], f[2], std::stoull(f[3]), std::stod(f[4])});
    }
    return rows;
}

/// \param rows sampler rows \param name item \param dir direction \return sum of their bytes
uint64_t
SumBytes(const std::vector<SampleRow>& rows, const std::string& name, const std::string& dir)
{
    uint64_t sum = 0;
    for (const SampleRow& r : rows)
    {
        sum += (r.name == name && r.direction == dir) ? r.bytes : 0;
    }
    return sum;
}

/// Payload bytes per packet of the constant-bit-rate flow.
constexpr uint32_t PAYLOAD = 1000;
/// On the wire of the point-to-point link: payload + UDP 8 + IPv4 20 + PPP 2.
constexpr uint32_t FRAME = PAYLOAD + 8 + 20 + 2;

/**
 * \brief Two nodes over a 10 Mb/s point-to-point link; OnOff (always on) sends UDP at 800 kb/s
 * (one 1000-byte packet every 10 ms) from 1 s to 3 s to a PacketSink. The sampler watches the
 * sink's device ("sinkDev") and the sink ("sink") every 100 ms from 0.5 s to 3.5 s.
 * \param csv sampler file
 * \return the sampler, after the run
 */
Ptr<AdcThroughputSampler>
RunCbr(const std::string& csv)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1ms"));
    NetDeviceContainer devs = p2p.Install(nodes);
    InternetStackHelper().Install(nodes);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);

    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9000));
    ApplicationContainer sink = sinkHelper.Install(nodes.Get(1));
    OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(ifs.GetAddress(1), 9000));
    onoff.SetConstantRate(DataRate("800kbps"), PAYLOAD);
    ApplicationContainer src = onoff.Install(nodes.Get(0));
    src.Start(Seconds(1));
    src.Stop(Seconds(3));

    Ptr<AdcThroughputSampler> sampler = CreateObject<AdcThroughputSampler>();
    sampler->SetAttribute("FileName", StringValue(csv));
    sampler->WatchDevice(devs.Get(1), "sinkDev");
    sampler->WatchApplication(sink.Get(0), "sink");
    sampler->Start(Seconds(0.5), Seconds(3.5));
    Simulator::Stop(Seconds(4));
    Simulator::Run();
    sampler->Close();
    return sampler;
}

/// \return a record with the fields the request-log tests use
AdcRequestRecord
MakeRecord(uint32_t client,
           const char* ip,
           uint64_t id,
           const std::string& url,
           const std::string& server,
           const std::string& path,
           Time start,
           Time end,
           uint16_t status,
           const std::string& reason)
{
    AdcRequestRecord r;
    r.clientId = client;
    r.clientIp = Ipv4Address(ip);
    r.requestId = id;
    r.url = url;
    r.server = server;
    r.path = path;
    r.start = start;
    r.end = end;
    r.requestBytes = 100 + id;
    r.responseBytes = reason.empty() ? 5000 + id : 0;
    r.status = status;
    r.outcome = reason.empty() ? AdcRequestOutcome::COMPLETED : AdcRequestOutcome::FAILED;
    r.reason = reason;
    return r;
}

/// The three records of the request-log scenario.
std::vector<AdcRequestRecord>
ScenarioRecords()
{
    return {MakeRecord(7,
                       "10.0.0.2",
                       1,
                       "/index.html",
                       "S1",
                       "client>router>S1",
                       Seconds(1),
                       Seconds(1.0125),
                       200,
                       ""),
            MakeRecord(7,
                       "10.0.0.2",
                       2,
                       "/search?q=a,b",
                       "S2",
                       "client>\"edge\">S2",
                       Seconds(2),
                       NanoSeconds(2000250001),
                       200,
                       ""),
            MakeRecord(8,
                       "10.0.0.3",
                       1,
                       "/big",
                       "",
                       "client>router",
                       Seconds(3),
                       Seconds(3.5),
                       0,
                       "timeout")};
}

/// The CSV the scenario must produce, written out by hand.
const char* const EXPECTED_REQUEST_CSV =
    "client_id,client_ip,request_id,url,server,path,start_s,end_s,latency_ms,request_bytes,"
    "response_bytes,status,outcome,reason\n"
    "7,10.0.0.2,1,/index.html,S1,client>router>S1,1.000000000,1.012500000,12.500000,101,5001,"
    "200,COMPLETED,\n"
    "7,10.0.0.2,2,\"/search?q=a,b\",S2,\"client>\"\"edge\"\">S2\",2.000000000,2.000250001,"
    "0.250001,102,5002,200,COMPLETED,\n"
    "8,10.0.0.3,1,/big,,client>router,3.000000000,3.500000000,500.000000,101,0,0,FAILED,"
    "timeout\n";

/**
 * \brief Fire the scenario's records from a test application watched by a log: each record's
 * "RequestSent" at its start and "RequestDone" at its end.
 * \param csv log file
 * \return the log, after the run
 */
Ptr<AdcRequestLog>
RunRequestScenario(const std::string& csv)
{
    Ptr<TraceHelperTestRequestApp> app = CreateObject<TraceHelperTestRequestApp>();
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->SetAttribute("FileName", StringValue(csv));
    log->Watch(app);
    for (const AdcRequestRecord& r : ScenarioRecords())
    {
        Simulator::Schedule(r.start, &TraceHelperTestRequestApp::FireSent, app, r);
        Simulator::Schedule(r.end, &TraceHelperTestRequestApp::FireDone, app, r);
    }
    Simulator::Run();
    log->Close();
    return log;
}

} // namespace

// REQ: CORE-02
TEST(AdcCsvWriter, WritesHeaderAndEscapesFieldsPerRfc4180)
{
    const std::string path = ::testing::TempDir() + "adc-csv-writer.csv";
    {
        AdcCsvWriter w(path, {"a", "b,c", "d"});
        w.WriteRow({"plain", "with,comma", "say \"hi\""});
        w.WriteRow({"", "line\nbreak", "x"});
        EXPECT_EQ(w.GetNRows(), 2u);
    }
    EXPECT_EQ(ReadFile(path),
              "a,\"b,c\",d\n"
              "plain,\"with,comma\",\"say \"\"hi\"\"\"\n"
              ",\"line\nbreak\",x\n");
}

// REQ: CORE-02
TEST(AdcCsvWriter, UnopenablePathThrowsNamingIt)
{
    const std::string path = "/nonexistent-adc-dir/out.csv";
    try
    {
        AdcCsvWriter w(path, {"a"});
        ADD_FAILURE() << "no exception";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
}

// REQ: CORE-02
TEST(AdcCsvWriter, FormatsNumbersExactlyAndDeterministically)
{
    EXPECT_EQ(AdcCsvWriter::FormatSeconds(NanoSeconds(1500000001)), "1.500000001");
    EXPECT_EQ(AdcCsvWriter::FormatSeconds(Seconds(0)), "0.000000000");
    EXPECT_EQ(AdcCsvWriter::FormatSeconds(MilliSeconds(-250)), "-0.250000000");
    EXPECT_EQ(AdcCsvWriter::FormatSeconds(Seconds(12345)), "12345.000000000");
    EXPECT_EQ(AdcCsvWriter::FormatMilliseconds(MicroSeconds(12345)), "12.345000");
    EXPECT_EQ(AdcCsvWriter::FormatMilliseconds(NanoSeconds(1)), "0.000001");
    EXPECT_EQ(AdcCsvWriter::FormatFixed(800000.0, 3), "800000.000");
    EXPECT_EQ(AdcCsvWriter::FormatFixed(2.0 / 3.0, 3), "0.667");
    EXPECT_EQ(AdcCsvWriter::Escape("a\"b"), "\"a\"\"b\"");
    EXPECT_EQ(AdcCsvWriter::Escape("ab"), "ab");
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, SamplerHeaderAndRowOrderAreExact)
{
    const std::string csv = ::testing::TempDir() + "adc-sampler-order.csv";
    Ptr<AdcThroughputSampler> s = RunCbr(csv);
    const std::vector<std::string> lines = ReadLines(csv);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], "time_s,name,direction,bytes,throughput_bps");
    // Samples at 0.6, 0.7, ..., 3.5 s: 30 of them, each with sinkDev rx, sinkDev tx, sink rx
    // and the ALL aggregate: 120 rows.
    EXPECT_EQ(s->GetNSamples(), 30u);
    ASSERT_EQ(lines.size(), 1u + 120);
    // Before any traffic: zero bytes, rows in watch order.
    EXPECT_EQ(lines[1], "0.600000000,sinkDev,rx,0,0.000");
    EXPECT_EQ(lines[2], "0.600000000,sinkDev,tx,0,0.000");
    EXPECT_EQ(lines[3], "0.600000000,sink,rx,0,0.000");
    EXPECT_EQ(lines[4], "0.600000000,ALL,rx,0,0.000");
    EXPECT_EQ(lines[120].substr(0, 16), "3.500000000,ALL,");
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, SamplerMatchesConstantBitRate)
{
    const std::string csv = ::testing::TempDir() + "adc-sampler-cbr.csv";
    Ptr<AdcThroughputSampler> s = RunCbr(csv);
    const std::vector<SampleRow> rows = ReadSamples(csv);
    ASSERT_EQ(rows.size(), 120u);

    // 800 kb/s of 1000-byte payloads = 100 packets/s = 10 per 100 ms interval.
    uint32_t checked = 0;
    for (const SampleRow& r : rows)
    {
        const bool inFlow = r.time > 1.15 && r.time < 3.05; // intervals within [1.05, 3.0]
        const bool idle = r.time < 0.95 || r.time > 3.15;
        if (r.name == "sink" || r.name == "ALL")
        {
            if (inFlow)
            {
                EXPECT_NEAR(static_cast<double>(r.bytes), 10.0 * PAYLOAD, PAYLOAD) << r.time;
                EXPECT_NEAR(r.bps, 800000.0, 8.0 * PAYLOAD / 0.1) << r.time;
                ++checked;
            }
        }
        else if (r.direction == "rx" && inFlow)
        {
            EXPECT_NEAR(static_cast<double>(r.bytes), 10.0 * FRAME, FRAME) << r.time;
        }
        if (idle || r.direction == "tx")
        {
            EXPECT_EQ(r.bytes, 0u) << r.name << " " << r.direction << " " << r.time;
        }
    }
    EXPECT_EQ(checked, 2u * 19); // sink and ALL at 1.2, 1.3, ..., 3.0

    // Totals equal the sum of the rows; 2 s of flow is 200 packets, within one packet.
    const uint64_t sinkTotal = s->GetTotalBytes("sink", "rx");
    EXPECT_EQ(SumBytes(rows, "sink", "rx"), sinkTotal);
    EXPECT_EQ(SumBytes(rows, "ALL", "rx"), sinkTotal);
    EXPECT_EQ(s->GetTotalBytes("ALL", "rx"), sinkTotal);
    EXPECT_NEAR(static_cast<double>(sinkTotal), 200.0 * PAYLOAD, PAYLOAD);
    // Every packet the sink got crossed the device as one frame.
    const uint64_t devTotal = s->GetTotalBytes("sinkDev", "rx");
    EXPECT_EQ(SumBytes(rows, "sinkDev", "rx"), devTotal);
    EXPECT_EQ(devTotal, sinkTotal / PAYLOAD * FRAME);
    EXPECT_EQ(s->GetTotalBytes("sinkDev", "tx"), 0u);
    EXPECT_THROW(s->GetTotalBytes("nope", "rx"), AdcConfigError);
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, SamplerTraceSourceAndShortLastInterval)
{
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs = PointToPointHelper().Install(nodes);
    Ptr<AdcThroughputSampler> s = CreateObject<AdcThroughputSampler>();
    s->WatchDevice(devs.Get(0), "d0");
    std::vector<std::string> seen;
    s->TraceConnectWithoutContext("Sample",
                                  MakeBoundCallback(
                                      +[](std::vector<std::string>* out,
                                          Time t,
                                          const std::string& name,
                                          const std::string& dir,
                                          uint64_t bytes,
                                          double /* bps */) {
                                          out->push_back(AdcCsvWriter::FormatSeconds(t) + " " +
                                                         name + " " + dir + " " +
                                                         std::to_string(bytes));
                                      },
                                      &seen));
    // 100 ms samples from 0.5 s to 0.75 s: at 0.6, 0.7 and a short one at 0.75.
    s->Start(Seconds(0.5), Seconds(0.75));
    Simulator::Run();
    const std::vector<std::string> expected{"0.600000000 d0 rx 0",
                                            "0.600000000 d0 tx 0",
                                            "0.700000000 d0 rx 0",
                                            "0.700000000 d0 tx 0",
                                            "0.750000000 d0 rx 0",
                                            "0.750000000 d0 tx 0"};
    EXPECT_EQ(seen, expected);
    EXPECT_EQ(s->GetNSamples(), 3u);
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, SamplerRejectsBadWatchesAndWindows)
{
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs = PointToPointHelper().Install(nodes);
    Ptr<AdcThroughputSampler> s = CreateObject<AdcThroughputSampler>();
    s->WatchDevice(devs.Get(0), "d0");
    EXPECT_THROW(s->WatchDevice(devs.Get(1), "d0"), AdcConfigError);  // name taken
    EXPECT_THROW(s->WatchDevice(devs.Get(1), "ALL"), AdcConfigError); // reserved
    Ptr<TraceHelperTestRequestApp> app = CreateObject<TraceHelperTestRequestApp>();
    EXPECT_THROW(s->WatchApplication(app, "app"), AdcConfigError); // no "Rx"
    EXPECT_THROW(s->Start(Seconds(2), Seconds(1)), AdcConfigError);
    s->SetAttribute("Interval", TimeValue(Seconds(0)));
    EXPECT_THROW(s->Start(Seconds(0), Seconds(1)), AdcConfigError);
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, IdenticalRunsGiveByteIdenticalFiles)
{
    const std::string dir = ::testing::TempDir();
    RunCbr(dir + "adc-sampler-run1.csv");
    RunRequestScenario(dir + "adc-requests-run1.csv");
    Simulator::Destroy();
    RunCbr(dir + "adc-sampler-run2.csv");
    RunRequestScenario(dir + "adc-requests-run2.csv");
    const std::string s1 = ReadFile(dir + "adc-sampler-run1.csv");
    EXPECT_GT(s1.size(), 1000u);
    EXPECT_EQ(s1, ReadFile(dir + "adc-sampler-run2.csv"));
    const std::string r1 = ReadFile(dir + "adc-requests-run1.csv");
    EXPECT_EQ(r1, EXPECTED_REQUEST_CSV);
    EXPECT_EQ(r1, ReadFile(dir + "adc-requests-run2.csv"));
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, RequestLogWritesRowsFedAndCountsOutcomes)
{
    const std::string csv = ::testing::TempDir() + "adc-requests.csv";
    Ptr<AdcRequestLog> log = RunRequestScenario(csv);
    EXPECT_EQ(ReadFile(csv), EXPECTED_REQUEST_CSV);
    EXPECT_EQ(log->GetSent(), 3u);
    EXPECT_EQ(log->GetCompleted(), 2u);
    EXPECT_EQ(log->GetFailed(), 1u);
    const std::map<std::string, uint64_t> reasons{{"timeout", 1}};
    EXPECT_EQ(log->GetFailureReasons(), reasons);
    EXPECT_TRUE(log->CheckAccounting());
    EXPECT_EQ(log->Summary(), "sent=3 completed=2 failed=1 (timeout=1) open-at-stop=0");
    // the scenario fires two completed records and one that timed out
    EXPECT_TRUE(
        AdcExpectAccounting(*log, AdcAccountingExpectation::Completed(2).Failed("timeout", 1)));
    // Completed latencies in completion order: 12.5 ms, then 0.250001 ms.
    const std::vector<double>& lat = log->GetCompletedLatenciesMs();
    ASSERT_EQ(lat.size(), 2u);
    EXPECT_NEAR(lat[0], 12.5, 1e-9);
    EXPECT_NEAR(lat[1], 0.250001, 1e-9);
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, RequestLogAccountingFailsWhenARequestNeverEnds)
{
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>(); // no file: counters only
    const std::vector<AdcRequestRecord> records = ScenarioRecords();
    for (const AdcRequestRecord& r : records)
    {
        log->NotifySent(r);
    }
    log->Record(records[0]);
    log->Record(records[2]);
    log->Record(MakeRecord(9, "10.0.0.4", 4, "/", "", "", Seconds(4), Seconds(5), 0, "reset"));
    log->NotifySent(records[0]); // 4 sent, 3 ended
    EXPECT_FALSE(log->CheckAccounting());
    EXPECT_EQ(log->GetFailed(), 2u);
    EXPECT_NE(log->Summary().find("(reset=1, timeout=1)"), std::string::npos) << log->Summary();
    EXPECT_NE(log->Summary().find("MISMATCH"), std::string::npos) << log->Summary();
    log->Record(records[1]);
    EXPECT_TRUE(log->CheckAccounting());
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, RequestLogRejectsApplicationsWithoutTheTraces)
{
    NodeContainer nodes;
    nodes.Create(1);
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9));
    InternetStackHelper().Install(nodes);
    ApplicationContainer sink = sinkHelper.Install(nodes.Get(0));
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    try
    {
        log->Watch(sink.Get(0));
        ADD_FAILURE() << "no exception";
    }
    catch (const AdcConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("RequestSent"), std::string::npos) << e.what();
    }
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, DisposedLogAndSamplerStopListening)
{
    // Their sinks hold raw pointers, so disposing must disconnect them.
    Ptr<TraceHelperTestRequestApp> app = CreateObject<TraceHelperTestRequestApp>();
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->Watch(app);
    const AdcRequestRecord r = ScenarioRecords()[0];
    app->FireSent(r);
    log->Dispose();
    app->FireSent(r);
    app->FireDone(r);
    EXPECT_EQ(log->GetSent(), 1u);
    EXPECT_EQ(log->GetCompleted(), 0u);

    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs = PointToPointHelper().Install(nodes);
    Ptr<AdcThroughputSampler> s = CreateObject<AdcThroughputSampler>();
    s->WatchDevice(devs.Get(0), "d0");
    const Address peer = devs.Get(1)->GetAddress();
    devs.Get(0)->Send(Create<Packet>(100), peer, 0x0800);
    EXPECT_EQ(s->GetTotalBytes("d0", "tx"), 100u + 2); // payload + PPP header
    s->Dispose();
    devs.Get(0)->Send(Create<Packet>(100), peer, 0x0800);
    EXPECT_EQ(s->GetTotalBytes("d0", "tx"), 102u);
}

// REQ: CORE-02
TEST(AdcRequestLogStats, MeanAndNearestRankPercentilesOfCompletedRequests)
{
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    EXPECT_EQ(log->GetMeanLatencyMs(), 0.0);
    EXPECT_EQ(log->GetLatencyPercentileMs(0.95), 0.0);
    // Latencies 10, 20, ..., 100 ms (recorded out of order), plus one failure that must not
    // count: mean 55; nearest rank p50 = 5th value = 50, p95 = ceil(9.5) = 10th = 100,
    // p10 = 1st = 10, p0 = the smallest.
    const int order[] = {7, 3, 10, 1, 5, 9, 2, 8, 4, 6};
    for (int k : order)
    {
        AdcRequestRecord r;
        r.requestId = k;
        r.start = Seconds(1);
        r.end = Seconds(1) + MilliSeconds(10 * k);
        r.outcome = AdcRequestOutcome::COMPLETED;
        log->NotifySent(r);
        log->Record(r);
    }
    AdcRequestRecord failed;
    failed.requestId = 11;
    failed.start = Seconds(1);
    failed.end = Seconds(9);
    failed.outcome = AdcRequestOutcome::FAILED;
    failed.reason = "timeout";
    log->NotifySent(failed);
    log->Record(failed);
    EXPECT_DOUBLE_EQ(log->GetMeanLatencyMs(), 55.0);
    EXPECT_DOUBLE_EQ(log->GetLatencyPercentileMs(0.5), 50.0);
    EXPECT_DOUBLE_EQ(log->GetLatencyPercentileMs(0.95), 100.0);
    EXPECT_DOUBLE_EQ(log->GetLatencyPercentileMs(0.1), 10.0);
    EXPECT_DOUBLE_EQ(log->GetLatencyPercentileMs(0.0), 10.0);
    EXPECT_TRUE(log->CheckAccounting());
}

namespace
{

/// Shorthand for the expectations below.
using Expect = AdcAccountingExpectation;

/// \param t a tally \param outcome how a request ended \param reason its reason: one more
/// request sent and ended
void
SendAndEnd(AdcRequestTally& t, AdcRequestOutcome outcome, const std::string& reason = "")
{
    AdcRequestRecord r;
    r.outcome = outcome;
    r.reason = reason;
    t.CountSent();
    t.CountEnd(r);
}

/// \return 5 requests sent: 2 completed, 1 failed "timeout", 1 failed "reset", 1 open at stop
AdcRequestTally
FiveSent()
{
    AdcRequestTally t;
    SendAndEnd(t, AdcRequestOutcome::COMPLETED);
    SendAndEnd(t, AdcRequestOutcome::FAILED, "timeout");
    SendAndEnd(t, AdcRequestOutcome::COMPLETED);
    SendAndEnd(t, AdcRequestOutcome::OPEN_AT_STOP);
    SendAndEnd(t, AdcRequestOutcome::FAILED, "reset");
    return t;
}

/// \return exactly what FiveSent() holds
Expect
FiveSentExactly()
{
    return Expect::Completed(2).Failed("timeout", 1).Failed("reset", 1).OpenAtStop(1);
}

} // namespace

// REQ: CORE-02
TEST(AdcRequestTally, CountsEachOutcomeApartAndAddsUp)
{
    AdcRequestTally t = FiveSent();
    EXPECT_EQ(t.sent, 5u);
    EXPECT_EQ(t.completed, 2u);
    EXPECT_EQ(t.failed, 2u);
    EXPECT_EQ(t.openAtStop, 1u);
    EXPECT_EQ(t.failureReasons, (std::map<std::string, uint64_t>{{"reset", 1}, {"timeout", 1}}));
    EXPECT_EQ(t.GetEnded(), 5u);
    EXPECT_TRUE(t.IsBalanced());
    EXPECT_EQ(t.ToString(), "sent=5 completed=2 failed=2 (reset=1, timeout=1) open-at-stop=1");
    AdcRequestTally sum = t;
    sum += t;
    EXPECT_EQ(sum.ToString(), "sent=10 completed=4 failed=4 (reset=2, timeout=2) open-at-stop=2");
    t.CountSent();
    EXPECT_FALSE(t.IsBalanced());
    // a failure without a reason still counts, under a name
    AdcRequestTally u;
    SendAndEnd(u, AdcRequestOutcome::FAILED);
    EXPECT_EQ(u.ToString(), "sent=1 completed=0 failed=1 (unspecified=1) open-at-stop=0");
}

// REQ: CORE-02
TEST(AdcAccountingExpectation, CountsThatMeetTheExpectationGiveNoMessage)
{
    const AdcRequestTally t = FiveSent();
    EXPECT_EQ(AdcAccountingMismatch(t, FiveSentExactly()), "");
    EXPECT_EQ(
        AdcAccountingMismatch(
            t,
            Expect::CompletedAtLeast(1).Failed("timeout", 1).Failed("reset", 1).OpenAtStop(1)),
        "");
    EXPECT_EQ(AdcAccountingMismatch(t,
                                    Expect::CompletedBetween(2, 3)
                                        .FailedBetween("timeout", 0, 1)
                                        .FailedBetween("reset", 1, 4)
                                        .OpenAtStop(1)),
              "");
    EXPECT_EQ(AdcAccountingMismatch(t, Expect::Completed(2).AnyFailures().OpenAtStop(1)), "");
    EXPECT_TRUE(AdcExpectAccounting(t, FiveSentExactly()));
    // nothing sent, nothing expected
    EXPECT_EQ(AdcAccountingMismatch(AdcRequestTally(), Expect::Completed(0)), "");
}

// REQ: CORE-02
TEST(AdcAccountingExpectation, EveryDifferenceIsNamed)
{
    const AdcRequestTally t = FiveSent();
    // fewer completed than expected, exactly or at least; more than expected
    EXPECT_EQ(AdcAccountingMismatch(
                  t,
                  Expect::Completed(3).Failed("timeout", 1).Failed("reset", 1).OpenAtStop(1)),
              "completed 2 < expected 3");
    EXPECT_EQ(
        AdcAccountingMismatch(
            t,
            Expect::CompletedAtLeast(5).Failed("timeout", 1).Failed("reset", 1).OpenAtStop(1)),
        "completed 2 < expected at least 5");
    EXPECT_EQ(AdcAccountingMismatch(
                  t,
                  Expect::Completed(1).Failed("timeout", 1).Failed("reset", 1).OpenAtStop(1)),
              "completed 2 > expected 1");
    EXPECT_EQ(
        AdcAccountingMismatch(
            t,
            Expect::CompletedBetween(0, 1).Failed("timeout", 1).Failed("reset", 1).OpenAtStop(1)),
        "completed 2 > expected 0..1");
    // open at stop, where none is expected unless said
    EXPECT_EQ(
        AdcAccountingMismatch(t, Expect::Completed(2).Failed("timeout", 1).Failed("reset", 1)),
        "open at stop 1 > expected 0");
    EXPECT_EQ(AdcAccountingMismatch(t, FiveSentExactly().OpenAtStop(2)),
              "open at stop 1 < expected 2");
    // a failure reason not expected
    EXPECT_EQ(AdcAccountingMismatch(t, Expect::Completed(2).Failed("timeout", 1).OpenAtStop(1)),
              "failures reset=1 not expected");
    // an expected reason with another count, or that did not occur at all
    EXPECT_EQ(AdcAccountingMismatch(t, FiveSentExactly().Failed("timeout", 2)),
              "failures timeout=1 < expected 2");
    EXPECT_EQ(AdcAccountingMismatch(t, FiveSentExactly().FailedBetween("timeout", 2, 3)),
              "failures timeout=1 < expected 2..3");
    EXPECT_EQ(AdcAccountingMismatch(t, FiveSentExactly().Failed("reset", 0)),
              "failures reset=1 > expected 0");
    EXPECT_EQ(AdcAccountingMismatch(t, FiveSentExactly().Failed("connect-failed", 1)),
              "failures connect-failed=0 < expected 1");
    // AnyFailures lets failures pass, not the rest
    EXPECT_EQ(AdcAccountingMismatch(t, Expect::Completed(3).AnyFailures()),
              "completed 2 < expected 3; open at stop 1 > expected 0");
    // every difference at once, in a fixed order
    EXPECT_EQ(AdcAccountingMismatch(t, Expect::Completed(5)),
              "completed 2 < expected 5; open at stop 1 > expected 0; failures reset=1 not "
              "expected; failures timeout=1 not expected");
}

// REQ: CORE-02
TEST(AdcAccountingExpectation, RequestsNotEndedExactlyOnceFailWhateverIsExpected)
{
    AdcRequestTally open = FiveSent();
    open.CountSent();
    open.CountSent(); // two more sent, never ended
    EXPECT_EQ(AdcAccountingMismatch(open, FiveSentExactly()),
              "sent 7 but 5 ended (2 still open, never ended)");
    EXPECT_NE(AdcAccountingMismatch(open, Expect::CompletedAtLeast(0).AnyFailures().OpenAtStop(1)),
              "");
    AdcRequestTally twice = FiveSent();
    AdcRequestRecord again;
    again.outcome = AdcRequestOutcome::COMPLETED;
    twice.CountEnd(again); // a request ended a second time
    EXPECT_EQ(AdcAccountingMismatch(
                  twice,
                  Expect::Completed(3).Failed("timeout", 1).Failed("reset", 1).OpenAtStop(1)),
              "sent 5 but 6 ended (some ended more than once)");
}

// REQ: CORE-02
TEST(AdcAccountingExpectation, RangesPrintAndRejectEmptyOnesAndTheAssertionExplains)
{
    EXPECT_EQ(AdcCountRange::Exactly(5).ToString(), "5");
    EXPECT_EQ(AdcCountRange::AtLeast(5).ToString(), "at least 5");
    EXPECT_EQ(AdcCountRange::Between(2, 7).ToString(), "2..7");
    EXPECT_TRUE(AdcCountRange::Between(2, 7).Contains(2));
    EXPECT_TRUE(AdcCountRange::Between(2, 7).Contains(7));
    EXPECT_FALSE(AdcCountRange::Between(2, 7).Contains(8));
    EXPECT_FALSE(AdcCountRange::Exactly(0).Contains(1));
    EXPECT_THROW(AdcCountRange::Between(3, 2), AdcConfigError);
    EXPECT_THROW(Expect::Completed(1).FailedBetween("timeout", 3, 2), AdcConfigError);

    const ::testing::AssertionResult r =
        AdcExpectAccounting(FiveSent(), FiveSentExactly().Failed("timeout", 2));
    EXPECT_FALSE(r);
    const std::string msg = r.message();
    EXPECT_NE(msg.find("failures timeout=1 < expected 2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[sent=5 completed=2 failed=2 (reset=1, timeout=1) open-at-stop=1]"),
              std::string::npos)
        << msg;
}

// REQ: CORE-02
TEST_F(AdcTraceHelperTest, RequestLogCountsOpenAtStopApartAndChecksExpectations)
{
    const std::string csv = ::testing::TempDir() + "adc-requests-open-at-stop.csv";
    Ptr<AdcRequestLog> log = CreateObject<AdcRequestLog>();
    log->SetAttribute("FileName", StringValue(csv));
    std::vector<AdcRequestRecord> records = ScenarioRecords();
    records[1].outcome = AdcRequestOutcome::OPEN_AT_STOP; // the second was open at the stop
    records[1].responseBytes = 0;
    records[1].status = 0;
    for (const AdcRequestRecord& r : records)
    {
        log->NotifySent(r);
        log->Record(r);
    }
    log->Close();

    EXPECT_EQ(ReadLines(csv).at(2),
              "7,10.0.0.2,2,\"/search?q=a,b\",S2,\"client>\"\"edge\"\">S2\",2.000000000,"
              "2.000250001,0.250001,102,0,0,OPEN_AT_STOP,");
    EXPECT_EQ(log->GetOpenAtStop(), 1u);
    EXPECT_EQ(log->GetCompleted(), 1u);
    EXPECT_EQ(log->GetFailed(), 1u);
    // open at stop is an ending: the balance holds
    EXPECT_TRUE(log->CheckAccounting());
    EXPECT_EQ(log->Summary(), "sent=3 completed=1 failed=1 (timeout=1) open-at-stop=1");
    // only the completed request has a latency
    EXPECT_EQ(log->GetCompletedLatenciesMs().size(), 1u);
    const Expect exact = Expect::Completed(1).Failed("timeout", 1).OpenAtStop(1);
    EXPECT_EQ(log->CheckExpectation(exact), "");
    EXPECT_TRUE(AdcExpectAccounting(*log, exact));
    const Expect noneOpen = Expect::Completed(1).Failed("timeout", 1);
    EXPECT_EQ(log->CheckExpectation(noneOpen), "open at stop 1 > expected 0");
    EXPECT_EQ(log->CheckExpectation(noneOpen), AdcAccountingMismatch(log->GetTally(), noneOpen));
    EXPECT_FALSE(AdcExpectAccounting(*log, noneOpen));
}
