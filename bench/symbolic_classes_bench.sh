#!/usr/bin/env bash
# The class engine's two paths on 7x7 (results/7x7/symbolic-classes.md), one thread each:
#  1. a fixed work sample (every 1 000 003rd work item), every class explicit
#     (--symbolic-above bound) and every class of more than 255 states symbolic, both metrics;
#  2. single work items with large classes (bench/class_path_bench), each path in a process of
#     its own (its peak RSS is the path's), the figures of both compared.
# Usage: bench/symbolic_classes_bench.sh [BUILD_DIR]   (the benchmarks built, as by default)
set -euo pipefail
build="${1:-build}"
for metric in step move; do
  for above in bound 255; do
    echo "== work sample, $metric, --symbolic-above $above"
    /usr/bin/time -f 'CPU %U+%S s, peak RSS %M KiB' \
      "$build/rushhour" classify --engine classes --size 7 --metric "$metric" --threads 1 \
      --work-sample 1000003 --max-memory 8G --symbolic-above "$above" -q 2>&1
  done
done
# ROWS and the limits (cars, trucks) that select the item's classes.
items=("c,-,-,c,-,-,c 6 0" "c,c,c,c,c,c,c 9 0" "t,c,t,c,t,c,t 5 5")
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for metric in step move; do
  for item in "${items[@]}"; do
    read -r rows cars trucks <<<"$item"
    for path in explicit symbolic; do
      echo "== item $rows, <= $cars cars, <= $trucks trucks, $metric, $path"
      "$build/class_path_bench" 7 "$metric" "$rows" "$path" 255 "$cars" "$trucks" >"$out/$path.txt"
      grep -v '^figures' "$out/$path.txt"
    done
    if diff <(grep '^figures' "$out/explicit.txt") <(grep '^figures' "$out/symbolic.txt") >/dev/null; then
      echo "figures: equal ($(grep -c '^figures index' "$out/explicit.txt") indices, $(grep -c '^figures sample' "$out/explicit.txt") samples)"
    else
      echo "figures: DIFFER"
    fi
  done
done
