#!/usr/bin/env bash
# QR wallet payments per second, end to end on one `sandbox up` (release build): 32 devices pay by
# QR at once, each on its own bench terminal with APMs on. For each payment the device makes the
# order (the host makes it at the wallet simulator, signed), the customer pays it through the
# wallet's customer API (the wallet notifies the host, signed, and answers once the host took it),
# and the device's next poll reads CLEARED. Against card sales per second measured in the same run,
# on the same host and devices (bench-load sale: sealed card payloads, durable commits). Rounds
# alternate the order, so drift on a shared machine hits both alike.
# Figures: qr_payments_per_s; qr_vs_card_sales, its ratio to card sales (aim 0.25 or more); and
# qr_approval_to_final_p99_ms, from the wallet's approval to the host's final status (the wallet's
# pay call, which answers once the host acknowledged; aim under 20 ms); and the CPU the sandbox
# process spends per QR payment and per card sale. Ends with `name: value`
# lines. Timings are for reading, never asserted.
#
#   bench/apm.sh                         # 32 devices, 2 rounds of 10 s per side after 2 s warm-up (~1 min)
#   CONNECTIONS=8 DURATION=5 bench/apm.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-2}
CONNECTIONS=${CONNECTIONS:-32}
SCRATCH=${SCRATCH:-.build}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ "${SKIP_BUILD:-}" != 1 ]; then
  swift build -c release --scratch-path "$SCRATCH" --product sandbox >/dev/null
  swift build -c release --scratch-path "$SCRATCH" --product bench-load >/dev/null
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
sandbox_binary="$SCRATCH/release/sandbox"
load="$SCRATCH/release/bench-load"

# sandbox-data with one bench merchant of CONNECTIONS terminals, APMs on (ALIPAY), as a local overlay.
cp -R sandbox-data "$work/sandbox-data"
rm -f "$work/sandbox-data/local/"*.json
python3 - "$work/sandbox-data/local/bench.json" "$CONNECTIONS" <<'PY'
import json, sys
path, count = sys.argv[1], int(sys.argv[2])
def terminal(i):
    return {"id": f"EU-BENCH-T{i:03d}", "profileId": "prf_bench", "refundAvailable": True, "reversalAvailable": True,
            "limitAmount": 100000, "permittedCountries": None,
            "tips": {"enabled": False, "rates": [], "maxAmount": None, "maxPercentage": None},
            "reference": {"enabled": False, "pattern": None}, "autoLogin": True,
            "registerOptions": ["portal", "registrationCode"],
            "apm": {"enabled": True, "brands": [{"brandName": "ALIPAY", "brandFullName": "Alipay+", "customId": f"alipay-bench-{i}", "isActive": True}]}}
merchant = {"id": "EU-BENCH01", "name": "Bench Shop", "address1": "Benchstraat 1", "address2": "1000 Brussel",
            "apiKey": "sk_test_eu_bench_000000000001", "terminals": [terminal(i) for i in range(1, count + 1)]}
json.dump({"regions": {"EU": {"merchants": [merchant]}}}, open(path, "w"), indent=1)
PY
terminals=$(python3 -c "print(','.join(f'EU-BENCH-T{i:03d}' for i in range(1, $CONNECTIONS + 1)))")
backoffice_key=$(python3 -c 'import json; print(json.load(open("sandbox-data/merchants.json"))["regions"]["EU"]["backOfficeKey"])')

base_port=$(free_port)
"$sandbox_binary" up --base-port "$base_port" --data-dir "$work/data" --access-log off --sandbox-data "$work/sandbox-data" >/dev/null &
sandbox_pid=$!
pids+=($sandbox_pid)
wait_for "http://127.0.0.1:$base_port/v1/environment"
endpoints="$work/data/endpoints.json"
for _ in $(seq 200); do [ -s "$endpoints" ] && break; sleep 0.05; done
host=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["environments"]["EU"])' "$endpoints")
wallet=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wallet"])' "$endpoints")
wait_for "$wallet/"

"$load" setup --url "$host" --region EU --backoffice-key "$backoffice_key" --terminals "$terminals" --out "$work/state.json" 2>/dev/null

