#!/usr/bin/python3
"""The HTML report of a run or a puzzle database: one self-contained page (styles, scripts,
pictures and data inline; the page makes no network request).

Run through the binary, which checks the run or database and gives its digest first:
  rushhour report --run DIR [--out FILE.html] [--samples K] [--indices T]
  rushhour report --clusters DB.h5 [--out FILE.html] [--top N] [--minimal]
The binary calls
  /usr/bin/python3 scripts/report.py --rushhour BINARY (--run DIR | --clusters DB) --out FILE [...]
and this script asks BINARY (`query ... --json`) for every board it shows and its optimal
solution, reads classification.h5 through rushhour_h5.py and a class run's census through
census_limits.py, draws the plots with matplotlib (inline SVG) and fills the templates in
report/ with jinja2. Exit status 0, 2 on bad input (one line on stderr), 1 if the page cannot
be written. Needs python3-h5py, python3-numpy, python3-matplotlib and python3-jinja2.
"""
import argparse
import io
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(HERE, "report")


class ReportError(Exception):
    """Bad input: the message is the one line the user sees."""


def fail(message, status=2):
    print(f"report.py: {message}", file=sys.stderr)
    sys.exit(status)


# ---------------------------------------------------------------------------------------
# Boards and their solutions, as the page's player needs them.

def vehicles_of(board, size):
    """{letter: sorted cells (row, col)} of a board string; walls under 'x'."""
    cells = {}
    for i, ch in enumerate(board):
        if ch not in "o.":
            cells.setdefault(ch, []).append(divmod(i, size))
    return cells


def shape(board, size):
    """The configuration without its labels: the set of each piece's cells."""
    return {frozenset(where) for where in vehicles_of(board, size).values()}


DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def player_moves(size, solution, moves):
    """The solution as (letter of the first board, row delta, column delta) per step or move.
    The search labels each board of a solution afresh, and a move names its vehicle by the
    letter of the board before it: each vehicle is followed by its cells instead."""
    pieces = {letter: list(where) for letter, where in vehicles_of(solution[0], size).items()}
    out = []
    for k, move in enumerate(moves):
        letter, direction, distance = move.split()
        cells = sorted(vehicles_of(solution[k], size)[letter])
        own = next(name for name, where in pieces.items() if sorted(where) == cells)
        dr, dc = DIRECTIONS[direction]
        dr, dc = dr * int(distance), dc * int(distance)
        pieces[own] = [(r + dr, c + dc) for r, c in pieces[own]]
        if {frozenset(w) for w in pieces.values()} != shape(solution[k + 1], size):
            raise ReportError(f"the solution of {solution[0]} does not follow its moves at move {k + 1} ({move})")
        out.append([own, dr, dc])
    return out


class Binary:
    """The rushhour binary, asked for JSON answers; `map` asks on every core at once."""

    def __init__(self, path):
        self.path = path

    def map(self, ask, items):
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            return list(pool.map(ask, items))

    def ask(self, *args):
        process = subprocess.run([self.path, "query", *map(str, args), "--json"], capture_output=True, text=True)
        if process.returncode != 0:
            reason = process.stderr.strip().splitlines()[-1] if process.stderr.strip() else f"exit {process.returncode}"
            raise ReportError(reason.removeprefix("rushhour: "))
        return json.loads(process.stdout)

    def puzzle(self, source, board, metric=None):
        """A board with its optimal solution, as the player takes it (None if it has none)."""
        answer = self.ask(*source, *(["--metric", metric] if metric else []), "--board", board, "--solve")
        if answer.get("status") != "solved":
            return None
        size = math.isqrt(len(board))
        return {"board": board, "index": answer["index"], "moves": player_moves(size, answer["solution"], answer["moves"]),
                "labels": answer["moves"], "final": answer["solution"][-1]}


# ---------------------------------------------------------------------------------------
# Plots: matplotlib to inline SVG, text kept as text.

def svg_of(figure):
    import matplotlib.pyplot as plt
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def new_figure(width=7.5, height=3.4, columns=None):
    """A figure and its axes (a row of `columns` axes when given)."""
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "rushhour", "font.size": 9})
    import matplotlib.pyplot as plt
    if columns is None:
        return plt.subplots(figsize=(width, height))
    figure, axes = plt.subplots(1, columns, figsize=(width, height), squeeze=False)
    return figure, axes[0]


