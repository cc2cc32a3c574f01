#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check utils/adc-merge-ranks.py (REQ: CORE-01) on files written as two MPI ranks write them.

Usage: check-merge-ranks.py WORK-DIR

A one-process run's request log is in completion order and its samples in time order; the
ranks' files, merged, must give exactly those rows in that order:
1. requests.rank0.csv and requests.rank1.csv, each in its own completion order, merge into
   requests.csv ordered by end_s (then client and request id at a tie);
2. a time_s file merges by time, rank 0 first at a tie, and the ranks' "ALL" samples of one
   interval add up to one row; a start_s file by start then client;
3. a file with no time column keeps rank order, and a file only one rank wrote its own order;
4. the rank files move to ranks/, and a file with no rank suffix is left alone;
5. ranks whose headers differ are an error naming the file, and nothing is merged;
6. --gather: the parts' summary rows one after the other, a file equal in every part once,
   a file of one part copied, differing headers an error.
"""
import csv
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


def write(path, rows):
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def read(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def merge(folder):
    return subprocess.run([sys.executable, str(HERE / "adc-merge-ranks.py"), str(folder)],
                          capture_output=True, text=True)


def main():
    work = pathlib.Path(sys.argv[1])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    h = ["client_id", "request_id", "url", "end_s", "outcome"]
    # Completion order of one process: (end_s, client, request)
    whole = [["3", "1", "/a", "1.5", "COMPLETED"], ["0", "1", "/b", "1.75", "COMPLETED"],
             ["1", "1", "/c", "2.0", "FAILED"], ["2", "2", "/d", "2.0", "COMPLETED"],
             ["0", "2", "/e", "10.0", "COMPLETED"]]
    rank = {0: [r for r in whole if int(r[0]) % 2 == 0], 1: [r for r in whole if int(r[0]) % 2]}
    for k, rows in rank.items():
        write(work / f"requests.rank{k}.csv", [h] + rows)
    sh = ["time_s", "name", "direction", "bytes", "throughput_bps"]
    write(work / "samples.rank0.csv", [sh, ["0.5", "c0", "rx", "10", "160.000"],
                                       ["0.5", "ALL", "rx", "10", "160.000"],
                                       ["1.0", "c0", "rx", "20", "320.000"]])
    write(work / "samples.rank1.csv", [sh, ["0.5", "c1", "rx", "30", "480.000"],
                                       ["0.5", "ALL", "rx", "30", "480.000"],
                                       ["0.75", "c1", "rx", "40", "640.000"]])
    write(work / "visits.rank0.csv", [["method", "client", "start_s"], ["RTT", "4", "2.0"]])
    write(work / "visits.rank1.csv", [["method", "client", "start_s"], ["RTT", "3", "2.0"],
                                      ["RTT", "1", "1.0"]])
    write(work / "load.rank0.csv", [["target", "n"], ["b", "2"]])
    write(work / "load.rank1.csv", [["target", "n"], ["a", "1"]])
    write(work / "summary.csv", [["variant", "sent"], ["x", "5"]])
    only = [["variant", "event", "time_s"], ["v", "fail", "6.0"], ["v", "withdraw", "12.05"],
            ["v", "add", "13.0"], ["w", "fail", "6.0"]]
    write(work / "events.rank0.csv", only)
    res = merge(work)
    check(res.returncode == 0, f"merge failed: {res.stderr}")
    check(read(work / "requests.csv") == [h] + whole,
          f"requests.csv not in completion order: {read(work / 'requests.csv')}")
    check(read(work / "samples.csv")[1:] == [["0.5", "c0", "rx", "10", "160.000"],
                                             ["0.5", "ALL", "rx", "40", "640.000"],
                                             ["0.5", "c1", "rx", "30", "480.000"],
                                             ["0.75", "c1", "rx", "40", "640.000"],
                                             ["1.0", "c0", "rx", "20", "320.000"]],
          f"samples.csv not by time (rank 0 first), ALL rows not added up: "
          f"{read(work / 'samples.csv')}")
    check([r[1] for r in read(work / "visits.csv")[1:]] == ["1", "3", "4"],
          f"visits.csv not by start then client: {read(work / 'visits.csv')}")
    check([r[0] for r in read(work / "load.csv")[1:]] == ["b", "a"],
          f"load.csv not in rank order: {read(work / 'load.csv')}")
    check(sorted(p.name for p in (work / "ranks").iterdir()) ==
          sorted([f"{b}.rank{k}.csv" for b in ("requests", "samples", "visits", "load")
                  for k in (0, 1)] + ["events.rank0.csv"]), "rank files not moved to ranks/")
    check(not list(work.glob("*.rank*.csv")), "rank files left beside the merged ones")
    check(read(work / "summary.csv") == [["variant", "sent"], ["x", "5"]], "summary.csv changed")
    check(read(work / "events.csv") == only,
          f"events.csv (one rank's) reordered: {read(work / 'events.csv')}")

    bad = work / "bad"
    bad.mkdir()
    write(bad / "requests.rank0.csv", [h, whole[0]])
    write(bad / "requests.rank1.csv", [h[:-1], whole[1][:-1]])
    res = merge(bad)
    check(res.returncode != 0 and "requests.rank1.csv" in (res.stderr + res.stdout),
          f"differing headers not an error naming the file: {res.returncode} {res.stderr}")
    check(not (bad / "requests.csv").exists(), "a merge with differing headers wrote a file")
    # --gather: one folder from the parts of several distributed runs.
    parts = [work / "gather" / f"part{k}" for k in range(2)]
    for k, part in enumerate(parts):
        part.mkdir(parents=True)
        write(part / "summary.csv", [["method", "visits"], [f"M{k}", str(10 + k)]])
        write(part / "events.csv", [["time_s", "event"], ["40", "congestion"]])
        write(part / f"requests-V{k}.csv", [h, whole[k]])
    out = work / "gather" / "out"
    res = subprocess.run([sys.executable, str(HERE / "adc-merge-ranks.py"), "--gather", str(out)]
                         + [str(p) for p in parts], capture_output=True, text=True)
    check(res.returncode == 0, f"--gather failed: {res.stderr}")
    check(read(out / "summary.csv") == [["method", "visits"], ["M0", "10"], ["M1", "11"]],
          f"--gather: summary rows not one after the other: {read(out / 'summary.csv')}")
    check(read(out / "events.csv") == [["time_s", "event"], ["40", "congestion"]],
          "--gather: a file equal in every part is not kept once")
    check(all((out / f"requests-V{k}.csv").is_file() for k in range(2)),
          "--gather: a file of one part only is not copied")
    write(parts[1] / "summary.csv", [["other"], ["1"]])
    res = subprocess.run([sys.executable, str(HERE / "adc-merge-ranks.py"), "--gather",
                          str(work / "gather" / "out2")] + [str(p) for p in parts],
                         capture_output=True, text=True)
    check(res.returncode != 0 and "summary.csv" in res.stderr,
          "--gather: parts whose summary headers differ are no error")
    print("adc-merge-ranks: " + ("all checks passed" if not failures else
                                 f"{len(failures)} checks failed"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
