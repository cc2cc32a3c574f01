#!/usr/bin/env python3
"""Check ./adc sweep's engine (utils/adc-sweep.py) on a real experiment.

Usage: check-sweep.py --work DIR --param NAME=V1,V2 --runs K -- PROGRAM [OPTION...]

1. Student's t quantiles against a printed table (two-sided 95 %: df 1 12.706, 2 4.303,
   4 2.776, 10 2.228, 30 2.042), so the confidence intervals rest on known values.
2. Runs the sweep through GNU parallel (2 jobs) and checks sweep.csv: one block of summary rows
   per grid point and run (values x runs runs, every one present), each run's summary.csv equal
   byte for byte to a standalone run of the program with the same options and run number (the
   sweep changes nothing but the scheduling), and at least two runs of a grid point differing
   (the run number reaches the program).
3. Recomputes sweep-stats.csv from sweep.csv with the statistics module and the table's t.
4. Plots exist for every numeric column.
5. Bad input is a clear error: an option the program does not have, a repeated value.
"""
import argparse
import csv
import filecmp
import math
import pathlib
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sweep = __import__("adc-sweep")

T975 = {1: 12.706, 2: 4.303, 4: 2.776, 10: 2.228, 30: 2.042}

failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
        print(f"FAIL: {message}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--param", required=True)
    ap.add_argument("--runs", type=int, required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    ns = ap.parse_args()
    cmd = [c for c in ns.cmd if c != "--"]
    program, options = cmd[0], cmd[1:]
    work = pathlib.Path(ns.work)
    name, values = ns.param.split("=", 1)
    values = values.split(",")

    # 1. t quantiles.
    for df, t in T975.items():
        got = sweep.t_quantile(0.975, df)
        check(abs(got - t) < 0.0015, f"t(0.975, {df}) = {got:.4f}, the table says {t}")

    # 2. The sweep.
    out = work / "sweep"
    status = subprocess.run([sys.executable, str(HERE / "adc-sweep.py"), "run", "--program",
                             program, "--out", str(out), "--param", ns.param, "--runs",
                             str(ns.runs), "--jobs", "2", "--", *options]).returncode
    check(status == 0, f"adc-sweep.py run ended with status {status}")
    with open(out / "sweep.csv", newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    check(header[:2] == [name, "run"], f"sweep.csv starts with {header[:2]}, not {[name, 'run']}")
    seen = {(r[0], r[1]) for r in rows}
    want = {(v, str(k)) for v in values for k in range(1, ns.runs + 1)}
    check(seen == want, f"sweep.csv has (value, run) {sorted(seen)}, want {sorted(want)}")
    per_run = {}
    for r in rows:
        per_run.setdefault((r[0], r[1]), []).append(r[2:])
    sizes = {len(v) for v in per_run.values()}
    check(len(sizes) == 1, f"runs have different numbers of summary rows: {sizes}")
    # Byte for byte against standalone runs (first and last grid value, last run).
    for v in (values[0], values[-1]):
        alone = work / f"alone-{v}"
        subprocess.run([program, *options, f"--{name}={v}", f"--run={ns.runs}",
                        f"--outputDir={alone}"], check=True, stdout=subprocess.DEVNULL)
        swept = out / "runs" / f"{name}={v}" / f"run-{ns.runs}" / "summary.csv"
        check(filecmp.cmp(alone / "summary.csv", swept, shallow=False),
              f"{swept} differs from a standalone run with {name}={v} --run={ns.runs}")
    for v in values:
        distinct = {tuple(map(tuple, per_run[(v, str(k))])) for k in range(1, ns.runs + 1)}
        check(len(distinct) >= 2, f"{name}={v}: every run gave the same summary; the run "
              "number does not reach the program")

    # 3. Statistics, recomputed.
    with open(out / "sweep-stats.csv", newline="") as f:
        stats = list(csv.DictReader(f))
    key = header[2]
    checked = 0
    for s in stats:
        column = header.index(s["column"])
        xs = [float(r[column]) for r in rows if r[0] == s[name] and r[2] == s[key]]
        check(int(s["runs"]) == len(xs) == ns.runs,
              f"{s[name]} {s[key]} {s['column']}: runs {s['runs']}, rows {len(xs)}")
        m = statistics.mean(xs)
        half = T975[ns.runs - 1] * statistics.stdev(xs) / math.sqrt(len(xs))
        tol = 1e-4 * max(1.0, abs(m), half)
        check(abs(float(s["mean"]) - m) <= tol, f"{s['column']}: mean {s['mean']}, want {m}")
        check(abs(float(s["ci95_high"]) - (m + half)) <= tol and
              abs(float(s["ci95_low"]) - (m - half)) <= tol,
              f"{s['column']}: CI [{s['ci95_low']}, {s['ci95_high']}], want "
              f"[{m - half}, {m + half}]")
        checked += 1
    check(checked >= len(values), f"only {checked} statistics rows")

    # 4. Plots.
    subprocess.run([sys.executable, str(HERE / "adc-sweep.py"), "plot", str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    for column in {s["column"] for s in stats}:
        png = out / f"sweep-{sweep.safe(column)}.png"
        check(png.is_file() and png.stat().st_size > 1000, f"no plot {png}")

    # 5. Errors.
    for bad, words in ((["--param", "noSuchOption=1,2"], ["noSuchOption", "allowed:"]),
                       (["--param", f"{name}={values[0]},{values[0]}"], ["repeated"])):
        p = subprocess.run([sys.executable, str(HERE / "adc-sweep.py"), "run", "--program",
                            program, "--out", str(work / "bad"), *bad, "--", *options],
                           capture_output=True, text=True)
        check(p.returncode != 0 and all(w in p.stderr for w in words),
              f"{bad}: status {p.returncode}, stderr {p.stderr.strip()!r}")

    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print(f"sweep OK: {len(rows)} rows, {checked} statistics checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
