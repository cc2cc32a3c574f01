#!/usr/bin/env python3
"""Sweeps of independent runs of an ns3-adc experiment: a parameter grid times RngRun values.

Usage:
  adc-sweep.py run --program BIN --out DIR [--param NAME=V1,V2,...]... [--runs K]
                   [--first-run R] [--jobs J] [--hosts FILE] [--jobs-only] [-- OPTION...]
  adc-sweep.py collect DIR
  adc-sweep.py plot DIR

run      writes DIR/jobs.txt (one shell command per run: the program with --outputDir, the grid
         point's options and the run number: --run, or ns-3's --RngRun for a program without
         --run) and DIR/sweep.json (what each line is), runs the lines
         through GNU parallel (--jobs at a time on this machine, or over the machines of a
         GNU parallel --sshloginfile given with --hosts: they need this checkout and DIR at the
         same paths, e.g. on a shared file system), then collects. --jobs-only stops after
         writing jobs.txt (for a Slurm job array: utils/adc-sweep-slurm.sh).
collect  reads each run's summary.csv and writes DIR/sweep.csv (the grid point, the run and the
         summary row) and DIR/sweep-stats.csv (per grid point, summary row key and numeric
         column: runs, mean, sample standard deviation and the 95 % confidence interval of the
         mean, Student's t with runs - 1 degrees of freedom). A run without its summary.csv is
         an error naming it: no run is dropped silently.
plot     draws DIR/sweep-<column>.png for every numeric column: the mean against the first
         parameter's values with the 95 % interval as error bars, one line per summary row key
         (and other grid values); with no parameter, one bar per key.

Bad input ends with `adc-sweep: error: WHAT` and exit status 2, never a traceback: a run's
summary.csv that is missing, empty, only a header or has a malformed row (FILE:LINE), a
folder that is not a sweep (no sweep.json) given to collect or plot, a missing or malformed
sweep-stats.csv, and run's --out naming an existing folder that is not a sweep (it would be
deleted).
"""
import argparse
import csv
import itertools
import json
import math
import os
import pathlib
import re
import shlex
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_scriptutil as su  # noqa: E402

PROG = "adc-sweep"


def fail(message):
    """Bad input: main() prints `adc-sweep: error: MESSAGE` and exits with status 2."""
    raise su.InputError(message)


# --------------------------------------------------------------------------- Student's t
def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) +
                     b * math.log(1.0 - x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p, df):
    """The p-quantile (0.5 < p < 1) of Student's t with df degrees of freedom (bisection)."""
    if not 0.5 < p < 1.0 or df < 1:
        raise ValueError(f"t_quantile: need 0.5 < p < 1 and df >= 1, got p={p}, df={df}")
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def mean_ci95(values):
    """(mean, sample stdev, half width of the 95 % CI of the mean); stdev and half are None
    for one value."""
    n = len(values)
    m = statistics.fmean(values)
    if n < 2:
        return m, None, None
    s = statistics.stdev(values)
    return m, s, t_quantile(0.975, n - 1) * s / math.sqrt(n)


# --------------------------------------------------------------------------- run
def program_options(program):
    """The options the program's CommandLine declares (from --PrintHelp)."""
    out = subprocess.run([program, "--PrintHelp"], capture_output=True, text=True, check=False)
    text = out.stdout + out.stderr
    return sorted(set(re.findall(r"^\s+--([A-Za-z0-9_]+):", text, re.M)))


def parse_grid(params, allowed, program):
    grid = []
    for p in params:
        if "=" not in p:
            fail(f"--param '{p}': expected NAME=V1,V2,... (e.g. clientsPerNet=5,10)")
        name, values = p.split("=", 1)
        if name not in allowed:
            fail(f"--param '{name}' is not an option of {pathlib.Path(program).name}; "
                 f"allowed: {', '.join(allowed)}")
        if name in ("outputDir", "RngRun", "run"):
            fail(f"--param '{name}' is set by the sweep itself")
        vals = [v for v in values.split(",") if v != ""]
        if not vals:
            fail(f"--param '{name}': no values")
        if len(set(vals)) != len(vals):
            fail(f"--param '{name}': repeated values in '{values}'")
        if any(name == g[0] for g in grid):
            fail(f"--param '{name}' given twice")
        grid.append((name, vals))
    return grid


