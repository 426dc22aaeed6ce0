"""protocol.py -- what both clients share: requests, framing, finding the daemon.

Nothing here does I/O except connect_unix(), the blocking connect of the
synchronous client.  A request is built once, as a Request (method name,
params, and the function that turns the result into its dataclass); the
sync and async clients only differ in how they move its bytes.  Options set
to None are left out, so the daemon applies its own defaults; the daemon is
the judge of every value (a wrong one is a BadRequest), the client checks
only what it must to build the message at all.

Finding the daemon mirrors libsudoku-client (client/client.c): an explicit
path, else $SUDOKUD_SOCKET, else (a user other than root, with
$XDG_RUNTIME_DIR set) the user's own daemon and then the system one, else
the system one alone; when none answers, the error names every socket tried
and what to do about it.
"""

import errno
import grp
import os
import socket
from dataclasses import dataclass
from typing import Any, Callable, List

import msgpack

from . import types as t
from .errors import DaemonUnavailable, ProtocolError, error_from_wire

SYSTEM_SOCKET = "/run/sudokud/sudokud.sock"  # the system daemon's socket
SUN_PATH_MAX = 107  # longest path a sockaddr_un holds (108 with the NUL)
MAX_MESSAGE = 64 << 20  # largest answer accepted (1000 25x25 puzzles fit)
MSGID_MAX = 0xFFFFFFFF  # msgids are uint32

REQUEST, RESPONSE, NOTIFICATION = 0, 1, 2


# --------------------------------------------------------------------------
# Requests


@dataclass
class Request:
    """One request to send: ``decode`` turns the wire result into its type."""

    method: str
    params: list
    decode: Callable[[Any], Any]


def puzzle_param(puzzle):
    """The puzzle as the wire takes it: a str (or bytes, sent as bin) of
    n*n symbols, or a sequence of n*n ints sent as an array."""
    if isinstance(puzzle, (str, bytes)):
        return puzzle
    if isinstance(puzzle, (bytearray, memoryview)):
        return bytes(puzzle)
    if isinstance(puzzle, (list, tuple)):
        return list(puzzle)
    raise TypeError("a puzzle is a str or a list of ints, not %s" % type(puzzle).__name__)


def _options(**opts):
    return {k: v for k, v in opts.items() if v is not None}


def _with_options(params, opts):
    if opts:
        params.append(opts)
    return params


def solve(puzzle, *, solver=None, limit=None, timeout_ms=None):
    opts = _options(solver=solver, limit=limit, timeout_ms=timeout_ms)
    return Request("solve", _with_options([puzzle_param(puzzle)], opts), t.SolveResult.from_wire)


def explain(puzzle, *, steps=None, progress=None, solver=None, timeout_ms=None,
            candidates=None, level=None):
    if progress is not None:
        progress = puzzle_param(progress)
    opts = _options(steps=steps, progress=progress, solver=solver, timeout_ms=timeout_ms,
                    candidates=candidates, level=level)
    return Request("explain", _with_options([puzzle_param(puzzle)], opts),
                   t.Explanation.from_wire)


def rate(puzzle, *, solver=None, timeout_ms=None):
    opts = _options(solver=solver, timeout_ms=timeout_ms)
    return Request("rate", _with_options([puzzle_param(puzzle)], opts), t.Rating.from_wire)


def _decode_puzzles(obj):
    if not isinstance(obj, list):
        raise ProtocolError("malformed generate answer from the daemon: not an array")
    return [t.GeneratedPuzzle.from_wire(p) for p in obj]


def generate(*, size=None, count=None, seed=None, symmetry=None, minimal=None,
             difficulty=None, min_rating=None, max_rating=None, solver=None,
             timeout_ms=None):
    opts = _options(size=size, count=count, seed=seed, symmetry=symmetry, minimal=minimal,
                    difficulty=difficulty, min_rating=min_rating, max_rating=max_rating,
                    solver=solver, timeout_ms=timeout_ms)
    return Request("generate", _with_options([], opts), _decode_puzzles)


def _decode_solvers(obj):
    if not isinstance(obj, list):
        raise ProtocolError("malformed solvers answer from the daemon: not an array")
    return [t.SolverInfo.from_wire(s) for s in obj]


def solvers():
    return Request("solvers", [], _decode_solvers)


def stats():
    return Request("stats", [], t.Stats.from_wire)


def _decode_pong(obj):
    if obj != "pong":
        raise ProtocolError("the daemon answered ping with %r" % (obj,))
    return obj


def ping():
    return Request("ping", [], _decode_pong)


def version():
    return Request("version", [], t.Version.from_wire)


# --------------------------------------------------------------------------
# Messages


def pack_request(msgid, req):
    """The bytes of ``[0, msgid, method, params]``."""
    return msgpack.packb([REQUEST, msgid, req.method, req.params], use_bin_type=True)


