#!/usr/bin/env bash
# Webhook deliveries per second from a release sandbox-host to a fast local receiver, none lost.
# (The delivery half of the webhook benchmarks; bench/webhooks.sh measures verification.)
# Ends with `name: value` lines. Timings are for reading, never asserted.
#
#   bench/webhook-delivery.sh                   # 10,000 events (~1 min, most of it writing the events)
#   EVENTS=20000 bench/webhook-delivery.sh
#   SKIP_BUILD=1 SCRATCH=/tmp/build bench/webhook-delivery.sh
#
# How: EU-M01's endpoint points at a loopback port where nothing listens yet; EVENTS sample events
# are written with `POST /_sandbox/webhooks/trigger` (8 keep-alive clients). Every first attempt
# fails to connect and so does the retry 5 s later, which leaves the whole backlog waiting for the
# 5 min retry. Then the receiver starts on that port and `POST /_sandbox/clock` moves the host
# 301 s ahead: every event is due at once, and the dispatcher (16 at a time, durable commits of
# its results) works through the backlog. deliveries_per_s is EVENTS over the time from the
# first to the last arrival. The receiver is a small asyncio HTTP/1.1 server (keep-alive, 200
# to every POST) that notes the arrival time, id and MONEI-Signature of each request; signatures
# are checked with the merchant's apiKey after the run, and every written event id must arrive
# (deliveries_lost), repeats are counted (deliveries_duplicated).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

EVENTS=${EVENTS:-10000}
SCRATCH=${SCRATCH:-.build}
bench_workspace


if [ "${SKIP_BUILD:-}" != 1 ]; then
  swift build -c release --scratch-path "$SCRATCH" --product sandbox-host >/dev/null
