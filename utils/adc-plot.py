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
Kinds whose files are absent are skipped (a folder with none of them, e.g. gslb-rtt's, gets
no plot and exit status 0); the figures are deterministic for the same CSV input.

Bad input (a missing or CSV-less folder, a file with only a header, a malformed row) ends
with `adc-plot: error: FILE[:LINE]: reason` and exit status 2, before any plot is written.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_scriptutil as su  # noqa: E402

PROG = "adc-plot"
OUTCOMES = ("COMPLETED", "FAILED", "OPEN_AT_STOP")

# The columns each kind of file must have, and what they hold.
COLUMNS = {
    "throughput": {"time_s": su.NUMBER, "name": su.TEXT, "direction": su.TEXT,
                   "throughput_bps": su.NUMBER},
    "requests": {"latency_ms": su.NUMBER, "outcome": su.one_of(*OUTCOMES)},
    "load": {"target": su.TEXT, "requests": su.COUNT},
    "hitratio": {"time_s": su.NUMBER, "hits": su.COUNT, "misses": su.COUNT,
                 "hit_ratio": su.share()},
}
KEEP = {"throughput": lambda r: r["name"] == "ALL" and r["direction"] == "rx"}


def variant(path, prefix):
    stem = path.stem
    return stem[len(prefix) + 1:] if stem.startswith(prefix + "-") else stem


def read_kind(d, prefix):
    """[(variant, rows)] of every PREFIX-*.csv in d, each file checked.

    A request log may hold no request (a variant that sent none: drawn as zero) as long as
    another variant's holds some; every other kind of file needs rows."""
    out, empty = [], []
    paths = sorted(d.glob(prefix + "-*.csv"))
    for path in paths:
        # Of a throughput file only the clients' aggregate is drawn: the per-client rows are
        # checked, not kept (a large run has millions).
        keep = KEEP.get(prefix)
        _, rows = su.read_csv(path, COLUMNS[prefix], need_rows=prefix != "requests", keep=keep,
                              declared_only=True)
        if keep and not rows:
            raise su.InputError(f"{path}: no row with name 'ALL' and direction 'rx' (the "
                                "clients' aggregate that throughput.png draws)")
        if not rows:
            empty.append(path)
        out.append((variant(path, prefix), rows))
    if paths and len(empty) == len(paths):
        others = f", like the other {len(paths) - 1} requests-*.csv" if len(paths) > 1 else ""
        raise su.InputError(f"{empty[0]}: no data rows, only the header line{others}: no "
                            "request logged, nothing to draw")
    for path in empty:
        print(f"{PROG}: {path}: no request logged (header only): drawn as none",
              file=sys.stderr)
    return out


def plot_throughput(plt, files, out):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, rows in files:
        ax.plot([r["time_s"] for r in rows], [r["throughput_bps"] / 1e6 for r in rows],
                label=name, linewidth=1.2)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("aggregate client goodput (Mbit/s)")
    ax.set_title("Aggregate throughput over time")
    ax.grid(alpha=0.3)
    su.legend_outside(ax, title="variant")
    fig.savefig(out)
    plt.close(fig)


def plot_latency(plt, files, out):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    drawn = 0
    for name, rows in files:
        lat = sorted(r["latency_ms"] for r in rows if r["outcome"] == "COMPLETED")
        if not lat:
            continue
        n = len(lat)
        ax.plot(lat, [(i + 1) / n for i in range(n)], label=name, linewidth=1.2)
        drawn += 1
    if drawn and min(min(line.get_xdata()) for line in ax.get_lines()) > 0:
        ax.set_xscale("log")
        ax.set_xlabel("request latency (ms, log scale)")
    else:
        ax.set_xlabel("request latency (ms)")
    if not drawn:
        su.no_data_note(ax, "no completed request in any variant")
    ax.set_ylabel("fraction of completed requests")
    ax.set_title("Latency distribution of completed requests (CDF)")
    ax.grid(alpha=0.3, which="both")
    su.legend_outside(ax, title="variant")
    fig.savefig(out)
    plt.close(fig)


