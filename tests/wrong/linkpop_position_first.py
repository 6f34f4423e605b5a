#!/usr/bin/env python3
"""A deliberately WRONG Link and Pop (ZOJ 2391) solution, kept as test data for `gamebench stress`.

It follows the statement except for one priority rule: it pops the first linkable pair in
row-major order whatever its segment count (position before segments), where the statement
pops the pairs with the fewest segments first. Linking (paths of at most three segments
through empty cells, the empty ring around the board included) and movement are right.
"""
import sys

DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))
MAX_SEGMENTS = 3


def segments_from(cells, rows, cols, start):
    """Fewest segments from `start` to every cell of the padded board (None = unreached)."""
    seg = {}
    frontier = [start]
    for count in range(1, MAX_SEGMENTS + 1):
        nxt = []
        for (r, c) in frontier:
            for dr, dc in DIRS:
                y, x = r + dr, c + dc
                while 0 <= y < rows and 0 <= x < cols and (y, x) != start:
                    if (y, x) not in seg:
                        seg[(y, x)] = count
                        if cells[y][x] is None:
                            nxt.append((y, x))
                    if cells[y][x] is not None:
                        break
                    y, x = y + dr, x + dc
        frontier = nxt
    return seg


def choose(cells, rows, cols):
    blocks = [(r, c) for r in range(rows) for c in range(cols) if cells[r][c] is not None]
    for i, a in enumerate(blocks):
        seg = None
        for b in blocks[i + 1:]:
            if cells[b[0]][b[1]] != cells[a[0]][a[1]]:
                continue
            if seg is None:
                seg = segments_from(cells, rows, cols, a)
            # BUG: the first pair in row-major order that links at all, not the fewest segments.
            if seg.get(b, 99) <= MAX_SEGMENTS:
                return a, b
    return None


def solve(board, n, m):
    rows, cols = n + 2, m + 2
    cells = [[None] * cols for _ in range(rows)]
    attrs = [[None] * m for _ in range(n)]
    for r in range(n):
        for c in range(m):
            cells[r + 1][c + 1] = board[r][c][0]
            attrs[r][c] = board[r][c][1]
    step = {'U': (-1, 0), 'D': (1, 0), 'L': (0, -1), 'R': (0, 1)}
    while True:
        pair = choose(cells, rows, cols)
        if pair is None:
            break
        for (r, c) in pair:
            cells[r][c] = None
            attrs[r - 1][c - 1] = None
        while True:
            moved = [[False] * m for _ in range(n)]
            anything = False
            for r in range(n):
                for c in range(m):
                    if moved[r][c] or cells[r + 1][c + 1] is None or attrs[r][c] == 'S':
                        continue
                    dr, dc = step[attrs[r][c]]
                    y, x = r + dr, c + dc
                    if 0 <= y < n and 0 <= x < m and cells[y + 1][x + 1] is None:
                        cells[y + 1][x + 1], cells[r + 1][c + 1] = cells[r + 1][c + 1], None
                        attrs[y][x], attrs[r][c] = attrs[r][c], None
                        moved[y][x] = True
                        anything = True
            if not anything:
                break
    return ["".join(cells[r + 1][c + 1] or '.' for c in range(m)) for r in range(n)]


def main():
    lines = [l for l in sys.stdin.read().split("\n") if l.strip()]
    i, case = 0, 0
    out = []
    while i < len(lines):
        n, m = map(int, lines[i].split())
        if n == 0 and m == 0:
            break
        board = [lines[i + 1 + r].split() for r in range(n)]
        i += 1 + n
        case += 1
        out.append("Case %d" % case)
        out.extend(solve(board, n, m))
    sys.stdout.write("".join(l + "\n" for l in out))


main()
