#!/usr/bin/env bash
# The merchant portal's Transactions and Statistics at a million transactions: the portal's JSON
# API (which calls the host's back office server to server) against the host's back-office
# endpoint itself in the same run, and the Transactions page's DOMContentLoaded and first rows in
# headless Chromium (Debian's, through Playwright for Python).
#
# A host starts on a fresh data dir with a bench terminal and stops; bench-load seeds ROWS
# transactions of that terminal straight into its database (the last 90 days, statuses and
# brands mixed); the host and a portal-sim start, and each call is loaded for DURATION seconds
# with CONNECTIONS connections. Ends with `name: value` lines. Timings are for reading, never asserted.
#
#   bench/portal.sh                       # 1M rows, 2 connections, 4 s per call
#   ROWS=100000 DURATION=10 bench/portal.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

ROWS=${ROWS:-1000000}
DURATION=${DURATION:-4}
CONNECTIONS=${CONNECTIONS:-2}
PAGES=${PAGES:-1-50}
LOADS=${LOADS:-7}
SCRATCH=${SCRATCH:-.build}
bench_workspace


if [ "${SKIP_BUILD:-}" != 1 ]; then
  swift build -c release --scratch-path "$SCRATCH" --product sandbox-host >/dev/null
  swift build -c release --scratch-path "$SCRATCH" --product portal-sim >/dev/null
  swift build -c release --scratch-path "$SCRATCH" --product bench-load >/dev/null
fi
host_binary="$SCRATCH/release/sandbox-host"
portal_binary="$SCRATCH/release/portal-sim"
load="$SCRATCH/release/bench-load"

bench_terminal_data "$work"
terminal=EU-BENCH-T001
key=$(python3 -c 'import json; print(json.load(open("sandbox-data/merchants.json"))["regions"]["EU"]["backOfficeKey"])')
host_port=$(free_port)
portal_port=$(free_port)
host="http://127.0.0.1:$host_port"
portal="http://127.0.0.1:$portal_port"
data="$work/data"

start_host() {
  "$host_binary" --env EU --port "$host_port" --data-dir "$data" --access-log off --sandbox-data "$work/sandbox-data" >/dev/null &
  pids+=($!)
  wait_for "$host/v1/environment"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start_host
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true
now_ms=$(python3 -c 'import time; print(int(time.time() * 1000))')
"$load" seed --db "$data/eu.sqlite" --terminal "$terminal" --merchant EU-BENCH01 --rows "$ROWS" --now-ms "$now_ms" --days 90 \
  >"$work/seed.json"
start_host
"$portal_binary" --port "$portal_port" --environments "EU=$host" --access-log off --sandbox-data "$work/sandbox-data" >/dev/null &
pids+=($!)
wait_for "$portal/healthz"

read -r from_iso to_iso < <(python3 - "$now_ms" <<'PY'
import sys, datetime
now = int(sys.argv[1])
iso = lambda ms: datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
print(iso(now - 90 * 86_400_000 - 60_000), iso(now + 600_000))
PY
)
# Twenty transactions of the first page, for the detail call.
ids=$(curl -s "$host/backoffice/v1/transactions?terminalId=$terminal" -H "Authorization: Bearer $key" |
  python3 -c 'import json, sys; print(" ".join(t["transactionId"] for t in json.load(sys.stdin)["transactions"]))')

# Each call through the portal, then the same call on the host's back office (the reference).
run() { # NAME PATH... (through the portal; the host path is the same with /backoffice/v1 for /api/regions/EU)
  local name=$1; shift
  local portal_paths=() host_paths=()
  for path in "$@"; do
    portal_paths+=(--path "/api/regions/EU$path")
    host_paths+=(--path "/backoffice/v1$path")
  done
  "$load" get --url "$portal" --token none --connections "$CONNECTIONS" --warmup-requests 1 --duration "$DURATION" \
    --pages "$PAGES" --label "portal $name" "${portal_paths[@]}" >"$work/portal-$name.json"
  "$load" get --url "$host" --token "$key" --connections "$CONNECTIONS" --warmup-requests 1 --duration "$DURATION" \
    --pages "$PAGES" --label "host $name" "${host_paths[@]}" >"$work/host-$name.json"
}
run list "/transactions?terminalId=$terminal&page={page}&itemsPerPage=20"
run list-region "/transactions?page={page}&itemsPerPage=20"
detail_paths=()
for id in $ids; do detail_paths+=("/transactions/$id"); done
run detail "${detail_paths[@]}"
run stats-daily "/statistics?fromDate=$from_iso&toDate=$to_iso&statisticsType=daily"
run stats-brand "/statistics?fromDate=$from_iso&toDate=$to_iso&statisticsType=brand"

# The Transactions page in headless Chromium: DOMContentLoaded, and the first page of rows shown.
python3 - "$portal/transactions.html?region=EU" "$LOADS" >"$work/page.json" <<'PY'
import json, statistics, sys
from playwright.sync_api import sync_playwright
url, loads = sys.argv[1], int(sys.argv[2])
dcl, rows = [], []
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
    for index in range(loads + 1):
        page = browser.new_page()
        page.goto(url, wait_until="domcontentloaded")
        page.wait_for_selector("#transactions tbody tr")
        page.wait_for_function("() => !document.querySelector('[aria-busy=true]')")
        timing = page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0]; return [n.domContentLoadedEventEnd, performance.now()]; }")
        page.close()
        if index == 0:
            continue  # the first load warms the browser's caches
        dcl.append(timing[0])
        rows.append(timing[1])
    browser.close()
