#!/usr/bin/env bash
# What `sandbox up` costs while nobody uses it, against a freshly started nginx (two workers, the
# reference) idling in the same window: CPU seconds, context switches a second (wake-ups) and
# threads, read from /proc. Teams leave the sandbox running all day on a laptop.
# Ends with `name: value` lines.
#
#   bench/idle.sh                  # 10 s to settle after start, then 60 s measured
#   SETTLE=5 DURATION=30 bench/idle.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

SETTLE=${SETTLE:-10}
DURATION=${DURATION:-60}
SCRATCH=${SCRATCH:-.build}
bench_workspace

[ "${SKIP_BUILD:-}" = 1 ] || swift build -c release --scratch-path "$SCRATCH" --product sandbox >/dev/null
base=$(free_port_block 15)
"$SCRATCH/release/sandbox" up --base-port "$base" --data-dir "$work/data" --access-log off >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!
pids+=("$sandbox_pid")
wait_for "http://127.0.0.1:$base/healthz"

nginx_port=$(free_port)
mkdir -p "$work/www"
cat >"$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http { server { listen 127.0.0.1:$nginx_port; root $work/www; access_log off; } }
CONF
nginx -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
nginx_pid=$!
pids+=("$nginx_pid")
wait_for "http://127.0.0.1:$nginx_port/"

# CPU ticks (user + system) and context switches (voluntary + involuntary) of a process and its
# children's threads: every task of every pid given.
sample() {
  local ticks=0 switches=0 threads=0 pid task
  for pid in "$@"; do
    for task in /proc/"$pid"/task/*; do
      [ -r "$task/stat" ] || continue
      ticks=$((ticks + $(awk '{print $14 + $15}' "$task/stat")))
      switches=$((switches + $(awk '/ctxt_switches/ {s += $2} END {print s}' "$task/status")))
      threads=$((threads + 1))
    done
  done
  echo "$ticks $switches $threads"
}
nginx_pids() { echo "$nginx_pid $(pgrep -P "$nginx_pid" | tr '\n' ' ')"; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "(settling $SETTLE s after start, then $DURATION s measured; load before: $load_before)"
sleep "$SETTLE"
read -r s_ticks0 s_switch0 _ <<<"$(sample "$sandbox_pid")"
read -r n_ticks0 n_switch0 _ <<<"$(sample $(nginx_pids))"
sleep "$DURATION"
read -r s_ticks1 s_switch1 s_threads <<<"$(sample "$sandbox_pid")"
read -r n_ticks1 n_switch1 n_threads <<<"$(sample $(nginx_pids))"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$DURATION" "$(getconf CLK_TCK)" "$load_before" "$load_after" \
  "$s_ticks0" "$s_ticks1" "$s_switch0" "$s_switch1" "$s_threads" \
  "$n_ticks0" "$n_ticks1" "$n_switch0" "$n_switch1" "$n_threads" <<'PY'
import sys
duration, tick = float(sys.argv[1]), float(sys.argv[2])
load_before, load_after = sys.argv[3], sys.argv[4]
s = [int(x) for x in sys.argv[5:10]]
n = [int(x) for x in sys.argv[10:15]]
def figures(v):
    cpu = (v[1] - v[0]) / tick
    wakeups = (v[3] - v[2]) / duration
    return cpu, wakeups, v[4]
s_cpu, s_wake, s_threads = figures(s)
n_cpu, n_wake, n_threads = figures(n)
print(f"load average before {load_before}, after {load_after}")
print(f"{'':22}{'CPU s':>8}{'% of a core':>13}{'wake-ups/s':>12}{'threads':>9}")
for name, cpu, wake, threads in [("sandbox up (idle)", s_cpu, s_wake, s_threads), ("nginx (idle)", n_cpu, n_wake, n_threads)]:
    print(f"{name:22}{cpu:8.2f}{100 * cpu / duration:13.2f}{wake:12.1f}{threads:9d}")
print(f"idle_seconds: {duration:g}")
print(f"idle_cpu_s: {s_cpu:.2f}")
print(f"idle_wakeups_per_s: {s_wake:.1f}")
print(f"idle_threads: {s_threads}")
print(f"nginx_idle_cpu_s: {n_cpu:.2f}")
print(f"nginx_idle_wakeups_per_s: {n_wake:.1f}")
PY
