#!/usr/bin/env bash
# Interoperability: the module's stub resolver and caching LDNS (emulate-dns --mode=resolve, on
# the simulated side of a tap) resolve names that a real nsd serves on the host side, asking it
# over IPv4 and then over IPv6.
#
# Expected, from the zone file below (RFC 1035; RFC 2308 for negative answers): for each name
# and type, answers.csv says
#  - a name with records of the type: NOERROR with exactly those addresses, each with the
#    record's TTL (the LDNS's first answer is fresh from nsd: the TTL as in the zone);
#  - a name with records of other types only: NOERROR and no address (NODATA);
#  - a name not in the zone: NXDOMAIN.
# Names are asked in mixed case too (RFC 4343: the answer is the same).
#
# Usage: dns-ldns-nsd.sh PATH-TO-emulate-dns

set -euo pipefail
. "$(dirname "$0")/adc-interop-lib.sh"
adc_interop_enter "$@"
. "$(dirname "$0")/dns-common.sh"

dns_check_binary "${1:-}"
adc_require nsd

ZONE=emu.example
NSD=$ADC_WORK/nsd
mkdir -p "$NSD"
# One record a line, "owner TTL IN TYPE data" with absolute owners: the expected values below
# are read from this file.
cat >"$NSD/$ZONE.zone" <<EOF
$ZONE. 3600 IN SOA ns1.$ZONE. hostmaster.$ZONE. 2026120701 7200 3600 1209600 300
$ZONE. 3600 IN NS ns1.$ZONE.
ns1.$ZONE. 3600 IN A $DNS_HOST4
www.$ZONE. 120 IN A 203.0.113.80
www.$ZONE. 240 IN AAAA 2001:db8:80::80
multi.$ZONE. 60 IN A 203.0.113.1
multi.$ZONE. 60 IN A 203.0.113.2
multi.$ZONE. 60 IN A 203.0.113.3
multi.$ZONE. 90 IN AAAA 2001:db8:80::1
multi.$ZONE. 90 IN AAAA 2001:db8:80::2
v4only.$ZONE. 300 IN A 203.0.113.4
EOF
# nsd binds the host side's addresses before the tap exists (ip-freebind), so it is ready when
# the simulation starts asking; everything it writes stays in the work folder.
cat >"$NSD/nsd.conf" <<EOF
server:
    username: ""
    chroot: ""
    zonesdir: "$NSD"
    database: ""
    zonelistfile: "$NSD/zone.list"
    xfrdfile: "$NSD/xfrd.state"
    xfrdir: "$NSD"
    pidfile: "$NSD/nsd.pid"
    logfile: "$NSD/nsd.log"
    ip-address: $DNS_HOST4
    ip-address: $DNS_HOST6
    ip-freebind: yes
    port: 53
    server-count: 1
    verbosity: 1
remote-control:
    control-enable: no
zone:
    name: $ZONE
    zonefile: $ZONE.zone
EOF
nsd-checkconf "$NSD/nsd.conf" || adc_fail "nsd-checkconf rejected the test's nsd.conf"
adc_spawn nsd -d -c "$NSD/nsd.conf"
adc_wait_for 20 grep -q "nsd started" "$NSD/nsd.log" ||
  adc_fail "nsd did not start within 20 s: $(cat "$NSD/nsd.log" 2>/dev/null)"

# The expected CSV row of NAME TYPE, from the zone file: "name,type,rcode,addr/ttl ...".
expected_row() { # NAME TYPE
  local key
  key=$(dns_lower <<<"$1.")
  awk -v n="$key" -v t="$2" -v asked="$1" '
    { owner = tolower($1) }
    owner == n { exists = 1; if ($4 == t) rows = rows " " $5 "/" $2 }
    END {
      rcode = exists ? "NOERROR" : "NXDOMAIN"
      m = split(substr(rows, 2), a, " "); s = ""
      # sorted: the order of records in an RRset is not significant (RFC 2181 5)
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
      for (i = 1; i <= m; i++) s = s (i > 1 ? " " : "") a[i]
      print asked "," t "," rcode "," s
    }' "$NSD/$ZONE.zone"
}

# answers.csv's rows as "name,type,rcode,addr/ttl ..." (pairs sorted).
actual_rows() { # CSV
  tail -n +2 "$1" | while IFS=, read -r name type rcode addresses ttls; do
    read -r -a as <<<"$addresses"
    read -r -a ts <<<"$ttls"
    ((${#as[@]} == ${#ts[@]})) || echo "$name,$type: ${#as[@]} addresses but ${#ts[@]} TTLs"
    pairs=$(for i in "${!as[@]}"; do echo "${as[$i]}/${ts[$i]}"; done | sort | paste -sd' ')
    echo "$name,$type,$rcode,$pairs"
  done
}

run_resolve() { # LABEL NAMESERVER NAMES
  local label=$1 server=$2 names=$3 out=$ADC_WORK/$1
  dns_start --mode=resolve --nameserver="$server" --zone="$ZONE" --names="$names" \
    --types=A,AAAA --outputDir="$out" --duration=40
  local status=0
  wait "$DNS_EMU_PID" || status=$?
  ((status == 0)) || dns_fail "$label: emulate-dns --mode=resolve exited with $status"
  [[ -s $out/answers.csv ]] || dns_fail "$label: no $out/answers.csv"
  local expected actual name type
  expected=$(for name in ${names//,/ }; do
    for type in A AAAA; do expected_row "$name" "$type"; done
  done)
  actual=$(actual_rows "$out/answers.csv")
  if [[ $actual != "$expected" ]]; then
    diff -u <(echo "$expected") <(echo "$actual") >&2 || true
    dns_fail "$label: answers.csv differs from the zone file (- expected, + answers.csv)"
  fi
  adc_pass "$label: $(($(wc -l <"$out/answers.csv") - 1)) answers equal the zone file"
}

run_resolve ipv4 "$DNS_HOST4" "www.$ZONE,multi.$ZONE,v4only.$ZONE,nx.$ZONE"
# Over IPv6; mixed case; a name under one that does not exist.
run_resolve ipv6 "$DNS_HOST6" "WwW.$ZONE,MULTI.emu.EXAMPLE,a.b.nx.$ZONE"
grep -qi "error" "$NSD/nsd.log" && adc_fail "nsd logged an error: $(grep -i error "$NSD/nsd.log")"
adc_pass "the stub resolver and LDNS resolve what nsd serves (A, AAAA, NODATA, NXDOMAIN)"
