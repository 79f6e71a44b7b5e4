#!/usr/bin/env bash
# QR wallet and BLIK payments per second, end to end on one `sandbox up` (release build): 32 devices
# pay at once, each on its own bench terminal. A QR payment: the device makes the order (the host
# makes it at the wallet simulator, signed), the customer pays it through the wallet's customer API
# (the wallet notifies the host, signed, and answers once the host took it), and the device's next
# poll reads CLEARED. A BLIK payment (mBank host, PLN): the customer's bank app issues a code
# through its API, the device pays with it (the host checks it with the wallet at once), the
# customer approves the confirmation request through the API, the device's poll reads CLEARED. Both
# against card sales per second measured in the same run, on the same process and devices
# (bench-load sale: sealed card payloads, durable commits). Rounds rotate the order, so drift on a
# shared machine hits all alike.
# Figures: qr_payments_per_s and blik_payments_per_s; qr_vs_card_sales and blik_vs_card_sales, their
# ratios to card sales (aim 0.25 or more); qr_approval_to_final_p99_ms and
# blik_approval_to_final_p99_ms, from the wallet's approval to the host's final status (aim under
# 20 ms): from the moment the wallet wrote the customer's approval with its notification to the
# moment the host's acknowledgement came back, which the host sends once its final status is
# durable (both ends from the wallet's outbox, real time, in whole milliseconds); qr_pay_call_… and
# blik_pay_call_…, the customer's whole Pay call as the load generator saw it (the wallet's own
# writes and queues included); and the CPU the sandbox process spends per payment and per card
# sale, the delivery of their webhooks included (each run waits for its webhooks and notifications
# before the next starts). Then the same latencies once more with the same devices at a steady pace
# of half the rate each kind reached (qr_steady_… and blik_steady_…), since a load that goes back
# to back measures the queue it makes itself. Ends with `name: value` lines.
# Timings are for reading, never asserted.
#
#   bench/apm.sh                         # 32 devices, 2 rounds of 10 s per kind after 2 s warm-up, then the steady pace (~2.5 min)
#   CONNECTIONS=8 DURATION=5 bench/apm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-2}
CONNECTIONS=${CONNECTIONS:-32}
SCRATCH=${SCRATCH:-.build}
bench_workspace

if [ "${SKIP_BUILD:-}" != 1 ]; then
  swift build -c release --scratch-path "$SCRATCH" --product sandbox >/dev/null
  swift build -c release --scratch-path "$SCRATCH" --product bench-load >/dev/null
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
sandbox_binary="$SCRATCH/release/sandbox"
load="$SCRATCH/release/bench-load"

# sandbox-data with two bench merchants of CONNECTIONS terminals as a local overlay: EU with APMs
# on (ALIPAY), mBank with BLIK on; and one bank customer per device, with money for the whole run.
cp -R sandbox-data "$work/sandbox-data"
rm -f "$work/sandbox-data/local/"*.json
python3 - "$work/sandbox-data" "$CONNECTIONS" <<'PY'
import json, sys
data, count = sys.argv[1], int(sys.argv[2])
def terminal(region, i, apm, blik):
    return {"id": f"{region}-BENCH-T{i:03d}", "profileId": "prf_bench", "refundAvailable": True, "reversalAvailable": True,
            "limitAmount": 100000, "permittedCountries": None,
            "tips": {"enabled": False, "rates": [], "maxAmount": None, "maxPercentage": None},
            "reference": {"enabled": False, "pattern": None}, "autoLogin": True,
            "registerOptions": ["portal", "registrationCode"], "apm": apm, "blikEnabled": blik}
alipay = lambda i: {"enabled": True, "brands": [{"brandName": "ALIPAY", "brandFullName": "Alipay+", "customId": f"alipay-bench-{i}", "isActive": True}]}
eu = {"id": "EU-BENCH01", "name": "Bench Shop", "address1": "Benchstraat 1", "address2": "1000 Brussel",
      "apiKey": "sk_test_eu_bench_000000000001", "terminals": [terminal("EU", i, alipay(i), None) for i in range(1, count + 1)]}
