# shellcheck shell=bash
# ns3-adc DNS interoperability tests: what the dns-*.sh scripts share, after
# adc-interop-lib.sh. Source it after adc_interop_enter (inside the test's namespace).
#
# The simulated node and the host side of its tap get documentation addresses (RFC 5737,
# RFC 3849); they exist only inside the test's network namespace.

DNS_TAP=adc-dns0
DNS_SIM4=192.0.2.1
DNS_HOST4=192.0.2.2
DNS_SIM6=2001:db8:53::1
DNS_HOST6=2001:db8:53::2
DNS_LOG=$ADC_WORK/emulate-dns.log

# Fail, showing what emulate-dns printed.
dns_fail() { # MESSAGE
  echo "--- emulate-dns output ($DNS_LOG):" >&2
  cat "$DNS_LOG" >&2 2>/dev/null || true
  adc_fail "$*"
}

# Check the emulate-dns binary given to the script; skip on a build without emulation.
dns_check_binary() { # PATH
  [[ -n ${1:-} && -x $1 ]] || adc_fail "usage: $0 PATH-TO-emulate-dns (got '${1:-}')"
  EMU=$1
}

# Start emulate-dns in the background with the test's addresses and ARGS; its output goes to
# $DNS_LOG. Its pid is the last of ADC_INTEROP_PIDS (the cleanup stops it).
dns_start() { # ARGS...
  adc_spawn "$EMU" --tap="$DNS_TAP" --simAddress="$DNS_SIM4" --hostAddress="$DNS_HOST4" \
    --simAddress6="$DNS_SIM6" --hostAddress6="$DNS_HOST6" "$@" >"$DNS_LOG" 2>&1
  # shellcheck disable=SC2034 # used by the scripts that source this file
  DNS_EMU_PID=${ADC_INTEROP_PIDS[-1]}
}

# Wait until emulate-dns's tap is up; fail at once when it exited (skip when this build
# cannot emulate).
dns_wait_tap() {
  local i
  for ((i = 0; i < 75; i++)); do
    ip -o link show "$DNS_TAP" 2>/dev/null | grep -q 'state UP\|LOWER_UP' && return 0
    if ! kill -0 "$DNS_EMU_PID" 2>/dev/null; then
      grep -q "has no emulation" "$DNS_LOG" 2>/dev/null &&
        adc_skip "$(grep -o "this build.*" "$DNS_LOG" | head -1)"
      dns_fail "emulate-dns exited before its tap came up"
    fi
    sleep 0.2
  done
  dns_fail "the tap $DNS_TAP did not come up within 15 s"
}

# The header flags of the last message dig or kdig printed (";; flags: qr aa rd;" /
# ";; Flags: qr aa rd;"; with +qr the query's header comes first).
dns_flags() { # OUTPUT-FILE
  sed -n 's/^;; [Ff]lags: \([a-z ]*\);.*/\1/p' "$1" | tail -1 | sed 's/ *$//'
}

# The status (RCODE) and ID of the response dig or kdig printed (the last header: with +qr
# the query's header comes first).
dns_status() { # OUTPUT-FILE
  sed -n 's/^;; ->>HEADER<<- opcode: QUERY[,;] status: \([A-Z]*\)[,;] id: [0-9]*$/\1/p' "$1" |
    tail -1
}
dns_ids() { # OUTPUT-FILE: every header's ID, in order
  sed -n 's/^;; ->>HEADER<<- opcode: QUERY[,;] status: [A-Z]*[,;] id: \([0-9]*\)$/\1/p' "$1"
}

# The records of the answer section of the last response, one per line:
# "owner TTL class type rdata" with single spaces (dig and kdig print the same columns).
dns_answers() { # OUTPUT-FILE
  awk '/^;; ANSWER SECTION:/ { n++; rows[n] = ""; on = 1; next }
       on && /^$/ { on = 0 }
       on && !/^;/ { $1 = $1; rows[n] = rows[n] $0 "\n" }
       END { printf "%s", rows[n] }' "$1"
}

# The question ("name class type") of the last message dig or kdig printed (dig's ";name",
# kdig's ";; name"); dns_question_first: of the first (with +qr, the query as sent).
dns_question() { # OUTPUT-FILE
  awk '/^;; QUESTION SECTION:/ { on = 1; q = ""; next }
       on && /^$/ { on = 0 }
       on { sub(/^;(; )?/, ""); $1 = $1; q = $0 }
       END { print q }' "$1"
}
dns_question_first() { # OUTPUT-FILE
  awk '/^;; QUESTION SECTION:/ { on = 1; next }
       on && /^$/ { exit }
       on { sub(/^;(; )?/, ""); $1 = $1; print; exit }' "$1"
}

# Fail unless the output holds no parser or protocol complaint. ALLOWED is one exact line
# that is the client's correct reaction to the answer (e.g. dig's note that RA is clear).
dns_no_warnings() { # OUTPUT-FILE [ALLOWED-LINE]
  local bad
  bad=$(grep -Ei 'warning|malformed|formerr|mismatch|;; error|error:|bad packet|unexpected' "$1" |
    grep -vxF "${2:-}" || true)
  [[ -z $bad ]] || dns_fail "$(basename "$1"): the client complained: $bad"
}

# Lower-case text (DNS names compare ignoring case, RFC 4343).
dns_lower() { tr '[:upper:]' '[:lower:]'; }
