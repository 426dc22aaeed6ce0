"""conftest.py -- run the real sudokud for the tests.

The daemon comes from the build tree: $SUDOKUD_BUILD_DIR (default: build/
at the top of the checkout), its bin/sudokud with -P lib/sudokud/plugins,
plus the deliberately wrong test plugin tests/plugins/liar9.so (for the
`internal` error).  A missing build fails the tests, it never skips them.
Each daemon gets a socket in its own temporary directory and is stopped
(SIGTERM, then SIGKILL) when its test or the session ends.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the package, from the source tree
ROOT = os.path.dirname(os.path.dirname(HERE))

import sudokud  # noqa: E402


def build_dir():
    return os.path.abspath(os.environ.get("SUDOKUD_BUILD_DIR") or os.path.join(ROOT, "build"))


class Daemon:
    """One sudokud process on its own socket."""

    def __init__(self, extra=(), sock=None):
        b = build_dir()
        self.binary = os.path.join(b, "bin", "sudokud")
        self.plugins = os.path.join(b, "lib", "sudokud", "plugins")
        self.liar = os.path.join(b, "tests", "plugins", "liar9.so")
        for f in (self.binary, self.plugins):
            if not os.path.exists(f):
                pytest.fail("%s is missing: build first (SUDOKUD_BUILD_DIR=%s)" % (f, b))
        self.dir = tempfile.mkdtemp(prefix="sudokud-py-")
        self.sock = sock or os.path.join(self.dir, "sudokud.sock")
        self.extra = list(extra)
        if os.path.exists(self.liar):
            self.extra += ["--plugin", self.liar]
        self.proc = None
        self.log = os.path.join(self.dir, "stderr.log")

    def start(self):
        with open(self.log, "ab") as log:
            env = {k: v for k, v in os.environ.items()
                   if k not in ("LISTEN_FDS", "NOTIFY_SOCKET", "JOURNAL_STREAM")}
            self.proc = subprocess.Popen(
                [self.binary, "-s", self.sock, "-P", self.plugins] + self.extra,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, env=env)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                pytest.fail("sudokud exited %d: %s" % (self.proc.returncode, self.stderr()))
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                    s.connect(self.sock)
                    return self
            except OSError:
                time.sleep(0.01)
        pytest.fail("sudokud did not come up on %s" % self.sock)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self):
        self.stop()
        return self.start()

    def stderr(self):
        with open(self.log, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def daemon():
    """The daemon most tests share (its counters move between tests)."""
    d = Daemon(["--threads", "4"]).start()  # slow requests leave workers free
    yield d
    d.cleanup()


@pytest.fixture
def start_daemon():
    """A factory for daemons of a test's own: start_daemon(*flags, sock=)."""
    started = []

    def start(*extra, sock=None):
        d = Daemon(extra, sock=sock)
        started.append(d)
        return d.start()

    yield start
    for d in started:
        d.cleanup()


@pytest.fixture
def client(daemon):
    with sudokud.Client(daemon.sock, timeout=60) as c:
        yield c


@pytest.fixture(scope="session")
def has_version(daemon):
    """Whether the daemon knows `version` (the coordinator adds it)."""
    with sudokud.Client(daemon.sock) as c:
        try:
            c.version()
        except sudokud.UnknownMethod:
            return False
    return True


def pytest_sessionfinish(session, exitstatus):
    """A run in which no test passed is a failure, never a silent success
    (pytest itself exits 5 when it collects nothing)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or exitstatus != 0:
        return
    if not reporter.stats.get("passed"):
        session.exitstatus = 1
