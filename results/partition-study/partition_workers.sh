#!/usr/bin/env bash
# Partitioned runs on one and on two worker processes (--part-workers), side by side in one
# run (results/partition-study.md, "Worker processes"): 5x5 --partition rows whole, without and
# with --out (every part saved: the part files' count and size, next to an unpartitioned
# run's layer files), and a sample of the 6x6 rows parts (every K-th, complete layers).
# Usage: results/partition-study/partition_workers.sh [BUILD_DIR] [K]   (defaults: build, 199)
# Prints one markdown row per run: CPU seconds (user + system, the worker processes
# included), wall seconds, peak RSS of the largest process, for runs with --out the files and
# bytes written, and the load average when the run started (the machine may be shared).
set -euo pipefail
build=${1:-build}
stride=${2:-199}
bin="$build/rushhour"
[[ -x "$bin" ]] || { echo "partition_workers.sh: no $bin (build first)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run() {  # label, out dir or -, options...
  local label=$1 out=$2; shift 2
  local extra=() load
  load=$(cut -d' ' -f1 /proc/loadavg)
  [[ "$out" == - ]] || extra=(--out "$scratch/$out")
  /usr/bin/time -f '%U %S %e %M' -o "$scratch/time" "$bin" classify -q --no-dominance "$@" "${extra[@]}" >/dev/null
  read -r user sys wall rss_kib <"$scratch/time"
  local files=- bytes=-
  if [[ "$out" != - ]]; then
    local saved="$scratch/$out/parts"
    [[ -d "$saved" ]] || saved="$scratch/$out/layers"
    files=$(find "$saved" -type f | wc -l)
    bytes=$(du -sb "$saved" | cut -f1)
  fi
  printf '| %s | %.1f | %.1f | %.0f | %s | %s | %s |\n' "$label" "$(echo "$user + $sys" | bc)" "$wall" \
    "$(echo "$rss_kib / 1024" | bc -l)" "$files" "$bytes" "$load"
}

echo "| run | CPU s | wall s | peak RSS MiB | files | bytes | load |"
echo "|---|---|---|---|---|---|---|"
run "5x5 none, --out" none --size 5
run "5x5 rows, 1 worker" - --size 5 --partition rows --part-workers 1
run "5x5 rows, 2 workers" - --size 5 --partition rows --part-workers 2
run "5x5 rows, 1 worker, --out" rows1 --size 5 --partition rows --part-workers 1
run "5x5 rows, 2 workers, --out" rows2 --size 5 --partition rows --part-workers 2
run "6x6 rows, every ${stride}th part, 1 worker" - --size 6 --samples 0 --partition rows --part-sample "$stride" --part-workers 1
run "6x6 rows, every ${stride}th part, 2 workers" - --size 6 --samples 0 --partition rows --part-sample "$stride" --part-workers 2
