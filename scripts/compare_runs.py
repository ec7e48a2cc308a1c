#!/usr/bin/python3
"""Compare the figures of two rushhour classification.h5 files (e.g. a bdd run's layers and a
classes run of the same board): board parameters, domain, winning, solvable and unsolvable
counts, the count of every index, and the dominance figures where both files have them
(a component count of -1 means not computed and is skipped). Each --dominance-log is the log
of a bdd run's dominance pass, finished or not: its "dominance index I: N non-dominated, C
components" lines are compared with B's dominance figures. --samples also compares the sample
boards, index by index, as sets: the class and explicit engines and a partitioned bdd run take
each index's least keys, an unpartitioned bdd run the first boards in BDD order.

Usage: /usr/bin/python3 scripts/compare_runs.py A.h5 B.h5 [--dominance-log LOG ...] [--samples]
Prints one line per figure compared and one per difference; exit status 0 if every compared
figure agrees, 1 if any differs, 2 on bad usage or an unreadable file. Counts are compared
exactly in either stored form (uint64 or decimal strings, see rushhour_h5.py).
"""
import re
import sys

import numpy as np

import rushhour_h5

BOARD = ["size", "exit_row", "metric", "max_cars", "max_trucks", "max_vehicles"]
TOTALS = ["domain_count", "winning_count", "solvable_count", "unsolvable_count", "max_index"]


def load(path):
    run = rushhour_h5.read_classification(path)
    data = {name: run.data[name] for name in ("layers/count", "dominance/nondominated", "dominance/components")
            if name in run.data}
    data["samples"] = run.samples_by_index()
    return run.attrs, data


DOMINANCE_LINE = re.compile(r"dominance index (\d+): (\d+) non-dominated, (\d+|uncounted) components")


def load_dominance_logs(paths):
    """{index: (non-dominated, components or None)} from the logs; ValueError if two disagree."""
    figures = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as log:
            for match in DOMINANCE_LINE.finditer(log.read()):
                index, nondominated = int(match[1]), int(match[2])
                components = None if match[3] == "uncounted" else int(match[3])
                old = figures.setdefault(index, (nondominated, components))
                if old[0] != nondominated or None not in (old[1], components) and old[1] != components:
                    raise ValueError(f"{path}: index {index} has two different dominance lines")
                if old[1] is None:
                    figures[index] = (nondominated, components)
    return figures


def usage():
    print(next(line for line in __doc__.splitlines() if line.startswith("Usage")), file=sys.stderr)
    return 2


def main(argv):
    args, logs = argv[1:], []
    compare_samples = "--samples" in args
    args = [arg for arg in args if arg != "--samples"]
    while "--dominance-log" in args:
        at = args.index("--dominance-log")
        if at + 1 >= len(args):
            return usage()
        logs.append(args[at + 1])
        del args[at:at + 2]
    if len(args) != 2:
        return usage()
    try:
        (a, da), (b, db) = load(args[0]), load(args[1])
        logged = load_dominance_logs(logs)
    except (OSError, ValueError, rushhour_h5.FileError) as e:
        print(f"compare_runs: {e}", file=sys.stderr)
        return 2
    if compare_samples and not (da["samples"] and db["samples"]):
        print(f"compare_runs: {args[1] if da['samples'] else args[0]} has no samples to compare", file=sys.stderr)
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
    if logs:
        nd_b, c_b = db.get("dominance/nondominated"), db.get("dominance/components")
        if nd_b is None or not len(nd_b):
            print(f"compare_runs: {args[1]} has no dominance figures to compare the logs with", file=sys.stderr)
            return 2
        with_components = 0
        for index, (nondominated, components) in sorted(logged.items()):
            if index >= len(nd_b):
                same(f"logged index {index} within B's indices", True, False)
                continue
            same(f"non-dominated of index {index} (log vs B)", nondominated, nd_b[index])
            if components is not None and c_b[index] >= 0:
                with_components += 1
                same(f"components of index {index} (log vs B)", components, c_b[index])
        print(f"compared the logged dominance figures of {len(logged)} indices "
              f"({with_components} with components)" + (f", {min(logged)} to {max(logged)}" if logged else ""))
    if compare_samples:
        sa, sb = da["samples"], db["samples"]
        if same("sampled indices", sorted(sa), sorted(sb)):
            for index in sorted(sa):
                if sa[index] != sb[index]:
                    differences += 1
                    print(f"DIFFERENT samples of index {index}: {sorted(sa[index] - sb[index])} only in A, "
                          f"{sorted(sb[index] - sa[index])} only in B")
            print(f"compared the samples of {len(sa)} indices ({sum(map(len, sa.values()))} boards)")
    print("all compared figures agree" if differences == 0 else f"{differences} differences")
    return 0 if differences == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
