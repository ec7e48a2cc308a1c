#!/usr/bin/env bash
# The cost of the puzzle database with both metrics on 6x6: one work sample (every K-th work
# item, default 97), one thread, swept three times side by side: step metric with --clusters,
# move metric with --clusters, and move metric with --clusters --clusters-metrics both (every
# record with its step and its move figures). Prints CPU seconds (user + sys), peak RSS,
# records and database bytes per record of each, then the both-metrics sweep against the two
# one-metric sweeps together; on stderr the work sample lines and the wall seconds of writing
# each database. Checks that the three sweeps wrote the same number of records and that the
# both-metrics sweep's text list is the move sweep's, byte for byte.
# Usage: results/clusters/clusters_both_metrics.sh [K] [BINARY]
set -euo pipefail
stride="${1:-97}"
binary="${2:-build/rushhour}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/time_v_figures.sh"
sweep() {  # NAME METRIC [MORE OPTIONS]
  local name="$1" metric="$2"
  shift 2
  /usr/bin/time -v "$binary" classify --engine classes --size 6 --metric "$metric" --threads 1 \
    --work-sample "$stride" -q --clusters "$work/$name.h5" --clusters-text "$work/$name.txt" \
    --log "$work/$name.log" "$@" > "$work/$name.out" 2> "$work/$name.time"
  grep "work sample" "$work/$name.out" | sed "s/^/    $name: /" >&2
  grep "clusters:" "$work/$name.log" | sed "s/^/    $name /" >&2
}
sweep step step
sweep move move
sweep both move --clusters-metrics both
records=$(wc -l < "$work/move.txt")
for name in step both; do
  [[ $(wc -l < "$work/$name.txt") == "$records" ]] ||
    { echo "clusters_both_metrics.sh: $name wrote another number of records" >&2; exit 1; }
done
cmp -s "$work/both.txt" "$work/move.txt" ||
  { echo "clusters_both_metrics.sh: the both-metrics list is not the move sweep's" >&2; exit 1; }
echo "| sweep | CPU s | peak RSS MiB | records | .h5 bytes / record |"
echo "|---|---|---|---|---|"
for name in step move both; do
  awk -v n="$name" -v c="$(cpu "$work/$name.time")" -v m="$(rss "$work/$name.time")" -v r="$records" \
    -v h="$(stat -c %s "$work/$name.h5")" 'BEGIN {printf "| %s | %s | %s | %d | %.1f |\n", n, c, m, r, h / r}'
done
awk -v s="$(cpu "$work/step.time")" -v m="$(cpu "$work/move.time")" -v b="$(cpu "$work/both.time")" \
  'BEGIN {printf "\nstep + move: %.2f CPU s; both in one sweep: %.2f CPU s (%.1f %% of the two, %+.1f %% on the move sweep)\n",
          s + m, b, 100 * b / (s + m), 100 * (b - m) / m}'
