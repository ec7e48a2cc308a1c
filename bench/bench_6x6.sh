#!/usr/bin/env bash
# The engine benchmark: the first K layers of the full 6x6 board (no dominance, no samples),
# then the full 5x5 run as the quick proxy. Prints the per-layer progress lines (count,
# frontier and visited nodes, seconds, elapsed, RSS, node table) and wall/CPU/peak RSS, after
# the machine's main-memory latency.
# Usage: bench/bench_6x6.sh K [BINARY] [extra classify options...]
#   e.g. bench/bench_6x6.sh 9 build/rushhour --line-code slot --encoding cell
set -euo pipefail
layers="${1:?usage: bench_6x6.sh K [BINARY] [options...]}"
binary="${2:-build/rushhour}"
shift $(( $# >= 2 ? 2 : 1 ))
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
run() {
  local title="$1"; shift
  : > "$log"
  local times
  times="$( { /usr/bin/time -f '%e %U %M' "$binary" classify "$@" -q --log "$log" > /dev/null; } 2>&1 | tail -1)"
  read -r wall user rss_kb <<< "$times"
  echo "== $title: $*"
  grep -E '^(encoding|layer)' "$log"
  echo "wall ${wall} s, CPU ${user} s, peak RSS $((rss_kb / 1024)) MiB"
}
# The machine first: 6x6 tables are gigabytes, touched at random, so main-memory latency
# sets the pace (results/perf-log.md §14).
g++ -O2 -std=c++20 "$(dirname "$0")/memory_latency.cpp" -o "$log.latency"
"$log.latency" 2048
rm -f "$log.latency"
run "6x6, first $layers layers" --size 6 --max-layers "$layers" --no-dominance --samples 0 \
  --bdd-nodes 8000000 --bdd-cache 1000000 "$@"
run "5x5, full (with dominance)" --size 5 "$@"