fi
host_binary="$SCRATCH/release/sandbox-host"
read -r backoffice_key api_key < <(python3 -c '
import json; r = json.load(open("sandbox-data/merchants.json"))["regions"]["EU"]
print(r["backOfficeKey"], next(m["apiKey"] for m in r["merchants"] if m["id"] == "EU-M01"))')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

host_port=$(free_port)
"$host_binary" --env EU --port "$host_port" --data-dir "$work/data" --access-log off >"$work/host.log" 2>&1 &
pids+=($!)
host="http://127.0.0.1:$host_port"
wait_for "$host/healthz"

receiver_port=$(free_port)
curl -sf -X PUT -H "Authorization: Bearer $backoffice_key" -H 'Content-Type: application/json' \
  -d "{\"url\": \"http://127.0.0.1:$receiver_port/hook\", \"scheme\": \"monei\"}" \
  "$host/backoffice/v1/merchants/EU-M01/webhook" >/dev/null

# Write the events (each one durable commit), keeping their ids.
echo "writing $EVENTS events…" >&2
python3 - "$host_port" "$EVENTS" "$work/ids" <<'PY'
import http.client, json, sys, threading
port, total, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
ids, lock = [], threading.Lock()
def client(count):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = json.dumps({"event": "payment.succeeded", "merchantId": "EU-M01"})
    for _ in range(count):
        connection.request("POST", "/_sandbox/webhooks/trigger", body=body, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        data = answer.read()
        if answer.status != 202:
            sys.exit(f"trigger answered {answer.status}: {data!r}")
        with lock:
            ids.append(json.loads(data)["eventId"])
threads = [threading.Thread(target=client, args=(total // 8 + (1 if i < total % 8 else 0),)) for i in range(8)]
for thread in threads: thread.start()
for thread in threads: thread.join()
assert len(ids) == total == len(set(ids)), (len(ids), total)
open(out, "w").write("\n".join(ids) + "\n")
PY

# Wait until every event has failed twice (next attempt 5 min ahead): nothing is due before the clock moves.
python3 - "$work/data/eu.sqlite" "$EVENTS" <<'PY'
import sqlite3, sys, time
path, total = sys.argv[1], int(sys.argv[2])
deadline = time.time() + 120
while True:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    waiting = db.execute("SELECT count(*) FROM webhook_events WHERE state = 'pending' AND attempts >= 2").fetchone()[0]
    db.close()
    if waiting == total: break
    if time.time() > deadline: sys.exit(f"only {waiting} of {total} events reached their 5 min retry")
    time.sleep(0.5)
PY

cat >"$work/receiver.py" <<'PY'
import asyncio, json, sys, time
port, total, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
arrivals = []  # (monotonic seconds, MONEI-Signature, body)
done = asyncio.Event()
OK = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"

class Receiver(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport, self.buffer = transport, b""
    def data_received(self, data):
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0: return
            head = self.buffer[:end].decode("latin-1").split("\r\n")
            headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in head[1:] if ":" in line)}
            length = int(headers.get("content-length", "0"))
            if len(self.buffer) < end + 4 + length:
                if headers.get("expect", "").lower() == "100-continue" and not getattr(self, "continued", False):
                    self.continued = True
                    self.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")
                return
            body = self.buffer[end + 4:end + 4 + length]
            self.buffer = self.buffer[end + 4 + length:]
            self.continued = False
            arrivals.append((time.monotonic(), headers.get("monei-signature", ""), body))
            self.transport.write(OK)
            if len(arrivals) >= total: done.set()

async def main():
    server = await asyncio.get_running_loop().create_server(Receiver, "127.0.0.1", port, backlog=1024)
    open(out + ".ready", "w").close()
    try:
        await asyncio.wait_for(done.wait(), timeout=300)
    except asyncio.TimeoutError:
        pass
    await asyncio.sleep(1.5)  # repeats that come late are counted too
    server.close()
    with open(out, "w") as file:
        for at, signature, body in arrivals:
            file.write(json.dumps({"at": at, "signature": signature, "body": body.decode()}) + "\n")

asyncio.run(main())
PY
python3 "$work/receiver.py" "$receiver_port" "$EVENTS" "$work/arrivals" &
receiver_pid=$!
pids+=($receiver_pid)
for _ in $(seq 100); do [ -e "$work/arrivals.ready" ] && break; sleep 0.05; done

echo "delivering…" >&2
bench_profile "${pids[0]}" "${PROFILE_SECONDS:-1}" webhook-delivery
curl -sf -X POST -H 'Content-Type: application/json' -d '{"advanceSeconds": 301}' "$host/_sandbox/clock" >/dev/null
wait "$receiver_pid"

python3 - "$work" "$EVENTS" "$api_key" "$load_before" <<'PY'
import hashlib, hmac, json, os, sqlite3, sys
work, total, key, load_before = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode(), sys.argv[4]
written = set(open(f"{work}/ids").read().split())
arrivals = [json.loads(line) for line in open(f"{work}/arrivals")]
ids, bad = [], 0
for arrival in arrivals:
    body = arrival["body"].encode()
    ids.append(json.loads(body)["id"])
    fields = dict(part.split("=", 1) for part in arrival["signature"].split(",") if "=" in part)
    expected = hmac.new(key, fields.get("t", "").encode() + b"." + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, fields.get("v1", "")): bad += 1
times = [arrival["at"] for arrival in arrivals]
span = max(times) - min(times) if times else 0
db = sqlite3.connect(f"file:{work}/data/eu.sqlite?mode=ro", uri=True, timeout=10)
delivered = db.execute("SELECT count(*) FROM webhook_events WHERE state = 'delivered'").fetchone()[0]
print(f"({total} events, receiver 200 at once, {os.cpu_count()} cores, load before {load_before})")
print(f"events: {total}")
print(f"deliveries_per_s: {len(set(ids) & written) / span:.0f}" if span > 0 else "deliveries_per_s: 0")
print(f"delivery_span_s: {span:.2f}")
print(f"deliveries_lost: {len(written - set(ids))}")
print(f"deliveries_duplicated: {len(ids) - len(set(ids))}")
print(f"deliveries_unknown_ids: {len(set(ids) - written)}")
print(f"signatures_invalid: {bad}")
print(f"log_delivered: {delivered}")
PY