print(json.dumps({"dcl_ms": statistics.median(dcl), "dcl_max_ms": max(dcl), "rows_ms": statistics.median(rows), "rows_max_ms": max(rows)}))
PY

python3 - "$work" "$ROWS" "$CONNECTIONS" "$DURATION" "$LOADS" "$(nproc)" "$load_before" <<'PY'
import json, sys
work, rows, connections, duration, loads, cores, load_before = sys.argv[1:8]
def load(name):
    return json.load(open(f"{work}/{name}.json"))
label = lambda n: f"{n // 1_000_000}m" if n % 1_000_000 == 0 else f"{n // 1000}k"
size = label(int(rows))
calls = [("list", "list, one terminal"), ("list-region", "list, the region"), ("detail", "detail"),
         ("stats-daily", "statistics daily"), ("stats-brand", "statistics brand")]
print(f"{'call':<20} {'portal req/s':>12} {'p50 ms':>8} {'p99 ms':>8} {'host req/s':>11} {'p50 ms':>8} {'p99 ms':>8} {'failures':>8}")
for key, title in calls:
    p, h = load(f"portal-{key}"), load(f"host-{key}")
    print(f"{title:<20} {p['rps']:>12.1f} {p['p50_ms']:>8.2f} {p['p99_ms']:>8.2f} {h['rps']:>11.1f} {h['p50_ms']:>8.2f} {h['p99_ms']:>8.2f} "
          f"{p['failures'] + h['failures']:>8}")
    for sample in p["failure_samples"] + h["failure_samples"]:
        print(f"  failure: {sample}")
page = load("page")
print(f"Transactions page: DOMContentLoaded median {page['dcl_ms']:.0f} ms (max {page['dcl_max_ms']:.0f}), first rows shown "
      f"median {page['rows_ms']:.0f} ms (max {page['rows_max_ms']:.0f}) over {loads} loads")
print(f"({rows} rows seeded in {load('seed')['seconds']:.1f} s; {connections} connections, {duration} s per call; "
      f"reference: the host's own back-office endpoint; {cores} cores, load average before: {load_before})")
for key, _ in calls:
    name = key.replace("-", "_")
    p, h = load(f"portal-{key}"), load(f"host-{key}")
    print(f"portal_{name}_p99_ms_{size}: {p['p99_ms']:.2f}")
    print(f"portal_{name}_p99_vs_host_{size}: {p['p99_ms'] / h['p99_ms']:.2f}" if h['p99_ms'] else f"portal_{name}_p99_vs_host_{size}: n/a")
print(f"transactions_page_dcl_ms_{size}: {page['dcl_ms']:.0f}")
print(f"transactions_page_rows_ms_{size}: {page['rows_ms']:.0f}")
print(f"portal_failures: {sum(load(f'portal-{k}')['failures'] + load(f'host-{k}')['failures'] for k, _ in calls)}")
PY
