"""test_errors.py -- each wire error code arrives as its exception class,
and the connection errors carry advice.  Real daemons throughout: the
`internal` error comes from the wrong test plugin liar9, `overloaded` and
`too_large` from daemons started with tight limits."""

import os
import socket
import time

import msgpack
import pytest

import sudokud
from sudokud import protocol
from test_methods import HARD9, P25

EMPTY9 = "." * 81


def raises(cls, fn, *args, **kwargs):
    with pytest.raises(cls) as info:
        fn(*args, **kwargs)
    e = info.value
    assert isinstance(e, sudokud.SudokudError)
    assert e.code == cls.code and isinstance(e.message, str) and e.message
    return e


def test_bad_request(client):
    raises(sudokud.BadRequest, client.solve, HARD9, limit=0)
    raises(sudokud.BadRequest, client.solve, HARD9, timeout_ms="soon")
    raises(sudokud.BadRequest, client.explain, HARD9, steps=0)
    raises(sudokud.BadRequest, client.solve, [1, "x"] + [0] * 79)
    client.ping()  # the connection stays open after each


def test_unknown_method(client):
    e = raises(sudokud.UnknownMethod, client.call,
               protocol.Request("no_such_method", [], lambda r: r))
    assert "no_such_method" in e.message


def test_bad_puzzle(client):
    e = raises(sudokud.BadPuzzle, client.solve, "123")
    assert "3 cells" in e.message
    e = raises(sudokud.BadPuzzle, client.solve, "11" + "." * 79)
    assert "row 1" in e.message
    raises(sudokud.BadPuzzle, client.solve, [10] + [0] * 80)


def test_unknown_solver(client):
    raises(sudokud.UnknownSolver, client.solve, HARD9, solver="no_such_solver")


def test_unsupported(client):
    raises(sudokud.Unsupported, client.explain, P25)  # 25x25 cannot be explained
    raises(sudokud.Unsupported, client.rate, HARD9, solver="bitmask")  # cannot explain
    raises(sudokud.Unsupported, client.solve, "." * 16, solver="liar9")  # 9x9 only


def test_internal(client):
    # liar9 answers with the puzzle itself; the daemon's check catches it.
    raises(sudokud.Internal, client.solve, HARD9, solver="liar9")


def test_not_unique(client):
    e = raises(sudokud.NotUnique, client.rate, EMPTY9)
    assert "more than one" in e.message
    e = raises(sudokud.NotUnique, client.explain, "12345678." + "........9" + "." * 63)
    assert "no solution" in e.message


def test_timeout(client):
    e = raises(sudokud.Timeout, client.solve, EMPTY9, limit=2**64 - 1, timeout_ms=30)
    assert isinstance(e, TimeoutError)


def test_cancelled(client):
    call = client.submit(protocol.solve(EMPTY9, limit=2**64 - 1, timeout_ms=20000))
    call.cancel()
    raises(sudokud.Cancelled, call.result, 10)


def test_overloaded(start_daemon):
    d = start_daemon("--max-connections", "1")
    with sudokud.Client(d.sock, timeout=10) as first:
        for _ in range(250):  # until the daemon has seen the fixture's probe go
            try:
                first.ping()
                break
            except sudokud.Overloaded:
                time.sleep(0.02)
        first.ping()
        with sudokud.Client(d.sock, timeout=10) as second:
            # Refused at accept: an "error" notification, then the close.
            e = raises(sudokud.Overloaded, second.ping)
            assert "closed the connection" in e.message
        first.ping()


def test_refusal_read_after_failed_write(tmp_path):
    # A daemon that refused the connection and closed it before the client
    # wrote: the write fails (EPIPE), yet the notification sent before the
    # close still says why, with no reconnect (this one is gone for good).
    # Before, the write's failure alone decided: ConnectionLost, or the
    # outcome of a race on the reconnect.
    path = str(tmp_path / "refuses.sock")
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(path)
    srv.listen(1)
    with sudokud.Client(path, timeout=10) as c:
        conn, _ = srv.accept()
        conn.sendall(msgpack.packb([2, "error", [{"code": "overloaded",
                                                  "message": "busy; closed the connection"}]]))
        conn.close()
        srv.close()
        time.sleep(0.1)  # the close has reached the client's side
        e = raises(sudokud.Overloaded, c.ping)
        assert "closed the connection" in e.message


