#!/usr/bin/env bash
# Every benchmark in turn (several minutes), each one's output kept in OUT/<script>.txt with the
# 1-minute load average before and after it in OUT/<script>.load, then the one table of every
# figure, its same-run reference, the ratio and the aim (bench/table.py). `make bench` runs this.
#
#   bench/all.sh                       # builds in release first; the outputs in .build/bench
#   OUT=/tmp/bench bench/all.sh http sale webhooks   # only these
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-.build/bench}
mkdir -p "$OUT"
[ "${SKIP_BUILD:-}" = 1 ] || swift build -c release >/dev/null || exit 1

scripts=("$@")
[ ${#scripts[@]} -gt 0 ] || scripts=(http sale apm history webhooks webhook-delivery portal snapshot idle)
# Only quiet runs count: before each script, wait (up to QUIET_WAIT seconds, 120 by default) for
# the 1-minute load average to fall below QUIET_LOAD (1.0), which the previous script raised.
quiet() {
  local waited=0
  while [ "$waited" -lt "${QUIET_WAIT:-120}" ] && ! awk -v limit="${QUIET_LOAD:-1.0}" '{exit !($1 < limit)}' /proc/loadavg 2>/dev/null; do
    sleep 5
    waited=$((waited + 5))
  done
}
for script in "${scripts[@]}"; do
  [ -x "bench/$script.sh" ] || { echo "bench/all.sh: no bench/$script.sh" >&2; exit 2; }
  quiet
  echo "== bench/$script.sh" >&2
  before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
  SKIP_BUILD=1 "bench/$script.sh" 2>&1 | tee "$OUT/$script.txt" >&2
  echo "$before $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")" >"$OUT/$script.load"
done
python3 bench/table.py "$OUT"
