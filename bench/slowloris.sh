#!/usr/bin/env bash
# Slowloris against one environment host (issue #17): 1,000 connections from 127.0.0.2 that send the
# start of a request head and then a header line every 2 s (half of them), or nothing at all (the
# other half), while a client from 127.0.0.1 asks /healthz. Reports how many connections the one
# address holds, how long it holds them, and /healthz times from the other address before and
# during the attack. Loopback only, bounded (about 20 s), stops by itself. Timings are for reading,
# never asserted. Ends with `name: value` lines (the healthz medians and maxima, the connections held).
#
#   bench/slowloris.sh                     # builds sandbox-host (debug) first
#   SKIP_BUILD=1 ATTACKERS=500 bench/slowloris.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/common.sh

ATTACKERS=${ATTACKERS:-1000}
SECONDS_UNDER_ATTACK=${SECONDS_UNDER_ATTACK:-14}
[ "${SKIP_BUILD:-}" = 1 ] || swift build --product sandbox-host >/dev/null
work=$(mktemp -d)
port=$(free_port)
.build/debug/sandbox-host --env EU --port "$port" --data-dir "$work" --access-log off >"$work/host.log" 2>&1 &
host=$!
trap 'kill $host 2>/dev/null; wait $host 2>/dev/null; rm -rf "$work"' EXIT
wait_for "http://127.0.0.1:$port/healthz"

python3 - "$port" "$ATTACKERS" "$SECONDS_UNDER_ATTACK" <<'PY'
import select, socket, statistics, sys, time
port, attackers, duration = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])

def healthz():
    started = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk: break
        data += chunk
    s.close()
    assert data.startswith(b"HTTP/1.1 200"), data[:80]
    return (time.monotonic() - started) * 1000

figures = {}
def times(n, name):
    values = sorted(healthz() for _ in range(n))
    figures[f"{name}_median_ms"], figures[f"{name}_max_ms"] = statistics.median(values), values[-1]
    return f"median {statistics.median(values):.2f} ms, max {values[-1]:.2f} ms over {n}"

class Attacker(socket.socket):
    trickles = False

def still_open(sockets):
    alive = []
    for s in sockets:
        readable, _, _ = select.select([s], [], [], 0)
        if readable:
            try:
                if s.recv(1, socket.MSG_PEEK) == b"": raise OSError
            except OSError:
                s.close(); continue
        alive.append(s)
    return alive

print(f"healthz before the attack: {times(50, 'healthz_before')}")
sockets = []
for index in range(attackers):
    s = Attacker()
    s.bind(("127.0.0.2", 0))
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port))
        if index % 2 == 0: s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    except OSError:
        s.close(); continue
    s.trickles = index % 2 == 0
    sockets.append(s)
time.sleep(1)
sockets = still_open(sockets)
print(f"attacker connections held by 127.0.0.2 after 1 s: {len(sockets)} of {attackers}")
figures["connections_held_by_one_address"] = len(sockets)
print(f"healthz from 127.0.0.1 under the attack: {times(50, 'healthz_under_attack')}")
start = time.monotonic(); last_trickle = 0.0; first_cut = None
while time.monotonic() - start < duration:
    if time.monotonic() - last_trickle >= 2:
        last_trickle = time.monotonic()
        for s in sockets:
            if not s.trickles: continue
            try: s.send(b"X-Trickle: 1\r\n")
            except OSError: pass
    before = len(sockets)
    sockets = still_open(sockets)
    if first_cut is None and len(sockets) < before: first_cut = time.monotonic() - start + 1
    time.sleep(0.2)
print(f"attacker connections still held after {duration + 1:.0f} s of trickling: {len(sockets)}"
      + (f" (the first cut at about {first_cut:.0f} s)" if first_cut else ""))
print(f"healthz from 127.0.0.1 at the end: {times(20, 'healthz_after')}")
figures["connections_held_after_trickling"] = len(sockets)
for s in sockets: s.close()
for name, value in figures.items():
    print(f"{name}: {value:.2f}" if isinstance(value, float) else f"{name}: {value}")
PY
