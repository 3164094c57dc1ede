#!/usr/bin/env python3
"""Plain Python BFS baseline for the R x C sliding-tile puzzle.

usage: sliding_bfs.py R C

States are tuples of the n cells in row-major order (0 = blank); the goal is
tiles 1..n-1 in order with the blank last.  A dict maps state -> distance and
a collections.deque is the FIFO queue.  Meant only for the 3x3 comparison
point (2x5 and bigger need a lot of memory and minutes of time).

Output: one "distance states" line per BFS level, then "total N".
"""

import sys
from collections import deque


def main() -> int:
    if len(sys.argv) != 3:
        print(f"usage: {sys.argv[0]} R C", file=sys.stderr)
        return 2
    rows, cols = int(sys.argv[1]), int(sys.argv[2])
    n = rows * cols
    if rows < 1 or cols < 1 or n < 2:
        print("R*C must be at least 2", file=sys.stderr)
        return 2

    # neighbours[b] = cells the blank at b can swap with
    neighbours = []
    for b in range(n):
        r, c = divmod(b, cols)
        nbs = []
        if r > 0:
            nbs.append(b - cols)
        if r < rows - 1:
            nbs.append(b + cols)
        if c > 0:
            nbs.append(b - 1)
        if c < cols - 1:
            nbs.append(b + 1)
        neighbours.append(nbs)

    goal = tuple(range(1, n)) + (0,)
    dist = {goal: 0}
    queue = deque([goal])
    counts = []
    while queue:
        state = queue.popleft()
        d = dist[state]
        if d == len(counts):
            counts.append(0)
        counts[d] += 1
        b = state.index(0)
        for t in neighbours[b]:
            cells = list(state)
            cells[b], cells[t] = cells[t], 0
            nxt = tuple(cells)
            if nxt not in dist:
                dist[nxt] = d + 1
                queue.append(nxt)

    for d, k in enumerate(counts):
        print(d, k)
    print("total", sum(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
