#!/usr/bin/env bash
# Card sales per second through the terminal API, with durable commits (each answer only after an
# fdatasync of the WAL that holds it: the host's Store syncs after each shared commit, SQLite runs
# synchronous=NORMAL), against references measured in the same invocation on this machine:
#   - nginx answering the same POSTs (same generator, connections and request bytes) with the
#     very bytes of a sale answer, two workers, one per core (the host has a thread per
#     connection, which mostly waits for commits);
#   - raw SQLite: one committed INSERT of an equivalent transaction row per transaction, WAL and
#     synchronous=FULL (the sync inside COMMIT), same schema (copied from the host's database),
#     same number of threads; and the same rows through the host's own Store alone (its group
#     commit: rows that arrive during a commit share the next one, the WAL synced while the next
#     commit runs, each caller still waiting for its own durable commit): the storage's bound of a
#     durable sale, with no HTTP, JSON or sealed payload.
#   - with PostgreSQL installed (POSTGRES=0 skips it): the same sales with the host's state in a
#     throw-away PostgreSQL server (synchronous_commit on: each answer after PostgreSQL's durable
#     commit), through one replica and through two replicas of the host on the one database, against
#     pgbench running the same sale transaction (SERIALIZABLE: the terminal's in-flight check, the
#     spent card read, the transaction row with its rollup trigger) with the same connections;
#     retries per 1,000 sales are PostgreSQL's rolled-back transactions (serialization failures,
#     run again) per 1,000 committed sales.
# Each load connection is a device registered over HTTP on its own terminal (a terminal takes one
# transaction at a time) that seals a fresh card payload for every sale of 10.00 (approved).
# Ends with `name: value` lines. Timings are for reading, never asserted.
#
#   bench/sale.sh                                  # 32 connections, 2 rounds of 10 s per side after 2 s warm-up (~2 min)
#   CONNECTIONS=64 DURATION=20 bench/sale.sh
#   TERMINALS_PER_MERCHANT=1 bench/sale.sh         # one merchant per terminal instead of one chain of 32
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-2}
CONNECTIONS=${CONNECTIONS:-32}
TERMINALS_PER_MERCHANT=${TERMINALS_PER_MERCHANT:-$CONNECTIONS}
SCRATCH=${SCRATCH:-.build}
bench_workspace


if [ "${SKIP_BUILD:-}" != 1 ]; then
  swift build -c release --scratch-path "$SCRATCH" --product sandbox-host >/dev/null
  swift build -c release --scratch-path "$SCRATCH" --product bench-load >/dev/null
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
host_binary="$SCRATCH/release/sandbox-host"
load="$SCRATCH/release/bench-load"

# A copy of sandbox-data with the bench merchant(s) as a local overlay (your own local/*.json stay out).
cp -R sandbox-data "$work/sandbox-data"
rm -f "$work/sandbox-data/local/"*.json
python3 - "$work/sandbox-data/local/bench.json" "$CONNECTIONS" "$TERMINALS_PER_MERCHANT" <<'PY'
import json, sys
path, count, per = sys.argv[1], int(sys.argv[2]), max(1, int(sys.argv[3]))
def terminal(i):
    return {"id": f"EU-BENCH-T{i:03d}", "profileId": "prf_bench", "refundAvailable": True, "reversalAvailable": True,
            "limitAmount": 100000, "permittedCountries": None,
            "tips": {"enabled": False, "rates": [], "maxAmount": None, "maxPercentage": None},
            "reference": {"enabled": False, "pattern": None}, "autoLogin": True,
            "registerOptions": ["portal", "registrationCode"], "apm": {"enabled": False, "brands": []}}
merchants = []
for m, first in enumerate(range(1, count + 1, per), start=1):
    merchants.append({"id": f"EU-BENCH{m:02d}", "name": f"Bench Shop {m}", "address1": "Benchstraat 1",
                      "address2": "1000 Brussel", "apiKey": f"sk_test_eu_bench_{m:012d}",
                      "terminals": [terminal(i) for i in range(first, min(first + per, count + 1))]})
json.dump({"regions": {"EU": {"merchants": merchants}}}, open(path, "w"), indent=1)
PY
terminals=$(python3 -c "print(','.join(f'EU-BENCH-T{i:03d}' for i in range(1, $CONNECTIONS + 1)))")
backoffice_key=$(python3 -c 'import json; print(json.load(open("sandbox-data/merchants.json"))["regions"]["EU"]["backOfficeKey"])')

