#!/usr/bin/env python3
"""A deliberately WRONG SameGame (UVa 339) simulator, kept as test data for `gamebench stress`.

It follows the statement except for one thing: after gravity, empty columns do NOT disappear
(no column collapse), so the columns to their right never slide left. Everything else (input
stream, region removal, gravity, output layout) is right.
"""
import sys


def main():
    tokens = sys.stdin.read().split()
    pos = 0
    grid_no = 0
    out = []
    while pos + 1 < len(tokens):
        rows, cols = int(tokens[pos]), int(tokens[pos + 1])
        pos += 2
        if rows == 0 or cols == 0:
            break
        grid_no += 1
        # columns[c] = the column's cells bottom-up
        cells = [int(t) for t in tokens[pos:pos + rows * cols]]
        pos += rows * cols
        columns = [[cells[r * cols + c] for r in range(rows)] for c in range(cols)]
        won = False
        while True:
            r, c = int(tokens[pos]), int(tokens[pos + 1])
            pos += 2
            if r == 0 and c == 0:
                break
            if won or not (1 <= r <= rows and 1 <= c <= cols):
                continue
            r, c = r - 1, c - 1
            if r >= len(columns[c]):
                continue
            value = columns[c][r]
            region = {(r, c)}
            stack = [(r, c)]
            while stack:
                y, x = stack.pop()
                for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    ny, nx = y + dy, x + dx
                    if 0 <= nx < cols and 0 <= ny < len(columns[nx]) \
                            and (ny, nx) not in region and columns[nx][ny] == value:
                        region.add((ny, nx))
                        stack.append((ny, nx))
            if len(region) < 2:
                continue
            for x in range(cols):
                columns[x] = [v for y, v in enumerate(columns[x]) if (y, x) not in region]
            # BUG: the statement says empty columns disappear here; this keeps them.
            if all(not col for col in columns):
                won = True
        block = ["Grid %d." % grid_no]
        if all(not col for col in columns):
            block.append("    Game Won")
        else:
            for y in range(rows - 1, -1, -1):
                row = "   "
                for x in range(cols):
                    row += " " + (str(columns[x][y]) if y < len(columns[x]) else " ")
                block.append(row)
        out.append("\n".join(block) + "\n")
    sys.stdout.write("\n".join(out))


main()
