#!/usr/bin/env python3
"""Run an experiment twice with the same seed and run number; every output file must match
byte for byte. Then once with another run number: at least one trace must differ (so the
check can fail: a program that ignored the seed would pass the first half only by accident).

Usage: check-determinism.py --work DIR -- PROGRAM [ARGS...]
The program must accept --outputDir=DIR and --run=N (ns-3's RngRun via CommandLine).
"""
import argparse
import filecmp
import pathlib
import shutil
import subprocess
import sys


def run(prog, args, out, run_number):
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    cmd = [prog, *args, f"--outputDir={out}", f"--run={run_number}"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    ns = ap.parse_args()
    cmd = ns.cmd[1:] if ns.cmd and ns.cmd[0] == "--" else ns.cmd
    prog, args = cmd[0], cmd[1:]
    work = pathlib.Path(ns.work)
    a = run(prog, args, work / "a", 1)
    b = run(prog, args, work / "b", 1)
    c = run(prog, args, work / "c", 2)
    if not a:
        print("the program wrote no files")
        return 1
    if a != b:
        print(f"different file sets: {a} vs {b}")
        return 1
    for f in a:
        if not filecmp.cmp(work / "a" / f, work / "b" / f, shallow=False):
            print(f"{f} differs between two runs with the same seed and run number")
            return 1
    differs = [f for f in a if (work / "c" / f).is_file()
               and not filecmp.cmp(work / "a" / f, work / "c" / f, shallow=False)]
    if not differs:
        print("no output changed with another run number: the seed is not used")
        return 1
    print(f"{len(a)} files identical across two runs; {len(differs)} change with the run number")
    return 0


if __name__ == "__main__":
    sys.exit(main())
