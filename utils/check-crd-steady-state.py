#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The main experiment's conclusion at a small size (issue 31, item 7; REQ: CRD-01, CRD-06):
in steady state, balancing the caches by URL hash gives a higher request hit ratio than round
robin, and the gap is the one the caches' partition of the catalogue predicts.

Why. The lower tier sends each cacheable request to one of C caches of K objects each (LRU).
ROUNDROBIN sends any URL to any cache: each cache sees the whole catalogue of N objects, with
the same Zipf popularity, at 1/C of the rate, so its hit ratio is that of one LRU of size K
over N objects. URLHASH sends a URL always to the same cache: each cache sees its own
partition of about N/C objects, so its hit ratio is that of an LRU of size K over N/C objects
(each with C times the probability it had in the whole catalogue). Che's approximation (Che,
Tung and Wang, IEEE JSAC 20(7), 2002; Fricker, Robert and Roberts, ITC 2012) gives an LRU's hit
ratio under independent requests: with p_i the objects' probabilities at that cache, the
characteristic time T solves sum_i (1 - exp(-p_i T)) = K and the hit ratio is
sum_i p_i (1 - exp(-p_i T)). For K < N/C, URLHASH's is the larger: the K places hold the most
popular of N/C objects, not of N (the inequality is strict as soon as round robin's caches
cannot hold the catalogue). This script computes both predictions for the run's parameters.

The control, where the conclusion must not show: caches that hold the whole catalogue
(K >= N). After the warm-up every cache holds every object it was asked for and evicts none,
so both methods hit on every request but the few first requests for an object at a cache:
both ratios near 1 and equal. A measurement that did not separate warm-up from the window (or
counted the caches' view wrongly) fails the control or the main check.

Each figure is also recomputed from requests-V.csv (the clients' log): the rows issued in the
window, a hit or miss by the response's X-Cache, so summary.csv's hit_ratio is checked against
the raw log, not against itself.

Usage: check-crd-steady-state.py --work DIR -- CRD_COMPARE
Exit 0 when every check passes, 1 with what failed, 2 for bad usage.
"""

import argparse
import csv
import pathlib
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_analytic  # noqa: E402  (Che's approximation)

CLIENTS = ["--accessNets=2", "--clientsPerNet=20", "--rate=5", "--objectSize=1000",
           "--zipf=0.8", "--cacheable=0.9", "--caches=3", "--duration=8", "--warmup=4",
           "--pcap=false", "--variants=two-tier-ROUNDROBIN,two-tier-URLHASH"]
ZIPF = 0.8
CACHES = 3
WARMUP = 4.0
DURATION = 8.0
# Main run: N = 200 objects, K = 20 per cache (20,000 bytes of 1,000-byte bodies: the store
# counts body bytes). Control: N = 30, K = 30.
MAIN = {"catalogue": 200, "capacity": 20}
CONTROL = {"catalogue": 30, "capacity": 30}
# Required gap: a third of Che's predicted one (0.27 for the main run): the prediction's own
# error for Zipf popularity is a few percent, the hash's partition is not exactly N/C objects
# per cache, and ~700 cacheable requests in the window give a sampling error of about 0.04 at
# two standard deviations.
GAP_SHARE = 1 / 3
TOLERANCE = 0.1  # measured against Che's prediction, same reasons


def predictions(n, k):
    """(ROUNDROBIN, URLHASH) predicted hit ratios for catalogue n, caches of k objects."""
    return adc_analytic.partitioned_lru(adc_analytic.zipf(n, ZIPF), k, CACHES)


def run(program, out, size):
    if out.exists():
        shutil.rmtree(out)
    args = [program, f"--outputDir={out}", f"--catalogue={size['catalogue']}",
            f"--cacheCapacity={size['capacity'] * 1000}"] + CLIENTS
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)} exited {done.returncode}:\n{done.stderr}")
    with open(out / "summary.csv", newline="") as f:
        return {r["variant"]: r for r in csv.DictReader(f)}


def from_log(path):
    """(hits, misses) of the rows issued in the window, as the client's X-Cache shows."""
    hits = misses = 0
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if WARMUP <= float(r["start_s"]) < DURATION and r["outcome"] == "COMPLETED":
                hits += "X-Cache: HIT" in r["path"]
                misses += "X-Cache: MISS" in r["path"]
    return hits, misses


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", required=True, type=pathlib.Path)
    ap.add_argument("program", nargs=1)
    a = ap.parse_args()
    failures = []
    for name, size in (("main", MAIN), ("control", CONTROL)):
        out = a.work / name
        rows = run(a.program[0], out, size)
        rr_pred, uh_pred = predictions(size["catalogue"], size["capacity"])
        got = {}
        for variant, pred in (("two-tier-ROUNDROBIN", rr_pred), ("two-tier-URLHASH", uh_pred)):
            r = rows[variant]
            ratio = float(r["hit_ratio"])
            hits, misses = from_log(out / f"requests-{variant}.csv")
            print(f"{name} {variant}: hit_ratio {ratio:.3f} (Che {pred:.3f}), window "
                  f"{r['window_requests']} requests: {hits} hits, {misses} misses, "
                  f"{r['bypasses']} bypasses, {r['window_failed']} failed")
            if (int(r["hits"]), int(r["misses"])) != (hits, misses):
                failures.append(f"{name} {variant}: summary hits/misses {r['hits']}/"
                                f"{r['misses']}, the log's window {hits}/{misses}")
            if int(r["window_failed"]) != 0:
                failures.append(f"{name} {variant}: {r['window_failed']} failed ({r['failures']})")
            if abs(ratio - pred) > TOLERANCE:
                failures.append(f"{name} {variant}: hit_ratio {ratio:.3f}, Che's approximation "
                                f"{pred:.3f} (allowed +-{TOLERANCE})")
            got[variant] = ratio
        gap = got["two-tier-URLHASH"] - got["two-tier-ROUNDROBIN"]
        if name == "main" and gap < GAP_SHARE * (uh_pred - rr_pred):
            failures.append(f"main: URLHASH - ROUNDROBIN = {gap:.3f}, expected at least "
                            f"{GAP_SHARE * (uh_pred - rr_pred):.3f} (Che: {uh_pred - rr_pred:.3f})")
        if name == "control" and abs(gap) > 0.03:
            failures.append(f"control (caches hold the catalogue): URLHASH - ROUNDROBIN = "
                            f"{gap:.3f}, expected equal within 0.03")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
