#!/usr/bin/env bash
# Interoperability, BGP: the simulated SLB MUX (examples/emulate-bgp) against FRR 8 (bgpd and
# zebra), through a whole session's life: the MUX's OPEN accepted (capabilities, hold time),
# Established, the VIPs with ORIGIN, AS_PATH and next hop (IPv6 in MP_REACH_NLRI), FRR's
# networks taken by the MUX without a NOTIFICATION, the VIPs withdrawn, keepalives holding the
# session for several hold times, and the MUX halting: FRR's hold timer expires (REQ: SLB-04,
# SLB-10, SLB-12). 2-octet ASes on a 4-octet-capable session.
# Usage: bgp-frr.sh PATH/TO/emulate-bgp (CTest: interop-bgp-frr). Skips (exit 77) without
# root, a tap or the daemon; runs in a network namespace of its own (adc-interop-lib.sh).
set -u
. "$(dirname "$0")/adc-interop-lib.sh"
adc_interop_enter "$@"
. "$(dirname "$0")/bgp-common.sh"
bgp_init "${1:-}"
frr_use
bgp_lifecycle 65001 65010
echo "PASSED: bgp-frr"
