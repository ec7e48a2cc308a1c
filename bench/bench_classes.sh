#!/usr/bin/env bash
# The class engine benchmark: a fixed sample of the full 6x6 board's work items (every K-th,
# default 397: about 1/850 of the configurations), both metrics, then the full 5x5 run.
# Prints configurations per second, wall and CPU seconds and peak RSS.
# Usage: bench/bench_classes.sh [K] [BINARY] [THREADS]
set -euo pipefail
stride="${1:-397}"
binary="${2:-build/rushhour}"
threads="${3:-0}"
for metric in step move; do
  echo "== 6x6 $metric, work sample 1/$stride, threads $threads"
  /usr/bin/time -f 'wall %e s, CPU %U s, peak RSS %M KiB' \
    "$binary" classify --engine classes --size 6 --metric "$metric" --threads "$threads" \
    --work-sample "$stride" -q 2>&1
done
echo "== 5x5 step, full"
/usr/bin/time -f 'wall %e s, CPU %U s, peak RSS %M KiB' \
  "$binary" classify --engine classes --size 5 --threads "$threads" -q 2>&1 | tail -1
