#!/usr/bin/env bash
# Classifies 4x4 and 5x5 (both metrics) with the symbolic engine and records each run in
# results/NAME/: classification.h5, summary.md (command, summary, per-layer progress lines).
# Usage: results/small_results.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-build/rushhour}"
for n in 4 5; do
  for metric in step move; do
    name="${n}x${n}-${metric}"
    run_dir="runs/$name"
    mkdir -p "results/$name"
    args=(classify --size "$n" --metric "$metric" --out "$run_dir")
    /usr/bin/time -v "$binary" "${args[@]}" > "results/$name/stdout.txt" 2> "results/$name/stderr.txt"
    cp "$run_dir/classification.h5" "results/$name/classification.h5"
    {
      echo "# ${n}x${n}, ${metric} metric"
      echo
      echo "Command: \`rushhour ${args[*]}\` ($(grep -E 'User time|Elapsed|Maximum resident' "results/$name/stderr.txt" | sed 's/^\s*//' | paste -sd ';' -))"
      echo
      echo '```'
      cat "results/$name/stdout.txt"
      echo '```'
      echo
      echo "Progress lines (stderr):"
      echo
      echo '```'
      grep -E '^(layer|encoding|dominance)' "results/$name/stderr.txt"
      echo '```'
    } > "results/$name/summary.md"
    rm "results/$name/stdout.txt" "results/$name/stderr.txt"
  done
done