def log_plot(series, title, xlabel, ylabel=None):
    """Lines of (label, values per index, colour) on a log scale; zeros and unknowns left out."""
    figure, axes = new_figure()
    for label, values, colour in series:
        points = [(i, v) for i, v in enumerate(values) if v is not None and v > 0]
        if points:
            axes.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=2.5, lw=1.2,
                      label=label, color=colour)
    axes.set_yscale("log")
    axes.set_xlabel(xlabel)
    if ylabel:
        axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True, which="major", alpha=0.3)
    axes.legend(loc="best", frameon=False)
    return svg_of(figure)


def plot_per_index(figures, title):
    """Configurations, non-dominated configurations and components per index."""
    return log_plot([("configurations", figures["count"], "#1f77b4"),
                     ("non-dominated", figures["nondominated"], "#d62728"),
                     ("components (highest index)", figures["components"], "#2ca02c")], title, "index")


def plot_layers(nodes, seconds, title):
    """A bdd run's BDD nodes and seconds per layer."""
    figure, axes = new_figure()
    axes.plot(range(len(nodes)), nodes, color="#6a3d9a", marker="o", markersize=2.5, lw=1.2, label="BDD nodes")
    axes.set_xlabel("index")
    axes.set_ylabel("BDD nodes")
    right = axes.twinx()
    right.plot(range(len(seconds)), seconds, color="#ff7f0e", lw=1.2, label="seconds")
    right.set_ylabel("seconds")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    lines = axes.get_lines() + right.get_lines()
    axes.legend(lines, [line.get_label() for line in lines], loc="upper left", frameon=False)
    return svg_of(figure)


def plot_census(tallies, title):
    """The highest index of each (cars, trucks): a map, one per number of walls."""
    import numpy as np
    wall_counts = sorted({t.walls for t in tallies})
    figure, all_axes = new_figure(width=3.8 * len(wall_counts), height=3.4, columns=len(wall_counts))
    for axes, walls in zip(all_axes, wall_counts):
        mine = [t for t in tallies if t.walls == walls]
        cars, trucks = max(t.cars for t in mine) + 1, max(t.trucks for t in mine) + 1
        grid = np.full((trucks, cars), np.nan)
        for t in mine:
            highest = max((i for i, c in enumerate(t.figures["count"]) if c), default=None)
            if highest is not None:
                grid[t.trucks, t.cars] = highest
        image = axes.imshow(grid, origin="lower", cmap="viridis", aspect="auto")
        axes.set_xlabel("cars (target included)")
        axes.set_ylabel("trucks")
        axes.set_title(f"{title}, {walls} wall{'s' if walls != 1 else ''}" if len(wall_counts) > 1 else title)
        figure.colorbar(image, ax=axes, label="highest index")
    return svg_of(figure)


def plot_clusters(per_metric, title):
    """Clusters per highest index, one line per metric."""
    return log_plot([(f"{entry['metric']} metric", entry["per_index"], colour)
                     for entry, colour in zip(per_metric, ("#1f77b4", "#d62728"))],
                    title, "highest index of the cluster", "clusters")


# ---------------------------------------------------------------------------------------
# Run reports.

def grouped(n):
    return f"{n:,}".replace(",", "\u2009") if isinstance(n, int) else str(n)


def limits_text(attrs):
    parts = [f"{word} ≤ {attrs[key]}" for key, word in (("max_cars", "cars"), ("max_trucks", "trucks"),
                                                         ("max_vehicles", "vehicles")) if int(attrs[key]) >= 0]
    return ", ".join(parts) if parts else "none"


def walls_text(low, high):
    return "none" if high == 0 else (f"{low}" if low == high else f"{low}–{high}")


