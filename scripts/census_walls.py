#!/usr/bin/python3
"""The figures of a class run per number of walls: a class keeps its walls, so the census of a
class run with --walls (DIR/classes-checkpoint.txt) holds every figure per (walls, cars,
trucks), and the figures of each number of walls are sums over its cars and trucks.

Prints a markdown table, one row per number of walls and one for the whole range: domain,
winning, solvable, unsolvable, highest index, its configurations and non-dominated ones, the
clusters (components holding a winning configuration) and, for a sweep with --minimal-counts
RULES, the minimal clusters under each rule.

With --per-index, prints instead one row per highest index: the clusters of that highest index
per number of walls and in all, then the same for the minimal clusters under each rule counted.

Usage: /usr/bin/python3 scripts/census_walls.py [--part] [--per-index] CENSUS
(CENSUS: a finished class run's classes-checkpoint.txt; with --part, that of a part of a run,
classify --items K/N, whose figures are those of its items alone)
Exit status 0, 2 on bad usage or an unreadable, damaged or unfinished census.
"""
import sys

from census_limits import census_sums, fail, wall_range


def row(label, domain, sums, rules):
    counts = sums["count"]
    highest = max((i for i, c in enumerate(counts) if c), default=-1)
    solvable = sum(counts)
    return (f"| {label} | {domain:,} | {counts[0] if counts else 0:,} | {solvable:,} | {domain - solvable:,} | "
            f"{highest} | {counts[highest] if highest >= 0 else 0:,} | "
            f"{sums['nondominated'][highest] if highest >= 0 else 0:,} | {sum(sums['components']):,} |"
            + "".join(f" {sum(sums['minimal ' + rule]):,} |" for rule in rules)).replace(",", " ")


def per_index(path, part, low, high, rules):
    """The clusters (components) and minimal clusters of each highest index, per number of walls."""
    columns = [str(w) for w in range(low, high + 1)] + [f"{low}-{high}"]
    sums = [census_sums(path, lambda w, cars, trucks, walls=walls: w == walls, part)[2]
            for walls in range(low, high + 1)]
    sums.append(census_sums(path, lambda walls, cars, trucks: True, part)[2])
    figures = [("components", "clusters")] + [("minimal " + r, f"minimal ({r} rule)") for r in rules]
    print("| highest index |" + "".join(f" {name}, {c} walls |" for _, name in figures for c in columns))
    print("|---|" + "---|" * (len(figures) * len(columns)))
    highest = len(sums[-1]["components"])
    for index in range(highest):
        cells = [s[key][index] if index < len(s[key]) else 0 for key, _ in figures for s in sums]
        print((f"| {index} |" + "".join(f" {c:,} |" for c in cells)).replace(",", " "))
    totals = [sum(s[key]) for key, _ in figures for s in sums]
    print(("| all |" + "".join(f" {c:,} |" for c in totals)).replace(",", " "))


def main(argv):
    flags = [a for a in argv[1:-1]]
    part = "--part" in flags
    by_index = "--per-index" in flags
    if len(argv) < 2 or argv[-1].startswith("--") or len(flags) != part + by_index:
        fail("usage: census_walls.py [--part] [--per-index] CENSUS")
    path = argv[-1]
    fields, _, _ = census_sums(path, lambda walls, cars, trucks: True, part)
    low, high = wall_range(fields)
    print(f"census of {path}: size {fields['size']}, exit row {fields['exit_row']}, {fields['metric']} metric"
          + (f", {fields['domain']} domain" if "domain" in fields else "")
          + (f", part {fields['items']} of the work items" if part else ""))
    print()
    # classify --minimal-counts RULES: the minimal clusters under each rule named.
    rules = [r for r in fields.get("minimal_counts", "").split(",") if r]
    if by_index:
        per_index(path, part, low, high, rules)
        return 0
    print("| walls | domain | winning | solvable | unsolvable | highest index | configurations of it "
          "| non-dominated of it | clusters |" + "".join(f" minimal clusters ({r} rule) |" for r in rules))
    print("|---|---|---|---|---|---|---|---|---|" + "---|" * len(rules))
    for walls in range(low, high + 1):
        _, domain, sums = census_sums(path, lambda w, cars, trucks, walls=walls: w == walls, part)
        print(row(str(walls), domain, sums, rules))
    _, domain, sums = census_sums(path, lambda walls, cars, trucks: True, part)
    print(row(f"{low}-{high}", domain, sums, rules))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
