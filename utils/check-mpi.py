#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check a distributed (MPI) run against the one-process run of the same experiment.

Usage: check-mpi.py --work DIR --ranks N [--log NAME] [--also NAME]... [--mpirun PATH]
                    -- PROGRAM [OPTION...]

Runs PROGRAM OPTION... once as one process and once under mpirun on N ranks (same seed and run
number), merges the ranks' files with adc-merge-ranks.py, and checks (REQ: CORE-01, CRD-01):

1. the distributed run really ran distributed: every rank wrote its own request log
   (NAME.rankK.csv for K in 0..N-1), and with --spread more than one of them holds requests
   (without it, a plan that keeps clients off rank 0 still needs the cut links both ways for any
   request to complete);
2. the merged request log NAME has the same requests as the one-process log, each with the same
   outcome: every row equal, column for column (client, request id, URL, server, path, status,
   outcome, reason, start and end times, latency, bytes), as a set (rows at the same time may
   be in another order);
   files named by --also merge into the one-process file's rows too;
3. at least one request completed (a stalled path fails) and summary.csv is the same, every
   column of every row (the ranks' counts summed, their latencies gathered).

ns-3's distributed engine hands a packet from another rank to the simulator when a time window
closes, so among events at the same simulated time it may run after those it ran before in one
process. Where that changes timings (CSMA LANs where a tie decides a backoff), --same compares
what each client asked for and got (the named columns of its requests, in the order it sent
them) instead of whole rows, and --tolerance bounds the relative difference of summary.csv's
times; counts must still be equal.

Exit 0 when all hold, 1 with the differences otherwise.
"""
import argparse
import csv
import os
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
        print(f"FAIL: {message}")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run(cmd, out):
    out.mkdir(parents=True, exist_ok=True)
    print("+ " + " ".join(cmd), flush=True)
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    (out / "stdout.txt").write_text(res.stdout)
    if res.returncode != 0:
        print(res.stdout[-3000:])
        sys.exit(f"check-mpi: {' '.join(cmd)} exited with {res.returncode}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--work", required=True)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--log", default="requests-two-tier-URLHASH.csv")
    p.add_argument("--same", default="",
                   help="compare only these columns of each client's requests, in start order "
                        "(comma-separated); default: whole rows, times included")
    p.add_argument("--client", default="client_id", help="the log's client column")
    p.add_argument("--tolerance", type=float, default=0.0,
                   help="relative difference allowed in summary.csv's decimal columns (times); "
                        "whole numbers (counts) must always be equal")
    p.add_argument("--start", default="start_s", help="the log's start-time column")
    p.add_argument("--spread", action="store_true",
                   help="the plan puts clients on several ranks: at least two logs hold requests")
    p.add_argument("--also", action="append", default=[],
                   help="another per-rank CSV that must merge into the one-process file")
    p.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    p.add_argument("program", nargs=argparse.REMAINDER)
    a = p.parse_args()
    prog = [x for x in a.program if x != "--"]
    check(a.ranks >= 2, f"--ranks {a.ranks}: a distributed check needs at least 2")
    work = pathlib.Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    one, many = work / "one", work / f"ranks{a.ranks}"
    run(prog + [f"--outputDir={one}"], one)
    mpirun = [a.mpirun, "-np", str(a.ranks), "--oversubscribe"]
    if os.geteuid() == 0:
        mpirun.append("--allow-run-as-root")
    run(mpirun + prog + [f"--outputDir={many}"], many)

    base, ext = os.path.splitext(a.log)
    for r in range(a.ranks):
        check((many / f"{base}.rank{r}{ext}").is_file(), f"rank {r} wrote no {base}.rank{r}{ext}")
    per_rank = [len(rows(many / f"{base}.rank{r}{ext}")) for r in range(a.ranks)
                if (many / f"{base}.rank{r}{ext}").is_file()]
    print(f"requests per rank: {per_rank}")
    if a.spread:
        check(sum(1 for n in per_rank if n > 0) >= 2,
              f"requests per rank {per_rank}: fewer than two ranks simulated clients")
    subprocess.run([sys.executable, str(HERE / "adc-merge-ranks.py"), str(many)], check=True)

    single = rows(one / a.log)
    merged = rows(many / a.log)
    done = sum(r["outcome"] in ("COMPLETED", "completed") for r in single)
    check(done > 0, "the one-process run completed no request")
    check(list(single[0].keys()) == list(merged[0].keys()) if single and merged else False,
          "the merged log's columns differ from the one-process log's")
    if a.same:
        # Each client's requests in the order it sent them: the same ones, the same outcomes.
        cols = a.same.split(",")
        def per_client(log):
            out = {}
            for r in sorted(log, key=lambda r: (r[a.client], float(r[a.start]))):
                out.setdefault(r[a.client], []).append(tuple(r[c] for c in cols))
            return sorted((c, k, v) for c, seq in out.items() for k, v in enumerate(seq))
        s1, s2 = per_client(single), per_client(merged)
        starts = lambda log: sorted((r[a.client], float(r[a.start])) for r in log)
        shift = max((abs(x[1] - y[1]) for x, y in zip(starts(single), starts(merged))),
                    default=0)
        print(f"compared per client, in start order: {cols}; largest start time difference "
              f"{shift * 1e6:.0f} us")
    else:
        s1 = sorted(tuple(r.values()) for r in single)
        s2 = sorted(tuple(r.values()) for r in merged)
    check(len(s1) == len(s2), f"{len(s1)} requests in one process, {len(s2)} on {a.ranks} ranks")
    diff = [(x, y) for x, y in zip(s1, s2) if x != y]
    for x, y in diff[:5]:
        print(f"  one process: {x}\n  {a.ranks} ranks:  {y}")
    check(not diff, f"{len(diff)} of {len(s1)} requests differ between one process and "
                    f"{a.ranks} ranks")

    for name in a.also:
        o, m = rows(one / name), rows(many / name)
        check(len(o) > 0, f"{name}: empty in the one-process run")
        same = sorted(tuple(r.values()) for r in o) == sorted(tuple(r.values()) for r in m)
        check(same, f"{name}: {len(o)} rows in one process, {len(m)} merged from "
                    f"{a.ranks} ranks, not the same rows")
        print(f"{name}: {len(o)} rows, " + ("the same" if same else "DIFFERENT"))

    sum1, sum2 = rows(one / "summary.csv"), rows(many / "summary.csv")
    check(len(sum1) == len(sum2) and len(sum1) > 0,
          f"summary.csv rows: {len(sum1)} in one process, {len(sum2)} on {a.ranks} ranks")
    def close(x, y):
        if x == y:
            return True
        if a.tolerance <= 0 or y is None or "." not in x:
            return False
        try:
            return abs(float(x) - float(y)) <= a.tolerance * max(abs(float(x)), 1e-9)
        except ValueError:
            return False

    for r1, r2 in zip(sum1, sum2):
        for c in r1:
            check(close(r1[c], r2.get(c)), f"summary {next(iter(r1.values()))} {c}: {r1[c]} in one "
                                      f"process, {r2.get(c)} on {a.ranks} ranks")
    print(f"{len(s1)} requests, {done} completed: "
          + ("same on 1 and %d ranks" % a.ranks if not failures else "DIFFERENT"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
