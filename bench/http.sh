#!/usr/bin/env bash
# Requests per second of a host's GET /v1/environment against nginx serving the same bytes,
# measured with wrk in one invocation on this machine. Ends with `name: value` lines.
#
#   bench/http.sh                 # 3 rounds of 5 s per side, 64 connections, 2 wrk threads
#   ROUNDS=5 DURATION=10s CONNECTIONS=128 bench/http.sh
#
# The machine's speed drifts within minutes: each round measures nginx and the host back to back
# (the order alternating from round to round), and the figures are the median round's.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

DURATION=${DURATION:-5s}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
SCRATCH=${SCRATCH:-.build}
bench_workspace

rps() { awk '/^Requests\/sec:/ {print $2}' "$1"; }

[ "${SKIP_BUILD:-}" = 1 ] || swift build -c release --scratch-path "$SCRATCH" --product sandbox-host >/dev/null
host_binary="$SCRATCH/release/sandbox-host"

# The host, without and with its access log (nginx is measured with its log off and on as well).
host_port=$(free_port)
"$host_binary" --env EU --port "$host_port" --data-dir "$work/data" --access-log off >/dev/null &
pids+=($!)
logged_port=$(free_port)
"$host_binary" --env EU --port "$logged_port" --data-dir "$work/data-logged" \
  --access-log "$work/host-access.log" >/dev/null &
pids+=($!)
wait_for "http://127.0.0.1:$host_port/v1/environment"
wait_for "http://127.0.0.1:$logged_port/v1/environment"

# nginx serves the very bytes the host answers, with the same content type, two workers, one per core.
mkdir -p "$work/www/v1"
curl -fs "http://127.0.0.1:$host_port/v1/environment" >"$work/www/v1/environment"
nginx_port=$(free_port)
nginx_logged_port=$(free_port)
cat >"$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  default_type application/json;
  keepalive_requests 1000000;
  server { listen 127.0.0.1:$nginx_port; root $work/www; access_log off; }
  server { listen 127.0.0.1:$nginx_logged_port; root $work/www; access_log $work/nginx-access.log; }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
pids+=($!)
wait_for "http://127.0.0.1:$nginx_port/v1/environment"
wait_for "http://127.0.0.1:$nginx_logged_port/v1/environment"

run() { wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$1" >"$2"; }
# Warm up both, then alternate so drift on a shared machine hits both sides alike.
wrk -t1 -c8 -d2s "http://127.0.0.1:$host_port/v1/environment" >/dev/null
wrk -t1 -c8 -d2s "http://127.0.0.1:$nginx_port/v1/environment" >/dev/null
for round in $(seq "$ROUNDS"); do
  pairs=("nginx $nginx_port" "host $host_port" "nginx-logged $nginx_logged_port" "host-logged $logged_port")
  [ $((round % 2)) = 1 ] || pairs=("host $host_port" "nginx $nginx_port" "host-logged $logged_port" "nginx-logged $nginx_logged_port")
  for pair in "${pairs[@]}"; do
    set -- $pair
    # The host profiled during its first round (the profiler's own cost falls on that round).
    [ "$round$1" != 1host ] || bench_profile "${pids[0]}" 4 http
    run "http://127.0.0.1:$2/v1/environment" "$work/$1-$round.txt"
  done
done

bytes=$(wc -c <"$work/www/v1/environment")
python3 - "$work" "$ROUNDS" "$bytes" "$CONNECTIONS" "$THREADS" "$DURATION" "$(nproc)" <<'PY'
import statistics, sys
work, rounds, bytes_, connections, threads, duration, cores = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
def read(name, round_):
    found = {}
    for line in open(f"{work}/{name}-{round_}.txt"):
        parts = line.split()
        if line.startswith("Requests/sec:"): found["rps"] = float(parts[1])
        elif parts[:1] in (["50%"], ["99%"]): found[parts[0]] = parts[1]
    if "rps" not in found: raise SystemExit(f"wrk printed no rate for {name} in round {round_}")
    return found
runs = {name: [read(name, r) for r in range(1, rounds + 1)] for name in ("nginx", "host", "nginx-logged", "host-logged")}
def median_round(side, reference):
    ratios = sorted((runs[side][r]["rps"] / runs[reference][r]["rps"], r) for r in range(rounds))
    return ratios[len(ratios) // 2]
ratio, r = median_round("host", "nginx")
logged_ratio, lr = median_round("host-logged", "nginx-logged")
for name, chosen in (("nginx", r), ("host", r), ("nginx-logged", lr), ("host-logged", lr)):
    run = runs[name][chosen]
    print(f"{name:<13} {run['rps']:.0f} req/s, latency p50 {run.get('50%')}, p99 {run.get('99%')}")
print("per round, host/nginx: " + ", ".join(f"{runs['host'][i]['rps'] / runs['nginx'][i]['rps']:.2f}" for i in range(rounds)))
print(f"(body {bytes_} bytes, {connections} connections, {threads} wrk threads, {rounds} rounds of {duration} per side, the median round's figures, {cores} cores)")
print(f"nginx_rps: {runs['nginx'][r]['rps']:.0f}")
print(f"host_rps: {runs['host'][r]['rps']:.0f}")
print(f"host_vs_nginx: {ratio:.2f}")
print(f"host_vs_nginx_with_access_log: {logged_ratio:.2f}")
PY
