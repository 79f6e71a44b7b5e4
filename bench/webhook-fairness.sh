#!/usr/bin/env bash
# A good merchant's webhook latency beside a merchant whose receiver hangs, against the same
# merchant alone in the same run. Ends with `name: value` lines. Timings are for reading, never asserted.
#
#   bench/webhook-fairness.sh                   # ~1 min
#   EVENTS=300 BACKLOG=2000 bench/webhook-fairness.sh
#   SKIP_BUILD=1 SCRATCH=/tmp/build bench/webhook-fairness.sh
#
# How: a release sandbox-host for EU. EU-M02's endpoint is a small asyncio receiver that answers
# 200 at once and notes when each event id arrived. Alone: EVENTS test events for EU-M02 are
# triggered one at a time (`POST /_sandbox/webhooks/trigger`, 20 a second), each one's latency is
# its arrival minus the moment its trigger was sent. Beside: EU-M01's endpoint is a receiver
# that accepts connections and never answers (each attempt waits out the dispatcher's 15 s
# timeout); BACKLOG events for EU-M01 are triggered first, then the same EVENTS for EU-M02.
# good_p99_ratio is the good merchant's p99 beside the hanging one over its p99 alone (aim ≤ 2).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

EVENTS=${EVENTS:-200}
BACKLOG=${BACKLOG:-1000}
SCRATCH=${SCRATCH:-.build}
bench_workspace

if [ "${SKIP_BUILD:-}" != 1 ]; then
  swift build -c release --scratch-path "$SCRATCH" --product sandbox-host >/dev/null
fi
host_binary="$SCRATCH/release/sandbox-host"
backoffice_key=$(python3 -c 'import json; print(json.load(open("sandbox-data/merchants.json"))["regions"]["EU"]["backOfficeKey"])')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

host_port=$(free_port)
"$host_binary" --env EU --port "$host_port" --data-dir "$work/data" --access-log off >"$work/host.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$host_port/healthz"

python3 - "$host_port" "$backoffice_key" "$EVENTS" "$BACKLOG" "$load_before" <<'PY'
import asyncio, http.client, json, os, socket, sys, threading, time

port, key, events, backlog, load_before = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
arrivals, arrived = {}, threading.Condition()

def serve_good(listener):
    """200 at once to every POST; notes when each event id arrived."""
    class Receiver(asyncio.Protocol):
        def connection_made(self, transport): self.transport, self.buffer = transport, b""
        def data_received(self, data):
            self.buffer += data
            while b"\r\n\r\n" in self.buffer:
                head, rest = self.buffer.split(b"\r\n\r\n", 1)
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
                if len(rest) < length: return
                body, self.buffer = rest[:length], rest[length:]
                with arrived:
                    arrivals[json.loads(body)["id"]] = time.monotonic()
                    arrived.notify_all()
                self.transport.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    async def main():
        server = await asyncio.get_running_loop().create_server(Receiver, sock=listener)
        await asyncio.Event().wait()
    asyncio.run(main())

def serve_hanging(listener):
    """Accepts every connection, reads, never answers."""
    held = []
    while True:
        connection, _ = listener.accept()
        held.append(connection)

def listener():
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0)); s.listen(1024); return s

good, hanging = listener(), listener()
threading.Thread(target=serve_good, args=(good,), daemon=True).start()
threading.Thread(target=serve_hanging, args=(hanging,), daemon=True).start()

connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
def call(method, path, body):
    connection.request(method, path, body=json.dumps(body), headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    answer = connection.getresponse(); data = answer.read()
    if answer.status >= 300: sys.exit(f"{method} {path}: {answer.status} {data[:200]}")
    return json.loads(data) if data else {}

call("PUT", "/backoffice/v1/merchants/EU-M02/webhook", {"url": f"http://127.0.0.1:{good.getsockname()[1]}/hook", "scheme": "monei"})

def good_run():
    latencies = []
    for _ in range(events):
        triggered = time.monotonic()
        event = call("POST", "/_sandbox/webhooks/trigger", {"event": "payment.succeeded", "merchantId": "EU-M02"})["eventId"]
        with arrived:
            if not arrived.wait_for(lambda: event in arrivals, timeout=120): sys.exit(f"{event} never arrived")
            latencies.append(arrivals[event] - triggered)
        time.sleep(max(0, 0.05 - (time.monotonic() - triggered)))
    latencies.sort()
    return latencies[len(latencies) // 2] * 1000, latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000

alone_p50, alone_p99 = good_run()
call("PUT", "/backoffice/v1/merchants/EU-M01/webhook", {"url": f"http://127.0.0.1:{hanging.getsockname()[1]}/hook", "scheme": "monei"})
for _ in range(backlog):
    call("POST", "/_sandbox/webhooks/trigger", {"event": "payment.succeeded", "merchantId": "EU-M01"})
beside_p50, beside_p99 = good_run()
print(f"({events} events of EU-M02 20 a second, alone and beside {backlog} of EU-M01 to a receiver that never answers; "
      f"{os.cpu_count()} cores, load before {load_before}, after {' '.join(open('/proc/loadavg').read().split()[:3])})")
print(f"good_alone_p50_ms: {alone_p50:.1f}")
print(f"good_alone_p99_ms: {alone_p99:.1f}")
print(f"good_beside_hanging_p50_ms: {beside_p50:.1f}")
print(f"good_beside_hanging_p99_ms: {beside_p99:.1f}")
print(f"good_p99_ratio: {beside_p99 / alone_p99:.2f}")
os._exit(0)
PY
