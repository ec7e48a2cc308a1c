#!/usr/bin/python3
"""Plot a rushhour run: RUN_DIR/classification.h5 (SPEC section 7) to PNG files.

Usage: /usr/bin/python3 scripts/plot_run.py RUN_DIR [--out DIR] [--prefix NAME]

Writes into DIR (default RUN_DIR/plots), each file named PREFIX-WHAT.png, where PREFIX
defaults to e.g. 5x5-step (plus -cars12-trucks4-vehicles9 for the limits that are set):
  PREFIX-counts.png   configurations per index, log scale, with the non-dominated
                      configurations and the components whose highest index it is, when the
                      run has them
  PREFIX-nodes.png    BDD nodes of each layer (skipped for the explicit engine, which has none)
  PREFIX-seconds.png  seconds per layer, with the cumulative time
Titles give the size, exit row, metric, engine (encoding, order) and vehicle limits, and
say when the run is incomplete. Prints the paths written, one a line.

Exit status 0 on success, 2 on bad usage or a missing, unreadable or non-rushhour file (one
line on stderr), 1 if a plot cannot be written. Needs h5py, numpy and matplotlib (Debian:
python3-h5py python3-matplotlib), hence /usr/bin/python3.
"""
import argparse
import os
import sys

NEEDED = ("layers/count", "layers/bdd_nodes", "layers/seconds")
COLOURS = {"count": "#1f77b4", "nondominated": "#d62728", "components": "#2ca02c",
           "nodes": "#6a3d9a", "seconds": "#ff7f0e", "elapsed": "#333333"}


class RunError(Exception):
    pass


def text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def read_run(run_dir):
    import numpy as np

    import rushhour_h5
    path = run_dir if run_dir.endswith(".h5") else os.path.join(run_dir, "classification.h5")
    try:
        # Counts are exact ints in either stored form; the plots draw them as floats, the
        # legend prints them exactly.
        classification = rushhour_h5.read_classification(path)
        attrs, data = classification.attrs, classification.data
        run = {"path": path, "seconds": float(attrs["seconds"])}
        for name in rushhour_h5.INTEGER_ATTRIBUTES + rushhour_h5.TEXT_ATTRIBUTES + rushhour_h5.COUNT_ATTRIBUTES:
            run[name] = attrs[name]
        for name in NEEDED:
            run[name] = np.asarray(data[name], dtype=object) if name == "layers/count" else data[name]
        run["nondominated"] = np.asarray(data.get("dominance/nondominated", []), dtype=object)
        run["components"] = data.get("dominance/components", np.zeros(0))
    except KeyError as error:
        raise RunError(f"{path}: truncated or foreign rushhour file: missing "
                       f"{str(error).strip(chr(34) + chr(39))}")
    except rushhour_h5.FileError as error:
        raise RunError(str(error))
    configuration = text(attrs.get("configuration", ""))
    settings = {}
    for line in configuration.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            settings[key.strip()] = value.strip()
    run["line_code"] = settings.get("line-code")
    layers = len(run["layers/count"])
    if layers == 0:
        raise RunError(f"{path}: the run has no finished layer to plot")
    if any(len(run[name]) != layers for name in NEEDED):
        raise RunError(f"{path}: the /layers datasets differ in length")
    return run


def describe(run):
    """Title lines: what was classified, and how."""
    n = run["size"]
    limits = [f"{label} ≤ {run[key]}" for key, label in
              (("max_cars", "cars"), ("max_trucks", "trucks"), ("max_vehicles", "vehicles"))
              if run[key] >= 0]
    first = (f"{n}×{n} board, exit row {run['exit_row']}, {run['metric']} metric, "
             f"{', '.join(limits) if limits else 'no vehicle limits'}")
    how = run["engine"] + " engine"
    if run["engine"] == "bdd":
        detail = [run["encoding"] + " encoding"]
        if run.get("line_code") and run["encoding"] == "slot":
            detail.append(f"{run['line_code']} line code")
        detail.append(f"{run['variable_order']} order")
        how += " (" + ", ".join(detail) + ")"
    state = "complete" if run["complete"] else \
        f"INCOMPLETE: {len(run['layers/count'])} layers so far"
    return first, f"{how}; {state}"


