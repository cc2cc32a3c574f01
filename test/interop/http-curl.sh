#!/usr/bin/env bash
# Interoperability: a real HTTP client (curl, from Debian) reaching simulated appliances through
# a tap (examples/emulate-http.cc), in a network namespace of its own.
#   - the ILB in DSR, Half-NAT and Full-NAT: every GET answered in full, the server's address as
#     the client expects it (the VIP), the client address each server saw as the seed says
#     (ILB-03/04: the client's own; ILB-05: the rule's NAT source), round robin spreading new
#     connections evenly (illumos ilb_alg_rr.c hands them to the servers in turn);
#   - a CS vserver: curl -v shows the NSC_ cookie COOKIEINSERT sets (CS-04), curl's cookie jar
#     keeps every request on one version across a 50 % canary (CS-03), cookie-less requests are
#     spread over both versions by the canary policy (CS-01/02), and under SOURCEIP cookie-less
#     requests from one address stay on one version (CS-04).
# REQ: ILB-01, ILB-02, ILB-03, ILB-04, ILB-05, ILB-06, CS-01, CS-02, CS-03, CS-04
# usage: http-curl.sh PATH/TO/emulate-http
set -euo pipefail
. "$(dirname "$0")/adc-interop-lib.sh"
PROG=$(readlink -f "$1")
adc_require curl ip "$PROG"
adc_interop_enter "$@"

TAP=adc-http0
HOST=192.0.2.1
SIM_PID=

start_sim() { # NAME OPTION...
  local name=$1
  shift
  "$PROG" --tap=$TAP --hostAddress=$HOST --simAddress=192.0.2.2 \
    --outputDir="$ADC_WORK/$name" "$@" >"$ADC_WORK/$name.out" 2>&1 &
  SIM_PID=$!
  adc_track_pid "$SIM_PID"
  if ! adc_wait_tap $TAP 20; then
    cat "$ADC_WORK/$name.out" >&2
    adc_fail "$name: the simulation's tap did not come up"
  fi
}

stop_sim() { # NAME
  kill -INT "$SIM_PID"
  local status=0
  wait "$SIM_PID" || status=$?
  [[ $status -eq 0 ]] || { cat "$ADC_WORK/$1.out" >&2; adc_fail "$1: the simulation exited with $status"; }
  # The tap goes with the simulation's descriptor.
  adc_wait_for 5 sh -c "! ip link show $TAP" || adc_fail "$1: the tap outlived the simulation"
}

get() { # URL OUT-PREFIX [CURL-OPTION...]: GET, headers in OUT.h, body in OUT.b; prints the code
  local url=$1 out=$2
  shift 2
  curl -sS --max-time 10 -o "$out.b" -D "$out.h" -w '%{http_code}' "$@" "$url"
}

header() { # FILE NAME: the header's value (first), without CR
  grep -i "^$2:" "$1" | head -1 | sed -e 's/^[^:]*: *//' -e 's/\r$//'
}

# ---- the ILB in each topology
for topo in DSR HALF_NAT FULL_NAT; do
  start_sim "$topo" --target="$topo" --objectSize=2000
  for i in 1 2 3 4 5 6; do
    code=$(get "http://10.100.0.10/obj$i.html" "$ADC_WORK/$topo-$i") ||
      adc_fail "$topo: curl failed on request $i"
    [[ $code == 200 ]] || adc_fail "$topo: request $i: HTTP $code, expected 200"
    size=$(stat -c %s "$ADC_WORK/$topo-$i.b")
    [[ $size == 2000 ]] || adc_fail "$topo: request $i: $size body bytes, expected 2000"
    server=$(header "$ADC_WORK/$topo-$i.h" Server)
    [[ $server =~ ^server[1-3]$ ]] || adc_fail "$topo: request $i: Server '$server', expected server1..3"
  done
  stop_sim "$topo"
  log=$ADC_WORK/$topo/access.csv
  rows=$(($(wc -l <"$log") - 1))
  [[ $rows == 6 ]] || adc_fail "$topo: the servers logged $rows requests, curl made 6"
  # The TCP peer each server saw: the client itself in DSR and Half-NAT (ILB-03, ILB-04), a
  # NAT source of the rule's range 10.200.0.1-10.200.0.4 in Full-NAT (ILB-05).
  peers=$(tail -n +2 "$log" | cut -d, -f2 | sort -u | tr '\n' ' ')
  case $topo in
  FULL_NAT) [[ $peers =~ ^(10\.200\.0\.[1-4] )+$ ]] || adc_fail "$topo: servers saw peers '$peers', expected the NAT range 10.200.0.1-4" ;;
  *) [[ $peers == "$HOST " ]] || adc_fail "$topo: servers saw peers '$peers', expected the client $HOST" ;;
  esac
  if [[ $topo != DSR ]]; then
    # Round robin over 3 servers, 6 new connections: 2 each.
    counts=$(tail -n +2 "$log" | cut -d, -f1 | sort | uniq -c | awk '{print $1}' | tr '\n' ' ')
    [[ $counts == "2 2 2 " ]] || adc_fail "$topo: round robin gave per-server counts '$counts', expected 2 2 2"
  fi
  adc_pass "$topo: 6 GETs through the ILB answered in full; servers saw '$peers'"
