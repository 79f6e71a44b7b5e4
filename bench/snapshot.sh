#!/usr/bin/env bash
# Snapshots: saving and restoring a host's state, against a raw `sqlite3 .backup` / `.restore` of
# the same database file in the same run, at the fixtures' size and with 1M transactions on the
# host; and `sandbox snapshot save|restore` of a whole `sandbox up` (every host, the wallet, the
# inbox) at the fixtures' size, against `.backup` of each of its databases one after another.
#
# Each figure is the median of REPS runs, timed around the control call (curl's time_total) or the
# command. Both sides copy pages through SQLite's backup API; a host's restore also checks the
# schema and the region, waits for the writes queued before it, syncs, and writes its fixtures over
# the copy. Ends with `name: value` lines. Timings are for reading, never asserted.
#
#   bench/snapshot.sh                     # fixtures and 1M rows, 5 runs each
#   ROWS=100000 REPS=9 bench/snapshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

ROWS=${ROWS:-1000000}
REPS=${REPS:-5}
bench_workspace

if [ "${SKIP_BUILD:-}" != 1 ]; then
  for product in sandbox-host sandbox bench-load; do swift build -c release --product "$product" >/dev/null; done
fi
host_binary=.build/release/sandbox-host
sandbox_binary=.build/release/sandbox
load=.build/release/bench-load

bench_terminal_data "$work"
terminal=EU-BENCH-T001
backoffice_key=$(python3 -c 'import json; print(json.load(open("sandbox-data/merchants.json"))["regions"]["EU"]["backOfficeKey"])')
port=$(free_port)
host="http://127.0.0.1:$port"
host_pid=
start_host() {
  "$host_binary" --env EU --port "$port" --data-dir "$1" --access-log off --sandbox-data "$work/sandbox-data" >/dev/null &
  host_pid=$!
  pids+=("$host_pid")
  wait_for "$host/v1/environment"
}
stop_host() { kill "$host_pid"; wait "$host_pid" 2>/dev/null || true; }

