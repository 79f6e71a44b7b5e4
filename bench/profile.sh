#!/usr/bin/env bash
# Profiles a running process with Linux perf for a few seconds and prints where its CPU time went:
# the share of each library, the hottest functions of the process's own code and of the runtime
# (self time), and the widest frames of the process's own code (time with what they call).
# Also writes the stacks folded one per line (OUT.folded), the input of flame-graph tools
# (flamegraph.pl, speedscope, inferno).
#
#   bench/profile.sh PID                      # 5 s
#   bench/profile.sh PID 8 /tmp/host          # 8 s; /tmp/host.data and /tmp/host.folded
#   PROFILE=1 bench/http.sh                   # the benchmarks profile their server at its peak this way
#
# Needs `perf` (Debian's linux-perf) and, for other users' processes, kernel.perf_event_paranoid <= 1.
set -euo pipefail

pid=${1:?usage: bench/profile.sh PID [SECONDS] [OUT]}
seconds=${2:-5}
out=${3:-$(mktemp -u /tmp/profile.XXXXXX)}
command -v perf >/dev/null || { echo "bench/profile.sh: perf is missing (apt-get install linux-perf)" >&2; exit 1; }

perf record -q -F 499 --call-graph dwarf,16384 -p "$pid" -o "$out.data" -- sleep "$seconds" >/dev/null 2>&1
name=$(basename "$(readlink -f "/proc/$pid/exe" 2>/dev/null || echo "$pid")")
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }

echo "== $name: CPU by library"
perf report -i "$out.data" --no-children --sort dso --stdio -g none 2>/dev/null | awk '/%/ && !/^#/ {print "  " $1, $2}' | head -8
echo "== $name: hottest functions (self time, outside the kernel)"
perf report -i "$out.data" --no-children --sort dso,symbol --stdio -g none 2>/dev/null \
  | awk '/%/ && !/^#/ && !/\[k\]/ {pct=$1; $1=""; $3=""; sub(/^ +/, ""); sub(/ +- +-.*$/, ""); print "  " pct "  " $0}' | demangle | cut -c1-150 | head -15 || true
echo "== $name: widest frames of its own code (with what they call)"
perf report -i "$out.data" --children --sort dso,symbol --stdio -g none 2>/dev/null \
  | awk -v dso="$name" '/%/ && !/^#/ && $3 == dso {pct=$1; $1=$2=$3=$4=""; sub(/^ +/, ""); sub(/ +- +-.*$/, ""); print "  " pct "  " $0}' | demangle \
  | grep -v "variable initialization expression\|(inlined)" | cut -c1-150 | head -15 || true

# Folded stacks, leaf last: "frame;frame;frame count".
perf script -i "$out.data" -F comm,ip,sym 2>/dev/null | python3 -c '
import sys, collections
stacks, frames = collections.Counter(), []
def flush():
    if frames: stacks[";".join(reversed(frames))] += 1
    frames.clear()
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.strip(): flush(); continue
    if not line.startswith((" ", "\t")): flush(); continue
    parts = line.split(None, 1)
    frames.append(parts[1].split("+0x")[0] if len(parts) > 1 else parts[0])
flush()
for stack, count in stacks.most_common(): print(stack, count)
' >"$out.folded"
echo "(perf data: $out.data; folded stacks for a flame graph: $out.folded)"
