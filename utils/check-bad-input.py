#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The bad-input matrix: runs an experiment program with one mistake at a time and checks that
it refuses each one properly.

  check-bad-input.py [--quick] [--jobs N] [--timeout S] [--work DIR] [--if-scaffold]
                     [--no-matrix] [--refuse 'TEXT::ARGS']... [--accept ARGS]... PROGRAM

The cases come from the program's own declaration of its options (the experiment scaffold's
hidden --PrintOptionSpec: each option's type, limits, allowed names, kind and the dependencies
between options), so a new option is covered without editing this file:
  - a number below its minimum, above its maximum (or its type's), not a number;
  - a flag that is not true or false;
  - a name that is not allowed, an empty list, a name listed twice;
  - an output folder that cannot be created (a path under a regular file: the tests run as
    root, so permission bits would not stop them);
  - an input file or folder that does not exist, and one with a malformed line (line 2);
  - each declared dependency broken (an index equal to its count, a time not before another);
  - ns-3's own arguments: an unknown type or attribute, a malformed value, an unknown option,
    a seed of 0, an unknown scheduler, --run and --RngRun disagreeing, a positional argument.

Each case must end within --timeout seconds with exit status 2, print one message
"PROGRAM: ..." that names the option (or FILE:2 for a malformed file), and show no crash: no
signal, no 134/139, no "terminate called", no sanitizer report, no ns-3 fatal error.

--refuse 'TEXT::ARGS' adds a case of the caller's (ARGS blank-separated, {work} replaced by the
scratch folder) that must be refused the same way, its message naming TEXT; --accept ARGS one
that must run to exit status 0 without a crash mark; --no-matrix runs only those.

--quick (the sanitizer build, where each process costs about a second) runs one case per
option, in turn of the kinds, and a few of the global cases. --if-scaffold exits 77 (skipped)
when the program does not print its option declaration (not built on the scaffold yet).
Exit status: 0 all cases passed, 1 a case failed, 2 bad usage, 77 skipped.
"""

import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import time

CRASH_MARKS = ("terminate called", "AddressSanitizer", "LeakSanitizer", "runtime error:",
               "Traceback (most recent call last)", "aborted. cond=", "NS_FATAL", "msg=\"")
BAD_LINE = "# bad-input test: line 2 below is not a command of any language\n" \
           "no-such-command-xyz 1 2\n"


def fail_usage(message):
    print(f"check-bad-input: {message}", file=sys.stderr)
    sys.exit(2)


def read_spec(program, timeout):
    """Return (name, options, dependencies, seed_and_run) from --PrintOptionSpec, or None."""
    try:
        out = subprocess.run([program, "--PrintOptionSpec"], capture_output=True, text=True,
                             timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        fail_usage(f"cannot run {program}: {e}")
    lines = out.stdout.splitlines()
    if out.returncode != 0 or not lines or not lines[0].startswith("program\t"):
        return None
    head = lines[0].split("\t")
    name = head[1]
    seed_and_run = "seedAndRun=1" in head
    options, dependencies = [], []
    for line in lines[1:]:
        fields = line.split("\t")
        if fields[0] == "option":
            o = dict(f.split("=", 1) for f in fields[1:])
            for key in ("special", "names", "sampleFiles"):
                o[key] = [v for v in o[key].split("|") if v]
            o["special"] = [float(v) for v in o["special"]]
            for key in ("min", "max"):
                if key in o:
                    o[key] = float(o[key])
            options.append(o)
        elif fields[0] == "dependency":
            dependencies.append({"kind": fields[1], "a": fields[2], "b": fields[3]})
    return name, options, dependencies, seed_and_run


def num(v):
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e18 else repr(float(v))


def outside(o, below):
    """A value just outside the option's range (below or above), or None."""
    integer = o["type"] != "double"
    bound = o.get("min" if below else "max")
    if bound is None:
        # The type's own limits.
        limits = {"uint32": (-1, 2**32), "uint64": (-1, 2**64), "int32": (-2**31 - 1, 2**31)}
        if o["type"] in limits:
            return str(limits[o["type"]][0 if below else 1])
        return None if below else "1e400"
    exclusive = o.get("minExclusive" if below else "maxExclusive") == "1"
    step = 1 if integer else max(1.0, abs(bound) * 0.5)
    v = bound if exclusive else (bound - step if below else bound + step)
    while v in o["special"]:
        v = v - step if below else v + step
    return num(v)