def safe(text):
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", text)


def cmd_run(args):
    program = os.path.abspath(args.program)
    if not os.access(program, os.X_OK):
        fail(f"--program '{args.program}' is not an executable file")
    if args.runs < 1:
        fail(f"--runs {args.runs}: must be >= 1")
    if args.first_run < 1:
        fail(f"--first-run {args.first_run}: must be >= 1 (ns-3's RngRun)")
    if args.jobs < 1:
        fail(f"--jobs {args.jobs}: must be >= 1")
    if args.hosts and not os.path.isfile(args.hosts):
        fail(f"--hosts '{args.hosts}': no such file (a GNU parallel --sshloginfile)")
    extra = [a for a in args.options if a != "--"]
    allowed = program_options(program)
    grid = parse_grid(args.param, allowed, program)
    # The experiments take the run number as --run (they call RngSeedManager::SetRun with
    # it); a program without that option gets ns-3's global --RngRun.
    run_option = "run" if "run" in allowed else "RngRun"
    for a in extra:
        if any(a.startswith(f"--{o}=") for o in ("outputDir", "RngRun", "run")):
            fail(f"option '{a}' is set by the sweep itself")
    out = pathlib.Path(args.out).resolve()
    if out.exists():
        # A new sweep replaces the previous one; any other folder is not ours to delete.
        if not out.is_dir():
            fail(f"--out '{args.out}' is a file, not a sweep folder")
        if any(out.iterdir()) and not (out / "sweep.json").is_file():
            fail(f"--out '{args.out}' is a folder that holds no sweep (no sweep.json): a sweep "
                 "replaces its --out folder, so give a new or empty folder, or a previous "
                 "sweep's")
        shutil.rmtree(out)
    (out / "runs").mkdir(parents=True)
    names = [g[0] for g in grid]
    points = list(itertools.product(*[g[1] for g in grid])) if grid else [()]
    entries, lines = [], []
    for point in points:
        label = ",".join(f"{n}={safe(v)}" for n, v in zip(names, point))
        for run in range(args.first_run, args.first_run + args.runs):
            rundir = out / "runs" / (label or "default") / f"run-{run}"
            argv = [program, f"--outputDir={rundir}"] + extra
            argv += [f"--{n}={v}" for n, v in zip(names, point)] + [f"--{run_option}={run}"]
            cmd = (f"mkdir -p {shlex.quote(str(rundir))} && " + " ".join(map(shlex.quote, argv)) +
                   f" > {shlex.quote(str(rundir / 'stdout.txt'))} 2>&1")
            lines.append(cmd)
            entries.append({"point": dict(zip(names, point)), "run": run,
                            "dir": str(rundir.relative_to(out))})
    (out / "jobs.txt").write_text("\n".join(lines) + "\n")
    (out / "sweep.json").write_text(json.dumps(
        {"program": program, "options": extra, "params": names, "runs": entries}, indent=1) +
        "\n")
    print(f"adc-sweep: {len(lines)} runs ({len(points)} grid points x {args.runs} runs) "
          f"in {out / 'jobs.txt'}")
    if args.jobs_only:
        return
    parallel = shutil.which("parallel")
    if not parallel:
        fail("GNU parallel not found: apt-get install parallel (./adc sweep installs it)")
    cmd = [parallel, "--will-cite", "--jobs", str(args.jobs), "--halt", "now,fail=1",
           "--joblog", str(out / "joblog.tsv")]
    if args.hosts:
        cmd += ["--sshloginfile", os.path.abspath(args.hosts)]
    cmd += ["::::", str(out / "jobs.txt")]
    status = subprocess.run(cmd, check=False).returncode
    if status != 0:
        fail(f"GNU parallel ended with status {status}: see {out / 'joblog.tsv'} and the "
             "failed run's stdout.txt")
    collect(out)


