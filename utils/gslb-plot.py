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
              path round trip (not drawn when no method probed: a header-only rtt.csv)
  visits.csv  (method,client,region,start_s,dns_ms,fetch_ms,total_ms,site,outcome)
              -> gslb-latency.png: distribution (CDF) of what users experienced, per method
  events.csv  (time_s,event) marks congestion, failure and recovery on the plots (optional)

--check exits 1 unless every visit is accounted for (summary.csv: visits = completed + failed +
open), RTT answers the region's nearest site more often than round robin does (GSLB-01), and the
RTT estimates are within 5 ms of the true path round trip except a site's first probe of each
LDNS (first contact: ARP on both LANs) and the changes. It needs summary.csv, rtt.csv and
events.csv. The figures are deterministic for the same CSV input.

Bad input (a missing folder, one with none of answers.csv, rtt.csv and visits.csv, a missing
or header-only file, a malformed row) ends with `gslb-plot: error: FILE[:LINE]: reason` and
exit status 2, before any plot is written.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_scriptutil as su  # noqa: E402

PROG = "gslb-plot"
BIN_S = 5.0
ANSWERS = {"method": su.TEXT, "time_s": su.NUMBER, "answer_site": su.TEXT}
RTT = {"method": su.TEXT, "time_s": su.NUMBER, "site": su.TEXT, "region": su.TEXT,
       "measured_ms": su.NUMBER, "true_ms": su.NUMBER}
VISITS = {"method": su.TEXT, "total_ms": su.NUMBER, "outcome": su.TEXT}
EVENTS = {"time_s": su.NUMBER, "event": su.TEXT}
SUMMARY = {"method": su.TEXT, "visits": su.COUNT, "completed": su.COUNT, "failed": su.COUNT,
           "open": su.COUNT, "nearest_share": su.share()}
EVENT_STYLE = ["tab:red", "black", "tab:green", "tab:purple", "tab:brown"]


def read_events(d, required=False):
    """[(time_s, event)]; events.csv is optional for the plots (no marks without it)."""
    if not required and not (d / "events.csv").exists():
        return []
    return [(r["time_s"], r["event"]) for r in
            su.read_csv(d / "events.csv", EVENTS, need_rows=False, declared_only=True)[1]]


def mark_events(ax, evs):
    """Each change as a vertical line, named in the legend (beside the axes: it hides no
    data)."""
    for i, (t, name) in enumerate(evs):
        ax.axvline(t, color=EVENT_STYLE[i % len(EVENT_STYLE)], linestyle=":", linewidth=1.2,
                   label=f"{t:g} s: {name}")