def prefix_of(run):
    parts = [f"{run['size']}x{run['size']}", run["metric"]]
    for key, label in (("max_cars", "cars"), ("max_trucks", "trucks"), ("max_vehicles", "vehicles")):
        if run[key] >= 0:
            parts.append(f"{label}{run[key]}")
    if run["engine"] != "bdd":
        parts.append(run["engine"])
    return "-".join(parts)


def setup_axes(plt, run, what):
    fig, ax = plt.subplots(figsize=(10, 5.6), dpi=120)
    first, second = describe(run)
    fig.suptitle(f"{what}\n{first}\n{second}", fontsize=11.5, y=0.975, linespacing=1.45)
    ax.grid(True, which="major", axis="y", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.set_xlabel("index (shortest solution length, " + run["metric"] + "s)")
    return fig, ax


def index_ticks(ax, layers):
    from matplotlib.ticker import MaxNLocator, MultipleLocator
    ax.xaxis.set_major_locator(MultipleLocator(1) if layers <= 25 else
                               MaxNLocator(integer=True, nbins=24))
    ax.set_xlim(-0.7, layers - 0.3)


def human(value):
    return f"{value:,}".replace(",", " ")


def plot_counts(plt, np, run, path):
    counts = run["layers/count"].astype(float)
    layers = len(counts)
    x = np.arange(layers)
    fig, ax = setup_axes(plt, run, "Configurations per index")
    ax.bar(x, counts, width=0.8, color=COLOURS["count"], alpha=0.85, label="configurations",
           zorder=2)
    shown_zero = False
    series = (("nondominated", "non-dominated configurations", "o", 6.5),
              ("components", "components whose highest index it is", "s", 4))
    for key, label, marker, size in series:
        values = run[key]
        if len(values) != layers:
            continue
        values = values.astype(float)
        known = values >= 0
        if not known.any():
            continue
        # NaN breaks the line where a figure is zero (log scale) or was not computed (-1).
        ax.plot(x, np.where(values > 0, values, np.nan), marker=marker, markersize=size,
                linestyle="-", linewidth=1.3, color=COLOURS[key], label=label, zorder=3)
        zero = known & (values == 0)
        if zero.any():
            shown_zero = True
            ax.plot(x[zero], np.full(zero.sum(), 0.6), marker="v", linestyle="none",
                    markersize=size + 2.5, color=COLOURS[key], markeredgecolor="white",
                    markeredgewidth=0.8, zorder=3)
    if shown_zero:
        ax.plot([], [], marker="v", linestyle="none", color="#777777",
                label="zero (marked on the bottom edge)")
    ax.set_yscale("log")
    ax.set_ylim(0.4 if shown_zero else 0.7, counts.max() * 4)
    ax.set_ylabel("number (log scale)")
    ax.grid(True, which="major", axis="y", color="#dddddd", linewidth=0.8)
    index_ticks(ax, layers)
    if run["complete"]:
        rest = (f"solvable {human(run['solvable_count'])}\n"
                f"unsolvable {human(run['unsolvable_count'])}\nmax index {layers - 1}")
    else:
        rest = (f"classified {human(run['solvable_count'])}\n"
                f"not yet {human(run['unsolvable_count'])}\nlayers so far {layers}")
    totals = f"domain {human(run['domain_count'])}\nwinning {human(run['winning_count'])}\n{rest}"
    ax.text(0.985, 0.97, totals, transform=ax.transAxes, ha="right", va="top", fontsize=9,
            family="monospace", bbox=dict(boxstyle="round,pad=0.4", facecolor="white",
                                          edgecolor="#bbbbbb"), zorder=4)
    legend = ax.legend(loc="upper center", fontsize=9, framealpha=0.95)
    legend.set_zorder(4)
    return save(plt, fig, path)


def plot_nodes(plt, np, run, path):
    nodes = run["layers/bdd_nodes"].astype(float)
    layers = len(nodes)
    x = np.arange(layers)
    fig, ax = setup_axes(plt, run, "BDD nodes per layer")
    ax.bar(x, nodes, width=0.8, color=COLOURS["nodes"], alpha=0.85, zorder=2)
    positive = nodes[nodes > 0]
    if positive.max() / positive.min() > 100:
        ax.set_yscale("log")
        ax.set_ylim(positive.min() / 1.6, nodes.max() * 2.5)
        ax.set_ylabel("nodes of the layer's BDD (log scale)")
    else:
        ax.set_ylim(0, nodes.max() * 1.15)
        ax.set_ylabel("nodes of the layer's BDD")
        ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: human(int(v))))
    peak = int(nodes.argmax())
    ax.annotate(f"peak {human(int(nodes[peak]))} at index {peak}", xy=(peak, nodes[peak]),
                xytext=(0, 4), textcoords="offset points", ha="center", va="bottom", fontsize=9)
    index_ticks(ax, layers)
    return save(plt, fig, path)