# --------------------------------------------------------------------------- collect
def number(text):
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def load_meta(out):
    """sweep.json of a sweep folder, checked: what each run is and where it wrote."""
    if not out.exists():
        fail(f"{out}: no such folder")
    if not out.is_dir():
        fail(f"{out}: not a folder (expected a sweep folder)")
    meta_path = out / "sweep.json"
    if not meta_path.is_file():
        fail(f"{out}: not a sweep folder: no sweep.json (run 'adc-sweep.py run' first)")
    try:
        meta = json.loads(su.read_text(meta_path))
    except json.JSONDecodeError as e:
        fail(f"{meta_path}:{e.lineno}: not JSON: {e.msg}")
    ok = isinstance(meta, dict) and isinstance(meta.get("params"), list) and \
        all(isinstance(p, str) for p in meta["params"]) and isinstance(meta.get("runs"), list)
    for e in (meta.get("runs") or []) if ok else []:
        ok = ok and isinstance(e, dict) and isinstance(e.get("point"), dict) and \
            isinstance(e.get("run"), int) and isinstance(e.get("dir"), str) and \
            all(isinstance(e["point"].get(p), str) for p in meta["params"])
    if not ok:
        fail(f"{meta_path}: not what 'adc-sweep.py run' writes (params, runs: point, run, dir)")
    if not meta["runs"]:
        fail(f"{meta_path}: lists no run")
    return meta


def collect(out):
    out = pathlib.Path(out)
    meta = load_meta(out)
    params = meta["params"]
    header, first, rows = None, None, []
    for e in meta["runs"]:
        summary = out / e["dir"] / "summary.csv"
        which = f"run {e['run']} at {e['point'] or 'the defaults'}"
        if not summary.is_file():
            fail(f"{which} has no summary.csv ({summary}); see its stdout.txt")
        try:
            # A header-only summary is refused like a missing one: no run drops out silently.
            head, srows = su.read_csv(summary)
        except su.InputError as error:
            fail(f"{error} ({which}; see its stdout.txt)")
        if header is None:
            header, first = head, summary
        elif head != header:
            fail(f"{summary}:1: columns {su.show(','.join(head))} differ from {first}'s "
                 f"{su.show(','.join(header))}")
        for row in srows:
            rows.append([e["point"][p] for p in params] + [str(e["run"])] +
                        [row[h] for h in header])
    with open(out / "sweep.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(params + ["run"] + header)
        w.writerows(rows)
    # Statistics per grid point and summary key (the summary's first column).
    key_col = len(params) + 1
    numeric = [i for i in range(key_col + 1, len(params) + 1 + len(header))
               if all(number(r[i]) is not None for r in rows)]
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[:len(params)]) + (r[key_col],), []).append(r)
    with open(out / "sweep-stats.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(params + [header[0], "column", "runs", "mean", "stdev", "ci95_low",
                             "ci95_high"])
        for g, members in groups.items():
            for i in numeric:
                m, s, half = mean_ci95([float(r[i]) for r in members])
                fmt = (lambda v: "" if v is None else f"{v:.6g}")
                w.writerow(list(g) + [(params + ["run"] + header)[i], len(members), fmt(m),
                                      fmt(s), fmt(None if half is None else m - half),
                                      fmt(None if half is None else m + half)])
    print(f"adc-sweep: {len(rows)} rows from {len(meta['runs'])} runs -> {out / 'sweep.csv'}, "
          f"{out / 'sweep-stats.csv'}")


