#!/usr/bin/env bash
# The variable-order table of the slot encoding: BDD nodes of the domain (legal set),
# winning set and step relation, and build seconds, for n = 4..7, every order and line code.
# Usage: results/order-table/order_table.sh [BINARY] [TIME_LIMIT_SECONDS] [NODE_CEILING] > results/order-table.md
# A cell over the time limit or the node ceiling (default 100 M nodes, ~4 GB) shows n/a.
set -euo pipefail
binary="${1:-build/rushhour}"
limit="${2:-300}"
ceiling="${3:-100000000}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "| n | order | line code | variables | domain nodes | winning nodes | step relation nodes | build s |"
echo "|---|---|---|---|---|---|---|---|"
for n in 4 5 6 7; do
  for order in interleaved rows-columns columns-rows; do
    for code in slot index; do
      : > "$log"
      if timeout "$limit" "$binary" classify --size "$n" --order "$order" --line-code "$code" \
           --max-layers 1 --no-dominance --samples 0 -q --bdd-max-nodes "$ceiling" --log "$log" \
           > /dev/null 2>&1; then
        line="$(grep '^encoding' "$log")"
        vars="$(sed -E 's/.*: ([0-9]+) variables.*/\1/' <<< "$line")"
        domain="$(sed -E 's/.*domain ([0-9]+) nodes.*/\1/' <<< "$line")"
        winning="$(sed -E 's/.*winning ([0-9]+) nodes.*/\1/' <<< "$line")"
        relation="$(sed -E 's/.*transition parts ([0-9]+) nodes.*/\1/' <<< "$line")"
        seconds="$(sed -E 's/.*built in ([0-9.]+) s.*/\1/' <<< "$line")"
        printf '| %s | %s | %s | %s | %s | %s | %s | %.2f |\n' "$n" "$order" "$code" "$vars" \
          "$domain" "$winning" "$relation" "$seconds"
      else
        echo "| $n | $order | $code | | n/a (over ${limit} s or ${ceiling} nodes) | | | |"
      fi
    done
  done
done
