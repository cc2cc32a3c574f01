#!/usr/bin/env python3
"""Plots of the ilb-topologies experiment (Integrated Load Balancer: DSR, Half-NAT, Full-NAT).

Usage: ilb-plot.py RESULTS_DIR

Reads, in RESULTS_DIR:
  ilb-TOPO.csv   (topology,source,direction,packets,bytes)  -> ilb-packets.png: packets through
                 the ILB per direction (request/response at its client-side port), one bar group
                 per topology
  seen-TOPO.csv  (topology,server,peer_ip,requests)          -> ilb-seen.png: the distinct client
                 addresses the servers saw per topology, split into the clients' own addresses
                 and others (Full-NAT source addresses)
The per-request, throughput and load files of the same run are adc-plot.py's. Topologies are
drawn in the order DSR, HALF_NAT, FULL_NAT, then any other in name order; the figures are
deterministic for the same CSV input.
"""
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"figure.dpi": 110, "savefig.bbox": "tight", "svg.hashsalt": "adc"})

ORDER = ["DSR", "HALF_NAT", "FULL_NAT"]


def topo_of(path, prefix):
    stem = path.stem
    return stem[len(prefix) + 1:] if stem.startswith(prefix + "-") else stem


def sort_key(topo):
    return (ORDER.index(topo), "") if topo in ORDER else (len(ORDER), topo)


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def files_by_topology(d, prefix):
    found = {topo_of(p, prefix): p for p in d.glob(prefix + "-*.csv")}
    return [(t, found[t]) for t in sorted(found, key=sort_key)]


def plot_packets(files, out):
    directions = ["request", "response"]
    topos = [t for t, _ in files]
    counts = {d: [] for d in directions}
    for _, path in files:
        rows = [r for r in read_rows(path) if r["source"] == "client-side-port"]
        by_dir = {r["direction"]: int(r["packets"]) for r in rows}
        for d in directions:
            counts[d].append(by_dir.get(d, 0))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    width = 0.38
    for i, d in enumerate(directions):
        xs = [k + (i - 0.5) * width for k in range(len(topos))]
        bars = ax.bar(xs, counts[d], width=width, label=d)
        ax.bar_label(bars, fontsize=8)
    ax.set_ylim(0, max(counts["request"] + counts["response"] + [1]) * 1.2)
    ax.set_xticks(list(range(len(topos))), topos)
    ax.set_ylabel("packets through the ILB")
    ax.set_title("Packets through the ILB per direction\n"
                 "(DSR responses bypass it; NAT responses return through it)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(out)
    plt.close(fig)


def plot_seen(files, clients_by_topo, out):
    topos = [t for t, _ in files]
    own, other = [], []
    for topo, path in files:
        peers = sorted({r["peer_ip"] for r in read_rows(path)})
        clients = clients_by_topo.get(topo, set())
        own.append(sum(p in clients for p in peers))
        other.append(sum(p not in clients for p in peers))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = list(range(len(topos)))
    b1 = ax.bar(xs, own, label="clients' own addresses")
    b2 = ax.bar(xs, other, bottom=own, label="other addresses (NAT source range)")
    ax.bar_label(b1, labels=[str(v) if v else "" for v in own], label_type="center", fontsize=8)
    ax.bar_label(b2, labels=[str(v) if v else "" for v in other], label_type="center",
                 fontsize=8)
    top = max([a + b for a, b in zip(own, other)] + [1])
    ax.set_ylim(0, top * 1.3)
    ax.set_xticks(xs, topos)
    ax.set_ylabel("distinct client addresses seen by the servers")
    ax.set_title("What the back-ends see as the client")
    ax.legend(fontsize=8, loc="upper right")
    fig.savefig(out)
    plt.close(fig)


def client_addresses(d):
    """Client addresses per topology, from the request logs (requests-TOPO.csv)."""
    out = {}
    for topo, path in files_by_topology(d, "requests"):
        out[topo] = {r["client_ip"] for r in read_rows(path)}
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    d = pathlib.Path(sys.argv[1])
    made = []
    packets = files_by_topology(d, "ilb")
    if packets:
        plot_packets(packets, d / "ilb-packets.png")
        made.append("ilb-packets.png")
    seen = files_by_topology(d, "seen")
    if seen:
        plot_seen(seen, client_addresses(d), d / "ilb-seen.png")
        made.append("ilb-seen.png")
    print("plots: " + (", ".join(made) if made else "none (no ilb-*.csv or seen-*.csv)"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