def plot_outcomes(plt, files, out):
    names = [name for name, _ in files]
    counts = {o: [sum(r["outcome"] == o for r in rows) for _, rows in files] for o in OUTCOMES}
    fig, ax = plt.subplots(figsize=(8, 4.5))
    x = list(range(len(names)))
    bottom = [0] * len(names)
    for outcome, label in zip(OUTCOMES, ("completed", "failed", "open at stop")):
        ax.bar(x, counts[outcome], bottom=bottom, label=label)
        bottom = [b + c for b, c in zip(bottom, counts[outcome])]
    ax.set_xticks(x, names, rotation=20, ha="right")
    ax.set_xlabel("variant")
    ax.set_ylabel("requests")
    su.integer_ticks(ax.yaxis)
    ax.set_title("Request outcomes (sent = completed + failed + open at stop)")
    su.legend_outside(ax, title="outcome")
    fig.savefig(out)
    plt.close(fig)


def plot_load(plt, files, out):
    targets = []
    for _, rows in files:
        for r in rows:
            if r["target"] not in targets:
                targets.append(r["target"])
    fig, ax = plt.subplots(figsize=(max(8.0, 0.25 * len(targets) * len(files)), 4.5))
    width = 0.8 / max(1, len(files))
    for gi, (label, rows) in enumerate(files):
        by_name = {r["target"]: r["requests"] for r in rows}
        xs = [ti + gi * width for ti in range(len(targets))]
        ax.bar(xs, [by_name.get(t, 0) for t in targets], width=width, label=label)
    ax.set_xticks([ti + 0.4 - width / 2 for ti in range(len(targets))], targets)
    ax.set_xlabel("server or appliance")
    ax.set_ylabel("requests handled")
    su.integer_ticks(ax.yaxis)
    ax.set_title("Load per server / appliance")
    su.legend_outside(ax, title="variant")
    fig.savefig(out)
    plt.close(fig)


def plot_hit_ratio(plt, files, out):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    drawn = 0
    for name, rows in files:
        busy = [r for r in rows if r["hits"] + r["misses"] > 0]
        if busy:
            ax.plot([r["time_s"] for r in busy], [r["hit_ratio"] for r in busy], label=name,
                    linewidth=1.2, marker=".")
            drawn += 1
    if not drawn:
        su.no_data_note(ax, "no cache lookup in any variant")
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("cache hit ratio (per second)")
    # A margin, so a ratio of exactly 0 or 1 is not drawn on the frame.
    ax.set_ylim(-0.04, 1.04)
    ax.set_title("Cache hit ratio over time (seconds with cache lookups)")
    ax.grid(alpha=0.3)
    su.legend_outside(ax, title="variant")
    fig.savefig(out)
    plt.close(fig)


KINDS = [("throughput", plot_throughput, "throughput.png"),
         ("requests", plot_latency, "latency-cdf.png"),
         ("requests", plot_outcomes, "outcomes.png"),
         ("load", plot_load, "load.png"),
         ("hitratio", plot_hit_ratio, "hit-ratio.png")]


def main(argv):
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 1:
        return su.usage_error(PROG, __doc__, "expected one argument, RESULTS_DIR")
    d = su.need_folder(argv[0])
    # Every input is read and checked before the first plot: bad input leaves no mix of old
    # and new figures.
    data = {prefix: read_kind(d, prefix) for prefix in COLUMNS}
    if not any(data.values()):
        print(f"{PROG}: nothing to draw in {d}: no throughput-*, requests-*, load-* or "
              "hitratio-*.csv", file=sys.stderr)
        return 0
    su.check_writable(d)
    plt = su.setup_matplotlib()
    made = []
    for prefix, fn, png in KINDS:
        if data[prefix]:
            fn(plt, data[prefix], d / png)
            made.append(png)
    print(f"{PROG}: plots: " + ", ".join(made), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(su.run(PROG, main))
