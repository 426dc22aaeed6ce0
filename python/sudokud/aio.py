"""aio.py -- the asyncio client: one connection shared by many coroutines.

An AsyncClient owns one Unix-socket connection and a reader task that cuts
the daemon's bytes into messages and resolves the future waiting on each
msgid, so any number of coroutines can await answers on the one connection
at once (answers arrive in any order).  Writes go straight to the
transport, which buffers them, while the reader keeps reading: a pipelining
caller cannot deadlock against the daemon's flow control.

Cancelling the task that awaits a call (task.cancel(), asyncio.wait_for,
or the client's own ``timeout``) sends the daemon ``cancel`` for its msgid,
so the work stops there too.  When the connection dies, each call in
flight reconnects once (the first one to get there opens the new
connection, the others share it) and sends its request again; a second
loss, or no daemon to reconnect to, is ConnectionLost or
DaemonUnavailable.  An "error" notification fails the calls in flight with
its code, without a retry.
"""

import asyncio
import time

from . import protocol as p
from .errors import ClientTimeout, ConnectionLost, DaemonUnavailable, ProtocolError

__all__ = ["AsyncClient"]

READ_CHUNK = 65536  # bytes asked of one read()
DEFAULT_WINDOW = 64  # requests in flight in solve_many()


class _Lost(Exception):
    """A call's connection died: ``exc`` to raise, ``retry`` if it may."""

    def __init__(self, exc, retry):
        super().__init__(str(exc))
        self.exc = exc
        self.retry = retry


class _Conn:
    """One connection: its streams, reader task and waiting futures."""

    def __init__(self, reader, writer, path):
        self.reader = reader
        self.writer = writer
        self.path = path
        self.futures = {}  # msgid -> future of (error, result)
        self.msgid = 0
        self.alive = True
        self.task = None

    def usable(self):
        return self.alive and not self.writer.is_closing()

    def send(self, data):
        """Queue bytes on the transport; False when the connection is gone."""
        if not self.usable():
            self.alive = False
            return False
        self.writer.write(data)
        return True

    async def read_loop(self):
        unpacker = p.new_unpacker()
        try:
            while True:
                data = await self.reader.read(READ_CHUNK)
                if not data:
                    raise _Lost(ConnectionLost("the daemon closed the connection"), True)
                try:
                    unpacker.feed(data)
                    for obj in unpacker:
                        self.dispatch(p.classify(obj))
                except ProtocolError as e:
                    raise _Lost(e, False)
                except _Lost:
                    raise
                except Exception as e:  # msgpack's: bytes that are not msgpack
                    raise _Lost(ProtocolError("the daemon sent bytes that are not msgpack: "
                                              "%s" % e), False)
        except _Lost as lost:
            self.fail(lost)
        except (ConnectionError, OSError) as e:
            self.fail(_Lost(ConnectionLost("the connection broke: %s" % e), True))
        except asyncio.CancelledError:
            self.fail(_Lost(ConnectionLost("the client was closed"), False))
            raise

    def dispatch(self, msg):
        if msg[0] == "notification":
            exc = p.notification_error(msg[1], msg[2])
            if exc is not None:
                raise _Lost(exc, False)
            return
        _, msgid, error, result = msg
        fut = self.futures.pop(msgid, None)
        if fut is not None and not fut.done():
            fut.set_result((error, result))

    def fail(self, lost):
        """The connection is over: every waiting call learns why."""
        self.alive = False
        futures, self.futures = self.futures, {}
        for fut in futures.values():
            if not fut.done():
                fut.set_exception(lost)
        self.writer.close()