def time_v(directory):
    """CPU seconds and peak memory from DIR/time-v.txt (GNU time -v), when the run has one."""
    path = os.path.join(directory, "time-v.txt")
    try:
        text = open(path).read()
    except OSError:
        return None
    user = re.search(r"User time \(seconds\): ([0-9.]+)", text)
    system = re.search(r"System time \(seconds\): ([0-9.]+)", text)
    rss = re.search(r"Maximum resident set size \(kbytes\): ([0-9]+)", text)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([0-9:.]+)", text)
    if not (user and system):
        return None
    return {"cpu": float(user.group(1)) + float(system.group(1)), "rss_mib": int(rss.group(1)) / 1024 if rss else None,
            "wall": wall.group(1) if wall else None}


def run_report(binary, directory, digest, samples, indices):
    import rushhour_h5
    from census_limits import read_census
    try:
        run = rushhour_h5.read_classification(directory)
    except rushhour_h5.FileError as error:
        raise ReportError(str(error))
    a = run.attrs
    size, metric = a["size"], a["metric"]
    low_walls, high_walls = int(a.get("min_walls", 0)), int(a.get("max_walls", 0))
    counts = run.data.get("layers/count", [])
    highest = len(counts) - 1
    nondominated = run.data.get("dominance/nondominated", [])
    components = [int(c) for c in run.data.get("dominance/components", [])]
    nodes = [int(v) for v in run.data.get("layers/bdd_nodes", [])]
    seconds = [float(v) for v in run.data.get("layers/seconds", [])]
    rows = []
    for i in range(highest, -1, -1):
        rows.append({"index": i, "count": counts[i],
                     "nondominated": nondominated[i] if i < len(nondominated) else None,
                     "components": components[i] if i < len(components) and components[i] >= 0 else None,
                     "nodes": nodes[i] if i < len(nodes) else None,
                     "seconds": seconds[i] if i < len(seconds) else None})
    label = f"{size}×{size}, {metric} metric"
    plots = []
    if counts:
        plots.append(plot_per_index({"count": counts, "nondominated": nondominated,
                                     "components": [c if c >= 0 else None for c in components]},
                                    f"{label}: configurations per index"))
    if a["engine"] == "bdd" and any(nodes):
        plots.append(plot_layers(nodes, seconds, f"{label}: BDD nodes and seconds per layer"))

    source = ["--run", directory]
    shown = []  # [{index, count, puzzles}]
    if highest >= 0:
        # The highest indices but index 0 (winning boards need no player).
        listed = list(range(highest, max(highest - indices, 0), -1)) or [highest]
        answers = binary.map(lambda index: binary.ask(*source, "--index", index, "--sample", samples), listed)
        boards = [board for answer in answers for board in answer.get("samples", [])]
        solved = dict(zip(boards, binary.map(lambda board: binary.puzzle(source, board), boards)))
        for index, answer in zip(listed, answers):
            puzzles = [solved[board] for board in answer.get("samples", []) if solved[board]]
            if puzzles or index == highest:
                shown.append({"index": index, "count": answer.get("count"), "puzzles": puzzles})

    census = None
    census_path = os.path.join(directory, "classes-checkpoint.txt")
    if a["engine"] == "classes" and os.path.exists(census_path):
        def refuse(reason):
            raise ReportError(reason)
        _, _, tallies = read_census(census_path, refuse)
        census_rows = []
        for t in sorted(tallies, key=lambda t: (t.walls, t.cars, t.trucks)):
            count = t.figures["count"]
            top = max((i for i, c in enumerate(count) if c), default=None)
            census_rows.append({"walls": t.walls, "cars": t.cars, "trucks": t.trucks, "domain": t.domain,
                                "winning": count[0] if count else 0, "solvable": sum(count), "highest": top,
                                "hardest": count[top] if top is not None else 0,
                                "clusters": sum(t.figures["components"])})
        census = {"rows": census_rows, "walls": high_walls > 0,
                  "plot": plot_census(tallies, f"{label}: highest index per cars and trucks")}

    identity = [("board", f"{size}×{size}, exit row {a['exit_row']}"), ("metric", metric),
                ("domain", a.get("domain", "all")), ("vehicle limits", limits_text(a)),
                ("walls", walls_text(low_walls, high_walls)),
                ("engine", a["engine"] + ("" if a["encoding"] == "none" else f" ({a['encoding']} encoding, "
                                          f"{a['variable_order']} order)")),
                ("complete", "yes" if int(a["complete"]) else "no: the figures are partial"),
                ("tool version", a.get("tool_version", "?"))]
    totals = [("domain", a["domain_count"]), ("winning", a["winning_count"]), ("solvable", a["solvable_count"]),
              ("unsolvable", a["unsolvable_count"]), ("highest index", a["max_index"])]
    cost = [("seconds (the writing process)", f"{float(a.get('seconds', 0)):.1f}"),
            ("peak memory", f"{int(a.get('peak_rss_bytes', 0)) / 2**20:.0f} MiB")]
    measured = time_v(directory)
    if measured:
        cost.append(("CPU seconds (time-v.txt)", f"{measured['cpu']:.1f}"))
        if measured["wall"]:
            cost.append(("wall (time-v.txt)", measured["wall"]))
    return {"kind": "run", "title": f"rushhour: {label}" + (f", {walls_text(low_walls, high_walls)} walls"
                                                              if high_walls else ""),
            "source": os.path.abspath(directory), "size": size, "exit_row": int(a["exit_row"]), "metric": metric,
            "identity": identity, "totals": totals, "cost": cost, "digest": digest,
            "configuration": a.get("configuration", ""), "rows": rows, "plots": plots, "shown": shown,
            "census": census, "complete": bool(int(a["complete"]))}


