#!/usr/bin/env bash
# Two builds of the bdd engine side by side on the same samples of 6x6 `--partition rows`
# parts (results/partition-study.md): for each K, the old build then the new one, every layer
# of every K-th part, no samples, one part at a time; no dominance, or with --dominance each
# part's symbolic dominance pass. Prints one markdown row per run (CPU s user+sys, wall s, peak
# RSS, CPU scaled to the whole domain by the sampled share, the uptime load) and checks that
# both builds print the same figures.
# Usage: results/partition-study/partition_speed.sh OLD_BUILD NEW_BUILD [METRIC] [--dominance] K [K ...]
#   e.g. results/partition-study/partition_speed.sh /tmp/main-build build step 211 97
set -euo pipefail
usage="usage: partition_speed.sh OLD_BUILD NEW_BUILD [METRIC] [--dominance] K [K ...]"
(($# >= 3)) || { echo "$usage" >&2; exit 2; }
old=$1 new=$2
shift 2
metric=step
[[ "$1" =~ ^[0-9]+$ || "$1" == --dominance ]] || { metric=$1; shift; }
dominance=(--no-dominance)
if [[ "${1:-}" == --dominance ]]; then
  dominance=(--dominance-by symbolic)
  shift
fi
(($# >= 1)) || { echo "$usage" >&2; exit 2; }
for k in "$@"; do
  [[ "$k" =~ ^[1-9][0-9]*$ ]] || { echo "partition_speed.sh: K must be a positive integer, not '$k'" >&2; exit 2; }
done
for build in "$old" "$new"; do
  [[ -x "$build/rushhour" ]] || { echo "partition_speed.sh: no $build/rushhour (build first)" >&2; exit 2; }
done
domain=40148868698  # 6x6, SPEC §2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "| build | sample | parts | CPU s | wall s | peak RSS MiB | CPU s, scaled by share | load |"
echo "|---|---|---|---|---|---|---|---|"
status=0
for k in "$@"; do
  for which in old new; do
    build=$old
    [[ "$which" == new ]] && build=$new
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%U %S %e %M' -o "$scratch/time" "$build/rushhour" classify --size 6 --metric "$metric" \
      "${dominance[@]}" --samples 0 --partition rows --part-sample "$k" --part-workers 1 >"$scratch/$which.out" 2>"$scratch/log"
    read -r user sys wall rss_kib <"$scratch/time"
    parts=$(grep -o 'parts [0-9]*/[0-9]*' "$scratch/log" | tail -1 | cut -d/ -f2)
    sampled=$(sed -n 's/^domain \([0-9]*\),.*/\1/p' "$scratch/$which.out")
    awk -v b="$which ($build)" -v k="$k" -v parts="$parts" -v user="$user" -v sys="$sys" -v wall="$wall" \
        -v rss="$rss_kib" -v sampled="$sampled" -v domain="$domain" -v load="$load" 'BEGIN {
      cpu = user + sys
      printf "| %s | every %dth part | %s | %.1f | %.1f | %.0f | %.0f | %s |\n",
        b, k, parts, cpu, wall, rss / 1024, cpu * domain / sampled, load }'
    # The figures only: the closing line holds the time and the peak RSS.
    grep -v ' s, peak RSS ' "$scratch/$which.out" >"$scratch/$which.figures"
  done
  if ! diff -q "$scratch/old.figures" "$scratch/new.figures" >/dev/null; then
    echo "every ${k}th part: the builds' figures differ" >&2
    diff "$scratch/old.figures" "$scratch/new.figures" >&2 || true
    status=1
  fi
done
exit $status
