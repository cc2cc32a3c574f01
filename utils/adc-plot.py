#!/usr/bin/env python3
"""Turn an ns3-adc experiment's CSV traces into PNG plots.

Usage: adc-plot.py RESULTS_DIR

Reads, in RESULTS_DIR, every file the trace helpers write and draws one figure per kind, one
line or bar group per variant (the part of the file name after the first '-', e.g.
requests-MAGLEV.csv -> MAGLEV):
  throughput-*.csv   (time_s,name,direction,bytes,throughput_bps)  -> throughput.png
  requests-*.csv     (per-request log)                             -> latency-cdf.png,
                                                                      outcomes.png
  load-*.csv         (variant,target,requests[,bytes])            -> load.png
  hitratio-*.csv     (time_s,hits,misses,hit_ratio)               -> hit-ratio.png
Files that are absent are skipped; the figures are deterministic for the same CSV input.
"""
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"figure.dpi": 110, "savefig.bbox": "tight", "svg.hashsalt": "adc"})


def variant(path, prefix):
    stem = path.stem
    return stem[len(prefix) + 1:] if stem.startswith(prefix + "-") else stem


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def plot_throughput(files, out):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for path in files:
        rows = [r for r in read_rows(path) if r["name"] == "ALL" and r["direction"] == "rx"]
        if not rows:
            continue
        t = [float(r["time_s"]) for r in rows]
        bps = [float(r["throughput_bps"]) / 1e6 for r in rows]
        ax.plot(t, bps, label=variant(path, "throughput"), linewidth=1.2)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("aggregate client goodput (Mbit/s)")
    ax.set_title("Aggregate throughput over time")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.savefig(out)
    plt.close(fig)


def plot_latency(files, out):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for path in files:
        lat = sorted(float(r["latency_ms"]) for r in read_rows(path)
                     if r["outcome"] == "COMPLETED")
        if not lat:
            continue
        n = len(lat)
        ax.plot(lat, [(i + 1) / n for i in range(n)], label=variant(path, "requests"),
                linewidth=1.2)
    ax.set_xscale("log")
    ax.set_xlabel("request latency (ms, log scale)")
    ax.set_ylabel("fraction of completed requests")
    ax.set_title("Latency distribution (CDF)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.savefig(out)
    plt.close(fig)


def plot_outcomes(files, out):
    names, completed, failed, open_at_stop = [], [], [], []
    for path in files:
        rows = read_rows(path)
        names.append(variant(path, "requests"))
        completed.append(sum(r["outcome"] == "COMPLETED" for r in rows))
        failed.append(sum(r["outcome"] == "FAILED" for r in rows))
        open_at_stop.append(sum(r["outcome"] == "OPEN_AT_STOP" for r in rows))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    x = range(len(names))
    ax.bar(x, completed, label="completed")
    ax.bar(x, failed, bottom=completed, label="failed")
    ax.bar(x, open_at_stop, bottom=[c + f for c, f in zip(completed, failed)],
           label="open at stop")
    ax.set_xticks(list(x), names, rotation=20)
    ax.set_ylabel("requests")
    ax.set_title("Request outcomes (sent = completed + failed + open at stop)")
    ax.legend(fontsize=8)
    fig.savefig(out)
    plt.close(fig)


def plot_load(files, out):
    groups = []
    for path in files:
        rows = read_rows(path)
        groups.append((variant(path, "load"), [r["target"] for r in rows],
                       [int(r["requests"]) for r in rows]))
    targets = []
    for _, names, _ in groups:
        for n in names:
            if n not in targets:
                targets.append(n)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / max(1, len(groups))
    for gi, (label, names, counts) in enumerate(groups):
        by_name = dict(zip(names, counts))
        xs = [ti + gi * width for ti in range(len(targets))]
        ax.bar(xs, [by_name.get(t, 0) for t in targets], width=width, label=label)
    ax.set_xticks([ti + 0.4 - width / 2 for ti in range(len(targets))], targets)
    ax.set_ylabel("requests handled")
    ax.set_title("Load per server / appliance")
    ax.legend(fontsize=8)
    fig.savefig(out)
    plt.close(fig)


def plot_hit_ratio(files, out):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for path in files:
        rows = read_rows(path)
        t = [float(r["time_s"]) for r in rows if int(r["hits"]) + int(r["misses"]) > 0]
        ratio = [float(r["hit_ratio"]) for r in rows if int(r["hits"]) + int(r["misses"]) > 0]
        if t:
            ax.plot(t, ratio, label=variant(path, "hitratio"), linewidth=1.2, marker=".")
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("cache hit ratio (per second)")
    ax.set_ylim(0, 1)
    ax.set_title("Cache hit ratio over time")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.savefig(out)
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    d = pathlib.Path(sys.argv[1])
    made = []
    kinds = [("throughput", plot_throughput, "throughput.png"),
             ("requests", plot_latency, "latency-cdf.png"),
             ("requests", plot_outcomes, "outcomes.png"),
             ("load", plot_load, "load.png"),
             ("hitratio", plot_hit_ratio, "hit-ratio.png")]
    for prefix, fn, png in kinds:
        files = sorted(d.glob(prefix + "-*.csv"))
        if files:
            fn(files, d / png)
            made.append(png)
    print("plots: " + (", ".join(made) if made else "none (no CSV traces found)"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