# ---------------------------------------------------------------------------------------
# Database reports.

def database_report(binary, path, top, minimal):
    import h5py
    try:
        with h5py.File(path, "r") as f:
            attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
    except OSError as error:
        raise ReportError(f"{path}: not an HDF5 file ({str(error).split('(')[0].strip()})")
    if attrs.get("content") != "rushhour clusters":
        raise ReportError(f"{path}: not a rushhour cluster database")
    size, run_metric = int(attrs["size"]), str(attrs["metric"])
    both = str(attrs.get("cluster_metrics", "run")) == "both"
    metrics = [run_metric] + ([m for m in ("step", "move") if m != run_metric] if both else [])
    written_minimal = bool(int(attrs.get("minimal", 0)))
    source = ["--clusters", path]
    per_metric = []
    puzzles = []
    vehicle_counts, wall_counts = set(), set()
    # Which lists to ask for: (metric, index, "all" or "minimal"), highest index first.
    wanted = []
    for metric in metrics:
        counted = binary.ask(*source, "--metric", metric, "--count")
        per_index = counted["per_index"]
        per_metric.append({"metric": metric, "per_index": per_index, "clusters": counted["clusters"]})
        for index in range(len(per_index) - 1, -1, -1):
            if per_index[index]:
                wanted.append((metric, index, "all"))
                if minimal and not written_minimal:
                    wanted.append((metric, index, "minimal"))

    def listing(task):
        metric, index, which = task
        return binary.ask(*source, "--metric", metric, "--index", index, "--sample", top,
                          *(["--minimal"] if which == "minimal" else []))["list"]

    lists = binary.map(listing, wanted)
    # A cluster listed by both lists is one puzzle, minimal.
    entries = {}
    for (metric, index, which), listed in zip(wanted, lists):
        for entry in listed:
            key = (metric, entry["board"])
            if key in entries:
                entries[key][1] = entries[key][1] or which == "minimal"
            else:
                entries[key] = [entry, written_minimal or which == "minimal", index]
    solved = binary.map(lambda key: binary.puzzle(source, key[1], key[0]), list(entries))
    for (metric, board), (entry, is_minimal, index), puzzle in zip(entries, entries.values(), solved):
        if puzzle is None:
            raise ReportError(f"{path}: the cluster of {board} has no solution under {metric}")
        vehicles = entry["cars"] + entry["trucks"]
        walls = entry.get("walls", 0)
        vehicle_counts.add(vehicles)
        wall_counts.add(walls)
        puzzles.append(dict(puzzle, metric=metric, size_of_cluster=entry["size"], cars=entry["cars"],
                            trucks=entry["trucks"], vehicles=vehicles, walls=walls,
                            hardest_count=entry["hardest_count"], winning_count=entry["winning_count"],
                            minimal=is_minimal, public_line=f"{index} {board} {entry['size']}"))
    identity = [("board", f"{size}×{size}, exit row {attrs['exit_row']}"), ("metric", run_metric + (
                    " (each cluster also under " + metrics[1] + ")" if both else "")),
                ("domain", attrs.get("domain", "all")), ("vehicle limits", limits_text(attrs)),
                ("clusters recorded", grouped(int(attrs["clusters"]))),
                ("least highest index recorded", str(attrs.get("cluster_min_index", 0))),
                ("minimal puzzles only", "yes, rule " + str(attrs.get("minimal_rule", "canonical"))
                 if written_minimal else "no"),
                ("hardest configuration shown", attrs.get("hardest_choice", "")),
                ("complete", "yes" if int(attrs.get("complete", 0)) else "no: a work sample or a partial run"),
                ("tool version", attrs.get("tool_version", "?"))]
    return {"kind": "database", "title": f"rushhour puzzle database: {size}×{size}, {attrs.get('domain', 'all')} domain",
            "source": os.path.abspath(path), "size": size, "exit_row": int(attrs["exit_row"]), "identity": identity,
            "configuration": attrs.get("configuration", ""), "per_metric": per_metric, "puzzles": puzzles,
            "plot": plot_clusters(per_metric, f"{size}×{size}: clusters per highest index"),
            "metrics": metrics, "top": top, "minimal_known": written_minimal or minimal,
            "vehicle_counts": sorted(vehicle_counts), "wall_counts": sorted(wall_counts)}


