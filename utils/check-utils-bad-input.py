#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the utils/ result scripts refuse bad input cleanly and still draw good input.

Usage: check-utils-bad-input.py WORK_DIR

Scripts: adc-plot.py, ilb-plot.py, cs-plot.py, slb-plot.py (and --check), gslb-plot.py (and
--check), adc-merge-ranks.py (and --gather), adc-sweep.py collect, plot and run --out.

Each script gets, in a folder of its own under WORK_DIR, small inputs laid out as the
experiment programs write them (the same headers and value forms as crd-compare,
adc-core-baseline, ilb-topologies, cs-canary, slb-mux-failure and gslb-rtt runs; generated here,
no simulator runs). Then:

1. Good input: exit status 0, every plot the script draws exists (a real PNG), no traceback;
   and every figure has a title, every axis a label (the x axis of stacked panels sharing it
   once, under the last), and every legend lies outside its axes, where it hides no data (the
   script runs under a wrapper that inspects each figure matplotlib saves).
2. A matrix of bad input, each in a fresh copy: a missing folder, an empty folder (no CSV), no
   arguments, and for each input file a header-only copy, a truncated last row, a non-numeric
   value in a numeric column and a needed column renamed in the header. Each must end with
   exit status 2, a message naming the file (and `FILE:LINE:` when a row or the header is at
   fault), no `Traceback` on stderr, no PNG written, within TIMEOUT seconds.
   Documented exceptions (exit status 0, the script's docstring says why): adc-plot.py and
   slb-plot.py on another experiment's results (gslb-rtt's, slb-contoso's) draw nothing;
   header-only files that a real run writes (a rank that simulated no client; rtt.csv when no
   method probes; events.csv with no change) are valid.
"""
import csv
import io
import json
import pathlib
import shutil
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
TIMEOUT = 20  # s: bad input is refused before matplotlib is even imported
GOOD_TIMEOUT = 120  # s: drawing, on a busy 2-core machine
failures = []
cases = 0


def check(cond, message):
    if not cond:
        failures.append(message)
        print(f"FAIL: {message}")


def csv_text(header, rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


def write(folder, name, header, rows):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(csv_text(header, rows))


# --------------------------------------------------------------------------- good inputs
REQUESTS = ["client_id", "client_ip", "request_id", "url", "server", "path", "start_s", "end_s",
            "latency_ms", "request_bytes", "response_bytes", "status", "outcome", "reason"]


def request_rows(n, net="10.0", failed_every=0):
    rows = []
    for i in range(n):
        start = 1.0 + 0.25 * i
        lat = 14.0 + (i * 7) % 60
        failed = failed_every and i % failed_every == failed_every - 1
        rows.append([str(i % 5), f"{net}.0.{2 + i % 5}", str(1 + i // 5), f"/obj/{(i * 37) % 1000}",
                     "origin" if i % 2 else f"S{i % 3}",
                     "1.1 L2NS1, 1.1 CRS3; X-Cache: MISS" if i % 2 else "",
                     f"{start:.9f}", f"{start + lat / 1000:.9f}",
                     f"{2000.0 if failed else lat:.6f}", "49", "0" if failed else "50156",
                     "0" if failed else "200", "FAILED" if failed else "COMPLETED",
                     "timeout" if failed else ""])
    return rows


def good_adc(d):
    """crd-compare's layout: throughput, requests, load and hit ratio per variant."""
    for k, v in enumerate(["two-tier-URLHASH", "one-tier-ROUNDROBIN"]):
        rows = []
        for i in range(1, 9):
            t = 0.5 * i
            for name in ("client0", "client1", "ALL"):
                b = (i * 1000 + k * 300) * (2 if name == "ALL" else 1)
                rows.append([f"{t:.9f}", name, "rx", str(b), f"{b * 16:.3f}"])
        write(d, f"throughput-{v}.csv", ["time_s", "name", "direction", "bytes",
                                         "throughput_bps"], rows)
        write(d, f"requests-{v}.csv", REQUESTS, request_rows(8 + k, failed_every=4))
        write(d, f"load-{v}.csv", ["variant", "target", "requests", "bytes"],
              [[v, t, str(n + k), str(20000 * (n + k))]
               for t, n in (("L2NS1", 2), ("L2NS2", 3), ("CRS1", 4))])
        write(d, f"hitratio-{v}.csv", ["time_s", "hits", "misses", "hit_ratio"],
              [[str(i), str(i % 3), str(1 + k), f"{(i % 3) / (i % 3 + 1 + k):.4f}"]
               for i in range(1, 8)])


def good_ilb(d):
    """ilb-topologies' layout: ILB packet counters, what the servers saw, request logs."""
    for topo, nat in (("DSR", False), ("FULL_NAT", True)):
        write(d, f"ilb-{topo}.csv", ["topology", "source", "direction", "packets", "bytes"],
              [[topo, "client-side-port", "request", "1518", "86602"],
               [topo, "client-side-port", "response", "2706" if nat else "0",
                "1471536" if nat else "0"],
               [topo, "rule-counters", "in", "1518", "83566"],
               [topo, "rule-counters", "out", "2706" if nat else "0", "0"]])
        write(d, f"requests-{topo}.csv", REQUESTS, request_rows(6, net="10.1"))
        peers = ["10.200.0.1", "10.200.0.2"] if nat else ["10.1.0.2", "10.1.0.3", "10.1.0.4"]
        write(d, f"seen-{topo}.csv", ["topology", "server", "peer_ip", "requests"],
              [[topo, f"server{1 + i % 2}", p, str(2 + i)] for i, p in enumerate(peers)])


def good_cs(d):
    """cs-canary's layout: the summary and one time series per persistence mode."""
    write(d, "summary.csv", ["mode", "sent", "completed", "failed", "open_at_stop",
                             "transactions", "broken", "broken_share",
                             "v2_share_new_sessions_end", "persistence_peak", "overflows",
                             "persistence_hits"],
          [["NONE", "103", "103", "0", "0", "29", "20", "0.6897", "0.3077", "0", "0", "0"],
           ["SOURCEIP", "103", "103", "0", "0", "29", "0", "0.0000", "0.2308", "20", "0",
            "83"]])
    for mode, entries in (("NONE", 0), ("SOURCEIP", 1)):
        write(d, f"timeseries-{mode}.csv",
              ["time_s", "canary_percent", "new_sessions", "new_sessions_v2", "broken_total",
               "persistence_entries"],
              [[str(t), str(10 * ((t - 1) // 3)), str(t % 3), str((t % 3) // 2),
                str(t // 4 if not entries else 0), str(entries * t)] for t in range(1, 16)])


def good_slb(d):
    """slb-mux-failure's layout: per-MUX load, events, flows (a --check that passes)."""
    variants = ["maglev-ft-plain", "naive-plain"]
    rows = []
    for v in variants:
        for mux in range(1, 6):
            for i in range(16):
                t = 0.5 * i
                on = (mux != 1 or t < 2) and (mux != 5 or t >= 4.5)
                rows.append([f"{t:.3f}", v, f"MUX{mux}", str(30 * mux + i if on else 0)])
    write(d, "load.csv", ["time_s", "variant", "mux", "packets"], rows)
    ev = []
    for v in variants:
        ev += [[v, "fail MUX1", "", "2.000000"], [v, "add MUX5", "", "4.500000"],
               [v, "add DIP", "", "1.500000"]]
        for r in ("router1", "router2"):
            ev += [[v, "withdraw", r, "4.050050"], [v, "learn", r, "4.550050"]]
        ev.append([v, "new MUX first packet", "", "4.565100"])
    write(d, "events.csv", ["variant", "event", "router", "time_s"], ev)
    write(d, "flows.csv", ["variant", "flows", "changed_mux", "changed_dip", "sent",
                           "completed", "failed", "failed_reasons", "open_at_stop",
                           "blackholed_packets", "mux_drops", "broken"],
          [["maglev-ft-plain", "24", "21", "2", "431", "427", "4", "timeout=4", "0", "16", "",
            "4"],
           ["naive-plain", "37", "36", "16", "431", "410", "21", "timeout=21", "0", "26", "",
            "21"]])


def good_gslb(d):
    """gslb-rtt's layout: answers, RTT samples, visits, events, summary (--check passes)."""
    sites = ["site-a", "site-b", "site-c"]
    true = {("site-a", 0): 20.04, ("site-b", 0): 70.04, ("site-c", 0): 120.04,
            ("site-a", 1): 70.04, ("site-b", 1): 20.04, ("site-c", 1): 70.04}
    answers, rtt, visits = [], [], []
    for m in ("RTT", "ROUNDROBIN"):
        for i in range(12):
            region = i % 2
            site = sites[region] if m == "RTT" and i > 2 else sites[i % 3]
            answers.append([m, f"{2.5 * i + 0.03:.6f}", sites[i % 3], str(region), site,
                            "rtt" if m == "RTT" else "round-robin"])
            visits.append([m, str(i % 4), str(region), f"{2.5 * i:.6f}", "7.067", "60.488",
                           f"{67.5 + 40 * (site != sites[region]) + i:.3f}", site,
                           "completed"])
    for i in range(10):
        (site, region), t = list(true)[i % 6], 5.0 * (i // 6) + 0.7 * (i % 6)
        rtt.append(["RTT", f"{t:.6f}", site, str(region), "PING",
                    f"{true[(site, region)] + (6.0 if i < 6 else 0.01):.3f}",
                    f"{true[(site, region)]:.3f}"])
    write(d, "answers.csv", ["method", "time_s", "adns_site", "region", "answer_site",
                             "reason"], answers)
    write(d, "rtt.csv", ["method", "time_s", "site", "region", "kind", "measured_ms",
                         "true_ms"], rtt)
    write(d, "visits.csv", ["method", "client", "region", "start_s", "dns_ms", "fetch_ms",
                            "total_ms", "site", "outcome"], visits)
    write(d, "events.csv", ["time_s", "event"], [["15.000000", "congestion"],
                                                 ["22.000000", "site 1 fails"]])
    write(d, "summary.csv", ["method", "visits", "completed", "failed", "open",
                             "nearest_share", "mean_ms", "p50_ms", "p95_ms", "dns_mean_ms",
                             "answers", "mep_sent", "probes"],
          [["RTT", "12", "12", "0", "0", "0.7500", "80.1", "75.2", "110.4", "7.1", "12", "30",
            "10"],
           ["ROUNDROBIN", "12", "12", "0", "0", "0.3333", "95.0", "90.2", "130.4", "7.1", "12",
            "24", "0"]])


def good_merge(d):
    """Two MPI ranks' files (AdcMpi::RankFileName): request logs, throughput samples."""
    rows = request_rows(6)
    for k in (0, 1):
        write(d, f"requests-V.rank{k}.csv", REQUESTS, rows[k::2])
        write(d, f"throughput-V.rank{k}.csv", ["time_s", "name", "direction", "bytes",
                                               "throughput_bps"],
              [[f"{0.5 * i:.9f}", "ALL", "rx", str(100 * i + k), f"{1600.0 * i:.3f}"]
               for i in range(1, 4)])
    # A rank that simulated no client writes its log's header only: valid.
    write(d, "visits.rank0.csv", ["method", "client", "start_s"], [])
    write(d, "visits.rank1.csv", ["method", "client", "start_s"], [["RTT", "3", "2.0"]])


def good_gather_parts(d):
    parts = []
    for k in (0, 1):
        p = d / f"part{k}"
        write(p, "summary.csv", ["variant", "sent"], [[f"V{k}", str(10 + k)]])
        write(p, "events.csv", ["time_s", "event"], [["40", "congestion"]])
        write(p, f"requests-V{k}.csv", REQUESTS, request_rows(3))
        parts.append(p)
    return parts


SUMMARY = ["method", "sent", "completed", "failed", "open_at_stop", "mean_ms", "goodput_mbps"]


def good_sweep(d, params=("clientsPerNet",)):
    """A sweep folder as 'adc-sweep.py run' leaves it: sweep.json and each run's summary."""
    entries = []
    values = ["3", "5"] if params else [None]
    for v in values:
        for run in (1, 2, 3):
            point = {params[0]: v} if params else {}
            rel = f"runs/{params[0]}={v}/run-{run}" if params else f"runs/default/run-{run}"
            write(d, rel + "/summary.csv", SUMMARY,
                  [[m, "18", "18", "0", "0", f"{20.0 + run + (j * 3):.3f}",
                    f"{0.7 + run / 100:.3f}"] for j, m in enumerate(("ROUNDROBIN", "MAGLEV"))])
            entries.append({"point": point, "run": run, "dir": rel})
    (d / "sweep.json").write_text(json.dumps({"program": "/bin/true", "options": [],
                                              "params": list(params), "runs": entries}))


# --------------------------------------------------------------------------- running
# Runs a script as its own __main__ and inspects each figure it saves: a title (the axes' or
# the figure's), labelled axes, legends outside the axes. One line per figure on stderr.
AUDIT = r"""
import runpy, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.figure as mf
save = mf.Figure.savefig
def audited(fig, fname, *a, **k):
    fig.canvas.draw()
    axes = fig.get_axes()
    title = fig._suptitle.get_text() if fig._suptitle else ""
    bad = []
    for i, ax in enumerate(axes):
        if not ax.get_ylabel():
            bad.append(f"axes {i}: no y label")
        if not ax.get_xlabel() and i == len(axes) - 1:
            bad.append(f"axes {i}: no x label")
        if not (ax.get_title() or title):
            bad.append(f"axes {i}: no title")
        legend = ax.get_legend()
        if legend is not None and legend.get_window_extent().overlaps(ax.get_window_extent()):
            bad.append(f"axes {i}: the legend lies over the axes")
    print(f"plot-audit: {fname}: " + ("; ".join(bad) if bad else "ok"), file=sys.stderr)
    return save(fig, fname, *a, **k)
mf.Figure.savefig = audited
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run(script, args, timeout, audit=False):
    start = time.monotonic()
    pre = ["-c", AUDIT] if audit else []
    try:
        p = subprocess.run([sys.executable, *pre, str(HERE / script), *map(str, args)],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", f"(no end within {timeout} s)", timeout
    return p.returncode, p.stdout, p.stderr, time.monotonic() - start


def pngs(folder):
    return sorted(p.name for p in pathlib.Path(folder).rglob("*.png")) if folder.exists() else []


def expect_bad(label, script, args, folder, fragments, status=2):
    """The script refuses: exit status `status`, every fragment in its message, no traceback,
    no PNG, in time."""
    global cases
    cases += 1
    before = pngs(folder) if folder else []
    code, out, err, took = run(script, args, TIMEOUT)
    text = out + err
    check(code == status, f"{label}: exit status {code}, want {status}; stderr: {err.strip()!r}")
    check("Traceback" not in text, f"{label}: a traceback: {err.strip()[-400:]!r}")
    for f in fragments:
        check(f in err, f"{label}: message {err.strip()!r} does not name {f!r}")
    check(took < TIMEOUT, f"{label}: took {took:.1f} s")
    if folder:
        check(pngs(folder) == before, f"{label}: PNG files written on bad input: {pngs(folder)}")


def expect_good(label, script, args, folder, want_png=(), status=0):
    global cases
    cases += 1
    code, out, err, _ = run(script, args, GOOD_TIMEOUT, audit=True)
    check(code == status, f"{label}: exit status {code}, want {status}; stderr: {err.strip()!r}")
    check("Traceback" not in out + err, f"{label}: a traceback: {err.strip()[-400:]!r}")
    audits = {}
    for line in err.splitlines():
        if line.startswith("plot-audit: ") and ".png: " in line:
            png, verdict = line[len("plot-audit: "):].split(".png: ", 1)
            audits[png + ".png"] = verdict
    for name in want_png:
        png = folder / name
        ok = png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and \
            png.stat().st_size > 5000
        check(ok, f"{label}: no plot {png}")
        check(str(png) in audits, f"{label}: {png} not drawn by this run")
    for png, verdict in audits.items():
        check(verdict == "ok", f"{label}: {png}: {verdict}")
    return out + err


def fresh(work, name, make):
    d = work / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    make(d)
    return d


# --------------------------------------------------------------------------- bad inputs
def edit_csv(path, fn):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    fn(rows)
    path.write_text(csv_text(rows[0], rows[1:]))


def mutations(path, numeric, needed, header_only_ok=False):
    """(label, edit(path) -> fragments the message must hold, status) of one input file."""
    out = []

    def header_only(p):
        p.write_text(p.read_text().splitlines(keepends=True)[0])
        return [f"{p}:", "only the header"]

    def truncated(p):
        lines = p.read_text().splitlines(keepends=True)
        last = lines[-1]
        lines[-1] = last[:last.rindex(",")]  # the last field and the newline lost
        p.write_text("".join(lines))
        return [f"{p}:{len(lines)}:"]

    def non_numeric(p):
        edit_csv(p, lambda rows: rows[2].__setitem__(rows[0].index(numeric), "abc"))
        return [f"{p}:3:", numeric, "'abc'"]

    def renamed(p):
        edit_csv(p, lambda rows: rows[0].__setitem__(rows[0].index(needed), "bogus_column"))
        return [f"{p}:1:", needed]

    if not header_only_ok:
        out.append(("header-only", header_only, 2))
    out.append(("truncated row", truncated, 2))
    if numeric:
        out.append((f"non-numeric {numeric}", non_numeric, 2))
    if needed:
        out.append((f"no column {needed}", renamed, 2))
    return out


def matrix(work, name, make, script, args_of, files):
    """Every mutation of every listed file, each in a fresh copy of the good folder."""
    for spec in files:
        fname, numeric, needed = spec[:3]
        header_only_ok = len(spec) > 3 and spec[3]
        for label, edit, status in mutations(None, numeric, needed, header_only_ok):
            d = fresh(work, f"{name}-bad", make)
            path = d / fname
            fragments = edit(path)
            expect_bad(f"{name}: {fname} {label}", script, args_of(d), d, fragments, status)


def common(work, name, script, args_of, empty_status=2):
    """No arguments, a missing folder, an empty folder, a folder with no CSV."""
    global cases
    cases += 1
    code, out, err, _ = run(script, args_of(None)[:-1], TIMEOUT)
    check(code == 2 and "usage" in err.lower() and "Traceback" not in err,
          f"{name}: no arguments: exit status {code}, stderr {err.strip()[-300:]!r}")
    missing = work / f"{name}-missing"
    expect_bad(f"{name}: missing folder", script, args_of(missing), None, [str(missing)])
    empty = work / f"{name}-empty"
    shutil.rmtree(empty, ignore_errors=True)
    empty.mkdir()
    (empty / "notes.txt").write_text("no CSV here\n")
    expect_bad(f"{name}: folder without CSV", script, args_of(empty), empty, [str(empty)],
               empty_status)


def check_plot_scripts(work):
    # adc-plot.py
    args = lambda d: [d]  # noqa: E731
    d = fresh(work, "adc-plot-good", good_adc)
    expect_good("adc-plot: good input", "adc-plot.py", args(d), d,
                ["throughput.png", "latency-cdf.png", "outcomes.png", "load.png",
                 "hit-ratio.png"])
    common(work, "adc-plot", "adc-plot.py", args)
    matrix(work, "adc-plot", good_adc, "adc-plot.py", args,
           [("throughput-two-tier-URLHASH.csv", "throughput_bps", "throughput_bps"),
            ("requests-one-tier-ROUNDROBIN.csv", "latency_ms", "outcome", True),
            ("load-two-tier-URLHASH.csv", "requests", "target"),
            ("hitratio-one-tier-ROUNDROBIN.csv", "hits", "hit_ratio")])
    # A request log with no request is a variant that sent none (a real run can write one):
    # drawn as zero, named on stderr; when no variant logged any, there is nothing to draw.
    d = fresh(work, "adc-plot-no-requests", good_adc)
    logs = sorted(d.glob("requests-*.csv"))
    logs[0].write_text(logs[0].read_text().splitlines(keepends=True)[0])
    out = expect_good("adc-plot: one variant without request", "adc-plot.py", [d], d,
                      ["latency-cdf.png", "outcomes.png"])
    check(str(logs[0]) in out, f"adc-plot: a variant without request not named: {out!r}")
    logs[1].write_text(logs[1].read_text().splitlines(keepends=True)[0])
    for png in d.glob("*.png"):
        png.unlink()
    expect_bad("adc-plot: no variant with a request", "adc-plot.py", [d], d,
               [str(logs[0]), "only the header"])
    foreign = fresh(work, "adc-plot-foreign", good_gslb)
    expect_good("adc-plot: gslb-rtt's folder (nothing to draw, documented)", "adc-plot.py",
                [foreign], foreign)
    check(not pngs(foreign), "adc-plot: drew plots in another experiment's folder")
    # An output that cannot be written (the PNG's name taken by a folder): a clear error.
    d = fresh(work, "adc-plot-unwritable", good_adc)
    (d / "load.png").mkdir()
    expect_bad("adc-plot: load.png is a folder", "adc-plot.py", [d], None,
               [str(d / "load.png")])

    # ilb-plot.py
    d = fresh(work, "ilb-plot-good", good_ilb)
    expect_good("ilb-plot: good input", "ilb-plot.py", [d], d, ["ilb-packets.png",
                                                               "ilb-seen.png"])
    common(work, "ilb-plot", "ilb-plot.py", args)
    matrix(work, "ilb-plot", good_ilb, "ilb-plot.py", args,
           [("ilb-DSR.csv", "packets", "direction"), ("seen-FULL_NAT.csv", None, "peer_ip"),
            ("requests-DSR.csv", None, "client_ip")])
    d = fresh(work, "ilb-plot-bad", good_ilb)
    (d / "requests-FULL_NAT.csv").unlink()
    expect_bad("ilb-plot: a seen file without its request log", "ilb-plot.py", [d], d,
               [str(d / "requests-FULL_NAT.csv")])
    foreign = fresh(work, "ilb-plot-foreign", good_gslb)
    expect_bad("ilb-plot: gslb-rtt's folder", "ilb-plot.py", [foreign], foreign,
               [str(foreign)])

    # cs-plot.py
    d = fresh(work, "cs-plot-good", good_cs)
    expect_good("cs-plot: good input", "cs-plot.py", [d], d,
                ["cs-broken.png", "cs-v2-share.png", "cs-broken-over-time.png",
                 "cs-persistence-entries.png"])
    common(work, "cs-plot", "cs-plot.py", args)
    matrix(work, "cs-plot", good_cs, "cs-plot.py", args,
           [("summary.csv", "broken_share", "mode"),
            ("timeseries-SOURCEIP.csv", "new_sessions", "persistence_entries")])
    foreign = fresh(work, "cs-plot-foreign", good_gslb)
    (foreign / "summary.csv").unlink()
    expect_bad("cs-plot: gslb-rtt's folder", "cs-plot.py", [foreign], foreign, [str(foreign)])

    # slb-plot.py and slb-plot.py --check
    d = fresh(work, "slb-plot-good", good_slb)
    expect_good("slb-plot: good input", "slb-plot.py", [d], d, ["slb-load.png",
                                                               "slb-broken.png"])
    expect_good("slb-plot --check: good input", "slb-plot.py", ["--check", d, "--hold", "3"], d)
    common(work, "slb-plot", "slb-plot.py", args)
    slb_files = [("load.csv", "packets", "mux"), ("events.csv", "time_s", "event"),
                 ("flows.csv", "broken", "changed_mux")]
    matrix(work, "slb-plot", good_slb, "slb-plot.py", args, slb_files)
    check_args = lambda d: ["--check", d, "--hold", "3"]  # noqa: E731
    matrix(work, "slb-plot-check", good_slb, "slb-plot.py", check_args,
           [("flows.csv", "sent", "open_at_stop"), ("events.csv", "time_s", "router")])
    d = fresh(work, "slb-plot-bad", good_slb)
    (d / "events.csv").unlink()
    expect_bad("slb-plot: load.csv without events.csv", "slb-plot.py", [d], d,
               [str(d / "events.csv")])
    expect_bad("slb-plot --check: --hold x", "slb-plot.py", ["--check", d, "--hold", "x"], d,
               ["--hold", "'x'"])
    missing = work / "slb-plot-check-missing"
    expect_bad("slb-plot --check: missing folder", "slb-plot.py", ["--check", missing], None,
               [str(missing)])
    foreign = fresh(work, "slb-plot-foreign", good_gslb)
    expect_good("slb-plot: slb-contoso-like folder (no load.csv: nothing to draw, documented)",
                "slb-plot.py", [foreign], foreign)
    check(not pngs(foreign), "slb-plot: drew plots in another experiment's folder")

    # gslb-plot.py and gslb-plot.py --check
    d = fresh(work, "gslb-plot-good", good_gslb)
    expect_good("gslb-plot: good input", "gslb-plot.py", [d], d,
                ["gslb-answers.png", "gslb-rtt.png", "gslb-latency.png"])
    expect_good("gslb-plot --check: good input", "gslb-plot.py", ["--check", d], d)
    common(work, "gslb-plot", "gslb-plot.py", args)
    matrix(work, "gslb-plot", good_gslb, "gslb-plot.py", args,
           [("answers.csv", "time_s", "answer_site"), ("rtt.csv", "measured_ms", "true_ms", True),
            ("visits.csv", "total_ms", "outcome"), ("events.csv", "time_s", "event", True)])
    matrix(work, "gslb-plot-check", good_gslb, "gslb-plot.py", lambda d: ["--check", d],
           [("summary.csv", "visits", "nearest_share"), ("rtt.csv", "true_ms", "site", True)])
    d = fresh(work, "gslb-plot-bad", good_gslb)
    (d / "rtt.csv").unlink()
    expect_bad("gslb-plot --check: no rtt.csv", "gslb-plot.py", ["--check", d], d,
               [str(d / "rtt.csv")])
    # A header-only rtt.csv is what a run without RTT probing writes: no gslb-rtt.png, exit 0.
    d = fresh(work, "gslb-plot-no-probes", good_gslb)
    (d / "rtt.csv").write_text((d / "rtt.csv").read_text().splitlines(keepends=True)[0])
    expect_good("gslb-plot: header-only rtt.csv (no method probed)", "gslb-plot.py", [d], d,
                ["gslb-answers.png", "gslb-latency.png"])
    check(not (d / "gslb-rtt.png").exists(), "gslb-plot: gslb-rtt.png drawn with no RTT sample")


def check_merge(work):
    args = lambda d: [d]  # noqa: E731
    d = fresh(work, "merge-good", good_merge)
    expect_good("adc-merge-ranks: good input", "adc-merge-ranks.py", [d], d)
    check((d / "requests-V.csv").is_file() and (d / "ranks" / "requests-V.rank1.csv").is_file(),
          "adc-merge-ranks: requests-V.csv not merged or rank files not in ranks/")
    out = expect_good("adc-merge-ranks: a merged folder again", "adc-merge-ranks.py", [d], d)
    check("nothing to merge" in out, f"adc-merge-ranks: second merge says {out!r}")
    common(work, "adc-merge-ranks", "adc-merge-ranks.py", args)
    # A header-only rank file is valid (a rank with no client): the mutation is an empty file.
    matrix(work, "adc-merge-ranks", good_merge, "adc-merge-ranks.py", args,
           [("requests-V.rank1.csv", "end_s", None, True),
            ("throughput-V.rank0.csv", "time_s", None, True)])
    d = fresh(work, "merge-bad", good_merge)
    (d / "requests-V.rank0.csv").write_text("")
    expect_bad("adc-merge-ranks: an empty rank file", "adc-merge-ranks.py", [d], None,
               [str(d / "requests-V.rank0.csv"), "empty"])
    check((d / "requests-V.rank1.csv").is_file() and not (d / "requests-V.csv").exists(),
          "adc-merge-ranks: bad input, but files were merged or moved")
    d = fresh(work, "merge-bad", good_merge)
    edit_csv(d / "requests-V.rank1.csv", lambda rows: rows[0].__setitem__(2, "req"))
    expect_bad("adc-merge-ranks: ranks' headers differ", "adc-merge-ranks.py", [d], None,
               [f"{d / 'requests-V.rank1.csv'}:1:"])
    # --gather
    g = work / "gather"
    shutil.rmtree(g, ignore_errors=True)
    parts = good_gather_parts(g)
    expect_good("adc-merge-ranks --gather: good input", "adc-merge-ranks.py",
                ["--gather", g / "out", *parts], g)
    check(len((g / "out" / "summary.csv").read_text().splitlines()) == 3,
          "adc-merge-ranks --gather: summary rows not gathered")
    shutil.rmtree(g / "out")
    lines = (parts[1] / "summary.csv").read_text().splitlines(keepends=True)
    (parts[1] / "summary.csv").write_text(lines[0] + "V1\n")
    expect_bad("adc-merge-ranks --gather: truncated row", "adc-merge-ranks.py",
               ["--gather", g / "out", *parts], None, [f"{parts[1] / 'summary.csv'}:2:"])
    check(not (g / "out").exists(), "adc-merge-ranks --gather: wrote OUT despite bad input")
    expect_bad("adc-merge-ranks --gather: missing part", "adc-merge-ranks.py",
               ["--gather", g / "out", parts[0], g / "nope"], None, [str(g / "nope")])


def check_sweep(work):
    d = fresh(work, "sweep-good", good_sweep)
    expect_good("adc-sweep collect: good input", "adc-sweep.py", ["collect", d], d)
    expect_good("adc-sweep plot: good input", "adc-sweep.py", ["plot", d], d,
                ["sweep-mean_ms.png", "sweep-goodput_mbps.png"])
    d = fresh(work, "sweep-good-runs-only", lambda d: good_sweep(d, ()))
    expect_good("adc-sweep collect: runs only", "adc-sweep.py", ["collect", d], d)
    expect_good("adc-sweep plot: runs only (bars)", "adc-sweep.py", ["plot", d], d,
                ["sweep-mean_ms.png"])
    for sub in ("collect", "plot"):
        common(work, f"adc-sweep-{sub}", "adc-sweep.py", lambda d, s=sub: [s, d])
        # A results folder with CSV files that is not a sweep.
        foreign = fresh(work, f"adc-sweep-{sub}-foreign", good_gslb)
        expect_bad(f"adc-sweep {sub}: a folder that is no sweep", "adc-sweep.py",
                   [sub, foreign], foreign, [str(foreign), "not a sweep folder"])
    summary = "runs/clientsPerNet=5/run-2/summary.csv"
    # collect: a summary's columns are numeric only when every run's are, so a non-number is
    # no error there; a header-only summary is (the README: no run drops out silently).
    matrix(work, "adc-sweep-collect", good_sweep, "adc-sweep.py", lambda d: ["collect", d],
           [(summary, None, None)])
    d = fresh(work, "adc-sweep-collect-bad", good_sweep)
    edit_csv(d / summary, lambda rows: rows[0].__setitem__(1, "bogus_column"))
    expect_bad("adc-sweep collect: a run's summary with other columns", "adc-sweep.py",
               ["collect", d], d, [f"{d / summary}:1:"])
    d = fresh(work, "adc-sweep-collect-bad", good_sweep)
    (d / summary).unlink()
    expect_bad("adc-sweep collect: a run without summary.csv", "adc-sweep.py", ["collect", d],
               d, [str(d / summary)])
    d = fresh(work, "adc-sweep-collect-bad", good_sweep)
    (d / "sweep.json").write_text('{"params": ["clientsPerNet"],\n "runs": [}')
    expect_bad("adc-sweep collect: sweep.json not JSON", "adc-sweep.py", ["collect", d], d,
               [f"{d / 'sweep.json'}:2:"])

    def collected(d):
        good_sweep(d)
        subprocess.run([sys.executable, str(HERE / "adc-sweep.py"), "collect", str(d)],
                       check=True, capture_output=True)

    matrix(work, "adc-sweep-plot", collected, "adc-sweep.py", lambda d: ["plot", d],
           [("sweep-stats.csv", "mean", "ci95_low")])
    d = fresh(work, "adc-sweep-plot-bad", good_sweep)
    expect_bad("adc-sweep plot: not collected", "adc-sweep.py", ["plot", d], d,
               ["sweep-stats.csv"])
    # run: an --out folder that holds no sweep is refused, not deleted.
    keep = fresh(work, "adc-sweep-run-keep", good_cs)
    expect_bad("adc-sweep run: --out a folder that is no sweep", "adc-sweep.py",
               ["run", "--program", "/bin/true", "--out", keep, "--runs", "1", "--jobs-only"],
               keep, ["--out", "no sweep"])
    check((keep / "summary.csv").is_file(), "adc-sweep run: deleted a folder that is no sweep")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    work = pathlib.Path(sys.argv[1]).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    start = time.monotonic()
    check_plot_scripts(work)
    check_merge(work)
    check_sweep(work)
    took = time.monotonic() - start
    print(f"utils bad input: {cases} cases in {took:.1f} s, " +
          ("all passed" if not failures else f"{len(failures)} checks failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
