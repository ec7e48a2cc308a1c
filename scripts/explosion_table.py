#!/usr/bin/python3
"""Builds the full explosion table of the naive encoding, one process per cell, and checks it.

Every (size, cars) cell runs as its own `rushhour explode` process so that a cell that
overruns its limits (or is killed by the hard timeout) costs only itself, and so that the
peak resident memory reported for a cell is that cell's alone. The per-cell HDF5 files are
merged into one table (same datasets and attributes as `rushhour explode --out`), the
markdown rows into one markdown file, and every cell with a published figure is compared
with it: the script exits 1 if any finished cell differs from the paper.

usage: scripts/explosion_table.py [--binary build/rushhour] [--sizes 4,5,6] [--cars 2-9]
           [--time-limit 600] [--node-limit 140000000] [--schedule car-by-car]
           [--out-md results/explosion.md] [--out-h5 results/explosion.h5]
Needs /usr/bin/python3 with h5py and numpy (Debian: python3-h5py).
"""
import argparse
import datetime
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

import h5py
import numpy

DATASETS_INT = ["size", "cars", "nodes", "buddy_nodes", "lower_bound", "labeled_placements",
                "peak_nodes", "published", "dual_legal_nodes"]
DATASETS_FLOAT = ["seconds"]


def int_list(text):
    values = []
    for part in text.split(","):
        if "-" in part[1:]:
            lo, hi = part.split("-", 1)
            values.extend(range(int(lo), int(hi) + 1))
        else:
            values.append(int(part))
    return values


def run_cell(args, size, cars, workdir):
    out_h5 = os.path.join(workdir, f"cell_{size}_{cars}.h5")
    command = [args.binary, "explode", "--sizes", str(size), "--cars", str(cars),
               "--time-limit", str(args.time_limit), "--node-limit", str(args.node_limit),
               "--schedule", args.schedule, "--out", out_h5]
    print("$ " + " ".join(shlex.quote(c) for c in command), file=sys.stderr, flush=True)
    start = time.monotonic()
    # The hard timeout catches a single BDD operation that overruns --time-limit by far.
    hard = args.time_limit * 1.5 + 60 if args.time_limit > 0 else None
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=hard)
    except subprocess.TimeoutExpired as expired:
        sys.stderr.write(expired.stderr.decode() if isinstance(expired.stderr, bytes) else (expired.stderr or ""))
        return None, None, f"killed after {time.monotonic() - start:.0f} s (hard timeout)"
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        return None, None, f"exit status {done.returncode}"
    lines = done.stdout.splitlines()
    row = next(l for l in lines if re.match(rf"^\| {size} \| {cars} \|", l))
    relation = [l for l in lines if re.match(rf"^\| {size} \| {cars} \|", l)][1]
    return row, relation, out_h5


def placeholder_cell(args, size, cars, workdir):
    """The HDF5 row of a cell that was skipped or killed: nodes -1, published and lower bound
    as the binary reports them (a run whose time limit expires at the first operation)."""
    out_h5 = os.path.join(workdir, f"cell_{size}_{cars}.h5")
    subprocess.run([args.binary, "explode", "--sizes", str(size), "--cars", str(cars),
                    "--time-limit", "0.000001", "--no-relations", "--schedule", args.schedule,
                    "--node-limit", str(args.node_limit), "--out", out_h5],
                   capture_output=True, check=True)
    return out_h5


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--binary", default=os.path.join(root, "build", "rushhour"))
    parser.add_argument("--sizes", default="4,5,6")
    parser.add_argument("--cars", default="2-9")
    parser.add_argument("--time-limit", type=float, default=600)
    parser.add_argument("--node-limit", type=int, default=140_000_000)
    parser.add_argument("--schedule", default="car-by-car")
    parser.add_argument("--keep-going", action="store_true",
                        help="also run the cells of a size after one of its cells failed on a "
                             "limit (by default they are skipped: more cars did not shrink the "
                             "BDD before the board is half full)")
    parser.add_argument("--out-md", default=os.path.join(root, "results", "explosion.md"))
    parser.add_argument("--out-h5", default=os.path.join(root, "results", "explosion.h5"))
    args = parser.parse_args()

    header = None
    rows, relations, files, failures = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="rushhour_explosion_") as workdir:
        for size in int_list(args.sizes):
            stopped = None
            for cars in int_list(args.cars):
                if stopped is not None and not args.keep_going:
                    what = f"skipped: m={stopped} did not finish"
                    rows.append(f"| {size} | {cars} | n/a ({what}) | | | | | | | | | | — |")
                    relations.append(f"| {size} | {cars} | — | — |")
                    failures.append((size, cars, what))
                    files.append(placeholder_cell(args, size, cars, workdir))
                    continue
                row, relation, result = run_cell(args, size, cars, workdir)
                if row is None:
                    row = f"| {size} | {cars} | n/a ({result}) | | | | | | | | | | — |"
                    relation = f"| {size} | {cars} | n/a | n/a |"
                    files.append(placeholder_cell(args, size, cars, workdir))
                else:
                    files.append(result)
                relation = relation if relation is not None else f"| {size} | {cars} | n/a | n/a |"
                rows.append(row)
                relations.append(relation)
                cells = [c.strip() for c in row.strip("|").split("|")]
                if cells[2].startswith("n/a ("):
                    failures.append((size, cars, cells[2]))
                    stopped = cars
                if len(cells) > 4 and cells[4] == "NO":
                    failures.append((size, cars, f"{cells[2]} nodes, published {cells[3]}"))
                print(row, file=sys.stderr, flush=True)
        merge_h5(files, args.out_h5)

    command = " ".join(shlex.quote(a) for a in sys.argv)
    with open(args.out_md, "w") as md:
        md.write(markdown(args, command, rows, relations, failures))
    mismatches = [f for f in failures if "published" in f[2]]
    for size, cars, what in failures:
        print(f"cell {size}x{size} m={cars}: {what}", file=sys.stderr)
    return 1 if mismatches else 0


