"""client.py -- the synchronous client: one connection, pipelined.

A Client is one Unix-socket connection to sudokud.  Every request is a Call
registered under its msgid; answers come back in any order and are matched
by msgid, so several requests can be in flight at once (submit(), and
solve_many() / solve_iter(), which keep a window of them and hand answers
back in input order).  The socket is non-blocking and one loop (_pump)
writes what it can and reads what has arrived in the same select(): a
pipelining client can never deadlock against a daemon that stops reading
until its answers are taken (docs/protocol.md, "Flow control").

A connection that dies (the daemon restarted, closed an idle connection)
is noticed by the next read or write; every call then in flight is sent
again, once, on a new connection.  A call that loses its connection a
second time, or finds no daemon to reconnect to, fails with ConnectionLost
or DaemonUnavailable.  An "error" notification (the daemon refused the
connection or the stream) fails the calls in flight with its code, without
a retry, also when a write found the connection closed before it was read.

Threads: a Client is used from one thread at a time, except for cancel(),
which any thread may call while another waits for the answer.
"""

import selectors
import socket
import threading
import time
from collections import deque

from . import protocol as p
from .errors import Cancelled, ClientTimeout, ConnectionLost, DaemonUnavailable, ProtocolError

__all__ = ["Client", "Pending"]

READ_CHUNK = 65536  # bytes asked of one recv()
DEFAULT_WINDOW = 64  # requests in flight in solve_many()
MAX_WINDOW = 4096

_LOST = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


class Pending:
    """A request sent and not yet answered (Client.submit()).

    ``result(timeout=None)`` waits for the answer and returns it or raises
    its error; ``cancel()`` asks the daemon to stop it (the answer is then a
    Cancelled error, unless the result was already on its way).
    """

    __slots__ = ("_client", "msgid", "request", "data", "sent_at", "done", "value", "error",
                 "retried", "cancelled")

    def __init__(self, client, msgid, request):
        self._client = client
        self.msgid = msgid
        self.request = request
        self.data = p.pack_request(msgid, request)
        self.sent_at = time.monotonic()
        self.done = False
        self.value = None
        self.error = None
        self.retried = False
        self.cancelled = False

    def result(self, timeout=None):
        """The decoded answer; raises the daemon's error, ClientTimeout after
        ``timeout`` seconds (the request is then cancelled), or a connection
        error.  ``timeout`` None uses the client's."""
        return self._client._result(self, timeout)

    def cancel(self):
        """Send ``cancel`` for this request (any thread may call it)."""
        self._client.cancel(self)

    def _finish(self, value=None, error=None):
        if not self.done:
            self.done, self.value, self.error = True, value, error


