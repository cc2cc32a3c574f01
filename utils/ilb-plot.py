#!/usr/bin/env python3
"""Plots of the ilb-topologies experiment (Integrated Load Balancer: DSR, Half-NAT, Full-NAT).

Usage: ilb-plot.py RESULTS_DIR

Reads, in RESULTS_DIR:
  ilb-TOPO.csv   (topology,source,direction,packets,bytes)  -> ilb-packets.png: packets through
                 the ILB per direction (request/response at its client-side port), one bar group
                 per topology
  seen-TOPO.csv  (topology,server,peer_ip,requests)          -> ilb-seen.png: the distinct client
                 addresses the servers saw per topology, split into the clients' own addresses
                 (from requests-TOPO.csv, which each seen-TOPO.csv needs) and others (Full-NAT
                 source addresses)
The per-request, throughput and load files of the same run are adc-plot.py's. Topologies are
drawn in the order DSR, HALF_NAT, FULL_NAT, then any other in name order; the figures are
deterministic for the same CSV input.

Bad input (a missing folder, one with neither ilb-*.csv nor seen-*.csv, a file with only a
header, a malformed row) ends with `ilb-plot: error: FILE[:LINE]: reason` and exit status 2,
before any plot is written.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_scriptutil as su  # noqa: E402

PROG = "ilb-plot"
ORDER = ["DSR", "HALF_NAT", "FULL_NAT"]
DIRECTIONS = ["request", "response"]
PACKETS = {"source": su.TEXT, "direction": su.TEXT, "packets": su.COUNT}
SEEN = {"peer_ip": su.TEXT}
REQUESTS = {"client_ip": su.TEXT}


def topo_of(path, prefix):
    stem = path.stem
    return stem[len(prefix) + 1:] if stem.startswith(prefix + "-") else stem


def sort_key(topo):
    return (ORDER.index(topo), "") if topo in ORDER else (len(ORDER), topo)


def files_by_topology(d, prefix):
    found = {topo_of(p, prefix): p for p in d.glob(prefix + "-*.csv")}
    return [(t, found[t]) for t in sorted(found, key=sort_key)]


def read_packets(files):
    """{direction: [packets per topology]} at the ILB's client-side port."""
    counts = {d: [] for d in DIRECTIONS}
    for _, path in files:
        _, rows = su.read_csv(path, PACKETS, declared_only=True)
        by_dir = {r["direction"]: r["packets"] for r in rows if r["source"] == "client-side-port"}
        missing = [d for d in DIRECTIONS if d not in by_dir]
        if missing:
            raise su.InputError(f"{path}: no 'client-side-port' row with direction "
                                f"{' or '.join(repr(d) for d in missing)} (ilb-packets.png "
                                "draws them)")
        for d in DIRECTIONS:
            counts[d].append(by_dir[d])
    return counts


def read_seen(d, files):
    """([own addresses], [other addresses]) per topology."""
    own, other = [], []
    for topo, path in files:
        _, rows = su.read_csv(path, SEEN, declared_only=True)
        requests = d / f"requests-{topo}.csv"
        if not requests.exists():
            raise su.InputError(f"{requests}: no such file (it tells the clients' own addresses "
                                f"from the others {path.name} holds)")
        _, reqs = su.read_csv(requests, REQUESTS, declared_only=True)
        clients = {r["client_ip"] for r in reqs}
        peers = sorted({r["peer_ip"] for r in rows})
        own.append(sum(p in clients for p in peers))
        other.append(sum(p not in clients for p in peers))
    return own, other


def plot_packets(plt, topos, counts, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    width = 0.38
    for i, d in enumerate(DIRECTIONS):
        xs = [k + (i - 0.5) * width for k in range(len(topos))]
        bars = ax.bar(xs, counts[d], width=width, label=d)
        ax.bar_label(bars, fontsize=8)
    ax.set_ylim(0, max(counts["request"] + counts["response"] + [1]) * 1.15)
    ax.set_xticks(list(range(len(topos))), topos)
    ax.set_xlabel("topology")
    ax.set_ylabel("packets through the ILB")
    su.integer_ticks(ax.yaxis)
    ax.set_title("Packets through the ILB per direction\n"
                 "(DSR responses bypass it; NAT responses return through it)")
    su.legend_outside(ax, title="direction")
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(out)
    plt.close(fig)


def plot_seen(plt, topos, own, other, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = list(range(len(topos)))
    b1 = ax.bar(xs, own, label="clients' own addresses")
    b2 = ax.bar(xs, other, bottom=own, label="other addresses (NAT source range)")
    ax.bar_label(b1, labels=[str(v) if v else "" for v in own], label_type="center", fontsize=8)
    ax.bar_label(b2, labels=[str(v) if v else "" for v in other], label_type="center",
                 fontsize=8)
    top = max([a + b for a, b in zip(own, other)] + [1])
    ax.set_ylim(0, top * 1.1)
    ax.set_xticks(xs, topos)
    ax.set_xlabel("topology")
    ax.set_ylabel("distinct client addresses seen by the servers")
    su.integer_ticks(ax.yaxis)
    ax.set_title("What the back-ends see as the client")
    su.legend_outside(ax, title="source address")
    fig.savefig(out)
    plt.close(fig)


def main(argv):
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 1:
        return su.usage_error(PROG, __doc__, "expected one argument, RESULTS_DIR")
    d = su.need_folder(argv[0])
    packets = files_by_topology(d, "ilb")
    seen = files_by_topology(d, "seen")
    if not packets and not seen:
        raise su.InputError(f"{d}: no ilb-TOPO.csv or seen-TOPO.csv (not an ilb-topologies "
                            "results folder?)")
    # Every input is checked before the first plot is written.
    counts = read_packets(packets)
    own, other = read_seen(d, seen)
    su.check_writable(d)
    plt = su.setup_matplotlib()
    made = []
    if packets:
        plot_packets(plt, [t for t, _ in packets], counts, d / "ilb-packets.png")
        made.append("ilb-packets.png")
    if seen:
        plot_seen(plt, [t for t, _ in seen], own, other, d / "ilb-seen.png")
        made.append("ilb-seen.png")
    print(f"{PROG}: plots: " + ", ".join(made), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(su.run(PROG, main))
