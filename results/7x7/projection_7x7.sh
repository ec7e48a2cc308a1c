#!/usr/bin/env bash
# The 7x7 projection's measurement (results/7x7/projection.md): the fixed work sample of
# results/7x7/class-sizes.md (every 100 003rd work item), one thread, every class explicit
# (--symbolic-above bound) and with the default rule (auto), both metrics, side by side.
# Each run prints the solved classes per size bucket with their CPU time on each path.
# Usage: results/7x7/projection_7x7.sh [BINARY]
set -euo pipefail
binary="${1:-build/rushhour}"
for metric in step move; do
  for above in bound auto; do
    echo "== 7x7 $metric, work sample 1/100003, --symbolic-above $above"
    /usr/bin/time -v "$binary" classify --engine classes --size 7 --metric "$metric" --threads 1 \
      --work-sample 100003 --max-memory 8G --symbolic-above "$above" -q 2>&1 |
      grep -v -E '^\s+(Average|Exit|Socket|Signals|Swaps|File system|Page size|Minor|Major|Voluntary|Involuntary|Percent|Command|Elapsed)'
  done
done