class Client:
    """A connection to sudokud.

    ``path``: the socket (None: $SUDOKUD_SOCKET, the user's, the system's;
    see protocol.socket_candidates).  ``timeout``: seconds to wait for any
    one answer before giving up with ClientTimeout (None: forever); the
    daemon's own deadline is the ``timeout_ms`` option of each method.
    Connects at once (raising DaemonUnavailable) unless ``lazy``.
    """

    def __init__(self, path=None, *, timeout=None, lazy=False):
        self.timeout = timeout
        self._path_arg = path
        self.path = None  # the socket connected to
        self._sock = None
        self._unpacker = None
        self._wbuf = bytearray()
        self._calls = {}  # msgid -> Pending, every unanswered call
        self._msgid = 0
        self._lock = threading.RLock()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._closed = False
        if not lazy:
            self._connect()

    # ----------------------------------------------------------------------
    # Connection

    def _connect(self):
        cands = p.socket_candidates(self._path_arg)
        sock, path = p.connect_unix(cands, self.timeout)
        sock.setblocking(False)
        self._sock, self.path = sock, path
        self._unpacker = p.new_unpacker()
        self._wbuf = bytearray()

    def close(self):
        """Close the connection; calls in flight fail with ConnectionLost."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._drop_connection()
            for call in self._calls.values():
                call._finish(error=ConnectionLost("the client was closed"))
            self._calls.clear()
            self._wake_r.close()
            self._wake_w.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _drop_connection(self):
        if self._sock is not None:
            self._sock.close()
        self._sock = None
        self._wbuf = bytearray()

    def _lost(self, exc, retry=True):
        """The connection died: resend each call in flight once on a new
        one (retry), fail the others with exc."""
        self._drop_connection()
        calls = list(self._calls.values())
        again = [c for c in calls if retry and not c.retried and not c.cancelled]
        for c in calls:
            if c not in again:
                self._calls.pop(c.msgid, None)
                c._finish(error=Cancelled("cancelled; the connection was lost")
                          if c.cancelled else exc)
        if not again:
            return
        try:
            self._connect()
        except DaemonUnavailable as e:
            err = DaemonUnavailable("lost the connection to the daemon and cannot "
                                    "reconnect: " + e.message)
            for c in again:
                self._calls.pop(c.msgid, None)
                c._finish(error=err)
            return
        for c in again:
            c.retried = True
            self._wbuf += c.data

    # ----------------------------------------------------------------------
    # Moving bytes

    def _flush(self):
        """Write what the socket takes now; the connection may die here."""
        while self._wbuf and self._sock is not None:
            try:
                n = self._sock.send(self._wbuf)
            except (BlockingIOError, InterruptedError):
                return
            except _LOST:
                self._read_rest()
                if self._sock is not None:
                    self._lost(ConnectionLost("the daemon closed the connection"))
                return
            del self._wbuf[:n]

    def _read(self):
        try:
            data = self._sock.recv(READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except _LOST:
            data = b""
        if not data:
            self._lost(ConnectionLost("the daemon closed the connection"))
            return
        self._feed(data)

    def _read_rest(self):
        """A write found the daemon gone: what it sent before it went (an
        "error" notification saying why it closed: overloaded, timeout) is
        still in the socket, and is read before the loss is declared."""
        while self._sock is not None:
            try:
                data = self._sock.recv(READ_CHUNK)
            except (BlockingIOError, InterruptedError) + _LOST:
                return
            if not data:
                return
            self._feed(data)

    def _feed(self, data):
        try:
            self._unpacker.feed(data)
            for obj in self._unpacker:
                self._dispatch(p.classify(obj))
                if self._sock is None:
                    return
        except ProtocolError as e:
            self._lost(e, retry=False)
        except Exception as e:  # msgpack's errors: bytes that are not msgpack
            self._lost(ProtocolError("the daemon sent bytes that are not msgpack: %s" % e),
                       retry=False)

    def _dispatch(self, msg):
        if msg[0] == "notification":
            exc = p.notification_error(msg[1], msg[2])
            if exc is not None:
                self._lost(exc, retry=False)
            return
        _, msgid, error, result = msg
        call = self._calls.pop(msgid, None)
        if call is None:
            return  # timed out or abandoned: nobody waits for it
        try:
            call._finish(value=p.answer(error, result, call.request.decode))
        except Exception as e:  # the daemon's error, or a malformed result
            call._finish(error=e)

    def _pump(self, deadline):
        """One round of select(): write, read, or wait until deadline."""
        if self._sock is None:
            return
        sel = selectors.DefaultSelector()
        try:
            events = selectors.EVENT_READ | (selectors.EVENT_WRITE if self._wbuf else 0)
            sel.register(self._sock, events)
            sel.register(self._wake_r, selectors.EVENT_READ)
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = sel.select(wait)
        finally:
            sel.close()
        with self._lock:
            for key, ev in ready:
                if key.fileobj is self._wake_r:
                    self._drain_wake()
                    continue
                if self._sock is None or key.fileobj is not self._sock:
                    continue
                if ev & selectors.EVENT_WRITE:
                    self._flush()
                if ev & selectors.EVENT_READ and self._sock is not None:
                    self._read()
            self._flush()

    def _drain_wake(self):
        try:
            while self._wake_r.recv(64):
                pass
        except (BlockingIOError, InterruptedError):
            pass

    # ----------------------------------------------------------------------
    # Calls

    def _ensure(self):
        if self._closed:
            raise ConnectionLost("the client is closed")
        if self._sock is None:
            self._connect()

    def submit(self, request):
        """Send a protocol.Request now; returns its Pending without waiting."""
        with self._lock:
            self._ensure()
            self._msgid = p.next_msgid(self._msgid, self._calls)
            call = Pending(self, self._msgid, request)
            self._calls[call.msgid] = call
            self._wbuf += call.data
            self._flush()
            return call

    def cancel(self, call):
        """Ask the daemon to stop ``call`` (a Pending).  Safe from any thread:
        the waiting one then gets Cancelled (or the result, if it was
        already sent)."""
        with self._lock:
            if call.done or call.cancelled:
                return
            call.cancelled = True
            if self._sock is None:
                self._calls.pop(call.msgid, None)
                call._finish(error=Cancelled("cancelled before it was sent"))
                return
            self._wbuf += p.pack_cancel(call.msgid)
            self._flush()
            try:
                self._wake_w.send(b"\0")
            except OSError:
                pass

    def _abandon(self, call, why):
        """Give up on call: the daemon is told to stop, its answer ignored."""
        with self._lock:
            if call.done:
                return
            self._calls.pop(call.msgid, None)
            if self._sock is not None:
                self._wbuf += p.pack_cancel(call.msgid)
                self._flush()
            call._finish(error=why)

    def _wait(self, call, timeout):
        timeout = self.timeout if timeout is None else timeout
        deadline = None if timeout is None else call.sent_at + timeout
        while not call.done:
            if self._sock is None:  # cannot happen: losing it finishes every call
                self._abandon(call, ConnectionLost("the connection is gone"))
                break
            if deadline is not None and time.monotonic() >= deadline:
                self._abandon(call, ClientTimeout("no answer within %g s" % timeout))
                break
            self._pump(deadline)
        return call

    def _result(self, call, timeout):
        self._wait(call, timeout)
        if call.error is not None:
            raise call.error
        return call.value

    def call(self, request, timeout=None):
        """Send a protocol.Request and wait for its decoded answer."""
        return self.submit(request).result(timeout)

    # ----------------------------------------------------------------------
    # Methods (docs/protocol.md)

    def solve(self, puzzle, *, solver=None, limit=None, timeout_ms=None, timeout=None):
        """Solve ``puzzle`` (str or list of ints); returns a SolveResult."""
        return self.call(p.solve(puzzle, solver=solver, limit=limit, timeout_ms=timeout_ms),
                         timeout)

    def explain(self, puzzle, *, steps=None, progress=None, solver=None, timeout_ms=None,
                timeout=None, candidates=None, level=None):
        """The steps a person would take; returns an Explanation.
        ``candidates``: the player's pencil marks (the n*n*n-character
        string, or a list of per-cell digit lists); ``level`` 1-4: how much
        of each step to give (2: technique and ``house``)."""
        return self.call(p.explain(puzzle, steps=steps, progress=progress, solver=solver,
                                   timeout_ms=timeout_ms, candidates=candidates, level=level),
                         timeout)

    def hint(self, puzzle, *, progress=None, solver=None, timeout_ms=None, timeout=None,
             candidates=None, level=None):
        """The next step (``explain`` with ``steps: 1``); a Step or None."""
        e = self.explain(puzzle, steps=1, progress=progress, solver=solver,
                         timeout_ms=timeout_ms, timeout=timeout, candidates=candidates,
                         level=level)
        return e.steps[0] if e.steps else None

    def rate(self, puzzle, *, solver=None, timeout_ms=None, timeout=None):
        """How hard ``puzzle`` is for a person; returns a Rating."""
        return self.call(p.rate(puzzle, solver=solver, timeout_ms=timeout_ms), timeout)

    def generate(self, *, size=None, count=None, seed=None, symmetry=None, minimal=None,
                 difficulty=None, min_rating=None, max_rating=None, solver=None,
                 timeout_ms=None, timeout=None):
        """New puzzles, each with one solution; a list of GeneratedPuzzle."""
        return self.call(p.generate(size=size, count=count, seed=seed, symmetry=symmetry,
                                    minimal=minimal, difficulty=difficulty,
                                    min_rating=min_rating, max_rating=max_rating,
                                    solver=solver, timeout_ms=timeout_ms), timeout)

    def solvers(self, *, timeout=None):
        """The loaded plugins, a list of SolverInfo."""
        return self.call(p.solvers(), timeout)

    def stats(self, *, timeout=None):
        """The daemon's counters, a Stats."""
        return self.call(p.stats(), timeout)

    def ping(self, *, timeout=None):
        """Round-trip a ping; returns the time it took, in seconds."""
        start = time.monotonic()
        self.call(p.ping(), timeout)
        return time.monotonic() - start

    def version(self, *, timeout=None):
        """The daemon's version, protocol and plugin ABI, a Version."""
        return self.call(p.version(), timeout)

    # ----------------------------------------------------------------------
    # Pipelines

    def _pipeline(self, requests, window, timeout):
        """Yield (answer or exception) per request, in input order, with at
        most ``window`` requests in flight."""
        if not 1 <= window <= MAX_WINDOW:
            raise ValueError("window must be 1..%d" % MAX_WINDOW)
        queue = deque()
        try:
            for req in requests:
                if len(queue) >= window:
                    yield self._outcome(queue.popleft(), timeout)
                queue.append(self.submit(req))
            while queue:
                yield self._outcome(queue.popleft(), timeout)
        finally:
            for call in queue:  # the caller stopped early
                self._abandon(call, Cancelled("abandoned"))

    def _outcome(self, call, timeout):
        self._wait(call, timeout)
        return call.error if call.error is not None else call.value

    def solve_iter(self, puzzles, *, solver=None, limit=None, timeout_ms=None,
                   window=DEFAULT_WINDOW, timeout=None):
        """Solve every puzzle, pipelined; yields a SolveResult, or the
        exception of a puzzle that failed (BadPuzzle, Timeout, ...), per
        puzzle in input order.  Memory is ``window`` answers however many
        puzzles come."""
        reqs = (p.solve(z, solver=solver, limit=limit, timeout_ms=timeout_ms) for z in puzzles)
        return self._pipeline(reqs, window, timeout)

    def solve_many(self, puzzles, *, solver=None, limit=None, timeout_ms=None,
                   window=DEFAULT_WINDOW, timeout=None, return_exceptions=False):
        """solve_iter() as a list.  Without ``return_exceptions`` the first
        failed puzzle's error is raised (the rest are abandoned)."""
        return self._collect(self.solve_iter(puzzles, solver=solver, limit=limit,
                                             timeout_ms=timeout_ms, window=window,
                                             timeout=timeout), return_exceptions)

    def rate_many(self, puzzles, *, solver=None, timeout_ms=None, window=DEFAULT_WINDOW,
                  timeout=None, return_exceptions=False):
        """``rate`` of every puzzle, pipelined, as solve_many()."""
        reqs = (p.rate(z, solver=solver, timeout_ms=timeout_ms) for z in puzzles)
        return self._collect(self._pipeline(reqs, window, timeout), return_exceptions)

    @staticmethod
    def _collect(answers, return_exceptions):
        out = []
        try:
            for a in answers:
                if isinstance(a, BaseException) and not return_exceptions:
                    raise a
                out.append(a)
        finally:
            answers.close()
        return out

