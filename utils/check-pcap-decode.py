#!/usr/bin/env python3
"""Check that a pcap written by an experiment decodes as the real protocols in Wireshark.

Usage: check-pcap-decode.py PCAP FILTER[=MIN] [FILTER[=MIN] ...]
PCAP may be a glob pattern: every file matching it is read and the counts are summed.
With --check-checksums (first argument), tshark validates IPv4, TCP and UDP checksums, so
"tcp.checksum.status == 0" counts bad TCP checksums and "tcp.checksum.status == 2" unverified
ones (the latter should be none when the simulation computed checksums).
With --decode-as RULE (before PCAP, repeatable), tshark decodes as RULE says, e.g.
"tcp.port==3011,nstrace.mep" for NetScaler's MEP, which claims no port of its own.
Each FILTER is a Wireshark display filter; at least MIN packets (default 1) must match it
(tshark, from Debian's tshark package, does the decoding). Also fails when tshark reports
malformed packets ("_ws.malformed") or checksum errors flagged as bad.
"""
import glob
import shutil
import subprocess
import sys


CHECKSUM_OPTIONS = []
DECODE_OPTIONS = []


def count(pcaps, display_filter):
    total = 0
    for pcap in pcaps:
        out = subprocess.run(["tshark", "-n", *CHECKSUM_OPTIONS, *DECODE_OPTIONS, "-r", pcap, "-Y", display_filter,
                              "-T", "fields", "-e", "frame.number"],
                             check=True, capture_output=True, text=True)
        total += len([line for line in out.stdout.splitlines() if line.strip()])
    return total


def main():
    args = sys.argv[1:]
    if args and args[0] == "--check-checksums":
        CHECKSUM_OPTIONS.extend(["-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE",
                                 "-o", "udp.check_checksum:TRUE"])
        args = args[1:]
    while len(args) >= 2 and args[0] == "--decode-as":
        DECODE_OPTIONS.extend(["-d", args[1]])
        args = args[2:]
    if len(args) < 2:
        print(__doc__)
        return 2
    if shutil.which("tshark") is None:
        print("tshark is not installed (apt-get install tshark)")
        return 1
    matches = sorted(glob.glob(args[0]))
    if not matches:
        print(f"no pcap file matches {args[0]}")
        return 1
    pcap, checks = matches, args[1:]
    print(f"reading {', '.join(matches)}")
    failed = False
    default_checks = ["_ws.malformed=0=max", "tcp.checksum.status == 0=0=max"]
    if CHECKSUM_OPTIONS:
        default_checks += ["ip.checksum.status == 0=0=max", "udp.checksum.status == 0=0=max"]
    for check in checks + default_checks:
        parts = check.rsplit("=", 2) if check.endswith("=max") else check.rsplit("=", 1)
        if check.endswith("=max"):
            flt, limit = parts[0], int(parts[1])
            n = count(pcap, flt)
            ok = n <= limit
            print(f"{'ok ' if ok else 'BAD'} {flt!r}: {n} packets (at most {limit})")
        else:
            if len(parts) == 2 and parts[1].isdigit() and not parts[0].endswith(("=", "!", "<", ">")):
                flt, minimum = parts[0], int(parts[1])
            else:
                flt, minimum = check, 1
            n = count(pcap, flt)
            ok = n >= minimum
            print(f"{'ok ' if ok else 'BAD'} {flt!r}: {n} packets (at least {minimum})")
        failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
