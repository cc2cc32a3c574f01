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

Bad input (a missing folder, one with neither summary.csv nor timeseries-*.csv, a file with
only a header, a malformed row) ends with `cs-plot: error: FILE[:LINE]: reason` and exit
status 2, before any plot is written.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_scriptutil as su  # noqa: E402

PROG = "cs-plot"
ORDER = ["NONE", "SOURCEIP", "COOKIEINSERT", "COOKIEINSERT+SOURCEIP"]
WINDOW = 5
SUMMARY = {"mode": su.TEXT, "transactions": su.COUNT, "broken": su.COUNT,
           "broken_share": su.share()}
SERIES = {"time_s": su.NUMBER, "canary_percent": su.NUMBER, "new_sessions": su.COUNT,
          "new_sessions_v2": su.COUNT, "broken_total": su.COUNT,
          "persistence_entries": su.COUNT}


def sort_key(mode):
    return (ORDER.index(mode), "") if mode in ORDER else (len(ORDER), mode)


def read_series(d):
    """[(mode, rows)] of every timeseries-MODE.csv, in mode order, each file checked."""
    found = {p.stem[len("timeseries-"):]: p for p in d.glob("timeseries-*.csv")}
    out = []
    for mode in sorted(found, key=sort_key):
        _, rows = su.read_csv(found[mode], SERIES, declared_only=True)
        for r in rows:
            if r["new_sessions_v2"] > r["new_sessions"]:
                raise su.InputError(f"{r.where()}: new_sessions_v2 {r['new_sessions_v2']} is "
                                    f"more than new_sessions {r['new_sessions']}")
        out.append((mode, rows))
    return out


def plot_broken(plt, rows, out):
    rows = sorted(rows, key=lambda r: sort_key(r["mode"]))
    modes = [r["mode"] for r in rows]
    shares = [100.0 * r["broken_share"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    bars = ax.bar(range(len(modes)), shares, color="tab:red")
    for bar, r in zip(bars, rows):
        ax.annotate(f'{r["broken"]}/{r["transactions"]}', (bar.get_x() + bar.get_width() / 2,
                    bar.get_height()), ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, max(shares + [1.0]) * 1.12)
    ax.set_xticks(range(len(modes)), modes, rotation=20, ha="right")
    ax.set_xlabel("persistence mode (bar labels: broken / transactions)")
    ax.set_ylabel("broken transactions (%)")
    ax.set_title("Transactions that reached two application versions")
    fig.savefig(out)
    plt.close(fig)


def v2_share(rows):
    """(end of window, % of the window's new sessions on v2) for windows with new sessions."""
    xs, ys = [], []
    for i in range(0, len(rows), WINDOW):
        chunk = rows[i:i + WINDOW]
        n = sum(r["new_sessions"] for r in chunk)
        if n:
            xs.append(chunk[-1]["time_s"])
            ys.append(100.0 * sum(r["new_sessions_v2"] for r in chunk) / n)
    return xs, ys


def plot_series(plt, files, out_share, out_broken, out_entries):
    fig1, ax1 = plt.subplots(figsize=(8, 4.5))
    fig2, ax2 = plt.subplots(figsize=(8, 4.5))
    fig3, ax3 = plt.subplots(figsize=(8, 4.5))
    # The canary policy is the same in every mode's run: drawn once, from the first.
    first = files[0][1]
    ax1.step([r["time_s"] for r in first], [r["canary_percent"] for r in first], where="post",
             color="black", linestyle="--", label="canary policy (%)")
    for mode, rows in files:
        t = [r["time_s"] for r in rows]
        xs, ys = v2_share(rows)
        ax1.plot(xs, ys, marker="o", markersize=3, label=mode)
        ax2.plot(t, [r["broken_total"] for r in rows], label=mode)
        ax3.plot(t, [r["persistence_entries"] for r in rows], label=mode)
    ax1.set_title("Canary rollout: share of new sessions that reached v2")
    ax1.set_xlabel("simulated time (s)")
    ax1.set_ylabel(f"new sessions on v2 (%, {WINDOW} s windows)")
    ax1.set_ylim(-5, 105)
    ax2.set_title("Broken transactions (reached both v1 and v2) so far")
    ax2.set_xlabel("simulated time (s)")
    ax2.set_ylabel("broken transactions so far")
    ax3.set_title("Persistence table size on the appliance")
    ax3.set_xlabel("simulated time (s)")
    ax3.set_ylabel("persistence entries on the appliance")
    for ax, title in ((ax1, "mode"), (ax2, "persistence mode"), (ax3, "persistence mode")):
        ax.grid(alpha=0.3)
        su.legend_outside(ax, title=title)
    for ax in (ax2, ax3):
        su.integer_ticks(ax.yaxis)
    for fig, out in ((fig1, out_share), (fig2, out_broken), (fig3, out_entries)):
        fig.savefig(out)
        plt.close(fig)


def main(argv):
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 1:
        return su.usage_error(PROG, __doc__, "expected one argument, RESULTS_DIR")
    d = su.need_folder(argv[0])
    has_summary = (d / "summary.csv").exists()
    files = read_series(d)
    if not has_summary and not files:
        raise su.InputError(f"{d}: no summary.csv or timeseries-MODE.csv (not a cs-canary "
                            "results folder?)")
    # Every input is checked before the first plot is written.
    summary = su.read_csv(d / "summary.csv", SUMMARY, declared_only=True)[1] \
        if has_summary else []
    su.check_writable(d)
    plt = su.setup_matplotlib()
    made = []
    if summary:
        plot_broken(plt, summary, d / "cs-broken.png")
        made.append("cs-broken.png")
    if files:
        plot_series(plt, files, d / "cs-v2-share.png", d / "cs-broken-over-time.png",
                    d / "cs-persistence-entries.png")
        made += ["cs-v2-share.png", "cs-broken-over-time.png", "cs-persistence-entries.png"]
    print(f"{PROG}: plots: " + ", ".join(made), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(su.run(PROG, main))
