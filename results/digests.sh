#!/usr/bin/env bash
# Re-checks every committed result with `rushhour verify` and writes results/digests.md: each
# result's engine, which figures it holds and its run digest. Exit 1 if a check fails.
# Usage: bash results/digests.sh [BINARY]   (default build/rushhour)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-build/rushhour}
out=results/digests.md
{
  echo "# Run digests of the committed results"
  echo
  echo "\`bash results/digests.sh\` runs \`rushhour verify --run DIR\` on every committed result (every"
  echo "check passed on each directory below) and lists the run digest it prints. Runs with the same"
  echo "figures have the same digest whatever their engine, threads, ranks or segments"
  echo "(storage/run_digest.hpp); a run that lacks some figures (no dominance pass, or components not"
  echo "counted at some indices: -1 in classification.h5) has a digest of its own."
  echo
  echo "| result | engine | dominance figures | digest |"
  echo "|---|---|---|---|"
  for file in $(find results -name classification.h5 | LC_ALL=C sort); do
    dir=$(dirname "$file")
    report=$("$binary" verify --run "$dir") || { echo "verify failed on $dir:" >&2; echo "$report" >&2; exit 1; }
    engine=$(sed -n 's/^ok    result: .*, engine \([a-z]*\);.*/\1/p' <<<"$report")
    digest=$(sed -n 's/^run digest \([0-9a-f]*\).*/\1/p' <<<"$report")
    dominance=$(/usr/bin/python3 - "$file" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1]) as f:
    components = f["dominance/components"][:]
    if len(f["dominance/nondominated"]) == 0: print("none")
    elif (components < 0).any(): print("components at %d of %d indices" % ((components >= 0).sum(), len(components)))
    else: print("all")
PY
)
    echo "| \`$dir\` | $engine | $dominance | \`$digest\` |"
  done
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
