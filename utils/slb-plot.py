#!/usr/bin/env python3
"""Plots and checks of the slb-mux-failure experiment (the SLB's MUX pool: a MUX fails, one is added).

Usage: slb-plot.py RESULTS_DIR
       slb-plot.py --check RESULTS_DIR [--hold SECONDS]

Reads, in RESULTS_DIR (a directory without load.csv, e.g. slb-contoso's, gets no plot):
  load.csv    (time_s,variant,mux,packets)  -> slb-load.png: packets each MUX encapsulated per
              time bin, one panel per variant, the DIP addition, the failure, the routers'
              withdraws and the MUX addition marked
  events.csv  (variant,event,router,time_s)
  flows.csv   (variant,flows,changed_mux,changed_dip,...) -> slb-broken.png: flows that changed
              MUX and broken connections (flows that changed DIP) per variant

--check exits 1 unless, in flows.csv, every request is accounted for (sent = completed + failed +
open_at_stop) and, for each ECMP mode present, Maglev with a flow table (maglev-ft-MODE) broke
fewer connections than the naive modulo selection (naive-MODE) (requirements SLB-05, SLB-10,
SLB-14), and every router withdrew the failed MUX (within SECONDS of the failure with --hold: the
BGP hold time) and learnt the added one, which then carried packets. The figures are deterministic for the same CSV input.
"""
import csv
import pathlib
import sys

MODES = ["plain", "resilient"]
SELECTIONS = ["maglev-ft", "maglev", "naive"]


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def variant_key(name):
    for i, mode in enumerate(MODES):
        for j, sel in enumerate(SELECTIONS):
            if name == sel + "-" + mode:
                return (i, j, "")
    return (len(MODES), 0, name)


def check_events(d, hold):
    """Every router withdrew the failed MUX within the hold time of its failure (RFC 4271 6.5:
    the hold timer, restarted by each message, expires at most hold seconds after the last one)
    and learnt the added MUX, which then carried packets."""
    problems = []
    by_variant = {}
    for r in read_rows(d / "events.csv"):
        by_variant.setdefault(r["variant"], []).append(r)
    for name, rows in sorted(by_variant.items()):
        fail = [float(r["time_s"]) for r in rows if r["event"].startswith("fail")]
        for r in rows:
            if r["event"] in ("withdraw", "learn", "new MUX first packet") and r["time_s"] == "never":
                problems.append(f"{name}: {r['event']} {r['router']} never happened")
            elif r["event"] == "withdraw" and hold is not None and fail:
                detect = float(r["time_s"]) - fail[0]
                if not 0 < detect <= hold:
                    problems.append(f"{name}: {r['router']} withdrew {detect:.6f} s after the "
                                    f"failure, not within the hold time {hold} s")
    return problems


def check(d, hold=None):
    rows = {r["variant"]: r for r in read_rows(d / "flows.csv")}
    problems = []
    for name, r in sorted(rows.items()):
        ended = int(r["completed"]) + int(r["failed"]) + int(r["open_at_stop"])
        if ended != int(r["sent"]):
            problems.append(f"{name}: sent {r['sent']} but {ended} ended")
    compared = 0
    for mode in MODES:
        ft, naive = rows.get("maglev-ft-" + mode), rows.get("naive-" + mode)
        if ft is None or naive is None:
            continue
        compared += 1
        broken_ft, broken_naive = int(ft["changed_dip"]), int(naive["changed_dip"])
        print(f"{mode} ECMP: broken connections maglev-ft {broken_ft}, naive {broken_naive}")
        if not broken_ft < broken_naive:
            problems.append(f"{mode} ECMP: maglev-ft broke {broken_ft} connections, "
                            f"not fewer than naive's {broken_naive}")
    problems += check_events(d, hold)
    if compared == 0:
        problems.append("flows.csv has no maglev-ft-MODE and naive-MODE pair to compare")
    for p in problems:
        print("slb-plot.py --check: " + p, file=sys.stderr)
    return 1 if problems else 0


def plot_load(d, out):
    import matplotlib.pyplot as plt

    series = {}
    for r in read_rows(d / "load.csv"):
        series.setdefault(r["variant"], {}).setdefault(r["mux"], []).append(
            (float(r["time_s"]), int(r["packets"])))
    events = {}
    for r in read_rows(d / "events.csv"):
        if r["time_s"] != "never":
            events.setdefault(r["variant"], []).append((r["event"], float(r["time_s"])))
    variants = sorted(series, key=variant_key)
    fig, axes = plt.subplots(len(variants), 1, figsize=(9, 2.4 * len(variants)), sharex=True,
                             squeeze=False)
    styles = {"add DIP": ("tab:green", ":"), "withdraw": ("tab:red", "--"),
              "learn": ("tab:blue", "--")}
    for ax, v in zip(axes[:, 0], variants):
        for mux in sorted(series[v], key=lambda m: int(m[3:])):
            pts = series[v][mux]
            ax.plot([t for t, _ in pts], [n for _, n in pts], label=mux, linewidth=1)
        for event, t in sorted(events.get(v, []), key=lambda e: (e[1], e[0])):
            if event.startswith("fail"):
                color, ls = "black", "-"
            elif event.startswith("add MUX"):
                color, ls = "tab:purple", "-"
            else:
                color, ls = styles.get(event, ("grey", ":"))
            ax.axvline(t, color=color, linestyle=ls, linewidth=0.8)
        ax.set_title(v, fontsize=9)
        ax.set_ylabel("packets / bin")
        ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=7, ncol=4, loc="upper left")
    axes[-1, 0].set_xlabel("time (s): black failure, red withdraws, purple MUX added, "
                           "blue routers learn it, green DIP added")
    fig.savefig(out / "slb-load.png")
    plt.close(fig)


def plot_broken(d, out):
    import matplotlib.pyplot as plt

    rows = sorted(read_rows(d / "flows.csv"), key=lambda r: variant_key(r["variant"]))
    names = [r["variant"] for r in rows]
    x = range(len(names))
    width = 0.38
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar([i - width / 2 for i in x], [int(r["changed_mux"]) for r in rows], width,
           label="flows that changed MUX")
    ax.bar([i + width / 2 for i in x], [int(r["changed_dip"]) for r in rows], width,
           label="broken connections (changed DIP)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names, rotation=20, ha="right")
    ax.set_ylabel("flows")
    ax.set_title("MUX failure and addition: flows moved and connections broken")
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(out / "slb-broken.png")
    plt.close(fig)


def main(argv):
    args = argv[1:]
    if len(args) in (2, 4) and args[0] == "--check":
        hold = None
        if len(args) == 4:
            if args[2] != "--hold":
                print(__doc__, file=sys.stderr)
                return 2
            hold = float(args[3])
        return check(pathlib.Path(args[1]), hold)
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    d = pathlib.Path(args[0])
    if not (d / "load.csv").exists():
        return 0  # another SLB experiment's results (slb-contoso): nothing of ours to draw
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 110, "savefig.bbox": "tight", "svg.hashsalt": "adc"})
    plot_load(d, d)
    plot_broken(d, d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
