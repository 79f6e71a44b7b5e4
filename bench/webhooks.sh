#!/usr/bin/env bash
# Webhook verifications per second on a 1 KiB body: the Swift WebhookSignature library against
# the Python reference verifiers (standardwebhooks, stripe) in the same run, one core each.
# Ends with `name: value` lines.
#
#   bench/webhooks.sh                 # 3 rounds of 1 s per verifier, best round kept
#   ROUNDS=5 SECONDS_PER_ROUND=2 bench/webhooks.sh
#
# The Swift side is a throwaway package that depends on this checkout's WebhookSignature product
# alone, built in release, exactly as a merchant backend would use it. Both sides verify the same
# bytes with the same headers and check the timestamp against the system clock on every call;
# Python's standardwebhooks runs with json_parse=False, because the Swift verifier does not parse
# the body either.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

ROUNDS=${ROUNDS:-3}
SECONDS_PER_ROUND=${SECONDS_PER_ROUND:-1}
SCRATCH=${SCRATCH:-.build}
# SCRATCH may be relative to the checkout or absolute.
case "$SCRATCH" in /*) bench_scratch="$SCRATCH/webhooks-bench" ;; *) bench_scratch="$repo/$SCRATCH/webhooks-bench" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -c 'import standardwebhooks, stripe' 2>/dev/null \
  || { echo "bench/webhooks.sh: the Python packages standardwebhooks and stripe are missing: run scripts/setup" >&2; exit 1; }

# The Swift side: a package that depends on this checkout's WebhookSignature product only.
mkdir -p "$work/swift/Sources/VerifyBench"
cat >"$work/swift/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "VerifyBench",
    dependencies: [.package(path: "$repo")],
    targets: [.executableTarget(name: "VerifyBench", dependencies: [.product(name: "WebhookSignature", package: "$(basename "$repo")")])]
)
SWIFT
cat >"$work/swift/Sources/VerifyBench/main.swift" <<'SWIFT'
import Foundation
import WebhookSignature

// usage: VerifyBench WORK SECONDS -> "standard <per second>" and "monei <per second>"
let work = CommandLine.arguments[1]
let seconds = Double(CommandLine.arguments[2])!
let body = [UInt8](FileManager.default.contents(atPath: work + "/body")!)
let signed = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: work + "/signed.json")!) as! [String: Any]

func rate(_ verifier: WebhookVerifier, _ headers: [String: String]) throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    let limit = Duration.milliseconds(Int(seconds * 1000))
    var count = 0
    while true {
        for _ in 0..<1000 { try verifier.verify(headers: headers, body: body) }
        count += 1000
        let elapsed = clock.now - start
        if elapsed >= limit {
            let (whole, fraction) = elapsed.components
            return Double(count) / (Double(whole) + Double(fraction) / 1e18)
        }
    }
}

// The system clock, as a backend uses and as the Python verifiers read time.time() on every call.
let timestamp = signed["timestamp"] as! Int
let standard = try WebhookVerifier(scheme: .standard, secret: signed["secret"] as! String)
let standardHeaders = [
    "webhook-id": "msg_bench", "webhook-timestamp": String(timestamp), "webhook-signature": signed["standard"] as! String,
]
let monei = try WebhookVerifier(scheme: .monei, secret: signed["key"] as! String)
let moneiHeaders = ["monei-signature": signed["monei"] as! String]
print("standard \(try rate(standard, standardHeaders))")
print("monei \(try rate(monei, moneiHeaders))")
SWIFT
echo "building the Swift side (release)…" >&2
swift build -c release --package-path "$work/swift" --scratch-path "$bench_scratch" >/dev/null
swift_binary="$bench_scratch/release/VerifyBench"

# One 1 KiB UTF-8 JSON body, one Standard Webhooks secret, one MONEI API key; signed "now", after
# the build, so that a slow build cannot push the timestamp out of the 5-minute tolerance.
python3 - "$work" <<'PY'
import base64, hashlib, hmac, json, sys, time
work = sys.argv[1]
event = {"id": "evt_bench", "type": "payment.succeeded", "data": {"orderId": "order-1", "amount": 1250, "currency": "EUR"}}
text = json.dumps(event, separators=(",", ":"))
event["padding"] = "é" + "x" * (1024 - len(text.encode()) - len(',"padding":""') - 2)
body = json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode()
assert len(body) == 1024, len(body)
open(f"{work}/body", "wb").write(body)
t = int(time.time())
secret = "whsec_" + base64.b64encode(bytes(range(32))).decode()
key = "pk_test_bench_monei_api_key"
standard = "v1," + base64.b64encode(hmac.new(base64.b64decode(secret[6:]), f"msg_bench.{t}.".encode() + body, hashlib.sha256).digest()).decode()
monei = f"t={t},v1=" + hmac.new(key.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
json.dump({"timestamp": t, "secret": secret, "key": key, "standard": standard, "monei": monei}, open(f"{work}/signed.json", "w"))
PY

cat >"$work/python_bench.py" <<'PY'
import json, sys, time
import standardwebhooks, stripe
work, seconds = sys.argv[1], float(sys.argv[2])
body = open(f"{work}/body", "rb").read()
signed = json.load(open(f"{work}/signed.json"))
hook = standardwebhooks.Webhook(signed["secret"])
headers = {"webhook-id": "msg_bench", "webhook-timestamp": str(signed["timestamp"]), "webhook-signature": signed["standard"]}

def rate(verify):
    count, start = 0, time.perf_counter()
    while True:
        for _ in range(200):
            verify()
        count += 200
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed

print("standardwebhooks", rate(lambda: hook.verify(body, headers, json_parse=False)))
print("stripe", rate(lambda: stripe.WebhookSignature.verify_header(body, signed["monei"], signed["key"], 300)))
PY

# Alternate the two sides so that drift on a shared machine hits both alike; keep each one's best round.
for round in $(seq "$ROUNDS"); do
  "$swift_binary" "$work" "$SECONDS_PER_ROUND" >>"$work/swift.txt"
  python3 "$work/python_bench.py" "$work" "$SECONDS_PER_ROUND" >>"$work/python.txt"
done

# The ceiling for any verifier on this machine: OpenSSL's own HMAC-SHA256 over 1 KiB, context reused.
if command -v openssl >/dev/null; then
  openssl speed -seconds "$SECONDS_PER_ROUND" -bytes 1024 -hmac sha256 2>/dev/null \
    | awk '/^hmac\(sha256\)/ { sub(/k$/, "", $2); print $2 * 1000 / 1024 }' >"$work/openssl.txt" || true
fi

python3 - "$work" "$ROUNDS" "$SECONDS_PER_ROUND" <<'PY'
import os, sys
work, rounds, seconds = sys.argv[1], sys.argv[2], sys.argv[3]
best = {}
for name in ("swift", "python"):
    for line in open(f"{work}/{name}.txt"):
        key, value = line.split()
        best[f"{name}_{key}"] = max(best.get(f"{name}_{key}", 0.0), float(value))
swift_standard, swift_monei = best["swift_standard"], best["swift_monei"]
python_standard, python_stripe = best["python_standardwebhooks"], best["python_stripe"]
print(f"(1024-byte UTF-8 JSON body, best of {rounds} rounds of {seconds} s, one core each side, {os.cpu_count()} cores)")
print(f"verify_per_s: {swift_standard:.0f}")
print(f"verify_monei_per_s: {swift_monei:.0f}")
print(f"python_standardwebhooks_verify_per_s: {python_standard:.0f}")
print(f"python_stripe_verify_per_s: {python_stripe:.0f}")
print(f"verify_vs_python_standardwebhooks: {swift_standard / python_standard:.1f}")
print(f"verify_monei_vs_python_stripe: {swift_monei / python_stripe:.1f}")
openssl = open(f"{work}/openssl.txt").read().strip() if os.path.exists(f"{work}/openssl.txt") else ""
if openssl:
    # Hashing alone, no parsing or comparing: no verifier can pass this rate on one core.
    print(f"openssl_hmac_sha256_1kib_per_s: {float(openssl):.0f}")
    print(f"ceiling_vs_python_standardwebhooks: {float(openssl) / python_standard:.1f}")
PY