done

# ---- content switching, COOKIEINSERT, canary at 50 %
start_sim cs-cookie --target=CS --persistence=COOKIEINSERT --timeout=2 --canary=50
JAR=$ADC_WORK/jar
curl -sS -v --max-time 10 -c "$JAR" -b "$JAR" -o /dev/null http://198.51.100.10/a.html \
  2>"$ADC_WORK/verbose.txt" || adc_fail "CS: curl -v failed"
grep -qE '^< Set-Cookie: NSC_[^=;[:space:]]+=' "$ADC_WORK/verbose.txt" ||
  { cat "$ADC_WORK/verbose.txt" >&2; adc_fail "CS: curl -v shows no 'Set-Cookie: NSC_...' (CS-04)"; }
# RFC 9110 7.6.3: Via = received-protocol SP received-by (the CS vserver is a proxy).
grep -qE '^< Via: (HTTP/)?1\.1 [^[:space:]]+' "$ADC_WORK/verbose.txt" ||
  adc_fail "CS: curl -v shows no 'Via: 1.1 <proxy>' header from the CS vserver"
# curl keeps only cookies that have not expired: the Expires date is a real date in the future.
grep -qE $'\t''NSC_[^=;[:space:]]+'$'\t' "$JAR" || adc_fail "CS: curl's cookie jar holds no NSC_ cookie"
first=
for i in $(seq 1 10); do
  code=$(get "http://198.51.100.10/p$i.html" "$ADC_WORK/cs-$i" -c "$JAR" -b "$JAR") ||
    adc_fail "CS: curl failed on request $i"
  [[ $code == 200 ]] || adc_fail "CS: request $i: HTTP $code"
  v=$(header "$ADC_WORK/cs-$i.h" X-App-Version)
  [[ $v =~ ^v[12]$ ]] || adc_fail "CS: request $i: X-App-Version '$v', expected v1 or v2"
  first=${first:-$v}
  [[ $v == "$first" ]] || adc_fail "CS: with its cookie jar request $i reached $v after $first (CS-03)"
done
adc_pass "CS COOKIEINSERT: curl's cookie jar kept 10 requests on $first"
seen=
for i in $(seq 1 20); do
  code=$(get "http://198.51.100.10/n$i.html" "$ADC_WORK/nc-$i") || adc_fail "CS: cookie-less request $i failed"
  [[ $code == 200 ]] || adc_fail "CS: cookie-less request $i: HTTP $code"
  seen+=" $(header "$ADC_WORK/nc-$i.h" X-App-Version)"
done
[[ $seen == *v1* && $seen == *v2* ]] ||
  adc_fail "CS: 20 cookie-less requests at a 50 % canary reached only:$seen (expected both versions)"
stop_sim cs-cookie
adc_pass "CS: cookie-less requests spread over both versions:$seen"

# ---- content switching, SOURCEIP: one client address, no cookies, one version
start_sim cs-sourceip --target=CS --persistence=SOURCEIP --timeout=2 --canary=50
first=
for i in $(seq 1 12); do
  code=$(get "http://198.51.100.10/s$i.html" "$ADC_WORK/sip-$i") || adc_fail "CS SOURCEIP: request $i failed"
  [[ $code == 200 ]] || adc_fail "CS SOURCEIP: request $i: HTTP $code"
  v=$(header "$ADC_WORK/sip-$i.h" X-App-Version)
  first=${first:-$v}
  [[ $v == "$first" ]] || adc_fail "CS SOURCEIP: request $i from the same address reached $v after $first"
done
stop_sim cs-sourceip
adc_pass "CS SOURCEIP: 12 cookie-less requests from $HOST all reached $first"
echo "interop http: all checks passed"