mbank = {"id": "MBANK-BENCH01", "name": "Sklep Bench", "address1": "ul. Benchowa 1", "address2": "00-001 Warszawa",
         "apiKey": "sk_test_mbank_bench_00000000001",
         "terminals": [terminal("MBANK", i, {"enabled": False, "brands": []}, True) for i in range(1, count + 1)]}
json.dump({"regions": {"EU": {"merchants": [eu]}, "MBANK": {"merchants": [mbank]}}}, open(f"{data}/local/bench.json", "w"), indent=1)
wallet = json.load(open(f"{data}/wallet.json"))
wallet["blik"]["customers"] += [{"customerId": f"bench{i:03d}", "name": f"Bench Customer {i}", "bank": "mBank", "currency": "PLN",
                                 "balance": 1_000_000_000, "perPaymentLimit": 100_000} for i in range(1, count + 1)]
json.dump(wallet, open(f"{data}/wallet.json", "w"), indent=1)
PY
terminals() { python3 -c "print(','.join(f'$1-BENCH-T{i:03d}' for i in range(1, $CONNECTIONS + 1)))"; }
customers=$(python3 -c "print(','.join(f'bench{i:03d}' for i in range(1, $CONNECTIONS + 1)))")
backoffice_key() { python3 -c 'import json,sys; print(json.load(open("sandbox-data/merchants.json"))["regions"][sys.argv[1]]["backOfficeKey"])' "$1"; }

base_port=$(free_port_block 32)
"$sandbox_binary" up --base-port "$base_port" --data-dir "$work/data" --access-log off --sandbox-data "$work/sandbox-data" >/dev/null &
sandbox_pid=$!
pids+=($sandbox_pid)
wait_for "http://127.0.0.1:$base_port/v1/environment"
endpoints="$work/data/endpoints.json"
for _ in $(seq 200); do [ -s "$endpoints" ] && break; sleep 0.05; done
environment() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["environments"][sys.argv[2]])' "$endpoints" "$1"; }
host=$(environment EU)
mbank=$(environment MBANK)
wallet=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wallet"])' "$endpoints")
wait_for "$wallet/"

"$load" setup --url "$host" --region EU --backoffice-key "$(backoffice_key EU)" --terminals "$(terminals EU)" --out "$work/state.json" 2>/dev/null
"$load" setup --url "$mbank" --region MBANK --backoffice-key "$(backoffice_key MBANK)" --terminals "$(terminals MBANK)" \
  --out "$work/mbank.json" 2>/dev/null

