#!/usr/bin/env bash
# Interoperability: a real DNS client (dig or kdig) asks a simulated GSLB site's authoritative
# DNS (emulate-dns --mode=adns, configured from the ns.conf below) for A and AAAA records, over
# UDP and TCP, to its IPv4 and IPv6 addresses, with RD set and clear. REQ: GSLB-02
#
# Expected, for every answer:
#  - status NOERROR, one record: the configured service's address with the domain's -TTL;
#  - flags (RFC 1035 4.1.1): QR set; AA set (the site is the domain's authoritative server);
#    RD copied from the query; RA clear (an authoritative-only server offers no recursion);
#    TC clear (the answer fits);
#  - the ID and the question echoed as sent (RFC 1035 4.1.1, 7.3), letter case included
#    (RFC 4343 4.1): dig sends the ID chosen with +qid and the name as typed; kdig shows with
#    +qr what it sent (it sends names in lower case);
#  - the transport asked for, and no complaint from the client's parser. The one line allowed
#    is dig's note that RA is clear when it asked for recursion.
#
# Usage: dns-adns.sh PATH-TO-emulate-dns dig|kdig

set -euo pipefail
. "$(dirname "$0")/adc-interop-lib.sh"
adc_interop_enter "$@"
. "$(dirname "$0")/dns-common.sh"

dns_check_binary "${1:-}"
CLIENT=${2:-}
[[ $CLIENT == dig || $CLIENT == kdig ]] || adc_fail "usage: $0 PATH-TO-emulate-dns dig|kdig"
adc_require "$CLIENT"

# The site's configuration: what the answers must say.
A_NAME=www.gslb.example A_ADDR=203.0.113.10 A_TTL=17
AAAA_NAME=www6.gslb.example AAAA_ADDR=2001:db8:cafe::10 AAAA_TTL=23
cat >"$ADC_WORK/site.ns.conf" <<EOF
add gslb site site-a $DNS_SIM4 -siteType LOCAL
add gslb service svc-v4 $A_ADDR HTTP 80 -siteName site-a
add gslb service svc-v6 $AAAA_ADDR HTTP 80 -siteName site-a
add gslb vserver vs-v4 HTTP -lbMethod ROUNDROBIN
bind gslb vserver vs-v4 -serviceName svc-v4
bind gslb vserver vs-v4 -domainName $A_NAME -TTL $A_TTL
add gslb vserver vs-v6 HTTP -lbMethod ROUNDROBIN -dnsRecordType AAAA
bind gslb vserver vs-v6 -serviceName svc-v6
bind gslb vserver vs-v6 -domainName $AAAA_NAME -TTL $AAAA_TTL
EOF

dns_start --mode=adns --config="$ADC_WORK/site.ns.conf" --largeCount=0 --outputDir="$ADC_WORK/out"
dns_wait_tap
for server in "$DNS_SIM4" "$DNS_SIM6"; do
  adc_wait_for 15 dig @"$server" "$A_NAME" A +norecurse +time=1 +tries=1 ||
    dns_fail "no answer from the ADNS at $server within 15 s"
done

qid=4096
checked=0
for server in "$DNS_SIM4" "$DNS_SIM6"; do
  for proto in udp tcp; do
    for rd in 0 1; do
      for type in A AAAA; do
        if [[ $type == A ]]; then name=$A_NAME addr=$A_ADDR ttl=$A_TTL; else
          name=$AAAA_NAME addr=$AAAA_ADDR ttl=$AAAA_TTL
        fi
        # With RD set, ask in mixed case: the question must come back as sent.
        asked=$name
        # shellcheck disable=SC2001 # sed alternates the case of letters
        ((rd)) && asked=$(echo "$name" | sed 's/\(.\)\(.\)/\U\1\L\2/g')
        out=$ADC_WORK/$CLIENT-$checked.txt
        opts=(+time=3)
        [[ $proto == tcp ]] && opts+=(+tcp)
        ((rd)) && opts+=(+recurse) || opts+=(+norecurse)
        qid=$((qid + 1))
        if [[ $CLIENT == dig ]]; then
          dig @"$server" "$asked" "$type" "${opts[@]}" +tries=2 +qid="$qid" >"$out" 2>&1 ||
            dns_fail "dig @$server $asked $type ${opts[*]} failed: $(cat "$out")"
          want_ids=$qid
          want_question="$asked. IN $type"
          allowed=""
          ((rd)) && allowed=";; WARNING: recursion requested but not available"
          transport=$(sed -n 's/^;; SERVER: .*(\([A-Z]*\))$/\1/p' "$out")
        else
          kdig @"$server" "$asked" "$type" "${opts[@]}" +retry=1 +qr >"$out" 2>&1 ||
            dns_fail "kdig @$server $asked $type ${opts[*]} failed: $(cat "$out")"
          sent=$(dns_ids "$out" | head -1)
          want_ids="$sent"$'\n'"$sent"
          want_question=$(dns_question_first "$out")
          [[ $(dns_lower <<<"$want_question") == "$name. in $(dns_lower <<<"$type")" ]] ||
            dns_fail "kdig sent the question '$want_question', not $asked $type"
          allowed=""
          transport=$(sed -n 's/^;; From .*(\([A-Z]*\)) in .*/\1/p' "$out")
        fi
        what="$CLIENT @$server $asked $type ${opts[*]}"
        [[ $(dns_ids "$out") == "$want_ids" ]] ||
          dns_fail "$what: IDs $(dns_ids "$out" | tr '\n' ' '), expected the query's ID echoed ($want_ids)"
        [[ $(dns_status "$out") == NOERROR ]] || dns_fail "$what: status $(dns_status "$out")"
        want_flags="qr aa"
        ((rd)) && want_flags="qr aa rd"
        [[ $(dns_flags "$out") == "$want_flags" ]] ||
          dns_fail "$what: flags '$(dns_flags "$out")', expected '$want_flags'"
        [[ $(dns_question "$out") == "$want_question" ]] ||
          dns_fail "$what: question echoed '$(dns_question "$out")', expected '$want_question'"
        got=$(dns_answers "$out" | dns_lower)
        want=$(dns_lower <<<"$name. $ttl in $type $addr")
        [[ $got == "$want" ]] ||
          dns_fail "$what: answer '$got', expected '$want' (ns.conf)"
        [[ $transport == "${proto^^}" ]] || dns_fail "$what: sent over '$transport', not ${proto^^}"
        dns_no_warnings "$out" "$allowed"
        checked=$((checked + 1))
      done
    done
  done
done
adc_pass "$CLIENT: $checked answers (A and AAAA; UDP and TCP; IPv4 and IPv6; RD clear and set) as configured"