def merge_h5(files, path):
    columns = {name: [] for name in DATASETS_INT + DATASETS_FLOAT}
    attributes = {}
    for name in files:
        with h5py.File(name, "r") as cell:
            if not attributes:
                attributes = dict(cell.attrs)
            for key in columns:
                columns[key].extend(cell[key][()].tolist())
    temporary = path + ".tmp"
    with h5py.File(temporary, "w") as table:
        for key, value in attributes.items():
            table.attrs[key] = value
        if "configuration" in attributes:
            text = attributes["configuration"]
            text = text.decode() if isinstance(text, bytes) else text
            # The per-cell runs differ only in sizes/cars; record the whole table's ranges.
            text = re.sub(r"^sizes = .*$", "sizes = " + ",".join(sorted({str(s) for s in columns["size"]})), text, flags=re.M)
            text = re.sub(r"^cars = .*$", "cars = " + ",".join(str(c) for c in sorted(set(columns["cars"]))), text, flags=re.M)
            table.attrs["configuration"] = text + "assembled by = scripts/explosion_table.py\n"
        for key in DATASETS_INT:
            table.create_dataset(key, data=numpy.array(columns[key], dtype=numpy.int64))
        for key in DATASETS_FLOAT:
            table.create_dataset(key, data=numpy.array(columns[key], dtype=numpy.float64))
    os.replace(temporary, path)


def markdown(args, command, rows, relations, failures):
    lines = [
        "# Explosion table of the naive coordinate encoding",
        "",
        f"Generated {datetime.date.today().isoformat()} by `{command}`",
        f"(one `rushhour explode` process per cell; schedule {args.schedule}, node limit "
        f"{args.node_limit:,} nodes, time limit {args.time_limit:g} s per cell).",
        "",
        "nodes = Invar's size as CUDD counts it (complement edges, one constant), computed from "
        "BuDDy's graph; BuDDy nodes = `bdd_nodecount`; labeled placements = distinct "
        "(x_i, y_i, h_i) tuples, i.e. satisfying assignments with one code per value; build s = "
        "building Invar; cell s = build plus counting; peak nodes = most BuDDy table nodes in use "
        "(live and not yet collected) after any operation of the build; peak RSS = the cell's "
        "resident memory high-water mark.",
        "",
        "| n | m | nodes (CUDD-style) | published | match | BuDDy nodes | lower bound C(n²,m−1) "
        "| labeled placements | build s | cell s | peak nodes | peak RSS MiB | dual legal nodes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ] + rows + [
        "",
        "## Winning set and step transition relation of the naive model (CUDD-style nodes)",
        "",
        "| n | m | Win nodes | Trans nodes |",
        "|---|---|---|---|",
    ] + relations + [""]
    if failures:
        lines += ["## Cells that did not finish or differ", ""]
        lines += [f"- {s}×{s}, m = {c}: {what}" for s, c, what in failures]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