cpu_ticks() { awk '{print $14 + $15}' "/proc/$sandbox_pid/stat"; }
# Waits (up to 120 s) until the host has delivered every webhook and the wallet every notification:
# a card run leaves webhooks behind (sales are acknowledged faster than their webhooks go out), and
# they would otherwise be delivered during the next run, on its CPU.
settle() {
  python3 - "$work/data" <<'PY'
import glob, sqlite3, sys, time
def pending():
    total = 0
    for path in glob.glob(f"{sys.argv[1]}/*.sqlite"):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            for table in ("webhook_events", "outbox"):
                if table in tables:
                    total += db.execute(f"SELECT COUNT(*) FROM {table} WHERE state = 'pending'").fetchone()[0]
        finally:
            db.close()
    return total
deadline = time.time() + 120
while pending() and time.time() < deadline:
    time.sleep(0.1)
PY
}
now_ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }
# The approvals of one run from the wallet's outbox: each payment notification written after the
# warm-up and delivered, as answered_at - created_at (ns, one per line, as bench-load writes).
approvals() {
  python3 - "$work/data/wallet.sqlite" "$1" "$2" <<'PY'
import sqlite3, sys
path, since, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
rows = db.execute("SELECT answered_at - created_at FROM outbox WHERE type = 'order.paid' AND state = 'delivered' AND created_at >= ?",
                  (since,)).fetchall()
open(out, "w").write("".join(f"{ms * 1_000_000}\n" for (ms,) in rows))
PY
}
run_card() {
  local before
  before=$(cpu_ticks)
  "$load" sale --state "$work/state.json" --url "$host" --expect-contains '"transactionStatus":"CLEARED"' --warmup "$WARMUP" \
    --duration "$DURATION" --label card --latencies "$work/card-$1.lat" >"$work/card-$1.json"
  settle
  echo $(($(cpu_ticks) - before)) >"$work/card-$1.cpu"
}
run_qr() {
  local before since
  before=$(cpu_ticks)
  since=$(($(now_ms) + WARMUP * 1000))
  [ "$1" = 1 ] && bench_profile "$sandbox_pid" "$DURATION" apm-qr
  "$load" apm --state "$work/state.json" --url "$host" --wallet "$wallet" --warmup "$WARMUP" --duration "$DURATION" \
    --label qr --latencies "$work/qr-$1.lat" --pay-calls "$work/qr-pay-$1.lat" >"$work/qr-$1.json"
  settle
  approvals "$since" "$work/qr-approval-$1.lat"
  echo $(($(cpu_ticks) - before)) >"$work/qr-$1.cpu"
}
run_blik() {
  local before since
  before=$(cpu_ticks)
  since=$(($(now_ms) + WARMUP * 1000))
  [ "$1" = 1 ] && bench_profile "$sandbox_pid" "$DURATION" apm-blik
  "$load" blik --state "$work/mbank.json" --url "$mbank" --wallet "$wallet" --customers "$customers" --warmup "$WARMUP" \
    --duration "$DURATION" --label blik --latencies "$work/blik-$1.lat" --pay-calls "$work/blik-pay-$1.lat" >"$work/blik-$1.json"
  settle
  approvals "$since" "$work/blik-approval-$1.lat"
  echo $(($(cpu_ticks) - before)) >"$work/blik-$1.cpu"
}
for round in $(seq "$ROUNDS"); do
  case $((round % 3)) in
    1) run_qr "$round"; run_blik "$round"; run_card "$round" ;;
    2) run_card "$round"; run_qr "$round"; run_blik "$round" ;;
    0) run_blik "$round"; run_card "$round"; run_qr "$round" ;;
  esac
done

# Then the same 32 devices at a steady pace, half the payments a second each kind reached flat out:
# how long an approval takes to reach the host when the sandbox is busy but not overrun (a load
# that goes back to back measures the queue it makes, 32 payments long).
half_rate() {
  python3 - "$work" "$ROUNDS" "$1" <<'PY'
import json, sys
work, rounds, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runs = [json.load(open(f"{work}/{kind}-{r}.json")) for r in range(1, rounds + 1)]
print(f"{sum(p['requests'] for p in runs) / sum(p['seconds'] for p in runs) / 2:.1f}")
PY
}
qr_rate=$(half_rate qr)
blik_rate=$(half_rate blik)
since=$(($(now_ms) + WARMUP * 1000))
"$load" apm --state "$work/state.json" --url "$host" --wallet "$wallet" --warmup "$WARMUP" --duration "$DURATION" --rate "$qr_rate" \
  --label qr-steady --latencies "$work/qr-steady.lat" --pay-calls "$work/qr-steady-pay.lat" >"$work/qr-steady.json"
settle
approvals "$since" "$work/qr-steady-approval.lat"
since=$(($(now_ms) + WARMUP * 1000))
"$load" blik --state "$work/mbank.json" --url "$mbank" --wallet "$wallet" --customers "$customers" --warmup "$WARMUP" \
  --duration "$DURATION" --rate "$blik_rate" --label blik-steady --latencies "$work/blik-steady.lat" \
  --pay-calls "$work/blik-steady-pay.lat" >"$work/blik-steady.json"
settle
approvals "$since" "$work/blik-steady-approval.lat"

python3 - "$work" "$ROUNDS" "$(nproc)" "$load_before" "$(getconf CLK_TCK)" <<'PY'
import json, sys
work, rounds, cores, load_before, tick = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
def latencies(name):
    return sorted(int(line) for r in range(1, rounds + 1) for line in open(f"{work}/{name}-{r}.lat") if line.strip())
