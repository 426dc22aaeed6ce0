"""types.py -- the typed results of the sudokud client, decoded from the wire.

Each dataclass mirrors one result map of docs/protocol.md, field for field.
Decoding checks the type of every key it reads, so a malformed answer is a
ProtocolError, never half a result.  Keys the protocol marks as additions
get a default when an older daemon leaves them out; keys this client does
not know yet are ignored (the protocol only ever adds), and every result
keeps the map it came from in ``raw`` for them.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

from .errors import ProtocolError

__all__ = [
    "SolveResult",
    "SolverInfo",
    "SolverStats",
    "Stats",
    "Step",
    "Explanation",
    "Rating",
    "GeneratedPuzzle",
    "Version",
]

_MISSING = object()


def _get(m, key, types, default=_MISSING, what="answer"):
    """m[key] checked against types; default when absent (if one is given)."""
    if key not in m:
        if default is _MISSING:
            raise ProtocolError("malformed %s from the daemon: no %r" % (what, key))
        return default
    v = m[key]
    # bool is an int in Python: only accept it where bool is asked for.
    if isinstance(v, bool) and bool not in types:
        ok = False
    else:
        ok = isinstance(v, types)
    if not ok:
        raise ProtocolError(
            "malformed %s from the daemon: %r is %s" % (what, key, type(v).__name__)
        )
    return v


def _map(obj, what):
    if not isinstance(obj, dict):
        raise ProtocolError("malformed %s from the daemon: not a map" % what)
    return obj


def _ints(seq, key, what):
    if not isinstance(seq, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in seq
    ):
        raise ProtocolError("malformed %s from the daemon: %r" % (what, key))
    return list(seq)


def _house(obj, what):
    """A step's house {"type": str, "index": int} as (type, index); None when absent."""
    if obj is None:
        return None
    m = _map(obj, what + " house")
    return (_get(m, "type", (str,), what=what + " house"),
            _get(m, "index", (int,), what=what + " house"))


def _pairs(seq, key, what):
    if not isinstance(seq, list):
        raise ProtocolError("malformed %s from the daemon: %r" % (what, key))
    out = []
    for p in seq:
        pair = _ints(p, key, what)
        if len(pair) != 2:
            raise ProtocolError("malformed %s from the daemon: %r" % (what, key))
        out.append((pair[0], pair[1]))
    return out


_NUM = (int, float)


@dataclass
class SolveResult:
    """The answer to ``solve``: ``solution`` is in the puzzle's form (str or
    list of ints), None when unsolvable; ``count == limit`` means "at least"."""

    status: str
    solution: Optional[Union[str, List[int]]]
    count: int
    solver: str
    elapsed_us: int
    guesses: int
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def solved(self) -> bool:
        return self.status == "solved"

    @classmethod
    def from_wire(cls, obj):
        w = "solve answer"
        m = _map(obj, w)
        sol = _get(m, "solution", (str, bytes, list, type(None)), what=w)
        if isinstance(sol, bytes):
            sol = sol.decode("ascii", "replace")
        elif isinstance(sol, list):
            sol = _ints(sol, "solution", w)
        return cls(
            status=_get(m, "status", (str,), what=w),
            solution=sol,
            count=_get(m, "count", (int,), what=w),
            solver=_get(m, "solver", (str,), what=w),
            elapsed_us=_get(m, "elapsed_us", (int,), what=w),
            guesses=_get(m, "guesses", (int,), 0, what=w),
            raw=m,
        )


@dataclass
class SolverInfo:
    """One loaded plugin, as ``solvers`` lists it."""

    name: str
    version: str
    description: str
    sizes: List[int]
    default: bool
    default_sizes: List[int]
    explain: bool
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_wire(cls, obj):
        w = "solvers answer"
        m = _map(obj, w)
        return cls(
            name=_get(m, "name", (str,), what=w),
            version=_get(m, "version", (str,), "", what=w),
            description=_get(m, "description", (str,), "", what=w),
            sizes=_ints(_get(m, "sizes", (list,), what=w), "sizes", w),
            default=_get(m, "default", (bool,), False, what=w),
            default_sizes=_ints(_get(m, "default_sizes", (list,), [], what=w), "default_sizes", w),
            explain=_get(m, "explain", (bool,), False, what=w),
            raw=m,
        )


@dataclass
class SolverStats:
    """One plugin's counters in ``stats``."""

    solved: int
    unsolvable: int
    timeouts: int
    errors: int
    busy_us: int

    @classmethod
    def from_wire(cls, obj):
        w = "stats answer"
        m = _map(obj, w)
        return cls(*(_get(m, k, (int,), 0, what=w) for k in
                     ("solved", "unsolvable", "timeouts", "errors", "busy_us")))


@dataclass
class Stats:
    """The daemon's counters (``stats``)."""

    uptime_s: int
    connections: int
    connections_total: int
    requests: int
    errors: int
    in_flight: int
    stuck_workers: int
    solvers: Dict[str, SolverStats]
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_wire(cls, obj):
        w = "stats answer"
        m = _map(obj, w)
        solvers = _get(m, "solvers", (dict,), {}, what=w)
        return cls(
            uptime_s=_get(m, "uptime_s", _NUM, what=w),
            connections=_get(m, "connections", (int,), what=w),
            connections_total=_get(m, "connections_total", (int,), 0, what=w),
            requests=_get(m, "requests", (int,), what=w),
            errors=_get(m, "errors", (int,), what=w),
            in_flight=_get(m, "in_flight", (int,), what=w),
            stuck_workers=_get(m, "stuck_workers", (int,), 0, what=w),
            solvers={str(k): SolverStats.from_wire(v) for k, v in solvers.items()},
            raw=m,
        )


