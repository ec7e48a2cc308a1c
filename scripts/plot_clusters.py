#!/usr/bin/python3
"""Plot clusters per highest index of puzzle databases, from their database.txt summaries.

Usage: /usr/bin/python3 scripts/plot_clusters.py SUMMARY [SUMMARY ...] [--label TEXT ...]
        [--title TEXT] --out FILE.svg|FILE.png

SUMMARY is a database.txt written by scripts/run_6x6_clusters.sh: the database's root
attributes, one `name value` a line, then a block "clusters per highest index (M metric):"
of `<index> <clusters>` lines, and with `cluster_metrics both` a second block for the other
metric. Each block's clusters must add up to the `clusters` attribute.

Draws one line per summary and metric: clusters per highest index on a log y axis (a colour
per summary; the move metric solid, the step metric dashed). --label, once per summary in
the same order, names its lines (default: e.g. "6x6 puzzle domain"); an incomplete database
(a work sample) or one holding only the clusters from some index up says so in its label.
Prints one line per plotted line: its label, metric, indices, clusters, highest index. In
an SVG each line is the element with id clusters-K-METRIC (K: the summary's place, from 0).

Exit status 0 on success, 2 on bad usage or a missing or malformed summary (one line on
stderr), 1 if the plot cannot be written. Needs numpy and matplotlib (Debian:
python3-matplotlib), hence /usr/bin/python3.
"""
import argparse
import os
import re
import sys

BLOCK = re.compile(r"^clusters per highest index \((step|move) metric\):$")
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#6a3d9a", "#ff7f0e", "#8c564b"]
STYLES = {"move": "-", "step": "--"}


class SummaryError(Exception):
    pass


def read_summary(path):
    """The attributes and, per metric, {highest index: clusters} of one summary."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as error:
        raise SummaryError(f"{path}: cannot read ({error.strerror})")
    attributes, blocks, block = {}, {}, None
    for number, line in enumerate(lines, 1):
        heading = BLOCK.match(line)
        if heading:
            block = blocks.setdefault(heading.group(1), {})
            continue
        if block is None:
            name, _, value = line.partition(" ")
            attributes[name] = value
            continue
        fields = line.split()
        if len(fields) != 2 or not all(field.isdigit() for field in fields):
            raise SummaryError(f"{path}:{number}: expected '<index> <clusters>', got '{line}'")
        index, clusters = int(fields[0]), int(fields[1])
        if index in block:
            raise SummaryError(f"{path}:{number}: index {index} twice")
        block[index] = clusters
    if not blocks:
        raise SummaryError(f"{path}: no 'clusters per highest index (METRIC metric):' block "
                           "(not a database.txt of scripts/run_6x6_clusters.sh)")
    if attributes.get("content") != "rushhour clusters":
        raise SummaryError(f"{path}: not the summary of a rushhour cluster database "
                           "(no 'content rushhour clusters' line)")
    try:
        total = int(attributes["clusters"])
    except (KeyError, ValueError):
        raise SummaryError(f"{path}: no 'clusters N' line")
    for metric, block in blocks.items():
        if sum(block.values()) != total:
            raise SummaryError(f"{path}: the {metric}-metric clusters per index add up to "
                               f"{sum(block.values())}, not the database's {total}")
    return attributes, blocks


def default_label(attributes):
    size = attributes.get("size", "?")
    label = f"{size}x{size} {attributes.get('domain', 'all')} domain"
    limits = [f"{name} ≤ {attributes[key]}" for key, name in
              (("max_cars", "cars"), ("max_trucks", "trucks"), ("max_vehicles", "vehicles"))
              if attributes.get(key, "-1") != "-1"]
    return label + (", " + ", ".join(limits) if limits else "")


def qualifiers(attributes):
    """What a label must add: the database is not every cluster of its domain."""
    notes = []
    if attributes.get("complete") == "0":
        notes.append(f"work sample 1/{attributes.get('work_sample', '?')}")
    if attributes.get("cluster_min_index", "0") != "0":
        notes.append(f"highest {attributes.get('metric')} index ≥ {attributes['cluster_min_index']}")
    if attributes.get("minimal") == "1":
        notes.append("minimal only")
    return f" ({', '.join(notes)})" if notes else ""


def plot(plt, series, title, path):
    fig, ax = plt.subplots(figsize=(10, 5.6), dpi=120)
    highest = 0
    for database, label, metric, block in series:
        indices = sorted(block)
        line, = ax.plot(indices, [block[i] for i in indices], linestyle=STYLES[metric],
                        marker="o", markersize=3, linewidth=1.4,
                        color=COLOURS[database % len(COLOURS)],
                        label=f"{label}, {metric} metric")
        line.set_gid(f"clusters-{database}-{metric}")
        highest = max(highest, indices[-1])
    ax.set_yscale("log")
    ax.set_xlim(-1, highest + 1)
    ax.set_xlabel("highest index of the cluster (its hardest configurations' shortest solution)")
    ax.set_ylabel("clusters (log scale)")
    ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(loc="upper right", fontsize=9, framealpha=0.95)
    fig.suptitle(title, fontsize=12)
    fig.tight_layout()
    # No date, fixed ids: the same summaries give the same file.
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)


def main(argv):
    parser = argparse.ArgumentParser(prog="plot_clusters.py",
                                     description="Plot clusters per highest index.")
    parser.add_argument("summaries", metavar="SUMMARY", nargs="+")
    parser.add_argument("--label", action="append", default=[])
    parser.add_argument("--title", default="Clusters per highest index")
    parser.add_argument("--out", required=True, metavar="FILE")

    def usage(message):
        print(f"plot_clusters.py: {message}", file=sys.stderr)
        sys.exit(2)
    parser.error = usage
    args = parser.parse_args(argv[1:])
    if args.label and len(args.label) != len(args.summaries):
        usage(f"{len(args.label)} --label for {len(args.summaries)} summaries (give one each or none)")
    if not args.out.endswith((".svg", ".png")):
        usage(f"{args.out}: the output must end in .svg or .png")
    try:
        import matplotlib
    except ImportError as error:
        usage(f"needs numpy and matplotlib ({error}); use /usr/bin/python3")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "plot_clusters"
    import matplotlib.pyplot as plt

    series = []
    for k, path in enumerate(args.summaries):
        try:
            attributes, blocks = read_summary(path)
        except SummaryError as error:
            usage(str(error))
        label = (args.label[k] if args.label else default_label(attributes)) + qualifiers(attributes)
        # The run's metric first, as the summary lists it.
        for metric, block in blocks.items():
            series.append((k, label, metric, block))
    try:
        plot(plt, series, args.title, args.out)
    except OSError as error:
        print(f"plot_clusters.py: cannot write {args.out}: {error}", file=sys.stderr)
        return 1
    for _, label, metric, block in series:
        top = max(block)
        print(f"{label}, {metric} metric: {len(block)} indices, {sum(block.values())} clusters, "
              f"highest index {top} ({block[top]} clusters)")
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
