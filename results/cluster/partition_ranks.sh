#!/usr/bin/env bash
# A partitioned bdd run's parts dealt over MPI ranks (docs/cluster.md): the same sample of the
# 6x6 rows parts (every K-th part, complete layers, --no-dominance) by one process, by
# `mpirun -np 1` and by `mpirun -np 2`, side by side in one run (results/cluster.md).
# Usage: results/cluster/partition_ranks.sh [BUILD_DIR] [K]   (defaults: build, 997)
# Prints one markdown row per run: CPU seconds (user + system, every rank included: mpirun
# waits for its ranks), wall seconds, the md5 sum of the summary (timings removed), the
# per-rank lines of rank 0's report (parts and CPU seconds per rank), and the load average
# when the run started (the machine may be shared).
set -euo pipefail
build=${1:-build}
stride=${2:-997}
bin="$build/rushhour"
[[ -x "$bin" ]] || { echo "partition_ranks.sh: no $bin (build first)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "partition_ranks.sh: no mpirun (scripts/setup.sh)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
options=(classify --size 6 --samples 0 --no-dominance --partition rows --part-sample "$stride" --part-workers 1)

run() {  # label, launcher words...
  local label=$1; shift
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%U %S %e' -o "$scratch/time" "$@" "$bin" "${options[@]}" >"$scratch/out" 2>"$scratch/err"
  read -r user sys wall <"$scratch/time"
  local sum ranks
  sum=$(grep -v ' s, peak RSS' "$scratch/out" | md5sum | cut -c1-8)
  ranks=$( (grep -E '^rank [0-9]+: ' "$scratch/err" || true) | sed 's/ s$//' | paste -sd';' - | sed 's/;/; /g')
  printf '| %s | %.1f | %.1f | %s | %s | %s |\n' "$label" "$(echo "$user + $sys" | bc)" "$wall" "$sum" \
    "${ranks:--}" "$load"
}

echo "| run | CPU s | wall s | summary md5 | per rank | load |"
echo "|---|---|---|---|---|---|"
run "one process" env
run "mpirun -np 1" mpirun -np 1
run "mpirun -np 2" mpirun --oversubscribe -np 2
