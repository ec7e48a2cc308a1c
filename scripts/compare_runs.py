#!/usr/bin/python3
"""Compare the figures of two rushhour classification.h5 files (e.g. a bdd run's layers and a
classes run of the same board): board parameters, domain, winning, solvable and unsolvable
counts, the count of every index, and the dominance figures where both files have them
(a component count of -1 means not computed and is skipped).

Usage: /usr/bin/python3 scripts/compare_runs.py A.h5 B.h5
Prints one line per figure compared and one per difference; exit status 0 if every compared
figure agrees, 1 if any differs, 2 on bad usage or an unreadable file.
"""
import sys

import h5py
import numpy as np

BOARD = ["size", "exit_row", "metric", "max_cars", "max_trucks", "max_vehicles"]
TOTALS = ["domain_count", "winning_count", "solvable_count", "unsolvable_count", "max_index"]


def load(path):
    with h5py.File(path, "r") as f:
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
        data = {name: np.array(f[name]) for name in ["layers/count", "dominance/nondominated", "dominance/components"]
                if name in f}
    return attrs, data


def main(argv):
    if len(argv) != 3:
        print(next(line for line in __doc__.splitlines() if line.startswith("Usage")), file=sys.stderr)
        return 2
    try:
        (a, da), (b, db) = load(argv[1]), load(argv[2])
    except (OSError, KeyError) as e:
        print(f"compare_runs: {e}", file=sys.stderr)
        return 2
    differences = 0

    def same(name, x, y):
        nonlocal differences
        if np.array_equal(np.asarray(x), np.asarray(y)):
            return True
        differences += 1
        print(f"DIFFERENT {name}: {x} vs {y}")
        return False

    for key in BOARD + TOTALS:
        same(key, a.get(key), b.get(key))
    print(f"engines: {a.get('engine')} vs {b.get('engine')}")
    if same("layer count", len(da["layers/count"]), len(db["layers/count"])):
        for i, (x, y) in enumerate(zip(da["layers/count"], db["layers/count"])):
            same(f"count of index {i}", x, y)
        print(f"compared the counts of {len(da['layers/count'])} indices")
    nd_a, nd_b = da.get("dominance/nondominated"), db.get("dominance/nondominated")
    if nd_a is not None and nd_b is not None and len(nd_a) and len(nd_b):
        if same("dominance length", len(nd_a), len(nd_b)):
            same("non-dominated", nd_a, nd_b)
            ca, cb = da["dominance/components"], db["dominance/components"]
            both = (ca >= 0) & (cb >= 0)
            same("components where both were computed", ca[both], cb[both])
            print(f"compared the dominance figures of {len(nd_a)} indices ({int(both.sum())} with components)")
    else:
        print("dominance: not in both files, not compared")
    print("all compared figures agree" if differences == 0 else f"{differences} differences")
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
