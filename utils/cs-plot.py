#!/usr/bin/env python3
"""Plots of the cs-canary experiment (content switching with persistence, a canary rollout).

Usage: cs-plot.py RESULTS_DIR

Reads, in RESULTS_DIR:
  summary.csv           (mode,...,transactions,broken,broken_share,...) -> cs-broken.png:
                        broken transactions per persistence mode
  timeseries-MODE.csv   (time_s,canary_percent,new_sessions,new_sessions_v2,broken_total,
                        persistence_entries) -> cs-v2-share.png: the share of new sessions that
                        reached v2 (5 s windows) against the canary's percentage, one line per
                        mode; cs-broken-over-time.png: broken transactions so far;
                        cs-persistence-entries.png: persistence table size (SOURCEIP and
                        backup entries; COOKIEINSERT keeps none on the appliance)
The per-request files of the same run are adc-plot.py's. Modes are drawn in the order NONE,
SOURCEIP, COOKIEINSERT, COOKIEINSERT+SOURCEIP, then any other in name order; the figures are
deterministic for the same CSV input.
"""
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"figure.dpi": 110, "savefig.bbox": "tight", "svg.hashsalt": "adc"})

ORDER = ["NONE", "SOURCEIP", "COOKIEINSERT", "COOKIEINSERT+SOURCEIP"]
WINDOW = 5


def sort_key(mode):
    return (ORDER.index(mode), "") if mode in ORDER else (len(ORDER), mode)


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def series_files(d):
    found = {p.stem[len("timeseries-"):]: p for p in d.glob("timeseries-*.csv")}
    return [(m, found[m]) for m in sorted(found, key=sort_key)]


def plot_broken(d, out):
    rows = sorted(read_rows(d / "summary.csv"), key=lambda r: sort_key(r["mode"]))
    modes = [r["mode"] for r in rows]
    shares = [100.0 * float(r["broken_share"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    bars = ax.bar(range(len(modes)), shares, color="tab:red")
    for bar, r in zip(bars, rows):
        ax.annotate(f'{r["broken"]}/{r["transactions"]}', (bar.get_x() + bar.get_width() / 2,
                    bar.get_height()), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(modes)), modes, rotation=15)
    ax.set_ylabel("broken transactions (%)")
    ax.set_title("Transactions that reached two application versions")
    fig.savefig(out)
    plt.close(fig)


def plot_series(files, out_share, out_broken, out_entries):
    fig1, ax1 = plt.subplots(figsize=(8, 4.5))
    fig2, ax2 = plt.subplots(figsize=(8, 4.5))
    fig3, ax3 = plt.subplots(figsize=(8, 4.5))
    canary_drawn = False
    for mode, path in files:
        rows = read_rows(path)
        t = [float(r["time_s"]) for r in rows]
        if not canary_drawn:
            ax1.step(t, [float(r["canary_percent"]) for r in rows], where="post", color="black",
                     linestyle="--", label="canary policy (%)")
            canary_drawn = True
        xs, ys = [], []
        for i in range(0, len(rows), WINDOW):
            chunk = rows[i:i + WINDOW]
            n = sum(int(r["new_sessions"]) for r in chunk)
            if n:
                xs.append(float(chunk[-1]["time_s"]))
                ys.append(100.0 * sum(int(r["new_sessions_v2"]) for r in chunk) / n)
        ax1.plot(xs, ys, marker="o", markersize=3, label=mode)
        ax2.plot(t, [int(r["broken_total"]) for r in rows], label=mode)
        ax3.plot(t, [int(r["persistence_entries"]) for r in rows], label=mode)
    ax1.set_xlabel("time (s)")
    ax1.set_ylabel(f"new sessions on v2 (%, {WINDOW} s windows)")
    ax1.set_ylim(-5, 105)
    ax1.legend(fontsize=8)
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("broken transactions so far")
    ax2.legend(fontsize=8)
    ax3.set_xlabel("time (s)")
    ax3.set_ylabel("persistence entries on the appliance")
    ax3.legend(fontsize=8)
    for fig, out in ((fig1, out_share), (fig2, out_broken), (fig3, out_entries)):
        fig.savefig(out)
        plt.close(fig)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    d = pathlib.Path(sys.argv[1])
    if (d / "summary.csv").exists():
        plot_broken(d, d / "cs-broken.png")
    files = series_files(d)
    if files:
        plot_series(files, d / "cs-v2-share.png", d / "cs-broken-over-time.png",
                    d / "cs-persistence-entries.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
