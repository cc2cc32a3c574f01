#!/usr/bin/env bash
# Interoperability: a large answer set from a simulated GSLB site's authoritative DNS
# (emulate-dns --mode=adns, the built-in ns.conf and a name with many static A records), asked
# by real dig and kdig without EDNS. REQ: GSLB-02
#
# Expected (RFC 1035 4.2.1: a UDP message is at most 512 bytes, longer ones are truncated with
# TC set; RFC 2181 9: the client then asks over TCP, and may get a partial RRset with TC):
#  - over UDP with +ignore (no TCP retry): TC set, QR and AA set, at most 512 bytes, fewer
#    records than configured, each of them one of the configured records;
#  - over TCP: TC clear and exactly the configured records (addresses and TTL);
#  - over UDP without +ignore, dig and kdig see TC, say they retry over TCP and then get every
#    record.
# IPv4 and IPv6 transports both. EDNS is off (+noedns): a client without EDNS is held to 512
# bytes (with EDNS the limit is the client's advertised size, RFC 6891, issue 26's subject).
#
# Usage: dns-truncation.sh PATH-TO-emulate-dns

set -euo pipefail
. "$(dirname "$0")/adc-interop-lib.sh"
adc_interop_enter "$@"
. "$(dirname "$0")/dns-common.sh"

dns_check_binary "${1:-}"
adc_require dig kdig

NAME=big.gslb.example COUNT=40 TTL=600
# The configured records: 198.51.100.1 .. 198.51.100.COUNT, each "NAME. TTL in a ADDRESS".
EXPECTED=$ADC_WORK/expected.txt
for ((i = 1; i <= COUNT; i++)); do echo "$NAME. $TTL in a 198.51.100.$i"; done | sort >"$EXPECTED"
# The test's premise: the whole answer does not fit in 512 bytes even compressed (RFC 1035
# 4.1.4): header 12, question name+2 and 4, each A record a 2-byte pointer, 10 bytes of fixed
# fields and 4 of address.
full=$((12 + ${#NAME} + 2 + 4 + COUNT * 16))
((full > 512)) || adc_fail "test premise: $COUNT records take $full bytes, not above 512"

dns_start --mode=adns --largeName="$NAME" --largeCount="$COUNT" --largeFirst=198.51.100.1 \
  --largeTtl="$TTL" --outputDir="$ADC_WORK/out"
dns_wait_tap
for server in "$DNS_SIM4" "$DNS_SIM6"; do
  adc_wait_for 15 dig @"$server" www.gslb.example A +norecurse +time=1 +tries=1 ||
    dns_fail "no answer from the ADNS at $server within 15 s"
done

# Every record of OUT's last answer is a configured one; print how many there are.
check_subset() { # OUT WHAT
  dns_answers "$1" | dns_lower | sort >"$1.answers"
  [[ -s $1.answers ]] || dns_fail "$2: no records at all"
  local extra
  extra=$(comm -23 "$1.answers" "$EXPECTED")
  [[ -z $extra ]] || dns_fail "$2: records not configured: $extra"
  wc -l <"$1.answers"
}

n=0
for server in "$DNS_SIM4" "$DNS_SIM6"; do
  # UDP, no retry: truncated.
  out=$ADC_WORK/udp-$n.txt
  what="dig @$server $NAME A +noedns +ignore"
  dig @"$server" "$NAME" A +norecurse +noedns +ignore +time=3 +tries=2 >"$out" 2>&1 ||
    dns_fail "$what failed: $(cat "$out")"
  [[ $(dns_flags "$out") == "qr aa tc" ]] ||
    dns_fail "$what: flags '$(dns_flags "$out")', expected 'qr aa tc'"
  size=$(sed -n 's/^;; MSG SIZE  rcvd: \([0-9]*\)$/\1/p' "$out")
  ((size <= 512)) || dns_fail "$what: a UDP response of $size bytes, above 512"
  got=$(check_subset "$out" "$what")
  ((got < COUNT)) || dns_fail "$what: $got records in 512 bytes, more than fit"
  dns_no_warnings "$out"

  out=$ADC_WORK/kudp-$n.txt
  what="kdig @$server $NAME A +noedns +ignore"
  kdig @"$server" "$NAME" A +norecurse +noedns +ignore +time=3 +retry=1 >"$out" 2>&1 ||
    dns_fail "$what failed: $(cat "$out")"
  [[ $(dns_flags "$out") == "qr aa tc" ]] ||
    dns_fail "$what: flags '$(dns_flags "$out")', expected 'qr aa tc'"
  size=$(sed -n 's/^;; Received \([0-9]*\) B$/\1/p' "$out")
  ((size <= 512)) || dns_fail "$what: a UDP response of $size bytes, above 512"
  check_subset "$out" "$what" >/dev/null
  dns_no_warnings "$out"

  # TCP: the whole set.
  out=$ADC_WORK/tcp-$n.txt
  what="dig +tcp @$server $NAME A"
  dig @"$server" "$NAME" A +norecurse +noedns +tcp +time=3 +tries=2 >"$out" 2>&1 ||
    dns_fail "$what failed: $(cat "$out")"
  [[ $(dns_flags "$out") == "qr aa" ]] ||
    dns_fail "$what: flags '$(dns_flags "$out")', expected 'qr aa'"
  dns_answers "$out" | dns_lower | sort >"$out.answers"
  diff -u "$EXPECTED" "$out.answers" >&2 || dns_fail "$what: not the $COUNT configured records"
  dns_no_warnings "$out"

  # UDP as clients normally ask: TC seen, then TCP, then every record.
  out=$ADC_WORK/retry-$n.txt
  what="dig @$server $NAME A +noedns"
  dig @"$server" "$NAME" A +norecurse +noedns +time=3 +tries=2 >"$out" 2>&1 ||
    dns_fail "$what failed: $(cat "$out")"
  grep -qxF ';; Truncated, retrying in TCP mode.' "$out" ||
    dns_fail "$what: dig did not see a truncated UDP answer"
  [[ $(sed -n 's/^;; SERVER: .*(\([A-Z]*\))$/\1/p' "$out") == TCP ]] ||
    dns_fail "$what: the final answer did not come over TCP"
  dns_answers "$out" | dns_lower | sort >"$out.answers"
  diff -u "$EXPECTED" "$out.answers" >&2 || dns_fail "$what: not the $COUNT configured records"
  dns_no_warnings "$out"

  out=$ADC_WORK/kretry-$n.txt
  what="kdig @$server $NAME A +noedns"
  kdig @"$server" "$NAME" A +norecurse +noedns +time=3 +retry=1 >"$out" 2>&1 ||
    dns_fail "$what failed: $(cat "$out")"
  note=";; WARNING: truncated reply from $server@53(UDP), retrying over TCP"
  grep -qxF "$note" "$out" || dns_fail "$what: kdig did not see a truncated UDP answer"
  grep -q "^;; From $server@53(TCP)" "$out" || dns_fail "$what: the final answer was not over TCP"
  dns_answers "$out" | dns_lower | sort >"$out.answers"
  diff -u "$EXPECTED" "$out.answers" >&2 || dns_fail "$what: not the $COUNT configured records"
  dns_no_warnings "$out" "$note"
  n=$((n + 1))
done
adc_pass "$COUNT records: TC and at most 512 bytes over UDP, all of them over TCP (dig, kdig; IPv4, IPv6)"
