#!/usr/bin/env bash
# The 7x7 projection (results/7x7/projection.md): `classify --estimate` of the full 7x7 job,
# both metrics, the default rules for large classes (dense ones on bit sets, sparse ones above
# 2^22 states symbolic), on two threads: items sized without solving them, stratified by size,
# ITEMS items drawn by size (those above 2^28 configurations by four of their classes), each
# projection with its 95 % interval. Only the time lines of /usr/bin/time -v that matter are kept.
# Usage: results/7x7/projection_7x7.sh [BINARY] [SEED] [ITEMS]
set -euo pipefail
binary="${1:-build/rushhour}"
seed="${2:-1}"
items="${3:-128}"
for metric in step move; do
  echo "== 7x7 $metric, --estimate --estimate-seed $seed --estimate-items $items"
  /usr/bin/time -v "$binary" classify --engine classes --size 7 --metric "$metric" --threads 2 \
    --estimate --estimate-seed "$seed" --estimate-items "$items" -q 2>&1 |
    grep -E -v '^\s+(Average|Exit|Socket|Signals|Swaps|File system|Page size|Minor|Major|Voluntary|Involuntary|Percent|Command)'
done
