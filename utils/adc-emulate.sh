#!/usr/bin/env bash
# ./adc emulate SCENARIO: a simulated appliance and real programs on one tap, in a network
# namespace made for the run (ip netns add adc-emu-PID) and removed at its end.
#
#   adc-emulate.sh bgp|dns|http PROGRAM [OPTION...]
#
# bgp  : the SLB MUX's BGP speaker (PROGRAM = emulate-bgp) and a BIRD 2 daemon started here in
#        the namespace, configured to peer with it (AS 65010 against the MUX's 65001, or the
#        --localAs/--peerAs given); birdc shows the session and the VIPs' routes.
# dns  : one GSLB site's authoritative DNS (emulate-dns); talk to it with dig or kdig.
# http : a simulated ILB or CS vserver (emulate-http, --target=...); talk to it with curl.
# The run ends on Ctrl-C or after the program's --duration; every process started here is
# stopped and the namespace (with its tap and addresses) deleted. Needs root.
set -euo pipefail

scenario=${1:?usage: adc-emulate.sh bgp|dns|http PROGRAM [OPTION...]}
prog=${2:?usage: adc-emulate.sh bgp|dns|http PROGRAM [OPTION...]}
shift 2

[[ $(id -u) -eq 0 ]] || { echo "emulate: needs root (a network namespace and a tap)" >&2; exit 2; }
[[ -c /dev/net/tun ]] || { echo "emulate: this machine has no /dev/net/tun" >&2; exit 2; }

ns=adc-emu-$$
work=$(mktemp -d "${TMPDIR:-/tmp}/adc-emulate.XXXXXX")
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$ns"
ip netns exec "$ns" ip link set lo up
in_ns() { ip netns exec "$ns" "$@"; }

# The value of --NAME=VALUE among the program's options, or DEFAULT.
opt() { # NAME DEFAULT OPTION...
  local name=$1 value=$2 a
  shift 2
  for a in "$@"; do [[ $a == --$name=* ]] && value=${a#--"$name"=}; done
  printf '%s\n' "$value"
}

echo "emulate: network namespace $ns (type commands in it with: ip netns exec $ns COMMAND)"
case $scenario in
bgp)
  command -v bird >/dev/null || { echo "emulate: bird (Debian package bird2) is not installed" >&2; exit 2; }
  mux_as=$(opt localAs 65001 "$@")
  bird_as=$(opt peerAs 65010 "$@")
  tap=$(opt tap adc-bgp0 "$@")
  # The speaker's defaults: MUX 192.0.2.2 and 2001:db8::2, host side 192.0.2.1 and 2001:db8::1.
  cat >"$work/bird.conf" <<CONF
router id 192.0.2.1;
log "$work/bird.log" all;
protocol device { scan time 2; }
protocol bgp mux4 {
  local 192.0.2.1 as $bird_as;
  neighbor 192.0.2.2 as $mux_as;
  ipv4 { import all; export none; };
  ipv6 { import all; export none; };
}
CONF
  in_ns "$prog" --birdSocket="$work/bird.ctl" "$@" &
  pids+=($!)
  for _ in $(seq 100); do in_ns ip link show "$tap" >/dev/null 2>&1 && break; sleep 0.1; done
  in_ns bird -f -c "$work/bird.conf" -s "$work/bird.ctl" -P "$work/bird.pid" &
  pids+=($!)
  echo "emulate: BIRD 2 peers with the MUX (AS $bird_as against $mux_as); try:"
  echo "  ip netns exec $ns birdc -s $work/bird.ctl show protocols all mux4"
  echo "  ip netns exec $ns birdc -s $work/bird.ctl show route all"
  ;;
dns)
  in_ns "$prog" "$@" &
  pids+=($!)
  echo "emulate: try  ip netns exec $ns dig @$(opt simAddress 192.0.2.1 "$@") www.gslb.example A"
  echo "              ip netns exec $ns kdig +tcp @$(opt simAddress 192.0.2.1 "$@") www6.gslb.example AAAA"
  ;;
http)
  in_ns "$prog" "$@" &
  pids+=($!)
  echo "emulate: try  ip netns exec $ns curl -v http://10.100.0.10/ (ILB) or http://198.51.100.10/ (--target=CS)"
  ;;
*)
  echo "emulate: unknown scenario '$scenario': allowed values are bgp, dns, http" >&2
  exit 2
  ;;
esac
echo "emulate: Ctrl-C stops it"
# The scenario's program ends the run (its --duration, Ctrl-C, or an error).
status=0
wait "${pids[0]}" || status=$?
exit "$status"