@dataclass
class Step:
    """One step of an explanation: cells are 0-based row-major indices,
    values 1..n; ``placements`` and ``eliminations`` are (cell, value) pairs.
    A graded step (``level`` 1-3) leaves placements, eliminations and text
    empty (and cells below 3); ``house`` is its (type, index) at levels 2
    and 3, e.g. ("row", 2) for row 3, else None."""

    technique: str
    rating: float
    placements: List[Tuple[int, int]]
    eliminations: List[Tuple[int, int]]
    cells: List[int]
    text: str
    house: Optional[Tuple[str, int]] = None

    @classmethod
    def from_wire(cls, obj):
        w = "explain step"
        m = _map(obj, w)
        return cls(
            technique=_get(m, "technique", (str,), what=w),
            rating=float(_get(m, "rating", _NUM, what=w)),
            placements=_pairs(_get(m, "placements", (list,), [], what=w), "placements", w),
            eliminations=_pairs(_get(m, "eliminations", (list,), [], what=w), "eliminations",
                                w),
            cells=_ints(_get(m, "cells", (list,), [], what=w), "cells", w),
            text=_get(m, "text", (str,), "", what=w),
            house=_house(m.get("house"), w),
        )


@dataclass
class Explanation:
    """The answer to ``explain``: ``status`` is solved, partial or stuck."""

    steps: List[Step]
    status: str
    rating: float
    difficulty: str
    hardest: str
    solver: str
    elapsed_us: int
    raw: dict = field(default_factory=dict, repr=False, compare=False)
    ep: float = 0.0  # Sudoku Explainer's pearl (0.0: not rated)
    ed: float = 0.0  # Sudoku Explainer's diamond (0.0: not rated)

    @classmethod
    def from_wire(cls, obj):
        w = "explain answer"
        m = _map(obj, w)
        return cls(
            steps=[Step.from_wire(s) for s in _get(m, "steps", (list,), what=w)],
            status=_get(m, "status", (str,), what=w),
            rating=float(_get(m, "rating", _NUM, what=w)),
            difficulty=_get(m, "difficulty", (str,), what=w),
            hardest=_get(m, "hardest", (str,), "", what=w),
            solver=_get(m, "solver", (str,), "", what=w),
            elapsed_us=_get(m, "elapsed_us", (int,), 0, what=w),
            raw=m,
            ep=float(_get(m, "ep", _NUM, 0.0, what=w)),
            ed=float(_get(m, "ed", _NUM, 0.0, what=w)),
        )


@dataclass
class Rating:
    """The answer to ``rate``: ``logic`` is False when the techniques got
    stuck (the rating is then 10.0, ``extreme``)."""

    rating: float
    difficulty: str
    hardest: str
    steps: int
    logic: bool
    solver: str
    elapsed_us: int
    raw: dict = field(default_factory=dict, repr=False, compare=False)
    ep: float = 0.0  # Sudoku Explainer's pearl (0.0: not rated)
    ed: float = 0.0  # Sudoku Explainer's diamond (0.0: not rated)

    @classmethod
    def from_wire(cls, obj):
        w = "rate answer"
        m = _map(obj, w)
        return cls(
            rating=float(_get(m, "rating", _NUM, what=w)),
            difficulty=_get(m, "difficulty", (str,), what=w),
            hardest=_get(m, "hardest", (str,), "", what=w),
            steps=_get(m, "steps", (int,), what=w),
            logic=_get(m, "logic", (bool,), what=w),
            solver=_get(m, "solver", (str,), "", what=w),
            elapsed_us=_get(m, "elapsed_us", (int,), 0, what=w),
            raw=m,
            ep=float(_get(m, "ep", _NUM, 0.0, what=w)),
            ed=float(_get(m, "ed", _NUM, 0.0, what=w)),
        )


@dataclass
class GeneratedPuzzle:
    """One puzzle of ``generate``: line form, ``.`` blanks; ``seed`` makes it
    again (count 1, same options)."""

    puzzle: str
    solution: str
    givens: int
    seed: int
    rating: float
    difficulty: str
    symmetry: str
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_wire(cls, obj):
        w = "generate answer"
        m = _map(obj, w)
        return cls(
            puzzle=_get(m, "puzzle", (str,), what=w),
            solution=_get(m, "solution", (str,), what=w),
            givens=_get(m, "givens", (int,), what=w),
            seed=_get(m, "seed", (int,), what=w),
            rating=float(_get(m, "rating", _NUM, 0.0, what=w)),
            difficulty=_get(m, "difficulty", (str,), "", what=w),
            symmetry=_get(m, "symmetry", (str,), "none", what=w),
            raw=m,
        )


@dataclass
class Version:
    """The answer to ``version``: the daemon's release, the protocol version
    and the plugin ABI (``"major.minor"``)."""

    daemon: str
    protocol: int
    abi: str
    raw: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_wire(cls, obj):
        w = "version answer"
        m = _map(obj, w)
        return cls(
            daemon=_get(m, "daemon", (str,), what=w),
            protocol=_get(m, "protocol", (int,), what=w),
            abi=_get(m, "abi", (str,), what=w),
            raw=m,
        )