def pack_cancel(msgid):
    """The bytes of the notification ``[2, "cancel", [msgid]]``."""
    return msgpack.packb([NOTIFICATION, "cancel", [msgid]], use_bin_type=True)


def new_unpacker():
    """A streaming unpacker for the daemon's side of one connection."""
    return msgpack.Unpacker(raw=False, max_buffer_size=MAX_MESSAGE)


def next_msgid(msgid, in_flight):
    """The msgid after ``msgid`` (1..2^32-1, wrapping) not used by in_flight."""
    for _ in range(len(in_flight) + 1):
        msgid = msgid + 1 if msgid < MSGID_MAX else 1
        if msgid not in in_flight:
            return msgid
    raise RuntimeError("no free msgid")  # cannot happen: 2^32-1 ids


def classify(obj):
    """Sort one message from the daemon.

    Returns ``("response", msgid, error, result)`` or
    ``("notification", method, params)``; raises ProtocolError for anything
    that is not protocol v1.
    """
    if isinstance(obj, (list, tuple)):
        if len(obj) == 4 and obj[0] == RESPONSE and isinstance(obj[1], int):
            if obj[2] is not None and not isinstance(obj[2], dict):
                raise ProtocolError("the daemon sent an error that is not a map")
            return ("response", obj[1], obj[2], obj[3])
        if len(obj) == 3 and obj[0] == NOTIFICATION and isinstance(obj[1], str) \
                and isinstance(obj[2], (list, tuple)):
            return ("notification", obj[1], obj[2])
    raise ProtocolError("the daemon sent a message that is not protocol v1")


def notification_error(method, params):
    """The error an "error" notification announces (the daemon then closes
    the connection), or None for a notification that carries nothing."""
    if method != "error":
        return None
    exc = error_from_wire(params[0] if params else None)
    exc.message = "daemon closed the connection: " + exc.message
    exc.args = (exc.message,)
    return exc


def answer(error, result, decode):
    """The decoded result of a response, or raise its error."""
    if error is not None:
        raise error_from_wire(error)
    return decode(result)


# --------------------------------------------------------------------------
# Finding the daemon


def socket_candidates(path=None, environ=None, euid=None) -> List[str]:
    """The sockets to try, in order (client/client.c's rule).

    ``path``: an explicit socket; ``environ`` and ``euid`` default to this
    process's (they are parameters so the rule can be tested for another
    user).  Raises DaemonUnavailable for an explicit or $SUDOKUD_SOCKET path
    too long for a Unix socket; a too long $XDG_RUNTIME_DIR is skipped.
    """
    env = os.environ if environ is None else environ
    uid = os.geteuid() if euid is None else euid
    if path is not None:
        path = os.fspath(path)
    chosen = path if path else env.get("SUDOKUD_SOCKET")
    if chosen:
        if len(os.fsencode(chosen)) > SUN_PATH_MAX:
            raise DaemonUnavailable("socket path too long (at most %d bytes)" % SUN_PATH_MAX)
        return [chosen]
    out = []
    xdg = env.get("XDG_RUNTIME_DIR")
    if uid != 0 and xdg:
        user = xdg + "/sudokud.sock"
        if len(os.fsencode(user)) <= SUN_PATH_MAX:
            out.append(user)
    out.append(SYSTEM_SOCKET)
    return out


def explain_connect(path, err):
    """Why connecting to path failed, in words an admin can act on."""
    code = getattr(err, "errno", None)
    if code == errno.ENOENT:
        return "no socket at %s: is sudokud running?" % path
    if code == errno.ECONNREFUSED:
        return "nothing listens on %s (a stale socket): is sudokud running?" % path
    if code not in (errno.EACCES, errno.EPERM):
        return "cannot connect to %s: %s" % (path, os.strerror(code) if code else err)
    # The socket's group, else (its directory cannot be searched) the
    # directory's: that is the group to be in.
    try:
        gid = os.stat(path).st_gid
    except OSError:
        try:
            gid = os.stat(os.path.dirname(path) or "/").st_gid
        except OSError:
            return "permission denied on %s" % path
    try:
        group = grp.getgrgid(gid).gr_name
    except KeyError:
        group = str(gid)
    return "permission denied on %s: you are not in group %s" % (path, group)


def connect_failed(whys):
    """The DaemonUnavailable for a list of explain_connect() reasons."""
    return DaemonUnavailable("; ".join(whys))


def connect_unix(candidates, timeout=None):
    """Connect to the first candidate that answers; returns (socket, path).

    The socket is blocking with ``timeout`` for the connect itself; raises
    DaemonUnavailable naming every socket tried.
    """
    whys = []
    for path in candidates:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.settimeout(timeout)
            s.connect(path)
            return s, path
        except OSError as e:
            s.close()
            whys.append(explain_connect(path, e))
    raise connect_failed(whys)
