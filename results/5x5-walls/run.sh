#!/usr/bin/env bash
# The 5x5 board with 0 to 2 walls, classified by the class engine: the full domain and the
# puzzle domain, each under both metrics, and the puzzle domain's database (move metric, both
# metrics in every record) with its minimal puzzles under each rule. Writes into
# results/5x5-walls/ (runs in runs/5x5-walls/, not kept): per run DIR/classification.h5,
# DIR/classes-checkpoint.txt (the census per walls, cars and trucks), DIR/summary.md.
# Usage: results/5x5-walls/run.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-build/rushhour}"
out=results/5x5-walls
runs=runs/5x5-walls
mkdir -p "$runs"
for domain in all puzzle; do
  for metric in step move; do
    name="$domain-$metric"
    rm -rf "${runs:?}/$name"
    mkdir -p "$out/$name"
    args=(classify --engine classes --size 5 --walls 2 --domain "$domain" --metric "$metric" --threads 2
          --out "$runs/$name")
    /usr/bin/time -v "$binary" "${args[@]}" > "$runs/$name.stdout" 2> "$runs/$name.stderr"
    cp "$runs/$name/classification.h5" "$runs/$name/classes-checkpoint.txt" "$out/$name/"
    {
      echo "# 5×5, 0–2 walls, $domain domain, $metric metric"
      echo
      echo "Command: \`rushhour ${args[*]}\` ($(grep -E 'User time|System time|Elapsed|Maximum resident' "$runs/$name.stderr" | sed 's/^\s*//' | paste -sd ';' -))"
      echo
      echo '```'
      cat "$runs/$name.stdout"
      echo '```'
      echo
      echo "Per number of walls (\`/usr/bin/python3 scripts/census_walls.py $out/$name/classes-checkpoint.txt\`):"
      echo
      /usr/bin/python3 scripts/census_walls.py "$out/$name/classes-checkpoint.txt" | tail -n +3
    } > "$out/$name/summary.md"
  done
done

# The puzzle domain's database: every cluster with its move and step figures, per highest
# index and per number of walls; then, per metric and minimal rule, a sweep that keeps the
# minimal clusters (--minimal: tested on the worker threads, cheaper than a query's test after
# the sweep, which searches a cluster again where the rule needs its other hardest
# configurations), counted the same ways.
count_clusters() {  # DB METRIC: the clusters per highest index, in all and per number of walls
  for walls in all 0 1 2; do
    filter=(); [ "$walls" = all ] || filter=(--walls "$walls")
    echo "\$ rushhour query --clusters $(basename "$1") --metric $2 --count ${filter[*]}"
    "$binary" query --clusters "$1" --metric "$2" --count "${filter[@]}"
  done
}
db="$runs/puzzle-move.h5"
rm -f "$db"
args=(classify --engine classes --size 5 --walls 2 --domain puzzle --metric move --threads 2
      --clusters-metrics both --clusters "$db" --clusters-text "$runs/puzzle-move.txt" -q)
/usr/bin/time -v "$binary" "${args[@]}" > /dev/null 2> "$runs/database.stderr"
{
  echo "# The 5×5 puzzle domain with 0–2 walls: its puzzle database"
  echo
  echo "Command: \`rushhour ${args[*]}\` ($(grep -E 'User time|System time|Elapsed|Maximum resident' "$runs/database.stderr" | sed 's/^\s*//' | paste -sd ';' -))"
  echo
  for metric in move step; do
    echo "## Every cluster, $metric metric"
    echo
    echo '```'
    count_clusters "$db" "$metric"
    echo '```'
    echo
  done
  for metric in move step; do
    for rule in any canonical public; do
      minimal="$runs/puzzle-$metric-minimal-$rule.h5"
      rm -f "$minimal"
      args=(classify --engine classes --size 5 --walls 2 --domain puzzle --metric "$metric" --threads 2
            --minimal --minimal-rule "$rule" --clusters "$minimal" -q)
      /usr/bin/time -v "$binary" "${args[@]}" > /dev/null 2> "$runs/minimal.stderr"
      echo "## Minimal puzzles, $metric metric, rule $rule"
      echo
      echo "Command: \`rushhour ${args[*]}\` ($(grep -E 'User time|System time|Elapsed|Maximum resident' "$runs/minimal.stderr" | sed 's/^\s*//' | paste -sd ';' -))"
      echo
      echo '```'
      count_clusters "$minimal" "$metric"
      echo '```'
      echo
    done
  done
} > "$out/database.md"
head -n 1000 "$runs/puzzle-move.txt" > "$out/puzzle-move-hardest-1000.txt"
"$binary" query --clusters "$runs/puzzle-move-minimal-public.h5" --hardest --sample 100 \
  > "$out/puzzle-move-hardest-minimal-public.txt"
