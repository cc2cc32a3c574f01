#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The main experiment on one process and on N MPI ranks: events and packet-hops per second.

Usage: adc-bench-mpi.py --program CRD-COMPARE --ranks N --repeats K --csv FILE [-- OPTION...]

Runs CRD-COMPARE (built against ns-3 with MPI) with --countHops and OPTIONS, K times as one
process and K times under mpirun on N ranks, alternating, and takes the median wall-clock time
of each. Both do the same work: the program prints the events executed and the packets its
devices received (summed over ranks); a pair whose packet-hop counts differ is not a
measurement and fails. Writes one row per rank count (ranks, wall_s, events, packet_hops,
events_per_s, hops_per_s) and the speed-up, and exits 1 on a failed or unequal pair.
"""
import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

LINE = re.compile(r"(\d+) events, (\d+) packet-hops on (\d+) rank")


def run(cmd):
    t0 = time.monotonic()
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    if res.returncode != 0:
        sys.exit(f"adc-bench-mpi: {' '.join(cmd)} exited with {res.returncode}:\n"
                 f"{res.stderr[-2000:]}")
    m = LINE.search(res.stdout)
    if not m:
        sys.exit(f"adc-bench-mpi: no event count in the output of {' '.join(cmd)}")
    return wall, int(m.group(1)), int(m.group(2))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--program", required=True)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--csv", required=True)
    p.add_argument("options", nargs=argparse.REMAINDER)
    a = p.parse_args()
    opts = [o for o in a.options if o != "--"] + ["--countHops=1", "--pcap=0"]
    mpirun = [shutil.which("mpirun") or "mpirun", "-np", str(a.ranks), "--oversubscribe"]
    if os.geteuid() == 0:
        mpirun.append("--allow-run-as-root")
    results = {1: [], a.ranks: []}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(a.repeats):
            for n in (1, a.ranks):
                cmd = ([] if n == 1 else mpirun) + [a.program, f"--outputDir={tmp}/{n}-{k}"]
                results[n].append(run(cmd + opts))
    rows, status = [], 0
    for n, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        events, hops = runs[0][1], runs[0][2]
        if any(r[2] != hops for r in runs):
            status = 1
            print(f"FAIL: packet-hops differ between repeats on {n} ranks: {[r[2] for r in runs]}")
        rows.append({"ranks": n, "wall_s": f"{wall:.3f}", "events": events, "packet_hops": hops,
                     "events_per_s": f"{events / wall:.0f}", "hops_per_s": f"{hops / wall:.0f}"})
    if rows[0]["packet_hops"] != rows[1]["packet_hops"]:
        status = 1
        print(f"FAIL: not the same work: {rows[0]['packet_hops']} packet-hops on one process, "
              f"{rows[1]['packet_hops']} on {a.ranks} ranks")
    with open(a.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    for r in rows:
        print(f"{r['ranks']} rank(s): {r['wall_s']} s (median of {a.repeats}), {r['events']} "
              f"events ({r['events_per_s']}/s), {r['packet_hops']} packet-hops "
              f"({r['hops_per_s']}/s)")
    print(f"speed-up on {a.ranks} ranks: "
          f"{float(rows[0]['wall_s']) / float(rows[1]['wall_s']):.2f}")
    sys.exit(status)


if __name__ == "__main__":
    main()
