# shellcheck shell=bash
# ns3-adc interoperability tests, BGP: what the bgp-*.sh scripts share. Source it after
# adc-interop-lib.sh and adc_interop_enter (inside the test's own network namespace):
#
#   . "$(dirname "$0")/adc-interop-lib.sh"
#   adc_interop_enter "$@"
#   . "$(dirname "$0")/bgp-common.sh"
#   bgp_init "$1"          # the emulate-bgp program
#
# The simulated MUX (examples/emulate-bgp) and the real daemon share a tap in the namespace:
# the MUX is 192.0.2.2 / 2001:db8::2, the daemon 192.0.2.1 / 2001:db8::1 (documentation
# ranges, RFC 5737 and RFC 3849); the MUX announces its VIPs 198.51.100.10/32 and
# 2001:db8:100::10/128, the daemon two static prefixes 203.0.113.0/24 and 2001:db8:f00::/48.
# Expected values come from the RFCs (4271, 4760, 6793) and the daemons' documented output.

BGP_SIM_ADDR4=192.0.2.2
BGP_SIM_ADDR6=2001:db8::2
BGP_HOST_ADDR4=192.0.2.1
BGP_HOST_ADDR6=2001:db8::1
BGP_VIP4=198.51.100.10/32
BGP_VIP6=2001:db8:100::10/128
BGP_STATIC4=203.0.113.0/24
BGP_STATIC6=2001:db8:f00::/48
BGP_TAP=adc-bgp0
BGP_PY=/usr/bin/python3
[[ -x $BGP_PY ]] || BGP_PY=python3

# Check the program; set the work paths.
bgp_init() { # EMULATE_BGP_PROGRAM
  BGP_SIM=${1:-}
  [[ -n $BGP_SIM && -x $BGP_SIM ]] || adc_fail "usage: $0 PATH/TO/emulate-bgp (got '${BGP_SIM}')"
  adc_require "$BGP_PY"
  BGP_OUT=$ADC_WORK/sim
  BGP_TRACE=$BGP_OUT/bgp-trace.csv
  BGP_SIM_LOG=$ADC_WORK/sim.log
  BGP_T0=$(date +%s.%N)
}

# Print the seconds since the script started (for the log).
bgp_elapsed() {
  "$BGP_PY" -c "import sys, time; print('%.1f' % (time.time() - float(sys.argv[1])))" "$BGP_T0"
}

bgp_log() { # MESSAGE
  echo "[$(bgp_elapsed) s] $*"
}