def test_too_large(start_daemon):
    d = start_daemon("--max-message", "64")
    with sudokud.Client(d.sock, timeout=10) as c:
        raises(sudokud.TooLarge, c.solve, P25)  # 625 bytes of puzzle
        c.ping()  # the next call opens a new connection


def test_unknown_code_keeps_its_code():
    e = sudokud.errors.error_from_wire({"code": "brand_new", "message": "later"})
    assert type(e) is sudokud.SudokudError and e.code == "brand_new"
    assert isinstance(sudokud.errors.error_from_wire(["no"]), sudokud.ProtocolError)


def test_no_daemon_says_what_to_do(tmp_path):
    path = str(tmp_path / "none.sock")
    with pytest.raises(sudokud.DaemonUnavailable) as info:
        sudokud.Client(path)
    assert isinstance(info.value, ConnectionError)
    assert info.value.code == "connect"
    assert path in info.value.message and "is sudokud running?" in info.value.message


def test_stale_socket_says_so(tmp_path):
    path = str(tmp_path / "stale.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)  # bound, never listening: what a crashed daemon leaves
    try:
        with pytest.raises(sudokud.DaemonUnavailable) as info:
            sudokud.Client(path)
        assert "stale socket" in info.value.message
    finally:
        s.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run as another user")
def test_permission_denied_names_the_group(start_daemon, tmp_path):
    import subprocess
    import sys

    d = start_daemon()  # socket mode 0660, root's group: nobody may not connect
    code = ("import sys, sudokud\n"
            "try:\n    sudokud.Client(sys.argv[1])\n"
            "except sudokud.DaemonUnavailable as e:\n    print(e.message)\n")
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chmod(d.dir, 0o755)
    r = subprocess.run([sys.executable, "-c", code, d.sock], capture_output=True, text=True,
                       user=65534, group=65534, extra_groups=[], cwd="/",
                       env={"PYTHONPATH": pkg, "PATH": "/usr/bin:/bin"})
    if "No module named" in r.stderr:
        pytest.skip("the source tree is not readable by nobody")
    assert "permission denied on %s: you are not in group" % d.sock in r.stdout, r.stderr


class FakeDaemon:
    """A socket that answers each request with what a test scripts: the one
    way to see the client's `protocol` errors (the real daemon is right)."""

    def __init__(self, path, reply):
        import threading

        import msgpack

        self.srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.srv.bind(path)
        self.srv.listen(4)
        self.reply = reply
        self.msgpack = msgpack
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            with conn:
                unpacker = self.msgpack.Unpacker(raw=False)
                while True:
                    data = conn.recv(65536)
                    if not data:
                        break
                    unpacker.feed(data)
                    for req in unpacker:
                        conn.sendall(self.reply(req))

    def close(self):
        self.srv.close()


def test_malformed_answers_are_protocol_errors(tmp_path):
    import msgpack

    def reply(req):
        _, msgid, method, params = req
        if method == "ping":
            return msgpack.packb([1, msgid, None, "pong"])
        if method == "solve":  # a result without its keys
            return msgpack.packb([1, msgid, None, {"status": 3}])
        return b"\xc1"  # not msgpack at all

    path = str(tmp_path / "fake.sock")
    fake = FakeDaemon(path, reply)
    try:
        with sudokud.Client(path, timeout=10) as c:
            e = raises(sudokud.ProtocolError, c.solve, EMPTY9)
            assert e.code == "protocol"
            c.ping()  # one bad answer leaves the connection usable
            raises(sudokud.ProtocolError, c.stats)  # bad bytes end it, no retry
            c.ping()  # a new connection
    finally:
        fake.close()