def plot_answers(plt, rows, evs, out):
    methods = sorted({r["method"] for r in rows})
    sites = sorted({r["answer_site"] for r in rows if r["answer_site"]})
    fig, axes = plt.subplots(len(methods), 1, figsize=(9, 0.8 + 2.6 * len(methods)),
                             squeeze=False, sharex=True)
    tmax = max(r["time_s"] for r in rows)
    nbins = int(tmax // BIN_S) + 1
    for ax, m in zip(axes[:, 0], methods):
        counts = {}
        for r in rows:
            if r["method"] != m or not r["answer_site"]:
                continue
            k = int(r["time_s"] // BIN_S)
            counts.setdefault(r["answer_site"], {}).setdefault(k, 0)
            counts[r["answer_site"]][k] += 1
        for s in sites:
            ys = [counts.get(s, {}).get(k, 0) for k in range(nbins)]
            # The last bin drawn to its end (steps-post needs the closing point).
            ax.plot([k * BIN_S for k in range(nbins + 1)], ys + ys[-1:], label=s,
                    drawstyle="steps-post")
        if not counts:
            su.no_data_note(ax, "no answer named a site")
        ax.set_title(f"{m}: DNS answers per site ({BIN_S:.0f} s bins)", fontsize=10)
        ax.set_ylabel("answers")
        su.integer_ticks(ax.yaxis)
        ax.grid(alpha=0.3)
        mark_events(ax, evs)
        su.legend_outside(ax, title="answered site")
    axes[-1, 0].set_xlabel("simulated time (s)")
    fig.suptitle("Which site the GSLB's DNS answers named, per method")
    fig.savefig(out)
    plt.close(fig)


def plot_rtt(plt, rows, evs, out):
    method = sorted({r["method"] for r in rows})[0]
    rows = [r for r in rows if r["method"] == method]
    pairs = sorted({(r["site"], r["region"]) for r in rows})
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for site, region in pairs:
        sel = [r for r in rows if r["site"] == site and r["region"] == region]
        xs = [r["time_s"] for r in sel]
        line = ax.plot(xs, [r["measured_ms"] for r in sel], ".", markersize=4,
                       label=f"{site} to region {region}")
        ax.plot(xs, [r["true_ms"] for r in sel], "-", linewidth=0.8,
                color=line[0].get_color())
    ax.set_title(f"{method}: RTT estimates (dots) against the true path round trip (lines)")
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("RTT (ms)")
    ax.grid(alpha=0.3)
    mark_events(ax, evs)
    su.legend_outside(ax, fontsize=7, title="site to LDNS region")
    fig.savefig(out)
    plt.close(fig)


def plot_latency(plt, rows, out):
    done = [r for r in rows if r["outcome"] == "completed"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for m in sorted({r["method"] for r in done}):
        xs = sorted(r["total_ms"] for r in done if r["method"] == m)
        ys = [(i + 1) / len(xs) for i in range(len(xs))]
        ax.plot(xs, ys, label=m, drawstyle="steps-post")
    if not done:
        su.no_data_note(ax, "no visit completed")
    ax.set_title("What users experienced: DNS + transfer time of completed visits")
    ax.set_xlabel("visit time (ms)")
    ax.set_ylabel("fraction of completed visits (CDF)")
    ax.grid(alpha=0.3)
    su.legend_outside(ax, title="method")
    fig.savefig(out)
    plt.close(fig)


def check(d):
    # Every input is read and checked first: bad input is exit status 2, not a failed check.
    _, summary = su.read_csv(d / "summary.csv", SUMMARY, declared_only=True)
    _, rtt = su.read_csv(d / "rtt.csv", RTT, need_rows=False, declared_only=True)
    changes = [t for t, _ in read_events(d, required=True)]
    problems = []
    near = {}
    for r in summary:
        done = r["completed"] + r["failed"] + r["open"]
        if r["visits"] != done:
            problems.append(f"{r['method']}: {r['visits']} visits but {done} accounted for")
        if r["completed"] == 0:
            problems.append(f"{r['method']}: no visit completed")
        near[r["method"]] = r["nearest_share"]
    if "RTT" in near and "ROUNDROBIN" in near and not near["RTT"] > near["ROUNDROBIN"]:
        problems.append(f"RTT answered the nearest site no more often ({near['RTT']:.3f}) than "
                        f"round robin ({near['ROUNDROBIN']:.3f})")
    contacted = set()
    for r in rtt:
        t = r["time_s"]
        pair = (r["method"], r["site"], r["region"])
        first, _ = pair not in contacted, contacted.add(pair)
        if first or any(abs(t - c) < 3.0 for c in changes):
            continue  # first contact (ARP on both LANs) and the changes themselves
        if abs(r["measured_ms"] - r["true_ms"]) > 5.0:
            problems.append(f"{r.where()}: RTT estimate {r['measured_ms']} ms of {r['site']} to "
                            f"region {r['region']} at {t:.3f} s is not within 5 ms of the true "
                            f"{r['true_ms']} ms")
            break
    for p in problems:
        print("gslb-plot --check:", p)
    return 1 if problems else 0


def main(argv):
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if argv and argv[0] == "--check":
        if len(argv) != 2:
            return su.usage_error(PROG, __doc__, "--check takes one argument, RESULTS_DIR")
        return check(su.need_folder(argv[1]))
    if len(argv) != 1:
        return su.usage_error(PROG, __doc__, "expected RESULTS_DIR or --check RESULTS_DIR")
    d = su.need_folder(argv[0])
    names = ("answers.csv", "rtt.csv", "visits.csv")
    if not any((d / n).exists() for n in names):
        raise su.InputError(f"{d}: none of {', '.join(names)} (not a gslb-rtt results folder?)")
    # Every input is checked before the first plot is written.
    answers, rtt, visits = (
        su.read_csv(d / name, columns, need_rows=need, declared_only=True)[1]
        if (d / name).exists() else None
        for name, columns, need in (("answers.csv", ANSWERS, True), ("rtt.csv", RTT, False),
                                    ("visits.csv", VISITS, True)))
    evs = read_events(d)
    su.check_writable(d)
    plt = su.setup_matplotlib()
    made = []
    if answers:
        plot_answers(plt, answers, evs, d / "gslb-answers.png")
        made.append("gslb-answers.png")
    if rtt:
        plot_rtt(plt, rtt, evs, d / "gslb-rtt.png")
        made.append("gslb-rtt.png")
    elif rtt is not None:
        print(f"{PROG}: {d / 'rtt.csv'} has no RTT sample (no method probed): no gslb-rtt.png",
              file=sys.stderr)
    if visits:
        plot_latency(plt, visits, d / "gslb-latency.png")
        made.append("gslb-latency.png")
    print(f"{PROG}: plots: " + ", ".join(made), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(su.run(PROG, main))
