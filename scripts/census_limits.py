#!/usr/bin/python3
"""Check a limited classification against a fuller class run: a class fixes its numbers of cars
and trucks and its walls, so the census of a class run (DIR/classes-checkpoint.txt) holds every
figure per (walls, cars, trucks), and the figures of any narrower vehicle limit or wall range
are sums over those.
Compares the domain count, the count of every index, the non-dominated and component counts
of the limited run's classification.h5 (those it has) with those sums.

Usage: /usr/bin/python3 scripts/census_limits.py CENSUS LIMITED.h5
(CENSUS: a finished class run's classes-checkpoint.txt; the limits are read from LIMITED.h5)
Exit status 0 if every figure agrees, 1 if any differs, 2 on bad usage or an unreadable file.
Every figure is summed and compared as an exact Python int (census and file counts may exceed
2^64; see rushhour_h5.py for the file's two count forms).
"""
import sys

import rushhour_h5

FIGURES = ["count", "nondominated", "components"]
MINIMAL_RULES = ["any", "canonical", "public"]


def fail(message):
    print(f"census_limits.py: {message}", file=sys.stderr)
    sys.exit(2)


def fnv1a(text):
    value = 0xCBF29CE484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def wall_range(fields):
    """The parameter line's wall range: `walls=K` is 0 to K, `walls=A-B`, none without the word."""
    text = fields.get("walls", "0")
    low, _, high = text.rpartition("-")
    return (int(low) if low else 0, int(high))


class Tally:
    """The figures of one (walls, cars, trucks) of a census: its domain and, per index, the
    configurations, non-dominated configurations and components (FIGURES), and the minimal
    clusters under each rule ("minimal RULE": zeros unless the sweep counted them, classify
    --minimal-counts RULES)."""

    def __init__(self, walls, cars, trucks, domain, figures):
        self.walls, self.cars, self.trucks, self.domain, self.figures = walls, cars, trucks, domain, figures


def read_census(path, error=fail, part=False):
    """(parameter fields, header fields, [Tally]) of a finished census; error(reason) where the
    file is unreadable, damaged, no census or unfinished. With `part`, the census of a part of
    a sweep (classify --items K/N), whose finished state `rushhour verify --run DIR` checks."""
    try:
        text = open(path).read()
    except OSError as e:
        return error(f"cannot read {path}: {e.strerror}")
    if not text.startswith("rushhour class sweep checkpoint"):
        return error(f"{path} is not a class sweep census")
    body, _, checksum = text.rpartition("checksum ")
    if checksum.strip() != f"{fnv1a(body):016x}":
        return error(f"{path}: checksum mismatch (damaged)")
    lines = body.split("\n")
    fields = dict(w.split("=", 1) for w in lines[1].split()[1:] if "=" in w)
    header = dict(l.split(" ", 1) for l in lines[2:9] if " " in l)
    if "items" in fields and not part:
        return error(f"{path} is part {fields['items']} of a sweep: pass --part "
                     "(`rushhour verify --run DIR` checks that it is finished)")
    if "items" not in fields and header.get("next_item") != header.get("items"):
        return error(f"{path}: the sweep is not finished")
    size = int(fields["size"])
    min_walls = wall_range(fields)[0]
    trucks_per_car = size * size // 3 + 1
    cars_per_wall_count = size * size // 2 + 1
    tallies = []
    for i, line in enumerate(lines):
        if not line.startswith("tally "):
            continue
        _, pair, pair_domain = line.split()
        rest, trucks = divmod(int(pair), trucks_per_car)
        wall_offset, cars = divmod(rest, cars_per_wall_count)
        figures = {figure: [int(v) for v in lines[i + 1 + k].split()] for k, figure in enumerate(FIGURES)}
        # A sweep with --minimal-counts RULES follows them with its minimal clusters per highest
        # index, a line per rule: `minimal PAIR RULE counts...`.
        for rule in MINIMAL_RULES:
            figures["minimal " + rule] = [0] * len(figures["count"])
        for after in lines[i + 1 + len(FIGURES):]:
            words = after.split()
            if words[:2] != ["minimal", pair]:
                break
            figures["minimal " + words[2]] = [int(v) for v in words[3:]]
        tallies.append(Tally(min_walls + wall_offset, cars, trucks, int(pair_domain), figures))
    return fields, header, tallies


def census_sums(path, allows, part=False):
    fields, header, tallies = read_census(path, part=part)
    highest = int(header["highest"])
    summed = FIGURES + ["minimal " + rule for rule in MINIMAL_RULES]
    sums = {k: [0] * (highest + 1) for k in summed}
    domain = 0
    for tally in tallies:
        if allows(tally.walls, tally.cars, tally.trucks):
            domain += tally.domain
            for figure in summed:
                sums[figure] = [a + b for a, b in zip(sums[figure], tally.figures[figure])]
    return fields, domain, sums


def main(argv):
    if len(argv) != 3:
        fail("usage: census_limits.py CENSUS LIMITED.h5")
    try:
        run = rushhour_h5.read_classification(argv[2])
        limited = {"count": run.data["layers/count"], "nondominated": run.data["dominance/nondominated"],
                   "components": run.data["dominance/components"]}
    except (KeyError, rushhour_h5.FileError) as e:
        fail(f"cannot read {argv[2]}: {e}")
    limits = {k: run.attrs[k] for k in ["max_cars", "max_trucks", "max_vehicles", "size", "exit_row"]}
    # A file written before walls existed has no wall range: no walls.
    walls = (int(run.attrs.get("min_walls", 0)), int(run.attrs.get("max_walls", 0)))
    metric = run.attrs["metric"]
    limited_domain = run.attrs["domain_count"]

    def allows(wall_count, cars, trucks):
        return (walls[0] <= wall_count <= walls[1]
                and (limits["max_cars"] < 0 or cars <= limits["max_cars"])
                and (limits["max_trucks"] < 0 or trucks <= limits["max_trucks"])
                and (limits["max_vehicles"] < 0 or cars + trucks <= limits["max_vehicles"]))

    fields, domain, sums = census_sums(argv[1], allows)
    if (int(fields["size"]), int(fields["exit_row"]), fields["metric"]) != (limits["size"], limits["exit_row"], metric):
        fail("the census and the classification are of different boards or metrics")
    for k in ["max_cars", "max_trucks", "max_vehicles"]:
        if int(fields[k]) >= 0 and (limits[k] < 0 or limits[k] > int(fields[k])):
            fail(f"the census was limited by {k}={fields[k]}: it does not hold the figures of {k}={limits[k]}")
    census_walls = wall_range(fields)
    if walls[0] < census_walls[0] or walls[1] > census_walls[1]:
        fail(f"the census holds {census_walls[0]}-{census_walls[1]} walls: not the figures of {walls[0]}-{walls[1]} walls")
    agree = domain == limited_domain
    print(f"domain: census {domain}, classification {limited_domain}")
    top = len(limited["count"])
    for figure in FIGURES:
        expected, stored = sums[figure], limited[figure]
        if len(stored) == 0:
            print(f"{figure}: not in the classification, not compared")
            continue
        # A component count of -1 was not computed (low indices of a bdd run's pass).
        differs = [i for i in range(max(top, len(expected)))
                   if not (i < top and int(stored[i]) < 0)
                   and (int(expected[i]) if i < len(expected) else 0) != (int(stored[i]) if i < top else 0)]
        print(f"{figure}: {top} indices compared, {len(differs)} differ" + (f" (first: index {differs[0]})" if differs else ""))
        agree = agree and not differs
    print("all figures agree" if agree else "figures differ")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
