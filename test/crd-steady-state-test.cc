/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * crd-compare's measurement (issue 31 item 1): requests counted as their clients saw them, in
 * the measurement window only. The records below are built as AdcHttpClient fills them (the
 * response's Via entries, then "; X-Cache: ..." when a cache answered), so each expected
 * figure follows from the definitions in examples/crd-compare-window.h, counted by hand. The
 * experiment's conclusion itself (URLHASH above ROUNDROBIN in steady state) is the CTest
 * crd-compare-urlhash-beats-roundrobin-in-steady-state (utils/check-crd-steady-state.py).
 */

#include "../examples/crd-compare-window.h"

#include "ns3/nstime.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

AdcRequestRecord
Done(double start, double latencyMs, const std::string& path, uint64_t bytes)
{
    AdcRequestRecord r;
    r.start = Seconds(start);
    r.end = r.start + MicroSeconds(static_cast<int64_t>(latencyMs * 1000));
    r.path = path;
    r.responseBytes = bytes;
    r.status = 200;
    r.outcome = AdcRequestOutcome::COMPLETED;
    return r;
}

AdcRequestRecord
Failed(double start, const std::string& reason)
{
    AdcRequestRecord r;
    r.start = Seconds(start);
    r.end = r.start + Seconds(8);
    r.outcome = AdcRequestOutcome::FAILED;
    r.reason = reason;
    return r;
}

} // namespace

// REQ: CRD-08, CRD-09, CRD-11 (hit, miss and bypass as the client's response shows them)
TEST(CrdSteadyState, ClientViewFromViaAndXCache)
{
    EXPECT_EQ(CrdClassify(Done(1, 1, "1.1 CRS3, 1.1 L2NS1; X-Cache: HIT", 1)), CrdClientView::HIT);
    EXPECT_EQ(CrdClassify(Done(1, 1, "1.1 L2NS3, 1.1 CRS1, 1.1 L2NS4; X-Cache: MISS", 1)),
              CrdClientView::MISS);
    EXPECT_EQ(CrdClassify(Done(1, 1, "1.1 L2NS2", 1)), CrdClientView::BYPASS);
    EXPECT_EQ(CrdClassify(Failed(1, "timeout")), CrdClientView::FAILED);
}

// REQ: CRD-01, CRD-06
TEST(CrdSteadyState, OnlyRequestsIssuedInTheWindowCount)
{
    CrdCompareWindow w(9, 17, {"L2NS1", "L2NS2"}, {"CRS1", "CRS2"});
    w.Record(Done(8.999, 50, "1.1 L2NS1, 1.1 CRS1, 1.1 L2NS1; X-Cache: MISS", 1000)); // warm-up
    w.Record(Done(9.0, 10, "1.1 CRS1, 1.1 L2NS1; X-Cache: HIT", 100));
    w.Record(Done(10.0, 20, "1.1 CRS2, 1.1 L2NS2; X-Cache: HIT", 100));
    w.Record(Done(11.0, 30, "1.1 CRS2, 1.1 L2NS2; X-Cache: HIT", 100));
    w.Record(Done(12.0, 40, "1.1 L2NS2, 1.1 CRS1, 1.1 L2NS1; X-Cache: MISS", 300));
    w.Record(Done(13.0, 60, "1.1 L2NS2", 500));
    w.Record(Failed(14.0, "http-status-502"));
    w.Record(Failed(15.0, "http-status-502"));
    w.Record(Failed(16.0, "timeout"));
    w.Record(Done(17.0, 90, "1.1 CRS1, 1.1 L2NS1; X-Cache: HIT", 100)); // after the window
    w.GatherRanks(30);

    EXPECT_EQ(w.Requests(), 8U);
    EXPECT_EQ(w.Count(CrdClientView::HIT), 3U);
    EXPECT_EQ(w.Count(CrdClientView::MISS), 1U);
    EXPECT_EQ(w.Count(CrdClientView::BYPASS), 1U);
    EXPECT_EQ(w.Count(CrdClientView::FAILED), 3U);
    EXPECT_DOUBLE_EQ(w.HitRatio(), 3.0 / 4);
    EXPECT_DOUBLE_EQ(w.ByteHitRatio(), 300.0 / 600);
    EXPECT_EQ(w.CompletedBytes(), 1100U);
    EXPECT_EQ(w.Failures(), "http-status-502:2;timeout:1");
    // Latencies 10, 20, 30, 40, 60 ms: nearest rank p50 = the 3rd, p99 = the 5th.
    EXPECT_NEAR(w.MeanMs(), 32.0, 1e-6);
    EXPECT_NEAR(w.PercentileMs(0.50), 30.0, 1e-6);
    EXPECT_NEAR(w.PercentileMs(0.99), 60.0, 1e-6);
    // The lower appliance that answered is the last one the response's Via names: L2NS1 for
    // the first hit and the miss, L2NS2 for two hits and the bypass.
    EXPECT_DOUBLE_EQ(w.MaxLowerShare(), 3.0 / 5);
}
