# shellcheck shell=bash
# ns3-adc interoperability tests: what every test script shares. Source it first:
#
#   . "$(dirname "$0")/adc-interop-lib.sh"
#   adc_interop_enter "$@"      # re-runs the script in a network namespace of its own
#
# Isolation: the script re-executes itself under `unshare --net --pid --fork --kill-child
# --mount-proc`, in a new network namespace that holds only a loopback interface, as process 1
# of a new PID namespace. The tap the simulation creates, the real daemons the test starts and
# every packet they exchange exist only inside it. Nothing outlives the test: when the script
# ends (or is killed, e.g. at CTest's timeout: unshare then kills it), the kernel kills every
# process left in its PID namespace, daemons that forked into the background included, and
# the network namespace disappears with them. As process 1 the script also reaps the orphans
# of daemons whose children outlive their parent (nsd's), which a container's init may not.
# `ps` inside sees only the test's processes. Nothing is sent to any address outside.
#
# Skips: a machine that cannot run the test (not root, no /dev/net/tun, no unshare, a missing
# program) makes the script print "SKIPPED: reason" and exit 77, which CTest reports as a skip
# (SKIP_RETURN_CODE 77).

ADC_INTEROP_SKIP=77
ADC_INTEROP_PIDS=()

adc_skip() { # REASON
  echo "SKIPPED: $*"
  exit "$ADC_INTEROP_SKIP"
}

adc_fail() { # MESSAGE
  echo "FAIL: $*" >&2
  exit 1
}

adc_pass() { # MESSAGE
  echo "ok: $*"
}

# Skip unless every program named is on PATH (or an executable path).
adc_require() { # PROGRAM...
  local p
  for p in "$@"; do
    command -v "$p" >/dev/null 2>&1 || [[ -x $p ]] ||
      adc_skip "'$p' is not installed (./adc test installs the interop packages with apt-get)"
  done
}

# Run the calling script again inside fresh network and PID namespaces (once), with lo up, a
# private work folder, and a trap that ends every background process the test started.
adc_interop_enter() { # "$@" of the script
  if [[ ${ADC_INTEROP_IN_NETNS:-} != 1 ]]; then
    [[ $(id -u) -eq 0 ]] || adc_skip "needs root (a network namespace and a tap)"
    [[ -c /dev/net/tun ]] || adc_skip "no /dev/net/tun on this machine"
    command -v unshare >/dev/null || adc_skip "no unshare (util-linux)"
    local ns=(--net --pid --fork --kill-child --mount-proc)
    unshare "${ns[@]}" true 2>/dev/null ||
      adc_skip "cannot create network and PID namespaces here (unshare ${ns[*]} failed)"
    ADC_INTEROP_IN_NETNS=1 exec unshare "${ns[@]}" -- bash "$0" "$@"
  fi
  ip link set lo up
  ADC_WORK=$(mktemp -d "${TMPDIR:-/tmp}/adc-interop.XXXXXX")
  export ADC_WORK
  trap adc_interop_cleanup EXIT
  trap 'exit 130' INT TERM
}

# Start a background process and remember it for the cleanup.
adc_spawn() { # COMMAND...
  "$@" &
  ADC_INTEROP_PIDS+=($!)
}

# Remember a process (e.g. a daemon's pid from its pid file) for the cleanup.
adc_track_pid() { # PID
  ADC_INTEROP_PIDS+=("$1")
}

adc_interop_cleanup() {
  local pid
  for pid in "${ADC_INTEROP_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${ADC_INTEROP_PIDS[@]}"; do
    # Wait at most 5 s for each, then kill it outright.
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [[ -n ${ADC_KEEP_WORK:-} ]]; then
    echo "work folder kept: $ADC_WORK" >&2
  else
    rm -rf "$ADC_WORK"
  fi
}

# Wait until COMMAND succeeds, polling every 0.2 s, at most SECONDS.
adc_wait_for() { # SECONDS COMMAND...
  local limit=$1 i
  shift
  for ((i = 0; i < limit * 5; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}

# Wait until the interface exists and is up (the simulation creates the tap).
adc_wait_tap() { # NAME SECONDS
  adc_wait_for "$2" sh -c "ip -o link show '$1' 2>/dev/null | grep -q 'state UP\|LOWER_UP'"
}