cpu_ticks() { awk '{print $14 + $15}' "/proc/$sandbox_pid/stat"; }
run_card() {
  local before
  before=$(cpu_ticks)
  "$load" sale --state "$work/state.json" --url "$host" --expect-contains '"transactionStatus":"CLEARED"' --warmup "$WARMUP" \
    --duration "$DURATION" --label card --latencies "$work/card-$1.lat" >"$work/card-$1.json"
  echo $(($(cpu_ticks) - before)) >"$work/card-$1.cpu"
}
run_qr() {
  local before
  before=$(cpu_ticks)
  "$load" apm --state "$work/state.json" --url "$host" --wallet "$wallet" --warmup "$WARMUP" --duration "$DURATION" \
    --label qr --latencies "$work/qr-$1.lat" --approvals "$work/approval-$1.lat" >"$work/qr-$1.json"
  echo $(($(cpu_ticks) - before)) >"$work/qr-$1.cpu"
}
for round in $(seq "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then run_qr "$round"; run_card "$round"; else run_card "$round"; run_qr "$round"; fi
done

python3 - "$work" "$ROUNDS" "$(nproc)" "$load_before" "$(getconf CLK_TCK)" <<'PY'
import json, sys
work, rounds, cores, load_before, tick = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
def latencies(name):
    return sorted(int(line) for r in range(1, rounds + 1) for line in open(f"{work}/{name}-{r}.lat") if line.strip())
def pct(values, p):
    if not values: return 0.0
    return values[min(len(values) - 1, max(0, -(-len(values) * p // 100) - 1))] / 1e6
def merged(name):
    parts = [json.load(open(f"{work}/{name}-{r}.json")) for r in range(1, rounds + 1)]
    values = latencies(name)
    seconds = sum(p["seconds"] for p in parts)
    samples = list(dict.fromkeys(s for p in parts for s in p["failure_samples"]))[:5]
    return {"rps": len(values) / seconds, "p50_ms": pct(values, 50), "p99_ms": pct(values, 99),
            "failures": sum(p["failures"] for p in parts), "samples": samples, "rounds": [round(p["rps"]) for p in parts],
            "connections": parts[0]["connections"], "seconds": seconds}
qr, card = merged("qr"), merged("card")
approvals = latencies("approval")
print(f"{'run':<22} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8} {'failures':>9}  per s per round")
for label, r in (("QR payment (3 calls)", qr), ("card sale", card)):
    print(f"{label:<22} {r['rps']:>8.0f} {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['failures']:>9}  " + ", ".join(map(str, r["rounds"])))
for label, r in (("qr", qr), ("card", card)):
    for sample in r["samples"]:
        print(f"  {label} failure: {sample}")
print(f"({qr['connections']} devices, {rounds} rounds of {qr['seconds'] / rounds:.0f} s per side, {len(approvals)} approvals, "
      f"{cores} cores, load average before: {load_before})")
print(f"qr_payments_per_s: {qr['rps']:.0f}")
print(f"card_sales_per_s: {card['rps']:.0f}")
print(f"qr_vs_card_sales: {qr['rps'] / card['rps']:.3f}")
print(f"qr_payment_p99_ms: {qr['p99_ms']:.2f}")
print(f"qr_approval_to_final_p50_ms: {pct(approvals, 50):.2f}")
print(f"qr_approval_to_final_p99_ms: {pct(approvals, 99):.2f}")
# CPU the sandbox (hosts and wallet, one process) spent per payment, warm-up included: what bounds
# the rate on a machine of few cores.
def cpu_ms(name):
    served = sum(json.load(open(f"{work}/{name}-{r}.json"))["requests"] + json.load(open(f"{work}/{name}-{r}.json"))["warmup_requests"]
                 for r in range(1, rounds + 1))
    return sum(int(open(f"{work}/{name}-{r}.cpu").read()) for r in range(1, rounds + 1)) / tick * 1000 / max(served, 1)
print(f"qr_sandbox_cpu_ms_per_payment: {cpu_ms('qr'):.2f}")
print(f"card_sandbox_cpu_ms_per_sale: {cpu_ms('card'):.2f}")
print(f"qr_failures: {qr['failures']}")
PY
