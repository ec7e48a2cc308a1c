#!/usr/bin/env bash
# The partition study (results/partition-study.md): the bdd engine on 6x6 with each
# granularity of --partition, on a fixed sample of parts (every K-th), against the
# unpartitioned engine, one configuration after the other in one run.
# Usage: results/partition-study/partition_study.sh [BUILD_DIR] [LAYERS] [METRIC] [LABEL=OPTIONS ...]
#   (defaults: build, 10, step). With LABEL=OPTIONS arguments, only those configurations run,
#   in that order, e.g. "rows, every 61st part=--partition rows --part-sample 61 --part-workers 1";
#   the word OUT in OPTIONS stands for a fresh scratch directory (for --out), removed afterwards.
#   Without them, the study's own configurations run.
# Prints one markdown row per configuration: CPU and wall seconds, peak RSS, configurations
# classified (in the first LAYERS layers, or all with LAYERS = all), CPU ns per configuration,
# BDD nodes of the layers (summed over the parts, scaled to the whole domain by the sampled
# share of the domain), the largest node table, the uptime load, and perf stat's counters.
set -euo pipefail
build=${1:-build}
layers=${2:-10}
metric=${3:-step}
bin="$build/rushhour"
[[ -x "$bin" ]] || { echo "partition_study.sh: no $bin (build first)" >&2; exit 2; }
domain=40148868698  # 6x6, SPEC §2
limit=()
[[ "$layers" == all ]] || limit=(--max-layers "$layers")
shift $(($# < 3 ? $# : 3))
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run() {  # label, extra options...
  local label=$1; shift
  local log; log=$(mktemp)
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  local options=() word
  for word in "$@"; do
    if [[ "$word" == OUT ]]; then rm -rf "$scratch/out"; options+=("$scratch/out"); else options+=("$word"); fi
  done
  set -- "${options[@]}"
  perf stat -x, -e cache-misses,cache-references,instructions,cycles,task-clock \
    -o "$log.perf" /usr/bin/time -f '%U %S %e %M' -o "$log.time" \
    "$bin" classify --size 6 --metric "$metric" --no-dominance --samples 0 "${limit[@]}" "$@" >"$log.out" 2>"$log"
  read -r user sys wall rss_kib <"$log.time"
  local cpu; cpu=$(echo "$user + $sys" | bc)
  local sampled classified nodes table
  sampled=$(sed -n 's/^domain \([0-9]*\),.*/\1/p' "$log.out")
  # Every configuration of the sampled parts is classified in a complete run; otherwise those
  # of the layers computed.
  classified=$(sed -n 's/.*, solvable \([0-9]*\),.*/\1/p' "$log.out")
  [[ "$layers" != all ]] || classified=$sampled
  nodes=$(grep '^layer ' "$log" | awk '{gsub(",","",$5); s += $5} END {print s}')
  table=$(grep -o 'largest node table [0-9]*' "$log" | tail -1 | awk '{print $4}' || true)
  [[ -n "$table" ]] || table=$(grep -o 'table [0-9]*' "$log" | tail -1 | awk '{print $2}' || true)
  # "n/s": the event is not supported (e.g. a virtual machine without a PMU).
  local counters; counters=$(awk -F, '/cache|instructions|cycles/ {
    printf "%s%s %s", (n++ ? ", " : ""), $3, ($1 ~ /not supported/ ? "n/s" : $1) }' "$log.perf")
  awk -v label="$label" -v cpu="$cpu" -v wall="$wall" -v rss="$rss_kib" -v sampled="$sampled" \
      -v classified="$classified" -v nodes="$nodes" -v table="$table" -v domain="$domain" \
      -v load="$load" -v counters="$counters" 'BEGIN {
    share = sampled / domain
    printf "| %s | %.1f | %.1f | %.0f | %.4f | %.0f | %.0f | %.0f | %s | %.0f | %s | %s |\n",
      label, cpu, wall, rss / 1024, share, classified, 1e9 * cpu / classified, nodes / share,
      table, cpu / share, load, counters }'
  rm -f "$log" "$log.out" "$log.time" "$log.perf"
  rm -rf "$scratch/out"
}

echo "| configuration | CPU s | wall s | peak RSS MiB | domain share | configurations classified | CPU ns / configuration | layer nodes, scaled to the domain | largest node table | CPU s, scaled to the domain | load | perf: counters |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
if (($# > 0)); then
  for configuration in "$@"; do
    read -r -a options <<<"${configuration#*=}"
    run "${configuration%%=*}" "${options[@]}"
  done
  exit 0
fi
# Every layer of the whole domain takes hours here: the complete runs are of part samples only.
if [[ "$layers" != all ]]; then
  run "none" --partition none --bdd-nodes 8000000 --bdd-cache 1000000
  run "exit-row (4 parts)" --partition exit-row --part-workers 1
fi
run "rows, every 97th part" --partition rows --part-sample 97 --part-workers 1
run "rows, every 101st part" --partition rows --part-sample 101 --part-workers 1
run "rows+1, every 997th part" --partition rows+1 --part-sample 997 --part-workers 1
run "rows+2, every 7919th part" --partition rows+2 --part-sample 7919 --part-workers 1
