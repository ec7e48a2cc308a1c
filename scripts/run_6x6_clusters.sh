#!/usr/bin/env bash
# The puzzle database of the full 6x6 board: the class sweep of configs/6x6-classes-JOB.cfg
# (JOB = step, move, commercial or puzzle) with --clusters, under /usr/bin/time -v, in
# runs/6x6-clusters-JOB/ (clusters.h5, clusters.txt, classification.h5, the checkpoint).
# The move and puzzle jobs (move metric; puzzle: --domain puzzle, the public database's
# domain)
# also take --clusters-metrics both: every record with its move and its step figures (the
# database's /step group), the list in moves; `rushhour query --clusters FILE.h5 --metric step`
# lists the step database.
# 126 547 850 clusters without limits: at a work sample's bytes per record
# (results/clusters/README.md) the database takes about 1.8 GB, the list 5.3 GB, the spool at
# least 9.1 GB while the sweep runs (removed at the end). Kill it at any time: the same command
# with `-- --resume` continues.
# Keeps in results/6x6-JOB/clusters/: the first 1000 lines of the list (the hardest clusters;
# with both metrics also hardest-1000-step.txt, the same under the step metric),
# the database's root attributes and clusters per highest index, the progress log and time's
# report (the database and the list themselves are too large for the repository).
# The minimal puzzles of the database under either metric: scripts/clusters_minimal.sh.
# Usage: scripts/run_6x6_clusters.sh JOB [BINARY] [-- MORE CLASSIFY OPTIONS, e.g. --resume]
set -euo pipefail
cd "$(dirname "$0")/.."
job="${1:?usage: run_6x6_clusters.sh step|move|commercial|puzzle [BINARY] [-- OPTIONS]}"
shift
binary=build/rushhour
if [[ $# -gt 0 && "$1" != "--" ]]; then binary="$1"; shift; fi
[[ "${1:-}" == "--" ]] && shift
config="configs/6x6-classes-$job.cfg"
[[ -f "$config" ]] || { echo "run_6x6_clusters.sh: no $config" >&2; exit 2; }
run_dir="runs/6x6-clusters-$job"
options=()
keep="results/6x6-$job/clusters"
if [[ "$job" == move || "$job" == puzzle ]]; then
  options=(--clusters-metrics both)
fi
mkdir -p "$run_dir" "$keep"
# time's report is appended: a resumed run keeps every segment's figures.
echo "# $(date -u +%FT%TZ) classify $* ${options[*]}" >> "$run_dir/time.txt"
/usr/bin/time -v -a -o "$run_dir/time.txt" "$binary" classify --config "$config" --out "$run_dir" \
  --log "$run_dir/progress.log" -q --clusters "$run_dir/clusters.h5" --clusters-text "$run_dir/clusters.txt" \
  "${options[@]}" "$@" > "$run_dir/run.out"
head -n 1000 "$run_dir/clusters.txt" > "$keep/hardest-1000.txt"
cp "$run_dir/progress.log" "$keep/progress.log"
cp "$run_dir/run.out" "$keep/run.out"
grep -E "^#|Elapsed|User time|System time|Maximum resident|Percent of CPU|Exit status" "$run_dir/time.txt" > "$keep/time-v.txt"
/usr/bin/python3 - "$run_dir/clusters.h5" "$keep" > "$keep/database.txt" <<'PY'
import sys
import h5py
import numpy as np
f = h5py.File(sys.argv[1], "r")
for name in sorted(f.attrs):
    if name != "configuration":
        value = f.attrs[name]
        print(name, value.decode() if isinstance(value, bytes) else value)
print("bytes per record", __import__("os").path.getsize(sys.argv[1]) / max(1, f.attrs["clusters"]))
def per_index(group, title):
    counts = np.zeros(256, dtype=np.int64)
    step = 1 << 22
    for start in range(0, len(group["highest_index"]), step):
        counts += np.bincount(group["highest_index"][start:start + step], minlength=256)
    print(title)
    for index in np.nonzero(counts)[0]:
        print(index, counts[index])
metric = f.attrs["metric"]
metric = metric.decode() if isinstance(metric, bytes) else metric
per_index(f, "clusters per highest index (" + metric + " metric):")
other = "step" if metric == "move" else "move"
if other in f:
    per_index(f[other], "clusters per highest index (" + other + " metric):")
    # The other metric's hardest 1000 in the list's form and order (index, then size,
    # descending; then board).
    group = f[other]
    counts = np.zeros(256, dtype=np.int64)
    step = 1 << 22
    total = len(group["highest_index"])
    for start in range(0, total, step):
        counts += np.bincount(group["highest_index"][start:start + step], minlength=256)
    at_least = np.cumsum(counts[::-1])[::-1]  # at_least[i]: records of index i or more
    least = int(np.nonzero(at_least >= 1000)[0].max()) if at_least[0] >= 1000 else 0
    lines = []
    for start in range(0, total, step):
        index = group["highest_index"][start:start + step]
        rows = np.nonzero(index >= least)[0]
        if len(rows) == 0:
            continue
        size = f["size"][start:start + step][rows]
        board = group["board"][start:start + step][rows]
        lines += [(int(i), int(z), b.decode()) for i, z, b in zip(index[rows], size, board)]
    lines.sort(key=lambda line: (-line[0], -line[1], line[2]))
    with open(f"{sys.argv[2]}/hardest-1000-{other}.txt", "w") as out:
        for i, z, b in lines[:1000]:
            out.write(f"{i} {b} {z}\n")
PY
echo "kept $keep: $(tr '\n' ' ' < "$keep/time-v.txt")"