def option_cases(o, work):
    """The cases of one option: (label, args, expected text) tuples."""
    name, kind, typ = o["name"], o["kind"], o["type"]
    flag = f"--{name}"
    cases = []
    if typ == "bool":
        cases.append(("not a flag", [f"{flag}=maybe"], flag))
    elif typ != "string":
        for label, below in (("below its minimum", True), ("above its maximum", False)):
            v = outside(o, below)
            if v is not None:
                cases.append((label, [f"{flag}={v}"], flag))
        cases.append(("not a number", [f"{flag}=abc"], flag))
        if typ != "double":
            cases.append(("not a whole number", [f"{flag}=1.5"], flag))
    elif kind in ("value", "list"):
        if o["names"]:
            cases.append(("an unknown name", [f"{flag}=NoSuchName"], flag))
        if kind == "list":
            cases.append(("an empty list", [f"{flag}=,"], flag))
            if o["names"]:
                twice = f"{o['names'][0]},{o['names'][0]}"
                cases.append(("a name twice", [f"{flag}={twice}"], flag))
        elif o["optional"] == "0":
            cases.append(("empty", [f"{flag}="], flag))
    elif kind == "outdir":
        blocker = os.path.join(work, "a-regular-file")
        cases.append(("a folder under a regular file", [f"{flag}={blocker}/sub"], flag))
        if o["optional"] == "0":
            cases.append(("empty", [f"{flag}="], flag))
    elif kind in ("infile", "infiles"):
        missing = os.path.join(work, "no-such-file.conf")
        cases.append(("a missing file", [f"{flag}={missing}"], flag))
        bad = os.path.join(work, f"malformed-{name}.conf")
        cases.append(("a malformed file", [f"{flag}={bad}"], f"{bad}:2"))
    elif kind == "indir":
        missing = os.path.join(work, "no-such-folder")
        cases.append(("a missing folder", [f"{flag}={missing}"], flag))
        folder = os.path.join(work, f"malformed-{name}")
        for f in o["sampleFiles"]:
            cases.append((f"a malformed {f}", [f"{flag}={folder}"], f"{folder}/{f}:2"))
    return cases


def valid_value(o, work):
    """A value the option's own check accepts (for dependency cases), or None."""
    if o["kind"] in ("infile", "infiles"):
        return os.path.join(work, "readable-file")
    if o["kind"] == "indir":
        return work
    if o["kind"] == "outdir":
        return os.path.join(work, "out-dependency")
    return o["default"] or None


def dependency_cases(deps, options, work):
    by_name = {o["name"]: o for o in options}
    cases = []
    for d in deps:
        a, b = by_name.get(d["a"]), by_name.get(d["b"])
        if a is None or b is None:
            continue
        flag = f"--{a['name']}"
        if d["kind"] in ("less", "index"):
            cases.append((f"{d['kind']} {b['name']} broken", [f"{flag}={b['default']}"], flag))
        elif d["kind"] == "lessOrEqual":
            v = num(float(b["default"]) + 1)
            cases.append((f"at most {b['name']} broken", [f"{flag}={v}"], flag))
        elif d["kind"] == "requires":
            va = valid_value(a, work)
            if va is not None:
                cases.append((f"without {b['name']}", [f"{flag}={va}"], flag))
        elif d["kind"] == "excludes":
            va, vb = valid_value(a, work), valid_value(b, work)
            if va is not None and vb is not None:
                cases.append((f"with {b['name']}", [f"{flag}={va}", f"--{b['name']}={vb}"],
                              (flag, f"--{b['name']}")))
    return cases


