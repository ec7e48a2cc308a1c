#!/usr/bin/env bash
# The dominance pass per part (`--partition rows --dominance-by symbolic`) against the class
# engine, on the same domain: every per-index count, non-dominated and components figure and
# the summary line must be equal. Prints the CPU seconds (user+sys) and peak RSS of each run
# and "equal" or the differences; exit status 1 if they differ.
# Usage: scripts/partition_dominance_check.sh [BUILD_DIR] [CLASSIFY_OPTIONS ...]
#   (defaults: build, --size 6 --max-vehicles 4), e.g.
#   scripts/partition_dominance_check.sh build --size 6 --max-vehicles 6
set -euo pipefail
build=${1:-build}
shift $(($# > 0 ? 1 : 0))
(($# > 0)) || set -- --size 6 --max-vehicles 4
bin="$build/rushhour"
[[ -x "$bin" ]] || { echo "partition_dominance_check.sh: no $bin (build first)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run() {  # name, options...
  local name=$1; shift
  /usr/bin/time -f '%U %S %M' -o "$scratch/$name.time" "$bin" classify "$@" >"$scratch/$name.out" 2>"$scratch/$name.log"
  local user sys rss_kib; read -r user sys rss_kib <"$scratch/$name.time"
  printf '%-40s CPU %.2f s, peak RSS %d MiB\n' "$name $*" "$(echo "$user + $sys" | bc)" $((rss_kib / 1024))
  # The figures only: the engine line and the closing time line differ by nature.
  grep -v -e '^engine ' -e ' s, peak RSS ' "$scratch/$name.out" >"$scratch/$name.figures"
}

run classes --engine classes --threads 1 --samples 0 "$@"
run parts --partition rows --dominance-by symbolic --part-workers 1 --samples 0 "$@"
if diff "$scratch/classes.figures" "$scratch/parts.figures"; then
  echo "equal: $(grep -c '^ *[0-9]' "$scratch/parts.figures") indices, $(head -3 "$scratch/parts.figures" | grep '^domain')"
else
  exit 1
fi
