#!/usr/bin/env bash
# Interoperability, BGP: the simulated SLB MUX against a 2-octet-only BIRD 2 ('enable as4 off':
# no 4-octet AS capability, AS_PATH in 2-octet ASes, RFC 6793 4.2): the MUX's OPEN still
# accepted, Established, VIPs and BIRD's routes exchanged in the old encoding, no NOTIFICATION.
# Both sides connect (a collision may be resolved, RFC 4271 6.8). REQ: SLB-04, SLB-12.
# Usage: bgp-bird-as2.sh PATH/TO/emulate-bgp (CTest: interop-bgp-bird-as2). Skips (exit 77) without
# root, a tap or the daemon; runs in a network namespace of its own (adc-interop-lib.sh).
set -u
. "$(dirname "$0")/adc-interop-lib.sh"
adc_interop_enter "$@"
. "$(dirname "$0")/bgp-common.sh"
bgp_init "${1:-}"
bird_use
bgp_short 65001 65010 no as4off
no_as4_open() { ! bgp_trace event=message direction=received type=OPEN | grep -q "4-octet AS"; }
bgp_check "the MUX's trace: BIRD's OPEN without the 4-octet AS capability (RFC 6793 4.2)" no_as4_open
echo "PASSED: bgp-bird-as2"
