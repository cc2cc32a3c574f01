#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Merge the per-rank files of a distributed (MPI) run into the files a one-process run writes.

Under MPI every rank writes its own CSV files, NAME.rankK.csv (AdcMpi::RankFileName): each
holds the rows of what that rank simulated (its clients' requests, its samples). This script
merges each group into NAME.csv, the file a one-process run writes, and moves the rank files
into ranks/:

  * a per-request log (columns client_id, request_id, end_s, ...): the rows of every rank,
    ordered by end time, then client and request id (a one-process log is in completion order);
  * a file with a time_s or start_s column: rows ordered by it (then by client when there is
    a client column), ranks in rank order at a tie;
  * any other CSV: the ranks' rows one after the other;
  * a file only one rank wrote (rank 0's data centre files): its rows as they are.

Samples that several ranks take of one thing (AdcThroughputSampler's "ALL" row: each rank sums
its own applications) are added up: in a file with time_s, name and bytes columns, rows with
the same time_s, name and direction from different ranks become one row whose numeric columns
are the sums (at the inputs' precision).

Usage: adc-merge-ranks.py DIR   (merges DIR and its sub-folders; exits 1 when headers differ)
       adc-merge-ranks.py --gather OUT PART...

--gather puts the merged folders of several distributed runs (one variant or method each, as
./adc run --ranks runs them) into OUT as one process running them all writes it: a file only
one part has is copied; a CSV that several have (summary.csv, a log with a method column)
gets every part's rows under one header, in part order; a file equal in every part (the
events of the run) is kept once. Other files that differ are an error naming them.
"""

import csv
import os
import re
import shutil
import sys
from collections import defaultdict

RANK_FILE = re.compile(r"^(?P<base>.+)\.rank(?P<rank>\d+)(?P<ext>\.[^./]+)?$")


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return (rows[0], rows[1:]) if rows else ([], [])


def number(text):
    try:
        return float(text)
    except ValueError:
        return float("inf")


def sort_key(header):
    if {"client_id", "request_id", "end_s"} <= set(header):
        e, c, r = (header.index(n) for n in ("end_s", "client_id", "request_id"))
        return lambda row: (number(row[e]), number(row[c]), number(row[r]))
    for column in ("time_s", "start_s"):
        if column in header:
            t = header.index(column)
            c = header.index("client") if "client" in header else t
            return lambda row: (number(row[t]), number(row[c]))
    return None


def decimals(text):
    return len(text) - text.index(".") - 1 if "." in text else 0


def add_up(header, rows):
    """Rows of one (time_s, name, direction) from several ranks: one row, numbers summed."""
    if not {"time_s", "name", "bytes"} <= set(header):
        return rows
    keys = [header.index(c) for c in ("time_s", "name", "direction") if c in header]
    out, where = [], {}
    for row in rows:
        k = tuple(row[i] for i in keys)
        if k not in where:
            where[k] = len(out)
            out.append(list(row))
            continue
        acc = out[where[k]]
        for i, v in enumerate(row):
            if i in keys:
                continue
            try:
                total = float(acc[i]) + float(v)
            except ValueError:
                continue
            d = max(decimals(acc[i]), decimals(v))
            acc[i] = f"{total:.{d}f}" if d else str(int(round(total)))
    return out


def merge_group(folder, base, ext, files):
    header = None
    rows = []
    for _, path in sorted(files):
        h, r = read(path)
        if header is None:
            header = h
        elif h != header:
            sys.exit(f"adc-merge-ranks: {path}: header {h} differs from {header}")
        rows.extend(r)
    # A file one rank wrote alone (what that rank simulates whole: the data centre's loads and
    # events) is the one-process file as it is, in its own order.
    if len(files) > 1:
        rows = add_up(header or [], rows)
        key = sort_key(header or [])
        if key:
            rows.sort(key=key)  # stable: rank order at a tie
    out = os.path.join(folder, base + ext)
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    ranks = os.path.join(folder, "ranks")
    os.makedirs(ranks, exist_ok=True)
    for _, path in files:
        os.replace(path, os.path.join(ranks, os.path.basename(path)))
    return out, len(files), len(rows)


def gather(out, parts):
    for part in parts:
        for folder, _, names in os.walk(part):
            rel = os.path.relpath(folder, part)
            os.makedirs(os.path.join(out, rel), exist_ok=True)
            for n in sorted(names):
                src, dst = os.path.join(folder, n), os.path.join(out, rel, n)
                if not os.path.exists(dst):
                    shutil.copy2(src, dst)
                    continue
                with open(src, "rb") as a, open(dst, "rb") as b:
                    if a.read() == b.read():
                        continue
                if not n.endswith(".csv"):
                    sys.exit(f"adc-merge-ranks: {src} differs from {dst} and is no CSV")
                head_src, rows = read(src)
                head_dst, _ = read(dst)
                if head_src != head_dst:
                    sys.exit(f"adc-merge-ranks: {src}: header {head_src} differs from {dst}'s")
                with open(dst, "a", newline="") as f:
                    csv.writer(f, lineterminator="\n").writerows(rows)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--gather":
        gather(sys.argv[2], sys.argv[3:])
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    merged = 0
    for folder, dirs, names in os.walk(sys.argv[1]):
        dirs[:] = [d for d in dirs if d != "ranks"]
        groups = defaultdict(list)
        for n in names:
            m = RANK_FILE.match(n)
            if m and (m.group("ext") or "") == ".csv":
                groups[(m.group("base"), m.group("ext"))].append(
                    (int(m.group("rank")), os.path.join(folder, n)))
        for (base, ext), files in sorted(groups.items()):
            out, n, rows = merge_group(folder, base, ext, files)
            print(f"merged {n} ranks into {out} ({rows} rows)")
            merged += 1
    if merged == 0:
        print("adc-merge-ranks: no per-rank files (NAME.rankK.csv) under " + sys.argv[1])


if __name__ == "__main__":
    main()
