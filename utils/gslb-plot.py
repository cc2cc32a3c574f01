#!/usr/bin/env python3
"""Plots and checks of the gslb-rtt experiment (GSLB by dynamic RTT against round robin and
static proximity).

Usage: gslb-plot.py RESULTS_DIR
       gslb-plot.py --check RESULTS_DIR

Reads, in RESULTS_DIR:
  answers.csv (method,time_s,adns_site,region,answer_site,reason)
              -> gslb-answers.png: answers per site over time, one panel per method
  rtt.csv     (method,time_s,site,region,kind,measured_ms,true_ms)
              -> gslb-rtt.png: each site's RTT estimates of each region's LDNS against the true
              path round trip
  visits.csv  (method,client,region,start_s,dns_ms,fetch_ms,total_ms,site,outcome)
              -> gslb-latency.png: distribution (CDF) of what users experienced, per method
  events.csv  (time_s,event) marks congestion, failure and recovery on the plots

--check exits 1 unless every visit is accounted for (summary.csv: visits = completed + failed +
open), RTT answers the region's nearest site more often than round robin does (GSLB-01), and the
RTT estimates are within 5 ms of the true path round trip except a site's first probe of each
LDNS (first contact: ARP on both LANs) and the changes.
The figures are deterministic for the same CSV input.
"""
import csv
import pathlib
import sys


def read_rows(path):
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def events(d):
    return [(float(r["time_s"]), r["event"]) for r in read_rows(d / "events.csv")]


def mark_events(ax, evs):
    for t, name in evs:
        ax.axvline(t, color="grey", linestyle=":", linewidth=1)
        ax.text(t, ax.get_ylim()[1], " " + name, rotation=90, va="top", fontsize=7, color="grey")


def plot_answers(d, plt):
    rows = read_rows(d / "answers.csv")
    if not rows:
        return
    methods = sorted({r["method"] for r in rows})
    sites = sorted({r["answer_site"] for r in rows if r["answer_site"]})
    fig, axes = plt.subplots(len(methods), 1, figsize=(9, 2.6 * len(methods)), squeeze=False)
    binw = 5.0
    for ax, m in zip(axes[:, 0], methods):
        counts = {}
        tmax = 0.0
        for r in rows:
            if r["method"] != m or not r["answer_site"]:
                continue
            t = float(r["time_s"])
            tmax = max(tmax, t)
            k = int(t // binw)
            counts.setdefault(r["answer_site"], {}).setdefault(k, 0)
            counts[r["answer_site"]][k] += 1
        nbins = int(tmax // binw) + 1
        for s in sites:
            ys = [counts.get(s, {}).get(k, 0) for k in range(nbins)]
            ax.plot([k * binw for k in range(nbins)], ys, label=s, drawstyle="steps-post")
        ax.set_title(f"{m}: DNS answers per site ({binw:.0f} s bins)")
        ax.set_ylabel("answers")
        ax.legend(fontsize=7)
        mark_events(ax, events(d))
    axes[-1, 0].set_xlabel("time (s)")
    fig.tight_layout()
    fig.savefig(d / "gslb-answers.png", dpi=100)


def plot_rtt(d, plt):
    rows = [r for r in read_rows(d / "rtt.csv")]
    if not rows:
        return
    method = sorted({r["method"] for r in rows})[0]
    rows = [r for r in rows if r["method"] == method]
    pairs = sorted({(r["site"], r["region"]) for r in rows})
    fig, ax = plt.subplots(figsize=(9, 4))
    for site, region in pairs:
        sel = [r for r in rows if r["site"] == site and r["region"] == region]
        xs = [float(r["time_s"]) for r in sel]
        line = ax.plot(xs, [float(r["measured_ms"]) for r in sel], ".", markersize=3,
                       label=f"{site} to region {region} (measured)")
        ax.plot(xs, [float(r["true_ms"]) for r in sel], "-", linewidth=0.8,
                color=line[0].get_color())
    ax.set_title(f"{method}: RTT estimates (dots) against the true path round trip (lines)")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("RTT (ms)")
    ax.legend(fontsize=6, ncol=2)
    mark_events(ax, events(d))
    fig.tight_layout()
    fig.savefig(d / "gslb-rtt.png", dpi=100)


def plot_latency(d, plt):
    rows = [r for r in read_rows(d / "visits.csv") if r["outcome"] == "completed"]
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for m in sorted({r["method"] for r in rows}):
        xs = sorted(float(r["total_ms"]) for r in rows if r["method"] == m)
        ys = [(i + 1) / len(xs) for i in range(len(xs))]
        ax.plot(xs, ys, label=m, drawstyle="steps-post")
    ax.set_title("What users experienced: DNS + transfer time")
    ax.set_xlabel("visit time (ms)")
    ax.set_ylabel("CDF")
    ax.legend()
    fig.tight_layout()
    fig.savefig(d / "gslb-latency.png", dpi=100)


def check(d):
    problems = []
    summary = read_rows(d / "summary.csv")
    if not summary:
        problems.append("summary.csv is missing or empty")
    near = {}
    for r in summary:
        visits = int(r["visits"])
        done = int(r["completed"]) + int(r["failed"]) + int(r["open"])
        if visits != done:
            problems.append(f"{r['method']}: {visits} visits but {done} accounted for")
        if int(r["completed"]) == 0:
            problems.append(f"{r['method']}: no visit completed")
        near[r["method"]] = float(r["nearest_share"])
    if "RTT" in near and "ROUNDROBIN" in near and not near["RTT"] > near["ROUNDROBIN"]:
        problems.append(f"RTT answered the nearest site no more often ({near['RTT']:.3f}) than "
                        f"round robin ({near['ROUNDROBIN']:.3f})")
    changes = [t for t, _ in events(d)]
    contacted = set()
    for r in read_rows(d / "rtt.csv"):
        t = float(r["time_s"])
        pair = (r["method"], r["site"], r["region"])
        first, _ = pair not in contacted, contacted.add(pair)
        if first or any(abs(t - c) < 3.0 for c in changes):
            continue  # first contact (ARP on both LANs) and the changes themselves
        if abs(float(r["measured_ms"]) - float(r["true_ms"])) > 5.0:
            problems.append(f"RTT estimate {r['measured_ms']} ms of {r['site']} to region "
                            f"{r['region']} at {t:.3f} s is not within 5 ms of the true "
                            f"{r['true_ms']} ms")
            break
    for p in problems:
        print("gslb-plot --check:", p)
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "--check":
        return check(pathlib.Path(argv[1]))
    if len(argv) != 1:
        print(__doc__)
        return 2
    d = pathlib.Path(argv[0])
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plot_answers(d, plt)
    plot_rtt(d, plt)
    plot_latency(d, plt)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
