#!/usr/bin/env bash
# The public database's own enumerator (fogleman/rush, cpp/) on the 5x5 puzzle domain with 0-2
# walls, against `classify --minimal --minimal-rule public` on the same domain: the minimal
# puzzles each lists, per number of walls and moves, and board by board. The enumerator is
# built from a checkout of that repository (not part of rushhour) with its own configuration
# set to 5x5 and walls (config.h: MinPieceSize 1, MaxWalls 2, its MaxID of 5x5 with 0-2 walls).
# Writes OUT/public-enumerator.txt (its output) and OUT/public-enumerator.md (the comparison).
# Usage: results/5x5-walls/public_enumerator.sh FOGLEMAN_RUSH_CHECKOUT OUT [BINARY]
set -euo pipefail
usage="usage: public_enumerator.sh FOGLEMAN_RUSH_CHECKOUT OUT [BINARY]"
checkout="${1:?$usage}"
out="${2:?$usage}"
binary="${3:-build/rushhour}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cp -r "$checkout/cpp" "$work/"
config="$work/cpp/src/config.h"
sed -i -e 's/^const int MinPieceSize = 2;/const int MinPieceSize = 1;/' \
       -e 's/^const int MaxWalls = 0;/const int MaxWalls = 2;/' \
       -e 's/^const int NumWorkers = .*/const int NumWorkers = 1;/' \
       -e 's|^const uint64_t MaxID = 268108; // 5x5$|// &|' \
       -e 's|^// \(const uint64_t MaxID = 16330429; // 5x5, 0-2 walls\)$|\1|' "$config"
for expected in "BoardSize = 5;" "MinPieceSize = 1;" "MaxWalls = 2;" "^const uint64_t MaxID = 16330429;"; do
  grep -q -- "$expected" "$config" || { echo "public_enumerator.sh: $config does not hold $expected after the edit" >&2; exit 1; }
done
make -C "$work/cpp" release > "$work/make.log" 2>&1 || { cat "$work/make.log" >&2; exit 1; }
/usr/bin/time -v -o "$work/enumerator-time.txt" "$work/cpp/main" > "$out/public-enumerator.txt" 2> /dev/null
/usr/bin/time -v -o "$work/ours-time.txt" "$binary" classify --engine classes --size 5 --walls 2 --domain puzzle \
  --metric move --threads 2 --minimal --minimal-rule public --clusters "$work/ours.h5" \
  --clusters-text "$work/ours.txt" --out "$work/run" -q > /dev/null
cpu() { awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.1f", u + s}' "$1"; }
/usr/bin/python3 - "$out/public-enumerator.txt" "$work/ours.txt" "$(cpu "$work/enumerator-time.txt")" \
  "$(cpu "$work/ours-time.txt")" > "$out/public-enumerator.md" <<'EOF'
import collections
import sys

def relabel(board):
    """The board with '.' as 'o' and its vehicles lettered by first appearance."""
    names, letters, out = {}, iter("ABCDEFGHIJKLMNPQRSTUVWYZ"), []
    for c in board:
        if c in ".o" or c == "x":
            out.append("o" if c == "." else c)
        else:
            out.append(names.setdefault(c, next(letters)))
    return "".join(out)

def lines(path):
    """(moves, board, cluster size) per line of `moves board size ...`."""
    return {(int(f[0]), relabel(f[1]), int(f[2])) for f in (line.split() for line in open(path))}

public, ours = lines(sys.argv[1]), lines(sys.argv[2])
count = lambda rows: collections.Counter((b.count("x"), m) for m, b, _ in rows)
public_counts, our_counts = count(public), count(ours)
print("# The public enumerator's minimal 5×5 puzzles with 0–2 walls against the public rule\n")
print("`results/5x5-walls/public_enumerator.sh FOGLEMAN_RUSH_CHECKOUT OUT BINARY`: fogleman/rush's")
print("`cpp/` enumerator (canonical, solvable and minimal clusters, move metric) with its")
print("configuration set to 5×5 and 0–2 walls, one worker, " + sys.argv[3] + " CPU s; rushhour's")
print("`classify --engine classes --size 5 --walls 2 --domain puzzle --metric move --minimal")
print("--minimal-rule public --clusters-text`, two threads, " + sys.argv[4] + " CPU s.\n")
print("| walls | moves | public enumerator | rushhour, public rule |")
print("|---|---|---|---|")
for walls, moves in sorted(set(public_counts) | set(our_counts)):
    print(f"| {walls} | {moves} | {public_counts[(walls, moves)]} | {our_counts[(walls, moves)]} |")
for walls in sorted({w for w, _ in public_counts} | {w for w, _ in our_counts}):
    p = sum(c for (w, _), c in public_counts.items() if w == walls)
    o = sum(c for (w, _), c in our_counts.items() if w == walls)
    print(f"| {walls} | all | {p} | {o} |")
print(f"| 0–2 | all | {len(public)} | {len(ours)} |\n")
print(f"Board by board (letters renamed by first appearance, `.` read as `o`), with each cluster's")
print(f"moves and size: {len(public & ours)} lines in both lists, {len(public - ours)} only in the")
print(f"enumerator's, {len(ours - public)} only in rushhour's.")
for m, b, s in sorted(public - ours)[:20]:
    print(f"- only the enumerator's: {m} {b} {s}")
for m, b, s in sorted(ours - public)[:20]:
    print(f"- only rushhour's: {m} {b} {s}")
EOF
cat "$out/public-enumerator.md"
