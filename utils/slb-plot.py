#!/usr/bin/env python3
"""Plots and checks of the slb-mux-failure experiment (the SLB's MUX pool: a MUX fails, one is
added).

Usage: slb-plot.py RESULTS_DIR
       slb-plot.py --check RESULTS_DIR [--hold SECONDS]

Reads, in RESULTS_DIR (a results folder without load.csv, e.g. slb-contoso's, gets no plot and
exit status 0):
  load.csv    (time_s,variant,mux,packets)  -> slb-load.png: packets each MUX encapsulated per
              time bin, one panel per variant, the DIP addition, the failure, the routers'
              withdraws and the MUX addition marked
  events.csv  (variant,event,router,time_s)
  flows.csv   (variant,flows,changed_mux,changed_dip,...,broken) -> slb-broken.png: flows that
              changed MUX, and connections broken as the clients saw them (a request on an
              established connection failed: doc/slb.rst) per variant

--check exits 1 unless, in flows.csv, every request is accounted for (sent = completed + failed +
open_at_stop) and, for each ECMP mode present, Maglev with a flow table (maglev-ft-MODE) broke
fewer connections than the naive modulo selection (naive-MODE) (requirements SLB-05, SLB-10,
SLB-14), and every router withdrew the failed MUX (within SECONDS of the failure with --hold: the
BGP hold time) and learnt the added one, which then carried packets. The figures are
deterministic for the same CSV input.

Bad input (a missing folder, a missing or header-only file, a malformed row, a --hold that is
not a number) ends with `slb-plot: error: FILE[:LINE]: reason` and exit status 2, before any
plot is written.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_scriptutil as su  # noqa: E402

PROG = "slb-plot"
MODES = ["plain", "resilient"]
SELECTIONS = ["maglev-ft", "maglev", "naive"]
LOAD = {"time_s": su.NUMBER, "variant": su.TEXT, "mux": su.TEXT, "packets": su.COUNT}
EVENTS = {"variant": su.TEXT, "event": su.TEXT, "router": su.TEXT,
          "time_s": su.or_words(su.NUMBER, "never")}
FLOWS = {"variant": su.TEXT, "changed_mux": su.COUNT, "changed_dip": su.COUNT,
         "broken": su.COUNT}
FLOWS_CHECK = dict(FLOWS, sent=su.COUNT, completed=su.COUNT, failed=su.COUNT,
                   open_at_stop=su.COUNT)


def variant_key(name):
    for i, mode in enumerate(MODES):
        for j, sel in enumerate(SELECTIONS):
            if name == sel + "-" + mode:
                return (i, j, "")
    return (len(MODES), 0, name)


def mux_key(name):
    """MUX2 before MUX10; a name of another form after them, by name."""
    m = re.fullmatch(r"MUX(\d+)", name)
    return (0, int(m.group(1)), "") if m else (1, 0, name)


def read_events(d):
    return su.read_csv(d / "events.csv", EVENTS, declared_only=True)[1]


def check_events(rows, hold):
    """Every router withdrew the failed MUX within the hold time of its failure (RFC 4271 6.5:
    the hold timer, restarted by each message, expires at most hold seconds after the last one)
    and learnt the added MUX, which then carried packets."""
    problems = []
    by_variant = {}
    for r in rows:
        by_variant.setdefault(r["variant"], []).append(r)
    for name, mine in sorted(by_variant.items()):
        fail = [r["time_s"] for r in mine if r["event"].startswith("fail")
                and r["time_s"] != "never"]
        for r in mine:
            if r["event"] in ("withdraw", "learn", "new MUX first packet") and \
                    r["time_s"] == "never":
                problems.append(f"{name}: {r['event']} {r['router']} never happened")
            elif r["event"] == "withdraw" and hold is not None and fail:
                detect = r["time_s"] - fail[0]
                if not 0 < detect <= hold:
                    problems.append(f"{name}: {r['router']} withdrew {detect:.6f} s after the "
                                    f"failure, not within the hold time {hold} s")
    return problems


def check(d, hold=None):
    # Every input is read and checked first: bad input is exit status 2, not a failed check.
    _, flows = su.read_csv(d / "flows.csv", FLOWS_CHECK, declared_only=True)
    events = read_events(d)
    rows = {}
    for r in flows:
        if r["variant"] in rows:
            raise su.InputError(f"{r.where()}: variant {su.show(r['variant'])} again (first on "
                                f"line {rows[r['variant']].line})")
        rows[r["variant"]] = r
    problems = []
    for name, r in sorted(rows.items()):
        ended = r["completed"] + r["failed"] + r["open_at_stop"]
        if ended != r["sent"]:
            problems.append(f"{name}: sent {r['sent']} but {ended} ended")
    compared = 0
    for mode in MODES:
        ft, naive = rows.get("maglev-ft-" + mode), rows.get("naive-" + mode)
        if ft is None or naive is None:
            continue
        compared += 1
        broken_ft, broken_naive = ft["broken"], naive["broken"]
        print(f"{mode} ECMP: broken connections maglev-ft {broken_ft}, naive {broken_naive}")
        if not broken_ft < broken_naive:
            problems.append(f"{mode} ECMP: maglev-ft broke {broken_ft} connections, "
                            f"not fewer than naive's {broken_naive}")
    problems += check_events(events, hold)
    if compared == 0:
        problems.append("flows.csv has no maglev-ft-MODE and naive-MODE pair to compare")
    for p in problems:
        print("slb-plot.py --check: " + p, file=sys.stderr)
    return 1 if problems else 0


def plot_load(plt, load, events, out):
    series = {}
    for r in load:
        series.setdefault(r["variant"], {}).setdefault(r["mux"], []).append(
            (r["time_s"], r["packets"]))
    marks = {}
    for r in events:
        if r["time_s"] != "never":
            marks.setdefault(r["variant"], []).append((r["event"], r["time_s"]))
    variants = sorted(series, key=variant_key)
    fig, axes = plt.subplots(len(variants), 1, figsize=(9, 1.2 + 2.4 * len(variants)),
                             sharex=True, squeeze=False)
    styles = {"add DIP": ("tab:green", ":"), "withdraw": ("tab:red", "--"),
              "learn": ("tab:blue", "--")}
    # One colour per MUX in every panel.
    muxes = sorted({m for v in series.values() for m in v}, key=mux_key)
    colour = {m: f"C{i % 10}" for i, m in enumerate(muxes)}
    for ax, v in zip(axes[:, 0], variants):
        for mux in sorted(series[v], key=mux_key):
            pts = series[v][mux]
            ax.plot([t for t, _ in pts], [n for _, n in pts], color=colour[mux], linewidth=1)
        for event, t in sorted(marks.get(v, []), key=lambda e: (e[1], e[0])):
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
    # One legend for every panel, beside the first: it hides no data.
    from matplotlib.lines import Line2D

    axes[0, 0].legend([Line2D([], [], color=colour[m], linewidth=1) for m in muxes], muxes,
                      title="MUX", fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      borderaxespad=0.0)
    axes[-1, 0].set_xlabel("simulated time (s): black failure, red withdraws, purple MUX added, "
                           "blue routers learn it, green DIP added")
    fig.suptitle("Packets each MUX encapsulated per time bin")
    fig.savefig(out / "slb-load.png")
    plt.close(fig)


def plot_broken(plt, flows, out):
    rows = sorted(flows, key=lambda r: variant_key(r["variant"]))
    names = [r["variant"] for r in rows]
    x = range(len(names))
    width = 0.38
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar([i - width / 2 for i in x], [r["changed_mux"] for r in rows], width,
           label="flows that changed MUX")
    ax.bar([i + width / 2 for i in x], [r["broken"] for r in rows], width,
           label="connections broken (the clients' view)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names, rotation=20, ha="right")
    ax.set_xlabel("variant (MUX selection - ECMP mode)")
    ax.set_ylabel("flows")
    su.integer_ticks(ax.yaxis)
    ax.set_title("MUX failure and addition: flows moved and connections broken")
    su.legend_outside(ax)
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(out / "slb-broken.png")
    plt.close(fig)


def parse_check_args(args):
    """--check RESULTS_DIR [--hold SECONDS] -> (folder, hold or None)."""
    if len(args) not in (2, 4) or (len(args) == 4 and args[2] != "--hold"):
        raise su.InputError("usage: slb-plot.py --check RESULTS_DIR [--hold SECONDS]")
    hold = None
    if len(args) == 4:
        try:
            hold = su.NUMBER.convert(args[3])
        except ValueError:
            hold = -1.0
        if hold <= 0:
            raise su.InputError(f"--hold {su.show(args[3])}: not a number of seconds > 0 (the "
                                "BGP hold time)")
    d = pathlib.Path(args[1])
    if not d.is_dir():
        raise su.InputError(f"{d}: no such results folder")
    return d, hold


def main(argv):
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if argv and argv[0] == "--check":
        return check(*parse_check_args(argv))
    if len(argv) != 1:
        return su.usage_error(PROG, __doc__, "expected RESULTS_DIR or --check RESULTS_DIR")
    d = su.need_folder(argv[0])
    if not (d / "load.csv").exists():
        # Another SLB experiment's results (slb-contoso): nothing of ours to draw.
        print(f"{PROG}: nothing to draw in {d}: no load.csv (not slb-mux-failure's results)",
              file=sys.stderr)
        return 0
    # Every input is checked before the first plot is written.
    _, load = su.read_csv(d / "load.csv", LOAD, declared_only=True)
    events = read_events(d)
    _, flows = su.read_csv(d / "flows.csv", FLOWS, declared_only=True)
    su.check_writable(d)
    plt = su.setup_matplotlib()
    plot_load(plt, load, events, d)
    plot_broken(plt, flows, d)
    print(f"{PROG}: plots: slb-load.png, slb-broken.png", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(su.run(PROG, main))
