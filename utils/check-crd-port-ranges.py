#!/usr/bin/env python3
"""Check on the wire that each lower-tier appliance opens its origin connections from its own
exclusive source-port range (CRD-05, the seed's "Chaque appliance de niveau inferieur se voit
attribuer exclusivement un groupe ... au sein de la plage" 1024-65535).

Usage: check-crd-port-ranges.py PCAP_DIR CLIENT_IP NAME=LO-HI [NAME=LO-HI ...] [--min N]

PCAP_DIR holds the pcap files crd-flows --pcap writes (crd-<link>-<node>-<device>.pcap). For
each lower appliance NAME, the connections it opened to the origin are the SYNs from CLIENT_IP
(origin USIP) to port 80 on its link to the router (crd-router-NAME-*.pcap): the appliance that
carried a request is the one whose link the SYN crossed. Each such port must lie in NAME's own
range LO-HI. Then every SYN from CLIENT_IP to port 80 on the router-origin link
(crd-router-origin-*.pcap) must be one of those, so that no origin connection goes unchecked.
At least N origin connections (default 1) must be seen. Fails when a range overlaps another, a
port lies outside its carrier's range (for instance in another appliance's range), or a
connection at the origin was carried by no listed appliance. tshark does the decoding.
"""
import glob
import shutil
import subprocess
import sys

SYN_FILTER = "tcp.flags.syn == 1 && tcp.flags.ack == 0 && ip.src == {ip} && tcp.dstport == 80"


def syn_ports(pattern, client_ip):
    """Source ports of the client-IP SYNs to port 80 in the first pcap matching pattern."""
    matches = sorted(glob.glob(pattern))
    if not matches:
        raise FileNotFoundError(f"no pcap file matches {pattern}")
    out = subprocess.run(["tshark", "-n", "-r", matches[0], "-Y",
                          SYN_FILTER.format(ip=client_ip), "-T", "fields", "-e", "tcp.srcport"],
                         check=True, capture_output=True, text=True)
    return matches[0], [int(x) for x in out.stdout.split()]


def parse_range(text):
    name, _, span = text.partition("=")
    lo, _, hi = span.partition("-")
    lo, hi = int(lo), int(hi)
    if not name or lo < 1 or hi > 65535 or lo > hi:
        raise ValueError(f"bad range {text!r}: expected NAME=LO-HI within 1-65535")
    return name, lo, hi


def main():
    args = sys.argv[1:]
    minimum = 1
    if "--min" in args:
        i = args.index("--min")
        minimum = int(args[i + 1])
        del args[i:i + 2]
    if len(args) < 3:
        print(__doc__)
        return 2
    if shutil.which("tshark") is None:
        print("tshark is not installed (apt-get install tshark)")
        return 1
    pcap_dir, client_ip = args[0], args[1]
    ranges = [parse_range(a) for a in args[2:]]
    failed = False
    for i, (a, alo, ahi) in enumerate(ranges):
        for b, blo, bhi in ranges[i + 1:]:
            if alo <= bhi and blo <= ahi:
                print(f"BAD ranges of {a} ({alo}-{ahi}) and {b} ({blo}-{bhi}) overlap")
                failed = True
    carrier = {}
    for name, lo, hi in ranges:
        pcap, ports = syn_ports(f"{pcap_dir}/crd-router-{name}-*.pcap", client_ip)
        for port in ports:
            owners = [n for n, l, h in ranges if l <= port <= h]
            ok = lo <= port <= hi
            print(f"{'ok ' if ok else 'BAD'} {name} opened an origin connection from port "
                  f"{port} (its range {lo}-{hi}; port owned by {owners or 'nobody'}) [{pcap}]")
            failed |= not ok
            carrier[port] = name
    pcap, at_origin = syn_ports(f"{pcap_dir}/crd-router-origin-*.pcap", client_ip)
    for port in at_origin:
        ok = port in carrier
        print(f"{'ok ' if ok else 'BAD'} origin connection from port {port}: carried by "
              f"{carrier.get(port, 'no listed lower appliance')} [{pcap}]")
        failed |= not ok
    if len(at_origin) < minimum:
        print(f"BAD {len(at_origin)} origin connections (at least {minimum})")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
