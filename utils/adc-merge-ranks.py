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

Usage: adc-merge-ranks.py DIR   (merges DIR and its sub-folders)
       adc-merge-ranks.py --gather OUT PART...

--gather puts the merged folders of several distributed runs (one variant or method each, as
./adc run --ranks runs them) into OUT as one process running them all writes it: a file only
one part has is copied; a CSV that several have (summary.csv, a log with a method column)
gets every part's rows under one header, in part order; a file equal in every part (the
events of the run) is kept once. Other files that differ are an error naming them.

Bad input ends with `adc-merge-ranks: error: FILE[:LINE]: reason` and exit status 2, before
any file is written or moved: a missing folder, one with no per-rank file (a folder already
merged, with its rank files in ranks/, is left as it is, exit status 0), an empty rank file,
ranks whose headers differ, a row whose number of fields differs from its header's, a time or
id column (end_s, client_id, request_id, time_s, start_s) that is not a number ('never' sorts
last).
"""

import csv
import os
import pathlib
import re
import shutil
import sys
from collections import defaultdict

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_scriptutil as su  # noqa: E402

PROG = "adc-merge-ranks"
RANK_FILE = re.compile(r"^(?P<base>.+)\.rank(?P<rank>\d+)(?P<ext>\.[^./]+)?$")
# A time that never came (slb-mux-failure's events): after every number.
NEVER = "never"


def read(path):
    """(header, [Row]) of a CSV file, every row as long as its header (rows may be none: a
    rank that simulated no client writes a header only)."""
    header, rows = su.read_csv(path, need_rows=False)
    return header, rows


def as_list(header, row):
    return [row[h] for h in header]


def number(row, column):
    text = row[column]
    if text == NEVER:
        return float("inf")
    try:
        return su.NUMBER.convert(text)
    except ValueError:
        raise su.InputError(f"{row.where()}: column '{column}': {su.show(text)} is not a "
                            f"number (nor '{NEVER}')") from None


def tie_breaker(row, column):
    """A client column orders ties: numbers first, by value, then names."""
    text = row[column]
    try:
        return (0, su.NUMBER.convert(text), "")
    except ValueError:
        return (1, 0.0, text)


def sort_key(header):
    if {"client_id", "request_id", "end_s"} <= set(header):
        return lambda row: (number(row, "end_s"), number(row, "client_id"),
                            number(row, "request_id"))
    for column in ("time_s", "start_s"):
        if column in header:
            if "client" in header:
                return lambda row, t=column: (number(row, t), tie_breaker(row, "client"))
            return lambda row, t=column: (number(row, t),)
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


def merged_rows(files):
    """(header, rows as lists) of one group of rank files, merged; every file checked."""
    header, first, rows = None, None, []
    for _, path in sorted(files):
        h, r = read(path)
        if header is None:
            header, first = h, path
        elif h != header:
            raise su.InputError(f"{path}:1: header {su.show(','.join(h))} differs from "
                                f"{first}'s {su.show(','.join(header))}")
        rows.extend(r)
    # A file one rank wrote alone (what that rank simulates whole: the data centre's loads and
    # events) is the one-process file as it is, in its own order.
    if len(files) > 1:
        key = sort_key(header)
        if key:
            rows.sort(key=key)  # stable: rank order at a tie
        return header, add_up(header, [as_list(header, r) for r in rows])
    return header, [as_list(header, r) for r in rows]


def merge_group(folder, base, ext, files):
    header, rows = merged_rows(files)
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


def need_parts(parts):
    if not parts:
        raise su.InputError("--gather OUT PART...: no PART folder given")
    for part in parts:
        if not os.path.isdir(part):
            raise su.InputError(f"{part}: no such folder (a --gather PART)")


def check_gather(parts):
    """Every file several parts have is equal in them or a CSV with one header: checked before
    anything is copied."""
    first = {}
    for part in parts:
        for folder, _, names in os.walk(part):
            rel = os.path.relpath(folder, part)
            for n in sorted(names):
                src = os.path.join(folder, n)
                key = os.path.join(rel, n)
                if n.endswith(".csv"):
                    header, _ = read(src)
                    if key not in first:
                        first[key] = (src, header)
                    elif header != first[key][1]:
                        raise su.InputError(f"{src}:1: header {su.show(','.join(header))} "
                                            f"differs from {first[key][0]}'s")
                elif key not in first:
                    first[key] = (src, None)
                elif not same_bytes(src, first[key][0]):
                    raise su.InputError(f"{src} differs from {first[key][0]} and is no CSV")


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def gather(out, parts):
    need_parts(parts)
    check_gather(parts)
    for part in parts:
        for folder, _, names in os.walk(part):
            rel = os.path.relpath(folder, part)
            os.makedirs(os.path.join(out, rel), exist_ok=True)
            for n in sorted(names):
                src, dst = os.path.join(folder, n), os.path.join(out, rel, n)
                if not os.path.exists(dst):
                    shutil.copy2(src, dst)
                    continue
                if same_bytes(src, dst):
                    continue
                header, rows = read(src)
                with open(dst, "a", newline="") as f:
                    csv.writer(f, lineterminator="\n").writerows(as_list(header, r)
                                                                 for r in rows)


def find_groups(top):
    """[(folder, base, ext, [(rank, path)])] of every rank file group under top."""
    found = []
    for folder, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "ranks")
        groups = defaultdict(list)
        for n in names:
            m = RANK_FILE.match(n)
            if m and (m.group("ext") or "") == ".csv":
                groups[(m.group("base"), m.group("ext"))].append(
                    (int(m.group("rank")), os.path.join(folder, n)))
        for (base, ext), files in sorted(groups.items()):
            found.append((folder, base, ext, files))
    return found


def main(argv):
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if argv and argv[0] == "--gather":
        if len(argv) < 3:
            return su.usage_error(PROG, __doc__, "--gather needs OUT and at least one PART")
        gather(argv[1], argv[2:])
        return 0
    if len(argv) != 1:
        return su.usage_error(PROG, __doc__, "expected one argument, DIR")
    top = argv[0]
    if not os.path.isdir(top):
        raise su.InputError(f"{top}: no such folder")
    groups = find_groups(top)
    if not groups:
        merged_before = any("ranks" in dirs for _, dirs, _ in os.walk(top))
        if merged_before:
            print(f"{PROG}: nothing to merge under {top}: its rank files are in ranks/ already")
            return 0
        raise su.InputError(f"{top}: no per-rank file (NAME.rankK.csv) in it or its "
                            "sub-folders: not the output of a distributed run")
    # Every group is read and checked before anything is written or moved.
    for _, _, _, files in groups:
        merged_rows(files)
    for folder, base, ext, files in groups:
        out, n, rows = merge_group(folder, base, ext, files)
        print(f"merged {n} ranks into {out} ({rows} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(su.run(PROG, main))
