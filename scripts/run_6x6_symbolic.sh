#!/usr/bin/env bash
# Runs one of the 6x6 bdd-engine jobs of every figure (configs/6x6-symbolic-METRIC.cfg,
# METRIC = step or move) under /usr/bin/time -v, resuming from the parts saved in
# runs/6x6-symbolic-METRIC/parts when there are any; once the run is complete, copies what
# results/ keeps into results/6x6-METRIC/symbolic/: classification.h5, the progress log, the
# printed summary (run.out) and time's report. Hours on 2 cores: stop it (Ctrl-C, SIGTERM) and
# run the script again to continue.
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
resume=()
[[ -d "$run_dir/parts" ]] && resume=(--resume)
mkdir -p runs
status=0
/usr/bin/time -v "$binary" classify --config "$config" -q "${resume[@]}" "$@" \
  >> "$run_dir.out" 2>> "$run_dir.time" || status=$?
if (( status != 0 )); then
  echo "run_6x6_symbolic.sh: the run ended with status $status; run the script again to resume" >&2
  exit "$status"
fi
mkdir -p "$keep"
cp "$run_dir/classification.h5" "$keep/"
cp "$run_dir.log" "$keep/progress.log"
cp "$run_dir.out" "$keep/run.out"
grep -E "Elapsed|User time|System time|Maximum resident|Percent of CPU" "$run_dir.time" > "$keep/time-v.txt"
echo "kept $keep: $(tr '\n' ' ' < "$keep/time-v.txt")"
