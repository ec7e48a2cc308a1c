#!/usr/bin/env bash
# Queries filtered by vehicles on a partitioned run, by two binaries side by side in one run
# (results/query-timing.md): BEFORE (whose runs keep no vehicle counts, so a filtered count opens
# every part holding the index) and AFTER (a filtered count reads DIR/parts-vehicle-totals.txt).
# Each binary classifies the same boards with --partition rows into a directory of its own
# (the CPU seconds of that run show what keeping the vehicle counts costs), then answers the
# same queries there; the answers must be equal.
# Usage: results/query-timing/query_timing_parts.sh BEFORE_BINARY AFTER_BINARY
# Prints one markdown row per run or query: CPU seconds (user + system), wall seconds, and
# whether the two binaries' outputs are equal.
set -euo pipefail
before=${1:?usage: query_timing_parts.sh BEFORE_BINARY AFTER_BINARY}
after=${2:?usage: query_timing_parts.sh BEFORE_BINARY AFTER_BINARY}
for bin in "$before" "$after"; do
  [[ -x "$bin" ]] || { echo "query_timing_parts.sh: no $bin" >&2; exit 2; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

timed() {  # output file, command...
  local out=$1; shift
  /usr/bin/time -f '%U %S %e' -o "$scratch/time" "$@" >"$out"
  local user sys wall
  read -r user sys wall <"$scratch/time"
  printf '%.2f | %.2f' "$(echo "$user + $sys" | bc)" "$wall"
}

board() {  # label, classify options; then queries as further arguments
  local label=$1 options=$2; shift 2
  local b a
  b=$(timed "$scratch/b.out" "$before" classify -q --partition rows --no-dominance --part-workers 1 $options --out "$scratch/before")
  a=$(timed "$scratch/a.out" "$after" classify -q --partition rows --no-dominance --part-workers 1 $options --out "$scratch/after")
  local same=no
  cmp -s <(grep -v ' s, peak RSS' "$scratch/b.out") <(grep -v ' s, peak RSS' "$scratch/a.out") && same=yes
  echo "| $label | \`classify $options --partition rows --no-dominance --part-workers 1\` | $b | $a | $same |"
  for query in "$@"; do
    b=$(timed "$scratch/b.out" "$before" query --run "$scratch/before" $query)
    a=$(timed "$scratch/a.out" "$after" query --run "$scratch/after" $query)
    same=no
    cmp -s "$scratch/b.out" "$scratch/a.out" && same=yes
    echo "| $label | \`query $query\` | $b | $a | $same |"
  done
  rm -rf "$scratch/before" "$scratch/after"
}

echo "| board | command | before CPU s | before wall s | after CPU s | after wall s | same output |"
echo "|---|---|---|---|---|---|---|"
board "5x5" "--size 5" "--index 10 --count --cars 3 --sample 0" "--index 10 --cars 3" "--index 20 --count --trucks 2 --sample 0" \
  "--index 20 --trucks 2 --cars 1"
board "6x6, at most 5 vehicles" "--size 6 --max-vehicles 5" "--index 10 --count --cars 3 --sample 0" "--index 10 --cars 3" \
  "--index 20 --count --trucks 2 --sample 0" "--index 20 --trucks 2 --cars 1"