def plot_seconds(plt, np, run, path):
    # NaN: a layer a resumed run loaded from a file that does not record its time.
    recorded = run["layers/seconds"].astype(float)
    unrecorded = int(np.isnan(recorded).sum())
    seconds = np.nan_to_num(recorded, nan=0.0)
    layers = len(seconds)
    x = np.arange(layers)
    fig, ax = setup_axes(plt, run, "Seconds per layer")
    ax.bar(x, seconds, width=0.8, color=COLOURS["seconds"], alpha=0.9, zorder=2,
           label="seconds of the layer")
    positive = seconds[seconds > 0]
    log = len(positive) > 0 and positive.max() / positive.min() > 100
    if log:  # the top decade stays free for the legend and the note
        ax.set_yscale("log")
        ax.set_ylim(positive.min() / 1.6, positive.max() * 12)
    else:
        ax.set_ylim(0, max(seconds.max(), 1e-9) * 1.45)
    ax.set_ylabel("seconds per layer" + (" (log scale)" if log else ""))
    index_ticks(ax, layers)
    twin = ax.twinx()
    elapsed = np.cumsum(seconds)
    twin.plot(x, elapsed, color=COLOURS["elapsed"], marker=".", linewidth=1.4,
              label="cumulative seconds (right axis)")
    twin.set_ylim(0, elapsed[-1] * 1.45 if elapsed[-1] > 0 else 1)
    twin.set_ylabel("cumulative seconds of the layers")
    handles = ax.get_legend_handles_labels()[0] + twin.get_legend_handles_labels()[0]
    labels = ax.get_legend_handles_labels()[1] + twin.get_legend_handles_labels()[1]
    twin.legend(handles, labels, loc="upper left", fontsize=9, framealpha=0.95)
    note = (f"layers: {elapsed[-1]:.3g} s of the run's {run['seconds']:.3g} s\n"
            "the rest: setup, dominance, samples, files")
    if unrecorded:
        note += f"\n{unrecorded} layers loaded without a recorded time (shown as 0)"
    twin.text(0.985, 0.97, note, transform=ax.transAxes,
              ha="right", va="top", fontsize=9, color="#333333",
              bbox=dict(boxstyle="round,pad=0.35", facecolor="white", edgecolor="#bbbbbb"))
    return save(plt, fig, path)


def save(plt, fig, path):
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path)
    plt.close(fig)
    return path


def main(argv):
    parser = argparse.ArgumentParser(prog="plot_run.py",
                                     description="Plot RUN_DIR/classification.h5 to PNG files.")
    parser.add_argument("run_dir", metavar="RUN_DIR")
    parser.add_argument("--out", metavar="DIR", help="output directory (default RUN_DIR/plots)")
    parser.add_argument("--prefix", help="file name prefix (default e.g. 5x5-step)")

    def usage(message):
        print(f"plot_run.py: {message}", file=sys.stderr)
        sys.exit(2)
    parser.error = usage
    args = parser.parse_args(argv[1:])
    try:
        import h5py  # noqa: F401
        import matplotlib
        import numpy as np
    except ImportError as error:
        usage(f"needs h5py, numpy and matplotlib ({error}); use /usr/bin/python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    try:
        run = read_run(args.run_dir)
    except RunError as error:
        usage(str(error))
    out = args.out or os.path.join(args.run_dir, "plots")
    prefix = args.prefix or prefix_of(run)
    try:
        os.makedirs(out, exist_ok=True)
        written = [plot_counts(plt, np, run, os.path.join(out, f"{prefix}-counts.png"))]
        if run["layers/bdd_nodes"].max() > 0:
            written.append(plot_nodes(plt, np, run, os.path.join(out, f"{prefix}-nodes.png")))
        else:
            print(f"plot_run.py: no BDD nodes in this {run['engine']} run; "
                  f"{prefix}-nodes.png not written", file=sys.stderr)
        written.append(plot_seconds(plt, np, run, os.path.join(out, f"{prefix}-seconds.png")))
    except OSError as error:
        print(f"plot_run.py: cannot write plots into {out}: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
