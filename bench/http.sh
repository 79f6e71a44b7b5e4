#!/usr/bin/env bash
# Requests per second of a host's GET /v1/environment against nginx serving the same bytes,
# measured with wrk in one invocation on this machine. Ends with `name: value` lines.
#
#   bench/http.sh                 # 10 s per run, 64 connections, 2 wrk threads
#   DURATION=30s CONNECTIONS=128 bench/http.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

DURATION=${DURATION:-10s}
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
run "http://127.0.0.1:$nginx_port/v1/environment" "$work/nginx.txt"
bench_profile "${pids[0]}" 4 http
run "http://127.0.0.1:$host_port/v1/environment" "$work/host.txt"
run "http://127.0.0.1:$nginx_logged_port/v1/environment" "$work/nginx-logged.txt"
run "http://127.0.0.1:$logged_port/v1/environment" "$work/host-logged.txt"

for name in nginx host nginx-logged host-logged; do
  printf '%-13s %s req/s, latency p50 %s, p99 %s\n' "$name" "$(rps "$work/$name.txt")" \
    "$(awk '$1=="50%" {print $2}' "$work/$name.txt")" "$(awk '$1=="99%" {print $2}' "$work/$name.txt")"
done
bytes=$(wc -c <"$work/www/v1/environment")
echo "(body $bytes bytes, $CONNECTIONS connections, $THREADS wrk threads, $DURATION per run, $(nproc) cores)"
python3 - "$work" <<'PY'
import sys, re
work = sys.argv[1]
def rps(name):
    for line in open(f"{work}/{name}.txt"):
        if line.startswith("Requests/sec:"):
            return float(line.split()[1])
    raise SystemExit(f"wrk printed no rate for {name}")
nginx, host = rps("nginx"), rps("host")
nginx_logged, host_logged = rps("nginx-logged"), rps("host-logged")
print(f"nginx_rps: {nginx:.0f}")
print(f"host_rps: {host:.0f}")
print(f"host_vs_nginx: {host / nginx:.2f}")
print(f"host_vs_nginx_with_access_log: {host_logged / nginx_logged:.2f}")
PY
