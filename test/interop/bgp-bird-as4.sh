#!/usr/bin/env bash
# Interoperability, BGP: the simulated SLB MUX and BIRD 2 both in 4-octet AS numbers
# (4200000001, 4200000010; RFC 6793): OPENs with AS_TRANS and the 4-octet AS capability,
# Established, AS_PATHs in 4-octet ASes both ways, no NOTIFICATION. Both sides connect.
# REQ: SLB-04, SLB-12.
# Usage: bgp-bird-as4.sh PATH/TO/emulate-bgp (CTest: interop-bgp-bird-as4). Skips (exit 77) without
# root, a tap or the daemon; runs in a network namespace of its own (adc-interop-lib.sh).
set -u
. "$(dirname "$0")/adc-interop-lib.sh"
adc_interop_enter "$@"
. "$(dirname "$0")/bgp-common.sh"
bgp_init "${1:-}"
bird_use
bgp_short 4200000001 4200000010 yes
echo "PASSED: bgp-bird-as4"
