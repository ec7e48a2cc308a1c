#!/usr/bin/env bash
# The report of every committed result (each directory with a classification.h5, and the
# committed puzzle database), each page checked in headless Chromium (scripts/report_browser.py
# --check: figures against the files, the first K players played to the exit), and the
# screenshots shown in README. Prints one line per page; exit 1 if a page fails.
#   [PLAYERS=K] bash results/reports/run.sh [BINARY]     (default build/rushhour, K = 2)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/rushhour}
players=${PLAYERS:-2}
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
status=0
check() {  # NAME REPORT-ARGS... -- CHECK-ARGS...
  local name=$1; shift
  local report=() checkargs=()
  while [[ $1 != -- ]]; do report+=("$1"); shift; done; shift
  checkargs=("$@")
  local page="$pages/$(echo "$name" | tr -c 'A-Za-z0-9.\n-' '_').html" start=$SECONDS
  out=""
  if "$binary" report "${report[@]}" --out "$page" >/dev/null &&
     out=$(/usr/bin/python3 scripts/report_browser.py "$page" --check "${checkargs[@]}" --players "$players" 2>&1); then
    printf '| %s | %s | pass: %s | %d s |\n' "$name" "$(du -k "$page" | cut -f1) KiB" \
      "$(echo "$out" | head -1)" $((SECONDS - start))
  else
    printf '| %s | | FAIL: %s | |\n' "$name" "$(echo "${out:-report failed}" | tail -1)"
    status=1
  fi
}
echo "| result | page | browser check | time |"
echo "|---|---|---|---|"
for file in $(git ls-files 'results/*classification.h5' | grep '/classification.h5$'); do
  dir=$(dirname "$file")
  check "${dir#results/}" --run "$dir" -- --run "$dir"
done
check "6x6-puzzle/clusters-40 (database)" --clusters results/6x6-puzzle/clusters-40/clusters.h5 -- \
  --clusters results/6x6-puzzle/clusters-40/clusters.h5
demo=$(mktemp -d)
"$binary" classify --config configs/demo-5x5.cfg --out "$demo/demo-5x5" -q >/dev/null
check "demo-5x5 (README's first command)" --run "$demo/demo-5x5" -- --run "$demo/demo-5x5"
rm -rf "$demo"
# Screenshots of the 6x6 pages for README: the run page at its top and at its hardest
# configurations, the database page at its puzzles.
"$binary" report --run results/6x6-step/classes --out "$pages/shot.html" >/dev/null
/usr/bin/python3 scripts/report_browser.py "$pages/shot.html" --screenshot results/reports/6x6-step.png \
  --width 1200 --height 1300 >/dev/null
/usr/bin/python3 scripts/report_browser.py "$pages/shot.html" --screenshot results/reports/6x6-step-hardest.png \
  --width 1200 --height 1300 --anchor hardest >/dev/null
"$binary" report --clusters results/6x6-puzzle/clusters-40/clusters.h5 --top 2 --out "$pages/db.html" >/dev/null
/usr/bin/python3 scripts/report_browser.py "$pages/db.html" --screenshot results/reports/6x6-puzzle-database.png \
  --width 1200 --height 1300 --anchor puzzles >/dev/null
exit $status
