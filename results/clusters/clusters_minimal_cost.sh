#!/usr/bin/env bash
# The cost of --minimal on the 6x6 puzzle domain (move metric): one work sample (every K-th
# work item, default 97), one thread, swept side by side with --clusters alone and with
# --clusters --minimal under each rule of RULES (default: canonical) by each binary given
# (e.g. two builds to compare). WALLS (default 0) is --walls. Prints CPU seconds (user +
# sys), peak RSS and records of each sweep; checks that every binary wrote the same minimal
# list under a rule, byte for byte.
# Usage: [WALLS=W] [RULES="public any"] results/clusters/clusters_minimal_cost.sh [K] [BINARY...]
set -euo pipefail
stride="${1:-97}"
shift $(( $# >= 1 ? 1 : 0 ))
binaries=("$@")
walls="${WALLS:-0}"
read -r -a rules <<< "${RULES:-canonical}"
(( ${#binaries[@]} )) || binaries=(build/rushhour)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/time_v_figures.sh"
sweep() {  # NAME BINARY [MORE OPTIONS]
  local name="$1" binary="$2"
  shift 2
  /usr/bin/time -v "$binary" classify --engine classes --size 6 --metric move --domain puzzle --walls "$walls" \
    --threads 1 --work-sample "$stride" -q --clusters "$work/$name.h5" --clusters-text "$work/$name.txt" "$@" \
    > "$work/$name.out" 2> "$work/$name.time"
}
echo "| binary | sweep | CPU s | peak RSS MiB | records |"
echo "|---|---|---|---|---|"
row() {  # NAME BINARY SWEEP
  echo "| $2 | $3 | $(cpu "$work/$1.time") | $(rss "$work/$1.time") | $(wc -l < "$work/$1.txt") |"
}
sweep plain "${binaries[0]}"
row plain "${binaries[0]}" "--clusters"
for rule in "${rules[@]}"; do
  for k in "${!binaries[@]}"; do
    sweep "$rule$k" "${binaries[$k]}" --minimal --minimal-rule "$rule"
    row "$rule$k" "${binaries[$k]}" "--clusters --minimal --minimal-rule $rule"
    cmp -s "$work/$rule$k.txt" "$work/${rule}0.txt" ||
      { echo "clusters_minimal_cost.sh: ${binaries[$k]} wrote another minimal list under $rule" >&2; exit 1; }
  done
done