class AsyncClient:
    """An asyncio connection to sudokud; every method is a coroutine.

    ``path`` and ``timeout`` as for Client.  Use ``async with
    AsyncClient() as c:`` or ``await c.connect()``; a call on a client not
    yet connected connects first.
    """

    def __init__(self, path=None, *, timeout=None):
        self.timeout = timeout
        self._path_arg = path
        self.path = None
        self._conn = None
        self._connecting = None  # asyncio.Lock, made on first use (inside a loop)
        self._closed = False

    async def connect(self):
        """Connect now (raises DaemonUnavailable); returns self."""
        await self._ensure()
        return self

    async def __aenter__(self):
        return await self.connect()

    async def __aexit__(self, *exc):
        await self.close()

    async def close(self):
        """Close the connection; calls in flight fail with ConnectionLost."""
        self._closed = True
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.task.cancel()
            try:
                await conn.task
            except asyncio.CancelledError:
                pass
            try:
                await conn.writer.wait_closed()
            except OSError:
                pass

    async def _open(self):
        whys = []
        for path in p.socket_candidates(self._path_arg):
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_unix_connection(path, limit=p.MAX_MESSAGE), self.timeout)
            except (OSError, asyncio.TimeoutError) as e:
                whys.append(p.explain_connect(path, e))
                continue
            conn = _Conn(reader, writer, path)
            conn.task = asyncio.get_running_loop().create_task(conn.read_loop())
            return conn
        raise p.connect_failed(whys)

    async def _ensure(self):
        """The live connection, opened by whichever call needs it first."""
        if self._closed:
            raise ConnectionLost("the client is closed")
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._conn is None or not self._conn.usable():
                self._conn = await self._open()
                self.path = self._conn.path
            return self._conn

    async def _send_once(self, conn, data_for, deadline):
        """Send one request on conn and wait for its (error, result)."""
        conn.msgid = p.next_msgid(conn.msgid, conn.futures)
        msgid = conn.msgid
        fut = asyncio.get_running_loop().create_future()
        conn.futures[msgid] = fut
        if not conn.send(data_for(msgid)):
            conn.futures.pop(msgid, None)
            raise _Lost(ConnectionLost("the daemon closed the connection"), True)
        try:
            if deadline is None:
                return await fut
            left = max(0.0, deadline - time.monotonic())
            return await asyncio.wait_for(fut, left)
        except (asyncio.CancelledError, asyncio.TimeoutError):
            # Our caller gave up: tell the daemon to stop the work.
            if conn.futures.pop(msgid, None) is not None:
                conn.send(p.pack_cancel(msgid))
            raise

    async def call(self, request, timeout=None):
        """Send a protocol.Request and await its decoded answer."""
        timeout = self.timeout if timeout is None else timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        retried = False
        while True:
            try:
                conn = await self._ensure()
            except DaemonUnavailable as e:
                if not retried:
                    raise
                raise DaemonUnavailable("lost the connection to the daemon and cannot "
                                        "reconnect: " + e.message) from None
            try:
                error, result = await self._send_once(
                    conn, lambda msgid: p.pack_request(msgid, request), deadline)
            except asyncio.TimeoutError:
                raise ClientTimeout("no answer within %g s" % timeout) from None
            except _Lost as lost:
                if not lost.retry or retried:
                    raise lost.exc from None
                retried = True
                continue
            return p.answer(error, result, request.decode)

    # ----------------------------------------------------------------------
    # Methods (docs/protocol.md); arguments as for Client.

    async def solve(self, puzzle, *, solver=None, limit=None, timeout_ms=None, timeout=None):
        """Solve ``puzzle`` (str or list of ints); returns a SolveResult."""
        return await self.call(p.solve(puzzle, solver=solver, limit=limit,
                                       timeout_ms=timeout_ms), timeout)

    async def explain(self, puzzle, *, steps=None, progress=None, solver=None,
                      timeout_ms=None, timeout=None, candidates=None, level=None):
        """The steps a person would take; returns an Explanation."""
        return await self.call(p.explain(puzzle, steps=steps, progress=progress,
                                         solver=solver, timeout_ms=timeout_ms,
                                         candidates=candidates, level=level), timeout)

    async def hint(self, puzzle, *, progress=None, solver=None, timeout_ms=None,
                   timeout=None, candidates=None, level=None):
        """The next step (``explain`` with ``steps: 1``); a Step or None."""
        e = await self.explain(puzzle, steps=1, progress=progress, solver=solver,
                               timeout_ms=timeout_ms, timeout=timeout,
                               candidates=candidates, level=level)
        return e.steps[0] if e.steps else None

    async def rate(self, puzzle, *, solver=None, timeout_ms=None, timeout=None):
        """How hard ``puzzle`` is for a person; returns a Rating."""
        return await self.call(p.rate(puzzle, solver=solver, timeout_ms=timeout_ms), timeout)

    async def generate(self, *, size=None, count=None, seed=None, symmetry=None,
                       minimal=None, difficulty=None, min_rating=None, max_rating=None,
                       solver=None, timeout_ms=None, timeout=None):
        """New puzzles, each with one solution; a list of GeneratedPuzzle."""
        return await self.call(p.generate(size=size, count=count, seed=seed,
                                          symmetry=symmetry, minimal=minimal,
                                          difficulty=difficulty, min_rating=min_rating,
                                          max_rating=max_rating, solver=solver,
                                          timeout_ms=timeout_ms), timeout)

    async def solvers(self, *, timeout=None):
        """The loaded plugins, a list of SolverInfo."""
        return await self.call(p.solvers(), timeout)

    async def stats(self, *, timeout=None):
        """The daemon's counters, a Stats."""
        return await self.call(p.stats(), timeout)

    async def ping(self, *, timeout=None):
        """Round-trip a ping; returns the time it took, in seconds."""
        start = time.monotonic()
        await self.call(p.ping(), timeout)
        return time.monotonic() - start

    async def version(self, *, timeout=None):
        """The daemon's version, protocol and plugin ABI, a Version."""
        return await self.call(p.version(), timeout)

    async def solve_many(self, puzzles, *, solver=None, limit=None, timeout_ms=None,
                         window=DEFAULT_WINDOW, timeout=None, return_exceptions=False):
        """Solve every puzzle with at most ``window`` in flight; the answers
        in input order (exceptions in place with ``return_exceptions``, else
        the first failure is raised and the rest cancelled)."""
        if window < 1:
            raise ValueError("window must be at least 1")
        gate = asyncio.Semaphore(window)

        async def one(puzzle):
            async with gate:
                return await self.solve(puzzle, solver=solver, limit=limit,
                                        timeout_ms=timeout_ms, timeout=timeout)

        tasks = [asyncio.ensure_future(one(z)) for z in puzzles]
        try:
            return await asyncio.gather(*tasks, return_exceptions=return_exceptions)
        finally:
            for task in tasks:
                task.cancel()
