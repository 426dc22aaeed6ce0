"""test_methods.py -- every method and option of docs/protocol.md through
Client, against the real daemon; every solution judged by sudoku_rules."""

import os
import re
import subprocess

import pytest

import sudokud
from conftest import ROOT, build_dir
from sudoku_rules import cells, check_solution, consistent, line, side

DATA = os.path.join(ROOT, "tests", "data")


def puzzles(name, count=None):
    with open(os.path.join(DATA, name)) as f:
        out = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    return out[:count] if count else out


HARD9 = puzzles("norvig_top95.txt", 1)[0]
P16 = puzzles("daemon_16x16.txt", 1)[0]
P25 = puzzles("25x25_easy.txt", 1)[0]
P4 = "1.3.34..2.4...2."  # protocol.md's example: at least two solutions
UNSOLVABLE9 = "12345678." + "........9" + "." * 63  # r1c9 can only be 9


# --------------------------------------------------------------------------
# solve


@pytest.mark.parametrize("puzzle", [HARD9, P16, P25], ids=["9x9", "16x16", "25x25"])
def test_solve_line_form(client, puzzle):
    r = client.solve(puzzle)
    assert isinstance(r, sudokud.SolveResult)
    assert r.status == "solved" and r.solved and r.count == 1
    assert isinstance(r.solution, str)
    check_solution(puzzle, r.solution)
    assert r.elapsed_us >= 0 and r.guesses >= 0 and r.solver


def test_solve_array_form_answers_an_array(client):
    puzzle = cells(HARD9)
    r = client.solve(puzzle)
    assert isinstance(r.solution, list) and all(isinstance(v, int) for v in r.solution)
    check_solution(puzzle, r.solution)
    assert client.solve(tuple(puzzle)).solution == r.solution


def test_solve_bytes_is_read_as_a_string(client):
    r = client.solve(HARD9.encode())
    assert isinstance(r.solution, str)
    check_solution(HARD9, r.solution)


def test_solve_lower_case_answers_lower_case(client):
    r = client.solve(P16.lower())
    check_solution(P16, r.solution)
    assert r.solution == r.solution.lower() and re.search("[a-p]", r.solution)


def test_solve_limit_counts(client):
    r = client.solve(P4, limit=2)
    assert r.count == 2 and r.status == "solved"  # count == limit: "at least two"
    check_solution(P4, r.solution)
    assert client.solve(HARD9, limit=2).count == 1  # unique
    assert client.solve(P4, limit=1000).count == 2  # exactly two: the count stops below limit
    assert client.solve("." * 16, limit=1000).count == 288  # the number of 4x4 grids


def test_solve_each_solver(client):
    names = [s.name for s in client.solvers() if 9 in s.sizes and s.name != "liar9"]
    assert "bitmask" in names and "dlx" in names
    for name in names:
        r = client.solve(HARD9, solver=name, timeout_ms=20000)
        assert r.solver == name
        check_solution(HARD9, r.solution)


def test_solve_unsolvable(client):
    assert consistent(UNSOLVABLE9)
    r = client.solve(UNSOLVABLE9)
    assert r.status == "unsolvable" and not r.solved
    assert r.solution is None and r.count == 0


def test_solve_timeout_ms_is_sent(client):
    # The empty grid's count never ends: the deadline we send must.
    with pytest.raises(sudokud.Timeout):
        client.solve("." * 81, limit=2**64 - 1, timeout_ms=50)


def test_solve_float_timeout_ms(client, has_version):
    if not has_version:
        pytest.skip("this daemon predates `version` and integral float timeout_ms")
    r = client.solve(HARD9, timeout_ms=5000.0)
    check_solution(HARD9, r.solution)
    with pytest.raises(sudokud.Timeout):
        client.solve("." * 81, limit=2**64 - 1, timeout_ms=50.0)
    with pytest.raises(sudokud.BadRequest):
        client.solve(HARD9, timeout_ms=50.5)


def test_puzzle_of_another_type_is_refused_locally(client):
    with pytest.raises(TypeError):
        client.solve(12345)