# --------------------------------------------------------------------------- plot
def read_stats(out, params):
    """(key column, rows) of sweep-stats.csv, checked."""
    path = out / "sweep-stats.csv"
    if not path.is_file():
        fail(f"{out}: no sweep-stats.csv (run 'adc-sweep.py collect {out}' first)")
    maybe = su.or_words(su.NUMBER, "")
    columns = {p: su.TEXT for p in params}
    columns.update({"column": su.TEXT, "runs": su.COUNT, "mean": su.NUMBER, "stdev": maybe,
                    "ci95_low": maybe, "ci95_high": maybe})
    header, stats = su.read_csv(path, columns)
    if header[:len(params)] != params or len(header) < len(params) + 7:
        fail(f"{path}:1: header {su.show(','.join(header))} is not the grid parameters "
             f"({','.join(params) or 'none'}), the summary key, column, runs, mean, stdev, "
             "ci95_low, ci95_high")
    return header[len(params)], stats


def plot(out):
    out = pathlib.Path(out)
    meta = load_meta(out)
    params = meta["params"]
    key, stats = read_stats(out, params)
    su.check_writable(out)
    plt = su.setup_matplotlib()
    drawn = 0
    for column in dict.fromkeys(s["column"] for s in stats):
        rows = [s for s in stats if s["column"] == column]
        fig, ax = plt.subplots(figsize=(7, 4))
        if params:
            x_param = params[0]
            xs = list(dict.fromkeys(r[x_param] for r in rows))
            numeric_x = all(number(x) is not None for x in xs)
            if numeric_x:
                xs.sort(key=float)
            where = {x: (float(x) if numeric_x else i) for i, x in enumerate(xs)}
            series = {}
            for r in rows:
                label = " ".join([r[key]] + [f"{p}={r[p]}" for p in params[1:]])
                series.setdefault(label, {})[r[x_param]] = r
            for label, by_x in series.items():
                px = [x for x in xs if x in by_x]
                ys = [by_x[x]["mean"] for x in px]
                err = [(by_x[x]["mean"] - by_x[x]["ci95_low"])
                       if by_x[x]["ci95_low"] != "" else 0.0 for x in px]
                ax.errorbar([where[x] for x in px], ys, yerr=err, marker="o", capsize=4,
                            label=label)
            ax.set_xticks([where[x] for x in xs])
            ax.set_xticklabels(xs)
            ax.set_xlabel(x_param)
            su.legend_outside(ax, title=" ".join([key] + params[1:]))
        else:
            labels = [r[key] for r in rows]
            ys = [r["mean"] for r in rows]
            err = [(r["mean"] - r["ci95_low"]) if r["ci95_low"] != "" else 0.0 for r in rows]
            ax.bar(range(len(labels)), ys, yerr=err, capsize=4)
            ax.set_xticks(range(len(labels)))
            ax.set_xticklabels(labels, rotation=20, ha="right")
            ax.set_xlabel(key)
        runs = max(r["runs"] for r in rows)
        ax.set_ylabel(column)
        ax.set_title(f"{column}: mean of {runs} runs, 95 % confidence interval")
        ax.grid(alpha=0.3)
        fig.savefig(out / f"sweep-{safe(column)}.png")
        plt.close(fig)
        drawn += 1
    print(f"adc-sweep: {drawn} plots in {out}")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--program", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--param", action="append", default=[])
    r.add_argument("--runs", type=int, default=5)
    r.add_argument("--first-run", type=int, default=1)
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    r.add_argument("--hosts")
    r.add_argument("--jobs-only", action="store_true")
    r.add_argument("options", nargs=argparse.REMAINDER)
    c = sub.add_parser("collect")
    c.add_argument("dir")
    p = sub.add_parser("plot")
    p.add_argument("dir")
    args = ap.parse_args(argv)
    if args.command == "run":
        cmd_run(args)
    elif args.command == "collect":
        collect(args.dir)
    else:
        plot(args.dir)
    return 0


if __name__ == "__main__":
    sys.exit(su.run(PROG, main))