host_port=$(free_port)
"$host_binary" --env EU --port "$host_port" --data-dir "$work/data" --access-log off \
  --sandbox-data "$work/sandbox-data" >/dev/null &
host_pid=$!
pids+=($host_pid)
host="http://127.0.0.1:$host_port"
wait_for "$host/v1/environment"

# One device per terminal, registered by portal activation, logged in, reader key fetched.
"$load" setup --url "$host" --region EU --backoffice-key "$backoffice_key" --terminals "$terminals" --out "$work/state.json" 2>/dev/null
cleared='"transactionStatus":"CLEARED"'
# Warm the host up and keep one answer: nginx will serve those bytes.
"$load" sale --state "$work/state.json" --url "$host" --expect-contains "$cleared" --warmup 0 --duration "$WARMUP" \
  --save-body "$work/answer.json" --label host-warmup >"$work/host-warmup.json"
[ -s "$work/answer.json" ] || { echo "the host answered no cleared sale:" >&2; cat "$work/host-warmup.json" >&2; exit 1; }

nginx_port=$(free_port)
python3 - "$work" "$nginx_port" <<'PY'
import sys
work, port = sys.argv[1], sys.argv[2]
body = open(f"{work}/answer.json").read()
assert "$" not in body, "nginx would read $ as a variable"
quoted = body.replace("\\", "\\\\").replace("'", "\\'")
open(f"{work}/nginx.conf", "w").write(f"""worker_processes 2;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  default_type application/json;
  keepalive_requests 1000000;
  access_log off;
  server {{ listen 127.0.0.1:{port}; location / {{ return 200 '{quoted}'; }} }}
}}
""")
PY
nginx -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
pids+=($!)
nginx="http://127.0.0.1:$nginx_port"
wait_for "$nginx/"

