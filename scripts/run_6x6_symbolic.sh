#!/usr/bin/env bash
# Runs one of the 6x6 bdd-engine jobs of every figure (configs/6x6-symbolic-METRIC.cfg,
# METRIC = step or move) under /usr/bin/time -v, resuming from what runs/6x6-symbolic-METRIC
# holds of an earlier segment (its part files or its parts checkpoint). Hours on 2 cores: stop
# it (Ctrl-C, SIGTERM) and run the script again to continue.
# A segment that ends unfinished keeps the run so far in results/6x6-METRIC/symbolic/: the parts
# checkpoint (with --part-files figures), the progress log, the printed summaries and time's
# report; on a machine without runs/6x6-symbolic-METRIC the script continues from those. Once
# the run is complete it keeps classification.h5 there instead of the checkpoint.
# Usage: scripts/run_6x6_symbolic.sh METRIC [BINARY] [-- MORE CLASSIFY OPTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
metric="${1:?usage: run_6x6_symbolic.sh step|move [BINARY]}"
binary="${2:-build/rushhour}"
shift $(( $# >= 2 ? 2 : 1 ))
[[ "${1:-}" == "--" ]] && shift
config="configs/6x6-symbolic-$metric.cfg"
[[ -f "$config" ]] || { echo "run_6x6_symbolic.sh: no $config" >&2; exit 2; }
run_dir="runs/6x6-symbolic-$metric"
keep="results/6x6-$metric/symbolic"
checkpoint="$run_dir/parts-checkpoint.txt"
mkdir -p runs
if [[ ! -d "$run_dir/parts" && ! -f "$checkpoint" && -f "$keep/parts-checkpoint.txt" ]]; then
  echo "run_6x6_symbolic.sh: continuing the run kept in $keep" >&2
  mkdir -p "$run_dir"
  cp "$keep/parts-checkpoint.txt" "$checkpoint"
  cp "$keep/progress.log" "$run_dir.log"
  cp "$keep/run.out" "$run_dir.out"
  cp "$keep/time-v.txt" "$run_dir.time"
fi
resume=()
[[ -d "$run_dir/parts" || -f "$checkpoint" ]] && resume=(--resume)
status=0
/usr/bin/time -v "$binary" classify --config "$config" -q "${resume[@]}" "$@" \
  >> "$run_dir.out" 2>> "$run_dir.time" || status=$?
mkdir -p "$keep"
cp "$run_dir.log" "$keep/progress.log"
cp "$run_dir.out" "$keep/run.out"
grep -E "Elapsed|User time|System time|Maximum resident|Percent of CPU" "$run_dir.time" > "$keep/time-v.txt"
if (( status != 0 )); then
  [[ -f "$checkpoint" ]] && cp "$checkpoint" "$keep/parts-checkpoint.txt"
  echo "run_6x6_symbolic.sh: the run ended with status $status; the run so far is kept in $keep;" \
       "run the script again to resume" >&2
  exit "$status"
fi
rm -f "$keep/parts-checkpoint.txt"
cp "$run_dir/classification.h5" "$keep/"
echo "kept $keep: $(tr '\n' ' ' < "$keep/time-v.txt")"
