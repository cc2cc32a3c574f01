#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check an slb-mux-failure run's CSV files (REQ: SLB-05, SLB-10, SLB-14).

Usage: check-slb-mux-failure.py RESULTS_DIR --hold SECONDS

RESULTS_DIR holds flows.csv and events.csv of one run; SECONDS is the --holdTime it ran with.
Exit status 0 when every check passes, 1 naming each one that failed, 2 on bad input.

1. Every request is accounted for: sent = completed + failed + open_at_stop (flows.csv).
2. Detection, per router, from events.csv's times alone. After a crash ("fail MUXn") the
   router withdraws the MUX's VIP route exactly when its hold timer runs out: SECONDS after
   the last KEEPALIVE or UPDATE it received from that MUX (RFC 4271 sections 4.4 and 6.5:
   either restarts the timer; a dead MUX sends no NOTIFICATION). The times are compared as
   the decimals the program wrote, so "exactly" means to the microsecond. After an orderly
   removal ("remove MUXn") the withdraw comes at or after the removal and before that hold
   timer would have run out: the MUX's own UPDATE withdrew the route. Every router must also
   learn the added MUX.
3. Connections, as the clients saw them (flows.csv's client-side columns): for each ECMP mode
   that has both maglev-ft-MODE (Maglev with a flow table) and maglev-MODE (without), the
   flow table broke fewer connections ("broken"); and every variant with a flow table has
   connections that survived the failure ("survived" > 0).
"""
import decimal
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import adc_scriptutil as su  # noqa: E402

PROG = "check-slb-mux-failure.py"
EVENTS = {"variant": su.TEXT, "event": su.TEXT, "router": su.TEXT, "time_s": su.TEXT}
FLOWS = {"variant": su.TEXT, "sent": su.COUNT, "completed": su.COUNT, "failed": su.COUNT,
         "open_at_stop": su.COUNT, "open_at_failure": su.COUNT, "survived": su.COUNT,
         "broken": su.COUNT, "broken_at_failure": su.COUNT}


def seconds(path, row, what):
    """A time_s field as an exact decimal, or None for "never"."""
    text = row["time_s"]
    if text == "never":
        return None
    try:
        value = decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise su.InputError(f"{path}: {what}: time_s {su.show(text)} is not a number of "
                            "seconds or 'never'") from None
    if not value.is_finite():
        raise su.InputError(f"{path}: {what}: time_s {su.show(text)} is not finite")
    return value


def check_detection(path, events, hold, problems):
    by_variant = {}
    for r in events:
        by_variant.setdefault(r["variant"], []).append(r)
    for variant, rows in by_variant.items():
        change = [r for r in rows if r["event"].split(" ")[0] in ("fail", "remove")]
        if len(change) != 1:
            problems.append(f"{variant}: {len(change)} 'fail MUXn'/'remove MUXn' events, not 1")
            continue
        kind, mux = change[0]["event"].split(" ", 1)
        at = seconds(path, change[0], f"{variant} {change[0]['event']}")
        routers = sorted({r["router"] for r in rows if r["router"]})
        if not routers:
            problems.append(f"{variant}: no router's events")
        for router in routers:
            mine = {r["event"]: r for r in rows if r["router"] == router}
            heard = [r for e, r in mine.items() if e.startswith("last ") and e.endswith(mux)]
            if "withdraw" not in mine or "learn" not in mine or len(heard) != 1:
                problems.append(f"{variant} {router}: needs one 'withdraw', one 'learn' and one "
                                f"'last KEEPALIVE/UPDATE from {mux}' row")
                continue
            last = seconds(path, heard[0], f"{variant} {router} {heard[0]['event']}")
            withdrawn = seconds(path, mine["withdraw"], f"{variant} {router} withdraw")
            learnt = seconds(path, mine["learn"], f"{variant} {router} learn")
            if last is None or withdrawn is None:
                problems.append(f"{variant} {router}: never heard from {mux} or never "
                                "withdrew it")
                continue
            expiry = last + hold
            print(f"{variant} {router}: {kind} {mux} at {at}, {heard[0]['event']} at {last}, "
                  f"hold timer expiry {expiry}, withdraw at {withdrawn}")
            if last > at:
                problems.append(f"{variant} {router}: last message from {mux} at {last}, after "
                                f"the {kind} at {at}")
            if kind == "fail" and withdrawn != expiry:
                problems.append(f"{variant} {router}: withdrew {mux} at {withdrawn}, not at its "
                                f"hold timer's expiry {last} + {hold} = {expiry}")
            if kind == "remove" and not at <= withdrawn < expiry:
                problems.append(f"{variant} {router}: withdrew the removed {mux} at {withdrawn}, "
                                f"not from the removal {at} to before the hold timer's expiry "
                                f"{expiry}")
            if learnt is None:
                problems.append(f"{variant} {router}: never learnt the added MUX")


def check_connections(flows, problems):
    rows = {}
    for r in flows:
        ended = r["completed"] + r["failed"] + r["open_at_stop"]
        if ended != r["sent"]:
            problems.append(f"{r['variant']}: {r['sent']} requests sent, {ended} ended")
        rows[r["variant"]] = r
    pairs = 0
    for name, r in rows.items():
        if name.startswith("maglev-ft-"):
            print(f"{name}: open at the failure {r['open_at_failure']}, survived "
                  f"{r['survived']}, broken {r['broken']} (at the failure "
                  f"{r['broken_at_failure']})")
            if r["survived"] == 0:
                problems.append(f"{name}: no connection survived the failure")
            plain = rows.get("maglev-" + name[len("maglev-ft-"):])
            if plain is not None:
                pairs += 1
                print(f"  without the flow table ({plain['variant']}): broken {plain['broken']}")
                if not r["broken"] < plain["broken"]:
                    problems.append(f"{name} broke {r['broken']} connections, not fewer than "
                                    f"{plain['variant']}'s {plain['broken']}")
    if not pairs:
        problems.append("flows.csv has no maglev-ft-MODE and maglev-MODE pair to compare")


def main(argv):
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 3 or argv[1] != "--hold":
        return su.usage_error(PROG, __doc__, "expected RESULTS_DIR --hold SECONDS")
    try:
        hold = decimal.Decimal(argv[2])
    except decimal.InvalidOperation:
        hold = decimal.Decimal(-1)
    if not hold.is_finite() or hold < 3:
        raise su.InputError(f"--hold {su.show(argv[2])}: not a BGP hold time in seconds (>= 3, "
                            "RFC 4271 section 4.2)")
    d = su.need_folder(argv[0])
    _, events = su.read_csv(d / "events.csv", EVENTS, declared_only=True)
    _, flows = su.read_csv(d / "flows.csv", FLOWS, declared_only=True)
    problems = []
    check_detection(d / "events.csv", events, hold, problems)
    check_connections(flows, problems)
    for p in problems:
        print(f"{PROG}: FAIL: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(su.run(PROG, main))