# nginx gets the same generator: same sealed payload per request, same headers, same path, and the
# same check of the answer (it serves the host's cleared answer, so the check passes).
# Rounds alternate the order, so drift on a shared machine hits every side alike; figures merge the rounds.
run_nginx() {
  "$load" sale --state "$work/state.json" --url "$nginx" --expect-status 200 --expect-contains "$cleared" --warmup "$WARMUP" --duration "$DURATION" \
    --label nginx --latencies "$work/nginx-$1.lat" >"$work/nginx-$1.json"
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run_host() {
  local before
  before=$(cpu_ticks "$host_pid")
  [ "$1" != 1 ] || bench_profile "$host_pid" 4 sale
  "$load" sale --state "$work/state.json" --url "$host" --expect-contains "$cleared" --warmup "$WARMUP" --duration "$DURATION" \
    --label host --latencies "$work/host-$1.lat" >"$work/host-$1.json"
  echo $(($(cpu_ticks "$host_pid") - before)) >"$work/host-$1.cpu"
}
run_raw() { # $1 round, $2 raw (a commit per row) or store (the rows through the host's Store alone)
  "$load" raw-sqlite --schema-from "$work/data/eu.sqlite" --db "$work/raw/$2-$1.sqlite" --terminals "$terminals" \
    --merchant EU-BENCH01 --threads "$CONNECTIONS" --warmup "$WARMUP" --duration "$DURATION" \
    --writer "$([ "$2" = store ] && echo store || echo row)" --latencies "$work/$2-$1.lat" >"$work/$2-$1.json"
}
for round in $(seq "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then run_nginx "$round"; run_host "$round"; run_raw "$round" raw; run_raw "$round" store
  else run_raw "$round" store; run_raw "$round" raw; run_host "$round"; run_nginx "$round"; fi
done


# PostgreSQL: one replica, two replicas, and pgbench with the same transaction, in this invocation.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin /opt/homebrew/opt/postgresql@15/bin 2>/dev/null | sort -V | tail -1 || true)
if [ "${POSTGRES:-1}" != 0 ] && [ -n "$pg_bin" ] && [ -x "$pg_bin/pgbench" ]; then
  pg="$work/pg"
  mkdir -p "$pg"
  as_pg=()
  if [ "$(id -u)" = 0 ]; then chown postgres "$pg"; as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups --); fi
  "${as_pg[@]}" "$pg_bin/initdb" -D "$pg/data" -U postgres -A trust -E UTF8 --locale=C >/dev/null
  "${as_pg[@]}" "$pg_bin/postgres" -D "$pg/data" -k "$pg" -c listen_addresses= -c max_connections=300 -c shared_buffers=256MB \
    >"$pg/server.log" 2>&1 &
  pids+=($!)
  until "$pg_bin/pg_isready" -h "$pg" -q; do sleep 0.1; done
  "$pg_bin/psql" -h "$pg" -U postgres -qc "CREATE DATABASE sandbox"
  dburl="postgresql:///sandbox?host=$pg&user=postgres"
  pg_ports=($(free_port) $(free_port))
  for i in 0 1; do
    "$host_binary" --env EU --port "${pg_ports[$i]}" --data-dir "$work/pg-data-$i" --access-log off --database "$dburl" \
      --sandbox-data "$work/sandbox-data" >"$work/pg-host-$i.log" 2>&1 &
    pg_pids[$i]=$!
    pids+=($!)
    wait_for "http://127.0.0.1:${pg_ports[$i]}/v1/environment"
  done
  pg_a="http://127.0.0.1:${pg_ports[0]}" pg_b="http://127.0.0.1:${pg_ports[1]}"
  "$load" setup --url "$pg_a" --region EU --backoffice-key "$backoffice_key" --terminals "$terminals" --out "$work/pg-state.json" 2>/dev/null
  "$load" sale --state "$work/pg-state.json" --urls "$pg_a,$pg_b" --expect-contains "$cleared" --warmup 0 --duration "$WARMUP" \
    --label pg-warmup >/dev/null
  rollbacks() { "$pg_bin/psql" -h "$pg" -U postgres -d sandbox -Atc "SELECT xact_rollback FROM pg_stat_database WHERE datname = 'sandbox'"; }
  run_pg() { # $1 round, $2 pg1 or pg2
    local urls="$pg_a" before
    [ "$2" = pg2 ] && urls="$pg_a,$pg_b"
    before=$(rollbacks)
    "$load" sale --state "$work/pg-state.json" --urls "$urls" --expect-contains "$cleared" --warmup "$WARMUP" --duration "$DURATION" \
      --label "$2" --latencies "$work/$2-$1.lat" >"$work/$2-$1.json"
    echo $(($(rollbacks) - before)) >"$work/$2-$1.rollbacks"
  }
  # The host's sale transaction, as SQL: the terminal's in-flight check, the spent card read, the
  # transaction row (its rollup trigger fires) — each client on its own bench terminal.
  cat >"$work/pgbench-sale.sql" <<'SQL'
\set terminal :client_id + 1
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT 1 FROM eu.transactions WHERE terminal_id = 'EU-BENCH-T' || lpad(:terminal::text, 3, '0') AND pending_until IS NOT NULL LIMIT 1;
INSERT INTO eu.card_reads (read_id, read_at, used_at) VALUES (gen_random_uuid()::text, (extract(epoch FROM now()) * 1000)::bigint, (extract(epoch FROM now()) * 1000)::bigint) ON CONFLICT (read_id) DO NOTHING;
INSERT INTO eu.transactions (id, terminal_id, merchant_id, type, status, payment_method, amount, currency, created_at, updated_at,
    card_brand, masked_pan, pan_hash, card_expiry, card_country, aid, application_label, cvm, auth_id, rrn, cid, cryptogram,
    response_code, response_message)
VALUES (gen_random_uuid()::text, 'EU-BENCH-T' || lpad(:terminal::text, 3, '0'), 'EU-BENCH01', 'AUTH', 'CLEARED', 'CARD', 1000, 'EUR',
    (extract(epoch FROM now()) * 1000)::bigint, (extract(epoch FROM now()) * 1000)::bigint, 'VISA', '476173******0011',
    md5(random()::text), '2812', 'BE', 'A0000000031010', 'VISA DEBIT', 'none', '123456', '123456789012', '40', 'CA2EA910C25FF1D4',
    '00', 'Approved');
COMMIT;
SQL
  run_pgbench() { # $1 round
    rm -f "$work"/pgb-*.log*
    (cd "$work" && "$pg_bin/pgbench" -h "$pg" -U postgres -n -c "$CONNECTIONS" -j 2 -T "$DURATION" --max-tries 30 \
      -f "$work/pgbench-sale.sql" --log --log-prefix=pgb sandbox >"$work/pgbench-$1.out" 2>&1) \
      || { echo "pgbench failed:" >&2; tail -20 "$work/pgbench-$1.out" >&2; exit 1; }
    cat "$work"/pgb.* 2>/dev/null | awk '{print $3 * 1000}' >"$work/pgbench-$1.lat"
    rm -f "$work"/pgb.*
  }
  for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then run_pgbench "$round"; run_pg "$round" pg1; run_pg "$round" pg2
    else run_pg "$round" pg2; run_pg "$round" pg1; run_pgbench "$round"; fi
  done
  echo "$ROUNDS" >"$work/pg.rounds"
fi

filesystem=$(findmnt -n -o FSTYPE -T "$work" 2>/dev/null || stat -f -c %T "$work")
python3 - "$work" "$filesystem" "$(nproc)" "$TERMINALS_PER_MERCHANT" "$ROUNDS" "$(getconf CLK_TCK)" "$load_before" <<'PY'
import json, os, sys
work, filesystem, cores, per, rounds, tick, load_before = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
def merged(name):
    parts = [json.load(open(f"{work}/{name}-{r}.json")) for r in range(1, rounds + 1)]
    latencies = sorted(int(line) for r in range(1, rounds + 1) for line in open(f"{work}/{name}-{r}.lat") if line.strip())
    def pct(p):
        if not latencies: return 0.0
        return latencies[min(len(latencies) - 1, max(0, -(-len(latencies) * p // 100) - 1))] / 1e6
    seconds = sum(p["seconds"] for p in parts)
    samples = [s for p in parts for s in p["failure_samples"]]
    return {"rps": len(latencies) / seconds, "p50_ms": pct(50), "p90_ms": pct(90), "p99_ms": pct(99), "max_ms": pct(100),
            "failures": sum(p["failures"] for p in parts), "failure_samples": list(dict.fromkeys(samples))[:5],
            "connections": parts[0]["connections"], "seconds": seconds, "rounds": [round(p["rps"]) for p in parts]}
runs = {name: merged(name) for name in ("nginx", "host", "raw", "store")}
names = {"nginx": "nginx (same bytes)", "host": "sandbox-host sale", "raw": "raw SQLite insert", "store": "rows via Store alone"}
print(f"{'run':<20} {'req/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} {'failures':>9}  req/s per round")
for key in ("nginx", "host", "raw", "store"):
    r = runs[key]
    print(f"{names[key]:<20} {r['rps']:>9.0f} {r['p50_ms']:>8.2f} {r['p90_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['max_ms']:>8.2f} {r['failures']:>9}  "
          + ", ".join(map(str, r["rounds"])))
for key in ("nginx", "host", "raw", "store"):
    for sample in runs[key]["failure_samples"]:
        print(f"  {key} failure: {sample}")
host, nginx, raw = runs["host"], runs["nginx"], runs["raw"]
request = os.path.getsize(f"{work}/answer.json.request")
answer = os.path.getsize(f"{work}/answer.json")
print(f"({host['connections']} connections, {per} terminals per merchant, {rounds} rounds of {host['seconds'] / rounds:.0f} s per side, request body {request} B, "
      f"answer {answer} B, database on {filesystem}, {cores} cores, load average before: {load_before})")
print(f"sale_rps: {host['rps']:.0f}")
print(f"nginx_rps: {nginx['rps']:.0f}")
print(f"sale_vs_nginx: {host['rps'] / nginx['rps']:.3f}")
print(f"sale_p50_ms: {host['p50_ms']:.2f}")
print(f"sale_p99_ms: {host['p99_ms']:.2f}")
print(f"nginx_p99_ms: {nginx['p99_ms']:.2f}")
print(f"raw_sqlite_rps: {raw['rps']:.0f}")
print(f"raw_sqlite_p99_ms: {raw['p99_ms']:.2f}")
print(f"sale_vs_raw_sqlite: {host['rps'] / raw['rps']:.3f}")
print(f"store_only_rps: {runs['store']['rps']:.0f}")
print(f"store_only_p99_ms: {runs['store']['p99_ms']:.2f}")
print(f"sale_vs_store_only: {host['rps'] / runs['store']['rps']:.3f}")
# CPU the host spent per sale it served (warm-up included): steadier than rates on a busy machine.
served = sum(json.load(open(f"{work}/host-{r}.json"))["requests"] + json.load(open(f"{work}/host-{r}.json"))["warmup_requests"]
             for r in range(1, rounds + 1))
cpu_seconds = sum(int(open(f"{work}/host-{r}.cpu").read()) for r in range(1, rounds + 1)) / tick
print(f"sale_host_cpu_ms_per_sale: {cpu_seconds * 1000 / served:.2f}")
print(f"sale_failures: {host['failures']}")

if os.path.exists(f"{work}/pg.rounds"):
    import re
    pg = {name: merged(name) for name in ("pg1", "pg2")}
    def lat_stats(name):
        latencies = sorted(int(float(line)) for r in range(1, rounds + 1) for line in open(f"{work}/{name}-{r}.lat") if line.strip())
        def pct(p):
            if not latencies: return 0.0
            return latencies[min(len(latencies) - 1, max(0, -(-len(latencies) * p // 100) - 1))] / 1e6
        return latencies, pct
    bench_out = [open(f"{work}/pgbench-{r}.out").read() for r in range(1, rounds + 1)]
    tps = [float(m.group(1)) for text in bench_out for m in [re.search(r"tps = ([0-9.]+)", text)] if m]
    retries = sum(int(m.group(1)) for text in bench_out for m in [re.search(r"total number of retries: ([0-9]+)", text)] if m)
    done = sum(int(m.group(1)) for text in bench_out for m in [re.search(r"number of transactions actually processed: ([0-9]+)", text)] if m)
    _, bench_pct = lat_stats("pgbench")
    pgbench_rps = sum(tps) / len(tps) if tps else 0.0
    def rollbacks(name):
        return sum(int(open(f"{work}/{name}-{r}.rollbacks").read()) for r in range(1, rounds + 1))
    print()
    print(f"{'PostgreSQL run':<20} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'retries/1000':>13}")
    for key, label in (("pg1", "host, 1 replica"), ("pg2", "host, 2 replicas")):
        r = pg[key]
        sales = r["rps"] * r["seconds"]
        print(f"{label:<20} {r['rps']:>9.0f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {1000 * rollbacks(key) / max(1, sales):>13.1f}")
    print(f"{'pgbench, same SQL':<20} {pgbench_rps:>9.0f} {bench_pct(50):>8.2f} {bench_pct(99):>8.2f} {1000 * retries / max(1, done):>13.1f}")
    for key in ("pg1", "pg2"):
        for sample in pg[key]["failure_samples"]:
            print(f"  {key} failure: {sample}")
    print(f"pg_sale_rps: {pg['pg1']['rps']:.0f}")
    print(f"pg_sale_p50_ms: {pg['pg1']['p50_ms']:.2f}")
    print(f"pg_sale_p99_ms: {pg['pg1']['p99_ms']:.2f}")
    print(f"pg_sale_retries_per_1000: {1000 * rollbacks('pg1') / max(1, pg['pg1']['rps'] * pg['pg1']['seconds']):.1f}")
    print(f"pg_two_replicas_rps: {pg['pg2']['rps']:.0f}")
    print(f"pg_two_replicas_p50_ms: {pg['pg2']['p50_ms']:.2f}")
    print(f"pg_two_replicas_p99_ms: {pg['pg2']['p99_ms']:.2f}")
    print(f"pg_two_replicas_retries_per_1000: {1000 * rollbacks('pg2') / max(1, pg['pg2']['rps'] * pg['pg2']['seconds']):.1f}")
    print(f"pgbench_sale_rps: {pgbench_rps:.0f}")
    print(f"pgbench_sale_p50_ms: {bench_pct(50):.2f}")
    print(f"pgbench_sale_p99_ms: {bench_pct(99):.2f}")
    print(f"pgbench_retries_per_1000: {1000 * retries / max(1, done):.1f}")
    print(f"pg_sale_vs_pgbench: {pg['pg1']['rps'] / max(1, pgbench_rps):.3f}")
    print(f"pg_two_replicas_vs_pgbench: {pg['pg2']['rps'] / max(1, pgbench_rps):.3f}")
    print(f"pg_sale_failures: {pg['pg1']['failures'] + pg['pg2']['failures']}")
PY