# Dump what helps to understand a failure, then fail.
bgp_fail() { # MESSAGE
  {
    echo "---- emulate-bgp output (last 40 lines)"
    tail -n 40 "$BGP_SIM_LOG" 2>/dev/null
    echo "---- daemon's view"
    bgp_daemon_dump 2>/dev/null | head -n 80
    echo "---- daemon's log (last 30 lines)"
    tail -n 30 "$ADC_WORK"/*.log "$ADC_WORK"/frr/*.log 2>/dev/null | grep -v '^$'
  } >&2
  adc_fail "$*"
}

bgp_check() { # CONDITION_DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then
    adc_pass "$what"
  else
    bgp_fail "$what"
  fi
}

# Start the simulated MUX in the background; wait for its tap and its trace.
bgp_start_sim() { # EMULATE_BGP_OPTIONS...
  bgp_log "emulate-bgp $*"
  adc_spawn "$BGP_SIM" --tap="$BGP_TAP" \
    --simAddress="$BGP_SIM_ADDR4/24,$BGP_SIM_ADDR6/64" \
    --hostAddress="$BGP_HOST_ADDR4/24,$BGP_HOST_ADDR6/64" \
    --vips="$BGP_VIP4,$BGP_VIP6" --outputDir="$BGP_OUT" "$@" >"$BGP_SIM_LOG" 2>&1
  if ! adc_wait_tap "$BGP_TAP" 20; then
    grep -q "has no emulation" "$BGP_SIM_LOG" &&
      adc_skip "this build of ns3-adc has no emulation (ns-3's fd-net-device module was not found)"
    bgp_fail "emulate-bgp did not bring tap $BGP_TAP up within 20 s"
  fi
  adc_wait_for 10 grep -q ',start,' "$BGP_TRACE" || bgp_fail "emulate-bgp wrote no trace"
}

# ---- the simulated MUX's trace ---------------------------------------------------------------

# Query the trace: print the rows whose columns match, as "time_s event peer direction type
# detail wall_s" (tab-separated). Filters are COLUMN=VALUE (exact) or COLUMN~TEXT (substring).
bgp_trace() { # FILTER...
  "$BGP_PY" - "$BGP_TRACE" "$@" <<'EOF'
import csv, sys
path, filters = sys.argv[1], sys.argv[2:]
with open(path, newline="") as f:
    for row in csv.DictReader(f):
        ok = True
        for flt in filters:
            if "~" in flt and ("=" not in flt or flt.index("~") < flt.index("=")):
                col, text = flt.split("~", 1)
                ok = ok and text in row[col]
            else:
                col, text = flt.split("=", 1)
                ok = ok and row[col] == text
        if ok:
            print("\t".join(row[c] for c in
                            ("time_s", "event", "peer", "direction", "type", "detail",
                             "wall_s")))
EOF
}

# Succeed when the trace has at least one row matching the filters.
bgp_trace_has() { # FILTER...
  [[ -n $(bgp_trace "$@") ]]
}

# Print the wall-clock time (Unix seconds) the MUX sent its last message before the halt.
bgp_last_sent_wallclock() {
  "$BGP_PY" - "$BGP_TRACE" <<'EOF'
import csv, sys
last = ""
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r["event"] == "halt":
        break
    if r["event"] == "message" and r["direction"] == "sent":
        last = r["wall_s"]
print(last)
EOF
}

# Print the wall-clock time (Unix seconds) of the first trace row of EVENT.
bgp_trace_wallclock() { # EVENT
  bgp_trace event="$1" | head -n 1 | cut -f7
}

# The NOTIFICATIONs the MUX sent or received, except those in ALLOWED (codes "6/7" ...).
bgp_unexpected_notifications() { # ALLOWED_CODE...
  local line code ok a
  while IFS=$'\t' read -r line; do
    code=$(cut -f5 <<<"$line")
    ok=0
    for a in "$@"; do [[ $code == "$a" ]] && ok=1; done
    ((ok)) || echo "$line"
  done < <(bgp_trace event=notification)
}

bgp_lacks() { ! grep -q "$1" <<<"$2"; } # WORD TEXT

# Succeed when FROM (the daemon's name for a route's source) is the MUX's session.
bgp_from_mux() { [[ $1 == mux || $1 == "$BGP_SIM_ADDR4" ]]; } # FROM

# ---- timing -------------------------------------------------------------------------------------

# Succeed when LOW <= VALUE <= HIGH (decimal numbers).
bgp_between() { # VALUE LOW HIGH
  "$BGP_PY" -c 'import sys; v, lo, hi = map(float, sys.argv[1:]); sys.exit(0 if lo <= v <= hi else 1)' "$@"
}

bgp_sub() { # A B: print A - B
  "$BGP_PY" -c 'import sys; print("%.3f" % (float(sys.argv[1]) - float(sys.argv[2])))' "$@"
}

# Print the Unix time of a local "YYYY-MM-DD HH:MM:SS.mmm" or "YYYY/MM/DD HH:MM:SS.mmm".
bgp_unix_time() { # TIMESTAMP
  date -d "${1//\//-}" +%s.%N
}

# ---- the daemons: one interface, BIRD 2 or FRR 8 behind it ---------------------------------------
#
# bgp_daemon_start LOCAL_AS PEER_AS [passive] [as4off]   start it, wait for its control socket
# bgp_daemon_state              its FSM state for the MUX ("Established", ...)
# bgp_daemon_field NAME         one fact it reports about the session (see bird_field / frr_field)
# bgp_daemon_route PREFIX       "ORIGIN|AS_PATH|NEXT_HOP|FROM" of its route, empty when none
# bgp_daemon_down_time          Unix time the session left Established, by the daemon's clock
# bgp_daemon_dump               everything, for a failure's log

BGP_DAEMON=

bgp_daemon_start() { "${BGP_DAEMON}_start" "$@"; }
bgp_daemon_state() { "${BGP_DAEMON}_field" state; }
bgp_daemon_field() { "${BGP_DAEMON}_field" "$@"; }
bgp_daemon_route() { "${BGP_DAEMON}_route" "$@"; }
bgp_daemon_down_time() { "${BGP_DAEMON}_down_time"; }
bgp_daemon_dump() { [[ -n $BGP_DAEMON ]] && "${BGP_DAEMON}_dump"; }

bgp_daemon_established() { [[ $(bgp_daemon_state) == Established ]]; }
bgp_daemon_not_established() {
  local s
  s=$(bgp_daemon_state)
  [[ -n $s && $s != Established ]]
}
# Succeed when two "since" times name the same session: equal for BIRD (milliseconds); FRR
# derives its epoch from an uptime in whole seconds, so it may move by one.
bgp_same_since() { # SINCE SINCE_LATER
  local tolerance=0
  [[ $BGP_DAEMON == frr ]] && tolerance=1
  [[ -n $1 && -n $2 ]] && bgp_between "$(bgp_sub "$2" "$1")" -$tolerance $tolerance
}
bgp_daemon_has_route() { [[ -n $(bgp_daemon_route "$1") ]]; }
bgp_daemon_lacks_route() { [[ -z $(bgp_daemon_route "$1") ]]; }

# ---- BIRD 2 ---------------------------------------------------------------------------------

bird_use() {
  adc_require bird birdc
  BGP_DAEMON=bird
  BIRD_CTL=$ADC_WORK/bird.ctl
}

bird_start() { # LOCAL_AS PEER_AS [passive] [as4off]
  local as=$1 peer=$2 opt extra=""
  shift 2
  for opt in "$@"; do
    case $opt in
      passive) extra+="  passive on;"$'\n' ;;
      as4off) extra+="  enable as4 off;"$'\n' ;; # a 2-octet-only speaker (RFC 6793 section 4.2)
    esac
  done
  # No "local ADDRESS": BIRD then listens on every address, before the tap exists.
  # Hold time: BIRD's default (240 s), so the negotiated one is the MUX's (RFC 4271 4.2).
  cat >"$ADC_WORK/bird.conf" <<EOF
log "$ADC_WORK/bird.log" all;
router id $BGP_HOST_ADDR4;
timeformat protocol iso long ms;
timeformat route iso long ms;
protocol device { scan time 1; }
protocol static static4 { ipv4; route $BGP_STATIC4 blackhole; }
protocol static static6 { ipv6; route $BGP_STATIC6 blackhole; }
protocol bgp mux {
  local as $as;
  neighbor $BGP_SIM_ADDR4 as $peer;
  connect delay time 1;
  connect retry time 2;
$extra  ipv4 { import all; export where source = RTS_STATIC; };
  ipv6 { import all; export where source = RTS_STATIC; };
}
EOF
  bgp_log "bird: AS $as, peer AS $peer $*"
  adc_spawn bird -f -c "$ADC_WORK/bird.conf" -s "$BIRD_CTL" -P "$ADC_WORK/bird.pid"
  adc_wait_for 10 birdc -s "$BIRD_CTL" show status || bgp_fail "BIRD did not start"
}

bird_cmd() { birdc -s "$BIRD_CTL" "$@"; }

# One fact from "show protocols all mux": state, hold (negotiated s), keepalive (s), peer_as,
# peer_id, session ("external AS4"), caps (what the MUX's OPEN offered: "mp-ipv4 mp-ipv6
# as4"), since (Unix time of the last protocol state change), error ("Last error").
bird_field() { # NAME
  bird_cmd show protocols all mux | "$BGP_PY" -c '
import re, subprocess, sys
text = sys.stdin.read()
name = sys.argv[1]
def line(label):
    m = re.search(r"^\s*" + re.escape(label) + r":\s*(.*?)\s*$", text, re.M)
    return m.group(1) if m else ""
if name == "state":
    print(line("BGP state"))
elif name in ("hold", "keepalive"):
    v = line("Hold timer" if name == "hold" else "Keepalive timer")
    print(v.split("/")[1] if "/" in v else "")
elif name == "peer_as":
    print(line("Neighbor AS"))
elif name == "peer_id":
    print(line("Neighbor ID"))
elif name == "session":
    print(line("Session"))
elif name == "error":
    print(line("Last error"))
elif name == "caps":
    m = re.search(r"Neighbor capabilities\n((?:\s{6,}.*\n)*)", text)
    caps = []
    if m:
        block = m.group(1)
        af = re.search(r"AF announced:\s*(.*)", block)
        if "Multiprotocol" in block and af:
            caps += ["mp-" + a for a in af.group(1).split()]
        if "4-octet AS numbers" in block:
            caps.append("as4")
    print(" ".join(caps))
elif name == "since":
    m = re.search(r"^mux\s+BGP\s+\S+\s+\S+\s+(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)", text, re.M)
    if m:
        print(subprocess.run(["date", "-d", m.group(1), "+%s.%N"], capture_output=True,
                             text=True).stdout.strip())
' "$1"
}

# "ORIGIN|AS_PATH|NEXT_HOP|FROM" of BIRD's route to PREFIX learnt over BGP ("show route all").
bird_route() { # PREFIX
  local table=master4
  [[ $1 == *:* ]] && table=master6
  bird_cmd show route "$1" table "$table" all | "$BGP_PY" -c '
import re, sys
text = sys.stdin.read()
if not re.search(r"^" + re.escape(sys.argv[1]) + r"\s", text, re.M) or "BGP.origin" not in text:
    sys.exit(0)
def attr(name):
    m = re.search(r"^\s*BGP\." + name + r":\s*(.*?)\s*$", text, re.M)
    return m.group(1) if m else ""
proto = re.search(r"\[(\S+)", text)
print("|".join([attr("origin"), attr("as_path"), attr("next_hop"), proto.group(1) if proto else ""]))
' "$1"
}

bird_down_time() { bird_field since; }

bird_dump() {
  bird_cmd show protocols all mux
  bird_cmd show route all
}

# ---- FRR 8 ----------------------------------------------------------------------------------

frr_use() {
  adc_require /usr/lib/frr/zebra /usr/lib/frr/bgpd vtysh
  id frr >/dev/null 2>&1 || adc_skip "no 'frr' user (the frr package creates it)"
  BGP_DAEMON=frr
  # The daemons run as the frr user (FRR refuses root unless root is in its vty group): give
  # them a folder of their own, and a way through the test's private work folder.
  FRR_DIR=$ADC_WORK/frr
  chmod 711 "$ADC_WORK"
  install -d -o frr -g frr "$FRR_DIR" "$FRR_DIR/vty"
}

frr_start() { # LOCAL_AS PEER_AS [passive] [as4off]
  local as=$1 peer=$2 opt extra=""
  shift 2
  for opt in "$@"; do
    case $opt in
      passive) extra+=" neighbor $BGP_SIM_ADDR4 passive"$'\n' ;;
      as4off) adc_fail "FRR has no 2-octet-only mode; use BIRD's 'enable as4 off'" ;;
    esac
  done
  cat >"$FRR_DIR/zebra.conf" <<EOF
hostname adc-zebra
log file $FRR_DIR/zebra.log
EOF
  # FRR 8 wants a policy on eBGP sessions (RFC 8212) unless told otherwise; "network" would
  # need the prefix in the RIB without "no bgp network import-check". Hold and keepalive:
  # FRR's defaults (180 s, 60 s), so the negotiated ones follow the MUX's OPEN.
  cat >"$FRR_DIR/bgpd.conf" <<EOF
frr defaults traditional
hostname adc-frr
log file $FRR_DIR/bgpd.log
log timestamp precision 3
!
router bgp $as
 bgp router-id $BGP_HOST_ADDR4
 bgp log-neighbor-changes
 no bgp ebgp-requires-policy
 no bgp network import-check
 no bgp default ipv4-unicast
 neighbor $BGP_SIM_ADDR4 remote-as $peer
 neighbor $BGP_SIM_ADDR4 timers connect 2
$extra !
 address-family ipv4 unicast
  network $BGP_STATIC4
  neighbor $BGP_SIM_ADDR4 activate
 exit-address-family
 !
 address-family ipv6 unicast
  network $BGP_STATIC6
  neighbor $BGP_SIM_ADDR4 activate
 exit-address-family
!
EOF
  chown frr:frr "$FRR_DIR"/*.conf
  bgp_log "FRR: AS $as, peer AS $peer $*"
  local common=(-z "$FRR_DIR/zserv.api" --vty_socket "$FRR_DIR/vty" -u frr -g frr -P 0)
  adc_spawn /usr/lib/frr/zebra -f "$FRR_DIR/zebra.conf" -i "$FRR_DIR/zebra.pid" "${common[@]}" \
    >"$FRR_DIR/zebra.out" 2>&1
  adc_wait_for 10 test -S "$FRR_DIR/zserv.api" || bgp_fail "zebra did not start"
  adc_spawn /usr/lib/frr/bgpd -f "$FRR_DIR/bgpd.conf" -i "$FRR_DIR/bgpd.pid" "${common[@]}" \
    >"$FRR_DIR/bgpd.out" 2>&1
  adc_wait_for 10 frr_vtysh -c 'show bgp summary json' || bgp_fail "bgpd did not start"
}

frr_vtysh() { vtysh --vty_socket "$FRR_DIR/vty" "$@"; }

# One fact from "show bgp neighbors MUX json": state, hold, keepalive (negotiated, s), peer_as,
# peer_id, session ("AS4" when 4-octet ASes are in use), caps (received from the MUX), since
# (Unix time established, s), established (sessions established), dropped, error
# ("lastErrorCodeSubcode lastNotificationReason").
frr_field() { # NAME
  frr_vtysh -c "show bgp neighbors $BGP_SIM_ADDR4 json" | "$BGP_PY" -c '
import json, sys
try:
    n = json.load(sys.stdin)[sys.argv[2]]
except Exception:
    sys.exit(0)
name = sys.argv[1]
caps = n.get("neighborCapabilities", {})
def received(v):
    return v in ("received", "advertisedAndReceived") or (
        isinstance(v, dict) and (v.get("received") or v.get("advertisedAndReceived")))
if name == "state":
    print(n.get("bgpState", ""))
elif name in ("hold", "keepalive"):
    key = "bgpTimerHoldTimeMsecs" if name == "hold" else "bgpTimerKeepAliveIntervalMsecs"
    print(n[key] // 1000 if n.get("bgpState") == "Established" and key in n else "")
elif name == "peer_as":
    print(n.get("remoteAs", ""))
elif name == "peer_id":
    print(n.get("remoteRouterId", ""))
elif name == "session":
    print("AS4" if caps.get("4byteAs") == "advertisedAndReceived" else "")
elif name == "caps":
    out = []
    mp = caps.get("multiprotocolExtensions", {})
    for afi, word in (("ipv4Unicast", "mp-ipv4"), ("ipv6Unicast", "mp-ipv6")):
        if received(mp.get(afi)):
            out.append(word)
    if received(caps.get("4byteAs")):
        out.append("as4")
    print(" ".join(out))
elif name == "since":
    print(n.get("bgpTimerUpEstablishedEpoch", ""))
elif name == "established":
    print(n.get("connectionsEstablished", ""))
elif name == "dropped":
    print(n.get("connectionsDropped", ""))
elif name == "error":
    print(n.get("lastErrorCodeSubcode", ""), n.get("lastNotificationReason", ""))
' "$1" "$BGP_SIM_ADDR4"
}

# "ORIGIN|AS_PATH|NEXT_HOP|FROM" of FRR's route to PREFIX ("show bgp ipv4|ipv6 unicast json").
frr_route() { # PREFIX
  local afi=ipv4
  [[ $1 == *:* ]] && afi=ipv6
  frr_vtysh -c "show bgp $afi unicast json" | "$BGP_PY" -c '
import json, sys
try:
    paths = json.load(sys.stdin)["routes"][sys.argv[1]]
except Exception:
    sys.exit(0)
for p in paths:
    if p.get("peerId") in (None, "(unspec)"):
        continue  # a local route (FRR prints both when it has both)
    hops = [h["ip"] for h in p.get("nexthops", []) if h.get("scope", "global") == "global"]
    print("|".join([p.get("origin", ""), p.get("path", ""), hops[0] if hops else "",
                    p.get("peerId", "")]))
    break
' "$1"
}

# FRR's log (timestamps to the millisecond): when it dropped the session.
frr_down_time() {
  local line
  line=$(grep -E "ADJCHANGE: neighbor $BGP_SIM_ADDR4.* Down|NOTIFICATION: sent to neighbor $BGP_SIM_ADDR4" \
    "$FRR_DIR/bgpd.log" | head -n 1)
  [[ -n $line ]] && bgp_unix_time "$(cut -d' ' -f1-2 <<<"$line")"
}

frr_dump() {
  frr_vtysh -c "show bgp neighbors $BGP_SIM_ADDR4"
  frr_vtysh -c 'show bgp ipv4 unicast' -c 'show bgp ipv6 unicast'
}

# ---- what every test checks ------------------------------------------------------------------

# The MUX's OPEN, as the daemon took it: Established, the MUX's AS and identifier, the
# negotiated hold time (RFC 4271 4.2: the smaller of both OPENs' - the MUX offers HOLD, the
# daemons' defaults are larger) and keepalive interval (a third of it, RFC 4271 10), and the
# capabilities the MUX offered: multiprotocol IPv4 and IPv6 unicast (RFC 4760 8) and 4-octet AS
# numbers (RFC 6793 3).
bgp_check_open() { # MUX_AS HOLD AS4(yes|no)
  local as=$1 hold=$2 as4=$3 session
  adc_wait_for 20 bgp_daemon_established ||
    bgp_fail "the daemon did not reach Established with the MUX within 20 s (state: $(bgp_daemon_state))"
  adc_pass "Established (the daemon's state: $(bgp_daemon_state))"
  bgp_check "the daemon took the MUX's AS from its OPEN: $as" \
    test "$(bgp_daemon_field peer_as)" == "$as"
  bgp_check "the daemon took the MUX's BGP identifier: $BGP_SIM_ADDR4" \
    test "$(bgp_daemon_field peer_id)" == "$BGP_SIM_ADDR4"
  bgp_check "negotiated hold time $hold s (the MUX's offer, the smaller)" \
    test "$(bgp_daemon_field hold)" == "$hold"
  bgp_check "keepalive interval $((hold / 3)) s (a third of the hold time)" \
    test "$(bgp_daemon_field keepalive)" == "$((hold / 3))"
  bgp_check "the MUX's capabilities as the daemon read them: mp-ipv4 mp-ipv6 as4 (got '$(bgp_daemon_field caps)')" \
    test "$(bgp_daemon_field caps)" == "mp-ipv4 mp-ipv6 as4"
  session=$(bgp_daemon_field session)
  if [[ $as4 == yes ]]; then
    bgp_check "4-octet AS numbers in use on the session (daemon: '$session')" \
      grep -q AS4 <<<"$session"
  else
    bgp_check "2-octet AS numbers on the session (daemon: '$session')" \
      bgp_lacks AS4 "$session"
  fi
}

# The VIPs as the daemon shows them (REQ: SLB-04, SLB-12): ORIGIN IGP (RFC 4271 5.1.1: the MUX
# originates them), AS_PATH the MUX's AS alone (5.1.2: eBGP prepends it), next hop the MUX's
# address on the shared link (5.1.3; for IPv6 the global address in MP_REACH_NLRI, RFC 4760 3
# and RFC 2545 3), learnt from the MUX.
bgp_check_vips() { # MUX_AS
  local as=$1 vip hop want got
  for vip in "$BGP_VIP4" "$BGP_VIP6"; do
    hop=$BGP_SIM_ADDR4
    [[ $vip == *:* ]] && hop=$BGP_SIM_ADDR6
    adc_wait_for 10 bgp_daemon_has_route "$vip" ||
      bgp_fail "VIP $vip did not reach the daemon within 10 s of Established"
    got=$(bgp_daemon_route "$vip")
    want="IGP|$as|$hop"
    bgp_check "VIP $vip: ORIGIN|AS_PATH|NEXT_HOP = $want (daemon: ${got%|*})" \
      test "${got%|*}" == "$want"
    bgp_check "VIP $vip learnt from the MUX's session (daemon: ${got##*|})" \
      bgp_from_mux "${got##*|}"
  done
  # An IPv6 prefix over an IPv4 session travels only in MP_REACH_NLRI (RFC 4760 3): its
  # presence above is the daemon having read the MUX's MP_REACH_NLRI; the trace shows the
  # attribute the MUX sent.
  bgp_check "the MUX sent $BGP_VIP6 in MP_REACH_NLRI with next hop $BGP_SIM_ADDR6" \
    bgp_trace_has event=message direction=sent type=UPDATE \
    "detail~mp_next_hop=$BGP_SIM_ADDR6 nlri=$BGP_VIP6"
}

# The daemon's static prefixes in the MUX: learnt, with the daemon's address on the link as next
# hop (RFC 4271 5.1.3; RFC 2545 3 for IPv6) and its AS as AS_PATH, and no NOTIFICATION.
bgp_check_daemon_routes() { # DAEMON_AS
  local as=$1 prefix hop
  for prefix in "$BGP_STATIC4" "$BGP_STATIC6"; do
    hop=$BGP_HOST_ADDR4
    [[ $prefix == *:* ]] && hop=$BGP_HOST_ADDR6
    adc_wait_for 10 bgp_trace_has event=route type=announce "detail=$prefix via $hop" ||
      bgp_fail "the MUX did not learn $prefix via $hop from the daemon within 10 s"
    adc_pass "the MUX learnt $prefix via $hop"
    bgp_check "the daemon's UPDATE for $prefix carried AS_PATH [$as] as the MUX parsed it" \
      bgp_trace_has event=message direction=received type=UPDATE \
      "detail~as_path=[$as]" "detail~nlri=$prefix"
  done
}

# A daemon may send the MUX's own VIPs back (FRR does; BIRD checks the AS_PATH before sending):
# their AS_PATH holds the MUX's AS, so the MUX must ignore them (RFC 4271 9.1.2).
bgp_check_own_vips_ignored() { # MUX_AS
  local vip
  for vip in "$BGP_VIP4" "$BGP_VIP6"; do
    bgp_trace_has event=message direction=received type=UPDATE "detail~ $1]" "detail~nlri=$vip" ||
      continue
    bgp_check "the daemon sent $vip back with AS $1 in its AS_PATH: the MUX did not take it" \
      bgp_no_route_row "$vip"
  done
}

bgp_no_route_row() { ! bgp_trace_has event=route "detail~$1 via"; } # PREFIX

# No NOTIFICATION either way, except the ALLOWED codes ("6/7": connection collision
# resolution, RFC 4271 6.8, when both sides connect).
bgp_check_no_notification() { # ALLOWED_CODE...
  local bad
  bad=$(bgp_unexpected_notifications "$@")
  [[ -z $bad ]] || bgp_fail "NOTIFICATIONs in the MUX's trace: $bad"
  adc_pass "no NOTIFICATION sent or received${1:+ (other than $*)}"
}

# The whole life of a session (REQ: SLB-04, SLB-10, SLB-12), the daemon passive as the SLB's
# routers are: OPEN, Established, VIPs, the daemon's routes, a withdrawal of both VIPs,
# keepalives holding the session for several hold times, and the MUX halting: the daemon's
# hold timer expires about one hold time after the MUX's last KEEPALIVE.
bgp_lifecycle() { # MUX_AS DAEMON_AS
  local as=$1 peer=$2 hold=3 withdraw_at=10 halt_at=22 since since_after halt down delay up_for
  bgp_daemon_start "$peer" "$as" passive
  bgp_start_sim --localAs="$as" --peerAs="$peer" --holdTime=$hold --connectRetry=2 \
    --withdrawAt="$BGP_VIP4@$withdraw_at,$BGP_VIP6@$withdraw_at" --haltAt=$halt_at --duration=40
  bgp_check_open "$as" "$hold" yes
  since=$(bgp_daemon_field since)
  bgp_check_vips "$as"
  bgp_check_daemon_routes "$peer"
  bgp_trace_has event=vip type=withdraw &&
    bgp_fail "the withdrawal at ${withdraw_at} s came before the checks above finished (machine too slow?)"

  # The withdrawal: an UPDATE with the /32 in Withdrawn Routes and one with the /128 in
  # MP_UNREACH_NLRI (RFC 4271 4.3, RFC 4760 4); the daemon must drop both.
  adc_wait_for $((withdraw_at + 10)) bgp_trace_has event=vip type=withdraw ||
    bgp_fail "the MUX did not withdraw at ${withdraw_at} s"
  local vip
  for vip in "$BGP_VIP4" "$BGP_VIP6"; do
    adc_wait_for 5 bgp_daemon_lacks_route "$vip" ||
      bgp_fail "the daemon still has $vip 5 s after the MUX withdrew it"
    adc_pass "withdrawn: the daemon no longer has $vip"
  done

  # Keepalives alone (nothing else is sent now) hold the session until the halt.
  while ! bgp_trace_has event=halt; do
    bgp_daemon_established || bgp_fail "the session left Established before the halt"
    sleep 0.5
  done
  since_after=$(bgp_daemon_field since)
  bgp_check "the session was never re-established (up since $since, now $since_after)" \
    bgp_same_since "$since" "$since_after"
  [[ $BGP_DAEMON == frr ]] &&
    bgp_check "FRR: one session established, none dropped before the halt" \
      test "$(frr_field established)/$(frr_field dropped)" == "1/0"
  halt=$(bgp_trace_wallclock halt)
  up_for=$(bgp_sub "$halt" "$since")
  bgp_check "keepalives held the session for $up_for s, over 4 hold times ($((4 * hold)) s)" \
    bgp_between "$up_for" $((4 * hold)) 1000
  bgp_check_no_notification
  bgp_check_own_vips_ignored "$as"

  # The halt: no KEEPALIVE from the MUX any more. The daemon's hold timer runs from the last
  # message it received - the MUX's last one before the halt - and expires after the hold time
  # (RFC 4271 6.5, 8.2.2: NOTIFICATION 4/0 Hold Timer Expired). BIRD starts every BGP timer,
  # the hold timer included, with RFC 4271 section 10's jitter: up to 25 % less (its
  # bgp_start_timer()); FRR does not jitter it.
  adc_wait_for $((hold + 6)) bgp_daemon_not_established ||
    bgp_fail "the daemon still has the session $((hold + 6)) s after the MUX halted"
  down=$(bgp_daemon_down_time)
  [[ -n $down ]] || bgp_fail "the daemon gave no time for the session's end"
  local last lo=$hold
  last=$(bgp_last_sent_wallclock)
  delay=$(bgp_sub "$down" "$last")
  [[ $BGP_DAEMON == bird ]] && lo=$("$BGP_PY" -c "print($hold * 0.75)")
  bgp_check "the daemon dropped the session $delay s after the MUX's last message, $(bgp_sub "$down" "$halt") s after the halt: hold timer expiry, expected $lo..$hold s (slack 0.15 s, 1 s)" \
    bgp_between "$delay" "$(bgp_sub "$lo" 0.15)" $((hold + 1))
  local error
  error=$(bgp_daemon_field error)
  case $BGP_DAEMON in
    bird) bgp_check "BIRD's reason: hold timer expired (got '$error')" \
      grep -qi "hold timer expired" <<<"$error" ;;
    frr) bgp_check "FRR's reason: NOTIFICATION 4/0 Hold Timer Expired sent (got '$error')" \
      grep -q "^0400 Hold Timer Expired" <<<"$error" ;;
  esac
  bgp_check "the halted MUX sent nothing after the halt" \
    "$BGP_PY" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
halt = next(float(r["time_s"]) for r in rows if r["event"] == "halt")
sys.exit(1 if any(r["direction"] == "sent" and float(r["time_s"]) > halt for r in rows) else 0)
' "$BGP_TRACE"
}

# A short session for the AS variants: OPEN, Established, VIPs, the daemon's routes, two hold
# times of keepalives. The daemon connects too (its default), so a connection collision may be
# resolved on the way (RFC 4271 6.8, Cease 6/7).
bgp_short() { # MUX_AS DAEMON_AS AS4(yes|no) [DAEMON_OPTION...]
  local as=$1 peer=$2 as4=$3 hold=3 since
  shift 3
  bgp_daemon_start "$peer" "$as" "$@"
  bgp_start_sim --localAs="$as" --peerAs="$peer" --holdTime=$hold --connectRetry=2 --duration=50
  bgp_check_open "$as" "$hold" "$as4"
  since=$(bgp_daemon_field since)
  bgp_check_vips "$as"
  bgp_check_daemon_routes "$peer"
  sleep $((2 * hold))
  bgp_check_own_vips_ignored "$as"
  bgp_check "still Established, not re-established, $((2 * hold)) s later" \
    bgp_daemon_established
  bgp_check "the session was never re-established (up since $since, now $(bgp_daemon_field since))" \
    bgp_same_since "$since" "$(bgp_daemon_field since)"
  bgp_check_no_notification 6/7
}
