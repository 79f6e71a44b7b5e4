# What the benchmark scripts share; sourced, never run.

# They read Linux's /proc (the load average, a process's CPU ticks): elsewhere, say so and stop.
if [ "$(uname -s)" != Linux ]; then
  echo "$(basename "$0"): skipped: the benchmarks measure on Linux (they read /proc); run them on Linux" >&2
  exit 0
fi

# A scratch folder, $work (readable by nginx's workers, which run as another user), and $pids, the
# background processes to stop when the script ends (`pids+=($!)`); both are cleaned up at exit.
bench_workspace() {
  work=$(mktemp -d)
  chmod 755 "$work"
  pids=()
  trap bench_cleanup EXIT
}
bench_cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}

# A free TCP port on 127.0.0.1.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The first of COUNT consecutive free ports below the ephemeral range (for `sandbox up --base-port`,
# which listens on the base and the ports after it: an ephemeral base collides with the bench's
# own client connections).
free_port_block() {
  python3 - "$1" <<'PY'
import random, socket, sys
count = int(sys.argv[1])
for _ in range(200):
    base = random.randrange(20000, 32000 - count)
    sockets = []
    try:
        for port in range(base, base + count):
            s = socket.socket(); s.bind(("127.0.0.1", port)); sockets.append(s)
    except OSError:
        continue
    finally:
        for s in sockets: s.close()
    print(base); break
else:
    sys.exit("no block of free ports")
PY
}

# Waits (up to 20 s) until URL answers anything; exits the script when it never does.
wait_for() { for _ in $(seq 400); do curl -s -o /dev/null "$1" && return 0; sleep 0.05; done; echo "no answer from $1" >&2; exit 1; }

# A copy of sandbox-data in DIR/sandbox-data whose only local overlay is one bench merchant
# (EU-BENCH01) with one terminal (EU-BENCH-T001): refunds and reversals on, no tips, auto-login.
bench_terminal_data() {
  cp -R sandbox-data "$1/sandbox-data"
  rm -f "$1/sandbox-data/local/"*.json
  cat >"$1/sandbox-data/local/bench.json" <<'JSON'
{"regions": {"EU": {"merchants": [{
  "id": "EU-BENCH01", "name": "Bench Shop", "address1": "Benchstraat 1", "address2": "1000 Brussel",
  "apiKey": "sk_test_eu_bench_000000000001",
  "terminals": [{
    "id": "EU-BENCH-T001", "profileId": "prf_bench", "refundAvailable": true, "reversalAvailable": true,
    "limitAmount": 100000, "permittedCountries": null,
    "tips": {"enabled": false, "rates": [], "maxAmount": null, "maxPercentage": null},
    "reference": {"enabled": false, "pattern": null}, "autoLogin": true,
    "registerOptions": ["portal", "registrationCode"], "apm": {"enabled": false, "brands": []}}]}]}}}
JSON
}

# With PROFILE=1, profiles PID for SECONDS in the background (bench/profile.sh), its report in
# $PROFILE_DIR/NAME.txt (default .build/bench) and its folded stacks beside it; `wait` collects it.
bench_profile() {
  [ "${PROFILE:-}" = 1 ] || return 0
  local dir=${PROFILE_DIR:-.build/bench}
  mkdir -p "$dir"
  bench/profile.sh "$1" "$2" "$dir/profile-$3" >"$dir/profile-$3.txt" 2>&1 &
  echo "profiling $3 (pid $1, $2 s): $dir/profile-$3.txt" >&2
}
