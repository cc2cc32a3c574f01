#!/usr/bin/env bash
# Interoperability: a real DNS client (dig or kdig) asks a simulated GSLB site's ADNS
# (emulate-dns --mode=adns, its built-in ns.conf: zone gslb.example from `add dns soaRec
# gslb.example ... -minimum 30` (TTL 3600), `add dns nsRec`, `add dns cnameRec
# alias.gslb.example www.gslb.example -TTL 300`) about its zone. REQ: GSLB-02
#
# Expected (the RFCs'):
#  - NXDOMAIN and NODATA carry the zone's SOA in the authority section, TTL min(3600, 30) = 30
#    (RFC 2308 section 3), AA set;
#  - a name outside the zone: REFUSED, AA clear (RFC 1034 section 4.3.2);
#  - a CNAME asked for A: the CNAME, then the target's A record (RFC 1034 section 3.6.2);
#  - EDNS(0) (RFC 6891): an OPT of VERSION 0 comes back announcing 1280 bytes (the model's
#    MaxUdpPayload, NetScaler's default); a 100-record answer asked with a 4096-byte buffer is
#    cut to at most 1280 bytes with TC (section 6.2.5), without EDNS to at most 512 (RFC 1035
#    4.2.1); VERSION 1 gets BADVERS (section 6.1.3).
# Two OPT records in one query (FORMERR, RFC 6891 6.1.1) cannot be sent by dig or kdig: the
# GoogleTest GslbDnsZone.Edns covers it.
#
# Usage: dns-zone.sh PATH-TO-emulate-dns dig|kdig

set -euo pipefail
. "$(dirname "$0")/adc-interop-lib.sh"
adc_interop_enter "$@"
. "$(dirname "$0")/dns-common.sh"

dns_check_binary "${1:-}"
CLIENT=${2:-}
[[ $CLIENT == dig || $CLIENT == kdig ]] || adc_fail "usage: $0 PATH-TO-emulate-dns dig|kdig"
adc_require "$CLIENT"

dns_start --mode=adns --largeCount=100 --outputDir="$ADC_WORK/out"
dns_wait_tap
adc_wait_for 15 dig @"$DNS_SIM4" www.gslb.example A +norecurse +time=1 +tries=1 ||
  dns_fail "no answer from the ADNS within 15 s"

OUT=$ADC_WORK/answer.txt
if [[ $CLIENT == dig ]]; then WAIT=(+time=2 +tries=1); else WAIT=(+timeout=2 +retry=0); fi
ask() { # ARGS...: one query with the client, output in $OUT
  "$CLIENT" @"$DNS_SIM4" +norecurse "${WAIT[@]}" "$@" >"$OUT" 2>&1 || true
}
# The records of SECTION ("AUTHORITY", "ANSWER") of the last response, one per line.
section() {
  awk -v s=";; $1 SECTION:" '$0 == s { on = 1; next } on && /^$/ { on = 0 }
       on && !/^;/ { $1 = $1; print }' "$OUT" | tr '[:upper:]' '[:lower:]'
}
expect() { # WHAT GOT WANT
  [[ $2 == "$3" ]] || dns_fail "$CLIENT: $1: got '$2', want '$3'"$'\n'"$(cat "$OUT")"
}
SOA="gslb.example. 30 in soa ns1.gslb.example. admin.gslb.example. 100 3600 3 3600 30"

ask nosuch.gslb.example A
expect "NXDOMAIN status" "$(dns_status "$OUT")" NXDOMAIN
expect "NXDOMAIN flags" "$(dns_flags "$OUT")" "qr aa"
expect "NXDOMAIN authority" "$(section AUTHORITY)" "$SOA"
adc_pass "NXDOMAIN with the SOA, TTL 30"

ask www.gslb.example AAAA
expect "NODATA status" "$(dns_status "$OUT")" NOERROR
expect "NODATA answers" "$(section ANSWER)" ""
expect "NODATA authority" "$(section AUTHORITY)" "$SOA"
adc_pass "NODATA with the SOA"

ask www.example.org A
expect "out-of-zone status" "$(dns_status "$OUT")" REFUSED
expect "out-of-zone flags" "$(dns_flags "$OUT")" "qr"
adc_pass "REFUSED, AA clear, outside the zone"

ask alias.gslb.example A
expect "CNAME answers" "$(section ANSWER | tr '\n' '|')" \
  "alias.gslb.example. 300 in cname www.gslb.example.|www.gslb.example. 5 in a 203.0.113.10|"
adc_pass "CNAME chased to the GSLB domain's address"

size() { # the response's size as the client printed it
  sed -n 's/^;; MSG SIZE  rcvd: \([0-9]*\)$/\1/p; s/^;; Received \([0-9]*\) B$/\1/p' "$OUT" | tail -1
}
if [[ $CLIENT == dig ]]; then big=(+bufsize=4096 +ignore); plain=(+noedns +ignore); else
  big=(+bufsize=4096 +ignore); plain=(+noedns +ignore)
fi
ask big.gslb.example A "${big[@]}"
udp=$(grep -io 'udp\( size\)\?: [0-9]*' "$OUT" | grep -o '[0-9]*' | head -1)
expect "EDNS payload announced" "$udp" 1280
[[ $(dns_flags "$OUT") == *tc* ]] || dns_fail "$CLIENT: no TC on a cut EDNS answer"
n=$(size)
((n > 1264 && n <= 1280)) || dns_fail "$CLIENT: EDNS answer of $n bytes, want 1265..1280"
ask big.gslb.example A "${plain[@]}"
n=$(size)
((n > 496 && n <= 512)) || dns_fail "$CLIENT: answer without EDNS of $n bytes, want 497..512"
adc_pass "EDNS(0): OPT announces 1280; answers cut to 1280 with EDNS, 512 without, TC set"

if [[ $CLIENT == dig ]]; then ask www.gslb.example A +edns=1 +noednsnegotiation; else
  ask www.gslb.example A +edns=1
fi
expect "VERSION 1 status" "$(dns_status "$OUT")" BADVERS
adc_pass "EDNS VERSION 1: BADVERS"
dns_no_warnings "$OUT"
