#!/usr/bin/env bash
# The cost of the puzzle database (--clusters) on 6x6: a work sample (every K-th work item,
# default 97) swept without and with --clusters (and --clusters-text), side by side, per
# metric, one thread. Prints CPU seconds (user + sys), peak RSS, records, records per CPU
# second, and bytes per record of the database, the text list and the spool; on stderr the
# work sample lines and the wall seconds of writing the database and the list at the end.
# Usage: results/clusters/clusters_overhead.sh [K] [BINARY]
set -euo pipefail
stride="${1:-97}"
binary="${2:-build/rushhour}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/time_v_figures.sh"
echo "| metric | run | CPU s | peak RSS MiB | records | records / CPU s | .h5 bytes / record | .txt bytes / record | spool bytes / record |"
echo "|---|---|---|---|---|---|---|---|---|"
for metric in step move; do
  common=(classify --engine classes --size 6 --metric "$metric" --threads 1 --work-sample "$stride" -q)
  /usr/bin/time -v "$binary" "${common[@]}" > "$work/plain.out" 2> "$work/plain.time"
  # The spool is removed once the database is written: its size is taken while it grows.
  ( while sleep 0.2; do [[ -f "$work/db.h5.spool" ]] && stat -c %s "$work/db.h5.spool" > "$work/spool.size"; done ) &
  watcher=$!
  /usr/bin/time -v "$binary" "${common[@]}" --clusters "$work/db.h5" --clusters-text "$work/db.txt" \
    --log "$work/clusters.log" > "$work/clusters.out" 2> "$work/clusters.time"
  kill "$watcher"; wait "$watcher" 2>/dev/null || true
  records=$(wc -l < "$work/db.txt")
  plain_cpu=$(cpu "$work/plain.time")
  clusters_cpu=$(cpu "$work/clusters.time")
  h5=$(stat -c %s "$work/db.h5")
  txt=$(stat -c %s "$work/db.txt")
  spool=$(cat "$work/spool.size" 2>/dev/null || echo 0)
  echo "| $metric | plain | $plain_cpu | $(rss "$work/plain.time") | | | | | |"
  awk -v m="$metric" -v c="$clusters_cpu" -v r="$records" -v h="$h5" -v t="$txt" -v s="$spool" -v rs="$(rss "$work/clusters.time")" \
    'BEGIN {printf "| %s | --clusters | %s | %s | %d | %.0f | %.1f | %.1f | %.1f (at least; sampled while growing) |\n", m, c, rs, r, r / c, h / r, t / r, s / r}'
  grep "work sample" "$work/plain.out" | sed "s/^/    $metric plain: /" >&2
  grep "work sample" "$work/clusters.out" | sed "s/^/    $metric clusters: /" >&2
  grep "clusters:" "$work/clusters.log" | sed "s/^/    $metric /" >&2
  rm -f "$work"/db.* "$work/clusters.log"
done
