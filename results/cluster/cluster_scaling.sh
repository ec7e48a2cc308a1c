#!/usr/bin/env bash
# 1 vs 2 MPI ranks on a 6x6 work sample of the class engine (results/cluster.md): part K/N of
# the 6x6 step sweep run by one process, by mpirun -np 1 and by mpirun -np 2, one thread each.
# usage: results/cluster/cluster_scaling.sh [BINARY] [PART, default 1/61]
set -euo pipefail
binary="${1:-build/rushhour}"
part="${2:-1/61}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(classify --size 6 --engine classes --metric step --threads 1 --items "$part" --checkpoint-seconds 100000)
run() {  # label, command...
  local label=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/$label.time" "$@" --out "$work/$label" >"$work/$label.out" 2>"$work/$label.err"
  read -r wall user sys <"$work/$label.time"
  echo "$label: wall ${wall} s, CPU $(awk "BEGIN { print $user + $sys }") s"
  grep -hE "^classes: (.* )?work items [0-9]+/[0-9]+" "$work/$label.err" | tail -1
  # The final report's line per rank (items, configurations, busy and CPU seconds).
  if (( ranks > 0 )); then grep -h "^classes: rank " "$work/$label.err" | tail -n "$ranks" || true; fi
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
ranks=0 run single "$binary" "${args[@]}"
ranks=1 run mpi1 mpirun --oversubscribe -np 1 "$binary" "${args[@]}"
ranks=2 run mpi2 mpirun --oversubscribe -np 2 "$binary" "${args[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for label in single mpi1 mpi2; do sed 1,2d "$work/$label/classes-checkpoint.txt" | grep -v -e '^seconds ' -e '^checksum ' | md5sum | sed "s/-/$label figures/"; done
