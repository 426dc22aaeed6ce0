"""sudoku_rules.py -- the rules of a grid, checked apart from the daemon.

The tests judge every solution with this, never against a stored answer:
a solution is right when it fills every cell with 1..n, breaks no row,
column or box, and keeps every given of its puzzle.
"""

import math

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def cells(grid):
    """A puzzle or solution (line-form str or list of ints) as a list of
    ints, 0 for a blank; whitespace in a str is ignored, as on the wire."""
    if isinstance(grid, bytes):
        grid = grid.decode("ascii")
    if isinstance(grid, str):
        out = []
        for ch in grid:
            if ch.isspace():
                continue
            out.append(0 if ch in ".0" else SYMBOLS.index(ch.upper()) + 1)
        return out
    return list(grid)


def side(grid):
    n = math.isqrt(len(cells(grid)))
    assert n * n == len(cells(grid)) and n in (4, 9, 16, 25), "not a grid: %r" % (grid,)
    return n


def units(n):
    """Every row, column and box of an n x n grid, as lists of indices."""
    b = math.isqrt(n)
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [[(br * b + r) * n + bc * b + c for r in range(b) for c in range(b)]
             for br in range(b) for bc in range(b)]
    return rows + cols + boxes


def consistent(grid):
    """True when no unit holds a value twice (blanks allowed)."""
    g = cells(grid)
    n = side(g)
    for u in units(n):
        vals = [g[i] for i in u if g[i]]
        if len(vals) != len(set(vals)):
            return False
    return True


def check_solution(puzzle, solution):
    """Assert solution solves puzzle; returns the solution's cells."""
    p, s = cells(puzzle), cells(solution)
    n = side(p)
    assert len(s) == n * n, "solution has %d cells, puzzle %d" % (len(s), n * n)
    assert all(1 <= v <= n for v in s), "solution has a blank or a value out of range"
    for u in units(n):
        assert sorted(s[i] for i in u) == list(range(1, n + 1)), "a unit breaks the rules"
    for i, (given, v) in enumerate(zip(p, s)):
        assert not given or given == v, "cell %d changes the given %d to %d" % (i, given, v)
    return s


def line(grid):
    """cells -> line form, '.' blanks."""
    return "".join("." if v == 0 else SYMBOLS[v - 1] for v in cells(grid))
