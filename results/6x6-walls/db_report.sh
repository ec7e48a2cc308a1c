#!/usr/bin/env bash
# The report of a finished puzzle database sweep that counted its minimal clusters
# (--minimal-counts) and kept the records of the hardest ones (--clusters-min-index), with both
# metrics in every record (--clusters-metrics both), as configs/6x6-puzzle-walls1-db.cfg.
# Writes into OUT:
# - census.md: the census per number of walls (scripts/census_walls.py), then per highest index
#   (--per-index): the clusters, and the minimal clusters under each rule counted;
# - RULE/: per rule of RULES and per metric, scripts/clusters_minimal.sh's files: the minimal
#   clusters per highest index (below the records' least index from the census, under the
#   sweep's metric), their summary, and the 1000 hardest minimal puzzles as text;
# - minimal-per-index.svg: those counts per highest index, a line per rule and metric
#   (scripts/plot_clusters.py);
# - hardest-METRIC.txt: per metric, the clusters of the highest index under it, minimal or not
#   (rushhour query --clusters DATABASE --metric METRIC --hardest).
# Usage: [RULES="any public"] results/6x6-walls/db_report.sh RUN_DIR DATABASE OUT [BINARY]
set -euo pipefail
usage="usage: [RULES=\"any public\"] db_report.sh RUN_DIR DATABASE OUT [BINARY]"
run="${1:?$usage}"
database="${2:?$usage}"
out="${3:?$usage}"
binary="${4:-build/rushhour}"
read -r -a rules <<< "${RULES:-any public}"
scripts="$(cd "$(dirname "$0")/../../scripts" && pwd)"
census="$run/classes-checkpoint.txt"
mkdir -p "$out"
{
  echo "# The census of the sweep"
  echo
  echo "\`/usr/bin/python3 scripts/census_walls.py $census\`:"
  echo
  /usr/bin/python3 "$scripts/census_walls.py" "$census" | tail -n +3
  echo
  echo "Per highest index (\`--per-index\`):"
  echo
  /usr/bin/python3 "$scripts/census_walls.py" --per-index "$census" | tail -n +3
} > "$out/census.md"
summaries=()
labels=()
for rule in "${rules[@]}"; do
  for metric in move step; do
    RULE="$rule" "$scripts/clusters_minimal.sh" "$database" "$metric" "$out/$rule" "$binary" 2 > /dev/null
    summaries+=("$out/$rule/minimal-$metric.txt")
    labels+=(--label "$rule rule")
  done
done
/usr/bin/python3 "$scripts/plot_clusters.py" "${summaries[@]}" "${labels[@]}" \
  --title "Minimal puzzles per highest index" --out "$out/minimal-per-index.svg"
for metric in move step; do
  "$binary" query --clusters "$database" --metric "$metric" --hardest > "$out/hardest-$metric.txt"
done