def pct(values, p):
    if not values: return 0.0
    return values[min(len(values) - 1, max(0, -(-len(values) * p // 100) - 1))] / 1e6
def parts(name):
    return [json.load(open(f"{work}/{name}-{r}.json")) for r in range(1, rounds + 1)]
def merged(name):
    runs = parts(name)
    values = latencies(name)
    seconds = sum(p["seconds"] for p in runs)
    samples = list(dict.fromkeys(s for p in runs for s in p["failure_samples"]))[:5]
    return {"rps": len(values) / seconds, "p50_ms": pct(values, 50), "p99_ms": pct(values, 99),
            "failures": sum(p["failures"] for p in runs), "samples": samples, "rounds": [round(p["rps"]) for p in runs],
            "connections": runs[0]["connections"], "seconds": seconds}
# CPU the sandbox (hosts and wallet, one process) spent per payment, warm-up and the delivery of
# its webhooks included: what bounds the rate on a machine of few cores.
def cpu_ms(name):
    served = sum(p["requests"] + p["warmup_requests"] for p in parts(name))
    return sum(int(open(f"{work}/{name}-{r}.cpu").read()) for r in range(1, rounds + 1)) / tick * 1000 / max(served, 1)
kinds = {"qr": merged("qr"), "blik": merged("blik"), "card": merged("card")}
approvals = {kind: latencies(f"{kind}-approval") for kind in ("qr", "blik")}
pay_calls = {kind: latencies(f"{kind}-pay") for kind in ("qr", "blik")}
print(f"{'run':<24} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8} {'failures':>9}  per s per round")
for label, kind in (("QR payment (3 calls)", "qr"), ("BLIK payment (4 calls)", "blik"), ("card sale", "card")):
    r = kinds[kind]
    print(f"{label:<24} {r['rps']:>8.0f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['failures']:>9}  " + ", ".join(map(str, r["rounds"])))
for kind, r in kinds.items():
    for sample in r["samples"]:
        print(f"  {kind} failure: {sample}")
card = kinds["card"]
print(f"({card['connections']} devices, {rounds} rounds of {card['seconds'] / rounds:.0f} s per kind, "
      f"{len(approvals['qr'])} QR and {len(approvals['blik'])} BLIK approvals, {cores} cores, load average before: {load_before})")
print(f"card_sales_per_s: {card['rps']:.0f}")
for kind in ("qr", "blik"):
    r = kinds[kind]
    print(f"{kind}_payments_per_s: {r['rps']:.0f}")
    print(f"{kind}_vs_card_sales: {r['rps'] / card['rps']:.3f}")
    print(f"{kind}_payment_p99_ms: {r['p99_ms']:.2f}")
    print(f"{kind}_approval_to_final_p50_ms: {pct(approvals[kind], 50):.2f}")
    print(f"{kind}_approval_to_final_p99_ms: {pct(approvals[kind], 99):.2f}")
    print(f"{kind}_pay_call_p50_ms: {pct(pay_calls[kind], 50):.2f}")
    print(f"{kind}_pay_call_p99_ms: {pct(pay_calls[kind], 99):.2f}")
    print(f"{kind}_sandbox_cpu_ms_per_payment: {cpu_ms(kind):.2f}")
    print(f"{kind}_failures: {r['failures']}")
print(f"card_sandbox_cpu_ms_per_sale: {cpu_ms('card'):.2f}")
for kind in ("qr", "blik"):
    steady = json.load(open(f"{work}/{kind}-steady.json"))
    values = sorted(int(line) for line in open(f"{work}/{kind}-steady-approval.lat") if line.strip())
    calls = sorted(int(line) for line in open(f"{work}/{kind}-steady-pay.lat") if line.strip())
    print(f"{kind}_steady_payments_per_s: {steady['rps']:.0f}")
    print(f"{kind}_steady_approval_to_final_p50_ms: {pct(values, 50):.2f}")
    print(f"{kind}_steady_approval_to_final_p99_ms: {pct(values, 99):.2f}")
    print(f"{kind}_steady_pay_call_p50_ms: {pct(calls, 50):.2f}")
    print(f"{kind}_steady_pay_call_p99_ms: {pct(calls, 99):.2f}")
    print(f"{kind}_steady_failures: {steady['failures']}")
PY