# Seconds of one command, to the microsecond.
seconds_of() { local start end; start=$(date +%s%N); "$@" >/dev/null; end=$(date +%s%N); awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", (b - a) / 1e9 }'; }
# A control call's time_total; fails unless the status is 2xx.
call_seconds() {
  curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' -X POST -H 'Content-Type: application/json' --data "$2" "$1" |
    awk '$1 < 200 || $1 > 299 { print "status " $1 > "/dev/stderr"; exit 1 } { print $2 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# One host at a size: save, restore, and the raw reference, REPS times each.
measure_host() {
  local label=$1 data=$2
  for _ in $(seq "$REPS"); do call_seconds "$host/_sandbox/snapshots" '{"name": "bench"}'; done | median >"$work/save-$label"
  for _ in $(seq "$REPS"); do call_seconds "$host/_sandbox/snapshots/bench/restore" ''; done | median >"$work/restore-$label"
  for _ in $(seq "$REPS"); do
    rm -f "$work/ref.sqlite"
    seconds_of sqlite3 "$data/eu.sqlite" ".backup '$work/ref.sqlite'"
  done | median >"$work/backup-$label"
  for _ in $(seq "$REPS"); do
    cp "$data/eu.sqlite" "$work/target.sqlite"
    seconds_of sqlite3 "$work/target.sqlite" ".restore '$work/ref.sqlite'"
  done | median >"$work/raw-restore-$label"
  du -b "$data/snapshots/bench/eu.sqlite" | cut -f1 >"$work/bytes-$label"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# The fixtures' size: a fresh host.
start_host "$work/fixtures"
measure_host fixtures "$work/fixtures"
stop_host

# ROWS transactions of one terminal, seeded straight into the database as bench/history.sh does.
data="$work/rows"
start_host "$data"
"$load" setup --url "$host" --region EU --backoffice-key "$backoffice_key" --terminals "$terminal" --out "$work/state.json" 2>/dev/null
stop_host
"$load" seed --db "$data/eu.sqlite" --terminal "$terminal" --merchant EU-BENCH01 --rows "$ROWS" \
  --now-ms "$(python3 -c 'import time; print(int(time.time() * 1000))')" --days 90 >/dev/null
start_host "$data"
measure_host rows "$data"
stop_host

# A whole sandbox at the fixtures' size, through the command a tester runs.
base=$(free_port_block 15)
"$sandbox_binary" up --base-port "$base" --data-dir "$work/up" --access-log off --sandbox-data "$work/sandbox-data" >/dev/null &
pids+=($!)
for _ in $(seq 400); do [ -s "$work/up/endpoints.json" ] && break; sleep 0.05; done
for _ in $(seq "$REPS"); do seconds_of "$sandbox_binary" snapshot save bench --data-dir "$work/up"; done | median >"$work/up-save"
for _ in $(seq "$REPS"); do seconds_of "$sandbox_binary" snapshot restore bench --data-dir "$work/up"; done | median >"$work/up-restore"
for _ in $(seq "$REPS"); do
  start=$(date +%s%N)
  for db in "$work/up/"*.sqlite; do rm -f "$work/ref-all.sqlite"; sqlite3 "$db" ".backup '$work/ref-all.sqlite'"; done
  awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.6f\n", (b - a) / 1e9 }'
done | median >"$work/up-backup"
services=$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(len(e["environments"]) + 2)' "$work/up/endpoints.json")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work" "$ROWS" "$REPS" "$services" "$load_before" "$load_after" "$(nproc)" <<'PY'
import sys
work, rows, reps, services, before, after, cores = sys.argv[1:8]
rows = int(rows)
def ms(name): return float(open(f"{work}/{name}").read()) * 1000
label = f"{rows // 1_000_000}m" if rows % 1_000_000 == 0 else f"{rows // 1000}k"
print(f"{'':<26} {'host ms':>9} {'raw ms':>9} {'ratio':>7}")
for size, title in [("fixtures", "fixtures"), ("rows", f"{label} transactions")]:
    mb = int(open(f"{work}/bytes-{size}").read()) / 1e6
    print(f"save, {title:<20} {ms('save-' + size):>9.1f} {ms('backup-' + size):>9.1f} {ms('save-' + size) / ms('backup-' + size):>7.2f}   ({mb:.1f} MB)")
    print(f"restore, {title:<17} {ms('restore-' + size):>9.1f} {ms('raw-restore-' + size):>9.1f} {ms('restore-' + size) / ms('raw-restore-' + size):>7.2f}")
print(f"sandbox snapshot save    {ms('up-save'):>9.1f} {ms('up-backup'):>9.1f} {ms('up-save') / ms('up-backup'):>7.2f}   ({services} services; raw: .backup of each database in turn)")
print(f"sandbox snapshot restore {ms('up-restore'):>9.1f}")
print(f"(median of {reps} runs; host: the control call's time, raw: sqlite3 .backup / .restore of the same file; "
      f"{cores} cores, load average before {before}, after {after})")
for size, suffix in [("fixtures", "fixtures"), ("rows", label)]:
    print(f"snapshot_save_ms_{suffix}: {ms('save-' + size):.1f}")
    print(f"sqlite_backup_ms_{suffix}: {ms('backup-' + size):.1f}")
    print(f"snapshot_save_vs_sqlite_backup_{suffix}: {ms('save-' + size) / ms('backup-' + size):.2f}")
    print(f"snapshot_restore_ms_{suffix}: {ms('restore-' + size):.1f}")
    print(f"sqlite_restore_ms_{suffix}: {ms('raw-restore-' + size):.1f}")
    print(f"snapshot_restore_vs_sqlite_restore_{suffix}: {ms('restore-' + size) / ms('raw-restore-' + size):.2f}")
print(f"sandbox_snapshot_save_ms: {ms('up-save'):.1f}")
print(f"sandbox_snapshot_restore_ms: {ms('up-restore'):.1f}")
print(f"sandbox_sqlite_backup_ms: {ms('up-backup'):.1f}")
PY