def global_cases(seed_and_run):
    cases = [
        ("an unknown option", ["--noSuchOption=1"], "--noSuchOption"),
        ("a positional argument", ["stray-word"], "stray-word"),
        ("an unknown ns-3 type", ["--ns3::NoSuchType::X=1"], "ns3::NoSuchType"),
        ("an unknown ns-3 attribute", ["--ns3::TcpSocket::NoSuchAttribute=1"], "NoSuchAttribute"),
        ("a malformed ns-3 integer", ["--ns3::TcpSocket::SegmentSize=abc"], "SegmentSize"),
        ("a malformed ns-3 time", ["--ns3::TcpSocket::PersistTimeout=5xs"], "PersistTimeout"),
        ("a malformed ns-3 global", ["--ChecksumEnabled=maybe"], "ChecksumEnabled"),
        ("ns-3's RngRun not a number", ["--RngRun=abc"], "RngRun"),
        ("ns-3's RngSeed 0", ["--RngSeed=0"], "RngSeed"),
        ("an unknown scheduler", ["--SchedulerType=ns3::NoSuchScheduler"], "SchedulerType"),
        ("an unknown simulator", ["--SimulatorImplementationType=ns3::NoSuch"],
         "SimulatorImplementationType"),
        ("an unknown type to print", ["--PrintAttributes=ns3::NoSuchType"], "ns3::NoSuchType"),
    ]
    if seed_and_run:
        cases.append(("--run and --RngRun disagreeing", ["--run=1", "--RngRun=2"], "RngRun"))
        cases.append(("--seed 0", ["--seed=0"], "--seed"))
    return cases


