#!/usr/bin/env bash
# What `sandbox up` costs while nobody uses it, against a freshly started nginx (two workers, the
# reference) idling in the same window: CPU seconds, context switches a second (wake-ups) and
# threads, read from /proc. Teams leave the sandbox running all day on a laptop.
# Then, on the sandbox that slept, that what falls due still goes out on time (the wake-up paths):
# a webhook triggered now, a QR payment the wallet approves by itself 2 s later (43.20) and a QR
# payment whose deadline passes when the host's clock is moved, each timed to its arrival in the
# webhook inbox (its receivedAt, real time). Ends with `name: value` lines.
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

if [ "${SKIP_BUILD:-}" != 1 ]; then
  swift build -c release --scratch-path "$SCRATCH" --product sandbox >/dev/null
  swift build -c release --scratch-path "$SCRATCH" --product tapsim >/dev/null
fi
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

# CPU ticks (user + system) of each pid given, threads that ended included (the process's own
# stat), and the context switches (voluntary + involuntary) and number of its threads now.
sample() {
  local ticks=0 switches=0 threads=0 pid task
  for pid in "$@"; do
    ticks=$((ticks + $(sed 's/.*) //' /proc/"$pid"/stat | awk '{print $12 + $13}')))
    for task in /proc/"$pid"/task/*; do
      [ -r "$task/status" ] || continue
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

# The wake-up paths, after the idle minute.
python3 - "$work/data/endpoints.json" "$SCRATCH/release/tapsim" "$work/device" "$sandbox_pid" "$(getconf CLK_TCK)" <<'PY'
import json, subprocess, sys, time, urllib.request
from datetime import datetime
endpoints = json.load(open(sys.argv[1]))
tapsim = [sys.argv[2], "--endpoints", sys.argv[1], "--device", sys.argv[3], "--env", "EU"]
eu, inbox = endpoints["environments"]["EU"], endpoints["webhooks"]

def call(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)

def tap(*args):
    return json.loads(subprocess.run(tapsim + ["--json", *args], check=True, capture_output=True, text=True).stdout)

def at(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()

def arrival(match, seconds=30):
    """When the inbox received the first event that `match`es (real time, seconds since 1970)."""
    end = time.time() + seconds
    while time.time() < end:
        for event in call(inbox + "/api/events")["events"]:
            if match(event):
                return at(event["receivedAt"])
        time.sleep(0.02)
    sys.exit("idle.sh: an event did not arrive in the inbox within %d s" % seconds)

def paid(transaction, kind):
    def match(event):
        body = json.loads(event["body"]) if isinstance(event.get("body"), str) else event.get("body") or {}
        return event["type"] == kind and json.dumps(body).find(transaction) >= 0
    return match

tap("register", "quick", "--pin", "1234")
tap("login")

# A webhook triggered now: the dispatcher, asleep, is woken by the commit.
sent = time.time()
event = call(eu + "/_sandbox/webhooks/trigger", {"event": "payment.succeeded", "merchantId": "EU-M01"})["eventId"]
webhook_ms = (arrival(lambda e: e["eventId"] == event) - sent) * 1000

# 43.20: the wallet's scheduler approves the order 2 s after it was made; the host hears it and
# sends payment.succeeded. Late by: its arrival less 2 s after the transaction's date.
made = tap("qr", "pay", "--amount", "4320", "--no-wait")["transaction"]
rule_late_ms = (arrival(paid(made["transactionId"], "payment.succeeded")) - at(made["transactionDate"]) - 2) * 1000

# A QR payment nobody pays; the host's clock moved past its deadline: the courier, asleep until
# then, expires it (and closes the wallet's order), and payment.failed goes out.
waiting = tap("qr", "pay", "--amount", "1250", "--no-wait")["transaction"]
seconds = int(at(waiting["expiresAt"]) - at(waiting["transactionDate"])) + 1
moved = time.time()
call(eu + "/_sandbox/clock", {"advanceSeconds": seconds})
expiry_ms = (arrival(paid(waiting["transactionId"], "payment.failed")) - moved) * 1000

# And it sleeps again once that work is done (a worker that kept finding "due now" would spin).
def ticks(pid):
    """User and system ticks of the process, threads that ended included."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])
time.sleep(2)
before = ticks(sys.argv[4])
time.sleep(10)
after_cpu_s = (ticks(sys.argv[4]) - before) / float(sys.argv[5])

print(f"a webhook triggered after the idle minute reached the inbox in {webhook_ms:.1f} ms")
print(f"a wallet rule's approval due 2 s after the order reached the inbox {rule_late_ms:.1f} ms after its due time")
print(f"a QR payment's deadline passed by a clock move: payment.failed reached the inbox {expiry_ms:.1f} ms after the move")
print(f"then idle again: {after_cpu_s:.2f} s of CPU in the next 10 s")
print(f"wake_webhook_ms: {webhook_ms:.1f}")
print(f"wake_wallet_rule_late_ms: {rule_late_ms:.1f}")
print(f"wake_qr_expiry_ms: {expiry_ms:.1f}")
print(f"idle_after_work_cpu_s: {after_cpu_s:.2f}")
PY
