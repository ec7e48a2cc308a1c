#!/usr/bin/python3
"""Draw Rush Hour boards (SPEC section 5 board strings) as SVG or PNG.

Usage:
  /usr/bin/python3 scripts/draw_board.py BOARD [BOARD ...] [--size N] [--exit-row E]
        [--caption TEXT ...] [--columns K] [--title TEXT] --out FILE.svg|FILE.png
  /usr/bin/python3 scripts/draw_board.py --run RUN_DIR [--hardest | --index I] [--sample K]
        [--columns K] [--title TEXT] --out FILE.svg|FILE.png
  /usr/bin/python3 scripts/draw_board.py --clusters-text LIST.txt [--sample K] [--exit-row E]
        [--columns K] [--title TEXT] --out FILE.svg|FILE.png

BOARD is n*n characters, row-major from the top-left: 'o' or '.' empty, 'x' a wall, one
letter per vehicle ('A' the target car). A board may also be given as n lines of n characters (one
argument holding newlines). n is --size, or the square root of the length. The exit row is
--exit-row, default (n-1)//2. With several boards the picture holds one panel per board with
its caption below (--caption once per board; default: the board string).

--run RUN_DIR takes the boards, size and exit row from RUN_DIR/classification.h5: the sample
boards of the highest index (--hardest, the default) or of index I, at most K of them
(--sample, default 8), captioned with their index. This needs h5py.

--clusters-text LIST.txt takes the first K lines (--sample, default 8) of a cluster list
written by `rushhour classify --clusters-text` (`<index> <board> <cluster size>`, hardest
first): the hardest puzzles, captioned with their index and cluster size. The list does not
name the exit row: --exit-row, default (n-1)//2.

The target car is red, the other cars light colours, trucks dark colours with a heavier
outline and a white letter, walls dark grey blocks. The exit is a gap in the right edge of the exit row with an
arrow. .svg is written by hand (no dependency); .png is rendered with matplotlib.

Exit status 0 on success, 2 on a bad board or bad usage (one line on stderr), 1 if the
output cannot be written.
"""
import argparse
import math
import os
import sys
from xml.sax.saxutils import escape

TARGET_COLOUR = "#d7191c"
CAR_COLOURS = ["#80b1d3", "#b3de69", "#fdb462", "#bebada", "#8dd3c7", "#fccde5",
               "#ffed6f", "#d9d9d9", "#d9b38c", "#c7c77a", "#b3e5fc", "#e0c3e8"]
TRUCK_COLOURS = ["#3f2d8f", "#1b7837", "#2166ac", "#8c510a", "#762a83", "#01665e",
                 "#b35806", "#4d4d4d"]
BOARD_BG = "#f2efe6"
GRID = "#c9c3b3"
FRAME = "#3a3a3a"
EXIT = "#d7191c"
WALL = "#5a5a5a"

CELL = 48          # pixels per cell
PAD = 5            # gap between a vehicle and its cells' edges
MARGIN = 14        # around the board
EXIT_SPACE = 44    # room right of the board for the exit arrow
CAPTION_LINE = 17  # caption line height
CAPTION_FONT = 13


class BoardError(Exception):
    """A board string that is not a legal configuration; the message says what and where."""


class Vehicle:
    def __init__(self, letter, cells):
        self.letter = letter
        self.cells = cells  # sorted (row, col)
        self.horizontal = cells[0][0] == cells[-1][0]
        self.length = len(cells)

    @property
    def kind(self):
        return "car" if self.length == 2 else "truck"


class Wall:
    """A fixed 1x1 obstacle ('x'); it never moves and is no vehicle."""
    letter = "x"
    horizontal = False
    length = 1
    kind = "wall"

    def __init__(self, cell):
        self.cells = [cell]


