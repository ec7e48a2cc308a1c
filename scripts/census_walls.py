#!/usr/bin/python3
"""The figures of a class run per number of walls: a class keeps its walls, so the census of a
class run with --walls (DIR/classes-checkpoint.txt) holds every figure per (walls, cars,
trucks), and the figures of each number of walls are sums over its cars and trucks.

Prints a markdown table, one row per number of walls and one for the whole range: domain,
winning, solvable, unsolvable, highest index, its configurations and non-dominated ones, the
clusters (components holding a winning configuration) and, for a sweep with --minimal-counts
RULES, the minimal clusters under each rule.

Usage: /usr/bin/python3 scripts/census_walls.py [--part] CENSUS
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


def main(argv):
    part = len(argv) == 3 and argv[1] == "--part"
    if len(argv) != 2 + part:
        fail("usage: census_walls.py [--part] CENSUS")
    path = argv[-1]
    fields, _, _ = census_sums(path, lambda walls, cars, trucks: True, part)
    low, high = wall_range(fields)
    print(f"census of {path}: size {fields['size']}, exit row {fields['exit_row']}, {fields['metric']} metric"
          + (f", {fields['domain']} domain" if "domain" in fields else "")
          + (f", part {fields['items']} of the work items" if part else ""))
    print()
    # classify --minimal-counts RULES: the minimal clusters under each rule named.
    rules = [r for r in fields.get("minimal_counts", "").split(",") if r]
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
