#!/usr/bin/python3
"""Check a list of minimal puzzles against board searches, cluster by cluster.

Usage: /usr/bin/python3 scripts/check_minimal.py BINARY DATABASE.h5 METRIC LIST MINIMAL_LIST [K]

LIST is a text list of clusters (`<index> <board> <cluster size>`, hardest first, e.g. the
first lines of classify --clusters-text), MINIMAL_LIST the minimal ones among the hardest
(e.g. scripts/clusters_minimal.sh's minimal-hardest-1000-METRIC.txt). For each of the first K
lines of LIST (default 30) whose index the minimal list covers, the board without each of its
vehicles but the target is answered by `BINARY query --clusters DATABASE.h5 --metric METRIC
--board B --json` (a breadth-first search from that board, not the minimal test), and the
cluster must be in MINIMAL_LIST exactly when every removal lowers the index. Prints one line
per cluster checked and a summary; exit status 0 if all agree, 1 if not, 2 on bad usage.
"""
import json
import subprocess
import sys


def read_list(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            index, board, size = line.split()
            rows.append((int(index), board, int(size)))
    return rows


def index_of(binary, database, metric, board):
    answer = subprocess.run([binary, "query", "--clusters", database, "--metric", metric, "--board", board, "--json"],
                            capture_output=True, text=True, check=True)
    return json.loads(answer.stdout)["index"]


def main(argv):
    if len(argv) not in (6, 7):
        print("usage: check_minimal.py BINARY DATABASE.h5 METRIC LIST MINIMAL_LIST [K]", file=sys.stderr)
        return 2
    binary, database, metric, list_path, minimal_path = argv[1:6]
    count = int(argv[6]) if len(argv) == 7 else 30
    minimal = read_list(minimal_path)
    # The minimal list holds every minimal cluster above its lowest index.
    lowest = min(index for index, _, _ in minimal)
    minimal_boards = {board for _, board, _ in minimal}
    disagreements = checked = 0
    for index, board, size in read_list(list_path)[:count]:
        if index <= lowest:
            break
        vehicles = sorted(set(board) - {"o", "A"})
        removals = {v: index_of(binary, database, metric, board.replace(v, "o")) for v in vehicles}
        needed = all(i is not None and i < index for i in removals.values())
        listed = board in minimal_boards
        checked += 1
        agree = needed == listed
        disagreements += not agree
        kept = [v for v, i in removals.items() if i is None or i >= index]
        print(f"{index} {board} {size}: {'minimal' if needed else 'not minimal (' + ''.join(kept) + ' not needed)'}"
              f"{'' if agree else ' - DISAGREES with the minimal list'}")
    print(f"{checked} clusters checked, {disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
