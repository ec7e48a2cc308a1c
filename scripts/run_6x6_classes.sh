#!/usr/bin/env bash
# Runs one of the 6x6 class-engine jobs (configs/6x6-classes-JOB.cfg, JOB = step, move or
# commercial) under /usr/bin/time -v, then copies what results/ keeps into
# results/6x6-JOB/classes/: classification.h5, the census (classes-checkpoint.txt, from which
# `rushhour query` answers), the progress log, the printed summary (run.out) and time's report.
# Usage: scripts/run_6x6_classes.sh JOB [BINARY] [-- MORE CLASSIFY OPTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
job="${1:?usage: run_6x6_classes.sh step|move|commercial [BINARY]}"
binary="${2:-build/rushhour}"
shift $(( $# >= 2 ? 2 : 1 ))
[[ "${1:-}" == "--" ]] && shift
config="configs/6x6-classes-$job.cfg"
[[ -f "$config" ]] || { echo "run_6x6_classes.sh: no $config" >&2; exit 2; }
run_dir="runs/6x6-classes-$job"
keep="results/6x6-$job/classes"
mkdir -p runs "$keep"
/usr/bin/time -v "$binary" classify --config "$config" --out "$run_dir" --log "$run_dir.log" -q "$@" \
  > "$run_dir.out" 2> "$run_dir.time"
cp "$run_dir/classification.h5" "$run_dir/classes-checkpoint.txt" "$keep/"
cp "$run_dir.log" "$keep/progress.log"
cp "$run_dir.out" "$keep/run.out"
grep -E "Elapsed|User time|System time|Maximum resident|Percent of CPU" "$run_dir.time" > "$keep/time-v.txt"
echo "kept $keep: $(tr '\n' ' ' < "$keep/time-v.txt")"