def prepare(work, options):
    """Create the files and folders the cases name."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for name in ("a-regular-file", "readable-file"):
        with open(os.path.join(work, name), "w", encoding="utf-8") as f:
            f.write("# a regular file\n")
    for o in options:
        if o["kind"] in ("infile", "infiles"):
            with open(os.path.join(work, f"malformed-{o['name']}.conf"), "w",
                      encoding="utf-8") as f:
                f.write(BAD_LINE)
        if o["kind"] == "indir":
            folder = os.path.join(work, f"malformed-{o['name']}")
            os.makedirs(folder)
            for sample in o["sampleFiles"]:
                with open(os.path.join(folder, sample), "w", encoding="utf-8") as f:
                    f.write(BAD_LINE)


def run_case(program, name, case, work, out_dir, timeout, index):
    """Run one case; return a list of problems (empty: passed) and the time it took.
    A case whose expected text is None must succeed (exit status 0)."""
    label, args, expected = case
    command = [program] + args
    if out_dir and not any(a.startswith(f"--{out_dir}=") for a in args):
        command.append(f"--{out_dir}={os.path.join(work, f'out-{index}')}")
    start = time.monotonic()
    try:
        r = subprocess.run(command, capture_output=True, text=True, errors="replace",
                           timeout=timeout, cwd=work, check=False)
    except subprocess.TimeoutExpired:
        return [f"did not end within {timeout} s"], timeout
    took = time.monotonic() - start
    problems = []
    text = r.stderr + r.stdout
    if r.returncode < 0 or r.returncode in (134, 139):
        problems.append(f"crashed (status {r.returncode})")
    elif r.returncode != (0 if expected is None else 2):
        problems.append(f"exit status {r.returncode}, not {0 if expected is None else 2}")
    for mark in CRASH_MARKS:
        if mark in text:
            problems.append(f"printed {mark!r}")
    if expected is None:
        return [f"{label}: {' '.join(args)}: {p}\n    stderr: {r.stderr.strip()[-400:]!r}"
                for p in problems], took
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith(f"{name}: ")]
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines start with '{name}: ', not 1")
    elif lines[0].startswith(f"{name}: {name}:"):
        problems.append("the program's name twice")
    alternatives = expected if isinstance(expected, tuple) else (expected,)
    if not any(e in r.stderr for e in alternatives):
        problems.append(f"the message does not name {' or '.join(alternatives)}")
    return [f"{label}: {' '.join(args)}: {p}\n    stderr: {r.stderr.strip()[-400:]!r}"
            for p in problems], took


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("program")
    ap.add_argument("--work", default=None, help="scratch folder (default: a temporary one)")
    ap.add_argument("--quick", action="store_true", help="one case per option (sanitizers)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds each case may take")
    ap.add_argument("--if-scaffold", action="store_true",
                    help="skip (77) a program that does not print its option declaration")
    ap.add_argument("--refuse", action="append", default=[], metavar="TEXT::ARGS",
                    help="also: ARGS must be refused with a message naming TEXT")
    ap.add_argument("--accept", action="append", default=[], metavar="ARGS",
                    help="also: ARGS must run to exit status 0")
    ap.add_argument("--no-matrix", action="store_true", help="only the --refuse/--accept cases")
    args = ap.parse_args()
    if args.jobs < 1 or args.timeout <= 0:
        fail_usage("--jobs must be >= 1 and --timeout > 0")
    args.program = os.path.abspath(args.program)
    if not os.access(args.program, os.X_OK):
        fail_usage(f"{args.program}: not an executable program")
    spec = read_spec(args.program, max(args.timeout, 30))
    if spec is None:
        if args.if_scaffold:
            print(f"{args.program}: no --PrintOptionSpec (not on the experiment scaffold): skipped")
            sys.exit(77)
        fail_usage(f"{args.program} --PrintOptionSpec printed no option declaration")
    name, options, deps, seed_and_run = spec
    work = os.path.abspath(args.work or os.path.join("/tmp", f"bad-input-{name}-{os.getpid()}"))
    prepare(work, options)

    per_option = [option_cases(o, work) for o in options]
    # An option that needs another is tried with a valid value of that one.
    by_name = {o["name"]: o for o in options}
    for o, cs in zip(options, per_option):
        for d in deps:
            if d["kind"] == "requires" and d["a"] == o["name"] and d["b"] in by_name:
                extra = valid_value(by_name[d["b"]], work)
                cs[:] = [(lb, a + [f"--{d['b']}={extra}"], e) for lb, a, e in cs]
    deps_cases = dependency_cases(deps, options, work)
    globals_ = global_cases(seed_and_run)
    if args.quick:
        # One case per option, the kinds taken in turn; every third dependency and global case.
        cases = [c[i % len(c)] for i, c in enumerate(per_option) if c]
        cases += deps_cases[::3] + globals_[::3]
    else:
        cases = [c for cs in per_option for c in cs] + deps_cases + globals_
    if args.no_matrix:
        cases = []
    for spec_text in args.refuse:
        text, sep, rest = spec_text.partition("::")
        if not sep or not text:
            fail_usage(f"--refuse {spec_text!r}: allowed TEXT::ARGS")
        cases.append(("the caller's case", rest.replace("{work}", work).split(), text))
    for spec_text in args.accept:
        cases.append(("the caller's run", spec_text.replace("{work}", work).split(), None))
    out_dir = "outputDir" if any(o["name"] == "outputDir" for o in options) else None

    failures, failed, slowest = [], 0, 0.0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_case, args.program, name, c, work, out_dir, args.timeout, i)
                   for i, c in enumerate(cases)]
        for f in futures:
            problems, took = f.result()
            failures += problems
            failed += 1 if problems else 0
            slowest = max(slowest, took)
    for p in failures:
        print(f"FAIL {name}: {p}")
    print(f"{name}: {len(cases)} cases, {failed} failed; slowest case {slowest:.2f} s")
    if not failures:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