# --------------------------------------------------------------------------
# solvers, stats, ping, version


def test_solvers(client):
    solvers = client.solvers()
    assert all(isinstance(s, sudokud.SolverInfo) for s in solvers)
    assert sum(s.default for s in solvers) == 1
    sizes = {n for s in solvers for n in s.sizes}
    for n in sizes:  # every side has exactly one default plugin
        assert sum(n in s.default_sizes for s in solvers) == 1
    assert any(s.explain for s in solvers)
    # A request without solver goes to the default for its size.
    default9 = next(s.name for s in solvers if 9 in s.default_sizes)
    assert client.solve(HARD9).solver == default9


def test_stats_count_our_requests(client):
    before = client.stats()
    assert isinstance(before, sudokud.Stats)
    client.solve(HARD9, solver="dlx")
    with pytest.raises(sudokud.BadPuzzle):
        client.solve("123")
    after = client.stats()
    assert after.requests >= before.requests + 3
    assert after.errors >= before.errors + 1
    assert after.solvers["dlx"].solved == before.solvers["dlx"].solved + 1
    assert after.connections >= 1 and after.connections_total >= after.connections
    assert after.in_flight == 0 and after.uptime_s >= 0 and after.stuck_workers == 0


def test_ping(client):
    rtt = client.ping()
    assert isinstance(rtt, float) and 0 < rtt < 10


