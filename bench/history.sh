#!/usr/bin/env bash
# Paged history, count and statistics of one terminal as its history grows (10k, 100k, 1M
# transactions by default), through the terminal API, against raw SQLite: the same SQL run
# in-process on a read-only connection of the same database file (WAL, as the host keeps it).
#
# For each size: a host starts on a fresh data dir with a bench terminal, a device registers and
# logs in over HTTP, the host stops, bench-load seeds N transactions of that terminal straight into
# its database (spread over the last 90 days up to now, statuses and brands mixed), the host
# starts again and is measured; at the largest size a few sales and a reset follow. Ends with
# `name: value` lines. Timings are for reading, never asserted.
#
#   bench/history.sh                                 # 10k, 100k, 1M rows; 2 connections, 4 s per endpoint
#   SIZES="10000 100000" DURATION=10 bench/history.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

SIZES=${SIZES:-10000 100000 1000000}
DURATION=${DURATION:-4}
WARMUP=${WARMUP:-1}    # requests per connection before recording (some take seconds at 1M rows)
CONNECTIONS=${CONNECTIONS:-2}
PAGES=${PAGES:-1-50}
SCRATCH=${SCRATCH:-.build}
work=$(mktemp -d)
host_pid=
cleanup() {
  [ -z "$host_pid" ] || kill "$host_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT


if [ "${SKIP_BUILD:-}" != 1 ]; then
  swift build -c release --scratch-path "$SCRATCH" --product sandbox-host >/dev/null
  swift build -c release --scratch-path "$SCRATCH" --product bench-load >/dev/null
fi
host_binary="$SCRATCH/release/sandbox-host"
load="$SCRATCH/release/bench-load"

bench_terminal_data "$work"
terminal=EU-BENCH-T001
backoffice_key=$(python3 -c 'import json; print(json.load(open("sandbox-data/merchants.json"))["regions"]["EU"]["backOfficeKey"])')
port=$(free_port)
host="http://127.0.0.1:$port"

start_host() {
  "$host_binary" --env EU --port "$port" --data-dir "$1" --access-log off --sandbox-data "$work/sandbox-data" >/dev/null &
  host_pid=$!
  wait_for "$host/v1/environment"
}
stop_host() {
  kill "$host_pid"
  wait "$host_pid" 2>/dev/null || true
  host_pid=
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
largest=$(for n in $SIZES; do echo "$n"; done | sort -n | tail -1)
for rows in $SIZES; do
  data="$work/data-$rows"
  start_host "$data"
  "$load" setup --url "$host" --region EU --backoffice-key "$backoffice_key" --terminals "$terminal" --out "$work/state-$rows.json" 2>/dev/null
  token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["connections"][0]["token"])' "$work/state-$rows.json")
  stop_host
  now_ms=$(python3 -c 'import time; print(int(time.time() * 1000))')
  "$load" seed --db "$data/eu.sqlite" --terminal "$terminal" --merchant EU-BENCH01 --rows "$rows" --now-ms "$now_ms" --days 90 \
    >"$work/seed-$rows.json"
  start_host "$data"

  # Statistics over the whole seeded window (every row of the terminal), as a dashboard's 90 days.
  read -r from_ms to_ms from_iso to_iso < <(python3 - "$now_ms" <<'PY'
import sys, datetime
now = int(sys.argv[1])
start, end = now - 90 * 86_400_000 - 60_000, now + 600_000
iso = lambda ms: datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
print(start // 1000 * 1000, end // 1000 * 1000, iso(start), iso(end))
PY
)
  stats="/terminal/v1/statistics?fromDate=$from_iso&toDate=$to_iso&statisticsType"
  # Raw SQLite first, while the host is idle; then the host, history last (its slow pages keep the host busy).
  for query in count stats-daily stats-brand history; do
    "$load" raw-query --db "$data/eu.sqlite" --terminal "$terminal" --query "$query" --from-ms "$from_ms" --to-ms "$to_ms" \
      --pages "$PAGES" --connections "$CONNECTIONS" --warmup-requests "$WARMUP" --duration 2 >"$work/raw-$query-$rows.json"
  done
  get() {
    "$load" get --url "$host" --token "$token" --connections "$CONNECTIONS" --warmup-requests "$WARMUP" --duration "$DURATION" \
      --pages "$PAGES" --label "$1" --path "$2" ${3:+--expect-contains "$3"} >"$work/host-$1-$rows.json"
  }
  get count "/terminal/v1/transactions/count" "\"count\":$rows"
  get stats-daily "$stats=daily" '"statistics"'
  get stats-brand "$stats=brand" '"statistics"'
  get history "/terminal/v1/transactions?page={page}&itemsPerPage=20" "\"total\":$rows"
  if [ "$rows" = "$largest" ]; then
    "$load" explain --db "$data/eu.sqlite" --terminal "$terminal" --from-ms "$from_ms" --to-ms "$to_ms" >"$work/plan.txt"
    # One device selling on this terminal: every cleared sale's answer asks whether it is the latest sale.
    stop_host
    start_host "$data"
    "$load" sale --state "$work/state-$rows.json" --url "$host" --expect-contains '"transactionStatus":"CLEARED"' \
      --warmup 0 --duration 3 --label sale >"$work/sale-$rows.json"
    # Then the whole sandbox is reset with that history in it (every transaction and its totals go).
    python3 - "$host/_sandbox/reset" >"$work/reset-seconds" <<'PY'
import sys, time, urllib.request
started = time.monotonic()
urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=b"{}", headers={"Content-Type": "application/json"}, method="POST"), timeout=600).read()
print(f"{time.monotonic() - started:.2f}")
PY
  fi
  stop_host
  rm -rf "$data"