def parse_board(text, size=None, exit_row=None):
    """Returns (n, exit_row, vehicles) or raises BoardError."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) > 1:
        if any(len(line) != len(lines) for line in lines):
            raise BoardError(f"a board given as lines needs n lines of n characters, got "
                             f"{len(lines)} lines of lengths {sorted({len(l) for l in lines})}")
        flat = "".join(lines)
    else:
        flat = lines[0] if lines else ""
    if size is None:
        n = math.isqrt(len(flat))
        if n * n != len(flat):
            raise BoardError(f"board '{flat}' has {len(flat)} characters, not a square number")
    else:
        n = size
        if len(flat) != n * n:
            raise BoardError(f"board '{flat}' has {len(flat)} characters, expected {n * n} for {n}x{n}")
    if n < 2:
        raise BoardError(f"board '{flat}' is too small")
    if exit_row is None:
        exit_row = (n - 1) // 2
    if not 0 <= exit_row < n:
        raise BoardError(f"exit row {exit_row} is outside rows 0..{n - 1}")

    cells = {}
    walls = []
    for i, ch in enumerate(flat):
        row, col = divmod(i, n)
        if ch in "o.":
            continue
        if ch == "x":
            walls.append(Wall((row, col)))
            continue
        if not ch.isascii() or not ch.isalpha():
            raise BoardError(f"board '{flat}': character '{ch}' at row {row}, column {col} "
                             f"is neither 'o'/'.' (empty), 'x' (a wall) nor a vehicle letter")
        cells.setdefault(ch, []).append((row, col))

    vehicles = []
    for letter, where in cells.items():
        where.sort()
        rows = {r for r, _ in where}
        cols = {c for _, c in where}
        straight = (len(rows) == 1 and max(cols) - min(cols) + 1 == len(where)) or \
                   (len(cols) == 1 and max(rows) - min(rows) + 1 == len(where))
        if not straight or len(where) not in (2, 3):
            shown = ", ".join(f"({r},{c})" for r, c in where)
            raise BoardError(f"board '{flat}': vehicle '{letter}' covers {len(where)} cell(s) "
                             f"{shown} (row, column), not a straight run of 2 or 3")
        vehicles.append(Vehicle(letter, where))

    target = next((v for v in vehicles if v.letter == "A"), None)
    if target is None:
        raise BoardError(f"board '{flat}' has no target car 'A'")
    if not target.horizontal or target.length != 2 or target.cells[0][0] != exit_row:
        raise BoardError(f"board '{flat}': target 'A' must be a horizontal car in the exit row "
                         f"{exit_row}")
    rightmost = max((v for v in vehicles if v.horizontal and v.cells[0][0] == exit_row),
                    key=lambda v: v.cells[-1][1])
    if rightmost is not target:
        raise BoardError(f"board '{flat}': '{rightmost.letter}' is right of 'A' in the exit row "
                         f"{exit_row}; 'A' must be the rightmost horizontal vehicle there")
    vehicles += walls
    vehicles.sort(key=lambda v: v.cells[0])
    return n, exit_row, vehicles


# ---------------------------------------------------------------------------------------
# A picture is a list of primitives in pixel coordinates (y down); two back ends draw it.

def board_primitives(n, exit_row, vehicles, x0, y0, caption_lines):
    prims = []
    side = n * CELL
    prims.append(("rect", dict(x=x0, y=y0, w=side, h=side, r=6, fill=BOARD_BG, stroke="none",
                               width=0, cls="board")))
    for k in range(1, n):
        prims.append(("line", dict(x1=x0 + k * CELL, y1=y0, x2=x0 + k * CELL, y2=y0 + side,
                                   stroke=GRID, width=1)))
        prims.append(("line", dict(x1=x0, y1=y0 + k * CELL, x2=x0 + side, y2=y0 + k * CELL,
                                   stroke=GRID, width=1)))
    # Frame with a gap at the exit: top, left, bottom, right above and below the exit row.
    ey0, ey1 = y0 + exit_row * CELL, y0 + (exit_row + 1) * CELL
    frame = [(x0, y0, x0 + side, y0), (x0, y0, x0, y0 + side), (x0, y0 + side, x0 + side, y0 + side)]
    if exit_row > 0:
        frame.append((x0 + side, y0, x0 + side, ey0))
    if exit_row < n - 1:
        frame.append((x0 + side, ey1, x0 + side, y0 + side))
    for x1, y1, x2, y2 in frame:
        prims.append(("line", dict(x1=x1, y1=y1, x2=x2, y2=y2, stroke=FRAME, width=4)))
    # Exit: an arrow right of the gap and the word "exit".
    cy = (ey0 + ey1) / 2
    ax = x0 + side + 6
    prims.append(("line", dict(x1=ax, y1=cy, x2=ax + 22, y2=cy, stroke=EXIT, width=4)))
    prims.append(("polygon", dict(points=[(ax + 20, cy - 8), (ax + 32, cy), (ax + 20, cy + 8)],
                                  fill=EXIT, cls="exit")))
    prims.append(("text", dict(x=ax + 17, y=cy - 12, text="exit", size=11, fill=EXIT,
                               weight="bold", anchor="middle", family="sans-serif")))

    cars = trucks = 0
    for v in vehicles:
        if v.kind == "wall":
            (r, c), = v.cells
            x, y = x0 + c * CELL + PAD / 2, y0 + r * CELL + PAD / 2
            prims.append(("rect", dict(x=x, y=y, w=CELL - PAD, h=CELL - PAD, r=2, fill=WALL,
                                       stroke="#1a1a1a", width=1.5, cls="wall")))
            continue
        if v.letter == "A":
            fill, stroke, width, ink, cls = TARGET_COLOUR, "#7f0000", 2.5, "white", "vehicle car target"
        elif v.kind == "car":
            fill, stroke, width, ink, cls = CAR_COLOURS[cars % len(CAR_COLOURS)], "#505050", 1.5, \
                "#1a1a1a", "vehicle car"
            cars += 1
        else:
            fill, stroke, width, ink, cls = TRUCK_COLOURS[trucks % len(TRUCK_COLOURS)], "#101010", \
                3, "white", "vehicle truck"
            trucks += 1
        (r0, c0), (r1, c1) = v.cells[0], v.cells[-1]
        x, y = x0 + c0 * CELL + PAD, y0 + r0 * CELL + PAD
        w, h = (c1 - c0 + 1) * CELL - 2 * PAD, (r1 - r0 + 1) * CELL - 2 * PAD
        prims.append(("rect", dict(x=x, y=y, w=w, h=h, r=10 if v.kind == "car" else 5, fill=fill,
                                   stroke=stroke, width=width, cls=cls, letter=v.letter)))
        prims.append(("text", dict(x=x + w / 2, y=y + h / 2 + 7, text=v.letter, size=20,
                                   fill=ink, weight="bold", anchor="middle",
                                   family="sans-serif")))
    for i, line in enumerate(caption_lines):
        board_like = len(line) == n * n and " " not in line
        prims.append(("text", dict(x=x0 + (side + EXIT_SPACE) / 2, y=y0 + side + 24 + i * CAPTION_LINE,
                                   text=line, size=CAPTION_FONT, fill="#202020", weight="normal",
                                   anchor="middle",
                                   family="monospace" if board_like else "sans-serif")))
    return prims


def layout(boards, captions, columns, title):
    """boards: list of (n, exit_row, vehicles). Returns (width, height, primitives)."""
    n_max = max(n for n, _, _ in boards)
    caption_rows = max(len(c) for c in captions) if captions else 0
    panel_w = 2 * MARGIN + n_max * CELL + EXIT_SPACE
    panel_w = max(panel_w, max((len(l) * CAPTION_FONT * 0.62 + 2 * MARGIN
                                for c in captions for l in c), default=0))
    panel_h = 2 * MARGIN + n_max * CELL + (caption_rows * CAPTION_LINE + 10 if caption_rows else 0)
    columns = max(1, min(columns, len(boards)))
    rows = math.ceil(len(boards) / columns)
    title_h = 30 if title else 0
    width, height = columns * panel_w, rows * panel_h + title_h
    if title:
        width = max(width, len(title) * 16 * 0.62 + 2 * MARGIN)
    left = (width - columns * panel_w) / 2
    prims = [("rect", dict(x=0, y=0, w=width, h=height, r=0, fill="white", stroke="none", width=0,
                           cls="background"))]
    if title:
        prims.append(("text", dict(x=width / 2, y=22, text=title, size=16, fill="#111111",
                                   weight="bold", anchor="middle", family="sans-serif")))
    for i, (n, exit_row, vehicles) in enumerate(boards):
        r, c = divmod(i, columns)
        x0 = left + c * panel_w + (panel_w - n * CELL - EXIT_SPACE) / 2
        y0 = title_h + r * panel_h + MARGIN + (n_max - n) * CELL / 2
        prims += board_primitives(n, exit_row, vehicles, x0, y0, captions[i])
    return width, height, prims


def write_svg(path, width, height, prims):
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}">']
    for kind, p in prims:
        if kind == "rect":
            extra = f' data-letter="{p["letter"]}"' if "letter" in p else ""
            stroke = f' stroke="{p["stroke"]}" stroke-width="{p["width"]}"' if p["stroke"] != "none" else ""
            out.append(f'<rect class="{p["cls"]}"{extra} x="{p["x"]:.1f}" y="{p["y"]:.1f}" '
                       f'width="{p["w"]:.1f}" height="{p["h"]:.1f}" rx="{p["r"]}" ry="{p["r"]}" '
                       f'fill="{p["fill"]}"{stroke}/>')
        elif kind == "line":
            out.append(f'<line x1="{p["x1"]:.1f}" y1="{p["y1"]:.1f}" x2="{p["x2"]:.1f}" '
                       f'y2="{p["y2"]:.1f}" stroke="{p["stroke"]}" stroke-width="{p["width"]}" '
                       f'stroke-linecap="square"/>')
        elif kind == "polygon":
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in p["points"])
            out.append(f'<polygon class="{p["cls"]}" points="{points}" fill="{p["fill"]}"/>')
        elif kind == "text":
            anchor = {"middle": "middle", "left": "start"}[p["anchor"]]
            out.append(f'<text x="{p["x"]:.1f}" y="{p["y"]:.1f}" font-family="{p["family"]}" '
                       f'font-size="{p["size"]}" font-weight="{p["weight"]}" fill="{p["fill"]}" '
                       f'text-anchor="{anchor}">{escape(p["text"])}</text>')
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def write_png(path, width, height, prims):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch, Polygon

    dpi = 100
    scale = 2  # render at twice the pixel size for a crisp image
    fig = plt.figure(figsize=(width * scale / dpi, height * scale / dpi), dpi=dpi)
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    pt = scale * 72 / dpi  # points per picture pixel
    for z, (kind, p) in enumerate(prims):  # later primitives on top, as in SVG
        if kind == "rect":
            r = min(p["r"], p["w"] / 2, p["h"] / 2)
            style = f"round,pad=0,rounding_size={r}" if r > 0 else "square,pad=0"
            ax.add_patch(FancyBboxPatch((p["x"], p["y"]), p["w"], p["h"], boxstyle=style,
                                        facecolor=p["fill"],
                                        edgecolor=p["stroke"] if p["stroke"] != "none" else "none",
                                        linewidth=p["width"] * pt, mutation_aspect=1, zorder=z))
        elif kind == "line":
            ax.plot([p["x1"], p["x2"]], [p["y1"], p["y2"]], color=p["stroke"],
                    linewidth=p["width"] * pt, solid_capstyle="projecting", zorder=z)
        elif kind == "polygon":
            ax.add_patch(Polygon(p["points"], closed=True, facecolor=p["fill"], edgecolor="none", zorder=z))
        elif kind == "text":
            ax.text(p["x"], p["y"], p["text"], fontsize=p["size"] * pt, color=p["fill"],
                    fontweight=p["weight"], ha="center" if p["anchor"] == "middle" else "left",
                    va="baseline", family=p["family"], zorder=z)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def boards_from_run(run_dir, index, sample):
    try:
        import rushhour_h5
    except ImportError:
        raise BoardError("--run needs h5py (Debian: python3-h5py; use /usr/bin/python3)")
    path = os.path.join(run_dir, "classification.h5")
    try:
        run = rushhour_h5.read_classification(path)
    except rushhour_h5.FileError as error:
        raise BoardError(str(error))
    n, exit_row = run.attrs["size"], run.attrs["exit_row"]
    boards = [board for board, _ in run.samples]
    indices = [i for _, i in run.samples]
    if not boards:
        raise BoardError(f"{path}: holds no sample boards")
    wanted = max(indices) if index is None else index
    chosen = [b for b, i in zip(boards, indices) if i == wanted][:sample]
    if not chosen:
        raise BoardError(f"{path}: no sample boards of index {wanted} "
                         f"(samples cover {sorted(set(indices))})")
    return n, exit_row, chosen, [[f"index {wanted}", b] for b in chosen]


def boards_from_cluster_list(path, sample, per_index):
    """The list's first `sample` lines, or with `per_index` the first `per_index` lines of
    each index (the list is sorted hardest first), `sample` of them in all."""
    chosen, captions = [], []
    taken = {}
    try:
        with open(path) as lines:
            for number, line in enumerate(lines, 1):
                if len(chosen) >= sample:
                    break
                fields = line.split()
                if len(fields) != 3 or not fields[0].isdigit() or not fields[2].isdigit():
                    raise BoardError(f"{path}: line {number} is not '<index> <board> <cluster size>'")
                if per_index is not None:
                    taken[fields[0]] = taken.get(fields[0], 0) + 1
                    if taken[fields[0]] > per_index:
                        continue
                chosen.append(fields[1])
                captions.append([f"index {fields[0]}, cluster {fields[2]}", fields[1]])
    except OSError as error:
        raise BoardError(f"{path}: cannot read ({error.strerror})")
    if not chosen:
        raise BoardError(f"{path}: holds no clusters")
    return chosen, captions


def main(argv):
    parser = argparse.ArgumentParser(
        prog="draw_board.py", description="Draw Rush Hour boards as SVG or PNG.",
        epilog="Example: draw_board.py BBCooDoCEEDAAFoGGoFHIIJJH --out hardest.svg; "
               "draw_board.py --clusters-text clusters.txt --per-index 1 --sample 20 --out page.svg "
               "(the hardest cluster of each of the 20 highest indices)")
    parser.add_argument("boards", nargs="*", metavar="BOARD")
    parser.add_argument("--size", type=int)
    parser.add_argument("--exit-row", type=int)
    parser.add_argument("--caption", action="append", default=[],
                        help="one per board; '|' starts a new caption line")
    parser.add_argument("--columns", type=int, default=4)
    parser.add_argument("--title")
    parser.add_argument("--run", metavar="RUN_DIR")
    parser.add_argument("--clusters-text", metavar="LIST.txt")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--hardest", action="store_true")
    group.add_argument("--index", type=int)
    parser.add_argument("--sample", type=int, default=8)
    parser.add_argument("--per-index", type=int, metavar="K",
                        help="with --clusters-text: the first K clusters of each index")
    parser.add_argument("--out", required=True, metavar="FILE.svg|FILE.png")

    class Usage(Exception):
        pass

    def error(message):
        raise Usage(message)
    parser.error = error
    try:
        args = parser.parse_args(argv[1:])
        extension = os.path.splitext(args.out)[1].lower()
        if extension not in (".svg", ".png"):
            raise Usage(f"--out '{args.out}' must end in .svg or .png")
        if args.clusters_text:
            if args.boards or args.run or args.hardest or args.index is not None:
                raise Usage("--clusters-text goes without BOARD arguments, --run, --hardest, --index")
            if args.per_index is not None and args.per_index < 1:
                raise Usage("--per-index must be at least 1")
            texts, captions = boards_from_cluster_list(args.clusters_text, args.sample, args.per_index)
            size, exit_arg = args.size, args.exit_row
        elif args.per_index is not None:
            raise Usage("--per-index goes with --clusters-text")
        elif args.run:
            if args.boards:
                raise Usage("give either BOARD arguments or --run, not both")
            n, exit_row, texts, captions = boards_from_run(args.run, args.index, args.sample)
            size, exit_arg = n, exit_row if args.exit_row is None else args.exit_row
        else:
            if not args.boards:
                raise Usage("no BOARD given (or --run RUN_DIR)")
            if args.hardest or args.index is not None:
                raise Usage("--hardest and --index need --run RUN_DIR")
            texts, size, exit_arg = args.boards, args.size, args.exit_row
            if args.caption and len(args.caption) != len(texts):
                raise Usage(f"{len(args.caption)} --caption for {len(texts)} boards")
            if args.caption:
                captions = [c.split("|") for c in args.caption]
            elif len(texts) > 1:
                captions = [["".join(t.split())] for t in texts]
            else:
                captions = [[]]
        boards = [parse_board(t, size, exit_arg) for t in texts]
    except (Usage, BoardError) as problem:
        print(f"draw_board.py: {problem}", file=sys.stderr)
        return 2
    if args.columns < 1:
        print("draw_board.py: --columns must be at least 1", file=sys.stderr)
        return 2

    width, height, prims = layout(boards, captions, args.columns, args.title)
    try:
        if extension == ".svg":
            write_svg(args.out, width, height, prims)
        else:
            write_png(args.out, width, height, prims)
    except OSError as problem:
        print(f"draw_board.py: cannot write {args.out}: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