def test_version(client, has_version):
    if not has_version:
        pytest.skip("this daemon does not know `version` yet (unknown_method)")
    v = client.version()
    assert isinstance(v, sudokud.Version)
    assert v.protocol == 1
    out = subprocess.run([os.path.join(build_dir(), "bin", "sudokud"), "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert v.daemon in out.split() and re.fullmatch(r"\d+\.\d+\.\d+", v.daemon)
    with open(os.path.join(ROOT, "include", "sudoku", "plugin.h")) as f:
        header = f.read()
    major = re.search(r"#define SDK_ABI_MAJOR\s+(\d+)", header).group(1)
    minor = re.search(r"#define SDK_ABI_MINOR\s+(\d+)", header).group(1)
    assert v.abi == "%s.%s" % (major, minor)


# --------------------------------------------------------------------------
# explain, hint, rate


def replay(puzzle, explanation, solution):
    """Apply every step's placements; check each against the solution."""
    grid = cells(puzzle)
    n = side(grid)
    for step in explanation.steps:
        assert isinstance(step, sudokud.Step) and step.technique and step.text
        assert all(0 <= c < n * n for c in step.cells)
        for cell, value in step.placements:
            assert grid[cell] == 0 and value == solution[cell]
            grid[cell] = value
        for cell, value in step.eliminations:
            assert 1 <= value <= n and value != solution[cell]
    return grid


def test_explain_reaches_the_solution(client):
    g = client.generate(seed=11, difficulty="medium")[0]
    solution = check_solution(g.puzzle, client.solve(g.puzzle).solution)
    e = client.explain(g.puzzle)
    assert isinstance(e, sudokud.Explanation)
    assert e.status == "solved" and e.steps
    assert replay(g.puzzle, e, solution) == solution
    assert e.rating == max(s.rating for s in e.steps)
    assert e.hardest in {s.technique for s in e.steps if s.rating == e.rating}
    assert e.difficulty == "medium" and e.solver and e.elapsed_us >= 0


def test_explain_steps_and_progress(client):
    g = client.generate(seed=12)[0]
    solution = cells(g.solution)
    e = client.explain(g.puzzle, steps=2)
    assert e.status == "partial" and len(e.steps) == 2
    # From a player's grid: the steps start there and never redo its cells.
    progress = cells(g.puzzle)
    filled = [i for i, v in enumerate(progress) if v == 0][:10]
    for i in filled:
        progress[i] = solution[i]
    e = client.explain(g.puzzle, progress=line(progress))
    assert e.status == "solved"
    assert replay(progress, e, solution) == solution
    assert not {c for s in e.steps for c, _ in s.placements} & set(filled)
    e = client.explain(cells(g.puzzle), progress=progress)  # array forms
    assert e.status == "solved"


def test_explain_names_a_mistake(client):
    g = client.generate(seed=13)[0]
    grid, solution = cells(g.puzzle), cells(g.solution)
    n = side(grid)
    for i, v in enumerate(grid):  # a wrong value that breaks no rule yet
        if v:
            continue
        for wrong in range(1, n + 1):
            grid[i] = wrong
            if wrong != solution[i] and consistent(grid):
                break
        else:
            grid[i] = 0
            continue
        break
    e = client.explain(g.puzzle, progress=grid)
    assert e.status == "partial" and len(e.steps) == 1
    assert e.steps[0].technique == "mistake" and e.steps[0].cells == [i]
    assert e.hardest == "mistake"


def test_hint_is_one_step(client):
    g = client.generate(seed=14)[0]
    step = client.hint(g.puzzle)
    assert isinstance(step, sudokud.Step)
    solution = cells(g.solution)
    for cell, value in step.placements:
        assert solution[cell] == value


def house_cells(house, n=9):
    """The cells of a 9x9 house (type, index), as docs/protocol.md numbers them."""
    kind, k = house
    if kind == "row":
        return {k * n + c for c in range(n)}
    if kind == "column":
        return {r * n + k for r in range(n)}
    assert kind == "box"
    return {(k // 3 * 3 + j // 3) * n + k % 3 * 3 + j % 3 for j in range(n)}


def full_marks(grid, n=9):
    """Every candidate the grid's filled cells allow, as per-cell lists."""
    def sees(a, b):
        return (a // n == b // n or a % n == b % n
                or (a // 27 == b // 27 and a % n // 3 == b % n // 3))
    return [[] if grid[i] else
            [d for d in range(1, n + 1)
             if not any(grid[j] == d and sees(i, j) for j in range(n * n))]
            for i in range(n * n)]


def test_hint_levels_and_marks(client):
    g = client.generate(seed=16, difficulty="medium")[0]
    grid = cells(g.puzzle)
    marks = full_marks(grid)
    text = "".join("".join(str(d) if d in m else "." for d in range(1, 10)) for m in marks)
    whole = client.hint(g.puzzle, candidates=marks)
    assert whole.house is None and whole.text
    one = client.hint(g.puzzle, candidates=text, level=1)
    assert one.technique == whole.technique and one.house is None
    assert not (one.placements or one.eliminations or one.cells or one.text)
    two = client.hint(g.puzzle, candidates=marks, level=2)
    three = client.hint(g.puzzle, candidates=text, level=3)
    assert two.technique == three.technique == whole.technique
    assert two.house == three.house and not two.cells and three.cells == whole.cells
    house = house_cells(two.house)
    # the house holds the placed cell, or pattern cells of an elimination
    placed = {c for c, _ in whole.placements}
    assert placed & house if placed else set(whole.cells) & house
    e = client.explain(g.puzzle, level=2)
    assert all(s.house for s in e.steps) and 0.0 < e.ed <= e.ep <= e.rating
    with pytest.raises(sudokud.BadRequest, match="level"):
        client.hint(g.puzzle, level=5)


def test_rate(client):
    g = client.generate(seed=15, difficulty="hard")[0]
    r = client.rate(g.puzzle)
    assert isinstance(r, sudokud.Rating)
    assert r.difficulty == "hard" == g.difficulty and r.rating == g.rating
    assert r.logic is True and r.steps > 0 and r.hardest and r.solver
    assert 0.0 < r.ed <= r.ep <= r.rating  # Sudoku Explainer's diamond, pearl
    assert r.steps == len(client.explain(g.puzzle).steps)


def test_rate_many_in_order(client):
    gs = client.generate(seed=16, count=6)
    rs = client.rate_many([g.puzzle for g in gs], window=3)
    assert [r.rating for r in rs] == [g.rating for g in gs]


# --------------------------------------------------------------------------
# generate


def check_generated(client, g, n):
    assert isinstance(g, sudokud.GeneratedPuzzle)
    assert side(g.puzzle) == n and "0" not in g.puzzle
    check_solution(g.puzzle, g.solution)
    assert g.givens == sum(1 for v in cells(g.puzzle) if v)
    assert client.solve(g.puzzle, limit=2, solver="dlx").count == 1  # unique


def is_minimal(client, puzzle):
    grid = cells(puzzle)
    tries = []
    for i, v in enumerate(grid):
        if v:
            less = list(grid)
            less[i] = 0
            tries.append(less)
    return all(r.count == 2 for r in client.solve_many(tries, limit=2, window=16))


@pytest.mark.parametrize("n", [4, 9, 16])
def test_generate_sizes(client, n):
    # A fixed seed: the same puzzles every run.  (A random one once met
    # a 16x16 grid fill of minutes, since bounded by core/gen_grid.c.)
    gs = client.generate(size=n, count=2, seed=5, minimal=(n != 16), timeout_ms=20000)
    assert len(gs) == 2
    for g in gs:
        check_generated(client, g, n)


def test_generate_seed_remakes(client):
    a = client.generate(seed=1234, count=3)
    b = client.generate(seed=1234, count=3)
    assert [g.puzzle for g in a] == [g.puzzle for g in b]
    again = client.generate(seed=a[2].seed, count=1)[0]
    assert again.puzzle == a[2].puzzle and again.seed == a[2].seed
    assert client.generate(seed=1235, count=3)[0].puzzle != a[0].puzzle


def test_generate_minimal(client):
    g = client.generate(seed=21, minimal=True)[0]
    check_generated(client, g, 9)
    assert is_minimal(client, g.puzzle)
    loose = client.generate(seed=21, minimal=False)[0]
    check_generated(client, loose, 9)
    assert loose.givens >= g.givens


ORBITS = {
    "rotate180": lambda r, c, n: [(n - 1 - r, n - 1 - c)],
    "rotate90": lambda r, c, n: [(c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)],
    "mirror": lambda r, c, n: [(r, n - 1 - c)],
    "flip": lambda r, c, n: [(n - 1 - r, c)],
    "diagonal": lambda r, c, n: [(c, r)],
}


@pytest.mark.parametrize("symmetry", sorted(ORBITS))
def test_generate_symmetry(client, symmetry):
    g = client.generate(seed=31, symmetry=symmetry)[0]
    check_generated(client, g, 9)
    assert g.symmetry == symmetry
    grid = cells(g.puzzle)
    for r in range(9):
        for c in range(9):
            for rr, cc in ORBITS[symmetry](r, c, 9):
                assert bool(grid[r * 9 + c]) == bool(grid[rr * 9 + cc])


def test_generate_difficulty_and_rating_band(client):
    for g in client.generate(seed=41, count=2, difficulty="expert"):
        assert g.difficulty == "expert" == client.rate(g.puzzle).difficulty
    for g in client.generate(seed=42, count=2, min_rating=3.0, max_rating=5.0):
        assert 3.0 <= g.rating <= 5.0
        assert client.rate(g.puzzle).rating == g.rating
    assert all(g.rating >= 2.0 for g in client.generate(seed=43, min_rating=2))


def test_generate_with_a_solver(client):
    g = client.generate(seed=51, solver="dlx")[0]
    check_generated(client, g, 9)


def test_generate_deadline_returns_what_is_done(client):
    try:
        gs = client.generate(size=9, count=1000, timeout_ms=30)
    except sudokud.Timeout:
        return  # none finished in time: also what the contract allows
    assert 1 <= len(gs) < 1000
    for g in gs[:5]:
        check_generated(client, g, 9)


def test_generate_refuses_bad_options(client):
    with pytest.raises(sudokud.BadRequest):
        client.generate(symmetry="spiral")
    with pytest.raises(sudokud.BadRequest):
        client.generate(difficulty="easy", min_rating=1)
    with pytest.raises(sudokud.BadRequest):
        client.generate(count=0)
    with pytest.raises(sudokud.UnknownSolver):
        client.generate(solver="nosuch")