done

python3 - "$work" "$largest" "$CONNECTIONS" "$PAGES" "$DURATION" "$(nproc)" "$load_before" $SIZES <<'PY'
import json, sys
work, largest, connections, pages, duration, cores, load_before = sys.argv[1:8]
largest, sizes = int(largest), [int(s) for s in sys.argv[8:]]
def load(name):
    return json.load(open(f"{work}/{name}.json"))
def label(n):
    return f"{n // 1_000_000}m" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else str(n)
endpoints = [("history", "history page"), ("count", "count"), ("stats-daily", "statistics daily"), ("stats-brand", "statistics brand")]
print(f"{'endpoint':<17} {'rows':>5} {'samples':>8} {'req/s':>8} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9} {'raw p50':>9} {'raw p99':>9} {'failures':>8}")
for key, title in endpoints:
    for n in sizes:
        h, r = load(f"host-{key}-{n}"), load(f"raw-{key}-{n}")
        print(f"{title:<17} {label(n):>5} {h['requests']:>8} {h['rps']:>8.1f} {h['p50_ms']:>9.2f} {h['p99_ms']:>9.2f} {h['max_ms']:>9.2f} "
              f"{r['p50_ms']:>9.2f} {r['p99_ms']:>9.2f} {h['failures']:>8}")
        for sample in h["failure_samples"]:
            print(f"  failure: {sample}")
sale = load(f"sale-{largest}")
print(f"sale on the {label(largest)}-row terminal: {sale['requests']} sales in {sale['seconds']:.0f} s, p50 {sale['p50_ms']:.1f} ms, "
      f"p99 {sale['p99_ms']:.1f} ms, failures {sale['failures']}")
for n in sizes:
    seed = load(f"seed-{n}")
    print(f"(seeded {label(n)} rows in {seed['seconds']:.1f} s)", end=" ")
print(f"\n({connections} connections, history pages {pages} of 20, {duration} s per endpoint and size after one request per "
      f"connection, statistics over the 90 seeded days; raw = the same SQL in-process, without the host's per-row "
      f"detail; {cores} cores, load average before: {load_before})")
print(f"query plans at {label(largest)} rows:")
print(open(f"{work}/plan.txt").read().rstrip())
for n in sizes:
    suffix = label(n)
    for key, name in [("history", "history"), ("count", "count"), ("stats-daily", "stats_daily"), ("stats-brand", "stats_brand")]:
        print(f"{name}_p99_ms_{suffix}: {load(f'host-{key}-{n}')['p99_ms']:.2f}")
big = label(largest)
for key, name in [("history", "history"), ("count", "count"), ("stats-daily", "stats_daily"), ("stats-brand", "stats_brand")]:
    host, raw = load(f"host-{key}-{largest}"), load(f"raw-{key}-{largest}")
    print(f"{name}_raw_sqlite_p99_ms_{big}: {raw['p99_ms']:.2f}")
    print(f"{name}_p99_vs_raw_sqlite_{big}: {host['p99_ms'] / raw['p99_ms']:.2f}" if raw['p99_ms'] else f"{name}_p99_vs_raw_sqlite_{big}: n/a")
print(f"sale_p99_ms_on_{big}_terminal: {sale['p99_ms']:.2f}")
print(f"reset_seconds_{big}: {open(f'{work}/reset-seconds').read().strip()}")
print(f"history_failures: {sum(load(f'host-{k}-{n}')['failures'] for k, _ in endpoints for n in sizes)}")
PY
