#!/usr/bin/env bash
# The minimal puzzles of a cluster database written without --minimal, found after the sweep
# (`rushhour query --clusters DB --minimal`), under one metric (the database's, or either of a
# --clusters-metrics both database). Writes into KEEP_DIR:
# - minimal-METRIC-count.txt: the minimal clusters per highest index (query --count --minimal,
#   under /usr/bin/time -v: minimal-METRIC-time-v.txt);
# - minimal-METRIC.txt: the minimal clusters per highest index, in the form of the
#   database.txt of scripts/run_6x6_clusters.sh (scripts/plot_clusters.py plots it);
# - clusters-METRIC-count.txt: every cluster per highest index (query --count);
# - minimal-hardest-1000-METRIC.txt: the 1000 hardest minimal clusters in the text list's
#   form and order (`<index> <board> <cluster size>`; index, then size, descending; then board);
#   fewer if the database keeps fewer records (--clusters-min-index), said on stderr.
# A step whose file is in KEEP_DIR is not run again, so a stopped script continues where it
# was (the count pass itself starts over).
# With DOMAIN = puzzle, a database of all configurations answers for the puzzle domain's
# clusters (query --domain puzzle). The environment variable RULE sets --minimal-rule (any,
# canonical or public; default any).
# Usage: [RULE=R] scripts/clusters_minimal.sh DB.h5 step|move KEEP_DIR [BINARY] [THREADS] [DOMAIN]
set -euo pipefail
database="${1:?usage: clusters_minimal.sh DB.h5 step|move KEEP_DIR [BINARY] [THREADS]}"
metric="${2:?usage: clusters_minimal.sh DB.h5 step|move KEEP_DIR [BINARY] [THREADS]}"
keep="${3:?usage: clusters_minimal.sh DB.h5 step|move KEEP_DIR [BINARY] [THREADS]}"
binary="${4:-build/rushhour}"
threads="${5:-0}"
domain=()
[[ -n "${6:-}" ]] && domain=(--domain "$6")
rule=(--minimal-rule "${RULE:-any}")
mkdir -p "$keep"
counts="$keep/minimal-$metric-count.txt"
if [[ ! -s "$counts" ]]; then
  /usr/bin/time -v -o "$keep/minimal-$metric-time-v.txt" "$binary" query --clusters "$database" --metric "$metric" \
    "${domain[@]}" --count --minimal "${rule[@]}" --threads "$threads" > "$counts.tmp"
  mv "$counts.tmp" "$counts"
fi
all="$keep/clusters-$metric-count.txt"
if [[ ! -s "$all" ]]; then
  "$binary" query --clusters "$database" --metric "$metric" "${domain[@]}" --count > "$all.tmp"
  mv "$all.tmp" "$all"
fi
# query --count's lines "  <index> <clusters>" as {index: clusters}.
per_index='
def per_index(path):
    counts = {}
    for line in open(path):
        if line.startswith("  "):
            index, clusters = line.split()
            counts[int(index)] = int(clusters)
    return counts
'
# The highest indices holding the 1000 hardest minimal clusters, listed in full, one query
# each, then sorted as the text list is.
hardest="$keep/minimal-hardest-1000-$metric.txt"
if [[ ! -s "$hardest" ]]; then
  # A database keeping the records from some highest index on (--clusters-min-index) lists
  # none below it: the list then holds the minimal clusters from there on, if fewer than 1000.
  indices=$(/usr/bin/python3 -c "$per_index"'
import sys
import h5py
counts = per_index(sys.argv[1])
least = int(h5py.File(sys.argv[2], "r").attrs.get("cluster_min_index", 0))
total = 0
for index in sorted(counts, reverse=True):
    if index < least:
        print(f"clusters_minimal.sh: {total} minimal clusters of highest index {least} or more, the least kept",
              file=sys.stderr)
        break
    print(index, counts[index])
    total += counts[index]
    if total >= 1000:
        break
' "$counts" "$database")
  : > "$hardest.tmp"
  while read -r index count; do
    "$binary" query --clusters "$database" --metric "$metric" "${domain[@]}" --index "$index" --minimal "${rule[@]}" --threads "$threads" \
      --sample "$count" | awk '/^  / {print $1, $2, $3}' >> "$hardest.tmp"
  done <<< "$indices"
  # awk, not head: head would stop reading at line 1000, and sort, writing more than a pipe
  # holds, would end by SIGPIPE (exit 141 under pipefail).
  LC_ALL=C sort -k1,1nr -k3,3nr -k2,2 "$hardest.tmp" | awk 'NR <= 1000' > "$hardest"
  rm "$hardest.tmp"
fi
/usr/bin/python3 -c "$per_index"'
import sys
import h5py
attributes = h5py.File(sys.argv[1], "r").attrs
all_clusters = per_index(sys.argv[2])
minimal = per_index(sys.argv[3])
metric = sys.argv[4]
domain = sys.argv[5]
# The form of the database.txt of run_6x6_clusters.sh (scripts/plot_clusters.py reads it): the
# attributes of the database, as a database of the minimal clusters under this metric would have
# them, then their number per highest index.
for name in sorted(attributes):
    if name in ("configuration", "clusters", "minimal", "metric", "cluster_metrics", "max_index") or (domain and name == "domain"):
        continue
    value = attributes[name]
    print(name, value.decode() if isinstance(value, bytes) else value)
print("metric", metric)
if domain:
    print("domain", domain)
print("minimal 1")
print("clusters", sum(minimal.values()))
print("clusters_tested", sum(all_clusters.values()))
print("max_index", max(minimal) if minimal else -1)
print(f"clusters per highest index ({metric} metric):")
for index in sorted(minimal):
    print(index, minimal[index])
' "$database" "$all" "$counts" "$metric" "${6:-}" > "$keep/minimal-$metric.txt"
cat "$keep/minimal-$metric.txt"
