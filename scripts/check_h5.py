#!/usr/bin/python3
"""Print and validate the schema of a rushhour classification.h5 (SPEC section 7).

Usage: /usr/bin/python3 scripts/check_h5.py FILE.h5 [--quiet]

Checks what the C++ reader checks, independently: every root attribute and dataset present
with the right kind (signed/unsigned integer, float, string), consistent lengths,
max_index = len - 1, and that the counts add up. Counts are read exactly in either form:
uint64 (format version 1) or decimal strings (format version 2, count_encoding "decimal",
written when a count exceeds 2^64 - 1; see rushhour_h5.py). Exit status 0 if valid, 1 if not (one line
per problem on stderr), 2 on bad usage. Needs h5py (Debian: python3-h5py), hence the
/usr/bin/python3 interpreter.
"""
import sys

import h5py
import numpy as np

import rushhour_h5

CONTENT = "rushhour classification"
ATTRIBUTES = {  # name -> numpy kind: i signed, u unsigned, f float, S string
    "content": "S", "format_version": "i", "tool_version": "S", "buddy_version": "S", "configuration": "S",
    "size": "i", "exit_row": "i", "metric": "S", "max_cars": "i", "max_trucks": "i",
    "max_vehicles": "i", "engine": "S", "encoding": "S", "variable_order": "S",
    "complete": "i", "seconds": "f", "peak_rss_bytes": "u", "domain_count": "u",
    "winning_count": "u", "solvable_count": "u", "unsolvable_count": "u", "max_index": "i",
}
DATASETS = {
    "layers/count": "u", "layers/bdd_nodes": "u", "layers/seconds": "f",
    "dominance/nondominated": "u", "dominance/components": "i",
    "samples/board": "S", "samples/index": "u",
}


def text(value):
    return value.decode("utf-8") if isinstance(value, (bytes, np.bytes_)) else str(value)


def check(path, quiet):
    problems = []
    with h5py.File(path, "r") as f:
        try:
            form = rushhour_h5.count_form(f)
        except ValueError as error:
            return [str(error)]
        attrs = {}
        for name, kind in ATTRIBUTES.items():
            if name not in f.attrs:
                problems.append(f"missing attribute '{name}'")
                continue
            value = f.attrs[name]
            if name in rushhour_h5.COUNT_ATTRIBUTES:
                try:
                    attrs[name] = rushhour_h5.attribute(f, name, form)
                except ValueError as error:
                    problems.append(str(error))
                continue
            actual = np.asarray(value).dtype.kind
            if actual != kind:
                problems.append(f"attribute '{name}' has kind '{actual}', expected '{kind}'")
            attrs[name] = text(value) if kind == "S" else value.item()
        if attrs.get("content") not in (None, CONTENT):
            problems.append(f"content '{attrs['content']}', expected '{CONTENT}'")
        data = {}
        for name, kind in DATASETS.items():
            if name not in f:
                problems.append(f"missing dataset '/{name}'")
                continue
            dataset = f[name]
            if dataset.ndim != 1:
                problems.append(f"dataset '/{name}' is not one-dimensional")
            if name in rushhour_h5.COUNT_DATASETS:
                try:
                    data[name] = rushhour_h5.dataset(f, name, form)
                except ValueError as error:
                    problems.append(str(error))
                continue
            if dataset.dtype.kind != kind:
                problems.append(f"dataset '/{name}' has kind '{dataset.dtype.kind}', expected '{kind}'")
            data[name] = dataset[()]

    if not quiet:
        print(f"{path}:")
        for name, value in attrs.items():
            if name == "configuration":
                value = f"<{len(value.splitlines())} lines>"
            print(f"  @{name} = {value}")
        for name, values in data.items():
            if name in rushhour_h5.COUNT_DATASETS:
                shown = values[:8]
            else:
                shown = [text(v) for v in values[:4]] if DATASETS[name] == "S" else values[:8].tolist()
            print(f"  /{name} [{len(values)}] {shown}{' ...' if len(values) > len(shown) else ''}")
    if problems:
        return problems

    layers = len(data["layers/count"])
    for name in ("layers/bdd_nodes", "layers/seconds"):
        if len(data[name]) != layers:
            problems.append(f"/{name} has {len(data[name])} entries, expected {layers}")
    dominance = len(data["dominance/nondominated"])
    if dominance not in (0, layers) or len(data["dominance/components"]) != dominance:
        problems.append("dominance datasets must both be empty or have one entry per layer")
    if len(data["samples/index"]) != len(data["samples/board"]):
        problems.append("/samples/index and /samples/board differ in length")
    if attrs["max_index"] != layers - 1:
        problems.append(f"max_index {attrs['max_index']} but {layers} layers")
    solvable = sum(int(c) for c in data["layers/count"])
    if solvable != attrs["solvable_count"]:
        problems.append(f"layer counts add up to {solvable}, solvable_count is {attrs['solvable_count']}")
    if attrs["solvable_count"] + attrs["unsolvable_count"] != attrs["domain_count"]:
        problems.append("solvable_count + unsolvable_count != domain_count")
    if layers and attrs["winning_count"] != data["layers/count"][0]:
        problems.append("winning_count differs from layer 0's count")
    if attrs["metric"] not in ("step", "move"):
        problems.append(f"metric '{attrs['metric']}' is neither step nor move")
    if attrs["complete"] not in (0, 1):
        problems.append("complete is neither 0 nor 1")
    cells = attrs["size"] ** 2
    for board, index in zip(data["samples/board"], data["samples/index"]):
        if len(text(board)) != cells:
            problems.append(f"sample '{text(board)}' does not have {cells} cells")
        if index > attrs["max_index"]:
            problems.append(f"sample index {index} beyond max_index")
    return problems


def main(argv):
    args = [a for a in argv[1:] if a != "--quiet"]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        problems = check(args[0], "--quiet" in argv)
    except OSError as error:
        problems = [f"cannot open: {error}"]
    for problem in problems:
        print(f"{args[0]}: {problem}", file=sys.stderr)
    if not problems and "--quiet" not in argv:
        print("valid")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