# ---------------------------------------------------------------------------------------

def render(page):
    try:
        import jinja2
    except ImportError:
        fail("python3-jinja2 is missing (scripts/setup.sh installs it)", 1)
    from draw_board import CAR_COLOURS, TRUCK_COLOURS, TARGET_COLOUR, WALL, BOARD_BG, GRID, FRAME, EXIT
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                                     undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    environment.filters["grouped"] = grouped
    colours = {"cars": CAR_COLOURS, "trucks": TRUCK_COLOURS, "target": TARGET_COLOUR, "wall": WALL,
               "board": BOARD_BG, "grid": GRID, "frame": FRAME, "exit": EXIT}
    # The page's data: JSON inside a <script> element, with '<' escaped so no string ends it.
    data = json.dumps({"colours": colours, "page": {k: page[k] for k in ("kind", "size", "exit_row")},
                       "puzzles": page_puzzles(page)}, separators=(",", ":")).replace("<", "\\u003c")
    template = environment.get_template(f"{page['kind']}.html.j2")
    return template.render(page=page, data=data, css=open(os.path.join(TEMPLATES, "report.css")).read(),
                           script=open(os.path.join(TEMPLATES, "player.js")).read())


def page_puzzles(page):
    if page["kind"] == "run":
        return [dict(p, id=f"i{group['index']}-{k}") for group in page["shown"] for k, p in enumerate(group["puzzles"])]
    return [dict(p, id=f"p{k}") for k, p in enumerate(page["puzzles"])]


def main(argv):
    parser = argparse.ArgumentParser(prog="report.py", description=__doc__.split("\n")[0])
    parser.add_argument("--rushhour", required=True, help="the rushhour binary")
    parser.add_argument("--run")
    parser.add_argument("--clusters")
    parser.add_argument("--out", required=True)
    parser.add_argument("--digest", default="")
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--indices", type=int, default=10)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--minimal", action="store_true")
    args = parser.parse_args(argv[1:])
    if bool(args.run) == bool(args.clusters):
        fail("give --run DIR or --clusters DB")
    binary = Binary(args.rushhour)
    try:
        if args.run:
            page = run_report(binary, args.run, args.digest, args.samples, args.indices)
        else:
            page = database_report(binary, args.clusters, args.top, args.minimal)
        text = render(page)
    except ReportError as error:
        fail(str(error))
    temporary = args.out + ".tmp"
    try:
        with open(temporary, "w") as out:
            out.write(text)
        os.replace(temporary, args.out)
    except OSError as error:
        fail(f"cannot write {args.out}: {error.strerror}", 1)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
