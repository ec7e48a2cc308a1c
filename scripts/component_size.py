#!/usr/bin/env python3
"""Prints the number of configurations in the component of a board: every configuration
reachable from it by steps (one vehicle, one cell), through winning ones too.

usage: python3 scripts/component_size.py BOARD

BOARD is a one-line board string (n*n cells, 'o' or '.' empty, one letter per vehicle).
Standard library only; a breadth-first search over unlabeled configurations, meant for
components of up to a few million configurations.
"""
import math
import sys
from collections import deque


def parse(text):
    n = math.isqrt(len(text))
    if n < 2 or n * n != len(text):
        raise ValueError(f"{len(text)} characters is not n*n")
    cells = {}
    for at, ch in enumerate(text):
        if ch not in "o.":
            cells.setdefault(ch, []).append(at)
    vehicles = []
    for ch, run in cells.items():
        row, col = divmod(run[0], n)
        horizontal = len(run) > 1 and run[1] == run[0] + 1
        stride = 1 if horizontal else n
        if len(run) not in (2, 3) or run != [run[0] + k * stride for k in range(len(run))] or (
                horizontal and run[-1] // n != row):
            raise ValueError(f"vehicle {ch} is not a straight run of 2 or 3 cells")
        vehicles.append((horizontal, len(run), row, col))
    return n, tuple(sorted(vehicles))


def neighbours(n, vehicles):
    occupied = set()
    for horizontal, length, row, col in vehicles:
        for k in range(length):
            occupied.add(row * n + col + k if horizontal else (row + k) * n + col)
    for i, (horizontal, length, row, col) in enumerate(vehicles):
        for d in (-1, 1):
            if horizontal:
                if not 0 <= col + d <= n - length:
                    continue
                entered = row * n + (col - 1 if d < 0 else col + length)
                moved = (horizontal, length, row, col + d)
            else:
                if not 0 <= row + d <= n - length:
                    continue
                entered = (row - 1 if d < 0 else row + length) * n + col
                moved = (horizontal, length, row + d, col)
            if entered not in occupied:
                yield tuple(sorted(vehicles[:i] + (moved,) + vehicles[i + 1:]))


def main():
    if len(sys.argv) != 2:
        print("component_size.py: usage: component_size.py BOARD", file=sys.stderr)
        return 2
    try:
        n, start = parse(sys.argv[1])
    except ValueError as error:
        print(f"component_size.py: {error}", file=sys.stderr)
        return 2
    seen = {start}
    queue = deque([start])
    while queue:
        for other in neighbours(n, queue.popleft()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    print(len(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
