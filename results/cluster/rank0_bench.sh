#!/usr/bin/env bash
# Rank 0 at scale (results/cluster.md, "Rank 0 at scale"): what one work item costs the
# coordinator's thread when the items come through MPI from other ranks. bench/rank0_bench.cpp
# records the figures of real 7x7 work items once (every STRIDE-th item of the full board), then
# replays them as the items of part 1/PARTS of the 7x7 class sweep over R ranks; rank 0's main
# thread CPU over two job sizes (PARTS = 400 and 100: 48 704 and 194 880 items) gives the
# marginal CPU per item, without the job's set-up. Binaries given as A and B run alternately,
# ROUNDS times each.
# Usage: results/cluster/rank0_bench.sh BENCH_A [BENCH_B] [RANKS] [ROUNDS] [STRIDE]
#   BENCH: a rank0_bench binary (built with the benchmarks, as by default); defaults:
#   RANKS 5, ROUNDS 2, STRIDE 100003 (195 items recorded).
# Prints one markdown row per run: binary, ranks, rank 0's main thread CPU for each size, the
# marginal microseconds per item, messages rank 0 received, and the load average at the start.
set -euo pipefail
bench_a=$1
bench_b=${2:-}
ranks=${3:-5}
rounds=${4:-2}
stride=${5:-100003}
command -v mpirun >/dev/null || { echo "rank0_bench.sh: no mpirun (scripts/setup.sh)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$bench_a" record "$scratch/items.bin" 7 "$stride"

replay() {  # binary, parts: prints "cpu messages"
  rm -rf "$scratch/run"
  mpirun --oversubscribe -np "$ranks" "$1" replay "$scratch/items.bin" 7 "$2" "$scratch/run" \
    >"$scratch/out" 2>"$scratch/err"
  local cpu messages
  cpu=$(sed -n 's/.*rank 0 main thread CPU \([0-9.]*\) s.*/\1/p' "$scratch/out")
  messages=$(sed -n 's/.*, \([0-9]*\) messages from ranks).*/\1/p' "$scratch/err" | tail -1)
  echo "$cpu ${messages:-?}"
}

echo "| binary | ranks | CPU, 48 704 items (s) | CPU, 194 880 items (s) | marginal µs per item | messages (small, large) | load |"
echo "|---|---|---|---|---|---|---|"
for ((round = 0; round < rounds; ++round)); do
  for bench in "$bench_a" $bench_b; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    read -r small small_messages < <(replay "$bench" 400)
    read -r large large_messages < <(replay "$bench" 100)
    marginal=$(echo "scale=2; 1000000 * ($large - $small) / (194880 - 48704)" | bc)
    echo "| $bench | $ranks | $small | $large | $marginal | $small_messages, $large_messages | $load |"
  done
done
